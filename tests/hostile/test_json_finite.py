"""Output meant for machines is valid JSON: no ``NaN`` or ``Infinity`` (which no JSON reader takes)
in any ``--json`` output or web API answer, whatever degenerate input gave a figure of nothing.

The class: a figure of no games (a win rate going first when the one game was the other deck's
first) or an unbounded interval's end is a float that is not finite; ``json.dumps`` writes it as
``NaN`` (the CLI) and Starlette's ``JSONResponse`` refuses it (a 500). The root: every JSON writer
goes through :mod:`cardbase.jsonout`, where such a value is ``null``."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from cardbase.jsonout import dumps, finite
from tests.conftest import REPO
from tests.hostile.conftest import run_cli

GOBLINS = str(REPO / "examples/decks/mea-goblin-rush.txt")
TILES = str(REPO / "examples/decks/mea-tile-control.txt")


def strict_json(text: str) -> Any:
    """``text`` read as JSON that any reader takes: ``NaN``, ``Infinity`` and ``-Infinity`` refused."""

    def refuse(constant: str) -> None:
        raise AssertionError(f"{constant} in JSON output: {text[:400]}")

    return json.loads(text, parse_constant=refuse)


SIMS = [
    ("mea 1", ["sim", "mea", "-d", GOBLINS, "--vs", TILES, "--games", "1"]),
    ("mea 2", ["sim", "mea", "-d", GOBLINS, "--vs", TILES, "--games", "2"]),
    ("meio 1", ["sim", "meio", "--players", "2", "--games", "1"]),
    ("meio 2 of 4", ["sim", "meio", "--players", "4", "--games", "2"]),
    ("meikyu 1", ["sim", "meikyu", "--assume", "default", "--games", "1"]),
]


@pytest.mark.parametrize(("name", "argv"), SIMS, ids=[s[0] for s in SIMS])
def test_sim_json_of_one_or_two_games_is_valid_json(name: str, argv: list[str], hostile_db: str, in_tmp) -> None:
    result = run_cli([*argv, "--json"], None if argv[1] == "meio" else hostile_db)  # Meio reads no database
    assert result.exit_code == 0, result.stderr
    strict_json(result.stdout)


def test_mea_one_game_a_seat_not_played_is_null_not_nan(hostile_db: str, in_tmp) -> None:
    """One game: one deck went first, so the other's 'going first' counts no games: its rate is null."""
    result = run_cli(["sim", "mea", "-d", GOBLINS, "--vs", TILES, "--games", "1", "--json"], hostile_db)
    report = strict_json(result.stdout)
    empty = [
        seat for deck in report["decks"] for seat in (deck["going_first"], deck["going_second"]) if seat["games"] == 0
    ]
    assert len(empty) == 2, report["decks"]  # one game: each deck has a seat it did not play
    for seat in empty:
        assert seat["win_rate"] is None and seat["win_rate_95"] == [None, None], seat


def test_finite_writes_every_non_finite_float_as_null() -> None:
    data = {"a": math.nan, "b": [1.5, math.inf, (-math.inf, 2)], "c": {"d": math.nan, "e": "NaN"}, "f": 0}
    assert finite(data) == {"a": None, "b": [1.5, None, [None, 2]], "c": {"d": None, "e": "NaN"}, "f": 0}
    strict_json(dumps(data))
    kept = {"x": [1.0, 2], "y": "z"}
    assert finite(kept) is kept  # nothing to change: nothing copied


def test_print_json_writes_null_for_nan(capsys: pytest.CaptureFixture[str]) -> None:
    from cardbase.cli.common import print_json

    print_json({"rate": math.nan, "interval": [0.0, math.inf]})
    assert strict_json(capsys.readouterr().out) == {"rate": None, "interval": [0.0, None]}


def test_web_json_answers_write_null_for_nan() -> None:
    """The app's JSON answers (its default class and the one routes build) take a figure of nothing
    as null: Starlette's own refused it with a ValueError, a 500 'internal error'."""
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

    from cardbase.web.app import create_app
    from cardbase.web.jsonresponse import JSONResponse
    from cardbase.web.settings import ServerSettings

    assert create_app(ServerSettings(database=None)).router.default_response_class is JSONResponse
    app = FastAPI(default_response_class=JSONResponse)

    @app.get("/modelled")
    def modelled() -> dict[str, Any]:
        return {"rate": math.nan, "interval": [math.inf, 1.0]}

    @app.get("/built")
    def built() -> JSONResponse:
        return JSONResponse({"rate": -math.inf})

    with TestClient(app, raise_server_exceptions=False) as client:
        answer = client.get("/modelled")
        assert answer.status_code == 200, answer.text
        assert strict_json(answer.text) == {"rate": None, "interval": [None, 1.0]}
        answer = client.get("/built")
        assert answer.status_code == 200, answer.text
        assert strict_json(answer.text) == {"rate": None}
