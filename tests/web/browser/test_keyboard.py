"""The table by the keyboard alone and with a screen reader (as lichess supports them): a move made
with Tab and Enter leaves the focus where the player was (the table's part of the page is swapped in
after every move), what happened since (the other player's move, a refused move, the status) is
said in a live region that stays in the page, a lit place on a board keeps a visible focus ring,
and what a board lights up or picks is said in the names, not by colour alone. In the deck builder,
a count changed by keyboard is said, and removing a card's last copy leaves the focus in the deck.
In the replay, each step's line is said, not its whole board."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from cardbase.sim.boards import legal_view
from tests.web.browser.conftest import ContextMaker, LiveServer
from tests.web.browser.test_pages import make_deck
from tests.web.browser.test_play_boards import create, hall, open_link, quest_ready, table_version, wait_table
from tests.web.play_helpers import mea_decks

FOCUS_RING = "rgb(255, 191, 71)"  # cardbase.css --focus


def tab_to(page: Page, selector: str, limit: int = 400) -> None:
    """Press Tab until the focused element matches ``selector`` (a failure after ``limit`` presses)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement && document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"{selector}: not reached by Tab in {limit} presses")


def focused(page: Page) -> dict[str, Any]:
    return dict(
        page.evaluate(
            """() => { const e = document.activeElement; const cs = getComputedStyle(e);
                 return {tag: e.tagName, inTable: !!e.closest('#table'), key: e.dataset.key || '',
                         outline: cs.outlineStyle + ' ' + cs.outlineColor}; }"""
        )
    )


def mark_live_regions(page: Page) -> None:
    """Mark every live region in the page now: one that stays (not swapped out) keeps the mark."""
    page.evaluate(
        """() => document.querySelectorAll('[aria-live], [role=status], [role=alert], [role=log]')
                   .forEach(e => { e.dataset.before = '1'; })"""
    )


def said(page: Page) -> str:
    """What the live regions present before the last move, and still in the page, now hold."""
    return str(
        page.evaluate(
            """() => Array.from(document.querySelectorAll('[data-before]'))
                   .filter(e => e.isConnected).map(e => e.textContent).join(' | ')"""
        )
    )


def press_and_settle(page: Page, live: LiveServer, game_id: str, key: str = "Enter") -> None:
    """Press ``key`` (a move), wait for the page to show a newer table, then settle."""
    before = table_version(page)
    page.keyboard.press(key)
    page.wait_for_function("v => Number(document.getElementById('table').dataset.version) > v", arg=before)
    settle(page, live, game_id)


def settle(page: Page, live: LiveServer, game_id: str) -> None:
    """Wait until the agents are done and the page shows the table as the server has it."""
    assert hall(live).wait_quiet(game_id, 300)
    table = hall(live).get(game_id).table
    with table.lock:
        version = table.version
    wait_table(page, version)


def newest_log(page: Page) -> str:
    return str(
        page.locator("#log li").first.evaluate(
            """li => Array.from(li.childNodes)
                   .filter(n => n.nodeName !== 'UL' && !(n.classList && n.classList.contains('n')))
                   .map(n => n.textContent).join('').trim()"""
        )
    )


def test_a_meio_split_and_a_card_by_keyboard_keep_the_focus_and_the_reply_and_a_refusal_are_said(
    new_context: ContextMaker, live_server: LiveServer
) -> None:
    """The split (six checkboxes by Space, then the split button) and a card (Enter) by keyboard: the
    focus stays in the table, not thrown to the page's top; the agent's reply and the status are said
    in a live region that was in the page before the move (the status's own is swapped with the table,
    and a live region put in a page is not announced); a typed move refused is said there too."""
    seats = [{"agent": "human"}, {"agent": "random"}]
    made = create(live_server, {"game": "meio", "players": 2, "seats": seats, "seed": 5})
    page = new_context().new_page()
    open_link(page, made["seats"][0]["url"], live_server.url)
    expect(page.locator(".split-picker")).to_be_visible()
    for _ in range(6):
        tab_to(page, ".split-picker input[type=checkbox]:not(:checked):not(:disabled)")
        page.keyboard.press("Space")
    tab_to(page, "button.split-go")
    mark_live_regions(page)
    press_and_settle(page, live_server, made["id"])
    expect(page.locator("#status")).to_contain_text("Your move")
    now = focused(page)
    assert now["inTable"], f"after the split the focus is on {now}, not in the table"
    assert "Your move" in said(page), said(page)

    tab_to(page, "button.playable")
    mark_live_regions(page)
    press_and_settle(page, live_server, made["id"])
    now = focused(page)
    assert now["inTable"], f"after a card the focus is on {now}, not in the table"
    expect(page.locator("#status")).to_contain_text("Your move")
    assert newest_log(page) in said(page), (newest_log(page), said(page))  # the agent's card, said

    tab_to(page, "#typed input[name=action]")
    page.keyboard.type("play nonsense")
    mark_live_regions(page)
    page.keyboard.press("Enter")
    expect(page.locator("#error")).to_be_visible()
    reason = page.locator("#error").inner_text()
    assert reason in said(page), (reason, said(page))
    assert focused(page)["inTable"]


def mea_main_turn(new_context: ContextMaker, live_server: LiveServer) -> Page:
    """P1 (a person) against an agent at Méa, past the opening draw (the most cards) by keyboard, in
    P1's main phase with a monster to summon (the first seed that has one)."""
    for seed in range(21, 41):
        made = create(
            live_server,
            {"game": "mea", "seats": [{"agent": "human"}, {"agent": "heuristic"}], "decks": mea_decks(), "seed": seed},
        )
        page = new_context().new_page()
        open_link(page, made["seats"][0]["url"], live_server.url)
        settle(page, live_server, made["id"])
        while page.locator("#table .board-prompt", has_text="opening hand").count():
            tab_to(page, "#table .plain-acts button.plain-act[data-kind=draw]:nth-of-type(5)")
            press_and_settle(page, live_server, made["id"])
        expect(page.locator("#status")).to_contain_text("Your move")
        if summons(page):
            return page
        page.close()
    raise AssertionError("no seed from 21 to 40 gave P1 a monster to summon on the first turn")


def summons(page: Page) -> list[str]:
    """The cards in the hand with a place to go (monsters to summon), by the board's legal actions."""
    legal = page.locator("#table script.board-legal").evaluate("s => JSON.parse(s.textContent)")
    return sorted({a["src"][0] for a in legal if a.get("dst") and a.get("src") and a["src"][0].startswith("card:")})


def game_of(page: Page) -> str:
    return page.url.split("/play/", 1)[1].split("?", 1)[0]


def tab_to_a_card_with_places(page: Page) -> None:
    """Tab to a card in the hand that has a place to go (a monster to summon), by the board's legal actions."""
    keys = summons(page)
    tab_to(page, f'#table button[data-key="{keys[0]}"]')


def test_a_lit_tile_keeps_a_visible_focus_ring(new_context: ContextMaker, live_server: LiveServer) -> None:
    """A card picked by Enter lights the tiles it can go to; a lit tile's light replaced the focus
    ring (``outline: 0``), so Tab onto it showed nothing. Every place of a board keeps the ring."""
    page = mea_main_turn(new_context, live_server)
    tab_to_a_card_with_places(page)
    assert focused(page)["outline"].endswith(FOCUS_RING), focused(page)
    page.keyboard.press("Enter")
    expect(page.locator("#table [data-key].picked")).to_have_count(1)
    assert focused(page)["outline"].endswith(FOCUS_RING), f"a picked card, focused: {focused(page)}"
    tab_to(page, "#table .tile-hit.target")
    assert focused(page)["outline"].startswith("solid") and focused(page)["outline"].endswith(FOCUS_RING), focused(page)
    tile = focused(page)["key"]
    mark_live_regions(page)  # Enter summons there: the focus stays on that tile, the summon is said
    press_and_settle(page, live_server, game_of(page))
    assert focused(page)["key"] == tile, focused(page)
    assert "summon" in said(page), said(page)


def test_what_a_board_lights_or_picks_is_in_the_names(new_context: ContextMaker, live_server: LiveServer) -> None:
    """Picked, lit (a place to click) and pickable were shown only by colour and outline: a screen
    reader heard "tile b1, P1's (yellow), empty" whether or not a card could go there. The names say it."""
    page = mea_main_turn(new_context, live_server)
    card = page.locator("#table button[data-key^='card:'].pickable").first
    expect(card).to_have_accessible_name(re.compile(r", can be picked$"))
    tab_to_a_card_with_places(page)
    page.keyboard.press("Enter")
    picked = page.locator("#table [data-key].picked")
    expect(picked).to_have_accessible_name(re.compile(r", picked$"))
    expect(picked).to_have_attribute("aria-pressed", "true")
    target = page.locator("#table .tile-hit.target").first
    expect(target).to_have_accessible_name(re.compile(r"^tile .*, lit: click to choose it$"))
    page.keyboard.press("Escape")  # cancelled: the names are as before
    expect(page.locator("#table [data-key].picked")).to_have_count(0)
    expect(page.locator("#table .tile-hit").first).not_to_have_accessible_name(re.compile("lit"))


# --- the deck builder ------------------------------------------------------------------------------


def test_a_count_changed_by_keyboard_is_said_and_a_removed_card_leaves_the_focus_in_the_deck(
    page: Page, live_server: LiveServer
) -> None:
    """+ and − by keyboard kept the focus (test_flows) but said nothing: the entry and the deck's
    panels are swapped in, their live regions with them. A live region that stays says the card's new
    count, the deck's size and whether it is valid. The last copy removed took the focus to the page's
    top (the deck's heading was made focusable, never focused): it goes to the deck's heading."""
    deck_id, _ = make_deck(live_server, "mea", {"Dizzy Bat": 1, "Crumb Goblin": 2})
    page.goto(f"/decks/{deck_id}")
    expect(page.locator("#deck-count")).to_have_text("3")
    tab_to(page, 'button[aria-label="One more Dizzy Bat"]')
    mark_live_regions(page)
    page.keyboard.press("Enter")
    expect(page.locator("#deck-count")).to_have_text("4")
    page.wait_for_function("() => document.activeElement && document.activeElement.matches('button.inc')")
    assert re.search(r"Dizzy Bat: 2 in the deck\. Deck: 4 cards, ✗ not valid", said(page)), said(page)

    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Enter")
    expect(page.locator("#deck-count")).to_have_text("3")
    mark_live_regions(page)
    page.keyboard.press("Enter")
    expect(page.locator("#deck-count")).to_have_text("2")
    expect(page.locator("#deck li[data-card-id='mea/demo/dizzy-bat']")).to_have_count(0)
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'deck-h'")
    assert "Dizzy Bat: none left in the deck. Deck: 2 cards" in said(page), said(page)

    tab_to(page, 'button[aria-label="One fewer Crumb Goblin"]')
    mark_live_regions(page)
    page.keyboard.press("Enter")
    expect(page.locator("#deck-count")).to_have_text("1")
    page.wait_for_function("() => document.activeElement && document.activeElement.matches('button.dec')")
    assert "Crumb Goblin: 1 in the deck. Deck: 1 card, ✗ not valid" in said(page), said(page)  # not "1 cards"


# --- the replay ------------------------------------------------------------------------------------


def finished_meio_replay(new_context: ContextMaker, live_server: LiveServer) -> Page:
    """A page on the replay of a seeded 2-player Meio game of two random agents, opened from its table."""
    made = create(live_server, {"game": "meio", "players": 2, "seats": [{"agent": "random"}] * 2, "seed": 3})
    assert hall(live_server).wait_quiet(made["id"], 300)
    page = new_context().new_page()
    page.goto(f"/play/{made['id']}")
    page.locator("#replay-link").click()
    page.wait_for_url(re.compile(r"/replay/"))
    page.wait_for_load_state("domcontentloaded")  # (replay.js, deferred, has run: it takes the arrow keys)
    return page


def test_a_replay_stepped_by_the_arrow_keys_says_the_step_not_the_whole_board(
    new_context: ContextMaker, live_server: LiveServer
) -> None:
    """The step's whole part was a live region: each → read the whole board out (the scores, the
    hands, the notes). The step's line is said, in a region that stays; the board is there to be read."""
    page = finished_meio_replay(new_context, live_server)
    expect(page.locator("#step-body")).to_have_attribute("data-step", "0")
    mark_live_regions(page)
    for n in (1, 2):
        page.keyboard.press("ArrowRight")
        expect(page.locator("#step-body")).to_have_attribute("data-step", str(n))
    line = page.locator("#step-action").inner_text()
    assert line.startswith("Step 2: ") and line in said(page), (line, said(page))
    boards = page.evaluate(
        "() => document.querySelectorAll(':is([aria-live], [role=status], [role=alert]) .game-board').length"
    )
    assert boards == 0, "a live region holds a whole board"


def test_a_card_face_the_keyboard_stops_on_is_named_by_its_card(
    new_context: ContextMaker, live_server: LiveServer
) -> None:
    """A face that takes no click (a hand seen in a replay, a Meikyu hand, a trick) is a Tab stop for
    its preview, but was a bare span: a screen reader said nothing of it. It is a group named by its card."""
    page = finished_meio_replay(new_context, live_server)
    for n in (1, 2, 3):  # (after the deal: the hands, seen as everything)
        page.keyboard.press("ArrowRight")
        expect(page.locator("#step-body")).to_have_attribute("data-step", str(n))
    faces = page.locator("#step-body span.face[tabindex='0']")
    expect(faces.first).to_be_visible()
    assert faces.count() >= 13
    for i in range(faces.count()):
        face = faces.nth(i)
        label = face.locator(".face-name").inner_text().strip()
        expect(face).to_have_role("group")
        expect(face).to_have_accessible_name(label)


def test_a_meikyu_quest_by_keyboard_and_its_die_said(new_context: ContextMaker, live_server: LiveServer) -> None:
    """The composer by keyboard: Enter on a room (its name says it is picked), Enter on each card's +,
    Enter on Commit; the die the table rolls is said, and the focus stays in the table."""
    made, live = next(filter(None, (quest_ready(live_server, seed) for seed in range(1, 60))))
    page = new_context().new_page()
    open_link(page, made["seats"][0]["url"], live_server.url)
    with live.table.lock:
        state = live.table.state.clone()
    quest = next(
        e
        for e in legal_view(state, state.legal_actions())
        if e["kind"] == "quest" and not e["lab"] and len(e["cards"]) == 2 and {"Sword", "Grimoire"} & set(e["cards"])
    )
    expect(page.locator(".composer")).to_be_visible()
    room = f'#table [data-key="room:{quest["room"]}"]'
    tab_to(page, room)
    page.keyboard.press("Enter")
    expect(page.locator(room)).to_have_accessible_name(re.compile(r", picked$"))
    for name in quest["cards"]:
        tab_to(page, f'.meikyu-hand li[data-card="{name}"] button.inc')
        page.keyboard.press("Enter")
    expect(page.locator(".composer-total")).to_contain_text(f"Quest {quest['room']}:")
    tab_to(page, "button.composer-go")
    mark_live_regions(page)
    press_and_settle(page, live_server, made["id"])
    assert focused(page)["inTable"], focused(page)
    with live.table.lock:
        history = [str(a) for a in live.table.state.history]
    die = history[history.index(quest["text"]) + 1]
    assert die.startswith("roll ")
    assert f"rolls {die.split()[1]}" in said(page), said(page)


def test_a_tag_added_by_keyboard_keeps_the_focus_on_the_entry_and_is_said(page: Page, live_server: LiveServer) -> None:
    """A tag (the entry's "tags" form) reloaded the whole page: the focus went to its top, the entry's
    tags folded, and nothing said the tag was saved. It is saved in place like a count: the focus back
    in the entry's tag box, the entry's tags said in a live region that stays."""
    deck_id, _ = make_deck(live_server, "mea", {"Dizzy Bat": 2, "Crumb Goblin": 2})
    page.goto(f"/decks/{deck_id}")
    tab_to(page, 'summary[aria-label="Tags of Dizzy Bat in this deck"]')
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    page.keyboard.type("combo piece")
    mark_live_regions(page)
    page.keyboard.press("Enter")
    row = page.locator("#deck li[data-card-id='mea/demo/dizzy-bat']")
    expect(row.locator(".entry-tags")).to_contain_text("combo piece")
    page.wait_for_function("() => document.activeElement && document.activeElement.name === 'add'")
    assert page.evaluate("document.activeElement.closest('li').dataset.cardId") == "mea/demo/dizzy-bat"
    assert "Dizzy Bat: tagged combo piece." in said(page), said(page)
