"""Import and export card catalogs as CSV, XLSX and JSON.

An import is checked whole before anything is written: every bad row is reported with
its row number as a spreadsheet shows it (the header is row 1), its column and the
reason, and the database is left exactly as it was. A good file is upserted by
(game, set, name) in one transaction. An empty cell gives no value: a new card's
field stays unknown, an existing card's field keeps its value.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardbase.catalog.fields import (
    DEFAULT_SET,
    GAME_FIELDS,
    GAME_TYPES,
    READ_ONLY_COLUMNS,
    Field,
    canonical_type,
    field_for_header,
)
from cardbase.errors import InvalidData, UnreadableInput, UsageError
from cardbase.names import fold
from cardbase.textfiles import decode_text, read_bytes

FORMATS = ("csv", "json", "xlsx")
_UNKNOWN_MARKERS = {"", "?", "unknown", "null", "none", "n/a", "na"}
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


def detect_format(path: Path, given: str | None = None) -> str:
    """The file format from ``given`` or the file's extension."""
    fmt = (given or path.suffix.lstrip(".")).lower()
    if fmt not in FORMATS:
        raise UsageError(f"{path}: unknown format {fmt or '(no extension)'!r}; use --format csv, json or xlsx")
    return fmt


def read_csv(path: Path) -> tuple[list[str], Iterator[SourceRow]]:
    """Header and rows of a CSV file (UTF-8 with or without BOM, CRLF or LF, `,` `;` or tab)."""
    text = decode_text(read_bytes(path), str(path), "catalog file", hint=" (is it an .xlsx? use that extension)")
    first_line = text.split("\n", 1)[0]
    delimiter = max(",;\t", key=first_line.count) if first_line else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        header = next(reader, None)
    except csv.Error as error:
        raise UnreadableInput(f"{path}: row 1: {error}") from None
    if not header or not any(h.strip() for h in header):
        raise UnreadableInput(f"{path}: empty file; the first row must name the columns")

    def rows() -> Iterator[SourceRow]:
        number = 1
        try:
            for cells in reader:
                number += 1
                if not any(c.strip() for c in cells):
                    continue
                if len(cells) > len(header):
                    extra = [c for c in cells[len(header) :] if c.strip()]
                    if extra:
                        yield SourceRow(f"row {number}", {"\0extra": extra})
                        continue
                yield SourceRow(f"row {number}", dict(zip(header, cells, strict=False)))
        except csv.Error as error:
            raise UnreadableInput(f"{path}: row {number + 1}: {error}") from None

    return header, rows()


def read_xlsx(path: Path) -> tuple[list[str], Iterator[SourceRow]]:
    """Header and rows of the first sheet of an XLSX workbook."""
    from zipfile import BadZipFile

    from openpyxl import load_workbook

    raw = read_bytes(path)
    try:
        workbook = load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
    except (BadZipFile, KeyError, ValueError, OSError) as error:
        raise UnreadableInput(f"{path}: not a readable XLSX workbook ({error})") from None
    sheet = workbook.worksheets[0]
    it = sheet.iter_rows(values_only=True)
    header_cells = next(it, None)
    if not header_cells or not any(h not in (None, "") for h in header_cells):
        raise UnreadableInput(f"{path}: sheet {sheet.title!r} is empty; row 1 must name the columns")
    header = ["" if h is None else str(h) for h in header_cells]

    def rows() -> Iterator[SourceRow]:
        for number, cells in enumerate(it, start=2):
            if all(c is None or (isinstance(c, str) and not c.strip()) for c in cells):
                continue
            yield SourceRow(f"row {number}", dict(zip(header, cells, strict=False)))

    return header, rows()


def read_json(path: Path) -> tuple[list[str], Iterator[SourceRow], dict[str, Any]]:
    """Columns, rows and top-level fields of a JSON catalog: a catalog file or a list of cards."""
    text = decode_text(read_bytes(path), str(path), "catalog file", hint=" (is it an .xlsx? use that extension)")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise UnreadableInput(f"{path}: line {error.lineno}, column {error.colno}: invalid JSON: {error.msg}") from None
    top: dict[str, Any] = {}
    if isinstance(data, dict):
        top = {k: v for k, v in data.items() if k != "cards"}
        cards = data.get("cards")
        label = "cards"
    else:
        cards, label = data, ""
    if not isinstance(cards, list):
        raise UnreadableInput(f"{path}: expected a list of cards or an object with a 'cards' list")
    header: list[str] = []
    for card in cards:
        if isinstance(card, dict):
            header.extend(k for k in card if k not in header)

    def rows() -> Iterator[SourceRow]:
        for i, card in enumerate(cards):
            where = f"{label}[{i}]"
            if not isinstance(card, dict):
                yield SourceRow(where, {"\0notobject": card})
                continue
            yield SourceRow(where, card)

    return header, rows(), top


def _parse_int(value: Any) -> int | None:
    if value is None or isinstance(value, bool):
        if isinstance(value, bool):
            raise ValueError("a whole number, not true/false")
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if value != value or value != int(value):
            raise ValueError(f"a whole number, not {value!r}")
        return int(value)
    text = str(value).strip()
    if text.lower() in _UNKNOWN_MARKERS:
        return None
    try:
        number = float(text) if "." in text else int(text)
    except ValueError:
        raise ValueError(f"a whole number (or empty or ? for unknown), not {text!r}") from None
    if isinstance(number, float):
        if number != int(number):
            raise ValueError(f"a whole number, not {text!r}")
        number = int(number)
    return number


def _parse_text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, list):
        return "; ".join(str(v) for v in value)
    text = str(value).strip()
    return text or None


def _convert(f: Field, value: Any) -> Any:
    if f.kind is list:  # JSON data: a list in a JSON file, JSON text in a cell
        if value is None or isinstance(value, list):
            return value
        text = _parse_text(value)
        if text is None:
            return None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise ValueError(f"not JSON ({error.msg} at character {error.pos + 1})") from None
        if not isinstance(data, list):
            raise ValueError("must be a JSON list of ability sentences")
        return data
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
    if f.name == "suit" and text is not None:
        if text.lower() not in _SUITS:
            raise ValueError(f"a suit (S, H, D or C), not {text!r}")
        return _SUITS[text.lower()]
    return text


def parse_rows(
    game: str, origin: str, header: list[str], rows: Iterator[SourceRow], default_set: str | None = None
) -> ParsedFile:
    """Check every row of a file for ``game``; the result holds good records or every problem."""
    parsed = ParsedFile()
    columns: dict[str, Field] = {}
    for heading in header:
        if not str(heading).strip():
            continue
        f = field_for_header(game, str(heading))
        if f is not None:
            if f.name in {c.name for c in columns.values()}:
                parsed.problems.append(f"row 1, column {heading!r}: a second column for {f.name!r}")
            columns[heading] = f
        elif fold(str(heading)) not in READ_ONLY_COLUMNS:
            accepted = ", ".join(f.name for f in GAME_FIELDS[game])
            parsed.problems.append(
                f"row 1, column {heading!r}: not a {game} card field (columns are {accepted}; "
                "synonyms like atk, def, mana work)"
            )
    if "name" not in {f.name for f in columns.values()}:
        parsed.problems.append("row 1: no 'name' column")
    if parsed.problems:
        return parsed
    seen: dict[tuple[str, str], str] = {}
    set_default = default_set or DEFAULT_SET[game]
    for row in rows:
        parsed.rows += 1
        if "\0extra" in row.cells:
            parsed.problems.append(f"{row.where}: more cells than the header has columns")
            continue
        if "\0notobject" in row.cells:
            parsed.problems.append(f"{row.where}: a card must be an object of field: value")
            continue
        record: dict[str, Any] = {}
        bad = False
        for heading, value in row.cells.items():
            f = columns.get(heading)
            if f is None:
                continue
            try:
                converted = _convert(f, value)
            except ValueError as error:
                parsed.problems.append(f"{row.where}, column {heading!r}: {error}")
                bad = True
                continue
            if converted is not None and converted != []:
                record[f.name] = converted
        name = record.get("name")
        if not name:
            parsed.problems.append(f"{row.where}, column 'name': the card has no name")
            continue
        if len(name) > MAX_NAME:
            parsed.problems.append(f"{row.where}, column 'name': longer than {MAX_NAME} characters")
            continue
        if "type" in record:
            type_ = canonical_type(game, record["type"])
            if type_ is None:
                parsed.problems.append(
                    f"{row.where}, column 'type': {record['type']!r} is not a {game} card type "
                    f"({', '.join(GAME_TYPES[game])})"
                )
                bad = True
            else:
                record["type"] = type_
        if "abilities" in record:
            problem = _check_abilities(record["abilities"], record.get("type"))
            if problem:
                heading = next(h for h, f in columns.items() if f.name == "abilities")
                parsed.problems.append(f"{row.where}, column {heading!r}: {problem}")
                bad = True
        set_code = (record.pop("set", None) or set_default).strip().lower().replace(" ", "-")
        key = (set_code, fold(name))
        if key in seen:
            parsed.problems.append(f"{row.where}, column 'name': {name!r} is already on {seen[key]}")
            bad = True
        seen[key] = row.where
        if not bad:
            record["_where"] = row.where
            parsed.records.setdefault(set_code, []).append(record)
    return parsed


def _check_abilities(data: list[Any], type_: str | None) -> str | None:
    from cardbase.games.mea.abilities import AbilityError, parse_abilities

    try:
        parse_abilities(data, type_ or "monster", where="abilities")
    except AbilityError as error:
        return str(error)
    return None


def read_catalog_file(path: Path, game: str, fmt: str | None = None) -> ParsedFile:
    """Read and check a catalog file of ``game`` in any supported format."""
    fmt = detect_format(path, fmt)
    if fmt == "csv":
        header, rows = read_csv(path)
        return parse_rows(game, str(path), header, rows)
    if fmt == "xlsx":
        header, rows = read_xlsx(path)
        return parse_rows(game, str(path), header, rows)
    header, rows, top = read_json(path)
    if top.get("game") not in (None, game):
        raise UnreadableInput(f"{path}: this file is for game {top.get('game')!r}, not {game!r}")
    return parse_rows(game, str(path), header, rows, default_set=top.get("set"))


class _DryRun(Exception):
    """Raised inside an import's transaction to roll it back after counting."""


@dataclass
class ImportResult:
    inserted: int
    updated: int
    unchanged: int
    sets: list[str]
    rows: int
    dry_run: bool


def import_catalog(
    database: Any, path: Path, game: str, *, fmt: str | None = None, dry_run: bool = False
) -> ImportResult:
    """Import ``path`` into the ``game`` catalog: all rows or none (``dry_run`` writes nothing)."""
    from sqlmodel import select

    from cardbase.db.catalog import ensure_set, write_cards
    from cardbase.db.models import Card, card_id

    parsed = read_catalog_file(path, game, fmt)
    if not parsed.problems and parsed.rows == 0:
        parsed.problems.append("the file has a header but no cards")
    if parsed.problems:
        raise InvalidData(str(path), parsed.problems)
    source = f"file:{path.name}"
    result = ImportResult(0, 0, 0, sorted(parsed.records), parsed.rows, dry_run)
    try:
        with database.transaction() as session:
            problems: list[str] = []
            for set_code, records in parsed.records.items():
                known = set(session.scalars(select(Card.id).where(Card.game == game, Card.set_code == set_code)))
                problems += [
                    f"{r['_where']}, column 'type': a new card needs a type ({', '.join(GAME_TYPES[game])})"
                    for r in records
                    if "type" not in r and card_id(game, set_code, r["name"]) not in known
                ]
            if problems:
                raise InvalidData(str(path), problems)
            for set_code, records in parsed.records.items():
                ensure_set(session, game, set_code, None, source, f"imported from {path.name}")
                report = write_cards(
                    session,
                    game,
                    set_code,
                    source,
                    [{k: v for k, v in r.items() if k != "_where"} for r in records],
                    origin=str(path),
                )
                result.inserted += len(report.inserted)
                result.updated += len(report.updated)
                result.unchanged += len(report.unchanged)
            if dry_run:
                raise _DryRun
    except _DryRun:
        pass
    return result


def card_records(database: Any, game: str) -> list[dict[str, Any]]:
    """Every card of ``game`` as a record of its fields (for export), in set and name order."""
    from sqlmodel import select

    from cardbase.db.models import Card, CardAlias

    with database.session() as session:
        cards = session.scalars(select(Card).where(Card.game == game).order_by(Card.set_code, Card.name)).all()
        aliases: dict[str, list[str]] = {}
        for alias in session.scalars(select(CardAlias).order_by(CardAlias.alias)):
            aliases.setdefault(alias.card_id, []).append(alias.alias)
    out = []
    for card in cards:
        record: dict[str, Any] = {}
        for f in GAME_FIELDS[game]:
            if f.name == "set":
                record["set"] = card.set_code
            elif f.name == "aliases":
                record["aliases"] = aliases.get(card.id, [])
            elif f.name == "abilities":
                record["abilities"] = json.loads(card.abilities) if card.abilities else None
            else:
                record[f.name] = getattr(card, f.name)
        record["source"] = card.source
        out.append(record)
    return out


def export_catalog(database: Any, game: str, fmt: str, out: Path) -> int:
    """Write the ``game`` catalog to ``out``; returns the number of cards written."""
    records = card_records(database, game)
    columns = [f.name for f in GAME_FIELDS[game]] + ["source"]
    out.parent.mkdir(parents=True, exist_ok=True)

    def cell(record: dict[str, Any], column: str) -> Any:
        value = record[column]
        if column == "abilities":
            return None if value is None else json.dumps(value, ensure_ascii=False)
        return "; ".join(value) if column == "aliases" else value

    if fmt == "json":
        cards = [{k: v for k, v in r.items() if v is not None and v != []} for r in records]
        for card, record in zip(cards, records, strict=True):
            for column in columns:  # unknown stays visible as null
                if record[column] is None:
                    card[column] = None
        payload = {
            "game": game,
            "set": DEFAULT_SET[game],
            "source": "export",
            "note": "Exported by cardbase; each card names its own set and source.",
            "cards": cards,
        }
        out.write_text(json.dumps(payload, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    elif fmt == "csv":
        with out.open("w", encoding="utf-8", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(columns)
            for record in records:
                writer.writerow(["" if cell(record, c) is None else cell(record, c) for c in columns])
    else:
        from openpyxl import Workbook

        workbook = Workbook(write_only=True)
        sheet = workbook.create_sheet(game)
        sheet.append(columns)
        for record in records:
            sheet.append([cell(record, c) for c in columns])
        workbook.save(out)
    return len(records)
