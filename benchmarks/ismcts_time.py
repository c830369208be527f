"""Time per decision of two agents playing each other (seats swapped), to give ISMCTS the
search agent's time: ``uv run python benchmarks/ismcts_time.py GAME A B [--games N]``.

Every decision an agent takes is timed (forced ones included), in the same games, so that
load on the machine hits both alike. Not a test; never gates CI.
"""

from __future__ import annotations

import argparse
import statistics
from typing import Any

from bench_mea import demo_rules
from common import timed_decisions


def rules_for(game_id: str, players: int) -> Any:
    if game_id == "mea":
        return demo_rules()
    if game_id == "meikyu":
        from cardbase.catalog.meikyu_profiles import shipped_pool
        from cardbase.games.meikyu.engine import MeikyuRules

        return MeikyuRules(shipped_pool("default"), players=players)
    from cardbase.games.meio.engine import MeioRules

    return MeioRules(players=players)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("game", choices=["mea", "meio", "meikyu"])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    rules = rules_for(args.game, args.players)
    times: dict[str, list[float]] = {args.a: [], args.b: []}
    for g in range(args.games):
        names = [args.a, args.b] if g % 2 == 0 else [args.b, args.a]
        for p, _, seconds, _ in timed_decisions(args.game, rules, names, g):
            times[names[p]].append(seconds)
    for name, t in times.items():
        print(f"{name:32} {len(t):6} decisions  mean {1000 * statistics.mean(t):8.2f} ms  total {sum(t):7.2f} s")


if __name__ == "__main__":
    main()
