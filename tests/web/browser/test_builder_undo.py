"""Undo in the builder (as Moxfield's "Removed X — Undo" and Ctrl+Z): the last edits of the deck made on
the page are undone one by one, each as a restore of the version before it (``decks.store.restore_version``):
a write like any other, versioned, refused from a stale view with "changed elsewhere", and kept in the
deck's History. The button is named and what it undid is said; Ctrl+Z in a text field is the field's."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from cardbase.decks.history import history_payload
from cardbase.decks.store import deck_info, load_deck
from tests.web.browser.conftest import ContextMaker, LiveServer
from tests.web.browser.test_flows import find_in_builder
from tests.web.browser.test_pages import make_deck

GOBLIN = "#deck li[data-card-id='mea/demo/crumb-goblin']"


def counts(live: LiveServer, name: str) -> dict[str, int]:
    return {c.name: c.count for c in load_deck(live.database, name).cards}


def test_undo_takes_back_the_last_edits_one_by_one_and_history_keeps_them(page: Page, live_server: LiveServer) -> None:
    deck_id, name = make_deck(live_server, "mea", {"Crumb Goblin": 3})
    page.goto(f"/decks/{deck_id}")
    undo = page.get_by_role("button", name="Undo", exact=True)
    expect(undo).to_be_hidden()  # nothing to undo yet
    start = deck_info(live_server.database, name).version
    page.locator(f"{GOBLIN} button.dec").click()
    expect(page.locator("#deck-count")).to_have_text("2")
    expect(page.locator("#undo-what")).to_contain_text("Removed 1 Crumb Goblin")
    find_in_builder(page, "Dizzy Bat").click()
    expect(page.locator("#deck-count")).to_have_text("3")
    expect(page.locator("#undo-what")).to_contain_text("Added 1 Dizzy Bat")
    assert counts(live_server, name) == {"Crumb Goblin": 2, "Dizzy Bat": 1}
    page.locator("#q").press("Control+z")  # in the search box: the box's own undo, not the deck's
    undo.click()
    expect(page.locator("#deck-count")).to_have_text("2")
    expect(page.locator("#deck-news")).to_contain_text("Undone: Added 1 Dizzy Bat")
    expect(page.locator("#undo-what")).to_contain_text("Removed 1 Crumb Goblin")  # the edit before is next
    assert counts(live_server, name) == {"Crumb Goblin": 2}
    page.locator("#deck-h").focus()
    page.keyboard.press("Control+z")  # out of a text field: the deck's undo
    expect(page.locator("#deck-count")).to_have_text("3")
    expect(page.locator(f"{GOBLIN} .count")).to_have_text("3")
    expect(page.locator("#deck-news")).to_contain_text("Undone: Removed 1 Crumb Goblin")
    expect(undo).to_be_hidden()  # every edit of this page undone
    assert counts(live_server, name) == {"Crumb Goblin": 3}
    # each undo is a version of its own, a restore of the version before the edit it undid
    versions = history_payload(live_server.database, deck_id)
    assert deck_info(live_server.database, name).version == start + 4
    changes = [v["change"] for v in versions if v["number"] > start]
    assert changes[2:] == [f"undo to @{start + 1}: −1 Dizzy Bat", f"undo to @{start}: +1 Crumb Goblin"], changes
    expect(page.locator("#history")).to_contain_text(f"undo to @{start}: +1 Crumb Goblin")


def test_an_undo_from_a_stale_view_is_refused_and_nothing_is_overwritten(page: Page, live_server: LiveServer) -> None:
    deck_id, name = make_deck(live_server, "mea", {"Crumb Goblin": 3})
    page.goto(f"/decks/{deck_id}")
    page.locator(f"{GOBLIN} button.dec").click()
    expect(page.locator("#deck-count")).to_have_text("2")
    other = page.request.post(f"/api/decks/{deck_id}/cards", data={"name": "Dizzy Bat"})  # another tab
    assert other.status == 200
    page.get_by_role("button", name="Undo", exact=True).click()
    expect(page.locator("#action-slot")).to_contain_text("changed elsewhere")
    expect(page.locator("#deck-count")).to_have_text("3")  # the deck as it now is
    assert counts(live_server, name) == {"Crumb Goblin": 2, "Dizzy Bat": 1}  # not overwritten
    # the page's edits are no longer the deck's last: nothing left to undo from here
    expect(page.get_by_role("button", name="Undo", exact=True)).to_be_hidden()


def test_without_javascript_there_is_no_undo_button_and_history_restores(
    new_context: ContextMaker, live_server: LiveServer
) -> None:
    """Without JavaScript the page has no Undo to offer (it keeps no steps): a − still saves, and the
    History's restore is the way back."""
    deck_id, name = make_deck(live_server, "mea", {"Crumb Goblin": 3})
    page = new_context(java_script_enabled=False).new_page()
    page.goto(f"/decks/{deck_id}")
    page.locator(f"{GOBLIN} button.dec").click()
    expect(page.locator("#deck-count")).to_have_text("2")
    expect(page.get_by_role("button", name="Undo", exact=True)).to_be_hidden()
    expect(page.locator("#history-link")).to_be_visible()
    assert counts(live_server, name) == {"Crumb Goblin": 2}
