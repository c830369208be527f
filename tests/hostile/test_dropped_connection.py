"""A connection the server drops in the middle of a command (a restart, an administrator's
``pg_terminate_backend``, a network cut) is one error line naming the lost connection, exit 2, and
nothing of the command's transaction is written; never an internal error.

PostgreSQL only (CARDBASE_TEST_POSTGRES): a SQLite database has no connection to lose.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from cardbase.db.engine import database_url
from tests.conftest import POSTGRES
from tests.hostile.conftest import assert_refused, db_dump, run_cli

pytestmark = pytest.mark.skipif(not POSTGRES, reason="a server's connection to lose (CARDBASE_TEST_POSTGRES)")


def _terminate(url: str, pid: int) -> None:
    """End backend ``pid`` from another connection, as a server's administrator (or its restart) does."""
    engine = create_engine(database_url(url), isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            assert conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid}).scalar()
    finally:
        engine.dispose()


def test_a_connection_dropped_during_a_catalog_import(
    hostile_db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardbase.db import catalog

    write_cards = catalog.write_cards

    def dropped_first(session: Any, *args: Any, **kwargs: Any) -> Any:
        _terminate(hostile_db, session.execute(text("SELECT pg_backend_pid()")).scalar())
        return write_cards(session, *args, **kwargs)

    monkeypatch.setattr(catalog, "write_cards", dropped_first)
    sheet = tmp_path / "newts.csv"
    sheet.write_text("name,type,cost,attack,defence\nLost Newt,monster,1,1,1\n", encoding="utf-8")
    before = db_dump(hostile_db)
    result = run_cli(["catalog", "import", sheet, "--game", "mea"], hostile_db)
    assert_refused(result, 2, "connection to the database was lost")
    assert db_dump(hostile_db) == before


def test_a_connection_dropped_during_a_catalog_edit(hostile_db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from cardbase.db import edit

    locked = edit._locked

    def dropped_first(session: Any, cid: str) -> Any:
        _terminate(hostile_db, session.execute(text("SELECT pg_backend_pid()")).scalar())
        return locked(session, cid)

    monkeypatch.setattr(edit, "_locked", dropped_first)
    before = db_dump(hostile_db)
    result = run_cli(["catalog", "edit", "Crumb Goblin", "cost=3"], hostile_db)
    assert_refused(result, 2, "connection to the database was lost")
    assert db_dump(hostile_db) == before
