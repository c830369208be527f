"""A request read well but refused by what the database holds exits 1 in every command, not 2: a name
already taken, a card the set already has, a card not in the deck, a deck or a count over its bound, an
edit the card does not have. Exit 2 stays for input that cannot be read and for bad usage (one such
case is kept beside them, so that a test that passes by making every refusal 1 fails)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardbase.cli.app import app
from tests.conftest import new_database

runner = CliRunner()


def run(db: str, *args: str) -> tuple[int, str]:
    """The exit code and what the command said (stdout and stderr)."""
    result = runner.invoke(app, [*args, "--db", db], catch_exceptions=False)
    return result.exit_code, result.output


def made(db: str, *args: str) -> None:
    code, output = run(db, *args)
    assert code == 0, output


# (what is set up first, the command refused, a part of its message)
REFUSED: dict[str, tuple[list[list[str]], list[str], str]] = {
    "catalog add of a card the set has": (
        [],
        ["catalog", "add", "--game", "mea", "name=Crumb Goblin", "type=monster", "set=demo"],
        "already has the card 'Crumb Goblin'",
    ),
    "catalog edit: an alias another card has": (
        [],
        ["catalog", "edit", "Crumb Goblin", "--game", "mea", "aliases=Goblin Surveyor"],
        "is already the name or an alias of",
    ),
    "catalog history --revert of an edit the card does not have": (
        [],
        ["catalog", "history", "Crumb Goblin", "--game", "mea", "--revert", "999"],
        "'Crumb Goblin' has no edit 999",
    ),
    "deck new under a name taken": (
        [["deck", "new", "Rush", "--game", "mea"]],
        ["deck", "new", "Rush", "--game", "mea"],
        "a deck named 'Rush' already exists",
    ),
    "deck set --name to a name taken": (
        [["deck", "new", "Rush", "--game", "mea"], ["deck", "new", "Tiles", "--game", "mea"]],
        ["deck", "set", "Tiles", "--name", "Rush"],
        "a deck named 'Rush' already exists",
    ),
    "deck import under a name taken": (
        [["deck", "new", "Goblin Rush", "--game", "mea"]],
        ["deck", "import", "examples/decks/mea-goblin-rush.txt", "--name", "Goblin Rush"],
        "pass --replace to overwrite it",
    ),
    "deck remove of a card not in the deck": (
        [["deck", "new", "Rush", "--game", "mea"]],
        ["deck", "remove", "Rush", "Crumb Goblin"],
        "Crumb Goblin is not in deck 'Rush'",
    ),
    "deck tag of a card not in the deck": (
        [["deck", "new", "Rush", "--game", "mea"]],
        ["deck", "tag", "Rush", "Crumb Goblin", "combo"],
        "Crumb Goblin is not in deck 'Rush'; add it before tagging it",
    ),
    "deck add past an entry's bound of copies": (
        [["deck", "new", "Rush", "--game", "mea"], ["deck", "add", "Rush", "Crumb Goblin", "--count", "999"]],
        ["deck", "add", "Rush", "Crumb Goblin"],
        "an entry holds at most 999",
    ),
    "print deck --missing of a deck the collection covers": (
        [
            ["deck", "new", "Rush", "--game", "mea"],
            ["deck", "add", "Rush", "Crumb Goblin"],
            ["collection", "add", "Crumb Goblin", "1"],
        ],
        ["print", "deck", "db:Rush", "--missing", "-o", "{tmp}/missing.pdf"],
        "you own every card of this deck",
    ),
    "collection add past the bound of copies": (
        [["collection", "set", "Crumb Goblin", "99999"]],
        ["collection", "add", "Crumb Goblin", "1"],
        "is over the bound of 99,999 for one card",
    ),
}


@pytest.mark.parametrize("case", list(REFUSED))
def test_a_refusal_by_what_the_database_holds_exits_1(db_url: str, tmp_path: Path, case: str) -> None:
    setup, command, said = REFUSED[case]
    for step in setup:
        made(db_url, *step)
    code, output = run(db_url, *(part.replace("{tmp}", str(tmp_path)) for part in command))
    assert said in output, output
    assert output.startswith("cardbase: error: ") and "Traceback" not in output, output
    assert code == 1, (code, output)


def test_a_share_code_naming_a_card_this_catalog_lacks_exits_1(
    db_url: str, catalog_template: str, tmp_path: Path
) -> None:
    """The code is read whole; the catalog it is decoded against lacks its card (another's catalog)."""
    deck = tmp_path / "fox.txt"
    deck.write_text("game: mea\n1 Ember Fox\n", encoding="utf-8")
    (tmp_path / "theirs").mkdir()
    with new_database(tmp_path / "theirs", catalog_template) as theirs:
        made(theirs, "catalog", "add", "--game", "mea", "name=Ember Fox", "type=monster")
        code, shared = run(theirs, "deck", "encode", str(deck))
        assert code == 0, shared
    code, output = run(db_url, "deck", "decode", shared.strip())
    assert code == 1 and "deck code names a card this catalog does not have" in output, (code, output)


def test_bad_usage_and_a_deck_that_is_not_there_still_exit_2(db_url: str) -> None:
    """The other side of the line: a count out of its range is bad usage, a deck name that names no deck
    is as a deck file that is not there (README, Errors and limits)."""
    made(db_url, "deck", "new", "Rush", "--game", "mea")
    code, output = run(db_url, "deck", "remove", "Rush", "Crumb Goblin", "--count", "0")
    assert code == 2, output
    code, output = run(db_url, "deck", "remove", "No Such Deck", "Crumb Goblin")
    assert code == 2 and "no deck named 'No Such Deck'" in output, output
