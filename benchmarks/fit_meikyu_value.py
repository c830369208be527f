"""Fit the Meikyu search agent's value function on heuristic self-play, and print the weights.

    uv run python benchmarks/fit_meikyu_value.py [--games 2000]

For each player count (2–5) it plays ``--games`` seeded games between heuristic agents with
the shipped catalog and the ``default`` assumption profile, records
:func:`cardbase.games.meikyu.agents.features` for every seat at the start of every turn, and
fits a logistic regression of "this seat wins the game" (a shared win counts 1/k) by Newton's
method with a small L2 penalty. It prints the hold-out log-loss (20% of the rows) against
always predicting the mean, then the ``VALUE_WEIGHTS`` table to paste into
``cardbase/games/meikyu/agents.py``. Deterministic (fixed seeds). Not a test; never gates CI.
"""

from __future__ import annotations

import argparse
import sys
import time


def collect(players: int, games: int, seed: int = 1000):  # type: ignore[no-untyped-def]
    import numpy as np

    from cardbase.catalog.meikyu_profiles import shipped_pool
    from cardbase.games.meikyu.agents import A_MAIN, features, heuristic_action
    from cardbase.games.meikyu.engine import MeikyuRules

    rules = MeikyuRules(shipped_pool("default"), players=players)
    rows: list[list[float]] = []
    labels: list[float] = []
    for g in range(games):
        state = rules.new_initial_state(seed + g)
        seen: list[tuple[int, list[float]]] = []
        last = 0
        while not state.is_terminal:
            if state.turns != last:
                last = state.turns
                seen.extend((s, features(state, s)) for s in range(players))
            p = state.current_player
            if p == -1:
                state.apply_unchecked(state.sample_chance())
            else:
                legal = () if state._ask == A_MAIN else state.legal_actions()
                state.apply_unchecked(heuristic_action(state.observation(p), legal))
        outcome = state.outcome()
        assert outcome is not None
        for s, f in seen:
            rows.append(f)
            labels.append(1.0 / len(outcome.winners) if s in outcome.winners else 0.0)
    return np.array(rows), np.array(labels)


def fit(x, y, l2: float = 1e-3, iterations: int = 50):  # type: ignore[no-untyped-def]
    import numpy as np

    w = np.zeros(x.shape[1])
    for _ in range(iterations):
        p = 1 / (1 + np.exp(-(x @ w)))
        gradient = x.T @ (p - y) / len(y) + l2 * w
        hessian = (x.T * (p * (1 - p))) @ x / len(y) + l2 * np.eye(len(w))
        w -= np.linalg.solve(hessian, gradient)
    return w


def log_loss(p, y) -> float:  # type: ignore[no-untyped-def]
    import numpy as np

    return float(-np.mean(y * np.log(p + 1e-9) + (1 - y) * np.log(1 - p + 1e-9)))


def main() -> None:
    import numpy as np

    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="self-play games per player count")
    args = parser.parse_args()
    weights = {}
    for players in (2, 3, 4, 5):
        start = time.perf_counter()
        x, y = collect(players, args.games)
        order = np.random.default_rng(0).permutation(len(y))
        cut = int(len(y) * 0.8)
        w = fit(x[order[:cut]], y[order[:cut]])
        held = order[cut:]
        p = 1 / (1 + np.exp(-(x[held] @ w)))
        base = np.full(len(held), y[order[:cut]].mean())
        print(
            f"{players} players: {len(y)} rows, hold-out log-loss {log_loss(p, y[held]):.3f} "
            f"(always the mean: {log_loss(base, y[held]):.3f}), {time.perf_counter() - start:.0f} s",
            file=sys.stderr,
        )
        weights[players] = tuple(round(float(v), 3) for v in fit(x, y))
    print("VALUE_WEIGHTS: dict[int, tuple[float, ...]] = {")
    for players, w in weights.items():
        print(f"    {players}: {w},")
    print("}")


if __name__ == "__main__":
    main()
