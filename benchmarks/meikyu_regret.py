"""How far the Meikyu agents' step-2 choices fall from the best, by the search agent's own model:
``uv run python benchmarks/meikyu_regret.py SPEC [SPEC ...] [--truth-samples 300]``.

Plays 40 seeded 2-player games (the search agent with 8 samples on both seats), keeps about one
step-2 decision in eight, and scores every candidate of each (the heuristic's 8 best options and
resupply) with 300 paired samples of the search agent's rollout and value function (the
"truth"). Each SPEC (``search:samples=32`` or ``ismcts:iters=96;root=halving``, options as for
``--agents``) then decides every kept decision with three seeds; its regret is the truth's best
value minus the truth's value of its choice (0 when it chose the best). A screening measure,
far cheaper than games: it judges the choice among candidates, not the candidates or the model.
Deterministic for iteration budgets. Not a test; never gates CI.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from cardbase.catalog.meikyu_profiles import shipped_pool
from cardbase.games.meikyu.agents import A_MAIN, SearchAgent, main_options
from cardbase.games.meikyu.engine import MeikyuRules
from cardbase.sim.registry import game


def decisions(rules: MeikyuRules, truth_samples: int) -> list[tuple[Any, Any, dict[Any, float]]]:
    """The kept decisions: observation, legal actions, and each candidate's true value."""
    pick = random.Random(7)
    kept: list[tuple[Any, Any]] = []
    for g in range(40):
        state = rules.new_initial_state(100 + g)
        agents = [SearchAgent(rules, s, g * 10 + s, samples=8) for s in range(2)]
        while not state.is_terminal:
            if state.is_chance_node:
                state.apply_unchecked(state.sample_chance())
                continue
            p = state.current_player
            obs, legal = state.observation(p), state.legal_actions()
            if obs.ask == A_MAIN and pick.random() < 0.12:
                kept.append((obs, legal))
            state.apply(agents[p].act(obs, legal))
    out = []
    for obs, legal in kept:
        judge = SearchAgent(rules, obs.player, 1, samples=truth_samples, candidates=8, prior=0.0, confidence=0.0)
        out.append((obs, legal, dict(judge.evaluate(obs, legal))))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("specs", nargs="+")
    parser.add_argument("--truth-samples", type=int, default=300)
    args = parser.parse_args()
    rules = MeikyuRules(shipped_pool("default"), players=2)
    start = time.perf_counter()
    kept = decisions(rules, args.truth_samples)
    scored = sum(len(t) > 1 for _, _, t in kept)
    print(f"{scored} decisions with 2 or more candidates, truth in {time.perf_counter() - start:.0f} s")
    heuristic = [max(t.values()) - t[main_options(o, 1)[0][1]] for o, _, t in kept if len(t) > 1]
    print(f"{'heuristic (its first option)':44} regret {1000 * statistics.mean(heuristic):6.2f} / 1000")
    entry = game("meikyu")
    for spec in args.specs:
        regrets: list[float] = []
        start = time.perf_counter()
        for seed in range(3):
            for i, (obs, legal, truth) in enumerate(kept):
                if len(truth) < 2:
                    continue
                agent = entry.make_agent(spec, rules, obs.player, seed * 1000 + i)
                action = agent.act(obs, legal)
                regrets.append(max(truth.values()) - truth[action])
        mean = statistics.mean(regrets)
        error = statistics.stdev(regrets) / len(regrets) ** 0.5
        best = sum(r == 0 for r in regrets)
        print(
            f"{spec:44} regret {1000 * mean:6.2f} ± {1000 * error:.2f} / 1000, "
            f"the best in {best} of {len(regrets)}, {time.perf_counter() - start:.0f} s"
        )


if __name__ == "__main__":
    main()
