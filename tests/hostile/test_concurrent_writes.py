"""Two writers at once: the second waits for the first and then sees what it wrote, on SQLite (its
write lock) and on PostgreSQL (cardbase's own write lock), instead of failing on the first's new rows
("duplicate key value violates unique constraint") or reporting the race as a database error.

On PostgreSQL the test sees the second writer wait before letting the first commit (the race made
certain); SQLite's writer waits on its file lock, which no query shows, so there the order is the
scheduler's: the outcome asked is the same either way.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, text

from cardbase.db.engine import Database, open_database
from cardbase.db.models import Card
from cardbase.db.tables import card_id, short_id
from tests.web.live import lock_held, lock_waiters

GUARD = 120  # seconds: only a failed test waits this long
NAME = "Race Newt"


def _waiting(database: Database) -> bool:
    """Whether another session of this PostgreSQL database waits for a lock (SQLite: assumed)."""
    return database.engine.dialect.name == "sqlite" or lock_waiters(database.engine) > 0


def _while_a_card_is_added(db_url: str, second: Callable[[Database], Any]) -> tuple[list[Any], list[BaseException]]:
    """Run ``second`` in a thread, on its own handle, while this thread's transaction adds ``NAME``
    to Méa's demo set; commit once ``second`` waits (PostgreSQL). Returns its result and its error."""
    first, other = open_database(db_url), open_database(db_url)
    results: list[Any] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            results.append(second(other))
        except BaseException as error:  # reported by the test
            errors.append(error)

    try:
        with first.transaction() as session:
            cid = card_id("mea", "demo", NAME)
            session.add(
                Card(
                    id=cid,
                    short_id=short_id(cid),
                    game="mea",
                    set_code="demo",
                    name=NAME,
                    type="monster",
                    source="user",
                    search_names="race newt",
                    cost=1,
                    attack=1,
                    defence=1,
                )
            )
            session.flush()
            worker = threading.Thread(target=run, daemon=True)
            worker.start()
            deadline = time.monotonic() + GUARD
            while not _waiting(first) and worker.is_alive():
                if time.monotonic() > deadline:
                    pytest.fail("the second writer never waited for the first")
                time.sleep(0.02)
        worker.join(GUARD)
        assert not worker.is_alive()
        with first.read() as conn:
            assert conn.execute(select(Card.id).where(Card.name == NAME)).all() == [(cid,)]
        return results, errors
    finally:
        first.engine.dispose()
        other.engine.dispose()


def test_an_import_waits_for_a_writer_adding_its_card(db_url: str, tmp_path: Path) -> None:
    from cardbase.db.io import import_catalog

    sheet = tmp_path / "newts.csv"
    sheet.write_text(f"name,type,cost,attack,defence,set\n{NAME},monster,2,1,1,demo\n", encoding="utf-8")
    results, errors = _while_a_card_is_added(db_url, lambda database: import_catalog(database, sheet, "mea"))
    assert errors == []
    assert (results[0].inserted, results[0].updated) == (0, 1)


def test_a_catalog_add_waits_for_a_writer_adding_the_same_card(db_url: str) -> None:
    """The second add is refused as the conflict it is (the card exists), not as a database error."""
    from cardbase.db.edit import add_card
    from cardbase.errors import Conflict

    results, errors = _while_a_card_is_added(
        db_url, lambda database: add_card(database, "mea", {"name": NAME, "type": "monster", "set": "demo"}, "cli")
    )
    assert results == []
    assert [type(e) for e in errors] == [Conflict], errors


def test_deck_edits_run_beside_each_other_and_a_write_that_runs_alone_waits(db_url: str) -> None:
    """PostgreSQL: a deck edit locks its deck's row before it changes anything, so it takes cardbase's
    write lock shared: an edit of another deck goes through while one is open, and a write that runs
    alone (a catalog add) waits for it. SQLite has one writer, so there the second edit waits too."""
    from cardbase.db.edit import add_card
    from cardbase.db.engine import lock_budget
    from cardbase.decks.store import edit_entry, new_deck
    from cardbase.errors import DatabaseBusy

    first, other = open_database(db_url), open_database(db_url)
    try:
        open_deck, edited_deck = new_deck(first, "Held open", "mea"), new_deck(first, "Edited beside", "mea")
        goblin = card_id("mea", "demo", "Crumb Goblin")
        with first.transaction(row_locked=True) as session:  # as an edit of the first deck, held open
            session.execute(text("UPDATE deck SET version = version + 1 WHERE id = :id"), {"id": open_deck})
            with lock_budget(1.0):
                if first.engine.dialect.name == "sqlite":
                    with pytest.raises(DatabaseBusy):
                        edit_entry(other, edited_deck, goblin, "add", 2)
                else:
                    assert edit_entry(other, edited_deck, goblin, "add", 2).copies == 2
                with pytest.raises(DatabaseBusy):
                    add_card(other, "mea", {"name": NAME, "type": "monster", "set": "demo"}, "cli")
        with other.read() as conn:
            count = conn.execute(text("SELECT count FROM deck_card WHERE deck_id = :id"), {"id": edited_deck}).all()
            added = conn.execute(select(Card.id).where(Card.name == NAME)).all()
        assert (count, added) == ([] if first.engine.dialect.name == "sqlite" else [(2,)], [])
    finally:
        first.engine.dispose()
        other.engine.dispose()


WRITERS = 20


def test_twenty_writers_queued_for_the_write_lock_leave_connections_for_reads(db_url: str) -> None:
    """Twenty threads of one program write while another program holds the write lock: they queue, and a
    read still gets a pooled connection at once; when the lock is let go every write is made. On
    PostgreSQL each queued writer held a connection as it waited for the advisory lock: the pool's 15
    were all taken, the read failed after 10 s ("QueuePool limit … reached") and so did the 5 writers
    left without one, whatever their budget."""
    from sqlalchemy import create_engine

    from cardbase.db.edit import add_card
    from cardbase.db.engine import WRITE_LOCK_KEY, lock_budget

    database = open_database(db_url)
    url = database.engine.url.render_as_string(hide_password=False)
    watcher = create_engine(url)  # the test's own connection: it looks on while the pool is busy
    errors: list[BaseException] = []

    def write(n: int) -> None:
        try:
            with lock_budget(GUARD):
                add_card(database, "mea", {"name": f"Queue Newt {n}", "type": "monster", "set": "demo"}, "cli")
        except BaseException as error:  # reported by the test
            errors.append(error)

    def queued() -> int:
        """How many sessions wait for a lock, once every connection the writers hold waits (else -1)."""
        waiting = lock_waiters(watcher)
        return waiting if waiting == database.engine.pool.checkedout() else -1

    try:
        with lock_held(url, "SELECT pg_advisory_xact_lock(:key)", {"key": WRITE_LOCK_KEY}):
            writers = [threading.Thread(target=write, args=(n,), daemon=True) for n in range(WRITERS)]
            for writer in writers:
                writer.start()
            # PostgreSQL: the writers have queued once as many wait for the lock as hold a connection,
            # a count that stands still a while (SQLite's wait on its file lock shows in no query)
            deadline, seen, still = time.monotonic() + GUARD, -1, 0
            while still < 25 and database.engine.dialect.name != "sqlite":
                now = queued()
                still, seen = (still + 1 if now == seen and now > 0 else 0), now
                if time.monotonic() > deadline:
                    pytest.fail("the writers never queued for the lock")
                time.sleep(0.02)
            with database.read() as conn:
                assert conn.execute(select(Card.id).where(Card.name == "Crumb Goblin")).all()
            assert all(writer.is_alive() for writer in writers) and errors == []  # all still waiting
        for writer in writers:
            writer.join(GUARD)
        assert errors == []
        with database.read() as conn:
            added = conn.execute(text("SELECT count(*) FROM card WHERE name LIKE 'Queue Newt %'")).scalar()
        assert added == WRITERS
    finally:
        watcher.dispose()
        database.engine.dispose()


def test_programs_opening_a_new_database_together_all_open_it(empty_db_url: str) -> None:
    """Three programs (a server's workers, a command beside them) open one new database at the same
    moment: each makes or finds its tables and the shipped catalogs, none fails. On PostgreSQL each
    made the tables and all but one failed ('duplicate key value violates unique constraint
    "pg_type_typname_nsp_index"'): making them now takes cardbase's write lock, as SQLite's IMMEDIATE."""
    start = threading.Barrier(3)
    opened: list[Database] = []
    errors: list[BaseException] = []

    def run() -> None:
        start.wait(GUARD)
        try:
            opened.append(open_database(empty_db_url))
        except BaseException as error:  # reported by the test
            errors.append(error)

    threads = [threading.Thread(target=run, daemon=True) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(GUARD)
    try:
        assert errors == []
        with opened[0].read() as conn:
            goblins = conn.execute(select(Card.id).where(Card.name == "Crumb Goblin")).all()
        assert len(goblins) == 1
    finally:
        for database in opened:
            database.engine.dispose()


def test_a_thread_writing_again_and_again_leaves_another_writer_its_turn(db_url: str) -> None:
    """One thread of a program writes again and again (an agent's game saved move after move) while
    another asks for one write: the turn given back goes to the writer waiting, which is made within
    its budget. The turns were a semaphore the writing thread took again before the waiter woke: the
    waiter was 'database is locked' after its whole budget, every time, however short each write."""
    from cardbase.db.engine import lock_budget
    from cardbase.decks.store import new_deck, rename_deck

    database = open_database(db_url)
    hog_deck, other_deck = new_deck(database, "Again", "mea"), new_deck(database, "Once", "mea")
    done = threading.Event()
    writes = 0

    def again() -> None:
        nonlocal writes
        while not done.is_set() and writes < 100_000:
            with database.transaction() as session:
                session.execute(text("UPDATE deck SET version = version + 1 WHERE id = :id"), {"id": hog_deck})
                writes += 1
                time.sleep(0.002)  # a write's work, holding the turn

    hog = threading.Thread(target=again, daemon=True)
    hog.start()
    try:
        while writes < 5:  # the other thread is writing (a writer that failed would leave this waiting forever)
            assert hog.is_alive(), "the thread writing again and again stopped"
            time.sleep(0.01)
        with lock_budget(5.0):  # (hundreds of the other's writes long)
            rename_deck(database, other_deck, "Once renamed")
    finally:
        done.set()
        hog.join(GUARD)
        database.engine.dispose()


def test_a_turn_given_back_goes_to_the_writer_waiting() -> None:
    """``WriteTurns``: the turn a thread gives back is handed to the writer that waited first; the
    thread that gave it back cannot take it again first (it did: a semaphore)."""
    from cardbase.db.engine import WriteTurns

    turns = WriteTurns(1)
    got: list[bool] = []
    assert turns.acquire()
    waiter = threading.Thread(target=lambda: got.append(turns.acquire(timeout=GUARD)), daemon=True)
    waiter.start()
    deadline = time.monotonic() + GUARD
    while turns.waiting == 0:
        assert time.monotonic() < deadline, "the waiter never waited"
        time.sleep(0.01)
    turns.release()
    assert not turns.acquire(blocking=False)  # handed on: taken by the waiter, not again by this thread
    waiter.join(GUARD)
    assert got == [True]
