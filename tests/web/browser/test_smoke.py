"""The live server and the browser work at all: the home page and /healthz."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.web.browser.conftest import LiveServer


def test_home_page_loads_with_named_navigation(page: Page, live_server: LiveServer) -> None:
    response = page.goto("/")
    assert response is not None and response.status == 200
    expect(page).to_have_title(re.compile("cardbase"))
    nav = page.get_by_role("navigation", name="Main")
    expect(nav).to_be_visible()
    for name, href in (("Cards", "/cards"), ("Decks", "/decks"), ("Import", "/decks/import"), ("Catalog", "/catalog")):
        expect(nav.get_by_role("link", name=name, exact=True)).to_have_attribute("href", href)


def test_healthz_answers_ok(page: Page) -> None:
    response = page.request.get("/healthz")
    assert response.status == 200
    assert response.json() == {"status": "ok"}
