"""Monte Carlo draws, seeded: estimates with 95% intervals (a cross-check of the exact sums), sample hands.

Estimates draw each hand's composition directly, group by group, with numpy's multivariate
hypergeometric sampler (``method="count"``), instead of shuffling the whole deck: the same
distribution, a fraction of the random numbers. The Meikyu deal is simulated card by card with its
OPEN-card redeal rule, because the point there is to check the rule's exact treatment.

The same ``(seed, cards seen)`` always gives the same estimate, whatever else is asked in the run.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from cardbase.draws.exact import Groups, Kind, Need
from cardbase.errors import counted, plural
from cardbase.stats import Z95, t_quantile, wilson

T = TypeVar("T")
_BATCH = 200_000


@dataclass(frozen=True, slots=True)
class Estimate:
    """``successes`` of ``trials``, with the Wilson score 95% interval."""

    successes: int
    trials: int

    @property
    def p(self) -> float:
        return self.successes / self.trials

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.successes, self.trials)

    def covers(self, p: float, z: float = Z95) -> bool:
        """Whether ``p`` is inside the Wilson interval (95% unless another normal quantile ``z`` is given)."""
        low, high = wilson(self.successes, self.trials, z)
        return low <= p <= high

    def as_dict(self) -> dict[str, Any]:
        low, high = self.interval
        return {"probability": self.p, "low": low, "high": high, "interval": "95% Wilson score", "trials": self.trials}


def _rng(seed: int, *stream: int) -> Any:
    import numpy as np

    if seed < 0:
        raise ValueError(f"a seed is a whole number from 0, not {seed}")
    return np.random.default_rng([seed, *stream])


def _holds(counts: Any, needs: Sequence[Need]) -> Any:
    """Per trial and need (columns), whether the need holds for ``counts`` (trials × needs)."""
    import numpy as np

    out = np.empty(counts.shape, dtype=bool)
    for i, need in enumerate(needs):
        column = counts[:, i]
        if need.kind is Kind.AT_LEAST:
            out[:, i] = column >= need.count
        elif need.kind is Kind.AT_MOST:
            out[:, i] = column <= need.count
        else:
            out[:, i] = column == need.count
    return out


def _membership(masks: Sequence[int], needs: int) -> Any:
    import numpy as np

    return np.array([[mask >> i & 1 for i in range(needs)] for mask in masks], dtype=np.int64).reshape(
        len(masks), needs
    )


def simulate(groups: Groups, needs: Sequence[Need], seen: int, trials: int, seed: int) -> list[Estimate]:
    """Estimates of "every need holds" and of each need alone, over ``trials`` hands of ``seen`` cards.

    Returns ``[joint, need 0, need 1, ...]``.
    """
    import numpy as np

    if not 0 <= seen <= groups.size:
        raise ValueError(f"cannot see {counted(seen, 'card')} of a {groups.size}-card deck")
    if trials < 1:
        raise ValueError("Monte Carlo needs at least one trial")
    rng = _rng(seed, seen)
    masks = [mask for mask, _ in groups.cells]
    colors = np.array([n for _, n in groups.cells], dtype=np.int64)
    member = _membership(masks, len(needs))
    wins = np.zeros(len(needs) + 1, dtype=np.int64)
    left = trials
    while left:
        batch = min(left, _BATCH)
        left -= batch
        hands = rng.multivariate_hypergeometric(colors, seen, size=batch, method="count")
        ok = _holds(hands @ member, needs)
        wins[0] += int(ok.all(axis=1).sum())
        wins[1:] += ok.sum(axis=0)
    return [Estimate(int(w), trials) for w in wins]


# --- Meikyu: the deal with the OPEN-card redeal, card by card -----------------------------------


@dataclass(frozen=True, slots=True)
class DealEstimate:
    """A simulated Meikyu deal: per number of cards seen, ``[joint, need 0, ...]``; and the redeals."""

    seen: dict[int, list[Estimate]]
    redeals_mean: float
    any_redeal: Estimate
    trials: int
    redeals_95: tuple[float, float] = (math.nan, math.nan)
    """The 95% interval of ``redeals_mean``: Student's t (mean ± t·s/√n), never below 0 redeals; 0 to
    infinity when the deals do not show how much they vary (one deal, or all alike), as
    :func:`cardbase.stats.score_interval` says of games."""


def simulate_meikyu(
    kinds: Sequence[tuple[int, bool, int]],
    needs: Sequence[Need],
    players: int,
    seen: Sequence[int],
    trials: int,
    seed: int,
    deal: int = 4,
) -> DealEstimate:
    """Simulate the Meikyu deal: ``deal`` cards each from the shuffled Kingdom pile, in seat order;
    a player holding an OPEN card returns their hand to the pile, which is shuffled, and draws again
    (players in seat order, until no one holds one); then each turn every player draws one card.

    ``kinds`` are ``(mask, is_open, count)`` for the pile's cards. Cards seen by seat 0 are its dealt
    hand in the order drawn, then its turn draws. ``[joint, need 0, ...]`` per entry of ``seen``.
    """
    import numpy as np

    top = max(seen, default=0)
    open_cats = np.array([is_open for _, is_open, _ in kinds], dtype=bool)
    counts = np.array([n for _, _, n in kinds], dtype=np.int64)
    plain = int(counts[~open_cats].sum())
    if plain < deal * players:
        raise ValueError(
            f"{counted(players, 'player')} need {deal * players} non-OPEN cards to finish the deal; the pile has "
            f"{plain}"
        )
    turns = max(0, top - deal)
    if _pile_after_deal(int(counts.sum()), players, deal) < _drawn_by(turns, players):
        raise ValueError(
            f"the Kingdom pile runs out before {counted(top, 'card')} {plural(top, 'is', 'are')} seen by "
            f"{counted(players, 'player')}"
        )
    rng = _rng(seed, players, top)
    member = _membership([m for m, _, _ in kinds], len(needs))
    seq = np.full((trials, max(top, 1)), -1, dtype=np.int64)
    pile = np.tile(counts, (trials, 1))
    hands = np.zeros((trials, players, len(kinds)), dtype=np.int64)
    redeals = np.zeros(trials, dtype=np.int64)
    everyone = np.arange(trials)

    def draw(rows: Any, seat: int, slot: int | None) -> None:
        piles = pile[rows]
        u = rng.integers(0, piles.sum(axis=1))
        cat = (np.cumsum(piles, axis=1) <= u[:, None]).sum(axis=1)
        pile[rows, cat] -= 1
        hands[rows, seat, cat] += 1
        if slot is not None and slot < seq.shape[1]:
            seq[rows, slot] = cat

    for seat in range(players):
        for j in range(deal):
            draw(everyone, seat, j if seat == 0 else None)
    while True:
        changed = False
        for seat in range(players):
            rows = np.flatnonzero(hands[:, seat, open_cats].sum(axis=1) > 0)
            if not rows.size:
                continue
            changed = True
            redeals[rows] += 1
            pile[rows] += hands[rows, seat]
            hands[rows, seat] = 0
            for j in range(deal):
                draw(rows, seat, j if seat == 0 else None)
        if not changed:
            break
    for turn in range(turns):
        for seat in range(players):
            draw(everyone, seat, deal + turn if seat == 0 else None)
    out: dict[int, list[Estimate]] = {}
    for n in seen:
        by_need = member[seq[:, :n]].sum(axis=1) if n else np.zeros((trials, len(needs)), dtype=np.int64)
        ok = _holds(by_need, needs)
        out[n] = [Estimate(int(ok.all(axis=1).sum()), trials)] + [Estimate(int(s), trials) for s in ok.sum(axis=0)]
    mean = float(redeals.mean())
    spread = float(redeals.std(ddof=1)) if trials > 1 else 0.0
    if spread > 0:
        half = t_quantile(0.975, trials - 1) * spread / math.sqrt(trials)
        interval = (max(0.0, mean - half), mean + half)
    else:  # one deal, or deals that all redealt alike: nothing says how much they vary (score_interval's rule)
        interval = (0.0, math.inf)
    return DealEstimate(out, mean, Estimate(int((redeals > 0).sum()), trials), trials, interval)


def _pile_after_deal(kingdom: int, players: int, deal: int) -> int:
    return kingdom - deal * players


def _drawn_by(turns: int, players: int) -> int:
    """Cards taken from the pile when seat 0 has made ``turns`` turn draws (every seat before it each round)."""
    return turns + (players - 1) * max(0, turns - 1)


# --- sample hands -----------------------------------------------------------------------------------


def sample_hands(cards: Sequence[T], seen: int, hands: int, seed: int) -> list[list[T]]:
    """``hands`` openings of ``seen`` cards, each the top of a fresh shuffle of ``cards`` (one per copy)."""
    if not 0 <= seen <= len(cards):
        raise ValueError(f"cannot see {counted(seen, 'card')} of a {len(cards)}-card deck")
    rng = _rng(seed, 0)
    return [[cards[i] for i in rng.permutation(len(cards))[:seen]] for _ in range(hands)]


def sample_meikyu_deals(
    cards: Sequence[T], is_open: Sequence[bool], players: int, hands: int, seed: int, deal: int = 4, seen: int = 4
) -> list[tuple[list[T], int]]:
    """``hands`` Meikyu deals as players make them, with the OPEN-card redeal (seat by seat, until no
    one holds one); then turn draws, every seat in order. Seat 0's first ``seen`` cards, and how many
    times seat 0 was redealt."""
    if sum(not o for o in is_open) < deal * players:
        raise ValueError(f"{counted(players, 'player')} need {deal * players} non-OPEN cards to finish the deal")
    turns = max(0, seen - deal)
    if len(cards) - deal * players < _drawn_by(turns, players):
        raise ValueError(
            f"the Kingdom pile runs out before {counted(seen, 'card')} {plural(seen, 'is', 'are')} seen by "
            f"{counted(players, 'player')}"
        )
    rng = _rng(seed, 1, players)
    out = []
    for _ in range(hands):
        pile = [int(i) for i in rng.permutation(len(cards))]
        held = [[pile.pop() for _ in range(deal)] for _ in range(players)]
        mine = 0
        while any(is_open[c] for hand in held for c in hand):
            for seat, hand in enumerate(held):
                if any(is_open[c] for c in hand):
                    pile += hand
                    pile = [pile[i] for i in rng.permutation(len(pile))]
                    held[seat] = [pile.pop() for _ in range(deal)]
                    mine += seat == 0
        shown = held[0][:seen]
        for _ in range(turns):
            for seat in range(players):
                card = pile.pop()
                if seat == 0:
                    shown.append(card)
        out.append(([cards[c] for c in shown], mine))
    return out
