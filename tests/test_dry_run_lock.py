"""An import's dry run (a catalog's, a collection's) takes no write lock: another writer (another connection, as another
program is) writes while the dry run is in the middle of its checks, on SQLite and on PostgreSQL
(CARDBASE_TEST_POSTGRES), and the dry run's report is the one it gives alone. No timing: the dry run
waits at its checks for the other write to end (events), so on code that holds the write lock
there the other write waits out its lock budget and is refused busy, which the test reports."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

import cardbase.db.collection as collection
import cardbase.db.io as catalog_io
from cardbase.db.engine import Database, open_database
from cardbase.db.io import import_catalog
from cardbase.decks.store import deck_info, new_deck
from cardbase.errors import CardbaseError

ROWS = "name,type,cost\nSelounticia,monster,4\nNew,assist,1\n"
WAIT = 120
"""The most seconds a thread waits for the other (a bound against a hang, never an assertion)."""


def catalog_report(database: Database, path: Path) -> tuple[Any, ...]:
    path.write_text(ROWS, encoding="utf-8")
    result = import_catalog(database, path, "mea", dry_run=True)
    return result.inserted, result.updated, result.unchanged, result.sets, result.rows, result.warnings


def collection_report(database: Database, path: Path) -> tuple[Any, ...]:
    path.write_text("game: mea\n3 Crumb Goblin\n", encoding="utf-8")
    result = collection.import_collection(database, path, dry_run=True)
    return result.as_dict(str(path))


# each dry run, and a check in its middle that the test holds it at
DRY_RUNS = {
    "catalog import": (catalog_report, catalog_io, "_set_name_problems", "cards.csv"),
    "collection import": (collection_report, collection, "_changes", "list.txt"),
}


@pytest.mark.parametrize("kind", list(DRY_RUNS))
def test_another_writer_writes_while_a_dry_run_checks(
    db_url: str, database: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    report, module, check, file = DRY_RUNS[kind]
    path = tmp_path / file
    alone = report(database, path)

    checking, written = threading.Event(), threading.Event()
    checks = getattr(module, check)

    def held_at_the_check(*args: Any) -> Any:
        found = checks(*args)
        checking.set()
        written.wait(WAIT)  # the other writer's turn, mid-check
        return found

    monkeypatch.setattr(module, check, held_at_the_check)
    outcome: dict[str, Any] = {}

    def dry_run() -> None:
        try:
            outcome["report"] = report(database, path)
        except BaseException as error:  # said by the assertion below
            outcome["error"] = error
            checking.set()

    thread = threading.Thread(target=dry_run)
    thread.start()
    try:
        assert checking.wait(WAIT), "the dry run never reached its checks"
        other = open_database(db_url)  # a connection of its own, as another program's
        try:
            new_deck(other, "Written meanwhile", "mea")
            wrote: str | None = None
        except CardbaseError as error:
            wrote = str(error)
        finally:
            other.engine.dispose()
    finally:
        written.set()
        thread.join(WAIT)
    assert not thread.is_alive()
    assert "error" not in outcome, outcome.get("error")
    assert wrote is None, f"another writer was refused during a dry run: {wrote}"
    assert outcome["report"] == alone
    assert deck_info(database, "Written meanwhile").name == "Written meanwhile"
