"""The engine's memos and derived facts never go stale: at every decision of many seeded
random games, the legal actions equal a from-scratch listing (fresh tables, every memo
empty, kingdoms read from the lands), and each seat's derived facts equal a recount. The
card sets a hand offers equal a brute-force enumeration of the rules."""

from __future__ import annotations

import dataclasses
import itertools
import random
from typing import Any

import pytest

from cardbase.games.base import CHANCE, TERMINAL
from cardbase.games.meikyu.engine import (
    A_DEFEND,
    A_MAIN,
    A_ORDER,
    B_COUNCIL,
    B_FARM,
    B_LAB,
    B_MIXED,
    CHAR,
    COUNCIL,
    DEFEND,
    DEVELOP,
    ITEM,
    MAP,
    QUEST,
    RESUPPLY,
    X_GRIMOIRE,
    X_SWORD,
    Attack,
    Choose,
    Defend,
    Develop,
    MeikyuRules,
    MeikyuState,
    MeikyuTables,
    MixedArea,
    Quest,
)
from tests.meikyu.helpers import default_pool

READINGS = [{}, {"farm": "points", "aggression_target": "defender", "map_room": "discarded"}]


def fresh_main_actions(state: MeikyuState, fresh: MeikyuTables) -> list[Any]:
    """Step 2's actions from the raw state: free plays, quests (room × card set), attacks
    (way × target × card set), developments (land × characters)."""
    p = state.turn_player
    n = state.rules.players
    hand = state.hand_counts(p)
    lands = [state.lands(q) for q in range(n)]
    eff = 0
    for e in lands[p]:
        eff |= fresh.lbit[e >> 1]
    qc = fresh.choices(hand, QUEST, bool(eff & B_LAB))
    dc = fresh.choices(hand, DEVELOP, False)
    out: list[Any] = []
    if state.meikyu_pile_size() and any(hand[m] for m in fresh.maps):
        out.append(MAP)
    if eff & B_MIXED:
        out.extend(MixedArea(q) for q in range(n) if q != p)
    out.append(RESUPPLY)
    rooms = list(dict.fromkeys(state.rooms()))  # a land's name is its kind's
    out.extend(Quest(room, names, lab) for room in rooms for names, lab in qc)
    ways = [fresh.knames[k] for k in fresh.aggression if hand[k]] + ([COUNCIL] if eff & B_COUNCIL else [])
    targets: list[tuple[int, str | None]] = []
    for q in range(n):
        if q == p:
            continue
        takeable = list(dict.fromkeys(e >> 1 for e in lands[q] if e >> 1 not in fresh.castle))
        if state.rules.aggression_target == "attacker":
            targets.extend((q, fresh.lnames[land]) for land in takeable)
        elif takeable:
            targets.append((q, None))
    for by in ways:
        for q, land_name in targets:
            out.extend(Attack(q, land_name, names, lab, by) for names, lab in qc)
    undeveloped = list(dict.fromkeys(e >> 1 for e in lands[p] if not e & 1))
    out.extend(Develop(fresh.lnames[land], names) for land in undeveloped for names, _ in dc)
    return out


def fresh_legal(state: MeikyuState, fresh: MeikyuTables) -> list[Any]:
    ask = state.ask
    p = state.current_player
    if ask == A_MAIN:
        return fresh_main_actions(state, fresh)
    if ask == A_DEFEND:
        lab = any(fresh.lbit[e >> 1] & B_LAB for e in state.lands(p))
        return [Defend(names, lab_name) for names, lab_name in fresh.choices(state.hand_counts(p), DEFEND, lab)]
    if ask == A_ORDER:
        kinds = sorted({fresh.kindex[name] for name in state.in_play()}, key=fresh.rank.__getitem__)
        return [Choose("discard", fresh.knames[k]) for k in kinds]
    return list(state.legal_actions())  # the other choices keep no memo


def check_derived(state: MeikyuState) -> None:
    t = state.rules.tables
    for seat in range(state.rules.players):
        lands = state.lands(seat)
        eff = deff = 0
        for e in lands:
            eff |= t.lbit[e >> 1]
            deff |= t.lbit[e >> 1] if e & 1 else 0
        points = state.refugees(seat) + sum(t.dev_points[e >> 1] if e & 1 else t.points[e >> 1] for e in lands)
        points += 1 if eff & B_FARM and state.rules.farm == "points" else 0
        assert (*state.effects(seat), state.points(seat)) == (eff, deff, points)
        takeable = tuple(dict.fromkeys(e >> 1 for e in lands if e >> 1 not in t.castle))
        assert state.takeable(seat) == takeable
        assert state.undeveloped(seat) == tuple(dict.fromkeys(e >> 1 for e in lands if not e & 1))
        hand = state.hand_counts(seat)
        assert (state.hand_size(seat), state.hand_key(seat)) == (sum(hand), t.hand_key(hand))


def play_and_compare(rules: MeikyuRules, seed: int) -> int:
    fresh = MeikyuTables(rules)
    state = rules.new_initial_state(seed)
    rng = random.Random(seed)
    decisions = 0
    while state.current_player != TERMINAL:
        if state.current_player == CHANCE:
            state.apply_unchecked(state.sample_chance())
            continue
        check_derived(state)
        legal = state.legal_actions()
        assert list(legal) == fresh_legal(state, fresh), (seed, state.decision, decisions)
        if seed % 2:  # half the games through the checked path
            state.apply(legal[rng.randrange(len(legal))])
        else:
            state.apply_unchecked(legal[rng.randrange(len(legal))])
        decisions += 1
    check_derived(state)
    return decisions


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("reading", range(len(READINGS)))
def test_legal_actions_and_derived_facts_match_a_fresh_computation(players: int, reading: int) -> None:
    rules = MeikyuRules(default_pool(), players=players, **READINGS[reading])
    decisions = sum(play_and_compare(rules, seed) for seed in range(12))
    assert decisions > 1000


def test_the_same_with_lands_in_two_copies() -> None:
    """Rooms and kingdoms may then hold a land twice (it is one choice)."""
    pool = default_pool()
    doubled = dataclasses.replace(pool, lands=tuple(dataclasses.replace(land, copies=2) for land in pool.lands))
    for players, reading in ((2, 0), (3, 1), (5, 0)):
        rules = MeikyuRules(doubled, players=players, **READINGS[reading])
        assert not rules.tables.unique_lands
        for seed in range(6):
            play_and_compare(rules, seed)


@pytest.mark.parametrize("reading", range(len(READINGS)))
def test_the_main_choices_first_steps_need_no_memo(reading: int) -> None:
    """The main choice's first steps (OpenSpiel's ids) are the same whether the main memo holds the
    hand (its card sets enumerated) or not (``forms_sets`` only), and are the first steps of the
    legal actions."""
    rules = MeikyuRules(default_pool(), players=3, **READINGS[reading])
    main = 0
    for seed in range(3):
        state = rules.new_initial_state(seed)
        rng = random.Random(seed)
        while state.current_player != TERMINAL:
            if state.current_player == CHANCE:
                state.apply_unchecked(state.sample_chance())
                continue
            if state.ask == A_MAIN:
                t = rules.tables
                p = state.current_player
                t.main_cache[bool(state.effects(p)[0] & B_LAB)].pop(state.hand_key(p), None)
                cold = state.legal_ids()
                legal = state.legal_actions()  # (the memo holds the hand now)
                assert cold == state.legal_ids() == sorted({state.action_ids(a)[0] for a in legal}), (seed, cold)
                main += 1
            legal = state.legal_actions()
            state.apply_unchecked(legal[rng.randrange(len(legal))])
    assert main > 100


def brute_force_sets(
    t: MeikyuTables, hand: list[int], mode: int, lab: bool
) -> list[tuple[tuple[str, ...], str | None]]:
    """Every card set of the rules, in the engine's order: the cards that may be played,
    alphabetically, each count from 0 up with the last card's varying fastest; for each
    choice, the set without an item as a character, then with each item (alphabetically)."""
    boosters = () if mode == DEVELOP else (X_SWORD, X_GRIMOIRE)
    slots = [k for k in t.alpha if hand[k] and (t.ktype[k] == CHAR or (t.ktype[k] == ITEM and t.keff[k] in boosters))]
    items = [k for k in t.alpha if hand[k] and t.ktype[k] == ITEM] if lab and mode != DEVELOP else []
    out: list[tuple[tuple[str, ...], str | None]] = []
    for counts in itertools.product(*(range(hand[k] + 1) for k in slots)):
        chosen = list(zip(slots, counts, strict=True))
        names = tuple(t.knames[k] for k, c in chosen for _ in range(c))
        chars = sum(c for k, c in chosen if t.ktype[k] == CHAR)
        grimoires = sum(c for k, c in chosen if t.keff[k] == X_GRIMOIRE)
        if (chars and grimoires <= chars) or (mode == DEFEND and not names):
            out.append((names, None))
        for i in items:  # one item as a 2-sword character, with a copy of it left over
            if hand[i] > names.count(t.knames[i]) and grimoires <= chars + 1:
                out.append((names, t.knames[i]))
    return out


def test_card_sets_equal_a_brute_force_enumeration() -> None:
    rules = MeikyuRules(default_pool(), players=4)
    t = MeikyuTables(rules)  # one table for every hand: memoised parts are shared between hands
    rng = random.Random(7)
    for _ in range(400):
        hand = [0] * t.K
        for k in rng.sample(t.kingdom_cards, rng.randrange(11)):
            hand[k] += 1
        for mode in (QUEST, DEFEND, DEVELOP):
            for lab in (False, True):
                assert list(t.choices(hand, mode, lab)) == brute_force_sets(t, hand, mode, lab), (hand, mode, lab)


@pytest.mark.parametrize("options", [{}, {"grimoire": "stack"}, {"sword": "one"}])
def test_whether_a_hand_forms_card_sets_is_whether_it_has_any(options: dict[str, Any]) -> None:
    """``forms_sets`` (the main choice's first steps read it instead of enumerating a new hand's
    sets) says what ``choices`` says: some set for a quest, with and without the Laboratory, and
    for a development; over hands from empty to ten cards, some with no character."""
    t = MeikyuTables(MeikyuRules(default_pool(), players=3, **options))
    rng = random.Random(11)
    seen = set()
    for _ in range(600):
        hand = [0] * t.K
        cards = t.kingdom_cards if rng.random() < 0.5 else [k for k in t.kingdom_cards if t.ktype[k] != CHAR]
        for k in rng.sample(cards, rng.randrange(min(11, len(cards)))):
            hand[k] += 1
        for mode, lab in ((QUEST, False), (QUEST, True), (DEVELOP, False)):
            some = bool(t.choices(hand, mode, lab))
            assert t.forms_sets(hand, mode, lab) == some, (hand, mode, lab)
            seen.add((mode, lab, some))
    assert len(seen) == 6  # each answer met both ways


def test_hand_keys_are_the_counts_as_digits() -> None:
    t = MeikyuTables(MeikyuRules(default_pool(), players=2))
    rng = random.Random(3)
    copies = [t.kingdom_cards.count(k) for k in range(t.K)]
    for _ in range(200):
        hand = [rng.randrange(c + 1) for c in copies]
        key, digits = t.hand_key(hand), []
        for c in copies:
            key, digit = divmod(key, c + 1)
            digits.append(digit)
        assert digits == hand and key == 0
