"""The boards at the table of ``/play``, by clicks: two people play a whole Méa game from two
browsers, and a person plays a Meikyu turn with a quest, an item and a die roll against agents.
Each click on a board ends as one legal action posted with the version; the table's state (the
server's own, which the test may read) says which action was made."""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from cardbase.sim.boards import legal_view
from cardbase.sim.registry import game
from tests.web.browser.conftest import PHONE, ContextMaker, LiveServer
from tests.web.browser.test_board_clicks import click_key
from tests.web.play_helpers import mea_decks


def hall(live: LiveServer) -> Any:
    return live.server.config.app.state.hall


def create(live: LiveServer, body: dict[str, Any]) -> dict[str, Any]:
    with httpx.Client(base_url=live.url, timeout=60) as http:
        made = http.post("/api/games", json=body)
    assert made.status_code == 201, made.text
    data: dict[str, Any] = made.json()
    return data


def open_link(page: Page, url: str, base: str) -> None:
    page.goto(url.split(base, 1)[1] if url.startswith(base) else url)
    page.wait_for_url(lambda u: "key=" not in u)  # the key becomes a cookie
    expect(page.locator("section.game-board")).to_be_visible()


def table_version(page: Page) -> int:
    return int(page.locator("#table").get_attribute("data-version") or "-1")


def wait_table(page: Page, version: int) -> None:
    """Wait until ``page`` shows the table at ``version`` (by its event stream or its own answer)."""
    expect(page.locator("#table")).to_have_attribute("data-version", str(version))
    expect(page.locator("#table .game-board")).not_to_have_class(re.compile(r"\bbusy\b"))


def click_action(page: Page, entry: dict[str, Any], entries: list[dict[str, Any]]) -> None:
    """Make the legal action ``entry`` on the board by clicks: pick (a card, monsters), then the
    place; a menu when two actions land on one place; the board's own button when it needs no pick."""
    board = page.locator("#table section.game-board")
    src, dst = entry.get("src") or [], entry.get("dst")
    if not src and not dst:
        board.locator("button.plain-act", has_text=re.compile(f"^{re.escape(entry['text'])}$")).click()
        return
    for key in src:
        click_key(page, key)
    if not dst:
        board.locator(".picking-acts button", has_text=entry["text"]).click()
        return
    click_key(page, dst)
    same = [e for e in entries if e.get("dst") == dst and sorted(e.get("src") or []) == sorted(src)]
    if len(same) > 1:
        board.locator(".picking-acts button", has_text=re.compile(f"^{re.escape(entry['text'])}$")).click()


def test_two_people_play_a_whole_mea_game_from_two_browsers_by_clicks(
    new_context: ContextMaker, live_server: LiveServer
) -> None:
    made = create(live_server, {"game": "mea", "seats": [{"agent": "human"}] * 2, "decks": mea_decks(), "seed": 21})
    game_id = made["id"]
    pages = [new_context().new_page(), new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()]
    for seat, page in enumerate(pages):
        open_link(page, made["seats"][seat]["url"], live_server.url)
    live = hall(live_server).get(game_id)
    rules = live.table.rules
    choosers = [game("mea").make_agent("heuristic", rules, seat, 5) for seat in (0, 1)]
    rng = random.Random(4)
    kinds: Counter[str] = Counter()
    while True:
        with live.table.lock:
            state = live.table.state.clone()
            version = live.table.version
        if state.is_terminal:
            break
        seat = state.current_player
        page = pages[seat]
        wait_table(page, version)  # this seat's page has the other's move (the event stream)
        legal = state.legal_actions()
        obs = state.observation(seat)
        action = choosers[seat].act(obs, legal) if rng.random() < 0.8 else legal[rng.randrange(len(legal))]
        entries = legal_view(obs, legal)
        click_action(page, next(e for e in entries if e["text"] == str(action)), entries)
        wait_table(page, version + 1)
        with live.table.lock:
            assert str(live.table.state.history[-1]) == str(action)
        kinds[str(action).split()[0]] += 1
    assert {"draw", "summon", "move", "attack"} <= set(kinds), kinds
    for page in pages:
        expect(page.locator("#status")).to_contain_text("Game over")
        expect(page.locator("#table .board-status")).to_contain_text("game over")


def quest_ready(live: LiveServer, seed: int) -> tuple[dict[str, Any], Any] | None:
    """A Meikyu game (P1 a person, two heuristic agents) where P1's first action can be a quest
    with a character and an item; None for a seed where it cannot."""
    made = create(
        live,
        {
            "game": "meikyu",
            "players": 3,
            "assume": "default",
            "seats": [{"agent": "human"}, {"agent": "heuristic"}, {"agent": "heuristic"}],
            "seed": seed,
        },
    )
    assert hall(live).wait_quiet(made["id"], 300)
    live_table = hall(live).get(made["id"])
    state = live_table.table.state
    if state.current_player != 0 or state.decision != "action":
        return None
    entries = legal_view(state, state.legal_actions())
    items = {"Sword", "Grimoire"}
    if not any(
        e["kind"] == "quest" and not e["lab"] and len(e["cards"]) == 2 and items & set(e["cards"]) for e in entries
    ):
        return None
    return made, live_table


def test_a_person_plays_a_meikyu_turn_with_a_quest_an_item_and_the_die_by_clicks(
    new_context: ContextMaker, live_server: LiveServer
) -> None:
    found = next(filter(None, (quest_ready(live_server, seed) for seed in range(1, 60))))
    made, live = found
    page = new_context().new_page()
    open_link(page, made["seats"][0]["url"], live_server.url)
    with live.table.lock:
        state = live.table.state.clone()
        version = live.table.version
    entries = legal_view(state, state.legal_actions())
    quest = next(
        e
        for e in entries
        if e["kind"] == "quest" and not e["lab"] and len(e["cards"]) == 2 and {"Sword", "Grimoire"} & set(e["cards"])
    )
    composer = page.locator(".composer")
    expect(composer).to_be_visible()
    click_key(page, f"room:{quest['room']}")
    for name in quest["cards"]:
        page.locator(f'.meikyu-hand li[data-card="{name}"] .inc').click()
    swords = f"{quest['total']} sword{'' if quest['total'] == 1 else 's'}"
    expect(composer.locator(".composer-total")).to_contain_text(
        f"Quest {quest['room']}: {swords} + the die against level {quest['level']}"
    )
    composer.locator(".composer-go").click()
    wait_table(page, version + 1)
    with live.table.lock:
        history = [str(a) for a in live.table.state.history]
    at = history.index(quest["text"])
    assert history[at + 1].startswith("roll ")  # the die, rolled by the table
    die = int(history[at + 1].split()[1])
    expect(page.locator("#log")).to_contain_text(f"rolls {die}")


def test_a_cards_preview_at_a_meikyu_table_shows_the_face_the_table_plays(
    new_context: ContextMaker, live_server: LiveServer
) -> None:
    """A character in the hand, opened large, is drawn by the table (its assumed Bravery and Wits,
    marked), not from the catalog, whose values are unknown."""
    page = new_context().new_page()
    for seed in range(1, 30):
        seats = [{"agent": "human"}, {"agent": "heuristic"}]
        made = create(live_server, {"game": "meikyu", "seats": seats, "assume": "default", "seed": seed})
        open_link(page, made["seats"][0]["url"], live_server.url)
        character = page.locator('.meikyu-hand li[data-type="character"] .face').first
        if character.count():
            break
    else:
        raise AssertionError("no deal of 30 gave the first seat a character")
    assert (character.get_attribute("data-preview") or "").startswith(f"/play/{made['id']}/cards/meikyu/")
    character.click()
    expect(page.locator("#card-preview")).to_be_visible()
    page.wait_for_function(
        "() => { const i = document.querySelector('#card-preview img'); return i && i.complete && i.naturalWidth > 0; }"
    )
    src = page.evaluate("document.querySelector('#card-preview img').getAttribute('src')")
    assert src.startswith(f"/play/{made['id']}/cards/meikyu/"), src
