"""The suite's own helpers can fail: a changed database and a second error line are seen."""

from __future__ import annotations

from sqlalchemy import text

from cardbase.db.engine import open_database
from tests.hostile.conftest import db_dump, run_cli


def test_db_dump_sees_a_changed_row(loaded_db: str) -> None:
    before = db_dump(loaded_db)
    database = open_database(loaded_db, load_catalogs=False)
    with database.transaction() as session:
        session.execute(text("UPDATE card SET notes = 'x' WHERE id = (SELECT MIN(id) FROM card)"))
    database.engine.dispose()
    assert db_dump(loaded_db) != before


def test_run_cli_reports_the_error_line(loaded_db: str) -> None:
    result = run_cli(["deck", "decode", "!!!"], loaded_db)
    assert result.exit_code == 2
    assert [line for line in result.stderr.splitlines() if line.startswith("cardbase: error:")]
