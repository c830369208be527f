"""Nothing a player typed is lost when a part of the page is swapped in (task h-keeptyped). The table's
part was replaced whole when an answer arrived (a move by the stream, the answer to a click), so a move
being typed into "Or type an action" was wiped and the focus fell to the page's top; the builder's
panels, swapped after an edit, did the same to a tag being typed. Now each text field's value, caret
and focus come back in the same field of the new part; a typed move the table took is cleared."""

from __future__ import annotations

import re
from typing import Any

import httpx
from playwright.sync_api import Page, Route, expect

from cardbase.games.base import CHANCE
from cardbase.sim.boards import legal_view
from tests.web.browser.conftest import ContextMaker, LiveServer
from tests.web.browser.test_pages import make_deck
from tests.web.browser.test_play_boards import click_action, create, hall, open_link, wait_table
from tests.web.play_helpers import mea_decks

TYPED = "#typed input[name=action]"
DRAFT = "summon Selounticia b2"  # what the player is typing (sent or not, it is theirs)


def caret(page: Page, selector: str) -> list[Any]:
    """The field's selection: [start, end]."""
    found: list[Any] = page.locator(selector).evaluate("f => [f.selectionStart, f.selectionEnd]")
    return found


def mea_table(live: LiveServer) -> tuple[dict[str, Any], Any, int]:
    """A Méa game of two people at a turn of several moves: what the API made, the live table, the seat to move."""
    made = create(live, {"game": "mea", "seats": [{"agent": "human"}] * 2, "decks": mea_decks(), "seed": 21})
    live_table = hall(live).get(made["id"])
    for _ in range(2):  # each draws first (which ends a turn); then a turn of several moves
        table = live_table.table
        hall(live).act(made["id"], table.state.current_player, 0, table.version)
    return made, live_table, live_table.table.state.current_player


def turn_keeping_actions(live_table: Any, seat: int) -> list[tuple[int, str]]:
    """The legal actions of ``seat`` (index, text) after which ``seat`` is still to move (its box stays)."""
    out = []
    with live_table.table.lock:
        state = live_table.table.state
        for index, action in enumerate(state.legal_actions()):
            after = state.clone()
            after.apply(action)
            while after.current_player == CHANCE:
                after.apply(after.sample_chance())
            if after.current_player == seat and after.legal_actions():
                out.append((index, str(action)))
    assert out, "no action keeps the turn"
    return out


def type_draft(page: Page) -> None:
    """Type the draft into the action box and put the caret before its last word (the box focused)."""
    box = page.locator(TYPED)
    box.click()
    box.press_sequentially(DRAFT)
    for _ in range(2):
        box.press("ArrowLeft")
    assert caret(page, TYPED) == [len(DRAFT) - 2, len(DRAFT) - 2]


def expect_draft_kept(page: Page) -> None:
    box = page.locator(TYPED)
    expect(box).to_have_value(DRAFT)
    expect(box).to_be_focused()
    assert caret(page, TYPED) == [len(DRAFT) - 2, len(DRAFT) - 2]


def test_a_move_being_typed_survives_the_table_the_stream_brings(
    new_context: ContextMaker, live_server: LiveServer
) -> None:
    """The seat's move made elsewhere (its other device, by the API) reaches this page by the event
    stream, and the table is swapped in while a move is being typed here."""
    made, live_table, seat = mea_table(live_server)
    page = new_context().new_page()
    open_link(page, made["seats"][seat]["url"], live_server.url)
    version = live_table.table.version
    type_draft(page)
    action = turn_keeping_actions(live_table, seat)[0][1]
    with httpx.Client(base_url=live_server.url, timeout=60) as http:
        moved = http.post(
            f"/api/games/{made['id']}/actions",
            json={"action": action, "version": version},
            headers={"Authorization": f"Seat {made['seats'][seat]['key']}"},
        )
    assert moved.status_code == 200, moved.text
    wait_table(page, version + 1)
    expect(page.locator("#log")).to_contain_text(action.split()[0])  # the new table is shown
    expect_draft_kept(page)


def test_a_move_being_typed_survives_the_answer_to_a_click(new_context: ContextMaker, live_server: LiveServer) -> None:
    """A move clicked, then (its answer on its way) the next one typed: the answer is swapped in, the
    typed text, its caret and the focus stay (it was not the move sent)."""
    made, live_table, seat = mea_table(live_server)
    page = new_context().new_page()
    open_link(page, made["seats"][seat]["url"], live_server.url)
    version = live_table.table.version
    index, _ = turn_keeping_actions(live_table, seat)[0]
    with live_table.table.lock:
        state = live_table.table.state
        entries = legal_view(state.observation(seat), state.legal_actions())
    held: list[Route] = []
    page.route(re.compile(r".*/play/[^/]+/act$"), lambda route: held.append(route))
    click_action(page, entries[index], entries)  # by the board's clicks, as a player does
    type_draft(page)
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the click's move was not sent"
    held[0].continue_()
    wait_table(page, version + 1)
    expect_draft_kept(page)


def test_a_typed_move_taken_is_cleared_and_one_refused_stays_to_be_mended(
    new_context: ContextMaker, live_server: LiveServer
) -> None:
    made, live_table, seat = mea_table(live_server)
    page = new_context().new_page()
    open_link(page, made["seats"][seat]["url"], live_server.url)
    version = live_table.table.version
    box = page.locator(TYPED)
    box.fill("summon Nobody z9")
    box.press("Enter")
    expect(page.locator("#error")).to_be_visible()  # refused: the reason, and the text to mend
    expect(page.locator(TYPED)).to_have_value("summon Nobody z9")
    expect(page.locator(TYPED)).to_be_focused()
    action = turn_keeping_actions(live_table, seat)[0][1]
    page.locator(TYPED).fill(action)
    page.locator(TYPED).press("Enter")
    wait_table(page, version + 1)
    expect(page.locator("#error")).to_have_count(0)
    expect(page.locator(TYPED)).to_have_value("")  # taken: cleared, as before
    expect(page.locator(TYPED)).to_be_focused()


def test_a_tag_being_typed_survives_the_panels_an_edit_brings(page: Page, live_server: LiveServer) -> None:
    """A "+" clicked, then (its save on its way) a tag typed into that card's entry: the entry and the
    panels are swapped in, and the tag, its caret and the focus stay; the box is not folded away."""
    deck_id, _ = make_deck(live_server, "mea", {"Crumb Goblin": 2, "Dizzy Bat": 1})
    page.goto(f"/decks/{deck_id}")
    version = int(page.get_attribute("#panels", "data-version") or 0)
    held: list[Route] = []
    page.route(re.compile(rf".*/decks/{deck_id}/cards(\?.*)?$"), lambda route: held.append(route))
    entry = page.locator('#deck li[data-card-id="mea/demo/dizzy-bat"]')
    entry.locator("button.inc").click()
    entry.locator("summary").click()
    tag = entry.locator("input[name=add]")
    tag.click()
    tag.press_sequentially("early drop")
    for _ in range(4):
        tag.press("ArrowLeft")
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the edit was not sent"
    held[0].continue_()
    expect(page.locator("#panels")).to_have_attribute("data-version", str(version + 1))
    entry = page.locator('#deck li[data-card-id="mea/demo/dizzy-bat"]')
    expect(entry.locator(".count")).to_have_text("2")  # the new entry
    tag = entry.locator("input[name=add]")
    expect(tag).to_have_value("early drop")
    expect(tag).to_be_visible()
    expect(tag).to_be_focused()
    assert tag.evaluate("f => [f.selectionStart, f.selectionEnd]") == [6, 6]
    tag.press("Enter")  # saved: the box is empty again, the tag shown
    entry = page.locator('#deck li[data-card-id="mea/demo/dizzy-bat"]')
    expect(entry.locator(".entry-tags")).to_have_text("early drop")
    expect(entry.locator("input[name=add]")).to_have_value("")


def turn_passing_action(live_table: Any, seat: int) -> tuple[str, int]:
    """A legal action of ``seat`` after which another seat is to move (with its own box): its text and that seat."""
    with live_table.table.lock:
        state = live_table.table.state
        for action in state.legal_actions():
            after = state.clone()
            after.apply(action)
            while after.current_player == CHANCE:
                after.apply(after.sample_chance())
            if after.current_player not in (seat, None) and after.legal_actions():
                return str(action), after.current_player
    raise AssertionError("no action passes the turn")


def test_a_seats_draft_never_shows_in_another_seats_box(new_context: ContextMaker, live_server: LiveServer) -> None:
    """A browser holding both seats: P's view, a move being typed in P's box, and the table part swapped
    straight to the other seat's view (its answer for the other seat, no hand-off screen between; the
    answer is forced here, as a late or redirected one would bring it). The draft was keyed by the box
    alone (``#typed action``), the same in each seat's view, and came back in the other seat's box; it
    is P's, not theirs: their box is empty."""
    made, live_table, seat = mea_table(live_server)
    page = new_context().new_page()
    for held in made["seats"]:  # both links in this browser: its cookie holds both seats
        open_link(page, held["url"], live_server.url)
    page.goto(f"/play/{made['id']}?seat={seat}")
    expect(page.locator("#handoff")).to_have_count(0)
    version = live_table.table.version
    type_draft(page)
    action, other = turn_passing_action(live_table, seat)
    board = re.compile(rf".*/play/{made['id']}/board\?seat={seat}$")
    other_view = f"{live_server.url}/play/{made['id']}/board?seat={other}"
    page.route(board, lambda route: route.fulfill(response=route.fetch(url=other_view)))
    with httpx.Client(base_url=live_server.url, timeout=60) as http:
        moved = http.post(
            f"/api/games/{made['id']}/actions",
            json={"action": action, "version": version},
            headers={"Authorization": f"Seat {made['seats'][seat]['key']}"},
        )
    assert moved.status_code == 200, moved.text
    wait_table(page, version + 1)  # the stream's refresh, answered with the other seat's view
    expect(page.locator("#status")).to_contain_text(f"You are P{other + 1}")
    expect(page.locator(TYPED)).to_have_value("")
