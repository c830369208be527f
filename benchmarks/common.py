"""Helpers shared by the benchmark scripts: timing whole commands, random play, printing a table."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
PYTHON = sys.executable


_CACHING = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
"""The environment of timed commands: bytecode is cached, as in a user's normal case."""


def wall(argv: Sequence[str], cwd: Path | None = None) -> float:
    """Seconds one run of ``argv`` takes, start to exit (output discarded)."""
    return timed(argv, cwd)[0]


def timed(argv: Sequence[str], cwd: Path | None = None) -> tuple[float, float]:
    """One run of ``argv``: its wall time and its CPU time (user and system, of the process and its
    children), in seconds. On a loaded machine the wall time also counts the waits for a core."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(list(argv), cwd=cwd, env=_CACHING, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return seconds, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def cache_bytecode() -> None:
    """Compile cardbase's modules to bytecode (``__pycache__``), as a user's first run leaves them;
    ``PYTHONDONTWRITEBYTECODE`` in a developer's shell would otherwise make every timed run compile."""
    import compileall

    compileall.compile_dir(REPO / "cardbase", quiet=1)


def interleaved_medians(commands: dict[str, Sequence[str]], runs: int, cwd: Path | None = None) -> dict[str, float]:
    """Median wall time of each command (``interleaved_times``)."""
    return interleaved_times(commands, runs, cwd)[0]


def interleaved_times(
    commands: dict[str, Sequence[str]], runs: int, cwd: Path | None = None
) -> tuple[dict[str, float], dict[str, float]]:
    """Median wall time and median CPU time of each command, the runs interleaved so drift hits all
    alike; bytecode cached first (``cache_bytecode``) and one untimed run of each (file cache)."""
    cache_bytecode()
    for argv in commands.values():
        wall(argv, cwd)
    walls: dict[str, list[float]] = {name: [] for name in commands}
    cpus: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, argv in commands.items():
            seconds, cpu = timed(argv, cwd)
            walls[name].append(seconds)
            cpus[name].append(cpu)
    median = statistics.median
    return {name: median(t) for name, t in walls.items()}, {name: median(t) for name, t in cpus.items()}


def per_call(fn: Callable[[], object], repeat: int) -> list[float]:
    """Seconds of each of ``repeat`` calls of ``fn``."""
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out


def table(title: str, rows: list[tuple[str, str, str, str]]) -> None:
    """Print rows of (measure, value, ratio, target) with Rich."""
    from rich.console import Console
    from rich.table import Table

    t = Table(title=title, title_justify="left")
    for heading in ("measure", "value", "ratio to peer", "target"):
        t.add_column(heading)
    for row in rows:
        t.add_row(*row)
    Console(markup=False).print(t)


def random_game(rules: Any, seed: int, rng: Any) -> None:
    """One random game of ``rules`` natively, seeded ``seed``: each decision drawn by ``rng.randrange``
    from ``legal_actions``, applied unchecked; chance by ``sample_chance``."""
    state = rules.new_initial_state(seed)
    while True:
        p = state.current_player
        if p >= 0:
            legal = state.legal_actions()
            state.apply_unchecked(legal[rng.randrange(len(legal))])
        elif p == -1:
            state.apply_unchecked(state.sample_chance())
        else:
            return


def spiel_random_game(game: Any, rng: Any) -> None:
    """One random game through OpenSpiel's API as its users play (``cardbase.spiel``): ``legal_actions()``
    ids drawn by ``rng.randrange``, chance by ``chance_outcomes()`` drawn by their probabilities."""
    spiel_random_game_from(game.new_initial_state(), rng)


def spiel_random_game_from(state: Any, rng: Any) -> None:
    """``spiel_random_game``'s loop over an OpenSpiel state already made."""
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            ids = [i for i, _ in outcomes]
            state.apply_action(rng.choices(ids, [w for _, w in outcomes])[0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])


def random_play(rules: Any, seconds: float, checked: bool = False, first_game: int = 0) -> tuple[float, int, float]:
    """Random games of ``rules`` (any engine of :mod:`cardbase.games.base`) for about ``seconds``,
    seeded ``first_game``, ``first_game + 1``, …: (decisions per second, games, chance actions per
    decision). A decision is one player action: read the legal actions, draw one with
    ``randrange``, apply it (``apply`` if ``checked``, else ``apply_unchecked``); chance actions
    are applied but not counted."""
    import random

    rng = random.Random(first_game)
    decisions = games = chance = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = rules.new_initial_state(first_game + games)
        apply = state.apply if checked else state.apply_unchecked
        while True:
            p = state.current_player
            if p >= 0:
                legal = state.legal_actions()
                apply(legal[rng.randrange(len(legal))])
                decisions += 1
            elif p == -1:
                apply(state.sample_chance())
                chance += 1
            else:
                break
        games += 1
    return decisions / (time.perf_counter() - start), games, chance / max(1, decisions)


def chess_random_play(seconds: float, lean: bool = False, seed: int = 1) -> tuple[float, int] | None:
    """python-chess's random play for about ``seconds``: (plies per second, games), or ``None``
    without python-chess. Its usual loop (``while not board.is_game_over()``), or with ``lean``
    one that stops only when no move is left, on insufficient material or the 75-move rule."""
    try:
        import chess
    except ImportError:
        return None
    import random

    rng = random.Random(seed)
    plies = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        board = chess.Board()
        while True:
            if lean:
                if board.halfmove_clock >= 150 or board.is_insufficient_material():
                    break
            elif board.is_game_over():
                break
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(moves[rng.randrange(len(moves))])
            plies += 1
        games += 1
    return plies / (time.perf_counter() - start), games


def timed_decisions(game_id: str, rules: Any, names: Sequence[str], g: int) -> Any:
    """Game ``g`` of the agent benchmarks, ``names[s]`` on seat ``s`` (seeded ``derive_seed(9, g, …)``,
    the same games for every script): yields ``(seat, agent, seconds, action)`` for each decision,
    the agent's thinking timed; chance is played through."""
    from cardbase.sim.registry import derive_seed, game

    entry = game(game_id)
    agents = [entry.make_agent(n, rules, s, derive_seed(9, g, s)) for s, n in enumerate(names)]
    state = rules.new_initial_state(derive_seed(9, g))
    while not state.is_terminal:
        if state.is_chance_node:
            state.apply_unchecked(state.sample_chance())
            continue
        p = state.current_player
        start = time.perf_counter()
        action = agents[p].act(state.observation(p), state.legal_actions())
        seconds = time.perf_counter() - start
        yield p, agents[p], seconds, action
        state.apply(action)
