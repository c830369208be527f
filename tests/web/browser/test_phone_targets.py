"""On a phone (390 px) every control a player taps is a finger's size, at least 40 px each way: the
header's links, a fold's summary, the game tabs, breadcrumbs, the catalog's links to what is unknown.
A link in a sentence is exempt (its line is the sentence's): it is tapped where it is read."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image
from playwright.sync_api import Page, expect

from tests.web.browser.conftest import PHONE, ContextMaker
from tests.web.browser.test_play import start
from tests.web.browser.test_preview_replay import open_record

FINGER = 40  # px: the smallest tap target, each way

# The visible controls smaller than FINGER each way, but for links inside a sentence (the text around
# them, links taken out, has words) and what is off the screen on purpose (the skip link, until focused).
SMALL_TARGETS = """(finger) => {
  const small = [];
  for (const e of document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary')) {
    if (!e.checkVisibility({visibilityProperty: true})) continue;
    const r = (e.type === 'checkbox' || e.type === 'radio') && e.closest('label')
      ? e.closest('label').getBoundingClientRect() : e.getBoundingClientRect();
    if (r.width <= 1 || r.right <= 0 || r.bottom + scrollY <= 0) continue;
    if (r.width >= finger - 0.5 && r.height >= finger - 0.5) continue;
    if (e.tagName === 'A' && getComputedStyle(e).display === 'inline') {
      let block = e.parentElement;
      while (block && getComputedStyle(block).display.startsWith('inline')) block = block.parentElement;
      const prose = block.cloneNode(true);
      prose.querySelectorAll('a').forEach((a) => a.remove());
      if (/[A-Za-z]{2,}/.test(prose.textContent)) continue;
    }
    const words = (e.innerText || e.value || e.getAttribute('aria-label') || '').trim().slice(0, 40);
    small.push(`${e.tagName.toLowerCase()} "${words}" ${Math.round(r.width)}x${Math.round(r.height)}`);
  }
  return small;
}"""


def small_targets(page: Page) -> list[str]:
    page.wait_for_load_state("load")
    return list(page.evaluate(SMALL_TARGETS, FINGER))


@pytest.fixture
def phone(new_context: ContextMaker) -> Page:
    return new_context(viewport=PHONE).new_page()


@pytest.mark.parametrize(
    "path",
    [
        "/catalog",
        "/collection",
        "/cards/new?game=mea",
        "/cards/mea/demo/crumb-goblin/edit",
        "/cards/mea/demo/crumb-goblin/history",
        "/cards/mea/demo/crumb-goblin",
        "/cards?q=game:meikyu&view=table",
        "/cards?q=game:mea",
    ],
)
def test_the_owners_pages_have_finger_sized_targets(phone: Page, path: str) -> None:
    phone.goto(path)
    expect(phone.locator("h1")).to_be_visible()
    assert (small := small_targets(phone)) == [], small


@pytest.mark.parametrize("game", ["meio", "mea", "meikyu"])
def test_the_start_form_and_the_table_have_finger_sized_targets(phone: Page, game: str) -> None:
    phone.goto(f"/play?game={game}")
    assert (small := small_targets(phone)) == [], small
    seats = {0: "human", 1: "heuristic", 2: "heuristic"} if game != "mea" else {0: "human", 1: "heuristic"}
    start(phone, game, len(seats), seats)
    expect(phone.locator("#table-info > summary")).to_be_visible()  # the fold of the players and rules
    assert (small := small_targets(phone)) == [], small


@pytest.mark.parametrize("game_id", ["mea", "meio", "meikyu"])
def test_a_replay_has_finger_sized_targets(phone: Page, sim_records: dict[str, Any], game_id: str) -> None:
    """At the last step as everything: the folds of the cards out of play, the piles, the last trick."""
    url = open_record(phone, sim_records[game_id])
    length = phone.locator("#replay-controls").get_attribute("data-length")
    phone.goto(f"{url}?step={length}&seat=all")
    expect(phone.locator("#step-body summary").first).to_be_attached()
    assert (small := small_targets(phone)) == [], small


def test_the_meio_split_pickers_heading_sits_inside_its_panel(phone: Page) -> None:
    """The picker's heading (a fieldset's legend) wrapped to three lines on a phone and stood across the
    panel's top edge, half on the board's wash: it is read inside the white panel, every line of it."""
    start(phone, "meio", 3, {0: "human", 1: "heuristic", 2: "heuristic"})
    legend = phone.locator(".split-picker legend")
    expect(legend).to_be_visible()
    legend.scroll_into_view_if_needed()
    box, panel = legend.bounding_box(), phone.locator(".split-picker").bounding_box()
    assert box and panel and box["height"] > 40, box  # wrapped: more than a line
    # the colour drawn under the heading's first and last line, left of its words: the panel's white
    under = [drawn(phone, panel["x"] + 3, y) for y in (box["y"] + 3, box["y"] + box["height"] - 3)]
    assert under == [(255, 255, 255), (255, 255, 255)], under


def drawn(page: Page, x: float, y: float) -> tuple[int, int, int]:
    """The colour of the pixel at (x, y) of the viewport, as the browser draws it."""
    shot = Image.open(io.BytesIO(page.screenshot(clip={"x": x, "y": y, "width": 1, "height": 1})))
    red, green, blue = shot.convert("RGB").getpixel((0, 0))  # type: ignore[misc]
    return red, green, blue


@pytest.mark.parametrize("game_id", ["meio", "meikyu"])
def test_a_replays_step_bar_covers_none_of_the_page_at_its_end(
    phone: Page, sim_records: dict[str, Any], game_id: str
) -> None:
    """On a phone the steps are a bar fixed at the screen's foot: scrolled to the end, the page's last
    lines (the footer's "? = unknown") sat under it, and no scrolling showed them."""
    open_record(phone, sim_records[game_id])
    phone.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    bar = phone.locator("#replay-controls")
    expect(bar).to_be_in_viewport()
    wait_for_scroll_end(phone)
    top = bar.evaluate("b => b.getBoundingClientRect().top")
    for last in (".replay-foot", "footer.bottom"):
        bottom = phone.locator(last).evaluate("e => e.getBoundingClientRect().bottom")
        assert bottom <= top + 0.5, f"{last} ends at {bottom}, under the bar from {top}"


def wait_for_scroll_end(page: Page) -> None:
    page.wait_for_function("() => Math.ceil(scrollY + innerHeight) >= document.documentElement.scrollHeight - 1")
