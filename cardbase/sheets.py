"""The one rule for a cell of a spreadsheet cardbase writes (CSV or XLSX), and its inverse on import.

Text starting with ``= + - @``, a tab, a carriage return or ``'`` is written with a ``'`` before it
(OWASP's advice against CSV injection), so no spreadsheet runs it; on import a ``'`` before one of
those characters is dropped, so importing an export gives back exactly the text exported. Every CSV
or XLSX file cardbase writes goes through :func:`neutralise` (catalog and collection exports, the
template, ``export images``' ``manifest.csv``); :class:`SheetWriter` is a ``csv`` writer that does.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import IO, Any

from cardbase.errors import UnreadableInput, plural

FORMULA_START = frozenset("=+-@\t\r")
"""First characters that make a spreadsheet read a cell as a formula (OWASP CSV injection)."""
_ESCAPED_START = FORMULA_START | {"'"}


def neutralise(value: Any) -> Any:
    """A cell value as written to CSV/XLSX: text starting with a formula character or ``'`` gets a ``'``."""
    if isinstance(value, str) and value[:1] in _ESCAPED_START:
        return "'" + value
    return value


def unneutralise(value: Any) -> Any:
    """A CSV/XLSX cell as read: the inverse of ``neutralise`` (a ``'`` before one of its characters goes)."""
    if isinstance(value, str) and len(value) > 1 and value[0] == "'" and value[1] in _ESCAPED_START:
        return value[1:]
    return value


class SheetWriter:
    """A CSV writer of rows (lists, or dicts by ``fieldnames``) whose every cell is ``neutralise``d."""

    def __init__(self, handle: IO[str], fieldnames: Sequence[str] | None = None):
        self._writer = csv.writer(handle)
        self.fieldnames = list(fieldnames) if fieldnames is not None else None

    def writeheader(self) -> None:
        assert self.fieldnames is not None
        self.writerow(self.fieldnames)

    def writerow(self, row: Sequence[Any] | Mapping[str, Any]) -> None:
        if isinstance(row, Mapping):
            assert self.fieldnames is not None
            row = [row.get(name, "") for name in self.fieldnames]
        self._writer.writerow([neutralise(cell) for cell in row])

    def writerows(self, rows: Iterable[Sequence[Any] | Mapping[str, Any]]) -> None:
        for row in rows:
            self.writerow(row)


def csv_reason(error: csv.Error, line: int) -> str:
    """A csv module error in words a user can act on (``line``: where the row starts)."""
    reason = str(error)
    if "unexpected end of data" in reason or "EOF" in reason:
        return f"a quote opened on line {line} is never closed"
    if "expected after" in reason:
        return f"text after a closing quote ({reason}); a quote inside a quoted cell is written twice"
    if "field larger than field limit" in reason:
        limit = csv.field_size_limit()
        return f"a cell is over {limit:,} {plural(limit, 'character')}"
    return reason


def csv_rows(
    text: str, source: str, delimiter: str = ",", at: Callable[[int], str] = "line {}".format
) -> Iterator[tuple[int, list[str]]]:
    """Each row of the CSV ``text`` with the line it starts on, read strictly (a quote left open, text
    after a closing quote, a cell over the csv module's bound): such a row is ``UnreadableInput``
    naming ``source`` and where it is (``at(line)``: the line, or the caller's row number), never the
    csv module's own error."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    while True:
        starts_on = reader.line_num + 1
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            raise UnreadableInput(f"{source}: {at(starts_on)}: {csv_reason(error, starts_on)}") from None
        yield starts_on, cells
