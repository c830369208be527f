"""Meio agents: a heuristic that aims at a balanced score, and a determinised
Monte Carlo search. Pure: they read observations and return actions.

Both follow :class:`cardbase.games.base.Agent`: ``act(observation, legal_actions)``.
The random agent is game-agnostic and lives in :mod:`cardbase.sim.agents`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations
from typing import Any, cast

from cardbase.errors import quoted
from cardbase.games.base import State, agent_repr, check_act, check_at_least_one
from cardbase.games.ismcts import DEFAULT_EXPLORATION
from cardbase.games.ismcts import IsmctsAgent as BaseIsmcts
from cardbase.games.meio.actions import Play, Split
from cardbase.games.meio.cards import FIRST_HALF, HAND_SIZE, SECOND_HALF, highest_rank_for
from cardbase.games.meio.engine import MeioState
from cardbase.games.meio.masks import _BIT, _SUIT, HEARTS, SUIT_MASKS, indices_of
from cardbase.games.meio.observation import MeioObservation
from cardbase.games.meio.rules import MeioRules, _deck, _tables
from cardbase.games.montecarlo import MonteCarloAgent

# --- trick-taking estimates --------------------------------------------------

PLAIN_EXPONENT = 4.0
HEARTS_EXPONENT = 1.5


@cache
def card_weights(players: int, ace_high: bool) -> tuple[float, ...]:
    """Per card index: a rough number of tricks the card wins, scaled so that the
    whole deck sums to (deck size) / players, the tricks a hand of 13 expects."""
    top = highest_rank_for(players)
    ranks = [r for r in range(1, top + 1)]
    order = sorted(ranks, key=lambda r: 14 if (r == 1 and ace_high) else r)
    pos = {r: i for i, r in enumerate(order)}
    raw = [0.0] * 52
    deck, _ = _deck(players)
    for c in deck:
        rank = c % 13 + 1
        x = (pos[rank] + 1) / top
        raw[c] = x**HEARTS_EXPONENT if _SUIT[c] == HEARTS else x**PLAIN_EXPONENT
    total = sum(raw)
    scale = (len(deck) / players) / total
    return tuple(w * scale for w in raw)


def estimate(mask: int, weights: Sequence[float]) -> float:
    """Estimated tricks the cards of ``mask`` win."""
    return sum(weights[c] for c in indices_of(mask))


def heuristic_splits(hand: int, weights: Sequence[float], limit: int | None = None) -> list[Split]:
    """Splits of ``hand`` ordered best first: the two packs' estimated tricks as
    equal as possible, then fewer sure tricks overall (easier to steer)."""
    cards = indices_of(hand)
    w = {c: weights[c] for c in cards}
    total = sum(w.values())
    scored = []
    for chosen in combinations(cards, SECOND_HALF):
        a = w[chosen[0]] + w[chosen[1]] + w[chosen[2]] + w[chosen[3]] + w[chosen[4]] + w[chosen[5]]
        keep = total - a
        scored.append((abs(keep - a) + 0.1 * total, chosen))
    scored.sort(key=lambda t: t[0])
    out = []
    for _, chosen in scored[: limit or len(scored)]:
        aside = 0
        for c in chosen:
            aside |= _BIT[c]
        out.append(Split(hand ^ aside, aside))
    return out


def best_split(hand: int, weights: Sequence[float]) -> Split:
    """The heuristic's split of ``hand``: the first pack of six (in ``combinations`` order) whose
    estimated tricks are nearest half the hand's. The 1,716 packs of a 13-card hand are summed
    as arrays, column by column in the order a loop over them adds (so the sums, and the pack
    chosen on a tie, are a loop's to the bit): searches split every opponent's dealt hand."""
    import numpy as np

    cards = indices_of(hand)
    w = [weights[c] for c in cards]
    total = sum(w)
    packs = _packs(len(cards))
    values = np.array(w)[packs]
    a = values[:, 0].copy()
    for column in range(1, SECOND_HALF):
        a += values[:, column]
    best = packs[int(np.argmin(np.abs(total - 2 * a)))]
    aside = 0
    for i in best:
        aside |= _BIT[cards[int(i)]]
    return Split(hand ^ aside, aside)


@cache
def _packs(n: int) -> Any:
    """Every choice of ``SECOND_HALF`` of ``n`` card positions, in ``combinations`` order, as an array."""
    import numpy as np

    return np.array(list(combinations(range(n), SECOND_HALF)), dtype=np.intp)


@cache
def card_strengths(ace_high: bool) -> tuple[int, ...]:
    """Per card index: its strength across suits (hearts, the trumps, above all)."""
    keys = _tables(ace_high)[0]
    return tuple(keys[_SUIT[c]][c] for c in range(52))


def choose_play(
    legal: Sequence[Play],
    trick: Sequence[int],
    keys: Sequence[Sequence[int]],
    strengths: Sequence[int],
    win_key: int,
    want_win: bool,
    last: bool,
) -> Play:
    """The heuristic's card: win a trick when it wants one, else duck.

    Leading: its strongest card to win, its weakest to lose. Following: to win,
    the cheapest winning card if it plays last, else the strongest; to lose,
    the strongest card that does not win, else the weakest.
    """
    if len(legal) == 1:
        return legal[0]
    key = strengths.__getitem__
    if not trick:
        return max(legal, key=key) if want_win else min(legal, key=key)
    row = keys[_SUIT[trick[0]]]
    if want_win:
        beating = [c for c in legal if row[c] > win_key]
        if beating:
            return min(beating, key=key) if last else max(beating, key=key)
        return min(legal, key=key)
    losing = [c for c in legal if row[c] <= win_key]
    if losing:
        return max(losing, key=key)
    return min(legal, key=key)


def want_trick(half: int, horizontal: int, vertical: int, aside_estimate: float) -> bool:
    """Whether the heuristic tries to win the current trick.

    First half: up to the tricks its pack of 6 is expected to win. Second half:
    until the vertical tricks catch up with the horizontal ones.
    """
    if half == 1:
        return horizontal < round(aside_estimate)
    return vertical < horizontal


# --- agents ------------------------------------------------------------------


class HeuristicAgent:
    """Splits into two packs of equal estimated strength, then wins or ducks each
    trick to keep horizontal and vertical tricks level."""

    name = "heuristic"

    def __repr__(self) -> str:
        return agent_repr(self)

    def __init__(self, rules: MeioRules, seat: int, seed: int | None = None):
        self.rules = rules
        self.seat = seat
        self.rng = random.Random(seed)
        self._weights = card_weights(rules.players, rules.ace_high)
        self._keys = _tables(rules.ace_high)[0]
        self._strengths = card_strengths(rules.ace_high)

    def act(self, observation: MeioObservation, legal_actions: Sequence[Any]) -> Any:
        check_act(self, observation, legal_actions)
        obs = observation
        if obs.phase == "split":
            return best_split(obs.hand, self._weights)
        return _heuristic_play_from_obs(obs, legal_actions, self._weights, self._keys, self._strengths)


def _heuristic_play_from_obs(
    obs: MeioObservation,
    legal: Sequence[Play],
    weights: Sequence[float],
    keys: Sequence[Sequence[int]],
    strengths: Sequence[int],
) -> Play:
    me = obs.player
    n = obs.rules.players
    half = obs.half
    win_key = -1
    if obs.trick:
        row = keys[_SUIT[obs.trick[0]]]
        win_key = max(row[c] for c in obs.trick)
    want = want_trick(half, obs.horizontal[me], obs.vertical[me], estimate(obs.aside, weights))
    return choose_play(legal, obs.trick, keys, strengths, win_key, want, len(obs.trick) == n - 1)


def _heuristic_play_fast(state: MeioState, weights: Sequence[float], strengths: Sequence[int]) -> Play:
    """The heuristic's play read straight from a full state (search rollouts)."""
    p = state.current_player
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]  # type: ignore[return-value]
    hands, asides, horizontal, vertical, trick, win_key, tricks_done, keys = state.play_view()
    half = 1 if tricks_done < FIRST_HALF else 2
    aside_est = 0.0
    if half == 1:
        for c in indices_of(asides[p]):
            aside_est += weights[c]
    want = want_trick(half, horizontal[p], vertical[p], aside_est)
    return choose_play(
        legal,  # type: ignore[arg-type]
        trick,
        keys,
        strengths,
        win_key if trick else -1,
        want,
        len(trick) == len(hands) - 1,
    )


def rollout_round(state: MeioState, weights: Sequence[float]) -> None:
    """Play the current round to its end with the heuristic for every seat."""
    strengths = card_strengths(state.rules.ace_high)
    while state.current_player >= 0:
        if state.phase == "split":
            state.apply_unchecked(best_split(state.hand_mask(state.current_player), weights))
        else:
            state.apply_unchecked(_heuristic_play_fast(state, weights, strengths))


# --- determinisation ---------------------------------------------------------


def voids(obs: MeioObservation) -> list[int]:
    """Per seat: the mask of suits it has shown it lacks in the pack it now plays from."""
    n = obs.rules.players
    out = [0] * n
    first = 0 if obs.half == 1 else FIRST_HALF
    tricks = [(ld, cards) for ld, cards, _ in obs.tricks[first:]]
    if obs.trick and obs.phase == "play":
        tricks.append((obs.leader, obs.trick))
    for leader, cards in tricks:
        led = _SUIT[cards[0]]
        for i, c in enumerate(cards[1:], start=1):
            if _SUIT[c] != led:
                out[(leader + i) % n] |= SUIT_MASKS[led]
    return out


def sample_hidden(
    obs: MeioObservation, rng: random.Random, weights: Sequence[float]
) -> tuple[list[int], list[int], int]:
    """Hands, packs set aside and leftover cards consistent with ``obs``: every
    unseen card placed at random, respecting the sizes and the suits each
    player has shown it lacks. Splits not yet seen are the heuristic's."""
    n = obs.rules.players
    me = obs.player
    deck_idx = _deck(n)[0]
    seen = obs.hand | obs.aside | obs.dealt | obs.played
    unknown = [c for c in deck_idx if not _BIT[c] & seen]
    leftover_size = len(deck_idx) - HAND_SIZE * n
    if obs.phase == "split":
        # Opponents hold 13 each; deal them, then split them as the heuristic would.
        rng.shuffle(unknown)
        hands, asides = [0] * n, [0] * n
        pos = 0
        for seat in range(n):
            if seat == me:  # (its own split, if made, as it made it)
                hands[seat], asides[seat] = obs.hand, obs.aside
                continue
            m = 0
            for c in unknown[pos : pos + HAND_SIZE]:
                m |= _BIT[c]
            pos += HAND_SIZE
            if obs.split_done[seat]:
                s = best_split(m, weights)
                hands[seat], asides[seat] = s.keep, s.aside
            else:
                hands[seat] = m
        leftover = 0
        for c in unknown[pos:]:
            leftover |= _BIT[c]
        return hands, asides, leftover
    void = voids(obs)
    # Slots: (seat, is_hand) with capacity and forbidden suits; -1 = leftover.
    slots: list[tuple[int, int, int]] = []  # (owner, capacity, forbidden mask)
    for seat in range(n):
        if seat == me:
            continue
        slots.append((seat, obs.hand_sizes[seat], void[seat]))
        if obs.aside_sizes[seat]:
            slots.append((seat + n, obs.aside_sizes[seat], 0))
    slots.append((-1, leftover_size, 0))
    for attempt in range(30):
        rng.shuffle(unknown)
        placed = _place(unknown, slots, rng, strict=attempt < 29)
        if placed is not None:
            break
    assert placed is not None
    hands, asides = [0] * n, [0] * n
    hands[me], asides[me] = obs.hand, obs.aside
    leftover = 0
    for owner, mask in placed.items():
        if owner == -1:
            leftover = mask
        elif owner >= n:
            asides[owner - n] = mask
        else:
            hands[owner] = mask
    return hands, asides, leftover


def _place(
    cards: list[int], slots: list[tuple[int, int, int]], rng: random.Random, strict: bool
) -> dict[int, int] | None:
    room = {owner: cap for owner, cap, _ in slots}
    masks = {owner: 0 for owner, _, _ in slots}
    # Most constrained cards first.
    options = []
    for c in cards:
        ok = [owner for owner, _, forbid in slots if not (strict and _BIT[c] & forbid)]
        options.append((len(ok), c, ok))
    options.sort(key=lambda t: t[0])
    for _, c, ok in options:
        free = [o for o in ok if room[o] > 0]
        if not free:
            return None
        total = sum(room[o] for o in free)
        x = rng.random() * total
        for o in free:
            x -= room[o]
            if x < 0:
                break
        room[o] -= 1
        masks[o] |= _BIT[c]
    return masks


class SearchAgent(MonteCarloAgent):
    """Determinised Monte Carlo (:mod:`cardbase.games.montecarlo`): samples the hidden cards
    consistent with what it has seen, plays each candidate out to the end of the round with the
    heuristic for every seat, and picks the lowest mean score for itself.

    ``samples``: determinisations per decision. ``split_candidates``: how many
    of the heuristic's best splits are searched.
    """

    lower_is_better = True

    def __init__(
        self,
        rules: MeioRules,
        seat: int,
        seed: int | None = None,
        samples: int = 24,
        split_candidates: int = 8,
    ):
        check_at_least_one(samples=samples, split_candidates=split_candidates)
        super().__init__(rules, seat, seed, samples)
        self.split_candidates = split_candidates
        self._weights = card_weights(rules.players, rules.ace_high)

    def candidates(
        self, observation: MeioObservation, legal_actions: Sequence[Any], first_deal: Callable[[], Any]
    ) -> Sequence[Any]:
        """At the split the heuristic's ``split_candidates`` best splits; in play every legal card."""
        if observation.phase == "split":
            return heuristic_splits(observation.hand, self._weights, self.split_candidates)
        return legal_actions

    def deal(self, observation: MeioObservation) -> MeioState:
        hands, asides, leftover = sample_hidden(observation, self.rng, self._weights)
        return MeioState.from_parts(observation, hands, asides, leftover)

    def copy(self, world: MeioState) -> MeioState:
        return world.search_copy()

    def rollout(self, state: State) -> None:
        rollout_round(cast(MeioState, state), self._weights)

    def value(self, state: State) -> float:
        # A rollout always ends its round, whose score is the last one recorded.
        return float(cast(MeioState, state).round_scores()[-1][self.seat])


# --- information-set Monte Carlo tree search -------------------------------------------


MAX_ROUND_SCORE = FIRST_HALF
"""The most a round can score (all 7 first-half tricks, none after): rewards are scaled by it."""


WIN_SCALE = 4.0
"""Points of lead over the best rival that make a ``win`` reward of about 0.88."""


class IsmctsAgent(BaseIsmcts):
    """SO-ISMCTS (:mod:`cardbase.games.ismcts`) over the current round: determinised by
    :func:`sample_hidden` (the search agent's), the tree grows to the end of the round and
    rollouts play it out with the heuristic for every seat; a seat's reward is
    set by ``objective``. At its own split it searches the
    heuristic's ``split_candidates`` best splits; other seats split as the heuristic does.
    ``objective=score`` rewards a low round score (the search agent's aim); the default,
    ``win``, rewards a lead over the best rival in the game's totals after the round."""

    def __init__(
        self,
        rules: MeioRules,
        seat: int,
        seed: int | None = None,
        iters: int | None = None,
        ms: int | None = None,
        c: float | str = DEFAULT_EXPLORATION,
        split_candidates: int = 8,
        objective: str = "win",
        loop: str = "closed",
        per_deal: int = 1,
        root: str = "ucb",
    ):
        super().__init__(rules, seat, seed, iters, ms, c, loop=loop, per_deal=per_deal, root=root)
        if objective not in ("win", "score"):
            raise ValueError(f"objective is win or score, not {quoted(objective)}")
        self.objective = objective
        if not 1 <= split_candidates <= 1716:
            raise ValueError(f"split_candidates is 1 to 1716, not {split_candidates}")
        self.split_candidates = split_candidates
        self._weights = card_weights(rules.players, rules.ace_high)
        self._round = 0
        self._own_splits: list[Split] = []

    def start(self, observation: Any) -> None:
        obs: MeioObservation = observation
        self._round = obs.round
        split = obs.phase == "split"
        self._own_splits = heuristic_splits(obs.hand, self._weights, self.split_candidates) if split else []

    def determinise(self, observation: Any, rng: random.Random) -> MeioState:
        obs: MeioObservation = observation
        hands, asides, leftover = sample_hidden(obs, rng, self._weights)
        state = MeioState.from_parts(obs, hands, asides, leftover)
        state.history = []
        return state

    def candidates(self, state: State) -> Sequence[Any]:
        s = cast(MeioState, state)
        if s.phase == "split":
            p = s.current_player
            if p == self.seat:
                return self._own_splits
            return (best_split(s.hand_mask(p), self._weights),)
        return s.legal_actions()

    def cut_off(self, state: State) -> bool:
        return cast(MeioState, state).round != self._round

    def rollout(self, state: State) -> None:
        rollout_round(cast(MeioState, state), self._weights)

    def rewards(self, state: State) -> Sequence[float]:
        s = cast(MeioState, state)
        if self.objective == "score":
            return [1.0 - score / MAX_ROUND_SCORE for score in s.round_scores()[self._round]]
        totals = s.totals()
        out = []
        for p, own in enumerate(totals):
            rival = min(t for q, t in enumerate(totals) if q != p)
            out.append(0.5 + 0.5 * math.tanh((rival - own) / WIN_SCALE))
        return out
