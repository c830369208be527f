"""A query's settings (``order:``, ``direction:``, ``ace:``) read the whole result, so each is given
once: a second one (``order:cost order:name``, ``ace:low ace:high``, in any case) was silently the one
obeyed, the first ignored. It is refused naming both terms (exit 2), as an option given twice is."""

from __future__ import annotations

import itertools

import pytest

from cardbase.db.search import build_select
from cardbase.errors import QueryError
from tests.hostile.conftest import assert_refused, run_cli

VALUES = {"order": ["name", "cost", "rank"], "direction": ["asc", "desc"], "ace": ["high", "low"]}

TWICE = [
    (f"{k1}:{a} t:monster {k2}:{b}", f"{k1}:{a}", f"{k2}:{b}")
    for key, values in VALUES.items()
    for a, b in itertools.product(values, repeat=2)
    for k1, k2 in ((key, key), (key.upper(), key.capitalize()))
]


@pytest.mark.parametrize(("query", "first", "second"), TWICE)
def test_a_setting_given_twice_is_refused_naming_both(query: str, first: str, second: str) -> None:
    with pytest.raises(QueryError) as refused:
        build_select(query, "mea")
    message = str(refused.value)
    assert first in message and second in message and "once" in message


@pytest.mark.parametrize("query", ["order:cost direction:desc ace:low t:monster", "order:name", "ace:low"])
def test_each_setting_once_is_read(query: str) -> None:
    build_select(query, "mea")


def test_the_command_refuses_it_with_exit_2(shared_db: str) -> None:
    result = run_cli(["cards", "search", "order:cost t:monster ORDER:name", "--game", "mea"], shared_db)
    assert_refused(result, 2, "order:cost", "ORDER:name", "once")
