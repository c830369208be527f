"""The fonts faces are set in, and text measurement shared by both backends.

The DejaVu families ship inside matplotlib (a dependency), in ``mpl-data/fonts/ttf``, and have
every glyph the three games need (é, ï, ♠ ♥ ♦ ♣, …). The folder is found from matplotlib's
package location without importing it (importing matplotlib costs most of a second);
``matplotlib.get_data_path()`` is the fallback.

Widths come from the fonts' own advance widths (Pillow's basic layout, no kerning), the
same numbers ReportLab uses, so a line fitted once fits in the PNG and in the PDF.
"""

from __future__ import annotations

import importlib.util
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from cardbase.errors import UnreadableInput

# Font key → file name. Layouts name fonts by key.
FONT_FILES: dict[str, str] = {
    "sans": "DejaVuSans.ttf",
    "sans-bold": "DejaVuSans-Bold.ttf",
    "sans-italic": "DejaVuSans-Oblique.ttf",
    "serif": "DejaVuSerif.ttf",
    "serif-bold": "DejaVuSerif-Bold.ttf",
    "serif-italic": "DejaVuSerif-Italic.ttf",
}
_EM = 1000  # measuring size: widths at 1000 px are widths in thousandths of an em


@cache
def font_dir() -> Path:
    """The folder holding the DejaVu TTF files."""
    spec = importlib.util.find_spec("matplotlib")
    if spec is not None and spec.origin:
        folder = Path(spec.origin).parent / "mpl-data" / "fonts" / "ttf"
        if (folder / FONT_FILES["sans"]).is_file():
            return folder
    try:
        import matplotlib

        folder = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
    except ImportError:
        folder = Path()
    if not (folder / FONT_FILES["sans"]).is_file():
        raise UnreadableInput("cannot find the DejaVu fonts that ship with matplotlib; reinstall matplotlib")
    return folder


# Fonts from layout files: key → file. The key carries the file's content digest, so a face's cache
# key (which names its fonts) changes when the font file does.
EXTRA_FONTS: dict[str, Path] = {}


def register_file(path: Path, digest: str) -> str:
    """Make the TTF/OTF at ``path`` usable by layouts; returns its font key."""
    key = f"file-{digest}"
    EXTRA_FONTS[key] = path.resolve()
    return key


def font_path(key: str) -> Path:
    """The TTF file of font ``key`` (``sans``, ``serif-italic``, … or a layout file's font)."""
    if key in EXTRA_FONTS:
        return EXTRA_FONTS[key]
    return font_dir() / FONT_FILES[key]


@cache
def _measure_font(key: str) -> Any:
    from PIL import ImageFont

    return ImageFont.truetype(str(font_path(key)), _EM, layout_engine=ImageFont.Layout.BASIC)


def pil_font(key: str, size_px: float) -> Any:
    """A Pillow font of ``key`` at ``size_px`` pixels (basic layout, like the measurements)."""
    return _pil_font(key, max(1.0, round(size_px, 2)))


@lru_cache(maxsize=256)
def _pil_font(key: str, size_px: float) -> Any:
    from PIL import ImageFont

    return ImageFont.truetype(str(font_path(key)), size_px, layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=1 << 16)
def _width_em(key: str, text: str) -> float:
    return float(_measure_font(key).getlength(text)) / _EM


def text_width(key: str, text: str, size_pt: float) -> float:
    """Width of ``text`` set in ``key`` at ``size_pt``, in points."""
    return _width_em(key, text) * size_pt


@cache
def metrics(key: str) -> tuple[float, float]:
    """(ascent, descent) of font ``key`` in ems."""
    ascent, descent = _measure_font(key).getmetrics()
    return ascent / _EM, descent / _EM


@cache
def _glyphs(key: str) -> frozenset[int]:
    """The code points font ``key`` has a glyph for (its character map, as ReportLab reads it)."""
    from reportlab.pdfbase.ttfonts import TTFontFile

    return frozenset(TTFontFile(str(font_path(key))).charToGlyph)


@cache
def font_name(key: str) -> str:
    """The name a message gives font ``key``: its file's name without the extension (``DejaVuSerif-Bold``)."""
    return font_path(key).stem


# The family a font falls back to for text it has no glyphs for: DejaVu Serif lacks Hebrew and
# Arabic, which DejaVu Sans has; a layout file's own font falls back to DejaVu Sans.
FALLBACK: dict[str, str] = {"serif": "sans", "serif-bold": "sans-bold", "serif-italic": "sans-italic"}


@lru_cache(maxsize=4096)  # asked again at every size a box is tried at, and by the glyph warning
def covering(key: str, text: str) -> str:
    """The font ``text`` is set in: ``key``, or its fallback family when that draws more of ``text``
    (a whole paragraph moves, so a line never mixes two fonts)."""
    if not missing_glyphs(key, text):
        return key
    other = FALLBACK.get(key, "sans" if key not in FONT_FILES else key)
    if other != key and len(missing_glyphs(other, text)) < len(missing_glyphs(key, text)):
        return other
    return key


def missing_glyphs(key: str, text: str) -> list[str]:
    """The characters of ``text``, once each in order, that font ``key`` has no glyph for: they would be
    drawn as the font's empty box (the PNG) or as nothing a reader can copy (the PDF). Line breaks,
    tabs and the invisible formatting characters (joiners, marks of direction: category Cf) draw nothing
    of their own, and are not counted."""
    import unicodedata

    have = _glyphs(key)
    seen: dict[str, None] = {}
    for char in text:
        if ord(char) not in have and char not in "\n\t" and unicodedata.category(char) != "Cf":
            seen.setdefault(char)
    return list(seen)
