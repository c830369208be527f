"""A name printed in two sets of one game (``Crumb Goblin`` in ``demo`` and in ``mine``) can still be
named by every command that takes one card: as a deck list writes it, ``Crumb Goblin (mine)``, or by
its id, ``mea/mine/crumb-goblin``. Both were unknown cards, and the bare name was refused with
"narrow it with --game", which narrows nothing when both printings are of one game: no command could
add the card to the collection, tag, edit, show or draw it. The refusal now names the two forms."""

from __future__ import annotations

import json

import pytest

from tests.hostile.conftest import assert_refused, db_dump, run_cli

# Commands that take one card by name, with NAME where it goes.
COMMANDS: list[list[str]] = [
    ["cards", "show", "NAME"],
    ["collection", "add", "NAME", "2"],
    ["collection", "set", "NAME", "2"],
    ["cards", "tag", "NAME", "proxy"],
    ["catalog", "edit", "NAME", "cost=3"],
    ["catalog", "history", "NAME"],
    ["render", "card", "NAME", "-o", "c.png", "--dpi", "30"],
]


@pytest.fixture
def two_printings(hostile_db: str) -> str:
    added = run_cli(
        ["catalog", "add", "--game", "mea", "name=Crumb Goblin", "type=monster", "set=mine", "cost=9"], hostile_db
    )
    assert added.exit_code == 0, added.output
    return hostile_db


@pytest.mark.parametrize("argv", COMMANDS, ids=[" ".join(a[:2]) for a in COMMANDS])
def test_the_bare_name_is_refused_naming_the_forms_that_narrow_it(argv: list[str], two_printings: str, in_tmp) -> None:
    before = db_dump(two_printings)
    result = run_cli([a.replace("NAME", "Crumb Goblin") for a in argv], two_printings)
    line = assert_refused(result, 2, "Crumb Goblin (mine)", "mea/mine/crumb-goblin", "Crumb Goblin (demo)")
    assert "--game" not in line  # both are Méa cards: --game narrows nothing
    assert db_dump(two_printings) == before


@pytest.mark.parametrize("name", ["Crumb Goblin (mine)", "crumb goblin (MINE)", "mea/mine/crumb-goblin"])
@pytest.mark.parametrize("argv", COMMANDS, ids=[" ".join(a[:2]) for a in COMMANDS])
def test_the_set_or_the_id_names_one_printing(argv: list[str], name: str, two_printings: str, in_tmp) -> None:
    result = run_cli([a.replace("NAME", name) for a in argv], two_printings)
    assert result.exit_code == 0, result.output
    shown = run_cli(["cards", "show", name, "--json"], two_printings)
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.stdout)["id"] == "mea/mine/crumb-goblin"


def test_a_name_in_two_games_still_says_game(hostile_db: str) -> None:
    added = run_cli(
        ["catalog", "add", "--game", "meikyu", "name=Crumb Goblin", "type=character", "set=mine"], hostile_db
    )
    if added.exit_code != 0:
        pytest.skip(f"a Meio card cannot be added this way: {added.stderr.strip()}")
    line = assert_refused(run_cli(["cards", "show", "Crumb Goblin"], hostile_db), 2, "--game")
    assert "meikyu/mine/crumb-goblin" in line


def test_a_set_that_is_not_the_cards_is_an_unknown_card(two_printings: str) -> None:
    assert_refused(run_cli(["cards", "show", "Crumb Goblin (other)"], two_printings), 1, "Crumb Goblin (other)")
