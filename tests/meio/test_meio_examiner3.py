"""A third blind examination of Meio: each case is built from one sentence of the Meio Rulebook
(quoted in the docstring or a comment), written before docs/rules/meio.md or the engine's rule code
was read (the split shorthand, the outcome's line, the seat a game lacks and the unseen split were
added after). A reference reading of the trick and scoring sentences (``_winner``, ``_legal``) checks
whole games played with random legal choices."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from typer.testing import CliRunner

from cardbase.cli.app import app
from cardbase.errors import InvalidRecord
from cardbase.games.base import GameError, IllegalAction
from cardbase.games.meio.actions import Deal, Play, Split, parse_action
from cardbase.games.meio.cards import PlayingCard, Suit, deck_for
from cardbase.games.meio.engine import MeioRules, MeioState
from cardbase.games.meio.rules import final_outcome, round_score
from cardbase.sim.records import GameRecord, replay
from tests.meio.conftest import cards, dealt, play, table

# --- a reference reading of the rulebook's trick and scoring sentences ---------------------


def _strength(card: PlayingCard, ace_high: bool) -> int:
    return 14 if card.rank == 1 and ace_high else card.rank


def _winner(trick: list[tuple[int, PlayingCard]], ace_high: bool = True) -> int:
    """ "If one or more hearts (trump cards) are played, the highest heart wins. Otherwise, the
    highest card of the lead suit wins." """
    hearts = [(s, c) for s, c in trick if c.suit is Suit.HEARTS]
    pool = hearts or [(s, c) for s, c in trick if c.suit is trick[0][1].suit]
    return max(pool, key=lambda sc: _strength(sc[1], ace_high))[0]


def _legal(hand: list[PlayingCard], trick: list[tuple[int, PlayingCard]]) -> set[PlayingCard]:
    """ "The first player may play any card from their hand. All other players must play a card of
    the same suit. If they don't have one, they can play any card." """
    if not trick:
        return set(hand)
    same = {c for c in hand if c.suit is trick[0][1].suit}
    return same or set(hand)


def _refusal(state: MeioState, action: object) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        state.apply(action)
    return caught.value


# Two players, deck A-7 (28 cards). P1 keeps all spades but the 7 … see each test.
# A designed round: P1 (starting) keeps A-7 of spades; P2 keeps A-6 of clubs and 7H.
# P1 wins tricks 1-6 (spades, P2 discards clubs), P2 trumps the 7th with 7H. Leftover: 6H 7D.
R_KEEP = ["AS 2S 3S 4S 5S 6S 7S", "AC 2C 3C 4C 5C 6C 7H"]
R_ASIDE = ["AD 2D 3D 4D 5D 6D", "AH 2H 3H 4H 5H 7C"]
R_FIRST_HALF = ["AS", "AC", "2S", "2C", "3S", "3C", "4S", "4C", "5S", "5C", "6S", "6C", "7S", "7H"]
R_SECOND_HALF_P2_LEADS = ["AH", "AD", "2H", "2D", "3H", "3D", "4H", "4D", "5H", "5D", "7C", "6D"]


def _round_table(first: int = 0, **options: object) -> MeioState:
    """The designed round with seat ``first`` holding P1's cards above (the round's starter)."""
    keep, aside = list(R_KEEP), list(R_ASIDE)
    if first == 1:
        keep.reverse()
        aside.reverse()
    return table(2, keep, aside, **options)


def _play_designed_round(state: MeioState) -> None:
    """Deal, split and play the designed round; the starter holds the spades."""
    first = state.starting_player
    keep, aside = list(R_KEEP), list(R_ASIDE)
    if first == 1:
        keep.reverse()
        aside.reverse()
    state.apply(Deal.of([cards(k + " " + a) for k, a in zip(keep, aside, strict=True)]))
    for _ in range(2):
        p = state.current_player
        state.apply(Split.of(cards(keep[p]), cards(aside[p])))
    play(state, *R_FIRST_HALF, *R_SECOND_HALF_P2_LEADS)


# --- Components / Game Preparation -----------------------------------------------------------


@pytest.mark.parametrize(("players", "top", "size"), [(2, 7, 28), (3, 10, 40), (4, 13, 52)])
def test_deck_per_player_count(players, top, size):
    """ "For 2 players, use cards A-7 of each suit (28 cards). For 3 players, use cards A-10 of each
    suit (40 cards). For 4 players, use all cards (52 cards)." """
    deck = MeioRules(players=players).deck
    assert len(deck) == size == len(set(deck))
    assert {c.rank for c in deck} == set(range(1, top + 1))
    assert Counter(c.suit for c in deck) == dict.fromkeys(Suit, top)
    assert deck_for(players) == tuple(deck)


@pytest.mark.parametrize(("players", "left"), [(2, 2), (3, 1), (4, 0)])
def test_deal_13_each_and_the_leftover(players, left):
    """ "Shuffle the cards and deal 13 cards to each player. In 2 and 3 player games, there will be
    cards left over (2 and 1, respectively) - leave them aside, face down." """
    state = MeioRules(players=players).new_initial_state(5)
    state.apply(state.sample_chance())
    hands = [set(state.hand(p)) for p in range(players)]
    assert all(len(h) == 13 for h in hands)
    assert len(state.leftover()) == left
    everything = set().union(*hands) | set(state.leftover())
    assert everything == set(MeioRules(players=players).deck)


def test_a_deal_with_a_card_outside_the_2_player_deck_is_refused():
    """ "For 2 players, use cards A-7": an 8 may not be dealt."""
    state = MeioRules(players=2).new_initial_state(0)
    hands = [cards("AS 2S 3S 4S 5S 6S 7S AH 2H 3H 4H 5H 6H"), cards("AD 2D 3D 4D 5D 6D 7D AC 2C 3C 4C 5C 8C")]
    with pytest.raises(GameError, match=r"8C|8♣|Eight"):
        state.apply(Deal.of(hands))


def test_a_deal_of_12_cards_to_a_player_is_refused():
    """ "deal 13 cards to each player"."""
    state = MeioRules(players=2).new_initial_state(0)
    hands = [cards("AS 2S 3S 4S 5S 6S 7S AH 2H 3H 4H 5H"), cards("AD 2D 3D 4D 5D 6D 7D AC 2C 3C 4C 5C 6C")]
    with pytest.raises(GameError, match="13"):
        state.apply(Deal.of(hands))


def test_a_deal_giving_one_card_to_two_players_is_refused():
    """A regular deck holds each card once ("A regular deck of playing cards")."""
    state = MeioRules(players=2).new_initial_state(0)
    hands = [cards("AS 2S 3S 4S 5S 6S 7S AH 2H 3H 4H 5H 6H"), cards("AS 2D 3D 4D 5D 6D 7D AC 2C 3C 4C 5C 6C")]
    with pytest.raises(GameError):
        state.apply(Deal.of(hands))


@pytest.mark.parametrize("first", [0, 1, 2])
def test_set_a_starting_player_of_your_choice(first):
    """ "Set a starting player of your choice." The chosen seat leads the first trick."""
    state = MeioRules(players=3, first_player=first).new_initial_state(1)
    state.apply(state.sample_chance())
    assert state.starting_player == first
    while state.phase == "split":
        state.apply(state.legal_actions()[0])
    assert state.phase == "play" and state.current_player == first


def test_a_starting_player_outside_the_table_is_refused():
    with pytest.raises(GameError, match="first_player"):
        MeioRules(players=3, first_player=3)


# --- Phase 1: the split --------------------------------------------------------------------


def test_the_split_is_7_kept_and_6_set_aside():
    """ "Each player must split their hand into two parts: one with 7 cards, and one with 6 cards."
    "Leave the pile of 6 cards in front of you, face down, and keep the remaining 7 cards in your hand." """
    state = _round_table()
    for p in range(2):
        assert set(state.hand(p)) == set(cards(R_KEEP[p]))
        assert set(state.aside(p)) == set(cards(R_ASIDE[p]))


@pytest.mark.parametrize(
    ("keep", "aside"),
    [
        ("AS 2S 3S 4S 5S 6S 7S AD", "2D 3D 4D 5D 6D"),  # 8 + 5
        ("AS 2S 3S 4S 5S 6S", "7S AD 2D 3D 4D 5D 6D"),  # 6 + 7
    ],
    ids=["8+5", "6+7"],
)
def test_a_split_other_than_7_and_6_is_refused(keep, aside):
    """ "one with 7 cards, and one with 6 cards"."""
    state = dealt(2, [R_KEEP[0] + " " + R_ASIDE[0], R_KEEP[1] + " " + R_ASIDE[1]])
    with pytest.raises(GameError):
        state.apply(Split.of(cards(keep), cards(aside)))


def test_a_split_of_cards_not_in_the_hand_is_refused():
    """ "split their hand": only the cards of one's own hand."""
    state = dealt(2, [R_KEEP[0] + " " + R_ASIDE[0], R_KEEP[1] + " " + R_ASIDE[1]])
    with pytest.raises(GameError):
        state.apply(Split.of(cards("AS 2S 3S 4S 5S 6S 7S"), cards("AD 2D 3D 4D 5D AC")))


def test_no_card_is_played_before_every_player_has_split():
    """Phase 1 (the split) comes before Phase 2 (the tricks)."""
    state = dealt(2, [R_KEEP[0] + " " + R_ASIDE[0], R_KEEP[1] + " " + R_ASIDE[1]])
    with pytest.raises(GameError):
        state.apply(Play("AS"))
    state.apply(Split.of(cards(R_KEEP[0]), cards(R_ASIDE[0])))
    assert state.phase == "split"
    with pytest.raises(GameError):
        state.apply(Play("AS"))


def _hidden_from_p1(p2_hand: str, p2_aside: str, leftover_is: str) -> tuple[object, object]:
    keep = [R_KEEP[0], p2_hand]
    aside = [R_ASIDE[0], p2_aside]
    state = table(2, keep, aside)
    assert {c.notation for c in state.leftover()} == set(leftover_is.split())
    return state.observation(0), state.information_state_key(0)


def test_what_p1_sees_does_not_depend_on_p2s_cards_or_the_leftover():
    """ "leave them aside, face down" and "Leave the pile of 6 cards in front of you, face down":
    two deals that differ only in P2's cards and the leftover look the same to P1."""
    one = _hidden_from_p1("AC 2C 3C 4C 5C 6C 7H", "AH 2H 3H 4H 5H 7C", "6H 7D")
    two = _hidden_from_p1("AC 2C 3C 4C 5C 6C 7D", "AH 2H 3H 4H 6H 7C", "5H 7H")
    assert one == two


@pytest.mark.parametrize("tricks", [0, 3, 6])
def test_how_another_player_split_is_never_seen(tricks):
    """ "Leave the pile of 6 cards in front of you, face down": P2 keeps 7H or 7C (the other set
    aside); until P2 plays the card it split differently (trick 7), P1's view (observation,
    information state, tensor) is the same."""
    views = []
    for p2_keep, p2_aside in ((R_KEEP[1], R_ASIDE[1]), ("AC 2C 3C 4C 5C 6C 7C", "AH 2H 3H 4H 5H 7H")):
        state = table(2, [R_KEEP[0], p2_keep], [R_ASIDE[0], p2_aside])
        play(state, *R_FIRST_HALF[: 2 * tricks])
        views.append((state.observation(0), state.information_state_key(0), state.observation_tensor(0)))
    assert views[0] == views[1]


def test_each_player_sees_their_own_pack_of_6_and_only_the_size_of_the_others():
    state = _round_table()
    seen = state.observation(1)
    assert set(seen.aside_cards) == set(cards(R_ASIDE[1]))
    assert set(seen.hand_cards) == set(cards(R_KEEP[1]))
    assert seen.aside_sizes == (6, 6) and seen.hand_sizes == (7, 7)


def test_a_card_played_to_the_trick_is_seen_by_every_player():
    state = _round_table()
    play(state, "AS")
    for seat in (0, 1):
        assert state.observation(seat).trick == (int(Play("AS")),)


# --- Phase 2: leading and following ---------------------------------------------------------

# Three players, deck A-10; P1 (seat 0) starts. Leftover: AH.
T3_KEEP = ["AS 2S 3S 4S 5S 6S 2H", "2D 3D 4D 5D 6D 7D 5H", "2C 3C 4C 5C 6C 7C 8H"]
T3_ASIDE = ["7S 8S 9S 10S 3H 4H", "8D 9D 10D AD 6H 7H", "8C 9C 10C AC 9H 10H"]

# Two players: P2 holds no diamond in hand but three in the pack set aside. Leftover: AH 3H.
T2_KEEP = ["AS 2S 3S 4H 5H 6D 7C", "4S 6H 7H AC 2C 3C 4C"]
T2_ASIDE = ["5S 6S 7S AD 2D 3D", "5C 6C 4D 5D 7D 2H"]


@pytest.mark.parametrize("lead", T2_KEEP[0].split())
def test_the_first_player_may_play_any_card_of_their_hand(lead):
    """ "The first player may play any card from their hand." A heart too, on the first trick."""
    state = table(2, T2_KEEP, T2_ASIDE)
    state.apply(Play(lead))
    assert state.trick() == ((0, PlayingCard.parse(lead)),)


def test_a_heart_may_be_led_before_any_heart_was_played():
    state = table(3, T3_KEEP, T3_ASIDE)
    assert Play("2H") in state.legal_actions()


def test_a_follower_holding_the_lead_suit_must_follow_it():
    """ "All other players must play a card of the same suit." P2 holds 4S."""
    state = table(2, T2_KEEP, T2_ASIDE)
    play(state, "AS")
    error = _refusal(state, Play("AC"))
    assert "follow" in str(error).lower() and error.player == 1
    assert set(state.legal_actions()) == {Play("4S")}


def test_a_follower_holding_hearts_must_follow_a_heart_lead_not_discard():
    """Following suit applies to the trump suit when it is led."""
    state = table(2, T2_KEEP, T2_ASIDE)
    play(state, "4H")
    _refusal(state, Play("AC"))
    assert set(state.legal_actions()) == {Play("6H"), Play("7H")}


def test_a_follower_holding_hearts_may_not_trump_when_holding_the_lead_suit():
    state = table(2, T2_KEEP, T2_ASIDE)
    play(state, "AS")
    _refusal(state, Play("6H"))


def test_a_follower_void_in_the_lead_suit_may_play_any_card():
    """ "If they don't have one, they can play any card." P2 has no diamond in hand."""
    state = table(2, T2_KEEP, T2_ASIDE)
    play(state, "6D")
    assert set(state.legal_actions()) == {Play(c) for c in T2_KEEP[1].split()}


def test_the_pack_set_aside_does_not_oblige_following_in_the_first_half():
    """The cards to follow with are "from their hand": P2's diamonds set aside neither oblige nor may be played."""
    state = table(2, T2_KEEP, T2_ASIDE)
    play(state, "6D")
    error = _refusal(state, Play("4D"))
    assert "7" in str(error) or "aside" in str(error).lower()
    play(state, "AC")  # a discard, legal


def test_a_leftover_card_may_not_be_played():
    """Cards "left over … face down" belong to no one."""
    state = table(2, T2_KEEP, T2_ASIDE)
    _refusal(state, Play("AH"))


def test_a_card_of_another_player_may_not_be_played():
    state = table(2, T2_KEEP, T2_ASIDE)
    _refusal(state, Play("4S"))


def test_a_player_may_not_play_out_of_turn():
    state = table(3, T3_KEEP, T3_ASIDE)
    with pytest.raises(GameError):
        state.apply(Play("2D"))  # P2's card, P1 to lead


# --- who wins a trick ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards_played", "winner"),
    [
        (["2S", "5H", "8H"], 2),  # two trumps: the highest heart
        (["2S", "5H", "7C"], 1),  # one trump beats the lead suit
        (["2S", "7D", "2C"], 0),  # no heart: the lead suit's card, however low
        (["2H", "5H", "8H"], 2),  # hearts led: the highest heart
        (["6S", "2D", "8H"], 2),  # the last player trumps
    ],
)
def test_who_wins_a_trick_of_three(cards_played, winner):
    """ "If one or more hearts (trump cards) are played, the highest heart wins. Otherwise, the
    highest card of the lead suit wins." """
    state = table(3, T3_KEEP, T3_ASIDE)
    play(state, *cards_played)
    (leader, played, won), *_ = state.tricks()
    assert leader == 0 and [c.notation for c in played] == cards_played
    assert won == winner == _winner(list(enumerate(cards(" ".join(cards_played)))))


@pytest.mark.parametrize(("ace_high", "winner"), [(True, 0), (False, 1)])
def test_the_ace_against_a_lower_card_of_the_lead_suit(ace_high, winner):
    """ "the highest card of the lead suit wins": the ace ranks high by default (an option)."""
    state = table(2, T2_KEEP, T2_ASIDE, ace_high=ace_high)
    play(state, "AS", "4S")
    assert state.tricks()[0][2] == winner
    assert state.current_player == winner


@pytest.mark.parametrize(("ace_high", "winner"), [(True, 1), (False, 0)])
def test_the_ace_of_the_lead_suit_played_second(ace_high, winner):
    state = table(2, T2_KEEP, T2_ASIDE, ace_high=ace_high)
    play(state, "7C", "AC")
    assert state.tricks()[0][2] == winner


def test_a_higher_card_of_another_plain_suit_does_not_win():
    """Lead 6D; P2 (void) discards AC, which is no diamond: P1 wins."""
    state = table(2, T2_KEEP, T2_ASIDE)
    play(state, "6D", "AC")
    assert state.tricks()[0][2] == 0


def test_a_low_heart_beats_the_highest_card_of_the_lead_suit():
    state = table(2, T2_KEEP, T2_ASIDE)
    play(state, "6D", "6H")
    assert state.tricks()[0][2] == 1


def test_four_players_the_higher_of_two_trumps_wins_and_leads():
    """Four players: lead spade; P2 trumps low, P3 follows, P4 trumps higher."""
    keep = ["AS KS QS JS 10S 9S 8S", "2H 2D 3D 4D 5D 6D 7D", "2S 3S 4S 5S 6S 7S 2C", "3H 8D 9D 10D JD QD KD"]
    aside = ["AH KH QH JH 10H 9H", "8H 7H 6H 5H 4H AD", "3C 4C 5C 6C 7C 8C", "9C 10C JC QC KC AC"]
    state = table(4, keep, aside)
    play(state, "AS", "2H", "2S", "3H")
    assert state.tricks()[0][2] == 3 and state.current_player == 3


def test_the_winner_of_a_trick_leads_the_next():
    """ "The player who won the trick … Then they lead the next trick." """
    state = table(3, T3_KEEP, T3_ASIDE)
    play(state, "2S", "5H", "7C")
    assert state.current_player == 1
    play(state, "2D", "2C", "3S")  # P3 and P1, void in diamonds, discard
    assert state.tricks()[1][0] == 1 and state.tricks()[1][2] == 1  # the diamond led wins
    assert state.current_player == 1


def test_play_goes_round_from_the_leader():
    """After the leader, the other players in seat order (to the left)."""
    state = table(3, T3_KEEP, T3_ASIDE)
    play(state, "2S", "5H", "7C", "2D")
    assert [s for s, _ in state.trick()] == [1]
    assert state.current_player == 2


# --- the halves ----------------------------------------------------------------------------


def test_first_seven_tricks_are_horizontal():
    """ "The player who won the trick must place it in front of them, in a pile, cards face down, in
    horizontal position." """
    state = _round_table()
    play(state, *R_FIRST_HALF[:12])
    assert state.tricks_won() == ((6, 0), (0, 0))
    assert state.half == 1
    play(state, *R_FIRST_HALF[12:])
    assert state.tricks_won() == ((6, 0), (1, 0))


def test_after_the_seventh_trick_the_pack_of_6_is_picked_up():
    """ "After the seventh card is played, players must have no cards in their hand. They pick up the
    pile of 6 cards that had been set aside." """
    state = _round_table()
    play(state, *R_FIRST_HALF)
    for p in range(2):
        assert set(state.hand(p)) == set(cards(R_ASIDE[p]))
        assert state.aside(p) == ()
    assert state.half == 2


def test_tricks_of_the_second_half_are_vertical():
    """ "each trick won must be placed in the upright position" """
    state = _round_table()
    play(state, *R_FIRST_HALF, *R_SECOND_HALF_P2_LEADS[:2])
    assert state.tricks_won() == ((6, 0), (1, 1))


def test_the_winner_of_the_seventh_trick_leads_the_eighth():
    """ "the game continues normally": the winner of the 7th trick (P2, by 7H) leads."""
    state = _round_table()
    play(state, *R_FIRST_HALF)
    assert state.current_player == 1


def test_the_eighth_trick_led_by_the_starter_is_an_option():
    state = _round_table(second_half_leader="starter")
    play(state, *R_FIRST_HALF)
    assert state.current_player == 0


def test_following_in_the_second_half_reads_the_picked_up_pack():
    state = _round_table()
    play(state, *R_FIRST_HALF, "AH")
    assert set(state.legal_actions()) == {Play(c) for c in R_ASIDE[0].split()}  # P1 void in hearts
    state2 = _round_table()
    play(state2, *R_FIRST_HALF, "7C")
    assert set(state2.legal_actions()) == {Play(c) for c in R_ASIDE[0].split()}  # void in clubs


# --- scoring -------------------------------------------------------------------------------


@pytest.mark.parametrize(("h", "v", "score"), [(2, 1, 1), (1, 2, 1), (0, 0, 0), (3, 3, 0), (7, 0, 7), (0, 6, 6)])
def test_the_score_is_the_difference_whichever_is_higher(h, v, score):
    """ "This value is your score, regardless of which number is higher." / "if a player wins 2
    horizontal tricks … and 1 vertical trick …, they score 1 point. The result would be exactly the
    same if they had won 1 horizontal and 2 vertical tricks." """
    assert round_score(h, v) == score


def test_a_round_scores_each_player_the_difference_of_their_piles():
    """Designed round: P1 6 horizontal, 0 vertical → 6; P2 1 horizontal, 6 vertical → 5."""
    state = _round_table()
    play(state, *R_FIRST_HALF, *R_SECOND_HALF_P2_LEADS)
    assert state.round_scores() == ((6, 5),)
    assert state.totals() == (6, 5)


def test_the_next_round_starts_with_the_player_to_the_left():
    """ "The starting player is the player to the left of the starting player from the previous round." """
    state = MeioRules(players=2).new_initial_state(0)
    _play_designed_round(state)
    assert state.starting_player == 1
    _play_designed_round(state)
    assert state.starting_player == 0


@pytest.mark.parametrize(("first", "order"), [(0, [0, 1, 2]), (2, [2, 3, 0]), (3, [3, 0, 1])])
def test_four_players_the_start_moves_one_seat_each_round(first, order):
    state = MeioRules(players=4, first_player=first).new_initial_state(3)
    rng = random.Random(first)
    seen = []
    while not state.is_terminal:
        if state.phase == "deal":
            seen.append(state.starting_player)
            state.apply(state.sample_chance())
            continue
        if state.phase == "play" and not state.tricks() and not state.trick():
            assert state.current_player == seen[-1]
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    assert seen == order


def test_the_leftover_cards_are_shuffled_back_in_for_the_next_round():
    """ "Shuffle all the cards (don't forget the ones left out in 2 and 3 players)": round 2 may deal
    round 1's leftover (6H, 7D)."""
    state = MeioRules(players=2).new_initial_state(0)
    _play_designed_round(state)
    hands = ["6H 7D AS 2S 3S 4S 5S AD 2D 3D 4D 5D 6D", "AC 2C 3C 4C 5C 6C 7H AH 2H 3H 4H 5H 7C"]
    state.apply(Deal.of([cards(h) for h in hands]))
    assert {c.notation for c in state.leftover()} == {"6S", "7S"}


def test_after_three_rounds_the_least_points_wins():
    """ "After 3 rounds, the player with the least points is the winner!" Round 1: 6/5, round 2 (P2
    starts, holds the spades): 5/6, round 3: 6/5. Totals 17 and 16: P2 wins."""
    state = MeioRules(players=2).new_initial_state(0)
    for _ in range(2):
        _play_designed_round(state)
        assert not state.is_terminal
    _play_designed_round(state)
    assert state.is_terminal
    outcome = state.outcome()
    assert outcome is not None
    assert state.round_scores() == ((6, 5), (5, 6), (6, 5))
    assert tuple(outcome.scores) == (17, 16) and outcome.winners == (1,)
    assert outcome.lower_is_better


def test_a_tie_for_the_least_points_shares_the_victory():
    """ "If there is a tie, … (Or share the victory, if you find it easier.)" Two rounds: 11 each."""
    state = MeioRules(players=2, rounds=2).new_initial_state(0)
    _play_designed_round(state)
    _play_designed_round(state)
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0, 1) and outcome.shared
    assert tuple(outcome.scores) == (11, 11)


def test_a_tie_behind_the_leader_is_no_shared_victory():
    """Only a tie for the least points is a tie for the victory."""
    rules = MeioRules(players=3, rounds=1)
    assert final_outcome(rules, (3, 5, 5), ((3, 5, 5),)).winners == (0,)
    assert final_outcome(rules, (4, 4, 6), ((4, 4, 6),)).winners == (0, 1)
    assert final_outcome(rules, (2, 2, 2), ((2, 2, 2),)).winners == (0, 1, 2)


def test_no_action_after_the_game_is_over():
    state = MeioRules(players=2, rounds=1).new_initial_state(0)
    _play_designed_round(state)
    assert state.is_terminal and not state.legal_actions()
    with pytest.raises(GameError):
        state.apply(Play("AS"))


def test_a_spectator_sees_no_hand_and_no_pack():
    """Hands are held and packs lie "face down": a spectator (no seat) sees only the table."""
    from cardbase.games.base import SPECTATOR

    state = _round_table()
    play(state, "AS")
    seen = state.observation(SPECTATOR)
    assert seen.hand == 0 and seen.aside == 0 and seen.dealt == 0
    assert seen.trick == (int(Play("AS")),)


def test_a_player_may_not_split_twice():
    """ "Each player must split their hand" — once: the split is then fixed."""
    state = dealt(3, [T3_KEEP[p] + " " + T3_ASIDE[p] for p in range(3)])
    state.apply(Split.of(cards(T3_KEEP[0]), cards(T3_ASIDE[0])))
    with pytest.raises(GameError):
        state.apply(Split.of(cards(T3_ASIDE[0] + " AS"), cards("2S 3S 4S 5S 6S 2H")))


def test_another_players_split_is_shown_without_its_cards():
    """ "Leave the pile of 6 cards in front of you, face down": others learn that P1 split, not how."""
    state = dealt(2, [R_KEEP[p] + " " + R_ASIDE[p] for p in range(2)])
    split = Split.of(cards(R_KEEP[0]), cards(R_ASIDE[0]))
    shown = state.action_text(split, viewer=1)
    assert not any(c in shown for c in ("AD", "AS", "♠", "♦"))
    assert "AD" in state.action_text(split, viewer=0)


def test_the_follow_rule_is_told_to_the_player_who_must_follow():
    """ "All other players must play a card of the same suit": P2 is told which cards it must play."""
    state = table(2, T2_KEEP, T2_ASIDE)
    play(state, "AS")
    why = state.observation(1).held_back()
    assert why is not None and "follow" in why and "4" in why
    assert state.observation(0).held_back() is None


def test_a_deal_to_three_hands_in_a_two_player_game_is_refused():
    state = MeioRules(players=2).new_initial_state(0)
    with pytest.raises(GameError):
        state.apply(Deal.of([cards("AS 2S 3S 4S"), cards("AD 2D 3D 4D"), cards("AC 2C 3C 4C")]))


@pytest.mark.parametrize("options", [{"players": 5}, {"players": 1}, {"rounds": 0}], ids=["5p", "1p", "0rounds"])
def test_games_the_rulebook_does_not_have_are_refused(options):
    """ "2–4 players" (For 2 / 3 / 4 players …) and "After 3 rounds": at least one round."""
    with pytest.raises(GameError):
        MeioRules(**options)


@pytest.mark.parametrize(("ace_high", "winner"), [(True, 1), (False, 0)])
def test_the_ace_of_hearts_among_trumps(ace_high, winner):
    """ "the highest heart wins", the ace ranked by the option as in the other suits."""
    keep = ["AS 2S 3S 4S 5S 6S 2H", "AC 2C 3C 4C 5C 6C AH"]
    aside = ["AD 2D 3D 4D 5D 6D", "3H 4H 5H 6H 7C 7D"]
    state = table(2, keep, aside, ace_high=ace_high)
    play(state, "2H", "AH")
    assert state.tricks()[0][2] == winner


def test_the_round_scores_are_seen_by_every_player():
    state = MeioRules(players=2).new_initial_state(0)
    _play_designed_round(state)
    for seat in (0, 1):
        seen = state.observation(seat)
        assert seen.round_scores == ((6, 5),) and seen.totals == (6, 5)


def test_replay_refuses_the_loser_of_a_trick_leading_the_next(tmp_path):
    """ "Then they lead the next trick": P2 won the first trick (7C led, AC) so P1 may not lead."""
    result, _ = _replay_cli(tmp_path, _record_lines([("P1", "play 7C"), ("P2", "play AC"), ("P1", "play AS")]))
    assert result.exit_code == 1
    assert "line 7: action 6 (P1): it is P2's turn, not P1's" in result.stderr


def test_replay_refuses_an_outcome_the_game_does_not_give(tmp_path):
    """ "the player with the least points is the winner": a record claiming P1 won 17 to 16 is refused."""
    state = MeioRules(players=2).new_initial_state(0)
    for _ in range(3):
        _play_designed_round(state)
    from cardbase.sim.records import record_lines

    lines = record_lines(state.rules, None, state.history)
    last = json.loads(lines[-1])
    assert last["outcome"]["winners"] == [1]
    last["outcome"]["winners"] = [0]
    lines[-1] = json.dumps(last)
    path = tmp_path / "lie.jsonl"
    path.write_text("\n".join(lines) + "\n")
    result = CliRunner().invoke(app, ["replay", str(path)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"line {len(lines)}" in result.stderr


# --- whole games against the reference reading -------------------------------------------


def _legal_with_options(
    hand: list[PlayingCard], trick: list[tuple[int, PlayingCard]], broken: bool, hearts_anytime: bool
) -> set[PlayingCard]:
    """``_legal``, and with ``hearts_anytime=False`` (the documented alternative to "may play any
    card"): no heart led before a heart was played this round, unless the hand holds only hearts."""
    legal = _legal(hand, trick)
    if trick or hearts_anytime or broken:
        return legal
    return {c for c in legal if c.suit is not Suit.HEARTS} or legal


OPTION_SETS = [
    {},
    {"ace_high": False},
    {"second_half_leader": "starter", "first_player": 1},
    {"hearts_anytime": False, "first_player": 2},
    {"ace_high": False, "hearts_anytime": False, "second_half_leader": "starter"},
]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_random_games_agree_with_the_reference_reading(players, seed, options):
    """Every legal set, trick winner, next leader, round score, total and winner of whole games
    played with random legal choices, against the rulebook's sentences read independently (and the
    options' documented alternatives)."""
    first = options.get("first_player", 0) % players
    rules = MeioRules(players=players, **{**options, "first_player": first})
    ace_high = rules.ace_high
    state = rules.new_initial_state(seed)
    rng = random.Random(seed * 10 + players)
    totals = [0] * players
    starter = first
    rounds = 0
    while not state.is_terminal:
        assert state.phase == "deal"
        assert state.starting_player == starter
        state.apply(state.sample_chance())
        dealt_cards = [c for p in range(players) for c in state.hand(p)] + list(state.leftover())
        assert sorted(dealt_cards) == sorted(rules.deck)  # "Shuffle all the cards" each round
        while state.phase == "split":
            splits = state.legal_actions()
            state.apply(splits[rng.randrange(len(splits))])
        horizontal, vertical = [0] * players, [0] * players
        leader = starter
        broken = False
        for n in range(13):
            if n == 7 and rules.second_half_leader == "starter":
                leader = starter
            trick: list[tuple[int, PlayingCard]] = []
            for i in range(players):
                seat = (leader + i) % players
                assert state.current_player == seat
                hand = list(state.hand(seat))
                assert len(hand) == (7 - n if n < 7 else 13 - n)
                legal = {a.card for a in state.legal_actions()}
                assert legal == _legal_with_options(hand, trick, broken, rules.hearts_anytime)
                card = sorted(legal)[rng.randrange(len(legal))]
                state.apply(Play(card))
                trick.append((seat, card))
                broken = broken or card.suit is Suit.HEARTS
            leader = _winner(trick, ace_high)
            (horizontal if n < 7 else vertical)[leader] += 1
        scores = tuple(abs(h - v) for h, v in zip(horizontal, vertical, strict=True))
        assert state.round_scores()[rounds] == scores
        totals = [t + s for t, s in zip(totals, scores, strict=True)]
        rounds += 1
        starter = (starter + 1) % players
    assert rounds == 3
    outcome = state.outcome()
    assert outcome is not None
    assert tuple(outcome.scores) == tuple(totals)
    assert tuple(outcome.round_scores) == tuple(state.round_scores())
    assert outcome.winners == tuple(p for p in range(players) if totals[p] == min(totals))


# --- records (cardbase replay) -----------------------------------------------------------


def _record_lines(actions: list[tuple[str, str]]) -> list[str]:
    head = {"record": "cardbase.game", "version": 1, "game": "meio", "rules": {"players": 2}, "seed": None}
    deal = "deal " + " / ".join(k + " " + a for k, a in zip(T2_KEEP, T2_ASIDE, strict=True))
    lines = [json.dumps(head), json.dumps({"player": "chance", "action": deal})]
    lines.append(json.dumps({"player": "P1", "action": f"split {T2_KEEP[0]} | {T2_ASIDE[0]}"}))
    lines.append(json.dumps({"player": "P2", "action": f"split {T2_KEEP[1]} | {T2_ASIDE[1]}"}))
    lines += [json.dumps({"player": p, "action": a}) for p, a in actions]
    return lines


def _replay_cli(tmp_path, lines: list[str]):
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return CliRunner().invoke(app, ["replay", str(path)]), path


def test_replay_accepts_legal_lines(tmp_path):
    result, _ = _replay_cli(tmp_path, _record_lines([("P1", "play AS"), ("P2", "play 4S"), ("P1", "play 6D")]))
    assert result.exit_code == 0, result.output


def test_replay_refuses_a_revoke_naming_its_line_and_the_rule(tmp_path):
    """ "All other players must play a card of the same suit": P2 holds 4S and plays AC on AS."""
    result, path = _replay_cli(tmp_path, _record_lines([("P1", "play AS"), ("P2", "play AC")]))
    assert result.exit_code == 1
    assert f"{path} line 6" in result.stderr
    assert "follow" in result.stderr.lower() and "Traceback" not in result.output


def test_replay_refuses_a_card_from_the_pack_set_aside_in_the_first_half(tmp_path):
    result, _ = _replay_cli(tmp_path, _record_lines([("P1", "play 6D"), ("P2", "play 4D")]))
    assert result.exit_code == 1 and "line 6" in result.stderr


def test_replay_of_a_line_by_the_wrong_player_names_both_players(tmp_path):
    """A line written for P2 where it is P1's turn (to lead the first trick): the message says the
    line is P2's and that it is P1's turn; the "(…)" after the action's number is the line's player."""
    result, _ = _replay_cli(tmp_path, _record_lines([("P2", "play 4S")]))
    assert result.exit_code == 1
    assert "line 5: action 4 (P2): it is P1's turn, not P2's" in result.stderr


def test_replay_of_a_line_by_a_seat_the_game_lacks_says_so(tmp_path):
    """A 2-player record with a line for P3: the message says the game has no P3."""
    result, _ = _replay_cli(tmp_path, _record_lines([("P3", "play AS")]))
    assert result.exit_code == 1
    assert "line 5: action 4 (P3): this game has 2 players, no P3; it is P1's turn" in result.stderr


def test_replay_of_a_shorthand_split_made_before_the_players_turn(tmp_path):
    """ "Each player must split their hand" (in any order): P2 writes its split first, naming only the
    6 cards set aside ("aside …"); the rest of P2's hand, not P1's, is kept. It was refused:
    "P2's split: you do not hold A♠, 2♠, …" (P1's cards)."""
    head = {"record": "cardbase.game", "version": 1, "game": "meio", "rules": {"players": 2}, "seed": None}
    deal = "deal " + " / ".join(k + " " + a for k, a in zip(T2_KEEP, T2_ASIDE, strict=True))
    lines = [
        json.dumps(head),
        json.dumps({"player": "chance", "action": deal}),
        json.dumps({"player": "P2", "action": f"aside {T2_ASIDE[1]}"}),
        json.dumps({"player": "P1", "action": f"split {T2_ASIDE[0]}"}),
        json.dumps({"player": "P1", "action": "play AS"}),
    ]
    result, _ = _replay_cli(tmp_path, lines)
    assert result.exit_code == 0, result.output
    moves = CliRunner().invoke(app, ["replay", str(tmp_path / "game.jsonl"), "--json", "--moves"])
    (game,) = json.loads(moves.stdout)
    second = game["moves"][1]
    assert (second["n"], second["player"]) == (2, "P2")
    assert parse_action(second["action"]) == Split.of(cards(T2_KEEP[1]), cards(T2_ASIDE[1]))


def test_the_split_shorthand_reads_the_hand_of_the_seat_it_is_for():
    state = dealt(2, [k + " " + a for k, a in zip(T2_KEEP, T2_ASIDE, strict=True)])
    assert state.current_player == 0
    split = state.parse_action(f"aside {T2_ASIDE[1]}", 1)
    assert split == Split.of(cards(T2_KEEP[1]), cards(T2_ASIDE[1]))
    assert state.parse_action(f"aside {T2_ASIDE[0]}") == Split.of(cards(T2_KEEP[0]), cards(T2_ASIDE[0]))


def test_replay_error_carries_the_lines_player():
    lines = [json.loads(x) for x in _record_lines([("P1", "play AS"), ("P1", "play 2S")])]
    from cardbase.sim.records import ActionLine

    record = GameRecord(
        game="meio",
        rules={"players": 2},
        seed=None,
        actions=[ActionLine(d["action"], d["player"], i + 2) for i, d in enumerate(lines[1:])],
    )
    with pytest.raises(InvalidRecord) as caught:
        replay(record)
    assert caught.value.player == "P1" and caught.value.line == 6
    assert "it is P2's turn, not P1's" in str(caught.value)
