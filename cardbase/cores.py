"""How many cores this process may use, and the one way work is spread over processes on them."""

from __future__ import annotations

import os
from collections.abc import Callable, Generator, Iterable
from contextlib import suppress
from typing import Any, TypeVar, cast

from cardbase.errors import WorkerStopped

R = TypeVar("R")


def available_cores() -> int:
    """The cores this process may run on (its affinity on Linux, else the machine's count), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _serve_chunks(work: Callable[[Any], Any], inbox: Any, parents: list[Any]) -> None:
    """A worker's loop: ``(index, chunk)`` in, ``(index, ok, result or exception)`` out, until ``None``
    or until the parent is gone. ``parents``: the parent's ends of the pipes, which the fork copied
    here; closed, so that a parent killed outright leaves every worker's pipe at its end."""
    import signal

    # Ctrl-C reaches every process of the terminal's group: the workers leave it to the parent,
    # which stops them (no traceback from each worker).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for pipe in parents:
        pipe.close()
    while True:
        try:
            task = inbox.recv()
        except (EOFError, OSError):  # the parent is gone
            return
        if task is None:
            return
        index, chunk = task
        try:
            answer: tuple[int, bool, Any] = (index, True, work(chunk))
        except Exception as error:
            answer = (index, False, error)
        try:
            inbox.send(answer)
        except OSError:  # the parent is gone
            return
        except Exception as error:  # the result or the exception cannot be pickled
            inbox.send((index, False, RuntimeError(f"{type(error).__name__}: {error}")))


def map_in_processes(work: Callable[[Any], R], chunks: Iterable[Any], jobs: int) -> Generator[R, None, None]:
    """``work`` over ``chunks`` in ``jobs`` forked processes, yielding results in chunk order.

    At most ``2 * jobs`` chunks are in flight (each worker holds at most two: one it works on, one
    waiting), so a huge batch costs no memory up front. A chunk's exception is raised here; a
    worker that ends without answering is :class:`WorkerStopped`. On any unfinished exit (Ctrl-C or
    SIGTERM included, wherever it lands) the workers are killed at once rather than left to finish.

    Each worker has its own pipe, and this process waits on them with ``connection.wait`` (a
    ``select``): no helper thread and no lock here. ``multiprocessing.Pool`` hands results over
    through a thread and a ``threading.Event``; a Ctrl-C that lands in ``AsyncResult.get`` just as
    it takes the event's lock leaves the lock taken, the result thread then blocks on it for
    good, and ``Pool.terminate`` waits for that thread, so the command never ends (found by
    ``tests/hostile/interrupt_anywhere.py``; likely what a ``sim --jobs 2`` that did not stop under
    load met). ``ProcessPoolExecutor`` (3.11) has its own thread, and no way to stop a running task.
    """
    import multiprocessing
    from multiprocessing.connection import Connection, wait

    from cardbase import interrupts

    context = multiprocessing.get_context("fork")
    workers: list[tuple[Any, Connection]] = []
    by_pipe: dict[int, Any] = {}
    held: dict[int, list[int]] = {}  # the chunk indexes each worker's pipe holds
    answers: dict[int, Any] = {}
    todo = enumerate(chunks)
    sent = given = 0
    more = True
    finished = False

    def feed(pipe: Connection) -> None:
        nonlocal sent, more
        if more and len(held[id(pipe)]) < 2 and sent - given < 2 * jobs:
            item = next(todo, None)
            if item is None:
                more = False
                return
            try:
                pipe.send(item)
            except OSError:  # its worker is gone
                raise WorkerStopped(f"a worker process stopped (exit code {by_pipe[id(pipe)].exitcode})") from None
            held[id(pipe)].append(item[0])
            sent += 1

    try:
        # Fork now, before any progress display starts its thread; a signal is held until every
        # worker started is listed (one forked and not yet listed would be left running).
        with interrupts.deferred():
            for _ in range(jobs):
                here, there = context.Pipe()
                parents = [pipe for _, pipe in workers] + [here]
                process = context.Process(target=_serve_chunks, args=(work, there, parents), daemon=True)
                process.start()
                there.close()
                workers.append((process, here))
                held[id(here)] = []
                by_pipe[id(here)] = process
        for _ in range(2):
            for _, here in workers:
                feed(here)
        while given < sent or more:
            while given in answers:
                ok, value = answers.pop(given)
                given += 1
                if not ok:
                    raise value
                yield value
                for _, here in workers:
                    feed(here)
            if given == sent and not more:
                break
            for ready in wait([here for _, here in workers if held[id(here)]]):
                pipe = cast(Connection, ready)
                try:
                    index, ok, value = pipe.recv()
                except (EOFError, OSError):  # its worker is gone (a reset if it went with our chunk unread)
                    process = by_pipe[id(pipe)]
                    process.join(1)
                    raise WorkerStopped(
                        f"a worker process stopped (exit code {process.exitcode}) before giving its result"
                    ) from None
                held[id(pipe)].remove(index)
                answers[index] = (ok, value)
                feed(pipe)
        finished = True
    finally:
        for process, here in workers:
            if finished:
                with suppress(OSError):
                    here.send(None)
            else:
                process.kill()
        _stop(workers)


STOP_SECONDS = 5.0
"""How long workers told to stop may take to end; those left then are terminated, then killed."""


def _stop(workers: list[tuple[Any, Any]]) -> None:
    """Wait for ``workers`` (told to stop, or killed) to end, within :data:`STOP_SECONDS` in all:
    one stuck (its work's thread or exit handler never ending) is terminated, then killed, so the
    command never hangs on it; a Ctrl-C while waiting kills them all at once. Their pipes are closed."""
    import time

    try:
        deadline = time.monotonic() + STOP_SECONDS
        for process, _ in workers:
            process.join(max(0.0, deadline - time.monotonic()))
        left = [process for process, _ in workers if process.is_alive()]
        for process in left:
            process.terminate()
        for process in left:
            process.join(1.0)
    finally:
        for process, here in workers:
            if process.is_alive():
                process.kill()  # cannot be ignored
                process.join()
            here.close()
