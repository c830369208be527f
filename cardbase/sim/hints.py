"""``hint``: the best move for the seat to play, how sure that is, and the next best, as data.

One function for the three games, :func:`hint`, which a game's table calls with the seat's
observation and legal actions (the terminal's ``play`` and the web's play pages format the same
:class:`Hint`). The estimate of each candidate is the mean over ``playouts`` simulations of what
follows it (the search agent's, with a budget of its own, :data:`PLAYOUTS`), every candidate on
the same hidden cards and dice; its interval is 95%:

* Meio: your round score, 0 to 7 (lower is better), and Meikyu: the search agent's chance of
  winning, 0 to 1, are bounded: :func:`cardbase.stats.bounded_mean_interval`;
* Méa: the search agent's evaluation of the position has no useful bound (±1000 is a won or lost
  game): Student's t (:func:`cardbase.stats.t_interval`); but playouts that all scored the same
  show t no spread, and t's interval of them is a point (eight won playouts are not a certain
  win): then the bounded interval between a lost and a won game's score; t's interval is cut there.

Each figure is shown to the digits its interval gives (:meth:`Measure.shown`, by
:func:`cardbase.stats.shown`): 1.8 (1.6–2.0) from 256 deals, not 1.77 (1.62–1.95).

The verdict is ``clear`` when the best estimate's interval is apart from the next best's, and
``too close to call`` when they overlap: then either is as good as the playouts can tell.
Candidates that score exactly as the best in every playout (two low cards of a suit when nothing
between them is left) are the same move as far as the playouts can tell: they are named beside
the best, and the next best is the best of the others (``all alike`` when there is none). At
Meio's split the hint is the split advisor of ``lab split`` (:mod:`cardbase.sim.split`) over the
heuristic's :data:`SPLIT_CANDIDATES` best splits. A decision the search does not compare (a
forced move; Méa's opening draw; Meikyu's steps other than the action) has the verdict ``only
move`` or ``not searched`` and no estimate.

The same ``seed`` in the same position gives the same hint.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cardbase.errors import counted
from cardbase.sim.registry import derive_seed
from cardbase.sim.stats import number
from cardbase.stats import bounded_mean_interval, intervals_overlap, rate_text, shown, t_interval

CLEAR = "clear"
TOO_CLOSE = "too close to call"
ONLY_MOVE = "only move"
NOT_SEARCHED = "not searched"
ALL_ALIKE = "all alike"

PLAYOUTS: dict[str, int] = {"meio": 1024, "mea": 160, "meikyu": 320}
"""Playouts per candidate of a hint, by game: they tell apart, 9 times in 10, two moves whose
estimates differ by 0.14 points of round score (Meio), 2.9 points of score (Méa) or 3.7 points of
winning chance (Meikyu); closer moves are too close to call, as most are (measured by
``benchmarks/hint_budget.py``; the figures are in docs/rules/<game>.md)."""

SPLIT_CANDIDATES = 16
"""At Meio's split the hint compares the heuristic's best 16 splits (``lab split`` all 1,716)."""
SPLIT_FIRST_DEALS = 32
"""… each first on 32 deals; halving then leaves two, checked on 256 fresh deals each."""


@dataclass(frozen=True)
class Measure:
    """What a hint's number is: its words, its range (``None``: unbounded) and which way is better."""

    words: str
    low: float | None
    high: float | None
    higher_is_better: bool
    percent: bool = False
    extremes: tuple[float, float] | None = None
    """With no bound (``low``, ``high`` None): the scores of a lost and a won game, the range the
    interval of playouts that all scored the same is taken in (t sees no spread in them), and
    that cuts t's interval (never past a won game's score)."""

    def shown(self, estimate: Estimate) -> tuple[str, str]:
        """An estimate and its 95% interval as a player reads them, to the digits the interval gives:
        ``("31%", "26%–39%")``, ``("1.8", "1.6–2.0")``, ``("-1", "-9 to +8")``; ``?`` at an end that
        is not known (one playout), ``—`` for no estimate."""
        if self.percent:
            return rate_text(estimate.mean, estimate.low, estimate.high)
        bounded = self.low is not None
        value, low, high = shown(estimate.mean, estimate.low, estimate.high, scale=1.0, signed=not bounded)
        if value == "—":
            return "—", "—"
        return value, (f"{low}–{high}" if bounded else f"{low} to {high}")


MEASURES: dict[str, Measure] = {
    "meio": Measure("your round score, |horizontal − vertical| tricks (lower is better)", 0.0, 7.0, False),
    "mea": Measure(
        "the search agent's score of the position after your opponent's next turn, yours minus theirs "
        "(3 per tile more, attack + defence per monster, 0.8 per card in hand up to 7; ±1000 = won or lost)",
        None,
        None,
        True,
        extremes=(-1000.0, 1000.0),
    ),
    "meikyu": Measure("the search agent's chance of winning (0 = lost, 1 = won)", 0.0, 1.0, True, percent=True),
}


@dataclass(frozen=True)
class Estimate:
    """One candidate: the action, as typed, its mean over ``samples`` playouts and 95% interval."""

    action: Any
    text: str
    mean: float
    low: float
    high: float
    samples: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": self.text,
            "estimate": number(self.mean),
            "ci": [number(self.low), number(self.high)],
            "playouts": self.samples,
        }


@dataclass(frozen=True)
class Hint:
    """A hint: the best candidate, the next best, the verdict, and what the numbers mean."""

    game: str
    best: Estimate
    runner_up: Estimate | None
    verdict: str
    measure: Measure
    method: str
    """How the estimates were made, in words (for the face to show)."""
    others: tuple[Estimate, ...] = field(default=())
    """The other candidates after the runner-up, best first."""
    same_as_best: tuple[str, ...] = field(default=())
    """Candidates that scored exactly as the best in every playout (``3H`` beside ``4H`` when
    nothing between them is left to play): the same move for all the playouts can tell, so the
    runner-up is the best candidate that is not one of them."""

    @property
    def clear(self) -> bool:
        return self.verdict == CLEAR

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "best": self.best.to_dict(),
            "runner_up": self.runner_up.to_dict() if self.runner_up else None,
            "verdict": self.verdict,
            "measure": self.measure.words,
            "range": [self.measure.low, self.measure.high],
            "higher_is_better": self.measure.higher_is_better,
            "method": self.method,
            "others": [e.to_dict() for e in self.others],
            "same_as_best": list(self.same_as_best),
        }


def _interval(game_id: str, values: Sequence[float]) -> tuple[float, float, float]:
    measure = MEASURES[game_id]
    if measure.low is not None and measure.high is not None:
        return bounded_mean_interval(values, measure.low, measure.high)
    mean, low, high = t_interval(values)
    if measure.extremes is None or not values:
        return mean, low, high
    least, most = min(measure.extremes[0], *values), max(measure.extremes[1], *values)
    if len(values) > 1 and low == high:  # all alike: t sees no spread
        return bounded_mean_interval(values, least, most)
    return mean, max(low, least), min(high, most)  # never past a won or a lost game's score


def verdict(best: Estimate, runner_up: Estimate) -> str:
    """``clear`` when the two intervals are apart, else ``too close to call``."""
    apart = not intervals_overlap((best.low, best.high), (runner_up.low, runner_up.high))
    return CLEAR if apart else TOO_CLOSE


def rank(game_id: str, played: Sequence[tuple[Any, str, Sequence[float]]]) -> list[Estimate]:
    """Candidates ``(action, text, values)`` as estimates, best first (ties: the order given)."""
    better = MEASURES[game_id].higher_is_better
    out = []
    for action, text, values in played:
        mean, low, high = _interval(game_id, values)
        out.append(Estimate(action, text, mean, low, high, len(values)))
    order = sorted(range(len(out)), key=lambda k: (-out[k].mean if better else out[k].mean, k))
    return [out[k] for k in order]


def _unsearched(game_id: str, action: Any, text: str, why: str, only: bool) -> Hint:
    nan = math.nan
    best = Estimate(action, text, nan, nan, nan, 0)
    return Hint(game_id, best, None, ONLY_MOVE if only else NOT_SEARCHED, MEASURES[game_id], why)


def hint(
    game_id: str,
    rules: Any,
    observation: Any,
    legal: Sequence[Any],
    seed: int,
    playouts: int | None = None,
    text: Any = str,
) -> Hint:
    """The hint for the seat of ``observation`` (its ``legal`` actions) under ``rules``: the
    search agent's ``playouts`` (default :data:`PLAYOUTS`) per candidate, seeded by ``seed``;
    ``text(action)`` writes an action as the player types it."""
    from cardbase.sim.registry import game

    budget = playouts if playouts is not None else PLAYOUTS[game_id]
    if game_id == "meio" and observation.phase == "split":
        return split_hint(rules, observation, seed, text)
    seat = observation.player
    agent: Any = game(game_id).make_agent(f"search:samples={budget}", rules, seat, derive_seed(seed, "hint"))
    played = agent.playouts(observation, legal)
    if len(played) == 1 or not played[0][1]:
        action = played[0][0]
        only = len(legal) == 1
        why = {
            "meio": "the only legal card",
            "mea": "the search agent does not compare moves here (one option, or its own opening size)",
            "meikyu": "the search agent compares moves only for the main action; this is the heuristic's choice",
        }[game_id]
        return _unsearched(game_id, action, text(action), "the only legal move" if only else why, only)
    values = {text(a): list(v) for a, v in played}
    ranked = rank(game_id, [(a, text(a), v) for a, v in played])
    best = ranked[0]
    same = tuple(e.text for e in ranked[1:] if values[e.text] == values[best.text])
    rest = [e for e in ranked[1:] if e.text not in same]
    runner_up = rest[0] if rest else None
    method = (
        f"the search agent's {counted(budget, 'playout')} per candidate, the hidden cards dealt at random "
        "(the same deals for every candidate)"
    )
    said = verdict(best, runner_up) if runner_up is not None else ALL_ALIKE
    return Hint(game_id, best, runner_up, said, MEASURES[game_id], method, tuple(rest[1:]), same)


def split_hint(rules: Any, observation: Any, seed: int, text: Any = str) -> Hint:
    """Meio's hint at the split: ``lab split``'s advisor over the heuristic's best splits."""
    from cardbase.games.meio.actions import SplitActions
    from cardbase.games.meio.agents import card_weights, heuristic_splits
    from cardbase.sim.split import advise

    start = type(rules).from_options({**rules.to_options(), "first_player": observation.start})
    hand = observation.hand
    weights = card_weights(rules.players, rules.ace_high)
    index = {s: i for i, s in enumerate(SplitActions(hand))}
    candidates = [index[s] for s in heuristic_splits(hand, weights, SPLIT_CANDIDATES)]
    advice = advise(
        start,
        hand,
        observation.player,
        ["heuristic"] * rules.players,
        math.inf,
        derive_seed(seed, "hint-split"),
        top=2,
        candidates=candidates,
        first_deals=SPLIT_FIRST_DEALS,
    )
    splits = {(tuple(map(str, _cards(s.keep))), tuple(map(str, _cards(s.aside)))): s for s in index}
    estimates = []
    for score in advice.top:
        action = splits[(score.keep, score.aside)]
        estimates.append(Estimate(action, text(action), score.mean, score.low, score.high, score.deals))
    best, runner_up = estimates[0], estimates[1]
    method = (
        f"lab split's advisor: the heuristic's {len(candidates)} best splits played out on sampled deals, "
        f"halved to the best two, then both on {best.samples} fresh deals"
    )
    return Hint("meio", best, runner_up, verdict(best, runner_up), MEASURES["meio"], method)


def _cards(mask: int) -> list[Any]:
    from cardbase.games.meio.masks import cards_of

    return list(cards_of(mask))
