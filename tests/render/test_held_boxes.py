"""What is drawn inside a shape stays inside it at every card size, read back from the printed PDF:
a Meikyu land's QUEST caption in its level badge, a stat box's label, icon and number in their box.

Each card is printed alone; the test reads its form's painted shapes (their boxes) and where each
short text run starts (pypdf's text visitor), both in the form's space (points from the card's
bottom-left trim corner). On the reference 63×88 mm card every label sits in the smallest shape
around it; on a square, landscape, mini, bridge or tall card it must sit in that same shape."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from cardbase.db.models import Card
from cardbase.render.printing import print_cards
from cardbase.render.sheet import SheetSpec
from cardbase.render.units import CARD_SIZES
from tests.render.conftest import _apply, _mul

Rect4 = tuple[float, float, float, float]  # left, bottom, right, top in points
SIZES = [(63.0, 63.0), (88.0, 63.0), CARD_SIZES["mini"], CARD_SIZES["bridge"], (70.0, 120.0)]
PAINT = {b"f", b"f*", b"F", b"B", b"B*", b"b", b"b*", b"S", b"s"}
STROKE = {b"B", b"B*", b"b", b"b*", b"S", b"s"}


def _shapes(reader: PdfReader) -> list[Rect4]:
    """The box of every shape painted in the one card form of page 1 (a stroked one's with half its
    line's width round it), in drawing order."""
    page = reader.pages[0]
    form = next(iter(page["/Resources"]["/XObject"].values())).get_object()
    ctm = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0]
    width = 0.0
    stack: list[tuple[list[float], float]] = []
    points: list[tuple[float, float]] = []
    shapes: list[Rect4] = []
    for operands, op in ContentStream(form, reader).operations:
        values = [float(v) for v in operands] if op in (b"cm", b"m", b"l", b"c", b"re") else []
        if op == b"q":
            stack.append((ctm, width))
        elif op == b"Q":
            ctm, width = stack.pop()
        elif op == b"w":
            width = float(operands[0]) * abs(ctm[0] or ctm[1])
        elif op == b"cm":
            ctm = _mul(values, ctm)
        elif op in (b"m", b"l", b"c"):
            points += [_apply(ctm, values[i], values[i + 1]) for i in range(0, len(values), 2)]
        elif op == b"re":
            x, y, w, h = values
            points += [_apply(ctm, x, y), _apply(ctm, x + w, y + h)]
        elif op in PAINT and points:
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            half = width / 2 if op in STROKE else 0.0
            shapes.append((min(xs) - half, min(ys) - half, max(xs) + half, max(ys) + half))
            points = []
        elif op == b"n":
            points = []
    return shapes


def _labels(reader: PdfReader) -> list[tuple[str, int, float, float]]:
    """Each short text run on page 1 (one word, a number, a "?"), which of the runs of that word it
    is, and a point just inside its first glyph, in the form's space."""
    runs: list[tuple[str, int, float, float]] = []

    def visit(text: str, cm: list[float], tm: list[float], font: object, size: float) -> None:
        word = text.strip()
        if word and " " not in word and len(word) <= 12:
            m = _mul([float(v) for v in tm], [float(v) for v in cm])
            nth = sum(1 for run in runs if run[0] == word)
            runs.append((word, nth, *_apply(m, 0.3 * size, 0.3 * size)))

    reader.pages[0].extract_text(visitor_text=visit)
    return runs


def _holder(shapes: list[Rect4], x: float, y: float, card: Rect4) -> int | None:
    """The index of the smallest shape (short of the card's panels) that holds the point."""
    area = (card[2] - card[0]) * (card[3] - card[1])
    inside = [
        i
        for i, (left, bottom, right, top) in enumerate(shapes)
        if left <= x <= right and bottom <= y <= top and (right - left) * (top - bottom) < area / 5
    ]
    return min(inside, key=lambda i: (shapes[i][2] - shapes[i][0]) * (shapes[i][3] - shapes[i][1]), default=None)


def _printed(card: Card, size: tuple[float, float], images: Path, out: Path) -> tuple[list[Rect4], list]:
    print_cards([(card, 1)], out, SheetSpec(card=size), title="t", images=images, use_cache=False)
    reader = PdfReader(out)
    return _shapes(reader), _labels(reader)


@pytest.mark.parametrize("name", ["Altar of the Nightingale", "Executioner", "Sword"])
def test_labels_stay_in_their_shapes_at_every_card_size(
    cards: dict[str, Card], images: Path, tmp_path: Path, name: str
) -> None:
    card = cards[name]
    shapes, labels = _printed(card, (63.0, 88.0), images, tmp_path / "ref.pdf")
    k = 72 / 25.4
    card_box = (0.0, 0.0, 63.0 * k, 88.0 * k)
    held = [(word, nth, h) for word, nth, x, y in labels if (h := _holder(shapes, x, y, card_box)) is not None]
    assert held, f"{name}: no label inside a shape on the reference card"
    for size in SIZES:
        shapes2, labels2 = _printed(card, size, images, tmp_path / f"{size[0]}x{size[1]}.pdf")
        assert len(shapes2) == len(shapes), (name, size)
        where = {(word, nth): (x, y) for word, nth, x, y in labels2}
        for word, nth, h in held:
            x, y = where[word, nth]
            left, bottom, right, top = shapes2[h]
            assert left <= x <= right and bottom <= y <= top, (
                f"{name} on a {size[0]}×{size[1]} mm card: {word!r} at ({x / k:.1f}, {y / k:.1f}) mm is outside "
                f"its shape ({left / k:.1f}, {bottom / k:.1f})–({right / k:.1f}, {top / k:.1f}) mm"
            )


def test_a_corner_index_keeps_its_suit_under_its_rank_at_every_card_size(
    cards: dict[str, Card], images: Path, tmp_path: Path
) -> None:
    """A Meio index is a rank and, just under it, its suit: on a bridge or mini card the suit used to
    slide towards the middle with the pips, 5 mm below its rank."""
    k = 72 / 25.4
    eight = next(c for c in cards.values() if c.game == "meio" and c.rank == 8 and c.suit == "D")

    def gap(size: tuple[float, float]) -> float:
        shapes, labels = _printed(eight, size, images, tmp_path / f"{size[0]}x{size[1]}.pdf")
        _, _, x, y = next(run for run in labels if run[:2] == ("8", 0))
        under = [s for s in shapes if s[2] < 13 * k and s[3] < y and s[0] <= x + 2 * k]
        return (y - max(s[3] for s in under)) / k

    reference = gap((63.0, 88.0))
    for size in [CARD_SIZES["bridge"], CARD_SIZES["mini"], (63.0, 63.0), (44.0, 68.0)]:  # none larger
        assert 0 <= gap(size) <= reference + 0.3, (size, gap(size), reference)
