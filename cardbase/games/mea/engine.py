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
the interpreter in :class:`MeaState`; a target chosen among several is a decision of its own
(:class:`Choose`), made by the player the rules name.

Cards are instances numbered 0 … N-1 (seat 0's deck list, then seat 1's); their
per-game values (zone, controller, tile, attack, defence, actions left) are kept
in flat lists so that :meth:`MeaState.clone` and the fast path are cheap.

Code outside the engine's modules reads a state through :class:`MeaState`'s public methods (and,
where it reads the whole board often, the live views :attr:`MeaState.tables`, :attr:`MeaState.zones`
and :meth:`MeaState.board_view`), and sets one up with :meth:`MeaState.position` and the set-up
methods (:meth:`MeaState.place_card`, ``set_tile``, ``set_monster``, ``arrange``,
``set_main_phase``); ``docs/rules/mea.md`` lists them. The ``_`` names are the engine's.

The engine is a package of modules, one concept each: ``codes`` (zones, phases, how a game ended,
the seats' names), ``actions`` (the action values, their shared instances and :func:`parse_action`),
``rules`` (decks, the rule numbers, :class:`MeaRules` with its per-instance tables and action ids),
``legal`` (the lazy lists of legal actions: the main phase's move generation and the choices),
``observation`` (what a seat sees, and the board as text). This module is the state: it stays one
class of about 1,900 lines because the ability interpreter, combat and the checks share its flat
per-instance lists and caches (zone, controller, tile, attack, defence, actions left, the ability
queue), and one action runs through all of them; split into mixins it would send a reader through
several files for one action. The move generation in ``legal`` reads the same lists (as an engine
module may). This module re-exports the public surface (``__all__``).
"""

from __future__ import annotations

import random
import weakref
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from operator import countOf
from typing import Any, NamedTuple, cast

from cardbase.errors import counted, quoted
from cardbase.fuzzy import AmbiguousName, match
from cardbase.games.base import (
    CHANCE,
    TERMINAL,
    IllegalAction,
    InvalidPosition,
    InvalidSeat,
    Outcome,
    State,
    check_mapping,
    check_names,
    check_seat,
    check_seats,
    check_steps,
    ids_without_choice,
    not_your_turn,
    to_act,
    whole_index,
)
from cardbase.games.mea import board as B
from cardbase.games.mea.abilities import Ability
from cardbase.games.mea.actions import (
    _DRAW_RANGES,
    _DRAWS,
    MOST,
    NONE_POS,
    Attack,
    Choose,
    Draw,
    Flip,
    MeaAction,
    Move,
    Obliterate,
    Play,
    Ref,
    Shuffle,
    Summon,
    _Action,
    _choose_tile,
    _flip,
    _summon,
    parse_action,
)
from cardbase.games.mea.cards import MeaCard
from cardbase.games.mea.codes import (
    _CHOICE,
    _FLIP,
    _MAIN,
    _OPENING,
    _OVER,
    _SHUFFLE,
    BOARD,
    DECK,
    END_DECK_OUT,
    END_HAND,
    END_NO_TILES,
    END_TURN_LIMIT,
    HAND,
    OUT,
    PHASE_NAMES,
    SEAT_NAMES,
    UNKNOWN,
    ZONE_NAMES,
    seat_name,
)
from cardbase.games.mea.legal import ChoiceActions, MainActions
from cardbase.games.mea.observation import _VIEW_RNG, MeaObservation, describe_state
from cardbase.games.mea.rules import (
    HAND_LIMIT,
    MANA_MINIMUM,
    MAX_OPTION_NUMBER,
    MAX_PER_TILE,
    SECOND_PLAYER_BONUS_TURNS,
    MeaActionIds,
    MeaDeck,
    MeaRules,
    MeaTables,
    _canonical,
    card_from_dict,
    card_to_dict,
    game_card,
)
from cardbase.names import fold

__all__ = [  # the engine's public surface, re-exported from the modules it lives in
    "BOARD",
    "DECK",
    "END_DECK_OUT",
    "END_HAND",
    "END_NO_TILES",
    "END_TURN_LIMIT",
    "HAND",
    "HAND_LIMIT",
    "MANA_MINIMUM",
    "MAX_OPTION_NUMBER",
    "MAX_PER_TILE",
    "MOST",
    "NONE_POS",
    "OUT",
    "PHASE_NAMES",
    "SEAT_NAMES",
    "SECOND_PLAYER_BONUS_TURNS",
    "UNKNOWN",
    "ZONE_NAMES",
    "Attack",
    "ChoiceActions",
    "Choose",
    "Draw",
    "Flip",
    "MainActions",
    "MeaAction",
    "MeaBoard",
    "MeaDeck",
    "MeaObservation",
    "MeaRules",
    "MeaState",
    "MeaTables",
    "Move",
    "Obliterate",
    "Play",
    "Ref",
    "Shuffle",
    "Summon",
    "card_from_dict",
    "card_to_dict",
    "describe_state",
    "game_card",
    "parse_action",
    "seat_name",
]


# The ability queue's items (the state's ``_queue``).


_TILE_TARGETS = frozenset(("friendly_tile", "enemy_tile", "any_tile"))
"""The targets :meth:`MeaState.targets` lists tiles for."""


_MOVED = -1
"""A monster's extra attacks (``_xatt``) after it moved this turn: none, and none can be given."""

_IDLE = -2
"""A monster's extra attacks (``_xatt``) after it was taken with "It cannot move or attack this
turn": none, and no attack or action can be given this turn (``cannot_act="whole-turn"``)."""


def _ab_item(ab: Ability, seat: int, source: int, where: int) -> tuple[Any, ...]:
    """A queued ability: ("ab", ability, controller, source card, its tile, steps left, targets done, behind):
    ``behind``, the items its targets done so far triggered, which wait right behind it in the queue."""
    return ("ab", ab, seat, source, where, ab.amount if ab.effect == "add_tile" else ab.count, (), 0)


def _is_killed_item(item: tuple[Any, ...]) -> bool:
    """Whether a queued item is a When killed ability."""
    return item[0] == "ab" and bool(item[1].trigger == "killed")


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


_new_observation = object.__new__

_HIDE_DECK = bytes(UNKNOWN if z == DECK else z for z in range(256))
"""A translation table of zone codes: ``DECK`` becomes ``UNKNOWN``, the others stay."""


_SUMMONED_WAITS = (
    "{name} was summoned this turn: it neither moves nor attacks alone, only together with a monster that "
    "was not summoned this turn (option summoned_alone=refused)"
)


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
        "_seen",
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
        self._seen: list[weakref.ref[MeaObservation]] | None = None
        self._phase = _SHUFFLE
        self.current_player = CHANCE

    # -- reading the position --

    @property
    def phase(self) -> str:
        """The phase, by name: ``shuffle``, ``opening``, ``flip``, ``main``, ``choice`` or ``over``."""
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
        """How many turns each seat has begun."""
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

    def check_card(self, instance: object) -> int:
        """``instance`` as a card instance of this game (``0 … card_count() - 1``; a NumPy integer is
        one, a bool none), the one check of every method that takes one; else :class:`InvalidPosition`
        naming it (rule ``"card"``)."""
        n = len(self._tab.cards)
        number = instance if type(instance) is int else whole_index(instance)
        if number is not None and 0 <= number < n:
            return number
        raise InvalidPosition(f"no card {quoted(instance)} in this game (a card instance is 0 to {n - 1})", "card")

    def card(self, instance: int) -> MeaCard:
        """The card that card instance ``instance`` is (instances are numbered over both decks)."""
        if type(instance) is not int or not 0 <= instance < len(self._zone):
            instance = self.check_card(instance)
        return self._tab.cards[instance]

    def owner(self, instance: int) -> int:
        """The seat whose deck ``instance`` came from (its controller may be the other)."""
        if type(instance) is not int or not 0 <= instance < len(self._zone):
            instance = self.check_card(instance)
        return self._tab.owner[instance]

    def tiles(self) -> dict[int, int]:
        """Position → owner seat, for every tile on the board."""
        return dict(self._tiles)

    def tile_count(self, seat: int) -> int:
        """How many tiles seat ``seat`` controls."""
        seat = check_seat(seat, 2)
        return countOf(self._tiles.values(), seat)

    def on_tile(self, p: int) -> tuple[int, ...]:
        """Card instances on the tile at ``p``, in arrival order."""
        return self._occ.get(p, ())

    def monsters(self, seat: int | None = None) -> list[int]:
        """Monsters on the board (of ``seat``'s control, if given), in board order."""
        if seat is not None:
            seat = check_seat(seat, 2)
        out = []
        for here in self._occ.values():  # board order
            for i in here:
                if seat is None or self._ctrl[i] == seat:
                    out.append(i)
        return out

    def hand(self, seat: int) -> tuple[int, ...]:
        """The card instances in seat ``seat``'s hand, in order."""
        seat = check_seat(seat, 2)
        return tuple(self._hand[seat])

    def hand_names(self, seat: int) -> tuple[str, ...]:
        """The names of the cards in seat ``seat``'s hand, in order."""
        seat = check_seat(seat, 2)
        return tuple(self._tab.names[i] for i in self._hand[seat])

    def deck(self, seat: int) -> tuple[int, ...]:
        """``seat``'s deck, top card first."""
        seat = check_seat(seat, 2)
        return tuple(reversed(self._deck[seat]))

    def out_of_play(self) -> tuple[int, ...]:
        """Cards out of play: killed or obliterated monsters, and assists once played."""
        return tuple(self._out)

    def zone(self, instance: int) -> int:
        """Where instance ``instance`` is: ``DECK``, ``HAND``, ``BOARD`` or ``OUT``
        (:mod:`cardbase.games.mea.codes`)."""
        if type(instance) is not int or not 0 <= instance < len(self._zone):
            instance = self.check_card(instance)
        return self._zone[instance]

    def controller(self, instance: int) -> int:
        """The seat that controls instance ``instance``."""
        if type(instance) is not int or not 0 <= instance < len(self._zone):
            instance = self.check_card(instance)
        return self._ctrl[instance]

    def tile_of(self, instance: int) -> int:
        """The position of the tile ``instance`` is on (``NONE_POS`` off the board)."""
        if type(instance) is not int or not 0 <= instance < len(self._zone):
            instance = self.check_card(instance)
        return self._pos[instance]

    def attack_of(self, instance: int) -> int:
        """Current attack, this turn's bonuses included."""
        if type(instance) is not int or not 0 <= instance < len(self._zone):
            instance = self.check_card(instance)
        return self._atk[instance] + self._tmp[instance]

    def defence_of(self, instance: int) -> int:
        """Instance ``instance``'s defence now, this turn's changes included."""
        if type(instance) is not int or not 0 <= instance < len(self._zone):
            instance = self.check_card(instance)
        return self._def[instance] + self._tmpd[instance]

    def projected_mana(self, seat: int) -> int:
        """The mana ``seat`` would count if its turn began now: tiles the opponent controls +
        monsters ``seat`` controls, at least the minimum, then the second player's bonus if that
        turn would be one of its first turns. Public: the board and the turns taken decide it."""
        seat = check_seat(seat, 2)
        return self._compute_mana(seat, turns_taken=self._taken[seat] + 1)

    def can_move(self, instance: int) -> bool:
        """Whether the monster ``instance`` may still move this turn."""
        if type(instance) is not int or not 0 <= instance < len(self._zone):
            instance = self.check_card(instance)
        return self._acts[instance] > 0 and not (self._tab.summoned_wait and self._fresh[instance])

    def can_attack(self, instance: int) -> bool:
        """Whether the monster ``instance`` may still attack this turn."""
        if type(instance) is not int or not 0 <= instance < len(self._zone):
            instance = self.check_card(instance)
        return self._acts[instance] > 0 or self._xatt[instance] > 0

    def actions_left(self, instance: int) -> int:
        """The actions (a move or an attack) ``instance`` has left this turn."""
        if type(instance) is not int or not 0 <= instance < len(self._zone):
            instance = self.check_card(instance)
        return self._acts[instance]

    def extra_attacks(self, instance: int) -> int:
        """The attacks ``instance`` has left beyond its action (from an extra-attack ability)."""
        if type(instance) is not int or not 0 <= instance < len(self._zone):
            instance = self.check_card(instance)
        return max(self._xatt[instance], 0)

    def summoned_this_turn(self, instance: int) -> bool:
        """Whether the monster ``instance`` was summoned this turn."""
        if type(instance) is not int or not 0 <= instance < len(self._zone):
            instance = self.check_card(instance)
        return self._fresh[instance]

    def ref_of(self, instance: int) -> Ref:
        """The notation reference of a monster on the board (one off it is :class:`InvalidPosition`,
        rule ``"not-on-board"``)."""
        if type(instance) is not int or not 0 <= instance < len(self._zone):
            instance = self.check_card(instance)
        p = self._pos[instance]
        if p == NONE_POS:
            raise InvalidPosition(f"{self._tab.names[instance]} (card {instance}) is not on the board", "not-on-board")
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
        if item[0] == "disp" and type(options[0]) is tuple:
            what = (
                f"which of your monsters on {B.name(item[2])} moves to the one tile of yours next to it with "
                "room (the other returns to its owner's hand): the tile was flipped"
            )
        elif item[0] == "disp":
            i = item[1]
            what = f"where {self._tab.names[i]} goes: the tile it is on was flipped"
        else:
            ability, source = item[1], item[3]
            card = self._tab.names[source] if source >= 0 else "?"
            what = f"{card}: {ability.text()}"
        return {"player": chooser, "for": what, "options": list(options)}

    def pending(self) -> tuple[Ability | None, int]:
        """What the choice phase's decision is for: ``(ability, the card it comes from)``, or
        ``(None, the monster)`` for where a displaced monster goes (or which of two moves to the one
        tile with room: the options are then monsters). Only in the choice phase: elsewhere
        :class:`IllegalAction` (rule ``"no-choice"``), as :meth:`choice` is ``None``."""
        if self._phase != _CHOICE or not self._queue:
            raise IllegalAction("no choice is pending: it is not the choice phase", "no-choice", self.current_player)
        item = self._queue[0]
        if item[0] == "disp":
            return None, item[1]
        return item[1], item[3]

    def hand_size(self, seat: int) -> int:
        """How many cards seat ``seat`` holds."""
        seat = check_seat(seat, 2)
        return len(self._hand[seat])

    def deck_size(self, seat: int) -> int:
        """How many cards are left in seat ``seat``'s deck."""
        seat = check_seat(seat, 2)
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

        A position no game by the rules reaches is refused (:class:`InvalidPosition` naming the
        rule; docs/rules/mea.md, "Reading and setting up a position from code"): a hand of 11 cards
        or more, more than 2 monsters on a tile, turns that do not alternate from P1 or pass the
        turn limit, negative mana, more tiles than the supply or a player's cap, and (under
        ``elimination="immediate"``) a player without a tile.
        """
        if not isinstance(rules, MeaRules):
            raise TypeError("MeaState.position(rules, ...) builds a position; a card's tile is state.tile_of(instance)")
        with _field("active"):
            check_seat(active, 2)
        _check_turns(rules, active, turns_taken, mana)
        if tiles is not None:
            check_mapping("tiles", tiles, "tiles to their owners' seats")
        for what, given in (("hands", hands), ("board", board), ("out", out), ("decks", decks)):
            check_seats(what, given, 2, exactly=True)
        for seat in (0, 1):
            check_names(f"hands[{seat}]", hands[seat])
            check_names(f"out[{seat}]", out[seat])
            check_names(f"decks[{seat}]", decks[seat], optional=True)
            check_mapping(f"board[{seat}]", board[seat], "tiles to card names")
            for t, monsters in board[seat].items():
                check_names(f"board[{seat}][{t!r}]", monsters)
        state = cls(rules, seed)
        names = state._tab.names
        canonical = state._tab.canonical

        def take(seat: int, name: str) -> int:
            if not isinstance(name, str):
                raise InvalidPosition(f"a card is given by its name, not {quoted(name)}", "names")
            card = canonical.get(fold(name), name)
            for i in reversed(state._deck[seat]):  # top first: the deck list's order
                if names[i] == card:
                    return i
            if card in names[state._tab.offset[seat] : state._tab.offset[seat] + rules.decks[seat].size]:
                raise InvalidPosition(f"more copies of {card} than {seat_name(seat)}'s deck has", "copies")
            raise InvalidPosition(f"no {quoted(name)} in {seat_name(seat)}'s deck", "card")

        crowded: dict[int, int] = {}
        for seat in (0, 1):
            for t, monsters in board[seat].items():
                with _field(f"board[{seat}]"):
                    q = _position_tile(t)
                crowded[q] = crowded.get(q, 0) + len(monsters)
        for q, count in sorted(crowded.items()):
            if count > MAX_PER_TILE:
                raise InvalidPosition(
                    f"{counted(count, 'monster')} on {B.name(q)}: at most {MAX_PER_TILE} share a tile"
                    ' ("You can have a maximum of 2 monsters on 1 tile")',
                    "two-per-tile",
                )
        if tiles is not None:
            with _field("tiles"):
                wanted = {_position_tile(t): owner for t, owner in tiles.items()}
            for q in [q for q in state._tiles if q not in wanted]:
                state.set_tile(q, None)
            for q, owner in sorted(wanted.items()):
                with _field(f"tiles[{B.name(q)!r}]"):
                    state.set_tile(q, owner)
        for seat in (0, 1):
            for t, monsters in board[seat].items():
                q = _position_tile(t)
                for name in monsters:
                    with _field(f"board[{seat}][{t!r}]"):
                        state.place_card(take(seat, name), BOARD, q)
            for name in hands[seat]:
                with _field(f"hands[{seat}]"):
                    state.place_card(take(seat, name), HAND)
            for name in out[seat]:
                with _field(f"out[{seat}]"):
                    state.place_card(take(seat, name), OUT)
            deck = decks[seat]
            if deck is not None:
                left = [names[i] for i in reversed(state._deck[seat])]
                if any(not isinstance(n, str) for n in deck) or sorted(
                    canonical.get(fold(n), n) for n in deck
                ) != sorted(left):
                    raise InvalidPosition(
                        f"decks[{seat}]: {seat_name(seat)}'s deck is not the cards left: {', '.join(sorted(left))}",
                        "deck",
                    )
                order: list[int] = []
                for name in deck:
                    card = canonical.get(fold(name), name)
                    order.append(next(i for i in reversed(state._deck[seat]) if names[i] == card and i not in order))
                state.arrange(seat, state.hand(seat), order)
        state._taken = list(turns_taken) if turns_taken is not None else [1, 0 if active == 0 else 1]
        state._turn = sum(state._taken)
        state.set_main_phase(active, mana)
        state._check_position()
        return state

    def _check_position(self) -> None:
        """Refuse a position set up by :meth:`position` that no game played by the rules reaches."""
        rules = self.rules
        for seat in (0, 1):
            if len(self._hand[seat]) >= HAND_LIMIT:
                raise InvalidPosition(
                    f"{seat_name(seat)} holds {counted(len(self._hand[seat]), 'card')}: a game is lost at {HAND_LIMIT}"
                    ' ("If you EVER have 11 cards in your hand, you lose the game immediately")',
                    "hand-limit",
                )
        if rules.tile_supply and len(self._tiles) > rules.tile_supply:
            raise InvalidPosition(
                f"{counted(len(self._tiles), 'tile')} on the board, more than the supply of {rules.tile_supply}"
                " (each player brings 9 tiles)",
                "tile-supply",
            )
        for seat in (0, 1):
            held = self.tile_count(seat)
            if rules.tiles_per_colour and held > rules.tiles_per_colour:
                raise InvalidPosition(
                    (
                        f"{seat_name(seat)} controls {counted(held, 'tile')}, more than tiles_per_colour "
                        f"{rules.tiles_per_colour}"
                    ),
                    "tiles-per-colour",
                )
            if not held and rules.elimination == "immediate":
                raise InvalidPosition(
                    f"{seat_name(seat)} controls no tile: under elimination=immediate that player has lost",
                    "game-over",
                )

    def place_card(self, instance: int, zone: int, tile: int = NONE_POS, seat: int | None = None) -> None:
        """Put card ``instance`` from wherever it is into ``zone``: ``HAND`` (the end of ``seat``'s
        hand; by default its owner's), ``DECK`` (the bottom of its owner's deck), ``OUT`` (out of
        play), or ``BOARD`` (on ``tile``, controlled by ``seat``, by default its owner, ready to
        move and attack: not summoned this turn). A monster taken off the board is reset to its
        printed values (as when it leaves the board in play); one moved between tiles keeps them."""
        if self._seen is not None:
            self._settle()
        tab = self._tab
        instance = self.check_card(instance)
        if zone not in (DECK, HAND, BOARD, OUT):
            raise InvalidPosition(f"a card goes to the deck, hand, board or out of play, not zone {zone}", "zone")
        if seat is not None:
            check_seat(seat, 2)
        owner = tab.owner[instance]
        if zone == BOARD:
            if not tab.monster[instance]:
                raise InvalidPosition(f"{tab.names[instance]} is an assist: only monsters go on the board", "assist")
            here = self._occ.get(tile)
            if here is None:
                raise InvalidPosition(f"no tile at {B.name(tile)}", "tile")
            if len(here) >= MAX_PER_TILE and instance not in here:
                raise InvalidPosition(f"{B.name(tile)} has {MAX_PER_TILE} monsters on it already", "two-per-tile")
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
            raise InvalidPosition("a view's hidden cards cannot be placed: set up a full state", "hidden")
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
        if self._seen is not None:
            self._settle()
        instance = self.check_card(instance)
        if self._zone[instance] != BOARD:
            raise InvalidPosition(f"card {instance} is not a monster on the board", "card")
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
        if self._seen is not None:
            self._settle()
        check_seat(seat, 2)
        if sorted([*hand, *deck]) != sorted([*self._hand[seat], *self._deck[seat]]):
            raise InvalidPosition(f"{seat_name(seat)}'s hand and deck are rearranged from the cards they hold", "deck")
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
        if self._seen is not None:
            self._settle()
        tiles = self._tiles
        if owner is None:
            if tile not in tiles:
                raise InvalidPosition(f"no tile at {B.name(tile)}", "tile")
            if self._occ[tile]:
                raise InvalidPosition(f"{B.name(tile)} has monsters on it: take them off first", "tile")
            self._remove_tile(tile, obliterate=False)
        else:
            check_seat(owner, 2)
            if tile not in tiles:
                inside = self._tab.cell_of
                if not (tile in inside if inside else B.in_bounds(tile)):
                    raise InvalidPosition(f"{B.name(tile)} is off the board", "tile")
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
        if self._seen is not None:
            self._settle()
        check_seat(seat, 2)
        if self._end is not None:
            raise InvalidPosition("the game is over", "game-over")
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
        listed = action.in_board_order() if type(action) is Attack and not self._tab.first_moves_in else action
        if listed in self.legal_actions():  # (as the rules list it: _canonical)
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
                    (
                        f"{seat_name(seat)}'s deck has {counted(size, 'card')}: its order lists each of 0 … {size - 1} "
                        f"once"
                    ),
                    "shuffle-permutation",
                )

    def _why(self, action: _Action, p: int) -> IllegalAction:
        """The rule that forbids ``action`` (not among the legal actions) now."""
        phase = self._phase
        kind = action.kind
        if kind == "shuffle":
            return IllegalAction("the decks are shuffled only at the start", "shuffle-at-start", p)
        if phase == _OPENING:
            if kind != "draw":
                return self._first(p)
            assert isinstance(action, Draw)
            return self._why_draw(action, p)
        if phase == _FLIP:
            if kind != "flip":
                return self._first(p)
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
                return self._first(p)
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

    def _first(self, p: int) -> IllegalAction:
        """What the current player ``p`` must do first, before any other action: draw their opening
        hand, make the start-of-turn flip or not, or make a pending choice (in those phases)."""
        who = seat_name(p)
        phase = self._phase
        if phase == _OPENING:
            return IllegalAction(
                f"{who} first draws their opening hand: at least 1 card, as many as they want "
                "(11 or more loses); e.g. draw 5",
                "opening-draw",
                p,
            )
        if phase == _FLIP:
            return IllegalAction(
                f"the start of {who}'s turn: first flip one enemy tile a monster of yours is on, or not "
                f"(flip {B.name(self._flip_options(p)[0])} or flip none)",
                "start-flip-first",
                p,
            )
        info = self.choice()
        assert phase == _CHOICE and info is not None
        return IllegalAction(
            f"{who} must first choose {info['for']} (type legal to see the options)", "choose-first", p
        )

    def held_back(self, seat: int) -> tuple[str | None, ...]:
        """Why each card of ``seat``'s hand (in hand order) may not be played now, in the words a
        refused ``summon`` or ``play`` of it gets; ``None`` for a card that may be (and for every card
        once the game is over or before the decks are shuffled). It reads only what ``seat`` knows:
        whose turn and phase it is, the mana left, the board, and the seat's own hand."""
        seat = check_seat(seat, 2)
        hand = self._hand[seat]
        p = self.current_player
        if p < 0:
            return (None,) * len(hand)
        if p != seat:
            return (not_your_turn(p, seat),) * len(hand)
        if self._phase != _MAIN:
            first = str(self._first(p))
            return (first,) * len(hand)
        out: list[str | None] = []
        for i in hand:
            why = self._card_held_back(i, p)
            out.append(None if why is None else str(why))
        return tuple(out)

    def _card_held_back(self, i: int, p: int) -> IllegalAction | None:
        """Why card ``i`` of ``p``'s hand may not be played in ``p``'s main phase wherever it went:
        its cost above the mana left, or (a monster) no tile of ``p``'s with room and no enemy
        monster; ``None`` when it may be played somewhere (an assist with no target may: rule 47)."""
        tab = self._tab
        name = tab.names[i]
        if tab.cost[i] > self._mana:
            return IllegalAction(f"{name} costs {tab.cost[i]} mana and you have {self._mana} left this turn", "mana", p)
        if tab.monster[i] and not self._summon_room(p):
            return IllegalAction(
                f"{name} has no tile to go on: each of your tiles has an enemy monster"
                f" or {MAX_PER_TILE} monsters on it",
                "summon-room",
                p,
            )
        return None

    def _summon_room(self, p: int) -> bool:
        """Whether ``p`` controls a tile a monster may be summoned onto (no enemy monster, room)."""
        ctrl = self._ctrl
        for q, here in self._occ.items():
            if self._tiles[q] == p and len(here) < MAX_PER_TILE and all(ctrl[a] == p for a in here):
                return True
        return False

    def known_names(self, seat: int) -> tuple[str, ...]:
        """The card names ``seat`` may be told of, sorted: its own deck list's, and those of the
        cards in its hand, on the board or out of play. The other deck's list is hidden until it is
        played (a refusal, a name's expansion or a suggestion names no card of it)."""
        seat = check_seat(seat, 2)
        tab, zone = self._tab, self._zone
        names = {tab.names[i] for i in range(len(zone)) if tab.owner[i] == seat or zone[i] in (BOARD, OUT)}
        return tuple(sorted(names | {tab.names[i] for i in self._hand[seat]}))

    def _meant(self, name: str, p: int) -> str:
        """`` (did you mean …?)``: the card of ``p``'s hand, else of the names ``p`` knows
        (:meth:`known_names`), ``name`` is a short or close spelling of (see
        :func:`cardbase.fuzzy.match`); empty if none."""
        names = self._tab.names
        for pool in ({names[i] for i in self._hand[p]}, set(self.known_names(p))):
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
        return IllegalAction(f"your deck has only {counted(left, 'card')}", "draw-from-deck", p)

    def _why_card(self, action: Summon | Play, p: int) -> IllegalAction:
        tab = self._tab
        name = action.card
        held = [i for i in self._hand[p] if tab.names[i] == name]
        if not held:
            if fold(name) not in {fold(n) for n in self.known_names(p)}:
                # a name of no card p may know of (of no deck, or of the other's, hidden): maybe a short
                # spelling of one; the name is not echoed (its spelling would tell the other deck's)
                return IllegalAction(f"you hold no card by that name{self._meant(name, p)}", "hold-card", p)
            return IllegalAction(f"you do not hold {name}", "hold-card", p)
        i = held[0]
        if isinstance(action, Play) and tab.monster[i]:
            return IllegalAction(f"{name} is a monster: summon it onto a tile (summon {name} b2)", "summon-monster", p)
        if isinstance(action, Summon) and not tab.monster[i]:
            return IllegalAction(f"{name} is an assist: play it (play {name})", "play-assist", p)
        held_back = self._card_held_back(i, p)
        if held_back is not None:
            return held_back
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
        if seat is not None:
            seat = check_seat(seat, 2)
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
        if self._tab.summoned_wait and self._fresh[i]:
            return IllegalAction(_SUMMONED_WAITS.format(name=ref[0]), "summoned-alone", p)
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
        if len(ids) == 1 and self._tab.summoned_wait and self._fresh[ids[0]]:
            return IllegalAction(_SUMMONED_WAITS.format(name=refs[0][0]), "summoned-alone", p)
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
        legal = self._legal
        if (type(legal) is MainActions or type(legal) is ChoiceActions) and action is legal._given is not None:
            self.apply_unchecked(action)  # the action just taken from the legal list by index: legal
            return
        if type(action) is Attack:
            action = _canonical(action, self._tab)
        self.check(action)
        self.apply_unchecked(action)

    def apply_unchecked(self, action: Any) -> None:
        if self._seen is not None:
            self._settle()
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
        self._xatt[i] = _MOVED  # its extra attacks are lost, and none can be given this turn

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
        if self._tab.attacker_killed_first:  # killed_order="attacker-first": the attackers' When killed first
            deaths = deaths[len(killed) :] + deaths[: len(killed)]
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
        # One pass: ready p's monsters, count them (mana), see whether one stands on an enemy tile (flip);
        # no monster of either seat was summoned this turn.
        monsters = 0
        flip = False
        for q, here in self._occ.items():
            for i in here:
                fresh[i] = False
                if ctrl[i] == p:
                    acts[i] = 1
                    xatt[i] = 0
                    monsters += 1
                    if tiles[q] != p:
                        flip = True
                elif xatt[i] == _IDLE:  # "cannot move or attack this turn": that turn is over
                    xatt[i] = 0
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
        it, if any); what it triggers is resolved next, before the rest of the queue. An
        ability with several targets resolves them all first; what each triggered waits
        behind it, in the order of its targets (as an attack's deaths), not the last first.
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
            behind = item[7] if kind == "ab" else 0  # what its earlier targets triggered, first in the queue
            if kind == "ab" and self._tab.after_card:
                behind = self._queue_after_card(item, mark, behind)
            elif len(queue) > mark:  # what the item queued goes first, after that
                new = queue[mark:]
                del queue[mark:]
                queue[behind:behind] = new
                behind += len(new)
            if follow is not None:
                if follow[0] == "ab" and follow[7] != behind:
                    follow = (*follow[:7], behind)
                queue.insert(0, follow)
            if self._phase == _CHOICE or self._phase == _FLIP:
                return
        if self._end is None and self._phase not in (_FLIP, _OPENING, _SHUFFLE):
            self._phase = _MAIN
            self.current_player = self._active

    def _queue_after_card(self, item: tuple[Any, ...], mark: int, behind: int) -> int:
        """``triggered_after="card"``: place what the ability ``item`` just queued (``queue[mark:]``).
        Displacements (part of a flip) go first; the rest (the abilities it set off) waits behind
        the other sentences of the same card for the same trigger still queued ("siblings") and
        behind what they set off so far (``behind`` of them); the siblings learn the new count,
        which is returned (for ``item``'s own next target)."""
        queue = self._queue
        new = queue[mark:]
        del queue[mark:]
        disp = [x for x in new if x[0] == "disp"]
        rest = [x for x in new if x[0] != "disp"]
        src, trigger = item[3], item[1].trigger
        lead = 0
        while lead < len(queue) and queue[lead][0] == "disp":
            lead += 1
        siblings = [
            k
            for k, x in enumerate(queue)
            if x[0] == "ab" and x[3] == src and x[1].trigger == trigger and not x[6] and x[2] == item[2]
        ]
        at = max(lead, siblings[-1] + 1 if siblings else 0) + behind
        queue[at:at] = rest
        behind += len(rest)
        for k in siblings:
            queue[k] = (*queue[k][:7], behind)
        queue[0:0] = disp
        return behind

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
        _, ab, p, src, where, left, done, behind = item
        if chosen is None:
            if (
                not done
                and ab.trigger in ("summoned", "turn_start", "turn_end")
                and (self._zone[src] != BOARD or self._ctrl[src] != p)
                and not self._tab.left_play_resolves
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
            options = self.targets(ab, p, src, where)
            if done:
                options = [t for t in options if t not in done]
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
            return ("ab", ab, p, src, where, left - 1, (*done, chosen), behind)
        return None

    def condition_count(self, what: str, seat: int) -> int:
        """What an ability's condition counts for seat ``seat`` (``friendly_tiles``, ``enemy_monsters``,
        …; anything else: ``seat``'s hand)."""
        p = check_seat(seat, 2)
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
        here = NONE_POS
        if f.adjacent:
            here = self._pos[src] if self._zone[src] == BOARD else where
            if here == NONE_POS:
                return []
        e = ab.effect
        if e == "add_tile":
            return self._add_positions(p if target == "you" else 1 - p)
        if e == "flip_tile" and self._tab.colour_cap and self._at_cap(p):
            return []  # p has no tile of its colour left to flip with
        occ = self._occ
        # The tiles to look at, in board order (position order, as the board's dicts keep it):
        # next to a tile, its neighbours (the tiles among the positions next to it).
        cells: Iterable[int] = occ
        if here != NONE_POS:
            near = self._adj.get(here)
            if near is None:  # (not a tile)
                near = tuple(q for q in {here + d for d in self._tab.dirs} if q in occ)
            cells = sorted(near)
        if target in ("friendly_tile", "enemy_tile", "any_tile"):
            tiles = self._tiles
            if f.empty or e == "destroy_tile":
                cells = [q for q in cells if not occ[q]]
            if target == "friendly_tile":
                return [q for q in cells if tiles[q] == p]
            if target == "enemy_tile":
                return [q for q in cells if tiles[q] != p]
            return list(cells)
        mine, theirs = target == "friendly_monster", target == "enemy_monster"
        ctrl = self._ctrl
        most_attack, most_defence = f.attack_at_most, f.defence_at_most
        defence, tmpd = self._def, self._tmpd
        out: list[Any] = []
        for q in cells:
            for i in occ[q]:
                c = ctrl[i]
                if (mine and c != p) or (theirs and c == p):
                    continue
                if most_attack is not None and self._filter_attack(i) > most_attack:
                    continue
                if most_defence is not None and defence[i] + tmpd[i] > most_defence:
                    continue
                out.append((i,))
        return out

    def has_target(self, ab: Ability, p: int, src: int, where: int) -> bool:
        """Whether :meth:`targets` lists any (found without listing them for a tile target)."""
        target = ab.target
        e = ab.effect
        if e == "add_tile" or target not in _TILE_TARGETS:
            return bool(self.targets(ab, p, src, where))
        f = ab.filter
        occ = self._occ
        cells: Iterable[int] = occ
        if f.adjacent:
            here = self._pos[src] if self._zone[src] == BOARD else where
            if here == NONE_POS:
                return False
            near = self._adj.get(here)
            if near is None:  # (not a tile)
                return bool(self.targets(ab, p, src, where))
            cells = near
        if e == "flip_tile" and self._tab.colour_cap and self._at_cap(p):
            return False
        tiles = self._tiles
        empty = f.empty or e == "destroy_tile"
        for q in cells:
            if empty and occ[q]:
                continue
            if target == "any_tile" or (tiles[q] == p) == (target == "friendly_tile"):
                return True
        return False

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
            # "whether it can move/attack this turn will be stated on the card": exhausted, it cannot;
            # else it has the one action of any of its new controller's monsters ("Unless stated
            # otherwise …"), whatever it did on its former controller's turn. Not summoned this turn.
            self._ctrl[i] = p
            # "It cannot move or attack this turn" holds for the whole turn: a later "may move or attack
            # again" or "may attack twice" gives it nothing (option cannot_act="until-given": it does).
            self._acts[i] = 0 if ab.exhausted else 1
            self._xatt[i] = _IDLE if ab.exhausted and not self._tab.idle_given else 0
            self._fresh[i] = False
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
            # "may attack twice" changes the attacking of "EITHER move once OR attack once": a monster that
            # has moved this turn gets no attack from it (an extra action, "move or attack again", is another thing)
            if self._xatt[i] >= 0:  # neither _MOVED nor _IDLE
                self._xatt[i] += ab.amount
        elif e == "extra_action" and self._xatt[i] != _IDLE:  # the last effect: an idle monster gets nothing
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
        asked = type(chosen) is tuple  # which of two monsters moves, chosen: it goes first
        if asked:
            k = chosen[0]
            if k != i:
                queue = self._queue
                queue[next(n for n, x in enumerate(queue) if x[0] == "disp" and x[1] == k and x[2] == q)] = item
                i, item = k, ("disp", k, q)
            chosen = None
        if self._zone[i] != BOARD or self._pos[i] != q or self._tiles.get(q) == self._ctrl[i]:
            return None
        seat = self._ctrl[i]
        if chosen is None:
            options = sorted(
                d for d in self._adj.get(q, ()) if self._tiles[d] == seat and len(self._occ[d]) < MAX_PER_TILE
            )
            if options and not self._tab.displace_beside_enemy:  # displaced_onto="no-enemy"
                options = [d for d in options if not self._enemy_on(d, seat)]
            if not options:
                self._return_to_hand(i, seat if self._tab.displaced_to_controller else None)
                return None
            if not asked and len(options) == 1 and len(self._occ[options[0]]) == MAX_PER_TILE - 1:
                # Room for one, and another of seat's monsters on q must move too: seat chooses which moves
                # (the other returns to its owner's hand).
                other = self._displaced_with(i, q, seat)
                if other is not None:
                    self._wait(seat, [(i,), (other,)])
                    return item
            if len(options) > 1:
                self._wait(seat, options)
                return item
            chosen = options[0]
        self._lift(i)
        self._occ[chosen] = (*self._occ[chosen], i)
        self._pos[i] = chosen
        return None

    def _displaced_with(self, i: int, q: int, seat: int) -> int | None:
        """The other monster of ``seat``'s waiting to be displaced from ``q`` with ``i``, if any."""
        zone, pos, ctrl = self._zone, self._pos, self._ctrl
        for x in self._queue:
            if x[0] == "disp" and x[2] == q and x[1] != i:
                j = x[1]
                if zone[j] == BOARD and pos[j] == q and ctrl[j] == seat:
                    return int(j)
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
        new._seen = None
        new._phase = self._phase
        new.current_player = self.current_player
        return new

    def observation(self, player: int) -> MeaObservation:
        """What ``player`` sees now. Its view (a copy) is made when first read, or before this state
        next changes (every change goes through :meth:`_settle`), whichever comes first: so an
        observation nobody reads the view of, dropped before the next action, costs no copy."""
        player = check_seat(player, 2, spectator=True)
        seen = _new_observation(MeaObservation)  # lazy: no view yet (see MeaObservation.view)
        seen.player = player
        seen._view = None
        seen._state = self
        if self._seen is None:
            self._seen = [weakref.ref(seen)]
        else:
            self._seen.append(weakref.ref(seen))
        return seen

    def __getstate__(self) -> Any:
        """Pickled without the weak references to the observations of it still held (they are not
        picklable, and they stay with this state)."""
        data = super().__getstate__()
        if type(data) is tuple and len(data) == 2 and isinstance(data[1], dict) and data[1].get("_seen"):
            data = (data[0], {**data[1], "_seen": None})
        return data

    def _settle(self) -> None:
        """Before the state changes: the observations of it still held make their views (of the
        state as they observed it)."""
        seen, self._seen = self._seen, None
        for ref in seen or ():
            observation = ref()
            if observation is not None:
                observation._settle()

    def _redacted(self, player: int) -> MeaState:
        """A copy without what ``player`` cannot see: the other hand (both, for the
        spectator), both decks' order, the seed, the RNG and the history (which holds the shuffle).
        :meth:`_copy`'s fields, made here without copying the hands and decks it replaces."""
        view = object.__new__(MeaState)
        view.rules = self.rules
        view.seed = None
        view.rng = _VIEW_RNG
        view.history = []
        view._tab = tab = self._tab
        # Every card in a deck is hidden: its zone is DECK (the state keeps them together), made
        # UNKNOWN by one byte translation of the zone codes.
        zone = view._zone = list(bytes(self._zone).translate(_HIDE_DECK))
        view._ctrl = self._ctrl[:]
        view._pos = self._pos[:]
        view._atk = self._atk[:]
        view._def = self._def[:]
        view._tmp = self._tmp[:]
        view._tmpd = self._tmpd[:]
        view._acts = self._acts[:]
        view._xatt = self._xatt[:]
        view._fresh = self._fresh[:]
        view._deck = [[-1] * len(self._deck[0]), [-1] * len(self._deck[1])]
        # A card of one seat's own in another's hand got there in plain sight (a monster taken
        # control of, displaced under displaced_to="controller"): it stays known.
        owner = tab.owner
        hands = []
        for seat in (0, 1):
            hand = self._hand[seat]
            if seat == player:
                hands.append(hand[:])
                continue
            for i in hand:
                if owner[i] == seat:
                    zone[i] = UNKNOWN
            hands.append([i if owner[i] != seat else -1 for i in hand])
        view._hand = hands
        view._out = self._out[:]
        view._tiles = self._tiles.copy()
        view._occ = self._occ.copy()
        view._adj = self._adj
        view._queue = self._queue[:]
        view._fired = self._fired
        view._choice = self._choice
        view._openings = self._openings[:]
        view._taken = self._taken[:]
        view._turn = self._turn
        view._mana = self._mana
        view._active = self._active
        view._end = self._end
        view._legal = None
        view._seen = None
        view._phase = self._phase
        view.current_player = self.current_player
        return view

    def action_text(self, action: Any, viewer: int | None = None) -> str:
        if viewer is not None:
            check_seat(viewer, 2, spectator=True)
        if isinstance(action, Shuffle) and viewer is not None:
            return "the decks are shuffled"
        return str(action)

    def parse_action(self, text: str, seat: int | None = None) -> MeaAction:
        """Like :func:`parse_action`, with card names in any case, and a monster named
        without ``#k`` resolved to the one that can act (every action is the current player's:
        ``seat``, checked, changes nothing)."""
        if seat is not None:
            check_seat(seat, self.rules.players)
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
            f"to act: {to_act(self.current_player)}>"
        )

    # -- integer steps and tensors (see cardbase.games.base) --

    def _place_code(self, i: int, origin: int) -> int:
        """Monster ``i`` as an attacker of ``origin``, or the monster on the tile ``origin`` moves
        from: its direction from ``origin`` × 2 + its place on its tile (arrival order)."""
        q = self._pos[i]
        return self._tab_ids.dir_index[q - origin] * 2 + self._occ[q].index(i)

    @property
    def _tab_ids(self) -> MeaActionIds:
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
        check_steps(self, prefix)
        chosen_by_none = ids_without_choice(self, prefix)
        if chosen_by_none is not None:
            return chosen_by_none
        if prefix:
            return []  # (a Méa action is one step: none follows another)
        legal = self.legal_actions()
        if isinstance(legal, MainActions):
            return sorted(legal.ids())
        if isinstance(legal, ChoiceActions):
            return sorted(legal.ids())
        return sorted(self._action_ids(a)[0] for a in legal)

    def _shuffle_left(self, prefix: Sequence[int]) -> tuple[int, list[int]]:
        """Which deck the next shuffle step orders (0 or 1) and its positions not placed yet."""
        tab = self._tab
        first = tab.offset[1]  # the first deck's size (the second's cards follow it)
        if len(prefix) < first:
            seat, size, placed = 0, first, set(prefix)
        else:
            seat, size, placed = 1, len(tab.cards) - first, set(prefix[first:])
        return seat, [k for k in range(size) if k not in placed]

    def chance_ids(self, prefix: Sequence[int] = ()) -> list[tuple[int, float]]:
        check_steps(self, prefix)
        if self.current_player != CHANCE:
            return []
        if len(prefix) >= len(self._tab.cards):
            return []  # (the shuffle is a step per card: none follows the last)
        _, left = self._shuffle_left(prefix)
        chance = 1 / len(left)
        return [(k, chance) for k in left]

    def action_from_ids(self, ids: Sequence[int]) -> MeaAction | None:
        if not ids:
            return None
        check_steps(self, ids)
        if self.current_player == CHANCE:
            tab = self._tab
            if len(ids) < len(tab.cards):  # both decks' sizes
                return None
            if len(ids) > len(tab.cards):
                raise IllegalAction(
                    f"a shuffle is {counted(len(tab.cards), 'step')}, a card each, not {len(ids)}", "steps"
                )
            first = tab.offset[1]
            return Shuffle([ids[:first], ids[first:]])
        if len(ids) > 1:
            raise IllegalAction(f"a Méa action is one step; no step follows {ids[0]}", "steps", self.current_player)
        step = ids[0]
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
        self.check(action)
        return self._action_ids(action)

    def _action_ids(self, action: Any) -> tuple[int, ...]:
        """:meth:`action_ids` of an action known to be legal here (the legal lists' own)."""
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
        observation = self.observation(check_seat(seat, 2))
        check_steps(self, prefix)  # (a Méa action is one step: no prefix changes what a seat knows)
        return repr(sorted(observation.public().items()))

    def observation_tensor(self, seat: int, prefix: Sequence[int] = ()) -> list[float]:
        check_seat(seat, 2)
        check_steps(self, prefix)
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
        seat = check_seat(seat, 2)
        return self.observation(seat).view.determinise(seat, rng)

    # -- for determinised search --

    def determinise(self, player: int, rng: random.Random, known: Collection[int] = ()) -> MeaState:
        """From a redacted view (an observation's), a full state: the unseen cards
        dealt at random into the other hand and both decks. Pure sampling, no
        inference from play, but for ``known``: cards of the other seat's known to be in its
        hand (seen going back to it), each swapped in (when the deal left it in the deck)
        for a random card of the deal's that is not known. The result's history and seed are
        empty."""
        player = check_seat(player, 2)
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


@contextmanager
def _field(name: str) -> Iterator[None]:
    """A refusal of a position's description (:meth:`MeaState.position`) names the field ``name``
    it comes from: an :class:`InvalidPosition` or :class:`InvalidSeat` inside is an
    :class:`InvalidPosition` whose message begins with the field."""
    try:
        yield
    except InvalidSeat as error:
        raise InvalidPosition(f"{name}: {error}", "seat") from None
    except InvalidPosition as error:
        raise InvalidPosition(f"{name}: {error}", error.rule) from None


def _position_tile(t: object) -> int:
    """A tile of a position's description: its name (``b2``) or its position number."""
    if isinstance(t, str):
        try:
            return B.parse(t)
        except ValueError as error:
            raise InvalidPosition(f"{quoted(t)} is no tile: {error}", "tile") from None
    if type(t) is int:
        return t
    raise InvalidPosition(f"a tile is named like b2, not {quoted(t)}", "tile")


def _check_turns(rules: MeaRules, active: int, turns_taken: tuple[int, int] | None, mana: int | None) -> None:
    """:meth:`MeaState.position`'s turns and mana: each seat's turns begun, P1 first and then in
    turn, within the turn limit; mana a whole number, 0 or more."""
    if mana is not None and (type(mana) is not int or mana < 0):
        raise InvalidPosition(f"mana is a whole number, 0 or more, not {mana!r}", "count")
    if turns_taken is None:
        return
    if len(turns_taken) != 2 or any(type(k) is not int or k < 0 for k in turns_taken):
        raise InvalidPosition(f"turns_taken is two whole numbers, 0 or more, not {turns_taken!r}", "count")
    first, second = turns_taken
    if (first, second) != ((second + 1, second) if active == 0 else (first, first)) or first < 1:
        need = "one more turn than P2" if active == 0 else "as many turns as P1, at least 1"
        raise InvalidPosition(
            f"turns_taken {first, second} in {seat_name(active)}'s turn: the players take turns, P1 first,"
            f" so {seat_name(active)} has begun {need}",
            "turn-order",
        )
    if first + second > rules.max_turns:
        raise InvalidPosition(
            f"turn {first + second} is past the turn limit of {rules.max_turns}: the game ended after turn"
            f" {rules.max_turns}",
            "game-over",
        )
