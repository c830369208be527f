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


def test_a_mixed_game_table_is_readable_at_80_columns(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    query = "o:draw or suit:h rank>=12 or t:land or t:monster cost<=1"
    out = run_cli(["cards", "search", query, "-n", "30"], db_url).stdout
    cards = json.loads(run_cli(["cards", "search", query, "-n", "30", "--json"], db_url).stdout)
    assert {c["game"] for c in cards} == {"mea", "meikyu", "meio"}
    lines = out.splitlines()
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    cells = [cell.strip() for line in lines for cell in line.split("│")[1:-1]]
    words = {w for cell in cells for w in cell.split()}
    for card in cards:  # every word of every name and text is whole on some line: none cut in two
        for word in (card["name"] + " " + (card.get("text") or "")).split():
            assert word in words, (word, card["name"])
    headings = [h.strip() for h in next(line for line in lines if "name" in line).split("┃")[1:-1]]
    assert headings == ["name", "game set", "type", "values", "text"]  # one values column, not 11
    by_name = {}
    current = None
    for line in lines:
        row = [cell.strip() for cell in line.split("│")[1:-1]]
        if len(row) == 5:
            if row[0] and row[1]:
                current = row[0]
                by_name[current] = []
            if current:
                by_name[current].append(row[3])
    assert [v for v in by_name["Ace of Hearts"] if v] == ["rank 1"]  # no Méa or Meikyu fields on a Meio card
    land = next(c for c in cards if c["type"] == "land")
    key = next(k for k in by_name if land["name"].startswith(k))  # the name's first line
    assert [v for v in by_name[key] if v] == [f"level {land['level']}", "points ?", "dev pts ?"]
