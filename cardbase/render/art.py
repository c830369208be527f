"""Card art: found under ``card_images/``, checked, and prepared for a box at a resolution.

Art for a card lives at ``card_images/<game>/<card-slug>.png`` (``cardbase.names.file_slug``: letters
and digits of any script and ``-``, never a path separator or a dot; or ``.jpg``/``.jpeg``/``.webp``/
``.tif``/``.tiff``), or
at the path a ``card_image`` row names (relative to ``card_images/``). A path that would
leave ``card_images/`` (``..``, an absolute path, a symlink pointing out) is refused; an
image over Pillow's decompression-bomb limit is refused; an image that cannot be decoded is
an error naming the file. A card with no art gets a generated placeholder.

Art may need a credit on the card (a licence's attribution): a ``credits.csv`` beside the art
files (columns ``file``, ``credit``) gives one line per file, which faces print in their footer.

Art is printed the way up its EXIF orientation says it is shown (``upright``), and its size is
said so. Any pixel mode Pillow opens is printed faithfully (``to_rgb``): 1, L, LA, P (with
transparency), RGB, RGBA, CMYK, YCbCr, LAB, HSV; 16- and 32-bit greyscale (``I;16``, ``I``,
read as 0–65535) and float (``F``, read as 0–1 when no value exceeds 1, else 0–255) are scaled
to 8 bits rather than clipped; transparency is composited onto the art box's colour; an
embedded ICC profile is converted to sRGB.
"""

from __future__ import annotations

import functools
import hashlib
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardbase.errors import CardbaseError, UnreadableInput, UsageError, counted, plural, quoted
from cardbase.names import file_slug
from cardbase.textfiles import open_regular, path_problem, read_bytes

if TYPE_CHECKING:
    from sqlmodel import Session

SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".tif", ".tiff")
LOW_PPI = 200  # art printed at fewer pixels per inch than this draws a warning


@dataclass(frozen=True, slots=True)
class FoundArt:
    """An art file, the sha256 of its bytes and its size in pixels."""

    path: Path
    digest: str
    size: tuple[int, int] = (0, 0)
    frames: int = 1
    """Pictures in the file (an animated PNG, GIF or WebP has several: its first is printed)."""


def _inside(path: Path, root: Path, shown: str) -> Path:
    """``path`` resolved, refused when it (a symlink) leads out of ``root``; messages name neither
    the server's absolute paths nor where the link leads."""
    resolved = path.resolve()
    if not resolved.is_relative_to(root.resolve()):
        raise UsageError(f"art path {shown} leads outside {root.name}/; refused")
    return resolved


def _shown(path: Path, root: Path) -> str:
    """``path`` (``root``/…) as messages name it: from the art folder's own name."""
    return f"{root.name}/{path.relative_to(root).as_posix()}"


def expected_path(root: Path, game: str, name: str) -> Path:
    """Where the art of card ``name`` of ``game`` is looked for (PNG form)."""
    return root / game / f"{file_slug(name)}.png"


def find_art(root: Path, game: str, name: str, declared: str | None = None) -> Path | None:
    """The art file of a card, or None; a path leading out of ``root`` is refused."""
    if declared:
        if (problem := path_problem(declared)) is not None:
            raise UsageError(f"art path for {quoted(name)}: {problem}")
        rel = Path(declared)
        if rel.is_absolute() or ".." in rel.parts:
            raise UsageError(f"art path {quoted(declared)} for {quoted(name)} leads outside {root.name}/; refused")
        candidate = root / rel
        if not candidate.exists():
            return None
        return _inside(candidate, root, quoted(declared))
    base = root / game / file_slug(name)
    for suffix in SUFFIXES:
        candidate = base.with_suffix(suffix)
        if candidate.exists():
            return _inside(candidate, root, _shown(candidate, root))
    return None


def find_full_art(root: Path, game: str, name: str) -> Path | None:
    """A whole-face scan of the card, ``<game>/<slug>.full.png`` (or .jpg/.jpeg/.webp), or None."""
    base = root / game / f"{file_slug(name)}.full"
    for suffix in SUFFIXES:
        candidate = base.with_name(base.name + suffix)
        if candidate.exists():
            return _inside(candidate, root, _shown(candidate, root))
    return None


CREDITS_FILE = "credits.csv"
CREDIT_MAX = 120
"""Characters of one credit line: it is printed in a card's footer."""


def art_credit(path: Path) -> str | None:
    """The credit line ``credits.csv`` beside the art file ``path`` gives it, or None."""
    credits = path.parent / CREDITS_FILE
    try:
        stat = credits.stat()
    except OSError:
        return None
    return _credits(credits, stat.st_mtime_ns, stat.st_size).get(path.name)


@functools.lru_cache(maxsize=32)
def _credits(path: Path, _mtime: int, _size: int) -> dict[str, str]:
    """The credits of one folder's ``credits.csv``; a bad line is an error naming the file and line."""
    from cardbase.sheets import csv_rows
    from cardbase.textfiles import check_line_ends, decode_text

    text = decode_text(read_bytes(path, "art credits file", 1_000_000), str(path), "art credits file")
    check_line_ends(text, str(path))
    rows = csv_rows(text, str(path))
    header = [h.strip().lower() for h in next(rows, (1, []))[1]]
    if "file" not in header or "credit" not in header:
        raise UnreadableInput(f"{path}: line 1: the header must name the columns 'file' and 'credit'")
    for column in ("file", "credit"):
        if header.count(column) > 1:
            raise UnreadableInput(f"{path}: line 1: a second column {quoted(column)}; keep one")
    at_file, at_credit = header.index("file"), header.index("credit")
    out: dict[str, str] = {}
    lines: dict[str, int] = {}
    for line, row in rows:
        if not row:
            continue
        if len(row) != len(header):
            raise UnreadableInput(f"{path}: line {line}: {counted(len(row), 'cell')}, not {len(header)} as the header")
        credit = row[at_credit].strip()
        if len(credit) > CREDIT_MAX or any(ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 for c in credit):
            raise UnreadableInput(
                f"{path}: line {line}: a credit is one line of at most {CREDIT_MAX} characters, "
                "without control characters"
            )
        file = row[at_file].strip()
        if file in lines:
            raise UnreadableInput(
                f"{path}: line {line}: {quoted(file)} is credited on line {lines[file]} already; keep one"
            )
        out[file], lines[file] = credit, line
    return out


def art_signature(root: Path, game: str, name: str, declared: str | None = None) -> list[tuple[str, int, int]]:
    """Each art file the card's face is drawn from (its whole-face scan, its art) with its change time and
    size: a face drawn before is stale when this changes (art replaced, added or removed)."""
    out = []
    finders: tuple[Callable[[], Path | None], ...] = (
        lambda: find_full_art(root, game, name),
        lambda: find_art(root, game, name, declared),
    )
    for find in finders:
        try:
            path = find()
        except UsageError as error:  # refused (drawn as a placeholder): its reason is the signature
            out.append((str(error), 0, 0))
            continue
        if path is not None:
            for file in (path, path.parent / CREDITS_FILE):
                if file.is_file():
                    stat = file.stat()
                    out.append((str(file), stat.st_mtime_ns, stat.st_size))
    return out


def _pixel_limit() -> int | None:
    from PIL import Image

    return Image.MAX_IMAGE_PIXELS


_TURNED = (5, 6, 7, 8)
"""The EXIF orientations that turn the picture a quarter turn (a phone held upright)."""

PREPARED_VERSION = 2
"""Part of the cache name of art prepared for a box: bumped when preparing changes (2: the EXIF
orientation is applied), so art prepared before is not used again."""


def _orientation(img: Any) -> int:
    """The EXIF orientation of ``img`` (1, as stored, when it has none or its EXIF is damaged)."""
    try:
        value = img.getexif().get(0x0112, 1)
    except (OSError, ValueError, SyntaxError, TypeError, KeyError, IndexError):
        return 1
    return value if isinstance(value, int) and 1 <= value <= 8 else 1


def upright(img: Any) -> Any:
    """``img`` turned and mirrored as its EXIF orientation says it is shown (a photo taken with the
    camera held upright is stored on its side, with orientation 6): printed as every viewer shows it."""
    from PIL import ImageOps

    if _orientation(img) == 1:
        return img
    return ImageOps.exif_transpose(img)


def check_image(path: Path) -> tuple[int, int]:
    """The pixel size of the image at ``path`` (header only); refuses decompression bombs."""
    from PIL import Image, UnidentifiedImageError

    limit = _pixel_limit()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with open_regular(path, "card image") as file, Image.open(file) as img:
                size = img.size
                if _orientation(img) in _TURNED:  # shown a quarter turn round: its width is its height
                    size = (size[1], size[0])
    except CardbaseError:  # not a regular file (open_regular): said as it is
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise UnreadableInput(
            f"{path}: image is over Pillow's decompression-bomb limit of {limit:,} pixels; refused"
        ) from None
    except UnidentifiedImageError:
        raise UnreadableInput(f"{path}: not a readable PNG, JPEG or WebP image (cannot identify its format)") from None
    except (OSError, ValueError, SyntaxError) as error:
        raise UnreadableInput(f"{path}: not a readable PNG, JPEG or WebP image ({error})") from None
    if limit and size[0] * size[1] > limit:
        raise UnreadableInput(
            f"{path}: image is {size[0]}×{size[1]} = {size[0] * size[1]:,} {plural(size[0] * size[1], 'pixel')}, over "
            f"Pillow's "
            f"decompression-bomb limit of {limit:,}; refused"
        )
    return size


def inspect_art(path: Path) -> FoundArt:
    """Check the art file at ``path`` and digest its bytes."""
    size = check_image(path)
    data = read_bytes(path, "card image")
    return FoundArt(path, hashlib.sha256(data).hexdigest(), size, _frames(path))


def _frames(path: Path) -> int:
    """How many pictures the image file at ``path`` holds (1 when it cannot tell)."""
    from PIL import Image

    try:
        with open_regular(path, "card image") as file, Image.open(file) as img:
            return max(1, int(getattr(img, "n_frames", 1)))
    except (CardbaseError, OSError, ValueError, SyntaxError, TypeError):
        return 1


def _to_8bit(img: Any) -> Any:
    """Deep greyscale (``I;16*``, ``I``, ``F``) scaled into an ``L`` image instead of clipped."""
    if img.mode.startswith("I;16") or img.mode == "I":
        wide = img.convert("I") if img.mode != "I" else img
        return wide.point(lambda v: v * (255 / 65535)).convert("L")
    if img.mode == "F":
        top = img.getextrema()[1]
        factor = 255.0 if top <= 1.0 else 1.0
        return img.point(lambda v: v * factor).convert("L")
    return img


def _icc_to_srgb(img: Any) -> Any:
    """``img`` with its embedded ICC profile (if any) converted to sRGB."""
    icc = img.info.get("icc_profile")
    if not icc:
        return img
    import io

    from PIL import ImageCms

    try:
        source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
        mode = "RGBA" if img.mode in ("RGBA", "LA", "PA") else "RGB"
        if img.mode not in ("RGB", "RGBA", "CMYK", "L", "LAB"):
            img = img.convert(mode)
        return ImageCms.profileToProfile(img, source, ImageCms.createProfile("sRGB"), outputMode=mode)
    except (ImageCms.PyCMSError, OSError, ValueError):
        return img  # a broken profile: the pixels as they are


def to_rgb(img: Any, matte: str = "#ffffff") -> Any:
    """``img`` in any Pillow mode as 8-bit sRGB, transparency composited onto ``matte``."""
    from PIL import Image

    img = _to_8bit(img)
    if img.mode == "P":
        img = img.convert("RGBA" if "transparency" in img.info else "RGB")
    elif img.mode == "1":
        img = img.convert("L")
    img = _icc_to_srgb(img)
    if img.mode in ("RGBA", "LA", "PA", "RGBa", "La"):
        rgba = img.convert("RGBA")
        flat = Image.new("RGB", rgba.size, matte)
        flat.paste(rgba, mask=rgba.getchannel("A"))
        return flat
    return img.convert("RGB")


def load_image(path: Path, matte: str = "#ffffff") -> Any:
    """The decoded image at ``path`` as 8-bit sRGB (see ``to_rgb``)."""
    from PIL import Image, UnidentifiedImageError

    check_image(path)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with open_regular(path, "card image") as file, Image.open(file) as img:
                img.load()
                return to_rgb(upright(img), matte)
    except CardbaseError:
        raise
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError) as error:
        raise UnreadableInput(f"{path}: not a readable image, it may be corrupt or cut short ({error})") from None


def printed_ppi(size_px: tuple[int, int], box_mm: tuple[float, float]) -> float:
    """Pixels per inch the art of ``size_px`` gets when cropped to fill a box of ``box_mm``."""
    w, h = size_px
    bw, bh = box_mm
    scale = max(bw / w, bh / h)  # mm per pixel once the image covers the box
    return 25.4 / scale


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


def mirror_pad(img: Any, pad_px: int) -> Any:
    """``img`` with ``pad_px`` pixels added on every side, mirrored from its edges (art into the bleed)."""
    from PIL import Image

    if pad_px <= 0:
        return img
    w, h = img.size
    pad = min(pad_px, w, h)
    out = Image.new(img.mode, (w + 2 * pad, h + 2 * pad))
    out.paste(img, (pad, pad))
    flip_lr, flip_tb = Image.Transpose.FLIP_LEFT_RIGHT, Image.Transpose.FLIP_TOP_BOTTOM
    out.paste(img.crop((0, 0, pad, h)).transpose(flip_lr), (0, pad))
    out.paste(img.crop((w - pad, 0, w, h)).transpose(flip_lr), (w + pad, pad))
    out.paste(out.crop((0, pad, w + 2 * pad, 2 * pad)).transpose(flip_tb), (0, 0))
    out.paste(out.crop((0, h, w + 2 * pad, h + pad)).transpose(flip_tb), (0, h + pad))
    return out if pad == pad_px else out.resize((w + 2 * pad_px, h + 2 * pad_px))


def fit_art(img: Any, op: Any, width_px: int, height_px: int) -> Any:
    """``img`` for the box of ImageOp ``op`` at ``width_px``×``height_px``: cropped to fill it; a
    whole-face scan whose box reaches into the bleed (``op.x < 0``) fills the trim and is mirrored
    out into the bleed, so its edges meet the cut exactly."""
    from PIL import Image

    bleed = -op.x if op.full and op.x < 0 else 0.0
    if bleed <= 0:
        picture = cover(img, width_px, height_px)
    else:
        pad = round(bleed / op.w * width_px)
        inner = cover(img, width_px - 2 * pad, height_px - 2 * pad)
        if inner.size != (width_px - 2 * pad, height_px - 2 * pad):
            inner = inner.resize((width_px - 2 * pad, height_px - 2 * pad), Image.Resampling.LANCZOS)
        picture = mirror_pad(inner, pad)
    if picture.size != (width_px, height_px) and op.full:
        picture = picture.resize((width_px, height_px), Image.Resampling.LANCZOS)
    return picture


def declared_paths(session: Session, card_ids: list[str]) -> dict[str, str]:
    """Art paths the database records (``card_image`` rows, relative to ``card_images/``) by card id."""
    from sqlmodel import col, select

    from cardbase.db.models import CardImage

    rows = session.scalars(select(CardImage).where(col(CardImage.card_id).in_(card_ids)))
    return {row.card_id: row.path for row in rows}
