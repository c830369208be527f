"""A whole number a user writes, anywhere cardbase reads one, is ASCII digits: Python's ``int()``
reads ``1_0`` as 10 and the digits of every script (``٣``, ``３``, ``३``) as ours, so a deck line
``٣ Crumb Goblin`` was 3 copies, ``cost<=٣`` a search for cost 3 and ``cost=٣`` an edit to 3.
The rule lives in ``cardbase.games.base.whole_number`` (which every reader of game notation shares)
and in the readers of deck lines, searches, counts to draw and catalog cells. Generated: every
reader, every such spelling."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.hostile.conftest import assert_refused, db_dump, run_cli

GOBLINS = str(REPO / "examples/decks/mea-goblin-rush.txt")
SPELLINGS = ["٣", "３", "३", "1_0", "²"]


def test_the_shared_reader_takes_ascii_digits_only() -> None:
    from cardbase.games.base import whole_number

    assert whole_number("3", 9) == 3 and whole_number("03", 9) == 3
    assert [whole_number(s, 99) for s in SPELLINGS] == [None] * len(SPELLINGS)


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_a_deck_line_count_in_other_digits_is_a_bad_count(spelling: str, tmp_path: Path, shared_db: str) -> None:
    from cardbase.decks.text import parse_text

    for line in (f"{spelling} Crumb Goblin", f"Crumb Goblin x{spelling}"):
        deck = parse_text(f"game: mea\n{line}\n")
        assert [e.count for e in deck.lines if e.name == "Crumb Goblin"] == [], line
        assert deck.problems or deck.lines[0].name != "Crumb Goblin", line


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_a_search_number_in_other_digits_is_refused(spelling: str, shared_db: str) -> None:
    assert_refused(run_cli(["cards", "search", f"cost<={spelling}"], shared_db), 2, "needs a whole number")


@pytest.mark.parametrize("spelling", SPELLINGS[:-1])  # (² is no digit: a query's text)
def test_a_count_to_draw_in_other_digits_is_refused(spelling: str, shared_db: str) -> None:
    assert_refused(run_cli(["draws", GOBLINS, "--need", f"{spelling} t:monster"], shared_db), 2, "need")


@pytest.mark.parametrize("spelling", [*SPELLINGS, "١.٠"])
def test_a_catalog_cell_in_other_digits_is_refused_and_nothing_written(spelling: str, shared_db: str) -> None:
    before = db_dump(shared_db)
    assert_refused(run_cli(["catalog", "edit", "Crumb Goblin", f"cost={spelling}"], shared_db), 1, "whole number")
    assert db_dump(shared_db) == before


def test_a_catalog_cell_still_reads_a_spreadsheets_whole_number() -> None:
    from cardbase.db.io import _parse_int

    assert [_parse_int(v) for v in ("3", " 3 ", "3.0", "+3", "-0", "?", "")] == [3, 3, 3, 3, 0, None, None]
