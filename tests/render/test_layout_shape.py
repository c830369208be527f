"""Layouts at any size keep their shape (uniform scale and reflow), keep a 3 mm safe zone, and
card backs are point-symmetric."""

from __future__ import annotations

from collections import Counter

import pytest

from cardbase.db.models import Card
from cardbase.render import fonts
from cardbase.render.face import (
    SMALL_PREFIX,
    EllipseOp,
    Face,
    ImageOp,
    Op,
    PolyOp,
    RectOp,
    TextOp,
    _rotate_op,
    compose,
)
from cardbase.render.layout import LAYOUTS, SAFE_ZONE, Ellipse, layout_name
from cardbase.render.units import CARD_SIZES, PT_PER_MM, TILE_SIZE, parse_size
from cardbase.render.values import face_values

TILE = parse_size(TILE_SIZE, CARD_SIZES)
SIZES = [(63.0, 88.0), CARD_SIZES["bridge"], (88.0, 63.0), (63.0, 63.0), CARD_SIZES["mini"]]


def extent(op: Op) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of what ``op`` inks, in mm (text: its advance box)."""
    if isinstance(op, TextOp):
        width = fonts.text_width(op.font, op.text, op.size) / PT_PER_MM
        ascent, descent = (v * op.size / PT_PER_MM for v in fonts.metrics(op.font))
        if op.angle == 180:
            return op.x - width, op.y - descent, op.x, op.y + ascent
        return op.x, op.y - ascent, op.x + width, op.y + descent
    if isinstance(op, PolyOp):
        xs, ys = [p[0] for p in op.points], [p[1] for p in op.points]
        half = op.width / 2 if op.stroke else 0.0
        return min(xs) - half, min(ys) - half, max(xs) + half, max(ys) + half
    half = op.width / 2 if getattr(op, "stroke", None) else 0.0
    return op.x - half, op.y - half, op.x + op.w + half, op.y + op.h + half


def key(op: Op) -> tuple:
    """``op`` as a comparable value, rounded to 0.01 mm (polygons as sorted point sets)."""
    if isinstance(op, PolyOp):
        return ("p", tuple(sorted({(round(x, 2), round(y, 2)) for x, y in op.points})), op.fill, op.stroke)
    return tuple(round(v, 2) if isinstance(v, float) else v for v in (getattr(op, f) for f in op.__slots__))


def faces(cards: dict[str, Card], size: tuple[float, float] | None = None) -> list[tuple[str, Face]]:
    out = []
    for card in cards.values():
        s = size or (TILE if card.type == "tile" else (63.0, 88.0))
        lname = layout_name(card.game, card.type, card.name)
        out.append((card.name, compose(lname, face_values(card), s)))
    return out


def test_nothing_is_drawn_within_the_safe_zone(cards: dict[str, Card]) -> None:
    shown = faces(cards)
    shown += [(name, compose(name, {}, TILE if "tile" in name else (63.0, 88.0))) for name in LAYOUTS]
    for name, face in shown:
        for op in face.ops:
            left, top, right, bottom = extent(op)
            assert left >= SAFE_ZONE - 0.05 and top >= SAFE_ZONE - 0.05, (name, op)
            assert right <= face.width - SAFE_ZONE + 0.05 and bottom <= face.height - SAFE_ZONE + 0.05, (name, op)


@pytest.mark.parametrize("size", SIZES)
def test_card_backs_are_the_same_turned_180_degrees(size: tuple[float, float]) -> None:
    backs = {layout.back for layout in LAYOUTS.values() if layout.back and "tile" not in layout.back}
    assert backs == {"mea-back", "meikyu-kingdom-back", "meikyu-land-back", "meio-back"}
    for name in backs:
        face = compose(name, {}, size)
        turned = Counter(key(_rotate_op(op, face.width, face.height)) for op in face.ops)
        assert turned == Counter(key(op) for op in face.ops), name


@pytest.mark.parametrize("size", SIZES)
def test_circles_stay_circles_and_grids_stay_square(cards: dict[str, Card], size: tuple[float, float]) -> None:
    for name, face in faces(cards, size):
        layout = LAYOUTS[face.layout]
        ellipses = [el.box for el in layout.elements if isinstance(el, Ellipse) and not el.when]
        drawn = [op for op in face.ops if isinstance(op, EllipseOp)]
        for box, op in zip(ellipses, drawn, strict=False):
            assert op.w / op.h == pytest.approx(box.w / box.h, rel=1e-6), (name, size)
    back = compose("mea-back", {}, size)
    cells = [op for op in back.ops if isinstance(op, RectOp) and op.fill in ("#f3c623", "#2f6db5")]
    assert len(cells) == 9
    xs, ys = sorted({round(op.x, 4) for op in cells}), sorted({round(op.y, 4) for op in cells})
    assert all(op.w == pytest.approx(op.h) for op in cells)
    assert xs[1] - xs[0] == pytest.approx(ys[1] - ys[0])  # the same pitch both ways


def test_pips_keep_their_shape_on_other_sizes(cards: dict[str, Card]) -> None:
    seven = next(c for c in cards.values() if c.game == "meio" and c.rank == 7 and c.suit == "H")
    sizes = {}
    for size in SIZES:
        face = compose("meio-card", face_values(seven), size)
        polys = [op for op in face.ops if isinstance(op, PolyOp) and op.fill == "#c8102e"]
        x0, y0, x1, y1 = extent(max(polys, key=lambda p: extent(p)[2] - extent(p)[0]))
        sizes[size] = (x1 - x0) / (y1 - y0)
    assert max(sizes.values()) == pytest.approx(min(sizes.values()), rel=1e-3)


def test_small_text_is_warned_on_mini_cards(cards: dict[str, Card]) -> None:
    golem = cards["Crème Golem"]
    poker = compose("mea-monster", face_values(golem), (63.0, 88.0))
    mini = compose("mea-monster", face_values(golem), CARD_SIZES["mini"])
    assert not any(w.startswith(SMALL_PREFIX) for w in poker.warnings)
    assert mini.smallest_text is not None and mini.smallest_text < 6
    assert f"{SMALL_PREFIX}Crème Golem: text as small as {mini.smallest_text:.2f} pt" in mini.warnings


def test_the_tile_holds_two_cards() -> None:
    w, h = TILE
    assert w >= 2 * 63 and h >= 88  # "a maximum of 2 monsters on 1 tile"
    spots = [op for op in compose("mea-tile-yellow", {}, TILE).ops if isinstance(op, RectOp) and op.stroke]
    assert len(spots) == 2 and not any(isinstance(op, ImageOp) for op in spots)
