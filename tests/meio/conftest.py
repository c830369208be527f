"""Helpers for Meio scenarios: deal given hands, split them, play cards by name."""

from __future__ import annotations

from typing import Any

from cardbase.games.meio.cards import PlayingCard
from cardbase.games.meio.engine import Deal, MeioRules, MeioState, Play, Split


def cards(text: str) -> list[PlayingCard]:
    return [PlayingCard.parse(t) for t in text.split()]


def dealt(players: int, hands: list[str], **options: Any) -> MeioState:
    """A new game whose first deal gives these hands (13 cards each, seat 0 first)."""
    state = MeioRules(players=players, **options).new_initial_state(0)
    state.apply(Deal.of([cards(h) for h in hands]))
    return state


def table(players: int, keep: list[str], aside: list[str], **options: Any) -> MeioState:
    """A game after the deal and the split: ``keep[i]`` (7 cards) and ``aside[i]`` (6)."""
    state = dealt(players, [k + " " + a for k, a in zip(keep, aside, strict=True)], **options)
    for _ in range(players):
        p = state.current_player
        state.apply(Split.of(cards(keep[p]), cards(aside[p])))
    return state


def play(state: MeioState, *names: str) -> None:
    """Play these cards in turn (each checked)."""
    for name in names:
        state.apply(Play(name))


# Two players, deck A–7. Leftover: AH 3H.
KEEP_2P = ["AS 2S 3S 4H 5H 6D 7C", "4S 6H 7H AC 2C 3C 4C"]
ASIDE_2P = ["5S 6S 7S AD 2D 3D", "5C 6C 4D 5D 7D 2H"]

# Four players, all 52 cards.
KEEP_4P = [
    "AS KS 2H 3H 2D 3D 2C",
    "QS JS AH KH 4D 5D 3C",
    "10S 9S 8S QH 6D 7D 4C",
    "2S 3S 4S 5S 8D 9D 5C",
]
ASIDE_4P = [
    "4H 5H 6H 7H 10D JD",
    "8H 9H QD KD 6C 7C",
    "10H JH AD 8C 9C 10C",
    "6S 7S JC QC KC AC",
]
