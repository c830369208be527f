"""Méa card abilities as data: a small declarative language and its English rendering.

An ability is one sentence of a card's text: *when* it happens (``trigger``), an
optional ``condition``, *what* happens (``effect``), to *whom* (``target``, with a
``filter`` and a ``count`` of targets) and *how much* (``amount``). A card's
abilities are a list of them, in the order of its text::

    {"trigger": "summoned", "effect": "kill", "target": "enemy_monster",
     "filter": {"defence_at_most": 4}}                       # Kill 1 enemy monster with defence 4 or less.
    {"trigger": "play", "condition": {"count": "friendly_tiles", "at_least": 5},
     "effect": "draw", "amount": 1}                          # If you control 5 or more tiles, draw 1 card.

:func:`render_card` writes abilities back as the card text they encode (the demo
set's wording), which is how the encoding of every demo card is checked.
Pure: no I/O. The catalog's Pydantic model (``cardbase.catalog.models``) uses the
literal types below, so the JSON Schema in ``schema/`` lists the same words.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

from cardbase.errors import counted, json_syntax, quoted

Trigger = Literal["play", "summoned", "killed", "turn_start", "turn_end"]
Effect = Literal[
    "draw",
    "add_tile",
    "flip_tile",
    "destroy_tile",
    "obliterate_tile",
    "kill",
    "return_to_hand",
    "take_control",
    "gain_attack",
    "gain_defence",
    "extra_attack",
    "extra_action",
]
Target = Literal[
    "you",
    "opponent",
    "self",
    "friendly_monster",
    "enemy_monster",
    "any_monster",
    "friendly_tile",
    "enemy_tile",
    "any_tile",
]
Countable = Literal["friendly_tiles", "enemy_tiles", "friendly_monsters", "enemy_monsters", "cards_in_hand"]
Until = Literal["end_of_turn"]

TRIGGERS: tuple[str, ...] = get_args(Trigger)
EFFECTS: tuple[str, ...] = get_args(Effect)
TARGETS: tuple[str, ...] = get_args(Target)
COUNTABLES: tuple[str, ...] = get_args(Countable)

# Which targets each effect takes; the first is its default.
EFFECT_TARGETS: dict[str, tuple[str, ...]] = {
    "draw": ("you", "opponent"),
    "add_tile": ("you", "opponent"),
    "flip_tile": ("enemy_tile",),
    "destroy_tile": ("enemy_tile", "friendly_tile", "any_tile"),
    "obliterate_tile": ("enemy_tile", "friendly_tile", "any_tile"),
    "kill": ("enemy_monster", "friendly_monster", "any_monster"),
    "return_to_hand": ("enemy_monster", "friendly_monster", "any_monster"),
    "take_control": ("enemy_monster",),
    "gain_attack": ("self", "friendly_monster"),
    "gain_defence": ("self", "friendly_monster"),
    "extra_attack": ("self", "friendly_monster"),
    "extra_action": ("self", "friendly_monster"),
}
MONSTER_TARGETS = frozenset({"self", "friendly_monster", "enemy_monster", "any_monster"})
TILE_TARGETS = frozenset({"friendly_tile", "enemy_tile", "any_tile"})
PLAYER_TARGETS = frozenset({"you", "opponent"})
FILTER_KEYS = ("attack_at_most", "defence_at_most", "adjacent", "empty")

TRIGGER_TEXT = {
    "play": "",
    "summoned": "When summoned",
    "killed": "When killed",
    "turn_start": "At the start of your turn",
    "turn_end": "At the end of your turn",
}


class AbilityError(ValueError):
    """An ability that is not a sentence of the language; the message names the field."""


@dataclass(frozen=True, slots=True)
class Condition:
    """``count`` of something the ability's controller has, compared with a bound."""

    count: str
    at_least: int | None = None
    at_most: int | None = None

    def holds(self, value: int) -> bool:
        return (self.at_least is None or value >= self.at_least) and (self.at_most is None or value <= self.at_most)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"count": self.count}
        if self.at_least is not None:
            out["at_least"] = self.at_least
        if self.at_most is not None:
            out["at_most"] = self.at_most
        return out


@dataclass(frozen=True, slots=True)
class TargetFilter:
    """Restrictions on a target. ``adjacent``: the target monster is on a tile, or the
    target tile is, adjacent to this monster's tile. ``empty``: a tile with no monster."""

    attack_at_most: int | None = None
    defence_at_most: int | None = None
    adjacent: bool = False
    empty: bool = False

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.attack_at_most is not None:
            out["attack_at_most"] = self.attack_at_most
        if self.defence_at_most is not None:
            out["defence_at_most"] = self.defence_at_most
        if self.adjacent:
            out["adjacent"] = True
        if self.empty:
            out["empty"] = True
        return out


NO_FILTER = TargetFilter()


@dataclass(frozen=True, slots=True)
class Ability:
    """One sentence of a card's abilities. See the module docstring for the fields."""

    trigger: str
    effect: str
    target: str
    amount: int = 1
    count: int = 1
    condition: Condition | None = None
    filter: TargetFilter = NO_FILTER
    until: str | None = None
    exhausted: bool = False

    @property
    def needs_source(self) -> bool:
        """Whether the ability refers to "this monster" (so only a monster can carry it)."""
        return self.target == "self" or self.filter.adjacent or self.trigger != "play"

    def to_dict(self) -> dict[str, Any]:
        """The ability as catalog JSON (defaults left out)."""
        out: dict[str, Any] = {"trigger": self.trigger}
        if self.condition is not None:
            out["condition"] = self.condition.to_dict()
        out["effect"] = self.effect
        if self.target != EFFECT_TARGETS[self.effect][0]:
            out["target"] = self.target
        if self.count != 1:
            out["count"] = self.count
        if self.amount != 1 or self.effect in ("draw", "add_tile", "gain_attack", "gain_defence"):
            out["amount"] = self.amount
        f = self.filter.to_dict()
        if f:
            out["filter"] = f
        if self.until is not None:
            out["until"] = self.until
        if self.exhausted:
            out["exhausted"] = True
        return out

    def text(self) -> str:
        """This ability as an English sentence (without the trigger's prefix)."""
        return _sentence(self)

    def __str__(self) -> str:
        prefix = TRIGGER_TEXT[self.trigger]
        return f"{prefix}: {self.text()}" if prefix else self.text()


# --- parsing and checking ------------------------------------------------------


def _int(value: Any, where: str, low: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise AbilityError(f"{where}: a whole number {low} or more, not {quoted(value)}")
    return value


def parse_ability(data: Mapping[str, Any], where: str = "ability") -> Ability:
    """An :class:`Ability` from its catalog JSON; raises :class:`AbilityError` naming the field."""
    if not isinstance(data, Mapping):
        raise AbilityError(f"{where}: an ability is an object with trigger and effect")
    data = {k: v for k, v in data.items() if v is not None}
    known = {"trigger", "condition", "effect", "target", "amount", "count", "filter", "until", "exhausted"}
    extra = sorted(set(data) - known)
    if extra:
        raise AbilityError(f"{where}: unknown field {quoted(extra[0])} (fields: {', '.join(sorted(known))})")
    trigger = data.get("trigger")
    if trigger not in TRIGGERS:
        raise AbilityError(f"{where}.trigger: one of {', '.join(TRIGGERS)}, not {quoted(trigger)}")
    effect = data.get("effect")
    if effect not in EFFECTS:
        raise AbilityError(f"{where}.effect: one of {', '.join(EFFECTS)}, not {quoted(effect)}")
    allowed = EFFECT_TARGETS[effect]
    target = data.get("target", allowed[0])
    if target not in allowed:
        raise AbilityError(f"{where}.target: {effect} takes {', '.join(allowed)}, not {quoted(target)}")
    amount = _int(data.get("amount", 1), f"{where}.amount", 1)
    count = _int(data.get("count", 1), f"{where}.count", 1)
    condition = None
    if data.get("condition") is not None:
        c = data["condition"]
        if not isinstance(c, Mapping) or c.get("count") not in COUNTABLES:
            raise AbilityError(f"{where}.condition.count: one of {', '.join(COUNTABLES)}")
        bad = sorted(set(c) - {"count", "at_least", "at_most"})
        if bad:
            raise AbilityError(f"{where}.condition: unknown field {quoted(bad[0])}")
        lo = None if c.get("at_least") is None else _int(c["at_least"], f"{where}.condition.at_least")
        hi = None if c.get("at_most") is None else _int(c["at_most"], f"{where}.condition.at_most")
        if lo is None and hi is None:
            raise AbilityError(f"{where}.condition: give at_least or at_most")
        condition = Condition(c["count"], lo, hi)
    flt = NO_FILTER
    if data.get("filter") is not None:
        f = data["filter"]
        if not isinstance(f, Mapping):
            raise AbilityError(f"{where}.filter: an object")
        bad = sorted(set(f) - set(FILTER_KEYS))
        if bad:
            raise AbilityError(f"{where}.filter: unknown field {quoted(bad[0])} (fields: {', '.join(FILTER_KEYS)})")
        atk = None if f.get("attack_at_most") is None else _int(f["attack_at_most"], f"{where}.filter.attack_at_most")
        dfn = (
            None if f.get("defence_at_most") is None else _int(f["defence_at_most"], f"{where}.filter.defence_at_most")
        )
        adjacent, empty = f.get("adjacent", False), f.get("empty", False)
        if not isinstance(adjacent, bool) or not isinstance(empty, bool):
            raise AbilityError(f"{where}.filter: adjacent and empty are true or false")
        if (atk is not None or dfn is not None) and target not in MONSTER_TARGETS:
            raise AbilityError(f"{where}.filter: attack/defence limits are for monster targets")
        if empty and target not in TILE_TARGETS:
            raise AbilityError(f"{where}.filter.empty: for tile targets")
        if adjacent and target not in MONSTER_TARGETS | TILE_TARGETS:
            raise AbilityError(f"{where}.filter.adjacent: for monster or tile targets")
        flt = TargetFilter(atk, dfn, adjacent, empty)
    until = data.get("until")
    if until is not None and (until != "end_of_turn" or effect not in ("gain_attack", "gain_defence")):
        raise AbilityError(f'{where}.until: only "end_of_turn", and only for gain_attack or gain_defence')
    exhausted = data.get("exhausted", False)
    if not isinstance(exhausted, bool) or (exhausted and effect != "take_control"):
        raise AbilityError(f"{where}.exhausted: true or false, and only for take_control")
    return Ability(trigger, effect, target, amount, count, condition, flt, until, exhausted)


def parse_abilities(data: Any, card_type: str = "monster", where: str = "abilities") -> tuple[Ability, ...]:
    """A card's abilities from catalog JSON (a list); checks that each suits the card type."""
    if isinstance(data, str):
        import json

        try:
            data = json.loads(data)
        except json.JSONDecodeError as error:
            raise AbilityError(f"{where}: not JSON: {json_syntax(error)}") from None
    if not isinstance(data, Sequence) or isinstance(data, str):
        raise AbilityError(f"{where}: a list of abilities")
    out = []
    for i, item in enumerate(data):
        ability = parse_ability(item, f"{where}[{i}]")
        if card_type == "assist":
            if ability.trigger != "play":
                raise AbilityError(f"{where}[{i}].trigger: an assist's abilities happen when it is played (play)")
            if ability.needs_source:
                raise AbilityError(f'{where}[{i}]: an assist has no "this monster" (target self, filter adjacent)')
        elif card_type == "monster" and ability.trigger == "play":
            raise AbilityError(f"{where}[{i}].trigger: a monster's trigger is summoned, killed, turn_start or turn_end")
        out.append(ability)
    return tuple(out)


def abilities_to_json(abilities: Iterable[Ability] | None) -> list[dict[str, Any]] | None:
    """Abilities as catalog JSON; ``None`` stays ``None`` (not expressed)."""
    return None if abilities is None else [a.to_dict() for a in abilities]


# --- English -----------------------------------------------------------------


def _n(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else plural or word + 's'}"


def _monsters(a: Ability) -> str:
    side = {"friendly_monster": "friendly ", "enemy_monster": "enemy ", "any_monster": ""}[a.target]
    text = f"{a.count} {side}{'monster' if a.count == 1 else 'monsters'}"
    f = a.filter
    if f.attack_at_most is not None:
        text += f" with attack {f.attack_at_most} or less"
    if f.defence_at_most is not None:
        text += f" with defence {f.defence_at_most} or less"
    if f.adjacent:
        text += " on an adjacent tile"
    return text


def _tiles(a: Ability, empty_word: bool) -> str:
    side = {"friendly_tile": "friendly ", "enemy_tile": "enemy ", "any_tile": ""}[a.target]
    empty = "empty " if empty_word or (a.filter.empty and a.effect != "flip_tile") else ""
    text = f"{a.count} {empty}{side}{'tile' if a.count == 1 else 'tiles'}"
    if a.filter.adjacent:
        text += " adjacent to this monster"
    if a.filter.empty and a.effect == "flip_tile":
        text += " with no monster on it" if a.count == 1 else " with no monster on them"
    return text


def _subject(a: Ability) -> str:
    return "this monster" if a.target == "self" else _monsters(a)


def _sentence(a: Ability) -> str:
    e = a.effect
    if e == "draw":
        body = f"draw {_n(a.amount, 'card')}" if a.target == "you" else f"your opponent draws {_n(a.amount, 'card')}"
    elif e == "add_tile":
        who = "you" if a.target == "you" else "your opponent"
        body = f"add {_n(a.amount, 'tile')} for {who}"
    elif e == "flip_tile":
        body = f"flip {_tiles(a, False)}"
    elif e == "destroy_tile":
        body = f"destroy {_tiles(a, True)}"
    elif e == "obliterate_tile":
        body = f"obliterate {_tiles(a, False)}"
    elif e == "kill":
        body = f"kill {_monsters(a)}"
    elif e == "return_to_hand":
        body = f"return {_monsters(a)} to {'its' if a.count == 1 else 'their'} owner's hand"
    elif e == "take_control":
        body = f"take control of {_monsters(a)}"
        if a.exhausted:
            body += ". It cannot move or attack this turn" if a.count == 1 else ". They cannot move or attack this turn"
    elif e in ("gain_attack", "gain_defence"):
        stat = "attack" if e == "gain_attack" else "defence"
        until = " until the end of your turn" if a.until else ""
        if a.target == "self":
            body = f"this monster gets +{a.amount} {stat}{until}"
        else:
            body = f"give {_monsters(a)} +{a.amount} {stat}{until}"
    elif e == "extra_attack":
        times = {1: "twice", 2: "three times"}.get(a.amount, f"{counted(a.amount + 1, 'time')}")
        body = f"{_subject(a)} may attack {times} this turn"
    else:  # extra_action
        again = "again" if a.amount == 1 else f"{a.amount} more times"
        body = f"{_subject(a)} may move or attack {again} this turn"
    if a.condition is not None:
        body = f"{_condition(a.condition)}, {body}"
    return body[0].upper() + body[1:] + "."


def _condition(c: Condition) -> str:
    what = {
        "friendly_tiles": ("you control", "tiles"),
        "enemy_tiles": ("your opponent controls", "tiles"),
        "friendly_monsters": ("you control", "monsters"),
        "enemy_monsters": ("your opponent controls", "monsters"),
        "cards_in_hand": ("you have", "cards in your hand"),
    }[c.count]
    if c.at_least is not None and c.at_most is None:
        bound = f"{c.at_least} or more"
    elif c.at_most is not None and c.at_least is None:
        bound = f"{c.at_most} or fewer"
    else:
        bound = f"{c.at_least} to {c.at_most}"
    return f"if {what[0]} {bound} {what[1]}"


def render_card(abilities: Sequence[Ability]) -> str:
    """The card text ``abilities`` encode: consecutive abilities with the same trigger
    share its prefix (``When summoned: Add 1 tile for you. Draw 1 card.``)."""
    parts: list[str] = []
    last: str | None = None
    for a in abilities:
        prefix = TRIGGER_TEXT[a.trigger]
        if a.trigger != last and prefix:
            parts.append(f"{prefix}: {a.text()}")
        else:
            parts.append(a.text())
        last = a.trigger
    return " ".join(parts)
