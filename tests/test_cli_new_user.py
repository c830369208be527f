"""A new user at a terminal: what every command's help shows and what its refusals say, generated
over the commands (``tests/test_cli_surface.py`` checks the examples in the help; this file the
words): no help shows a Python type name (``<str>``, ``<int range>``); a whole number out of an
option's range is refused naming the value and the range, not in the parser library's words; a
deck or layout file of the wrong shape is refused saying where and what, not in the schema
library's words (``Input should be a valid dictionary or instance of DeckEntryModel``)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer.main

from cardbase.cli.app import app
from tests.conftest import REPO
from tests.hostile.conftest import assert_refused, run_cli


def _commands(group: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    """Every command and group under ``group`` (built: a lazy group builds each as it is walked)."""
    yield path, group
    for name, command in sorted(getattr(group, "commands", {}).items()):
        yield from _commands(command, (*path, name))


ROOT = typer.main.get_command(app)
COMMANDS = list(_commands(ROOT))
LEAVES = [(path, command) for path, command in COMMANDS if getattr(command, "commands", None) is None]

PYTHON_TYPES = ("<str>", "<int>", "<int range>", "<float>", "<float range>", "<bool>", "list[", "<NoneType>")


def test_the_walk_finds_every_command() -> None:
    assert len(LEAVES) >= 55 and ("odds", "meikyu", "quest") in [p for p, _ in LEAVES]


@pytest.mark.parametrize("path", [p for p, _ in COMMANDS], ids=lambda p: " ".join(p) or "cardbase")
def test_no_help_shows_a_python_type_name(path: tuple[str, ...]) -> None:
    result = run_cli([*path, "--help"])
    assert result.exit_code == 0, result.output
    shown = [word for word in PYTHON_TYPES if word in result.stdout]
    assert shown == [], f"cardbase {' '.join(path)} --help shows {shown}"


ABBREVIATIONS = {"ref", "arg", "args", "val", "obj", "cfg", "fn", "idx", "num", "str", "src", "dst"}


def test_every_argument_is_named_by_a_word() -> None:
    """An argument is named in ``Missing argument 'NAME'`` and ``Invalid value for 'NAME'`` and in the
    usage line: a word a user reads (``old``, ``version``), not a letter or a programmer's short form
    (``deck diff``'s ``a`` and ``b``, ``deck restore``'s ``ref``)."""
    named = {
        (" ".join(path), str(param.display_name_raw))
        for path, command in LEAVES
        for param in command.params
        if param.param_type_name == "argument"
    }
    assert len(named) >= 40
    bad = sorted((path, name) for path, name in named if len(name) < 3 or name.lower() in ABBREVIATIONS)
    assert bad == []


def test_every_help_fits_80_columns() -> None:
    """Every ``--help`` as a terminal of 80 columns shows it (the console script, not the test runner,
    whose help is another layout): no line is wider, so none is broken by the terminal mid-word
    (``cards search``'s table of query terms was 103 wide)."""
    import os
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from cardbase.cli.app import main\n"
        f"for path in {[list(p) for p, _ in COMMANDS]!r}:\n"
        "    sys.argv = ['cardbase', *path, '--help']\n"
        "    print('=== ' + ' '.join(path), flush=True)\n"
        "    try:\n        main()\n    except SystemExit:\n        pass\n"
    )
    env = {**os.environ, "COLUMNS": "80", "NO_COLOR": "1"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert done.stdout.count("=== ") == len(COMMANDS) and "Example: cardbase" in done.stdout
    command, wide = "cardbase", []
    for line in done.stdout.splitlines():
        if line.startswith("=== "):
            command = f"cardbase {line[4:]}".strip()
        elif len(line) > 80:
            wide.append(f"{command}: {line}")
    assert wide == []


def _ranged() -> list[tuple[tuple[str, ...], str, int, int]]:
    """Every whole-number option with a bound: its command, its longest name and its range."""
    out = []
    for path, command in LEAVES:
        for param in command.params:
            annotation = getattr(getattr(param, "type_descriptor", None), "annotation", None)
            low, high = getattr(param, "min", None), getattr(param, "max", None)
            if param.param_type_name == "option" and annotation is int and low is not None and high is not None:
                out.append((path, max(param.opts, key=len), int(low), int(high)))
    return out


RANGED = _ranged()


def test_the_ranged_options_are_found() -> None:
    assert len(RANGED) >= 50 and (("cards", "search"), "--limit", 1, 10000) in RANGED


@pytest.mark.parametrize(("path", "option", "low", "high"), RANGED, ids=[f"{' '.join(p)} {o}" for p, o, _, _ in RANGED])
def test_a_whole_number_out_of_range_names_the_value_and_the_range(
    path: tuple[str, ...], option: str, low: int, high: int
) -> None:
    for value in (low - 1, high + 1):
        result = run_cli([*path, option, str(value)])
        line = assert_refused(result, 2, option, f"{value} is out of range", f"from {low:,} to {high:,}")
        assert "Input should be" not in line, line


def _whole_number_options() -> list[tuple[tuple[str, ...], str]]:
    return [
        (path, max(param.opts, key=len))
        for path, command in LEAVES
        for param in command.params
        if param.param_type_name == "option" and getattr(param.type_descriptor, "annotation", None) is int
    ]


WHOLE = _whole_number_options()


@pytest.mark.parametrize(("path", "option"), WHOLE, ids=[f"{' '.join(p)} {o}" for p, o in WHOLE])
def test_a_whole_number_of_thousands_of_digits_is_refused_in_plain_words(path: tuple[str, ...], option: str) -> None:
    line = assert_refused(run_cli([*path, option, "9" * 5000]), 2, option, "(5,000 characters)")
    assert "Unable to parse" not in line and "Input should" not in line, line


# --- a file of the wrong shape: said in a user's words, never the schema library's ---

LIBRARY_WORDS = re.compile(r"Input should|Field required|Extra inputs|instance of|\w+Model\b|: :|\(file\)|dictionary")

DECK_JSON = {
    "a card as a bare name": ('{"game": "mea", "cards": ["Crumb Goblin"]}', "cards[1]", "an object"),
    "a count in words": ('{"game": "mea", "cards": [{"name": "Crumb Goblin", "count": "three"}]}', "count", "three"),
    "a count of 0": ('{"game": "mea", "cards": [{"name": "Crumb Goblin", "count": 0}]}', "count", "at least 1"),
    "a field of another tool": (
        '{"game": "mea", "cards": [{"name": "Crumb Goblin", "count": 3, "qty": 2}]}',
        "qty",
        "not a field",
    ),
    "cards as an object": ('{"game": "mea", "cards": {"Crumb Goblin": 3}}', "cards", "a list"),
    "no cards": ('{"game": "mea", "main": [{"name": "Crumb Goblin", "count": 3}]}', "cards", "missing"),
    "no game": ('{"cards": [{"name": "Crumb Goblin", "count": 3}]}', "game", "missing"),
    "another game": ('{"game": "mae", "cards": []}', "game", "'mae'"),
    "a list for the file": ('[{"name": "Crumb Goblin", "count": 3}]', "the file", "an object"),
    "a name of null": ('{"game": "mea", "cards": [{"name": null, "count": 3}]}', "name", "null"),
}


@pytest.mark.parametrize("case", sorted(DECK_JSON))
def test_a_json_deck_of_the_wrong_shape_is_refused_in_plain_words(case: str, tmp_path: Path) -> None:
    text, where, said = DECK_JSON[case]
    deck = tmp_path / "deck.json"
    deck.write_text(text, encoding="utf-8")
    line = assert_refused(run_cli(["deck", "validate", deck, "--db", tmp_path / "c.db"]), 2, where, said)
    assert not LIBRARY_WORDS.search(line), line


LAYOUT = {
    "an element as text": ('[layouts.mea-monster]\nbackground = "#000000"\nelements = ["rect"]\n', "an object"),
    "a box of words": (
        '[layouts.mea-monster]\nbackground = "#000000"\n[[layouts.mea-monster.elements]]\nkind = "rect"\n'
        'box = "all of it"\n',
        "box",
    ),
    "a misspelt key": ('[layouts.mea-monster]\nbackground = "#000000"\nelements = []\ncolor = "#ffffff"\n', "color"),
    "no elements": ('[layouts.mea-monster]\nbackground = "#000000"\n', "missing"),
    "layouts as a list": ("layouts = [1, 2]\n", "layouts"),
}


@pytest.mark.parametrize("case", sorted(LAYOUT))
def test_a_layout_file_of_the_wrong_shape_is_refused_in_plain_words(case: str, tmp_path: Path) -> None:
    text, said = LAYOUT[case]
    layout = tmp_path / "layout.toml"
    layout.write_text(text, encoding="utf-8")
    deck = REPO / "examples" / "decks" / "mea-goblin-rush.txt"
    args = ["print", "deck", deck, "--layout", layout, "-o", tmp_path / "out.pdf", "--db", tmp_path / "c.db"]
    line = assert_refused(run_cli(args), 1, said)
    assert not LIBRARY_WORDS.search(line), line


# --- a file name mistyped, or written as on Windows: the file that is there is named ---


def _readme_file_readers() -> list[tuple[list[str], int]]:
    """Each README command that reads a file of ``examples/`` (its arguments after ``uv run
    cardbase``, and which of them is the file), one per command and file argument position."""
    import shlex

    from tests.test_readme import readme_commands

    out: dict[tuple[str, ...], tuple[list[str], int]] = {}
    for command in readme_commands((REPO / "README.md").read_text(encoding="utf-8")):
        args = shlex.split(command)[3:]
        for k, arg in enumerate(args):
            if args[:2] == ["deck", "diff"]:  # its other deck is a database deck an earlier README line made
                continue
            if arg.startswith("examples/") and (REPO / arg).is_file() and args[k - 1] not in ("--formats", "--layout"):
                out.setdefault((*args[:2], args[k - 1] if args[k - 1].startswith("-") else ""), (args, k))
    return list(out.values())


FILE_READERS = _readme_file_readers()


def test_the_readme_file_readers_are_found() -> None:
    assert len(FILE_READERS) >= 12, FILE_READERS


@pytest.mark.parametrize(("args", "k"), FILE_READERS, ids=[f"{' '.join(a[:2])} {a[k - 1]}" for a, k in FILE_READERS])
@pytest.mark.parametrize("mistake", ["typo", "ending", "windows"])
def test_a_mistyped_file_name_is_refused_naming_the_file_that_is_there(
    args: list[str], k: int, mistake: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    shutil.copytree(REPO / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    real = args[k]
    stem, dot, ending = real.rpartition(".")
    typed = {"typo": f"{stem[:-1]}{dot}{ending}", "ending": real[:-1], "windows": real.replace("/", "\\")}[mistake]
    argv = [*args[:k], typed, *args[k + 1 :], *(["--db", "c.db"] if args[0] not in ("sim", "play", "lab") else [])]
    result = run_cli([a.replace("exports/", "out/") for a in argv], input="quit\n")
    assert_refused(result, 2, "no such file", f"did you mean '{real}'")


# --- JSON of bad syntax: said in a user's words, never the parser's ---

PARSER_WORDS = re.compile(r"Expecting|Extra data|Unterminated|delimiter|enclosed in|Invalid control|Invalid \\\\escape")

BAD_JSON = {
    "empty": "",
    "a word": "hello",
    "an object left open": "{",
    "a comma missing": '{"game": "mea" "cards": []}',
    "a key without quotes": "{game: 1}",
    "a string left open": '{"game": "mea',
    "a trailing comma": '{"game": "mea",}',
    "two values": "{} {}",
}
JSON_READERS = {
    "deck": (["deck", "validate", "{file}"], ".json"),
    "catalog import": (["catalog", "import", "{file}", "--game", "mea", "--dry-run"], ".json"),
    "collection import": (["collection", "import", "{file}", "--dry-run"], ".json"),
    "assumption profile": (["sim", "meikyu", "--assume", "{file}", "--games", "1"], ".json"),
    "game record": (["replay", "{file}"], ".jsonl"),
}


@pytest.mark.parametrize("reader", sorted(JSON_READERS))
@pytest.mark.parametrize("case", sorted(BAD_JSON))
def test_json_of_bad_syntax_is_refused_in_plain_words(reader: str, case: str, tmp_path: Path) -> None:
    argv, ending = JSON_READERS[reader]
    path = tmp_path / f"bad{ending}"
    path.write_text(BAD_JSON[case], encoding="utf-8")
    args = [str(path) if a == "{file}" else a for a in argv]
    result = run_cli([*args, *(["--db", str(tmp_path / "c.db")] if argv[0] not in ("sim", "replay") else [])])
    assert result.exit_code in (1, 2), result.output
    said = result.stderr
    assert "Traceback" not in said and "internal error" not in said, said
    assert not PARSER_WORDS.search(said), said


def test_one_card_exported_is_said_in_the_singular(tmp_path: Path) -> None:
    db = str(tmp_path / "c.db")
    assert run_cli(["collection", "add", "Crumb Goblin", "3"], db).exit_code == 0
    done = run_cli(["collection", "export", "-o", tmp_path / "c.csv"], db)
    assert done.exit_code == 0 and done.stdout.startswith("wrote 1 card to "), done.stdout


@pytest.mark.parametrize("separator", [",", ";", "\t", " , "])
def test_a_deck_line_written_as_a_spreadsheet_row_is_told_the_line_form(separator: str, tmp_path: Path) -> None:
    """``3,Crumb Goblin`` (a deck pasted from a spreadsheet) was "no mea card named '3,Crumb Goblin'"
    with a did-you-mean at best: the hint now gives the line as cardbase reads it."""
    deck = tmp_path / "sheet.txt"
    deck.write_text(f"game: mea\n3{separator}Crumb Goblin\n", encoding="utf-8")
    result = run_cli(["deck", "validate", deck], str(tmp_path / "c.db"))
    assert result.exit_code == 1, result.output
    assert "line 2:" in result.stdout and "write 3 Crumb Goblin" in result.stdout, result.stdout


NO_DECK = [  # every command that takes a database deck by name (or a deck file), given a name of none
    ["deck", "validate", "Nope"],
    ["deck", "stats", "Nope"],
    ["deck", "encode", "Nope"],
    ["deck", "convert", "Nope"],
    ["deck", "set", "Nope", "--name", "X"],
    ["deck", "add", "Nope", "Crumb Goblin"],
    ["deck", "remove", "Nope", "Crumb Goblin"],
    ["deck", "show", "Nope"],
    ["deck", "export", "Nope"],
    ["deck", "diff", "Nope", "Nope2"],
    ["deck", "delete", "Nope"],
    ["deck", "tag", "Nope", "Crumb Goblin", "x"],
    ["deck", "history", "Nope"],
    ["deck", "restore", "Nope@1"],
    ["draws", "Nope"],
]


@pytest.mark.parametrize("argv", NO_DECK, ids=[" ".join(a[:2]) for a in NO_DECK])
def test_a_deck_that_is_not_there_is_a_bad_argument_in_every_command(argv: list[str], tmp_path: Path) -> None:
    """``deck show Nope`` exited 2 (no such file, nor deck) and ``deck set Nope`` 1: one rule now, exit 2
    naming the argument, in every command that takes a deck."""
    db = str(tmp_path / "c.db")
    result = run_cli(argv, db)
    assert result.exit_code == 2 and "Nope" in result.output and "Traceback" not in result.output, result.output


A_DECK_FILE = str(REPO / "examples/decks/mea-goblin-rush.txt")
DATABASE_DECK_COMMANDS = [
    ["deck", "add", A_DECK_FILE, "Crumb Goblin"],
    ["deck", "remove", A_DECK_FILE, "Crumb Goblin"],
    ["deck", "tag", A_DECK_FILE, "Crumb Goblin", "combo piece"],
    ["deck", "set", A_DECK_FILE, "--format", "standard"],
    ["deck", "delete", A_DECK_FILE],
    ["deck", "history", A_DECK_FILE],
    ["deck", "restore", f"{A_DECK_FILE}@1"],
]


@pytest.mark.parametrize("argv", DATABASE_DECK_COMMANDS, ids=[a[1] for a in DATABASE_DECK_COMMANDS])
def test_a_deck_file_given_to_a_command_of_database_decks_is_told_to_import_it(argv: list[str], tmp_path: Path) -> None:
    """``deck tag examples/decks/mea-goblin-rush.txt "Crumb Goblin" combo`` (the README's tags, tried on
    the file `deck validate` took) said only "no deck named 'examples/…txt'; `cardbase deck list` shows
    the decks": the refusal now says it is a deck file and names the command that stores it."""
    result = run_cli(argv, str(tmp_path / "c.db"))
    line = assert_refused(result, 2, "is a file", f"cardbase deck import {A_DECK_FILE}")
    assert f"`deck {argv[1]}` works on a deck kept in the database" in line, line


def test_a_file_that_is_no_deck_given_as_a_database_deck_is_not_called_a_deck_file(tmp_path: Path) -> None:
    """``deck history cardbase.db`` (the database file itself) said "that is a deck file … store it with
    `cardbase deck import cardbase.db`", which refuses it as a binary file: any file was called a deck
    file. It is said to be a file, and how a deck file is stored."""
    database = tmp_path / "c.db"
    for path in (str(database), str(tmp_path / "notes.md")):
        (tmp_path / "notes.md").write_text("hello\n", encoding="utf-8")
        line = assert_refused(run_cli(["deck", "history", path], str(database)), 2, f"'{path}' is a file")
        assert "that is a deck file" not in line and "`deck history` works on a deck kept in the database" in line


OTHER_GAMES_CARD = [  # a card of Meikyu named where a Méa card is looked up, one command of each path
    (["deck", "add", "Mea Deck", "Gotcha!"], "'Gotcha!' is a meikyu card, not mea"),
    (["collection", "add", "Gotcha!", "1", "--game", "mea"], "'Gotcha!' is a meikyu card, not mea"),
    (["cards", "show", "grimor", "--game", "mea"], "'grimor' is a meikyu card, not mea"),
    (["collection", "import", "LIST", "--dry-run"], "line 2: 'Gotcha!' is a meikyu card, not mea"),
]


@pytest.mark.parametrize(("argv", "said"), OTHER_GAMES_CARD, ids=[" ".join(a[:2]) for a, _ in OTHER_GAMES_CARD])
def test_a_card_of_another_game_is_said_to_be_one(argv: list[str], said: str, tmp_path: Path) -> None:
    """``deck add MEADECK Gotcha!`` said "unknown card 'Gotcha!' in mea" (and a collection list "no card
    named 'Gotcha!'") though the card is Meikyu's: now each says whose it is, as a deck line does."""
    db = str(tmp_path / "c.db")
    listed = tmp_path / "list.txt"
    listed.write_text("game: mea\n1 Gotcha!\n", encoding="utf-8")
    assert run_cli(["deck", "new", "Mea Deck", "--game", "mea"], db).exit_code == 0
    result = run_cli([str(listed) if a == "LIST" else a for a in argv], db)
    assert_refused(result, 1, said)
    assert "unknown card" not in result.stderr and "no card named" not in result.stderr, result.stderr


@pytest.mark.parametrize("command", ["encode", "stats"])
def test_a_refused_deck_lists_its_problems_in_the_order_of_its_lines(command: str, tmp_path: Path) -> None:
    """``deck encode examples/decks/mea-broken.txt`` listed line 7 (a count the reader refuses) before
    lines 5 and 6 (names the catalog refuses): the problems now read down the file, as validate's."""
    result = run_cli(["deck", command, REPO / "examples/decks/mea-broken.txt"], str(tmp_path / "c.db"))
    assert_refused(result, 1, "3 problems")
    lines = [int(n) for n in re.findall(r"^\s+line (\d+):", result.stderr, re.M)]
    assert lines == [5, 6, 7], result.stderr


@pytest.mark.parametrize("argv", [["cards", "search", "-t:tile"], ["print", "query", "-t:monster"]])
def test_a_query_that_starts_with_a_minus_is_told_to_go_after_two_dashes(argv: list[str], tmp_path: Path) -> None:
    """``cards search -t:tile`` (a negation, as the query language writes it) was "No such option: -t"
    and no more: Click reads it as the short option -t. The refusal now says where such a query goes."""
    result = run_cli(argv, str(tmp_path / "c.db"))
    assert_refused(result, 2, "No such option: -t", f"cardbase {' '.join(argv[:2])} -- {argv[2]}")  # the word typed


@pytest.mark.parametrize(
    ("argv", "refusal"),
    [
        (["cards", "search", "-game:mea"], "unknown game 'ame:mea'"),
        (["print", "query", "-game:meio"], "unknown game 'ame:meio'"),
        (["cards", "search", "-cost>=3"], "No such option: -c"),  # named as typed, not as -t:tile
    ],
)
def test_a_negated_term_read_as_a_short_option_and_its_value_is_told_to_go_after_two_dashes(
    argv: list[str], refusal: str, tmp_path: Path
) -> None:
    """``cards search -game:mea`` is read by Click as ``-g ame:mea``: "unknown game 'ame:mea'" and no
    more. The refusal now says, as for ``-t:tile``, where a query that starts with '-' goes."""
    result = run_cli(argv, str(tmp_path / "c.db"))
    assert_refused(result, 2, refusal, f"goes after '--', e.g. cardbase {' '.join(argv[:2])} -- {argv[2]}")


def test_a_short_options_own_bad_value_gets_no_query_hint(tmp_path: Path) -> None:
    """``-gmeo`` is a mistyped game, not a query term: no hint about '--'."""
    result = run_cli(["cards", "search", "-gmeo"], str(tmp_path / "c.db"))
    assert_refused(result, 2, "unknown game 'meo'")
    assert "--'" not in result.stderr, result.stderr


def test_a_value_that_starts_with_a_minus_is_told_the_form_of_its_own_command(tmp_path: Path) -> None:
    """``collection set "Crumb Goblin" -1`` was told the form of another command (``cards search --
    -t:tile``): the hint now shows the command's own, its arguments after ``--``."""
    result = run_cli(["collection", "set", "Crumb Goblin", "-1"], str(tmp_path / "c.db"))
    assert_refused(result, 2, "No such option: -1", "cardbase collection set [OPTIONS] -- CARD COUNT")
    assert "cards search" not in result.stderr, result.stderr


@pytest.mark.parametrize(
    "argv",
    [
        ["draws", str(REPO / "examples/decks/meio-hand.txt"), "--need", "2 t:monster"],
        ["cards", "search", "t:monster", "--game", "meio"],
    ],
    ids=["draws", "search"],
)
def test_a_type_of_another_game_is_said_to_be_one(argv: list[str], tmp_path: Path) -> None:
    """``draws MEIO-HAND --need "2 t:monster"`` said "unknown card type 'monster'", though Méa has it:
    now the refusal says whose type it is, as a card of another game is said to be that game's."""
    result = run_cli(argv, str(tmp_path / "c.db"))
    assert_refused(result, 2, "'monster' is a mea card type, not meio's; meio types are playing card")
