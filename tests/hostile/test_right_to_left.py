"""Right-to-left text on faces: a Hebrew or Arabic name printed reversed (each backend draws a line's
characters left to right) and, in the title's serif, as empty boxes. A face now gives both backends
each line in visual order (the Unicode bidi algorithm), Arabic letters in their joined forms, and sets
a paragraph its serif cannot draw in the matching DejaVu Sans."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

from cardbase.db.models import Card
from cardbase.render import fonts, script
from cardbase.render.face import ArtSlot, Face, TextOp, compose
from cardbase.render.layout import LAYOUTS, Text, layout_name
from cardbase.render.units import PT_PER_MM
from cardbase.render.values import face_values
from tests.hostile.conftest import run_cli


def face_named(name: str) -> Face:
    card = Card(id="mea/test/x", game="mea", type="monster", name=name, set_code="test", source="file:mine.csv", cost=2)
    return compose(layout_name("mea", "monster", name), face_values(card), (63.0, 88.0), ArtSlot(None))


def ops_holding(face: Face, letters: str) -> list[TextOp]:
    return [op for op in face.ops if isinstance(op, TextOp) and any(c in op.text for c in letters)]


def test_a_hebrew_name_is_drawn_in_visual_order_in_a_font_that_has_it() -> None:
    face = face_named("שלום עולם")
    drawn = ops_holding(face, "שלום")
    assert len(drawn) == 2  # the title and the placeholder art's label
    for op in drawn:
        assert op.text == "םלוע םולש"  # the second word first, each word's letters right to left
        assert not fonts.missing_glyphs(op.font, op.text)
        assert op.font == "sans-bold"  # the title's DejaVu Serif Bold has no Hebrew
    assert not [w for w in face.warnings if "glyph" in w], face.warnings


def test_latin_and_numbers_inside_right_to_left_text_keep_their_own_order() -> None:
    face = face_named("Dragon דרקון 3")
    # A left-to-right paragraph: only the Hebrew run turns, and the number after it joins the run
    # (rule N1 of the bidi algorithm), as a browser shows it.
    assert {op.text for op in ops_holding(face, "ןוקרד")} == {"Dragon 3 ןוקרד"}
    assert script.visual("(שלום) 12", True) == "12 (םולש)"  # brackets mirrored, the number read whole


def test_arabic_letters_are_joined_before_they_are_measured() -> None:
    name = "مرحبا بالعالم"
    face = face_named(name)
    title = next(op for op in face.ops if isinstance(op, TextOp) and op.text.strip() and op.text[0] >= "\ufb50")
    assert all("\ufb50" <= c <= "\ufeff" or c == " " for c in title.text), title.text  # presentation forms only
    assert title.text.split(" ")[0] == script.joined("بالعالم")[::-1]  # the last word drawn first
    assert fonts.text_width(title.font, title.text, 10) == fonts.text_width(title.font, script.joined(name), 10)


def test_left_to_right_text_is_untouched() -> None:
    for text in ("Château Crème", "Zalgo Z̸̢a̴l", "3 × ♠"):
        assert script.joined(text) == text
        assert script.visual(text, False) == text
        assert not script.is_rtl(text)


def test_the_pdf_holds_the_hebrew_letters(hostile_db: str, in_tmp: Path) -> None:
    name = "שלום עולם"
    added = run_cli(
        ["catalog", "add", "--game", "mea", f"name={name}", "type=monster", "cost=2", "set=mine"], hostile_db
    )
    assert added.exit_code == 0, added.output
    out = in_tmp / "face.pdf"
    result = run_cli(["render", "card", name, "-o", str(out), "--no-cache"], hostile_db)
    assert result.exit_code == 0, result.output
    assert "glyph" not in result.stderr, result.stderr
    text = PdfReader(out).pages[0].extract_text()
    assert all(c in text for c in name if c != " "), text


def test_brackets_are_mirrored_where_the_text_runs_right_to_left() -> None:
    assert script.visual("(שלום) 12", True) == "12 (םולש)"
    assert script.visual("שלום (world) 12", True) == "12 (world) םולש"
    assert script.visual("א [ב] {ג} <ד>", True) == "<ד> {ג} [ב] א"
    assert script.visual("abc (שלום) def", False) == "abc (םולש) def"


def test_a_right_to_left_paragraph_starts_at_the_right_of_a_left_aligned_box() -> None:
    lname = layout_name("mea", "monster", "x")
    (box,) = [e.box for e in LAYOUTS[lname].elements if isinstance(e, Text) and "{name}" in e.paras[0].content]
    latin = next(op for op in face_named("Shalom Olam").ops if isinstance(op, TextOp) and op.text == "Shalom Olam")
    hebrew = ops_holding(face_named("שלום עולם"), "שלום")[0]
    assert latin.x == pytest.approx(box.x, abs=0.01)  # the box is left-aligned: Latin starts at its left
    width = fonts.text_width(hebrew.font, hebrew.text, hebrew.size) / PT_PER_MM
    assert hebrew.x + width == pytest.approx(box.x + box.w, abs=0.01)  # Hebrew starts at its right
