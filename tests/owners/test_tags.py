"""Tags on cards and on deck entries: the tag rule, tag: in every query, stats by tag, tags through
files (catalog export/import, deck text and JSON), the web forms and API; hostile tags."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cardbase.cli.app import app
from cardbase.db.engine import Database
from cardbase.db.search import search_cards
from cardbase.decks.files import parse_json, write_json
from cardbase.decks.text import parse_text, write_text
from cardbase.names import TAG_MAX, tag_list, tag_name

runner = CliRunner()
REPO = Path(__file__).resolve().parents[2]
RUSH = str(REPO / "examples" / "decks" / "mea-goblin-rush.txt")


def run(db_url: str, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, [*args, "--db", db_url])
    return result.exit_code, result.stdout, result.stderr


def names(database: Database, query: str) -> list[str]:
    with database.session() as session:
        return sorted(c.name for c in search_cards(session, query, None, 1_000))


def test_the_tag_rule() -> None:
    assert tag_name("  Combo   Piece ") == "combo piece" and tag_name("Über-Ramp") == "über-ramp"
    assert tag_name("除去") == "除去"
    for bad, why in [
        ("", "letter or digit"),
        ("---", "letter or digit"),
        ("a,b", "','"),
        ("a#b", "'#'"),
        ("x" * (TAG_MAX + 1), "at most 40"),
        ("a\x00b", "only, not"),
        ("<b>", "'<'"),
        ("tag:x", "':'"),
    ]:
        with pytest.raises(ValueError, match=why):
            tag_name(bad)
    assert tag_list("removal; Draw, removal") == ["removal", "draw"]
    with pytest.raises(ValueError, match="at most 100"):
        tag_list([f"t{n}" for n in range(10_000)])


@settings(deadline=None)  # no timing in tests: a loaded machine is not a failure
@given(st.lists(st.text(min_size=1, max_size=12), max_size=8))
def test_tag_names_are_stable(words: list[str]) -> None:
    for word in words:
        try:
            tag = tag_name(word)
        except ValueError:
            continue
        assert tag_name(tag) == tag and len(tag) <= TAG_MAX and "," not in tag and "#" not in tag


def test_card_tags_in_every_query(db_url: str, database: Database, tmp_path: Path) -> None:
    for card in ("Pocket Sand", "Tripwire", "Falling Piano"):
        assert run(db_url, "cards", "tag", card, "Removal")[0] == 0
    # a demo card is marked as the search table marks it (the line was "Tripwire: …", unmarked)
    assert run(db_url, "cards", "tag", "Tripwire", "cheap trick")[1] == "Tripwire [demo]: cheap trick, removal\n"
    assert run(db_url, "cards", "tag", "Grimoire")[1] == "Grimoire: no tags\n"  # a rulebook card: no mark
    assert names(database, "tag:removal") == ["Falling Piano", "Pocket Sand", "Tripwire"]
    assert names(database, 'tag:"cheap trick"') == ["Tripwire"]
    assert "Pocket Sand" not in names(database, "-tag:removal t:assist")
    assert set(names(database, "t:assist")) == set(names(database, "tag:removal t:assist")) | set(
        names(database, "-tag:removal t:assist")
    )  # -term is the complement of term
    assert run(db_url, "cards", "show", "Pocket Sand", "--json")[1].count('"removal"') == 1
    code, _, err = run(db_url, "cards", "search", "tag:a,b")
    assert code == 2 and "','" in err
    # the tag is the owner's note: the demo card stays the project's (source and DEMO mark)
    assert json.loads(run(db_url, "cards", "show", "Pocket Sand", "--json")[1])["source"] == "demo"
    history = json.loads(run(db_url, "catalog", "history", "Pocket Sand", "--json")[1])["edits"]
    assert history[0]["after"] == {"tags": ["removal"]}
    run(db_url, "cards", "tag", "Pocket Sand", "--remove", "removal")
    assert names(database, "tag:removal") == ["Falling Piano", "Tripwire"]
    # draws: exact, as every need
    run(db_url, "deck", "import", RUSH, "--name", "Rush")
    run(db_url, "deck", "add", "Rush", "Tripwire", "-n", "3")
    code, out, err = run(db_url, "draws", "db:Rush", "--need", "2 tag:removal", "--cards", "6", "--json")
    data = json.loads(out)
    cards = json.loads(run(db_url, "deck", "show", "Rush", "--json")[1])["cards"]
    tagged = sum(c["count"] for c in cards if c["name"] in ("Tripwire", "Falling Piano"))
    deck = sum(c["count"] for c in cards)
    assert code == 0 and data["needs"][0]["matching"] == tagged >= 3, err
    from math import comb

    p = sum(comb(tagged, k) * comb(deck - tagged, 6 - k) for k in range(2, min(tagged, 6) + 1)) / comb(deck, 6)
    assert data["probability"] == pytest.approx(p, abs=1e-12)


def test_entry_tags_in_deck_files_stats_and_draws(db_url: str, database: Database, tmp_path: Path) -> None:
    run(db_url, "deck", "import", RUSH, "--name", "Rush")
    assert run(db_url, "deck", "tag", "Rush", "Crumb Goblin", "Combo Piece")[1] == "Rush: Crumb Goblin: combo piece\n"
    code, _, err = run(db_url, "deck", "tag", "Rush", "Tile Titan", "x")
    assert code == 1 and "not in deck 'Rush'" in err
    run(db_url, "cards", "tag", "Crumb Goblin", "cheap")
    code, out, _ = run(db_url, "deck", "show", "Rush", "--json")
    goblin = next(c for c in json.loads(out)["cards"] if c["name"] == "Crumb Goblin")
    assert goblin["tags"] == ["combo piece"] and goblin["card_tags"] == ["cheap"]
    stats = json.loads(run(db_url, "deck", "stats", "Rush", "--json")[1])
    assert stats["by_tag"] == {"cheap": 3, "combo piece": 3}
    code, out, _ = run(db_url, "draws", "db:Rush", "--need", '1 tag:"combo piece"', "--cards", "5", "--json")
    assert json.loads(out)["needs"][0]["matching"] == 3
    # text and JSON keep entry tags; the share code does not (counts only)
    text = run(db_url, "deck", "export", "Rush")[1]
    assert "3 Crumb Goblin (demo)  # tags: combo piece" in text
    saved = tmp_path / "rush.txt"
    saved.write_text(text, encoding="utf-8")
    run(db_url, "deck", "import", str(saved), "--name", "Rush 2")
    again = json.loads(run(db_url, "deck", "export", "Rush 2", "--format", "json")[1])
    assert next(c for c in again["cards"] if c["name"] == "Crumb Goblin")["tags"] == ["combo piece"]
    # a bad tag in a file is a problem naming its line
    bad = tmp_path / "bad.txt"
    bad.write_text("game: mea\n3 Crumb Goblin  # tags: fine, not#ok\n", encoding="utf-8")
    code, out, _ = run(db_url, "deck", "validate", str(bad))
    assert code == 1 and "line 2" in out and "bad-tag" in out


def test_text_and_json_round_trip_tags() -> None:
    text = "game: mea\n2 Crumb Goblin (demo)  # tags: combo piece, cheap\n1 Puddle Knight  # just a note\n"
    deck = parse_text(text, "t")
    assert [line.tags for line in deck.lines] == [("combo piece", "cheap"), ()]
    from cardbase.decks.model import Deck, DeckCard

    value = Deck("mea", (DeckCard("mea/demo/crumb-goblin", "Crumb Goblin", 2, None, ("cheap", "combo piece")),))
    assert parse_text(write_text(value), "t").lines[0].tags == ("cheap", "combo piece")
    assert parse_json(write_json(value), "t").lines[0].tags == ("cheap", "combo piece")


def test_tags_survive_catalog_export_and_import(db_url: str, database: Database, tmp_path: Path) -> None:
    run(db_url, "cards", "tag", "Pocket Sand", "removal", "cheap")
    for fmt in ("csv", "json", "xlsx"):
        out = tmp_path / f"mea.{fmt}"
        assert run(db_url, "catalog", "export", "--game", "mea", "-f", fmt, "-o", str(out))[0] == 0
        run(db_url, "cards", "tag", "Pocket Sand", "--remove", "removal", "--remove", "cheap")
        assert names(database, "tag:removal") == []
        code, _, err = run(db_url, "catalog", "import", str(out), "--game", "mea")
        assert code == 0, err
        assert names(database, "tag:removal") == ["Pocket Sand"] and names(database, "tag:cheap") == ["Pocket Sand"]
    sheet = tmp_path / "many.csv"
    sheet.write_text(
        "name,set,tags\nPocket Sand,demo," + ";".join(f"t{n}" for n in range(10_000)) + "\n", encoding="utf-8"
    )
    code, _, err = run(db_url, "catalog", "import", str(sheet), "--game", "mea")
    assert code == 1 and "row 2, column 'tags'" in err and "over the bound of 10,000 for a cell" in err
    sheet.write_text(
        "name,set,tags\nPocket Sand,demo," + ";".join(f"t{n}" for n in range(101)) + "\n", encoding="utf-8"
    )
    code, _, err = run(db_url, "catalog", "import", str(sheet), "--game", "mea")
    assert code == 1 and "row 2, column 'tags': 101 tags; a card has at most 100" in err


def test_a_ten_thousand_tag_card_is_refused_whole(db_url: str, database: Database, client: TestClient) -> None:
    many = [f"t{n}" for n in range(10_000)]
    answer = client.post("/api/cards/mea/demo/pocket-sand/tags", json={"add": many})
    assert answer.status_code == 422 or answer.status_code == 400  # the body's bound (1,000 items), or the tag bound
    answer = client.post("/api/cards/mea/demo/pocket-sand/tags", json={"add": many[:101]})
    assert answer.status_code == 400 and "at most 100" in answer.json()["error"]["message"]
    assert names(database, "tag:t1") == []
    code, _, err = run(db_url, "cards", "tag", "Pocket Sand", *many[:101])
    assert code == 2 and "at most 100" in err


def test_web_tags_forms_api_and_escaping(client: TestClient, database: Database) -> None:
    from tests.web.conftest import new_deck

    evil = "<script>x</script>"
    assert client.post("/cards/mea/demo/pocket-sand/tags", data={"add": evil}).status_code == 400  # not a tag
    ok = client.post("/cards/mea/demo/pocket-sand/tags", data={"add": "Removal, draw"}, follow_redirects=False)
    assert ok.status_code == 303
    page = client.get("/cards/mea/demo/pocket-sand").text
    assert 'id="card-tags"' in page and "tag%3A%22removal%22" in page
    assert client.get("/api/cards/mea/demo/pocket-sand").json()["tags"] == ["draw", "removal"]
    gallery = client.get("/cards", params={"q": "tag:removal"})
    assert gallery.status_code == 200 and "Pocket Sand" in gallery.text
    deck_id = new_deck(client, "Tagged")
    client.post(f"/api/decks/{deck_id}/cards", json={"name": "Crumb Goblin", "count": 3})
    answer = client.post(f"/api/decks/{deck_id}/tags", json={"name": "Crumb Goblin", "add": ["combo piece"]})
    assert answer.status_code == 200 and answer.json()["tags"] == ["combo piece"]
    assert client.post(f"/api/decks/{deck_id}/tags", json={"name": "Tile Titan", "add": ["x"]}).status_code == 400
    form = client.post(
        f"/decks/{deck_id}/tags", data={"card": "mea/demo/crumb-goblin", "add": "finisher"}, follow_redirects=False
    )
    assert form.status_code == 303
    builder = client.get(f"/decks/{deck_id}").text
    assert '<span class="tag">combo piece</span>' in builder and '<span class="tag">finisher</span>' in builder
    data = client.get(f"/api/decks/{deck_id}").json()
    goblin = next(c for c in data["cards"] if c["name"] == "Crumb Goblin")
    assert goblin["tags"] == ["combo piece", "finisher"]
    odds = client.get(f"/decks/{deck_id}", params={"needs": '1 tag:"combo piece"'}).text
    assert "(3 match)" in odds
    by_tag = client.get(f"/decks/{deck_id}", params={"group": "tag"}).text  # the builder's list grouped by tag
    assert '<option value="tag" selected>tag</option>' in by_tag
    assert '<ul class="deck-list" data-group="tag:combo piece">' in by_tag
    assert "<script>x" not in client.get("/cards", params={"q": f"tag:{evil}"}).text


def test_a_blank_tag_in_a_list_is_refused_not_dropped() -> None:
    """A list's item is a tag given: a blank one is refused (a text's empty part, ``a,,b``, is a
    separator too many and is no tag)."""
    from cardbase.errors import UsageError

    for blank in ("", "   "):
        with pytest.raises(UsageError, match="a blank tag") as refused:
            tag_list(["removal", blank])
        assert refused.value.value == blank
    assert tag_list("removal,, draw,") == ["removal", "draw"]


@pytest.mark.parametrize("where", ["card", "deck"])
def test_a_blank_tag_in_a_json_list_is_a_worded_400_naming_its_field(client: TestClient, where: str) -> None:
    from tests.web.conftest import new_deck

    if where == "card":
        url, body = "/api/cards/mea/demo/pocket-sand/tags", {"add": ["removal", " "]}
    else:
        deck_id = new_deck(client, "Tagged")
        client.post(f"/api/decks/{deck_id}/cards", json={"name": "Crumb Goblin", "count": 3})
        url, body = f"/api/decks/{deck_id}/tags", {"name": "Crumb Goblin", "add": ["removal", " "]}
    answer = client.post(url, json=body)
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert error["field"] == "add[1]" and "a blank tag" in error["message"], error
    if where == "card":
        assert client.get("/api/cards/mea/demo/pocket-sand").json()["tags"] == []  # nothing written


def test_a_blank_tag_in_a_json_deck_file_names_its_place() -> None:
    from cardbase.errors import CardbaseError

    text = json.dumps({"game": "mea", "name": "T", "cards": [{"name": "Crumb Goblin", "count": 1, "tags": ["a", ""]}]})
    with pytest.raises(CardbaseError, match=r"cards\[1\]\.tags: a blank tag"):
        parse_json(text, "deck.json")


def test_a_tag_to_take_off_that_is_not_there_is_refused_naming_it(db_url: str, database: Database) -> None:
    """``cards tag "Pocket Sand" --remove removl`` (a typo) printed the card's tags and exited 0, as if
    it had taken one off: a tag that is not there is refused (exit 1, as ``deck remove`` of a card not
    in the deck), naming it and the tags there are, and nothing changes; on a card and on a deck's entry."""
    run(db_url, "cards", "tag", "Pocket Sand", "removal")
    code, out, err = run(db_url, "cards", "tag", "Pocket Sand", "--remove", "removl", "--remove", "removal")
    assert code == 1 and out == "", (out, err)
    assert "'Pocket Sand' has no tag 'removl' to take off; its tags: removal" in err
    assert names(database, "tag:removal") == ["Pocket Sand"]  # the other tag named was not taken off either
    code, _, err = run(db_url, "cards", "tag", "Tripwire", "--remove", "removal")
    assert code == 1 and "'Tripwire' has no tag 'removal' to take off; it has none" in err
    run(db_url, "deck", "import", RUSH, "--name", "Rush")
    run(db_url, "deck", "tag", "Rush", "Crumb Goblin", "combo piece")
    code, _, err = run(db_url, "deck", "tag", "Rush", "Crumb Goblin", "--remove", "combo")
    assert code == 1 and "Crumb Goblin in deck 'Rush' has no tag 'combo' to take off; its tags: combo piece" in err
    assert run(db_url, "deck", "tag", "Rush", "Crumb Goblin", "--remove", "Combo Piece")[1].strip().endswith("no tags")


def test_a_deck_tag_that_changes_nothing_makes_no_version(db_url: str) -> None:
    """``deck tag DECK CARD`` (which lists the entry's tags) and a tag added again each made a version
    "no change" and moved the deck's version on, so a builder open on the deck was then refused as
    "changed elsewhere": a tag call that changes nothing writes nothing."""
    run(db_url, "deck", "import", RUSH, "--name", "Rush")
    run(db_url, "deck", "tag", "Rush", "Crumb Goblin", "combo piece")

    def kept() -> list[str]:
        return [v["change"] for v in json.loads(run(db_url, "deck", "history", "Rush", "--json")[1])["versions"]]

    before = kept()
    assert before[0] == "tags of Crumb Goblin: combo piece"
    for again in (["combo piece"], [], ["Combo Piece"]):
        code, out, _ = run(db_url, "deck", "tag", "Rush", "Crumb Goblin", *again)
        assert code == 0 and out.strip() == "Rush: Crumb Goblin: combo piece", out
    assert kept() == before
