"""Print-ready PDFs read back with pypdf: true-size placement, page boxes, marks, duplex backs, art once."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

from cardbase.db.models import Card
from cardbase.errors import UnreadableInput
from cardbase.render.printing import print_cards, print_registration
from cardbase.render.sheet import SheetSpec
from cardbase.render.units import PAPER_SIZES
from tests.render.conftest import box_mm, count_images, read_page, solid_png

TOL = 0.1  # mm


def demo(cards: dict[str, Card], n: int) -> list[tuple[Card, int]]:
    chosen = sorted((c for c in cards.values() if c.source == "demo"), key=lambda c: c.name)[:n]
    return [(c, 1) for c in chosen]


def test_cards_are_placed_at_true_size_where_the_grid_says(cards, images: Path, tmp_path: Path) -> None:
    out = tmp_path / "ten.pdf"
    report = print_cards(demo(cards, 10), out, SheetSpec(), title="Ten demo cards", images=images)
    reader = PdfReader(out)
    assert len(reader.pages) == report.pages == 2
    first, _ = read_page(reader, 0)
    second, _ = read_page(reader, 1)
    assert len(first) == 9 and len(second) == 1
    expected = [(10.5 + 63 * c, 16.5 + 88 * r) for r in range(3) for c in range(3)]
    for placed, (x, y) in zip(first, expected, strict=True):
        assert placed.x == pytest.approx(x, abs=TOL) and placed.y == pytest.approx(y, abs=TOL)
        assert placed.w == pytest.approx(63, abs=TOL) and placed.h == pytest.approx(88, abs=TOL)
    assert (second[0].x, second[0].y) == pytest.approx((10.5, 16.5), abs=TOL)
    page = reader.pages[0]
    assert box_mm(page.mediabox) == (0, 0, 210, 297)
    assert box_mm(page.trimbox) == pytest.approx((10.5, 16.5, 199.5, 280.5), abs=TOL)
    assert box_mm(page.bleedbox) == box_mm(page.trimbox)  # no bleed asked for
    assert reader.metadata.title == "Ten demo cards" and reader.metadata.author == "cardbase"


def test_bleed_is_drawn_around_each_card_and_boxes_say_so(cards, images: Path, tmp_path: Path) -> None:
    out = tmp_path / "bleed.pdf"
    print_cards(
        demo(cards, 6), out, SheetSpec(paper=PAPER_SIZES["letter"], bleed=3.175, gap=2), title="t", images=images
    )
    reader = PdfReader(out)
    placed, _ = read_page(reader, 0)
    b = 3.175
    assert len(placed) == 4  # 2 × 2: a third column or row of 69.35 mm cells does not fit inside the margins
    first = placed[0]
    assert (first.w, first.h) == pytest.approx((63 + 2 * b, 88 + 2 * b), abs=TOL)  # the form box holds the bleed
    assert placed[1].x - first.x == pytest.approx(63 + 2 * b + 2, abs=TOL)  # card, both bleeds, the gap
    page = reader.pages[0]
    trim, bleed = box_mm(page.trimbox), box_mm(page.bleedbox)
    assert trim[0] - bleed[0] == pytest.approx(b, abs=TOL) and bleed[3] - trim[3] == pytest.approx(b, abs=TOL)
    assert trim[0] == pytest.approx(first.x + b, abs=TOL)


def test_crop_marks_are_dark_long_and_outside_the_cards(cards, images: Path, tmp_path: Path) -> None:
    out = tmp_path / "marks.pdf"
    print_cards(demo(cards, 9), out, SheetSpec(bleed=2), title="t", images=images)
    placed, lines = read_page(PdfReader(out), 0)
    marks = [ln for ln in lines if ln.colour == "#000000"]
    assert len(marks) >= 4 * 4
    for m in marks:
        assert m.width >= 0.2  # mm: dark and visible
        assert abs(m.x2 - m.x1) + abs(m.y2 - m.y1) >= 3  # long enough to survive the first cut
        for card in placed:  # never on a card or its bleed
            inside_x = card.x < max(m.x1, m.x2) and min(m.x1, m.x2) < card.x + card.w
            inside_y = card.y < max(m.y1, m.y2) and min(m.y1, m.y2) < card.y + card.h
            assert not (inside_x and inside_y), (m, card)
    sides = {
        (
            "top"
            if max(m.y1, m.y2) < placed[0].y
            else "bottom"
            if min(m.y1, m.y2) > placed[-1].y + 90
            else "left"
            if max(m.x1, m.x2) < placed[0].x
            else "right"
        )
        for m in marks
    }
    assert sides == {"top", "bottom", "left", "right"}
    cut_xs = {round(c.x + 2 + d, 2) for c in placed for d in (0, 63)}  # trim edges (bleed 2 mm)
    assert {round(m.x1, 2) for m in marks if m.x1 == m.x2} == cut_xs


def test_no_crop_marks_when_asked_and_cut_lines_when_asked(cards, images: Path, tmp_path: Path) -> None:
    out = tmp_path / "plain.pdf"
    print_cards(demo(cards, 3), out, SheetSpec(crop_marks=False, cut_lines=True), title="t", images=images)
    _, lines = read_page(PdfReader(out), 0)
    assert lines and all(ln.colour == "#9a9a9a" for ln in lines)
    assert {round(ln.x1, 2) for ln in lines if ln.x1 == ln.x2} == {10.5, 73.5, 136.5, 199.5}


@pytest.mark.parametrize("flip", ["long-edge", "short-edge"])
def test_backs_follow_each_front_page_mirrored_for_duplex(cards, images: Path, tmp_path: Path, flip: str) -> None:
    entries = [
        (cards["Den of the Geister"], 1),
        (cards["Bee"], 2),
        (cards["Refugee"], 1),
        (cards["Cave of the Dragon"], 1),
    ]
    out = tmp_path / "duplex.pdf"
    report = print_cards(entries, out, SheetSpec(backs=True, flip=flip, bleed=1), title="t", images=images)
    reader = PdfReader(out)
    assert len(reader.pages) == 2
    fronts, _ = read_page(reader, 0)
    backs, back_lines = read_page(reader, 1)
    assert len(fronts) == len(backs) == 5
    orange, blue = "#e07a1f", "#1f4b99"
    want = [orange, blue, blue, blue, orange]  # land, Bee, Bee, Refugee, land
    for front, colour in zip(fronts, want, strict=True):
        if flip == "long-edge":
            x, y = 210 - front.x - front.w, front.y
        else:
            x, y = front.x, 297 - front.y - front.h
        match = [b for b in backs if abs(b.x - x) < TOL and abs(b.y - y) < TOL]
        assert len(match) == 1, (front, backs)
        assert match[0].background == colour
        assert match[0].rotated == (flip == "short-edge")
    assert [p.side for p in report.placements] == ["front"] * 5 + ["back"] * 5
    assert any(ln.colour == "#000000" for ln in back_lines)  # the backs have crop marks too


def test_meio_backs_and_tiles_backs(cards, images: Path, tmp_path: Path) -> None:
    out = tmp_path / "tiles.pdf"
    print_cards(
        [(cards["Yellow Tile"], 2), (cards["Blue Tile"], 1)], out, SheetSpec(backs=True), title="t", images=images
    )
    reader = PdfReader(out)
    fronts, _ = read_page(reader, 0)
    backs, _ = read_page(reader, 1)
    assert [f.background for f in fronts] == ["#f3c623", "#f3c623", "#2f6db5"]
    # mirrored: the blue tile (column 2) has its yellow back in column 0
    assert sorted((round(b.x, 1), b.background) for b in backs) == [
        (10.5, "#f3c623"),
        (73.5, "#2f6db5"),
        (136.5, "#2f6db5"),
    ]


def test_each_distinct_face_and_art_image_is_stored_once(cards, images: Path, tmp_path: Path) -> None:
    solid_png(images / "mea" / "creme-golem.png", "#ff0000", (800, 600))
    solid_png(images / "mea" / "puddle-knight.png", "#0000ff", (800, 600))
    entries = [(cards["Crème Golem"], 12), (cards["Puddle Knight"], 3), (cards["Crumb Goblin"], 1)]
    out = tmp_path / "art.pdf"
    report = print_cards(entries, out, SheetSpec(backs=True), title="t", images=images)
    reader = PdfReader(out)
    assert count_images(reader) == 2 == report.art_images
    assert report.unique_faces == 3 and report.missing_art == ["Crumb Goblin"]
    forms = {p.name for i in range(len(reader.pages)) for p in read_page(reader, i)[0]}
    assert len(forms) == 3 + 1  # three faces and one shared Méa back
    assert len(report.warnings) == 1 and "crumb-goblin.png" in report.warnings[0]


def test_text_stays_vector_text(cards, images: Path, tmp_path: Path) -> None:
    out = tmp_path / "text.pdf"
    print_cards([(cards["Naïve Squire"], 1), (cards["Queen of Hearts"], 1)], out, SheetSpec(), title="t", images=images)
    reader = PdfReader(out)
    text = reader.pages[0].extract_text()
    assert "Naïve Squire" in text and "When summoned: Draw 1 card." in text
    assert count_images(reader) == 0


def test_the_face_cache_makes_a_reprint_reuse_faces(cards, images: Path, tmp_path: Path) -> None:
    entries = demo(cards, 12)
    cold = print_cards(entries, tmp_path / "a.pdf", SheetSpec(), title="t", images=images)
    warm = print_cards(entries, tmp_path / "b.pdf", SheetSpec(), title="t", images=images)
    assert cold.cache_misses == 12 and warm.cache_hits == 12 and warm.cache_misses == 0
    a, b = read_page(PdfReader(tmp_path / "a.pdf"), 0)[0], read_page(PdfReader(tmp_path / "b.pdf"), 0)[0]
    assert a == b
    entries[0][0].cost = 7
    again = print_cards(entries, tmp_path / "c.pdf", SheetSpec(), title="t", images=images)
    assert again.cache_misses == 1 and again.cache_hits == 11


def test_a_failed_print_leaves_the_earlier_file_alone(
    cards, images: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardbase.render import pdf

    def fail(*_args: object, **_kwargs: object) -> None:
        raise UnreadableInput("the page could not be drawn")

    out = tmp_path / "deck.pdf"
    out.write_bytes(b"%PDF-1.4 the earlier print")
    monkeypatch.setattr(pdf, "define_form", fail)
    with pytest.raises(UnreadableInput, match="could not be drawn"):
        print_cards([(cards["Crème Golem"], 1)], out, SheetSpec(), title="t", images=images)
    assert out.read_bytes() == b"%PDF-1.4 the earlier print"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def bad_art(images: Path, tmp_path: Path) -> dict[str, str]:
    """Art files of three demo cards that cannot be used, by card name: SVG bytes named .png, a JPEG cut
    short (its header reads, its pixels do not), and a PNG over the pixel bound the caller sets."""
    from PIL import Image

    folder = images / "mea"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "creme-golem.png").write_bytes(b'<svg xmlns="http://www.w3.org/2000/svg"><rect/></svg>')
    whole = tmp_path / "whole.jpg"
    Image.effect_noise((300, 300), 40).convert("RGB").save(whole, quality=90)
    (folder / "puddle-knight.jpg").write_bytes(whole.read_bytes()[:1500])
    solid_png(folder / "crumb-goblin.png", size=(400, 300))
    return {
        "Crème Golem": "card_images/mea/creme-golem.png",
        "Puddle Knight": "card_images/mea/puddle-knight.jpg",
        "Crumb Goblin": "card_images/mea/crumb-goblin.png",
    }


def test_art_that_cannot_be_used_prints_the_placeholder_with_one_warning_each(
    cards, images: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from PIL import Image

    bad = bad_art(images, tmp_path)
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 50_000)  # the goblin's 400×300 is over it
    solid_png(images / "mea" / "dizzy-bat.png", size=(200, 240))  # one good art file among them, under the bound
    entries = [(cards[name], 2) for name in [*bad, "Dizzy Bat"]]
    told: list[str] = []
    report = print_cards(entries, tmp_path / "deck.pdf", SheetSpec(), title="t", images=images, warn=told.append)
    reader = PdfReader(tmp_path / "deck.pdf")
    assert len(reader.pages) == report.pages == 1
    assert count_images(reader) == 1  # the bat's art; the three others are drawn placeholders
    refused = [w for w in report.warnings if "cannot be used" in w]
    assert told == refused and len(refused) == 3  # once per file, though each card is printed twice
    for name, shown in bad.items():
        [line] = [w for w in refused if w.startswith(f"{name}: art {shown} ")]
        assert "drew a placeholder" in line
    assert not any(str(tmp_path) in w for w in report.warnings)  # never the absolute path


def test_registration_test_is_one_sheet_front_and_back(tmp_path: Path) -> None:
    out = tmp_path / "reg.pdf"
    report = print_registration(out, SheetSpec(paper=PAPER_SIZES["letter"], backs=True))
    reader = PdfReader(out)
    assert len(reader.pages) == report.pages == 2
    front = reader.pages[0].extract_text()
    assert "registration test" in front and "100 mm" in front
    _, lines = read_page(reader, 0)
    _, back_lines = read_page(reader, 1)
    assert any(ln.colour == "#d0021b" for ln in back_lines)  # the red crosses
    ten_cm = [ln for ln in lines if ln.y1 == ln.y2 and abs(abs(ln.x2 - ln.x1) - 100) < 0.01]
    assert ten_cm  # the scale bar is exactly 100 mm


def test_a_registration_sheet_can_lead_a_print(cards, images: Path, tmp_path: Path) -> None:
    out = tmp_path / "lead.pdf"
    report = print_cards(demo(cards, 2), out, SheetSpec(backs=True), title="t", images=images, registration=True)
    assert report.pages == 4 and {p.page for p in report.placements} == {3, 4}


def test_a_print_without_art_stays_small(cards, images: Path, tmp_path: Path) -> None:
    entries = [(c, 1) for c in cards.values() if c.game == "mea" and c.type != "tile"]
    report = print_cards(entries, tmp_path / "all.pdf", SheetSpec(backs=True, bleed=3), title="t", images=images)
    assert report.cards == 74
    assert report.size_bytes < 25_000 * report.cards  # vector faces: a few KB a card
