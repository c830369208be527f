"""Class 8 (a refused value of a field that takes several kinds): the message and ``field`` name the
field as the request wrote it, and say every kind it takes. Pydantic names a union's failed member
in the error's place (``rules.rounds.str``, ``decks[0].DeckText``), and FastAPI's first error is the
first member's alone ("input should be a valid string" of a number field), so the answer named a
field the request does not have and half of what it takes."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.exceptions import RequestValidationError
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cardbase.web.errors import validation_field, validation_message

TAGS = ("str", "int", "bool", "float", "list[int]", "Inner", "none")


class Inner(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    text: str = Field(max_length=5)


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    plain: int = 0
    options: dict[str, str | int | bool] = {}
    items: list[int | Inner] = []
    choice: Inner | int | None = None
    nested: list[dict[str, float | list[int]]] = []


ODD: list[Any] = [1.5, None, [], {}, "x", True, [1.5], {"text": "much too long"}, {"other": 1}, 10**30]
FIELDS = {
    "plain": lambda v: v,
    "options": lambda v: {"rounds": v},
    "items": lambda v: [1, v],
    "choice": lambda v: v,
    "nested": lambda v: [{}, {"k": v}],
}
WHERE = {
    "plain": "plain",
    "options": "options.rounds",
    "items": "items[1]",
    "choice": "choice",
    "nested": "nested[1].k",
}


def _refusal(body: dict[str, Any]) -> RequestValidationError | None:
    try:
        Body.model_validate(body)
    except ValidationError as error:
        return RequestValidationError([{**e, "loc": ("body", *e["loc"])} for e in error.errors()])
    return None


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from(list(FIELDS)), value=st.sampled_from(ODD))
def test_a_refused_value_is_named_by_its_field_without_a_union_member(name: str, value: Any) -> None:
    error = _refusal({name: FIELDS[name](value)})
    if error is None:
        return
    field = validation_field(error)
    message = validation_message(error)
    assert field is not None and field.startswith(WHERE[name]), (field, error.errors())
    tail = field[len(WHERE[name]) :]
    assert not any(f".{tag}" in tail or tail.startswith(tag) for tag in TAGS), (field, error.errors())
    for tag in TAGS:
        assert f".{tag}:" not in message and f".{tag}." not in message, message


@pytest.mark.parametrize(
    ("rules", "said"),
    [
        ({"rounds": 1.5}, ["a valid string", "a valid integer", "a valid boolean"]),
        ({"rounds": None}, ["a valid string", "a valid integer"]),
        ({"rounds": []}, ["a valid string", "a valid integer"]),
    ],
)
def test_a_new_games_rule_of_no_kind_it_takes_names_the_rule_and_every_kind(
    rules: dict[str, Any], said: list[str], client: TestClient
) -> None:
    answer = client.post("/api/games", json={"game": "meio", "rules": rules})
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert error["field"] == "rules.rounds", error
    assert error["message"].startswith("rules.rounds: "), error
    for words in said:
        assert words in error["message"], error


def _int_rules() -> list[tuple[str, str]]:
    from cardbase.sim.registry import GAMES

    return [
        (game_id, name)
        for game_id, entry in GAMES.items()
        for name, (kind, _default) in entry.rule_defaults().items()
        if kind is int
    ]


@pytest.mark.parametrize(("game", "rule"), _int_rules())
def test_true_given_to_a_number_rule_is_quoted_as_the_request_wrote_it(
    game: str, rule: str, client: TestClient
) -> None:
    answer = client.post("/api/games", json={"game": game, "rules": {rule: True}})
    assert answer.status_code == 400, answer.text
    message = answer.json()["error"]["message"]
    assert rule in message and "'true'" in message and "'yes'" not in message, message
