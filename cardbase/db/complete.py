"""Values for shell completion: card and deck names that start with what was typed.

Completion runs on every Tab press, so it only reads: it never creates, upgrades or loads a
database (a missing database, or one that cannot be read, gives no names), and it returns at
most ``limit`` names from one bounded query.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import create_engine, func, or_, select
from sqlalchemy.engine import Engine
from sqlmodel import col

from cardbase.db.engine import database_url
from cardbase.db.models import Card, DeckRow


def _reader(db: str | None) -> Engine | None:
    """An engine that only reads ``db`` (the default database when None), or None if there is none."""
    url = database_url(db)
    if url.startswith("sqlite:///"):
        path = Path(url.removeprefix("sqlite:///"))
        if not path.is_file():
            return None  # completion must not create the database
        return create_engine(f"sqlite:///file:{path}?mode=ro&uri=true")
    return create_engine(url, connect_args={"connect_timeout": 2} if url.startswith("postgresql") else {})


def _escaped(text: str) -> str:
    return text.replace("/", "//").replace("%", "/%").replace("_", "/_")


def card_names(db: str | None, typed: str, game: str | None = None, limit: int = 50) -> list[str]:
    """Card names with a word that starts with ``typed`` (any case), names starting with it first."""
    engine = _reader(db)
    if engine is None:
        return []
    low = _escaped(typed.lower())
    name = func.lower(col(Card.name))
    stmt = select(col(Card.name)).where(or_(name.like(f"{low}%", escape="/"), name.like(f"% {low}%", escape="/")))
    if game:
        stmt = stmt.where(col(Card.game) == game)
    stmt = stmt.order_by(col(Card.name)).limit(4 * limit)
    try:
        with engine.connect() as conn:
            found = list(dict.fromkeys(str(n) for n in conn.scalars(stmt)))
    finally:
        engine.dispose()
    found.sort(key=lambda n: not n.lower().startswith(typed.lower()))  # stable: by name within each
    return found[:limit]


def deck_names(db: str | None, typed: str, limit: int = 50) -> list[str]:
    """Names of the database's decks that start with ``typed`` (any case)."""
    engine = _reader(db)
    if engine is None:
        return []
    stmt = (
        select(col(DeckRow.name))
        .where(func.lower(col(DeckRow.name)).like(f"{_escaped(typed.lower())}%", escape="/"))
        .order_by(col(DeckRow.name))
        .limit(limit)
    )
    try:
        with engine.connect() as conn:
            return [str(n) for n in conn.scalars(stmt)]
    finally:
        engine.dispose()
