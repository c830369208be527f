"""What a walkthrough of a two-person game found: the page that gives each seat its link ("shown once")
had the links as text only; to send P2 theirs, a player had to select a long address by hand (on a phone,
by dragging over a wrapped line). Each link has a Copy button, as the deck's share code has: one
mechanism (``data-copy``) for both."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.web.browser.conftest import PHONE, ContextMaker


def test_each_seats_link_is_copied_with_one_tap(new_context: ContextMaker) -> None:
    context = new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto("/play?game=meio")
    page.locator("select[name=seat1]").select_option("human")  # two people, one agent
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator("#seat-links li")).to_have_count(2)
    for seat in (1, 0):
        link = page.locator(f"#seat-link-{seat}")
        page.get_by_role("button", name=f"Copy P{seat + 1}'s link").tap()
        expect(page.locator(f"#seat-link-{seat}-status")).to_have_text("Copied.")
        assert page.evaluate("navigator.clipboard.readText()") == link.get_attribute("href")
    page.get_by_role("button", name="Copy the spectators' link").tap()
    expect(page.locator("#spectator-link-status")).to_have_text("Copied.")
    assert page.evaluate("navigator.clipboard.readText()") == page.locator("#spectator-link").get_attribute("href")
    other = new_context().new_page()  # P2's own browser, from what was copied
    other.goto(page.locator("#seat-link-1").get_attribute("href") or "")
    expect(other.locator("#status")).to_contain_text("You are P2.")
