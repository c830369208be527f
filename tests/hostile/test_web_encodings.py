"""Class 4 (encodings) on the web: a form body that is not UTF-8 (raw Latin-1 bytes, or a
percent-escape of bytes that are no UTF-8 character, ``%FF``) is one 400 naming the field, and
nothing is stored. Before, the server decoded raw bytes as Latin-1 (``\\xff`` became ``ÿ``) and a
bad escape as U+FFFD, and stored that as the deck's name: a value the user never sent."""

from __future__ import annotations

import html
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from cardbase.db.engine import Database
from cardbase.web.app import create_app
from cardbase.web.settings import ServerSettings

FORM = {"Content-Type": "application/x-www-form-urlencoded"}


@pytest.fixture
def client(database: Database, tmp_path: Path) -> Iterator[tuple[TestClient, int]]:
    settings = ServerSettings(database=database, images=tmp_path / "card_images", lock_wait=2)
    with TestClient(create_app(settings), base_url=settings.base_url, raise_server_exceptions=False) as client:
        deck = client.post("/api/decks", json={"game": "mea", "name": "Target"}).json()["id"]
        yield client, deck


def _names(client: TestClient) -> list[str]:
    return sorted(d["name"] for d in client.get("/api/decks").json())


# (what, path with {deck}, body, the field named)
NOT_UTF8: list[tuple[str, str, bytes, str]] = [
    ("an escape of no character", "/decks/{deck}/rename", b"name=%FF%FEab", "name"),
    ("a lone continuation byte", "/decks/{deck}/rename", b"name=ab%80", "name"),
    ("half a character", "/decks/{deck}/rename", b"name=Cr%C3", "name"),
    ("raw Latin-1 bytes", "/decks/{deck}/rename", b"name=Cr\xe8me", "name"),
    ("in a field's name", "/decks/{deck}/rename", b"na%FFme=x&name=y", "na"),
    ("a pasted deck", "/decks/import", b"name=Imp&text=game%3A+mea%0A1+Cr%E8me+Golem", "text"),
    ("FastAPI's own form", "/replay", b"text=%FF", "text"),
]


@pytest.mark.parametrize(("what", "path", "body", "field"), NOT_UTF8, ids=[n[0] for n in NOT_UTF8])
def test_a_form_that_is_not_utf8_is_400_naming_the_field(
    what: str, path: str, body: bytes, field: str, client: tuple[TestClient, int]
) -> None:
    http, deck = client
    before = _names(http)
    response = http.post(path.replace("{deck}", str(deck)), content=body, headers=FORM)
    assert response.status_code == 400, f"{what}: {response.status_code} {response.text[:300]}"
    text = html.unescape(response.text)
    assert "UTF-8" in text and f"'{field}" in text, f"{what}: {text[:500]}"
    assert _names(http) == before, f"{what}: stored {_names(http)}"


def test_a_utf8_form_is_taken_as_sent(client: tuple[TestClient, int]) -> None:
    http, deck = client
    response = http.post(f"/decks/{deck}/rename", content="name=Crème+%E5%8B%87%E8%80%85".encode(), headers=FORM)
    assert response.status_code < 400, response.text[:300]
    assert _names(http) == ["Crème 勇者"]


def _multipart(name: str, value: bytes) -> bytes:
    return f'--B\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode() + value + b"\r\n--B--\r\n"


MULTIPART = {"Content-Type": "multipart/form-data; boundary=B"}


@pytest.mark.parametrize("value", [b"Cr\xe8me", b"\xff\xfeZ", b"Cr\xc3"], ids=["latin-1", "utf-16 mark", "half"])
def test_a_multipart_field_that_is_not_utf8_is_400_naming_it(value: bytes, client: tuple[TestClient, int]) -> None:
    http, deck = client
    before = _names(http)
    response = http.post(f"/decks/{deck}/rename", content=_multipart("name", value), headers=MULTIPART)
    assert response.status_code == 400, f"{response.status_code} {response.text[:300]}"
    text = html.unescape(response.text)
    assert "UTF-8" in text and "'name'" in text, text[:500]
    assert _names(http) == before


def test_a_multipart_form_that_says_its_charset_is_read_in_it(client: tuple[TestClient, int]) -> None:
    http, deck = client
    headers = {"Content-Type": "multipart/form-data; boundary=B; charset=iso-8859-1"}
    response = http.post(f"/decks/{deck}/rename", content=_multipart("name", b"Cr\xe8me"), headers=headers)
    assert response.status_code < 400, response.text[:300]
    assert _names(http) == ["Crème"]


def test_a_raw_body_is_read_as_sent_whatever_its_content_type(client: tuple[TestClient, int], tmp_path: Path) -> None:
    """``curl --data-binary @game.jsonl`` calls a record a form: the record is not rewritten as one."""
    from cardbase.sim.records import header
    from tests.golden.walks import rules_of

    http, _ = client
    body = (header(rules_of("meio", {"players": 2}), 1, None) + '\n"play Crème"\n').encode()
    answers = [
        http.post("/api/replay", content=body, headers={"Content-Type": kind}).json()
        for kind in ("application/json", "application/x-www-form-urlencoded")
    ]
    assert answers[0] == answers[1] and "Crème" in str(answers[0]), answers


def test_the_raw_body_routes_are_named(client: tuple[TestClient, int]) -> None:
    """Every route that reads the body as it came (``replay.request_body``) is one the Guard leaves be."""
    from cardbase.web import replay
    from cardbase.web.security import RAW_BODY_PATHS
    from tests.web.conftest import api_routes

    raw = set()
    for route in api_routes(client[0].app):
        pending = [route.dependant]
        while pending:
            dependant = pending.pop()
            if dependant.call is replay.request_body:
                raw.add(route.path)
            pending.extend(dependant.dependencies)
    assert raw == RAW_BODY_PATHS
