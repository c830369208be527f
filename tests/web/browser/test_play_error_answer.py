"""An answer to a move that is not the table (the server's error page) is said at the table's top, the
table kept. Found on a walk through a Meikyu game: a move answered by "Internal error 500" put the whole
error page inside the table — a second site header, a second footer, the board and the forms gone."""

from __future__ import annotations

import httpx
from playwright.sync_api import Route, expect

from tests.web.browser.conftest import PHONE, ContextMaker, LiveServer
from tests.web.browser.test_play_boards import create, open_link

TYPED = "#typed input[name=action]"


def test_an_error_page_answering_a_move_is_said_above_the_table_kept(
    new_context: ContextMaker, live_server: LiveServer
) -> None:
    made = create(live_server, {"game": "meio", "players": 2, "seats": [{"agent": "human"}] * 2, "seed": 3})
    with httpx.Client(base_url=live_server.url, timeout=60) as http:
        error_page = http.get("/cards/meio/standard/no-such-card")  # the server's own error page (error.html)
    assert error_page.status_code == 404 and 'id="table"' not in error_page.text
    page = new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    open_link(page, made["seats"][0]["url"], live_server.url)
    version = page.locator("#table").get_attribute("data-version")

    def fail(route: Route) -> None:  # the move is answered by an error page, as a crash's 500 is
        route.fulfill(status=500, content_type="text/html; charset=utf-8", body=error_page.text)

    page.route("**/play/*/act", fail)
    page.locator(TYPED).fill("play 2C")
    page.locator(TYPED).press("Enter")
    said = page.locator("#table > #error")
    expect(said).to_be_visible()
    expect(said).to_have_text(
        page.evaluate(
            "t => new DOMParser().parseFromString(t, 'text/html').getElementById('error').textContent.trim()",
            error_page.text,
        )
    )
    expect(said).to_be_in_viewport()
    expect(page.locator("header.top")).to_have_count(1)  # no page inside the page
    expect(page.locator("#table footer.bottom, #table main, #table nav")).to_have_count(0)
    expect(page.locator("#table section.game-board")).to_be_visible()  # the table as it was
    expect(page.locator("#table")).to_have_attribute("data-version", version or "")
    expect(page.locator("#typed button[type=submit]")).to_be_enabled()  # the form takes the next try
    page.unroute("**/play/*/act")
    page.locator(TYPED).fill("play the moon")  # and a real refusal still reads as ever
    page.locator("#typed button[type=submit]").click()
    expect(page.locator("#error")).to_contain_text("not an action")
    expect(page.locator("#error")).to_have_count(1)
