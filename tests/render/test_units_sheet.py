"""Units, paper and card sizes, and the imposition of cards on a sheet."""

from __future__ import annotations

import pytest

from cardbase.errors import UsageError
from cardbase.render.sheet import MARK_OFFSET, MIN_MARK, SheetSpec, impose
from cardbase.render.units import CARD_SIZES, PAPER_SIZES, parse_length, parse_size


@pytest.mark.parametrize(
    ("text", "mm"),
    [("3mm", 3.0), ("0.125in", 3.175), ("9pt", 3.175), ("1cm", 10.0), ("2", 2.0), (" 1.5 MM ", 1.5), ("0", 0.0)],
)
def test_lengths_take_units(text: str, mm: float) -> None:
    assert parse_length(text) == pytest.approx(mm)


@pytest.mark.parametrize("text", ["3 furlongs", "-1mm", "mm", "", "1e3mm", "3mm4"])
def test_bad_lengths_are_usage_errors_naming_the_option(text: str) -> None:
    with pytest.raises(UsageError, match="--bleed"):
        parse_length(text, "--bleed")


def test_sizes_by_name_and_by_measure() -> None:
    assert parse_size("poker", CARD_SIZES) == (63.0, 88.0)
    assert parse_size("A4", PAPER_SIZES) == (210.0, 297.0)
    assert parse_size("2.5x3.5in", CARD_SIZES) == pytest.approx((63.5, 88.9))
    assert parse_size("63 × 88 mm", CARD_SIZES) == (63.0, 88.0)
    assert parse_size("8.5x11in", PAPER_SIZES) == pytest.approx((215.9, 279.4))
    with pytest.raises(UsageError, match="poker"):
        parse_size("tarot", CARD_SIZES, "--card-size")
    with pytest.raises(UsageError):
        parse_size("0x88mm", CARD_SIZES)


def test_a4_poker_is_three_by_three_centred() -> None:
    grid = impose(SheetSpec())
    assert (grid.cols, grid.rows) == (3, 3)
    assert grid.slot(0).x == pytest.approx((210 - 3 * 63) / 2)  # 10.5 mm
    assert grid.slot(0).y == pytest.approx((297 - 3 * 88) / 2)  # 16.5 mm
    assert (grid.slot(8).x, grid.slot(8).y) == pytest.approx((10.5 + 126, 16.5 + 176))


def test_letter_and_bleed_and_gap_change_the_grid() -> None:
    letter = impose(SheetSpec(paper=PAPER_SIZES["letter"]))
    assert (letter.cols, letter.rows) == (3, 3)
    assert letter.slot(0).y == pytest.approx((279.4 - 264) / 2)
    bled = impose(SheetSpec(bleed=3))
    # each card takes 69 × 94 mm with its bleed: 2 columns fit inside 5 mm margins, 3 rows
    assert (bled.cols, bled.rows) == (2, 3)
    assert bled.slot(1).x - bled.slot(0).x == pytest.approx(63 + 6)
    assert bled.slot(0).x == pytest.approx((210 - 138) / 2 + 3)
    gapped = impose(SheetSpec(gap=4, paper=PAPER_SIZES["a3"]))
    assert gapped.slot(1).x - gapped.slot(0).x == pytest.approx(67)


def test_a_card_too_big_for_the_paper_is_a_clear_error() -> None:
    with pytest.raises(UsageError, match=r"300×400 mm card does not fit a4 paper \(210×297 mm\)"):
        impose(SheetSpec(card=(300, 400)))


def test_long_edge_backs_mirror_the_columns() -> None:
    grid = impose(SheetSpec(backs=True))
    for i in range(grid.per_page):
        front, back = grid.slot(i), grid.back_slot(i)
        assert back.col == grid.cols - 1 - front.col and back.row == front.row
        assert back.x == pytest.approx(210 - front.x - front.w) and back.y == pytest.approx(front.y)
        assert not back.rotated


def test_short_edge_backs_mirror_the_rows_and_turn() -> None:
    grid = impose(SheetSpec(backs=True, flip="short-edge", card=(63, 88), paper=PAPER_SIZES["letter"]))
    for i in range(grid.per_page):
        front, back = grid.slot(i), grid.back_slot(i)
        assert back.col == front.col and back.row == grid.rows - 1 - front.row
        assert back.y == pytest.approx(279.4 - front.y - front.h)
        assert back.rotated


@pytest.mark.parametrize("spec", [SheetSpec(), SheetSpec(bleed=3), SheetSpec(gap=2, bleed=1.5, card=(41, 63))])
def test_crop_marks_sit_in_the_margins_on_every_cut(spec: SheetSpec) -> None:
    grid = impose(spec)
    marks = grid.crop_marks()
    left, top, right, bottom = grid.bleed_extent()
    for m in marks:
        # outside the cards and their bleed, inside the paper
        assert (
            m.x2 <= left - MARK_OFFSET + 1e-6
            or m.x1 >= right + MARK_OFFSET - 1e-6
            or (m.y2 <= top - MARK_OFFSET + 1e-6 or m.y1 >= bottom + MARK_OFFSET - 1e-6)
        )
        assert min(m.x1, m.x2) >= 0 and max(m.x1, m.x2) <= spec.paper[0]
        assert min(m.y1, m.y2) >= 0 and max(m.y1, m.y2) <= spec.paper[1]
        assert abs(m.x2 - m.x1) + abs(m.y2 - m.y1) >= MIN_MARK  # long enough to survive the first cut
    xs, ys = grid.cuts()
    for x in xs:  # each vertical cut is marked above and below, reaching the paper edge
        ends = sorted(min(m.y1, m.y2) for m in marks if m.x1 == m.x2 == x)
        assert len(ends) == 2 and ends[0] == 0
    for y in ys:
        assert len([m for m in marks if m.y1 == m.y2 == y]) == 2
    assert len(xs) == (grid.cols * 2 if spec.gap or spec.bleed else grid.cols + 1)
