"""Unknown is not the same as not applicable (issue 13): ``?`` exists-but-unknown, ``—`` does not apply."""

from __future__ import annotations

import json

import pytest

from cardbase.catalog.fields import value_text
from tests.hostile.conftest import run_cli


def test_value_text() -> None:
    assert value_text("mea", "assist", "attack", None) == "—"
    assert value_text("mea", "assist", "cost", None) == "?"
    assert value_text("meikyu", "item", "level", None) == "—"
    assert value_text("meikyu", "land", "bravery", None) == "—"
    assert value_text("meikyu", "character", "bravery", None) == "?"
    assert value_text("meikyu", "character", "bravery", 0) == "0"


def _row(table: str, name: str) -> list[str]:
    line = next(line for line in table.splitlines() if f"│ {name} " in line)
    return [cell.strip() for cell in line.split("│")[1:-1]]


def test_search_table_shows_dash_for_fields_that_do_not_apply(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "250")
    out = run_cli(["cards", "search", "amulet or cook", "--game", "meikyu"], db_url).stdout
    headings = [h.strip() for h in next(line for line in out.splitlines() if "name" in line).split("┃")[1:-1]]
    amulet = dict(zip(headings, _row(out, "Amulet"), strict=True))
    cook = dict(zip(headings, _row(out, "Cook"), strict=True))
    assert amulet["level"] == "—" and amulet["bravery"] == "—"
    assert cook["bravery"] == "?" and cook["level"] == "—"
    cards = json.loads(run_cli(["cards", "search", "amulet", "--game", "meikyu", "--json"], db_url).stdout)
    assert "level" not in cards[0]["unknown"] and cards[0]["level"] is None
