"""Class 1 (commands that harm what they are pointed at), swept over every path a command takes.

``PATHS`` says, for every command of the tree and each of its path options and arguments (and
``--db``), what the path is to it (an output file or folder, an input file or folder) and a line
that works; ``test_every_path_of_every_command_is_swept`` keeps it whole, so a new command that
takes a path is swept too. Each hostile target is made in the test's folder and must come out
byte for byte and with its modification time as it was, the command refused with one line naming
the path, exit 2, no traceback.

Found by this sweep: ``print registration -o cards.db-wal`` (and every output that opens no
database, or another one) replaced the write-ahead log of a database another program had open,
exit 0; ``--db README.md`` was refused only by SQLite's own words, ``--db notes.txt`` (empty) and
``--db`` a link to nothing were made databases, ``--db cards.db-wal`` made a database of that
name; ``sim --records`` emptied the records file there before the first game, and a batch that
failed left it so; ``play --record`` a folder (or its default ``exports/`` a file) was refused once
the whole game had been played, and the game lost; ``--db``, ``--images`` or ``--assume`` in a
folder the user may not enter was an internal error (exit 70).
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from typer.testing import Result

from cardbase.catalog.meikyu_profiles import profile_path
from tests.conftest import POSTGRES, REPO
from tests.hostile.conftest import assert_refused, run_cli
from tests.hostile.test_kept_files import sqlite_template  # noqa: F401  # (a fixture)
from tests.hostile.test_option_sweep import BASE, COMMANDS

GOBLINS = str(REPO / "examples/decks/mea-goblin-rush.txt")
TILES = str(REPO / "examples/decks/mea-tile-control.txt")
HAND = str(REPO / "examples/decks/meio-hand.txt")
LAYOUT = str(REPO / "examples/layouts/mea-plain.toml")
FORMATS = str(REPO / "examples/formats/house.toml")
PROFILE = str(profile_path("default"))
CATALOG_SHEET = "name,type,cost,attack,defence\nZed,monster,1,1,1\n"
COLLECTION_SHEET = "name,count\nCrumb Goblin,2\n"

FILE_OUT, FOLDER_OUT, FILE_IN, FOLDER_IN = "file out", "folder out", "file in", "folder in"


@dataclass(frozen=True)
class Line:
    """A command line that works, with ``{param}`` where each path parameter goes; ``paths`` says what
    each is (its role, and for an input the file it is a copy of, for an output the ending it must
    have or ``""``)."""

    argv: list[str]
    paths: dict[str, tuple[str, str]]
    db: bool = True
    slow: bool = False  # it plays games: only the targets that matter most run for it
    defaults: dict[str, str] = field(default_factory=dict)


def _line(argv: str, paths: dict[str, tuple[str, str]], **kwargs: Any) -> Line:
    return Line(argv.split("|"), paths, **kwargs)


PLOT = {"--plot": (FILE_OUT, ".png")}
LINES: dict[tuple[str, ...], Line] = {
    ("catalog", "export"): _line("catalog|export|--game|meio|--format|csv|-o|{--output}", {"--output": (FILE_OUT, "")}),
    ("catalog", "template"): _line(
        "catalog|template|--game|meio|--format|csv|-o|{--output}", {"--output": (FILE_OUT, "")}
    ),
    ("catalog", "import"): _line("catalog|import|{file}|--game|mea|--dry-run", {"file": (FILE_IN, "catalog")}),
    ("collection", "export"): _line("collection|export|--format|csv|-o|{--output}", {"--output": (FILE_OUT, "")}),
    ("collection", "import"): _line("collection|import|{file}|--dry-run", {"file": (FILE_IN, "collection")}),
    ("deck", "export"): _line("deck|export|" + GOBLINS + "|-o|{--output}", {"--output": (FILE_OUT, "")}),
    **{
        ("deck", name): _line(f"deck|{name}|{argv}|--formats|{{--formats}}", {"--formats": (FILE_IN, FORMATS)})
        for name, argv in [("new", "Fresh|--game|mea"), ("set", "D|--format|standard"), ("show", "D")]
    },
    **{
        ("deck", name): _line(f"deck|{name}|{GOBLINS}|--formats|{{--formats}}", {"--formats": (FILE_IN, FORMATS)})
        for name in ("stats", "validate")
    },
    ("draws",): _line(
        "draws|{file}|--need|1 t:monster|--plot|{--plot}", {"file": (FILE_IN, GOBLINS), "--plot": (FILE_OUT, "")}
    ),
    ("export", "images"): _line(
        "export|images|{file}|--dpi|30|-o|{--output}|--layout|{--layout}|--images|{--images}",
        {
            "file": (FILE_IN, GOBLINS),
            "--output": (FOLDER_OUT, ""),
            "--layout": (FILE_IN, LAYOUT),
            "--images": (FOLDER_IN, ""),
        },
    ),
    ("lab", "cards"): _line(
        "lab|cards|--players|2|--assume|default|--games|2|--jobs|1|--plot|{--plot}", PLOT, slow=True
    ),
    ("lab", "gauntlet"): _line(
        "lab|gauntlet|{deck}|--field|{--field}|--games|2|--jobs|1|--formats|{--formats}|--plot|{--plot}",
        {"deck": (FILE_IN, GOBLINS), "--field": (FILE_IN, TILES), "--formats": (FILE_IN, FORMATS), **PLOT},
        slow=True,
    ),
    ("lab", "opening"): _line(
        "lab|opening|{deck}|--vs|{--vs}|--games|2|--jobs|1|--formats|{--formats}|--plot|{--plot}",
        {"deck": (FILE_IN, GOBLINS), "--vs": (FILE_IN, TILES), "--formats": (FILE_IN, FORMATS), **PLOT},
        slow=True,
    ),
    ("lab", "split"): _line("lab|split|{hand}|--players|3|--seconds|1", {"hand": (FILE_IN, HAND)}, db=False, slow=True),
    ("play", "mea"): _line(
        "play|mea|--deck|{--deck}|--vs-deck|{--vs-deck}|--seed|1|--formats|{--formats}|--record|{--record}",
        {
            "--deck": (FILE_IN, GOBLINS),
            "--vs-deck": (FILE_IN, TILES),
            "--formats": (FILE_IN, FORMATS),
            "--record": (FILE_OUT, ""),
        },
    ),
    ("play", "meikyu"): _line(
        "play|meikyu|--players|2|--assume|default|--seed|1|--record|{--record}", {"--record": (FILE_OUT, "")}
    ),
    ("play", "meio"): _line(
        "play|meio|--players|2|--seed|1|--record|{--record}", {"--record": (FILE_OUT, "")}, db=False
    ),
    ("print", "registration"): _line("print|registration|-o|{--output}", {"--output": (FILE_OUT, "")}, db=False),
    **{
        ("print", name): _line(
            f"print|{name}|{argv}-o|{{--output}}|--layout|{{--layout}}|--images|{{--images}}",
            {
                **({"file": (FILE_IN, GOBLINS)} if name == "deck" else {}),
                "--output": (FILE_OUT, ""),
                "--layout": (FILE_IN, LAYOUT),
                "--images": (FOLDER_IN, ""),
            },
        )
        for name, argv in [("deck", "{file}|"), ("query", "Crumb Goblin|"), ("set", "meio|"), ("tiles", "")]
    },
    ("render", "card"): _line(
        "render|card|Crumb Goblin|--dpi|30|-o|{--output}|--layout|{--layout}|--images|{--images}",
        {"--output": (FILE_OUT, ".png"), "--layout": (FILE_IN, LAYOUT), "--images": (FOLDER_IN, "")},
    ),
    ("replay",): _line("replay|{file}", {"file": (FILE_IN, "record")}, db=False),
    ("schema", "generate"): _line("schema|generate|--folder|{--folder}", {"--folder": (FOLDER_OUT, "")}, db=False),
    ("sim", "mea"): _line(
        "sim|mea|--deck|{--deck}|--vs|{--vs}|--games|1|--formats|{--formats}|--records|{--records}",
        {
            "--deck": (FILE_IN, GOBLINS),
            "--vs": (FILE_IN, TILES),
            "--formats": (FILE_IN, FORMATS),
            "--records": (FOLDER_OUT, ""),
        },
    ),
    ("sim", "meikyu"): _line(
        "sim|meikyu|--players|2|--assume|default|--games|1|--records|{--records}", {"--records": (FOLDER_OUT, "")}
    ),
    ("sim", "meio"): _line(
        "sim|meio|--players|2|--games|1|--records|{--records}", {"--records": (FOLDER_OUT, "")}, db=False
    ),
}


def _params(command: Any) -> dict[str, Any]:
    return {p.opts[0] if p.param_type_name == "option" else p.name: p for p in command.params}


def test_every_path_of_every_command_is_swept() -> None:
    """Every parameter typed ``Path`` (or a list of them), of every command: in ``LINES`` with its role."""
    found = {
        (path, name)
        for path, command in COMMANDS.items()
        for name, p in _params(command).items()
        if "Path" in p.bare_type()
    }
    listed = {(path, name) for path, line in LINES.items() for name in line.paths}
    assert found == listed, f"not swept: {sorted(found - listed)}; not a path parameter: {sorted(listed - found)}"
    for path, line in LINES.items():
        assert line.db == ("--db" in _params(COMMANDS[path])), path


# --- Making the targets -------------------------------------------------------------------------


def _snapshot(path: Path) -> tuple[int, int, int, bytes | None] | None:
    """What must not change: the kind, the inode, the modification time and the bytes (a regular file)."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    data = path.read_bytes() if stat.S_ISREG(info.st_mode) else None
    return info.st_mode, info.st_ino, info.st_mtime_ns, data


def _sample(tmp: Path, source: str, name: str, sweep_files: dict[str, str]) -> Path:
    """A copy of an input's sample file at ``tmp / name``."""
    path = tmp / name
    shutil.copyfile(sweep_files.get(source, source), path)
    return path


def _fill(line: Line, given: dict[str, str], tmp: Path, sweep_files: dict[str, str]) -> list[str]:
    """``line``'s argv with ``given`` paths, and a fresh one for each other path parameter."""
    values: dict[str, str] = {}
    for name, (role, what) in line.paths.items():
        if name in given:
            values[name] = given[name]
        elif role == FILE_IN:
            source = sweep_files.get(what, what)
            values[name] = str(_sample(tmp, source, f"in{name.strip('-')}{Path(source).suffix}", sweep_files))
        elif role == FOLDER_IN:
            values[name] = str(tmp / "art")
        else:
            values[name] = str(tmp / f"out-{name.strip('-')}{what}")
    return [word.format_map(values) if "{" in word else word for word in line.argv]


def _run(line: Line, argv: list[str], db: str) -> Result:
    return run_cli(argv, db if line.db else None, input="quit\n")


def _listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


@dataclass
class Target:
    path: Path
    phrase: str
    kept: list[Path] = field(default_factory=list)  # files whose snapshot must not change
    after: Callable[[], None] = lambda: None  # what else to check once the command is done


@pytest.fixture
def open_database_beside(in_tmp: Path) -> Iterator[Path]:
    """Another program's SQLite database, open in WAL mode with committed rows still in its log."""
    other = in_tmp / "theirs.db"
    holder = sqlite3.connect(other)
    holder.execute("PRAGMA journal_mode=WAL")
    holder.execute("PRAGMA wal_autocheckpoint=0")
    holder.execute("CREATE TABLE notes (line TEXT)")
    holder.executemany("INSERT INTO notes VALUES (?)", [(f"note {i}",) for i in range(50)])
    holder.commit()
    assert Path(f"{other}-wal").stat().st_size > 0
    yield other
    holder.close()
    with sqlite3.connect(other) as reader:
        assert reader.execute("SELECT count(*) FROM notes").fetchone() == (50,), "their database lost its rows"


def _dangling(tmp: Path, ending: str) -> Target:
    link = tmp / f"link{ending}"
    link.symlink_to(tmp / "elsewhere" / f"out{ending}")

    def after() -> None:
        assert not (tmp / "elsewhere").exists()

    return Target(link, "does not exist", [link], after)


def _fifo(tmp: Path, ending: str) -> Target:
    fifo = tmp / f"pipe{ending}"
    os.mkfifo(fifo)
    os.set_blocking(reader := os.open(fifo, os.O_RDONLY | os.O_NONBLOCK), False)

    def after() -> None:  # nothing was written to it
        try:
            assert os.read(reader, 1) == b""
        except BlockingIOError:
            pass
        finally:
            os.close(reader)

    return Target(fifo, "named pipe (FIFO)", [fifo], after)


def _wal(tmp: Path, ending: str) -> Target:
    return Target(tmp / "theirs.db-wal", "-wal file of the SQLite database", [tmp / "theirs.db-wal"])


def _shm(tmp: Path, ending: str) -> Target:
    return Target(tmp / "theirs.db-shm", "-shm file of the SQLite database", [tmp / "theirs.db-shm"])


def _journal_to_be(tmp: Path, ending: str) -> Target:
    journal = tmp / "theirs.db-journal"

    def after() -> None:
        assert not journal.exists()

    return Target(journal, "-journal file of the SQLite database", [], after)


def _wal_under_another_name(tmp: Path, ending: str) -> Target:
    copy = tmp / f"log{ending}"
    shutil.copyfile(tmp / "theirs.db-wal", copy)
    return Target(copy, "SQLite write-ahead log", [copy])


def _folder(tmp: Path, ending: str) -> Target:
    folder = tmp / f"folder{ending}"
    folder.mkdir()
    (folder / "keep.txt").write_text("keep me", encoding="utf-8")
    return Target(folder, "is a folder", [folder, folder / "keep.txt"])


def _under_a_file(tmp: Path, ending: str) -> Target:
    (tmp / "a-file").write_text("keep me", encoding="utf-8")
    return Target(tmp / "a-file" / f"out{ending}", "a-file is a file", [tmp / "a-file"])


def _shm_under_another_name(tmp: Path, ending: str) -> Target:
    copy = tmp / f"index{ending}"
    shutil.copyfile(tmp / "theirs.db-shm", copy)
    return Target(copy, "SQLite shared-memory index", [copy])


def _full_device(tmp: Path, ending: str) -> Target:
    return Target(Path("/dev/full"), "/dev/full")


FILE_TARGETS: list[tuple[str, Callable[[Path, str], Target]]] = [
    ("a link to nothing", _dangling),
    ("a FIFO", _fifo),
    ("the -wal of an open database", _wal),
    ("the -shm of an open database", _shm),
    ("the -journal name of a database", _journal_to_be),
    ("a write-ahead log by another name", _wal_under_another_name),
    ("a -shm by another name", _shm_under_another_name),
    ("/dev/full", _full_device),
    ("a folder", _folder),
    ("a path under a file", _under_a_file),
]
SLOW_TARGETS = ("a link to nothing", "a write-ahead log by another name")
"""The targets a command that plays games first is swept with (the two that matter most)."""
FILE_OUTPUTS = [
    (path, name, line, kind, make)
    for path, line in sorted(LINES.items())
    for name, (role, _) in line.paths.items()
    if role == FILE_OUT
    for kind, make in FILE_TARGETS
    if not line.slow or kind in SLOW_TARGETS
]


@pytest.mark.usefixtures("open_database_beside")
@pytest.mark.parametrize(
    ("path", "name", "line", "kind", "make"),
    FILE_OUTPUTS,
    ids=[f"{' '.join(o[0])} {o[1]} {o[3]}" for o in FILE_OUTPUTS],
)
def test_a_file_output_onto_what_it_would_harm_is_refused(
    path: tuple[str, ...],
    name: str,
    line: Line,
    kind: str,
    make: Callable[[Path, str], Target],
    sweep_files: dict[str, str],
    hostile_db: str,
    in_tmp: Path,
) -> None:
    ending = line.paths[name][1]
    target = make(in_tmp, ending)
    before = {p: _snapshot(p) for p in target.kept}
    run_cli(["deck", "new", "D", "--game", "mea"], hostile_db)
    result = _run(line, _fill(line, {name: str(target.path)}, in_tmp, sweep_files), hostile_db)
    # (a name without the ending a command must have, /dev/full for a PNG, is refused for that first)
    phrase = target.phrase if target.path.name.endswith(ending) else f"{ending}"
    assert_refused(result, 2, str(target.path), phrase)
    assert {p: _snapshot(p) for p in target.kept} == before
    target.after()
    assert [p for p in _listing(in_tmp) if p.startswith(".")] == [], "a temporary was left"


def _through_a_link_to_nothing(tmp: Path, ending: str) -> Target:
    link = tmp / "link"
    link.symlink_to(tmp / "elsewhere" / "deeper")

    def after() -> None:
        assert not (tmp / "elsewhere").exists()

    return Target(link / "sub", "link is a link to", [link], after)


def _a_file(tmp: Path, ending: str) -> Target:
    (tmp / "notes.txt").write_text("keep me", encoding="utf-8")
    return Target(tmp / "notes.txt", "is a file", [tmp / "notes.txt"])


FOLDER_TARGETS: list[tuple[str, Callable[[Path, str], Target]]] = [
    ("a link to nothing", _dangling),
    ("a path through a link to nothing", _through_a_link_to_nothing),
    ("a path under a file", _under_a_file),
    ("a file", _a_file),
    ("a FIFO", _fifo),
    ("/dev/full", _full_device),
]
FOLDER_OUTPUTS = [
    (path, name, line, kind, make)
    for path, line in sorted(LINES.items())
    for name, (role, _) in line.paths.items()
    if role == FOLDER_OUT
    for kind, make in FOLDER_TARGETS
]


@pytest.mark.parametrize(
    ("path", "name", "line", "kind", "make"),
    FOLDER_OUTPUTS,
    ids=[f"{' '.join(o[0])} {o[1]} {o[3]}" for o in FOLDER_OUTPUTS],
)
def test_a_folder_output_onto_what_it_would_harm_is_refused(
    path: tuple[str, ...],
    name: str,
    line: Line,
    kind: str,
    make: Callable[[Path, str], Target],
    sweep_files: dict[str, str],
    hostile_db: str,
    in_tmp: Path,
) -> None:
    target = make(in_tmp, "")
    before = {p: _snapshot(p) for p in target.kept}
    result = _run(line, _fill(line, {name: str(target.path)}, in_tmp, sweep_files), hostile_db)
    phrase = "character device" if kind == "/dev/full" else target.phrase
    assert_refused(result, 2, str(target.path), phrase)
    assert {p: _snapshot(p) for p in target.kept} == before
    target.after()
    assert [p for p in _listing(in_tmp) if p.startswith(".")] == [], "a temporary was left"


# --- An input given as an output ---------------------------------------------------------------

SAME_FILE = [
    (path, given, taken, line)
    for path, line in sorted(LINES.items())
    for given, (role, _) in line.paths.items()
    if role == FILE_IN
    for taken, (out_role, _) in line.paths.items()
    if out_role in (FILE_OUT, FOLDER_OUT)
]


@pytest.mark.parametrize(
    ("path", "given", "taken", "line"), SAME_FILE, ids=[f"{' '.join(p)} {g} as {t}" for p, g, t, _ in SAME_FILE]
)
def test_a_file_read_given_as_the_output_is_refused_and_kept(
    path: tuple[str, ...],
    given: str,
    taken: str,
    line: Line,
    sweep_files: dict[str, str],
    hostile_db: str,
    in_tmp: Path,
) -> None:
    ending = line.paths[taken][1]
    same = _sample(in_tmp, line.paths[given][1], f"same{ending}", sweep_files)
    before = _snapshot(same)
    run_cli(["deck", "new", "D", "--game", "mea"], hostile_db)
    result = _run(line, _fill(line, {given: str(same), taken: str(same)}, in_tmp, sweep_files), hostile_db)
    assert_refused(result, 2, str(same), "this command reads" if line.paths[taken][0] == FILE_OUT else "is a file")
    assert _snapshot(same) == before


# --- --db given what is no cardbase database ----------------------------------------------------


def _readme(tmp: Path) -> Path:
    (tmp / "README.md").write_text("# my notes\n\nkeep me\n", encoding="utf-8")
    return tmp / "README.md"


def _png(tmp: Path) -> Path:
    from PIL import Image

    Image.new("RGB", (8, 8), "red").save(tmp / "art.png")
    return tmp / "art.png"


def _zip(tmp: Path) -> Path:
    with zipfile.ZipFile(tmp / "cards.zip", "w") as archive:
        archive.writestr("cards.csv", CATALOG_SHEET)
    return tmp / "cards.zip"


def _empty_text(tmp: Path) -> Path:
    (tmp / "notes.txt").touch()
    return tmp / "notes.txt"


def _link_to_nothing(tmp: Path) -> Path:
    (tmp / "cards.db").symlink_to(tmp / "gone" / "cards.db")
    return tmp / "cards.db"


def _link_to_readme(tmp: Path) -> Path:
    (tmp / "db").symlink_to(_readme(tmp))
    return tmp / "db"


def _db_link_to_empty_text(tmp: Path) -> Path:
    (tmp / "cards.db").symlink_to(_empty_text(tmp))  # named as a database; what it points to is not
    return tmp / "cards.db"


def _wal_name(tmp: Path) -> Path:
    return tmp / "cards.db-wal"  # not there yet: made as a database, it would be taken for a log


NOT_DATABASES: list[tuple[str, Callable[[Path], Path], str]] = [
    ("a README", _readme, "not a SQLite database"),
    ("a PNG", _png, "not a SQLite database"),
    ("a zip", _zip, "not a SQLite database"),
    ("an empty text file", _empty_text, "empty file"),
    ("a link to nothing", _link_to_nothing, "does not exist"),
    ("a link to a README", _link_to_readme, "not a SQLite database"),
    ("a .db link to an empty text file", _db_link_to_empty_text, "empty file"),
    ("a -wal name", _wal_name, "side file"),
]
DB_COMMANDS = sorted(path for path in BASE if "--db" in _params(COMMANDS[path]))


@pytest.mark.skipif(bool(POSTGRES), reason="SQLite's files")
@pytest.mark.parametrize(("kind", "make", "phrase"), NOT_DATABASES, ids=[n[0] for n in NOT_DATABASES])
def test_a_db_that_is_no_database_is_refused_by_every_command_and_kept(
    kind: str, make: Callable[[Path], Path], phrase: str, sweep_files: dict[str, str], in_tmp: Path
) -> None:
    """Every command that takes ``--db``, from its sweep line: refused before SQLite opens the file,
    which is left as it was (no header written, no journal beside it)."""
    place = in_tmp / "place"
    place.mkdir()
    given = make(place)
    before = {p.name: _snapshot(p) for p in place.iterdir()}
    fill = {**sweep_files, "out": str(in_tmp / "out"), "code": "x"}
    for path in DB_COMMANDS:
        result = run_cli([*path, *(w.format(**fill) for w in BASE[path])], str(given), input="quit\n")
        try:
            assert_refused(result, 2, given.name, phrase)
        except AssertionError as error:
            raise AssertionError(f"cardbase {' '.join(path)} --db {kind}: {error}") from None
        assert {p.name: _snapshot(p) for p in place.iterdir()} == before, " ".join(path)


# --- A file replaced whole, or kept ---------------------------------------------------------------


def test_sim_records_keep_the_file_there_when_the_batch_fails(
    hostile_db: str, in_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The records file is replaced when the batch ends (it was emptied as the batch began): a batch
    that fails keeps it; one interrupted after a game keeps whole games, no temporary beside."""
    from cardbase.errors import UsageError
    from cardbase.sim import runner

    folder = in_tmp / "records"
    folder.mkdir()
    kept = folder / "meio-2p-seed1.jsonl"
    kept.write_text('{"earlier": "records"}\n', encoding="utf-8")
    before = _snapshot(kept)
    real = runner.run_batch

    def failing(*args: Any, **kwargs: Any) -> Any:
        kwargs["on_records"](['{"half": "a batch"}'])
        raise UsageError("the batch failed")

    monkeypatch.setattr(runner, "run_batch", failing)
    argv = ["sim", "meio", "--players", "2", "--games", "3", "--seed", "1", "--records", str(folder)]
    assert_refused(run_cli(argv), 2, "the batch failed")
    assert _snapshot(kept) == before
    assert _listing(folder) == [kept.name]

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        calls = {"n": 0}
        on_records = kwargs["on_records"]

        def counting(lines: Any) -> None:
            calls["n"] += 1
            on_records(lines)
            if calls["n"] == 2:
                raise KeyboardInterrupt

        return real(*args, **{**kwargs, "on_records": counting})

    monkeypatch.setattr(runner, "run_batch", interrupted)
    result = run_cli(argv)
    assert result.exit_code == 130, result.output
    assert "records written so far" in result.stderr
    lines = kept.read_text(encoding="utf-8").splitlines()
    assert lines and '"earlier"' not in lines[0] and all(line.startswith("{") and line.endswith("}") for line in lines)
    assert _listing(folder) == [kept.name]


# --- A folder cardbase may not write to ---------------------------------------------------------

READ_ONLY_SCRIPT = """
import json, sys
from tests.hostile.conftest import run_cli
for argv in json.loads(sys.argv[1]):
    r = run_cli(argv, input="quit\\n")
    escaped = r.exception if r.exception is not None and not isinstance(r.exception, SystemExit) else None
    print(json.dumps([r.exit_code, r.stderr, repr(escaped) if escaped else None]))
"""


def _open_to_all() -> str:
    """A temporary folder every user may enter (the test run's own may be its user's alone)."""
    for folder in (tempfile.gettempdir(), "/tmp", "/var/tmp"):
        if os.path.isdir(folder) and os.stat(folder).st_mode & stat.S_IXOTH:
            return folder
    return tempfile.gettempdir()


def test_a_folder_the_user_may_not_write_or_enter_is_refused_naming_it(
    sweep_files: dict[str, str],
    sqlite_template: Path,  # noqa: F811  # (the fixture imported above)
) -> None:
    """Every file and folder output (but those that play games first) into a folder the user may not
    write to, a file of the user's there: refused, exit 2, the folder named, nothing made or changed;
    every input and ``--db`` in a folder the user may not enter: refused so too (``--images`` there
    and ``--assume`` were internal errors: Python's ``Path.exists`` raises ``PermissionError``).
    Root writes anywhere, so as root the commands run as another user (``setpriv``)."""
    home = Path(tempfile.mkdtemp(prefix="cardbase-ro-", dir=_open_to_all()))
    try:
        os.chmod(home, 0o755)
        work = home / "work"  # the user's: the database and the inputs
        locked = home / "locked"  # read and entered by the user, not written
        work.mkdir()
        locked.mkdir()
        shutil.copyfile(sqlite_template, work / "cards.db")
        assert run_cli(["deck", "new", "D", "--game", "mea"], str(work / "cards.db")).exit_code == 0
        inputs = {k: str(_sample(work, v, Path(v).name, {})) for k, v in sweep_files.items()}
        (locked / "kept.pdf").write_bytes(b"%PDF kept")
        private = home / "private"  # not entered by the user
        (private / "art" / "mea").mkdir(parents=True)
        shutil.copyfile(sqlite_template, private / "cards.db")
        runs, names = [], []
        for path, line in sorted(LINES.items()):
            for name, (role, ending) in line.paths.items():
                if role not in (FILE_OUT, FOLDER_OUT) or line.slow:
                    continue
                out = locked / (
                    f"kept{ending or '.pdf'}" if role == FILE_OUT and path[0] == "print" else f"new{ending}"
                )
                argv = _fill(line, {name: str(out)}, work, inputs)
                runs.append([*argv, *(["--db", str(work / "cards.db")] if line.db else [])])
                names.append((path, name, out))
        for path, line in sorted(LINES.items()):  # a file of the user's they made read-only
            for name, (role, ending) in line.paths.items():
                if role == FILE_OUT and not line.slow:
                    out = work / f"protected-{'-'.join(path)}{ending}"
                    out.write_bytes(b"the user's, write-protected")
                    out.chmod(0o444)
                    argv = _fill(line, {name: str(out)}, work, inputs)
                    runs.append([*argv, *(["--db", str(work / "cards.db")] if line.db else [])])
                    names.append((path, name, out))
        for path, line in sorted(LINES.items()):  # and what it reads from a folder it may not enter
            if line.slow:
                continue
            for name, (role, source) in line.paths.items():
                if role in (FILE_IN, FOLDER_IN):
                    hidden = (
                        private / "art"
                        if role == FOLDER_IN
                        else _sample(private, source, name.strip("-") + Path(inputs.get(source, source)).suffix, inputs)
                    )
                    argv = _fill(line, {name: str(hidden)}, work, inputs)
                    runs.append([*argv, *(["--db", str(work / "cards.db")] if line.db else [])])
                    names.append((path, name, private))
            if line.db:
                runs.append([*_fill(line, {}, work, inputs), "--db", str(private / "cards.db")])
                names.append((path, "--db", private))
        become: list[str] = []
        if os.geteuid() == 0:
            become = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
            probe = subprocess.run([*become, sys.executable, "-c", "import cardbase"], cwd=REPO, capture_output=True)
            if probe.returncode != 0:  # a checkout or interpreter in a folder only root may enter
                pytest.skip(f"another user cannot run this checkout's Python here: {probe.stderr[-200:]!r}")
            for folder, _, files in os.walk(work):
                for entry in [folder, *(os.path.join(folder, f) for f in files)]:
                    os.chown(entry, 65534, 65534)
        os.chmod(locked, 0o555)
        os.chmod(private, 0)
        before = _snapshot(locked / "kept.pdf")
        done = subprocess.run(
            [*become, sys.executable, "-c", READ_ONLY_SCRIPT, json.dumps(runs)],
            capture_output=True,
            text=True,
            cwd=REPO,
            env={**os.environ, "HOME": str(work), "MPLCONFIGDIR": str(work / "mpl"), "PYTHONDONTWRITEBYTECODE": "1"},
            timeout=600,
        )
        assert done.returncode == 0, done.stderr[-3000:]
        answers = done.stdout.splitlines()
        assert len(answers) == len(names) > 10, done.stdout[-2000:]
        for (path, name, out), answer in zip(names, answers, strict=True):
            code, stderr, escaped = json.loads(answer)
            where = f"cardbase {' '.join(path)} {name}"
            assert escaped is None and "Traceback" not in stderr, f"{where}: {escaped or stderr}"
            errors = [s for s in stderr.splitlines() if s.startswith("cardbase: error:")]
            assert code == 2 and len(errors) == 1, f"{where}: exit {code}: {stderr}"
            assert str(out) in errors[0] or str(out.parent) in errors[0], f"{where}: {errors[0]}"
            assert "Permission denied" in errors[0] or "read-only" in errors[0], f"{where}: {errors[0]}"
        assert _snapshot(locked / "kept.pdf") == before
        assert _listing(locked) == ["kept.pdf"]
        for protected in work.glob("protected-*"):
            assert protected.read_bytes() == b"the user's, write-protected", protected
    finally:
        for folder in (home / "locked", home / "private"):
            if folder.exists():
                os.chmod(folder, 0o755)
        shutil.rmtree(home, ignore_errors=True)


# --- Ctrl-C at any step of a write over a file that is there ------------------------------------

INTERRUPT_SCRIPT = """
import json, os, sys, threading
from pathlib import Path
from cardbase import interrupts
from tests.hostile.conftest import run_cli

interrupts.install()
runs, points = json.loads(sys.argv[1]), int(sys.argv[2])
OLD = b"the user's file, kept unless replaced whole\\n"
WATCHED = (os.path.join("cardbase", "textfiles.py"), os.path.join("cardbase", "cli", "sim.py"))


def run(argv, point):
    seen, fired = 0, False

    def tracer(frame, event, arg):
        nonlocal seen, fired
        if threading.current_thread() is not threading.main_thread():
            return None
        if not frame.f_code.co_filename.endswith(WATCHED):
            return None
        if event not in ("call", "line"):  # a signal is taken between two steps, not as a frame returns
            return tracer
        seen += 1
        if point and seen >= point and not fired and not interrupts.holding():  # a signal is held there
            fired = True
            raise KeyboardInterrupt
        return tracer

    sys.settrace(tracer)
    try:
        result = run_cli(argv, input="quit\\n")
    finally:
        sys.settrace(None)
    return seen, result


for argv, target in runs:
    target = Path(target)
    target.write_bytes(OLD)
    seen, first = run(argv, 0)
    references = {target.read_bytes()}  # the whole new file (twice: the same bytes each time)
    target.write_bytes(OLD)
    again = run(argv, 0)[1]
    references.add(target.read_bytes())
    problems = []
    if first.exit_code or again.exit_code or OLD in references:
        problems.append(f"uninterrupted: exit {first.exit_code}: {first.stderr[-300:]}; the file {references}")
    for point in range(1, seen + 1, max(1, seen // points)):
        target.write_bytes(OLD)
        _, result = run(argv, point)
        now = target.read_bytes()
        left = [p.name for p in target.parent.iterdir() if p.name.startswith(".")]
        said = [s for s in result.stderr.splitlines() if s.startswith("cardbase:")]
        if result.exit_code not in (0, 130) or "Traceback" in result.stderr:
            problems.append(f"point {point}: exit {result.exit_code}: {result.stderr[-300:]}")
        if result.exit_code == 130 and (len(said) != 1 or not said[0].startswith("cardbase: interrupted")):
            problems.append(f"point {point}: said {said}")
        if now != OLD and now not in references:
            problems.append(f"point {point}: the file is neither the old one nor a whole new one ({len(now)} bytes)")
        if left:
            problems.append(f"point {point}: left {left}")
    print(json.dumps([seen, problems]), flush=True)
"""

INTERRUPTED = [
    (path, name, line)
    for path, line in sorted(LINES.items())
    for name, (role, _) in line.paths.items()
    if role == FILE_OUT and not line.slow and path[0] != "print"  # (a PDF is new bytes each time: its date)
]


def test_ctrl_c_at_any_step_of_a_write_leaves_the_old_file_or_the_whole_new_one(
    sweep_files: dict[str, str], hostile_db: str, tmp_path: Path
) -> None:
    """Every file output (and ``sim --records``' file), each over a file of the user's, stopped by a
    Ctrl-C at one step after another of ``textfiles`` and ``cli/sim.py`` (the writer's check,
    temporary, write and rename; a signal held where it is held): the file is the old one or the whole new one, never
    half (``sim --records`` emptied it as the batch began); no temporary is left."""
    runs = []
    for path, name, line in INTERRUPTED:
        folder = tmp_path / "-".join((*path, name.strip("-")))
        folder.mkdir()
        target = folder / f"mine{line.paths[name][1]}"
        argv = _fill(line, {name: str(target)}, tmp_path, sweep_files)
        runs.append([[*argv, *(["--db", hostile_db] if line.db else [])], str(target)])
    records = tmp_path / "records"  # and a file inside an output folder: the records of sim
    records.mkdir()
    runs.append(
        [["sim", "meio", "--players", "2", "--games", "1", "--seed", "1", "--jobs", "1", "--records", str(records)], ""]
    )
    runs[-1][1] = str(records / "meio-2p-seed1.jsonl")
    done = subprocess.run(
        [sys.executable, "-c", INTERRUPT_SCRIPT, json.dumps(runs), "25"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=1200,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    answers = done.stdout.splitlines()
    assert len(answers) == len(runs), done.stdout[-2000:]
    for (path, name, _), answer in zip([*INTERRUPTED, (("sim", "meio"), "--records", None)], answers, strict=True):
        seen, problems = json.loads(answer)
        assert seen > 25 and problems == [], f"cardbase {' '.join(path)} {name}: {problems[:5]}"


PLAYS = [(path, line) for path, line in sorted(LINES.items()) if path[0] == "play"]


@pytest.mark.parametrize(("path", "line"), PLAYS, ids=[" ".join(p) for p, _ in PLAYS])
@pytest.mark.parametrize("given", [True, False], ids=["--record", "the default record"])
def test_a_record_path_that_cannot_be_written_is_refused_before_the_game(
    path: tuple[str, ...], line: Line, given: bool, sweep_files: dict[str, str], hostile_db: str, in_tmp: Path
) -> None:
    """A person would play a whole game and lose it: the record's path is checked before the first deal."""
    if given:
        (in_tmp / "a-folder").mkdir()
        argv = _fill(line, {"--record": str(in_tmp / "a-folder")}, in_tmp, sweep_files)
        named = "a-folder"
    else:
        (in_tmp / "exports").write_text("a file where the default record's folder goes", encoding="utf-8")
        argv = _fill(line, {}, in_tmp, sweep_files)
        at = argv.index("--record")
        argv = argv[:at] + argv[at + 2 :]
        named = "exports"
    result = run_cli(argv, hostile_db if line.db else None, input="help\nquit\n")
    assert_refused(result, 2, named)
    assert "Type help" not in result.stdout, result.stdout
