"""Imported values stay text in the browser: a card named like markup runs nothing on any page.

The page tests check the HTML the server sends; this checks what the browser does with it, including
what the scripts insert live (results, panels, the add error), where an ``innerHTML`` of a JSON field
would run it.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect
from typer.testing import CliRunner

from cardbase.cli.app import app as cli_app
from tests.web.browser.conftest import LiveServer
from tests.web.browser.test_pages import make_deck

HOSTILE = "<img src=x onerror=window.__xss=1>"
CARD_ID = "mea/hostile/img-src-x-onerror-window-xss-1"


def import_hostile_card(live: LiveServer, folder: Path) -> None:
    sheet = folder / "hostile.csv"
    sheet.write_text(f'name,type,cost,attack,defence,set\n"{HOSTILE}",monster,1,1,1,hostile\n', encoding="utf-8")
    made = CliRunner().invoke(cli_app, ["catalog", "import", str(sheet), "--game", "mea", "--db", live.db_url])
    assert made.exit_code == 0, made.output


def assert_inert(page: Page) -> None:
    assert page.evaluate("window.__xss") is None, f"the card's name ran as script on {page.url}"
    assert page.locator("img[src='x']").count() == 0, f"the card's name became an element on {page.url}"


def test_a_card_named_like_markup_is_text_everywhere(page: Page, live_server: LiveServer, tmp_path: Path) -> None:
    import_hostile_card(live_server, tmp_path)
    page.goto("/cards?q=set:hostile")
    expect(page.locator(f"#results [data-card-id='{CARD_ID}']")).to_contain_text(HOSTILE)
    assert_inert(page)
    page.get_by_role("link", name=HOSTILE).first.click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(HOSTILE)
    assert_inert(page)

    mea_id, _ = make_deck(live_server, "mea", {"Crumb Goblin": 1})
    page.goto(f"/decks/{mea_id}")
    page.get_by_role("searchbox", name="Search").fill("set:hostile")  # results inserted by the script
    expect(page.locator("#results [data-card-id]")).to_have_count(1)
    page.get_by_role("button", name=f"Add {HOSTILE}", exact=True).click()
    expect(page.locator(f"#deck li[data-card-id='{CARD_ID}']")).to_contain_text(HOSTILE)
    assert_inert(page)
    page.get_by_role("button", name=f"One more {HOSTILE}").click()
    expect(page.locator(f"#deck li[data-card-id='{CARD_ID}'] .count")).to_have_text("2")
    assert_inert(page)
    share = page.locator("a#share-link").get_attribute("href") or ""
    page.goto(share)
    expect(page.locator("#preview")).to_contain_text(HOSTILE)
    assert_inert(page)

    meikyu_id, _ = make_deck(live_server, "meikyu", {"Grimoire": 1})
    page.goto(f"/decks/{meikyu_id}?game=all")
    page.get_by_role("searchbox", name="Search").fill("set:hostile")
    expect(page.locator("#results [data-card-id]")).to_have_count(1)
    # another game's card: not offered, and says why (issue 26)
    expect(page.get_by_role("button", name=f"Add {HOSTILE}", exact=True)).to_have_count(0)
    expect(page.locator("#results .not-offered")).to_contain_text("a Méa card; this is a Meikyu deck")
    assert_inert(page)

    other_id, _ = make_deck(live_server, "mea", {"Crumb Goblin": 1})
    page.goto(f"/decks/compare?a={mea_id}&b={other_id}")
    expect(page.locator("#diff")).to_contain_text(HOSTILE)
    assert_inert(page)
