"""What players noticed in the deck builder (task h-ui3): quick adds of one card make one history
line, and a Meikyu deck short of cards the catalog does not hold says what is missing."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.web.browser.conftest import LiveServer
from tests.web.browser.test_pages import make_deck

RULEBOOK_LANDS = [
    "Den of the Geister", "Nest of the Ogrekin", "Room of the Money Eater", "Workshop of the Dwarves",
    "Stage of the Airt Piper", "Tunnel of the Valaraukar", "Altar of the Nightingale", "Forest of the Manitou",
    "Storehouse of the Demonic Steel", "Mansion of the Lamia", "Dojo of the Rust Samurai", "Graveyard of the Vampire",
    "Spring of the Mayonnaise King", "Archives of the Dungeon Geek", "Castle of the Tyrant", "Cave of the Dragon",
]  # fmt: skip


def test_a_meikyu_deck_short_of_lands_the_catalog_lacks_says_what_is_missing(
    page: Page, live_server: LiveServer
) -> None:
    deck_id, _ = make_deck(live_server, "meikyu", dict.fromkeys(RULEBOOK_LANDS, 1))
    page.goto(f"/decks/{deck_id}")
    lands = page.locator("#validation li.problem", has_text="16 land cards")
    expect(lands).to_contain_text("standard needs 32")
    expect(lands).to_contain_text("the catalog has only 16 land cards")  # not a bare "add 16"
    short = page.locator('#validation li.problem[data-code="catalog-short"]')
    expect(short).to_have_count(1)
    expect(short.locator("a.hint-link")).to_have_attribute("href", "/catalog#imp-h")  # a page, not a command
    expect(short).not_to_contain_text("cardbase catalog import")


def test_quick_adds_of_one_card_are_one_history_line_and_restore_goes_by_the_lines(
    page: Page, live_server: LiveServer
) -> None:
    """Five quick "+ Add" clicks of one card make one line, "+5 Pep Talk" (Moxfield's way); a change
    to another card is a line of its own; restoring the line before the burst takes all five back
    (undo), restoring the burst's line gives them again (redo)."""
    deck_id, _ = make_deck(live_server, "mea", {"Crumb Goblin": 2, "Dizzy Bat": 1})
    page.goto(f"/decks/{deck_id}")
    version = int(page.get_attribute("#panels", "data-version") or 0)
    page.fill("#q", "Pep Talk")
    add = '#results [data-card-id="mea/demo/pep-talk"] form.add-form button'
    expect(page.locator(add)).to_have_count(1)
    for _ in range(5):
        page.locator(add).click()
        version += 1
        expect(page.locator("#panels")).to_have_attribute("data-version", str(version))
    lines = page.locator("#recent-versions li")
    expect(lines.first).to_contain_text("+5 Pep Talk")
    expect(page.locator("#recent-versions li", has_text="Pep Talk")).to_have_count(1)
    page.locator('#deck li[data-card-id="mea/demo/dizzy-bat"] button.inc').click()  # another card: its own line
    version += 1
    expect(page.locator("#panels")).to_have_attribute("data-version", str(version))
    expect(lines.first).to_contain_text("+1 Dizzy Bat")
    expect(lines.nth(1)).to_contain_text("+5 Pep Talk")

    page.goto(f"/decks/{deck_id}/history")
    rows = page.locator("#versions tbody tr")
    expect(rows.nth(1)).to_contain_text("+5 Pep Talk")
    rows.nth(2).locator("button.restore").click()  # the line before the burst: undo all five (and the bat)
    expect(page.locator("#flash")).to_be_visible()
    page.goto(f"/decks/{deck_id}")
    expect(page.locator('#deck li[data-card-id="mea/demo/pep-talk"]')).to_have_count(0)
    page.goto(f"/decks/{deck_id}/history")
    page.locator("#versions tbody tr", has_text="+5 Pep Talk").locator("button.restore").click()  # redo the burst
    expect(page.locator("#flash")).to_be_visible()
    page.goto(f"/decks/{deck_id}")
    expect(page.locator('#deck li[data-card-id="mea/demo/pep-talk"] .count')).to_have_text("5")


def test_the_rulebook_decks_unknown_values_are_one_short_warning_with_the_list_folded(
    page: Page, live_server: LiveServer
) -> None:
    """The Meikyu rulebook deck's warnings were two long paragraphs, one naming card after card: the
    unknown values are one short line with the count, their cards in a details element (Scryfall's and
    Moxfield's long lists of issues), each linked to its card."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[3] / "examples/decks/meikyu-rulebook-cards.txt").read_text()
    cards = {}
    for line in text.splitlines():
        count, _, name = line.partition(" ")
        if count.isdigit():
            cards[name.strip()] = int(count)
    deck_id, _ = make_deck(live_server, "meikyu", cards)
    page.goto(f"/decks/{deck_id}")
    unknown = page.locator('#validation li.problem[data-code="unknown-stats"]')
    expect(unknown).to_have_count(1)
    fold = unknown.locator("details")
    expect(fold.locator("summary")).to_contain_text("31 cards")
    assert fold.get_attribute("open") is None
    expect(fold.locator("li a")).to_have_count(31)
    expect(unknown.locator("a:not(.hint-link):visible")).to_have_count(0)  # no card named until the list is opened
    expect(unknown.locator("a.hint-link")).to_have_attribute("href", "/catalog#imp-h")  # the hint: a page, no command
    assert len(unknown.inner_text()) < 260, unknown.inner_text()
    fold.locator("summary").click()
    expect(fold.locator("li a", has_text="Bee")).to_be_visible()
    short = page.locator('#validation li.problem[data-code="catalog-short"]')
    assert len(short.inner_text()) < 200, short.inner_text()
