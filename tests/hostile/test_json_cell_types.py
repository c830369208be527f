"""Class 8 (a JSON table's cells of the wrong kind): a collection file in JSON whose ``name``,
``set`` or ``game`` is not text (a list, an object, a number, true/false) is refused on its row and
column saying what JSON holds there, as the catalog import says it, exit 1, nothing written. The
collection import turned such a value into Python's text of it (``"['x']"``, ``"{'a': 1}"``, ``"5"``)
and looked for a card of that name, or took it for a set or a game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.hostile.conftest import assert_refused, db_dump, run_cli

ROW = {"name": "Crumb Goblin", "set": "demo", "game": "mea", "count": 2}
ODD = [["Crumb Goblin"], {"name": "Crumb Goblin"}, 5, 2.5, True, False]
KINDS = {list: "a list", dict: "an object", int: "a number", float: "a number", bool: "true/false"}


@pytest.mark.parametrize("column", ["name", "set", "game"])
@pytest.mark.parametrize("value", ODD, ids=[json.dumps(v) for v in ODD])
@pytest.mark.parametrize("wrapped", [False, True], ids=["list", "cards object"])
def test_a_collection_cell_that_is_not_text_is_refused_naming_its_row_and_column(
    column: str, value: object, wrapped: bool, shared_db: str, tmp_path: Path
) -> None:
    rows = [dict(ROW), {**ROW, "name": "Puddle Knight", column: value}]
    path = tmp_path / "collection.json"
    path.write_text(json.dumps({"cards": rows} if wrapped else rows), encoding="utf-8")
    before = db_dump(shared_db)
    run = run_cli(["collection", "import", str(path)], shared_db)
    assert_refused(run, 1, f"column '{column}'", f"text (a JSON string), not {KINDS[type(value)]}")
    assert "[1]" in run.stderr  # the second row
    assert db_dump(shared_db) == before
