"""Meio's split advisor: every 7 + 6 split of a 13-card hand scored by simulation.

Each split is played out on sampled deals (the other seats' 13 cards drawn from the cards you do
not hold) by the chosen agents, for one round; its score is your round score (|horizontal −
vertical| tricks; lower is better). Every split meets the same deals (common random numbers), and
the other seats split once per deal: they cannot see your split, so theirs does not depend on it.

Pruning is successive halving: level 0 plays every split on ``2`` deals, each next level keeps the
better half and doubles their deals, until ``top`` splits are left, the time budget is spent, or a
level budget is reached (level 0 always completes, so every split is scored). The schedule depends
only on the seed; the budgets only decide at which level the run stops, and the result says which
(``stopped_by``): with a level budget that the time does not cut short, the result depends on the
seed alone, whatever the machine's speed. Every play (one
split on one deal) is seeded by its deal and played by fresh agents, so the plays of a level can
run on any backend of :mod:`cardbase.sim.runner` (``--jobs``, ``--dask``) with the same scores.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardbase.errors import InvalidData, UsageError
from cardbase.lab.common import number, provenance
from cardbase.sim.registry import derive_seed, game
from cardbase.sim.stats import mean_interval

if TYPE_CHECKING:
    from cardbase.sim.runner import ChunkMapper

FIRST_DEALS = 2
HAND = 13


@dataclass(frozen=True)
class SplitScore:
    """One split and its expected round score over the deals it was played on."""

    keep: tuple[str, ...]
    aside: tuple[str, ...]
    deals: int
    mean: float
    low: float
    high: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "keep": list(self.keep),
            "aside": list(self.aside),
            "deals": self.deals,
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

    @property
    def complete(self) -> bool:
        return self.stopped_by == "complete"

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
            "elapsed_seconds": round(self.elapsed, 3),
            **self.provenance,
        }


def read_hand(path: Path, players: int | None = None) -> list[Any]:
    """The 13 cards of a hand file (a Meio deck file, one card a line: ``AH``, ``10C``); with
    ``players``, each must be in that table's deck."""
    from cardbase.decks.files import read_deck
    from cardbase.games.meio.cards import PlayingCard
    from cardbase.games.meio.engine import MeioRules, cards_of

    text = read_deck(path)
    if text.game and text.game != "meio":
        raise InvalidData(
            str(path), writes=False, problems=[f"this is a {text.game} deck (its game: line), not a Meio hand"]
        )
    cards: list[Any] = []
    seen: set[Any] = set()
    problems: list[str] = []
    for line in text.lines:
        try:
            card = PlayingCard.parse(line.name)
        except ValueError as error:
            raise InvalidData(str(path), [f"line {line.line}: {error}"], writes=False) from None
        if card in seen or line.count > 1:
            problems.append(f"line {line.line}: {card} is given again (a hand holds each card once)")
        seen.add(card)
        cards += [card] * line.count
    if len(cards) != HAND:
        problems.append(f"a Meio hand is {HAND} cards; this file has {len(cards)}")
    if players is not None and not problems:
        deck = set(cards_of(MeioRules(players=players).deck_mask))
        if outside := [str(c) for c in cards if c not in deck]:
            said = f" (the file says players: {text.players})" if text.players and text.players != players else ""
            problems.append(f"{', '.join(outside)}: not in the {players}-player deck{said}")
    if problems:
        raise InvalidData(str(path), problems, writes=False)
    return cards


def _deal_agents(rules: Any, agents: Sequence[str], seed: int, j: int, what: str) -> list[Any]:
    """Fresh agents for deal ``j`` (seeded by it): a play depends only on its split and deal,
    never on which plays came before it in this process."""
    entry = game("meio")
    return [entry.make_agent(a, rules, s, derive_seed(seed, what, j, s)) for s, a in enumerate(agents)]


def _play(rules: Any, agents: Sequence[str], seed: int, seat: int, split: Any, j: int, deal: Any, theirs: Any) -> int:
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
    args: tuple[dict[str, Any], tuple[str, ...], int, int, int, list[tuple[int, int, Any, Any]]],
) -> list[tuple[int, int, int]]:
    """A chunk of plays ``(split index, deal index, deal, their splits)``: each one's score."""
    from cardbase.games.meio.engine import SplitActions

    options, agents, seed, seat, hand, work = args
    rules = game("meio").make_rules(options)
    splits = SplitActions(hand)
    return [(i, j, _play(rules, agents, seed, seat, splits[i], j, deal, theirs)) for i, j, deal, theirs in work]


def _chunks(
    head: tuple[Any, ...], plays: list[tuple[int, int, Any, Any]], step: int, deadline: float, stopped: list[bool]
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
) -> SplitAdvice:
    """Score every split of ``hand`` (a card mask) for ``seat`` under ``rules`` (its players,
    ``first_player`` the seat that splits first), ``agents[s]`` playing seat ``s`` (yours too,
    after the split). ``backend``: where the plays run (:mod:`cardbase.sim.runner`'s; default
    this process); the scores do not depend on it. ``max_levels``: stop after that many levels
    (``--levels``), if the time budget has not stopped it before."""
    from cardbase.games.meio.engine import Deal, SplitActions, cards_of

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

    def new_deal(j: int) -> tuple[Any, dict[int, Any]]:
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
    scores: dict[int, list[int]] = {i: [] for i in range(len(splits))}
    alive = list(range(len(splits)))
    wanted = FIRST_DEALS
    levels = 0
    rounds = 0
    stopped_by = "time"
    budget_end = started + seconds
    while True:
        while len(deals) < wanted:
            deals.append(new_deal(len(deals)))
        plays = [(i, j, *deals[j]) for i in alive for j in range(len(scores[i]), wanted)]
        step = max(1, min(200, len(plays) // (workers * 8) or 1))
        stopped: list[bool] = []
        deadline = budget_end if levels > 0 else math.inf  # level 0 always completes: every split scored
        head = (options, names, seed, seat, hand)
        work = _chunks(head, plays, step, deadline, stopped)
        got: dict[tuple[int, int], int] = {}
        done = map(_play_chunk, work) if backend is None else backend.map(_play_chunk, work)
        for chunk in done:
            for i, j, score in chunk:
                got[i, j] = score
            rounds += len(chunk)
        if stopped:  # the unfinished level is dropped: every survivor stays on the same deals
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
    best = []
    for i in alive[:top]:
        mean, lo, hi = mean_interval([float(x) for x in scores[i]])
        lo, hi = max(0.0, lo), min(float(HAND), hi)  # a round score is 0 to 13: the normal interval clipped
        s = splits[i]
        best.append(
            SplitScore(
                tuple(str(c) for c in cards_of(s.keep)),
                tuple(str(c) for c in cards_of(s.aside)),
                len(scores[i]),
                mean,
                lo,
                hi,
            )
        )
    advice = SplitAdvice(
        tuple(str(c) for c in cards_of(hand)),
        n,
        names,
        seed,
        seconds,
        best,
        len(splits),
        levels,
        stopped_by,
        rounds,
        workers=workers,
        provenance=provenance(),
    )
    advice.elapsed = time.perf_counter() - started
    return advice


def hint_text(rules: Any, observation: Any, seed: int, seconds: float = 3.0) -> str:
    """``play meio``'s hint at the split: the advisor's best split for the observed hand (heuristic
    agents on every seat, a short budget), as the action to type and its expected round score."""
    start = type(rules).from_options({**rules.to_options(), "first_player": observation.start})
    advice = advise(start, observation.hand, observation.player, ["heuristic"] * rules.players, seconds, seed, top=2)
    best = advice.top[0]
    keep = " ".join(best.keep)
    aside = " ".join(best.aside)
    return (
        f"split {keep} | {aside} (expected round score {best.mean:.2f}, 95% {best.low:.2f}–{best.high:.2f}, "
        f"over {best.deals} sampled deals; lab split)"
    )
