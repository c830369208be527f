"""The boards played by clicks in Chromium (boards.js): every click ends as one legal action posted
with the version. Run on a minimal table (``board_harness``) that draws the same board partials and
takes the same form; the chosen action is checked in the game's history after each click."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from cardbase.games.base import CHANCE
from cardbase.games.mea.rules import MeaDeck, MeaRules
from cardbase.sim.boards import legal_view
from cardbase.sim.registry import game
from tests.conftest import new_database
from tests.web.browser import board_harness
from tests.web.browser.conftest import LAPTOP, PHONE, TIMEOUT_MS, LiveServer, start_server, stop_server


@pytest.fixture(scope="module")
def table_server(catalog_template: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with new_database(tmp_path_factory.mktemp("board-harness"), catalog_template) as url:
        live = start_server(url, routers=[board_harness.router])
        yield live
        stop_server(live)


@pytest.fixture
def open_seat(browser: Browser, table_server: LiveServer) -> Iterator[Any]:
    """``open_seat(key, seat, phone=False)``: a page of that seat in its own browser context; any
    uncaught JavaScript error fails the test."""
    contexts: list[BrowserContext] = []
    errors: list[str] = []

    def open_(key: str, seat: int, phone: bool = False) -> Page:
        options: dict[str, Any] = {"base_url": table_server.url, "viewport": PHONE if phone else LAPTOP}
        if phone:
            options.update(has_touch=True, is_mobile=True)
        context = browser.new_context(**options)
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
        page.goto(f"/harness/{key}?seat={seat}")
        return page

    yield open_
    for context in contexts:
        context.close()
    assert not errors, errors


def version(page: Page) -> int:
    return int(page.locator("#harness-version").get_attribute("data-version"))


def wait_version(page: Page, n: int) -> None:
    """Wait for the table's page at version ``n`` (each action a person makes is one more)."""
    expect(page.locator("#harness-version")).to_have_attribute("data-version", str(n))


def key_of(text: str) -> str:
    return f'[data-key="{text}"]'


def click_key(page: Page, key: str) -> None:
    """Click what has ``key``; a tile near its corner, where its name is (its monsters cover the middle)."""
    target = page.locator(key_of(key)).first
    target.click(position={"x": 6, "y": 6} if key.startswith("tile:") else None)


# --- Méa: a whole game, two players, by clicks ------------------------------------------------------


def mea_clicks(page: Page, action: Any, entries: list[dict[str, Any]]) -> None:
    """Make ``action`` on the board by clicks: pick (a card, monsters), then the place; when two
    actions land on one place (a move and an attack), pick the one meant from the menu."""
    entry = next(e for e in entries if e["text"] == str(action))
    src, dst = entry.get("src") or [], entry.get("dst")
    if not src and not dst:
        page.locator("button.plain-act", has_text=re.compile(f"^{re.escape(entry['text'])}$")).click()
        return
    for key in src:
        click_key(page, key)
    if not dst:
        page.locator(".picking-acts button", has_text=entry["text"]).click()
        return
    click_key(page, dst)
    same = [e for e in entries if e.get("dst") == dst and sorted(e.get("src") or []) == sorted(src)]
    if len(same) > 1:
        page.locator(".picking-acts button", has_text=re.compile(f"^{re.escape(entry['text'])}$")).click()


def test_two_players_play_a_whole_mea_game_by_clicks(open_seat) -> None:
    rules = mea_rules()
    key = board_harness.new_table(rules.new_initial_state(21))
    table = board_harness.TABLES[key]
    pages = [open_seat(key, 0), open_seat(key, 1, phone=True)]
    choosers = [game("mea").make_agent("heuristic", rules, seat, 5) for seat in (0, 1)]
    rng = random.Random(4)
    clicks: Counter[str] = Counter()
    while not table.state.is_terminal:
        seat = table.state.current_player
        assert seat >= 0
        page = pages[seat]
        page.goto(f"/harness/{key}?seat={seat}")
        legal = table.state.legal_actions()
        obs = table.state.observation(seat)
        action = choosers[seat].act(obs, legal) if rng.random() < 0.8 else legal[rng.randrange(len(legal))]
        before = table.version
        mea_clicks(page, action, legal_view(obs, legal))
        wait_version(page, before + 1)
        assert not table.errors, table.errors
        assert str(table.state.history[-1]) == str(action)
        clicks[str(action).split()[0]] += 1
    assert table.state.outcome() is not None
    # (seed 21 and these choices: draws, summons, moves, attacks, start-of-turn flips, a target
    # chosen when an ability asks, and tiles obliterated with an empty deck)
    assert {"draw", "summon", "move", "attack", "flip", "choose", "obliterate"} <= set(clicks), clicks
    for page in pages:
        page.reload()
        expect(page.locator(".board-status")).to_contain_text("game over")


def mea_rules() -> MeaRules:
    from tests.mea.conftest import DEMO

    names = ["Crumb Goblin", "Dizzy Bat", "Barrel Bandit", "Bramble Bear", "Berserk Beekeeper", "Pickpocket Ferret"]
    deck = MeaDeck("clicks", tuple((DEMO[n], 3) for n in names))
    return MeaRules(decks=(deck, deck))


# --- Meio: the split picker and its advisor, then a round by clicks --------------------------------


def test_a_meio_split_from_the_advisor_and_cards_played_by_clicks(open_seat) -> None:
    rules = game("meio").make_rules({"players": 3, "rounds": 1})
    state = rules.new_initial_state(8)
    agents = {s: game("meio").make_agent("heuristic", rules, s, s) for s in (1, 2)}
    key = board_harness.new_table(state, agents)
    table = board_harness.TABLES[key]
    page = open_seat(key, 0)
    picker = page.locator(".split-picker")
    expect(picker).to_be_visible()
    go = picker.locator(".split-go")
    expect(go).to_be_disabled()
    picker.locator(".split-advice").click()
    use = picker.locator(".advice button", has_text="Pick this split").first
    # (the advisor plays a few thousand deals: seconds alone, more than 30 s on a loaded machine)
    expect(use).to_be_visible(timeout=120_000)
    advice = picker.locator(".advice li").first.inner_text()
    # read as the terminal's hint reads: to the digits the interval gives (the server's words), not a float's 17
    said = re.search(r"round score (\d(?:\.\d+)?) \(95% (\d(?:\.\d+)?)–(\d(?:\.\d+)?), [\d,]+ deals\)", advice)
    assert said, advice
    digits = {len(x.partition(".")[2]) for x in said.groups()}
    assert len(digits) == 1 and digits <= {0, 1, 2}, advice
    expect(picker.locator(".advice-verdict")).to_contain_text(re.compile("clearly better|Too close to call"))
    use.click()
    expect(picker.locator(".split-count .n")).to_have_text("6")
    chosen = picker.locator('input[name="aside"]:checked').evaluate_all("bs => bs.map(b => b.value)")
    assert all(code in advice for code in chosen)
    expect(go).to_be_enabled()
    before = table.version
    go.click()
    wait_version(page, before + 1)
    assert not table.errors
    assert table.posted == ["id"]  # the split's legal action id, as every click sends
    split = next(a for a in table.state.history if str(a).startswith("split ") and table_seat_of(a, table) == 0)
    assert sorted(c.notation for c in split.aside_cards) == sorted(chosen)
    played = 0
    while not table.state.is_terminal:
        assert table.state.current_player == 0
        page.goto(f"/harness/{key}?seat=0")
        cards = page.locator("button.face.playable")
        expect(cards).to_have_count(len(table.state.legal_actions()))
        before = table.version
        cards.first.click()
        wait_version(page, before + 1)
        played += 1
    assert played == 13 and not table.errors


def table_seat_of(action: Any, table: Any) -> int:
    """The seat that made ``action`` in the table's game (replayed)."""
    state = table.state.rules.new_initial_state(table.state.seed)
    for a in table.state.history:
        if a is action:
            return state.current_player
        state.apply(a)
    raise AssertionError("not in the history")


# --- Meikyu: a quest with an item, the die, an Amulet; discards down to five -------------------------


def test_a_meikyu_quest_with_an_item_shows_its_total_then_the_die_and_an_amulet_reroll(open_seat) -> None:
    from tests.meikyu.helpers import position

    state = position(2, hands=[{"Executioner": 1, "Sword": 1, "Amulet": 1, "Bee": 1}, {"Cook": 1}], seed=3)
    rules = state.rules
    key = board_harness.new_table(state, {1: game("meikyu").make_agent("heuristic", rules, 1, 1)})
    table = board_harness.TABLES[key]
    page = open_seat(key, 0)
    composer = page.locator(".composer")
    expect(composer).to_be_visible()
    room = "Unnamed room 3"  # level 6 (default profile)
    click_key(page, f"room:{room}")
    expect(composer.locator(".composer-total")).to_contain_text("pick the cards")
    for name in ("Executioner", "Sword"):
        page.locator(f'.meikyu-hand li[data-card="{name}"] .inc').click()
    total = composer.locator(".composer-total")
    expect(total).to_contain_text(f"Quest {room}: 4 swords + the die against level 6")  # 3 + 1 (default profile)
    expect(total).to_contain_text("succeeds on a 2 or more (5 in 6). Counted with assumed values (*)")
    before = table.version
    composer.locator(".composer-go").click()
    wait_version(page, before + 1)
    assert not table.errors
    assert str(table.state.history[-2]) == f"quest {room} with Executioner, Sword"
    rolled = table.state.history[-1]
    assert str(rolled).startswith("roll ")
    # the die on the board, and the Amulet it may still play
    expect(page.locator(".under-way")).to_contain_text(f"4 swords + {rolled.value} = {4 + rolled.value}")
    expect(page.locator(".board-prompt.yours").first).to_contain_text("amulet")
    page.locator("button.plain-act", has_text=re.compile("^amulet$")).click()
    wait_version(page, before + 2)
    assert [str(a) for a in table.state.history].count("amulet") == 1
    assert not table.errors


def test_meikyu_discards_down_to_five_in_one_step(open_seat) -> None:
    from tests.meikyu.helpers import position

    hand = {"Bee": 2, "Cook": 2, "Sword": 2}
    state = position(2, hands=[hand, {"Cook": 1}], seed=5, pile=["Drone"] * 3, discards=[])
    rules = state.rules
    key = board_harness.new_table(state, {1: game("meikyu").make_agent("heuristic", rules, 1, 1)})
    table = board_harness.TABLES[key]
    page = open_seat(key, 0)
    before = table.version
    page.locator("button.plain-act", has_text=re.compile("^resupply$")).click()  # draws one: 7 cards
    wait_version(page, before + 1)
    box = page.locator(".discarder")
    expect(box).to_be_visible()
    need = int(box.locator(".need").inner_text())
    assert need == table.state.hand_size(0) - 5 == 2
    go = box.locator(".discard-go")
    expect(go).to_be_disabled()
    page.locator('.meikyu-hand li[data-card="Bee"] .inc').click()
    page.locator('.meikyu-hand li[data-card="Sword"] .inc').click()
    expect(go).to_be_enabled()
    go.click()  # two discards, one after the other
    expect(page.locator("#harness-version")).to_have_attribute("data-version", str(before + 3))
    assert not table.errors
    discards = [str(a) for a in table.state.history if str(a).startswith("discard ")]
    assert discards == ["discard Bee", "discard Sword"]
    assert table.state.hand_size(0) <= 5


def test_a_joint_attack_is_built_by_picking_two_monsters_then_the_enemy(open_seat) -> None:
    from tests.mea.conftest import KNIGHT, PAWN, Table, monster, rules_for, started

    lad = monster("Lad", 1, 2, 2)
    state = started(rules_for([PAWN, lad], [KNIGHT]))
    table_setup = Table(state)
    table_setup.put(0, "Pawn", "a2")
    table_setup.put(0, "Lad", "c2")
    table_setup.put(1, "Knight", "b2")  # defence 3: neither alone (1, 2) beats it, both together do
    assert state.current_player == 0 and state.phase == "main"
    key = board_harness.new_table(state)
    table = board_harness.TABLES[key]
    page = open_seat(key, 0)
    pawn, lad_key, target = key_of("mon:Pawn@a2"), key_of("mon:Lad@c2"), key_of("tile:b2")
    expect(page.locator(pawn)).to_have_class(re.compile(r"\bpickable\b"))
    page.locator(pawn).click()
    expect(page.locator(pawn)).to_have_class(re.compile(r"\bpicked\b"))
    expect(page.locator(lad_key)).to_have_class(re.compile(r"\baddable\b"))  # to attack together
    expect(page.locator(target)).not_to_have_class(re.compile(r"\btarget\b"))  # the Pawn alone cannot
    page.locator(lad_key).click()
    expect(page.locator(target)).to_have_class(re.compile(r"\btarget\b"))
    page.locator(key_of("mon:Knight@b2")).click()  # the enemy on the lit tile stands for its tile
    wait_version(page, 1)
    assert str(table.state.history[-1]) == "attack b2 with Pawn@a2 + Lad@c2"
    assert not table.errors


def test_new_marks_only_the_monsters_summoned_in_the_turn_being_played(open_seat) -> None:
    """The board's legend says NEW is "summoned this turn": the opponent's monster summoned in its
    last turn is not new in mine (the engine keeps its flag until its controller's next turn)."""
    from tests.mea.conftest import KNIGHT, PAWN, Table, rules_for, started

    def after_p2_summons(end_turn: bool) -> str:
        state = started(rules_for([PAWN], [KNIGHT]))
        table = Table(state)
        table.give(1, "Knight")
        table.turn(1)
        state.apply_text("summon Knight a1")
        if end_turn:
            state.apply_text("draw 1")
            assert state.current_player == 0 and state.phase == "main"
        return board_harness.new_table(state)

    knight = key_of("mon:Knight@a1")
    in_its_turn = open_seat(after_p2_summons(end_turn=False), 0)
    expect(in_its_turn.locator(knight)).to_have_class(re.compile(r"\bfresh\b"))
    expect(in_its_turn.locator(knight)).to_contain_text("new")
    in_mine = open_seat(after_p2_summons(end_turn=True), 0)
    expect(in_mine.locator(knight)).to_be_visible()
    expect(in_mine.locator(knight)).not_to_have_class(re.compile(r"\bfresh\b"))
    expect(in_mine.locator(f"{knight} .mark")).to_have_count(0)
    assert "summoned this turn" not in str(in_mine.locator(knight).get_attribute("aria-label"))


def test_on_a_phone_a_tap_picks_a_card_and_a_long_press_shows_it(open_seat) -> None:
    rules = mea_rules()
    state = rules.new_initial_state(2)
    state.resolve_chance()
    while (state.current_player == 0 and state.phase != "main") or state.current_player == 1:
        state.apply(state.legal_actions()[0])  # the opening draws: the smallest
        state.resolve_chance()
    key = board_harness.new_table(state)
    page = open_seat(key, 0, phone=True)
    first = page.locator(".hand-row button.face.pickable").first
    expect(first).to_be_visible()
    card = page.locator(key_of(first.get_attribute("data-key") or "")).first
    card.scroll_into_view_if_needed()
    box = card.bounding_box()
    assert box is not None
    point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 3}
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    # held until the long press (450 ms) has shown the face: a fixed hold lifts the finger too early
    # when the page's timer runs late (input comes before timers), and the press becomes a tap
    expect(page.locator("#card-preview")).to_be_visible()
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    expect(page.locator("#card-preview")).to_be_visible()  # the finger lifted: the face stays
    expect(card).not_to_have_class(re.compile(r"\bpicked\b"))  # the long press only showed the card
    expect(page.locator(".picking")).not_to_contain_text("Picked")
    page.wait_for_function(  # the large face loads after the preview opens: wait for it, then measure it
        "() => { const i = document.querySelector('#card-preview img'); return i && i.complete && i.naturalWidth > 0; }"
    )
    assert page.evaluate("document.getElementById('card-preview').querySelector('img').naturalWidth") >= 400
    page.locator(".legend").tap()  # a tap elsewhere closes it
    expect(page.locator("#card-preview")).to_be_hidden()
    card.tap()  # a tap picks the card: the tiles it can go to light up
    expect(card).to_have_class(re.compile(r"\bpicked\b"))
    expect(page.locator(".tile-hit.target").first).to_be_visible()
    read = page.locator(".picking-acts button", has_text="Read the card")
    read.tap()  # the picked card, read large
    expect(page.locator("#card-preview")).to_be_visible()


def test_a_monster_on_a_lit_tile_stands_for_its_tile_when_nothing_is_picked(open_seat) -> None:
    """At the start of a turn (nothing picked) the tiles to flip are lit; a monster covers most of
    its tile, on a phone nearly all of it: a tap on the monster flips the tile under it."""
    from tests.mea.conftest import KNIGHT, PAWN, Table, rules_for, started

    state = started(rules_for([KNIGHT, PAWN], []))
    setup = Table(state)
    setup.put(0, "Knight", "b2")  # on P2's tile
    setup.turn(1, mana=0)
    state.apply_text("draw 1")
    assert state.phase == "flip" and state.current_player == 0
    key = board_harness.new_table(state)
    table = board_harness.TABLES[key]
    page = open_seat(key, 0, phone=True)
    expect(page.locator(key_of("tile:b2"))).to_have_class(re.compile(r"\btarget\b"))
    page.locator(key_of("mon:Knight@b2")).tap()  # its middle: the monster, not the tile's corner
    wait_version(page, 1)
    assert str(table.state.history[-1]) == "flip b2"
    assert not table.errors


@pytest.mark.parametrize("columns", [5, 6])
def test_a_mea_grid_grown_to_five_or_six_columns_fits_a_phone(open_seat, columns: int) -> None:
    """Tiles added beside the board widen the grid (-b … c): on a phone it fit four columns, and a fifth was
    cut off at the screen's edge (a monster on it half shown) unless the player thought to scroll it."""
    from tests.mea.conftest import KNIGHT, PAWN, Table, monster, rules_for, started

    giant = monster("Land-Eating Leviathan", 7, 5, 7)
    state = started(rules_for([PAWN, giant], [KNIGHT]))
    table = Table(state)
    for spot, seat in (("-a2", 0), ("-b2", 1), ("d2", 0))[: columns - 3]:
        table.owner(spot, seat)
    table.put(0, "Land-Eating Leviathan", "c2")
    table.put(0, "Pawn", "-a2")
    table.put(1, "Knight", "-b2")
    table.turn(0)
    page = open_seat(board_harness.new_table(state), 0, phone=True)
    grid = page.locator(".grid-wrap")
    expect(page.locator(".mea-grid thead th")).to_have_count(columns)
    width = grid.evaluate("w => [w.scrollWidth, w.clientWidth]")
    assert width[0] <= width[1], f"the grid is {width[0]} px wide in {width[1]} px: cut off"
    name = page.locator(".mon", has_text="Land-Eating Leviathan").locator(".mon-name")
    assert name.evaluate("n => n.scrollWidth <= n.clientWidth + 1"), "the monster's name is cut off"


@pytest.mark.parametrize("phone", [False, True], ids=["laptop", "phone"])
def test_the_mea_grids_headings_name_the_tiles_as_they_are_typed_and_say_what_minus_a_is(open_seat, phone) -> None:
    """The rulebook names no tiles; the board names each by column and row as actions type it. A
    heading is the column (row) part of every tile name under it (beside it), and a column left of
    a ("-a") or a row below 1 is said in words, at both widths, not left for the player to guess."""
    from tests.mea.conftest import KNIGHT, PAWN, Table, rules_for, started

    state = started(rules_for([PAWN], [KNIGHT]))
    table = Table(state)
    table.owner("-a2", 0)
    table.owner("b0", 1)
    table.put(0, "Pawn", "-a2")
    table.turn(0)
    page = open_seat(board_harness.new_table(state), 0, phone=phone)
    grid = page.locator(".mea-grid")
    heads = grid.locator("thead th").all_inner_texts()
    assert heads == ["-a", "a", "b", "c"]
    names = grid.evaluate(
        """g => Array.from(g.tBodies[0].rows).map(r => [r.cells[0].textContent.trim(),
             Array.from(r.cells).slice(1).map(c => c.dataset.tile || '')])"""
    )
    assert [row for row, _ in names] == ["3", "2", "1", "0"]
    for row, tiles in names:
        assert [t for t in tiles if t] == [f"{col}{row}" for col, t in zip(heads, tiles, strict=True) if t]
    titles = grid.locator("thead th").evaluate_all("hs => hs.map(h => h.title)")
    assert titles[0] == "column -a: left of column a"
    assert grid.locator("tbody th").last.get_attribute("title") == "row 0: below row 1"
    key = page.locator(".mea-board-key")
    expect(key).to_be_visible()
    expect(key).to_contain_text("the rulebook names no tiles")
    expect(key).to_contain_text("-a is the column left of a")
    expect(key).to_contain_text("0 the row below 1")
    assert grid.locator("thead th").first.evaluate("h => h.getClientRects().length") == 1


def eight_columns(owners: dict[str, int]) -> Any:
    """A Méa table grown to 8 columns: the tiles of ``owners`` (tile → seat) added to the start's,
    P2's Knight on c2, P1 to move."""
    from tests.mea.conftest import KNIGHT, PAWN, Table, rules_for, started

    state = started(rules_for([PAWN], [KNIGHT]))
    table = Table(state)
    for spot, seat in owners.items():
        table.owner(spot, seat)
    table.put(1, "Knight", "c2")
    table.turn(0)
    return state


@pytest.mark.parametrize("phone", [False, True], ids=["laptop", "phone"])
def test_a_mea_grid_wider_than_the_screen_says_it_scrolls(open_seat, phone: bool) -> None:
    """A board grown to 8 columns is wider than a phone: the grid scrolls sideways, and a player saw
    four columns of empty places with nothing saying the tiles in play were off to the right. The
    board now says so, where it scrolls only (not on a laptop, where it fits)."""
    state = eight_columns({"-a1": 0, "-b1": 1, "-c1": 0, "-d1": 1, "d2": 0})
    page = open_seat(board_harness.new_table(state), 0, phone=phone)
    expect(page.locator(".mea-grid thead th")).to_have_count(8)
    wide = page.locator(".grid-wrap").evaluate("w => w.scrollWidth > w.clientWidth + 1")
    note = page.locator(".grid-scroll-note")
    assert wide == phone
    if phone:
        expect(note).to_be_visible()
        expect(note).to_contain_text("swipe")
    else:
        expect(note).to_be_hidden()


@pytest.mark.parametrize("phone", [False, True], ids=["laptop", "phone"])
def test_meikyus_steppers_line_up_under_a_hand_of_long_and_short_names(open_seat, phone: bool) -> None:
    """Happymancer's name is set smaller to fit its face, so its face was shorter and its − 0 +
    sat higher than its neighbours'. The steppers of a row of the hand share one line."""
    from tests.meikyu.helpers import position

    state = position(2, hands=[{"Bee": 1, "Happymancer": 1, "Sword": 1, "Executioner": 1}, {"Cook": 1}], seed=3)
    page = open_seat(board_harness.new_table(state), 0, phone=phone)
    expect(page.locator(".composer")).to_be_visible()
    rows: dict[int, list[float]] = {}
    for li_top, stepper_top in page.locator(".meikyu-hand li").evaluate_all(
        "ls => ls.map(l => [l.getBoundingClientRect().top, l.querySelector('.stepper').getBoundingClientRect().top])"
    ):
        rows.setdefault(round(li_top), []).append(stepper_top)
    assert sum(len(tops) for tops in rows.values()) == 4
    for tops in rows.values():
        assert max(tops) - min(tops) <= 1, rows


def test_a_mea_grid_wider_than_a_phone_opens_on_the_players_tiles_and_stays_put_across_a_move(open_seat) -> None:
    """A board grown to 8 columns opened scrolled to its left edge: the grown columns in view, the
    starting tiles and the player's own off-screen. It opens with the player's tiles in view, and a
    sideways scroll of the player's is kept when a move redraws the table."""
    state = eight_columns({"-a1": 1, "-b1": 1, "-c1": 1, "-d1": 1, "d2": 1})
    page = open_seat(board_harness.new_table(state), 0, phone=True)
    expect(page.locator(".mea-grid thead th")).to_have_count(8)
    wrap = page.locator(".grid-wrap")
    assert wrap.evaluate("w => w.scrollWidth > w.clientWidth + 1")
    in_view = """w => {
      const box = w.getBoundingClientRect();
      return Array.from(w.querySelectorAll('td.tile[data-owner="0"]')).map((td) => {
        const b = td.getBoundingClientRect();
        return b.left >= box.left - 1 && b.right <= box.right + 1;
      });
    }"""
    shown = wrap.evaluate(in_view)
    assert shown and all(shown), f"the player's tiles in view: {shown}"
    # the player scrolls to the left edge; a move redraws the board; it is still at the left edge
    wrap.evaluate("w => { w.scrollLeft = 0; w.dispatchEvent(new Event('scroll')); }")
    left = wrap.evaluate("w => w.querySelector('td[data-tile]').getBoundingClientRect().left")
    page.locator("button.plain-act").first.click()
    wait_version(page, 1)
    expect(page.locator(".mea-grid thead th")).to_have_count(8)
    assert wrap.evaluate("w => w.scrollLeft") == 0
    assert wrap.evaluate("w => w.querySelector('td[data-tile]').getBoundingClientRect().left") == left


@pytest.mark.parametrize("phone", [False, True], ids=["laptop", "phone"])
def test_the_mea_opening_draw_says_what_the_rulebook_makes_the_choice_cost(open_seat, phone: bool) -> None:
    """The opening offered "draw 1" … "draw 10" with no word on the trade-off. Beside the buttons, the
    rulebook's words: 11 cards in hand lose at once, every turn ends with a draw, an empty deck costs a tile."""
    state = mea_rules().new_initial_state(21)
    while state.current_player == CHANCE:
        state.apply(state.sample_chance())
    page = open_seat(board_harness.new_table(state), state.current_player, phone=phone)
    buttons = page.locator(".plain-acts button.plain-act")
    expect(buttons.first).to_have_text("draw 1")
    note = page.locator(".board-act .plain-note")
    expect(note).to_be_visible()
    for words in ("11 or more in their hand", "at least 1 card", "OBLITERATE a friendly tile"):
        expect(note).to_contain_text(words)
    box, first = note.bounding_box(), buttons.first.bounding_box()
    assert box and first and 0 <= first["y"] - (box["y"] + box["height"]) < 40, "the note is right above the buttons"
