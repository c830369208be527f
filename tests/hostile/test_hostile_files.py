"""Hostile files, generated, against every command that reads a user's file.

Each reader gets a valid file of its kind (a deck list, a Cockatrice ``.cod``, a YDK list, deck JSON,
a Meio hand, catalog and collection sheets in CSV, XLSX and JSON, a plain-text collection list, a game
record, a formats file, an assumption profile, a layout, art credits) mutated by hypothesis: re-encoded
(UTF-16 with and without its mark, Latin-1), cut short, with invalid UTF-8, NULs, CR or CRLF line ends,
a line of megabytes, huge or negative counts, a formula cell, an open quote, an extra column, a byte
order mark in the header, deep JSON, a key given twice, ``NaN``, ``1e999``, a number of thousands of
digits. And each gets the files that are no file of its kind: empty, a folder, a FIFO, a link to itself,
a dangling link, a database, a ZIP bomb, a ZIP that is no workbook.

The property, for every one: exit 0, 1 or 2; a refusal is one ``cardbase: error:`` line naming the
file (or, exit 1, ``deck validate``'s report naming it), never a traceback or a hang; and a refused
import leaves the database as it was.
"""

from __future__ import annotations

import io
import os
import re
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import Result

from tests.conftest import REPO, new_database
from tests.hostile.conftest import db_dump, error_lines, escaped, run_cli

GOBLINS = str(REPO / "examples/decks/mea-goblin-rush.txt")
EXAMPLES = settings(
    max_examples=int(os.environ.get("HOSTILE_FILES_EXAMPLES", "12")),
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.fixture(scope="module")
def files_db(catalog_template: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A database of this module's own, with a card owned (so a collection export has a row)."""
    folder = tmp_path_factory.mktemp("hostile-files-db")
    with new_database(folder, catalog_template) as url:
        db = str(folder / "cards.db") if url.startswith("sqlite") else url
        assert run_cli(["collection", "set", "Crumb Goblin", "2", "--game", "mea"], db).exit_code == 0
        yield db


class Seeds(dict[str, bytes]):
    """The valid files by name; shown by their names alone (a failing example prints its arguments)."""

    def __repr__(self) -> str:
        return f"Seeds({', '.join(self)})"


@pytest.fixture(scope="module")
def seeds(files_db: str, tmp_path_factory: pytest.TempPathFactory) -> Seeds:
    """A valid file of each kind a command reads, made by cardbase's own exports where it has one."""
    from cardbase.sim.records import record_lines
    from tests.golden.walks import rules_of

    folder = tmp_path_factory.mktemp("hostile-seeds")
    made = {
        "deck.cod": ["deck", "export", GOBLINS, "--format", "cod"],
        "deck.ydk": ["deck", "export", GOBLINS, "--format", "ydk"],
        "deck.json": ["deck", "export", GOBLINS, "--format", "json"],
        "catalog.csv": ["catalog", "export", "--game", "mea", "--format", "csv"],
        "catalog.json": ["catalog", "export", "--game", "mea", "--format", "json"],
        "catalog.xlsx": ["catalog", "export", "--game", "mea", "--format", "xlsx"],
        "collection.csv": ["collection", "export", "--format", "csv"],
        "collection.json": ["collection", "export", "--format", "json"],
        "collection.xlsx": ["collection", "export", "--format", "xlsx"],
    }
    out = Seeds()
    for name, argv in made.items():
        result = run_cli([*argv, "-o", str(folder / name)], files_db)
        assert result.exit_code == 0, result.stderr
        out[name] = (folder / name).read_bytes()
    out["deck.txt"] = Path(GOBLINS).read_bytes()
    out["hand.txt"] = (REPO / "examples/decks/meio-hand.txt").read_bytes()
    out["collection.txt"] = b"3 Crumb Goblin\n2x Puddle Knight\nLantern Sprite x2\n"
    out["record.jsonl"] = ("\n".join(record_lines(rules_of("meio", {"players": 2}), 3, [])) + "\n").encode()
    out["formats.toml"] = (REPO / "examples/formats/house.toml").read_bytes()
    out["layout.toml"] = (REPO / "examples/layouts/mea-plain.toml").read_bytes()
    out["profile.json"] = (REPO / "cardbase/catalog/data/meikyu_profile_default.json").read_bytes()
    out["credits.csv"] = b"file,credit\ncrumb-goblin.png,Someone\n"
    return out


# (id, seed, argv with {f} for the file, writes to the database, given --db)
READERS: list[tuple[str, str, list[str], bool]] = [
    ("deck validate txt", "deck.txt", ["deck", "validate", "{f}"], False),
    ("deck validate cod", "deck.cod", ["deck", "validate", "{f}"], False),
    ("deck validate ydk", "deck.ydk", ["deck", "validate", "{f}"], False),
    ("deck validate json", "deck.json", ["deck", "validate", "{f}"], False),
    ("deck validate meio hand", "hand.txt", ["deck", "validate", "{f}"], False),
    ("deck import txt", "deck.txt", ["deck", "import", "{f}", "--name", "Hostile", "--replace"], True),
    ("deck import json", "deck.json", ["deck", "import", "{f}", "--name", "Hostile", "--replace"], True),
    ("catalog import csv", "catalog.csv", ["catalog", "import", "{f}", "--game", "mea"], True),
    ("catalog import json", "catalog.json", ["catalog", "import", "{f}", "--game", "mea"], True),
    ("catalog import xlsx", "catalog.xlsx", ["catalog", "import", "{f}", "--game", "mea"], True),
    ("collection import csv", "collection.csv", ["collection", "import", "{f}", "--game", "mea"], True),
    ("collection import txt", "collection.txt", ["collection", "import", "{f}", "--game", "mea"], True),
    ("collection import json", "collection.json", ["collection", "import", "{f}", "--game", "mea"], True),
    ("collection import xlsx", "collection.xlsx", ["collection", "import", "{f}", "--game", "mea"], True),
    ("replay", "record.jsonl", ["replay", "{f}"], False),
    ("--formats", "formats.toml", ["deck", "validate", GOBLINS, "--formats", "{f}"], False),
    ("--assume", "profile.json", ["sim", "meikyu", "--assume", "{f}", "--games", "1"], False),
    ("--layout", "layout.toml", ["render", "card", "Crumb Goblin", "--layout", "{f}", "-o", "{out}/card.png"], False),
    (
        "art credits",
        "credits.csv",
        ["render", "card", "Crumb Goblin", "--images", "{art}", "-o", "{out}/card.png"],
        False,
    ),
]
NO_DB = {"replay"}


def _where(seed: str, folder: Path) -> Path:
    """Where the reader finds its file: art credits sit in ``<images>/mea/credits.csv``, beside the
    card's art (read only for a card that has art)."""
    if seed == "credits.csv":
        from PIL import Image

        (folder / "art" / "mea").mkdir(parents=True, exist_ok=True)
        Image.new("RGB", (60, 40), "teal").save(folder / "art" / "mea" / "crumb-goblin.png")
        return folder / "art" / "mea" / "credits.csv"
    return folder / f"hostile{Path(seed).suffix}"


def _run(reader: tuple[str, str, list[str], bool], path: Path, db: str) -> Result:
    name, _, argv, _ = reader
    folder = path.parent if path.name != "credits.csv" else path.parent.parent.parent
    args = [
        a.replace("{f}", str(path)).replace("{out}", str(folder)).replace("{art}", str(folder / "art")) for a in argv
    ]
    return run_cli(args, None if name in NO_DB else db)


def assert_hostile_outcome(result: Result, path: Path, refused_unchanged: bool, before: object, db: str) -> None:
    """Any outcome a user can be given; a refusal names the file and, for an import, wrote nothing."""
    error = escaped(result)
    assert error is None, f"escaped {type(error).__name__}: {error}"
    everything = result.stdout + result.stderr
    assert "Traceback" not in everything, everything[-2000:]
    assert "internal error" not in everything, everything[-2000:]
    assert result.exit_code in (0, 1, 2), f"exit {result.exit_code}: {everything[-800:]}"
    if result.exit_code == 0:
        return
    lines = error_lines(result)
    named = str(path) if path.name != "credits.csv" else "credits.csv"
    if not lines:  # deck validate: an invalid deck is a report on stdout naming the file, exit 1
        assert result.exit_code == 1 and "INVALID" in result.stdout, everything[-800:]
        assert named in result.stdout, result.stdout[-800:]
    else:
        assert len(lines) == 1, lines
        assert named in lines[0], f"the file is not named: {lines[0]!r}"
    if refused_unchanged:
        assert db_dump(db) == before, "a refused import changed the database"


# --- mutations of a valid file: each takes the bytes and a hypothesis draw --------------------------


def _at(raw: bytes, draw: Callable[..., int]) -> int:
    return draw(st.integers(0, len(raw))) if raw else 0


def _text(raw: bytes) -> str:
    return raw.decode("utf-8", "replace")


def _numbers(raw: bytes, number: bytes, how_many: int) -> bytes:
    return re.sub(rb"(?<![\w.])\d+(?![\w.])", number, raw, count=how_many)


MUTATIONS: dict[str, Callable[[bytes, Callable[..., int]], bytes]] = {
    "utf-16 with its mark": lambda raw, d: _text(raw).encode("utf-16"),
    "utf-16 le without a mark": lambda raw, d: _text(raw).encode("utf-16-le"),
    "utf-16 be without a mark": lambda raw, d: _text(raw).encode("utf-16-be"),
    "latin-1": lambda raw, d: (_text(raw) + "\nCrème").encode("latin-1", "replace"),
    "invalid utf-8": lambda raw, d: (lambda i: raw[:i] + b"\xff\xc3(" + raw[i:])(_at(raw, d)),
    "a NUL": lambda raw, d: (lambda i: raw[:i] + b"\x00" + raw[i:])(_at(raw, d)),
    "crlf": lambda raw, d: raw.replace(b"\n", b"\r\n"),
    "cr": lambda raw, d: raw.replace(b"\n", b"\r"),
    "a BOM in the header": lambda raw, d: b"\xef\xbb\xbf" + raw,
    "two BOMs": lambda raw, d: b"\xef\xbb\xbf\xef\xbb\xbf" + raw,
    "a huge line": lambda raw, d: (lambda i: raw[:i] + b"x" * 2_000_000 + b"\n" + raw[i:])(_at(raw, d)),
    "a long line": lambda raw, d: raw.replace(b"\n", b"\n" + b"y" * 200_000 + b"\n", 1),
    "huge counts": lambda raw, d: _numbers(raw, b"99999999999999999999999", d(st.integers(1, 5))),
    "thousands of digits": lambda raw, d: _numbers(raw, b"9" * 5000, 2),
    "negative counts": lambda raw, d: _numbers(raw, b"-3", d(st.integers(1, 5))),
    "1e999": lambda raw, d: _numbers(raw, b"1e999", d(st.integers(1, 3))),
    "NaN": lambda raw, d: _numbers(raw, b"NaN", 2),
    "cut short": lambda raw, d: raw[: _at(raw, d)],
    "a formula cell": lambda raw, d: raw.replace(b"\n", b"\n=cmd|' /C calc'!A0,@SUM(A1),+1,-1\n", 1),
    "an open quote": lambda raw, d: (lambda i: raw[:i] + b'"' + raw[i:])(_at(raw, d)),
    "an extra column": lambda raw, d: raw.replace(b"\n", b",extra\n"),
    "deep JSON": lambda raw, d: b"[" * 100_000 + b"]" * 100_000,
    "a key twice": lambda raw, d: raw.replace(b"{", b'{"name": "x", "name": "y", ', 1),
    "a line separator": lambda raw, d: raw.replace(b"\n", "\u2028".encode(), 1),
    "terminal escapes": lambda raw, d: raw.replace(b"\n", b"\x1b]8;;http://x\x07\x1b[2J\n", 1),
    "random bytes": lambda raw, d: (lambda i: raw[:i] + bytes(d(st.binary(max_size=64))) + raw[i:])(_at(raw, d)),
}


@EXAMPLES
@given(data=st.data())
@pytest.mark.parametrize("reader", READERS, ids=[r[0] for r in READERS])
def test_a_mutated_file_is_read_or_refused_naming_it(
    reader: tuple[str, str, list[str], bool], seeds: Seeds, files_db: str, tmp_path: Path, data: st.DataObject
) -> None:
    names = data.draw(st.lists(st.sampled_from(sorted(MUTATIONS)), min_size=1, max_size=2, unique=True), "mutations")
    raw = seeds[reader[1]]
    for name in names:
        raw = MUTATIONS[name](raw, data.draw)
    folder = tmp_path / f"case-{os.urandom(4).hex()}"
    folder.mkdir()
    path = _where(reader[1], folder)
    path.write_bytes(raw)
    before = db_dump(files_db) if reader[3] else None
    assert_hostile_outcome(_run(reader, path, files_db), path, reader[3], before, files_db)


# --- files that are no file of their kind -----------------------------------------------------------


def _zip_bomb(seed: bytes) -> bytes:
    """The workbook with its sheet replaced by 600 MB of spaces (under a megabyte zipped)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(seed)) as source, zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as bomb:
        for name in source.namelist():
            if name.startswith("xl/worksheets/"):
                bomb.writestr(name, b"<worksheet><sheetData>" + b" " * 600_000_000 + b"</sheetData></worksheet>")
            else:
                bomb.writestr(name, source.read(name))
    return buffer.getvalue()


def _entity_bomb(seed: bytes) -> bytes:
    """The workbook with a billion-laughs DTD in its sheet."""
    lol = b'<!DOCTYPE w [<!ENTITY a "aaaaaaaaaa">' + b"".join(
        b'<!ENTITY %c "%s">' % (ord("b") + i, (b"&%c;" % (ord("a") + i)) * 10) for i in range(8)
    )
    buffer = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(seed)) as source, zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as bomb:
        for name in source.namelist():
            part = source.read(name)
            if name.startswith("xl/worksheets/"):
                part = (
                    lol
                    + b"]>"
                    + part.replace(
                        b"<sheetData>",
                        b"<sheetData><row r='1'><c r='A1' t='inlineStr'><is><t>&i;</t></is></c></row>",
                        1,
                    )
                )
            bomb.writestr(name, part)
    return buffer.getvalue()


def _special(kind: str, path: Path, seed: bytes) -> None:
    if kind == "empty":
        path.write_bytes(b"")
    elif kind == "spaces only":
        path.write_bytes(b"  \n\t\n")
    elif kind == "a folder":
        path.mkdir()
    elif kind == "a FIFO":
        os.mkfifo(path)
    elif kind == "a link to itself":
        path.symlink_to(path)
    elif kind == "a dangling link":
        path.symlink_to(path.parent / "nowhere")
    elif kind == "a link to the file":
        (path.parent / "real").write_bytes(seed)
        path.symlink_to(path.parent / "real")
    elif kind == "a database":
        path.write_bytes(b"SQLite format 3\x00" + b"\x10\x00\x02\x02" + bytes(4000))
    elif kind == "a program":
        path.write_bytes(b"\x7fELF\x02\x01\x01" + bytes(9) + b"\x02\x00\x3e\x00" + bytes(200))
    elif kind == "not a zip":
        path.write_bytes(b"PK\x03\x04" + b"garbage" * 50)
    elif kind == "a zip bomb":
        path.write_bytes(_zip_bomb(seed) if seed[:2] == b"PK" else b"")
    elif kind == "an entity bomb":
        path.write_bytes(_entity_bomb(seed) if seed[:2] == b"PK" else b"")


SPECIAL = [
    "empty",
    "spaces only",
    "a folder",
    "a FIFO",
    "a link to itself",
    "a dangling link",
    "a link to the file",
    "a database",
    "a program",
    "not a zip",
]
WORKBOOK_SPECIAL = ["a zip bomb", "an entity bomb"]
OPTIONAL = {
    "credits.csv": ("empty", "spaces only", "a link to itself", "a dangling link"),  # no credits file: no credits
    "formats.toml": ("empty", "spaces only"),  # no house formats
    "layout.toml": ("empty", "spaces only"),  # no layout replaced
}
"""The files whose emptiness (or absence) is a choice, not a mistake: read as giving nothing."""


@pytest.mark.parametrize(
    ("reader", "kind"),
    [(r, k) for r in READERS for k in SPECIAL]
    + [(r, k) for r in READERS if r[1].endswith(".xlsx") for k in WORKBOOK_SPECIAL],
    ids=[f"{r[0]}-{k}" for r in READERS for k in SPECIAL]
    + [f"{r[0]}-{k}" for r in READERS if r[1].endswith(".xlsx") for k in WORKBOOK_SPECIAL],
)
def test_a_file_of_no_kind_is_refused_naming_it(
    reader: tuple[str, str, list[str], bool], kind: str, seeds: Seeds, files_db: str, tmp_path: Path
) -> None:
    path = _where(reader[1], tmp_path)
    _special(kind, path, seeds[reader[1]])
    before = db_dump(files_db) if reader[3] else None
    result = _run(reader, path, files_db)
    assert_hostile_outcome(result, path, reader[3], before, files_db)
    if kind == "a link to the file":
        assert result.exit_code == 0, result.stderr
    elif kind not in OPTIONAL.get(reader[1], ()):
        assert result.exit_code != 0, result.stdout


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        (b"SQLite format 3\x00" + b"\x10\x00\x02\x02" + bytes(4000), "a binary file (a SQLite database"),
        (b"\x7fELF\x02\x01\x01" + bytes(9) + b"\x02\x00\x3e\x00" + bytes(200), "a binary file (a program)"),
        (b"II*\x00\x08\x00\x00\x00" + bytes(120), "a binary file, not a text deck file"),
        ("game: meikyu\n1 勇者\u3000カード\n".encode("utf-16-le"), "UTF-16 text without a byte order mark"),
        ("game: meikyu\n1 勇者\n".encode("utf-16-be"), "UTF-16 text without a byte order mark"),
        ("3\n".encode("utf-16-le"), "UTF-16 text without a byte order mark"),  # two characters, as before
    ],
    ids=["sqlite", "elf", "tiff", "utf-16-le-japanese", "utf-16-be-japanese", "utf-16-le-short"],
)
def test_a_binary_file_is_called_binary_and_utf16_text_utf16(
    raw: bytes, words: str, files_db: str, tmp_path: Path
) -> None:
    """A database or a program has NULs in every other byte, as UTF-16 text of Latin letters has: it was
    called "UTF-16 text without a byte order mark" (save it as UTF-8!), while UTF-16 text in Japanese,
    with few NULs, was called binary. What its start reads as in UTF-16 tells them apart."""
    path = tmp_path / "deck.txt"
    path.write_bytes(raw)
    result = run_cli(["deck", "validate", str(path)], files_db)
    assert_hostile_outcome(result, path, False, None, files_db)
    assert result.exit_code == 2 and words in error_lines(result)[0], result.stderr


def test_a_float_past_its_digits_is_not_written_out_in_a_message(files_db: str, tmp_path: Path) -> None:
    """``size = 1e308`` in a layout: the message wrote the float's 309 digits (292 of them noise)."""
    layout = (REPO / "examples/layouts/mea-plain.toml").read_text(encoding="utf-8")
    path = tmp_path / "layout.toml"
    path.write_text(re.sub(r'(?m)^size = "11pt"$', "size = 1e308", layout, count=1), encoding="utf-8")
    result = run_cli(["render", "card", "Crumb Goblin", "--layout", str(path), "-o", str(tmp_path / "c.png")], files_db)
    assert_hostile_outcome(result, path, False, None, files_db)
    line = error_lines(result)[0]
    assert "type size 1e+308pt is out of range" in line and len(line) < 300, line


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ('file,credit\n"' + "x" * 200_000 + '",Ann\n', "line 2: a cell is over 131,072 characters"),
        ('file,credit\ncrumb-goblin.png,"Ann\n', "line 2: a quote opened on line 2 is never closed"),
        ('file,credit\ncrumb-goblin.png,"Ann"x\n', "line 2: text after a closing quote"),
    ],
    ids=["cell-over-the-csv-bound", "open-quote", "text-after-quote"],
)
def test_art_credits_are_read_by_the_strict_csv_reader(content: str, words: str, files_db: str, tmp_path: Path) -> None:
    """An art credits file with a cell over the csv module's bound was an internal error (its ``csv.Error``
    escaped); a quote left open read the rest of the file as one credit. Both are refused, naming the
    file and the line, as every CSV cardbase reads."""
    path = _where("credits.csv", tmp_path)
    path.write_text(content, encoding="utf-8")
    reader = next(r for r in READERS if r[0] == "art credits")
    result = _run(reader, path, files_db)
    assert_hostile_outcome(result, path, False, None, files_db)
    assert result.exit_code == 2 and words in error_lines(result)[0], result.stderr
