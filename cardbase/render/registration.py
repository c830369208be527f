"""The registration test: one sheet (a front and a back page) to check a printer before printing cards.

Front: every card slot's outline with a black cross at its centre, the sheet's crop marks,
scale bars of a known length (does the printer print at true size?) and rulers at the paper
edges (how close to the edge does it print?). Back: a red cross with 1 mm scales at the centre
of each slot as the back will be placed for the chosen flip. Held up to the light, each black
cross should sit on its red cross; the scales read the offset.
"""

from __future__ import annotations

from typing import Any

from cardbase.render.pdf import FONT_PREFIX, K, draw_segments
from cardbase.render.sheet import Grid, Segment
from cardbase.render.units import format_mm

_GREY = "#8c8c8c"
_RED = "#d0021b"


def _text(
    c: Any, x: float, y: float, text: str, size: float, page_h: float, colour: str = "#000000", align: str = "left"
) -> None:
    from reportlab.lib.colors import HexColor

    c.setFont(FONT_PREFIX + "sans", size)
    c.setFillColor(HexColor(colour))
    if align == "centre":
        c.drawCentredString(x * K, (page_h - y) * K, text)
    else:
        c.drawString(x * K, (page_h - y) * K, text)


def _cross(cx: float, cy: float, arm: float) -> list[Segment]:
    return [Segment(cx - arm, cy, cx + arm, cy), Segment(cx, cy - arm, cx, cy + arm)]


def _scale_bar(x: float, y: float, length: float, vertical: bool) -> list[Segment]:
    if vertical:
        segs = [Segment(x, y, x, y + length)]
        for mm in range(0, int(length) + 1):
            tick = 3.0 if mm % 10 == 0 else 1.5 if mm % 5 == 0 else 0.8
            segs.append(Segment(x, y + mm, x + tick, y + mm))
        return segs
    segs = [Segment(x, y, x + length, y)]
    for mm in range(0, int(length) + 1):
        tick = 3.0 if mm % 10 == 0 else 1.5 if mm % 5 == 0 else 0.8
        segs.append(Segment(x + mm, y, x + mm, y - tick))
    return segs


def _edge_rulers(grid: Grid) -> tuple[list[Segment], list[tuple[float, float, str]]]:
    pw, ph = grid.spec.paper
    mid = grid.slot((grid.cols // 2) + grid.cols * (grid.rows // 2))
    cx, cy = mid.x + mid.w / 2 + 8, mid.y + mid.h / 2 + 8  # off the centre cross, off the crop-mark lines
    segs: list[Segment] = []
    labels: list[tuple[float, float, str]] = []
    reach = 15
    for mm in range(0, reach + 1):
        tick = 2.5 if mm % 5 == 0 else 1.2
        segs += [
            Segment(cx - tick / 2, mm, cx + tick / 2, mm),
            Segment(cx - tick / 2, ph - mm, cx + tick / 2, ph - mm),
            Segment(mm, cy - tick / 2, mm, cy + tick / 2),
            Segment(pw - mm, cy - tick / 2, pw - mm, cy + tick / 2),
        ]
        if mm and mm % 5 == 0:
            labels += [
                (cx + 2, mm + 0.8, str(mm)),
                (cx + 2, ph - mm + 0.8, str(mm)),
                (mm - 0.8, cy - 2, str(mm)),
                (pw - mm - 0.8, cy - 2, str(mm)),
            ]
    segs += [
        Segment(cx, 0, cx, reach),
        Segment(cx, ph - reach, cx, ph),
        Segment(0, cy, reach, cy),
        Segment(pw - reach, cy, pw, cy),
    ]
    return segs, labels


def calibration_lines(grid: Grid, options_line: str) -> list[str]:
    """What the front page says to pass, with this test's own options and the current corrections."""
    spec = grid.spec
    sx, sy = spec.scale
    dx, dy = spec.back_offset
    printed = options_line or "(the defaults)"
    return [
        f"printed with: {printed}",
        f"print cards with the same options plus --scale-x {sx:g} --scale-y {sy:g} --back-offset {dx:g},{dy:g},",
        f"corrected: across bar measures A mm → --scale-x {sx:g}×A/100; down bar D mm → --scale-y {sy:g}×D/100;",
        "back: where the black cross shows on the red scales, X mm right and Y mm down (on the back) →",
        f"--back-offset {dx:g}+X,{dy:g}+Y",
    ]


def draw_registration(c: Any, grid: Grid, side: str, options_line: str = "") -> None:
    """Draw the ``front`` or ``back`` page of the registration test on canvas ``c``; the front says
    which options to pass (``options_line``: the options this test was printed with)."""
    spec = grid.spec
    pw, ph = spec.paper
    outlines: list[Segment] = []
    crosses: list[Segment] = []
    slots = [grid.slot(i) if side == "front" else grid.back_slot(i) for i in range(grid.per_page)]
    for s in slots:
        outlines += [
            Segment(s.x, s.y, s.x + s.w, s.y),
            Segment(s.x + s.w, s.y, s.x + s.w, s.y + s.h),
            Segment(s.x + s.w, s.y + s.h, s.x, s.y + s.h),
            Segment(s.x, s.y + s.h, s.x, s.y),
        ]
        cx, cy = s.x + s.w / 2, s.y + s.h / 2
        crosses += _cross(cx, cy, 8 if side == "front" else 6)
        if side == "back":
            for mm in range(-6, 7):
                tick = 1.6 if mm % 5 == 0 else 0.8
                crosses += [
                    Segment(cx + mm, cy - tick, cx + mm, cy + tick),
                    Segment(cx - tick, cy + mm, cx + tick, cy + mm),
                ]
    draw_segments(c, outlines, ph, 0.15, _GREY)
    draw_segments(c, crosses, ph, 0.2 if side == "front" else 0.15, "#000000" if side == "front" else _RED)
    marks = grid.crop_marks() if side == "front" else grid.mirrored(grid.crop_marks())
    draw_segments(c, marks, ph, 0.25, "#000000")
    for s in slots:
        label = f"card {s.index + 1}" if side == "front" else f"back of card {s.index + 1}"
        _text(c, s.x + s.w / 2, s.y + s.h / 2 - 11, label, 7, ph, _GREY if side == "front" else _RED, "centre")
    first = slots[0]
    x, y = first.x + (9 if side == "front" else 3), first.y + first.h / 2 + 16
    flip = "long edge" if spec.flip == "long-edge" else "short edge"
    if side == "front":
        lines = [
            "cardbase registration test",
            f"{spec.paper_name} · {format_mm(spec.card[0])}×{format_mm(spec.card[1])} mm cards",
            f"print both sides, flip on the {flip},",
            "at 100 % / actual size (no fit to page).",
            "Hold to the light: each black cross",
            "should sit on the red cross behind it.",
            "Edge rulers: the first tick you can",
            "see is how close your printer prints.",
        ]
        length = min(100.0, float(int((grid.trim_extent()[2] - grid.trim_extent()[0] - 10) // 10 * 10)))
        if length >= 20:
            bx = (pw - length) / 2
            by = grid.y0 + 6
            draw_segments(c, _scale_bar(bx, by, length, vertical=False), ph, 0.2, "#000000")
            _text(c, pw / 2, by + 4, f"this bar is exactly {length:g} mm: measure it", 7, ph, align="centre")
        vlength = min(100.0, float(int((grid.trim_extent()[3] - grid.trim_extent()[1] - 30) // 10 * 10)))
        if vlength >= 20:
            vx, vy = grid.x0 + 2, grid.y0 + 12
            draw_segments(c, _scale_bar(vx, vy, vlength, vertical=True), ph, 0.2, "#000000")
            _text(c, vx + 4, vy + vlength, f"{vlength:g} mm", 6, ph)
        rulers, labels = _edge_rulers(grid)
        draw_segments(c, rulers, ph, 0.2, "#000000")
        for lx, ly, text in labels:
            _text(c, lx, ly, text, 4.5, ph)
    else:
        lines = [
            "back of the registration test",
            "red scales: 1 mm ticks. Read how far",
            "the black cross on the front sits",
            "from the centre, and set your printer's",
            "back-side offset, or pass --back-offset X,Y:",
            "X mm right and Y mm down, read here.",
        ]
    for i, line in enumerate(lines):
        _text(c, x, y + i * 3.4, line, 6.5, ph)
    if side == "front":
        for i, line in enumerate(calibration_lines(grid, options_line)):
            top = grid.slot(grid.cols).y if grid.rows > 1 else grid.y0 + grid.spec.card[1] * 0.75
            _text(c, grid.x0 + 7, top + 4 + i * 2.8, line, 6, ph)
