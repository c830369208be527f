"""Méa's rules engine: the tile board, decks and hands, summons, combat, flips, abilities.

Implements the engine protocol of :mod:`cardbase.games.base`. Every rule comes from
the rulebook (*Méa: The Tiled Kingdom — How to Play*); where the rulebook is silent or ambiguous the reading
is documented in ``docs/rules/mea.md`` and, where it matters, is an option of
:class:`MeaRules`.

A game is two decks (seat 0 goes first and is yellow, seat 1 is blue), a seeded
shuffle (the chance action :class:`Shuffle`), each player's opening draw, then
turns: count mana, optionally flip one enemy tile your monster stands on, resolve
start-of-turn abilities, then summon, play assists, move and attack in any order,
and end the turn by drawing (or, with an empty deck, obliterating one of your
tiles). Card abilities are data (:mod:`cardbase.games.mea.abilities`) resolved by
the interpreter below; a target chosen among several is a decision of its own
(:class:`Choose`), made by the player the rules name.

Cards are instances numbered 0 … N-1 (seat 0's deck list, then seat 1's); their
per-game values (zone, controller, tile, attack, defence, actions left) are kept
in flat lists so that :meth:`MeaState.clone` and the fast path are cheap.

Code outside this module reads a state through :class:`MeaState`'s public methods (and, where it
reads the whole board often, the live views :attr:`MeaState.tables`, :attr:`MeaState.zones` and
:meth:`MeaState.board_view`), and sets one up with :meth:`MeaState.position` and the set-up methods
(:meth:`MeaState.place_card`, ``set_tile``, ``set_monster``, ``arrange``, ``set_main_phase``);
``docs/rules/mea.md`` lists them. The ``_`` names are the engine's.

Why one file of about 3,400 lines: its sections (actions and notation; decks, tables and rules;
the state; the lazy lists of legal actions; the observation) are marked below, and the state —
about 1,900 lines of them — is one class because the ability interpreter, combat and move
generation share its flat lists and caches. Meikyu's and Meio's engines were split into one module
per section in December 2026 (``cardbase.games.meikyu.codes`` … ``observation``); the same split
of this file is the next step, not yet taken: its actions, rules and observation would leave the
state and its action lists (about 2,300 lines) here.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import cache, lru_cache
from operator import countOf, itemgetter
from typing import Any, ClassVar, NamedTuple, Self, cast

from cardbase.errors import quoted
from cardbase.fuzzy import AmbiguousName, match
from cardbase.games.base import (
    CHANCE,
    SPECTATOR,
    TERMINAL,
    IllegalAction,
    InvalidAction,
    InvalidRules,
    Outcome,
    Rules,
    State,
    check_card_name,
    check_notation,
    whole_number,
)
from cardbase.games.mea import board as B
from cardbase.games.mea.abilities import Ability, AbilityError, abilities_to_json, parse_abilities
from cardbase.games.mea.cards import DECK_MAX, TILES_PER_PLAYER, MeaCard, MeaCardType
from cardbase.names import fold

HAND_LIMIT = 11
"""Holding this many cards loses the game at once."""
MANA_MINIMUM = 3
SECOND_PLAYER_BONUS_TURNS = 3
MAX_PER_TILE = 2
MAX_OPTION_NUMBER = 10_000
"""Bound of every whole-number rules option (turn limits, tile caps): past it a game is a typo, not a variant."""

# Zones of a card.
DECK, HAND, BOARD, OUT, UNKNOWN = 0, 1, 2, 3, 4
ZONE_NAMES = ("deck", "hand", "board", "out of play", "unknown")

# Phases.
_SHUFFLE, _OPENING, _FLIP, _MAIN, _CHOICE, _OVER = range(6)
PHASE_NAMES = ("shuffle", "opening", "flip", "main", "choice", "over")

# How a game ended (Outcome.reason is the sentence; these are stable codes).
END_NO_TILES = "no-tiles"
END_HAND = "hand-of-11"
END_DECK_OUT = "deck-out"
END_TURN_LIMIT = "turn-limit"

SEAT_NAMES = ("P1", "P2")


def seat_name(seat: int) -> str:
    return SEAT_NAMES[seat]


# --- actions -----------------------------------------------------------------


class Ref(tuple[str, int, int]):
    """A monster on the board, by name and tile: ``Crumb Goblin@b2``; ``#2`` picks the
    second monster of that name on the tile when two are there."""

    __slots__ = ()

    def __new__(cls, name: str, pos: int, nth: int = 0) -> Ref:
        return tuple.__new__(cls, (name, pos, nth))

    @property
    def name(self) -> str:
        return self[0]

    @property
    def pos(self) -> int:
        return self[1]

    @property
    def nth(self) -> int:
        return self[2]

    def __str__(self) -> str:
        suffix = f"#{self[2]}" if self[2] else ""
        return f"{self[0]}@{B.name(self[1])}{suffix}"

    def __repr__(self) -> str:
        return f"Ref({str(self)!r})"

    def __reduce__(self) -> tuple[type[Ref], tuple[str, int, int]]:
        return (Ref, (self[0], self[1], self[2]))  # pickled as made (tuple's own way calls __new__ with one tuple)

    @classmethod
    def parse(cls, text: str) -> Ref:
        t = text.strip()
        if "@" not in t:
            raise InvalidAction(f"not a monster: {quoted(text)} (write Name@tile, e.g. Crumb Goblin@b2)")
        name, _, where = t.rpartition("@")
        nth = 0
        if "#" in where:
            where, _, k = where.partition("#")
            number = whole_number(k, MOST)
            if not number:
                raise InvalidAction(f"not a monster: {quoted(text)} (#k counts from 1)")
            nth = number
        try:
            p = B.parse(where)
        except ValueError as error:
            raise InvalidAction(str(error)) from None
        if not name.strip():
            raise InvalidAction(f"not a monster: {quoted(text)} (a name goes before @)")
        return cls(check_card_name(" ".join(name.split())), p, nth)


_REF_ORDER = itemgetter(1, 0, 2)
"""Refs in board order: tile, then name, then ``#k``."""


class _Action(tuple[Any, ...]):
    """Base of Méa's actions: immutable tuples whose first item names the kind.

    The properties type their item through an annotated local (``k: int = self[1]``), which costs
    nothing at run time, unlike ``typing.cast``."""

    __slots__ = ()
    kind: ClassVar[str] = ""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r})"

    def __reduce__(self) -> tuple[type[_Action], tuple[Any, ...]]:
        return (type(self), tuple(self[1:]))  # pickled as made: the arguments after the kind


class Draw(_Action):
    """Draw ``k`` cards: the opening draw, or the end of a turn (``draw 2``)."""

    __slots__ = ()
    kind = "draw"

    def __new__(cls, k: int) -> Draw:
        return tuple.__new__(cls, ("draw", k))

    @property
    def k(self) -> int:
        k: int = self[1]
        return k

    def __str__(self) -> str:
        return f"draw {self[1]}"


class Summon(_Action):
    """Summon a monster from your hand onto a tile: ``summon Crumb Goblin b2``."""

    __slots__ = ()
    kind = "summon"

    def __new__(cls, card: str, pos: int) -> Summon:
        return tuple.__new__(cls, ("summon", card, pos))

    @property
    def card(self) -> str:
        card: str = self[1]
        return card

    @property
    def pos(self) -> int:
        pos: int = self[2]
        return pos

    def __str__(self) -> str:
        return f"summon {self[1]} {B.name(self[2])}"


class Play(_Action):
    """Play an assist from your hand: ``play Pep Talk``."""

    __slots__ = ()
    kind = "play"

    def __new__(cls, card: str) -> Play:
        return tuple.__new__(cls, ("play", card))

    @property
    def card(self) -> str:
        card: str = self[1]
        return card

    def __str__(self) -> str:
        return f"play {self[1]}"


class Move(_Action):
    """Move a monster to an adjacent tile: ``move Crumb Goblin@b1 b2``."""

    __slots__ = ()
    kind = "move"

    def __new__(cls, ref: Ref, dst: int) -> Move:
        return tuple.__new__(cls, ("move", ref, dst))

    @property
    def ref(self) -> Ref:
        ref: Ref = self[1]
        return ref

    @property
    def dst(self) -> int:
        dst: int = self[2]
        return dst

    def __str__(self) -> str:
        return f"move {self[1]} {B.name(self[2])}"


class Attack(_Action):
    """Attack every enemy monster on a tile with one or two monsters:
    ``attack b2 with Crumb Goblin@a2 + Puddle Knight@b1``.

    The attackers keep the order given: under ``move_in="first"`` the first is the one that moves
    in. Under ``move_in="all"`` the order does not matter and the rules write them in board order
    (:meth:`in_board_order`), so that one attack is one action."""

    __slots__ = ()
    kind = "attack"

    def __new__(cls, target: int, refs: Iterable[Ref]) -> Attack:
        return tuple.__new__(cls, ("attack", target, tuple(refs)))

    def in_board_order(self) -> Attack:
        """This attack with its attackers in board order (tile, then name, then ``#k``)."""
        refs: tuple[Ref, ...] = self[2]
        if len(refs) < 2 or _REF_ORDER(refs[0]) <= _REF_ORDER(refs[1]):
            return self
        return Attack(self[1], sorted(refs, key=_REF_ORDER))

    @property
    def target(self) -> int:
        target: int = self[1]
        return target

    @property
    def refs(self) -> tuple[Ref, ...]:
        refs: tuple[Ref, ...] = self[2]
        return refs

    def __str__(self) -> str:
        return f"attack {B.name(self[1])} with " + " + ".join(str(r) for r in self[2])


NONE_POS = -1


class Flip(_Action):
    """At the start of your turn: flip one enemy tile a monster of yours is on
    (``flip b2``), or not (``flip none``)."""

    __slots__ = ()
    kind = "flip"

    def __new__(cls, pos: int = NONE_POS) -> Flip:
        return tuple.__new__(cls, ("flip", pos))

    @property
    def pos(self) -> int:
        pos: int = self[1]
        return pos

    def __str__(self) -> str:
        return "flip none" if self[1] == NONE_POS else f"flip {B.name(self[1])}"


class Obliterate(_Action):
    """End your turn with an empty deck: obliterate one of your tiles (``obliterate b2``);
    ``obliterate none`` when you have no tile left (you lose)."""

    __slots__ = ()
    kind = "obliterate"

    def __new__(cls, pos: int = NONE_POS) -> Obliterate:
        return tuple.__new__(cls, ("obliterate", pos))

    @property
    def pos(self) -> int:
        pos: int = self[1]
        return pos

    def __str__(self) -> str:
        return "obliterate none" if self[1] == NONE_POS else f"obliterate {B.name(self[1])}"


class Choose(_Action):
    """Choose a target, a tile (``choose c2``) or a monster (``choose Crumb Goblin@b2``), for
    the ability being resolved, or where a displaced monster goes."""

    __slots__ = ()
    kind = "choose"

    def __new__(cls, target: int | Ref) -> Choose:
        return tuple.__new__(cls, ("choose", target))

    @property
    def target(self) -> int | Ref:
        target: int | Ref = self[1]
        return target

    def __str__(self) -> str:
        t = self[1]
        return f"choose {t}" if isinstance(t, Ref) else f"choose {B.name(t)}"


class Shuffle(_Action):
    """The chance action that starts a game: each deck's order, top card first, as
    positions in its deck list (``shuffle 3 0 2 1 / 1 0 …``)."""

    __slots__ = ()
    kind = "shuffle"

    def __new__(cls, orders: Iterable[Iterable[int]]) -> Shuffle:
        return tuple.__new__(cls, ("shuffle", tuple(tuple(o) for o in orders)))

    @property
    def orders(self) -> tuple[tuple[int, ...], ...]:
        orders: tuple[tuple[int, ...], ...] = self[1]
        return orders

    def __str__(self) -> str:
        return "shuffle " + " / ".join(" ".join(str(i) for i in o) for o in self[1])


MeaAction = Draw | Summon | Play | Move | Attack | Flip | Obliterate | Choose | Shuffle
# Actions are immutable values: the engine makes the common ones once and shares them.
_summon = lru_cache(maxsize=1 << 16)(Summon)
_flip = cache(Flip)
_choose_tile = cache(Choose)
_DRAWS: tuple[Draw, ...] = tuple(Draw(k) for k in range(2 * DECK_MAX + 1))
_DRAW_RANGES: tuple[tuple[Draw, ...], ...] = tuple(_DRAWS[1 : k + 1] for k in range(len(_DRAWS)))
"""``_DRAW_RANGES[k]``: draw 1 … draw k."""

MOST = 10**9
"""The largest number an action's notation is read with (a draw, a shuffle's positions, ``#k``);
any of them is far smaller in a game."""

_NOTATION_HELP = (
    "write: draw 2, summon <card> b2, play <card>, move <card>@b1 b2, attack b2 with <card>@a2 [+ <card>@b1], "
    "flip b2 / flip none, obliterate b2, choose b2 / choose <card>@b2"
)


def _tile(text: str) -> int:
    try:
        return B.parse(text)
    except ValueError as error:
        raise InvalidAction(str(error)) from None


def parse_action(text: str) -> MeaAction:
    """Parse an action's notation (see :data:`_NOTATION_HELP`); raises :class:`InvalidAction`."""
    t = " ".join(check_notation(text).split())
    verb, _, rest = t.partition(" ")
    verb = verb.lower()
    if verb == "draw":
        count = whole_number(rest, MOST)
        if count is None:
            raise InvalidAction(f"not an action: {quoted(text)} (write: draw 2)")
        return Draw(count)
    if verb == "summon":
        card, _, where = rest.rpartition(" ")
        if not card:
            raise InvalidAction(f"not an action: {quoted(text)} (write: summon <card> b2)")
        return Summon(check_card_name(card), _tile(where))
    if verb == "play":
        if not rest:
            raise InvalidAction(f"not an action: {quoted(text)} (write: play <card>)")
        return Play(check_card_name(rest))
    if verb == "move":
        ref, _, where = rest.rpartition(" ")
        if not ref:
            raise InvalidAction(f"not an action: {quoted(text)} (write: move <card>@b1 b2)")
        return Move(Ref.parse(ref), _tile(where))
    if verb == "attack":
        where, sep, attackers = rest.partition(" with ")
        if not sep or not attackers:
            raise InvalidAction(f"not an action: {quoted(text)} (write: attack b2 with <card>@a2 [+ <card>@b1])")
        return Attack(_tile(where), [Ref.parse(r) for r in attackers.split(" + ")])
    if verb in ("flip", "obliterate"):
        cls = Flip if verb == "flip" else Obliterate
        if rest.lower() == "none":
            return cls(NONE_POS)
        return cls(_tile(rest))
    if verb == "choose":
        if "@" in rest:
            return Choose(Ref.parse(rest))
        return Choose(_tile(rest))
    if verb == "shuffle":
        orders = []
        parts = rest.split("/", 2)
        if len(parts) > 2:  # one order per player's deck, two players
            raise InvalidAction(
                f"not an action: {quoted(text)} (a shuffle gives two orders: shuffle 3 0 1 … / 2 1 0 …)"
            )
        for part in parts:
            items = [whole_number(i, MOST) for i in part.split()]
            if None in items:
                raise InvalidAction(f"not an action: {quoted(text)} (write: shuffle 3 0 1 … / 2 1 0 …)")
            orders.append(tuple(cast(list[int], items)))
        return Shuffle(orders)
    raise InvalidAction(f"not a Méa action: {quoted(text)} ({_NOTATION_HELP})")


def _ab_item(ab: Ability, seat: int, source: int, where: int) -> tuple[Any, ...]:
    """A queued ability: ("ab", ability, controller, source card, its tile, steps left, targets done)."""
    return ("ab", ab, seat, source, where, ab.amount if ab.effect == "add_tile" else ab.count, ())


# --- decks and rules -----------------------------------------------------------


@dataclass(frozen=True)
class MeaDeck:
    """A deck for the engine: distinct cards with their counts, in list order."""

    name: str
    cards: tuple[tuple[MeaCard, int], ...]

    @property
    def size(self) -> int:
        return sum(n for _, n in self.cards)

    def expanded(self) -> list[MeaCard]:
        return [card for card, n in self.cards for _ in range(n)]

    @property
    def unexpressed(self) -> tuple[str, ...]:
        """Names of the cards whose abilities are not expressed (they play as bare stats)."""
        return tuple(c.name for c, _ in self.cards if c.unexpressed)

    @property
    def demo_cards(self) -> int:
        return sum(n for c, n in self.cards if c.is_demo)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "cards": [{"count": n, **card_to_dict(c)} for c, n in self.cards]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str = "deck") -> MeaDeck:
        if not isinstance(data, Mapping) or not isinstance(data.get("cards"), list):
            raise InvalidRules(f"{where}: a deck is {{'name': …, 'cards': [{{'count': 3, 'name': …}}, …]}}")
        out = []
        for i, item in enumerate(data["cards"]):
            if not isinstance(item, Mapping):
                raise InvalidRules(f"{where}.cards[{i}]: a card is an object")
            count = item.get("count", 1)
            if not isinstance(count, int) or isinstance(count, bool) or count < 1:
                raise InvalidRules(f"{where}.cards[{i}].count: a whole number 1 or more")
            out.append((card_from_dict(item, f"{where}.cards[{i}]"), count))
        return cls(str(data.get("name") or ""), tuple(out))


def card_to_dict(card: MeaCard) -> dict[str, Any]:
    """What a game record keeps of a card: enough to play it again."""
    out: dict[str, Any] = {"name": card.name, "type": str(card.type), "cost": card.cost}
    if card.type is MeaCardType.MONSTER:
        out["attack"] = card.attack
        out["defence"] = card.defence
    out["text"] = card.text
    out["abilities"] = abilities_to_json(card.abilities)
    out["set"] = card.set
    out["source"] = card.source
    return out


def card_from_dict(data: Mapping[str, Any], where: str = "card") -> MeaCard:
    try:
        type_ = MeaCardType(str(data.get("type")))
    except ValueError:
        raise InvalidRules(f"{where}.type: monster or assist, not {quoted(data.get('type'))}") from None
    abilities = data.get("abilities")
    try:
        parsed = None if abilities is None else parse_abilities(abilities, str(type_), f"{where}.abilities")
    except AbilityError as error:
        raise InvalidRules(str(error)) from None
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise InvalidRules(f"{where}.name: the card's name")
    values: dict[str, int | None] = {}
    for stat in ("cost", "attack", "defence"):
        v = data.get(stat)
        if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v < 0):
            raise InvalidRules(f"{where}.{stat}: a whole number 0 or more, or null (unknown)")
        values[stat] = v
    text = data.get("text")
    return MeaCard(
        name=name,
        type=type_,
        set=str(data.get("set") or "core"),
        source=str(data.get("source") or "rulebook"),
        text=text if isinstance(text, str) else None,
        abilities=parsed,
        cost=values["cost"],
        attack=values["attack"],
        defence=values["defence"],
    )


def game_card(card: MeaCard) -> MeaCard:
    """``card`` with only what a game needs (and a record keeps): no flavour, notes or aliases."""
    if card.description is None and card.copies is None and not card.aliases and card.notes is None:
        return card
    return replace(card, description=None, copies=None, aliases=(), notes=None)


@dataclass(frozen=True, slots=True)
class MeaTables:
    """Per-rules constant tables, by card instance."""

    cards: tuple[MeaCard, ...]
    owner: tuple[int, ...]
    offset: tuple[int, int]
    names: tuple[str, ...]
    cost: tuple[int, ...]
    attack: tuple[int, ...]
    defence: tuple[int, ...]
    monster: tuple[bool, ...]
    triggers: tuple[dict[str, tuple[Ability, ...]], ...]
    turn_start: tuple[tuple[Ability, ...], ...]
    summoned: tuple[tuple[Ability, ...], ...]
    turn_end: tuple[tuple[Ability, ...], ...]
    turn_start_cards: tuple[int, ...]
    """The instances with an At the start of your turn ability (likewise ``turn_end_cards``)."""
    turn_end_cards: tuple[int, ...]
    canonical: dict[str, str]
    start_tiles: dict[int, int]
    dirs: tuple[int, ...]
    attack_all: bool
    """``attack_rule == "all"``."""
    list_losing_draws: bool
    move_onto_enemy: bool
    """``move_onto_enemy == "allowed"``."""
    tile_total_filters: bool
    """``tile_attack == "filters"``."""
    colour_cap: int
    """``tiles_per_colour`` (0: no cap)."""
    obliterate_kills: bool
    """``obliterated == "killed"``."""
    first_moves_in: bool
    """``move_in == "first"``: an attack's order of attackers is part of it."""
    killed_first: bool
    """``elimination_killed == "resolved"``."""
    displaced_to_controller: bool
    """``displaced_to == "controller"``."""
    cells: tuple[int, ...]
    """With ``board_size``: the positions of the square the tiles stay in, in board order (a
    position's cell is its index here); else empty."""
    cell_of: dict[int, int]
    """Position → cell, for the positions of :attr:`cells`."""


@dataclass(frozen=True, slots=True)
class _Ids:
    """The integer ids of Méa's actions: where each kind's block starts, and the tables that
    number names, cells and directions. Blocks, in order: ``draw`` (k - 1), ``summon`` (monster
    name × cell), ``play`` (assist name), ``move`` ((cell × 2 + place) × direction), ``attack``
    (target cell × (2·directions)², the attackers coded as direction × 2 + place, from the target:
    one attacker x is (x, x), two are (x, y), in the action's order under ``move_in="first"``,
    else the lower code first), ``flip`` and ``obliterate`` (cell, then none), ``choose_tile``
    (cell), ``choose_monster`` (cell × 2 + place)."""

    cells: int
    dirs: tuple[int, ...]
    dir_index: dict[int, int]
    names: tuple[str, ...]
    """The decks' distinct card names: monsters, then assists."""
    monsters: int
    name_index: dict[str, int]
    draw: int
    summon: int
    play: int
    move: int
    attack: int
    flip: int
    obliterate: int
    choose_tile: int
    choose_monster: int
    total: int

    @classmethod
    def of(cls, tab: MeaTables, deck_max: int) -> _Ids:
        monsters = tuple(dict.fromkeys(n for n, m in zip(tab.names, tab.monster, strict=True) if m))
        assists = tuple(dict.fromkeys(n for n, m in zip(tab.names, tab.monster, strict=True) if not m))
        names = monsters + assists
        n, d = len(tab.cells), len(tab.dirs)
        sizes = [deck_max, len(monsters) * n, len(assists), n * 2 * d, n * (2 * d) ** 2, n + 1, n + 1, n, 2 * n]
        starts = [sum(sizes[:k]) for k in range(len(sizes) + 1)]
        return cls(
            cells=n,
            dirs=tab.dirs,
            dir_index={x: k for k, x in enumerate(tab.dirs)},
            names=names,
            monsters=len(monsters),
            name_index={x: k for k, x in enumerate(names)},
            draw=starts[0],
            summon=starts[1],
            play=starts[2],
            move=starts[3],
            attack=starts[4],
            flip=starts[5],
            obliterate=starts[6],
            choose_tile=starts[7],
            choose_monster=starts[8],
            total=starts[9],
        )


@dataclass(frozen=True)
class MeaRules(Rules):
    """Méa for two players, with the readings the rulebook leaves open as options.

    ``decks``: seat 0's deck (goes first, yellow) and seat 1's (blue).
    ``layout``: the starting tiles, a name (``checkerboard``, ``sides``) or a grid
    like ``BYB/YBY/BYB`` (top row first; see :func:`cardbase.games.mea.board.parse_layout`).
    ``adjacency``: ``orthogonal`` or ``diagonal`` (the 8 surrounding positions).
    ``attack_rule``: an attack is allowed if it can kill ``one`` of the enemy monsters
    on the tile (each monster with defence ≤ the attack dies), or only if it kills ``all``.
    ``move_in``: after a kill that empties the tile, ``all`` surviving attackers move in,
    or only the ``first`` of them in the action's order (``attack b2 with A@a2 + B@b1``: A
    moves in; both orders are legal actions).
    ``elimination``: a player who controls no tile loses ``immediate``-ly, or at the
    ``turn-start`` (after the start-of-turn flip).
    ``mana_count``: mana is counted at ``turn-start`` (before the flip) or ``after-flip``.
    ``mana_minimum`` (3), ``second_player_bonus`` (+1) on the second player's first
    ``bonus_turns`` (3) turns. ``tile_supply``: the most tiles on the board at once
    (18, both players' 9; 0 for no limit). ``max_turns``: a game that reaches it ends
    with the player controlling more tiles winning (a tie is shared). ``list_losing_draws``:
    also list draws that reach 11 cards (legal, but lose at once) among the legal actions.
    ``tile_attack``: the tile's total attack on the opponent's turn ("REMEMBER …") counts for
    ``retaliation`` only, or for ability ``filters`` (``attack 2 or less``) too.
    ``move_onto_enemy``: moving onto a tile with an enemy monster is ``refused`` or
    ``allowed`` (they share it; the start-of-turn flip then displaces the enemy).
    ``tiles_per_colour``: the most tiles a player may control at once (9: the tiles each
    brought; 0 for no cap); a flip or an add beyond it does not happen. ``obliterated``:
    monsters on an obliterated tile are ``removed``, or ``killed`` (When killed triggers).
    ``elimination_killed``: when a death leaves a player without tiles (``immediate``
    elimination), the game ends at once and the dead monsters' When killed abilities are
    ``skipped``, or they are ``resolved`` first and the game ends only if the player still has
    no tile. ``displaced_to``: a monster displaced from a flipped tile with nowhere to go returns
    to its ``owner``'s hand (whoever controls it), or to its ``controller``'s (a monster taken
    by "Take control" then stays with the player who took it). ``board_size``: the tiles stay
    within a square of that many tiles a side around the starting grid (an add outside it has no
    place, as beyond the tile supply); 0 (the default) for the engine's whole board, 128 a side.
    The integer ids and tensors (:meth:`num_distinct_actions`) need a square: they number its
    cells.
    """

    game_id: ClassVar[str] = "mea"
    title: ClassVar[str] = "Méa"

    decks: tuple[MeaDeck, MeaDeck] = field(default=(MeaDeck("", ()), MeaDeck("", ())))
    layout: str = "checkerboard"
    adjacency: str = B.ORTHOGONAL
    attack_rule: str = "one"
    move_in: str = "all"
    elimination: str = "immediate"
    mana_count: str = "turn-start"
    mana_minimum: int = MANA_MINIMUM
    second_player_bonus: int = 1
    bonus_turns: int = SECOND_PLAYER_BONUS_TURNS
    tile_supply: int = 2 * TILES_PER_PLAYER
    max_turns: int = 200
    list_losing_draws: bool = False
    tile_attack: str = "retaliation"
    move_onto_enemy: str = "refused"
    tiles_per_colour: int = 0
    obliterated: str = "removed"
    elimination_killed: str = "skipped"
    displaced_to: str = "owner"
    board_size: int = 0

    _CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {
        "adjacency": (B.ORTHOGONAL, B.DIAGONAL),
        "attack_rule": ("one", "all"),
        "move_in": ("all", "first"),
        "elimination": ("immediate", "turn-start"),
        "mana_count": ("turn-start", "after-flip"),
        "tile_attack": ("retaliation", "filters"),
        "move_onto_enemy": ("refused", "allowed"),
        "obliterated": ("removed", "killed"),
        "elimination_killed": ("skipped", "resolved"),
        "displaced_to": ("owner", "controller"),
    }

    def __post_init__(self) -> None:
        if not isinstance(self.decks, tuple) or len(self.decks) != 2:
            raise InvalidRules("Méa is for 2 players: give exactly two decks")
        decks = tuple(MeaDeck(d.name, tuple((game_card(c), n) for c, n in d.cards)) for d in self.decks)
        object.__setattr__(self, "decks", decks)  # so that to_options/from_options round-trip
        for f in fields(self):
            if f.name == "decks":
                continue
            value = getattr(self, f.name)
            want = {"bool": bool, "int": int, "str": str}[str(f.type)]
            if type(value) is not want:
                raise InvalidRules(f"Méa option {f.name} must be {want.__name__}, not {quoted(value)}")
            if f.name in self._CHOICES and value not in self._CHOICES[f.name]:
                raise InvalidRules(
                    f"Méa option {f.name} is one of {', '.join(self._CHOICES[f.name])}, not {quoted(value)}"
                )
            if isinstance(value, int) and not 0 <= value <= MAX_OPTION_NUMBER:
                raise InvalidRules(f"Méa option {f.name} must be from 0 to {MAX_OPTION_NUMBER:,}, not {value}")
        if self.max_turns < 1:
            raise InvalidRules("max_turns must be at least 1")
        try:
            start = B.parse_layout(self.layout)
        except ValueError as error:
            raise InvalidRules(str(error)) from None
        if self.board_size:
            width, height = B.extent(start)
            if self.board_size > 2 * B.BOUND or self.board_size < max(width, height):
                raise InvalidRules(
                    f"board_size must hold the {width}×{height} starting layout and be at most {2 * B.BOUND}, "
                    f"not {self.board_size}"
                )
        if self.tile_supply and len(start) > self.tile_supply:
            raise InvalidRules(f"the layout has {len(start)} tiles, more than tile_supply {self.tile_supply}")
        for seat in (0, 1):
            held = countOf(start.values(), seat)
            if self.tiles_per_colour and held > self.tiles_per_colour:
                raise InvalidRules(
                    f"the layout gives {seat_name(seat)} {held} tiles, "
                    f"more than tiles_per_colour {self.tiles_per_colour}"
                )
        problems = []
        for seat, deck in enumerate(self.decks):
            who = f"{seat_name(seat)}'s deck{f' ({deck.name})' if deck.name else ''}"
            if deck.size < 1:
                problems.append(f"{who} is empty")
            names: dict[str, MeaCard] = {}
            for card, _ in deck.cards:
                if card.type is MeaCardType.TILE:
                    problems.append(f"{who}: {card.name} is a tile; tiles are not part of a deck")
                    continue
                unknown = card.unknown_stats
                if unknown:
                    problems.append(f"{who}: {card.name} has unknown {', '.join(unknown)}")
                key = fold(card.name)
                if key in names and names[key] != card:
                    problems.append(f"{who}: two different cards are called {card.name}")
                names[key] = card
        if problems:
            raise InvalidRules("cannot play these decks: " + "; ".join(problems))

    @property
    def players(self) -> int:
        return 2

    def tables(self) -> MeaTables:
        """Per-instance constants (built once per rules object)."""
        cached = self.__dict__.get("_tables")
        if cached is None:
            cached = _build_tables(self)
            object.__setattr__(self, "_tables", cached)
        return cached

    def new_initial_state(self, seed: int | None = None) -> MeaState:
        return MeaState(self, seed)

    def parse_action(self, text: str) -> MeaAction:
        tables = self.tables()
        return _canonical(_canonical_names(parse_action(text), tables.canonical), tables)

    def to_options(self) -> dict[str, Any]:
        out: dict[str, Any] = {"players": 2}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = [d.to_dict() for d in value] if f.name == "decks" else value
        return out

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> Self:
        known = {f.name for f in fields(cls)} | {"players"}
        unknown = sorted(set(options) - known)
        if unknown:
            raise InvalidRules(f"unknown Méa option {quoted(unknown[0])} (known: {', '.join(sorted(known))})")
        values = dict(options)
        if values.pop("players", 2) != 2:
            raise InvalidRules("Méa is for 2 players")
        decks = values.pop("decks", None)
        if not isinstance(decks, list | tuple) or len(decks) != 2:
            raise InvalidRules("Méa rules need 'decks': a list of the two players' decks")
        parsed = tuple(
            d if isinstance(d, MeaDeck) else MeaDeck.from_dict(d, f"decks[{i}]") for i, d in enumerate(decks)
        )
        return cls(decks=parsed, **values)  # type: ignore[arg-type]

    # -- integer steps and tensors (see cardbase.games.base) --

    def ids(self) -> _Ids:
        """Where each kind of action's ids start (built once per rules object); needs ``board_size``."""
        cached = self.__dict__.get("_ids")
        if cached is None:
            if not self.board_size:
                raise InvalidRules(
                    "Méa's integer ids and tensors number the cells of a bounded board: set board_size (e.g. 9)"
                )
            cached = _Ids.of(self.tables(), max(d.size for d in self.decks))
            object.__setattr__(self, "_ids", cached)
        return cached

    def num_distinct_actions(self) -> int:
        """Draws (``draw k``: k - 1), summons (name × cell), assists (name), moves (cell × which
        of its two monsters, in arrival order × direction), attacks (target cell × the attacker's
        direction from it and place on its tile, for one attacker or two), flips and obliterations
        (cell, or none), choices (a cell, or a monster: cell × place). See :class:`_Ids`."""
        return self.ids().total

    def max_chance_outcomes(self) -> int:
        """The shuffle is one step per card, both decks' in turn, top card first: the position in
        its deck list of the card that comes next."""
        return max(d.size for d in self.decks)

    def max_game_length(self) -> int:
        """The shuffle (a chance step per card), the two opening draws and up to 500 steps a turn
        (a bound no game of the shipped decks comes near: a turn's actions are limited by the cards,
        the mana and each monster's one action, but abilities that return cards and give actions
        have no bound in the rules)."""
        return self.decks[0].size + self.decks[1].size + 2 + 500 * self.max_turns

    def observation_tensor_layout(self) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """``tiles``: per cell of the board square (board order), mine, the other player's.
        ``monsters``: per cell and place on it (arrival order): there, controlled by me, owned by me,
        attack, defence, can move, can attack, summoned this turn. ``names``: per cell and place,
        which card (the decks' distinct names, monsters then assists). ``hand``: my hand, copies by
        name; ``out_of_play``: likewise. ``sizes``: my hand, the other hand, my deck, the other
        deck. ``mana``, ``turns`` (mine, the other's), ``phase`` (shuffle, opening, flip, main,
        choice, over), ``active`` (it is my turn), ``to_act`` (I am to act). Numbers as they are."""
        ids = self.ids()
        names = len(ids.names)
        return (
            ("tiles", (ids.cells, 2)),
            ("monsters", (ids.cells, 2, 8)),
            ("names", (ids.cells, 2, names)),
            ("hand", (names,)),
            ("out_of_play", (names,)),
            ("sizes", (4,)),
            ("mana", (1,)),
            ("turns", (2,)),
            ("phase", (len(PHASE_NAMES),)),
            ("active", (1,)),
            ("to_act", (1,)),
        )

    def unexpressed_cards(self) -> tuple[str, ...]:
        """Cards in either deck that play as their bare stats (abilities not expressed)."""
        return tuple(dict.fromkeys(n for d in self.decks for n in d.unexpressed))

    def report_notes(self) -> list[str]:
        """What every report using these decks must say: demo cards, bare-stats cards."""
        notes = []
        labels = [d.name or f"{seat_name(k)}'s deck" for k, d in enumerate(self.decks)]
        demo = sorted((labels[k], d.demo_cards, d.size) for k, d in enumerate(self.decks) if d.demo_cards)
        if demo:
            shown = ", ".join(f"{n} of {size} cards in {label}" for label, n, size in demo)
            notes.append(f"demo cards: {shown} (cardbase's demo set, not published Méa cards)")
        bare = self.unexpressed_cards()
        if bare:
            notes.append(f"played as bare stats (abilities not expressed as data): {', '.join(bare)}")
        return notes


def _build_tables(rules: MeaRules) -> MeaTables:
    cards: list[MeaCard] = []
    owner: list[int] = []
    offset = []
    for seat, deck in enumerate(rules.decks):
        offset.append(len(cards))
        for card in deck.expanded():
            cards.append(card)
            owner.append(seat)
    triggers = []
    for card in cards:
        by: dict[str, list[Ability]] = {}
        for a in card.abilities or ():
            by.setdefault(a.trigger, []).append(a)
        triggers.append({k: tuple(v) for k, v in by.items()})
    canonical = {fold(c.name): c.name for c in cards}
    cells = B.square(B.parse_layout(rules.layout), rules.board_size) if rules.board_size else ()
    turn_start = tuple(t.get("turn_start", ()) for t in triggers)
    turn_end = tuple(t.get("turn_end", ()) for t in triggers)
    return MeaTables(
        cards=tuple(cards),
        owner=tuple(owner),
        offset=(offset[0], offset[1]),
        names=tuple(c.name for c in cards),
        cost=tuple(c.cost or 0 for c in cards),
        attack=tuple(c.attack or 0 for c in cards),
        defence=tuple(c.defence or 0 for c in cards),
        monster=tuple(c.type is MeaCardType.MONSTER for c in cards),
        triggers=tuple(triggers),
        turn_start=turn_start,
        summoned=tuple(t.get("summoned", ()) for t in triggers),
        turn_end=turn_end,
        turn_start_cards=tuple(i for i, t in enumerate(turn_start) if t),
        turn_end_cards=tuple(i for i, t in enumerate(turn_end) if t),
        canonical=canonical,
        start_tiles=B.parse_layout(rules.layout),
        dirs=B.directions(rules.adjacency),
        attack_all=rules.attack_rule == "all",
        list_losing_draws=rules.list_losing_draws,
        move_onto_enemy=rules.move_onto_enemy == "allowed",
        tile_total_filters=rules.tile_attack == "filters",
        colour_cap=rules.tiles_per_colour,
        obliterate_kills=rules.obliterated == "killed",
        first_moves_in=rules.move_in == "first",
        killed_first=rules.elimination_killed == "resolved",
        displaced_to_controller=rules.displaced_to == "controller",
        cells=cells,
        cell_of={q: k for k, q in enumerate(cells)},
    )


def _canonical(action: MeaAction, tables: MeaTables) -> MeaAction:
    """``action`` as the rules list it: an attack's attackers in board order unless the order
    is part of it (``move_in="first"``)."""
    if type(action) is Attack and not tables.first_moves_in:
        return action.in_board_order()
    return action


def _canonical_names(action: MeaAction, canonical: Mapping[str, str]) -> MeaAction:
    """``action`` with card names spelt as the cards are (any case or accents typed)."""

    def nm(n: str) -> str:
        return canonical.get(fold(n), n)

    def rf(r: Ref) -> Ref:
        return Ref(nm(r[0]), r[1], r[2])

    if isinstance(action, Summon):
        return Summon(nm(action[1]), action[2])
    if isinstance(action, Play):
        return Play(nm(action[1]))
    if isinstance(action, Move):
        return Move(rf(action[1]), action[2])
    if isinstance(action, Attack):
        return Attack(action[1], [rf(r) for r in action[2]])
    if isinstance(action, Choose) and isinstance(action[1], Ref):
        return Choose(rf(action[1]))
    return action


# --- state ---------------------------------------------------------------------


class MeaBoard(NamedTuple):
    """:meth:`MeaState.board_view`: the engine's own containers, not copies (cheap to take,
    changed by the next action; never modify them)."""

    tile_owners: Mapping[int, int]
    """Tile position → the seat that owns it (:meth:`MeaState.tiles` is a copy)."""
    occupants: Mapping[int, tuple[int, ...]]
    """Tile position → the instances on it in arrival order, for every tile, in board order."""
    neighbours: Mapping[int, tuple[int, ...]]
    """Tile position → the positions of the tiles next to it, in board order."""
    controllers: Sequence[int]
    """By instance, as the lists below."""
    positions: Sequence[int]
    """The position of the tile each instance is on (``NONE_POS`` off the board)."""
    attacks: Sequence[int]
    """Attack without this turn's bonuses (the printed value and lasting gains)."""
    defences: Sequence[int]
    attack_bonuses: Sequence[int]
    """This turn's bonuses (:meth:`MeaState.attack_of` is ``attacks[i] + attack_bonuses[i]``)."""
    defence_bonuses: Sequence[int]


class MeaState(State):
    """A Méa game in progress. See :class:`cardbase.games.base.State` for the protocol.

    Read the position through the methods below (``tiles``, ``monsters``, ``hand``, …), the
    live views (``tables``, ``zones``, :meth:`board_view`) or an :meth:`observation`; set one up
    with :meth:`position` and the set-up methods. The ``_`` attributes are the engine's.
    """

    __slots__ = (
        "_active",
        "_acts",
        "_adj",
        "_atk",
        "_choice",
        "_ctrl",
        "_deck",
        "_def",
        "_end",
        "_fired",
        "_fresh",
        "_hand",
        "_legal",
        "_mana",
        "_occ",
        "_openings",
        "_out",
        "_phase",
        "_pos",
        "_queue",
        "_tab",
        "_taken",
        "_tiles",
        "_tmp",
        "_tmpd",
        "_turn",
        "_xatt",
        "_zone",
        "current_player",
        "history",
        "rng",
        "rules",
        "seed",
    )

    rules: MeaRules

    def __init__(self, rules: MeaRules, seed: int | None = None):
        self.rules = rules
        self.seed = seed
        self.rng = random.Random(seed)
        self.history = []
        tab = rules.tables()
        self._tab = tab
        n = len(tab.cards)
        self._zone = [DECK] * n
        self._ctrl = list(tab.owner)
        self._pos = [NONE_POS] * n
        self._atk = list(tab.attack)
        self._def = list(tab.defence)
        self._tmp = [0] * n
        self._tmpd = [0] * n
        self._acts = [0] * n
        self._xatt = [0] * n
        self._fresh = [False] * n
        a, b = tab.offset
        self._deck = [list(range(a, b))[::-1], list(range(b, n))[::-1]]
        self._hand: list[list[int]] = [[], []]
        self._out: list[int] = []
        self._tiles: dict[int, int] = dict(tab.start_tiles)
        # Kept in position order, so that iterating it visits the tiles in board order.
        self._occ: dict[int, tuple[int, ...]] = {p: () for p in sorted(self._tiles)}
        self._adj: dict[int, tuple[int, ...]] = {}
        self._rebuild_adjacency()
        self._queue: list[tuple[Any, ...]] = []
        self._fired: tuple[tuple[int, Ability, int], ...] = ()
        self._choice: tuple[int, tuple[Any, ...]] | None = None
        self._openings: list[int | None] = [None, None]
        self._taken = [0, 0]
        self._turn = 0
        self._mana = 0
        self._active = 0
        self._end: tuple[tuple[int, ...], str, str] | None = None
        self._legal: Sequence[MeaAction] | None = None
        self._phase = _SHUFFLE
        self.current_player = CHANCE

    # -- reading the position --

    @property
    def phase(self) -> str:
        return PHASE_NAMES[self._phase]

    @property
    def active(self) -> int:
        """Whose turn it is (the current player may be the other, choosing a target)."""
        return self._active

    @property
    def mana(self) -> int:
        """Mana the active player has left this turn."""
        return self._mana

    @property
    def turn(self) -> int:
        """Turns begun so far, both players together."""
        return self._turn

    def abilities_fired(self) -> tuple[tuple[str, Ability, int], ...]:
        """The abilities that activated during the last action: (card name, ability, controller),
        in the order they resolved. Public: their cards are on the board, or just played or killed."""
        names = self._tab.names
        return tuple((names[i], ab, p) for i, ab, p in self._fired)

    def fired_from(self) -> tuple[int, ...]:
        """The card instances of :meth:`abilities_fired`, in the same order."""
        return tuple(i for i, _, _ in self._fired)

    @property
    def turns_taken(self) -> tuple[int, int]:
        return (self._taken[0], self._taken[1])

    def turn_label(self) -> str:
        """Whose turn it is, numbered as that player counts their own turns: ``P2's turn 3``
        (:attr:`turn` counts both players' turns together)."""
        return f"{seat_name(self._active)}'s turn {self._taken[self._active]}"

    @property
    def openings(self) -> tuple[int | None, int | None]:
        """How many cards each player drew before the first turn."""
        return (self._openings[0], self._openings[1])

    @property
    def end_code(self) -> str | None:
        """How the game ended: ``no-tiles``, ``hand-of-11``, ``deck-out`` or ``turn-limit``."""
        return self._end[2] if self._end else None

    @property
    def end_reason(self) -> str | None:
        """How the game ended, as the sentence a player reads; ``None`` while it goes on."""
        return self._end[1] if self._end else None

    @property
    def card_count(self) -> int:
        """How many card instances the game holds (both decks); instances are ``0 … card_count - 1``."""
        return len(self._tab.cards)

    def card(self, instance: int) -> MeaCard:
        return self._tab.cards[instance]

    def owner(self, instance: int) -> int:
        """The seat whose deck ``instance`` came from (its controller may be the other)."""
        return self._tab.owner[instance]

    def tiles(self) -> dict[int, int]:
        """Position → owner seat, for every tile on the board."""
        return dict(self._tiles)

    def tile_count(self, seat: int) -> int:
        return countOf(self._tiles.values(), seat)

    def on_tile(self, p: int) -> tuple[int, ...]:
        """Card instances on the tile at ``p``, in arrival order."""
        return self._occ.get(p, ())

    def monsters(self, seat: int | None = None) -> list[int]:
        """Monsters on the board (of ``seat``'s control, if given), in board order."""
        out = []
        for here in self._occ.values():  # board order
            for i in here:
                if seat is None or self._ctrl[i] == seat:
                    out.append(i)
        return out

    def hand(self, seat: int) -> tuple[int, ...]:
        return tuple(self._hand[seat])

    def hand_names(self, seat: int) -> tuple[str, ...]:
        return tuple(self._tab.names[i] for i in self._hand[seat])

    def deck(self, seat: int) -> tuple[int, ...]:
        """``seat``'s deck, top card first."""
        return tuple(reversed(self._deck[seat]))

    def out_of_play(self) -> tuple[int, ...]:
        """Cards out of play: killed or obliterated monsters, and assists once played."""
        return tuple(self._out)

    def zone(self, instance: int) -> int:
        return self._zone[instance]

    def controller(self, instance: int) -> int:
        return self._ctrl[instance]

    def tile_of(self, instance: int) -> int:
        """The position of the tile ``instance`` is on (``NONE_POS`` off the board)."""
        return self._pos[instance]

    def attack_of(self, instance: int) -> int:
        """Current attack, this turn's bonuses included."""
        return self._atk[instance] + self._tmp[instance]

    def defence_of(self, instance: int) -> int:
        return self._def[instance] + self._tmpd[instance]

    def projected_mana(self, seat: int) -> int:
        """The mana ``seat`` would count if its turn began now: tiles the opponent controls +
        monsters ``seat`` controls, at least the minimum, then the second player's bonus if that
        turn would be one of its first turns. Public: the board and the turns taken decide it."""
        return self._compute_mana(seat, turns_taken=self._taken[seat] + 1)

    def can_move(self, instance: int) -> bool:
        return self._acts[instance] > 0

    def can_attack(self, instance: int) -> bool:
        return self._acts[instance] > 0 or self._xatt[instance] > 0

    def actions_left(self, instance: int) -> int:
        """The actions (a move or an attack) ``instance`` has left this turn."""
        return self._acts[instance]

    def extra_attacks(self, instance: int) -> int:
        """The attacks ``instance`` has left beyond its action (from an extra-attack ability)."""
        return self._xatt[instance]

    def summoned_this_turn(self, instance: int) -> bool:
        return self._fresh[instance]

    def ref_of(self, instance: int) -> Ref:
        """The notation reference of a monster on the board."""
        p = self._pos[instance]
        name = self._tab.names[instance]
        occ = self._occ[p]
        if len(occ) == 2:
            other = occ[0] if occ[1] == instance else occ[1]
            if self._tab.names[other] == name:
                return Ref(name, p, 1 if occ[0] == instance else 2)
        return Ref(name, p, 0)

    def choice(self) -> dict[str, Any] | None:
        """The decision pending in the choice phase: who chooses, for what, among what."""
        if self._phase != _CHOICE or self._choice is None:
            return None
        chooser, options = self._choice
        item = self._queue[0]
        if item[0] == "disp":
            i = item[1]
            what = f"where {self._tab.names[i]} goes: the tile it is on was flipped"
        else:
            ability, source = item[1], item[3]
            card = self._tab.names[source] if source >= 0 else "?"
            what = f"{card}: {ability.text()}"
        return {"player": chooser, "for": what, "options": list(options)}

    def pending(self) -> tuple[Ability | None, int]:
        """What the choice phase's decision is for: ``(ability, the card it comes from)``, or
        ``(None, the monster)`` for where a displaced monster goes. Only in the choice phase."""
        item = self._queue[0]
        if item[0] == "disp":
            return None, item[1]
        return item[1], item[3]

    def hand_size(self, seat: int) -> int:
        return len(self._hand[seat])

    def deck_size(self, seat: int) -> int:
        return len(self._deck[seat])

    @property
    def winners(self) -> tuple[int, ...] | None:
        """The seats that won (both: a draw); ``None`` while the game goes on."""
        return self._end[0] if self._end else None

    # -- live read-only views, for agents and views that read the whole board often: the
    # engine's own containers, not copies (cheap to take, changed by the next action; never
    # modify them). Per card instance unless said. --

    @property
    def tables(self) -> MeaTables:
        """The rules' constant per-instance tables (``names``, ``owner``, ``cost``, ``triggers``, …;
        the same object as ``rules.tables()``)."""
        return self._tab

    @property
    def zones(self) -> Sequence[int]:
        """Each instance's zone (``DECK``, ``HAND``, ``BOARD``, ``OUT``; ``UNKNOWN`` in a view)."""
        return self._zone

    def board_view(self) -> MeaBoard:
        """The board and the cards' per-instance values, as live views, in one call."""
        views = (self._tiles, self._occ, self._adj, self._ctrl, self._pos, self._atk, self._def, self._tmp, self._tmpd)
        return tuple.__new__(MeaBoard, views)  # (without the generated __new__'s Python frame)

    # -- setting up a position (scenarios, games typed up from a real table): each change keeps
    # the state whole (every card in one place, the board's indexes, the legal actions worked out
    # again). On a full state, not an observation's view. --

    @classmethod
    def position(
        cls,
        rules: MeaRules,
        *,
        hands: Sequence[Sequence[str]] = ((), ()),
        board: Sequence[Mapping[str | int, Sequence[str]]] = ({}, {}),
        out: Sequence[Sequence[str]] = ((), ()),
        decks: Sequence[Sequence[str] | None] = (None, None),
        tiles: Mapping[str | int, int] | None = None,
        active: int = 0,
        mana: int | None = None,
        turns_taken: tuple[int, int] | None = None,
        seed: int | None = 0,
    ) -> MeaState:
        """A game at a given position: seat ``active``'s main phase, with ``mana`` to spend (by
        default the mana its turn counts).

        Per seat, cards by name, each the first copy of its deck list not placed yet: ``hands[s]``
        (in order), ``board[s]`` (tile → the seat's monsters there, which it controls; ready to move
        and attack), ``out[s]`` (out of play); ``decks[s]``: the cards left in its deck, top first
        (by default the rest in deck-list order, the first on top). ``tiles``: every tile and its
        owner (default: the rules' layout). ``turns_taken``: each seat's turns begun (default 1 for
        the seats that have played: ``(1, 0)`` when ``active`` is 0, else ``(1, 1)``). The history
        is empty (no record replays to it). For scenarios and for games typed up from a real table;
        :meth:`place_card`, :meth:`set_tile` and :meth:`set_main_phase` change it further.
        """
        if not isinstance(rules, MeaRules):
            raise TypeError("MeaState.position(rules, ...) builds a position; a card's tile is state.tile_of(instance)")
        if active not in (0, 1):
            raise InvalidAction(f"no seat {active} in a 2-player game")
        state = cls(rules, seed)
        names = state._tab.names
        canonical = state._tab.canonical

        def take(seat: int, name: str) -> int:
            card = canonical.get(fold(name), name)
            for i in reversed(state._deck[seat]):  # top first: the deck list's order
                if names[i] == card:
                    return i
            if card in names[state._tab.offset[seat] : state._tab.offset[seat] + rules.decks[seat].size]:
                raise InvalidAction(f"more copies of {card} than {seat_name(seat)}'s deck has")
            raise InvalidAction(f"no {quoted(name)} in {seat_name(seat)}'s deck")

        if tiles is not None:
            wanted = {_tile(t) if isinstance(t, str) else t: owner for t, owner in tiles.items()}
            for q in [q for q in state._tiles if q not in wanted]:
                state.set_tile(q, None)
            for q, owner in sorted(wanted.items()):
                state.set_tile(q, owner)
        for seat in (0, 1):
            for t, monsters in board[seat].items():
                q = _tile(t) if isinstance(t, str) else t
                for name in monsters:
                    state.place_card(take(seat, name), BOARD, q)
            for name in hands[seat]:
                state.place_card(take(seat, name), HAND)
            for name in out[seat]:
                state.place_card(take(seat, name), OUT)
            deck = decks[seat]
            if deck is not None:
                left = [names[i] for i in reversed(state._deck[seat])]
                if sorted(canonical.get(fold(n), n) for n in deck) != sorted(left):
                    raise InvalidAction(f"{seat_name(seat)}'s deck is not the cards left: {', '.join(sorted(left))}")
                order: list[int] = []
                for name in deck:
                    card = canonical.get(fold(name), name)
                    order.append(next(i for i in reversed(state._deck[seat]) if names[i] == card and i not in order))
                state.arrange(seat, state.hand(seat), order)
        state._taken = list(turns_taken) if turns_taken is not None else [1, 0 if active == 0 else 1]
        state._turn = sum(state._taken)
        state.set_main_phase(active, mana)
        return state

    def place_card(self, instance: int, zone: int, tile: int = NONE_POS, seat: int | None = None) -> None:
        """Put card ``instance`` from wherever it is into ``zone``: ``HAND`` (the end of ``seat``'s
        hand; by default its owner's), ``DECK`` (the bottom of its owner's deck), ``OUT`` (out of
        play), or ``BOARD`` (on ``tile``, controlled by ``seat``, by default its owner, ready to
        move and attack: not summoned this turn). A monster taken off the board is reset to its
        printed values (as when it leaves the board in play); one moved between tiles keeps them."""
        tab = self._tab
        if not 0 <= instance < len(tab.cards):
            raise InvalidAction(f"no card {instance} in this game (0 to {len(tab.cards) - 1})")
        if zone not in (DECK, HAND, BOARD, OUT):
            raise InvalidAction(f"a card goes to the deck, hand, board or out of play, not zone {zone}")
        if seat is not None and seat not in (0, 1):
            raise InvalidAction(f"no seat {seat} in a 2-player game")
        owner = tab.owner[instance]
        if zone == BOARD:
            if not tab.monster[instance]:
                raise InvalidAction(f"{tab.names[instance]} is an assist: only monsters go on the board")
            here = self._occ.get(tile)
            if here is None:
                raise InvalidAction(f"no tile at {B.name(tile)}")
            if len(here) >= MAX_PER_TILE and instance not in here:
                raise InvalidAction(f"{B.name(tile)} has {MAX_PER_TILE} monsters on it already")
        where = self._zone[instance]
        if where == BOARD:
            self._lift(instance)
            if zone != BOARD:
                self._reset(instance)
        elif where == HAND:
            next(h for h in self._hand if instance in h).remove(instance)
        elif where == DECK:
            next(d for d in self._deck if instance in d).remove(instance)
        elif where == OUT:
            self._out.remove(instance)
        else:
            raise InvalidAction("a view's hidden cards cannot be placed: set up a full state")
        if zone == BOARD:
            self._place(instance, tile, owner if seat is None else seat)
            self._acts[instance] = 1
            self._xatt[instance] = 0
            self._fresh[instance] = False
        elif zone == HAND:
            self._zone[instance] = HAND
            self._hand[owner if seat is None else seat].append(instance)
        elif zone == DECK:
            self._zone[instance] = DECK
            self._deck[owner].insert(0, instance)
        else:
            self._zone[instance] = OUT
            self._out.append(instance)
        self._legal = None

    def set_monster(
        self,
        instance: int,
        *,
        attack: int | None = None,
        defence: int | None = None,
        actions: int | None = None,
        extra_attacks: int | None = None,
        summoned: bool | None = None,
    ) -> None:
        """Change a monster on the board: its attack and defence without this turn's bonuses (as
        after a lasting gain), the actions it has left this turn (a move or an attack; 0 or 1),
        its extra attacks left, whether it was summoned this turn."""
        if not 0 <= instance < len(self._tab.cards) or self._zone[instance] != BOARD:
            raise InvalidAction(f"card {instance} is not a monster on the board")
        if attack is not None:
            self._atk[instance] = attack
        if defence is not None:
            self._def[instance] = defence
        if actions is not None:
            self._acts[instance] = actions
        if extra_attacks is not None:
            self._xatt[instance] = extra_attacks
        if summoned is not None:
            self._fresh[instance] = summoned
        self._legal = None

    def arrange(self, seat: int, hand: Sequence[int], deck: Sequence[int]) -> None:
        """``seat``'s hand and deck (top first) as given: together the cards they hold now."""
        if sorted([*hand, *deck]) != sorted([*self._hand[seat], *self._deck[seat]]):
            raise InvalidAction(f"{seat_name(seat)}'s hand and deck are rearranged from the cards they hold")
        zone = self._zone
        for i in hand:
            zone[i] = HAND
        for i in deck:
            zone[i] = DECK
        self._hand[seat] = list(hand)
        self._deck[seat] = list(reversed(deck))
        self._legal = None

    def set_tile(self, tile: int, owner: int | None) -> None:
        """Give the tile at ``tile`` to seat ``owner``, adding it if there is none (within the
        board's bounds); ``owner=None`` removes it (it must be empty)."""
        tiles = self._tiles
        if owner is None:
            if tile not in tiles:
                raise InvalidAction(f"no tile at {B.name(tile)}")
            if self._occ[tile]:
                raise InvalidAction(f"{B.name(tile)} has monsters on it: take them off first")
            self._remove_tile(tile, obliterate=False)
        else:
            if owner not in (0, 1):
                raise InvalidAction(f"no seat {owner} in a 2-player game")
            if tile not in tiles:
                inside = self._tab.cell_of
                if not (tile in inside if inside else B.in_bounds(tile)):
                    raise InvalidAction(f"{B.name(tile)} is off the board")
                tiles[tile] = owner
                occ = self._occ
                occ[tile] = ()
                self._occ = {p: occ[p] for p in sorted(occ)}
                self._rebuild_adjacency()
            tiles[tile] = owner
        self._legal = None

    def set_main_phase(self, seat: int, mana: int | None = None) -> None:
        """Make it ``seat``'s main phase with ``mana`` to spend (by default what its turn counts):
        nothing pending, no choice open; ``seat``'s turns taken at least 1."""
        if seat not in (0, 1):
            raise InvalidAction(f"no seat {seat} in a 2-player game")
        if self._end is not None:
            raise InvalidAction("the game is over")
        self._active = seat
        self.current_player = seat
        self._phase = _MAIN
        if self._taken[seat] == 0:
            self._taken[seat] = 1
        self._mana = self._compute_mana(seat) if mana is None else mana
        self._queue.clear()
        self._choice = None
        self._legal = None

    # -- the rules, as used by the engine --

    def _rebuild_adjacency(self) -> None:
        tiles = self._tiles
        dirs = self._tab.dirs
        # In position order: iterating it visits the tiles in board order.
        self._adj = {p: tuple(p + d for d in dirs if p + d in tiles) for p in sorted(tiles)}

    def _enemy_on(self, p: int, seat: int) -> bool:
        ctrl = self._ctrl
        return any(ctrl[i] != seat for i in self._occ[p])

    def _compute_mana(self, seat: int, monsters: int | None = None, turns_taken: int | None = None) -> int:
        """``seat``'s mana for the turn: tiles the opponent controls + monsters ``seat``
        controls (``monsters``, when counted already), at least the minimum, then the
        second player's bonus (``turns_taken``: the turns ``seat`` has begun, this one
        included; by default the state's count)."""
        rules = self.rules
        if monsters is None:
            ctrl = self._ctrl
            monsters = 0
            for here in self._occ.values():
                for i in here:
                    if ctrl[i] == seat:
                        monsters += 1
        mana = countOf(self._tiles.values(), 1 - seat) + monsters
        if mana < rules.mana_minimum:
            mana = rules.mana_minimum
        if seat == 1 and (self._taken[1] if turns_taken is None else turns_taken) <= rules.bonus_turns:
            mana += rules.second_player_bonus
        return mana

    def _flip_options(self, seat: int) -> list[int]:
        ctrl = self._ctrl
        tiles = self._tiles
        out: list[int] = []
        if self._tab.colour_cap and self._at_cap(seat):
            return out
        for p, here in self._occ.items():
            if here and tiles[p] != seat:
                for i in here:
                    if ctrl[i] == seat:
                        out.append(p)
                        break
        return out  # in board order, as _occ is

    def _at_cap(self, seat: int) -> bool:
        """Whether ``seat`` controls as many tiles as ``tiles_per_colour`` allows (never, without a cap)."""
        cap = self._tab.colour_cap
        return bool(cap) and countOf(self._tiles.values(), seat) >= cap

    def _add_positions(self, owner: int) -> list[int]:
        rules = self.rules
        if rules.tile_supply and len(self._tiles) >= rules.tile_supply:
            return []
        if self._tab.colour_cap and self._at_cap(owner):
            return []
        tiles = self._tiles
        dirs = self._tab.dirs
        near = {p + d for p, o in tiles.items() if o == owner for d in dirs}
        inside = self._tab.cell_of or None
        if inside is not None:
            return sorted(q for q in near.difference(tiles) if q in inside)
        return sorted(q for q in near.difference(tiles) if B.in_bounds(q))

    # -- legal actions --

    def legal_actions(self) -> Sequence[MeaAction]:
        """The legal actions, in a fixed order; in the main and choice phases a lazy
        sequence (:class:`MainActions`, :class:`ChoiceActions`) valid until the state changes."""
        legal = self._legal
        if legal is None:
            legal = self._legal = MainActions(self) if self._phase == _MAIN else self._generate()
        return legal

    def _generate(self) -> Sequence[MeaAction]:
        """The legal actions outside the main phase (which :class:`MainActions` lists)."""
        phase = self._phase
        if phase == _CHOICE:
            assert self._choice is not None
            return ChoiceActions(self, self._choice[1])
        if phase == _OPENING:
            return self._draws(self.current_player)
        if phase == _FLIP:
            return (*[_flip(q) for q in self._flip_options(self._active)], _flip(NONE_POS))
        return ()

    def _draws(self, seat: int) -> tuple[MeaAction, ...]:
        """Draw 1 … draw k: up to what keeps the hand below 11 (at least 1), or the whole
        deck with ``list_losing_draws``."""
        left = len(self._deck[seat])
        if not left:
            return ()
        if self._tab.list_losing_draws:
            top = left
        else:
            top = HAND_LIMIT - 1 - len(self._hand[seat])
            if top > left:
                top = left
            elif top < 1:
                top = 1
        if top < len(_DRAW_RANGES):
            return _DRAW_RANGES[top]
        return tuple(Draw(k) for k in range(1, top + 1))

    # -- checking --

    def check(self, action: Any) -> None:
        p = self.current_player
        if p == TERMINAL:
            raise IllegalAction("the game is over", "game-over")
        if not isinstance(action, _Action):
            raise IllegalAction(f"{quoted(action)} is not a Méa action", "not-an-action", p)
        if p == CHANCE:
            if not isinstance(action, Shuffle):
                raise IllegalAction("the decks must be shuffled first (shuffle …)", "shuffle-first")
            self._check_shuffle(action)
            return
        if _canonical(cast("MeaAction", action), self._tab) in self.legal_actions():
            return
        if isinstance(action, Draw) and self._phase in (_OPENING, _MAIN) and 1 <= action.k <= len(self._deck[p]):
            return  # a draw that reaches 11 cards: legal, and it loses
        raise self._why(action, p)

    def _check_shuffle(self, action: Shuffle) -> None:
        orders = action.orders
        sizes = [d.size for d in self.rules.decks]
        if len(orders) != 2:
            raise IllegalAction("a shuffle gives both decks' orders: … / …", "shuffle-both")
        for seat, (order, size) in enumerate(zip(orders, sizes, strict=True)):
            if sorted(order) != list(range(size)):
                raise IllegalAction(
                    f"{seat_name(seat)}'s deck has {size} cards: its order lists each of 0 … {size - 1} once",
                    "shuffle-permutation",
                )

    def _why(self, action: _Action, p: int) -> IllegalAction:
        """The rule that forbids ``action`` (not among the legal actions) now."""
        who = seat_name(p)
        phase = self._phase
        kind = action.kind
        if kind == "shuffle":
            return IllegalAction("the decks are shuffled only at the start", "shuffle-at-start", p)
        if phase == _OPENING:
            if kind != "draw":
                return IllegalAction(
                    f"{who} first draws their opening hand: at least 1 card, as many as they want "
                    "(11 or more loses); e.g. draw 5",
                    "opening-draw",
                    p,
                )
            assert isinstance(action, Draw)
            return self._why_draw(action, p)
        if phase == _FLIP:
            if kind != "flip":
                return IllegalAction(
                    f"the start of {who}'s turn: first flip one enemy tile a monster of yours is on, or not "
                    f"(flip {B.name(self._flip_options(p)[0])} or flip none)",
                    "start-flip-first",
                    p,
                )
            assert isinstance(action, Flip)
            q = action.pos
            if q not in self._tiles:
                return IllegalAction(f"there is no tile {B.name(q)}", "no-tile", p)
            if self._tiles[q] == p:
                return IllegalAction(f"{B.name(q)} is already yours: flip an enemy tile", "flip-enemy-tile", p)
            return IllegalAction(
                f"you may flip only an enemy tile that has a monster of yours on it, and {B.name(q)} has none",
                "flip-own-monster",
                p,
            )
        if phase == _CHOICE:
            info = self.choice()
            assert info is not None
            if kind != "choose":
                return IllegalAction(
                    f"{who} must first choose {info['for']} (type legal to see the options)", "choose-first", p
                )
            return IllegalAction(f"not a valid choice for {info['for']}", "choice-target", p)
        # Main phase.
        if kind == "flip":
            return IllegalAction(
                "you may flip a tile only at the start of your turn, before anything else", "start-flip-only", p
            )
        if kind == "choose":
            return IllegalAction("there is nothing to choose now", "nothing-to-choose", p)
        if kind == "draw":
            assert isinstance(action, Draw)
            return self._why_draw(action, p)
        if kind == "obliterate":
            if self._deck[p]:
                return IllegalAction(
                    "you obliterate a tile only when your deck is empty; end your turn by drawing", "deck-out", p
                )
            assert isinstance(action, Obliterate)
            q = action.pos
            if q == NONE_POS:
                return IllegalAction("you still have a tile: obliterate one of yours", "deck-out", p)
            return IllegalAction(f"{B.name(q)} is not your tile: obliterate one of yours", "deck-out", p)
        if kind in ("summon", "play"):
            assert isinstance(action, Summon | Play)
            return self._why_card(action, p)
        if kind == "move":
            assert isinstance(action, Move)
            return self._why_move(action, p)
        assert isinstance(action, Attack)
        return self._why_attack(action, p)

    def _meant(self, name: str, p: int) -> str:
        """`` (did you mean …?)``: the card of ``p``'s hand, else of the game, ``name`` is a short
        or close spelling of (see :func:`cardbase.fuzzy.match`); empty if none."""
        names = self._tab.names
        for pool in ({names[i] for i in self._hand[p]}, set(names)):
            try:
                meant = match(name, sorted(pool))
            except AmbiguousName as error:
                return f" (did you mean {' or '.join(error.candidates)}?)"
            if meant is not None:
                return f" (did you mean {meant}?)"
        return ""

    def _why_draw(self, action: Draw, p: int) -> IllegalAction:
        k = action.k
        left = len(self._deck[p])
        if self._phase == _MAIN and not left:
            return IllegalAction(
                "your deck is empty: instead of drawing you must obliterate one of your tiles", "deck-out", p
            )
        if k < 1:
            return IllegalAction("you must draw at least 1 card", "draw-at-least-1", p)
        return IllegalAction(f"your deck has only {left} card{'s' if left != 1 else ''}", "draw-from-deck", p)

    def _why_card(self, action: Summon | Play, p: int) -> IllegalAction:
        tab = self._tab
        name = action.card
        held = [i for i in self._hand[p] if tab.names[i] == name]
        if not held:
            if fold(name) not in tab.canonical:  # not a card of this game: maybe a short spelling of one
                return IllegalAction(
                    f"no card in this game is called {quoted(name)}{self._meant(name, p)}", "hold-card", p
                )
            return IllegalAction(f"you do not hold {name}", "hold-card", p)
        i = held[0]
        if isinstance(action, Play) and tab.monster[i]:
            return IllegalAction(f"{name} is a monster: summon it onto a tile (summon {name} b2)", "summon-monster", p)
        if isinstance(action, Summon) and not tab.monster[i]:
            return IllegalAction(f"{name} is an assist: play it (play {name})", "play-assist", p)
        if tab.cost[i] > self._mana:
            return IllegalAction(f"{name} costs {tab.cost[i]} mana and you have {self._mana} left this turn", "mana", p)
        q = action.pos  # type: ignore[union-attr]
        if q not in self._tiles:
            return IllegalAction(f"there is no tile {B.name(q)}", "no-tile", p)
        if self._tiles[q] != p:
            return IllegalAction(
                f"you can summon only onto a tile you control; {B.name(q)} is not yours", "summon-own", p
            )
        if self._enemy_on(q, p):
            return IllegalAction(
                f"you cannot summon onto a tile with an enemy monster on it ({B.name(q)})", "summon-own", p
            )
        return IllegalAction(f"at most {MAX_PER_TILE} monsters on a tile: {B.name(q)} is full", "two-per-tile", p)

    def resolve_ref(self, ref: Ref, seat: int | None = None) -> int | None:
        """The monster ``ref`` names (of ``seat``'s control, when ``nth`` is 0 and it is given);
        ``None`` when none is there."""
        occ = self._occ.get(ref[1])
        if not occ:
            return None
        names, name = self._tab.names, ref[0]
        if not ref[2]:
            first = None
            for i in occ:
                if names[i] == name:
                    if seat is None or self._ctrl[i] == seat:
                        return i
                    if first is None:
                        first = i
            return first
        same = [i for i in occ if names[i] == name]
        return same[ref[2] - 1] if ref[2] <= len(same) else None

    def _ambiguous(self, refs: Iterable[Ref], p: int) -> IllegalAction | None:
        for ref in refs:
            same = [i for i in self._occ.get(ref[1], ()) if self._tab.names[i] == ref[0]]
            if not ref[2] and len(same) == 2:
                where = f"{ref[0]}@{B.name(ref[1])}"
                return IllegalAction(
                    f"two monsters called {ref[0]} are on {B.name(ref[1])}: write {where}#1 or {where}#2",
                    "which-monster",
                    p,
                )
        return None

    def _why_move(self, action: Move, p: int) -> IllegalAction:
        ref, dst = action.ref, action.dst
        ambiguous = self._ambiguous([ref], p)
        if ambiguous is not None:
            return ambiguous
        i = self.resolve_ref(ref, p)
        if i is None or self._ctrl[i] != p:
            return IllegalAction(f"you have no monster {ref}", "own-monster", p)
        if self._acts[i] <= 0:
            return IllegalAction(
                f"{ref[0]} has already moved or attacked this turn (a monster either moves once or attacks once)",
                "move-or-attack-once",
                p,
            )
        if dst not in self._tiles:
            return IllegalAction(f"there is no tile {B.name(dst)}", "no-tile", p)
        if dst not in self._adj[ref[1]]:
            return IllegalAction(
                f"a monster moves to an adjacent tile; {B.name(dst)} is not next to {B.name(ref[1])}", "adjacent", p
            )
        if self._enemy_on(dst, p) and not self._tab.move_onto_enemy:
            return IllegalAction(
                f"a monster cannot move onto a tile with an enemy monster on it ({B.name(dst)}): attack it",
                "move-no-enemy",
                p,
            )
        if len(self._occ[dst]) >= MAX_PER_TILE:
            return IllegalAction(f"at most {MAX_PER_TILE} monsters on a tile: {B.name(dst)} is full", "two-per-tile", p)
        return IllegalAction(f"{action} is not legal now", "move", p)

    def _why_attack(self, action: Attack, p: int) -> IllegalAction:
        t = action.target
        refs = action.refs
        if not 1 <= len(refs) <= 2:
            return IllegalAction("one monster attacks, or two together", "combined-two", p)
        ambiguous = self._ambiguous(refs, p)
        if ambiguous is not None:
            return ambiguous
        if t not in self._tiles:
            return IllegalAction(f"there is no tile {B.name(t)}", "no-tile", p)
        enemies = [j for j in self._occ[t] if self._ctrl[j] != p]
        if not enemies:
            return IllegalAction(f"there is no enemy monster on {B.name(t)}", "attack-enemy", p)
        ids = []
        for ref in refs:
            i = self.resolve_ref(ref, p)
            if i is None or self._ctrl[i] != p:
                return IllegalAction(f"you have no monster {ref}", "own-monster", p)
            if i in ids:
                return IllegalAction(f"{ref} is named twice", "combined-two", p)
            ids.append(i)
            if t not in self._adj[self._pos[i]]:
                return IllegalAction(
                    f"{ref[0]} is not adjacent to {B.name(t)}: you may attack monsters on adjacent tiles", "adjacent", p
                )
            if not self.can_attack(i):
                return IllegalAction(
                    f"{ref[0]} has already moved or attacked this turn (a monster either moves once or attacks once)",
                    "move-or-attack-once",
                    p,
                )
        if len(ids) == 2 and self._fresh[ids[0]] and self._fresh[ids[1]]:
            return IllegalAction(
                "two monsters summoned this turn cannot attack together: a summoned monster attacks alone or with "
                "one that was not summoned this turn",
                "summoned-alone",
                p,
            )
        total = sum(self.attack_of(i) for i in ids)
        defs = sorted(self.defence_of(j) for j in enemies)
        if self.rules.attack_rule == "all":
            return IllegalAction(
                f"an attack must kill every monster on the tile (option attack_rule=all): attack {total} < "
                f"defence {defs[-1]}",
                "attack-must-kill",
                p,
            )
        return IllegalAction(
            f"you may attack only if you can kill: attack {total} is below the defence of every monster on "
            f"{B.name(t)} (lowest {defs[0]})",
            "attack-must-kill",
            p,
        )

    # -- applying --

    def apply(self, action: Any) -> None:
        """Check ``action`` and apply it (an attack's attackers in any order under ``move_in="all"``)."""
        if type(action) is Attack:
            action = _canonical(action, self._tab)
        self.check(action)
        self.apply_unchecked(action)

    def apply_unchecked(self, action: Any) -> None:
        self.history.append(action)
        self._legal = None
        if self._fired:
            self._fired = ()
        kind = action[0]
        if kind == "draw":
            if self._phase == _OPENING:
                self._opening(action[1])
                return
            self._end_turn_draw(action[1])
        elif kind == "summon":
            self._summon(action)
        elif kind == "move":
            self._move(action)
            return  # nothing is triggered by a move
        elif kind == "play":
            self._play(action[1])
        elif kind == "attack":
            self._attack(action)
        elif kind == "choose":
            self._choose(action[1])
            return
        elif kind == "flip":
            self._start_flip(action[1])
        elif kind == "obliterate":
            self._end_turn_obliterate(action[1])
        elif kind == "shuffle":
            self._shuffle(action)
            return
        if self._queue:
            self._run()

    def _shuffle(self, action: Shuffle) -> None:
        a, b = self._tab.offset
        n = len(self._tab.cards)
        bases = (a, b)
        for seat in range(2):
            order = action.orders[seat]
            self._deck[seat] = [bases[seat] + k for k in reversed(order)]
        assert sum(len(d) for d in self._deck) == n
        self._phase = _OPENING
        self.current_player = 0

    def _opening(self, k: int) -> None:
        p = self.current_player
        self._openings[p] = k
        self._draw(p, k)
        if self._end is not None:
            return
        if p == 0:
            self.current_player = 1
            return
        self._begin_turn(0)
        self._run()

    def _draw(self, p: int, k: int) -> None:
        deck = self._deck[p]
        hand = self._hand[p]
        zone = self._zone
        for _ in range(k):
            if not deck:
                return
            i = deck.pop()
            hand.append(i)
            zone[i] = HAND
            if len(hand) >= HAND_LIMIT:
                self._finish((1 - p,), f"{seat_name(p)} has {HAND_LIMIT} cards in hand", END_HAND)
                return

    def _take_from_hand(self, p: int, name: str) -> int:
        hand = self._hand[p]
        names = self._tab.names
        for k, i in enumerate(hand):
            if names[i] == name:
                del hand[k]
                return i
        raise IllegalAction(f"you do not hold {name}", "hold-card", p)

    def _summon(self, action: Summon) -> None:
        p = self._active
        i = self._take_from_hand(p, action[1])
        self._mana -= self._tab.cost[i]
        q = action[2]
        self._place(i, q, p)
        self._acts[i] = 1
        self._xatt[i] = 0
        self._fresh[i] = True
        for ab in self._tab.summoned[i]:
            self._queue.append(_ab_item(ab, p, i, q))

    def _place(self, i: int, q: int, seat: int) -> None:
        self._zone[i] = BOARD
        self._pos[i] = q
        self._ctrl[i] = seat
        self._occ[q] = (*self._occ[q], i)

    def _lift(self, i: int) -> int:
        """Take monster ``i`` off its tile; returns the tile."""
        q = self._pos[i]
        here = self._occ[q]
        self._occ[q] = () if len(here) == 1 else ((here[1],) if here[0] == i else (here[0],))
        self._pos[i] = NONE_POS
        return q

    def _reset(self, i: int) -> None:
        tab = self._tab
        self._atk[i] = tab.attack[i]
        self._def[i] = tab.defence[i]
        self._tmp[i] = self._tmpd[i] = self._acts[i] = self._xatt[i] = 0
        self._fresh[i] = False
        self._ctrl[i] = tab.owner[i]

    def _play(self, name: str) -> None:
        p = self._active
        i = self._take_from_hand(p, name)
        self._mana -= self._tab.cost[i]
        self._zone[i] = OUT
        self._out.append(i)
        for ab in self._tab.triggers[i].get("play", ()):
            self._queue.append(_ab_item(ab, p, i, NONE_POS))

    def _move(self, action: Move) -> None:
        p = self._active
        i = self.resolve_ref(action[1], p)
        assert i is not None
        self._lift(i)
        self._occ[action[2]] = (*self._occ[action[2]], i)
        self._pos[i] = action[2]
        self._acts[i] -= 1
        self._xatt[i] = 0

    def _attack(self, action: Attack) -> None:
        p = self._active
        t = action[1]
        # A legal attack's refs all resolve (asserted below).
        ids = cast("list[int]", [self.resolve_ref(r, p) for r in action[2]])
        ctrl = self._ctrl
        total = 0
        for i in ids:
            assert i is not None
            total += self._atk[i] + self._tmp[i]
            if self._acts[i] > 0:
                self._acts[i] -= 1
            else:
                self._xatt[i] -= 1
        defenders = [j for j in self._occ[t] if ctrl[j] != p]
        retaliation = sum(self._atk[j] + self._tmp[j] for j in defenders)
        killed = [j for j in defenders if self._def[j] + self._tmpd[j] <= total]
        lost = [i for i in ids if self._def[i] + self._tmpd[i] <= retaliation]
        deaths: list[tuple[int, int, int]] = []
        for j in killed:
            deaths.append((j, ctrl[j], t))
            self._kill_quietly(j)
        for i in lost:
            deaths.append((i, p, self._pos[i]))
            self._kill_quietly(i)
        survivors = [i for i in ids if i not in lost]
        flipped = False
        if killed and survivors and not self._occ[t]:
            movers = survivors if self.rules.move_in == "all" else survivors[:1]
            for i in movers:
                self._lift(i)
                self._place(i, t, p)
            if self._tiles[t] != p and not (self._tab.colour_cap and self._at_cap(p)):
                self._tiles[t] = p
                flipped = True
        for j, owner, where in deaths:
            self._killed_triggers(j, owner, where)
        if flipped:  # after the deaths' When killed are queued: elimination_killed decides whether they count
            self._check_tiles()

    def _kill_quietly(self, i: int) -> None:
        """Remove a monster from the game (its When killed abilities are queued by the caller)."""
        self._lift(i)
        self._zone[i] = OUT
        self._out.append(i)

    def _killed_triggers(self, i: int, seat: int, where: int) -> None:
        if self._end is not None:
            return
        for ab in self._tab.triggers[i].get("killed", ()):
            self._queue.append(_ab_item(ab, seat, i, where))

    def _end_turn_draw(self, k: int) -> None:
        p = self._active
        self._draw(p, k)
        if self._end is None:
            self._queue_end_of_turn(p)

    def _end_turn_obliterate(self, q: int) -> None:
        p = self._active
        if q == NONE_POS:
            self._finish((1 - p,), f"{seat_name(p)} must obliterate a tile and has none", END_DECK_OUT)
            return
        self._remove_tile(q, obliterate=True)
        self._check_tiles()
        if self._end is None:
            self._queue_end_of_turn(p)

    def _queue_end_of_turn(self, p: int) -> None:
        self._queue_turn_triggers(p, self._tab.turn_end, self._tab.turn_end_cards)
        self._queue.append(("endturn",))

    def _remove_tile(self, q: int, obliterate: bool) -> None:
        if obliterate:
            here = self._occ[q]
            for i in here:
                self._pos[i] = NONE_POS
                self._zone[i] = OUT
                self._out.append(i)
            if here and self._tab.obliterate_kills:  # obliterated="killed": When killed, after the removal
                for i in here:
                    self._killed_triggers(i, self._ctrl[i], q)
        del self._tiles[q]
        del self._occ[q]
        # Only q and its neighbours change; the dict stays in position order.
        tiles, dirs, old = self._tiles, self._tab.dirs, self._adj
        adj = {p: v for p, v in old.items() if p != q}
        for n in old[q]:
            adj[n] = tuple(n + d for d in dirs if n + d in tiles)
        self._adj = adj

    def _check_tiles(self, deferred: bool = False) -> None:
        if self.rules.elimination != "immediate" or self._end is not None:
            return
        n0 = countOf(self._tiles.values(), 0)
        counts = (n0, len(self._tiles) - n0)
        if counts[0] and counts[1]:
            return
        if self._tab.killed_first and not deferred and any(_is_killed_item(item) for item in self._queue):
            # elimination_killed="resolved": the When killed abilities waiting go first, then the check
            if ("check",) not in self._queue:
                self._queue.append(("check",))
            return
        if not counts[0] and not counts[1]:
            self._finish((0, 1), "neither player controls a tile: a shared result", END_NO_TILES)
        else:
            loser = 0 if not counts[0] else 1
            self._finish((1 - loser,), f"{seat_name(loser)} controls no tiles", END_NO_TILES)

    def _finish(self, winners: tuple[int, ...], reason: str, code: str) -> None:
        self._end = (winners, reason, code)
        self._phase = _OVER
        self.current_player = TERMINAL
        self._queue.clear()
        self._choice = None

    def _begin_turn(self, p: int) -> None:
        self._active = p
        self._taken[p] += 1
        self._turn += 1
        acts, xatt, fresh, ctrl, tiles = self._acts, self._xatt, self._fresh, self._ctrl, self._tiles
        # One pass: ready p's monsters, count them (mana), see whether one stands on an enemy tile (flip).
        monsters = 0
        flip = False
        for q, here in self._occ.items():
            for i in here:
                if ctrl[i] == p:
                    acts[i] = 1
                    xatt[i] = 0
                    fresh[i] = False
                    monsters += 1
                    if tiles[q] != p:
                        flip = True
        if self.rules.mana_count == "turn-start":
            self._mana = self._compute_mana(p, monsters)
        if flip and self._tab.colour_cap and self._at_cap(p):
            flip = False  # no tile of p's colour is left to flip one with
        if flip:
            self._phase = _FLIP
            self.current_player = p
        else:
            self._queue.append(("start",))

    def _start_flip(self, q: int) -> None:
        p = self._active
        self._phase = _MAIN
        if q != NONE_POS:
            self._flip(q, p)
        self._queue.append(("start",))

    def _flip(self, q: int, p: int) -> None:
        """``p`` flips the tile at ``q``; enemy monsters on it must be displaced."""
        self._tiles[q] = p
        for j in self._occ[q]:
            if self._ctrl[j] != p:
                self._queue.append(("disp", j, q))
        self._check_tiles()

    def _choose(self, target: int | Ref) -> None:
        self._choice = None
        self._phase = _MAIN
        if isinstance(target, int):  # a tile; a monster is a Ref (a tuple)
            self._run(target)
            return
        i = self.resolve_ref(target)
        assert i is not None
        self._run((i,))

    def _run(self, chosen: Any = None) -> None:
        """Resolve queued abilities and turn steps until a player must decide.

        The front item is resolved first (with ``chosen``, the target just chosen for
        it, if any); what it triggers is resolved next, before the rest of the queue.
        """
        queue = self._queue
        while queue and self._end is None:
            item = queue.pop(0)
            mark = len(queue)
            kind = item[0]
            follow = None
            if kind == "ab":
                follow = self._resolve(item, chosen)
            elif kind == "disp":
                follow = self._displace(item, chosen)
            elif kind == "start":
                self._start_of_turn()
            elif kind == "check":  # a tile check that waited for When killed abilities
                self._check_tiles(deferred=True)
            else:  # endturn
                self._finish_turn()
            chosen = None
            if self._end is not None:
                break
            if len(queue) > mark:  # what the item queued goes first
                new = queue[mark:]
                del queue[mark:]
                if follow is not None:
                    new.insert(0, follow)
                queue[0:0] = new
            elif follow is not None:
                queue.insert(0, follow)
            if self._phase == _CHOICE or self._phase == _FLIP:
                return
        if self._end is None and self._phase not in (_FLIP, _OPENING, _SHUFFLE):
            self._phase = _MAIN
            self.current_player = self._active

    def _start_of_turn(self) -> None:
        p = self._active
        rules = self.rules
        if rules.mana_count == "after-flip":
            self._mana = self._compute_mana(p)
        if rules.elimination == "turn-start" and p not in self._tiles.values():
            self._finish((1 - p,), f"{seat_name(p)} controls no tiles at the start of their turn", END_NO_TILES)
            return
        self._queue_turn_triggers(p, self._tab.turn_start, self._tab.turn_start_cards)
        self._phase = _MAIN

    def _queue_turn_triggers(self, p: int, table: tuple[tuple[Ability, ...], ...], cards: tuple[int, ...]) -> None:
        """Queue the abilities in ``table`` of ``p``'s monsters on the board, in board order
        (``cards``: the instances that have such abilities)."""
        zone, ctrl, pos = self._zone, self._ctrl, self._pos
        ready = [i for i in cards if zone[i] == BOARD and ctrl[i] == p]
        if not ready:
            return
        if len(ready) > 1:
            occ = self._occ
            ready.sort(key=lambda i: (pos[i], occ[pos[i]].index(i)))
        queue = self._queue
        for i in ready:
            for ab in table[i]:
                queue.append(_ab_item(ab, p, i, pos[i]))

    def _finish_turn(self) -> None:
        if any(self._tmp) or any(self._tmpd):
            n = len(self._tmp)
            self._tmp = [0] * n
            self._tmpd = [0] * n
        p = self._active
        if self._turn >= self.rules.max_turns:
            counts = [self.tile_count(0), self.tile_count(1)]
            if counts[0] == counts[1]:
                self._finish(
                    (0, 1), f"turn limit ({self.rules.max_turns}): equal tiles, a shared result", END_TURN_LIMIT
                )
            else:
                w = 0 if counts[0] > counts[1] else 1
                self._finish(
                    (w,), f"turn limit ({self.rules.max_turns}): {seat_name(w)} controls more tiles", END_TURN_LIMIT
                )
            return
        self._begin_turn(1 - p)

    # -- abilities --

    def _wait(self, chooser: int, options: list[Any]) -> None:
        self._choice = (chooser, tuple(options))
        self._phase = _CHOICE
        self.current_player = chooser

    def _resolve(self, item: tuple[Any, ...], chosen: Any) -> tuple[Any, ...] | None:
        """Resolve one ability step. Returns what must come next: the same item again
        (waiting for a choice, or for its next target), or ``None`` when it is done."""
        _, ab, p, src, where, left, done = item
        if chosen is None:
            if (
                not done
                and ab.trigger in ("summoned", "turn_start", "turn_end")
                and (self._zone[src] != BOARD or self._ctrl[src] != p)
            ):
                return None  # the monster is gone (or no longer theirs): the ability does not activate
            condition = ab.condition
            if not done and condition is not None and not condition.holds(self.condition_count(condition.count, p)):
                return None
            if not done:
                self._fired += ((src, ab, p),)
        e = ab.effect
        if e == "draw":
            self._draw(p if ab.target == "you" else 1 - p, ab.amount)
            return None
        if ab.target == "self":
            if self._zone[src] == BOARD and self._ctrl[src] == p:
                self._apply_to_monster(ab, p, src)
            return None
        if chosen is None:
            options = [t for t in self.targets(ab, p, src, where) if t not in done]
            if not options:
                return None  # no valid target (left): the ability, or what is left of it, is ignored
            if len(options) > 1:
                self._wait(p, options)
                return item
            chosen = options[0]
        if type(chosen) is int:
            self._apply_to_tile(ab, p, chosen)
        else:
            self._apply_to_monster(ab, p, chosen[0])
        if left > 1:
            return ("ab", ab, p, src, where, left - 1, (*done, chosen))
        return None

    def condition_count(self, what: str, p: int) -> int:
        """What an ability's condition counts for seat ``p`` (``friendly_tiles``, ``enemy_monsters``,
        …; anything else: ``p``'s hand)."""
        if what == "friendly_tiles":
            return self.tile_count(p)
        if what == "enemy_tiles":
            return self.tile_count(1 - p)
        if what == "friendly_monsters":
            return len(self.monsters(p))
        if what == "enemy_monsters":
            return len(self.monsters(1 - p))
        return len(self._hand[p])

    def targets(self, ab: Ability, p: int, src: int, where: int) -> list[Any]:
        """The valid targets of ``ab`` resolving now for seat ``p`` from card ``src`` (``where``:
        its tile, when it is not on the board): tile positions (``int``) or monsters
        (``(instance,)``), in board order."""
        target = ab.target
        f = ab.filter
        adj_src = None
        if f.adjacent:
            here = self._pos[src] if self._zone[src] == BOARD else where
            if here == NONE_POS:
                return []
            adj_src = {here + d for d in self._tab.dirs}
        e = ab.effect
        if e == "add_tile":
            return self._add_positions(p if target == "you" else 1 - p)
        if e == "flip_tile" and self._tab.colour_cap and self._at_cap(p):
            return []  # p has no tile of its colour left to flip with
        out: list[Any] = []
        if target in ("friendly_tile", "enemy_tile", "any_tile"):
            for q in self._occ:  # board order
                o = self._tiles[q]
                if (target == "friendly_tile" and o != p) or (target == "enemy_tile" and o == p):
                    continue
                if (f.empty or e == "destroy_tile") and self._occ[q]:
                    continue
                if adj_src is not None and q not in adj_src:
                    continue
                out.append(q)
            return out
        for q, on_tile in self._occ.items():  # board order
            if adj_src is not None and q not in adj_src:
                continue
            for i in on_tile:
                c = self._ctrl[i]
                if (target == "friendly_monster" and c != p) or (target == "enemy_monster" and c == p):
                    continue
                if f.attack_at_most is not None and self._filter_attack(i) > f.attack_at_most:
                    continue
                if f.defence_at_most is not None and self.defence_of(i) > f.defence_at_most:
                    continue
                out.append((i,))
        return out

    def _filter_attack(self, i: int) -> int:
        """Monster ``i``'s attack as an ability filter sees it: its own, or under
        ``tile_attack="filters"`` on its controller's opponent's turn the total attack of its
        controller's monsters on its tile ("REMEMBER on your opponent's turn …")."""
        if not self._tab.tile_total_filters or self._ctrl[i] == self._active:
            return self.attack_of(i)
        c = self._ctrl[i]
        return sum(self.attack_of(j) for j in self._occ[self._pos[i]] if self._ctrl[j] == c)

    def _apply_to_tile(self, ab: Ability, p: int, q: int) -> None:
        e = ab.effect
        if e == "add_tile":
            owner = p if ab.target == "you" else 1 - p
            self._tiles[q] = owner
            occ = self._occ
            occ[q] = ()
            self._occ = {p: occ[p] for p in sorted(occ)}
            tiles, dirs = self._tiles, self._tab.dirs
            adj = dict(self._adj)
            adj[q] = tuple(q + d for d in dirs if q + d in tiles)
            for n in adj[q]:
                adj[n] = tuple(n + d for d in dirs if n + d in tiles)
            self._adj = {p: adj[p] for p in sorted(adj)}
        elif e == "flip_tile":
            self._flip(q, p)
        elif e == "destroy_tile":
            self._remove_tile(q, obliterate=False)
            self._check_tiles()
        elif e == "obliterate_tile":
            self._remove_tile(q, obliterate=True)
            self._check_tiles()

    def _apply_to_monster(self, ab: Ability, p: int, i: int) -> None:
        e = ab.effect
        if e == "kill":
            seat, where = self._ctrl[i], self._pos[i]
            self._kill_quietly(i)
            self._killed_triggers(i, seat, where)
        elif e == "return_to_hand":
            self._return_to_hand(i)
        elif e == "take_control":
            self._ctrl[i] = p
            if ab.exhausted:
                self._acts[i] = self._xatt[i] = 0
        elif e == "gain_attack":
            if ab.until:
                self._tmp[i] += ab.amount
            else:
                self._atk[i] += ab.amount
        elif e == "gain_defence":
            if ab.until:
                self._tmpd[i] += ab.amount
            else:
                self._def[i] += ab.amount
        elif e == "extra_attack":
            self._xatt[i] += ab.amount
        elif e == "extra_action":
            self._acts[i] += ab.amount

    def _return_to_hand(self, i: int, seat: int | None = None) -> None:
        """Monster ``i`` back to its owner's hand (or to ``seat``'s)."""
        self._lift(i)
        self._reset(i)
        owner = self._tab.owner[i] if seat is None else seat
        self._zone[i] = HAND
        hand = self._hand[owner]
        hand.append(i)
        if len(hand) >= HAND_LIMIT:
            self._finish((1 - owner,), f"{seat_name(owner)} has {HAND_LIMIT} cards in hand", END_HAND)

    def _displace(self, item: tuple[Any, ...], chosen: Any) -> tuple[Any, ...] | None:
        """A monster on a tile just flipped by the enemy: its controller moves it to an
        adjacent tile of theirs with room, else it returns to its owner's hand."""
        _, i, q = item
        if self._zone[i] != BOARD or self._pos[i] != q or self._tiles.get(q) == self._ctrl[i]:
            return None
        seat = self._ctrl[i]
        if chosen is None:
            options = sorted(
                d for d in self._adj.get(q, ()) if self._tiles[d] == seat and len(self._occ[d]) < MAX_PER_TILE
            )
            if not options:
                self._return_to_hand(i, seat if self._tab.displaced_to_controller else None)
                return None
            if len(options) > 1:
                self._wait(seat, options)
                return item
            chosen = options[0]
        self._lift(i)
        self._occ[chosen] = (*self._occ[chosen], i)
        self._pos[i] = chosen
        return None

    # -- the rest of the protocol --

    def sample_chance(self) -> Shuffle:
        if self.current_player != CHANCE:
            raise IllegalAction("nothing is shuffled now", "not-chance")
        orders = []
        for deck in self.rules.decks:
            order = list(range(deck.size))
            self.rng.shuffle(order)
            orders.append(order)
        return Shuffle(orders)

    def outcome(self) -> Outcome | None:
        if self._end is None:
            return None
        winners, reason, _ = self._end
        return Outcome(winners=winners, scores=(float(self.tile_count(0)), float(self.tile_count(1))), reason=reason)

    def facts(self) -> dict[str, Any]:
        """What simulation reports need of a game: its length, the opening draws, how it ended,
        and by seat the names of the cards drawn at any point and of those in the opening hand."""
        drawn: list[list[str]] = [[], []]
        opening: list[list[str]] = [[], []]
        first = self.history[0] if self.history else None
        if isinstance(first, Shuffle):
            # Computed once at the end from the shuffle: no card goes back into a deck, so the
            # cards drawn are the top (deck size - cards left) of each shuffled order.
            for seat, order in enumerate(first.orders):
                base = self._tab.offset[seat]
                taken = len(order) - len(self._deck[seat])
                drawn[seat] = sorted({self._tab.names[base + k] for k in order[:taken]})
                opening[seat] = sorted({self._tab.names[base + k] for k in order[: self._openings[seat] or 0]})
        return {
            "turns": self._turn,
            "turns_taken": list(self._taken),
            "openings": list(self._openings),
            "end": self.end_code,
            "drawn": drawn,
            "opening_hand": opening,
        }

    def clone(self) -> MeaState:
        new = self._copy()
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        new.rng = rng
        new.history = list(self.history)
        return new

    def search_copy(self) -> MeaState:
        """A copy for a search's playout: its own position, the RNG shared with this state, an
        empty history (cheaper than :meth:`clone`; not a record of the game)."""
        new = self._copy()
        new.history = []
        return new

    def _copy(self) -> MeaState:
        """A copy sharing the RNG and history (for search rollouts)."""
        new = object.__new__(MeaState)
        new.rules = self.rules
        new.seed = self.seed
        new.rng = self.rng
        new.history = self.history
        new._tab = self._tab
        new._zone = self._zone[:]
        new._ctrl = self._ctrl[:]
        new._pos = self._pos[:]
        new._atk = self._atk[:]
        new._def = self._def[:]
        new._tmp = self._tmp[:]
        new._tmpd = self._tmpd[:]
        new._acts = self._acts[:]
        new._xatt = self._xatt[:]
        new._fresh = self._fresh[:]
        new._deck = [self._deck[0][:], self._deck[1][:]]
        new._hand = [self._hand[0][:], self._hand[1][:]]
        new._out = self._out[:]
        new._tiles = self._tiles.copy()
        new._occ = self._occ.copy()
        new._adj = self._adj
        new._queue = self._queue[:]
        new._fired = self._fired
        new._choice = self._choice
        new._openings = self._openings[:]
        new._taken = self._taken[:]
        new._turn = self._turn
        new._mana = self._mana
        new._active = self._active
        new._end = self._end
        new._legal = self._legal if type(self._legal) is tuple else None  # a lazy list reads its state
        new._phase = self._phase
        new.current_player = self.current_player
        return new

    def observation(self, player: int) -> MeaObservation:
        if player not in (0, 1, SPECTATOR):
            raise ValueError(f"no seat {player} in a 2-player game")
        return MeaObservation(player, self._redacted(player))

    def _redacted(self, player: int) -> MeaState:
        """A copy without what ``player`` cannot see: the other hand (both, for the
        spectator), both decks' order, the seed, the RNG and the history (which holds the shuffle)."""
        view = self._copy()
        view._legal = None
        view.seed = None
        view.rng = _VIEW_RNG
        view.history = []
        zone = view._zone
        owner = self._tab.owner
        # A card of one seat's own in another's hand got there in plain sight (a monster taken
        # control of, displaced under displaced_to="controller"): it stays known.
        for seat in (0, 1):
            if seat != player:
                for i in self._hand[seat]:
                    if owner[i] == seat:
                        zone[i] = UNKNOWN
                view._hand[seat] = [i if owner[i] != seat else -1 for i in self._hand[seat]]
            for i in self._deck[seat]:
                zone[i] = UNKNOWN
        view._deck = [[-1] * len(self._deck[0]), [-1] * len(self._deck[1])]
        return view

    def action_text(self, action: Any, viewer: int | None = None) -> str:
        if isinstance(action, Shuffle) and viewer is not None:
            return "the decks are shuffled"
        return str(action)

    def parse_action(self, text: str) -> MeaAction:
        """Like :func:`parse_action`, with card names in any case, and a monster named
        without ``#k`` resolved to the one that can act."""
        action = self.rules.parse_action(text)
        p = self.current_player
        if p < 0:
            return action
        if isinstance(action, Move | Attack):
            refs = [action[1]] if isinstance(action, Move) else list(action[2])
            fixed = []
            for r in refs:
                i = self._resolve_ref_acting(r, p)
                fixed.append(self.ref_of(i) if i is not None else r)
            if isinstance(action, Move):
                return Move(fixed[0], action[2])
            return _canonical(Attack(action[1], fixed), self._tab)
        if isinstance(action, Choose) and isinstance(action[1], Ref):
            ref = action[1]
            if self._phase == _CHOICE and self._choice is not None and not ref[2]:
                for t in self._choice[1]:  # the option with that name on that tile
                    if type(t) is not int and self._pos[t[0]] == ref[1] and self._tab.names[t[0]] == ref[0]:
                        return Choose(self.ref_of(t[0]))
            i = self.resolve_ref(ref)
            if i is not None:
                return Choose(self.ref_of(i))
        return action

    def _resolve_ref_acting(self, ref: Ref, p: int) -> int | None:
        occ = self._occ.get(ref[1], ())
        same = [i for i in occ if self._tab.names[i] == ref[0] and self._ctrl[i] == p]
        if ref[2] or len(same) < 2:
            return self.resolve_ref(ref, p)
        for i in same:
            if self.can_attack(i):
                return i
        return same[0]

    def __repr__(self) -> str:
        return (
            f"<MeaState turn {self._turn} {PHASE_NAMES[self._phase]} active {seat_name(self._active)} "
            f"to act: {self.current_player}>"
        )

    # -- integer steps and tensors (see cardbase.games.base) --

    def _place_code(self, i: int, origin: int) -> int:
        """Monster ``i`` as an attacker of ``origin``, or the monster on the tile ``origin`` moves
        from: its direction from ``origin`` × 2 + its place on its tile (arrival order)."""
        q = self._pos[i]
        return self._tab_ids.dir_index[q - origin] * 2 + self._occ[q].index(i)

    @property
    def _tab_ids(self) -> _Ids:
        return self.rules.ids()

    def _attack_id(self, t: int, attackers: Sequence[int]) -> int:
        ids = self._tab_ids
        x = self._place_code(attackers[0], t)
        y = self._place_code(attackers[1], t) if len(attackers) == 2 else x
        if len(attackers) == 2 and not self._tab.first_moves_in and y < x:
            x, y = y, x
        width = 2 * len(ids.dirs)
        return ids.attack + self._tab.cell_of[t] * width * width + x * width + y

    def legal_ids(self, prefix: Sequence[int] = ()) -> list[int]:
        p = self.current_player
        if p == TERMINAL:
            return []
        if p == CHANCE:
            return [i for i, _ in self.chance_ids(prefix)]
        if prefix:
            raise ValueError("a Méa action is one step")
        legal = self.legal_actions()
        if isinstance(legal, MainActions):
            return sorted(legal.ids())
        if isinstance(legal, ChoiceActions):
            return sorted(legal.ids())
        return sorted(self.action_ids(a)[0] for a in legal)

    def _shuffle_left(self, prefix: Sequence[int]) -> tuple[int, list[int]]:
        """Which deck the next shuffle step orders (0 or 1) and its positions not placed yet."""
        first = self.rules.decks[0].size
        seat = 0 if len(prefix) < first else 1
        placed = set(prefix[:first] if seat == 0 else prefix[first:])
        return seat, [k for k in range(self.rules.decks[seat].size) if k not in placed]

    def chance_ids(self, prefix: Sequence[int] = ()) -> list[tuple[int, float]]:
        if self.current_player != CHANCE:
            return []
        _, left = self._shuffle_left(prefix)
        chance = 1 / len(left)
        return [(k, chance) for k in left]

    def action_from_ids(self, ids: Sequence[int]) -> MeaAction | None:
        if not ids:
            return None
        if self.current_player == CHANCE:
            first = self.rules.decks[0].size
            if len(ids) < first + self.rules.decks[1].size:
                return None
            return Shuffle([ids[:first], ids[first:]])
        (step,) = ids
        t = self._tab_ids
        cells = self._tab.cells
        occ = self._occ
        if step < t.summon:
            return _DRAWS[step + 1] if step + 1 < len(_DRAWS) else Draw(step + 1)
        if step < t.play:
            m, c = divmod(step - t.summon, t.cells)
            return _summon(t.names[m], cells[c])
        if step < t.move:
            return Play(t.names[t.monsters + step - t.play])
        if step < t.attack:
            where, d = divmod(step - t.move, len(t.dirs))
            c, slot = divmod(where, 2)
            q = cells[c]
            return Move(self.ref_of(occ[q][slot]), q + t.dirs[d])
        if step < t.flip:
            width = 2 * len(t.dirs)
            c, code = divmod(step - t.attack, width * width)
            target = cells[c]
            x, y = divmod(code, width)
            refs = []
            for k in (x, y) if x != y else (x,):
                d, slot = divmod(k, 2)
                refs.append(self.ref_of(occ[target + t.dirs[d]][slot]))
            return _canonical(Attack(target, refs), self._tab)
        if step < t.obliterate:
            c = step - t.flip
            return _flip(NONE_POS if c == t.cells else cells[c])
        if step < t.choose_tile:
            c = step - t.obliterate
            return Obliterate(NONE_POS if c == t.cells else cells[c])
        if step < t.choose_monster:
            return _choose_tile(cells[step - t.choose_tile])
        c, slot = divmod(step - t.choose_monster, 2)
        return Choose(self.ref_of(occ[cells[c]][slot]))

    def action_ids(self, action: Any) -> tuple[int, ...]:
        if isinstance(action, Shuffle):
            return tuple(k for order in action.orders for k in order)
        t = self._tab_ids
        cell_of = self._tab.cell_of
        kind = action[0]
        if kind == "draw":
            return (t.draw + action[1] - 1,)
        if kind == "summon":
            return (t.summon + t.name_index[action[1]] * t.cells + cell_of[action[2]],)
        if kind == "play":
            return (t.play + t.name_index[action[1]] - t.monsters,)
        p = self.current_player
        if kind == "move":
            i = self.resolve_ref(action[1], p)
            assert i is not None, f"{action} names no monster"
            q = self._pos[i]
            where = cell_of[q] * 2 + self._occ[q].index(i)
            return (t.move + where * len(t.dirs) + t.dir_index[action[2] - q],)
        if kind == "attack":
            ids = [self.resolve_ref(r, p) for r in action[2]]
            assert None not in ids, f"{action} names no monster"
            return (self._attack_id(action[1], cast("list[int]", ids)),)
        if kind in ("flip", "obliterate"):
            base = t.flip if kind == "flip" else t.obliterate
            return (base + (t.cells if action[1] == NONE_POS else cell_of[action[1]]),)
        target = action[1]
        if type(target) is int:
            return (t.choose_tile + cell_of[target],)
        i = self.resolve_ref(target)
        assert i is not None, f"{action} names no monster"
        q = self._pos[i]
        return (t.choose_monster + cell_of[q] * 2 + self._occ[q].index(i),)

    def information_state_key(self, seat: int, prefix: Sequence[int] = ()) -> str:
        """The seat's observation (:meth:`MeaObservation.public`), as text."""
        return repr(sorted(self.observation(seat).public().items()))

    def observation_tensor(self, seat: int, prefix: Sequence[int] = ()) -> list[float]:
        if seat not in (0, 1):
            raise ValueError(f"no seat {seat} in a 2-player game")
        ids = self._tab_ids
        tab = self._tab
        names = len(ids.names)
        index = ids.name_index
        tiles = [0.0] * (2 * ids.cells)
        monsters = [0.0] * (16 * ids.cells)
        which = [0.0] * (2 * names * ids.cells)
        for q, owner in self._tiles.items():
            c = tab.cell_of[q]
            tiles[2 * c + (owner != seat)] = 1.0
            for slot, i in enumerate(self._occ[q]):
                at = (2 * c + slot) * 8
                monsters[at : at + 8] = [
                    1.0,
                    float(self._ctrl[i] == seat),
                    float(tab.owner[i] == seat),
                    float(self.attack_of(i)),
                    float(self.defence_of(i)),
                    float(self.can_move(i)),
                    float(self.can_attack(i)),
                    float(self._fresh[i]),
                ]
                which[(2 * c + slot) * names + index[tab.names[i]]] = 1.0
        hand = [0.0] * names
        for i in self._hand[seat]:
            hand[index[tab.names[i]]] += 1.0
        out = [0.0] * names
        for i in self._out:
            out[index[tab.names[i]]] += 1.0
        phase = [0.0] * len(PHASE_NAMES)
        phase[self._phase] = 1.0
        other = 1 - seat
        return [
            *tiles,
            *monsters,
            *which,
            *hand,
            *out,
            float(len(self._hand[seat])),
            float(len(self._hand[other])),
            float(len(self._deck[seat])),
            float(len(self._deck[other])),
            float(self._mana),
            float(self._taken[seat]),
            float(self._taken[other]),
            *phase,
            float(self._active == seat),
            float(self.current_player == seat),
        ]

    def resample_from_infostate(self, seat: int, rng: random.Random) -> MeaState:
        """The search agents' deal (:meth:`determinise`): the cards ``seat`` cannot see dealt at
        random into the other hand and both decks."""
        return self.observation(seat).view.determinise(seat, rng)

    # -- for determinised search --

    def determinise(self, player: int, rng: random.Random, known: Collection[int] = ()) -> MeaState:
        """From a redacted view (an observation's), a full state: the unseen cards
        dealt at random into the other hand and both decks. Pure sampling, no
        inference from play, but for ``known``: cards of the other seat's known to be in its
        hand (seen going back to it), each swapped in (when the deal left it in the deck)
        for a random card of the deal's that is not known. The result's history and seed are
        empty."""
        state = self._copy()
        state._legal = None
        state.rng = random.Random(rng.getrandbits(32))
        state.history = []
        owner = self._tab.owner
        zone = state._zone = state._zone[:]
        opp = 1 - player
        pools: list[list[int]] = [[], []]
        for i, z in enumerate(zone):
            if z == UNKNOWN:
                pools[owner[i]].append(i)
        for seat in (0, 1):
            rng.shuffle(pools[seat])
        seen = [i for i in self._hand[opp] if i >= 0]
        hand_size = len(self._hand[opp]) - len(seen)
        hand = seen + pools[opp][:hand_size]
        for i in hand:
            zone[i] = HAND
        state._hand = [self._hand[0][:], self._hand[1][:]]
        state._hand[opp] = hand
        decks: list[list[int]] = [[], []]
        decks[opp] = pools[opp][hand_size:]
        decks[player] = pools[player]
        for seat in (0, 1):
            for i in decks[seat]:
                zone[i] = DECK
        state._deck = decks
        if known:
            deck = decks[opp]
            spare = [k for k, j in enumerate(hand) if j not in known and owner[j] == opp]
            for i in sorted(known):
                if zone[i] == HAND or not spare or i not in deck:
                    continue
                k = spare.pop(rng.randrange(len(spare)))
                j = hand[k]
                hand[k] = i
                deck[deck.index(i)] = j
                zone[i], zone[j] = HAND, DECK
        return state


def _is_killed_item(item: tuple[Any, ...]) -> bool:
    """Whether a queued item is a When killed ability."""
    return item[0] == "ab" and bool(item[1].trigger == "killed")


class _LazyActions(Sequence[MeaAction]):
    """Legal actions listed lazily: ``len`` and indexing build only the actions asked
    for (all a random player needs); iterating, ``in`` and ``==`` build them all, once.
    A lazy list reads its state: it is valid until the state changes."""

    __slots__ = ("_all", "_state")

    _state: MeaState
    _all: tuple[MeaAction, ...] | None

    def _build_all(self) -> list[MeaAction]:
        raise NotImplementedError

    def materialise(self) -> tuple[MeaAction, ...]:
        """Every action, built once."""
        if self._all is None:
            self._all = tuple(self._build_all())
        return self._all

    def __iter__(self) -> Iterator[MeaAction]:
        return iter(self.materialise())

    def __contains__(self, action: object) -> bool:
        return action in self.materialise()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, _LazyActions):
            return self.materialise() == other.materialise()
        if isinstance(other, tuple | list):
            return list(self.materialise()) == list(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.materialise())

    def __repr__(self) -> str:
        return f"<{len(self)} legal actions>"


class ChoiceActions(_LazyActions):
    """The choice phase's legal actions: ``choose`` each option in turn (tiles, or
    monsters in board order)."""

    __slots__ = ("_options",)

    def __init__(self, state: MeaState, options: tuple[Any, ...]):
        self._state = state
        self._all = None
        self._options = options

    def __len__(self) -> int:
        return len(self._options)

    def __getitem__(self, k: int) -> MeaAction:  # type: ignore[override]
        t = self._options[k]
        return _choose_tile(t) if type(t) is int else Choose(self._state.ref_of(t[0]))

    def _build_all(self) -> list[MeaAction]:
        return [self[k] for k in range(len(self._options))]

    def ids(self) -> list[int]:
        """The actions' integer ids (see :class:`_Ids`), in this order."""
        state = self._state
        t = state._tab_ids
        cell_of = state._tab.cell_of
        out = []
        for option in self._options:
            if type(option) is int:
                out.append(t.choose_tile + cell_of[option])
            else:
                i = option[0]
                q = state._pos[i]
                out.append(t.choose_monster + cell_of[q] * 2 + state._occ[q].index(i))
        return out


class MainActions(_LazyActions):
    """The main phase's legal actions. In order: summons (by card in hand order, then
    tile), assists, moves (by monster in board order, then tile), attacks (by target
    tile; single attackers, then pairs, each pair in both orders under ``move_in="first"``), then
    the turn-ending draws or obliterations."""

    __slots__ = (
        "_attacks",
        "_blocked",
        "_bounds",
        "_ends",
        "_movers",
        "_n",
        "_plays",
        "_summon_names",
        "_summon_tiles",
    )

    def __init__(self, state: MeaState):
        self._state = state
        self._all: tuple[MeaAction, ...] | None = None
        p = state._active
        tab = state._tab
        ctrl = state._ctrl
        tiles = state._tiles
        # One pass over the tiles: where p may summon, where p's monsters may not go,
        # which tiles hold enemy monsters, and p's monsters in board order.
        summon_tiles = []
        blocked = set()
        enemy_tiles: dict[int, tuple[int, ...]] = {}
        share = tab.move_onto_enemy  # a lone enemy monster does not block a move
        mine: list[int] = []
        for q, here in state._occ.items():  # board order
            if not here:
                if tiles[q] == p:
                    summon_tiles.append(q)
            elif len(here) == 1:
                a = here[0]
                if ctrl[a] == p:
                    mine.append(a)
                    if tiles[q] == p:
                        summon_tiles.append(q)
                else:
                    if not share:
                        blocked.add(q)
                    enemy_tiles[q] = here
            else:
                a, b = here
                blocked.add(q)
                if ctrl[a] == p:
                    mine.append(a)
                    if ctrl[b] == p:
                        mine.append(b)
                    else:
                        enemy_tiles[q] = (b,)
                elif ctrl[b] == p:
                    enemy_tiles[q] = (a,)
                    mine.append(b)
                else:
                    enemy_tiles[q] = here
        summon_names: list[str] = []
        plays: list[str] = []
        mana = state._mana
        cost, names, monster = tab.cost, tab.names, tab.monster
        for i in state._hand[p]:
            if cost[i] <= mana:
                nm = names[i]
                if monster[i]:
                    if summon_tiles and nm not in summon_names:
                        summon_names.append(nm)
                elif nm not in plays:
                    plays.append(nm)
        adj, acts, pos, xatt = state._adj, state._acts, state._pos, state._xatt
        # Moves are counted here and built on demand; attackers are grouped by the enemy
        # tile they touch (enemy tiles are blocked tiles: a monster with no blocked
        # neighbour has nothing to attack).
        movers: list[Any] = []
        n_moves = 0
        near: dict[int, list[int]] = {}
        for i in mine:
            if acts[i] > 0:
                nbrs = adj[pos[i]]
                if blocked.isdisjoint(nbrs):
                    movers.append((i, len(nbrs), nbrs))
                    n_moves += len(nbrs)
                    if not share:  # no blocked neighbour: no enemy next to it
                        continue
                else:
                    k = len(nbrs) - len(blocked.intersection(nbrs))
                    if k:
                        movers.append((i, k, nbrs))
                        n_moves += k
            elif xatt[i] > 0:
                nbrs = adj[pos[i]]
            else:
                continue
            for t in nbrs:
                if t in enemy_tiles:
                    if t in near:
                        near[t].append(i)
                    else:
                        near[t] = [i]
        attacks: list[tuple[int, ...]] = []
        if near:
            atk, tmp, fresh = state._atk, state._tmp, state._fresh
            defence, tmpd = state._def, state._tmpd
            attack_all, first_moves_in = tab.attack_all, tab.first_moves_in
            for t, foes in enemy_tiles.items():  # board order
                cands = near.get(t)
                if cands is None:
                    continue
                if len(foes) == 1:
                    j = foes[0]
                    need = defence[j] + tmpd[j]
                else:
                    d0 = defence[foes[0]] + tmpd[foes[0]]
                    d1 = defence[foes[1]] + tmpd[foes[1]]
                    need = (d0 if d0 > d1 else d1) if attack_all else (d0 if d0 < d1 else d1)
                if len(cands) == 1:
                    i = cands[0]
                    if atk[i] + tmp[i] >= need:
                        attacks.append((t, i))
                    continue
                for k, i in enumerate(cands):
                    a = atk[i] + tmp[i]
                    if a >= need:
                        attacks.append((t, i))
                    for j in cands[k + 1 :]:
                        if fresh[i] and fresh[j]:
                            continue
                        if a + atk[j] + tmp[j] >= need:
                            attacks.append((t, i, j))
                            if first_moves_in:  # which of the two moves in is the player's choice
                                attacks.append((t, j, i))
        ends: Sequence[MeaAction] = state._draws(p)
        if not ends:
            own = [q for q in state._occ if tiles[q] == p]  # board order
            ends = tuple(Obliterate(q) for q in own) if own else (Obliterate(NONE_POS),)
        self._summon_names = summon_names
        self._summon_tiles = summon_tiles
        self._plays = plays
        self._movers = movers
        self._blocked = blocked
        self._attacks = attacks
        self._ends = ends
        # Where each kind of action starts and ends in the sequence.
        b1 = len(summon_names) * len(summon_tiles)
        b2 = b1 + len(plays)
        b3 = b2 + n_moves
        b4 = b3 + len(attacks)
        self._bounds = (b1, b2, b3, b4)
        self._n = b4 + len(ends)

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, k: int) -> MeaAction:  # type: ignore[override]
        if k < 0:
            k += self._n
        if not 0 <= k < self._n:
            raise IndexError(k)
        b1, b2, b3, b4 = self._bounds
        if k >= b4:
            return self._ends[k - b4]
        if k < b1:
            nt = len(self._summon_tiles)
            return _summon(self._summon_names[k // nt], self._summon_tiles[k % nt])
        if k < b2:
            return Play(self._plays[k - b1])
        if k < b3:
            k -= b2
            for i, n, nbrs in self._movers:
                if k < n:
                    if n < len(nbrs):
                        blocked = self._blocked
                        nbrs = [d for d in nbrs if d not in blocked]
                    return Move(self._state.ref_of(i), nbrs[k])
                k -= n
        return self._attack(self._attacks[k - b3])

    def __contains__(self, action: object) -> bool:
        """Whether ``action`` is one of these, found by its kind without building them all."""
        if self._all is not None:
            return action in self._all
        if not isinstance(action, tuple) or len(action) < 2:
            return False
        kind = action[0]
        if kind == "summon":
            return len(action) == 3 and action[1] in self._summon_names and action[2] in self._summon_tiles
        if kind == "play":
            return len(action) == 2 and action[1] in self._plays
        if kind == "move":
            if len(action) != 3:
                return False
            ref, dst = action[1], action[2]
            if not isinstance(ref, tuple) or len(ref) != 3:
                return False  # not a monster: no move's
            state, blocked = self._state, self._blocked
            pos = state._pos
            return any(
                pos[i] == ref[1] and state.ref_of(i) == ref and any(d == dst and d not in blocked for d in nbrs)
                for i, _, nbrs in self._movers
            )
        if kind == "attack":
            return len(action) == 3 and any(
                spec[0] == action[1] and self._attack(spec) == action for spec in self._attacks
            )
        return action in self._ends

    # What the actions are made of, in their order, without building them (for agents that
    # score every action): monsters are the state's (and any copy's) card instance numbers.

    @property
    def summon_cards(self) -> Sequence[str]:
        """The monsters that can be summoned, by name in hand order: the summons are each of
        these onto each of :attr:`summon_tiles`, first in the sequence."""
        return self._summon_names

    @property
    def summon_tiles(self) -> Sequence[int]:
        """The tiles a monster can be summoned onto, in board order."""
        return self._summon_tiles

    @property
    def assists(self) -> Sequence[str]:
        """The assists that can be played, by name in hand order: after the summons."""
        return self._plays

    def moves_by_monster(self) -> Iterator[tuple[int, Sequence[int]]]:
        """Each monster that can move (an instance) with the tiles it can move to, in the
        sequence's order: after the assists."""
        blocked = self._blocked
        for i, n, nbrs in self._movers:
            yield i, (nbrs if n == len(nbrs) else [d for d in nbrs if d not in blocked])

    @property
    def ends(self) -> Sequence[MeaAction]:
        """The turn-ending actions (draws, or obliterations with an empty deck), last."""
        return self._ends

    @property
    def attack_specs(self) -> Sequence[tuple[int, ...]]:
        """The attacks as ``(tile, instance[, instance])`` in the sequence's order (after the
        moves; the attackers in the order the action lists them under ``move_in="first"``)."""
        return self._attacks

    def _moves(self) -> list[Move]:
        state = self._state
        out: list[Move] = []
        for i, _, nbrs in self._movers:
            ref = state.ref_of(i)
            out.extend(Move(ref, d) for d in nbrs if d not in self._blocked)
        return out

    def _attack(self, spec: tuple[int, ...]) -> Attack:
        """The attack ``(tile, attacker[, attacker])``: attackers in the spec's order under
        ``move_in="first"`` (both orders are listed), else in board order."""
        ref_of = self._state.ref_of
        attack = Attack(spec[0], [ref_of(i) for i in spec[1:]])
        return attack if self._state._tab.first_moves_in else attack.in_board_order()

    def ids(self) -> list[int]:
        """The actions' integer ids (see :class:`_Ids`), in this order, without building them."""
        state = self._state
        t = state._tab_ids
        cell_of = state._tab.cell_of
        out = [
            t.summon + t.name_index[n] * t.cells + cell_of[q] for n in self._summon_names for q in self._summon_tiles
        ]
        out.extend(t.play + t.name_index[n] - t.monsters for n in self._plays)
        pos, occ, dirs = state._pos, state._occ, len(t.dirs)
        for i, _, nbrs in self._movers:
            q = pos[i]
            base = t.move + (cell_of[q] * 2 + occ[q].index(i)) * dirs
            out.extend(base + t.dir_index[d - q] for d in nbrs if d not in self._blocked)
        out.extend(state._attack_id(spec[0], spec[1:]) for spec in self._attacks)
        out.extend(state.action_ids(a)[0] for a in self._ends)
        return out

    def _build_all(self) -> list[MeaAction]:
        out: list[MeaAction] = [_summon(n, q) for n in self._summon_names for q in self._summon_tiles]
        out.extend(Play(n) for n in self._plays)
        out.extend(self._moves())
        out.extend(self._attack(a) for a in self._attacks)
        out.extend(self._ends)
        return out


# --- observation -----------------------------------------------------------------


class _ViewRandom(random.Random):
    """The RNG of a view (an observation's redacted state): one shared instance, in the state
    ``random.Random(0)`` has (which ``clone`` copies), that refuses to draw: a view deals nothing
    (``determinise`` deals with the agent's RNG), and a fresh ``Random(0)`` per observation was a
    third of an observation's cost."""

    def random(self) -> float:
        raise RuntimeError("a view's RNG deals nothing: determinise the view first")

    def getrandbits(self, k: int) -> int:
        raise RuntimeError("a view's RNG deals nothing: determinise the view first")


_VIEW_RNG = _ViewRandom(0)


class MeaObservation:
    """What one player sees: the board, their own hand, the sizes of the rest (the
    spectator, ``player`` :data:`~cardbase.games.base.SPECTATOR`: no hand at all).

    ``view`` is a copy of the state with the hidden parts removed (the other hand,
    the decks' order, the seed, the history); :meth:`public` is the whole of what
    the player knows, as plain data.
    """

    __slots__ = ("player", "view")

    def __init__(self, player: int, view: MeaState):
        self.player = player
        self.view = view

    @property
    def rules(self) -> MeaRules:
        return self.view.rules

    @property
    def current_player(self) -> int:
        return self.view.current_player

    def hand_names(self) -> tuple[str, ...]:
        """The player's hand (the spectator's is empty)."""
        return self.view.hand_names(self.player) if self.player != SPECTATOR else ()

    def public(self) -> dict[str, Any]:
        """Everything this player may know, as JSON-able data (for tests and tools)."""
        v = self.view
        tab = v._tab
        return {
            "player": self.player,
            "current_player": v.current_player,
            "phase": v.phase,
            "active": v._active,
            "turn": v._turn,
            "turns_taken": list(v._taken),
            "mana": v._mana,
            "projected_mana": [v.projected_mana(0), v.projected_mana(1)],
            "tiles": {B.name(q): o for q, o in sorted(v._tiles.items())},
            "monsters": [self.monster(i) for i in v.monsters()],
            "hand": list(self.hand_names()),
            "hand_sizes": [len(v._hand[0]), len(v._hand[1])],
            "deck_sizes": [len(v._deck[0]), len(v._deck[1])],
            "out_of_play": [tab.names[i] for i in v._out],
            "openings": list(v._openings),
            "choice": _choice_text(v.choice()),
            "queue": [_item_text(v, item) for item in v._queue],
            "end": v._end[1] if v._end else None,
        }

    def monster(self, i: int) -> dict[str, Any]:
        v = self.view
        tab = v._tab
        return {
            "ref": str(v.ref_of(i)),
            "name": tab.names[i],
            "tile": B.name(v._pos[i]),
            "owner": tab.owner[i],
            "controller": v._ctrl[i],
            "attack": v.attack_of(i),
            "defence": v.defence_of(i),
            "can_move": v.can_move(i),
            "can_attack": v.can_attack(i),
            "summoned_this_turn": v._fresh[i],
        }

    def describe(self) -> str:
        return describe_state(self.view, self.player)


def _choice_text(choice: dict[str, Any] | None) -> dict[str, Any] | None:
    if choice is None:
        return None
    return {
        "player": choice["player"],
        "for": choice["for"],
        "options": [B.name(t) if type(t) is int else t[0] for t in choice["options"]],
    }


def _item_text(state: MeaState, item: tuple[Any, ...]) -> str:
    if item[0] == "ab":
        return f"{state._tab.names[item[3]]}: {item[1].text()}"
    if item[0] == "disp":
        return f"displace {state._tab.names[item[1]]}"
    return str(item[0])


def describe_state(state: MeaState, me: int | None) -> str:
    """The board as text: a grid of tiles (owner Y/B) with their monsters, then hands and mana."""
    tab = state._tab
    lines = []
    if state._end is not None:
        lines.append(f"Méa · game over: {state._end[1]}")
    else:
        lines.append(
            f"Méa · {state.turn_label()} · phase {state.phase}"
            + (f" · mana {state._mana}" if state._phase in (_MAIN, _CHOICE, _FLIP) else "")
        )
    lines.append("Board (Y: P1 yellow, B: P2 blue; monster attack/defence, * = controlled by the other player):")
    if state._tiles:
        xs = [B.xy(q)[0] for q in state._tiles]
        ys = [B.xy(q)[1] for q in state._tiles]
        width = 26
        for y in range(max(ys), min(ys) - 1, -1):
            cells = []
            for x in range(min(xs), max(xs) + 1):
                q = B.pos(x, y)
                if q not in state._tiles:
                    cells.append(" " * width)
                    continue
                owner = "YB"[state._tiles[q]]
                mons = []
                for i in state._occ[q]:
                    star = "*" if state._ctrl[i] != state._tiles[q] else ""
                    mons.append(f"{tab.names[i][:8]}{star} {state.attack_of(i)}/{state.defence_of(i)}")
                cells.append(f"{B.name(q):>3} {owner} {'; '.join(mons)}"[:width].ljust(width))
            lines.append(f"{y + 1:>3} |" + "|".join(cells) + "|")
    for seat in (0, 1):
        hand = state._hand[seat]
        if me == seat:
            shown = ", ".join(f"{tab.names[i]} ({tab.cost[i]})" for i in hand) or "—"
        else:
            shown = f"{len(hand)} cards"
        tag = " (you)" if seat == me else ""
        lines.append(
            f"{seat_name(seat)}{tag}: {state.tile_count(seat)} tiles, deck {len(state._deck[seat])}, hand: {shown}"
        )
    choice = state.choice()
    if choice is not None:
        lines.append(f"{seat_name(choice['player'])} chooses {choice['for']}")
    if state._end is None and me is not None:
        if state.current_player == me:
            lines.append("Your move (type legal for the options, help for the commands).")
        elif state.current_player >= 0:
            lines.append(f"Waiting for {seat_name(state.current_player)}")
    return "\n".join(lines)
