"""How much a Méa ISMCTS root action's reward varies across deals under ``root=halving``:
``uv run python benchmarks/ismcts_spread.py SPEC [--games N]`` plays SPEC against search
(seats swapped) and, over its searched decisions, reports the mean of the root actions'
standard deviations across the deals they met, and the share of decisions where none varied.
Not a test; never gates CI.
"""

from __future__ import annotations

import argparse
import statistics

from bench_mea import demo_rules
from common import timed_decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("spec")
    parser.add_argument("--games", type=int, default=2)
    args = parser.parse_args()
    rules = demo_rules()
    spreads: list[tuple[float, float]] = []  # per decision: the largest and the mean deviation
    for g in range(args.games):
        names = [args.spec, "search"] if g % 2 == 0 else ["search", args.spec]
        for p, agent, _, _ in timed_decisions("mea", rules, names, g):
            paired = getattr(agent, "_paired", None) if names[p] == args.spec else None
            if paired:
                sds = [statistics.pstdev(v) for v in paired.values() if len(v) > 1]
                if sds:
                    spreads.append((max(sds), statistics.mean(sds)))
                agent._paired = {}
    if not spreads:
        print("no searched decision with two deals or more")
        return
    flat = sum(1 for top, _ in spreads if top < 1e-12) / len(spreads)
    mean = statistics.mean(m for _, m in spreads)
    print(f"{args.spec}: {len(spreads)} searched decisions, mean deviation {mean:.4f}, none varied in {flat:.0%}")


if __name__ == "__main__":
    main()
