"""A refused paste names its field as the page labels it, not by the form's name: Edit as text's
'The deck as text', the collection's 'List', the import's 'Deck text, JSON or share code' (each said
"Invalid value for 'text':", a programmer's word, above the problems)."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.web.browser.conftest import PHONE, ContextMaker, LiveServer
from tests.web.browser.test_pages import make_deck


def test_a_refused_paste_names_the_field_by_its_label(new_context: ContextMaker, live_server: LiveServer) -> None:
    deck_id, _ = make_deck(live_server, "mea", {"Crumb Goblin": 3})
    page = new_context(viewport=PHONE).new_page()
    page.goto(f"/decks/{deck_id}/edit")
    page.locator("#edit-box").fill("game: mea\n1 Nope Nope\n")
    page.locator("#edit-check").click()
    expect(page.locator("#edit-problems .field-line")).to_have_text("Invalid value for 'The deck as text':")
    page.goto("/collection")
    page.locator("#bulk-text").fill("1 Nope Nope\n")
    page.locator("#bulk-preview").click()
    expect(page.locator("#bulk-problems .field-line")).to_have_text("Invalid value for 'List':")
    page.goto("/decks/import")
    page.locator("#deck-text").fill("game: mea\n1 Nope Nope\n")
    page.locator("#import-form button[type=submit]").click()
    expect(page.locator("#import-problems .field-line")).to_have_text(
        "Invalid value for 'Deck text, JSON or share code':"
    )
