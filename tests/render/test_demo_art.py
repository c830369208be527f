"""The demo cards' own art: one image per demo card, each credited on its face; a placeholder names its card."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from cardbase.catalog.loader import read_shipped
from cardbase.errors import UnreadableInput
from cardbase.names import file_slug
from cardbase.render.art import art_credit, check_image
from cardbase.render.face import ArtSlot, ImageOp, TextOp, compose
from cardbase.render.layout import layout_name
from cardbase.render.printing import FaceBuilder, open_cache
from cardbase.render.values import face_values

REPO = Path(__file__).resolve().parents[2]
ART = REPO / "card_images" / "mea"


def test_every_demo_card_has_its_own_art_and_credit() -> None:
    demo = read_shipped("mea_demo.json")
    credits = {row["file"]: row for row in csv.DictReader((ART / "credits.csv").open(encoding="utf-8"))}
    digests = set()
    for card in demo.cards:
        path = ART / f"{file_slug(card['name'])}.png"
        assert path.is_file(), card["name"]
        width, height = check_image(path)
        assert width >= 600 and abs(width / height - 53 / 36) < 0.01  # the art box's shape, ~300 ppi
        digests.add(path.read_bytes())
        credit = credits[path.name]["credit"]
        assert credit.startswith("art: ") and credit.endswith("CC BY 3.0"), credit
        assert "game-icons.net" in credits[path.name]["source"]
    assert len(digests) == len(demo.cards) == 72  # every card looks different
    assert set(credits) == {f"{file_slug(c['name'])}.png" for c in demo.cards}


def test_a_demo_face_shows_its_art_and_credits_it_in_the_footer(cards, tmp_path: Path) -> None:
    with open_cache(tmp_path, False) as cache:
        builder = FaceBuilder(REPO / "card_images", cache, (63.0, 88.0), 300, {})
        for name in ("Crème Golem", "Pocket Sand"):
            _key, face = builder.face(cards[name])
            assert len(face.art_boxes) == 1, name
            lines = " ".join(op.text for op in face.ops if isinstance(op, TextOp))
            assert "DEMO" in lines and "CC BY 3.0" in lines and "art:" in lines, lines
            assert face.smallest_text is not None and face.smallest_text >= 6.0  # the credit fits at 6 pt
    assert builder.missing == []


def test_a_card_without_art_has_a_placeholder_that_names_it(cards) -> None:
    card = cards["Selounticia"]
    face = compose(layout_name(card.game, card.type, card.name), face_values(card), (63.0, 88.0), ArtSlot(None))
    lines = [op.text for op in face.ops if isinstance(op, TextOp)]
    assert lines.count("Selounticia") == 2  # title bar and placeholder
    assert "MONSTER" not in lines and lines.count("Monster") == 1  # the type once, in the type bar
    assert not any(isinstance(op, ImageOp) for op in face.ops)


def test_a_long_name_on_a_placeholder_is_cut_to_the_box(cards) -> None:
    card = cards["Selounticia"]
    values = face_values(card) | {"name": "W" * 150}
    face = compose(layout_name("mea", "monster", ""), values, (63.0, 88.0), ArtSlot(None))
    cut = [op for op in face.ops if isinstance(op, TextOp) and op.text.endswith("…") and op.font == "sans-bold"]
    assert cut and all(op.x >= 0 and op.x < 63 for op in cut)


def test_credits_file_rules(tmp_path: Path) -> None:
    art = tmp_path / "x.png"
    assert art_credit(art) is None  # no credits file: no credit
    (tmp_path / "credits.csv").write_text("file,credit\nx.png,art: Someone\n", encoding="utf-8")
    assert art_credit(art) == "art: Someone"
    assert art_credit(tmp_path / "y.png") is None
    (tmp_path / "credits.csv").write_text('file,credit\nx.png,"line\nbreak"\n', encoding="utf-8")
    with pytest.raises(UnreadableInput, match=r"credits.csv: line 2: a credit is one line of at most 120"):
        art_credit(art)
    (tmp_path / "credits.csv").write_text("name,who\nx.png,a\n", encoding="utf-8")
    with pytest.raises(UnreadableInput, match="must name the columns 'file' and 'credit'"):
        art_credit(art)
    (tmp_path / "credits.csv").write_text("file,credit\n" + "x.png," + "a" * 121 + "\n", encoding="utf-8")
    with pytest.raises(UnreadableInput, match="at most 120"):
        art_credit(art)


def test_a_credits_file_naming_a_file_twice_is_refused_naming_both_lines(tmp_path: Path) -> None:
    """The last line won unseen: two credits for one file are two things the user wrote, one lost."""
    art = tmp_path / "x.png"
    (tmp_path / "credits.csv").write_text("file,credit\nx.png,art: A\ny.png,art: C\nx.png,art: B\n", encoding="utf-8")
    with pytest.raises(UnreadableInput, match=r"credits.csv: line 4: 'x.png' is credited on line 2 already"):
        art_credit(art)
    (tmp_path / "credits.csv").write_text("file,credit,credit\nx.png,art: A,art: B\n", encoding="utf-8")
    with pytest.raises(UnreadableInput, match=r"line 1: a second column 'credit'"):
        art_credit(art)
