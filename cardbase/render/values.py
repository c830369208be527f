"""A card's face values: the strings and flags layout templates are filled from.

Honest by construction: an applicable value that is unknown (NULL) becomes "?", never a
number; a value that does not apply to the card becomes "". Demo cards get ``demo`` set,
which draws the demo mark, and a footer that says so. A value taken from an assumption profile
(Meikyu's, for playtest proxies) is named in ``assumed``, which draws the ASSUMED mark on every
face that shows it, and in the footer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardbase.catalog.fields import APPLICABLE, source_label
from cardbase.games.base import SOURCE_DEMO
from cardbase.render.shapes import SUIT_SHAPES

UNKNOWN = "?"
GAME_SHORT = {"mea": "Méa", "meikyu": "Meikyu Kingdom", "meio": "Meio"}
TYPE_LABELS = {
    ("mea", "monster"): "Monster",
    ("mea", "assist"): "Assist",
    ("mea", "tile"): "Tile",
    ("meikyu", "land"): "Meikyu · Land",
    ("meikyu", "character"): "Character",
    ("meikyu", "item"): "Item",
    ("meikyu", "aggression"): "Aggression",
    ("meikyu", "open"): "OPEN · play it immediately",
    ("meio", "playing card"): "Playing card",
}
# Kinds whose cards have rules text: a published card whose text the catalog does not have prints
# "?" (a demo card's missing text is its own: it has none).
RULES_TEXT_KINDS = frozenset({("mea", "monster"), ("mea", "assist")})
NBSP = "\u00a0"
RANK_LABELS = {1: "A", 11: "J", 12: "Q", 13: "K"}
RED_SUITS = frozenset({"H", "D"})
_FIELDS = (
    "cost",
    "attack",
    "defence",
    "level",
    "points",
    "developed_points",
    "bravery",
    "wits",
    "land_name",
    "text",
    "description",
)


def face_values(card: Any, assumed: Mapping[str, Any] | None = None, profile: str = "") -> dict[str, Any]:
    """The face values of ``card`` (a ``cardbase.db.models.Card`` or any object with its fields);
    ``assumed``: values of an assumption ``profile`` for the fields the catalog lacks (a value the
    catalog has always wins)."""
    applicable = APPLICABLE.get((card.game, card.type), ())
    values: dict[str, Any] = {
        "id": card.id,
        "name": card.name,
        "game": card.game,
        "type": card.type,
        "set": card.set_code,
        "source": card.source,
        "demo": card.source == SOURCE_DEMO,
        "type_label": TYPE_LABELS.get((card.game, card.type), card.type.title()),
    }
    unknown = False
    from_profile: list[str] = []
    for field in _FIELDS:
        value = getattr(card, field, None)
        has_text = field == "text" and (card.game, card.type) in RULES_TEXT_KINDS and card.source != SOURCE_DEMO
        if value is None and assumed and field in applicable and assumed.get(field) is not None:
            value = assumed[field]
            from_profile.append(field)
        if value is None:
            unknown = unknown or field in applicable or has_text
            values[field] = UNKNOWN if field in applicable or has_text else ""
        else:
            values[field] = str(value)
    if card.game == "meio":
        rank, suit = card.rank, (card.suit or "").upper()
        values["rank"] = rank
        values["rank_label"] = UNKNOWN if rank is None else RANK_LABELS.get(rank, str(rank))
        values["suit"] = suit
        values["suit_shape"] = SUIT_SHAPES.get(suit, "")
        values["suit_colour"] = "#c8102e" if suit in RED_SUITS else "#111111"
        unknown = unknown or rank is None or suit not in SUIT_SHAPES
    values["assumed"] = ", ".join(from_profile)
    parts = [GAME_SHORT.get(card.game, card.game), f"{card.set_code} set", source_label(card.source)]
    if from_profile:
        parts.append(f"ASSUMED{NBSP}{'/'.join(from_profile)}" + (f" ({profile} profile)" if profile else ""))
    if unknown:
        parts.append(f"?{NBSP}={NBSP}unknown")
    values["footer"] = " · ".join(parts)
    return values
