"""The engines as a library, judged by python-chess's and OpenSpiel's bar, over the three games alike:
a value's repr is code that evaluates back to it, and bad input is one of the engine's errors."""

from __future__ import annotations

import importlib
import inspect
import random
import re
from typing import Any

import pytest

from cardbase.games.base import State
from tests.golden.walks import rules_of

GAMES = [("meio", {"players": 3}), ("mea", {"board_size": 9}), ("meikyu", {"players": 3})]


def _namespace(game: str) -> dict[str, Any]:
    """What a researcher has imported: the engine protocol and the game's actions and cards."""
    names: dict[str, Any] = {}
    for module in ("cardbase.games.base", f"cardbase.games.{game}.cards", f"cardbase.games.{game}.actions"):
        names.update({k: v for k, v in vars(importlib.import_module(module)).items() if not k.startswith("_")})
    return names


def _played(game: str, options: dict[str, Any], seed: int) -> tuple[State, list[Any]]:
    """A random game of ``game`` to its end, and every action taken in it (chance's too)."""
    state = rules_of(game, options).new_initial_state(seed)
    rng = random.Random(seed)
    taken = []
    while not state.is_terminal:
        if state.is_chance_node:
            action = state.sample_chance()
        else:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
        taken.append(action)
        state.apply(action)
    return state, taken


def _parts(value: Any) -> list[Any]:
    """The values an action is made of that are values of their own (Méa's monster references)."""
    items = value[1:] if isinstance(value, tuple) else ()
    return [x for item in items for x in (item if isinstance(item, tuple) else (item,)) if isinstance(x, tuple)]


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_every_actions_repr_evaluates_back_to_it(game, options):
    """``eval(repr(action)) == action`` for every action of random games (chance's too), the values
    an action holds and the outcome, as python-chess's ``Move.from_uci('e2e4')``: Méa's printed
    ``Draw('draw 1')``, which made a draw of the text 'draw 1', and ``Summon('summon X b1')``, a
    TypeError."""
    names = _namespace(game)
    wrong: dict[str, str] = {}
    for seed in (1, 2):
        state, taken = _played(game, options, seed)
        for value in [*taken, *(part for action in taken for part in _parts(action)), state.outcome()]:
            try:
                ok = eval(repr(value), names) == value
            except Exception as error:  # (any failure to evaluate is the finding)
                ok, why = False, f"{type(error).__name__}: {error}"
            else:
                why = "evaluates to another value"
            if not ok:
                wrong.setdefault(type(value).__name__, f"{value!r}: {why}"[:200])
    assert wrong == {}


def test_a_mea_action_kinds_parse_reads_only_its_own_kind():
    """``Draw.parse`` (what a Méa action's repr calls) refuses another kind's text, as one InvalidAction."""
    from cardbase.games.base import InvalidAction
    from cardbase.games.mea.actions import Draw, Ref, Summon

    assert Summon.parse("summon Crumb Goblin b2") == Summon("Crumb Goblin", Ref.parse("X@b2").pos)
    with pytest.raises(InvalidAction, match=r"^not a draw action: 'summon Crumb Goblin b2'$"):
        Draw.parse("summon Crumb Goblin b2")


# -- integer steps: a bad step is one of the engine's errors ------------------------------------------


def _nodes(game: str, options: dict[str, Any]) -> list[State]:
    """A chance node (the first deal or shuffle), a decision, and a later decision of a random game."""
    state = rules_of(game, options).new_initial_state(4)
    nodes = [state.clone()]
    rng = random.Random(4)
    while len(nodes) < 3 and not state.is_terminal:
        if state.is_chance_node:
            state.apply(state.sample_chance())
            continue
        if len(nodes) == 1 or rng.random() < 0.05:
            nodes.append(state.clone())
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return nodes


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_a_step_that_is_no_step_id_is_invalid_action_in_every_step_method(game, options):
    """Every method that takes integer steps (``legal_ids``, ``chance_ids``, ``action_from_ids``,
    ``step_text``, ``observation_tensor``, ``information_state_key``) refuses a step that is no id of
    the node (negative, past the last, a bool, a float, None, a text) as :class:`InvalidAction` naming
    it, as OpenSpiel's ``action_to_string`` does: they raised IndexError and TypeError, or read -1 as
    the last id (``action_from_ids([-1])`` was Meio's ``play KC``)."""
    from cardbase.games.base import InvalidAction

    for state in _nodes(game, options):
        rules = state.rules
        size = rules.max_chance_outcomes() if state.is_chance_node else rules.num_distinct_actions()
        calls = {
            "legal_ids": state.legal_ids,
            "chance_ids": state.chance_ids,
            "action_from_ids": state.action_from_ids,
            "step_text": lambda steps, state=state: state.step_text(steps[:-1], steps[-1]),
            "observation_tensor": lambda steps, state=state: state.observation_tensor(0, steps),
            "information_state_key": lambda steps, state=state: state.information_state_key(0, steps),
        }
        for name, call in calls.items():
            for bad in (-1, size, 10**9, True, 1.5, None, "0"):
                with pytest.raises(InvalidAction, match=re.escape(repr(bad))):
                    call([bad])
                    pytest.fail(f"{name}([{bad!r}]) at {state!r} was accepted")


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_steps_past_an_action_and_an_action_not_legal_here_are_illegal_action(game, options):
    """No step follows the steps of a whole action (``legal_ids`` and ``chance_ids`` are empty; Méa's
    and Meio's plays raised a plain ValueError, Meio's deal a ZeroDivisionError), steps that go on past
    it are no action (:class:`IllegalAction`; a ValueError of unpacking before), and ``action_ids`` of
    what is no legal action here (no action, another game's, one legal a few moves ago) is
    :class:`IllegalAction` naming the rule, as ``apply`` says (an AssertionError, KeyError or
    TypeError before, or ids of an action not here)."""
    from cardbase.games.base import IllegalAction

    others = {"meio": ("mea", {"board_size": 9}), "mea": ("meikyu", {"players": 3}), "meikyu": ("meio", {"players": 3})}
    foreign = _nodes(*others[game])[1].legal_actions()[0]
    seen: list[Any] = []
    for state in _nodes(game, options):
        legal = state.legal_actions()
        action = legal[0] if len(legal) else state.sample_chance()
        steps = list(state.action_ids(action))
        assert state.action_from_ids(steps) == action
        with pytest.raises(IllegalAction):
            state.action_from_ids([*steps, steps[-1]])
        assert state.legal_ids(steps) == []  # no step follows a whole action
        assert state.chance_ids(steps) == []
        for bad in (None, 42, "draw 1", foreign, *[a for a in seen if not state.is_legal(a)][:3]):
            with pytest.raises(IllegalAction):
                state.action_ids(bad)
                pytest.fail(f"action_ids({bad!r}) at {state!r} was accepted")
        seen.extend(legal[:20])


# -- seats: every method of a state that takes one checks it --------------------------------------

SEAT_PARAMETERS = ("seat", "player", "viewer", "owner")


def _seat_calls(state: State) -> dict[str, Any]:
    """Every public method of ``state`` with a parameter for a seat, as a function of the seat: the
    other arguments a valid call needs are given here by the method's name (a method this does not
    know fails the test, so that a new one is checked too)."""
    legal = state.legal_actions()
    action = legal[0]
    extra: dict[str, Any] = {
        "wrong_player": lambda: {"action": action},
        "action_text": lambda: {"action": action},
        "parse_action": lambda: {"text": str(action)},
        "resample_from_infostate": lambda: {"rng": random.Random(1)},
        "determinise": lambda: {"rng": random.Random(1)},
        "arrange": lambda: {"hand": state.hand(0), "deck": state.deck(0)},  # type: ignore[attr-defined]
        "place_card": lambda: {"instance": state.hand(0)[0], "zone": 0},  # type: ignore[attr-defined]
        "resolve_ref": lambda: {"ref": state.ref_of(state.monsters()[0])},  # type: ignore[attr-defined]
        "set_tile": lambda: {"tile": next(iter(state.tiles()))},  # type: ignore[attr-defined]
        "condition_count": lambda: {"what": "friendly_tiles"},
    }
    calls = {}
    for name in dir(type(state)):
        method = getattr(type(state), name)
        if name.startswith("_") or not callable(method):
            continue
        parameters = inspect.signature(method).parameters
        seat = next((p for p in parameters if p in SEAT_PARAMETERS), None)
        if seat is None:
            continue
        others = extra[name]() if name in extra else {}
        calls[name] = lambda s, name=name, seat=seat, others=others: getattr(state.clone(), name)(**others, **{seat: s})
    return calls


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_every_method_of_a_state_that_takes_a_seat_refuses_one_the_game_lacks(game, options):
    """A seat outside the table, -1 (which read the last seat), a bool or a float is
    :class:`InvalidSeat` in every public method of a state with a seat parameter, as in
    ``observation``: ``hand``, ``points``, ``deck_size``, … raised IndexError or TypeError, and
    ``hand(-1)`` or ``hand(True)`` answered for another seat."""
    from cardbase.games.base import InvalidSeat

    state = _nodes(game, options)[2]
    if game == "mea":
        state = _mea_with_a_monster()
    calls = _seat_calls(state)
    assert "hand" in calls
    accepted = []
    for name, call in calls.items():
        call(0)
        for seat in (state.rules.players, -1, True, 1.5):
            try:
                call(seat)
            except InvalidSeat:
                continue
            except Exception as error:  # (what else it raised is the finding)
                accepted.append(f"{name}({seat!r}): {type(error).__name__}")
            else:
                accepted.append(f"{name}({seat!r}) accepted")
    assert accepted == []


def _mea_with_a_monster() -> State:
    """A Méa state of a random game with a monster on the board, a player to act."""
    state = rules_of("mea", {"board_size": 9}).new_initial_state(4)
    rng = random.Random(4)
    while not state.monsters() or state.is_chance_node:  # type: ignore[attr-defined]
        if state.is_chance_node:
            state.apply(state.sample_chance())
        else:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    return state


# -- errors: one class per kind, drawn in GameError's docstring --------------------------------------


def _subclasses(cls: type) -> set[type]:
    out = set(cls.__subclasses__())
    for sub in list(out):
        out |= _subclasses(sub)
    return out


def test_the_error_tree_draws_every_kind_and_none_is_raised_as_its_base():
    """``help(GameError)`` draws every subclass cardbase defines (the tree was not drawn anywhere),
    and the engines raise no bare ``GameError`` (a bad seed was one: now :class:`InvalidSeed`)."""
    import ast
    from pathlib import Path

    import cardbase.games.mea.engine
    import cardbase.games.meikyu.engine
    import cardbase.games.meio.engine
    import cardbase.spiel  # (IllegalStep)
    from cardbase.games.base import GameError

    drawn = re.findall(r"[├└]── (\w+)", GameError.__doc__ or "")
    assert sorted(drawn) == sorted(c.__name__ for c in _subclasses(GameError) if c.__module__.startswith("cardbase"))
    bare = []
    for path in (Path(cardbase.__file__).parent).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            call = node.exc if isinstance(node, ast.Raise) else None
            if isinstance(call, ast.Call) and getattr(call.func, "id", None) == "GameError":
                bare.append(f"{path.name}:{node.lineno}")
    assert bare == []


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_a_bad_seed_is_invalid_seed(game, options):
    """A seed no record can hold is its own kind of error, :class:`InvalidSeed` (it was the base class)."""
    from cardbase.games.base import InvalidSeed

    for seed in ("x", -1, True, 2**64):
        with pytest.raises(InvalidSeed, match="a seed is a whole number"):
            rules_of(game, options).new_initial_state(seed)


# -- agents: an agent plays its own seat ---------------------------------------------------------------


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_every_agent_refuses_another_seats_observation_and_no_legal_action(game, options):
    """Each built-in agent plays the seat it was made for: given another seat's observation (or the
    spectator's) it is :class:`InvalidSeat` naming both, not a move for that seat's cards from that
    seat's view; given no legal action (the game over) it is :class:`IllegalAction`, not an
    IndexError (Méa) or an action the list did not hold (Meio's split, Meikyu's quest)."""
    from cardbase.games.base import SPECTATOR, IllegalAction, InvalidSeat, InvalidSeed
    from cardbase.sim import registry

    state = _nodes(game, options)[1]
    seat = state.current_player
    other = (seat + 1) % state.rules.players
    entry = registry.game(game)
    for name in entry.agents:
        agent = entry.make_agent(name, state.rules, seat, 0)
        for viewer in (other, SPECTATOR):
            with pytest.raises(InvalidSeat, match=rf"plays seat {seat}; it was given the observation of "):
                agent.act(state.observation(viewer), state.legal_actions())
        with pytest.raises(IllegalAction, match="no legal action to choose from"):
            agent.act(state.observation(seat), ())
        assert state.is_legal(agent.act(state.observation(seat), state.legal_actions()))
        for seed in ("x", -1, True, 2**64):  # (it took them: an agent's seed is a game's)
            with pytest.raises(InvalidSeed, match="a seed is a whole number"):
                entry.make_agent(name, state.rules, seat, seed)


def test_meios_play_is_made_of_a_card_or_refuses_with_invalid_action():
    """``Play`` (what a Meio play's repr calls) takes a card, its notation or its index: anything
    else is :class:`InvalidAction`, the error of a text that is no action (a plain ValueError
    before, and ``Play(True)`` and ``Play(1.5)`` were ``play 2S``)."""
    from cardbase.games.base import InvalidAction
    from cardbase.games.meio.actions import Play
    from cardbase.games.meio.cards import PlayingCard

    assert Play("7H") == Play(PlayingCard.parse("7H")) == Play(int(Play("7H")))
    for bad in ("ZZ", 52, -1, True, 1.5, None):
        with pytest.raises(InvalidAction, match=re.escape(repr(bad))):
            Play(bad)


# -- cards: every method of a state that takes a card instance checks it ------------------------------


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_every_method_of_a_state_that_takes_a_card_instance_refuses_one_the_game_lacks(game, options):
    """A card instance the game does not have (past the last, -1, which read the last card, a bool, a
    float) is :class:`InvalidPosition` naming it (rule ``"card"``), as ``place_card`` says, in every
    public method of a state with an ``instance`` parameter (Méa's ``attack_of``, ``zone``, ``owner``,
    …: IndexError or TypeError before); ``ref_of`` a card off the board names it too (a KeyError)."""
    from cardbase.games.base import InvalidPosition

    state = _mea_with_a_monster() if game == "mea" else _nodes(game, options)[2]
    methods = []
    for name in dir(type(state)):
        method = getattr(type(state), name)
        if not name.startswith("_") and callable(method) and "instance" in inspect.signature(method).parameters:
            methods.append(name)
    cards = len(state.deck(0)) + len(state.hand(0)) + 70 if game == "mea" else 0  # (an instance past them all)
    wrong = []
    for name in methods:
        if name == "place_card":
            continue  # (a set-up method: its own tests)
        getattr(state, name)(state.monsters()[0])  # type: ignore[attr-defined]
        for bad in (10**6, cards, -1, True, 1.5):
            try:
                getattr(state.clone(), name)(bad)
            except InvalidPosition as error:
                if error.rule != "card" or repr(bad) not in str(error):
                    wrong.append(f"{name}({bad!r}): {error}")
            except Exception as error:  # (what else it raised is the finding)
                wrong.append(f"{name}({bad!r}): {type(error).__name__}")
            else:
                wrong.append(f"{name}({bad!r}) accepted")
    if game == "mea":
        off = state.hand(0)[0]  # type: ignore[attr-defined]
        with pytest.raises(InvalidPosition, match="not on the board"):
            state.ref_of(off)  # type: ignore[attr-defined]
    assert wrong == []


# -- every query answers at every node -------------------------------------------------------------


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_every_public_method_without_arguments_answers_or_refuses_at_every_kind_of_node(game, options):
    """At a chance node, decisions and the end, every public method of a state that needs no argument
    answers or raises one of the engine's errors, never an IndexError or the like (Méa's ``pending()``
    outside the choice phase was an IndexError)."""
    from cardbase.games.base import GameError

    nodes = _nodes(game, options)
    state = nodes[-1].clone()
    rng = random.Random(8)
    while not state.is_terminal:
        if state.is_chance_node:
            state.apply(state.sample_chance())
        else:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    wrong = []
    for node in [*nodes, state]:
        for name in dir(type(node)):
            method = getattr(type(node), name)
            if name.startswith("_") or not callable(method) or isinstance(method, type):
                continue
            parameters = list(inspect.signature(getattr(node, name)).parameters.values())
            if any(p.default is p.empty and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) for p in parameters):
                continue
            try:
                getattr(node.clone(), name)()
            except GameError:
                pass
            except Exception as error:  # (what else it raised is the finding)
                wrong.append(f"{name}() at {node!r}: {type(error).__name__}: {error}")
    assert wrong == []
