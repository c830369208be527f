"""A Méa table given a database deck of another game (by its id over the API, ``db:ID`` on the start
form) is refused as a deck of the wrong game, as a pasted or file deck is; it was checked by the
other game's rules and, valid there, played: a 500 ('playing card' is not a valid MeaCardType)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.web.play_helpers import mea_decks

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "decks"


@pytest.fixture
def meio_deck(client: TestClient) -> int:
    text = (EXAMPLES / "meio-3-players.txt").read_text(encoding="utf-8")
    response = client.post("/api/decks/import", json={"text": text, "name": "Three hands"})
    assert response.status_code == 201, response.text
    deck_id: int = response.json()["id"]
    return deck_id


def test_a_valid_deck_of_another_game_is_refused_by_the_api(client: TestClient, meio_deck: int) -> None:
    response = client.post("/api/games", json={"game": "mea", "players": 2, "decks": [mea_decks()[0], meio_deck]})
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["message"].startswith("P2's deck: database deck")
    assert error["problems"] == ["wrong-game: the deck is a meio deck, not mea"]
    assert client.get("/api/games").json() == []


def test_an_empty_deck_of_another_game_is_refused_for_its_game_not_its_size(client: TestClient) -> None:
    made = client.post("/api/decks", json={"game": "meikyu", "name": "Empty"})
    assert made.status_code == 201, made.text
    decks = [made.json()["id"], mea_decks()[1]]
    response = client.post("/api/games", json={"game": "mea", "players": 2, "decks": decks})
    assert response.status_code == 400, response.text
    assert response.json()["error"]["problems"] == ["wrong-game: the deck is a meikyu deck, not mea"]


def test_the_start_form_refuses_it_on_its_page(client: TestClient, meio_deck: int) -> None:
    form = {"game": "mea", "players": "2", "deck0": f"db:{meio_deck}", "deck1": "example:mea-goblin-rush.txt"}
    response = client.post("/play", data=form, follow_redirects=False)
    assert response.status_code == 400, response.text
    assert "the deck is a Meio deck, not Méa" in response.text  # in players' words on the page
    assert "wrong-game:" not in response.text.replace('data-code="wrong-game"', "")
