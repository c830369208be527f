"""Random play in Meio, decisions per second, beside OpenSpiel's hearts driven from Python.

    uv run --with open-spiel python benchmarks/bench_meio.py [--seconds 5]

A decision is one player action (chance actions — deals — are applied but not
counted, for both engines). Both loops have the same shape: read the legal
actions, draw one with ``random.Random.randrange``, apply it unchecked (ours) or
through ``apply_action`` (OpenSpiel, which checks nothing more from Python).
Without open-spiel installed the benchmark says so and reports our rate alone.
Not a test; never gates CI.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from common import random_play


def meio_runner(players: int, checked: bool = False):
    """A function running random Meio games (new ones each call) for about ``seconds``;
    returns (decisions per second, games)."""
    from cardbase.games.meio.engine import MeioRules

    rules = MeioRules(players=players)
    next_game = [0]

    def run(seconds: float) -> tuple[float, int]:
        rate, games, _ = random_play(rules, seconds, checked, first_game=next_game[0])
        next_game[0] += games
        return rate, games

    return run


def hearts_runner():
    """The same for OpenSpiel's hearts, or ``None`` if open-spiel is not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("hearts")
    rng = random.Random(1)

    def run(seconds: float) -> tuple[float, int]:
        decisions = games = 0
        start = time.perf_counter()
        deadline = start + seconds
        while time.perf_counter() < deadline:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[rng.randrange(len(legal))])
                    decisions += 1
            games += 1
        return decisions / (time.perf_counter() - start), games

    return run


def measure(runners: dict, seconds: float, slices: int = 10) -> dict[str, tuple[float, int]]:
    """Decisions per second of each runner: ``slices`` short runs each, interleaved so
    that load from elsewhere hits all alike; the median slice rate, and games played."""
    rates: dict[str, list[float]] = {name: [] for name in runners}
    games = dict.fromkeys(runners, 0)
    for _ in range(slices):
        for name, run in runners.items():
            rate, g = run(seconds / slices)
            rates[name].append(rate)
            games[name] += g
    return {name: (statistics.median(r), games[name]) for name, r in rates.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="per engine, in 10 interleaved slices")
    args = parser.parse_args()
    runners = {f"meio {n}p, apply_unchecked": meio_runner(n) for n in (2, 3, 4)}
    runners["meio 4p, checked apply"] = meio_runner(4, checked=True)
    peer_run = hearts_runner()
    if peer_run is not None:
        runners["open_spiel hearts (4p), Python"] = peer_run
    results = measure(runners, args.seconds)
    rows = [(name, rate, games) for name, (rate, games) in results.items()]
    peer = results.get("open_spiel hearts (4p), Python")
    width = max(len(r[0]) for r in rows)
    print(f"{'random play':<{width}}  decisions/s   games")
    for name, rate, games in rows:
        print(f"{name:<{width}}  {rate:>11,.0f}  {games:>6}")
    ours = rows[2][1]
    if peer is None:
        print(
            "open-spiel is not installed here (run with: uv run --with open-spiel python "
            "benchmarks/bench_meio.py); no ratio"
        )
    else:
        print(f"ratio meio 4p unchecked / open_spiel hearts: {ours / peer[0]:.2f}x (target >= 1.0x)")
        print(f"ratio meio 4p checked   / open_spiel hearts: {rows[3][1] / peer[0]:.2f}x")


if __name__ == "__main__":
    main()
