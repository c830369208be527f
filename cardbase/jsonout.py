"""JSON meant for machines: always valid JSON.

Python's ``json`` writes a float that is not a number or is infinite as ``NaN`` or ``Infinity``,
which no JSON reader accepts. Every figure cardbase prints or answers as JSON goes through
:func:`finite` (the CLI's ``--json``, the web API's answers and its event stream): such a value
(no games to count, an interval's end the data does not bound) is written as ``null``, the same
as an unknown, and the writer is told ``allow_nan=False`` so nothing else slips through.
"""

from __future__ import annotations

import json
import math
from typing import Any

__all__ = ["dumps", "finite"]


def finite(data: Any) -> Any:
    """``data`` with every NaN or infinite float (in dicts, lists and tuples, at any depth) as None;
    the containers are copied only where something changes."""
    if isinstance(data, float):
        return data if math.isfinite(data) else None
    if isinstance(data, dict):
        items = {k: finite(v) for k, v in data.items()}
        return items if any(items[k] is not v for k, v in data.items()) else data
    if isinstance(data, list | tuple):
        values = [finite(v) for v in data]
        return values if any(a is not b for a, b in zip(values, data, strict=True)) else data
    return data


def dumps(data: Any, **options: Any) -> str:
    """``json.dumps`` of :func:`finite` ``(data)``, refusing anything still not finite."""
    return json.dumps(finite(data), allow_nan=False, **options)
