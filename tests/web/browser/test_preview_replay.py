"""The card preview (hover, keyboard, tap; readable, never moving the layout) on the app's pages, and
``/replay`` stepped through in the browser, its board checked against the engine's state."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, Route, expect
from typer.testing import CliRunner

from cardbase.cli.app import app as cli_app
from cardbase.games.mea import board as B
from cardbase.sim.records import read_records, replay
from tests.web.browser.conftest import PHONE, ContextMaker, wait_until
from tests.web.browser.test_flows import MEA_TWENTY

READABLE = 400  # px: the preview's image is at least this wide (issue 26)


def preview(page: Page) -> dict[str, Any]:
    """The floating preview: whether it shows, its image's natural and shown widths, its box."""
    return page.evaluate(
        """() => {
          const fig = document.getElementById('card-preview');
          if (!fig || fig.hidden) return {visible: false};
          const img = fig.querySelector('img');
          const box = fig.getBoundingClientRect();
          return {visible: true, natural: img.naturalWidth, shown: img.getBoundingClientRect().width,
                  src: img.getAttribute('src'), left: box.left, top: box.top, right: box.right, bottom: box.bottom};
        }"""
    )


def layout(page: Page) -> list[list[float]]:
    return page.evaluate(
        "() => Array.from(document.querySelectorAll('main *')).slice(0, 400).map(e => {"
        " const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })"
    )


def wait_preview(page: Page) -> dict[str, Any]:
    page.wait_for_function(
        "() => { const f = document.getElementById('card-preview');"
        " return f && !f.hidden && f.querySelector('img').complete && f.querySelector('img').naturalWidth > 0; }"
    )
    return preview(page)


def test_hovering_a_card_shows_its_face_large_beside_it_and_the_layout_stays(page: Page) -> None:
    page.goto("/cards?q=t:monster+game:mea")
    first = page.locator("#results a.card-link").first
    before = layout(page)
    first.hover()
    shown = wait_preview(page)
    assert shown["natural"] >= READABLE and shown["shown"] >= READABLE, shown
    assert "/image.png?w=" in shown["src"]
    box = first.bounding_box()
    assert box is not None
    assert shown["left"] >= box["x"] + box["width"] or shown["right"] <= box["x"], "beside the card, not over it"
    assert shown["top"] >= 0 and shown["bottom"] <= page.viewport_size["height"]
    assert layout(page) == before  # nothing on the page moved
    page.mouse.move(2, 2)
    expect(page.locator("#card-preview")).to_be_hidden()


def test_the_keyboard_shows_the_face_on_focus_and_escape_hides_it(page: Page) -> None:
    page.goto("/cards?q=t:monster+game:mea")
    link = page.locator("#results a.card-link").first
    link.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")  # focused from the keyboard: :focus-visible
    shown = wait_preview(page)
    assert shown["natural"] >= READABLE
    page.keyboard.press("Escape")
    expect(page.locator("#card-preview")).to_be_hidden()


def test_a_scroll_while_the_pointer_rests_on_a_card_keeps_its_face(page: Page) -> None:
    """A card far down a page (the compare page's diff below the deck lists) is scrolled into view
    as the pointer reaches it, and the scroll event comes after the hover: it neither cancels the
    face about to show nor closes the face shown (it closed both, and the compare page's preview
    never came when its diff was below the fold)."""
    page.goto("/cards?q=t:monster+game:mea")
    card = page.locator("#results a.card-link").last  # below the fold: the hover scrolls to it
    card.hover()
    scrolled = "window.dispatchEvent(new Event('scroll'))"  # at once, whether the face is shown yet or not
    page.evaluate(scrolled)
    assert wait_preview(page)["natural"] >= READABLE
    page.evaluate(scrolled)
    expect(page.locator("#card-preview")).to_be_visible()  # the card is still under the pointer
    page.mouse.move(2, 2)
    expect(page.locator("#card-preview")).to_be_hidden()


def phone(new_context: ContextMaker) -> BrowserContext:
    return new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2)


def test_a_tap_shows_the_face_a_second_tap_follows_the_link_and_a_tap_elsewhere_closes_it(new_context) -> None:
    page = phone(new_context).new_page()
    page.goto("/cards?q=t:monster+game:mea")
    card = page.locator("#results a.card-link").first
    href = card.get_attribute("href")
    before = layout(page)
    card.tap()
    shown = wait_preview(page)
    assert page.url.endswith("/cards?q=t:monster+game:mea"), "the first tap only shows the face"
    assert shown["natural"] >= READABLE, shown
    assert shown["shown"] >= 0.9 * PHONE["width"] - 24, shown  # as wide as the phone allows
    assert layout(page) == before
    page.locator("h1, #result-count").first.tap()  # elsewhere
    expect(page.locator("#card-preview")).to_be_hidden()
    card.tap()
    wait_preview(page)
    card.tap()  # the second tap follows the link
    page.wait_for_url(re.compile(re.escape(href) + "$"))


def test_the_deck_list_sample_hand_compare_and_shared_deck_have_previews(page: Page, live_server) -> None:
    from tests.web.browser.test_pages import make_deck

    full, _ = make_deck(live_server, "mea", {name: 4 for name in MEA_TWENTY})
    other, _ = make_deck(live_server, "mea", {MEA_TWENTY[0]: 1})
    page.goto(f"/decks/{full}")
    page.locator("#deck li[data-card-id] a[data-preview]").first.hover()
    assert wait_preview(page)["natural"] >= READABLE
    page.mouse.move(2, 2)
    page.locator("#hand-open").click()  # the sample hand, dealt when asked for
    page.locator("#hand a[data-preview]").first.hover()
    assert wait_preview(page)["natural"] >= READABLE
    code = page.locator("#share-code").input_value()
    page.goto(f"/decks/compare?a={other}&b={full}")
    page.locator("#diff a[data-preview]").first.hover()
    assert wait_preview(page)["natural"] >= READABLE
    page.goto("/decks/new?code=" + code)
    page.locator("#preview a[data-preview]").first.hover()
    assert wait_preview(page)["natural"] >= READABLE


# --- replay --------------------------------------------------------------------------------------


def open_record(page: Page, path: Path) -> str:
    page.goto("/replay")
    page.set_input_files("#record-file", str(path))
    page.locator("#replay-go").click()
    page.wait_for_url(re.compile(r"/replay/[0-9a-f]+"))
    return page.url.split("?")[0]


def shown_step(page: Page) -> int:
    return int(page.locator("#step-body").get_attribute("data-step"))


def mea_board(page: Page) -> tuple[dict[str, int], set[tuple[str, str, str]]]:
    """The Méa board as the page draws it: tile → owner, and (tile, monster, 'attack/defence')."""
    tiles = page.eval_on_selector_all(
        "#step-body td.tile", "tds => tds.map(td => [td.dataset.tile, Number(td.dataset.owner)])"
    )
    monsters = page.eval_on_selector_all(
        "#step-body td.tile .mon",
        "ms => ms.map(m => [m.closest('td').dataset.tile, m.querySelector('.mon-name').textContent.trim(),"
        " m.querySelector('.mon-stats').textContent.trim()])",
    )
    return dict(tiles), {tuple(m) for m in monsters}


def test_steps_asked_for_while_one_is_on_its_way_are_all_taken(page: Page, sim_records) -> None:
    """Next pressed three times (or → held) while the steps are on their way lands on step 3: each press
    went on from the step shown, not the one asked for, so presses made before an answer were lost."""
    open_record(page, sim_records["meio"])
    held: list[Route] = []
    page.route(re.compile(r".*/replay/.*fragment=1.*"), lambda route: held.append(route))
    for _ in range(3):
        page.locator("#step-next").click()
    page.keyboard.press("ArrowRight")
    wait_until(page, lambda: len(held) == 4, "the four steps asked for")
    for route in held:
        route.continue_()
    expect(page.locator("#step-body")).to_have_attribute("data-step", "4")
    assert re.search(r"step=4", page.url)


@pytest.mark.parametrize("game_id", ["mea", "meio", "meikyu"])
def test_replay_steps_forward_back_by_slider_and_turn_and_shows_the_engines_board(
    page: Page, sim_records, game_id, tmp_path
) -> None:
    path = sim_records[game_id]
    (record,) = read_records(path)
    moves = replay(record, keep_moves=True).moves
    url = open_record(page, path)
    last = len(moves)
    expect(page.locator("#replay-check")).to_contain_text("Every action is legal")
    assert shown_step(page) == 0  # a replay opens at its start, to be stepped forward
    expect(page.locator("#step-action")).to_contain_text("the game before its first action")
    if game_id == "meio":  # the hands are empty: the deal is the next step, not one already made
        expect(page.locator("#step-body .board-status")).to_contain_text("the cards are to be dealt")
    page.locator("#step-last").click()
    expect(page.locator("#step-body")).to_have_attribute("data-step", str(last))
    page.locator("#step-first").click()
    expect(page.locator("#step-body")).to_have_attribute("data-step", "0")
    for n in (1, 2, 3):
        page.locator("#step-next").click()
        expect(page.locator("#step-body")).to_have_attribute("data-step", str(n))
    page.locator("#step-prev").click()
    expect(page.locator("#step-body")).to_have_attribute("data-step", "2")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#step-body")).to_have_attribute("data-step", "3")
    assert re.search(r"step=3", page.url)
    # The record cut after half its lines, replayed as `cardbase replay --json` does: its action
    # count (chance actions the seed gives after the cut included) and its state.
    lines = path.read_text(encoding="utf-8").splitlines()
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines[: 1 + last // 2]) + "\n", encoding="utf-8")
    checked = CliRunner().invoke(cli_app, ["replay", str(cut), "--json"])
    assert checked.exit_code == 0, checked.output
    middle = json.loads(checked.stdout)[0]["actions"]
    (short,) = read_records(cut)
    state = replay(short).state
    page.locator("#step-slider").fill(str(middle))
    expect(page.locator("#step-body")).to_have_attribute("data-step", str(middle))
    check_board(page, game_id, state)
    # The seat's answer is held back while a turn is chosen: the later request wins, and the
    # earlier answer, when it comes, changes nothing.
    held: list[Route] = []
    seat_step = re.compile(r".*[?&]step=\d+&seat=1&fragment=1$")
    page.route(seat_step, lambda route: held.append(route))
    page.locator("#seat-select").select_option("1")
    wait_until(page, lambda: bool(held), "choosing a seat fetched no step")
    turn, first = next(
        (value, int(re.search(r"\(step (\d+)\)", label).group(1)))
        for value, label in page.eval_on_selector_all(
            "#turn-select option", "os => os.map(o => [o.value, o.textContent])"
        )[1:]
        if int(re.search(r"\(step (\d+)\)", label).group(1)) != middle
    )
    page.locator("#turn-select").select_option(turn)
    expect(page.locator("#step-body")).to_have_attribute("data-step", str(first))
    expect(page.locator("#step-body")).to_have_attribute("data-turn", turn)
    with page.expect_event("requestfinished", lambda request: bool(seat_step.match(request.url))):
        for route in held:  # the earlier answer comes now (its whole body: the page reads it)
            route.continue_()
    page.unroute(seat_step)
    expect(page.locator("#step-body")).to_have_attribute("data-step", str(first))
    page.locator("#step-last").click()
    expect(page.locator("#step-body")).to_have_attribute("data-step", str(last))
    page.reload()  # the address keeps the step and the seat
    expect(page.locator("#step-body")).to_have_attribute("data-step", str(last))
    assert page.locator("#seat-select").input_value() == "1"
    page.goto(f"{url}?step=2&seat=0")  # a deep link opens at its step, seen as its seat
    expect(page.locator("#step-body")).to_have_attribute("data-step", "2")
    assert page.locator("#seat-select").input_value() == "0"
    page.keyboard.press("ArrowRight")
    expect(page.locator("#step-body")).to_have_attribute("data-step", "3")


def check_board(page: Page, game_id: str, state: Any) -> None:
    """The board the page shows (all-seeing) against the engine's state."""
    if game_id == "mea":
        tiles, monsters = mea_board(page)
        assert tiles == {B.name(q): o for q, o in state.tiles().items()}
        assert monsters == {
            (B.name(state.tile_of(i)), state.card(i).name, f"{state.attack_of(i)}/{state.defence_of(i)}")
            for i in state.monsters()
        }
    elif game_id == "meio":
        totals = page.eval_on_selector_all(
            "#step-body .scores tbody tr .total", "ts => ts.map(t => Number(t.textContent))"
        )
        assert totals == list(state.totals())
        horizontal = page.eval_on_selector_all(
            "#step-body .scores .horizontal", "ts => ts.map(t => Number(t.textContent))"
        )
        assert horizontal == [h for h, _ in state.tricks_won()]
    else:
        points = page.eval_on_selector_all(
            "#step-body .kingdom .pts",
            "ps => ps.map(p => parseInt(p.textContent, 10))",  # "4* of 10 pts": 4
        )
        assert points == [state.points(s) for s in range(state.rules.players)]
        rooms = page.eval_on_selector_all("#step-body .room-row .face-name", "rs => rs.map(r => r.textContent.trim())")
        assert rooms == list(state.rooms())


def test_replay_names_the_first_illegal_action(page: Page, sim_records, tmp_path) -> None:
    lines = sim_records["mea"].read_text(encoding="utf-8").splitlines()
    k = next(i for i, line in enumerate(lines) if '"action": "summon ' in line)
    entry = json.loads(lines[k])
    entry["action"] = entry["action"].rsplit(" ", 1)[0] + " z9"
    lines[k] = json.dumps(entry, ensure_ascii=False)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    open_record(page, bad)
    expect(page.locator("#replay-check")).to_contain_text(f"line {k + 1}")
    expect(page.locator("#illegal-reason")).to_contain_text("there is no tile z9")
    assert shown_step(page) == 0  # it opens at the start too; the banner goes to the refused action
    page.locator("#illegal-step").click()
    expect(page.locator("#step-body .error")).to_contain_text("is refused")
