"""Meikyu Kingdom: which Kingdom cards and lands go with winning.

Over a batch, every (game, seat) counts once: a Kingdom card is "in hand" for a seat that held it
at any point of the game (the deal included), a land "in kingdom" for a seat whose kingdom holds
it at the end. Each gets the win rate of those seats and of the others, with Wilson intervals,
and the difference (Newcombe). A shared victory is a win for each seat sharing it. The seats of
one game are not independent (one seat's win is the others' loss), so the intervals are a guide,
not a test. Values the catalog lacks come from the assumption profile, and the report lists them.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cardbase.lab.common import Difference, Rate, intervals_of, number, provenance

if TYPE_CHECKING:
    from cardbase.sim.runner import ChunkMapper, GameResult


@dataclass(frozen=True)
class CardRate:
    name: str
    kind: str
    """``kingdom`` (in hand at any point) or ``land`` (in the kingdom at the end)."""
    with_card: Rate
    without: Rate
    difference: Difference
    too_few: bool
    assumed: bool = False
    """Some value of the card comes from the assumption profile."""

    def to_dict(self) -> dict[str, Any]:
        key = "in_hand" if self.kind == "kingdom" else "in_kingdom"
        return {
            "name": self.name,
            "kind": self.kind,
            f"games_{key}": self.with_card.games,
            f"win_rate_{key}": number(self.with_card.rate),
            f"win_rate_{key}_ci": [number(x) for x in self.with_card.ci],
            "games_without": self.without.games,
            "win_rate_without": number(self.without.rate),
            "win_rate_without_ci": [number(x) for x in self.without.ci],
            "improvement": number(self.difference.value),
            "improvement_ci": [number(self.difference.low), number(self.difference.high)],
            "too_few_games": self.too_few,
            "assumed_values": self.assumed,
        }


@dataclass
class CardsStudy:
    players: int
    agents: tuple[str, ...]
    games: int
    seed: int
    kingdom: list[CardRate]
    lands: list[CardRate]
    assumed: list[str]
    workers: int
    min_games: int
    elapsed: float = 0.0
    provenance: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": "meikyu",
            "players": self.players,
            "agents": list(self.agents),
            "games": self.games,
            "seed": self.seed,
            "intervals": intervals_of("difference"),
            "kingdom_cards": [c.to_dict() for c in self.kingdom],
            "lands": [c.to_dict() for c in self.lands],
            "assumed_values": self.assumed,
            "min_games": self.min_games,
            "workers": self.workers,
            "elapsed_seconds": round(self.elapsed, 3),
            **self.provenance,
        }


def card_rates(
    results: Sequence[GameResult], names: Sequence[str], fact: str, kind: str, min_games: int
) -> list[CardRate]:
    """Per name: the win rate of the (game, seat)s whose ``fact`` (``held``: names; ``lands``:
    ``[name, points]`` pairs) has it, and of the others; sorted by the difference, largest first."""
    out = []
    for name in names:
        wins_with = games_with = wins_without = games_without = 0
        for r in results:
            facts = dict(r.facts)
            for seat, entry in enumerate(facts[fact]):
                has = name in (e[0] if isinstance(e, list | tuple) else e for e in entry)
                won = seat in r.winners
                if has:
                    games_with += 1
                    wins_with += won
                else:
                    games_without += 1
                    wins_without += won
        w, wo = Rate(wins_with, games_with), Rate(wins_without, games_without)
        out.append(CardRate(name, kind, w, wo, w.minus(wo), games_with < min_games or games_without < min_games))
    out.sort(key=lambda c: (c.too_few, -c.difference.value if not math.isnan(c.difference.value) else math.inf))
    return out


def run_cards(
    rules: Any,
    agents: Sequence[str],
    games: int,
    seed: int,
    backend: ChunkMapper | None = None,
    min_games: int = 30,
    on_progress: Callable[[int], None] | None = None,
) -> CardsStudy:
    from cardbase.sim.meikyu import assumed_lines
    from cardbase.sim.runner import run_batch

    started = time.perf_counter()
    batch = run_batch(
        "meikyu",
        rules,
        agents,
        games,
        seed=seed,
        jobs=backend.workers if backend else 1,
        on_progress=on_progress,
        backend=backend,
    )
    pool = rules.pool
    kingdom = card_rates(batch.results, [k.name for k in pool.kingdom if k.copies], "held", "kingdom", min_games)
    lands = card_rates(batch.results, list(dict.fromkeys(x.name for x in pool.lands)), "lands", "land", min_games)

    def mark(c: CardRate) -> CardRate:
        return CardRate(c.name, c.kind, c.with_card, c.without, c.difference, c.too_few, pool.assumes(c.name))

    kingdom, lands = [mark(c) for c in kingdom], [mark(c) for c in lands]
    study = CardsStudy(
        rules.players,
        tuple(agents),
        games,
        seed,
        kingdom,
        lands,
        assumed_lines(pool),
        backend.workers if backend else 1,
        min_games,
        provenance=provenance(),
    )
    study.elapsed = time.perf_counter() - started
    return study
