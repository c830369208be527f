"""What every lab run shares: rates with intervals; the backend the games run on and the provenance
are the simulator's (:mod:`cardbase.sim.runner`), re-exported here."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardbase.sim.runner import MAX_JOBS, backend, default_jobs, provenance
from cardbase.sim.stats import number
from cardbase.stats import difference_interval, wilson

__all__ = [
    "INTERVALS",
    "MAX_JOBS",
    "MAX_TURNS",
    "Difference",
    "Rate",
    "backend",
    "default_jobs",
    "intervals_of",
    "mea_study_options",
    "number",
    "play_matchups",
    "provenance",
    "study_notes",
]

if TYPE_CHECKING:
    from cardbase.sim.mea import LoadedDeck, MeaGame
    from cardbase.sim.runner import ChunkMapper


INTERVALS: dict[str, Any] = {
    "level": 0.95,
    "rates": "Wilson score",
    "improvement_when_drawn": "Newcombe's hybrid score (method 10)",
}
"""Which intervals a lab report's ``…ci`` are, named in its JSON (``intervals``) beside the figures."""


def intervals_of(difference: str) -> dict[str, Any]:
    """:data:`INTERVALS` for a report whose difference of two rates is called ``difference``."""
    return {"level": INTERVALS["level"], "rates": INTERVALS["rates"], difference: INTERVALS["improvement_when_drawn"]}


@dataclass(frozen=True)
class Rate:
    """``wins`` of ``games`` and its 95% Wilson interval (NaN for no games)."""

    wins: int
    games: int

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else math.nan

    @property
    def ci(self) -> tuple[float, float]:
        return wilson(self.wins, self.games) if self.games else (math.nan, math.nan)

    def shown(self) -> tuple[str, str]:
        """The rate and its 95% interval as the lab shows them, each to the digits the interval gives
        (``—`` for no games): the command line's tables and the web's, one wording."""
        from cardbase.stats import rate_text

        if self.games == 0:
            return "—", "—"
        return rate_text(self.rate, *self.ci)

    def minus(self, other: Rate) -> Difference:
        d, lo, hi = difference_interval(self.wins, self.games, other.wins, other.games)
        return Difference(d, lo, hi)


@dataclass(frozen=True)
class Difference:
    """A difference of two rates and its 95% interval (Newcombe)."""

    value: float
    low: float
    high: float

    def shown(self) -> tuple[str, str, str]:
        """The difference in points (signed) and its interval's ends, to the digits the interval gives
        (``—`` for none): the command line's tables and the web's, one wording."""
        from cardbase.stats import shown

        return shown(self.value, self.low, self.high, signed=True)


MAX_TURNS = 200
"""Méa's turn bound of a study (``--max-turns``'s default): after it, more tiles wins."""


def mea_study_options(max_turns: int = MAX_TURNS, rule: list[str] | None = None) -> dict[str, Any]:
    """The Méa rules options every study plays under: the commands' defaults (checkerboard, orthogonal,
    one attack, move in all, immediate elimination, mana at turn start), ``max_turns``, then ``rule``
    (``--rule NAME=VALUE`` texts). The command line and the web's lab page both call it."""
    from cardbase.sim.options import mea_options, rules_options

    return rules_options("mea", mea_options("checkerboard", False, False, False, False, False, max_turns), rule)


def play_matchups(
    matchups: Sequence[tuple[Sequence[LoadedDeck], tuple[str, str], int]],
    options: dict[str, Any],
    games: int,
    backend: ChunkMapper | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> tuple[list[list[MeaGame]], list[str]]:
    """Méa: ``games`` games of each match-up ``(decks, agents, seed)`` (each deck first in half),
    on ``backend``, all in one stream of chunks; the games of each, and the report notes of all the
    match-ups' decks (:func:`study_notes`)."""
    from cardbase.sim.mea import run_mea_batches

    batches = run_mea_batches(
        matchups, options, games, jobs=backend.workers if backend else 1, on_progress=on_progress, backend=backend
    )
    played = [batch.games for batch in batches]
    return played, study_notes([d for decks, _, _ in matchups for d in decks])


def study_notes(decks: Sequence[LoadedDeck]) -> list[str]:
    """What a report over games of ``decks`` must say (the rules' report notes: demo cards, cards
    played as bare stats), each deck named once however many match-ups it plays in (a mirror too)."""
    from cardbase.games.mea.rules import bare_note_of, demo_note_of

    notes = (demo_note_of([(d.label, d.deck) for d in decks]), bare_note_of([d.deck for d in decks]))
    return [note for note in notes if note]
