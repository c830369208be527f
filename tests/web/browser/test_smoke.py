"""The live server and the browser work at all: the home page and /healthz."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.web.browser.conftest import LiveServer


def test_home_page_loads_with_named_navigation(page: Page, live_server: LiveServer) -> None:
    response = page.goto("/")
    assert response is not None and response.status == 200
    expect(page).to_have_title("cardbase")
    expect(page.get_by_role("navigation", name="Main")).to_be_visible()
    expect(page.get_by_role("link", name="cardbase")).to_have_attribute("href", "/")


def test_healthz_answers_ok(page: Page) -> None:
    response = page.request.get("/healthz")
    assert response.status == 200
    assert response.json() == {"status": "ok"}
