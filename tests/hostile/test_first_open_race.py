"""Class 8 (two programs opening one database that needs its schema at once): the first open of a
database reads its schema version, and when it must make or upgrade the tables, writes. Begun as a
read, the write could not be had once another program had written in between (SQLite refuses to
turn such a read into a write, at once, without waiting): four ``cardbase`` commands started
together on a new file failed one in two times with "the database is locked … (waited 10 s)" after
less than that. A schema that must change is now made under the write lock, taken up front."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from cardbase.db import engine
from tests.conftest import POSTGRES

sqlite_only = pytest.mark.skipif(bool(POSTGRES), reason="SQLite's locks")


@sqlite_only
def test_an_upgrade_begun_while_another_program_writes_waits_for_it(
    hostile_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Deterministic: another connection commits just after this open read the version (WAL lets it)."""
    with sqlite3.connect(hostile_db) as conn:
        conn.execute("UPDATE meta SET value = '9' WHERE key = 'schema_version'")  # schema 9 → 10: a write
    read = engine._current_version
    fired = []

    def read_then_another_writes(conn):  # type: ignore[no-untyped-def]
        found = read(conn)
        if not fired:
            fired.append(True)
            other = sqlite3.connect(hostile_db, isolation_level=None)
            other.execute("INSERT INTO meta (key, value) VALUES ('another', 'program')")
            other.close()
        return found

    monkeypatch.setattr(engine, "_current_version", read_then_another_writes)
    database = engine.open_database(hostile_db)
    try:
        with database.read() as conn:
            version = conn.exec_driver_sql("SELECT value FROM meta WHERE key = 'schema_version'").scalar()
        assert version == str(engine.tables.SCHEMA_VERSION) and fired
    finally:
        database.engine.dispose()


@sqlite_only
@pytest.mark.parametrize("trial", range(2))
def test_commands_started_together_on_a_new_file_all_open_it(trial: int, tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    argv = [sys.executable, "-m", "cardbase", "deck", "list", "--db", str(path)]
    runs = [subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(4)]
    results = [(run.wait(), *run.communicate()) for run in runs]
    for code, out, err in results:
        assert code == 0 and "no decks yet" in out, err
