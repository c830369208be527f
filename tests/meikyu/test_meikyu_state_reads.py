"""MeikyuState's public reads for agents and tests (issue 29): at every decision of seeded random
games they say what each seat's observation shows and what the named reads (``hand``,
``kingdom``, ``decision``) name; ``parts`` rebuilds the state with ``from_parts``;
``search_copy`` is a copy of its own."""

from __future__ import annotations

import random

import pytest

from cardbase.games.base import CHANCE
from cardbase.games.meikyu.codes import DECISIONS
from cardbase.games.meikyu.engine import MeikyuState
from tests.meikyu.helpers import rules


def check_reads(state: MeikyuState) -> None:
    t = state.rules.tables
    n = state.rules.players
    assert DECISIONS[state.ask] == state.decision
    for seat in range(n):
        obs = state.observation(seat)
        assert obs.ask == state.ask
        assert tuple(state.hand_counts(seat)) == obs.hand
        assert {t.knames[k]: c for k, c in enumerate(state.hand_counts(seat)) if c} == state.hand(seat)
        assert tuple(state.lands(seat)) == obs.lands[seat]
        assert tuple((t.lnames[e >> 1], bool(e & 1)) for e in state.lands(seat)) == state.kingdom(seat)
        assert state.effects(seat) == obs.effects(seat)
    hands, kpile, mpile, archives = state.parts()
    assert [sum(h) for h in hands] == [state.hand_size(s) for s in range(n)]
    assert len(kpile) == state.zones()["kingdom pile"] and len(mpile) == state.meikyu_pile_size()
    assert len(archives) == state.zones()["archives draw"]
    me = state.current_player
    rebuilt = MeikyuState.from_parts(state.observation(me), hands, kpile, mpile, archives)
    assert rebuilt.parts() == (hands, kpile, mpile, archives)
    assert all(rebuilt.observation(s) == state.observation(s) for s in range(n))
    assert list(rebuilt.legal_actions()) == list(state.legal_actions())


@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_public_reads_say_what_the_observations_and_named_reads_show(players: int) -> None:
    for seed in range(3):
        state = rules(players).new_initial_state(seed)
        rng = random.Random(seed)
        for _ in range(250):
            if state.is_terminal:
                break
            if state.current_player == CHANCE:
                state.apply(state.sample_chance())
                continue
            check_reads(state)
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])


def test_the_reads_are_the_states_own_and_a_search_copy_is_its_own_position() -> None:
    state = rules(3).new_initial_state(2)
    while state.current_player == CHANCE:
        state.apply(state.sample_chance())
    before = [state.observation(s) for s in range(3)]
    copy = state.search_copy()
    assert copy.history == [] and state.history and copy.rng is state.rng
    hand = state.hand_counts(0)
    for _ in range(200):  # play the copy on: the state is untouched
        if copy.is_terminal:
            break
        copy.apply(copy.sample_chance() if copy.current_player == CHANCE else copy.legal_actions()[0])
    assert copy.turns > state.turns
    assert [state.observation(s) for s in range(3)] == before and state.hand_counts(0) is hand
