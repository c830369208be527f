"""The deck builder by keyboard: the deck's list is a few Tabs from the top, not past every card of the
search's results (76 cards: over 150 Tabs). A "Skip to the deck" link, shown when focused, is the first
stop of the builder; followed, the next Tab is the deck's first control. On a phone it opens the Deck tab."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.web.browser.conftest import PHONE, ContextMaker, LiveServer
from tests.web.browser.test_pages import make_deck


def tab_to(page: Page, selector: str, most: int = 20) -> int:
    """Press Tab from the page's top until ``selector`` has the focus; how many presses it took."""
    for presses in range(1, most + 1):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement === document.querySelector(s)", selector):
            return presses
    raise AssertionError(f"{selector} is not within {most} Tabs of the page's top")


def test_the_deck_is_a_few_tabs_from_the_top_on_a_laptop_and_a_phone(
    new_context: ContextMaker, live_server: LiveServer
) -> None:
    deck_id, _ = make_deck(live_server, "mea", {"Crumb Goblin": 3, "Dizzy Bat": 2})
    for viewport in ({"width": 1366, "height": 800}, PHONE):
        page = new_context(viewport=viewport).new_page()
        page.goto(f"/decks/{deck_id}")
        expect(page.locator("#results [data-card-id]").first).to_be_visible()
        tab_to(page, "#skip-deck")
        skip = page.locator("#skip-deck")
        expect(skip).to_be_visible()  # shown when focused
        expect(skip).to_have_text("Skip to the deck")
        box = skip.bounding_box()
        assert box and box["y"] >= 0 and box["x"] >= 0
        page.keyboard.press("Enter")
        page.keyboard.press("Tab")
        expect(page.locator("#list-group")).to_be_focused()
        if viewport == PHONE:
            expect(page.locator("#tab-deck")).to_have_attribute("aria-selected", "true")
        page.keyboard.press("Shift+Tab")
        page.locator("body").click(position={"x": 5, "y": 300})
        box = page.locator("#skip-deck").bounding_box()
        assert box is None or box["x"] + box["width"] <= 0  # out of sight when not focused
        page.context.close()


def test_a_panel_linked_to_on_a_phone_starts_below_the_tabs_not_under_them(
    new_context: ContextMaker, live_server: LiveServer
) -> None:
    """A link to a panel (#stats from another page, the skip link) scrolls its heading into view under
    the phone's sticky Search/Deck tabs, which covered it ('Collection: 6 missing' hidden)."""
    deck_id, _ = make_deck(live_server, "mea", {"Crumb Goblin": 3, "Dizzy Bat": 2})
    page = new_context(viewport=PHONE).new_page()

    def below_tabs(heading: str) -> None:
        tabs = page.locator("#builder-tabs").bounding_box()
        box = page.locator(heading).bounding_box()
        assert tabs and box and abs(tabs["y"]) < 1, (tabs, box)  # the page was scrolled: the tabs stuck at the top
        assert box["y"] >= tabs["y"] + tabs["height"], (heading, box, tabs)

    page.goto(f"/decks/{deck_id}#stats")
    expect(page.locator("#stats-h")).to_be_visible()
    below_tabs("#stats-h")
    page.goto(f"/decks/{deck_id}")
    page.locator("#skip-deck").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#deck-h")).to_be_visible()
    below_tabs("#deck-h")
