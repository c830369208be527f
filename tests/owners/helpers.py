"""What the owners' tests share: the CLI run on a database, and the counts it owns."""

from __future__ import annotations

from typer.testing import CliRunner

from cardbase.cli.app import app
from cardbase.db.collection import owned_counts
from cardbase.db.engine import Database

runner = CliRunner()


def run(db_url: str, *args: str) -> tuple[int, str, str]:
    """``cardbase ARGS --db DB_URL``: exit code, stdout, stderr."""
    result = runner.invoke(app, [*args, "--db", db_url])
    return result.exit_code, result.stdout, result.stderr


def owned(database: Database) -> dict[str, int]:
    """Copies owned per card id."""
    with database.session() as session:
        return owned_counts(session)
