"""Printing: catalog cards (with how many copies of each) to a print-ready PDF, or one card to a PNG.

The steps: impose the sheet (a card size that does not fit is an error before any work);
compose each distinct face once, from the face cache when it can; prepare each distinct art
image once for its box at the print resolution; then draw every distinct face and back once
as a PDF form and place it wherever the card goes, fronts and (mirrored) backs.

A print is written to a temporary file beside the output and renamed into place, so a print
that fails leaves any earlier file as it was.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardbase.errors import UsageError
from cardbase.render import art as art_mod
from cardbase.render.cache import CACHE_DIRNAME, FaceCache, cache_key, face_key
from cardbase.render.face import ArtSlot, Face, ImageOp, compose
from cardbase.render.layout import LAYOUTS, fields_used, fingerprint, layout_name
from cardbase.render.sheet import MIN_MARK, Grid, SheetSpec, impose
from cardbase.render.units import format_mm
from cardbase.render.values import face_values

Entry = tuple[Any, int]
Progress = Callable[[str, int, int], None]
"""Called as ``progress(stage, done, total)`` while a print runs."""

DEFAULT_DPI = 300


@dataclass(frozen=True, slots=True)
class Placement:
    """Where one printed card (front or back) is: page (1-based), trim box in mm from the top-left."""

    page: int
    side: str
    card_id: str
    name: str
    x: float
    y: float
    w: float
    h: float
    rotated: bool = False


@dataclass
class PrintReport:
    """What a print produced."""

    path: Path
    pages: int = 0
    sheets: int = 0
    cards: int = 0
    unique_faces: int = 0
    art_images: int = 0
    grid: Grid | None = None
    placements: list[Placement] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    missing_art: list[str] = field(default_factory=list)
    cache_hits: int = 0
    cache_misses: int = 0
    size_bytes: int = 0

    def as_dict(self) -> dict[str, Any]:
        grid = self.grid
        return {
            "file": str(self.path),
            "pages": self.pages,
            "sheets": self.sheets,
            "cards": self.cards,
            "unique_faces": self.unique_faces,
            "art_images": self.art_images,
            "per_page": grid.per_page if grid else None,
            "grid": [grid.cols, grid.rows] if grid else None,
            "missing_art": self.missing_art,
            "warnings": self.warnings,
            "cache": {"hits": self.cache_hits, "misses": self.cache_misses},
            "bytes": self.size_bytes,
        }


@contextmanager
def open_cache(images: Path, use_cache: bool = True) -> Iterator[FaceCache]:
    """The face cache under ``images/.cache``, or a throw-away one."""
    if use_cache:
        yield FaceCache(images / CACHE_DIRNAME)
        return
    with tempfile.TemporaryDirectory(prefix="cardbase-render-") as tmp:
        yield FaceCache(Path(tmp))


class FaceBuilder:
    """Composes faces and backs of cards (through the cache) and prepares their art."""

    def __init__(
        self,
        images: Path,
        cache: FaceCache,
        size: tuple[float, float],
        dpi: int = DEFAULT_DPI,
        declared_art: Mapping[str, str] | None = None,
    ):
        self.images = images
        self.cache = cache
        self.size = size
        self.dpi = dpi
        self.declared_art = dict(declared_art or {})
        self.art_sources: dict[str, Path] = {}
        self.prepared: dict[tuple[str, int, int], Path] = {}
        self.missing: list[str] = []
        self.expected: list[Path] = []
        self.warnings: list[str] = []

    def _art_slot(self, card: Any) -> ArtSlot:
        path = art_mod.find_art(self.images, card.game, card.name, self.declared_art.get(card.id))
        if path is None:
            expected = art_mod.expected_path(self.images, card.game, card.name)
            self.missing.append(card.name)
            self.expected.append(expected)
            return ArtSlot(None, f"art: {expected.as_posix()}")
        found = art_mod.inspect_art(path)
        self.art_sources[found.digest] = found.path
        return ArtSlot(found.digest)

    def _face(self, values: Mapping[str, Any], lname: str, slot: ArtSlot | None) -> tuple[str, Face]:
        art_part = None if slot is None else (slot.key or slot.hint)
        key = face_key(values, fingerprint(lname), self.size, art_part)
        face = self.cache.face(key)
        if face is None:
            face = compose(lname, values, self.size, slot)
            self.cache.put_face(key, face)
        self.warnings.extend(face.warnings)
        return key, face

    def face(self, card: Any) -> tuple[str, Face]:
        """The key and composed face of ``card``."""
        values = face_values(card)
        lname = layout_name(card.game, card.type, card.name)
        slot = self._art_slot(card) if LAYOUTS[lname].has_art else None
        return self._face(values, lname, slot)

    def back(self, card: Any) -> tuple[str, Face]:
        """The key and composed back of ``card`` (shared by every card with the same back)."""
        lname = LAYOUTS[layout_name(card.game, card.type, card.name)].back
        if lname is None:
            raise UsageError(f"{card.name}: its layout has no back")
        values = face_values(card)
        used = {k: values.get(k) for k in sorted(fields_used(lname))}
        return self._face(used, lname, None)

    def source(self, key: str) -> Path:
        return self.art_sources[key]

    def prepared_art(self, op: ImageOp) -> Path:
        """Art for ``op``'s box: cropped, resampled to the print DPI, stored as JPEG in the cache."""
        w_px = max(1, round(op.w * self.dpi / 25.4))
        h_px = max(1, round(op.h * self.dpi / 25.4))
        handle = (op.key, w_px, h_px)
        if handle in self.prepared:
            return self.prepared[handle]
        path = self.cache.art_path(op.key, w_px, h_px)
        if not path.is_file():
            picture = art_mod.cover(art_mod.load_image(self.art_sources[op.key]), w_px, h_px)
            self.cache.store(path, lambda p: picture.save(p, format="JPEG", quality=90, optimize=True))
        self.prepared[handle] = path
        return path

    def missing_warning(self, total: int) -> str | None:
        """One line about every card that has no art, or None."""
        if not self.missing:
            return None
        example = self.expected[0].as_posix()
        folders = {p.parent for p in self.expected}
        folder = folders.pop().as_posix() if len(folders) == 1 else (self.images / "<game>").as_posix()
        return (
            f"no art for {len(self.missing)} of {total} card(s), drew placeholders; put a PNG or JPEG named "
            f"after the card in {folder}/ (e.g. {example})"
        )


def _expand(entries: Iterable[Entry]) -> list[Any]:
    cards: list[Any] = []
    for card, copies in entries:
        if not isinstance(copies, int) or copies < 0:
            raise UsageError(f"{card.name}: copies must be a whole number ≥ 0, not {copies!r}")
        cards.extend([card] * copies)
    return cards


def _write_atomic(out: Path, write: Callable[[Path], object]) -> int:
    if out.is_dir():
        raise UsageError(f"{out} is a folder; give a file name for the output")
    tmp = out.parent / f".{out.stem}.{os.getpid()}.{uuid.uuid4().hex[:8]}{out.suffix}"
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        write(tmp)
        os.replace(tmp, out)
    except OSError as error:
        tmp.unlink(missing_ok=True)
        raise UsageError(f"cannot write {out}: {error.strerror or error}") from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return out.stat().st_size


def _subject(spec: SheetSpec, cards: int) -> str:
    w, h = spec.card
    return (
        f"{cards} card proxies, {format_mm(w)}×{format_mm(h)} mm, {format_mm(spec.bleed)} mm bleed, on "
        f"{spec.paper_name or 'custom'} paper; print at 100 % (actual size)"
        + (f", duplex {spec.flip}" if spec.backs else "")
    )


def print_cards(
    entries: Sequence[Entry],
    out: Path,
    spec: SheetSpec,
    *,
    title: str,
    author: str = "cardbase",
    images: Path = Path("card_images"),
    dpi: int = DEFAULT_DPI,
    use_cache: bool = True,
    declared_art: Mapping[str, str] | None = None,
    registration: bool = False,
    progress: Progress | None = None,
) -> PrintReport:
    """Print ``entries`` — (card, copies) pairs — to the PDF ``out`` on sheets described by ``spec``."""
    from cardbase.render import pdf
    from cardbase.render.registration import draw_registration

    grid = impose(spec)
    if not 30 <= dpi <= 2400:
        raise UsageError(f"--dpi {dpi} is out of range; use 30 to 2400")
    cards = _expand(entries)
    if not cards:
        raise UsageError("nothing to print: no cards (or only 0 copies)")
    report = PrintReport(out, grid=grid, cards=len(cards))
    unique = list({card.id: card for card in cards}.values())
    per_page = grid.per_page
    sheets = -(-len(cards) // per_page)
    report.sheets = sheets
    total = len(unique) + sheets
    done = 0

    def tick(stage: str) -> None:
        nonlocal done
        done += 1
        if progress:
            progress(stage, done, total)

    with open_cache(images, use_cache) as cache:
        builder = FaceBuilder(images, cache, spec.card, dpi, declared_art)
        fronts: dict[str, tuple[str, Face]] = {}
        backs: dict[str, tuple[str, Face]] = {}
        for card in unique:
            fronts[card.id] = builder.face(card)
            if spec.backs:
                backs[card.id] = builder.back(card)
            tick("composing faces")
        for _, face in fronts.values():
            for op in face.art_boxes:
                builder.prepared_art(op)
        report.unique_faces = len({key for key, _ in fronts.values()})
        report.art_images = len(builder.prepared)
        report.missing_art = list(builder.missing)
        report.cache_hits, report.cache_misses = cache.hits, cache.misses
        warn_missing = builder.missing_warning(len(unique))
        report.warnings = list(dict.fromkeys(builder.warnings))
        if warn_missing:
            report.warnings.append(warn_missing)
        if spec.crop_marks and grid.mark_length < MIN_MARK:
            report.warnings.append(
                f"crop marks are only {format_mm(max(grid.mark_length, 0))} mm long; use a larger --margin "
                "so they survive cutting"
            )

        page_h = spec.paper[1]
        marks = grid.crop_marks() if spec.crop_marks else []
        cuts = grid.cut_lines() if spec.cut_lines else []

        def write(tmp: Path) -> None:
            c = pdf.new_canvas(tmp, spec.paper, title, author, _subject(spec, len(cards)))
            forms: dict[str, str] = {}
            for key, face in [*fronts.values(), *backs.values()]:
                if key not in forms:
                    forms[key] = f"card-{len(forms) + 1}"
                    pdf.define_form(c, forms[key], face, spec.bleed, builder.prepared_art)
            page = 0
            trim, bleed = grid.trim_extent(), grid.bleed_extent()
            if registration:
                for side in ("front", "back"):
                    draw_registration(c, grid, side)
                    pdf.set_page_boxes(c, trim, bleed, page_h)
                    c.showPage()
                    page += 1
            for sheet in range(sheets):
                batch = cards[sheet * per_page : (sheet + 1) * per_page]
                page += 1
                for i, card in enumerate(batch):
                    slot = grid.slot(i)
                    pdf.place_form(c, forms[fronts[card.id][0]], slot, page_h)
                    report.placements.append(
                        Placement(page, "front", card.id, card.name, slot.x, slot.y, slot.w, slot.h)
                    )
                pdf.draw_segments(c, cuts, page_h, 0.1, "#9a9a9a", dash=(1.5, 1.0))
                pdf.draw_segments(c, marks, page_h, 0.25, "#000000")
                pdf.set_page_boxes(c, trim, bleed, page_h)
                c.showPage()
                if spec.backs:
                    page += 1
                    for i, card in enumerate(batch):
                        slot = grid.back_slot(i)
                        pdf.place_form(c, forms[backs[card.id][0]], slot, page_h)
                        report.placements.append(
                            Placement(page, "back", card.id, card.name, slot.x, slot.y, slot.w, slot.h, slot.rotated)
                        )
                    pdf.draw_segments(c, grid.mirrored(cuts), page_h, 0.1, "#9a9a9a", dash=(1.5, 1.0))
                    pdf.draw_segments(c, grid.mirrored(marks), page_h, 0.25, "#000000")
                    pdf.set_page_boxes(c, *_mirrored_extents(grid), page_h)
                    c.showPage()
                tick("drawing pages")
            c.save()
            report.pages = page

        with pdf.binary_streams():
            report.size_bytes = _write_atomic(out, write)
    return report


def _mirrored_extents(grid: Grid) -> tuple[tuple[float, float, float, float], tuple[float, float, float, float]]:
    pw, ph = grid.spec.paper

    def mirror(e: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
        left, top, right, bottom = e
        if grid.spec.flip == "short-edge":
            return left, ph - bottom, right, ph - top
        return pw - right, top, pw - left, bottom

    return mirror(grid.trim_extent()), mirror(grid.bleed_extent())


def print_registration(out: Path, spec: SheetSpec, *, author: str = "cardbase") -> PrintReport:
    """A one-sheet (front and back) alignment test for ``spec``'s paper, card size and flip."""
    from cardbase.render import pdf
    from cardbase.render.registration import draw_registration

    grid = impose(spec)
    report = PrintReport(out, grid=grid)

    def write(tmp: Path) -> None:
        c = pdf.new_canvas(
            tmp,
            spec.paper,
            f"cardbase registration test ({spec.paper_name})",
            author,
            _subject(spec, 0).replace("0 card proxies", "printer alignment test"),
        )
        for side in ("front", "back"):
            draw_registration(c, grid, side)
            pdf.set_page_boxes(c, grid.trim_extent(), grid.bleed_extent(), spec.paper[1])
            c.showPage()
        c.save()

    with pdf.binary_streams():
        report.size_bytes = _write_atomic(out, write)
    report.pages = 2
    return report


@dataclass
class RenderReport:
    """What rendering one card produced."""

    path: Path
    width_px: int = 0
    height_px: int = 0
    dpi: int = DEFAULT_DPI
    cached: bool = False
    size_bytes: int = 0
    warnings: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "file": str(self.path),
            "width_px": self.width_px,
            "height_px": self.height_px,
            "dpi": self.dpi,
            "cached": self.cached,
            "bytes": self.size_bytes,
            "warnings": self.warnings,
        }


def render_card(
    card: Any,
    out: Path,
    *,
    dpi: int = DEFAULT_DPI,
    size: tuple[float, float] = (63.0, 88.0),
    bleed: float = 0.0,
    images: Path = Path("card_images"),
    use_cache: bool = True,
    declared_art: Mapping[str, str] | None = None,
    back: bool = False,
) -> RenderReport:
    """Draw one card (or its back) to ``out``: PNG with Pillow, or a one-card PDF with ReportLab."""
    from cardbase.render import pdf
    from cardbase.render.raster import render_face, save_png

    suffix = out.suffix.lower()
    if suffix not in (".png", ".pdf"):
        raise UsageError(f"cannot render to {out.name!r}: the output must end in .png or .pdf")
    if not 30 <= dpi <= 2400:
        raise UsageError(f"--dpi {dpi} is out of range; use 30 to 2400")
    report = RenderReport(out, dpi=dpi)
    with open_cache(images, use_cache) as cache:
        builder = FaceBuilder(images, cache, size, dpi, declared_art)
        key, face = builder.back(card) if back else builder.face(card)
        report.warnings = list(dict.fromkeys(builder.warnings))
        warn_missing = builder.missing_warning(1)
        if warn_missing:
            report.warnings.append(
                f"{card.name}: no art, drew a placeholder; add {builder.expected[0].as_posix()} (or .jpg)"
            )
        if suffix == ".png":
            png_key = cache_key("png", key, dpi, round(bleed, 4))
            cached = cache.png_path(png_key)
            if cached.is_file():
                report.cached = True
            else:
                img = render_face(face, dpi, bleed, builder.art_sources)
                cache.store(cached, lambda p: save_png(img, p, dpi))
            report.size_bytes = _write_atomic(out, lambda p: shutil.copyfile(cached, p))
            from PIL import Image

            with Image.open(out) as img:
                report.width_px, report.height_px = img.size
            return report

        page = (size[0] + 2 * bleed, size[1] + 2 * bleed)

        def write(tmp: Path) -> None:
            c = pdf.new_canvas(tmp, page, card.name, "cardbase", f"{card.name}: one card, vector")
            pdf.define_form(c, "card", face, bleed, builder.prepared_art)
            from cardbase.render.sheet import Slot

            pdf.place_form(c, "card", Slot(0, 0, 0, bleed, bleed, size[0], size[1]), page[1])
            trim = (bleed, bleed, bleed + size[0], bleed + size[1])
            pdf.set_page_boxes(c, trim, (0.0, 0.0, page[0], page[1]), page[1])
            c.showPage()
            c.save()

        with pdf.binary_streams():
            report.size_bytes = _write_atomic(out, write)
    return report
