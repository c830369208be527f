"""Cards added and edited one at a time: the import's checks, stable ids, aliases on rename, history,
revert, ETag/412 on concurrent edits, art uploads judged by content; CLI and web."""

from __future__ import annotations

import hashlib
import io
import json
import re
import threading
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from PIL import Image
from typer.testing import CliRunner

from cardbase.cli.app import app
from cardbase.db.edit import StaleEdit, card_history, card_state, edit_card
from cardbase.db.engine import Database
from cardbase.db.queries import find_card

runner = CliRunner()


def run(db_url: str, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, [*args, "--db", db_url])
    return result.exit_code, result.stdout, result.stderr


def show(db_url: str, name: str) -> dict:
    code, out, err = run(db_url, "cards", "show", name, "--json")
    assert code == 0, err
    return json.loads(out)


def test_add_edit_rename_history_revert(db_url: str, tmp_path: Path) -> None:
    code, out, err = run(
        db_url, "catalog", "add", "--game", "mea", "name=Ember Fox", "type=monster", "cost=2", "atk=2", "set=mine"
    )
    assert code == 0, err
    card = show(db_url, "Ember Fox")
    assert card["id"] == "mea/mine/ember-fox" and card["source"] == "user" and card["defence"] is None
    assert card["unknown"] == ["defence"]  # not given: unknown, never guessed
    assert run(db_url, "catalog", "edit", "ember fox", "def=1", "text=When summoned: Draw 1 card.")[0] == 0
    short = card["short_id"]
    # a deck and a share code that name it, made before the rename
    deck = tmp_path / "fox.txt"
    deck.write_text("game: mea\n2 Ember Fox\n", encoding="utf-8")
    code, out, _ = run(db_url, "deck", "encode", str(deck))
    share = out.strip()
    code, out, err = run(db_url, "catalog", "edit", "Ember Fox", "name=Cinder Fox")
    assert code == 0 and "name: Ember Fox → Cinder Fox" in out, err
    renamed = show(db_url, "Cinder Fox")
    assert renamed["id"] == "mea/mine/ember-fox" and renamed["short_id"] == short  # the id is stable
    assert renamed["aliases"] == ["Ember Fox"] and renamed["defence"] == 1
    assert show(db_url, "ember fox")["name"] == "Cinder Fox"  # the old name still finds it
    code, out, _ = run(db_url, "deck", "show", str(deck), "--json")
    assert [c["name"] for c in json.loads(out)["cards"]] == ["Cinder Fox"]
    code, out, _ = run(db_url, "deck", "decode", share, "--json") if False else run(db_url, "deck", "decode", share)
    assert code == 0 and "Cinder Fox" in out
    code, out, _ = run(db_url, "catalog", "history", "Cinder Fox", "--json")
    edits = json.loads(out)["edits"]
    assert [e["action"] for e in edits] == ["edit", "edit", "add"] and all(e["who"] == "cli" for e in edits)
    assert edits[0]["before"] == {"name": "Ember Fox", "aliases": []}
    assert edits[0]["after"] == {"name": "Cinder Fox", "aliases": ["Ember Fox"]}
    assert edits[1]["before"]["defence"] is None and edits[1]["after"]["defence"] == 1
    code, out, err = run(db_url, "catalog", "history", "Cinder Fox", "--revert", str(edits[1]["id"]))
    assert code == 0, err
    back = show(db_url, "Cinder Fox")
    assert back["defence"] is None and back["text"] is None and back["name"] == "Cinder Fox"
    code, out, _ = run(db_url, "catalog", "history", "Cinder Fox", "--json")
    assert next(e["action"] for e in json.loads(out)["edits"]) == "revert"  # a new edit: nothing lost
    assert run(db_url, "cards", "search", "source:user", "--json")[0] == 0


def test_an_edit_keeps_a_file_source_and_a_demo_card_becomes_the_users(db_url: str, tmp_path: Path) -> None:
    sheet = tmp_path / "mine.csv"
    sheet.write_text("name,type,cost,set\nEmber Fox,monster,2,mine\n", encoding="utf-8")
    assert run(db_url, "catalog", "import", str(sheet), "--game", "mea")[0] == 0
    run(db_url, "catalog", "edit", "Ember Fox", "cost=3")
    assert show(db_url, "Ember Fox")["source"] == "file:mine.csv"
    run(db_url, "catalog", "edit", "Crumb Goblin", "cost=2")
    goblin = show(db_url, "Crumb Goblin")
    assert goblin["source"] == "user" and goblin["cost"] == 2 and goblin["id"] == "mea/demo/crumb-goblin"
    code, out, _ = run(db_url, "cards", "search", "source:user", "--json")
    assert [c["name"] for c in json.loads(out)] == ["Crumb Goblin"]
    # an import of the renamed card by its new name updates it, never makes a second card
    run(db_url, "catalog", "edit", "Ember Fox", "name=Cinder Fox")
    sheet.write_text("name,type,cost,set\nCinder Fox,monster,4,mine\n", encoding="utf-8")
    code, out, err = run(db_url, "catalog", "import", str(sheet), "--game", "mea", "--json")
    assert code == 0 and json.loads(out)["inserted"] == 0, err
    assert show(db_url, "Cinder Fox")["cost"] == 4


@pytest.mark.parametrize(
    ("fields", "messages"),
    [
        (["cost=-1", "atk=x"], ["column 'cost': must be from 0 to 1000000", "column 'attack': a whole number"]),
        (["set=core"], ["a card's set is part of its id"]),
        (["foo=1"], ["'foo' is not a mea card field"]),
        (["name=#bad"], ["cannot start with '#'"]),
        (["type="], ["a card needs a type"]),
        (["type=dragon"], ["'dragon' is not a mea card type"]),
        (["text=a\x1bb"], ["control character U+001B"]),
        (["text=" + "x" * 10_001], ["over the bound of 10,000"]),
        (["name=" + "N" * 201], ["longer than 200 characters"]),
        (['abilities=[{"trigger": "nope"}]'], ["column 'abilities'"]),
        (["cost"], ["write FIELD=VALUE"]),
        (["cost=1", "cost=2"], ["given twice"]),
    ],
)
def test_bad_values_are_refused_by_the_imports_rules(db_url: str, database: Database, fields, messages) -> None:
    before = card_state(database, "mea/demo/crumb-goblin")[2]
    code, _out, err = run(db_url, "catalog", "edit", "Crumb Goblin", *fields)
    assert code in (1, 2) and "Traceback" not in err, err
    for message in messages:
        assert message in err, err
    assert card_state(database, "mea/demo/crumb-goblin")[2] == before
    assert card_history(database, "mea/demo/crumb-goblin") == []


def test_a_name_another_card_has_is_refused(db_url: str, database: Database) -> None:
    code, _, err = run(db_url, "catalog", "edit", "Crumb Goblin", "name=Dizzy Bat")
    assert code == 1 and "already has this name" in err
    code, _, err = run(db_url, "catalog", "add", "--game", "mea", "name=dizzy bat", "type=monster", "set=demo")
    assert code == 1 and "already has the card 'Dizzy Bat'" in err
    code, _, err = run(db_url, "catalog", "add", "--game", "mea", "name=Nameless")
    assert code == 1 and "a new card needs a type" in err


def test_concurrent_edits_of_one_card_one_wins_the_other_is_stale(database: Database) -> None:
    cid = "mea/demo/crumb-goblin"
    seen = card_state(database, cid)[2]
    results: list[object] = []
    barrier = threading.Barrier(8)

    def writer(cost: int) -> None:
        barrier.wait()
        try:
            results.append(edit_card(database, cid, {"cost": str(cost)}, "test", expected=frozenset([seen])))
        except StaleEdit as error:
            results.append(error)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(2, 10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    won = [r for r in results if not isinstance(r, StaleEdit)]
    assert len(won) == 1 and len(results) == 8
    assert all(isinstance(r, StaleEdit) and r.current == won[0].version for r in results if r is not won[0])
    assert len(card_history(database, cid)) == 1


def _png(size: tuple[int, int] = (64, 44), fmt: str = "PNG") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, "#3366aa").save(out, format=fmt)
    return out.getvalue()


def test_web_editor_history_etag_and_art(client: TestClient, database: Database, tmp_path: Path) -> None:
    assert client.get("/cards/new?game=mea").status_code == 200
    made = client.post(
        "/api/cards", json={"game": "mea", "values": {"name": "Ember Fox", "type": "monster", "set": "mine"}}
    )
    assert made.status_code == 201 and made.headers["etag"] == f'"card-{made.json()["version"]}"'
    cid = made.json()["id"]
    first = made.headers["etag"]
    edited = client.patch(f"/api/cards/{cid}", json={"values": {"cost": 3}}, headers={"If-Match": first})
    assert edited.status_code == 200 and edited.json()["changed"] == {"cost": {"before": None, "after": 3}}
    stale = client.patch(f"/api/cards/{cid}", json={"values": {"cost": 4}}, headers={"If-Match": first})
    assert stale.status_code == 412 and stale.headers["etag"] == edited.headers["etag"]
    assert "changed since you read it" in stale.json()["error"]["message"]
    history = client.get(f"/api/cards/{cid}/history").json()
    assert [e["action"] for e in history["edits"]] == ["edit", "add"] and history["edits"][0]["who"]
    # the page form: a stale version is 412 with the values kept; the current one saves
    page = client.get(f"/cards/{cid}/edit")
    assert page.status_code == 200 and 'id="card-editor"' in page.text
    stale_form = client.post(
        f"/cards/{cid}/edit", data={"version": "old", "name": "Ember Fox", "type": "monster", "cost": "5"}
    )
    assert stale_form.status_code == 412 and "Changed elsewhere" in stale_form.text
    good = client.post(
        f"/cards/{cid}/edit",
        data={"version": history["version"], "name": "Ember Fox", "type": "monster", "cost": "5"},
        follow_redirects=False,
    )
    assert good.status_code == 303 and find_card(database.session(), "Ember Fox").cost == 5
    bad = client.post(f"/cards/{cid}/edit", data={"name": "Ember Fox", "type": "monster", "cost": "x"})
    assert bad.status_code == 400 and "column &#39;cost&#39;" in bad.text
    reverted = client.post(
        f"/cards/{cid}/history/{client.get(f'/api/cards/{cid}/history').json()['edits'][0]['id']}/revert"
    )
    assert reverted.status_code == 200 and "Reverted" in reverted.text
    assert find_card(database.session(), "Ember Fox").cost == 3
    # preview: a PNG of unsaved values, or every problem; nothing stored
    before = card_state(database, cid)[2]
    png = client.post("/api/cards/preview", json={"card": cid, "values": {"name": "Ember Fox", "cost": "7"}})
    assert png.status_code == 200 and png.content.startswith(b"\x89PNG")
    refused = client.post(
        "/api/cards/preview", json={"game": "mea", "values": {"name": "X", "type": "monster", "cost": "x"}}
    )
    assert refused.status_code == 400 and refused.json()["error"]["problems"] == [
        "column 'cost': a whole number (or empty or ? for unknown), not 'x'"
    ]
    assert card_state(database, cid)[2] == before
    # art: judged by content; stored where the CLI finds it
    images = tmp_path / "card_images"
    stored = client.put(f"/api/cards/{cid}/art", files={"file": ("fox.webp", _png(fmt="WEBP"), "image/webp")})
    assert stored.status_code == 200 and stored.json()["path"] == "mea/ember-fox.webp"
    assert (images / "mea" / "ember-fox.webp").is_file()
    for data, name, why in [
        (b"<svg xmlns='http://www.w3.org/2000/svg'/>", "fox.png", "not a PNG, JPEG or WebP"),
        (b"", "fox.png", "the file is empty"),
        (_png()[:60], "fox.png", "not a PNG, JPEG or WebP"),
        (_png(fmt="GIF"), "fox.gif", "a GIF image"),
        (_png(fmt="BMP"), "fox.png", "a BMP image"),
    ]:
        answer = client.put(f"/api/cards/{cid}/art", files={"file": (name, data, "image/png")})
        assert answer.status_code == 400 and why in answer.json()["error"]["message"], (why, answer.text)
        assert str(images) not in answer.text
    big = client.put(f"/api/cards/{cid}/art", files={"file": ("big.png", b"\0" * 10_000_001, "image/png")})
    assert big.status_code == 413
    assert sorted(p.name for p in (images / "mea").iterdir()) == ["ember-fox.webp"]
    replaced = client.put(f"/api/cards/{cid}/art", files={"file": ("fox.png", _png(), "image/png")})
    assert replaced.status_code == 200 and sorted(p.name for p in (images / "mea").iterdir()) == ["ember-fox.png"]
    arts = [e for e in client.get(f"/api/cards/{cid}/history").json()["edits"] if e["action"] == "art"]
    assert len(arts) == 2 and arts[0]["before"]["art"] == arts[1]["after"]["art"]
    assert client.get(f"/cards/{cid}/image.png?w=200").status_code == 200
    page = client.get(f"/cards/{cid}")
    assert "entered in cardbase" in page.text and 'id="edit-card"' in page.text


@pytest.mark.parametrize(("game", "query"), [("meikyu", "t:character"), ("meio", "hearts")])
def test_art_for_a_published_card_of_meikyu_and_meio(client: TestClient, game: str, query: str, tmp_path: Path) -> None:
    """Art is kept per game: a shipped Meikyu or Meio card gets its art beside the card's slug and the
    card's values (published, not entered here) are untouched. A Meikyu face is drawn with the art; a
    Meio playing card's layout has no art box (pips), which the answer and the editor say."""
    card = client.get("/api/cards", params={"q": f"game:{game} {query}", "limit": 1}).json()[0]
    cid = card["id"]
    values = client.get(f"/api/cards/{cid}").json()
    face = client.get(f"/cards/{cid}/image.png?w=200")
    assert face.status_code == 200 and face.content.startswith(b"\x89PNG")
    art = _png(fmt="JPEG")
    stored = client.put(f"/api/cards/{cid}/art", files={"file": ("art.jpg", art, "image/jpeg")})
    assert stored.status_code == 200, stored.text
    path = stored.json()["path"]
    assert path.startswith(f"{game}/") and path.endswith(".jpg")
    assert (tmp_path / "card_images" / path).is_file()
    drawn = client.get(f"/cards/{cid}/image.png?w=200")
    assert drawn.status_code == 200
    editor = client.get(f"/cards/{cid}/edit").text
    if game == "meio":
        assert drawn.content == face.content and "Meio playing card layout draws no art" in stored.json()["note"]
        assert "--layout FILE" in stored.json()["note"]  # the API keeps the command line's words
        assert 'id="art-note"' in editor and "printing from the command line" in editor and "--layout" not in editor
    else:
        assert drawn.content != face.content and stored.json()["note"] is None  # the face shows the art
        assert 'id="art-note"' not in editor
    with Image.open(io.BytesIO(drawn.content)) as image:
        assert image.width == 200
    assert client.get(f"/api/cards/{cid}").json() == values
    arts = [e for e in client.get(f"/api/cards/{cid}/history").json()["edits"] if e["action"] == "art"]
    assert len(arts) == 1 and arts[0]["after"]["art"] == hashlib.sha256(art).hexdigest()


def test_hostile_text_is_escaped_everywhere(client: TestClient) -> None:
    evil = '<script>alert(1)</script>"><img src=x onerror=alert(2)>'
    made = client.post(
        "/api/cards",
        json={"game": "mea", "values": {"name": "Evil Fox", "type": "monster", "text": evil, "notes": evil}},
    )
    assert made.status_code == 201
    cid = made.json()["id"]
    client.patch(f"/api/cards/{cid}", json={"values": {"description": evil}})
    for url in (f"/cards/{cid}", f"/cards/{cid}/edit", f"/cards/{cid}/history", "/cards?q=evil"):
        text = client.get(url).text
        assert "<script>alert(1)" not in text and "<img src=x" not in text, url
    named = client.post("/api/cards", json={"game": "mea", "values": {"name": evil[:40], "type": "monster"}})
    assert named.status_code == 201  # the import's name rules allow '<': it is escaped wherever it shows
    for url in (f"/cards/{named.json()['id']}", f"/cards/{named.json()['id']}/history", "/cards?q=script"):
        assert "<script>alert(1)" not in client.get(url).text, url
    too_many = client.post("/api/cards", json={"game": "mea", "values": {f"f{n}": "1" for n in range(41)}})
    assert too_many.status_code == 400


@pytest.mark.parametrize(
    ("game", "values", "edit", "field", "other_games_field"),
    [
        (
            "meikyu",
            {"name": "Brave Owl", "type": "character", "bravery": 2, "wits": 1, "set": "mine"},
            {"wits": 3},
            "wits",
            "cost",
        ),
        (
            "meio",
            {"name": "Star Ace", "type": "playing card", "rank": 1, "suit": "S", "set": "mine"},
            {"rank": 13},
            "rank",
            "text",
        ),
    ],
)
def test_the_editor_takes_every_games_fields(
    client: TestClient, database: Database, game, values, edit, field, other_games_field
) -> None:
    page = client.get(f"/cards/new?game={game}")
    assert page.status_code == 200 and f'name="{field}"' in page.text
    made = client.post("/api/cards", json={"game": game, "values": values})
    assert made.status_code == 201, made.text
    cid = made.json()["id"]
    assert cid == f"{game}/mine/{values['name'].lower().replace(' ', '-')}"
    edited = client.patch(f"/api/cards/{cid}", json={"values": edit}, headers={"If-Match": made.headers["etag"]})
    assert edited.status_code == 200, edited.text
    follows = {"min_players": {"before": 2, "after": 4}} if game == "meio" else {}  # it follows the rank
    assert edited.json()["changed"] == {field: {"before": values[field], "after": edit[field]}} | follows
    refused = client.patch(f"/api/cards/{cid}", json={"values": {other_games_field: 1}})
    assert refused.status_code == 400 and f"not a {game} card field" in json.dumps(refused.json()["error"])
    assert client.get(f"/cards/{cid}/edit").status_code == 200
    history = client.get(f"/api/cards/{cid}/history").json()
    assert [e["action"] for e in history["edits"]] == ["edit", "add"]
    with database.session() as session:
        assert getattr(find_card(session, values["name"], game), field) == edit[field]


def test_an_unknown_value_says_why_by_the_cards_source(db_url: str, client: TestClient) -> None:
    """A card entered in cardbase whose cost was left empty is not missing from a rulebook: the card's
    page and ``cards show`` say the value was not entered, and how to give it; a rulebook card still
    says the rulebook does not give it."""
    code, _, err = run(
        db_url, "catalog", "add", "--game", "mea", "name=Mystery Imp", "type=monster", "def=2", "set=mine"
    )
    assert code == 0, err
    code, out, _ = run(db_url, "cards", "show", "Mystery Imp")
    said = " ".join(out.split())
    assert "unknown: cost, attack (not entered yet;" in said and "the rulebook" not in said
    assert "cardbase catalog edit" in said
    code, out, _ = run(db_url, "cards", "show", "grimor")
    assert "unknown: copies (the rulebook does not give them;" in " ".join(out.split())
    page = client.get("/cards/mea/mine/mystery-imp").text
    assert "Unknown: cost, attack (not entered yet;" in page and "the rulebook does not give" not in page
    grimoire = client.get("/cards/meikyu/core/grimoire").text
    assert "Unknown: copies (the rulebook does not give them;" in grimoire
    # an owner with the real card types its values here, without a spreadsheet
    unknown_line = grimoire.split("Unknown: copies", 1)[1].split("</p>", 1)[0]
    assert 'href="/cards/meikyu/core/grimoire/edit"' in unknown_line and 'href="/catalog"' in unknown_line


def test_history_shows_absent_notes_as_none_and_unknown_values_as_unknown(
    client: TestClient, database: Database
) -> None:
    """A card's notes, tags and aliases are the owner's: absent, never unknown — the history says
    ``(none)`` for them and keeps ``?`` for a value that is unknown (the web page and the command)."""
    from cardbase.db.edit import shown_value

    made = client.post(
        "/api/cards", json={"game": "mea", "values": {"name": "Note Fox", "type": "monster", "set": "mine"}}
    )
    cid = made.json()["id"]
    edited = client.patch(
        f"/api/cards/{cid}",
        json={"values": {"notes": "from the 2016 box", "cost": 2}},
        headers={"If-Match": made.headers["etag"]},
    )
    assert edited.status_code == 200, edited.text
    page = client.get(f"/cards/{cid}/history")
    row = re.search(r"<th scope=\"row\">notes</th><td>(.*?)</td><td>(.*?)</td>", page.text)
    assert row is not None and row.groups() == ("(none)", "from the 2016 box"), page.text
    cost = re.search(r"<th scope=\"row\">cost</th><td>(.*?)</td><td>(.*?)</td>", page.text)
    assert cost is not None and cost.groups() == ("?", "2")
    assert shown_value(None, field="tags") == "(none)" and shown_value(None, field="cost") == "?"


def test_the_command_shows_a_value_that_does_not_apply_as_a_dash_not_unknown(db_url: str) -> None:
    """A Meikyu character has no level: a land made a character clears its level, and the edit and the
    history say ``—`` (does not apply), as the card's page and the web history do; bravery, which it
    has, stays ``?``. A level typed on a character is refused (``test_applies``)."""
    code, out, err = run(db_url, "catalog", "add", "--game", "meikyu", "name=Dash Knight", "type=land", "level=5")
    assert code == 0, err
    code, out, err = run(db_url, "catalog", "edit", "Dash Knight", "type=character", "level=", "bravery=2")
    assert code == 0, err
    assert "level: 5 → —" in out and "bravery: — → 2" in out, out
    code, out, err = run(db_url, "catalog", "edit", "Dash Knight", "bravery=")
    assert code == 0 and "bravery: 2 → ?" in out, out
    code, out, err = run(db_url, "catalog", "history", "Dash Knight")
    assert code == 0 and "level: 5 → —" in out and "bravery: 2 → ?" in out, out
