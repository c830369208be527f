"""Where a random game through OpenSpiel (``cardbase.spiel``) spends its time, per step.

    uv run --extra spiel python benchmarks/spiel_parts.py [GAME] [--games 100] [--rounds 3]

GAME: meikyu3 (default), meio4. Random games are played as ``bench_spiel.py`` plays them
(``common.spiel_random_game``, new deals each round) and recorded: each node's legal list or chance
outcomes, the steps drawn, the engine's actions. Then, in CPU time, per game and per step:

- native: the engine's own random game (``common.random_game``), new seeds each round;
- through OpenSpiel: new games, as the benchmark plays them;
- loop and OpenSpiel: the same loop and draws over a state that replays the recorded lists and does
  no game work (its ``apply_action`` still goes through OpenSpiel's C++): what the benchmark's loop,
  its draws and OpenSpiel's API cost with this game's lists, before the adapter or the engine;
- moves: the recorded games' actions applied to a new engine state (``apply_unchecked``);
- warm: the recorded games' steps again through the adapter, so every memo holds them; less the two
  above, the adapter and the engine's step calls (``legal_ids``, ``chance_ids``, ``action_from_ids``);
- cold: through OpenSpiel less warm: what new hands cost the memos (card sets, step trees).

Not a test; never gates CI.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import pyspiel
from bench_spiel import floor_game
from common import random_game, spiel_random_game, spiel_random_game_from

import cardbase.spiel  # noqa: F401  (registers the games)

CONF = {
    "meikyu3": ("cardbase_meikyu", {"players": 3}),
    "meio4": ("cardbase_meio", {"players": 4}),
}


class _Replay(pyspiel.State):  # type: ignore[misc]
    """A recorded game's lists, node by node, with no game work."""

    def __init__(self, game: pyspiel.Game, nodes: list[tuple[bool, list[Any]]]):
        super().__init__(game)
        self.nodes = nodes
        self.at = 0

    def current_player(self) -> int:
        if self.at >= len(self.nodes):
            return int(pyspiel.PlayerId.TERMINAL)
        return -1 if self.nodes[self.at][0] else 0

    def is_chance_node(self) -> bool:
        return self.at < len(self.nodes) and self.nodes[self.at][0]

    def is_terminal(self) -> bool:
        return self.at >= len(self.nodes)

    def legal_actions(self, player: int | None = None) -> list[int]:
        return list(self.nodes[self.at][1])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(self.nodes[self.at][1])

    def _apply_action(self, step: int) -> None:
        self.at += 1

    def returns(self) -> list[float]:
        return [0.5, 0.5]


def record(game: pyspiel.Game, rng: random.Random, games: int) -> list[tuple[list[Any], list[int], list[Any]]]:
    """``games`` random games as the benchmark plays them: (nodes, steps, engine actions) each."""
    out = []
    for _ in range(games):
        state = game.new_initial_state()
        nodes: list[tuple[bool, list[Any]]] = []
        steps: list[int] = []
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                nodes.append((True, outcomes))
                step = rng.choices([i for i, _ in outcomes], [w for _, w in outcomes])[0]
            else:
                legal = state.legal_actions()
                nodes.append((False, legal))
                step = legal[rng.randrange(len(legal))]
            steps.append(step)
            state.apply_action(step)
        out.append((nodes, steps, list(state.engine.history)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="meikyu3", choices=sorted(CONF))
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    name, params = CONF[args.game]
    game = pyspiel.load_game(name, params)
    rules = game.rules
    floor = floor_game()
    clock = time.process_time
    rng = random.Random(1)
    parts: dict[str, list[float]] = {}
    steps_per_game: list[float] = []
    for r in range(args.rounds):
        start = clock()
        for i in range(args.games):
            random_game(rules, 10**6 * (r + 1) + i, rng)
        native = (clock() - start) / args.games
        start = clock()
        for _ in range(args.games):
            spiel_random_game(game, rng)
        spiel = (clock() - start) / args.games
        games = record(game, rng, args.games)
        steps = sum(len(s) for _, s, _ in games) / args.games
        start = clock()
        for nodes, _, _ in games:
            spiel_random_game_from(_Replay(floor, nodes), rng)
        loop = (clock() - start) / args.games
        start = clock()
        for _, _, actions in games:
            state = rules.new_initial_state(None)
            for action in actions:
                state.apply_unchecked(action)
        moves = (clock() - start) / args.games
        start = clock()
        for _, drawn, _ in games:
            replay_steps(game, drawn, rng)
        warm = (clock() - start) / args.games
        # (The step draws are made again in warm, as in loop, so both count them alike.)
        for key, value in {
            "native": native,
            "through OpenSpiel": spiel,
            "loop and OpenSpiel": loop,
            "moves": moves,
            "adapter and step calls (warm)": warm - loop - moves,
            "new hands (cold less warm)": spiel - warm,
        }.items():
            parts.setdefault(key, []).append(value)
        steps_per_game.append(steps)
    steps = statistics.median(steps_per_game)
    native = statistics.median(parts["native"])
    print(f"{args.game}: {steps:.0f} steps a game; medians of {args.rounds} rounds of {args.games} games, CPU time")
    for key, values in parts.items():
        value = statistics.median(values)
        per_step = value / steps * 1e6
        print(f"  {key:<30} {value * 1e3:6.2f} ms a game  {per_step:5.2f} us a step  {value / native:5.2f}x native")


def replay_steps(game: pyspiel.Game, steps: list[int], rng: random.Random) -> None:
    """A recorded game's steps through the adapter, each node's lists asked and a draw made as the
    benchmark's loop does (the draw discarded: the recorded step is applied)."""
    state = game.new_initial_state()
    for step in steps:
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            ids = [i for i, _ in outcomes]
            rng.choices(ids, [w for _, w in outcomes])
        else:
            legal = state.legal_actions()
            rng.randrange(len(legal))
        state.apply_action(step)


if __name__ == "__main__":
    main()
