"""No CSV or XLSX cardbase writes holds a live formula, whatever text a user imported: every export.

The exports: ``catalog export`` and ``catalog template`` (CSV and XLSX), ``collection export`` (CSV and
XLSX), and the web's downloads of each (``/api/catalog/export``, ``/api/collection/export``,
``/catalog/template/GAME.FMT``). Hypothesis makes cards whose every text field — name, rules text,
description, aliases, tags, notes — starts with a character a spreadsheet runs (``= + - @``, a tab, a
CR) or with the ``'`` that escapes one; each is imported from JSON (which keeps text as it is), owned,
and every export is read back: no cell starts with one of those characters (OWASP's advice: a ``'``
before it), and no XLSX cell is a formula.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook

from cardbase.db.engine import open_database
from cardbase.sheets import FORMULA_START
from cardbase.web.app import create_app
from cardbase.web.settings import ServerSettings
from tests.conftest import new_database
from tests.hostile.conftest import run_cli

EXAMPLES = settings(
    max_examples=int(os.environ.get("HOSTILE_FILES_EXAMPLES", "6")),
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

LEADS = ["=", "+", "-", "@", "'", "'=", "\t", "\r"]
_TAIL = st.text(st.characters(codec="ascii", categories=("L", "N", "P", "S", "Zs")), max_size=12)
_FORMULA_TEXT = st.builds(lambda lead, tail: lead + tail, st.sampled_from(LEADS), _TAIL)
# A name may not start with a control character (nor '#'): its lead is one a name can hold.
_FORMULA_NAME = st.builds(
    lambda lead, tail, n: f"{lead}Golem {n}{tail}",
    st.sampled_from(["=", "+", "-", "@", "'", "'="]),
    _TAIL,
    st.integers(0, 999),
)


def cells_of(data: bytes, fmt: str) -> list[Any]:
    """Every cell of a CSV or XLSX file; an XLSX formula cell fails the test."""
    if fmt == "csv":
        return [c for row in csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")) for c in row]
    out: list[Any] = []
    for sheet in load_workbook(io.BytesIO(data)).worksheets:  # not read-only: formulas are seen as formulas
        for row in sheet.iter_rows():
            for cell in row:
                assert cell.data_type != "f", f"a formula written: {cell.value!r}"
                out.append(cell.value)
    return out


def assert_no_formula(data: bytes, fmt: str, what: str) -> None:
    for cell in cells_of(data, fmt):
        assert not (isinstance(cell, str) and cell[:1] in FORMULA_START), f"{what}: a cell starts a formula: {cell!r}"


@contextmanager
def fresh_site(template: str, folder: Path) -> Iterator[tuple[str, TestClient]]:
    """A database of its own for one example (aliases and names of another example never meet it), and a
    server on it."""
    with new_database(folder, template) as url:
        database = open_database(url)
        settings = ServerSettings(database=database, images=folder / "card_images", lock_wait=5)
        with TestClient(create_app(settings), base_url=settings.base_url, raise_server_exceptions=False) as client:
            yield (str(folder / "cards.db") if url.startswith("sqlite") else url), client
        database.engine.dispose()


def _exports(db: str, folder: Path, web: TestClient) -> Iterator[tuple[str, str, bytes]]:
    """(what, format, bytes) of every CSV and XLSX export, from the command line and the web."""
    for fmt in ("csv", "xlsx"):
        for what, argv in (
            ("catalog export", ["catalog", "export", "--game", "mea", "--format", fmt]),
            ("catalog template", ["catalog", "template", "--game", "mea", "--format", fmt]),
            ("collection export", ["collection", "export", "--format", fmt]),
        ):
            out = folder / f"{what.replace(' ', '-')}.{fmt}"
            result = run_cli([*argv, "-o", str(out)], db)
            assert result.exit_code == 0, result.stderr
            yield what, fmt, out.read_bytes()
        for what, url in (
            ("GET /api/catalog/export", f"/api/catalog/export?game=mea&format={fmt}"),
            ("GET /api/collection/export", f"/api/collection/export?format={fmt}"),
            ("GET /catalog/template", f"/catalog/template/mea.{fmt}"),
        ):
            answer = web.get(url)
            assert answer.status_code == 200, answer.text[:500]
            yield what, fmt, answer.content


@EXAMPLES
@given(
    cards=st.lists(
        st.fixed_dictionaries(
            {
                "name": _FORMULA_NAME,
                "text": _FORMULA_TEXT,
                "description": _FORMULA_TEXT,
                "aliases": st.lists(_FORMULA_NAME, max_size=2),
                "tags": st.lists(st.sampled_from(["+tag", "-tag", "'tag", "+1 tag"]), max_size=2, unique=True),
                "notes": _FORMULA_TEXT,
            }
        ),
        min_size=1,
        max_size=3,
        unique_by=lambda c: c["name"].lower(),
    )
)
def test_no_export_writes_a_formula(cards: list[dict[str, Any]], catalog_template: str, tmp_path: Path) -> None:
    names = {c["name"].lower() for c in cards}
    for card in cards:
        card["type"] = "assist"
        card["aliases"] = [a for a in card["aliases"] if a.lower() not in names]
    folder = tmp_path / f"example-{os.urandom(4).hex()}"
    folder.mkdir()
    with fresh_site(catalog_template, folder) as (db, web):
        path = folder / "cards.json"
        path.write_text(json.dumps({"game": "mea", "set": "formula", "cards": cards}), encoding="utf-8")
        imported = run_cli(["catalog", "import", str(path), "--game", "mea"], db)
        assert imported.exit_code == 0, imported.stderr
        owned = [{"game": "mea", "name": c["name"], "set": "formula", "count": 1} for c in cards]
        (folder / "owned.json").write_text(json.dumps(owned), encoding="utf-8")
        result = run_cli(["collection", "import", str(folder / "owned.json")], db)
        assert result.exit_code == 0, result.stderr
        for what, fmt, data in _exports(db, folder, web):
            assert_no_formula(data, fmt, f"{what} ({fmt})")
