"""The tables a server keeps: games in play in memory and in the database, agents thinking off
the callers' threads, and who is told when a table moves.

- **Stored.** Every change is written (one transaction) before anyone is told of it; a write the
  database refuses takes the table back to what is stored, and the caller gets the error.
  :meth:`Hall.resume` brings back every game still being played (its actions replayed and
  checked), so a restarted server carries on where it stopped.
- **Serialised.** One table changes under its own lock, and each change is made on a version:
  two seats acting at once, or a seat acting on an old view, get :class:`~cardbase.sim.table.Stale`.
- **Agents.** An agent's decision runs in a small pool of threads of its own (``workers``), never
  in the thread that asked for a page; a table has at most one decision in flight, so one game's
  agents queue behind each other and never hold another game's lock. Each agent's work per
  decision is bounded by its options (:data:`MAX_ITERATIONS`, :data:`MAX_SAMPLES`,
  :data:`MAX_MS`) and shown with the time its last decision took.
- **Bounded.** At most ``max_active`` games in play; a game no one has moved in ``idle_hours``
  is marked abandoned (its record kept) and leaves memory.
- **Keys.** A person's seat has a key of 192 bits from :mod:`secrets`; the hall keeps only its
  SHA-256 and compares in constant time.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cardbase.errors import CardbaseError, UsageError, counted
from cardbase.games.base import Rules
from cardbase.sim import table_store as store
from cardbase.sim.table import HUMAN, Table, seat_name
from cardbase.terminal import log_line

if TYPE_CHECKING:
    from cardbase.db.engine import Database
    from cardbase.sim.thinkers import ProcessThinkers

MAX_ITERATIONS = 4_000
"""The most ISMCTS iterations per decision an agent at the server's tables may take (default 400)."""
MAX_SAMPLES = 200
"""The most samples per decision of a search agent at the server's tables (defaults 6 to 32)."""
MAX_MS = 10_000
"""The most milliseconds per decision of an ISMCTS agent with a time budget."""
DEFAULT_MAX_ACTIVE = 100
DEFAULT_IDLE_HOURS = 24.0
KEY_BYTES = 24
"""A seat key's bytes (192 bits; URL-safe base64, 32 characters)."""
RETRY_SECONDS = 2.0
"""After the database refused an agent's move, the hall tries that decision again this much later."""
FINISHED_KEPT = 32
"""Finished games kept in memory after they were looked at (their pages and records)."""


class _Retry(Exception):
    """An agent's decision to take again a little later (its worker process stopped)."""


class TooManyGames(CardbaseError):
    """The server holds its bound of games in play (503: try again when one ends)."""

    exit_code = 2


class TooManyStreams(CardbaseError):
    """The game, or the server, holds its bound of open event streams (503: try again when one closes)."""

    exit_code = 2


MAX_STREAMS_PER_GAME = 50
"""Open event streams one game takes (its seats and watchers, each page one)."""
MAX_STREAMS = 1_000
"""Open event streams the server takes in all, whatever the games (a finished game's stream counts
too): each is a task and a connection held open."""


class HintsBusy(CardbaseError):
    """Every hint slot of the server is working out a hint (503: try again in a moment)."""

    exit_code = 2


HINT_WAIT_SECONDS = 5.0
"""How long a hint waits for a free slot before the answer says to try again."""
HINTS_KEPT = 256
"""Hints remembered (by game, version and seat): asking again for the same position costs nothing."""


class UnknownGame(UsageError):
    """No game with this id (404)."""


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()


def check_budget(spec: str, agent: Any) -> None:
    """An agent whose work per decision is over the server's bound is a usage error naming it."""
    iterations = getattr(agent, "iterations", None)
    seconds = getattr(agent, "seconds", None)
    samples = getattr(agent, "samples", None)
    if iterations is not None and iterations > MAX_ITERATIONS:
        raise UsageError(f"agent {spec!r}: at most {MAX_ITERATIONS:,} iterations per decision at the server's tables")
    if seconds is not None and seconds * 1000 > MAX_MS:
        raise UsageError(f"agent {spec!r}: at most {MAX_MS:,} ms per decision at the server's tables")
    if samples is not None and samples > MAX_SAMPLES:
        raise UsageError(f"agent {spec!r}: at most {MAX_SAMPLES:,} samples per decision at the server's tables")


@dataclass
class LiveTable:
    """A table in the hall: the game, its id and key hashes, and what is stored of it."""

    id: str
    table: Table
    key_hashes: list[str | None]
    stored: int
    """How many of the table's actions are stored."""
    touched: float = field(default_factory=time.monotonic)
    thinking: bool = False
    error: str | None = None
    """The database's refusal of the last agent move (while the hall tries again), or an agent's bug."""
    broken: bool = False
    """An agent failed (a bug): the game waits, its crash written once, not retried."""

    def seat_of(self, key: str | None) -> int | None:
        """The seat ``key`` opens, or ``None``."""
        if not key:
            return None
        digest = key_hash(key)
        found = None
        for seat, stored in enumerate(self.key_hashes):
            if stored is not None and secrets.compare_digest(stored, digest):
                found = seat
        return found


class Hall:
    """The server's tables (thread-safe)."""

    def __init__(
        self,
        database: Database,
        *,
        max_active: int = DEFAULT_MAX_ACTIVE,
        idle_hours: float = DEFAULT_IDLE_HOURS,
        workers: int = 2,
        processes: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``workers``: how many agent decisions run at once; with ``processes``, each in a worker
        process of lower priority (:mod:`cardbase.sim.thinkers`; what ``cardbase serve`` does), else
        in a thread of this process."""
        self.database = database
        self.max_active = max_active
        self.idle_seconds = idle_hours * 3600
        self.clock = clock
        self._tables: dict[str, LiveTable] = {}
        self._finished: OrderedDict[str, LiveTable] = OrderedDict()
        self._lock = threading.Lock()
        self._listeners: dict[str, list[Callable[[], None]]] = {}
        self._executor = ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="cardbase-agent")
        self._thinkers: ProcessThinkers | None = None
        if processes:
            from cardbase.sim.thinkers import ProcessThinkers

            self._thinkers = ProcessThinkers(workers)
        self._hint_slots = threading.BoundedSemaphore(max(1, workers))
        self._hints: OrderedDict[tuple[str, int, int], str] = OrderedDict()
        self._closed = False
        self._swept = 0.0
        self._resumed = False
        self._settled = threading.Condition()
        self.problems: list[str] = []
        """What :meth:`resume` found: games that no longer replay."""

    # -- life ----------------------------------------------------------------------------

    def ensure_resumed(self) -> None:
        """:meth:`resume`, once."""
        if self._resumed:
            return
        with self._lock:
            if self._resumed:
                return
            self._resumed = True
        self.problems = self.resume()

    @property
    def closed(self) -> bool:
        return self._closed

    def resume(self) -> list[str]:
        """Bring back every game still being played (idle past the expiry: abandoned); the lines
        to print about games that no longer replay."""
        problems = []
        for stored in store.unfinished_games(self.database):
            idle = store.age_seconds(stored.updated_at)
            if idle > self.idle_seconds:
                store.set_status(self.database, stored.id, store.ABANDONED)
                continue
            try:
                live = self._restore(stored)
                live.touched = self.clock() - idle
            except CardbaseError as error:
                store.set_status(self.database, stored.id, store.ABANDONED)
                problems.append(f"game {stored.id} abandoned: {error}")
                continue
            with self._lock:
                self._tables[stored.id] = live
            self._kick(live)
        return problems

    def close(self) -> None:
        """Stop taking agent decisions (those thinking finish, and their moves are dropped)."""
        self._closed = True
        self._executor.shutdown(wait=False, cancel_futures=True)
        if self._thinkers is not None:
            self._thinkers.close()

    def _restore(self, stored: store.StoredGame) -> LiveTable:
        from cardbase.sim.registry import game

        rules = game(stored.game).make_rules(stored.rules)
        table = Table.restore(
            rules, stored.seed, stored.seats, stored.actions, version=stored.version, labels=stored.labels
        )
        if stored.status == store.ABANDONED:
            table.abandoned = True
        return LiveTable(stored.id, table, list(stored.key_hashes), len(stored.actions))

    # -- games ---------------------------------------------------------------------------

    @property
    def active(self) -> int:
        with self._lock:
            return len(self._tables)

    def create(
        self, rules: Rules, seats: Sequence[str], seed: int | None = None, labels: dict[str, Any] | None = None
    ) -> tuple[str, dict[int, str]]:
        """A new game: its id and a key for each person's seat."""
        self.sweep(force=True)
        if seed is None:
            from cardbase.sim.registry import new_seed

            seed = new_seed()
        table = Table(rules, seed, seats, labels=labels)
        for seat in table.seats:
            if seat.agent is not None:
                check_budget(seat.spec, seat.agent)
        keys = {s: secrets.token_urlsafe(KEY_BYTES) for s, spec in enumerate(seats) if spec == HUMAN}
        hashes = [key_hash(keys[s]) if s in keys else None for s in range(len(seats))]
        game_id = secrets.token_urlsafe(9)
        with self._lock:
            if len(self._tables) >= self.max_active:
                raise TooManyGames(
                    f"the server holds its bound of {counted(self.max_active, 'game')} in play (serve --max-games): "
                    "try again when one ends"
                )
            live = LiveTable(game_id, table, hashes, len(table.actions))
            self._tables[game_id] = live  # held before the write, so that the bound holds under races
        try:
            store.insert_game(
                self.database,
                game_id,
                rules.game_id,
                rules.to_options(),
                seed,
                seats,
                hashes,
                table.labels,
                table.texts(),
                table.version,
            )
        except BaseException:
            with self._lock:
                self._tables.pop(game_id, None)
            raise
        self._kick(live)
        return game_id, keys

    def get(self, game_id: str) -> LiveTable:
        """The game ``game_id`` (a finished one is read back from the database); :class:`UnknownGame`."""
        self.sweep()
        with self._lock:
            live = self._tables.get(game_id) or self._finished.get(game_id)
            if live is not None and game_id in self._finished:
                self._finished.move_to_end(game_id)
        if live is not None:
            return live
        if len(game_id) > 40:
            raise UnknownGame(f"no game {game_id[:40]!r}…")
        stored = store.load_game(self.database, game_id)
        if stored is None:
            raise UnknownGame(f"no game {game_id!r} at this server's tables")
        live = self._restore(stored)
        with self._lock:
            if stored.status == store.PLAYING and game_id not in self._tables:
                self._tables[game_id] = live  # stored by another server process: play it here
            else:
                self._keep_finished(live)
        self._kick(live)
        return live

    def _keep_finished(self, live: LiveTable) -> None:
        self._finished[live.id] = live
        while len(self._finished) > FINISHED_KEPT:
            self._finished.popitem(last=False)

    def act(self, game_id: str, seat: int, action: str | int, version: int | None) -> Any:
        """``seat`` takes ``action`` (see :meth:`Table.act`), stored before anyone is told."""
        live = self.get(game_id)
        with live.table.lock:
            before = live.table.version
            taken = live.table.act(seat, action, version)
            self._store(live, before)
        self._after_change(live)
        return taken

    def undo(self, game_id: str, seat: int, version: int | None) -> Any:
        """``seat`` takes back its last action (see :meth:`Table.undo`)."""
        live = self.get(game_id)
        with live.table.lock:
            before = live.table.version
            taken = live.table.undo(seat, version)
            self._store(live, before)
        self._after_change(live)
        return taken

    def _store(self, live: LiveTable, version: int) -> None:
        """Write the table's change made on ``version``; if the database refuses, take the table back."""
        table = live.table
        keep = min(live.stored, len(table.actions))
        outcome = table.state.outcome()
        try:
            store.save_progress(
                self.database,
                live.id,
                version,
                table.version,
                keep,
                table.texts(keep),
                table.status,
                outcome.to_dict() if outcome is not None else None,
            )
        except BaseException:
            table.rollback(live.stored, version)
            raise
        live.stored = len(table.actions)
        live.touched = self.clock()
        live.error = None

    def _after_change(self, live: LiveTable) -> None:
        if live.table.over:
            with self._lock:
                if self._tables.pop(live.id, None) is not None:
                    self._keep_finished(live)
        self._notify(live.id)
        self._kick(live)

    # -- agents --------------------------------------------------------------------------

    def _kick(self, live: LiveTable) -> None:
        """Start the next agent decision of ``live`` unless one is under way."""
        if self._closed:
            return
        with live.table.lock:
            if live.thinking or live.broken or live.table.decision() is None:
                return
            live.thinking = True
        try:
            self._executor.submit(self._think, live)
        except RuntimeError:  # the pool is shut down
            live.thinking = False

    def _think(self, live: LiveTable) -> None:
        """One agent decision of ``live``: thought about off the table's lock (in a worker process,
        or this thread), applied if the table has not moved meanwhile, stored, told; then the next."""
        table = live.table
        changed = retry = False
        try:
            decision = table.decision()
            thought = self._decide(live, decision) if decision is not None and not self._closed else None
            if thought is not None and not self._closed:
                assert decision is not None
                action, seconds = thought
                with table.lock:
                    before = table.version
                    if table.apply_decision(decision, action, seconds):
                        try:
                            self._store(live, before)
                            changed = True
                        except Exception as error:
                            live.error = (
                                f"the database refused {seat_name(decision.seat)}'s move ({error}); trying again"
                            )
                            retry = True
        except _Retry as again:
            live.error = str(again)
            retry = True
        except Exception as error:  # a bug in an agent: this game waits, the server goes on
            from cardbase.crash import crash_report

            live.broken = True
            live.error = crash_report(error, f"cardbase serve: agent of game {live.id}")
            log_line(f"cardbase: {live.error}")
            self._notify(live.id)
        finally:
            with table.lock:
                live.thinking = False
            with self._settled:
                self._settled.notify_all()
        if retry:
            timer = threading.Timer(RETRY_SECONDS, self._kick, (live,))
            timer.daemon = True
            timer.start()
            self._notify(live.id)
        elif changed:
            self._after_change(live)
        else:
            self._kick(live)

    def _decide(self, live: LiveTable, decision: Any) -> tuple[Any, float] | None:
        """The agent's action and its seconds, or ``None`` if the table moved first (an undo)."""
        if self._thinkers is None:
            return live.table.think(decision)
        from concurrent.futures.process import BrokenProcessPool

        from cardbase.sim.thinkers import Moved

        try:
            return self._thinkers.think(live.id, live.table, decision)
        except Moved:
            return None
        except BrokenProcessPool:
            self._thinkers.renew(live.id)
            raise _Retry("an agent's worker process stopped; a new one takes over") from None

    def hint(self, live: LiveTable, seat: int) -> str:
        """The hint for ``seat``, who is to move at ``live``: worked out where the agents think (a
        worker process under ``cardbase serve``), at most as many at once as agents' decisions,
        and remembered for the position (the same position gives the same hint)."""
        key = (live.id, live.table.version, seat)
        with self._lock:
            if key in self._hints:
                return self._hints[key]
        texts = live.table.hint_position(seat)  # refused at once if it is not that seat's turn
        if not self._hint_slots.acquire(timeout=HINT_WAIT_SECONDS):
            raise HintsBusy(f"the server is working out other hints (waited {HINT_WAIT_SECONDS:g} s); try again")
        try:
            if self._thinkers is None:
                text = live.table.hint(seat)
            else:
                from concurrent.futures.process import BrokenProcessPool

                try:
                    text = self._thinkers.hint(live.id, live.table, seat, texts)
                except BrokenProcessPool:
                    self._thinkers.renew(live.id)
                    raise HintsBusy("the hint's worker process stopped; a new one takes over: try again") from None
        finally:
            self._hint_slots.release()
        with self._lock:
            self._hints[key] = text
            while len(self._hints) > HINTS_KEPT:
                self._hints.popitem(last=False)
        return text

    def wait_quiet(self, game_id: str, timeout: float = 120.0) -> bool:
        """Wait until no agent of the game is to move or thinking (a person to move, or the end);
        ``False`` if that takes longer than ``timeout`` seconds (for tests and benchmarks)."""
        live = self.get(game_id)
        deadline = time.monotonic() + timeout

        def quiet() -> bool:
            with live.table.lock:
                return not live.thinking and (live.table.decision() is None or self._closed or live.error is not None)

        with self._settled:
            while not quiet():
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._settled.wait(min(left, 1.0))
        return True

    # -- listeners -----------------------------------------------------------------------

    def subscribe(self, game_id: str, callback: Callable[[], None]) -> None:
        """Call ``callback()`` (from any thread) after each change of the game; :class:`TooManyStreams`
        when the game holds ``MAX_STREAMS_PER_GAME`` or the server ``MAX_STREAMS`` (counted and
        taken under one lock, so that requests at once cannot pass the bound together)."""
        with self._lock:
            listeners = self._listeners.get(game_id, [])
            if len(listeners) >= MAX_STREAMS_PER_GAME:
                raise TooManyStreams(
                    f"game {game_id!r} has {MAX_STREAMS_PER_GAME} open event streams, the most one game takes: "
                    "close a page of it, or try again later"
                )
            if self._streams() >= MAX_STREAMS:
                raise TooManyStreams(
                    f"the server has {MAX_STREAMS} open event streams in all, the most it takes: try again later"
                )
            self._listeners.setdefault(game_id, listeners).append(callback)

    def subscribers(self, game_id: str) -> int:
        with self._lock:
            return len(self._listeners.get(game_id, ()))

    def streams(self) -> int:
        """The event streams open on every game."""
        with self._lock:
            return self._streams()

    def _streams(self) -> int:
        return sum(len(listeners) for listeners in self._listeners.values())

    def unsubscribe(self, game_id: str, callback: Callable[[], None]) -> None:
        with self._lock:
            listeners = self._listeners.get(game_id, [])
            if callback in listeners:
                listeners.remove(callback)
            if not listeners:
                self._listeners.pop(game_id, None)

    def _notify(self, game_id: str) -> None:
        with self._lock:
            listeners = list(self._listeners.get(game_id, ()))
        for callback in listeners:
            callback()

    # -- expiry --------------------------------------------------------------------------

    def sweep(self, force: bool = False) -> list[str]:
        """Mark the games no one has moved in ``idle_hours`` abandoned; their ids. Runs at most
        once a minute unless ``force``."""
        moment = self.clock()
        if not force and moment - self._swept < 60:
            return []
        self._swept = moment
        with self._lock:
            idle = [live for live in self._tables.values() if moment - live.touched > self.idle_seconds]
        gone = []
        for live in idle:
            with live.table.lock:
                if moment - live.touched <= self.idle_seconds or live.thinking:
                    continue
                store.set_status(self.database, live.id, store.ABANDONED)
                live.table.abandoned = True
            with self._lock:
                self._tables.pop(live.id, None)
                self._keep_finished(live)
            gone.append(live.id)
            self._notify(live.id)
        return gone
