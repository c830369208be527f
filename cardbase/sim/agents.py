"""Agents that work for any game of the engine protocol."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from cardbase.games.base import Rules, agent_repr, check_act


class RandomAgent:
    """Picks uniformly among the legal actions (works on lazy sequences too)."""

    name = "random"

    def __repr__(self) -> str:
        return agent_repr(self)

    def __init__(self, rules: Rules, seat: int, seed: int | None = None):
        self.seat = seat
        self.rng = random.Random(seed)

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        """A legal action drawn uniformly from the agent's own RNG."""
        check_act(self, observation, legal_actions)
        return legal_actions[self.rng.randrange(len(legal_actions))]
