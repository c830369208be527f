"""A change of the deck on its way says so: while the server has not answered a +, − or + Add (a busy
server takes a moment), the deck's column (a laptop) and the deck's bar (a phone) say "Saving…", so a
click is not taken for lost and pressed again; the word goes with the answer."""

from __future__ import annotations

import pytest
from playwright.sync_api import Route, expect

from tests.web.browser.conftest import PHONE, ContextMaker, LiveServer, wait_until
from tests.web.browser.test_pages import make_deck


@pytest.mark.parametrize(
    ("viewport", "where"),
    [({"width": 1366, "height": 800}, "#save-status"), (PHONE, "#bar-note")],
    ids=["laptop", "phone"],
)
def test_a_change_on_its_way_says_saving_until_answered(
    new_context: ContextMaker, live_server: LiveServer, viewport: dict[str, int], where: str
) -> None:
    deck_id, _ = make_deck(live_server, "mea", {"Crumb Goblin": 3})
    page = new_context(viewport=viewport).new_page()
    page.goto(f"/decks/{deck_id}")
    held: list[Route] = []
    page.route("**/decks/*/cards*", lambda route: held.append(route))
    page.locator("#results form.add-form button").first.click()
    wait_until(page, lambda: len(held) == 1, "the change is sent")
    expect(page.locator(where)).to_be_visible()
    expect(page.locator(where)).to_have_text("Saving…")
    expect(page.locator("#deck-count")).to_have_text("3")
    held[0].continue_()
    expect(page.locator("#deck-count")).to_have_text("4")
    expect(page.locator(where)).to_have_text("")
