"""The collection: counts per card through the CLI and the web, files in and out, decks against it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from cardbase.cli.app import app
from cardbase.db.collection import MAX_OWNED
from cardbase.db.engine import Database
from tests.owners.helpers import owned, run

runner = CliRunner()
REPO = Path(__file__).resolve().parents[2]
RUSH = str(REPO / "examples" / "decks" / "mea-goblin-rush.txt")


def test_add_remove_set_and_show(db_url: str, database: Database) -> None:
    assert run(db_url, "collection", "add", "Crumb Goblin", "3")[1] == "you own 3 Crumb Goblin (mea, set demo)\n"
    assert run(db_url, "collection", "add", "crumb goblin", "2")[0] == 0
    assert run(db_url, "collection", "remove", "Crumb Goblin", "1")[1].startswith("you own 4 ")
    assert run(db_url, "collection", "remove", "Crumb Goblin", "9")[1].startswith("you own 0 ")  # never below none
    assert owned(database) == {}
    run(db_url, "collection", "set", "Grimoire", "2")
    run(db_url, "collection", "set", "Puddle Knight", "1")
    code, out, _ = run(db_url, "collection", "show", "--json")
    data = json.loads(out)
    assert code == 0
    assert {c["name"]: c["count"] for c in data["cards"]} == {"Grimoire": 2, "Puddle Knight": 1}
    assert {(t["game"], t["set"]): (t["cards"], t["copies"]) for t in data["totals"]} == {
        ("meikyu", "core"): (1, 2),
        ("mea", "demo"): (1, 1),
    }
    code, out, _ = run(db_url, "collection", "show", "--game", "mea")
    assert "Puddle Knight" in out and "Grimoire" not in out and "DEMO, not a published card" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("add", "Crumb Goblin", "0"), "from 1 to 99,999, not 0"),
        (("set", "Crumb Goblin", str(MAX_OWNED + 1)), "from 0 to 99,999, not 100000"),
        (("add", "Crumb Gobln", "1"), "Crumb Goblin"),
    ],
)
def test_bad_changes_are_refused_and_change_nothing(db_url: str, database: Database, args, message: str) -> None:
    code, out, err = run(db_url, "collection", *args)
    assert code in (1, 2) and message in err and "Traceback" not in err + out, (out, err)
    assert owned(database) == {}


def test_adding_past_the_bound_is_refused_whole(db_url: str, database: Database) -> None:
    run(db_url, "collection", "set", "Crumb Goblin", str(MAX_OWNED))
    code, _, err = run(db_url, "collection", "add", "Crumb Goblin", "1")
    assert code == 1 and "over the bound of 99,999" in err
    assert owned(database) == {"mea/demo/crumb-goblin": MAX_OWNED}


def test_import_export_round_trip(db_url: str, database: Database, tmp_path: Path) -> None:
    source = tmp_path / "mine.csv"
    source.write_text("name,set,count\nCrumb Goblin,demo,3\nCock,,2\nSelounticia,core,1\n", encoding="utf-8")
    code, out, err = run(db_url, "collection", "import", str(source), "--game", "mea", "--dry-run")
    assert code == 1 and "Cock" in err  # Cock is Meikyu's Cook: not a Méa card
    source.write_text("name,set,count\nCrumb Goblin,demo,3\nSelounticia,core,1\n", encoding="utf-8")
    code, out, err = run(db_url, "collection", "import", str(source), "--game", "mea", "--dry-run")
    assert code == 0 and "dry run" in out and owned(database) == {}
    assert "2 rows checked; would set 2 cards, 4 copies; 2 cards change" in out, out
    assert run(db_url, "collection", "import", str(source), "--game", "mea")[0] == 0
    meikyu = tmp_path / "meikyu.json"
    meikyu.write_text(json.dumps([{"game": "meikyu", "name": "Cock", "qty": 2}]), encoding="utf-8")
    code, out, _ = run(db_url, "collection", "import", str(meikyu))
    assert code == 0  # the alias finds Cook
    assert "1 row checked; set 1 card, 2 copies; 1 card changes" in out, out
    before = owned(database)
    assert before == {"mea/demo/crumb-goblin": 3, "mea/core/selounticia": 1, "meikyu/core/cook": 2}
    for fmt in ("csv", "json", "xlsx"):
        out_file = tmp_path / f"out.{fmt}"
        assert run(db_url, "collection", "export", "-o", str(out_file), "-f", fmt)[0] == 0
        assert run(db_url, "collection", "import", str(out_file), "--replace")[0] == 0
        assert owned(database) == before, fmt
    only = tmp_path / "only.csv"
    only.write_text("game,name,count\nmea,Crumb Goblin,1\n", encoding="utf-8")
    assert run(db_url, "collection", "import", str(only), "--replace")[0] == 0
    assert owned(database) == {"mea/demo/crumb-goblin": 1, "meikyu/core/cook": 2}  # other games kept


def test_a_bad_file_names_every_row_and_writes_nothing(db_url: str, database: Database, tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text(
        "name,set,count\nCrumb Goblin,demo,3\nCrumb Gobln,,2\nPuddle Knight,demo,x\nTile Mole,demo,100000\n"
        "Crumb Goblin,demo,1\n,demo,1\n",
        encoding="utf-8",
    )
    code, _out, err = run(db_url, "collection", "import", str(bad), "--game", "mea")
    assert code == 1
    assert "row 3, column 'name': no card named 'Crumb Gobln'; did you mean 'Crumb Goblin'" in err
    assert "row 4, column 'count'" in err and "row 5, column 'count': 100,000 is over the bound" in err
    assert "row 6, column 'name': 'Crumb Goblin' is the card of row 2" in err and "row 7: the row has no name" in err
    assert owned(database) == {}
    (tmp_path / "nocol.csv").write_text("card,how many\nx,1\n", encoding="utf-8")
    code, _, err = run(db_url, "collection", "import", str(tmp_path / "nocol.csv"))
    assert code == 1 and "not a collection column" in err and "no 'game' column" in err


def test_decks_report_what_is_owned_and_print_only_the_missing(db_url: str, database: Database, tmp_path: Path) -> None:
    run(db_url, "deck", "import", RUSH, "--name", "Rush")
    code, out, _ = run(db_url, "deck", "show", "Rush", "--json")
    assert json.loads(out)["collection"] is None  # no collection: nothing to say
    run(db_url, "collection", "add", "Crumb Goblin", "10")
    run(db_url, "collection", "add", "Puddle Knight", "1")
    data = json.loads(run(db_url, "deck", "validate", "Rush", "--json")[1])["collection"]
    lines = {c["name"]: c for c in data["cards"]}
    assert lines["Crumb Goblin"] == {
        "id": "mea/demo/crumb-goblin",
        "name": "Crumb Goblin",
        "needed": 3,
        "owned": 10,
        "missing": 0,
    }
    assert lines["Puddle Knight"]["missing"] == 2
    assert data["needed"] == 32 and data["owned"] == 4 and data["missing"] == 28 and not data["buildable"]
    code, out, _ = run(db_url, "deck", "show", "Rush")
    assert "collection: you own 4 of 32 cards; missing 28: 2 Puddle Knight" in out
    pdf = tmp_path / "missing.pdf"
    code, out, err = run(db_url, "print", "deck", "db:Rush", "--missing", "-o", str(pdf), "--json")
    assert code == 0, err
    assert json.loads(out)["cards"] == 28
    for name in ("Naïve Squire", "Grumbling Hedgehog"):
        run(db_url, "collection", "add", name, "3")
    rest = [c for c in lines.values() if c["missing"] and c["name"] not in ("Naïve Squire", "Grumbling Hedgehog")]
    for c in rest:
        runner.invoke(app, ["collection", "add", c["name"], str(c["missing"]), "--db", db_url])
    code, out, _ = run(db_url, "deck", "show", "Rush")
    assert "collection: you own every card of it (32)" in out
    code, _, err = run(db_url, "print", "deck", "db:Rush", "--missing", "-o", str(pdf))
    assert code == 1 and "you own every card of this deck" in err


def test_web_collection_pages_and_api(client: TestClient, database: Database) -> None:
    from tests.web.conftest import new_deck

    deck_id = new_deck(client, "Rush")
    assert client.post(f"/api/decks/{deck_id}/cards", json={"name": "Crumb Goblin", "count": 3}).status_code == 200
    page = client.get("/decks")
    assert "buildable-filter" not in page.text  # no collection yet: no filter
    assert client.get(f"/decks/{deck_id}").text.count('id="collection"') == 0
    answer = client.post("/api/collection", json={"name": "crumb goblin", "count": 2, "op": "add"})
    assert answer.status_code == 200 and answer.json()["count"] == 2
    assert client.get(f"/api/decks/{deck_id}/collection").json()["missing"] == 1
    builder = client.get(f"/decks/{deck_id}").text
    assert 'id="collection"' in builder and "own 2/3" in builder and 'id="print-missing"' in builder
    pdf = client.get(f"/decks/{deck_id}/print.pdf?missing=true")
    assert (
        pdf.status_code == 200 and pdf.content.startswith(b"%PDF") and "missing" in pdf.headers["content-disposition"]
    )
    assert "0 buildable" not in client.get("/decks?buildable=1").text
    assert f'data-deck-id="{deck_id}"' not in client.get("/decks?buildable=1").text
    form = client.post(
        "/collection/card",
        data={"card": "mea/demo/crumb-goblin", "op": "set", "count": "3", "back": "//evil.example/"},
        follow_redirects=False,
    )
    assert form.status_code == 303 and form.headers["location"] == "/collection"
    assert f'data-deck-id="{deck_id}"' in client.get("/decks?buildable=1").text
    assert client.get(f"/decks/{deck_id}/print.pdf?missing=true").status_code == 400  # nothing missing
    listing = client.get("/collection")
    assert "Crumb Goblin" in listing.text and "DEMO, not a published card" in listing.text
    assert client.get("/api/collection").json()["totals"] == [{"game": "mea", "set": "demo", "cards": 1, "copies": 3}]
    for bad in ({"name": "Crumb Goblin", "count": 100_000}, {"count": 1}, {"name": "x", "card": "y", "count": 1}):
        assert client.post("/api/collection", json=bad).status_code in (400, 422), bad
    refused = client.post("/collection/card", data={"card": "mea/demo/crumb-goblin", "count": "1e9"})
    assert refused.status_code == 400
    assert owned(database) == {"mea/demo/crumb-goblin": 3}


def test_the_collection_page_exports_what_was_entered_as_collection_import_reads_it(
    client: TestClient, database: Database, tmp_path: Path, db_url: str
) -> None:
    """An owner who entered their cards in the browser takes them away from the browser too: the page links
    a file in each form ``collection export`` writes (of the game shown, or all), which reads back."""
    for name, count in (("Crumb Goblin", 3), ("Cook", 2)):
        assert client.post("/api/collection", json={"name": name, "count": count}).status_code == 200
    before = owned(database)
    page = client.get("/collection?game=meikyu").text
    for fmt in ("csv", "xlsx", "json"):
        assert f'href="/api/collection/export?game=meikyu&amp;format={fmt}"' in page, fmt
    assert 'href="/api/collection/export?format=csv"' in client.get("/collection").text
    meikyu = client.get("/api/collection/export?game=meikyu&format=csv")
    assert meikyu.status_code == 200 and meikyu.headers["content-type"].startswith("text/csv")
    assert "collection" in meikyu.headers["content-disposition"]
    assert meikyu.text.splitlines() == ["game,name,set,count", "meikyu,Cook,core,2"]
    for fmt in ("csv", "json", "xlsx"):
        answer = client.get(f"/api/collection/export?format={fmt}")
        assert answer.status_code == 200, answer.text
        path = tmp_path / f"all.{fmt}"
        path.write_bytes(answer.content)
        assert run(db_url, "collection", "import", str(path), "--replace")[0] == 0
        assert owned(database) == before, fmt
    assert client.get("/api/collection/export?format=pdf").status_code in (400, 422)
    assert client.get("/api/collection/export?game=chess").status_code == 400


def test_concurrent_adds_all_count(database: Database) -> None:
    import threading

    from cardbase.db.collection import change_owned
    from cardbase.db.queries import find_card

    with database.session() as session:
        card = find_card(session, "Tile Mole")
    barrier = threading.Barrier(8)

    def add() -> None:
        barrier.wait()
        change_owned(database, card, 1, "add")

    threads = [threading.Thread(target=add) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert owned(database) == {"mea/demo/tile-mole": 8}


def test_a_json_collection_with_fields_beside_its_rows_is_refused(
    db_url: str, database: Database, tmp_path: Path
) -> None:
    """A JSON object's keys beside "cards" were read past: {"game": "meikyu", …} was imported as --game's."""
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"game": "mea", "cards": [{"name": "Crumb Goblin", "count": 2}]}), encoding="utf-8")
    code, _, err = run(db_url, "collection", "import", str(path), "--game", "mea")
    assert code == 2 and "'game' is not a field of a collection file" in " ".join(err.split()), err
    assert owned(database) == {}


def test_a_row_whose_game_is_not_the_game_asked_for_is_refused(db_url: str, database: Database, tmp_path: Path) -> None:
    """--game was overridden unseen by a row's own game (and --replace then dropped that game's cards)."""
    path = tmp_path / "c.csv"
    path.write_text("game,name,count\nmea,Crumb Goblin,2\nmeikyu,Cook,1\n", encoding="utf-8")
    code, _, err = run(db_url, "collection", "import", str(path), "--game", "mea")
    said = " ".join(err.split())
    assert code == 1 and "row 3, column 'game': 'meikyu' is not the game asked for (--game mea)" in said, said
    assert owned(database) == {}
    assert run(db_url, "collection", "import", str(path))[0] == 0  # without --game, each row's game
