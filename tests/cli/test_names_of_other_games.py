"""A card name asked of one game and found, or nearly found, in others: a did-you-mean offers the
command's (the deck's) game's cards first, and a card of another game says which game it is from; a
name that is two other games' cards names both ("is a meikyu and a meio card, not mea"), on every
face that says it: a lookup, a deck line, a collection line, and the web's API and pages."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardbase.cli.app import app
from cardbase.db.edit import add_card
from cardbase.db.engine import Database

runner = CliRunner()


def run(db: str, *args: str) -> tuple[int, str]:
    result = runner.invoke(app, [*args, "--db", db], catch_exceptions=False)
    return result.exit_code, " ".join(result.output.split())


@pytest.fixture
def with_ember_fox(database: Database) -> Database:
    add_card(database, "mea", {"name": "Ember Fox", "type": "monster"}, "test")
    return database


def test_a_lookup_offers_the_commands_games_cards_and_says_anothers_game(db_url: str, with_ember_fox: Database) -> None:
    code, said = run(db_url, "cards", "show", "Cindr Fox", "--game", "mea")
    assert code == 1 and said.endswith("unknown card 'Cindr Fox' in mea; did you mean 'Ember Fox'?"), said
    code, said = run(db_url, "cards", "show", "Cindr Fox")  # a Méa and a Meikyu card: each says its game
    assert code == 1 and "'Ember Fox' (a mea card)" in said and "(a meikyu card)" in said, said
    code, said = run(db_url, "collection", "add", "Room of the Mony Eater", "1", "--game", "mea")
    assert code == 1 and "'Room of the Money Eater' (a meikyu card)?" in said, said
    code, said = run(db_url, "cards", "show", "Room of the Mony Eater")  # no game asked: of one game, unsaid
    assert code == 1 and "did you mean 'Room of the Money Eater', " in said and "card)" not in said, said


def test_a_deck_line_offers_another_games_card_with_its_game(db_url: str, tmp_path: Path) -> None:
    deck = tmp_path / "d.txt"
    deck.write_text("game: mea\n2 Room of the Mony Eater\n", encoding="utf-8")
    code, said = run(db_url, "deck", "validate", str(deck))
    assert code == 1 and "did you mean 'Room of the Money Eater' (a meikyu card)?" in said, said


@pytest.fixture
def two_grimoires(database: Database) -> Database:
    """'Grimoire' is a Meikyu card (shipped) and, made here, a Meio card: no Méa card."""
    add_card(database, "meio", {"name": "Grimoire", "type": "playing card"}, "test")
    return database


TWO_GAMES = "'Grimoire' is a meikyu and a meio card, not mea"
"""Two cards of that name, one of each game (in players' words: is a Meikyu and a Meio card, not Méa)."""


def test_a_name_of_two_other_games_names_both_on_the_command_line(
    db_url: str, two_grimoires: Database, tmp_path: Path
) -> None:
    code, said = run(db_url, "cards", "show", "Grimoire", "--game", "mea")
    assert code == 1 and said.endswith(TWO_GAMES), said
    run(db_url, "deck", "new", "Rush", "--game", "mea")
    code, said = run(db_url, "deck", "add", "Rush", "Grimoire")
    assert code == 1 and said.endswith(TWO_GAMES), said
    deck = tmp_path / "d.txt"
    deck.write_text("game: mea\n2 Grimoire\n", encoding="utf-8")
    code, said = run(db_url, "deck", "validate", str(deck))
    assert code == 1 and f"[wrong-game] line 2: {TWO_GAMES} — remove it from this deck" in said, said
    code, said = run(db_url, "collection", "import", str(deck), "--dry-run")
    assert code == 1 and f"line 2: {TWO_GAMES}" in said, said
