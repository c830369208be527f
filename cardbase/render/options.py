"""Sheet options as one model: every print/render option, as the user wrote it, with its bound.

``SheetOptions`` holds the options as typed on the command line (lengths as strings such as
``"3mm"``, parsed by ``cardbase.render.units``); ``spec()`` checks every one against its range
and returns the ``SheetSpec`` the imposition uses. Each bound has a message naming the option
and the bound, so ``--dpi 2400`` on a huge card is refused before any memory is taken.
"""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Literal

from cardbase.errors import UsageError, number_text, quoted
from cardbase.render.sheet import FLIPS, SheetSpec
from cardbase.render.units import CARD_SIZES, GAME_CARD_SIZES, format_mm, parse_length, parse_size

BackOrder = Literal["after", "interleave"]
BACK_ORDERS: tuple[str, ...] = ("after", "interleave")
BLEED_FILLS: tuple[str, ...] = ("frame", "art")

# Bounds: (least, most) for every numeric option.
DPI_RANGE = (30, 2400)
COPIES_RANGE = (1, 100)
SCALE_RANGE = (90.0, 110.0)  # percent the printer's 100 mm bar measured
BACK_OFFSET_MAX = 10.0  # mm, each way
BLEED_MAX = 10.0
GAP_MAX = 20.0
MARGIN_MAX = 50.0
PRINTER_MARGIN_MAX = 20.0
MAX_MEGAPIXELS = 60.0  # largest raster one card (or one art box) may take at the chosen --dpi


def _within(value: float, bounds: tuple[float, float], option: str, unit: str = "") -> float:
    low, high = bounds
    if not low <= value <= high:
        span = f"{number_text(low)}{unit} to {number_text(high)}{unit}"
        raise UsageError(f"{option} {number_text(value)}{unit} is out of range: use {span}")
    return value


def _length(text: str, option: str, most: float) -> float:
    value = parse_length(text, option)
    if value > most:
        raise UsageError(f"{option} {text} is out of range: at most {format_mm(most)} mm")
    return value


def parse_offset(text: str, option: str = "--back-offset") -> tuple[float, float]:
    """``"X,Y"`` in mm (units allowed: ``"0.5mm,-1mm"``), each within ±``BACK_OFFSET_MAX``."""
    parts = text.split(",")
    if len(parts) != 2:
        raise UsageError(f"bad {option} {quoted(text)}: write X,Y in mm, e.g. 0.5,-1")
    out: list[float] = []
    for part in parts:
        part = part.strip()
        sign = -1.0 if part.startswith("-") else 1.0
        value = sign * parse_length(part[1:] if part[:1] in ("+", "-") else part, option)  # one sign at most
        if abs(value) > BACK_OFFSET_MAX:
            raise UsageError(f"{option} {text} is out of range: each of X and Y within ±{BACK_OFFSET_MAX:g} mm")
        out.append(value)
    return out[0], out[1]


def check_pixels(width_mm: float, height_mm: float, dpi: int, what: str) -> None:
    """Refuse a raster of ``width_mm``×``height_mm`` at ``dpi`` over ``MAX_MEGAPIXELS``."""
    megapixels = (width_mm * dpi / 25.4) * (height_mm * dpi / 25.4) / 1e6
    if megapixels > MAX_MEGAPIXELS:
        most = int(25.4 * (MAX_MEGAPIXELS * 1e6 / (width_mm * height_mm)) ** 0.5)
        raise UsageError(
            f"--dpi {dpi} is too high for {what} of {format_mm(width_mm)}×{format_mm(height_mm)} mm: "
            f"{megapixels:,.0f} megapixels, over the bound of {MAX_MEGAPIXELS:g}; use --dpi {most} or less"
        )


# Options that belong to one print, not to the printer, so the registration page does not repeat them.
_PER_PRINT = (
    "copies",
    "one_per_page",
    "split_backs",
    "backs",
    "back_order",
    "bleed_fill",
    "full_art",
    "dpi",
    "layout",
)


# Options of a sheet of cards, which a --one-per-page print (a page per card) has no use for.
_SHEET_ONLY = ("paper", "gap", "margin", "printer_margin", "cut_lines", "scale_x", "scale_y", "back_offset")


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


@dataclass(frozen=True, slots=True)
class SheetOptions:
    """Every sheet option of ``cardbase print`` / ``export``, as written by the user."""

    paper: str = "a4"
    card_size: str | None = None
    bleed: str = "0mm"
    gap: str = "0mm"
    margin: str = "5mm"
    printer_margin: str = "4mm"
    crop_marks: bool = True
    cut_lines: bool = False
    backs: bool = False
    back_order: str = "after"
    flip: str = "long-edge"
    scale_x: float = 100.0
    scale_y: float = 100.0
    back_offset: str = "0,0"
    copies: int = 1
    dpi: int = 300
    one_per_page: bool = False
    split_backs: bool = False
    bleed_fill: str = "frame"
    full_art: bool = False
    layout: Path | None = None

    def spec(self, game: str | None = None, *, default_size: str | None = None) -> SheetSpec:
        """The checked ``SheetSpec``; any option out of its range is a ``UsageError`` naming it."""
        if self.flip not in FLIPS:
            raise UsageError(f"bad --flip {quoted(self.flip)}: use long-edge or short-edge")
        if self.bleed_fill not in BLEED_FILLS:
            raise UsageError(f"bad --bleed-fill {quoted(self.bleed_fill)}: use art or frame")
        if self.back_order not in BACK_ORDERS:
            raise UsageError(f"bad --back-order {quoted(self.back_order)}: use after or interleave")
        self._check_combination()
        _within(self.dpi, DPI_RANGE, "--dpi")
        _within(self.copies, COPIES_RANGE, "--copies")
        sx = _within(self.scale_x, SCALE_RANGE, "--scale-x", "%")
        sy = _within(self.scale_y, SCALE_RANGE, "--scale-y", "%")
        from cardbase.render.units import PAPER_SIZES

        paper = parse_size(self.paper, PAPER_SIZES, "--paper")
        size = self.card_size or default_size or GAME_CARD_SIZES.get(game or "", "poker")
        card = parse_size(size, CARD_SIZES, "--card-size")
        bleed = _length(self.bleed, "--bleed", BLEED_MAX)
        check_pixels(card[0] + 2 * bleed, card[1] + 2 * bleed, self.dpi, "a card")
        return SheetSpec(
            paper=paper,
            card=card,
            bleed=bleed,
            gap=_length(self.gap, "--gap", GAP_MAX),
            margin=_length(self.margin, "--margin", MARGIN_MAX),
            crop_marks=self.crop_marks,
            cut_lines=self.cut_lines,
            backs=self.backs or self.split_backs,
            flip=self.flip,  # type: ignore[arg-type]
            paper_name=self.paper.strip().lower(),
            printer_margin=_length(self.printer_margin, "--printer-margin", PRINTER_MARGIN_MAX),
            scale=(sx, sy),
            back_offset=parse_offset(self.back_offset),
        )

    def _check_combination(self) -> None:
        """Refuse an option given (a value other than its default) where it would have no effect:
        the sheet's options with ``--one-per-page`` (each card is a page of its own size, at exact
        size for a print shop), ``--back-order`` without it or without backs."""
        default = SheetOptions()
        given = [f.name for f in fields(self) if getattr(self, f.name) != getattr(default, f.name)]
        if self.one_per_page:
            ignored = [name for name in given if name in _SHEET_ONLY]
            if ignored:
                flags = ", ".join(_flag(name) for name in ignored)
                raise UsageError(
                    f"{flags}: not used with --one-per-page (each card is a page of its own size, printed at "
                    "exact size by a print shop); leave them out, or print sheets without --one-per-page"
                )
        if "back_order" in given and not (self.one_per_page and (self.backs or self.split_backs)):
            raise UsageError(
                "--back-order orders the back pages of a --one-per-page print with --backs; "
                "sheets put each back behind its front"
                + ("" if self.one_per_page else "; add --one-per-page or leave out --back-order")
                + ("; add --backs" if self.one_per_page else "")
            )

    def layouts(self) -> AbstractContextManager[None]:
        """A context in which the ``--layout`` file's layouts (if any) replace the built-in ones."""
        if self.layout is None:
            return nullcontext()
        from cardbase.render.layout_file import load_layout_file, use_layouts

        return use_layouts(load_layout_file(self.layout))

    def command_line(self) -> str:
        """The options that differ from the defaults, as they would be typed (for the registration page)."""
        default = SheetOptions()
        parts: list[str] = []
        for f in fields(self):
            value, base = getattr(self, f.name), getattr(default, f.name)
            flag = _flag(f.name)
            if value == base or f.name in _PER_PRINT:
                continue
            if isinstance(value, bool):
                parts.append(flag if value else f"--no-{f.name.replace('_', '-')}")
            else:
                parts.append(f"{flag} {value:g}" if isinstance(value, float) else f"{flag} {value}")
        return " ".join(parts)
