"""What a new player's walkthrough of /decks found: a deck named as one already there ("Make deck", or a
rename) was refused on an error page ("Conflict 409", links to Cards · Decks · Home), and what had been
typed was gone. The decks page comes back with the refusal's status, the message at the form refused
and the typed name, game and players kept, so that one change makes it."""

from __future__ import annotations

import uuid

from playwright.sync_api import expect

from cardbase.decks.store import list_decks
from tests.web.browser.conftest import PHONE, ContextMaker, LiveServer
from tests.web.browser.test_pages import make_deck


def test_a_new_deck_named_as_one_there_is_refused_at_the_form_with_what_was_typed(
    new_context: ContextMaker, live_server: LiveServer
) -> None:
    _, taken = make_deck(live_server, "meio", {})
    page = new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    page.goto("/decks")
    page.locator("#new-name").fill(taken)
    page.locator("#new-game").select_option("meio")
    page.locator("#new-players").select_option("3")
    with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/decks")) as answer:
        page.get_by_role("button", name="Make deck").click()
    assert answer.value.status == 409
    error = page.locator("#new-deck").locator("xpath=preceding-sibling::p[@id='error']")
    expect(error).to_have_text(f"Invalid value for 'Name': a deck named '{taken}' already exists")
    expect(error).to_be_in_viewport()
    expect(page.locator("#new-name")).to_have_value(taken)
    expect(page.locator("#new-name")).to_be_focused()
    expect(page.locator("#new-game")).to_have_value("meio")
    expect(page.locator("#new-players")).to_have_value("3")
    page.locator("#new-name").fill(taken + " two")  # the one change, and the deck is made as chosen
    page.get_by_role("button", name="Make deck").click()
    expect(page.locator("h1")).to_contain_text(taken + " two")
    made = next(d for d in list_decks(live_server.database) if d["name"] == taken + " two")
    assert made["game"] == "meio" and made["players"] == 3


def test_a_rename_to_a_name_taken_is_refused_in_its_row_with_the_name_typed(
    new_context: ContextMaker, live_server: LiveServer
) -> None:
    deck_id, name = make_deck(live_server, "mea", {})
    _, taken = make_deck(live_server, "mea", {})
    page = new_context().new_page()
    page.goto("/decks")
    row = page.locator(f'tr[data-deck-id="{deck_id}"]')
    row.get_by_label(f"New name for {name}").fill(taken)
    row.get_by_role("button", name="Rename").click()
    row = page.locator(f'tr[data-deck-id="{deck_id}"]')
    expect(row.locator("#error")).to_contain_text(f"a deck named '{taken}' already exists")
    expect(row.get_by_label(f"New name for {name}")).to_have_value(taken)
    expect(page.locator("#error")).to_have_count(1)  # said once, in the row refused
    fresh = f"renamed {uuid.uuid4().hex[:6]}"
    row.get_by_label(f"New name for {name}").fill(fresh)
    row.get_by_role("button", name="Rename").click()
    expect(page.locator("#flash")).to_contain_text(f"Renamed to {fresh}")
    assert any(d["id"] == deck_id and d["name"] == fresh for d in list_decks(live_server.database))
