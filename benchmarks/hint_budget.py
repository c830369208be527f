"""How many playouts a hint needs to separate the best move from the next: the budgets of
:data:`cardbase.sim.hints.PLAYOUTS`, measured.

Positions come from heuristic self-play (every third decision of a seat with more than one legal
action that the search compares). At each, the hint is asked at several budgets (playouts per
candidate) and once at a large reference budget with another seed. Per budget the script prints:
how often the hint is ``clear`` (the best's 95% interval apart from the next best's), how often,
among the positions where the reference's top two differ by at least the game's ``--gap``, it is
clear there too (the power to separate a real difference), how often a clear hint names a move
the reference ranks below another it tells apart from it (a wrong call), and the median seconds
per hint, beside the reference's. ::

    uv run python benchmarks/hint_budget.py meio --positions 24
    uv run python benchmarks/hint_budget.py meikyu --positions 24 --budgets 64,160,400
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cardbase.games.base import CHANCE
from cardbase.sim.hints import CLEAR, NOT_SEARCHED, ONLY_MOVE, Estimate, Hint, hint
from cardbase.sim.registry import game
from cardbase.stats import intervals_overlap

DEFAULTS = {
    "meio": ("128,512,1024", 4096, (0.1, 0.25, 0.5)),
    "mea": ("24,64,160", 640, (1.0, 2.0, 4.0)),
    "meikyu": ("80,160,320", 1000, (0.02, 0.05, 0.1)),
}
"""Per game: the budgets tried, the reference budget, and the gaps (in the hint's unit) to report."""
SEPARATES = 2 + 1.2816 * 2**0.5 / 1.96
"""Two estimates with 95% intervals of half-width h (normal, equal spread) come out apart 9 times
in 10 when their means differ by this many h: 2h for the intervals, and 1.28 standard errors of
the difference (√2·h/1.96 each) for the 90%."""


def rules_of(game_id: str) -> Any:
    if game_id == "meio":
        return game("meio").make_rules({"players": 3})
    if game_id == "meikyu":
        from cardbase.sim.meikyu import prepare

        return prepare(None, "default", 3, ["heuristic"] * 3)
    from cardbase.sim.mea import make_rules, prepare

    repo = Path(__file__).resolve().parents[1]
    decks = (repo / "examples/decks/mea-goblin-rush.txt", repo / "examples/decks/mea-tile-control.txt")
    loaded = prepare(None, decks, ["heuristic", "heuristic"], {}, False)
    return make_rules([d.deck for d in loaded], {})


def positions(game_id: str, rules: Any, wanted: int) -> list[tuple[Any, Any, list[Any]]]:
    """(state, observation, legal) at decisions the search compares, from self-play games."""
    entry = game(game_id)
    out: list[tuple[Any, Any, list[Any]]] = []
    seed = 0
    while len(out) < wanted:
        seed += 1
        state = rules.new_initial_state(seed)
        agents = [entry.make_agent("heuristic", rules, s, seed * 10 + s) for s in range(rules.players)]
        k = 0
        while not state.is_terminal and len(out) < wanted:
            p = state.current_player
            if p == CHANCE:
                state.apply_unchecked(state.sample_chance())
                continue
            obs, legal = state.observation(p), list(state.legal_actions())
            if len(legal) > 1 and k % 3 == 0 and not (game_id == "meio" and obs.phase == "split"):
                probe = hint(game_id, rules, obs, legal, 0, playouts=2)
                if probe.verdict not in (NOT_SEARCHED, ONLY_MOVE):
                    out.append((state.clone(), obs, legal))
            k += 1
            state.apply(agents[p].act(obs, legal))
    return out


def wrong_call(h: Hint, ranked: list[Estimate]) -> bool:
    """A clear hint whose move the reference tells apart from its own best, and ranks below it."""
    if h.verdict != CLEAR:
        return False
    mine = next((e for e in ranked if e.text == h.best.text), None)
    if mine is None or mine is ranked[0]:
        return False
    return not intervals_overlap((mine.low, mine.high), (ranked[0].low, ranked[0].high))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=sorted(DEFAULTS))
    parser.add_argument("--positions", type=int, default=24)
    parser.add_argument("--budgets", default=None, help="playouts per candidate, comma-separated")
    parser.add_argument("--reference", type=int, default=None)
    args = parser.parse_args()
    default_budgets, default_ref, gaps = DEFAULTS[args.game]
    budgets = [int(b) for b in (args.budgets or default_budgets).split(",")]
    reference = args.reference or default_ref
    rules = rules_of(args.game)
    found = positions(args.game, rules, args.positions)
    gap_of: list[float] = []
    clear: dict[int, list[bool]] = {b: [] for b in budgets}
    wrong: dict[int, int] = dict.fromkeys(budgets, 0)
    seconds: dict[int, list[float]] = {b: [] for b in budgets}
    halves: dict[int, list[float]] = {b: [] for b in budgets}
    ref_times: list[float] = []
    for n, (_, obs, legal) in enumerate(found):
        start = time.perf_counter()
        ref = hint(args.game, rules, obs, legal, 10_000 + n, playouts=reference)
        ref_times.append(time.perf_counter() - start)
        ranked = [ref.best, *([ref.runner_up] if ref.runner_up else []), *ref.others]
        gap_of.append(abs(ref.best.mean - ref.runner_up.mean) if ref.runner_up else 0.0)
        for b in budgets:
            start = time.perf_counter()
            h = hint(args.game, rules, obs, legal, n, playouts=b)
            seconds[b].append(time.perf_counter() - start)
            clear[b].append(h.verdict == CLEAR)
            halves[b].append((h.best.high - h.best.low) / 2)
            wrong[b] += wrong_call(h, ranked)
    print(f"{args.game}: {len(found)} positions of heuristic self-play; reference {reference} playouts per candidate")
    print(
        f"  (median {statistics.median(ref_times):.2f} s); its top two differ by: "
        + ", ".join(f"≥ {g:g} in {sum(d >= g for d in gap_of)}" for g in gaps)
        + f"; median {statistics.median(gap_of):.3g}"
    )
    print(
        "budget  clear   "
        + "  ".join(f"clear where gap ≥ {g:g}" for g in gaps)
        + "  wrong  median s/hint  half-width  gap told apart 9 in 10"
    )
    for b in budgets:
        per_gap = []
        for g in gaps:
            big = [c for c, d in zip(clear[b], gap_of, strict=True) if d >= g]
            per_gap.append(f"{sum(big):>3}/{len(big):<3}".ljust(len(f"clear where gap ≥ {g:g}")))
        print(
            f"{b:>6}  {sum(clear[b]):>2}/{len(clear[b]):<3}  "
            + "  ".join(per_gap)
            + f"  {wrong[b]:>5}  {statistics.median(seconds[b]):>13.2f}  {statistics.median(halves[b]):>10.3g}"
            + f"  {SEPARATES * statistics.median(halves[b]):.3g}"
        )
    print(f"load average: {' '.join(map(str, os.getloadavg()))}")


if __name__ == "__main__":
    main()
