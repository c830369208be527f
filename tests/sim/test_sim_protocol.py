"""The engine protocol, checked generically for every game in the simulator's registry."""

from __future__ import annotations

import random

import pytest

from cardbase.games.base import CHANCE, TERMINAL, IllegalAction, InvalidAction, Outcome, State
from cardbase.sim.registry import GAMES

CASES = [("meio", {"players": n}) for n in (2, 3, 4)]


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_rules_round_trip_their_options(game_id, options):
    rules = GAMES[game_id].make_rules(options)
    assert type(rules).from_options(rules.to_options()) == rules
    assert rules.game_id == game_id


@pytest.mark.parametrize(("game_id", "options"), CASES)
@pytest.mark.parametrize("seed", range(6))
def test_a_random_game_keeps_the_protocol(game_id, options, seed):
    rules = GAMES[game_id].make_rules(options)
    state: State = rules.new_initial_state(seed)
    assert state.history == [] and state.outcome() is None
    rng = random.Random(seed)
    while not state.is_terminal:
        p = state.current_player
        assert p == CHANCE or 0 <= p < rules.players
        if state.is_chance_node:
            action = state.sample_chance()
        else:
            legal = state.legal_actions()
            assert len(legal) > 0
            picks = [legal[rng.randrange(len(legal))] for _ in range(min(5, len(legal)))]
            for a in picks:
                assert rules.parse_action(str(a)) == a  # notation parses back
                assert state.parse_action(str(a)) == a
                assert state.is_legal(a)
                hash(a)
            action = picks[0]
            obs = state.observation(p)
            assert obs.player == p and isinstance(obs.describe(), str)
            assert state.outcome() is None
        before = len(state.history)
        twin = state.clone()
        state.apply(action)
        assert len(state.history) == before + 1 and state.history[-1] == action
        assert len(twin.history) == before  # the clone did not move
        twin.apply(action)
        assert twin.current_player == state.current_player
    assert state.current_player == TERMINAL and state.legal_actions() == ()
    outcome = state.outcome()
    assert isinstance(outcome, Outcome)
    assert outcome.winners and set(outcome.winners) <= set(range(rules.players))
    assert len(outcome.scores) == rules.players
    with pytest.raises(IllegalAction):
        state.apply(action)


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_errors_are_value_errors(game_id, options):
    rules = GAMES[game_id].make_rules(options)
    with pytest.raises(InvalidAction) as e:
        rules.parse_action("certainly not an action")
    assert isinstance(e.value, ValueError)
    state = rules.new_initial_state(0)
    state.resolve_chance()
    legal = state.legal_actions()
    state.apply(legal[0])
    with pytest.raises(IllegalAction) as e2:
        state.apply(legal[0])  # the same action again: no longer legal
    assert isinstance(e2.value, ValueError) and str(e2.value)
