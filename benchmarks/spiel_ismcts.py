"""OpenSpiel's ``ISMCTSBot`` against cardbase's ``ismcts`` agent at equal iterations, through
``cardbase.spiel``, seats swapped every game.

    uv run --extra spiel python benchmarks/spiel_ismcts.py [--iters 50] [--games 40] [--only meio] [--db cardbase.db]

Two players per game (Méa has two; Meio and Meikyu are played two-handed so that seats swap
cleanly and an even match scores 0.5). OpenSpiel's bot is ``ISMCTSBot(game,
RandomRolloutEvaluator(1), uct_c=2, max_simulations=ITERS)`` (its defaults otherwise: worlds
from ``resample_from_infostate``, the tree keyed by the information-state string, the most
visited child); it searches at every step it takes, so an action of several steps (a Meio split,
a Meikyu card set) gets ITERS simulations per step. cardbase's agent is
``ismcts:iters=ITERS`` (its own determiniser, candidates, heuristic rollouts and cut-off), asked
once per action, whose steps are then applied. Chance steps are drawn by their probabilities.
Each game's seed fixes the deal and both searchers' random streams, so a run is reproducible.

Reported per game: cardbase's score (1 a win, 0.5 a shared win, 0 a loss) with its 95% interval
(``cardbase.stats.bounded_mean_interval``: for wins and losses only, the Jeffreys interval), and
the seconds each side spent choosing. Not a test; never gates CI.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import cardbase.spiel  # noqa: F401  (registers the games with pyspiel)
from cardbase.sim.registry import GAMES
from cardbase.stats import bounded_mean_interval

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "decks"


def configs(db: str) -> dict[str, tuple[str, dict[str, Any]]]:
    decks = [str(EXAMPLES / name) for name in ("mea-goblin-rush.txt", "mea-tile-control.txt")]
    return {
        "meio": ("cardbase_meio", {"players": 2}),
        "mea": ("cardbase_mea", {"deck0": decks[0], "deck1": decks[1], "db": db}),
        "meikyu": ("cardbase_meikyu", {"players": 2}),
    }


def play(game: pyspiel.Game, ours_seat: int, iters: int, seed: int) -> tuple[float, float, float, Any]:
    """One game, cardbase's agent in ``ours_seat``: (its score, its seconds, OpenSpiel's seconds,
    the final state)."""
    rules = game.rules
    rng = random.Random(seed)
    theirs = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)),
        2.0,
        iters,
        random_state=np.random.RandomState(seed + 1),
    )
    ours = GAMES[rules.game_id].make_agent(f"ismcts:iters={iters}", rules, ours_seat, seed)
    spent = [0.0, 0.0]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([i for i, _ in outcomes], [w for _, w in outcomes])[0])
            continue
        start = time.perf_counter()
        if state.current_player() == ours_seat:
            engine = state.engine
            action = ours.act(engine.observation(ours_seat), engine.legal_actions())
            steps = engine.action_ids(action)
            spent[0] += time.perf_counter() - start
            for step in steps:
                state.apply_action(step)
        else:
            step = theirs.step(state)
            spent[1] += time.perf_counter() - start
            state.apply_action(step)
    return state.returns()[ours_seat], spent[0], spent[1], state


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--iters", type=int, default=50, help="iterations (simulations) per search, both sides")
    parser.add_argument("--games", type=int, default=40, help="games per game, seats swapped every game")
    parser.add_argument("--only", choices=("meio", "mea", "meikyu"), action="append", help="this game only")
    parser.add_argument("--db", default="", help="the database the Méa decks are read against")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    args = parser.parse_args()
    print(f"cardbase ismcts:iters={args.iters} against OpenSpiel ISMCTSBot(max_simulations={args.iters}), 2 players")
    print("game     games  cardbase score [95% interval]   as seat 0 / seat 1   s/game cardbase / openspiel")
    for label, (name, params) in configs(args.db).items():
        if args.only and label not in args.only:
            continue
        game = pyspiel.load_game(name, params)
        scores: list[list[float]] = [[], []]
        spent = [0.0, 0.0]
        for g in range(args.games):
            seat = g % 2
            score, ours, theirs, _ = play(game, seat, args.iters, args.seed + g)
            scores[seat].append(score)
            spent[0] += ours
            spent[1] += theirs
        every = scores[0] + scores[1]
        mean, low, high = bounded_mean_interval(every, 0.0, 1.0)
        by_seat = " / ".join(f"{sum(s) / len(s):.2f}" if s else "-" for s in scores)
        print(
            f"{label:<8} {len(every):>5}  {mean:.3f} [{low:.3f}, {high:.3f}]        {by_seat:<17}"
            f"    {spent[0] / len(every):.2f} / {spent[1] / len(every):.2f}"
        )


if __name__ == "__main__":
    main()
