"""Class 9 (a deck's address replayed after the deck is deleted): a deck id is never given twice.
SQLite gives a new row the largest id plus one, so deleting the newest deck and making another gave
the new one the deleted deck's id: a bookmarked ``/decks/7``, a share of its API address, a page's
form of the deleted deck (its version numbers start again at 1 too) and its history links all
reached the new deck — a change made to a deck the user never opened. The rule
(``decks.store._insert``): every new deck's id is above every id a deck has had (``meta`` keeps
the highest; PostgreSQL's sequences never give one twice).

Generated over every way a deck is made (``new_deck``, ``duplicate_deck``, ``save_deck``), and
over the web's routes that take a deck id.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from cardbase.db.engine import open_database


def _makers(database: Any) -> dict[str, Callable[[str], int]]:
    from cardbase.decks.model import Deck
    from cardbase.decks.store import duplicate_deck, new_deck, save_deck

    return {
        "new": lambda name: new_deck(database, name, "mea"),
        "duplicate": lambda name: duplicate_deck(database, "Keep", name).id,
        "import": lambda name: save_deck(database, Deck(game="mea", cards=()), name),
    }


@pytest.mark.parametrize("maker", ["new", "duplicate", "import"])
def test_a_deleted_decks_id_is_never_given_again(maker: str, hostile_db: str) -> None:
    from cardbase.decks.store import delete_deck, new_deck

    database = open_database(hostile_db)
    try:
        new_deck(database, "Keep", "mea")
        given: set[int] = set()
        for round_ in range(3):
            made = _makers(database)[maker](f"Newest {round_}")
            assert made not in given, f"id {made} given twice"
            given.add(made)
            delete_deck(database, made)
    finally:
        database.engine.dispose()


def test_an_address_of_a_deleted_deck_reaches_no_other(hostile_db: str) -> None:
    from fastapi.testclient import TestClient

    from cardbase.web.app import create_app
    from cardbase.web.settings import ServerSettings

    database = open_database(hostile_db)
    settings = ServerSettings(database=database, lock_wait=2)
    try:
        with TestClient(create_app(settings), base_url=settings.base_url, raise_server_exceptions=False) as client:
            gone = client.post("/api/decks", json={"game": "mea", "name": "Gone"}).json()["id"]
            assert client.post(f"/api/decks/{gone}/cards", json={"name": "Crumb Goblin"}).status_code == 200
            assert client.delete(f"/api/decks/{gone}").status_code == 200
            fresh = client.post("/api/decks", json={"game": "mea", "name": "Fresh"}).json()["id"]
            assert fresh != gone
            for address in (f"/api/decks/{gone}", f"/decks/{gone}", f"/api/decks/{gone}/history"):
                assert client.get(address).status_code == 404, address
            stale = client.post(f"/api/decks/{gone}/cards", json={"name": "Crumb Goblin"}, headers={"If-Match": '"2"'})
            assert stale.status_code == 404
            assert client.get(f"/api/decks/{fresh}").json()["cards"] == []
    finally:
        database.engine.dispose()


def test_a_replaced_deck_keeps_its_id_and_its_versions(hostile_db: str) -> None:
    """``deck import --replace`` (and the web's replace) overwrites the deck in place: the id its
    address and links hold still reaches it, and its versions go on after the ones it had."""
    from cardbase.decks.model import Deck, DeckCard
    from cardbase.decks.store import deck_info, save_deck

    database = open_database(hostile_db)
    try:
        first = save_deck(database, Deck(game="mea", cards=()), "Rush")
        after = save_deck(
            database,
            Deck(game="mea", cards=(DeckCard("mea/demo/crumb-goblin", "Crumb Goblin", 2),)),
            "Rush",
            replace=True,
        )
        assert after == first
        info = deck_info(database, first)
        assert (info.name, info.version) == ("Rush", 2)
    finally:
        database.engine.dispose()
