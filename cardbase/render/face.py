"""Compose a card face: a layout filled with a card's values and fitted, as a list of drawing ops.

The ops are what both backends draw: rectangles, ellipses, polygons, lines of text already
wrapped, sized and placed (baseline start point, angle), and at most one art image. All
positions are mm on the card (top-left trim corner, y down). A face does not depend on
bleed or DPI, so one composed face serves PNGs at any resolution and every PDF; composed
faces are what the face cache stores (as JSON).
"""

from __future__ import annotations

import colorsys
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cardbase.render import fonts, script
from cardbase.render.layout import (
    LAYOUTS,
    MARKS,
    SAFE_ZONE,
    Art,
    Box,
    Element,
    Ellipse,
    Layout,
    Mark,
    Para,
    Pips,
    Rect,
    Shape,
    Text,
    shown_fields,
    with_marks,
)
from cardbase.render.shapes import ASPECT, OPEN, shape
from cardbase.render.units import PT_PER_MM

# --- ops -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RectOp:
    x: float
    y: float
    w: float
    h: float
    fill: str | None
    stroke: str | None
    width: float
    radius: float


@dataclass(frozen=True, slots=True)
class EllipseOp:
    x: float
    y: float
    w: float
    h: float
    fill: str | None
    stroke: str | None
    width: float


@dataclass(frozen=True, slots=True)
class PolyOp:
    points: tuple[tuple[float, float], ...]
    fill: str | None
    stroke: str | None
    width: float
    closed: bool = True


@dataclass(frozen=True, slots=True)
class TextOp:
    """One line of text: starts at (x, y) on its baseline, turned ``angle`` degrees anticlockwise."""

    x: float
    y: float
    text: str
    font: str
    size: float
    colour: str
    angle: int = 0


@dataclass(frozen=True, slots=True)
class ImageOp:
    """The art image whose content digest is ``key``, filling the box (already cropped to its shape);
    transparent pixels are composited onto ``matte``; ``full`` is a whole-face scan (no crop)."""

    x: float
    y: float
    w: float
    h: float
    key: str
    matte: str = "#ffffff"
    full: bool = False


Op = RectOp | EllipseOp | PolyOp | TextOp | ImageOp
_OP_TAGS: dict[type, str] = {RectOp: "r", EllipseOp: "e", PolyOp: "p", TextOp: "t", ImageOp: "i"}
_TAG_OPS: dict[str, type] = {v: k for k, v in _OP_TAGS.items()}


@dataclass(frozen=True, slots=True)
class ArtSlot:
    """The art a face will show: an image (its content digest) or, when ``key`` is None, a placeholder
    (which never names a file: where art goes is said in the terminal only)."""

    key: str | None


SMALL_TEXT = 6.0  # points: text set smaller than this is hard to read and draws a warning
CAP_STEP = 0.1  # points: how much the largest type of a box shrinks at each try


@dataclass
class Face:
    """A composed card face: size in mm, background (it fills the bleed), ops, warnings."""

    layout: str
    width: float
    height: float
    background: str
    ops: list[Op] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def smallest_text(self) -> float | None:
        """The smallest type size on the face, in points (None when it has no text)."""
        sizes = [op.size for op in self.ops if isinstance(op, TextOp)]
        return min(sizes) if sizes else None

    @property
    def art_keys(self) -> list[str]:
        return [op.key for op in self.ops if isinstance(op, ImageOp)]

    @property
    def art_boxes(self) -> list[ImageOp]:
        return [op for op in self.ops if isinstance(op, ImageOp)]

    def to_json(self) -> dict[str, Any]:
        ops = []
        for op in self.ops:
            values = [getattr(op, f) for f in op.__slots__]
            if isinstance(op, PolyOp):
                values[0] = [list(p) for p in op.points]
            ops.append([_OP_TAGS[type(op)], *values])
        return {
            "layout": self.layout,
            "width": self.width,
            "height": self.height,
            "background": self.background,
            "ops": ops,
            "warnings": self.warnings,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Face:
        ops: list[Op] = []
        for tag, *values in data["ops"]:
            kind = _TAG_OPS[tag]
            if kind is PolyOp:
                values[0] = tuple((float(x), float(y)) for x, y in values[0])
            ops.append(kind(*values))
        return cls(data["layout"], data["width"], data["height"], data["background"], ops, list(data["warnings"]))


# --- composing -----------------------------------------------------------------------------

_TEMPLATE = re.compile(r"\{([a-z_]+)\}")


def fill_template(template: str, values: Mapping[str, Any]) -> str:
    """``template`` with each ``{field}`` replaced by its face value."""
    if "{" not in template:
        return template

    def sub(m: re.Match[str]) -> str:
        value = values.get(m.group(1), "")
        return "" if value is None else str(value)

    return _TEMPLATE.sub(sub, template)


_EDGE_NEAR = 8.0  # mm: a box this close to one edge belongs to that edge (a corner index, a footer)


@dataclass(frozen=True, slots=True)
class _Frame:
    """Maps the reference card onto the real card with one uniform scale and reflow, never a stretch.

    Every box keeps its shape at the uniform scale ``s = min(sx, sy)``, and is placed by what it
    belongs to: a box that touches an edge and crosses the middle of an axis (panels, bars, text
    columns) keeps both ends' distances from their edges (scaled by ``s``) and takes the new
    length, so text reflows; a box within ``_EDGE_NEAR`` mm of one edge
    keeps its (scaled) distance from that edge; any other box keeps its (scaled) offset from the
    centre, so groups (a grid of cells, pips) keep their spacing. Distances from an edge scale only
    beyond ``SAFE_ZONE`` (within it they stay as on paper: a band from the cut stays at the cut), and
    ``sx``, ``sy`` are the scales of the card inside it: the safe zone is a length on paper (a cut off
    by up to 3 mm), the same on a mini card as on a tarot card.

    A box drawn inside a shape (``holders``: a badge's caption, a stat box's icon and number), or
    closely following a box at an edge (a corner index's suit under its rank), goes with that box
    along every axis it does not stretch on: it keeps its (scaled) offset from the box's corner, so
    what belongs together stays together whichever edge each is near."""

    sx: float
    sy: float
    width: float
    height: float
    ref_w: float
    ref_h: float
    holders: Mapping[Box, Box] = field(default_factory=dict)

    @property
    def type_scale(self) -> float:
        return min(self.sx, self.sy)

    def _axis(self, start: float, length: float, ref: float, real: float) -> tuple[float, float]:
        s, z = self.type_scale, SAFE_ZONE  # distances from an edge scale beyond the safe zone
        end = start + length

        def near(d: float) -> float:  # where a point ``d`` mm from the near edge goes: as on paper in the zone
            return float(d) if d <= z else z + (d - z) * s

        def far(d: float) -> float:  # where a point ``d`` mm from the far edge goes
            return real - d if d <= z else real - z - (d - z) * s

        if _bar(start, length, ref):  # a bar or panel: each end stays with its own edge
            first = near(start)
            return first, far(ref - end) - first
        if start <= _EDGE_NEAR:
            return near(start), length * s
        if ref - end <= _EDGE_NEAR:
            return far(ref - start), length * s
        return real / 2 + (start - ref / 2) * s, length * s

    def box(self, b: Box) -> tuple[float, float, float, float]:
        x, w = self._axis(b.x, b.w, self.ref_w, self.width)
        y, h = self._axis(b.y, b.h, self.ref_h, self.height)
        holder = self.holders.get(b)
        if holder is not None:
            s = self.type_scale
            hx, hy, hw, hh = self.box(holder)
            if abs(hw - holder.w * s) < 1e-9:  # the shape keeps its width: the box goes with it
                x, w = hx + (b.x - holder.x) * s, b.w * s
            if abs(hh - holder.h * s) < 1e-9:
                y, h = hy + (b.y - holder.y) * s, b.h * s
        return x, y, w, h

    def shaped(self, b: Box) -> tuple[float, float, float, float]:
        """``box(b)`` shrunk to ``b``'s own aspect ratio, centred (for circles and drawn shapes)."""
        x, y, w, h = self.box(b)
        aspect = b.w / b.h
        if w / h > aspect:
            nw = h * aspect
            return x + (w - nw) / 2, y, nw, h
        nh = w / aspect
        return x, y + (h - nh) / 2, w, nh


def _inner_scale(real: float, ref: float) -> float:
    """How much a length inside the safe zone grows from the reference card to one of ``real`` mm
    along an axis: the safe zone itself is a length on paper, the same on every card."""
    return max(real - 2 * SAFE_ZONE, real / 10) / (ref - 2 * SAFE_ZONE)


_FOLLOW_GAP = 1.0  # mm: a box this close after a box at an edge, and within its breadth, goes with it


def _holders(elements: tuple[Element, ...], reference: tuple[float, float]) -> dict[Box, Box]:
    """The box each element's box goes with: the smallest drawn shape (a rectangle, ellipse, named
    shape or art box of the same turn) it lies inside; else a box at an edge it closely follows
    (``_FOLLOW_GAP``) and lies within the breadth of, as a corner index's suit follows its rank."""
    w, h = reference
    shapes = [
        el
        for el in elements
        if isinstance(el, Rect | Ellipse | Shape | Art)  # not a panel, which stretches both ways
        and not (_bar(el.box.x, el.box.w, w) and _bar(el.box.y, el.box.h, h))
    ]
    held: dict[Box, Box] = {}
    for el in elements:
        b = el.box
        if b in held:
            continue
        around = [s.box for s in shapes if s.box != b and s.rotate == el.rotate and _inside(b, s.box)]
        if around:
            held[b] = min(around, key=lambda box: box.w * box.h)
            continue
        leaders = [a.box for a in elements if a.rotate == el.rotate and _follows(b, a.box, reference)]
        if leaders:
            held[b] = leaders[0]
    return held


def _bar(start: float, length: float, ref: float) -> bool:
    """Whether a box from ``start`` of ``length`` stretches along an axis of ``ref`` mm (``_Frame._axis``)."""
    end = start + length
    return (start <= _EDGE_NEAR or ref - end <= _EDGE_NEAR) and start < ref / 2 < end


def _inside(b: Box, around: Box) -> bool:
    return (
        around.x - 1e-6 <= b.x
        and around.y - 1e-6 <= b.y
        and b.x + b.w <= around.x + around.w + 1e-6
        and b.y + b.h <= around.y + around.h + 1e-6
    )


def _follows(b: Box, a: Box, reference: tuple[float, float]) -> bool:
    """Whether ``b`` starts just after ``a``, a box at the top or left edge, within its breadth."""
    down = (
        a.y <= _EDGE_NEAR < b.y
        and a.y + a.h < reference[1] / 2
        and 0 <= b.y - (a.y + a.h) <= _FOLLOW_GAP
        and a.x - 1e-6 <= b.x
        and b.x + b.w <= a.x + a.w + 1e-6
    )
    across = (
        a.x <= _EDGE_NEAR < b.x
        and a.x + a.w < reference[0] / 2
        and 0 <= b.x - (a.x + a.w) <= _FOLLOW_GAP
        and a.y - 1e-6 <= b.y
        and b.y + b.h <= a.y + a.h + 1e-6
    )
    return down or across


def _rotate_op(op: Op, w: float, h: float) -> Op:
    """``op`` turned 180° about the card's centre."""
    if isinstance(op, RectOp | EllipseOp | ImageOp):
        return type(op)(w - op.x - op.w, h - op.y - op.h, *[getattr(op, f) for f in op.__slots__[2:]])
    if isinstance(op, PolyOp):
        return PolyOp(tuple((w - x, h - y) for x, y in op.points), op.fill, op.stroke, op.width, op.closed)
    return TextOp(w - op.x, h - op.y, op.text, op.font, op.size, op.colour, (op.angle + 180) % 360)


def _shape_ops(
    name: str, x: float, y: float, w: float, h: float, fill: str | None, stroke: str | None, width: float, keep: bool
) -> list[Op]:
    if keep and name in ASPECT:
        aspect = ASPECT[name]
        if w / h > aspect:
            nw = h * aspect
            x, w = x + (w - nw) / 2, nw
        else:
            nh = w / aspect
            y, h = y + (h - nh) / 2, nh
    is_open = name in OPEN
    return [
        PolyOp(
            tuple((round(x + px * w, 4), round(y + py * h, 4)) for px, py in poly),
            None if is_open else fill,
            stroke,
            width,
            closed=not is_open,
        )
        for poly in shape(name)
    ]


def _wrap(words: list[str], font: str, size: float, width_pt: float) -> list[str]:
    """Greedy word wrap; a word wider than the line is broken between characters."""
    lines: list[str] = []
    line = ""
    for word in words:
        candidate = f"{line} {word}" if line else word
        if fonts.text_width(font, candidate, size) <= width_pt:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = ""
        while fonts.text_width(font, word, size) > width_pt and len(word) > 1:
            cut = len(word) - 1
            while cut > 1 and fonts.text_width(font, word[:cut], size) > width_pt:
                cut -= 1
            lines.append(word[:cut])
            word = word[cut:]
        line = word
    if line:
        lines.append(line)
    return lines


def _ellipsize(line: str, font: str, size: float, width_pt: float) -> str:
    line = line.rstrip()
    while line and fonts.text_width(font, line + "…", size) > width_pt:
        line = line[:-1].rstrip()
    return line + "…"


@dataclass(frozen=True, slots=True)
class _Line:
    text: str
    font: str
    size: float
    colour: str
    gap_before: float  # points of extra space above (between paragraphs)
    rtl: bool = False  # the paragraph runs right to left (the line is drawn in bidi visual order)


def _set_lines(
    paras: list[tuple[str, Para]], cap: float, type_scale: float, width_pt: float, wrap: bool
) -> list[_Line]:
    """The lines of ``paras``, each paragraph set at its size or ``cap`` points, the smaller."""
    out: list[_Line] = []
    for i, (content, para) in enumerate(paras):
        size = min(para.size, cap) * type_scale
        gap = 0.4 * size if i else 0.0
        chunks = content.split("\n")
        rtl = script.is_rtl(content)
        font = fonts.covering(para.font, content)
        for j, chunk in enumerate(chunks):
            words = [w for w in chunk.split(" ") if w]  # split on spaces only: no-break spaces hold
            pieces = _wrap(words, font, size, width_pt) if wrap else [" ".join(words)]
            for k, piece in enumerate(pieces or [""]):
                out.append(_Line(piece, font, size, para.colour, gap if j == 0 and k == 0 else 0.0, rtl))
    return out


def _block_height(lines: list[_Line], leading: float) -> float:
    if not lines:
        return 0.0
    first_ascent = fonts.metrics(lines[0].font)[0] * lines[0].size
    height = first_ascent
    for line in lines[1:]:
        height += line.size * leading + line.gap_before
    height += fonts.metrics(lines[-1].font)[1] * lines[-1].size
    return height


def _fits_width(lines: list[_Line], width_pt: float) -> bool:
    return all(fonts.text_width(ln.font, ln.text, ln.size) <= width_pt + 0.01 for ln in lines)


GLYPHS_SHOWN = 8
"""Characters a warning about text a font cannot draw names, at most (then "and N more")."""


def _say_undrawable(text: str, para: Para, card: str, warnings: list[str]) -> None:
    """A warning when ``text`` (set as ``para``) would not print as written: characters its font has no
    glyph for (CJK, emoji in DejaVu: empty boxes, silently). It names the card, the field and the
    characters (with their code points). Right-to-left text prints in its order (``script``)."""
    fields = ", ".join(dict.fromkeys(_TEMPLATE.findall(para.content))) or "text"
    font = fonts.covering(para.font, text)
    missing = fonts.missing_glyphs(font, text)
    if missing:
        listed = " ".join(f"{c} (U+{ord(c):04X})" for c in missing[:GLYPHS_SHOWN])
        more = f" and {len(missing) - GLYPHS_SHOWN} more" if len(missing) > GLYPHS_SHOWN else ""
        warnings.append(
            f"{card}: {fields}: the font {fonts.font_name(font)} has no glyph for {listed}{more};"
            " they print as empty boxes"
        )


def _text_ops(el: Text, values: Mapping[str, Any], frame: _Frame, card: str, warnings: list[str]) -> list[Op]:
    paras = [(script.joined(fill_template(p.content, values).strip()), p) for p in el.paras]
    paras = [(c, p) for c, p in paras if c]
    if not paras:
        return []
    for content, para in paras:
        _say_undrawable(content, para, card, warnings)
    x, y, w, h = frame.box(el.box)
    width_pt, height_pt = w * PT_PER_MM, h * PT_PER_MM
    base = paras[0][1].size
    top = max(p.size for _, p in paras)
    floor = el.min_size if el.min_size else top

    def fits(lines: list[_Line]) -> bool:
        return _block_height(lines, el.leading) <= height_pt + 0.01 and _fits_width(lines, width_pt)

    # Shrink until it fits, the largest type first (a cap lowered by 0.1 pt: the rules text meets
    # the flavour text's size before both shrink together), so the smallest type stays as large
    # as the whole box allows. A one-line box whose text is still too wide at the smallest size
    # then wraps (from full size again) before anything is cut.
    for wrap in (el.wrap,) if el.wrap else (False, True):
        cap = top
        lines = _set_lines(paras, cap, frame.type_scale, width_pt, wrap)
        while not fits(lines) and cap > floor + 1e-9:
            cap = max(floor, round(cap - CAP_STEP, 6))
            lines = _set_lines(paras, cap, frame.type_scale, width_pt, wrap)
        if fits(lines):
            break
    if not fits(lines):
        # Still too big at the smallest size: keep what fits, end with "…", and say so.
        kept: list[_Line] = []
        for line in lines:
            if _block_height([*kept, line], el.leading) > height_pt + 0.01:
                break
            kept.append(line)
        kept = kept or lines[:1]
        cut = len(kept) < len(lines)
        fixed = []
        for i, ln in enumerate(kept):
            too_wide = fonts.text_width(ln.font, ln.text, ln.size) > width_pt
            if too_wide or (cut and i == len(kept) - 1):
                ln = _Line(
                    _ellipsize(ln.text, ln.font, ln.size, width_pt), ln.font, ln.size, ln.colour, ln.gap_before, ln.rtl
                )
            fixed.append(ln)
        lines = fixed
        fields = ", ".join(dict.fromkeys(_TEMPLATE.findall(" ".join(p.content for _, p in paras)))) or "text"
        warnings.append(f"{card}: {fields} does not fit its box even at {el.min_size or base:g} pt; cut short with '…'")
    block = _block_height(lines, el.leading)
    top = y * PT_PER_MM
    if el.valign == "middle":
        top += (height_pt - block) / 2
    elif el.valign == "bottom":
        top += height_pt - block
    ops: list[Op] = []
    baseline = top + fonts.metrics(lines[0].font)[0] * lines[0].size
    for i, ln in enumerate(lines):
        if i:
            baseline += ln.size * el.leading + ln.gap_before
        if not ln.text:
            continue
        lw = fonts.text_width(ln.font, ln.text, ln.size)
        left = x * PT_PER_MM
        if el.align == "centre":
            left += (width_pt - lw) / 2
        elif el.align == "right" or ln.rtl:  # "left", the default, is where reading starts: the right in RTL
            left += width_pt - lw
        colour = fill_template(ln.colour, values)
        ops.append(
            TextOp(
                round(left / PT_PER_MM, 4),
                round(baseline / PT_PER_MM, 4),
                script.visual(ln.text, ln.rtl),
                ln.font,
                round(ln.size, 3),
                colour,
            )
        )
    return ops


# A placeholder per card kind: (motif shape, hue 0–1, label), so a sheet of them reads at a glance.
PLACEHOLDERS: dict[str, tuple[str, float, str]] = {
    "monster": ("sword", 0.0, "MONSTER"),
    "assist": ("star", 0.36, "ASSIST"),
    "land": ("mountains", 0.08, "LAND"),
    "character": ("shield", 0.6, "CHARACTER"),
    "item": ("diamond", 0.12, "ITEM"),
    "gotcha": ("star", 0.98, "GOTCHA!"),
    "open": ("seal", 0.15, "OPEN"),
    "tile": ("club", 0.3, "TILE"),
    "card": ("mountains", 0.55, "ART"),
}


def _placeholder_ops(x: float, y: float, w: float, h: float, kind: str, scale: float, name: str) -> list[Op]:
    """Stand-in art for a card of ``kind``: a tinted field, the kind's motif and the card's name (the
    face prints its type elsewhere; the kind's word only when the card has no name)."""
    motif, hue, kind_label = PLACEHOLDERS.get(kind, PLACEHOLDERS["card"])
    label = script.joined(name) or kind_label

    def tint(lightness: float, saturation: float) -> str:
        r, g, b = colorsys.hls_to_rgb(hue, lightness, saturation)
        return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"

    ops: list[Op] = [RectOp(x, y, w, h, tint(0.9, 0.45), None, 0.0, 0.0)]
    if motif == "mountains":
        ops += _shape_ops(motif, x, y + h * 0.3, w, h * 0.7, tint(0.72, 0.35), None, 0.0, keep=False)
    else:
        side = min(w, h) * 0.62
        ops += _shape_ops(
            motif, x + (w - side) / 2, y + (h - side) / 2 - h * 0.06, side, side, tint(0.74, 0.4), None, 0.0, keep=True
        )
    size = max(SMALL_TEXT, 8.0 * scale)
    width_pt = (w - 2) * PT_PER_MM
    lines = _wrap(label.split(), "sans-bold", size, width_pt)[:2] or [kind_label]  # a long name takes two lines
    if len(lines) == 2 and " ".join(lines) != " ".join(label.split()):
        lines[1] = _ellipsize(lines[1], "sans-bold", size, width_pt)
    leading = size * 1.15 / PT_PER_MM
    if h * PT_PER_MM > 2 * size * len(lines):
        for row, line in enumerate(lines):
            lw = fonts.text_width("sans-bold", line, size) / PT_PER_MM
            baseline = y + h - 1.6 - leading * (len(lines) - 1 - row)
            ops.append(
                TextOp(
                    round(x + (w - lw) / 2, 4),
                    round(baseline, 4),
                    script.visual(line, script.is_rtl(label)),
                    "sans-bold",
                    round(size, 3),
                    tint(0.3, 0.45),
                )
            )
    return ops


_PIP_ROWS: dict[int, tuple[tuple[str, float], ...]] = {
    1: (("c", 0.5),),
    2: (("c", 0.0), ("c", 1.0)),
    3: (("c", 0.0), ("c", 0.5), ("c", 1.0)),
    4: (("l", 0.0), ("r", 0.0), ("l", 1.0), ("r", 1.0)),
    5: (("l", 0.0), ("r", 0.0), ("c", 0.5), ("l", 1.0), ("r", 1.0)),
    6: (("l", 0.0), ("r", 0.0), ("l", 0.5), ("r", 0.5), ("l", 1.0), ("r", 1.0)),
    7: (("l", 0.0), ("r", 0.0), ("c", 0.25), ("l", 0.5), ("r", 0.5), ("l", 1.0), ("r", 1.0)),
    8: (("l", 0.0), ("r", 0.0), ("c", 0.25), ("l", 0.5), ("r", 0.5), ("c", 0.75), ("l", 1.0), ("r", 1.0)),
    9: (
        ("l", 0.0),
        ("r", 0.0),
        ("l", 1 / 3),
        ("r", 1 / 3),
        ("c", 0.5),
        ("l", 2 / 3),
        ("r", 2 / 3),
        ("l", 1.0),
        ("r", 1.0),
    ),
    10: (
        ("l", 0.0),
        ("r", 0.0),
        ("c", 1 / 6),
        ("l", 1 / 3),
        ("r", 1 / 3),
        ("l", 2 / 3),
        ("r", 2 / 3),
        ("c", 5 / 6),
        ("l", 1.0),
        ("r", 1.0),
    ),
}
_COURT = {11: "J", 12: "Q", 13: "K"}


def _pip_ops(el: Pips, values: Mapping[str, Any], frame: _Frame) -> list[Op]:
    x, y, w, h = frame.shaped(el.box)
    rank, suit_shape, colour = values.get("rank"), values.get("suit_shape"), values.get("suit_colour", "#111111")
    if not isinstance(rank, int) or not suit_shape:
        size = 40 * frame.type_scale
        lw = fonts.text_width("sans-bold", "?", size) / PT_PER_MM
        return [TextOp(x + (w - lw) / 2, y + h / 2 + size / PT_PER_MM * 0.36, "?", "sans-bold", size, "#111111")]
    ops: list[Op] = []
    if rank in _COURT:
        ops.append(RectOp(x, y, w, h, None, colour, 0.5, 1.5))
        ops.append(RectOp(x + 1.5, y + 1.5, w - 3, h - 3, "#faf6ec", colour, 0.25, 1.0))
        letter = _COURT[rank]
        size = 48 * frame.type_scale
        lw = fonts.text_width("serif-bold", letter, size) / PT_PER_MM
        ascent = fonts.metrics("serif-bold")[0] * size / PT_PER_MM
        ops.append(TextOp(x + (w - lw) / 2, y + h / 2 + ascent * 0.36, letter, "serif-bold", size, colour))
        pip = w * 0.26
        ops += _shape_ops(suit_shape, x + 3, y + 3, pip, pip, colour, None, 0.0, keep=True)
        for op in _shape_ops(suit_shape, x + 3, y + 3, pip, pip, colour, None, 0.0, keep=True):
            ops.append(_rotate_op(op, 2 * x + w, 2 * y + h))
        return ops
    if rank == 1:
        size = w * 0.62
        return _shape_ops(suit_shape, x + (w - size) / 2, y + (h - size) / 2, size, size, colour, None, 0, keep=True)
    pip = min(w * 0.3, h * 0.17)
    cols = {"l": x + w * 0.2, "c": x + w * 0.5, "r": x + w * 0.8}
    top, bottom = y + pip / 2, y + h - pip / 2
    for col, row in _PIP_ROWS[rank]:
        cx, cy = cols[col], top + (bottom - top) * row
        pips = _shape_ops(suit_shape, cx - pip / 2, cy - pip / 2, pip, pip, colour, None, 0.0, keep=True)
        if row > 0.5:  # the lower half of a playing card is upside down
            pips = [_rotate_op(op, 2 * cx, 2 * cy) for op in pips]
        ops += pips
    return ops


def compose(
    layout: Layout | str,
    values: Mapping[str, Any],
    size: tuple[float, float],
    art: ArtSlot | None = None,
) -> Face:
    """The face of a card with ``values`` drawn with ``layout`` on a card of ``size`` mm; the
    marks the card carries are drawn whatever the layout (:func:`cardbase.render.layout.with_marks`)."""
    if isinstance(layout, str):
        layout = LAYOUTS[layout]
    carried = marks_carried(layout, values)
    layout = with_marks(layout)
    width, height = size
    frame = _Frame(
        _inner_scale(width, layout.reference[0]),
        _inner_scale(height, layout.reference[1]),
        width,
        height,
        *layout.reference,
        _holders(layout.elements, layout.reference),
    )
    label = str(values.get("name", layout.title))
    face = Face(layout.name, width, height, layout.background)
    for el in layout.elements:
        if el.when and not values.get(el.when):
            continue
        ops: list[Op]
        if isinstance(el, Text):
            ops = _text_ops(el, values, frame, label, face.warnings)
        elif isinstance(el, Rect):
            x, y, w, h = frame.box(el.box)
            ops = [
                RectOp(
                    x,
                    y,
                    w,
                    h,
                    fill_template(el.fill, values) if el.fill else None,
                    fill_template(el.stroke, values) if el.stroke else None,
                    el.width * frame.type_scale,
                    el.radius,
                )
            ]
        elif isinstance(el, Ellipse):
            x, y, w, h = frame.shaped(el.box)
            ops = [
                EllipseOp(
                    x,
                    y,
                    w,
                    h,
                    el.fill and fill_template(el.fill, values),
                    el.stroke and fill_template(el.stroke, values),
                    el.width * frame.type_scale,
                )
            ]
        elif isinstance(el, Shape):
            name = fill_template(el.name, values)
            if not name:
                continue
            x, y, w, h = frame.box(el.box)
            ops = _shape_ops(
                name,
                x,
                y,
                w,
                h,
                el.fill and fill_template(el.fill, values),
                el.stroke and fill_template(el.stroke, values),
                el.width * frame.type_scale,
                el.keep_aspect,
            )
        elif isinstance(el, Art):
            x, y, w, h = frame.box(el.box)
            slot = art or ArtSlot(None)
            if slot.key:
                ops = [ImageOp(x, y, w, h, slot.key, el.matte)]
            else:
                ops = _placeholder_ops(x, y, w, h, el.kind, frame.type_scale, str(values.get("name", "")))
            if el.frame:
                ops.append(RectOp(x, y, w, h, None, el.frame, 0.3, 0.0))
        elif isinstance(el, Pips):
            ops = _pip_ops(el, values, frame)
        elif isinstance(el, Mark):
            if el.kind not in carried:
                continue
            ops = _mark_ops(el, frame, label, face.warnings)
        else:  # pragma: no cover - the Element union is closed
            raise TypeError(f"unknown layout element {el!r}")
        if el.rotate == 180:
            ops = [_rotate_op(op, width, height) for op in ops]
        face.ops.extend(ops)
    smallest = face.smallest_text
    if smallest is not None and smallest < SMALL_TEXT - 1e-6:
        face.warnings.append(f"{SMALL_PREFIX}{label}: text as small as {smallest:.2f} pt")
    return face


SMALL_PREFIX = "small text: "


def marks_carried(layout: Layout, values: Mapping[str, Any]) -> frozenset[str]:
    """The marks a card with ``values`` carries on ``layout``: ``demo`` for a demo-set card,
    ``assumed`` when the layout shows one of the values an assumption profile gave it."""
    carried = set()
    if values.get("demo"):
        carried.add("demo")
    assumed = {f for f in str(values.get("assumed") or "").split(", ") if f}
    if assumed & shown_fields(layout):
        carried.add("assumed")
    return frozenset(carried)


def _mark_ops(el: Mark, frame: _Frame, card: str, warnings: list[str]) -> list[Op]:
    """A mark: its fixed words, white on its colour, in its box."""
    words, colour, _ = MARKS[el.kind]
    x, y, w, h = frame.box(el.box)
    tag = Text(el.box, (Para(words, "sans-bold", 7.2, "#ffffff"),), "centre", "middle", min_size=4.0)
    return [RectOp(x, y, w, h, colour, "#ffffff", 0.3, 0.8), *_text_ops(tag, {}, frame, card, warnings)]


def full_art_face(size: tuple[float, float], key: str, background: str = "#ffffff", into_bleed: float = 0.0) -> Face:
    """A face that is one scanned image, printed as is over the whole card; with ``into_bleed``
    mm the image box reaches that far past the trim (the scan mirrored out into the bleed)."""
    width, height = size
    b = into_bleed
    op = ImageOp(-b, -b, width + 2 * b, height + 2 * b, key, background, True)
    return Face("full-art", width, height, background, [op])
