"""``MeaState.position(...)`` and the set-up methods (``place_card``, ``set_tile``, ``set_monster``,
``arrange``, ``set_main_phase``): a position built from a description, changed in place, keeps
every invariant of a played game, and bad input is one clear message."""

from __future__ import annotations

import random

import pytest

from cardbase.games.base import CHANCE, InvalidPosition, InvalidSeat
from cardbase.games.mea import board as B
from cardbase.games.mea.codes import BOARD, DECK, HAND, OUT
from cardbase.games.mea.engine import MeaState
from cardbase.games.mea.rules import HAND_LIMIT
from tests.mea.conftest import BRUTE, KNIGHT, PAWN, WALL, Table, legal_texts, names_on, rules_for, started
from tests.mea.test_mea_properties import check_invariants, random_rules, reference_main_actions

RULES = rules_for([KNIGHT, PAWN, WALL, BRUTE], [KNIGHT, WALL, PAWN], filler=6)


def test_a_position_is_what_it_describes():
    state = MeaState.position(
        RULES,
        hands=(["Wall", "Filler"], ["Wall"]),
        board=({"b1": ["Knight", "Filler"]}, {"b2": ["Pawn"]}),
        out=(["Brute"], []),
        active=0,
        mana=7,
    )
    check_invariants(state)
    names = state.tables.names
    assert [names[i] for i in state.hand(0)] == ["Wall", "Filler"]
    assert [names[i] for i in state.hand(1)] == ["Wall"]
    assert names_on(state, "b1") == ["Knight", "Filler"] and names_on(state, "b2") == ["Pawn"]
    assert [names[i] for i in state.out_of_play()] == ["Brute"]
    # The rest stays in deck-list order, the first left on top; the first Filler went to the board.
    assert [names[i] for i in state.deck(0)] == ["Pawn"] + ["Filler"] * 4
    assert (state.phase, state.active, state.current_player, state.mana) == ("main", 0, 0, 7)
    assert state.turns_taken == (1, 0) and state.history == []
    assert "attack b2 with Knight@b1" in legal_texts(state)  # monsters placed are ready to act
    assert "summon Wall a2" in legal_texts(state)


def test_a_position_matches_the_same_position_set_up_on_a_started_game():
    """The builder and the tests' Table (a started game changed in place) agree on what is legal."""
    rules = rules_for([KNIGHT, PAWN, WALL], [KNIGHT, BRUTE], filler=4)
    built = MeaState.position(rules, hands=(["Wall"], []), board=({"b1": ["Knight"]}, {"b2": ["Brute"]}), mana=20)
    state = started(rules, openings=(1, 1))  # draws the Knight and P2's Knight
    table = Table(state)
    table.empty_hand(0)
    table.empty_hand(1)
    table.put(0, "Knight", "b1")
    table.give(0, "Wall")
    table.put(1, "Brute", "b2")
    table.turn(0, mana=20)
    assert legal_texts(built) == legal_texts(state)
    assert built.tiles() == state.tiles()


def test_the_default_mana_is_what_the_turn_counts_and_the_tiles_can_be_given():
    tiles = {"a1": 0, "b1": 0, "b2": 1, "c2": 1, "c3": 1}
    state = MeaState.position(RULES, tiles=tiles, board=({"b1": ["Knight"]}, {}), active=1, turns_taken=(2, 2))
    check_invariants(state)
    assert state.tiles() == {B.parse(t): s for t, s in tiles.items()}
    assert state.active == 1 and state.turns_taken == (2, 2)
    # P2 counts P1's 2 tiles and no monster of its own: the minimum, 3, then its early-turns bonus
    assert state.mana == 3 + RULES.second_player_bonus
    assert MeaState.position(RULES, tiles=tiles, active=1, mana=0).mana == 0


def test_a_deck_order_can_be_given_and_must_hold_the_cards_left():
    state = MeaState.position(RULES, hands=(["Knight", "Pawn", "Wall"], []), decks=(["Filler"] * 6 + ["Brute"], None))
    names = state.tables.names
    assert [names[i] for i in state.deck(0)] == ["Filler"] * 6 + ["Brute"]
    state.apply_text("draw 1")  # the end of P1's turn draws the top card
    assert names[state.hand(0)[-1]] == "Filler"
    with pytest.raises(InvalidPosition, match=r"^decks\[0\]: P1's deck is not the cards left") as refused:
        MeaState.position(RULES, decks=(["Brute"], None))
    assert refused.value.rule == "deck"


@pytest.mark.parametrize(
    ("kwargs", "message", "rule"),
    [
        ({"hands": (["Dragon"], [])}, "hands[0]: no 'Dragon' in P1's deck", "card"),
        ({"hands": (["Knight", "Knight"], [])}, "hands[0]: more copies of Knight than P1's deck has", "copies"),
        ({"out": ([], ["Dragon"])}, "out[1]: no 'Dragon' in P2's deck", "card"),
        ({"hands": ([7], [])}, "hands[0]: a card is given by its name, not 7", "names"),
        ({"board": ({"z9": ["Knight"]}, {})}, "board[0]['z9']: no tile at z9", "tile"),
        ({"board": ({"a1": ["Dragon"]}, {})}, "board[0]['a1']: no 'Dragon' in P1's deck", "card"),
        ({"tiles": {"bz1": 0}}, "tiles: 'bz1' is no tile: (77, 0) is off the board's coordinates", "tile"),
        ({"tiles": {2.5: 0}}, "tiles: a tile is named like b2, not 2.5", "tile"),
        ({"tiles": {"a1": 2}}, "tiles['a1']: no seat 2 in a 2-player game", "seat"),
        ({"active": 3}, "active: no seat 3 in a 2-player game", "seat"),
        ({"active": True}, "active: True is not a seat number", "seat"),
        # A field of another form: one message, never a traceback.
        ({"board": (["Knight"], {})}, "board[0] maps tiles to card names, not ['Knight']", "names"),
        ({"tiles": ["a1"]}, "tiles maps tiles to their owners' seats", "names"),
        ({"hands": (None, [])}, "hands[0] is a list of card names, not None", "names"),
        ({"hands": None}, "hands is a list with an entry per seat, not None", "seat"),
    ],
)
def test_a_bad_position_is_one_clear_message_naming_the_field(kwargs, message, rule):
    """A description that is no position (a card the decks do not have, too many copies, a tile or a
    seat that is none) is InvalidPosition, its message beginning with the field, its rule named."""
    with pytest.raises(InvalidPosition) as refused:
        MeaState.position(RULES, **kwargs)
    assert str(refused.value).startswith(message) and refused.value.rule == rule


def test_a_tile_outside_the_boards_square_is_refused():
    rules = rules_for([KNIGHT], [KNIGHT], board_size=3)
    with pytest.raises(InvalidPosition, match=r"^tiles\['d1'\]: d1 is off the board"):
        MeaState.position(rules, tiles={"a1": 0, "b2": 1, "d1": 0})


def test_position_on_a_state_says_what_it_is():
    state = MeaState.position(RULES)
    with pytest.raises(TypeError, match="tile_of"):
        state.position(3)  # type: ignore[arg-type]


def test_set_up_changes_refuse_what_would_break_the_state():
    state = MeaState.position(RULES, board=({"b1": ["Knight"]}, {}))
    knight = state.on_tile(B.parse("b1"))[0]
    with pytest.raises(InvalidPosition, match="take them off first"):
        state.set_tile(B.parse("b1"), None)
    with pytest.raises(InvalidPosition, match="no card 99"):
        state.place_card(99, HAND)
    with pytest.raises(InvalidPosition, match="not a monster on the board"):
        state.set_monster(state.deck(0)[0], attack=9)
    with pytest.raises(InvalidPosition, match="rearranged from the cards"):
        state.arrange(0, [knight], [])
    for bad_seat in (2, True):
        with pytest.raises(InvalidSeat, match="seat"):
            state.place_card(knight, HAND, seat=bad_seat)
        with pytest.raises(InvalidSeat, match="seat"):
            state.set_main_phase(bad_seat)
    view = state.observation(0).view
    with pytest.raises(InvalidPosition, match="hidden"):
        view.place_card(state.deck(1)[0], HAND)


def test_each_set_up_change_keeps_the_invariants_and_the_legal_actions_fresh():
    """Random set-up changes in the middle of random games: the state stays whole, and its legal
    actions (asked for before each change, so cached) are those the rules give afterwards."""
    checked = 0
    for seed in range(20):
        rng = random.Random(seed)
        state = random_rules(seed).new_initial_state(seed)
        for _ in range(rng.randint(5, 80)):
            if state.is_terminal:
                break
            if state.current_player == CHANCE:
                state.apply(state.sample_chance())
                continue
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        if state.is_terminal:
            continue
        state.set_main_phase(state.active, mana=rng.randint(0, 9))
        for _ in range(10):
            state.legal_actions()
            i = rng.randrange(state.card_count)
            tile = rng.choice(list(state.tiles()))
            kind = rng.choice(["card", "card", "tile", "monster"])
            try:
                if kind == "card":
                    zone = rng.choice([DECK, HAND, BOARD, OUT])
                    state.place_card(i, zone, tile, None if zone == DECK else rng.choice([None, 0, 1]))
                elif kind == "tile":
                    state.set_tile(tile + rng.choice((0, *state.tables.dirs)), rng.choice([None, 0, 1]))
                elif state.monsters():
                    state.set_monster(rng.choice(state.monsters()), actions=rng.randint(0, 1), attack=rng.randint(0, 5))
            except InvalidPosition:
                continue
            if max(state.hand_size(0), state.hand_size(1)) >= HAND_LIMIT or 0 not in state.tiles().values():
                break  # a game would have ended here
            check_invariants(state)
            assert set(state.legal_actions()) == reference_main_actions(state)
            checked += 1
    assert checked > 50


# -- positions the rulebook makes impossible ---------------------------------------------------------

BIG = rules_for([KNIGHT], [KNIGHT], filler=14)
P1_ONLY = {"a1": 0, "b1": 0, "c1": 0}

IMPOSSIBLE = [
    ("a hand of 11", BIG, {"hands": (["Filler"] * 11, [])}, "hand-limit", "P1 holds 11 cards: a game is lost at 11"),
    ("the waiting player's hand of 12", BIG, {"hands": ([], ["Filler"] * 12)}, "hand-limit", "P2 holds 12 cards"),
    (
        "three monsters on a tile",
        RULES,
        {"board": ({"b1": ["Knight", "Pawn", "Wall"]}, {})},
        "two-per-tile",
        "3 monsters on b1",
    ),
    (
        "three monsters of both players on a tile",
        RULES,
        {"board": ({"b2": ["Knight", "Pawn"]}, {"b2": ["Knight"]})},
        "two-per-tile",
        "3 monsters on b2: at most 2 share a tile",
    ),
    ("negative mana", RULES, {"mana": -1}, "count", "mana is a whole number, 0 or more, not -1"),
    ("mana that is no whole number", RULES, {"mana": 2.5}, "count", "not 2.5"),
    ("a negative turn count", RULES, {"turns_taken": (-1, 0)}, "count", "turns_taken is two whole numbers"),
    ("P1 to play with as many turns as P2", RULES, {"turns_taken": (2, 2)}, "turn-order", "one more turn than P2"),
    ("P2 to play ahead of P1", RULES, {"active": 1, "turns_taken": (1, 2)}, "turn-order", "as many turns as P1"),
    ("P2 to play before P1 began", RULES, {"active": 1, "turns_taken": (0, 0)}, "turn-order", "at least 1"),
    (
        "a turn past the turn limit",
        rules_for([KNIGHT], [KNIGHT], filler=4, max_turns=10),
        {"active": 1, "turns_taken": (6, 6)},
        "game-over",
        "turn 12 is past the turn limit of 10",
    ),
    ("P2 without a tile", RULES, {"tiles": P1_ONLY}, "game-over", "P2 controls no tile"),
    (
        "more tiles than a player's cap",
        rules_for([KNIGHT], [KNIGHT], filler=4, tiles_per_colour=5),
        {"tiles": {"a1": 0, "a2": 0, "a3": 0, "b1": 0, "b2": 0, "b3": 0, "c3": 1}},
        "tiles-per-colour",
        "P1 controls 6 tiles, more than tiles_per_colour 5",
    ),
    (
        "more tiles than the supply",
        rules_for([KNIGHT], [KNIGHT], filler=4, tile_supply=9),
        {"tiles": {**{f"{x}{y}": (x > "b") * 1 for x in "abc" for y in "123"}, "d1": 1}},
        "tile-supply",
        "10 tiles on the board, more than the supply of 9",
    ),
    # A description of another shape: one seat's entry only (it raised IndexError), a seat's cards
    # given as one text (read letter by letter: "no 'W' in P1's deck").
    ("one seat's hand only", RULES, {"hands": (["Wall"],)}, "seat", "hands gives 1 seat; a 2-player game has 2"),
    ("three seats' decks", RULES, {"decks": (None, None, None)}, "seat", "decks gives 3 seats"),
    ("a hand as one text", RULES, {"hands": ("Wall", [])}, "names", r"hands\[0\] is a list of card names, not 'Wall'"),
    ("out of play as one text", RULES, {"out": ([], "Wall")}, "names", r"out\[1\] is a list of card names"),
    ("a deck as one text", RULES, {"decks": ("Wall", None)}, "names", r"decks\[0\] is a list of card names"),
    ("a tile's monsters as one text", RULES, {"board": ({"b1": "Knight"}, {})}, "names", r"board\[0\]\['b1'\] is"),
]


@pytest.mark.parametrize(
    ("rules", "kwargs", "rule", "message"), [c[1:] for c in IMPOSSIBLE], ids=[c[0] for c in IMPOSSIBLE]
)
def test_an_impossible_position_is_refused_naming_the_rule(rules, kwargs, rule, message):
    with pytest.raises(InvalidPosition, match=message) as refused:
        MeaState.position(rules, **kwargs)
    assert refused.value.rule == rule


POSSIBLE = [
    ("a hand of 10", BIG, {"hands": (["Filler"] * 10, [])}),
    (
        "P2's turn at the turn limit",
        rules_for([KNIGHT], [KNIGHT], filler=4, max_turns=10),
        {"active": 1, "turns_taken": (5, 5)},
    ),
    ("P1's later turn", RULES, {"turns_taken": (4, 3)}),
    ("no mana left", RULES, {"mana": 0}),
    (
        "the active player without a tile under elimination=turn-start (lost in this turn)",
        rules_for([KNIGHT], [KNIGHT], filler=4, elimination="turn-start"),
        {"tiles": {"a1": 1, "b1": 1}},
    ),
]


@pytest.mark.parametrize(("rules", "kwargs"), [c[1:] for c in POSSIBLE], ids=[c[0] for c in POSSIBLE])
def test_a_position_a_game_reaches_is_accepted(rules, kwargs):
    state = MeaState.position(rules, **kwargs)
    if rules.elimination == "immediate":
        check_invariants(state)
    assert not state.is_terminal


@pytest.mark.parametrize(
    "options", [{}, {"elimination": "turn-start", "tiles_per_colour": 9}], ids=["default", "turn-start-capped"]
)
def test_every_main_phase_a_random_game_reaches_is_accepted(options):
    """The checks refuse no position a game reaches: at every main-phase decision of seeded random games,
    the same hands, monsters (those of their owners), cards out of play, tiles, seat, mana and turns set up
    with ``position`` are accepted."""
    checked = 0
    for seed in range(12):
        rules = random_rules(seed, **options)
        state = rules.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            if state.current_player == CHANCE:
                state.apply(state.sample_chance())
                continue
            if state.phase == "main":
                names = state.tables.names
                board: list[dict[int, list[str]]] = [{}, {}]
                for s in (0, 1):  # (a monster taken control of is not the builder's: its deck is the other seat's)
                    for i in state.monsters(s):
                        if state.owner(i) == s:
                            board[s].setdefault(state.tile_of(i), []).append(names[i])
                MeaState.position(
                    rules,
                    hands=[[names[i] for i in state.hand(s)] for s in (0, 1)],
                    board=board,
                    out=[[names[i] for i in state.out_of_play() if state.owner(i) == s] for s in (0, 1)],
                    tiles=state.tiles(),
                    active=state.active,
                    mana=state.mana,
                    turns_taken=state.turns_taken,
                )
                checked += 1
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    assert checked > 300
