"""Batch runs: same results for the same seed whatever the number of processes."""

from __future__ import annotations

import pytest

from cardbase.errors import UsageError
from cardbase.games.meio.engine import MeioRules
from cardbase.sim.records import parse_records, replay
from cardbase.sim.registry import GAMES, derive_seed, game
from cardbase.sim.runner import run_batch


@pytest.mark.xdist_group("pools")  # starts worker processes: one such test at a time
def test_same_seed_same_results_whatever_the_jobs():
    rules = MeioRules(players=3)
    names = ["heuristic", "random", "random"]
    one = run_batch("meio", rules, names, 40, seed=9, jobs=1)
    two = run_batch("meio", rules, names, 40, seed=9, jobs=2)
    assert [r.scores for r in one.results] == [r.scores for r in two.results]
    assert [r.seed for r in one.results] == [r.seed for r in two.results]
    assert one.seats() == two.seats()
    other = run_batch("meio", rules, names, 40, seed=10, jobs=1)
    assert [r.scores for r in other.results] != [r.scores for r in one.results]


@pytest.mark.xdist_group("pools")  # starts worker processes: one such test at a time
def test_records_arrive_in_game_order_and_replay():
    rules = MeioRules(players=2)
    got: list[list[str]] = []
    batch = run_batch("meio", rules, ["random", "heuristic"], 12, seed=3, jobs=2, on_records=got.append)
    assert len(got) == 12
    records = parse_records("\n".join(line for lines in got for line in lines))
    assert [r.seed for r in records] == [r.seed for r in batch.results]
    for record, result in zip(records, batch.results, strict=True):
        replayed = replay(record)
        assert replayed.finished
        assert replayed.outcome.scores == result.scores


def test_progress_counts_every_game():
    seen = []
    run_batch("meio", MeioRules(players=4), ["random"] * 4, 30, jobs=1, on_progress=seen.append)
    assert sum(seen) == 30


def test_summary_intervals_contain_the_mean_and_count_wins():
    batch = run_batch("meio", MeioRules(players=3), ["heuristic", "random", "random"], 60, seed=1)
    for s in batch.seats():
        assert s.score_low <= s.mean_score <= s.score_high
        assert s.win_low <= s.win_rate <= s.win_high
        assert s.wins == sum(1 for r in batch.results if s.seat in r.winners)
    data = batch.to_dict()
    assert data["games"] == 60 and len(data["seats"]) == 3


def test_unknown_agent_or_game_is_a_usage_error():
    with pytest.raises(UsageError, match="unknown Meio agent 'clever'"):
        run_batch("meio", MeioRules(players=2), ["clever", "random"], 1)
    with pytest.raises(UsageError, match="no simulator for game 'chess'"):
        game("chess")
    with pytest.raises(UsageError, match="unknown Meio option"):
        GAMES["meio"].make_rules({"players": 3, "jokers": True})


def test_derived_seeds_are_stable():
    assert derive_seed(1, 2) == derive_seed(1, 2)
    assert derive_seed(1, 2) != derive_seed(2, 1)
    assert 0 <= derive_seed("x") < 2**63
