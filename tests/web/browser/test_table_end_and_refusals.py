"""What a new player's walk through whole games at the table (Méa, Meio with 2 and 4 players,
Meikyu; a laptop and a phone, by clicks) found: a finished game offered its replay and its record but
no way to play again, and a Meio hand's greyed cards said nothing of why they could not be played."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from cardbase.games.meio.masks import _SUIT, SUIT_MASKS
from tests.web.browser.conftest import PHONE, ContextMaker, LiveServer
from tests.web.browser.test_play_boards import create, hall, open_link
from tests.web.play_helpers import mea_decks

PHONE_OPTIONS = {"viewport": PHONE, "has_touch": True, "is_mobile": True}
GAME_PAGE = re.compile(r"/play/[\w-]+$")  # a game's page (the start form's is /play?game=...)


def test_a_finished_game_offers_a_new_game_with_the_same_players_and_rules(
    new_context: ContextMaker, live_server: LiveServer
) -> None:
    """As lichess's "Rematch" / "New opponent" at a game's end: the end of a game had Replay and
    Download, below the whole log, and no way to play again but the menu's Play and the form filled
    anew. At the top, beside "Game over", a link opens the start form with the game's players, agents
    and rules options already chosen (a new seed: the same seed would deal the same cards)."""
    body = {
        "game": "meio",
        "players": 3,
        "seats": [{"agent": "random"}, {"agent": "heuristic"}, {"agent": "search:samples=5"}],
        "rules": {"rounds": "1", "ace_high": "no"},
        "seed": 3,
    }
    made = create(live_server, body)
    hall(live_server).wait_quiet(made["id"], 300)
    page = new_context(**PHONE_OPTIONS).new_page()
    page.goto(f"/play/{made['id']}")
    expect(page.locator("#status")).to_contain_text("Game over")
    again = page.locator("#play-again")
    expect(again).to_be_in_viewport()  # the first screen, where the player reads that the game is over
    expect(again).to_have_text(re.compile("new game", re.I))
    again.click()
    expect(page).to_have_url(re.compile(r"/play\?"))
    expect(page.locator("#players")).to_have_value("3")
    expect(page.locator("select[name=seat0]")).to_have_value("random")
    expect(page.locator("select[name=seat1]")).to_have_value("heuristic")
    expect(page.locator("select[name=seat2]")).to_have_value("search")
    expect(page.locator("input[name=seat2_options]")).to_have_value("samples=5")
    expect(page.locator("select[name=rule_ace_high]")).to_have_value("no")
    expect(page.locator("input[name=rule_rounds]")).to_have_value("1")
    expect(page.locator("input[name=seed]")).to_have_value("")
    page.locator("select[name=seat0]").select_option("human")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#status")).to_contain_text("You are P1")
    expect(page.locator("#table-info")).to_contain_text("1 round")
    expect(page.locator("#table-info")).to_contain_text("samples=5")


def test_a_person_at_a_finished_meikyu_game_is_offered_a_new_one_too(
    new_context: ContextMaker, live_server: LiveServer
) -> None:
    """The link is the table's, whatever the game: a Meikyu game's keeps its assumption profile. (And
    the finished board marked the kingdom whose turn it had been with TURN, as if the game went on.)"""
    body = {"game": "meikyu", "players": 2, "seats": [{"agent": "random"}] * 2, "assume": "default", "seed": 2}
    made = create(live_server, body)
    hall(live_server).wait_quiet(made["id"], 300)
    page = new_context().new_page()
    page.goto(f"/play/{made['id']}")
    # the kingdom whose turn it was is no longer marked as having the turn: no one has it now
    expect(page.locator("#board .kingdom")).to_have_count(2)
    expect(page.locator("#board .kingdom.turn")).to_have_count(0)
    expect(page.locator("#board .kingdom-head .board-tag")).to_have_count(0)
    page.locator("#play-again").click()
    expect(page.locator("nav.game-tabs [aria-current=page]")).to_have_text("Meikyu Kingdom")
    expect(page.locator("#players")).to_have_value("2")
    expect(page.locator("select[name=assume]")).to_have_value("default")


def _follow_position(live_server: LiveServer) -> dict[str, Any]:
    """A Meio game (P1 a person, P2 a random agent) at P1's turn with a trick on the table whose
    suit P1 holds besides other suits: the rules hold the other suits back."""
    for seed in range(1, 40):
        seats = [{"agent": "human"}, {"agent": "random"}]
        made = create(live_server, {"game": "meio", "players": 2, "seats": seats, "seed": seed})
        live = hall(live_server).get(made["id"])
        for _ in range(30):
            hall(live_server).wait_quiet(made["id"], 300)
            with live.table.lock:
                state = live.table.state.clone()
                version = live.table.version
            if state.is_terminal:
                break
            obs = state.observation(0)
            if obs.phase == "play" and obs.trick:
                led = _SUIT[obs.trick[0]]
                if obs.hand & SUIT_MASKS[led] and obs.hand & ~SUIT_MASKS[led]:
                    return made
            hall(live_server).act(made["id"], 0, 0, version)  # the first legal action
    raise AssertionError("no seed from 1 to 39 had P1 follow a suit while holding others")


def test_a_meio_hand_says_why_its_greyed_cards_cannot_be_played(
    new_context: ContextMaker, live_server: LiveServer
) -> None:
    """P2 led a heart and P1 held hearts and spades: the spades were greyed, a tap on one did
    nothing, and nothing said why (the rule was said only to an action typed in the box). The hand's
    heading says the rule, in the words a refusal uses."""
    made = _follow_position(live_server)
    page = new_context(**PHONE_OPTIONS).new_page()
    open_link(page, made["seats"][0]["url"], live_server.url)
    idle = page.locator(".meio-hand .face.idle")
    expect(idle.first).to_be_visible()
    why = page.locator("#board .held-back")
    expect(why).to_be_visible()
    expect(why).to_contain_text(re.compile(r"must follow [♠♥♦♣]: you hold "))
    idle.first.click()
    expect(why).to_be_in_viewport()


def test_a_new_mea_game_from_a_finished_one_keeps_its_decks(new_context: ContextMaker, live_server: LiveServer) -> None:
    """The decks chosen on the form (here the examples, swapped from the form's default) are chosen again.
    (It failed once under load with "Page.reload: Not attached to an active page": it read the address
    as the click returned and reloaded, with nothing waited for. The game's page is waited for, and the
    end as the live page shows it: no reload.)"""
    page = new_context().new_page()
    page.goto("/play?game=mea")
    page.locator("select[name=seat0]").select_option("heuristic")
    page.locator("select[name=deck0]").select_option("example:mea-tile-control.txt")
    page.locator("select[name=deck1]").select_option("example:mea-goblin-rush.txt")
    page.locator("input[name=seed]").fill("4")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(GAME_PAGE)  # the redirect's page, loaded: the click may return before it comes
    game_id = page.url.rsplit("/", 1)[1]
    assert hall(live_server).wait_quiet(game_id, 300), f"game {game_id} still thinking"
    expect(page.locator("#status")).to_contain_text("Game over")  # the table's events bring the end
    page.locator("#play-again").click()
    expect(page.locator("select[name=seat0]")).to_have_value("heuristic")
    expect(page.locator("select[name=deck0]")).to_have_value("example:mea-tile-control.txt")
    expect(page.locator("select[name=deck1]")).to_have_value("example:mea-goblin-rush.txt")


def test_the_end_of_a_game_is_brought_to_where_the_player_is(
    new_context: ContextMaker, live_server: LiveServer
) -> None:
    """On a phone a player plays the last card from the hand, far below the page's status: the table
    was swapped for the finished one and the player saw an empty hand, with "Game over", who won and
    the new-game link off the screen above. When the game ends, the status is brought into view."""
    body = {"game": "meio", "players": 2, "seats": [{"agent": "human"}, {"agent": "random"}], "seed": 5}
    made = create(live_server, {**body, "rules": {"rounds": "1"}})
    live = hall(live_server).get(made["id"])
    while True:  # to P1's last card
        hall(live_server).wait_quiet(made["id"], 300)
        with live.table.lock:
            state = live.table.state.clone()
            version = live.table.version
        assert not state.is_terminal
        if len(state.observation(0).tricks) == 12 and state.current_player == 0:
            break
        hall(live_server).act(made["id"], 0, 0, version)
    page = new_context(**PHONE_OPTIONS).new_page()
    open_link(page, made["seats"][0]["url"], live_server.url)
    card = page.locator(".meio-hand button.playable")
    card.evaluate("el => el.scrollIntoView({block: 'start'})")
    expect(page.locator("#status")).not_to_be_in_viewport()
    card.click()
    expect(page.locator("#status")).to_contain_text("Game over")
    expect(page.locator("#status")).to_be_in_viewport()
    expect(page.locator("#play-again")).to_be_in_viewport()


def test_a_replays_step_of_chance_is_the_tables_not_chances(new_context: ContextMaker, live_server: LiveServer) -> None:
    """The replay said "Step 6: chance — draw Master": the game engine's name for the seat of the deals,
    draws and dice. The table's log says such a step without a seat; the replay says "the table"."""
    body = {"game": "meikyu", "players": 2, "seats": [{"agent": "random"}] * 2, "assume": "default", "seed": 2}
    made = create(live_server, body)
    hall(live_server).wait_quiet(made["id"], 300)
    page = new_context(**PHONE_OPTIONS).new_page()
    page.goto(f"/play/{made['id']}/replay")
    page.locator("#step-next").click()
    line = page.locator("#step-action")
    expect(line).to_contain_text("Step 1: the table — ")
    assert "chance" not in line.inner_text()


def test_a_meio_log_and_replay_name_cards_as_the_table_shows_them(
    new_context: ContextMaker, live_server: LiveServer
) -> None:
    """The log said "P2: play 5H" beside "P2 wins trick 7 with 5♥" and the board's 5♥ (the replay's
    steps too): the cards of an action are written as the table shows them (5♥, which may be typed as well)."""
    made = create(live_server, {"game": "meio", "players": 2, "seats": [{"agent": "random"}] * 2, "seed": 3})
    hall(live_server).wait_quiet(made["id"], 300)
    page = new_context().new_page()
    page.goto(f"/play/{made['id']}")
    code = re.compile(r"\b(10|[2-9AJQK])[SHDC]\b")
    log = page.locator("#log").inner_text()
    assert not code.search(log), code.search(log)
    assert re.search(r"P\d: play (10|[2-9AJQK])[♠♥♦♣]", log), log[:300]
    page.locator("#replay-link").click()
    page.locator("#step-last").click()
    expect(page.locator("#step-action")).to_contain_text(re.compile(r"play (10|[2-9AJQK])[♠♥♦♣]"))


def _mea_held_back_position(live_server: LiveServer) -> tuple[dict[str, Any], str]:
    """A Méa game (P1 a person with an opening hand of 5, P2 a random agent) at P1's main phase
    with a card in P1's hand the rules hold back (its cost above the mana left, or no tile for it)
    beside one they do not; and the reason the rules give."""
    for seed in range(1, 30):
        seats = [{"agent": "human"}, {"agent": "random"}]
        made = create(live_server, {"game": "mea", "seats": seats, "decks": mea_decks(), "seed": seed})
        live = hall(live_server).get(made["id"])
        for _ in range(40):
            hall(live_server).wait_quiet(made["id"], 300)
            with live.table.lock:
                state = live.table.state.clone()
                version = live.table.version
            if state.is_terminal:
                break
            if state.current_player == 0 and state.phase == "main":
                said = state.held_back(0)
                if None in said and any(said):
                    return made, next(s for s in said if s)
            step = 4 if state.phase == "opening" else 0  # draw 5; then the first legal action
            hall(live_server).act(made["id"], 0, step, version)
    raise AssertionError("no seed from 1 to 29 had P1 hold a card the rules held back")


def test_a_mea_hand_says_why_its_greyed_cards_cannot_be_played(
    new_context: ContextMaker, live_server: LiveServer
) -> None:
    """P1 held a card that cost more than the mana left: it was not lit, a tap on it only put the
    picking prompt back, and nothing said why. The hand's heading says it, in the refusal's words; the
    card says it too (its title, so a screen reader's description), and a tap on it says it again."""
    made, reason = _mea_held_back_position(live_server)
    page = new_context(**PHONE_OPTIONS).new_page()
    open_link(page, made["seats"][0]["url"], live_server.url)
    why = page.locator("#board .held-back")
    expect(why).to_be_visible()
    expect(why).to_contain_text(reason)
    idle = page.locator(".board-mea .hand-row .face.idle")
    expect(idle.first).to_be_visible()
    expect(idle.first).to_have_attribute("title", re.compile(r"cannot be played now: \S"))
    idle.first.click()
    expect(page.locator("#board .picking-text")).to_contain_text(re.compile("cannot be played now: ", re.I))
