"""What players noticed at the table of ``/play`` (task h-ui3): the picking bar covers nothing a
player needs, Undo is offered only when the table would take the action back, and the players
list's marker of the seat to move sits clear of its summary's triangle."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.browser.conftest import PHONE, ContextMaker, LiveServer
from tests.web.browser.test_play_boards import create, hall, open_link, table_version, wait_table
from tests.web.play_helpers import mea_decks


def test_undo_is_not_offered_after_a_draw_the_table_would_not_take_back(
    new_context: ContextMaker, live_server: LiveServer
) -> None:
    made = create(live_server, {"game": "mea", "seats": [{"agent": "human"}] * 2, "decks": mea_decks(), "seed": 4})
    page = new_context().new_page()
    open_link(page, made["seats"][0]["url"], live_server.url)
    expect(page.locator("#status")).to_contain_text("Your move")
    version = table_version(page)
    page.locator("#table button.plain-act", has_text="draw").first.click()  # the opening hand: cards shown to P1
    wait_table(page, version + 1)
    with hall(live_server).get(made["id"]).table.lock:
        refusal = hall(live_server).get(made["id"]).table.undo_refusal(0)
    assert refusal is not None  # the table refuses it ...
    expect(page.locator("#undo")).to_have_count(0)  # ... so the page does not offer it


def mea_main_turn(live: LiveServer) -> tuple[str, list[dict[str, Any]]]:
    """A Méa game (P1 a person, a heuristic agent on P2) at P1's main phase with a card to put on a
    tile: P1's link and P1's legal actions (as the board has them)."""
    from cardbase.sim.boards import legal_view
    from tests.web.browser.screens import kinds, seat_at

    body = {"game": "mea", "seats": [{"agent": "human"}, {"agent": "heuristic"}], "decks": mea_decks(), "seed": 3}
    path, state = seat_at(live, body, lambda s: s.turn >= 3 and "summon" in kinds(s))
    return path, legal_view(state, state.legal_actions())


BAR_COVERS = """bar => {
  const box = bar.getBoundingClientRect();
  const needed = '.hand-row .face, [data-key], .plain-acts button, .mea-player, .board-prompt, #actions, #log';
  const hits = [];
  for (const el of document.querySelectorAll(needed)) {
    if (bar.contains(el) || el.contains(bar)) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const w = Math.min(r.right, box.right) - Math.max(r.left, box.left);
    const h = Math.min(r.bottom, box.bottom) - Math.max(r.top, box.top);
    if (w > 1 && h > 1) hits.push((el.dataset.key || el.className || el.id) + ' at ' + Math.round(scrollY));
  }
  return hits;
}"""


@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, PHONE], ids=["laptop", "phone"])
def test_the_picking_bar_covers_nothing_a_player_needs(
    new_context: ContextMaker, live_server: LiveServer, size: dict[str, int]
) -> None:
    path, legal = mea_main_turn(live_server)
    phone = size == PHONE
    page = new_context(viewport=size, **({"has_touch": True, "is_mobile": True} if phone else {})).new_page()
    page.goto(path)
    page.wait_for_url(lambda url: "key=" not in url)
    summon = next(e for e in legal if e["kind"] == "summon")
    card = page.locator(f'#table .hand-row [data-key="{summon["src"][0]}"]').first
    # the hand at the bottom of the window, where a bar along the window's bottom edge would be
    page.locator("#table .hand-row").evaluate("row => row.scrollIntoView({block: 'end'})")
    before = card.bounding_box()
    card.click()
    bar = page.locator("#table .picking")
    expect(bar).to_be_visible()
    expect(bar).to_contain_text("Picked")
    after = card.bounding_box()
    assert before and after and abs(before["y"] - after["y"]) <= 1, (before, after)  # the card stays where it was
    tall = page.evaluate("document.documentElement.scrollHeight")
    for y in range(0, tall, size["height"] // 3):  # wherever the page is scrolled
        page.evaluate(f"window.scrollTo(0, {y})")
        assert bar.evaluate(BAR_COVERS) == []
    target = page.locator(f'#table [data-key="{summon["dst"]}"]').first
    target.scroll_into_view_if_needed()
    version = table_version(page)
    target.click(position={"x": 6, "y": 6})
    wait_table(page, version + 1)  # the pick still ends in its action


SEATS_LEFT_OF_SUMMARY = """info => {
  const summary = info.querySelector('summary');
  const text = Array.from(summary.childNodes).find((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
  const range = document.createRange();
  range.selectNodeContents(text);
  const start = range.getBoundingClientRect().left;  // where the summary's words begin, right of its triangle
  return Array.from(info.querySelectorAll('#seats li'))
    .filter((li) => li.getBoundingClientRect().left < start - 0.5)
    .map((li) => li.textContent.trim().slice(0, 30) + ' at ' + Math.round(li.getBoundingClientRect().left));
}"""


@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, {"width": 700, "height": 800}, PHONE], ids=str)
def test_the_seat_to_move_is_marked_clear_of_the_players_summary_triangle(
    new_context: ContextMaker, live_server: LiveServer, size: dict[str, int]
) -> None:
    made = create(
        live_server,
        {"game": "meio", "players": 3, "seats": [{"agent": "human"}, {"agent": "heuristic"}, {"agent": "random"}]},
    )
    page = new_context(viewport=size).new_page()
    open_link(page, made["seats"][0]["url"], live_server.url)
    info = page.locator("#table-info")
    if info.get_attribute("open") is None:
        page.locator("#table-info > summary").click()
    mover = page.locator("#seats li.to-move")
    expect(mover).to_have_count(1)
    expect(mover).to_contain_text("to move")  # said in words, not by a triangle like the summary's own
    glyph = mover.evaluate("li => getComputedStyle(li, '::before').content")
    assert "▶" not in glyph, glyph
    assert info.evaluate(SEATS_LEFT_OF_SUMMARY) == []


def test_the_mea_demo_set_note_is_shown_once_and_labelled(new_context: ContextMaker, live_server: LiveServer) -> None:
    made = create(live_server, {"game": "mea", "seats": [{"agent": "human"}] * 2, "decks": mea_decks(), "seed": 5})
    seat = new_context().new_page()
    open_link(seat, made["seats"][0]["url"], live_server.url)
    watch = new_context().new_page()
    watch.goto(f"/play/{made['id']}")
    expect(watch.locator("section.game-board")).to_be_visible()
    for page in (seat, watch):
        notes = page.locator("#table").get_by_text("cardbase's demo set")
        expect(notes).to_have_count(1)
        expect(notes.locator(".badge.demo")).to_have_count(1)  # labelled as the cards are


def test_pages_with_demo_cards_say_what_they_are_once(new_context: ContextMaker, live_server: LiveServer) -> None:
    """A card's page, a Méa table and the catalog say once (their own note, labelled) that demo cards
    are cardbase's, not published ones: not again in the provenance or the page's footer."""
    made = create(live_server, {"game": "mea", "seats": [{"agent": "human"}] * 2, "decks": mea_decks(), "seed": 6})
    page = new_context().new_page()
    open_link(page, made["seats"][0]["url"], live_server.url)
    said = "document.body.innerText.match(/not (a )?published/gi)?.length ?? 0"
    assert page.evaluate(said) == 1
    for path in ("/cards/mea/demo/crumb-goblin", "/catalog"):
        page.goto(path)
        assert page.evaluate(said) == 1, path
    page.goto("/cards?q=game:mea")  # a list with demo badges and no note of its own: the footer says it
    assert page.evaluate(said) == 1


# --- what a player reads: the Meio scores on a phone, the Méa grid's headings ----------------------


def test_a_meio_players_name_stays_on_one_line_in_the_scores_on_a_phone(
    new_context: ContextMaker, live_server: LiveServer
) -> None:
    """4 players in the last of 3 rounds, a trick being played: the widest score table (two rounds'
    columns, a tag). "P1 (you)" is one line; a tag may go under it; the table stays within the phone's
    width."""
    from cardbase.sim.boards import board_view
    from tests.web.browser.screens import kinds, seat_at

    seats = [{"agent": "human"}] + [{"agent": "heuristic"}] * 3
    body = {"game": "meio", "players": 4, "seats": seats, "seed": 3}
    last_round = lambda s: board_view("meio", s.observation(0))["round"] == 3 and "play" in kinds(s)  # noqa: E731
    path, _ = seat_at(live_server, body, last_round)
    page = new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    page.goto(path)
    page.wait_for_url(lambda url: "key=" not in url)
    names = page.locator("#table .scores tbody th .seat-name")
    expect(names).to_have_count(4)
    expect(names.first).to_have_text("P1 (you)")
    lines = names.evaluate_all("ns => ns.map(n => [n.textContent, n.getClientRects().length])")
    assert all(count == 1 for _, count in lines), lines
    right = page.locator("#table .scores").evaluate("t => t.getBoundingClientRect().right")
    assert right <= PHONE["width"], right
