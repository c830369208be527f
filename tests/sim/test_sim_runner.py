"""Batch runs: same results for the same seed whatever the number of processes."""

from __future__ import annotations

import pytest

from cardbase.errors import UsageError
from cardbase.games.meio.engine import MeioRules
from cardbase.sim.records import parse_records, replay
from cardbase.sim.registry import GAMES, derive_seed, game
from cardbase.sim.runner import BatchPlan, LocalProcesses, run_batch, run_batches


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


class _LastFirst:
    """A backend whose chunks come back last first (as a cluster's may: in any order)."""

    workers = 2

    def map(self, work, chunks):  # type: ignore[no-untyped-def]
        return reversed([work(chunk) for chunk in chunks])


@pytest.mark.xdist_group("pools")  # starts worker processes: one such test at a time
def test_batches_in_one_stream_are_each_as_played_alone_with_records_batch_by_batch():
    plans = [
        BatchPlan("meio", MeioRules(players=2), ("random", "heuristic"), 7, seed=3),
        BatchPlan("meio", MeioRules(players=3), ("heuristic", "random", "random"), 1, seed=4),
        BatchPlan("meio", MeioRules(players=2), ("heuristic", "heuristic"), 0, seed=5),
        BatchPlan("meio", MeioRules(players=4), ("random",) * 4, 9, seed=6),
    ]
    alone = [run_batch(p.game_id, p.rules, p.agents, p.games, p.seed, keep_records=True) for p in plans]
    for backend in (None, LocalProcesses(2), _LastFirst()):
        got: list[list[str]] = []
        seen: list[int] = []
        streamed = run_batches(plans, on_records=got.append, on_progress=seen.append, backend=backend)
        assert [[r.scores for r in b.results] for b in streamed] == [[r.scores for r in b.results] for b in alone]
        assert [b.agents for b in streamed] == [p.agents for p in plans] and sum(seen) == 17
        # records go out batch by batch, each in game order, however the chunks came back
        assert [tuple(lines) for lines in got] == [r.record for b in alone for r in b.results]
        assert all(not r.record for b in streamed for r in b.results)  # not kept unless asked
        assert all(b.elapsed > 0 for b in streamed if b.games)


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
