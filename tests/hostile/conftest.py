"""Shared helpers of the hostile-input suite: run the CLI, check its one error line, dump a database.

Every hostile CLI case asserts the same four things: the exit code, exactly one
``cardbase: error:`` line on stderr, no traceback, and the database unchanged (``db_dump``
before and after).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from sqlalchemy import MetaData, create_engine, select
from typer.testing import CliRunner, Result

from cardbase.cli.app import app
from cardbase.db.engine import database_url

_RUNNER = CliRunner()

Dump = dict[str, list[tuple[Any, ...]]]


def db_dump(url: str) -> Dump:
    """Every table's rows, sorted, by table name: equal dumps mean equal databases.

    ``url`` is a SQLAlchemy URL or a SQLite path (as ``--db`` takes). Values are compared as
    their ``repr`` so that rows of mixed types (NULL and numbers) sort on every backend.
    """
    engine = create_engine(database_url(url))
    try:
        metadata = MetaData()
        metadata.reflect(engine)
        dump: Dump = {}
        with engine.connect() as conn:
            for name, table in sorted(metadata.tables.items()):
                rows = [tuple(row) for row in conn.execute(select(table))]
                dump[name] = sorted(rows, key=lambda row: tuple(repr(v) for v in row))
        return dump
    finally:
        engine.dispose()


def run_cli(args: Sequence[str], db: str | None = None) -> Result:
    """Run ``cardbase ARGS [--db DB]`` in this process; an exception that escapes stays in ``result.exception``."""
    argv = [str(a) for a in args] + (["--db", db] if db else [])
    return _RUNNER.invoke(app, argv, catch_exceptions=True)


def error_lines(result: Result) -> list[str]:
    """The ``cardbase: error:`` lines the command printed on stderr."""
    return [line for line in result.stderr.splitlines() if line.startswith("cardbase: error:")]


def assert_refused(result: Result, exit_code: int, *, contains: str | None = None) -> str:
    """Assert a clean refusal: ``exit_code``, one error line, no traceback; returns the error line.

    ``contains`` is text the error line (or the problem lines under it) must include, case-insensitively.
    """
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"escaped {type(result.exception).__name__}: {result.exception}"
    )
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout
    lines = error_lines(result)
    assert len(lines) == 1, f"expected one error line, got {lines!r}; stderr={result.stderr!r}"
    assert result.exit_code == exit_code, f"exit {result.exit_code}, stderr={result.stderr!r}"
    if contains is not None:
        assert contains.lower() in result.stderr.lower(), f"{contains!r} not in {result.stderr!r}"
    return lines[0]


def assert_refused_unchanged(args: Sequence[str], db: str, exit_code: int, *, contains: str | None = None) -> Result:
    """Run ``args`` on ``db`` and assert a clean refusal that left every table as it was."""
    before = db_dump(db)
    result = run_cli(args, db)
    assert_refused(result, exit_code, contains=contains)
    assert db_dump(db) == before, "the database changed"
    return result


@pytest.fixture
def loaded_db(db_url: str) -> str:
    """The URL of a new database with the shipped catalogs loaded (ready for ``db_dump``)."""
    from cardbase.db.engine import open_database

    open_database(db_url).engine.dispose()
    return db_url
