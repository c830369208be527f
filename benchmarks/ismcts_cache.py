"""Méa ISMCTS with and without its kept candidates (``cache=on`` / ``cache=off``): one game
against the search agent per SPEC, the same actions either way, and how many times the
heuristic ranked a node's actions and this seat's thinking time:
``uv run python benchmarks/ismcts_cache.py 'ismcts:iters=36;root=halving' [SPEC …]``.
Not a test; never gates CI.
"""

from __future__ import annotations

import argparse
from typing import Any

from bench_mea import demo_rules
from common import timed_decisions


def run(spec: str, rules: Any) -> tuple[list[str], int, float]:
    """One game, ``spec`` on seat 0 against search: its actions, rankings and seconds."""
    actions: list[str] = []
    seconds = 0.0
    calls = 0
    for p, agent, took, action in timed_decisions("mea", rules, [spec, "search"], 0):
        if p == 0:
            seconds += took
            calls = agent.candidate_calls
        actions.append(str(action))
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
