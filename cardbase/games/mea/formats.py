"""Méa's standard deck format (rulebook: "Decks will consist of anywhere between 18-40 cards")."""

from __future__ import annotations

from cardbase.games.formats import Format
from cardbase.games.mea.cards import DECK_MAX, DECK_MIN

STANDARD = Format(
    game="mea",
    name="standard",
    description="18–40 Méa monsters and assists; tiles are not part of the deck. "
    "The rulebook sets no copy limit, so this format has none.",
    min_cards=DECK_MIN,
    max_cards=DECK_MAX,
    allowed_types=frozenset({"monster", "assist"}),
)

FORMATS: dict[str, Format] = {STANDARD.name: STANDARD}
DEFAULT = STANDARD.name
