"""Class 8 (a PostgreSQL URL's own ``options``): ``?options=-c name=value`` (the server settings
libpq sends at connect, e.g. ``statement_timeout`` or ``default_transaction_read_only``) is kept
beside the lock wait cardbase sets. cardbase's own ``options`` replaced the URL's, so the user's
settings were dropped without a word: a database asked to be read only took writes."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from cardbase.db.engine import lock_budget, open_database
from cardbase.errors import CardbaseError
from tests.conftest import POSTGRES
from tests.hostile.conftest import run_cli

pg_only = pytest.mark.skipif(not POSTGRES, reason="PostgreSQL's connection options (CARDBASE_TEST_POSTGRES)")


def _with(url: str, options: str) -> str:
    return f"{url}{'&' if '?' in url else '?'}options={options}"


@pg_only
@pytest.mark.parametrize(
    ("options", "setting", "value"),
    [
        ("-cstatement_timeout%3D12345", "statement_timeout", "12345ms"),
        ("-c%20work_mem%3D7MB", "work_mem", "7MB"),
        ("-cstatement_timeout%3D12345%20-cwork_mem%3D7MB", "work_mem", "7MB"),
    ],
)
def test_the_urls_server_settings_are_kept_beside_the_lock_wait(
    options: str, setting: str, value: str, loaded_db: str
) -> None:
    database = open_database(_with(loaded_db, options))
    try:
        with database.read() as conn:
            assert conn.execute(text(f"SHOW {setting}")).scalar() == value
            assert conn.execute(text("SHOW lock_timeout")).scalar() == "10s"
    finally:
        database.engine.dispose()


@pg_only
@pytest.mark.parametrize(
    ("options", "kept"),
    [
        ("-cstatement_timeout%3D1234", True),  # lower than the budget's: the user's is kept
        ("-cstatement_timeout%3D3600000", False),  # an hour: the budget's bound replaces it
        ("-cstatement_timeout%3D0", False),  # 0 is no timeout at all: the budget's bound
    ],
)
def test_a_requests_budget_keeps_a_lower_statement_timeout_of_the_url(options: str, kept: bool, loaded_db: str) -> None:
    """Under a web request's budget (30 s) a write's statement_timeout is the budget and a second, or the
    URL's own when that is lower: the budget's replaced a lower one the user set."""
    database = open_database(_with(loaded_db, options))
    own = int(options.rsplit("%3D", 1)[1])
    try:
        with lock_budget(30), database.transaction() as session:
            ms = int(session.execute(text("SELECT setting FROM pg_settings WHERE name = 'statement_timeout'")).one()[0])
        assert ms == own if kept else 1000 <= ms <= 31000, ms
        with database.transaction() as session:  # no budget (a command): the session's own
            ms = int(session.execute(text("SELECT setting FROM pg_settings WHERE name = 'statement_timeout'")).one()[0])
        assert ms == own
    finally:
        database.engine.dispose()


@pg_only
def test_a_database_asked_to_be_read_only_takes_no_write(loaded_db: str) -> None:
    url = _with(loaded_db, "-cdefault_transaction_read_only%3Don")
    run = run_cli(["deck", "new", "Written", "--game", "mea"], url)
    assert run.exit_code == 2 and "read-only" in run.stderr, run.stdout + run.stderr
    assert "Written" not in run_cli(["deck", "list"], loaded_db).stdout


def test_options_given_twice_are_refused_before_connecting() -> None:
    """libpq would take one of the two; which one is not for cardbase to guess."""
    with pytest.raises(CardbaseError, match="option 'options' is given 2 times"):
        open_database("postgresql://alice:secret@127.0.0.1:1/x?options=-cfoo%3D1&options=-cbar%3D2")
