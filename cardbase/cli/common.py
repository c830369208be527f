"""What every command shares: options, output, and turning user errors into exit codes.

Only ``typer`` is imported at module level so that ``cardbase --help`` stays fast.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:  # imported lazily at run time
    from rich.console import Console

    from cardbase.db.engine import Database

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        envvar="CARDBASE_DB",
        help="Database: a SQLite file path or any SQLAlchemy URL (default: ./cardbase.db).",
        show_default=False,
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON for scripts instead of a table.")]

MAX_SEED = 2**64 - 1
"""Seeds are whole numbers from 0; 64 bits is more than any RNG here keeps."""


def print_json(data: Any) -> None:
    """Print ``data`` as indented JSON (UTF-8, keys in the order given)."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n")


def console(stderr: bool = False) -> Console:
    """A Rich console (imported on first use)."""
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, markup=False, soft_wrap=False)


def warn(message: str) -> None:
    """One warning line on stderr."""
    typer.echo(f"warning: {message}", err=True)


def open_db(db: str | None) -> Database:
    """The catalog database at ``db`` (or the default), opened and loaded."""
    from cardbase.db.engine import open_database

    return open_database(db)
