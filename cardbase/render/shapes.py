"""Named vector shapes (suits, sword, seal, shield, crown, …) as polygons in a unit box.

A shape is a tuple of polygons; each polygon is a tuple of (x, y) points with x and y in
0…1 across its box, y pointing down. ``ASPECT`` gives each shape's natural width / height,
used when a layout asks to keep it. Both backends draw the same polygons, so a heart is
the same heart in the PNG and in the PDF. Open shapes (``OPEN``) are stroked polylines.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache

from cardbase.errors import quoted

Point = tuple[float, float]
Polygon = tuple[Point, ...]
Shape = tuple[Polygon, ...]


def _normalise(points: list[Point]) -> list[Point]:
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    return [((x - x0) / (x1 - x0), (y - y0) / (y1 - y0)) for x, y in points]


def _circle(cx: float, cy: float, r: float, n: int = 40) -> Polygon:
    return tuple((cx + r * math.cos(2 * math.pi * i / n), cy + r * math.sin(2 * math.pi * i / n)) for i in range(n))


def _heart_curve(n: int = 72) -> list[Point]:
    # The classic heart curve, y up; flipped to y down and scaled to the unit box.
    pts = []
    for i in range(n):
        t = 2 * math.pi * i / n
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        pts.append((x, -y))
    return _normalise(pts)


def heart() -> Shape:
    return (tuple(_heart_curve()),)


def diamond() -> Shape:
    return (((0.5, 0.0), (0.92, 0.5), (0.5, 1.0), (0.08, 0.5)),)


def spade() -> Shape:
    # An upside-down heart over a flared stem.
    body = [(x, 0.8 * (1 - y)) for x, y in _heart_curve()]
    stem = ((0.5, 0.55), (0.6, 0.86), (0.74, 1.0), (0.26, 1.0), (0.4, 0.86))
    return (tuple(body), stem)


def club() -> Shape:
    r = 0.235
    return (
        _circle(0.5, r, r),
        _circle(r, 0.56, r),
        _circle(1 - r, 0.56, r),
        ((0.44, 0.4), (0.56, 0.4), (0.6, 0.86), (0.74, 1.0), (0.26, 1.0), (0.4, 0.86)),
    )


def sword() -> Shape:
    """A vertical sword, point up: Meikyu's Bravery."""
    blade = ((0.5, 0.0), (0.62, 0.08), (0.62, 0.68), (0.38, 0.68), (0.38, 0.08))
    guard = ((0.0, 0.68), (1.0, 0.68), (1.0, 0.75), (0.0, 0.75))
    grip = ((0.42, 0.75), (0.58, 0.75), (0.58, 0.92), (0.42, 0.92))
    pommel = _circle(0.5, 0.94, 0.08, 20)
    return (blade, guard, grip, pommel)


def seal() -> Shape:
    """A wax seal with a scalloped rim: Meikyu's Wits."""
    n = 96
    pts = []
    for i in range(n):
        a = 2 * math.pi * i / n
        r = 0.5 * (0.92 + 0.08 * math.cos(14 * a))
        pts.append((0.5 + r * math.cos(a), 0.5 + r * math.sin(a)))
    return (tuple(pts),)


def star(points: int = 5, inner: float = 0.42) -> Shape:
    pts = []
    for i in range(points * 2):
        r = 0.5 if i % 2 == 0 else 0.5 * inner
        a = -math.pi / 2 + math.pi * i / points
        pts.append((0.5 + r * math.cos(a), 0.5 + r * math.sin(a)))
    return (tuple(pts),)


def shield() -> Shape:
    pts: list[Point] = [(0.0, 0.0), (1.0, 0.0), (1.0, 0.45)]
    for i in range(1, 16):  # right flank curving to the point
        t = i / 16
        pts.append((1.0 - 0.5 * t**1.4, 0.45 + 0.55 * math.sin(t * math.pi / 2)))
    pts.append((0.5, 1.0))
    for i in range(15, 0, -1):
        t = i / 16
        pts.append((0.5 * t**1.4, 0.45 + 0.55 * math.sin(t * math.pi / 2)))
    pts.append((0.0, 0.45))
    return (tuple(pts),)


def crown() -> Shape:
    band = ((0.05, 0.72), (0.95, 0.72), (0.95, 1.0), (0.05, 1.0))
    points = ((0.05, 0.72), (0.0, 0.15), (0.27, 0.45), (0.5, 0.0), (0.73, 0.45), (1.0, 0.15), (0.95, 0.72))
    return (band, points, _circle(0.5, 0.06, 0.06, 16), _circle(0.02, 0.17, 0.05, 16), _circle(0.98, 0.17, 0.05, 16))


def maze() -> Shape:
    """Concentric square walls with doorways: the Meikyu (labyrinth) back. Stroked, not filled.

    Each ring has two doorways on opposite sides, so the maze is the same turned 180°."""
    walls: list[Polygon] = []
    door = 0.07
    for ring in range(3):
        a = 0.04 + ring * 0.15
        b = 1 - a
        corners = [(a, a), (b, a), (b, b), (a, b)]
        side = ring % 2  # the doorways turn with the ring
        for half in (side, side + 2):
            start, nxt = corners[half % 4], corners[(half + 1) % 4]
            mid = ((start[0] + nxt[0]) / 2, (start[1] + nxt[1]) / 2)
            ux, uy = (nxt[0] - start[0]) / (b - a), (nxt[1] - start[1]) / (b - a)
            # from this side's doorway round two corners to the opposite side's doorway
            poly = [(mid[0] + ux * door, mid[1] + uy * door), nxt, corners[(half + 2) % 4]]
            far_start, far_next = corners[(half + 2) % 4], corners[(half + 3) % 4]
            far_mid = ((far_start[0] + far_next[0]) / 2, (far_start[1] + far_next[1]) / 2)
            fx, fy = (far_next[0] - far_start[0]) / (b - a), (far_next[1] - far_start[1]) / (b - a)
            poly.append((far_mid[0] - fx * door, far_mid[1] - fy * door))
            walls.append(tuple(poly))
    walls.append(((0.43, 0.43), (0.57, 0.43), (0.57, 0.57), (0.43, 0.57), (0.43, 0.43)))
    return tuple(walls)


def lattice(cols: int = 7, rows: int = 11) -> Shape:
    """A field of small diamonds: the Meio back."""
    out = []
    for r in range(rows):
        for c in range(cols):
            cx, cy = (c + 0.5) / cols, (r + 0.5) / rows
            hw, hh = 0.42 / cols, 0.42 / rows
            out.append(((cx, cy - hh), (cx + hw, cy), (cx, cy + hh), (cx - hw, cy)))
    return tuple(out)


def mountains() -> Shape:
    """Hills under a sky, for placeholder art."""
    return (((0.0, 1.0), (0.0, 0.72), (0.22, 0.45), (0.4, 0.66), (0.62, 0.3), (1.0, 0.78), (1.0, 1.0)),)


_SHAPES: dict[str, Callable[[], Shape]] = {
    "heart": heart,
    "diamond": diamond,
    "spade": spade,
    "club": club,
    "sword": sword,
    "seal": seal,
    "star": star,
    "shield": shield,
    "crown": crown,
    "maze": maze,
    "lattice": lattice,
    "mountains": mountains,
}
# Natural width / height of each shape, for boxes that keep it.
ASPECT: dict[str, float] = {
    "heart": 1.1,
    "diamond": 0.8,
    "spade": 0.9,
    "club": 1.0,
    "sword": 0.32,
    "seal": 1.0,
    "star": 1.0,
    "shield": 0.85,
    "crown": 1.35,
    "maze": 1.0,
}
OPEN: frozenset[str] = frozenset({"maze"})
SUIT_SHAPES: dict[str, str] = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}


@cache
def shape(name: str) -> Shape:
    """The polygons of shape ``name``."""
    try:
        return _SHAPES[name]()
    except KeyError:
        raise ValueError(f"unknown shape {quoted(name)}; known: {', '.join(_SHAPES)}") from None


def shape_names() -> tuple[str, ...]:
    return tuple(_SHAPES)
