"""The same games for the same seeds: one hash of seeded Méa games' records, to compare two trees.

    uv run python benchmarks/lab_same_games.py [--games 400]
    cd /tmp/before && PYTHONPATH=. /work/…/.venv/bin/python /work/…/benchmarks/lab_same_games.py

Plays ``--games`` seeded games heuristic against heuristic (the two demo decks, each deck on both
seats, as ``cardbase lab gauntlet`` plays them), a quarter as many random against heuristic and
search against heuristic, and replays a few dozen of the records step by step, hashing at every
step the legal actions (in order: a random agent picks by index) and each seat's observation. It
prints one SHA-256 per part and one of everything: equal hashes from two trees mean the same
games. Run it with the tree to check on ``PYTHONPATH`` (the ``cardbase`` imported is printed).
Not a test; never gates CI.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_mea import demo_rules


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    args = parser.parse_args()
    import cardbase
    from cardbase.games.mea.rules import MeaRules
    from cardbase.sim.records import parse_records, replay
    from cardbase.sim.runner import BatchPlan, run_batches

    print(f"cardbase from {Path(cardbase.__file__).resolve().parent}")
    base = demo_rules()
    swapped = MeaRules(decks=(base.decks[1], base.decks[0]))
    parts = {
        "heuristic-heuristic": [("heuristic", "heuristic"), args.games],
        "random-heuristic": [("random", "heuristic"), max(2, args.games // 4)],
        "heuristic-search": [("heuristic", "search"), max(2, args.games // 40)],
    }
    everything = hashlib.sha256()
    records: list[list[str]] = []
    for name, (agents, games) in parts.items():
        plans = [BatchPlan("mea", rules, agents, games // 2, seed) for rules, seed in ((base, 11), (swapped, 12))]
        h = hashlib.sha256()
        games_here: list[list[str]] = []

        def take(lines: object, h: object = h, games_here: list[list[str]] = games_here) -> None:
            games_here.append(list(lines))  # type: ignore[call-overload]
            for line in lines:  # type: ignore[attr-defined]
                h.update(line.encode() + b"\n")  # type: ignore[attr-defined]

        run_batches(plans, jobs=1, on_records=take)
        records += games_here[:20]
        print(f"{name:22} {len(games_here):4} games  {h.hexdigest()}")
        everything.update(h.digest())
    steps = hashlib.sha256()
    count = 0

    def watch(state: Any, action: Any, who: str) -> None:
        nonlocal count
        if who != "chance":
            steps.update(repr([str(a) for a in state.legal_actions()]).encode())
        for seat in (0, 1):
            seen = state.observation(seat)
            steps.update(json.dumps(seen.public(), sort_keys=True, default=str).encode())
            steps.update(seen.describe().encode())
        steps.update(str(action).encode())
        count += 1

    for lines in records:
        (record,) = parse_records("\n".join(lines))
        replay(record, watch=watch)
    print(f"{'steps replayed':22} {count:4}       {steps.hexdigest()}")
    everything.update(steps.digest())
    print(f"{'all':22}            {everything.hexdigest()}")


if __name__ == "__main__":
    main()
