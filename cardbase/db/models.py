"""SQLModel tables of the card database: the ORM's classes, for writes and the reads that want objects.

``cardbase.db.tables`` describes the same tables as SQLAlchemy Core ``Table`` objects, which reads
use without building these classes (start-up work a ``deck validate`` need not pay);
``tests/test_db_tables.py`` keeps the two identical. The schema version and the ids' helpers are
defined there and named here too.

A card's ``id`` is ``<game>/<set>/<slug of name>``: stable across databases, so deck
files and share codes can refer to it. ``short_id`` is a 53-bit hash of ``id`` for
compact share codes. Stat columns are typed and nullable: NULL means unknown.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Index, text
from sqlmodel import Field, SQLModel

from cardbase.db.tables import LEGACY_BITS as LEGACY_BITS
from cardbase.db.tables import LOW_BITS as LOW_BITS
from cardbase.db.tables import SCHEMA_VERSION as SCHEMA_VERSION
from cardbase.db.tables import abilities_data as abilities_data
from cardbase.db.tables import card_id as card_id
from cardbase.db.tables import legacy_short_id as legacy_short_id
from cardbase.db.tables import short_id as short_id


class Meta(SQLModel, table=True):
    """Key/value facts about the database: schema version, loaded catalog digests."""

    key: str = Field(primary_key=True, max_length=200)
    value: str


class Game(SQLModel, table=True):
    id: str = Field(primary_key=True, max_length=20)
    title: str
    rulebook: str


class CardType(SQLModel, table=True):
    """A card type of a game, with how many cards of it the rulebook says exist."""

    __tablename__ = "card_type"

    game: str = Field(primary_key=True, foreign_key="game.id", max_length=20)
    name: str = Field(primary_key=True, max_length=40)
    rulebook_count: int | None = None


class CardSet(SQLModel, table=True):
    __tablename__ = "card_set"

    game: str = Field(primary_key=True, foreign_key="game.id", max_length=20)
    code: str = Field(primary_key=True, max_length=60)
    name: str | None = None
    source: str
    note: str | None = None


class Card(SQLModel, table=True):
    __table_args__ = (Index("ix_card_game_name", "game", "name"),)

    id: str = Field(primary_key=True, max_length=300)
    short_id: int = Field(sa_type=BigInteger, unique=True, index=True)
    game: str = Field(foreign_key="game.id", index=True, max_length=20)
    set_code: str = Field(index=True, max_length=60)
    name: str = Field(index=True)
    search_names: str = Field(description="Folded name, aliases and land name, joined by '|'.")
    type: str = Field(index=True, max_length=40)
    source: str = Field(index=True)
    text: str | None = None
    description: str | None = None
    land_name: str | None = None
    cost: int | None = Field(default=None, index=True)
    attack: int | None = Field(default=None, index=True)
    defence: int | None = Field(default=None, index=True)
    level: int | None = Field(default=None, index=True)
    points: int | None = None
    developed_points: int | None = None
    bravery: int | None = None
    wits: int | None = None
    rank: int | None = None
    suit: str | None = Field(default=None, max_length=1)
    min_players: int | None = None
    copies: int | None = None
    notes: str | None = None
    unknown: str = Field(default="", description="Comma-separated applicable fields whose value is unknown.")
    abilities: str | None = Field(
        default=None,
        description="Méa: the text's abilities as JSON (cardbase.games.mea.abilities); NULL: not expressed.",
    )


class CardAlias(SQLModel, table=True):
    __tablename__ = "card_alias"

    card_id: str = Field(primary_key=True, foreign_key="card.id", max_length=300)
    alias: str = Field(primary_key=True)


class CardImage(SQLModel, table=True):
    """Art for a card: a path under ``card_images/`` and the digest of its bytes."""

    __tablename__ = "card_image"

    card_id: str = Field(primary_key=True, foreign_key="card.id", max_length=300)
    path: str
    sha256: str = Field(max_length=64)


class DeckRow(SQLModel, table=True):
    """A deck kept in the database (``cardbase deck new/add/remove/show``)."""

    __tablename__ = "deck"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(unique=True, index=True, max_length=200)
    game: str = Field(foreign_key="game.id", max_length=20)
    format: str | None = None
    players: int | None = None
    updated_at: str = ""
    version: int = Field(default=1, sa_column_kwargs={"server_default": text("1")})
    """1 when made; every write to the deck or its cards adds 1 in its transaction (``decks.store``)."""


class DeckCardRow(SQLModel, table=True):
    """Copies of one card in one section ('' for none) of a deck."""

    __tablename__ = "deck_card"

    deck_id: int = Field(primary_key=True, foreign_key="deck.id")
    card_id: str = Field(primary_key=True, foreign_key="card.id", max_length=300)
    section: str = Field(default="", primary_key=True, max_length=40)
    count: int
    position: int = 0


class PlayGameRow(SQLModel, table=True):
    """A game played at the web server's table (``/play``): its rules and seed; the actions are rows
    of ``play_action``. ``status``: ``playing``, ``over`` or ``abandoned`` (left idle past the expiry)."""

    __tablename__ = "play_game"

    id: str = Field(primary_key=True, max_length=40)
    game: str = Field(foreign_key="game.id", max_length=20)
    rules: str = Field(description="The rules' options as JSON (rules.to_options(): decks and pool included).")
    seed: str = Field(max_length=20, description="The seed, in decimal (0 to 2**64 - 1).")
    status: str = Field(index=True, max_length=20)
    version: int = Field(default=0, description="Changes so far (actions and undos); a move on another is stale.")
    labels: str = Field(default="{}", description="What the pages show beside the game, as JSON (deck names, profile).")
    outcome: str | None = Field(default=None, description="The outcome as JSON once the game is over.")
    created_at: str = Field(max_length=40)
    updated_at: str = Field(max_length=40)


class PlaySeatRow(SQLModel, table=True):
    """A seat of a played game: ``agent`` is ``human`` or an agent spec; a person's seat has the
    SHA-256 of its key (the key itself is only in that seat's link)."""

    __tablename__ = "play_seat"

    game_id: str = Field(primary_key=True, foreign_key="play_game.id", max_length=40)
    seat: int = Field(primary_key=True)
    agent: str = Field(max_length=200)
    key_hash: str | None = Field(default=None, max_length=64)


class PlayActionRow(SQLModel, table=True):
    """The ``number``-th action of a played game (1-based, chance included), as its record writes it."""

    __tablename__ = "play_action"

    game_id: str = Field(primary_key=True, foreign_key="play_game.id", max_length=40)
    number: int = Field(primary_key=True)
    player: str = Field(max_length=10, description="P1, P2, … or chance.")
    action: str


# --- what owners keep (schema 8) ---------------------------------------------------------------


class OwnedRow(SQLModel, table=True):
    """Copies of a card the user owns (``cardbase collection``); a card not listed has none."""

    __tablename__ = "collection"

    card_id: str = Field(primary_key=True, foreign_key="card.id", max_length=300)
    count: int


class CardTagRow(SQLModel, table=True):
    """A tag on a card, for the whole catalog (``removal``, ``draw``)."""

    __tablename__ = "card_tag"

    card_id: str = Field(primary_key=True, foreign_key="card.id", max_length=300)
    tag: str = Field(primary_key=True, index=True, max_length=40)


class DeckCardTagRow(SQLModel, table=True):
    """A tag on a card's entries in one deck (``combo piece``), whatever their section."""

    __tablename__ = "deck_card_tag"

    deck_id: int = Field(primary_key=True, foreign_key="deck.id")
    card_id: str = Field(primary_key=True, foreign_key="card.id", max_length=300)
    tag: str = Field(primary_key=True, max_length=40)


class CardEditRow(SQLModel, table=True):
    """One change to a card's values (an add, an edit or a revert): who, when, and the fields' values
    before and after, as JSON objects of the fields that changed."""

    __tablename__ = "card_edit"

    id: int | None = Field(default=None, primary_key=True)
    card_id: str = Field(foreign_key="card.id", index=True, max_length=300)
    at: str = Field(max_length=40)
    who: str = Field(max_length=200)
    action: str = Field(max_length=20)
    before: str
    after: str


class DeckVersionRow(SQLModel, table=True):
    """One version of a database deck: the whole deck after a change (deck JSON), what changed, when and
    from where (``cli``, ``web``)."""

    __tablename__ = "deck_version"

    deck_id: int = Field(primary_key=True, foreign_key="deck.id")
    number: int = Field(primary_key=True)
    at: str = Field(max_length=40)
    origin: str = Field(max_length=40)
    change: str
    content: str
