"""A deck against the collection: per card, the copies it needs, owned and missing, and the totals.

A deck needs the copies of every section it lists (main, sideboard, maybe: what you would put in
its box and what ``print deck`` prints); a card in two sections needs both counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardbase.decks.model import Deck
from cardbase.errors import counted

if TYPE_CHECKING:
    from cardbase.db.engine import Database


@dataclass(frozen=True, slots=True)
class OwnedLine:
    card_id: str
    name: str
    needed: int
    owned: int

    @property
    def missing(self) -> int:
        return max(self.needed - self.owned, 0)

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.card_id,
            "name": self.name,
            "needed": self.needed,
            "owned": self.owned,
            "missing": self.missing,
        }


@dataclass(frozen=True, slots=True)
class OwnedReport:
    """What of a deck the collection holds."""

    lines: tuple[OwnedLine, ...]

    @property
    def needed(self) -> int:
        return sum(line.needed for line in self.lines)

    @property
    def owned(self) -> int:
        """Copies of the deck the collection covers (a card owned beyond the deck's need counts once per need)."""
        return sum(min(line.owned, line.needed) for line in self.lines)

    @property
    def missing(self) -> int:
        return sum(line.missing for line in self.lines)

    @property
    def buildable(self) -> bool:
        return self.missing == 0

    def missing_counts(self) -> dict[str, int]:
        """Copies missing per card id (only the cards with any)."""
        return {line.card_id: line.missing for line in self.lines if line.missing}

    def as_dict(self) -> dict[str, Any]:
        return {
            "needed": self.needed,
            "owned": self.owned,
            "missing": self.missing,
            "buildable": self.buildable,
            "cards": [line.as_dict() for line in self.lines],
        }

    def summary(self) -> str:
        """One line: ``you own 28 of 32 cards; missing 4: 2 Crumb Goblin, 2 Tile Mole``."""
        if not self.needed:
            return "collection: no cards in the deck yet"
        if self.buildable:
            return f"collection: you own every card of it ({self.needed})"
        shown = [f"{line.missing} {line.name}" for line in self.lines if line.missing]
        more = f", … {len(shown) - 8} more" if len(shown) > 8 else ""
        return (
            f"collection: you own {self.owned} of {counted(self.needed, 'card')}; missing {self.missing}: "
            + ", ".join(shown[:8])
            + more
        )


def owned_report(deck: Deck, owned: dict[str, int]) -> OwnedReport:
    """``deck``'s cards against ``owned`` (copies per card id), in deck order."""
    needed: dict[str, int] = {}
    names: dict[str, str] = {}
    for card in deck.cards:
        needed[card.card_id] = needed.get(card.card_id, 0) + card.count
        names.setdefault(card.card_id, card.name)
    return OwnedReport(tuple(OwnedLine(cid, names[cid], n, owned.get(cid, 0)) for cid, n in needed.items()))


def deck_owned(database: Database, deck: Deck) -> OwnedReport:
    """``deck`` against the database's collection."""
    from sqlalchemy import select

    from cardbase.db.tables import collection

    owned = collection.c  # the Core table: a report that only reads builds no ORM classes
    query = select(owned.card_id, owned.count).where(owned.card_id.in_(sorted({c.card_id for c in deck.cards})))
    with database.read() as conn:
        return owned_report(deck, {card_id: count for card_id, count in conn.execute(query)})


def collection_is_empty(database: Database) -> bool:
    """Whether the collection holds no card (then reports leave the collection out)."""
    from sqlalchemy import select

    from cardbase.db.tables import collection

    with database.read() as conn:
        return conn.scalars(select(collection.c.card_id).limit(1)).first() is None


def owned_if_any(database: Database, game: str | None, deck: Deck) -> OwnedReport | None:
    """``deck`` against the collection, or None when the collection is empty or the deck has no game:
    the ``collection`` of ``deck show``/``deck validate`` (CLI and API alike)."""
    if not game or collection_is_empty(database):
        return None
    return deck_owned(database, deck)


def collection_field(database: Database, game: str | None, deck: Deck) -> dict[str, Any]:
    """The ``collection`` field the deck's JSON objects carry (None without a collection)."""
    owned = owned_if_any(database, game, deck)
    return {"collection": owned.as_dict() if owned else None}
