"""A shared victory, said once: the web's "P1 and P4 share the victory: …" and the terminal's end
line read the reason after the winners, and the reason (as records and tests/golden keep it) ended
"…: shared victory" again. The stored reason stays; the words beside the winners leave that out."""

from __future__ import annotations

import re
from typing import Any

import pytest
from typer.testing import CliRunner

from cardbase.cli.app import app
from cardbase.games.base import Outcome
from cardbase.games.meikyu.codes import END_ROOMS
from cardbase.games.meikyu.rules import MeikyuRules
from cardbase.games.meikyu.rules import final_outcome as meikyu_outcome
from cardbase.games.meio.engine import MeioRules
from cardbase.games.meio.rules import final_outcome as meio_outcome
from cardbase.web.app import TEMPLATES
from tests.mea.conftest import at
from tests.meikyu.helpers import default_pool
from tests.sim.test_sim_cli import scripted_game


def _mea_shared() -> Outcome:
    state = at(options={"max_turns": 2}, active=1, turns_taken=(1, 1), tiles={"a2": 0, "b1": 0, "b2": 1, "a1": 1})
    state.apply_text("draw 1")
    outcome = state.outcome()
    assert outcome is not None
    return outcome


SHARED = {
    "mea": _mea_shared,
    "meio": lambda: meio_outcome(MeioRules(players=4), (5, 5, 9, 7), [(5, 5, 9, 7)]),
    "meikyu": lambda: meikyu_outcome(MeikyuRules(default_pool(), players=3), END_ROOMS, [4, 4, 2], [2, 2, 1]),
}


def _outcome_text(outcome: dict[str, Any], seat: int | None) -> str:
    macro = TEMPLATES.env.get_template("play/_board_common.html").module.outcome_text  # type: ignore[attr-defined]
    return re.sub(r"\s+", " ", str(macro(outcome, seat))).strip()


@pytest.mark.parametrize("game", sorted(SHARED))
def test_the_web_says_a_shared_victory_once(game: str) -> None:
    outcome = SHARED[game]()
    assert outcome.shared and re.search(r"shared (victory|result)$", outcome.reason)  # as records keep it
    said = _outcome_text(outcome.to_dict(), 0)
    assert said.startswith("P1 (you) and P2 share the victory: ")
    assert "shared" not in said, said
    assert said.removeprefix("P1 (you) and P2 share the victory: ") in outcome.reason


def test_a_single_winners_reason_is_said_whole() -> None:
    outcome = meio_outcome(MeioRules(players=3), (5, 7, 9), [(5, 7, 9)])
    assert _outcome_text(outcome.to_dict(), None) == f"P1 won: {outcome.reason}"


def test_the_terminals_end_line_says_a_shared_victory_once() -> None:
    """Meio, 4 players, seed 3 against random agents, P1 typing the first legal move: P1, P3 and P4 tie."""
    typed = scripted_game(4, 1, "random", 3, lambda s: ([str(s.legal_actions()[0])], False))
    args = ["play", "meio", "--players", "4", "--vs", "random", "--seed", "3", "--no-record"]
    result = CliRunner().invoke(app, args, input="\n".join(typed) + "\n")
    assert result.exit_code == 0, result.output
    end = [line for line in result.stdout.splitlines() if line.startswith("Game over")]
    assert end == ["Game over: tie for the lowest total after 3 rounds. P1 (you), P3 and P4 share the victory."]


def test_three_winners_are_said_as_a_list() -> None:
    """Three winners read "P1, P3 and P4", not "P1 and P3 and P4"."""
    outcome = meio_outcome(MeioRules(players=4), (5, 9, 5, 5), [(5, 9, 5, 5)])
    said = _outcome_text(outcome.to_dict(), 2)
    assert said.startswith("P1, P3 (you) and P4 share the victory: "), said
