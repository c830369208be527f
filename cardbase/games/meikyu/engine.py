"""Meikyu Kingdom's rules engine: setup, the four-step turn, the four actions, dice, and
every effect the rulebook names.

Implements the engine protocol of :mod:`cardbase.games.base`. Chance is explicit: each
card drawn from the Kingdom pile (``draw Bee``), each room turned up from the Meikyu pile
(``reveal Den of the Geister``) and each die (``roll 4``) is a chance action drawn from
the state's seeded RNG. The piles are unordered multisets, which is what a shuffled
face-down pile is to every player, so drawing uniformly from them is the same game.

A turn runs as a stack of small steps (draw, action, discard, refill, end); a step that
needs a choice stops and names the player who must choose (``current_player``) and what
kind of choice it is (``decision``). Player actions:

``quest <room> with <cards>``, ``develop <land> with <characters>``,
``attack P2 <land> with <cards> by Gotcha!`` (or ``by Council Chamber``), ``resupply``,
``map``, ``mixed area P3``; and the choices the rules hand out on the way: ``defend with
<cards>`` / ``defend``, ``amulet`` / ``pass``, ``draw`` / ``tomb``, ``keep <card>``,
``return <card>``, ``discard <card>``, ``discard land <land>``, ``give <land>``.
A card list is comma-separated names; ``Amulet as character`` plays an item as a
character through the Laboratory. See ``docs/rules/meikyu.md`` for every reading.

The engine is a package of modules, one concept each: ``codes`` (the integers it runs on and the
turn's stack of steps), ``actions`` (the action values and their notation), ``notation`` (reading
it back), ``rules`` (the options and the outcome), ``tables`` (per-pool look-up tables, action ids,
the sword arithmetic), ``observation`` (what a seat sees). This module is the state: it stays one
class of about 1,900 lines because its steps and its move generation share the state's flat
per-seat lists and stack, and read as one turn machine (``_OPS``, ``_LEGAL`` at the end map each
step and each decision to its method); split into mixins it would send a reader through several
files for one turn. It re-exports the public surface (``__all__``).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, overload

from cardbase.errors import counted, plural, quoted
from cardbase.games.base import (
    CHANCE,
    SPECTATOR,
    TERMINAL,
    CheckedSteps,
    IllegalAction,
    InvalidAction,
    InvalidPosition,
    Outcome,
    State,
    check_names,
    check_notation,
    check_seat,
    check_seats,
    check_steps,
    counts,
    ids_without_choice,
    one_hot,
    sliced,
    to_act,
    whole_number,
)
from cardbase.games.meikyu.actions import (
    _ACTION_CLASSES,
    _CHOICE_VERBS,
    AMULET,
    COUNCIL,
    DRAW,
    MAP,
    PASS,
    RESUPPLY,
    TOMB,
    WORDS,
    Attack,
    Choose,
    Defend,
    Develop,
    DrawCard,
    MeikyuAction,
    MixedArea,
    Quest,
    Reveal,
    Roll,
    Word,
)
from cardbase.games.meikyu.codes import (
    _CONTEXT_KINDS,
    A_AMULET,
    A_CASINO,
    A_DEFEND,
    A_DRAW,
    A_GIVE,
    A_HANDLIMIT,
    A_HOSPITAL,
    A_HOT,
    A_KEEP,
    A_LANDCAP,
    A_MAIN,
    A_MIXED,
    A_NONE,
    A_ORDER,
    A_REFUGEE,
    A_REVEAL,
    A_ROLL,
    A_TOMB,
    A_TSUNAMI,
    AGGR,
    ATTACK,
    B_ARCHIVES,
    B_CASINO,
    B_COUNCIL,
    B_FARM,
    B_HAREM,
    B_HOSPITAL,
    B_HOT,
    B_LAB,
    B_MARKET,
    B_MIXED,
    B_TOMB,
    CHAR,
    DECISIONS,
    DEFEND,
    DEVELOP,
    END_LIMIT,
    END_POINTS,
    END_ROOMS,
    F_AFTER,
    F_ARESOLVE,
    F_ENDTURN,
    F_MAIN,
    F_QRESOLVE,
    ITEM,
    OP_CAPACITY,
    OP_CASINO,
    OP_CDRAW,
    OP_DEALCHECK,
    OP_ENDTURN,
    OP_FIRSTDECIDE,
    OP_FIRSTROLL,
    OP_KEEP,
    OP_OPEN,
    OP_REFDISC,
    OP_REVEAL,
    OP_ROLL,
    OP_SETUP,
    OP_SETUPROLL,
    OP_TSUNAMI,
    OP_TURN,
    OPEN,
    QUEST,
    TO_ARCHIVES,
    TO_HAND,
    TO_SETUP,
    X_GRIMOIRE,
    X_REFUGEE,
    X_STORM,
    X_SWORD,
    X_TSUNAMI,
)
from cardbase.games.meikyu.notation import _seat, parse_action
from cardbase.games.meikyu.observation import MeikyuObservation, describe_legal
from cardbase.games.meikyu.rules import (
    DEAL,
    HAND_LIMIT,
    MAX_LANDS,
    ROOMS,
    MeikyuRules,
    final_outcome,
    lands_held,
    shared_developed,
)
from cardbase.games.meikyu.tables import (
    _WORD_IDS,
    _WORD_LIST,
    MEMO_LIMIT,
    SETS_LIMIT,
    CardSets,
    MeikyuTables,
    Played,
    StepNode,
    land_swords,
    make_room,
)

__all__ = [  # the engine's public surface; the integer codes are in codes.py, the rules in rules.py
    "ActionList",
    "Attack",
    "Choose",
    "Defend",
    "Develop",
    "DrawCard",
    "MeikyuAction",
    "MeikyuObservation",
    "MeikyuRules",
    "MeikyuState",
    "MixedArea",
    "Quest",
    "Reveal",
    "Roll",
    "Word",
    "describe_legal",
    "parse_action",
]

HELD_THEN = "held then"
"""A Dungeon Tsunami frame's choices under ``tsunami_pass="any"``: the lands held at that player's place
in the order, looked at then (under ``held``, the frame lists the lands held when the card was played)."""

# --- legal-action listing ----------------------------------------------------------------


class ActionList(Sequence[Any]):
    """A player's main choices, lazily: free plays, then quests (room × card set), then
    attacks (way × target × card set), then developments (land × characters). ``len``
    and indexing build only the action asked for (interned in the tables: equal actions
    asked for again are the same object)."""

    __slots__ = (
        "_attacks",
        "_by",
        "_dc",
        "_free",
        "_len",
        "_nfree",
        "_nq",
        "_qc",
        "_quests",
        "_rooms",
        "_t",
        "_targets",
        "_undeveloped",
    )

    def __init__(
        self,
        t: MeikyuTables,
        free: Sequence[Any],
        rooms: Sequence[int],
        qc: CardSets,
        by: Sequence[str],
        targets: Sequence[tuple[int, str | None]],
        undeveloped: Sequence[int],
        dc: CardSets,
    ):
        self._t = t
        self._free = free
        self._rooms = rooms
        self._qc = qc
        self._by = by
        self._targets = targets
        self._undeveloped = undeveloped
        self._dc = dc
        self._nfree = nfree = len(free)
        self._nq = nq = len(qc)
        # Where the quests and the attacks end.
        self._quests = quests = nfree + nq * len(rooms)
        self._attacks = attacks = quests + nq * len(by) * len(targets)
        self._len = attacks + len(undeveloped) * len(dc)

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, i: int) -> Any: ...

    @overload
    def __getitem__(self, i: slice) -> tuple[Any, ...]: ...

    def __getitem__(self, i: int | slice) -> Any:
        if type(i) is slice:
            return sliced(self, i)
        if i < 0:
            i += self._len
        if not 0 <= i < self._len:
            raise IndexError(i)
        if i < self._nfree:
            return self._free[i]
        if i < self._quests:
            r, c = divmod(i - self._nfree, self._nq)
            names, lab = self._qc[c]
            return self._t.quest(self._rooms[r], names, lab)
        if i < self._attacks:
            nq = self._nq
            w, rest = divmod(i - self._quests, len(self._targets) * nq)
            g, c = divmod(rest, nq)
            names, lab = self._qc[c]
            q, land = self._targets[g]
            return self._t.attack(q, land, names, lab, self._by[w])
        u, c = divmod(i - self._attacks, len(self._dc))
        return self._t.develop(self._undeveloped[u], self._dc[c][0])

    def __iter__(self) -> Iterator[Any]:
        for i in range(self._len):
            yield self[i]

    def __repr__(self) -> str:
        return f"<{counted(self._len, 'legal action')}>"

    def __contains__(self, action: object) -> bool:
        return any(action == a for a in self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


# --- state -------------------------------------------------------------------------


class MeikyuState(State):
    """A Meikyu game in progress. See :class:`cardbase.games.base.State` for the protocol."""

    __slots__ = (
        "_arch",
        "_args",
        "_ask",
        "_ctx",
        "_deff",
        "_eff",
        "_end",
        "_hands",
        "_held",
        "_hkey",
        "_hot_done",
        "_hsize",
        "_inplay",
        "_kcount",
        "_kdisc",
        "_kpile",
        "_lands",
        "_mapped",
        "_mcount",
        "_mdisc",
        "_mpile",
        "_n",
        "_pts",
        "_reach",
        "_reached",
        "_refugees",
        "_rolls",
        "_rooms",
        "_shown",
        "_skips",
        "_stack",
        "_t",
        "_takeable",
        "_tomb_dead",
        "_turn",
        "_turns",
        "_undev",
        "current_player",
        "history",
        "rng",
        "rules",
        "seed",
    )

    rules: MeikyuRules

    def __init__(self, rules: MeikyuRules, seed: int | None = None, *, _blank: bool = False):
        self.rules = rules
        self.seed = seed
        self.rng = random.Random(seed)
        self.history = []
        t = rules.tables
        self._t = t
        n = rules.players
        self._n = n
        self._kpile: list[int] = list(t.kingdom_cards)
        # The Kingdom pile's counts by kind for chance_ids, once asked: [the pile, its size,
        # the counts], kept by a draw; stale (recounted) once the pile is another or resized.
        self._kcount: list[Any] | None = None
        self._mcount: list[Any] | None = None  # the same for the Meikyu pile's lands, by a reveal
        self._kdisc: list[int] = []
        self._hands: list[list[int]] = [[0] * t.K for _ in range(n)]
        self._held = [0] * n  # per seat, a bit per kingdom card ever in the hand (for reports)
        # Per seat, the kinds every player saw go into that hand face up (the Hospital's
        # return) and not seen leave it since: the observation shows them (Rule: Hospital).
        self._shown: list[list[int]] = [[] for _ in range(n)]
        # Kept with each hand: its size and its key in the memos (MeikyuTables.hand_key).
        self._hsize = [0] * n
        self._hkey = [0] * n
        self._mpile: list[int] = list(t.land_cards)
        self._rooms: list[int] = []
        self._mdisc: list[int] = []
        self._lands: list[list[int]] = [[] for _ in range(n)]  # entries: kind << 1 | developed
        self._eff = [0] * n
        self._deff = [0] * n
        self._refugees: list[list[int]] = [[] for _ in range(n)]
        self._pts = [0] * n
        # goal_check="reached": the points at which a kingdom (within its land limit) ends the game
        # after this turn, whatever it holds at the turn's end, and whether one has this turn.
        self._reach = rules.goal if rules.goal_check == "reached" else 1 << 30
        self._reached = False
        # Derived from each kingdom by _recount: the lands an aggression may take and the
        # lands its owner may develop.
        self._takeable: list[tuple[int, ...]] = [()] * n
        self._undev: list[tuple[int, ...]] = [()] * n
        self._skips = [0] * n
        self._hot_done = False
        self._tomb_dead = not t.tomb_lands
        self._turn = 0
        self._turns = 0
        self._stack: list[tuple[Any, ...]] = [(OP_SETUP,)]
        self._ask = A_NONE
        self._args: tuple[Any, ...] = ()
        self._inplay: list[int] = []
        self._ctx: dict[str, Any] | None = None
        self._mapped: list[int] = []
        self._arch: list[int] = []
        self._rolls: dict[int, int] = {}
        self._end = ""
        self.current_player = CHANCE
        if not _blank:
            self._run()

    # -- reading the state --

    @property
    def decision(self) -> str:
        """What is being decided now: ``action``, ``defend``, ``amulet``, ``chance``, ``over`` …"""
        return DECISIONS[self._ask]

    @property
    def turn_player(self) -> int:
        """Whose turn it is (the current player may be someone else, e.g. a defender)."""
        return self._turn

    @property
    def turns(self) -> int:
        """Turns finished (lost turns included)."""
        return self._turns

    @property
    def ask(self) -> int:
        """The code of what is being decided (``codes.A_MAIN``, ``A_DEFEND`` …; :attr:`decision` is
        its name), as an observation's ``ask``."""
        return self._ask

    def hand_counts(self, seat: int) -> Sequence[int]:
        """A seat's hand as copies per Kingdom card kind (the pool tables' index), as an
        observation's ``hand``: the engine's own list, changed by the next action (never modify it)."""
        seat = check_seat(seat, self._n)
        return self._hands[seat]

    def hand_key(self, seat: int) -> int:
        """The key of a seat's hand in the pool tables' memos (``tables.hand_key`` of
        :meth:`hand_counts`), kept in step as cards come and go rather than worked out again."""
        seat = check_seat(seat, self._n)
        return self._hkey[seat]

    def lands(self, seat: int) -> Sequence[int]:
        """A seat's lands, each ``kind << 1 | developed`` (the pool tables' land index), as an
        observation's ``lands``: the engine's own list, changed by the next action (never modify it)."""
        seat = check_seat(seat, self._n)
        return self._lands[seat]

    def effects(self, seat: int) -> tuple[int, int]:
        """The land-effect bits of a seat's kingdom: (owned, developed), as an observation's."""
        seat = check_seat(seat, self._n)
        return self._eff[seat], self._deff[seat]

    def takeable(self, seat: int) -> tuple[int, ...]:
        """The lands of a seat's kingdom an aggression may take (the pool tables' land index),
        each once, in the order first held."""
        seat = check_seat(seat, self._n)
        return self._takeable[seat]

    def undeveloped(self, seat: int) -> tuple[int, ...]:
        """The lands of a seat's kingdom it may develop (the pool tables' land index), each once,
        in the order first held."""
        seat = check_seat(seat, self._n)
        return self._undev[seat]

    def parts(self) -> tuple[list[list[int]], list[int], list[int], list[int]]:
        """The cards :meth:`from_parts` places, as they lie (copies): every hand as copies per
        Kingdom card kind, the Kingdom pile and the Meikyu pile as lists of kinds, and the
        Archives' draw."""
        return [list(h) for h in self._hands], list(self._kpile), list(self._mpile), list(self._arch)

    def hand(self, seat: int) -> dict[str, int]:
        """A seat's hand: card name → copies."""
        seat = check_seat(seat, self._n)
        t = self._t
        return {t.knames[k]: self._hands[seat][k] for k in t.alpha if self._hands[seat][k]}

    def hand_size(self, seat: int) -> int:
        """How many Kingdom cards seat ``seat`` holds."""
        seat = check_seat(seat, self._n)
        return self._hsize[seat]

    def rooms(self) -> tuple[str, ...]:
        """The face-up rooms, by room name."""
        return tuple(self._t.lnames[r] for r in self._rooms)

    def kingdom(self, seat: int) -> tuple[tuple[str, bool], ...]:
        """A seat's lands: (room name, developed)."""
        seat = check_seat(seat, self._n)
        return tuple((self._t.lnames[e >> 1], bool(e & 1)) for e in self._lands[seat])

    def refugees(self, seat: int) -> int:
        """How many Refugees seat ``seat`` has placed."""
        seat = check_seat(seat, self._n)
        return len(self._refugees[seat])

    def points(self, seat: int) -> int:
        """A kingdom's points: its lands (developed ones at their developed value), Refugees,
        and the Farm's point under ``farm="points"``."""
        seat = check_seat(seat, self._n)
        return self._pts[seat]

    def capacity(self, seat: int) -> int:
        """How many lands a seat's kingdom may hold (5, or 6 with the Farm under ``farm="lands"``)."""
        seat = check_seat(seat, self._n)
        return self.rules.capacity(bool(self._eff[seat] & B_FARM))

    def land_count(self, seat: int) -> int:
        """The lands a seat holds for the land limit and the tie-break: its Meikyu lands, and
        its Refugees under ``refugee="land"``."""
        seat = check_seat(seat, self._n)
        return lands_held(self.rules, self._lands[seat], self._refugees[seat])

    def skips(self, seat: int) -> int:
        """Turns a seat is yet to lose (the Mixed Area)."""
        seat = check_seat(seat, self._n)
        return self._skips[seat]

    def kingdom_pile(self) -> dict[str, int]:
        """The Kingdom pile's cards: name → copies (not their order)."""
        t = self._t
        out: dict[str, int] = {}
        for k in self._kpile:
            out[t.knames[k]] = out.get(t.knames[k], 0) + 1
        return out

    def discard_pile(self) -> tuple[str, ...]:
        """The Kingdom discard pile, bottom first (the last is on top)."""
        return tuple(self._t.knames[k] for k in self._kdisc)

    def meikyu_pile_size(self) -> int:
        """How many cards are left in the Meikyu pile."""
        return len(self._mpile)

    def meikyu_discards(self) -> tuple[str, ...]:
        """The discarded rooms (Meikyu cards), by name."""
        return tuple(self._t.lnames[land] for land in self._mdisc)

    def in_play(self) -> tuple[str, ...]:
        """Cards used in the action under way, or a Refugee's discards chosen out of its drawer's turn,
        face up, waiting for the discard pile (in the turn player's order)."""
        return tuple(self._t.knames[k] for k in self._inplay)

    def context(self) -> dict[str, Any] | None:
        """The action under way (quest, development, aggression) with its totals and dice."""
        return None if self._ctx is None else dict(self._ctx, dice=list(self._ctx.get("dice", ())))

    def zones(self) -> dict[str, int]:
        """How many cards are in each place; they always add up to the pool's size."""
        return {
            "kingdom pile": len(self._kpile),
            "kingdom discards": len(self._kdisc),
            "hands": sum(self._hsize),
            "in play": len(self._inplay),
            "archives draw": len(self._arch),
            "refugees": sum(len(r) for r in self._refugees),
            "meikyu pile": len(self._mpile),
            "rooms": len(self._rooms),
            "meikyu discards": len(self._mdisc),
            "kingdoms": sum(len(lands) for lands in self._lands),
        }

    def facts(self) -> dict[str, Any]:
        """Facts for batch reports (the runner keeps them): turns, how the game ended, each
        kingdom's lands with their points at the end, Refugees, and the Kingdom cards each seat
        ever held in hand."""
        t = self._t
        return {
            "turns": self._turns,
            "end": self._end,
            "points": [self.points(s) for s in range(self._n)],
            "lands": [
                [[t.lnames[e >> 1], t.dev_points[e >> 1] if e & 1 else t.points[e >> 1]] for e in self._lands[s]]
                for s in range(self._n)
            ],
            "refugees": [len(r) for r in self._refugees],
            "held": [[t.knames[k] for k in range(t.K) if self._held[s] >> k & 1] for s in range(self._n)],
        }

    # -- the turn machine --

    def _run(self) -> None:
        stack = self._stack
        ops = _OPS
        while stack:
            frame = stack.pop()
            if ops[frame[0]](self, frame):
                return

    def _wait(self, ask: int, player: int, args: tuple[Any, ...] = ()) -> bool:
        self._ask = ask
        self._args = args
        self.current_player = player
        return True

    def _recount(self, p: int) -> None:
        """Recompute what follows from a seat's kingdom after it changed: land-effect bits,
        points, the lands an aggression may take (not the Castle Tower, in the order first
        held) and the lands to develop."""
        t = self._t
        lbit = t.lbit
        castle = t.castle
        eff = deff = 0
        pts = len(self._refugees[p])
        takeable: list[int] = []
        undev: list[int] = []
        for e in self._lands[p]:  # one pass (this runs whenever a kingdom changes)
            land = e >> 1
            b = lbit[land]
            eff |= b
            if e & 1:
                deff |= b
                pts += t.dev_points[land]
            else:
                pts += t.points[land]
                undev.append(land)
            if land not in castle:
                takeable.append(land)
        if eff & B_FARM and self.rules.farm == "points":
            pts += 1
        if pts >= self._reach and lands_held(self.rules, self._lands[p], self._refugees[p]) <= self.rules.capacity(
            bool(eff & B_FARM)
        ):  # (goal_check="reached"; a moment over the land limit, before its discard, does not count)
            self._reached = True
        self._eff[p] = eff
        self._deff[p] = deff
        self._pts[p] = pts
        if t.unique_lands:
            self._takeable[p] = tuple(takeable)
            self._undev[p] = tuple(undev)
        else:  # two copies of a land are one choice
            self._takeable[p] = tuple(dict.fromkeys(takeable))
            self._undev[p] = tuple(dict.fromkeys(undev))

    def _give_card(self, p: int, k: int) -> None:
        self._hands[p][k] += 1
        self._held[p] |= 1 << k
        self._hsize[p] += 1
        self._hkey[p] += self._t.hand_weight[k]

    def _take_card(self, p: int, k: int) -> None:
        self._hands[p][k] -= 1
        self._hsize[p] -= 1
        self._hkey[p] -= self._t.hand_weight[k]
        if self._shown[p]:
            self._forget(p)

    def _forget(self, p: int) -> None:
        """Keep a seat's shown cards within its hand once cards have left it (a card that
        left face up may have been the one shown: kinds are alike)."""
        hand = self._hands[p]
        shown = self._shown[p]
        for k in set(shown):
            while shown.count(k) > hand[k]:
                shown.remove(k)

    def _op_setup(self, frame: tuple[Any, ...]) -> bool:
        stack = self._stack
        n = self._n
        stack.append((OP_FIRSTROLL, tuple(range(n))))
        stack.append((OP_DEALCHECK,))
        for seat in reversed(range(n)):
            for _ in range(DEAL):
                stack.append((OP_CDRAW, seat, TO_SETUP))
        for _ in range(ROOMS):
            stack.append((OP_REVEAL, False))
        return False

    def _op_dealcheck(self, frame: tuple[Any, ...]) -> bool:
        """A hand dealt with an OPEN card goes back to the pile and four new cards are drawn; then the
        hands are checked again. ``redeal="each"``: the first such hand, then the check again (a
        later one is still held while it draws); ``"together"``: every such hand goes back first,
        then each draws anew in seat order."""
        opens = self._t.opens
        returned: list[int] = []
        for seat in range(self._n):
            hand = self._hands[seat]
            if any(hand[k] for k in opens):
                for k, c in enumerate(hand):
                    self._kpile.extend([k] * c)
                    hand[k] = 0
                self._held[seat] = 0  # a returned deal was never held
                self._shown[seat] = []
                self._hsize[seat] = 0
                self._hkey[seat] = 0
                returned.append(seat)
                if self.rules.redeal == "each":
                    break
        if returned:
            self._stack.append((OP_DEALCHECK,))
            for seat in reversed(returned):  # (a stack: the first seat draws first)
                for _ in range(DEAL):
                    self._stack.append((OP_CDRAW, seat, TO_SETUP))
        return False

    def _op_firstroll(self, frame: tuple[Any, ...]) -> bool:
        contenders = frame[1]
        self._rolls = {}
        self._stack.append((OP_FIRSTDECIDE, contenders))
        for seat in reversed(contenders):
            self._stack.append((OP_SETUPROLL, seat))
        return False

    def _op_setuproll(self, frame: tuple[Any, ...]) -> bool:
        return self._wait(A_ROLL, CHANCE, (frame[1], -1))

    def _op_firstdecide(self, frame: tuple[Any, ...]) -> bool:
        contenders = frame[1]
        best = max(self._rolls[c] for c in contenders)
        top = tuple(c for c in contenders if self._rolls[c] == best)
        if len(top) > 1:
            self._stack.append((OP_FIRSTROLL, top))
        else:
            self._turn = top[0]
            self._stack.append((OP_TURN,))
        return False

    def _op_turn(self, frame: tuple[Any, ...]) -> bool:
        p = self._turn
        self._ctx = None
        self._reached = False
        stack = self._stack
        if self._skips[p]:  # the Mixed Area: the turn is lost, its step 3 and Hot Springs too (step 4 still refills)
            self._skips[p] -= 1
            self._ctx = {"kind": "lost turn", "player": p}
            self._hot_done = True
            stack.append(F_ENDTURN)
            return False
        self._hot_done = False
        stack.append(F_ENDTURN)
        stack.append(F_MAIN)
        return self._draw1(p)

    def _draw1(self, p: int) -> bool:
        """Seat ``p`` draws a card (step 1, a resupply, the Market, the Casino, the Hot
        Springs): the Tomb offers the top discard instead, the Archives draw two to keep one."""
        eff = self._eff[p]
        if eff & B_TOMB:
            kdisc = self._kdisc
            if kdisc and self._t.ktype[kdisc[-1]] != OPEN:
                return self._wait(A_TOMB, p, (p,))
        if eff & B_ARCHIVES:
            return self._pile_draw(p)
        return self._draw_card(p, TO_HAND)

    def _pile_draw(self, p: int) -> bool:
        """A draw from the pile: one card, or two to choose from with the Archives."""
        if self._eff[p] & B_ARCHIVES:
            stack = self._stack
            stack.append((OP_KEEP, p))
            stack.append((OP_CDRAW, p, TO_ARCHIVES))
            stack.append((OP_CDRAW, p, TO_ARCHIVES))
            return False
        return self._draw_card(p, TO_HAND)

    def _op_cdraw(self, frame: tuple[Any, ...]) -> bool:
        return self._draw_card(frame[1], frame[2])

    def _draw_card(self, p: int, dest: int) -> bool:
        """Wait for the card seat ``p`` draws for ``dest`` (TO_HAND, TO_ARCHIVES, TO_SETUP),
        the discards shuffled into a new pile first if the pile is empty; nothing if both are."""
        if not self._kpile:
            if not self._kdisc:
                return False  # nothing anywhere to draw
            self._kpile = self._kdisc
            self._kdisc = []
        self._ask = A_DRAW
        self._args = (p, dest)
        self.current_player = CHANCE
        return True

    def _op_keep(self, frame: tuple[Any, ...]) -> bool:
        p = frame[1]
        arch = self._arch
        if not arch:
            return False
        if len(arch) == 1 or arch[0] == arch[1]:
            self._give_card(p, arch.pop())
            self._kdisc.extend(arch)
            arch.clear()
            return False
        return self._wait(A_KEEP, p, (p,))

    def _op_open(self, frame: tuple[Any, ...]) -> bool:
        _, p, k = frame
        eff = self._t.keff[k]
        stack = self._stack
        if eff == X_REFUGEE:
            self._refugees[p].append(k)
            self._recount(p)
            if self.rules.refugees_are_lands:  # then a land over the limit goes (after the two cards)
                stack.append((OP_CAPACITY, p, -1))
            stack.append((OP_REFDISC, p, 2))
            return False
        self._kdisc.append(k)
        if eff == X_STORM:
            self._mdisc.extend(self._rooms)
            self._rooms.clear()
            self._mapped.clear()
            for _ in range(ROOMS):
                stack.append((OP_REVEAL, False))
        elif eff == X_TSUNAMI:
            n = self._n
            order = [(p + i) % n for i in range(n)]
            for q in reversed(order):
                stack.append((OP_CAPACITY, q, -1))
            kept = self._t.castle if self.rules.castle_tsunami == "stays" else frozenset()
            landless = self.rules.tsunami_landless == "may-pass"
            as_held_then = self.rules.tsunami_pass == "any"
            for q in reversed(order):
                passable = {e >> 1 for e in self._lands[q]} - kept
                if as_held_then and self._lands[q]:
                    stack.append((OP_TSUNAMI, q, HELD_THEN))
                elif passable:
                    stack.append((OP_TSUNAMI, q, tuple(sorted(passable))))
                elif landless and not self._lands[q]:  # no Claimed Lands now: may pass one received by its turn
                    stack.append((OP_TSUNAMI, q, None))
        return False

    def _op_refdisc(self, frame: tuple[Any, ...]) -> bool:
        """The Refugee's two discards (as the hand holds), chosen by its drawer one at a time. Out of
        the drawer's turn (refugee_order="turn") they are set aside face up with the cards in play and
        go on the discard pile in the turn player's order (:meth:`_discard_batch`): "the order that
        they are placed on the discard pile is decided by the player whose turn it currently is"."""
        _, p, m = frame
        if m > 0 and self._hsize[p] > 0:
            self._stack.append((OP_REFDISC, p, m - 1))
            return self._wait(A_REFUGEE, p, (p,))
        if p != self._turn and self.rules.refugee_order == "turn":
            return self._discard_batch(p)
        return False

    def _op_reveal(self, frame: tuple[Any, ...]) -> bool:
        if not self._mpile:
            return False
        return self._wait(A_REVEAL, CHANCE, (frame[1],))

    def _op_main(self, frame: tuple[Any, ...]) -> bool:
        self._ask = A_MAIN
        self._args = (self._turn,)
        self.current_player = self._turn
        return True

    def _op_roll(self, frame: tuple[Any, ...]) -> bool:
        self._ask = A_ROLL
        self._args = (frame[1], frame[2])
        self.current_player = CHANCE
        return True

    def _window(self, roller: int, slot: int, i: int) -> bool:
        """After a die (``roller``'s, in ``slot`` of the dice): the seats from the ``i``-th in
        turn order on may play an Amulet to have it rerolled (asked: the holders, or everyone)."""
        n = self._n
        if self.rules.amulet_ask == "everyone":
            if i < n:
                return self._wait(A_AMULET, (self._turn + i) % n, (roller, slot, i))
            return False
        amulets = self._t.amulets
        for j in range(i, n):
            seat = (self._turn + j) % n
            hand = self._hands[seat]
            for a in amulets:
                if hand[a]:
                    return self._wait(A_AMULET, seat, (roller, slot, j))
        return False

    def _op_qresolve(self, frame: tuple[Any, ...]) -> bool:
        ctx = self._ctx
        assert ctx is not None
        p = self._turn
        room = ctx["room"]
        total = ctx["swords"] + ctx["dice"][0]
        success = total >= ctx["level"] and room in self._rooms
        ctx["total"] = total
        ctx["success"] = success
        if success:
            self._rooms.remove(room)
            if room in self._mapped:
                self._mapped.remove(room)
            self._lands[p].append(room << 1)
            self._recount(p)
            return self._then_after(self._over_capacity(p, room))
        if self._eff[p] & B_HOSPITAL and ctx["chars"]:
            return self._then_after(self._wait(A_HOSPITAL, p, (p,)))
        return self._op_after(F_AFTER)

    def _then_after(self, waiting: bool) -> bool:
        """The step after an action (:meth:`_op_after`) next, or, if ``waiting`` for a choice
        first, once that is made."""
        if waiting:
            self._stack.append(F_AFTER)
            return True
        return self._op_after(F_AFTER)

    def _op_aresolve(self, frame: tuple[Any, ...]) -> bool:
        ctx = self._ctx
        assert ctx is not None
        p, q = ctx["attacker"], ctx["defender"]
        ta = ctx["swords"] + ctx["dice"][0]
        td = ctx["defence"] + ctx["dice"][1]
        ctx["total"] = ta
        ctx["defence_total"] = td
        ctx["success"] = ta > td
        if ta <= td:
            return self._op_after(F_AFTER)
        land = ctx["land"]
        if land >= 0:
            return self._then_after(self._steal(p, q, land))
        if self._stealable(q):  # the defender chooses which land to give
            return self._then_after(self._wait(A_GIVE, q, (q,)))
        return self._op_after(F_AFTER)

    def _steal(self, p: int, q: int, land: int) -> bool:
        """Seat ``p`` takes ``land`` from seat ``q``; True if ``p`` must then discard a land."""
        lands = self._lands[q]
        for i, e in enumerate(lands):
            if e >> 1 == land:
                del lands[i]
                self._lands[p].append(land << 1)
                self._recount(p)
                self._recount(q)
                if self._ctx is not None:
                    self._ctx["stolen"] = land
                return self._over_capacity(p, land)
        return False

    def _stealable(self, q: int) -> tuple[int, ...]:
        """The lands of seat ``q`` an aggression may take, in the order first held."""
        return self._takeable[q]

    def _op_after(self, frame: tuple[Any, ...]) -> bool:
        ctx = self._ctx
        stack = self._stack
        # The Casino: a draw for a 6 rolled by a player who owned the Casino when rolling it
        # (not one who takes it with that die, but one who loses it to that aggression).
        if ctx is not None and "sixes" in ctx:  # casino="every": one draw per 6 rolled
            for slot in reversed(ctx["sixes"]):
                stack.append((OP_CASINO, ctx["rollers"][slot]))
        elif ctx is not None and "rollers" in ctx and 6 in ctx["dice"]:
            dice = ctx["dice"]
            casinos = ctx["casinos"]
            for slot in reversed(range(len(ctx["rollers"]))):
                if dice[slot] == 6 and casinos[slot]:
                    stack.append((OP_CASINO, ctx["rollers"][slot]))
        return self._discard_batch()

    def _tomb_matters(self) -> bool:
        """Whether a Tomb can still come into play (the order of discards matters then)."""
        if self._tomb_dead:
            return False
        t = self._t
        for land in t.tomb_lands:
            if self._mdisc.count(land) < t.land_copies[land]:
                return True
        self._tomb_dead = True
        return False

    def _discard_batch(self, refugee: int = -1) -> bool:
        """The cards in play go to the discard pile: at once, or one at a time in the turn
        player's order while the Tomb can still come into play (``refugee``: the seat whose
        Refugee's discards they are, out of its turn, kept in the decision's args as its reason)."""
        inplay = self._inplay
        if not inplay:
            return False
        if inplay.count(inplay[0]) == len(inplay) or not self._tomb_matters():
            self._kdisc.extend(inplay)
            inplay.clear()
            return False
        return self._wait(A_ORDER, self._turn, (self._turn,) if refugee < 0 else (self._turn, refugee))

    def _op_casino(self, frame: tuple[Any, ...]) -> bool:
        r = frame[1]
        if self._kpile or self._kdisc:  # (the Casino was owned when the 6 was rolled: _op_after)
            return self._wait(A_CASINO, r, (r,))
        return False

    def _landcap_options(self, q: int, new: int) -> list[int]:
        castle = self._t.castle
        kinds = [e >> 1 for e in self._lands[q]]
        if new >= 0 and new in kinds and self.rules.sixth_land == "held":  # ("any": the new land may go too)
            kinds.remove(new)
        out = [k for k in dict.fromkeys(kinds) if k not in castle]
        if not out:
            out = [k for k in dict.fromkeys(e >> 1 for e in self._lands[q]) if k not in castle]
        return out or list(dict.fromkeys(e >> 1 for e in self._lands[q]))

    def _op_capacity(self, frame: tuple[Any, ...]) -> bool:
        return self._over_capacity(frame[1], frame[2])

    def _over_capacity(self, q: int, new: int) -> bool:
        """If seat ``q`` holds more lands than it may, wait for it to discard one (``new``: the
        land just gained, which it keeps, or -1); True if so."""
        held = len(self._lands[q])
        if self._refugees[q] and self.rules.refugees_are_lands:
            held += len(self._refugees[q])
        if held > MAX_LANDS and held > self.capacity(q):  # (the capacity is never below MAX_LANDS)
            return self._wait(A_LANDCAP, q, (q, new))
        return False

    def _op_tsunami(self, frame: tuple[Any, ...]) -> bool:
        _, q, allowed = frame
        held = {e >> 1 for e in self._lands[q]}
        if allowed == HELD_THEN:  # (tsunami_pass="any") any land held at its place in the order
            kept = self._t.castle if self.rules.castle_tsunami == "stays" else frozenset()
            allowed = tuple(sorted(held - kept))
        elif allowed is None:  # (tsunami_landless="may-pass") a land received since, or none: pass is a choice
            kept = self._t.castle if self.rules.castle_tsunami == "stays" else frozenset()
            received = tuple(sorted(held - kept))
            return bool(received) and self._wait(A_TSUNAMI, q, (q, received, True))
        options = tuple([k for k in allowed if k in held])
        if not options:
            return False
        return self._wait(A_TSUNAMI, q, (q, options))

    def _op_endturn(self, frame: tuple[Any, ...]) -> bool:
        """Steps 3 and 4, the Hot Springs, then the end of the turn (each step re-entered
        until nothing is left to do)."""
        p = self._turn
        stack = self._stack
        ctx = self._ctx
        lost = ctx is not None and ctx["kind"] == "lost turn"
        if len(frame) == 1 and not lost and self._eff[p] & B_MIXED and self.rules.mixed_area == "any":
            stack.append((OP_ENDTURN, True))  # the Mixed Area "on your turn", after the action: asked once
            return self._wait(A_MIXED, p, (p,))
        if self._hsize[p] > HAND_LIMIT and not lost:  # 3. discard excess cards
            stack.append(frame)
            return self._wait(A_HANDLIMIT, p, (p,))
        if self._mapped and self.rules.map_room == "discarded":  # before step 4 refills
            for room in self._mapped:
                if room in self._rooms:
                    self._rooms.remove(room)
                    self._mdisc.append(room)
            self._mapped.clear()
        if len(self._rooms) < ROOMS and self._mpile:  # 4. replace Meikyu cards
            stack.append(frame)
            return self._wait(A_REVEAL, CHANCE, (False,))
        if not self._hot_done and self._eff[p] & B_HOT and not self._hsize[p] and (self._kpile or self._kdisc):
            self._hot_done = True
            stack.append(frame)
            return self._wait(A_HOT, p, (p,))
        self._mapped.clear()
        self._turns += 1
        n = self._n
        if max(self._pts) >= self.rules.goal or self._reached:
            self._end = END_POINTS
        elif not self._rooms and not self._mpile:
            self._end = END_ROOMS
        elif self._turns >= self.rules.turn_limit:
            self._end = END_LIMIT
        if self._end:
            self._stack.clear()
            self._ask = A_NONE
            self._args = ()
            self.current_player = TERMINAL
            return True
        self._turn = (self._turn + 1) % n
        return self._op_turn(frame)

    # -- protocol --

    def legal_actions(self) -> Sequence[Any]:
        if self.current_player == TERMINAL:
            return ()
        return _LEGAL[self._ask](self)

    # -- legal actions, one function per kind of decision --

    def _legal_none(self) -> tuple[()]:
        return ()

    def _legal_chance(self) -> list[Any]:
        return [a for a, _ in self.chance_outcomes() or ()]

    def _main_actions(self) -> ActionList:
        """Step 2's choices, in :class:`ActionList`'s order."""
        t = self._t
        p = self._turn
        key = self._hkey[p]
        lab = bool(self._eff[p] & B_LAB)
        qc, dc, held_aggression, has_map = t.main_cache[lab].get(key) or t.main_choices(self._hands[p], key, lab)
        free, rooms, by, targets = self._main_options(bool(qc), held_aggression, has_map)
        return ActionList(t, free, rooms, qc, by, targets, self._undev[p], dc)

    def _main_options(
        self, quest: bool, held_aggression: tuple[str, ...], has_map: bool
    ) -> tuple[Sequence[Any], Sequence[int], Sequence[str], Sequence[tuple[int, str | None]]]:
        """Step 2's choices besides the card sets: the free plays, and when some card set can go on
        a quest (``quest``) the rooms, the ways to aggress (``held_aggression``: the aggression cards
        held) and the targets. (The main choice's actions and its steps' ids read them alike.)"""
        t = self._t
        p = self._turn
        eff = self._eff[p]
        free: Sequence[Any]
        if eff & B_MIXED:
            free = [MAP] if has_map and self._mpile else []
            free.extend(map(t.mixed_act.__getitem__, t.others[p]))
            free.append(RESUPPLY)
        else:
            free = t.free_map if has_map and self._mpile else t.free_plain
        rooms: Sequence[int] = ()
        by: Sequence[str] = ()
        targets: Sequence[tuple[int, str | None]] = ()
        if quest:
            rooms = tuple(self._rooms) if t.unique_lands else tuple(dict.fromkeys(self._rooms))
            by = (*held_aggression, COUNCIL) if eff & B_COUNCIL else held_aggression
            if by:
                takeable = self._takeable
                if self.rules.aggression_target == "attacker":  # (seat, land name)
                    named = t.named_targets
                    targets = [named[q][land] for q in t.others[p] for land in takeable[q]]
                else:  # (seat, None): the defender chooses
                    targets = [(q, None) for q in t.others[p] if takeable[q]]
        return free, rooms, by, targets

    def _legal_defend(self) -> tuple[Defend, ...]:
        p = self.current_player
        return self._t.defences(self._hands[p], self._hkey[p], bool(self._eff[p] & B_LAB))

    def _legal_amulet(self) -> tuple[Word, ...]:
        hand = self._hands[self.current_player]
        for a in self._t.amulets:
            if hand[a]:
                return (AMULET, PASS)
        return (PASS,)  # asked all the same (rule amulet_ask=everyone)

    def _legal_draw_or_pass(self) -> tuple[Word, Word]:
        return (DRAW, PASS)

    def _legal_tomb(self) -> tuple[Word, Word]:
        return (DRAW, TOMB)

    def _legal_keep(self) -> tuple[Choose, ...]:
        t = self._t
        arch = self._arch
        return tuple(t.keep_act[k] for k in t.alpha if k in arch)

    def _legal_hospital(self) -> tuple[Choose | Word, ...]:
        t = self._t
        ctx = self._ctx
        assert ctx is not None
        chars = ctx["chars"]
        return (*(t.return_act[k] for k in t.alpha if k in chars), PASS)

    def _legal_order(self) -> tuple[Choose, ...]:
        return self._t.discard_order(self._inplay)

    def _legal_discard(self) -> tuple[Choose, ...]:
        t = self._t
        hand = self._hands[self.current_player]
        return tuple(t.discard_act[k] for k in t.alpha if hand[k])

    def _legal_tsunami(self) -> tuple[Choose | Word, ...]:
        gives = tuple(map(self._t.give_act.__getitem__, self._args[1]))
        return (*gives, PASS) if len(self._args) > 2 else gives

    def _legal_give(self) -> tuple[Choose, ...]:
        return tuple(map(self._t.give_act.__getitem__, self._stealable(self.current_player)))

    def _legal_landcap(self) -> tuple[Choose, ...]:
        options = self._landcap_options(self.current_player, self._args[1])
        return tuple(map(self._t.discard_land_act.__getitem__, options))

    def chance_outcomes(self) -> Sequence[tuple[Any, float]] | None:
        ask = self._ask
        t = self._t
        if ask == A_ROLL:
            return [(t.roll_act[v], 1 / 6) for v in range(1, 7)]
        if ask == A_DRAW:
            pile = self._kpile
            counts: dict[int, int] = {}
            for k in pile:
                counts[k] = counts.get(k, 0) + 1
            return [(t.draw_act[k], counts[k] / len(pile)) for k in t.alpha if k in counts]
        if ask == A_REVEAL:
            mp = self._mpile
            lc: dict[int, int] = {}
            for land in mp:
                lc[land] = lc.get(land, 0) + 1
            return [(t.reveal_act[land], c / len(mp)) for land, c in sorted(lc.items())]
        return None

    def sample_chance(self) -> Any:
        # int(random() * n): uniform over n outcomes up to a bias below n / 2**53.
        ask = self._ask
        t = self._t
        if ask == A_DRAW:
            pile = self._kpile
            return t.draw_act[pile[int(self.rng.random() * len(pile))]]
        if ask == A_ROLL:
            return t.roll_act[int(self.rng.random() * 6) + 1]
        if ask == A_REVEAL:
            pile = self._mpile
            return t.reveal_act[pile[int(self.rng.random() * len(pile))]]
        raise IllegalAction("nothing is left to chance now", "not-chance")

    def apply_unchecked(self, action: Any) -> None:
        self.history.append(action)
        if _APPLY[self._ask](self, action):  # type: ignore[misc]
            return  # the action itself led to the next decision
        # The turn machine, as in _run (inlined: this is the hot path of simulation).
        stack = self._stack
        ops = _OPS
        while stack:
            frame = stack.pop()
            if ops[frame[0]](self, frame):
                return

    # -- applying, one function per kind of decision --
    # Each returns True when it leaves the state waiting for the next decision (as a step
    # of the turn machine does: a quest waits for its die at once); otherwise (False or
    # None) the turn machine runs on.

    def _apply_draw(self, action: DrawCard) -> None:
        t = self._t
        k = t.kindex[action.card]
        p, dest = self._args
        pile = self._kpile
        pile.remove(k)
        kc = self._kcount
        if kc is not None and kc[0] is pile and kc[1] == len(pile) + 1:
            kc[1] -= 1
            kc[2][k] -= 1
        if not self._kpile and self._kdisc:
            self._kpile = self._kdisc
            self._kdisc = []
        if dest != TO_SETUP and t.ktype[k] == OPEN:  # played at once (not in the deal)
            if self.rules.open_draw == "replaced" and self._plain_card_left():
                self._stack.append((OP_CDRAW, p, dest))  # after the OPEN card: a draw in its place
            self._stack.append((OP_OPEN, p, k))
        elif dest == TO_ARCHIVES:
            self._arch.append(k)
        else:  # into the hand (_give_card, inlined: the commonest chance action)
            self._hands[p][k] += 1
            self._held[p] |= 1 << k
            self._hsize[p] += 1
            self._hkey[p] += t.hand_weight[k]

    def _plain_card_left(self) -> bool:
        """Whether the Kingdom pile or its discards hold a card that is not an OPEN card (so a
        draw in an OPEN card's place can end)."""
        ktype = self._t.ktype
        return any(ktype[k] != OPEN for k in (*self._kpile, *self._kdisc))

    def _apply_reveal(self, action: Reveal) -> None:
        land = self._t.lindex[action.room]
        pile = self._mpile
        pile.remove(land)
        mc = self._mcount
        if mc is not None and mc[0] is pile and mc[1] == len(pile) + 1:
            mc[1] -= 1
            mc[2][land] -= 1
        self._rooms.append(land)
        if self._args[0]:
            self._mapped.append(land)

    def _apply_roll(self, action: Roll) -> bool:
        roller, slot = self._args
        if slot < 0:
            self._rolls[roller] = action.value
            if self.rules.amulet_first_roll == "yes":  # (the other reading: setting up is not a turn)
                return self._amulet_window(roller, slot)
            return False
        ctx = self._ctx
        assert ctx is not None
        ctx["dice"][slot] = action.value
        if action.value == 6 and self.rules.casino == "every" and ctx["casinos"][slot]:  # every 6, kept or not
            ctx["sixes"] = (*ctx.get("sixes", ()), slot)  # (a tuple: copies of the state share the context's values)
        return self._amulet_window(roller, slot)

    def _amulet_window(self, roller: int, slot: int) -> bool:
        """After a die: the first seat asked about an Amulet, if any (see :meth:`_window`)."""
        if self.rules.amulet_ask == "everyone":
            return self._window(roller, slot, 0)
        amulets = self._t.amulets
        for hand in self._hands:  # (a quick look: most dice find no Amulet anywhere)
            for a in amulets:
                if hand[a]:
                    return self._window(roller, slot, 0)
        return False

    def _apply_main(self, action: Any) -> bool | None:
        """Step 2: the action chosen, applied by its kind."""
        apply = _MAIN_APPLY.get(type(action))
        if apply is None:
            raise IllegalAction(f"{action} is not an action of step 2", "not-an-action", self._turn)
        return apply(self, action)

    def _apply_word(self, action: Word) -> bool:
        """Resupply, or play a Map (any other word is taken for ``map``)."""
        p = self._turn
        stack = self._stack
        if action is RESUPPLY or action.word == "resupply":
            self._ctx = {"kind": "resupply", "player": p}
            stack.append(F_AFTER)
            return self._draw1(p)
        m = next(m for m in self._t.maps if self._hands[p][m])
        self._take_card(p, m)
        self._inplay.append(m)
        stack.append(F_MAIN)
        stack.append((OP_REVEAL, True))
        return False

    def _apply_mixed(self, action: MixedArea) -> None:
        p = self._turn
        self._discard_land(p, self._t.by_bit[B_MIXED])
        self._skips[action.target] += 1
        self._stack.append(F_MAIN)

    def _legal_mixed(self) -> tuple[Any, ...]:
        """After the action (``mixed_area="any"``): the Mixed Area on another player, or pass."""
        return (*map(self._t.mixed_act.__getitem__, self._t.others[self._turn]), PASS)

    def _apply_mixed_after(self, action: MixedArea | Word) -> None:
        if isinstance(action, MixedArea):
            self._discard_land(self._turn, self._t.by_bit[B_MIXED])
            self._skips[action.target] += 1

    def _apply_quest(self, action: Quest) -> bool:
        t = self._t
        p = self._turn
        room = t.lindex[action.room]
        played = t.played(action.cards, action.lab)
        self._play(p, played)
        _, _, chars, _, parts, _ = played
        self._ctx = {
            "kind": "quest",
            "player": p,
            "room": room,
            "level": t.level[room] - (2 if room in self._mapped else 0),
            "swords": land_swords(parts, self._eff[p], shared_developed(self.rules, self._deff, p), True),
            "chars": list(chars),
            "dice": [0],
            "rollers": [p],
            "casinos": (bool(self._eff[p] & B_CASINO),),  # who owns the Casino as the dice are rolled
        }
        self._stack.append(F_QRESOLVE)
        return self._wait(A_ROLL, CHANCE, (p, 0))

    def _apply_develop(self, action: Develop) -> bool:
        t = self._t
        p = self._turn
        land = t.lindex[action.land]
        played = t.played(action.cards, None)
        self._play(p, played)
        _, _, _, wits, _, _ = played
        cost = t.level[land] - (1 if shared_developed(self.rules, self._deff, p) & B_HAREM else 0)  # the Harem
        success = wits >= cost
        self._ctx = {"kind": "develop", "player": p, "land": land, "wits": wits, "cost": cost, "success": success}
        if success:
            lands = self._lands[p]
            i = lands.index(land << 1)
            lands[i] = land << 1 | 1
            self._recount(p)
            if t.lbit[land] & B_MARKET:  # the Market, developed: a card first
                self._stack.append(F_AFTER)
                return self._draw1(p)
        return self._op_after(F_AFTER)

    def _apply_attack(self, action: Attack) -> bool:
        t = self._t
        p = self._turn
        q = action.target
        if action.by == COUNCIL:
            self._discard_land(p, t.by_bit[B_COUNCIL])
        else:
            g = t.kindex[action.by]
            self._take_card(p, g)
            self._inplay.append(g)
        played = t.played(action.cards, action.lab)
        self._play(p, played)
        _, _, _, _, parts, _ = played
        self._ctx = {
            "kind": "attack",
            "player": p,
            "attacker": p,
            "defender": q,
            "land": t.lindex[action.land] if action.land else -1,
            "by": action.by,
            "swords": land_swords(
                parts, self._eff[p], shared_developed(self.rules, self._deff, p), self._t.fortress_in_aggression
            ),
            "defence": 0,
            "dice": [0, 0],
            "rollers": [p, q],
            "casinos": (bool(self._eff[p] & B_CASINO), bool(self._eff[q] & B_CASINO)),
        }
        stack = self._stack
        stack.append(F_ARESOLVE)
        stack.append((OP_ROLL, q, 1))
        stack.append((OP_ROLL, p, 0))
        return self._wait(A_DEFEND, q, (q,))  # the defender chooses cards first

    def _discard_land(self, p: int, kinds: tuple[int, ...]) -> None:
        lands = self._lands[p]
        for i, e in enumerate(lands):
            if e >> 1 in kinds:
                del lands[i]
                self._mdisc.append(e >> 1)
                self._recount(p)
                return

    def _play(self, p: int, played: Played) -> None:
        """Move the cards ``played`` (and their Laboratory item) from a hand to the cards in play."""
        kinds, labk, _, _, _, weight = played
        self._hkey[p] -= weight
        hand = self._hands[p]
        for k in kinds:
            hand[k] -= 1
        inplay = self._inplay
        inplay.extend(kinds)
        if labk >= 0:
            hand[labk] -= 1
            inplay.append(labk)
            self._hsize[p] -= len(kinds) + 1
        else:
            self._hsize[p] -= len(kinds)
        if self._shown[p]:
            self._forget(p)

    def _apply_defend(self, action: Defend) -> None:
        ctx = self._ctx
        assert ctx is not None
        q = ctx["defender"]
        played = self._t.played(action.cards, action.lab)
        self._play(q, played)
        kinds, labk, _, _, parts, _ = played
        ctx["defence"] = land_swords(
            parts, self._eff[q], shared_developed(self.rules, self._deff, q), self._t.fortress_in_aggression
        )
        ctx["defended_with"] = len(kinds) + (labk >= 0)

    def _apply_amulet(self, action: Word) -> bool:
        roller, slot, j = self._args
        seat = self.current_player
        if action.word == "amulet":
            a = next(a for a in self._t.amulets if self._hands[seat][a])
            self._take_card(seat, a)
            if slot < 0:  # a first-player roll (amulet_first_roll="yes"): no action to discard it after
                self._kdisc.append(a)
            else:
                self._inplay.append(a)
            ctx = self._ctx
            if ctx is not None:
                ctx["amulets"] = ctx.get("amulets", 0) + 1
            return self._wait(A_ROLL, CHANCE, (roller, slot))  # the die again
        return self._window(roller, slot, j + 1)

    def _apply_yes_draw(self, action: Word) -> bool:
        if action.word == "draw":
            return self._draw1(self.current_player)
        return False

    def _apply_tomb(self, action: Word) -> bool:
        p = self.current_player
        if action.word == "tomb":
            self._give_card(p, self._kdisc.pop())
            return False
        return self._pile_draw(p)

    def _apply_keep(self, action: Choose) -> None:
        k = self._t.kindex[action.name]
        arch = self._arch
        arch.remove(k)
        self._give_card(self.current_player, k)
        self._kdisc.extend(arch)
        arch.clear()

    def _apply_hospital(self, action: Any) -> None:
        if isinstance(action, Choose):
            k = self._t.kindex[action.name]
            self._inplay.remove(k)
            self._give_card(self.current_player, k)
            self._shown[self.current_player].append(k)
            ctx = self._ctx
            if ctx is not None:
                ctx["returned"] = k

    def _apply_order(self, action: Choose) -> bool:
        k = self._t.kindex[action.name]
        self._inplay.remove(k)
        self._kdisc.append(k)
        return self._discard_batch()

    def _apply_discard(self, action: Choose) -> None:
        k = self._t.kindex[action.name]
        self._take_card(self.current_player, k)
        self._kdisc.append(k)

    def _apply_refugee(self, action: Choose) -> None:
        """A Refugee's discard: on the pile at once in the turn player's own turn (choosing them one at a
        time is choosing their order), else set aside for the turn player to order (see :meth:`_op_refdisc`)."""
        k = self._t.kindex[action.name]
        p = self.current_player
        self._take_card(p, k)
        if p != self._turn and self.rules.refugee_order == "turn":
            self._inplay.append(k)
        else:
            self._kdisc.append(k)

    def _apply_tsunami(self, action: Choose | Word) -> None:
        if not isinstance(action, Choose):
            return  # (pass: a player without lands when the card was played keeps what it received)
        q = self.current_player
        land = self._t.lindex[action.name]
        lands = self._lands[q]
        del lands[[e >> 1 for e in lands].index(land)]  # (the first held)
        self._lands[(q + 1) % self._n].append(land << 1)
        self._recount(q)
        self._recount((q + 1) % self._n)

    def _apply_give(self, action: Choose) -> bool:
        ctx = self._ctx
        assert ctx is not None
        return self._steal(ctx["attacker"], ctx["defender"], self._t.lindex[action.name])

    def _apply_landcap(self, action: Choose) -> bool:
        q, new = self._args
        land = self._t.lindex[action.name]
        lands = self._lands[q]
        entries = [i for i, e in enumerate(lands) if e >> 1 == land]
        undeveloped = [i for i in entries if not lands[i] & 1]
        del lands[(undeveloped or entries)[0]]
        self._mdisc.append(land)
        self._recount(q)
        return self._over_capacity(q, new)

    # -- checking --

    def check(self, action: Any) -> None:
        p = self.current_player
        if p == TERMINAL:
            raise IllegalAction("the game is over", "game-over")
        if not isinstance(action, _ACTION_CLASSES):
            raise IllegalAction(f"{quoted(action)} is not a Meikyu action", "not-an-action", p)
        ask = self._ask
        if p == CHANCE:
            self._check_chance(action)
            return
        if ask == A_MAIN:
            self._check_main(action, p)
            return
        seat = f"P{p + 1}"
        if ask == A_DEFEND:
            if not isinstance(action, Defend):
                raise IllegalAction(
                    f"{seat} is attacked and must first choose defenders: defend with <cards>, "
                    "or defend (the die alone)",
                    "defend-first",
                    p,
                )
            self._check_cards(p, action.cards, action.lab, DEFEND)
            return
        if action in self.legal_actions():
            return
        expected = {
            A_TOMB: "the Tomb: draw from the Kingdom pile (draw) or pick up the top discarded card (tomb)",
            A_KEEP: "the Archives: keep one of the two cards drawn (keep <card>); the other is discarded",
            A_AMULET: "a die was just rolled: play an Amulet to have it rerolled (amulet) or pass",
            A_CASINO: "the Casino: a 6 was rolled, so you may draw a Kingdom card (draw) or pass",
            A_HOSPITAL: "the Hospital: the quest failed, so you may return one of its characters to your hand "
            "(return <card>) or pass",
            A_ORDER: "the cards used (or a Refugee's discards out of its drawer's turn) go to the discard pile "
            "in the order you choose, one at a time (discard <card>); it matters for the Tomb",
            A_HANDLIMIT: "step 3: you hold 6 or more cards and must discard down to 5 (discard <card>)",
            A_REFUGEE: "the Refugee: you must discard two Kingdom cards from your hand (discard <card>)",
            A_TSUNAMI: "Dungeon Tsunami: pass one of the lands you held when it was played (under "
            "tsunami_pass=any, one you hold now) to the player on your left (give <land>; without lands then, "
            "under tsunami_landless=may-pass, a land received or pass)",
            A_LANDCAP: "your kingdom holds more lands than it may: discard one of the lands you already had "
            "(under sixth_land=any, or the new one), not the Castle Tower (discard land <land>)",
            A_HOT: "the Hot Springs: your hand is empty at the end of your turn, so you may draw (draw) or pass",
            A_GIVE: "the aggression succeeded and you choose which land to give (give <land>); the Castle Tower "
            "cannot be taken",
            A_MIXED: "the Mixed Area, after the action (mixed_area=any): make another player lose a turn "
            "(mixed area P2) or pass",
        }[ask]
        options = ", ".join(str(a) for a in self.legal_actions())
        if ask == A_AMULET and action is AMULET:
            raise IllegalAction(f"{seat} holds no Amulet: pass", "hold-cards", p)
        if isinstance(action, Choose) and action.verb == _CHOICE_VERBS.get(ask):
            if ask in (A_HANDLIMIT, A_REFUGEE):
                raise IllegalAction(f"you do not hold {action.name}", "hold-cards", p)
            raise IllegalAction(f"{action.name} is not among the choices now ({options})", "choose-among", p)
        raise IllegalAction(f"{seat} must now decide for {expected}; choose one of: {options}", "wrong-decision", p)

    def _check_chance(self, action: Any) -> None:
        ask = self._ask
        t = self._t
        if ask == A_ROLL:
            if not isinstance(action, Roll) or not 1 <= action.value <= 6:
                raise IllegalAction(f"a die must be rolled here (roll 1 … roll 6), not {action}", "roll-die")
            return
        if ask == A_DRAW:
            if not isinstance(action, DrawCard):
                raise IllegalAction(
                    f"a card must be drawn from the Kingdom pile here (draw <card>), not {action}", "draw"
                )
            k = t.kindex.get(action.card)
            if k is None or k not in self._kpile:
                raise IllegalAction(f"{action.card} is not in the Kingdom pile", "draw-from-pile")
            return
        if ask == A_REVEAL:
            if not isinstance(action, Reveal):
                raise IllegalAction(
                    f"a room must be turned up from the Meikyu pile here (reveal <room>), not {action}", "reveal"
                )
            land = t.lindex.get(action.room)
            if land is None or land not in self._mpile:
                raise IllegalAction(f"{action.room} is not in the Meikyu pile", "reveal-from-pile")
            return
        raise IllegalAction("nothing is left to chance now", "not-chance")

    def _check_main(self, action: Any, p: int) -> None:
        t = self._t
        kind = type(action)
        hand = self._hands[p]
        if kind is Word:
            if action.word == "resupply":
                return
            if action.word == "map":
                if not any(hand[m] for m in t.maps):
                    raise IllegalAction("you hold no Map", "hold-cards", p)
                if not self._mpile:
                    raise IllegalAction("the Meikyu pile is empty: a Map has no room to draw", "map-pile", p)
                return
            raise IllegalAction(
                f"it is P{p + 1}'s action (step 2): quest, develop, attack or resupply, not {action}",
                "take-an-action",
                p,
            )
        if kind is MixedArea:
            if not self._eff[p] & B_MIXED:
                raise IllegalAction("only the owner of the Mixed Area can make a player lose a turn", "mixed-area", p)
            if action.target == p or not 0 <= action.target < self._n:
                raise IllegalAction("the Mixed Area makes another player lose a turn", "mixed-area", p)
            return
        if kind is Quest:
            room = t.lindex.get(action.room)
            if room is None or room not in self._rooms:
                raise IllegalAction(
                    f"{action.room} is not a face-up room (rooms: {', '.join(self.rooms())})", "quest-face-up", p
                )
            self._check_cards(p, action.cards, action.lab, QUEST)
            return
        if kind is Develop:
            land = t.lindex.get(action.land)
            entries = [e for e in self._lands[p] if e >> 1 == land]
            if not entries:
                raise IllegalAction(
                    f"{action.land} is not a land of your kingdom; you develop your own lands", "develop-own", p
                )
            if all(e & 1 for e in entries):
                raise IllegalAction(f"{action.land} is already developed", "develop-once", p)
            self._check_cards(p, action.cards, None, DEVELOP)
            return
        if kind is Attack:
            q = action.target
            if q == p or not 0 <= q < self._n:
                raise IllegalAction("an aggression attacks another player's kingdom", "attack-other", p)
            if action.by == COUNCIL:
                if not self._eff[p] & B_COUNCIL:
                    raise IllegalAction(
                        "you can attack by discarding the Council Chamber only if it is in your kingdom",
                        "aggression-means",
                        p,
                    )
            else:
                g = t.kindex.get(action.by)
                if g is None or t.ktype[g] != AGGR:
                    raise IllegalAction(
                        f"an aggression is made by a Gotcha! card or the Council Chamber, not {action.by}",
                        "aggression-means",
                        p,
                    )
                if not hand[g]:
                    raise IllegalAction(f"you hold no {action.by}", "hold-cards", p)
            stealable = self._stealable(q)
            if self.rules.aggression_target == "attacker":
                if action.land is None:
                    raise IllegalAction(
                        "name the land you attack: attack P2 <land> with … (option aggression_target=attacker)",
                        "attack-land",
                        p,
                    )
                land = t.lindex.get(action.land)
                held = [e >> 1 for e in self._lands[q]]
                if land not in held:
                    raise IllegalAction(f"{action.land} is not in P{q + 1}'s kingdom", "attack-land", p)
                if land in t.castle:
                    raise IllegalAction("the Castle Tower may not be stolen by Aggression", "castle-tower", p)
            else:
                if action.land is not None:
                    raise IllegalAction(
                        "the defender chooses the land (option aggression_target=defender): attack P2 with …",
                        "attack-land",
                        p,
                    )
                if not stealable:
                    raise IllegalAction(f"P{q + 1} has no land that can be stolen", "attack-land", p)
            self._check_cards(p, action.cards, action.lab, ATTACK)
            return
        raise IllegalAction(
            f"it is P{p + 1}'s action (step 2): quest, develop, attack, resupply (or map, mixed area); not {action}",
            "take-an-action",
            p,
        )

    def _check_cards(self, p: int, cards: tuple[str, ...], lab: str | None, mode: int) -> None:
        t = self._t
        hand = self._hands[p]
        what = ("a quest", "an aggression", "a defence", "a development")[mode]
        need: dict[int, int] = {}
        for name in cards:
            k = t.kindex.get(name)
            if k is None:
                raise IllegalAction(f"there is no Kingdom card {quoted(name)}", "unknown-card", p)
            need[k] = need.get(k, 0) + 1
        labk = -1
        if lab is not None:
            if mode == DEVELOP:
                raise IllegalAction("a development spends character cards only", "develop-characters", p)
            if not self._eff[p] & B_LAB:
                raise IllegalAction(
                    f"only the owner of the Laboratory may play an item as a character ({lab} as character)",
                    "laboratory",
                    p,
                )
            labk = t.kindex.get(lab, -1)
            if labk < 0 or t.ktype[labk] != ITEM:
                raise IllegalAction(
                    f"the Laboratory turns an item card into a character; {lab} is not an item", "laboratory", p
                )
            need[labk] = need.get(labk, 0) + 1
        for k, c in need.items():
            if hand[k] < c:
                held = f"you hold {hand[k]}" if hand[k] else "you hold none"
                raise IllegalAction(f"{what} uses {c} {t.knames[k]}; {held}", "hold-cards", p)
        chars = grims = swords = 0
        for name in cards:
            k = t.kindex[name]
            if t.ktype[k] == CHAR:
                chars += 1
            elif mode == DEVELOP:
                raise IllegalAction(
                    f"a development spends character cards only; {name} is not a character", "develop-characters", p
                )
            elif t.keff[k] == X_GRIMOIRE:
                grims += 1
            elif t.keff[k] == X_SWORD:
                swords += 1
            else:
                raise IllegalAction(
                    f"{name} adds no swords to {what}: use characters, Sword and Grimoire"
                    + (f" (or {name} as character, with the Laboratory)" if t.ktype[k] == ITEM else ""),
                    "swords-cards",
                    p,
                )
        total = chars + (labk >= 0)
        if mode == DEVELOP and not chars:
            raise IllegalAction("a development spends at least one character card", "develop-characters", p)
        if mode in (QUEST, ATTACK) and not total:
            raise IllegalAction(
                f"at least one character card must be used in {what} (items need a character to use them)",
                "needs-character",
                p,
            )
        if mode == DEFEND and cards and not total:
            raise IllegalAction(
                "items need a character to use them; defend with a character, or with the die alone",
                "needs-character",
                p,
            )
        if grims > total and not t.stack_grimoires:
            raise IllegalAction(
                f"each Grimoire is played on a character of its own: {grims} Grimoires, {counted(total, 'character')}",
                "grimoire-character",
                p,
            )
        if swords > total and t.one_sword:
            raise IllegalAction(
                f"each Sword is played on a character of its own (option sword=one): "
                f"{swords} Swords, {counted(total, 'character')}",
                "sword-character",
                p,
            )

    # -- the rest of the protocol --

    def outcome(self) -> Outcome | None:
        if self.current_player != TERMINAL:
            return None
        n = self._n
        return final_outcome(
            self.rules, self._end, [self.points(s) for s in range(n)], [self.land_count(s) for s in range(n)]
        )

    def clone(self) -> MeikyuState:
        new = self._copy()
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        new.rng = rng
        new.history = list(self.history)
        return new

    def search_copy(self) -> MeikyuState:
        """A copy for a search's playout: its own position, the RNG shared with this state, an
        empty history (cheaper than :meth:`clone`; not a record of the game)."""
        new = self._copy()
        new.history = []
        return new

    def _copy(self) -> MeikyuState:
        """A copy that shares the RNG and the history (for search rollouts)."""
        new = object.__new__(MeikyuState)
        new.rules = self.rules
        new.seed = self.seed
        new.rng = self.rng
        new.history = self.history
        new._t = self._t
        new._n = self._n
        new._kpile = list(self._kpile)
        new._kcount = None
        new._mcount = None
        new._kdisc = list(self._kdisc)
        new._hands = [list(h) for h in self._hands]
        new._held = list(self._held)
        new._shown = [list(x) for x in self._shown]
        new._hsize = list(self._hsize)
        new._hkey = list(self._hkey)
        new._mpile = list(self._mpile)
        new._rooms = list(self._rooms)
        new._mdisc = list(self._mdisc)
        new._lands = [list(x) for x in self._lands]
        new._eff = list(self._eff)
        new._deff = list(self._deff)
        new._refugees = [list(r) for r in self._refugees]
        new._pts = list(self._pts)
        new._reach = self._reach
        new._reached = self._reached
        new._takeable = list(self._takeable)
        new._undev = list(self._undev)
        new._skips = list(self._skips)
        new._hot_done = self._hot_done
        new._tomb_dead = self._tomb_dead
        new._turn = self._turn
        new._turns = self._turns
        new._stack = list(self._stack)
        new._ask = self._ask
        new._args = self._args
        new._inplay = list(self._inplay)
        ctx = self._ctx
        new._ctx = None if ctx is None else dict(ctx, dice=list(ctx["dice"])) if "dice" in ctx else dict(ctx)
        new._mapped = list(self._mapped)
        new._arch = list(self._arch)
        new._rolls = dict(self._rolls)
        new._end = self._end
        new.current_player = self.current_player
        return new

    def observation(self, player: int) -> MeikyuObservation:
        player = check_seat(player, self._n, spectator=True)
        seated = player != SPECTATOR
        n = self._n
        drawer = self._args[0] if self._ask in (A_DRAW, A_KEEP) and self._args else None
        sees_arch = (self._ask == A_KEEP and drawer == player) or (self._arch and drawer == player)
        return MeikyuObservation(
            rules=self.rules,
            player=player,
            current_player=self.current_player,
            turn_player=self._turn,
            turns=self._turns,
            ask=self._ask,
            args=self._args,
            hand=tuple(self._hands[player]) if seated else (0,) * len(self._hands[0]),
            hand_sizes=tuple(self._hsize),
            rooms=tuple(self._rooms),
            mapped=tuple(self._mapped),
            lands=tuple(tuple(x) for x in self._lands),
            refugees=tuple(tuple(r) for r in self._refugees),
            points=tuple(self.points(s) for s in range(n)),
            skips=tuple(self._skips),
            kpile_size=len(self._kpile),
            kdiscard=tuple(self._kdisc),
            mpile_size=len(self._mpile),
            mdiscard=tuple(self._mdisc),
            inplay=tuple(self._inplay),
            archives=tuple(self._arch) if sees_arch else None,
            archives_size=len(self._arch),
            ctx=self.context(),
            stack=tuple(self._stack),
            first_rolls=tuple(sorted(self._rolls.items())),
            end=self._end,
            hot_done=self._hot_done,
            reached=self._reached,
            shown=tuple(tuple(x) for x in self._shown),
        )

    def parse_action(self, text: str, seat: int | None = None) -> MeikyuAction:
        """Like :func:`parse_action`, and a room or land may be given by its number as shown
        (``quest 2 with Bee``, ``develop 1 with Valeel``, ``attack P2 1 with …``); every action
        is the current player's, so ``seat``, checked, changes nothing."""
        if seat is not None:
            check_seat(seat, self.rules.players)
        words = check_notation(text).split()
        if len(words) >= 2 and words[0].lower() in ("quest", "develop", "give") and words[1].isdecimal():
            p = self.current_player if self.current_player >= 0 else self._turn
            places = self._rooms if words[0].lower() == "quest" else [e >> 1 for e in self._lands[p]]
            number = whole_number(words[1], len(places))
            if not number:
                place = "room" if words[0].lower() == "quest" else "land"
                raise InvalidAction(f"there is no {place} number {quoted(words[1])} (1 to {len(places)})")
            words[1] = self._t.lnames[places[number - 1]]
            text = " ".join(words)
        elif len(words) >= 3 and words[0].lower() == "attack" and words[2].isdecimal():
            q = _seat(words[1], self._n)
            number = whole_number(words[2], len(self._lands[q]))
            if not number:
                raise InvalidAction(f"P{q + 1} has no land number {quoted(words[2])} (1 to {len(self._lands[q])})")
            i = number - 1
            words[2] = self._t.lnames[self._lands[q][i] >> 1]
            text = " ".join(words)
        return parse_action(self.rules, text)

    def action_text(self, action: Any, viewer: int | None = None) -> str:
        if viewer is not None:
            check_seat(viewer, self._n, spectator=True)
        t = self._t
        if isinstance(action, DrawCard):
            p = self._args[0]
            k = t.kindex.get(action.card, -1)
            if viewer is None or viewer == p or (k >= 0 and t.ktype[k] == OPEN and self._args[1] != TO_SETUP):
                what = (
                    f"{action.card} (OPEN: played at once)"
                    if k >= 0 and t.ktype[k] == OPEN and self._args[1] != TO_SETUP
                    else action.card
                )
                return f"P{p + 1} draws {what}" if viewer is not None else str(action)
            return f"P{p + 1} draws a card"
        if isinstance(action, Roll):
            roller, slot = self._args
            if viewer is None:
                return str(action)
            return f"P{roller + 1} rolls {action.value}" + (" for the first turn" if slot < 0 else "")
        if isinstance(action, Reveal):
            if viewer is None:
                return str(action)
            land = t.lindex.get(action.room, -1)
            label = t.llabels[land] if land >= 0 else action.room
            level = t.level[land] if land >= 0 else "?"
            return f"room turned up: {label}, level {level}" + (" (Map: level -2 this turn)" if self._args[0] else "")
        if (
            isinstance(action, Choose)
            and action.verb == "keep"
            and viewer is not None
            and viewer != self.current_player
        ):
            return "keeps one of the two cards drawn (Archives) and discards the other"
        return str(action)

    def describe_legal(self) -> str:
        """The legal actions summarised for a terminal (the main action has hundreds)."""
        return describe_legal(self)

    def __repr__(self) -> str:
        return (
            f"<MeikyuState {self._n}p turn {self._turns + 1} P{self._turn + 1}'s turn · {self.decision} · "
            f"to act: {to_act(self.current_player)}>"
        )

    # -- integer steps and tensors (see cardbase.games.base) --

    def _step_id(self, action: Any) -> int:
        """The id of a one-step action."""
        t = self._t
        ids = t.ids
        if isinstance(action, Word):
            return ids.word + _WORD_IDS[WORDS[action.word]]
        if isinstance(action, MixedArea):
            return ids.mixed + action.target
        assert isinstance(action, Choose), f"{action} is not one step"
        verb = action.verb
        if verb in ("discard land", "give"):
            return (ids.discard_land if verb == "discard land" else ids.give) + t.lindex[action.name]
        base = ids.keep if verb == "keep" else ids.give_back if verb == "return" else ids.discard
        return base + t.kindex[action.name]

    def _head(self, step: int) -> tuple[int, int, int, int] | None:
        """What a card set's first step says: (0 quest, 1 attack, 2 develop; the room or land's
        kind (-1: none named), the seat attacked, the way's index), or None for a one-step action."""
        ids = self._t.ids
        if ids.quest <= step < ids.attack:
            return (0, step - ids.quest, -1, -1)
        if ids.attack <= step < ids.develop:
            rest, way = divmod(step - ids.attack, ids.ways)
            seat, land = divmod(rest, ids.lands + 1)
            return (1, -1 if land == ids.lands else land, seat, way)
        if ids.develop <= step < ids.card:
            return (2, step - ids.develop, -1, -1)
        return None

    def _card_sets(self, head: tuple[int, int, int, int] | None) -> CardSets:
        """The card sets legal after ``head`` (None: a defence)."""
        t = self._t
        p = self.current_player
        lab = bool(self._eff[p] & B_LAB)
        hand = self._hands[p]
        if head is None:
            return t.choices(hand, DEFEND, lab)
        if head[0] == 2:
            return t.choices(hand, DEVELOP, False)
        return t.choices(hand, QUEST, lab)

    def _set_tree(self, head: tuple[int, int, int, int] | None) -> StepNode:
        """The tree of the steps of the card sets legal after ``head`` (None: a defence), kept in
        the tables by the hand's key (the sets are :meth:`_card_sets`)."""
        t = self._t
        p = self.current_player
        mode = DEFEND if head is None else DEVELOP if head[0] == 2 else QUEST
        key = (mode, mode != DEVELOP and bool(self._eff[p] & B_LAB), self._hkey[p])
        cache = t.tree_cache
        tree = cache.get(key)
        if tree is None:
            make_room(cache, MEMO_LIMIT)
            # A defence's sets are the quest's after the empty set: keyed by the quest's sets.
            sets = t.choices(self._hands[p], QUEST if mode == DEFEND else mode, key[1])
            by_sets = t.tree_by_sets
            hit = by_sets.get((mode, id(sets)))
            if hit is None or hit[0] is not sets:
                make_room(by_sets, SETS_LIMIT)
                hit = by_sets[mode, id(sets)] = (sets, t.set_steps(self._card_sets(head)))
            tree = cache[key] = hit[1]
        return tree

    def _composed(self, steps: Sequence[int]) -> tuple[list[str], str | None]:
        """The cards and the Laboratory item that card steps name."""
        t = self._t
        ids = t.ids
        cards: list[str] = []
        lab = None
        for step in steps:
            if ids.card <= step < ids.lab:
                cards.append(t.knames[step - ids.card])
            elif ids.lab <= step < ids.done:
                lab = t.knames[step - ids.lab]
        return cards, lab

    def legal_ids(self, prefix: Sequence[int] = ()) -> list[int]:
        check_steps(self, prefix)
        ask = self._ask
        if self.current_player >= 0 and (ask == A_DEFEND or (ask == A_MAIN and prefix)):
            # A card set's steps: a walk down the tree of the legal sets' steps.
            head = self._head(prefix[0]) if ask == A_MAIN else None
            if head is not None or ask == A_DEFEND:
                node: StepNode | None = self._set_tree(head)
                for step in prefix[0 if head is None else 1 :]:
                    if node is None or step not in node[0]:
                        node = None
                        break
                    node = node[1][node[0].index(step)]
                if node is not None:
                    return list(node[0])
        unchosen = ids_without_choice(self, prefix)
        if unchosen is not None:
            return unchosen
        t = self._t
        ids = t.ids
        if ask == A_MAIN and not prefix:
            return self._main_ids()
        if ask in (A_MAIN, A_DEFEND):
            head = self._head(prefix[0]) if ask == A_MAIN else None
            if ask == A_MAIN and head is None:
                return []  # (a one-step action: none follows it)
            sets = self._card_sets(head)  # (a prefix off the tree of the sets' steps)
            cards, lab = self._composed(prefix)
            j = len(cards)
            nexts = set()
            for names, set_lab in sets:
                if len(names) < j or list(names[:j]) != cards:
                    continue
                if lab is not None:
                    if len(names) == j and set_lab == lab:
                        nexts.add(ids.done)
                elif len(names) > j:
                    nexts.add(ids.card + t.kindex[names[j]])
                elif set_lab is None:
                    nexts.add(ids.done)
                else:
                    nexts.add(ids.lab + t.kindex[set_lab])
            return sorted(nexts)
        if prefix:
            return []  # (this decision is one step: none follows another)
        actions = self.legal_actions()
        get = t.step_of.get
        out = [get(id(a), -1) for a in actions]  # the interned actions' ids by table lookup
        if -1 in out:
            out = [self._step_id(a) for a in actions]
        out.sort()
        return out

    def _main_ids(self) -> list[int]:
        """The main choice's first steps: a free play's id, a quest's room, an aggression's target
        and way, a development's land. Which card sets go with them is the steps after: so a hand
        new to the memos is not enumerated for them (:meth:`MeikyuTables.forms_sets` says whether
        it makes any), only once a quest, an aggression or a development is begun."""
        t = self._t
        ids = t.ids
        p = self._turn
        lab = bool(self._eff[p] & B_LAB)
        menu = t.main_cache[lab].get(self._hkey[p])
        if menu is None:
            hand = self._hands[p]
            quest, develop = t.forms_sets(hand, QUEST, lab), t.forms_sets(hand, DEVELOP, False)
            held_aggression, has_map = t.held_aggression(hand), t.holds_map(hand)
        else:
            quest, develop, held_aggression, has_map = bool(menu[0]), bool(menu[1]), menu[2], menu[3]
        free, rooms, by, targets = self._main_options(quest, held_aggression, has_map)
        if free is t.free_plain:
            out = list(t.free_plain_ids)
        elif free is t.free_map:
            out = list(t.free_map_ids)
        else:
            out = list(map(t.step_of.__getitem__, map(id, free)))
        if quest:
            base = ids.quest
            out.extend([base + room for room in rooms])
            if by:
                ways, lands, lindex, way_of = ids.ways, ids.lands, t.lindex, t.way_of
                # (q × (lands + 1) + where) × ways + way, from ids.attack
                at = [
                    ids.attack + (q * (lands + 1) + (lands if land is None else lindex[land])) * ways
                    for q, land in targets
                ]
                for name in by:
                    way = ways - 1 if name == COUNCIL else way_of[name]
                    out.extend([a + way for a in at])
        if develop:
            base = ids.develop
            out.extend([base + land for land in self._undev[p]])
        out.sort()
        return out

    def chance_ids(self, prefix: Sequence[int] = ()) -> list[tuple[int, float]]:
        # Counted straight from the pile: a draw's step is the card's kind index, a reveal's
        # the land's index, a roll's the value - 1 (as action_from_ids reads them).
        check_steps(self, prefix)
        if self.current_player != CHANCE or prefix:
            return []  # (a chance step is a whole action: none follows another)
        ask = self._ask
        if ask == A_ROLL:
            return [(v, 1 / 6) for v in range(6)]
        if ask == A_DRAW:
            pile = self._kpile
            size = len(pile)
            if not size:
                return []
            kc = self._kcount
            if kc is None or kc[0] is not pile or kc[1] != size:
                counts = [0] * self._t.K
                for k, c in Counter(pile).items():
                    counts[k] = c
                kc = self._kcount = [pile, size, counts]
            return [(k, c / size) for k, c in enumerate(kc[2]) if c]
        lands = self._mpile if ask == A_REVEAL else None
        if not lands:
            return []
        size = len(lands)
        mc = self._mcount
        if mc is None or mc[0] is not lands or mc[1] != size:
            counts = [0] * self._t.L
            for k in lands:
                counts[k] += 1
            mc = self._mcount = [lands, size, counts]
        return [(k, c / size) for k, c in enumerate(mc[2]) if c]

    def action_from_ids(self, ids: Sequence[int]) -> MeikyuAction | None:
        if not ids:
            return None
        t = self._t
        if type(ids) is CheckedSteps and len(ids) > 1 and ids[-1] != t.ids.done:
            return None  # a card set's steps so far, each legal where taken: its done step is to come
        check_steps(self, ids)
        if self.current_player == CHANCE:
            if len(ids) > 1:
                raise IllegalAction(f"a chance step is a whole action; no step follows {ids[0]}", "steps")
            step = ids[0]
            ask = self._ask
            if ask == A_DRAW:
                return t.draw_act[step]
            if ask == A_REVEAL:
                return t.reveal_act[step]
            return t.roll_act[step + 1]
        layout = t.ids
        first = ids[0]
        head = self._head(first) if self._ask == A_MAIN else None
        one_step = self._ask != A_DEFEND and head is None
        if len(ids) > 1:  # (only a card set takes several steps; it ends with done)
            if one_step:
                raise IllegalAction(
                    f"a Meikyu {self.decision} is one step; no step follows {first}", "steps", self.current_player
                )
            if layout.done in ids[:-1]:
                raise IllegalAction("a card set ends at its done step; none follows it", "steps", self.current_player)
            if ids[-1] != layout.done:
                return None
        if one_step:
            step = first
            if step < layout.mixed:
                return _WORD_LIST[step - layout.word]
            if step < layout.keep:
                return t.mixed_act[step - layout.mixed]
            for base, table in (  # the blocks from the last down
                (layout.give, t.give_act),
                (layout.discard_land, t.discard_land_act),
                (layout.discard, t.discard_act),
                (layout.give_back, t.return_act),
                (layout.keep, t.keep_act),
            ):
                if step >= base:
                    return table[step - base]
        if ids[-1] != layout.done:
            return None
        cards, lab = self._composed(ids)
        names = tuple(cards)
        if head is None:
            return t.defend((names, lab))
        kind, place, seat, way = head
        if kind == 0:
            return t.quest(place, names, lab)
        if kind == 2:
            return t.develop(place, names)
        by = COUNCIL if way == layout.ways - 1 else t.knames[t.aggression[way]]
        return t.attack(seat, t.lnames[place] if place >= 0 else None, names, lab, by)

    def action_ids(self, action: Any) -> tuple[int, ...]:
        self.check(action)
        t = self._t
        ids = t.ids
        if isinstance(action, DrawCard):
            return (t.kindex[action.card],)
        if isinstance(action, Reveal):
            return (t.lindex[action.room],)
        if isinstance(action, Roll):
            return (action.value - 1,)
        if isinstance(action, Quest | Attack | Develop | Defend):
            cards = tuple(ids.card + t.kindex[c] for c in action.cards)
            lab = getattr(action, "lab", None)
            tail = (*cards, *((ids.lab + t.kindex[lab],) if lab else ()), ids.done)
            if isinstance(action, Quest):
                return (ids.quest + t.lindex[action.room], *tail)
            if isinstance(action, Develop):
                return (ids.develop + t.lindex[action.land], *tail)
            if isinstance(action, Attack):
                way = ids.ways - 1 if action.by == COUNCIL else t.aggression.index(t.kindex[action.by])
                where = ids.lands if action.land is None else t.lindex[action.land]
                return (ids.attack + (action.target * (ids.lands + 1) + where) * ids.ways + way, *tail)
            return tail
        return (self._step_id(action),)

    def step_text(self, prefix: Sequence[int], step: int) -> str:
        action = self.action_from_ids((*prefix, step))
        if action is not None:
            return str(action)
        t = self._t
        ids = t.ids
        head = self._head(step) if not prefix and self._ask == A_MAIN else None
        if head is not None:
            kind, place, seat, way = head
            if kind == 0:
                return f"quest {t.lnames[place]} with …"
            if kind == 2:
                return f"develop {t.lnames[place]} with …"
            by = COUNCIL if way == ids.ways - 1 else t.knames[t.aggression[way]]
            land = f" {t.lnames[place]}" if place >= 0 else ""
            return f"attack P{seat + 1}{land} with … by {by}"
        if ids.lab <= step < ids.done:
            return f"+ {t.knames[step - ids.lab]} as character"
        return f"+ {t.knames[step - ids.card]}"

    def information_state_key(self, seat: int, prefix: Sequence[int] = ()) -> str:
        o = self.observation(check_seat(seat, self._n))
        check_steps(self, prefix)
        return repr(
            (
                o.player,
                o.current_player,
                o.turn_player,
                o.turns,
                o.ask,
                o.args,
                o.hand,
                o.hand_sizes,
                o.rooms,
                o.mapped,
                o.lands,
                o.refugees,
                o.points,
                o.skips,
                o.kpile_size,
                o.kdiscard,
                o.mpile_size,
                o.mdiscard,
                o.inplay,
                o.archives,
                o.archives_size,
                o.ctx,
                o.stack,
                o.first_rolls,
                o.end,
                o.hot_done,
                o.shown,
                tuple(prefix) if seat == self.current_player else (),
            )
        )

    def observation_tensor(self, seat: int, prefix: Sequence[int] = ()) -> list[float]:
        check_seat(seat, self._n)
        check_steps(self, prefix)
        t = self._t
        ids = t.ids
        n, K, L = self._n, t.K, t.L
        seats = [(seat + r) % n for r in range(n)]

        obs = self.observation(seat)
        out = [float(c) for c in self._hands[seat]]
        out += [float(self._hsize[s]) for s in seats]
        for developed in (0, 1):
            for s in seats:
                out += counts([e >> 1 for e in self._lands[s] if e & 1 == developed], L)
        out += [float(len(self._refugees[s])) for s in seats]
        out += [float(self._pts[s]) for s in seats]
        out += [float(self._skips[s]) for s in seats]
        out += counts(self._rooms, L) + counts(self._mapped, L)
        out += counts(self._kdisc, K) + counts(self._inplay, K) + counts(self._mdisc, L)
        out += counts(obs.archives or (), K)
        out += [float(len(self._kpile)), float(len(self._mpile))]
        out += one_hot(len(DECISIONS), self._ask)
        cp = self.current_player
        out += one_hot(n, (cp - seat) % n if cp >= 0 else -1)
        out += one_hot(n, (self._turn - seat) % n)
        ctx = self._ctx or {}
        kind_of = ctx.get("kind")
        out += one_hot(len(_CONTEXT_KINDS), _CONTEXT_KINDS.index(kind_of) if kind_of in _CONTEXT_KINDS else -1)
        dice = list(ctx.get("dice", ()))
        for slot in (0, 1):
            out += one_hot(6, dice[slot] - 1 if slot < len(dice) and dice[slot] else -1)
        out += [float(ctx.get("swords", 0)), float(ctx.get("defence", 0)), float(ctx.get("level", 0))]
        head = None
        steps: Sequence[int] = prefix if seat == cp else ()
        if steps and self._ask == A_MAIN:
            head = self._head(steps[0])
        kind = head[0] if head is not None else (3 if steps and self._ask == A_DEFEND else -1)
        out += one_hot(4, kind)
        out += one_hot(L, head[1] if head is not None else -1)
        out += one_hot(n, (head[2] - seat) % n if head is not None and head[2] >= 0 else -1)
        out += one_hot(ids.ways, head[3] if head is not None else -1)
        cards, lab = self._composed(steps)
        out += counts([t.kindex[c] for c in cards], K)
        out += one_hot(K, t.kindex[lab] if lab is not None else -1)
        out.append(float(self._turns))
        return out

    def resample_from_infostate(self, seat: int, rng: random.Random) -> MeikyuState:
        """The search agents' deal (:func:`cardbase.games.meikyu.agents.sample_hidden`): the other
        hands, the piles and unseen Archives cards dealt from what ``seat`` has not seen."""
        from cardbase.games.meikyu.agents import sample_hidden

        obs = self.observation(check_seat(seat, self._n))
        hands, kpile, mpile, archives = sample_hidden(obs, rng)
        return MeikyuState.from_parts(obs, hands, kpile, mpile, archives, seed=0)

    # -- a given position --

    @classmethod
    def position(
        cls,
        rules: MeikyuRules,
        *,
        turn: int = 0,
        step: str = "action",
        hands: Sequence[Mapping[str, int]] = (),
        lands: Sequence[Sequence[str | tuple[str, bool]]] = (),
        rooms: Sequence[str] = (),
        discards: Sequence[str] = (),
        refugees: Sequence[int] = (),
        pile: Sequence[str] | None = None,
        meikyu_pile: Sequence[str] | None = None,
        seed: int | None = 0,
    ) -> MeikyuState:
        """A game at a given position: seat ``turn`` is at the start of its turn (``step="draw"``)
        or about to take its action (``step="action"``).

        ``hands[i]`` maps card names to copies; ``lands[i]`` lists room names (or ``(name,
        developed)``); ``rooms`` are the face-up rooms; ``discards`` the Kingdom discard pile,
        bottom first; ``refugees[i]`` how many Refugees seat i has placed. Every other Kingdom
        card is in the Kingdom pile (or, when ``pile`` gives the pile, in the discard pile under
        ``discards``); every other land in the Meikyu pile (or, with ``meikyu_pile``, among the
        discarded rooms). For scenarios and for games typed up from a real table.

        A position no game by the rules reaches is refused (:class:`InvalidPosition`, naming the
        rule; docs/rules/meikyu.md, "Reading and setting up a position"): a seat or a count that is
        none, an OPEN card in a hand, a kingdom over its land limit, fewer than four rooms while the
        Meikyu pile has cards, more than four at a turn's start under ``map_room="discarded"``, and a
        game already over (a kingdom at the goal, no room left) unless the turn's draw can have just
        done it.
        """
        t = rules.tables
        n = rules.players
        if step not in ("draw", "action"):
            raise InvalidPosition(f"step is 'draw' or 'action', not {quoted(str(step))}", "step")
        if type(turn) is not int or not 0 <= turn < n:
            raise InvalidPosition(f"turn is a seat from 0 to {n - 1} in a {n}-player game, not {turn!r}", "seat")
        for what, given in (("hands", hands), ("lands", lands), ("refugees", refugees)):
            check_seats(what, given, n)
        for seat, kingdom in enumerate(lands):
            check_names(f"lands[{seat}]", kingdom)
        check_names("rooms", rooms)
        check_names("discards", discards)
        check_names("pile", pile, optional=True)
        check_names("meikyu_pile", meikyu_pile, optional=True)
        for seat, hand in enumerate(hands):
            if not isinstance(hand, Mapping):
                raise InvalidPosition(f"hands[{seat}] maps card names to copies, not {quoted(hand)}", "names")
            for name, count in hand.items():
                if type(count) is not int or count < 0:
                    raise InvalidPosition(
                        f"P{seat + 1} holds {count!r} {plural(count, 'copy', 'copies')} of {name}: a count is a whole "
                        f"number, 0 or more",
                        "count",
                    )
        for seat, count in enumerate(refugees):
            if type(count) is not int or count < 0:
                raise InvalidPosition(
                    f"P{seat + 1} has placed {count!r} Refugees: a count is a whole number, 0 or more", "count"
                )
        state = cls(rules, seed, _blank=True)
        kleft = list(t.kingdom_cards)
        lleft = list(t.land_cards)

        def take_k(field: str, name: object) -> int:
            if not isinstance(name, str):
                raise InvalidPosition(f"{field}: a card is given by its name, not {quoted(name)}", "names")
            k = t.kindex.get(name)
            if k is None:
                raise InvalidPosition(f"{field}: no Kingdom card {quoted(name)} in the pool", "card")
            if k not in kleft:
                raise InvalidPosition(f"{field}: more copies of {name} than the pool has", "copies")
            kleft.remove(k)
            return k

        def take_l(field: str, name: object) -> int:
            if not isinstance(name, str):
                form = "a name or (name, developed)" if field.startswith("lands") else "given by its name"
                raise InvalidPosition(f"{field}: a land is {form}, not {quoted(name)}", "names")
            land = t.lindex.get(name)
            if land is None:
                raise InvalidPosition(f"{field}: no land {quoted(name)} in the pool", "card")
            if land not in lleft:
                raise InvalidPosition(f"{field}: more copies of {name} than the pool has", "copies")
            lleft.remove(land)
            return land

        for seat, hand in enumerate(hands):
            for name, count in hand.items():
                for _ in range(count):
                    state._give_card(seat, take_k(f"hands[{seat}]", name))
        for seat, owned in enumerate(lands):
            for entry in owned:
                room: object = entry
                developed = False
                if isinstance(entry, tuple | list) and len(entry) == 2 and isinstance(entry[1], bool):
                    room, developed = entry  # (name, developed); anything else no name, refused by take_l
                state._lands[seat].append(take_l(f"lands[{seat}]", room) << 1 | developed)
        refugee = next((k for k in t.opens if t.keff[k] == X_REFUGEE), -1)
        for seat, count in enumerate(refugees):
            for _ in range(count):
                state._refugees[seat].append(take_k(f"refugees[{seat}]", t.knames[refugee]))
        state._rooms = [take_l("rooms", name) for name in rooms]
        state._kdisc = [take_k("discards", name) for name in discards]
        if pile is None:
            state._kpile = kleft
        else:
            state._kpile = [take_k("pile", name) for name in pile]
            state._kdisc = kleft + state._kdisc
        if meikyu_pile is None:
            state._mpile = lleft
        else:
            state._mpile = [take_l("meikyu_pile", name) for name in meikyu_pile]
            state._mdisc = lleft
        for seat in range(n):
            state._recount(seat)
        state._turn = turn
        state._stack = [(OP_TURN,)] if step == "draw" else [F_ENDTURN, F_MAIN]
        state._check_position(step)
        state._run()
        return state

    def _check_position(self, step: str) -> None:
        """Refuse a position set up by :meth:`position` that no game played by the rules reaches
        at the start of a turn (``step="draw"``) or just after its draw (``"action"``)."""
        t = self._t
        rules = self.rules
        n = self._n
        for p in range(n):
            opens = [t.knames[k] for k in t.opens if self._hands[p][k]]
            if opens:
                raise InvalidPosition(
                    f"P{p + 1} holds {', '.join(opens)}: an OPEN card is played at once, never held"
                    ' ("You must play these immediately upon drawing them")',
                    "open-held",
                )
        for p in range(n):
            held = lands_held(rules, self._lands[p], self._refugees[p])
            limit = rules.capacity(bool(self._eff[p] & B_FARM))
            if held > limit:
                what = "lands and Refugees" if rules.refugees_are_lands and self._refugees[p] else "lands"
                raise InvalidPosition(
                    f"P{p + 1}'s kingdom holds {held} {what}, more than its limit of {limit}"
                    ' ("The maximum number of owned lands a kingdom can have is five"; a sixth means discarding one)',
                    "land-limit",
                )
        rooms = len(self._rooms)
        if rooms < ROOMS and self._mpile:
            raise InvalidPosition(
                f"{counted(rooms, 'face-up room')} while the Meikyu pile holds {len(self._mpile)}:"
                ' step 4 lays rooms out "until there are four Meikyu cards", and a Dungeon Storm draws four',
                "rooms",
            )
        if rooms > ROOMS and rules.map_room == "discarded" and step == "draw":  # (in step 2 a Map may have added one)
            raise InvalidPosition(
                f"{rooms} face-up rooms: under map_room=discarded a Map's fifth room leaves at the end of its turn,"
                " so a turn starts with four at most",
                "rooms",
            )
        # What the turn's draw (step 1) can have done, at step="action": an OPEN card of the pool drawn then
        # (where it lies now is no proof: a replacement draw or the Archives' may have shuffled it into a new pile).
        drawn_now = step == "action"
        in_pool = {t.keff[k] for k in t.opens if k in t.kingdom_cards}
        if not self._rooms and not self._mpile and not (drawn_now and X_STORM in in_pool):
            raise InvalidPosition(
                "no room is face up and the Meikyu pile is empty: the game ended after the turn that left no room"
                ' ("B. There are no more Meikyu dungeon rooms left to conquer")',
                "game-over",
            )
        goal = rules.goal
        for p in range(n):
            if self._pts[p] < goal:
                continue
            by_refugee = drawn_now and p == self._turn and self._refugees[p] and self._pts[p] - 1 < goal
            if by_refugee or (drawn_now and X_TSUNAMI in in_pool):
                continue
            raise InvalidPosition(
                f"P{p + 1}'s kingdom is worth {counted(self._pts[p], 'point')}, at or over the goal of {goal}: the "
                f"game ended"
                ' after the turn that took it there ("A. The sum of all of one kingdom\'s lands equals ten or more")'
                + ("" if drawn_now else "; step='action' if this turn's draw did it"),
                "game-over",
            )

    # -- reconstruction (for search agents that sample hidden cards) --

    @classmethod
    def from_parts(
        cls,
        obs: MeikyuObservation,
        hands: Sequence[Sequence[int]],
        kpile: Sequence[int],
        mpile: Sequence[int],
        archives: Sequence[int],
        seed: int | None = None,
    ) -> MeikyuState:
        """The state ``obs`` shows, with every hidden card placed as given (hands as
        per-kind counts, piles as lists of kinds). For determinised search, not records.

        The hidden cards must be the ones ``obs`` does not show, in the places it counts: a hand
        of its size (the observer's own as shown), piles of their sizes, and with the cards shown
        every card of the pool once (:class:`InvalidPosition` otherwise)."""
        try:
            _check_parts(obs, hands, kpile, mpile, archives)
        except (TypeError, AttributeError, IndexError):  # no cost to a search's worlds
            raise InvalidPosition(_PARTS.format(n=obs.rules.players, k=obs.rules.tables.K), "hidden-cards") from None
        state = cls(obs.rules, seed, _blank=True)
        n = state._n
        state._kpile = list(kpile)
        state._kdisc = list(obs.kdiscard)
        state._hands = [list(h) for h in hands]
        state._shown = [list(x) for x in obs.shown] if obs.shown else [[] for _ in range(n)]
        state._hsize = [sum(h) for h in hands]
        state._hkey = [state._t.hand_key(h) for h in hands]
        state._mpile = list(mpile)
        state._rooms = list(obs.rooms)
        state._mdisc = list(obs.mdiscard)
        state._lands = [list(x) for x in obs.lands]
        state._refugees = [list(r) for r in obs.refugees]
        for s in range(n):
            state._recount(s)
        state._hot_done = obs.hot_done
        state._reached = obs.reached
        state._skips = list(obs.skips)
        state._turn = obs.turn_player
        state._turns = obs.turns
        state._stack = list(obs.stack)
        state._ask = obs.ask
        state._args = obs.args
        state._inplay = list(obs.inplay)
        ctx = obs.ctx
        state._ctx = None if ctx is None else dict(ctx, dice=list(ctx["dice"])) if "dice" in ctx else dict(ctx)
        state._mapped = list(obs.mapped)
        state._arch = list(archives)
        state._rolls = dict(obs.first_rolls)
        state._end = obs.end
        state.current_player = obs.current_player
        return state


_PARTS = "the hands are {n} lists of {k} whole numbers, one per Kingdom card kind, and the piles lists of kinds"


def _check_parts(
    obs: MeikyuObservation,
    hands: Sequence[Sequence[int]],
    kpile: Sequence[int],
    mpile: Sequence[int],
    archives: Sequence[int],
) -> None:
    """Refuse a deal of the hidden cards that is not one of ``obs``'s worlds (:meth:`MeikyuState.from_parts`)."""
    t = obs.rules.tables
    n = obs.rules.players
    if len(hands) != n or any(len(h) != t.K for h in hands):
        raise InvalidPosition(_PARTS.format(n=n, k=t.K), "hidden-cards")
    for s in range(n):
        if any(type(c) is not int or c < 0 for c in hands[s]) or sum(hands[s]) != obs.hand_sizes[s]:
            raise InvalidPosition(
                f"P{s + 1}'s hand holds {counted(obs.hand_sizes[s], 'card')} as observed", "hidden-cards"
            )
    if 0 <= obs.player < n and tuple(hands[obs.player]) != tuple(obs.hand):
        raise InvalidPosition(f"P{obs.player + 1}'s own hand is the one observed", "hidden-cards")
    shown_archives = obs.archives if obs.archives is not None else ()
    if len(kpile) != obs.kpile_size or len(mpile) != obs.mpile_size or len(archives) != obs.archives_size:
        raise InvalidPosition(
            "the Kingdom pile, the Meikyu pile and the Archives' draw have their observed sizes", "hidden-cards"
        )
    if obs.archives is not None and sorted(archives) != sorted(shown_archives):
        raise InvalidPosition("the Archives' draw is the one observed", "hidden-cards")
    kinds = [0] * t.K
    for h in hands:
        for k, c in enumerate(h):
            kinds[k] += c
    for zone in (kpile, obs.kdiscard, obs.inplay, archives, *obs.refugees):
        for k in zone:
            kinds[k] += 1
    lands = [0] * len(t.lnames)
    for zone in (mpile, obs.rooms, obs.mdiscard):
        for land in zone:
            lands[land] += 1
    for owned in obs.lands:
        for e in owned:
            lands[e >> 1] += 1
    pool_kinds = Counter(t.kingdom_cards)
    pool_lands = Counter(t.land_cards)
    if kinds != [pool_kinds[k] for k in range(t.K)] or lands != [pool_lands[land] for land in range(len(t.lnames))]:
        raise InvalidPosition(
            "the hidden cards and the cards shown are not every card of the pool once", "hidden-cards"
        )


_OPS = (
    MeikyuState._op_setup,
    MeikyuState._op_dealcheck,
    MeikyuState._op_firstroll,
    MeikyuState._op_setuproll,
    MeikyuState._op_firstdecide,
    MeikyuState._op_turn,
    MeikyuState._op_cdraw,
    MeikyuState._op_keep,
    MeikyuState._op_open,
    MeikyuState._op_refdisc,
    MeikyuState._op_reveal,
    MeikyuState._op_main,
    MeikyuState._op_roll,
    MeikyuState._op_qresolve,
    MeikyuState._op_aresolve,
    MeikyuState._op_after,
    MeikyuState._op_casino,
    MeikyuState._op_capacity,
    MeikyuState._op_tsunami,
    MeikyuState._op_endturn,
)

_Apply = Callable[[MeikyuState, Any], bool | None]
"""Applies an action of a kind of decision; True: the state now waits for the next one."""

_MAIN_APPLY: dict[type, _Apply] = {  # step 2, by the kind of action
    Word: MeikyuState._apply_word,
    MixedArea: MeikyuState._apply_mixed,
    Quest: MeikyuState._apply_quest,
    Develop: MeikyuState._apply_develop,
    Attack: MeikyuState._apply_attack,
}

_LEGAL = (  # by the code of the decision waited for
    MeikyuState._legal_none,  # A_NONE
    MeikyuState._legal_chance,  # A_DRAW
    MeikyuState._legal_chance,  # A_REVEAL
    MeikyuState._legal_chance,  # A_ROLL
    MeikyuState._main_actions,  # A_MAIN
    MeikyuState._legal_tomb,  # A_TOMB
    MeikyuState._legal_keep,  # A_KEEP
    MeikyuState._legal_defend,  # A_DEFEND
    MeikyuState._legal_amulet,  # A_AMULET
    MeikyuState._legal_draw_or_pass,  # A_CASINO
    MeikyuState._legal_hospital,  # A_HOSPITAL
    MeikyuState._legal_order,  # A_ORDER
    MeikyuState._legal_discard,  # A_HANDLIMIT
    MeikyuState._legal_discard,  # A_REFUGEE
    MeikyuState._legal_tsunami,  # A_TSUNAMI
    MeikyuState._legal_landcap,  # A_LANDCAP
    MeikyuState._legal_draw_or_pass,  # A_HOT
    MeikyuState._legal_give,  # A_GIVE
    MeikyuState._legal_mixed,  # A_MIXED
)

_APPLY: tuple[_Apply | None, ...] = (  # by the code of the decision waited for
    None,  # A_NONE
    MeikyuState._apply_draw,  # A_DRAW
    MeikyuState._apply_reveal,  # A_REVEAL
    MeikyuState._apply_roll,  # A_ROLL
    MeikyuState._apply_main,  # A_MAIN
    MeikyuState._apply_tomb,  # A_TOMB
    MeikyuState._apply_keep,  # A_KEEP
    MeikyuState._apply_defend,  # A_DEFEND
    MeikyuState._apply_amulet,  # A_AMULET
    MeikyuState._apply_yes_draw,  # A_CASINO
    MeikyuState._apply_hospital,  # A_HOSPITAL
    MeikyuState._apply_order,  # A_ORDER
    MeikyuState._apply_discard,  # A_HANDLIMIT
    MeikyuState._apply_refugee,  # A_REFUGEE
    MeikyuState._apply_tsunami,  # A_TSUNAMI
    MeikyuState._apply_landcap,  # A_LANDCAP
    MeikyuState._apply_yes_draw,  # A_HOT
    MeikyuState._apply_give,  # A_GIVE
    MeikyuState._apply_mixed_after,  # A_MIXED
)
