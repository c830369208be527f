"""The Pillow backend: a composed face drawn to an image at any DPI.

Shapes are drawn at twice the resolution and reduced by averaging each 2×2 block
(anti-aliasing) when the target is 600 DPI or less. Strokes are centred on their outlines, as in PDF.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cardbase.render import fonts
from cardbase.render.art import fit_art, load_image
from cardbase.render.face import EllipseOp, Face, ImageOp, PolyOp, RectOp, TextOp
from cardbase.render.units import mm_to_px


def _text(img: Any, draw: Any, op: TextOp, x: float, y: float, size_px: float) -> None:
    from PIL import Image

    font = fonts.pil_font(op.font, size_px)
    if op.angle % 360 == 0:
        draw.text((x, y), op.text, font=font, fill=op.colour, anchor="ls")
        return
    left, top, right, bottom = font.getbbox(op.text, anchor="ls")
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    from PIL import ImageDraw

    ImageDraw.Draw(mask).text((-left, -top), op.text, font=font, fill=255, anchor="ls")
    angle = op.angle % 360
    if angle == 180:
        mask = mask.transpose(Image.Transpose.ROTATE_180)
        at = (x - right, y - bottom)
    elif angle == 90:
        mask = mask.transpose(Image.Transpose.ROTATE_90)
        at = (x + top, y - right)
    elif angle == 270:
        mask = mask.transpose(Image.Transpose.ROTATE_270)
        at = (x - bottom, y + left)
    else:
        raise ValueError(f"text angle {op.angle} is not a multiple of 90")
    img.paste(op.colour, (round(at[0]), round(at[1])), mask)


def render_face(
    face: Face,
    dpi: float = 300,
    bleed: float = 0.0,
    art: Mapping[str, Path] | None = None,
    supersample: int | None = None,
) -> Any:
    """``face`` as an RGB Pillow image of (card + 2 × bleed) at ``dpi``."""
    from PIL import Image, ImageDraw

    ss = supersample or (2 if dpi <= 600 else 1)
    scale = dpi * ss / 25.4
    width_px = round((face.width + 2 * bleed) * dpi / 25.4)
    height_px = round((face.height + 2 * bleed) * dpi / 25.4)
    img = Image.new("RGB", (width_px * ss, height_px * ss), face.background)
    draw = ImageDraw.Draw(img)

    def px(v: float) -> float:
        return (v + bleed) * scale

    def stroke_px(width_mm: float) -> int:
        return max(1, round(width_mm * scale))

    for op in face.ops:
        if isinstance(op, RectOp | EllipseOp):
            x0, y0, x1, y1 = px(op.x), px(op.y), px(op.x + op.w), px(op.y + op.h)
            if op.fill:
                if isinstance(op, RectOp):
                    draw.rounded_rectangle((x0, y0, x1, y1), radius=op.radius * scale, fill=op.fill)
                else:
                    draw.ellipse((x0, y0, x1, y1), fill=op.fill)
            if op.stroke and op.width > 0:
                sw = stroke_px(op.width)
                half = sw / 2
                box = (x0 - half, y0 - half, x1 + half, y1 + half)
                if isinstance(op, RectOp):
                    draw.rounded_rectangle(box, radius=op.radius * scale + half, outline=op.stroke, width=sw)
                else:
                    draw.ellipse(box, outline=op.stroke, width=sw)
        elif isinstance(op, PolyOp):
            points = [(px(x), px(y)) for x, y in op.points]
            if op.closed:
                if op.fill:
                    draw.polygon(points, fill=op.fill)
                if op.stroke and op.width > 0:
                    draw.line([*points, points[0]], fill=op.stroke, width=stroke_px(op.width), joint="curve")
            elif op.stroke:
                draw.line(points, fill=op.stroke, width=stroke_px(op.width), joint="curve")
        elif isinstance(op, TextOp):
            _text(img, draw, op, px(op.x), px(op.y), op.size / 72 * dpi * ss)
        elif isinstance(op, ImageOp):
            box_w = max(1, round(op.w * scale))
            box_h = max(1, round(op.h * scale))
            path = (art or {}).get(op.key)
            if path is None:
                raise KeyError(f"no image for art {op.key[:12]}")
            picture = fit_art(load_image(path, op.matte), op, box_w, box_h)
            if picture.size != (box_w, box_h):
                picture = picture.resize((box_w, box_h), Image.Resampling.LANCZOS)
            img.paste(picture, (round(px(op.x)), round(px(op.y))))
    if ss > 1:
        img = img.reduce(ss)  # a box filter over each ss×ss block: the anti-aliasing, 12× faster than Lanczos
    return img


def save_png(img: Any, path: Path, dpi: float) -> None:
    """Save ``img`` as PNG with its DPI recorded (so it prints at true size)."""
    img.save(path, format="PNG", dpi=(dpi, dpi), optimize=False)


def face_size_px(width_mm: float, height_mm: float, dpi: float) -> tuple[int, int]:
    """The pixel size a face of ``width_mm``×``height_mm`` renders to at ``dpi``."""
    return round(mm_to_px(width_mm, dpi)), round(mm_to_px(height_mm, dpi))
