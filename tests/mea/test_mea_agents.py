"""Méa agents: legal, reproducible, and each stronger than the one before (the full 1,000-game
measurement is in docs/rules/mea.md; here a small seeded match)."""

from __future__ import annotations

import random

import pytest

from cardbase.games.base import CHANCE
from cardbase.games.mea.agents import HeuristicAgent, SearchAgent, choose_opening, evaluate, opening_size
from cardbase.games.mea.codes import HAND, UNKNOWN
from cardbase.games.mea.rules import MeaRules
from cardbase.sim.agents import RandomAgent
from tests.mea.test_mea_properties import check_invariants, random_rules

AGENTS = {"random": RandomAgent, "heuristic": HeuristicAgent, "search": SearchAgent}


def match(a: str, b: str, games: int, rules_of=random_rules, **kwargs) -> tuple[int, int]:
    """Wins of ``a`` and of ``b``, each on both seats."""
    wins = [0, 0]
    for g in range(games):
        rules = rules_of(g)
        names = (a, b) if g % 2 == 0 else (b, a)
        agents = [AGENTS[names[s]](rules, s, g * 7 + s, **kwargs.get(names[s], {})) for s in (0, 1)]
        state = rules.new_initial_state(g)
        while not state.is_terminal:
            if state.current_player == CHANCE:
                state.apply(state.sample_chance())
                continue
            p = state.current_player
            state.apply(agents[p].act(state.observation(p), state.legal_actions()))
        w = state.outcome().winners
        if len(w) == 1:
            wins[0 if names[w[0]] == a else 1] += 1
    return wins[0], wins[1]


def test_the_heuristic_beats_random_play():
    heuristic, rnd = match("heuristic", "random", 60)
    assert heuristic >= 50, (heuristic, rnd)


def test_the_search_agent_beats_the_heuristic_in_a_small_match():
    search, heuristic = match("search", "heuristic", 10, search={"samples": 3, "candidates": 3})
    assert search > heuristic, (search, heuristic)


def test_agents_are_reproducible_from_their_seed():
    rules = random_rules(3)
    state = rules.new_initial_state(3)
    state.resolve_chance()
    for _ in range(12):
        if state.is_terminal:
            break
        p = state.current_player
        obs = state.observation(p)
        legal = state.legal_actions()
        first = SearchAgent(rules, p, 11, samples=2).act(obs, legal)
        again = SearchAgent(rules, p, 11, samples=2).act(obs, legal)
        assert first == again and first in legal
        state.apply(HeuristicAgent(rules, p, 5).act(obs, legal))


def test_search_evaluate_ranks_its_candidates():
    rules = random_rules(4)
    state = rules.new_initial_state(4)
    state.resolve_chance()
    state.apply_text("draw 5")
    state.apply_text("draw 5")
    agent = SearchAgent(rules, 0, 1, samples=2)
    ranked = agent.evaluate(state.observation(0), state.legal_actions())
    scores = [s for _, s in ranked]
    assert scores == sorted(scores, reverse=True)
    assert all(a in state.legal_actions() for a, _ in ranked)


def test_determinise_keeps_what_the_player_sees_and_deals_the_rest():
    rules = random_rules(5)
    state = rules.new_initial_state(5)
    rng = random.Random(5)
    while not state.is_terminal and state.turn < 6:
        if state.current_player == CHANCE:
            state.apply(state.sample_chance())
            continue
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    obs = state.observation(0)
    full = obs.view.determinise(0, random.Random(1))
    check_invariants(full)
    assert UNKNOWN not in [full.zone(i) for i in range(full.card_count)]
    assert full.hand(0) == state.hand(0) and len(full.hand(1)) == len(state.hand(1))
    assert len(full.deck(0)) == len(state.deck(0)) and len(full.deck(1)) == len(state.deck(1))
    assert sorted(full.deck(0)) == sorted(state.deck(0))  # own deck: the same cards, order unknown
    assert all(full.zone(i) == HAND for i in full.hand(1))
    assert full.observation(0).public() == obs.public()


def test_opening_sizes():
    rules = random_rules(1)
    assert 3 <= choose_opening(rules, 0) <= 7
    rng = random.Random(0)
    assert opening_size(rules, 0, 4, rng) == 4
    assert {opening_size(rules, 0, "2-4", rng) for _ in range(50)} == {2, 3, 4}
    with pytest.raises(ValueError):
        opening_size(rules, 0, "5-2", rng)
    with pytest.raises(ValueError):
        opening_size(rules, 0, 11, rng)


def test_evaluate_favours_the_winner():
    rules: MeaRules = random_rules(2)
    state = rules.new_initial_state(2)
    state.resolve_chance()
    state.apply_text("draw 11")
    assert evaluate(state, 1) == 1000 and evaluate(state, 0) == -1000


@pytest.mark.parametrize(
    "options",
    [{}, {"move_in": "first"}, {"attack_rule": "all", "move_onto_enemy": "allowed"}, {"adjacency": "diagonal"}],
    ids=["default", "move-in-first", "attack-all-share", "diagonal"],
)
def test_the_heuristic_scores_the_lazy_main_actions_as_it_scores_each_built_one(options, monkeypatch):
    """The heuristic's walk over a ``MainActions`` (no action built) picks the action that scoring
    every built action picks; and membership found by kind agrees with the built list's."""
    from cardbase.games.mea.actions import Move, Ref
    from cardbase.games.mea.agents import heuristic_action
    from cardbase.games.mea.legal import MainActions

    compared = 0
    for g in range(12):
        rules = random_rules(100 + g, **options)
        state = rules.new_initial_state(g)
        agents = [HeuristicAgent(rules, s, g + s) for s in (0, 1)]
        while not state.is_terminal and compared < 400 * (g + 1):
            if state.current_player == CHANCE:
                state.apply(state.sample_chance())
                continue
            p = state.current_player
            legal = state.legal_actions()
            if type(legal) is MainActions:
                view = state.observation(p).view
                built = list(legal)
                expected = heuristic_action(view, built, 5, 5)
                with monkeypatch.context() as m:
                    m.setattr(MainActions, "_build_all", lambda self: pytest.fail("every action was built"))
                    assert heuristic_action(view, MainActions(state), 5, 5) == expected
                    for action in built:
                        assert action in MainActions(state)
                    ref = Ref("Nobody", 0, 0)
                    strangers = (
                        Move(ref, 1),
                        ("move", ref, 1),
                        ("move", 5, 1),
                        ("summon", "Nobody", 0),
                        ("play", "Nobody"),
                    )
                    for other in (*strangers, ("x",)):
                        assert other not in MainActions(state)
                compared += 1
            state.apply(agents[p].act(state.observation(p), legal))
    assert compared > 500


@pytest.mark.parametrize("seed", range(6))
def test_the_heuristic_reads_the_observed_state_as_it_reads_the_view(seed):
    """The heuristic on the full state (an observation's ``unchanged_state``, no view copied) picks
    what it picks on the redacted view, at every decision of every phase: it reads nothing hidden."""
    from cardbase.games.mea.agents import heuristic_action

    decisions = 0
    for game in range(3):
        rules = random_rules(200 + 3 * seed + game)
        state = rules.new_initial_state(seed)
        agents = [RandomAgent(rules, s, seed + s) for s in (0, 1)]
        while not state.is_terminal:
            if state.current_player == CHANCE:
                state.apply(state.sample_chance())
                continue
            p = state.current_player
            seen = state.observation(p)
            assert seen.unchanged_state() is state
            legal = state.legal_actions()
            for opening, target in ((5, 5), (3, 7)):
                on_state = heuristic_action(state, legal, opening, target)
                assert heuristic_action(state.observation(p).view, legal, opening, target) == on_state
            assert seen.unchanged_state() is state  # another observation's view was made, not this one's
            decisions += 1
            # Half heuristic, half random: positions the heuristic would not reach on its own.
            agent = HeuristicAgent(rules, p, seed) if decisions % 2 else agents[p]
            state.apply(agent.act(seen, legal))
            assert seen.unchanged_state() is None  # the state changed: the observation holds its view
    assert decisions > 60


def _listed_worth(scores, ab, q, src):  # type: ignore[no-untyped-def]
    """``_Scores.ability_worth`` as worked out from the list of targets (``MeaState.targets``)."""
    from cardbase.games.mea.agents import _FIXED_EFFECTS

    state, p, e = scores.state, scores.p, ab.effect
    if ab.condition is not None and not ab.condition.holds(state.condition_count(ab.condition.count, p)):
        return 0.0
    if e == "draw" or e in _FIXED_EFFECTS:
        return scores.ability_worth(ab, q, src)
    options = state.targets(ab, p, src, q)
    if not options:
        return 0.0
    if e == "flip_tile":
        return 5.0
    if e in ("destroy_tile", "obliterate_tile"):
        best = 4.0
        if e == "obliterate_tile":
            best += max(
                sum(scores.value(j) * (1 if scores.ctrl[j] != p else -1) for j in scores.occ[t]) for t in options
            )
        return best
    values = [scores.value(t[0]) for t in options]
    if ab.target == "friendly_monster":
        return -min(values)
    return {
        "kill": max(values) + 1.0,
        "return_to_hand": 0.7 * max(values) + 0.5,
        "take_control": 2.0 * max(values),
    }.get(e, 0.0)


@pytest.mark.parametrize("seed", range(4))
def test_an_abilitys_worth_without_its_list_of_targets_is_the_listed_one(seed):
    """``has_target`` is whether ``targets`` lists any, and the heuristic's worth of every ability
    of every card (its own and the opponent's, from each tile and from the hand) is the one worked
    out from the list of targets, at every decision of random-rules games."""
    from cardbase.games.mea.agents import _Scores

    checked = 0
    for game in range(3):
        rules = random_rules(300 + 3 * seed + game)
        state = rules.new_initial_state(seed)
        agents = [RandomAgent(rules, s, seed + s) for s in (0, 1)]
        tab = state.tables
        while not state.is_terminal:
            if state.current_player == CHANCE:
                state.apply(state.sample_chance())
                continue
            p = state.current_player
            scores = _Scores(state, p)
            for i, trig in enumerate(tab.triggers):
                for ab in (ab for abilities in trig.values() for ab in abilities):
                    for q in (-1, *state.board_view().tile_owners):
                        assert state.has_target(ab, p, i, q) == bool(state.targets(ab, p, i, q))
                        assert scores.ability_worth(ab, q, i) == _listed_worth(scores, ab, q, i)
                        checked += 1
            state.apply(agents[p].act(state.observation(p), state.legal_actions()))
    assert checked > 1000


def test_the_runner_plays_the_heuristic_on_the_state_as_on_its_observation(monkeypatch):
    """``play_game`` calls the heuristic's ``act_on_state`` (no observation made): the same games as
    through ``act`` on an observation, record for record."""
    from cardbase.sim.registry import GameEntry
    from cardbase.sim.runner import play_game

    class ThroughObservation:
        """The heuristic without ``act_on_state``: the runner hands it observations."""

        name = "heuristic"

        def __init__(self, agent: HeuristicAgent):
            self.agent = agent

        def act(self, observation, legal_actions):  # type: ignore[no-untyped-def]
            return self.agent.act(observation, legal_actions)

    made = GameEntry.make_agent
    for g in range(4):
        rules = random_rules(400 + g)
        direct = play_game("mea", rules, ("heuristic", "heuristic"), g, 0, keep_record=True)
        with monkeypatch.context() as m:
            m.setattr(GameEntry, "make_agent", lambda *a: ThroughObservation(made(*a)))
            observed = play_game("mea", rules, ("heuristic", "heuristic"), g, 0, keep_record=True)
        assert direct.decisions > 20
        assert observed == direct
