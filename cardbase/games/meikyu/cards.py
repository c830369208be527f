"""Meikyu Kingdom card definitions: Meikyu (land) cards and Kingdom cards."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from cardbase.games.base import SOURCE_RULEBOOK


class MeikyuCardType(StrEnum):
    LAND = "land"  # orange-backed Meikyu card: a dungeon room, a land once owned
    CHARACTER = "character"
    ITEM = "item"
    AGGRESSION = "aggression"
    OPEN = "open"

    @property
    def is_kingdom(self) -> bool:
        """Whether this is a blue-backed Kingdom card."""
        return self is not MeikyuCardType.LAND


@dataclass(frozen=True, slots=True)
class MeikyuCard:
    """One Meikyu Kingdom card. ``None`` in a value means unknown, not zero.

    For a land, ``name`` is the room's name as a dungeon and ``land_name`` its
    name once owned; ``level`` is the quest level.
    """

    name: str
    type: MeikyuCardType
    set: str = "core"
    source: str = SOURCE_RULEBOOK
    land_name: str | None = None
    level: int | None = None
    points: int | None = None
    developed_points: int | None = None
    bravery: int | None = None
    wits: int | None = None
    text: str | None = None
    copies: int | None = None
    aliases: tuple[str, ...] = ()
    notes: str | None = None


# Per type, how many cards the rulebook says a full set has.
RULEBOOK_COUNTS: dict[MeikyuCardType, int] = {
    MeikyuCardType.LAND: 32,
    MeikyuCardType.CHARACTER: 42,
    MeikyuCardType.ITEM: 18,
    MeikyuCardType.AGGRESSION: 4,
    MeikyuCardType.OPEN: 4,
}
KINGDOM_CARDS = 68
