"""The helpers the engines' integer steps and observation tensors share (cardbase/games/base.py):
``ids_without_choice`` (legal_ids at a chance node and at the end), ``check_seat``, ``one_hot``,
``counts``."""

from __future__ import annotations

import random

import pytest

from cardbase.games.base import CHANCE, check_seat, counts, ids_without_choice, one_hot
from tests.golden.walks import rules_of


def test_one_hot_and_counts():
    assert one_hot(4, 2) == [0.0, 0.0, 1.0, 0.0]
    assert one_hot(3, -1) == one_hot(3, 3) == [0.0, 0.0, 0.0]
    assert counts([2, 0, 2], 4) == [1.0, 0.0, 2.0, 0.0] and counts((), 2) == [0.0, 0.0]


def test_a_seat_outside_the_table_is_one_message():
    check_seat(2, 3)
    for seat in (-1, 3):
        with pytest.raises(ValueError, match=f"no seat {seat} in a 3-player game"):
            check_seat(seat, 3)


@pytest.mark.parametrize(
    ("game", "options"), [("meio", {"players": 3}), ("meikyu", {"players": 2}), ("mea", {"board_size": 9})]
)
def test_ids_without_choice_are_the_chance_steps_then_none_then_nothing_at_the_end(game, options):
    rules = rules_of(game, options)
    state = rules.new_initial_state(3)
    rng = random.Random(3)
    seen = set()
    for _ in range(20_000):
        ids = ids_without_choice(state, ())
        if state.is_terminal:
            assert ids == [] == state.legal_ids()
            seen.add("end")
            break
        if state.current_player == CHANCE:
            assert ids == [i for i, _ in state.chance_ids()] == state.legal_ids() and ids
            seen.add("chance")
            state.apply(state.sample_chance())
        else:
            assert ids is None and state.legal_ids()
            seen.add("player")
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    assert seen == {"chance", "player", "end"}
    with pytest.raises(ValueError, match="no seat 7"):
        state.observation_tensor(7)
