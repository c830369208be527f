"""The builder's edit as text refuses a bad line in players' words: the game by its display name,
the line, a link to the card search for the name (not a `cardbase` command), the code only as data."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.web.browser.conftest import LiveServer
from tests.web.browser.test_pages import make_deck


def test_the_edit_as_text_refusal_speaks_to_players(page: Page, live_server: LiveServer) -> None:
    deck_id, _ = make_deck(live_server, "mea", {"Crumb Goblin": 3})
    page.goto(f"/decks/{deck_id}/edit")
    page.locator("#edit-box").fill("3 Crumb Goblin\n1 Nobody Atall\n")
    page.locator("#edit-check").click()
    problem = page.locator("#edit-problems li")
    expect(problem).to_have_count(1)
    expect(problem).to_have_text(re.compile(r"^line 2: no Méa card named 'Nobody Atall'"))
    expect(problem).to_have_attribute("data-code", "unknown-card")
    for programmer_word in ("unknown-card", "cardbase", "mea card", "`"):
        expect(problem).not_to_contain_text(programmer_word)
    link = problem.get_by_role("link", name="check the spelling in the card search")
    link.click()
    expect(page).to_have_url(re.compile(r"/cards\?q=Nobody\+Atall&game=mea$"))
