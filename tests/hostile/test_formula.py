"""Exports never write a live formula, and importing our own export gives back the exact text.

The rule (README, "Importing"): in CSV and XLSX, text starting with ``= + - @``, tab, CR or
``'`` is written with a ``'`` before it; on import a ``'`` before one of those is dropped.
JSON values are written and read as they are.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook

from cardbase.db.engine import open_database
from cardbase.db.io import card_records, export_catalog
from cardbase.sheets import FORMULA_START, neutralise, unneutralise
from tests.hostile.conftest import run_cli

# Rules texts and names a spreadsheet would run, and texts that merely start with a quote.
VALUES = [
    "=1+1",
    '=HYPERLINK("http://evil.example","click")',
    "=cmd|' /C calc'!A0",
    "+1+1",
    "-2+3",
    "-",
    "@SUM(A1:A9)",
    "=",
    "'=1+1",
    "'plain quote",
    "''two quotes",
    "'",
    "''",
    "'+x",
    "'-",
    "x=1",
    "plain text",
    "=1\tinner tab",
    "line one\nline two",
]
NAMES = ["=Golem 1", "+Golem 2", "-Golem 3-", "@Golem 4", "'Golem 5", "''Golem 6", "'=Golem 7", "Golem 8"]


def _seed(db: str, tmp_path: Path) -> None:
    """Import the values through JSON (which keeps text as it is)."""
    cards = [{"name": n, "type": "monster", "text": VALUES[i % len(VALUES)]} for i, n in enumerate(NAMES)]
    cards += [{"name": f"Formula {i}", "type": "assist", "text": v} for i, v in enumerate(VALUES)]
    path = tmp_path / "seed.json"
    path.write_text(json.dumps({"game": "mea", "set": "formula", "cards": cards}), encoding="utf-8")
    result = run_cli(["catalog", "import", path, "--game", "mea"], db)
    assert result.exit_code == 0, result.stderr


def _texts(db: str) -> dict[str, str | None]:
    database = open_database(db)
    try:
        return {r["name"]: r["text"] for r in card_records(database, "mea") if r["set"] == "formula"}
    finally:
        database.engine.dispose()


def _cells(path: Path, fmt: str) -> list[object]:
    if fmt == "csv":
        with path.open(encoding="utf-8", newline="") as handle:
            return [c for row in csv.reader(handle) for c in row]
    workbook = load_workbook(path)  # not read-only: formulas are seen as formulas
    sheet = workbook.worksheets[0]
    out: list[object] = []
    for row in sheet.iter_rows():
        for cell in row:
            assert cell.data_type != "f", f"formula written: {cell.value!r}"
            out.append(cell.value)
    return out


@pytest.mark.parametrize("fmt", ["csv", "xlsx", "json"])
def test_export_then_import_gives_back_exact_text(db_url: str, tmp_path: Path, fmt: str) -> None:
    _seed(db_url, tmp_path)
    original = _texts(db_url)
    assert set(NAMES) <= set(original)
    out = tmp_path / f"export.{fmt}"
    database = open_database(db_url)
    export_catalog(database, "mea", fmt, out)
    database.engine.dispose()
    if fmt != "json":
        for cell in _cells(out, fmt):
            assert not (isinstance(cell, str) and cell[:1] in FORMULA_START), cell
    second = f"{db_url.rsplit('/', 1)[0]}/second.db" if db_url.startswith("sqlite") else None
    target = second or db_url
    if second is None:  # PostgreSQL: import into the same database after deleting the set
        from sqlalchemy import text

        database = open_database(db_url)
        with database.transaction() as session:
            session.execute(text("DELETE FROM card_alias WHERE card_id LIKE 'mea/formula/%'"))
            session.execute(text("DELETE FROM card WHERE set_code = 'formula'"))
        database.engine.dispose()
    result = run_cli(["catalog", "import", out, "--game", "mea"], target)
    assert result.exit_code == 0, result.stderr
    assert _texts(target) == original


@pytest.mark.parametrize("value", VALUES + NAMES)
def test_a_formula_like_value_is_neutralised_and_restored(value: str) -> None:
    written = neutralise(value)
    assert written[:1] not in FORMULA_START
    assert unneutralise(written) == value


@pytest.mark.parametrize(
    ("cell", "read"),
    [
        ("'hello", "'hello"),  # a user's own quote before a plain character stays
        ("'=1+1", "=1+1"),  # the spreadsheet convention for literal text
        ("''x", "'x"),
        ("'", "'"),
        ("'1", "'1"),
        ("=1+1", "=1+1"),  # a user's file is not neutralised on the way in
    ],
)
def test_the_import_rule_for_a_users_file(cell: str, read: str) -> None:
    assert unneutralise(cell) == read


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=30))
def test_the_rule_is_exact_for_any_text(value: str) -> None:
    assert unneutralise(neutralise(value)) == value
    assert neutralise(value)[:1] not in FORMULA_START


def test_the_image_exports_manifest_writes_no_formula(db_url: str, tmp_path: Path, monkeypatch) -> None:
    """``export images`` writes ``manifest.csv`` (file, side, name, …) for print shops, who open it in
    a spreadsheet: a card named ``=Golem 1`` or ``@Golem 4`` was written as a live formula there."""
    _seed(db_url, tmp_path)
    monkeypatch.chdir(tmp_path)
    deck = tmp_path / "formula.txt"
    deck.write_text("game: mea\n" + "".join(f"1 {name} (formula)\n" for name in NAMES), encoding="utf-8")
    result = run_cli(["export", "images", deck, "-o", tmp_path / "images", "--dpi", "30"], db_url)
    assert result.exit_code == 0, result.stderr
    with (tmp_path / "images" / "manifest.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    for row in rows:
        for cell in row.values():
            assert not (isinstance(cell, str) and cell[:1] in FORMULA_START), cell
    assert sorted(unneutralise(r["name"]) for r in rows if r["side"] == "front") == sorted(NAMES)
