"""Sheets as data: paper, card size, bleed, gap, margins, marks and duplex backs; and the imposition.

Apart from faces: a ``SheetSpec`` says how cards go on paper, ``impose`` turns it into a
``Grid`` of card slots at exact physical positions (mm from the page's top-left corner), the
crop marks and cut lines, and where each card's back goes on the back page.

- Cards sit in a grid centred on the page, so fronts and backs line up however the printer
  feeds. Between neighbouring cards there are ``2 × bleed + gap`` mm: bleed areas never overlap.
- ``margin`` is the least space between the paper edge and the outermost bleed edge.
- Crop marks are drawn in all four margins, one on the line of every cut, from ``MARK_OFFSET``
  mm outside the bleed out to the paper edge: long, dark marks that still reach the edge of the
  sheet after the first cut, where a trimmer's guide needs them.
- ``printer_margin`` is the strip along the paper edge the printer cannot print; the sheet's
  margin grows so that every crop mark keeps ``MIN_MARK`` mm inside the printable area.
- Backs: the sheet turns over about its long edge (``long-edge``) or its short edge
  (``short-edge``). When it turns about its vertical edge (long edge of portrait paper, short
  edge of landscape paper) the back page is mirrored left-to-right, so the back of the card in
  column c lands in column ``cols - 1 - c``; when it turns about its horizontal edge (short edge
  of portrait, long edge of landscape) the back page is mirrored top-to-bottom and each back is
  turned 180° so that it reads the right way up when the card is turned over sideways.
- Calibration: ``scale`` (the percent the printer's 100 mm bars measured) and ``back_offset``
  (mm the back side lands off, right and down on the back page) are corrected when drawing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Literal

from cardbase.errors import UsageError, counted, quoted
from cardbase.render.units import format_mm

Flip = Literal["long-edge", "short-edge"]
FLIPS: tuple[str, ...] = ("long-edge", "short-edge")
MARK_OFFSET = 0.5  # mm between the bleed edge and the start of a crop mark
MARK_WIDTH = 0.25  # mm (0.7 pt), solid black
MIN_MARK = 3.0  # mm: every crop mark keeps at least this much inside the printable area


@dataclass(frozen=True, slots=True)
class SheetSpec:
    """How cards are laid on paper. All lengths in mm."""

    paper: tuple[float, float] = (210.0, 297.0)
    card: tuple[float, float] = (63.0, 88.0)
    bleed: float = 0.0
    gap: float = 0.0
    margin: float = 5.0
    crop_marks: bool = True
    cut_lines: bool = False
    backs: bool = False
    flip: Flip = "long-edge"
    paper_name: str = "a4"
    printer_margin: float = 0.0
    scale: tuple[float, float] = (100.0, 100.0)
    back_offset: tuple[float, float] = (0.0, 0.0)

    @property
    def landscape(self) -> bool:
        """Paper wider than it is tall."""
        return self.paper[0] > self.paper[1]

    @property
    def mirror_columns(self) -> bool:
        """Whether the sheet turns over about a vertical edge (backs mirrored left-to-right)."""
        return (self.flip == "long-edge") != self.landscape

    @property
    def least_margin(self) -> float:
        """The margin actually kept: ``margin``, widened so crop marks fit in the printable area."""
        need = self.printer_margin + (MARK_OFFSET + MIN_MARK if self.crop_marks else 0.0)
        return max(self.margin, need)


@dataclass(frozen=True, slots=True)
class Slot:
    """A card's place on a page: trim box in mm from the page's top-left corner."""

    index: int
    col: int
    row: int
    x: float
    y: float
    w: float
    h: float
    rotated: bool = False


@dataclass(frozen=True, slots=True)
class Segment:
    x1: float
    y1: float
    x2: float
    y2: float


@dataclass(frozen=True, slots=True)
class Grid:
    """The imposition of a ``SheetSpec``: columns, rows and the first card's trim corner."""

    spec: SheetSpec
    cols: int
    rows: int
    x0: float
    y0: float

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def pitch(self) -> tuple[float, float]:
        s = self.spec
        return s.card[0] + 2 * s.bleed + s.gap, s.card[1] + 2 * s.bleed + s.gap

    def slot(self, index: int) -> Slot:
        """The front slot of the ``index``-th card on a page."""
        col, row = index % self.cols, index // self.cols
        px, py = self.pitch
        w, h = self.spec.card
        return Slot(index, col, row, self.x0 + col * px, self.y0 + row * py, w, h)

    def back_slot(self, index: int) -> Slot:
        """Where the back of the ``index``-th card goes on the back page, for the sheet's flip."""
        front = self.slot(index)
        pw, ph = self.spec.paper
        if not self.spec.mirror_columns:
            return Slot(
                index,
                front.col,
                self.rows - 1 - front.row,
                front.x,
                ph - front.y - front.h,
                front.w,
                front.h,
                rotated=True,
            )
        return Slot(index, self.cols - 1 - front.col, front.row, pw - front.x - front.w, front.y, front.w, front.h)

    def trim_extent(self) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) of all cards' trim boxes."""
        last = self.slot(self.per_page - 1)
        return self.x0, self.y0, last.x + last.w, last.y + last.h

    def bleed_extent(self) -> tuple[float, float, float, float]:
        left, top, right, bottom = self.trim_extent()
        b = self.spec.bleed
        return left - b, top - b, right + b, bottom + b

    def cuts(self) -> tuple[list[float], list[float]]:
        """The x positions of vertical cuts and the y positions of horizontal cuts."""
        w, h = self.spec.card
        xs = sorted({round(self.slot(c).x + d, 6) for c in range(self.cols) for d in (0.0, w)})
        ys = sorted({round(self.slot(r * self.cols).y + d, 6) for r in range(self.rows) for d in (0.0, h)})
        return xs, ys

    @property
    def mark_length(self) -> float:
        """How long the shortest crop mark is inside the printable area, in mm."""
        left, top, right, bottom = self.bleed_extent()
        pw, ph = self.spec.paper
        return min(left, top, pw - right, ph - bottom) - MARK_OFFSET - self.spec.printer_margin

    def crop_marks(self) -> list[Segment]:
        """Crop marks in the four margins, from just outside the bleed to the paper edge."""
        left, top, right, bottom = self.bleed_extent()
        pw, ph = self.spec.paper
        xs, ys = self.cuts()
        marks = []
        for x in xs:
            marks.append(Segment(x, 0.0, x, top - MARK_OFFSET))
            marks.append(Segment(x, bottom + MARK_OFFSET, x, ph))
        for y in ys:
            marks.append(Segment(0.0, y, left - MARK_OFFSET, y))
            marks.append(Segment(right + MARK_OFFSET, y, pw, y))
        return marks

    def cut_lines(self) -> list[Segment]:
        """Lines along every cut, right across the sheet."""
        pw, ph = self.spec.paper
        xs, ys = self.cuts()
        return [Segment(x, 0.0, x, ph) for x in xs] + [Segment(0.0, y, pw, y) for y in ys]

    def mirrored(self, segments: list[Segment]) -> list[Segment]:
        """``segments`` placed as they fall on the back page for the sheet's flip."""
        pw, ph = self.spec.paper
        if not self.spec.mirror_columns:
            return [Segment(s.x1, ph - s.y1, s.x2, ph - s.y2) for s in segments]
        return [Segment(pw - s.x1, s.y1, pw - s.x2, s.y2) for s in segments]


def _fit(spec: SheetSpec, bleed: float) -> tuple[int, int]:
    """Columns and rows of cards with ``bleed`` that fit inside the sheet's margins."""
    pw, ph = spec.paper
    cw, ch = spec.card
    margin = spec.least_margin
    usable_w, usable_h = pw - 2 * margin, ph - 2 * margin
    cell_w, cell_h = cw + 2 * bleed, ch + 2 * bleed
    cols = math.floor((usable_w + spec.gap + 1e-9) / (cell_w + spec.gap)) if usable_w > 0 else 0
    rows = math.floor((usable_h + spec.gap + 1e-9) / (cell_h + spec.gap)) if usable_h > 0 else 0
    return cols, rows


def bleed_cost(spec: SheetSpec) -> str | None:
    """A sentence saying how many cards the bleed costs a sheet, or None when it costs none."""
    if spec.bleed <= 0:
        return None
    cols, rows = _fit(spec, spec.bleed)
    cols0, rows0 = _fit(spec, 0.0)
    if cols * rows >= cols0 * rows0:
        return None
    margin = spec.least_margin
    usable = (spec.paper[0] - 2 * margin, spec.paper[1] - 2 * margin)

    def keep(n: int, axis: int) -> float:
        """The largest bleed at which ``n`` cards still fit along ``axis``."""
        return ((usable[axis] - (n - 1) * spec.gap) / n - spec.card[axis]) / 2

    # The grid of the most cards, more than ``bleed`` leaves, that a bleed of at least 0.1 mm keeps.
    grids = [
        (c * r, math.floor(min(keep(c, 0), keep(r, 1)) * 10) / 10)
        for c in range(1, cols0 + 1)
        for r in range(1, rows0 + 1)
        if c * r > cols * rows
    ]
    best = max((g for g in grids if g[1] >= 0.1), default=None)
    paper = spec.paper_name.upper() if spec.paper_name in ("a3", "a4", "a5") else spec.paper_name
    kept = f"; ≤ {format_mm(best[1])} mm keeps {best[0]}" if best else f"; without bleed {cols0 * rows0}"
    return f"{paper} with {format_mm(spec.bleed)} mm bleed fits {counted(cols * rows, 'card')}{kept}"


def turned_paper_note(spec: SheetSpec, cards: int) -> str | None:
    """A sentence naming the paper turned the other way when ``cards`` cards take fewer sheets on
    it, or None."""
    per_sheet = math.prod(_fit(spec, spec.bleed))
    turned = replace(spec, paper=(spec.paper[1], spec.paper[0]))
    per_turned = math.prod(_fit(turned, spec.bleed))
    if per_turned <= per_sheet or cards < 1:
        return None
    sheets, fewer = math.ceil(cards / max(per_sheet, 1)), math.ceil(cards / per_turned)
    if fewer >= sheets:
        return None
    w, h = turned.paper
    way = "landscape" if w > h else "portrait"
    return (
        f"{way} paper takes {counted(fewer, 'sheet')} where this takes {sheets} ({per_turned} per sheet, not "
        f"{per_sheet}): --paper {format_mm(w)}x{format_mm(h)}mm"
    )


def impose(spec: SheetSpec) -> Grid:
    """The grid of ``spec``: as many cards as fit inside the margins, centred; or a clear error."""
    pw, ph = spec.paper
    cw, ch = spec.card
    if spec.flip not in FLIPS:
        raise UsageError(f"bad --flip {quoted(spec.flip)}: use long-edge or short-edge")
    cell_w, cell_h = cw + 2 * spec.bleed, ch + 2 * spec.bleed
    cols, rows = _fit(spec, spec.bleed)
    if cols < 1 or rows < 1:
        margin = spec.least_margin
        need = f"{format_mm(cell_w + 2 * margin)}×{format_mm(cell_h + 2 * margin)} mm"
        raise UsageError(
            f"a {format_mm(cw)}×{format_mm(ch)} mm card does not fit {spec.paper_name or 'the'} paper "
            f"({format_mm(pw)}×{format_mm(ph)} mm): with {format_mm(spec.bleed)} mm bleed and "
            f"{format_mm(margin)} mm margins it needs at least {need}"
        )
    grid_w = cols * cell_w + (cols - 1) * spec.gap
    grid_h = rows * cell_h + (rows - 1) * spec.gap
    x0 = (pw - grid_w) / 2 + spec.bleed
    y0 = (ph - grid_h) / 2 + spec.bleed
    return Grid(spec, cols, rows, x0, y0)
