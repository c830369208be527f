"""Random play in Meikyu Kingdom, decisions per second, beside python-chess's random play in the same run.

    uv run --with chess python benchmarks/bench_meikyu.py [--seconds 4] [--rounds 3]

A decision is one player action: a step-2 action (a quest with its cards, a development,
an aggression, a resupply…) or a choice the rules hand out on the way (defenders, an Amulet,
the order of discards, a land to give). Chance actions — cards drawn, rooms turned up, dice —
are applied but not counted. Both loops have the same shape: read the legal actions, draw one
with ``random.Random.randrange``, apply it — Meikyu's ``apply_unchecked`` (or the checked
``apply``), python-chess's ``Board.push``. The chess loop is python-chess's usual random game,
``while not board.is_game_over(): board.push(random move)``. Measurements are interleaved over
``--rounds`` and the medians compared, so that load on the machine hits both alike; every round
plays new games (the seeds go on from the last round), so nothing is replayed.

The Meikyu games use the shipped catalog completed by the ``default`` assumption profile
(assumed values, not published ones; they do not change the engine's speed much). Without
python-chess installed the benchmark says so and reports Meikyu's rate alone. Not a test;
never gates CI.
"""

from __future__ import annotations

import argparse
import statistics

from common import chess_random_play, random_play


def meikyu_rate(players: int, seconds: float, checked: bool = False, first_game: int = 0) -> tuple[float, int, float]:
    """(decisions per second, games, chance actions per decision)."""
    from cardbase.catalog.meikyu_profiles import shipped_pool
    from cardbase.games.meikyu.engine import MeikyuRules

    return random_play(MeikyuRules(shipped_pool("default"), players=players), seconds, checked, first_game)


def chess_rate(seconds: float, seed: int = 1) -> tuple[float, int, float] | None:
    result = chess_random_play(seconds, seed=seed)
    return None if result is None else (*result, 0.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds; medians are reported")
    args = parser.parse_args()
    plan = [
        ("meikyu 2p, apply_unchecked", lambda g: meikyu_rate(2, args.seconds, first_game=g)),
        ("meikyu 3p, apply_unchecked", lambda g: meikyu_rate(3, args.seconds, first_game=g)),
        ("meikyu 4p, apply_unchecked", lambda g: meikyu_rate(4, args.seconds, first_game=g)),
        ("meikyu 5p, apply_unchecked", lambda g: meikyu_rate(5, args.seconds, first_game=g)),
        ("meikyu 4p, checked apply", lambda g: meikyu_rate(4, args.seconds, checked=True, first_game=g)),
        ("python-chess random play", lambda g: chess_rate(args.seconds, seed=g + 1)),
    ]
    runs: dict[str, list[float]] = {}
    games: dict[str, int] = {}
    next_game: dict[str, int] = {}
    chance: dict[str, float] = {}
    for _ in range(args.rounds):
        for name, run in plan:
            result = run(next_game.get(name, 0))  # new games every round: no game is replayed
            if result is None:
                continue
            runs.setdefault(name, []).append(result[0])
            games[name] = games.get(name, 0) + result[1]
            next_game[name] = games[name]
            chance[name] = result[2]
    medians = {name: statistics.median(rates) for name, rates in runs.items()}
    width = max(len(n) for n in medians)
    print(f"{'random play':{width}}  decisions/s (median of {args.rounds})   games   chance actions per decision")
    for name, rate in medians.items():
        print(f"{name:{width}}  {rate:>12,.0f}                {games[name]:>6}   {chance[name]:.2f}")
    peer = medians.get("python-chess random play")
    if peer is None:
        print("python-chess is not installed: run with `uv run --with chess python benchmarks/bench_meikyu.py`")
        return
    print()
    for players in (2, 3, 4, 5):
        ours = medians[f"meikyu {players}p, apply_unchecked"]
        print(f"ratio meikyu {players}p unchecked / python-chess: {ours / peer:.2f}x (target ≥ 5x)")
    print(f"ratio meikyu 4p checked   / python-chess: {medians['meikyu 4p, checked apply'] / peer:.2f}x")


if __name__ == "__main__":
    main()
