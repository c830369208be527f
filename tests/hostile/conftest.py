"""The hostile-input suite's helpers and fixtures.

Every hostile CLI case asserts the same four things: the exit code, exactly one
``cardbase: error:`` line on stderr (a file with many bad rows lists them below it, indented),
no traceback, and the database unchanged (``db_dump`` before and after).

Databases are copied from one template made per session (a file copy on SQLite, ``CREATE DATABASE …
TEMPLATE`` on PostgreSQL), so hundreds of cases cost seconds, not a catalog load each
(``hostile_db``); ``loaded_db`` makes one the slow way, for tests that need a fresh schema.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Connection, MetaData, create_engine, select, text
from typer.testing import CliRunner, Result

from cardbase.cli.app import app
from cardbase.db.engine import database_url
from tests.conftest import POSTGRES, new_database

_RUNNER = CliRunner()

Dump = dict[str, list[tuple[Any, ...]]]


# Reflected schemas by their shape: reflection is most of a dump's cost on PostgreSQL (dozens of
# catalog queries per table), and every database a test makes from the template has one shape.
_SCHEMAS: dict[tuple[str, tuple[tuple[str, ...], ...]], MetaData] = {}

_SHAPE_SQL = {
    "sqlite": "SELECT type, name, tbl_name, COALESCE(sql, '') FROM sqlite_master ORDER BY type, name",
    "postgresql": (
        "SELECT table_name, column_name, data_type, is_nullable, COALESCE(column_default, '')"
        " FROM information_schema.columns WHERE table_schema = current_schema()"
        " ORDER BY table_name, ordinal_position"
    ),
}


def _schema(conn: Connection) -> MetaData:
    """The database's tables, reflected once per schema shape (one catalog query to tell the shape)."""
    dialect = conn.dialect.name
    shape = tuple(tuple(str(v) for v in row) for row in conn.exec_driver_sql(_SHAPE_SQL[dialect]))
    key = (dialect, shape)
    if key not in _SCHEMAS:
        metadata = MetaData()
        metadata.reflect(conn)
        _SCHEMAS[key] = metadata
    return _SCHEMAS[key]


def execute_sql(url: str, *statements: str) -> None:
    """Run ``statements`` on the database at ``url`` in one transaction, as another program would."""
    engine = create_engine(database_url(url))
    try:
        with engine.begin() as conn:
            for statement in statements:
                conn.execute(text(statement))
    finally:
        engine.dispose()


def db_dump(url: str) -> Dump:
    """Every table's rows, sorted, by table name: equal dumps mean equal databases.

    ``url`` is a SQLAlchemy URL or a SQLite path (as ``--db`` takes). Values are compared as
    their ``repr`` so that rows of mixed types (NULL and numbers) sort on every backend. A table
    or column added or dropped changes the shape, so it is reflected afresh and seen.
    """
    engine = create_engine(database_url(url))
    try:
        dump: Dump = {}
        with engine.connect() as conn:
            for name, table in sorted(_schema(conn).tables.items()):
                rows = [tuple(row) for row in conn.execute(select(table))]
                dump[name] = sorted(rows, key=lambda row: tuple(repr(v) for v in row))
        return dump
    finally:
        engine.dispose()


def run_cli(args: Sequence[str], db: str | None = None, input: str | None = None) -> Result:
    """Run ``cardbase ARGS [--db DB]`` in this process; an exception that escapes stays in ``result.exception``."""
    argv = [str(a) for a in args] + (["--db", db] if db else [])
    return _RUNNER.invoke(app, argv, input=input, catch_exceptions=True)


def escaped(result: Result) -> BaseException | None:
    """The exception that escaped the CLI, if any (an exit is not one)."""
    return None if result.exception is None or isinstance(result.exception, SystemExit) else result.exception


def error_lines(result: Result) -> list[str]:
    """The ``cardbase: error:`` lines the command printed on stderr."""
    return [line for line in result.stderr.splitlines() if line.startswith("cardbase: error:")]


def assert_refused(result: Result, exit_code: int, *fragments: str, contains: str | None = None) -> str:
    """Assert a clean refusal: ``exit_code``, one error line, no traceback; returns the error line.

    ``fragments`` and ``contains`` are texts the error line (or the problem lines under it) must
    include, case-insensitively.
    """
    error = escaped(result)
    assert error is None, f"escaped {type(error).__name__}: {error}"
    everything = result.stdout + result.stderr
    assert "Traceback" not in everything, everything
    assert "internal error" not in everything, everything
    lines = error_lines(result)
    assert len(lines) == 1, f"expected one error line, got {lines!r}; stderr={result.stderr!r}"
    assert result.exit_code == exit_code, f"exit {result.exit_code}, want {exit_code}: {result.stderr!r}"
    for fragment in (*fragments, *([contains] if contains is not None else [])):
        assert fragment.lower() in result.stderr.lower(), f"{fragment!r} not in {result.stderr!r}"
    return lines[0]


def assert_no_crash(result: Result) -> None:
    """Any outcome a user can be given: success, or a refusal with exit 1 or 2; never a traceback."""
    error = escaped(result)
    assert error is None, f"escaped {type(error).__name__}: {error}"
    everything = result.stdout + result.stderr
    assert "Traceback" not in everything, everything
    assert "internal error" not in everything, everything
    assert result.exit_code in (0, 1, 2), f"exit {result.exit_code}: {everything[-500:]}"
    if result.exit_code == 2:
        assert error_lines(result), result.stderr


def assert_refused_unchanged(args: Sequence[str], db: str, exit_code: int, *, contains: str | None = None) -> Result:
    """Run ``args`` on ``db`` and assert a clean refusal that left every table as it was."""
    before = db_dump(db)
    result = run_cli(args, db)
    assert_refused(result, exit_code, contains=contains)
    assert db_dump(db) == before, "the database changed"
    return result


@pytest.fixture
def loaded_db(empty_db_url: str) -> str:
    """The URL of a new database with the shipped catalogs loaded the slow way (ready for ``db_dump``)."""
    from cardbase.db.engine import open_database

    open_database(empty_db_url).engine.dispose()
    return empty_db_url


@pytest.fixture(scope="session")
def shared_db(catalog_template: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One database for the tests whose input must be refused before any write: each compares its
    dump before and after, so a case that did write is caught all the same, at no per-test cost."""
    yield from _copy_of(catalog_template, tmp_path_factory.mktemp("hostile-shared"))


@pytest.fixture
def hostile_db(catalog_template: str, tmp_path: Path) -> Iterator[str]:
    """A database with the shipped catalogs, new for this test: a path (SQLite) or a URL (PostgreSQL)."""
    yield from _copy_of(catalog_template, tmp_path)


def _copy_of(template: str, folder: Path) -> Iterator[str]:
    with new_database(folder, template) as url:
        yield str(folder / "cards.db") if not POSTGRES else url


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run the test in its own folder, so that default outputs (exports/) land there."""
    monkeypatch.chdir(tmp_path)
    os.environ.pop("CARDBASE_DB", None)
    return tmp_path


@pytest.fixture(scope="module")
def sweep_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """A game record, a catalog sheet, a one-card deck and a collection sheet for the command-tree sweeps."""
    from cardbase.sim.records import record_lines
    from tests.golden.walks import rules_of

    folder = tmp_path_factory.mktemp("sweep")
    record = folder / "game.jsonl"
    record.write_text("\n".join(record_lines(rules_of("meio", {"players": 2}), 3, [])) + "\n", encoding="utf-8")
    catalog = folder / "cards.csv"
    catalog.write_text("name,type,cost,attack,defence\nZed,monster,1,1,1\n", encoding="utf-8")
    small = folder / "small.txt"
    small.write_text("game: mea\n1 Crumb Goblin\n", encoding="utf-8")
    collection = folder / "collection.csv"
    collection.write_text("name,count\nCrumb Goblin,2\n", encoding="utf-8")
    return {"record": str(record), "catalog": str(catalog), "small_deck": str(small), "collection": str(collection)}
