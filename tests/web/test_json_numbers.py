"""The JSON API reads a number as JSON gives it: a whole-number field takes a JSON integer, not a
text (``"1_0"`` was 10, ``" 3"``, ``"+3"`` and ``"3.0"`` were 3), not ``true`` (1) and not a
fraction (``3.0`` was 3). One rule for every body (``cardbase.web.http.JsonBody``, strict): each
case is a 422-free 400 naming the field, and nothing is written."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import api_routes, error_of, new_deck

NOT_INTEGERS: list[Any] = ["1_0", " 3", "+3", "3", "3.0", True, 3.0]

# (route, a body that works but for the field, the whole-number field)
CASES: list[tuple[str, dict[str, Any], str]] = [
    ("/api/decks", {"game": "meio", "name": "N"}, "players"),
    ("/api/decks/{deck}/cards", {"name": "Selounticia"}, "count"),
    ("/api/collection", {"name": "Selounticia"}, "count"),
    ("/api/games", {"game": "meio"}, "players"),
    ("/api/games", {"game": "meio", "seats": [{"agent": "human"}, {"agent": "random"}]}, "seed"),
    (
        "/api/meio/split-advice",
        {"hand": ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS"]},
        "seat",
    ),
]


def test_every_whole_number_field_of_a_json_body_is_strict(client: TestClient) -> None:
    """Every route's JSON body model (and the models inside it) reads strictly, so a new model
    cannot slip back to Pydantic's lax numbers."""
    from pydantic import BaseModel

    from cardbase.web.http import JsonBody

    models: set[type[BaseModel]] = set()
    for route in api_routes(client.app):
        body = route.body_field
        # (FastAPI's own Body_… models hold a multipart upload's fields, not JSON)
        if (
            body is not None
            and isinstance(body.field_info.annotation, type)
            and not body.field_info.annotation.__name__.startswith("Body_")
        ):
            models.add(body.field_info.annotation)
    assert len(models) >= 8
    lax = sorted(m.__name__ for m in models if issubclass(m, BaseModel) and not issubclass(m, JsonBody))
    assert lax == [], f"JSON bodies not on JsonBody: {lax}"


@pytest.mark.parametrize(("route", "body", "field"), CASES, ids=[f"{r} {f}" for r, _, f in CASES])
def test_a_whole_number_field_takes_a_json_integer_only(
    client: TestClient, route: str, body: dict[str, Any], field: str
) -> None:
    deck = new_deck(client, "Numbers")
    url = route.format(deck=deck)
    before = client.get(f"/api/decks/{deck}").json(), client.get("/api/collection").json()
    for value in NOT_INTEGERS:
        response = client.post(url, json={**body, field: value})
        assert response.status_code == 400, (url, field, value, response.status_code, response.text[:300])
        assert field in error_of(response), response.text
    assert (client.get(f"/api/decks/{deck}").json(), client.get("/api/collection").json()) == before
    assert client.post(url, json={**body, field: 3 if field != "seat" else 1}).status_code in (200, 201)


def _int_params(route: Any) -> list[tuple[str, str]]:
    from cardbase.web.http import _whole_number_params

    return list(_whole_number_params(route))


def test_every_whole_number_in_the_address_is_strict(client: TestClient) -> None:
    """Every route's integer query and path parameters (pages and API alike) read ASCII digits only:
    FastAPI's lax integers took ``limit=1_0`` for 10 and ``+3``, `` 3``, ``3.0`` for 3."""
    import re

    checked = 0
    for route in api_routes(client.app):
        params = _int_params(route)
        method = sorted(route.methods)[0]
        for place, name in params:
            for lax in ("1_0", "+3", " 3", "3.0", "٣"):
                path = route.path_format
                for other in re.findall(r"{([^}]+)}", path):
                    value = lax if (place, other) == ("path", name) else ("1" if ("path", other) in params else "x")
                    path = path.replace("{" + other + "}", value.replace(" ", "%20"))
                query = {name: lax} if place == "query" else {}
                response = client.request(method, path, params=query)
                assert response.status_code == 400, (method, path, query, response.status_code, response.text[:200])
                said = error_of(response) if path.startswith("/api/") else response.text  # a page says it in HTML
                assert name in said and "whole number" in said, (path, said[:300])
                if path.startswith("/api/"):  # named as an out-of-range value is (`games=abc` had no field)
                    assert response.json()["error"].get("field") == name, (path, response.text[:300])
                checked += 1
    assert checked >= 5 * 10  # the API's limits, offsets, deck ids, counts … (a route list that shrank fails)
