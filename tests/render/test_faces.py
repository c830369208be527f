"""Card faces from layout data: honest values, the demo mark, fitting rules, every card kind."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from cardbase.db.models import Card
from cardbase.render import fonts
from cardbase.render.face import SMALL_PREFIX, ArtSlot, Face, PolyOp, RectOp, TextOp, compose
from cardbase.render.layout import LAYOUTS, fields_used, layout_name
from cardbase.render.units import CARD_SIZES, PT_PER_MM, TILE_SIZE, parse_size
from cardbase.render.values import face_values


def face_of(card, size=None) -> Face:
    """``card``'s face at ``size`` (default: poker, or the tile size for Méa's tiles)."""
    if size is None:
        size = parse_size(TILE_SIZE, CARD_SIZES) if card.type == "tile" else (63.0, 88.0)
    return compose(layout_name(card.game, card.type, card.name), face_values(card), size, ArtSlot(None))


def problems(face: Face) -> list[str]:
    """The face's warnings other than small type."""
    return [w for w in face.warnings if not w.startswith(SMALL_PREFIX)]


def texts(face: Face) -> list[str]:
    return [op.text for op in face.ops if isinstance(op, TextOp)]


def fake(**kw):
    base = dict(
        id="mea/test/x",
        game="mea",
        type="monster",
        set_code="test",
        source="file:mine.csv",
        name="Test",
        cost=1,
        attack=2,
        defence=3,
        text=None,
        description=None,
        level=None,
        points=None,
        developed_points=None,
        bravery=None,
        wits=None,
        land_name=None,
        rank=None,
        suit=None,
    )
    base.update(kw)
    return SimpleNamespace(**base)


def test_every_card_kind_has_its_layout(cards: dict[str, Card]) -> None:
    expect = {
        "Selounticia": "mea-monster",
        "Chemical Vial": "mea-assist",
        "Yellow Tile": "mea-tile-yellow",
        "Blue Tile": "mea-tile-blue",
        "Den of the Geister": "meikyu-land",
        "Bee": "meikyu-character",
        "Amulet": "meikyu-item",
        "Gotcha!": "meikyu-gotcha",
        "Refugee": "meikyu-open",
        "Seven of Hearts": "meio-card",
    }
    for name, layout in expect.items():
        c = cards[name]
        assert layout_name(c.game, c.type, c.name) == layout
    backs = {LAYOUTS[n].back for n in expect.values()}
    assert backs == {
        "mea-back",
        "mea-tile-blue",
        "mea-tile-yellow",
        "meikyu-land-back",
        "meikyu-kingdom-back",
        "meio-back",
    }
    assert LAYOUTS["meikyu-land-back"].background == "#e07a1f"  # orange
    assert LAYOUTS["meikyu-kingdom-back"].background == "#1f4b99"  # blue


def test_unknown_values_print_as_a_question_mark_never_a_number(cards: dict[str, Card]) -> None:
    selounticia = texts(face_of(cards["Selounticia"]))
    assert selounticia.count("?") == 4  # cost, attack, defence, and the rules text the rulebook does not give
    assert not any(t.isdigit() for t in selounticia)
    bee = texts(face_of(cards["Bee"]))
    assert bee.count("?") == 2 and "Bravery" in bee and "Wits" in bee
    land = face_of(cards["Den of the Geister"])
    assert "4" in texts(land) and texts(land).count("?") == 2  # level known; points, developed points not
    assert any("?\u00a0=\u00a0unknown" in t for t in texts(land))  # held together by no-break spaces
    golem = texts(face_of(cards["Crème Golem"]))
    assert "?" not in golem and {"2", "1", "4"} <= set(golem)


def test_demo_cards_carry_a_visible_demo_mark(cards: dict[str, Card]) -> None:
    demo = face_of(cards["Crème Golem"])
    assert "DEMO" in texts(demo)
    assert any(isinstance(op, RectOp) and op.fill == "#c62828" for op in demo.ops)
    assert "not a published card" in " ".join(texts(demo))
    assert "DEMO" not in texts(face_of(cards["Selounticia"]))


def test_open_cards_have_their_yellow_line(cards: dict[str, Card]) -> None:
    face = face_of(cards["Dungeon Storm"])
    assert any(isinstance(op, RectOp) and op.stroke == "#f5cf1d" and op.width >= 1 for op in face.ops)
    assert "OPEN · play it immediately" in texts(face)


def test_meio_cards_have_indices_and_the_right_number_of_pips(cards: dict[str, Card]) -> None:
    for rank, name in [(2, "Two"), (7, "Seven"), (10, "Ten")]:
        face = face_of(cards[f"{name} of Hearts"])
        hearts = [op for op in face.ops if isinstance(op, PolyOp) and op.fill == "#c8102e"]
        assert len(hearts) == rank + 2  # the pips and the two corner indices
        assert texts(face).count(str(rank)) == 2
    spades = face_of(cards["Ace of Spades"])
    assert texts(spades).count("A") == 2
    # the lower index is upside down
    assert sorted(op.angle for op in spades.ops if isinstance(op, TextOp)) == [0, 180]
    queen = texts(face_of(cards["Queen of Clubs"]))
    assert queen.count("Q") == 3


def _text_box(op: TextOp) -> tuple[float, float, float, float]:
    w = fonts.text_width(op.font, op.text, op.size) / PT_PER_MM
    ascent, descent = (v * op.size / PT_PER_MM for v in fonts.metrics(op.font))
    if op.angle == 180:
        return op.x - w, op.y - descent, op.x, op.y + ascent
    return op.x, op.y - ascent, op.x + w, op.y + descent


@pytest.mark.parametrize("size", [(63.0, 88.0), (57.15, 88.9), (41.0, 63.0)])
def test_every_catalog_card_stays_inside_the_card(cards: dict[str, Card], size: tuple[float, float]) -> None:
    for card in cards.values():
        face = face_of(card, size)
        for op in face.ops:
            if isinstance(op, TextOp):
                left, top, right, bottom = _text_box(op)
                assert left >= 0 and top >= 0 and right <= size[0] + 0.01 and bottom <= size[1], (card.name, op)
            elif isinstance(op, PolyOp):
                assert all(0 <= x <= size[0] and 0 <= y <= size[1] for x, y in op.points), card.name


def test_every_catalog_card_fits_its_boxes_at_poker_size(cards: dict[str, Card]) -> None:
    small = 0
    for card in cards.values():
        face = face_of(card)
        assert problems(face) == [], card.name
        assert not any(t.endswith("…") for t in texts(face)), card.name
        under = face.smallest_text is not None and face.smallest_text < 6
        assert any(w.startswith(SMALL_PREFIX) for w in face.warnings) == under, card.name
        small += under
    assert small == 0  # at poker size every card's text fits its box at 6 pt or more (issue 28: Tile Titan was 5.58)


def test_text_fills_its_whole_box_before_the_smallest_type_shrinks(cards: dict[str, Card], tmp_path: Path) -> None:
    """Issue 28: Tile Titan's rules and flavour text shrank together to 5.58 pt with room left in the box;
    the largest type comes down first, so both fit at 6.3 pt, and the block fills the box."""
    from cardbase.render.layout import Text

    titan = cards["Tile Titan"]
    face = face_of(titan)
    assert face.smallest_text is not None and face.smallest_text >= 6.0
    assert not [w for w in face.warnings if w.startswith(SMALL_PREFIX)]
    box = next(e.box for e in LAYOUTS["mea-monster"].elements if isinstance(e, Text) and "{text}" in e.paras[0].content)
    body = [op for op in face.ops if isinstance(op, TextOp) and box.y <= op.y <= box.y + box.h + 1]
    assert body and max(op.y for op in body) > box.y + box.h - 3  # the last line near the box's foot
    # The PDF (ReportLab) sets the same sizes: every Tf of the face's form is 6 pt or more.
    from pypdf import PdfReader
    from pypdf.generic import ContentStream

    from cardbase.render.printing import render_card

    out = tmp_path / "titan.pdf"
    render_card(titan, out, images=tmp_path / "art", use_cache=False)
    reader = PdfReader(out)
    sizes = []
    for ref in reader.pages[0]["/Resources"]["/XObject"].values():
        form = ref.get_object()
        if form["/Subtype"] == "/Form":
            sizes += [float(ops[1]) for ops, op in ContentStream(form, reader).operations if op == b"Tf"]
    assert sizes and min(sizes) >= 6.0


def test_long_text_shrinks_then_is_cut_short_with_a_warning() -> None:
    medium = fake(text="When summoned: draw 1 card and flip 1 enemy tile. " * 5)
    face = face_of(medium)
    body = [op for op in face.ops if isinstance(op, TextOp) and op.text.startswith(("When", "draw", "flip"))]
    assert problems(face) == []
    smallest = min(op.size for op in body)
    assert 5.0 <= smallest < 7.6  # shrunk, not below the minimum
    assert (smallest < 6) == any(w.startswith(SMALL_PREFIX) for w in face.warnings)
    huge = fake(text="An extremely long ability. " * 80)
    face = face_of(huge)
    assert len(problems(face)) == 1 and "does not fit its box even at 5 pt" in problems(face)[0]
    assert face.warnings[-1] == f"{SMALL_PREFIX}Test: text as small as 5.00 pt"
    assert any(t.endswith("…") for t in texts(face))


def test_a_long_name_shrinks_to_one_line_and_a_very_long_one_wraps() -> None:
    face = face_of(fake(name="Grand Archduke Bartholomew"))
    name = next(op for op in face.ops if isinstance(op, TextOp) and op.text.startswith("Grand"))
    assert 6 <= name.size < 10 and name.text == "Grand Archduke Bartholomew"
    face = face_of(fake(name="Grand Archduke Bartholomew of the Sixteen Puddles"))
    lines = [op for op in face.ops if isinstance(op, TextOp) and op.y < 13]
    assert " ".join(op.text for op in lines if op.text not in ("1",)) == (
        "Grand Archduke Bartholomew of the Sixteen Puddles"
    )
    assert face.warnings == []


def test_faces_round_trip_through_json(cards: dict[str, Card]) -> None:
    for name in ("Crème Golem", "Den of the Geister", "King of Hearts", "Bee"):
        face = face_of(cards[name])
        assert Face.from_json(face.to_json()) == face


def test_backs_read_only_what_they_need() -> None:
    assert fields_used("mea-back") == frozenset()
    assert fields_used("meio-back") == frozenset()
    assert {"footer", "demo"} <= fields_used("mea-tile-blue")
    assert {"name", "cost", "attack", "defence", "text", "description"} <= fields_used("mea-monster")


def test_fonts_have_the_glyphs_the_games_need() -> None:
    from PIL import ImageFont

    font = ImageFont.truetype(str(fonts.font_path("sans")), 40)
    notdef = font.getmask("\uffff").getbbox()
    for ch in "éïè♠♥♦♣·…×":
        assert font.getmask(ch).getbbox() != notdef, ch
