"""A rules option the start form refuses, said as the form shows it: the option by the label the page
gives its field and the values as the form offers them (``yes or no``, a choice's words), not as the
command line names them (``second_half_leader``, ``true/false``); the API and the CLI keep their words."""

from __future__ import annotations

import html
import re

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import error_of


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
