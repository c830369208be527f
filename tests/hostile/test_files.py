"""Class 1 and 3 (files): every command that reads a user's file refuses what it cannot read —
missing, a folder, a device, a pipe, binary, not UTF-8, over its size bound, JSON nested too deep or
holding NaN — with one message naming the file, exit 2, and the database untouched."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.hostile.conftest import assert_refused, db_dump, run_cli

GOBLINS = str(REPO / "examples/decks/mea-goblin-rush.txt")
TILES = str(REPO / "examples/decks/mea-tile-control.txt")

# (id, argv with {f} for the file, reads the database, expected phrase in the message)
READERS: list[tuple[str, list[str], bool]] = [
    ("deck validate", ["deck", "validate", "{f}"], True),
    ("deck stats", ["deck", "stats", "{f}"], True),
    ("deck encode", ["deck", "encode", "{f}"], True),
    ("deck convert", ["deck", "convert", "{f}", "--to", "json"], True),
    ("deck import", ["deck", "import", "{f}", "--name", "Imported"], True),
    ("draws", ["draws", "{f}"], True),
    ("draws --need", ["draws", "{f}", "--need", "1 t:monster", "--cards", "5"], True),
    ("sim mea --deck", ["sim", "mea", "--deck", "{f}", "--vs", TILES, "--games", "1"], True),
    ("sim mea --vs", ["sim", "mea", "--deck", GOBLINS, "--vs", "{f}", "--games", "1"], True),
    ("play mea --deck", ["play", "mea", "--deck", "{f}", "--vs-deck", TILES, "--no-record"], True),
    ("print deck", ["print", "deck", "{f}", "-o", "out.pdf"], True),
    ("replay", ["replay", "{f}"], False),
    ("catalog import csv", ["catalog", "import", "{f}", "--game", "mea", "--format", "csv"], True),
    ("catalog import json", ["catalog", "import", "{f}", "--game", "mea", "--format", "json"], True),
    ("deck validate --formats", ["deck", "validate", GOBLINS, "--formats", "{f}"], True),
    ("sim meikyu --assume", ["sim", "meikyu", "--assume", "{f}", "--games", "1"], True),
]


def _missing(tmp: Path) -> str:
    return str(tmp / "no-such-file.txt")


def _folder(tmp: Path) -> str:
    (tmp / "a-folder").mkdir()
    return str(tmp / "a-folder")


def _device(tmp: Path) -> str:
    return "/dev/zero"


def _fifo(tmp: Path) -> str:
    path = tmp / "a-pipe"
    os.mkfifo(path)
    return str(path)


def _binary(tmp: Path) -> str:
    path = tmp / "binary.txt"
    path.write_bytes(b"\x00\x01\x02\xff" * 64)
    return str(path)


def _latin1(tmp: Path) -> str:
    path = tmp / "latin1.txt"
    path.write_bytes("game: mea\n3 Cr\xe8me Golem\n".encode("latin-1"))
    return str(path)


def _oversized(tmp: Path) -> str:
    # Sparse: its size is past every reader's bound without writing the bytes.
    path = tmp / "huge.txt"
    with open(path, "wb") as f:
        f.truncate(80 * 1024 * 1024)
    return str(path)


def _deep_json(tmp: Path) -> str:
    path = tmp / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    return str(path)


def _nan_json(tmp: Path) -> str:
    path = tmp / "nan.json"
    path.write_text('{"game": "mea", "cards": [{"name": "Selounticia", "count": NaN}]}', encoding="utf-8")
    return str(path)


def _symlink_to_device(tmp: Path) -> str:
    path = tmp / "link.txt"
    path.symlink_to("/dev/zero")
    return str(path)


BAD_FILES: list[tuple[str, Callable[[Path], str], str]] = [
    ("missing", _missing, "no such file"),
    ("folder", _folder, "folder"),
    ("device", _device, "not a regular file"),
    ("fifo", _fifo, "not a regular file"),
    ("link-to-device", _symlink_to_device, "not a regular file"),
    ("binary", _binary, "binary"),
    ("latin-1", _latin1, "UTF-8"),
    ("oversized", _oversized, "bound"),
    ("deep-json", _deep_json, "deep"),
    ("nan-json", _nan_json, "NaN"),
]

# Which readers treat which files as what they are: a deep JSON given to a TOML reader is just bad TOML.
_NOT_JSON_READERS = {"catalog import csv", "deck validate --formats"}


@pytest.mark.parametrize(("kind", "make", "phrase"), BAD_FILES, ids=[b[0] for b in BAD_FILES])
@pytest.mark.parametrize(("reader", "argv", "uses_db"), READERS, ids=[r[0] for r in READERS])
def test_unreadable_file_is_refused(
    reader: str,
    argv: list[str],
    uses_db: bool,
    kind: str,
    make: Callable[[Path], str],
    phrase: str,
    shared_db: str,
    in_tmp: Path,
) -> None:
    path = make(in_tmp)
    before = db_dump(shared_db)
    run = run_cli([a.replace("{f}", path) for a in argv], shared_db if uses_db else None)
    if kind in ("deep-json", "nan-json") and reader in _NOT_JSON_READERS:
        # Read as the reader's own format (CSV, TOML), where it is simply bad: refused all the same.
        assert_refused(run, run.exit_code if run.exit_code in (1, 2) else 2)
        assert db_dump(shared_db) == before
        return
    expected = [phrase]
    if kind not in ("device", "fifo", "link-to-device", "oversized"):
        expected.append(Path(path).name)
    assert_refused(run, 2, *expected)
    assert db_dump(shared_db) == before


UNICODE_WITH_BOM = [
    ("utf-16-le", b"\xff\xfe"),
    ("utf-16-be", b"\xfe\xff"),
    ("utf-32-le", b"\xff\xfe\x00\x00"),
    ("utf-32-be", b"\x00\x00\xfe\xff"),
]


@pytest.mark.parametrize(("codec", "bom"), UNICODE_WITH_BOM, ids=[c for c, _ in UNICODE_WITH_BOM])
def test_text_in_utf16_or_utf32_with_its_mark_is_read_as_utf8_is(
    tmp_path: Path, codec: str, bom: bytes, shared_db: str
) -> None:
    # Notepad's "Unicode" deck: read as its UTF-8 twin is, by every reader (they share decode_text).
    from cardbase.render.layout_file import load_layout_file
    from cardbase.textfiles import decode_text
    from cardbase.web.replay import record_text

    deck = Path(GOBLINS).read_text(encoding="utf-8")
    path = tmp_path / "deck.txt"
    path.write_bytes(bom + deck.encode(codec))
    as_utf8 = run_cli(["deck", "validate", GOBLINS], shared_db)
    result = run_cli(["deck", "validate", str(path)], shared_db)
    assert (result.exit_code, result.stdout.replace(str(path), "DECK")) == (
        as_utf8.exit_code,
        as_utf8.stdout.replace(GOBLINS, "DECK"),
    ), result.stderr
    text = "name,type\nCrème Golem,monster\n"
    assert decode_text(bom + text.encode(codec), "cards.csv") == text
    assert record_text(bom + text.encode(codec), "record") == text
    layout = (REPO / "examples/layouts/mea-plain.toml").read_text(encoding="utf-8")
    (tmp_path / "layout.toml").write_bytes(bom + layout.encode(codec))
    assert (
        load_layout_file(tmp_path / "layout.toml").keys()
        == load_layout_file(REPO / "examples/layouts/mea-plain.toml").keys()
    )


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ("game: mea\n".encode("utf-16-le"), "UTF-16 text without a byte order mark"),
        ("game: mea\n".encode("utf-16-be"), "UTF-16 text without a byte order mark"),
        (b"\xff\xfe" + "game: mea".encode("utf-16-le")[:-1], "not valid UTF-16 text"),
        (b"\xff\xfe\x00\x00" + b"\xff\xff\xff\xff", "not valid UTF-32 text"),
        (b"\xff\xfe" + "a\0b".encode("utf-16-le"), "a binary file"),
    ],
)
def test_utf16_that_cannot_be_read_says_so(tmp_path: Path, raw: bytes, words: str, shared_db: str) -> None:
    path = tmp_path / "deck.txt"
    path.write_bytes(raw)
    line = assert_refused(run_cli(["deck", "validate", str(path)], shared_db), 2, words)
    assert str(path) in line and ("save the deck file as UTF-8" in line or "binary" in words)


@pytest.mark.parametrize(("what", "said"), [("assumption profile", "an assumption"), ("deck file", "a deck file")])
def test_a_refusal_gives_the_input_its_article(what: str, said: str, tmp_path: Path) -> None:
    from cardbase.errors import UnreadableInput
    from cardbase.textfiles import read_bytes

    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "big").write_bytes(b"x" * 11)
    for path, bound in ((tmp_path, 10), (tmp_path / "pipe", 10), (tmp_path / "big", 10)):
        with pytest.raises(UnreadableInput) as refused:
            read_bytes(path, what, bound)
        assert f" {said}" in str(refused.value) and " a an " not in str(refused.value), str(refused.value)
