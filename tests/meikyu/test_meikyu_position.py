"""``MeikyuState.position(...)`` refuses the positions the rulebook makes impossible, each with one
message naming the rule (``InvalidPosition.rule``), and keeps accepting the positions a game reaches
(docs/rules/meikyu.md, "Reading and setting up a position")."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from cardbase.games.base import CHANCE, InvalidPosition
from cardbase.games.meikyu.engine import MeikyuRules, MeikyuState
from tests.meikyu.helpers import ROOMS4, default_pool, position

FIVE = ["Unnamed room 5", "Unnamed room 6", "Unnamed room 7", "Unnamed room 8", "Unnamed room 9"]
TEN = [("Cave of the Dragon", True), ("Castle of the Tyrant", True), "Den of the Geister"]  # 5 + 4 + 1 points
SEVEN = ["Bee", "Cook", "Daedalist", "Doctor", "Drone", "Executioner", "Happymancer"]
NINE = [("Cave of the Dragon", True), ("Castle of the Tyrant", True)]  # 5 + 4

REFUSED: list[tuple[str, dict[str, Any], str, str]] = [
    ("a step that is none", {"step": "discard"}, "step", "step is 'draw' or 'action', not 'discard'"),
    ("a turn that is no seat", {"turn": 2}, "seat", "turn is a seat from 0 to 1"),
    ("a turn that is not a number", {"turn": True}, "seat", "not True"),
    ("more hands than seats", {"hands": [{}, {}, {"Bee": 1}]}, "seat", "hands gives 3 seats"),
    ("more kingdoms than seats", {"lands": [[], [], ["Unnamed room 5"]]}, "seat", "lands gives 3 seats"),
    ("a negative count of cards", {"hands": [{"Bee": -1}]}, "count", "P1 holds -1 copies of Bee"),
    # Names given as one text (read letter by letter: "no land 'U' in the pool").
    ("a kingdom as one text", {"lands": ["Unnamed room 5"]}, "names", r"lands\[0\] is a list of card names, not"),
    ("the rooms as one text", {"rooms": "Unnamed room 5"}, "names", "rooms is a list of card names"),
    ("the discards as one text", {"discards": "Bee"}, "names", "discards is a list of card names"),
    ("the pile as one text", {"pile": "Bee"}, "names", "pile is a list of card names"),
    ("a count that is no whole number", {"hands": [{"Bee": 1.5}]}, "count", "1.5 copies"),
    ("a negative count of Refugees", {"refugees": [0, -1]}, "count", "P2 has placed -1 Refugees"),
    # A card the pool lacks, or more copies than it has: the field named (these were InvalidAction).
    ("an unknown card in a hand", {"hands": [{}, {"Dragon": 1}]}, "card", r"^hands\[1\]: no Kingdom card 'Dragon'"),
    ("too many copies in a hand", {"hands": [{"Bee": 99}]}, "copies", r"^hands\[0\]: more copies of Bee than"),
    ("an unknown land", {"lands": [[], ["Atlantis"]]}, "card", r"^lands\[1\]: no land 'Atlantis' in the pool"),
    ("an unknown room", {"rooms": [*ROOMS4[:3], "Atlantis"]}, "card", r"^rooms: no land 'Atlantis'"),
    ("an unknown discard", {"discards": ["Dragon"]}, "card", r"^discards: no Kingdom card 'Dragon'"),
    ("an unknown card in the pile", {"pile": ["Dragon"]}, "card", r"^pile: no Kingdom card 'Dragon'"),
    ("an unknown land in the pile", {"meikyu_pile": ["Atlantis"]}, "card", r"^meikyu_pile: no land 'Atlantis'"),
    ("a land twice", {"rooms": [*ROOMS4[:3], ROOMS4[0]]}, "copies", r"^rooms: more copies of"),
    ("too many Refugees", {"refugees": [99]}, "copies", r"^refugees\[0\]: more copies of Refugee than"),
    ("a hand that is no mapping", {"hands": [["Bee"]]}, "names", r"^hands\[0\] maps card names to copies"),
    ("a land that is no name", {"lands": [[7]]}, "names", r"^lands\[0\]: a land is a name or \(name, developed\)"),
    ("a card that is no name", {"discards": [7]}, "names", r"^discards: a card is given by its name, not 7"),
    ("a room that is no name", {"rooms": [1, 2, 3, 4]}, "names", r"^rooms: a land is given by its name, not 1"),
    ("no list of hands", {"hands": None}, "seat", r"^hands is a list with an entry per seat, not None"),
    ("a kingdom that is none", {"lands": [None]}, "names", r"^lands\[0\] is a list of card names, not None"),
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
        {"rooms": [*ROOMS4, "Unnamed room 5"], "rules_options": {"map_room": "discarded"}, "step": "draw"},
        "rooms",
        "5 face-up rooms",
    ),
    (
        "no room left at a turn's start",
        {"rooms": (), "meikyu_pile": [], "step": "draw"},
        "game-over",
        "no room is face up",
    ),
    (
        "no room left after a draw, in a pool without a Dungeon Storm",
        {"rooms": (), "meikyu_pile": [], "step": "action", "calm": True},
        "game-over",
        "no room is face up",
    ),
    (
        "a kingdom at the goal at a turn's start",
        {"lands": [TEN], "step": "draw"},
        "game-over",
        "P1's kingdom is worth 10 points",
    ),
    (
        "another player's kingdom at the goal at a turn's start",
        {"lands": [[], TEN], "turn": 0, "step": "draw"},
        "game-over",
        "P2's kingdom is worth 10",
    ),
    (
        "another kingdom at the goal after a draw, in a pool without a Dungeon Tsunami",
        {"lands": [[], TEN], "step": "action", "calm": True},
        "game-over",
        "P2's kingdom is worth 10",
    ),
    (
        "the turn player at the goal without its Refugee, in a pool without a Dungeon Tsunami",
        {"lands": [TEN], "refugees": [1], "step": "action", "calm": True},
        "game-over",
        "worth 11 points",
    ),
]


@pytest.mark.parametrize(("kwargs", "rule", "message"), [c[1:] for c in REFUSED], ids=[c[0] for c in REFUSED])
def test_an_impossible_position_is_refused_naming_the_rule(kwargs: dict[str, Any], rule: str, message: str) -> None:
    kwargs = dict(kwargs)
    with pytest.raises(InvalidPosition, match=message) as refused:
        if kwargs.pop("calm", False):
            MeikyuState.position(calm_rules(), **{"rooms": ROOMS4, **kwargs})
        else:
            position(2, **kwargs)
    assert refused.value.rule == rule


def calm_rules() -> MeikyuRules:
    """Two players, a pool whose Dungeon Storm and Dungeon Tsunami are two more Unknown OPEN cards: no
    draw can take the rooms away or move lands."""
    pool = default_pool()
    calm = {"Dungeon Storm": 0, "Dungeon Tsunami": 0}
    kingdom = tuple(
        replace(k, copies=calm.get(k.name, k.copies + 2 if k.name == "Unknown OPEN card" else k.copies))
        for k in pool.kingdom
    )
    return MeikyuRules(replace(pool, kingdom=kingdom), players=2)


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
        "a Dungeon Tsunami the turn's draw may have been took a kingdom to the goal",
        {"lands": [[], TEN], "step": "action", "discards": ["Dungeon Tsunami"]},
    ),
    (
        "a Dungeon Tsunami drawn, then shuffled into a new pile by a replacement draw",
        {"lands": [[], TEN], "step": "action", "rules_options": {"open_draw": "replaced"}},
    ),
    (
        "a Dungeon Storm the turn's draw may have been, on an empty Meikyu pile, left no room",
        {"rooms": (), "meikyu_pile": [], "step": "action", "discards": ["Dungeon Storm"]},
    ),
    ("the last seat's turn", {"turn": 1}),
    # Hands over five: step 3 discards down to five at the end of its own turn, but a defender's Casino
    # draw adds a card in another's turn, and a lost turn keeps its hand (no size the rulebook fixes)
    ("a waiting player's hand of seven (a defender's Casino draws)", {"hands": [{}, dict.fromkeys(SEVEN, 1)]}),
    ("the turn player's hand of seven at its turn's start (a lost turn kept it)", {"hands": [dict.fromkeys(SEVEN, 1)]}),
    ("an empty hand", {"hands": [{}, {}]}),
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


def _float_counts(parts: Any) -> Any:
    hands, kpile, mpile, archives = parts
    return [[float(c) for c in h] for h in hands], kpile, mpile, archives  # (it was taken)


def _no_hands(parts: Any) -> Any:
    return None, *parts[1:]  # (a TypeError inside the check)


def _kind_past_the_pool(parts: Any) -> Any:
    hands, kpile, mpile, archives = parts
    return hands, [*kpile[:-1], 10**6], mpile, archives  # (an IndexError inside the check)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (_float_counts, "P1's hand holds 1 card as observed"),
        (_no_hands, "the hands are 2 lists of 24 whole numbers, one per Kingdom card kind"),
        (_kind_past_the_pool, "the hands are 2 lists of 24 whole numbers"),
        (_swap_hidden, "P2's hand holds 1 card as observed"),
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


def _as_position(state: MeikyuState, step: str) -> MeikyuState:
    """The position ``state`` is in, set up anew with ``MeikyuState.position`` from its public reads."""
    t = state.rules.tables
    n = state.rules.players
    _, kpile, mpile, _ = state.parts()
    return MeikyuState.position(
        state.rules,
        turn=state.turn_player,
        step=step,
        hands=[state.hand(s) for s in range(n)],
        lands=[list(state.kingdom(s)) for s in range(n)],
        rooms=state.rooms(),
        discards=state.discard_pile(),
        refugees=[state.refugees(s) for s in range(n)],
        pile=[t.knames[k] for k in kpile],
        meikyu_pile=[t.lnames[land] for land in mpile],
    )


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"map_room": "discarded", "refugee": "land", "farm": "lands"},
        {"goal_check": "reached", "open_draw": "replaced"},
    ],
    ids=["default", "discarded-land-lands", "reached-replaced"],
)
def test_every_position_a_random_game_reaches_is_accepted(options: dict[str, Any]) -> None:
    """The checks refuse no position a game reaches: at every turn's start (the draw) and every step-2
    decision of seeded random games, 2 to 5 players, the same position set up with ``position`` is
    accepted."""
    import random

    from tests.meikyu.helpers import rules

    checked = 0
    for players in (2, 3, 4, 5):
        for seed in range(4):
            state = rules(players, **options).new_initial_state(seed)
            rng = random.Random(seed)
            while not state.is_terminal:
                if state.current_player == CHANCE:
                    state.apply(state.sample_chance())
                    continue
                if state.decision == "action" and state.turns > 0 and state.zones()["in play"] == 0:
                    _as_position(state, "action")
                    checked += 1
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
    assert checked > 500
