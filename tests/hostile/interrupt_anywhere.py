"""Raise ``KeyboardInterrupt`` at one traced point after another of the parent's side of
``map_in_processes`` (its own lines and the standard library's it runs), each time in a new map:
what a Ctrl-C landing there does. Run from the repository, away from pytest (it sets its own
``sys.settrace``): ``python -m tests.hostile.interrupt_anywhere MODULE [STEP]``. Prints ``points N``
and one line per point where the interrupt did not come out as ``KeyboardInterrupt``; a point where
the map hangs never returns (the caller's timeout says so).

Why a trace function: a signal is taken between two bytecodes of the main thread, anywhere,
including inside a library between taking a lock and entering the ``try`` that frees it. A test
that sends real signals finds such a window once in hundreds of runs under load; this visits
every line (or every STEP-th) once.
"""

from __future__ import annotations

import importlib
import os
import sys
import threading
import time
from types import FrameType
from typing import Any

from cardbase import interrupts
from tests.processes import children

WATCHED = (
    "cores.py",
    "connection.py",
    "selectors.py",
    "process.py",
    "popen_fork.py",
    "pool.py",
    "threading.py",
    "queues.py",
    "synchronize.py",
    "util.py",
)
"""The files whose lines a signal may land in while the parent maps (the current implementation's
and ``multiprocessing.Pool``'s)."""


def _square(x: int) -> int:
    time.sleep(0.001)
    return x * x


def _run(map_in_processes: Any, point: int) -> tuple[int, str]:
    """Map with an interrupt at the ``point``-th traced event, or the first one after it outside
    ``interrupts.deferred`` (as a signal is held there); none if there are fewer. The events counted
    and ``done``, ``interrupted`` or what else came out."""
    parent = os.getpid()
    seen = 0
    fired = False

    def tracer(frame: FrameType, event: str, arg: object) -> Any:
        nonlocal seen, fired
        if os.getpid() != parent or threading.current_thread() is not threading.main_thread():
            return None
        if not frame.f_code.co_filename.endswith(WATCHED):
            return tracer
        seen += 1
        if seen >= point > 0 and not fired and not interrupts.holding():
            fired = True
            raise KeyboardInterrupt
        return tracer

    sys.settrace(tracer)
    try:
        results = list(map_in_processes(_square, range(8), 2))
        outcome = "done" if results == [x * x for x in range(8)] else f"wrong results {results}"
    except KeyboardInterrupt:
        outcome = "interrupted"
    except BaseException as error:
        outcome = f"{type(error).__name__}: {error}"
    finally:
        sys.settrace(None)
    deadline = time.monotonic() + 30  # workers killed a moment ago may still be ending on a loaded machine
    while children() and time.monotonic() < deadline:
        time.sleep(0.01)
    if children():
        outcome += f"; {len(children())} worker(s) left running"
    return seen, outcome


def main(module: str, step: int) -> None:
    interrupts.install()
    map_in_processes = importlib.import_module(module).map_in_processes
    points, outcome = _run(map_in_processes, 0)
    assert outcome == "done", outcome
    print(f"points {points}", flush=True)
    for point in range(1, points + 1, step):
        _, outcome = _run(map_in_processes, point)
        if outcome not in ("interrupted", "done"):  # a hang prints nothing more
            print(f"point {point}: {outcome}", flush=True)
    print("end", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1)
