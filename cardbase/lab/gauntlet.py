"""A Méa gauntlet: one deck against each deck of a field, on both seats, with the win rate per
match-up and the per-card figures 17lands made standard for real games.

Per card of the deck, over every game of the gauntlet (a card counts once per game however many
copies were drawn): ``games_in_hand`` (games it was drawn at any point, the opening included),
``win_rate_in_hand``, ``win_rate_not_drawn``, ``improvement_when_drawn`` (the difference of the
two, with Newcombe's interval) and the opening-hand win rate (``win_rate_in_opening``). A shared
result is a win for neither deck.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardbase.errors import UsageError, quoted
from cardbase.lab.common import INTERVALS, Difference, Rate, number, play_matchups, provenance
from cardbase.sim.registry import derive_seed

if TYPE_CHECKING:
    from cardbase.decks.formats import HouseFormats
    from cardbase.sim.mea import LoadedDeck, MeaGame
    from cardbase.sim.runner import ChunkMapper

MIN_CARD_GAMES = 30
"""Default: a card drawn (or not drawn) in fewer games than this is marked as too few to read."""


@dataclass(frozen=True)
class Matchup:
    """The deck against one field deck."""

    opponent: str
    file: str
    result: Rate
    going_first: Rate
    going_second: Rate
    shared: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "opponent": self.opponent,
            "file": self.file,
            "games": self.result.games,
            "wins": self.result.wins,
            "shared": self.shared,
            "win_rate": number(self.result.rate),
            "ci": [number(x) for x in self.result.ci],
            "going_first": _rate_dict(self.going_first),
            "going_second": _rate_dict(self.going_second),
        }


@dataclass(frozen=True)
class CardFigures:
    """One card of the deck over the gauntlet."""

    name: str
    copies: int
    in_hand: Rate
    not_drawn: Rate
    opening: Rate
    improvement: Difference
    too_few: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "copies": self.copies,
            "games_in_hand": self.in_hand.games,
            "win_rate_in_hand": number(self.in_hand.rate),
            "win_rate_in_hand_ci": [number(x) for x in self.in_hand.ci],
            "games_not_drawn": self.not_drawn.games,
            "win_rate_not_drawn": number(self.not_drawn.rate),
            "win_rate_not_drawn_ci": [number(x) for x in self.not_drawn.ci],
            "improvement_when_drawn": number(self.improvement.value),
            "improvement_when_drawn_ci": [number(self.improvement.low), number(self.improvement.high)],
            "games_in_opening": self.opening.games,
            "win_rate_in_opening": number(self.opening.rate),
            "win_rate_in_opening_ci": [number(x) for x in self.opening.ci],
            "too_few_games": self.too_few,
        }


def _rate_dict(r: Rate) -> dict[str, Any]:
    return {"games": r.games, "wins": r.wins, "win_rate": number(r.rate), "ci": [number(x) for x in r.ci]}


def card_figures(games: Sequence[MeaGame], cards: Sequence[tuple[str, int]], min_games: int) -> list[CardFigures]:
    """The figures of each ``(name, copies)`` of deck 0 over ``games``: sorted by improvement when
    drawn (largest first), cards with fewer than ``min_games`` games drawn or not drawn last."""
    out = []
    for name, copies in cards:
        drawn = [g for g in games if name in g.drawn[0]]
        not_drawn = [g for g in games if name not in g.drawn[0]]
        opening = [g for g in games if name in g.opening_hand[0]]
        in_hand, without = _wins(drawn), _wins(not_drawn)
        out.append(
            CardFigures(
                name,
                copies,
                in_hand,
                without,
                _wins(opening),
                in_hand.minus(without),
                in_hand.games < min_games or without.games < min_games,
            )
        )
    out.sort(key=lambda c: (c.too_few, -c.improvement.value if not math.isnan(c.improvement.value) else math.inf))
    return out


def _wins(games: Sequence[MeaGame]) -> Rate:
    return Rate(sum(1 for g in games if g.winners == (0,)), len(games))


@dataclass
class Gauntlet:
    """A finished gauntlet."""

    deck: str
    file: str
    agents: tuple[str, str]
    games_per_matchup: int
    seed: int
    options: dict[str, Any]
    matchups: list[Matchup]
    cards: list[CardFigures]
    games: list[MeaGame]
    workers: int
    min_games: int
    elapsed: float = 0.0
    notes: list[str] = field(default_factory=list)
    provenance: dict[str, Any] = field(default_factory=dict)

    @property
    def overall(self) -> Rate:
        return Rate(sum(m.result.wins for m in self.matchups), sum(m.result.games for m in self.matchups))

    def to_dict(self) -> dict[str, Any]:
        o = self.overall
        return {
            "game": "mea",
            "deck": self.deck,
            "file": self.file,
            "agents": {"deck": self.agents[0], "field": self.agents[1]},
            "games_per_matchup": self.games_per_matchup,
            "seed": self.seed,
            "intervals": INTERVALS,
            "overall": {"games": o.games, "wins": o.wins, "win_rate": number(o.rate), "ci": [number(x) for x in o.ci]},
            "matchups": [m.to_dict() for m in self.matchups],
            "cards": [c.to_dict() for c in self.cards],
            "min_card_games": self.min_games,
            "options": self.options,
            "notes": self.notes,
            "workers": self.workers,
            "elapsed_seconds": round(self.elapsed, 3),
            **self.provenance,
        }


def load_decks(
    db: str | None,
    paths: Sequence[Path],
    agents: tuple[str, str],
    options: dict[str, Any],
    drop_unknown: bool,
    house: HouseFormats | None = None,
) -> list[LoadedDeck]:
    """The decks (the first is the one judged), read and checked with the agents and options before any game."""
    from cardbase.db.engine import open_database
    from cardbase.sim.mea import load_deck, make_rules
    from cardbase.sim.registry import game

    entry = game("mea")
    entry.check_agents(list(agents))
    database = open_database(db)
    loaded = [load_deck(database, Path(p), drop_unknown, house) for p in paths]
    for other in loaded[1:]:
        rules = make_rules([loaded[0].deck, other.deck], options)
        for seat, name in enumerate(agents):
            entry.make_agent(name, rules, seat, 0)
    return loaded


def split_agents(text: str) -> tuple[str, str]:
    """``A`` (both sides) or ``A,B`` (the deck's, the field's)."""
    names = [a.strip() for a in text.split(",")]
    if len(names) == 1:
        names *= 2
    if len(names) != 2 or not all(names):
        raise UsageError(f"--agents names one agent, or one for the deck and one for the field, not {quoted(text)}")
    return (names[0], names[1])


def run_gauntlet(
    decks: Sequence[LoadedDeck],
    agents: tuple[str, str],
    options: dict[str, Any],
    games: int,
    seed: int,
    backend: ChunkMapper | None = None,
    min_games: int = MIN_CARD_GAMES,
    on_progress: Callable[[int], None] | None = None,
) -> Gauntlet:
    """``decks[0]`` against each of ``decks[1:]``, ``games`` games each (each deck first in half).
    Match-up ``k`` is seeded ``derive_seed(seed, "gauntlet", k)``: the results depend on nothing else."""
    if len(decks) < 2:
        raise UsageError("a gauntlet needs at least one --field deck")
    started = time.perf_counter()
    pairs = [([decks[0], d], agents, derive_seed(seed, "gauntlet", k)) for k, d in enumerate(decks[1:], start=1)]
    batches, notes = play_matchups(pairs, options, games, backend, on_progress)
    matchups: list[Matchup] = []
    played: list[MeaGame] = []
    for opponent, these in zip(decks[1:], batches, strict=True):
        played += these
        first = [g for g in these if g.first == 0]
        second = [g for g in these if g.first != 0]
        matchups.append(
            Matchup(
                opponent.label,
                opponent.path,
                _wins(these),
                _wins(first),
                _wins(second),
                sum(1 for g in these if len(g.winners) == 2),
            )
        )
    for d in decks:
        left_out = f"left out of {d.label} (unknown stats): {'; '.join(d.dropped)}"
        if d.dropped and left_out not in notes:  # a mirror's deck once
            notes.append(left_out)
    names = [(card.name, n) for card, n in decks[0].deck.cards]
    result = Gauntlet(
        decks[0].label,
        decks[0].path,
        agents,
        games,
        seed,
        options,
        matchups,
        card_figures(played, names, min_games),
        played,
        backend.workers if backend else 1,
        min_games,
        notes=notes,
        provenance=provenance(),
    )
    result.elapsed = time.perf_counter() - started
    return result
