"""The engine's memos stay within their bounds however many games are played (counted in entries,
with the limits made small), keep their newest entries when they make room, and share equal card
sets and step-tree nodes (so an entry holds references, not copies)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardbase.games.base import CHANCE, TERMINAL, CheckedSteps
from cardbase.games.meikyu import agents, engine, tables
from cardbase.games.meikyu.agents import heuristic_action
from cardbase.games.meikyu.engine import MeikyuRules, MeikyuState
from cardbase.games.meikyu.tables import MeikyuTables, make_room
from tests.meikyu.helpers import default_pool

MEMO, SETS, PLAN = 40, 16, 12
FIXED = {"kindex", "klookup", "lindex", "llookup", "by_bit", "way_of", "step_of"}
"""The tables' dicts that are look-up tables made once, not memos."""


def limits() -> dict[str, int]:
    """Each memo of the tables and its bound in entries, with the small limits of :func:`small`."""
    bound = dict.fromkeys(
        (
            "multiset_cache",
            "tree_cache",
            "main_cache[0]",
            "main_cache[1]",
            "defend_cache[0]",
            "defend_cache[1]",
            "played_cache",
            "order_cache",
            "order_lists",
            "card_sets",
            "tree_nodes",
        ),
        MEMO,
    )
    bound |= {"action_cache": 2 * MEMO, "choice_cache": SETS, "tree_by_sets": SETS}
    bound |= {"agent:sword_plans": PLAN, "agent:wits_plan": PLAN, "agent:land_values": 1}
    return bound


def memos(t: MeikyuTables) -> dict[str, dict[Any, Any]]:
    """Every dict the tables hold but the fixed look-up tables, by name."""
    out: dict[str, dict[Any, Any]] = {}
    for name, value in vars(t).items():
        if name == "agent_caches":
            out.update((f"agent:{k}", v) for k, v in value.items())
        elif isinstance(value, dict) and name not in FIXED:
            out[name] = value
        elif isinstance(value, tuple) and value and all(isinstance(v, dict) for v in value):
            out.update((f"{name}[{i}]", v) for i, v in enumerate(value))
    return out


@pytest.fixture
def small(monkeypatch: pytest.MonkeyPatch) -> MeikyuRules:
    """3-player rules whose tables are new and whose memos have the small limits."""
    for module in (tables, engine):
        monkeypatch.setattr(module, "MEMO_LIMIT", MEMO)
        monkeypatch.setattr(module, "SETS_LIMIT", SETS)
    monkeypatch.setattr(agents, "PLAN_LIMIT", PLAN)
    monkeypatch.setattr(tables, "_TABLES", {})
    return MeikyuRules(default_pool(), players=3)


def play_by_steps(state: MeikyuState, rng: random.Random) -> None:
    """A random game in integer steps, as the OpenSpiel adapter plays it (card sets a card a step)."""
    steps = CheckedSteps()
    while state.current_player != TERMINAL and (ids := state.legal_ids(steps)):
        if state.current_player == CHANCE:
            outcomes = state.chance_ids(steps)
            steps.append(rng.choices([i for i, _ in outcomes], [w for _, w in outcomes])[0])
        else:
            steps.append(ids[rng.randrange(len(ids))])
        action = state.action_from_ids(steps)
        if action is not None:
            state.apply_unchecked(action)
            steps = CheckedSteps()


def play(rules: MeikyuRules, games: int) -> MeikyuTables:
    """``games`` seeded games each way: random actions, random steps, heuristic agents."""
    rng = random.Random(7)
    for seed in range(games):
        state = rules.new_initial_state(seed)
        while (p := state.current_player) != TERMINAL:
            if p == CHANCE:
                state.apply_unchecked(state.sample_chance())
            else:
                legal = state.legal_actions()
                state.apply_unchecked(legal[rng.randrange(len(legal))])
        play_by_steps(rules.new_initial_state(1000 + seed), rng)
        if seed % 4 == 0:
            state = rules.new_initial_state(2000 + seed)
            while state.current_player != TERMINAL:
                if state.current_player == CHANCE:
                    state.apply_unchecked(state.sample_chance())
                else:
                    seen = state.observation(state.current_player)
                    state.apply_unchecked(heuristic_action(seen, state.legal_actions()))
    return rules.tables


def test_every_memo_of_the_tables_stays_within_its_bound(small: MeikyuRules) -> None:
    t = play(small, 24)
    sizes = {name: len(memo) for name, memo in memos(t).items()}
    assert set(sizes) == set(limits()), "a dict on the tables that is neither a fixed table nor a bounded memo"
    over = {name: (size, limits()[name]) for name, size in sizes.items() if size > limits()[name]}
    assert not over
    # The games went past every limit that many games reach (else the bounds were not tested).
    assert all(sizes[name] >= limits()[name] // 2 for name in ("choice_cache", "main_cache[0]", "tree_cache"))


def test_making_room_keeps_the_newest_half() -> None:
    memo: dict[int, int] = {}
    for key in range(1000):
        make_room(memo, 100)
        memo[key] = key
        assert len(memo) <= 100
    # The newest entries, never fewer than half the limit: not emptied, not the oldest kept.
    assert len(memo) >= 50
    assert list(memo) == list(range(1000 - len(memo), 1000))


def test_equal_card_sets_and_tree_nodes_are_one_object(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tables, "_TABLES", {})  # new tables, the shipped limits
    t = play(MeikyuRules(default_pool(), players=3), 6)
    sets: dict[Any, int] = {}
    for value in t.choice_cache.values():
        for card_set in value:
            assert sets.setdefault(card_set, id(card_set)) == id(card_set), card_set
    nodes: dict[Any, int] = {}
    stack = list(t.tree_cache.values())
    assert stack
    while stack:
        node = stack.pop()
        assert nodes.setdefault(node, id(node)) == id(node), node
        stack.extend(child for child in node[1] if child is not None)
