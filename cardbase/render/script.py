"""Right-to-left text for both backends: Arabic letters joined, then each line in visual order.

Both backends draw a line's characters one after another, left to right, with the font's basic
layout (no shaping), so text in Hebrew or Arabic would print reversed and, for Arabic, unjoined.
A face therefore gives the backends text already shaped and ordered:

1. :func:`joined` turns Arabic letters into their joined presentation forms (``arabic-reshaper``),
   in logical order, before the text is measured and wrapped (joined forms have their own widths);
   the vowel marks (harakat) are kept: the reshaper's default drops them, which changes the words;
   and a word becomes one of the reshaper's ligatures (``الله`` → U+FDF2) only where DejaVu Sans, the
   font every Arabic paragraph is set in or falls back to, has its glyph: else it stays joined letters;
2. :func:`visual` puts one wrapped line in display order by the Unicode bidirectional algorithm
   (``python-bidi``), with the paragraph's direction as its base, and mirrors the brackets that end
   up right to left (rule L4, which python-bidi leaves to the renderer: it reads the levels
   python-bidi resolved, and keeps python-bidi's order unmirrored if they cannot be read). A mark
   stays ahead of its base (rule L3 is not applied): it has no width, and DejaVu Sans draws it to the
   right of where it is drawn, over the base drawn next (``tests/render/test_harakat.py`` reads it back).

Text with no right-to-left letter passes through untouched (the common case costs one scan).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Any

_RTL = frozenset(("R", "AL"))


def has_rtl(text: str) -> bool:
    """Whether ``text`` holds a right-to-left letter (Hebrew, Arabic, …)."""
    return any(unicodedata.bidirectional(c) in _RTL for c in text)


def is_rtl(paragraph: str) -> bool:
    """A paragraph's direction by its first strong letter (rules P2–P3 of the bidi algorithm)."""
    for char in paragraph:
        kind = unicodedata.bidirectional(char)
        if kind in _RTL:
            return True
        if kind == "L":
            return False
    return False


@lru_cache(maxsize=4096)
def joined(text: str) -> str:
    """``text`` with its Arabic letters in joined forms, still in logical order."""
    if not any(unicodedata.bidirectional(c) == "AL" for c in text):
        return text
    return str(_reshaper().reshape(text))


@lru_cache(maxsize=1)
def _reshaper() -> Any:
    """arabic-reshaper's default reshaper, but keeping the vowel marks (``delete_harakat``) and
    forming only the ligatures DejaVu Sans draws (the others would print as an empty box)."""
    import arabic_reshaper
    from arabic_reshaper.ligatures import LIGATURES

    from cardbase.render.fonts import missing_glyphs

    undrawn = {name: False for name, (_, forms) in LIGATURES if missing_glyphs("sans", "".join(forms))}
    return arabic_reshaper.ArabicReshaper(configuration={"delete_harakat": False, **undrawn})


@lru_cache(maxsize=4096)
def visual(line: str, rtl: bool) -> str:
    """One line of text in the order it is drawn, left to right; ``rtl``: the paragraph's direction."""
    if not has_rtl(line):
        return line
    from bidi import get_display

    base = "R" if rtl else "L"
    shown = str(get_display(line, base_dir=base))
    levels = _levels(line, base)
    if levels is None:
        return shown
    order = _reordered(levels, 1 if rtl else 0, line)
    if "".join(line[i] for i in order) != shown:  # not python-bidi's order: keep its own, unmirrored
        return shown
    return "".join(_mirror(line[i]) if levels[i] % 2 else line[i] for i in order)


_LEVEL = re.compile(r"Level\(\s*(\d+),?\s*\)")


def _levels(line: str, base: str) -> list[int] | None:
    """Each character's resolved embedding level, read from python-bidi's debug report (levels by
    UTF-8 byte); None when the report does not read as expected."""
    from bidi import get_display

    report = str(get_display(line, base_dir=base, debug=True))
    section = report.partition("levels:")[2].partition("paragraphs:")[0]
    by_byte = [int(n) for n in _LEVEL.findall(section)]
    if len(by_byte) != len(line.encode("utf-8")):
        return None
    levels, at = [], 0
    for char in line:
        levels.append(by_byte[at])
        at += len(char.encode("utf-8"))
    return levels


def _reordered(levels: list[int], base: int, line: str) -> list[int]:
    """The characters' indexes in display order: rule L1 (trailing white space at the paragraph's
    level), then L2 (from the highest level down to the lowest odd one, reverse every run at or
    above it)."""
    levels = list(levels)
    end = len(line)
    while end and unicodedata.bidirectional(line[end - 1]) in ("WS", "FSI", "LRI", "RLI", "PDI"):
        end -= 1
        levels[end] = base
    order = list(range(len(line)))
    if not levels:
        return order
    lowest_odd = min((lv for lv in levels if lv % 2), default=None)
    if lowest_odd is None:
        return order
    for level in range(max(levels), lowest_odd - 1, -1):
        i = 0
        while i < len(order):
            if levels[order[i]] >= level:
                j = i
                while j < len(order) and levels[order[j]] >= level:
                    j += 1
                order[i:j] = order[i:j][::-1]
                i = j
            else:
                i += 1
    return order


def _mirror(char: str) -> str:
    """The mirrored form of a bracket or sign (U+0028 ``(`` ↔ ``)``), or ``char`` itself."""
    if not unicodedata.mirrored(char):
        return char
    from bidi.mirror import MIRRORED

    return str(MIRRORED.get(char, char))
