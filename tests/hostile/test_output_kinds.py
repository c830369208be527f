"""An output's name and its content agree: a file whose name ends in a kind of file's ending
(``.xlsx``, ``.json``, ``.csv``, ``.txt``, ``.pdf``, ``.png``…) is written in that kind or refused
(exit 2, naming the ending and the kind written, nothing written). ``catalog export -o cards.xlsx``
wrote CSV under the XLSX name, which ``catalog import cards.xlsx`` then refused as no workbook;
``deck export -o d.json`` wrote a text list that ``deck validate d.json`` refused as bad JSON;
``print deck -o sheet.png`` wrote a PDF. Without ``--format`` the name's ending picks the format."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.hostile.conftest import assert_refused, run_cli

GOBLINS = str(REPO / "examples/decks/mea-goblin-rush.txt")

ZIP, PDF, PNG = b"PK\x03\x04", b"%PDF", b"\x89PNG"
READ_MEA = ["catalog", "import", "OUT", "--game", "mea", "--dry-run"]

# (command, output name, what the file must start with, the command that reads it back)
WRITTEN_BY_NAME: list[tuple[list[str], str, bytes, list[str] | None]] = [
    (["catalog", "export", "--game", "mea"], "c.xlsx", ZIP, READ_MEA),
    (
        ["catalog", "export", "--game", "mea"],
        "c.json",
        b"{",
        ["catalog", "import", "OUT", "--game", "mea", "--dry-run"],
    ),
    (
        ["catalog", "export", "--game", "mea"],
        "c.csv",
        b"name",
        ["catalog", "import", "OUT", "--game", "mea", "--dry-run"],
    ),
    (["catalog", "template", "--game", "meikyu"], "t.csv", b"name", ["catalog", "import", "OUT", "--game", "meikyu"]),
    (["catalog", "template", "--game", "meikyu"], "t.xlsx", ZIP, ["catalog", "import", "OUT", "--game", "meikyu"]),
    (["collection", "export"], "col.xlsx", ZIP, ["collection", "import", "OUT", "--dry-run"]),
    (["collection", "export"], "col.json", b"[", ["collection", "import", "OUT", "--dry-run"]),
    (["deck", "export", GOBLINS], "d.json", b"{", ["deck", "validate", "OUT"]),
    (["deck", "export", GOBLINS], "d.cod", b"<", ["deck", "validate", "OUT"]),
    (["deck", "export", GOBLINS], "d.txt", b"game: mea", ["deck", "validate", "OUT"]),
    (["print", "deck", GOBLINS], "p.pdf", PDF, None),
    (["draws", GOBLINS, "--need", "1 t:monster", "--by-turn", "2"], "--plot p.png", PNG, None),
]


@pytest.mark.parametrize(
    ("argv", "name", "start", "reader"), WRITTEN_BY_NAME, ids=[f"{a[0]} {a[1]} {n}" for a, n, _, _ in WRITTEN_BY_NAME]
)
def test_the_name_picks_the_format_and_reads_back(
    argv: list[str], name: str, start: bytes, reader: list[str] | None, hostile_db: str, in_tmp: Path
) -> None:
    option, _, name = name.rpartition(" ")
    result = run_cli([*argv, option or "-o", name], hostile_db)
    assert result.exit_code == 0, result.output
    assert (in_tmp / name).read_bytes().startswith(start)
    if reader is not None:
        back = run_cli([name if a == "OUT" else a for a in reader], hostile_db)
        assert back.exit_code in (0, 1), back.output  # read (a deck may be checked and found wanting)
        assert "not a readable" not in back.stderr and "invalid JSON" not in back.stderr, back.stderr


# (command, output option and name, fragments of the refusal)
REFUSED: list[tuple[list[str], list[str], tuple[str, ...]]] = [
    (["catalog", "export", "--game", "mea", "--format", "csv"], ["-o", "c.xlsx"], (".xlsx", "--format xlsx")),
    (["catalog", "export", "--game", "mea", "--format", "json"], ["-o", "c.csv"], (".csv", "end it in .json")),
    (["catalog", "export", "--game", "mea", "--format", "csv"], ["-o", "c.txt"], (".txt", "end it in .csv")),
    (["catalog", "export", "--game", "mea"], ["-o", "c.pdf"], (".pdf", "end it in .csv")),
    (["catalog", "template", "--game", "meikyu"], ["-o", "t.json"], (".json", "end it in .xlsx")),
    (["catalog", "template", "--game", "meikyu", "--format", "xlsx"], ["-o", "t.csv"], (".csv", "--format csv")),
    (["collection", "export"], ["-o", "col.txt"], (".txt", "end it in .csv")),
    (["collection", "export", "--format", "xlsx"], ["-o", "col.json"], (".json", "--format json")),
    (["deck", "export", GOBLINS, "--format", "arena"], ["-o", "d.json"], (".json", "--format json")),
    (["deck", "export", GOBLINS, "--format", "json"], ["-o", "d.cod"], (".cod", "--format cod")),
    (["deck", "export", GOBLINS, "--format", "code"], ["-o", "d.csv"], (".csv", "end it in .txt")),
    (["print", "deck", GOBLINS], ["-o", "p.png"], (".png", "end it in .pdf")),
    (["print", "set", "meio"], ["-o", "p.xlsx"], (".xlsx", "end it in .pdf")),
    (["print", "registration"], ["-o", "r.svg"], (".svg", "end it in .pdf")),
    (["draws", GOBLINS, "--need", "1 t:monster", "--by-turn", "2"], ["--plot", "p.svg"], (".svg", "end it in .png")),
    (["draws", GOBLINS, "--need", "1 t:monster", "--by-turn", "2"], ["--plot", "p.pdf"], (".pdf", "end it in .png")),
]


@pytest.mark.parametrize(("argv", "out", "fragments"), REFUSED, ids=[f"{a[0]} {a[1]} {o[1]}" for a, o, _ in REFUSED])
def test_a_name_that_says_another_kind_is_refused(
    argv: list[str], out: list[str], fragments: tuple[str, ...], hostile_db: str, in_tmp: Path
) -> None:
    before = sorted(p.name for p in in_tmp.iterdir())
    db = None if argv[1] == "registration" else hostile_db  # the registration sheet reads no database
    assert_refused(run_cli([*argv, *out], db), 2, out[1], *fragments)
    assert sorted(p.name for p in in_tmp.iterdir()) == before


@pytest.mark.parametrize("name", ["cards.dat", "cards", "-"])
def test_a_name_of_no_kind_is_written_as_asked(name: str, hostile_db: str, in_tmp: Path) -> None:
    result = run_cli(["catalog", "export", "--game", "meio", "--format", "json", "-o", name], hostile_db)
    assert result.exit_code == 0, result.output
    text = result.stdout if name == "-" else (in_tmp / name).read_text(encoding="utf-8")
    assert text.lstrip().startswith("{")
