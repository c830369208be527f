"""Labels that cannot be lost (issue 28): every demo card carries DEMO and every face that shows an assumed
value carries ASSUMED, whatever the layout says; a layout may place a mark, never remove it. Read back from
the PDF (pypdf) and from the PNG (pixels), the two renderers' outputs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardbase.cli.app import app
from cardbase.db.models import Card
from cardbase.render.face import TextOp, compose
from cardbase.render.layout import MARKS, Mark, with_marks
from cardbase.render.layout_file import LayoutFileError, load_layout_file, use_layouts
from cardbase.render.values import face_values
from tests.conftest import REPO

runner = CliRunner()
PLAIN = REPO / "examples" / "layouts" / "mea-plain.toml"
RUSH = REPO / "examples" / "decks" / "mea-goblin-rush.txt"


def _pdf_text(path: Path) -> str:
    from pypdf import PdfReader

    return "\n".join(page.extract_text() for page in PdfReader(path).pages)


def _marks(text: str, word: str) -> int:
    """The mark's own word, alone on its line (the footer's 'DEMO, not a published card' is not a mark)."""
    return len(re.findall(rf"^{word}$", text, re.M))


@pytest.mark.parametrize("layout", [None, PLAIN])
def test_every_demo_card_of_a_printed_deck_carries_the_demo_mark(db_url: str, tmp_path: Path, layout) -> None:
    """Issue 28: with examples/layouts/mea-plain.toml the PDF held the word DEMO 0 times."""
    out = tmp_path / "rush.pdf"
    args = ["print", "deck", str(RUSH), "-o", str(out), "--images", str(tmp_path / "art"), "--db", db_url]
    result = runner.invoke(app, [*args, *(["--layout", str(PLAIN)] if layout else [])])
    assert result.exit_code == 0, result.output
    cards = int(re.search(r"(\d+) cards", result.stdout).group(1))  # every card of Goblin Rush is a demo card
    assert _marks(_pdf_text(out), "DEMO") == cards == 32


def test_the_png_of_a_demo_card_shows_the_mark_whatever_the_layout(db_url: str, tmp_path: Path) -> None:
    from PIL import Image

    red = tuple(int(MARKS["demo"][1][i : i + 2], 16) for i in (1, 3, 5))
    counts = []
    for layout in (None, PLAIN):
        out = tmp_path / f"goblin-{'plain' if layout else 'default'}.png"
        args = ["render", "card", "Crumb Goblin", "-o", str(out), "--dpi", "100", "--no-cache", "--db", db_url]
        result = runner.invoke(app, [*args, *(["--layout", str(layout)] if layout else [])])
        assert result.exit_code == 0, result.output
        with Image.open(out) as img:
            rgb = img.convert("RGB")
            counts.append(sum(n for n, colour in rgb.getcolors(rgb.width * rgb.height) if colour == red))
    assert all(c > 100 for c in counts), counts  # the tag's red, on both faces


def test_a_layout_may_place_a_mark_but_not_remove_it(cards: dict[str, Card], tmp_path: Path) -> None:
    toml = PLAIN.read_text(encoding="utf-8") + (
        '\n[[layouts.mea-monster.elements]]\nkind = "mark"\nname = "demo"\nbox = [5, 70, 20, 6]\n'
    )
    (tmp_path / "placed.toml").write_text(toml, encoding="utf-8")
    goblin = cards["Crumb Goblin"]
    with use_layouts(load_layout_file(tmp_path / "placed.toml")):
        face = compose("mea-monster", face_values(goblin), (63, 88))
    demo = [op for op in face.ops if isinstance(op, TextOp) and op.text == "DEMO"]
    assert len(demo) == 1 and 70 < demo[0].y < 76  # where the layout put it, once
    bad = toml.replace('name = "demo"', 'name = "demo"\nwhen = "name"')
    (tmp_path / "bad.toml").write_text(bad, encoding="utf-8")
    with pytest.raises(LayoutFileError, match="a mark is drawn on every card that carries it"):
        load_layout_file(tmp_path / "bad.toml")
    (tmp_path / "other.toml").write_text(toml.replace('name = "demo"', 'name = "secret"'), encoding="utf-8")
    with pytest.raises(LayoutFileError, match="a mark is one of demo, assumed"):
        load_layout_file(tmp_path / "other.toml")


def test_a_published_card_carries_no_demo_mark_and_backs_never_do(cards: dict[str, Card]) -> None:
    bee = compose("meikyu-character", face_values(cards["Bee"]), (63, 88))
    assert not [op for op in bee.ops if isinstance(op, TextOp) and op.text in ("DEMO", "ASSUMED")]
    goblin = cards["Crumb Goblin"]
    from cardbase.render.printing import FaceBuilder
    from cardbase.render.printing import open_cache as _open

    with _open(Path("card_images"), use_cache=False) as cache:
        _, real_back = FaceBuilder(Path("card_images"), cache, (63, 88)).back(goblin)
    # One back for every card of a kind: a DEMO there would tell a demo card from another by its back.
    assert not [op for op in real_back.ops if isinstance(op, TextOp) and op.text == "DEMO"]


def test_with_marks_adds_each_mark_the_layout_lacks_once() -> None:
    from cardbase.render.layout import LAYOUTS

    plain = load_layout_file(PLAIN)["mea-monster"]
    assert not [e for e in plain.elements if isinstance(e, Mark)]
    marked = with_marks(plain)
    assert sorted(e.kind for e in marked.elements if isinstance(e, Mark)) == ["assumed", "demo"]
    built_in = LAYOUTS["meikyu-character"]
    assert with_marks(built_in) is built_in  # it places both


def test_assumed_values_are_marked_on_every_face_that_shows_one(db_url: str, tmp_path: Path) -> None:
    toml = """version = 1
[layouts.meikyu-character]
background = "#ffffff"
[[layouts.meikyu-character.elements]]
kind = "text"
box = [5, 40, 53, 10]
content = "{name}: {bravery} swords, {wits} seals"
"""
    (tmp_path / "bare.toml").write_text(toml, encoding="utf-8")
    for layout in (None, tmp_path / "bare.toml"):
        out = tmp_path / f"bee-{'bare' if layout else 'default'}.pdf"
        args = ["render", "card", "Bee", "--assume", "default", "-o", str(out), "--no-cache", "--db", db_url]
        result = runner.invoke(app, [*args, *(["--layout", str(layout)] if layout else [])])
        assert result.exit_code == 0, result.output
        text = _pdf_text(out)
        assert _marks(text, "ASSUMED") == 1, (layout, text)
    assert "Bee: 1 swords, 1 seals" in text  # the profile's values, shown and marked
    plain = tmp_path / "bee-plain.pdf"
    result = runner.invoke(app, ["render", "card", "Bee", "-o", str(plain), "--no-cache", "--db", db_url])
    assert result.exit_code == 0 and "ASSUMED" not in _pdf_text(plain) and "?" in _pdf_text(plain)
    refused = runner.invoke(app, ["render", "card", "Crumb Goblin", "--assume", "default", "--db", db_url])
    assert refused.exit_code == 2 and "--assume is for Meikyu Kingdom cards" in refused.stderr


def test_print_set_meikyu_with_assumed_values_marks_them(db_url: str, tmp_path: Path) -> None:
    out = tmp_path / "meikyu.pdf"
    args = ["print", "set", "meikyu", "--assume", "default", "-o", str(out), "--images", str(tmp_path / "art")]
    result = runner.invoke(app, [*args, "--db", db_url])
    assert result.exit_code == 0, result.output
    text = _pdf_text(out)
    # The 16 catalogued lands (points) and the 42 character cards (Bravery, Wits) show assumed values; items,
    # Gotcha! and OPEN cards show none (only their counts are assumed).
    assert _marks(text, "ASSUMED") == 16 + 42
    assert "as many times as the profile 'default' assumes" in result.stderr


def test_print_set_meikyu_prints_the_copies_the_table_plays_around_a_real_count(db_url: str, tmp_path: Path) -> None:
    """An owner enters Warzard's real 3 copies (the profile assumed 2): the proxies are the 42 characters a
    table plays, the other classes sharing the rest, not 43."""
    sheet = tmp_path / "counts.csv"
    sheet.write_text("name,copies\nWarzard,3\n", encoding="utf-8")
    assert runner.invoke(app, ["catalog", "import", str(sheet), "--game", "meikyu", "--db", db_url]).exit_code == 0
    out = tmp_path / "meikyu.pdf"
    args = ["print", "set", "meikyu", "--assume", "default", "-o", str(out), "--images", str(tmp_path / "art")]
    result = runner.invoke(app, [*args, "--db", db_url])
    assert result.exit_code == 0, result.output
    assert _marks(_pdf_text(out), "ASSUMED") == 16 + 42
