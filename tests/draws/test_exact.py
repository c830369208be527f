"""The exact draw maths: against scipy's hypergeometric, against brute-force enumeration, and its invariants."""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import hypergeom

from cardbase.draws.exact import (
    Groups,
    HandCounts,
    Kind,
    Need,
    all_hold,
    hypergeometric_pmf,
    joint,
    joint_table,
    probability,
)


def brute_force(cards: list[int], needs: list[Need], seen: int) -> Fraction:
    """Every hand of ``seen`` of ``cards`` (one mask per physical card), counted one by one."""
    hits = total = 0
    for hand in itertools.combinations(range(len(cards)), seen):
        total += 1
        counts = [sum(1 for c in hand if cards[c] >> i & 1) for i in range(len(needs))]
        hits += all(n.holds(x) for n, x in zip(needs, counts, strict=True))
    return Fraction(hits, total)


def expand(groups: Groups) -> list[int]:
    return [mask for mask, n in groups.cells for _ in range(n)]


# --- one category equals scipy.stats.hypergeom -----------------------------------------------------


@pytest.mark.parametrize(
    ("deck", "matching", "seen"), [(40, 14, 7), (60, 24, 10), (18, 3, 5), (52, 13, 13), (30, 0, 4)]
)
def test_single_category_equals_scipy(deck: int, matching: int, seen: int) -> None:
    groups = Groups.of([(1, matching)], size=deck)
    for count in range(0, seen + 2):
        at_least = probability(groups, [Need(count, Kind.AT_LEAST)], seen)
        at_most = probability(groups, [Need(count, Kind.AT_MOST)], seen)
        exactly = probability(groups, [Need(count, Kind.EXACTLY)], seen)
        assert at_least == pytest.approx(hypergeom.sf(count - 1, deck, matching, seen), abs=1e-12)
        assert at_most == pytest.approx(hypergeom.cdf(count, deck, matching, seen), abs=1e-12)
        assert exactly == pytest.approx(hypergeom.pmf(count, deck, matching, seen), abs=1e-12)


@given(
    deck=st.integers(1, 80),
    data=st.data(),
)
@settings(max_examples=150, deadline=None)
def test_single_category_equals_scipy_everywhere(deck: int, data: st.DataObject) -> None:
    matching = data.draw(st.integers(0, deck))
    seen = data.draw(st.integers(0, deck))
    count = data.draw(st.integers(0, seen + 1))
    groups = Groups.of([(1, matching)], size=deck)
    # The fast single-need path and the general grouped sum agree exactly.
    general = HandCounts(groups, [count], seen).probability(all_hold([Need(count)]), seen)
    assert joint(groups, [Need(count)], seen) == general
    assert float(general) == pytest.approx(hypergeom.sf(count - 1, deck, matching, seen), abs=1e-12)


def test_hypergeometric_pmf_is_scipys() -> None:
    pmf = hypergeometric_pmf(13, 40, 13)
    assert sum(pmf) == 1
    for k, p in enumerate(pmf):
        assert float(p) == pytest.approx(hypergeom.pmf(k, 40, 13, 13), abs=1e-12)


# --- several needs equal brute force ------------------------------------------------------------


def test_overlapping_needs_equal_brute_force() -> None:
    # 14 cards: 4 cheap monsters (need 0 and 1), 3 dear monsters (need 0), 2 assists (need 2), 5 others.
    groups = Groups.of([(0b011, 4), (0b001, 3), (0b100, 2)], size=14)
    needs = [Need(2, Kind.AT_LEAST), Need(1, Kind.EXACTLY), Need(1, Kind.AT_MOST)]
    cards = expand(groups)
    for seen in range(0, 15):
        assert joint(groups, needs, seen) == brute_force(cards, needs, seen)


def test_table_equals_one_at_a_time() -> None:
    groups = Groups.of([(0b01, 10), (0b10, 6), (0b11, 3)], size=40)
    needs = [Need(2), Need(1), Need(3, Kind.AT_MOST)]
    table = joint_table(groups, needs, range(0, 11))
    assert table == [joint(groups, needs, n) for n in range(0, 11)]


masks = st.integers(0, 7)
needs_strategy = st.lists(
    st.builds(Need, st.integers(0, 4), st.sampled_from(list(Kind))),
    min_size=1,
    max_size=3,
)


@given(
    cards=st.lists(masks, min_size=1, max_size=11),
    needs=needs_strategy,
    data=st.data(),
)
@settings(max_examples=120, deadline=None)
def test_joint_equals_brute_force(cards: list[int], needs: list[Need], data: st.DataObject) -> None:
    width = (1 << len(needs)) - 1
    cards = [m & width for m in cards]
    seen = data.draw(st.integers(0, len(cards)))
    groups = Groups.of((m, 1) for m in cards)
    assert joint(groups, needs, seen) == brute_force(cards, needs, seen)


# --- invariants -----------------------------------------------------------------------------------


cells_strategy = st.lists(st.tuples(masks, st.integers(0, 9)), min_size=1, max_size=6)


@given(cells=cells_strategy, needs=needs_strategy, extra=st.integers(0, 10))
@settings(max_examples=150, deadline=None)
def test_probabilities_are_in_0_1(cells: list[tuple[int, int]], needs: list[Need], extra: int) -> None:
    width = (1 << len(needs)) - 1
    groups = Groups.of([(m & width, n) for m, n in cells], size=sum(n for _, n in cells) + extra)
    for p in joint_table(groups, needs, range(0, min(groups.size, 12) + 1)):
        assert 0 <= p <= 1


@given(cells=cells_strategy, counts=st.lists(st.integers(0, 4), min_size=1, max_size=3))
@settings(max_examples=150, deadline=None)
def test_at_least_is_monotone_in_cards_seen(cells: list[tuple[int, int]], counts: list[int]) -> None:
    needs = [Need(c, Kind.AT_LEAST) for c in counts]
    width = (1 << len(needs)) - 1
    groups = Groups.of([(m & width, n) for m, n in cells])
    table = joint_table(groups, needs, range(0, groups.size + 1))
    assert all(a <= b for a, b in itertools.pairwise(table))
    assert table[0] == (1 if all(c == 0 for c in counts) else 0)


@given(cells=cells_strategy, needs=st.integers(1, 3), data=st.data())
@settings(max_examples=120, deadline=None)
def test_exactly_sums_to_one(cells: list[tuple[int, int]], needs: int, data: st.DataObject) -> None:
    width = (1 << needs) - 1
    groups = Groups.of([(m & width, n) for m, n in cells])
    seen = data.draw(st.integers(0, min(groups.size, 5)))
    total = Fraction(0)
    for xs in itertools.product(range(seen + 1), repeat=needs):
        total += joint(groups, [Need(x, Kind.EXACTLY) for x in xs], seen)
    assert total == 1
    counts = HandCounts(groups, [seen + 1] * needs, seen)
    assert sum(counts.distribution(seen).values()) == 1


def test_complement_of_at_least_is_at_most() -> None:
    groups = Groups.of([(1, 9)], size=33)
    for seen in range(0, 12):
        assert joint(groups, [Need(3)], seen) + joint(groups, [Need(2, Kind.AT_MOST)], seen) == 1


def test_big_decks_stay_exact() -> None:
    # Slots of deck + 1 bits: no carries even for a 100-card pile and many needs.
    groups = Groups.of([(0b001, 30), (0b010, 20), (0b100, 10), (0b011, 5)], size=100)
    needs = [Need(3), Need(2), Need(1, Kind.AT_MOST)]
    counts = HandCounts(groups, [n.cap for n in needs], 40)
    total = sum(counts.count(state, 40) for state in counts.polys)
    assert total == comb(100, 40)


def test_errors() -> None:
    groups = Groups.of([(1, 4)], size=10)
    with pytest.raises(ValueError, match="cannot see 11 cards"):
        joint(groups, [Need(1)], 11)
    with pytest.raises(ValueError, match="negative"):
        Need(-1)
    with pytest.raises(ValueError, match="more than its size"):
        Groups.of([(1, 4)], size=3)
