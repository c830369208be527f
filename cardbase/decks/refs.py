"""What a deck argument may name besides a file: a database deck (by name) or a version of one
(``NAME@3``). Read through the Core tables (``cardbase.db.tables``): resolving a deck file, which
every deck command does, builds no ORM classes."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from sqlalchemy import select

from cardbase.db import tables

if TYPE_CHECKING:
    from cardbase.db.engine import Database

VERSION_REF = re.compile(r"^(?P<name>.+)@(?P<number>[0-9]{1,9})$")
"""``NAME@3``: version 3 of the database deck NAME."""


def split_ref(text: str) -> tuple[str, int] | None:
    """``("NAME", 3)`` for ``NAME@3``, else None."""
    m = VERSION_REF.match(text)
    return (m.group("name"), int(m.group("number"))) if m else None


def deck_names(database: Database) -> list[str]:
    """The names of the decks in the database, in order."""
    name = tables.deck.c.name
    with database.read() as conn:
        return list(conn.scalars(select(name).order_by(name)))
