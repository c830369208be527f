"""The owners' pages in Chromium: the card editor's live preview and art upload, the card history,
the collection; on a server of their own whose art folder is the test's (uploads never touch the
repository's card_images/)."""

from __future__ import annotations

import io
import re
import uuid
from collections.abc import Iterator
from pathlib import Path

import pypdf
import pytest
from PIL import Image
from playwright.sync_api import Browser, Page, expect

from cardbase.db.edit import card_history
from cardbase.db.queries import find_card
from cardbase.decks.store import load_deck
from tests.web.browser.conftest import LAPTOP, PHONE, TIMEOUT_MS, LiveServer, new_live_db, start_server, stop_server
from tests.web.browser.test_phone_targets import small_targets


@pytest.fixture(scope="module")
def owners_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, Path]]:
    """A server over a database of its own: the cards these tests add (a Meikyu character without its
    Wits) would make every Meikyu game of the shared server refused."""
    images = tmp_path_factory.mktemp("owners-images")
    for url in new_live_db(tmp_path_factory):
        live = start_server(url, images=images)
        yield live, images
        stop_server(live)


@pytest.fixture
def owner_page(browser: Browser, owners_server: tuple[LiveServer, Path]) -> Iterator[Page]:
    errors: list[str] = []
    context = browser.new_context(base_url=owners_server[0].url, viewport=LAPTOP)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
    yield page
    context.close()
    assert errors == []


def _shot(page: Page) -> bytes:
    return page.locator("#preview").screenshot()


def test_a_new_card_is_drawn_as_typed_then_saved_with_art(owner_page: Page, owners_server, tmp_path: Path) -> None:
    live, images = owners_server
    page = owner_page
    name = f"Ember Fox {uuid.uuid4().hex[:6]}"
    page.goto("/cards/new?game=mea")
    page.fill("#f-name", name)
    page.select_option("#f-type", "monster")
    page.fill("#f-set", "mine")
    page.fill("#f-cost", "2")
    expect(page.locator("#preview-status")).to_have_text("Drawn as typed (not saved yet).")
    first = page.locator("#preview").get_attribute("src") or ""
    assert first.startswith("data:image/png;base64,")
    page.fill("#f-cost", "7")
    expect(page.locator("#preview")).not_to_have_attribute("src", first)  # drawn again for the new cost
    page.fill("#f-attack", "x")
    expect(page.locator("#preview-problems")).to_contain_text("column 'attack': a whole number")
    expect(page.locator("#preview-status")).to_have_text("Not drawn: fix the values below.")
    page.fill("#f-attack", "3")
    expect(page.locator("#preview-problems")).to_be_hidden()
    page.click("#save-card")
    expect(page.locator("#flash")).to_have_text("Card added.")
    with live.database.session() as session:
        card = find_card(session, name)
        assert (card.cost, card.attack, card.source) == (7, 3, "user")
    # art: a real PNG through the file input, stored where the CLI looks for it
    art = tmp_path / "art.png"
    Image.new("RGB", (530, 360), "#aa3322").save(art)
    page.click("#edit-card")
    page.set_input_files("#art", str(art))
    page.click("#upload-art")
    expect(page.locator("#flash")).to_have_text("Art saved.")
    stored = images / "mea" / f"{card.id.rsplit('/', 1)[1]}.png"
    assert stored.is_file()
    thumb = page.locator("#preview")
    expect(thumb).to_have_js_property("complete", True)
    pixels = Image.open(io.BytesIO(thumb.screenshot())).convert("RGB")
    data = pixels.tobytes()
    red = sum(1 for i in range(0, len(data), 3) if data[i] > 150 and data[i + 1] < 80 and data[i + 2] < 80)
    assert red > pixels.width * pixels.height // 10  # the art shows on the face
    # a file that is not an image is refused with one line, and nothing changes
    fake = tmp_path / "fake.png"
    fake.write_text("<svg xmlns='http://www.w3.org/2000/svg'></svg>")
    page.set_input_files("#art", str(fake))
    page.click("#upload-art")
    expect(page.locator("main")).to_contain_text("not a PNG, JPEG or WebP image")
    assert stored.read_bytes() == art.read_bytes()  # the refused upload left the stored art as it was


def test_history_shows_changes_and_puts_one_back(owner_page: Page, owners_server) -> None:
    live, _ = owners_server
    page = owner_page
    page.goto("/cards/new?game=mea")
    name = f"Ash Newt {uuid.uuid4().hex[:6]}"
    page.fill("#f-name", name)
    page.select_option("#f-type", "monster")
    page.fill("#f-set", "mine")
    page.fill("#f-cost", "1")
    page.click("#save-card")
    page.click("#edit-card")
    page.fill("#f-cost", "4")
    page.fill("#f-text", "<b>bold</b> When summoned: Draw 1 card.")
    page.click("#save-card")
    expect(page.locator("#flash")).to_have_text("Saved.")
    page.click("#card-history")
    edits = page.locator("#edits > li")
    expect(edits).to_have_count(2)
    expect(edits.first).to_contain_text("edit")
    expect(edits.first.locator("tr", has_text="cost")).to_contain_text("1")
    expect(edits.first).to_contain_text("<b>bold</b>")  # shown as text, not markup
    edits.first.locator("button.revert").click()
    expect(page.locator("#flash")).to_have_text("Reverted.")
    with live.database.session() as session:
        card = find_card(session, name)
        assert card.cost == 1 and card.text is None
    assert [e["action"] for e in card_history(live.database, card.id)] == ["revert", "edit", "add"]


def test_the_editor_shows_the_fields_the_chosen_type_has_and_refuses_one_it_does_not(
    owner_page: Page, owners_server
) -> None:
    """A Meikyu land has a level and no bravery, a character the reverse: the editor shows the fields of
    the chosen type. A level typed for a land stays in sight when the type becomes character, marked,
    and saving is refused by the rule (never dropped); cleared, the field goes and the card is added.
    Its page and history show the level as ``—`` (does not apply), never ``?``."""
    live, _ = owners_server
    page = owner_page
    page.goto("/cards/new?game=meikyu")
    name = f"Lamp Knight {uuid.uuid4().hex[:6]}"
    page.fill("#f-name", name)
    page.select_option("#f-type", "land")
    expect(page.locator("#f-level")).to_be_visible()
    expect(page.locator("#f-bravery")).to_be_hidden()
    page.fill("#f-level", "5")
    page.select_option("#f-type", "character")
    expect(page.locator("#f-bravery")).to_be_visible()
    expect(page.locator("#f-points")).to_be_hidden()
    expect(page.locator("#f-level")).to_be_visible()  # it holds a value: kept in sight, not dropped
    expect(page.locator('[data-na-for="level"]')).to_contain_text("has no level")
    expect(page.locator("#preview-problems")).to_contain_text("a Meikyu character has no level")
    page.fill("#f-bravery", "2")
    page.click("#save-card")
    expect(page.locator("#edit-error")).to_contain_text("column 'level': a Meikyu character has no level")
    expect(page.locator("#f-level")).to_have_value("5")
    page.fill("#f-level", "")
    expect(page.locator("#f-level")).to_be_hidden()
    page.click("#save-card")
    expect(page.locator("#flash")).to_have_text("Card added.")
    with live.database.session() as session:
        card = find_card(session, name)
        assert (card.type, card.level, card.bravery) == ("character", None, 2)
    page.click("#card-history")
    added = page.locator("#edits > li")
    expect(added).to_have_count(1)
    assert added.first.locator("tr", has_text="bravery").locator("td").all_text_contents() == ["?", "2"]


def test_tags_on_a_card_and_on_a_deck_entry_then_the_deck_history(owner_page: Page, owners_server) -> None:
    live, _ = owners_server
    page = owner_page
    page.goto("/cards/mea/demo/falling-piano")
    page.fill("#tag-input", "Removal, <b>heavy</b>")
    page.click("#tag-form button")
    expect(page.locator("main")).to_contain_text("a tag holds letters")  # '<' is not in a tag: one line, nothing kept
    page.goto("/cards/mea/demo/falling-piano")
    page.fill("#tag-input", "Removal, heavy")
    page.click("#tag-form button")
    expect(page.locator("#card-tags li")).to_have_count(2)
    page.locator("#card-tags a", has_text="removal").click()
    expect(page.locator("#results")).to_contain_text("Falling Piano")
    assert "tag" in page.url
    # a deck: tag an entry in the builder, see its history, compare two versions, restore one
    name = f"Hist {uuid.uuid4().hex[:6]}"
    page.goto("/decks")
    form = page.locator("form#new-deck")
    form.get_by_label("Name").fill(name)
    form.get_by_label("Game").select_option("mea")
    form.get_by_role("button").click()
    expect(page).to_have_url(re.compile(r"/decks/\d+$"))  # the new deck's page (not the form's, still loading)
    deck_url = page.url.split("?")[0]
    deck_id = int(deck_url.rstrip("/").rsplit("/", 1)[1])
    for _ in range(2):
        page.request.post(f"/api/decks/{deck_id}/cards", data={"name": "Crumb Goblin", "count": 3})
    page.request.post(f"/api/decks/{deck_id}/cards", data={"name": "Falling Piano", "count": 2})
    page.goto(deck_url)
    entry = page.locator('#deck li[data-card-id="mea/demo/crumb-goblin"]')
    entry.locator("details summary").click()
    entry.locator('input[name="add"]').fill("combo piece")
    entry.locator("details button", has_text="Tag").click()
    expect(page.locator('#deck li[data-card-id="mea/demo/crumb-goblin"] .entry-tags')).to_have_text("combo piece")
    expect(page.locator("#recent-versions li").first).to_contain_text("tags of Crumb Goblin: combo piece")
    page.click("#history-link")
    expect(page.locator("#versions tbody tr")).to_have_count(4)  # the two quick adds of Crumb Goblin: one line
    expect(page.locator('#versions tr[data-version="3"]')).to_contain_text("+6 Crumb Goblin")
    page.select_option('#compare-versions select[name="a"]', f"{deck_id}@3")
    page.select_option('#compare-versions select[name="b"]', f"{deck_id}@4")
    page.click("#compare-versions button")
    expect(page.locator("#diff")).to_contain_text("Falling Piano")
    page.goto(f"/decks/{deck_id}/versions/2")  # a version inside a line is still there to view and restore
    page.locator("#restore").click()
    expect(page.locator("#flash")).to_have_text("Restored version 2.")
    deck = load_deck(live.database, deck_id)
    assert [(c.name, c.count) for c in deck.cards] == [("Crumb Goblin", 3)]


def test_done_when_a_mea_owner_enters_tags_asks_builds_prints_and_goes_back(
    owner_page: Page, owners_server, tmp_path: Path
) -> None:
    """The issue's "done when", in the browser only: ten cards of one's own with art, three tagged
    `removal`, the odds of two of them by turn 3, the decks one can build, a print of only the
    missing copies, and an earlier version of a deck back."""
    live, images = owners_server
    page = owner_page
    mine = uuid.uuid4().hex[:6]
    names = [f"Own {mine} {i}" for i in range(10)]
    ids: list[str] = []
    for i, name in enumerate(names):
        page.goto("/cards/new?game=mea")
        page.fill("#f-name", name)
        page.select_option("#f-type", "monster")
        page.fill("#f-set", f"own-{mine}")
        page.fill("#f-cost", str(1 + i % 4))
        page.click("#save-card")
        expect(page.locator("#flash")).to_have_text("Card added.")
        art = tmp_path / f"art{i}.webp" if i % 2 else tmp_path / f"art{i}.jpg"
        Image.new("RGB", (400, 300), (20 * i, 120, 200 - 15 * i)).save(art)
        page.click("#edit-card")
        page.set_input_files("#art", str(art))
        page.click("#upload-art")
        expect(page.locator("#flash")).to_have_text("Art saved.")
        with live.database.session() as session:
            ids.append(find_card(session, name).id)
    assert len(set(ids)) == 10 and all(any((images / "mea").glob(f"{i.rsplit('/', 1)[1]}.*")) for i in ids)
    # three tagged removal on their pages; two copies of each of the ten owned
    for card_id in ids:
        page.goto(f"/cards/{card_id}")
        if card_id in ids[:3]:
            page.fill("#tag-input", "removal")
            page.click("#tag-form button")
            expect(page.locator("#card-tags a")).to_have_text(["removal"])
        page.fill("#owned-count", "2")
        page.locator("#owned-form button").click()
        expect(page.locator("#owned-count")).to_have_value("2")
    # two decks: one of two copies of each (buildable), one of three (a copy of each missing)
    deck_ids = {}
    for copies in (2, 3):
        page.goto("/decks")
        form = page.locator("form#new-deck")
        form.get_by_label("Name").fill(f"Own {mine} x{copies}")
        form.get_by_label("Game").select_option("mea")
        form.get_by_role("button").click()
        expect(page).to_have_url(re.compile(r"/decks/\d+$"))
        deck_ids[copies] = int(page.url.split("?")[0].rstrip("/").rsplit("/", 1)[1])
        for name in names:
            answer = page.request.post(f"/api/decks/{deck_ids[copies]}/cards", data={"name": name, "count": copies})
            assert answer.ok, answer.text()
    # the odds of two removal cards by turn 3, checked against scipy's hypergeometric law
    page.goto(f"/decks/{deck_ids[3]}")
    page.fill("#needs", "2 tag:removal")
    page.locator("#odds-form button").click()
    # the odds of these needs shown (the panel's table is replaced in place): read only then
    expect(page.locator("#odds-table thead")).to_contain_text("2 × tag:removal")
    turn3 = page.locator("#odds-turns tbody tr", has=page.locator("th", has_text=re.compile(r"^3$")))
    seen = int(turn3.locator("td").first.text_content() or "")
    from scipy.stats import hypergeom

    from cardbase.stats import percent

    assert (turn3.locator("td").nth(1).text_content() or "").strip() == percent(float(hypergeom.sf(1, 30, 9, seen)))
    # the decks page lists only the buildable one when asked
    page.goto("/decks")
    page.locator("#buildable-filter input[name=buildable]").check()
    page.locator("#buildable-filter button").click()
    expect(page.locator(f'tr[data-deck-id="{deck_ids[2]}"]')).to_have_count(1)
    expect(page.locator(f'tr[data-deck-id="{deck_ids[3]}"]')).to_have_count(0)
    # the builder prints only the ten missing copies
    page.goto(f"/decks/{deck_ids[3]}")
    expect(page.locator("#owned-h")).to_have_text("Collection: 10 missing")
    form = page.locator("form#print-form")
    form.locator('select[name="missing"]').select_option("true")
    with page.expect_download() as info:
        form.get_by_role("button").click()
    pdf = pypdf.PdfReader(io.BytesIO(Path(info.value.path()).read_bytes()))
    text = "".join(p.extract_text() or "" for p in pdf.pages)
    assert [text.count(name) for name in names] == [1] * 10, text[:500]
    # a change, then the first full version back: the deck is what it was
    first = load_deck(live.database, deck_ids[3])
    page.request.post(f"/api/decks/{deck_ids[3]}/cards", data={"name": "Crumb Goblin", "count": 4})
    assert load_deck(live.database, deck_ids[3]) != first
    page.goto(f"/decks/{deck_ids[3]}/history")
    full = page.locator("#versions tbody tr", has_text=names[-1]).first
    number = full.get_attribute("data-version")
    full.locator("button.restore").click()
    expect(page.locator("#flash")).to_have_text(f"Restored version {number}.")
    assert load_deck(live.database, deck_ids[3]).cards == first.cards


def test_the_decks_table_gives_the_collection_column_room_at_a_laptops_width(owner_page: Page) -> None:
    """With a collection the decks table has a Collection column: at 1,366 px it had no width, so
    its header and "N missing" were drawn over Updated's header and date."""
    page = owner_page
    assert page.request.post("/api/collection", data={"name": "Crumb Goblin", "count": 1, "op": "add"}).ok
    made = page.request.post("/api/decks", data={"game": "mea", "name": f"Wide {uuid.uuid4().hex[:8]}"})
    assert made.ok, made.text()
    deck_id = made.json()["id"]
    assert page.request.post(f"/api/decks/{deck_id}/cards", data={"name": "Dizzy Bat", "count": 2}).ok
    page.goto("/decks")
    table = page.locator("table.decks-table").first
    row = table.locator(f'tr[data-deck-id="{deck_id}"]')
    expect(row.locator("td.owned-cell")).to_contain_text("2 missing")  # the table as drawn: then measured
    headers = {name: table.get_by_role("columnheader", name=name).bounding_box() for name in ("Collection", "Updated")}
    cells = {"Collection": row.locator("td.owned-cell").bounding_box(), "Updated": row.locator("time").bounding_box()}
    for boxes in (headers, cells):
        owned, updated = boxes["Collection"], boxes["Updated"]
        assert owned and updated and owned["width"] > 40, boxes
        assert owned["x"] + owned["width"] <= updated["x"] + 0.5, boxes  # side by side, not one over the other
    text = row.locator("td.owned-cell span")
    assert text.evaluate("e => e.scrollWidth <= e.parentElement.clientWidth"), "the cell's text fits its column"


@pytest.mark.parametrize("viewport", [LAPTOP, {"width": 390, "height": 844}], ids=["laptop", "phone"])
def test_the_buildable_checkbox_sits_on_its_labels_line(owner_page: Page, viewport: dict[str, int]) -> None:
    """The decks page's "Only the decks I can build" checkbox: it was drawn on a line of its own,
    above its words (labels stack their parts as a column); it belongs at the start of their first line."""
    page = owner_page
    page.set_viewport_size(viewport)
    assert page.request.post("/api/collection", data={"name": "Crumb Goblin", "count": 1, "op": "add"}).ok
    made = page.request.post("/api/decks", data={"game": "mea", "name": f"Line {uuid.uuid4().hex[:8]}"})
    assert made.ok, made.text()  # the filter is offered once there are a collection and a deck
    page.goto("/decks")
    box = page.locator("#buildable-filter input[name=buildable]").bounding_box()
    # the first line of the label's words: the box of their first character
    words = page.locator("#buildable-filter label").evaluate(
        """label => {
            const text = [...label.childNodes].find(n => n.nodeType === 3 && n.textContent.trim());
            const range = document.createRange();
            const at = text.textContent.indexOf("Only");
            range.setStart(text, at);
            range.setEnd(text, at + 1);
            const r = range.getBoundingClientRect();
            return {x: r.x, y: r.y, width: r.width, height: r.height};
        }"""
    )
    assert box and words["height"] > 0, (box, words)
    middle = box["y"] + box["height"] / 2
    assert words["y"] <= middle <= words["y"] + words["height"], (box, words)  # on the words' first line
    assert box["x"] + box["width"] <= words["x"], (box, words)  # and before them


def test_a_pasted_list_is_previewed_then_saved(owner_page: Page) -> None:
    """The collection page's "Add cards": paste, "Show what changes" (nothing written), then Save."""
    page = owner_page
    mole = "mea/demo/tile-mole"
    listing = page.request.get("/api/collection", params={"game": "mea"}).json()
    before = {c["id"]: c["count"] for c in listing["cards"]}.get(mole, 0)
    page.goto("/collection")
    page.select_option("#bulk-game", "mea")
    page.check("input[name=mode][value=add]")
    page.fill("#bulk-text", "# from the binder\n2 Tile Mole\nTile Mole x1\n")
    page.click("#bulk-preview")
    cells = page.locator(f'#bulk-changes tr[data-card-id="{mole}"] td')
    expect(cells.nth(2)).to_have_text(str(before))
    expect(cells.nth(3)).to_have_text(f"→ {before + 3}")
    expect(page.locator("#bulk-text")).to_have_value("# from the binder\n2 Tile Mole\nTile Mole x1\n")
    listing = page.request.get("/api/collection", params={"game": "mea"}).json()
    assert {c["id"]: c["count"] for c in listing["cards"]}.get(mole, 0) == before  # the preview wrote nothing
    page.locator("#bulk-confirm button").click()
    expect(page.locator("#flash")).to_have_text("Saved: 1 card changed.")
    expect(page.locator(f'#owned tr[data-card-id="{mole}"] td').first).to_have_text(str(before + 3))
    page.fill("#bulk-text", "2 Tile Moel\n")
    page.click("#bulk-preview")
    expect(page.locator("#bad-lines li")).to_have_text(["line 1: no card named 'Tile Moel'; did you mean 'Tile Mole'?"])


def test_the_collection_entered_in_the_browser_is_downloaded_from_its_page(owner_page: Page) -> None:
    """An owner who typed their collection in the browser takes it away from there: the page's Export
    downloads the file ``collection import`` reads back (of the game shown)."""
    page = owner_page
    assert page.request.post("/api/collection", data={"name": "Cook", "count": 2}).ok
    page.goto("/collection?game=meikyu")
    with page.expect_download() as downloaded:
        page.locator("#collection-export a", has_text="CSV").click()
    assert downloaded.value.suggested_filename == "collection-meikyu.csv"
    lines = Path(downloaded.value.path()).read_text(encoding="utf-8").splitlines()
    assert lines[0] == "game,name,set,count" and "meikyu,Cook,core,2" in lines[1:]
    assert all(line.startswith("meikyu,") for line in lines[1:])


def test_on_a_phone_what_a_pasted_list_would_change_shows_without_scrolling(owner_page: Page) -> None:
    """The answer to "Show what changes" (the bad lines, or the changes) is written under the form,
    a page and more below the top on a phone: the page opens at it, not at its top."""
    page = owner_page
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/collection")
    page.select_option("#bulk-game", "mea")
    page.fill("#bulk-text", "2 Tile Moel\n")
    page.click("#bulk-preview")
    expect(page.locator("#bad-lines")).to_be_in_viewport()
    page.fill("#bulk-text", "2 Tile Mole\n")
    page.click("#bulk-preview")
    expect(page.locator("#bulk-changes")).to_be_in_viewport()


def test_the_deck_history_table_uses_a_laptops_width_and_each_date_is_one_line(owner_page: Page) -> None:
    """The deck history's table was styled as a card's field list (40rem wide, 12rem per header): at a
    laptop's width it was narrow and each version's date wrapped onto three lines."""
    page = owner_page
    page.set_viewport_size({"width": 1280, "height": 800})
    made = page.request.post("/api/decks", data={"game": "mea", "name": f"Dated {uuid.uuid4().hex[:8]}"})
    assert made.ok, made.text()
    deck_id = made.json()["id"]
    for name in ("Crumb Goblin", "Falling Piano"):
        assert page.request.post(f"/api/decks/{deck_id}/cards", data={"name": name, "count": 2}).ok
    page.goto(f"/decks/{deck_id}/history")
    table = page.locator("#versions")
    expect(table.locator("tbody tr")).to_have_count(3)
    box, main = table.bounding_box(), page.locator("main").bounding_box()
    assert box and main and box["width"] >= 0.9 * (main["width"] - 40), (box, main)
    for when in table.locator("tbody time").all():
        assert when.evaluate("e => e.getClientRects().length") == 1, when.inner_text()  # one line, not wrapped
    for cell in table.locator("tbody tr").first.locator("td").all()[:4]:  # number, when, from, cards: one line each
        height = cell.evaluate("e => e.getBoundingClientRect().height")
        line = cell.evaluate("e => parseFloat(getComputedStyle(e).lineHeight) || 20")
        assert height < 2 * line + 12, (cell.inner_text(), height, line)


def test_a_collections_short_card_name_is_finger_sized(owner_page: Page) -> None:
    """A card's name alone in a table cell (the collection's "Bee") is a link to tap, not a word in a
    sentence: it was 31 × 19 px."""
    assert owner_page.request.post("/api/collection", data={"name": "Bee", "count": 1}).ok
    owner_page.set_viewport_size(PHONE)
    owner_page.goto("/collection?game=meikyu")
    expect(owner_page.locator("#owned a", has_text="Bee")).to_be_visible()
    assert (small := small_targets(owner_page)) == [], small
