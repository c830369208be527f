"""Shell completion completes values (issue 13): games, agents, formats, card names and deck names,
through click's completion protocol as the shell calls it (``_CARDBASE_COMPLETE=complete_bash``
with ``COMP_WORDS``/``COMP_CWORD``); bounded, and quiet when there is no database."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardbase.cli.app import app
from cardbase.cli.complete import MAX_ITEMS
from tests.conftest import REPO
from tests.hostile.conftest import run_cli

RUSH = REPO / "examples" / "decks" / "mea-goblin-rush.txt"


def complete(*words: str) -> list[str]:
    """What bash is offered for the last word of ``cardbase WORDS``."""
    env = {
        "_CARDBASE_COMPLETE": "complete_bash",
        "COMP_WORDS": " ".join(["cardbase", *words]),
        "COMP_CWORD": str(len(words)),
    }
    result = CliRunner().invoke(app, [], env=env, prog_name="cardbase")
    assert result.exit_code == 0 and result.exception is None, result.output
    assert "Traceback" not in result.output
    return [line for line in result.output.splitlines() if line]


@pytest.mark.parametrize(
    "words",
    [
        ["cards", "search", "x", "--game", "mei"],
        ["catalog", "status", "--game", "mei"],
        ["deck", "stats", "x.txt", "--game", "mei"],
        ["print", "set", "mei"],
    ],
)
def test_games_complete(words: list[str]) -> None:
    assert complete(*words) == ["meikyu", "meio"]


def test_agents_complete_the_last_name_of_a_list() -> None:
    assert complete("sim", "meio", "--agents", "he") == ["heuristic"]
    assert complete("sim", "meio", "--agents", "search,") == [
        f"search,{a}" for a in ("random", "heuristic", "search", "ismcts")
    ]
    assert complete("play", "mea", "--vs", "is") == ["ismcts"]
    assert complete("lab", "gauntlet", "x", "--agents", "heuristic,r") == ["heuristic,random"]


def test_rules_options_complete_their_names_then_their_words() -> None:
    assert complete("sim", "meikyu", "--rule", "amu") == ["amulet_ask=", "amulet_first_roll="]
    assert complete("sim", "meikyu", "--rule", "amulet_a") == ["amulet_ask="]
    assert complete("sim", "meikyu", "--rule", "amulet_ask=") == ["amulet_ask=holders", "amulet_ask=everyone"]
    assert complete("play", "mea", "--rule", "move_in=f") == ["move_in=first"]
    assert complete("sim", "meio", "--rule", "ace_high=") == ["ace_high=yes", "ace_high=no"]
    assert complete("sim", "meio", "--rule", "rounds=") == []  # a number: nothing to offer
    assert complete("lab", "gauntlet", "x", "--rule", "adj") == ["adjacency="]  # the lab's decks are Méa's


def test_formats_complete() -> None:
    assert complete("catalog", "export", "--game", "mea", "--format", "") == ["csv", "json", "xlsx"]
    assert complete("catalog", "template", "--game", "mea", "--format", "x") == ["xlsx"]
    assert complete("deck", "export", "x.txt", "--format", "c") == ["code", "cod"]
    assert complete("cards", "search", "x", "--ace", "l") == ["low"]
    named = complete("deck", "validate", "x.txt", "--game", "mea", "--format", "")
    assert named and "standard" in named


def test_card_names_complete_from_the_database(db_url: str) -> None:
    assert "Pickpocket Ferret" in complete("cards", "show", "--db", db_url, "pickp")
    ferret = complete("cards", "show", "--db", db_url, "ferr")  # the start of any word of the name
    assert ferret == ["Pickpocket Ferret"]
    assert complete("deck", "add", "--db", db_url, "Mine", "grimo") == ["Grimoire"]
    aces = ["Ace of Clubs", "Ace of Diamonds", "Ace of Hearts", "Ace of Spades"]
    assert complete("render", "card", "--db", db_url, "--game", "meio", "ace") == aces
    everything = complete("cards", "show", "--db", db_url, "")
    assert len(everything) == MAX_ITEMS  # the catalog has more: the list is bounded


def test_deck_names_complete_from_the_database_and_files_from_the_shell(db_url: str) -> None:
    assert run_cli(["deck", "import", RUSH, "--name", "Bird Tricks"], db_url).exit_code == 0
    offered = complete("deck", "validate", "--db", db_url, "Bir")
    assert offered[0] == "Bird Tricks" and len(offered) == 2  # and the shell's own file completion
    assert complete("deck", "delete", "--db", db_url, "bi") == ["Bird Tricks"]  # a database deck only
    assert complete("deck", "stats", "--db", db_url, "db:B") == ["db:Bird Tricks"]
    assert complete("sim", "mea", "--db", db_url, "--deck", "db:") == ["db:Bird Tricks"]
    assert complete("play", "mea", "--db", db_url, "--vs-deck", "db:bird") == ["db:Bird Tricks"]


def test_no_database_no_names_and_nothing_made(tmp_path: Path) -> None:
    missing = tmp_path / "none.db"
    assert complete("cards", "show", "--db", str(missing), "gob") == []
    assert complete("deck", "delete", "--db", str(missing), "") == []
    assert not missing.exists()  # completion never creates a database
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"not a database at all" * 100)
    assert complete("cards", "show", "--db", str(garbage), "gob") == []
    assert garbage.read_bytes() == b"not a database at all" * 100
    unreachable = "postgresql://nobody@127.0.0.1:1/none"
    assert complete("deck", "delete", "--db", unreachable, "") == []


def test_free_text_completers_are_one_factory_named_by_their_kind() -> None:
    """Queries, needs, mana and tags complete nothing and are checked by their kind: one factory
    (``complete.free_text``) makes them, each keeping its name (the named-values table keys by it)."""
    from cardbase.cli import complete as c

    made = {"queries": "query", "needs": "need", "mana": "mana", "tags": "tags"}
    for name, check in made.items():
        completer = getattr(c, name)
        assert completer.__name__ == name
        assert completer.__doc__
        assert completer.check is not None
        assert completer.kind == check
        assert completer(None, None, "any") == []
    assert {getattr(c, n).__code__ for n in made} == {c.free_text("query", "x", "doc").__code__}
