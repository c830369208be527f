"""The builder's Undo toast ("Added 1 Anvil Drop  Undo") came fixed at the bottom left, over the search
results: after an add from a result near the bottom of the screen it covered that card's "in deck: 1"
and its neighbours' "Not offered: …" notes, for as long as it stayed. On a laptop it now sits over the
deck's column (whose end is kept above it); on a phone the card just added is scrolled clear of it."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.web.browser.conftest import LAPTOP, PHONE, ContextMaker, LiveServer
from tests.web.browser.test_pages import make_deck

# The first result in the first column that can be added and has a "Not offered" note in its row:
# scrolled to the bottom of the screen (where the toast comes), it is marked for the test.
PICK = """() => {
  const cards = [...document.querySelectorAll('#results li.card')];
  const left = Math.min(...cards.map((c) => c.getBoundingClientRect().left));
  const rowOf = (c) => cards.filter((o) => o.offsetTop === c.offsetTop);
  const card = cards.find((c) => c.getBoundingClientRect().left === left && c.querySelector('button.add')
    && rowOf(c).some((o) => o.querySelector('.not-offered')));
  if (!card) return null;
  card.scrollIntoView({ block: 'end' });
  card.dataset.picked = '1';
  rowOf(card).forEach((o) => { o.dataset.row = '1'; });
  return card.dataset.cardId;
}"""


def _overlap(a: dict[str, Any] | None, b: dict[str, Any] | None) -> bool:
    assert a is not None and b is not None
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def _in_view(page: Page, box: dict[str, Any] | None) -> bool:
    size = page.viewport_size
    assert box is not None and size is not None
    return box["y"] < size["height"] and box["y"] + box["height"] > 0


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_the_undo_toast_covers_no_note_of_the_card_added_or_its_row(
    new_context: ContextMaker, live_server: LiveServer, size: dict[str, int]
) -> None:
    deck_id, _ = make_deck(live_server, "mea", {"Crumb Goblin": 1})
    page = new_context(viewport=size).new_page()
    page.goto(f"/decks/{deck_id}?game=all")  # every game's cards: the others' say "Not offered: …"
    expect(page.locator("#results .not-offered").first).to_be_visible()
    card_id = page.evaluate(PICK)
    assert card_id, "no addable result with a 'Not offered' note in its row"
    picked = page.locator("#results li[data-picked]")
    picked.locator("button.add").click()
    expect(picked.locator(".in-deck")).to_have_text("in deck: 1")
    toast = page.locator("#undo-form")
    expect(toast).to_be_visible()
    expect(page.locator("#undo-what")).to_contain_text("Added 1 ")
    box = toast.bounding_box()
    notes = page.locator("#results li[data-row] .not-offered, #results li[data-picked] .in-deck")
    assert notes.count() >= 2
    for note in notes.all():
        assert not _overlap(note.bounding_box(), box), (note.inner_text(), note.bounding_box(), box)
    if size == LAPTOP:  # over the deck's column: no note of the gallery at all under it
        for note in page.locator("#results .not-offered, #results .in-deck").all():
            if _in_view(page, note.bounding_box()):
                assert not _overlap(note.bounding_box(), box), (note.inner_text(), box)
        deck_side = page.locator("#deck-side").bounding_box()
        assert deck_side is not None and box is not None
        assert box["x"] >= deck_side["x"] - 1 and box["x"] + box["width"] <= deck_side["x"] + deck_side["width"] + 1
