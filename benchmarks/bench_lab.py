"""Lab runs over workers: 2,000 heuristic Méa games in one process against 2 local worker processes.

    uv run python benchmarks/bench_lab.py [--games 2000] [--rounds 3]
    uv run --extra dask python benchmarks/bench_lab.py --dask     # also a 2-worker Dask LocalCluster

The games are those of ``cardbase lab gauntlet``: the two demo decks of ``examples/decks`` (demo
cards, not published Méa cards) read from the shipped catalog, heuristic against heuristic, each
deck first in half, through the runner's chunk backends (``run_mea_batch`` with no backend, with
``LocalProcesses(2)``, with a Dask LocalCluster of 2 single-threaded workers; the cluster's start-up
is not timed). Rounds are interleaved and the medians compared; every configuration plays the same
seeds, and the results are checked equal. The ratio is one process's time over the workers' time
(target ≥ 1.8× on 2 free cores). Not a test; never gates CI.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path
from typing import Any

from bench_mea import demo_rules

REPO = Path(__file__).resolve().parents[1]


def play(decks: Any, games: int, seed: int, backend: Any) -> tuple[float, list[Any]]:
    from cardbase.sim.mea import run_mea_batch

    started = time.perf_counter()
    batch = run_mea_batch(decks, ("heuristic", "heuristic"), {}, games, seed, backend=backend)
    return time.perf_counter() - started, [(g.index, g.winners, g.turns) for g in batch.games]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--dask", action="store_true", help="also time a 2-worker Dask LocalCluster")
    args = parser.parse_args()

    from contextlib import ExitStack

    from cardbase.sim.mea import LoadedDeck
    from cardbase.sim.runner import LocalProcesses

    rules = demo_rules()
    decks = [LoadedDeck(d.name, d) for d in rules.decks]
    backends: dict[str, Any] = {"1 process": None, "2 processes": LocalProcesses(2)}
    with ExitStack() as stack:
        if args.dask:
            from cardbase.sim.dask_backend import dask_backend

            backends["Dask 2 workers"] = stack.enter_context(dask_backend("local", 2))
        times: dict[str, list[float]] = {name: [] for name in backends}
        reference: list[Any] | None = None
        for r in range(args.rounds):
            for name, backend in backends.items():
                seconds, results = play(decks, args.games, r, backend)
                times[name].append(seconds)
                if name == "1 process":
                    reference = results
                assert results == reference, f"{name}: results differ from one process"
    base = statistics.median(times["1 process"])
    print(f"{args.games} heuristic Méa games (demo decks), median of {args.rounds} interleaved rounds")
    for name, ts in times.items():
        m = statistics.median(ts)
        print(f"  {name:15} {m:6.2f} s  {args.games / m:7.0f} games/s  speed-up {base / m:.2f}×")


if __name__ == "__main__":
    main()
