"""The choices of a new table that its game does not take, and the list of games by a status it
does not have: refused naming the field, never dropped unseen (a script that sends Méa decks to a
Meio table, or a Meikyu profile to a Méa one, would else play a game it did not ask for, and a
status misspelt would list no game as if there were none)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import error_of
from tests.web.play_helpers import mea_decks

DECKS: list[Any] = [1, 2]


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ({"game": "meio", "players": 2, "decks": DECKS}, "decks: Meio plays without decks"),
        (
            {"game": "meikyu", "players": 2, "assume": "default", "decks": DECKS},
            "decks: Meikyu Kingdom plays without decks",
        ),
        (
            {"game": "meio", "players": 2, "assume": "default"},
            "Invalid value for 'assume': an assumption profile (assume) is for Meikyu Kingdom only, not Meio",
        ),
        (
            {"game": "mea", "players": 2, "decks": mea_decks(), "assume": "default"},
            "assumption profile (assume) is for Meikyu Kingdom only, not Méa",
        ),
    ],
)
def test_a_choice_the_game_does_not_take_is_refused(client: TestClient, body: dict[str, Any], said: str) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code == 400, response.text
    assert said in error_of(response)
    assert client.get("/api/games").json() == []


def test_a_one_count_game_says_its_count_once(client: TestClient) -> None:
    response = client.post("/api/games", json={"game": "mea", "players": 3, "decks": mea_decks()})
    assert response.status_code == 400, response.text
    assert error_of(response) == "Méa is for 2 players, not 3"


@pytest.mark.parametrize("status", ["zzz", "Over", "", " playing"])
def test_games_by_a_status_that_is_none_are_refused(client: TestClient, status: str) -> None:
    response = client.get("/api/games", params={"status": status})
    assert response.status_code == 400, response.text
    message = error_of(response)
    assert "playing, over or abandoned" in message and "status" in message


def test_games_by_each_status_are_listed(client: TestClient) -> None:
    for status in ("playing", "over", "abandoned"):
        response = client.get("/api/games", params={"status": status})
        assert response.status_code == 200 and response.json() == [], response.text
