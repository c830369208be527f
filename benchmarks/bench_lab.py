"""Lab runs over workers: 2,000 heuristic Méa games in one process against 2 local worker processes.

    uv run python benchmarks/bench_lab.py [--games 2000] [--rounds 3]
    uv run --extra dask python benchmarks/bench_lab.py --dask     # also a 2-worker Dask LocalCluster
    uv run python benchmarks/bench_lab.py --gauntlet 10000 [--baseline DIR]   # the command, as a user runs it

The games are those of ``cardbase lab gauntlet``: the two demo decks of ``examples/decks`` (demo
cards, not published Méa cards) read from the shipped catalog, heuristic against heuristic, each
deck first in half, through the runner's chunk backends (``run_mea_batch`` with no backend, with
``LocalProcesses(2)``, with a Dask LocalCluster of 2 single-threaded workers; the cluster's start-up
is not timed). Rounds are interleaved and the medians compared; every configuration plays the same
seeds, and the results are checked equal. The ratio is one process's time over the workers' time
(target ≥ 1.8× on 2 free cores).

``--gauntlet N`` times the command instead, as a user runs it: ``cardbase lab gauntlet`` of the
two demo decks, N games, ``--jobs 2``, start to exit (bytecode cached); with ``--baseline DIR``
(a checkout of another commit, e.g. ``git worktree add /tmp/before main``) the same command from
that tree, interleaved round by round: the medians of wall and CPU time (the processes' own,
which the load disturbs less) and their ratios, and whether the two trees' reports are equal
(every field but the elapsed time and the revision). Not a test; never gates CI.
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


def gauntlet(games: int, rounds: int, baseline: Path | None) -> None:
    """``cardbase lab gauntlet`` of the demo decks with ``--jobs 2``, this tree and ``baseline``'s."""
    import compileall
    import json
    import os
    import resource
    import subprocess
    import sys

    trees = {"this tree": REPO} | ({"baseline": baseline.resolve()} if baseline else {})
    for tree in trees.values():  # bytecode cached, as a user's second run has it
        compileall.compile_dir(tree / "cardbase", quiet=1)
    decks = [str(REPO / "examples" / "decks" / name) for name in ("mea-goblin-rush.txt", "mea-tile-control.txt")]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    times: dict[str, list[float]] = {name: [] for name in trees}
    cpu: dict[str, list[float]] = {name: [] for name in trees}
    reports: dict[str, Any] = {}
    for _ in range(rounds):
        for name, tree in trees.items():
            argv = [sys.executable, "-m", "cardbase", "lab", "gauntlet", decks[0], "--field", decks[1]]
            argv += ["--games", str(games), "--seed", "1", "--jobs", "2", "--json"]
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            done = subprocess.run(argv, cwd=tree, env=env | {"PYTHONPATH": str(tree)}, check=True, capture_output=True)
            times[name].append(time.perf_counter() - start)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[name].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
            report = {k: v for k, v in json.loads(done.stdout).items() if k not in ("elapsed_seconds", "git_revision")}
            if reports.setdefault(name, report) != report:
                raise SystemExit(f"{name}: two runs of the same seed gave different reports")
    print(f"lab gauntlet, {games} heuristic Méa games, --jobs 2, medians of {rounds} interleaved rounds")
    print(f"  {'':10} {'wall':>9} {'CPU':>9}   rounds (wall)")
    for name, ts in times.items():
        rounds_text = ", ".join(f"{t:.2f}" for t in ts)
        print(f"  {name:10} {statistics.median(ts):7.2f} s {statistics.median(cpu[name]):7.2f} s   {rounds_text}")
    if baseline:
        wall = statistics.median(times["this tree"]) / statistics.median(times["baseline"])
        cpu_ratio = statistics.median(cpu["this tree"]) / statistics.median(cpu["baseline"])
        same = "equal" if reports["this tree"] == reports["baseline"] else "DIFFER"
        print(f"  this tree / baseline: {wall:.2f}× wall, {cpu_ratio:.2f}× CPU; the reports {same}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--dask", action="store_true", help="also time a 2-worker Dask LocalCluster")
    parser.add_argument("--gauntlet", type=int, default=None, metavar="N", help="time `lab gauntlet` of N games")
    parser.add_argument("--baseline", type=Path, default=None, help="with --gauntlet: a checkout to compare with")
    args = parser.parse_args()
    if args.gauntlet:
        gauntlet(args.gauntlet, args.rounds, args.baseline)
        return

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
