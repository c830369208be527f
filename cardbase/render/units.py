"""Physical sizes: lengths written with units ("3mm", "0.125in", "9pt"), paper and card sizes.

Every length inside ``cardbase.render`` is a float in millimetres.

>>> parse_length("0.125in")
3.175
>>> parse_size("poker", CARD_SIZES)
(63.0, 88.0)
"""

from __future__ import annotations

import math
import re

from cardbase.errors import UsageError, quoted

MM_PER_UNIT: dict[str, float] = {"mm": 1.0, "cm": 10.0, "in": 25.4, '"': 25.4, "pt": 25.4 / 72}
PT_PER_MM = 72 / 25.4


def _paper_sizes() -> dict[str, tuple[float, float]]:
    """The named papers, in mm, from ReportLab's ``pagesizes`` (one source for every size)."""
    from reportlab.lib import pagesizes

    sizes: dict[str, tuple[float, float]] = {}
    for name in ("a4", "letter", "a3", "a5", "legal", "tabloid"):
        width, height = getattr(pagesizes, name.upper())
        sizes[name] = (round(width / PT_PER_MM, 1), round(height / PT_PER_MM, 1))
    return sizes


def __getattr__(name: str) -> dict[str, tuple[float, float]]:
    """``PAPER_SIZES``, built from ReportLab on first use (so importing this module stays light)."""
    if name == "PAPER_SIZES":
        sizes = _paper_sizes()
        globals()["PAPER_SIZES"] = sizes
        return sizes
    raise AttributeError(name)


# Cut sizes. Poker is the 63×88 mm the design card gives as the default where a rulebook says
# nothing; bridge is 2.25×3.5 in; mini is the "mini American" 41×63 mm.
CARD_SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.0, 88.0),
    "bridge": (57.15, 88.9),
    "mini": (41.0, 63.0),
}

# Card size per game when --card-size is not given. No rulebook gives one, so every game takes the
# 63×88 mm the design card sets for that case (Meio's "regular deck of playing cards" is poker size).
GAME_CARD_SIZES: dict[str, str] = {"mea": "poker", "meikyu": "poker", "meio": "poker"}

# Méa's tiles: the rulebook allows "a maximum of 2 monsters on 1 tile", so a tile holds two
# poker cards side by side with 2 mm round them.
TILE_SIZE = "130x92mm"

# A number is digits with an optional fraction (``3``, ``3.5``, ``.5``), matched possessively: one way
# to read each text, so a 100,000-digit word is refused in linear time (``[0-9]*\.?[0-9]+`` backtracked
# cubically: 14 s for 5,000 digits).
NUMBER = r"([0-9]++(?:\.[0-9]++)?+|\.[0-9]++)"
_LENGTH = re.compile(rf"\s*+{NUMBER}\s*+(mm|cm|in|pt|\")?\s*+", re.IGNORECASE)
_SIZE = re.compile(rf"\s*+{NUMBER}\s*+(mm|cm|in|pt)?\s*+[x×*]\s*+{NUMBER}\s*+(mm|cm|in|pt)?\s*+", re.I)


def parse_length(text: str | float | int, what: str = "length") -> float:
    """``text`` in millimetres: a number with a unit (mm, cm, in, pt); a bare number is mm."""
    if isinstance(text, int | float):
        value = float(text)
    else:
        m = _LENGTH.fullmatch(text)
        if not m:
            raise UsageError(
                f"bad {what} {quoted(text)}: write a number and a unit (mm, cm, in or pt), e.g. 3mm or 0.125in"
            )
        value = float(m.group(1)) * MM_PER_UNIT[(m.group(2) or "mm").lower()]
    if not math.isfinite(value) or value < 0 or value > 10_000:
        raise UsageError(f"bad {what} {quoted(text)}: must be between 0 and 10 m")
    return round(value, 6)


def parse_size(text: str, named: dict[str, tuple[float, float]], what: str = "size") -> tuple[float, float]:
    """A named size (``a4``, ``poker``) or ``WxH`` with units (``63x88mm``, ``2.5x3.5in``) in mm."""
    key = text.strip().lower()
    if key in named:
        return named[key]
    m = _SIZE.fullmatch(text)
    if not m:
        names = "|".join(named)
        raise UsageError(f"bad {what} {quoted(text)}: use {names} or WxH with a unit, e.g. 63x88mm or 2.5x3.5in")
    w_unit = (m.group(2) or m.group(4) or "mm").lower()
    h_unit = (m.group(4) or w_unit).lower()
    w = float(m.group(1)) * MM_PER_UNIT[w_unit]
    h = float(m.group(3)) * MM_PER_UNIT[h_unit]
    if not (1 <= w <= 2000 and 1 <= h <= 2000):
        raise UsageError(f"bad {what} {quoted(text)}: each side must be between 1 mm and 2 m")
    return round(w, 6), round(h, 6)


def mm_to_pt(mm: float) -> float:
    """Millimetres to PDF points (1/72 in)."""
    return mm * PT_PER_MM


def mm_to_px(mm: float, dpi: float) -> float:
    """Millimetres to pixels at ``dpi``."""
    return mm * dpi / 25.4


def format_mm(value: float) -> str:
    """``63.0`` → ``"63"``, ``57.15`` → ``"57.15"``."""
    return f"{value:.2f}".rstrip("0").rstrip(".")
