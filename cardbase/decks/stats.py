"""Deck statistics: counts by type and each game's numbers; unknown values are counted, never guessed."""

from __future__ import annotations

from collections import Counter
from typing import Any

from cardbase.decks.model import Deck
from cardbase.decks.validate import ResolvedDeck
from cardbase.games.base import is_demo, whole_number
from cardbase.games.formats import Format

_RANK_LABELS = {1: "A", 11: "J", 12: "Q", 13: "K"}


def _int(text: str) -> int:
    return (whole_number(text, 10**6) or 0) if text.isascii() else 0


def average(values: list[int | None]) -> dict[str, Any]:
    """A mean that never looks exact when it is not: ``average`` is None when a value is unknown,
    ``of_known`` is the mean of the known ones (None when there are none), ``known`` and ``unknown``
    count them."""
    known = [v for v in values if v is not None]
    unknown = len(values) - len(known)
    of_known = round(sum(known) / len(known), 2) if known else None
    return {"average": None if unknown else of_known, "of_known": of_known, "known": len(known), "unknown": unknown}


def average_text(a: dict[str, Any], nothing: str = "none") -> str:
    """``2.5``, ``unknown (2.6 over the 5 known, 1 unknown)``, ``unknown (3 unknown)`` or, with no value to
    average, ``— (NOTHING)``: an average with unknown parts never reads as exact."""
    if a["average"] is not None:
        return f"{a['average']:g}"
    if not a["unknown"]:
        return f"— ({nothing})"
    if a["of_known"] is None:
        return f"unknown ({a['unknown']} unknown)"
    return f"unknown ({a['of_known']:g} over the {a['known']} known, {a['unknown']} unknown)"


SUMMARY_KEYS = ({"total", "at_least", "unknown"}, {"average", "of_known", "known", "unknown"})


def is_summary(value: Any) -> bool:
    """Whether ``value`` is a ``total`` or an ``average`` (one statistic, not a table of counts)."""
    return isinstance(value, dict) and set(value) in SUMMARY_KEYS


def total(values: list[int | None]) -> dict[str, int | None]:
    """A sum that never looks exact when it is not: ``total`` is None when a value is unknown,
    ``at_least`` sums the known ones, ``unknown`` counts the others."""
    known = [v for v in values if v is not None]
    unknown = len(values) - len(known)
    return {"total": None if unknown else sum(known), "at_least": sum(known), "unknown": unknown}


def total_text(t: dict[str, int | None]) -> str:
    """``12``, or ``unknown (≥ 3, 15 unknown)``: a total with unknown parts never reads as exact."""
    if t["total"] is not None:
        return str(t["total"])
    return (
        f"unknown (≥ {t['at_least']}, {t['unknown']} unknown)" if t["at_least"] else f"unknown ({t['unknown']} unknown)"
    )


def deck_stats(resolved: ResolvedDeck, fmt: Format | None) -> dict[str, Any]:
    """The numbers a deck builder looks at, for the deck's game (its main deck; side sections are counted)."""
    deck = resolved.deck.main
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
        "demo_cards": sum(n for card, n in copies if is_demo(card)),
        "side_sections": resolved.deck.side,
        "by_tag": tag_counts(deck, resolved),
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
        out["average_attack"] = average([c.attack for c, n in monsters for _ in range(n)])
        out["average_defence"] = average([c.defence for c, n in monsters for _ in range(n)])
        out["monsters_with_unknown_attack"] = sum(n for c, n in monsters if c.attack is None)
        out["monsters_with_unknown_defence"] = sum(n for c, n in monsters if c.defence is None)
        out["cost_unknown"] = curve.get("?", 0)
    elif deck.game == "meikyu":
        characters = [(c, n) for c, n in copies if c.type == "character"]
        out["bravery_total"] = total([c.bravery for c, n in characters for _ in range(n)])
        out["wits_total"] = total([c.wits for c, n in characters for _ in range(n)])
        out["characters_with_unknown_bravery"] = sum(n for c, n in characters if c.bravery is None)
        out["characters_with_unknown_wits"] = sum(n for c, n in characters if c.wits is None)
        levels = Counter(
            str(c.level) if c.level is not None else "?" for c, n in copies if c.type == "land" for _ in range(n)
        )
        out["land_levels"] = dict(
            sorted(levels.items(), key=lambda kv: (kv[0] == "?", int(kv[0]) if kv[0] != "?" else 0))
        )
    else:
        suits: Counter[str] = Counter()
        ranks: Counter[str] = Counter()
        for card, n in copies:
            suits[card.suit or "?"] += n
            ranks[_RANK_LABELS.get(card.rank or 0, str(card.rank))] += n
        out["suits"] = {s: suits.get(s, 0) for s in ("S", "H", "D", "C")}
        labels = {label: rank for rank, label in _RANK_LABELS.items()}
        # ranks as players read them: 2 … 10, J, Q, K, then the ace (Meio's ace is high)
        out["ranks"] = dict(
            sorted(
                ranks.items(), key=lambda kv: (kv[0] == "?", 14 if kv[0] == "A" else labels.get(kv[0]) or _int(kv[0]))
            )
        )
        out["hearts"] = suits.get("H", 0)
    return out


HEADLINE = {
    "game",
    "name",
    "cards",
    "distinct",
    "by_type",
    "format",
    "copy_limit",
    "demo_cards",
    "side_sections",
    "by_tag",
}


def tag_counts(deck: Deck, resolved: ResolvedDeck) -> dict[str, int]:
    """Cards of ``deck`` per tag, the card's own tags and its entry tags in the deck together (a card with
    one tag both ways counts once), by tag name; untagged cards are not counted."""
    counts: Counter[str] = Counter()
    for c in deck.cards:
        info = resolved.cards.get(c.card_id)
        for tag in {*c.tags, *(info.tags if info else ())}:
            counts[tag] += c.count
    return dict(sorted(counts.items()))


def stat_text(value: Any) -> str:
    """One statistic in words: totals with unknown parts say so, counts read ``4:1  5:2``, none is ``—``."""
    if isinstance(value, dict) and set(value) == SUMMARY_KEYS[0]:
        return total_text(value)
    if isinstance(value, dict) and set(value) == SUMMARY_KEYS[1]:
        return average_text(value, "no monsters")
    if isinstance(value, dict):
        return "  ".join(f"{k}:{v}" for k, v in value.items()) or "—"
    return "unknown" if value is None else str(value)


def stats_lines(data: dict[str, Any]) -> list[str]:
    """The game's statistics of ``deck_stats`` as ``name: value`` lines (the headline fields left out)."""
    return [f"{key.replace('_', ' ')}: {stat_text(value)}" for key, value in data.items() if key not in HEADLINE]
