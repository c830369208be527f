"""The start form of /play at a laptop's width: each seat's row lines up with the others (a note
"(with 3 or more players)" inside P3's label had pushed its choices right of P1's and P2's), and a
seat's agent options are offered only where an agent sits (a person's seat showed them too); without
script the form stays whole, the options of every seat there to fill."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from tests.web.browser.conftest import LAPTOP, ContextMaker

SHOTS = Path("/tmp/cardbase-start-form")
UNDER_ITS_WORDS = "e => e.getBoundingClientRect().top - e.closest('label').getBoundingClientRect().top"


def lefts(page: Page, selector: str) -> list[float]:
    """The left edge of each visible element matching ``selector``, in document order."""
    return [round(box["x"]) for el in page.locator(selector).all() if el.is_visible() and (box := el.bounding_box())]


def test_the_seats_rows_line_up_and_agent_options_show_for_agents_only(new_context: ContextMaker) -> None:
    page = new_context(viewport=LAPTOP).new_page()
    page.goto("/play?game=meio")
    page.locator("#players").select_option("4")
    for seat in range(4):
        page.locator(f"select[name=seat{seat}]").select_option("human" if seat == 0 else "search")
    SHOTS.mkdir(exist_ok=True)
    page.locator("fieldset").first.screenshot(path=str(SHOTS / "seats-laptop.png"))
    seats = lefts(page, ".seat-choice select[name^=seat]")
    assert len(seats) == 4 and len(set(seats)) == 1, f"the seats' choices start at {seats}"
    options = lefts(page, ".seat-choice input[name$=_options]")
    assert len(set(options)) == 1, f"the agents' options start at {options}"
    below = [round(page.locator(f"select[name=seat{s}]").evaluate(UNDER_ITS_WORDS)) for s in range(4)]
    assert len(set(below)) == 1, f"each seat's choice is {below} px below the top of its words"
    assert len(options) == 3, f"{len(options)} agent options shown for P1 a person and three agents"
    # P1 is a person: no agent options; each seat's follow who sits there
    expect(page.locator("input[name=seat0_options]")).to_be_hidden()
    expect(page.locator("input[name=seat1_options]")).to_be_visible()
    page.locator("input[name=seat1_options]").fill("samples=5")
    page.locator("select[name=seat1]").select_option("human")
    expect(page.locator("input[name=seat1_options]")).to_be_hidden()
    page.locator("select[name=seat0]").select_option("heuristic")
    expect(page.locator("input[name=seat0_options]")).to_be_visible()
    page.locator("fieldset").first.screenshot(path=str(SHOTS / "seats-changed.png"))
    # the options typed for a seat a person now plays are not sent: the game starts
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#error")).to_have_count(0)
    expect(page).not_to_have_url("/play?game=meio")


def test_without_script_every_seats_agent_options_are_there(new_context: ContextMaker) -> None:
    page = new_context(viewport=LAPTOP, java_script_enabled=False).new_page()
    page.goto("/play?game=meio")
    SHOTS.mkdir(exist_ok=True)
    page.locator("fieldset").first.screenshot(path=str(SHOTS / "seats-noscript.png"))
    for seat in range(4):
        expect(page.locator(f"input[name=seat{seat}_options]")).to_be_editable()
    seats = lefts(page, ".seat-choice select[name^=seat]")
    assert len(set(seats)) == 1, f"the seats' choices start at {seats}"
