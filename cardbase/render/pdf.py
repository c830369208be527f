"""The ReportLab backend: composed faces drawn as vector text and shapes into a PDF.

Each distinct face is drawn once, as a form XObject whose box is the card plus its bleed
(origin at the card's bottom-left trim corner), and placed on the page as often as the card
is printed; art images are stored once each and referenced from the forms. Fonts are
embedded as subsets. Text stays text: crisp at any zoom, searchable, and small.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

from cardbase.render import fonts
from cardbase.render.face import EllipseOp, Face, ImageOp, PolyOp, RectOp, TextOp
from cardbase.render.sheet import Segment, SheetSpec, Slot
from cardbase.render.units import PT_PER_MM

K = PT_PER_MM
FONT_PREFIX = "CB-"


_REGISTERED: set[str] = set()


def register_fonts() -> None:
    """Register the DejaVu faces and any layout file's fonts with ReportLab (each once per process)."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    for key in [*fonts.FONT_FILES, *fonts.EXTRA_FONTS]:
        if key not in _REGISTERED:
            pdfmetrics.registerFont(TTFont(FONT_PREFIX + key, str(fonts.font_path(key))))
            _REGISTERED.add(key)


@contextmanager
def binary_streams() -> Iterator[None]:
    """Write PDF streams compressed but not ASCII85-encoded (25 % smaller, and faster) while inside."""
    from reportlab import rl_config

    old = rl_config.useA85
    rl_config.useA85 = 0
    try:
        yield
    finally:
        rl_config.useA85 = old


@cache
def _colour(hex_colour: str) -> Any:
    from reportlab.lib.colors import HexColor

    return HexColor(hex_colour)


def new_canvas(target: Path | Any, paper: tuple[float, float], title: str, author: str, subject: str) -> Any:
    """A ReportLab canvas for ``paper`` (mm) with the document's title, author and subject set."""
    from reportlab.pdfgen.canvas import Canvas

    from cardbase import __version__

    register_fonts()
    # The initial font is one of ours: ReportLab's default names Helvetica, which is never embedded.
    c = Canvas(
        str(target) if isinstance(target, Path) else target,
        pagesize=(paper[0] * K, paper[1] * K),
        pageCompression=1,
        initialFontName=FONT_PREFIX + "sans",  # type: ignore[arg-type]  # types-reportlab says float; ReportLab takes the name
    )
    c.setTitle(title)
    c.setAuthor(author)
    c.setSubject(subject)
    c.setCreator(f"cardbase {__version__}")
    c.setProducer(f"cardbase {__version__} (ReportLab)")
    return c


def draw_face(c: Any, face: Face, bleed: float, art_file: Callable[[ImageOp], Path]) -> None:
    """Draw ``face`` on canvas ``c`` with its bottom-left trim corner at the origin."""
    h = face.height
    c.setFillColor(_colour(face.background))
    c.rect(-bleed * K, -bleed * K, (face.width + 2 * bleed) * K, (face.height + 2 * bleed) * K, stroke=0, fill=1)
    font_state: tuple[str, float] | None = None
    for op in face.ops:
        if isinstance(op, RectOp | EllipseOp):
            fill, stroke = bool(op.fill), bool(op.stroke and op.width > 0)
            if not (fill or stroke):
                continue
            if op.fill:
                c.setFillColor(_colour(op.fill))
            if stroke:
                c.setStrokeColor(_colour(op.stroke))
                c.setLineWidth(op.width * K)
            x, y, w, hh = op.x * K, (h - op.y - op.h) * K, op.w * K, op.h * K
            if isinstance(op, EllipseOp):
                c.ellipse(x, y, x + w, y + hh, stroke=int(stroke), fill=int(fill))
            elif op.radius > 0:
                c.roundRect(x, y, w, hh, op.radius * K, stroke=int(stroke), fill=int(fill))
            else:
                c.rect(x, y, w, hh, stroke=int(stroke), fill=int(fill))
        elif isinstance(op, PolyOp):
            fill = bool(op.fill) and op.closed
            stroke = bool(op.stroke and op.width > 0)
            if not (fill or stroke):
                continue
            if fill:
                c.setFillColor(_colour(op.fill))
            if stroke:
                c.setStrokeColor(_colour(op.stroke))
                c.setLineWidth(op.width * K)
                c.setLineJoin(1)
            path = c.beginPath()
            (x0, y0), *rest = op.points
            path.moveTo(x0 * K, (h - y0) * K)
            for x, y in rest:
                path.lineTo(x * K, (h - y) * K)
            if op.closed:
                path.close()
            c.drawPath(path, stroke=int(stroke), fill=int(fill))
        elif isinstance(op, TextOp):
            name = FONT_PREFIX + op.font
            if font_state != (name, op.size):
                c.setFont(name, op.size)
                font_state = (name, op.size)
            c.setFillColor(_colour(op.colour))
            if op.angle % 360 == 0:
                c.drawString(op.x * K, (h - op.y) * K, op.text)
            else:
                c.saveState()
                c.translate(op.x * K, (h - op.y) * K)
                c.rotate(op.angle)
                c.drawString(0, 0, op.text)
                c.restoreState()
                font_state = None
        elif isinstance(op, ImageOp):
            c.drawImage(str(art_file(op)), op.x * K, (h - op.y - op.h) * K, op.w * K, op.h * K)


def define_form(c: Any, name: str, face: Face, bleed: float, art_file: Callable[[ImageOp], Path]) -> None:
    """Draw ``face`` once into the form XObject ``name`` (box: the card and its bleed)."""
    c.beginForm(name, -bleed * K, -bleed * K, (face.width + bleed) * K, (face.height + bleed) * K)
    draw_face(c, face, bleed, art_file)
    c.endForm()


def place_form(c: Any, name: str, slot: Slot, page_height: float) -> None:
    """Place form ``name`` with its trim box on ``slot`` (mm from the top-left of the page)."""
    c.saveState()
    if slot.rotated:
        c.translate((slot.x + slot.w) * K, (page_height - slot.y) * K)
        c.rotate(180)
    else:
        c.translate(slot.x * K, (page_height - slot.y - slot.h) * K)
    c.doForm(name)
    c.restoreState()


def begin_calibrated(c: Any, spec: SheetSpec, back: bool) -> None:
    """Start drawing a page corrected for the printer: scaled about the page centre by 100/``scale``
    (what the 100 mm bars measured), and for a back page moved by ``back_offset`` (mm, right and
    down on the back). End with ``c.restoreState()``."""
    c.saveState()
    sx, sy = spec.scale
    dx, dy = spec.back_offset if back else (0.0, 0.0)
    if (sx, sy, dx, dy) == (100.0, 100.0, 0.0, 0.0):
        return
    cx, cy = spec.paper[0] / 2 * K, spec.paper[1] / 2 * K
    c.translate(cx + dx * K, cy - dy * K)
    c.scale(100.0 / sx, 100.0 / sy)
    c.translate(-cx, -cy)


def draw_segments(
    c: Any,
    segments: list[Segment],
    page_height: float,
    width: float,
    colour: str,
    dash: tuple[float, ...] | None = None,
) -> None:
    """Draw straight lines given in mm from the page's top-left corner."""
    if not segments:
        return
    c.saveState()
    c.setStrokeColor(_colour(colour))
    c.setLineWidth(width * K)
    c.setLineCap(0)
    if dash:
        c.setDash([d * K for d in dash])
    for s in segments:
        c.line(s.x1 * K, (page_height - s.y1) * K, s.x2 * K, (page_height - s.y2) * K)
    c.restoreState()


def set_page_boxes(
    c: Any, trim: tuple[float, float, float, float], bleed: tuple[float, float, float, float], page_height: float
) -> None:
    """Set the TrimBox and BleedBox of the current page (extents in mm, top-left origin)."""

    def box(e: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
        left, top, right, bottom = e
        return (
            round(left * K, 3),
            round((page_height - bottom) * K, 3),
            round(right * K, 3),
            round((page_height - top) * K, 3),
        )

    c.setTrimBox(box(trim))
    c.setBleedBox(box(bleed))
