"""The screenshot tool's wait for a page's first screen (tests/web/browser/screens.py): it waits for
the card images a visitor sees, and ends on a page whose other images are never drawn."""

from __future__ import annotations

from playwright.sync_api import Page, Route, expect

from tests.web.browser.conftest import wait_until
from tests.web.browser.screens import PENDING_IMAGES, first_screen_drawn
from tests.web.browser.test_preview_replay import open_record

FOLDED = "#step-body details.last-trick:not([open])"


def open_folded_last_trick(page: Page, record_path) -> None:  # type: ignore[no-untyped-def]
    """The Meio replay at a step of a trick in progress, its last trick folded (a closed <details>
    whose lazy faces are laid out on the screen but never drawn, so never fetched)."""
    url = open_record(page, record_path)
    length = int(page.locator("#replay-controls").get_attribute("data-length") or "0")
    # found by its HTML, not by showing the steps: a face shown before comes from the browser's cache
    steps = (f"{url}?step={step}&seat=0" for step in range(length // 2, length))
    found = next((u for u in steps if '<details class="last-trick"><summary>' in page.request.get(u).text()), None)
    assert found, "no step of the Meio record shows a folded last trick"
    page.goto(found)
    expect(page.locator(f"{FOLDED} img").first).to_be_attached()
    page.locator(FOLDED).scroll_into_view_if_needed()


def test_the_wait_ends_on_a_meio_replay_whose_last_trick_is_folded(page: Page, sim_records) -> None:
    """The tool hung 30 s and died on the Meio replay: it waited for the folded trick's faces, which
    have a box on the screen but are never fetched."""
    open_folded_last_trick(page, sim_records["meio"])
    folded = page.locator(f"{FOLDED} img")
    boxes = [folded.nth(i).bounding_box() for i in range(folded.count())]
    assert all(box and box["y"] + box["height"] > 0 and box["y"] < 800 for box in boxes)  # on the first screen
    assert not any(folded.evaluate_all("imgs => imgs.map((i) => i.complete)"))  # and never loaded
    assert page.evaluate(PENDING_IMAGES) == []
    assert first_screen_drawn(page)


def test_the_wait_still_waits_for_a_face_the_visitor_sees(page: Page, sim_records) -> None:
    """The trick unfolded: its faces are drawn, and the wait holds until they have arrived."""
    open_folded_last_trick(page, sim_records["meio"])
    held: list[Route] = []
    page.route("**/image.png*", lambda route: held.append(route))
    page.locator(f"{FOLDED} summary").click()
    wait_until(page, lambda: bool(held), "the unfolded trick's faces asked for")
    pending = page.evaluate(PENDING_IMAGES)
    assert pending and all("/image.png" in src for src in pending)
    assert not first_screen_drawn(page, timeout_ms=500)  # held: not drawn (the wait gives up, saying so)
    for route in held:
        route.continue_()
    page.unroute("**/image.png*")
    assert first_screen_drawn(page)
    expect(page.locator("#step-body details.last-trick[open] img").first).to_be_visible()
