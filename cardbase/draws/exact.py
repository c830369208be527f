"""Exact draw probabilities: the multivariate hypergeometric distribution, summed with integers.

A deck is seen as groups of cards that match the same needs (a need is "at least / at most /
exactly c cards matching a query"). Drawing ``n`` cards without replacement gives each group
``k`` cards with weight ``C(size, k)``; a hand count is the product of its groups' weights, and a
probability is a sum of hand counts over ``C(deck, n)``.

The sum runs over *capped* need counts, not over hands: for "at least 2" it only matters whether
0, 1 or 2-or-more matching cards were seen. Each capped state carries a polynomial in ``z`` (the
number of cards seen) whose coefficients are hand counts, packed into one Python integer
(Kronecker substitution): coefficients are below ``2**deck``, so slots of ``deck + 1`` bits never
carry into each other, and multiplying polynomials is one big-integer product. All of it is exact
integer arithmetic; a probability is a :class:`fractions.Fraction`, turned into one float at the end.

>>> deck = Groups.of([(0b01, 14), (0b10, 8)], size=32)
>>> needs = [Need(2, Kind.AT_LEAST, "t:monster cost<=3"), Need(1, Kind.AT_LEAST, "t:assist")]
>>> round(float(joint(deck, needs, 6)), 4)
0.7027
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from math import comb

from cardbase.errors import counted

State = tuple[int, ...]
Predicate = Callable[[State], bool]


class Kind(StrEnum):
    """How a need's count is compared with the matching cards seen."""

    AT_LEAST = "at least"
    AT_MOST = "at most"
    EXACTLY = "exactly"


@dataclass(frozen=True, slots=True)
class Need:
    """``count`` cards matching a query (``label``), compared by ``kind``."""

    count: int
    kind: Kind = Kind.AT_LEAST
    label: str = ""
    given: str = field(default="", compare=False)
    """The need as the user wrote it (``"2 t:monster"``), for a refusal to say where it was given."""

    def __post_init__(self) -> None:
        if self.count < 0:
            raise ValueError(f"a need's count cannot be negative ({self.count})")

    @property
    def cap(self) -> int:
        """The count above which more matching cards change nothing."""
        return self.count if self.kind is Kind.AT_LEAST else self.count + 1

    def holds(self, seen: int) -> bool:
        """Whether ``seen`` matching cards satisfy the need."""
        if self.kind is Kind.AT_LEAST:
            return seen >= self.count
        if self.kind is Kind.AT_MOST:
            return seen <= self.count
        return seen == self.count

    def bounds(self, low: int, high: int) -> tuple[int, int]:
        """The counts within ``low..high`` that satisfy the need, as a range (empty when ``low > high``)."""
        if self.kind is Kind.AT_LEAST:
            return max(low, self.count), high
        if self.kind is Kind.AT_MOST:
            return low, min(high, self.count)
        return max(low, self.count), min(high, self.count)

    def __str__(self) -> str:
        return f"{self.kind} {self.count} × {self.label}" if self.label else f"{self.kind} {self.count}"


@dataclass(frozen=True, slots=True)
class Groups:
    """A deck as groups of cards: ``cells`` maps a bit mask (bit ``i``: matches need ``i``) to a count.

    Mask 0 holds the cards that match no need; ``size`` is the whole deck.
    """

    cells: tuple[tuple[int, int], ...]
    size: int

    @classmethod
    def of(cls, cards: Iterable[tuple[int, int]], size: int | None = None) -> Groups:
        """Group ``(mask, count)`` pairs (one per card, repeats allowed); ``size`` defaults to their total.

        Cards not listed (when ``size`` is larger) match no need.
        """
        cells: dict[int, int] = {}
        for mask, count in cards:
            if count < 0 or mask < 0:
                raise ValueError("counts and masks must not be negative")
            if count:
                cells[mask] = cells.get(mask, 0) + count
        listed = sum(cells.values())
        total = listed if size is None else size
        if total < listed:
            raise ValueError(f"the deck has {counted(listed, 'card')}, more than its size {total}")
        if total > listed:
            cells[0] = cells.get(0, 0) + total - listed
        return cls(tuple(sorted(cells.items())), total)

    def matching(self, need: int) -> int:
        """How many cards of the deck match need number ``need``."""
        return sum(n for mask, n in self.cells if mask >> need & 1)


class HandCounts:
    """How many hands of each size ``0..max_seen`` reach each capped state of the needs.

    ``caps[i]`` is need ``i``'s cap; a state is the tuple of ``min(matching cards seen, cap)``.
    """

    __slots__ = ("_bits", "_slot", "caps", "deck_size", "max_seen", "polys")

    def __init__(self, groups: Groups, caps: Sequence[int], max_seen: int):
        if not 0 <= max_seen <= groups.size:
            raise ValueError(f"cannot see {counted(max_seen, 'card')} of a {groups.size}-card deck")
        self.caps = tuple(caps)
        self.deck_size = groups.size
        self.max_seen = max_seen
        bits = groups.size + 1  # C(size, k) < 2**size: a slot never overflows into the next
        self._bits = bits
        self._slot = (1 << bits) - 1
        keep = (1 << (bits * (max_seen + 1))) - 1
        polys: dict[State, int] = {(0,) * len(self.caps): 1}
        # Unmatched cards first: they leave the state alone, so while there is one state it is one product.
        for mask, size in sorted(groups.cells, key=lambda cell: cell[0] != 0):
            terms = self._terms(mask, size, bits, max_seen)
            nxt: dict[State, int] = {}
            for state, poly in polys.items():
                for step, term in terms:
                    key = self._advance(state, mask, step)
                    nxt[key] = nxt.get(key, 0) + ((poly * term) & keep)
            polys = nxt
        self.polys = polys

    def _terms(self, mask: int, size: int, bits: int, max_seen: int) -> list[tuple[int, int]]:
        """``(step, packed C(size, k) z**k summed over the k that reach the same state)``."""
        caps = [cap for i, cap in enumerate(self.caps) if mask >> i & 1]
        saturate = max(caps, default=0)
        top = min(size, max_seen)
        terms = [(k, comb(size, k) << (k * bits)) for k in range(min(saturate, top + 1))]
        if saturate <= top:
            terms.append((saturate, sum(comb(size, k) << (k * bits) for k in range(saturate, top + 1))))
        return terms

    def _advance(self, state: State, mask: int, step: int) -> State:
        if not mask or not step:
            return state
        caps = self.caps
        return tuple(min(x + step, caps[i]) if mask >> i & 1 else x for i, x in enumerate(state))

    def count(self, state: State, seen: int) -> int:
        """Hands of ``seen`` cards that reach ``state``."""
        return (self.polys.get(state, 0) >> (seen * self._bits)) & self._slot

    def hands(self, predicate: Predicate, seen: int) -> int:
        """Hands of ``seen`` cards whose state satisfies ``predicate``."""
        total = sum(poly for state, poly in self.polys.items() if predicate(state))
        return (total >> (seen * self._bits)) & self._slot

    def probability(self, predicate: Predicate, seen: int) -> Fraction:
        """The exact chance that ``seen`` cards reach a state satisfying ``predicate``."""
        self._check(seen)
        return Fraction(self.hands(predicate, seen), comb(self.deck_size, seen))

    def distribution(self, seen: int) -> dict[State, Fraction]:
        """The exact chance of every reachable state after ``seen`` cards (they sum to 1)."""
        self._check(seen)
        total = comb(self.deck_size, seen)
        out = {state: Fraction(self.count(state, seen), total) for state in self.polys}
        return {state: p for state, p in out.items() if p}

    def _check(self, seen: int) -> None:
        if not 0 <= seen <= self.max_seen:
            raise ValueError(f"counted hands of 0..{counted(self.max_seen, 'card')}, not {seen}")


def all_hold(needs: Sequence[Need]) -> Predicate:
    """The predicate "every need holds" on capped states."""
    return lambda state: all(need.holds(x) for need, x in zip(needs, state, strict=True))


def one_holds(needs: Sequence[Need], index: int) -> Predicate:
    """The predicate "need ``index`` holds" on capped states."""
    need = needs[index]
    return lambda state: need.holds(state[index])


def joint_hands(groups: Groups, needs: Sequence[Need], seen: int) -> tuple[int, int]:
    """``(hands where every need holds, all hands)`` among the first ``seen`` cards of a shuffled deck."""
    if not 0 <= seen <= groups.size:
        raise ValueError(f"cannot see {counted(seen, 'card')} of a {groups.size}-card deck")
    if len(needs) == 1:  # one category: the hypergeometric tail, term by term
        need = needs[0]
        matching = groups.matching(0)
        rest = groups.size - matching
        low, high = need.bounds(max(0, seen - rest), min(seen, matching))
        hands = sum(comb(matching, k) * comb(rest, seen - k) for k in range(low, high + 1))
    else:
        hands = HandCounts(groups, [n.cap for n in needs], seen).hands(all_hold(needs), seen)
    return hands, comb(groups.size, seen)


def joint(groups: Groups, needs: Sequence[Need], seen: int) -> Fraction:
    """The exact chance that every need holds among the first ``seen`` cards of a shuffled deck."""
    return Fraction(*joint_hands(groups, needs, seen))


def probability(groups: Groups, needs: Sequence[Need], seen: int) -> float:
    """:func:`joint` as one float: integer division of the exact counts, correctly rounded."""
    hands, total = joint_hands(groups, needs, seen)
    return hands / total


def joint_table(groups: Groups, needs: Sequence[Need], seen: Sequence[int]) -> list[Fraction]:
    """:func:`joint` for each number of cards seen, from one pass over the deck."""
    counts = HandCounts(groups, [n.cap for n in needs], max(seen, default=0))
    predicate = all_hold(needs)
    return [counts.probability(predicate, n) for n in seen]


def hypergeometric_pmf(matching: int, deck: int, seen: int) -> list[Fraction]:
    """The exact chance of seeing each number ``0..seen`` of ``matching`` cards in ``seen`` of ``deck``."""
    if not 0 <= seen <= deck or not 0 <= matching <= deck:
        raise ValueError(f"cannot see {counted(seen, 'card')}, {matching} of them marked, of a {deck}-card deck")
    total = comb(deck, seen)
    return [Fraction(comb(matching, k) * comb(deck - matching, seen - k), total) for k in range(seen + 1)]


# --- several piles drawn from at once -------------------------------------------------------


def merge(a: State, b: State, caps: Sequence[int]) -> State:
    """The capped state of two disjoint sets of cards seen together."""
    return tuple(min(x + y, cap) for x, y, cap in zip(a, b, caps, strict=True))


Mixture = Sequence[tuple[Fraction, tuple[int, ...]]]


def mixture_probability(strata: Sequence[HandCounts], mixture: Mixture, predicate: Predicate) -> Fraction:
    """The exact chance of ``predicate`` when the cards seen are a mixture of uniform draws from strata.

    Each ``(weight, seen)`` of ``mixture`` says: with chance ``weight``, ``seen[s]`` cards are drawn
    uniformly from stratum ``s`` (all strata share the same caps); the weights sum to 1.
    """
    caps = strata[0].caps
    total = Fraction(0)
    for weight, seen in mixture:
        if not weight:
            continue
        hands = _mixed_hands(strata, seen, predicate, caps)
        ways = 1
        for counts, n in zip(strata, seen, strict=True):
            ways *= comb(counts.deck_size, n)
        total += weight * Fraction(hands, ways)
    return total


def _mixed_hands(strata: Sequence[HandCounts], seen: tuple[int, ...], predicate: Predicate, caps: State) -> int:
    combos: dict[State, int] = {(0,) * len(caps): 1}
    for counts, n in zip(strata, seen, strict=True):
        nxt: dict[State, int] = {}
        for state in counts.polys:
            c = counts.count(state, n)
            if not c:
                continue
            for prev, w in combos.items():
                key = merge(prev, state, caps)
                nxt[key] = nxt.get(key, 0) + w * c
        combos = nxt
    return sum(w for state, w in combos.items() if predicate(state))
