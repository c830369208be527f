"""Deck statistics: counts by type and each game's numbers; unknown values are counted, never guessed."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from cardbase.decks.model import Deck
from cardbase.decks.validate import ResolvedDeck
from cardbase.games.base import is_demo
from cardbase.games.formats import Format
from cardbase.games.meio.cards import SUIT_NAMES

_RANK_LABELS = {1: "A", 11: "J", 12: "Q", 13: "K"}


UNKNOWN = "?"
"""The key under which a count table counts the cards whose value is unknown (NULL)."""


def value_counts(
    values: Iterable[tuple[Any, int]],
    *,
    keys: Sequence[Any] = (),
    label: Callable[[Any], str] = str,
    order: Callable[[Any], Any] = lambda v: v,
) -> dict[str, int]:
    """Copies per value, ``(value, copies)`` pairs counted by the value's ``label``, in ``order``, the ``keys``
    first (shown even at 0); a card whose value is unknown (None) counts under ``?``, last — never under
    ``None``, and never left out: every copy given is in one count (the one rule for every count table of
    a deck's numbers: Méa's mana curve, Meikyu's land levels, Meio's suits and ranks)."""
    counts: Counter[Any] = Counter()
    unknown = 0
    for value, n in values:
        if value is None:
            unknown += n
        else:
            counts[value] += n
    out = {label(k): counts.get(k, 0) for k in keys}
    out.update((label(v), counts[v]) for v in sorted(counts, key=order) if v not in keys)
    if unknown:
        out[UNKNOWN] = unknown
    return out


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
        curve = value_counts([(c.cost, n) for c, n in copies if c.type in ("monster", "assist")])
        out["mana_curve"] = curve
        out["average_attack"] = average([c.attack for c, n in monsters for _ in range(n)])
        out["average_defence"] = average([c.defence for c, n in monsters for _ in range(n)])
        out["monsters_with_unknown_attack"] = sum(n for c, n in monsters if c.attack is None)
        out["monsters_with_unknown_defence"] = sum(n for c, n in monsters if c.defence is None)
        out["cost_unknown"] = curve.get(UNKNOWN, 0)
    elif deck.game == "meikyu":
        characters = [(c, n) for c, n in copies if c.type == "character"]
        out["bravery_total"] = total([c.bravery for c, n in characters for _ in range(n)])
        out["wits_total"] = total([c.wits for c, n in characters for _ in range(n)])
        out["characters_with_unknown_bravery"] = sum(n for c, n in characters if c.bravery is None)
        out["characters_with_unknown_wits"] = sum(n for c, n in characters if c.wits is None)
        out["land_levels"] = value_counts([(c.level, n) for c, n in copies if c.type == "land"])
    else:
        out["suits"] = value_counts([(c.suit, n) for c, n in copies], keys=("S", "H", "D", "C"))
        # ranks as players read them: 2 … 10, J, Q, K, then the ace (Meio's ace is high)
        out["ranks"] = value_counts(
            [(c.rank, n) for c, n in copies],
            label=lambda r: _RANK_LABELS.get(r, str(r)),
            order=lambda r: 14 if r == 1 else r,
        )
        hearts = [None if c.suit is None else int(c.suit == "H") for c, n in copies for _ in range(n)]
        out["hearts"] = total(hearts)
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


_LABELS = {
    "cards": "cards in the main deck",
    "distinct": "different cards",
    "format": "format",
    "copy_limit": "copy limit",
    "demo_cards": "demo cards",
    "cost_unknown": "cards of unknown cost",
    "hearts": "heart cards",
}
"""Statistics whose key does not read as a label once its ``_`` are spaces (``stat_label``)."""

_BUCKETS: dict[str, tuple[str, str]] = {
    "by_type": ("{} cards", "cards of unknown type"),
    "by_tag": ("cards tagged {}", "cards tagged ?"),
    "mana_curve": ("cards of cost {}", "cards of unknown cost on the curve"),
    "land_levels": ("level {} lands", "lands of unknown level"),
    "suits": ("{}", "cards of unknown suit"),
    "ranks": ("rank {} cards", "cards of unknown rank"),
    "side_sections": ("cards in [{}]", "cards in [?]"),
}
"""A statistic counted by bucket (``deck_stats``): the label of one of its buckets, and of its unknown one."""


def stat_label(key: str) -> str:
    """The words a player reads for a statistic of ``deck_stats`` or one bucket of it, as ``deck diff``
    names them (``mana_curve.3``: "cards of cost 3", ``by_type.assist``: "assist cards"); the one place
    ``deck stats`` and ``deck diff``'s text, the builder's stats panel, Edit as text's "What saving
    changes" and the compare page take them from (``--json`` keeps the keys)."""
    group, dot, bucket = key.partition(".")
    if dot and group in _BUCKETS:
        known, unknown = _BUCKETS[group]
        if bucket == UNKNOWN:
            return unknown
        return known.format(SUIT_NAMES.get(bucket, bucket) if group == "suits" else bucket)
    if dot:  # a statistic of buckets not listed above: its name, then the bucket's
        return f"{group.replace('_', ' ')}: {bucket}"
    return _LABELS.get(key, key.replace("_", " "))


def stats_lines(data: dict[str, Any]) -> list[str]:
    """The game's statistics of ``deck_stats`` as ``name: value`` lines (the headline fields left out)."""
    return [f"{stat_label(key)}: {stat_text(value)}" for key, value in data.items() if key not in HEADLINE]
