"""How many cores this process may use, and the one way work is spread over processes on them."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

R = TypeVar("R")


def available_cores() -> int:
    """The cores this process may run on (its affinity on Linux, else the machine's count), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _ignore_interrupts() -> None:
    # Ctrl-C reaches every process of the terminal's group: the workers leave it to the parent,
    # which stops them (no traceback from each worker).
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def map_in_processes(work: Callable[[Any], R], chunks: Iterable[Any], jobs: int) -> Iterator[R]:
    """``work`` over ``chunks`` in ``jobs`` forked processes, yielding results in chunk order.

    At most ``2 * jobs`` chunks are in flight, so a huge batch costs no memory up front. On any
    unfinished exit (Ctrl-C or SIGTERM included, wherever it lands) the pool is terminated: the
    workers are killed at once rather than left to finish their chunk. ``multiprocessing.Pool``
    rather than ``ProcessPoolExecutor``: its ``terminate`` is made for this, where the executor
    (3.11) has no public way to stop a running task, and leaving its ``with`` waits for every task
    queued.
    """
    import multiprocessing
    from collections import deque

    # Fork now, before any progress display starts its thread (a Pool starts its workers at once).
    pool = multiprocessing.get_context("fork").Pool(jobs, initializer=_ignore_interrupts)
    in_flight: deque[Any] = deque()
    finished = False
    try:
        for chunk in chunks:
            in_flight.append(pool.apply_async(work, (chunk,)))
            if len(in_flight) >= 2 * jobs:
                yield in_flight.popleft().get()
        while in_flight:
            yield in_flight.popleft().get()
        finished = True
    finally:
        if finished:
            pool.close()
        else:
            pool.terminate()
        pool.join()
