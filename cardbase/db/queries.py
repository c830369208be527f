"""Read-side queries: a card as a dict, a card by name, the catalog's status."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardbase.catalog.fields import APPLICABLE, GAME_FIELDS
from cardbase.db.tables import abilities_data
from cardbase.errors import UnknownCard, UsageError, counted, quoted
from cardbase.fuzzy import Near, closest_cards
from cardbase.games.base import SOURCE_DEMO
from cardbase.names import SET_CODE_PATTERN, fold

if TYPE_CHECKING:  # sqlmodel and the ORM classes are imported by the queries that use them, not by
    # check_game and card_dict (what ``cards search`` and ``deck validate`` need of this module)
    from sqlmodel import Session

    from cardbase.db.models import Card, CardSet

GAMES = tuple(GAME_FIELDS)
DEMO_LABEL = "demo card made for cardbase, not a published card"


def check_game(game: str | None) -> str | None:
    """``game`` folded to a game id (``Méa`` → ``mea``), or a usage error naming the choices."""
    if game is None:
        return None
    key = fold(game)
    if key not in GAMES:
        raise UsageError(f"unknown game {quoted(game)}; choose one of {', '.join(GAMES)}").refusing(game)
    return key


def card_dict(card: Any, aliases: list[str] | None = None, tags: list[str] | None = None) -> dict[str, Any]:
    """A card (a ``Card`` or a row of the card table) as JSON-ready data: identity, provenance and its
    game's fields (None = unknown); ``aliases`` and ``tags`` when given."""
    out: dict[str, Any] = {
        "id": card.id,
        "short_id": card.short_id,
        "game": card.game,
        "name": card.name,
        "type": card.type,
        "set": card.set_code,
        "source": card.source,
        "demo": card.source == SOURCE_DEMO,
    }
    for f in GAME_FIELDS[card.game]:
        if f.name == "abilities":
            out["abilities"] = abilities_data(card)
        elif f.name not in ("name", "type", "set", "aliases", "tags", "notes"):
            out[f.name] = getattr(card, f.name)
    if aliases is not None:
        out["aliases"] = aliases
    if tags is not None:
        out["tags"] = tags
    out["notes"] = card.notes
    out["unknown"] = [u for u in card.unknown.split(",") if u]
    if out["demo"]:
        out["label"] = DEMO_LABEL
    return out


_IN_SET = re.compile(rf"(?P<name>.*\S)\s+\((?P<set>{SET_CODE_PATTERN})\)")
"""``Name (set)``: a card of one set, as a deck list writes it."""
_CARD_ID = re.compile(r"[a-z]+/[a-z0-9][a-z0-9-]*/\S+")
"""``game/set/slug``: a card's id, as ``--json`` gives it."""


def _named(session: Session, name: str, game: str | None, set_code: str | None = None) -> Sequence[Card]:
    """The cards ``name`` names (or an alias of them), case- and accent-insensitively; those whose
    name it is, when some are."""
    from sqlmodel import col, select

    from cardbase.db.models import Card

    key = fold(name)
    stmt = select(Card).where(col(Card.search_names).contains(f"|{key}|", autoescape=True))
    if game:
        stmt = stmt.where(Card.game == game)
    if set_code is not None:
        stmt = stmt.where(Card.set_code == set_code.lower())
    matches: Sequence[Card] = session.scalars(stmt).all()
    return [c for c in matches if fold(c.name) == key] or matches


def find_card(session: Session, name: str, game: str | None = None) -> Card:
    """The card named ``name`` (or an alias of it), case- and accent-insensitively; or, where a name
    is in several sets, ``Name (set)`` as a deck list writes it, or its id ``game/set/slug``.

    A name found in several games or sets must be narrowed: the refusal names each card by the forms
    that narrow it (and ``--game`` when they are of several games). A miss raises ``UnknownCard``
    with the closest names (a name longer than any card's is one without asking the database).
    """
    from cardbase.db.io import MAX_NAME
    from cardbase.db.models import Card

    if len(name) > MAX_NAME:
        raise UnknownCard(name, game)
    matches = _named(session, name, game)
    if len(matches) == 1:
        return matches[0]
    text = name.strip()
    if _CARD_ID.fullmatch(text) and (by_id := session.get(Card, text)) and game in (None, by_id.game):
        return by_id
    if (in_set := _IN_SET.fullmatch(text)) and len(
        narrowed := _named(session, in_set["name"], game, in_set["set"])
    ) == 1:
        return narrowed[0]
    if len(matches) > 1:
        choices = ", ".join(f"{c.name} ({c.set_code}) = {c.id}" for c in matches[:8])
        games = "; or give --game" if len({c.game for c in matches}) > 1 else ""
        raise UsageError(
            f"{quoted(name)} names {counted(len(matches), 'card')}: {choices}; name one as 'Name (set)' or by its "
            f"id{games}"
        )
    if game and (elsewhere := games_naming(session, name, game)):
        raise UnknownCard(name, game, elsewhere=elsewhere)
    raise UnknownCard(name, game, closest_names(session, name, game))


def games_naming(session: Session, name: str, other_than: str) -> list[str]:
    """The games other than ``other_than`` that have a card named ``name`` (or an alias of it): what
    a name that is no card of one game is, when it is another game's (none for a text no database
    holds: a lone surrogate, which the caller refuses as a card it does not know)."""
    if not name.isascii():
        try:
            name.encode("utf-8")
        except UnicodeEncodeError:
            return []
    return sorted({c.game for c in _named(session, name, None)} - {other_than})


def closest_names(session: Session, name: str, game: str | None = None, n: int = 3) -> list[Near]:
    """The ``n`` card names closest to ``name`` (by their names and aliases), ``game``'s first; one of
    another game says so (:func:`cardbase.fuzzy.closest_cards`)."""
    from sqlmodel import select

    from cardbase.db.models import Card

    stmt = select(Card.name, Card.search_names, Card.game)
    keyed = (
        (key, card_name, of) for card_name, names, of in session.execute(stmt) for key in names.strip("|").split("|")
    )
    return closest_cards(name, keyed, game, n=n, cutoff=0.5, partial=True)


def tags_of(session: Session, card: Card) -> list[str]:
    """The card's own tags, sorted."""
    from cardbase.db.tags import card_tags

    return card_tags(session, [card.id]).get(card.id, [])


def aliases_of(session: Session, card: Card) -> list[str]:
    from sqlmodel import select

    from cardbase.db.models import CardAlias

    return list(session.scalars(select(CardAlias.alias).where(CardAlias.card_id == card.id).order_by(CardAlias.alias)))


@dataclass(frozen=True, slots=True)
class TypeStatus:
    """How complete one card type of one game is."""

    game: str
    type: str
    catalogued: int
    rulebook_count: int | None
    copies_catalogued: int | None
    unknown: dict[str, int]
    sources: dict[str, int]

    def as_dict(self) -> dict[str, Any]:
        """A row of ``catalog status --json``."""
        return {
            "game": self.game,
            "type": self.type,
            "cards": self.catalogued,
            "rulebook_count": self.rulebook_count,
            "copies": self.copies_catalogued,
            "unknown": self.unknown,
            "sources": self.sources,
        }


def catalog_status(session: Session, game: str | None = None) -> list[TypeStatus]:
    """Per game and card type: cards catalogued against the rulebook's count, unknown fields."""
    from sqlmodel import select

    from cardbase.db.models import Card, CardType

    types = session.scalars(select(CardType).order_by(CardType.game, CardType.name)).all()
    out = []
    for t in types:
        if game and t.game != game:
            continue
        cards = session.execute(
            select(Card.unknown, Card.copies, Card.source).where(Card.game == t.game, Card.type == t.name)
        ).all()
        unknown: dict[str, int] = {f: 0 for f in APPLICABLE.get((t.game, t.name), ())}
        sources: dict[str, int] = {}
        for fields, _copies, source in cards:
            for f in filter(None, fields.split(",")):
                unknown[f] = unknown.get(f, 0) + 1
            sources[source] = sources.get(source, 0) + 1
        copies = [c for _, c, s in cards if s != SOURCE_DEMO]
        copies_total = (
            sum(c for c in copies if c is not None) if copies and all(c is not None for c in copies) else None
        )
        out.append(TypeStatus(t.game, t.name, len(cards), t.rulebook_count, copies_total, unknown, sources))
    return out


def set_rows(session: Session, game: str | None = None) -> list[CardSet]:
    from sqlmodel import select

    from cardbase.db.models import CardSet

    stmt = select(CardSet).order_by(CardSet.game, CardSet.code)
    if game:
        stmt = stmt.where(CardSet.game == game)
    return list(session.scalars(stmt))


def card_count(session: Session) -> int:
    from sqlalchemy import func
    from sqlmodel import select

    from cardbase.db.models import Card

    return int(session.execute(select(func.count()).select_from(Card)).scalar_one())
