"""Deck commands as users run them, and decks kept in the database."""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path

from typer.testing import CliRunner

from cardbase.cli.app import app
from tests.conftest import REPO

EXAMPLES = REPO / "examples" / "decks"
runner = CliRunner()


def run(db: str, *args: str):
    return runner.invoke(app, [*args, "--db", db], catch_exceptions=False)


def test_validate_json_shape(db_url: str) -> None:
    result = run(db_url, "deck", "validate", str(EXAMPLES / "mea-broken.txt"), "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["valid"] is False and report["game"] == "mea" and report["cards"] == 4
    assert {p["code"] for p in report["problems"]} == {
        "unknown-card",
        "wrong-game",
        "bad-count",
        "card-type",
        "deck-size",
    }
    assert all({"code", "message", "line"} <= p.keys() for p in report["problems"])


def test_valid_deck_exits_0(db_url: str) -> None:
    result = run(db_url, "deck", "validate", str(EXAMPLES / "mea-goblin-rush.txt"))
    assert result.exit_code == 0 and "valid" in result.stdout


def test_share_code_round_trip_through_the_cli(db_url: str) -> None:
    code = run(db_url, "deck", "encode", str(EXAMPLES / "meio-hand.txt")).stdout.strip()
    decoded = run(db_url, "deck", "decode", code, "--to", "json")
    assert decoded.exit_code == 0
    deck = json.loads(decoded.stdout)
    assert deck["game"] == "meio" and deck["players"] == 3
    assert sum(c["count"] for c in deck["cards"] if c.get("section") == "first half") == 7
    bad = run(db_url, "deck", "decode", "!!!not-a-code")
    assert bad.exit_code == 2 and "not a deck code" in bad.output


def test_convert_text_to_json_and_back(db_url: str, tmp_path: Path) -> None:
    as_json = run(db_url, "deck", "convert", str(EXAMPLES / "mea-tile-control.txt"), "--to", "json").stdout
    path = tmp_path / "deck.json"
    path.write_text(as_json, encoding="utf-8")
    assert run(db_url, "deck", "validate", str(path)).exit_code == 0
    back = run(db_url, "deck", "convert", str(path), "--to", "text").stdout
    assert back.startswith("game: mea\nname: Tile Control\n")


def test_stats_json(db_url: str) -> None:
    stats = json.loads(run(db_url, "deck", "stats", str(EXAMPLES / "mea-goblin-rush.txt"), "--json").stdout)
    assert stats["cards"] == 32 and stats["copy_limit"] == "no copy limit"
    assert sum(stats["mana_curve"].values()) == 32


def test_stats_says_the_rulebook_sets_no_copy_limit(db_url: str) -> None:
    result = run(db_url, "deck", "stats", str(EXAMPLES / "mea-goblin-rush.txt"))
    assert "no copy limit (the rulebook sets none)" in result.stdout
    assert "demo cards" in result.stdout


def test_database_decks(db_url: str) -> None:
    assert run(db_url, "deck", "new", "Rush", "--game", "mea").exit_code == 0
    assert run(db_url, "deck", "new", "Rush", "--game", "mea").exit_code == 1  # name taken: refused by a check
    assert run(db_url, "deck", "add", "Rush", "crumb goblin", "-n", "3").stdout.strip() == "Rush: 3 Crumb Goblin"
    assert run(db_url, "deck", "add", "Rush", "Crumb Goblin").stdout.strip() == "Rush: 4 Crumb Goblin"
    assert run(db_url, "deck", "add", "Rush", "Gotcha!").exit_code == 1  # not a Méa card
    assert (
        run(db_url, "deck", "add", "Nope", "Crumb Goblin").exit_code == 2
    )  # no such deck: a bad argument, as `deck show Nope`
    assert (
        run(db_url, "deck", "remove", "Rush", "Crumb Goblin", "-n", "1").stdout.strip() == "Rush: 3 Crumb Goblin left"
    )
    listed = json.loads(run(db_url, "deck", "list", "--json").stdout)
    assert [(d["name"], d["cards"]) for d in listed] == [("Rush", 3)]
    shown = json.loads(run(db_url, "deck", "show", "Rush", "--json").stdout)
    assert shown["validation"]["valid"] is False
    assert shown["validation"]["problems"][0]["code"] == "deck-size"
    code = run(db_url, "deck", "export", "Rush", "--format", "code").stdout.strip()
    text = run(db_url, "deck", "decode", code).stdout
    assert "3 Crumb Goblin" in text
    assert run(db_url, "deck", "import", str(EXAMPLES / "mea-goblin-rush.txt")).exit_code == 0
    again = run(db_url, "deck", "import", str(EXAMPLES / "mea-goblin-rush.txt"))
    assert again.exit_code == 1 and "--replace" in again.output
    assert run(db_url, "deck", "import", str(EXAMPLES / "mea-goblin-rush.txt"), "--replace").exit_code == 0
    exported = run(db_url, "deck", "export", "Goblin Rush", "--format", "text").stdout
    original = runner.invoke(
        app, ["deck", "convert", str(EXAMPLES / "mea-goblin-rush.txt"), "--to", "text", "--db", db_url]
    ).stdout
    assert exported == original
    broken = run(db_url, "deck", "import", str(EXAMPLES / "mea-broken.txt"))
    assert broken.exit_code == 1 and "nothing was written" in broken.output
    assert [d["name"] for d in json.loads(run(db_url, "deck", "list", "--json").stdout)] == ["Goblin Rush", "Rush"]
    assert run(db_url, "deck", "delete", "Rush").exit_code == 0


def test_deck_set_renames_and_keeps_a_format(db_url: str) -> None:
    house = str(REPO / "examples/formats/house.toml")
    bad = run(db_url, "deck", "new", "One", "--game", "mea", "--format", "highlander")
    assert bad.exit_code == 2 and "mea has no format 'highlander'; formats are standard; " in bad.output
    assert "a house format is known only with its --formats file" in bad.output
    made = run(db_url, "deck", "new", "One", "--game", "mea", "--format", "highlander", "--formats", house)
    assert made.exit_code == 0
    assert json.loads(run(db_url, "deck", "list", "--json").stdout)[0]["format"] == "highlander"
    done = run(db_url, "deck", "set", "One", "--name", "Single", "--format", "default")
    assert done.exit_code == 0 and done.stdout.strip() == "deck 'Single': mea, format default, 0 cards"
    assert json.loads(run(db_url, "deck", "validate", "Single", "--json").stdout)["format"] == "standard"
    refused = run(db_url, "deck", "set", "Single", "--name", "Other", "--format", "bogus")
    assert refused.exit_code == 2 and "no format 'bogus'" in refused.output
    assert [d["name"] for d in json.loads(run(db_url, "deck", "list", "--json").stdout)] == ["Single"]
    long = run(db_url, "deck", "set", "Single", "--format", "x" * 101)
    assert long.exit_code == 2 and "--format has at most 100 characters, not 101" in long.output
    checked = run(db_url, "deck", "validate", "Single", "--format", "x" * 101)
    assert checked.exit_code == 2 and "--format has at most 100 characters" in checked.output
    nothing = run(db_url, "deck", "set", "Single")
    assert nothing.exit_code == 2 and "give --name and/or --format" in nothing.output
    assert run(db_url, "deck", "set", "Nope", "--name", "X").exit_code == 2  # no such deck


def _add_many(db_url: str, times: int) -> None:
    from cardbase.db.engine import open_database
    from cardbase.db.queries import find_card
    from cardbase.decks.store import add_card

    database = open_database(db_url)
    with database.session() as session:
        card = find_card(session, "Crumb Goblin", "mea")
    for _ in range(times):
        add_card(database, "Shared", card, 1)
    database.engine.dispose()


def test_two_processes_adding_at_once_lose_nothing(db_url: str) -> None:
    assert run(db_url, "deck", "new", "Shared", "--game", "mea").exit_code == 0
    ctx = multiprocessing.get_context("spawn")
    workers = [ctx.Process(target=_add_many, args=(db_url, 25)) for _ in range(2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(120)
        assert w.exitcode == 0
    listed = json.loads(run(db_url, "deck", "list", "--json").stdout)
    assert listed == [
        {
            "id": listed[0]["id"],
            "name": "Shared",
            "game": "mea",
            "format": None,
            "players": None,
            "updated": listed[0]["updated"],
            "cards": 50,
            "version": 51,  # made at 1, and each of the 50 adds counted once
        }
    ]
