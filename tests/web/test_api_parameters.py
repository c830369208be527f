"""A query parameter a JSON API route does not read is refused naming it and the route's own: a
misspelt one (``needs`` for ``need``, ``stauts`` for ``status``) was read past, and the answer was
another question's (the opening report instead of the chances asked, every game instead of the
finished ones), as the import routes already refused (``OnlyDeclared``)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import error_of, new_deck


@pytest.mark.parametrize(
    ("address", "said"),
    [
        ("/api/decks/{deck}/draws?needs=1+t:monster", "'needs' is not a parameter of this request (its parameters: "),
        ("/api/games?stauts=over", "'stauts' is not a parameter"),
        ("/api/cards?query=goblin", "'query' is not a parameter"),
        ("/api/collection?gmae=mea", "'gmae' is not a parameter"),
        ("/api/decks/{deck}/validation?fromat=standard", "'fromat' is not a parameter"),
        ("/api/decks/{deck}/pdf?papper=letter", "'papper' is not a parameter"),
    ],
)
def test_a_parameter_the_route_does_not_read_is_refused(client: TestClient, address: str, said: str) -> None:
    deck = new_deck(client)
    client.post(f"/api/decks/{deck}/cards", json={"name": "Crumb Goblin", "count": 4})
    response = client.get(address.format(deck=deck))
    assert response.status_code == 400, response.text
    assert said in error_of(response)


def test_the_routes_own_parameters_are_listed(client: TestClient) -> None:
    response = client.get("/api/games?stauts=over")
    assert error_of(response).endswith("(its parameters: limit, status)")


def test_a_declared_parameter_is_read_and_pages_are_left_alone(client: TestClient) -> None:
    assert client.get("/api/games?status=over&limit=5").status_code == 200
    assert client.get("/api/cards?q=goblin&limit=5").status_code == 200
    deck = new_deck(client)
    client.post(f"/api/decks/{deck}/cards", json={"name": "Crumb Goblin", "count": 4})
    assert client.get(f"/api/decks/{deck}/pdf?paper=letter&bleed=3mm").status_code == 200  # a model's fields
    assert client.get("/cards?q=goblin&utm_source=x").status_code == 200  # a page's address may carry others
