"""Sheets read back with pypdf: which back is behind which front (portrait and landscape, long and
short edge), fonts embedded, no file paths on cards, crop marks in the printable area, the bleed's
cost, calibration, one-card pages and split backs."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from pypdf import PdfReader

from cardbase.db.models import Card
from cardbase.render.options import SheetOptions
from cardbase.render.printing import print_cards, print_registration
from cardbase.render.sheet import SheetSpec, bleed_cost, impose
from cardbase.render.units import CARD_SIZES, PAPER_SIZES, TILE_SIZE, parse_size
from tests.render.conftest import box_mm, read_page

TOL = 0.05  # mm
LAND_BACK, KINGDOM_BACK = "#e07a1f", "#1f4b99"


def pattern(cards: dict[str, Card], n: int) -> list[tuple[Card, int]]:
    """``n`` Meikyu cards, lands at positions 0, 1 and 5 and kingdom cards elsewhere: no mirror of
    the sheet maps this pattern onto itself, so a back behind the wrong front shows."""
    lands = sorted((c for c in cards.values() if c.type == "land"), key=lambda c: c.name)
    kingdom = sorted((c for c in cards.values() if c.type == "item"), key=lambda c: c.name)
    out = []
    for i in range(n):
        pool = lands if i in (0, 1, 5) else kingdom
        out.append((pool[i % len(pool)], 1))
    return out


@pytest.mark.parametrize(
    ("paper", "flip", "about"),
    [
        ((210.0, 297.0), "long-edge", "vertical"),
        ((210.0, 297.0), "short-edge", "horizontal"),
        ((297.0, 210.0), "long-edge", "horizontal"),
        ((297.0, 210.0), "short-edge", "vertical"),
    ],
)
def test_each_back_is_behind_its_own_front(cards, images: Path, tmp_path: Path, paper, flip: str, about: str) -> None:
    spec = SheetSpec(paper=paper, backs=True, flip=flip, paper_name="custom")  # type: ignore[arg-type]
    per_page = impose(spec).per_page
    entries = pattern(cards, per_page)
    out = tmp_path / "duplex.pdf"
    print_cards(entries, out, spec, title="t", images=images)
    reader = PdfReader(out)
    fronts, _ = read_page(reader, 0)
    backs, _ = read_page(reader, 1)
    assert len(fronts) == len(backs) == per_page
    pw, ph = paper
    for (card, _), front in zip(entries, fronts, strict=True):
        # Where this front's paper is on the back page, turned over about the sheet's edge.
        if about == "vertical":
            x, y = pw - front.x - front.w, front.y
        else:
            x, y = front.x, ph - front.y - front.h
        behind = [b for b in backs if abs(b.x - x) < TOL and abs(b.y - y) < TOL]
        assert len(behind) == 1, (card.name, x, y)
        assert behind[0].background == (LAND_BACK if card.type == "land" else KINGDOM_BACK), card.name
        assert behind[0].rotated == (about == "horizontal")


def test_every_font_in_every_pdf_is_embedded(cards, images: Path, tmp_path: Path) -> None:
    outs = []
    out = tmp_path / "cards.pdf"
    print_cards(pattern(cards, 9), out, SheetSpec(backs=True), title="t", images=images, registration=True)
    outs.append(out)
    reg = tmp_path / "reg.pdf"
    print_registration(reg, SheetSpec(backs=True))
    outs.append(reg)
    one = tmp_path / "one.pdf"
    print_cards(pattern(cards, 2), one, SheetSpec(backs=True, bleed=3), title="t", images=images, one_per_page=True)
    outs.append(one)
    for path in outs:
        raw = path.read_bytes()
        assert b"Helvetica" not in raw, path.name
        fonts = 0
        for page in PdfReader(path).pages:
            stack = [page["/Resources"]]
            while stack:
                resources = stack.pop()
                for font in resources.get("/Font", {}).values():
                    font = font.get_object()
                    descendants = font.get("/DescendantFonts")
                    target = descendants[0].get_object() if descendants else font
                    descriptor = target.get("/FontDescriptor")
                    assert descriptor is not None, (path.name, font.get("/BaseFont"))
                    descriptor = descriptor.get_object()
                    assert any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")), font["/BaseFont"]
                    fonts += 1
                for xobject in resources.get("/XObject", {}).values():
                    xobject = xobject.get_object()
                    if "/Resources" in xobject:
                        stack.append(xobject["/Resources"])
        assert fonts > 0, path.name


def test_no_file_paths_on_cards_and_placeholders_say_the_name(cards, images: Path, tmp_path: Path) -> None:
    chosen = [c for c in cards.values() if c.game in ("mea", "meikyu") and c.type != "tile"]
    out = tmp_path / "all.pdf"
    report = print_cards([(c, 1) for c in chosen], out, SheetSpec(), title="t", images=images)
    assert report.missing_art  # every card drew a placeholder
    text = "\n".join(page.extract_text() for page in PdfReader(out).pages)
    for fragment in ("card_images", ".png", "art:", str(images)):
        assert fragment not in text
    for label in ("MONSTER", "ASSIST", "CHARACTER", "GOTCHA!"):  # the type is printed once, in the type bar
        assert label not in text, label
    for card in chosen:  # the name is printed twice, on the title bar and on the placeholder (maybe wrapped)
        assert all(text.count(word) >= 2 for word in card.name.split()), card.name
    assert any("card_images" in w for w in report.warnings)  # the path is said in the terminal


def test_crop_marks_keep_three_mm_inside_the_printable_area(cards, images: Path, tmp_path: Path) -> None:
    for printer_margin in (0.0, 4.0, 6.5):
        spec = SheetSpec(margin=2.0, printer_margin=printer_margin)
        out = tmp_path / f"m{printer_margin}.pdf"
        report = print_cards(pattern(cards, 9), out, spec, title="t", images=images)
        assert not any("crop marks" in w for w in report.warnings)
        _, lines = read_page(PdfReader(out), 0)
        marks = [ln for ln in lines if ln.colour == "#000000"]
        assert marks
        pw, ph = spec.paper
        for ln in marks:
            # the part of the mark inside the printable area
            if ln.x1 == pytest.approx(ln.x2):
                lo, hi = sorted((ln.y1, ln.y2))
                inside = min(hi, ph - printer_margin) - max(lo, printer_margin)
            else:
                lo, hi = sorted((ln.x1, ln.x2))
                inside = min(hi, pw - printer_margin) - max(lo, printer_margin)
            assert inside >= 3.0 - 1e-3, (printer_margin, ln)


def test_the_bleeds_cost_is_said() -> None:
    assert bleed_cost(SheetSpec(bleed=3.0, printer_margin=4.0)) == "A4 with 3 mm bleed fits 6 cards; ≤ 1 mm keeps 9"
    assert bleed_cost(SheetSpec(bleed=0.9, printer_margin=4.0)) is None
    assert impose(SheetSpec(bleed=1.0, printer_margin=4.0)).per_page == 9


def test_the_bleeds_cost_names_the_bleed_that_keeps_more_cards(cards, images: Path, tmp_path: Path) -> None:
    """On letter 3 mm bleed leaves 4 cards and no bleed of 0.1 mm or more keeps all 9: the note
    names the bleed that keeps 6, and a print at that bleed has 6 cards a sheet."""
    letter = SheetSpec(paper=PAPER_SIZES["letter"], paper_name="letter", printer_margin=4.0)
    assert bleed_cost(replace(letter, bleed=3.0)) == "letter with 3 mm bleed fits 4 cards; ≤ 1.9 mm keeps 6"
    assert bleed_cost(replace(letter, bleed=1.0)) == "letter with 1 mm bleed fits 6 cards; without bleed 9"
    out = tmp_path / "letter.pdf"
    print_cards([(cards["Sword"], 6)], out, replace(letter, bleed=1.9), title="t", images=images)
    assert len(read_page(PdfReader(out), 0)[0]) == 6


def test_calibration_scales_the_page_and_moves_the_backs(cards, images: Path, tmp_path: Path) -> None:
    plain, calibrated = tmp_path / "plain.pdf", tmp_path / "cal.pdf"
    spec = SheetSpec(backs=True)
    print_cards(pattern(cards, 9), plain, spec, title="t", images=images)
    cal = replace(spec, scale=(98.0, 101.0), back_offset=(1.5, -0.5))
    print_cards(pattern(cards, 9), calibrated, cal, title="t", images=images)
    a, b = PdfReader(plain), PdfReader(calibrated)
    for page in (0, 1):
        before, _ = read_page(a, page)
        after, _ = read_page(b, page)
        dx, dy = cal.back_offset if page == 1 else (0.0, 0.0)
        for p, q in zip(before, after, strict=True):
            assert q.w == pytest.approx(p.w * 100 / 98, abs=TOL) and q.h == pytest.approx(p.h * 100 / 101, abs=TOL)
            assert q.x == pytest.approx(105 + (p.x - 105) * 100 / 98 + dx, abs=TOL)
            assert q.y == pytest.approx(148.5 + (p.y - 148.5) * 100 / 101 + dy, abs=TOL)


def test_the_registration_page_prints_the_exact_options(tmp_path: Path) -> None:
    options = SheetOptions(paper="letter", flip="short-edge", scale_x=99.5, back_offset="0.5,-1")
    out = tmp_path / "reg.pdf"
    print_registration(out, replace(options.spec(), backs=True), options_line=options.command_line())
    text = PdfReader(out).pages[0].extract_text()
    assert "printed with: --paper letter --flip short-edge --scale-x 99.5 --back-offset 0.5,-1" in text
    assert "--scale-x 99.5 --scale-y 100 --back-offset 0.5,-1" in text


def test_one_card_pages_have_their_own_boxes_in_either_order(cards, images: Path, tmp_path: Path) -> None:
    entries = pattern(cards, 3)
    for order in ("after", "interleave"):
        out = tmp_path / f"{order}.pdf"
        spec = SheetSpec(backs=True, bleed=3.0)
        report = print_cards(entries, out, spec, title="t", images=images, one_per_page=True, back_order=order)
        reader = PdfReader(out)
        assert len(reader.pages) == report.pages == 6
        for page in reader.pages:
            assert box_mm(page.mediabox) == pytest.approx((0, 0, 69, 94), abs=0.01)
            assert box_mm(page.bleedbox) == pytest.approx((0, 0, 69, 94), abs=0.01)
            assert box_mm(page.trimbox) == pytest.approx((3, 3, 66, 91), abs=0.01)
        colours = [read_page(reader, i)[0][0].background for i in range(6)]
        backs = [LAND_BACK if c.type == "land" else KINGDOM_BACK for c, _ in entries]
        if order == "after":
            assert colours[3:] == backs
        else:
            assert colours[1::2] == backs
        placed = read_page(reader, 0)[0][0]
        assert (placed.x, placed.y, placed.w, placed.h) == pytest.approx((0, 0, 69, 94), abs=TOL)


def test_split_backs_write_two_files(cards, images: Path, tmp_path: Path) -> None:
    out = tmp_path / "deck.pdf"
    report = print_cards(pattern(cards, 12), out, SheetSpec(backs=True), title="t", images=images, split_backs=True)
    assert report.backs_path == tmp_path / "deck-backs.pdf"
    fronts, backs = PdfReader(out), PdfReader(report.backs_path)
    assert len(fronts.pages) == len(backs.pages) == 2
    assert {p.background for p in read_page(backs, 0)[0]} == {LAND_BACK, KINGDOM_BACK}
    assert len(read_page(backs, 1)[0]) == 3 and len(read_page(fronts, 1)[0]) == 3


def _scan(path: Path) -> Path:
    """A 900×1257 px whole-face scan: red left half, blue right half."""
    from PIL import Image

    img = Image.new("RGB", (900, 1257), "#d01010")
    img.paste((16, 16, 208), (450, 0, 900, 1257))
    path.parent.mkdir(parents=True, exist_ok=True)
    img.save(path)
    return path


@pytest.mark.parametrize(("fill", "edge"), [("art", ((208, 16, 16), (16, 16, 208))), ("frame", None)])
def test_a_full_art_scan_is_the_face_and_its_bleed_can_be_the_art(cards, images: Path, tmp_path: Path, fill, edge):
    from PIL import Image

    from cardbase.render.export import export_images

    goblin = cards["Crumb Goblin"]
    _scan(images / "mea" / "crumb-goblin.full.png")
    out = tmp_path / f"png-{fill}"
    report = export_images([(goblin, 1)], out, dpi=100, bleed=3.0, images=images, bleed_fill=fill, backs=False)
    assert report.warnings == []
    with Image.open(out / "001-crumb-goblin.png") as img:
        img = img.convert("RGB")
        w, h = img.size
        inside = img.getpixel((w // 4, h // 2)), img.getpixel((3 * w // 4, h // 2))
        bleed = img.getpixel((2, h // 2)), img.getpixel((w - 3, h // 2))
    assert max(abs(a - b) for a, b in zip(inside[0], (208, 16, 16), strict=True)) < 6
    if edge is None:
        assert bleed[0] == bleed[1] == (0x7B, 0x2D, 0x26)  # the layout's frame colour
    else:
        for got, want in zip(bleed, edge, strict=True):
            assert max(abs(a - b) for a, b in zip(got, want, strict=True)) < 6
    pdf_out = tmp_path / f"{fill}.pdf"
    print_cards([(goblin, 1)], pdf_out, SheetSpec(bleed=3.0), title="t", images=images, bleed_fill=fill)
    text = PdfReader(pdf_out).pages[0].extract_text()
    assert "Crumb Goblin" not in text  # the scan is the face: nothing is drawn over it


def test_export_draws_many_faces_in_worker_processes_exactly_as_in_one(
    cards, images: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardbase.render import export

    chosen = sorted((c for c in cards.values() if c.game == "meio"), key=lambda c: c.name)[:20]
    assert len(chosen) > export.PARALLEL_FROM
    parallel = export.export_images([(c, 1) for c in chosen], tmp_path / "p", dpi=40, images=images, use_cache=False)
    monkeypatch.setattr(export, "PARALLEL_FROM", 10_000)
    serial = export.export_images([(c, 1) for c in chosen], tmp_path / "s", dpi=40, images=images, use_cache=False)
    assert parallel.files == serial.files and len(serial.files) == 21  # 20 faces and the one back
    for name in serial.files:
        assert (tmp_path / "p" / name).read_bytes() == (tmp_path / "s" / name).read_bytes(), name


def test_the_paper_turned_is_named_when_it_takes_fewer_sheets(cards, images: Path, tmp_path: Path) -> None:
    tile = parse_size(TILE_SIZE, CARD_SIZES)
    entries = [(cards["Blue Tile"], 18)]
    report = print_cards(
        entries, tmp_path / "a4.pdf", SheetSpec(card=tile, printer_margin=4.0), title="t", images=images
    )
    assert report.sheets == 6
    assert "landscape paper takes 5 sheets where this takes 6 (4 per sheet, not 3): --paper 297x210mm" in report.notes
    turned = SheetSpec(paper=parse_size("297x210mm", PAPER_SIZES), card=tile, printer_margin=4.0)
    out = tmp_path / "turned.pdf"
    assert print_cards(entries, out, turned, title="t", images=images).notes == []
    reader = PdfReader(out)
    assert [len(read_page(reader, i)[0]) for i in range(len(reader.pages))] == [4, 4, 4, 4, 2]
    # Nothing to say when the turned paper takes as many sheets: 10 poker cards, or 61 mini cards.
    for size, n in (((63.0, 88.0), 10), (CARD_SIZES["mini"], 61)):
        spec = SheetSpec(card=size, printer_margin=4.0)
        assert print_cards([(cards["Blue Tile"], n)], tmp_path / "x.pdf", spec, title="t", images=images).notes == []
