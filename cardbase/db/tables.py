"""The card database's tables as SQLAlchemy Core ``Table`` objects, and the values rows are keyed by.

The same tables as the SQLModel classes of ``cardbase.db.models`` (``tests/test_db_tables.py``
compares them column by column, index by index and in the DDL of both dialects, so the two cannot
drift), but made without SQLModel or the ORM: the reads a command makes at start-up (``deck
validate``, ``cards search``) and the check of the schema at every open use these, and such a
command never imports ``sqlmodel``, ``sqlalchemy.orm`` or the classes, which cost more than its
own work. A statement takes all of its tables from one of the two sets, never from both (two
``card`` tables in one statement are two tables to SQLAlchemy).

A card's ``id`` is ``<game>/<set>/<slug of name>``; ``short_id`` a 53-bit hash of it.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from sqlalchemy import BigInteger, Column, ForeignKey, Index, Integer, MetaData, String, Table, text

from cardbase.errors import DatabaseError, json_syntax, quoted
from cardbase.names import slug

SCHEMA_VERSION = 10
"""1: the first schema. 2: ``card.abilities`` (Méa abilities as JSON text). 3: card ids keep the
letters of every script (``meikyu/core/勇者``); ids of names in Latin letters that fold to ASCII
are unchanged. 4: short ids of 53 bits (``short_id``), a BIGINT on PostgreSQL. 5: the search
index (``cardbase.db.search_index``). 6: ``deck.version``, counting the writes to a deck (for HTTP
ETag/If-Match). 7: games played at the server's tables (``play_game``, ``play_seat``,
``play_action``). 8: what owners keep: the collection, tags on cards and on deck entries, each
card's edit history and each deck's versions (new tables only; a deck's version N is its history
row N). 9: on SQLite, indexes of the name orders with each card's text (``search_index.ORDER_INDEXES``).
10: on PostgreSQL, ``card.text_folded``, the text in lower case (``search_index.FOLDED_TEXT``: a
generated column, not in the models)."""


def card_id(game: str, set_code: str, name: str) -> str:
    """The stable id of a card: ``Crème Golem`` in ``mea/demo`` → ``mea/demo/creme-golem``."""
    return f"{game}/{set_code}/{slug(name)}"


LEGACY_BITS = 31
"""The short ids of schemas 1–3, and of share codes of versions 1 and 2."""
LOW_BITS = 22
"""Bits a short id adds below its legacy short id: 53 in all, the integers a JSON number (a
JavaScript double) holds exactly."""


def legacy_short_id(card_id: str) -> int:
    """The 31-bit short id of schemas 1–3 (what share codes of versions 1 and 2 hold): two cards
    share one by chance about once in 2**31 pairs, so a 50,000-card catalog often has a pair."""
    return int.from_bytes(hashlib.blake2b(card_id.encode(), digest_size=4).digest(), "big") & (1 << LEGACY_BITS) - 1


def short_id(card_id: str) -> int:
    """A stable 53-bit number for ``card_id``, unique within a database (checked on write).

    Its high 31 bits are ``legacy_short_id`` (so an old share code finds its card by a range of
    short ids) and its low 22 bits come from a second hash: two cards of a 200,000-card catalog
    share one with a chance of about 2 in a million.
    """
    low = int.from_bytes(hashlib.blake2b(card_id.encode(), digest_size=8).digest(), "big") & (1 << LOW_BITS) - 1
    return legacy_short_id(card_id) << LOW_BITS | low


def abilities_data(card: Any) -> list[Any] | None:
    """A card's (a ``Card`` or a row of its columns) stored abilities as JSON data (``None``: not
    expressed). Text that is not a JSON list is a damaged row: a :class:`DatabaseError` naming the
    card, never a card shown, played or exported as if it had no abilities."""
    if not card.abilities:
        return None
    try:
        data = json.loads(card.abilities)
    except (ValueError, RecursionError) as error:  # JSONDecodeError, a number of over 4,300 digits
        problem = (
            f"not JSON ({json_syntax(error) if isinstance(error, json.JSONDecodeError) else 'too deep or too long'})"
        )
    else:
        if isinstance(data, list):
            return data
        problem = f"not a JSON list but {type(data).__name__}"
    raise DatabaseError(
        f"the database is damaged: card {quoted(card.name)} ({card.id}) has abilities that are {problem}; "
        "import the card again to repair it"
    )


METADATA = MetaData()
"""Every table of the schema (``SCHEMA_VERSION``)."""


def _key(name: str, length: int | None = None, *, references: str | None = None) -> Column[Any]:
    """A text column of the primary key (``references``: a foreign key to that ``table.column``)."""
    args: list[Any] = [ForeignKey(references)] if references else []
    return Column(name, String(length), *args, primary_key=True, nullable=False)


def _text(name: str, length: int | None = None, *, null: bool = False, **kw: Any) -> Column[Any]:
    args: list[Any] = [ForeignKey(kw.pop("references"))] if "references" in kw else []
    return Column(name, String(length), *args, nullable=null, **kw)


def _int(name: str, *, null: bool = False, **kw: Any) -> Column[Any]:
    args: list[Any] = [ForeignKey(kw.pop("references"))] if "references" in kw else []
    return Column(name, Integer(), *args, nullable=null, **kw)


meta = Table("meta", METADATA, _key("key", 200), _text("value"))

game = Table("game", METADATA, _key("id", 20), _text("title"), _text("rulebook"))

card_type = Table(
    "card_type",
    METADATA,
    _key("game", 20, references="game.id"),
    _key("name", 40),
    _int("rulebook_count", null=True),
)

card_set = Table(
    "card_set",
    METADATA,
    _key("game", 20, references="game.id"),
    _key("code", 60),
    _text("name", null=True),
    _text("source"),
    _text("note", null=True),
)

card = Table(
    "card",
    METADATA,
    _key("id", 300),
    Column("short_id", BigInteger(), nullable=False, unique=True, index=True),
    _text("game", 20, references="game.id", index=True),
    _text("set_code", 60, index=True),
    _text("name", index=True),
    _text("search_names"),  # the folded name, aliases and land name, joined by '|'
    _text("type", 40, index=True),
    _text("source", index=True),
    _text("text", null=True),
    _text("description", null=True),
    _text("land_name", null=True),
    _int("cost", null=True, index=True),
    _int("attack", null=True, index=True),
    _int("defence", null=True, index=True),
    _int("level", null=True, index=True),
    _int("points", null=True),
    _int("developed_points", null=True),
    _int("bravery", null=True),
    _int("wits", null=True),
    _int("rank", null=True),
    _text("suit", 1, null=True),
    _int("min_players", null=True),
    _int("copies", null=True),
    _text("notes", null=True),
    _text("unknown", default=""),  # the applicable fields whose value is unknown, comma-separated
    _text("abilities", null=True),  # Méa: the text's abilities as JSON; NULL: not expressed
    Index("ix_card_game_name", "game", "name"),
)

card_alias = Table("card_alias", METADATA, _key("card_id", 300, references="card.id"), _key("alias"))

card_image = Table(
    "card_image",
    METADATA,
    _key("card_id", 300, references="card.id"),
    _text("path"),
    _text("sha256", 64),
)

deck = Table(
    "deck",
    METADATA,
    Column("id", Integer(), primary_key=True),
    _text("name", 200, unique=True, index=True),
    _text("game", 20, references="game.id"),
    _text("format", null=True),
    _int("players", null=True),
    _text("updated_at", default=""),
    _int("version", default=1, server_default=text("1")),
)

deck_card = Table(
    "deck_card",
    METADATA,
    Column("deck_id", Integer(), ForeignKey("deck.id"), primary_key=True, nullable=False),
    _key("card_id", 300, references="card.id"),
    Column("section", String(40), primary_key=True, nullable=False, default=""),
    _int("count"),
    _int("position", default=0),
)

play_game = Table(
    "play_game",
    METADATA,
    _key("id", 40),
    _text("game", 20, references="game.id"),
    _text("rules"),
    _text("seed", 20),
    _text("status", 20, index=True),
    _int("version", default=0),
    _text("labels", default="{}"),
    _text("outcome", null=True),
    _text("created_at", 40),
    _text("updated_at", 40),
)

play_seat = Table(
    "play_seat",
    METADATA,
    _key("game_id", 40, references="play_game.id"),
    Column("seat", Integer(), primary_key=True, nullable=False),
    _text("agent", 200),
    _text("key_hash", 64, null=True),
)

play_action = Table(
    "play_action",
    METADATA,
    _key("game_id", 40, references="play_game.id"),
    Column("number", Integer(), primary_key=True, nullable=False),
    _text("player", 10),
    _text("action"),
)

collection = Table("collection", METADATA, _key("card_id", 300, references="card.id"), _int("count"))

card_tag = Table(
    "card_tag",
    METADATA,
    _key("card_id", 300, references="card.id"),
    Column("tag", String(40), primary_key=True, nullable=False, index=True),
)

deck_card_tag = Table(
    "deck_card_tag",
    METADATA,
    Column("deck_id", Integer(), ForeignKey("deck.id"), primary_key=True, nullable=False),
    _key("card_id", 300, references="card.id"),
    _key("tag", 40),
)

card_edit = Table(
    "card_edit",
    METADATA,
    Column("id", Integer(), primary_key=True),
    _text("card_id", 300, references="card.id", index=True),
    _text("at", 40),
    _text("who", 200),
    _text("action", 20),
    _text("before"),
    _text("after"),
)

deck_version = Table(
    "deck_version",
    METADATA,
    Column("deck_id", Integer(), ForeignKey("deck.id"), primary_key=True, nullable=False),
    Column("number", Integer(), primary_key=True, nullable=False),
    _text("at", 40),
    _text("origin", 40),
    _text("change"),
    _text("content"),
)
