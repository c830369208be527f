"""A value in a field that the card's type does not have (a Meikyu character's level) is refused, by
one rule, wherever a card is written: import, ``catalog add``/``edit``, the web's editor and the API."""

from __future__ import annotations

import json
from pathlib import Path

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from cardbase.catalog.fields import APPLICABLE, inapplicable_values
from cardbase.catalog.loader import SHIPPED_FILES, read_shipped
from cardbase.cli.app import app

runner = CliRunner()
NO_LEVEL = "column 'level': a Meikyu character has no level; leave it empty"


def run(db_url: str, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, [*args, "--db", db_url])
    return result.exit_code, result.stdout, result.stderr


def show(db_url: str, name: str) -> dict:
    code, out, err = run(db_url, "cards", "show", name, "--game", "meikyu", "--json")
    assert code == 0, err
    return json.loads(out)


def test_an_import_lists_every_row_with_a_value_its_type_does_not_have(db_url: str, tmp_path: Path) -> None:
    sheet = tmp_path / "mine.csv"
    sheet.write_text(
        "name,type,level,bravery,points\n"
        "Nyx,character,5,2,\n"  # a new character with a level
        "Cook,,3,,\n"  # the shipped Cook (a character) given a level, its type not repeated
        "Old Hall,land,2,1,4\n",  # a land with bravery
        encoding="utf-8",
    )
    code, out, err = run(db_url, "catalog", "import", str(sheet), "--game", "meikyu")
    assert code == 1, (out, err)
    said = " ".join(err.split())
    assert f"row 2, {NO_LEVEL}" in said, said
    assert f"row 3, {NO_LEVEL}" in said, said
    assert "row 4, column 'bravery': a Meikyu land has no bravery; leave it empty" in said, said
    assert show(db_url, "Cook")["level"] is None


def test_catalog_add_and_edit_refuse_a_value_the_type_does_not_have(db_url: str) -> None:
    code, _, err = run(db_url, "catalog", "add", "--game", "meikyu", "name=Nyx", "type=character", "level=5")
    assert code == 1 and NO_LEVEL in " ".join(err.split()), err
    code, _, err = run(db_url, "catalog", "edit", "Cook", "--game", "meikyu", "level=5")
    assert code == 1 and NO_LEVEL in " ".join(err.split()), err
    assert show(db_url, "Cook")["level"] is None
    # a type change that leaves a value the new type does not have is refused, naming it
    assert run(db_url, "catalog", "add", "--game", "meikyu", "name=Nyx", "type=land", "level=2")[0] == 0
    code, _, err = run(db_url, "catalog", "edit", "Nyx", "--game", "meikyu", "type=character")
    assert code == 1, err
    assert "a Meikyu character has no level, and the card holds '2'; clear it first" in " ".join(err.split()), err
    assert run(db_url, "catalog", "edit", "Nyx", "--game", "meikyu", "type=character", "level=")[0] == 0
    assert show(db_url, "Nyx")["type"] == "character"


def test_the_api_and_the_web_editor_refuse_it(client: TestClient) -> None:
    body = {"game": "meikyu", "values": {"name": "Nyx", "type": "character", "level": 5}}
    answer = client.post("/api/cards", json=body)
    assert answer.status_code == 400, answer.text
    assert any(NO_LEVEL in p for p in answer.json()["error"]["problems"]), answer.text
    cook = client.get("/api/cards", params={"q": "game:meikyu cook"}).json()[0]["id"]
    answer = client.patch(f"/api/cards/{cook}", json={"values": {"level": 5}})
    assert answer.status_code == 400, answer.text
    assert any(NO_LEVEL in p for p in answer.json()["error"]["problems"]), answer.text
    page = client.post("/cards/new", data={"game": "meikyu", "name": "Nyx", "type": "character", "level": "5"})
    assert page.status_code == 400 and "a Meikyu character has no level" in page.text


def test_the_shipped_catalogs_hold_no_such_value() -> None:
    for filename in SHIPPED_FILES:
        data = read_shipped(filename)
        for card in data.cards:
            assert (data.game, card["type"]) in APPLICABLE
            assert inapplicable_values(data.game, card["type"], card) == (), (filename, card["name"])


def test_an_import_that_would_keep_a_stored_value_the_type_does_not_have_says_how_to_clear_it(
    db_url: str, tmp_path: Path
) -> None:
    """An empty cell keeps a stored value, so the import cannot clear one that a type change (or a
    database from before the rule) leaves inapplicable: it is refused, naming the command that clears it."""
    assert run(db_url, "catalog", "add", "--game", "meikyu", "name=Nyx", "type=land", "level=2", "set=mine")[0] == 0
    sheet = tmp_path / "mine.csv"
    sheet.write_text("name,type,level,set\nNyx,character,,mine\n", encoding="utf-8")
    code, out, err = run(db_url, "catalog", "import", str(sheet), "--game", "meikyu")
    said = " ".join(err.split())
    assert code == 1, (out, err)
    assert "row 2, column 'level': a Meikyu character has no level, and the card holds '2'" in said, said
    assert "an empty cell keeps it; clear it with `cardbase catalog edit meikyu/mine/nyx level=`" in said, said
    assert run(db_url, "catalog", "edit", "meikyu/mine/nyx", "level=")[0] == 0
    assert run(db_url, "catalog", "import", str(sheet), "--game", "meikyu")[0] == 0
    assert show(db_url, "Nyx")["type"] == "character"
