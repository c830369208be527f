"""The standard streams as the ``cardbase`` command finds them, made safe before anything runs.

- A stream the caller closed (``>&-``, ``<&-``, ``2>&-``): its file descriptor is held open on
  ``/dev/null``, so no file the command opens later (the database, an output) takes the number 0, 1
  or 2 and receives what a library or a child process writes to "standard output" or "standard
  error". Python leaves ``sys.stdin``/``sys.stdout``/``sys.stderr`` as ``None`` then, which every
  reader and writer stumbled on (``'NoneType' object has no attribute 'flush'``, exit 70):
  instead, a closed standard input reads as empty (as ``< /dev/null``: ``play`` ends the game
  unfinished), a closed standard error takes what is said and drops it (the exit code still tells),
  and a closed standard output refuses every write with ``EBADF``, so a command that has something
  to print says ``- (standard output): cannot write: Bad file descriptor``, exit 2 (as ``ls >&-``),
  never a success with its output gone.
- An output encoding that cannot hold every character (``PYTHONIOENCODING=latin-1`` or ``ascii``,
  a terminal that is not UTF-8): a character it lacks (a Japanese card name) is written as a visible
  escape (``\\u65e5``) rather than failing the command (``UnicodeEncodeError``, exit 70).
  JSON is written all in ASCII then (``print_json``), valid whatever the encoding.

Imports nothing of weight: it runs before the command line is imported (``cardbase.cli.entry``).
"""

from __future__ import annotations

import codecs
import errno
import io
import os
import sys
from typing import Any


class _ClosedOutput(io.RawIOBase):
    """Standard output the caller closed: every write is refused with ``EBADF`` (and nothing is kept
    to be refused again at the interpreter's last flush)."""

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        raise OSError(errno.EBADF, os.strerror(errno.EBADF))

    def fileno(self) -> int:
        return 1  # held on /dev/null: what is silenced there goes nowhere


def _is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


def _hold(fd: int) -> None:
    """Open ``/dev/null`` on the closed descriptor ``fd``."""
    null = os.open(os.devnull, os.O_RDWR)
    if null != fd:
        os.dup2(null, fd)
        os.close(null)


def hold_closed_streams() -> None:
    """Each standard stream the caller closed held and replaced, as the module docstring says."""
    closed = [fd for fd in (0, 1, 2) if not _is_open(fd)]
    for fd in closed:  # in order: each open takes the lowest free number, the one being held
        _hold(fd)
    if 0 in closed or sys.stdin is None:
        sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115 - the process's standard input
    if 1 in closed or sys.stdout is None:
        sys.stdout = io.TextIOWrapper(_ClosedOutput(), encoding="utf-8", write_through=True)
    if 2 in closed or sys.stderr is None:
        sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False)  # noqa: SIM115


def is_utf8(stream: Any) -> bool:
    """Whether ``stream`` writes text as UTF-8 (so holds every character)."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        return codecs.lookup(encoding).name == "utf-8"
    except LookupError:
        return False


def escape_unencodable() -> None:
    """Standard output and error write a character their encoding lacks as an escape, not an error."""
    for stream in (sys.stdout, sys.stderr):
        if stream is not None and not is_utf8(stream) and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")


def prepare() -> None:
    """Both, in order: the streams held first, then their encodings."""
    hold_closed_streams()
    escape_unencodable()
