"""Meio's split advisor: every 7 + 6 split of a 13-card hand scored by simulation.

Each split is played out on sampled deals (the other seats' 13 cards drawn from the cards you do
not hold) by the chosen agents, for one round; its score is your round score (|horizontal −
vertical| tricks, 0 to 7; lower is better). Every split meets the same deals (common random
numbers), and the other seats split once per deal: they cannot see your split, so theirs does
not depend on it.

Pruning is successive halving: level 0 plays every split on ``2`` deals, each next level keeps the
better half and doubles their deals, until ``top`` splits are left, the time budget is spent, or a
level budget is reached (level 0 always completes, so every split is scored). The schedule depends
only on the seed; the budgets only decide at which level the run stops, and the result says which
(``stopped_by``): with a level budget that the time does not cut short, the result depends on the
seed alone, whatever the machine's speed.

The splits that come out on top were picked for their low scores on those deals, so their scores
there are optimistic (a winner picked from many always is). The scores shown are therefore from a
**check**: the ``top`` splits (at least 2) played again on as many fresh deals as they had, which
costs about as much as the last level did. Each score's interval is
:func:`cardbase.stats.bounded_mean_interval` over 0–7 (never a point, honest for a handful of
deals); when the best split's interval overlaps another's, the advice says that no split is
clearly best among those (``tied``).

Every play (one split on one deal) is seeded by its deal and played by fresh agents, so the plays
can run on any backend of :mod:`cardbase.sim.runner` (``--jobs``, ``--dask``) with the same scores.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cardbase.errors import UsageError, counted
from cardbase.games.meio.cards import FIRST_HALF
from cardbase.sim.registry import derive_seed, game
from cardbase.sim.runner import provenance
from cardbase.sim.stats import number
from cardbase.stats import bounded_mean_interval, intervals_overlap

if TYPE_CHECKING:
    from cardbase.sim.runner import ChunkMapper

FIRST_DEALS = 2
HAND = 13
MAX_ROUND_SCORE = FIRST_HALF
"""A round score is |horizontal − vertical| with at most 7 and 6 tricks: 0 to 7."""
CHECK = "check"
"""The deals of the check are their own stream: none of them was seen while choosing."""


@dataclass(frozen=True)
class SplitScore:
    """One split and its expected round score over the check's fresh deals (``deals``), with the
    95% interval of :func:`cardbase.stats.bounded_mean_interval`; ``chosen_on``: the deals it
    was chosen on."""

    keep: tuple[str, ...]
    aside: tuple[str, ...]
    deals: int
    mean: float
    low: float
    high: float
    chosen_on: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "keep": list(self.keep),
            "aside": list(self.aside),
            "deals": self.deals,
            "chosen_on_deals": self.chosen_on,
            "expected_round_score": number(self.mean),
            "ci": [number(self.low), number(self.high)],
        }


@dataclass
class SplitAdvice:
    hand: tuple[str, ...]
    players: int
    agents: tuple[str, ...]
    seed: int
    seconds: float
    top: list[SplitScore]
    candidates: int
    levels: int
    stopped_by: str
    """``complete`` (``top`` splits left), ``levels`` (the level budget) or ``time`` (the time budget)."""
    rounds_played: int
    workers: int = 1
    elapsed: float = 0.0
    provenance: dict[str, Any] = field(default_factory=dict)
    runner_up: SplitScore | None = None
    """The next split after those shown, when ``top`` is 1 (the check always plays two)."""

    @property
    def complete(self) -> bool:
        return self.stopped_by == "complete"

    @property
    def tied(self) -> int:
        """How many splits of the check (the best included) the best cannot be told from: their
        95% intervals overlap its own. 1: the best is clearly best."""
        checked = [*self.top, *([self.runner_up] if self.runner_up else [])]
        if not checked:
            return 0
        best = checked[0]
        return sum(1 for s in checked if intervals_overlap((best.low, best.high), (s.low, s.high)))

    @property
    def clear(self) -> bool:
        """The best split's interval is apart from every other checked split's."""
        return self.tied == 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": "meio",
            "hand": list(self.hand),
            "players": self.players,
            "agents": list(self.agents),
            "seed": self.seed,
            "seconds": self.seconds,
            "candidates": self.candidates,
            "levels": self.levels,
            "complete": self.complete,
            "stopped_by": self.stopped_by,
            "rounds_played": self.rounds_played,
            "workers": self.workers,
            "top": [s.to_dict() for s in self.top],
            "runner_up": self.runner_up.to_dict() if self.runner_up else None,
            "clear_best": self.clear,
            "tied_with_best": self.tied,
            "elapsed_seconds": round(self.elapsed, 3),
            **self.provenance,
        }


def _deal_agents(rules: Any, agents: Sequence[str], seed: int, j: int | str, what: str) -> list[Any]:
    """Fresh agents for deal ``j`` (seeded by it): a play depends only on its split and deal,
    never on which plays came before it in this process."""
    entry = game("meio")
    return [entry.make_agent(a, rules, s, derive_seed(seed, what, j, s)) for s, a in enumerate(agents)]


def _play(
    rules: Any, agents: Sequence[str], seed: int, seat: int, split: Any, j: int | str, deal: Any, theirs: Any
) -> int:
    """Your round score with ``split`` on deal ``j`` (the other seats split as ``theirs``)."""
    players = _deal_agents(rules, agents, seed, j, "split-agent")
    state = rules.new_initial_state(derive_seed(seed, "split-play", j))
    state.apply_unchecked(deal)
    while True:
        p = state.current_player
        if p < 0:  # the round is over (no chance after the deal in a one-round game)
            break
        if state.phase == "split":
            state.apply_unchecked(split if p == seat else theirs[p])
        else:
            state.apply_unchecked(players[p].act(state.observation(p), state.legal_actions()))
    score: int = state.round_scores()[0][seat]
    return score


def _play_chunk(
    args: tuple[dict[str, Any], tuple[str, ...], int, int, int, list[tuple[int, int | str, Any, Any]]],
) -> list[tuple[int, int | str, int]]:
    """A chunk of plays ``(split index, deal index, deal, their splits)``: each one's score."""
    from cardbase.games.meio.actions import SplitActions

    options, agents, seed, seat, hand, work = args
    rules = game("meio").make_rules(options)
    splits = SplitActions(hand)
    return [(i, j, _play(rules, agents, seed, seat, splits[i], j, deal, theirs)) for i, j, deal, theirs in work]


def _chunks(
    head: tuple[Any, ...],
    plays: list[tuple[int, int | str, Any, Any]],
    step: int,
    deadline: float,
    stopped: list[bool],
) -> Iterator[tuple[Any, ...]]:
    """The plays in chunks of ``step``, until ``deadline`` (then ``stopped`` is marked)."""
    for lo in range(0, len(plays), step):
        if time.perf_counter() > deadline:
            stopped.append(True)
            return
        yield (*head, plays[lo : lo + step])


def advise(
    rules: Any,
    hand: int,
    seat: int,
    agents: Sequence[str],
    seconds: float,
    seed: int,
    top: int = 5,
    backend: ChunkMapper | None = None,
    max_levels: int | None = None,
    candidates: Sequence[int] | None = None,
    first_deals: int = FIRST_DEALS,
) -> SplitAdvice:
    """Score every split of ``hand`` (a card mask) for ``seat`` under ``rules`` (its players,
    ``first_player`` the seat that splits first), ``agents[s]`` playing seat ``s`` (yours too,
    after the split). ``backend``: where the plays run (:mod:`cardbase.sim.runner`'s; default
    this process); the scores do not depend on it. ``max_levels``: stop after that many levels
    (``--levels``), if the time budget has not stopped it before. ``candidates``: the splits to
    consider (indices into :class:`~cardbase.games.meio.engine.SplitActions`; default all
    1,716), each first played on ``first_deals`` deals."""
    from cardbase.games.meio.actions import Deal, SplitActions
    from cardbase.games.meio.masks import cards_of

    started = time.perf_counter()
    n = rules.players
    if len(agents) != n:
        raise UsageError(f"--agents names one agent, or one per seat ({n}), not {len(agents)}")
    names = tuple(agents)
    one_round = type(rules).from_options({**rules.to_options(), "rounds": 1})
    options = one_round.to_options()
    _deal_agents(one_round, names, seed, 0, "split-agent")  # a bad agent name fails here
    unseen = [c for c in range(52) if (one_round.deck_mask >> c) & 1 and not (hand >> c) & 1]
    if hand.bit_count() != HAND or hand & ~one_round.deck_mask:
        raise UsageError(f"the hand must be 13 cards of the {n}-player deck")
    splits = SplitActions(hand)
    deals: list[tuple[Any, dict[int, Any]]] = []

    def new_deal(j: int | str) -> tuple[Any, dict[int, Any]]:
        rng = random.Random(derive_seed(seed, "split-deal", j))
        others = unseen[:]
        rng.shuffle(others)
        hands, k = [], 0
        for s in range(n):
            if s == seat:
                hands.append(hand)
                continue
            m = 0
            for c in others[k : k + HAND]:
                m |= 1 << c
            hands.append(m)
            k += HAND
        deal = Deal(tuple(hands))
        players = _deal_agents(one_round, names, seed, j, "split-deal-agent")
        state = one_round.new_initial_state(0)
        state.apply_unchecked(deal)
        theirs: dict[int, Any] = {}
        while state.phase == "split":
            p = state.current_player
            action = splits[0] if p == seat else players[p].act(state.observation(p), state.legal_actions())
            if p != seat:
                theirs[p] = action
            state.apply_unchecked(action)
        return deal, theirs

    workers = backend.workers if backend is not None else 1
    head = (options, names, seed, seat, hand)
    rounds = 0

    def play(plays: list[tuple[int, int | str, Any, Any]], deadline: float) -> dict[tuple[int, int | str], int] | None:
        """Each play's score, or None when ``deadline`` passed before all were played."""
        nonlocal rounds
        step = max(1, min(200, len(plays) // (workers * 8) or 1))
        stopped: list[bool] = []
        work = _chunks(head, plays, step, deadline, stopped)
        got: dict[tuple[int, int | str], int] = {}
        done = map(_play_chunk, work) if backend is None else backend.map(_play_chunk, work)
        for chunk in done:
            for i, j, score in chunk:
                got[i, j] = score
            rounds += len(chunk)
        return None if stopped else got

    alive = sorted(set(candidates)) if candidates is not None else list(range(len(splits)))
    if not alive or not 0 <= alive[0] <= alive[-1] < len(splits):
        raise UsageError(f"the candidates must be some of the {counted(len(splits), 'split')}")
    if first_deals < 1:
        raise UsageError("each split needs at least one deal")
    scores: dict[int, list[int]] = {i: [] for i in alive}
    wanted = first_deals
    levels = 0
    stopped_by = "time"
    budget_end = started + seconds
    while True:
        while len(deals) < wanted:
            deals.append(new_deal(len(deals)))
        plays: list[tuple[int, int | str, Any, Any]] = [
            (i, j, *deals[j]) for i in alive for j in range(len(scores[i]), wanted)
        ]
        deadline = budget_end if levels > 0 else math.inf  # level 0 always completes: every split scored
        got = play(plays, deadline)
        if got is None:  # the unfinished level is dropped: every survivor stays on the same deals
            break
        for i in alive:
            scores[i].extend(got[i, j] for j in range(len(scores[i]), wanted))
        levels += 1
        alive.sort(key=lambda i: (sum(scores[i]) / len(scores[i]), i))
        if len(alive) <= top:
            stopped_by = "complete"
            break
        if max_levels is not None and levels >= max_levels:
            stopped_by = "levels"
            break
        if time.perf_counter() > budget_end:
            break
        alive = alive[: max(top, len(alive) // 2)]
        wanted *= 2
    alive.sort(key=lambda i: (sum(scores[i]) / len(scores[i]), i))
    # The check: the chosen splits on fresh deals, as many as they were chosen on.
    chosen = alive[: max(top, 2)]
    chosen_on = len(scores[chosen[0]])
    fresh = [(f"{CHECK}{j}", *new_deal(f"{CHECK}{j}")) for j in range(chosen_on)]
    checked = play([(i, key, deal, theirs) for i in chosen for key, deal, theirs in fresh], math.inf)
    assert checked is not None
    results = []
    for i in chosen:
        mean, lo, hi = bounded_mean_interval([float(checked[i, key]) for key, _, _ in fresh], 0.0, MAX_ROUND_SCORE)
        s = splits[i]
        results.append(
            SplitScore(
                tuple(str(c) for c in cards_of(s.keep)),
                tuple(str(c) for c in cards_of(s.aside)),
                chosen_on,
                mean,
                lo,
                hi,
                chosen_on,
            )
        )
    order = sorted(range(len(results)), key=lambda k: (results[k].mean, k))
    results = [results[k] for k in order]
    advice = SplitAdvice(
        tuple(str(c) for c in cards_of(hand)),
        n,
        names,
        seed,
        seconds,
        results[:top],
        len(scores),
        levels,
        stopped_by,
        rounds,
        workers=workers,
        provenance=provenance(),
        runner_up=results[top] if len(results) > top else None,
    )
    advice.elapsed = time.perf_counter() - started
    return advice
