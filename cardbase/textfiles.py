"""Reading users' files: the one place a user's file is opened.

Only regular files are read (a folder, a FIFO, ``/dev/zero`` or a socket is refused before it
is opened), never more than the caller's bound (checked on the size and again while reading,
so a file that grows cannot slip past it), and text must be UTF-8. JSON goes through
:func:`load_json`, which bounds nesting and refuses ``NaN`` and ``Infinity``.

Every path a command writes goes through :func:`output_target` (files) or
:func:`output_folder_target` (folders), checked before anything is written: a regular file or a
new path is written whole or not at all (:func:`output_file`, :func:`output_files`,
:func:`output_folder`), through a link to its target; ``-`` (standard output) and a character
device (``/dev/null``, a terminal) are written to as streams and never replaced; a folder where a
file should be, a FIFO, a block device or a socket is refused, naming the path and what it is.
"""

from __future__ import annotations

import functools
import io
import json
import os
import re
import shutil
import stat
import sys
import tempfile
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, NoReturn, TextIO

from cardbase.errors import UnreadableInput, json_syntax, plural, quoted, shown

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
    :data:`NAME_MAX` bytes, or over :data:`PATH_MAX` bytes in all; or why it is no path a user means:
    blank (empty or spaces only, a script's unset variable). The one check where a path enters."""
    text = os.fspath(path)
    if not text.strip():  # (a Path made of '' is '.': the command line refuses those as they are parsed)
        return f"{quoted(text)} is blank: give a path"
    if "\0" in text:
        return f"{quoted(text)}: a path cannot hold a NUL character"
    try:
        raw = os.fsencode(text)
    except UnicodeEncodeError:
        return f"{quoted(text)}: not a name this system can write (it holds a lone surrogate)"
    if len(raw) >= PATH_MAX:
        return (
            f"{quoted(text)}: a path of {len(raw):,} {plural(len(raw), 'byte')}; the system takes at most "
            f"{PATH_MAX - 1:,}"
        )
    longest = max(raw.split(b"/"), key=len)
    if len(longest) > NAME_MAX:
        name = os.fsdecode(longest)
        return (
            f"{quoted(name, 60)}: a file name of {len(longest):,} {plural(len(longest), 'byte')}; the system takes "
            f"at most {NAME_MAX}"
        )
    return None


LINE_END = re.compile(r"\r\n|\r|\n")
"""Where a line ends in every line-based text input (deck and collection lists, a Meio hand, CSV and
TSV sheets, game records, art credits, the web's needs): LF, CRLF or a lone CR, and nowhere else —
where CSV, JSON Lines and TOML end lines too. :func:`split_lines` and :func:`stray_break` apply it."""

_STRAY_BREAKS = {
    "\v": "a vertical tab (VT, U+000B)",
    "\f": "a form feed (FF, U+000C)",
    "\x1c": "a file separator (FS, U+001C)",
    "\x1d": "a group separator (GS, U+001D)",
    "\x1e": "a record separator (RS, U+001E)",
    "\x85": "a next-line character (NEL, U+0085)",
    "\u2028": "a line separator (LS, U+2028)",
    "\u2029": "a paragraph separator (PS, U+2029)",
}
"""The characters ``str.splitlines`` breaks lines at besides CR and LF. They end no line in cardbase's
files (CSV keeps them inside a row, JSON inside a string), so a file holding one is refused where
it is read, naming the line and the character, rather than read one way here and another there."""
_STRAY_BREAK = re.compile("[" + "".join(_STRAY_BREAKS) + "]")


JSON_LINE_ESCAPES = {ord(c): f"\\u{ord(c):04x}" for c in "\x85\u2028\u2029"}
"""``str.translate`` table for JSON written ``ensure_ascii=False`` (where ``json`` leaves NEL, LS and PS
raw; it escapes the C0 breaks itself): each written as its escape, the same JSON text, so that what
cardbase writes line by line holds no stray break (:data:`_STRAY_BREAKS`) and reads back."""


BYTE_ORDER_MARK = "\ufeff"


def without_mark(text: str) -> str:
    """``text`` without the byte order mark it may start with: a text given as text (pasted, a
    JSON body's field) reads as a file decoded by :func:`decode_text` does, which drops it. Only the
    first character: a mark inside a name is an invisible character, refused where names are read."""
    return text[1:] if text.startswith(BYTE_ORDER_MARK) else text


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` by :data:`LINE_END` (a line end after the last line ends it: no empty
    line follows), for every line-based reader. Line ``n`` of a message is ``split_lines(text)[n - 1]``."""
    lines = LINE_END.split(text)
    if lines[-1] == "":
        lines.pop()
    return lines


def stray_break(text: str) -> tuple[int, str] | None:
    """The line (from 1, counted by :data:`LINE_END`) and the name of the first character in ``text``
    that other programs take for a line end and cardbase does not (:data:`_STRAY_BREAKS`), or None."""
    if (match := _STRAY_BREAK.search(text)) is None:
        return None
    return len(LINE_END.findall(text, 0, match.start())) + 1, _STRAY_BREAKS[match.group()]


def stray_break_reason(what: str) -> str:
    """What a message says of a stray break ``what`` (from :func:`stray_break`): the one wording."""
    return f"holds {what}, which does not end a line here (lines end with LF, CRLF or CR): remove it or break the line"


def check_line_ends(text: str, source: str) -> None:
    """Refuse ``text`` (from ``source``) holding a stray break: ``UnreadableInput`` naming its line."""
    if (found := stray_break(text)) is not None:
        raise UnreadableInput(f"{source}: line {found[0]}: {stray_break_reason(found[1])}")


def _a(what: str) -> str:
    """``what`` with its article: ``a deck file``, ``an assumption profile``."""
    return f"{'an' if what[:1].lower() in 'aeiou' else 'a'} {what}"


def _size(n: int) -> str:
    return f"{n / 1024 / 1024:.0f} MiB" if n >= 1024 * 1024 else f"{n:,} {plural(n, 'byte')}"


@dataclass
class _Kept:
    """Files no output may replace while one command runs: the files it has read (a deck, a catalog,
    a record, ...) by (device, inode), and its open database by real path (its ``-wal`` and
    ``-journal`` may not exist yet), each with what it is for the message; ``read``: the real path
    and role of each file read, in order (an output folder checked earlier checks those read since
    by name, without walking itself again: :func:`output_folder`)."""

    files: dict[tuple[int, int], str]
    paths: dict[str, str]
    read: list[tuple[str, str]] = field(default_factory=list)


_kept: _Kept | None = None
"""The running command's kept files (None outside a command: a server reads art for days and
replaces it when asked, so it keeps nothing)."""


@contextmanager
def keeping_inputs() -> Iterator[None]:
    """While the block runs (one CLI command), no output replaces a file read or the database opened."""
    global _kept
    outer, _kept = _kept, _Kept({}, {})
    try:
        yield
    finally:
        _kept = outer


def keep_nothing() -> None:
    """Forget the kept files and keep no more (``serve``: the web app replaces art it has shown)."""
    global _kept
    _kept = None


def _keep_file(info: os.stat_result, role: str) -> None:
    if _kept is not None:
        _kept.files.setdefault((info.st_dev, info.st_ino), role)


def keep_safe(path: str | os.PathLike[str], role: str) -> None:
    """Let no output of the running command replace ``path`` (nor a link to it, nor a hard link):
    ``role`` says what it is in the refusal (``the database``)."""
    if _kept is None:
        return
    real = os.path.realpath(path)
    _kept.paths.setdefault(real, role)
    try:
        info = os.stat(real)
    except (OSError, ValueError):
        return
    _keep_file(info, role)


SQLITE_HEADER = b"SQLite format 3\x00"
SQLITE_SIDE_FILES = ("-wal", "-shm", "-journal")
"""What SQLite adds to a database's name for the files it keeps beside it while the database is open."""
_JOURNAL_HEADERS = {
    b"\x37\x7f\x06\x82": "a SQLite write-ahead log",
    b"\x37\x7f\x06\x83": "a SQLite write-ahead log",
    b"\xd9\xd5\x05\xf9": "a SQLite rollback journal",
    (3007000).to_bytes(4, sys.byteorder): "a SQLite shared-memory index (-shm)",
}


def starts_with(path: Path, size: int) -> bytes:
    """The first ``size`` bytes of ``path`` if it is a regular file (``b""`` if it is not, or cannot be
    read): a FIFO there is not waited on (``open_regular``; a plain open waited for a writer for ever)."""
    try:
        with open_regular(path) as f:
            return f.read(size)
    except (OSError, UnreadableInput):
        return b""


def _is_sqlite(path: Path) -> bool:
    return starts_with(path, len(SQLITE_HEADER)) == SQLITE_HEADER


def sqlite_side_file(path: Path) -> tuple[str, Path] | None:
    """``(suffix, database)`` when ``path`` is named as one of SQLite's side files (``-wal``, ``-shm``,
    ``-journal``) of a SQLite database that is there: replacing it would lose or damage what the
    database holds, whichever program has it open."""
    for suffix in SQLITE_SIDE_FILES:
        if path.name.endswith(suffix) and len(path.name) > len(suffix):
            database = path.with_name(path.name[: -len(suffix)])
            if _is_sqlite(database):
                return suffix, database
    return None


def _sqlite_role(path: Path) -> str | None:
    """What the existing regular file ``path`` is to SQLite by its first bytes, whatever its name: a
    database or a journal."""
    start = starts_with(path, len(SQLITE_HEADER))
    return "a SQLite database" if start == SQLITE_HEADER else _JOURNAL_HEADERS.get(start[:4])


def _refuse_kept(target: OutputTarget, info: os.stat_result | None, what: str) -> None:
    """``UnreadableInput`` if writing ``target`` would replace a file this command reads or its
    database (a link to one, or a hard link, alike), or any SQLite database or journal, or a name
    SQLite keeps a database's ``-wal``, ``-shm`` or ``-journal`` at (no output of cardbase is one:
    it is given by mistake, and another program may have that database open)."""
    role = None
    if _kept is not None:
        role = _kept.paths.get(os.path.realpath(target.path))
        if role is None and info is not None:
            role = _kept.files.get((info.st_dev, info.st_ino))
    if role is None and (side := sqlite_side_file(target.path)) is not None:
        role = f"named as the {side[0]} file of the SQLite database {shown(str(side[1]))}"
    if role is None and info is not None and stat.S_ISREG(info.st_mode):
        role = _sqlite_role(target.path)
    if role is not None:
        raise UnreadableInput(f"{target.named}: is {role}; not replaced by the {what}: give another file name")


_LISTED = 5_000
"""The most names of a folder compared with a missing file's name (a folder of millions stays quick)."""


def missing_file_hint(path: str) -> str:
    """What to add to "no such file" for ``path``: the file that is there of the closest name in
    the same folder (``; did you mean 'examples/decks/rush.txt'?``, a typo), the same path written
    with ``/`` when it was written with Windows' ``\\`` and is there so, or a word that a Windows
    path (``C:\\…``) names no file here; ``""`` when there is nothing close."""
    from cardbase.fuzzy import closest

    windows = "\\" in path
    if windows:
        if re.match(r"[A-Za-z]:\\", path):
            return "; that is a Windows path: give the file's path on this computer, with / between folders"
        path = path.replace("\\", "/")
        if os.path.isfile(path):
            return f"; folders are parted by /: did you mean {quoted(path)}?"
    folder, name = os.path.split(path)
    try:
        with os.scandir(folder or ".") as entries:
            names = [entry.name for _, entry in zip(range(_LISTED), entries, strict=False) if entry.is_file()]
    except (OSError, ValueError):
        return "; folders are parted by /" if windows else ""
    near = closest(name, {n.casefold(): n for n in names}, n=1, cutoff=0.75)
    if not near:
        return "; folders are parted by /" if windows else ""
    return f"; did you mean {quoted(os.path.join(folder, near[0]))}?"


def open_regular(path: Path, what: str = "file") -> BinaryIO:
    """The regular file ``path`` opened to read (binary), or ``UnreadableInput`` naming it: no such
    file, a folder, a device, pipe or socket. The kind is told from the file opened, not from the path
    before: a file replaced by a FIFO between a check and the open would make the open wait for a
    writer for ever (a hang); it is opened without waiting (``O_NONBLOCK``), then looked at."""
    where = shown(str(path))
    nonblock = getattr(os, "O_NONBLOCK", 0)  # (POSIX: Windows has no FIFO to wait on)
    flags = (
        os.O_RDONLY | nonblock | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    )
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise UnreadableInput(f"{where}: no such file{missing_file_hint(str(path))}") from None
    except ValueError:  # a NUL in the path: no file can have that name
        raise UnreadableInput(f"{quoted(str(path))}: no such file (a path cannot hold a NUL character)") from None
    except OSError as error:
        with suppress(OSError):  # a socket cannot be opened at all: said as what it is
            if not stat.S_ISREG(os.stat(path).st_mode) and not stat.S_ISDIR(os.stat(path).st_mode):
                raise UnreadableInput(
                    f"{where}: not a regular file (a device, pipe or socket), so not {_a(what)}"
                ) from None
        raise UnreadableInput(f"{where}: cannot read: {error.strerror}") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise UnreadableInput(f"{where}: is a folder, not {_a(what)}")
        if not stat.S_ISREG(info.st_mode):
            raise UnreadableInput(f"{where}: not a regular file (a device, pipe or socket), so not {_a(what)}")
        if nonblock:
            import fcntl

            fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~nonblock)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_bytes(path: Path, what: str = "file", max_bytes: int = DEFAULT_MAX_BYTES) -> bytes:
    """The bytes of the regular file ``path``, at most ``max_bytes``; anything else is ``UnreadableInput``."""
    where = shown(str(path))
    with open_regular(path, what) as f:
        info = os.fstat(f.fileno())
        if info.st_size > max_bytes:
            raise UnreadableInput(
                f"{where}: {_size(info.st_size)} is too large for {_a(what)} (the bound is {_size(max_bytes)})"
            )
        try:
            raw = f.read(max_bytes + 1)
        except OSError as error:
            raise UnreadableInput(f"{where}: cannot read: {error.strerror}") from None
    if len(raw) > max_bytes:
        raise UnreadableInput(f"{where}: too large for {_a(what)} (the bound is {_size(max_bytes)})")
    _keep_file(info, f"the {what} this command reads")
    if _kept is not None:
        _kept.read.append((os.path.realpath(path), f"the {what} this command reads"))
    return raw


_BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32-le", "UTF-32"),
    (b"\x00\x00\xfe\xff", "utf-32-be", "UTF-32"),
    (b"\xff\xfe", "utf-16-le", "UTF-16"),
    (b"\xfe\xff", "utf-16-be", "UTF-16"),
)
"""The byte order marks of the Unicode encodings other than UTF-8 a text file may start with (UTF-32's
before UTF-16's: UTF-32 LE's mark starts with UTF-16 LE's), with the codec that reads the rest."""


_UTF16_SNIFF_BYTES = 400
"""The bytes of a file's start that tell UTF-16 text without a byte order mark from a binary file."""


def _looks_utf16(raw: bytes) -> bool:
    """Whether ``raw`` (with NULs, no BOM) looks like UTF-16 text: its start read as UTF-16 (LE or BE)
    is text — printable characters, spaces and line ends; no NUL, other control or unreadable unit —
    and most of its NULs are high bytes (of its ASCII characters: line ends, digits, punctuation).

    Counting NULs alone is wrong both ways: a database, a program or a TIFF image has NULs in every
    other byte too (read as UTF-16 they are full of NULs and controls), while UTF-16 text in Japanese
    has few (its characters' bytes are rarely zero)."""
    head = raw[: min(len(raw), _UTF16_SNIFF_BYTES) & ~1]
    for codec, high in (("utf-16-le", 1), ("utf-16-be", 0)):
        if head[high::2].count(0) <= head[1 - high :: 2].count(0):
            continue
        text = head.decode(codec, errors="replace")
        if len(raw) > len(head):  # cut short: half a surrogate pair may end it
            text = text.removesuffix("\ufffd")
        if len(text) >= 2 and all(_text_character(c) for c in text):
            return True
    return False


def _text_character(c: str) -> bool:
    return c != "\ufffd" and (c.isprintable() or c in "\t\n\r" or unicodedata.category(c) == "Zs")


_SIGNATURES = (
    (b"SQLite format 3\x00", "a SQLite database: give a database with --db"),
    (b"PK\x03\x04", "a ZIP archive; if it is an .xlsx workbook, give it that ending"),
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"%PDF-", "a PDF document"),
    (b"\x7fELF", "a program"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an old Office document, such as an .xls workbook"),
)
"""The first bytes of the binary files most often given where text goes, and what to call them."""


def _binary_kind(raw: bytes) -> str:
    """`` (what it is)`` for a binary file of a kind :data:`_SIGNATURES` knows, else nothing."""
    return next((f" ({kind})" for magic, kind in _SIGNATURES if raw.startswith(magic)), "")


def decode_text(raw: bytes, source: str, what: str = "file", max_bytes: int | None = None, hint: str = "") -> str:
    """``raw`` as text: UTF-8 (a BOM is dropped), or UTF-16 or UTF-32 when it starts with their byte
    order mark (Notepad's "Unicode"); too large, binary, UTF-16 without a mark or not UTF-8 is
    ``UnreadableInput``."""
    if max_bytes is not None and len(raw) > max_bytes:
        raise UnreadableInput(
            f"{source}: {len(raw):,} {plural(len(raw), 'byte')} is too large for {_a(what)} (at most {max_bytes:,})"
        )
    for bom, codec, name in _BOMS:
        if raw.startswith(bom):
            try:
                text = raw[len(bom) :].decode(codec)
            except UnicodeDecodeError as error:
                unit = 4 if name == "UTF-32" else 2
                at = (len(bom) + error.start) // unit
                raise UnreadableInput(
                    f"{source}: not valid {name} text (it starts with a {name} byte order mark; character {at:,} "
                    f"cannot be read): save the {what} as UTF-8"
                ) from None
            if "\x00" in text:
                raise UnreadableInput(f"{source}: a binary file, not a text {what}{hint}")
            return text
    if b"\x00" in raw:
        if _looks_utf16(raw):
            raise UnreadableInput(
                f"{source}: looks like UTF-16 text without a byte order mark, which cardbase cannot tell apart: "
                f"save the {what} as UTF-8"
            )
        kind = _binary_kind(raw)  # what the file is says more than the caller's guess
        raise UnreadableInput(f"{source}: a binary file{kind}, not a text {what}{'' if kind else hint}")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise UnreadableInput(f"{source}: line {line}: not UTF-8 text (save the {what} as UTF-8)") from None


def read_text(path: Path, what: str = "file", max_bytes: int = DEFAULT_MAX_BYTES, hint: str = "") -> str:
    """The UTF-8 text of the regular file ``path`` (see :func:`read_bytes` and :func:`decode_text`)."""
    return decode_text(read_bytes(path, what, max_bytes), shown(str(path)), what, hint=hint)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number cardbase accepts")


def refuse_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object as a dict (``object_pairs_hook``); a key given twice, whose second value would
    silently win, is a ``ValueError`` naming it."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise ValueError(f"the key {quoted(key)} is given twice in one object")
            seen.add(key)
    return obj


MAX_JSON_DIGITS = 4_300
"""The digits of a whole number JSON input may hold: Python converts no longer one (its
``sys.get_int_max_str_digits``), and no value cardbase reads comes near."""

# A JSON string (skipped: digits inside it are text) or a whole number too long to read; linear time.
_LONG_NUMBER = re.compile(rf'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?\Z)|-?[0-9]{{{MAX_JSON_DIGITS + 1},}}', re.S)


class LongNumber(ValueError):
    """A whole number of JSON input with more than ``MAX_JSON_DIGITS`` digits."""


def json_whole(text: str) -> int:
    """A JSON whole number (``parse_int``): one too long to convert is :class:`LongNumber`, not Python's
    ``ValueError`` that tells the user to raise the interpreter's limit."""
    digits = len(text) - text.startswith("-")
    if digits > MAX_JSON_DIGITS:
        raise LongNumber(
            f"a whole number of {digits:,} {plural(digits, 'digit')} (at most {MAX_JSON_DIGITS:,} are read)"
        )
    return int(text)


def long_number_at(text: str) -> tuple[int, int]:
    """The line and column (from 1) of the first whole number in JSON ``text`` that is too long to read."""
    for match in _LONG_NUMBER.finditer(text):
        if text[match.start()] != '"':
            start = match.start()
            return text.count("\n", 0, start) + 1, start - text.rfind("\n", 0, start)
    return 1, 1


def load_json(text: str, source: str, *, bad: str = "invalid JSON", one_line: bool = False) -> Any:
    """Parse JSON text; bad syntax, nesting deeper than ``MAX_JSON_DEPTH``, ``NaN``, ``Infinity``, a
    key given twice in one object or a lone surrogate (see :func:`check_characters`) is
    ``UnreadableInput`` naming ``source`` and saying ``bad`` (with the line and column where JSON
    says; ``one_line`` for a line of JSON Lines, whose ``source`` already names the line)."""
    _check_depth(text, source)
    try:
        data = json.loads(
            text, parse_constant=_refuse_constant, parse_int=json_whole, object_pairs_hook=refuse_duplicate_keys
        )
    except json.JSONDecodeError as error:
        if one_line:
            raise UnreadableInput(f"{source}: {bad}: {json_syntax(error)} (column {error.colno})") from None
        where = f"{source}: line {error.lineno}, column {error.colno}"
        raise UnreadableInput(f"{where}: {bad}: {json_syntax(error)}") from None
    except LongNumber as error:
        line, column = long_number_at(text)
        where = f"{source} (column {column})" if one_line else f"{source}: line {line}, column {column}"
        raise UnreadableInput(f"{where}: {bad}: {error}") from None
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


STDOUT = "-"
"""The output path that means standard output (where the command writes files to it)."""

_data_stdout: TextIO | None = None


def data_on_stdout() -> bool:
    """Whether this command wrote a file to standard output (``-``, ``/dev/stdout``): standard output
    then carries the data alone, and what the command says next goes to stderr (``_commit``)."""
    return _data_stdout is not None and sys.stdout is sys.stderr


@dataclass(frozen=True)
class OutputTarget:
    """Where a file output goes: a file replaced whole (``stream`` None), or a stream written to
    and never replaced: ``"stdout"``, ``"stderr"`` (the path is this process's own) or
    ``"device"`` (a character device such as ``/dev/null``)."""

    given: Path
    path: Path
    stream: str | None = None

    @property
    def named(self) -> str:
        """The path as the user gave it, for a message (cut when very long)."""
        return shown(str(self.given))


def what_it_is(mode: int) -> str:
    """What a file of ``mode`` is, for a message: ``a folder``, ``a named pipe (FIFO)``, …."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISBLK(mode):
        return "a block device (a disk)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode):
        return "a character device"
    return "not a regular file"


def _same_file(info: os.stat_result, fd: int) -> bool:
    try:
        other = os.fstat(fd)
    except OSError:
        return False
    return (info.st_dev, info.st_ino) == (other.st_dev, other.st_ino)


def _stat_output(path: Path, what: str) -> tuple[os.stat_result | None, bool]:
    """The ``stat`` of an output path (None: nothing there yet) and whether the path is a link."""
    try:
        is_link = os.path.islink(path)
        return os.stat(path), is_link
    except (FileNotFoundError, NotADirectoryError):
        return None, is_link  # a new path (a file in the way of its folder is said when it is made)
    except ValueError:  # a NUL character
        raise UnreadableInput(f"{quoted(str(path))}: not a file name (it holds a NUL character)") from None
    except OSError as error:
        raise UnreadableInput(f"{shown(str(path))}: cannot write the {what} there: {error.strerror}") from None


def _refuse_dangling(given: Path, what: str) -> None:
    """A link to nothing is not written through (as ``cp`` does not): the file, and the folders
    to it, would be made wherever the link points, which the user may never have meant."""
    try:
        points = shown(os.readlink(given))
    except OSError:
        points = "nothing"
    raise UnreadableInput(
        f"{shown(str(given))}: is a link to {points}, which does not exist; the {what} is not written "
        "through it: give the path itself"
    )


def output_target(path: Path | str, what: str = "file") -> OutputTarget:
    """Where the file output ``path`` goes, checked before anything is written: a regular file this
    user may write or a new path is replaced whole (a link to one: its target, the link kept); ``-`` (standard output)
    and a character device (``/dev/null``, ``/dev/stdout``, a terminal) are written to as streams;
    anything else (a folder, a FIFO, a block device, a socket) is ``UnreadableInput`` (exit 2)."""
    given, where = Path(path), shown(str(path))
    if str(path) == STDOUT:
        return OutputTarget(given, given, "stdout")
    info, is_link = _stat_output(given, what)
    real = Path(os.path.realpath(given)) if is_link else given
    if info is None and is_link:
        _refuse_dangling(given, what)
    if info is None:
        target = OutputTarget(given, real)
        _refuse_blocked(real.parent, target.named)
        _refuse_kept(target, None, what)
        return target
    for fd, name in ((1, "stdout"), (2, "stderr")):
        if _same_file(info, fd):  # /dev/stdout, or the file the shell sent our output to
            return OutputTarget(given, real, name)
    if stat.S_ISREG(info.st_mode):
        target = OutputTarget(given, real)
        _refuse_kept(target, info, what)
        if not os.access(real, os.W_OK):  # a rename would replace it all the same: as cp, refuse
            raise UnreadableInput(f"{where}: is read-only (its permissions); not replaced by the {what}")
        return target
    if stat.S_ISCHR(info.st_mode):
        return OutputTarget(given, real, "device")
    kind = what_it_is(info.st_mode)
    if stat.S_ISDIR(info.st_mode):
        kind = "a link to a folder" if is_link else kind
        raise UnreadableInput(f"{where}: is {kind}; give the {what}'s file name")
    raise UnreadableInput(f"{where}: is {kind}, not a file; give the {what} a file name (or - for standard output)")


FILE_KINDS: dict[str, str] = {
    ".csv": "CSV",
    ".tsv": "TSV",
    ".json": "JSON",
    ".jsonl": "JSON Lines",
    ".xlsx": "XLSX",
    ".xls": "XLS",
    ".ods": "ODS",
    ".txt": "text",
    ".pdf": "PDF",
    ".png": "PNG",
    ".jpg": "JPEG",
    ".jpeg": "JPEG",
    ".webp": "WebP",
    ".gif": "GIF",
    ".tif": "TIFF",
    ".tiff": "TIFF",
    ".svg": "SVG",
    ".cod": "Cockatrice deck",
    ".ydk": "YDK deck",
    ".xml": "XML",
    ".html": "HTML",
    ".toml": "TOML",
    ".zip": "zip",
    ".db": "database",
    ".sqlite": "SQLite database",
}
"""The endings that name a kind of file: an output whose name ends in one is written in that kind
(``output_kind``), never another under its name."""


def output_kind(
    path: Path | str | None,
    given: str | None,
    kinds: dict[str, tuple[str, ...]],
    default: str,
    option: str = "--format",
    writer: str = "this command",
) -> str:
    """The kind a command writes the output ``path`` in, which its name's ending may not contradict.

    ``kinds`` maps each kind the command writes to the endings its files take. Without ``given``
    (the command's ``--format``), a name ending in one of them picks its kind, else ``default``. A
    name that ends in a kind of file's ending (``FILE_KINDS``) that the kind written does not take
    is refused (``UsageError``, exit 2) naming both, before any work: ``-o cards.xlsx --format csv``
    was CSV under an XLSX name, which neither a spreadsheet nor ``catalog import`` (which reads by
    the ending) opened, and ``print -o sheet.png`` a PDF. A name with no ending or another one
    (``/dev/null``, ``-``, ``cards.dat``) is written as asked.
    """
    from cardbase.errors import UsageError

    suffix = "" if path is None or str(path) == STDOUT else Path(path).suffix.lower()
    kind = given
    if kind is None:
        named = [k for k, endings in kinds.items() if suffix in endings]
        kind = default if not named or default in named else named[0]
    if kind not in kinds:
        return kind  # an unknown --format: the command refuses it in its own words
    endings = kinds[kind]
    if suffix and suffix not in endings and (suffix in FILE_KINDS or any(suffix in e for e in kinds.values())):
        where = shown(str(path))
        other = [k for k, e in kinds.items() if suffix in e]
        named_as = FILE_KINDS.get(suffix, suffix)
        fix = f"end it in {endings[0]}"
        if given is not None and other:
            fix += f", or give {option} {other[0]}"
        writes = f"{option} {given} writes" if given is not None else f"{writer} writes"
        raise UsageError(f"{where}: the name says {named_as} ({suffix}), but {writes} {kind}: {fix}")
    return kind


def output_folder_target(path: Path | str, what: str = "files") -> Path:
    """The folder an output-folder option names, checked before anything is written: a new path
    or a folder; a link to a folder is followed (its folder is written, the link stays); ``-``,
    a file, a device, a FIFO or a socket is ``UnreadableInput`` (exit 2)."""
    given, where = Path(path), shown(str(path))
    if str(path) == STDOUT:
        raise UnreadableInput(f"- (standard output) cannot hold the {what}; give a folder")
    info, is_link = _stat_output(given, what)
    real = Path(os.path.realpath(given)) if is_link else given
    if info is None and is_link:
        _refuse_dangling(given, what)
    if info is None:
        _refuse_blocked(real, where)
    if info is None or stat.S_ISDIR(info.st_mode):
        return real
    kind = "a file" if stat.S_ISREG(info.st_mode) else what_it_is(info.st_mode)
    raise UnreadableInput(f"{where}: is {kind}, not a folder; give a folder for the {what}")


def _in_the_way(folder: Path) -> str:
    """Why ``folder`` cannot be made: what the nearest path on the way to it that is there, but is no
    folder, is (a file, a link to nothing, a FIFO, …)."""
    for place in (folder, *folder.parents):
        if not os.path.lexists(place):
            continue
        if os.path.isdir(place):
            break
        if os.path.islink(place) and not os.path.exists(place):
            return f"{shown(str(place))} is a link to {shown(os.readlink(place))}, which does not exist"
        try:
            kind = "a file" if os.path.isfile(place) else what_it_is(os.stat(place).st_mode)
        except OSError:
            kind = "not a folder"
        return f"{shown(str(place))} is {kind}"
    return "a file of that name is in the way"


def _refuse_blocked(folder: Path, named: str) -> None:
    """``UnreadableInput`` if ``folder`` could not be made for an output because a path on the way to
    it is there but no folder (a file, a link to nothing): said before any work, not once it is done."""
    for place in (folder, *folder.parents):
        if os.path.lexists(place):
            if not os.path.isdir(place):
                raise UnreadableInput(f"{named}: cannot make folder {shown(str(folder))}: {_in_the_way(folder)}")
            return


def make_folder(folder: Path, named: str) -> None:
    """Make ``folder`` and the folders on the way to it (if not there), or ``UnreadableInput`` starting
    ``named`` (the output the user gave) and saying what is in the way."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise UnreadableInput(f"{named}: cannot make folder {shown(str(folder))}: {_in_the_way(folder)}") from None
    except OSError as error:
        raise UnreadableInput(f"{named}: cannot make folder {shown(str(folder))}: {error.strerror}") from None


def _make_parent(target: OutputTarget) -> None:
    make_folder(target.path.parent, target.named)


@contextmanager
def output_file(path: Path | str, what: str = "file") -> Iterator[Path]:
    """A temporary path to write the output ``path`` to (see :func:`output_target`); when the
    block ends without error it replaces the file in one step, so a reader never sees half a file
    and a failed or interrupted write leaves whatever was there before; a stream (``-``,
    ``/dev/null``) is written to then. Anything the system refuses is ``UnreadableInput`` naming
    ``path``."""
    yield from _output_files([output_target(path, what)], what, single=True)


@contextmanager
def output_files(paths: Sequence[Path | str], what: str = "file") -> Iterator[list[Path]]:
    """:func:`output_file` for several outputs of one command, all or nothing: every path is
    checked before any is written, and none is replaced unless every one was written."""
    targets = [output_target(path, what) for path in paths]
    yield from _output_files(targets, what, single=False)


def _output_files(targets: list[OutputTarget], what: str, single: bool) -> Iterator[Any]:
    from cardbase import interrupts

    temporaries: list[Path] = []
    try:
        for target in targets:
            if target.stream is None:
                _make_parent(target)
                folder: Path | None = target.path.parent
                prefix, suffix = f".{target.path.name}.", f".part{target.path.suffix}"
            else:  # never beside a device: in the temporary folder
                folder, prefix, suffix = None, "cardbase-output-", target.path.suffix
            try:
                with interrupts.deferred():  # a signal right after mkstemp would leave its file
                    fd, name = tempfile.mkstemp(prefix=prefix, suffix=suffix, dir=folder)
                    temporaries.append(Path(name))
                    os.close(fd)
            except OSError as error:
                raise UnreadableInput(f"{target.named}: cannot write the {what}: {error.strerror}") from None
        yield temporaries[0] if single else list(temporaries)

        with interrupts.deferred():  # all of them or none
            for target, temporary in zip(targets, temporaries, strict=True):
                _commit(target, temporary, what)
    finally:
        for temporary in temporaries:
            temporary.unlink(missing_ok=True)


def _commit(target: OutputTarget, temporary: Path, what: str) -> None:
    """Put the written ``temporary`` where ``target`` says: a file replaced, or a stream written."""
    try:
        if target.stream is None:
            info, _ = _stat_output(target.path, what)
            if info is not None and not stat.S_ISREG(info.st_mode):  # changed while we wrote
                raise UnreadableInput(f"{target.named}: is now {what_it_is(info.st_mode)}; not replaced")
            _refuse_kept(target, info, what)  # an input read, or the database opened, since the first check
            open_mode(temporary)
            os.replace(temporary, target.path)
            return
        with temporary.open("rb") as source:
            if target.stream == "device":
                with _open_device(target) as sink:
                    if sink.isatty():
                        _refuse_on_terminal(target, source, what)
                    shutil.copyfileobj(source, sink)
                return
            stream = sys.stdout if target.stream == "stdout" else sys.stderr
            if _isatty(stream):
                _refuse_on_terminal(target, source, what)
            stream.flush()
            shutil.copyfileobj(source, stream.buffer)
            stream.buffer.flush()
            if target.stream == "stdout":
                # Standard output carries the data alone: what the command says next goes to stderr.
                global _data_stdout
                _data_stdout = sys.stdout  # kept: a stream no longer referred to would be closed
                sys.stdout = sys.stderr
    except BrokenPipeError:
        raise  # the reader went away (`| head`): the boundary ends quietly
    except OSError as error:
        raise UnreadableInput(f"{target.named}: cannot write the {what}: {error.strerror or error}") from None


_TERMINAL_CONTROL = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]|\xc2[\x80-\x9f]")
"""Bytes a terminal acts on rather than shows: C0 controls but tab and line ends, DEL, and the C1
controls in UTF-8 (U+0080 to U+009F: U+009B is the CSI that starts an escape sequence)."""


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def _refuse_on_terminal(target: OutputTarget, source: BinaryIO, what: str) -> None:
    """``UnreadableInput`` unless the file in ``source`` is text a terminal shows as it is: a PDF, a
    PNG or an XLSX (or text holding escapes) written to a terminal would garble it or drive it."""
    import codecs

    decoder = codecs.getincrementaldecoder("utf-8")()
    tail = b""
    try:
        while chunk := source.read(1 << 20):
            decoder.decode(chunk)
            if _TERMINAL_CONTROL.search(tail + chunk):
                raise UnicodeDecodeError("utf-8", chunk, 0, 1, "control")
            tail = chunk[-1:]
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        where = "- (standard output)" if target.stream == "stdout" else target.named
        raise UnreadableInput(
            f"{where}: is a terminal, and the {what} is binary or holds terminal controls; "
            "not written: redirect it to a file (> FILE) or give a file name"
        ) from None
    source.seek(0)


def _open_device(target: OutputTarget) -> BinaryIO:
    """The character device of ``target`` opened for writing: never made, never truncated, and
    refused if it is no longer a character device."""
    import fcntl

    fd = os.open(target.path, os.O_WRONLY | os.O_NOCTTY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        if not stat.S_ISCHR(os.fstat(fd).st_mode):
            raise UnreadableInput(f"{target.named}: is no longer a character device; not written")
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
        return os.fdopen(fd, "wb")
    except BaseException:
        os.close(fd)
        raise


@contextmanager
def open_output(path: Path | str, what: str = "file") -> Iterator[TextIO]:
    """The output ``path`` opened as UTF-8 text to write as the work goes (what was written stays
    if the work is cut short): a regular file or new path, a character device, or ``-``; anything
    else is refused as by :func:`output_target`."""
    target = output_target(path, what)
    try:
        if target.stream == "stdout":
            yield sys.stdout
            return
        if target.stream == "stderr":
            yield sys.stderr
            return
        if target.stream == "device":
            with _open_device(target) as raw, io.TextIOWrapper(raw, encoding="utf-8") as text:
                yield text
            return
        _refuse_kept(target, _stat_output(target.path, what)[0], what)
        _make_parent(target)
        with open(target.path, "w", encoding="utf-8") as handle:
            yield handle
    except OSError as error:
        raise UnreadableInput(f"{target.named}: cannot write the {what}: {error.strerror or error}") from None


@contextmanager
def scratch_folder(prefix: str) -> Iterator[Path]:
    """A new folder in the system's temporary folder for the block, removed when it ends; a
    signal that lands the moment it is made is held until the block holds it (nothing left behind)."""
    from cardbase import interrupts

    with interrupts.deferred():
        holder = tempfile.TemporaryDirectory(prefix=prefix)
    with holder as name:
        yield Path(name)


MAX_KEPT_WALK = 100_000
"""Entries of an output folder looked at for a file this command reads (an export holds a few thousand)."""


def refuse_replacing(real: Path, given: Path | str, what: str = "files") -> None:
    """``UnreadableInput`` if replacing the folder ``real`` whole (:func:`output_folder`) would take
    the current folder (or one holding it) with it, or a file this command reads or its database
    (kept by :func:`keeping_inputs`), at any depth inside it: each is named, and nothing is written."""
    where = shown(str(given))
    try:
        folder = real.resolve()
        here = Path.cwd().resolve()
    except (OSError, RuntimeError):
        return  # a folder that cannot be resolved is said when it is written
    if folder == here or folder in here.parents:
        held = "is the current folder" if folder == here else "holds the current folder"
        raise UnreadableInput(
            f"{where}: {held}; the {what} replace the folder they are written to whole: give a new folder"
        )
    if _kept is None or not folder.is_dir():
        return
    seen = 0
    for top, folders, files in os.walk(folder):
        for name in (*files, *folders):
            seen += 1
            if seen > MAX_KEPT_WALK:
                return
            path = Path(top) / name
            role = _kept.paths.get(str(path))
            if role is None:
                try:
                    info = os.stat(path, follow_symlinks=False)
                except OSError:
                    continue
                role = _kept.files.get((info.st_dev, info.st_ino))
            if role is not None:
                _refuse_held(where, path.relative_to(folder), role, what)


def _refuse_held(where: str, inside: Path, role: str, what: str) -> NoReturn:
    raise UnreadableInput(
        f"{where}: holds {shown(str(inside))}, {role}; the {what} replace the folder whole, so it would be "
        "deleted: give a new folder"
    )


@dataclass(frozen=True)
class CheckedFolder:
    """An output folder checked once, before any work (:func:`checked_folder`): what
    :func:`output_folder` takes to write it without looking through it again."""

    real: Path
    given: Path | str
    what: str
    reads: int
    """How many files the command had read when it was checked (``_Kept.read``)."""


def checked_folder(path: Path | str, what: str = "files") -> CheckedFolder:
    """The output folder ``path`` checked (:func:`output_folder_target`, :func:`refuse_replacing`:
    one walk through it), for a command that says so before its other checks and its work."""
    real = output_folder_target(path, what)
    refuse_replacing(real, path, what)
    return CheckedFolder(real, path, what, len(_kept.read) if _kept is not None else 0)


def _refuse_read_since(checked: CheckedFolder) -> None:
    """``UnreadableInput`` if a file the command read after ``checked`` was made (art read while an
    export was drawn) lies inside the folder about to be replaced: checked by the names the files
    were read at, so the folder is walked once in all."""
    if _kept is None or len(_kept.read) == checked.reads:
        return
    try:
        folder = checked.real.resolve()
    except (OSError, RuntimeError):
        return
    for path, role in _kept.read[checked.reads :]:
        inside = Path(path)
        if folder in inside.parents:
            _refuse_held(shown(str(checked.given)), inside.relative_to(folder), role, checked.what)


@contextmanager
def output_folder(
    path: Path | str | CheckedFolder, what: str = "files", *, check_old: Callable[[Path], None] | None = None
) -> Iterator[Path]:
    """A temporary folder beside the output folder ``path`` (see :func:`output_folder_target`) to
    write into; when the block ends without error it takes the folder's place (the old one is
    removed), so a failed or interrupted write (Ctrl-C, SIGTERM) leaves whatever was there and no
    temporary. A link to a folder stays a link: the folder it points to is replaced. ``path`` may be
    a :func:`checked_folder` made earlier (its ``what`` is then its own): it is not walked again, and
    a file read since (inside the block too) that lies in the folder is refused before the swap.
    ``check_old``: called on the old folder once it is moved aside, when nothing can be saved into
    it any more; an error it raises puts the folder back whole (a file saved into it while the work
    ran is not deleted unseen)."""
    from cardbase import interrupts

    checked = path if isinstance(path, CheckedFolder) else checked_folder(path, what)
    real, path, what = checked.real, checked.given, checked.what
    where = shown(str(path))
    parent = real.absolute().parent
    temporary: Path | None = None
    try:
        make_folder(parent, where)
        with interrupts.deferred():  # a signal right after mkdtemp would leave its folder
            temporary = Path(tempfile.mkdtemp(prefix=f".{real.name}.", dir=parent))
        open_mode(temporary, folder=True)
        yield temporary
        _refuse_read_since(checked)
        with interrupts.deferred():  # the two renames are one step
            if real.exists():
                old = parent / f".{real.name}.old-{os.getpid()}"
                os.replace(real, old)
                try:
                    if check_old is not None:
                        check_old(old)
                except BaseException:
                    os.replace(old, real)
                    raise
                os.replace(temporary, real)
                shutil.rmtree(old, ignore_errors=True)
            else:
                os.replace(temporary, real)
    except OSError as error:
        raise UnreadableInput(f"cannot write {where}: {error.strerror or error}") from None
    finally:
        if temporary is not None:
            shutil.rmtree(temporary, ignore_errors=True)


def write_text_output(path: Path, text: str, what: str = "file") -> None:
    """Write ``text`` (UTF-8) to ``path`` through :func:`output_file`."""
    with output_file(path, what) as temporary:
        temporary.write_text(text, encoding="utf-8")
