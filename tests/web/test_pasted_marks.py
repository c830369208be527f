"""A pasted text that starts with a byte order mark (U+FEFF: a script that sends a file it read as
UTF-8 without ``utf-8-sig``, a copy from an editor that keeps it) reads as the same text without it,
as a file with one does: a deck list, deck JSON, a share code, a collection list, a table's Méa deck. It was
read as part of the first line ("no card named '\\ufeff3 Crumb Goblin'"), and deck JSON so marked
as a deck list of one bad line. A mark inside a name is still refused (test_invisible_names)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import error_of
from tests.web.play_helpers import mea_decks

BOM = "\ufeff"
LIST = "3 Crumb Goblin\r\n2 Crumb Goblin\n"
DECK_JSON = json.dumps({"game": "mea", "name": "Marked", "cards": [{"count": 2, "name": "Crumb Goblin"}]})


@pytest.mark.parametrize("text", [LIST, "game: mea\n" + LIST, DECK_JSON], ids=["list", "headed list", "json"])
def test_a_pasted_deck_with_a_mark_imports_as_without(client: TestClient, text: str) -> None:
    plain = client.post("/api/decks/import", json={"text": text, "name": "Plain", "game": "mea"})
    marked = client.post("/api/decks/import", json={"text": BOM + text, "name": "Marked", "game": "mea"})
    assert plain.status_code == 201, plain.text
    assert marked.status_code == 201, marked.text
    assert marked.json()["cards"] == plain.json()["cards"]


def test_a_pasted_collection_list_with_a_mark_reads_as_without(client: TestClient) -> None:
    body: dict[str, Any] = {"text": BOM + LIST, "game": "mea", "dry_run": True}
    response = client.post("/api/collection/import", json=body)
    assert response.status_code == 200, response.text
    assert [(c["name"], c["after"]) for c in response.json()["changes"]] == [("Crumb Goblin", 5)]


def test_the_collection_forms_paste_with_a_mark_reads_as_without(client: TestClient) -> None:
    response = client.post(
        "/collection/import", data={"game": "mea", "text": BOM + LIST, "action": "save"}, follow_redirects=False
    )
    assert response.status_code == 303, response.text
    assert client.get("/api/collection").json()["cards"][0]["count"] == 5


def test_a_tables_pasted_deck_with_a_mark_plays(client: TestClient) -> None:
    decks = [{"text": BOM + d["text"]} for d in mea_decks()]
    response = client.post("/api/games", json={"game": "mea", "players": 2, "decks": decks})
    assert response.status_code == 201, response.text


def test_a_mark_after_the_start_is_still_a_bad_line(client: TestClient) -> None:
    response = client.post(
        "/api/collection/import", json={"text": "1 Crumb Goblin\n" + BOM + "3 Crumb Goblin", "game": "mea"}
    )
    assert response.status_code == 400, response.text
    assert "nothing was written" in error_of(response)
    assert response.json()["error"]["problems"][0].startswith("line 2:")


def test_a_share_code_with_a_mark_imports_as_without(client: TestClient) -> None:
    made = client.post("/api/decks/import", json={"text": LIST, "name": "Shared", "game": "mea"})
    assert made.status_code == 201, made.text
    code = client.get(f"/api/decks/{made.json()['id']}/export", params={"format": "code"}).text.strip()
    response = client.post("/api/decks/import", json={"code": BOM + code, "name": "From code"})
    assert response.status_code == 201, response.text
    assert response.json()["cards"] == made.json()["cards"]
