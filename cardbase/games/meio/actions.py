"""Meio's actions: :class:`Play` (``play 7H``), :class:`Split` (``split <7 kept> | <6 aside>``) and
the chance action :class:`Deal`, their notation and ``parse_action``, and the lazy list of a
hand's 1,716 splits."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb
from typing import NoReturn, overload

from cardbase.errors import counted, quoted
from cardbase.games.base import (
    InvalidAction,
    check_notation,
    sliced,
    whole_index,
)
from cardbase.games.meio.cards import (
    PLAYER_COUNTS,
    SECOND_HALF,
    PlayingCard,
)
from cardbase.games.meio.masks import CARDS, INDEX, _notation, cards_of, indices_of, mask_of

# --- actions -----------------------------------------------------------------


class Play(int):
    """Play one card: ``play 7H``. An ``int`` (the card's index), interned, so
    the fast path indexes tables with it directly."""

    __slots__ = ()

    def __new__(cls, card: PlayingCard | str | int) -> Play:
        """The play of ``card``: a :class:`PlayingCard`, its notation (``Play('7H')``, what the repr
        says) or its index, 0 to 51; anything else is :class:`InvalidAction` naming it."""
        if isinstance(card, PlayingCard):
            return PLAYS[INDEX[card]]
        if isinstance(card, str):
            try:
                return PLAYS[INDEX[PlayingCard.parse(card)]]
            except ValueError as error:
                raise InvalidAction(f"play: {error}") from None
        index = whole_index(card)
        if index is not None and 0 <= index < 52:
            return PLAYS[index]
        raise InvalidAction(f"a play is of a card, its notation (7H) or its index 0 to 51, not {quoted(card)}")

    def __getnewargs__(self) -> tuple[int]:
        return (int(self),)

    @property
    def card(self) -> PlayingCard:
        """The card played."""
        return CARDS[self]

    def __str__(self) -> str:
        return "play " + CARDS[self].notation

    def __repr__(self) -> str:
        return f"Play({CARDS[self].notation!r})"


PLAYS: tuple[Play, ...] = tuple(int.__new__(Play, c) for c in range(52))


@dataclass(frozen=True, slots=True)
class Split:
    """Split a 13-card hand: ``split <7 cards kept> | <6 cards set aside>``."""

    keep: int
    aside: int

    @classmethod
    def of(cls, keep: Iterable[PlayingCard], aside: Iterable[PlayingCard]) -> Split:
        """The split keeping the cards ``keep`` and setting aside the cards ``aside``."""
        return cls(mask_of(keep), mask_of(aside))

    @property
    def kept_cards(self) -> tuple[PlayingCard, ...]:
        """The cards kept for the first half."""
        return cards_of(self.keep)

    @property
    def aside_cards(self) -> tuple[PlayingCard, ...]:
        """The cards set aside for the second half."""
        return cards_of(self.aside)

    def __str__(self) -> str:
        return f"split {_notation(self.keep)} | {_notation(self.aside)}"


@dataclass(frozen=True, slots=True)
class Deal:
    """The chance action that starts a round: each seat's 13 cards, seat 0 first.
    The cards of the deck not dealt are the ones left aside face down."""

    hands: tuple[int, ...]

    @classmethod
    def of(cls, hands: Iterable[Iterable[PlayingCard]]) -> Deal:
        """The deal of the given hands, one per seat."""
        return cls(tuple(mask_of(h) for h in hands))

    def __str__(self) -> str:
        return "deal " + " / ".join(_notation(h) for h in self.hands)


MeioAction = Play | Split | Deal


def _parse_cards(text: str, what: str) -> int:
    mask = 0
    for token in text.replace(",", " ").split():
        try:
            card = PlayingCard.parse(token)
        except ValueError as error:
            raise InvalidAction(f"{what}: {error}") from None
        bit = 1 << INDEX[card]
        if mask & bit:
            raise InvalidAction(f"{what}: {card} is written twice")
        mask |= bit
    return mask


def parse_action(text: str) -> MeioAction:
    """Parse ``play 7H`` (or just ``7H``), ``split … | …`` or ``deal … / … / …``."""
    t = check_notation(text).strip()
    head, _, rest = t.partition(" ")
    verb = head.lower()
    if verb == "play":
        cards = rest.split()
        if len(cards) != 1:
            raise InvalidAction(f"not an action: {quoted(text)} (write: play 7H)")
        try:
            return Play(PlayingCard.parse(cards[0]))
        except ValueError as error:
            raise InvalidAction(f"play: {error}") from None
    if verb == "split":
        if rest.count("|") != 1:
            raise InvalidAction(f"not an action: {quoted(text)} (write: split <7 cards kept> | <6 cards set aside>)")
        keep_text, aside_text = rest.split("|")
        keep = _parse_cards(keep_text, "split")
        aside = _parse_cards(aside_text, "split")
        return Split(keep, aside)
    if verb == "deal":
        parts = rest.split("/")
        if len(parts) not in PLAYER_COUNTS:
            raise InvalidAction(f"a deal gives one hand per player (2, 3 or 4, split by /), not {len(parts):,}")
        return Deal(tuple(_parse_cards(part, "deal") for part in parts))
    if _is_card(t):
        return Play(PlayingCard.parse(t))
    return _bad(text)


def _is_card(text: str) -> bool:
    try:
        PlayingCard.parse(text)
    except ValueError:
        return False
    return True


def _bad(text: str) -> NoReturn:
    raise InvalidAction(
        f"not a Meio action: {quoted(text)} (write: play 7H, split <7 kept> | <6 aside>, or deal <hand> / <hand> …)"
    )


_COMB = tuple(tuple(comb(n, k) for k in range(14)) for n in range(14))
ASIDE_IDS = 52
"""The step id of setting a card aside in the split: 52 + the card's index. A split is six
such steps, the cards in index order."""


class SplitActions(Sequence[Split]):
    """The legal splits of a 13-card hand, lazily: ``len`` is C(13, 6) = 1716 and
    ``splits[i]`` builds only the i-th (aside sets in lexicographic order)."""

    __slots__ = ("_cards", "_hand")

    def __init__(self, hand: int):
        self._hand = hand
        self._cards = indices_of(hand)

    def __len__(self) -> int:
        return _COMB[len(self._cards)][SECOND_HALF]

    @overload
    def __getitem__(self, i: int) -> Split: ...

    @overload
    def __getitem__(self, i: slice) -> tuple[Split, ...]: ...

    def __getitem__(self, i: int | slice) -> Split | tuple[Split, ...]:
        if type(i) is slice:
            return sliced(self, i)
        cards = self._cards
        n, k = len(cards), SECOND_HALF
        total = _COMB[n][k]
        if i < 0:
            i += total
        if not 0 <= i < total:
            raise IndexError(i)
        aside = 0
        j = 0
        while k:
            below = _COMB[n - j - 1][k - 1]
            if i < below:
                aside |= 1 << cards[j]
                k -= 1
            else:
                i -= below
            j += 1
        return Split(self._hand ^ aside, aside)

    def __iter__(self) -> Iterator[Split]:
        for chosen in combinations(self._cards, SECOND_HALF):
            aside = 0
            for c in chosen:
                aside |= 1 << c
            yield Split(self._hand ^ aside, aside)

    def __repr__(self) -> str:
        return f"<{counted(len(self), 'legal split')}>"

    def __contains__(self, action: object) -> bool:
        return (
            isinstance(action, Split)
            and action.keep | action.aside == self._hand
            and not action.keep & action.aside
            and action.aside.bit_count() == SECOND_HALF
        )
