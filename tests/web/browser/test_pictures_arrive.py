"""Nothing on a page moves when its card pictures arrive: every page that shows card pictures, at a
laptop's and a phone's width. The test holds every picture (``image.png``) the page asks for, records
where every element of the page's main part (and the footer below it) is, lets the pictures come,
waits until every picture is drawn, and finds everything where it was. A picture's box is the page's
from the start (its width and height, or a frame of the card's proportions), never the picture's own
size once it comes: else a click aimed before the pictures come lands on what moved there (CI
failed on the deck builder's faces, whose stacks grew when their pictures came)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect

from tests.web.browser.conftest import LAPTOP, PHONE, ContextMaker, LiveServer, wait_until
from tests.web.browser.screens import kinds, seat_at
from tests.web.browser.test_pages import make_deck
from tests.web.browser.test_preview_replay import open_record
from tests.web.play_helpers import mea_decks

PICTURES = "**/image.png?*"
DECK = {"Crumb Goblin": 3, "Dizzy Bat": 2, "Pep Talk": 2, "Bramble Bear": 1, "Selounticia": 2}
AGENTS = [{"agent": "human"}, {"agent": "heuristic"}, {"agent": "heuristic"}]

BOXES = """() => {
  const classes = (el) => (typeof el.className === 'string' ? el.className.trim().split(/\\s+/) : []).filter(Boolean);
  const name = (el) => [el.tagName.toLowerCase() + (el.id ? '#' + el.id : ''), ...classes(el)].join('.');
  const out = [];
  for (const el of [...document.querySelectorAll('main *'), document.querySelector('footer')]) {
    if (!el || !el.getClientRects().length) continue;
    const r = el.getBoundingClientRect();
    const at = (v) => Math.round(v * 100) / 100;
    out.push([name(el), at(r.left + scrollX), at(r.top + scrollY), at(r.width), at(r.height)]);
  }
  return out;
}"""
"""Every shown element of the page's main part and its footer: its name and its box on the page."""


@dataclass(frozen=True)
class Shown:
    """A page that shows card pictures: how to open it (its path, from the live server and the test's
    records), and what says its script has finished drawing it."""

    path: Callable[[LiveServer, dict[str, Path], Page], str]
    ready: str = "main"
    pictures: bool = True


def deck_path(query: str) -> Callable[[LiveServer, dict[str, Path], Page], str]:
    def path(live: LiveServer, records: dict[str, Path], page: Page) -> str:
        deck_id, _ = make_deck(live, "mea", DECK)
        return f"/decks/{deck_id}{query}"

    return path


def table_path(game: str) -> Callable[[LiveServer, dict[str, Path], Page], str]:
    """P1's seat (a person, heuristic agents at the other seats) at a turn of P1's with cards on the table."""

    def path(live: LiveServer, records: dict[str, Path], page: Page) -> str:
        if game == "mea":
            body = {"game": "mea", "seats": AGENTS[:2], "decks": mea_decks(), "seed": 3}
            return seat_at(live, body, lambda s: s.turn >= 3 and "summon" in kinds(s))[0]
        if game == "meio-split":  # the split picker: P1 sets six cards aside
            return seat_at(live, {"game": "meio", "players": 3, "seats": AGENTS, "seed": 5}, lambda s: True)[0]
        if game == "meio":
            body = {"game": "meio", "players": 3, "seats": AGENTS, "seed": 5}
            return seat_at(live, body, lambda s: "play" in kinds(s) and len(s.history) > 9)[0]
        body = {"game": "meikyu", "players": 3, "seats": AGENTS, "assume": "default", "seed": 2}
        return seat_at(live, body, lambda s: "quest" in kinds(s) and s.turns >= 4)[0]

    return path


def replay_path(live: LiveServer, records: dict[str, Path], page: Page) -> str:
    """A Méa record's middle step as P1 saw it (opened in a page of its own: the measured page's
    browser has fetched no picture yet)."""
    address = open_record(page, records["mea"])
    length = int(page.locator("#replay-controls").get_attribute("data-length") or "0")
    return f"{address.split(live.url, 1)[1]}?step={length // 2}&seat=0"


SHOWN = {
    "catalog-grid": Shown(lambda live, records, page: "/cards?q=game:mea"),
    "catalog-table": Shown(lambda live, records, page: "/cards?q=game:mea&view=table", pictures=False),
    "card": Shown(lambda live, records, page: "/cards/mea/demo/crumb-goblin"),
    "card-editor": Shown(lambda live, records, page: "/cards/mea/demo/crumb-goblin/edit"),
    "builder-list": Shown(deck_path("?group=type&sort=name&layout=list")),
    "builder-faces": Shown(deck_path("?group=type&sort=name&layout=visual#deck-panel")),  # a phone: the Deck tab
    "sample-hand": Shown(deck_path("?group=type&sort=name&layout=list&seed=3&hand=5&drawn=2#sample-hand")),
    "collection": Shown(lambda live, records, page: "/collection", pictures=False),
    "table-mea": Shown(table_path("mea"), ready="#table section.game-board.js"),
    "table-meio": Shown(table_path("meio"), ready="#table section.game-board.js"),
    "table-meio-split": Shown(table_path("meio-split"), ready="#table section.game-board.js"),
    "table-meikyu": Shown(table_path("meikyu"), ready="#table section.game-board.js"),
    "replay": Shown(replay_path, ready="#step-body"),
}


def moved(before: list[list[Any]], after: list[list[Any]]) -> list[str]:
    """What is not where it was: each element's name, box before and box after (the first few)."""
    if [b[0] for b in before] != [a[0] for a in after]:
        return [f"the page's elements changed: {len(before)} before, {len(after)} after"]
    out = [f"{b[0]}: {b[1:]} -> {a[1:]}" for b, a in zip(before, after, strict=True) if b != a]
    return out[:8] + ([f"... and {len(out) - 8} more"] if len(out) > 8 else [])


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
@pytest.mark.parametrize("name", list(SHOWN))
def test_nothing_moves_when_the_card_pictures_arrive(
    new_context: ContextMaker,
    live_server: LiveServer,
    sim_records: dict[str, Path],
    name: str,
    size: dict[str, int],
) -> None:
    shown = SHOWN[name]
    path = shown.path(live_server, sim_records, new_context().new_page())
    page = new_context(viewport=size).new_page()  # a browser of its own: no picture in its cache
    held: list[Route] = []
    page.route(PICTURES, lambda route: held.append(route))  # the pictures come when the test lets them
    # a page's load waits for its pictures: the test waits for its document and its script instead
    page.goto(path, wait_until="domcontentloaded")
    if "key=" in path:  # a seat's link: its cookie set, the page comes again without the key
        page.wait_for_url(lambda url: "key=" not in url, wait_until="domcontentloaded")
    expect(page.locator(shown.ready).first).to_be_visible()
    # the fonts, then two frames: what the page's script does in a frame (fitting names to their boxes) is done
    frame = "() => new Promise((done) => requestAnimationFrame(() => done(null)))"
    page.evaluate(f"document.fonts.ready.then({frame}).then({frame})")
    if shown.pictures:
        wait_until(page, lambda: bool(held), "the page's first picture asked for")
    else:
        assert not held and not page.locator("main img").count(), "a page thought to show no card picture shows some"
    waiting = page.evaluate(BOXES)
    scrolled = page.evaluate("[scrollX, scrollY]")

    for route in held:  # continued before the route goes: a route gone leaves its held requests unanswered
        route.continue_()
    page.unroute(PICTURES)
    # every picture, the ones below the window too (a lazy one is asked for once near the window)
    page.evaluate("document.querySelectorAll('img[loading=lazy]').forEach((img) => { img.loading = 'eager'; })")
    page.wait_for_function("() => Array.from(document.images).every((img) => img.complete)")
    back = "([x, y]) => new Promise((done) => { scrollTo(x, y); requestAnimationFrame(() => done(null)); })"
    page.evaluate(back, scrolled)  # where it was measured: the sticky parts where they were
    assert page.evaluate("Array.from(document.images).filter((img) => img.naturalWidth).length") or not shown.pictures

    gone = moved(waiting, page.evaluate(BOXES))
    assert not gone, f"{name} at {size['width']} px: moved when the pictures came:\n" + "\n".join(gone)
