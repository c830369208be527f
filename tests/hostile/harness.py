"""Running the CLI as a hostile user would, and the contract every refusal keeps."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from typer.testing import CliRunner

from cardbase.cli.app import app

runner = CliRunner()


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str
    exception: BaseException | None


def run_cli(args: Sequence[str], db: str | None = None, input: str | None = None) -> Run:
    """``cardbase ARGS [--db DB]`` in this process; whatever escapes the CLI is kept, not raised."""
    argv = [*args, *(["--db", db] if db is not None else [])]
    result = runner.invoke(app, argv, input=input, catch_exceptions=True)
    exception = result.exception if not isinstance(result.exception, SystemExit) else None
    return Run(result.exit_code, result.stdout, result.stderr, exception)


def db_dump(db: str) -> list[tuple[str, list[tuple[Any, ...]]]]:
    """Every table's rows, sorted: equal dumps mean the database was left as it was."""
    from sqlalchemy import create_engine, inspect, text

    from cardbase.db.engine import database_url

    engine = create_engine(database_url(db))
    try:
        with engine.connect() as conn:
            tables = sorted(inspect(conn).get_table_names())
            return [
                (t, sorted((tuple(r) for r in conn.execute(text(f'SELECT * FROM "{t}"'))), key=repr)) for t in tables
            ]
    finally:
        engine.dispose()


def assert_refused(run: Run, code: int, *fragments: str) -> str:
    """The refusal: exit ``code``, one ``cardbase: error:`` message on stderr (a file with many bad
    rows lists them below it, indented), each of ``fragments`` in it (case-blind), no traceback
    anywhere. Returns the message."""
    assert run.exception is None, f"escaped the CLI: {run.exception!r}"
    everything = run.stdout + run.stderr
    assert "Traceback" not in everything, everything
    assert "internal error" not in everything, everything
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert lines, f"no message on stderr (exit {run.code}); stdout: {run.stdout[-300:]!r}"
    message = lines[0]
    assert message.startswith("cardbase: error: "), message
    assert all(line.startswith(" ") for line in lines[1:]), f"want one message, got {lines!r}"
    assert run.code == code, f"exit {run.code}, want {code}: {message}"
    for fragment in fragments:
        assert fragment.lower() in run.stderr.lower(), f"{fragment!r} not in {run.stderr!r}"
    return message


def assert_no_crash(run: Run) -> None:
    """Any outcome a user can be given: success, or a refusal with exit 1 or 2; never a traceback."""
    assert run.exception is None, f"escaped the CLI: {run.exception!r}"
    everything = run.stdout + run.stderr
    assert "Traceback" not in everything, everything
    assert "internal error" not in everything, everything
    assert run.code in (0, 1, 2), f"exit {run.code}: {everything[-500:]}"
    if run.code == 2:
        assert any(line.startswith("cardbase: error: ") for line in run.stderr.splitlines()), run.stderr
