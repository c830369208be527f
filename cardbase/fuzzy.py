"""Did-you-mean: the names closest to a misspelt one (one matcher for the catalog, decks and rules).

Pure (no I/O), so that ``cardbase.games`` may use it.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import TypeVar

from cardbase.names import fold

T = TypeVar("T")


def closest(name: str, choices: Mapping[str, T], n: int = 3, cutoff: float = 0.6, partial: bool = False) -> list[T]:
    """The values of the (up to) ``n`` keys of ``choices`` most like ``fold(name)``, best first, each once.

    The keys are folded names (see :func:`cardbase.names.fold`), the values what to suggest.
    ``cutoff`` is difflib's similarity ratio (0 to 1); with ``partial``, when nothing is that close,
    the keys that contain the name (a word of it, e.g. ``dragon``) are taken in their order.
    """
    key = fold(name)
    keys = difflib.get_close_matches(key, list(choices), n=n, cutoff=cutoff)
    if not keys and partial:
        keys = [k for k in choices if key in k][:n]
    return list(dict.fromkeys(choices[k] for k in keys))
