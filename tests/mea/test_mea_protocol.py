"""Méa keeps the shared engine protocol: rules round-trip as JSON, actions parse back, errors are typed."""

from __future__ import annotations

import json
import random

import pytest

from cardbase.games.base import CHANCE, TERMINAL, IllegalAction, InvalidAction, InvalidRules, Outcome
from cardbase.games.mea import board as B
from cardbase.games.mea.actions import (
    Attack,
    Choose,
    Draw,
    Flip,
    Move,
    Obliterate,
    Play,
    Ref,
    Shuffle,
    Summon,
    parse_action,
)
from cardbase.games.mea.rules import MeaRules
from cardbase.sim.registry import GAMES
from tests.mea.conftest import DEMO, KNIGHT, Table, rules_for, started
from tests.mea.test_mea_properties import random_rules


def test_rules_round_trip_through_json_options():
    rules = random_rules(1, layout="sides", adjacency="diagonal", max_turns=50)
    options = json.loads(json.dumps(rules.to_options()))
    again = GAMES["mea"].make_rules(options)
    assert again == rules and again.game_id == "mea" and again.players == 2


def test_rules_keep_only_what_the_game_needs_of_a_card():
    from cardbase.games.mea.rules import MeaDeck

    squire = DEMO["Naïve Squire"]
    assert squire.description  # the catalog's card has flavour text
    rules = MeaRules(decks=(MeaDeck("a", ((squire, 3),)), MeaDeck("b", ((squire, 3),))))
    card = rules.decks[0].cards[0][0]
    assert card.description is None and card.abilities == squire.abilities and card.text == squire.text
    assert MeaRules.from_options(rules.to_options()) == rules


def test_from_options_names_what_is_wrong():
    rules = rules_for([KNIGHT], [KNIGHT])
    options = rules.to_options()
    with pytest.raises(InvalidRules, match="decks"):
        MeaRules.from_options({k: v for k, v in options.items() if k != "decks"})
    bad = json.loads(json.dumps(options))
    bad["decks"][0]["cards"][0]["abilities"] = [{"trigger": "summoned", "effect": "explode"}]
    with pytest.raises(InvalidRules, match="effect"):
        MeaRules.from_options(bad)
    bad = json.loads(json.dumps(options))
    bad["decks"][1]["cards"][0]["type"] = "tile"
    with pytest.raises(InvalidRules):
        MeaRules.from_options(bad)


@pytest.mark.parametrize(
    "action",
    [
        Draw(3),
        Summon("Crumb Goblin", B.parse("b2")),
        Summon("Knight of the Soggy Table", B.parse("-a0")),
        Play("Scout's Honour"),
        Move(Ref("Naïve Squire", B.parse("a1")), B.parse("a2")),
        Move(Ref("Crumb Goblin", B.parse("c3"), 2), B.parse("d3")),
        Attack(B.parse("b2"), [Ref("Crumb Goblin", B.parse("b1")), Ref("Puddle Knight", B.parse("a2"))]),
        Flip(B.parse("c1")),
        Flip(),
        Obliterate(B.parse("aa10")),
        Obliterate(),
        Choose(B.parse("b-1")),
        Choose(Ref("Tile Mole", B.parse("b2"), 1)),
        Shuffle([(2, 0, 1), (1, 0)]),
    ],
    ids=str,
)
def test_every_kind_of_action_parses_back(action):
    assert parse_action(str(action)) == action
    hash(action)


@pytest.mark.parametrize(
    "text",
    [
        "fly away",
        "draw",
        "draw two",
        "summon b2",
        "move Goblin b2",
        "attack b2",
        "attack b2 with Goblin",
        "flip 3",
        "choose @b2",
        "choose Goblin@b2#0",
        "shuffle a b",
    ],
)
def test_bad_notation_is_an_invalid_action(text):
    with pytest.raises(InvalidAction) as error:
        parse_action(text)
    assert isinstance(error.value, ValueError)


def test_tile_names():
    for x, y, name in ((0, 0, "a1"), (1, 1, "b2"), (3, 1, "d2"), (1, -1, "b0"), (-1, 2, "-a3"), (26, 0, "aa1")):
        assert B.name(B.pos(x, y)) == name and B.parse(name) == B.pos(x, y)
    with pytest.raises(ValueError):
        B.parse("b")


@pytest.mark.parametrize("seed", range(8))
def test_a_random_game_keeps_the_protocol(seed):
    rules = random_rules(seed)
    state = rules.new_initial_state(seed)
    assert state.history == [] and state.outcome() is None and state.current_player == CHANCE
    rng = random.Random(seed)
    while not state.is_terminal:
        p = state.current_player
        if state.is_chance_node:
            action = state.sample_chance()
        else:
            legal = state.legal_actions()
            assert len(legal) > 0 and legal[len(legal) - 1] == list(legal)[-1]
            picks = [legal[rng.randrange(len(legal))] for _ in range(min(4, len(legal)))]
            for a in picks:
                assert rules.parse_action(str(a)) == a and state.parse_action(str(a)) == a
                assert state.is_legal(a)
            action = picks[0]
            obs = state.observation(p)
            assert obs.player == p and isinstance(obs.describe(), str)
        twin = state.clone()
        state.apply(action)
        assert state.history[-1] == action
        twin.apply(action)
        assert twin.current_player == state.current_player
    assert state.current_player == TERMINAL and state.legal_actions() == ()
    outcome = state.outcome()
    assert isinstance(outcome, Outcome) and outcome.winners and len(outcome.scores) == 2
    with pytest.raises(IllegalAction, match="over"):
        state.apply(Draw(1))


def test_state_parse_action_accepts_any_case_and_a_missing_slot():
    state = started(rules_for([KNIGHT], [KNIGHT]))
    t = Table(state)
    t.put(0, "Filler", "b1")
    t.put(0, "Filler", "b1")
    state = t.turn(0)
    state.set_monster(state.on_tile(B.parse("b1"))[0], actions=0)
    action = state.parse_action("move filler@B1 a1")
    assert str(action) == "move Filler@b1#2 a1"  # the one that can still act
    state.apply(action)


def test_two_monsters_of_the_same_name_on_a_tile_need_their_slot():
    from cardbase.games.mea.actions import Move, Ref

    state = started(rules_for([KNIGHT], [KNIGHT]))
    t = Table(state)
    t.put(0, "Filler", "b1")
    t.put(0, "Filler", "b1")
    state = t.turn(0)
    assert "move Filler@b1#1 a1" in [str(a) for a in state.legal_actions()]
    with pytest.raises(IllegalAction) as error:
        state.apply(Move(Ref("Filler", B.parse("b1")), B.parse("a1")))
    assert error.value.rule == "which-monster" and "Filler@b1#1" in str(error.value)


def test_an_observation_read_after_the_state_changed_sees_it_as_it_was():
    """An observation's view is made when first read or before the state changes: one read after
    any kind of change (an action, a set-up method) is the state as observed, not as it is."""
    from cardbase.games.base import SPECTATOR
    from cardbase.games.mea.codes import BOARD, HAND

    rules = rules_for()
    state = rules.new_initial_state(3)
    while state.current_player == CHANCE or state.phase != "main":
        state.apply(state.sample_chance() if state.is_chance_node else state.legal_actions()[0])
    first_tile = sorted(state.tiles())[0]
    changes = {
        "action": lambda: state.apply(state.legal_actions()[len(state.legal_actions()) - 1]),
        "set_main_phase": lambda: state.set_main_phase(state.current_player, 9),
        "place_card": lambda: state.place_card(state.deck(0)[0], HAND),
        "place on the board": lambda: state.place_card(state.hand(0)[0], BOARD, first_tile),
        "set_monster": lambda: state.set_monster(state.monsters()[0], attack=9),
        "set_tile": lambda: state.set_tile(first_tile, 1 - state.tiles()[first_tile]),
        "arrange": lambda: state.arrange(0, state.hand(0)[:-1], [*state.hand(0)[-1:], *state.deck(0)]),
    }
    for name, change in changes.items():
        now = [json.dumps(state.observation(s).public(), sort_keys=True) for s in (0, 1, SPECTATOR)]
        held = [state.observation(s) for s in (0, 1, SPECTATOR)]
        assert held[0].unchanged_state() is state
        change()
        assert [json.dumps(h.public(), sort_keys=True) for h in held] == now, name
        assert held[0].unchanged_state() is None, name
        after = [json.dumps(state.observation(s).public(), sort_keys=True) for s in (0, 1, SPECTATOR)]
        assert after != now, f"{name} changed nothing seen: the test proves nothing"


def test_a_state_with_an_observation_held_pickles_and_copies():
    """The weak references a state keeps to its observations do not stop it pickling, and its copy
    (pickled or deep-copied) plays on as the state does."""
    import copy
    import pickle

    rules = rules_for()
    state = rules.new_initial_state(5)
    state.apply(state.sample_chance())
    held = state.observation(0)
    seen = state.observation(1).public()
    for twin in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
        action = state.legal_actions()[0]
        assert twin.legal_actions()[0] == action and twin.observation(1).public() == seen
        twin.apply(action)
        assert twin.observation(1).public() != seen
    assert held.unchanged_state() is state  # the copies' changes are not this state's
