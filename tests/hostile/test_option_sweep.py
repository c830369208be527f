"""Every option and argument of every command, given hostile values (issue 24, classes 1 and 2):
huge numbers (past ``int()``'s 4,300 digits), NaN and infinities, negative zero, empty text, a
100,000-character word, a 300-character file name. Each run starts from a command line that works
(the table ``BASE``) and replaces one parameter's value; the answer is success or one
``cardbase: error:`` line (exit 1 or 2) of bounded length — never a traceback, never an internal
error (exit 70), never a hang (``pytest-timeout``).

Each parameter gets the values in turn, rotated so that every value meets every kind of parameter
across the sweep; ``CARDBASE_SWEEP=full`` gives each parameter every value (about eight times the
runs, for a hunt by hand)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO
from tests.hostile.conftest import assert_no_crash, error_lines, run_cli

DECKS = REPO / "examples" / "decks"
MEA, MEA_VS = str(DECKS / "mea-goblin-rush.txt"), str(DECKS / "mea-tile-control.txt")

# A command line that works, per command (the database is added where the command takes one).
BASE: dict[tuple[str, ...], list[str]] = {
    ("replay",): ["{record}"],
    ("draws",): [MEA, "--need", "1 t:monster"],
    ("catalog", "status"): [],
    ("catalog", "import"): ["{catalog}", "--game", "mea", "--dry-run"],
    ("catalog", "export"): ["--game", "meio", "-o", "{out}/c.csv"],
    ("catalog", "template"): ["--game", "meio", "-o", "{out}/t.csv"],
    ("cards", "search"): ["t:monster"],
    ("cards", "show"): ["Crumb Goblin"],
    ("deck", "validate"): [MEA],
    ("deck", "stats"): [MEA],
    ("deck", "encode"): [MEA],
    ("deck", "decode"): ["{code}"],
    ("deck", "convert"): [MEA, "--to", "json"],
    ("deck", "new"): ["Fresh", "--game", "mea"],
    ("deck", "set"): ["D", "--format", "standard"],
    ("deck", "add"): ["D", "Crumb Goblin"],
    ("deck", "remove"): ["D", "Crumb Goblin"],
    ("deck", "list"): [],
    ("deck", "show"): ["D"],
    ("deck", "export"): ["D"],
    ("deck", "diff"): [MEA, MEA_VS],
    ("deck", "import"): [MEA, "--name", "Imported"],
    ("deck", "delete"): ["D"],
    ("schema", "generate"): ["--folder", "{out}/schema"],
    ("sim", "meio"): ["--games", "2", "--players", "2"],
    ("sim", "mea"): ["--deck", MEA, "--vs", MEA_VS, "--games", "2"],
    ("sim", "meikyu"): ["--games", "2", "--players", "2", "--assume", "default"],
    ("lab", "gauntlet"): [MEA, "--field", MEA_VS, "--games", "2"],
    ("lab", "opening"): [MEA, "--vs", MEA_VS, "--games", "2"],
    ("lab", "split"): [str(DECKS / "meio-hand.txt"), "--players", "3", "--seconds", "1"],
    ("lab", "cards"): ["--players", "2", "--assume", "default", "--games", "2"],
    ("play", "meio"): ["--seed", "1", "--no-record"],
    ("play", "mea"): ["--deck", MEA, "--vs-deck", MEA_VS, "--seed", "1", "--no-record"],
    ("play", "meikyu"): ["--players", "2", "--assume", "default", "--seed", "1", "--no-record"],
    ("render", "card"): ["Crumb Goblin", "-o", "{out}/card.png", "--dpi", "30"],
    ("print", "deck"): ["{small_deck}", "-o", "{out}/deck.pdf"],
    ("print", "set"): ["meio", "-o", "{out}/set.pdf"],
    ("print", "query"): ["Crumb Goblin", "-o", "{out}/query.pdf"],
    ("print", "tiles"): ["-o", "{out}/tiles.pdf"],
    ("print", "registration"): ["-o", "{out}/registration.pdf"],
    ("export", "images"): ["{small_deck}", "-o", "{out}/images", "--dpi", "30"],
    ("odds", "meikyu", "quest"): ["--swords", "3", "--level", "7"],
    ("odds", "meikyu", "attack"): ["--swords", "3", "--defence", "2"],
    ("odds", "meikyu", "develop"): ["--wits", "3", "--level", "7"],
    ("cards", "tag"): ["Crumb Goblin", "removal"],
    ("catalog", "add"): ["--game", "mea", "name=Sweep Fox", "type=monster", "cost=2", "set=mine"],
    ("catalog", "edit"): ["Crumb Goblin", "cost=2"],
    ("catalog", "history"): ["Crumb Goblin"],
    ("collection", "add"): ["Crumb Goblin", "3"],
    ("collection", "remove"): ["Crumb Goblin", "1"],
    ("collection", "set"): ["Crumb Goblin", "2"],
    ("collection", "show"): [],
    ("collection", "import"): ["{collection}", "--game", "mea", "--dry-run"],
    ("collection", "export"): ["-o", "{out}/collection.csv"],
    ("deck", "history"): ["D"],
    ("deck", "restore"): ["D@1"],
    ("deck", "tag"): ["D", "Crumb Goblin", "combo piece"],
}
SKIPPED_OPTIONS = {"--db", "--help", "--dask"}  # --dask addresses: the Dask hardening's own tests (issue 24, class 5)

HOSTILE = [
    "9" * 5000,
    "x" * 100_000,
    "p" * 300 + ".txt",
    "nan",
    "-0",
    "",
    "1e400",
    "-18446744073709551617",
]


def _commands() -> dict[tuple[str, ...], Any]:
    import typer.main

    from cardbase.cli.app import app

    found: dict[tuple[str, ...], Any] = {}

    def walk(command: Any, path: tuple[str, ...]) -> None:
        for name, sub in (getattr(command, "commands", None) or {}).items():
            walk(sub, (*path, name))
        if not getattr(command, "commands", None):
            found[path] = command

    walk(typer.main.get_command(app), ())
    return found


COMMANDS = {path: command for path, command in _commands().items() if path != ("serve",)}


def test_every_command_has_a_base_line() -> None:
    """The table keeps up with the CLI: a new command is swept too."""
    assert set(COMMANDS) == set(BASE)


def _reaches(callback: Any, target: Any) -> bool:
    """Whether ``callback`` wraps ``target`` (Typer's wrapper), or what it wraps calls it first (``art_folder``)."""
    for _ in range(5):
        callback = getattr(callback, "__wrapped__", None) or getattr(callback, "checks_path", None)
        if callback is target:
            return True
    return False


def test_every_path_parameter_is_checked_where_it_enters() -> None:
    """One mechanism for paths: every parameter typed ``Path`` (or a list of them) has the callback
    ``checked_path``, so a NUL or a name the system cannot hold is refused before any command runs."""
    from cardbase.cli.common import checked_path

    paths = [(path, p) for path, command in COMMANDS.items() for p in command.params if "Path" in p.bare_type()]
    assert len(paths) > 30
    unchecked = [f"{' '.join(path)} {p.name}" for path, p in paths if not _reaches(p.callback, checked_path)]
    assert not unchecked, f"path parameters without checked_path: {unchecked}"


def _runs(path: tuple[str, ...], full: bool) -> Iterator[tuple[str, str]]:
    """(parameter, value) pairs for ``path``: each parameter with one value in turn, or every value."""
    params = [p for p in COMMANDS[path].params if not getattr(p, "is_flag", False)]
    params = [p for p in params if not set(p.opts) & SKIPPED_OPTIONS]
    offset = sum(map(ord, " ".join(path)))
    for i, param in enumerate(params):
        values = HOSTILE if full else [HOSTILE[(offset + i) % len(HOSTILE)]]
        for value in values:
            yield param.opts[0] if param.param_type_name == "option" else param.name, value


def _argv(path: tuple[str, ...], name: str, value: str, fill: dict[str, str]) -> list[str]:
    base = [word.format(**fill) for word in BASE[path]]
    params = {p.name: p for p in COMMANDS[path].params}
    arguments = [p.name for p in COMMANDS[path].params if p.param_type_name == "argument"]
    if name in params and params[name].param_type_name == "argument":
        valued = {o for p in COMMANDS[path].params if p.param_type_name == "option" and not p.is_flag for o in p.opts}
        words = [w for i, w in enumerate(base) if not (i and base[i - 1] in valued)]  # not an option's value
        positional = [w for w in words if not w.startswith("-")][: len(arguments)]
        base[base.index(positional[arguments.index(name)])] = value
        return [*path, *base]
    option = next(p for p in COMMANDS[path].params if name in p.opts)
    if set(option.opts) & set(base):  # the base line sets it: replace its value
        at = next(i for i, w in enumerate(base) if w in option.opts)
        base[at + 1] = value
        return [*path, *base]
    return [*path, *base, name, value]


@pytest.mark.timeout(1800)
@pytest.mark.parametrize("path", sorted(BASE), ids=" ".join)
def test_every_parameter_takes_hostile_values(
    path: tuple[str, ...], sweep_files: dict[str, str], hostile_db: str, in_tmp: Path
) -> None:
    if not (ran := run_cli(["deck", "new", "D", "--game", "mea"], hostile_db)).exit_code == 0:
        raise AssertionError(ran.stderr)
    run_cli(["deck", "add", "D", "Crumb Goblin"], hostile_db)
    code = run_cli(["deck", "encode", MEA], hostile_db).stdout.strip()
    fill = {**sweep_files, "out": str(in_tmp / "out"), "code": code}
    takes_db = any(p.name == "db" for p in COMMANDS[path].params)
    base = run_cli([*path, *(w.format(**fill) for w in BASE[path])], hostile_db if takes_db else None, "quit\n")
    assert base.exit_code == 0, f"the base line fails: {' '.join(path)}: {base.stderr[-500:]}"
    for name, value in _runs(path, os.environ.get("CARDBASE_SWEEP") == "full"):
        argv = _argv(path, name, value, fill)
        run = run_cli(argv, hostile_db if takes_db else None, input="quit\n")
        shown = " ".join(a if len(a) < 40 else f"{a[:20]}…({len(a)})" for a in argv)
        try:
            assert_no_crash(run)
            assert all(len(line) < 2_000 for line in error_lines(run)), "an error line quotes the whole value"
        except AssertionError as error:
            raise AssertionError(f"cardbase {shown}: {error}"[:3000]) from None


NOT_WHOLE = ["1_0", "1.0", " 1", "1 ", "+1", "٣", "１", "0x1", "1e1", "1-"]
"""Not a whole number in ASCII digits: Python's ``int()`` and Pydantic's lax integers read ``1_0`` as
10, ``1.0``, `` 1`` and ``+1`` as 1 (``--rule`` and the web's forms already refuse them)."""


def _whole_number_runs() -> list[tuple[tuple[str, ...], str]]:
    return [
        (path, param.opts[0] if param.param_type_name == "option" else param.name)
        for path, command in sorted(COMMANDS.items())
        for param in command.params
        if param.type_descriptor.annotation is int
    ]


def test_every_whole_number_parameter_is_swept() -> None:
    assert len(_whole_number_runs()) > 60  # the walk still finds them (Typer's type descriptor)


@pytest.mark.parametrize("path", sorted({path for path, _ in _whole_number_runs()}), ids=" ".join)
def test_whole_numbers_are_ascii_digits(
    path: tuple[str, ...], sweep_files: dict[str, str], hostile_db: str, in_tmp: Path
) -> None:
    """Every parameter typed ``int``, of every command: a value that is not ``-`` and ASCII digits is
    refused as it is parsed (exit 2, the parameter named, the value quoted), before any work."""
    from tests.hostile.conftest import assert_refused, db_dump

    run_cli(["deck", "new", "D", "--game", "mea"], hostile_db)
    fill = {**sweep_files, "out": str(in_tmp / "out"), "code": "x"}
    takes_db = any(p.name == "db" for p in COMMANDS[path].params)
    before = db_dump(hostile_db)
    for name in (name for where, name in _whole_number_runs() if where == path):
        label = name if name.startswith("-") else name.upper()
        for value in NOT_WHOLE:
            run = run_cli(_argv(path, name, value, fill), hostile_db if takes_db else None, input="quit\n")
            try:
                assert_refused(run, 2, label, f"{value!r} is not a whole number")
            except AssertionError as error:
                raise AssertionError(f"cardbase {' '.join(path)} {name} {value!r}: {error}"[:2000]) from None
    assert db_dump(hostile_db) == before
    assert not (in_tmp / "out").exists()


def _word_runs() -> list[tuple[tuple[str, ...], Any, tuple[str, ...]]]:
    """(command, parameter, its words) for every parameter completed from a fixed list of words
    (``complete.choices``): the words it takes."""
    return [
        (path, param, words)
        for path, command in sorted(COMMANDS.items())
        for param in command.params
        if (words := getattr(getattr(param, "_custom_shell_complete", None), "values", None))
    ]


def test_every_fixed_word_parameter_is_swept() -> None:
    assert len(_word_runs()) >= 10


@pytest.mark.parametrize("path", sorted({path for path, _, _ in _word_runs()}), ids=" ".join)
def test_fixed_words_read_in_any_case_and_others_are_refused_naming_the_option(
    path: tuple[str, ...], sweep_files: dict[str, str], hostile_db: str, in_tmp: Path
) -> None:
    """Every option that takes one of a fixed list of words (its completion's): the word in any case
    and with spaces around is that word, as it is parsed; any other is refused as it is parsed (exit
    2, the option and the words named), before any work. Each command had its own check (catalog
    export refused --format CSV, catalog import read it; --to JSON refused; --direction ' asc'
    refused, ASC read), in messages that did not name the option."""
    from tests.hostile.conftest import assert_refused, db_dump

    fill = {**sweep_files, "out": str(in_tmp / "out"), "code": "x"}
    takes_db = any(p.name == "db" for p in COMMANDS[path].params)
    before = db_dump(hostile_db)
    for _, param, words in (run for run in _word_runs() if run[0] == path):
        for word in words:
            for typed in (word.upper(), f" {word.title()} "):
                argv = _argv(path, param.opts[0], typed, fill)[len(path) :]
                with COMMANDS[path].make_context(path[-1], [*argv, *(["--db", hostile_db] if takes_db else [])]) as ctx:
                    assert ctx.params[param.name] == word, (path, param.opts[0], typed)
        for typed in (f"{words[0]}x", "", "\u0130"):
            run = run_cli(_argv(path, param.opts[0], typed, fill), hostile_db if takes_db else None)
            try:
                assert_refused(run, 2, param.opts[0], f"{typed!r} is not one of", ", ".join(words))
            except AssertionError as error:
                raise AssertionError(f"cardbase {' '.join(path)} {param.opts[0]} {typed!r}: {error}"[:2000]) from None
    assert db_dump(hostile_db) == before
    assert not (in_tmp / "out").exists()


@pytest.mark.parametrize("path", sorted(BASE), ids=" ".join)
def test_an_option_of_one_value_given_twice_is_refused(
    path: tuple[str, ...], sweep_files: dict[str, str], hostile_db: str, in_tmp: Path
) -> None:
    """Every option of every command that takes one value (not a list, not a flag), given twice
    (``--games 2 --games 3``, or by its long and short names): refused as it is parsed, naming the
    option (exit 2), before any work. Click kept the last and dropped the first without a word."""
    from tests.hostile.conftest import assert_refused, db_dump

    fill = {**sweep_files, "out": str(in_tmp / "out"), "code": "x"}
    takes_db = any(p.name == "db" for p in COMMANDS[path].params)
    before = db_dump(hostile_db)
    single = [
        p
        for p in COMMANDS[path].params
        if p.param_type_name == "option" and not (p.is_flag or p.multiple or p.count) and p.opts[0] != "--db"
    ]
    for param in single:
        argv = _argv(path, param.opts[0], "1", fill)
        at = next(i for i, word in enumerate(argv) if word in param.opts)
        twice = [*argv[: at + 2], param.opts[-1], argv[at + 1], *argv[at + 2 :]]
        run = run_cli(twice, hostile_db if takes_db else None)
        try:
            assert_refused(run, 2, param.opts[0], "given more than once")
        except AssertionError as error:
            raise AssertionError(f"cardbase {' '.join(twice)}: {error}"[:2000]) from None
    assert db_dump(hostile_db) == before
    assert not (in_tmp / "out").exists()
