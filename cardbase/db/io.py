"""Import and export card catalogs as CSV, XLSX and JSON.

An import is checked whole before anything is written: every bad row is reported with
its row number as a spreadsheet shows it (the header is row 1), its column and the
reason, and the database is left exactly as it was. A good file is upserted by
(game, set, name) in one transaction. An empty cell gives no value: a new card's
field stays unknown, an existing card's field keeps its value.

Every line of a file is accounted for: a quote left open, a row with more or fewer cells
than the header, or a cell beyond the header's columns is an error naming its row. Every
read is bounded (``Bounds``); a file over a bound is refused with a message naming it.

Spreadsheet formulas: a CSV or XLSX cell of text that starts with ``= + - @``, a tab, a
carriage return or ``'`` is written with a ``'`` before it (OWASP's advice against CSV
injection), and on import a ``'`` followed by one of those characters is dropped. The rule
is the same both ways, so an export imports back to exactly the text it was made from, a
``'`` a user typed before a plain character is kept, and ``''`` in a user's file stands for
one ``'``. JSON is not opened by spreadsheets: its values are written and read as they are.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import math
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardbase.catalog.fields import (
    DEFAULT_SET,
    GAME_FIELDS,
    GAME_TYPES,
    READ_ONLY_COLUMNS,
    STAT_COLUMNS,
    Field,
    canonical_type,
    field_for_header,
    inapplicable_fields,
    inapplicable_problem,
    inapplicable_values,
    typed_fields,
    unknown_fields,
)
from cardbase.errors import InvalidData, Said, UnreadableInput, UsageError, counted, json_syntax, plural, quoted, shown
from cardbase.names import fold, name_problem, set_code, slug
from cardbase.sheets import csv_rows, neutralise, unneutralise
from cardbase.textfiles import (
    LongNumber,
    check_characters,
    check_line_ends,
    decode_text,
    json_depth,
    json_type,
    json_whole,
    long_number_at,
    missing_file_hint,
    output_file,
    read_bytes,
    refuse_duplicate_keys,
    split_lines,
    write_text_output,
)

if TYPE_CHECKING:
    from sqlmodel import Session

    from cardbase.db.engine import Database

FORMATS = ("csv", "json", "xlsx")
_UNKNOWN_MARKERS = {"", "?", "unknown", "null", "none", "n/a", "na"}
UNKNOWN_CELL = "?"
"""An unknown value in a spreadsheet (CSV, XLSX): what a CSV or XLSX export writes for it, as every table
shows it, and what an import reads as unknown in any value field, a number's or a text's (a field the
card's type does not have is an empty cell: not applicable is no value, not an unknown one)."""
_TEXT_VALUES = frozenset({"text", *STAT_COLUMNS})
"""The text fields that hold a card's values (its rules text, a land's name, a suit…), which may be
unknown; a name, type, set, alias, tag or note is never ``?``-unknown."""
# Value ranges beyond "a whole number, 0 or more".
_RANGES = {"rank": (1, 13), "min_players": (2, 4)}
_SUITS = {
    "s": "S",
    "h": "H",
    "d": "D",
    "c": "C",
    "spades": "S",
    "hearts": "H",
    "diamonds": "D",
    "clubs": "C",
    "♠": "S",
    "♥": "H",
    "♦": "D",
    "♣": "C",
}
MAX_NAME = 200


@dataclass(frozen=True, slots=True)
class Bounds:
    """What one import may hold; each is generous for a real catalog (a few thousand cards)."""

    file_bytes: int = 64 * 1024 * 1024
    """64 MiB: a 200,000-row CSV of full card text is about 50 MB."""
    rows: int = 200_000
    """Card rows (the header not counted): 400 times the largest game's 500 cards."""
    columns: int = 100
    """Columns of the header (a game has at most 16 fields)."""
    cells: int = 4_000_000
    """Cells in all rows together (200,000 rows of 20 filled columns)."""
    cell_chars: int = 10_000
    """Characters in one cell: a card's rules text is a few hundred."""
    xlsx_unpacked: int = 128 * 1024 * 1024
    """Bytes of an XLSX workbook once unzipped (all entries); checked before the workbook is read."""
    xlsx_entries: int = 1_000
    """Files inside an XLSX workbook (a one-sheet workbook has about ten)."""
    json_depth: int = 20
    """Nesting of a JSON catalog (a card's abilities are about six levels deep)."""


BOUNDS = Bounds()


def _too_large(path: Path, what: str, size: int, bound: int, unit: str = "bytes") -> UnreadableInput:
    return UnreadableInput(f"{path}: {what} is {size:,} {unit}, over the import bound of {bound:,} {unit}")


def _read_bounded(path: Path, raw: bytes | None = None, what: str = "catalog file") -> bytes:
    """The bytes of a ``what`` (a catalog file), refused before reading when over ``BOUNDS.file_bytes``;
    ``raw``: the bytes of a file named ``path`` already in memory (an upload), checked against the same bound."""
    if raw is not None:
        if len(raw) > BOUNDS.file_bytes:
            raise _too_large(path, "the file", len(raw), BOUNDS.file_bytes)
        return raw
    try:
        size = path.stat().st_size
    except OSError:
        size = 0  # read_bytes gives the error
    if size > BOUNDS.file_bytes:
        raise _too_large(path, "the file", size, BOUNDS.file_bytes)
    raw = read_bytes(path, what)
    if len(raw) > BOUNDS.file_bytes:
        raise _too_large(path, "the file", len(raw), BOUNDS.file_bytes)
    return raw


def _check_header(path: Path, header: list[str]) -> None:
    if len(header) > BOUNDS.columns:
        raise _too_large(path, "row 1", len(header), BOUNDS.columns, "columns")


@dataclass(frozen=True, slots=True)
class SourceRow:
    """One row of an input file: where it is (``row 7`` or ``cards[5]``) and its cells by column."""

    where: str
    cells: dict[str, Any]


@dataclass
class ParsedFile:
    """A file's good records per set, or the problems that make it unusable."""

    records: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    rows: int = 0
    headings: dict[str, str] = field(default_factory=dict)
    """Each field's column heading as the file writes it (``lvl`` for level), for messages."""
    set_name: tuple[str, str] | None = None
    """The set code and name a JSON catalog gives its set (``set``, ``set_name``): the name of the set if
    the file makes it."""


def detect_format(path: Path, given: str | None = None, known: tuple[str, ...] = FORMATS) -> str:
    """The file format from ``given`` or the file's extension: one of ``FORMATS`` (a refusal names
    ``known``, the formats the command reads: the collection's include its text list)."""
    fmt = (given or path.suffix.lstrip(".")).lower()
    if fmt not in FORMATS:
        if not given:  # a mistyped name, or one out of reach: say so, not that its ending is unknown
            try:
                os.lstat(path)
            except (FileNotFoundError, NotADirectoryError):
                raise UnreadableInput(f"{shown(str(path))}: no such file{missing_file_hint(str(path))}") from None
            except OSError as error:
                raise UnreadableInput(f"{shown(str(path))}: cannot read: {error.strerror or error}") from None
        names = ", ".join(known[:-1]) + f" or {known[-1]}"
        raise UsageError(f"{path}: unknown format {quoted(fmt or '(no extension)')}; use --format {names}")
    return fmt


def read_csv(path: Path, raw: bytes | None = None, what: str = "catalog file") -> tuple[list[str], Iterator[SourceRow]]:
    """Header and rows of a CSV file (UTF-8 with or without BOM, CRLF or LF, `,` `;` or tab).

    Strict: a quote left open, text after a closing quote, or a row whose cells do not match
    the header's columns in number is an error naming the row (and the line it starts on).
    A line with nothing on it is skipped.
    """
    text = decode_text(_read_bounded(path, raw, what), str(path), what, hint=" (is it an .xlsx? use that extension)")
    check_line_ends(text, str(path))  # a row ends where a line does, and a NEL, LS or PS ends none
    first_line = next(iter(split_lines(text)), "")
    delimiter = max(",;\t", key=first_line.count) if first_line else ","
    number = 0  # the rows read before this one (the header is row 1)

    def at(line: int) -> str:
        return f"row {number + 1} (line {line})" if number else "row 1"

    reader = csv_rows(text, str(path), delimiter, at)
    header = next(reader, (1, None))[1]
    if not header or not any(h.strip() for h in header):
        raise UnreadableInput(f"{path}: empty file; the first row must name the columns")
    _check_header(path, header)

    def rows() -> Iterator[SourceRow]:
        nonlocal number
        number = 1
        for _, cells in reader:
            if not cells:
                continue  # an empty line
            number += 1
            if len(cells) != len(header):
                if len(cells) == 1 and not cells[0].strip():
                    continue  # a line of spaces
                more = "more" if len(cells) > len(header) else "fewer"
                yield SourceRow(
                    f"row {number}",
                    {_BAD_ROW: f"{more} cells than the header has columns ({len(cells)}, not {len(header)})"},
                )
                continue
            if not any(c.strip() for c in cells):
                continue
            cells = [unneutralise(c) if c[:1] == "'" else c for c in cells]
            yield SourceRow(f"row {number}", dict(zip(header, cells, strict=True)))

    return header, rows()


_BAD_ROW = "\0bad-row"
"""Key of a row that cannot be read cell by cell; its value says why."""
NOT_OBJECT = "\0notobject"
"""Key of a JSON row that is not an object."""


def _check_zip(path: Path, raw: bytes) -> None:
    """Refuse an XLSX whose unzipped entries would be over the bounds, before openpyxl reads it.

    The sizes are the zip directory's; ``zipfile`` never gives more bytes of an entry than its
    directory says (and a lying entry then fails its CRC), so the sum bounds what is unpacked.
    """
    from zipfile import BadZipFile, ZipFile

    try:
        with ZipFile(io.BytesIO(raw)) as archive:
            entries = archive.infolist()
    except (BadZipFile, OSError, ValueError) as error:
        raise UnreadableInput(f"{path}: not a readable XLSX workbook ({error})") from None
    if len(entries) > BOUNDS.xlsx_entries:
        raise _too_large(path, "the workbook", len(entries), BOUNDS.xlsx_entries, "files inside")
    unpacked = sum(e.file_size for e in entries)
    if unpacked > BOUNDS.xlsx_unpacked:
        raise UnreadableInput(
            f"{path}: the workbook unzips to {unpacked:,} {plural(unpacked, 'byte')}, over the import bound of "
            f"{BOUNDS.xlsx_unpacked:,} {plural(BOUNDS.xlsx_unpacked, 'byte')} unzipped (xlsx_unpacked)"
        )


def _holds(cell: Any) -> bool:
    """Whether a sheet's cell holds anything (not empty, nor blanks)."""
    return cell is not None and not (isinstance(cell, str) and not cell.strip())


def read_xlsx(
    path: Path, raw: bytes | None = None, what: str = "catalog file"
) -> tuple[list[str], Iterator[SourceRow]]:
    """Header and rows of the first sheet of an XLSX workbook (cells past the header are errors, and so is
    another sheet holding any cell)."""
    from openpyxl import load_workbook

    raw = _read_bounded(path, raw, what)
    _check_zip(path, raw)
    try:
        workbook = load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
        for other in workbook.worksheets[1:]:  # read past, its rows would be lost unseen
            other.reset_dimensions()
            if any(_holds(c) for cells in other.iter_rows(values_only=True) for c in cells):
                raise UnreadableInput(
                    f"{path}: sheet {quoted(other.title)} holds cells; only the first sheet "
                    f"({quoted(workbook.worksheets[0].title)}) is read: move its rows there, or delete it"
                )
        sheet = workbook.worksheets[0]
        sheet.reset_dimensions()  # a workbook's own claim of its size is not trusted: rows hold their cells
        it = sheet.iter_rows(values_only=True)
        header_cells = next(it, None)
    except (MemoryError, UnreadableInput):
        raise
    except Exception as error:  # openpyxl and its XML parser fail on damaged files in many ways
        raise UnreadableInput(f"{path}: not a readable XLSX workbook ({type(error).__name__}: {error})") from None
    if not header_cells or not any(h not in (None, "") for h in header_cells):
        raise UnreadableInput(f"{path}: sheet {quoted(sheet.title)} is empty; row 1 must name the columns")
    header = ["" if h is None else str(h) for h in header_cells]
    while header and not header[-1].strip():
        header.pop()
    _check_header(path, header)

    def rows() -> Iterator[SourceRow]:
        number = 1
        try:
            for number, cells in enumerate(it, start=2):
                if all(c is None or (isinstance(c, str) and not c.strip()) for c in cells):
                    continue
                extra = [c for c in cells[len(header) :] if c is not None and str(c).strip()]
                if extra:
                    yield SourceRow(
                        f"row {number}",
                        {_BAD_ROW: f"cells past the header's {counted(len(header), 'column')} ({quoted(extra[0])})"},
                    )
                    continue
                values = [unneutralise(c) for c in cells[: len(header)]]
                yield SourceRow(f"row {number}", dict(zip(header, values, strict=False)))
        except MemoryError:
            raise
        except Exception as error:  # a damaged sheet: bad XML, a bad CRC, a cell openpyxl cannot type
            raise UnreadableInput(f"{path}: row {number + 1}: unreadable ({type(error).__name__}: {error})") from None

    return header, rows()


CATALOG_TOP = ("game", "set", "set_name", "source", "note", "cards")
"""What a JSON catalog file's object may hold beside its cards (``source`` and ``note`` are for its
readers: an imported card's source is ``file:NAME``)."""


def read_json(
    path: Path, raw: bytes | None = None, what: str = "catalog file", top_keys: tuple[str, ...] = CATALOG_TOP
) -> tuple[list[str], Iterator[SourceRow], dict[str, Any]]:
    """Columns, rows and top-level fields of a JSON catalog: a catalog file or a list of cards. A
    top-level field not in ``top_keys`` is refused, naming it (it would be read past unseen)."""
    text = decode_text(_read_bounded(path, raw, what), str(path), what, hint=" (is it an .xlsx? use that extension)")
    depth = json_depth(text)
    if depth > BOUNDS.json_depth:
        raise _too_large(path, "the JSON nesting", depth, BOUNDS.json_depth, "levels")
    try:
        data = json.loads(
            text, parse_constant=_no_constant, parse_int=json_whole, object_pairs_hook=refuse_duplicate_keys
        )
    except json.JSONDecodeError as error:
        where = f"{path}: line {error.lineno}, column {error.colno}"
        raise UnreadableInput(f"{where}: invalid JSON: {json_syntax(error)}") from None
    except LongNumber as error:
        line, column = long_number_at(text)
        raise UnreadableInput(f"{path}: line {line}, column {column}: invalid JSON: {error}") from None
    except ValueError as error:  # NaN, Infinity, an integer of over 4,300 digits, a key given twice
        raise UnreadableInput(f"{path}: invalid JSON: {error}") from None
    check_characters(data, str(path))
    top: dict[str, Any] = {}
    if isinstance(data, dict):
        unknown = [k for k in data if k not in top_keys]
        if unknown:
            raise UnreadableInput(
                f"{path}: {quoted(unknown[0][:40])} is not a field of a {what} ({', '.join(top_keys)}); "
                "remove it or correct its name"
            )
        top = {k: v for k, v in data.items() if k != "cards"}
        cards = data.get("cards")
        label = "cards"
    else:
        cards, label = data, ""
    if not isinstance(cards, list):
        raise UnreadableInput(f"{path}: expected a list of cards or an object with a 'cards' list")
    if len(cards) > BOUNDS.rows:
        raise _too_large(path, "the list of cards", len(cards), BOUNDS.rows, "cards")
    header: list[str] = []
    for card in cards:
        if isinstance(card, dict):
            header.extend(k for k in card if k not in header)
            if len(header) > BOUNDS.columns:
                raise _too_large(path, "the set of card fields", len(header), BOUNDS.columns, "fields")

    def rows() -> Iterator[SourceRow]:
        for i, card in enumerate(cards):
            where = f"{label}[{i}]"
            if not isinstance(card, dict):
                yield SourceRow(where, {NOT_OBJECT: card})
                continue
            yield SourceRow(where, card)

    return header, rows(), top


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


_PLAIN_NUMBER = re.compile(r"[+-]?[0-9]+(?:\.[0-9]*)?")


def _parse_int(value: Any) -> int | None:
    if value is None or isinstance(value, bool):
        if isinstance(value, bool):
            raise ValueError("a whole number, not true/false")
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if not math.isfinite(value) or value != int(value):
            raise ValueError(f"a whole number, not {quoted(value)}")
        return int(value)
    text = str(value).strip()
    if text.lower() in _UNKNOWN_MARKERS:
        return None
    try:
        if not _PLAIN_NUMBER.fullmatch(text):  # float() and int() read 1_0 as 10 and ٣ (another script's 3) as 3
            raise ValueError(text)
        number = float(text) if "." in text else int(text)
    except ValueError:
        raise ValueError(f"a whole number (or empty or ? for unknown), not {quoted(text)}") from None
    if isinstance(number, float):
        if not math.isfinite(number) or number != int(number):
            raise ValueError(f"a whole number, not {quoted(text)}")
        number = int(number)
    return number


def _parse_text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, dict):
        raise ValueError("a value, not an object")
    if isinstance(value, list):
        if any(isinstance(v, dict | list) for v in value):
            raise ValueError("a list of values, not of objects or lists")
        return "; ".join(str(v) for v in value)
    text = str(value).strip()
    return text or None


def _json_type_problem(f: Field, value: Any) -> str | None:
    """Why a JSON value cannot be ``f``'s (None when it can): JSON says what a value is, so text
    fields take strings, numbers numbers (or text such as ``?``), lists and abilities lists."""
    if value is None:
        return None
    if f.kind is list:
        ok = isinstance(value, list | str)
        want = "a list of abilities"
    elif f.name in ("aliases", "tags"):
        ok = isinstance(value, str) or (isinstance(value, list) and all(isinstance(v, str) for v in value))
        want = "text or a list of texts"
    elif f.kind is int:
        ok = isinstance(value, int | float | str) and not isinstance(value, bool)
        want = "a whole number"
    else:
        ok = isinstance(value, str)
        want = "text (a JSON string)"
    return None if ok else f"{want}, not {json_type(value)}"


def _convert(f: Field, value: Any, typed: bool = False) -> Any:
    """``value`` (a cell, or with ``typed`` a JSON value) as the value of field ``f``; ``ValueError`` saying why not."""
    if typed and (problem := _json_type_problem(f, value)):
        raise ValueError(problem)
    if f.kind is list:  # JSON data: a list in a JSON file, JSON text in a cell
        if value is None or isinstance(value, list):
            return value
        text = _parse_text(value)
        if text is None:
            return None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise ValueError(f"not JSON ({json_syntax(error)}, at character {error.pos + 1})") from None
        if not isinstance(data, list):
            raise ValueError("must be a JSON list of ability sentences")
        return data
    if f.name == "tags":
        from cardbase.names import tag_list

        return [] if value is None else tag_list(value)
    if f.name == "aliases":
        if isinstance(value, list):
            return [str(v).strip() for v in value if str(v).strip()]
        text = _parse_text(value)
        return [a.strip() for a in text.split(";") if a.strip()] if text else []
    if f.kind is int:
        number = _parse_int(value)
        if number is not None:
            low, high = _RANGES.get(f.name, (0, 10**6))
            if not low <= number <= high:
                raise ValueError(f"must be from {low} to {high}, not {number}")
        return number
    text = _parse_text(value)
    if text == UNKNOWN_CELL and f.name in _TEXT_VALUES:
        return None
    if f.name == "suit" and text is not None:
        if text.lower() not in _SUITS:
            raise ValueError(f"a suit (S, H, D or C), not {quoted(text)}")
        return _SUITS[text.lower()]
    return text


def _converter(f: Field, typed: bool) -> Callable[[Any], Any]:
    """``_convert`` for the cells of one column, with a short cut for the common cell of a spreadsheet
    (text, and for a number plain ASCII digits) that gives what ``_convert`` gives."""
    if typed or f.kind is list or f.name in ("tags", "aliases", "suit"):
        return lambda value: _convert(f, value, typed)
    if f.kind is int:
        low, high = _RANGES.get(f.name, (0, 10**6))

        def to_int(value: Any) -> int | None:
            if value == "":
                return None
            # (a long run of digits goes the long way, which names the cell's bound in its refusal)
            if isinstance(value, str) and len(value) <= 9 and value.isascii() and value.isdecimal():
                number: int | None = int(value)
            else:
                number = _parse_int(value)
            if number is not None and not low <= number <= high:
                raise ValueError(f"must be from {low} to {high}, not {number}")
            return number

        return to_int

    unknown = UNKNOWN_CELL if f.name in _TEXT_VALUES else None

    def to_text(value: Any) -> str | None:
        text = (value.strip() or None) if isinstance(value, str) else _parse_text(value)
        return None if text == unknown else text

    return to_text


def _strange_columns(game: str, headings: list[str]) -> list[str]:
    """The problems of ``headings`` that are no ``game`` card field: one line naming the game whose
    fields they all are (a sheet of another game, imported with the wrong ``--game``), else a line each."""
    for other in GAME_FIELDS:
        if other != game and all(field_for_header(other, h) is not None for h in headings):
            named = ", ".join(quoted(h) for h in headings)
            return [
                f"row 1: the columns {named} are {other} card fields, not {game}: "
                f"is this a {other} file? import it as {other}'s (--game {other})"
            ]
    accepted = ", ".join(f.name for f in GAME_FIELDS[game])
    return [
        f"row 1, column {quoted(h)}: not a {game} card field (columns are {accepted}; "
        "synonyms like atk, def, mana work)"
        for h in headings
    ]


def parse_rows(
    game: str,
    origin: str,
    header: list[str],
    rows: Iterator[SourceRow],
    default_set: str | None = None,
    typed: bool = False,
) -> ParsedFile:
    """Check every row of a file for ``game``; the result holds good records or every problem.
    ``typed``: the values are JSON's, whose types must be the fields' (a spreadsheet's cells are read as text)."""
    parsed = ParsedFile()
    columns: dict[str, Field] = {}
    strangers: list[str] = []  # headings that are no field of the game
    for heading in header:
        if not str(heading).strip():
            continue
        f = field_for_header(game, str(heading))
        if f is not None:
            if f.name in {c.name for c in columns.values()}:
                parsed.problems.append(f"row 1, column {quoted(heading)}: a second column for {quoted(f.name)}")
            columns[heading] = f
        elif fold(str(heading)) not in READ_ONLY_COLUMNS:
            strangers.append(str(heading))
    if strangers:
        parsed.problems += _strange_columns(game, strangers)
    if "name" not in {f.name for f in columns.values()}:
        parsed.problems.append("row 1: no 'name' column")
    parsed.headings = {f.name: heading for heading, f in columns.items()}
    if parsed.problems:
        return parsed
    derived = {h: fold(str(h)) for h in header if fold(str(h)) in _CHECKED_DERIVED}
    seen: dict[str, tuple[str, str]] = {}  # card id: (row, name) of the first row with it
    name_column = next(h for h, f in columns.items() if f.name == "name")
    set_default = default_set or DEFAULT_SET[game]
    converters = {heading: _converter(f, typed) for heading, f in columns.items()}
    field_names = {heading: f.name for heading, f in columns.items()}
    set_codes: dict[str, str] = {}  # a set cell as given: its code (the few a file names, checked once each)
    cells = 0
    for row in rows:
        parsed.rows += 1
        if parsed.rows > BOUNDS.rows:
            raise UnreadableInput(f"{origin}: more than {BOUNDS.rows:,} card rows, over the import bound (rows)")
        cells += len(row.cells)
        if cells > BOUNDS.cells:
            raise UnreadableInput(
                f"{origin}: {row.where}: more than {BOUNDS.cells:,} {plural(BOUNDS.cells, 'cell')}, over the import "
                f"bound (cells)"
            )
        if _BAD_ROW in row.cells:
            parsed.problems.append(f"{row.where}: {row.cells[_BAD_ROW]}")
            continue
        if NOT_OBJECT in row.cells:
            parsed.problems.append(f"{row.where}: a card must be an object of field: value")
            continue
        if row.where == NOTE_ROW and _is_note(row.cells.get(name_column)):
            parsed.rows -= 1  # the note row ``catalog template`` writes under the header is not a card
            continue
        record: dict[str, Any] = {}
        bad = False
        for heading, value in row.cells.items():
            convert = converters.get(heading)
            if convert is None:
                continue
            if isinstance(value, str) and len(value) > BOUNDS.cell_chars:
                parsed.problems.append(
                    f"{row.where}, column {quoted(heading)}: {len(value):,} {plural(len(value), 'character')}, over "
                    f"the bound of "
                    f"{BOUNDS.cell_chars:,} for a cell"
                )
                bad = True
                continue
            try:
                converted = convert(value)
            except ValueError as error:
                parsed.problems.append(f"{row.where}, column {quoted(heading)}: {error}")
                bad = True
                continue
            if converted is not None and converted != []:
                record[field_names[heading]] = converted
        for heading, column in derived.items():
            value = row.cells.get(heading)
            given = str(value).strip() if value is not None else ""
            if not given:
                continue
            if column == "game" and fold(given) != game:
                parsed.problems.append(
                    f"{row.where}, column {quoted(heading)}: {quoted(given[:40])} is not the game imported ({game}); "
                    f"the column is not read: import the row with --game {fold(given)[:40]}, or empty the cell"
                )
                bad = True
            elif column == "id":
                record["_given_id"] = given[:200]
        name = record.get("name")
        if not name:
            if not bad:
                parsed.problems.append(f"{row.where}, column {quoted(name_column)}: the card has no name")
            continue
        if len(name) > MAX_NAME:
            parsed.problems.append(f"{row.where}, column {quoted(name_column)}: longer than {MAX_NAME} characters")
            continue
        name_slug = slug(name)
        if problem := name_problem(name, name_slug):
            parsed.problems.append(f"{row.where}, column {quoted(name_column)}: the name {quoted(name)} {problem}")
            continue
        if len(name_slug) > MAX_NAME:  # the id's column (and a URL's path) holds game/set/ and 200 more
            parsed.problems.append(
                f"{row.where}, column {quoted(name_column)}: the name {quoted(name, 60)} is {len(name_slug):,} "
                f"{plural(len(name_slug), 'character')} in its id (ligatures and letters such as ß are spelt out: ß "
                f"is ss, ﬃ is ffi); "
                f"at most {MAX_NAME}"
            )
            continue
        for text_field in ("text", "description", "land_name", "notes"):
            value = record.get(text_field)
            if isinstance(value, str) and (problem := _text_problem(value)):
                heading = next(h for h, f in columns.items() if f.name == text_field)
                parsed.problems.append(f"{row.where}, column {quoted(heading)}: {problem}")
                bad = True
        for alias in record.get("aliases", ()):
            if len(alias) > MAX_NAME:  # an alias is a name: it finds the card, and is a key of its own
                heading = next(h for h, f in columns.items() if f.name == "aliases")
                parsed.problems.append(
                    f"{row.where}, column {quoted(heading)}: the alias {quoted(alias, 60)} is longer than "
                    f"{MAX_NAME} characters"
                )
                bad = True
            elif problem := name_problem(alias):
                heading = next(h for h, f in columns.items() if f.name == "aliases")
                parsed.problems.append(f"{row.where}, column {quoted(heading)}: the alias {quoted(alias)} {problem}")
                bad = True
        if "type" in record:
            type_ = canonical_type(game, record["type"])
            if type_ is None:
                parsed.problems.append(
                    f"{row.where}, column 'type': {quoted(record['type'])} is not a {game} card type "
                    f"({', '.join(GAME_TYPES[game])})"
                )
                bad = True
            else:
                record["type"] = type_
                for field in inapplicable_values(game, type_, record):
                    heading = next(h for h, f in columns.items() if f.name == field)
                    parsed.problems.append(f"{row.where}, {inapplicable_problem(game, type_, field, heading)}")
                    bad = True
        if "abilities" in record:
            problem = _check_abilities(record["abilities"], record.get("type"))
            if problem:
                heading = next(h for h, f in columns.items() if f.name == "abilities")
                parsed.problems.append(f"{row.where}, column {quoted(heading)}: {problem}")
                bad = True
        given_set = record.pop("set", None) or set_default
        try:
            code = set_codes.get(given_set) or set_codes.setdefault(given_set, set_code(given_set))
        except ValueError as error:
            heading = next((h for h, f in columns.items() if f.name == "set"), "set")
            parsed.problems.append(f"{row.where}, column {quoted(heading)}: {error}")
            continue
        key = f"{game}/{code}/{name_slug}"
        if key in seen:
            first_where, first_name = seen[key]
            same = "is already on" if first_name == name else f"has the same card id ({key}) as {quoted(first_name)} on"
            parsed.problems.append(f"{row.where}, column {quoted(name_column)}: {quoted(name)} {same} {first_where}")
            bad = True
        else:
            seen[key] = (row.where, name)
        set_code_ = code
        if not bad:
            record["_where"], record["_id"] = row.where, key
            parsed.records.setdefault(set_code_, []).append(record)
    return parsed


_TEXT_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""What a text cell may not hold: controls other than tab and line breaks (CR and LF: NEL, LS and PS
end no line in cardbase's files, ``textfiles.LINE_END``, so a value holding one would not read back
from the CSV ``catalog export`` writes), and the bidirectional embeddings, overrides and isolates
(the marks U+200E, U+200F and U+061C are kept)."""


_CHECKED_DERIVED = ("game", "id")
"""The columns an export writes that an import does not read but checks against the row (``READ_ONLY_COLUMNS``):
a row whose ``game`` is another game, or whose ``id`` is another card's (a name changed in the sheet would
make a new card), is refused rather than imported as if they said nothing. ``short_id``, ``source`` and
``unknown`` follow from the card and what the import writes."""


NOTE_ROW = "row 2"
"""Only the row under a spreadsheet's header may be a note (a name starting with ``#``); a ``#``
name anywhere else, or in JSON, is refused as before (a deck list would read it as a comment)."""


def _is_note(name: Any) -> bool:
    """The name cell of a note for people: it starts with ``#`` (no card's name may)."""
    return isinstance(name, str) and name.lstrip().startswith("#")


def _text_problem(value: str) -> str | None:
    """Why a text cell cannot be stored: a control character other than tab and line breaks, or a
    bidirectional embedding, override or isolate (the marks U+200E, U+200F and U+061C are kept)."""
    found = _TEXT_CONTROL.search(value)
    return f"holds the control character U+{ord(found[0]):04X} at character {found.start() + 1}" if found else None


def _check_abilities(data: list[Any], type_: str | None) -> str | None:
    from cardbase.games.mea.abilities import AbilityError, parse_abilities

    try:
        parse_abilities(data, type_ or "monster", where="abilities")
    except AbilityError as error:
        return str(error)
    return None


def read_catalog_file(path: Path, game: str, fmt: str | None = None, raw: bytes | None = None) -> ParsedFile:
    """Read and check a catalog file of ``game`` in any supported format (``raw``: its bytes, already in
    memory; ``path`` then only names it)."""
    fmt = detect_format(path, fmt)
    if fmt == "csv":
        header, rows = read_csv(path, raw)
        return parse_rows(game, str(path), header, rows)
    if fmt == "xlsx":
        header, rows = read_xlsx(path, raw)
        return parse_rows(game, str(path), header, rows)
    header, rows, top = read_json(path, raw)
    for key in ("game", "set", "set_name", "source", "note"):
        if top.get(key) is not None and not isinstance(top[key], str):
            raise UnreadableInput(
                f"{path}: the file's {quoted(key)} must be text (a JSON string), not {json_type(top[key])}"
            )
    if top.get("game") not in (None, game):
        raise UnreadableInput(f"{path}: this file is for game {quoted(top['game'])}, not {quoted(game)}")
    parsed = parse_rows(game, str(path), header, rows, default_set=top.get("set"), typed=True)
    if given := (top.get("set_name") or "").strip():
        with contextlib.suppress(ValueError):  # a bad set code is refused with each of its rows
            parsed.set_name = (set_code(top.get("set") or DEFAULT_SET[game]), given)
    return parsed


@dataclass
class ImportResult:
    inserted: int
    updated: int
    unchanged: int
    sets: list[str]
    rows: int
    dry_run: bool
    warnings: list[str] = field(default_factory=list)
    """What the import changed beyond the file's values, each naming its row (the import goes through)."""

    def as_dict(self, file: str, game: str) -> dict[str, Any]:
        """The object of ``catalog import --json``."""
        return {
            "file": file,
            "game": game,
            "rows": self.rows,
            "inserted": self.inserted,
            "updated": self.updated,
            "unchanged": self.unchanged,
            "sets": self.sets,
            "dry_run": self.dry_run,
            "warnings": self.warnings,
        }


def _row_number(problem: str) -> int:
    """Problems are listed in row order (``row 7, column …``); the header's own come first."""
    m = re.match(r"row (\d+)", problem)
    return int(m.group(1)) if m else 0


def _new_card_problems(session: Session, game: str, parsed: ParsedFile) -> list[str]:
    """Every row that would make a new card without a type. A row names a known card by its name
    or an alias, matched as search matches them (folded: ``Cock`` is Cook, ``Grimor`` Grimoire);
    an unknown name gets the closest known names."""
    from sqlmodel import col, select

    from cardbase.db.models import Card, CardAlias
    from cardbase.fuzzy import closest

    problems: list[str] = []
    for code, records in parsed.records.items():
        cards = dict(session.execute(select(Card.id, Card.name).where(Card.game == game, Card.set_code == code)).all())
        names = {fold(name): name for name in cards.values()}
        for alias, cid in session.execute(
            select(CardAlias.alias, CardAlias.card_id).where(col(CardAlias.card_id).in_(list(cards)))
        ).all():
            names.setdefault(fold(alias), f"{alias} ({cards[cid]})")
        for r in records:
            if "type" in r or r["_id"] in cards or fold(r["name"]) in names:
                continue
            near = closest(r["name"], names, n=3, cutoff=0.6)
            hint = f"; did you mean {' or '.join(map(repr, near))}?" if near else ""
            problems.append(
                f"{r['_where']}, column 'type': a new card needs a type ({', '.join(GAME_TYPES[game])}); "
                f"no {game} card is named {quoted(r['name'])} in set {quoted(code)}{hint}"
            )
    return problems


def _inapplicable_problems(session: Session, game: str, parsed: ParsedFile) -> list[str]:
    """Every row without a type that gives a known card a value its type does not have (``Cook`` with
    a level): the rows with a type are checked as they are read, by the same rule."""
    from sqlmodel import col, select

    from cardbase.db.models import Card, CardAlias

    problems: list[str] = []
    for code, records in parsed.records.items():
        untyped = [r for r in records if "type" not in r and typed_fields(game) & r.keys()]
        if not untyped:
            continue
        cards = {
            cid: (name, type_)
            for cid, name, type_ in session.execute(
                select(Card.id, Card.name, Card.type).where(Card.game == game, Card.set_code == code)
            ).all()
        }
        by_name = {fold(name): cid for cid, (name, _) in cards.items()}
        for alias, cid in session.execute(
            select(CardAlias.alias, CardAlias.card_id).where(col(CardAlias.card_id).in_(list(cards)))
        ).all():
            by_name.setdefault(fold(alias), cid)
        for r in untyped:
            cid = r["_id"] if r["_id"] in cards else by_name.get(fold(r["name"]))
            if cid is None:
                continue  # a new card without a type: refused as such
            type_ = cards[cid][1]
            problems += (
                f"{r['_where']}, {inapplicable_problem(game, type_, f, parsed.headings.get(f))}"
                for f in inapplicable_values(game, type_, r)
            )
    return problems


def _set_matcher(session: Session, game: str, code: str) -> tuple[dict[str, str], Callable[[dict[str, Any]], str]]:
    """The cards of set ``code`` (id: name) and how the import matches a row to one of them: by its name
    (a card renamed in cardbase keeps its id), else by the id its name makes, else by an alias; the id."""
    from sqlmodel import col, select

    from cardbase.db.models import Card, CardAlias

    cards = dict(session.execute(select(Card.id, Card.name).where(Card.game == game, Card.set_code == code)).all())
    by_alias = {
        fold(alias): cid
        for alias, cid in session.execute(
            select(CardAlias.alias, CardAlias.card_id).where(col(CardAlias.card_id).in_(list(cards)))
        ).all()
    }
    by_name = {fold(name): cid for cid, name in cards.items()}

    def matched(r: dict[str, Any]) -> str:
        cid: str = by_name.get(fold(r["name"])) or r["_id"]
        if cid not in cards and fold(r["name"]) in by_alias:
            cid = by_alias[fold(r["name"])]
        return cid

    return cards, matched


def _same_card_problems(session: Session, game: str, parsed: ParsedFile) -> list[str]:
    """Two rows that name one card, one by its name and one by an alias (``Cook`` and ``Cock``),
    as the import matches them: the second would overwrite the first, so both are named."""
    problems: list[str] = []
    for code, records in parsed.records.items():
        cards, matched = _set_matcher(session, game, code)
        first: dict[str, dict[str, Any]] = {}
        for r in records:
            cid = matched(r)
            if cid in first:
                other = first[cid]
                problems.append(
                    f"{r['_where']}, column 'name': {quoted(r['name'])} and {quoted(other['name'])} "
                    f"on {other['_where']} "
                    f"are both the card {quoted(cards.get(cid, other['name']))}; keep one of the two rows"
                )
            else:
                first[cid] = r
    return problems


def _given_id_problems(session: Session, game: str, parsed: ParsedFile) -> list[str]:
    """Every row whose ``id`` cell is not the card the row names, as the import matches it (by name or
    alias): the column is not read, so a name changed in the sheet would make a new card unseen."""
    from sqlmodel import col, select

    from cardbase.db.models import Card

    problems: list[str] = []
    for code, records in parsed.records.items():
        given = [r for r in records if r.get("_given_id")]
        if not given:
            continue
        cards, matched = _set_matcher(session, game, code)
        named = {r["_given_id"] for r in given} - cards.keys()
        if named:
            cards |= dict(session.execute(select(Card.id, Card.name).where(col(Card.id).in_(sorted(named)))).all())
        heading = "id"
        for r in given:
            cid = matched(r)
            if r["_given_id"] == cid:
                continue
            if r["_given_id"] in cards:
                found = (
                    f"{r['_where']}, column {quoted(heading)}: the card {r['_given_id']} is "
                    f"{quoted(cards[r['_given_id']])}, not {quoted(r['name'])}; an import finds a card by its name "
                    "and would make a new one: "
                )
                problems.append(
                    Said(
                        f"{found}rename it with `cardbase catalog edit {r['_given_id']} name=…`, "
                        "or empty the id cell to add a new card",
                        f"{found}rename it on its Edit page, or empty the id cell to add a new card",
                    )
                )
            else:
                problems.append(
                    f"{r['_where']}, column {quoted(heading)}: {quoted(r['_given_id'])} is not the id of the row's "
                    f"card ({cid}); the column is not read: empty the cell"
                )
    return problems


def _set_name_problems(session: Session, game: str, parsed: ParsedFile) -> list[str]:
    """A JSON catalog's ``set_name`` names the set it makes; another name for a set already there is
    refused (a set keeps the name it was made with), not dropped."""
    from cardbase.db.models import CardSet

    if parsed.set_name is None:
        return []
    code, name = parsed.set_name
    found = session.get(CardSet, (game, code))
    if found is None or found.name == name:
        return []
    had = quoted(found.name) if found.name else "none"
    return [
        f"set_name {quoted(name)} is not the name of set {quoted(code)} ({had}); a set keeps the name it was "
        "made with: leave set_name out"
    ]


def import_catalog(
    database: Database,
    path: Path,
    game: str,
    *,
    fmt: str | None = None,
    dry_run: bool = False,
    raw: bytes | None = None,
) -> ImportResult:
    """Import ``path`` into the ``game`` catalog: all rows or none (``dry_run`` writes nothing). ``raw``:
    the file's bytes already in memory (an upload); ``path`` then only names it in messages."""

    from cardbase.db.catalog import ensure_set, refresh_statistics, write_cards

    parsed = read_catalog_file(path, game, fmt, raw)
    if not parsed.problems and parsed.rows == 0:
        parsed.problems.append("the file has a header but no cards")
    source = f"file:{path.name}"
    result = ImportResult(0, 0, 0, sorted(parsed.records), parsed.rows, dry_run)
    # A dry run reads in a snapshot and takes no write lock: other writers go on while it checks and counts
    # (its report is of the catalog as it was when it began).
    with database.snapshot() if dry_run else database.transaction() as session:
        # checked against the catalog in the write that trusts them: a card renamed, added or given
        # an alias by another writer after a check made before it would be matched otherwise
        problems = (
            parsed.problems
            + _new_card_problems(session, game, parsed)
            + _same_card_problems(session, game, parsed)
            + _inapplicable_problems(session, game, parsed)
            + _given_id_problems(session, game, parsed)
            + _set_name_problems(session, game, parsed)
        )
        if problems:
            raise InvalidData(str(path), sorted(problems, key=_row_number))
        for set_code, records in parsed.records.items():
            named = parsed.set_name[1] if parsed.set_name and parsed.set_name[0] == set_code else None
            if not dry_run:
                ensure_set(session, game, set_code, named, source, f"imported from {path.name}")
            report = write_cards(
                session,
                game,
                set_code,
                source,
                records,
                origin=str(path),
                headings=parsed.headings,
                write=not dry_run,
            )
            result.inserted += len(report.inserted)
            result.updated += len(report.updated)
            result.unchanged += len(report.unchanged)
            result.warnings += (
                f"{cleared}: its encoded abilities are cleared with its new text; give them in the "
                "'abilities' column to keep them"
                for cleared in report.cleared
            )
            result.warnings += (
                Said(
                    f"{keeps}, which the cell leaves out (an import adds aliases, never removes one: "
                    f"`cardbase catalog edit {cid} aliases=…` sets them)",
                    f"{keeps}, which the cell leaves out (an import adds aliases, never removes one: "
                    "the card's Edit page sets them)",
                )
                for where, cid, kept in report.kept_aliases
                for keeps in [f"{where}: keeps the alias{'es' if len(kept) > 1 else ''} {', '.join(map(quoted, kept))}"]
            )
    if dry_run:
        return result
    refresh_statistics(database, result.inserted + result.updated)
    return result


def card_records(database: Database, game: str) -> list[dict[str, Any]]:
    """Every card of ``game`` as a record of its fields (for export), in set and name order."""
    from sqlmodel import select

    from cardbase.db.models import Card, CardAlias, abilities_data
    from cardbase.db.tags import card_tags

    with database.session() as session:
        cards = session.scalars(select(Card).where(Card.game == game).order_by(Card.set_code, Card.name)).all()
        aliases: dict[str, list[str]] = {}
        for alias in session.scalars(select(CardAlias).order_by(CardAlias.alias)):
            aliases.setdefault(alias.card_id, []).append(alias.alias)
        tags = card_tags(session)
    out = []
    for card in cards:
        record: dict[str, Any] = {}
        for f in GAME_FIELDS[game]:
            if f.name == "set":
                record["set"] = card.set_code
            elif f.name == "aliases":
                record["aliases"] = aliases.get(card.id, [])
            elif f.name == "tags":
                record["tags"] = tags.get(card.id, [])
            elif f.name == "abilities":
                record["abilities"] = abilities_data(card)
            else:
                record[f.name] = getattr(card, f.name)
        record["source"] = card.source
        out.append(record)
    return out


def export_catalog(database: Database, game: str, fmt: str, out: Path) -> int:
    """Write the ``game`` catalog to ``out``; returns the number of cards written."""
    records = card_records(database, game)
    columns = [f.name for f in GAME_FIELDS[game]] + ["source"]

    def cell(record: dict[str, Any], column: str, unknown: tuple[str, ...]) -> Any:
        """A CSV/XLSX cell: lists joined, abilities as JSON text, formula-like text neutralised; an
        unknown value ``?``, a field the card's type does not have empty (``None``)."""
        value = record[column]
        if value is None and column in unknown:
            return UNKNOWN_CELL
        if column == "abilities":
            return None if value is None else neutralise(json.dumps(value, ensure_ascii=False))
        return neutralise("; ".join(value) if column in ("aliases", "tags") else value)

    if fmt == "json":
        cards = [{k: v for k, v in r.items() if v is not None and v != []} for r in records]
        for card, record in zip(cards, records, strict=True):
            absent = inapplicable_fields(game, record["type"])
            for column in columns:  # unknown stays visible as null; what the type does not have is left out
                if record[column] is None and column not in absent:
                    card[column] = None
        payload = {
            "game": game,
            "set": DEFAULT_SET[game],
            "source": "export",
            "note": "Exported by cardbase; each card names its own set and source.",
            "cards": cards,
        }
        write_text_output(out, json.dumps(payload, ensure_ascii=False, indent=2) + "\n", "catalog file")
    elif fmt == "csv":
        with output_file(out, "catalog file") as temporary, temporary.open("w", encoding="utf-8", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow([neutralise(c) for c in columns])
            for record in records:
                unknown = unknown_fields(game, record["type"], record)
                writer.writerow(["" if (v := cell(record, c, unknown)) is None else v for c in columns])
    else:
        from openpyxl import Workbook

        with output_file(out, "catalog file") as temporary:  # the path is checked before the sheet is built
            workbook = Workbook(write_only=True)
            sheet = workbook.create_sheet(game)
            sheet.append(columns)
            for record in records:
                unknown = unknown_fields(game, record["type"], record)
                sheet.append([cell(record, c, unknown) for c in columns])
            workbook.save(temporary)
    return len(records)


TEMPLATE_FORMATS = ("xlsx", "csv")
_LEFT_OUT = ("abilities", "aliases", "tags", "notes")
_INT_NOTE = "whole number; leave empty (or ?) when unknown"
_NOTES: dict[str, str] = {
    "name": "# the card's name (this note row, under the header, is skipped on import)",
    "set": "set code: letters a-z, digits and -",
    "copies": "copies of the card in one game (whole number)",
    "text": "rules text, as printed",
    "description": "flavour text",
    "land_name": "the land's own name (Meikyu cards have a room and a land name)",
    "bravery": "swords on the card (whole number); empty when unknown",
    "wits": "seals on the card (whole number); empty when unknown",
    "cost": "mana cost (whole number); empty when unknown",
    "attack": "attack (whole number); empty when unknown; assists have none",
    "defence": "defence (whole number); empty when unknown; assists have none",
    "suit": "S, H, D or C",
    "rank": "1 (ace) to 13 (king)",
    "min_players": "follows the rank (A-7: 2, 8-10: 3, J-K: 4); leave it empty",
}


def template_rows(database: Database, game: str) -> tuple[list[str], list[str], list[list[Any]]]:
    """The columns of ``game``'s template, its note row (units and allowed values) and one row per
    catalogued card with the values known (unknown and not-applicable cells are empty)."""
    columns = [f.name for f in GAME_FIELDS[game] if f.name not in _LEFT_OUT]
    kinds = {f.name: f.kind for f in GAME_FIELDS[game]}
    notes = []
    for column in columns:
        if column == "type":
            notes.append("one of: " + ", ".join(GAME_TYPES[game]))
        else:
            notes.append(_NOTES.get(column, _INT_NOTE if kinds[column] is int else "text"))
    rows = [[neutralise(record[c]) for c in columns] for record in card_records(database, game)]
    return columns, notes, rows


def write_template(database: Database, game: str, fmt: str, out: Path) -> int:
    """Write ``game``'s import template (``catalog template``) to ``out``; returns the cards in it."""
    if fmt not in TEMPLATE_FORMATS:
        raise UsageError(f"--format {quoted(fmt)}: a template is xlsx or csv")
    columns, notes, rows = template_rows(database, game)
    if fmt == "csv":
        with output_file(out, "template") as temporary, temporary.open("w", encoding="utf-8", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerows([columns, notes, *[["" if v is None else v for v in row] for row in rows]])
    else:
        from openpyxl import Workbook
        from openpyxl.comments import Comment

        with output_file(out, "template") as temporary:
            workbook = Workbook()
            sheet = workbook.active
            assert sheet is not None
            sheet.title = game
            sheet.append(columns)
            for cell, note in zip(sheet[1], notes, strict=True):
                cell.comment = Comment(note, "cardbase")
            sheet.append(notes)
            for row in rows:
                sheet.append(row)
            sheet.freeze_panes = "A3"
            workbook.save(temporary)
    return len(rows)
