"""ISMCTS iterations per second: cardbase's on Meio (4 players) beside OpenSpiel's
``ISMCTSBot`` on ``hearts`` (4 players), the same iterations per move, in the same run.

    uv run --with open-spiel python benchmarks/bench_agents.py [--iters 100] [--seconds 10] [--rounds 3]

Every seat is an ISMCTS agent. Only decisions that run a search are timed (cardbase's
agent plays a forced move without searching; OpenSpiel's bot searches every move), and a
rate is the iterations run divided by the seconds spent in those decisions. An iteration
of ours is one determinisation, a walk down the tree, a heuristic rollout to the end of the
round; OpenSpiel's is one world sample, a walk down the tree and a random rollout to the
end of the game (``RandomRolloutEvaluator``, one rollout) — each library's default.
OpenSpiel's hearts ``resample_from_infostate`` sometimes deals a world in which a seat has
no legal card (a card twice, or a void ignored; seen with open-spiel 2.0.2);
its rollout then stops there with zero returns instead of crashing the bot. The
measurements are interleaved over ``--rounds`` and the medians compared, so that load on
the machine hits both alike. Without open-spiel installed the benchmark says so and reports
cardbase's rate alone. Not a test; never gates CI.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any


def meio_rate(iters: int, seconds: float, first_game: int) -> tuple[float, int, int]:
    """(iterations per second, games started, decisions searched) for ``seconds`` of play."""
    from cardbase.games.meio.agents import IsmctsAgent
    from cardbase.games.meio.engine import MeioRules

    rules = MeioRules(players=4)
    spent = 0.0
    done = searched = 0
    game = first_game
    while spent < seconds:
        agents = [IsmctsAgent(rules, s, game * 10 + s, iters=iters) for s in range(4)]
        state = rules.new_initial_state(game)
        game += 1
        while not state.is_terminal and spent < seconds:
            if state.is_chance_node:
                state.resolve_chance()
                continue
            p = state.current_player
            agent = agents[p]
            agent.last_iterations = 0
            obs, legal = state.observation(p), state.legal_actions()
            start = time.perf_counter()
            action = agent.act(obs, legal)
            elapsed = time.perf_counter() - start
            if agent.last_iterations:
                spent += elapsed
                done += agent.last_iterations
                searched += 1
            state.apply_unchecked(action)
    return done / spent, game - first_game, searched


def hearts_rate(iters: int, seconds: float, first_game: int) -> tuple[float, int, int] | None:
    """OpenSpiel's ISMCTSBot on hearts, the same measure; ``None`` without open-spiel."""
    try:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import ismcts, mcts
    except ImportError:
        return None

    class Rollout(mcts.RandomRolloutEvaluator):  # type: ignore[misc]
        """OpenSpiel's random rollout, ending at a dead end (no legal action in a world
        that hearts' ``resample_from_infostate`` dealt inconsistently) with zero returns."""

        def evaluate(self, state: Any) -> Any:
            working = state.clone()
            while not working.is_terminal():
                if working.is_chance_node():
                    outcomes, probs = zip(*working.chance_outcomes(), strict=True)
                    working.apply_action(self._random_state.choice(outcomes, p=probs))
                    continue
                legal = working.legal_actions()
                if not legal:
                    return np.zeros(working.num_players())
                working.apply_action(self._random_state.choice(legal))
            return np.array(working.returns())

    game = pyspiel.load_game("hearts")
    spent = 0.0
    done = searched = 0
    g = first_game
    while spent < seconds:
        rng = np.random.RandomState(g)
        evaluator = Rollout(1, rng)
        bots = [
            ismcts.ISMCTSBot(game, evaluator, 0.7, iters, random_state=np.random.RandomState(g * 10 + s))
            for s in range(4)
        ]
        state: Any = game.new_initial_state()
        g += 1
        while not state.is_terminal() and spent < seconds:
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(actions, p=probs)))
                continue
            start = time.perf_counter()
            action = bots[state.current_player()].step(state)
            spent += time.perf_counter() - start
            done += iters
            searched += 1
            state.apply_action(action)
    return done / spent, g - first_game, searched


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--iters", type=int, default=100, help="iterations per move, both sides")
    parser.add_argument("--seconds", type=float, default=10.0, help="search time per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds; medians are reported")
    args = parser.parse_args()
    ours: list[float] = []
    peer: list[float] = []
    missing = False
    for r in range(args.rounds):
        rate, games, moves = meio_rate(args.iters, args.seconds, 1000 * r)
        ours.append(rate)
        print(f"round {r + 1}: cardbase ISMCTS, Meio 4p: {rate:9.1f} iterations/s ({games} games, {moves} searches)")
        other = hearts_rate(args.iters, args.seconds, 1000 * r)
        if other is None:
            missing = True
            continue
        peer.append(other[0])
        print(
            f"round {r + 1}: OpenSpiel ISMCTSBot, hearts:  {other[0]:9.1f} iterations/s "
            f"({other[1]} games, {other[2]} searches)"
        )
    print(f"\n{args.iters} iterations per move, medians of {args.rounds} rounds of {args.seconds:g} s")
    print(f"cardbase ISMCTS (Meio, 4 players):   {statistics.median(ours):9.1f} iterations/s")
    if missing:
        print("OpenSpiel ISMCTSBot (hearts):        not measured: open-spiel is not installed")
        print("  (run: uv run --with open-spiel python benchmarks/bench_agents.py)")
        return
    med = statistics.median(peer)
    print(f"OpenSpiel ISMCTSBot (hearts):        {med:9.1f} iterations/s")
    print(f"ratio (cardbase / OpenSpiel):        {statistics.median(ours) / med:9.2f}x")


if __name__ == "__main__":
    main()
