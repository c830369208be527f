"""A request the server does not answer (offline, stopped, a proxy's error page) is said on the page,
never a silent nothing: the deck builder's changes and views, and the gallery's search as you type.
What the page shows stays what the deck is (a view's choice that did not arrive is put back)."""

from __future__ import annotations

from playwright.sync_api import Page, Route, expect

from tests.web.browser.conftest import PHONE, ContextMaker, LiveServer
from tests.web.browser.test_pages import make_deck

UNANSWERED = "did not answer"


def proxy_error(route: Route) -> None:
    """What a proxy in front of a stopped server answers: an error page that is not the app's."""
    route.fulfill(status=502, content_type="text/html", body="<html><body><h1>Bad Gateway</h1></body></html>")


def test_a_view_the_server_does_not_answer_is_said_and_the_choice_put_back(page: Page, live_server: LiveServer) -> None:
    deck_id, _ = make_deck(live_server, "mea", {"Crumb Goblin": 3, "Dizzy Bat": 2})
    page.goto(f"/decks/{deck_id}?group=type&sort=name&layout=list")
    page.route("**/decks/*?fragment=panels*", lambda route: route.abort())
    page.locator("#list-group").select_option("cost")
    expect(page.locator("#action-error")).to_contain_text(UNANSWERED)
    expect(page.locator("#list-group")).to_have_value("type")  # the list shown is still by type
    expect(page.locator("#deck")).to_have_attribute("data-group", "type")
    page.route("**/decks/*?fragment=panels*", proxy_error)
    page.locator("#list-sort").select_option("count")
    expect(page.locator("#action-error")).to_contain_text(UNANSWERED)
    expect(page.locator("#list-sort")).to_have_value("name")
    page.unroute("**/decks/*?fragment=panels*")
    page.locator("#list-group").select_option("cost")  # answered again: shown, the word gone
    expect(page.locator("#deck")).to_have_attribute("data-group", "cost")
    expect(page.locator("#action-error")).to_have_count(0)


def test_a_change_answered_by_an_error_page_is_said_on_a_laptop_and_in_the_phones_bar(
    new_context: ContextMaker, live_server: LiveServer
) -> None:
    for viewport in ({"width": 1366, "height": 800}, PHONE):
        deck_id, _ = make_deck(live_server, "mea", {"Crumb Goblin": 3})
        page = new_context(viewport=viewport).new_page()
        page.goto(f"/decks/{deck_id}")
        page.route("**/decks/*/cards*", proxy_error)
        page.locator("#results form.add-form button").first.click()
        expect(page.locator("#action-error")).to_contain_text("not saved")
        expect(page.locator("#bar-note")).to_contain_text("not saved")
        expect(page.locator("#deck-count")).to_have_text("3")
        page.unroute("**/decks/*/cards*")
        page.locator("#results form.add-form button").first.click()  # answered: the word goes
        expect(page.locator("#deck-count")).to_have_text("4")
        expect(page.locator("#action-error")).to_have_count(0)
        expect(page.locator("#bar-note")).to_have_text("")
        page.context.close()


def test_a_search_as_you_type_the_server_does_not_answer_is_said(page: Page, live_server: LiveServer) -> None:
    page.goto("/cards?game=mea")
    shown = page.locator("#results [data-card-id]").count()
    page.route("**/cards?fragment=1*", lambda route: route.abort())
    page.locator("#q").fill("goblin")
    expect(page.locator("#search-unanswered")).to_contain_text(UNANSWERED)
    assert page.locator("#results [data-card-id]").count() == shown  # the last results, said to be
    page.route("**/cards?fragment=1*", proxy_error)
    page.locator("#q").fill("goblins")
    expect(page.locator("#search-unanswered")).to_contain_text(UNANSWERED)
    page.unroute("**/cards?fragment=1*")
    page.locator("#q").fill("goblin")
    expect(page.locator("#results [data-card-id]")).to_have_count(3)
    expect(page.locator("#search-unanswered")).to_have_count(0)
