"""Fixtures and PDF-reading helpers for the printing tests.

PDFs are read back with pypdf: each card is a form XObject placed with a ``cm`` transform; the
helpers follow the graphics state through a page's content stream and report every placed form
(its box in mm from the page's top-left corner) and every stroked line drawn on the page itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from cardbase.db.engine import Database
from cardbase.db.models import Card

PT = 72 / 25.4


@dataclass(frozen=True)
class Placed:
    name: str
    x: float  # mm from the left edge, of the form's box (card + bleed)
    y: float  # mm from the top edge
    w: float
    h: float
    rotated: bool
    background: str | None  # the first fill colour the form sets, as #rrggbb


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    width: float  # mm
    colour: str


def _mul(a: list[float], b: list[float]) -> list[float]:
    """PDF matrix product a × b (a applied first)."""
    return [
        a[0] * b[0] + a[1] * b[2],
        a[0] * b[1] + a[1] * b[3],
        a[2] * b[0] + a[3] * b[2],
        a[2] * b[1] + a[3] * b[3],
        a[4] * b[0] + a[5] * b[2] + b[4],
        a[4] * b[1] + a[5] * b[3] + b[5],
    ]


def _apply(m: list[float], x: float, y: float) -> tuple[float, float]:
    return m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]


def _hex(values: list[float]) -> str:
    return "#" + "".join(f"{round(float(v) * 255):02x}" for v in values)


def _first_fill(form, reader) -> str | None:
    from pypdf.generic import ContentStream

    for operands, op in ContentStream(form, reader).operations:
        if op == b"rg":
            return _hex(operands)
    return None


def read_page(reader, index: int) -> tuple[list[Placed], list[Line]]:
    """The forms placed on page ``index`` and the lines stroked on it (outside forms)."""
    from pypdf.generic import ContentStream

    page = reader.pages[index]
    height = float(page.mediabox.height)
    xobjects = page["/Resources"].get("/XObject", {})
    ctm = [1.0, 0, 0, 1.0, 0, 0]
    stack: list[list[float]] = []
    width = 1.0
    colour = "#000000"
    placed: list[Placed] = []
    lines: list[Line] = []
    start: tuple[float, float] | None = None
    path: list[tuple[float, float, float, float]] = []
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"q":
            stack.append((ctm, width, colour))  # type: ignore[arg-type]
        elif op == b"Q":
            ctm, width, colour = stack.pop()  # type: ignore[misc]
        elif op == b"cm":
            ctm = _mul([float(v) for v in operands], ctm)
        elif op == b"w":
            width = float(operands[0])
        elif op == b"RG":
            colour = _hex(operands)
        elif op == b"m":
            start = _apply(ctm, float(operands[0]), float(operands[1]))
        elif op == b"l" and start is not None:
            end = _apply(ctm, float(operands[0]), float(operands[1]))
            path.append((*start, *end))
            start = end
        elif op == b"S":
            for x1, y1, x2, y2 in path:
                lines.append(Line(x1 / PT, (height - y1) / PT, x2 / PT, (height - y2) / PT, width / PT, colour))
            path = []
        elif op in (b"n", b"f", b"B"):
            path = []
        elif op == b"Do":
            form = xobjects[operands[0]].get_object()
            if form["/Subtype"] != "/Form":
                continue
            x0, y0, x1, y1 = (float(v) for v in form["/BBox"])
            m = _mul([float(v) for v in form.get("/Matrix", [1, 0, 0, 1, 0, 0])], ctm)
            corners = [_apply(m, x, y) for x, y in ((x0, y0), (x1, y1))]
            left, right = sorted(c[0] for c in corners)
            bottom, top = sorted(c[1] for c in corners)
            placed.append(
                Placed(
                    str(operands[0]),
                    left / PT,
                    (height - top) / PT,
                    (right - left) / PT,
                    (top - bottom) / PT,
                    m[0] < 0,
                    _first_fill(form, reader),
                )
            )
    return placed, lines


def count_images(reader) -> int:
    """Image XObjects in the whole file (each stored object counted once)."""
    seen: set[int] = set()

    def walk(resources) -> None:
        for ref in resources.get("/XObject", {}).values():
            obj = ref.get_object()
            key = ref.idnum if hasattr(ref, "idnum") else id(obj)
            if obj["/Subtype"] == "/Image":
                seen.add(key)
            elif "/Resources" in obj:
                walk(obj["/Resources"])

    for page in reader.pages:
        walk(page["/Resources"])
    return len(seen)


def box_mm(box) -> tuple[float, ...]:
    return tuple(round(float(v) / PT, 2) for v in box)


@pytest.fixture
def cards(database: Database) -> Iterator[dict[str, Card]]:
    """Every catalog card by name (detached copies)."""
    from sqlalchemy import select

    with database.session() as session:
        rows = list(session.scalars(select(Card)))
    yield {c.name: c for c in rows}


@pytest.fixture
def images(tmp_path: Path) -> Path:
    folder = tmp_path / "card_images"
    folder.mkdir()
    return folder


def solid_png(path: Path, colour: str = "#11aa33", size: tuple[int, int] = (900, 600)) -> Path:
    from PIL import Image

    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", size, colour).save(path)
    return path
