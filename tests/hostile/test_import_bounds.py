"""Every import is bounded: file size, rows, columns, cells, cell length, XLSX unzipped size, JSON nesting.

Inputs over 100 KB are made here. Bounds too large to reach quickly (200,000 rows) are checked
with a smaller ``Bounds`` patched in; the XLSX bomb, cell length, columns and nesting use the
real bounds.
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest
from openpyxl import Workbook

from cardbase.db import io as catalog_io
from cardbase.db.io import BOUNDS, Bounds, read_catalog_file
from tests.hostile.conftest import assert_refused_unchanged

HEADER = ["name", "type", "cost", "text"]


def _xlsx(path: Path, rows: list[list[object]]) -> Path:
    workbook = Workbook()
    sheet = workbook.active
    for row in rows:
        sheet.append(row)
    workbook.save(path)
    return path


def _csv(path: Path, rows: list[list[object]]) -> Path:
    path.write_text("\n".join(",".join(str(c) for c in row) for row in rows) + "\n", encoding="utf-8")
    return path


def _json(path: Path, rows: list[list[object]]) -> Path:
    cards = [dict(zip(rows[0], row, strict=True)) for row in rows[1:]]
    path.write_text(json.dumps(cards), encoding="utf-8")
    return path


WRITERS = {"csv": _csv, "xlsx": _xlsx, "json": _json}


def _rows(n: int, text: str = "x") -> list[list[object]]:
    return [list(HEADER)] + [[f"Bound Goblin {i}", "monster", 1, text] for i in range(n)]


def test_an_xlsx_bomb_is_refused_before_it_is_unpacked(loaded_db: str, tmp_path: Path) -> None:
    """300 KB on disk, 200 MB unzipped: refused from the zip's directory, naming the bound."""
    small = io.BytesIO()
    _xlsx(tmp_path / "small.xlsx", _rows(1))
    path = tmp_path / "bomb.xlsx"
    with (
        zipfile.ZipFile(tmp_path / "small.xlsx") as source,
        zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as bomb,
    ):
        for info in source.infolist():
            if info.filename != "xl/worksheets/sheet1.xml":
                bomb.writestr(info, source.read(info))
                continue
            with bomb.open(info.filename, "w", force_zip64=True) as sheet:
                sheet.write(
                    b'<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
                )
                row = (
                    b'<row><c t="inlineStr"><is><t>Goblin</t></is></c>'
                    b'<c t="inlineStr"><is><t>monster</t></is></c></row>'
                )
                chunk = row * (1024 * 1024 // len(row))
                for _ in range(200):
                    sheet.write(chunk)
                sheet.write(b"</sheetData></worksheet>")
    del small
    assert path.stat().st_size < 1_000_000
    assert sum(i.file_size for i in zipfile.ZipFile(path).infolist()) > 200_000_000
    assert_refused_unchanged(["catalog", "import", path, "--game", "mea"], loaded_db, 2, contains="xlsx_unpacked")


@pytest.mark.parametrize("fmt", sorted(WRITERS))
def test_a_cell_over_the_length_bound_is_refused(loaded_db: str, tmp_path: Path, fmt: str) -> None:
    path = WRITERS[fmt](tmp_path / f"long.{fmt}", _rows(2, "y" * (BOUNDS.cell_chars + 1)))
    assert_refused_unchanged(
        ["catalog", "import", path, "--game", "mea"], loaded_db, 1, contains="over the bound of 10,000"
    )


@pytest.mark.parametrize("fmt", sorted(WRITERS))
def test_too_many_columns_are_refused(loaded_db: str, tmp_path: Path, fmt: str) -> None:
    header = HEADER + [f"extra{i}" for i in range(BOUNDS.columns)]
    rows = [header, ["Wide Goblin", "monster", 1, "x"] + [""] * BOUNDS.columns]
    path = WRITERS[fmt](tmp_path / f"wide.{fmt}", rows)
    assert_refused_unchanged(
        ["catalog", "import", path, "--game", "mea"], loaded_db, 2, contains="columns" if fmt != "json" else "fields"
    )


@pytest.mark.parametrize("fmt", sorted(WRITERS))
@pytest.mark.parametrize(
    ("bound", "value", "rows", "message"),
    [
        ("rows", 20, 21, "over the import bound"),
        ("cells", 40, 11, "over the import bound"),
        ("file_bytes", 2_000, 60, "over the import bound of 2,000 bytes"),
    ],
)
def test_patched_bounds_are_enforced(
    loaded_db: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    fmt: str,
    bound: str,
    value: int,
    rows: int,
    message: str,
) -> None:
    path = WRITERS[fmt](tmp_path / f"many.{fmt}", _rows(rows))
    if bound == "file_bytes":
        value = min(value, path.stat().st_size - 1)
        message = f"over the import bound of {value:,} bytes"
    monkeypatch.setattr(catalog_io, "BOUNDS", Bounds(**{bound: value}))
    assert_refused_unchanged(["catalog", "import", path, "--game", "mea"], loaded_db, 2, contains=message)


def test_an_xlsx_with_too_many_files_inside_is_refused(
    loaded_db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _xlsx(tmp_path / "x.xlsx", _rows(1))
    monkeypatch.setattr(catalog_io, "BOUNDS", Bounds(xlsx_entries=3))
    assert_refused_unchanged(["catalog", "import", path, "--game", "mea"], loaded_db, 2, contains="files inside")


def test_the_row_bound_is_generous_for_real_catalogs(tmp_path: Path) -> None:
    """100,000 rows (200 times a 500-card game) are read whole."""
    path = _csv(tmp_path / "big.csv", _rows(100_000, "Deal 1 damage."))
    assert path.stat().st_size > 100_000
    parsed = read_catalog_file(path, "mea")
    assert parsed.problems == [] and parsed.rows == 100_000


@pytest.mark.parametrize(
    "content",
    [
        "[" * 100_000 + "]" * 100_000,
        "{" + '"a":{' * 50_000 + "}" * 50_001,
        json.dumps([{"name": "Deep", "type": "monster", "abilities": json.loads("[" * 30 + "]" * 30)}]),
        '{"cards": ' + "[" * 25 + "]" * 25 + "}",
    ],
    ids=["list-100k-deep", "object-50k-deep", "abilities-30-deep", "cards-25-deep"],
)
def test_deep_json_is_refused_without_recursing(loaded_db: str, tmp_path: Path, content: str) -> None:
    path = tmp_path / "deep.json"
    path.write_text(content, encoding="utf-8")
    assert_refused_unchanged(["catalog", "import", path, "--game", "mea"], loaded_db, 2, contains="nesting")


@pytest.mark.parametrize(
    ("value", "code"),
    [
        ("NaN", 2),
        ("Infinity", 2),
        ("-Infinity", 2),
        ("1e400", 1),
        ("-1e400", 1),
        ("1" + "0" * 5000, 2),
        ("99999999999999999999", 1),
        ("-1", 1),
        ("1.5", 1),
        ("true", 1),
        ('"1e400"', 1),
        ('"Infinity"', 1),
        ('"nan"', 1),
        ('"1.5e400"', 1),
        ('"²"', 1),
        ('{"a": 1}', 1),
        ("[1, 2]", 1),
    ],
)
def test_out_of_range_numbers_in_json_are_refused(loaded_db: str, tmp_path: Path, value: str, code: int) -> None:
    path = tmp_path / "n.json"
    path.write_text(f'[{{"name": "Number Goblin", "type": "monster", "cost": {value}}}]', encoding="utf-8")
    assert_refused_unchanged(["catalog", "import", path, "--game", "mea"], loaded_db, code)


@pytest.mark.parametrize(
    "value",
    [
        "1e400",
        "1.5e400",
        "-1.5e400",
        "Infinity",
        "nan",
        "99999999999999999999",
        "9" * 5000,
        "-1",
        "1e6+1",
        "0x10",
        "½",
        "²",
        "3 3",
    ],
)
@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_out_of_range_numbers_in_cells_are_refused(loaded_db: str, tmp_path: Path, value: str, fmt: str) -> None:
    path = WRITERS[fmt](tmp_path / f"n.{fmt}", [["name", "type", "cost"], ["Number Goblin", "monster", value]])
    assert_refused_unchanged(["catalog", "import", path, "--game", "mea"], loaded_db, 1, contains="column 'cost'")


def test_xlsx_cells_past_the_header_are_refused(loaded_db: str, tmp_path: Path) -> None:
    path = _xlsx(tmp_path / "past.xlsx", [["name", "type"], ["Past Goblin", "monster", "stray"]])
    assert_refused_unchanged(["catalog", "import", path, "--game", "mea"], loaded_db, 1, contains="past the header")


@pytest.mark.parametrize(
    "content",
    [b"not a zip at all", b"PK\x03\x04" + b"\0" * 100, b"", b"PK\x05\x06" + b"\0" * 18],
    ids=["text", "truncated-zip", "empty", "empty-zip"],
)
def test_a_damaged_xlsx_is_refused(loaded_db: str, tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "bad.xlsx"
    path.write_bytes(content)
    assert_refused_unchanged(["catalog", "import", path, "--game", "mea"], loaded_db, 2)


def test_a_zip_that_is_not_a_workbook_is_refused(loaded_db: str, tmp_path: Path) -> None:
    path = tmp_path / "other.xlsx"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("hello.txt", "hello")
    assert_refused_unchanged(["catalog", "import", path, "--game", "mea"], loaded_db, 2, contains="not a readable XLSX")


@pytest.mark.parametrize("declared", [0, 10, 200])
def test_an_xlsx_whose_directory_understates_a_size_is_refused(loaded_db: str, tmp_path: Path, declared: int) -> None:
    """zipfile stops at the declared size, so the bound holds; the short entry is then unreadable."""
    path = _xlsx(tmp_path / "lying.xlsx", _rows(50, "Deal 1 damage to every monster on the board."))
    raw = bytearray(path.read_bytes())
    name = b"xl/worksheets/sheet1.xml"
    at = raw.find(name, raw.find(b"PK\x01\x02")) - 46  # the directory entry of the sheet
    assert raw[at : at + 4] == b"PK\x01\x02"
    raw[at + 24 : at + 28] = declared.to_bytes(4, "little")
    path.write_bytes(bytes(raw))
    assert_refused_unchanged(["catalog", "import", path, "--game", "mea"], loaded_db, 2, contains="lying.xlsx")
