"""Every rules option of every game, every value it takes, through every surface that takes options:
``--rule NAME=VALUE`` of ``sim``, ``play`` and ``lab`` (named in their ``--help``), a bad value refused
naming the option and what it takes, the game record naming the option, ``replay`` of that record
playing it again with it (and refusing a record whose option is unknown or whose value is bad), and
the OpenSpiel game's parameters. The web table's start form has its own file
(``tests/web/test_option_form.py``).

Generated from the engines' declarations (each rules class's fields, ``option_choices`` and
``option_words``, read through the simulator's registry), never from a hand list: a new option is
checked everywhere the day it is declared."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardbase.games.base import InvalidRules
from cardbase.sim.registry import GAMES, MAX_RULE_TEXT
from tests.hostile.conftest import assert_refused, run_cli

REPO = Path(__file__).resolve().parents[1]
DECKS = REPO / "examples" / "decks"
MEA, MEA_VS = str(DECKS / "mea-goblin-rush.txt"), str(DECKS / "mea-tile-control.txt")

# A short game of each, played by random agents (the options are what is checked, not the play).
SIM = {
    "meio": ["sim", "meio", "--players", "2", "--agents", "random,random", "--games", "1", "--seed", "3"],
    "mea": ["sim", "mea", "--deck", MEA, "--vs", MEA_VS, "--agents", "random,random", "--games", "1", "--seed", "3"],
    "meikyu": [
        *("sim", "meikyu", "--players", "2", "--agents", "random,random", "--games", "1", "--seed", "3"),
        *("--assume", "default"),
    ],
}
PLAY = {
    "meio": ["play", "meio", "--players", "2", "--vs", "random", "--seed", "3"],
    "mea": ["play", "mea", "--deck", MEA, "--vs-deck", MEA_VS, "--vs", "random", "--seed", "3"],
    "meikyu": ["play", "meikyu", "--players", "2", "--vs", "random", "--assume", "default", "--seed", "3"],
}
RULE_COMMANDS = [
    ("sim", "meio"),
    ("sim", "mea"),
    ("sim", "meikyu"),
    ("play", "meio"),
    ("play", "mea"),
    ("play", "meikyu"),
    ("lab", "gauntlet"),
    ("lab", "opening"),
    ("lab", "split"),
    ("lab", "cards"),
]
"""Every command that plays a game by its rules, each taking ``--rule`` (checked against the CLI
itself below)."""


def _db(game_id: str, db_url: str) -> str | None:
    """The database for a game's commands (Meio's take none: a deck of playing cards)."""
    return None if game_id == "meio" else db_url


def _pool() -> Any:
    from cardbase.catalog.meikyu_profiles import shipped_cards
    from cardbase.sim.meikyu import resolve

    return resolve(shipped_cards(), "default")


def _valid(game_id: str, options: dict[str, Any]) -> bool:
    """Whether the rules take ``options`` (each game's other options at their defaults). Méa's decks
    and Meikyu's card pool are not what is checked: a refusal of the decks alone counts as taken."""
    cls = GAMES[game_id].rules_class()
    extra: dict[str, Any] = {
        "meio": {"players": 2},
        "mea": {"decks": [{"name": "", "cards": []}] * 2},
        "meikyu": {"players": 2, "pool": _pool()},
    }[game_id]
    try:
        cls.from_options({**extra, **options})
    except InvalidRules as error:
        return str(error).startswith("cannot play these decks")
    return True


def values_of(game_id: str, name: str) -> list[Any]:
    """The values of option ``name`` to play: each of its words (a choice's, or the names a text option
    takes besides a text: Méa's layouts), yes and no, or a whole number's default and one other the
    rules take (the next, the one before, or 9 as a tile cap or a board's side)."""
    kind, default = GAMES[game_id].rule_defaults()[name]
    words = GAMES[game_id].rules_class().option_words(name)
    if words:
        return list(dict.fromkeys([default, *words]))
    if kind is bool:
        return [default, not default]
    if kind is int:
        other = next(v for v in (default + 1, default - 1, 9) if v >= 0 and _valid(game_id, {name: v}))
        return [default, other]
    return [default]


OPTIONS = [(g, name) for g, entry in GAMES.items() for name in entry.rule_defaults()]
RUNS = [(g, name, value) for g, name in OPTIONS for value in values_of(g, name)]


def cli_text(value: Any) -> str:
    """A value as ``--rule`` takes it."""
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)


def bad_values(game_id: str, name: str) -> list[tuple[str, tuple[str, ...]]]:
    """Texts option ``name`` refuses, each with what its refusal must name beside the option."""
    kind, _ = GAMES[game_id].rule_defaults()[name]
    cls = GAMES[game_id].rules_class()
    if name in cls.option_choices:
        return [("bogus", tuple(cls.option_choices[name]))]
    if kind is bool:
        return [("maybe", ("yes or no",))]
    if kind is int:
        return [("x", ("whole number",)), ("-1", ()), ("1000000", ())]
    return [("?" * 5, ())]


def test_the_table_covers_every_game_and_every_option() -> None:
    """The table is not empty and finds the readings docs/rules name (so it reads the declarations)."""
    names = {(g, n) for g, n in OPTIONS}
    for want in [
        ("meio", "ace_high"),
        ("meio", "second_half_leader"),
        ("meio", "first_player"),
        ("meio", "hearts_anytime"),
        ("mea", "summoned_alone"),
        ("mea", "cannot_act"),
        ("meikyu", "mixed_area"),
        ("meikyu", "goal_check"),
        ("meikyu", "farm"),
        ("meikyu", "refugee"),
    ]:
        assert want in names
    assert len(OPTIONS) > 45 and all(len(values_of(g, n)) >= 2 for g, n in OPTIONS if n != "layout")
    assert len(values_of("mea", "layout")) >= 2


def _help(path: tuple[str, ...]) -> str:
    run = run_cli([*path, "--help"])
    assert run.exit_code == 0, run.output
    return re.sub(r"[\s│╭╮╰╯─]", "", run.output)  # as wrapped in a box or not


def test_the_commands_taking_rule_are_the_table_s() -> None:
    import typer.main

    from cardbase.cli.app import app

    every, taking = [], []
    root = typer.main.get_command(app)
    for group in ("sim", "play", "lab"):
        commands = root.commands[group].commands  # type: ignore[attr-defined]
        for name in commands:
            every.append((group, name))
            if any(p.name == "rule" for p in commands[name].params):
                taking.append((group, name))
    assert sorted(taking) == sorted(every) == sorted(RULE_COMMANDS)


@pytest.mark.parametrize("path", RULE_COMMANDS, ids=" ".join)
def test_help_names_every_option_and_its_words(path: tuple[str, ...]) -> None:
    """``--help`` of each command that takes ``--rule`` names every option of its game (by the
    name ``--rule`` takes) and the words a word option takes."""
    from cardbase.cli.complete import COMMAND_GAMES

    game_id = COMMAND_GAMES.get(" ".join(path), path[-1])
    shown = _help(path)
    missing = []
    for name in GAMES[game_id].rule_defaults():
        words = GAMES[game_id].rules_class().option_choices.get(name, ())
        if not re.search(rf"\b{name}:", shown) or not all(w in shown for w in words):
            missing.append(name)
    assert not missing, f"cardbase {' '.join(path)} --help does not name {missing}"


@pytest.mark.parametrize("path", [p for p in RULE_COMMANDS if p[0] != "lab"], ids=" ".join)
def test_rule_completes_every_option_then_its_words(path: tuple[str, ...]) -> None:
    """Shell completion of ``--rule``: every option's name, then after ``NAME=`` the words it takes
    (yes/no, a choice's words, a text option's names such as Méa's layouts; none for a number)."""
    from tests.test_completion import complete

    entry = GAMES[path[-1]]
    assert complete(*path, "--rule", "") == [f"{name}=" for name in entry.rule_defaults()]
    for name, (kind, _) in entry.rule_defaults().items():
        words = ["yes", "no"] if kind is bool else list(entry.rules_class().option_words(name))
        assert complete(*path, "--rule", f"{name}=") == [f"{name}={w}" for w in words], name


def _records(folder: Path) -> Path:
    (found,) = folder.glob("*.jsonl")
    return found


def _header(path: Path) -> dict[str, Any]:
    header: dict[str, Any] = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    return header


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.chdir(tmp_path)
    yield tmp_path


@pytest.mark.parametrize(("game_id", "name"), OPTIONS, ids=[f"{g}-{n}" for g, n in OPTIONS])
def test_every_value_plays_is_recorded_and_replays(game_id: str, name: str, db_url: str, in_tmp: Path) -> None:
    """Each value through ``sim`` and ``play``: the game is played with it, its record names it, and
    ``replay`` of that record plays it again with it, reaching the recorded outcome. The record with
    that option unknown, or its value bad, is refused naming the option (exit 2)."""
    for value in values_of(game_id, name):
        folder = in_tmp / f"{name}-{cli_text(value)}"
        run = run_cli(
            [*SIM[game_id], "--records", str(folder), "--rule", f"{name}={cli_text(value)}"], _db(game_id, db_url)
        )
        assert run.exit_code == 0, f"sim {game_id} --rule {name}={value}: {run.output[-1500:]}"
        record = _records(folder)
        assert _header(record)["rules"][name] == value, f"the record of sim does not name {name}={value}"
        replayed = run_cli(["replay", str(record), "--json"])
        assert replayed.exit_code == 0, replayed.output[-1500:]
        (result,) = json.loads(replayed.stdout)
        assert result["rules"][name] == value and result["finished"], result
        lines = record.read_text(encoding="utf-8").splitlines()
        assert json.loads(lines[-1])["outcome"] == result["outcome"]

        played = in_tmp / f"play-{name}-{cli_text(value)}.jsonl"
        run = run_cli(
            [*PLAY[game_id], "--record", str(played), "--rule", f"{name}={cli_text(value)}"],
            _db(game_id, db_url),
            "quit\n",
        )
        assert run.exit_code == 0, f"play {game_id} --rule {name}={value}: {run.output[-1500:]}"
        assert _header(played)["rules"][name] == value, f"the record of play does not name {name}={value}"
        assert run_cli(["replay", str(played)]).exit_code == 0

    header = _header(record)
    body = record.read_text(encoding="utf-8").split("\n", 1)[1]
    for bad, why in [
        ({**header["rules"], f"{name}_x": header["rules"][name]}, f"{name}_x"),
        ({**header["rules"], name: "bogus" if not isinstance(header["rules"][name], str) else 12}, name),
    ]:
        forged = in_tmp / "forged.jsonl"
        forged.write_text(json.dumps({**header, "rules": bad}) + "\n" + body, encoding="utf-8")
        assert_refused(run_cli(["replay", str(forged)]), 2, why)


@pytest.mark.parametrize(("game_id", "name"), OPTIONS, ids=[f"{g}-{n}" for g, n in OPTIONS])
def test_a_bad_value_is_refused_naming_the_option_and_what_it_takes(
    game_id: str, name: str, db_url: str, in_tmp: Path
) -> None:
    """``--rule NAME=BAD`` to ``sim`` and ``play``: one error line naming the option and, for a word
    option, every word it takes (exit 2), before any game; the same for the web form's and spiel's
    checks, which read the same declaration (their own tests)."""
    for text, named in bad_values(game_id, name):
        for base in (SIM[game_id], PLAY[game_id]):
            quiet = ["--records", "x"] if base[0] == "sim" else ["--no-record"]
            run = run_cli([*base, *quiet, "--rule", f"{name}={text}"], _db(game_id, db_url), "quit\n")
            try:
                assert_refused(run, 2, name, *named)
            except AssertionError as error:
                raise AssertionError(f"{' '.join(base[:2])} --rule {name}={text}: {error}") from None
        assert not (in_tmp / "x").exists()


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_word_in_another_case_is_that_word_as_its_own_flag_takes_it(game_id: str, db_url: str, in_tmp: Path) -> None:
    """``--rule farm=LANDS`` is ``farm=lands``, as ``--farm LANDS`` is: every word option, the word
    written in capitals reaches the record as the option's word."""
    folder = in_tmp / "records"
    rules = [(n, v) for g, n, v in RUNS if g == game_id and n in CHOICES[g] and v != GAMES[g].rule_defaults()[n][1]]
    args = [word for n, v in rules for word in ("--rule", f"{n}={str(v).upper()}")]
    run = run_cli([*SIM[game_id], "--records", str(folder), *args], _db(game_id, db_url))
    assert run.exit_code == 0, run.output[-1500:]
    recorded = _header(_records(folder))["rules"]
    assert {n: recorded[n] for n, _ in rules} == dict(rules)


def test_an_unknown_option_is_refused_naming_the_known_ones(db_url: str) -> None:
    for game_id, base in SIM.items():
        run = run_cli([*base, "--rule", "no_such_option=1"], _db(game_id, db_url))
        assert_refused(run, 2, "no_such_option", *GAMES[game_id].rule_defaults())
    assert MAX_RULE_TEXT >= 200


CHOICES = {g: GAMES[g].rules_class().option_choices for g in GAMES}
LAB = {
    ("lab", "gauntlet"): [MEA, "--field", MEA_VS, "--games", "2", "--agents", "random,random"],
    ("lab", "opening"): [MEA, "--vs", MEA_VS, "--games", "2", "--agents", "heuristic,random"],
    ("lab", "split"): [str(DECKS / "meio-hand.txt"), "--players", "3", "--levels", "1", "--seconds", "60"],
    ("lab", "cards"): ["--players", "2", "--assume", "default", "--games", "2", "--agents", "random,random"],
}


@pytest.mark.parametrize("path", sorted(LAB), ids=" ".join)
def test_the_lab_judges_under_the_options_given_and_says_so(path: tuple[str, ...], db_url: str) -> None:
    """Each lab command takes ``--rule`` for its game and its JSON names the options it judged under;
    a bad value is refused naming the option."""
    from cardbase.cli.complete import COMMAND_GAMES

    game_id = COMMAND_GAMES[" ".join(path)]
    name, value = next(
        (n, v) for g, n, v in RUNS if g == game_id and n in CHOICES[g] and v != GAMES[g].rule_defaults()[n][1]
    )
    db = _db(game_id, db_url)
    run = run_cli([*path, *LAB[path], "--jobs", "1", "--json", "--rule", f"{name}={value}"], db)
    assert run.exit_code == 0, run.output[-1500:]
    assert json.loads(run.stdout)["rules"][name] == value
    assert_refused(run_cli([*path, *LAB[path], "--rule", f"{name}=bogus"], db), 2, name)


CONTRADICTIONS = [
    (SIM["meio"], ["--ace-low"], "ace_high", "yes"),
    (SIM["meio"], ["--hearts-broken"], "hearts_anytime", "yes"),
    (SIM["meio"], ["--rounds", "2"], "rounds", "3"),
    (PLAY["meio"], ["--ace-low", "--no-record"], "ace_high", "yes"),
    (SIM["mea"], ["--diagonal"], "adjacency", "orthogonal"),
    (SIM["mea"], ["--layout", "sides"], "layout", "checkerboard"),
    (SIM["mea"], ["--max-turns", "50"], "max_turns", "60"),
    (SIM["meikyu"], ["--farm", "lands"], "farm", "points"),
    (PLAY["meikyu"], ["--map-room", "discarded", "--no-record"], "map_room", "stays"),
]


@pytest.mark.parametrize(("base", "flag", "name", "value"), CONTRADICTIONS, ids=[c[2] for c in CONTRADICTIONS])
def test_a_flag_and_a_rule_that_contradict_are_refused(
    base: list[str], flag: list[str], name: str, value: str, db_url: str, in_tmp: Path
) -> None:
    """A rules option set by its own flag and by ``--rule`` to another value: refused naming the
    option (exit 2), not one of them silently dropped."""
    db = None if base[1] == "meio" else db_url
    assert_refused(run_cli([*base, *flag, "--rule", f"{name}={value}"], db, "quit\n"), 2, name, "contradicts")
    assert not list(in_tmp.glob("**/*.jsonl"))  # no game played


# --- OpenSpiel --------------------------------------------------------------------------------

SPIEL_BASE = {"meio": {"players": 2}, "mea": {"deck0": MEA, "deck1": MEA_VS}, "meikyu": {"players": 2}}


@pytest.mark.parametrize(("game_id", "name"), OPTIONS, ids=[f"{g}-{n}" for g, n in OPTIONS])
def test_the_spiel_game_takes_every_option_as_a_parameter(game_id: str, name: str, db_url: str) -> None:
    """``pyspiel.load_game("cardbase_<game>", {NAME: VALUE})`` plays with that value; a bad one is a
    ValueError naming the option."""
    pyspiel = pytest.importorskip("pyspiel")
    import cardbase.spiel  # noqa: F401  (registers the games)

    base: dict[str, Any] = {**SPIEL_BASE[game_id], **({"db": db_url} if game_id == "mea" else {})}
    for value in values_of(game_id, name):
        if game_id == "mea" and name == "board_size" and value == 0:  # the integer ids number a square's cells
            with pytest.raises(ValueError, match=r"^cardbase_mea: .*board_size"):
                pyspiel.load_game("cardbase_mea", {**base, name: value})
            continue
        game = pyspiel.load_game(f"cardbase_{game_id}", {**base, name: value})
        assert game.rules.to_options()[name] == value
        assert game.new_initial_state() is not None
    kind, _ = GAMES[game_id].rule_defaults()[name]
    bad: Any = "bogus" if kind is str else (-1 if kind is int else None)
    if bad is None:
        return  # a yes/no parameter is typed by OpenSpiel itself
    with pytest.raises(ValueError, match=re.escape(name)):
        pyspiel.load_game(f"cardbase_{game_id}", {**base, name: bad})


# --- the docs and the README --------------------------------------------------------------------

READING_HEADER = "| question | our reading (default) | option | CLI |"


def _reading_rows(game_id: str) -> list[str]:
    text = (REPO / "docs" / "rules" / f"{game_id}.md").read_text(encoding="utf-8")
    lines = text.splitlines()
    start = lines.index(READING_HEADER)
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append(line)
    return rows


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_reading_table_names_every_option_as_the_cli_does(game_id: str) -> None:
    """docs/rules/<game>.md's reading table names each option (as ``--rule`` spells it), its CLI column
    gives ``--rule NAME=…`` for each (a flag of its own too, where there is one), and every
    ``NAME=VALUE`` in it is a value the CLI takes for that option."""
    rows = "\n".join(_reading_rows(game_id))
    entry = GAMES[game_id]
    missing = [name for name in entry.rule_defaults() if not re.search(rf"`[^`]*\b{name}\b[^`]*`", rows)]
    assert not missing, f"docs/rules/{game_id}.md's reading table does not name {missing}"
    cli = "\n".join(re.split(r"(?<!\\)\|", row)[-2] for row in _reading_rows(game_id))  # the CLI column
    no_rule = [name for name in entry.rule_defaults() if f"--rule {name}=" not in cli]
    assert not no_rule, f"docs/rules/{game_id}.md's CLI column does not give --rule NAME=… for {no_rule}"
    _check_assignments(game_id, rows, f"docs/rules/{game_id}.md")


def _check_assignments(game_id: str, text: str, where: str) -> None:
    from cardbase.errors import UsageError

    entry = GAMES[game_id]
    bad = []
    for code in re.findall(r"`([^`]+)`", text):
        for name, value in re.findall(r"(?<![\w-])([a-z][a-z_]+)=\"?([^\s\"`;,)]+)\"?", code):
            if name not in entry.rule_defaults():
                if "_" in name:
                    bad.append(f"{name}= (no such {game_id} option)")
                continue
            for one in re.split(r"\\?\|", value):  # `name=a\|b` in a table: each of a, b
                if one in ("k", "n", "N", "VALUE", "…"):
                    continue
                try:
                    (parsed,) = entry.rule_options([f"{name}={one}"]).values()
                    entry.check_option(name, parsed)
                except UsageError as error:
                    bad.append(f"{name}={one}: {error}")
    assert not bad, f"{where}: {bad}"


def test_every_rule_the_readme_and_docs_give_is_taken_as_written() -> None:
    """Each ``--rule NAME=VALUE`` of the README and of docs/rules/*.md is an option the CLI takes
    with that value, for the game it is written about (the first game whose options name it)."""
    texts = {
        p.name: p.read_text(encoding="utf-8") for p in [REPO / "README.md", *(REPO / "docs" / "rules").glob("*.md")]
    }
    found = 0
    for where, text in texts.items():
        for name, value in re.findall(r"--rule ([a-z_]+)=([^\s`]+)", text):
            if value.rstrip(".,)") in ("k", "n", "…", "VALUE"):
                continue
            owners = [g for g, e in GAMES.items() if name in e.rule_defaults()]
            assert owners, f"{where}: --rule {name}: no game has this option"
            for owner in owners[:1]:
                _check_assignments(owner, f"`{name}={value}`", where)
            found += 1
    assert found >= 5


WHOLE_OPTIONS = [(g, name) for g, name in OPTIONS if GAMES[g].rule_defaults()[name][0] is int]
STATED_RANGE = re.compile(r"from (-?[\d,]+) to (-?[\d,]+)")


def _refusal(game_id: str, name: str, value: int) -> str | None:
    """The rules' refusal of ``value`` for option ``name`` (None if taken; a refusal of the decks alone
    counts as taken), as ``check_option`` (what ``--rule`` calls as it reads a value) or else
    ``from_options`` says it."""
    cls = GAMES[game_id].rules_class()
    extra: dict[str, Any] = {
        "meio": {"players": 2},
        "mea": {"decks": [{"name": "", "cards": []}] * 2},
        "meikyu": {"players": 2, "pool": _pool()},
    }[game_id]
    try:
        cls.check_option(name, value)
        cls.from_options({**extra, name: value})
    except InvalidRules as error:
        return None if str(error).startswith("cannot play these decks") else str(error)
    return None


@pytest.mark.parametrize(("game_id", "name"), WHOLE_OPTIONS, ids=[f"{g}-{n}" for g, n in WHOLE_OPTIONS])
def test_an_absurd_whole_number_is_refused_stating_the_range_the_rules_take(game_id: str, name: str) -> None:
    """Every whole-number rules option of every game, given 10**12 and -10**12: refused, stating a range
    ("from L to H"), and that range is the one the rules take: L and H are taken, L-1 and H+1 refused
    stating the same range. Méa stated "from 0 to 10,000" for every option, while board_size took at
    most 128 (past it another message gave another bound) and max_turns took no 0."""
    stated = set()
    for absurd in (10**12, -(10**12)):
        refusal = _refusal(game_id, name, absurd)
        assert refusal is not None, f"{game_id} {name}={absurd} is taken"
        found = STATED_RANGE.search(refusal)
        assert found is not None, f"{game_id} {name}={absurd}: no range stated in {refusal!r}"
        stated.add(tuple(int(n.replace(",", "")) for n in found.groups()))
    assert len(stated) == 1, f"{game_id} {name}: two ranges stated: {stated}"
    ((low, high),) = stated
    for taken in (low, high):
        assert _refusal(game_id, name, taken) is None, f"{game_id} {name}={taken} (in the stated range) is refused"
    for beyond in (low - 1, high + 1):
        refusal = _refusal(game_id, name, beyond)
        assert refusal is not None, f"{game_id} {name}={beyond} (outside the stated range) is taken"
        assert f"from {low:,} to {high:,}" in refusal, (game_id, name, beyond, refusal)


@pytest.mark.parametrize(("game_id", "name"), WHOLE_OPTIONS, ids=[f"{g}-{n}" for g, n in WHOLE_OPTIONS])
def test_each_end_of_a_whole_number_options_range_plays_a_game(
    game_id: str, name: str, db_url: str, in_tmp: Path
) -> None:
    """The lowest and highest value a whole-number option takes (the range its refusal states) each
    play a game to its end: ``sim mea --rule board_size=127`` (or 128, the stated top) was an
    internal error (exit 70), the square around the starting grid crossing the board's coordinates."""
    found = STATED_RANGE.search(_refusal(game_id, name, 10**12) or "")
    assert found is not None
    low, high = (int(n.replace(",", "")) for n in found.groups())
    values = [low, high, *([high - 1] if name == "board_size" else [])]
    layouts = ["checkerboard", "YYYYYYY/BBBBBBB"] if name == "board_size" else [None]
    for value in values:
        for layout in layouts:
            argv = [*SIM[game_id], "--rule", f"{name}={value}", *(["--rule", f"layout={layout}"] if layout else [])]
            run = run_cli(argv, _db(game_id, db_url))
            assert run.exit_code == 0, f"{' '.join(argv)}: exit {run.exit_code}: {run.stderr[-500:]}"
