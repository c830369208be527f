"""Tags: on cards (the whole catalog: ``removal``, ``draw``) and on a card's entries in one deck
(``combo piece``), and the ``tag:`` term of the search language that finds either.

A tag is checked by ``cardbase.names.tag_name`` wherever it enters (a command, a form, a file).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from sqlalchemy import exists, false, or_, select
from sqlalchemy.sql.elements import ColumnElement

from cardbase.db import tables
from cardbase.errors import QueryError, quoted

if TYPE_CHECKING:  # the writes below import sqlmodel and the ORM classes; the reads use the Core tables
    from sqlmodel import Session

    from cardbase.db.search import Reader

EntryTags = Mapping[str, Iterable[str]]
"""A deck's entry tags as a search needs them: tag → the ids of the cards whose entries have it."""


def card_tags(session: Reader, card_ids: Iterable[str] | None = None) -> dict[str, list[str]]:
    """Each card's tags (sorted), for ``card_ids`` or every tagged card."""
    tags = tables.card_tag.c
    query = select(tags.card_id, tags.tag).order_by(tags.card_id, tags.tag)
    if card_ids is not None:
        query = query.where(tags.card_id.in_(list(card_ids)))
    out: dict[str, list[str]] = {}
    for cid, tag in session.execute(query).all():
        out.setdefault(cid, []).append(tag)
    return out


def replace_card_tags(session: Session, card_id: str, tags: Iterable[str]) -> None:
    """Make ``card_id``'s tags exactly ``tags`` (checked already), in the caller's transaction."""
    from sqlalchemy import delete
    from sqlmodel import col

    from cardbase.db.models import CardTagRow

    session.execute(delete(CardTagRow).where(col(CardTagRow.card_id) == card_id))
    for tag in dict.fromkeys(tags):
        session.add(CardTagRow(card_id=card_id, tag=tag))


def entry_tags(session: Session, deck_id: int) -> dict[str, tuple[str, ...]]:
    """The tags of each card's entries in deck ``deck_id`` (card id → tags, sorted)."""
    from sqlmodel import col, select

    from cardbase.db.models import DeckCardTagRow

    rows = session.execute(
        select(DeckCardTagRow.card_id, DeckCardTagRow.tag)
        .where(col(DeckCardTagRow.deck_id) == deck_id)
        .order_by(col(DeckCardTagRow.card_id), col(DeckCardTagRow.tag))
    ).all()
    out: dict[str, list[str]] = {}
    for cid, tag in rows:
        out.setdefault(cid, []).append(tag)
    return {cid: tuple(tags) for cid, tags in out.items()}


def replace_entry_tags(session: Session, deck_id: int, card_id: str, tags: Iterable[str]) -> None:
    """Make the tags of ``card_id``'s entries in deck ``deck_id`` exactly ``tags``, in the caller's transaction."""
    from sqlalchemy import delete
    from sqlmodel import col

    from cardbase.db.models import DeckCardTagRow

    session.execute(
        delete(DeckCardTagRow).where(col(DeckCardTagRow.deck_id) == deck_id, col(DeckCardTagRow.card_id) == card_id)
    )
    for tag in dict.fromkeys(tags):
        session.add(DeckCardTagRow(deck_id=deck_id, card_id=card_id, tag=tag))


def delete_deck_tags(session: Session, deck_id: int) -> None:
    from sqlalchemy import delete
    from sqlmodel import col

    from cardbase.db.models import DeckCardTagRow

    session.execute(delete(DeckCardTagRow).where(col(DeckCardTagRow.deck_id) == deck_id))


def refuse_absent(removing: Iterable[str], held: Iterable[str], whose: str) -> None:
    """``Refused`` (exit 1) naming the first tag of ``removing`` that ``held`` (stored forms) lacks, and
    what ``whose`` holds: a tag to take off that is not there would change nothing unsaid (a typo,
    ``--remove removl``), as ``deck remove`` of a card not in the deck is refused."""
    from cardbase.errors import Refused

    have = set(held)
    missing = [tag for tag in removing if tag not in have]
    if missing:
        listed = f"its tags: {', '.join(sorted(have))}" if have else "it has none"
        raise Refused(f"{whose} has no tag {quoted(missing[0])} to take off; {listed}").refusing(missing[0])


def by_tag(tags_of: Mapping[str, Iterable[str]]) -> dict[str, set[str]]:
    """``{card id: tags}`` turned around: ``{tag: card ids}``."""
    out: dict[str, set[str]] = {}
    for cid, tags in tags_of.items():
        for tag in tags:
            out.setdefault(tag, set()).add(cid)
    return out


def tag_condition(value: str, text: str, entry: EntryTags | None = None) -> ColumnElement[bool]:
    """``tag:VALUE``: the card has the tag, or (with ``entry``, a deck's entry tags) its entries in the deck do."""
    from cardbase.names import tag_name

    try:
        tag = tag_name(value)
    except ValueError as error:
        raise QueryError(f"{quoted(text)}: {error}") from None
    card, tags = tables.card.c, tables.card_tag.c  # the Core tables, as search's statements are made of
    on_card = exists().where(tags.card_id == card.id, tags.tag == tag)
    in_deck = sorted((entry or {}).get(tag, ()))
    return or_(on_card, card.id.in_(in_deck)) if in_deck else or_(on_card, false())
