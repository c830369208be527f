"""Typed work is not lost by leaving its page: Edit as text, the collection's pasted list, an import and
the card editor ask before a page holding text not yet saved is left (the browser's own "Leave site?"),
including the text a check showed back and nothing has saved. Checking or saving it is not leaving, and
an untouched page leaves without a word."""

from __future__ import annotations

import re

from playwright.sync_api import Dialog, Page, expect

from tests.web.browser.conftest import LiveServer, wait_until
from tests.web.browser.test_pages import make_deck


def asking(page: Page) -> list[str]:
    """The dialogs the page opens (each answered "stay"): a leave-page question is ``beforeunload``."""
    asked: list[str] = []

    def answer(dialog: Dialog) -> None:
        asked.append(dialog.type)
        dialog.dismiss()

    page.on("dialog", answer)
    return asked


def leave_and_stay(page: Page, asked: list[str], link: str) -> None:
    """Follow the link named ``link``; the page must ask, and (answered "stay") stays."""
    url = page.url
    asked.clear()
    page.get_by_role("link", name=link, exact=True).first.click()
    wait_until(page, lambda: asked == ["beforeunload"], f"the page asks before {link!r} leaves it")
    assert page.url == url


def test_edit_as_text_asks_before_typed_or_checked_lines_are_left(page: Page, live_server: LiveServer) -> None:
    deck_id, _ = make_deck(live_server, "mea", {"Crumb Goblin": 3})
    asked = asking(page)
    page.goto(f"/decks/{deck_id}/edit")
    page.locator("h1").click()  # a person's click: the browser asks only a page someone used
    page.get_by_role("link", name="Back to the deck").click()  # untouched: leaves without a word
    page.wait_for_url(re.compile(rf"/decks/{deck_id}$"))  # and loaded: no navigation in flight for the next goto
    assert asked == []
    page.goto(f"/decks/{deck_id}/edit")
    box = page.locator("#edit-box")
    box.click()
    box.press("Control+End")
    page.keyboard.type("\n4 Pep Talk\n")
    leave_and_stay(page, asked, "Back to the deck")
    expect(box).to_have_value(re.compile("4 Pep Talk"))
    asked.clear()
    page.locator("#edit-check").click()  # checking is not leaving
    expect(page.locator("#edit-save")).to_be_visible()
    assert asked == []
    page.locator("h1").click()
    leave_and_stay(page, asked, "Back to the deck")  # shown back by the check, not saved
    asked.clear()
    page.locator("#edit-save").click()  # saving is not leaving
    expect(page).to_have_url(re.compile(rf"/decks/{deck_id}(\?[^#]*)?(#.*)?$"))
    expect(page.locator("#deck-count")).to_have_text("7")
    assert asked == []


def test_the_collections_pasted_list_is_kept_until_saved(page: Page, live_server: LiveServer) -> None:
    asked = asking(page)
    page.goto("/collection")
    box = page.locator("#bulk-text")
    box.click()
    page.keyboard.type("2 Dizzy Bat\n")
    leave_and_stay(page, asked, "Decks")
    asked.clear()
    page.locator("#bulk-preview").click()  # the check: nothing written yet
    expect(page.locator("#bulk-confirm")).to_be_visible()
    assert asked == []
    page.locator("h1").click()
    leave_and_stay(page, asked, "Decks")
    asked.clear()
    page.locator("#bulk-confirm button").click()
    expect(page.locator("#flash")).to_contain_text("Saved")
    assert asked == []
    page.locator("h1").click()
    page.get_by_role("link", name="Decks", exact=True).first.click()  # saved: leaves without a word
    expect(page).to_have_url(re.compile(r"/decks$"))
    assert asked == []


def test_a_typed_import_and_the_card_editor_ask_before_they_are_left(page: Page, live_server: LiveServer) -> None:
    asked = asking(page)
    page.goto("/decks/import")
    page.locator("#deck-text").click()
    page.keyboard.type("game: mea\n3 Crumb Goblin\n")
    leave_and_stay(page, asked, "Decks")
    editor = page.context.new_page()  # this page would ask again before the editor's address replaced it
    asked = asking(editor)
    editor.goto("/cards/new?game=mea")
    editor.locator("#f-name").click()
    editor.keyboard.type("Walker of Paths")
    leave_and_stay(editor, asked, "Cards")
