"""The codes Méa's state and its readers share: a card's zone, the phase of a game, how a game
ended (stable codes; ``Outcome.reason`` is the sentence), and the seats' names."""

from __future__ import annotations

# Zones of a card.
DECK, HAND, BOARD, OUT, UNKNOWN = 0, 1, 2, 3, 4
ZONE_NAMES = ("deck", "hand", "board", "out of play", "unknown")

# Phases.
_SHUFFLE, _OPENING, _FLIP, _MAIN, _CHOICE, _OVER = range(6)
PHASE_NAMES = ("shuffle", "opening", "flip", "main", "choice", "over")

# How a game ended (Outcome.reason is the sentence; these are stable codes).
END_NO_TILES = "no-tiles"
END_HAND = "hand-of-11"
END_DECK_OUT = "deck-out"
END_TURN_LIMIT = "turn-limit"

SEAT_NAMES = ("P1", "P2")


def seat_name(seat: int) -> str:
    return SEAT_NAMES[seat]
