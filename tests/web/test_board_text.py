"""The boards' words, rendered from a position (no server): what a player reads at the table."""

from __future__ import annotations

from cardbase.sim.boards import board_view, legal_view
from cardbase.web.pages import TEMPLATES
from tests.mea.conftest import PAWN, Table, demo, rules_for, started


def test_a_choice_asked_by_an_ability_reads_as_one_sentence() -> None:
    """The ability's text ends with its own full stop; the prompt added ": click a lit tile or
    monster." after it ("…until the end of your turn.: click …")."""
    state = started(rules_for([PAWN, PAWN, demo("Pep Talk")], []))
    setup = Table(state)
    setup.put(0, "Pawn", "a2")
    setup.put(0, "Pawn", "b1")
    setup.give(0, "Pep Talk")
    setup.turn(0)
    state.apply_text("play Pep Talk")
    assert state.phase == "choice"
    html = TEMPLATES.get_template("play/_board_mea.html").render(
        view=board_view("mea", state.observation(0)),
        legal=legal_view(state.observation(0), state.legal_actions()),
        seat=0,
        version=0,
        game_id="g",
    )
    assert "Choose Pep Talk" in html
    assert "until the end of your turn: click a lit tile or monster." in html
    assert ".:" not in html
