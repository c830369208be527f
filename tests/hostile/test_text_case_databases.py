"""Text terms (``o:`` ``d:`` ``land:``, bare words on a card's text) ignore case in every script on
both databases: PostgreSQL's ``ILIKE`` lowers any letter, and SQLite's ``LIKE`` only ASCII ones, so
``o:épée`` found ``Épée`` on one and not on the other. Runs on SQLite, and on PostgreSQL when
CARDBASE_TEST_POSTGRES is set.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.hostile.conftest import run_cli

CARDS = [
    ("Fencer Imp", "Wields an Épée."),
    ("Digraph Imp", "Ǆ marks it."),
    ("Greek Imp", "ΔΡΆΚΩΝ guards it."),
    ("Cyrillic Imp", "Зелье of power."),
    ("Plain Imp", "Draw a card."),
]


@pytest.fixture
def texts_db(hostile_db: str, tmp_path: Path) -> str:
    sheet = tmp_path / "imps.json"
    rows = [{"name": n, "type": "monster", "cost": 1, "attack": 1, "defence": 1, "text": t} for n, t in CARDS]
    sheet.write_text(json.dumps(rows), encoding="utf-8")
    result = run_cli(["catalog", "import", sheet, "--game", "mea"], hostile_db)
    assert result.exit_code == 0, result.stderr
    return hostile_db


def _found(db: str, query: str) -> list[str]:
    result = run_cli(["cards", "search", "--json", "--game", "mea", "--db", db, "--", query])
    assert result.exit_code in (0, 1), result.stderr
    return sorted(card["name"] for card in json.loads(result.stdout or "[]")) if result.exit_code == 0 else []


@pytest.mark.parametrize(
    ("query", "names"),
    [
        ("o:épée", ["Fencer Imp"]),
        ("o:ÉPÉE", ["Fencer Imp"]),
        ("o:ǆ", ["Digraph Imp"]),
        ("o:ǅ", ["Digraph Imp"]),
        ("o:δράκων", ["Greek Imp"]),
        ("o:зелье", ["Cyrillic Imp"]),
        ("o:ЗЕЛЬЕ", ["Cyrillic Imp"]),
        ("o:DRAW set:core", ["Plain Imp"]),
        ('o:"wields an épée"', ["Fencer Imp"]),
        ("-o:ÉPÉE set:core", ["Cyrillic Imp", "Digraph Imp", "Greek Imp", "Plain Imp"]),
    ],
)
def test_text_terms_ignore_case_in_every_script(texts_db: str, query: str, names: list[str]) -> None:
    assert [n for n in _found(texts_db, query) if n in dict(CARDS)] == names
