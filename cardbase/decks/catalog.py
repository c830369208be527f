"""The catalog as decks need it: cards by name, alias, id and short id, from the database."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy import select

if TYPE_CHECKING:
    from cardbase.db.engine import Database
    from cardbase.db.search import Reader
    from cardbase.decks.files import CodeContents

from cardbase.fuzzy import Near, closest_cards
from cardbase.names import fold


@dataclass(frozen=True, slots=True)
class CardInfo:
    """What deck checks need of a card (a light copy of the database row)."""

    id: str
    short_id: int
    game: str
    set: str
    name: str
    type: str
    source: str
    unknown: tuple[str, ...]
    copies: int | None
    cost: int | None = None
    attack: int | None = None
    defence: int | None = None
    bravery: int | None = None
    wits: int | None = None
    level: int | None = None
    points: int | None = None
    rank: int | None = None
    suit: str | None = None
    text: str | None = None
    tags: tuple[str, ...] = ()
    """The card's own tags (catalog-wide)."""


_COLUMNS = (
    "id",
    "short_id",
    "game",
    "set_code",
    "name",
    "type",
    "source",
    "unknown",
    "copies",
    "cost",
    "attack",
    "defence",
    "bravery",
    "wits",
    "level",
    "points",
    "rank",
    "suit",
    "text",
    "search_names",
)


IndexEntry = tuple[CardInfo, list[str]]
"""A card of an index and the folded names it is found by."""


@dataclass
class CatalogIndex:
    """Cards of one or more games, findable by folded name or alias, id and short id."""

    by_key: dict[str, list[CardInfo]] = field(default_factory=dict)
    by_id: dict[str, CardInfo] = field(default_factory=dict)
    by_short: dict[int, CardInfo] = field(default_factory=dict)
    entries: dict[str, IndexEntry] = field(default_factory=dict)
    """The cards with the names they are found by, by id, as read (``index_of``; ``add`` leaves it alone)."""

    def add(self, info: CardInfo, keys: list[str]) -> None:
        self.by_id[info.id] = info
        self.by_short[info.short_id] = info
        for key in keys:
            self.by_key.setdefault(key, []).append(info)

    def lookup(self, name: str, game: str | None = None, set_code: str | None = None) -> list[CardInfo]:
        """Cards called ``name`` (or with it as an alias); an exact name beats an alias."""
        key = fold(name)
        found = [
            c
            for c in self.by_key.get(key, ())
            if (game is None or c.game == game) and (set_code is None or c.set == set_code)
        ]
        exact = [c for c in found if fold(c.name) == key]
        return exact or found

    def by_code_number(self, number: int, legacy: bool) -> list[CardInfo]:
        """The cards a share code's number names: the card of that short id, or (``legacy``, a
        code of version 1 or 2) every card whose short id's high bits are that 31-bit number."""
        from cardbase.db.tables import LOW_BITS

        if not legacy:
            return [self.by_short[number]] if number in self.by_short else []
        return [c for sid, c in self.by_short.items() if sid >> LOW_BITS == number]

    def closest(self, name: str, game: str | None, n: int = 3) -> list[Near]:
        """The names ``name`` may mean, ``game``'s first (:func:`cardbase.fuzzy.closest_cards`)."""
        keyed = [(k, c.name, c.game) for k, cards in self.by_key.items() for c in cards]
        return closest_cards(name, keyed, game, n=n)


def load_index(
    session: Reader,
    games: tuple[str, ...] | None = None,
    ids: Collection[str] | None = None,
    code: CodeContents | None = None,
    keys: Collection[str] | None = None,
    also_ids: Collection[str] = (),
) -> CatalogIndex:
    """Index the cards of ``games`` (all games when None), or only the cards ``ids`` (a stored deck's,
    which names its cards by id), or only the cards a share ``code`` names, or only the cards with
    one of the folded names ``keys`` (and the cards ``also_ids``): resolving those then costs their
    number, not the catalog's size."""
    from sqlalchemy import and_, or_

    from cardbase.db.tables import LOW_BITS
    from cardbase.db.tables import card as card_table

    card = card_table.c  # the Core table (as cards_named's condition is made of): no ORM classes to build
    stmt = select(*[card[c] for c in _COLUMNS])
    if games:
        stmt = stmt.where(card.game.in_(games))
    if ids is not None:
        stmt = stmt.where(card.id.in_(list(ids)))
    # A condition per name (or per old code number) is one term of an OR, which SQLite parses as a
    # tree one level deeper per term and refuses past 1,000 levels: a list of many names is looked
    # up in parts of NAMES_PER_QUERY, one statement each.
    parts: list[Any] = [None]
    if code is not None:
        numbers = sorted({number for _, number, _ in code.entries})
        short = card.short_id
        if code.legacy:  # a range of short ids per number (their high bits), read by the short-id index
            parts = [
                or_(*[and_(short >= n << LOW_BITS, short < (n + 1) << LOW_BITS) for n in chunk])
                for chunk in _chunks(numbers)
            ] or [short < 0]
        else:
            stmt = stmt.where(short.in_(numbers))
    if keys is not None:
        from cardbase.db.search import cards_named

        parts = [cards_named(session, chunk) for chunk in _chunks(sorted(keys))] or [cards_named(session, ())]
        parts[0] = or_(parts[0], card.id.in_(list(also_ids)))
    from cardbase.db.tags import card_tags

    rows = list(
        {
            row[0]: row for part in parts for row in session.execute(stmt.where(part) if part is not None else stmt)
        }.values()
    )
    some = ids is not None or code is not None or keys is not None  # else every tagged card's tags
    tags = card_tags(session, [row[_COLUMNS.index("id")] for row in rows] if some else None)
    entries: dict[str, IndexEntry] = {}
    for row in rows:
        values = dict(zip(_COLUMNS, row, strict=True))
        names = values.pop("search_names").strip("|").split("|")
        values["set"] = values.pop("set_code")
        values["unknown"] = tuple(u for u in values["unknown"].split(",") if u)
        values["tags"] = tuple(tags.get(values["id"], ()))
        entries[values["id"]] = (CardInfo(**values), names)
    return index_of(entries)


NAMES_PER_QUERY = 400
"""Names (or old share-code numbers) looked up by one statement (SQLite takes 1,000 terms at most)."""


def _chunks(items: list[Any]) -> list[list[Any]]:
    return [items[i : i + NAMES_PER_QUERY] for i in range(0, len(items), NAMES_PER_QUERY)]


def index_of(entries: dict[str, IndexEntry]) -> CatalogIndex:
    """An index of ``entries`` (by card id), kept with it (``CatalogIndex.entries``)."""
    index = CatalogIndex()
    for info, names in entries.values():
        index.add(info, names)
    index.entries = entries
    return index


def load_cards(session: Reader, ids: Collection[str]) -> dict[str, IndexEntry]:
    """The cards ``ids`` (those the catalog has) as index entries, by id: ``load_index`` of ``ids``."""
    return load_index(session, ids=ids).entries


def catalog_supply(database: Database, game: str) -> dict[str, tuple[int, int | None]]:
    """The catalog's cards of ``game`` by type: (distinct cards, their copies in all; None when a card's
    count is unknown) -- whether a deck short of a type can be filled from the catalog at all."""
    from sqlalchemy import func
    from sqlalchemy import select as sa_select

    from cardbase.db.models import Card

    table = Card.__table__  # type: ignore[attr-defined]
    with database.read() as conn:
        rows = conn.execute(
            sa_select(table.c.type, func.count(), func.sum(table.c.copies), func.count(table.c.copies))
            .where(table.c.game == game)
            .group_by(table.c.type)
        ).all()
    return {str(t): (int(n), int(total or 0) if known == n else None) for t, n, total, known in rows}
