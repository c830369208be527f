"""What a new player's walkthrough at a phone's width (390 px) found: controls a finger aims at that
were smaller than 40 px — the folds ("Filters and order", a table's "players and the rules", a
problem's cards: 22-24 px tall), the gallery's Grid/Table switch (32 px), the pager (24 px), the
header's links (34 px), the game tabs of /play, Meikyu's −/+ steppers and the deck list's (35 px),
"Edit as text" (21 px) and the builder's panel folds: a ▸ 14 px wide, the heading beside it not a
target at all. Every control on
the pages of that walk is at least 40 px each way, measured in Chromium."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from tests.web.browser.conftest import PHONE, ContextMaker, LiveServer
from tests.web.browser.screens import kinds, seat_at
from tests.web.browser.test_pages import make_deck
from tests.web.browser.test_play_boards import open_link

MIN_TARGET = 40  # px each way, at a phone's width
SMALL_TARGETS = """min => {
  // a control: a button, a field, a fold's summary, or a link laid out as a box of its own (a nav's, a
  // tab's, the pager's); a link inside a line of text is read there, not aimed at, and a checkbox in
  // its label is aimed at through the label's box
  const controls = 'button, select, textarea, input:not([type=hidden]), summary, a[href]';
  const small = [];
  for (const el of document.querySelectorAll(controls)) {
    if (!el.checkVisibility({checkVisibilityCSS: true})) continue;  // not shown (a closed fold's content too)
    const r = el.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1 || r.bottom <= 0 || r.right <= 0) continue;  // a skip link, off-screen
    if (el.tagName === 'A' && getComputedStyle(el).display === 'inline') continue;
    if (el.matches('input[type=checkbox], input[type=radio]') && el.closest('label')) continue;
    if (r.width < min || r.height < min) {
      const words = (el.getAttribute('aria-label') || el.textContent || el.value || el.name || '').trim();
      small.push(`${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''} "${words.slice(0, 30)}" `
        + `${Math.round(r.width)}x${Math.round(r.height)}`);
    }
  }
  return small;
}"""


def small_targets(page: Page) -> list[str]:
    found: list[str] = page.evaluate(SMALL_TARGETS, MIN_TARGET)
    return found


def test_every_control_of_a_new_players_walk_is_a_finger_wide_on_a_phone(
    new_context: ContextMaker, live_server: LiveServer
) -> None:
    deck_id, _ = make_deck(live_server, "mea", {"Crumb Goblin": 3, "Dizzy Bat": 2, "Pep Talk": 2})
    meikyu = {"game": "meikyu", "players": 3, "assume": "default", "seed": 7}
    meikyu["seats"] = [{"agent": "human"}, {"agent": "heuristic"}, {"agent": "heuristic"}]
    composing, _ = seat_at(live_server, meikyu, lambda s: "quest" in kinds(s))
    paths = [
        "/",
        "/cards",  # the pager: more than a page of cards
        "/decks",
        f"/decks/{deck_id}?q=goblin",
        *(f"/play?game={game}" for game in ("mea", "meio", "meikyu")),
    ]
    page = new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    found: dict[str, list[str]] = {}
    for path in paths:
        page.goto(path)
        expect(page.locator("main")).to_be_visible()
        found[path] = small_targets(page)
    page.goto(f"/decks/{deck_id}")
    page.locator("#tab-deck").tap()  # the deck's tab: its list's −/+, "Edit as text", the panels' folds
    expect(page.locator("#deck-panel")).to_be_visible()
    found["the builder's Deck tab"] = small_targets(page)
    page.locator("#stats h2").tap(position={"x": 150, "y": 15})  # its words, not the ▸: the fold opens
    expect(page.locator("#stats svg#curve")).to_be_visible()
    found["the builder's Deck tab, Stats open"] = small_targets(page)
    open_link(page, composing, live_server.url)
    expect(page.locator("#board .stepper button").first).to_be_visible()  # Meikyu's composer: its −/+
    found["Meikyu's table"] = small_targets(page)
    small: dict[str, Any] = {path: targets for path, targets in found.items() if targets}
    assert not small, f"controls under {MIN_TARGET} px at 390 px: {small}"
