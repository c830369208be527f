"""Memory of the Meikyu engine's memos over a long run of random games.

    uv run --extra spiel python benchmarks/meikyu_memo.py [--games 20000] [--spiel] [--every 2000] [--sizes] \\
        [--limit N] [--sets-limit N]

Plays seeded random 3-player games (natively, or through ``cardbase.spiel`` as an OpenSpiel user
plays) and prints, every ``--every`` games: the games' CPU seconds, the process's RSS and peak RSS,
the objects the garbage collector tracks, and each memo's entries; with ``--sizes``, at the end,
each memo's bytes (its dict, then what its keys and values hold that no memo before it holds:
shared objects are counted once, in the first memo that reaches them). ``--limit`` and
``--sets-limit`` set ``MEMO_LIMIT`` and ``SETS_LIMIT`` for the run. Not a test; never gates CI.
"""

from __future__ import annotations

import argparse
import gc
import random
import resource
import sys
import time
from typing import Any

from common import random_game, spiel_random_game

from cardbase.games.meikyu import engine, tables
from cardbase.games.meikyu.rules import MeikyuRules
from cardbase.games.meikyu.tables import MeikyuTables


def rss_mb() -> tuple[float, float]:
    """(RSS now, peak RSS) of this process in MB."""
    with open("/proc/self/status") as status:
        now = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
    return now / 1024, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def memos(t: MeikyuTables) -> dict[str, dict[Any, Any]]:
    """Every dict the tables hold (the engine's memos and the agents'), by attribute name."""
    out: dict[str, dict[Any, Any]] = {}
    for name, value in vars(t).items():
        if isinstance(value, dict) and name != "agent_caches":
            out[name] = value
        elif isinstance(value, tuple) and value and all(isinstance(v, dict) for v in value):
            out.update((f"{name}[{i}]", v) for i, v in enumerate(value))
    out.update((f"agent:{k}", v) for k, v in vars(t).get("agent_caches", {}).items())
    return out


def deep_size(obj: Any, seen: set[int]) -> int:
    """Bytes of ``obj`` and what it holds, skipping what ``seen`` already counted."""
    total = 0
    stack = [obj]
    while stack:
        o = stack.pop()
        if id(o) in seen or o is None or isinstance(o, bool):
            continue
        seen.add(id(o))
        total += sys.getsizeof(o)
        if isinstance(o, dict):
            stack.extend(o.keys())
            stack.extend(o.values())
        elif isinstance(o, tuple | list | set | frozenset):
            stack.extend(o)
        elif hasattr(o, "__slots__"):
            stack.extend(getattr(o, s) for s in o.__slots__ if hasattr(o, s))
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--every", type=int, default=2_000)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--spiel", action="store_true", help="through cardbase.spiel (OpenSpiel's API)")
    parser.add_argument("--sizes", action="store_true", help="each memo's bytes at the end (slow)")
    parser.add_argument("--limit", type=int, help="MEMO_LIMIT for this run (the trade of memory for hits)")
    parser.add_argument("--sets-limit", type=int, help="SETS_LIMIT for this run")
    args = parser.parse_args()
    for module in (tables, engine):
        if args.limit:
            setattr(module, "MEMO_LIMIT", args.limit)  # noqa: B010  (engine holds its own name)
        if args.sets_limit:
            setattr(module, "SETS_LIMIT", args.sets_limit)  # noqa: B010
    rng = random.Random(0)
    if args.spiel:
        import pyspiel

        import cardbase.spiel  # noqa: F401  (registers the games)

        game = pyspiel.load_game("cardbase_meikyu", {"players": args.players})
        rules: MeikyuRules = game.rules

        def one(seed: int) -> None:
            spiel_random_game(game, rng)

    else:
        from cardbase.catalog.meikyu_profiles import shipped_pool

        rules = MeikyuRules(shipped_pool("default"), players=args.players)

        def one(seed: int) -> None:
            random_game(rules, seed, rng)

    t = rules.tables
    cpu = 0.0
    names = list(memos(t))
    print("games  cpu_s  rss_mb  peak_mb  gc_objs  " + "  ".join(names))
    for g in range(1, args.games + 1):
        start = time.process_time()
        one(g)
        cpu += time.process_time() - start
        if g % args.every == 0 or g == args.games:
            now, peak = rss_mb()
            sizes = memos(t)
            counts = "  ".join(str(len(sizes.get(n, ()))) for n in names)
            print(f"{g}  {cpu:.1f}  {now:.0f}  {peak:.0f}  {len(gc.get_objects())}  {counts}", flush=True)
    if args.sizes:
        seen: set[int] = set()
        for name, memo in memos(t).items():
            own = sys.getsizeof(memo)
            held = deep_size(memo, seen) - own if id(memo) not in seen else 0
            per = (own + held) / len(memo) if memo else 0
            mb = f"dict {own / 2**20:.1f} MB, keys+values {held / 2**20:.1f} MB"
            print(f"{name}: {len(memo)} entries, {mb}, {per:.0f} B/entry")


if __name__ == "__main__":
    main()
