"""Meikyu Kingdom's standard format: the full set of 32 Meikyu and 68 Kingdom cards."""

from __future__ import annotations

from cardbase.games.formats import Format
from cardbase.games.meikyu.cards import RULEBOOK_COUNTS

FULL_SET = Format(
    game="meikyu",
    name="standard",
    description="A full set: 32 Meikyu (land) cards and 68 Kingdom cards (42 characters, 18 items, 4 Gotcha!, 4 OPEN).",
    min_cards=sum(RULEBOOK_COUNTS.values()),
    max_cards=sum(RULEBOOK_COUNTS.values()),
    catalog_copies=True,
    composition={str(t): n for t, n in RULEBOOK_COUNTS.items()},
)

FORMATS: dict[str, Format] = {FULL_SET.name: FULL_SET}
DEFAULT = FULL_SET.name
