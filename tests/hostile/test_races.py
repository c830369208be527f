"""Programs starting or working together on one database: each does its work, or says in words why
not (``DatabaseBusy``, ``DatabaseError``); none fails with a driver's raw error. Threads, each with
its own handle (as separate programs have), are lined up with a ``Barrier``; no test times anything.
Each runs on SQLite, and on PostgreSQL when ``CARDBASE_TEST_POSTGRES`` is set.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, select, text

from cardbase.db import search_index
from cardbase.db.engine import Database, database_url, lock_budget, open_database
from cardbase.db.models import Card
from cardbase.errors import DatabaseBusy
from tests.conftest import POSTGRES
from tests.hostile.conftest import execute_sql
from tests.web.live import lock_held

GUARD = 120  # seconds: only a failed test waits this long
PROGRAMS = 3

postgres_only = pytest.mark.skipif(not POSTGRES, reason="PostgreSQL's own path")
sqlite_only = pytest.mark.skipif(bool(POSTGRES), reason="SQLite's own path")


def together(*work: Callable[[], Any]) -> tuple[list[Any], list[BaseException]]:
    """Run each of ``work`` in a thread of its own, started at one moment; their results and errors."""
    start = threading.Barrier(len(work))
    results: list[Any] = []
    errors: list[BaseException] = []

    def run(job: Callable[[], Any]) -> None:
        start.wait(GUARD)
        try:
            results.append(job())
        except BaseException as error:  # reported by the test
            errors.append(error)

    threads = [threading.Thread(target=run, args=(job,), daemon=True) for job in work]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(GUARD)
    assert not any(thread.is_alive() for thread in threads)
    return results, errors


def opened_together(url: str) -> list[Database]:
    """``PROGRAMS`` handles opening the database at ``url`` at one moment; each must open it."""
    opened, errors = together(*[lambda: open_database(url)] * PROGRAMS)
    try:
        assert errors == []
    except AssertionError:
        for database in opened:
            database.engine.dispose()
        raise
    return opened


def _scalar(database: Database, sql: str) -> Any:
    with database.read() as conn:
        return conn.execute(text(sql)).scalar()


def test_programs_opening_an_old_schema_database_together_all_open_it(empty_db_url: str) -> None:
    """A database of schema 4 (before the search index) is upgraded by one of them, under the write
    lock; the others find it upgraded. Each would otherwise run the migrations (and make the index)."""
    from cardbase.db.tables import SCHEMA_VERSION
    from tests.test_migrations import SCHEMAS, _statements

    sql = (SCHEMAS / "v4.sql").read_text(encoding="utf-8")
    engine = create_engine(database_url(empty_db_url))
    with engine.begin() as conn:
        for statement in _statements(sql, engine.dialect.name):
            conn.execute(text(statement))
        conn.execute(text("INSERT INTO meta (key, value) VALUES ('schema_version', '4')"))
    engine.dispose()
    opened = opened_together(empty_db_url)
    try:
        assert _scalar(opened[0], "SELECT value FROM meta WHERE key = 'schema_version'") == str(SCHEMA_VERSION)
        index = _scalar(opened[0], f"SELECT value FROM meta WHERE key = '{search_index.META_KEY}'")
        assert index in ("fts5", "pg_trgm")
        assert all(database.notes == [] for database in opened)
        assert _scalar(opened[0], "SELECT count(*) FROM card WHERE name = 'Crumb Goblin'") == 1
    finally:
        for database in opened:
            database.engine.dispose()


def test_programs_finding_the_shipped_catalogs_changed_load_them_once(db_url: str) -> None:
    """Every shipped catalog is due again (as after an update of cardbase): the programs opening the
    database together load each once, and every card is there once."""
    first = open_database(db_url)
    cards = _scalar(first, "SELECT count(*) FROM card")
    first.engine.dispose()
    execute_sql(db_url, "DELETE FROM meta WHERE key LIKE 'catalog:%'")
    opened = opened_together(db_url)
    try:
        assert _scalar(opened[0], "SELECT count(*) FROM card") == cards
        assert _scalar(opened[0], "SELECT count(DISTINCT id) FROM card") == cards
        from cardbase.db.engine import shipped_pending

        assert shipped_pending(opened[0]) == []
    finally:
        for database in opened:
            database.engine.dispose()


@postgres_only
def test_programs_opening_a_database_whose_trigram_index_can_now_be_made_make_it_once(db_url: str) -> None:
    """A PostgreSQL database made while the server lacked pg_trgm (``search_index`` is ``none``) gets the
    index on its next open. Programs opening it together each made it, outside the write lock: all
    but one failed ('relation … already exists'), which was kept as the reason the index could not be
    made, and said to the user as 'search has no index'."""
    indexes = [f"DROP INDEX ix_card_trgm_{c}" for c in ("name", *search_index.COLUMNS)]
    execute_sql(
        db_url,
        *indexes,
        f"DELETE FROM meta WHERE key IN ('{search_index.META_KEY}', '{search_index.SAID_KEY}')",
        f"INSERT INTO meta (key, value) VALUES ('{search_index.META_KEY}', 'none')",
    )
    opened = opened_together(db_url)
    try:
        assert [database.notes for database in opened] == [[]] * PROGRAMS
        with opened[0].read() as conn:
            assert search_index.kind(conn) == "pg_trgm"
            assert conn.execute(text(f"SELECT 1 FROM meta WHERE key = '{search_index.SAID_KEY}'")).all() == []
            made = conn.execute(text("SELECT count(*) FROM pg_indexes WHERE indexname LIKE 'ix_card_trgm_%'"))
            assert made.scalar() == len(indexes)
    finally:
        for database in opened:
            database.engine.dispose()


def test_a_program_opens_and_reads_the_database_while_another_holds_its_write_lock(db_url: str) -> None:
    """``serve`` starting (or any command) while a command writes: the open and its reads need no write
    lock, so they are done while the writer still holds it."""
    open_database(db_url).engine.dispose()
    url = database_url(db_url)
    with lock_held(url, "SELECT pg_advisory_xact_lock(:key)", {"key": 0x63617264_62617365}):
        opened, errors = together(lambda: open_database(db_url))
        assert errors == []
        try:
            with opened[0].read() as conn:
                assert conn.execute(select(Card.id).where(Card.name == "Crumb Goblin")).all()
        finally:
            opened[0].engine.dispose()


@postgres_only
def test_a_write_that_waits_past_its_budget_for_a_stamp_is_busy_not_a_driver_error(database: Database) -> None:
    """The stamps a write renews are written as it commits, on the driver's own cursor: a wait there
    past the write's budget (another program's write renewing the same stamp) reached the user as
    psycopg's raw ``LockNotAvailable``, with a traceback."""
    from cardbase.db.edit import add_card

    url = database.engine.url.render_as_string(hide_password=False)
    renew = "INSERT INTO meta VALUES ('stamp:cards', 'held') ON CONFLICT (key) DO UPDATE SET value = 'held'"
    with lock_held(url, renew), lock_budget(1.0), pytest.raises(DatabaseBusy):
        add_card(database, "mea", {"name": "Stamp Newt", "type": "monster", "set": "demo"}, "cli")
    assert _scalar(database, "SELECT count(*) FROM card WHERE name = 'Stamp Newt'") == 0


@postgres_only
def test_an_import_done_while_another_program_holds_the_card_table_says_it_is_done(
    database: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A big import refreshes the planner's statistics after its commit (``ANALYZE card``); another
    program holding the table then (an ANALYZE of its own, an index being made) made the import,
    already written, fail as 'the database is locked'. Only speed depends on the statistics."""
    from cardbase.db import engine
    from cardbase.db.catalog import ANALYZE_AFTER
    from cardbase.db.io import import_catalog

    monkeypatch.setattr(engine, "LOCK_WAIT_SECONDS", 1)
    fresh = open_database(database.url)  # its connections wait 1 s for a lock
    sheet = tmp_path / "many.csv"
    rows = "".join(f"Analyze Newt {n},monster,1,1,1,bulk\n" for n in range(ANALYZE_AFTER))
    sheet.write_text("name,type,cost,attack,defence,set\n" + rows, encoding="utf-8")
    url = database.engine.url.render_as_string(hide_password=False)
    try:
        with lock_held(url, "LOCK TABLE card IN SHARE UPDATE EXCLUSIVE MODE"):
            result = import_catalog(fresh, sheet, "mea")
        assert result.inserted == ANALYZE_AFTER
    finally:
        fresh.engine.dispose()


DECK = "game: mea\nname: Race Deck\n18 Crumb Goblin\n"


def test_two_imports_of_one_deck_together_keep_both(db_url: str) -> None:
    """Two ``deck import``s of one deck at once: one keeps its name, the other is its copy."""
    from cardbase.decks.service import import_deck, read_deck_data

    handles = [open_database(db_url) for _ in range(2)]
    try:
        results, errors = together(
            *[lambda d=d: import_deck(d, read_deck_data(DECK, "race.txt"))[0] for d in handles]  # type: ignore[misc]
        )
        assert errors == []
        with handles[0].read() as conn:
            names = sorted(str(n) for (n,) in conn.execute(text("SELECT name FROM deck")))
        assert len(set(results)) == 2 and names == ["Race Deck", "Race Deck (copy)"]
    finally:
        for database in handles:
            database.engine.dispose()


def test_a_collection_import_beside_a_catalog_import_both_are_made(db_url: str, tmp_path: Path) -> None:
    from cardbase.db.collection import collection_cards, import_collection
    from cardbase.db.io import import_catalog

    sheet = tmp_path / "newts.csv"
    sheet.write_text("name,type,cost,attack,defence,set\nBeside Newt,monster,2,1,1,demo\n", encoding="utf-8")
    owned = tmp_path / "owned.csv"
    owned.write_text("name,count\nCrumb Goblin,3\n", encoding="utf-8")
    catalog, collection = open_database(db_url), open_database(db_url)
    try:
        _, errors = together(
            lambda: import_catalog(catalog, sheet, "mea"), lambda: import_collection(collection, owned, "mea")
        )
        assert errors == []
        assert [(c.name, c.count) for c in collection_cards(catalog)] == [("Crumb Goblin", 3)]
        assert _scalar(catalog, "SELECT count(*) FROM card WHERE name = 'Beside Newt'") == 1
    finally:
        catalog.engine.dispose()
        collection.engine.dispose()


@sqlite_only
def test_a_program_opening_a_new_file_of_any_name_as_another_makes_it_opens_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new database file of a name that does not say 'database' (``cards``): SQLite made the file
    empty as the first program connected and wrote it only as the tables were made; a program that
    opened it meanwhile refused it as 'an empty file not named as a database'. Deterministic: the
    second opens it just after the first connected, before the first makes its tables."""
    from cardbase.db import engine

    path = tmp_path / "cards"
    make_schema = engine.ensure_schema
    second: list[Database] = []
    calls: list[int] = []

    def another_opens_first(*args: Any) -> int:
        calls.append(1)
        if len(calls) == 1:  # the first program's, its file just connected to; not the second's own
            second.append(open_database(str(path)))
        return make_schema(*args)

    monkeypatch.setattr(engine, "ensure_schema", another_opens_first)
    first = open_database(str(path))
    try:
        assert second and _scalar(first, "SELECT count(*) FROM card WHERE name = 'Crumb Goblin'") == 1
        assert sorted(p.name for p in tmp_path.iterdir()) == ["cards", "cards-shm", "cards-wal"]  # none left
        sqlite3.connect(tmp_path / "by-sqlite").close()
        assert path.stat().st_mode == (tmp_path / "by-sqlite").stat().st_mode  # the permissions SQLite gives
    finally:
        for database in (first, *second):
            database.engine.dispose()


@sqlite_only
def test_commands_started_together_on_a_new_file_of_any_name_all_open_it(tmp_path: Path) -> None:
    path = tmp_path / "cards"
    argv = [sys.executable, "-m", "cardbase", "deck", "list", "--db", str(path)]
    runs = [subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(4)]
    for run in runs:
        out, err = run.communicate(timeout=GUARD)
        assert run.returncode == 0 and "no decks yet" in out, err


def test_an_open_that_must_upgrade_the_database_while_another_program_writes_says_busy(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The upgrade waits for the write lock as any write does; past its wait the open is
    ``DatabaseBusy`` (try again), as a write is, not a database that cannot be used."""
    from cardbase.db import engine

    execute_sql(db_url, "UPDATE meta SET value = '9' WHERE key = 'schema_version'")  # schema 9 → 10: a write
    monkeypatch.setattr(engine, "LOCK_WAIT_SECONDS", 1)
    url = database_url(db_url)
    held = lock_held(url, "SELECT pg_advisory_xact_lock(:key)", {"key": engine.WRITE_LOCK_KEY})
    with held, pytest.raises(DatabaseBusy, match="locked by another program"):
        open_database(db_url)
    opened = open_database(db_url)  # and once it is let go, the upgrade is made
    try:
        assert _scalar(opened, "SELECT value FROM meta WHERE key = 'schema_version'") == str(
            engine.tables.SCHEMA_VERSION
        )
    finally:
        opened.engine.dispose()


def test_serve_starts_and_answers_while_a_command_holds_the_write_lock(db_url: str, tmp_path: Path) -> None:
    """``cardbase serve`` started while a command writes (here: holds the write lock throughout) opens
    the database and answers searches without waiting for the lock: its start writes nothing."""
    import signal

    import httpx

    from cardbase.db.engine import WRITE_LOCK_KEY
    from tests.web.live import served_at, wait_until_serving

    open_database(db_url).engine.dispose()
    argv = [sys.executable, "-m", "cardbase", "serve", "--port", "0", "--db", db_url]
    with lock_held(database_url(db_url), "SELECT pg_advisory_xact_lock(:key)", {"key": WRITE_LOCK_KEY}):
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
        try:
            base = served_at(proc)
            wait_until_serving(base, proc, GUARD)
            found = httpx.get(f"{base}/api/cards", params={"q": "Crumb Goblin"}, timeout=GUARD)
            assert found.status_code == 200 and "Crumb Goblin" in found.text, found.text
        finally:
            proc.send_signal(signal.SIGINT)
            _out, err = proc.communicate(timeout=GUARD)
    assert "Traceback" not in err, err
