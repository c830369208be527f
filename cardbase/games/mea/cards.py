"""Méa card definitions: monsters, assists, and the tiles of the board."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from cardbase.games.base import SOURCE_DEMO, SOURCE_RULEBOOK
from cardbase.games.mea.abilities import Ability

DECK_MIN = 18
DECK_MAX = 40
TILES_PER_PLAYER = 9


class MeaCardType(StrEnum):
    MONSTER = "monster"
    ASSIST = "assist"
    TILE = "tile"


@dataclass(frozen=True, slots=True)
class MeaCard:
    """One Méa card. ``None`` in a stat means the value is unknown, not zero.

    ``abilities``: the text as data (:mod:`cardbase.games.mea.abilities`); ``None``
    when it is not (yet) expressed, ``()`` for a card with no abilities.
    """

    name: str
    type: MeaCardType
    set: str = "core"
    source: str = SOURCE_RULEBOOK
    cost: int | None = None
    attack: int | None = None
    defence: int | None = None
    text: str | None = None
    description: str | None = None
    copies: int | None = None
    aliases: tuple[str, ...] = ()
    notes: str | None = None
    abilities: tuple[Ability, ...] | None = None

    @property
    def is_demo(self) -> bool:
        return self.source == SOURCE_DEMO

    @property
    def unexpressed(self) -> bool:
        """Whether the card's abilities are not expressed as data (its text is not encoded, or
        unknown), so that a simulation plays it as its bare stats."""
        return self.abilities is None

    @property
    def unknown_stats(self) -> tuple[str, ...]:
        """The stats a simulation needs that are unknown: cost, and attack and defence for a monster."""
        need = ("cost", "attack", "defence") if self.type is MeaCardType.MONSTER else ("cost",)
        return tuple(f for f in need if getattr(self, f) is None)


# Per type, how many the rulebook says exist (None: it does not say).
RULEBOOK_COUNTS: dict[MeaCardType, int | None] = {
    MeaCardType.MONSTER: None,
    MeaCardType.ASSIST: None,
    MeaCardType.TILE: 2 * TILES_PER_PLAYER,
}
