"""The table a game starts from, by the /play form and by POST /api/games: every field given a
value no table takes is refused (4xx) by one message that names the field — as the page labels it
(``P2``, ``assumption profile``, a rule's name) or as the JSON body spells it (``seats[1].agent``,
``rules.farm``, ``decks[0]``, with ``field`` in the error) — as the command line names its options.
The rules had refused ``unknown Meio agent 'bogus'`` without saying which seat, ``no assumption
profile 'bogus'`` without the field, and a Méa deck id without saying whose.

Generated from the form's own fields (``rule_fields`` for each game's rules options), not picked."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardbase.games.base import option_words
from cardbase.sim.table_setup import PLAYER_COUNTS, rule_fields
from tests.web.play_helpers import mea_decks

BAD_RULE = {"choice": "bogus", "yes/no": "maybe", "number": "x", "text": "bogus"}


def _base_form(game: str) -> dict[str, str]:
    players = PLAYER_COUNTS[game][0]
    form = {"game": game, "players": str(players), "seat0": "human"}
    form |= {f"seat{s}": "heuristic" for s in range(1, players)}
    if game == "mea":
        form |= {"deck0": "example:mea-goblin-rush.txt", "deck1": "example:mea-tile-control.txt"}
    if game == "meikyu":
        form["assume"] = "default"
    return form


def _form_cases() -> list[tuple[str, str, str, dict[str, str]]]:
    """(game, field, what the message must say, the form) for every field of every game's form."""
    cases = []
    for game in PLAYER_COUNTS:
        base = _base_form(game)
        cases.append((game, "game", "game", {**base, "game": "bogus"}))
        cases.append((game, "players", "players", {**base, "players": "9"}))
        cases.append((game, "seat1", "P2", {**base, "seat1": "bogus"}))
        cases.append((game, "seat1_options", "P2", {**base, "seat1": "search", "seat1_options": "bogus=1"}))
        cases.append((game, "seed", "seed", {**base, "seed": "x"}))
        if game == "mea":
            cases.append((game, "deck0", "P1's deck", {**base, "deck0": "db:999999"}))
            cases.append((game, "deck1", "P2's deck", {**base, "deck1": "example:bogus.txt"}))
        if game == "meikyu":
            cases.append((game, "assume", "assumption profile", {**base, "assume": "bogus"}))
        for field in rule_fields(game):
            name = field["name"]
            said = f"Invalid value for {option_words(name)!r}"  # the option in the words its field is labelled in
            cases.append((game, f"rule_{name}", said, {**base, f"rule_{name}": BAD_RULE[field["kind"]]}))
    return cases


FORM_CASES = _form_cases()


def _base_body(game: str) -> dict[str, Any]:
    players = PLAYER_COUNTS[game][0]
    body: dict[str, Any] = {"game": game, "seats": [{"agent": "human"}] + [{"agent": "heuristic"}] * (players - 1)}
    if game == "mea":
        body["decks"] = mea_decks()
    if game == "meikyu":
        body["assume"] = "default"
    return body


def _api_cases() -> list[tuple[str, str, dict[str, Any]]]:
    """(game, the field's path, the body) for every field of every game's body."""
    cases = []
    for game in PLAYER_COUNTS:
        base = _base_body(game)
        seats = [dict(s) for s in base["seats"]]
        cases.append((game, "game", {**base, "game": "bogus"}))
        cases.append((game, "seats[1].agent", {**base, "seats": [seats[0], {"agent": "bogus"}, *seats[2:]]}))
        cases.append((game, "seats[1].agent", {**base, "seats": [seats[0], {"agent": "search:bogus=1"}, *seats[2:]]}))
        if game == "mea":
            cases.append((game, "decks[1]", {**base, "decks": [base["decks"][0], 999999]}))
        if game == "meikyu":
            cases.append((game, "assume", {**base, "assume": "bogus"}))
        for field in rule_fields(game):
            name = field["name"]
            cases.append((game, f"rules.{name}", {**base, "rules": {name: BAD_RULE[field["kind"]]}}))
    return cases


API_CASES = _api_cases()


def test_the_cases_cover_every_rules_option_of_every_game() -> None:
    for game in PLAYER_COUNTS:
        names = {f["name"] for f in rule_fields(game)}
        assert names and {c[1] for c in FORM_CASES if c[0] == game} >= {f"rule_{n}" for n in names}
        assert {c[1] for c in API_CASES if c[0] == game} >= {f"rules.{n}" for n in names}


@pytest.mark.parametrize(("game", "field", "named", "form"), FORM_CASES, ids=[f"{c[0]}-{c[1]}" for c in FORM_CASES])
def test_a_start_form_field_refused_is_named(
    client: TestClient, game: str, field: str, named: str, form: dict[str, str]
) -> None:
    page = client.post("/play", data=form)
    assert 400 <= page.status_code < 500, page.status_code
    found = re.search(r'<div id="error"[^>]*><p>(.*?)</p>', page.text, re.S)
    assert found, page.text[:500]
    message = html.unescape(found.group(1))
    assert named in message or named.replace("_", " ") in message, message


@pytest.mark.parametrize(
    ("game", "field", "body"), API_CASES, ids=[f"{c[0]}-{c[1]}-{i}" for i, c in enumerate(API_CASES)]
)
def test_an_api_field_refused_is_named(client: TestClient, game: str, field: str, body: dict[str, Any]) -> None:
    response = client.post("/api/games", json=body)
    assert 400 <= response.status_code < 500, response.text
    error = response.json()["error"]
    if error.get("field") is None and field.startswith("rules."):  # the rules name their own option
        assert field.removeprefix("rules.") in error["message"], error
    else:
        assert error.get("field") == field and error["message"].startswith(f"Invalid value for '{field}': "), error
    assert client.get("/api/games").json() == []


@pytest.mark.parametrize("game", list(PLAYER_COUNTS))
def test_the_start_form_labels_each_rules_option_in_the_words_its_refusal_says(client: TestClient, game: str) -> None:
    """Each rules option's field is labelled in words (``max turns``), as a refusal of its value names it
    (the cases above), not by its id (``max_turns``, which the label's title gives for ``--rule``)."""
    page = client.get(f"/play?game={game}")
    assert page.status_code == 200
    grid = page.text.split('class="rule-grid"', 1)[1].split("</div>", 1)[0]
    labelled = re.findall(r"<label\b[^>]*>(.*?)<(?:select|input)\b[^>]*\bname=\"rule_(\w+)\"", grid, re.S)
    assert {name for _, name in labelled} == {f["name"] for f in rule_fields(game)}
    for label, name in labelled:
        words = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", label)).split())
        assert words == option_words(name), (name, label)


@pytest.mark.parametrize("which", ["a", "b"])
def test_a_query_parameter_refused_is_named(client: TestClient, which: str) -> None:
    """Any route: the error handler names the query parameter given the refused text (which of
    ``diff``'s two decks is not there)."""
    made = client.post("/api/decks", json={"game": "mea", "name": "Here"})
    here = made.json()["id"]
    params = {"a": here, "b": here} | {which: 999_999}
    error = client.get("/api/decks/diff", params=params).json()["error"]
    assert error["field"] == which and error["message"].startswith(f"Invalid value for '{which}': "), error
    error = client.get("/api/cards", params={"q": "goblin", "game": "bogus"}).json()["error"]
    assert error["field"] == "game", error
