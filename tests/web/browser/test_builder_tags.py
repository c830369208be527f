"""Tagging a deck's entry in the builder keeps the page the player was on: the search typed, the list's
view and a dealt sample hand come back after the tag is stored (the page reloaded to the bare deck:
the search was gone, the hand closed)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.web.browser.conftest import LiveServer
from tests.web.browser.test_pages import make_deck


def test_a_tag_added_or_taken_off_keeps_the_search_and_the_hand(page: Page, live_server: LiveServer) -> None:
    deck_id, _ = make_deck(live_server, "mea", {"Crumb Goblin": 3, "Dizzy Bat": 2, "Pep Talk": 2})
    page.goto(f"/decks/{deck_id}")
    page.locator("#q").fill("goblin")
    expect(page.locator("#results [data-card-id]")).to_have_count(3)
    page.locator("#hand-open").click()
    expect(page.locator("#hand li")).to_have_count(5)
    hand = page.locator("#hand li").evaluate_all("lis => lis.map(li => li.dataset.cardId)")
    entry = page.locator('#deck li[data-card-id="mea/demo/dizzy-bat"]')
    entry.locator("summary").click()
    entry.locator("input[name=add]").fill("early drop")
    entry.locator("input[name=add]").press("Enter")
    entry = page.locator('#deck li[data-card-id="mea/demo/dizzy-bat"]')
    expect(entry.locator(".entry-tags")).to_have_text("early drop")
    expect(page.locator("#q")).to_have_value("goblin")
    expect(page.locator("#results [data-card-id]")).to_have_count(3)
    expect(page.locator("#hand li")).to_have_count(5)
    assert page.locator("#hand li").evaluate_all("lis => lis.map(li => li.dataset.cardId)") == hand
    expect(entry.locator("details.tag-entry")).to_have_attribute("open", "")  # saved in place: the box stays open
    expect(entry.locator("input[name=add]")).to_be_focused()
    entry.get_by_role("button", name="Remove the tag early drop from Dizzy Bat").click()
    entry = page.locator('#deck li[data-card-id="mea/demo/dizzy-bat"]')
    expect(entry.locator(".entry-tags")).to_have_count(0)
    expect(page.locator("#q")).to_have_value("goblin")
    expect(page.locator("#hand li")).to_have_count(5)


def test_a_tags_way_back_is_this_decks_page_only(page: Page, live_server: LiveServer) -> None:
    """The tag form's way back names this deck's page and nothing else (another site, another deck: the
    deck's own page instead)."""
    deck_id, _ = make_deck(live_server, "mea", {"Crumb Goblin": 3})
    other, _ = make_deck(live_server, "mea", {"Dizzy Bat": 1})
    page.goto(f"/decks/{deck_id}")
    version = page.locator("#panels").get_attribute("data-version")
    for n, back in enumerate(("https://example.org/", f"/decks/{other}?q=x", "//example.org/decks")):
        response = page.request.post(  # a new tag each time: a change, so a new version (a tag again is none)
            f"/decks/{deck_id}/tags",
            form={"card": "mea/demo/crumb-goblin", "add": f"x{n}", "version": str(version), "back": back},
            max_redirects=0,
        )
        assert response.status == 303, response.status
        assert response.headers["location"].endswith(f"/decks/{deck_id}#deck-panel"), response.headers["location"]
        version = str(int(str(version)) + 1)
