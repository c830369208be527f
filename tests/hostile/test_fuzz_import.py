"""Fuzzing every parser of this half of issue 12: any input gives a result or a ``CardbaseError``.

Parsers: CSV, XLSX and JSON catalog files (as files and as rows), the deck text and JSON forms,
share codes, house formats TOML. Each property runs at most 200 examples (a shared machine).
"""

from __future__ import annotations

import base64
import json
import math
import tempfile
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardbase.catalog.fields import GAME_FIELDS
from cardbase.db.io import ParsedFile, SourceRow, parse_rows, read_catalog_file
from cardbase.decks.files import decode, parse_json
from cardbase.decks.formats import load_house_formats
from cardbase.decks.service import catalog_index
from cardbase.decks.text import parse_text
from cardbase.errors import CardbaseError
from tests.conftest import REPO

EXAMPLES = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
GAMES = ["mea", "meio", "meikyu"]
HEADINGS = sorted(
    {f.name for fields in GAME_FIELDS.values() for f in fields} | {"atk", "def", "mana", "id", "bogus", ""}
)

_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(10**30), 10**30)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=40)
    | st.sampled_from(["?", "unknown", "1e400", "Infinity", "NaN", "²", "-1", "1.0", "=1+1", "'=x", "monster", "land"])
)
_JSON = st.recursive(
    _SCALARS.filter(lambda v: not (isinstance(v, float) and not math.isfinite(v))),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(HEADINGS), inner, max_size=6),
    max_leaves=20,
)


def _checked(call: Any) -> Any:
    """The parser's result, or None when it refused with the project's own error."""
    try:
        return call()
    except CardbaseError as error:
        assert str(error)
        return None


def _file(suffix: str, content: bytes) -> Path:
    with tempfile.NamedTemporaryFile(suffix=suffix, delete=False) as handle:
        handle.write(content)
    return Path(handle.name)


_CSV_CHARS = st.sampled_from(list("abc,;\t\"'\n\r =+-@1 勇\x00\x1b"))


@EXAMPLES
@given(
    game=st.sampled_from(GAMES),
    header=st.lists(st.sampled_from(HEADINGS), min_size=1, max_size=6),
    body=st.text(_CSV_CHARS, max_size=200),
)
def test_any_csv_file_gives_a_result_or_a_cardbase_error(game: str, header: list[str], body: str) -> None:
    path = _file(".csv", (",".join(header) + "\n" + body).encode("utf-8", "surrogatepass"))
    try:
        parsed = _checked(lambda: read_catalog_file(path, game))
    finally:
        path.unlink()
    assert parsed is None or isinstance(parsed, ParsedFile)


@EXAMPLES
@given(game=st.sampled_from(GAMES), raw=st.binary(max_size=300))
def test_any_bytes_as_csv_json_or_xlsx_give_a_result_or_a_cardbase_error(game: str, raw: bytes) -> None:
    for suffix in (".csv", ".json", ".xlsx"):
        path = _file(suffix, raw)
        try:
            _checked(lambda: read_catalog_file(path, game))  # noqa: B023
        finally:
            path.unlink()


@EXAMPLES
@given(game=st.sampled_from(GAMES), data=_JSON)
def test_any_json_catalog_gives_a_result_or_a_cardbase_error(game: str, data: Any) -> None:
    for payload in (data, {"game": game, "cards": data}, [data]):
        path = _file(".json", json.dumps(payload).encode())
        try:
            _checked(lambda: read_catalog_file(path, game))  # noqa: B023
        finally:
            path.unlink()


_XLSX_CELL = (
    st.none()
    | st.integers(-(10**15), 10**15)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.booleans()
    | st.text(st.characters(exclude_categories=("Cs", "Cc")), max_size=20)
    | st.datetimes(min_value=datetime(1900, 3, 1), max_value=datetime(2100, 1, 1))
    | st.sampled_from(["=1+1", "'=x", "?", "monster", "character", "1e400"])
)


@settings(max_examples=100, deadline=None)
@given(
    game=st.sampled_from(GAMES),
    header=st.lists(st.sampled_from(HEADINGS) | st.none(), min_size=1, max_size=6),
    rows=st.lists(st.lists(_XLSX_CELL, max_size=8), max_size=6),
)
def test_any_xlsx_workbook_gives_a_result_or_a_cardbase_error(
    game: str, header: list[str | None], rows: list[list[Any]]
) -> None:
    from openpyxl import Workbook

    workbook = Workbook()
    sheet = workbook.active
    sheet.append(header)
    for row in rows:
        sheet.append(row)
    path = _file(".xlsx", b"")
    try:
        workbook.save(path)
        _checked(lambda: read_catalog_file(path, game))
    finally:
        path.unlink()


@EXAMPLES
@given(
    game=st.sampled_from(GAMES),
    header=st.lists(st.sampled_from(HEADINGS), min_size=1, max_size=6, unique=True),
    rows=st.lists(st.dictionaries(st.sampled_from(HEADINGS), _JSON, max_size=6), max_size=6),
)
def test_any_rows_give_good_records_or_problems(game: str, header: list[str], rows: list[dict[str, Any]]) -> None:
    source = (SourceRow(f"row {i + 2}", cells) for i, cells in enumerate(rows))
    parsed = _checked(lambda: parse_rows(game, "fuzz", header, source))
    if parsed is not None:
        for records in parsed.records.values():
            for record in records:
                assert record["name"] and record["_where"].startswith("row ")


_DECK_LINES = st.lists(
    st.one_of(
        st.text(max_size=40),
        st.sampled_from(
            ["game: meio", "game: mea", "players: ²", "players: 3", "[first half]", "[]", "# c", "name: x #2"]
        ),
        st.builds(
            lambda n, name, s: f"{n} {name} ({s})", st.integers(-5, 2000), st.text(max_size=15), st.text(max_size=8)
        ),
    ),
    max_size=12,
)


@pytest.fixture(scope="module")
def index() -> Any:
    from cardbase.db.engine import open_database

    with tempfile.TemporaryDirectory() as folder:
        database = open_database(f"sqlite:///{folder}/fuzz.db")
        found = catalog_index(database)
        database.engine.dispose()
    return found


@EXAMPLES
@given(lines=_DECK_LINES)
def test_any_deck_text_reads_and_resolves(index: Any, lines: list[str]) -> None:
    from cardbase.decks.validate import resolve

    deck = parse_text("\n".join(lines))
    resolved = _checked(lambda: resolve(deck, index))
    assert resolved is None or resolved.deck is not None


@EXAMPLES
@given(data=_JSON | st.fixed_dictionaries({"game": st.sampled_from(GAMES), "players": _SCALARS, "cards": _JSON}))
def test_any_json_deck_gives_a_deck_or_a_cardbase_error(data: Any) -> None:
    _checked(lambda: parse_json(json.dumps(data), "fuzz.json"))


@EXAMPLES
@given(raw=st.binary(max_size=60))
def test_any_share_code_gives_a_deck_or_a_cardbase_error(index: Any, raw: bytes) -> None:
    for code in (base64.urlsafe_b64encode(raw).decode(), base64.urlsafe_b64encode(b"\x01" + raw).decode().rstrip("=")):
        _checked(lambda: decode(code, index))  # noqa: B023


@EXAMPLES
@given(text=st.text(max_size=80))
def test_any_text_as_a_share_code_gives_a_deck_or_a_cardbase_error(index: Any, text: str) -> None:
    _checked(lambda: decode(text, index))


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return json.dumps(value) if not isinstance(value, float) or math.isfinite(value) else "nan"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {_toml_value(v)}" for k, v in value.items()) + "}"


_FORMAT_KEYS = st.sampled_from(
    [
        "game",
        "base",
        "description",
        "min_cards",
        "max_cards",
        "copy_limit",
        "banned",
        "limits",
        "catalog_copies",
        "bogus",
    ]
)
_TOML_VALUES = st.recursive(
    st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.text(max_size=10)
    | st.sampled_from(["mea", "meio", "standard"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)


@EXAMPLES
@given(
    formats=st.dictionaries(
        st.text(min_size=1, max_size=8), st.dictionaries(_FORMAT_KEYS, _TOML_VALUES, max_size=6), max_size=3
    )
)
def test_any_formats_toml_gives_formats_or_a_cardbase_error(formats: dict[str, dict[str, Any]]) -> None:
    text = "".join(
        f"[formats.{json.dumps(name)}]\n" + "".join(f"{key} = {_toml_value(v)}\n" for key, v in spec.items())
        for name, spec in formats.items()
    )
    path = _file(".toml", text.encode())
    try:
        _checked(lambda: load_house_formats(path))
    finally:
        path.unlink()


@EXAMPLES
@given(text=st.text(st.sampled_from(list("[]{}=\"'.,#\n abc1formats")), max_size=120))
def test_any_toml_text_gives_formats_or_a_cardbase_error(text: str) -> None:
    path = _file(".toml", text.encode())
    try:
        _checked(lambda: load_house_formats(path))
    finally:
        path.unlink()


def test_deep_toml_is_a_cardbase_error() -> None:
    path = _file(".toml", ("[formats.x]\nbanned = " + "[" * 100_000 + "]" * 100_000 + "\n").encode())
    try:
        with pytest.raises(CardbaseError):
            load_house_formats(path)
    finally:
        path.unlink()


@pytest.mark.parametrize(
    "spec",
    [
        'game = "mea"\nbase = []',
        'game = []\nbase = "standard"',
        'game = "mea"\nbase = {}',
        'game = "mea"\ndescription = 1',
        "game = {a = 1}",
        'game = "mea"\nlimits = {x = true}',
        'game = "mea"\nbanned = [[]]',
        'game = "mea"\nmin_cards = 1e400',
        'game = "mea"\nmax_cards = -1',
        'game = "mea"\nmin_cards = 99999999999999999999',
    ],
)
def test_badly_typed_format_keys_are_a_cardbase_error(spec: str) -> None:
    path = _file(".toml", f"[formats.house]\n{spec}\n".encode())
    try:
        with pytest.raises(CardbaseError):
            load_house_formats(path)
    finally:
        path.unlink()


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside ``data`` (keys of objects, indexes of lists)."""
    inner = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else []
    return [prefix] + [path for key, value in inner for path in _paths(value, (*prefix, key))]


_PROFILE = json.loads((REPO / "cardbase/catalog/data/meikyu_profile_default.json").read_text(encoding="utf-8"))
_PROFILE_PATHS = [path for path in _paths(_PROFILE) if path and path[0] != "reasoning"]


@EXAMPLES
@given(
    where=st.lists(st.sampled_from(_PROFILE_PATHS), min_size=1, max_size=3),
    values=st.lists(_JSON | st.sampled_from([[], {}, [["land"]], {"land": 1}]), min_size=3, max_size=3),
)
def test_any_value_anywhere_in_an_assumption_profile_gives_a_profile_or_its_problems(
    where: list[tuple[Any, ...]], values: list[Any]
) -> None:
    """The shipped profile with a value replaced anywhere (a list or an object where a word goes, a
    huge number, a text where a number goes): a profile, or ProfileProblems naming each problem
    (a list as an extra card's type was an unhashable TypeError, an internal error at exit 70)."""
    import copy

    from cardbase.games.meikyu.pool import ProfileProblems, parse_profile

    data = copy.deepcopy(_PROFILE)
    for path, value in zip(where, values, strict=False):
        holder = data
        try:
            for key in path[:-1]:
                holder = holder[key]
            holder[path[-1]] = value
        except (KeyError, IndexError, TypeError):  # an earlier change replaced what held this path
            continue
    try:
        parse_profile(data, "fuzzed.json")
    except ProfileProblems as error:
        assert error.problems and all(isinstance(p, str) and p for p in error.problems)
