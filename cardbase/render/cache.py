"""The content-hashed face cache in ``card_images/.cache/``.

Keys are sha256 digests of everything a result depends on: the card's face values, the
layout's fingerprint (its data and ``LAYOUT_VERSION``), the card size, the art's content
digest and, for raster results, the DPI. A changed card, layout, image or size is a new key,
so nothing is ever stale; old entries are simply unused (delete the folder to reclaim space).

Entries: ``faces/<key>.json`` (composed faces, for both backends), ``png/<key>.png``
(rendered PNG faces) and ``art/<digest>-<w>x<h>.jpg`` (art cropped and resampled for a box
in a PDF). Writes go to a temporary file first and are renamed into place, so two prints
running at once, or an interrupted one, never leave a half-written entry.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import uuid
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from cardbase.render.face import Face

CACHE_DIRNAME = ".cache"


def cache_key(*parts: Any) -> str:
    """A sha256 hex digest of ``parts`` (JSON-encoded)."""
    blob = json.dumps(parts, sort_keys=True, ensure_ascii=False, default=str, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


def face_key(values: Mapping[str, Any], layout_fingerprint: str, size: tuple[float, float], art: str | None) -> str:
    """The key of a composed face."""
    return cache_key("face", dict(values), layout_fingerprint, [round(size[0], 4), round(size[1], 4)], art)


def _write_atomic(path: Path, write: Callable[[Path], object]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.parent / f".tmp-{os.getpid()}-{uuid.uuid4().hex[:8]}{path.suffix}"
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


class FaceCache:
    """The cache at ``root`` (e.g. ``card_images/.cache``); counts hits and misses."""

    def __init__(self, root: Path):
        self.root = root
        self.hits = 0
        self.misses = 0

    def face(self, key: str) -> Face | None:
        """The cached face under ``key``, or None (a damaged entry counts as missing)."""
        path = self.root / "faces" / f"{key[:2]}" / f"{key}.json"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            face = Face.from_json(data)
        except (OSError, ValueError, KeyError, TypeError):
            self.misses += 1
            return None
        self.hits += 1
        return face

    def put_face(self, key: str, face: Face) -> None:
        path = self.root / "faces" / f"{key[:2]}" / f"{key}.json"
        blob = json.dumps(face.to_json(), ensure_ascii=False, separators=(",", ":"))
        with contextlib.suppress(OSError):  # a read-only or full disk costs speed, not correctness
            _write_atomic(path, lambda p: p.write_text(blob, encoding="utf-8"))

    def usable(self, path: Path) -> bool:
        """Whether the image entry at ``path`` is there and whole (a PNG's chunks and their checksums, a
        JPEG decoded). A damaged entry is removed and counts as missing, so it is drawn again."""
        if not path.is_file():
            return False
        from PIL import Image

        try:
            with Image.open(path) as image:
                if image.format == "PNG":
                    image.verify()
                else:
                    image.load()
        except Exception:  # whatever Pillow finds wrong (OSError, SyntaxError, …), the entry is redrawn
            with contextlib.suppress(OSError):
                path.unlink()
            return False
        return True

    def png_path(self, key: str) -> Path:
        return self.root / "png" / f"{key}.png"

    def art_path(self, digest: str, width_px: int, height_px: int) -> Path:
        """Where art prepared for a box is kept: ``digest`` is the art's and its variant's (matte, whole
        face, preparing's version), all of it in the name (its first 32 characters were the art's
        digest alone, so every variant of one file shared one entry)."""
        return self.root / "art" / f"{cache_key('art', digest)[:32]}-{width_px}x{height_px}.jpg"

    def store(self, path: Path, write: Callable[[Path], None]) -> Path:
        """Write an entry at ``path`` atomically; returns ``path``."""
        _write_atomic(path, write)
        return path
