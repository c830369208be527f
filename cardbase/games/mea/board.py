"""The Méa board: tile positions, their names, the starting layouts and adjacency.

A position is an ``int`` packing a column ``x`` and a row ``y`` (both from
``-BOUND`` to ``BOUND - 1``) so that neighbours are a fixed offset away. The
starting 3×3 grid is columns a–c, rows 1–3 (``a1`` bottom left, ``b2`` the
centre). The board grows and shrinks: tiles added beyond it get names like
``d2`` or ``a0``; columns left of ``a`` are ``-a``, ``-b`` … and rows below 0 are
negative (``b-1``).
"""

from __future__ import annotations

import re
from functools import cache

from cardbase.errors import quoted

BOUND = 64
_W = 2 * BOUND

SEATS = ("yellow", "blue")
"""Seat 0 goes first and is yellow; seat 1 goes second and is blue."""

LAYOUTS: dict[str, str] = {
    # Rows top (row 3) to bottom (row 1); Y: the first player's (yellow), B: the second's (blue).
    "checkerboard": "BYB/YBY/BYB",
    "sides": "BBB/YBB/YYY",
}
"""Named starting layouts. The rulebook's picture is lost: it says only "a 3 by 3 grid of
tiles 4 coloured yellow and five blue". The default, ``checkerboard``, has blue on the
corners and the centre."""

ORTHOGONAL = "orthogonal"
DIAGONAL = "diagonal"


def pos(x: int, y: int) -> int:
    """The position of column ``x`` (a = 0), row ``y`` (row 1 = 0)."""
    if not (-BOUND <= x < BOUND and -BOUND <= y < BOUND):
        raise ValueError(f"({x}, {y}) is off the board's coordinates")
    return (x + BOUND) * _W + (y + BOUND)


def xy(p: int) -> tuple[int, int]:
    """Column and row of position ``p``."""
    x, y = divmod(p, _W)
    return x - BOUND, y - BOUND


def in_bounds(p: int) -> bool:
    x, y = divmod(p, _W)
    return 0 <= x < _W and 0 <= y < _W


def _letters(n: int) -> str:
    out = ""
    n += 1
    while n:
        n, r = divmod(n - 1, 26)
        out = chr(97 + r) + out
    return out


def _number(letters: str) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + (ord(ch) - 96)
    return n - 1


@cache
def name(p: int) -> str:
    """``b2`` for the centre of the starting grid; see the module docstring."""
    x, y = xy(p)
    col = _letters(x) if x >= 0 else "-" + _letters(-x - 1)
    return f"{col}{y + 1}"


def column_heading(label: str) -> str:
    """What the board's heading of column ``label`` says in words: ``column -a: left of column a``
    for a column left of the starting grid, ``column b`` otherwise (the rulebook names no tiles)."""
    x = xy(parse(f"{label}1"))[0]
    if x < 0:
        return f"column {label}: left of column {name(pos(x + 1, 0))[:-1]}"
    return f"column {label}"


def row_heading(label: str) -> str:
    """``row 0: below row 1`` for a row below the starting grid, ``row 2`` otherwise."""
    y = int(label) - 1
    if y < 0:
        return f"row {label}: below row {y + 2}"
    return f"row {label}"


_NAME = re.compile(r"(-?)([a-z]{1,2})(-?\d{1,3})")  # the board is 128 × 128: two letters, three digits


def parse(text: str) -> int:
    """The position named ``text`` (``b2``, ``d0``, ``-a3``); raises ``ValueError``."""
    m = _NAME.fullmatch(text.strip().lower())
    if not m:
        raise ValueError(f"not a tile: {quoted(text)} (tiles are named like b2: column letter, row number)")
    sign, letters, row = m.groups()
    n = _number(letters)
    x = -n - 1 if sign else n
    return pos(x, int(row) - 1)


def extent(tiles: dict[int, int]) -> tuple[int, int]:
    """The columns and rows the positions of ``tiles`` span."""
    xs = [xy(p)[0] for p in tiles]
    ys = [xy(p)[1] for p in tiles]
    return max(xs) - min(xs) + 1, max(ys) - min(ys) + 1


def square(tiles: dict[int, int], size: int) -> tuple[int, ...]:
    """The positions of the ``size`` × ``size`` square centred on ``tiles`` (a layout; the
    extra column or row, when the margins are uneven, goes left and below), moved inside the
    board's coordinates where it would cross their edge (any size up to ``2 * BOUND`` has a
    place), in board order."""
    xs = [xy(p)[0] for p in tiles]
    ys = [xy(p)[1] for p in tiles]
    x0 = min(max(min(xs) + (max(xs) - min(xs) + 1 - size) // 2, -BOUND), BOUND - size)
    y0 = min(max(min(ys) + (max(ys) - min(ys) + 1 - size) // 2, -BOUND), BOUND - size)
    return tuple(sorted(pos(x, y) for x in range(x0, x0 + size) for y in range(y0, y0 + size)))


def directions(adjacency: str) -> tuple[int, ...]:
    """Offsets from a position to its neighbours: 4 (orthogonal) or 8 (with diagonals)."""
    orth = (_W, -_W, 1, -1)
    if adjacency == ORTHOGONAL:
        return orth
    if adjacency == DIAGONAL:
        return (*orth, _W + 1, _W - 1, -_W + 1, -_W - 1)
    raise ValueError(f"adjacency is {ORTHOGONAL!r} or {DIAGONAL!r}, not {quoted(adjacency)}")


def layout_grid(layout: str) -> str:
    """The grid string of ``layout`` (a name from :data:`LAYOUTS`, or a grid itself)."""
    return LAYOUTS.get(layout, layout)


def parse_layout(layout: str) -> dict[int, int]:
    """Starting tiles: position → owner seat. ``layout`` is a name from :data:`LAYOUTS`
    or a grid of rows, top first, separated by ``/``: ``Y`` (seat 0), ``B`` (seat 1),
    ``.`` (no tile); the bottom row is row 1. Raises ``ValueError``."""
    grid = layout_grid(layout)
    rows = [r.strip() for r in grid.upper().split("/")]
    if not rows or not all(rows) or not set("".join(rows)) <= set("YB."):
        known = ", ".join(LAYOUTS)
        raise ValueError(f"layout {quoted(layout)}: a name ({known}) or rows of Y, B and . separated by /")
    tiles: dict[int, int] = {}
    for i, row in enumerate(rows):
        y = len(rows) - 1 - i
        for x, ch in enumerate(row):
            if ch != ".":
                tiles[pos(x, y)] = 0 if ch == "Y" else 1
    owners = set(tiles.values())
    if owners != {0, 1}:
        raise ValueError(f"layout {quoted(layout)}: each player needs at least one tile")
    return tiles
