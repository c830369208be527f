"""The ``/regex/`` terms of the search language, run by RE2.

RE2 matches in time linear in the text, whatever the pattern, so no query can hang a search
(Python's ``re`` backtracks: ``/^(\\w+\\s?)+#/`` over a 40-letter name takes minutes). The price
is RE2's syntax: no backreferences and no lookaround, which a card search does not need; such a
pattern is refused with a ``QueryError`` that says so. ``\\w`` and ``\\d`` are ASCII in RE2; use
``\\pL`` for any letter.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from cardbase.errors import QueryError

MAX_PATTERN_LENGTH = 500


def _options() -> Any:
    import re2

    options = re2.Options()
    options.log_errors = False  # RE2 would print its own copy of the error on stderr
    options.max_mem = 8 << 20  # bounds the compiled program, and so the work per character
    return options


@lru_cache(maxsize=256)
def compile_pattern(pattern: str) -> Any:
    """The compiled RE2 program for ``pattern``; a pattern RE2 cannot run is a ``QueryError``."""
    import re2

    if len(pattern) > MAX_PATTERN_LENGTH:
        raise QueryError(f"regular expression of {len(pattern)} characters is too long (at most {MAX_PATTERN_LENGTH})")
    try:
        return re2.compile(pattern, options=_options())
    except re2.error as error:
        reason = error.args[0].decode() if error.args and isinstance(error.args[0], bytes) else str(error)
        raise QueryError(
            f"bad regular expression /{pattern}/: {reason} (searches use RE2 syntax, which runs in linear "
            "time: no backreferences or lookaround)"
        ) from None


def regexp(pattern: str, value: str | None) -> bool | None:
    """SQLite's ``REGEXP`` function: whether ``pattern`` occurs in ``value`` (NULL for NULL)."""
    return None if value is None else compile_pattern(pattern).search(value) is not None
