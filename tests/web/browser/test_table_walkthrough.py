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
