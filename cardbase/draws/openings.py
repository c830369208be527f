"""Each game's opening and draws (from the rulebooks), and the exact answers built on them.

- Méa: a player draws as many opening cards as they choose (at least 1; 11 or more in hand loses),
  then at least 1 at the end of each turn. Cards seen are the top of the player's own deck.
- Meikyu: 4 cards each from the shared Kingdom pile; a player dealt an OPEN card returns their hand,
  the pile is shuffled and they draw 4 again, until no player holds one. Then one card at the start
  of each turn. Exact, by symmetry: the rule treats all non-OPEN cards alike, so the final deal is
  uniform over hands of non-OPEN cards, and the pile left holds every OPEN card (see
  :class:`MeikyuDraws`).
- Meio: 13 cards dealt from the deck for N players; no draws after the deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb

from cardbase.draws.exact import (
    Groups,
    HandCounts,
    Mixture,
    Need,
    Predicate,
    all_hold,
    hypergeometric_pmf,
    mixture_probability,
    one_holds,
)
from cardbase.errors import counted

MEA_MAX_OPENING = 10  # "they'll instantaneously lose if they have 11 or more in their hand"
MEIKYU_DEAL = 4
MEIO_HAND = 13
TABLE_SEEN = tuple(range(1, 11))


@dataclass(frozen=True, slots=True)
class PileCard:
    """A card of the pile a player draws from: ``count`` copies, the needs it matches (bit mask),
    and whether it is a Meikyu OPEN card."""

    name: str
    count: int
    mask: int = 0
    open: bool = False


@dataclass(frozen=True, slots=True)
class Answer:
    """The exact chance, with ``seen`` cards seen, of every need together and of each need alone."""

    seen: int
    joint: Fraction
    each: tuple[Fraction, ...]
    turn: int | None = None


class Draws:
    """A player's cards seen from a shuffled pile: the first ``n`` cards, in order."""

    game = ""

    def __init__(self, cards: Sequence[PileCard], needs: Sequence[Need]):
        self.cards = tuple(c for c in cards if c.count)
        self.needs = tuple(needs)
        self.size = sum(c.count for c in self.cards)

    @property
    def max_seen(self) -> int:
        return self.size

    def check(self, seen: int) -> None:
        """Raise ``ValueError`` (with a sentence for the user) if ``seen`` cards cannot be seen."""
        if seen < 0:
            raise ValueError("cards seen cannot be negative")
        if seen > self.max_seen:
            raise ValueError(f"cannot see {counted(seen, 'card')}: the deck has {self.size}")

    def _predicates(self) -> list[Predicate]:
        return [all_hold(self.needs)] + [one_holds(self.needs, i) for i in range(len(self.needs))]

    def answers(self, seen: Sequence[int]) -> list[Answer]:
        """The exact answers for each number of cards seen."""
        for n in seen:
            self.check(n)
        groups = Groups.of((c.mask, c.count) for c in self.cards)
        counts = HandCounts(groups, [n.cap for n in self.needs], max(seen, default=0))
        predicates = self._predicates()
        return [
            Answer(n, counts.probability(predicates[0], n), tuple(counts.probability(p, n) for p in predicates[1:]))
            for n in seen
        ]

    def seen_on_turn(self, turn: int) -> int:
        """Cards seen when taking turn ``turn`` (1 is the first)."""
        raise ValueError(f"{self.game or 'this game'} has no turn-by-turn draws")

    def by_turn(self, turns: int) -> list[Answer]:
        """Answers for turns 1..``turns``."""
        seen = [self.seen_on_turn(t) for t in range(1, turns + 1)]
        last = [t for t, n in enumerate(seen, 1) if n <= self.max_seen]
        if len(last) < turns:
            raise ValueError(
                f"turn {turns} would need {counted(seen[-1], 'card')} seen, more than can be seen ({self.max_seen}); "
                f"ask for at most {counted(len(last), 'turn')}"
            )
        return [
            Answer(a.seen, a.joint, a.each, t) for t, a in zip(range(1, turns + 1), self.answers(seen), strict=True)
        ]


class MeaDraws(Draws):
    """Méa: the opening hand (its size is the player's choice), then at least one card per turn."""

    game = "mea"

    def __init__(self, cards: Sequence[PileCard], needs: Sequence[Need], opening: int = 5, per_turn: int = 1):
        super().__init__(cards, needs)
        if not 1 <= opening <= MEA_MAX_OPENING:
            raise ValueError(f"a Méa opening is 1 to {MEA_MAX_OPENING} cards (11 or more in hand loses), not {opening}")
        self.opening = opening
        self.per_turn = per_turn

    def seen_on_turn(self, turn: int) -> int:
        # Draws come at the end of a turn, so turn t is played with the opening and t - 1 draws.
        return self.opening + self.per_turn * (turn - 1)


class MeioDraws(Draws):
    """Meio: a 13-card hand dealt from the deck; no draws after the deal."""

    game = "meio"

    @property
    def max_seen(self) -> int:
        return min(MEIO_HAND, self.size)

    def check(self, seen: int) -> None:
        if seen > MEIO_HAND:
            raise ValueError(f"a Meio hand is {MEIO_HAND} cards, dealt at once: cannot see {seen}")
        super().check(seen)

    def seen_on_turn(self, turn: int) -> int:
        raise ValueError(f"Meio deals all {MEIO_HAND} cards at once and has no draws: use --cards {MEIO_HAND}")


class MeikyuDraws(Draws):
    """Meikyu: 4 cards dealt with the OPEN-card redeal, then 1 card at the start of each turn.

    The ``n`` cards seen are the first ``n`` of the player's final dealt hand, then their turn draws.
    Exact: the redeal treats every non-OPEN card alike, so the final deal is uniform over the ways
    to give each player 4 non-OPEN cards (whatever the order of redeals); the pile left has all
    ``O`` OPEN cards among its ``K - 4P`` cards, and the player's ``t`` turn draws are a uniform
    sample of it (the other players draw from the same shuffled pile, unseen). So with ``j`` OPEN
    cards among the draws (hypergeometric), the cards seen are ``n - j`` uniform non-OPEN cards and
    ``j`` uniform OPEN cards: a mixture of two uniform draws, summed exactly.
    """

    game = "meikyu"

    def __init__(self, cards: Sequence[PileCard], needs: Sequence[Need], players: int = 2):
        super().__init__(cards, needs)
        if players < 1:
            raise ValueError("Meikyu needs at least one player")
        self.players = players
        self.open_cards = sum(c.count for c in self.cards if c.open)
        self.plain_cards = self.size - self.open_cards
        if self.plain_cards < MEIKYU_DEAL * players:
            raise ValueError(
                f"{counted(players, 'player')} need {MEIKYU_DEAL * players} non-OPEN Kingdom cards for the deal to "
                f"end; "
                f"the pile has {self.plain_cards}"
            )

    @property
    def pile_after_deal(self) -> int:
        return self.size - MEIKYU_DEAL * self.players

    @property
    def max_seen(self) -> int:
        # Seat 0's t-th turn draw comes after t - 1 draws by every other seat.
        t = 0
        while t + 1 + (self.players - 1) * t <= self.pile_after_deal:
            t += 1
        return MEIKYU_DEAL + t

    def check(self, seen: int) -> None:
        if seen > self.max_seen:
            raise ValueError(
                f"cannot see {counted(seen, 'card')}: with {counted(self.players, 'player')} the Kingdom pile of "
                f"{self.size} runs out "
                f"after {self.max_seen} (reshuffling the discards is not modelled)"
            )
        super().check(seen)

    def mixture(self, seen: int) -> Mixture:
        """``(chance, (non-OPEN cards seen, OPEN cards seen))`` for ``seen`` cards seen."""
        if seen <= MEIKYU_DEAL:
            return [(Fraction(1), (seen, 0))]
        t, pile, o = seen - MEIKYU_DEAL, self.pile_after_deal, self.open_cards
        total = comb(pile, t)
        return [
            (Fraction(comb(o, j) * comb(pile - o, t - j), total), (seen - j, j))
            for j in range(0, min(o, t) + 1)
            if comb(pile - o, t - j)
        ]

    def answers(self, seen: Sequence[int]) -> list[Answer]:
        for n in seen:
            self.check(n)
        caps = [n.cap for n in self.needs]
        top = max(seen, default=0)
        plain = Groups.of((c.mask, c.count) for c in self.cards if not c.open)
        opened = Groups.of((c.mask, c.count) for c in self.cards if c.open)
        strata = [HandCounts(plain, caps, min(top, plain.size)), HandCounts(opened, caps, min(top, opened.size))]
        predicates = self._predicates()
        out = []
        for n in seen:
            mix = self.mixture(n)
            out.append(
                Answer(
                    n,
                    mixture_probability(strata, mix, predicates[0]),
                    tuple(mixture_probability(strata, mix, p) for p in predicates[1:]),
                )
            )
        return out

    def seen_on_turn(self, turn: int) -> int:
        return MEIKYU_DEAL + turn  # the draw at the start of the turn is seen before acting


def make_draws(
    game: str, cards: Sequence[PileCard], needs: Sequence[Need], opening: int = 5, players: int = 2
) -> Draws:
    """The draws of ``game``'s pile."""
    if game == "mea":
        return MeaDraws(cards, needs, opening)
    if game == "meikyu":
        return MeikyuDraws(cards, needs, players)
    if game == "meio":
        return MeioDraws(cards, needs)
    return Draws(cards, needs)


# --- per-game opening reports ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MeaOpening:
    """Per opening size, the chance that no monster of the opening hand is castable with each mana."""

    opening: int
    no_castable: dict[int, Fraction]


def mea_openings(deck_size: int, castable: dict[int, int], sizes: Sequence[int] = TABLE_SEEN) -> list[MeaOpening]:
    """``castable[m]`` monsters of the deck cost at most ``m``; chance of none in each opening size."""
    return [
        MeaOpening(n, {m: Fraction(comb(deck_size - k, n), comb(deck_size, n)) for m, k in castable.items()})
        for n in sizes
        if n <= deck_size
    ]


@dataclass(frozen=True, slots=True)
class MeikyuDeal:
    """Exact facts of the Meikyu deal, and its opening hand by card type."""

    kingdom: int
    open_cards: int
    players: int
    player_redeals: Fraction  # a given player is dealt an OPEN card at the first deal
    deal_redeals: Fraction  # some player is, so the deal needs at least one redeal
    by_type: dict[str, list[Fraction]] = field(default_factory=dict)  # P(k cards of the type), k = 0..4


def meikyu_deal(types: dict[str, int], open_cards: int, players: int) -> MeikyuDeal:
    """``types`` counts the pile's non-OPEN cards by type; the final hand is 4 uniform non-OPEN cards."""
    plain = sum(types.values())
    kingdom = plain + open_cards
    if plain < MEIKYU_DEAL * players:
        raise ValueError(
            f"{counted(players, 'player')} need {MEIKYU_DEAL * players} non-OPEN Kingdom cards; the pile has {plain}"
        )
    deal = MEIKYU_DEAL * players
    return MeikyuDeal(
        kingdom,
        open_cards,
        players,
        1 - Fraction(comb(plain, MEIKYU_DEAL), comb(kingdom, MEIKYU_DEAL)),
        1 - Fraction(comb(plain, deal), comb(kingdom, deal)),
        {t: hypergeometric_pmf(n, plain, MEIKYU_DEAL) for t, n in sorted(types.items())},
    )


@dataclass(frozen=True, slots=True)
class MeioHand:
    """Exact distributions over a dealt Meio hand: hearts (trumps), void suits, high cards."""

    deck: int
    hand: int
    hearts: list[Fraction]
    voids: list[Fraction]
    high_ranks: tuple[int, ...]
    high_cards: list[Fraction]


def meio_hand(
    cards: Sequence[tuple[str, int]], hand: int = MEIO_HAND, high: int = 4, ace_high: bool = True
) -> MeioHand:
    """``cards`` are ``(suit, rank)``, one per card of the deck; the hand is ``hand`` cards dealt from it.

    High cards are the ``high`` highest ranks of the deck in play (ace high, as the engine's default).
    """
    deck = len(cards)
    if not 0 < hand <= deck:
        raise ValueError(f"cannot deal {counted(hand, 'card')} from a {deck}-card deck")

    def strength(rank: int) -> int:
        return 14 if rank == 1 and ace_high else rank

    top = sorted({strength(r) for _, r in cards}, reverse=True)[:high]
    high_ranks = tuple(1 if s == 14 else s for s in top)
    suits = sorted({s for s, _ in cards})
    by_suit = Groups.of((1 << suits.index(s), 1) for s, _ in cards)
    void_counts = HandCounts(by_suit, [1] * len(suits), hand)
    voids = [Fraction(0)] * (len(suits) + 1)
    for state, p in void_counts.distribution(hand).items():
        voids[state.count(0)] += p
    while len(voids) > 1 and not voids[-1]:
        voids.pop()
    hearts = sum(1 for s, _ in cards if s == "H")
    highs = sum(1 for _, r in cards if r in high_ranks)
    return MeioHand(
        deck, hand, hypergeometric_pmf(hearts, deck, hand), voids, high_ranks, hypergeometric_pmf(highs, deck, hand)
    )
