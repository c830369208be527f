"""Helpers for Meikyu scenarios: the default pool, positions, and stepping through a turn."""

from __future__ import annotations

from functools import cache
from typing import Any

from cardbase.catalog.meikyu_profiles import shipped_pool
from cardbase.games.base import CHANCE
from cardbase.games.meikyu.engine import DrawCard, MeikyuRules, MeikyuState, Reveal, Roll
from cardbase.games.meikyu.pool import CardPool

ROOMS4 = ("Unnamed room 1", "Unnamed room 2", "Unnamed room 3", "Unnamed room 4")
"""Plain lands without an effect: level 4, 5, 6, 8 (default profile)."""


@cache
def default_pool() -> CardPool:
    return shipped_pool("default")


def rules(players: int = 2, **options: Any) -> MeikyuRules:
    return MeikyuRules(default_pool(), players=players, **options)


def position(players: int = 2, rules_options: dict[str, Any] | None = None, **kw: Any) -> MeikyuState:
    """A position (see :meth:`MeikyuState.position`); rooms default to four plain lands."""
    kw.setdefault("rooms", ROOMS4)
    return MeikyuState.position(rules(players, **(rules_options or {})), **kw)


def act(state: MeikyuState, *texts: str) -> None:
    """Apply each action written as text, checked (chance actions too: ``roll 4``)."""
    for text in texts:
        state.apply(state.parse_action(text))


def roll(state: MeikyuState, *values: int) -> None:
    for v in values:
        state.apply(Roll(v))


def draw(state: MeikyuState, *names: str) -> None:
    for name in names:
        state.apply(DrawCard(name))


def reveal(state: MeikyuState, *names: str) -> None:
    for name in names:
        state.apply(Reveal(name))


def settle(state: MeikyuState, until_turns: int | None = None) -> None:
    """Answer every pending choice the plain way (discard orders: first listed; hand limit:
    first listed; optional effects: pass) and sample chance, until the next turn's action
    or ``until_turns`` turns are done."""
    target = state.turns + 1 if until_turns is None else until_turns
    while not state.is_terminal:
        if state.current_player == CHANCE:
            state.apply(state.sample_chance())
            continue
        if state.decision == "action" and state.turns >= target:
            return
        legal = state.legal_actions()
        words = {str(a): a for a in legal}
        state.apply(words.get("pass") or words.get("draw") or legal[0])
