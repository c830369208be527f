"""Helpers shared by the benchmark scripts: timing whole commands and printing a table."""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PYTHON = sys.executable


def wall(argv: Sequence[str], cwd: Path | None = None) -> float:
    """Seconds one run of ``argv`` takes, start to exit (output discarded)."""
    start = time.perf_counter()
    subprocess.run(list(argv), cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def interleaved_medians(commands: dict[str, Sequence[str]], runs: int, cwd: Path | None = None) -> dict[str, float]:
    """Median wall time of each command, the runs interleaved so drift hits all alike."""
    for argv in commands.values():  # warm-up: bytecode caches, file cache
        wall(argv, cwd)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, argv in commands.items():
            times[name].append(wall(argv, cwd))
    return {name: statistics.median(t) for name, t in times.items()}


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
