"""Art of every pixel mode Pillow opens prints the same picture: deep greyscale scaled, not clipped;
transparency on the art box's colour; ICC profiles to sRGB; WebP found; low resolution warned."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageCms, ImageStat

from cardbase.db.models import Card
from cardbase.render.art import find_art, load_image, printed_ppi, to_rgb
from cardbase.render.layout import LAYOUTS
from cardbase.render.printing import render_card

W, H = 120, 80


def picture() -> Image.Image:
    """An RGB test picture: a horizontal red ramp, a vertical green ramp, a blue block."""
    img = Image.new("RGB", (W, H))
    for x in range(W):
        for y in range(H):
            img.putpixel((x, y), (round(255 * x / (W - 1)), round(255 * y / (H - 1)), 200 if x < W // 2 else 40))
    return img


def grey() -> Image.Image:
    return picture().convert("L")


def diff(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute difference per channel, 0–255."""
    return sum(ImageStat.Stat(ImageChops.difference(a.convert("RGB"), b.convert("RGB"))).mean) / 3


def png16_rgb(path: Path, img: Image.Image) -> Path:
    """``img`` written as a 16-bit-per-channel RGB PNG (Pillow cannot write one itself)."""
    rows = b""
    for y in range(img.height):
        rows += b"\x00" + b"".join(
            struct.pack(">3H", *(v * 257 for v in img.getpixel((x, y)))) for x in range(img.width)
        )

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))

    header = struct.pack(">IIBBBBB", img.width, img.height, 16, 2, 0, 0, 0)
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")
    )
    return path


def variants(tmp: Path) -> dict[str, tuple[Path, Image.Image]]:
    """The picture saved in every mode, each with the RGB picture it must print as."""
    rgb, lum = picture(), grey()
    out: dict[str, tuple[Path, Image.Image]] = {}

    def save(name: str, img: Image.Image, expected: Image.Image, fmt: str = "PNG", **kw: object) -> None:
        path = tmp / f"{name}.{fmt.lower()}"
        img.save(path, format=fmt, **kw)
        out[name] = (path, expected)

    save("RGB", rgb, rgb)
    save("L", lum, lum)
    save("I16", lum.point(lambda v: v * 257, "I").convert("I;16"), lum)
    save("I", lum.point(lambda v: v * 257, "I"), lum, "TIFF")
    save("F", lum.convert("F").point(lambda v: v / 255), lum, "TIFF")
    save("CMYK", rgb.convert("CMYK"), rgb.convert("CMYK").convert("RGB"), "TIFF")
    save("P", rgb.quantize(256), rgb.quantize(256).convert("RGB"))
    save("WEBP", rgb, rgb, "WEBP", lossless=True)
    save("sRGB-ICC", rgb, rgb, "PNG", icc_profile=ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    bw = rgb.convert("1", dither=Image.Dither.NONE)
    save("1", bw, bw.convert("RGB"))
    # Transparency: the left half see-through, composited onto the art box's colour.
    alpha = Image.new("L", (W, H), 255)
    alpha.paste(0, (0, 0, W // 2, H))
    matte = Image.new("RGB", (W, H), "#f7efdd")
    over = Image.composite(rgb, matte, alpha)
    rgba = rgb.copy()
    rgba.putalpha(alpha)
    save("RGBA", rgba, over)
    la = lum.copy()
    la.putalpha(alpha)
    save("LA", la.convert("LA"), Image.composite(lum.convert("RGB"), matte, alpha))
    pal = rgb.quantize(255)
    pal.putpalette([*pal.getpalette()[: 255 * 3], 0, 0, 0])  # a 256th entry, index 255, for "see-through"
    pal.paste(255, (0, 0, W // 2, H))
    save("P-transparent", pal, Image.composite(rgb.quantize(255).convert("RGB"), matte, alpha), transparency=255)
    out["RGB16"] = (png16_rgb(tmp / "RGB16.png", rgb), rgb)
    return out


def test_every_mode_loads_as_the_same_picture(tmp_path: Path) -> None:
    found = variants(tmp_path)
    modes = {name: Image.open(path).mode for name, (path, _) in found.items()}
    assert {"1", "L", "LA", "I", "I;16", "F", "P", "RGB", "RGBA", "CMYK"} <= set(modes.values())
    for name, (path, expected) in found.items():
        got = load_image(path, "#f7efdd")
        assert got.mode == "RGB" and got.size == (W, H), name
        assert diff(got, expected) < 2.0, (name, modes[name], diff(got, expected))


def test_sixteen_bit_grey_is_not_a_white_box(tmp_path: Path) -> None:
    path, _ = variants(tmp_path)["I16"]
    naive = Image.open(path).convert("RGB")  # what printing did before: clipped to white
    assert ImageStat.Stat(naive).mean[0] > 250
    assert 100 < ImageStat.Stat(load_image(path)).mean[0] < 160


def test_an_icc_profile_is_converted_to_srgb() -> None:
    """Pixels stored in another colour space, with its profile embedded, print as the sRGB picture."""
    srgb, lab = ImageCms.createProfile("sRGB"), ImageCms.createProfile("LAB")
    stored = ImageCms.profileToProfile(picture(), srgb, lab, outputMode="LAB")
    assert stored.mode == "LAB" and diff(Image.frombytes("RGB", stored.size, stored.tobytes()), picture()) > 20
    stored.info["icc_profile"] = ImageCms.ImageCmsProfile(lab).tobytes()
    assert diff(to_rgb(stored), picture()) < 3.0


def _printed_art(card: Card, source: Path, tmp: Path, name: str) -> Image.Image:
    """The art box of ``card`` rendered at 100 dpi with ``source`` as its art."""
    images = tmp / f"images-{name}"
    (images / "mea").mkdir(parents=True)
    (images / "mea" / f"creme-golem{source.suffix}").write_bytes(source.read_bytes())
    out = tmp / f"{name}.png"
    render_card(card, out, dpi=100, images=images, use_cache=False)
    box = next(el.box for el in LAYOUTS["mea-monster"].elements if type(el).__name__ == "Art")
    k = 100 / 25.4
    with Image.open(out) as img:
        return img.crop(
            (
                round((box.x + 1) * k),
                round((box.y + 1) * k),
                round((box.x + box.w - 1) * k),
                round((box.y + box.h - 1) * k),
            )
        )


def test_every_mode_prints_the_same_card(cards: dict[str, Card], tmp_path: Path) -> None:
    """One card printed with the picture in every mode matches it printed from the expected RGB picture."""
    golem = cards["Crème Golem"]
    src = tmp_path / "src"
    src.mkdir()
    for name, (path, expected) in variants(src).items():
        plain = src / f"{name}-expected.png"
        expected.save(plain)
        got = _printed_art(golem, path, tmp_path, name)
        want = _printed_art(golem, plain, tmp_path, f"{name}-expected")
        assert diff(got, want) < 2.0, name


def test_webp_art_is_found_and_low_resolution_is_warned(cards: dict[str, Card], tmp_path: Path) -> None:
    images = tmp_path / "card_images"
    (images / "mea").mkdir(parents=True)
    picture().save(images / "mea" / "creme-golem.webp", format="WEBP")
    assert find_art(images, "mea", "Crème Golem") == (images / "mea" / "creme-golem.webp").resolve()
    report = render_card(cards["Crème Golem"], tmp_path / "g.png", dpi=100, images=images, use_cache=False)
    assert len(report.warnings) == 1
    assert "120×80 px, 56 ppi at its printed size (53.0×36.0 mm)" in report.warnings[0]
    assert "at least 418×284 px" in report.warnings[0]
    assert printed_ppi((418, 284), (53.0, 36.0)) >= 200 > printed_ppi((417, 284), (53.0, 36.0))


@pytest.mark.parametrize("size", [(418, 284), (2000, 1000)])
def test_enough_pixels_are_not_warned(cards: dict[str, Card], tmp_path: Path, size: tuple[int, int]) -> None:
    images = tmp_path / "card_images"
    (images / "mea").mkdir(parents=True)
    picture().resize(size).save(images / "mea" / "creme-golem.png")
    report = render_card(cards["Crème Golem"], tmp_path / "g.png", dpi=100, images=images, use_cache=False)
    assert report.warnings == []
