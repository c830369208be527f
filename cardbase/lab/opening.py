"""Méa's best opening draw size for a deck: the same agent plays every size 1–10, the opening
forced and the rest of the play its own, against the same opponent.

Every size is played from the same batch seed, so each size meets the same shuffles and seeds
(common random numbers: the differences between sizes are not noise of different deals). The
intervals are each size's own Wilson interval, and the margin's interval is Newcombe's for two
independent rates, which the pairing only makes conservative.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cardbase.errors import UsageError, quoted
from cardbase.lab.common import Difference, Rate, intervals_of, number, play_matchups, provenance
from cardbase.sim.registry import derive_seed

if TYPE_CHECKING:
    from cardbase.sim.mea import LoadedDeck
    from cardbase.sim.runner import ChunkMapper

SIZES = range(1, 11)
"""Opening draws of 1 to 10 cards (11 in hand loses at once)."""


@dataclass(frozen=True)
class SizeResult:
    size: int
    result: Rate


@dataclass
class OpeningStudy:
    """Win rate of the deck by its forced opening size."""

    deck: str
    vs: str
    agent: str
    opponent_agent: str
    games_per_size: int
    seed: int
    options: dict[str, Any]
    sizes: list[SizeResult]
    workers: int
    elapsed: float = 0.0
    notes: list[str] = field(default_factory=list)
    provenance: dict[str, Any] = field(default_factory=dict)

    @property
    def best(self) -> SizeResult:
        return max(self.sizes, key=lambda s: (s.result.rate, -s.size))

    @property
    def runner_up(self) -> SizeResult:
        best = self.best
        return max((s for s in self.sizes if s is not best), key=lambda s: (s.result.rate, -s.size))

    @property
    def margin(self) -> Difference:
        """The best size's win rate minus the runner-up's, with its interval."""
        return self.best.result.minus(self.runner_up.result)

    @property
    def clear(self) -> bool:
        """Whether the best size is clearly best: the margin's interval lies above 0 (else the two
        sizes are as good as these games can tell)."""
        return self.margin.low > 0

    def verdict(self, more: str) -> str:
        """The advice in words, as every face shows it: the best size with its margin over the next, and,
        when the margin's interval includes 0, that no size is clearly best (``more``: how to play more games)."""
        from cardbase.errors import counted, plural
        from cardbase.stats import shown

        m = self.margin
        value, low, high = shown(m.value, m.low, m.high, signed=True)
        best = (
            f"{counted(self.best.size, 'card')}, {value} {plural(value, 'point')} over {self.runner_up.size} "
            f"(95% {low} to {high})"
        )
        if self.clear:
            return f"Best: {best}"
        return (
            f"Highest win rate: {best}; the interval includes 0, so no size is clearly best: "
            f"the two are as good as these games can tell ({more} may tell them apart)"
        )

    def to_dict(self) -> dict[str, Any]:
        m = self.margin
        return {
            "game": "mea",
            "deck": self.deck,
            "vs": self.vs,
            "agent": self.agent,
            "opponent_agent": self.opponent_agent,
            "games_per_size": self.games_per_size,
            "seed": self.seed,
            "intervals": intervals_of("margin"),
            "sizes": [
                {
                    "size": s.size,
                    "games": s.result.games,
                    "wins": s.result.wins,
                    "win_rate": number(s.result.rate),
                    "ci": [number(x) for x in s.result.ci],
                }
                for s in self.sizes
            ],
            "best": {
                "size": self.best.size,
                "runner_up": self.runner_up.size,
                "margin": number(m.value),
                "margin_ci": [number(m.low), number(m.high)],
                "clear": self.clear,
            },
            "options": self.options,
            "notes": self.notes,
            "workers": self.workers,
            "elapsed_seconds": round(self.elapsed, 3),
            **self.provenance,
        }


def forced(agent: str, size: int) -> str:
    """``agent`` with its opening draw forced to ``size`` (``heuristic`` → ``heuristic:opening=4``)."""
    base, colon, params = agent.partition(":")
    if any(p.partition("=")[0].strip() == "opening" for p in params.split(";")):
        raise UsageError(f"--agents {quoted(agent)}: lab opening sets the opening itself; leave out opening=")
    return f"{agent};opening={size}" if colon and params else f"{base}:opening={size}"


def check_agent(agent: str) -> None:
    if agent.partition(":")[0] not in ("heuristic", "search"):
        raise UsageError(
            f"--agents {quoted(agent)}: lab opening needs an agent that takes an opening size (heuristic, search)"
        )


def run_opening(
    decks: Sequence[LoadedDeck],
    agents: tuple[str, str],
    options: dict[str, Any],
    games: int,
    seed: int,
    backend: ChunkMapper | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> OpeningStudy:
    """``games`` games of ``decks[0]`` (agent ``agents[0]``, opening forced) against ``decks[1]``
    for each size; each deck goes first in half of them."""
    check_agent(agents[0])
    started = time.perf_counter()
    same = derive_seed(seed, "opening")  # every size meets the same shuffles and seeds
    runs = [(decks, (forced(agents[0], size), agents[1]), same) for size in SIZES]
    batches, notes = play_matchups(runs, options, games, backend, on_progress)
    sizes = [
        SizeResult(size, Rate(sum(1 for g in these if g.winners == (0,)), len(these)))
        for size, these in zip(SIZES, batches, strict=True)
    ]
    study = OpeningStudy(
        decks[0].label,
        decks[1].label,
        agents[0],
        agents[1],
        games,
        seed,
        options,
        sizes,
        backend.workers if backend else 1,
        notes=notes,
        provenance=provenance(),
    )
    study.elapsed = time.perf_counter() - started
    return study
