"""What a walkthrough of the table at a phone's and a laptop's width found: the end of a game said
once, a grown Méa board opened where the player's tiles are, the replay's board first on a phone,
the Méa opening draw's trade-off beside its buttons, and Meikyu saying who goes first and why."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.web.browser.conftest import PHONE, ContextMaker
from tests.web.browser.test_play_boards import create, hall


def test_a_finished_game_says_who_won_and_why_once(new_context: ContextMaker, live_server: Any) -> None:
    """The reason was in the page's status, again in the board's status line and again in Meio's
    result: the page's status says it, with the winner; the replay's board (no such status) says it."""
    made = create(live_server, {"game": "meio", "players": 2, "seats": [{"agent": "random"}] * 2, "seed": 3})
    page = new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    page.goto(f"/play/{made['id']}")
    expect(page.locator("#replay-link")).to_be_visible()
    outcome = hall(live_server).get(made["id"]).table.state.outcome()
    winner = f"P{outcome.winners[0] + 1}"
    expect(page.locator("#status")).to_contain_text(f"Game over. {winner} won: {outcome.reason}.")
    said = re.compile(re.escape(outcome.reason) + "(?! wins)")  # (not the rules' "the lowest total … wins")
    text = page.locator("#table").inner_text()
    assert len(said.findall(text)) == 1, text[:1500]
    page.locator("#replay-link").click()
    page.locator("#step-last").click()
    body = page.locator("#step-body")
    expect(body.locator(".board-status")).to_contain_text(f"{winner} won: {outcome.reason}")
    assert len(said.findall(body.inner_text())) == 1


def test_on_a_phone_the_replay_shows_the_board_first_with_compact_controls(
    new_context: ContextMaker, live_server: Any
) -> None:
    """At 390 px the replay's controls (the steps, the slider, who it is seen as, the turn to jump to)
    took most of the first screen, and after Next the board began near its bottom. As on lichess's
    mobile analysis board: the board first, the steps a compact bar at the screen's foot, the rest below."""
    made = create(live_server, {"game": "meio", "players": 2, "seats": [{"agent": "random"}] * 2, "seed": 3})
    page = new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    page.goto(f"/play/{made['id']}")
    page.locator("#replay-link").click()
    expect(page.locator("#step-body")).to_have_attribute("data-step", "0")
    for _ in range(3):
        page.locator("#step-next").click()
    expect(page.locator("#step-body")).to_have_attribute("data-step", "3")
    height = PHONE["height"]
    board = page.locator("#step-body .game-board").bounding_box()
    assert board and board["y"] < height / 3, f"the board starts at {board} of {height} px"
    bar = page.locator("#replay-controls").bounding_box()
    assert bar and bar["height"] <= 64 and bar["y"] + bar["height"] <= height + 1, f"the steps' bar: {bar}"
    for name in ("#step-first", "#step-prev", "#step-next", "#step-last"):
        expect(page.locator(name)).to_be_in_viewport()
    # what was above the board is still there, below it
    for name in ("#step-slider", "#seat-select", "#turn-select"):
        expect(page.locator(name)).to_be_attached()
    slider = page.locator("#step-slider").bounding_box()
    assert slider and slider["y"] > board["y"], "the slider is below the board's top"


def test_meikyu_says_who_goes_first_and_why(new_context: ContextMaker, live_server: Any) -> None:
    """With P1 a person and two agents, P1's first turn came at turn 3: the agents had moved first. The
    rulebook: "Each player rolls the die. The player with the highest roll goes first. The play will
    proceed in a clockwise order." The order was that; the page said the rolls only in its log. It says
    who went first, the rolls, and the order, through the first round."""
    body = {"game": "meikyu", "players": 3, "seats": [{"agent": "human"}] + [{"agent": "random"}] * 2}
    for seed in range(1, 60):  # a game in which an agent rolled highest
        made = create(live_server, {**body, "assume": "default", "seed": seed})
        hall(live_server).wait_quiet(made["id"], 300)
        state = hall(live_server).get(made["id"]).table.state
        obs = state.observation(0)
        if obs.turns:
            break
    else:
        raise AssertionError("no seed from 1 to 59 had an agent go first")
    rolls = dict(obs.first_rolls)
    first = max(rolls, key=lambda s: rolls[s])
    order = [(first + i) % 3 for i in range(3)]
    assert first != 0 and obs.turn_player == 0 and obs.turns == order.index(0)  # clockwise from the highest roll
    page = new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    page.goto(f"/play/{made['id']}")
    line = page.locator("#board .first-player")
    expect(line).to_be_visible()
    said = ", ".join(f"P{s + 1} {v}" for s, v in sorted(rolls.items()))
    expect(line).to_contain_text(f"P{first + 1} went first: the highest roll for the first turn ({said}")
    expect(line).to_contain_text("then clockwise: " + " → ".join(f"P{s + 1}" for s in order) + ".")
    expect(line).to_contain_text("The player with the highest roll goes first.")
