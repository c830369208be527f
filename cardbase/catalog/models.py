"""The catalog file format, as Pydantic models: the source of the JSON Schemas in ``schema/``.

A catalog file holds one set of one game. The shipped files in ``cardbase/catalog/data/``
use it, ``cardbase catalog export --format json`` writes it and ``catalog import`` reads it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

NonNegative = Field(default=None, ge=0)


class _Card(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, description="The card's name as printed.")
    aliases: list[str] = Field(default_factory=list, description="Other names that find this card.")
    notes: str | None = Field(default=None, description="Where a value comes from, or why it is unknown.")
    set: str | None = Field(default=None, description="The card's set, when not the file's set.")
    source: str | None = Field(
        default=None, description="Where the values came from (written by export; read as information only)."
    )


class MeaCardModel(_Card):
    """A Méa card. A null value is unknown, never zero."""

    type: Literal["monster", "assist", "tile"]
    cost: int | None = Field(default=None, ge=0, description="Mana cost.")
    attack: int | None = Field(default=None, ge=0)
    defence: int | None = Field(default=None, ge=0)
    text: str | None = Field(default=None, description="Rules text (abilities).")
    description: str | None = Field(default=None, description="Flavour text.")
    copies: int | None = Field(default=None, ge=0)


class MeikyuCardModel(_Card):
    """A Meikyu Kingdom card. For a land, ``name`` is its room name as a dungeon."""

    type: Literal["land", "character", "item", "aggression", "open"]
    land_name: str | None = None
    level: int | None = Field(default=None, ge=0, description="Quest level.")
    points: int | None = Field(default=None, ge=0)
    developed_points: int | None = Field(default=None, ge=0)
    bravery: int | None = Field(default=None, ge=0, description="Swords.")
    wits: int | None = Field(default=None, ge=0, description="Seals.")
    text: str | None = None
    copies: int | None = Field(default=None, ge=0, description="Copies in a full set.")


class MeioCardModel(_Card):
    """A card of the standard deck."""

    type: Literal["playing card"] = "playing card"
    rank: int = Field(ge=1, le=13, description="1 = ace, 11 = jack, 12 = queen, 13 = king.")
    suit: Literal["S", "H", "D", "C"]
    min_players: int = Field(ge=2, le=4, description="Fewest players whose deck holds this card.")


class _CatalogFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    set: str = Field(min_length=1, pattern=r"^[a-z0-9][a-z0-9-]*$", description="Set code.")
    set_name: str | None = None
    source: str = Field(description='"rulebook", "demo", or "file:<name>" for imported values.')
    note: str | None = None


class MeaCatalogFile(_CatalogFile):
    game: Literal["mea"]
    cards: list[MeaCardModel]


class MeikyuCatalogFile(_CatalogFile):
    game: Literal["meikyu"]
    cards: list[MeikyuCardModel]


class MeioCatalogFile(_CatalogFile):
    game: Literal["meio"]
    cards: list[MeioCardModel]


CATALOG_MODELS: dict[str, type[_CatalogFile]] = {
    "mea": MeaCatalogFile,
    "meikyu": MeikyuCatalogFile,
    "meio": MeioCatalogFile,
}
