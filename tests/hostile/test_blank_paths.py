"""A blank path (``''``, or only spaces) given to any path option or argument of any command is
refused as it is parsed, naming the parameter, exit 2, with nothing made on disk. Typer turns ``''``
into ``Path('.')`` before any callback sees it, so ``--records ''`` (a script's ``--records "$DIR"``
with DIR unset) used to write into the working folder, and ``-o ''`` to aim at it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.hostile.conftest import assert_refused, run_cli


def _path_parameters() -> list[tuple[tuple[str, ...], Any, Any]]:
    """(command path, command, parameter) for every parameter typed ``Path`` (or a list of them) of
    every command, ``serve`` included: the whole tree, walked as Click sees it."""
    import typer.main

    from cardbase.cli.app import app

    found: list[tuple[tuple[str, ...], Any, Any]] = []

    def walk(command: Any, path: tuple[str, ...]) -> None:
        for name, sub in (getattr(command, "commands", None) or {}).items():
            walk(sub, (*path, name))
        found.extend((path, command, p) for p in command.params if "Path" in p.bare_type())

    walk(typer.main.get_command(app), ())
    return found


PATH_PARAMETERS = _path_parameters()


def test_the_walk_finds_the_path_parameters() -> None:
    assert len(PATH_PARAMETERS) > 50
    assert any(p.param_type_name == "argument" for _, _, p in PATH_PARAMETERS)
    assert any(p.multiple for _, _, p in PATH_PARAMETERS)  # lab gauntlet --field, a list of paths


def _argv(path: tuple[str, ...], command: Any, param: Any, value: str) -> list[str]:
    """The command with ``param`` given ``value``: an option alone (Click checks the values given
    before it misses a required one), an argument after a filler for each argument before it."""
    if param.param_type_name == "option":
        return [*path, param.opts[0], value]
    arguments = [p for p in command.params if p.param_type_name == "argument"]
    return [*path, *["x"] * arguments.index(param), value]


@pytest.mark.parametrize("value", ["", "  "], ids=["empty", "spaces"])
@pytest.mark.parametrize(
    ("path", "command", "param"),
    PATH_PARAMETERS,
    ids=[f"{' '.join(path)} {p.opts[0] if p.opts[0].startswith('-') else p.name}" for path, _, p in PATH_PARAMETERS],
)
def test_a_blank_path_is_refused_naming_the_parameter(
    path: tuple[str, ...], command: Any, param: Any, value: str, in_tmp: Path
) -> None:
    work = in_tmp / "work"
    work.mkdir()
    os.chdir(work)
    result = run_cli(_argv(path, command, param, value))
    name = param.opts[0] if param.param_type_name == "option" else (param.metavar or param.name)
    line = assert_refused(result, 2, f"'{name}'", "blank")
    assert repr(value) in line
    assert os.listdir(work) == [], "a blank path made something on disk"


@pytest.mark.parametrize(
    "argv",
    [
        ["deck", "validate", "{blank}"],
        ["deck", "diff", "{blank}", "x"],
        ["deck", "import", "{blank}"],
        ["sim", "meikyu", "--games", "1", "--assume", "{blank}"],
    ],
    ids=["deck validate", "deck diff", "deck import", "sim meikyu --assume"],
)
@pytest.mark.parametrize("value", ["", "  "], ids=["empty", "spaces"])
def test_a_blank_file_or_name_is_refused_as_blank(argv: list[str], value: str, shared_db: str, in_tmp: Path) -> None:
    """A parameter that takes a file or a name (a deck, an assumption profile) is text, not a path,
    so Typer leaves it as given: a blank one is refused as blank where paths enter
    (``textfiles.path_problem``), not read as the working folder ('.: is a folder')."""
    line = assert_refused(run_cli([w.format(blank=value) for w in argv], shared_db), 2, "blank")
    assert "is a folder" not in line
