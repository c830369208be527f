"""A page words a count by it: a deck of one card "holds 1 card", a table of two players says
"2 players" (``counted`` as the templates' filter; "1 cards" before)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.web.conftest import new_deck


def test_a_deck_of_one_card_says_one_card_on_its_pages(client: TestClient) -> None:
    deck = new_deck(client, "Single")
    added = client.post(f"/api/decks/{deck}/cards", json={"name": "Crumb Goblin", "count": 1})
    assert added.status_code == 200, added.text
    confirm = client.get(f"/decks/{deck}/delete")
    assert confirm.status_code == 200 and "holds 1 card." in confirm.text, confirm.text
    added = client.post(f"/api/decks/{deck}/cards", json={"name": "Dizzy Bat", "count": 1})
    assert "holds 2 cards." in client.get(f"/decks/{deck}/delete").text
