"""Class 8 (a deck naming many cards): a list of a thousand distinct names or more (a cube list,
a pasted catalog, a typo on every line), or an old share code naming as many cards, is read like a
short one: every unknown name a problem on its line, exit 1. The lookup of the names was one SQL
condition of one ``LIKE`` per name, which SQLite refuses past 1,000 ("Expression tree is too large"):
the command said "database error" and exit 2, naming nothing of the file."""

from __future__ import annotations

import itertools
import random
import string
from pathlib import Path

import pytest

from tests.hostile.conftest import assert_no_crash, run_cli

COUNTS = [999, 1_000, 1_500, 5_000]
COMMANDS = [
    (["deck", "validate"], 1),
    (["deck", "stats"], None),
    (["deck", "import", "--name", "Cube"], 1),
    (["deck", "show"], None),
    (["collection", "import", "--game", "mea", "--dry-run"], 1),
]


def _names(count: int) -> list[str]:
    rng = random.Random(count)
    return sorted({"".join(rng.choice(string.ascii_lowercase) for _ in range(9)) for _ in range(count)})


@pytest.mark.parametrize("count", COUNTS)
@pytest.mark.parametrize(("argv", "code"), COMMANDS, ids=[" ".join(c[0][:2]) for c in COMMANDS])
def test_a_list_of_many_distinct_names_is_read_like_a_short_one(
    argv: list[str], code: int | None, count: int, shared_db: str, tmp_path: Path
) -> None:
    path = tmp_path / "cube.txt"
    path.write_text("game: mea\n1 Crumb Goblin\n" + "".join(f"1 {n}\n" for n in _names(count)), encoding="utf-8")
    run = run_cli([*argv[:2], str(path), *argv[2:]], shared_db)
    assert_no_crash(run)
    assert "database error" not in run.stderr and "Expression tree" not in run.stderr, run.stderr[:300]
    if code is not None:
        assert run.exit_code == code, run.stderr[:300]
        assert "line 3" in run.stdout + run.stderr  # the first unknown name, on its line


def _legacy_code(numbers: list[int]) -> str:
    import base64

    from cardbase.decks.files import _varint

    deltas = [numbers[0], *(b - a for a, b in itertools.pairwise(numbers))]
    parts = [1, 0, 0, 0, len(deltas), *deltas, 0, 0]  # version 1, Méa, one copy of each card, no more
    return base64.urlsafe_b64encode(b"".join(_varint(p) for p in parts)).decode().rstrip("=")


@pytest.mark.parametrize("count", COUNTS)
def test_an_old_share_code_naming_many_cards_is_read_like_a_short_one(count: int, shared_db: str) -> None:
    code = _legacy_code(list(range(1_000, 1_000 + 7 * count, 7)))
    run = run_cli(["deck", "decode", code], shared_db)
    assert_no_crash(run)
    assert "database error" not in run.stderr and "Expression tree" not in run.stderr, run.stderr[:300]
    assert run.exit_code in (1, 2) and "does not have" in run.stderr, run.stderr[:300]
