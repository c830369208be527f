"""Meikyu agents: a heuristic (quest odds from the die, when to develop, when to attack,
what to keep) and a determinised Monte Carlo search over hidden hands and dice.

Both follow :class:`cardbase.games.base.Agent`: ``act(observation, legal_actions)``. The
random agent is game-agnostic and lives in :mod:`cardbase.sim.agents`. Pure.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, cast

from cardbase.errors import quoted
from cardbase.games.base import State, agent_repr, check_act, check_at_least_one
from cardbase.games.ismcts import DEFAULT_EXPLORATION
from cardbase.games.ismcts import IsmctsAgent as BaseIsmcts
from cardbase.games.meikyu.actions import (
    AMULET,
    COUNCIL,
    DRAW,
    MAP,
    PASS,
    RESUPPLY,
    TOMB,
    Attack,
    Defend,
    Develop,
    MixedArea,
    Quest,
)
from cardbase.games.meikyu.codes import (
    A_AMULET,
    A_CASINO,
    A_DEFEND,
    A_GIVE,
    A_HANDLIMIT,
    A_HOSPITAL,
    A_HOT,
    A_KEEP,
    A_LANDCAP,
    A_MAIN,
    A_MIXED,
    A_ORDER,
    A_REFUGEE,
    A_TOMB,
    A_TSUNAMI,
    B_ARCHIVES,
    B_BAR,
    B_CASINO,
    B_CASTLE,
    B_COUNCIL,
    B_FARM,
    B_FORTRESS,
    B_HAREM,
    B_HOSPITAL,
    B_LAB,
    B_MARKET,
    B_MIXED,
    B_SMITH,
    B_TOMB,
    CHAR,
    X_AMULET,
    X_GOTCHA,
    X_GRIMOIRE,
    X_MAP,
    X_SWORD,
)
from cardbase.games.meikyu.engine import MeikyuState
from cardbase.games.meikyu.observation import MeikyuObservation
from cardbase.games.meikyu.odds import at_least_float, attack_chance_float
from cardbase.games.meikyu.rules import MeikyuRules
from cardbase.games.meikyu.tables import MeikyuTables, make_room, sword_total
from cardbase.games.montecarlo import MonteCarloAgent

EFFECT_VALUE = {
    B_MARKET: 0.2,
    B_COUNCIL: 0.4,
    B_CASINO: 0.3,
    B_SMITH: 0.4,
    B_BAR: 0.3,
    B_MIXED: 0.3,
    B_HOSPITAL: 0.3,
    B_FARM: 0.7,
    B_LAB: 0.4,
    B_HAREM: 0.4,
    B_FORTRESS: 0.6,
    B_TOMB: 0.3,
    B_ARCHIVES: 0.6,
    B_CASTLE: 0.8,
}
CARD_COST = 0.3
"""How much a card spent is worth against a point (cards are spent win or lose)."""
WIN_BONUS = 6.0


def card_value(t: MeikyuTables, k: int, eff: int = 0, deff: int = 0) -> float:
    """How useful a Kingdom card is to keep."""
    if t.ktype[k] == CHAR:
        b = t.brav[k]
        if b == 0 and deff & B_BAR:
            b = 1
        return b + 0.5 * t.wits[k] + 0.3
    e = t.keff[k]
    if e == X_SWORD:
        return 1.4 + (1.0 if eff & B_SMITH else 0.0)
    if e == X_GRIMOIRE:
        return 0.9
    if e == X_AMULET:
        return 1.0
    if e == X_MAP:
        return 1.1
    if e == X_GOTCHA:
        return 1.3
    return 0.4 + (1.6 if eff & B_LAB else 0.0)


def land_value(t: MeikyuTables, land: int, developed: bool = False) -> float:
    """How much a land is worth to its owner: its points and its effect."""
    pts = t.dev_points[land] if developed else t.points[land]
    bonus = sum(v for bit, v in EFFECT_VALUE.items() if t.lbit[land] & bit)
    if not developed:
        bonus += 0.3 * (t.dev_points[land] - t.points[land])
    return pts + bonus


def _kinds(hand: Sequence[int]) -> list[int]:
    out: list[int] = []
    for k, c in enumerate(hand):
        if c:
            out.extend([k] * c)
    return out


_PLAN_BITS = B_LAB | B_SMITH | B_FORTRESS
PLAN_LIMIT = 50_000
"""Entries each of the planner's memos on the tables holds at most (see ``make_room``)."""


def _cache(t: MeikyuTables, name: str) -> dict[Any, Any]:
    """A memo kept on the pool's tables (so it lives as long as they do)."""
    caches: dict[str, dict[Any, Any]] = t.__dict__.setdefault("agent_caches", {})
    return caches.setdefault(name, {})


class _Planner:
    """Builds the heuristic's card sets for one seat: greedy by swords, then by seals."""

    def __init__(self, t: MeikyuTables, hand: Sequence[int], eff: int, deff: int):
        self.t = t
        self.hand = list(hand)
        self.eff = eff
        self.deff = deff

    def sword_plans(self, quest: bool) -> list[tuple[int, list[int], int, float]]:
        """Growing card sets for a quest or an aggression: (swords, kinds, lab kind, cost)."""
        cache = _cache(self.t, "sword_plans")
        key = (*self.hand, self.eff & _PLAN_BITS, self.deff & B_BAR, quest)
        hit = cache.get(key)
        if hit is None:
            make_room(cache, PLAN_LIMIT)
            hit = cache[key] = self._sword_plans(quest)
        return hit

    def _sword_plans(self, quest: bool) -> list[tuple[int, list[int], int, float]]:
        t = self.t
        hand = self.hand
        eff, deff = self.eff, self.deff
        bar = deff & B_BAR
        chars = [k for k in _kinds(hand) if t.ktype[k] == CHAR]
        chars.sort(key=lambda k: (-(1 if t.brav[k] == 0 and bar else t.brav[k]), t.wits[k]))
        swords = [k for k in _kinds(hand) if t.keff[k] == X_SWORD]
        grims = [k for k in _kinds(hand) if t.keff[k] == X_GRIMOIRE]
        items = sorted((k for k in _kinds(hand) if t.ktype[k] == 1), key=lambda k: card_value(t, k, eff, deff))
        labk = -1
        if eff & B_LAB and items and not chars:
            labk = items[0]
            for group in (swords, grims):
                if labk in group:
                    group.remove(labk)
        plans: list[tuple[int, list[int], int, float]] = []
        used: list[int] = []
        pool = list(chars)
        if labk >= 0:
            plans.append((sword_total(t, [], labk, eff, deff, quest), [], labk, card_value(t, labk, eff, deff)))
        # add cards one by one, the best marginal swords per value first
        extra = swords + grims
        while pool or extra:
            best = None
            base = sword_total(t, used, labk, eff, deff, quest)
            for k in dict.fromkeys(pool + extra):
                trial = [*used, k]
                if t.keff[k] == X_GRIMOIRE and sum(1 for x in trial if t.keff[x] == X_GRIMOIRE) > sum(
                    1 for x in trial if t.ktype[x] == CHAR
                ) + (labk >= 0):
                    continue
                if (
                    t.one_sword
                    and t.keff[k] == X_SWORD
                    and sum(1 for x in trial if t.keff[x] == X_SWORD)
                    > sum(1 for x in trial if t.ktype[x] == CHAR) + (labk >= 0)
                ):
                    continue
                if t.ktype[k] != CHAR and not any(t.ktype[x] == CHAR for x in used) and labk < 0:
                    continue
                gain = sword_total(t, trial, labk, eff, deff, quest) - base
                score = gain / (card_value(t, k, eff, deff) + 0.2)
                if best is None or score > best[0]:
                    best = (score, k, gain)
            if best is None or best[2] <= 0:
                break
            k = best[1]
            used.append(k)
            if k in pool:
                pool.remove(k)
            else:
                extra.remove(k)
            cost = sum(card_value(t, x, eff, deff) for x in used) + (card_value(t, labk, eff, deff) if labk >= 0 else 0)
            plans.append((sword_total(t, used, labk, eff, deff, quest), list(used), labk, cost))
        return plans

    def wits_plan(self, need: int) -> list[int] | None:
        """The characters whose seals reach ``need``, spending as little as possible."""
        cache = _cache(self.t, "wits_plan")
        key = (*self.hand, need)
        if key not in cache:
            make_room(cache, PLAN_LIMIT)
            cache[key] = self._wits_plan(need)
        return cast("list[int] | None", cache[key])

    def _wits_plan(self, need: int) -> list[int] | None:
        t = self.t
        chars = [k for k in _kinds(self.hand) if t.ktype[k] == CHAR]
        chars.sort(key=lambda k: (-t.wits[k], t.brav[k]))
        used: list[int] = []
        total = 0
        for k in chars:
            if total >= need:
                break
            if t.wits[k] <= 0:
                continue
            used.append(k)
            total += t.wits[k]
        if total < need or not used:
            return None
        for k in sorted(used, key=lambda k: (t.wits[k], -t.brav[k])):
            if total - t.wits[k] >= need:
                used.remove(k)
                total -= t.wits[k]
        return used


def _names(t: MeikyuTables, kinds: Sequence[int]) -> tuple[str, ...]:
    return tuple(t.knames[k] for k in sorted(kinds, key=t.rank.__getitem__))


def main_options(obs: MeikyuObservation, limit: int | None = None) -> list[tuple[float, Any]]:
    """The heuristic's scored step-2 options, best first: (score, action); only the best
    ``limit`` are built when given."""
    rules = obs.rules
    t = rules.tables
    me = obs.player
    n = rules.players
    hand = obs.hand
    eff, deff = obs.effects(me)
    goal = rules.goal
    mine = obs.points[me]
    others = [obs.points[q] for q in range(n) if q != me]
    leader = max(others) if others else 0
    plan = _Planner(t, hand, eff, deff)
    values = _land_values(t)
    raw: list[tuple[float, int, tuple[Any, ...]]] = []  # (score, kind, args)
    size = sum(hand)
    raw.append((0.55 if size <= 3 else 0.25 if size <= 4 else 0.05, 0, (RESUPPLY,)))
    # Quests
    qplans = plan.sword_plans(True)
    best_quest = 0.0
    for room in dict.fromkeys(obs.rooms):
        level = t.level[room] - (2 if room in obs.mapped and obs.turn_player == me else 0)
        value = values[room]
        if mine + t.points[room] >= goal:
            value += WIN_BONUS
        for i, (swords, _, _, cost) in enumerate(qplans):
            p = at_least_float(level - swords)
            if p > 0:
                best_quest = max(best_quest, p)
                raw.append((p * value - CARD_COST * cost, 1, (room, i)))
    # Map: a fifth room at level - 2 this turn
    if obs.mpile_size and best_quest < 0.7 and qplans and any(hand[m] for m in t.maps):
        raw.append((0.7, 0, (MAP,)))
    # Development
    harem = 1 if deff & B_HAREM else 0
    for e in dict.fromkeys(obs.lands[me]):
        if e & 1:
            continue
        land = e >> 1
        used = plan.wits_plan(t.level[land] - harem)
        if used is None:
            continue
        gain = t.dev_points[land] - t.points[land] + (0.8 if t.lbit[land] & B_MARKET else 0)
        if mine + t.dev_points[land] - t.points[land] >= goal:
            gain += WIN_BONUS
        cost = sum(card_value(t, k, eff, deff) for k in used)
        raw.append((gain + 0.3 - CARD_COST * 0.8 * cost, 2, (land, used)))
    # Aggression
    ways = [t.knames[k] for k in t.aggression if hand[k]]
    if eff & B_COUNCIL:
        ways.append(COUNCIL)
    aplans = plan.sword_plans(False) if ways else []
    if ways and aplans:
        way = ways[0]
        way_cost = 1.3 if way != COUNCIL else 1.4
        named = rules.aggression_target == "attacker"
        for q in range(n):
            if q == me:
                continue
            lands = [e for e in obs.lands[q] if not t.lbit[e >> 1] & B_CASTLE]
            if not lands:
                continue
            defence_guess = min(obs.hand_sizes[q], 3) * 0.9
            threat = 1.0 + (0.6 if obs.points[q] >= leader and obs.points[q] >= mine else 0.0)
            targets = list(dict.fromkeys(lands)) if named else [min(lands, key=lambda e: values[e >> 1])]
            for e in targets:
                land = e >> 1
                value = values[land] + threat * (t.dev_points[land] if e & 1 else t.points[land]) * 0.6
                if mine + t.points[land] >= goal:
                    value += WIN_BONUS
                for i, (swords, _, _, cost) in enumerate(aplans):
                    p = attack_chance_float(round(swords - defence_guess))
                    raw.append((p * value - CARD_COST * (cost + way_cost), 3, (q, land if named else -1, i, way)))
    # Mixed Area: stop a player about to win
    if eff & B_MIXED:
        for q in range(n):
            if q != me and obs.points[q] >= goal - 3 and obs.points[q] >= mine and not obs.skips[q]:
                raw.append((1.5 + obs.points[q] - goal, 0, (MixedArea(q),)))
    raw.sort(key=lambda o: -o[0])
    out: list[tuple[float, Any]] = []
    for score, kind, args in raw[:limit] if limit else raw:
        if kind == 0:
            action = args[0]
        elif kind == 1:
            room, i = args
            _, used, labk, _ = qplans[i]
            action = Quest(t.lnames[room], _names(t, used), t.knames[labk] if labk >= 0 else None)
        elif kind == 2:
            land, used = args
            action = Develop(t.lnames[land], _names(t, used))
        else:
            q, land, i, way = args
            _, used, labk, _ = aplans[i]
            action = Attack(
                q, t.lnames[land] if land >= 0 else None, _names(t, used), t.knames[labk] if labk >= 0 else None, way
            )
        out.append((score, action))
    return out


def main_candidates(obs: MeikyuObservation, count: int) -> list[Any]:
    """The search agents' step-2 candidates: the heuristic's ``count`` best options, its own
    choice first, and resupplying."""
    out: list[Any] = []
    for _, action in main_options(obs, count * 3):
        if action not in out:
            out.append(action)
        if len(out) >= count:
            break
    if RESUPPLY not in out:
        out.append(RESUPPLY)
    return out


def _land_values(t: MeikyuTables) -> tuple[float, ...]:
    cache = _cache(t, "land_values")
    if not cache:
        cache[0] = tuple(land_value(t, land) for land in range(t.L))
    return cast("tuple[float, ...]", cache[0])


def heuristic_action(obs: MeikyuObservation, legal: Sequence[Any]) -> Any:
    """The heuristic's choice at any decision."""
    ask = obs.ask
    t = obs.rules.tables
    me = obs.player
    eff, deff = obs.effects(me)
    if ask == A_MAIN:
        return main_options(obs, 1)[0][1]
    if ask == A_DEFEND:
        return _defend(obs)
    if ask == A_AMULET:
        return AMULET if len(legal) > 1 and _want_amulet(obs) else PASS
    if ask in (A_CASINO, A_HOT):
        return DRAW
    if ask == A_TOMB:
        top = obs.kdiscard[-1]
        return TOMB if card_value(t, top, eff, deff) >= 1.5 else DRAW
    if ask == A_KEEP:
        return max(legal, key=lambda a: card_value(t, t.kindex[a.name], eff, deff))
    if ask == A_HOSPITAL:
        returns = [a for a in legal if a is not PASS]
        return max(returns, key=lambda a: card_value(t, t.kindex[a.name], eff, deff)) if returns else PASS
    if ask == A_ORDER:
        # the most useful cards go down first; the least useful ends on top (for a Tomb)
        return max(legal, key=lambda a: card_value(t, t.kindex[a.name], eff, deff))
    if ask in (A_HANDLIMIT, A_REFUGEE):
        return min(legal, key=lambda a: card_value(t, t.kindex[a.name], eff, deff))
    if ask == A_MIXED:
        return PASS  # (mixed_area="any": the heuristic plays the Mixed Area before its action, if at all)
    if ask == A_TSUNAMI and PASS in legal:
        return PASS  # (tsunami_landless="may-pass": a land received may be kept)
    if ask in (A_LANDCAP, A_GIVE, A_TSUNAMI):
        dev = {e >> 1: bool(e & 1) for e in obs.lands[me]}
        return min(legal, key=lambda a: land_value(t, t.lindex[a.name], dev.get(t.lindex[a.name], False)))
    return legal[0]


def _defend(obs: MeikyuObservation) -> Defend:
    t = obs.rules.tables
    me = obs.player
    ctx = obs.ctx
    assert ctx is not None
    eff, deff = obs.effects(me)
    attack = ctx["swords"]
    if ctx["land"] >= 0:
        entry = next((e for e in obs.lands[me] if e >> 1 == ctx["land"]), ctx["land"] << 1)
        value = land_value(t, entry >> 1, bool(entry & 1)) + (
            t.dev_points[entry >> 1] if entry & 1 else t.points[entry >> 1]
        )
    else:
        stealable = [e for e in obs.lands[me] if not t.lbit[e >> 1] & B_CASTLE]
        value = min((land_value(t, e >> 1, bool(e & 1)) for e in stealable), default=0.0) * 1.5
    if obs.points[ctx["attacker"]] + 3 >= obs.rules.goal:
        value += 2.0
    best = (1 - attack_chance_float(attack)) * value, Defend()
    plans = _Planner(t, obs.hand, eff, deff).sword_plans(False)
    for swords, used, labk, cost in plans:
        hold = 1 - attack_chance_float(attack - swords)
        score = hold * value - CARD_COST * cost
        if score > best[0]:
            best = (score, Defend(_names(t, used), t.knames[labk] if labk >= 0 else None))
    return best[1]


def _want_amulet(obs: MeikyuObservation) -> bool:
    """Play an Amulet when rerolling the die just rolled turns the odds by a good margin."""
    ctx = obs.ctx
    if ctx is None:
        return False
    t = obs.rules.tables
    me = obs.player
    _, slot, _ = obs.args
    if ctx["kind"] == "quest":
        quester = ctx["player"]
        need = ctx["level"] - ctx["swords"]
        die = ctx["dice"][0]
        p_re = at_least_float(need)
        value = land_value(t, ctx["room"])
        if quester == me:
            return die < need and p_re >= 0.3 and value >= 1.0
        threat = obs.points[quester] + t.points[ctx["room"]] >= obs.rules.goal - 2
        return die >= need and threat and 1 - p_re >= 0.3
    if ctx["kind"] != "attack" or me not in (ctx["attacker"], ctx["defender"]):
        return False
    diff = ctx["swords"] - ctx["defence"]
    d1, d2 = ctx["dice"]

    def p_win(a: int, d: int | None) -> float:
        if d is None:
            return sum(1 for y in range(1, 7) if diff + a > y) / 6
        return 1.0 if diff + a > d else 0.0

    if slot == 0:
        now = p_win(d1, None)
        re = sum(p_win(x, None) for x in range(1, 7)) / 6
    else:
        now = p_win(d1, d2)
        re = sum(p_win(d1, y) for y in range(1, 7)) / 6
    gain = re - now if me == ctx["attacker"] else now - re
    return gain >= 0.3


class HeuristicAgent:
    """Quests the room with the best expected gain for the cards spent, develops when its
    seals reach the cost, attacks when the odds and the land are worth it, keeps the most
    useful cards, and plays Amulets when a reroll turns the odds."""

    name = "heuristic"

    def __repr__(self) -> str:
        return agent_repr(self)

    def __init__(self, rules: MeikyuRules, seat: int, seed: int | None = None):
        self.rules = rules
        self.seat = seat
        self.rng = random.Random(seed)

    def act(self, observation: MeikyuObservation, legal_actions: Sequence[Any]) -> Any:
        check_act(self, observation, legal_actions)
        return heuristic_action(observation, legal_actions)


# --- determinised search -----------------------------------------------------------------


def sample_hidden(
    obs: MeikyuObservation, rng: random.Random
) -> tuple[list[list[int]], list[int], list[int], list[int]]:
    """Hands, Kingdom pile, Meikyu pile and hidden Archives cards consistent with ``obs``:
    a card seen going back into a hand (the Hospital's return, ``obs.shown``) is dealt into
    it, and every card this player has not seen is placed at random, respecting the sizes."""
    rules = obs.rules
    t = rules.tables
    n = rules.players
    me = obs.player
    counts = [0] * t.K
    for k in t.kingdom_cards:
        counts[k] += 1
    for k, c in enumerate(obs.hand):
        counts[k] -= c
    for seen in (obs.kdiscard, obs.inplay, obs.archives or ()):
        for k in seen:
            counts[k] -= 1
    for refugees in obs.refugees:
        for k in refugees:
            counts[k] -= 1
    shown = obs.shown or tuple(() for _ in range(n))
    for s in range(n):
        if s != me:
            for k in shown[s]:
                counts[k] -= 1
    unseen = _kinds(counts)
    rng.shuffle(unseen)
    hands: list[list[int]] = []
    pos = 0
    for s in range(n):
        if s == me:
            hands.append(list(obs.hand))
            continue
        h = [0] * t.K
        for k in shown[s]:  # seen going back into that hand (the Hospital)
            h[k] += 1
        rest = obs.hand_sizes[s] - len(shown[s])
        for k in unseen[pos : pos + rest]:
            h[k] += 1
        pos += rest
        hands.append(h)
    archives = list(obs.archives) if obs.archives is not None else unseen[pos : pos + obs.archives_size]
    if obs.archives is None:
        pos += obs.archives_size
    kpile = unseen[pos:]
    lands = [0] * t.L
    for land in t.land_cards:
        lands[land] += 1
    for land in (*obs.rooms, *obs.mdiscard):
        lands[land] -= 1
    for kingdom in obs.lands:
        for e in kingdom:
            lands[e >> 1] -= 1
    mpile = _kinds(lands)
    return hands, kpile, mpile, archives


def rollout(state: MeikyuState, turns: int) -> None:
    """Play on with the heuristic for every seat, for ``turns`` more turns or to the end."""
    stop = state.turns + turns
    while state.current_player != -2 and state.turns < stop:
        p = state.current_player
        if p == -1:
            state.apply_unchecked(state.sample_chance())
        else:
            legal = () if state.ask == A_MAIN else state.legal_actions()
            state.apply_unchecked(heuristic_action(state.observation(p), legal))


FEATURES = (
    "bias",
    "points",
    "rival points",
    "hand value",
    "rival hand value",
    "hand size",
    "lands",
    "development gain",
    "near goal",
    "rival near goal",
    "turns to wait",
)


def features(state: MeikyuState, seat: int) -> list[float]:
    """What the value function reads for ``seat``: its points and cards against the best
    rival's (the rival with the most points), how near both are to the goal, and how long
    until its next turn."""
    t = state.rules.tables
    n = state.rules.players
    goal = state.rules.goal
    pts = [state.points(q) for q in range(n)]
    rival = max((q for q in range(n) if q != seat), key=lambda q: (pts[q], state.hand_size(q)))

    def hand_value(q: int) -> float:
        eff, deff = state.effects(q)
        return sum(card_value(t, k, eff, deff) * c for k, c in enumerate(state.hand_counts(q)) if c)

    gain = sum(t.dev_points[e >> 1] - t.points[e >> 1] for e in state.lands(seat) if not e & 1)
    wait = (seat - state.turn_player) % n
    return [
        1.0,
        pts[seat] / goal,
        pts[rival] / goal,
        hand_value(seat) / 10,
        hand_value(rival) / 10,
        state.hand_size(seat) / 5,
        len(state.lands(seat)) / 5,
        gain / 5,
        max(0, pts[seat] - (goal - 4)) / 4,
        max(0, pts[rival] - (goal - 4)) / 4,
        wait / n,
    ]


# Logistic-regression weights per player count, fitted on heuristic self-play with the default
# profile by benchmarks/fit_meikyu_value.py (which prints this table).
VALUE_WEIGHTS: dict[int, tuple[float, ...]] = {
    2: (0.039, 2.277, -2.848, 0.278, -0.554, 0.337, 0.695, -0.083, 0.672, -0.693, -0.599),
    3: (-0.613, 2.132, -2.317, 0.284, -0.508, 0.307, 0.52, 0.135, 0.909, -0.836, -0.456),
    4: (-1.046, 1.901, -2.076, 0.333, -0.56, 0.33, 0.898, -0.007, 0.867, -0.801, -0.427),
    5: (-1.362, 1.69, -1.96, 0.364, -0.59, 0.359, 0.838, 0.388, 0.991, -0.833, -0.418),
}


def value(state: MeikyuState, seat: int) -> float:
    """Estimated chance that ``seat`` wins from here (1 / 0 once the game is over)."""
    import math

    outcome = state.outcome()
    if outcome is not None:
        return 1.0 / len(outcome.winners) if seat in outcome.winners else 0.0
    weights = VALUE_WEIGHTS.get(state.rules.players)
    if weights is None:
        return potential_value(state, seat)
    z = sum(w * x for w, x in zip(weights, features(state, seat), strict=True))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def potential_value(state: MeikyuState, seat: int) -> float:
    """A fallback value: the squashed lead in points plus the cards' worth over the best rival."""
    import math

    t = state.rules.tables

    def potential(q: int) -> float:
        eff, deff = state.effects(q)
        cards = sum(card_value(t, k, eff, deff) * c for k, c in enumerate(state.hand_counts(q)) if c)
        return state.points(q) + CARD_COST * cards

    n = state.rules.players
    best = max(potential(q) for q in range(n) if q != seat)
    return 0.5 + 0.5 * math.tanh((potential(seat) - best) / 4.0)


class SearchAgent(MonteCarloAgent):
    """Determinised Monte Carlo (:mod:`cardbase.games.montecarlo`): for its step-2 action, samples
    the hidden cards (other hands, the piles) consistently with what it has seen, plays each of
    the heuristic's best candidates on with the heuristic for every seat and random dice for
    ``rounds`` rounds, scores the position reached with :func:`value` (a chance of winning fitted
    on heuristic self-play), and picks the best mean. The same hidden cards and dice seed serve
    every candidate of a sample. Other decisions are the heuristic's.

    ``samples``: determinisations per decision; ``candidates``: how many of the heuristic's
    best options are searched (resupply always is); ``prior``: the margin by which another
    candidate must beat the heuristic's own choice.
    """

    score_label = "estimated value (0 = lost, 1 = won)"

    def __init__(
        self,
        rules: MeikyuRules,
        seat: int,
        seed: int | None = None,
        samples: int = 32,
        candidates: int = 4,
        rounds: float = 2,
        prior: float = 0.01,
        confidence: float = 1.0,
    ):
        check_at_least_one(samples=samples, candidates=candidates)
        super().__init__(rules, seat, seed, samples)
        self.candidates_searched = candidates
        self.horizon = max(1, round(float(rounds) * rules.players))
        self.prior = float(prior)
        self.confidence = float(confidence)

    def candidates(
        self, observation: MeikyuObservation, legal_actions: Sequence[Any], first_deal: Callable[[], Any]
    ) -> Sequence[Any]:
        """At step 2 the heuristic's ``candidates`` best options (its choice first) and resupplying;
        any other decision: the heuristic's action, not searched."""
        if observation.ask != A_MAIN:
            return [heuristic_action(observation, legal_actions)]
        return main_candidates(observation, self.candidates_searched)

    def deal(self, observation: MeikyuObservation) -> tuple[MeikyuState, int]:
        """The hidden cards dealt, and the seed of the dice every candidate meets on them."""
        hands, kpile, mpile, archives = sample_hidden(observation, self.rng)
        return MeikyuState.from_parts(observation, hands, kpile, mpile, archives), self.rng.getrandbits(32)

    def copy(self, world: tuple[MeikyuState, int]) -> MeikyuState:
        state, dice = world
        s = state.search_copy()
        s.rng = random.Random(dice)
        return s

    def rollout(self, state: State) -> None:
        rollout(cast(MeikyuState, state), self.horizon)

    def value(self, state: State) -> float:
        return value(cast(MeikyuState, state), self.seat)


__all__ = ["HeuristicAgent", "IsmctsAgent", "SearchAgent", "heuristic_action", "main_options", "sample_hidden"]


# --- information-set Monte Carlo tree search -------------------------------------------


class IsmctsAgent(BaseIsmcts):
    """SO-ISMCTS (:mod:`cardbase.games.ismcts`) over ``rounds`` rounds of turns:
    determinised by :func:`sample_hidden` (the search agent's), each step-2 decision
    searches the heuristic's ``candidates`` best options and resupplying, other decisions
    are the heuristic's; dice and draws are the determinised state's chance, rollouts play
    on with the heuristic, and the cut-off position is scored by :func:`value` for every
    seat. Its own decisions other than step 2 are the heuristic's, as for the search agent;
    the other seats play the heuristic in the tree too (``opponents=tree``: their step-2
    candidates are searched like this seat's). As for the search agent, the heuristic's
    own choice stands unless the search finds one better by ``prior`` and by ``confidence``
    standard errors."""

    score_label = "estimated value (0 = lost, 1 = won)"

    def __init__(
        self,
        rules: MeikyuRules,
        seat: int,
        seed: int | None = None,
        iters: int | None = None,
        ms: int | None = None,
        c: float | str = DEFAULT_EXPLORATION,
        opponents: str = "heuristic",
        candidates: int = 4,
        rounds: float = 2,
        prior: float | str = 0.01,
        confidence: float | str = 1.0,
        loop: str = "closed",
        per_deal: int = 1,
        root: str = "ucb",
    ):
        super().__init__(rules, seat, seed, iters, ms, c, prior, confidence, loop, per_deal, root)
        if not 1 <= candidates <= 100:
            raise ValueError(f"candidates is 1 to 100, not {candidates}")
        if opponents not in ("heuristic", "tree"):
            raise ValueError(f"opponents is heuristic or tree, not {quoted(opponents)}")
        self.opponents = opponents
        self.candidates_searched = candidates
        self.horizon = max(1, round(float(rounds) * rules.players))
        self._stop = 0
        self._root: tuple[Any, ...] = ()
        """The root's candidates (they depend on the observation only). Not a later decision's
        of the same turn and hand: Mixed Area is not the turn's action, and takes a land."""

    def shortcut(self, observation: Any, legal_actions: Sequence[Any]) -> Any | None:
        obs: MeikyuObservation = observation
        return None if obs.ask == A_MAIN else heuristic_action(obs, legal_actions)

    def preferred(self, observation: Any) -> Any | None:
        return main_options(cast(MeikyuObservation, observation), 1)[0][1]

    def start(self, observation: Any) -> None:
        obs = cast(MeikyuObservation, observation)
        self._stop = obs.turns + self.horizon
        self._root = tuple(main_candidates(obs, self.candidates_searched))

    def determinise(self, observation: Any, rng: random.Random) -> MeikyuState:
        obs: MeikyuObservation = observation
        hands, kpile, mpile, archives = sample_hidden(obs, rng)
        state = MeikyuState.from_parts(obs, hands, kpile, mpile, archives)
        state.history = []
        return state

    def copy_deal(self, state: State) -> State:
        new = cast(MeikyuState, state).search_copy()  # shares nothing it changes but the RNG
        new.rng = random.Random(0)  # reseeded before use
        return new

    def candidates(self, state: State) -> Sequence[Any]:
        s = cast(MeikyuState, state)
        p = s.current_player
        if not s.history:  # the root itself (a deal, nothing played on it yet): its options
            return self._root
        obs = s.observation(p)
        ask = s.ask
        if ask != A_MAIN or (p != self.seat and self.opponents == "heuristic"):
            return (heuristic_action(obs, () if ask == A_MAIN else s.legal_actions()),)
        return main_candidates(obs, self.candidates_searched)

    def cut_off(self, state: State) -> bool:
        return cast(MeikyuState, state).turns >= self._stop

    def rollout(self, state: State) -> None:
        s = cast(MeikyuState, state)
        rollout(s, self._stop - s.turns)

    def rewards(self, state: State) -> Sequence[float]:
        s = cast(MeikyuState, state)
        if self.opponents == "heuristic":  # the others never choose in the tree: only this seat's counts
            return [value(s, q) if q == self.seat else 0.0 for q in range(s.rules.players)]
        return [value(s, q) for q in range(s.rules.players)]
