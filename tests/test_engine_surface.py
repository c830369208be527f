"""The engines' public surface for researchers (cardbase/games/base.py's protocol, each game's
position builders): what a bad argument is refused with, what the public attributes are, and what
the observation tensors' shapes say."""

from __future__ import annotations

import dataclasses
import functools
import inspect
import math
import random
import re
import typing
from typing import Any

import pytest

from cardbase.games.base import SPECTATOR, InvalidSeat, Outcome, State, check_seat
from cardbase.sim import registry
from tests.golden.walks import rules_of

GAMES = [("meio", {"players": 3}), ("mea", {"board_size": 9}), ("meikyu", {"players": 3})]


def _started(game: str, options: dict[str, Any]) -> State:
    """A state of ``game`` a few random actions in, a player to act."""
    state = rules_of(game, options).new_initial_state(5)
    rng = random.Random(5)
    for _ in range(6):
        state.resolve_chance()
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    state.resolve_chance()
    return state


# -- seats: one check, every method that takes one ---------------------------------------------------


def test_the_seat_check_refuses_bools_and_seats_outside_the_table():
    assert check_seat(2, 3) == 2
    assert check_seat(SPECTATOR, 3, spectator=True) == SPECTATOR
    for seat in (-1, 3, True, False, 1.0, "1", None):
        with pytest.raises(InvalidSeat, match="seat"):
            check_seat(seat, 3)
    with pytest.raises(InvalidSeat, match=r"True.*not a seat number"):
        check_seat(True, 3)
    with pytest.raises(InvalidSeat):
        check_seat(SPECTATOR, 3)
    assert issubclass(InvalidSeat, ValueError)


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_every_method_taking_a_seat_refuses_a_bool_and_a_seat_outside_the_table(game, options):
    state = _started(game, options)
    n = state.rules.players
    calls = {
        "observation": lambda s: state.observation(s),
        "observation_tensor": lambda s: state.observation_tensor(s),
        "information_state_key": lambda s: state.information_state_key(s),
        "resample_from_infostate": lambda s: state.resample_from_infostate(s, random.Random(1)),
        "action_text": lambda s: state.action_text(state.legal_actions()[0], viewer=s),
        "make_agent": lambda s: registry.game(game).make_agent("random", state.rules, s, 0),
    }
    for name, call in calls.items():
        call(0)  # a seat is taken
        for seat in (True, False, n, -4, 1.0):
            with pytest.raises(InvalidSeat, match="seat"):
                call(seat)
                pytest.fail(f"{name}({seat!r}) was accepted")
    if game == "mea":  # the search agents' deal, from a view
        view = state.observation(0).view  # type: ignore[attr-defined]
        view.determinise(0, random.Random(1))
        for seat in (True, 2):
            with pytest.raises(InvalidSeat):
                view.determinise(seat, random.Random(1))
    state.observation(SPECTATOR)  # the spectator sees what is public
    state.action_text(state.legal_actions()[0], viewer=SPECTATOR)


# -- public attributes have public types -----------------------------------------------------------

PRIVATE_NAME = re.compile(r"(?<![\w.])_[A-Za-z]\w*")


def test_no_public_attribute_of_the_engines_has_a_private_type():
    """``rules.tables``, ``rules.ids()``, … are read by researchers: their types are public classes,
    documented, not the engines' ``_`` names (MeikyuRules.tables was a ``MeikyuTables``, MeaRules.ids an
    ``MeaActionIds``)."""
    from cardbase.games.mea.engine import MeaState
    from cardbase.games.mea.observation import MeaObservation
    from cardbase.games.mea.rules import MeaRules
    from cardbase.games.meikyu.engine import MeikyuRules, MeikyuState
    from cardbase.games.meikyu.observation import MeikyuObservation
    from cardbase.games.meio.engine import MeioObservation, MeioState
    from cardbase.games.meio.rules import MeioRules

    private = []
    classes = [MeaRules, MeaState, MeaObservation, MeioRules, MeioState, MeioObservation]
    for cls in [*classes, MeikyuRules, MeikyuState, MeikyuObservation]:
        for name, member in inspect.getmembers(cls):
            if name.startswith("_"):
                continue
            if isinstance(member, property):
                function = member.fget
            elif isinstance(member, functools.cached_property):
                function = member.func
            else:
                function = getattr(member, "__func__", member)
            annotations = getattr(function, "__annotations__", None)
            if isinstance(annotations, dict):
                private += [f"{cls.__name__}.{name} {k}: {v}" for k, v in annotations.items() if _private(v)]
        fields = getattr(cls, "__annotations__", {})
        private += [f"{cls.__name__}.{k}: {v}" for k, v in fields.items() if not k.startswith("_") and _private(v)]
    assert private == []


def _private(annotation: object) -> bool:
    return isinstance(annotation, str) and PRIVATE_NAME.search(annotation) is not None


# -- outcomes: the scores' type says what they hold ------------------------------------------------


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_an_outcomes_scores_are_of_the_type_it_declares(game, options):
    """``Outcome.scores`` (and ``round_scores``) hold what their annotation says: Meio's are ints (its
    card points), Méa's and Meikyu's floats (as their records have always written them); the
    annotation said float only."""
    declared = typing.get_type_hints(Outcome)
    score = typing.get_args(declared["scores"])[0]
    round_score = typing.get_args(typing.get_args(declared["round_scores"])[0])[0]
    state = rules_of(game, options).new_initial_state(2)
    rng = random.Random(2)
    while state.outcome() is None:
        state.resolve_chance()
        if state.outcome() is None:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    outcome = state.outcome()
    assert outcome is not None and outcome.scores
    allowed = typing.get_args(score) or (score,)
    assert all(type(s) in allowed for s in outcome.scores), (outcome.scores, score)
    allowed = typing.get_args(round_score) or (round_score,)
    assert all(type(s) in allowed for r in outcome.round_scores for s in r), (outcome.round_scores, round_score)


# -- observation tensors: the layout is the shape, under every option --------------------------------


def _option_cases() -> list[tuple[str, dict[str, Any]]]:
    """Each game with each option changed alone from the walks' rules: every word of
    ``option_choices``, each yes/no flipped, the player counts, and Méa's board sizes."""
    from cardbase.games.mea.rules import MeaRules
    from cardbase.games.meikyu.rules import MeikyuRules
    from cardbase.games.meio.rules import MeioRules

    cases: list[tuple[str, dict[str, Any]]] = []
    for game, cls, base, players in [
        ("meio", MeioRules, {"players": 3}, (2, 3, 4)),
        ("mea", MeaRules, {"board_size": 9}, ()),
        ("meikyu", MeikyuRules, {"players": 3}, (2, 3, 4, 5)),
    ]:
        cases += [(game, {**base, "players": n}) for n in players]
        for name, words in cls.option_choices.items():
            cases += [(game, {**base, name: word}) for word in words]
        for f in dataclasses.fields(cls):
            if f.type == "bool":
                cases.append((game, {**base, f.name: not f.default}))
    cases += [("mea", {"board_size": size}) for size in (7, 13)]
    return cases


@pytest.mark.parametrize(("game", "options"), _option_cases())
def test_the_observation_tensor_has_the_layouts_shape_under_every_option(game, options):
    """At every node of a random walk by integer steps (the steps of an action under way too), each
    seat's tensor is as long as ``observation_tensor_layout()`` says: a piece that grows under an
    option (Meikyu's ``decision``, which has the "mixed area" decision of ``mixed_area="any"``)
    grows in the layout too."""
    rules = rules_of(game, options)
    size = rules.observation_tensor_size()
    assert size == sum(math.prod(shape) for _, shape in rules.observation_tensor_layout())
    state = rules.new_initial_state(7)
    rng = random.Random(7)
    prefix: list[int] = []
    for _ in range(150):
        if state.is_terminal:
            break
        for seat in range(rules.players):
            assert len(state.observation_tensor(seat, prefix)) == size, (seat, prefix)
        steps = state.legal_ids(prefix)
        prefix.append(steps[rng.randrange(len(steps))])
        action = state.action_from_ids(prefix)
        if action is not None:
            state.apply(action)
            prefix = []


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_the_layouts_docstring_names_every_piece(game, options):
    """``observation_tensor_layout``'s docstring is the tensor's documentation: it names each piece
    (Meio's named three of seventeen)."""
    rules = rules_of(game, options)
    doc = type(rules).observation_tensor_layout.__doc__ or ""
    missing = [name for name, _ in rules.observation_tensor_layout() if f"``{name}``" not in doc]
    assert missing == []


def test_meikyus_decision_piece_has_an_entry_per_decision_under_either_mixed_area_reading():
    """The ``decision`` piece is one-hot over every decision code (:data:`DECISIONS`), "mixed area"
    included under ``mixed_area="before"`` too, where it never lights: one layout per player count
    and pool whatever the readings, so a tensor of one reading is read as one of another."""
    from cardbase.games.meikyu.codes import DECISIONS

    for reading in ("before", "any"):
        layout = dict(rules_of("meikyu", {"players": 2, "mixed_area": reading}).observation_tensor_layout())
        assert layout["decision"] == (len(DECISIONS),) and "mixed area" in DECISIONS.values()
