"""Golden walks: each case of tests/golden/<game>.json replays to the same legal-action counts and outcome.

A rules change that alters what is legal (or how many, or when a game ends) fails here until the
files are written again with ``uv run python tests/golden/regenerate.py``, so that it shows in the diff.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.golden.walks import CASES, dump, path_of, rules_of, walk

CASE_IDS = [(game, i) for game, cases in CASES.items() for i in range(len(cases))]


def _stored(game: str) -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(path_of(game).read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("game", list(CASES))
def test_the_file_lists_the_cases(game: str) -> None:
    stored = _stored(game)
    assert [(c["name"], c["options"], c["seed"], c["steps"]) for c in stored] == [
        (n, o, s, k) for n, o, s, k in CASES[game]
    ], "the cases changed: run tests/golden/regenerate.py"


@pytest.mark.parametrize(("game", "index"), CASE_IDS, ids=[f"{g}-{CASES[g][i][0]}" for g, i in CASE_IDS])
def test_a_walk_replays_as_recorded(game: str, index: int) -> None:
    want = _stored(game)[index]
    name, options, seed, steps = CASES[game][index]
    got = walk(rules_of(game, options), seed, steps)
    counts, recorded = got["legal_counts"], want["legal_counts"]
    first = next((k for k, (a, b) in enumerate(zip(counts, recorded, strict=False)) if a != b), None)
    assert first is None, (
        f"{game} {name!r}: decision {first}: {counts[first]} legal actions, recorded {recorded[first]}"
    )
    assert got == {k: want[k] for k in got}, f"{game} {name!r}: the walk's length or outcome changed"


def test_the_dump_round_trips() -> None:
    items = [{"name": "x", "legal_counts": [1, 2, 3], "outcome": None}]
    assert json.loads(dump(items)) == items
