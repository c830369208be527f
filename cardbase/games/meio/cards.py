"""Meio's cards: a standard 52-card deck and the subsets for 2, 3 and 4 players."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from cardbase.errors import quoted
from cardbase.games.base import SOURCE_RULEBOOK, whole_number


class Suit(StrEnum):
    """A suit, by its one-letter notation. Hearts are trumps in Meio."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def title(self) -> str:  # type: ignore[override]  # "Spades", deliberately not str.title()
        return self.name.capitalize()


_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
SUITS: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
SUIT_NAMES: dict[str, str] = {s.value: s.name.lower() for s in SUITS}
"""A suit's letter and its name as a player says it (``H``: hearts)."""

# Ranks as numbers: ace 1, jack 11, queen 12, king 13 (how they rank in play is a rule option).
RANK_NAMES = {
    1: "Ace",
    2: "Two",
    3: "Three",
    4: "Four",
    5: "Five",
    6: "Six",
    7: "Seven",
    8: "Eight",
    9: "Nine",
    10: "Ten",
    11: "Jack",
    12: "Queen",
    13: "King",
}
RANK_LETTERS = {1: "A", 11: "J", 12: "Q", 13: "K"}
RANKS: tuple[int, ...] = tuple(range(1, 14))
PLAYER_COUNTS: tuple[int, ...] = (2, 3, 4)
HAND_SIZE = 13
FIRST_HALF = 7
SECOND_HALF = 6


def highest_rank_for(players: int) -> int:
    """Highest rank in the deck for ``players``: A–7, A–10, or all 52 (rulebook, Game Preparation)."""
    try:
        return {2: 7, 3: 10, 4: 13}[players]
    except KeyError:
        raise ValueError(f"Meio is for 2, 3 or 4 players, not {players}") from None


def min_players(rank: int) -> int:
    """Fewest players whose deck holds cards of ``rank`` (rulebook, Game Preparation: A–7 for 2 players,
    A–10 for 3, all cards for 4)."""
    return 2 if rank <= 7 else 3 if rank <= 10 else 4


def min_players_of(rank: int | None) -> int | None:
    """A catalogued card's ``min_players``, which follows its rank for every card, shipped or entered by
    a user: :func:`min_players`, or unknown (None) when the rank is unknown: never guessed."""
    return None if rank is None else min_players(rank)


def min_players_problem(rank: int | None, given: int) -> str | None:
    """Why ``given`` cannot be the ``min_players`` of a card of ``rank`` (None when it can): it follows the rank."""
    derived = min_players_of(rank)
    if derived == given:
        return None
    if derived is None:
        return "follows the card's rank, which is unknown; give the rank and leave min_players empty"
    return (
        f"a Meio card of rank {rank} is first in the {derived}-player deck (A–7 for 2 players, A–10 for 3, "
        f"all for 4), so its min_players is {derived}, not {given}; leave it empty: it follows the rank"
    )


@dataclass(frozen=True, slots=True, order=True)
class PlayingCard:
    """A card of the standard deck; ``PlayingCard.parse("7H")`` and ``str(card) == "7H"``."""

    rank: int
    suit: Suit

    def __post_init__(self) -> None:
        if self.rank not in RANK_NAMES:
            raise ValueError(f"rank must be 1 (ace) to 13 (king), not {self.rank}")

    @classmethod
    def parse(cls, text: str) -> PlayingCard:
        """Parse a notation such as ``7H``, ``10h``, ``TS``, ``A♠``."""
        t = text.strip().upper()
        known = _SPELLINGS.get(t)  # the usual spellings, read once (a split's text is 13 cards)
        return known if known is not None else cls._read(t, text)

    @classmethod
    def _read(cls, t: str, text: str) -> PlayingCard:
        """``t``, the upper-cased ``text``, read as a card."""
        if len(t) < 2:
            raise ValueError(f"not a card: {quoted(text)} (write rank then suit, like 7H or AS)")
        rank_part, suit_part = t[:-1], t[-1]
        suit = next((s for s in SUITS if suit_part in (s.value, s.symbol)), None)
        if suit is None:
            raise ValueError(f"not a card: {quoted(text)}: unknown suit {quoted(suit_part)} (S, H, D or C)")
        letters = {v: k for k, v in RANK_LETTERS.items()} | {"T": 10}
        number = whole_number(rank_part, 10)
        if rank_part in letters:
            rank = letters[rank_part]
        elif number is not None and number >= 2:
            rank = number
        else:
            raise ValueError(f"not a card: {quoted(text)}: unknown rank {quoted(rank_part)} (A, 2–10, J, Q, K)")
        return cls(rank, suit)

    @property
    def notation(self) -> str:
        return f"{RANK_LETTERS.get(self.rank, str(self.rank))}{self.suit.value}"

    @property
    def name(self) -> str:
        return f"{RANK_NAMES[self.rank]} of {self.suit.title}"

    def __str__(self) -> str:
        return self.notation

    def __repr__(self) -> str:
        return f"PlayingCard.parse({self.notation!r})"


@cache
def deck_for(players: int) -> tuple[PlayingCard, ...]:
    """The deck for ``players`` players, in a fixed order (suit, then rank); made once per count
    (``rules.max_chance_outcomes()`` reads it at every deal step)."""
    top = highest_rank_for(players)
    return tuple(PlayingCard(r, s) for s in SUITS for r in RANKS if r <= top)


@dataclass(frozen=True, slots=True)
class MeioCard:
    """A Meio card as the catalog holds it."""

    name: str
    rank: int
    suit: Suit
    type: str = "playing card"
    set: str = "standard"
    source: str = SOURCE_RULEBOOK
    min_players: int = 2
    aliases: tuple[str, ...] = ()

    @property
    def card(self) -> PlayingCard:
        return PlayingCard(self.rank, self.suit)


def _spellings() -> dict[str, PlayingCard]:
    """Each card's usual spellings, upper-cased, as ``PlayingCard._read`` reads them."""
    out: dict[str, PlayingCard] = {}
    for rank in RANKS:
        for letters in (RANK_LETTERS.get(rank, str(rank)), *(("T",) if rank == 10 else ())):
            for suit in Suit:
                for mark in (suit.value, suit.symbol):
                    t = f"{letters}{mark}".upper()
                    out[t] = PlayingCard._read(t, t)
    return out


_SPELLINGS: dict[str, PlayingCard] = _spellings()


def catalog_cards() -> tuple[MeioCard, ...]:
    """The 52 cards, with their notations (``7H``, ``7♥``) as aliases."""
    return tuple(
        MeioCard(
            name=c.name,
            rank=c.rank,
            suit=c.suit,
            min_players=min_players(c.rank),
            aliases=(c.notation, f"{RANK_LETTERS.get(c.rank, str(c.rank))}{c.suit.symbol}"),
        )
        for c in deck_for(4)
    )


RULEBOOK_COUNTS: dict[str, int] = {"playing card": 52}
