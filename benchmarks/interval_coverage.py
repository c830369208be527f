"""How often the 95% intervals of a mean hold the true mean, by simulation: the bounded interval of
``cardbase.stats.bounded_mean_interval`` (split advice, hints) beside the t interval with the sample
SD (``cardbase.stats.t_interval``), for scores in a known range, from 2 samples up. ::

    uv run python benchmarks/interval_coverage.py --reps 3000

Each row is a distribution of a bounded score: 0/1 scores at several rates, a Meio-like round score
(0 to 7, mostly 0 or 1), a rare-event round score, and two continuous ones in [0, 1]; each column a
sample size. A cell is "bounded coverage / t coverage" (a sample of equal values makes the t interval
a point, which covers only by luck).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from cardbase.stats import bounded_mean_interval, t_interval

SIZES = (2, 4, 8, 16, 32, 64, 128)


def distributions(rng: np.random.Generator) -> dict[str, tuple[object, float, float]]:
    def bern(p: float) -> object:
        return lambda k: (rng.random(k) < p).astype(float)

    meio_p = np.array([0.45, 0.3, 0.12, 0.07, 0.03, 0.015, 0.01, 0.005])
    rare_p = np.array([0.9, 0.07, 0.02, 0.01, 0, 0, 0, 0])
    return {
        "0/1, p = 0.02": (bern(0.02), 0.0, 1.0),
        "0/1, p = 0.05": (bern(0.05), 0.0, 1.0),
        "0/1, p = 0.3": (bern(0.3), 0.0, 1.0),
        "0/1, p = 0.5": (bern(0.5), 0.0, 1.0),
        "round score, Meio-like": (lambda k: rng.choice(8, k, p=meio_p).astype(float), 0.0, 7.0),
        "round score, mostly 0": (lambda k: rng.choice(8, k, p=rare_p).astype(float), 0.0, 7.0),
        "Beta(0.5, 3) in [0, 1]": (lambda k: rng.beta(0.5, 3, k), 0.0, 1.0),
        "Beta(20, 20) in [0, 1]": (lambda k: rng.beta(20, 20, k), 0.0, 1.0),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    print(f"coverage of 95% intervals, {args.reps} samples per cell: bounded / t")
    print("distribution".ljust(26) + "".join(f"n = {n}".rjust(14) for n in SIZES))
    for name, (draw, low, high) in distributions(rng).items():
        truth = float(np.mean(draw(2_000_000)))  # type: ignore[operator]
        cells = []
        for n in SIZES:
            bounded = t = 0
            for _ in range(args.reps):
                values = draw(n).tolist()  # type: ignore[operator]
                _, lo, hi = bounded_mean_interval(values, low, high)
                bounded += lo <= truth <= hi
                _, tlo, thi = t_interval(values)
                t += tlo <= truth <= thi
            cells.append(f"{bounded / args.reps:.3f}/{t / args.reps:.3f}".rjust(14))
        print(name.ljust(26) + "".join(cells))


if __name__ == "__main__":
    main()
