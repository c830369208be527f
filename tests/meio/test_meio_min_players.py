"""A Meio card's ``min_players`` follows its rank, by the rulebook's decks (For 2 players, use cards A-7
of each suit; for 3, A-10; for 4, all cards), for every card: the shipped 52 and every card a user
enters (catalog import, ``catalog add``/``edit``, the web's editor and API). An unknown rank gives an
unknown ``min_players``; a ``min_players`` given against the rank is refused, naming the row and column."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from typer.testing import CliRunner

from cardbase.cli.app import app
from cardbase.db.engine import Database
from cardbase.db.io import import_catalog
from cardbase.db.models import Card
from cardbase.errors import InvalidData
from cardbase.games.meio.cards import min_players_of
from tests.web.conftest import client, make_client  # noqa: F401

runner = CliRunner()


def _min_players(database: Database, cid: str) -> int | None:
    with database.session() as s:
        card = s.get(Card, cid)
        assert card is not None, cid
        return card.min_players


def _import(database: Database, tmp_path: Path, text: str) -> None:
    path = tmp_path / "meio.csv"
    path.write_text(text, encoding="utf-8")
    import_catalog(database, path, "meio")


def test_the_rule_is_the_rulebooks_decks() -> None:
    assert [min_players_of(rank) for rank in range(1, 14)] == [2] * 7 + [3] * 3 + [4] * 3
    assert min_players_of(None) is None


def test_the_shipped_cards_follow_the_rule(database: Database) -> None:
    with database.session() as s:
        cards = s.scalars(select(Card).where(Card.game == "meio")).all()
    assert len(cards) == 52 and all(c.min_players == min_players_of(c.rank) for c in cards)


def test_an_imported_card_gets_min_players_from_its_rank(database: Database, tmp_path: Path) -> None:
    _import(
        database,
        tmp_path,
        "name,type,rank,suit,set\n"
        "Low Star,playing card,7,H,mine\nNine Star,playing card,9,S,mine\nHigh Star,playing card,12,D,mine\n"
        "Vague Star,playing card,,C,mine\nOdd Star,playing card,?,C,mine\n",
    )
    found = {name: _min_players(database, f"meio/mine/{name}") for name in ("low-star", "nine-star", "high-star")}
    assert found == {"low-star": 2, "nine-star": 3, "high-star": 4}
    assert _min_players(database, "meio/mine/vague-star") is None  # unknown rank: unknown, never guessed
    assert _min_players(database, "meio/mine/odd-star") is None
    _import(database, tmp_path, "name,type,rank,set\nVague Star,playing card,11,mine\n")  # the rank given later
    assert _min_players(database, "meio/mine/vague-star") == 4


def test_a_min_players_against_the_rank_is_refused_naming_row_and_column(database: Database, tmp_path: Path) -> None:
    with pytest.raises(InvalidData) as refused:
        _import(
            database,
            tmp_path,
            "name,type,rank,suit,players,set\n"
            "Nine Star,playing card,9,S,3,mine\n"  # agrees: fine
            "Bad Star,playing card,9,S,2,mine\n"
            "Blind Star,playing card,,S,4,mine\n",
        )
    problems = refused.value.problems
    assert len(problems) == 2, problems
    assert (
        problems[0].startswith("row 3, column 'players': ") and "rank 9" in problems[0] and "is 3, not 2" in problems[0]
    )
    assert problems[1].startswith("row 4, column 'players': ") and "rank" in problems[1] and "unknown" in problems[1]
    with database.session() as s:
        assert s.get(Card, "meio/mine/nine-star") is None  # nothing written


def _cli(db_url: str, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, [*args, "--db", db_url])
    return result.exit_code, result.stdout, result.stderr


def test_catalog_add_and_edit_keep_min_players_with_the_rank(db_url: str, database: Database) -> None:
    code, _, err = _cli(db_url, "catalog", "add", "--game", "meio", "name=Court Star", "type=playing card", "rank=12",
                        "suit=S", "set=mine")  # fmt: skip
    assert code == 0, err
    assert _min_players(database, "meio/mine/court-star") == 4
    code, _, err = _cli(db_url, "catalog", "edit", "Court Star", "rank=3")
    assert code == 0, err
    assert _min_players(database, "meio/mine/court-star") == 2
    code, _, err = _cli(db_url, "catalog", "edit", "Court Star", "rank=?")
    assert code == 0, err
    assert _min_players(database, "meio/mine/court-star") is None
    code, _, err = _cli(db_url, "catalog", "edit", "Court Star", "rank=10", "min_players=4")
    assert code == 1 and "min_players" in err and "is 3, not 4" in err, err
    assert _min_players(database, "meio/mine/court-star") is None  # refused: nothing changed


def test_the_web_editor_gives_min_players_from_the_rank(client: TestClient, database: Database) -> None:  # noqa: F811
    made = client.post(
        "/api/cards", json={"game": "meio", "values": {"name": "Web Star", "type": "playing card", "rank": 8}}
    )
    assert made.status_code == 201, made.text
    assert _min_players(database, made.json()["id"]) == 3
    refused = client.post(
        "/api/cards",
        json={"game": "meio", "values": {"name": "Web Star 2", "type": "playing card", "rank": 8, "min_players": 2}},
    )
    assert refused.status_code == 400 and "min_players" in json.dumps(refused.json()), refused.text


@pytest.mark.parametrize("write", ["export", "template"])
def test_a_database_from_before_the_rule_exports_and_imports_again(
    database: Database, tmp_path: Path, write: str
) -> None:
    """A card entered before min_players followed the rank holds one against it (or with no rank): its
    export or template, imported as it is, is no value given against the rank (the file repeats what
    was stored); the card then takes the rule's value."""
    from cardbase.db.io import export_catalog, write_template

    rows = "name,type,rank,suit,set\nOld Star,playing card,9,S,mine\nBlank Star,playing card,,S,mine\n"
    _import(database, tmp_path, rows)
    with database.transaction() as s:  # as a database from before the rule holds them
        for cid, players in (("meio/mine/old-star", 2), ("meio/mine/blank-star", 3)):
            card = s.get(Card, cid)
            assert card is not None
            card.min_players = players
            s.add(card)
    out = tmp_path / "written.csv"
    (export_catalog if write == "export" else write_template)(database, "meio", "csv", out)
    import_catalog(database, out, "meio")
    assert _min_players(database, "meio/mine/old-star") == 3
    assert _min_players(database, "meio/mine/blank-star") is None


def test_reverting_an_edit_puts_the_rank_back_and_min_players_follows(db_url: str, database: Database) -> None:
    """An edit's ``before`` may hold a min_players from before the rule (a rank unknown, min_players 3): a
    revert puts the rank back, and min_players follows it; it is not put back against the rank."""
    code, _, err = _cli(db_url, "catalog", "add", "--game", "meio", "name=Old Court", "type=playing card", "suit=S",
                        "set=mine")  # fmt: skip
    assert code == 0, err
    with database.transaction() as s:  # as a database from before the rule holds it
        card = s.get(Card, "meio/mine/old-court")
        assert card is not None
        card.min_players = 3
        s.add(card)
    code, _, err = _cli(db_url, "catalog", "edit", "Old Court", "rank=12")
    assert code == 0, err
    assert _min_players(database, "meio/mine/old-court") == 4
    code, out, _ = _cli(db_url, "catalog", "history", "Old Court", "--json")
    edit_id = max(e["id"] for e in json.loads(out)["edits"] if e["action"] == "edit")
    code, _, err = _cli(db_url, "catalog", "history", "Old Court", "--revert", str(edit_id))
    assert code == 0, err
    assert _min_players(database, "meio/mine/old-court") is None  # the rank is unknown again
