"""A card's values typed over the API (``POST /api/cards``, ``/api/cards/preview``, ``PATCH
/api/cards/…``): a JSON list is a value of the fields that hold lists (tags, aliases, abilities)
only. Given to a text or number field it was joined with '; ' as a spreadsheet's cell is read
("name": ["a", "b"] made the card 'a; b', ["x"] the card 'x'); it is refused naming the field,
nothing written."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

BASE = {"name": "Zed", "type": "monster", "cost": 1, "attack": 1, "defence": 1}


@pytest.mark.parametrize(
    ("field", "value"),
    [("name", ["x"]), ("name", ["Zed", "Zod"]), ("text", ["Draw", "a card"]), ("type", ["monster"]), ("cost", [])],
)
@pytest.mark.parametrize("url", ["/api/cards", "/api/cards/preview"])
def test_a_list_for_a_field_of_one_value_is_refused(client: TestClient, url: str, field: str, value: Any) -> None:
    before = client.get("/api/cards/count").json()
    response = client.post(url, json={"values": {**BASE, field: value}, "game": "mea"})
    assert response.status_code == 400, response.text
    problems = response.json()["error"]["problems"]
    assert problems == [f"column '{field}': one value, not a list"], problems
    assert client.get("/api/cards/count").json() == before


def test_a_list_to_an_existing_cards_field_is_refused(client: TestClient) -> None:
    response = client.patch("/api/cards/mea/demo/crumb-goblin", json={"values": {"name": ["Crumb", "Goblin"]}})
    assert response.status_code == 400, response.text
    assert response.json()["error"]["problems"] == ["column 'name': one value, not a list"]
    assert client.get("/api/cards/mea/demo/crumb-goblin").json()["name"] == "Crumb Goblin"


def test_the_list_fields_take_lists(client: TestClient) -> None:
    values = {**BASE, "tags": ["big", "green"], "aliases": ["Zeddy"]}
    response = client.post("/api/cards", json={"values": values, "game": "mea"})
    assert response.status_code == 201, response.text
    card = client.get(f"/api/cards/{response.json()['id']}").json()
    assert card["tags"] == ["big", "green"] and card["aliases"] == ["Zeddy"]
