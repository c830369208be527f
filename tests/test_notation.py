"""Notation round trips: in every state of random playouts, each legal action's text parses back,
in that state, to the same action (``state.parse_action(state.action_text(a)) == a``); so do the
chance outcomes a record writes down. Méa on the example decks, Meikyu on the shipped catalog with
the ``default`` assumption profile (assumed values)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from cardbase.games.base import CHANCE
from tests.golden.walks import rules_of

DECISIONS = 80


def _round_trips(game: str, options: dict[str, Any], seed: int) -> int:
    """Play ``seed``'s random game, checking every text on the way; returns the actions checked."""
    state = rules_of(game, options).new_initial_state(seed)
    rng = random.Random(seed)
    checked = decisions = 0
    while decisions < DECISIONS:
        p = state.current_player
        if p == CHANCE:
            actions = [state.sample_chance()]
        elif p >= 0:
            actions = list(state.legal_actions())
        else:
            break
        for action in actions:
            text = state.action_text(action)
            assert state.parse_action(text) == action, f"{game} seed {seed}: {text!r} reads back otherwise"
        checked += len(actions)
        if p >= 0:
            decisions += 1
            state.apply(actions[rng.randrange(len(actions))])
        else:
            state.apply(actions[0])
    return checked


SEEDS = st.integers(min_value=0, max_value=2**31 - 1)


@settings(max_examples=12, deadline=None)
@given(seed=SEEDS, players=st.sampled_from([2, 3, 4]), ace_high=st.booleans(), anytime=st.booleans())
def test_meio_notation_round_trips(seed: int, players: int, ace_high: bool, anytime: bool) -> None:
    options = {"players": players, "ace_high": ace_high, "hearts_anytime": anytime}
    assert _round_trips("meio", options, seed) > 0


@settings(max_examples=12, deadline=None)
@given(
    seed=SEEDS,
    adjacency=st.sampled_from(["orthogonal", "diagonal"]),
    layout=st.sampled_from(["checkerboard", "sides"]),
    move_in=st.sampled_from(["all", "first"]),
)
def test_mea_notation_round_trips(seed: int, adjacency: str, layout: str, move_in: str) -> None:
    """Under ``move_in="first"`` an attack's order is part of it: both orders read back as written."""
    assert _round_trips("mea", {"adjacency": adjacency, "layout": layout, "move_in": move_in}, seed) > 0


@settings(max_examples=12, deadline=None)
@given(
    seed=SEEDS,
    players=st.integers(min_value=2, max_value=5),
    farm=st.sampled_from(["lands", "points"]),
    target=st.sampled_from(["attacker", "defender"]),
)
def test_meikyu_notation_round_trips(seed: int, players: int, farm: str, target: str) -> None:
    options = {"players": players, "farm": farm, "aggression_target": target}
    assert _round_trips("meikyu", options, seed) > 0


def test_a_wrong_text_is_caught() -> None:
    """The check can fail: another action's text does not read back as this one."""
    state = rules_of("meio", {"players": 4}).new_initial_state(0)
    state.resolve_chance()
    legal = state.legal_actions()
    assert len(legal) > 1
    assert state.parse_action(state.action_text(legal[1])) != legal[0]
