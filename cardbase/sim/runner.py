"""Batch simulation: many seeded games between agents, over processes.

Game ``i`` of a batch with seed ``S`` is played from ``derive_seed(S, i)`` and its
agents from ``derive_seed(S, i, seat)``: a game's result depends only on
(rules, agents, S, i), so a batch gives the same results whatever the number of
processes.
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

from cardbase import cores
from cardbase.errors import UsageError, counted
from cardbase.games.base import CHANCE, Rules
from cardbase.sim.registry import derive_seed, game
from cardbase.sim.stats import number, wilson_interval
from cardbase.stats import score_interval

MAX_JOBS = 64
"""The most processes (``--jobs``) a run may use."""

R = TypeVar("R")
"""What one chunk of work gives (a list of game results, for batches)."""


@dataclass(frozen=True, slots=True)
class GameResult:
    """One simulated game."""

    index: int
    seed: int
    scores: tuple[float, ...]
    winners: tuple[int, ...]
    decisions: int
    record: tuple[str, ...] = ()
    reason: str = ""
    facts: tuple[tuple[str, Any], ...] = ()
    """Game-specific facts for reports (``state.facts()``, when the game's state has it)."""


def play_game(
    game_id: str,
    rules: Rules,
    agent_names: Sequence[str],
    seed: int,
    index: int,
    keep_record: bool = False,
) -> GameResult:
    """Play game ``index`` of a batch seeded ``seed`` to its end (checked moves)."""
    entry = game(game_id)
    game_seed = derive_seed(seed, index)
    agents = [
        entry.make_agent(name, rules, seat, derive_seed(seed, index, seat)) for seat, name in enumerate(agent_names)
    ]
    # An agent with ``act_on_state`` reads the state itself, only what its seat sees (as ``act``
    # reads an observation's unchanged state): no observation is made for it.
    on_state = [getattr(agent, "act_on_state", None) for agent in agents]
    state = rules.new_initial_state(game_seed)
    legal_actions, apply = state.legal_actions, state.apply
    decisions = 0
    while True:
        p = state.current_player
        if p >= 0:
            decide = on_state[p]
            if decide is not None:
                action = decide(state, legal_actions())
            else:
                action = agents[p].act(state.observation(p), legal_actions())
            apply(action)
            decisions += 1
        elif p == CHANCE:
            state.apply_unchecked(state.sample_chance())
        else:
            break
    outcome = state.outcome()
    assert outcome is not None
    record: tuple[str, ...] = ()
    if keep_record:
        from cardbase.sim.records import record_lines

        record = tuple(record_lines(rules, game_seed, state.history, agent_names, batch_seed=seed, index=index))
    facts = getattr(state, "facts", None)
    return GameResult(
        index,
        game_seed,
        outcome.scores,
        outcome.winners,
        decisions,
        record,
        outcome.reason,
        tuple(facts().items()) if callable(facts) else (),
    )


CHUNKS_PER_WORKER = 16
"""A stream of batches on workers is cut into about this many chunks per worker (of at most 50 games): the last
chunks finish close together, so workers idle little at the end; a chunk still costs its task's
overhead many games over."""


_CHUNK_RULES: dict[tuple[str, str], Rules] = {}
"""A worker's rules by game and options (as JSON): the chunks of one batch share them, as a chunk's games do."""


def _chunk_rules(game_id: str, options: dict[str, Any]) -> Rules:
    """The rules of a chunk, made once per worker for the same game and options."""
    import json

    try:
        key = (game_id, json.dumps(options, sort_keys=True))
    except (TypeError, ValueError):  # options that are not plain data: made each time
        return game(game_id).make_rules(options)
    rules = _CHUNK_RULES.get(key)
    if rules is None:
        if len(_CHUNK_RULES) >= 16:
            _CHUNK_RULES.clear()
        rules = _CHUNK_RULES[key] = game(game_id).make_rules(options)
    return rules


def _play_chunk(args: tuple[str, dict[str, Any], tuple[str, ...], int, int, int, bool]) -> list[GameResult]:
    game_id, options, agent_names, seed, start, stop, keep = args
    rules = _chunk_rules(game_id, options)
    return [play_game(game_id, rules, agent_names, seed, i, keep) for i in range(start, stop)]


def _play_tagged_chunk(
    tagged: tuple[int, tuple[str, dict[str, Any], tuple[str, ...], int, int, int, bool]],
) -> tuple[int, list[GameResult]]:
    """A chunk of batch ``b`` of a :func:`run_batches` stream, its results tagged with ``b``."""
    b, args = tagged
    return b, _play_chunk(args)


@dataclass(frozen=True)
class SeatSummary:
    """One seat's results over a batch, with 95% intervals."""

    seat: int
    agent: str
    mean_score: float
    score_low: float
    score_high: float
    wins: int
    win_rate: float
    win_low: float
    win_high: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": f"P{self.seat + 1}",
            "agent": self.agent,
            "mean_score": self.mean_score,
            "mean_score_95": [number(self.score_low), number(self.score_high)],
            "wins": self.wins,
            "win_rate": self.win_rate,
            "win_rate_95": [self.win_low, self.win_high],
        }


@dataclass
class BatchResult:
    """A finished batch."""

    game_id: str
    rules: Rules
    agents: tuple[str, ...]
    seed: int
    games: int
    jobs: int
    results: list[GameResult] = field(default_factory=list)
    elapsed: float = 0.0

    @property
    def decisions(self) -> int:
        return sum(r.decisions for r in self.results)

    @property
    def shared(self) -> int:
        """Games won by more than one seat (a tie for the best score)."""
        return sum(1 for r in self.results if len(r.winners) > 1)

    def seats(self) -> list[SeatSummary]:
        """Per seat: mean score (:func:`cardbase.stats.score_interval` over the rules'
        ``score_range``) and win rate (Wilson); a shared victory counts as a win for each seat
        sharing it."""
        out = []
        n = len(self.results)
        low, high = self.rules.score_range
        for seat, name in enumerate(self.agents):
            mean, lo, hi = score_interval([r.scores[seat] for r in self.results], low, high)
            wins = sum(1 for r in self.results if seat in r.winners)
            rate, wlo, whi = wilson_interval(wins, n)
            out.append(SeatSummary(seat, name, mean, lo, hi, wins, rate, wlo, whi))
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game_id,
            "rules": self.rules.to_options(),
            "agents": list(self.agents),
            "seed": self.seed,
            "games": self.games,
            "jobs": self.jobs,
            "decisions": self.decisions,
            "shared_victories": self.shared,
            "elapsed_seconds": round(self.elapsed, 3),
            "seats": [s.to_dict() for s in self.seats()],
        }


@dataclass(frozen=True)
class BatchPlan:
    """One batch to play: ``games`` games of ``rules`` between ``agents``, seeded ``seed``."""

    game_id: str
    rules: Rules
    agents: tuple[str, ...]
    games: int
    seed: int = 0


def run_batch(
    game_id: str,
    rules: Rules,
    agent_names: Sequence[str],
    games: int,
    seed: int = 0,
    jobs: int = 1,
    keep_records: bool = False,
    on_progress: Callable[[int], None] | None = None,
    on_records: Callable[[Sequence[str]], None] | None = None,
    backend: ChunkMapper | None = None,
) -> BatchResult:
    """Play ``games`` games; ``jobs`` > 1 spreads them over processes, a ``backend`` (e.g.
    :class:`cardbase.sim.dask_backend.DaskBackend`) over whatever it maps chunks onto.

    ``on_progress(k)`` is told each time ``k`` more games have finished;
    ``on_records(lines)`` receives each game's record, in game order.
    """
    plan = BatchPlan(game_id, rules, tuple(agent_names), games, seed)
    (batch,) = run_batches([plan], jobs, keep_records, on_progress, on_records, backend)
    return batch


def run_batches(
    plans: Sequence[BatchPlan],
    jobs: int = 1,
    keep_records: bool = False,
    on_progress: Callable[[int], None] | None = None,
    on_records: Callable[[Sequence[str]], None] | None = None,
    backend: ChunkMapper | None = None,
) -> list[BatchResult]:
    """Play several batches as one stream of chunks: on workers, the next batch's chunks start while
    the last ones of a batch finish, so no batch leaves a worker idle at its end. Each batch's results
    are those of :func:`run_batch` alone; ``on_records`` receives the records batch by batch, each in
    game order; a batch's ``elapsed`` is the time until its last game came back."""
    for plan in plans:  # fail early on a bad name
        entry = game(plan.game_id)
        for seat, name in enumerate(plan.agents):
            entry.make_agent(name, plan.rules, seat, 0)
    keep = keep_records or on_records is not None
    batches = [BatchResult(p.game_id, p.rules, p.agents, p.seed, p.games, jobs) for p in plans]
    start = time.perf_counter()
    results: list[dict[int, GameResult]] = [{} for _ in plans]
    out = [0, 0]  # the batch and the game whose record goes out next

    def collect(b: int, chunk: list[GameResult]) -> None:
        for r in chunk:
            results[b][r.index] = r
        if len(results[b]) == plans[b].games:
            batches[b].elapsed = time.perf_counter() - start
        while on_records is not None and out[0] < len(plans):
            now, i = out
            if i == plans[now].games:
                out[:] = [now + 1, 0]
            elif i in results[now]:
                on_records(results[now][i].record)
                if not keep_records:
                    results[now][i] = _strip(results[now][i])
                out[1] += 1
            else:
                break
        if on_progress is not None:
            on_progress(len(chunk))

    total = sum(p.games for p in plans)
    if backend is None and jobs > 1 and total > 1:
        backend = LocalProcesses(jobs)
    heads = [(p.game_id, p.rules.to_options(), p.agents, p.seed) for p in plans]
    if backend is None:
        for b, plan in enumerate(plans):
            step = max(1, min(25, plan.games // 100 or 1))
            for lo in range(0, plan.games, step):
                collect(b, _play_chunk((*heads[b], lo, min(plan.games, lo + step), keep)))
    else:
        for batch in batches:
            batch.jobs = backend.workers
        step = max(1, min(50, total // (backend.workers * CHUNKS_PER_WORKER) or 1))
        chunks = (
            (b, (*heads[b], lo, min(plan.games, lo + step), keep))
            for b, plan in enumerate(plans)
            for lo in range(0, plan.games, step)
        )
        for b, chunk in backend.map(_play_tagged_chunk, chunks):
            collect(b, chunk)
    for b, batch in enumerate(batches):
        batch.results = [results[b][i] for i in range(plans[b].games)]
    return batches


class ChunkMapper(Protocol):
    """Where a batch's chunks of work are done: ``map(work, chunks)`` yields ``work(chunk)`` for
    every chunk, in any order, with a bounded number in flight. The results cannot depend on it:
    every game (or play) is seeded by its index."""

    @property
    def workers(self) -> int: ...

    def map(self, work: Callable[[Any], R], chunks: Iterator[Any]) -> Iterator[R]: ...


@dataclass(frozen=True)
class LocalProcesses:
    """The local backend: ``jobs`` processes on this machine (:func:`cardbase.cores.map_in_processes`)."""

    jobs: int

    @property
    def workers(self) -> int:
        return self.jobs

    def map(self, work: Callable[[Any], R], chunks: Iterator[Any]) -> Iterator[R]:
        return cores.map_in_processes(work, chunks, self.jobs)


def _strip(result: GameResult) -> GameResult:
    return GameResult(
        result.index, result.seed, result.scores, result.winners, result.decisions, (), result.reason, result.facts
    )


def default_jobs() -> int:
    """The machine's cores (those this process may use)."""
    return min(MAX_JOBS, cores.available_cores())


@contextmanager
def backend(
    jobs: int | None, dask: str | None, note: Callable[[str], None] | None = None
) -> Iterator[ChunkMapper | None]:
    """Where the games run: ``jobs`` local processes (default: the cores), or a Dask cluster at
    ``dask`` (``local``: a LocalCluster of ``jobs`` workers, at most one per core, ``note`` told
    when fewer than asked). ``None``: this process."""
    if jobs is not None and not 1 <= jobs <= MAX_JOBS:
        raise UsageError(f"--jobs is 1 to {MAX_JOBS}, not {jobs}")
    n = jobs if jobs is not None else default_jobs()
    if dask is not None:
        from cardbase.sim.dask_backend import dask_backend

        if dask == "local" and n > cores.available_cores():
            # Each worker is a new interpreter (about a second of a core and 100 MB to start): more
            # than the cores only costs memory and start-up, and the results do not depend on it.
            n = cores.available_cores()
            if note is not None:
                cluster = f"the local Dask cluster has {counted(n, 'worker')}"
                note(f"--jobs {jobs}: this machine has {counted(n, 'core')}; {cluster}")
        with dask_backend(dask, n) as mapper:
            yield mapper
        return
    if n <= 1:
        yield None
        return
    yield LocalProcesses(n)


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
