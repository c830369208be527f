"""Deck problems as the web words them for players: the game's display name (Méa, not mea), the
sentence and the line, a hint in web terms (a link to the card search, not a `cardbase` command);
the problem's code only as a data attribute, and beside the words in the API's JSON."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from cardbase.db.engine import Database
from cardbase.web.app import create_app
from cardbase.web.settings import ServerSettings


@pytest.fixture
def web(database: Database) -> Iterator[TestClient]:
    settings = ServerSettings(database=database)
    with TestClient(create_app(settings), base_url=settings.base_url, raise_server_exceptions=False) as client:
        yield client


def block(page: str, marker: str) -> str:
    """The HTML of the element with ``id="marker"`` up to its closing ``</div>`` (the problems list)."""
    return page.split(f'id="{marker}"', 1)[1].split("</div>", 1)[0]


def words(fragment: str) -> str:
    """The text a reader sees of an HTML fragment (tags dropped, entities read)."""
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def assert_for_players(fragment: str) -> None:
    seen = words(fragment)
    assert "unknown-card" not in seen and "cardbase " not in seen and "`" not in seen, seen
    assert "no Méa card named 'Nobody Atall'" in seen and "no mea card" not in seen, seen
    assert "line 3" in seen.lower(), seen
    assert 'data-code="unknown-card"' in fragment, fragment
    assert re.search(r'<a [^>]*href="/cards\?[^"]*q=Nobody', fragment), fragment


def test_import_paste_words_problems_for_players(web: TestClient) -> None:
    bad = web.post("/decks/import", data={"text": "game: mea\n3 Crumb Goblin\n1 Nobody Atall\n"})
    assert bad.status_code == 400
    assert_for_players(block(bad.text, "import-problems"))


def test_import_upload_words_problems_for_players(web: TestClient) -> None:
    data = b"game: mea\n3 Crumb Goblin\n1 Nobody Atall\n"
    bad = web.post("/decks/import", files={"file": ("deck.txt", data, "text/plain")})
    assert bad.status_code == 400
    assert_for_players(block(bad.text, "import-problems"))


def test_edit_as_text_refusal_words_problems_for_players(web: TestClient) -> None:
    deck = web.post("/api/decks", json={"game": "mea", "name": "Rush"}).json()["id"]
    bad = web.post(f"/decks/{deck}/edit", data={"text": "name: Rush\n3 Crumb Goblin\n1 Nobody Atall\n"})
    assert bad.status_code == 400
    assert_for_players(block(bad.text, "edit-problems"))


def test_no_game_hint_speaks_of_the_page_not_the_option(web: TestClient) -> None:
    bad = web.post("/decks/import", data={"text": "1 Nobody Atall\n"})
    seen = words(block(bad.text, "import-problems"))
    assert "cannot tell which game" in seen and "--game" not in seen, seen


def test_validation_panel_names_the_game_by_its_display_name(web: TestClient) -> None:
    deck = web.post("/api/decks", json={"game": "mea", "name": "Rush", "format": "standard"}).json()["id"]
    page = web.get(f"/decks/{deck}").text
    panel = page.split('id="validation"', 1)[1]
    seen = words(panel.split("</ul>", 1)[0])
    assert "Méa standard needs" in seen and "mea standard" not in seen, seen


def test_api_import_refusal_keeps_codes_and_adds_words(web: TestClient) -> None:
    bad = web.post("/api/decks/import", json={"text": "game: mea\n3 Crumb Goblin\n1 Nobody Atall\n"})
    assert bad.status_code == 400
    error = bad.json()["error"]
    assert error["problems"] == [
        "line 3: unknown-card: no mea card named 'Nobody Atall' (check the spelling with `cardbase cards search`)"
    ]
    (found,) = error["details"]
    assert found["code"] == "unknown-card" and found["line"] == 3 and found["game"] == "mea"
    assert found["text"] == "no Méa card named 'Nobody Atall'"
    assert "cardbase" not in found["tip"]


def test_api_validate_adds_words_for_players(web: TestClient) -> None:
    deck = web.post("/api/decks", json={"game": "mea", "name": "Rush", "format": "standard"}).json()["id"]
    report = web.get(f"/api/decks/{deck}/validation").json()
    (size,) = [p for p in report["problems"] if p["code"] == "deck-size"]
    assert "mea standard needs" in size["message"] and "Méa standard needs" in size["text"]


def test_collection_import_of_a_deck_list_names_the_games_for_players(web: TestClient) -> None:
    form = {"game": "mea", "mode": "add", "text": "game: meio\n3 Crumb Goblin\n", "action": "preview"}
    bad = web.post("/collection/import", data=form)
    assert bad.status_code == 400
    listed = bad.text.split('id="bad-lines"', 1)[1].split("</ul>", 1)[0]
    seen = words(listed)
    assert "the list is for Meio (its game: line), not Méa" in seen and "'meio'" not in seen, seen
    assert 'data-code="wrong-game"' in listed


GAME_IDS = re.compile(r"\b(mea|meio|meikyu)\b")


@pytest.mark.parametrize(
    "text",
    [
        "game: mea\nplayers: 3\n[first half]\n1 Crumb Goblin\n1 Grimoire\n1 Nobody Atall\n",
        "game: meikyu\n[main]\n1 Crumb Goblin\n",
        "game: chess\n1 Crumb Goblin\n",
        "1 Nobody Atall\n",
    ],
)
def test_no_problem_speaks_to_players_in_ids_or_commands(web: TestClient, text: str) -> None:
    """The class, not one example: every deck problem the API lists beside its CLI line reads, in
    players' words, without a game's id (but in a line to write, 'game: mea') or a command."""
    bad = web.post("/api/decks/import", json={"text": text})
    assert bad.status_code == 400
    details = bad.json()["error"]["details"]
    assert len(details) == len(bad.json()["error"]["problems"]) >= 1
    for found in details:
        said = found["text"].replace("game: mea", "").replace("(mea)", "").replace("(meio)", "").replace("(meikyu)", "")
        tip = (found["tip"] or "").replace("game: mea (or meio, meikyu)", "").replace("game: mea, meio or meikyu", "")
        assert not GAME_IDS.search(said) and not GAME_IDS.search(tip), found
        assert "cardbase" not in said + tip and "--" not in said + tip and "`" not in tip, found
