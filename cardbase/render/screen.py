"""A card face drawn for a screen: a PNG of a given width in pixels, by the same layouts as print."""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from cardbase.errors import CardbaseError, UsageError, counted, quoted

WIDTH_RANGE = (40, 1200)
"""Pixels across a screen image: a thumbnail to a large full view (63 mm at 1200 px is 484 dpi)."""


def screen_png(
    card: Any,
    width: int,
    images: Path,
    declared_art: Mapping[str, str] | None = None,
    warn: Callable[[str], None] | None = None,
    *,
    cache: bool = True,
    assumed: Mapping[str, Any] | None = None,
    profile: str = "",
) -> bytes:
    """``card``'s face, ``width`` pixels wide (its height by the card's shape), as PNG bytes.

    Art is looked up by the card inside ``images`` (never a path from outside); a card without art,
    or whose art cannot be used (``warn`` is told why, naming the file inside ``images``), gets its
    kind's placeholder; the face cache under ``images/.cache`` is used as by ``render`` (``cache``
    False: a face drawn once, e.g. an editor's preview, is not kept). ``assumed``: the values an
    assumption ``profile`` gave the card (a Meikyu table's), drawn marked ASSUMED.
    """
    from cardbase.names import fold
    from cardbase.render.printing import FaceBuilder, open_cache
    from cardbase.render.raster import render_face
    from cardbase.render.units import CARD_SIZES, GAME_CARD_SIZES

    low, high = WIDTH_RANGE
    if isinstance(width, bool) or not low <= width <= high:
        raise UsageError(f"w must be {low} to {counted(high, 'pixel')}, not {quoted(width)}")
    size = CARD_SIZES[GAME_CARD_SIZES.get(card.game, "poker")]
    dpi = width * 25.4 / size[0]
    with open_cache(images, cache and images.is_dir()) as faces:
        builder = FaceBuilder(
            images,
            faces,
            size,
            max(30, round(dpi)),
            declared_art,
            art_fallback=True,
            warn=warn,
            assumed={fold(card.name): assumed} if assumed else None,
            profile=profile,
        )
        _key, face = builder.face(card)
        try:
            img = render_face(face, dpi, 0.0, builder.art_sources, supersample=1)
        except CardbaseError as error:  # art that does not decode (cut short): the placeholder
            _key, face = builder.without_art(card, face, error)
            img = render_face(face, dpi, 0.0, builder.art_sources, supersample=1)
    buffer = io.BytesIO()
    img.save(buffer, format="PNG", compress_level=3)
    return buffer.getvalue()


def print_notes(card: Any, images: Path, declared_art: Mapping[str, str] | None = None) -> list[str]:
    """What printing ``card`` at its game's size would warn of — text its fonts cannot draw, text cut
    short or set small, art that cannot be used or is animated — each without the card's name in
    front (the page it shows on is the card's). The face is composed, not drawn (the face cache
    is read, as ``screen_png`` reads it)."""
    from cardbase.render.face import SMALL_PREFIX
    from cardbase.render.printing import FaceBuilder, open_cache
    from cardbase.render.units import CARD_SIZES, GAME_CARD_SIZES

    size = CARD_SIZES[GAME_CARD_SIZES.get(card.game, "poker")]
    with open_cache(images, images.is_dir()) as faces:
        builder = FaceBuilder(images, faces, size, 300, declared_art, art_fallback=True)
        _key, face = builder.face(card)
    notes = []
    for line in [*builder.warnings, *face.warnings]:
        line = line.removeprefix(SMALL_PREFIX).removeprefix(f"{card.name}: ")
        notes.append(line)
    return list(dict.fromkeys(notes))
