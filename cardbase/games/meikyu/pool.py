"""The card pool a Meikyu game is played with: every card with every value the rules need.

The rulebook gives no land points and no Bravery or Wits, and names only 16 of the 32
lands. :func:`resolve_pool` takes the catalogued cards (rulebook facts plus whatever the
user imported) and, optionally, an assumption profile, and returns either a complete
:class:`CardPool` or the list of what is missing. A value comes from the catalog when the
catalog knows it; only a value the catalog lacks is taken from the profile, and every such
value is listed in ``CardPool.assumed``. Nothing is ever filled in silently.

Pure: no files, no database.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from cardbase.errors import counted, quoted
from cardbase.fuzzy import closest
from cardbase.games.meikyu.cards import RULEBOOK_COUNTS, MeikyuCard, MeikyuCardType
from cardbase.names import fold

KINGDOM_TYPES = ("character", "item", "aggression", "open")

# The named lands' effects, by room name (the name as a dungeon) and by land name.
ROOM_EFFECTS: dict[str, str] = {
    "Den of the Geister": "marketplace",
    "Nest of the Ogrekin": "council chamber",
    "Room of the Money Eater": "casino",
    "Workshop of the Dwarves": "blacksmith",
    "Stage of the Airt Piper": "bar",
    "Tunnel of the Valaraukar": "mixed area",
    "Altar of the Nightingale": "hospital",
    "Forest of the Manitou": "farm",
    "Storehouse of the Demonic Steel": "laboratory",
    "Mansion of the Lamia": "harem",
    "Dojo of the Rust Samurai": "fortress",
    "Graveyard of the Vampire": "tomb",
    "Spring of the Mayonnaise King": "hot springs",
    "Archives of the Dungeon Geek": "archives",
    "Castle of the Tyrant": "castle tower",
    "Cave of the Dragon": "great excavation",
}
LAND_EFFECTS: tuple[str, ...] = tuple(ROOM_EFFECTS.values())
_BY_LAND_NAME: dict[str, str] = {fold(e): e for e in LAND_EFFECTS} | {"archives": "archives"}
_BY_ROOM_NAME: dict[str, str] = {fold(k): v for k, v in ROOM_EFFECTS.items()}

ITEM_EFFECTS: dict[str, str] = {
    "sword": "sword",
    "grimoire": "grimoire",
    "grimor": "grimoire",
    "amulet": "amulet",
    "map": "map",
}
OPEN_EFFECTS: dict[str, str] = {"refugee": "refugee", "dungeon storm": "storm", "dungeon tsunami": "tsunami"}
KINGDOM_EFFECTS: tuple[str, ...] = ("sword", "grimoire", "amulet", "map", "gotcha", "refugee", "storm", "tsunami")

# The values each card type needs before a game can be played.
NEEDED: dict[str, tuple[str, ...]] = {
    "land": ("level", "points", "developed_points"),
    "character": ("bravery", "wits", "copies"),
    "item": ("copies",),
    "aggression": ("copies",),
    "open": ("copies",),
}
TYPE_LABELS = {
    "land": "lands",
    "character": "characters",
    "item": "items",
    "aggression": "aggression cards",
    "open": "OPEN cards",
}


@dataclass(frozen=True, slots=True)
class LandKind:
    """A Meikyu (land) card: ``name`` is the room's name; ``effect`` one of :data:`LAND_EFFECTS` or None."""

    name: str
    land_name: str | None
    level: int
    points: int
    developed_points: int
    effect: str | None = None
    copies: int = 1

    @property
    def label(self) -> str:
        """The land's name once owned, with the room's name: ``Marketplace (Den of the Geister)``."""
        return f"{self.land_name} ({self.name})" if self.land_name else self.name


@dataclass(frozen=True, slots=True)
class KingdomKind:
    """A Kingdom card and how many copies the pool has. Items, aggression and OPEN cards
    have no Bravery or Wits (0)."""

    name: str
    type: str
    bravery: int = 0
    wits: int = 0
    effect: str | None = None
    copies: int = 1


@dataclass(frozen=True, slots=True)
class CardPool:
    """Every card of a game with its values; ``assumed`` names each value (``"Bee bravery"``)
    or whole card (``"Unnamed room 1 (card)"``) taken from the profile ``profile``."""

    lands: tuple[LandKind, ...]
    kingdom: tuple[KingdomKind, ...]
    assumed: tuple[str, ...] = ()
    profile: str | None = None

    def assumes(self, name: str) -> bool:
        """Whether any value of the card ``name`` (or the whole card) comes from the profile: what
        marks it "(assumed)" wherever a figure of it shows."""
        return any(item == f"{name} {ASSUMED_CARD}" or item.rpartition(" ")[0] == name for item in self.assumed)

    def __repr__(self) -> str:
        """Its size, not every card (a pool's full repr runs to thousands of characters)."""
        assumed = (
            f", {counted(len(self.assumed), 'value')} assumed from profile {self.profile!r}" if self.assumed else ""
        )
        return (
            f"<CardPool: {counted(len(self.lands), 'land')} ({counted(self.land_count, 'card')}), {len(self.kingdom)} "
            f"Kingdom cards"
            f" ({counted(self.kingdom_count, 'copy', 'copies')}){assumed}>"
        )

    @property
    def land_count(self) -> int:
        return sum(c.copies for c in self.lands)

    @property
    def kingdom_count(self) -> int:
        return sum(c.copies for c in self.kingdom)

    def count(self, type_: str) -> int:
        """Cards of a type (``land``, ``character`` …), copies included."""
        if type_ == "land":
            return self.land_count
        return sum(c.copies for c in self.kingdom if c.type == type_)

    def to_dict(self) -> dict[str, Any]:
        """Compact JSON: one list per card, as in a game record's header."""
        return {
            "lands": [
                [c.name, c.land_name, c.level, c.points, c.developed_points, c.effect, c.copies] for c in self.lands
            ],
            "kingdom": [[c.name, c.type, c.bravery, c.wits, c.effect, c.copies] for c in self.kingdom],
            "profile": self.profile,
            "assumed": list(self.assumed),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CardPool:
        """The pool :meth:`to_dict` wrote; raises ``ValueError`` naming the bad entry."""
        if not isinstance(data, Mapping):
            raise ValueError("the card pool must be an object with 'lands' and 'kingdom' lists")
        lands, kingdom = data.get("lands"), data.get("kingdom")
        if not isinstance(lands, list) or not isinstance(kingdom, list):
            raise ValueError("the card pool needs a 'lands' list and a 'kingdom' list")
        out_lands = []
        for i, row in enumerate(lands):
            if not (isinstance(row, list) and len(row) == 7):
                raise ValueError(
                    f"lands[{i}]: expected [name, land_name, level, points, developed_points, effect, copies]"
                )
            name, land_name, level, points, dev, effect, copies = row
            _text(name, f"lands[{i}] name")
            if land_name is not None:
                _text(land_name, f"lands[{i}] land_name")
            for value, what in ((level, "level"), (points, "points"), (dev, "developed_points"), (copies, "copies")):
                _count(value, f"lands[{i}] {what}")
            if effect is not None and effect not in LAND_EFFECTS:
                raise ValueError(f"lands[{i}]: unknown land effect {quoted(effect)}")
            out_lands.append(LandKind(name, land_name, level, points, dev, effect, copies))
        out_kingdom = []
        for i, row in enumerate(kingdom):
            if not (isinstance(row, list) and len(row) == 6):
                raise ValueError(f"kingdom[{i}]: expected [name, type, bravery, wits, effect, copies]")
            name, type_, bravery, wits, effect, copies = row
            _text(name, f"kingdom[{i}] name")
            if type_ not in KINGDOM_TYPES:
                raise ValueError(f"kingdom[{i}]: type must be one of {', '.join(KINGDOM_TYPES)}, not {quoted(type_)}")
            for value, what in ((bravery, "bravery"), (wits, "wits"), (copies, "copies")):
                _count(value, f"kingdom[{i}] {what}")
            if effect is not None and effect not in KINGDOM_EFFECTS:
                raise ValueError(f"kingdom[{i}]: unknown card effect {quoted(effect)}")
            out_kingdom.append(KingdomKind(name, type_, bravery, wits, effect, copies))
        names = [fold(c.name) for c in out_kingdom]
        if len(set(names)) != len(names):
            raise ValueError("two Kingdom cards of the pool share a name")
        rooms = [fold(c.name) for c in out_lands]
        if len(set(rooms)) != len(rooms):
            raise ValueError("two lands of the pool share a room name")
        assumed = data.get("assumed", [])
        if not isinstance(assumed, list) or not all(isinstance(a, str) for a in assumed):
            raise ValueError("'assumed' must be a list of texts")
        profile = data.get("profile")
        if profile is not None and not isinstance(profile, str):
            raise ValueError("'profile' must be a text or null")
        return cls(tuple(out_lands), tuple(out_kingdom), tuple(assumed), profile)


def _text(value: Any, what: str) -> None:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{what} must be a non-empty text")


def _count(value: Any, what: str) -> None:
    if type(value) is not int or value < 0:
        raise ValueError(f"{what} must be a whole number 0 or more, not {quoted(value)}")


def land_effect(name: str, land_name: str | None) -> str | None:
    """The effect of a land, found by its room name or its land name (None: no effect known)."""
    return _BY_ROOM_NAME.get(fold(name)) or (_BY_LAND_NAME.get(fold(land_name)) if land_name else None)


def kingdom_effect(name: str, type_: str, aliases: Iterable[str] = ()) -> str | None:
    """The effect of a Kingdom card by its name or an alias (None: no effect known)."""
    if type_ == "aggression":
        return "gotcha"
    table = ITEM_EFFECTS if type_ == "item" else OPEN_EFFECTS if type_ == "open" else {}
    for n in (name, *aliases):
        if fold(n) in table:
            return table[fold(n)]
    return None


# --- profiles ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ExtraCard:
    """A card a profile adds because the catalog does not have it (an unnamed land, the
    fourth OPEN card). Every value is assumed."""

    name: str
    type: str
    values: Mapping[str, Any]
    why: str = ""


@dataclass(frozen=True)
class Profile:
    """An assumption profile: values for cards the catalog has without them, and extra cards
    that fill a card type up to the rulebook's count. Every value it supplies is "assumed"."""

    name: str
    values: Mapping[str, Mapping[str, int]]
    """Folded card name → field → value."""
    why: Mapping[str, str]
    extras: tuple[ExtraCard, ...] = ()
    summary: str = ""
    origin: str = ""
    names: Mapping[str, str] | None = None
    """Folded card name → the name as the profile writes it."""


PROFILE_FIELDS: dict[str, tuple[str, ...]] = {
    "land": ("level", "points", "developed_points"),
    "character": ("bravery", "wits", "copies"),
    "item": ("copies",),
    "aggression": ("copies",),
    "open": ("copies",),
}
VALUE_FIELDS = ("level", "points", "developed_points", "bravery", "wits", "copies")
PROFILE_FORMAT = "cardbase-meikyu-profile"
MAX_PROFILE_VALUE = 1_000
"""Bound of a profile's numbers: a Meikyu card's values are a few units; a thousand leaves room
and keeps every sum, and a pool of copies, small."""


def _value_problem(value: Any, low: int) -> str | None:
    """What is wrong with a profile number (None: a whole number from ``low`` to the bound)."""
    if type(value) is int and low <= value <= MAX_PROFILE_VALUE:
        return None
    return f"must be a whole number from {low} to {MAX_PROFILE_VALUE:,}, not {quoted(value, 40)}"


class ProfileProblems(ValueError):
    """A profile that was read but is invalid: ``problems`` lists every one."""

    def __init__(self, origin: str, problems: list[str]):
        self.origin = origin
        self.problems = problems
        super().__init__(f"{origin}: " + "; ".join(problems))


def parse_profile(data: Any, origin: str) -> Profile:
    """Check a profile's JSON data; raises :class:`ProfileProblems` listing every problem."""
    problems: list[str] = []
    if not isinstance(data, dict):
        raise ProfileProblems(origin, ["a profile is a JSON object (see the shipped default profile)"])
    known = {"format", "version", "name", "label", "summary", "reasoning", "cards", "extra_cards"}
    for key in data:
        if key not in known:
            problems.append(f"unknown key {quoted(key)} (keys are {', '.join(sorted(known))})")
    if data.get("format", PROFILE_FORMAT) != PROFILE_FORMAT:
        problems.append(f"'format' must be {PROFILE_FORMAT!r}")
    if data.get("version", 1) != 1:
        problems.append("'version' must be 1")
    if data.get("label", "assumed") != "assumed":
        problems.append("'label' must be \"assumed\": every value a profile gives is an assumption")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        problems.append("'name' must be a non-empty text")
        name = "?"
    cards = data.get("cards", {})
    values: dict[str, dict[str, int]] = {}
    why: dict[str, str] = {}
    names: dict[str, str] = {}
    if not isinstance(cards, dict):
        problems.append("'cards' must be an object: card name → {field: value, \"why\": text}")
        cards = {}
    for card, entry in cards.items():
        where = f"cards.{card}"
        if not isinstance(entry, dict):
            problems.append(f"{where}: must be an object of field: value")
            continue
        got: dict[str, int] = {}
        for key, value in entry.items():
            if key == "why":
                if not isinstance(value, str):
                    problems.append(f"{where}.why: must be a text")
                else:
                    why[fold(card)] = value
                continue
            if key not in VALUE_FIELDS:
                problems.append(f"{where}: unknown field {quoted(key)} (fields are {', '.join(VALUE_FIELDS)}, why)")
                continue
            problem = _value_problem(value, 1 if key == "level" else 0)
            if problem:
                problems.append(f"{where}.{key}: {problem}")
                continue
            got[key] = value
        if fold(card) in values:
            problems.append(f"{where}: the card is given twice")
        values[fold(card)] = got
        names[fold(card)] = card
    extras: list[ExtraCard] = []
    raw_extras = data.get("extra_cards", [])
    if not isinstance(raw_extras, list):
        problems.append("'extra_cards' must be a list of cards")
        raw_extras = []
    for i, entry in enumerate(raw_extras):
        where = f"extra_cards[{i}]"
        if not isinstance(entry, dict):
            problems.append(f"{where}: must be an object")
            continue
        card_name = entry.get("name")
        type_ = entry.get("type")
        if not isinstance(card_name, str) or not card_name.strip():
            problems.append(f"{where}: needs a 'name'")
            continue
        where = f"extra_cards[{i}] ({card_name})"
        if not isinstance(type_, str) or type_ not in PROFILE_FIELDS:  # (a list or object: no key to look up)
            problems.append(f"{where}: 'type' must be one of {', '.join(PROFILE_FIELDS)}, not {quoted(type_)}")
            continue
        allowed = {"name", "type", "why", "land_name", *PROFILE_FIELDS[type_]}
        if type_ == "land":
            allowed.add("copies")
        for key in entry:
            if key not in allowed:
                problems.append(f"{where}: field {quoted(key)} does not apply to a {type_} card")
        vals: dict[str, Any] = {}
        for key in PROFILE_FIELDS[type_]:
            value = entry.get(key)
            problem = _value_problem(value, 1 if key == "level" else 0)
            if problem:
                problems.append(f"{where}: {quoted(key)} {problem}")
            else:
                vals[key] = value
        if type_ == "land":
            copies = entry.get("copies", 1)
            problem = _value_problem(copies, 1)
            if problem:
                problems.append(f"{where}: 'copies' {problem}")
            vals["copies"] = copies
            land_name = entry.get("land_name")
            if land_name is not None and not isinstance(land_name, str):
                problems.append(f"{where}: 'land_name' must be a text")
            vals["land_name"] = land_name
        text = entry.get("why", "")
        extras.append(ExtraCard(card_name, type_, vals, text if isinstance(text, str) else ""))
    seen: set[str] = set()
    for extra in extras:
        if fold(extra.name) in seen:
            problems.append(f"extra_cards: {quoted(extra.name)} is given twice")
        seen.add(fold(extra.name))
    if problems:
        raise ProfileProblems(origin, problems)
    summary = data.get("summary", "")
    return Profile(
        name=name,
        values=values,
        why=why,
        extras=tuple(extras),
        summary=summary if isinstance(summary, str) else "",
        origin=origin,
        names=names,
    )


# --- resolution ----------------------------------------------------------------------


@dataclass(frozen=True)
class Census:
    """A count of what the rules need and the rulebook does not give, the one way every command
    says it: single ``values`` of catalogued cards (a land's points, a class's Bravery, a card's
    copies) and ``cards`` not catalogued at all (a land the rulebook counts but does not name).
    ``uncounted``: card types whose missing cards cannot be counted yet, because their copies are
    unknown (the rulebook counts 4 OPEN cards and names 3: one card more, or a copy more?); then
    the count of cards is a least."""

    values: int
    cards: int
    uncounted: tuple[str, ...] = ()

    @property
    def total(self) -> int:
        return self.values + self.cards

    def __str__(self) -> str:
        least = "at least " if self.uncounted else ""
        return f"{counted(self.values, 'value')} and {least}{counted(self.cards, 'whole card')}"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"values": self.values, "whole_cards": self.cards}
        if self.uncounted:
            out["whole_cards_at_least"] = True
        return out


ASSUMED_CARD = "(card not in the rulebook)"
"""How ``CardPool.assumed`` marks a whole card a profile added (the rest are single values)."""


@lru_cache(maxsize=16)
def _assumed_set(assumed: tuple[str, ...]) -> frozenset[str]:
    return frozenset(assumed)


def assumed_fields(pool: CardPool, name: str, fields: Sequence[str]) -> list[str]:
    """Which of the card ``name``'s ``fields`` the assumption profile gave: ``card`` first and every
    field when it added the whole card (it has no catalog entry and no face)."""
    given = _assumed_set(pool.assumed)
    if f"{name} {ASSUMED_CARD}" in given:
        return ["card", *fields]
    return [f for f in fields if f"{name} {f}" in given]


def is_assumed(pool: CardPool, name: str, field: str) -> bool:
    """Whether the value ``field`` of the card ``name`` came from the assumption profile (so is shown
    with a ``*``), the whole card's included."""
    return bool(assumed_fields(pool, name, (field,)))


FACE_FIELDS = {"land": ("level", "points", "developed_points"), "character": ("bravery", "wits")}
"""The values a card's face shows that a pool plays, by card type (items and the rest show none)."""


def played_values(pool: CardPool, name: str) -> tuple[dict[str, int], dict[str, int]] | None:
    """The values a table playing ``pool`` gives the card ``name`` that its face shows: (those the
    catalog gave, those the assumption profile gave), so a preview shows what the table plays, the
    assumed ones marked as the table marks them; ``None`` when the pool has no such card."""
    land = next((c for c in pool.lands if c.name == name), None)
    kind: LandKind | KingdomKind | None = land or next((c for c in pool.kingdom if c.name == name), None)
    if kind is None:
        return None
    type_ = "land" if isinstance(kind, LandKind) else kind.type
    fields = FACE_FIELDS.get(type_, ())
    values = {f: getattr(kind, f) for f in fields}
    assumed = set(assumed_fields(pool, name, fields))
    return (
        {f: v for f, v in values.items() if f not in assumed},
        {f: v for f, v in values.items() if f in assumed},
    )


def assumed_census(assumed: Sequence[str]) -> Census:
    """:class:`Census` of a pool's assumed values (``CardPool.assumed``)."""
    cards = sum(1 for a in assumed if a.endswith(ASSUMED_CARD))
    return Census(len(assumed) - cards, cards)


def missing_census(cards: Sequence[MeikyuCard]) -> Census:
    """:class:`Census` of what the catalogued ``cards`` lack for a game (no profile)."""
    return resolve_pool(cards).census


@dataclass(frozen=True)
class Resolution:
    """What :func:`resolve_pool` found: a complete pool, or what is missing."""

    pool: CardPool | None
    missing: tuple[str, ...]
    """One line per card (``Bee (character): bravery, wits, copies``) or per count."""
    census: Census
    """How many values and whole cards are missing."""
    problems: tuple[str, ...]
    """Inconsistencies that no profile value fixes (e.g. more characters than the rulebook)."""

    @property
    def ok(self) -> bool:
        return self.pool is not None


def resolve_pool(cards: Sequence[MeikyuCard], profile: Profile | None = None) -> Resolution:
    """The pool of ``cards`` (the catalog's Meikyu cards), with the values the catalog lacks
    taken from ``profile``. Without a profile, every missing value is reported.

    A card's value known to the catalog always wins over the profile's. Each card type
    must add up to the rulebook's count (32 lands, 42 characters, 18 items, 4 aggression,
    4 OPEN); a profile's extra cards fill a type that falls short, in file order.
    """
    missing: list[str] = []
    missing_values = 0
    missing_cards = 0
    uncounted: list[str] = []
    problems: list[str] = []
    assumed: list[str] = []
    used_profile_cards: set[str] = set()
    lands: list[LandKind] = []
    kingdom: list[KingdomKind] = []
    complete_counts: dict[str, bool] = {t: True for t in NEEDED}
    totals: dict[str, int] = {t: 0 for t in NEEDED}
    catalogued: dict[str, list[tuple[str, int]]] = {t: [] for t in NEEDED}  # the catalog's own copies
    shared: dict[str, list[tuple[int, int]]] = {t: [] for t in NEEDED}  # (kingdom index, the profile's copies)
    profile_values = profile.values if profile else {}
    alias_keys: dict[str, str] = {}
    order = {t: i for i, t in enumerate(NEEDED)}
    cards = sorted(cards, key=lambda c: (order[str(c.type)], fold(c.name)))  # the same pool whatever the source
    for card in cards:
        for n in (card.name, *card.aliases):
            alias_keys[fold(n)] = card.name
    for card in cards:
        type_ = str(card.type)
        keys = [fold(card.name), *(fold(a) for a in card.aliases)]
        given: Mapping[str, int] = {}
        for key in keys:
            if key in profile_values:
                given = profile_values[key]
                used_profile_cards.add(key)
                break
        values: dict[str, int | None] = {}
        lacking = []
        for f in NEEDED[type_]:
            value = getattr(card, f)
            if value is None and f in given:
                value = given[f]
                assumed.append(f"{card.name} {f}")
            if value is None:
                lacking.append(f)
            values[f] = value
        copies = card.copies if type_ == "land" else values.get("copies")
        if type_ == "land" and copies is None:
            copies = 1
        elif type_ != "land" and card.copies is not None:
            catalogued[type_].append((card.name, card.copies))
        if lacking:
            missing.append(f"{card.name} ({type_}): {', '.join(lacking)}")
            missing_values += len(lacking)
            if "copies" in lacking:
                complete_counts[type_] = False
        if copies is not None:
            totals[type_] += copies
        if lacking:
            continue
        if type_ == "land":
            lands.append(
                LandKind(
                    card.name,
                    card.land_name,
                    values["level"],  # type: ignore[arg-type]
                    values["points"],  # type: ignore[arg-type]
                    values["developed_points"],  # type: ignore[arg-type]
                    land_effect(card.name, card.land_name),
                    copies or 1,
                )
            )
        else:
            if card.copies is None and copies:  # the profile's copies (none: it says the card is not in the box)
                shared[type_].append((len(kingdom), copies))  # its share of the rest
            kingdom.append(
                KingdomKind(
                    card.name,
                    type_,
                    values.get("bravery") or 0,
                    values.get("wits") or 0,
                    kingdom_effect(card.name, type_, card.aliases),
                    copies or 0,
                )
            )
    if profile is not None:
        for key in profile_values:
            if key not in used_profile_cards:
                shown = (profile.names or {}).get(key, key)
                hint = _closest(key, alias_keys)
                problems.append(
                    f"profile {quoted(profile.name)} gives values for {quoted(shown)}, "
                    "which is not a catalogued Meikyu card" + (f" (did you mean {quoted(hint)}?)" if hint else "")
                )
    # Fill each card type up to the rulebook's count with the profile's extra cards.
    for type_, rulebook in ((str(t), n) for t, n in RULEBOOK_COUNTS.items()):
        if not complete_counts[type_]:
            uncounted.append(type_)
            continue
        total = totals[type_]
        added = 0  # copies of the profile's extra cards
        if profile is not None and total < rulebook:
            for extra in profile.extras:
                if extra.type != type_ or total >= rulebook:
                    continue
                copies = extra.values.get("copies", 1)
                if total + copies > rulebook:
                    continue
                total += copies
                added += copies
                assumed.append(f"{extra.name} {ASSUMED_CARD}")
                if type_ == "land":
                    lands.append(
                        LandKind(
                            extra.name,
                            extra.values.get("land_name"),
                            extra.values["level"],
                            extra.values["points"],
                            extra.values["developed_points"],
                            land_effect(extra.name, extra.values.get("land_name")),
                            copies,
                        )
                    )
                else:
                    kingdom.append(
                        KingdomKind(
                            extra.name,
                            type_,
                            extra.values.get("bravery", 0),
                            extra.values.get("wits", 0),
                            kingdom_effect(extra.name, type_),
                            copies,
                        )
                    )
        known = sum(n for _, n in catalogued[type_])
        if total != rulebook and shared[type_] and profile is not None:
            # The profile's copies fill only what the catalog does not give: the cards without a
            # catalogued count share what the catalogued ones leave of the rulebook's total.
            rest = rulebook - known - added
            if rest < len(shared[type_]):
                problems.append(
                    f"{TYPE_LABELS[type_]}: the catalogued copies add up to {known} ({_listed(catalogued[type_])}), "
                    f"which leaves {max(rest, 0)} for the {counted(len(shared[type_]), 'card')} whose copies the "
                    f"profile {quoted(profile.name)} assumes; the rulebook says {rulebook}"
                )
                continue
            for (index, _), part in zip(shared[type_], share(rest, [w for _, w in shared[type_]]), strict=True):
                kingdom[index] = replace(kingdom[index], copies=part)
            total = rulebook
        if total < rulebook:
            gap = rulebook - total
            label = TYPE_LABELS[type_]
            missing.append(f"{label}: {gap} of the rulebook's {rulebook} not catalogued ({total} are)")
            missing_cards += gap
        elif total > rulebook:
            problems.append(
                f"{TYPE_LABELS[type_]}: the catalogued copies add up to {total} ({_listed(catalogued[type_])}); "
                f"the rulebook says {rulebook}"
            )
    census = Census(missing_values, missing_cards, tuple(uncounted))
    if missing or problems:
        return Resolution(None, tuple(missing), census, tuple(problems))
    kingdom = [k for k in kingdom if k.copies > 0]
    pool = CardPool(tuple(lands), tuple(kingdom), tuple(assumed), profile.name if profile and assumed else None)
    return Resolution(pool, (), census, ())


def share(total: int, weights: Sequence[int]) -> list[int]:
    """``total`` shared among cards in proportion to ``weights`` (a profile's copies), each at least 1
    (``total`` is at least ``len(weights)``): the whole parts first, then one more to the largest
    remainders, in order on a tie; a card left with none takes one from the largest share (the last
    on a tie). ``share(39, [2, 3, 3])`` keeps the profile's proportions as nearly as whole copies can."""
    if sum(weights) <= 0:
        weights = [1] * len(weights)
    whole = sum(weights)
    parts = [total * w // whole for w in weights]
    order = sorted(range(len(weights)), key=lambda i: (-(total * weights[i] % whole), i))
    for i in order[: total - sum(parts)]:
        parts[i] += 1
    for i, n in enumerate(parts):
        if n == 0:
            largest = max(range(len(parts)), key=lambda j: (parts[j], j))
            parts[largest] -= 1
            parts[i] = 1
    return parts


def _listed(cards: Sequence[tuple[str, int]]) -> str:
    """Catalogued counts as a refusal names them: ``Warzard 3, Bee 10``."""
    return ", ".join(f"{name} {n}" for name, n in cards) or "none"


def _closest(key: str, names: Mapping[str, str]) -> str | None:
    hits = closest(key, names, n=1)
    return hits[0] if hits else None


def assumed_summary(assumed: Sequence[str]) -> list[str]:
    """``assumed`` grouped by card: ``Bee: bravery, wits, copies``; extra cards as they are."""
    by_card: dict[str, list[str]] = {}
    extra: list[str] = []
    for item in assumed:
        if item.endswith(ASSUMED_CARD):
            extra.append(item)
            continue
        card, _, f = item.rpartition(" ")
        by_card.setdefault(card, []).append(f)
    return [f"{card}: {', '.join(fs)}" for card, fs in by_card.items()] + extra


__all__ = [
    "ASSUMED_CARD",
    "KINGDOM_TYPES",
    "LAND_EFFECTS",
    "ROOM_EFFECTS",
    "CardPool",
    "Census",
    "ExtraCard",
    "KingdomKind",
    "LandKind",
    "MeikyuCardType",
    "Profile",
    "ProfileProblems",
    "Resolution",
    "assumed_census",
    "assumed_summary",
    "missing_census",
    "parse_profile",
    "played_values",
    "resolve_pool",
]
