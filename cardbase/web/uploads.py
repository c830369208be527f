"""A catalog spreadsheet sent over HTTP: one bound and one import for the page and the API.

The upload's bytes are imported as they are, in memory (``db.io.import_catalog`` with ``raw``):
no temporary file, and every message names the upload by its own (sanitised) file name. Both faces
run it in a worker thread (plain ``def`` routes), never on the event loop.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardbase.errors import UsageError
from cardbase.web.settings import SPREADSHEET_BYTES

if TYPE_CHECKING:
    from cardbase.db.engine import Database

SUFFIXES = (".csv", ".xlsx", ".json")


def too_large(field: str) -> UsageError:
    from cardbase.web.errors import TooLarge

    return TooLarge(f"{field}: the upload is over {SPREADSHEET_BYTES:,} bytes, the bound for it")


def read_upload(file: Any, field: str) -> bytes:
    """An uploaded file's bytes (a Starlette ``UploadFile``, read in the worker thread), refused (413)
    past ``SPREADSHEET_BYTES``."""
    data: bytes = file.file.read(SPREADSHEET_BYTES + 1)
    if len(data) > SPREADSHEET_BYTES:
        raise too_large(field)
    return data


def upload_name(filename: str) -> str:
    """The upload's file name as messages show it: its last part, letters, digits, ``-_.`` only."""
    base = filename.replace("\\", "/").rsplit("/", 1)[-1]
    safe = "".join(c if c.isascii() and (c.isalnum() or c in "-_.") else "_" for c in base).lstrip(".")
    return safe[:100] or "upload"


def import_sheet(
    database: Database, data: bytes, filename: str, game: str, *, dry_run: bool, fmt: str | None = None
) -> dict[str, Any]:
    """``catalog import`` of the upload ``data`` named ``filename``: every bad row listed (``InvalidData``)
    and nothing written unless all are good; ``dry_run`` checks and counts. The object of
    ``catalog import --json``."""
    from cardbase.db.io import import_catalog
    from cardbase.db.queries import check_game

    if len(data) > SPREADSHEET_BYTES:
        raise too_large(upload_name(filename))
    game_id = check_game(game.strip() or None)
    if not game_id:
        raise UsageError("game: choose the game the spreadsheet is for")
    name = upload_name(filename)
    if fmt is None and Path(name).suffix.lower() not in SUFFIXES:
        raise UsageError(f"{name}: upload a .csv, .xlsx or .json file (or give its format)")
    result = import_catalog(database, Path(name), game_id, fmt=fmt, dry_run=dry_run, raw=data)
    return result.as_dict(name, game_id)
