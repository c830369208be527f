"""Every value given to any option or argument of any command and refused — while parsing or later,
when the command looks it up — is refused in one line naming that parameter (``Invalid value for
'--agents': unknown Méa agent 'bogus' …``), exit 2 (or 1: a card or a deck that is not there),
without a traceback. The refusals had named the value only: ``sim mea --agents bogus`` and ``play
mea --vs bogus`` both said ``unknown Méa agent 'bogus'``; ``deck diff a b`` said which file, not
which argument; a search query's syntax error named neither.

The table is generated over the whole command tree (``test_option_sweep``'s working lines, one
parameter replaced): each parameter that takes text (not a path, a number, a flag, or a fixed word,
which have their own tests) is given a value of its kind that no command takes. The few that take
any text are listed, and must then succeed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.hostile.conftest import assert_no_crash, error_lines, run_cli
from tests.hostile.test_option_sweep import COMMANDS, MEA, _argv

SKIPPED = {"--db", "--help", "--dask"}  # --db and --dask: their own tests (a database, a cluster)

BAD: dict[str, str] = {
    "queries": "((",  # a query that does not parse
    "needs": "2 ((",
    "rules": "nosuchrule=1",
    "mana": "3,x",
}
"""A bad value by the parameter's kind (its completion); any other parameter gets ``BOGUS``."""
BOGUS = "bogus§"
"""Not a game, agent, layout, profile, sort key, card, deck, format, set, size, tag or word of any
list (``§`` is in no tag and no name here)."""

NO_MATCH: dict[tuple[str, ...], str] = {
    ("draws", "--need"): "2 t:nosuchtype",
    ("draws", "--at-most"): "1 t:nosuchtype",
    ("draws", "--exactly"): "1 t:nosuchtype",
    ("print", "query", "query"): "t:nosuchtype",
}
"""Values of the right form that the command refuses as it runs (nothing matches)."""

ANY_TEXT = {
    ("print", "deck", "--author"),
    ("print", "set", "--author"),
    ("print", "query", "--author"),
    ("print", "tiles", "--author"),
    ("deck", "import", "--name"),
    ("deck", "set", "--name"),
    ("deck", "new", "name"),
}
"""Parameters that take any text (a name of the user's choosing, a PDF's author)."""


def _label(param: Any) -> str:
    return param.opts[0] if param.param_type_name == "option" else param.name


def _text_parameters() -> list[tuple[tuple[str, ...], Any]]:
    out = []
    for path, command in sorted(COMMANDS.items()):
        for param in command.params:
            annotation = getattr(param.type_descriptor, "annotation", None)
            completer = getattr(param, "_custom_shell_complete", None)
            if getattr(param, "is_flag", False) or set(param.opts) & SKIPPED or "Path" in param.bare_type():
                continue
            if annotation in (int, float) or getattr(completer, "values", None):
                continue
            out.append((path, param))
    return out


TEXT_PARAMETERS = _text_parameters()
CASES = [
    (path, _label(param), value)
    for path, param in TEXT_PARAMETERS
    for value in (
        BAD.get(getattr(getattr(param, "_custom_shell_complete", None), "__name__", ""), BOGUS),
        *([NO_MATCH[(*path, _label(param))]] if (*path, _label(param)) in NO_MATCH else []),
    )
]


def test_the_walk_finds_the_parameters_that_take_text() -> None:
    names = {(*path, _label(p)) for path, p in TEXT_PARAMETERS}
    assert len(names) > 120
    for where in [("sim", "mea", "--agents"), ("play", "mea", "--vs"), ("cards", "search", "query")]:
        assert where in names
    assert names >= ANY_TEXT | set(NO_MATCH)


def test_every_parameter_checked_by_its_kind_is_checked_as_it_is_parsed() -> None:
    """One mechanism: a parameter completed as a kind of value (agents, games, rules, …) has its
    kind's check run by ``strict_parameters`` (the completer carries it), whatever command it is on."""
    kinds = {"agents", "games", "rules", "profiles", "sort_keys", "queries", "needs", "mana", "tags", "complete"}
    checked = [
        (path, _label(p))
        for path, p in TEXT_PARAMETERS
        if getattr(getattr(p, "_custom_shell_complete", None), "__name__", "") in kinds
    ]
    assert len(checked) > 50
    unchecked = [
        where
        for where in checked
        if getattr(getattr(_param(*where), "_custom_shell_complete", None), "check", None) is None
    ]
    assert not unchecked


def _param(path: tuple[str, ...], label: str) -> Any:
    return next(p for p in COMMANDS[path].params if _label(p) == label)


@pytest.mark.timeout(600)
@pytest.mark.parametrize(("path", "label", "value"), CASES, ids=[f"{' '.join(c[0])} {c[1]}={c[2]}" for c in CASES])
def test_a_value_refused_names_its_parameter(
    path: tuple[str, ...], label: str, value: str, sweep_files: dict[str, str], hostile_db: str, in_tmp: Path
) -> None:
    run_cli(["deck", "new", "D", "--game", "mea"], hostile_db)
    run_cli(["deck", "add", "D", "Crumb Goblin"], hostile_db)
    code = run_cli(["deck", "encode", MEA], hostile_db).stdout.strip()
    fill = {**sweep_files, "out": str(in_tmp / "out"), "code": code}
    takes_db = any(p.name == "db" for p in COMMANDS[path].params)
    run = run_cli(_argv(path, label, value, fill), hostile_db if takes_db else None, input="quit\n")
    assert_no_crash(run)
    if (*path, label) in ANY_TEXT:
        assert run.exit_code in (0, 1) and not error_lines(run), run.stderr
        return
    lines = error_lines(run)
    assert len(lines) == 1, f"want one error line: {run.stdout[-300:]}{run.stderr[-600:]}"
    assert run.exit_code in (1, 2)
    named = label if label.startswith("-") else f"'{label}'"  # an argument as Click names it
    assert named in lines[0], f"{lines[0]} does not name {named}"


TAKES_NEW = {"--output", "--plot", "--records", "--record", "--folder", "--images"}
"""Options a command writes to: a new path there is made (a folder with it), not refused; and
``--images``, whose folder may be missing (no art: each card a placeholder)."""
MISSING = "missing§/x.txt"


def _path_parameters() -> list[tuple[tuple[str, ...], str]]:
    return [
        (path, _label(param))
        for path, command in sorted(COMMANDS.items())
        for param in command.params
        if "Path" in param.bare_type()
    ]


PATH_PARAMETERS = _path_parameters()


def test_the_walk_finds_the_path_parameters() -> None:
    assert len(PATH_PARAMETERS) > 50
    assert (("sim", "mea"), "--vs") in PATH_PARAMETERS and (("lab", "gauntlet"), "--field") in PATH_PARAMETERS


@pytest.mark.timeout(600)
@pytest.mark.parametrize(
    ("path", "label"), PATH_PARAMETERS, ids=[f"{' '.join(p)} {label}" for p, label in PATH_PARAMETERS]
)
def test_a_path_refused_names_its_parameter_or_the_file(
    path: tuple[str, ...], label: str, sweep_files: dict[str, str], hostile_db: str, in_tmp: Path
) -> None:
    """A file that is not there (or a deck by a name the database does not have): the refusal names
    the option or argument (a deck, which may be a file or a database deck's name: ``Invalid value
    for '--vs'``), or at least the file, as the README's standard asks; an output is made."""
    run_cli(["deck", "new", "D", "--game", "mea"], hostile_db)
    fill = {**sweep_files, "out": str(in_tmp / "out"), "code": "x"}
    takes_db = any(p.name == "db" for p in COMMANDS[path].params)
    run = run_cli(_argv(path, label, MISSING, fill), hostile_db if takes_db else None, input="quit\n")
    assert_no_crash(run)
    if run.exit_code == 0:
        assert label in TAKES_NEW, f"{label} {MISSING!r} was taken"
        return
    lines = error_lines(run)
    assert len(lines) == 1, run.stderr[-600:]
    named = label if label.startswith("-") else f"'{label}'"
    assert named in lines[0] or MISSING in lines[0], lines[0]
    if "nor a deck" in lines[0]:  # a deck: the parameter, since two may be given (--deck and --vs)
        assert named in lines[0], lines[0]


def test_a_text_given_to_two_parameters_is_not_pinned_on_either(hostile_db: str) -> None:
    """``deck add Goblin Goblin`` (a deck named as a card): an unknown card's name is the deck's
    too, so the refusal names neither parameter rather than perhaps the wrong one."""
    assert run_cli(["deck", "new", "Grumb Goblin", "--game", "mea"], hostile_db).exit_code == 0
    run = run_cli(["deck", "add", "Grumb Goblin", "Grumb Goblin"], hostile_db)
    lines = error_lines(run)
    assert run.exit_code == 1 and len(lines) == 1 and "unknown card 'Grumb Goblin'" in lines[0], run.stderr
    assert "Invalid value" not in lines[0]


def test_every_agent_and_rules_parameter_knows_its_game() -> None:
    """An agent or a rules option is checked as its command's game takes it: the game is the
    command's name (``sim mea``) or ``complete.COMMAND_GAMES`` says it (``lab split`` is Meio's)."""
    from cardbase.cli.complete import game_of

    kinds = ("agents", "rules", "rule_option.<locals>.complete")
    found = []
    for path, param in TEXT_PARAMETERS:
        if getattr(getattr(param, "_custom_shell_complete", None), "__qualname__", "") in kinds:
            command = COMMANDS[path]
            parent = command.context_class(command, info_name=path[-2]) if len(path) > 1 else None
            ctx = command.context_class(command, info_name=path[-1], parent=parent)
            found.append((path, game_of(ctx)))
    assert len(found) > 20
    assert all(game is not None for _, game in found), [path for path, game in found if game is None]
