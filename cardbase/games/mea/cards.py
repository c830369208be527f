"""Méa card definitions: monsters, assists, and the tiles of the board."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from cardbase.games.base import SOURCE_RULEBOOK

DECK_MIN = 18
DECK_MAX = 40
TILES_PER_PLAYER = 9


class MeaCardType(StrEnum):
    MONSTER = "monster"
    ASSIST = "assist"
    TILE = "tile"


@dataclass(frozen=True, slots=True)
class MeaCard:
    """One Méa card. ``None`` in a stat means the value is unknown, not zero."""

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


# Per type, how many the rulebook says exist (None: it does not say).
RULEBOOK_COUNTS: dict[MeaCardType, int | None] = {
    MeaCardType.MONSTER: None,
    MeaCardType.ASSIST: None,
    MeaCardType.TILE: 2 * TILES_PER_PLAYER,
}
