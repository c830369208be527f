"""The deck lab in a real browser: from a deck's page to its lab, a small run's tables, and a refused
game count named at its field with what was typed kept."""

from __future__ import annotations

import uuid

from playwright.sync_api import Page, expect
from typer.testing import CliRunner

from cardbase.cli.app import app as cli_app
from cardbase.decks.store import list_decks
from tests.web.browser.conftest import LiveServer
from tests.web.browser.screens import REPO


def import_example(live: LiveServer, file: str) -> int:
    name = f"Lab {uuid.uuid4().hex[:8]}"
    path = str(REPO / "examples" / "decks" / file)
    result = CliRunner().invoke(cli_app, ["deck", "import", path, "--name", name, "--db", live.db_url])
    assert result.exit_code == 0, result.output
    return next(int(d["id"]) for d in list_decks(live.database) if d["name"] == name)


def test_a_deck_opens_its_lab_runs_a_small_gauntlet_and_sees_the_tables(page: Page, live_server: LiveServer) -> None:
    deck_id = import_example(live_server, "mea-goblin-rush.txt")
    page.goto(f"/decks/{deck_id}")
    page.locator("#lab-link").click()
    expect(page.locator("h1")).to_contain_text("Lab:")
    page.locator("#lab-games").fill("4")
    page.get_by_role("button", name="Run the lab").click()
    rows = page.locator("#gauntlet-table tbody tr")
    expect(rows).to_have_count(3)  # the two shipped examples, then overall
    expect(rows.last.locator("th")).to_have_text("overall")
    assert rows.first.locator("td").first.inner_text().endswith("/4")
    expect(page.locator("#opening-table tbody tr")).to_have_count(10)
    expect(page.locator("#opening-verdict")).to_contain_text("points over")
    expect(page.locator("#lab-notes")).to_contain_text("demo set, not published Méa cards")
    expect(page.locator("#lab-games")).to_have_value("4")
    assert "games=4" in page.url and "run=1" in page.url  # a link to this run

    page.locator("#lab-games").fill("1")
    with page.expect_response(lambda r: "/lab?" in r.url) as answer:
        page.get_by_role("button", name="Run the lab").click()
    assert answer.value.status == 400
    error = page.locator("#games-error")
    expect(error).to_contain_text("Invalid value for 'Games per match-up'")
    expect(error).to_contain_text("from 2 to 1,000, not '1'")
    expect(page.locator("#lab-games")).to_have_value("1")
    expect(page.locator("#lab-games")).to_be_focused()
    expect(page.locator("#lab-games")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#lab-results")).to_have_count(0)
