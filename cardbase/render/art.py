"""Card art: found under ``card_images/``, checked, and prepared for a box at a resolution.

Art for a card lives at ``card_images/<game>/<card-slug>.png`` (``cardbase.names.file_slug``: letters
and digits of any script and ``-``, never a path separator or a dot) (or ``.jpg``/``.jpeg``), or
at the path a ``card_image`` row names (relative to ``card_images/``). A path that would
leave ``card_images/`` (``..``, an absolute path, a symlink pointing out) is refused; an
image over Pillow's decompression-bomb limit is refused; an image that cannot be decoded is
an error naming the file. A card with no art gets a generated placeholder.
"""

from __future__ import annotations

import hashlib
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardbase.errors import UnreadableInput, UsageError
from cardbase.names import file_slug

SUFFIXES = (".png", ".jpg", ".jpeg")


@dataclass(frozen=True, slots=True)
class FoundArt:
    """An art file and the sha256 of its bytes."""

    path: Path
    digest: str


def _inside(path: Path, root: Path, shown: str) -> Path:
    resolved = path.resolve()
    if not resolved.is_relative_to(root.resolve()):
        raise UsageError(f"art path {shown} leads outside {root}/ (to {resolved}); refused")
    return resolved


def expected_path(root: Path, game: str, name: str) -> Path:
    """Where the art of card ``name`` of ``game`` is looked for (PNG form)."""
    return root / game / f"{file_slug(name)}.png"


def find_art(root: Path, game: str, name: str, declared: str | None = None) -> Path | None:
    """The art file of a card, or None; a path leading out of ``root`` is refused."""
    if declared:
        rel = Path(declared)
        if rel.is_absolute() or ".." in rel.parts:
            raise UsageError(f"art path {declared!r} for {name!r} leads outside {root}/; refused")
        candidate = root / rel
        if not candidate.exists():
            return None
        return _inside(candidate, root, repr(declared))
    base = root / game / file_slug(name)
    for suffix in SUFFIXES:
        candidate = base.with_suffix(suffix)
        if candidate.exists():
            return _inside(candidate, root, str(candidate))
    return None


def _pixel_limit() -> int | None:
    from PIL import Image

    return Image.MAX_IMAGE_PIXELS


def check_image(path: Path) -> tuple[int, int]:
    """The pixel size of the image at ``path`` (header only); refuses decompression bombs."""
    from PIL import Image, UnidentifiedImageError

    limit = _pixel_limit()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(path) as img:
                size = img.size
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise UnreadableInput(
            f"{path}: image is over Pillow's decompression-bomb limit of {limit:,} pixels; refused"
        ) from None
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError) as error:
        raise UnreadableInput(f"{path}: not a readable PNG or JPEG image ({error})") from None
    if limit and size[0] * size[1] > limit:
        raise UnreadableInput(
            f"{path}: image is {size[0]}×{size[1]} = {size[0] * size[1]:,} pixels, over Pillow's "
            f"decompression-bomb limit of {limit:,}; refused"
        )
    return size


def inspect_art(path: Path) -> FoundArt:
    """Check the art file at ``path`` and digest its bytes."""
    check_image(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise UnreadableInput(f"{path}: cannot read ({error.strerror or error})") from None
    return FoundArt(path, hashlib.sha256(data).hexdigest())


def load_image(path: Path) -> Any:
    """The decoded image at ``path`` as RGB (transparency flattened onto white)."""
    from PIL import Image, UnidentifiedImageError

    check_image(path)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(path) as img:
                img.load()
                if img.mode in ("RGBA", "LA", "P", "PA") and (img.mode != "P" or "transparency" in img.info):
                    rgba = img.convert("RGBA")
                    flat = Image.new("RGB", rgba.size, "white")
                    flat.paste(rgba, mask=rgba.getchannel("A"))
                    return flat
                return img.convert("RGB")
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError) as error:
        raise UnreadableInput(f"{path}: not a readable image, it may be corrupt or cut short ({error})") from None


def cover(img: Any, width_px: int, height_px: int) -> Any:
    """``img`` cropped to the shape of the box and resized to fill it (never enlarged past its pixels)."""
    from PIL import Image

    w, h = img.size
    target = width_px / height_px
    if w / h > target:
        nw = max(1, round(h * target))
        box = ((w - nw) // 2, 0, (w - nw) // 2 + nw, h)
    else:
        nh = max(1, round(w / target))
        box = (0, (h - nh) // 2, w, (h - nh) // 2 + nh)
    cropped = img.crop(box)
    if cropped.size[0] > width_px:
        cropped = cropped.resize((width_px, height_px), Image.Resampling.LANCZOS)
    return cropped


def declared_paths(session: Any, card_ids: list[str]) -> dict[str, str]:
    """Art paths the database records (``card_image`` rows, relative to ``card_images/``) by card id."""
    from sqlalchemy import select

    from cardbase.db.models import CardImage

    rows = session.scalars(select(CardImage).where(CardImage.card_id.in_(card_ids)))  # type: ignore[attr-defined]
    return {row.card_id: row.path for row in rows}
