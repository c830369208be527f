"""Ctrl-C and SIGTERM: one clean stop for every command.

``install`` (called by the ``cardbase`` entry point before anything heavy is imported) makes
SIGINT and SIGTERM alike raise ``KeyboardInterrupt`` in the main thread, so that every
``finally`` and ``except KeyboardInterrupt`` on the way out runs: temporaries are removed, worker
pools and clusters stopped, and the boundary says ``cardbase: interrupted`` (or ``terminated``)
and exits 128 + the signal's number (130 for Ctrl-C, 143 for SIGTERM). A process forked from this
one (a worker) keeps the default action: its parent stops it.

``deferred`` holds the signals back for a step that must not be cut in two (two renames that
replace a folder); ``blocked_for_children`` keeps the terminal's Ctrl-C from the processes and
threads started inside it (a Dask cluster's workers), and delivers it here when the block ends.
``quiet_exit`` is for the last moments of the process: a signal then exits at once, silently.
"""

from __future__ import annotations

import _thread
import atexit
import os
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from types import FrameType
from typing import Any

HANDLED = (signal.SIGINT, signal.SIGTERM)

_owner: int | None = None
_received: int | None = None
_held: list[int] = []
_holding = False


def install() -> None:
    """Make SIGINT and SIGTERM raise ``KeyboardInterrupt`` in this process (not in its forks), and
    end an interrupted process right after the exit handlers (see ``_end_interrupted``)."""
    global _owner, _received
    _owner, _received = os.getpid(), None
    atexit.register(_end_interrupted)  # registered first: runs last; and before a signal can arrive
    sys.unraisablehook = _make_unraisable_hook(sys.unraisablehook)
    for signum in HANDLED:
        signal.signal(signum, _on_signal)


def _make_unraisable_hook(previous: Callable[[Any], object]) -> Callable[[Any], object]:
    """A ``KeyboardInterrupt`` raised by ``_on_signal`` inside code whose exceptions Python ignores (a
    weakref or gc callback, ``__del__``: the import system's module locks use one) would be printed as
    "Exception ignored" and lost. Instead: silence, and the signal sent again from another thread, so
    the main thread raises it at its next step, where the command's boundary catches it."""

    def hook(unraisable: Any) -> object:
        if isinstance(unraisable.exc_value, KeyboardInterrupt) and _received is not None and os.getpid() == _owner:
            _thread.start_new_thread(os.kill, (os.getpid(), _received))
            return None
        return previous(unraisable)

    return hook


def _end_interrupted() -> None:
    """After an interrupt, once the command's cleanup and every library's exit handler have run,
    end the process with its exit code without the interpreter's own teardown: freeing every
    module takes a second or more after a Dask cluster, and CPython would end by SIGINT instead
    of exit code 130 if the Ctrl-C had landed in code run by eval() (typing's string annotations)."""
    if _received is None or os.getpid() != _owner:
        return
    for stream in (sys.stdout, sys.stderr):
        with suppress(OSError, ValueError):
            stream.flush()
    os._exit(exit_code())


def _on_signal(signum: int, frame: FrameType | None) -> None:
    global _received
    if os.getpid() != _owner:  # a forked worker: the default action (its parent stops it)
        signal.signal(signum, signal.SIG_IGN if signum == signal.SIGINT else signal.SIG_DFL)
        if signum != signal.SIGINT:
            os.kill(os.getpid(), signum)
        return
    if _holding:
        _held.append(signum)
        return
    if _received is None:
        _received = signum
    raise KeyboardInterrupt


def exit_code() -> int:
    """128 + the number of the signal that stopped the command: 130 for Ctrl-C (SIGINT), 143 for SIGTERM."""
    return 128 + (_received or signal.SIGINT)


def word() -> str:
    """What happened, for the one line the command ends with: ``interrupted`` or ``terminated``."""
    return "terminated" if _received == signal.SIGTERM else "interrupted"


@contextmanager
def deferred() -> Iterator[None]:
    """Hold SIGINT and SIGTERM back inside the block (when ``install``-ed); raise for them when it ends."""
    global _holding
    if _owner != os.getpid() or _holding:
        yield
        return
    _holding = True
    try:
        yield
    finally:
        _holding = False
        if _held:
            signum = _held[0]
            _held.clear()
            _on_signal(signum, None)


def holding() -> bool:
    """Whether signals are being held back (inside :func:`deferred`)."""
    return _holding


@contextmanager
def blocked_for_children() -> Iterator[None]:
    """Block SIGINT in this thread inside the block: threads and processes started meanwhile
    inherit the block (and keep it), so the terminal's Ctrl-C reaches only this process, which
    stops them; a Ctrl-C pressed meanwhile is delivered here when the block ends."""
    if not hasattr(signal, "pthread_sigmask"):  # not POSIX
        yield
        return
    # multiprocessing starts its resource tracker on the first spawn, and unblocks SIGINT in the
    # thread that starts it (rather than restoring the mask): start it before blocking.
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def quiet_exit() -> None:
    """From now on a SIGINT or SIGTERM ends the process at once, silently, with its exit code
    (for the interpreter's shutdown, where a ``KeyboardInterrupt`` would print a traceback)."""
    for signum in HANDLED:
        signal.signal(signum, _exit_now)


def _exit_now(signum: int, frame: FrameType | None) -> None:
    try:
        sys.stdout.flush()
        sys.stderr.flush()
        unlink_semaphores()
    finally:
        os._exit(128 + signum)


def unlink_semaphores() -> None:
    """Unlink the named semaphores this process made for multiprocessing's queues (a worker pool's,
    spawned) as its exit handler would, for an exit that skips that handler (``os._exit``: a signal in
    the last moments, which ``uv run`` passing a Ctrl-C on makes likely; a forked server process's
    end): else the resource tracker, outliving the process, printed a warning of "leaked semaphore
    objects" on the terminal. Each is a system call: nothing waits."""
    util = sys.modules.get("multiprocessing.util")
    synchronize = sys.modules.get("multiprocessing.synchronize")
    if util is None or synchronize is None:
        return
    for finalizer in list(getattr(util, "_finalizer_registry", {}).values()):
        if getattr(finalizer, "_callback", None) is synchronize.SemLock._cleanup:
            with suppress(Exception):
                finalizer()
