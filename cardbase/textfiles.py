"""Reading users' files: the one place a user's file is opened.

Only regular files are read (a folder, a FIFO, ``/dev/zero`` or a socket is refused before it
is opened), never more than the caller's bound (checked on the size and again while reading,
so a file that grows cannot slip past it), and text must be UTF-8. JSON goes through
:func:`load_json`, which bounds nesting and refuses ``NaN`` and ``Infinity``. Output goes
through :func:`output_file`, which writes a file whole or not at all.
"""

from __future__ import annotations

import functools
import json
import os
import re
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from cardbase.errors import UnreadableInput, quoted, shown

DEFAULT_MAX_BYTES = 64 * 1024 * 1024
"""The bound for a file whose reader names none: far above any deck, record or catalog we make."""

MAX_JSON_DEPTH = 64
"""No file cardbase reads nests deeper than a few levels; 64 leaves room and stays far from recursion limits."""


NAME_MAX = 255
"""Bytes in one name of a path (POSIX file systems: ext4, XFS, APFS, NTFS via UTF-16 alike)."""
PATH_MAX = 4096
"""Bytes in a whole path, its final NUL included (Linux)."""


def path_problem(path: str | os.PathLike[str]) -> str | None:
    """Why no file system can hold ``path`` (``None`` if one can): a NUL, a name over
    :data:`NAME_MAX` bytes, or over :data:`PATH_MAX` bytes in all. The one check where a path enters."""
    text = os.fspath(path)
    if "\0" in text:
        return f"{quoted(text)}: a path cannot hold a NUL character"
    try:
        raw = os.fsencode(text)
    except UnicodeEncodeError:
        return f"{quoted(text)}: not a name this system can write (it holds a lone surrogate)"
    if len(raw) >= PATH_MAX:
        return f"{quoted(text)}: a path of {len(raw):,} bytes; the system takes at most {PATH_MAX - 1:,}"
    longest = max(raw.split(b"/"), key=len)
    if len(longest) > NAME_MAX:
        name = os.fsdecode(longest)
        return f"{quoted(name, 60)}: a file name of {len(longest):,} bytes; the system takes at most {NAME_MAX}"
    return None


def _size(n: int) -> str:
    return f"{n / 1024 / 1024:.0f} MiB" if n >= 1024 * 1024 else f"{n:,} bytes"


def read_bytes(path: Path, what: str = "file", max_bytes: int = DEFAULT_MAX_BYTES) -> bytes:
    """The bytes of the regular file ``path``, at most ``max_bytes``; anything else is ``UnreadableInput``."""
    where = shown(str(path))
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise UnreadableInput(f"{where}: no such file") from None
    except OSError as error:
        raise UnreadableInput(f"{where}: cannot read: {error.strerror}") from None
    except ValueError:  # a NUL in the path: no file can have that name
        raise UnreadableInput(f"{quoted(str(path))}: no such file (a path cannot hold a NUL character)") from None
    if stat.S_ISDIR(info.st_mode):
        raise UnreadableInput(f"{where}: is a folder, not a {what}")
    if not stat.S_ISREG(info.st_mode):
        raise UnreadableInput(f"{where}: not a regular file (a device, pipe or socket), so not a {what}")
    if info.st_size > max_bytes:
        raise UnreadableInput(
            f"{where}: {_size(info.st_size)} is too large for a {what} (the bound is {_size(max_bytes)})"
        )
    try:
        with open(path, "rb") as f:
            raw = f.read(max_bytes + 1)
    except OSError as error:
        raise UnreadableInput(f"{where}: cannot read: {error.strerror}") from None
    if len(raw) > max_bytes:
        raise UnreadableInput(f"{where}: too large for a {what} (the bound is {_size(max_bytes)})")
    return raw


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


def read_text(path: Path, what: str = "file", max_bytes: int = DEFAULT_MAX_BYTES, hint: str = "") -> str:
    """The UTF-8 text of the regular file ``path`` (see :func:`read_bytes` and :func:`decode_text`)."""
    return decode_text(read_bytes(path, what, max_bytes), str(path), what, hint=hint)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number cardbase accepts")


def load_json(text: str, source: str, *, bad: str = "invalid JSON", one_line: bool = False) -> Any:
    """Parse JSON text; bad syntax, nesting deeper than ``MAX_JSON_DEPTH``, ``NaN``, ``Infinity`` or a
    lone surrogate (see :func:`check_characters`)
    is ``UnreadableInput`` naming ``source`` and saying ``bad`` (with the line and column where JSON
    says; ``one_line`` for a line of JSON Lines, whose ``source`` already names the line)."""
    _check_depth(text, source)
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        if one_line:
            raise UnreadableInput(f"{source}: {bad}: {error.msg} (column {error.colno})") from None
        where = f"{source}: line {error.lineno}, column {error.colno}"
        raise UnreadableInput(f"{where}: {bad}: {error.msg}") from None
    except ValueError as error:  # NaN / Infinity, or a number too long to convert
        raise UnreadableInput(f"{source}: {bad}: {error}") from None
    except RecursionError:
        raise UnreadableInput(f"{source}: JSON nested too deeply (at most {MAX_JSON_DEPTH} levels)") from None
    return check_characters(data, source)


def load_toml(text: str, source: str) -> dict[str, Any]:
    """Parse TOML text; bad syntax, an integer too long to read (over 4,300 digits, which ``tomllib``
    lets through as a bare ``ValueError``) or nesting too deep is ``UnreadableInput`` naming ``source``."""
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise UnreadableInput(f"{source}: not valid TOML: {error}") from None
    except ValueError:
        raise UnreadableInput(f"{source}: not valid TOML: a number of over 4,300 digits") from None
    except RecursionError:
        raise UnreadableInput(f"{source}: not valid TOML: nested too deeply") from None


_JSON_TYPES = {bool: "true/false", int: "a number", float: "a number", str: "text", list: "a list", dict: "an object"}


def json_type(value: Any) -> str:
    """What JSON calls ``value``'s type, in words (``a number``, ``an object``), for a message."""
    return "null" if value is None else _JSON_TYPES.get(type(value), type(value).__name__)


def check_characters(data: Any, source: str) -> Any:
    """``data`` (parsed JSON), unless one of its strings holds a lone surrogate (``"\\udcff"``, which
    JSON can write and no UTF-8 text can hold: it could be neither printed nor stored); that is
    ``UnreadableInput`` naming ``source``."""
    pending = [data]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            texts: list[Any] = [item]
        elif isinstance(item, dict):
            texts = list(item)
            pending.extend(item.values())
        elif isinstance(item, list):
            texts = []
            pending.extend(item)
        else:
            continue
        for text in texts:
            if isinstance(text, str) and not text.isascii():
                try:
                    text.encode("utf-8")
                except UnicodeEncodeError as error:
                    bad = f"\\u{ord(text[error.start]):04x}"
                    raise UnreadableInput(
                        f"{source}: the string {quoted(text)} holds {bad}, "
                        "half of a UTF-16 pair, which is not a character"
                    ) from None
    return data


# A JSON string (an unterminated one runs to the end, so no match is ever retried: linear time) or a bracket.
_JSON_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?\Z)|[\[\]{}]', re.S)


def json_depth(text: str, most: int | None = None) -> int:
    """The deepest nesting of ``[`` and ``{`` in JSON text, counted without parsing (brackets inside
    strings skipped), in one pass; stops counting once past ``most``."""
    depth = deepest = 0
    for match in _JSON_TOKEN.finditer(text):
        char = text[match.start()]
        if char in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if most is not None and deepest > most:
                    break
        elif char in "]}":
            depth -= 1
    return deepest


def _check_depth(text: str, source: str) -> None:
    """Refuse JSON nested deeper than ``MAX_JSON_DEPTH`` without recursing."""
    if text.count("[") + text.count("{") > MAX_JSON_DEPTH and json_depth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH:
        raise UnreadableInput(f"{source}: JSON nested too deeply (at most {MAX_JSON_DEPTH} levels)")


@functools.cache
def _umask() -> int:
    """The process's umask, read once: reading it means setting it, and a server's other threads
    must not make a file while it is briefly 0."""
    mask = os.umask(0o077)
    os.umask(mask)
    return mask


def open_mode(temporary: Path, folder: bool = False) -> None:
    """Give a file (or folder) made by ``tempfile`` (which makes them private: 0600, 0700) the mode
    a newly made one gets from the umask, as any other program's output (0644, 0755 with umask 022)."""
    os.chmod(temporary, (0o777 if folder else 0o666) & ~_umask())


@contextmanager
def output_file(path: Path, what: str = "file") -> Iterator[Path]:
    """A temporary path beside ``path`` to write to; when the block ends without error it
    replaces ``path`` in one step, so a reader never sees half a file and a failed or interrupted
    write leaves whatever was there before. A folder in the way, a file where a folder should be,
    or a write the system refuses is ``UnreadableInput`` naming ``path``."""
    path = Path(path)
    if path.is_dir():
        raise UnreadableInput(f"{path}: is a folder; give the {what}'s file name")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise UnreadableInput(f"{path}: cannot make folder {path.parent}: a file of that name is in the way") from None
    except OSError as error:
        raise UnreadableInput(f"{path}: cannot make folder {path.parent}: {error.strerror}") from None
    try:
        fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=f".part{path.suffix}", dir=path.parent)
        os.close(fd)
    except OSError as error:
        raise UnreadableInput(f"{path}: cannot write the {what}: {error.strerror}") from None
    temporary = Path(name)
    try:
        yield temporary
        open_mode(temporary)
        os.replace(temporary, path)
    except OSError as error:
        raise UnreadableInput(f"{path}: cannot write the {what}: {error.strerror}") from None
    finally:
        temporary.unlink(missing_ok=True)


def write_text_output(path: Path, text: str, what: str = "file") -> None:
    """Write ``text`` (UTF-8) to ``path`` through :func:`output_file`."""
    with output_file(path, what) as temporary:
        temporary.write_text(text, encoding="utf-8")
