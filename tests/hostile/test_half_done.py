"""Class 6 (half done, odd input accepted): an option given twice, an option that would have no
effect, a rule about a card the catalog does not have, an absurd number in a file of options, a
database missing a table — each refused (exit 1 when read and found invalid, 2 when unusable),
naming the file, key or option, with nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.hostile.conftest import assert_refused, db_dump, execute_sql, run_cli

RUSH = str(REPO / "examples/decks/mea-goblin-rush.txt")
CONTROL = str(REPO / "examples/decks/mea-tile-control.txt")


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (["sim", "meio", "--players", "2", "--agents", "search:samples=5;samples=6,random"], "samples"),
        (["sim", "meio", "--players", "2", "--agents", "search:samples=5; samples =6,random"], "samples"),
        (["lab", "gauntlet", RUSH, "--field", CONTROL, "--agents", "search:depth=1;depth=2"], "depth"),
        (["sim", "mea", "--deck", RUSH, "--vs", CONTROL, "--rule", "layout=3x3", "--rule", "layout=4x4"], "layout"),
    ],
    ids=["agent", "agent-spaced", "lab-agent", "rule"],
)
def test_an_option_given_twice_is_refused_naming_it(argv: list[str], option: str, shared_db: str) -> None:
    """The later value would silently win over the earlier: both are refused, the option named."""
    db = [] if argv[:2] == ["sim", "meio"] else ["--db", shared_db]
    line = assert_refused(run_cli([*argv, *db]), 2, option)
    assert "twice" in line


def _sheet_args(tmp_path: Path) -> list[str]:
    return ["print", "deck", RUSH, "-o", str(tmp_path / "out.pdf")]


@pytest.mark.parametrize(
    ("options", "named"),
    [
        (["--back-order", "interleave"], ["--back-order", "--one-per-page"]),
        (["--back-order", "interleave", "--backs"], ["--back-order", "--one-per-page"]),
        (["--back-order", "interleave", "--one-per-page"], ["--back-order", "--backs"]),
        (["--one-per-page", "--paper", "letter"], ["--paper", "--one-per-page"]),
        (["--one-per-page", "--gap", "2mm", "--cut-lines"], ["--gap", "--cut-lines"]),
        (["--one-per-page", "--scale-x", "101", "--back-offset", "1,0"], ["--scale-x", "--back-offset"]),
    ],
)
def test_a_sheet_option_that_would_do_nothing_is_refused(
    options: list[str], named: list[str], shared_db: str, tmp_path: Path
) -> None:
    """Refused rather than warned: the print would silently not be the one asked for, and a
    refusal costs nothing (it comes before any work, and nothing is written)."""
    assert_refused(run_cli([*_sheet_args(tmp_path), *options, "--db", shared_db]), 2, *named)
    assert not (tmp_path / "out.pdf").exists()


def test_the_options_that_do_go_together_print(shared_db: str, tmp_path: Path) -> None:
    args = [*_sheet_args(tmp_path), "--one-per-page", "--backs", "--back-order", "interleave", "--db", shared_db]
    result = run_cli(args)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out.pdf").read_bytes().startswith(b"%PDF")


def _formats(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "house.toml"
    path.write_text(body, encoding="utf-8")
    return path


HOUSE_COMMANDS = [
    ["deck", "validate", RUSH],
    ["sim", "mea", "--deck", RUSH, "--vs", CONTROL, "--games", "2"],
    ["lab", "gauntlet", RUSH, "--field", CONTROL, "--games", "2"],
    ["deck", "new", "Mine", "--game", "mea"],
    ["serve", "--port", "1"],
]


@pytest.mark.parametrize("argv", HOUSE_COMMANDS, ids=lambda a: " ".join(a[:2]))
def test_a_house_format_naming_a_card_the_catalog_lacks_is_refused(
    argv: list[str], shared_db: str, tmp_path: Path
) -> None:
    """A ban on a misspelt card would never apply: the file, the format, the key and the card are
    named, with the closest names; a card given by another of its names is told its name."""
    house = _formats(
        tmp_path,
        '[formats.strict]\ngame = "mea"\nbase = "standard"\n'
        'banned = ["Crumb Goblin", "Crumb Gobiln"]\ncopy_limits = { "Puddle Knigth" = 1 }\n'
        '[formats.free]\ngame = "meikyu"\nrestricted = ["No Such Card At All"]\n',
    )
    before = db_dump(shared_db)
    result = run_cli([*argv, "--formats", str(house), "--db", shared_db])
    assert_refused(result, 1, str(house), "3 problems")
    for line in (
        "format 'strict': banned: no mea card 'Crumb Gobiln' in the catalog; did you mean 'Crumb Goblin'",
        "format 'strict': copy_limits: no mea card 'Puddle Knigth' in the catalog; did you mean 'Puddle Knight'?",
        "format 'free': restricted: no meikyu card 'No Such Card At All' in the catalog",
    ):
        assert line in result.stderr
    assert db_dump(shared_db) == before


@pytest.mark.parametrize(
    ("entry", "said"),
    [
        ('banned = ["Crumb\\nGoblin"]', "control character ('\\n')"),
        ('restricted = ["Crumb Goblin\\t"]', "control character ('\\t')"),
        ('banned = [""]', "an empty name"),
        ('copy_limits = { "Crumb\\u0000Goblin" = 1 }', "control character ('\\x00')"),
    ],
    ids=["newline", "tab", "empty", "nul"],
)
def test_a_house_format_name_with_a_control_character_is_refused(
    entry: str, said: str, shared_db: str, tmp_path: Path
) -> None:
    house = _formats(tmp_path, f'[formats.odd]\ngame = "mea"\n{entry}\n')
    line = assert_refused(run_cli(["deck", "validate", RUSH, "--formats", str(house), "--db", shared_db]), 2, said)
    assert line.startswith(f"cardbase: error: {house}: format 'odd': key ")


def test_the_shipped_house_formats_name_only_catalog_cards(shared_db: str) -> None:
    house = str(REPO / "examples/formats/house.toml")
    result = run_cli(["deck", "validate", RUSH, "--formats", house, "--format", "no-big-ducks", "--db", shared_db])
    assert result.exit_code in (0, 1) and "in the catalog" not in result.output, result.output


@pytest.mark.parametrize(
    ("cards", "extra", "said"),
    [
        ({"Bee": {"wits": 10**30}}, [], "cards.Bee.wits: must be a whole number from 0 to 1,000, not 1000000"),
        ({}, [{"name": "L", "type": "land", "level": 1, "points": 2, "developed_points": 3, "copies": 10**9}], "cop"),
        ({"Bee": {"bravery": 1001}}, [], "cards.Bee.bravery: must be a whole number from 0 to 1,000, not 1001"),
    ],
    ids=["huge", "copies", "just-over"],
)
def test_an_absurd_number_in_an_assumption_profile_is_refused(
    cards: dict[str, object], extra: list[object], said: str, shared_db: str, tmp_path: Path
) -> None:
    profile = tmp_path / "mine.json"
    profile.write_text(json.dumps({"name": "mine", "cards": cards, "extra_cards": extra}), encoding="utf-8")
    argv = ["lab", "cards", "--players", "2", "--assume", str(profile), "--games", "2", "--db", shared_db]
    assert_refused(run_cli(argv), 1, f"assumption profile {profile}", said, "1,000")


@pytest.mark.parametrize(
    ("argv", "name", "body"),
    [
        (["lab", "cards", "--players", "2", "--assume", "{path}"], "p.json", '{"name": "a", "name": "b"}'),
        (["deck", "validate", "{path}"], "d.json", '{"game": "mea", "game": "meio", "main": []}'),
        (["catalog", "import", "{path}", "--game", "mea"], "c.json", '{"cards": [{"name": "X", "name": "Y"}]}'),
    ],
    ids=["profile", "deck", "catalog"],
)
def test_a_json_key_given_twice_is_refused_naming_it(
    argv: list[str], name: str, body: str, shared_db: str, tmp_path: Path
) -> None:
    """JSON lets the second value of a key silently replace the first; every JSON file read refuses it."""
    path = tmp_path / name
    path.write_text(body, encoding="utf-8")
    before = db_dump(shared_db)
    args = [a.replace("{path}", str(path)) for a in argv]
    assert_refused(run_cli([*args, "--db", shared_db]), 2, str(path), "is given twice")
    assert db_dump(shared_db) == before


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        (
            "DROP TABLE card_alias; DROP TABLE card_image; DROP TABLE deck_card; DROP TABLE card_tag; "
            "DROP TABLE deck_card_tag; DROP TABLE collection; DROP TABLE card_edit; DROP TABLE card",
            "no table card",
        ),
        ("DROP TABLE deck_card", "no table deck_card"),
        ("ALTER TABLE deck DROP COLUMN format", "the table deck has no column format"),
    ],
    ids=["card", "deck_card", "a-column"],
)
def test_a_database_missing_a_table_is_refused_and_left_unchanged(damage: str, said: str, hostile_db: str) -> None:
    """It used to be made again, empty, and the command went on (exit 1): the data silently gone."""
    execute_sql(hostile_db, *damage.split("; "))
    before = db_dump(hostile_db)
    for argv in (["cards", "search", "t:monster"], ["deck", "list"], ["catalog", "status"]):
        assert_refused(run_cli([*argv, "--db", hostile_db]), 2, said, "left unchanged")
    assert db_dump(hostile_db) == before
