"""Where the agents of a server's tables think, and where its deck lab plays its games: in worker
processes at a lower priority (:func:`worker_pool`), so that a page a person asks for is never queued
behind an agent's search or a lab run (threads of one process share one interpreter lock; measured,
two busy agent threads make a page's work 2.5-3x slower, two busy worker processes at nice 10 leave
it as it was).

Each game goes to one worker (chosen by its id), which keeps the game's state and agents between
decisions, so an agent is the same object with the same random stream for the whole game, as at
the terminal; it is sent the game's actions as written and applies those it has not seen (a
table taken back by an undo is replayed from its seed).
"""

from __future__ import annotations

import contextlib
import hashlib
import multiprocessing
import multiprocessing.connection
import os
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, TypeVar

from cardbase.errors import ServerStopping, WorkerStopped

R = TypeVar("R")

NICE = 10
"""How much lower the workers' priority is than the server's (``nice``)."""
KEPT = 200
"""Games a worker keeps (state and agents); past it, the one unused longest is dropped and rebuilt
from its actions if it comes back."""


@dataclass
class _Game:
    """A game as a worker keeps it."""

    rules: Any
    seed: int
    state: Any
    texts: list[str] = field(default_factory=list)
    agents: dict[int, Any] = field(default_factory=dict)


_GAMES: OrderedDict[str, _Game] = OrderedDict()


def _start_worker() -> None:
    """A worker: lower priority, Ctrl-C is the server's to handle (it stops the workers), and it
    ends when the server does, however it ended (killed, it cannot stop its workers)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError):  # not allowed here: the worker still keeps agents off the server's lock
        os.nice(NICE)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_end_with, args=(parent.sentinel,), daemon=True).start()


def _end_with(sentinel: int) -> None:
    """End this worker when the process behind ``sentinel`` ends (a worker holds its own end of the
    pool's queue, so it would wait on it for ever; it also holds the server's output open)."""
    multiprocessing.connection.wait([sentinel])
    os._exit(0)


def worker_pool() -> ProcessPoolExecutor:
    """One worker process of the server's (started at its first task): spawned, never forked from a
    threaded server; at lower priority; Ctrl-C left to the server; ending when the server does."""
    context = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(max_workers=1, mp_context=context, initializer=_start_worker)


def _replayed(rules: Any, seed: int, texts: Sequence[str]) -> Any:
    from cardbase.games.base import CHANCE

    state = rules.new_initial_state(seed)
    for text in texts:
        if state.current_player == CHANCE:
            state.sample_chance()  # the RNG where the game had it
        state.apply_unchecked(state.parse_action(text))
    return state


def _kept(game_id: str, options: dict[str, Any], game: str, seed: int, texts: Sequence[str]) -> _Game:
    """In a worker: the game as it is after ``texts``, from what this worker kept of it."""
    from cardbase.sim.registry import game as entry_of

    entry = entry_of(game)
    kept = _GAMES.get(game_id)
    if kept is None:
        rules = entry.make_rules(options)
        kept = _Game(rules, seed, rules.new_initial_state(seed))
        _GAMES[game_id] = kept
    _GAMES.move_to_end(game_id)
    while len(_GAMES) > KEPT:
        _GAMES.popitem(last=False)
    if kept.texts != list(texts[: len(kept.texts)]):  # an undo took back what this worker had applied
        kept.state = _replayed(kept.rules, seed, texts)
    else:
        from cardbase.games.base import CHANCE

        for text in texts[len(kept.texts) :]:
            if kept.state.current_player == CHANCE:
                kept.state.sample_chance()
            kept.state.apply_unchecked(kept.state.parse_action(text))
    kept.texts = list(texts)
    return kept


def decide(
    game_id: str, options: dict[str, Any], game: str, seed: int, seat: int, spec: str, texts: Sequence[str]
) -> tuple[str, float]:
    """In a worker: the action (as written) of the agent ``spec`` at ``seat`` after ``texts``, and
    the seconds it thought."""
    from cardbase.sim.registry import derive_seed
    from cardbase.sim.registry import game as entry_of

    kept = _kept(game_id, options, game, seed, texts)
    agent = kept.agents.get(seat)
    if agent is None:
        agent = kept.agents[seat] = entry_of(game).make_agent(spec, kept.rules, seat, derive_seed(seed, "play", seat))
    state = kept.state
    started = time.perf_counter()
    action = agent.act(state.observation(seat), state.legal_actions())
    return str(action), time.perf_counter() - started


def advise(game_id: str, options: dict[str, Any], game: str, seed: int, seat: int, texts: Sequence[str]) -> str:
    """In a worker: the hint for ``seat`` after ``texts`` (the terminal's, in words)."""
    from cardbase.sim.play import hinter

    state = _kept(game_id, options, game, seed, texts).state
    return hinter(game, state.rules, seed)(state.observation(seat), state.clone().legal_actions())


class ProcessThinkers:
    """``workers`` worker processes, one game always to the same one."""

    def __init__(self, workers: int) -> None:
        self.pools = [worker_pool() for _ in range(max(1, workers))]

    def _index(self, game_id: str) -> int:
        return int.from_bytes(hashlib.blake2b(game_id.encode(), digest_size=4).digest(), "big") % len(self.pools)

    def pool_of(self, game_id: str) -> ProcessPoolExecutor:
        return self.pools[self._index(game_id)]

    def renew(self, game_id: str) -> None:
        """A new worker for ``game_id``'s (its process died: the games it kept are rebuilt from their actions)."""
        index = self._index(game_id)
        self.pools[index].shutdown(wait=False, cancel_futures=True)
        self.pools[index] = worker_pool()

    def think(self, game_id: str, table: Any, decision: Any) -> tuple[Any, float]:
        """The agent's action for ``decision`` at ``table``, thought in the game's worker (this
        thread waits, holding no lock)."""
        with table.lock:
            if decision.version != table.version:
                raise Moved
            texts = [str(a) for a in table.actions]
        spec = table.seats[decision.seat].spec
        future = self.pool_of(game_id).submit(
            decide, game_id, table.rules.to_options(), table.game_id, table.seed, decision.seat, spec, texts
        )
        text, seconds = future.result()
        return _parse_at(table, decision, text), seconds

    def hint(self, game_id: str, table: Any, seat: int, texts: Sequence[str]) -> str:
        """The hint for ``seat`` at ``table`` after ``texts`` (:meth:`Table.hint_position`), worked
        out in the game's worker as an agent's decision is."""
        future = self.pool_of(game_id).submit(
            advise, game_id, table.rules.to_options(), table.game_id, table.seed, seat, texts
        )
        return str(future.result())

    def close(self) -> None:
        for pool in self.pools:
            pool.shutdown(wait=False, cancel_futures=True)


class WorkerChunks:
    """A batch's chunks (:class:`cardbase.sim.runner.ChunkMapper`) played in one worker process of
    :func:`worker_pool`, two at most in flight: the deck lab of ``cardbase serve`` plays its games
    there, off the server's interpreter lock, while the run's caller still sees every chunk come back
    (its time budget and the server's stop are checked between chunks). A worker that dies is
    :class:`~cardbase.errors.WorkerStopped`, and a new one takes the next chunks."""

    workers = 1

    def __init__(self) -> None:
        self._pool = worker_pool()
        self._lock = threading.Lock()
        self._closed = False

    def map(self, work: Callable[[Any], R], chunks: Iterable[Any]) -> Iterator[R]:
        with self._lock:
            pool = self._pool
        todo = iter(chunks)
        pending: set[Future[R]] = set()
        try:
            while True:
                for chunk in todo:
                    try:
                        pending.add(pool.submit(work, chunk))
                    except BrokenProcessPool:
                        raise
                    except RuntimeError:  # closed: the server stops (its caller is told at its next chunk)
                        raise ServerStopping("the server is stopping: no more games are played") from None
                    if len(pending) == 2:
                        break
                if not pending:
                    return
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()
        except BrokenProcessPool:
            self._renew(pool)
            raise WorkerStopped(
                "the worker process playing the games stopped (killed, or out of memory) before it gave them: "
                "the server's fault, not the request's; try again (a new worker takes over)"
            ) from None
        finally:
            for future in pending:  # the caller stopped (its budget, the server's stop): what was not started
                future.cancel()

    def _renew(self, dead: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._pool is dead and not self._closed:  # not already renewed by another run, nor closed
                dead.shutdown(wait=False, cancel_futures=True)
                self._pool = worker_pool()

    def close(self) -> None:
        """No more chunks; those sent are played (at most two), so a run waiting on one is not left
        with a cancelled chunk: its caller stops it at the next (the server's stop)."""
        with self._lock:
            self._closed = True  # a worker that dies now is not renewed: no process started after the stop
            self._pool.shutdown(wait=False)


class Moved(Exception):
    """The table moved before the decision was sent: nothing to think about."""


def _parse_at(table: Any, decision: Any, text: str) -> Any:
    """The worker's action as this table's action object (read in the state it was decided in)."""
    with table.lock:
        if decision.version != table.version:
            raise Moved
        return table.state.parse_action(text)
