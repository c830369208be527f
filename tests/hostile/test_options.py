"""Class 3 and 6 (options): every number a user types has a range, and a value outside it — negative,
absurd, not a number, a Unicode digit — is refused naming the option, exit 2, before any work."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import REPO
from tests.hostile.conftest import assert_refused, db_dump, run_cli

GOBLINS = str(REPO / "examples/decks/mea-goblin-rush.txt")
TILES = str(REPO / "examples/decks/mea-tile-control.txt")
MEIO = str(REPO / "examples/decks/meio-3-players.txt")

ABSURD = ["-1", str(10**9), str(10**20), "1e400", "Infinity", "NaN", "²", "3.5", "many", ""]

# (id, argv before the option, option, values to refuse, phrase of the message)
RANGES: list[tuple[str, list[str], str, list[str]]] = [
    ("search --limit", ["cards", "search", "x"], "--limit", ["0", *ABSURD]),
    ("draws --cards", ["draws", GOBLINS], "--cards", ["1001", *ABSURD]),
    ("draws --by-turn", ["draws", GOBLINS], "--by-turn", ["0", "101", *ABSURD]),
    ("draws --opening", ["draws", GOBLINS], "--opening", ["0", "11", *ABSURD]),
    ("draws --trials", ["draws", GOBLINS, "--cards", "5", "--need", "1 t:monster"], "--trials", ["0", *ABSURD]),
    ("draws --sample", ["draws", GOBLINS], "--sample", ["0", "101", *ABSURD]),
    ("draws --seed", ["draws", GOBLINS, "--sample", "1"], "--seed", ["-1", str(2**64), "x"]),
    ("draws --players", ["draws", MEIO], "--players", ["0", "6", *ABSURD]),
    ("sim meio --games", ["sim", "meio"], "--games", ["0", "1000001", *ABSURD]),
    ("sim meio --jobs", ["sim", "meio", "--games", "1"], "--jobs", ["0", "65", *ABSURD]),
    ("sim meio --rounds", ["sim", "meio", "--games", "1"], "--rounds", ["0", "101", *ABSURD]),
    ("sim meio --seed", ["sim", "meio", "--games", "1"], "--seed", ["-1", str(2**64), "1e3"]),
    ("sim mea --max-turns", ["sim", "mea", "--deck", GOBLINS, "--vs", TILES], "--max-turns", ["0", "10001", *ABSURD]),
    ("sim mea --games", ["sim", "mea", "--deck", GOBLINS, "--vs", TILES], "--games", ["0", str(10**9)]),
    ("sim meikyu --turn-limit", ["sim", "meikyu", "--assume", "default"], "--turn-limit", ["0", "10001", *ABSURD]),
    ("sim meikyu --games", ["sim", "meikyu", "--assume", "default"], "--games", ["0", str(10**12)]),
    ("play meio --seed", ["play", "meio", "--no-record"], "--seed", ["-1", str(2**64), "x"]),
    ("deck add -n", ["deck", "add", "Mine", "Selounticia"], "-n", ["0", "1000", *ABSURD]),
    ("deck remove -n", ["deck", "remove", "Mine", "Selounticia"], "-n", ["0", "1000", *ABSURD]),
    ("deck new --players", ["deck", "new", "Mine4", "--game", "meio"], "--players", ["1", "5", "99", "300", *ABSURD]),
    ("print tiles --dpi", ["print", "tiles", "-o", "t.pdf"], "--dpi", ["0", "29", "2401", *ABSURD]),
    ("print deck --copies", ["print", "deck", GOBLINS, "-o", "d.pdf"], "--copies", ["0", "101", *ABSURD]),
    ("render card --dpi", ["render", "card", "Tile Titan", "-o", "t.png"], "--dpi", ["0", "2401", *ABSURD]),
    ("export images --dpi", ["export", "images", GOBLINS, "-o", "imgs"], "--dpi", ["0", "2401", *ABSURD]),
    ("export images --copies", ["export", "images", GOBLINS, "-o", "imgs"], "--copies", ["0", "101", *ABSURD]),
    ("odds quest --swords", ["odds", "meikyu", "quest", "--level", "6"], "--swords", ["61", *ABSURD]),
    ("odds attack --defence", ["odds", "meikyu", "attack", "--swords", "3"], "--defence", ["61", *ABSURD]),
    ("odds develop --level", ["odds", "meikyu", "develop", "--wits", "3"], "--level", ["0", "61", *ABSURD]),
]
CASES = [
    (f"{name}={value or 'empty'}", argv, option, value) for name, argv, option, values in RANGES for value in values
]


@pytest.mark.parametrize(("argv", "option", "value"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_option_out_of_range_is_refused(argv: list[str], option: str, value: str, shared_db: str, in_tmp) -> None:
    if argv[0] != "odds" and argv[:2] not in (["sim", "meio"], ["play", "meio"]):
        argv = [*argv, "--db", shared_db]
    before = db_dump(shared_db)
    assert_refused(run_cli([*argv, option, value]), 2, option)
    assert db_dump(shared_db) == before


RULES = [
    ("meio", ["rounds=0"], "round"),
    ("meio", ["rounds=1000000000"], "round"),
    ("meio", ["rounds=²"], "rounds"),
    ("meio", ["nonsense=1"], "not a Meio rules option"),
    ("meio", ["rounds"], "NAME=VALUE"),
    ("meio", ["=3"], "NAME=VALUE"),
    ("meio", ["rounds=2", "rounds=3"], "twice"),
    ("mea", ["max_turns=1000000000"], "max_turns"),
    ("mea", ["tiles_per_colour=-5"], "tiles_per_colour"),
    ("mea", ["layout=nowhere"], "layout"),
    ("meikyu", ["turn_limit=99999999999"], "turn_limit"),
    ("meikyu", ["farm=sideways"], "farm"),
    # whole numbers are ASCII digits: Python's int() read 1_0 as 10 and ٣ or ３ as 3
    ("meio", ["rounds=1_0"], "rounds: '1_0' is not a whole number"),
    ("mea", ["bonus_turns=٣"], "bonus_turns: '٣' is not a whole number"),
    ("mea", ["bonus_turns=３"], "bonus_turns: '３' is not a whole number"),
    # today's options: a reading's words as written, once each
    ("mea", ["killed_order=attacker_first"], "killed_order"),
    ("mea", ["displaced_onto=any", "displaced_onto=no-enemy"], "twice"),
    ("mea", ["left_play=resolve"], "left_play"),
    ("mea", ["triggered_after=card", "triggered_after=sentence"], "twice"),
    ("meikyu", ["amulet_ask="], "amulet_ask"),
    ("meikyu", ["harem=everyone\x1b[2J"], "harem"),
    ("meikyu", ["sword=two"], "sword"),
    ("meikyu", ["goal_check=mid-turn"], "goal_check"),
    ("meikyu", ["refugee_order=defender"], "refugee_order"),
    ("meikyu", ["mixed_area=after"], "mixed_area"),
]


@pytest.mark.parametrize(("game", "rules", "phrase"), RULES, ids=[f"{g}:{r[0]}" for g, r, _ in RULES])
def test_bad_rule_option_is_refused(game: str, rules: list[str], phrase: str, shared_db: str) -> None:
    argv = ["sim", game, "--games", "1"]
    if game == "mea":
        argv += ["--deck", GOBLINS, "--vs", TILES, "--db", shared_db]
    if game == "meikyu":
        argv += ["--assume", "default", "--db", shared_db]
    for rule in rules:
        argv += ["--rule", rule]
    assert_refused(run_cli(argv), 2, phrase)


AGENTS = [
    ("meio", "search:samples=1000000000", "at most"),
    ("meio", "search:samples=99999999999999999999999", "at most"),
    ("meio", "search:nonsense=3", "search has no option 'nonsense' (its options: samples, split_candidates)"),
    ("meio", "search:samples", "key=value"),
    ("meio", "wizard", "unknown"),
    ("mea", "heuristic:opening=99-100", "opening"),
    ("mea", "search:samples=0", "samples must be at least 1, not 0"),  # was a ZeroDivisionError, exit 70
    ("mea", "search:candidates=0", "candidates must be at least 1"),
    ("mea", "search:samples=abc", "samples must be a whole number, not 'abc'"),  # was a TypeError, exit 70
    ("mea", "search:samples=-1", "samples must not be negative"),  # was played
    ("meio", "search:split_candidates=0", "split_candidates must be at least 1"),
    ("meikyu", "search:samples=0", "samples must be at least 1"),
    ("meikyu", "search:rounds=abc", "rounds must be a number in digits, not 'abc'"),
    ("meikyu", "search:prior=inf", "prior must be a number in digits, not 'inf'"),
]


@pytest.mark.parametrize(("game", "agent", "phrase"), AGENTS, ids=[a[1][:30] for a in AGENTS])
def test_bad_agent_is_refused(game: str, agent: str, phrase: str, shared_db: str) -> None:
    if game == "meio":
        argv = ["sim", "meio", "--players", "2", "--games", "1", "--agents", f"{agent},random"]
    elif game == "meikyu":
        argv = ["sim", "meikyu", "--players", "2", "--assume", "default", "--games", "1", "--agents", f"{agent},random"]
        argv += ["--db", shared_db]
    else:
        argv = ["sim", "mea", "--deck", GOBLINS, "--vs", TILES, "--games", "1", "--agents", f"{agent},random"]
        argv += ["--db", shared_db]
    assert_refused(run_cli(argv), 2, phrase)


def _agent_number_options() -> list[tuple[str, str, str]]:
    """(game, agent, option) for every option of every agent of every game that takes a number with a
    fraction (its constructor's annotation says ``float``), walked from the registry."""
    from cardbase.sim.registry import GAMES, _agent_options, _load

    return [
        (game_id, agent, option)
        for game_id, entry in GAMES.items()
        for agent, where in entry.agents.items()
        for option, kind in _agent_options(_load(where)).items()
        if kind.startswith("float")
    ]


NOT_DIGITS = ["1_0", "٣", "１", "nan", "inf", "-inf", "1e999", "0x1", "1,5", "0." + "5" * 40]
"""Texts that are no number written in ASCII digits (``float()`` reads the first three as 10, 3 and 1,
``1e999`` as infinity), or one longer than a number is."""


def test_every_agent_number_option_is_swept() -> None:
    assert len(_agent_number_options()) >= 4


@pytest.mark.parametrize(
    ("game_id", "agent", "option"), _agent_number_options(), ids=[":".join(o) for o in _agent_number_options()]
)
def test_an_agent_number_written_otherwise_than_in_digits_is_refused_naming_the_option(
    game_id: str, agent: str, option: str
) -> None:
    """Every agent option that takes a number with a fraction (ISMCTS's ``c``, Meikyu's search's
    ``prior``…), given a text that is no number in ASCII digits: refused as the agent is read (the
    command line's ``--agents`` and the web's seats both read it so), a usage error naming the option
    and the text. ``ismcts:c=1_0`` played with c=10, ``c=٣`` with 3 (``--rule`` and the command line's
    numbers refuse both), ``search:prior=1e999`` was refused as "not from 0"."""
    from cardbase.errors import UsageError
    from cardbase.sim.registry import GAMES

    for text in NOT_DIGITS:
        with pytest.raises(UsageError, match=rf"{option} must be a number in digits, not '") as refused:
            GAMES[game_id].parse_agent(f"{agent}:{option}={text}")
        assert len(str(refused.value)) < 300


def _agent_whole_options() -> list[tuple[str, str, str]]:
    """(game, agent, option) for every agent option of every game that takes a whole number (and no text:
    Méa's ``opening`` also takes a range, ``3-7``, read by the agent)."""
    from cardbase.sim.registry import GAMES, _agent_options, _load

    return [
        (game_id, agent, option)
        for game_id, entry in GAMES.items()
        for agent, where in entry.agents.items()
        for option, kind in _agent_options(_load(where)).items()
        if kind.startswith("int") and "str" not in kind
    ]


DASHED = ["--5", "---5", "-" * 6 + "1", "--"]
"""Digits after more than one ``-``: ``int()`` refuses them, so reading them as a number was a crash."""


@pytest.mark.parametrize(
    ("game_id", "agent", "option"), _agent_whole_options(), ids=[":".join(o) for o in _agent_whole_options()]
)
def test_an_agent_whole_number_with_dashes_is_refused_naming_the_option(game_id: str, agent: str, option: str) -> None:
    """``ismcts:iters=--5`` was an internal error everywhere an agent is read: the command line's
    ``--agents`` (exit 70), the web's seats (500 on the API and on the start form)."""
    from cardbase.errors import UsageError
    from cardbase.sim.registry import GAMES

    for text in DASHED:
        with pytest.raises(UsageError, match=rf"{option} must be a whole number, not '"):
            GAMES[game_id].parse_agent(f"{agent}:{option}={text}")


def test_an_agent_option_that_is_none_is_refused_before_its_value_is_bounded() -> None:
    """An option the agent does not take is named so whatever its value (``iterations=1000000`` was
    refused as "must be at most 100,000", of an option ismcts does not have)."""
    from cardbase.errors import UsageError
    from cardbase.sim.registry import GAMES

    for value in ("1000000", "5", "--5", "x"):
        with pytest.raises(UsageError, match="ismcts has no option 'iterations'"):
            GAMES["meio"].parse_agent(f"ismcts:iterations={value}")


def test_dashed_agent_numbers_are_refused_on_every_face(shared_db: str) -> None:
    from fastapi.testclient import TestClient

    from cardbase.db.engine import open_database
    from cardbase.web.app import create_app
    from cardbase.web.settings import ServerSettings

    run = run_cli(["sim", "meio", "--players", "2", "--games", "1", "--agents", "ismcts:iters=--5,random"])
    assert_refused(run, 2, "--agents", "iters must be a whole number, not '--5'")
    settings = ServerSettings(database=open_database(shared_db))
    with TestClient(create_app(settings), base_url=settings.base_url, raise_server_exceptions=False) as client:
        seats = [{"agent": "ismcts:iters=--5"}, {"agent": "human"}]
        api = client.post("/api/games", json={"game": "meio", "seats": seats})
        assert api.status_code == 400, api.text[:300]
        assert "iters must be a whole number" in api.json()["error"]["message"]
        form = {"game": "meio", "players": "2", "seat0": "ismcts", "seat0_options": "iters=--5", "seat1": "human"}
        page = client.post("/play", data=form, follow_redirects=False)
        assert page.status_code == 400, page.text[:300]
        assert "iters must be a whole number" in page.text


def test_an_agent_number_in_digits_is_taken() -> None:
    from cardbase.sim.registry import GAMES

    for game_id, agent, option in _agent_number_options():
        GAMES[game_id].parse_agent(f"{agent}:{option}=0.5")


def _float_options() -> list[tuple[tuple[str, ...], str, Any]]:
    """Every option of the command tree that takes a number with a fraction: (command path, option, its param)."""
    import typer.main

    from cardbase.cli.app import app

    found: list[tuple[tuple[str, ...], str, Any]] = []

    def walk(command: Any, path: tuple[str, ...]) -> None:
        for name, sub in (getattr(command, "commands", None) or {}).items():
            walk(sub, (*path, name))
        for param in getattr(command, "params", []):
            annotation = getattr(getattr(param, "type_descriptor", None), "annotation", None)
            if param.param_type_name == "option" and annotation in (float, float | None):
                found.append((path, param.opts[0], param))

    walk(typer.main.get_command(app), ())
    return found


FLOAT_OPTIONS = _float_options()
# Each hostile number with the reason its message must give (not only the bound it misses).
FLOAT_VALUES = [
    ("nan", "is not a number (NaN)"),
    ("-NaN", "is not a number (NaN)"),
    ("inf", "is infinite"),
    ("-Infinity", "is infinite"),
    ("1e309", "too large to be a number"),
    ("-1e309", "too large to be a number"),
    ("-0", "out of range"),
    ("1e-400", "out of range"),
    ("١", "is not a number"),
    ("1_0", "is not a number"),
    ("0x10", "is not a number"),
    ("9" * 5000, "is not a number"),
]


def test_every_float_option_is_found() -> None:
    # The walk can fail: it finds the four options that take a fraction today.
    names = {" ".join((*path, option)) for path, option, _ in FLOAT_OPTIONS}
    assert {"serve --idle-hours", "lab split --seconds", "print deck --scale-x", "print deck --scale-y"} <= names


@pytest.mark.timeout(120)
@pytest.mark.parametrize(("value", "reason"), FLOAT_VALUES, ids=[v[:12] for v, _ in FLOAT_VALUES])
@pytest.mark.parametrize(
    ("path", "option"), [f[:2] for f in FLOAT_OPTIONS], ids=[" ".join((*f[0], f[1])) for f in FLOAT_OPTIONS]
)
def test_every_float_option_refuses_nan_inf_and_overflow_for_its_reason(
    path: tuple[str, ...], option: str, value: str, reason: str
) -> None:
    # The option given is parsed before a missing argument is noticed: its own message is the answer.
    # serve has no argument to miss: a blank --host stops it should the value pass (it would serve).
    stop = ["--host", " "] if path == ("serve",) else []
    line = assert_refused(run_cli([*path, option, value, *stop]), 2, option, reason)
    assert len(line) < 300


def test_a_float_option_takes_its_range() -> None:
    from cardbase.cli.common import Number

    number = Number(0.5, 600.0)
    assert [number(v) for v in ("0.5", "600", "+2", "1e1", ".75", " 3 ", 24.0)] == [
        0.5,
        600.0,
        2.0,
        10.0,
        0.75,
        3.0,
        24.0,
    ]
    assert Number(0, 1)("0") == 0.0
    with pytest.raises(Exception, match="negative zero"):
        Number(0, 1)("-0")
