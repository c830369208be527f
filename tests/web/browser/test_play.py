"""Playing in the browser with the generic table (its buttons; the boards' clicks are tested with
the boards): a person plays a Meio round, split included, against agents, the agents' moves
arriving without a reload; two people share one device through the hot seat's hand-off."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Locator, Page, Route, expect

from tests.web.browser.conftest import LAPTOP, PHONE, ContextMaker, wait_until


def start(page: Page, game: str, players: int, seats: dict[int, str], hot: bool = False) -> str:
    """Start a game with the form of /play; the game's id."""
    page.goto(f"/play?game={game}")
    if page.get_by_label("Number of players").count():  # (Méa is for two: no choice)
        page.get_by_label("Number of players").select_option(str(players))
    for seat, kind in seats.items():
        page.locator(f'select[name="seat{seat}"]').select_option(kind)
    if game == "mea":  # the shipped examples: the default, the deck edited last, is another test's
        for seat in (0, 1):
            deck = page.locator(f'select[name="deck{seat}"]')
            example = deck.locator('option[value^="example:"]:not([value*="broken"])').nth(seat)
            deck.select_option(str(example.get_attribute("value")))
    if hot:
        page.get_by_label(re.compile("hot seat")).check()
    page.get_by_role("button", name="Start the game").click()
    expect(page).to_have_url(re.compile(r"/play/[\w-]+$"))
    return page.url.rsplit("/", 1)[1]


def version(page: Page) -> str:
    return str(page.locator("#table").get_attribute("data-version"))


def take_first_action(page: Page) -> None:
    """Click the first legal action's button (opening its group if folded) and wait for the table to move."""
    before = version(page)
    click_first_action(page)
    expect(page.locator("#table")).not_to_have_attribute("data-version", before)


def click_first_action(page: Page) -> Locator:
    """Make the first action the page offers, as a player would: a button of the board (a draw, a card
    to play), the split picker's first six cards, or the first one listed below the board (the board's
    actions are not listed again). The button clicked."""
    on_board = page.locator("#board button[name=action_id]:visible")
    picker = page.locator("#board .split-picker:visible")
    if on_board.count():
        button = on_board.first
    elif picker.count():
        boxes = picker.locator("input[name=aside]")
        for n in range(6):
            boxes.nth(n).check()
        button = picker.locator(".split-go")
    else:
        folded = page.locator("#actions details:not([open]):visible summary").first
        if folded.count() and not page.locator("#actions p.kind:visible").count():
            folded.click()
        button = page.locator("#actions button.action:visible").first
    button.click()
    return button


def test_a_person_plays_a_meio_round_against_agents(new_context: ContextMaker) -> None:
    context: BrowserContext = new_context()
    page = context.new_page()
    start(page, "meio", 3, {0: "human", 1: "heuristic", 2: "random"})
    page.evaluate("window.sameDocument = true")  # gone if the page reloads
    status = page.locator("#status")
    expect(status).to_contain_text("Your move")
    expect(page.locator("#board")).to_contain_text("split")
    take_first_action(page)  # the split: 7 kept, 6 set aside
    log = page.locator("#log")
    expect(log).to_contain_text("P1 (you): split")
    for _ in range(14):
        expect(status).to_contain_text("Your move")  # after the agents' cards
        if "Round 1 over" in log.inner_text():
            break
        take_first_action(page)
    expect(log).to_contain_text("Round 1 over")
    expect(log).to_contain_text("wins trick 13")
    expect(log).to_contain_text(re.compile(r"P[23]: play"))  # the agents' cards, arrived by the event stream
    assert page.evaluate("window.sameDocument") is True  # no reload: moves and updates in place
    expect(page.locator("#seats")).to_contain_text("heuristic")


def test_an_action_typed_in_the_box_is_played_in_place(new_context: ContextMaker) -> None:
    """The "Or type an action" form holds an input named ``action``, which shadows the form's own
    ``action`` property: the page must post to the form's address (it posted to
    ``/play/[object HTMLInputElement]``, 405), and a typed move is played like a clicked one."""
    context: BrowserContext = new_context()
    page = context.new_page()
    start(page, "meio", 3, {0: "human", 1: "heuristic", 2: "random"})
    page.evaluate("window.sameDocument = true")
    expect(page.locator("#status")).to_contain_text("Your move")
    first = str(page.locator("#actions button.action").first.text_content()).strip()
    assert first.startswith("split"), first
    before = version(page)
    page.locator("#typed input[name=action]").fill(first)
    page.locator("#typed button[type=submit]").click()
    expect(page.locator("#table")).not_to_have_attribute("data-version", before)
    expect(page.locator("#log")).to_contain_text("P1 (you): split")
    assert page.evaluate("window.sameDocument") is True  # played in place, not by the plain form's reload


def test_on_a_phone_a_refused_move_shows_why_where_the_player_is(new_context: ContextMaker) -> None:
    """The refusal is written at the top of the table; a move typed (or clicked) far below it, on a
    phone, must still show the player why: the page brings the message into view."""
    page = new_context(viewport=PHONE).new_page()
    start(page, "meio", 3, {0: "human", 1: "heuristic", 2: "random"})
    expect(page.locator("#status")).to_contain_text("Your move")
    typed = page.locator("#typed input[name=action]")
    typed.fill("play 99X")
    page.locator("#typed button[type=submit]").click()
    error = page.locator("#error")
    expect(error).to_be_visible()
    expect(error).to_be_in_viewport()


def test_hot_seat_hands_the_device_over(new_context: ContextMaker) -> None:
    context = new_context()
    page = context.new_page()
    start(page, "meio", 2, {0: "human", 1: "human"}, hot=True)
    handoff = page.locator("#handoff")
    board = page.locator("#board")
    expect(handoff).to_contain_text("Pass the device to P1")
    expect(board).not_to_contain_text("Your hand")
    page.locator("#handoff-confirm").click()
    expect(handoff).to_have_count(0)
    expect(board).to_contain_text("Your hand")
    expect(page.locator("#status")).to_contain_text("Your move, P1")
    take_first_action(page)
    expect(handoff).to_contain_text("Pass the device to P2")
    expect(board).not_to_contain_text("Your hand")
    page.locator("#handoff-confirm").click()
    expect(page.locator("#status")).to_contain_text("Your move, P2")
    expect(board).to_contain_text("Your hand")
    page.reload()  # the plain page agrees: P2's hand, asked for by the address
    expect(page.locator("#status")).to_contain_text("Your move, P2")


def test_on_a_phone_the_board_is_on_the_first_screen_and_the_players_a_tap_away(new_context: ContextMaker) -> None:
    page = new_context(viewport=PHONE).new_page()
    start(page, "meio", 3, {0: "human", 1: "heuristic", 2: "random"})
    info, seats = page.locator("#table-info"), page.locator("#seats")
    expect(info).not_to_have_attribute("open", "")
    expect(seats).to_be_hidden()
    board_top = page.locator("#board").evaluate("b => b.getBoundingClientRect().top")
    assert board_top < PHONE["height"] / 2, board_top
    page.locator("#table-info > summary").click()
    expect(seats).to_be_visible()
    take_first_action(page)  # the table part is swapped in: the players stay shown as the player left them
    expect(seats).to_be_visible()
    expect(seats).to_contain_text("heuristic")


def test_on_a_laptop_the_players_and_rules_show_at_once(new_context: ContextMaker) -> None:
    page = new_context().new_page()
    start(page, "meio", 2, {0: "human", 1: "heuristic"})
    expect(page.locator("#seats")).to_be_visible()
    expect(page.locator("#table-info")).to_contain_text("Rules:")


def test_undo_takes_back_a_split_and_the_seat_downloads_what_it_has_seen(new_context: ContextMaker) -> None:
    page = new_context().new_page()
    page.goto("/play?game=meio")
    page.get_by_label("Number of players").select_option("2")
    for seat in (0, 1):
        page.locator(f'select[name="seat{seat}"]').select_option("human")
    page.get_by_role("button", name="Start the game").click()
    links = page.locator("#seat-links a")
    expect(links).to_have_count(2)
    first_seat = links.nth(0).get_attribute("href")
    other = new_context().new_page()
    other.goto(str(links.nth(1).get_attribute("href")))  # P2 in a browser of their own
    page.goto(str(first_seat))
    expect(page.locator("#status")).to_contain_text("Your move, P1")
    log = page.locator("#log")
    take_first_action(page)  # P1 splits
    expect(log).to_contain_text("P1 (you): split")
    expect(other.locator("#status")).to_contain_text("Your move, P2")  # the event stream told P2
    before = version(page)
    page.locator("#undo button").click()
    expect(page.locator("#table")).not_to_have_attribute("data-version", before)
    expect(log).not_to_contain_text("P1 (you): split")
    expect(page.locator("#status")).to_contain_text("Your move, P1")
    expect(page.locator("#undo")).to_have_count(0)  # nothing of P1's left to take back
    with page.expect_download() as download:
        page.locator("#record-link").click()
    lines = Path(download.value.path()).read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    assert head["seed"] is None and head["seat"] == "P1" and head["unfinished"]  # no seed before the end
    assert len(lines) == 2 and "dealt" in lines[1]
    assert not any("split" in line for line in lines)  # the split taken back is not in it


# A stand-in for the page's EventSource, so that a test says when an event arrives.
FAKE_EVENTS = """
window.EventSource = class {
  constructor(url) { this.url = url; this.listeners = {}; window.fakeEvents = this; }
  addEventListener(name, listener) { (this.listeners[name] = this.listeners[name] || []).push(listener); }
  fire(name, data) { for (const listener of this.listeners[name] || []) listener({ data: JSON.stringify(data) }); }
  close() {}
};
"""


@pytest.mark.parametrize("first", ["the event's refresh", "the move", "the move, then the same table"])
def test_answers_that_arrive_out_of_order_still_end_on_the_newest_table(new_context: ContextMaker, first: str) -> None:
    """A move is sent; an event then asks for the table, and that refresh is served the table from
    before the move. Whichever answer arrives first, the page ends on the table the move's answer
    brings (it once kept the refresh's older table for good: the later request won)."""
    context = new_context()
    context.add_init_script(FAKE_EVENTS)
    page = context.new_page()
    start(page, "meio", 2, {0: "human", 1: "random"})
    expect(page.locator("#status")).to_contain_text("Your move")
    before = int(version(page))
    board = str(page.locator("#table").get_attribute("data-board"))
    stale = page.request.get(board).text()  # the table as it is before the move
    assert f'data-table-version="{before}"' in stale
    held: dict[str, Route] = {}
    move_answer: list[str] = []

    def hold(route: Route) -> None:
        held["move" if route.request.method == "POST" else "refresh"] = route

    def answer_move() -> int:
        response = held["move"].fetch()
        move_answer.append(response.text())
        moved = int(re.findall(r'data-table-version="(\d+)"', move_answer[0])[0])
        held["move"].fulfill(response=response)
        return moved

    page.route(re.compile(r"/play/[\w-]+/(board|act)"), hold)
    expect(click_first_action(page)).to_be_disabled()  # sent: its form waits for the answer
    # held before the server (its handler runs once Playwright hands the request over: wait for it)
    wait_until(page, lambda: "move" in held, "the move was not sent")
    assert list(held) == ["move"]
    page.evaluate("v => window.fakeEvents.fire('view', {version: v + 50, status: 'playing'})", before)
    page.wait_for_function("() => document.querySelector('#table').classList.contains('updating')")
    # the refresh was asked for after the move (held once its request reaches the route)
    wait_until(page, lambda: "refresh" in held, "the event's refresh was not asked for")
    assert sorted(held) == ["move", "refresh"]
    if first == "the move":
        moved = answer_move()
        expect(page.locator("#table")).to_have_attribute("data-version", str(moved))
        held["refresh"].fulfill(status=200, content_type="text/html", body=stale)
        page.wait_for_function("() => !document.querySelector('#table').classList.contains('updating')")
    elif first == "the move, then the same table":
        moved = answer_move()
        expect(page.locator("#table")).to_have_attribute("data-version", str(moved))
        # #log is on every seat's table (#actions is not: the agent may be to move by now)
        page.evaluate("() => { document.querySelector('#log').dataset.mark = 'kept' }")
        # the refresh brings the table the move brought (the agent may have moved since, so not a new fetch)
        held["refresh"].fulfill(status=200, content_type="text/html", body=move_answer[0])
        page.wait_for_function("() => !document.querySelector('#table').classList.contains('updating')")
        # the table as shown: its elements stay (a click may be landing on them)
        assert page.evaluate("() => document.querySelector('#log').dataset.mark") == "kept"
    else:
        held["refresh"].fulfill(status=200, content_type="text/html", body=stale)
        page.wait_for_function("() => !document.querySelector('#table').classList.contains('updating')")
        moved = answer_move()
    assert moved > before
    # both answers have been read (the refresh's ``updating`` mark is off once its answer is handled;
    # the move's shows its version): the page is on the move's table, not the refresh's older one
    expect(page.locator("#table")).to_have_attribute("data-version", str(moved))
    assert page.evaluate("() => document.querySelector('#table').classList.contains('updating')") is False
    assert version(page) == str(moved)
    expect(page.locator("#log")).to_contain_text(re.compile(r"P1 \(you\): split"))


# Where each button of the table is, to the pixel.
BUTTON_BOXES = """() => [...document.querySelectorAll('#table button')].map(b => {
  const r = b.getBoundingClientRect();
  return [b.textContent.trim(), Math.round(r.left), Math.round(r.top), Math.round(r.width), Math.round(r.height)];
})"""


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_card_images_arriving_late_do_not_move_the_buttons(new_context: ContextMaker, viewport: dict[str, int]) -> None:
    """A card's picture takes its place before it arrives: the buttons do not jump under the
    pointer when the pictures come (they once grew from nothing and moved the actions ~160 px,
    and a click begun on one button ended on the text above it, lost)."""
    first = new_context(viewport=viewport)
    page = first.new_page()
    game = start(page, "meio", 3, {0: "human", 1: "heuristic", 2: "random"})
    take_first_action(page)  # the split: the hand shows its 7 faces
    expect(page.locator("#status")).to_contain_text("Your move")
    # The same seat in a browser with nothing cached, its card pictures held back.
    fresh = new_context(viewport=viewport, storage_state=first.storage_state())
    other = fresh.new_page()
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    other.route(re.compile(r"/image\.png"), hold)
    other.goto(f"/play/{game}", wait_until="domcontentloaded")
    expect(other.locator("#status")).to_contain_text("Your move")
    expect(other.locator("#board button.face")).not_to_have_count(0)
    wait_until(other, lambda: bool(held), "no card picture was asked for")
    before = other.evaluate(BUTTON_BOXES)
    loaded = "() => [...document.querySelectorAll('#board img')].filter(i => i.complete && i.naturalWidth).length"
    assert other.evaluate(loaded) == 0
    for route in held:
        route.continue_()
    other.wait_for_function(f"n => ({loaded})() >= n", arg=len(held))
    after = other.evaluate(BUTTON_BOXES)

    def far(b: list[Any], a: list[Any]) -> bool:  # another button, or moved by more than a pixel's rounding
        return bool(b[0] != a[0] or max(abs(x - y) for x, y in zip(b[1:], a[1:], strict=True)) > 1)

    moved = [(b, a) for b, a in zip(before, after, strict=True) if far(b, a)]
    assert not moved, moved


def test_the_mea_table_offers_each_action_once_and_its_legend_says_what_can_be_done_now(
    new_context: ContextMaker,
) -> None:
    """The opening draw's "draw 1–10" were the board's buttons and again a list below it; the legend said
    "Click one of your monsters…" when there was nothing to click. The board's actions are offered once
    (a page without script lists the clicked ones, and only those); the legend says what can be clicked now."""
    context = new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    start(page, "mea", 2, {0: "human", 1: "heuristic"})
    expect(page.locator("#status")).to_contain_text("Your move")
    expect(page.locator("#board .board-prompt")).to_contain_text("Draw your opening hand")
    expect(page.get_by_role("button", name="draw 5", exact=True)).to_have_count(1)  # the board's, not twice
    expect(page.locator("#actions button.action:visible")).to_have_count(0)
    expect(page.locator("#typed input[name=action]")).to_be_visible()  # typing stays
    legend = page.locator("#board .legend")
    expect(legend).to_contain_text("attack/defence")
    expect(legend).not_to_contain_text("Click")  # nothing to click at the opening draw
    before = version(page)
    page.get_by_role("button", name="draw 5", exact=True).click()
    expect(page.locator("#table")).not_to_have_attribute("data-version", before)
    expect(page.locator("#status")).to_contain_text("Your move")
    expect(page.locator("#board .board-prompt")).to_have_count(0)  # the main phase: the board is clicked
    expect(legend).to_contain_text("a card in your hand, then a lit tile")
    expect(page.locator("#actions button.action:visible")).to_have_count(0)  # summons are clicked on the board
    draws = page.get_by_role("button", name=re.compile(r"^draw \d+$"))
    expect(draws).not_to_have_count(0)
    assert all(b.evaluate("b => !!b.closest('#board')") for b in draws.all())
    # without script: the board's buttons and, listed beneath, what the board would have clicked
    plain = new_context(java_script_enabled=False, storage_state=context.storage_state()).new_page()
    plain.goto(page.url)
    listed = plain.locator("#actions button.action")
    expect(listed.filter(has_text=re.compile(r"^summon "))).not_to_have_count(0)
    expect(listed.filter(has_text=re.compile(r"^draw "))).to_have_count(0)
    expect(plain.locator("#board .plain-acts button", has_text=re.compile(r"^draw "))).not_to_have_count(0)
    expect(plain.locator("#board .legend .clicks-now")).to_be_hidden()  # clicking does nothing without script


def test_the_mea_start_forms_default_decks_start_a_game_when_the_deck_edited_last_is_a_draft(
    new_context: ContextMaker, live_server: Any
) -> None:
    """A draft deck (too few cards) edited last was P1's default, and Start was refused with its
    problems. The playable decks are offered first and the draft is marked invalid: Start, as the
    form stands, starts a game."""
    from tests.web.browser.test_pages import make_deck

    _, draft = make_deck(live_server, "mea", {"Crumb Goblin": 1})
    page = new_context().new_page()
    page.goto("/play?game=mea")
    for seat in (0, 1):
        chosen = page.locator(f'select[name="deck{seat}"] option:checked')
        expect(chosen).not_to_contain_text("invalid")
    marked = page.locator('select[name="deck0"] option', has_text=draft)
    expect(marked).to_contain_text("invalid: 1 problem")
    texts = page.locator('select[name="deck0"] option').all_inner_texts()
    # (other tests' decks share the server: those past the latest checked ones follow, "not checked yet")
    playable = [i for i, t in enumerate(texts) if not any(w in t for w in ("invalid", "pasted", "not checked"))]
    assert max(playable) < texts.index(marked.inner_text()), texts  # the playable decks first
    page.get_by_role("button", name="Start the game").click()
    expect(page).to_have_url(re.compile(r"/play/[\w-]+$"))
    expect(page.locator("section.game-board")).to_be_visible()


def test_a_finished_game_is_replayed_from_its_table_at_its_start(new_context: ContextMaker, live_server: Any) -> None:
    """The finished table links to its replay (it had only the record to download, then to open at
    /replay): the replay opens at step 0, every action legal, and steps to the game's end."""
    from tests.web.browser.test_play_boards import create, hall

    made = create(live_server, {"game": "meio", "players": 2, "seats": [{"agent": "random"}] * 2, "seed": 3})
    table = hall(live_server).get(made["id"]).table
    page = new_context().new_page()
    page.goto(f"/play/{made['id']}")
    link = page.locator("#replay-link")
    expect(link).to_be_visible()  # the agents play it to its end
    with table.lock:
        actions = len(table.state.history)  # every action, the deals included
    link.click()
    expect(page).to_have_url(re.compile(r"/replay/[0-9a-f]+$"))
    expect(page.locator("#replay-check")).to_contain_text(f"Every action is legal: {actions} actions, to the end")
    expect(page.locator("#step-body")).to_have_attribute("data-step", "0")
    page.locator("#step-last").click()
    expect(page.locator("#step-body")).to_have_attribute("data-step", str(actions))


def test_a_game_still_played_is_not_replayed(new_context: ContextMaker, live_server: Any) -> None:
    from tests.web.browser.test_play_boards import create

    made = create(live_server, {"game": "meio", "players": 2, "seats": [{"agent": "human"}] * 2})
    page = new_context().new_page()
    response = page.goto(f"/play/{made['id']}/replay")
    assert response is not None and response.status == 400
    expect(page.locator("main")).to_contain_text("replayed here once it is over")


def test_the_mea_start_form_fits_a_phone_whatever_its_decks_are_called(
    new_context: ContextMaker, live_server: Any
) -> None:
    """A select is as wide as its longest option, and a fieldset no narrower than what it holds: a long
    deck name (or an invalid deck's mark) made the form wider than a phone, and the page zoomed out."""
    from cardbase.decks.store import new_deck
    from tests.web.browser.test_pages import make_deck

    make_deck(live_server, "mea", {"Crumb Goblin": 1})  # marked invalid
    new_deck(live_server.database, "The Very Long Name Of A Deck Of Goblins And Their Friends", "mea")
    page = new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    page.goto("/play?game=mea")
    wide = page.evaluate(
        "() => Array.from(document.querySelectorAll('main *')).filter(e => e.getBoundingClientRect().width > 391)"
        ".map(e => `${e.tagName}.${e.className} ${e.getAttribute('name')} ${e.getBoundingClientRect().width}`)"
    )
    assert page.evaluate("[document.documentElement.scrollWidth, innerWidth]") == [PHONE["width"]] * 2, wide
