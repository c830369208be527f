"""Meio's cards as small ints: card ``13 * suit + rank - 1`` of :data:`CARDS`, a hand a 52-bit mask,
so that legal plays and tricks are a few integer operations."""

from __future__ import annotations

from collections.abc import Iterable

from cardbase.games.meio.cards import (
    SUITS,
    PlayingCard,
    Suit,
)

# --- cards as small ints -----------------------------------------------------

CARDS: tuple[PlayingCard, ...] = tuple(PlayingCard(r, s) for s in SUITS for r in range(1, 14))
"""Every card by index: ``CARDS[13 * suit_index + rank - 1]``."""
INDEX: dict[PlayingCard, int] = {card: i for i, card in enumerate(CARDS)}
_CARD_NAMES: tuple[str, ...] = tuple(f"{c.notation[:-1]}{c.suit.symbol}" for c in CARDS)  # 7♥, as messages say it
HEARTS = SUITS.index(Suit.HEARTS)
SUIT_MASKS: tuple[int, ...] = tuple(0x1FFF << (13 * s) for s in range(4))
_SUIT: tuple[int, ...] = tuple(c // 13 for c in range(52))
_BIT: tuple[int, ...] = tuple(1 << c for c in range(52))
_HEARTS_MASK = SUIT_MASKS[HEARTS]

# Phases of a round.
_DEAL, _SPLIT, _PLAY, _OVER = 0, 1, 2, 3
PHASE_NAMES = ("deal", "split", "play", "over")
MAX_ROUNDS = 100


def mask_of(cards: Iterable[PlayingCard]) -> int:
    """The bit mask of ``cards``."""
    m = 0
    for card in cards:
        m |= 1 << INDEX[card]
    return m


def indices_of(mask: int) -> list[int]:
    """The card indices in ``mask``, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def cards_of(mask: int) -> tuple[PlayingCard, ...]:
    """The cards in ``mask``, in index order (suit S, H, D, C; then rank)."""
    return tuple(CARDS[i] for i in indices_of(mask))


def _notation(mask: int) -> str:
    return " ".join(CARDS[i].notation for i in indices_of(mask))


def _pretty(cards: Iterable[int]) -> str:
    return ", ".join(_CARD_NAMES[c] for c in cards)


HEARTS_NOT_LED = "hearts may not be led until a heart has been played this round (option hearts_anytime=false)"


def held_back(hand: int, led: int | None, hearts_broken: bool, hearts_anytime: bool) -> tuple[str, str] | None:
    """Why some cards of ``hand`` may not be played now, in the words of their refusal, and its rule
    (``follow-suit``, ``hearts-broken``); ``None`` when every card may be. ``led`` is the suit of
    the trick on the table (``None`` before its first card); ``hearts_broken``: a heart was played this round."""
    if led is not None:
        same = hand & SUIT_MASKS[led]
        if same and hand & ~same:
            return f"must follow {SUITS[led].symbol}: you hold {_pretty(indices_of(same))}", "follow-suit"
    elif not hearts_anytime and hand & _HEARTS_MASK and hand & ~_HEARTS_MASK and not hearts_broken:
        return HEARTS_NOT_LED, "hearts-broken"
    return None
