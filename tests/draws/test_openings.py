"""Each game's opening rules, the Meikyu OPEN-card redeal, Meio hands, and the Monte Carlo cross-check."""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

import pytest
from scipy.stats import hypergeom, norm

from cardbase.draws.exact import Groups, Kind, Need, joint
from cardbase.draws.montecarlo import (
    Estimate,
    sample_hands,
    sample_meikyu_deals,
    simulate,
    simulate_meikyu,
    wilson,
)
from cardbase.draws.openings import (
    Draws,
    MeaDraws,
    MeikyuDraws,
    MeioDraws,
    PileCard,
    mea_openings,
    meikyu_deal,
    meio_hand,
)


def bonferroni(checks: int) -> float:
    """The normal quantile for ``checks`` 95% intervals that should all hold together (Bonferroni)."""
    return float(norm.ppf(1 - 0.05 / (2 * checks)))


# --- Meikyu: the OPEN-card redeal -------------------------------------------------------------------


def meikyu_brute_force(cards: list[tuple[int, bool]], needs: list[Need], players: int, seen: int) -> Fraction:
    """Enumerate every final deal (each player 4 non-OPEN cards, every such deal alike), then every
    set of seat 0's turn draws from the pile left (the other players' draws are unseen cards of the
    same shuffled pile); the chance that the needs hold, card by card."""
    plain = [i for i, (_, is_open) in enumerate(cards) if not is_open]
    per_deal: list[Fraction] = []
    for hands in _deals(plain, players):
        mine = hands[0]
        if seen <= 4:
            shown = [list(sub) for sub in itertools.combinations(mine, seen)]
        else:
            dealt = {c for hand in hands for c in hand}
            pile = [i for i in range(len(cards)) if i not in dealt]
            shown = [[*mine, *drawn] for drawn in itertools.combinations(pile, seen - 4)]
        per_deal.append(Fraction(sum(_holds(cards, needs, hand) for hand in shown), len(shown)))
    return sum(per_deal, Fraction(0)) / len(per_deal)


def _deals(plain: list[int], players: int):
    if players == 0:
        yield ()
        return
    for hand in itertools.combinations(plain, 4):
        rest = [c for c in plain if c not in hand]
        for others in _deals(rest, players - 1):
            yield (hand, *others)


def _holds(cards: list[tuple[int, bool]], needs: list[Need], hand: list[int]) -> bool:
    counts = [sum(1 for c in hand if cards[c][0] >> i & 1) for i in range(len(needs))]
    return all(n.holds(x) for n, x in zip(needs, counts, strict=True))


def _pile(cards: list[tuple[int, bool]]) -> list[PileCard]:
    return [PileCard(f"c{i}", 1, mask, is_open) for i, (mask, is_open) in enumerate(cards)]


@pytest.mark.parametrize("players", [1, 2])
def test_meikyu_exact_equals_enumeration_of_the_final_deal(players: int) -> None:
    cards = [(0b01, False)] * 3 + [(0b10, False)] * 2 + [(0, False)] * 4 + [(0b10, True), (0, True)]
    needs = [Need(2), Need(1, Kind.AT_MOST)]
    model = MeikyuDraws(_pile(cards), needs, players)
    for seen in range(0, model.max_seen + 1):
        (answer,) = model.answers([seen])
        assert answer.joint == meikyu_brute_force(cards, needs, players, seen), seen


def test_meikyu_exact_sits_inside_the_simulated_redeal() -> None:
    # The simulation follows the rule literally (return the hand, shuffle, draw 4, seat by seat).
    pile = [
        PileCard("character", 20, 0b01),
        PileCard("item", 8, 0b10),
        PileCard("other", 10),
        PileCard("open", 4, 0, True),
    ]
    needs = [Need(2), Need(1)]
    model = MeikyuDraws(pile, needs, players=3)
    seen = list(range(1, 11))
    sim = simulate_meikyu([(c.mask, c.open, c.count) for c in pile], needs, 3, seen, 60_000, seed=11)
    z = bonferroni(3 * len(seen))
    for answer in model.answers(seen):
        joint_estimate, *each = sim.seen[answer.seen]
        assert joint_estimate.covers(float(answer.joint), z), (answer.seen, joint_estimate, float(answer.joint))
        for e, p in zip(each, answer.each, strict=True):
            assert e.covers(float(p), z)
    deal = meikyu_deal({"character": 20, "item": 8, "other": 10}, 4, 3)
    assert sim.any_redeal.covers(float(deal.deal_redeals))


def test_meikyu_without_open_cards_is_a_plain_draw() -> None:
    pile = [PileCard("a", 6, 1), PileCard("b", 14, 0)]
    needs = [Need(2)]
    plain = Draws(pile, needs)
    meikyu = MeikyuDraws(pile, needs, players=2)
    seen = list(range(0, 11))
    assert [a.joint for a in meikyu.answers(seen)] == [a.joint for a in plain.answers(seen)]


def test_meikyu_open_cards_never_in_the_dealt_hand() -> None:
    pile = [PileCard("a", 6, 0), PileCard("open", 4, 1, True), PileCard("b", 10, 0)]
    model = MeikyuDraws(pile, [Need(1)], players=2)
    assert [a.joint for a in model.answers([1, 2, 3, 4])] == [0, 0, 0, 0]
    # the 5th card seen is the first turn draw, from a pile of 20 - 8 = 12 with all 4 OPEN cards
    assert model.answers([5])[0].joint == Fraction(4, 12)
    assert model.seen_on_turn(1) == 5


def test_meikyu_deal_facts_for_the_full_set() -> None:
    deal = meikyu_deal({"character": 42, "item": 18, "aggression": 4}, 4, players=4)
    assert deal.kingdom == 68
    assert deal.player_redeals == 1 - Fraction(comb(64, 4), comb(68, 4))
    assert deal.deal_redeals == 1 - Fraction(comb(64, 16), comb(68, 16))
    for pmf in deal.by_type.values():
        assert sum(pmf) == 1
    assert float(deal.by_type["character"][0]) == pytest.approx(hypergeom.pmf(0, 64, 42, 4), abs=1e-12)


def test_meikyu_refuses_a_deal_that_cannot_end_and_a_pile_that_runs_out() -> None:
    with pytest.raises(ValueError, match="non-OPEN"):
        MeikyuDraws([PileCard("a", 7), PileCard("open", 4, 0, True)], [Need(1)], players=2)
    model = MeikyuDraws([PileCard("a", 12)], [Need(1)], players=2)
    assert model.max_seen == 4 + 2  # pile of 4 after the deal: seat 0 draws, seat 1 draws, seat 0 draws...
    with pytest.raises(ValueError, match="runs out"):
        model.answers([7])


# --- Méa -------------------------------------------------------------------------------------------


def test_mea_turns_and_opening_sizes() -> None:
    model = MeaDraws([PileCard("m", 12, 1), PileCard("x", 18)], [Need(1)], opening=5)
    assert [model.seen_on_turn(t) for t in (1, 2, 3)] == [5, 6, 7]
    assert [a.seen for a in model.by_turn(3)] == [5, 6, 7]
    assert [a.turn for a in model.by_turn(3)] == [1, 2, 3]
    with pytest.raises(ValueError, match="11 or more"):
        MeaDraws([PileCard("m", 30)], [], opening=11)
    with pytest.raises(ValueError, match="turn 27"):
        model.by_turn(27)


def test_mea_no_castable_monster_is_the_hypergeometric_zero() -> None:
    rows = mea_openings(32, {3: 22, 4: 24})
    assert [r.opening for r in rows] == list(range(1, 11))
    for r in rows:
        for mana, castable in ((3, 22), (4, 24)):
            assert float(r.no_castable[mana]) == pytest.approx(hypergeom.pmf(0, 32, castable, r.opening), abs=1e-12)


# --- Meio ------------------------------------------------------------------------------------------


def meio_deck(top: int) -> list[tuple[str, int]]:
    return [(s, r) for s in "SHDC" for r in range(1, top + 1)]


def voids_by_enumeration(per_suit: list[int], hand: int) -> list[Fraction]:
    total = comb(sum(per_suit), hand)
    out = [Fraction(0)] * (len(per_suit) + 1)
    for ks in itertools.product(*(range(min(s, hand) + 1) for s in per_suit)):
        if sum(ks) == hand:
            ways = 1
            for s, k in zip(per_suit, ks, strict=True):
                ways *= comb(s, k)
            out[ks.count(0)] += Fraction(ways, total)
    return out


@pytest.mark.parametrize(("players", "top"), [(2, 7), (3, 10), (4, 13)])
def test_meio_hand_distributions(players: int, top: int) -> None:
    hand = meio_hand(meio_deck(top))
    assert hand.deck == 4 * top and sum(hand.hearts) == sum(hand.voids) == sum(hand.high_cards) == 1
    for k, p in enumerate(hand.hearts):
        assert float(p) == pytest.approx(hypergeom.pmf(k, 4 * top, top, 13), abs=1e-12)
    expected = voids_by_enumeration([top] * 4, 13)
    assert hand.voids == expected[: len(hand.voids)] and sum(expected[len(hand.voids) :]) == 0
    assert hand.high_ranks == (1, top, top - 1, top - 2)
    for k, p in enumerate(hand.high_cards):
        assert float(p) == pytest.approx(hypergeom.pmf(k, 4 * top, 16, 13), abs=1e-12)


def test_meio_draws_are_the_dealt_hand() -> None:
    model = MeioDraws([PileCard("h", 10, 1), PileCard("x", 30)], [Need(3)])
    assert model.max_seen == 13
    assert model.answers([13])[0].joint == joint(Groups.of([(1, 10)], size=40), [Need(3)], 13)
    with pytest.raises(ValueError, match="no draws"):
        model.by_turn(2)
    with pytest.raises(ValueError, match="13 cards"):
        model.answers([14])


# --- Monte Carlo -------------------------------------------------------------------------------


def test_monte_carlo_intervals_cover_the_exact_joint_on_a_40_card_deck() -> None:
    groups = Groups.of([(0b001, 10), (0b010, 6), (0b100, 4), (0b011, 3), (0b101, 2), (0b110, 2), (0b111, 1)], size=40)
    needs = [Need(2), Need(1), Need(1, Kind.AT_MOST)]
    z = bonferroni(40)  # 10 table rows x (all together + 3 needs alone), all at once
    for seen in range(1, 11):
        exact = joint(groups, needs, seen)
        estimates = simulate(groups, needs, seen, 100_000, seed=5)
        assert estimates[0].covers(float(exact), z), (seen, estimates[0], float(exact))
        for i, e in enumerate(estimates[1:]):
            alone = Groups.of(((mask >> i & 1, n) for mask, n in groups.cells), size=40)
            assert e.covers(float(joint(alone, [needs[i]], seen)), z)


def test_monte_carlo_is_reproducible_per_seed_and_cards_seen() -> None:
    groups = Groups.of([(1, 12)], size=40)
    a = simulate(groups, [Need(2)], 7, 5000, seed=3)
    assert a == simulate(groups, [Need(2)], 7, 5000, seed=3)
    assert a != simulate(groups, [Need(2)], 7, 5000, seed=4)
    with pytest.raises(ValueError, match="seed"):
        simulate(groups, [Need(2)], 7, 10, seed=-1)


def test_wilson_interval() -> None:
    low, high = wilson(0, 100)
    assert low == 0 and high == pytest.approx(0.0370, abs=1e-4)
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert Estimate(50, 100).covers(0.5) and not Estimate(50, 100).covers(0.7)


def test_sample_hands_are_seeded_draws_of_the_deck() -> None:
    deck = ["a"] * 5 + ["b"] * 10
    hands = sample_hands(deck, 6, 4, seed=9)
    assert hands == sample_hands(deck, 6, 4, seed=9)
    assert all(len(h) == 6 and h.count("a") <= 5 for h in hands)


def test_sample_meikyu_deals_never_keep_an_open_card() -> None:
    cards = list(range(20))
    is_open = [c >= 16 for c in cards]
    deals = sample_meikyu_deals(cards, is_open, players=3, hands=40, seed=2)
    assert all(len(h) == 4 and not any(is_open[c] for c in h) for h, _ in deals)
    assert any(r > 0 for _, r in deals)


def test_sample_meikyu_hands_follow_the_exact_chances() -> None:
    # Card by card (the sample hands' own simulation): seat 0 sees 6 cards (4 dealt + 2 turn draws).
    pile = [PileCard("character", 9, 0b01), PileCard("item", 5, 0b10), PileCard("open", 3, 0b10, True)]
    needs = [Need(3), Need(2)]
    exact = MeikyuDraws(pile, needs, players=2).answers([6])[0].joint
    cards = [i for i, c in enumerate(pile) for _ in range(c.count)]
    dealt = sample_meikyu_deals(cards, [pile[i].open for i in cards], 2, 4000, seed=8, seen=6)
    hits = sum(
        sum(1 for i in hand if pile[i].mask & 1) >= 3 and sum(1 for i in hand if pile[i].mask & 2) >= 2
        for hand, _ in dealt
    )
    assert Estimate(hits, len(dealt)).covers(float(exact))
