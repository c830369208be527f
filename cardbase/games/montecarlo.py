"""Determinised Monte Carlo search (the games' ``search`` agents), written once.

For a decision, a game names the candidate actions it compares; then, ``samples`` times, the
cards the seat cannot see are dealt at random consistently with its observation (a
*determinisation*), and every candidate is played on that same deal: a copy of the dealt state,
the candidate applied, a rollout by the game's policy, the position reached valued for the seat.
The candidates meet the same deals (common random numbers), so their values are paired: sample
``s`` of each candidate is on deal ``s``. The best mean wins; with a ``prior`` the game's own
choice (its first candidate) stands unless another beats it by ``prior`` on average and by
``confidence`` standard errors of the paired differences.

A game supplies the hooks of :class:`MonteCarloAgent`: which actions a decision compares, a
deal, a copy of a deal to play a candidate on, a rollout, a value, and whether a lower value is
better. :mod:`cardbase.games.ismcts` is the tree search over the same hooks' kind. Pure: no I/O.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any

from cardbase.games.base import State, agent_repr, check_act, check_at_least_one

Played = list[tuple[Any, list[float]]]
"""Candidates, each with its value in each sample (the same deals for every candidate, in order);
a decision not searched: one action with no values."""


def rank(
    played: Played, lower_is_better: bool = False, prior: float | None = None, confidence: float = 0.0
) -> list[tuple[Any, float]]:
    """Candidates with their mean value, best first (ties: the order given); one candidate: its
    mean is NaN (not searched). With ``prior``, the first candidate (the game's own choice) is
    put first unless another's mean beats it by more than ``prior`` and the paired differences'
    mean is more than ``confidence`` standard errors."""
    if len(played) == 1:
        return [(played[0][0], float("nan"))]
    sign = -1.0 if lower_is_better else 1.0
    means = [sum(values) / len(values) for _, values in played]
    if prior is None:
        order = sorted(range(len(played)), key=lambda i: -sign * means[i])
        return [(played[i][0], means[i]) for i in order]
    best = 0
    base = played[0][1]
    for i in range(1, len(played)):
        if sign * means[i] - prior <= sign * means[best]:
            continue
        diffs = [sign * (a - b) for a, b in zip(played[i][1], base, strict=True)]
        mean = sum(diffs) / len(diffs)
        var = sum((d - mean) ** 2 for d in diffs) / max(1, len(diffs) - 1)
        if mean > confidence * (var / len(diffs)) ** 0.5:
            best = i
    order = sorted(range(len(played)), key=lambda i: (i != best, -sign * means[i]))
    return [(played[i][0], means[i]) for i in order]


class MonteCarloAgent(ABC):
    """A determinised Monte Carlo search agent (see the module): ``samples`` deals per decision,
    every candidate played on each. Subclasses give the hooks; ``act`` takes the best action of
    :meth:`evaluate`. ``lower_is_better``: the value is a cost (a score to keep low). ``prior`` (and
    ``confidence``): see :func:`rank`; ``None``: the best mean wins outright."""

    name = "search"
    lower_is_better: bool = False
    prior: float | None = None
    confidence: float = 0.0

    def __repr__(self) -> str:
        return agent_repr(self)

    def __init__(self, rules: Any, seat: int, seed: int | None, samples: int) -> None:
        check_at_least_one(samples=samples)
        self.rules = rules
        self.seat = seat
        self.rng = random.Random(seed)
        self.samples = samples

    # -- the game's hooks --

    @abstractmethod
    def candidates(
        self, observation: Any, legal_actions: Sequence[Any], first_deal: Callable[[], Any]
    ) -> Sequence[Any]:
        """The actions this decision compares (the game's own choice first when ``prior`` is set); a
        single one is taken without search. ``first_deal()`` deals (once) the first sample's world,
        for a game that ranks its candidates on a dealt state; the search then plays on it."""

    @abstractmethod
    def deal(self, observation: Any) -> Any:
        """A world consistent with ``observation``, the hidden cards dealt from ``self.rng``: what
        :meth:`copy` plays each candidate on."""

    @abstractmethod
    def copy(self, world: Any) -> State:
        """A state of ``world`` to play one candidate on (each candidate its own)."""

    @abstractmethod
    def rollout(self, state: State) -> None:
        """Play on from ``state`` with the game's policy, to its horizon."""

    @abstractmethod
    def value(self, state: State) -> float:
        """The position reached, valued for this seat."""

    # -- the search --

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        check_act(self, observation, legal_actions)
        return self.evaluate(observation, legal_actions)[0][0]

    def evaluate(self, observation: Any, legal_actions: Sequence[Any]) -> list[tuple[Any, float]]:
        """Candidates with their mean value for this seat, best first (NaN: not searched)."""
        return rank(self.playouts(observation, legal_actions), self.lower_is_better, self.prior, self.confidence)

    def playouts(self, observation: Any, legal_actions: Sequence[Any]) -> Played:
        """The candidates, each with its value for this seat after each of the ``samples`` deals
        (the same deals for every candidate); a decision not searched: its one action, no values."""
        dealt: list[Any] = []

        def first_deal() -> Any:
            if not dealt:
                dealt.append(self.deal(observation))
            return dealt[0]

        candidates = list(self.candidates(observation, legal_actions, first_deal))
        if len(candidates) == 1:
            return [(candidates[0], [])]
        values: list[list[float]] = [[] for _ in candidates]
        for _ in range(self.samples):
            world = dealt.pop() if dealt else self.deal(observation)
            for k, action in enumerate(candidates):
                state = self.copy(world)
                state.apply_unchecked(action)
                self.rollout(state)
                values[k].append(self.value(state))
        return list(zip(candidates, values, strict=True))
