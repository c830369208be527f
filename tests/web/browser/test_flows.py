"""The issue's browser flows, end to end: real Chromium, real server, real database.

Each test makes its own decks (unique names), so the tests share one server and run in any order
or split over xdist workers. What a page shows is checked against the feature functions and the
database, not against numbers written here.
"""

from __future__ import annotations

import io
import re
import uuid
from collections import Counter
from math import comb
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import openpyxl
import pypdf
from playwright.sync_api import BrowserContext, Locator, Page, expect
from typer.testing import CliRunner

from cardbase.cli.app import app as cli_app
from cardbase.db.queries import find_card
from cardbase.db.search import search_cards
from cardbase.decks.store import deck_names, load_deck
from tests.hostile.conftest import db_dump
from tests.web.browser.conftest import TIMEOUT_MS, LiveServer
from tests.web.browser.test_pages import make_deck

REPO = Path(__file__).resolve().parents[3]

# A 20-card Méa deck of demo cards, 4 each of costs 1 to 5 (the demo set; not published Méa cards).
MEA_TWENTY = ["Crumb Goblin", "Dizzy Bat", "Barrel Bandit", "Bramble Bear", "Berserk Beekeeper"]
MEA_MIN = 18  # Méa's standard deck: 18–40 cards (rulebook)


def unique(name: str) -> str:
    return f"{name} {uuid.uuid4().hex[:8]}"


def new_deck(page: Page, game: str, name: str, players: int | None = None) -> str:
    """Make a deck with the Decks page's form; return the builder's URL path (``/decks/{id}``)."""
    page.goto("/decks")
    form = page.locator("form#new-deck")
    form.get_by_label("Name").fill(name)
    form.get_by_label("Game").select_option(game)
    if players is not None:
        form.get_by_label("Players").select_option(str(players))
    form.get_by_role("button").click()
    expect(page).to_have_url(re.compile(r"/decks/\d+$"))
    return re.sub(r"^https?://[^/]+", "", page.url)


SHOWN_QUERY = "q => new URLSearchParams(location.search).get('q') === q"
"""Whether the page shows the answer to the search ``q`` (the address takes the query once it does)."""


def search_in_builder(page: Page, query: str) -> None:
    """Search for ``query`` and wait for its answer to be shown, so that no answer still on its way
    replaces the results under a click that follows (a click whose press and release land on two
    different result lists is lost). A query already shown is not searched again, for that reason."""
    box = page.get_by_role("searchbox", name=re.compile("search", re.I))
    if box.input_value() == query and page.evaluate(SHOWN_QUERY, query):
        return
    box.fill(query)
    page.wait_for_function(SHOWN_QUERY, arg=query)


def find_in_builder(page: Page, name: str) -> Locator:
    """Search for one card by its exact name; its "Add NAME" button once the results landed."""
    search_in_builder(page, f'"{name}"')
    expect(page.locator("#results [data-card-id]")).to_have_count(1)
    return page.get_by_role("button", name=f"Add {name}", exact=True)


def add_by_click(page: Page, name: str, times: int) -> None:
    """Search for the card by its exact name, then click "Add NAME" ``times`` times, waiting each time
    for the deck count to move (the cards used match only themselves: one result once the search landed)."""
    button = find_in_builder(page, name)
    for _ in range(times):
        before = int(page.locator("#deck-count").inner_text())
        button.click()
        expect(page.locator("#deck-count")).to_have_text(str(before + 1))


def result_ids(page: Page) -> list[str]:
    return page.locator("#results [data-card-id]").evaluate_all("els => els.map(e => e.dataset.cardId)")


def expected_ids(live_server: LiveServer, query: str, limit: int = 60) -> list[str]:
    with live_server.database.session() as session:
        return [row.id for row in search_cards(session, query, limit=limit)]


def test_search_bad_then_good_query(page: Page, live_server: LiveServer) -> None:
    page.goto("/cards")
    box = page.get_by_role("searchbox", name=re.compile("search", re.I))
    box.fill("t:monster game:mea")
    first = expected_ids(live_server, "t:monster game:mea")
    # the results landed: the first is the query's (the page's first results, before it, may be as
    # many: 60, the page's limit, once other tests have filled the shared catalog)
    expect(page.locator("#results [data-card-id]").first).to_have_attribute("data-card-id", first[0])
    expect(page.locator("#results [data-card-id]")).to_have_count(len(first))
    assert result_ids(page) == first

    bad = "t:monster frob:3"
    box.fill(bad)
    error = page.locator("#query-error")
    expect(error).to_be_visible()
    api = page.request.get("/api/cards", params={"q": bad})
    assert api.status == 400
    said = api.json()["error"]
    expect(error).to_contain_text(said["message"].split(";")[0])
    expect(error.locator("mark.term")).to_have_text(said["term"])  # the API's offending term, marked
    assert result_ids(page) == first, "the results of the last good query stay"

    box.fill("t:assist game:mea")
    second = expected_ids(live_server, "t:assist game:mea")
    assert second and set(second).isdisjoint(first)
    expect(page.locator("#results [data-card-id]").first).to_have_attribute("data-card-id", second[0])
    expect(page.locator("#results [data-card-id]")).to_have_count(len(second))
    assert result_ids(page) == second
    expect(page.locator("#query-error")).to_be_hidden()


def test_build_twenty_card_mea_deck_turns_valid_and_draws_curve(page: Page, live_server: LiveServer) -> None:
    name = unique("Twenty by clicks")
    new_deck(page, "mea", name)
    validation = page.locator("#validation")
    expect(page.locator("#deck-count")).to_have_text("0")
    expect(validation.locator("li.problem[data-code='deck-size']")).to_be_visible()

    added = 0
    for card in MEA_TWENTY:
        for _ in range(4):
            add_by_click(page, card, 1)
            added += 1
            if added < MEA_MIN:
                expect(validation.locator("li.problem[data-code='deck-size']")).to_be_visible()
                expect(validation).not_to_have_class(re.compile(r"\bvalid\b"))
            else:
                expect(validation).to_have_class(re.compile(r"\bvalid\b"))
                expect(validation).to_contain_text("valid")
                expect(validation.locator("li.problem")).to_have_count(0)
    expect(page.locator("#deck-count")).to_have_text("20")
    expect(page.locator("#deck li .badge.demo")).to_have_count(len(MEA_TWENTY))  # every entry: a demo card
    for label in page.locator("#deck li .badge.demo").all():
        expect(label).to_be_visible()
    find_in_builder(page, MEA_TWENTY[0])
    expect(page.locator("#results [data-card-id] .in-deck")).to_have_text("in deck: 4")

    deck = load_deck(live_server.database, name)
    assert sorted((c.name, c.count) for c in deck.cards) == sorted((c, 4) for c in MEA_TWENTY)

    curve = page.locator("svg#curve")
    expect(curve).to_be_visible()
    heights = {
        int(rect.get_attribute("data-cost") or -1): float(rect.get_attribute("height") or 0)
        for rect in curve.locator("rect[data-cost]").all()
    }
    assert {cost for cost, height in heights.items() if height > 0} == {1, 2, 3, 4, 5}, heights
    assert len({heights[cost] for cost in (1, 2, 3, 4, 5)}) == 1, "four cards at each cost: equal bars"


# One player's hand in a 3-player Meio game, split 7 + 6 (examples/decks/meio-hand.txt).
MEIO_FIRST = ["Ace of Hearts", "Ten of Hearts", "Nine of Spades", "Eight of Spades", "Seven of Diamonds"]
MEIO_FIRST += ["Two of Clubs", "Three of Clubs"]
MEIO_SECOND = ["Six of Hearts", "Five of Hearts", "Four of Spades", "Ace of Diamonds", "Six of Clubs", "Ten of Clubs"]


def test_meio_hand_split_by_clicking(page: Page, live_server: LiveServer) -> None:
    name = unique("Meio hand")
    new_deck(page, "meio", name, players=3)
    validation = page.locator("#validation")
    section = page.get_by_role("combobox", name=re.compile("^Add to"))
    for half, cards in (("first half", MEIO_FIRST), ("second half", MEIO_SECOND)):
        section.select_option(label=half)
        for card in cards:
            add_by_click(page, card, 1)
            if card != MEIO_SECOND[-1]:  # a hand split (the 3-player hand format) until both halves are full
                expect(validation.locator("li.problem[data-code='split']").first).to_be_visible()
        expect(page.locator(f"#deck li[data-section='{half}']")).to_have_count(len(cards))
    expect(validation).to_have_class(re.compile(r"\bvalid\b"))
    expect(validation.locator("li.problem")).to_have_count(0)
    deck = load_deck(live_server.database, name)
    assert [(c.name, c.section) for c in deck.cards] == [(c, "first half") for c in MEIO_FIRST] + [
        (c, "second half") for c in MEIO_SECOND
    ]


# Meikyu Kingdom cards and lands the rulebook names; their bravery and wits it does not give (unknown).
MEIKYU_SET = ["Bee", "Den of the Geister", "Cook", "Altar of the Nightingale", "Amulet", "Doctor"]


def stats_shown(page: Page) -> dict[str, str]:
    rows = page.locator("#stats table tr").all()
    return {row.locator("th").inner_text(): row.locator("td").inner_text() for row in rows}


def test_meikyu_set_by_clicking_keeps_unknown_totals_unknown(page: Page, live_server: LiveServer) -> None:
    from cardbase.decks.service import resolve_stored, validate_resolved
    from cardbase.decks.stats import deck_stats
    from cardbase.decks.store import deck_info
    from cardbase.web.pages_decks import stat_cell

    name = unique("Meikyu set")
    new_deck(page, "meikyu", name)
    expect(page.locator("#stats")).to_contain_text("Add cards")
    characters = 0
    for card in MEIKYU_SET:
        add_by_click(page, card, 1)
        resolved = resolve_stored(live_server.database, deck_info(live_server.database, name).id)
        expected = deck_stats(resolved, None)
        characters += card in ("Bee", "Cook", "Doctor")
        bravery = page.locator("#stats tr", has_text="bravery total").locator("td")
        if characters:  # the total over unknown values is unknown, and says how many: never a number
            expect(bravery).to_have_text(f"unknown ({characters} unknown)")
            assert stat_cell("bravery_total", expected["bravery_total"]) == f"unknown ({characters} unknown)"
        shown = stats_shown(page)
        for key in ("by_type", "bravery_total", "wits_total", "land_levels"):
            if expected.get(key):
                assert shown[key.replace("_", " ")] == stat_cell(key, expected[key]), key
        report, _ = validate_resolved(resolved)
        problems = page.locator("#validation li.problem")
        expect(problems).to_have_count(len(report.problems))
        assert [p.inner_text().split(" ", 1)[1].split(" — ")[0] for p in problems.all()] == [
            p.text
            for p in report.problems  # in players' words: Meikyu, not meikyu
        ]
    expect(page.locator("#validation")).to_contain_text("2 land cards; standard needs 32")
    expect(page.locator("svg#curve")).to_have_count(0)  # a Méa chart: not for Meikyu
    assert [c.name for c in load_deck(live_server.database, name).cards] == MEIKYU_SET


def test_meikyu_card_in_a_mea_deck_shows_the_error(page: Page, live_server: LiveServer) -> None:
    name = unique("Mixed games")
    new_deck(page, "mea", name)
    add_by_click(page, "Crumb Goblin", 1)
    page.get_by_text("Filters and order").click()
    page.get_by_role("combobox", name=re.compile(r"^Game")).select_option("all")
    search_in_builder(page, "game:meikyu grimoire")
    expect(page.locator("#results [data-card-id]")).to_have_count(1)
    # another game's card is not offered, and says why (issue 26); the server refuses it too (tests/web)
    expect(page.get_by_role("button", name="Add Grimoire", exact=True)).to_have_count(0)
    expect(page.locator("#results .not-offered")).to_contain_text("a Meikyu card; this is a Méa deck")
    assert [c.name for c in load_deck(live_server.database, name).cards] == ["Crumb Goblin"]


def test_share_code_round_trip_through_the_link(page: Page, context: BrowserContext, live_server: LiveServer) -> None:
    name = unique("Shared")
    new_deck(page, "mea", name)
    add_by_click(page, "Crumb Goblin", 3)
    add_by_click(page, "Dizzy Bat", 2)
    code = page.locator("#share-code").input_value().strip()
    encoded = CliRunner().invoke(cli_app, ["deck", "encode", f"db:{name}", "--db", live_server.db_url])
    assert encoded.exit_code == 0, encoded.output
    assert code == encoded.output.strip().splitlines()[-1], "the page's code is `deck encode`'s"
    link = page.locator("a#share-link")
    expect(link).to_have_attribute("href", re.compile(r"/decks/new\?code="))
    assert parse_qs(urlsplit(link.get_attribute("href") or "").query)["code"] == [code]

    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.get_by_role("button", name="Copy the share code").click()
    expect(page.locator("#copy-status")).to_have_text("Copied.")
    assert page.evaluate("navigator.clipboard.readText()") == code

    link.click()
    expect(page).to_have_url(re.compile(r"/decks/new\?code="))
    preview = page.locator("#preview")
    expect(preview).to_contain_text("Crumb Goblin")
    expect(preview).to_contain_text("Dizzy Bat")
    copy = unique("Shared copy")
    page.locator("form#save-shared").get_by_label("Save as").fill(copy)
    page.locator("#save").click()
    expect(page).to_have_url(re.compile(r"/decks/\d+$"))
    expect(page.locator("#deck-count")).to_have_text("5")

    original, saved = load_deck(live_server.database, name), load_deck(live_server.database, copy)
    assert [(c.card_id, c.count, c.section) for c in saved.cards] == [
        (c.card_id, c.count, c.section) for c in original.cards
    ]
    assert page.locator("#share-code").input_value().strip() == code


def test_spreadsheet_with_a_bad_row_is_listed_and_nothing_written(
    page: Page, live_server: LiveServer, tmp_path: Path
) -> None:
    sheet = tmp_path / "meikyu-template.xlsx"
    made = CliRunner().invoke(
        cli_app, ["catalog", "template", "--game", "meikyu", "-o", str(sheet), "--db", live_server.db_url]
    )
    assert made.exit_code == 0, made.output
    book = openpyxl.load_workbook(sheet)
    rows = book.active
    assert rows is not None
    header = [cell.value for cell in rows[1]]
    level = header.index("level") + 1
    bad_row = 4  # header, note row, then cards: the second card's row
    rows.cell(row=bad_row, column=level, value="lots")
    book.save(sheet)
    before = db_dump(live_server.db_url)

    page.goto("/catalog")
    form = page.locator("form#catalog-upload")
    form.get_by_label("Game").select_option("meikyu")
    form.locator("input#sheet").set_input_files(str(sheet))
    form.get_by_role("button", name=re.compile("dry run", re.I)).click()
    bad = page.locator("#preview #bad-rows li")
    expect(bad).to_have_count(1)
    expect(page.locator("#preview")).to_be_in_viewport()  # the page opens at the answer, below the fold
    expect(bad.first).to_contain_text(f"row {bad_row}")
    expect(bad.first).to_contain_text("level")
    expect(page.locator("form#confirm-import")).to_have_count(0)
    assert db_dump(live_server.db_url) == before, "a dry run with a bad row writes nothing"


def test_print_deck_downloads_a_pdf(page: Page, live_server: LiveServer) -> None:
    name = unique("Printed")
    new_deck(page, "mea", name)
    add_by_click(page, "Crumb Goblin", 2)
    add_by_click(page, "Bramble Bear", 1)
    form = page.locator("form#print-form")
    form.get_by_label(re.compile("paper", re.I)).select_option("letter")
    with page.expect_download() as info:
        form.get_by_role("button").click()
    data = Path(info.value.path()).read_bytes()
    assert data.startswith(b"%PDF")
    pdf = pypdf.PdfReader(io.BytesIO(data))
    assert len(pdf.pages) == 1, "three poker-size cards fit one sheet"
    box = pdf.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792), "US letter, as chosen"
    text = "".join(p.extract_text() or "" for p in pdf.pages)
    assert text.count("Crumb Goblin") == 2 and text.count("Bramble Bear") == 1, text[:500]


def test_keyboard_only_adding(page: Page, live_server: LiveServer) -> None:
    name = unique("Keys")
    path = new_deck(page, "mea", name)
    page.goto(path)
    for _ in range(40):  # Tab from the top of the page to the search box
        if page.evaluate("document.activeElement && document.activeElement.id") == "q":
            break
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "q", "the search box is reachable with Tab"
    page.keyboard.type("t:monster cost=1")
    wanted = expected_ids(live_server, "t:monster cost=1 game:mea")
    assert len(wanted) >= 2
    results = page.locator("#results [data-card-id]")
    expect(results).to_have_count(len(wanted))
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    expect(page.locator(f'#results [data-card-id="{wanted[1]}"]')).to_have_attribute("aria-selected", "true")
    page.keyboard.press("Enter")
    expect(page.locator("#deck-count")).to_have_text("1")
    page.keyboard.press("ArrowUp")
    expect(page.locator(f'#results [data-card-id="{wanted[0]}"]')).to_have_attribute("aria-selected", "true")
    page.keyboard.press("Enter")
    expect(page.locator("#deck-count")).to_have_text("2")
    deck = load_deck(live_server.database, name)
    assert sorted(c.card_id for c in deck.cards) == sorted(wanted[:2])


def shown_percent(text: str) -> tuple[float, float]:
    """A chance as the page shows it (``"23.16%"``) and half of its last digit's unit."""
    number = re.search(r"(\d+(?:\.(\d+))?)\s*%", text)
    assert number, f"not a percentage: {text!r}"
    return float(number.group(1)), 0.5 * 10 ** -len(number.group(2) or "")


def test_odds_are_exact_and_change_live(page: Page, live_server: LiveServer) -> None:
    """The odds of at least one Crumb Goblin in n cards seen, against the hypergeometric by hand."""
    deck_id, _ = make_deck(live_server, "mea", {"Crumb Goblin": 4, "Dizzy Bat": 8, "Barrel Bandit": 8})
    page.goto(f"/decks/{deck_id}")
    page.get_by_label(re.compile("^Needs")).fill('1 "Crumb Goblin"')
    page.get_by_role("button", name="Compute").click()

    def check(goblins: int, size: int) -> None:
        for seen in range(1, 11):
            exact = 1 - comb(size - goblins, seen) / comb(size, seen)
            cell = page.locator(f"#odds-table tr[data-seen='{seen}'] td").first
            expect(cell).to_contain_text("%")
            value, half = shown_percent(cell.inner_text())
            assert abs(value - 100 * exact) <= half + 1e-9, (seen, cell.inner_text(), 100 * exact)

    expect(page.locator("#odds-table tr[data-seen]")).to_have_count(10)
    check(4, 20)
    first_row = page.locator("#odds-table tr[data-seen='1'] td").first
    before = first_row.inner_text()
    add_by_click(page, "Crumb Goblin", 1)
    expect(first_row).not_to_have_text(before)  # updated without a reload of the page
    check(5, 21)
    expect(page.locator("svg#odds-chart")).to_be_visible()


def test_sample_hand_is_seeded_and_shareable(page: Page, context: BrowserContext, live_server: LiveServer) -> None:
    cards = {"Crumb Goblin": 4, "Dizzy Bat": 4, "Barrel Bandit": 4, "Bramble Bear": 4, "Pep Talk": 4}
    deck_id, _ = make_deck(live_server, "mea", cards)
    page.goto(f"/decks/{deck_id}")
    panel = page.locator("#sample-hand")
    panel.get_by_label("Opening hand").fill("6")
    panel.get_by_label("Seed").fill("4242")
    panel.get_by_role("button", name="Deal", exact=True).click()
    hand = panel.locator("ul#hand li")
    expect(hand).to_have_count(6)
    expect(page.locator("a#hand-link")).to_have_attribute(
        "href", re.compile(r"seed=4242\b.*hand=6\b|hand=6\b.*seed=4242\b")
    )
    drawn = panel.locator("ul#hand li .hand-name").all_inner_texts()
    assert len(drawn) == 6 and all(Counter(drawn)[name] <= count for name, count in cards.items())
    assert set(drawn) <= set(cards)
    expect(panel.locator("ul#hand li .badge.demo")).to_have_count(6)  # demo cards, labelled in the hand too

    again = context.new_page()  # the link gives the same hand, in a new tab
    again.goto(page.locator("a#hand-link").get_attribute("href") or "")
    expect(again.locator("ul#hand li .hand-name")).to_have_text(drawn)
    again.close()

    panel.get_by_role("button", name="New hand").click()
    expect(panel.get_by_label("Seed")).not_to_have_value("4242")
    expect(page.locator("a#hand-link")).not_to_have_attribute("href", re.compile(r"seed=4242\b"))
    expect(hand).to_have_count(6)


def test_import_pasted_deck_all_or_nothing(page: Page, live_server: LiveServer) -> None:
    """A broken list stores nothing and lists every problem `deck validate` finds; a good one is stored."""
    broken = (REPO / "examples/decks/mea-broken.txt").read_text(encoding="utf-8")
    name = unique("Pasted")
    page.goto("/decks/import")
    page.get_by_label("Deck text, JSON or share code").fill(broken)
    page.locator("form#import-form").get_by_label("Name").fill(name)
    page.get_by_role("button", name="Import").click()
    problems = page.locator("#import-problems li")
    expect(problems.first).to_be_visible()
    for fragment in ("Goblen Surveyor", "Gotcha!", "count must be at least 1"):
        expect(page.locator("#import-problems")).to_contain_text(fragment)
    assert name not in deck_names(live_server.database)

    good = (REPO / "examples/decks/mea-goblin-rush.txt").read_text(encoding="utf-8")
    page.get_by_label("Deck text, JSON or share code").fill(good)
    page.locator("form#import-form").get_by_label("Name").fill(name)
    page.get_by_role("button", name="Import").click()
    expect(page).to_have_url(re.compile(r"/decks/\d+$"))
    expect(page.locator("#deck-count")).to_have_text("32")
    assert load_deck(live_server.database, name).size == 32


def test_decks_page_rename_duplicate_delete(page: Page, live_server: LiveServer) -> None:
    deck_id, name = make_deck(live_server, "mea", {"Crumb Goblin": 2})
    renamed = unique("Renamed")
    page.goto("/decks")
    row = page.locator(f"tr[data-deck-id='{deck_id}']")
    row.get_by_role("textbox", name=f"New name for {name}").fill(renamed)
    row.get_by_role("button", name="Rename").click()
    expect(page.locator(f"tr[data-deck-id='{deck_id}']").get_by_role("link").first).to_have_text(renamed)
    assert renamed in deck_names(live_server.database) and name not in deck_names(live_server.database)

    page.locator(f"tr[data-deck-id='{deck_id}']").get_by_role("button", name=f"Duplicate {renamed}").click()
    copies = [n for n in deck_names(live_server.database) if n.startswith(renamed) and n != renamed]
    assert len(copies) == 1
    assert load_deck(live_server.database, copies[0]).cards == load_deck(live_server.database, renamed).cards

    page.goto("/decks")
    page.locator(f"tr[data-deck-id='{deck_id}']").get_by_role("link", name=f"Delete {renamed}").click()
    expect(page.locator("form#confirm-delete")).to_be_visible()
    assert renamed in deck_names(live_server.database), "nothing is deleted before the confirmation"
    page.get_by_role("button", name=f"Delete {renamed}").click()
    expect(page.locator(f"tr[data-deck-id='{deck_id}']")).to_have_count(0)
    assert renamed not in deck_names(live_server.database)
    assert copies[0] in deck_names(live_server.database)


def test_gallery_and_card_images_load(page: Page) -> None:
    """The renderer's images (not a broken-image icon) in the grid's first screen and on a card's page."""
    page.goto("/cards?q=t:monster+game:mea")
    expect(page.locator("#results img").first).to_be_visible()
    page.wait_for_function(
        "() => { const shown = [...document.querySelectorAll('#results img')]"
        ".filter(i => i.getBoundingClientRect().top < innerHeight);"
        " return shown.length > 0 && shown.every(i => i.complete && i.naturalWidth > 0); }",
        timeout=4 * TIMEOUT_MS,  # the first screen's ~21 faces are each drawn on its first request
    )
    page.goto("/cards/meikyu/core/grimoire")
    image = page.locator("img#card-image")
    expect(image).to_be_visible()
    page.wait_for_function(
        "() => { const i = document.querySelector('#card-image'); return i.complete && i.naturalWidth > 0; }"
    )
    expect(image).to_have_attribute("alt", re.compile("Grimoire"))


def test_spreadsheet_import_confirmed_after_a_clean_dry_run(
    page: Page, live_server: LiveServer, tmp_path: Path
) -> None:
    """The page's own template link, one unknown value filled in: the dry run writes nothing, the confirm writes it."""
    page.goto("/catalog")
    with page.expect_download() as info:
        page.locator("a.template[href$='/meikyu.xlsx']").click()
    sheet = tmp_path / "meikyu.xlsx"
    info.value.save_as(sheet)
    book = openpyxl.load_workbook(sheet)
    rows = book.active
    assert rows is not None
    header = [cell.value for cell in rows[1]]
    name_col, type_col, bravery_col = (header.index(h) + 1 for h in ("name", "type", "bravery"))
    row = next(r for r in range(3, rows.max_row + 1) if rows.cell(row=r, column=type_col).value == "character")
    character = str(rows.cell(row=row, column=name_col).value)
    assert rows.cell(row=row, column=bravery_col).value is None, "the template leaves unknown values empty"
    rows.cell(row=row, column=bravery_col, value=3)
    book.save(sheet)
    before = db_dump(live_server.db_url)

    form = page.locator("form#catalog-upload")
    form.get_by_label("Game").select_option("meikyu")
    form.locator("input#sheet").set_input_files(str(sheet))
    form.get_by_role("button", name=re.compile("dry run", re.I)).click()
    expect(page.locator("#preview")).to_contain_text("would update 1")
    assert db_dump(live_server.db_url) == before, "the dry run writes nothing"

    page.locator("form#confirm-import").get_by_role("button").click()
    expect(page.locator("#preview")).to_contain_text("imported")
    with live_server.database.session() as session:
        assert find_card(session, character, "meikyu").bravery == 3


def tab_to(page: Page, label: str, presses: int = 60) -> None:
    """Press Tab until the control named ``label`` has the focus (it must be reachable so)."""
    for _ in range(presses):
        if page.evaluate("document.activeElement && document.activeElement.getAttribute('aria-label')") == label:
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"{label!r} is not reached with {presses} presses of Tab")


def test_keyboard_counts_keep_the_focus(page: Page, live_server: LiveServer) -> None:
    """+ and - by keyboard; the live update keeps the focus on the button, so Enter can be pressed again."""
    deck_id, name = make_deck(live_server, "mea", {"Dizzy Bat": 2})
    page.goto(f"/decks/{deck_id}?q=%22Dizzy+Bat%22")
    page.get_by_role("searchbox", name="Search").focus()
    tab_to(page, "One more Dizzy Bat")
    page.keyboard.press("Enter")
    expect(page.locator("#deck-count")).to_have_text("3")
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "One more Dizzy Bat"
    page.keyboard.press("Space")
    expect(page.locator("#deck-count")).to_have_text("4")
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "One fewer Dizzy Bat"
    page.keyboard.press("Enter")
    expect(page.locator("#deck-count")).to_have_text("3")
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "One fewer Dizzy Bat"
    assert [(c.name, c.count) for c in load_deck(live_server.database, name).cards] == [("Dizzy Bat", 3)]


def test_mea_sideboard_is_kept_outside_the_main_deck(page: Page, live_server: LiveServer) -> None:
    deck_id, name = make_deck(live_server, "mea", {"Crumb Goblin": 18})
    page.goto(f"/decks/{deck_id}")
    expect(page.locator("#validation")).to_have_class(re.compile(r"\bvalid\b"))
    page.get_by_role("combobox", name=re.compile("^Add to")).select_option(label="sideboard")
    find_in_builder(page, "Dizzy Bat").click()
    expect(page.locator("#deck li[data-card-id='mea/demo/dizzy-bat'][data-section='sideboard']")).to_be_visible()
    expect(page.locator("#deck-count")).to_have_text("18")  # the main deck only
    expect(page.locator("#validation")).to_have_class(re.compile(r"\bvalid\b"))
    deck = load_deck(live_server.database, name)
    assert [(c.name, c.count, c.section) for c in deck.cards] == [
        ("Crumb Goblin", 18, None),
        ("Dizzy Bat", 1, "sideboard"),
    ]
