"""``MeikyuState.position(...)`` refuses the positions the rulebook makes impossible, each with one
message naming the rule (``InvalidPosition.rule``), and keeps accepting the positions a game reaches
(docs/rules/meikyu.md, "Reading and setting up a position")."""

from __future__ import annotations

from typing import Any

import pytest

from cardbase.games.base import InvalidPosition
from cardbase.games.meikyu.engine import MeikyuState
from tests.meikyu.helpers import ROOMS4, position

FIVE = ["Unnamed room 5", "Unnamed room 6", "Unnamed room 7", "Unnamed room 8", "Unnamed room 9"]
TEN = [("Cave of the Dragon", True), ("Castle of the Tyrant", True), "Den of the Geister"]  # 5 + 4 + 1 points
NINE = [("Cave of the Dragon", True), ("Castle of the Tyrant", True)]  # 5 + 4

REFUSED: list[tuple[str, dict[str, Any], str, str]] = [
    ("a turn that is no seat", {"turn": 2}, "seat", "turn is a seat from 0 to 1"),
    ("a turn that is not a number", {"turn": True}, "seat", "not True"),
    ("more hands than seats", {"hands": [{}, {}, {"Bee": 1}]}, "seat", "hands gives 3 seats"),
    ("more kingdoms than seats", {"lands": [[], [], ["Unnamed room 5"]]}, "seat", "lands gives 3 seats"),
    ("a negative count of cards", {"hands": [{"Bee": -1}]}, "count", "P1 holds -1 copies of Bee"),
    ("a count that is no whole number", {"hands": [{"Bee": 1.5}]}, "count", "1.5 copies"),
    ("a negative count of Refugees", {"refugees": [0, -1]}, "count", "P2 has placed -1 Refugees"),
    ("a Refugee held in a hand", {"hands": [{"Refugee": 1}]}, "open-held", "P1 holds Refugee"),
    ("a Dungeon Storm held in a hand", {"hands": [{}, {"Dungeon Storm": 1}]}, "open-held", "P2 holds Dungeon Storm"),
    ("a sixth land", {"lands": [[*FIVE, "Unnamed room 10"]]}, "land-limit", "holds 6 lands, more than its limit of 5"),
    (
        "a sixth land with the Farm read as a point",
        {"lands": [[*FIVE, "Forest of the Manitou"]]},
        "land-limit",
        "limit of 5",
    ),
    (
        "a seventh land with the Farm read as a sixth slot",
        {"lands": [[*FIVE, "Unnamed room 10", "Forest of the Manitou"]], "rules_options": {"farm": "lands"}},
        "land-limit",
        "holds 7 lands, more than its limit of 6",
    ),
    (
        "five lands and a Refugee under refugee=land",
        {"lands": [FIVE], "refugees": [1], "rules_options": {"refugee": "land"}},
        "land-limit",
        "holds 6 lands and Refugees",
    ),
    ("three rooms while the Meikyu pile has cards", {"rooms": ROOMS4[:3]}, "rooms", "3 face-up rooms while"),
    ("no room while the Meikyu pile has cards", {"rooms": ()}, "rooms", "0 face-up rooms while"),
    (
        "five rooms under map_room=discarded",
        {"rooms": [*ROOMS4, "Unnamed room 5"], "rules_options": {"map_room": "discarded"}},
        "rooms",
        "5 face-up rooms",
    ),
    ("no room left at a turn's start", {"rooms": (), "meikyu_pile": []}, "game-over", "no room is face up"),
    (
        "no room left after a draw that was no Dungeon Storm",
        {"rooms": (), "meikyu_pile": [], "step": "action", "discards": ["Dungeon Tsunami"]},
        "game-over",
        "no room is face up",
    ),
    ("a kingdom at the goal at a turn's start", {"lands": [TEN]}, "game-over", "P1's kingdom is worth 10 points"),
    (
        "another player's kingdom at the goal at a turn's start",
        {"lands": [[], TEN], "turn": 0},
        "game-over",
        "P2's kingdom is worth 10",
    ),
    (
        "a kingdom at the goal after a draw that moved nothing",
        {"lands": [[], TEN], "step": "action"},
        "game-over",
        "P2's kingdom is worth 10",
    ),
    (
        "the turn player at the goal without its Refugee",
        {"lands": [TEN], "refugees": [1], "step": "action"},
        "game-over",
        "worth 11 points",
    ),
]


@pytest.mark.parametrize(("kwargs", "rule", "message"), [c[1:] for c in REFUSED], ids=[c[0] for c in REFUSED])
def test_an_impossible_position_is_refused_naming_the_rule(kwargs: dict[str, Any], rule: str, message: str) -> None:
    with pytest.raises(InvalidPosition, match=message) as refused:
        position(2, **kwargs)
    assert refused.value.rule == rule


ACCEPTED: list[tuple[str, dict[str, Any]]] = [
    ("five lands", {"lands": [FIVE]}),
    (
        "six lands with the Farm read as a sixth slot",
        {"lands": [[*FIVE, "Forest of the Manitou"]], "rules_options": {"farm": "lands"}},
    ),
    ("five lands and a Refugee, Refugees apart", {"lands": [FIVE], "refugees": [1]}),
    ("three rooms and an empty Meikyu pile", {"rooms": ROOMS4[:3], "meikyu_pile": []}),
    ("six rooms after Maps, rooms that stay", {"rooms": [*ROOMS4, "Unnamed room 5", "Unnamed room 6"]}),
    ("a kingdom one point short of the goal", {"lands": [NINE]}),
    (
        "the turn player's Refugee just drawn takes it to the goal",
        {"lands": [NINE], "refugees": [1], "step": "action"},
    ),
    (
        "a Dungeon Tsunami just drawn took a kingdom to the goal",
        {"lands": [[], TEN], "step": "action", "discards": ["Dungeon Tsunami"]},
    ),
    (
        "a Dungeon Storm just drawn on an empty Meikyu pile left no room",
        {"rooms": (), "meikyu_pile": [], "step": "action", "discards": ["Dungeon Storm"]},
    ),
    ("the last seat's turn", {"turn": 1}),
    ("OPEN cards in the discard pile and the Kingdom pile", {"discards": ["Dungeon Storm", "Bee"]}),
]


@pytest.mark.parametrize("kwargs", [c[1] for c in ACCEPTED], ids=[c[0] for c in ACCEPTED])
def test_a_position_a_game_reaches_is_accepted(kwargs: dict[str, Any]) -> None:
    state = position(2, **kwargs)
    assert not state.is_terminal


def test_the_game_ends_after_a_turn_begun_at_the_goal_by_the_turns_draw() -> None:
    """The position the check lets through is the one the End of the Game names: the turn goes on,
    and the game ends after it."""
    state = position(2, lands=[NINE], refugees=[1], step="action", hands=[{"Bee": 1}, {}])
    assert state.points(0) == 10
    state.apply(state.parse_action("resupply"))
    while not state.is_terminal:
        state.apply(state.sample_chance())
    assert state.outcome().winners == (0,)


def _swap_hidden(parts: Any) -> Any:
    hands, kpile, mpile, archives = parts
    k = kpile[0]
    hands[1][k] += 1  # P2 is dealt a card the pile still holds
    return hands, kpile, mpile, archives


def _own_hand(parts: Any) -> Any:
    hands, kpile, mpile, archives = parts
    k = hands[0].index(1)
    i = next(i for i, other in enumerate(kpile) if other != k)  # P1's card and a pile card of another kind swap
    hands[0][k] -= 1
    hands[0][kpile[i]] += 1
    kpile[i] = k
    return hands, kpile, mpile, archives


def _short_pile(parts: Any) -> Any:
    hands, kpile, mpile, archives = parts
    return hands, kpile[1:], mpile, archives


def _land_twice(parts: Any) -> Any:
    hands, kpile, mpile, archives = parts
    return hands, kpile, [mpile[0], *mpile[:-1]], archives


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (_swap_hidden, "P2's hand holds 1 cards as observed"),
        (_own_hand, "P1's own hand is the one observed"),
        (_short_pile, "observed sizes"),
        (_land_twice, "not every card of the pool once"),
    ],
)
def test_from_parts_refuses_hidden_cards_that_are_not_a_world_of_the_observation(change: Any, message: str) -> None:
    state = position(2, hands=[{"Bee": 1}, {"Cook": 1}])
    obs = state.observation(0)
    MeikyuState.from_parts(obs, *state.parts())  # the true deal is one
    with pytest.raises(InvalidPosition, match=message) as refused:
        MeikyuState.from_parts(obs, *change(state.parts()))
    assert refused.value.rule == "hidden-cards"
