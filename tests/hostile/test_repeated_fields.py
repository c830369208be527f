"""Class 3 (web): a field sent twice. A parameter that takes one value, given twice in the address,
the form or a JSON object, is one 400 naming it, and nothing changes (one of the two was taken
silently before); a parameter meant as a list (``need``, ``open``) takes every value, as it did."""

from __future__ import annotations

import html
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from fastapi.testclient import TestClient

from cardbase.db.engine import Database
from cardbase.web.app import create_app
from cardbase.web.settings import ServerSettings
from tests.web.conftest import api_routes

CARD, OTHER = "mea/demo/dizzy-bat", "mea/demo/creme-golem"
FORM = "application/x-www-form-urlencoded"
JSON = "application/json"
ADD = f"op=add&card={CARD}"
CARD_TWICE = f'{{"card": "{CARD}", "card": "{OTHER}"}}'.encode()


@pytest.fixture
def client(database: Database, tmp_path: Path) -> Iterator[tuple[TestClient, int]]:
    """A loopback server's client, and a deck holding one copy of CARD."""
    settings = ServerSettings(database=database, images=tmp_path / "card_images", lock_wait=2)
    with TestClient(create_app(settings), base_url=settings.base_url, raise_server_exceptions=False) as client:
        deck = client.post("/api/decks", json={"game": "mea", "name": "Target"}).json()["id"]
        assert client.post(f"/api/decks/{deck}/cards", json={"card": CARD}).status_code == 200
        yield client, deck


def _deck(client: TestClient, deck: int) -> Any:
    return client.get(f"/api/decks/{deck}").json()


# (what, method, path with {deck}, body, content type, the field the answer must name)
TWICE: list[tuple[str, str, str, bytes | None, str | None, str]] = [
    ("query: a search's q", "GET", "/api/cards?q=t:monster&q=t:spell", None, None, "q"),
    ("query: a page's game", "GET", "/cards?game=mea&game=meio", None, None, "game"),
    ("query: the odds' cards", "GET", "/api/decks/{deck}/draws?need=1+t:monster&cards=5&cards=6", None, None, "cards"),
    ("query: an export's format", "GET", "/api/decks/{deck}/export?format=text&format=json", None, None, "format"),
    ("query: a diff's deck", "GET", "/api/decks/diff?a={deck}&b={deck}&a=1", None, None, "a"),
    ("form: the card changed", "POST", "/decks/{deck}/cards", f"{ADD}&card={OTHER}".encode(), FORM, "card"),
    ("form: the change", "POST", "/decks/{deck}/cards", f"op=add&op=remove&card={CARD}".encode(), FORM, "op"),
    ("form: the version", "POST", "/decks/{deck}/cards", f"{ADD}&version=1&version=9".encode(), FORM, "version"),
    ("form: a rename", "POST", "/decks/{deck}/rename", b"name=A&name=B", FORM, "name"),
    ("form: FastAPI's own form field", "POST", "/replay", b"text=x&text=y", FORM, "text"),
    ("json: the card added", "POST", "/api/decks/{deck}/cards", CARD_TWICE, JSON, "card"),
    ("json: a rename", "PATCH", "/api/decks/{deck}", b'{"name": "A", "name": "B"}', JSON, "name"),
]


@pytest.mark.parametrize(("what", "method", "path", "body", "kind", "field"), TWICE, ids=[t[0] for t in TWICE])
def test_a_field_sent_twice_is_400_naming_it(
    what: str, method: str, path: str, body: bytes | None, kind: str | None, field: str, client: tuple[TestClient, int]
) -> None:
    http, deck = client
    before = _deck(http, deck)
    headers = {"Content-Type": kind} if kind else {}
    response = http.request(method, path.replace("{deck}", str(deck)), content=body, headers=headers)
    assert response.status_code == 400, f"{what}: {response.status_code} {response.text[:300]}"
    text = html.unescape(response.text)
    assert f"'{field}' is given" in text or f"'{field}' is given twice" in text, f"{what}: {text[:300]}"
    assert _deck(http, deck) == before, f"{what}: the deck changed"


def test_a_multipart_field_sent_twice_is_400_naming_it(client: tuple[TestClient, int]) -> None:
    http, _ = client
    files = [("file", ("cards.csv", b"name,type\nX,monster\n", "text/csv"))]
    response = http.post("/api/catalog/import", data={"game": ["mea", "meio"], "dry_run": "true"}, files=files)
    assert response.status_code == 400 and "game" in response.json()["error"]["message"], response.text


def test_a_file_sent_twice_is_400(client: tuple[TestClient, int]) -> None:
    http, _ = client
    files = [("file", ("a.csv", b"name,type\n", "text/csv")), ("file", ("b.csv", b"name,type\n", "text/csv"))]
    response = http.post("/api/catalog/import", data={"game": "mea", "dry_run": "true"}, files=files)
    assert response.status_code == 400 and "file" in response.json()["error"]["message"], response.text


LISTS: list[tuple[str, str]] = [
    ("every need counts", "/api/decks/{deck}/draws?need=1+t:monster&need=1+t:monster&at_most=1+t:monster&cards=1"),
    ("every panel opens", "/decks/{deck}?open=odds&open=sample"),
]


def test_new_hand_beside_the_typed_seed_is_a_new_hand(client: tuple[TestClient, int]) -> None:
    """Without the page's script, "New hand" (a button seed=new) comes beside the seed field of its form."""
    http, deck = client
    for query in ("hand=5&seed=12&seed=new", "hand=5&seed=new&seed=12"):
        response = http.get(f"/decks/{deck}?{query}", follow_redirects=False)
        assert response.status_code == 303, f"{query}: {response.status_code} {response.text[:200]}"
        # one seed, a new one: neither the typed 12 nor the word (read as a value: a new seed may begin 12…)
        seeds = parse_qs(urlsplit(response.headers["location"]).query)["seed"]
        assert len(seeds) == 1 and seeds[0].isdigit() and seeds[0] != "12", seeds
    response = http.get(f"/decks/{deck}?hand=5&seed=12&seed=13")
    assert response.status_code == 400 and "'seed' is given more than once" in html.unescape(response.text)


@pytest.mark.parametrize(("what", "path"), LISTS, ids=[t[0] for t in LISTS])
def test_a_list_parameter_takes_every_value(what: str, path: str, client: tuple[TestClient, int]) -> None:
    http, deck = client
    response = http.get(path.replace("{deck}", str(deck)))
    assert response.status_code == 200, f"{what}: {response.status_code} {response.text[:300]}"
    if path.startswith("/api/"):
        assert len(json.dumps(response.json())) > 0


def test_the_list_parameters_named_are_the_routes_lists(client: tuple[TestClient, int]) -> None:
    """Every list-typed parameter of a route is one the check lets repeat (a new one is seen)."""
    from cardbase.web.http import LIST_FIELDS

    http, _ = client
    listed = set()
    for route in api_routes(http.app):
        for param in route.dependant.query_params + route.dependant.body_params:
            if getattr(param.field_info.annotation, "__origin__", None) is list:
                listed.add(param.alias)
    assert listed <= LIST_FIELDS, listed - LIST_FIELDS
