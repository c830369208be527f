"""Random play in Méa, decisions per second, beside python-chess's random play in the same run.

    uv run --with chess python benchmarks/bench_mea.py [--seconds 5] [--rounds 3]

A decision is one player action (the shuffle, a chance action, is applied but not
counted). Both loops have the same shape: read the legal actions, draw one with
``random.Random.randrange``, apply it — Méa's ``apply_unchecked`` (or the checked
``apply``), python-chess's ``Board.push``. The chess loop is python-chess's usual
random game: ``while not board.is_game_over(): board.push(random move)``; a lean
variant that only stops when no move is left (or on insufficient material or the
75-move rule) is shown too. The measurements are interleaved over ``--rounds`` and
the medians compared, so that load on the machine hits both alike; every round
plays new games (the seeds go on from the last round), so nothing is replayed.

The Méa games are the two demo decks of ``examples/decks`` (demo cards, not published
Méa cards), read from the shipped catalog without a database. Without python-chess
installed the benchmark says so and reports Méa's rate alone. Not a test; never gates CI.
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from common import chess_random_play, random_play

REPO = Path(__file__).resolve().parents[1]
DECKS = ("mea-goblin-rush.txt", "mea-tile-control.txt")


def demo_rules():  # type: ignore[no-untyped-def]
    """Méa rules for the two example decks, read from the shipped demo catalog."""
    from cardbase.catalog.loader import game_cards
    from cardbase.games.mea.rules import MeaDeck, MeaRules

    cards = {c.name: c for c in game_cards("mea")}
    decks = []
    for filename in DECKS:
        entries = []
        for line in (REPO / "examples" / "decks" / filename).read_text(encoding="utf-8").splitlines():
            line = line.strip()
            if not line or line.startswith("#") or ":" in line:
                continue
            count, name = line.split(" ", 1)
            entries.append((cards[name], int(count)))
        decks.append(MeaDeck(filename, tuple(entries)))
    return MeaRules(decks=(decks[0], decks[1]))


def mea_rate(seconds: float, checked: bool = False, first_game: int = 0) -> tuple[float, int]:
    rate, games, _ = random_play(demo_rules(), seconds, checked, first_game)
    return rate, games


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds; medians are reported")
    args = parser.parse_args()
    runs: dict[str, list[float]] = {}
    games: dict[str, int] = {}
    next_game: dict[str, int] = {}
    plan = [
        ("méa random play, apply_unchecked", lambda g: mea_rate(args.seconds, first_game=g)),
        ("méa random play, checked apply", lambda g: mea_rate(args.seconds, checked=True, first_game=g)),
        ("python-chess random play (is_game_over loop)", lambda g: chess_random_play(args.seconds, seed=g + 1)),
        ("python-chess random play, lean loop", lambda g: chess_random_play(args.seconds, lean=True, seed=g + 1)),
    ]
    for _ in range(args.rounds):
        for name, run in plan:
            result = run(next_game.get(name, 0))  # new games every round: no game is replayed
            if result is None:
                continue
            runs.setdefault(name, []).append(result[0])
            games[name] = games.get(name, 0) + result[1]
            next_game[name] = games[name]
    medians = {name: statistics.median(rates) for name, rates in runs.items()}
    width = max(len(n) for n in medians)
    print(f"{'':{width}}  decisions/s (median of {args.rounds})   games")
    for name, rate in medians.items():
        print(f"{name:{width}}  {rate:>12,.0f}                {games[name]:>6}")
    ours = medians["méa random play, apply_unchecked"]
    checked = medians["méa random play, checked apply"]
    peer = medians.get("python-chess random play (is_game_over loop)")
    lean = medians.get("python-chess random play, lean loop")
    if peer is None:
        print("python-chess is not installed: run with `uv run --with chess python benchmarks/bench_mea.py`")
        return
    print()
    print(f"ratio méa unchecked / python-chess: {ours / peer:.2f}x (target ≥ 3x)")
    print(f"ratio méa checked   / python-chess: {checked / peer:.2f}x")
    if lean is not None:
        print(f"ratio méa unchecked / python-chess lean loop: {ours / lean:.2f}x")


if __name__ == "__main__":
    main()
