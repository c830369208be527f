"""Card text the faces' fonts cannot draw (DejaVu has no CJK and no emoji; its serif bold, the title's
font, has no Hebrew) printed as the font's empty boxes in the PNG and as ``\\x00`` in the PDF,
without a word. Each is now a warning naming the card, the field and the characters with their code
points, through ``render card`` (PNG and PDF) and ``print`` alike; text the fonts draw says nothing —
Hebrew too, set in DejaVu Sans and in visual order (test_right_to_left.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

from cardbase.render import fonts
from tests.hostile.conftest import run_cli

NAMES = {
    "cjk": ("日本語の犬", ["U+65E5", "U+72AC", "empty boxes"]),
    "emoji": ("Dragon 🐉 Fire", ["U+1F409", "empty boxes"]),
    "rtl": ("שלום עולם", []),
    "combining": ("Zalgo Z̸̢a̴l", []),
    "latin": ("Château Crème", []),
}


@pytest.fixture
def named(hostile_db: str) -> str:
    for name, _ in NAMES.values():
        added = run_cli(
            ["catalog", "add", "--game", "mea", f"name={name}", "type=monster", "cost=2", "set=mine"], hostile_db
        )
        assert added.exit_code == 0, added.output
    return hostile_db


def _said(stderr: str, name: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith(f"warning: {name}: name:")]


@pytest.mark.parametrize("kind", list(NAMES))
@pytest.mark.parametrize("suffix", ["png", "pdf"])
def test_render_says_what_the_font_cannot_draw(kind: str, suffix: str, named: str, in_tmp: Path) -> None:
    name, words = NAMES[kind]
    out = in_tmp / f"face.{suffix}"
    result = run_cli(["render", "card", name, "-o", str(out), "--dpi", "60", "--no-cache"], named)
    assert result.exit_code == 0, result.output
    said = " ".join(_said(result.stderr, name))
    for word in words:
        assert word in said, result.stderr
    if not words:
        assert not said, result.stderr
    if suffix == "pdf":
        text = PdfReader(out).pages[0].extract_text()
        drawn = [c for c in name if c not in fonts.missing_glyphs("serif-bold", name)]
        assert all(c in text for c in drawn if c.isalpha()), text


def test_print_says_it_once_per_card(named: str, in_tmp: Path) -> None:
    deck = in_tmp / "deck.txt"
    deck.write_text("game: mea\n" + "".join(f"2 {name}\n" for name, _ in NAMES.values()), encoding="utf-8")
    result = run_cli(["print", "deck", str(deck), "-o", str(in_tmp / "deck.pdf"), "--no-cache"], named)
    assert result.exit_code == 0, result.output
    for name, words in NAMES.values():
        said = _said(result.stderr, name)
        assert len(said) == ("empty boxes" in words), result.stderr


def test_missing_glyphs_are_the_characters_the_font_lacks() -> None:
    assert fonts.missing_glyphs("sans", "Crème ♠ é\u200d\n") == []
    assert fonts.missing_glyphs("sans", "犬 a 犬 🐉") == ["犬", "🐉"]
