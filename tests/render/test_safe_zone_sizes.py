"""The safe zone is a length on paper: on every card size, nothing but the background is drawn
within 3 mm of the cut. Read back from the printed PDF: every painted shape's outline and every text
run's start, in the card form's space."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

from cardbase.db.models import Card
from cardbase.render.layout import SAFE_ZONE
from cardbase.render.printing import print_cards
from cardbase.render.sheet import SheetSpec
from cardbase.render.units import CARD_SIZES
from tests.render.test_held_boxes import _labels, _shapes

K = 72 / 25.4
SIZES = [(63.0, 88.0), CARD_SIZES["mini"], (63.0, 63.0), (88.0, 63.0), CARD_SIZES["bridge"], (70.0, 120.0)]
NAMES = ["Bee", "Altar of the Nightingale", "Sword", "Dungeon Storm", "Chemical Vial", "Selounticia", "Queen of Hearts"]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_nothing_but_the_background_is_drawn_within_3_mm_of_the_cut(
    cards: dict[str, Card], images: Path, tmp_path: Path, size: tuple[float, float]
) -> None:
    w, h = size
    for name in NAMES:
        out = tmp_path / "card.pdf"
        print_cards([(cards[name], 1)], out, SheetSpec(card=size), title="t", images=images, use_cache=False)
        reader = PdfReader(out)
        background, *shapes = _shapes(reader)
        assert background[2] - background[0] >= w * K - 0.01  # the first shape fills the card
        for left, bottom, right, top in shapes:
            box = f"({left / K:.2f}, {bottom / K:.2f})–({right / K:.2f}, {top / K:.2f}) mm"
            where = f"{name} on a {w}×{h} mm card: a shape at {box}"
            assert left >= SAFE_ZONE * K - 0.01 and bottom >= SAFE_ZONE * K - 0.01, where
            assert right <= (w - SAFE_ZONE) * K + 0.01 and top <= (h - SAFE_ZONE) * K + 0.01, where
        for word, _, x, y in _labels(reader):
            where = f"{name} on a {w}×{h} mm card: {word!r} starts at ({x / K:.2f}, {y / K:.2f}) mm"
            assert SAFE_ZONE * K <= x <= (w - SAFE_ZONE) * K and SAFE_ZONE * K <= y <= (h - SAFE_ZONE) * K, where


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_designers_box_in_the_safe_zone_keeps_its_distance_from_the_cut(size: tuple[float, float]) -> None:
    """A layout file may draw into the safe zone (a band that runs off the cut, a frame 1 mm in): on
    every card size it keeps its distance on paper from the cut, as the safe zone does; a band from
    the cut neither leaves a sliver of the background at the cut (a small card) nor overhangs it."""
    from cardbase.render.face import RectOp, compose
    from cardbase.render.layout import Box, Layout, Rect

    w, h = size
    band, frame = Rect(Box(0, 0, 63, 12), fill="#123456"), Rect(Box(1, 1, 61, 86), stroke="#000000")
    face = compose(Layout("t", "t", "#ffffff", (band, frame)), {"name": "x"}, size)
    drawn = [op for op in face.ops if isinstance(op, RectOp)]
    top, inset = drawn[0], drawn[1]
    assert (top.x, top.y, top.w) == pytest.approx((0, 0, w)), f"the band on {w}×{h}: {top}"
    assert (inset.x, inset.y, inset.w, inset.h) == pytest.approx((1, 1, w - 2, h - 2)), f"the frame on {w}×{h}: {inset}"
