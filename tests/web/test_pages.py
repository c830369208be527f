"""The HTML pages through the ASGI test client, on SQLite and (with CARDBASE_TEST_POSTGRES) PostgreSQL.

Each page's numbers are checked against the feature function the CLI prints them with, so a page
that drifts from ``cards search``, ``deck validate``, ``deck stats`` or ``draws`` fails here.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardbase.db.engine import Database
from cardbase.web.app import create_app
from cardbase.web.settings import ServerSettings

XSS = "<img src=x onerror=alert(1)>"


@pytest.fixture
def web(database: Database) -> Iterator[TestClient]:
    """A client of the app over the test's database, sending the served address as its Host."""
    settings = ServerSettings(database=database)
    with TestClient(create_app(settings), base_url=settings.base_url, raise_server_exceptions=False) as client:
        yield client


def ids_in(page: str) -> list[str]:
    """The card ids of the results, in order."""
    region = page.split('id="results"', 1)[1].split('id="pager"', 1)[0]
    return [html.unescape(i) for i in re.findall(r'data-card-id="([^"]+)"', region)]


def one_line_error(response: Any) -> str:
    m = re.search(r'<p id="error"[^>]*>(.*?)</p>', response.text, re.S)
    assert m, response.text[:500]
    assert "Traceback" not in response.text
    return html.unescape(m.group(1)).strip()


def action_error(response: Any) -> str:
    """The builder's one-line error of a refused change (with or without JavaScript)."""
    m = re.search(r'<p id="action-error"[^>]*>(.*?)</p>', response.text, re.S)
    assert m, response.text[:500]
    return html.unescape(m.group(1)).strip()


def search_ids(database: Database, query: str, game: str | None = None, limit: int = 60, **kw: Any) -> list[str]:
    from cardbase.db.search import search_cards

    with database.session() as session:
        return [c.id for c in search_cards(session, query, game, limit, **kw)]


def make_deck(web: TestClient, name: str = "Rush", game: str = "mea", players: str = "") -> int:
    response = web.post("/decks", data={"name": name, "game": game, "players": players}, follow_redirects=False)
    assert response.status_code == 303, response.text
    location = response.headers["location"]
    assert re.fullmatch(r"/decks/\d+", location)
    return int(location.rsplit("/", 1)[1])


def add(web: TestClient, deck: int, card: str, times: int = 1, section: str = "", fragment: bool = False) -> Any:
    response = None
    for _ in range(times):
        data = {"card": card, "op": "add", "section": section}
        if fragment:
            data["fragment"] = "1"
        response = web.post(f"/decks/{deck}/cards", data=data, follow_redirects=False)
    return response


def monsters(database: Database, n: int) -> list[str]:
    return search_ids(database, "t:monster", "mea", n)


# --- gallery -----------------------------------------------------------------------------------


def test_home_and_gallery_first_page_is_search_of_sixty(web: TestClient, database: Database) -> None:
    assert web.get("/").status_code == 200
    page = web.get("/cards")
    assert page.status_code == 200
    assert ids_in(page.text) == search_ids(database, "", None, 60)
    assert page.text.count('loading="lazy"') == 60
    assert "/image.png?w=" in page.text
    second = web.get("/cards?page=2")
    assert ids_in(second.text) == search_ids(database, "", None, 120)[60:]
    assert 'id="prev-page"' in second.text


def test_gallery_filters_order_and_table_view(web: TestClient, database: Database) -> None:
    params = {"q": "cost<=3", "game": "mea", "type": "monster", "order": "atk", "direction": "desc"}
    page = web.get("/cards", params=params)
    assert page.status_code == 200
    expected = search_ids(database, "cost<=3 t:monster", "mea", order="atk", direction="desc")
    assert expected and ids_in(page.text) == expected
    table = web.get("/cards", params={"q": "t:land", "game": "meikyu", "view": "table", "set": "core"})
    assert "<table" in table.text and re.search(r'<tr data-card-id="meikyu/', table.text)
    assert ids_in(table.text) == search_ids(database, "t:land set:core", "meikyu")
    # unknown land points show as ?
    assert "pts" in table.text and "? pts" in table.text


def test_bad_query_names_the_term_and_keeps_the_last_results(web: TestClient, database: Database) -> None:
    page = web.get("/cards", params={"q": "goblin cots:3", "last": "goblin"})
    assert page.status_code == 400
    assert 'id="query-error"' in page.text
    assert '<mark class="term">cots</mark>' in page.text
    assert "did you mean" in html.unescape(page.text)
    assert ids_in(page.text) == search_ids(database, "goblin") and ids_in(page.text)
    fragment = web.get("/cards", params={"q": "(t:monster", "fragment": "1"})
    assert fragment.status_code == 400 and 'id="query-error"' in fragment.text
    assert "<html" not in fragment.text
    good = web.get("/cards", params={"q": "goblin", "fragment": "1"})
    assert good.status_code == 200 and 'id="query-error"' not in good.text
    assert ids_in(good.text) == search_ids(database, "goblin")


def test_the_gallery_refuses_an_order_its_query_contradicts(web: TestClient) -> None:
    page = web.get("/cards", params={"q": "goblin order:cost", "order": "atk"})
    assert page.status_code == 400 and 'id="query-error"' in page.text
    assert "order=atk" in html.unescape(page.text) and "order:cost" in html.unescape(page.text)
    assert web.get("/cards", params={"q": "goblin order:cost", "order": "cost"}).status_code == 200


ESC = "bad\x1b[31mred\u202e"
"""A value with a raw ESC (a terminal's colour) and a right-to-left override: both print nothing."""


def refusal_of(text: str, region: str) -> str:
    """The element of a page whose id is ``region`` (its text, as the page has it)."""
    found = re.search(rf'<(div|p) id="{region}"[^>]*>.*?</\1>', text, re.S)
    assert found, text[:500]
    return found.group(0)


def test_a_refused_query_shows_its_control_characters_as_escapes(web: TestClient) -> None:
    """The search page's refusal marks the bad term in the query: it showed the raw ESC (the message
    beside it already wrote it ``\\x1b``, as ``quoted`` does); both now write it so."""
    page = web.get("/cards", params={"q": f"goblin t:{ESC}"})
    assert page.status_code == 400
    refusal = refusal_of(page.text, "query-error")
    assert "\x1b" not in refusal and "\u202e" not in refusal, refusal
    assert "&#39;t:bad\\x1b[31mred\\u202e&#39;: unknown card type" in refusal  # the message, by quoted
    assert '<code>goblin <mark class="term">t:bad\\x1b[31mred\\u202e</mark></code>' in refusal


def test_an_uploaded_deck_files_name_is_shown_with_its_control_characters_as_escapes(web: TestClient) -> None:
    """A deck file named with a raw ESC: the refusal named it bare ("Nothing was stored from bad␛[31m…")."""
    for data in (b"2 No Such Card\n", b"x" * 1_000_001):
        page = web.post(
            "/decks/import", data={"game": "mea", "name": "Up"}, files={"file": (f"{ESC}.txt", data, "text/plain")}
        )
        assert page.status_code in (400, 413) and "\x1b" not in page.text and "\u202e" not in page.text
        said = html.unescape(page.text)
        assert "'bad\\x1b[31mred\\u202e.txt'" in said, page.text[:800]


@pytest.mark.parametrize("page", ["0", "x", "10001", "²"])
def test_bad_page_is_one_line_error(web: TestClient, page: str) -> None:
    response = web.get("/cards", params={"page": page})
    assert response.status_code == 400
    assert "page must be a whole number" in one_line_error(response)


def test_bad_game_is_one_line_error(web: TestClient) -> None:
    response = web.get("/cards", params={"game": "chess"})
    assert response.status_code == 400 and "unknown game 'chess'" in one_line_error(response)


# --- one card ----------------------------------------------------------------------------------


def test_card_page_shows_every_field_unknown_and_not_applicable(web: TestClient) -> None:
    land = web.get("/cards/meikyu/core/altar-of-the-nightingale").text
    assert re.search(r'data-field="points"><th[^>]*>points</th><td><span class="unknown"[^>]*>\? \(unknown\)', land)
    assert re.search(r'data-field="level"><th[^>]*>level</th><td>5</td>', land)
    assert "Hospital" in land and 'id="provenance"' in land and "rulebook" in land
    amulet = web.get("/cards/meikyu/core/amulet").text
    assert re.search(r'data-field="level"><th[^>]*>level</th><td><span class="na"', amulet)
    assert re.search(r'data-field="copies"><th[^>]*>copies</th><td><span class="unknown"', amulet)
    squire = web.get("/cards/mea/demo/naive-squire").text
    assert "demo card made for cardbase, not a published card" in squire
    assert 'id="abilities"' in squire and "When summoned: Draw 1 card." in squire
    assert 'id="card-image"' in squire


def test_unknown_card_page_is_404(web: TestClient) -> None:
    response = web.get("/cards/mea/demo/no-such-card")
    assert response.status_code == 404 and "no-such-card" in one_line_error(response)


def test_add_to_deck_from_card_page(web: TestClient, database: Database) -> None:
    from cardbase.decks.store import load_deck

    deck = make_deck(web)
    page = web.get("/cards/mea/demo/crumb-goblin").text
    assert 'id="add-to-deck"' in page and f'<option value="{deck}">' in page
    response = web.post(
        "/decks/add", data={"deck": str(deck), "card": "mea/demo/crumb-goblin", "op": "add"}, follow_redirects=False
    )
    assert response.status_code == 303 and response.headers["location"] == f"/decks/{deck}"
    assert [(c.card_id, c.count) for c in load_deck(database, deck).cards] == [("mea/demo/crumb-goblin", 1)]


# --- decks -------------------------------------------------------------------------------------


def test_decks_new_rename_duplicate_delete(web: TestClient, database: Database) -> None:
    from cardbase.decks.store import list_decks

    deck = make_deck(web, "Rush")
    add(web, deck, "mea/demo/crumb-goblin", 2)
    listing = web.get("/decks").text
    assert f'data-deck-id="{deck}"' in listing and "Rush" in listing
    assert re.search(r"<td>standard <span class=\"invalid-mark\">✗ not valid</span></td>", listing)
    assert web.post(f"/decks/{deck}/rename", data={"name": "Blitz"}, follow_redirects=False).status_code == 303
    copy = web.post(f"/decks/{deck}/duplicate", data={}, follow_redirects=False)
    assert copy.status_code == 303
    names = sorted(d["name"] for d in list_decks(database))
    assert names == ["Blitz", "Blitz (copy)"]
    taken = web.post(f"/decks/{deck}/rename", data={"name": "Blitz (copy)"})
    assert taken.status_code == 409 and "already exists" in one_line_error(taken)
    confirm = web.get(f"/decks/{deck}/delete")
    assert confirm.status_code == 200 and 'id="confirm-delete"' in confirm.text
    assert web.post(f"/decks/{deck}/delete", follow_redirects=False).status_code == 303
    assert [d["name"] for d in list_decks(database)] == ["Blitz (copy)"]
    assert 'id="flash"' in web.get("/decks?done=deleted+Blitz").text


def test_check_against_a_format_then_keep_it(web: TestClient, database: Database) -> None:
    from cardbase.decks.store import deck_by_id

    deck = make_deck(web, "Hand", "meio", "3")
    viewed = web.get(f"/decks/{deck}?format=hand-3-players")
    assert "for Meio hand-3-players" in viewed.text and "Make hand-3-players this deck’s format" in viewed.text
    assert deck_by_id(database, deck).format is None, "choosing a format to check against only views it"
    kept = web.post(f"/decks/{deck}/format", data={"format": "hand-3-players"}, follow_redirects=False)
    assert kept.status_code == 303 and kept.headers["location"] == f"/decks/{deck}#validation"
    assert deck_by_id(database, deck).format == "hand-3-players"
    page = web.get(f"/decks/{deck}").text
    assert "for Meio hand-3-players" in page and "This deck’s format: hand-3-players." in page
    assert "this deck’s format</button>" not in page
    assert "Meio has no format 'bogus'" in one_line_error(web.post(f"/decks/{deck}/format", data={"format": "bogus"}))
    assert "at most 100 characters" in one_line_error(web.post(f"/decks/{deck}/format", data={"format": "x" * 101}))
    assert deck_by_id(database, deck).format == "hand-3-players"


def test_new_deck_bad_input(web: TestClient) -> None:
    assert web.post("/decks", data={"name": "", "game": "mea"}).status_code == 400
    bad_game = web.post("/decks", data={"name": "X", "game": "chess"})
    assert bad_game.status_code == 400 and "unknown game" in one_line_error(bad_game)
    players = web.post("/decks", data={"name": "X", "game": "meio", "players": "9"})
    assert players.status_code == 400 and "players" in one_line_error(players)


UNKNOWN_DECKS = ["/decks/999", "/decks/abc", "/decks/99999999999999", "/decks/999/export.txt", "/decks/999/delete"]


@pytest.mark.parametrize("url", [*UNKNOWN_DECKS, "/decks/-1"])
def test_unknown_deck_is_404(web: TestClient, url: str) -> None:
    response = web.get(url)
    assert response.status_code == 404 and "no deck" in one_line_error(response)


def test_compare_is_deck_diff(web: TestClient, database: Database) -> None:
    a, b = make_deck(web, "A"), make_deck(web, "B")
    add(web, a, "mea/demo/crumb-goblin", 2)
    add(web, b, "mea/demo/crumb-goblin", 3)
    add(web, b, "mea/demo/puddle-knight", 1)
    page = web.get("/decks/compare", params={"a": a, "b": b})
    assert page.status_code == 200 and 'id="diff"' in page.text
    text = html.unescape(page.text)
    assert "1 added, 0 removed, 1 changed" in text
    assert "Crumb Goblin</a>: 2 → 3" in text and "+1 <a" in text
    assert "cards in the main deck" in text and "monster cards" in text  # the stats by their labels
    assert "by type" not in text and "mana curve." not in text


def test_what_saving_changes_names_stats_by_their_labels(web: TestClient, database: Database) -> None:
    """Edit as text's "What saving changes" names the statistics that move as ``deck diff`` does."""
    deck = make_deck(web, "Labels")
    add(web, deck, "mea/demo/crumb-goblin", 2)
    page = web.post(f"/decks/{deck}/edit", data={"text": "game: mea\n2 Crumb Goblin\n2 Pep Talk\n", "step": "check"})
    shown = html.unescape(page.text.split('id="edit-diff"', 1)[1].split("</section>", 1)[0])
    assert "What saving changes" in shown and "assist cards: 0 → 2" in shown, shown
    assert "by type" not in shown and "mana curve" not in shown, shown


# --- the deck builder --------------------------------------------------------------------------


def test_undo_is_a_versioned_restore_without_javascript_too(web: TestClient, database: Database) -> None:
    """The builder's Undo (``/decks/ID/undo``): the deck made what version ``to`` held, as a new version
    recorded as an undo, only from the version the page showed; without JavaScript, back to the builder."""
    from cardbase.decks.history import history_payload
    from cardbase.decks.store import deck_info, load_deck

    deck = make_deck(web, "Undo me")
    add(web, deck, "mea/demo/crumb-goblin", 2)
    before = deck_info(database, "Undo me").version
    add(web, deck, "mea/demo/puddle-knight")
    stale = web.post(f"/decks/{deck}/undo", data={"to": before, "version": before, "fragment": "1"})
    assert stale.status_code == 412 and "changed elsewhere" in action_error(stale)
    assert sum(c.count for c in load_deck(database, "Undo me").cards) == 3  # nothing written
    for missing in ({"to": before}, {"version": before + 1}, {"to": "x", "version": before + 1}):
        refused = web.post(f"/decks/{deck}/undo", data={**missing, "fragment": "1"})
        assert refused.status_code == 400, (missing, refused.text)
    back = web.post(
        f"/decks/{deck}/undo",
        data={"to": before, "version": before + 1, "back": f"/decks/{deck}?q=goblin"},
        follow_redirects=False,
    )
    assert back.status_code == 303 and back.headers["location"] == f"/decks/{deck}?q=goblin"
    assert [(c.name, c.count) for c in load_deck(database, "Undo me").cards] == [("Crumb Goblin", 2)]
    assert history_payload(database, deck)[-1]["change"] == f"undo to @{before}: −1 Puddle Knight"
    assert deck_info(database, "Undo me").version == before + 2


def test_builder_adds_by_form_and_turns_valid(web: TestClient, database: Database) -> None:
    from cardbase.decks.files import deck_to_text
    from cardbase.decks.service import resolve_text, validate_resolved
    from cardbase.decks.stats import deck_stats
    from cardbase.decks.store import load_deck

    deck = make_deck(web)
    page = web.get(f"/decks/{deck}")
    assert page.status_code == 200
    for hook in ('id="q"', 'id="results"', 'id="validation"', 'id="odds"', 'id="sample-hand"', 'id="deck-count"'):
        assert hook in page.text
    assert re.search(r'class="add" aria-label="Add [^"]+"', page.text)
    back = web.post(
        f"/decks/{deck}/cards",
        data={"card": "mea/demo/crumb-goblin", "op": "add", "back": f"/decks/{deck}?q=goblin"},
        follow_redirects=False,
    )
    assert back.status_code == 303 and back.headers["location"] == f"/decks/{deck}?q=goblin"
    evil = web.post(
        f"/decks/{deck}/cards",
        data={"card": "mea/demo/crumb-goblin", "back": "https://evil.example/"},
        follow_redirects=False,
    )
    assert evil.headers["location"] == f"/decks/{deck}"
    cards = monsters(database, 10)
    for card in cards[:9]:
        add(web, deck, card, 2)
    panels = web.get(f"/decks/{deck}?fragment=panels").text
    assert '<span id="deck-count">20</span>' in panels
    resolved = resolve_text(database, deck_to_text(load_deck(database, deck), "Rush"))
    report, fmt = validate_resolved(resolved)
    codes = re.findall(r'<li class="problem sev-(?:error|warning)" data-code="([^"]+)"', panels)
    assert codes == [p.code for p in report.problems]
    assert report.valid == ('id="validation" class="panel valid"' in panels)
    curve = deck_stats(resolved, fmt)["mana_curve"]
    assert '<svg id="curve"' in panels
    bars = re.findall(r'<rect data-cost="([^"]+)"[^>]*></rect>\s*<text[^>]*class="bar-n">(\d+)</text>', panels)
    assert [c for c, _ in bars if c in curve] == list(curve)  # every bucket of deck stats, in order
    assert all(int(n) == curve.get(c, 0) for c, n in bars)  # a cost between them that no card has is a 0
    # a tile is not a deck card: an error with the card linked
    tile = search_ids(database, "t:tile", "mea", 1)[0]
    add(web, deck, tile)
    panels = web.get(f"/decks/{deck}?fragment=panels").text
    assert 'class="panel invalid"' in panels and 'data-code="card-type"' in panels
    assert re.search(r'data-code="card-type">.*?<a href="/cards/' + re.escape(tile) + '">', panels, re.S)


def test_builder_invalid_deck_lists_every_problem(web: TestClient, database: Database) -> None:
    from cardbase.decks.files import deck_to_text
    from cardbase.decks.service import resolve_text, validate_resolved
    from cardbase.decks.store import load_deck

    deck = make_deck(web)
    add(web, deck, "mea/demo/crumb-goblin", 5)
    add(web, deck, search_ids(database, "t:tile", "mea", 1)[0])
    panels = web.get(f"/decks/{deck}?fragment=panels").text
    report, _ = validate_resolved(resolve_text(database, deck_to_text(load_deck(database, deck), "Rush")))
    assert not report.valid and len(report.problems) >= 2
    assert re.findall(r'data-code="([^"]+)"', panels) == [p.code for p in report.problems]
    assert "✗ not valid" in panels


def test_inc_dec_and_fragment_answers(web: TestClient, database: Database) -> None:
    from cardbase.decks.store import load_deck

    deck = make_deck(web)
    response = add(web, deck, "mea/demo/crumb-goblin", fragment=True)
    assert response.status_code == 200 and response.text.startswith('<div id="panels"')
    for op in ("inc", "inc", "dec"):
        web.post(f"/decks/{deck}/cards", data={"card": "mea/demo/crumb-goblin", "op": op}, follow_redirects=False)
    assert [c.count for c in load_deck(database, deck).cards] == [2]
    web.post(f"/decks/{deck}/cards", data={"card": "mea/demo/crumb-goblin", "op": "set", "count": "0"})
    assert load_deck(database, deck).cards == ()
    bad = web.post(f"/decks/{deck}/cards", data={"card": "mea/demo/crumb-goblin", "op": "set", "count": "1000"})
    assert bad.status_code == 400 and "count must be a whole number from 0 to 999" in action_error(bad)
    assert 'id="deck-count"' in bad.text  # the builder again, not a bare error page


def test_add_honours_the_count_within_the_builders_bound(web: TestClient, database: Database) -> None:
    """``op=add`` with a ``count`` adds that many (one when none is given); a count out of the builder's
    bound is refused at the field, nothing added."""
    from cardbase.decks.store import load_deck

    deck = make_deck(web)
    card = {"card": "mea/demo/crumb-goblin", "op": "add"}
    assert web.post(f"/decks/{deck}/cards", data=card, follow_redirects=False).status_code == 303
    assert web.post(f"/decks/{deck}/cards", data=card | {"count": "5"}, follow_redirects=False).status_code == 303
    assert [c.count for c in load_deck(database, deck).cards] == [6]
    for count in ("1e308", "1000", "0", "-1", "two"):
        bad = web.post(f"/decks/{deck}/cards", data=card | {"count": count})
        assert bad.status_code == 400, bad.text
        assert f"count must be a whole number from 1 to 999, not '{count}'" in action_error(bad)
    web.post(f"/decks/{deck}/cards", data={**card, "op": "dec", "count": "2"})
    assert [c.count for c in load_deck(database, deck).cards] == [4]


def test_card_of_another_game_is_refused_with_the_error(web: TestClient, database: Database) -> None:
    from cardbase.decks.store import load_deck

    deck = make_deck(web)
    live = add(web, deck, "meikyu/core/grimoire", fragment=True)
    assert live.status_code == 400 and "<html" not in live.text
    assert re.fullmatch(r"'Grimoire' is a Meikyu card, not Méa.*", action_error(live))
    plain = add(web, deck, "meikyu/core/grimoire")
    assert plain.status_code == 400 and "is a Meikyu card" in action_error(plain)
    assert load_deck(database, deck).cards == ()
    # the deck's gallery can show every game so that such a card can be found
    page = web.get(f"/decks/{deck}", params={"game": "all", "q": "grimoire"})
    assert ids_in(page.text) == ["meikyu/core/grimoire"]
    assert ids_in(web.get(f"/decks/{deck}", params={"q": "grimoire"}).text) == []


def test_meio_hand_split_sections(web: TestClient, database: Database) -> None:
    deck = make_deck(web, "Hand", "meio")
    page = web.get(f"/decks/{deck}").text
    assert '<select id="section"' in page and ">first half<" in page and ">second half<" in page
    from cardbase.web.pages import SEARCH_HELP

    example = SEARCH_HELP["meio"].example
    assert f'placeholder="{example}"' in html.unescape(page)  # the game's own example query …
    assert search_ids(database, example, "meio"), "… that finds cards"
    cards = search_ids(database, "", "meio", 13)
    for card in cards[:7]:
        add(web, deck, card, section="first half")
    for card in cards[7:]:
        add(web, deck, card, section="second half")
    panels = web.get(f"/decks/{deck}?fragment=panels").text
    assert panels.count('data-section="first half"') == 7 and panels.count('data-section="second half"') == 6
    assert "7 of 7" in panels and "6 of 6" in panels
    from cardbase.decks.service import resolve_stored
    from cardbase.decks.stats import deck_stats

    suits = deck_stats(resolve_stored(database, deck), None)["suits"]
    signs = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    shown = " · ".join(f"{signs[k]}:\u00a0{n}" for k, n in suits.items())
    assert f'<th scope="row">suits</th><td>{shown}</td>' in html.unescape(panels)
    bad = add(web, deck, cards[0], section="third half")
    assert bad.status_code == 400 and "sections" in action_error(bad)


@pytest.mark.parametrize("game", ["", "mea", "meio", "meikyu"])
def test_each_games_search_help_is_queries_that_work(web: TestClient, database: Database, game: str) -> None:
    from cardbase.web.pages import SEARCH_HELP

    help = SEARCH_HELP[game]
    assert search_ids(database, help.example, game or None), help.example
    for query in (*help.terms, f"order:{help.order}"):
        search_ids(database, query, game or None)  # a bad term raises QueryError
    page = html.unescape(web.get("/cards", params={"game": game} if game else {}).text)
    assert f'placeholder="{help.example}"' in page and f"<code>order:{help.order}</code>" in page


def test_meikyu_totals_keep_unknowns_unknown(web: TestClient, database: Database) -> None:
    deck = make_deck(web, "Set", "meikyu")
    for card in search_ids(database, "t:character", "meikyu", 3):
        add(web, deck, card, 2)
    panels = html.unescape(web.get(f"/decks/{deck}?fragment=panels").text)
    assert re.search(r"bravery total</th><td>unknown \(6 unknown\)</td>", panels)
    assert '<svg id="curve"' not in panels


def test_odds_are_the_draws_functions(web: TestClient, database: Database) -> None:
    from cardbase.decks.files import deck_to_text
    from cardbase.decks.service import resolve_text
    from cardbase.decks.store import load_deck
    from cardbase.draws.exact import Kind
    from cardbase.draws.reports import draw_model, needs_report
    from cardbase.draws.service import parse_need, setup
    from cardbase.web.pages import percent

    deck = make_deck(web)
    for card in monsters(database, 10):
        add(web, deck, card, 2)
    needs_text = "2 t:monster cost<=2\nat most 1 t:monster cost>=4"
    panels = web.get(f"/decks/{deck}", params={"fragment": "panels", "needs": needs_text}).text
    resolved = resolve_text(database, deck_to_text(load_deck(database, deck), "Rush"))
    needs = [parse_need("2 t:monster cost<=2", Kind.AT_LEAST), parse_need("1 t:monster cost>=4", Kind.AT_MOST)]
    pile = setup(database, resolved, needs, "Rush")
    rows = needs_report(pile, draw_model(pile, needs, 5, None), None, None, None, 0).rows
    table = panels.split('id="odds-table"', 1)[1].split("</table>", 1)[0]
    shown = re.findall(r"<strong>([^<]+)</strong>", table)
    assert shown == [percent(r["probability"]) for r in rows] and len(shown) == 10
    assert '<svg id="odds-chart"' in panels and 'id="odds-turns"' in panels
    bad = web.get(f"/decks/{deck}", params={"fragment": "panels", "needs": "2 cots<=2"})
    assert bad.status_code == 200 and 'id="odds-error"' in bad.text and "cots" in bad.text


def test_sample_hand_is_seeded_and_shareable(web: TestClient, database: Database) -> None:
    deck = make_deck(web)
    for card in monsters(database, 10):
        add(web, deck, card, 2)

    def hand(**params: str) -> list[str]:
        text = web.get(f"/decks/{deck}", params={"fragment": "panels", **params}).text
        block = text.split('<ul id="hand"', 1)[1].split("</ul>", 1)[0]
        return re.findall(r'<span class="hand-name">([^<>]+)</span>', block)

    first = hand(seed="7", hand="6")
    assert len(first) == 6 and hand(seed="7", hand="6") == first
    assert hand(seed="8", hand="6") != first or hand(seed="9", hand="6") != first
    # a draw adds the next card of the same shuffle: the hand of 6 then 2 drawn is the top 8
    drawn = hand(seed="7", hand="6", drawn="2")
    assert drawn[:6] == first and drawn == hand(seed="7", hand="8")
    page = web.get(f"/decks/{deck}?seed=7&hand=6").text
    assert f'href="/decks/{deck}?seed=7&amp;hand=6#sample-hand"' in page
    bad = web.get(f"/decks/{deck}", params={"seed": "-1"})
    assert bad.status_code == 200 and "seed must be a whole number" in html.unescape(bad.text)


# --- export, share, import, print --------------------------------------------------------------


def test_export_and_share_link_round_trip(web: TestClient, database: Database) -> None:
    from cardbase.decks.files import write_deck
    from cardbase.decks.store import load_deck

    deck = make_deck(web)
    add(web, deck, "mea/demo/crumb-goblin", 3)
    add(web, deck, "mea/demo/puddle-knight", 1, section="sideboard")
    stored = load_deck(database, deck)
    page = web.get(f"/decks/{deck}").text
    kinds = (("txt", "text"), ("json", "json"), ("code", "code"), ("arena", "arena"), ("mtgo", "mtgo"))
    for kind, fmt in (*kinds, ("plain", "plain"), ("cod", "cod"), ("ydk", "ydk")):
        assert f'href="/decks/{deck}/export.{kind}"' in page, kind  # the deck page links every form
        response = web.get(f"/decks/{deck}/export.{kind}")
        assert response.status_code == 200 and "attachment" in response.headers["content-disposition"]
        assert response.text == write_deck(stored, fmt)
        if fmt not in ("plain", "json"):  # read back whole, sections included (plain has no sections)
            given = {"code": response.text.strip()} if fmt == "code" else {"text": response.text, "game": "mea"}
            again = web.post("/api/decks/import", json={**given, "name": f"back {kind}"})
            assert again.status_code == 201, (kind, again.text[:300])
            assert load_deck(database, again.json()["id"]).cards == stored.cards, kind
    assert web.get(f"/decks/{deck}/export.exe").status_code == 400
    code = write_deck(stored, "code").strip()
    page = web.get(f"/decks/{deck}").text
    assert f'id="share-code" class="code" readonly value="{code}"' in page
    assert f"/decks/new?code={code}" in page
    preview = web.get("/decks/new", params={"code": code})
    assert preview.status_code == 200 and 'id="preview"' in preview.text and "Crumb Goblin" in preview.text
    saved = web.post("/decks/new", data={"code": code, "name": "Shared"}, follow_redirects=False)
    assert saved.status_code == 303
    copy = int(saved.headers["location"].rsplit("/", 1)[1])
    assert load_deck(database, copy).cards == stored.cards


LONG_NAME = "勇者の山札" * 40
DOWNLOAD_NAMES = {
    "Crème Brûlée": ("creme-brulee", "creme-brulee"),
    "Straße Ærø": ("strasse-ærø", "strasse-aero"),
    "Dragon 勇者": ("dragon-勇者", "dragon"),
    "勇者の山札": ("勇者の山札", "download"),
    "Δράκος Φωτιάς": ("δράκοσ-φωτιάσ", "download"),
    LONG_NAME: ("", ""),  # cut to 200 bytes with a hash (file_slug): below
}
"""Deck names → the base of their downloads' names: in UTF-8 (``filename*``) and in ASCII (``filename``)."""


def names_of(disposition: str) -> tuple[str, str]:
    """The ``filename*`` (UTF-8, decoded) and the ``filename`` (ASCII) of an RFC 6266 attachment."""
    from urllib.parse import unquote

    assert disposition.isascii() and disposition.startswith("attachment;"), disposition
    star = re.fullmatch(r'attachment; filename="([^"\\]+)"; filename\*=UTF-8\'\'([^;\s"]+)', disposition)
    assert star, disposition
    return unquote(star.group(2), encoding="utf-8", errors="strict"), star.group(1)


@pytest.mark.parametrize("name", list(DOWNLOAD_NAMES), ids=range(len(DOWNLOAD_NAMES)))
def test_a_decks_downloads_have_one_name_in_utf8_and_ascii_on_both_routes(web: TestClient, name: str) -> None:
    """The plain ``filename=`` and the UTF-8 ``filename*=`` name the same file: one base and the whole
    ending (``.plain.txt`` was ``_plain.txt`` in the ASCII name, ``plain.txt`` for a Japanese name,
    ``-.txt`` for a Greek one), on the API's export and the page's, and on both PDF routes."""
    from cardbase.decks.files import EXPORT_FILES
    from cardbase.names import file_slug

    utf8, ascii_base = DOWNLOAD_NAMES[name]
    if name == LONG_NAME:
        utf8 = file_slug(name)
        assert len(utf8.encode()) <= 200 and utf8 != name
        ascii_base = utf8.rsplit("-", 1)[1]  # the hash's hex digits: all of the base ASCII can spell
    deck = web.post("/api/decks", json={"game": "mea", "name": name}).json()["id"]
    assert web.post(f"/api/decks/{deck}/cards", json={"card": "mea/demo/crumb-goblin"}).status_code == 200
    pages = {"text": "txt"}  # the page's ending for each export form: its name elsewhere
    for fmt, (ending, _media) in EXPORT_FILES.items():
        api = web.get(f"/api/decks/{deck}/export", params={"format": fmt})
        page = web.get(f"/decks/{deck}/export.{pages.get(fmt, fmt)}")
        assert api.status_code == page.status_code == 200, (fmt, api.text[:200], page.text[:200])
        header = api.headers["content-disposition"]
        assert page.headers["content-disposition"] == header, fmt
        assert names_of(header) == (f"{utf8}.{ending}", f"{ascii_base}.{ending}"), fmt
    api_pdf, page_pdf = web.get(f"/api/decks/{deck}/pdf"), web.get(f"/decks/{deck}/print.pdf")
    assert api_pdf.status_code == page_pdf.status_code == 200
    assert api_pdf.headers["content-disposition"] == page_pdf.headers["content-disposition"]
    assert names_of(page_pdf.headers["content-disposition"]) == (f"{utf8}.pdf", f"{ascii_base}.pdf")
    for bad in ("AAAAAAAAAAAA", "hello world", "3 Crumb Goblin", "{}", "é" * 50):
        broken = web.get("/decks/new", params={"code": bad})
        assert broken.status_code == 400 and 'id="import-problems"' in broken.text, bad
        assert web.post("/decks/new", data={"code": bad, "name": "X"}).status_code == 400, bad


def test_demo_cards_are_labelled_in_the_deck_the_hand_and_the_shared_deck(web: TestClient, database: Database) -> None:
    from cardbase.decks.files import write_deck
    from cardbase.decks.store import load_deck

    deck = make_deck(web, "Labels")
    add(web, deck, "mea/demo/crumb-goblin", 3)
    add(web, deck, "mea/core/selounticia", 1)  # a card the rulebook shows: not demo
    badge = '<span class="badge demo"'

    def labelled(page: str, item: str) -> dict[str, bool]:
        """Each list item of ``item`` (a regex of its opening tag up to the card id) → has a demo badge."""
        return {m.group(1): badge in m.group(2) for m in re.finditer(item + r'([^"]+)"[^>]*>(.*?)</li>', page, re.S)}

    page = web.get(f"/decks/{deck}?hand=4&seed=1").text
    assert labelled(page, r'<li data-card-id="') == {"mea/demo/crumb-goblin": True, "mea/core/selounticia": False}
    hand = re.search(r'<ul id="hand" class="hand-faces">(.*?)</ul>', page, re.S)
    assert hand, page[:300]
    drawn = labelled(hand.group(1), r'<li class="opening" data-card-id="')
    assert drawn and all(shown == (card.startswith("mea/demo/")) for card, shown in drawn.items()), drawn
    code = write_deck(load_deck(database, deck), "code").strip()
    shared = web.get("/decks/new", params={"code": code}).text
    assert labelled(shared, r'<li data-card-id="') == {"mea/demo/crumb-goblin": True, "mea/core/selounticia": False}


def test_import_text_all_or_nothing(web: TestClient, database: Database) -> None:
    from cardbase.decks.store import list_decks, load_deck

    bad = web.post("/decks/import", data={"text": "game: mea\n3 Crumb Goblin\n2 Crumb Goblni\n1 Nobody Atall\n"})
    assert bad.status_code == 400
    problems = re.findall(r"<li[^>]*>(.*?)</li>", bad.text.split('id="import-problems"', 1)[1].split("</div>", 1)[0])
    assert len(problems) == 2 and "line 3" in problems[0] and "line 4" in problems[1]
    assert list_decks(database) == []
    good = web.post("/decks/import", data={"text": "game: mea\nname: Gobbos\n3 Crumb Goblin\n"}, follow_redirects=False)
    assert good.status_code == 303
    deck = int(good.headers["location"].rsplit("/", 1)[1])
    assert load_deck(database, deck).name == "Gobbos"
    upload = web.post(
        "/decks/import",
        data={"name": "Uploaded"},
        files={"file": ("deck.json", b'{"game": "mea", "cards": [{"count": 2, "name": "Puddle Knight"}]}')},
        follow_redirects=False,
    )
    assert upload.status_code == 303
    assert sorted(d["name"] for d in list_decks(database)) == ["Gobbos", "Uploaded"]
    huge = web.post("/decks/import", files={"file": ("big.txt", b"1 x\n" * 300_000)})
    assert huge.status_code == 413 and "bytes" in one_line_error(huge)
    over = web.post("/decks/import", files={"file": ("big.txt", b"1 x\n" * 252_000)})  # under the body bound
    assert over.status_code == 400 and "at most 1,000,000 bytes" in one_line_error(over)
    assert sorted(d["name"] for d in list_decks(database)) == ["Gobbos", "Uploaded"]


def test_print_pdf_with_sheet_options(web: TestClient) -> None:
    deck = make_deck(web)
    add(web, deck, "mea/demo/crumb-goblin", 2)
    pdf = web.get(f"/decks/{deck}/print.pdf", params={"paper": "letter", "backs": "true", "bleed": "3mm"})
    assert pdf.status_code == 200 and pdf.headers["content-type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF-")
    bad = web.get(f"/decks/{deck}/print.pdf", params={"paper": "napkin"})
    assert bad.status_code == 400 and "napkin" in one_line_error(bad)
    flag = web.get(f"/decks/{deck}/print.pdf", params={"backs": "maybe"})
    assert flag.status_code == 400 and "backs must be true or false" in one_line_error(flag)


# --- catalog -----------------------------------------------------------------------------------


def test_catalog_status_is_catalog_status(web: TestClient, database: Database) -> None:
    from cardbase.db.queries import catalog_status

    page = web.get("/catalog").text
    with database.session() as session:
        rows = catalog_status(session)
    shown = re.findall(r'<tr data-game="([^"]+)" data-type="([^"]+)">', page)
    assert shown == [(r.game, r.type) for r in rows]
    links = [html.unescape(u) for u in re.findall(r'class="export" href="([^"]+)"', page)]
    assert len(links) == 9
    export = web.get(links[0])
    assert export.status_code == 200 and export.content
    template = web.get("/catalog/template/meikyu.csv")
    assert template.status_code == 200 and "attachment" in template.headers["content-disposition"]
    assert template.text.lower().startswith("name") and "Grimoire" in template.text
    assert 'href="/catalog/template/meikyu.xlsx"' in page
    assert web.get("/catalog/template/meikyu.pdf").status_code == 400


def test_each_unknown_value_of_the_catalog_status_opens_the_cards_that_lack_it(web: TestClient) -> None:
    """An owner with the real cards starts from what is unknown: each count of the status table is a link
    to those very cards (to open and Edit), found by the search the page names."""
    page = web.get("/catalog").text
    row = page.split('<tr data-game="meikyu" data-type="character">', 1)[1].split("</tr>", 1)[0]
    links = {html.unescape(text): html.unescape(url) for url, text in re.findall(r'<a href="([^"]+)">([^<]+)</a>', row)}
    assert set(links) == {"bravery 15/15", "wits 15/15", "copies 15/15"}, row
    found = web.get(links["bravery 15/15"])
    assert found.status_code == 200
    assert links["bravery 15/15"] == "/cards?q=game%3Ameikyu+t%3Acharacter+unknown%3Abravery"
    assert ">15 cards<" in found.text.replace("\n", ""), found.text[:300]


def test_catalog_upload_dry_run_lists_bad_rows_and_writes_nothing(web: TestClient, database: Database) -> None:
    from cardbase.db.queries import card_count

    with database.session() as session:
        before = card_count(session)
    sheet = (
        b"name,type,cost,attack,defence\nFresh Newt,monster,1,1,1\nBad Newt,monster,lots,1,1\nWorse Newt,dragon,1,1,1\n"
    )
    response = web.post("/catalog/import", data={"game": "mea"}, files={"sheet": ("newts.csv", sheet)})
    assert response.status_code == 400
    rows = re.findall(r"<li>(.*?)</li>", response.text.split('id="bad-rows"', 1)[1].split("</ul>", 1)[0])
    assert len(rows) == 2 and "row 3" in rows[0] and "row 4" in rows[1]
    assert "cardbase-upload-" not in response.text and "newts.csv" in response.text
    with database.session() as session:
        assert card_count(session) == before
    good = b"name,type,cost,attack,defence\nFresh Newt,monster,1,1,1\n"
    dry = web.post("/catalog/import", data={"game": "mea"}, files={"sheet": ("newts.csv", good)})
    assert dry.status_code == 200 and 'id="confirm-import"' in dry.text and "would insert 1" in dry.text
    with database.session() as session:
        assert card_count(session) == before
    payload = re.search(r'name="payload" value="([^"]+)"', dry.text)
    assert payload
    done = web.post(
        "/catalog/import", data={"game": "mea", "payload": payload.group(1), "filename": "newts.csv", "confirm": "1"}
    )
    assert done.status_code == 200 and "imported" in done.text
    with database.session() as session:
        assert card_count(session) == before + 1
    assert web.post("/catalog/import", data={"game": "mea"}).status_code == 400
    wrong = web.post("/catalog/import", data={"game": "mea"}, files={"sheet": ("cards.exe", b"x")})
    assert wrong.status_code == 400 and ".csv, .xlsx or .json" in one_line_error(wrong)


def test_imported_markup_is_text_everywhere(web: TestClient, database: Database) -> None:
    sheet = f"name,type,cost,attack,defence,text\n{XSS},monster,1,1,1,{XSS}\n".encode()
    dry = web.post("/catalog/import", data={"game": "mea"}, files={"sheet": ("x.csv", sheet)})
    assert dry.status_code == 200, dry.text
    payload = re.search(r'name="payload" value="([^"]+)"', dry.text)
    assert payload
    confirm = {"game": "mea", "payload": payload.group(1), "filename": "x.csv", "confirm": "1"}
    done = web.post("/catalog/import", data=confirm)
    assert done.status_code == 200
    card = search_ids(database, "onerror", "mea")
    assert len(card) == 1
    deck = make_deck(web, XSS)
    add(web, deck, card[0], 5)
    pages = [
        web.get("/cards", params={"q": "onerror"}).text,
        web.get("/cards", params={"q": "onerror", "view": "table"}).text,
        web.get("/cards/" + card[0]).text,
        web.get(f"/decks/{deck}").text,
        web.get("/decks").text,
        web.get("/").text,
        web.get(f"/decks/{deck}/delete").text,
    ]
    for text in pages:
        assert "<img src=x" not in text
        assert "&lt;img src=x onerror=alert(1)&gt;" in text
    bad_query = web.get("/cards", params={"q": f"{XSS} cots:1"}).text
    assert "<img src=x" not in bad_query


def test_static_assets_are_served(web: TestClient) -> None:
    for asset in ("cardbase.css", "cardbase.js"):
        response = web.get(f"/static/{asset}")
        assert response.status_code == 200 and len(response.text) > 1000


def test_no_external_assets(web: TestClient) -> None:
    page = web.get("/").text
    assert not re.search(r'(src|href)="(https?:)?//', page)  # nothing from another site (no CDN)


def test_format_choice_is_deck_validate_format(web: TestClient, database: Database) -> None:
    from cardbase.decks.formats import format_names
    from cardbase.decks.service import resolve_stored, validate_resolved

    deck = make_deck(web, "Hand", "meio", players="3")
    cards = search_ids(database, "", "meio", 13)
    for card in cards:
        add(web, deck, card)
    names = format_names("meio")
    page = web.get(f"/decks/{deck}").text
    assert all(f'<option value="{n}"' in page for n in names)
    for name in names:
        panels = web.get(f"/decks/{deck}", params={"fragment": "panels", "format": name}).text
        report, _ = validate_resolved(resolve_stored(database, deck), name)
        assert re.findall(r'data-code="([^"]+)"', panels) == [p.code for p in report.problems]
        assert f"for Meio {report.format}</span>" in panels
    bad = web.get(f"/decks/{deck}", params={"format": "chess"})
    assert bad.status_code == 400 and "Meio has no format 'chess'" in one_line_error(bad)


def test_meio_cards_read_as_players_write_them(web: TestClient) -> None:
    page = web.get("/cards", params={"q": "rank:a", "game": "meio"}).text
    assert re.search(r'class="card-meta">playing card · AH', page)


def test_catalog_upload_of_the_template_with_one_bad_row(web: TestClient, database: Database) -> None:
    import io

    from openpyxl import load_workbook

    from cardbase.db.io import card_records

    template = web.get("/catalog/template/meikyu.xlsx")
    assert template.status_code == 200
    book = load_workbook(io.BytesIO(template.content))
    sheet = book.active
    assert sheet is not None
    header = [c.value for c in sheet[1]]
    bravery = header.index("bravery") + 1
    rows = [r for r in range(3, sheet.max_row + 1) if sheet.cell(r, header.index("type") + 1).value == "character"]
    sheet.cell(rows[0], bravery).value = "brave"  # not a number
    sheet.cell(rows[1], bravery).value = 3
    out = io.BytesIO()
    book.save(out)
    before = card_records(database, "meikyu")
    response = web.post("/catalog/import", data={"game": "meikyu"}, files={"sheet": ("meikyu.xlsx", out.getvalue())})
    assert response.status_code == 400
    bad = re.findall(r"<li>(.*?)</li>", response.text.split('id="bad-rows"', 1)[1].split("</ul>", 1)[0])
    assert len(bad) == 1 and f"row {rows[0]}" in bad[0] and "bravery" in bad[0]
    assert card_records(database, "meikyu") == before
    assert 'id="confirm-import"' not in response.text


def test_odds_of_a_small_deck_stop_where_its_cards_do(web: TestClient, database: Database) -> None:
    deck = make_deck(web)
    for card in monsters(database, 9):
        add(web, deck, card)
    panels = web.get(f"/decks/{deck}", params={"fragment": "panels", "needs": "1 t:monster"}).text
    assert 'id="odds-error"' not in panels
    table = panels.split('id="odds-table"', 1)[1].split("</table>", 1)[0]
    assert re.findall(r'<tr data-seen="(\d+)">', table) == [str(n) for n in range(1, 10)]
    turns = panels.split('id="odds-turns"', 1)[1].split("</table>", 1)[0]
    assert re.findall(r'<tr><th scope="row">(\d+)</th>', turns) == ["1", "2", "3", "4", "5"]  # 5 + 4 draws = 9


def test_builder_offers_add_only_for_cards_the_format_takes(web: TestClient, database: Database) -> None:
    deck = make_deck(web)
    tile = search_ids(database, "t:tile", "mea", 1)[0]
    page = web.get(f"/decks/{deck}", params={"q": "t:tile"}).text
    item = page.split(f'data-card-id="{tile}"', 1)[1].split("</li>", 1)[0]
    why = "Not offered: Blue Tile is a tile; Méa standard decks hold only assist, monster"
    assert why in item and 'class="add"' not in item
    assert "2 of the cards shown are not offered for this deck (Méa standard): each says why." in html.unescape(page)
    live = web.get("/cards", params={"q": "t:tile", "deck": deck, "fragment": "1"}).text
    assert why in live and 'class="add"' not in live
    offered = web.get(f"/decks/{deck}", params={"q": "t:monster"}).text
    assert 'class="add"' in offered and "Not offered" not in offered and "not-offered-note" not in offered
    other = web.get(f"/decks/{deck}", params={"q": "grimoire", "game": "all"}).text
    assert 'aria-label="Add Grimoire"' not in other  # another game's card is not offered either, and says why
    assert "Not offered: a Meikyu card; this is a Méa deck" in other


def test_a_format_that_bans_a_card_or_keeps_to_sets_offers_no_add_for_it(web: TestClient, database: Database) -> None:
    from cardbase.decks.validate import not_offered
    from cardbase.games.formats import Format

    fmt = Format("mea", "house", allowed_sets=frozenset({"core"}), banned=frozenset({"selounticia"}))
    assert not_offered(fmt, "mea", "mea", "Selounticia", "monster", "core") == "Selounticia is banned in house"
    assert not_offered(fmt, "mea", "mea", "Crumb Goblin", "monster", "demo") == (
        "Crumb Goblin is from set 'demo', not allowed in house (core)"
    )
    assert not_offered(fmt, "mea", "mea", "Bramble Bear", "monster", "core") is None
    assert not_offered(None, "mea", "mea", "Blue Tile", "tile", "core") is None  # no format: any card


def test_view_links_follow_the_search(web: TestClient) -> None:
    fragment = web.get("/cards", params={"q": "rank:k", "game": "meio", "fragment": "1"}).text
    table = html.unescape(re.search(r'id="view-table" href="([^"]+)"', fragment).group(1))  # type: ignore[union-attr]
    assert table == "/cards?q=rank:k&game=meio&view=table".replace(":", "%3A")
    rows = web.get(table).text
    assert ids_in(rows) and all(i.startswith("meio/") for i in ids_in(rows))


def test_gallery_and_card_images_are_drawn_by_the_server(web: TestClient) -> None:
    page = web.get("/cards", params={"q": "goblin"}).text
    sources = [html.unescape(s) for s in re.findall(r'<img loading="lazy" src="([^"]+)"', page)]
    assert sources and all(s.startswith("/cards/") and "/image.png?w=" in s for s in sources)
    image = web.get(sources[0])
    assert image.status_code == 200 and image.headers["content-type"] == "image/png"
    card = web.get("/cards/mea/demo/crumb-goblin").text
    big = html.unescape(re.search(r'<img id="card-image" src="([^"]+)"', card).group(1))  # type: ignore[union-attr]
    assert web.get(big).status_code == 200


def test_results_say_how_many_are_in_the_deck_and_lists_sort_by_folded_name(web: TestClient) -> None:
    deck = make_deck(web, "zeta")
    add(web, deck, "mea/demo/crumb-goblin", 3)
    page = web.get(f"/decks/{deck}", params={"q": "goblin"}).text
    item = page.split('data-card-id="mea/demo/crumb-goblin"', 1)[1].split("</li>", 1)[0]
    assert '<span class="in-deck">in deck: 3</span>' in item
    make_deck(web, "Éclair")
    make_deck(web, "alpha")
    names = re.findall(r'<tr data-deck-id="\d+">\s*<td><a href="/decks/\d+">([^<]+)</a>', web.get("/decks").text)
    assert names == ["alpha", "Éclair", "zeta"]


def test_a_server_with_house_formats_offers_checks_and_keeps_them(database: Database) -> None:
    """``serve --formats``: a deck kept in a house format (by the CLI) opens in the builder checked against
    it; the format is offered, kept and checked by the pages and the API. Without the file the same deck
    says its format is unknown, and how to make it known."""
    from cardbase.decks.formats import load_house_formats
    from cardbase.decks.store import deck_by_id, new_deck
    from tests.conftest import REPO

    house = load_house_formats(REPO / "examples/formats/house.toml")
    deck = new_deck(database, "Single", "mea", "highlander", house=house)
    plain = ServerSettings(database=database)
    with TestClient(create_app(plain), base_url=plain.base_url, raise_server_exceptions=False) as bare:
        text = html.unescape(bare.get(f"/decks/{deck}").text)
        assert "Méa has no format 'highlander'" in text and "the server is started with its formats file" in text
        assert '<option value="highlander"' not in text
        assert bare.get(f"/api/decks/{deck}/validation").json()["format"] is None  # unknown: null, not ""
    settings = ServerSettings(database=database, house=house)
    with TestClient(create_app(settings), base_url=settings.base_url, raise_server_exceptions=False) as web:
        add(web, deck, "mea/demo/crumb-goblin", 2)
        page = html.unescape(web.get(f"/decks/{deck}").text)
        assert "has no format" not in page and "This deck’s format: highlander." in page
        assert '<option value="no-big-ducks"' in page and '<option value="named-cards"' not in page  # Méa's only
        report = web.get(f"/api/decks/{deck}/validation").json()
        assert report["format"] == "highlander" and not report["valid"]
        assert "copy-limit" in {p["code"] for p in report["problems"]}, report["problems"]
        listed = html.unescape(web.get("/decks").text)
        assert "highlander" in listed
        kept = web.post(f"/decks/{deck}/format", data={"format": "no-big-ducks"}, follow_redirects=False)
        assert kept.status_code == 303 and deck_by_id(database, deck).format == "no-big-ducks"
        wider = web.get(f"/api/decks/{deck}/validation").json()  # 2 copies: within its limit of 3
        assert wider["format"] == "no-big-ducks" and "copy-limit" not in {p["code"] for p in wider["problems"]}
        patched = web.patch(f"/api/decks/{deck}", json={"format": "highlander"})
        assert patched.status_code == 200 and patched.json()["format"] == "highlander"
        assert web.get(f"/api/decks/{deck}/stats").status_code == 200
        made = web.post("/api/decks", json={"game": "mea", "name": "Another", "format": "highlander"})
        assert made.status_code == 201 and made.json()["format"] == "highlander"
        refused = web.patch(f"/api/decks/{deck}", json={"format": "named-cards"})  # a Meikyu house format
        assert refused.status_code == 400 and "mea has no format 'named-cards'" in refused.json()["error"]["message"]


def test_builder_stats_show_an_average_over_unknown_values_as_unknown(web: TestClient) -> None:
    """Selounticia's attack and defence are unknown (the rulebook does not give them): the panel's
    averages say unknown, with the mean of the known values beside it, never a bare number."""
    deck = make_deck(web)
    add(web, deck, "mea/demo/crumb-goblin", 3)
    add(web, deck, "mea/core/selounticia")
    panels = html.unescape(web.get(f"/decks/{deck}?fragment=panels").text)
    row = re.search(r"<th[^>]*>average attack</th>\s*<td[^>]*>([^<]*)</td>", panels)
    assert row, panels
    assert row.group(1) == "unknown (1 over the 3 known, 1 unknown)"


def test_a_bad_query_with_no_good_one_before_says_what_the_cards_shown_are(web: TestClient) -> None:
    """Opened from a link (or the form without JavaScript), a bad query has no last good query to
    keep: the page shows every card and must say so, not list them under the error as if they were
    its results."""
    page = html.unescape(web.get("/cards", params={"q": "t:monster frob:3"}).text)
    assert "That query does not work:" in page
    assert "Showing every card: no query has worked yet." in page
    kept = html.unescape(web.get("/cards", params={"q": "t:monster frob:3", "last": "t:monster"}).text)
    assert "Showing the results of the last good query" in kept and "Showing every card" not in kept


def test_an_empty_deck_is_not_said_to_be_owned(web: TestClient, database: Database) -> None:
    """With cards in the collection, a deck with no cards yet is not "✓ you own every card"."""
    from cardbase.db.collection import change_owned
    from cardbase.db.queries import find_card

    with database.session() as session:
        goblin = find_card(session, "Crumb Goblin", "mea")
    change_owned(database, goblin, 2, "set")
    deck = make_deck(web)
    panels = html.unescape(web.get(f"/decks/{deck}?fragment=panels").text)
    heading = re.search(r'<h2 id="owned-h">([^<]*)</h2>', panels)
    assert heading is not None and heading.group(1) == "Collection: no cards in the deck yet"
    add(web, deck, "mea/demo/crumb-goblin")
    panels = html.unescape(web.get(f"/decks/{deck}?fragment=panels").text)
    assert '<h2 id="owned-h">Collection: ✓ you own every card</h2>' in panels


def test_the_home_page_leads_to_the_game_tables_and_the_replay(client) -> None:
    """A new player opening the app found only search and decks on its first page: the tables and the
    replay were in the menu alone."""
    page = client.get("/").text
    for game in ("mea", "meio", "meikyu"):
        assert f'href="/play?game={game}"' in page
    assert 'href="/replay"' in page.split("<main", 1)[1]
