"""The JSON deck form's schema, as pydantic models: what ``parse_json`` validates a JSON deck against
and what ``cardbase schema`` writes as ``deck.schema.json``.

A module of its own, imported when a JSON deck is read or the schema is written: building the models
(and pydantic's look for plugins, which reads every installed package's entry points) costs more
than reading a text deck, which most deck commands do.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class DeckEntryModel(BaseModel):
    model_config = ConfigDict(extra="forbid")

    count: int = Field(ge=1, le=999)
    name: str = Field(min_length=1, max_length=300)
    id: str | None = Field(
        default=None,
        description="The stable card id (game/set/slug), found even after a rename; "
        "the name must be that card's (or an alias).",
    )
    set: str | None = None
    section: str | None = Field(
        default=None,
        description='Meio hand splits: "first half" or "second half"; Méa: "main" (the default), '
        '"sideboard" or "maybe" (kept with the deck, not counted in it).',
    )
    tags: list[str] | None = Field(
        default=None, max_length=100, description="Tags on the card's entries in this deck (e.g. combo piece)."
    )


class DeckVersionModel(BaseModel):
    """One version of a database deck, as ``deck export --format json --history`` writes it."""

    model_config = ConfigDict(extra="forbid")

    number: int = Field(ge=1, le=10**9)
    at: str = Field(max_length=40)
    origin: str = Field(max_length=40)
    change: str = Field(max_length=2_000)
    deck: dict[str, Any] = Field(description="The deck after the change, in this same form (without history).")


class DeckFileModel(BaseModel):
    """A deck as JSON: the same deck as the text form (and, from a database deck, its versions)."""

    model_config = ConfigDict(extra="forbid")

    game: Literal["mea", "meio", "meikyu"]
    name: str | None = None
    format: str | None = None
    players: int | None = Field(default=None, ge=2, le=4)
    cards: list[DeckEntryModel]
    history: list[DeckVersionModel] | None = Field(
        default=None, max_length=1_000_000, description="The deck's versions, oldest first (deck history)."
    )
