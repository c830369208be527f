"""A deck's list grouped by type (Méa monsters and assists; Meikyu characters, items, Gotcha!, OPEN,
lands; Meio by suit), by cost or by tag, sorted within each group, with subtotals that keep unknown values
unknown. ``deck show --group`` prints it; the deck builder shows it as a list and as stacked faces."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cardbase.db.queries import DEMO_LABEL
from cardbase.decks.stats import total, total_text
from cardbase.decks.validate import ResolvedDeck
from cardbase.errors import UsageError, counted, quoted
from cardbase.games.base import is_demo
from cardbase.names import fold

GROUPINGS = ("type", "cost", "tag")
SORTS = ("name", "cost", "count")

TYPE_GROUPS: dict[str, tuple[tuple[str, str], ...]] = {
    "mea": (("monster", "Monsters"), ("assist", "Assists"), ("tile", "Tiles")),
    "meikyu": (
        ("character", "Characters"),
        ("item", "Items"),
        ("aggression", "Gotcha!"),
        ("open", "OPEN"),
        ("land", "Lands"),
    ),
}
SUIT_GROUPS = (("S", "♠ Spades"), ("H", "♥ Hearts"), ("D", "♦ Diamonds"), ("C", "♣ Clubs"))

COST: dict[str, tuple[str, str, frozenset[str] | None]] = {
    "mea": ("cost", "cost", frozenset({"monster", "assist"})),
    "meikyu": ("level", "level", frozenset({"land"})),
    "meio": ("rank", "rank", None),
}
"""Each game's "cost" of a card: (the field, its word, the types it applies to; None: all)."""

SUBTOTALS: dict[str, tuple[tuple[str, str, frozenset[str]], ...]] = {
    "mea": (("cost", "mana", frozenset({"monster", "assist"})),),
    "meikyu": (("bravery", "bravery", frozenset({"character"})), ("wits", "wits", frozenset({"character"}))),
    "meio": (),
}
"""The values summed per group: (the field, its word, the types it applies to)."""

RANK_LABELS = {1: "A", 11: "J", 12: "Q", 13: "K"}


@dataclass
class Group:
    """Cards of one type, suit or cost in a section, with their count and subtotals."""

    key: str
    label: str
    entries: list[dict[str, Any]] = field(default_factory=list)
    subtotals: dict[str, dict[str, int | None]] = field(default_factory=dict)

    @property
    def count(self) -> int:
        return sum(e["count"] for e in self.entries)

    def subtotal_text(self) -> str:
        """``12 cards · mana 31`` (an unknown part says so: ``mana unknown (≥ 20, 1 unknown)``)."""
        parts = [counted(self.count, "card")]
        parts += [f"{word} {total_text(t)}" for word, t in self.subtotals.items()]
        return " · ".join(parts)

    def as_dict(self) -> dict[str, Any]:
        return {
            "group": self.key,
            "label": self.label,
            "count": self.count,
            "subtotals": self.subtotals,
            "cards": [{k: e[k] for k in ("count", "name", "id", "cost")} for e in self.entries],
        }


def check_choice(value: str | None, allowed: tuple[str, ...], name: str) -> str:
    """A grouping or sort named by the user (empty: the first), or a usage error listing the choices."""
    if not value:
        return allowed[0]
    if value not in allowed:
        raise UsageError(f"{name} must be one of {', '.join(allowed)}, not {quoted(value)}")
    return value


def cost_of(game: str, card: Any) -> tuple[bool, int | None]:
    """Whether the game's cost applies to ``card``, and its value (None: unknown)."""
    field_name, _, types = COST[game]
    if card is None or (types is not None and card.type not in types):
        return False, None
    return True, getattr(card, field_name, None)


def cost_label(game: str, value: int | None) -> str:
    if value is None:
        return "?"
    return RANK_LABELS.get(value, str(value)) if game == "meio" else str(value)


def primary_tag(entry: dict[str, Any], card: Any) -> str | None:
    """The tag a card is grouped under: the entry's first tag in this deck, else its first catalog tag
    (by name); None when it has neither. One group per card, so the groups add up to the deck."""
    if entry.get("tags"):
        return str(entry["tags"][0])
    tags = sorted(getattr(card, "tags", None) or (), key=fold)
    return tags[0] if tags else None


def _group_key(game: str, card: Any, by: str, entry: dict[str, Any]) -> tuple[tuple[int, int, str], str, str]:
    """The group of ``card`` (``entry`` in the deck): its sort key, its key and its label."""
    if by == "tag":
        tag = primary_tag(entry, card)
        return ((0, 0, fold(tag)), f"tag:{tag}", tag) if tag else ((1, 0, ""), "untagged", "Untagged")
    if by == "cost":
        applies, value = cost_of(game, card)
        word = COST[game][1]
        if not applies:
            return (2, 0, ""), "none", f"No {word}"
        if value is None:
            return (1, 0, ""), "?", f"{word.capitalize()} unknown"
        shown = 14 if game == "meio" and value == 1 else value  # Meio's ace is high
        return (0, shown, ""), str(value), f"{word.capitalize()} {cost_label(game, value)}"
    if game == "meio":
        suit = getattr(card, "suit", None)
        for i, (key, label) in enumerate(SUIT_GROUPS):
            if suit == key:
                return (0, i, ""), key, label
        return (1, 0, ""), "?", "Suit unknown"
    kind = card.type if card is not None else "?"
    for i, (key, label) in enumerate(TYPE_GROUPS.get(game, ())):
        if kind == key:
            return (0, i, ""), key, label
    return (1, 0, kind), kind, kind.capitalize()


def _sort_key(game: str, entry: dict[str, Any], card: Any, sort: str) -> tuple[Any, ...]:
    name = (fold(entry["name"]), entry["name"])
    if sort == "count":
        return (-entry["count"], *name)
    if sort == "cost":
        applies, value = cost_of(game, card)
        shown = 14 if game == "meio" and value == 1 else value
        return (not applies, value is None, shown or 0, *name)
    return name


def entry_of(
    resolved: ResolvedDeck, card_id: str, name: str, count: int, section: str | None, tags: tuple[str, ...] = ()
) -> dict[str, Any]:
    """One line of the deck list: the card, its copies, the entry's tags and what the list shows of it."""
    card = resolved.cards.get(card_id)
    applies, value = cost_of(resolved.game, card)
    return {
        "id": card_id,
        "name": name,
        "count": count,
        "section": section,
        "type": card.type if card else "?",
        "cost": cost_label(resolved.game, value) if applies else None,
        "cost_word": COST[resolved.game][1],
        "demo": is_demo(card),
        "tags": tags,
    }


def group_cards(resolved: ResolvedDeck, entries: list[dict[str, Any]], by: str, sort: str) -> list[Group]:
    """``entries`` (of one section) in groups by ``by``, each sorted by ``sort``; groups in the game's order."""
    game = resolved.game
    by, sort = check_choice(by, GROUPINGS, "group"), check_choice(sort, SORTS, "sort")
    found: dict[str, tuple[tuple[int, int, str], Group]] = {}
    for entry in entries:
        card = resolved.cards.get(entry["id"])
        order, key, label = _group_key(game, card, by, entry)
        found.setdefault(key, (order, Group(key, label)))[1].entries.append(entry)
    groups = [g for _, g in sorted(found.values(), key=lambda item: item[0])]
    for group in groups:
        group.entries.sort(key=lambda e: _sort_key(game, e, resolved.cards.get(e["id"]), sort))
        for field_name, word, types in SUBTOTALS.get(game, ()):
            values: list[int | None] = [
                getattr(card, field_name)
                for e in group.entries
                if (card := resolved.cards.get(e["id"])) is not None and card.type in types
                for _ in range(e["count"])
            ]
            if values:
                group.subtotals[word] = total(values)
    return groups


def grouped_deck(resolved: ResolvedDeck, by: str = "type", sort: str = "name") -> list[tuple[str | None, list[Group]]]:
    """Every section of the deck (main first, as the deck orders them) with its groups."""
    sections: dict[str | None, list[dict[str, Any]]] = {}
    for c in resolved.deck.canonical().cards:
        sections.setdefault(c.section, []).append(entry_of(resolved, c.card_id, c.name, c.count, c.section, c.tags))
    return [(section, group_cards(resolved, entries, by, sort)) for section, entries in sections.items()]


def grouped_lines(resolved: ResolvedDeck, by: str = "type", sort: str = "name") -> list[str]:
    """The grouped deck as ``deck show --group`` prints it: a heading with subtotals per group, then its cards."""
    lines: list[str] = []
    demo = False
    for section, groups in grouped_deck(resolved, by, sort):
        if section:
            lines.append(f"[{section}]")
        for group in groups:
            lines.append(f"{group.label} — {group.subtotal_text()}")
            for e in group.entries:
                demo = demo or e["demo"]
                cost = f"  ({e['cost']})" if e["cost"] else ""
                lines.append(f"  {e['count']} {e['name']}{cost}" + ("  demo" if e["demo"] else ""))
    if demo:
        lines.append(f"demo: {DEMO_LABEL}")
    return lines
