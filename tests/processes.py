"""Processes as Linux's /proc shows them: which are running, and whose children they are."""

from __future__ import annotations

import os


def stat_fields(pid: int) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command name (state first, then the parent's id), or
    ``None`` if the process is gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None


def running(pid: int) -> bool:
    """Whether ``pid`` is running (not gone, not ended and waiting to be reaped)."""
    fields = stat_fields(pid)
    return fields is not None and fields[0] != "Z"


def children(of: int | None = None) -> list[int]:
    """The running children of process ``of`` (this one by default)."""
    parent = os.getpid() if of is None else of
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdecimal():
            fields = stat_fields(int(entry))
            if fields is not None and int(fields[1]) == parent and fields[0] != "Z":
                found.append(int(entry))
    return found


def cmdline(pid: int) -> bytes:
    """The command line of ``pid`` (NUL-separated), or ``b""`` if it is gone."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as line:
            return line.read()
    except OSError:
        return b""


def cpu_seconds(pid: int) -> float:
    """The CPU time ``pid`` has used (user and system), or 0.0 if it is gone."""
    fields = stat_fields(pid)
    if fields is None:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
