"""Class 5 and 7 (databases): a database cardbase cannot use — another program's, damaged, of an
unreadable or newer schema, locked, read-only, unreachable — is refused with one message, exit 2,
no password in it, and nothing added to it."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.conftest import POSTGRES
from tests.hostile.conftest import assert_refused, db_dump, run_cli

READ = ["cards", "search", "grimor"]
WRITE = ["deck", "new", "Hostile", "--game", "mea"]
COMMANDS = [READ, WRITE, ["catalog", "status"], ["deck", "list"]]
IDS = ["search", "deck new", "catalog status", "deck list"]

sqlite_only = pytest.mark.skipif(bool(POSTGRES), reason="SQLite files; the PostgreSQL run covers its own cases below")


def _foreign(tmp: Path) -> str:
    path = tmp / "other-program.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE invoices (id INTEGER, total REAL)")
        conn.execute("INSERT INTO invoices VALUES (1, 9.5)")
    return str(path)


def _foreign_meta(tmp: Path) -> str:
    path = tmp / "other-meta.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE meta (key TEXT, value TEXT)")
        conn.execute("INSERT INTO meta VALUES ('owner', 'someone else')")
    return str(path)


def _damaged(tmp: Path) -> str:
    path = tmp / "damaged.db"
    path.write_bytes(b"SQLite format 3\x00" + b"\xff" * 8192)
    return str(path)


def _text_file(tmp: Path) -> str:
    path = tmp / "notes.db"
    path.write_text("these are my notes\n" * 200, encoding="utf-8")
    return str(path)


def _schema(version: str):
    def make(tmp: Path, template: str) -> str:
        path = tmp / f"schema-{version}.db"
        shutil.copyfile(template, path)
        with sqlite3.connect(path) as conn:
            conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (version,))
        return str(path)

    return make


FILES = [
    ("foreign", _foreign, "not a cardbase database"),
    ("foreign-meta", _foreign_meta, "not a cardbase database"),
    ("damaged", _damaged, "damaged"),
    ("text-file", _text_file, "damaged"),
]
SCHEMAS = [("abc", "not a number"), ("999", "newer"), ("-1", "no migration"), ("", "not a number")]


@sqlite_only
@pytest.mark.parametrize("argv", COMMANDS, ids=IDS)
@pytest.mark.parametrize(("kind", "make", "phrase"), FILES, ids=[f[0] for f in FILES])
def test_unusable_sqlite_file_is_refused_and_left_alone(kind, make, phrase, argv, tmp_path: Path) -> None:
    path = make(tmp_path)
    before = Path(path).read_bytes()
    assert_refused(run_cli(argv, path), 2, phrase)
    assert Path(path).read_bytes() == before


@sqlite_only
@pytest.mark.parametrize("argv", COMMANDS, ids=IDS)
@pytest.mark.parametrize(("version", "phrase"), SCHEMAS, ids=[s[0] or "empty" for s in SCHEMAS])
def test_unreadable_schema_version_is_refused(version, phrase, argv, hostile_db: str, tmp_path: Path) -> None:
    path = _schema(version)(tmp_path, hostile_db)
    before = db_dump(path)
    assert_refused(run_cli(argv, path), 2, phrase)
    assert db_dump(path) == before


URLS = [
    ("postgresql://alice:hunter2-secret@127.0.0.1:1/cards", "connection"),
    ("postgresql://alice:hunter2-secret@[::1", "cannot use database URL"),
    ("postgresql://alice:hunter2-secret@127.0.0.1:notaport/db", "cannot use database URL"),
    ("mysql://alice:hunter2-secret@127.0.0.1:1/cards", "cannot use database URL"),
    ("bogus://alice:hunter2-secret@host/db", "cannot use database URL"),
    ("sqlite:////dev/zero", ""),
    ("sqlite:////nonexistent-folder/cards.db", "does not exist"),
    ("/nonexistent-folder/cards.db", "does not exist"),
]


@pytest.mark.parametrize("argv", COMMANDS, ids=IDS)
@pytest.mark.parametrize(("url", "phrase"), URLS, ids=[u[0].split("@")[-1][:30] for u in URLS])
def test_unusable_url_is_refused_without_its_password(url: str, phrase: str, argv: list[str]) -> None:
    run = run_cli(argv, url)
    assert_refused(run, 2, phrase)
    assert "hunter2" not in run.stdout + run.stderr


@sqlite_only
@pytest.mark.parametrize(
    "argv", [WRITE, ["deck", "add", "Mine", "Selounticia"], ["catalog", "import", "{csv}", "--game", "mea"]]
)
def test_read_only_database_refuses_writes_and_stays_as_it_was(argv, hostile_db: str, tmp_path: Path) -> None:
    run_cli(["deck", "new", "Mine", "--game", "mea"], hostile_db)
    csv = tmp_path / "cards.csv"
    csv.write_text("name,type,cost\nNew Card,monster,2\n", encoding="utf-8")
    url = f"sqlite:///file:{hostile_db}?mode=ro&uri=true"
    before = db_dump(hostile_db)
    run = run_cli([a.replace("{csv}", str(csv)) for a in argv], url)
    assert_refused(run, 2, "read-only")
    assert db_dump(hostile_db) == before


@contextmanager
def held_by_another_program(path: str, statements: str) -> Iterator[None]:
    """While another process holds the SQLite file ``path`` as ``statements`` leave it (run on its
    connection ``c``: a transaction begun, a lock taken), until the block ends."""
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sqlite3, sys, time\n"
            "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
            f"{statements}\nprint('holding', flush=True)\ntime.sleep(30)\n",
            path,
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
        yield
    finally:
        holder.kill()
        holder.wait()


@sqlite_only
def test_locked_database_says_so_after_waiting(hostile_db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from cardbase.db import engine

    monkeypatch.setattr(engine, "LOCK_WAIT_SECONDS", 1)  # the wait is the same code for 1 s as for 10
    with held_by_another_program(hostile_db, "c.execute('BEGIN EXCLUSIVE')"):
        assert_refused(run_cli(WRITE, hostile_db), 2, "locked by another program or request (waited 1 s)")
    time.sleep(0.1)
    assert "Hostile" not in str(db_dump(hostile_db))


@sqlite_only
def test_a_database_another_program_reads_is_busy_when_its_journal_cannot_be_switched(
    hostile_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cardbase file in the rollback journal (as an old cardbase or another tool left it) is switched
    to WAL as it opens; while another program reads it the switch cannot be had. That was the driver's
    'database is locked' as a traceback (programs opening a new file together hit it 1 time in 10);
    it is tried again within the budget, then said as busy."""
    from cardbase.db import engine

    with sqlite3.connect(hostile_db, isolation_level=None) as conn:
        assert conn.execute("PRAGMA journal_mode=DELETE").fetchone() == ("delete",)
    conn.close()
    monkeypatch.setattr(engine, "LOCK_WAIT_SECONDS", 1)
    with held_by_another_program(hostile_db, "c.execute('BEGIN'); c.execute('SELECT count(*) FROM meta').fetchall()"):
        assert_refused(run_cli(["deck", "list"], hostile_db), 2, "locked by another program or request (waited 1 s)")
    run = run_cli(["deck", "list"], hostile_db)  # the reader gone, it opens and is switched
    assert run.exit_code == 0, run.output
    with sqlite3.connect(hostile_db) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    conn.close()


def test_a_folder_is_not_a_database(tmp_path: Path) -> None:
    assert_refused(run_cli(READ, str(tmp_path)), 2)


@pytest.mark.parametrize("given", ["", "   ", "\t"])
@pytest.mark.parametrize("argv", [["deck", "list"], ["deck", "new", "Mine", "--game", "mea"]], ids=["read", "write"])
def test_an_empty_db_option_is_refused_not_taken_as_the_default(given: str, argv: list[str], in_tmp: Path) -> None:
    """``--db ""`` (a script's ``--db "$DB"`` with DB unset) is not the default ./cardbase.db, made anew."""
    assert_refused(run_cli([*argv, "--db", given]), 2, "--db")
    assert sorted(p.name for p in in_tmp.iterdir()) == []
