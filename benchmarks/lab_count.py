"""Heuristic Méa games in one process, for an instruction count (valgrind's callgrind, which the
machine's load does not disturb):

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null python benchmarks/lab_count.py 30
    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null python benchmarks/lab_count.py 0

Plays ``N`` games of seed 7 between two heuristic agents (the two demo decks, as ``cardbase lab
gauntlet`` plays a chunk of them); with ``0``, everything else (the imports, the demo rules, one
agent made): the difference of the two runs' "Collected" counts divided by ``N`` is a game's
instructions. Run it with another tree on ``PYTHONPATH`` to count that tree's. Not a test.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_mea import demo_rules


def main() -> None:
    from cardbase.sim.registry import game
    from cardbase.sim.runner import play_game

    games = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    rules = demo_rules()
    game("mea").make_agent("heuristic", rules, 0, 0)  # the agents' modules imported in the empty run too
    for i in range(games):
        play_game("mea", rules, ("heuristic", "heuristic"), 7, i, False)


if __name__ == "__main__":
    main()
