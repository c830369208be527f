"""Méa agents: a heuristic (tile control, mana, safe attacks, a chosen opening draw
size) and a determinised Monte Carlo search. Pure: they read observations and
return actions.

Both follow :class:`cardbase.games.base.Agent`: ``act(observation, legal_actions)``.
The random agent is game-agnostic and lives in :mod:`cardbase.sim.agents`.

The heuristic scores each legal action with a few rules of thumb (what an attack
kills and loses, a summon's worth and safety, an assist's effect, stepping onto an
enemy tile to flip it) and ends its turn when nothing scores well. The search agent
deals the cards it cannot see at random (:meth:`MeaState.determinise`), tries its
best candidate actions in each such deal, plays on with the heuristic for every seat
until the end of the opponent's next turn, and picks the best average position.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from cardbase.errors import counted, quoted
from cardbase.games.base import TERMINAL, State, agent_repr, check_act, check_at_least_one, whole_number
from cardbase.games.ismcts import DEFAULT_EXPLORATION
from cardbase.games.ismcts import IsmctsAgent as BaseIsmcts
from cardbase.games.mea.abilities import Ability
from cardbase.games.mea.actions import Choose, Draw, Obliterate
from cardbase.games.mea.codes import BOARD, UNKNOWN
from cardbase.games.mea.engine import MeaState
from cardbase.games.mea.legal import ChoiceActions, MainActions
from cardbase.games.mea.observation import MeaObservation
from cardbase.games.mea.rules import HAND_LIMIT, MeaRules, MeaTables
from cardbase.games.montecarlo import MonteCarloAgent

DEFAULT_OPENING = 5
TARGET_HAND = 5
CROWDED_HAND = 7
ACT_THRESHOLD = 0.5


# --- what things are worth -----------------------------------------------------


def monster_value(state: MeaState, i: int) -> float:
    """A monster's worth on the board: attack and defence, and a little for lasting abilities."""
    return _worth(state.tables.triggers[i], state.attack_of(i) + state.defence_of(i))


def _worth(trig: Mapping[str, tuple[Ability, ...]], stats: int) -> float:
    """:func:`monster_value` of a monster with these abilities and attack + defence."""
    return stats + _bonus(trig)


def _bonus(trig: Mapping[str, tuple[Ability, ...]]) -> float:
    """What :func:`_worth` adds to a monster's attack + defence for these abilities."""
    bonus = 0.0
    if trig:
        bonus += 1.0 * (len(trig.get("turn_start", ())) + len(trig.get("turn_end", ())))
        bonus += 0.5 * len(trig.get("killed", ()))
    return bonus


def threat_on(state: MeaState, q: int, seat: int) -> int:
    """The most attack the other player can bring onto tile ``q`` next turn: the two
    strongest of their monsters on tiles adjacent to it (a combined attack)."""
    view = state.board_view()
    return _threat(q, seat, view.controllers, view.attacks, view.occupants, view.neighbours)


def _threat(
    q: int,
    seat: int,
    ctrl: Sequence[int],
    atk: Sequence[int],
    occ: Mapping[int, tuple[int, ...]],
    adj: Mapping[int, tuple[int, ...]],
) -> int:
    """:func:`threat_on`, with the state's views taken once."""
    best = second = 0
    for d in adj.get(q, ()):
        for j in occ[d]:
            if ctrl[j] != seat:
                a = atk[j]
                if a > best:
                    best, second = a, best
                elif a > second:
                    second = a
    return best + second


def evaluate(state: MeaState, me: int) -> float:
    """How good the position is for ``me`` (positive: better than the opponent's)."""
    winners = state.winners
    if winners is not None:
        if len(winners) == 2:
            return 0.0
        return 1000.0 if winners[0] == me else -1000.0
    opp = 1 - me
    tiles = [0, 0]
    owners, occ, adj, ctrl, _, atk, defence, atk_bonus, def_bonus = state.board_view()
    for o in owners.values():
        tiles[o] += 1
    score = 3.0 * (tiles[me] - tiles[opp]) + 8.0 / (tiles[opp] + 0.5) - 8.0 / (tiles[me] + 0.5)
    triggers = state.tables.triggers
    for q, here in occ.items():
        owner = owners[q]
        for i in here:
            v = _worth(triggers[i], atk[i] + atk_bonus[i] + defence[i] + def_bonus[i])
            c = ctrl[i]
            sign = 1.0 if c == me else -1.0
            score += sign * v
            if owner != c:
                score += sign * 2.0  # standing on an enemy tile: it can be flipped next turn
            if _threat(q, c, ctrl, atk, occ, adj) >= defence[i]:
                score -= sign * 0.4 * v
    for seat, sign in ((me, 1.0), (opp, -1.0)):
        h = state.hand_size(seat)
        score += sign * 0.8 * min(h, 7)
        if h >= HAND_LIMIT - 2:
            score -= sign * 3.0 * (h - HAND_LIMIT + 3)
        d = state.deck_size(seat)
        if d < 4:
            score -= sign * (4 - d)
    return score


# --- the heuristic's rules of thumb ----------------------------------------------


_PROFILES: dict[int, tuple[MeaTables, _Profile]] = {}


class _Profile:
    """What the heuristic reads of each card instance of a rules' tables, worked out once per
    tables: the abilities it has on play or summon (``on_play``); their reach (0 none, 1 whose
    worth is the same on any tile, 2 some look at the tiles next to it); the bonus
    :func:`_worth` adds to its attack and defence for its lasting abilities; ``fixed``: what
    :meth:`_Scores.card_worth` gives for it whatever the position (when each of those abilities is
    worth the same anywhere: no condition, a :func:`_fixed_worth`), else ``None``."""

    __slots__ = ("bonus", "fixed", "on_play", "reach", "tables")

    def __init__(self, tab: MeaTables):
        on_play: list[tuple[Ability, ...]] = []
        reach: list[int] = []
        for trig in tab.triggers:
            abilities = trig.get("summoned", ()) + trig.get("play", ()) if trig else ()
            on_play.append(abilities)
            reach.append(2 if any(ab.filter.adjacent for ab in abilities) else 1 if abilities else 0)
        self.on_play = tuple(on_play)
        self.reach = tuple(reach)
        fixed: list[float | None] = []
        for abilities in on_play:
            worth: float | None = 0.0
            for ab in abilities:
                w = _fixed_worth(ab) if ab.condition is None else None
                if w is None or worth is None:
                    worth = None
                    break
                worth += w  # card_worth's sum, in its order
            fixed.append(worth)
        self.fixed = tuple(fixed)
        self.bonus = tuple(_bonus(trig) for trig in tab.triggers)
        self.tables = (tab.attack, tab.defence, tab.cost, tab.names, self.reach, self.bonus, self.on_play, self.fixed)
        """What :class:`_Scores` reads of these and of the rules' tables, in one tuple."""


_FIXED_EFFECTS = frozenset(("extra_attack", "extra_action", "gain_attack", "gain_defence", "add_tile"))
"""The effects :func:`_fixed_worth` gives a worth for (whatever the ability's other fields)."""


_MONSTER_TARGETS = frozenset(("friendly_monster", "enemy_monster", "any_monster"))
"""The targets :meth:`MeaState.targets` lists monsters for."""


def _fixed_worth(ab: Ability) -> float | None:
    """:meth:`_Scores.ability_worth` of an ability whose worth does not depend on the position
    (when its condition holds), else ``None``."""
    e = ab.effect
    if e == "extra_attack" or e == "extra_action":
        return 1.0
    if e in ("gain_attack", "gain_defence"):
        return (0.6 if ab.until else 1.0) * ab.amount
    if e == "add_tile":
        return 2.0 * ab.amount if ab.target == "you" else -1.5 * ab.amount
    return None


def _profile(tab: MeaTables) -> _Profile:
    """The :class:`_Profile` of ``tab``, kept for the rules' lifetime in this process."""
    found = _PROFILES.get(id(tab))
    if found is None or found[0] is not tab:
        if len(_PROFILES) > 64:  # rules come and go (a lab run makes a few): keep the last ones
            _PROFILES.clear()
        found = _PROFILES[id(tab)] = (tab, _Profile(tab))
    return found[1]


def score_action(state: MeaState, action: Any, p: int) -> float:
    """The heuristic's score of a main-phase action for ``p`` (higher is better;
    ending the turn is not scored here)."""
    return _Scores(state, p).score(action)


class _Scores:
    """``score_action`` over the actions of one decision: what several of them share (the threat
    on a tile, what a moving monster risks where it stands, a summoned card's worth on a tile) is
    worked out once, and the state's views taken once. The same sums in the same order: the
    scores are ``score_action``'s to the bit."""

    __slots__ = (
        "adj",
        "atk",
        "atk_bonus",
        "attack_printed",
        "bonus",
        "borders",
        "cost",
        "crowded",
        "ctrl",
        "def_",
        "def_bonus",
        "defence",
        "first",
        "fixed",
        "hand_size",
        "movers",
        "names",
        "occ",
        "on_play",
        "p",
        "pos",
        "reach",
        "state",
        "summons",
        "threats",
        "tiles",
        "worths",
    )

    def __init__(self, state: MeaState, p: int):
        self.state, self.p = state, p
        tab = state.tables
        found = _PROFILES.get(id(tab))  # (_profile(tab), without its call while it is kept)
        (
            self.attack_printed,
            self.defence,
            self.cost,
            self.names,
            self.reach,
            self.bonus,
            self.on_play,
            self.fixed,
        ) = (found[1] if found is not None and found[0] is tab else _profile(tab)).tables
        self.tiles, self.occ, self.adj, self.ctrl, self.pos, self.atk, self.def_, self.atk_bonus, self.def_bonus = (
            state.board_view()
        )
        self.first: dict[str, int] | None = None  # the hand's first instance of each name, when first needed
        self.hand_size = 0
        self.crowded = 0.0  # a full hand must be played down: see card
        self.threats: dict[int, int] = {}
        # score()'s own memos, made when first needed (best() does without them)
        self.borders: dict[int, bool] | None = None
        self.summons: dict[str, tuple[int, int, float]] | None = None
        self.movers: dict[int, tuple[int, float, bool]] | None = None
        self.worths: dict[tuple[int, int | None], float] = {}

    def threat(self, q: int) -> int:
        """:func:`threat_on` tile ``q``, worked out once per tile."""
        found = self.threats.get(q)
        if found is None:
            found = self.threats[q] = _threat(q, self.p, self.ctrl, self.atk, self.occ, self.adj)
        return found

    def value(self, i: int) -> float:
        """:func:`monster_value` of monster instance ``i``."""
        return self.atk[i] + self.atk_bonus[i] + self.def_[i] + self.def_bonus[i] + self.bonus[i]

    def card(self, name: str) -> int:
        """The first instance of ``name`` in the hand."""
        first = self.first
        if first is None:
            first = self._read_hand()
        return first[name]

    def _read_hand(self) -> dict[str, int]:
        """The player's hand, read once (with its size and ``crowded``): only summons, plays and
        their abilities need it, each after :meth:`card`."""
        hand = self.state.hand(self.p)
        names = self.names
        first: dict[str, int] = {}
        for j in reversed(hand):  # the first of each name is the one kept
            first[names[j]] = j
        self.first = first
        n = self.hand_size = len(hand)
        self.crowded = (n - CROWDED_HAND) * 1.0 if n > CROWDED_HAND else 0.0  # (max(0, n - 7) * 1.0)
        return first

    def ability_worth(self, ab: Ability, q: int, src: int) -> float:
        """A rough worth of an ability of card ``src`` resolving now for the player (``q``: the
        source's tile)."""
        state, p = self.state, self.p
        e = ab.effect
        if ab.condition is not None and not ab.condition.holds(state.condition_count(ab.condition.count, p)):
            return 0.0
        if e == "draw":
            if self.first is None:
                self._read_hand()
            room = HAND_LIMIT - 2 - self.hand_size
            n = min(ab.amount, room, state.deck_size(p))
            return 0.9 * n if ab.target == "you" else -0.5 * n
        if e in _FIXED_EFFECTS:
            return cast("float", _fixed_worth(ab))
        # Without the list of targets where the worth does not need it: whether there is one (a
        # tile), or the monsters' worths read in board order as the list would give them.
        if e == "flip_tile" or e == "destroy_tile":
            if not state.has_target(ab, p, src, q):
                return 0.0
            return 5.0 if e == "flip_tile" else 4.0
        f = ab.filter
        if not f.adjacent and f.attack_at_most is None and ab.target in _MONSTER_TARGETS:
            return self._monster_worth(e, ab.target, f.defence_at_most)
        options = state.targets(ab, p, src, q)
        if not options:
            return 0.0
        if e in ("flip_tile",):
            return 5.0
        value = self.value
        if e in ("destroy_tile", "obliterate_tile"):
            best = 4.0
            if e == "obliterate_tile":
                ctrl, occ = self.ctrl, self.occ
                best += max(sum(value(j) * (1 if ctrl[j] != p else -1) for j in occ[t]) for t in options)
            return best
        values = [value(t[0]) for t in options]
        if ab.target == "friendly_monster":
            return -min(values)
        if e == "kill":
            return max(values) + 1.0
        if e == "return_to_hand":
            return 0.7 * max(values) + 0.5
        if e == "take_control":
            return 2.0 * max(values)
        return 0.0

    def _monster_worth(self, e: str, target: str, most_defence: int | None) -> float:
        """:meth:`ability_worth` of a monster-targeting ability with no adjacency or attack filter:
        the worths of its targets (:meth:`value`) read in board order, without listing them."""
        p, ctrl = self.p, self.ctrl
        mine, theirs = target == "friendly_monster", target == "enemy_monster"
        atk, atk_bonus, def_, def_bonus, bonus = self.atk, self.atk_bonus, self.def_, self.def_bonus, self.bonus
        low = high = None
        for here in self.occ.values():  # board order
            for i in here:
                c = ctrl[i]
                if (mine and c != p) or (theirs and c == p):
                    continue
                d = def_[i] + def_bonus[i]
                if most_defence is not None and d > most_defence:
                    continue
                v = atk[i] + atk_bonus[i] + def_[i] + def_bonus[i] + bonus[i]  # (value(i))
                if high is None:
                    low = high = v
                elif v > high:
                    high = v
                elif v < low:  # type: ignore[operator]
                    low = v
        if high is None:
            return 0.0
        if mine:
            return -low  # type: ignore[operator]
        if e == "kill":
            return high + 1.0
        if e == "return_to_hand":
            return 0.7 * high + 0.5
        if e == "take_control":
            return 2.0 * high
        return 0.0

    def card_worth(self, i: int, q: int) -> float:
        """What summoning or playing card instance ``i`` onto ``q`` is worth (its abilities on play
        or summon)."""
        worth = 0.0
        for ab in self.on_play[i]:
            worth += self.ability_worth(ab, q, i)
        return worth

    def worth(self, i: int, q: int) -> float:
        """:meth:`card_worth`: 0.0 for a card with no ability on play or summon, and worked out once
        per card when none of its abilities looks at the tiles next to ``q``."""
        reach = self.reach[i]
        if not reach:
            return 0.0
        fixed = self.fixed[i]
        if fixed is not None:
            return fixed
        key = (i, q if reach == 2 else None)
        found = self.worths.get(key)
        if found is None:
            found = self.worths[key] = self.card_worth(i, q)
        return found

    def score(self, action: Any) -> float:
        kind = action[0]
        if kind == "move":
            i = self.state.resolve_ref(action[1], self.p)
            assert i is not None
            return self.move(i, action[2])
        if kind == "summon":
            return self.summon(action[1], action[2])
        if kind == "attack":
            # A legal attack's refs all resolve.
            return self.attack(action[1], cast("list[int]", [self.state.resolve_ref(r, self.p) for r in action[2]]))
        if kind == "play":
            return self.play(action[1])
        return -1.0

    def move(self, i: int, d: int) -> float:
        """Moving monster instance ``i`` onto tile ``d``."""
        movers = self.movers
        if movers is None:
            movers = self.movers = {}
        mover = movers.get(i)
        if mover is None:
            mover = movers[i] = self._mover(i)
        dval, v, here = mover
        there = self.threat(d) >= dval
        if self.tiles[d] != self.p:
            return 3.0 - (0.8 * v if there else 0.0)
        if here and not there:
            return 0.4 * v
        return -0.2

    def summon(self, name: str, q: int) -> float:
        """Summoning the first ``name`` in the hand onto tile ``q``."""
        summons = self.summons
        if summons is None:
            summons = self.summons = {}
        summoned = summons.get(name)
        if summoned is None:
            summoned = summons[name] = self._summoned(name)
        i, value, score = summoned
        if self.threat(q) >= self.defence[i]:
            score -= 0.6 * value
        if self.border(q):
            score += 0.3
        return score + self.worth(i, q)

    def border(self, q: int) -> bool:
        """Whether a tile next to ``q`` is not the player's."""
        borders = self.borders
        if borders is None:
            borders = self.borders = {}
        border = borders.get(q)
        if border is None:
            tiles, p = self.tiles, self.p
            border = borders[q] = any(tiles[d] != p for d in self.adj[q])
        return border

    def attack(self, t: int, ids: Sequence[int]) -> float:
        """Attacking tile ``t`` with monster instances ``ids``."""
        p, ctrl = self.p, self.ctrl
        atk, atk_bonus, def_, def_bonus = self.atk, self.atk_bonus, self.def_, self.def_bonus
        bonus = self.bonus
        total = 0
        for i in ids:
            total += atk[i] + atk_bonus[i]
        here = self.occ[t]
        defenders = 0
        retaliation = 0
        for j in here:
            if ctrl[j] != p:
                defenders += 1
                retaliation += atk[j] + atk_bonus[j]
        # The worth (value()) of what is killed and of what is lost, each summed in order.
        killed = 0
        gained: float = 0  # (an int 0 until a worth is added, as sum() starts)
        for j in here:
            if ctrl[j] != p and def_[j] + def_bonus[j] <= total:
                killed += 1
                gained += atk[j] + atk_bonus[j] + def_[j] + def_bonus[j] + bonus[j]
        lost = 0
        given: float = 0
        for i in ids:
            if def_[i] + def_bonus[i] <= retaliation:
                lost += 1
                given += atk[i] + atk_bonus[i] + def_[i] + def_bonus[i] + bonus[i]
        score: float = gained - given
        score += 1.5 * killed
        if killed == defenders and lost < len(ids):
            score += 4.0 if self.tiles[t] != p else 1.0
        if len(ids) == 2:
            score -= 0.5
        return score

    def play(self, name: str) -> float:
        """Playing the first assist ``name`` in the hand."""
        first = self.first
        i = (self._read_hand() if first is None else first)[name]  # (card())
        return self.worth(i, -1) - 0.3 * self.cost[i] + self.crowded

    def _mover(self, i: int) -> tuple[int, float, bool]:
        """A moving monster's defence, worth, and whether it is under threat where it stands."""
        dval = self.def_[i] + self.def_bonus[i]
        return dval, self.value(i), self.threat(self.pos[i]) >= dval

    def _summoned(self, name: str) -> tuple[int, int, float]:
        """A summoned card's instance, attack plus defence, and score before its tile counts."""
        first = self.first
        i = (self._read_hand() if first is None else first)[name]  # (card(), read before crowded)
        value = self.attack_printed[i] + self.defence[i]
        return i, value, 1.0 + 0.5 * value + 0.3 * self.cost[i] + self.crowded

    def best(self, legal: MainActions, threshold: float) -> int | None:
        """The index in ``legal`` of the first action scoring most, above ``threshold`` (the
        turn-ending actions are not scored): :meth:`score` of each, the same sums in the same
        order, without building the actions."""
        best, best_score = None, threshold
        k = 0
        threats, tiles, p = self.threats, self.tiles, self.p
        ctrl, atk, occ, adj = self.ctrl, self.atk, self.occ, self.adj
        names, summon_tiles, assists, movers, attack_specs = legal.makings()
        if names:
            places = []  # each tile's threat and whether it borders a tile not the player's
            for q in summon_tiles:
                on_q = threats.get(q)
                if on_q is None:
                    on_q = threats[q] = _threat(q, p, ctrl, atk, occ, adj)
                next_to_enemy = False
                for d in adj[q]:
                    if tiles[d] != p:
                        next_to_enemy = True
                        break
                places.append((q, on_q, next_to_enemy))
            defence, reaches, card_worth, fixed = self.defence, self.reach, self.card_worth, self.fixed
            attack_printed, cost = self.attack_printed, self.cost
            first = self.first
            if first is None:
                first = self._read_hand()
            crowded = self.crowded
            for name in names:
                i = first[name]  # _summoned(name), without its call
                value = attack_printed[i] + defence[i]
                base = 1.0 + 0.5 * value + 0.3 * cost[i] + crowded
                low = defence[i]
                reach = reaches[i]
                worth = 0.0
                if reach == 1:  # worth(i, -1), without its call for a fixed worth
                    worth = fixed[i]  # type: ignore[assignment]
                    if worth is None:
                        worth = self.worth(i, -1)
                for q, on_q, next_to_enemy in places:
                    score = base
                    if on_q >= low:
                        score -= 0.6 * value
                    if next_to_enemy:
                        score += 0.3
                    s = score + (card_worth(i, q) if reach == 2 else worth)
                    if s > best_score:
                        best, best_score = k, s
                    k += 1
        if assists:
            # play()'s score: the first of each name in the hand, worth(i, -1) without its call when
            # the card has a worth for any position (none, or fixed).
            first = self.first
            if first is None:
                first = self._read_hand()
            cost, reaches, fixed, crowded = self.cost, self.reach, self.fixed, self.crowded
            for name in assists:
                i = first[name]
                if not reaches[i]:
                    w = 0.0
                else:
                    w = fixed[i]  # type: ignore[assignment]
                    if w is None:
                        w = self.worth(i, -1)
                s = w - 0.3 * cost[i] + crowded
                if s > best_score:
                    best, best_score = k, s
                k += 1
        if movers:
            atk_bonus, def_, def_bonus, bonus, pos = self.atk_bonus, self.def_, self.def_bonus, self.bonus, self.pos
            for i, dests in movers:  # (legal.moves_by_monster(), without copying its list)
                v = atk[i] + atk_bonus[i] + def_[i] + def_bonus[i] + bonus[i]
                # The most a move of it can score (3.0, 3.0 - 0.8 * v or 0.4 * v): when that does not
                # beat the best so far, none of its moves is the first best, and none is scored.
                if v < 0:
                    top = 3.0 - 0.8 * v
                else:
                    top = 0.4 * v
                    if top < 3.0:
                        top = 3.0
                if top <= best_score:
                    k += len(dests)
                    continue
                dval = def_[i] + def_bonus[i]
                here = None  # under threat where it stands: worked out when a move needs it
                for d in dests:
                    # move()'s score; a threat is worked out only where the score depends on it.
                    if tiles[d] != p:
                        on_d = threats.get(d)
                        if on_d is None:
                            on_d = threats[d] = _threat(d, p, ctrl, atk, occ, adj)
                        s = 3.0 - (0.8 * v if on_d >= dval else 0.0)
                    else:
                        if here is None:
                            q = pos[i]
                            at_q = threats.get(q)
                            if at_q is None:
                                at_q = threats[q] = _threat(q, p, ctrl, atk, occ, adj)
                            here = at_q >= dval
                        if here:
                            on_d = threats.get(d)
                            if on_d is None:
                                on_d = threats[d] = _threat(d, p, ctrl, atk, occ, adj)
                            s = 0.4 * v if on_d < dval else -0.2
                        else:
                            s = -0.2
                    if s > best_score:
                        best, best_score = k, s
                    k += 1
        attack = self.attack
        for spec in attack_specs:
            s = attack(spec[0], spec[1:])
            if s > best_score:
                best, best_score = k, s
            k += 1
        return best


def choose_target(state: MeaState, legal: Sequence[Choose], p: int) -> Choose:
    """The heuristic's choice of a target for the ability (or displacement) pending."""
    ab, source = state.pending()
    owners, occ, adj, ctrl, pos, atk, defence, atk_bonus, def_bonus = state.board_view()
    bonus = _profile(state.tables).bonus

    def value(i: int) -> float:
        """:func:`monster_value` (the same sum: attack and defence, then the bonus)."""
        return atk[i] + atk_bonus[i] + defence[i] + def_bonus[i] + bonus[i]

    if ab is None:  # where a displaced monster goes, or which of two moves to the one tile with room
        if type(legal[0][1]) is not int:  # which: the more valuable stays on the board
            return max(legal, key=lambda a: value(cast("int", state.resolve_ref(a[1]))))
        return min(legal, key=lambda a: _threat(a[1], p, ctrl, atk, occ, adj) - state.defence_of(source))
    e = ab.effect
    if ab.target in ("friendly_monster", "enemy_monster", "any_monster"):
        # The monsters chosen among, in the actions' order: the list's own when it is the engine's
        # (without building the actions and reading their references back).
        if type(legal) is ChoiceActions:
            chosen = [t[0] for t in legal.options]
        else:
            chosen = [cast("int", state.resolve_ref(a[1])) for a in legal]
        if ab.target == "friendly_monster":
            if e in ("gain_attack", "extra_action", "extra_attack"):

                def useful(i: int) -> float:
                    near = _threat(pos[i], 1 - p, ctrl, atk, occ, adj) > 0  # enemies adjacent
                    return state.attack_of(i) + (5 if state.can_attack(i) and near else 0)

                return legal[_first_best(chosen, useful, max)]
            if e == "gain_defence":
                return legal[_first_best(chosen, value, max)]
            return legal[_first_best(chosen, value, min)]
        return legal[_first_best(chosen, lambda i: value(i) * (1 if ctrl[i] != p else -1), max)]
    if e == "obliterate_tile":

        def loss(a: Choose) -> float:
            return sum(value(j) * (1 if ctrl[j] != p else -1) for j in occ[a[1]])

        return max(legal, key=loss)
    if e == "add_tile":
        owner = p if ab.target == "you" else 1 - p
        dirs = state.tables.dirs
        places = legal.options if type(legal) is ChoiceActions else [a[1] for a in legal]
        # The first place with the most of owner's tiles next to it (the fewest, for the opponent's).
        best, most = 0, None
        for k, q in enumerate(places):
            n = 0
            for d in dirs:
                if owners.get(q + d) == owner:
                    n += 1
            if owner != p:
                n = -n
            if most is None or n > most:
                best, most = k, n
        return legal[best]
    return legal[0]


def _first_best(items: Sequence[int], key: Callable[[int], float], pick: Callable[..., Any]) -> int:
    """The index of the first of ``items`` whose ``key`` is the ``pick`` (``max`` or ``min``), as
    ``pick(items, key=key)`` finds it."""
    keys = [key(i) for i in items]
    return cast("int", pick(range(len(keys)), key=keys.__getitem__))


def chosen_draw(draws: Sequence[Any], hand: int, target_hand: int) -> Any:
    """The heuristic's draw among ``draws`` (``draw 1`` … ``draw k`` in order) for a hand of ``hand``
    cards: up to ``target_hand`` cards, at least 1, never reaching the hand limit."""
    want = max(1, target_hand - hand)
    best = draws[0]
    for a in draws:
        if a[1] <= want and hand + a[1] < HAND_LIMIT:
            best = a
    return best


def end_turn_action(state: MeaState, legal: Sequence[Any], p: int, target_hand: int) -> Any:
    """How the heuristic ends its turn: draw up to ``target_hand`` cards (at least 1, never
    reaching 11), or obliterate its least valuable tile when its deck is empty."""
    draws = [a for a in legal if isinstance(a, Draw)]
    if draws:
        return chosen_draw(draws, state.hand_size(p), target_hand)
    obl = [a for a in legal if isinstance(a, Obliterate)]
    _, occ, _, ctrl, *_ = state.board_view()

    def cost(a: Obliterate) -> float:
        q = a[1]
        if q < 0:
            return 0.0
        return sum(monster_value(state, j) * (1 if ctrl[j] == p else -1) for j in occ[q])

    return min(obl, key=cost)


def heuristic_action(state: MeaState, legal: Sequence[Any], opening: int, target_hand: int) -> Any:
    """The heuristic's action for the current player of a full ``state``."""
    p = state.current_player
    if type(legal) is MainActions:  # the main phase's own listing (the common case)
        # (A single legal action, a turn-ending one, is the one chosen below: no other to score.)
        k = _Scores(state, p).best(legal, ACT_THRESHOLD)
        if k is not None:
            return legal[k]
        ends = legal.ends  # (draw 1 … draw k in order, or obliterations: see MainActions)
        if type(ends[0]) is Draw:  # end_turn_action's draw, without sorting the draws out first
            return chosen_draw(ends, state.hand_size(p), target_hand)
        return end_turn_action(state, ends, p, target_hand)
    if len(legal) == 1:
        return legal[0]
    phase = state.phase
    if phase == "opening":
        want = min(opening, len(legal))
        return legal[want - 1]
    if phase == "flip":
        return legal[0]
    if phase == "choice":
        return choose_target(state, legal, p)
    scores = _Scores(state, p)
    best, best_score = None, ACT_THRESHOLD
    for a in legal:
        kind = a[0]
        if kind in ("draw", "obliterate"):
            continue
        s = scores.score(a)
        if s > best_score:
            best, best_score = a, s
    if best is not None:
        return best
    return end_turn_action(state, legal, p, target_hand)


def ranked_actions(state: MeaState, legal: Sequence[Any], p: int, target_hand: int) -> list[Any]:
    """Main-phase actions best first by the heuristic's score, with its turn-ending action."""
    scores = _Scores(state, p)
    scored = [(scores.score(a), k, a) for k, a in enumerate(legal) if a[0] not in ("draw", "obliterate")]
    scored.sort(key=lambda t: (-t[0], t[1]))
    out = [a for _, _, a in scored]
    end = end_turn_action(state, legal, p, target_hand)
    out.insert(min(len(out), sum(1 for s, _, _ in scored if s > ACT_THRESHOLD)), end)
    return out


def choose_opening(rules: MeaRules, seat: int) -> int:
    """The heuristic's opening draw size for its deck: enough cards to spend the first
    turns' mana (cheaper decks want more cards), between 3 and 7."""
    deck = rules.decks[seat]
    costs = [c.cost or 0 for c, n in deck.cards for _ in range(n)]
    mean = sum(costs) / len(costs) if costs else 3.0
    return max(3, min(7, round(DEFAULT_OPENING + (3.0 - mean))))


def opening_size(rules: MeaRules, seat: int, opening: int | str | None, rng: random.Random) -> int:
    """An agent's opening draw size: ``opening`` itself, one drawn from a range ``"3-7"``
    (to measure each size's win rate), or, by default, :func:`choose_opening`'s."""
    if opening is None:
        return choose_opening(rules, seat)
    if isinstance(opening, int):
        if not 1 <= opening <= HAND_LIMIT - 1:
            raise ValueError(f"opening is 1 to {counted(HAND_LIMIT - 1, 'card')}, not {opening}")
        return opening
    low, dash, high = str(opening).partition("-")
    least, most = whole_number(low, HAND_LIMIT - 1), whole_number(high, HAND_LIMIT - 1)
    if not dash or not least or most is None or not least <= most:
        raise ValueError(f"opening is a number or a range like 3-7 (1 to {HAND_LIMIT - 1}), not {quoted(opening)}")
    return rng.randint(least, most)


class HeuristicAgent:
    """Scores each action by rules of thumb (tile control, safe attacks, summons worth
    their mana, assists that hit something) and ends its turn drawing up to 5 cards.
    ``opening``: its opening draw size, or a range to draw it from (default: from its
    deck's mana curve)."""

    name = "heuristic"

    def __repr__(self) -> str:
        return agent_repr(self)

    def __init__(
        self,
        rules: MeaRules,
        seat: int,
        seed: int | None = None,
        opening: int | str | None = None,
        target_hand: int = TARGET_HAND,
    ):
        self.rules = rules
        self.seat = seat
        self._seed = seed
        self._rng: random.Random | None = None
        # (opening_size's own choice for None, without the RNG it does not draw from)
        self.opening = choose_opening(rules, seat) if opening is None else opening_size(rules, seat, opening, self.rng)
        self.target_hand = target_hand

    @property
    def rng(self) -> random.Random:
        """The agent's RNG, seeded with its seed, made when first read (only an opening drawn from a
        range reads it: an agent is made for every game)."""
        rng = self._rng
        if rng is None:
            rng = self._rng = random.Random(self._seed)
        return rng

    def act_on_state(self, state: MeaState, legal_actions: Sequence[Any]) -> Any:
        """:meth:`act` on the observed state itself (a game's runner calls it, with no observation
        made): the same reads as ``act``'s of :meth:`MeaObservation.unchanged_state`, the same action."""
        return heuristic_action(state, legal_actions, self.opening, self.target_hand)

    def act(self, observation: MeaObservation, legal_actions: Sequence[Any]) -> Any:
        # (A single legal action is taken without reading the state: see heuristic_action.)
        # Its rules of thumb read the board, its own hand and how many cards each hand and deck
        # holds, never which cards are hidden: the view serves, with no world dealt for it, and so
        # does the observed state while unchanged (the same reads, without the view's copy).
        check_act(self, observation, legal_actions)
        state = observation.unchanged_state()
        return heuristic_action(
            observation.view if state is None else state, legal_actions, self.opening, self.target_hand
        )


# --- search ------------------------------------------------------------------------


def rollout(state: MeaState, me: int, openings: tuple[int, int], target_hand: int, max_decisions: int = 400) -> None:
    """Play on with the heuristic for both seats until the end of ``me``'s opponent's
    next turn (when ``me`` is to start a turn again), or the game's end."""
    start_turns = state.turns_taken[1 - me]
    for _ in range(max_decisions):
        p = state.current_player
        if p == TERMINAL:
            return
        # (In the flip and main phases the current player is the active one.)
        if p == me and state.turns_taken[1 - me] > start_turns and state.phase in ("flip", "main"):
            return
        legal = state.legal_actions()
        state.apply_unchecked(heuristic_action(state, legal, openings[p], target_hand))


def searched_actions(state: MeaState, legal: Sequence[Any], p: int, count: int, target_hand: int) -> list[Any]:
    """The search agents' candidates at ``p``'s decision: in the main phase the heuristic's
    ``count`` best actions (and one more) and its turn-ending one; otherwise the first 8 (or
    ``count + 1``) legal actions."""
    if state.phase != "main":
        return [legal[k] for k in range(min(len(legal), max(count + 1, 8)))]
    out = ranked_actions(state, legal, p, target_hand)[: count + 1]
    end = end_turn_action(state, legal, p, target_hand)
    if end not in out:
        out.append(end)
    return out


class SearchAgent(MonteCarloAgent):
    """Determinised Monte Carlo search (:mod:`cardbase.games.montecarlo`): deals the unseen cards
    at random ``samples`` times; in each deal tries the heuristic's ``candidates`` best actions
    (and its turn-ending one), plays on with the heuristic for both seats to the end of the
    opponent's next turn, and picks the action with the best mean evaluation."""

    def __init__(
        self,
        rules: MeaRules,
        seat: int,
        seed: int | None = None,
        samples: int = 6,
        candidates: int = 5,
        target_hand: int = TARGET_HAND,
        opening: int | str | None = None,
    ):
        check_at_least_one(samples=samples, candidates=candidates)
        super().__init__(rules, seat, seed, samples)
        self.candidates_searched = candidates
        self.target_hand = target_hand
        openings = [choose_opening(rules, 0), choose_opening(rules, 1)]
        openings[seat] = opening_size(rules, seat, opening, self.rng)
        self.openings = (openings[0], openings[1])

    def candidates(
        self, observation: MeaObservation, legal_actions: Sequence[Any], first_deal: Callable[[], Any]
    ) -> Sequence[Any]:
        """One option, or the opening's size: not searched. In the main phase the heuristic's
        ``candidates`` best actions and its turn-ending one, ranked on the first deal; otherwise the
        first 8 (or ``candidates + 1``) legal actions."""
        legal = list(legal_actions)
        if len(legal) == 1:
            return legal
        me = observation.player
        if observation.view.phase == "opening":
            return [legal[min(self.openings[me], len(legal)) - 1]]
        return searched_actions(first_deal(), legal, me, self.candidates_searched, self.target_hand)

    def deal(self, observation: MeaObservation) -> MeaState:
        return observation.view.determinise(observation.player, self.rng)

    def copy(self, world: MeaState) -> MeaState:
        return world.search_copy()

    def rollout(self, state: State) -> None:
        rollout(cast(MeaState, state), self.seat, self.openings, self.target_hand)

    def value(self, state: State) -> float:
        return evaluate(cast(MeaState, state), self.seat)


# --- information-set Monte Carlo tree search -------------------------------------------

REWARD_SCALE = 10.0
"""How many points of :func:`evaluate` move the reward by about a quarter (a logistic)."""


class IsmctsAgent(BaseIsmcts):
    """SO-ISMCTS (:mod:`cardbase.games.ismcts`) to the end of the opponent's next turn:
    determinised by :meth:`MeaState.determinise` (the search agent's) with the cards it
    saw go back to the other hand kept there (:meth:`remember`), each main-phase
    decision searches the heuristic's ``candidates`` best actions and its turn-ending one
    (other decisions their first 8), rollouts play on with the heuristic for both seats,
    and the cut-off position is scored by :func:`evaluate` squashed into [0, 1]. The
    opening draw is the heuristic's (or ``opening``), as for the search agent. The other
    seat plays the heuristic in the tree too (``opponents=tree``: its candidates are
    searched like this seat's). ``horizon=turn`` stops the tree at the end of this seat's
    turn instead (``reply``: at the start of its next one). The tree is kept between the
    decisions of one turn (:meth:`follows`). A node of this seat's turn with nothing drawn
    since the root keeps its candidates (:meth:`settled`; ``cache=off``: ranked on every
    deal). ``screen=m`` (with ``root=halving``) first looks at the root's actions at the end
    of this seat's turn (:meth:`cut_off_screen`) and halves the ``m`` best to the ``horizon``;
    ``expand=ordered`` grows a node's children in the heuristic's order."""

    def __init__(
        self,
        rules: MeaRules,
        seat: int,
        seed: int | None = None,
        iters: int | None = None,
        ms: int | None = None,
        c: float | str = DEFAULT_EXPLORATION,
        opponents: str = "heuristic",
        candidates: int = 5,
        target_hand: int = TARGET_HAND,
        opening: int | str | None = None,
        horizon: str = "reply",
        loop: str = "closed",
        per_deal: int = 1,
        root: str = "ucb",
        expand: str = "random",
        cache: str = "on",
        screen: int = 0,
        screen_deals: int = 2,
    ):
        super().__init__(
            rules,
            seat,
            seed,
            iters,
            ms,
            c,
            loop=loop,
            per_deal=per_deal,
            root=root,
            expand=expand,
            screen=screen,
            screen_deals=screen_deals,
        )
        if cache not in ("on", "off"):
            raise ValueError(f"cache is on or off, not {quoted(cache)}")
        self.cache = cache == "on"
        self._root_decks = (0, 0)
        if not 1 <= candidates <= 100:
            raise ValueError(f"candidates is 1 to 100, not {candidates}")
        if opponents not in ("heuristic", "tree"):
            raise ValueError(f"opponents is heuristic or tree, not {quoted(opponents)}")
        if horizon not in ("turn", "reply"):
            raise ValueError(f"horizon is turn or reply, not {quoted(horizon)}")
        self.opponents = opponents
        self.horizon = horizon
        self._known: set[int] = set()
        self._on_board: set[int] = set()
        self.candidates_searched = candidates
        self.target_hand = target_hand
        openings = [choose_opening(rules, 0), choose_opening(rules, 1)]
        openings[seat] = opening_size(rules, seat, opening, self.rng)
        self.openings = (openings[0], openings[1])
        self._start_turns = 0

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        check_act(self, observation, legal_actions)
        self.remember(observation)
        return super().act(observation, legal_actions)

    def remember(self, observation: MeaObservation) -> None:
        """Keep track of the other seat's cards this seat saw go back to their hand: a card
        of theirs seen on the board and hidden now was returned to it (nothing else takes a
        card from the board out of sight); it is known to be there until it shows again."""
        view = observation.view
        zone = view.zones
        owner = view.tables.owner
        opp = 1 - observation.player
        self._known = {i for i in self._known | self._on_board if zone[i] == UNKNOWN}
        self._on_board = {i for i, z in enumerate(zone) if z == BOARD and owner[i] == opp}

    def shortcut(self, observation: Any, legal_actions: Sequence[Any]) -> Any | None:
        obs: MeaObservation = observation
        if obs.view.phase == "opening":
            return legal_actions[min(self.openings[obs.player], len(legal_actions)) - 1]
        return None

    def start(self, observation: Any) -> None:
        obs: MeaObservation = observation
        view = obs.view
        self._start_turns = view.turns_taken[1 - obs.player]
        self._root_decks = (view.deck_size(0), view.deck_size(1))

    def settled(self, state: State) -> bool:
        """This seat's turn still, with no card drawn from either deck since the root: a Méa
        action is deterministic once dealt, and what the heuristic ranks (the board, this
        seat's hand, mana) is then the same on every deal (``cache=off``: never)."""
        s = cast(MeaState, state)
        me = self.seat
        return (
            self.cache
            and s.active == me
            and s.turns_taken[1 - me] == self._start_turns
            and s.deck_size(0) == self._root_decks[0]
            and s.deck_size(1) == self._root_decks[1]
        )

    def follows(self, previous: Any, action: Any, observation: Any) -> bool:
        """The same turn of this seat, with no card drawn or gone out of sight between (a
        Méa action is otherwise deterministic: the only chance is the first shuffle)."""
        a, b = cast(MeaObservation, previous).view, cast(MeaObservation, observation).view
        me = cast(MeaObservation, observation).player
        return (
            a.turn == b.turn
            and a.active == me == b.active
            and a.zones.count(UNKNOWN) == b.zones.count(UNKNOWN)
            and a.hand_size(1 - me) == b.hand_size(1 - me)
        )

    def determinise(self, observation: Any, rng: random.Random) -> MeaState:
        """The search agent's deal (:meth:`MeaState.determinise`), then every card known to
        be in the other hand (:meth:`remember`) swapped into it for an unknown one."""
        obs: MeaObservation = observation
        return obs.view.determinise(obs.player, rng, self._known)

    def candidates(self, state: State) -> Sequence[Any]:
        s = cast(MeaState, state)
        legal = s.legal_actions()
        if len(legal) == 1:
            return legal
        p = s.current_player
        phase = s.phase
        if phase == "opening" or (p != self.seat and self.opponents == "heuristic"):
            return (heuristic_action(s, legal, self.openings[p], self.target_hand),)
        return searched_actions(s, legal, p, self.candidates_searched, self.target_hand)

    def cut_off(self, state: State) -> bool:
        if self.horizon == "turn":
            return self.cut_off_screen(state)
        s = cast(MeaState, state)
        me = self.seat
        # (In the flip and main phases the current player is the active one.)
        return s.current_player == me and s.turns_taken[1 - me] > self._start_turns and s.phase in ("flip", "main")

    def cut_off_screen(self, state: State) -> bool:
        """The end of this seat's turn (the other's has begun): ``horizon=turn``'s cut-off, and
        where ``screen`` looks at the root's actions."""
        s = cast(MeaState, state)
        me = self.seat
        return s.active != me and s.turns_taken[1 - me] > self._start_turns

    def rollout(self, state: State) -> None:
        s = cast(MeaState, state)
        for _ in range(400):
            if s.current_player == TERMINAL or self.stops(s):
                return
            p = s.current_player
            s.apply_unchecked(heuristic_action(s, s.legal_actions(), self.openings[p], self.target_hand))

    def rewards(self, state: State) -> Sequence[float]:
        v = evaluate(cast(MeaState, state), 0) / REWARD_SCALE
        r0 = 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, v))))
        return (r0, 1.0 - r0)
