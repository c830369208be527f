"""Every route of the JSON API through the ASGI test client: the CLI's ``--json`` shapes, the
errors (400 naming the parameter or term, 404, 409, 413) and all-or-nothing imports."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import error_of, new_deck

Cli = Callable[..., Any]


def _fill(client: TestClient, deck_id: int, cards: dict[str, int]) -> None:
    for name, count in cards.items():
        response = client.post(f"/api/decks/{deck_id}/cards", json={"name": name, "count": count})
        assert response.status_code == 200, response.text


RUSH = {"Crumb Goblin": 4, "Dizzy Bat": 4, "Crème Golem": 4, "Selounticia": 3, "Tripwire": 3, "Chemical Vial": 2}


def test_healthz_and_openapi(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    paths = client.get("/api/openapi.json").json()["paths"]
    assert "/api/decks/{deck_id}/cards" in paths and "/cards/{card_id}/image.png" in paths
    docs = client.get("/api/docs")
    assert docs.status_code == 200 and "POST /api/decks/{deck_id}/cards" in docs.text
    assert "http://" not in docs.text and "https://" not in docs.text  # offline: no CDN


def test_search_is_the_cli_array(client: TestClient, cli: Cli) -> None:
    query = "t:monster cost<=3 (o:draw or atk>=3)"
    got = client.get("/api/cards", params={"q": query, "game": "mea", "limit": 50})
    assert got.status_code == 200
    assert got.json() == cli("cards", "search", query, "--game", "mea", "--json") != []


def test_search_takes_the_ace_as_the_cli_does(client: TestClient, cli: Cli) -> None:
    low = client.get("/api/cards", params={"q": "rank<=2", "game": "meio", "ace": "low", "limit": 50}).json()
    assert low == cli("cards", "search", "rank<=2", "--game", "meio", "--ace", "low", "--json")
    high = client.get("/api/cards", params={"q": "rank<=2", "game": "meio", "limit": 50}).json()
    assert {c["id"] for c in high} < {c["id"] for c in low}  # the aces join the twos only when low
    bad = client.get("/api/cards", params={"ace": "middle"})
    assert bad.status_code == 400 and "middle" in error_of(bad)


def test_search_pages_and_counts(client: TestClient, cli: Cli) -> None:
    every = cli("cards", "search", "game:mea", "--limit", "200", "--json")
    first = client.get("/api/cards", params={"q": "game:mea", "limit": 60}).json()
    second = client.get("/api/cards", params={"q": "game:mea", "limit": 60, "offset": 60}).json()
    assert first + second == every[:120]
    assert client.get("/api/cards/count", params={"q": "game:mea"}).json() == {"count": len(every)}
    assert len(client.get("/api/cards", params={"limit": 5}).json()) == 5  # empty query: every card


def test_bad_query_is_400_naming_the_term(client: TestClient) -> None:
    response = client.get("/api/cards", params={"q": "t:monster cots<3"})
    assert response.status_code == 400
    assert "unknown field 'cots'" in error_of(response)
    assert response.json()["error"]["term"] == "cots"
    unclosed = client.get("/api/cards", params={"q": "(t:monster"})
    assert unclosed.status_code == 400 and "unclosed '('" in error_of(unclosed)


def test_a_regex_is_one_language_on_either_database(client: TestClient) -> None:
    """The README's ``\\pL`` is found on PostgreSQL as on SQLite (it was a "database error" there),
    and a construct no database runs alike is a 400 naming the term, before any SQL runs."""
    found = client.get("/api/cards", params={"q": "/^gr\\pL+e$/"})
    assert found.status_code == 200 and "Grimoire" in [card["name"] for card in found.json()]
    refused = client.get("/api/cards", params={"q": "t:monster /a\\Cb/"})
    assert refused.status_code == 400 and "\\C is not supported" in error_of(refused)
    assert refused.json()["error"]["term"] == "/a\\Cb/"


@pytest.mark.parametrize(
    ("params", "named"),
    [
        ({"limit": 10_001}, "limit"),
        ({"limit": 0}, "limit"),
        ({"limit": "many"}, "limit"),
        ({"offset": -1}, "offset"),
        ({"offset": 1_000_001}, "offset"),
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"q": "x" * 2001}, "2,001 characters"),
        ({"order": "colour"}, "colour"),
    ],
)
def test_search_parameters_are_bounded(client: TestClient, params: dict[str, Any], named: str) -> None:
    response = client.get("/api/cards", params=params)
    assert response.status_code == 400
    assert named in error_of(response)


def test_an_order_beside_its_setting_in_the_query_must_agree(client: TestClient) -> None:
    """``order``/``direction``/``ace`` beside ``order:``/``direction:``/``ace:`` in ``q``: refused when they
    differ (400, naming both; ``field`` the parameter), read when they agree."""
    refused = client.get("/api/cards", params={"q": "game:mea order:cmc", "order": "name"})
    assert refused.status_code == 400
    assert "order=name" in error_of(refused) and "'order:cmc' in the query" in error_of(refused)
    assert refused.json()["error"]["field"] == "order"
    direction = client.get("/api/cards", params={"q": "game:mea direction:desc", "direction": "asc"})
    assert direction.status_code == 400 and "direction=asc" in error_of(direction)
    same = client.get("/api/cards", params={"q": "game:mea order:cmc", "order": "cost", "limit": 5})
    assert same.status_code == 200
    assert same.json() == client.get("/api/cards", params={"q": "game:mea order:cost", "limit": 5}).json()


def test_one_card_is_cards_show(client: TestClient, cli: Cli) -> None:
    shown = cli("cards", "show", "grimor", "--json")
    assert client.get(f"/api/cards/{shown['id']}").json() == shown
    missing = client.get("/api/cards/mea/demo/no-such-card")
    assert missing.status_code == 404 and "unknown card" in error_of(missing)


def test_deck_lifecycle(client: TestClient, cli: Cli) -> None:
    deck_id = new_deck(client)
    assert client.get("/api/decks").json() == cli("deck", "list", "--json")
    _fill(client, deck_id, RUSH)
    shown = client.get(f"/api/decks/{deck_id}").json()
    cli_shown = cli("deck", "show", "db:Rush", "--json")
    assert {k: v for k, v in shown.items() if k != "info"} == cli_shown
    assert shown["info"]["id"] == deck_id and shown["info"]["cards"] == 20
    renamed = client.patch(f"/api/decks/{deck_id}", json={"name": "Rush 2"})
    assert renamed.status_code == 200 and renamed.json()["name"] == "Rush 2"
    copy = client.post(f"/api/decks/{deck_id}/duplicate")
    assert copy.status_code == 201 and copy.json()["name"] == "Rush 2 (copy)" and copy.json()["cards"] == 20
    named = client.post(f"/api/decks/{deck_id}/duplicate", json={"name": "Mine"})
    assert named.json()["name"] == "Mine"
    gone = client.delete(f"/api/decks/{copy.json()['id']}")
    assert gone.status_code == 200 and '"Crumb Goblin"' in gone.json()["export"]
    assert [d["name"] for d in client.get("/api/decks").json()] == ["Mine", "Rush 2"]
    undo = client.post("/api/decks/import", json={"text": gone.json()["export"], "name": "Rush 2 (copy)"})
    assert undo.status_code == 201 and undo.json()["cards"] == 20


def test_patch_sets_the_format_the_deck_is_checked_against(client: TestClient, cli: Any) -> None:
    deck_id = new_deck(client, "Hand", "meio")
    default = client.get(f"/api/decks/{deck_id}/validation").json()["format"]
    assert default == "4-players"  # a Meio deck of no player count: the whole deck's format
    kept = client.patch(f"/api/decks/{deck_id}", json={"format": "3-players"})
    assert kept.status_code == 200 and kept.json()["format"] == "3-players" and kept.json()["name"] == "Hand"
    assert client.get(f"/api/decks/{deck_id}/validation").json()["format"] == "3-players"
    assert cli("deck", "validate", "db:Hand", "--json")["format"] == "3-players"  # the CLI sees it too
    bad = client.patch(f"/api/decks/{deck_id}", json={"format": "bogus", "name": "Renamed"})
    assert bad.status_code == 400 and "meio has no format 'bogus'" in error_of(bad)
    assert client.get(f"/api/decks/{deck_id}").json()["info"]["name"] == "Hand", "nothing of a refused change"
    renamed = client.patch(f"/api/decks/{deck_id}", json={"name": "Hand 2"})
    assert renamed.json()["format"] == "3-players", "a field not given stays"
    reset = client.patch(f"/api/decks/{deck_id}", json={"format": None})
    assert reset.json()["format"] is None
    assert client.get(f"/api/decks/{deck_id}/validation").json()["format"] == default


def test_deck_errors(client: TestClient) -> None:
    deck_id = new_deck(client)
    new_deck(client, "Other")
    taken = client.post("/api/decks", json={"game": "mea", "name": "Rush"})
    assert taken.status_code == 409 and "already exists" in error_of(taken)
    assert client.patch(f"/api/decks/{deck_id}", json={"name": "Other"}).status_code == 409
    assert client.post("/api/decks", json={"game": "chess", "name": "X"}).status_code == 400
    assert "name" in error_of(client.post("/api/decks", json={"game": "mea", "name": ""}))
    assert "players" in error_of(client.post("/api/decks", json={"game": "meio", "name": "M", "players": 9}))
    assert "extra" in error_of(client.post("/api/decks", json={"game": "mea", "name": "Y", "colour": 1})).lower()
    assert client.post("/api/decks", content=b"{not json", headers={"content-type": "application/json"}).json() == {
        "error": {"message": "the request body is not valid JSON", "term": None}
    }
    for path in ("", "/validation", "/stats", "/draws", "/pdf", "/export"):
        for deck in (424242, 99_999_999_999_999):  # the second is past PostgreSQL's 32-bit ids
            missing = client.get(f"/api/decks/{deck}{path}")
            assert missing.status_code == 404 and f"no deck with id {deck}" in error_of(missing), path
    big = client.post("/api/decks/99999999999999/cards", json={"name": "Crumb Goblin"})
    assert big.status_code == 404
    assert client.get("/api/decks/abc").status_code == 400
    assert client.delete("/api/decks/424242").status_code == 404


def test_a_card_name_is_read_in_any_case_and_without_accents(client: TestClient) -> None:
    """The API's ``name`` and the builder's search box fold names as search does."""
    deck_id = new_deck(client)
    for typed, card in [
        ("JALAPENO IMP", "jalapeno-imp"),
        ("naive squire", "naive-squire"),
        ("Creme Golem", "creme-golem"),
    ]:
        added = client.post(f"/api/decks/{deck_id}/cards", json={"name": typed})
        assert added.status_code == 200 and added.json()["card"] == f"mea/demo/{card}", typed
    short = client.post(f"/api/decks/{deck_id}/cards", json={"name": "chateau"})  # a name, not a guess
    assert short.status_code == 404 and "did you mean 'Château Toad'?" in error_of(short)
    builder = client.get(f"/decks/{deck_id}", params={"q": "chateau"})
    assert builder.status_code == 200 and 'aria-label="Add Château Toad"' in builder.text


def test_adding_setting_and_removing_cards(client: TestClient) -> None:
    deck_id = new_deck(client)
    added = client.post(f"/api/decks/{deck_id}/cards", json={"name": "crumb goblin", "count": 3})
    assert added.json()["count"] == 3 and added.json()["card"] == "mea/demo/crumb-goblin"
    again = client.post(f"/api/decks/{deck_id}/cards", json={"card": "mea/demo/crumb-goblin"})
    assert again.json()["count"] == 4 and again.json()["deck"]["cards"] == 4
    side = client.post(f"/api/decks/{deck_id}/cards", json={"name": "Dizzy Bat", "section": "sideboard"})
    assert side.json()["count"] == 1
    assert client.put(f"/api/decks/{deck_id}/cards", json={"name": "Crumb Goblin", "count": 2}).json()["count"] == 2
    left = client.request("DELETE", f"/api/decks/{deck_id}/cards", json={"name": "Crumb Goblin", "count": 1})
    assert left.json()["count"] == 1
    cleared = client.request("DELETE", f"/api/decks/{deck_id}/cards", json={"name": "Crumb Goblin"})
    assert cleared.json()["count"] == 0
    shown = client.get(f"/api/decks/{deck_id}").json()
    assert shown["cards"] == [
        {
            "count": 1,
            "name": "Dizzy Bat",
            "id": "mea/demo/dizzy-bat",
            "section": "sideboard",
            "tags": [],
            "card_tags": [],
        }
    ]
    # errors: another game's card, an unknown card, bad counts, sections, neither or both of name and card
    other = client.post(f"/api/decks/{deck_id}/cards", json={"name": "Grimoire"})
    assert other.status_code == 400 and "'Grimoire' is a meikyu card, not mea" in error_of(other)  # whose it is
    by_id = client.post(f"/api/decks/{deck_id}/cards", json={"card": "meikyu/core/grimoire"})
    assert (by_id.status_code, error_of(by_id)) == (other.status_code, error_of(other))  # one refusal, either way
    assert client.post(f"/api/decks/{deck_id}/cards", json={"card": "../../etc/passwd"}).status_code == 404
    assert "count" in error_of(client.post(f"/api/decks/{deck_id}/cards", json={"name": "Dizzy Bat", "count": 1000}))
    assert "count" in error_of(client.put(f"/api/decks/{deck_id}/cards", json={"name": "Dizzy Bat", "count": -1}))
    assert "count" in error_of(client.put(f"/api/decks/{deck_id}/cards", json={"name": "Dizzy Bat"}))
    assert "sections" in error_of(
        client.post(f"/api/decks/{deck_id}/cards", json={"name": "Dizzy Bat", "section": "first half"})
    )
    assert "one of them" in error_of(client.post(f"/api/decks/{deck_id}/cards", json={}))
    absent = client.request("DELETE", f"/api/decks/{deck_id}/cards", json={"name": "Tripwire"})
    assert absent.status_code == 400 and "is not in deck" in error_of(absent)


PLAYERS_WORDS = ("text", "tip", "game", "see", "query")
"""What the API's deck problems add to the CLI's (``Problem.for_players``): the sentence and hint in
players' words, the game, the page the hint points to."""


def cli_validation(api: dict[str, Any]) -> dict[str, Any]:
    """The API's validation object without the players' words of its problems: the CLI's object."""
    for problem in api["problems"]:
        assert {"text", "tip"} <= set(problem) and "cardbase" not in (problem["tip"] or ""), problem
    return api | {"problems": [{k: v for k, v in p.items() if k not in PLAYERS_WORDS} for p in api["problems"]]}


def test_validation_stats_and_draws_are_the_cli_objects(client: TestClient, cli: Cli) -> None:
    deck_id = new_deck(client)
    _fill(client, deck_id, RUSH)
    got = cli_validation(client.get(f"/api/decks/{deck_id}/validation").json())
    assert got == cli("deck", "validate", "db:Rush", "--json")
    assert client.get(f"/api/decks/{deck_id}/stats").json() == cli("deck", "stats", "db:Rush", "--json")
    need = "2 t:monster cost<=3"
    got = client.get(f"/api/decks/{deck_id}/draws", params={"need": [need, "1 t:assist"], "cards": 6}).json()
    assert got == cli("draws", "db:Rush", "--need", need, "--need", "1 t:assist", "-c", "6", "--json")
    table = client.get(f"/api/decks/{deck_id}/draws", params={"need": need, "by_turn": 4}).json()
    assert table == cli("draws", "db:Rush", "--need", need, "--by-turn", "4", "--json")
    hands = client.get(f"/api/decks/{deck_id}/draws", params={"sample": 3, "seed": 7}).json()
    assert hands == cli("draws", "db:Rush", "--sample", "3", "--seed", "7", "--json")
    assert len(hands["hands"]) == 3
    report = client.get(f"/api/decks/{deck_id}/draws").json()
    assert report == cli("draws", "db:Rush", "--json")
    bad = client.get(f"/api/decks/{deck_id}/draws", params={"need": "2 cots<3"})
    assert bad.status_code == 400 and "cots" in error_of(bad)
    assert "seed" in error_of(client.get(f"/api/decks/{deck_id}/draws", params={"seed": -1}))
    assert "need" in error_of(client.get(f"/api/decks/{deck_id}/draws", params={"need": ["t:monster"] * 21}))
    assert "mana" in error_of(client.get(f"/api/decks/{deck_id}/draws", params={"mana": "a,b"}))
    players = client.get(f"/api/decks/{deck_id}/draws", params={"players": 3})
    assert players.status_code == 400 and error_of(players).startswith("players: is for Meikyu")
    valid = client.get(f"/api/decks/{deck_id}/validation").json()
    assert valid["valid"] is True and valid["cards"] == 20


def test_validation_lists_every_problem(client: TestClient, cli: Cli) -> None:
    deck_id = new_deck(client, "Small")
    _fill(client, deck_id, {"Crumb Goblin": 3})
    report = client.get(f"/api/decks/{deck_id}/validation").json()
    assert report["valid"] is False and [p["code"] for p in report["problems"]] == ["deck-size"]
    meio = new_deck(client, "Hand", "meio")
    got = cli_validation(client.get(f"/api/decks/{meio}/validation").json())
    assert got == cli("deck", "validate", "db:Hand", "--json")


def test_pdf_with_sheet_options(client: TestClient) -> None:
    from pypdf import PdfReader

    deck_id = new_deck(client)
    _fill(client, deck_id, RUSH)
    response = client.get(f"/api/decks/{deck_id}/pdf", params={"backs": True, "bleed": "3mm", "paper": "letter"})
    assert response.status_code == 200 and response.headers["content-type"] == "application/pdf"
    assert 'filename="rush.pdf"' in response.headers["content-disposition"]
    pdf = PdfReader(io.BytesIO(response.content))
    assert len(pdf.pages) >= 6  # 20 cards, 6 a letter sheet with 3 mm bleed: 4 sheets, fronts and backs
    assert round(float(pdf.pages[0].mediabox.width)) == 612  # letter, 8.5 in
    bad_options = (({"bleed": "300mm"}, "--bleed"), ({"paper": "napkin"}, "napkin"), ({"copies": 101}, "copies"))
    for params, named in bad_options:
        bad = client.get(f"/api/decks/{deck_id}/pdf", params=params)
        assert bad.status_code == 400 and named in error_of(bad), params


def test_export_and_import_round_trip_all_or_nothing(client: TestClient) -> None:
    deck_id = new_deck(client)
    _fill(client, deck_id, RUSH)
    client.post(f"/api/decks/{deck_id}/cards", json={"name": "Tripwire", "count": 2, "section": "maybe"})
    original = client.get(f"/api/decks/{deck_id}").json()["cards"]
    for fmt in ("text", "json", "code", "arena", "plain", "mtgo"):
        exported = client.get(f"/api/decks/{deck_id}/export", params={"format": fmt})
        assert exported.status_code == 200
        body = {"code": exported.text} if fmt == "code" else {"text": exported.text}
        made = client.post("/api/decks/import", json=body | {"name": f"back from {fmt}"})
        assert made.status_code == 201, made.text
        back = client.get(f"/api/decks/{made.json()['id']}").json()["cards"]
        assert sorted(back, key=str) == sorted(original, key=str), fmt  # a code keeps the cards, not their order
    no_maybe = client.get(f"/api/decks/{deck_id}/export", params={"format": "cod"})
    assert no_maybe.status_code == 400 and "no place for the section [maybe]" in error_of(no_maybe)
    code = client.get(f"/api/decks/{deck_id}/export?format=code").text
    shared = client.post("/api/decks/import", json={"code": code})
    assert shared.json()["name"] == "Imported mea deck"  # a code carries no name
    again = client.post("/api/decks/import", json={"code": code})
    assert again.json()["name"] == "Imported mea deck (copy)"
    before = client.get("/api/decks").json()
    bad = client.post("/api/decks/import", json={"text": "game: mea\n3 Crumb Goblin\n2 Nopeity\n1 Zzz\n"})
    assert bad.status_code == 400 and "nothing was written" in error_of(bad)
    assert len(bad.json()["error"]["problems"]) == 2
    assert client.get("/api/decks").json() == before
    assert client.post("/api/decks/import", json={"code": "!!!"}).status_code == 400
    assert "one of them" in error_of(client.post("/api/decks/import", json={}))
    taken = client.post("/api/decks/import", json={"text": "game: mea\n1 Crumb Goblin\n", "name": "Rush"})
    assert taken.status_code == 409
    replaced = client.post(
        "/api/decks/import", json={"text": "game: mea\n1 Crumb Goblin\n", "name": "Rush", "replace": True}
    )
    assert replaced.status_code == 201 and replaced.json()["cards"] == 1
    assert client.get(f"/api/decks/{deck_id}/export", params={"format": "xml"}).status_code == 400


def test_deck_text_over_its_bound_is_refused(client: TestClient) -> None:
    big = "game: mea\n" + "1 Crumb Goblin\n" * 70_000  # over 1 MB
    response = client.post("/api/decks/import", json={"text": big})
    assert response.status_code == 413 and "bytes" in error_of(response)


def test_diff(client: TestClient, cli: Cli) -> None:
    a = new_deck(client, "A")
    b = new_deck(client, "B")
    _fill(client, a, {"Crumb Goblin": 2})
    _fill(client, b, {"Crumb Goblin": 3, "Dizzy Bat": 1})
    diffed = client.get("/api/decks/diff", params={"a": a, "b": b}).json()
    assert diffed == cli("deck", "diff", "db:A", "db:B", "--json")
    assert client.get("/api/decks/diff", params={"a": a}).status_code == 400
    meio = new_deck(client, "M", "meio")
    assert client.get("/api/decks/diff", params={"a": a, "b": meio}).status_code == 400


def test_catalog_status_and_export(client: TestClient, cli: Cli) -> None:
    assert client.get("/api/catalog/status").json() == cli("catalog", "status", "--json")
    assert client.get("/api/catalog/status", params={"game": "meikyu"}).json() == cli(
        "catalog", "status", "--game", "meikyu", "--json"
    )
    for fmt, start in (("csv", b"name,"), ("json", b"{"), ("xlsx", b"PK")):
        exported = client.get("/api/catalog/export", params={"game": "meikyu", "format": fmt})
        assert exported.status_code == 200 and exported.content.lstrip().startswith(start), fmt
        assert f'filename="meikyu.{fmt}"' in exported.headers["content-disposition"]
    assert client.get("/api/catalog/export", params={"game": "meikyu", "format": "pdf"}).status_code == 400
    assert "game" in error_of(client.get("/api/catalog/export"))


def _upload(client: TestClient, text: str, dry_run: bool, name: str = "cards.csv") -> Any:
    return client.post(
        "/api/catalog/import",
        data={"game": "mea", "dry_run": str(dry_run).lower()},
        files={"file": (name, text.encode())},
    )


def test_catalog_import_dry_run_lists_every_bad_row_and_writes_nothing(client: TestClient) -> None:
    bad = "name,type,cost,attack\nGood One,monster,2,1\nBad Cost,monster,zz,1\nBad Atk,monster,1,huge\n"
    before = client.get("/api/catalog/status", params={"game": "mea"}).json()
    refused = _upload(client, bad, dry_run=True, name="../../etc/evil.csv")
    assert refused.status_code == 400
    assert error_of(refused) == "evil.csv: 2 problems, nothing was written"
    problems = refused.json()["error"]["problems"]
    assert [p.split(",")[0] for p in problems] == ["row 3", "row 4"]
    assert "cardbase-upload" not in refused.text  # the server's folder is never named
    good = "name,type,cost,attack\nGood One,monster,2,1\nGood Two,monster,3,2\n"
    dry = _upload(client, good, dry_run=True)
    assert dry.status_code == 200 and dry.json() | {"sets": []} == {
        "file": "cards.csv",
        "game": "mea",
        "rows": 2,
        "inserted": 2,
        "updated": 0,
        "unchanged": 0,
        "sets": [],
        "dry_run": True,
        "warnings": [],
    }
    assert client.get("/api/catalog/status", params={"game": "mea"}).json() == before
    assert client.get("/api/cards", params={"q": '"Good One"'}).json() == []
    done = _upload(client, good, dry_run=False)
    assert done.status_code == 200 and done.json()["inserted"] == 2
    assert [c["name"] for c in client.get("/api/cards", params={"q": '"Good One"'}).json()] == ["Good One"]
    assert "game" in error_of(client.post("/api/catalog/import", files={"file": ("a.csv", b"name\n")}))
    assert "file" in error_of(client.post("/api/catalog/import", data={"game": "mea"}))


def test_spreadsheet_upload_over_5_mb_is_413(client: TestClient) -> None:
    big = b"name,type\n" + b"x" * 5_000_001
    response = client.post("/api/catalog/import", data={"game": "mea"}, files={"file": ("big.csv", big)})
    assert response.status_code == 413 and "bytes" in error_of(response)


def test_unknown_route_and_method(client: TestClient) -> None:
    missing = client.get("/api/nothing")
    assert missing.status_code == 404 and "/api/nothing" in error_of(missing)
    assert client.put("/api/decks").status_code == 405


def test_a_field_name_with_control_characters_is_named_with_escapes(client: TestClient) -> None:
    """A JSON key the client chose, refused: the message named it with its raw ESC (sent as \\u001b,
    shown raw by any client); it is quoted as every refused value is (``\\x1b``)."""
    extra = client.post("/api/decks", json={"game": "mea", "name": "Rush", "bad\x1b[2J": 1})
    assert extra.status_code == 400
    assert error_of(extra) == "'bad\\x1b[2J': extra inputs are not permitted"
    value = client.post("/api/cards/preview", json={"game": "mea", "values": {"name\x1b[2J": {"a": 1}}})
    assert value.status_code == 400
    assert error_of(value) == "values.'name\\x1b[2J': a text or a whole number"


def test_the_catalog_import_answers_and_page_list_its_warnings(client: TestClient) -> None:
    """An import that clears a card's encoded abilities (its text changed without them) says so."""
    good = [{"trigger": "summoned", "effect": "draw", "amount": 1}]
    card = {"name": "Librarian", "type": "monster", "text": "When summoned: Draw 1 card.", "abilities": good}
    assert _upload(client, json.dumps([card]), dry_run=False, name="a.json").status_code == 200
    second = "name,text\nLibrarian,When summoned: Draw 2 cards.\n"
    dry = _upload(client, second, dry_run=True)
    assert dry.status_code == 200 and dry.json()["warnings"] == [
        "row 2: 'Librarian': its encoded abilities are cleared with its new text; give them in the "
        "'abilities' column to keep them"
    ]
    page = client.post("/catalog/import", data={"game": "mea"}, files={"sheet": ("b.csv", second.encode())})
    assert page.status_code == 200 and "its encoded abilities are cleared with its new text" in page.text


def test_an_import_routes_field_or_parameter_it_does_not_have_is_refused(client: TestClient) -> None:
    """A misspelt field was read past: "dryrun" made no dry run, and the file was imported for good."""
    before = client.get("/api/catalog/status", params={"game": "mea"}).json()
    refused = client.post(
        "/api/catalog/import",
        data={"game": "mea", "dryrun": "true"},
        files={"file": ("cards.csv", b"name,type\nGood One,monster\n")},
    )
    assert refused.status_code == 400 and "'dryrun' is not a field of this request" in error_of(refused)
    assert client.get("/api/catalog/status", params={"game": "mea"}).json() == before
    record = b'{"record": "cardbase.game", "game": "meio", "rules": {"players": 2}, "seed": 1}\n'
    refused = client.post("/api/replay", params={"sat": 1}, content=record)
    assert refused.status_code == 400 and "'sat' is not a parameter of this request" in error_of(refused)
    refused = client.post("/api/decks/import", params={"replce": "true"}, json={"text": "game: mea\n1 Crumb Goblin\n"})
    assert refused.status_code == 400 and "'replce' is not a parameter" in error_of(refused)


def test_a_field_it_does_not_have_is_refused_whatever_the_case_of_the_content_type(client: TestClient) -> None:
    """Media types are case-insensitive (RFC 9110 8.3.1): ``Multipart/Form-Data`` is read as a form, so
    its fields are checked as the lower-case one's (a misspelt ``dryrun`` was read past with it)."""
    before = client.get("/api/catalog/status", params={"game": "mea"}).json()
    body = (
        '--XyZ\r\nContent-Disposition: form-data; name="game"\r\n\r\nmea\r\n'
        '--XyZ\r\nContent-Disposition: form-data; name="dryrun"\r\n\r\ntrue\r\n'
        '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="cards.csv"\r\n'
        "Content-Type: text/csv\r\n\r\nname,type\nGood One,monster\n\r\n--XyZ--\r\n"
    )
    refused = client.post(
        "/api/catalog/import", content=body.encode(), headers={"Content-Type": "Multipart/Form-Data; boundary=XyZ"}
    )
    assert refused.status_code == 400 and "'dryrun' is not a field of this request" in error_of(refused), refused.text
    assert client.get("/api/catalog/status", params={"game": "mea"}).json() == before
