"""Decks kept in the database. Every write is one transaction; concurrent edits add up, none is lost."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, func, update
from sqlalchemy import select as sa_select
from sqlmodel import col, select

from cardbase.db.models import Card, DeckCardRow, DeckRow
from cardbase.decks.model import MAX_DECK_CARDS, Deck, DeckCard, check_players
from cardbase.errors import UnknownCard, UsageError
from cardbase.fuzzy import closest
from cardbase.names import fold


class UnknownDeck(UsageError):
    """No deck of that name in the database."""

    exit_code = 1


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _get(session: Any, name: str) -> DeckRow:
    row: DeckRow | None = session.scalars(select(DeckRow).where(DeckRow.name == name)).first()
    if row is None:
        names = {fold(n): n for n in session.scalars(select(DeckRow.name).order_by(DeckRow.name))}
        near = closest(name, names, n=3, cutoff=0.5)
        raise UnknownDeck(
            f"no deck named {name!r}"
            + (f"; did you mean {', '.join(map(repr, near))}?" if near else "; `cardbase deck list` shows the decks")
        )
    return row


def _players(value: int | None, game: str) -> int | None:
    """``value`` checked by the deck readers' rule (``check_players``), as a usage error."""
    try:
        return check_players(value, game)
    except ValueError as error:
        raise UsageError(str(error)) from None


def _deck_name(name: str) -> str:
    """A deck name as stored: 1 to 200 characters, none of them a control character."""
    from cardbase.names import name_problem

    if not name.strip() or len(name) > 200:
        raise UsageError(f"a deck name must be 1 to 200 characters, not {len(name)}")
    problem = name_problem(name)
    if problem and "control character" in problem:
        raise UsageError(f"the deck name {name!r} {problem}")
    return name


def _section(section: str | None, game: str) -> str | None:
    """``section`` as stored (a game's main section is none), or a usage error naming the game's sections."""
    from cardbase.decks.model import MAIN_SECTION
    from cardbase.decks.validate import SECTIONS

    if section is None:
        return None
    name = " ".join(section.lower().split())
    if name not in SECTIONS.get(game, ()):
        allowed = ", ".join(SECTIONS.get(game, ())) or "none"
        raise UsageError(f"--section {section!r}: {game} decks have the sections {allowed}")
    return None if name == MAIN_SECTION.get(game) else name


def new_deck(database: Any, name: str, game: str, fmt: str | None = None, players: int | None = None) -> None:
    """Make an empty deck; a name already taken, or a player count the readers refuse, is an error."""
    players = _players(players, game)
    name = _deck_name(name)
    with database.transaction() as session:
        if session.scalars(select(DeckRow.id).where(DeckRow.name == name)).first() is not None:
            raise UsageError(f"a deck named {name!r} already exists")
        session.add(DeckRow(name=name, game=game, format=fmt, players=players, updated_at=_now()))


def add_card(database: Any, deck_name: str, card: Card, count: int = 1, section: str | None = None) -> int:
    """Add ``count`` copies of ``card``; returns the copies now in the deck. Atomic under concurrency."""
    with database.transaction() as session:
        deck = _get(session, deck_name)
        if card.game != deck.game:
            raise UnknownCard(card.name, deck.game, [])
        section = _section(section, deck.game)
        dialect = session.get_bind().dialect.name
        from sqlalchemy.dialects import postgresql, sqlite

        insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
        position = session.scalar(
            select(func.count()).select_from(DeckCardRow).where(col(DeckCardRow.deck_id) == deck.id)
        )
        stmt = insert(DeckCardRow).values(
            deck_id=deck.id, card_id=card.id, section=section or "", count=count, position=position
        )
        stmt = stmt.on_conflict_do_update(
            index_elements=["deck_id", "card_id", "section"], set_={"count": col(DeckCardRow.count) + count}
        )
        session.execute(stmt)
        total = session.scalar(select(func.sum(DeckCardRow.count)).where(col(DeckCardRow.deck_id) == deck.id))
        if int(total or 0) > MAX_DECK_CARDS:  # raised inside the transaction: the add is rolled back
            raise UsageError(
                f"deck {deck_name!r} would hold {int(total or 0):,} cards; a deck may have at most {MAX_DECK_CARDS:,}"
            )
        session.execute(update(DeckRow).where(col(DeckRow.id) == deck.id).values(updated_at=_now()))
        return int(
            session.scalar(
                select(DeckCardRow.count).where(
                    DeckCardRow.deck_id == deck.id,
                    DeckCardRow.card_id == card.id,
                    DeckCardRow.section == (section or ""),
                )
            )
        )


def remove_card(database: Any, deck_name: str, card: Card, count: int | None = None, section: str | None = None) -> int:
    """Remove ``count`` copies (all when None); returns the copies left."""
    with database.transaction() as session:
        deck = _get(session, deck_name)
        section = _section(section, deck.game)
        where = (
            col(DeckCardRow.deck_id) == deck.id,
            col(DeckCardRow.card_id) == card.id,
            col(DeckCardRow.section) == (section or ""),
        )
        have = session.scalar(select(DeckCardRow.count).where(*where).with_for_update())
        if have is None:
            raise UsageError(f"{card.name} is not in deck {deck_name!r}")
        left = 0 if count is None else max(have - count, 0)
        if left == 0:
            session.execute(delete(DeckCardRow).where(*where))
        else:
            session.execute(update(DeckCardRow).where(*where).values(count=col(DeckCardRow.count) - count))
        session.execute(update(DeckRow).where(col(DeckRow.id) == deck.id).values(updated_at=_now()))
        return left


def delete_deck(database: Any, name: str) -> None:
    with database.transaction() as session:
        deck = _get(session, name)
        session.execute(delete(DeckCardRow).where(col(DeckCardRow.deck_id) == deck.id))
        session.execute(delete(DeckRow).where(col(DeckRow.id) == deck.id))


def deck_names(database: Any) -> list[str]:
    """The names of the decks in the database, in order."""
    with database.session() as session:
        return list(session.scalars(select(DeckRow.name).order_by(DeckRow.name)))


def list_decks(database: Any) -> list[dict[str, Any]]:
    with database.session() as session:
        rows = session.execute(
            sa_select(
                col(DeckRow.name),
                col(DeckRow.game),
                col(DeckRow.format),
                col(DeckRow.updated_at),
                func.coalesce(func.sum(DeckCardRow.count), 0),
            )
            .join(DeckCardRow, col(DeckCardRow.deck_id) == DeckRow.id, isouter=True)
            .group_by(col(DeckRow.id))
            .order_by(col(DeckRow.name))
        ).all()
    return [{"name": n, "game": g, "format": f, "updated": u, "cards": int(c)} for n, g, f, u, c in rows]


def load_deck(database: Any, name: str) -> Deck:
    """A deck from the database as a ``Deck`` value."""
    with database.session() as session:
        deck = _get(session, name)
        rows = session.execute(
            select(DeckCardRow.card_id, Card.name, DeckCardRow.count, DeckCardRow.section)
            .join(Card, col(Card.id) == DeckCardRow.card_id)
            .where(col(DeckCardRow.deck_id) == deck.id)
            .order_by(col(DeckCardRow.position), col(Card.name))
        ).all()
        return Deck(
            deck.game,
            tuple(DeckCard(cid, n, c, s or None) for cid, n, c, s in rows),
            deck.name,
            deck.format,
            deck.players,
        ).canonical()


def save_deck(database: Any, deck: Deck, name: str, replace: bool = False) -> None:
    """Store ``deck`` under ``name`` in one transaction (replacing an existing one only if asked)."""
    _players(deck.players, deck.game)
    name = _deck_name(name)
    with database.transaction() as session:
        existing = session.scalars(select(DeckRow).where(DeckRow.name == name)).first()
        if existing is not None and not replace:
            raise UsageError(f"a deck named {name!r} already exists; pass --replace to overwrite it")
        if existing is not None:
            session.execute(delete(DeckCardRow).where(col(DeckCardRow.deck_id) == existing.id))
            session.delete(existing)
            session.flush()
        row = DeckRow(name=name, game=deck.game, format=deck.format, players=deck.players, updated_at=_now())
        session.add(row)
        session.flush()
        assert row.id is not None
        for position, c in enumerate(deck.canonical().cards):
            session.add(
                DeckCardRow(
                    deck_id=row.id, card_id=c.card_id, section=c.section or "", count=c.count, position=position
                )
            )
