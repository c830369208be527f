"""Méa ISMCTS with and without its kept candidates (``cache=on`` / ``cache=off``): one game
against the search agent per SPEC, the same actions either way, and how many times the
heuristic ranked a node's actions and this seat's thinking time:
``uv run python benchmarks/ismcts_cache.py 'ismcts:iters=36;root=halving' [SPEC …]``.
Not a test; never gates CI.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from bench_mea import demo_rules

from cardbase.sim.registry import derive_seed, game


def run(spec: str, rules: Any) -> tuple[list[str], int, float]:
    """One game, ``spec`` on seat 0 against search: its actions, rankings and seconds."""
    entry = game("mea")
    agents = [entry.make_agent(n, rules, s, derive_seed(9, 0, s)) for s, n in enumerate([spec, "search"])]
    state = rules.new_initial_state(derive_seed(9, 0))
    actions: list[str] = []
    seconds = 0.0
    while not state.is_terminal:
        if state.is_chance_node:
            state.apply_unchecked(state.sample_chance())
            continue
        p = state.current_player
        start = time.perf_counter()
        action = agents[p].act(state.observation(p), state.legal_actions())
        if p == 0:
            seconds += time.perf_counter() - start
        state.apply(action)
        actions.append(str(action))
    calls: int = agents[0].candidate_calls
    return actions, calls, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("specs", nargs="+")
    args = parser.parse_args()
    rules = demo_rules()
    for spec in args.specs:
        off, on = run(f"{spec};cache=off", rules), run(f"{spec};cache=on", rules)
        print(
            f"{spec:40} same actions: {off[0] == on[0]}  rankings {off[1]:6} -> {on[1]:6}"
            f"  seconds {off[2]:6.2f} -> {on[2]:6.2f}"
        )


if __name__ == "__main__":
    main()
