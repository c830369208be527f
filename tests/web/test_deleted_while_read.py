"""A card deleted between a request's read and its write: a worded 4xx naming the line and the card,
not a foreign-key "database error" (503). The interleaving is forced as in
``tests/hostile/test_read_in_write.py``."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from cardbase.db.engine import Database, open_database
from tests.hostile.test_read_in_write import _delete_card, _user_card, between
from tests.web.conftest import error_of


def test_a_pasted_collection_of_a_card_deleted_after_the_read_is_a_400_naming_the_line(
    client: TestClient, database: Database, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    gone = _user_card(database, "Fleeting Newt")
    other = open_database(db_url)
    try:
        between(monkeypatch, lambda: _delete_card(other, gone.id))
        response = client.post("/api/collection/import", json={"text": "3 Fleeting Newt\n", "game": "mea"})
    finally:
        other.engine.dispose()
    assert response.status_code == 400, response.text
    assert response.json()["error"]["problems"] == [
        f"line 1: the card {gone.id} is no longer in the catalog (deleted after the list was read)"
    ]
    assert "nothing was written" in error_of(response)
    assert client.get("/api/collection").json()["cards"] == []
