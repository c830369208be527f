"""ISMCTS (cardbase/games/ismcts.py) for the three games: legal actions only, reproducible
by seed with an iteration budget, blind to hidden cards, and stronger than random."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

from cardbase.errors import UsageError
from cardbase.games.base import CHANCE
from cardbase.games.mea import agents as mea_agents
from cardbase.games.meikyu import agents as meikyu_agents
from cardbase.games.meikyu.engine import A_MAIN, MeikyuState
from cardbase.games.meio import agents as meio_agents
from cardbase.games.meio.engine import MeioRules, MeioState
from cardbase.sim.agents import RandomAgent
from cardbase.sim.registry import game
from cardbase.sim.stats import wilson_interval
from tests.meikyu.helpers import rules as meikyu_rules


def mea_rules() -> Any:
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from bench_mea import demo_rules

    return demo_rules()


def rules_for(game_id: str) -> Any:
    if game_id == "mea":
        return mea_rules()
    if game_id == "meikyu":
        return meikyu_rules(2)
    return MeioRules(players=2)


AGENTS = {"mea": mea_agents.IsmctsAgent, "meio": meio_agents.IsmctsAgent, "meikyu": meikyu_agents.IsmctsAgent}
ITERS = {"mea": 6, "meio": 12, "meikyu": 8}


def play(game_id: str, rules: Any, agents: list[Any], seed: int, limit: int = 10_000) -> list[str]:
    """Play to the end (or ``limit`` decisions) with checked moves; the actions as text."""
    state = rules.new_initial_state(seed)
    out: list[str] = []
    while not state.is_terminal and len(out) < limit:
        if state.current_player == CHANCE:
            state.apply(state.sample_chance())
            continue
        p = state.current_player
        action = agents[p].act(state.observation(p), state.legal_actions())
        state.apply(action)  # checked: raises on an illegal action
        out.append(str(action))
    return out


@pytest.mark.parametrize("game_id", ["mea", "meio", "meikyu"])
def test_ismcts_only_plays_legal_actions(game_id: str) -> None:
    rules = rules_for(game_id)
    agents = [AGENTS[game_id](rules, 0, 1, iters=ITERS[game_id]), RandomAgent(rules, 1, 2)]
    limit = 120 if game_id == "mea" else 10_000
    assert play(game_id, rules, agents, 3, limit)


@pytest.mark.parametrize("game_id", ["mea", "meio", "meikyu"])
def test_ismcts_is_reproducible_by_seed_with_an_iteration_budget(game_id: str) -> None:
    rules = rules_for(game_id)

    def run(seed: int) -> list[str]:
        agents = [AGENTS[game_id](rules, s, seed + s, iters=ITERS[game_id]) for s in (0, 1)]
        return play(game_id, rules, agents, 5, 60)

    first = run(10)
    assert first == run(10)
    assert any(run(s) != first for s in (11, 12, 13))  # the seed matters: the test can fail


def test_the_registry_makes_ismcts_for_every_game_with_a_bounded_budget() -> None:
    for game_id in ("mea", "meio", "meikyu"):
        entry = game(game_id)
        rules = rules_for(game_id)
        agent = entry.make_agent("ismcts:iters=7", rules, 0, 1)
        assert agent.name == "ismcts:iters=7" and agent.iterations == 7  # type: ignore[attr-defined]
        timed = entry.make_agent("ismcts:ms=5", rules, 0, 1)
        assert timed.iterations is None and timed.seconds == 0.005  # type: ignore[attr-defined]
        for bad in ("ismcts:iters=0", "ismcts:ms=-1", "ismcts:iters=5;ms=5", "ismcts:c=x", "ismcts:c=99"):
            with pytest.raises(UsageError):
                entry.make_agent(bad, rules, 0, 1)
        with pytest.raises(UsageError, match="at most"):
            entry.make_agent("ismcts:iters=1000000", rules, 0, 1)


def test_a_time_budget_still_returns_a_legal_action() -> None:
    rules = MeioRules(players=3)
    agents = [meio_agents.IsmctsAgent(rules, s, s, ms=2) for s in range(3)]
    play("meio", rules, agents, 4, 30)
    assert agents[0].last_iterations >= 1


# --- it never reads hidden information ----------------------------------------------


def _meio_twins(seed: int) -> tuple[MeioState, MeioState, int]:
    """Two Meio states at a play decision that differ only in the cards seat 0 cannot see."""
    rules = MeioRules(players=3)
    state = rules.new_initial_state(seed)
    agents = [meio_agents.HeuristicAgent(rules, s, s) for s in range(3)]
    for _ in range(12):  # splits and a few tricks
        if state.is_chance_node:
            state.resolve_chance()
            continue
        p = state.current_player
        state.apply(agents[p].act(state.observation(p), state.legal_actions()))
    while state.current_player != 0 or len(state.legal_actions()) < 2:
        p = state.current_player
        state.apply(agents[p].act(state.observation(p), state.legal_actions()))
    obs = state.observation(0)
    weights = meio_agents.card_weights(3, rules.ace_high)
    twins = []
    for r in (1, 2):
        hands, asides, leftover = meio_agents.sample_hidden(obs, random.Random(r), weights)
        twins.append(MeioState.from_parts(obs, hands, asides, leftover))
    return twins[0], twins[1], 0


def test_meio_ismcts_decides_the_same_when_only_hidden_cards_differ() -> None:
    a, b, me = _meio_twins(7)
    assert a.observation(me) == b.observation(me)
    assert a.hand_mask(1) != b.hand_mask(1)  # the opponents' cards do differ
    for seed in (1, 2, 3):
        choices = [
            meio_agents.IsmctsAgent(s.rules, me, seed, iters=60).act(s.observation(me), s.legal_actions())
            for s in (a, b)
        ]
        assert choices[0] == choices[1]


def test_meikyu_ismcts_decides_the_same_when_only_hidden_cards_differ() -> None:
    rules = meikyu_rules(3)
    state = rules.new_initial_state(4)
    heuristic = [meikyu_agents.HeuristicAgent(rules, s, s) for s in range(3)]
    while not (state.current_player == 0 and state.ask == A_MAIN and state.turns >= 3):
        if state.current_player == CHANCE:
            state.apply(state.sample_chance())
            continue
        p = state.current_player
        state.apply(heuristic[p].act(state.observation(p), state.legal_actions()))
    obs = state.observation(0)
    twins = [MeikyuState.from_parts(obs, *meikyu_agents.sample_hidden(obs, random.Random(r))) for r in (1, 2)]
    assert twins[0].observation(0) == twins[1].observation(0)
    assert [twins[0].hand_counts(s) for s in (1, 2)] != [twins[1].hand_counts(s) for s in (1, 2)]
    for seed in (1, 2):
        choices = [
            meikyu_agents.IsmctsAgent(rules, 0, seed, iters=20).act(t.observation(0), t.legal_actions()) for t in twins
        ]
        assert choices[0] == choices[1]


def test_mea_ismcts_decides_the_same_when_only_hidden_cards_differ() -> None:
    rules = mea_rules()
    state = rules.new_initial_state(6)
    heuristic = [mea_agents.HeuristicAgent(rules, s, s) for s in (0, 1)]
    moves = 0
    while not (state.current_player == 0 and state.phase == "main" and moves > 12):
        if state.current_player == CHANCE:
            state.apply(state.sample_chance())
            continue
        p = state.current_player
        state.apply(heuristic[p].act(state.observation(p), state.legal_actions()))
        moves += 1
    obs = state.observation(0)
    twins = [obs.view.determinise(0, random.Random(r)) for r in (1, 2)]
    assert twins[0].observation(0).public() == twins[1].observation(0).public()
    assert twins[0].hand_names(1) != twins[1].hand_names(1)
    for seed in (1, 2):
        choices = [
            mea_agents.IsmctsAgent(rules, 0, seed, iters=12).act(t.observation(0), t.legal_actions()) for t in twins
        ]
        assert choices[0] == choices[1]


class _Recording(meio_agents.IsmctsAgent):
    """Keeps every determinised state it searches."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.seen: list[MeioState] = []

    def determinise(self, observation: Any, rng: random.Random) -> MeioState:
        state = super().determinise(observation, rng)
        self.seen.append(state.clone())
        return state


def test_every_determinised_meio_state_shows_the_observation() -> None:
    a, _, me = _meio_twins(9)
    obs = a.observation(me)
    agent = _Recording(a.rules, me, 1, iters=40)
    agent.act(obs, a.legal_actions())
    assert len(agent.seen) == 40
    assert all(s.observation(me) == obs for s in agent.seen)
    assert (
        len({tuple(s.hand_mask(q) for q in range(s.players)) for s in agent.seen}) > 1
    )  # the hidden cards are really sampled


# --- strength ---------------------------------------------------------------------------


def test_a_tiny_budget_ismcts_beats_random_at_meio() -> None:
    rules = MeioRules(players=2)
    wins = 0
    games = 60
    for g in range(games):
        seat = g % 2  # seats swapped
        agents: list[Any] = [RandomAgent(rules, 0, 100 + g), RandomAgent(rules, 1, 200 + g)]
        agents[seat] = meio_agents.IsmctsAgent(rules, seat, g, iters=30)
        state = rules.new_initial_state(g)
        while not state.is_terminal:
            if state.is_chance_node:
                state.resolve_chance()
                continue
            p = state.current_player
            state.apply(agents[p].act(state.observation(p), state.legal_actions()))
        outcome = state.outcome()
        assert outcome is not None
        wins += seat in outcome.winners and not outcome.shared
    rate, low, _ = wilson_interval(wins, games)
    assert rate >= 0.7 and low > 0.5, (wins, games)
    print(f"ismcts:iters=30 against random, Meio 2p: {wins}/{games}")


def test_mea_ismcts_deals_a_card_it_saw_returned_to_the_other_hand_into_that_hand() -> None:
    from cardbase.games.mea.codes import BOARD, HAND

    rules = mea_rules()
    state = rules.new_initial_state(6)
    heuristic = [mea_agents.HeuristicAgent(rules, s, s) for s in (0, 1)]
    agent = mea_agents.IsmctsAgent(rules, 0, 1, iters=4)

    def theirs_on_board() -> list[int]:
        return [i for i, z in enumerate(state.zones) if z == BOARD and state.owner(i) == 1]

    while not theirs_on_board():
        if state.current_player == CHANCE:
            state.apply(state.sample_chance())
            continue
        p = state.current_player
        state.apply(heuristic[p].act(state.observation(p), state.legal_actions()))
    agent.remember(state.observation(0))
    returned = theirs_on_board()[0]
    state.place_card(returned, HAND)  # as a "return to hand" ability does
    obs = state.observation(0)
    agent.remember(obs)
    plain = [obs.view.determinise(0, random.Random(r)) for r in range(30)]
    assert any(returned not in d.hand(1) for d in plain)  # the plain deal forgets it
    for r in range(30):
        dealt = agent.determinise(obs, random.Random(r))
        assert returned in dealt.hand(1) and dealt.zone(returned) == HAND
        assert sorted(dealt.hand(1) + dealt.deck(1)) == sorted(plain[r].hand(1) + plain[r].deck(1))
        assert dealt.hand_size(1) == state.hand_size(1)


@pytest.mark.xdist_group("pools")  # starts worker processes: one such test at a time
def test_sim_accepts_ismcts_the_same_for_any_jobs_and_replay_reads_its_records(tmp_path: Any) -> None:
    import json

    from typer.testing import CliRunner

    from cardbase.cli.app import app

    runner = CliRunner()
    args = ["sim", "meio", "--players", "2", "--agents", "ismcts:iters=8,random", "--games", "4", "--seed", "3"]
    one = runner.invoke(app, [*args, "--json", "--records", str(tmp_path)])
    two = runner.invoke(app, [*args, "--json", "--jobs", "2"])
    assert one.exit_code == 0, one.output
    assert json.loads(one.stdout)["seats"] == json.loads(two.stdout)["seats"]
    (path,) = tmp_path.glob("*.jsonl")
    replayed = runner.invoke(app, ["replay", str(path), "--json"])
    assert replayed.exit_code == 0, replayed.output
    assert len(json.loads(replayed.stdout)) == 4
    bad = runner.invoke(app, ["sim", "meio", "--players", "2", "--agents", "ismcts:iters=0,random", "--games", "1"])
    assert bad.exit_code == 2 and "iters" in bad.output


def test_the_preferred_action_stands_unless_the_search_beats_it_clearly() -> None:
    from cardbase.games.ismcts import _Node

    def child(rewards: list[float]) -> _Node:
        node = _Node(0)
        node.visits = len(rewards)
        node.total = sum(rewards)
        node.squares = sum(r * r for r in rewards)
        return node

    agent = meikyu_agents.IsmctsAgent(meikyu_rules(2), 0, 1, iters=1, prior=0.01, confidence=1)
    root = _Node(0)
    root.children = {"a": child([0.6, 0.4] * 20), "b": child([0.55, 0.45] * 5)}
    assert agent.choose(root.children, None) == "a"  # most visited
    assert agent.choose(root.children, "b") == "b"  # a's mean is no higher: b stands
    root.children["a"] = child([0.9, 0.8] * 20)
    assert agent.choose(root.children, "b") == "a"  # clearly better: replaced
    root.children["a"] = child([1.0, 0.1] * 20)
    assert agent.choose(root.children, "b") == "b"  # higher mean but within one standard error


# --- the options of this session: kept trees, open loop, common random numbers, Méa's turn horizon --


OPTIONS = {
    "mea": [
        "horizon=turn",
        "loop=open",
        "per_deal=3",
        "root=halving",
        "expand=ordered",
        "cache=off",
        "root=halving;screen=2",
        "root=halving;screen=2;screen_deals=1;expand=ordered",
    ],
    "meikyu": ["loop=open", "per_deal=3", "root=halving"],
    "meio": ["loop=open", "per_deal=3", "root=halving"],
}


@pytest.mark.parametrize(("game_id", "option"), [(g, o) for g, opts in OPTIONS.items() for o in opts])
def test_every_option_plays_legal_actions_reproducibly_by_seed(game_id: str, option: str) -> None:
    rules = rules_for(game_id)
    entry = game(game_id)
    spec = f"ismcts:iters={ITERS[game_id]};{option}"

    def run(seed: int) -> list[str]:
        agents = [entry.make_agent(spec, rules, s, seed + s) for s in (0, 1)]
        return play(game_id, rules, agents, 5, 60)  # checked moves: an illegal one raises

    first = run(10)
    assert first == run(10)
    assert any(run(s) != first for s in (11, 12, 13))


class _KeptMea(mea_agents.IsmctsAgent):
    """Records the visits already on each decision's root (a kept tree's) and its turn."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.roots: list[tuple[int, int, int]] = []  # (turn, visits on the root's children, iterations)

    def search(self, observation: Any, root: Any = None) -> Any:
        before = sum(ch.visits for ch in root.children.values()) if root is not None else 0
        self.roots.append((observation.view.turn, before, self.iterations or 0))
        return super().search(observation, root)


def test_mea_keeps_the_tree_between_decisions_of_one_turn_and_never_across_turns() -> None:
    rules = mea_rules()
    agent = _KeptMea(rules, 0, 1, iters=12, horizon="turn")
    play("mea", rules, [agent, mea_agents.HeuristicAgent(rules, 1, 2)], 3, 200)
    kept = [(turn, visits) for turn, visits, _ in agent.roots if visits]
    assert kept  # some decisions started from the last one's subtree
    first_of_turn: dict[int, int] = {}
    for turn, visits, _ in agent.roots:
        first_of_turn.setdefault(turn, visits)
    assert all(v == 0 for v in first_of_turn.values())  # a turn's first decision starts afresh


def test_a_kept_tree_never_makes_it_choose_an_action_that_is_not_legal() -> None:
    from cardbase.games.ismcts import IsmctsAgent, _Node

    class Stale(IsmctsAgent):
        def determinise(self, observation: Any, rng: random.Random) -> Any:
            raise AssertionError("not searched")

        def candidates(self, state: Any) -> list[Any]:
            return []

        def rollout(self, state: Any) -> None:
            return None

        def rewards(self, state: Any) -> list[float]:
            return [0.0]

        def _reusable(self, kept: Any, observation: Any) -> _Node:
            return _Node(0)  # as if the last decision's subtree were kept

        def search(self, observation: Any, root: Any = None) -> _Node:
            assert root is not None
            node = _Node(0)
            for action, visits in (("gone", 50), ("a", 3), ("b", 5), ("c", 0)):
                node.children[action] = _Node(0)
                node.children[action].visits = visits
                node.children[action].total = visits / 2
            return node

    agent = Stale(MeioRules(players=2), 0, 1, iters=1)
    seat_0 = SimpleNamespace(player=0)  # (an agent acts on its own seat's observation)
    assert agent.act(seat_0, ["a", "b", "c"]) == "b"  # "gone" (most visited) is not legal now
    assert agent.act(seat_0, ["c", "x"]) == "c"  # nothing legal was searched: the first legal action


# --- sequential halving at the root (root=halving) ----------------------------------------------


def test_halving_spends_the_budget_on_the_better_half_and_keeps_the_heuristics_choice() -> None:
    rules = meikyu_rules(2)
    for seed in range(3):
        state = rules.new_initial_state(seed)
        while state.is_chance_node or state.current_player < 0 or state.ask != A_MAIN:
            state.apply(state.sample_chance() if state.is_chance_node else state.legal_actions()[0])
        obs = state.observation(state.current_player)
        agent = meikyu_agents.IsmctsAgent(rules, obs.player, seed, iters=60, root="halving")
        action = agent.act(obs, state.legal_actions())
        state.clone().apply(action)  # checked: raises on an illegal action
        paired = agent._paired
        k = len(paired)
        assert k == len(agent._root) >= 2
        lengths = sorted(len(v) for v in paired.values())
        assert sum(lengths) == agent.last_iterations <= 60 + k  # the budget, one deal more at most
        preferred = agent.preferred(obs)
        assert len(paired[preferred]) == lengths[-1]  # the heuristic's choice plays every deal
        finalists = [a for a, v in paired.items() if len(v) == lengths[-1]]
        assert len(finalists) <= 2 + (k > 2)  # the best half of the last round, with the heuristic's
        assert action in finalists
        if k > 2:
            assert lengths[0] < lengths[-1]  # some were dropped after the first round
        # the same seed, the same decision and the same samples
        again = meikyu_agents.IsmctsAgent(rules, obs.player, seed, iters=60, root="halving")
        assert again.act(obs, state.legal_actions()) == action and again._paired == paired


def test_halving_replaces_the_heuristics_choice_only_when_clearly_better_on_paired_deals() -> None:
    agent = meikyu_agents.IsmctsAgent(meikyu_rules(2), 0, 1, iters=1, root="halving", prior=0.01, confidence=1)
    agent._paired = {"h": [0.5, 0.6, 0.4, 0.5], "a": [0.6, 0.7, 0.5, 0.6], "b": [0.9]}
    assert agent.choose_paired("h") == "a"  # better by 0.1 on every deal: no doubt
    assert agent.choose_paired(None) == "a"  # "b" was dropped after one deal
    agent._paired["a"] = [0.9, 0.3, 0.8, 0.2]  # a higher mean, 0.1, but within one standard error
    assert agent.choose_paired("h") == "h"
    agent._paired["a"] = [0.505, 0.605, 0.405, 0.505]  # clearly but by less than prior
    assert agent.choose_paired("h") == "h"


def test_halving_takes_an_iteration_budget_only() -> None:
    entry = game("meikyu")
    rules = rules_for("meikyu")
    for bad in ("ismcts:ms=5;root=halving", "ismcts:per_deal=3;root=halving", "ismcts:root=best"):
        with pytest.raises(UsageError):
            entry.make_agent(bad, rules, 0, 1)


# --- Méa: candidates kept on settled nodes, ordered expansion, screening -------------------------


def _mea_main_decision(seed: int, moves: int = 12) -> Any:
    """A Méa state at seat 0's main phase after ``moves`` heuristic moves."""
    rules = mea_rules()
    state = rules.new_initial_state(seed)
    heuristic = [mea_agents.HeuristicAgent(rules, s, s) for s in (0, 1)]
    n = 0
    while not (state.current_player == 0 and state.phase == "main" and n > moves):
        if state.current_player == CHANCE:
            state.apply(state.sample_chance())
            continue
        p = state.current_player
        state.apply(heuristic[p].act(state.observation(p), state.legal_actions()))
        n += 1
    return rules, state


def test_mea_keeps_a_settled_nodes_candidates_and_plays_the_same_as_without() -> None:
    rules = mea_rules()
    for option in ("root=halving", "horizon=turn;root=halving", "expand=ordered"):
        runs = []
        for cache in ("on", "off"):
            spec = f"ismcts:iters=10;{option};cache={cache}"
            agents = [game("mea").make_agent(spec, rules, s, 20 + s) for s in (0, 1)]
            runs.append((play("mea", rules, agents, 4, 80), sum(a.candidate_calls for a in agents)))
        (moves_on, calls_on), (moves_off, calls_off) = runs
        assert moves_on == moves_off  # the same game, decision for decision
        assert calls_on < calls_off / 2  # but most nodes ranked their actions once, not every deal


def test_mea_settles_only_this_seats_turn_with_nothing_drawn() -> None:
    rules, state = _mea_main_decision(6)
    agent = mea_agents.IsmctsAgent(rules, 0, 1, iters=4)
    agent.start(state.observation(0))
    assert agent.settled(state)
    drawn = state.clone()
    drawn.apply(next(a for a in drawn.legal_actions() if a[0] == "draw"))  # ends the turn, drawing
    assert not agent.settled(drawn)
    assert not mea_agents.IsmctsAgent(rules, 0, 1, iters=4, cache="off").settled(state)


def _expansion_follows_the_candidates(node: Any) -> bool:
    """Below the root, every node with kept candidates grew its children in their order."""
    for child in node.children.values():
        if child.cands is not None and child.children:
            grown = list(child.children)  # in the order they were added
            if grown != list(child.cands[: len(grown)]):
                return False
        if not _expansion_follows_the_candidates(child):
            return False
    return True


def test_ordered_expansion_grows_a_node_in_its_candidates_order() -> None:
    for seed in (6, 7):
        rules, state = _mea_main_decision(seed)
        obs = state.observation(0)
        found = {}
        for expand in ("ordered", "random"):
            agent = mea_agents.IsmctsAgent(rules, 0, 3, iters=80, horizon="turn", expand=expand)
            found[expand] = _expansion_follows_the_candidates(agent.search(obs))
        assert found["ordered"]
        assert not found["random"]  # the test can fail: random expansion breaks the order


def test_screening_keeps_the_best_root_actions_at_the_shallow_horizon_for_the_rest() -> None:
    rules, state = _mea_main_decision(6)
    obs = state.observation(0)
    plain = mea_agents.IsmctsAgent(rules, 0, 5, iters=40, root="halving")
    plain.act(obs, state.legal_actions())
    assert len(plain._paired) >= 4  # every root candidate had reply-horizon deals

    class Scored(mea_agents.IsmctsAgent):
        def __init__(self, *args: Any, **kw: Any) -> None:
            super().__init__(*args, **kw)
            self.cuts: list[bool] = []
            self.kept_after_screen: list[Any] = []

        def _screen(self, *args: Any) -> Any:
            left, base, used = super()._screen(*args)
            self.kept_after_screen = list(left)
            return left, base, used

        def cut_off_screen(self, state: Any) -> bool:
            self.cuts.append(self.screening)
            return super().cut_off_screen(state)

    agent = Scored(rules, 0, 5, iters=40, root="halving", screen=2, screen_deals=2)
    action = agent.act(obs, state.legal_actions())
    state.clone().apply(action)  # checked: raises on an illegal action
    k = len(list(dict.fromkeys(agent.candidates(obs.view.determinise(0, random.Random(1))))))
    assert list(agent._paired) == agent.kept_after_screen and len(agent._paired) == 2
    assert action in agent._paired
    deals = sum(len(v) for v in agent._paired.values())
    assert agent.last_iterations == deals + 2 * k  # 2 screening deals for each root action, then the rest
    assert agent.cuts and all(agent.cuts) and not agent.screening  # the shallow cut-off, only while screening
    with pytest.raises(UsageError):
        game("mea").make_agent("ismcts:screen=2", rules, 0, 1)  # screening is halving's first round
