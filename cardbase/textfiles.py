"""Reading users' files: one clear error for a missing, unreadable, binary or non-UTF-8 file."""

from __future__ import annotations

from pathlib import Path

from cardbase.errors import UnreadableInput


def read_bytes(path: Path, what: str = "file") -> bytes:
    """The bytes of ``path``; a missing file, a folder or an OS error is ``UnreadableInput``."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise UnreadableInput(f"{path}: no such file") from None
    except IsADirectoryError:
        raise UnreadableInput(f"{path}: is a folder, not a {what}") from None
    except OSError as error:
        raise UnreadableInput(f"{path}: cannot read: {error.strerror}") from None


def decode_text(raw: bytes, source: str, what: str = "file", max_bytes: int | None = None, hint: str = "") -> str:
    """``raw`` as UTF-8 text (a BOM is dropped); too large, binary or not UTF-8 is ``UnreadableInput``."""
    if max_bytes is not None and len(raw) > max_bytes:
        raise UnreadableInput(f"{source}: {len(raw):,} bytes is too large for a {what} (at most {max_bytes:,})")
    if b"\x00" in raw:
        raise UnreadableInput(f"{source}: a binary file, not a text {what}{hint}")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise UnreadableInput(f"{source}: line {line}: not UTF-8 text (save the {what} as UTF-8)") from None
