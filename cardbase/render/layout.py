"""Card faces described once, as data: boxes in mm on the card, fonts, colours and fitting rules.

A ``Layout`` is a list of elements drawn in order on a card of its ``reference`` size (63×88 mm
for cards, 130×92 mm for Méa's tiles); on another card size the face is laid out again with one
uniform scale and reflow (see ``cardbase.render.face``): circles stay circles, grids stay square.

Safe zone: nothing that matters is drawn within ``SAFE_ZONE`` mm of the trim, so a cut that is
off by a little never shows. Card backs are point-symmetric (the same turned 180°), so a card
turned the other way up in a deck does not show.
Boxes are measured from the card's top-left trim corner, y down. An element with
``rotate=180`` is laid out as if the card were turned upside down (Meikyu's land half,
Meio's lower index), so its box is measured from the opposite corner.

Element content is a template over a card's face values (``"{cost}"``, ``"{footer}"``):
an unknown value prints as "?" (see ``cardbase.render.values``). Colours and shape names may
be templates too (``"{suit_colour}"``). ``when`` names a face value that must be true (or
non-empty) for the element to be drawn.

Labels that cannot be lost: a ``Mark`` is the DEMO tag of a card made for cardbase, or the
ASSUMED tag of a face that shows a value from an assumption profile. A layout may place a mark
(its box); it cannot remove one: :func:`with_marks`, which both renderers' faces go through
(``cardbase.render.face.compose``), adds every mark the layout does not place, at the top right
of the card inside the safe zone. The mark's words and colours are fixed.

Text fitting: a ``Text`` element's paragraphs wrap (if ``wrap``) within the box and shrink,
the largest type first (the rules text comes down to the flavour text's size before both shrink
together), until they fill the box, down to ``min_size`` points; so the smallest type on a face
is as large as its box allows. If they still do not fit they are cut short with "…" and the face
carries a warning saying so.

Bump ``LAYOUT_VERSION`` when the meaning of the data or of ``compose`` changes; the face
cache keys on it and on the layouts' data itself.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from functools import cache
from typing import Literal

from cardbase.errors import Said, quoted

LAYOUT_VERSION = 11  # 8: the safe zone and line widths at every card size; 9: right-to-left text in visual order;
# 10: a box inside the safe zone keeps its distance on paper from the cut at every card size; 11: a
# right-to-left paragraph in a left-aligned (the default) box starts at the right
REFERENCE: tuple[float, float] = (63.0, 88.0)
TILE_REFERENCE: tuple[float, float] = (130.0, 92.0)
SAFE_ZONE = 3.0  # mm inside the trim

Align = Literal["left", "centre", "right"]
VAlign = Literal["top", "middle", "bottom"]


@dataclass(frozen=True, slots=True)
class Box:
    """A rectangle on the reference card, in mm from the top-left trim corner."""

    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True, slots=True)
class Para:
    """One paragraph of a text element: a template and how it is set."""

    content: str
    font: str = "sans"
    size: float = 8.0
    colour: str = "#1a1a1a"


@dataclass(frozen=True, slots=True)
class Text:
    box: Box
    paras: tuple[Para, ...]
    align: Align = "left"
    valign: VAlign = "top"
    wrap: bool = False
    min_size: float | None = None
    leading: float = 1.18
    when: str | None = None
    rotate: int = 0


@dataclass(frozen=True, slots=True)
class Rect:
    box: Box
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.3
    radius: float = 0.0
    when: str | None = None
    rotate: int = 0


@dataclass(frozen=True, slots=True)
class Ellipse:
    box: Box
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.3
    when: str | None = None
    rotate: int = 0


@dataclass(frozen=True, slots=True)
class Shape:
    """A named shape from ``cardbase.render.shapes`` fitted in ``box``."""

    name: str
    box: Box
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.3
    keep_aspect: bool = True
    when: str | None = None
    rotate: int = 0


@dataclass(frozen=True, slots=True)
class Art:
    """The card's art: an image from ``card_images/`` cropped to fill the box, or a placeholder of
    the card's ``kind`` (see ``cardbase.render.face.PLACEHOLDERS``); transparent art shows ``matte``."""

    box: Box
    frame: str | None = "#3a3a3a"
    when: str | None = None
    rotate: int = 0
    kind: str = "card"
    matte: str = "#ffffff"


@dataclass(frozen=True, slots=True)
class Pips:
    """A playing card's centre: pips for A–10, a framed court for J, Q, K (drawn suit shapes)."""

    box: Box
    when: str | None = None
    rotate: int = 0


@dataclass(frozen=True, slots=True)
class Mark:
    """A label drawn on every card that carries it (see :data:`MARKS`), whatever the layout says:
    ``kind`` is ``demo`` (a demo-set card) or ``assumed`` (a face showing an assumed value)."""

    kind: Literal["demo", "assumed"]
    box: Box
    rotate: int = 0
    when: str | None = None


Element = Text | Rect | Ellipse | Shape | Art | Pips | Mark

MARKS: dict[str, tuple[str, str, float]] = {
    "demo": ("DEMO", "#c62828", 12.5),
    "assumed": ("ASSUMED", "#8a4b00", 17.5),
}
"""Each mark's words, colour and width in mm (4.8 mm high) where the layout does not place it."""
MARK_HEIGHT = 4.8


@dataclass(frozen=True, slots=True)
class Layout:
    """One card kind's face (or back): a background that fills the bleed, then elements in order."""

    name: str
    title: str
    background: str
    elements: tuple[Element, ...]
    back: str | None = None
    reference: tuple[float, float] = REFERENCE
    notes: str = field(default="", compare=False)

    @property
    def has_art(self) -> bool:
        return any(isinstance(e, Art) for e in self.elements)


def text(
    box: Box,
    content: str,
    font: str = "sans",
    size: float = 8.0,
    colour: str = "#1a1a1a",
    **style: object,
) -> Text:
    """A one-paragraph text element."""
    return Text(box, (Para(content, font, size, colour),), **style)  # type: ignore[arg-type]


# --- shared pieces -------------------------------------------------------------------------

WHITE = "#ffffff"
INK = "#1a1a1a"


def _demo_mark(x: float, y: float) -> tuple[Element, ...]:
    """The red "DEMO" tag of demo-set cards, placed at ``x, y``."""
    return (Mark("demo", Box(x, y, MARKS["demo"][2], MARK_HEIGHT)),)


def _marks(right: float, y: float) -> tuple[Element, ...]:
    """The DEMO tag at ``y`` and the ASSUMED tag under it, their right edges at ``right``."""
    return (
        Mark("demo", Box(right - MARKS["demo"][2], y, MARKS["demo"][2], MARK_HEIGHT)),
        Mark("assumed", Box(right - MARKS["assumed"][2], y + MARK_HEIGHT + 0.8, MARKS["assumed"][2], MARK_HEIGHT)),
    )


def _framed_panel(frame_light: str) -> tuple[Element, ...]:
    return (Rect(Box(3, 3, 57, 82), fill=frame_light, radius=2.2),)


def _footer(box: Box, colour: str) -> Text:
    return text(box, "{footer}", "sans", 6.0, colour, align="centre", valign="middle", wrap=True, min_size=4.0)


def _both_ways(element: Text) -> tuple[Text, Text]:
    """``element`` and its copy turned 180° about the card's centre (for point-symmetric backs)."""
    from dataclasses import replace

    return element, replace(element, rotate=180)


# --- Méa -----------------------------------------------------------------------------------

_MEA_PANEL = "#f7efdd"
_MEA_BAR = "#ecd9b0"
_MEA_INK = "#3b2418"


def _mea_card(name: str, title: str, frame: str, stats: bool) -> Layout:
    body_h = 17.0 if stats else 22.0
    elements: list[Element] = [
        *_framed_panel(_MEA_PANEL),
        Rect(Box(13.5, 3.5, 45.5, 8.5), fill=_MEA_BAR, radius=1.5),
        Ellipse(Box(3.6, 3.6, 9.2, 9.2), fill="#2b5ea8", stroke=WHITE, width=0.5),
        text(Box(3.6, 3.6, 9.2, 9.2), "{cost}", "sans-bold", 12, WHITE, align="centre", valign="middle", min_size=7),
        text(Box(14.8, 3.5, 43.2, 8.5), "{name}", "serif-bold", 10, _MEA_INK, valign="middle", min_size=6),
        Art(Box(5, 13.5, 53, 36), frame="#5a4632", kind=name.removeprefix("mea-"), matte=_MEA_PANEL),
        *_demo_mark(44.5, 14.6),
        Rect(Box(5, 50.5, 53, 5.2), fill=_MEA_BAR, radius=1.0),
        text(Box(6.5, 50.5, 50, 5.2), "{type_label}", "sans-bold", 7, _MEA_INK, valign="middle"),
        Text(
            Box(6, 57, 51, body_h),
            (Para("{text}", "sans", 7.6, INK), Para("{description}", "serif-italic", 6.8, "#5b4a3a")),
            wrap=True,
            min_size=5.0,
        ),
    ]
    if stats:
        elements += [
            Ellipse(Box(3.8, 74.0, 10.4, 10.4), fill="#a8322a", stroke=WHITE, width=0.5),
            Shape("sword", Box(5.5, 75.3, 7.0, 7.8), fill="#c9625a"),
            text(
                Box(3.8, 74.0, 10.4, 10.4),
                "{attack}",
                "sans-bold",
                12.5,
                WHITE,
                align="centre",
                valign="middle",
                min_size=7,
            ),
            Ellipse(Box(48.8, 74.0, 10.4, 10.4), fill="#35597f", stroke=WHITE, width=0.5),
            Shape("shield", Box(50.5, 75.6, 7.0, 7.2), fill="#56799e"),
            text(
                Box(48.8, 74.0, 10.4, 10.4),
                "{defence}",
                "sans-bold",
                12.5,
                WHITE,
                align="centre",
                valign="middle",
                min_size=7,
            ),
            _footer(Box(15.5, 75.0, 32, 9.0), "#6d5c4a"),  # three lines: a footer may carry an art credit
        ]
    else:
        elements.append(_footer(Box(6, 79.0, 51, 5.5), "#6d5c4a"))
    return Layout(name, title, frame, tuple(elements), back="mea-back")


def _mea_tile(name: str, title: str, label: str, colour: str, ink: str, line: str, back: str) -> Layout:
    """A tile big enough for the rulebook's "maximum of 2 monsters on 1 tile": two card spots."""
    halves: list[Element] = []
    for x in (3.5, 66.5):
        halves += [
            Rect(Box(x, 3.5, 60, 85), stroke=line, width=0.5, radius=3),
            text(Box(x, 10, 60, 12), "Méa", "serif-bold", 22, ink, align="centre", valign="middle"),
            text(Box(x, 22, 60, 5), "The Tiled Kingdom", "serif-italic", 7.5, ink, align="centre", valign="middle"),
            text(Box(x, 39, 60, 10), label, "sans-bold", 14, ink, align="centre", valign="middle", min_size=7),
            text(Box(x, 50, 60, 5), "a monster here", "sans", 7, ink, align="centre", valign="middle"),
        ]
    return Layout(
        name,
        title,
        colour,
        (
            *halves,
            *_demo_mark(58.75, 64),
            _footer(Box(10, 77, 110, 6), ink),
        ),
        back=back,
        reference=TILE_REFERENCE,
        notes="Two card spots: the rulebook allows 'a maximum of 2 monsters on 1 tile'.",
    )


_MEA_BACK_CELLS: tuple[Element, ...] = tuple(
    Rect(
        Box(12 + c * 13.5, 24.5 + r * 13.5, 12, 12),
        fill="#f3c623" if (r + c) % 2 else "#2f6db5",  # the opening board: 4 yellow, 5 blue
        stroke="#f3e6b4",
        width=0.4,
        radius=1.2,
    )
    for r in range(3)
    for c in range(3)
)

# --- Meikyu --------------------------------------------------------------------------------

_LAND_FRAME = "#c1611a"
_LAND_PANEL = "#fbf1e2"
_LAND_INK = "#3d1f0a"
_KINGDOM_INK = "#14284a"


def _meikyu_land() -> Layout:
    r = 180  # the land half: read when the card is turned upside down into a kingdom
    return Layout(
        "meikyu-land",
        "Meikyu card (land)",
        _LAND_FRAME,
        (
            *_framed_panel(_LAND_PANEL),
            Ellipse(Box(4, 4, 11.5, 11.5), fill="#7a2e0e", stroke=WHITE, width=0.5),
            text(Box(4, 4.6, 11.5, 7), "{level}", "sans-bold", 13, WHITE, align="centre", valign="middle", min_size=7),
            text(Box(4.5, 10.6, 10.5, 3.2), "QUEST", "sans-bold", 6, WHITE, align="centre", valign="middle"),
            text(
                Box(17, 3.8, 41.5, 12), "{name}", "serif-bold", 9.5, _LAND_INK, valign="middle", wrap=True, min_size=6
            ),
            Art(Box(5, 16.8, 53, 21.2), frame="#7a4a26", kind="land", matte=_LAND_PANEL),
            *_marks(57.0, 17.8),
            _footer(Box(5, 38.3, 53, 5.2), "#7a4a26"),
            Rect(Box(3, 43.7, 57, 0.6), fill=_LAND_FRAME),
            text(
                Box(5, 4.5, 53, 7),
                "{land_name}",
                "serif-bold",
                10,
                _LAND_INK,
                align="centre",
                valign="middle",
                min_size=6,
                rotate=r,
            ),
            Rect(Box(5, 12.5, 25.5, 8), fill="#f3d9b8", radius=1.2, rotate=r),
            text(Box(6.2, 12.5, 13, 8), "Points", "sans", 6.2, _LAND_INK, valign="middle", rotate=r),
            text(
                Box(17, 12.5, 12.3, 8),
                "{points}",
                "sans-bold",
                12,
                _LAND_INK,
                align="right",
                valign="middle",
                min_size=7,
                rotate=r,
            ),
            Rect(Box(32.5, 12.5, 25.5, 8), fill="#f3d9b8", radius=1.2, rotate=r),
            text(Box(33.7, 12.5, 14, 8), "Developed", "sans", 6.2, _LAND_INK, valign="middle", rotate=r),
            text(
                Box(45, 12.5, 11.8, 8),
                "{developed_points}",
                "sans-bold",
                12,
                _LAND_INK,
                align="right",
                valign="middle",
                min_size=7,
                rotate=r,
            ),
            text(Box(5.5, 22, 52, 18.5), "{text}", "sans", 7.6, INK, wrap=True, min_size=4.8, rotate=r),
        ),
        back="meikyu-land-back",
        notes="The upper half is the dungeon room; the lower half, upside down, is the land it becomes "
        "(the rulebook: the winner 'turns it upside down, and adds this land to her kingdom').",
    )


def _kingdom_head(panel: str, frame_ink: str) -> tuple[Element, ...]:
    return (
        *_framed_panel(panel),
        text(Box(5, 3.5, 53, 9), "{name}", "serif-bold", 12, frame_ink, align="centre", valign="middle", min_size=7),
    )


def _meikyu_character() -> Layout:
    frame = "#27457a"
    block = "#ffffff"
    return Layout(
        "meikyu-character",
        "Kingdom card: character",
        frame,
        (
            *_kingdom_head("#eef2f8", _KINGDOM_INK),
            Art(Box(5, 13, 53, 40), frame="#27457a", kind="character", matte="#eef2f8"),
            *_marks(57.0, 14.1),
            Rect(Box(5, 54, 53, 5), fill="#d5deec", radius=1),
            text(Box(6.5, 54, 50, 5), "{type_label}", "sans-bold", 7, _KINGDOM_INK, valign="middle"),
            Rect(Box(5, 60.5, 25.5, 17.5), fill=block, stroke=frame, width=0.3, radius=1.5),
            Shape("sword", Box(6.8, 62, 6, 14.5), fill="#8a9bb0", stroke="#2b2b2b", width=0.2),
            text(
                Box(13.5, 61, 16, 11.5), "{bravery}", "sans-bold", 18, INK, align="centre", valign="middle", min_size=9
            ),
            text(Box(13.5, 72, 16, 5), "Bravery", "sans", 6, "#44536a", align="centre", valign="middle"),
            Rect(Box(32.5, 60.5, 25.5, 17.5), fill=block, stroke=frame, width=0.3, radius=1.5),
            Shape("seal", Box(33.8, 63.2, 11.5, 11.5), fill="#b3261e", stroke="#7d1a14", width=0.2),
            Shape("star", Box(36.6, 66.0, 5.9, 5.9), fill="#f2d7d5"),
            text(Box(45, 61, 12.5, 11.5), "{wits}", "sans-bold", 18, INK, align="centre", valign="middle", min_size=9),
            text(Box(45, 72, 12.5, 5), "Wits", "sans", 6, "#44536a", align="centre", valign="middle"),
            _footer(Box(5, 79, 53, 5.5), "#44536a"),
        ),
        back="meikyu-kingdom-back",
    )


def _meikyu_text_card(
    name: str, title: str, frame: str, panel: str, bar: str, ink: str, extra: tuple[Element, ...], kind: str
) -> Layout:
    return Layout(
        name,
        title,
        frame,
        (
            *_kingdom_head(panel, ink),
            Art(Box(5, 13, 53, 34), frame=frame, kind=kind, matte=panel),
            *_marks(57.0, 14.1),
            Rect(Box(5, 48, 53, 5.4), fill=bar, radius=1),
            text(Box(6.5, 48, 50, 5.4), "{type_label}", "sans-bold", 7, ink, valign="middle"),
            text(Box(6, 55, 51, 24), "{text}", "sans", 7.8, INK, wrap=True, min_size=5.0),
            _footer(Box(5, 79, 53, 5.5), ink),
            *extra,
        ),
        back="meikyu-kingdom-back",
    )


_OPEN_YELLOW = "#f5cf1d"

# --- Meio ----------------------------------------------------------------------------------


def _meio_card() -> Layout:
    index: list[Element] = []
    for rot in (0, 180):
        index += [
            text(
                Box(3.2, 3.2, 9.2, 8.0),
                "{rank_label}",
                "sans-bold",
                15,
                "{suit_colour}",
                align="centre",
                valign="middle",
                min_size=9,
                rotate=rot,
            ),
            Shape("{suit_shape}", Box(4.8, 11.6, 6.0, 6.4), fill="{suit_colour}", rotate=rot),
        ]
    return Layout(
        "meio-card",
        "Meio playing card",
        WHITE,
        (
            Rect(Box(3.2, 3.2, 56.6, 81.6), stroke="#bdbdbd", width=0.25, radius=3.0),
            *index,
            Pips(Box(13.5, 10.5, 36, 67)),
            *_demo_mark(25.25, 80.5),
        ),
        back="meio-back",
    )


# --- the layouts ---------------------------------------------------------------------------

LAYOUTS: dict[str, Layout] = {
    layout.name: layout
    for layout in (
        _mea_card("mea-monster", "Méa monster", "#7b2d26", stats=True),
        _mea_card("mea-assist", "Méa assist", "#2d6a4f", stats=False),
        _mea_tile(
            "mea-tile-yellow", "Méa tile (yellow)", "Yellow tile", "#f3c623", "#3b2a00", "#8a6d00", back="mea-tile-blue"
        ),
        _mea_tile("mea-tile-blue", "Méa tile (blue)", "Blue tile", "#2f6db5", WHITE, "#cfe0f5", back="mea-tile-yellow"),
        Layout(
            "mea-back",
            "Méa card back",
            "#3a2d4f",
            (
                Rect(Box(3.5, 3.5, 56, 81), stroke="#d8c690", width=0.6, radius=2.5),
                *_both_ways(
                    text(Box(3.5, 6, 56, 11), "Méa", "serif-bold", 22, "#f3e6b4", align="centre", valign="middle")
                ),
                *_both_ways(
                    text(
                        Box(3.5, 16.5, 56, 5),
                        "The Tiled Kingdom",
                        "serif-italic",
                        7.5,
                        "#f3e6b4",
                        align="centre",
                        valign="middle",
                    )
                ),
                *_MEA_BACK_CELLS,
            ),
        ),
        _meikyu_land(),
        _meikyu_character(),
        _meikyu_text_card("meikyu-item", "Kingdom card: item", "#6d4c25", "#f8f1e6", "#ead9bf", "#3d2a12", (), "item"),
        _meikyu_text_card(
            "meikyu-gotcha",
            "Kingdom card: Gotcha! (aggression)",
            "#9e2424",
            "#fbeceb",
            "#f1c9c6",
            "#4a0f0f",
            (Shape("star", Box(49.5, 4.2, 7.5, 7.5), fill="#9e2424"),),
            "gotcha",
        ),
        _meikyu_text_card(
            "meikyu-open",
            "Kingdom card: OPEN (yellow line)",
            "#27457a",
            "#fffbea",
            _OPEN_YELLOW,
            "#14284a",
            (Rect(Box(3.8, 3.8, 55.4, 80.4), stroke=_OPEN_YELLOW, width=1.6, radius=2.4),),
            "open",
        ),
        Layout(
            "meikyu-kingdom-back",
            "Meikyu Kingdom card back (blue)",
            "#1f4b99",
            (
                Rect(Box(3.5, 3.5, 56, 81), stroke=WHITE, width=0.6, radius=2.5),
                *_both_ways(
                    text(
                        Box(3.5, 8, 56, 8),
                        "Meikyu Kingdom",
                        "serif-italic",
                        9,
                        "#cfe0ff",
                        align="centre",
                        valign="middle",
                    )
                ),
                *_both_ways(
                    text(Box(3.5, 16, 56, 10), "Kingdom", "serif-bold", 17, WHITE, align="centre", valign="middle")
                ),
                Ellipse(Box(16.5, 29, 30, 30), fill="#f3d36b", stroke="#8a6d1a", width=0.4),
                Shape("diamond", Box(21.5, 34, 20, 20), fill="#1f4b99"),
            ),
        ),
        Layout(
            "meikyu-land-back",
            "Meikyu card back (orange)",
            "#e07a1f",
            (
                Rect(Box(3.5, 3.5, 56, 81), stroke=WHITE, width=0.6, radius=2.5),
                *_both_ways(
                    text(Box(3.5, 7, 56, 10), "Meikyu", "serif-bold", 17, WHITE, align="centre", valign="middle")
                ),
                *_both_ways(
                    text(
                        Box(3.5, 16, 56, 6), "Dungeon · Land", "serif-italic", 8, WHITE, align="centre", valign="middle"
                    )
                ),
                Shape("maze", Box(13.5, 26, 36, 36), stroke="#7a3308", width=1.2),
            ),
        ),
        _meio_card(),
        Layout(
            "meio-back",
            "Meio card back",
            "#b3202a",
            (
                Rect(Box(3.4, 3.4, 56.2, 81.2), stroke=WHITE, width=0.8, radius=2.5),
                Shape("lattice", Box(5.5, 5.5, 52, 77), fill="#cf4a53", keep_aspect=False),
                Ellipse(Box(14, 31, 35, 26), fill="#b3202a", stroke=WHITE, width=0.6),
                *_both_ways(
                    text(Box(14, 32, 35, 12), "Meio", "serif-bold", 15, WHITE, align="centre", valign="middle")
                ),
            ),
        ),
    )
}

# (game, type) → layout name; Méa tiles are chosen by colour.
KIND_LAYOUTS: dict[tuple[str, str], str] = {
    ("mea", "monster"): "mea-monster",
    ("mea", "assist"): "mea-assist",
    ("mea", "tile"): "mea-tile-yellow",
    ("meikyu", "land"): "meikyu-land",
    ("meikyu", "character"): "meikyu-character",
    ("meikyu", "item"): "meikyu-item",
    ("meikyu", "aggression"): "meikyu-gotcha",
    ("meikyu", "open"): "meikyu-open",
    ("meio", "playing card"): "meio-card",
}


def layout_name(game: str, type_: str, name: str) -> str:
    """The layout a card is drawn with."""
    if (game, type_) == ("mea", "tile") and "blue" in name.lower():
        return "mea-tile-blue"
    try:
        return KIND_LAYOUTS[(game, type_)]
    except KeyError:
        raise ValueError(f"no layout for {game} cards of type {quoted(type_)}") from None


def no_art_note(game: str, type_: str, name: str) -> str | None:
    """What to tell whoever gives art to a card whose layout draws none (Meio's playing cards: pips),
    or None when its layout has an art box."""
    try:
        layout = LAYOUTS[layout_name(game, type_, name)]
    except ValueError:
        return None
    if layout.has_art:
        return None
    kept = f"the {layout.title} layout draws no art: it is kept for a layout file with an art box"
    return Said(
        f"{kept} (cardbase print … --layout FILE, replacing {layout.name})",
        f"{kept}, which printing from the command line can be given in place of {layout.name}",
    )


@cache
def fingerprint(name: str) -> str:
    """A digest of layout ``name``'s data and ``LAYOUT_VERSION``: part of every face's cache key."""
    return hashlib.sha256(f"{LAYOUT_VERSION}:{LAYOUTS[name]!r}".encode()).hexdigest()[:16]


_FIELD = re.compile(r"\{([a-z_]+)\}")


@cache
def with_marks(layout: Layout) -> Layout:
    """``layout`` with every mark of :data:`MARKS` it does not place added, at the top right of
    the card inside the safe zone, one under the other: no layout can leave a mark out."""
    placed = {el.kind for el in layout.elements if isinstance(el, Mark)}
    missing = [kind for kind in MARKS if kind not in placed]
    if not missing:
        return layout
    right = layout.reference[0] - SAFE_ZONE - 0.5
    added: list[Element] = []
    y = SAFE_ZONE + 0.5
    for kind in missing:
        width = MARKS[kind][2]
        added.append(Mark(kind, Box(right - width, y, width, MARK_HEIGHT)))  # type: ignore[arg-type]
        y += MARK_HEIGHT + 0.8
    return Layout(
        layout.name, layout.title, layout.background, (*layout.elements, *added), layout.back, layout.reference
    )


def shown_fields(layout: Layout) -> frozenset[str]:
    """The card values ``layout`` shows (its templates), without the flags that only decide."""
    return _fields(layout, flags=False)


@cache
def fields_used(name: str) -> frozenset[str]:
    """The face values layout ``name`` reads (templates and ``when`` flags)."""
    return _fields(LAYOUTS[name], flags=True)


def _fields(layout: Layout, flags: bool) -> frozenset[str]:
    used: set[str] = set()
    for el in layout.elements:
        if el.when and flags:
            used.add(el.when)
        if isinstance(el, Mark):
            if flags:  # a back that is a face (a tile's other side) carries the marks its layout places
                used.add(el.kind)
            continue
        strings = [getattr(el, f, None) for f in ("name", "fill", "stroke")]
        if isinstance(el, Text):
            strings += [p.content for p in el.paras] + [p.colour for p in el.paras]
        if isinstance(el, Pips):
            used |= {"rank", "suit_shape", "suit_colour"}
        if isinstance(el, Art):
            used.add("name")
        for value in strings:
            if isinstance(value, str):
                used.update(_FIELD.findall(value))
    return frozenset(used)
