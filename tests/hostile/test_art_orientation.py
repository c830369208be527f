"""Art whose EXIF orientation says it is shown turned (a phone photo taken upright is stored on its
side, orientation 6) printed as stored, on its side, and its size was said as stored; now it prints
the way every viewer shows it, through ``render card`` and ``print``. And art prepared for a box
was kept under the first 32 characters of its name, the art's digest alone, so every variant of
one file (on another matte, as a whole face) shared one cache entry. Animated art (an animated PNG
or WebP, a GIF named .png) printed its first picture without a word; now it says so."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from cardbase.render.cache import FaceCache
from tests.hostile.conftest import run_cli

BLUE, RED = (0, 0, 255), (255, 0, 0)


def _phone_photo(path: Path, orientation: int) -> None:
    """400×200 as stored, its left half blue: shown with orientation 6, 200×400 with the blue on top."""
    img = Image.new("RGB", (400, 200), RED)
    img.paste(Image.new("RGB", (200, 200), BLUE), (0, 0))
    exif = Image.Exif()
    exif[0x0112] = orientation
    img.save(path, exif=exif, quality=95)


def _near(pixel: tuple[int, ...], colour: tuple[int, int, int]) -> bool:
    return all(abs(a - b) < 60 for a, b in zip(pixel[:3], colour, strict=True))


@pytest.mark.parametrize("orientation", [1, 6])
def test_art_prints_the_way_it_is_shown(orientation: int, hostile_db: str, in_tmp: Path) -> None:
    art = in_tmp / "art" / "mea"
    art.mkdir(parents=True)
    _phone_photo(art / "crumb-goblin.jpg", orientation)
    out = in_tmp / "face.png"
    result = run_cli(["render", "card", "Crumb Goblin", "-o", str(out), "--images", "art", "--no-cache"], hostile_db)
    assert result.exit_code == 0, result.output
    shown = "200×400" if orientation == 6 else "400×200"
    assert f"is {shown} px" in result.stderr, result.stderr  # the size as shown, in the soft-print warning
    with Image.open(out) as face:
        w, h = face.size
        top_right, bottom_left = (
            face.getpixel((int(0.6 * w), int(0.3 * h))),
            face.getpixel((int(0.3 * w), int(0.5 * h))),
        )
    if orientation == 6:  # shown: the blue half on top, the red below
        assert _near(top_right, BLUE) and _near(bottom_left, RED), (top_right, bottom_left)
    else:  # as stored: blue on the left
        assert _near(top_right, RED) and _near(bottom_left, BLUE), (top_right, bottom_left)


def test_print_says_the_size_as_shown(hostile_db: str, in_tmp: Path) -> None:
    art = in_tmp / "art" / "mea"
    art.mkdir(parents=True)
    _phone_photo(art / "crumb-goblin.jpg", 6)
    (in_tmp / "deck.txt").write_text("game: mea\n1 Crumb Goblin\n", encoding="utf-8")
    result = run_cli(["print", "deck", "deck.txt", "-o", "out.pdf", "--images", "art"], hostile_db)
    assert result.exit_code == 0, result.output
    assert "is 200×400 px" in result.stderr, result.stderr


def test_each_variant_of_prepared_art_has_its_own_entry(tmp_path: Path) -> None:
    cache = FaceCache(tmp_path)
    digest = "a" * 64
    names = {cache.art_path(digest + variant, 100, 100) for variant in ("", "-ffeedd", "-full-3", "-v2")}
    assert len(names) == 4


@pytest.mark.parametrize(("suffix", "kind", "frames"), [(".png", "PNG", 3), (".png", "GIF", 3), (".webp", "WEBP", 2)])
def test_animated_art_prints_its_first_picture_and_says_so(
    suffix: str, kind: str, frames: int, hostile_db: str, in_tmp: Path
) -> None:
    """An animated PNG, a GIF named .png, an animated WebP: the first picture was printed without a word."""
    art = in_tmp / "art" / "mea"
    art.mkdir(parents=True)
    pictures = [Image.new("RGB", (600, 800), colour) for colour in (RED, BLUE, (0, 255, 0))[:frames]]
    pictures[0].save(art / f"crumb-goblin{suffix}", format=kind, save_all=True, append_images=pictures[1:])
    out = in_tmp / "face.png"
    result = run_cli(["render", "card", "Crumb Goblin", "-o", str(out), "--images", "art", "--no-cache"], hostile_db)
    assert result.exit_code == 0, result.output
    assert f"is animated ({frames} pictures); printed its first" in result.stderr, result.stderr
    with Image.open(out) as face:
        assert _near(face.getpixel((face.width // 2, int(0.3 * face.height))), RED)


def test_a_still_picture_is_not_said_animated(hostile_db: str, in_tmp: Path) -> None:
    art = in_tmp / "art" / "mea"
    art.mkdir(parents=True)
    _phone_photo(art / "crumb-goblin.jpg", 1)
    result = run_cli(["render", "card", "Crumb Goblin", "-o", "face.png", "--images", "art", "--no-cache"], hostile_db)
    assert result.exit_code == 0 and "animated" not in result.stderr, result.stderr
