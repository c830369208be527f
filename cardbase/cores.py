"""How many cores this process may use: the one answer for every default that runs work in parallel."""

from __future__ import annotations

import os


def available_cores() -> int:
    """The cores this process may run on (its affinity on Linux, else the machine's count), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)
