"""What players noticed at the table of ``/play`` (task h-ui3): the picking bar covers nothing a
player needs, Undo is offered only when the table would take the action back, and the players
list's marker of the seat to move sits clear of its summary's triangle."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.web.browser.conftest import LAPTOP, PHONE, ContextMaker, LiveServer
from tests.web.browser.test_play_boards import create, hall, open_link, table_version, wait_table
from tests.web.play_helpers import mea_decks


def test_undo_is_not_offered_after_a_draw_the_table_would_not_take_back(
    new_context: ContextMaker, live_server: LiveServer
) -> None:
    made = create(live_server, {"game": "mea", "seats": [{"agent": "human"}] * 2, "decks": mea_decks(), "seed": 4})
    page = new_context().new_page()
    open_link(page, made["seats"][0]["url"], live_server.url)
    expect(page.locator("#status")).to_contain_text("Your move")
    version = table_version(page)
    page.locator("#table button.plain-act", has_text="draw").first.click()  # the opening hand: cards shown to P1
    wait_table(page, version + 1)
    with hall(live_server).get(made["id"]).table.lock:
        refusal = hall(live_server).get(made["id"]).table.undo_refusal(0)
    assert refusal is not None  # the table refuses it ...
    expect(page.locator("#undo")).to_have_count(0)  # ... so the page does not offer it
