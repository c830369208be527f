"""The determinised Monte Carlo loop the games' search agents share (cardbase/games/montecarlo.py),
on a toy game whose deals and values are known: every candidate meets the same deals, in order,
each its own copy; a decision with one candidate is not searched; ties keep the order given; a
cost ranks low first; the game's own choice stands unless another beats it clearly."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from types import SimpleNamespace
from typing import Any

import pytest

from cardbase.games.montecarlo import MonteCarloAgent, rank


class Toy:
    """A dealt world (a number) with one action applied: the value is the deal times the action."""

    def __init__(self, deal: int, log: list[Any]):
        self.deal, self.action, self.log = deal, None, log

    def apply_unchecked(self, action: Any) -> None:
        assert self.action is None, "each candidate plays on its own copy"
        self.action = action


class ToyAgent(MonteCarloAgent):
    """Deals 1, 2, 3, … in turn; ranks on the first deal when ``early`` (as Méa's agent does)."""

    def __init__(self, actions: Sequence[Any], samples: int, early: bool = False, lower: bool = False):
        super().__init__(None, 0, 7, samples)
        self.actions, self.early = list(actions), early
        self.lower_is_better = lower
        self.deals = 0
        self.log: list[Any] = []

    def candidates(
        self, observation: Any, legal_actions: Sequence[Any], first_deal: Callable[[], Any]
    ) -> Sequence[Any]:
        if self.early and len(self.actions) > 1:
            self.log.append(("ranked on", first_deal()))
            first_deal()  # dealt once however often asked
        return self.actions

    def deal(self, observation: Any) -> int:
        self.deals += 1
        return self.deals

    def copy(self, world: int) -> Any:
        return Toy(world, self.log)

    def rollout(self, state: Any) -> None:
        self.log.append((state.deal, state.action))

    def value(self, state: Any) -> float:
        return float(state.deal * state.action)


def test_every_candidate_meets_the_same_deals_in_order():
    agent = ToyAgent([1, 2, 3], samples=4)
    played = agent.playouts(None, [])
    assert [a for a, _ in played] == [1, 2, 3]
    assert [v for _, v in played] == [[1.0, 2.0, 3.0, 4.0], [2.0, 4.0, 6.0, 8.0], [3.0, 6.0, 9.0, 12.0]]
    # deal by deal, every candidate on its own copy of it
    assert agent.log == [(d, a) for d in (1, 2, 3, 4) for a in (1, 2, 3)]
    assert agent.deals == 4


def test_the_first_deal_a_game_ranks_on_is_the_first_sample():
    agent = ToyAgent([1, 2], samples=3, early=True)
    agent.playouts(None, [])
    assert agent.deals == 3 and agent.log[0] == ("ranked on", 1) and agent.log[1:3] == [(1, 1), (1, 2)]


def test_one_candidate_is_not_searched_and_deals_nothing():
    agent = ToyAgent(["only"], samples=5, early=True)
    assert agent.playouts(None, []) == [("only", [])]
    assert agent.deals == 0 and agent.log == []
    ((action, mean),) = agent.evaluate(None, [])
    assert action == "only" and math.isnan(mean)


def test_best_mean_first_and_a_cost_low_first():
    assert ToyAgent([2, 5, 3], samples=2).evaluate(None, []) == [(5, 7.5), (3, 4.5), (2, 3.0)]
    assert ToyAgent([2, 5, 3], samples=2, lower=True).evaluate(None, []) == [(2, 3.0), (3, 4.5), (5, 7.5)]
    seat_0 = SimpleNamespace(player=0)  # (an agent acts on its own seat's observation, with legal actions)
    assert ToyAgent([2, 5, 3], samples=2).act(seat_0, [2, 5, 3]) == 5


def test_ties_keep_the_order_given():
    played = [("a", [1.0, 3.0]), ("b", [2.0, 2.0]), ("c", [0.0, 4.0]), ("d", [5.0, 5.0])]
    assert [a for a, _ in rank(played)] == ["d", "a", "b", "c"]
    assert [a for a, _ in rank(played, lower_is_better=True)] == ["a", "b", "c", "d"]


@pytest.mark.parametrize(
    ("other", "prior", "confidence", "stands"),
    [
        ([0.6, 0.6, 0.6, 0.6], 0.05, 1.0, False),  # better by 0.1 every time: clearly
        ([0.6, 0.6, 0.6, 0.6], 0.2, 0.0, True),  # but not by the prior
        ([1.0, 0.1, 1.0, 0.1], 0.01, 1.0, True),  # better on average (0.55), not beyond one standard error
        ([1.0, 0.1, 1.0, 0.1], 0.01, 0.0, False),  # without the confidence test it wins
    ],
)
def test_the_games_own_choice_stands_unless_beaten_clearly(other, prior, confidence, stands):
    played = [("own", [0.5, 0.5, 0.5, 0.5]), ("other", other)]
    ranked = rank(played, prior=prior, confidence=confidence)
    assert ranked[0][0] == ("own" if stands else "other")
    assert sorted(m for _, m in ranked) == sorted(sum(v) / 4 for _, v in played)


def test_a_cost_with_a_prior_needs_a_lower_mean():
    played = [("own", [3.0, 3.0]), ("other", [2.0, 2.0])]
    assert rank(played, lower_is_better=True, prior=0.5)[0][0] == "other"
    assert rank(played, lower_is_better=False, prior=0.5)[0][0] == "own"


def test_samples_must_be_at_least_one():
    with pytest.raises(ValueError, match="samples"):
        ToyAgent([1, 2], samples=0)
