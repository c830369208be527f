"""Random play through OpenSpiel (``cardbase.spiel``) beside the same engine driven natively.

    uv run --extra spiel python benchmarks/bench_spiel.py [--seconds 6] [--db cardbase.db]

For each game, whole random games per second two ways, in interleaved slices (the median slice):
natively (``legal_actions``, one drawn by ``randrange``, ``apply_unchecked``; chance by
``sample_chance``), and through the adapter as an OpenSpiel user plays (``state.legal_actions()``
ids, one drawn by ``randrange``, ``apply_action``; chance by ``chance_outcomes`` drawn by their
probabilities). The adapter plays in steps (a deal is a step per card, a Meikyu card set a step
per card), so the two draw from different distributions over actions; whole games per second is
what a researcher's random play costs. Target (issue 29): the adapter ≤ 3× slower than native.
The floor: the same OpenSpiel loop over a Python game that does nothing (two legal actions, 400
steps), timed in the same slices: what OpenSpiel's API costs per step before any game work.
Timed in this process's CPU time (``time.process_time``), not wall time: on a machine shared with
other jobs the wall clock also counts the time the process waits for a core, which differs from
slice to slice and swamped the ratios.
Méa plays the two example decks (read from ``--db``). Not a test; never gates CI.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyspiel
from common import random_game, spiel_random_game

import cardbase.spiel

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "decks"


def native_runner(rules: Any) -> Callable[[float], tuple[float, int]]:
    """Random games of the engine for about ``seconds``: (games per second, games)."""
    seed = [0]

    def run(seconds: float) -> tuple[float, int]:
        rng = random.Random(seed[0])
        games = 0
        start = time.process_time()
        while time.process_time() < start + seconds:
            random_game(rules, seed[0], rng)
            seed[0] += 1
            games += 1
        return games / (time.process_time() - start), games

    return run


def spiel_runner(game: pyspiel.Game) -> Callable[[float], tuple[float, int]]:
    """The same through OpenSpiel's API on the adapter."""
    seed = [0]

    def run(seconds: float) -> tuple[float, int]:
        rng = random.Random(seed[0])
        games = 0
        start = time.process_time()
        while time.process_time() < start + seconds:
            seed[0] += 1
            spiel_random_game(game, rng)
            games += 1
        return games / (time.process_time() - start), games

    return run


class _FloorState(pyspiel.State):  # type: ignore[misc]
    """A game that does nothing: 400 steps of two legal actions (OpenSpiel's own cost per step)."""

    def __init__(self, game: pyspiel.Game):
        super().__init__(game)
        self.steps = 0

    def current_player(self) -> int:
        return 0 if self.steps < 400 else int(pyspiel.PlayerId.TERMINAL)

    def is_chance_node(self) -> bool:
        return False

    def is_terminal(self) -> bool:
        return self.steps >= 400

    def legal_actions(self, player: int | None = None) -> list[int]:
        return [0, 1]

    def _apply_action(self, step: int) -> None:
        self.steps += 1

    def returns(self) -> list[float]:
        return [0.5, 0.5]


def floor_game() -> pyspiel.Game:
    """The do-nothing game, registered once as ``bench_spiel_floor``."""
    name = "bench_spiel_floor"
    if name not in pyspiel.registered_names():
        kind = pyspiel.GameType(
            short_name=name,
            long_name=name,
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
            information=pyspiel.GameType.Information.PERFECT_INFORMATION,
            utility=pyspiel.GameType.Utility.CONSTANT_SUM,
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=2,
            min_num_players=2,
            provides_information_state_string=False,
            provides_information_state_tensor=False,
            provides_observation_string=False,
            provides_observation_tensor=False,
            parameter_specification={},
        )
        info = pyspiel.GameInfo(
            num_distinct_actions=2,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=400,
        )

        class FloorGame(pyspiel.Game):  # type: ignore[misc]
            def __init__(self, params: Any = None):
                super().__init__(kind, info, params or {})

            def new_initial_state(self) -> _FloorState:
                return _FloorState(self)

        pyspiel.register_game(kind, FloorGame)
    return pyspiel.load_game(name)


def steps_per_game(game: pyspiel.Game, games: int = 20) -> float:
    """OpenSpiel steps in a random game, on average over ``games`` games."""
    rng = random.Random(1)
    steps = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
    return steps / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="per runner, in 6 interleaved slices")
    parser.add_argument("--db", default="", help="the database the Méa decks are read against")
    args = parser.parse_args()
    decks = [str(EXAMPLES / name) for name in ("mea-goblin-rush.txt", "mea-tile-control.txt")]
    mea = {"deck0": decks[0], "deck1": decks[1], "db": args.db}
    configs = {
        "meio 4p": ("cardbase_meio", {"players": 4}),
        "mea (example decks)": ("cardbase_mea", mea),
        "meikyu 3p": ("cardbase_meikyu", {"players": 3}),
    }
    assert set(cardbase.spiel.GAMES) == {name for name, _ in configs.values()}
    runners: dict[str, Callable[[float], tuple[float, int]]] = {}
    steps: dict[str, float] = {}
    for label, (name, params) in configs.items():
        game = pyspiel.load_game(name, params)
        runners[f"{label} native"] = native_runner(game.rules)
        runners[f"{label} openspiel"] = spiel_runner(game)
        steps[label] = steps_per_game(game)
    runners["floor (a do-nothing game, 400 steps)"] = spiel_runner(floor_game())
    slices = 6
    rates: dict[str, list[float]] = {name: [] for name in runners}
    games = dict.fromkeys(runners, 0)
    for _ in range(slices):
        for name, run in runners.items():
            rate, g = run(args.seconds / slices)
            rates[name].append(rate)
            games[name] += g
    width = max(map(len, runners))
    print(f"{'random play':<{width}}  games/s  games")
    for name in runners:
        print(f"{name:<{width}}  {statistics.median(rates[name]):>7.2f}  {games[name]:>5}")
    floor_step = 1 / statistics.median(rates["floor (a do-nothing game, 400 steps)"]) / 400
    print(f"OpenSpiel's own cost per step (the floor game): {floor_step * 1e6:.2f} us")
    for label in configs:
        native = statistics.median(rates[f"{label} native"])
        spiel = statistics.median(rates[f"{label} openspiel"])
        floor = floor_step * steps[label] * native
        print(
            f"{label}: openspiel {native / spiel:.2f}x slower than native (target <= 3x); "
            f"{steps[label]:.0f} steps a game, whose floor alone is {floor:.2f}x a native game"
        )


if __name__ == "__main__":
    main()
