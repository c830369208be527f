"""The catalog file format, as Pydantic models: the source of the JSON Schemas in ``schema/``.

A catalog file holds one set of one game. The shipped files in ``cardbase/catalog/data/``
use it, ``cardbase catalog export --format json`` writes it and ``catalog import`` reads it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from cardbase.games.mea.abilities import Countable, Effect, Target, Trigger, Until, parse_abilities, parse_ability

NonNegative = Field(default=None, ge=0)


class _Card(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, description="The card's name as printed.")
    aliases: list[str] = Field(default_factory=list, description="Other names that find this card.")
    tags: list[str] = Field(
        default_factory=list,
        max_length=100,
        description="The owner's tags on the card (removal, draw), for tag: queries.",
    )
    notes: str | None = Field(default=None, description="Where a value comes from, or why it is unknown.")
    set: str | None = Field(default=None, description="The card's set, when not the file's set.")
    source: str | None = Field(
        default=None, description="Where the values came from (written by export; read as information only)."
    )


class MeaConditionModel(BaseModel):
    """A condition on an ability: how many of something its controller has."""

    model_config = ConfigDict(extra="forbid")

    count: Countable
    at_least: int | None = Field(default=None, ge=0)
    at_most: int | None = Field(default=None, ge=0)


class MeaFilterModel(BaseModel):
    """Restrictions on an ability's target."""

    model_config = ConfigDict(extra="forbid")

    attack_at_most: int | None = Field(default=None, ge=0, description="Only monsters with attack this or less.")
    defence_at_most: int | None = Field(default=None, ge=0, description="Only monsters with defence this or less.")
    adjacent: bool = Field(default=False, description="Only on (monsters) or (tiles) adjacent to this monster's tile.")
    empty: bool = Field(default=False, description="Only tiles with no monster on them.")


class MeaAbilityModel(BaseModel):
    """One sentence of a Méa card's abilities: trigger, condition, effect, target, amount.

    See ``cardbase/games/mea/abilities.py`` and ``docs/rules/mea.md`` for what each word means.
    """

    model_config = ConfigDict(extra="forbid")

    trigger: Trigger = Field(description="play (an assist), summoned, killed, turn_start or turn_end.")
    condition: MeaConditionModel | None = None
    effect: Effect
    target: Target | None = Field(default=None, description="Whom the effect applies to (default: the effect's own).")
    amount: int = Field(default=1, ge=1, description="Cards drawn, tiles added, or points of attack/defence.")
    count: int = Field(default=1, ge=1, description="How many targets.")
    filter: MeaFilterModel | None = None
    until: Until | None = Field(default=None, description="A stat change that lasts until the end of your turn.")
    exhausted: bool = Field(default=False, description="take_control: it cannot move or attack this turn.")

    @model_validator(mode="after")
    def _check(self) -> MeaAbilityModel:
        parse_ability(self.model_dump(exclude_none=True, exclude_defaults=True) | {"trigger": self.trigger})
        return self


class MeaCardModel(_Card):
    """A Méa card. A null value is unknown, never zero."""

    type: Literal["monster", "assist", "tile"]
    cost: int | None = Field(default=None, ge=0, description="Mana cost.")
    attack: int | None = Field(default=None, ge=0)
    defence: int | None = Field(default=None, ge=0)
    text: str | None = Field(default=None, description="Rules text (abilities).")
    abilities: list[MeaAbilityModel] | None = Field(
        default=None,
        description="The text as data, for the simulator; null: not (yet) expressed, so the card runs as its bare "
        "stats. An empty list: the card has no abilities.",
    )
    description: str | None = Field(default=None, description="Flavour text.")
    copies: int | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _check_abilities(self) -> MeaCardModel:
        if self.abilities is not None:
            parse_abilities([a.model_dump() for a in self.abilities], self.type)
        return self


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
