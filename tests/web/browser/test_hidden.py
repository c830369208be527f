"""What a page marks ``hidden`` is not shown: a style that gives an element a display of its own
(``label { display: inline-flex }``) overrode the attribute, and the card editor showed the label of a
field the card's type does not have (a Méa monster's copies) over no input."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.web.browser.conftest import LAPTOP, PHONE, ContextMaker
from tests.web.browser.test_play import start
from tests.web.browser.test_preview_replay import open_record

SHOWN_HIDDEN = """() => Array.from(document.querySelectorAll('[hidden]'))
  .filter((e) => getComputedStyle(e).display !== 'none')
  .map((e) => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''} "${e.textContent.trim().slice(0, 50)}"`)"""


def shown_hidden(page: Page) -> list[str]:
    page.wait_for_load_state("load")
    return list(page.evaluate(SHOWN_HIDDEN))


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
@pytest.mark.parametrize(
    "path",
    [
        "/catalog",
        "/collection",
        "/cards/new?game=mea",
        "/cards/mea/demo/crumb-goblin/edit",
        "/cards/mea/demo/crumb-goblin",
    ],
)
def test_an_owners_page_shows_nothing_it_hides(new_context: ContextMaker, path: str, viewport: Any) -> None:
    page = new_context(viewport=viewport).new_page()
    page.goto(path)
    expect(page.locator("h1")).to_be_visible()
    assert (shown := shown_hidden(page)) == [], shown


def test_the_card_editor_shows_a_field_with_its_label_only_for_the_types_that_have_it(page: Page) -> None:
    page.goto("/cards/mea/demo/crumb-goblin/edit")  # a monster: copies are a tile's
    label = page.locator('label[for="f-copies"]')
    expect(page.locator("#f-copies")).to_be_hidden()
    expect(label).to_be_hidden()
    page.locator("#f-type").select_option("tile")
    expect(page.locator("#f-copies")).to_be_visible()
    expect(label).to_be_visible()
    # a tile has no attack, but this one holds a value: it stays, said to be refused until cleared
    expect(page.locator('label[for="f-attack"]')).to_be_visible()
    expect(page.locator('[data-na-for="attack"]')).to_be_visible()
    page.locator("#f-attack").fill("")
    expect(page.locator('label[for="f-attack"]')).to_be_hidden()
    expect(page.locator("#f-attack")).to_be_hidden()


@pytest.mark.parametrize("game", ["meio", "mea", "meikyu"])
def test_a_table_and_its_replay_show_nothing_they_hide(new_context: ContextMaker, sim_records: Any, game: str) -> None:
    page = new_context(viewport=PHONE).new_page()
    seats = {0: "human", 1: "heuristic", 2: "heuristic"} if game != "mea" else {0: "human", 1: "heuristic"}
    page.goto(f"/play?game={game}")
    assert (shown := shown_hidden(page)) == [], shown
    start(page, game, len(seats), seats)
    expect(page.locator("#board")).to_be_visible()
    assert (shown := shown_hidden(page)) == [], shown
    url = open_record(page, sim_records[game])
    page.goto(f"{url}?step=5&seat=0")
    assert (shown := shown_hidden(page)) == [], shown


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_a_new_cards_face_before_it_is_drawn_is_its_placeholder_not_a_broken_image(
    new_context: ContextMaker, viewport: Any
) -> None:
    """The new card's face has nothing to show until a value is typed: its image failed before the
    page's script listened for failures, and the browser drew its broken-image text over the placeholder."""
    page = new_context(viewport=viewport).new_page()
    page.goto("/cards/new?game=mea")
    expect(page.locator(".card-figure .placeholder")).to_be_visible()
    expect(page.locator(".card-figure .placeholder")).to_have_text("new card")
    expect(page.locator("#preview")).to_be_hidden()
    page.locator("#f-type").select_option("monster")
    page.locator("#f-name").fill("Pocket Golem")  # a name and a type: drawn as typed, the face shows
    expect(page.locator("#preview")).to_be_visible()
