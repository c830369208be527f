"""The deck builder serves a team (issue 30): the odds and the sample hand computed when opened, and
the deck's pages kept while nothing they show has changed — the deck (its version), the catalog,
the collection and card tags (their stamps, renewed by any writer: here another open handle of the
same database, as the CLI's would be)."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from cardbase.db.engine import Database, open_database
from cardbase.web.app import create_app
from cardbase.web.settings import ServerSettings
from tests.web.test_pages import add, make_deck, monsters, search_ids


@pytest.fixture
def web(database: Database) -> Iterator[TestClient]:
    settings = ServerSettings(database=database)
    with TestClient(create_app(settings), base_url=settings.base_url) as client:
        yield client


@pytest.fixture
def other(db_url: str, database: Database) -> Iterator[Database]:
    """A second handle on the test's database: a writer the server's process does not see."""
    handle = open_database(db_url)
    yield handle
    handle.engine.dispose()


def entry(page: str, card_id: str) -> str:
    """The deck list's line of ``card_id``."""
    return page.split(f'<li data-card-id="{card_id}"', 1)[1].split("</li>", 1)[0]


def test_odds_and_sample_hand_are_computed_when_opened(web: TestClient, database: Database) -> None:
    deck = make_deck(web)
    for card in monsters(database, 10):
        add(web, deck, card, 2)
    page = web.get(f"/decks/{deck}").text
    assert 'id="odds-form"' in page and 'id="sample-form"' in page  # the forms, nothing computed
    assert 'id="odds-table"' not in page and '<ul id="hand"' not in page
    assert f'href="/decks/{deck}?open=odds#odds"' in page and f'href="/decks/{deck}?open=sample#sample-hand"' in page
    odds = web.get(f"/decks/{deck}", params={"open": "odds"}).text  # the game's needs: no assist in the deck
    assert (
        "t:assist&#39; matches no card of the deck" in odds
        and "data-open" in odds.split('id="odds"', 1)[1].split(">", 1)[0]
    )
    assert '<ul id="hand"' not in odds
    both = web.get(f"/decks/{deck}?open=odds&open=sample&fragment=panels&needs=1+t:monster").text
    assert 'id="odds-table"' in both and len(re.findall(r'class="hand-name"', both)) == 5
    # a panel's own parameter opens it (its form sent without JavaScript, a link to a hand)
    assert 'id="odds-table"' in web.get(f"/decks/{deck}", params={"needs": "1 t:monster"}).text
    assert '<ul id="hand"' in web.get(f"/decks/{deck}", params={"seed": "3"}).text
    # an edit's answer (the panels the script swaps in) computes only the panels open in the page
    answer = web.post(f"/decks/{deck}/cards", data={"card": monsters(database, 1)[0], "op": "add", "fragment": "1"})
    assert answer.status_code == 200 and 'id="odds-table"' not in answer.text
    answer = web.post(
        f"/decks/{deck}/cards?open=odds&needs=1+t:monster",
        data={"card": monsters(database, 1)[0], "op": "add", "fragment": "1"},
    )
    assert 'id="odds-table"' in answer.text


def test_new_hand_draws_a_fresh_seed_each_time_though_the_page_is_kept(web: TestClient, database: Database) -> None:
    """ "New hand" asks for ``seed=new``, answered by a redirect to a seed drawn then: a kept page offers
    no fixed "next" seed (it once did, so the same page led to the same "new" hand until the deck changed)."""
    deck = make_deck(web)
    for card in monsters(database, 10):
        add(web, deck, card, 2)
    first, kept = (web.get(f"/decks/{deck}", params={"seed": "7", "hand": "5"}).text for _ in range(2))
    assert first == kept  # the page is kept …
    button = re.search(r'<button id="new-hand"[^>]*>', kept)
    assert button and 'name="seed" value="new"' in button.group(0)  # … and its button names no seed
    seeds = []
    for fragment in ("", "panels"):  # the page without the script; the panels the script asks for
        for _ in range(2):
            params = {"seed": "new", "hand": "5", **({"fragment": fragment} if fragment else {})}
            answer = web.get(f"/decks/{deck}", params=params, follow_redirects=False)
            assert answer.status_code == 303
            target = answer.headers["location"]
            assert target.startswith(f"/decks/{deck}?") and "hand=5" in target and "seed=new" not in target
            assert ("fragment=panels" in target) == bool(fragment)
            seed = re.search(r"seed=(\d+)", target)
            assert seed is not None
            seeds.append(int(seed.group(1)))
            shown = web.get(target).text
            assert f"seed {seed.group(1)}" in shown and len(re.findall(r'class="hand-name"', shown)) == 5
    assert len(set(seeds)) == len(seeds)  # four draws of 2**32 seeds: equal ones by chance about once in 10**9


def test_an_unknown_panel_name_opens_nothing(web: TestClient, database: Database) -> None:
    deck = make_deck(web)
    add(web, deck, monsters(database, 1)[0], 4)
    page = web.get(f"/decks/{deck}", params={"open": "odds-table,<b>"})
    assert page.status_code == 200 and 'id="odds-table"' not in page.text and "<b>" not in page.text


def test_a_page_is_kept_until_its_deck_changes(web: TestClient, database: Database) -> None:
    deck = make_deck(web)
    first, second = monsters(database, 2)
    add(web, deck, first, 2)
    page = web.get(f"/decks/{deck}")
    assert f'id="view-grid" href="/decks/{deck}" aria-current="true"' in page.text  # the gallery's own "view"
    kept = web.app.state.deck_pages  # type: ignore[attr-defined]
    # the page, its panels and its gallery
    assert len(kept.items) == 3 and web.get(f"/decks/{deck}").text == page.text
    assert len(kept.items) == 3  # the second load was the kept page
    assert page.headers["etag"] == web.get(f"/decks/{deck}").headers["etag"]
    # the panels alone are those of the page (made once), with the same ETag
    panels = web.get(f"/decks/{deck}?fragment=panels")
    assert panels.text in page.text and panels.headers["etag"] == page.headers["etag"] and len(kept.items) == 3
    answer = add(web, deck, second, fragment=True)  # an edit's answer: the panels the next page shows
    assert f'<li data-card-id="{second}"' in answer.text and len(kept.items) == 4
    again = web.get(f"/decks/{deck}").text
    assert answer.text in again and again != page.text and len(kept.items) == 5  # the gallery was kept


def gallery_of(page: str) -> str:
    """The builder's search results."""
    return page.split('<div id="results-region"', 1)[1].split('<section class="deck-side"', 1)[0]


def add_form_of(page: str, card_id: str) -> str:
    """The gallery's add form of ``card_id``."""
    return page.split(f'<input type="hidden" name="card" value="{card_id}">', 1)[1].split("</form>", 1)[0]


def test_the_gallery_is_kept_across_versions_with_the_new_version_and_counts(
    web: TestClient, database: Database, other: Database
) -> None:
    from cardbase.db.edit import edit_card

    deck = make_deck(web)
    shown = re.findall(r'<li class="card" data-card-id="([^"]+)"', web.get(f"/decks/{deck}").text)
    first, second = shown[0], shown[1]
    add(web, deck, first, 2)
    page = web.get(f"/decks/{deck}")
    version = int(page.headers["etag"].rsplit("-v", 1)[1].strip('"'))
    assert f'name="version" value="{version}"' in add_form_of(page.text, first)
    assert (
        "in deck: 2" in add_form_of(page.text, first)
        and "in deck" not in add_form_of(page.text, second).split('<span class="in-deck">', 1)[1].split("</span>")[0]
    )
    kept = web.app.state.deck_pages  # type: ignore[attr-defined]
    galleries = [key for key in kept.items if "gallery" in key]
    add(web, deck, second)  # a new version: the same gallery, its forms and counts filled in anew
    after = web.get(f"/decks/{deck}")
    assert [key for key in kept.items if "gallery" in key] == galleries
    results = gallery_of(after.text)
    assert results.count(f'name="version" value="{version + 1}"') == results.count('name="op" value="add"') > 50
    assert 'name="version"' not in results.replace(f'name="version" value="{version + 1}"', "")
    assert "in deck: 2" in add_form_of(after.text, first) and "in deck: 1" in add_form_of(after.text, second)
    # without JavaScript, an add form of the kept gallery is taken at the new version
    form = {"card": second, "op": "add", "section": "", "version": str(version + 1)}
    assert web.post(f"/decks/{deck}/cards", data=form, follow_redirects=False).status_code == 303
    # a catalog change (by another writer) makes the gallery again
    edit_card(other, first, {"cost": "9"}, "tester")
    changed = web.get(f"/decks/{deck}")
    assert len([key for key in kept.items if "gallery" in key]) == len(galleries) + 1
    assert "cost 9" in changed.text.split(f'data-card-id="{first}"', 1)[1].split("</li>", 1)[0]


def test_a_catalog_change_shows_on_the_next_load(web: TestClient, database: Database, other: Database) -> None:
    from cardbase.db.edit import edit_card

    deck = make_deck(web)
    card = monsters(database, 1)[0]
    add(web, deck, card, 2)
    before = entry(web.get(f"/decks/{deck}").text, card)
    assert "· cost 9</span>" not in before
    edit_card(other, card, {"cost": "9"}, "tester")
    after = entry(web.get(f"/decks/{deck}").text, card)
    assert "· cost 9</span>" in after


def test_a_collection_change_shows_on_the_next_load(web: TestClient, database: Database, other: Database) -> None:
    from cardbase.db.collection import change_owned
    from cardbase.db.models import Card

    deck = make_deck(web)
    card_id = monsters(database, 1)[0]
    add(web, deck, card_id, 3)
    assert 'id="collection"' not in web.get(f"/decks/{deck}").text  # an empty collection: no panel
    with other.session() as session:
        card = session.get(Card, card_id)
    assert card is not None
    change_owned(other, card, 1)
    assert "own 1/3" in entry(web.get(f"/decks/{deck}").text, card_id)
    change_owned(other, card, 2)
    assert "own 3/3" in entry(web.get(f"/decks/{deck}").text, card_id)


def test_a_card_tag_shows_on_the_next_load(web: TestClient, database: Database, other: Database) -> None:
    from cardbase.db.edit import edit_card

    deck = make_deck(web)
    card = monsters(database, 1)[0]
    add(web, deck, card, 2)
    url = f"/decks/{deck}?needs=1+tag:teamwork"
    assert "tag:teamwork' matches no card of the deck" in html.unescape(web.get(url).text)
    edit_card(other, card, {"tags": "teamwork"}, "tester")
    assert "(2 match)" in html.unescape(web.get(url).text)


def test_the_stamps_are_renewed_only_by_what_a_transaction_writes(database: Database, other: Database) -> None:
    from sqlalchemy import text
    from sqlmodel import select

    from cardbase.db.collection import change_owned
    from cardbase.db.models import Card
    from cardbase.db.stamps import read_stamps

    def stamps() -> dict[str, str]:
        with database.session() as session:
            return dict(read_stamps(session))

    before = stamps()
    with other.session() as session:
        card = session.scalars(select(Card).limit(1)).first()
    assert card is not None
    change_owned(other, card, 1)
    after = stamps()
    assert after["stamp:collection"] != before.get("stamp:collection")
    assert after.get("stamp:cards") == before.get("stamp:cards") and after.get("stamp:tags") == before.get("stamp:tags")
    try:
        with other.transaction() as session:  # a write rolled back renews nothing
            session.execute(text("DELETE FROM collection"))
            raise RuntimeError("undo")
    except RuntimeError:
        pass
    assert stamps() == after


@pytest.mark.parametrize(
    ("statement", "stamp"),
    [
        ("INSERT INTO card (id, name) VALUES (?, ?)", "cards"),
        ("INSERT OR IGNORE INTO card_alias (card_id, alias) VALUES (?, ?)", "cards"),
        ('UPDATE "card" SET cost=? WHERE card.id = ?', "cards"),
        ("\n  DELETE FROM collection WHERE collection.card_id = ?", "collection"),
        ("INSERT INTO collection (card_id, count) VALUES (%(card_id)s, %(count)s) ON CONFLICT", "collection"),
        ("DELETE FROM card_tag WHERE card_tag.card_id = ?", "tags"),
        ("INSERT INTO deck_card (deck_id) VALUES (?)", None),
        ("UPDATE deck SET version=(deck.version + ?)", None),
        ("SELECT card.id FROM card", None),
        ("INSERT INTO meta (key, value) VALUES (?, ?)", None),
    ],
)
def test_which_writes_renew_which_stamp(statement: str, stamp: str | None) -> None:
    from cardbase.db.stamps import STAMPED, WRITE

    found = WRITE.match(statement)
    assert (STAMPED.get(found.group(1).lower()) if found else None) == stamp


def version_of(page: str) -> int:
    found = re.search(r'id="panels" data-deck-id="\d+" data-version="(\d+)"', page)
    assert found, page[:300]
    return int(found.group(1))


def lists_of(page: str) -> list[tuple[str, list[str]]]:
    """Each group's list of the deck list: its group key (a list's; a stack's has none) and the card ids in
    its order (``data-order`` in an edit's answer, the entries themselves in a page)."""
    found = []
    for head, body in re.findall(r'(<ul class="(?:deck-list|face-stack)"[^>]*>)(.*?)</ul>', page, re.S):
        order = re.search(r"data-order='([^']*)'", head)
        ids = json.loads(html.unescape(order.group(1))) if order else re.findall(r'<li data-card-id="([^"]+)"', body)
        group = re.search(r'data-group="([^"]*)"', head)
        found.append((group.group(1) if group else "", ids))
    return found


def panel(page: str, panel_id: str) -> str:
    return page.split(f'<section id="{panel_id}"', 1)[1].split("</section>", 1)[0]


@pytest.mark.parametrize("layout", ["list", "visual"])
def test_an_edit_made_from_the_version_before_answers_only_what_it_changed(
    web: TestClient, database: Database, layout: str
) -> None:
    """The builder's script sends the version its page shows: the answer holds the edited card's entries,
    every group's order, the headings and the other panels (the next page's, byte for byte), and marks
    the closed odds and sample hand as kept; the next page renders the whole list from the same values."""
    deck = make_deck(web)
    cards = monsters(database, 6)
    for n, card in enumerate(cards[:5]):
        add(web, deck, card, n + 1)
    assist = search_ids(database, "t:assist", "mea", 1)[0]
    query = f"?sort=count&layout={layout}"
    for card, op in [(cards[0], "inc"), (cards[0], "inc"), (cards[5], "add"), (assist, "add"), (assist, "dec")]:
        shown = version_of(web.get(f"/decks/{deck}{query}").text)
        data = {"card": card, "op": op, "section": "", "fragment": "1", "version": str(shown)}
        answer = web.post(f"/decks/{deck}/cards{query}", data=data)
        assert answer.status_code == 200 and answer.headers["etag"] == f'"deck-{deck}-v{shown + 1}"'
        page = web.get(f"/decks/{deck}{query}").text
        assert "data-delta" in answer.text and version_of(answer.text) == shown + 1 == version_of(page)
        assert set(re.findall(r'<li data-card-id="([^"]+)"', answer.text)) <= {card}
        assert (f'<li data-card-id="{card}"' in answer.text) == (f'<li data-card-id="{card}"' in page)
        if f'<li data-card-id="{card}"' in page:
            assert entry(answer.text, card) == entry(page, card)
        assert lists_of(answer.text) == lists_of(page) and lists_of(page)
        headings = r"<h[234][^>]*>.*?</h[234]>"
        assert re.findall(headings, panel(answer.text, "deck-panel"), re.S) == re.findall(
            headings, panel(page, "deck-panel"), re.S
        )
        for other_panel in ("validation", "stats", "history", "share"):
            assert panel(answer.text, other_panel) == panel(page, other_panel)
        assert '<section id="odds" data-kept></section>' in answer.text and 'id="odds-form"' not in answer.text
        assert '<section id="sample-hand" data-kept></section>' in answer.text
        assert "data-order" not in page and "data-kept" not in page and "data-delta" not in page
    ((group, ids),) = lists_of(page)  # the assist's group came and went; the sideboard is empty
    assert group == ("monster" if layout == "list" else "") and ids[:2] == [
        cards[4],
        cards[3],
    ]  # the most copies first (5, 4; the edited 3)


def test_an_edit_not_made_from_the_version_before_answers_the_whole_panels(web: TestClient, database: Database) -> None:
    """Without the version (or with an open panel), what the page needs is all there."""
    deck = make_deck(web)
    first, second = monsters(database, 2)
    add(web, deck, first, 2)
    whole = web.post(f"/decks/{deck}/cards", data={"card": second, "op": "add", "fragment": "1"})
    assert "data-delta" not in whole.text and f'<li data-card-id="{first}"' in whole.text
    assert whole.text in web.get(f"/decks/{deck}").text
    shown = version_of(whole.text)
    data = {"card": second, "op": "add", "fragment": "1", "version": str(shown)}
    opened = web.post(f"/decks/{deck}/cards?open=odds&needs=1+t:monster", data=data)
    assert "data-delta" in opened.text and 'id="odds-table"' in opened.text  # an open panel is answered …
    assert '<section id="sample-hand" data-kept></section>' in opened.text  # … a closed one kept


def test_a_deck_list_entry_is_rendered_once_for_the_versions_that_show_it_alike(
    web: TestClient, database: Database
) -> None:
    deck = make_deck(web)
    first, second = monsters(database, 2)
    add(web, deck, first, 2)
    add(web, deck, second)
    before = web.get(f"/decks/{deck}").text
    kept = web.app.state.deck_entries  # type: ignore[attr-defined]
    made = len(kept.items)
    shown = version_of(before)
    add(web, deck, second)  # a new version: the first card's entry is the same but for its forms' version
    after = web.get(f"/decks/{deck}").text
    assert version_of(after) == shown + 1 and len(kept.items) == made + 1  # the second card's, with 2 copies
    old, new = entry(before, first), entry(after, first)
    assert old != new and new.count(f'name="version" value="{shown + 1}"') == 3
    assert old.replace(f'name="version" value="{shown}"', f'name="version" value="{shown + 1}"') == new
    assert "deck-entry-version" not in after
    tagged = web.post(f"/decks/{deck}/tags", data={"card": first, "add": "combo"}, follow_redirects=False)
    assert tagged.status_code == 303
    assert '<span class="tag">combo</span>' in entry(web.get(f"/decks/{deck}").text, first)
