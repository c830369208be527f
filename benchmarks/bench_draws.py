"""Opening-draw benchmarks: one exact single-category answer against scipy.stats.hypergeom.sf, a
joint table of three needs, and Monte Carlo hands per second against a plain numpy shuffle.

Run: uv run python benchmarks/bench_draws.py [--repeat 3000] [--trials 1000000]
Each pair is measured in the same run, interleaved, medians reported. Not a test.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import time
from math import comb
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import table

# A 40-card Méa-like deck: cheap monsters (need 0), assists (need 1), cards costing 4+ (need 2), overlaps.
CELLS = [(0b001, 10), (0b010, 6), (0b100, 4), (0b011, 3), (0b101, 2), (0b110, 2), (0b111, 1)]
DECK = 40


def interleaved(fns: dict[str, object], repeat: int, chunk: int = 50) -> dict[str, float]:
    """Median seconds per call of each function, in interleaved chunks of ``chunk`` calls."""
    times: dict[str, list[float]] = {name: [] for name in fns}
    for fn in fns.values():
        fn()  # warm-up
    for _ in range(max(1, repeat // chunk)):
        for name, fn in fns.items():
            start = time.perf_counter()
            for _ in range(chunk):
                fn()
            times[name].append((time.perf_counter() - start) / chunk)
    return {name: statistics.median(t) for name, t in times.items()}


def plain_composition_sum(cells: list[tuple[int, int]], needs: list, seen: int) -> float:
    """The reference way: loop over every composition of the hand over the groups (itertools.product)."""
    rest = DECK - sum(n for _, n in cells)
    hits = 0
    for ks in itertools.product(*(range(min(n, seen) + 1) for _, n in cells)):
        drawn = sum(ks)
        if drawn > seen:
            continue
        counts = [sum(k for (mask, _), k in zip(cells, ks, strict=True) if mask >> i & 1) for i in range(len(needs))]
        if all(need.holds(c) for need, c in zip(needs, counts, strict=True)):
            ways = comb(rest, seen - drawn)
            for (_, n), k in zip(cells, ks, strict=True):
                ways *= comb(n, k)
            hits += ways
    return hits / comb(DECK, seen)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3000, help="calls per single-category measure")
    parser.add_argument("--trials", type=int, default=1_000_000, help="hands per Monte Carlo run")
    parser.add_argument("--runs", type=int, default=5, help="Monte Carlo runs per side (median)")
    args = parser.parse_args()

    import numpy as np
    from scipy.stats import hypergeom

    from cardbase.draws.exact import Groups, Kind, Need, joint_table, probability
    from cardbase.draws.montecarlo import simulate
    from cardbase.draws.openings import Draws, PileCard

    rows: list[tuple[str, str, str, str]] = []

    # 1. One category: at least 2 of 14 in 7 cards of 40.
    groups = Groups.of([(1, 14)], size=DECK)
    need = [Need(2)]
    assert abs(probability(groups, need, 7) - hypergeom.sf(1, DECK, 14, 7)) < 1e-12
    t = interleaved(
        {
            "scipy": lambda: hypergeom.sf(1, DECK, 14, 7),
            "ours": lambda: probability(groups, need, 7),
            "ours+build": lambda: probability(Groups.of([(1, 14)], size=DECK), [Need(2)], 7),
        },
        args.repeat,
    )
    rows.append(("scipy.stats.hypergeom.sf(1, 40, 14, 7)", f"{t['scipy'] * 1e6:.1f} µs", "1", "peer"))
    rows.append(
        (
            "ours: probability(), at least 2 of 14 in 7 of 40",
            f"{t['ours'] * 1e6:.1f} µs",
            f"{t['scipy'] / t['ours']:.1f}× faster",
            "≥ 5× faster",
        )
    )
    rows.append(
        (
            "ours, building Groups and Need each call",
            f"{t['ours+build'] * 1e6:.1f} µs",
            f"{t['scipy'] / t['ours+build']:.1f}× faster",
            "≥ 5× faster",
        )
    )

    # 2. A joint table: three needs over 1..10 cards seen of a 40-card deck.
    needs = [Need(2, label="cheap monster"), Need(1, label="assist"), Need(1, Kind.AT_MOST, label="cost 4+")]
    grouped = Groups.of(CELLS, size=DECK)
    pile = [PileCard(f"g{mask}", n, mask) for mask, n in CELLS] + [PileCard("other", DECK - sum(n for _, n in CELLS))]
    seen = list(range(1, 11))
    t = interleaved(
        {
            "joint": lambda: joint_table(grouped, needs, seen),
            "answers": lambda: Draws(pile, needs).answers(seen),
        },
        max(100, args.repeat // 10),
        chunk=10,
    )
    start = time.perf_counter()
    reference = [plain_composition_sum(CELLS, needs, n) for n in seen]
    plain = time.perf_counter() - start
    assert all(abs(float(a) - b) < 1e-12 for a, b in zip(joint_table(grouped, needs, seen), reference, strict=True))
    rows.append(("plain Python sum over group compositions, 10 rows", f"{plain * 1e3:.0f} ms", "1", "reference"))
    rows.append(
        (
            "ours: joint table, 3 needs × 1..10 seen, 40 cards",
            f"{t['joint'] * 1e3:.2f} ms",
            f"{plain / t['joint']:.0f}× faster",
            "≤ 5 ms",
        )
    )
    rows.append(
        (
            "ours: the CLI's table (all together + each need alone)",
            f"{t['answers'] * 1e3:.2f} ms",
            f"{plain / t['answers']:.0f}× faster",
            "≤ 5 ms",
        )
    )

    # 3. Monte Carlo hands per second, 7 cards seen, the same three needs.
    deck = np.repeat(np.arange(len(grouped.cells)), [n for _, n in grouped.cells])
    member = np.array([[mask >> i & 1 for i in range(3)] for mask, _ in grouped.cells], dtype=np.int64)
    caps = np.array([2, 1, 1])

    def plain_numpy(trials: int, seed: int) -> int:
        rng = np.random.default_rng(seed)
        hits = 0
        left = trials
        while left:
            batch = min(left, 200_000)
            left -= batch
            hands = rng.permuted(np.tile(deck, (batch, 1)), axis=1)[:, :7]
            counts = member[hands].sum(axis=1)
            ok = (counts[:, 0] >= caps[0]) & (counts[:, 1] >= caps[1]) & (counts[:, 2] <= caps[2])
            hits += int(ok.sum())
        return hits

    rates: dict[str, list[float]] = {"plain": [], "ours": []}
    estimates: dict[str, float] = {}
    for run in range(args.runs):
        for name in ("plain", "ours"):
            start = time.perf_counter()
            if name == "plain":
                hits = plain_numpy(args.trials, run)
            else:
                hits = simulate(grouped, needs, 7, args.trials, run)[0].successes
            rates[name].append(args.trials / (time.perf_counter() - start))
            estimates[name] = hits / args.trials
    plain_rate, our_rate = statistics.median(rates["plain"]), statistics.median(rates["ours"])
    rows.append(
        (
            "plain numpy: Generator.permuted over the deck, count",
            f"{plain_rate / 1e6:.2f} M hands/s (p≈{estimates['plain']:.4f})",
            "1",
            "peer",
        )
    )
    rows.append(
        (
            "ours: simulate(), multivariate hypergeometric counts",
            f"{our_rate / 1e6:.2f} M hands/s (p≈{estimates['ours']:.4f})",
            f"{our_rate / plain_rate:.1f}×",
            "≥ 3×",
        )
    )
    rows.append(("exact answer for the Monte Carlo rows", f"{float(joint_table(grouped, needs, [7])[0]):.4f}", "", ""))
    table("Opening draws (cardbase.draws)", rows)


if __name__ == "__main__":
    main()
