"""Screenshots of every page at a laptop and a phone width, for looking at them (not a test).

    uv run python -m tests.web.browser.screens [OUTDIR [NAME-PREFIX ...]]

Starts a live server over a new SQLite database in OUTDIR (default: a new temporary folder),
imports the example decks, and writes OUTDIR/<page>-<laptop|phone>.png (the first screen) for each page below, printing
each page's height and any horizontal overflow; a deck page's panels also get a picture each.
NAME-PREFIX: only the pages whose name starts with one (``board-``: the game boards).
Each wait is bounded: a page whose first screen's cards are not drawn within a minute is shot as it
is and named; the tool goes on to the end, then exits 1 naming those pages.
The pictures in docs/screens/ are the ``board-`` pages of this script.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import quote

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import sync_playwright
from typer.testing import CliRunner

from cardbase.cli.app import app as cli_app
from cardbase.decks.store import list_decks
from cardbase.sim.boards import legal_view
from cardbase.sim.registry import game as game_entry
from tests.web.browser.conftest import CHROMIUM_ARGS, LAPTOP, PHONE, chromium_executable, start_server, stop_server

REPO = Path(__file__).resolve().parents[3]
DECKS = ["mea-goblin-rush.txt", "mea-broken.txt", "meio-hand.txt", "meikyu-rulebook-cards.txt"]
# the deck builder's panels, shot one by one
PANELS = ["deck-panel", "collection", "validation", "stats", "odds", "sample-hand", "history", "share"]
CARDS = ["mea/demo/crumb-goblin", "meikyu/core/grimoire", "meio/standard/queen-of-hearts"]


def pages(decks: dict[str, int], code: str) -> dict[str, str]:
    """Page name → path, over the decks imported (by name)."""
    out = {
        "home": "/",
        "cards": "/cards?q=t:monster+game:mea",
        "cards-table": "/cards?q=game:meikyu&view=table",
        "cards-bad-query": "/cards?q=t:monster+frob:3",
        "decks": "/decks",
        "import": "/decks/import",
        "shared": f"/decks/new?code={quote(code)}",
        "catalog": "/catalog",
        "not-found": "/cards/mea/demo/no-such-card",
    }
    out.update({f"card-{card.split('/')[0]}": f"/cards/{card}" for card in CARDS})
    out.update({f"deck-{name.split()[0].lower()}": f"/decks/{deck_id}" for name, deck_id in decks.items()})
    first = next(iter(decks.values()))
    out["deck-delete"] = f"/decks/{first}/delete"
    # the builder's views (issue 26): grouped by cost, the stacked faces, a goldfish with draws, the gallery's
    # offer, the edit as text (its diff is shot by ``edit_diff``)
    out["deck-by-cost"] = f"/decks/{first}?group=cost&sort=count&layout=list#deck-panel"
    out["deck-faces"] = f"/decks/{first}?group=type&sort=name&layout=visual#deck-panel"
    out["deck-goldfish"] = f"/decks/{first}?group=type&sort=name&layout=list&seed=3&hand=5&drawn=2#sample-hand"
    out["deck-not-offered"] = f"/decks/{first}?q=t:tile"
    out["deck-edit"] = f"/decks/{first}/edit"
    out["collection"] = "/collection"
    out["card-new"] = "/cards/new?game=mea"
    out["card-edit"] = f"/cards/{CARDS[0]}/edit"
    out["card-history"] = f"/cards/{CARDS[0]}/history"
    out["deck-history"] = f"/decks/{first}/history"
    out["deck-lab"] = f"/decks/{first}/lab"
    out["deck-lab-run"] = f"/decks/{first}/lab?run=1&against=example:mea-tile-control.txt&games=10#lab-results"
    out["deck-lab-refused"] = f"/decks/{first}/lab?run=1&against=example:mea-tile-control.txt&games=1"
    out["deck-version"] = f"/decks/{first}/versions/1"
    out["cards-tag"] = "/cards?q=tag:removal"
    return out


def play_pages(base: str) -> dict[str, str]:
    """The play pages: the start form of each game, and a seat's page of each (a person against
    agents, the agents' first moves made), opened by the seat's link; a spectator's page."""
    import httpx

    from tests.web.play_helpers import mea_decks

    out = {f"play-start-{game}": f"/play?game={game}" for game in ("meio", "mea", "meikyu")}
    bodies = {
        "meio": {"game": "meio", "seats": [{"agent": "human"}, {"agent": "heuristic"}, {"agent": "search"}]},
        "mea": {"game": "mea", "seats": [{"agent": "human"}, {"agent": "heuristic"}], "decks": mea_decks()},
        "meikyu": {"game": "meikyu", "players": 3, "assume": "default"},
    }
    seats = {}
    with httpx.Client(base_url=base, timeout=60) as http:
        for game, body in bodies.items():
            made = http.post("/api/games", json={**body, "seed": 7}).json()
            out[f"play-watch-{game}"] = f"/play/{made['id']}"  # before the seat's link sets its cookie
            seats[f"play-seat-{game}"] = made["seats"][0]["url"].split(base, 1)[1]
        hot = http.post("/api/games", json={"game": "meio", "players": 2, "seats": [{"agent": "human"}] * 2}).json()
    # the hot seat: both links opened in one browser, then the table asks for the hand-off
    out["play-hot-open"] = hot["seats"][1]["url"].split(base, 1)[1]
    out["play-handoff"] = hot["seats"][0]["url"].split(base, 1)[1]
    return {**out, **seats}


def edit_diff(page: Any, deck_id: int, out: Path, width: str) -> None:
    """The edit as text with the change it makes shown, and with a bad line refused."""
    page.goto(f"/decks/{deck_id}/edit")
    box = page.locator("#edit-box")
    box.fill(box.input_value().replace("3 Crumb Goblin", "4 Crumb Goblin") + "[sideboard]\n2 Pep Talk (demo)\n")
    page.locator("#edit-check").click()
    page.wait_for_load_state("networkidle")
    page.screenshot(path=str(out / f"deck-edit-diff-{width}.png"))
    box = page.locator("#edit-box")
    box.fill(box.input_value() + "2 Crumb Goblim\n")
    page.locator("#edit-check").click()
    page.wait_for_load_state("networkidle")
    page.screenshot(path=str(out / f"deck-edit-refused-{width}.png"))
    print(f"/decks/{deck_id}/edit: diff and refusal shot")


def phone_deck_tab(page: Any, deck_id: int, out: Path) -> None:
    """On a phone: the builder's Deck tab (the panels folded) and its height."""
    page.goto(f"/decks/{deck_id}")
    page.locator("#tab-deck").click()
    page.screenshot(path=str(out / "deck-tab-phone.png"))
    tall = page.evaluate("document.documentElement.scrollHeight")
    print(f"/decks/{deck_id} deck tab -> {out / 'deck-tab-phone.png'} ({tall} px tall)")


# The images a visitor sees on the first screen, not yet loaded. Only those drawn count: an image in a
# closed <details> (the Meio board's last trick) has a box on the screen but is never drawn, so a lazy
# one is never fetched, and waiting for it never ends (the replay of Meio hung the tool there).
PENDING_IMAGES = """() => Array.from(document.images).filter((i) => {
  const r = i.getBoundingClientRect();
  return r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth && r.width > 0
    && i.checkVisibility({visibilityProperty: true}) && !i.complete;
}).map((i) => i.getAttribute("src"))"""
DRAWN_WAIT_MS = 60_000
"""How long a page's first screen may take to draw its cards (a bound on a loaded machine, not a measure)."""


def first_screen_drawn(page: Any, timeout_ms: float = DRAWN_WAIT_MS) -> bool:
    """Wait until the cards on the first screen are drawn, not their empty frames (a face is loaded
    lazily, once scrolled to: the board's hand on a laptop was shot blank). False, saying which
    images and page, once ``timeout_ms`` has passed: the shot is then taken as it is."""
    try:
        page.wait_for_function(f"() => ({PENDING_IMAGES})().length === 0", timeout=timeout_ms)
    except PlaywrightTimeoutError:
        pending = page.evaluate(PENDING_IMAGES)
        print(f"GAVE UP after {timeout_ms / 1000:g} s on {page.url}: {len(pending)} image(s) not drawn: {pending[:5]}")
        return False
    return True


SIM_RECORDS = {
    "mea": ["sim", "mea", "--deck", str(REPO / "examples/decks/mea-goblin-rush.txt"),
            "--vs", str(REPO / "examples/decks/mea-tile-control.txt"), "--agents", "heuristic,heuristic"],
    "meio": ["sim", "meio", "--players", "3", "--agents", "heuristic,heuristic,random"],
    "meikyu": ["sim", "meikyu", "--players", "3", "--agents", "heuristic,heuristic,random", "--assume", "default"],
}  # fmt: skip
"""Games whose records the replay pages open (one each, seed 1)."""


def replay_pages(runner: CliRunner, db: Path, out: Path, page: Any) -> dict[str, str]:
    """Page name → path of replay pages: each game's record opened in ``/replay``, at its middle
    step as P1 saw it and at its end as everything."""
    pages = {"replay-open": "/replay"}
    for game, args in SIM_RECORDS.items():
        folder = out / "records" / game
        extra = ["--db", str(db)] if game != "meio" else []
        made = runner.invoke(cli_app, [*args, "--games", "1", "--seed", "1", "--records", str(folder), *extra])
        if made.exit_code != 0:
            print(f"{game}: {made.output.strip()}")
            continue
        (record,) = folder.glob("*.jsonl")
        page.goto("/replay")
        page.set_input_files("#record-file", str(record))
        page.locator("#replay-go").click()
        page.wait_for_url("**/replay/*")
        path = page.url.split("://", 1)[1].split("/", 1)[1].split("?")[0]
        length = int(page.locator("#replay-controls").get_attribute("data-length") or "0")
        pages[f"replay-{game}-p1"] = f"/{path}?step={length // 2}&seat=0"
        pages[f"replay-{game}-all"] = f"/{path}?step={length}&seat=all"
    return pages


def kinds(state: Any) -> set[str]:
    return {entry["kind"] for entry in legal_view(state, state.legal_actions())}


def seat_at(live: Any, body: dict[str, Any], done: Any, limit: int = 2_000) -> tuple[str, Any]:
    """A game made through ``POST /api/games`` (seat 0 a person, agents on the others), seat 0's
    moves chosen by a heuristic agent and made at the table until ``done(state)`` holds when it is
    seat 0's turn: the seat's link and the table's state then."""
    import httpx

    with httpx.Client(base_url=live.url, timeout=120) as http:
        made = http.post("/api/games", json=body).json()
    hall = live.server.config.app.state.hall
    table = hall.get(made["id"]).table
    chooser = game_entry(body["game"]).make_agent("heuristic", table.rules, 0, 0)
    for _ in range(limit):
        hall.wait_quiet(made["id"], 300)
        with table.lock:
            state = table.state.clone()
            version = table.version
        if state.is_terminal:
            break
        if state.current_player == 0:
            if done(state):
                return made["seats"][0]["url"].split(live.url, 1)[1], state
            legal = state.legal_actions()
            choice = chooser.act(state.observation(0), legal)
            hall.act(made["id"], 0, legal.index(choice), version)
    raise RuntimeError(f"no such position in a {body['game']} game within {limit} moves")


def board_pages(live: Any) -> dict[str, tuple[str, list[str]]]:
    """Page name → (path, what to click first) of the boards at the table of ``/play`` as seat P1
    (a person) sees them mid-game against heuristic agents: Méa with a monster picked (where it can
    go lit), Meio's split picker and a trick, Meikyu's composer with a quest's total."""
    from tests.web.play_helpers import mea_decks

    agents = [{"agent": "human"}, {"agent": "heuristic"}, {"agent": "heuristic"}]
    mea = {"game": "mea", "seats": agents[:2], "decks": mea_decks(), "seed": 3}
    path, state = seat_at(live, mea, lambda s: s.turn >= 7 and "move" in kinds(s))
    mover = next(e for e in legal_view(state, state.legal_actions()) if e["kind"] == "move")
    out = {"board-mea": (path, [f'[data-key="{mover["src"][0]}"]'])}

    meio = {"game": "meio", "players": 3, "seats": agents, "seed": 5}
    out["board-meio-split"] = (seat_at(live, meio, lambda s: True)[0], [])
    trick = seat_at(live, meio, lambda s: "play" in kinds(s) and len(s.history) > 9)[0]
    out["board-meio"] = (trick, [])

    meikyu = {"game": "meikyu", "players": 3, "seats": agents, "assume": "default", "seed": 2}
    path, state = seat_at(live, meikyu, lambda s: "quest" in kinds(s) and s.turns >= 4)
    quests = [e for e in legal_view(state, state.legal_actions()) if e["kind"] == "quest" and e["cards"]]
    quest = max(quests, key=lambda e: (e["total"] - e["level"], -len(e["cards"])))  # the likeliest to succeed
    clicks = [f'[data-key="room:{quest["room"]}"]'] + [f'.meikyu-hand li[data-card="{c}"] .inc' for c in quest["cards"]]
    out["board-meikyu"] = (path, clicks)
    return out


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path(tempfile.mkdtemp(prefix="cardbase-screens-"))
    only = tuple(argv[1:])
    wanted = (lambda name: name.startswith(only)) if only else (lambda name: True)

    def some(kind: str) -> bool:  # pages of this kind wanted
        return not only or any(p.startswith(kind) or kind.startswith(p) for p in only)

    out.mkdir(parents=True, exist_ok=True)
    db = out / "cards.db"
    db.unlink(missing_ok=True)
    live = start_server(f"sqlite:///{db}")
    gave_up: list[str] = []  # the pages shot before their first screen's cards were drawn
    try:
        runner = CliRunner()
        for deck in DECKS:
            made = runner.invoke(cli_app, ["deck", "import", str(REPO / "examples/decks" / deck), "--db", str(db)])
            if made.exit_code != 0:
                print(f"{deck}: {made.output.strip()}")
        owner = [  # a collection, tags, an edit and a deck's second version, so the owners' pages have something
            ["collection", "add", "Crumb Goblin", "3"],
            ["collection", "add", "Puddle Knight", "1"],
            ["cards", "tag", "Pocket Sand", "removal"],
            ["cards", "tag", "Tripwire", "removal", "cheap"],
            ["catalog", "edit", "Crumb Goblin", "notes=Counted twice in the box."],
            ["deck", "tag", "Goblin Rush", "Crumb Goblin", "combo piece"],
        ]
        for args in owner:
            made = runner.invoke(cli_app, [*args, "--db", str(db)])
            if made.exit_code != 0:
                print(f"{' '.join(args)}: {made.output.strip()}")
        encoded = runner.invoke(cli_app, ["deck", "encode", str(REPO / "examples/decks/mea-goblin-rush.txt")])
        code = encoded.output.strip().splitlines()[-1]
        decks = {d["name"]: d["id"] for d in list_decks(live.database)}
        games = play_pages(live.url) if some("play-") else {}
        boards = board_pages(live) if some("board-") else {}
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS, headless=True)
            opener = browser.new_context(base_url=live.url)
            replays = replay_pages(runner, db, out, opener.new_page()) if some("replay-") else {}  # for both widths
            opener.close()
            for width, size in (("laptop", LAPTOP), ("phone", PHONE)):
                context = browser.new_context(base_url=live.url, viewport=size)
                context.set_default_timeout(DRAWN_WAIT_MS)  # each wait bounded, generously: a loaded machine
                page = context.new_page()
                page.on("pageerror", lambda error: print(f"JS error: {error}"))
                plain = {name: (path, []) for name, path in {**pages(decks, code), **games, **replays}.items()}
                for name, (path, clicks) in {**plain, **boards}.items():
                    if not wanted(name):
                        continue
                    response = page.goto(path)
                    status = response.status if response else "?"
                    if "key=" in path:  # a seat's link: the cookie, then a reload without the key
                        page.wait_for_url(lambda url: "key=" not in url)
                    # a table's page keeps its event stream open: never network-idle
                    page.wait_for_load_state("load" if name.startswith(("play-", "board-")) else "networkidle")
                    for selector in clicks:
                        page.locator(selector).first.click()
                    if clicks:
                        page.mouse.move(0, 0)  # the pointer away: no card face shown by hovering
                    if name.startswith("board-"):  # the board's first screen (the table's header above it)
                        page.evaluate("document.getElementById('board').scrollIntoView()")
                    if not first_screen_drawn(page):
                        gave_up.append(f"{path} ({width})")
                    target = out / f"{name}-{width}.png"
                    page.screenshot(path=str(target))  # the first screen: what a visitor sees
                    wide = page.evaluate("document.documentElement.scrollWidth")
                    tall = page.evaluate("document.documentElement.scrollHeight")
                    overflow = f"  OVERFLOWS: {wide} px wide" if wide > size["width"] else ""
                    print(f"{status} {path} -> {target} ({tall} px tall){overflow}")
                    for panel in PANELS if name.startswith("deck-") else ():
                        part = page.locator(f"#{panel}")
                        if part.count() and part.is_visible():
                            part.screenshot(path=str(out / f"{name}-{panel}-{width}.png"))
                first = next(iter(decks.values()))
                edit_diff(page, first, out, width)
                if width == "phone":
                    phone_deck_tab(page, first, out)
                context.close()
            browser.close()
    finally:
        stop_server(live)
    if gave_up:
        print(f"{len(gave_up)} page(s) shot before their cards were drawn: {', '.join(gave_up)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
