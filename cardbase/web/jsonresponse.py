"""The web app's JSON answers: always valid JSON (the app's default response class, and the one
every route that builds its own JSON answer uses).

Starlette's ``JSONResponse`` refuses a float that is not finite with a ``ValueError``: a figure of
nothing (a win rate of no games) would be a 500 "internal error". Here such a value is ``null``
(:func:`cardbase.jsonout.finite`), as in the CLI's ``--json``.
"""

from __future__ import annotations

from typing import Any

from fastapi.responses import JSONResponse as _StarletteJSON

from cardbase.jsonout import dumps

__all__ = ["JSONResponse"]


class JSONResponse(_StarletteJSON):
    """``JSONResponse`` with every NaN or infinite float written as ``null``."""

    def render(self, content: Any) -> bytes:
        return dumps(content, ensure_ascii=False, indent=None, separators=(",", ":")).encode("utf-8")
