"""Deck statistics: counts by type and each game's numbers; unknown values are counted, never guessed."""

from __future__ import annotations

from collections import Counter
from typing import Any

from cardbase.decks.validate import ResolvedDeck
from cardbase.games.formats import Format

_RANK_LABELS = {1: "A", 11: "J", 12: "Q", 13: "K"}


def _mean(values: list[int]) -> float | None:
    return round(sum(values) / len(values), 2) if values else None


def deck_stats(resolved: ResolvedDeck, fmt: Format | None) -> dict[str, Any]:
    """The numbers a deck builder looks at, for the deck's game."""
    deck = resolved.deck
    copies = [(resolved.cards[c.card_id], c.count) for c in deck.cards]
    by_type: Counter[str] = Counter()
    for card, n in copies:
        by_type[card.type] += n
    out: dict[str, Any] = {
        "game": deck.game,
        "name": deck.name,
        "cards": deck.size,
        "distinct": len({c.card_id for c in deck.cards}),
        "by_type": dict(sorted(by_type.items())),
        "format": fmt.name if fmt else None,
        "copy_limit": fmt.copy_limit_text if fmt else None,
        "demo_cards": sum(n for card, n in copies if card.source == "demo"),
    }
    if deck.game == "mea":
        monsters = [(c, n) for c, n in copies if c.type == "monster"]
        curve: Counter[str] = Counter()
        for card, n in copies:
            if card.type in ("monster", "assist"):
                curve["?" if card.cost is None else str(card.cost)] += n
        out["mana_curve"] = dict(
            sorted(curve.items(), key=lambda kv: (kv[0] == "?", int(kv[0]) if kv[0] != "?" else 0))
        )
        attack = [c.attack for c, n in monsters for _ in range(n) if c.attack is not None]
        defence = [c.defence for c, n in monsters for _ in range(n) if c.defence is not None]
        out["average_attack"] = _mean(attack)
        out["average_defence"] = _mean(defence)
        out["monsters_with_unknown_attack"] = sum(n for c, n in monsters if c.attack is None)
        out["monsters_with_unknown_defence"] = sum(n for c, n in monsters if c.defence is None)
        out["cost_unknown"] = curve.get("?", 0)
    elif deck.game == "meikyu":
        characters = [(c, n) for c, n in copies if c.type == "character"]
        out["swords_total"] = sum(c.bravery * n for c, n in characters if c.bravery is not None)
        out["wits_total"] = sum(c.wits * n for c, n in characters if c.wits is not None)
        out["characters_with_unknown_bravery"] = sum(n for c, n in characters if c.bravery is None)
        out["characters_with_unknown_wits"] = sum(n for c, n in characters if c.wits is None)
        out["land_levels"] = dict(
            sorted(
                Counter(
                    str(c.level) if c.level is not None else "?"
                    for c, n in copies
                    if c.type == "land"
                    for _ in range(n)
                ).items()
            )
        )
    else:
        suits: Counter[str] = Counter()
        ranks: Counter[str] = Counter()
        for card, n in copies:
            suits[card.suit or "?"] += n
            ranks[_RANK_LABELS.get(card.rank or 0, str(card.rank))] += n
        out["suits"] = {s: suits.get(s, 0) for s in ("S", "H", "D", "C")}
        out["ranks"] = dict(
            sorted(
                ranks.items(),
                key=lambda kv: (
                    list(_RANK_LABELS.values()).index(kv[0]) if kv[0] in _RANK_LABELS.values() else int(kv[0])
                ),
            )
        )
        out["hearts"] = suits.get("H", 0)
    return out
