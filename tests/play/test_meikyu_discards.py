"""Meikyu at the prompt: every discard of a decision in one line (``discard Bee, Sword``), the
used cards in the order named, the last ones the rules discard without asking accepted too, and
nothing applied when a card cannot go."""

from __future__ import annotations

import pytest

from cardbase.games.base import IllegalAction
from cardbase.sim.meikyu import play_ui, several_discards
from cardbase.sim.play import _Loop
from cardbase.sim.registry import GAMES
from cardbase.sim.table import HUMAN, Table
from tests.meikyu.helpers import act, draw, position, roll


def _used_three():
    """P1's failed quest with Bee, Cook and Sword: the used cards wait for P1's order."""
    state = position(2, hands=[{"Bee": 1, "Sword": 1, "Cook": 1}, {}])
    act(state, "quest Unnamed room 4 with Bee, Cook, Sword")
    roll(state, 1)
    assert state.decision == "discard order" and state.current_player == 0
    return state


def _over_the_limit():
    """P1 holds 8 cards at step 3: three to discard."""
    state = position(2, hands=[{"Bee": 2, "Cook": 2, "Jehu": 2, "Drone": 1}, {}])
    act(state, "resupply")
    draw(state, "Master")
    assert state.decision == "hand limit"
    return state


def _prompt(state, *lines: str) -> list[str]:
    """P1 types ``lines`` at the prompt from ``state`` (P2: the heuristic agent); the log until the lines run out."""
    typed = iter(lines)
    out: list[str] = []
    ui = play_ui(state.rules)
    agents = {1: GAMES["meikyu"].make_agent("heuristic", state.rules, 1, 0)}
    table = Table(state.rules, 0, [HUMAN, "heuristic"], agents=agents, ui=ui, origin=state)
    _Loop(table, 0, lambda prompt: next(typed, None), out.append, None, lambda o: None, "", ui).run()
    return out


def test_the_used_cards_go_in_the_order_named_in_one_line():
    state = _used_three()
    assert "discard Bee, Cook, Sword — the used cards go on the discard pile" in state.observation(0).describe()
    out = _prompt(state, "discard sword, BEE, cook")
    assert [line for line in out if line.startswith("P1 (you)")] == ["P1 (you): discard Sword", "P1 (you): discard Bee"]
    assert not any(line.startswith("refused") or line.startswith("not understood") for line in out)
    assert "  Cook goes on the discard pile too: no order left to choose" in out
    assert state.discard_pile()[:3] == ("Sword", "Bee", "Cook")  # Cook, named last, on top


def test_naming_only_the_first_leaves_the_rest_to_ask_and_the_last_is_not_refused():
    state = _used_three()
    assert [str(a) for a in several_discards(state, "discard cook, sword", play_ui(state.rules).vocabulary)] == [
        "discard Cook",
        "discard Sword",
    ]
    assert state.decision == "discard order"  # only checked on a copy: nothing applied yet


def test_step_3_takes_every_discard_in_one_line_and_refuses_one_too_many():
    state = _over_the_limit()
    assert "discard <card>, … (3 cards: down to 5)" in state.observation(0).describe()
    with pytest.raises(IllegalAction, match=r"only 3 cards to discard here \(Drone, Bee, Bee\): not Cook"):
        several_discards(state, "discard drone, bee, bee, cook")
    with pytest.raises(IllegalAction, match="you do not hold Warzard"):
        several_discards(state, "discard drone, warzard, bee")
    assert state.hand_size(0) == 8 and state.decision == "hand limit"  # nothing applied
    out = _prompt(state, "discard drone, jehu, bee")
    assert out[:3] == ["P1 (you): discard Drone", "P1 (you): discard Jehu", "P1 (you): discard Bee"]
    done = [str(a) for a in state.history]
    at = done.index("discard Drone")
    assert done[at : at + 3] == ["discard Drone", "discard Jehu", "discard Bee"]  # then the turn went on


def test_a_line_of_one_action_is_left_to_the_engine():
    state = _over_the_limit()
    assert several_discards(state, "discard Drone") is None  # one card: the ordinary action
    assert several_discards(_used_three(), "quest 1 with Bee, Cook") is None


def test_a_refugee_drawn_out_of_turn_is_ordered_at_the_prompt_by_the_turn_player():
    """P2's Casino draw in P1's turn is a Refugee: P2 chose Jehu and Bee; P1, whose turn it is, orders them."""
    state = position(2, hands=[{"Executioner": 1, "Gotcha!": 1}, {"Bee": 1, "Cook": 1, "Jehu": 1}],
                     lands=[[], ["Room of the Money Eater"]])  # fmt: skip
    act(state, "attack P2 Room of the Money Eater with Executioner by Gotcha!", "defend")
    roll(state, 1, 6)
    act(state, "discard Executioner", "draw")
    draw(state, "Refugee")
    act(state, "discard Jehu", "discard Bee")
    assert state.decision == "discard order" and state.current_player == 0
    assert "discard Jehu, Bee — P2's Refugee discards go on the discard pile" in state.observation(0).describe()
    out = _prompt(state, "discard bee, jehu")
    assert "P1 (you): discard Bee" in out and not any(line.startswith("refused") for line in out)
    assert state.discard_pile()[-2:] == ("Bee", "Jehu")  # Jehu, named last, on top
