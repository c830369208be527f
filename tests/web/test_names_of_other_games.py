"""A card name that two other games have, named with both on the web, in players' words (the command
line's are tested in tests/cli/test_names_of_other_games.py)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from cardbase.db.engine import Database
from tests.cli.test_names_of_other_games import TWO_GAMES, two_grimoires
from tests.web.conftest import error_of, new_deck

__all__ = ["two_grimoires"]  # the fixture, used by name


def test_a_name_of_two_other_games_names_both_on_the_web(client: TestClient, two_grimoires: Database) -> None:
    deck_id = new_deck(client)
    added = client.post(f"/api/decks/{deck_id}/cards", json={"name": "Grimoire"})
    assert added.status_code == 400 and error_of(added).startswith(f"{TWO_GAMES}, the game of deck 'Rush'")
    imported = client.post("/api/decks/import", json={"text": "game: mea\n2 Grimoire\n", "name": "Pasted"})
    assert imported.status_code == 400, imported.text
    assert "'Grimoire' is a Meikyu and a Meio card, not Méa" in imported.text, imported.text
