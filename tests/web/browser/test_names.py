"""Card names in narrow boxes (a phone's hand and board, the builder's grid) keep their words whole:
a word longer than its box is set smaller rather than broken mid-word ("Pickpocke/t Ferret")."""

from __future__ import annotations

import contextlib

import httpx
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.web.browser.conftest import LAPTOP, PHONE, TIMEOUT_MS, ContextMaker, LiveServer
from tests.web.browser.test_pages import make_deck

BROKEN_WORDS = """(selector) => {
  const out = [];
  for (const el of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    let node;
    while ((node = walker.nextNode())) {
      const words = /[^\\s\\-\\u2010-\\u2014\\/]+/g;  // a break after a hyphen is a break between words
      let m;
      while ((m = words.exec(node.textContent))) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        const box = node.parentElement;
        if (lines.size > 1) out.push(`${m[0]} in .${box.className} (${box.clientWidth} px)`);
      }
    }
  }
  return out;
}"""
NAMES = ".card-name, .placeholder, .face-name, .mon-name, .hand-name"
LONG = {"Royal Cartographer": 10, "Pickpocket Ferret": 10, "Dragon of Mild Inconvenience": 2}


WORDS = {word for name in LONG for word in name.split()}


def broken(page: Page) -> list[str]:
    """The words of these tests' cards broken across lines (the live server's catalog is shared: another
    test's card, such as the hostile tests' one-word markup, may be in the gallery, and a word wider than
    its box at the smallest size breaks, as it must).

    The page fits its names on the animation frame after a change (a table swapped in, a face loaded):
    this waits, up to an ``expect``'s bound, for no word to be broken, then reads what still is."""
    ours = f"(s) => ({BROKEN_WORDS})(s).filter((hit) => {sorted(WORDS)!r}.includes(hit.split(' in .')[0]))"
    with contextlib.suppress(PlaywrightTimeoutError):  # still broken: the list says where
        page.wait_for_function(f"(selector) => ({ours})(selector).length === 0", arg=NAMES, timeout=TIMEOUT_MS)
    return [hit for hit in page.evaluate(BROKEN_WORDS, NAMES) if hit.split(" in .", 1)[0] in WORDS]


def test_the_builders_grid_keeps_long_words_whole_on_a_phone(
    new_context: ContextMaker, live_server: LiveServer
) -> None:
    deck_id, _ = make_deck(live_server, "mea", LONG)
    page = new_context(viewport=PHONE).new_page()
    page.goto(f"/decks/{deck_id}?q=cartographer+or+pickpocket+or+inconvenience")
    expect(page.locator("#results .card-name")).to_have_count(3)
    page.wait_for_load_state("networkidle")
    assert broken(page) == []
    page.goto(f"/decks/{deck_id}?layout=visual#deck-panel")
    page.wait_for_load_state("networkidle")
    assert broken(page) == []
    laptop = new_context(viewport=LAPTOP).new_page()  # the deck's faces, laid out after the names are read
    laptop.goto(f"/decks/{deck_id}?layout=visual")
    laptop.wait_for_load_state("networkidle")
    expect(laptop.locator("#deck .placeholder").first).to_be_visible()
    assert broken(laptop) == []


def test_a_phones_hand_and_board_keep_long_words_whole(new_context: ContextMaker, live_server: LiveServer) -> None:
    deck = "".join(f"{n} {name}\n" for name, n in LONG.items())
    body = {"game": "mea", "seats": [{"agent": "human"}, {"agent": "heuristic"}], "seed": 1}
    with httpx.Client(base_url=live_server.url, timeout=60) as http:
        made = http.post("/api/games", json={**body, "decks": [{"text": deck}, {"text": deck}]}).json()
    page = new_context(viewport=PHONE).new_page()
    page.goto(made["seats"][0]["url"].split(live_server.url, 1)[1])
    page.wait_for_url(lambda url: "key=" not in url)
    expect(page.locator("#status")).to_contain_text("Your move")
    before = page.locator("#table").get_attribute("data-version")
    page.get_by_role("button", name="draw 5", exact=True).click()  # the opening hand: names in the hand
    expect(page.locator("#table")).not_to_have_attribute("data-version", str(before))
    expect(page.locator(".face-name").first).to_be_visible()
    assert broken(page) == []
    before = page.locator("#table").get_attribute("data-version")
    page.locator('#board [data-key="card:Royal Cartographer"]').first.click()  # summoned: a name on the board
    page.locator("#board .target").first.click()
    expect(page.locator("#table")).not_to_have_attribute("data-version", str(before))
    expect(page.locator(".mon-name", has_text="Royal Cartographer").first).to_be_visible()
    assert broken(page) == []
