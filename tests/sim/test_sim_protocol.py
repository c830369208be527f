"""The engine protocol (:mod:`cardbase.games.base`), checked generically for every game in the
simulator's registry: random games with invariants at every step."""

from __future__ import annotations

import pickle
import random
import re
import shutil
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

from cardbase.games.base import CHANCE, TERMINAL, IllegalAction, InvalidAction, InvalidRules, Outcome, State
from cardbase.sim.registry import GAMES
from tests.conftest import REPO
from tests.golden.walks import rules_of

# Every registered game, with variants that change what is legal. Méa's decks are the example
# decks; its integer ids need a bounded board (board_size). Meikyu's pool is the shipped catalog
# with the default assumption profile.
CASES: list[tuple[str, dict[str, Any]]] = [
    ("meio", {"players": 2}),
    ("meio", {"players": 3, "hearts_anytime": False}),
    ("meio", {"players": 4}),
    ("mea", {"board_size": 9}),
    ("mea", {"board_size": 7, "adjacency": "diagonal", "move_in": "first", "move_onto_enemy": "allowed"}),
    ("meikyu", {"players": 2}),
    ("meikyu", {"players": 4, "aggression_target": "defender", "grimoire": "stack"}),
]


def test_every_registered_game_is_checked():
    assert {game for game, _ in CASES} == set(GAMES)


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_rules_round_trip_their_options(game_id, options):
    rules = rules_of(game_id, options)
    assert type(rules).from_options(rules.to_options()) == rules
    assert rules.game_id == game_id
    assert GAMES[game_id].make_rules(rules.to_options()) == rules


def _steps_of(state: State, action: Any) -> tuple[int, ...]:
    """``action``'s steps, each checked legal where it is taken; the action completes at the last."""
    steps = state.action_ids(action)
    assert steps, action
    for k, step in enumerate(steps):
        legal = state.legal_ids(steps[:k])
        assert step in legal, (action, steps, k, legal)
        done = state.action_from_ids(steps[: k + 1])
        assert (done is None) == (k < len(steps) - 1), (action, steps, k, done)
    assert done == action
    return steps


def _check_steps(state: State, rng: random.Random, keys: dict[str, list[int]]) -> None:
    """The integer steps, tensors and keys at a decision."""
    rules = state.rules
    p = state.current_player
    first = state.legal_ids()
    assert first == sorted(set(first)) and first
    assert all(0 <= i < rules.num_distinct_actions() for i in first)
    legal = state.legal_actions()
    assert {state.action_ids(a)[0] for a in legal} == set(first)
    for a in {legal[rng.randrange(len(legal))] for _ in range(3)}:
        _steps_of(state, a)
    # A walk of random steps ends in a legal action.
    prefix: list[int] = []
    while (action := state.action_from_ids(prefix)) is None:
        options = state.legal_ids(prefix)
        assert options and all(0 <= i < rules.num_distinct_actions() for i in options)
        prefix.append(rng.choice(options))
    assert state.is_legal(action) and state.action_ids(action) == tuple(prefix)
    # Equal keys, equal legal steps.
    key = state.information_state_key(p)
    assert keys.setdefault(key, first) == first
    for seat in range(rules.players):
        tensor = state.observation_tensor(seat)
        assert len(tensor) == rules.observation_tensor_size()
        assert all(isinstance(x, float) for x in tensor)
    # What a seat cannot see is not in its key, its tensor or its observation: a world dealt
    # afresh from its knowledge looks the same to it (and leaves its legal steps alone).
    world = state.resample_from_infostate(p, rng)
    assert world.information_state_key(p) == key
    assert world.observation_tensor(p) == state.observation_tensor(p)
    assert world.legal_ids() == first
    assert world.history == []


def _check_sequence(legal: Any) -> None:
    """A list of legal actions, lazy or not, is a whole ``Sequence``: slices (a tuple), negative
    indices, ``IndexError`` past the end, and a repr that says what it is."""
    whole = tuple(legal)
    n = len(whole)
    assert len(legal) == n
    for cut in (slice(None, 3), slice(-2, None), slice(None, None, -1), slice(1, n, 2), slice(n + 5, None)):
        part = legal[cut]
        assert isinstance(part, tuple) and part == whole[cut], (cut, part)
    assert legal[-1] == whole[-1] and legal[0] == whole[0]
    with pytest.raises(IndexError):
        legal[n]
    assert " object at 0x" not in repr(legal), repr(legal)


def _check_chance(state: State, rng: random.Random) -> Any:
    """The chance steps; returns the chance action they sampled."""
    rules = state.rules
    prefix: list[int] = []
    while (action := state.action_from_ids(prefix)) is None:
        outcomes = state.chance_ids(prefix)
        assert abs(sum(w for _, w in outcomes) - 1.0) < 1e-9
        assert all(0 <= i < rules.max_chance_outcomes() and w > 0 for i, w in outcomes)
        assert [i for i, _ in outcomes] == state.legal_ids(prefix)
        prefix.append(rng.choices([i for i, _ in outcomes], [w for _, w in outcomes])[0])
    assert state.action_ids(action) == tuple(prefix)
    state.check(action)
    return action


@pytest.mark.parametrize(("game_id", "options"), CASES)
@pytest.mark.parametrize("seed", range(3))
def test_a_random_game_keeps_the_protocol(game_id, options, seed):
    rules = rules_of(game_id, options)
    state: State = rules.new_initial_state(seed)
    assert state.history == [] and state.outcome() is None
    rng = random.Random(seed)
    keys: dict[str, list[int]] = {}
    lists: set[type] = set()  # the kinds of legal-action list checked as sequences
    decisions = steps = 0
    while not state.is_terminal:
        p = state.current_player
        assert p == CHANCE or 0 <= p < rules.players
        if state.is_chance_node:
            action = state.sample_chance() if rng.random() < 0.5 else _check_chance(state, rng)
        else:
            legal = state.legal_actions()
            assert len(legal) > 0
            if type(legal) not in lists:
                lists.add(type(legal))
                _check_sequence(legal)
            picks = [legal[rng.randrange(len(legal))] for _ in range(min(5, len(legal)))]
            for a in picks:
                assert rules.parse_action(str(a)) == a  # notation parses back
                assert state.parse_action(str(a)) == a
                assert state.is_legal(a)
                assert pickle.loads(pickle.dumps(a)) == a
                hash(a)
            action = picks[0]
            for seat in range(rules.players):
                obs = state.observation(seat)
                assert obs.player == seat and isinstance(obs.describe(), str)
            assert state.outcome() is None
            if decisions % 3 == 0:
                _check_steps(state, rng, keys)
            decisions += 1
        # The repr says who acts in words at a chance node (not the constant's value, -1).
        assert "to act: chance" in repr(state) if state.is_chance_node else f"to act: {p}>" in repr(state)
        steps += len(state.action_ids(action))
        before = len(state.history)
        twin = state.clone()
        state.apply(action)
        assert len(state.history) == before + 1 and state.history[-1] == action
        assert len(twin.history) == before  # the clone did not move
        twin.apply(action)
        assert twin.current_player == state.current_player
        assert twin.legal_ids() == state.legal_ids()
        if not state.is_terminal and state.current_player >= 0:
            seat = state.current_player
            assert twin.information_state_key(seat) == state.information_state_key(seat)
    assert state.current_player == TERMINAL and state.legal_actions() == () and state.legal_ids() == []
    assert repr(state).endswith("to act: nobody (over)>"), repr(state)
    assert steps <= rules.max_game_length()  # player and chance steps (Shimmy cuts a game off there)
    outcome = state.outcome()
    assert isinstance(outcome, Outcome)
    assert outcome.winners and set(outcome.winners) <= set(range(rules.players))
    assert len(outcome.scores) == rules.players
    with pytest.raises(IllegalAction):
        state.apply(action)


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_errors_are_value_errors(game_id, options):
    rules = rules_of(game_id, options)
    with pytest.raises(InvalidAction) as e:
        rules.parse_action("certainly not an action")
    assert isinstance(e.value, ValueError)
    state = rules.new_initial_state(0)
    state.resolve_chance()
    # An action that was legal a few moves ago and is not now (Méa's draws stay legal a turn).
    seen: list[Any] = []
    stale = None
    while stale is None and not state.is_terminal:
        legal = state.legal_actions()
        seen.extend(legal)
        state.apply(legal[0])
        state.resolve_chance()
        stale = next((a for a in seen if not state.is_legal(a)), None)
    assert stale is not None
    with pytest.raises(IllegalAction) as e2:
        state.apply(stale)
    assert isinstance(e2.value, ValueError) and str(e2.value)


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_a_pickled_state_is_the_same_game_and_small(game_id, options):
    """A state pickles (OpenSpiel saves a Python game's state so, multiprocessing and Dask send it
    so) to the same game, without the tables every state of the rules shares: a few tens of KB
    at most (Méa's and Meikyu's rules hold their decks and card pool)."""
    rules = rules_of(game_id, options)
    state = rules.new_initial_state(5)
    rng = random.Random(5)
    for _ in range(30):
        if state.is_terminal:
            break
        if state.is_chance_node:
            state.resolve_chance()
        else:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    data = pickle.dumps(state)
    assert len(data) < 60_000, len(data)
    copy = pickle.loads(data)
    assert copy.history == state.history and copy.current_player == state.current_player
    assert copy.legal_ids() == state.legal_ids()
    for seat in range(rules.players):
        assert copy.information_state_key(seat) == state.information_state_key(seat)
        assert copy.observation_tensor(seat) == state.observation_tensor(seat)
    assert copy.rng.getstate() == state.rng.getstate()
    if not state.is_terminal:
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        state.apply(action)
        copy.apply(action)
        assert copy.legal_ids() == state.legal_ids()


def test_the_readme_native_examples_run(tmp_path):
    """The README's examples of the engines without a toolkit (``uv run python -c '…'``), as written,
    from a clone's files: each plays a game to its outcome."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    examples = re.findall(r"```sh\nuv run python -c '\n(.*?)\n'\n```", readme, re.S)
    assert examples
    shutil.copytree(REPO / "examples", tmp_path / "examples")
    for code in examples:
        run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        assert run.stdout.startswith("Outcome(winners="), run.stdout


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_an_agent_is_made_for_a_seat_of_the_game(game_id, options):
    """``make_agent`` refuses a seat the game does not have (one ``ValueError``; Méa's agents raised
    IndexError, the others took it), and names an agent that takes no options as such."""
    rules = rules_of(game_id, options)
    entry = GAMES[game_id]
    for name in entry.agents:
        for seat in (rules.players, -1):
            with pytest.raises(ValueError, match=f"no seat {seat} in a {rules.players}-player game"):
                entry.make_agent(name, rules, seat, 0)
    with pytest.raises(ValueError, match=r"^agent 'random:x=1': random takes no options$"):
        entry.make_agent("random:x=1", rules, 0, 0)
    # An agent says what it is and whose seat (it was an object address).
    for name in entry.agents:
        agent = entry.make_agent(name, rules, 1, 0)
        assert repr(agent) == f"<{type(agent).__name__} {name!r} for seat 1>"
    assert repr(entry.make_agent("search:samples=3", rules, 0, 0)) == "<SearchAgent 'search:samples=3' for seat 0>"


RESEARCH_MODULES = [
    "cardbase.games.base",
    *(f"cardbase.games.{g}.{m}" for g in ("meio", "mea", "meikyu") for m in ("engine", "rules", "actions")),
    *(f"cardbase.games.{g}.observation" for g in ("meio", "mea", "meikyu")),
    "cardbase.games.mea.legal",
    "cardbase.games.meikyu.tables",  # MeikyuRules.tables' type
    "cardbase.sim.registry",
    "cardbase.sim.agents",
]


def public_names_without_a_docstring(module_names: list[str]) -> list[str]:
    """The public classes and functions of the modules, and the public methods and properties their
    classes define, that have no docstring of their own or from a class they derive from."""
    import importlib
    import inspect

    missing = []
    for module_name in module_names:
        module = importlib.import_module(module_name)
        for name, obj in vars(module).items():
            if name.startswith("_") or getattr(obj, "__module__", None) != module_name:
                continue
            if (inspect.isclass(obj) or inspect.isfunction(obj)) and not inspect.getdoc(obj):
                missing.append(f"{module_name}.{name}")
            if not inspect.isclass(obj):
                continue
            for key, member in vars(obj).items():
                if isinstance(member, staticmethod | classmethod):
                    member = member.__func__
                if key.startswith("_") or not (inspect.isfunction(member) or isinstance(member, property)):
                    continue
                inherited = any(getattr(getattr(base, key, None), "__doc__", None) for base in obj.__mro__[1:-1])
                if not member.__doc__ and not inherited:
                    missing.append(f"{module_name}.{name}.{key}")
    return missing


def test_the_engines_public_names_have_docstrings():
    """What a researcher reads with ``help()``: every public class, function, method and property of
    the engine protocol, the engines, their rules, actions and observations, and the agents."""
    assert public_names_without_a_docstring(RESEARCH_MODULES) == []


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_reprs_are_short_and_say_what_they_are(game_id, options):
    """A rules object, a state and an observation print in a few lines at most: a deck or a card pool by
    its name and size (Méa's rules printed 13,000 characters, Meikyu's 9,000), an observation by its
    seat (Méa's was an object address)."""
    rules = rules_of(game_id, options)
    state = rules.new_initial_state(0)
    state.resolve_chance()
    for thing in (rules, state, state.observation(0)):
        text = repr(thing)
        assert len(text) < 1000 and " object at 0x" not in text, text
        assert text.startswith((type(thing).__name__, f"<{type(thing).__name__}")), text
    assert "player=0" in repr(state.observation(0))


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_a_seed_is_one_a_record_can_hold(game_id, options):
    """``new_initial_state`` takes the seeds a game record holds (a whole number from 0 to 2**64 - 1,
    or None) and refuses any other, one ``ValueError``: it took 'x', 1.5, True and -1, and played a
    game whose record could not be read back."""
    rules = rules_of(game_id, options)
    for seed in (None, 0, 2**64 - 1, np.uint64(2**64 - 1), np.int64(7)):
        state = rules.new_initial_state(seed)
        assert state.seed == seed and type(state.seed) is (int if seed is not None else type(None))
    for seed in ("x", 1.5, True, -1, 2**64):
        with pytest.raises(ValueError, match=r"a seed is a whole number from 0 to 2\*\*64 - 1, or None, not "):
            rules.new_initial_state(seed)


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_options_that_are_no_mapping_are_refused(game_id, options):
    """``from_options`` reads a mapping of option names: anything else is one ``InvalidRules`` saying
    so (a list gave Meio's default rules, a text was read letter by letter, None was a TypeError)."""
    cls = type(rules_of(game_id, options))
    for bad in ([], "players=3", None, 5, [("players", 3)]):
        with pytest.raises(InvalidRules, match="options are a mapping of option names to values, not "):
            cls.from_options(bad)
    with pytest.raises(InvalidRules, match=r"unknown .* option 1 "):
        cls.from_options({1: 2, "zz": 3})
