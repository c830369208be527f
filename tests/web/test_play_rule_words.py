"""A rules option the start form refuses, said as the form shows it: the option by the label the page
gives its field and the values as the form offers them (``yes or no``, a choice's words), not as the
command line names them (``second_half_leader``, ``true/false``); the API and the CLI keep their words."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import error_of

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "decks"


def page_error(text: str) -> str:
    found = re.search(r'<div id="error"[^>]*>\s*<p>(.*?)</p>', text, re.S)
    assert found is not None, text[:2000]
    return html.unescape(found.group(1))


@pytest.mark.parametrize(
    ("game", "field", "value", "said"),
    [
        (
            "meio",
            "rule_second_half_leader",
            "maybe",
            "Invalid value for 'second half leader': 'maybe' is not winner or starter",
        ),
        ("meio", "rule_ace_high", "maybe", "Invalid value for 'ace high': 'maybe' is not yes or no"),
        ("meikyu", "rule_amulet_ask", "all", "Invalid value for 'amulet ask': 'all' is not holders or everyone"),
    ],
)
def test_a_refused_rules_option_is_said_as_the_form_shows_it(
    client: TestClient, game: str, field: str, value: str, said: str
) -> None:
    data = {"game": game, "players": "3", "seat0": "human", "seat1": "heuristic", "seat2": "heuristic", field: value}
    if game == "meikyu":
        data["assume"] = "default"
    response = client.post("/play", data=data)
    assert response.status_code == 400, response.text
    message = page_error(response.text)
    assert message == said
    assert client.get("/api/games").json() == []


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ({"second_half_leader": "maybe"}, "second_half_leader must be one of winner, starter, not 'maybe'"),
        ({"ace_high": "maybe"}, "rules option ace_high: 'maybe' is not yes or no (true/false)"),
    ],
)
def test_the_apis_message_keeps_the_options_words(client: TestClient, rules: dict[str, str], message: str) -> None:
    response = client.post("/api/games", json={"game": "meio", "players": 3, "rules": rules})
    assert response.status_code == 400, response.text
    assert error_of(response).endswith(message)


MEA_DECKS = {"deck0": "example:mea-goblin-rush.txt", "deck1": "example:mea-tile-control.txt"}


@pytest.mark.parametrize(
    ("game", "fields", "said"),
    [
        ("meio", {"rule_rounds": "many"}, "Invalid value for 'rounds': 'many' is not a whole number"),
        ("meio", {"rule_rounds": "0"}, "Invalid value for 'rounds': 0 is not from 1 to 100"),
        (
            "meio",
            {"rule_first_player": "7"},
            "Invalid value for 'first player': 7 is not a seat of 3 players: 0 (P1) to 2",
        ),
        ("meikyu", {"rule_turn_limit": "soon"}, "Invalid value for 'turn limit': 'soon' is not a whole number"),
        ("meikyu", {"rule_goal": "0"}, "Invalid value for 'goal': 0 is not a whole number from 1 to 10,000"),
        ("mea", {"rule_max_turns": "0"}, "Invalid value for 'max turns': 0 is not from 1 to 10,000"),
        ("mea", {"rule_mana_minimum": "-1"}, "Invalid value for 'mana minimum': -1 is not from 0 to 10,000"),
        (
            "mea",
            {"rule_layout": "bogus"},
            "Invalid value for 'layout': 'bogus' is not a layout: a name (checkerboard, sides) or rows of Y, B and . "
            "separated by /",
        ),
        (
            "mea",
            {"rule_layout": "YY/BB", "rule_tile_supply": "3"},
            "Invalid values for 'layout' and 'tile supply': the layout has 4 tiles, more than the tile supply of 3",
        ),
        (
            "mea",
            {"rule_layout": "YYY/BBB", "rule_tiles_per_colour": "2"},
            "Invalid values for 'layout' and 'tiles per colour': the layout gives P1 3 tiles, more than the 2 tiles "
            "per colour",
        ),
        (
            "mea",
            {"rule_layout": "YYY/.../BBB", "rule_board_size": "2"},
            "Invalid values for 'board size' and 'layout': a board of size 2 cannot hold the 3×3 starting layout",
        ),
    ],
)
def test_every_rules_option_refusal_names_the_option_in_words(
    client: TestClient, game: str, fields: dict[str, str], said: str
) -> None:
    """The class: a whole number, a layout, options that contradict each other — each refusal says the
    option as the form labels it (``max turns``, not ``max_turns`` nor ``rules option max_turns``),
    the value and why; the command line's message (the API's) keeps the ids it takes."""
    data = {"game": game, "players": "2" if game == "mea" else "3", "seat0": "human", "seat1": "heuristic"}
    data |= {"seat2": "heuristic"} if game != "mea" else MEA_DECKS
    data |= {"assume": "default"} if game == "meikyu" else {}
    response = client.post("/play", data={**data, **fields})
    assert response.status_code == 400, response.text
    message = page_error(response.text)
    assert message == said
    assert not re.search(r"\b[a-z]+_[a-z_]+\b|rules option|Méa option|Meio option|Meikyu option", message), message
    rules = {name.removeprefix("rule_"): value for name, value in fields.items()}
    body: dict[str, object] = {"game": game, "players": int(data["players"]), "rules": rules}
    if game == "mea":
        body["decks"] = [
            {"text": (EXAMPLES / name.removeprefix("example:")).read_text()} for name in MEA_DECKS.values()
        ]
    if game == "meikyu":
        body["assume"] = "default"
    api = client.post("/api/games", json=body)
    assert api.status_code == 400, api.text
    error = api.json()["error"]
    assert error["field"].removeprefix("rules.") in rules, error  # the API names the option's own field
    option_ids = [name for name in rules if "_" in name]
    assert all(name in error["message"] for name in option_ids), error  # the command line's words
    text = re.sub(r"'rules\.\w+'", "", error["text"])  # the players' words, but the API's own field
    assert not any(name in text for name in option_ids), error


def test_a_rules_option_over_its_length_is_said_by_the_options_words(client: TestClient) -> None:
    """A form sent with a layout longer than the field takes (the page's ``maxlength`` aside)."""
    data = {"game": "mea", "players": "2", "seat0": "human", "seat1": "heuristic", **MEA_DECKS}
    response = client.post("/play", data={**data, "rule_layout": "Y" * 2_000})
    assert response.status_code == 400, response.text
    message = page_error(response.text)
    assert message.startswith("Invalid value for 'layout': 'YYYY") and message.endswith("is over 993 characters long")
    assert "rules option" not in message and "(2,000 characters)" in message, message
