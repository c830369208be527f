"""Printing: catalog cards (with how many copies of each) to a print-ready PDF, or one card to a PNG.

The steps: impose the sheet (a card size that does not fit is an error before any work);
compose each distinct face once, from the face cache when it can; prepare each distinct art
image once for its box at the print resolution; then draw every distinct face and back once
as a PDF form and place it wherever the card goes, fronts and (mirrored) backs.

A print is written to a temporary file beside the output and renamed into place, so a print
that fails leaves any earlier file as it was.
"""

from __future__ import annotations

import math
import shutil
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from cardbase.errors import CardbaseError, UsageError, counted, quoted, shown
from cardbase.names import fold
from cardbase.render import art as art_mod
from cardbase.render.cache import CACHE_DIRNAME, FaceCache, cache_key, face_key
from cardbase.render.face import SMALL_PREFIX, ArtSlot, Face, ImageOp, compose, full_art_face
from cardbase.render.layout import LAYOUTS, fields_used, fingerprint, layout_name
from cardbase.render.sheet import MIN_MARK, Grid, Segment, SheetSpec, Slot, bleed_cost, impose, turned_paper_note
from cardbase.render.units import format_mm
from cardbase.render.values import face_values
from cardbase.textfiles import output_files, output_target, scratch_folder

Entry = tuple[Any, int]
Progress = Callable[[str, int, int], None]
"""Called as ``progress(stage, done, total)`` while a print runs."""

DEFAULT_DPI = 300

MAX_PRINT_CARDS = 10_000
"""The most cards one print job lays out (about 1,100 A4 sheets): a bigger set is printed in parts."""


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
    notes: list[str] = field(default_factory=list)
    missing_art: list[str] = field(default_factory=list)
    cache_hits: int = 0
    cache_misses: int = 0
    size_bytes: int = 0
    backs_path: Path | None = None

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
            "backs_file": str(self.backs_path) if self.backs_path else None,
        }


@contextmanager
def open_cache(images: Path, use_cache: bool = True) -> Iterator[FaceCache]:
    """The face cache under ``images/.cache``, or a throw-away one."""
    if use_cache:
        yield FaceCache(images / CACHE_DIRNAME)
        return
    with scratch_folder("cardbase-render-") as tmp:
        yield FaceCache(Path(tmp))


class FaceBuilder:
    """Composes faces and backs of cards (through the cache) and prepares their art.

    ``assumed``: an assumption ``profile``'s values by folded card name (Meikyu playtest proxies):
    each fills a value the catalog lacks, and the face carries the ASSUMED mark.
    A card with a whole-face scan (``<slug>.full.png``, or any art with ``full_art``) is the scan;
    with ``bleed_fill="art"`` the scan is mirrored out into ``bleed``, else the bleed is the
    layout's background colour (``"frame"``).

    ``art_fallback``: an art file that cannot be used (not an image, cut short, over the pixel
    bound, leading out of the art folder) draws the placeholder and one warning naming the file
    relative to the art folder, instead of an error (a deck's print, a face on a web page); the
    warning is also passed to ``warn``, once per file."""

    def __init__(
        self,
        images: Path,
        cache: FaceCache,
        size: tuple[float, float],
        dpi: int = DEFAULT_DPI,
        declared_art: Mapping[str, str] | None = None,
        *,
        bleed: float = 0.0,
        bleed_fill: str = "frame",
        full_art: bool = False,
        assumed: Mapping[str, Mapping[str, Any]] | None = None,
        profile: str = "",
        art_fallback: bool = False,
        warn: Callable[[str], None] | None = None,
    ):
        self.images = images
        self.assumed = dict(assumed or {})
        self.profile = profile
        self.art_fallback = art_fallback
        self.warn = warn
        self.unusable: dict[Path, str] = {}  # art files refused, with the warning said
        self.decodes: set[str] = set()  # digests of art seen to decode whole
        self.bleed = bleed
        self.bleed_fill = bleed_fill
        self.full_art = full_art
        self.cache = cache
        self.size = size
        self.dpi = dpi
        self.declared_art = dict(declared_art or {})
        self.art_sources: dict[str, Path] = {}
        self.prepared: dict[tuple[str, int, int], Path] = {}
        self.missing: list[str] = []
        self.expected: list[Path] = []
        self.warnings: list[str] = []
        self.small_text: list[tuple[float, str]] = []
        self.art_sizes: dict[str, tuple[int, int]] = {}
        self.art_users: dict[str, str] = {}

    def shown(self, path: Path) -> str:
        """``path`` as messages name it: inside the art folder (``card_images/mea/x.png``), never the
        server's absolute path."""
        try:
            inside = path.resolve().relative_to(self.images.resolve()).as_posix()
        except (ValueError, OSError):
            inside = path.name
        return f"{self.images.name}/{inside}"

    def _refuse(self, card: Any, path: Path, error: CardbaseError) -> None:
        """Take ``path`` as unusable art (``error`` says why); warn once, naming it inside the art folder."""
        if path in self.unusable:
            return
        shown = self.shown(path)
        reason = str(error).replace(f"{path}: ", "").replace(str(path), shown)
        line = f"{card.name}: art {shown} cannot be used ({reason}); drew a placeholder"
        self.unusable[path] = line
        self.warnings.append(line)
        if self.warn is not None:
            self.warn(line)

    def _find(self, card: Any, find: Callable[[], Path | None]) -> Path | None:
        """An art file of ``card`` (``find``), or None when there is none or it was refused."""
        try:
            path = find()
        except CardbaseError as error:
            if not self.art_fallback:
                raise
            self._refuse(card, art_mod.expected_path(self.images, card.game, card.name), error)
            return None
        return None if path is None or path in self.unusable else path

    def _register(self, card: Any, path: Path) -> str | None:
        """The digest of the art at ``path`` for ``card``; None when it cannot be used (``art_fallback``)."""
        try:
            found = art_mod.inspect_art(path)
        except CardbaseError as error:
            if not self.art_fallback:
                raise
            self._refuse(card, path, error)
            return None
        self.art_sources[found.digest] = found.path
        self.art_sizes[found.digest] = found.size
        if found.frames > 1:
            self.warnings.append(
                f"{card.name}: art {self.shown(path)} is animated ({counted(found.frames, 'picture')}); printed its "
                f"first"
            )
        self.art_users.setdefault(found.digest, card.name)
        return found.digest

    def without_art(self, card: Any, face: Face, error: CardbaseError) -> tuple[str, Face]:
        """``card``'s face again, without the art of ``face`` that failed to decode (``error``), which is
        refused with its warning (``art_fallback``; else the error is raised)."""
        if not self.art_fallback:
            raise error
        for op in face.art_boxes:
            self._refuse(card, self.art_sources[op.key], error)
        return self.face(card)

    def decoded(self, card: Any, key_face: tuple[str, Face]) -> tuple[str, Face]:
        """``key_face`` (``card``'s) when all its art decodes whole; else the face ``without_art``. For
        faces drawn later or in other processes (``export images``), so that art cut short is the
        placeholder there too, as in ``print``, which decodes while preparing art."""
        key, face = key_face
        try:
            for op in face.art_boxes:
                if op.key not in self.decodes:
                    art_mod.load_image(self.art_sources[op.key])
                    self.decodes.add(op.key)
        except CardbaseError as error:
            return self.without_art(card, face, error)
        return key, face

    def _art_slot(self, card: Any) -> ArtSlot:
        declared = self.declared_art.get(card.id)
        try:
            path = art_mod.find_art(self.images, card.game, card.name, declared)
        except CardbaseError as error:
            if not self.art_fallback:
                raise
            self._refuse(card, art_mod.expected_path(self.images, card.game, card.name), error)
            return ArtSlot(None)
        if path is not None and path in self.unusable:
            return ArtSlot(None)  # refused: its own warning, not "no art"
        if path is None:
            expected = art_mod.expected_path(self.images, card.game, card.name)
            self.missing.append(card.name)
            self.expected.append(expected)
            return ArtSlot(None)
        return ArtSlot(self._register(card, path))

    def _face(self, values: Mapping[str, Any], lname: str, slot: ArtSlot | None) -> tuple[str, Face]:
        art_part = None if slot is None or slot.key is None else slot.key
        key = face_key(values, fingerprint(lname), self.size, art_part)
        face = self.cache.face(key)
        if face is None:
            face = compose(lname, values, self.size, slot)
            self.cache.put_face(key, face)
        for line in face.warnings:
            if line.startswith(SMALL_PREFIX):
                self.small_text.append((face.smallest_text or 0.0, line.removeprefix(SMALL_PREFIX)))
            else:
                self.warnings.append(line)
        return key, face

    def face(self, card: Any) -> tuple[str, Face]:
        """The key and composed face of ``card`` (a whole-face scan when ``<slug>.full.png`` exists)."""
        values = face_values(card, self.assumed.get(fold(card.name)), self.profile)
        lname = layout_name(card.game, card.type, card.name)
        full = self._find(card, lambda: art_mod.find_full_art(self.images, card.game, card.name))
        if full is None and self.full_art:
            declared = self.declared_art.get(card.id)
            full = self._find(card, lambda: art_mod.find_art(self.images, card.game, card.name, declared))
        digest = self._register(card, full) if full is not None else None
        if digest is not None:
            into = self.bleed if self.bleed_fill == "art" else 0.0
            face = full_art_face(self.size, digest, LAYOUTS[lname].background, into)
            return face_key({"full": digest, "into": into}, "full-art", self.size, digest), face
        slot = self._art_slot(card) if LAYOUTS[lname].has_art else None
        if slot is not None and slot.key is not None and (credit := art_mod.art_credit(self.art_sources[slot.key])):
            values["footer"] = f"{values['footer']} · {credit}"
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
        matte = op.matte.lstrip("#")
        variant = f"-{matte}" if matte != "ffffff" else ""
        variant += f"-full{op.x:g}" if op.full else ""
        variant += f"-v{art_mod.PREPARED_VERSION}"
        path = self.cache.art_path(op.key + variant, w_px, h_px)
        if not self.cache.usable(path):
            picture = art_mod.fit_art(art_mod.load_image(self.art_sources[op.key], op.matte), op, w_px, h_px)
            self.cache.store(path, lambda p: picture.save(p, format="JPEG", quality=90, optimize=True))
        self.check_resolution(op)  # of art that decoded: art cut short is only "cannot be used"
        self.prepared[handle] = path
        return path

    def check_resolution(self, op: ImageOp) -> None:
        """Warn when the art of ``op`` prints at under ``LOW_PPI`` pixels per inch."""
        size = self.art_sizes.get(op.key)
        if size is None:
            return
        ppi = art_mod.printed_ppi(size, (op.w, op.h))
        if ppi < art_mod.LOW_PPI:
            need = (math.ceil(op.w / 25.4 * art_mod.LOW_PPI), math.ceil(op.h / 25.4 * art_mod.LOW_PPI))
            self.warnings.append(
                f"{self.art_users.get(op.key, 'a card')}: art {self.shown(self.art_sources[op.key])} is "
                f"{size[0]}×{size[1]} px, {int(ppi)} ppi at its printed size ({op.w:.1f}×{op.h:.1f} mm); under "
                f"{art_mod.LOW_PPI} ppi it prints soft: supply at least {need[0]}×{need[1]} px"
            )

    def all_warnings(self, total: int) -> list[str]:
        """Every warning, each once: art and text problems, small type (one line), missing art (one line)."""
        lines = list(dict.fromkeys(self.warnings))
        if self.small_text:
            _, where = min(self.small_text)
            faces = len({w for _, w in self.small_text})
            lines.append(
                f"text under 6 pt on {counted(faces, 'face')}, hard to read (smallest: {where}); "
                "print at a larger --card-size"
            )
        missing = self.missing_warning(total)
        if missing:
            lines.append(missing)
        return lines

    def missing_warning(self, total: int) -> str | None:
        """One line about every card that has no art, or None."""
        if not self.missing:
            return None
        example = self.expected[0].as_posix()
        folders = {p.parent for p in self.expected}
        folder = folders.pop().as_posix() if len(folders) == 1 else (self.images / "<game>").as_posix()
        return (
            f"no art for {len(self.missing)} of {counted(total, 'card')}, drew placeholders; "
            "put a PNG, JPEG or WebP named "
            f"after the card in {folder}/ (e.g. {example})"
        )


def _expand(entries: Iterable[Entry]) -> list[Any]:
    cards: list[Any] = []
    for card, copies in entries:
        if not isinstance(copies, int) or copies < 0:
            raise UsageError(f"{card.name}: copies must be a whole number ≥ 0, not {quoted(copies)}")
        cards.extend([card] * copies)
        if len(cards) > MAX_PRINT_CARDS:
            raise UsageError(
                f"more than {MAX_PRINT_CARDS:,} cards to print; narrow the set or query, or print fewer copies"
            )
    return cards


def _write_atomic(out: Path, write: Callable[[Path], object]) -> int:
    """Write ``out`` whole or not at all (``cardbase.textfiles.output_file``); its size in bytes."""
    from cardbase.textfiles import output_file

    with output_file(out, "output") as temporary:
        write(temporary)
        return temporary.stat().st_size


def _subject(spec: SheetSpec, cards: int) -> str:
    w, h = spec.card
    return (
        f"{counted(cards, 'card proxy', 'card proxies')}, {format_mm(w)}×{format_mm(h)} mm, "
        f"{format_mm(spec.bleed)} mm bleed, on "
        f"{spec.paper_name or 'custom'} paper; print at 100 % (actual size)"
        + (f", duplex {spec.flip}" if spec.backs else "")
    )


@dataclass(frozen=True, slots=True)
class _Page:
    """One page to write: which side, the cards on it (form key, slot) and its marks and boxes."""

    side: str
    cards: list[tuple[Any, Slot]]
    marks: list[Segment]
    cuts: list[Segment]
    trim: tuple[float, float, float, float]
    bleed: tuple[float, float, float, float]


def _sheet_pages(grid: Grid, cards: list[Any]) -> list[_Page]:
    """Fronts (and, after each, their mirrored backs) imposed on sheets."""
    spec = grid.spec
    marks = grid.crop_marks() if spec.crop_marks else []
    cuts = grid.cut_lines() if spec.cut_lines else []
    trim, bleed = grid.trim_extent(), grid.bleed_extent()
    back_trim, back_bleed = _mirrored_extents(grid)
    pages: list[_Page] = []
    per_page = grid.per_page
    for start in range(0, len(cards), per_page):
        batch = cards[start : start + per_page]
        pages.append(_Page("front", [(card, grid.slot(i)) for i, card in enumerate(batch)], marks, cuts, trim, bleed))
        if spec.backs:
            pages.append(
                _Page(
                    "back",
                    [(card, grid.back_slot(i)) for i, card in enumerate(batch)],
                    grid.mirrored(marks),
                    grid.mirrored(cuts),
                    back_trim,
                    back_bleed,
                )
            )
    return pages


def _single_pages(spec: SheetSpec, cards: list[Any], back_order: str) -> list[_Page]:
    """One card per page (card plus bleed), fronts then backs, or each front followed by its back."""
    b = spec.bleed
    w, h = spec.card
    slot = Slot(0, 0, 0, b, b, w, h)
    trim, bleed = (b, b, b + w, b + h), (0.0, 0.0, w + 2 * b, h + 2 * b)
    fronts = [_Page("front", [(card, slot)], [], [], trim, bleed) for card in cards]
    if not spec.backs:
        return fronts
    backs = [_Page("back", [(card, slot)], [], [], trim, bleed) for card in cards]
    if back_order == "interleave":
        return [page for pair in zip(fronts, backs, strict=True) for page in pair]
    return fronts + backs


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
    one_per_page: bool = False,
    back_order: str = "after",
    split_backs: bool = False,
    options_line: str = "",
    bleed_fill: str = "frame",
    full_art: bool = False,
    assumed: Mapping[str, Mapping[str, Any]] | None = None,
    profile: str = "",
    warn: Callable[[str], None] | None = None,
) -> PrintReport:
    """Print ``entries`` — (card, copies) pairs — to the PDF ``out`` on sheets described by ``spec``.

    ``one_per_page`` gives each card a page of its own (trim plus bleed, with TrimBox and
    BleedBox) in ``back_order``; ``split_backs`` writes the back pages to ``<out>-backs.pdf``. An art
    file that cannot be used draws the placeholder and a warning (also passed to ``warn``).
    """
    from cardbase.render import pdf
    from cardbase.render.options import DPI_RANGE
    from cardbase.render.registration import draw_registration

    grid = impose(spec)
    if not DPI_RANGE[0] <= dpi <= DPI_RANGE[1]:
        raise UsageError(f"--dpi {dpi} is out of range; use {DPI_RANGE[0]} to {DPI_RANGE[1]}")
    backs_out = _backs_path(out) if split_backs and spec.backs else None
    for path in (out, backs_out):  # every output is checked before the work, and before any is written
        if path is not None:
            output_target(path, "output")
    if one_per_page and registration:
        raise UsageError("--registration-test is for sheets; it cannot lead a --one-per-page print")
    if one_per_page:  # a print shop prints at exact size: a home printer's corrections do not apply
        spec = replace(spec, scale=(100.0, 100.0), back_offset=(0.0, 0.0))
    cards = _expand(entries)
    if not cards:
        raise UsageError("nothing to print: no cards (or only 0 copies)")
    report = PrintReport(out, grid=grid, cards=len(cards))
    unique = list({card.id: card for card in cards}.values())
    pages = _single_pages(spec, cards, back_order) if one_per_page else _sheet_pages(grid, cards)
    report.sheets = sum(1 for p in pages if p.side == "front")
    total = len(unique) + len(pages)
    done = 0

    def tick(stage: str) -> None:
        nonlocal done
        done += 1
        if progress:
            progress(stage, done, total)

    with open_cache(images, use_cache) as cache:
        builder = FaceBuilder(
            images,
            cache,
            spec.card,
            dpi,
            declared_art,
            bleed=spec.bleed,
            bleed_fill=bleed_fill,
            full_art=full_art,
            assumed=assumed,
            profile=profile,
            art_fallback=True,
            warn=warn,
        )
        fronts: dict[str, tuple[str, Face]] = {}
        backs: dict[str, tuple[str, Face]] = {}
        for card in unique:
            fronts[card.id] = builder.face(card)
            if spec.backs:
                backs[card.id] = builder.back(card)
            tick("composing faces")
        for card in unique:
            try:
                for op in fronts[card.id][1].art_boxes:
                    builder.prepared_art(op)
            except CardbaseError as error:  # art that does not decode (cut short): the placeholder
                fronts[card.id] = builder.without_art(card, fronts[card.id][1], error)
        report.unique_faces = len({key for key, _ in fronts.values()})
        report.art_images = len(builder.prepared)
        report.missing_art = list(builder.missing)
        report.cache_hits, report.cache_misses = cache.hits, cache.misses
        report.warnings = builder.all_warnings(len(unique))
        if not one_per_page:
            cost = bleed_cost(spec)
            if cost:
                report.notes.append(f"the bleed costs cards: {cost}")
            turned = turned_paper_note(spec, len(cards))
            if turned:
                report.notes.append(turned)
        if spec.crop_marks and not one_per_page and grid.mark_length < MIN_MARK - 1e-6:
            report.warnings.append(
                f"crop marks are only {format_mm(max(grid.mark_length, 0))} mm long inside the printable area; "
                "use a larger --margin so they survive cutting"
            )
        sides = {"front": fronts, "back": backs}
        report.backs_path = backs_out

        def write_file(tmp: Path, wanted: set[str], with_registration: bool, subject: str) -> None:
            chosen = [p for p in pages if p.side in wanted]
            first = chosen[0]
            paper = (first.bleed[2], first.bleed[3]) if one_per_page else spec.paper
            c = pdf.new_canvas(tmp, paper, title, author, subject)
            forms: dict[str, str] = {}
            for page in chosen:
                for card, _ in page.cards:
                    key, face = sides[page.side][card.id]
                    if key not in forms:
                        forms[key] = f"card-{len(forms) + 1}"
                        pdf.define_form(c, forms[key], face, spec.bleed, builder.prepared_art)
            page_h = paper[1]
            number = 0
            if with_registration:
                for side in ("front", "back"):
                    pdf.begin_calibrated(c, spec, side == "back")
                    draw_registration(c, grid, side, options_line)
                    c.restoreState()
                    pdf.set_page_boxes(c, grid.trim_extent(), grid.bleed_extent(), page_h)
                    c.showPage()
                    number += 1
            for page in chosen:
                number += 1
                pdf.begin_calibrated(c, spec, page.side == "back")
                for card, slot in page.cards:
                    pdf.place_form(c, forms[sides[page.side][card.id][0]], slot, page_h)
                    if wanted == {"front", "back"} or page.side == "front":
                        report.placements.append(
                            Placement(
                                number, page.side, card.id, card.name, slot.x, slot.y, slot.w, slot.h, slot.rotated
                            )
                        )
                pdf.draw_segments(c, page.cuts, page_h, 0.1, "#9a9a9a", dash=(1.5, 1.0))
                pdf.draw_segments(c, page.marks, page_h, 0.25, "#000000")
                c.restoreState()
                pdf.set_page_boxes(c, page.trim, page.bleed, page_h)
                c.showPage()
                tick("drawing pages")
            c.save()
            if "front" in wanted:
                report.pages = number

        subject = _subject(spec, len(cards))
        with pdf.binary_streams():
            if backs_out is None:
                report.size_bytes = _write_atomic(
                    out, lambda p: write_file(p, {"front", "back"}, registration, subject)
                )
            else:  # both files or neither
                with output_files([out, backs_out], "output") as (front_file, back_file):
                    write_file(front_file, {"front"}, registration, subject)
                    write_file(back_file, {"back"}, False, subject + "; the backs")
                    report.size_bytes = front_file.stat().st_size + back_file.stat().st_size
    return report


def _backs_path(out: Path) -> Path:
    """Where ``--split-backs`` writes the backs: ``<name>-backs.pdf`` beside ``out``, which must
    then be a file name (not ``-`` or a device, which have no name to put the backs beside)."""
    target = output_target(out, "output")
    if target.stream is not None:
        raise UsageError(
            f"--split-backs writes two files, the backs beside the fronts as <name>-backs.pdf; "
            f"give -o a file name, not {out}"
        )
    return out.with_name(f"{out.stem}-backs{out.suffix}")


def _mirrored_extents(grid: Grid) -> tuple[tuple[float, float, float, float], tuple[float, float, float, float]]:
    pw, ph = grid.spec.paper

    def mirror(e: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
        left, top, right, bottom = e
        if not grid.spec.mirror_columns:
            return left, ph - bottom, right, ph - top
        return pw - right, top, pw - left, bottom

    return mirror(grid.trim_extent()), mirror(grid.bleed_extent())


def print_registration(out: Path, spec: SheetSpec, *, author: str = "cardbase", options_line: str = "") -> PrintReport:
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
            pdf.begin_calibrated(c, spec, side == "back")
            draw_registration(c, grid, side, options_line)
            c.restoreState()
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
    assumed: Mapping[str, Mapping[str, Any]] | None = None,
    profile: str = "",
) -> RenderReport:
    """Draw one card (or its back) to ``out``: PNG with Pillow, or a one-card PDF with ReportLab."""
    from cardbase.render import pdf
    from cardbase.render.raster import render_face, save_png

    suffix = out.suffix.lower()
    if suffix not in (".png", ".pdf"):
        raise UsageError(f"cannot render to {shown(str(out))}: the output must end in .png or .pdf")
    from cardbase.render.options import DPI_RANGE, check_pixels

    if not DPI_RANGE[0] <= dpi <= DPI_RANGE[1]:
        raise UsageError(f"--dpi {dpi} is out of range; use {DPI_RANGE[0]} to {DPI_RANGE[1]}")
    check_pixels(size[0] + 2 * bleed, size[1] + 2 * bleed, dpi, "a card")
    output_target(out, "output")  # a bad path is refused before the card is drawn
    report = RenderReport(out, dpi=dpi)
    with open_cache(images, use_cache) as cache:
        builder = FaceBuilder(images, cache, size, dpi, declared_art, assumed=assumed, profile=profile)
        key, face = builder.back(card) if back else builder.face(card)
        for op in face.art_boxes:
            builder.check_resolution(op)
        report.warnings = [w for w in builder.all_warnings(1) if not w.startswith("no art for")]
        if builder.missing:
            report.warnings.append(
                f"{card.name}: no art, drew a placeholder; add {builder.expected[0].as_posix()} (or .jpg, .webp)"
            )
        if suffix == ".png":
            png_key = cache_key("png", key, dpi, round(bleed, 4))
            cached = cache.png_path(png_key)
            if cache.usable(cached):
                report.cached = True
            else:
                img = render_face(face, dpi, bleed, builder.art_sources)
                cache.store(cached, lambda p: save_png(img, p, dpi))
            report.size_bytes = _write_atomic(out, lambda p: shutil.copyfile(cached, p))
            from PIL import Image

            with Image.open(cached) as img:  # the output may be a stream (-, /dev/null): not read back
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
