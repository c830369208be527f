"""The builder never overwrites a change made elsewhere: it sends the version it shows with every
change and, refused (412), says "changed elsewhere" and shows the deck as it now is; quick clicks
all count (each change waits for the one before and takes the version it left)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from cardbase.decks.store import deck_info, load_deck
from tests.web.browser.conftest import LiveServer
from tests.web.browser.test_flows import find_in_builder, new_deck, unique


def test_a_change_from_an_old_view_says_changed_elsewhere_and_reloads(page: Page, live_server: LiveServer) -> None:
    name = unique("Two tabs")
    path = new_deck(page, "mea", name)
    deck_id = int(path.rsplit("/", 1)[1])
    find_in_builder(page, "Dizzy Bat").click()
    expect(page.locator("#deck-count")).to_have_text("1")
    shown = page.locator("#panels").get_attribute("data-version")
    # another tab (or person) adds a card: the page still shows the deck before it
    other = page.request.post(f"/api/decks/{deck_id}/cards", data={"name": "Crumb Goblin"})
    assert other.status == 200
    page.locator("#deck li[data-card-id='mea/demo/dizzy-bat'] button.inc").click()
    expect(page.locator("#action-slot")).to_contain_text("changed elsewhere")
    expect(page.locator("#deck-count")).to_have_text("2")  # reloaded: the other tab's card shows
    expect(page.locator("#deck li[data-card-id='mea/demo/crumb-goblin']")).to_be_visible()
    assert page.locator("#panels").get_attribute("data-version") == str(int(shown or 0) + 1)
    deck = load_deck(live_server.database, name)
    assert sorted((c.name, c.count) for c in deck.cards) == [("Crumb Goblin", 1), ("Dizzy Bat", 1)]  # not overwritten
    page.locator("#deck li[data-card-id='mea/demo/dizzy-bat'] button.inc").click()  # again, from the new view
    expect(page.locator("#deck-count")).to_have_text("3")
    expect(page.locator("#action-slot")).to_have_text("")


def test_quick_clicks_all_count(page: Page, live_server: LiveServer) -> None:
    name = unique("Quick clicks")
    new_deck(page, "mea", name)
    button = find_in_builder(page, "Barrel Bandit")
    for _ in range(6):
        button.click()  # without waiting for the panels between clicks
    expect(page.locator("#deck-count")).to_have_text("6")
    expect(page.locator("#action-slot")).to_have_text("")
    info = deck_info(live_server.database, name)
    assert (info.cards, info.version) == (6, 7)
    expect(page.locator("#panels")).to_have_attribute("data-version", re.compile("^7$"))
