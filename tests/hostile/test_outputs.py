"""Class 5 (outputs): an output path that is a folder, lies under a file, or cannot be written is
refused naming the path, exit 2; an interrupted or failed write leaves what was there before.

Round three: every output command onto a character device (a copy of /dev/null made with mknod,
and /dev/null itself) writes to it and leaves it a device; onto a FIFO it is refused without
hanging; a link to a folder is refused as a file output and followed as a folder output; a link
to a file is written through; ``-`` is standard output."""

from __future__ import annotations

import os
import select
import socket
import stat
import threading
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import Result

from cardbase.errors import UnreadableInput
from cardbase.textfiles import output_file
from tests.conftest import REPO
from tests.hostile.conftest import assert_refused, run_cli

GOBLINS = str(REPO / "examples/decks/mea-goblin-rush.txt")

WRITERS: list[tuple[str, list[str]]] = [
    ("draws --plot", ["draws", GOBLINS, "--need", "1 t:monster", "--plot", "{out}"]),
    ("deck export -o", ["deck", "export", "Mine", "-o", "{out}"]),
    ("sim --records", ["sim", "meio", "--players", "2", "--games", "1", "--records", "{out}"]),
    ("play --record", ["play", "meio", "--players", "2", "--seed", "1", "--record", "{out}"]),
    ("schema generate --folder", ["schema", "generate", "--folder", "{out}"]),
    ("catalog export csv", ["catalog", "export", "--game", "mea", "--format", "csv", "-o", "{out}"]),
    ("catalog export xlsx", ["catalog", "export", "--game", "mea", "--format", "xlsx", "-o", "{out}"]),
    ("catalog export json", ["catalog", "export", "--game", "mea", "--format", "json", "-o", "{out}"]),
    ("render card", ["render", "card", "Tile Titan", "-o", "{out}"]),
    ("print deck", ["print", "deck", GOBLINS, "-o", "{out}"]),
    ("print tiles --split-backs", ["print", "tiles", "--backs", "--split-backs", "-o", "{out}"]),
]


def _under_a_file(tmp: Path) -> str:
    (tmp / "a-file").write_text("x", encoding="utf-8")
    return str(tmp / "a-file" / "out.pdf")


def _deep_under_a_file(tmp: Path) -> str:
    (tmp / "b-file").write_text("x", encoding="utf-8")
    return str(tmp / "b-file" / "more" / "out.pdf")


BAD = [("under-a-file", _under_a_file), ("deep-under-a-file", _deep_under_a_file)]


@pytest.mark.parametrize(("kind", "make"), BAD, ids=[b[0] for b in BAD])
@pytest.mark.parametrize(("writer", "argv"), WRITERS, ids=[w[0] for w in WRITERS])
def test_output_path_that_cannot_be_made_is_refused(writer, argv, kind, make, hostile_db: str, in_tmp: Path) -> None:
    run_cli(["deck", "new", "Mine", "--game", "mea"], hostile_db)
    out = make(in_tmp)
    argv = [a.replace("{out}", out) for a in argv]
    if argv[:2] not in (["sim", "meio"], ["play", "meio"], ["schema", "generate"]):
        argv += ["--db", hostile_db]
    run = run_cli(argv, input="quit\n")
    assert_refused(run, 2, "a-file" if "a-file" in out else "b-file")


FILE_ONLY = [w for w in WRITERS if w[0] not in ("sim --records", "play --record", "schema generate --folder")]


@pytest.mark.parametrize(("writer", "argv"), FILE_ONLY, ids=[w[0] for w in FILE_ONLY])
def test_output_path_that_is_a_folder_is_refused(writer, argv, hostile_db: str, in_tmp: Path) -> None:
    run_cli(["deck", "new", "Mine", "--game", "mea"], hostile_db)
    (in_tmp / "a-folder").mkdir()
    run = run_cli([*(a.replace("{out}", str(in_tmp / "a-folder")) for a in argv), "--db", hostile_db])
    assert_refused(run, 2, "folder")


def test_a_failed_write_leaves_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "deck.txt"
    target.write_text("the old deck\n", encoding="utf-8")
    with pytest.raises(KeyboardInterrupt), output_file(target, "deck file") as temporary:
        temporary.write_text("half a new", encoding="utf-8")
        raise KeyboardInterrupt
    assert target.read_text(encoding="utf-8") == "the old deck\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.txt"]


def test_output_into_a_folder_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    with pytest.raises(UnreadableInput, match="is a folder"), output_file(tmp_path, "plot"):
        pass


@pytest.mark.parametrize("mask", [0o022, 0o077])
def test_outputs_get_the_mode_the_umask_gives_not_a_temporary_files(tmp_path: Path, mask: int) -> None:
    """Files are written to a private temporary file and renamed: the result must not stay 0600."""
    import os
    import stat

    from cardbase import textfiles

    previous = os.umask(mask)
    textfiles._umask.cache_clear()  # read once per process: this test changes it
    try:
        csv_out, pdf_out, images = tmp_path / "cards.csv", tmp_path / "deck.pdf", tmp_path / "images"
        assert run_cli(["catalog", "export", "--game", "meio", "-o", csv_out]).exit_code == 0
        deck = REPO / "examples" / "decks" / "meio-hand.txt"
        assert run_cli(["print", "deck", deck, "-o", pdf_out]).exit_code == 0
        assert run_cli(["export", "images", deck, "-o", images, "--dpi", "40"]).exit_code == 0
    finally:
        os.umask(previous)
        textfiles._umask.cache_clear()
    for path in (csv_out, pdf_out, images / "manifest.csv"):
        assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~mask, path
    assert stat.S_IMODE(images.stat().st_mode) == 0o777 & ~mask


# --- Outputs that are not plain files: devices, FIFOs, links (textfiles.output_target) -----------
#
# Every command that writes a file a user names, with the ending its file takes and how its
# bytes begin. ``db``: it takes --db. ``slow``: it plays games first, so only the cases that
# matter most run for it (a device, a FIFO, a link to a folder).

TILES = str(REPO / "examples/decks/mea-tile-control.txt")


@dataclass(frozen=True)
class Writer:
    name: str
    argv: list[str]
    suffix: str
    magic: bytes | None  # how the file begins (None: its standard output holds more than the file)
    db: bool = True
    slow: bool = False
    named: bool = False  # refuses a path without its ending (/dev/null) before looking at it


FILE_WRITERS = [
    Writer("catalog export csv", ["catalog", "export", "--game", "mea", "--format", "csv", "-o"], ".csv", b"name,"),
    Writer("catalog export xlsx", ["catalog", "export", "--game", "mea", "--format", "xlsx", "-o"], ".xlsx", b"PK"),
    Writer("catalog export json", ["catalog", "export", "--game", "mea", "--format", "json", "-o"], ".json", b"{"),
    Writer("catalog template xlsx", ["catalog", "template", "--game", "mea", "-o"], ".xlsx", b"PK"),
    Writer("catalog template csv", ["catalog", "template", "--game", "meio", "--format", "csv", "-o"], ".csv", b"na"),
    Writer("deck export", ["deck", "export", "Mine", "-o"], ".txt", b"game: mea\nname: Mine\n"),
    Writer("print deck", ["print", "deck", GOBLINS, "-o"], ".pdf", b"%PDF"),
    Writer("print registration", ["print", "registration", "-o"], ".pdf", b"%PDF", db=False),
    Writer("render card png", ["render", "card", "Tile Titan", "-o"], ".png", b"\x89PNG", named=True),
    Writer("render card pdf", ["render", "card", "Tile Titan", "-o"], ".pdf", b"%PDF", named=True),
    Writer("draws --plot", ["draws", GOBLINS, "--need", "1 t:monster", "--plot"], ".png", None),
    Writer("play --record", ["play", "meio", "--players", "2", "--seed", "1", "--record"], ".jsonl", None, db=False),
    Writer(
        "lab gauntlet --plot",
        ["lab", "gauntlet", GOBLINS, "--field", TILES, "--games", "2", "--jobs", "1", "--plot"],
        ".svg",
        None,
        slow=True,
        named=True,
    ),
    Writer(
        "lab opening --plot",
        ["lab", "opening", GOBLINS, "--vs", TILES, "--games", "2", "--jobs", "1", "--plot"],
        ".png",
        None,
        slow=True,
        named=True,
    ),
    Writer(
        "lab cards --plot",
        ["lab", "cards", "--players", "2", "--assume", "default", "--games", "2", "--jobs", "1", "--plot"],
        ".pdf",
        None,
        slow=True,
        named=True,
    ),
]


def _run_writer(writer: Writer, out: Path | str, db: str) -> Result:
    run_cli(["deck", "new", "Mine", "--game", "mea"], db)
    return run_cli([*writer.argv, str(out)], db if writer.db else None, input="quit\n")


def _char_device(path: Path) -> Path:
    """A copy of /dev/null at ``path`` (made with mknod: root only)."""
    if os.geteuid() != 0:
        pytest.skip("making a character device (mknod) needs root; run as root (CI does) to check outputs onto devices")
    null = os.stat("/dev/null")
    os.mknod(path, 0o666 | stat.S_IFCHR, null.st_rdev)
    return path


def _is_null_device(path: Path) -> bool:
    info = os.lstat(path)
    return stat.S_ISCHR(info.st_mode) and info.st_rdev == os.stat("/dev/null").st_rdev


class _Drain:
    """A reader on a FIFO, so that a command that wrongly wrote to it would not hang but be seen."""

    def __init__(self, fifo: Path) -> None:
        self.fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        self.read = b""
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.is_set():
            ready, _, _ = select.select([self.fd], [], [], 0.05)
            if ready:
                self.read += os.read(self.fd, 65536)

    def close(self) -> bytes:
        """All the FIFO was given: what the thread read, and what is still in the pipe (the writer is
        done, and a pipe holds its bytes at once), not only what the thread happened to reach."""
        self.stop.set()
        self.thread.join()
        while True:
            try:
                chunk = os.read(self.fd, 65536)
            except BlockingIOError:  # nothing left, a writer still holding it open
                break
            if not chunk:  # nothing left, no writer
                break
            self.read += chunk
        os.close(self.fd)
        return self.read


def _listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


@pytest.mark.parametrize("writer", FILE_WRITERS, ids=[w.name for w in FILE_WRITERS])
def test_output_onto_a_character_device_streams_to_it_and_keeps_it(writer: Writer, hostile_db: str, in_tmp: Path):
    outs = in_tmp / "outs"
    outs.mkdir()
    device = _char_device(outs / f"null{writer.suffix}")
    result = _run_writer(writer, device, hostile_db)
    assert result.exit_code == 0, result.output
    assert _is_null_device(device)  # still the device, not a file renamed over it
    assert _listing(outs) == [device.name]  # no temporary beside it


@pytest.mark.parametrize("writer", [w for w in FILE_WRITERS if not w.slow], ids=lambda w: w.name)
def test_output_onto_dev_null_leaves_it_a_device(writer: Writer, hostile_db: str, in_tmp: Path):
    result = _run_writer(writer, "/dev/null", hostile_db)
    assert _is_null_device(Path("/dev/null"))
    if writer.named:  # /dev/null has no .png or .pdf ending: refused for that, before anything
        assert_refused(result, 2, "/dev/null")
    else:
        assert result.exit_code == 0, result.output
    assert not Path("/dev/null-journal").exists()


@pytest.mark.parametrize("writer", FILE_WRITERS, ids=[w.name for w in FILE_WRITERS])
def test_output_onto_a_fifo_is_refused_without_hanging(writer: Writer, hostile_db: str, in_tmp: Path):
    fifo = in_tmp / f"pipe{writer.suffix}"
    os.mkfifo(fifo)
    drain = _Drain(fifo)
    try:
        result = _run_writer(writer, fifo, hostile_db)
    finally:
        written = drain.close()
    line = assert_refused(result, 2, str(fifo), "named pipe (FIFO)")
    assert line.startswith(f"cardbase: error: {fifo}: ")
    assert written == b""
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def _block_device(path: Path) -> Path:
    """A block device node at ``path`` (mknod: root only) whose number no driver serves (major 240
    is kept for local use), so that even a wrong write could reach no disk."""
    if os.geteuid() != 0:
        pytest.skip("making a block device (mknod) needs root; run as root (CI does) to check outputs onto devices")
    os.mknod(path, 0o666 | stat.S_IFBLK, os.makedev(240, 0))
    return path


def _socket(path: Path) -> Path:
    """A Unix socket bound at ``path`` (relative: the bound on a socket's path is 107 bytes)."""
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(path.name)
    return path


NOT_FILES = [("a block device", _block_device, "block device"), ("a socket", _socket, "socket")]


@pytest.mark.parametrize(("kind", "make", "said"), NOT_FILES, ids=[k[0] for k in NOT_FILES])
@pytest.mark.parametrize("writer", [w for w in FILE_WRITERS if not w.slow], ids=lambda w: w.name)
def test_output_onto_a_block_device_or_a_socket_is_refused(
    writer: Writer, kind, make, said, hostile_db: str, in_tmp: Path
):
    path = make(in_tmp / f"node{writer.suffix}")
    before = os.lstat(path)
    result = _run_writer(writer, path, hostile_db)
    line = assert_refused(result, 2, str(path), said)
    assert line.startswith(f"cardbase: error: {path}: ")
    after = os.lstat(path)
    assert (after.st_mode, after.st_ino, after.st_rdev) == (before.st_mode, before.st_ino, before.st_rdev)
    assert [p for p in _listing(in_tmp) if p.startswith(".")] == []  # no temporary beside it


@pytest.mark.parametrize("writer", FILE_WRITERS, ids=[w.name for w in FILE_WRITERS])
def test_output_onto_a_link_to_a_folder_is_refused(writer: Writer, hostile_db: str, in_tmp: Path):
    folder = in_tmp / "folder"
    folder.mkdir()
    link = in_tmp / f"lnk{writer.suffix}"
    link.symlink_to(folder)
    result = _run_writer(writer, link, hostile_db)
    assert_refused(result, 2, str(link), "link to a folder")
    assert link.is_symlink() and os.readlink(link) == str(folder)
    assert _listing(folder) == []
    assert sorted(p.name for p in in_tmp.iterdir() if p.name.startswith(".")) == []


@pytest.mark.parametrize("writer", [w for w in FILE_WRITERS if not w.slow], ids=lambda w: w.name)
def test_output_through_a_link_to_a_file_replaces_the_file_and_keeps_the_link(
    writer: Writer, hostile_db: str, in_tmp: Path
):
    """Written through to the link's target, atomically: a link is how a user points a name at a
    file kept elsewhere (``latest.pdf -> builds/3.pdf``), so it stays; the target is replaced whole."""
    builds = in_tmp / "builds"
    builds.mkdir()
    target = builds / f"target{writer.suffix}"
    target.write_bytes(b"the old file")
    link = in_tmp / f"latest{writer.suffix}"
    link.symlink_to(target)
    result = _run_writer(writer, link, hostile_db)
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and os.readlink(link) == str(target)
    content = target.read_bytes()
    assert content != b"the old file" and content
    if writer.magic is not None:
        assert content.startswith(writer.magic)
    assert _listing(builds) == [target.name]


@pytest.mark.parametrize(
    "writer", [w for w in FILE_WRITERS if w.magic is not None or w.name == "draws --plot"], ids=lambda w: w.name
)
def test_output_to_standard_output_carries_the_file_alone(writer: Writer, hostile_db: str, in_tmp: Path):
    result = _run_writer(writer, "-", hostile_db)
    if writer.named:  # render card tells PNG from PDF by the ending, which - has not
        assert_refused(result, 2, "must end in .png or .pdf")
        return
    assert result.exit_code == 0, result.output
    data = result.stdout_bytes
    assert data.startswith(writer.magic or b"\x89PNG")  # what the command says goes to stderr
    assert b"wrote" not in data[-300:]
    assert not (in_tmp / "-").exists()


SAYING_WRITERS = [
    *(w for w in FILE_WRITERS if not w.named),
    Writer("collection export", ["collection", "export", "--format", "csv", "-o"], ".csv", b"card"),
    Writer("draws --json --plot", ["draws", GOBLINS, "--need", "1 t:monster", "--json", "--plot"], ".png", None),
    Writer("play mea --record", ["play", "mea", "--deck", GOBLINS, "--vs-deck", TILES, "--record"], ".jsonl", None),
    Writer(
        "play meikyu --record",
        ["play", "meikyu", "--players", "2", "--assume", "default", "--seed", "1", "--record"],
        ".jsonl",
        None,
    ),
]


@pytest.mark.parametrize("writer", SAYING_WRITERS, ids=lambda w: w.name)
def test_output_to_standard_output_is_not_said_as_a_file_written(writer: Writer, hostile_db: str, in_tmp: Path):
    """``-`` is no file: what a command says when it wrote one (``wrote PATH``, ``Record: PATH``) is
    not said of standard output, where the data went (it said ``wrote 72 mea cards to -`` on stderr)."""
    result = _run_writer(writer, "-", hostile_db)
    assert result.exit_code == 0, result.output
    said = result.stderr
    assert "wrote" not in said and "Record:" not in said and "replay -" not in said, said


# Commands that write a folder a user names.
FOLDER_WRITERS = [
    ("export images", ["export", "images", GOBLINS, "--dpi", "30", "-o"], True),
    ("sim --records", ["sim", "meio", "--players", "2", "--games", "2", "--records"], False),
    ("schema generate", ["schema", "generate", "--folder"], False),
]


@pytest.mark.parametrize(("name", "argv", "db"), FOLDER_WRITERS, ids=[w[0] for w in FOLDER_WRITERS])
def test_an_output_folder_given_as_a_link_is_followed_not_replaced(name, argv, db, hostile_db: str, in_tmp: Path):
    real = in_tmp / "real"
    real.mkdir()
    link = in_tmp / "lnk"
    link.symlink_to(real)
    for _ in range(2):  # and again, over what the first run wrote
        result = run_cli([*argv, str(link)], hostile_db if db else None)
        assert result.exit_code == 0, result.output
        assert link.is_symlink() and os.readlink(link) == str(real)
        assert _listing(real)  # the files are in the folder the link points to
        assert [p for p in _listing(in_tmp) if p.startswith(".")] == []  # no .lnk.old-NNN, no temporary


def _regular_file(tmp: Path) -> Path:
    (tmp / "a-file").write_text("keep me", encoding="utf-8")
    return tmp / "a-file"


def _fifo(tmp: Path) -> Path:
    os.mkfifo(tmp / "pipe")
    return tmp / "pipe"


NOT_FOLDERS = [
    ("a file", _regular_file, "is a file"),
    ("a FIFO", _fifo, "named pipe (FIFO)"),
    ("a device", lambda tmp: _char_device(tmp / "null"), "character device"),
    ("a block device", lambda tmp: _block_device(tmp / "disk"), "block device"),
    ("a socket", lambda tmp: _socket(tmp / "sock"), "socket"),
    ("standard output", lambda tmp: Path("-"), "standard output"),
]


@pytest.mark.parametrize(("kind", "make", "said"), NOT_FOLDERS, ids=[k[0] for k in NOT_FOLDERS])
@pytest.mark.parametrize(("name", "argv", "db"), FOLDER_WRITERS, ids=[w[0] for w in FOLDER_WRITERS])
def test_an_output_folder_that_is_not_a_folder_is_refused(
    name, argv, db, kind, make, said, hostile_db: str, in_tmp: Path
):
    path = make(in_tmp)
    before = os.lstat(path) if path.exists() else None
    result = run_cli([*argv, str(path)], hostile_db if db else None)
    assert_refused(result, 2, said)
    if before is not None:
        after = os.lstat(path)
        assert (after.st_mode, after.st_ino, after.st_size) == (before.st_mode, before.st_ino, before.st_size)
    assert not (in_tmp / "-").exists()


def test_split_backs_writes_both_files_or_neither(hostile_db: str, in_tmp: Path) -> None:
    args = ["print", "tiles", "--backs", "--split-backs", "-o"]
    (in_tmp / "tiles-backs.pdf").mkdir()  # the backs' path is a folder: checked before anything is written
    assert_refused(run_cli([*args, str(in_tmp / "tiles.pdf")], hostile_db), 2, "tiles-backs.pdf", "folder")
    assert not (in_tmp / "tiles.pdf").exists()
    os.mkfifo(in_tmp / "fronts.pdf")  # the fronts' path is a FIFO: the backs are not written either
    assert_refused(run_cli([*args, str(in_tmp / "fronts.pdf")], hostile_db), 2, "named pipe")
    assert not (in_tmp / "fronts-backs.pdf").exists()
    for stream in ("-", "/dev/null"):  # no file name to put <name>-backs.pdf beside
        assert_refused(run_cli([*args, stream], hostile_db), 2, "--split-backs")
    assert not Path("/dev/null-backs.pdf").exists()
    assert [p for p in _listing(in_tmp) if p.startswith(".")] == []
    result = run_cli([*args, str(in_tmp / "ok.pdf")], hostile_db)
    assert result.exit_code == 0, result.output
    assert (in_tmp / "ok.pdf").read_bytes()[:4] == (in_tmp / "ok-backs.pdf").read_bytes()[:4] == b"%PDF"


@pytest.mark.parametrize("kind", ["a FIFO", "a device", "a folder"])
def test_a_database_path_that_is_not_a_file_is_refused(kind: str, tmp_path: Path) -> None:
    path = tmp_path / "cards.db"
    if kind == "a FIFO":
        os.mkfifo(path)
    elif kind == "a device":
        _char_device(path)
    else:
        path.mkdir()
    before = os.lstat(path)
    assert_refused(run_cli(["cards", "search", "goblin", "--db", str(path)]), 2, str(path), kind.split()[-1][:6])
    assert os.lstat(path).st_mode == before.st_mode
    assert _listing(tmp_path) == ["cards.db"]  # no cards.db-journal beside it


def test_a_refused_output_path_is_quoted_cut_when_very_long(tmp_path: Path) -> None:
    """A path of some 3,000 characters (the system allows 4,095) is named cut, as any quoted text."""
    from cardbase.errors import QUOTE_LIMIT
    from cardbase.textfiles import output_folder_target, output_target

    deep = tmp_path.joinpath(*["d" * 150] * 20)
    deep.mkdir(parents=True)
    os.mkfifo(deep / "pipe.pdf")
    for check in (output_target, output_folder_target):
        with pytest.raises(UnreadableInput) as refused:
            check(deep / "pipe.pdf")
        message = str(refused.value)
        assert "named pipe (FIFO)" in message and "characters)" in message
        assert len(message) < QUOTE_LIMIT + 150, message
