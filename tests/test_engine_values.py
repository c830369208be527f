"""The engines as a library, judged by python-chess's and OpenSpiel's bar, over the three games alike:
a value's repr is code that evaluates back to it, and bad input is one of the engine's errors."""

from __future__ import annotations

import importlib
import random
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
