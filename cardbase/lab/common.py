"""What every lab run shares: rates with intervals, the backend the games run on, provenance."""

from __future__ import annotations

import math
import subprocess
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardbase import cores
from cardbase.errors import UsageError
from cardbase.stats import difference_interval, wilson

if TYPE_CHECKING:
    from cardbase.sim.mea import LoadedDeck, MeaGame
    from cardbase.sim.runner import ChunkMapper

MAX_JOBS = 64


@dataclass(frozen=True)
class Rate:
    """``wins`` of ``games`` and its 95% Wilson interval (NaN for no games)."""

    wins: int
    games: int

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else math.nan

    @property
    def ci(self) -> tuple[float, float]:
        return wilson(self.wins, self.games) if self.games else (math.nan, math.nan)

    def minus(self, other: Rate) -> Difference:
        d, lo, hi = difference_interval(self.wins, self.games, other.wins, other.games)
        return Difference(d, lo, hi)


@dataclass(frozen=True)
class Difference:
    """A difference of two rates and its 95% interval (Newcombe)."""

    value: float
    low: float
    high: float


def number(x: float) -> float | None:
    """``x`` for JSON: NaN (no games) as null."""
    return None if x != x else x


def default_jobs() -> int:
    """The machine's cores (those this process may use)."""
    return min(MAX_JOBS, cores.available_cores())


@contextmanager
def backend(jobs: int | None, dask: str | None) -> Iterator[ChunkMapper | None]:
    """Where the games run: ``jobs`` local processes (default: the cores), or a Dask cluster at
    ``dask`` (``local``: a LocalCluster of ``jobs`` workers). ``None``: this process."""
    if jobs is not None and not 1 <= jobs <= MAX_JOBS:
        raise UsageError(f"--jobs is 1 to {MAX_JOBS}, not {jobs}")
    n = jobs if jobs is not None else default_jobs()
    if dask is not None:
        from cardbase.sim.dask_backend import dask_backend

        with dask_backend(dask, n) as mapper:
            yield mapper
        return
    if n <= 1:
        yield None
        return
    from cardbase.sim.runner import LocalProcesses

    yield LocalProcesses(n)


def play_matchups(
    matchups: Sequence[tuple[Sequence[LoadedDeck], tuple[str, str], int]],
    options: dict[str, Any],
    games: int,
    backend: ChunkMapper | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> tuple[list[list[MeaGame]], list[str]]:
    """Méa: ``games`` games of each match-up ``(decks, agents, seed)`` (each deck first in half),
    on ``backend``, all in one stream of chunks; the games of each, and the rules' report notes (each once)."""
    from cardbase.sim.mea import make_rules, run_mea_batches

    batches = run_mea_batches(
        matchups, options, games, jobs=backend.workers if backend else 1, on_progress=on_progress, backend=backend
    )
    played = [batch.games for batch in batches]
    notes: list[str] = []
    for decks, _, _ in matchups:
        for note in make_rules([d.deck for d in decks], options).report_notes():
            if note not in notes:
                notes.append(note)
    return played, notes


def provenance() -> dict[str, Any]:
    """The package version and the git revision of the code that ran (null outside a checkout),
    so that shards of a run can be matched."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        package = version("cardbase")
    except PackageNotFoundError:
        package = None
    revision = None
    try:
        done = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=Path(__file__).resolve().parent,
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
        if done.returncode == 0:
            revision = done.stdout.strip() or None
            dirty = subprocess.run(
                ["git", "status", "--porcelain", "--untracked-files=no"],
                cwd=Path(__file__).resolve().parent,
                capture_output=True,
                text=True,
                timeout=5,
                check=False,
            )
            if revision and dirty.returncode == 0 and dirty.stdout.strip():
                revision += "-dirty"
    except (OSError, subprocess.SubprocessError):
        revision = None
    return {"version": package, "git_revision": revision}
