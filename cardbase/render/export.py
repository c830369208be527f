"""Card images for print services: one PNG per distinct card face and per distinct back, with a manifest.

Files are named in deck order (``001-crumb-goblin.png``; backs ``back-mea-back.png``), each at
the card size plus bleed at the chosen DPI with the DPI recorded, so it prints at true size.
``manifest.csv`` lists every file with its card, side and count (how many of it to print), in the
form card-printing services ask for. Faces are drawn once each, in one process per core (up to 4)
when there are many; rendered PNGs come from the face cache when they can; the
folder is written into a temporary folder beside it and renamed into place, so a failed export
leaves any earlier one as it was. A folder that is not empty is only replaced when it holds an
earlier export (its ``manifest.csv`` and the files it lists).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardbase import cores
from cardbase.errors import UsageError, quoted, shown
from cardbase.names import slug
from cardbase.render.cache import cache_key
from cardbase.render.printing import DEFAULT_DPI, Entry, FaceBuilder, open_cache
from cardbase.render.raster import render_face, save_png
from cardbase.sheets import SheetWriter
from cardbase.textfiles import checked_folder, output_folder

MANIFEST = "manifest.csv"


@dataclass
class ExportReport:
    """What an export wrote."""

    folder: Path
    files: list[str] = field(default_factory=list)
    cards: int = 0
    fronts: int = 0
    backs: int = 0
    width_px: int = 0
    height_px: int = 0
    cached: int = 0
    warnings: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "folder": str(self.folder),
            "cards": self.cards,
            "fronts": self.fronts,
            "backs": self.backs,
            "files": len(self.files),
            "size_px": [self.width_px, self.height_px],
            "cached": self.cached,
            "manifest": str(self.folder / MANIFEST),
            "warnings": self.warnings,
        }


PARALLEL_FROM = 16  # faces to draw before drawing them in several processes pays


def _draw_one(job: tuple[dict[str, Any], int, float, dict[str, str], str]) -> str:
    """Draw one face to the cached PNG at ``png`` (run in a worker process)."""
    from cardbase.render.cache import FaceCache
    from cardbase.render.face import Face

    face_json, dpi, bleed, art, png = job
    image = render_face(Face.from_json(face_json), dpi, bleed, {k: Path(v) for k, v in art.items()})
    FaceCache(Path(png).parent).store(Path(png), lambda p: save_png(image, p, dpi))
    return png


def _draw_all(
    todo: Mapping[Path, Any],
    dpi: int,
    bleed: float,
    art: Mapping[str, Path],
    cache: Any,
    progress: Callable[[str, int, int], None] | None,
) -> None:
    """Draw every face in ``todo`` to its cached PNG: in one process per core when there are many
    (stopped at once on Ctrl-C, ``cores.map_in_processes``)."""
    workers = min(cores.available_cores(), 4)
    if workers < 2 or len(todo) < PARALLEL_FROM:
        for done, (png, face) in enumerate(todo.items(), start=1):
            image = render_face(face, dpi, bleed, art)
            cache.store(png, lambda p, image=image: save_png(image, p, dpi))
            if progress:
                progress("drawing images", done, len(todo))
        return
    sources = {k: str(v) for k, v in art.items()}
    jobs = ((face.to_json(), dpi, bleed, sources, str(png)) for png, face in todo.items())
    for done, _ in enumerate(cores.map_in_processes(_draw_one, jobs, workers), start=1):
        if progress:
            progress("drawing images", done, len(todo))


def _refuse_foreign(real: Path, folder: Path) -> None:
    """A ``UsageError`` unless the folder ``real`` is new, empty, or holds an earlier export and only
    that (its manifest and the files it lists): the new export replaces it whole, so anything else in
    it (a deck, notes, a picture of the user's, a folder) would be deleted."""
    if not real.is_dir():
        return
    entries = sorted(real.iterdir())
    if not entries:
        return
    listed = _manifest_files(real / MANIFEST)
    if listed is None:
        raise UsageError(
            f"{shown(str(folder))} is not empty and holds no earlier export (a {MANIFEST} it wrote); give a new folder"
        )
    foreign = [e for e in entries if not (e.name == MANIFEST or (e.name in listed and _plain_file(e)))]
    if foreign:
        more = f" and {len(foreign) - 1:,} more" if len(foreign) > 1 else ""
        raise UsageError(
            f"{shown(str(folder))}: holds {quoted(foreign[0].name)}{more}, which the earlier export's {MANIFEST} "
            "does not list; an export replaces the whole folder, so it would be deleted: move it out or give a "
            "new folder"
        )


_MANIFEST_BOUND = 16 * 1024 * 1024  # bytes: a manifest of 100,000 cards is about 10 MB


def _manifest_files(path: Path) -> set[str] | None:
    """The PNG files an earlier export's manifest lists, or None when ``path`` is no manifest an
    export wrote (missing, not a plain file, too large, unreadable, or without its ``file`` column)."""
    import csv

    if not _plain_file(path) or path.stat().st_size > _MANIFEST_BOUND:
        return None
    try:
        with path.open(encoding="utf-8", newline="") as handle:
            rows = csv.DictReader(handle)
            if rows.fieldnames is None or "file" not in rows.fieldnames:
                return None
            return {name for row in rows if (name := row.get("file") or "").lower().endswith(".png")}
    except (OSError, UnicodeDecodeError, csv.Error):
        return None


def _plain_file(path: Path) -> bool:
    return path.is_file() and not path.is_symlink()


def export_images(
    entries: Sequence[Entry],
    folder: Path,
    *,
    size: tuple[float, float] = (63.0, 88.0),
    bleed: float = 0.0,
    dpi: int = DEFAULT_DPI,
    backs: bool = True,
    images: Path = Path("card_images"),
    use_cache: bool = True,
    declared_art: Mapping[str, str] | None = None,
    progress: Callable[[str, int, int], None] | None = None,
    bleed_fill: str = "frame",
    full_art: bool = False,
) -> ExportReport:
    """Write ``entries`` — (card, copies) pairs — as PNGs and ``manifest.csv`` into ``folder``."""
    from cardbase.render.options import DPI_RANGE, check_pixels

    if not DPI_RANGE[0] <= dpi <= DPI_RANGE[1]:
        raise UsageError(f"--dpi {dpi} is out of range; use {DPI_RANGE[0]} to {DPI_RANGE[1]}")
    check_pixels(size[0] + 2 * bleed, size[1] + 2 * bleed, dpi, "a card")
    # A link to a folder: the folder it points to; the current folder, the deck or the database inside
    # it are refused first (the one walk through it), then anything no export writes.
    checked = checked_folder(folder, "images")
    _refuse_foreign(checked.real, folder)
    counts: dict[str, int] = {}
    order: dict[str, Any] = {}
    for card, copies in entries:
        if copies > 0:
            order.setdefault(card.id, card)
            counts[card.id] = counts.get(card.id, 0) + copies
    if not order:
        raise UsageError("nothing to export: no cards (or only 0 copies)")
    report = ExportReport(folder, cards=sum(counts.values()))
    rows: list[dict[str, Any]] = []
    # Checked again when the old folder is moved aside: a file saved into it while the faces were drawn.
    with output_folder(checked, check_old=lambda old: _refuse_foreign(old, folder)) as tmp:
        with open_cache(images, use_cache) as cache:
            builder = FaceBuilder(
                images,
                cache,
                size,
                dpi,
                declared_art,
                bleed=bleed,
                bleed_fill=bleed_fill,
                full_art=full_art,
                art_fallback=True,
            )

            planned: list[tuple[str, Path]] = []  # (file name, cached PNG) in deck order
            todo: dict[Path, Any] = {}  # cached PNGs still to draw, with their faces

            def write(name: str, key: str, face: Any, card: Any) -> None:
                png = cache.png_path(cache_key("png", key, dpi, round(bleed, 4)))
                if not cache.usable(png):  # to draw: its art must decode, or it is the placeholder
                    key, face = builder.decoded(card, (key, face))
                    png = cache.png_path(cache_key("png", key, dpi, round(bleed, 4)))
                if cache.usable(png):
                    report.cached += 1
                else:
                    todo[png] = face
                planned.append((name, png))
                report.files.append(name)

            back_files: dict[str, str] = {}
            back_counts: dict[str, int] = {}
            total = len(order)
            for i, (card_id, card) in enumerate(order.items(), start=1):
                key, face = builder.face(card)
                name = f"{i:03d}-{slug(card.name) or 'card'}.png"
                write(name, key, face, card)
                report.fronts += 1
                back_name = ""
                if backs:
                    back_key, back_face = builder.back(card)
                    if back_key not in back_files:
                        back_files[back_key] = f"back-{back_face.layout}.png"
                        if back_files[back_key] in report.files:  # two backs of one layout (tiles' colours)
                            back_files[back_key] = f"back-{back_face.layout}-{len(back_files)}.png"
                        write(back_files[back_key], back_key, back_face, card)
                        report.backs += 1
                    back_name = back_files[back_key]
                    back_counts[back_name] = back_counts.get(back_name, 0) + counts[card_id]
                rows.append(  # set and source say which cards are cardbase's own demo cards (set "demo")
                    {"file": name, "side": "front", "name": card.name, "game": card.game}
                    | {"set": card.set_code, "source": card.source, "count": counts[card_id], "back": back_name}
                )
                if progress:
                    progress("composing faces", i, total)
            for back_name, n in back_counts.items():
                rows.append(
                    {"file": back_name, "side": "back", "name": "", "game": "", "set": "", "source": ""}
                    | {"count": n, "back": ""}
                )
            for op in (op for face in todo.values() for op in face.art_boxes):
                builder.check_resolution(op)
            _draw_all(todo, dpi, bleed, builder.art_sources, cache, progress)
            for name, png in planned:
                shutil.copyfile(png, tmp / name)  # a copy: editing an export never changes the cache
            report.warnings = builder.all_warnings(total)
        with (tmp / MANIFEST).open("w", encoding="utf-8", newline="") as handle:
            writer = SheetWriter(
                handle, ["file", "side", "name", "game", "set", "source", "count", "back"]
            )  # opened in a spreadsheet
            writer.writeheader()
            writer.writerows(rows)
        from PIL import Image

        with Image.open(tmp / report.files[0]) as first:
            report.width_px, report.height_px = first.size
    return report
