"""The database: schema, versions, idempotent catalog loading, stable ids, transactions."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import func, select, text

from cardbase.db import engine as db_engine
from cardbase.db.catalog import load_shipped
from cardbase.db.engine import open_database, shipped_pending
from cardbase.db.models import SCHEMA_VERSION, Card, Meta
from cardbase.errors import DatabaseError


def _dump(database) -> list[tuple]:
    with database.session() as s:
        return [
            tuple(r)
            for r in s.execute(select(Card).order_by(Card.id)).scalars().all()
            for r in [r.model_dump().items()]
        ]


def test_first_open_loads_every_shipped_catalog(database) -> None:
    with database.session() as s:
        counts = dict(s.execute(select(Card.game, func.count()).group_by(Card.game)).all())
    assert counts["meio"] == 52
    assert counts["meikyu"] == 39
    assert counts["mea"] >= 64


def test_loading_is_idempotent(empty_db_url: str) -> None:
    first = open_database(empty_db_url)
    before = _dump(first)
    assert load_shipped(first) == []  # nothing changed, nothing loaded
    second = open_database(empty_db_url)
    assert _dump(second) == before
    first.engine.dispose()
    second.engine.dispose()


def test_reload_of_a_changed_catalog_keeps_imported_values(database) -> None:
    with database.transaction() as s:
        cook = s.get(Card, "meikyu/core/cook")
        cook.bravery, cook.wits, cook.source = 2, 1, "file:mine.csv"
        s.add(cook)
        s.delete(s.get(Meta, "catalog:meikyu.json"))  # as if the shipped file changed
    assert "meikyu.json" in load_shipped(database)
    with database.session() as s:
        cook = s.get(Card, "meikyu/core/cook")
        assert (cook.bravery, cook.wits, cook.source) == (2, 1, "file:mine.csv")


def test_two_loads_begun_together_load_each_shipped_file_once(db_url: str) -> None:
    """Two processes opening a database whose shipped files changed both find them pending; each
    decides again inside its write, so one loads every file and the other, after it, none."""
    import threading

    handles = [open_database(db_url), open_database(db_url)]
    with handles[0].transaction() as s:
        for meta in s.scalars(select(Meta).where(Meta.key.like("catalog:%"))):  # type: ignore[attr-defined]
            s.delete(meta)  # as if every shipped file changed
    pending = shipped_pending(handles[0])
    assert pending and shipped_pending(handles[1]) == pending  # both decided before either wrote
    together = threading.Barrier(2)
    loaded: list[list[str]] = []
    failed: list[BaseException] = []

    def load(handle) -> None:
        together.wait(timeout=60)
        try:
            loaded.append(load_shipped(handle, pending))
        except BaseException as error:  # reported below, not lost in the thread
            failed.append(error)

    threads = [threading.Thread(target=load, args=(h,)) for h in handles]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads) and not failed, failed
    assert sorted(loaded, key=len) == [[], pending]  # each file loaded once, by one of them
    assert shipped_pending(handles[1]) == []
    for handle in handles:
        handle.engine.dispose()


def test_stable_ids_are_the_same_in_two_databases(tmp_path: Path, database) -> None:
    other = open_database(str(tmp_path / "other.db"))
    with database.session() as a, other.session() as b:
        ids_a = set(a.execute(select(Card.id, Card.short_id)).all())
        ids_b = set(b.execute(select(Card.id, Card.short_id)).all())
    assert ids_a == ids_b
    assert ("meikyu/core/gotcha", next(s for i, s in ids_a if i == "meikyu/core/gotcha")) in ids_b
    other.engine.dispose()


def test_newer_schema_is_refused(database, db_url: str) -> None:
    with database.transaction() as s:
        s.get(Meta, "schema_version").value = str(SCHEMA_VERSION + 1)
    database.engine.dispose()
    with pytest.raises(DatabaseError, match="newer than this cardbase"):
        open_database(db_url)


def test_old_schema_is_upgraded_by_its_migrations(database, db_url: str, monkeypatch) -> None:
    # Pretend the current schema is one version ahead, with a migration that adds a column.
    def add_column(conn) -> None:
        conn.execute(text("ALTER TABLE card ADD COLUMN migrated_marker INTEGER"))

    monkeypatch.setattr(db_engine.tables, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    monkeypatch.setitem(db_engine.MIGRATIONS, SCHEMA_VERSION, add_column)
    database.engine.dispose()
    upgraded = open_database(db_url)
    with upgraded.session() as s:
        assert s.get(Meta, "schema_version").value == str(SCHEMA_VERSION + 1)
        assert s.execute(text("SELECT count(migrated_marker) FROM card")).scalar() == 0
    upgraded.engine.dispose()


def test_a_failed_migration_leaves_the_database_as_it_was(database, db_url: str, monkeypatch) -> None:
    def broken(conn) -> None:
        conn.execute(text("ALTER TABLE card ADD COLUMN half_done INTEGER"))
        raise RuntimeError("migration failed half-way")

    monkeypatch.setattr(db_engine.tables, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    monkeypatch.setitem(db_engine.MIGRATIONS, SCHEMA_VERSION, broken)
    database.engine.dispose()
    with pytest.raises(RuntimeError):
        open_database(db_url)
    monkeypatch.undo()
    again = open_database(db_url)
    with again.session() as s:
        assert s.get(Meta, "schema_version").value == str(SCHEMA_VERSION)
        columns = [c["name"] for c in __import__("sqlalchemy").inspect(again.engine).get_columns("card")]
        assert "half_done" not in columns
    again.engine.dispose()


def test_sqlite_file_uses_wal(tmp_path: Path) -> None:
    database = open_database(str(tmp_path / "wal.db"))
    with database.engine.connect() as conn:
        assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
    database.engine.dispose()


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "junk.db"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(DatabaseError, match="cannot open database"):
        open_database(str(path))


def test_a_foreign_database_is_refused(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "foreign.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE card (x INTEGER)")
    with pytest.raises(DatabaseError, match="not a cardbase database"):
        open_database(str(path))


def test_default_database_is_cardbase_db_in_the_working_directory(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CARDBASE_DB", raising=False)
    database = open_database(None)
    assert (tmp_path / "cardbase.db").exists()
    database.engine.dispose()


def test_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(DatabaseError, match="does not exist"):
        open_database(str(tmp_path / "no" / "such" / "x.db"))


@pytest.mark.parametrize("where", [":memory:", "sqlite://", "sqlite:///:memory:", "sqlite:///file::memory:?uri=true"])
def test_an_in_memory_database_opens_with_the_shipped_cards(where: str, tmp_path: Path, monkeypatch) -> None:
    """Every spelling of SQLite's in-memory database works (it once crashed: no pool to wait on)
    and leaves no file behind."""
    monkeypatch.chdir(tmp_path)
    database = open_database(where)
    try:
        with database.session() as session:
            counts = dict(session.execute(select(Card.game, func.count()).group_by(Card.game)).all())
        assert counts["meio"] == 52
    finally:
        database.engine.dispose()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "url",
    [
        "sqlite+pysqlite://user@:x/db",
        "sqlite:///%00",
        "sqlite:///a%00b.db",
        # refused by the driver as the engine is made: a query value of the wrong type, a driver not installed
        "sqlite:///never-made.db?timeout=abc",
        "sqlite:///never-made.db?check_same_thread=banana",
        "sqlite+aiosqlite:///never-made.db",
        # refused by the driver as it connects
        "sqlite:///never-made.db?cached_statements=99999999999999999999",
    ],
)
def test_a_malformed_database_url_is_a_clear_error(url: str) -> None:
    with pytest.raises(DatabaseError, match="cannot use database URL"):
        open_database(url)


@pytest.mark.parametrize(
    ("query", "said"),
    [
        # options the driver ignores, or that cardbase sets itself: they did nothing, silently
        ("isolation_level=BANANA", "option 'isolation_level': cardbase begins and ends its own transactions"),
        ("poolclass=x", "option 'poolclass' is not a SQLite option cardbase uses"),
        ("timeout=5", "option 'timeout': cardbase waits"),
        ("detect_types=1", "option 'detect_types'"),
        ("check_same_thread=1", "option 'check_same_thread'"),
        ("mode=ro", "option 'mode' works only with uri=true"),
        ("uri=true&mode=banana", "option 'mode' is one of ro, rw, rwc, memory, not 'banana'"),
        ("uri=maybe", "option 'uri' is true or false"),
        ("cached_statements=-1", "option 'cached_statements' is a whole number"),
        ("cached_statements=²", "option 'cached_statements' is a whole number"),
        ("foo=1&foo=2", "option 'foo' is given 2 times"),
    ],
)
def test_a_sqlite_url_option_that_would_do_nothing_is_refused_naming_it(query: str, said: str, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'x.db'}?{query}"
    with pytest.raises(DatabaseError, match="cannot use database URL") as error:
        open_database(url)
    assert said in str(error.value)
    assert list(tmp_path.iterdir()) == []  # refused before the file is made


def test_the_sqlite_url_options_cardbase_uses_are_taken(tmp_path: Path) -> None:
    path = tmp_path / "x.db"
    for url in (f"sqlite:///{path}?cached_statements=50", f"sqlite:///file:{path}?mode=rwc&cache=private&uri=true"):
        database = open_database(url)
        database.engine.dispose()
    assert path.exists()
