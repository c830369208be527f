"""The Pillow backend and card art: real PNGs opened with Pillow; bad art refused clearly."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image

from cardbase.db.models import Card
from cardbase.errors import UnreadableInput, UsageError
from cardbase.render.printing import render_card
from tests.render.conftest import solid_png


def px(mm: float, dpi: int) -> int:
    return round(mm * dpi / 25.4)


@pytest.mark.parametrize("dpi", [150, 300])
def test_png_is_the_true_size_at_any_dpi(cards: dict[str, Card], images: Path, tmp_path: Path, dpi: int) -> None:
    out = tmp_path / "golem.png"
    report = render_card(cards["Crème Golem"], out, dpi=dpi, images=images)
    with Image.open(out) as img:
        assert img.format == "PNG"
        assert img.size == (px(63, dpi), px(88, dpi)) == (report.width_px, report.height_px)
        assert img.info["dpi"] == pytest.approx((dpi, dpi), abs=0.05)  # PNG stores dots per metre
        rgb = img.convert("RGB")
        assert rgb.getpixel((2, 2)) == (0x7B, 0x2D, 0x26)  # the monster frame colour at the edge
        # the red DEMO tag, near the art's top right (layout: x 44.5–57 mm, y 14.6–19.4 mm)
        r, g, b = rgb.getpixel((px(46, dpi), px(15.2, dpi)))
        assert r > 150 and g < 80 and b < 80


def test_bleed_grows_the_image_with_background(cards: dict[str, Card], images: Path, tmp_path: Path) -> None:
    out = tmp_path / "ace.png"
    render_card(cards["Ace of Spades"], out, dpi=100, bleed=3, images=images)
    with Image.open(out) as img:
        assert img.size == (px(69, 100), px(94, 100))
        assert img.convert("RGB").getpixel((0, 0)) == (255, 255, 255)


def test_backs_render_too(cards: dict[str, Card], images: Path, tmp_path: Path) -> None:
    out = tmp_path / "back.png"
    render_card(cards["Den of the Geister"], out, dpi=60, back=True, images=images)
    with Image.open(out) as img:
        assert img.convert("RGB").getpixel((3, 3)) == (0xE0, 0x7A, 0x1F)  # Meikyu's orange back


def test_art_from_card_images_fills_the_art_box(cards: dict[str, Card], images: Path, tmp_path: Path) -> None:
    solid_png(images / "mea" / "creme-golem.png", "#11aa33")
    out = tmp_path / "golem.png"
    report = render_card(cards["Crème Golem"], out, dpi=100, images=images)
    assert report.warnings == []
    with Image.open(out) as img:
        # the art box is x 5–58 mm, y 13.5–49.5 mm
        assert img.convert("RGB").getpixel((px(20, 100), px(40, 100))) == (0x11, 0xAA, 0x33)


def test_missing_art_gives_a_placeholder_and_one_warning(cards: dict[str, Card], images: Path, tmp_path: Path) -> None:
    report = render_card(cards["Crème Golem"], tmp_path / "g.png", dpi=60, images=images)
    assert len(report.warnings) == 1
    assert "creme-golem.png" in report.warnings[0] and "placeholder" in report.warnings[0]


def test_a_corrupt_image_is_an_error_naming_the_file(cards: dict[str, Card], images: Path, tmp_path: Path) -> None:
    bad = images / "mea" / "creme-golem.png"
    bad.parent.mkdir(parents=True)
    bad.write_bytes(b"\x89PNG\r\n\x1a\n this is not really a picture")
    with pytest.raises(UnreadableInput, match=r"creme-golem\.png"):
        render_card(cards["Crème Golem"], tmp_path / "g.png", dpi=60, images=images)
    truncated = images / "mea" / "puddle-knight.jpg"
    full = tmp_path / "full.jpg"
    Image.effect_noise((200, 200), 40).convert("RGB").save(full, quality=90)
    truncated.write_bytes(full.read_bytes()[:1500])
    with pytest.raises(UnreadableInput, match=r"puddle-knight\.jpg"):
        render_card(cards["Puddle Knight"], tmp_path / "k.png", dpi=60, images=images)
    assert not (tmp_path / "k.png").exists()


def test_an_image_over_the_decompression_bomb_limit_is_refused(
    cards: dict[str, Card], images: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    solid_png(images / "mea" / "creme-golem.png", size=(120, 100))
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 5_000)
    with pytest.raises(UnreadableInput, match="decompression-bomb"):
        render_card(cards["Crème Golem"], tmp_path / "g.png", dpi=60, images=images)
    # over twice the limit, Pillow itself raises: refused the same way
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 2_000)
    with pytest.raises(UnreadableInput, match="decompression-bomb"):
        render_card(cards["Crème Golem"], tmp_path / "g.png", dpi=60, images=images)


def test_art_paths_that_leave_card_images_are_refused(cards: dict[str, Card], images: Path, tmp_path: Path) -> None:
    golem = cards["Crème Golem"]
    solid_png(tmp_path / "secret.png")
    for declared in ("../secret.png", str(tmp_path / "secret.png")):
        with pytest.raises(UsageError, match="outside"):
            render_card(golem, tmp_path / "g.png", dpi=60, images=images, declared_art={golem.id: declared})
    (images / "mea").mkdir()
    os.symlink(tmp_path / "secret.png", images / "mea" / "creme-golem.png")
    with pytest.raises(UsageError, match="outside"):
        render_card(golem, tmp_path / "g.png", dpi=60, images=images)


def test_a_declared_art_path_inside_card_images_is_used(cards: dict[str, Card], images: Path, tmp_path: Path) -> None:
    golem = cards["Crème Golem"]
    solid_png(images / "scans" / "golem-v2.png", "#2040c0")
    report = render_card(
        golem, tmp_path / "g.png", dpi=60, images=images, declared_art={golem.id: "scans/golem-v2.png"}
    )
    assert report.warnings == []
    with Image.open(tmp_path / "g.png") as img:
        assert img.convert("RGB").getpixel((px(20, 60), px(40, 60))) == (0x20, 0x40, 0xC0)


def test_png_faces_are_cached_by_content(cards: dict[str, Card], images: Path, tmp_path: Path) -> None:
    golem = cards["Crème Golem"]
    first = render_card(golem, tmp_path / "a.png", dpi=72, images=images)
    again = render_card(golem, tmp_path / "b.png", dpi=72, images=images)
    other_dpi = render_card(golem, tmp_path / "c.png", dpi=96, images=images)
    assert (first.cached, again.cached, other_dpi.cached) == (False, True, False)
    assert (tmp_path / "a.png").read_bytes() == (tmp_path / "b.png").read_bytes()
    assert list((images / ".cache" / "png").glob("*.png"))
    solid_png(images / "mea" / "creme-golem.png")  # new art: a new face, not the stale one
    assert render_card(golem, tmp_path / "d.png", dpi=72, images=images).cached is False
    golem.attack = 9  # changed card data: a new face too
    assert render_card(golem, tmp_path / "e.png", dpi=72, images=images).cached is False


def test_render_to_pdf_is_one_vector_card(cards: dict[str, Card], images: Path, tmp_path: Path) -> None:
    from pypdf import PdfReader

    out = tmp_path / "grimoire.pdf"
    render_card(cards["Grimoire"], out, bleed=3, images=images)
    reader = PdfReader(out)
    page = reader.pages[0]
    assert float(page.mediabox.width) == pytest.approx(69 * 72 / 25.4, abs=0.01)
    assert float(page.trimbox.left) == pytest.approx(3 * 72 / 25.4, abs=0.01)
    assert "Grimoire" in page.extract_text() and "Item" in page.extract_text()


def test_render_refuses_unknown_output_kinds(cards: dict[str, Card], images: Path, tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=r"\.png or \.pdf"):
        render_card(cards["Bee"], tmp_path / "bee.gif", images=images)
