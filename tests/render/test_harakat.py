"""Arabic vowel marks (harakat) on a printed face: kept (arabic-reshaper drops them by default, which
changes the words), and drawn over or under their own letter by the backends' glyph-after-glyph drawing.

Each word is drawn as a face's line is (``script.joined``, then ``script.visual``, with the face's Pillow
font), once bare and once with a mark on one letter; the pixels that differ are the mark, read back and
placed against that letter's own ink.
"""

from __future__ import annotations

import unicodedata

import pytest
from PIL import Image, ImageChops, ImageDraw

from cardbase.render import script
from cardbase.render.fonts import pil_font

FATHA, KASRA = "\u064e", "\u0650"
SIZE = 96
BASELINE = 130
LEFT = 40


def _drawn(text: str) -> Image.Image:
    image = Image.new("L", (LEFT * 2 + SIZE * 4, BASELINE + SIZE), 0)
    line = script.visual(script.joined(text), True)
    ImageDraw.Draw(image).text((LEFT, BASELINE), line, font=pil_font("sans", SIZE), fill=255, anchor="ls")
    return image


def _letter_ink(word: str, letter: int) -> tuple[int, int, int, int]:
    """The box of letter ``letter`` (logical index) of ``word`` as drawn in the bare line."""
    font = pil_font("sans", SIZE)
    line = script.visual(script.joined(word), True)
    at = len(word) - 1 - letter  # a word of joined letters only: display order is the reverse
    x = LEFT + sum(font.getlength(c) for c in line[:at])
    left, top, right, bottom = font.getbbox(line[at], anchor="ls")
    return round(x + left), BASELINE + top, round(x + right), BASELINE + bottom


def test_the_vowel_marks_are_kept() -> None:
    shaped = script.joined("كَتَبَ")
    assert [unicodedata.name(c) for c in shaped if unicodedata.category(c) == "Mn"] == ["ARABIC FATHA"] * 3
    assert script.joined("كتب") == "".join(c for c in shaped if unicodedata.category(c) != "Mn")  # same joins


@pytest.mark.parametrize(("word", "mark", "above"), [("كتب", FATHA, True), ("بنت", KASRA, False)])
def test_each_mark_is_drawn_over_or_under_its_own_letter(word: str, mark: str, above: bool) -> None:
    bare = _drawn(word)
    for letter in range(len(word)):
        marked = word[: letter + 1] + mark + word[letter + 1 :]
        ink = ImageChops.difference(_drawn(marked), bare).getbbox()
        assert ink is not None, f"the mark on letter {letter + 1} of {word} is not drawn"
        left, top, right, bottom = _letter_ink(word, letter)
        centre = (ink[0] + ink[2]) / 2
        assert left <= centre <= right, f"the mark on letter {letter + 1} of {word}: {ink} not over {left}–{right}"
        if above:
            assert ink[3] <= BASELINE and ink[1] < top + (bottom - top) // 2
        else:
            assert ink[1] >= BASELINE - SIZE // 10


def test_every_ligature_the_reshaper_forms_is_one_the_font_draws() -> None:
    """A word the reshaper would set as one ligature glyph that DejaVu Sans lacks (``الله`` → U+FDF2)
    stays joined letters; the lam-alef ligatures, which the font has, are still formed."""
    from arabic_reshaper.ligatures import LIGATURES

    from cardbase.render.fonts import missing_glyphs

    undrawn = {c for _, (_, forms) in LIGATURES for form in forms for c in missing_glyphs("sans", form)}
    assert "\ufdf2" in undrawn  # (ARABIC LIGATURE ALLAH ISOLATED FORM: what the font lacks)
    for name, (source, _) in LIGATURES:
        shaped = script.joined(source)
        assert not undrawn & set(shaped), f"{name}: {source!r} is set as {shaped!r}"
    assert script.joined("لا") == "\ufefb"  # ARABIC LIGATURE LAM WITH ALEF ISOLATED FORM
    assert script.joined("اللَّه").count("\u064e") == 1  # the name keeps its mark on its own letter
