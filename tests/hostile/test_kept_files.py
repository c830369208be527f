"""No output replaces what the command works from (third sweep's driver: ``catalog export -o
cardbase.db`` wrote a CSV over the open database, exit 0; ``print deck deck.txt -o deck.txt`` and
``draws deck.txt --plot deck.txt`` replaced the deck with a PDF or a PNG).

``textfiles.output_target`` and the commit after the write refuse, exit 2, an output path that is
the command's SQLite database (by name, through a link or a hard link, or one of its journal files),
a file the command has read, or any existing SQLite database (no output of cardbase is one); the
file is left byte for byte. Outside a command (the web server, which replaces art it has shown)
nothing is kept."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from cardbase.errors import UnreadableInput
from tests.conftest import POSTGRES, REPO
from tests.hostile.conftest import assert_refused, db_dump, run_cli
from tests.hostile.test_outputs import FILE_WRITERS, Writer

GOBLINS = REPO / "examples/decks/mea-goblin-rush.txt"


@pytest.fixture(scope="module")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory, catalog_template: str) -> Path:
    """A SQLite database with the catalogs (on a PostgreSQL run too: only SQLite is a file to protect)."""
    if not POSTGRES:
        return Path(catalog_template)
    from cardbase.db.engine import open_database

    path = tmp_path_factory.mktemp("sqlite-template") / "cards.db"
    database = open_database(str(path))
    with database.engine.connect() as conn:
        conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    database.engine.dispose()
    return path


def _same(path: Path) -> Path:
    return path


def _symlink(path: Path) -> Path:
    link = path.with_name(f"link-{path.name}")
    link.symlink_to(path)
    return link


def _hard_link(path: Path) -> Path:
    link = path.with_name(f"hard-{path.name}")
    os.link(path, link)
    return link


WAYS: list[tuple[str, Callable[[Path], Path]]] = [
    ("its path", _same),
    ("a link", _symlink),
    ("a hard link", _hard_link),
]
DB_WRITERS = [w for w in FILE_WRITERS if w.db and not w.slow]


@pytest.mark.parametrize(("way", "name"), WAYS, ids=[w[0] for w in WAYS])
@pytest.mark.parametrize("writer", DB_WRITERS, ids=[w.name for w in DB_WRITERS])
def test_an_output_onto_the_database_is_refused(
    writer: Writer, way: str, name: Callable[[Path], Path], sqlite_template: Path, in_tmp: Path
) -> None:
    db = in_tmp / f"cards{writer.suffix}"  # the writer's own ending: refused for what it is, not its name
    shutil.copyfile(sqlite_template, db)
    assert run_cli(["deck", "new", "Mine", "--game", "mea", "--db", str(db)]).exit_code == 0
    before = db_dump(str(db))
    out = name(db)
    result = run_cli([*writer.argv, str(out), "--db", str(db)], input="quit\n")
    assert_refused(result, 2, str(out), "database; not replaced")
    assert db.read_bytes().startswith(b"SQLite format 3\x00")
    assert db_dump(str(db)) == before
    assert not any(p.name.startswith(".") for p in in_tmp.iterdir())  # no temporary left


def test_the_databases_journal_is_refused_too(sqlite_template: Path, in_tmp: Path) -> None:
    db = in_tmp / "cards.db"
    shutil.copyfile(sqlite_template, db)
    for journal in ("cards.db-wal", "cards.db-journal"):
        result = run_cli(["catalog", "export", "--game", "meio", "-o", str(in_tmp / journal), "--db", str(db)])
        assert_refused(result, 2, journal, "is the database")
        assert not (in_tmp / journal).exists() or (in_tmp / journal).read_bytes()[:5] != b"name,"


# Commands that read a file and write one: the output given as the file read.
READ_AND_WRITE: list[tuple[str, list[str], str]] = [
    ("print deck", ["print", "deck", "{f}", "-o", "{f}"], "deck file"),
    ("draws --plot", ["draws", "{f}", "--need", "1 t:monster", "--plot", "{f}"], "deck"),
    ("play mea --record", ["play", "mea", "--deck", "{f}", "--vs-deck", "{f}", "--record", "{f}"], "deck"),
]


@pytest.mark.parametrize(("name", "argv", "what"), READ_AND_WRITE, ids=[r[0] for r in READ_AND_WRITE])
def test_an_output_onto_a_file_the_command_read_is_refused(
    name: str, argv: list[str], what: str, hostile_db: str, in_tmp: Path
) -> None:
    deck = in_tmp / "deck"  # no ending: a .txt name is refused for a PDF or PNG before it is found to be the deck
    shutil.copyfile(GOBLINS, deck)
    for given in (deck, _symlink(deck)):
        result = run_cli([*(a.replace("{f}", str(given)) for a in argv), "--db", hostile_db], input="quit\n")
        assert_refused(result, 2, str(given), f"is the {what}")
        assert deck.read_bytes() == GOBLINS.read_bytes()


def test_no_output_replaces_a_sqlite_database(sqlite_template: Path, in_tmp: Path) -> None:
    """``print registration`` opens no database, yet a SQLite file named as its output is one given by mistake."""
    target = in_tmp / "sheet.pdf"
    shutil.copyfile(sqlite_template, target)
    result = run_cli(["print", "registration", "-o", str(target)])
    assert_refused(result, 2, str(target), "SQLite database")
    assert target.read_bytes() == sqlite_template.read_bytes()


def test_files_are_kept_only_while_a_command_runs(tmp_path: Path) -> None:
    """The web server reads a card's art and replaces it on upload: outside a command nothing is kept."""
    from cardbase.textfiles import keeping_inputs, output_file, read_bytes

    art = tmp_path / "art.png"
    art.write_bytes(b"old")
    read_bytes(art)
    with output_file(art) as temporary:
        temporary.write_bytes(b"new")
    assert art.read_bytes() == b"new"
    with keeping_inputs():
        read_bytes(art)
        with pytest.raises(UnreadableInput, match="is the file this command reads"), output_file(art) as temporary:
            temporary.write_bytes(b"newer")
    assert art.read_bytes() == b"new"
    with output_file(art) as temporary:  # the command over: kept no more
        temporary.write_bytes(b"newest")
    assert art.read_bytes() == b"newest"


@pytest.mark.parametrize(
    "argv",
    [
        ["catalog", "export", "--game", "meio", "-o", "{out}"],
        ["print", "registration", "-o", "{out}"],
        ["sim", "meio", "--players", "2", "--games", "1", "--records", "{out}"],
    ],
    ids=["catalog export", "print registration", "sim --records (a folder)"],
)
def test_an_output_through_a_link_to_nothing_is_refused(argv: list[str], hostile_db: str, in_tmp: Path) -> None:
    """A dangling link is not written through (``cp`` does not either): the file, and the folders to
    it, would be made where the link points (third sweep's driver made them outside the folder)."""
    elsewhere = in_tmp / "elsewhere" / "deeper" / "out"
    link = in_tmp / "out"  # no ending: each command's own kind of file may be written under it
    link.symlink_to(elsewhere)
    db = ["--db", hostile_db] if argv[0] == "catalog" else []
    result = run_cli([*(a.replace("{out}", str(link)) for a in argv), *db])
    assert_refused(result, 2, str(link), "does not exist")
    assert not (in_tmp / "elsewhere").exists()
    assert link.is_symlink()


@pytest.mark.parametrize("side", [".db-wal", "-shm", "-journal"])
def test_a_side_file_name_beside_a_fifo_does_not_wait_for_a_writer(side: str, in_tmp: Path) -> None:
    """An output named as a side file (``cards-wal``) is checked for the database beside it by its
    first bytes: ``cards`` a FIFO made that read wait for a writer for ever (the command hung). A FIFO
    is no database: the output is written, and the FIFO is left as it was. (The command runs apart:
    the timeout only keeps the suite from hanging with it.)"""
    import subprocess
    import sys

    base = "cards.db" if side == ".db-wal" else "cards"
    os.mkfifo(in_tmp / base)
    out = in_tmp / f"cards{side}"
    argv = [sys.executable, "-m", "cardbase", "print", "registration", "-o", str(out)]
    try:
        done = subprocess.run(argv, cwd=in_tmp, capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:  # (the command is killed)
        pytest.fail(f"print registration -o {out.name} waited for a writer on the FIFO {base}")
    assert done.returncode == 0, done.stderr
    assert out.read_bytes().startswith(b"%PDF")
    assert (in_tmp / base).is_fifo()
