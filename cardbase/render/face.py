"""Compose a card face: a layout filled with a card's values and fitted, as a list of drawing ops.

The ops are what both backends draw: rectangles, ellipses, polygons, lines of text already
wrapped, sized and placed (baseline start point, angle), and at most one art image. All
positions are mm on the card (top-left trim corner, y down). A face does not depend on
bleed or DPI, so one composed face serves PNGs at any resolution and every PDF; composed
faces are what the face cache stores (as JSON).
"""

from __future__ import annotations

import colorsys
import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cardbase.render import fonts
from cardbase.render.layout import (
    LAYOUTS,
    Art,
    Box,
    Ellipse,
    Layout,
    Para,
    Pips,
    Rect,
    Shape,
    Text,
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
    """The art image whose content digest is ``key``, filling the box (already cropped to its shape)."""

    x: float
    y: float
    w: float
    h: float
    key: str


Op = RectOp | EllipseOp | PolyOp | TextOp | ImageOp
_OP_TAGS: dict[type, str] = {RectOp: "r", EllipseOp: "e", PolyOp: "p", TextOp: "t", ImageOp: "i"}
_TAG_OPS: dict[str, type] = {v: k for k, v in _OP_TAGS.items()}


@dataclass(frozen=True, slots=True)
class ArtSlot:
    """The art a face will show: an image (its content digest) or, when ``key`` is None, a placeholder."""

    key: str | None
    hint: str = ""


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


@dataclass(frozen=True, slots=True)
class _Frame:
    """Maps the reference card to the real card: scale per axis, type scale, rotation."""

    sx: float
    sy: float
    width: float
    height: float

    @property
    def type_scale(self) -> float:
        return min(self.sx, self.sy)

    def box(self, b: Box) -> tuple[float, float, float, float]:
        return b.x * self.sx, b.y * self.sy, b.w * self.sx, b.h * self.sy


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


def _set_lines(
    paras: list[tuple[str, Para]], scale: float, type_scale: float, width_pt: float, wrap: bool
) -> list[_Line]:
    out: list[_Line] = []
    for i, (content, para) in enumerate(paras):
        size = para.size * type_scale * scale
        gap = 0.4 * size if i else 0.0
        chunks = content.split("\n")
        for j, chunk in enumerate(chunks):
            pieces = _wrap(chunk.split(), para.font, size, width_pt) if wrap else [" ".join(chunk.split())]
            for k, piece in enumerate(pieces or [""]):
                out.append(_Line(piece, para.font, size, para.colour, gap if j == 0 and k == 0 else 0.0))
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


def _text_ops(el: Text, values: Mapping[str, Any], frame: _Frame, card: str, warnings: list[str]) -> list[Op]:
    paras = [(fill_template(p.content, values).strip(), p) for p in el.paras]
    paras = [(c, p) for c, p in paras if c]
    if not paras:
        return []
    x, y, w, h = frame.box(el.box)
    width_pt, height_pt = w * PT_PER_MM, h * PT_PER_MM
    base = paras[0][1].size
    min_scale = (el.min_size / base) if el.min_size else 1.0

    def fits(lines: list[_Line]) -> bool:
        return _block_height(lines, el.leading) <= height_pt + 0.01 and _fits_width(lines, width_pt)

    # Shrink until it fits; a one-line box whose text is still too wide at the smallest size
    # then wraps (from full size again) before anything is cut.
    for wrap in (el.wrap,) if el.wrap else (False, True):
        scale = 1.0
        lines = _set_lines(paras, scale, frame.type_scale, width_pt, wrap)
        while not fits(lines) and scale > min_scale + 1e-9:
            scale = max(min_scale, scale - 0.03)
            lines = _set_lines(paras, scale, frame.type_scale, width_pt, wrap)
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
                ln = _Line(_ellipsize(ln.text, ln.font, ln.size, width_pt), ln.font, ln.size, ln.colour, ln.gap_before)
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
        elif el.align == "right":
            left += width_pt - lw
        colour = fill_template(ln.colour, values)
        ops.append(
            TextOp(
                round(left / PT_PER_MM, 4), round(baseline / PT_PER_MM, 4), ln.text, ln.font, round(ln.size, 3), colour
            )
        )
    return ops


def _placeholder_ops(x: float, y: float, w: float, h: float, seed: str, hint: str, scale: float) -> list[Op]:
    """Generated stand-in art: a sky and hills tinted from the card's name, and where real art would go."""
    hue = int(hashlib.sha1(seed.encode()).hexdigest()[:4], 16) / 0xFFFF

    def tint(lightness: float, saturation: float) -> str:
        r, g, b = colorsys.hls_to_rgb(hue, lightness, saturation)
        return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"

    ops: list[Op] = [
        RectOp(x, y, w, h, tint(0.9, 0.45), None, 0.0, 0.0),
        EllipseOp(x + w * 0.68, y + h * 0.12, h * 0.26, h * 0.26, tint(0.97, 0.6), None, 0.0),
    ]
    ops += _shape_ops("mountains", x, y + h * 0.25, w, h * 0.75, tint(0.72, 0.35), None, 0.0, keep=False)
    if hint:
        size = 4.4 * scale
        width_pt = (w - 2) * PT_PER_MM
        while size > 2.5 and fonts.text_width("sans", hint, size) > width_pt:
            size -= 0.2
        if fonts.text_width("sans", hint, size) > width_pt:
            hint = _ellipsize(hint, "sans", size, width_pt)
        lw = fonts.text_width("sans", hint, size) / PT_PER_MM
        ops.append(
            TextOp(round(x + (w - lw) / 2, 4), round(y + h - 1.2, 4), hint, "sans", round(size, 3), tint(0.3, 0.4))
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
    x, y, w, h = frame.box(el.box)
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
    """The face of a card with ``values`` drawn with ``layout`` on a card of ``size`` mm."""
    if isinstance(layout, str):
        layout = LAYOUTS[layout]
    width, height = size
    frame = _Frame(width / layout.reference[0], height / layout.reference[1], width, height)
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
                    el.width,
                    el.radius,
                )
            ]
        elif isinstance(el, Ellipse):
            x, y, w, h = frame.box(el.box)
            ops = [
                EllipseOp(
                    x,
                    y,
                    w,
                    h,
                    el.fill and fill_template(el.fill, values),
                    el.stroke and fill_template(el.stroke, values),
                    el.width,
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
                el.width,
                el.keep_aspect,
            )
        elif isinstance(el, Art):
            x, y, w, h = frame.box(el.box)
            slot = art or ArtSlot(None)
            if slot.key:
                ops = [ImageOp(x, y, w, h, slot.key)]
            else:
                ops = _placeholder_ops(x, y, w, h, label, slot.hint, frame.type_scale)
            if el.frame:
                ops.append(RectOp(x, y, w, h, None, el.frame, 0.3, 0.0))
        elif isinstance(el, Pips):
            ops = _pip_ops(el, values, frame)
        else:  # pragma: no cover - the Element union is closed
            raise TypeError(f"unknown layout element {el!r}")
        if el.rotate == 180:
            ops = [_rotate_op(op, width, height) for op in ops]
        face.ops.extend(ops)
    return face
