"""One scenario per rule of the Meio rulebook (docs/rules/meio.md maps each sentence here)."""

from __future__ import annotations

import json

import pytest

from cardbase.games.base import CHANCE, TERMINAL, IllegalAction, InvalidRules
from cardbase.games.meio.actions import Deal, Play, Split
from cardbase.games.meio.cards import PlayingCard
from cardbase.games.meio.masks import CARDS, cards_of, mask_of
from cardbase.games.meio.rules import MeioRules, round_score
from tests.meio.conftest import ASIDE_2P, ASIDE_4P, KEEP_2P, KEEP_4P, cards, dealt, play, table

# Three players, deck A–10. Leftover: 10C.
KEEP_3P = ["AS 10S 9S 2H 2D 3D 2C", "8S AH 10H 4D 5D 3C 4C", "7S 6S 3H 6D 7D 5C 6C"]
ASIDE_3P = ["2S 3S 4H 5H AD 8D", "4S 5S 6H 7H 9D 10D", "8H 9H AC 7C 8C 9C"]


def first_legal_until(state, tricks_done: int) -> None:
    while len(state.tricks()) < tricks_done or state.trick():
        state.apply(state.legal_actions()[0])


# --- Components and game preparation ------------------------------------------


def test_four_players_use_the_whole_deck_without_jokers():
    assert len(MeioRules(players=4).deck) == 52
    assert set(MeioRules(players=4).deck) == set(CARDS)


@pytest.mark.parametrize(("players", "size", "top"), [(2, 28, 7), (3, 40, 10), (4, 52, 13)])
def test_deck_for_each_player_count(players, size, top):
    deck = MeioRules(players=players).deck
    assert len(deck) == size
    assert max(c.rank for c in deck) == top
    assert {c.rank for c in deck} == set(range(1, top + 1))


@pytest.mark.parametrize("players", [1, 5, 0])
def test_only_two_to_four_players(players):
    with pytest.raises(InvalidRules, match="2, 3 or 4 players"):
        MeioRules(players=players)


@pytest.mark.parametrize(("players", "leftover"), [(2, 2), (3, 1), (4, 0)])
def test_thirteen_cards_each_and_the_rest_left_aside(players, leftover):
    state = MeioRules(players=players).new_initial_state(11)
    assert state.current_player == CHANCE
    deal = state.sample_chance()
    state.apply(deal)
    assert [len(state.hand(s)) for s in range(players)] == [13] * players
    assert len(state.leftover()) == leftover
    everything = [c for s in range(players) for c in state.hand(s)] + list(state.leftover())
    assert sorted(everything) == sorted(MeioRules(players=players).deck)


def test_leftover_cards_are_face_down():
    state = dealt(2, [k + " " + a for k, a in zip(KEEP_2P, ASIDE_2P, strict=True)])
    assert state.leftover() == tuple(cards("AH 3H"))
    for seat in (0, 1):
        obs = state.observation(seat)
        assert not (obs.hand | obs.aside | obs.dealt | obs.played) & mask_of(cards("AH 3H"))
        assert "A♥" not in obs.describe()


def test_a_deal_must_give_thirteen_cards_of_the_deck_to_each_player():
    state = MeioRules(players=2).new_initial_state(0)
    with pytest.raises(IllegalAction, match="P2 has 12") as e:
        state.apply(Deal.of([cards(KEEP_2P[0] + " " + ASIDE_2P[0]), cards(KEEP_2P[1] + " 5C 6C 4D 5D 7D")]))
    assert e.value.rule == "deal-13-each"
    with pytest.raises(IllegalAction, match="not in the 2-player deck") as e:
        state.apply(Deal.of([cards("8S 2S 3S 4H 5H 6D 7C 5S 6S 7S AD 2D 3D"), cards(KEEP_2P[1] + " " + ASIDE_2P[1])]))
    assert e.value.rule == "deck-for-players"
    with pytest.raises(IllegalAction, match="dealt twice") as e:
        state.apply(Deal.of([cards(KEEP_2P[0] + " " + ASIDE_2P[0]), cards("AS 6H 7H AC 2C 3C 4C 5C 6C 4D 5D 7D 2H")]))
    assert e.value.rule == "deal-once"
    with pytest.raises(IllegalAction, match="dealt first"):
        state.apply(Play("AS"))


@pytest.mark.parametrize("first", [0, 1, 2])
def test_a_starting_player_of_your_choice(first):
    state = MeioRules(players=3, first_player=first).new_initial_state(3)
    state.resolve_chance()
    assert state.starting_player == first
    assert state.current_player == first
    with pytest.raises(InvalidRules, match="first_player"):
        MeioRules(players=3, first_player=3)


# --- Phase 1: the split ------------------------------------------------------------


def test_split_keeps_seven_and_sets_six_aside():
    state = table(2, KEEP_2P, ASIDE_2P)
    assert state.phase == "play"
    for seat in (0, 1):
        assert sorted(state.hand(seat)) == sorted(cards(KEEP_2P[seat]))
        assert sorted(state.aside(seat)) == sorted(cards(ASIDE_2P[seat]))


def test_a_split_other_than_seven_and_six_is_refused():
    state = dealt(2, [k + " " + a for k, a in zip(KEEP_2P, ASIDE_2P, strict=True)])
    with pytest.raises(IllegalAction, match="keep 7 cards and set 6 aside, not 8 and 5") as e:
        state.apply(Split.of(cards(KEEP_2P[0] + " 5S"), cards("6S 7S AD 2D 3D")))
    assert e.value.rule == "split-7-6"
    with pytest.raises(IllegalAction, match="you do not hold 4♠"):
        state.apply(Split.of(cards("4S 2S 3S 4H 5H 6D 7C"), cards("5S 6S 7S AD 2D 3D")))
    with pytest.raises(IllegalAction, match="missing"):
        state.apply(Split.of(cards("2S 3S 4H 5H 6D 7C"), cards("5S 6S 7S AD 2D 3D")))
    with pytest.raises(IllegalAction, match="both kept and set aside"):
        state.apply(Split.of(cards(KEEP_2P[0]), cards("AS 5S 6S 7S AD 2D 3D")))


def test_every_player_splits_before_the_first_trick():
    state = dealt(2, [k + " " + a for k, a in zip(KEEP_2P, ASIDE_2P, strict=True)])
    with pytest.raises(IllegalAction, match="must first split") as e:
        state.apply(Play("AS"))
    assert e.value.rule == "split-first"
    state.apply(Split.of(cards(KEEP_2P[0]), cards(ASIDE_2P[0])))
    assert state.current_player == 1 and state.phase == "split"
    state.apply(Split.of(cards(KEEP_2P[1]), cards(ASIDE_2P[1])))
    assert state.phase == "play" and state.current_player == 0
    with pytest.raises(IllegalAction, match="split is made before the first trick"):
        state.apply(Split.of(cards(KEEP_2P[0]), cards(ASIDE_2P[0])))


def test_the_players_split_in_any_order():
    """The rulebook sets no order for the split (each player splits their own hand, face down):
    a split out of turn is taken, for the player whose cards it divides; the turn stays with the
    player who has not split yet."""
    state = dealt(3, [k + " " + a for k, a in zip(KEEP_3P, ASIDE_3P, strict=True)], first_player=1)
    assert state.current_player == 1
    p1 = Split.of(cards(KEEP_3P[0]), cards(ASIDE_3P[0]))
    assert state.action_text(p1, viewer=1) == state.action_text(p1, viewer=2) == "splits their hand"
    assert state.action_text(p1, viewer=0) == str(p1)
    assert state.actor(p1) == 0
    state.apply(p1)
    assert state.current_player == 1 and state.phase == "split"
    assert state.observation(2).split_done == (True, False, False)
    assert sorted(state.hand(0)) == sorted(cards(KEEP_3P[0]))
    with pytest.raises(IllegalAction, match="you do not hold"):  # P1 has split: the cards are P2's to check
        state.apply(Split.of(cards(KEEP_3P[0]), cards(ASIDE_3P[0])))
    state.apply(Split.of(cards(KEEP_3P[1]), cards(ASIDE_3P[1])))
    assert state.current_player == 2  # the one left to split
    state.apply(Split.of(cards(KEEP_3P[2]), cards(ASIDE_3P[2])))
    assert state.phase == "play" and state.current_player == 1  # the starting player leads


def _splits_in_seat_order_while_p3_starts() -> tuple[MeioRules, list[str]]:
    """The record lines of a 3-player round whose splits are in seat order, though P3 starts."""
    from cardbase.sim.records import record_lines

    rules = MeioRules(players=3, first_player=2, rounds=1)
    state = dealt(3, [k + " " + a for k, a in zip(KEEP_3P, ASIDE_3P, strict=True)], first_player=2, rounds=1)
    for seat in (0, 1, 2):
        state.apply(Split.of(cards(KEEP_3P[seat]), cards(ASIDE_3P[seat])))
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    return rules, record_lines(rules, None, state.history)


def test_a_record_with_the_splits_in_another_order_replays():
    from cardbase.sim.records import parse_records, replay

    _, lines = _splits_in_seat_order_while_p3_starts()
    assert [line.split('"')[3] for line in lines[2:5]] == ["P1", "P2", "P3"]
    result = replay(parse_records("\n".join(lines))[0], keep_moves=True)
    assert result.finished and result.outcome is not None
    assert result.outcome.to_dict() == json.loads(lines[-1])["outcome"]
    assert [who for _, who, _ in result.moves[1:4]] == ["P1", "P2", "P3"]
    unnamed = [line.replace('"player": "P1", ', "") for line in lines]  # a line need not name its player
    result = replay(parse_records("\n".join(unnamed))[0], keep_moves=True)
    assert [who for _, who, _ in result.moves[1:4]] == ["P1", "P2", "P3"]


def test_a_record_naming_the_current_player_for_another_players_split_is_refused():
    """P3 is to act, but the line's split divides P1's hand: the record says P3 took it, which is false."""
    from cardbase.errors import InvalidRecord
    from cardbase.sim.records import parse_records, replay

    _, lines = _splits_in_seat_order_while_p3_starts()
    assert '"player": "P1"' in lines[2] and '"split ' in lines[2]
    lines[2] = lines[2].replace('"player": "P1"', '"player": "P3"')
    with pytest.raises(InvalidRecord, match="is P1's to take, not P3's"):
        replay(parse_records("\n".join(lines))[0])


def test_the_pack_of_six_is_not_played_in_the_first_half():
    state = table(2, KEEP_2P, ASIDE_2P)
    with pytest.raises(IllegalAction, match="pack of 6 set aside") as e:
        state.apply(Play("5S"))
    assert e.value.rule == "play-7-first"


def test_others_cannot_see_a_players_split():
    state = table(2, KEEP_2P, ASIDE_2P)
    obs = state.observation(0)
    other = mask_of(cards(KEEP_2P[1] + " " + ASIDE_2P[1]))
    assert not (obs.hand | obs.aside | obs.dealt | obs.played) & other
    assert obs.hand_sizes == (7, 7) and obs.aside_sizes == (6, 6)


# --- Phase 2: the tricks -------------------------------------------------------------


def test_the_first_player_may_play_any_card_of_their_hand():
    state = table(2, KEEP_2P, ASIDE_2P)
    assert sorted(a.card for a in state.legal_actions()) == sorted(cards(KEEP_2P[0]))


def test_others_must_follow_the_led_suit():
    state = table(3, KEEP_3P, ASIDE_3P)
    play(state, "2C")
    assert [str(a) for a in state.legal_actions()] == ["play 3C", "play 4C"]
    with pytest.raises(IllegalAction) as e:
        state.apply(Play("AH"))
    assert str(e.value) == "must follow ♣: you hold 3♣, 4♣"
    assert e.value.rule == "follow-suit" and e.value.player == 1
    assert isinstance(e.value, ValueError)


def test_without_the_led_suit_any_card_may_be_played():
    state = table(3, KEEP_3P, ASIDE_3P)
    play(state, "2C", "3C", "5C")  # P3 wins and leads
    play(state, "6C")
    assert sorted(a.card for a in state.legal_actions()) == sorted(cards("AS 10S 9S 2H 2D 3D"))


def test_a_heart_beats_the_led_suit():
    state = table(3, KEEP_3P, ASIDE_3P)
    play(state, "2C", "3C", "5C")
    assert state.tricks()[-1][2] == 2  # highest club
    play(state, "6C", "2H", "4C")  # P1 void in clubs trumps with the lowest heart
    assert state.tricks()[-1][2] == 0


def test_the_highest_heart_wins():
    state = table(3, KEEP_3P, ASIDE_3P)
    play(state, "2C", "3C", "5C", "6C", "2H", "4C")  # P1 won
    play(state, "2D", "4D", "6D")  # P3 won
    play(state, "7D", "3D", "5D")  # P3 won
    play(state, "3H", "9S", "AH")  # hearts led: P2's ace beats P3's three
    assert state.tricks()[-1][2] == 1


def test_of_two_hearts_played_on_another_suit_the_higher_heart_wins():
    """If one or more hearts (trump cards) are played, the highest heart wins: a second player void in the led
    suit overtrumps the first; the led suit's ace wins nothing."""
    keep = ["AC 2C 3C 4C 5C 6C 7C", "2H 3H 4H 5H 6H 7S 8S", "8H 9H 10H AH 5D 6D 7D"]
    aside = ["AS 2S 3S 4S 5S 6S", "9S 10S AD 2D 3D 4D", "8D 9D 10D 8C 9C 10C"]  # leftover: 7H
    state = table(3, keep, aside)
    assert state.leftover() == tuple(cards("7H"))
    play(state, "AC", "2H", "8H")  # P2 trumps, P3 overtrumps
    assert state.tricks()[-1][2] == 2


def test_otherwise_the_highest_card_of_the_led_suit_wins():
    state = table(4, KEEP_4P, ASIDE_4P)
    play(state, "2C", "3C", "4C", "5C")
    assert state.tricks()[-1][2] == 3
    play(state, "8D", "2D", "4D", "6D")  # a higher off-suit card cannot win: nobody trumps
    assert state.tricks()[-1][2] == 3


@pytest.mark.parametrize(("ace_high", "winner"), [(True, 0), (False, 1)])
def test_ace_high_or_low(ace_high, winner):
    state = table(2, KEEP_2P, ASIDE_2P, ace_high=ace_high)
    play(state, "AS", "4S")
    assert state.tricks()[-1][2] == winner


@pytest.mark.parametrize(
    ("players", "lead", "ace_high", "winner"),
    [
        # 2 players, A–7: P1 leads A♠ against 4♠ (the ace above the seven, or below the two)
        (2, ["AS", "4S"], True, 0),
        (2, ["AS", "4S"], False, 1),
        # 3 players, A–10: A♠ against 8♠ and 7♠
        (3, ["AS", "8S", "7S"], True, 0),
        (3, ["AS", "8S", "7S"], False, 1),
        # 4 players, all 52: A♠ against Q♠, 10♠, 2♠
        (4, ["AS", "QS", "10S", "2S"], True, 0),
        (4, ["AS", "QS", "10S", "2S"], False, 1),
    ],
)
def test_the_ace_ranks_the_same_way_in_every_deck(players, lead, ace_high, winner):
    keep, aside = {2: (KEEP_2P, ASIDE_2P), 3: (KEEP_3P, ASIDE_3P), 4: (KEEP_4P, ASIDE_4P)}[players]
    state = table(players, keep, aside, ace_high=ace_high)
    play(state, *lead)
    assert state.tricks()[-1][2] == winner


@pytest.mark.parametrize(("ace_high", "winner"), [(True, 1), (False, 2)])
def test_the_ace_of_hearts_ranks_as_the_other_aces(ace_high, winner):
    state = table(4, KEEP_4P, ASIDE_4P, ace_high=ace_high)
    play(state, "3H", "AH", "QH", "5S")  # P2's ace wins, or (ace low) P3's queen
    assert state.tricks()[-1][2] == winner


def test_a_heart_led_must_be_followed_with_a_heart():
    state = table(4, KEEP_4P, ASIDE_4P)
    play(state, "2H")
    assert sorted(a.card for a in state.legal_actions()) == sorted(cards("AH KH"))
    with pytest.raises(IllegalAction, match="must follow ♥"):
        play(state, "QS")
    play(state, "KH")
    assert [a.card for a in state.legal_actions()] == cards("QH")
    play(state, "QH")
    assert sorted(a.card for a in state.legal_actions()) == sorted(cards(KEEP_4P[3]))  # no heart: any card
    play(state, "9D")
    assert state.tricks()[-1][2] == 1  # the highest heart, not the led card


# The first half of a 2-player round, trick by trick (P1 starts): P2 holds no diamond in its 7
# but three in its 6; P1 wins tricks 1–5, P2 tricks 6 and 7.
FIRST_HALF_2P = ["6D", "2C", "AS", "4S", "2S", "AC", "3S", "3C", "7C", "4C", "4H", "6H", "7H", "5H"]


def test_the_pack_set_aside_does_not_count_for_following_in_the_first_half():
    state = table(2, KEEP_2P, ASIDE_2P)
    play(state, "6D")
    assert set(cards("4D 5D 7D")) <= set(state.aside(1))
    assert sorted(a.card for a in state.legal_actions()) == sorted(cards(KEEP_2P[1]))


def test_the_winner_of_the_seventh_trick_leads_the_second_half():
    state = table(2, KEEP_2P, ASIDE_2P)
    play(state, *FIRST_HALF_2P)
    assert [w for _, _, w in state.tricks()] == [0, 0, 0, 0, 0, 1, 1]
    assert state.starting_player == 0
    assert state.current_player == 1  # the winner of trick 7, not the round's starting player
    assert sorted(a.card for a in state.legal_actions()) == sorted(cards(ASIDE_2P[1]))
    assert state.tricks_won() == ((5, 0), (2, 0))


@pytest.mark.parametrize(
    ("leader", "first", "seventh", "eighth"),
    [("winner", 0, 1, 1), ("starter", 0, 1, 0), ("winner", 1, 0, 0), ("starter", 1, 0, 1)],
)
def test_who_leads_the_second_half_is_the_option_second_half_leader(leader, first, seventh, eighth):
    """Rulebook: "They pick up the pile of 6 cards … and the game continues normally": the winner of the seventh
    trick leads the eighth (default), or (``second_half_leader="starter"``) the round's starting player, as
    the first half began."""
    keep, aside = (KEEP_2P, ASIDE_2P) if first == 0 else (KEEP_2P[::-1], ASIDE_2P[::-1])  # (P2 starts: swapped)
    state = table(2, keep, aside, second_half_leader=leader, first_player=first)
    play(state, *FIRST_HALF_2P)
    assert state.starting_player == first and state.tricks()[-1][2] == seventh
    assert state.current_player == eighth and state.observation(0).leader == eighth
    assert sorted(a.card for a in state.legal_actions()) == sorted(state.hand(eighth))
    first_legal_until(state, 8)  # and after the eighth, its winner leads again
    assert state.current_player == state.tricks()[-1][2]


def test_second_half_leader_takes_only_its_two_words():
    assert MeioRules.from_options({"players": 3, "second_half_leader": "starter"}).second_half_leader == "starter"
    with pytest.raises(InvalidRules, match="second_half_leader must be one of winner, starter, not 'loser'"):
        MeioRules(players=3, second_half_leader="loser")
    with pytest.raises(InvalidRules, match="must be str"):
        MeioRules(players=3, second_half_leader=1)  # type: ignore[arg-type]


def test_following_suit_after_the_pick_up_reads_the_pack_of_six():
    state = table(2, KEEP_2P, ASIDE_2P)
    play(state, *FIRST_HALF_2P)
    play(state, "4D")  # P2 void in diamonds in its 7, leads one from its 6
    assert sorted(a.card for a in state.legal_actions()) == sorted(cards("AD 2D 3D"))
    play(state, "3D")
    play(state, "5C")  # P1 holds no club in its 6: any card, and a diamond cannot win
    assert sorted(a.card for a in state.legal_actions()) == sorted(cards("5S 6S 7S AD 2D"))
    play(state, "AD")
    assert [w for _, _, w in state.tricks()][7:] == [1, 1]
    assert state.tricks_won() == ((5, 0), (2, 2))


def test_the_winner_leads_the_next_trick():
    state = table(3, KEEP_3P, ASIDE_3P)
    play(state, "2C", "3C", "5C")
    assert state.current_player == 2
    with pytest.raises(IllegalAction, match="you do not hold A♠"):
        state.apply(Play("AS"))  # P1's card, but it is P3's turn
    play(state, "6C", "2H", "4C")
    assert state.current_player == 0


def test_first_half_tricks_are_horizontal_then_the_six_are_picked_up():
    state = table(2, KEEP_2P, ASIDE_2P)
    first_legal_until(state, 6)
    assert state.half == 1
    first_legal_until(state, 7)
    assert sum(h for h, _ in state.tricks_won()) == 7
    assert all(v == 0 for _, v in state.tricks_won())
    assert state.half == 2
    for seat in (0, 1):
        assert sorted(state.hand(seat)) == sorted(cards(ASIDE_2P[seat]))
        assert state.aside(seat) == ()
    assert state.current_player == state.tricks()[-1][2]


def test_second_half_tricks_are_vertical():
    state = table(2, KEEP_2P, ASIDE_2P)
    first_legal_until(state, 7)
    before = state.tricks_won()
    first_legal_until(state, 12)
    after = state.tricks_won()
    assert [h for h, _ in after] == [h for h, _ in before]
    assert sum(v for _, v in after) == 5


@pytest.mark.parametrize("anytime", [True, False])
def test_leading_hearts(anytime):
    state = table(2, KEEP_2P, ASIDE_2P, hearts_anytime=anytime)
    hearts = [a for a in state.legal_actions() if a.card.suit.value == "H"]
    if anytime:
        assert hearts
        play(state, "4H")
        return
    assert not hearts
    with pytest.raises(IllegalAction, match="hearts may not be led") as e:
        play(state, "4H")
    assert e.value.rule == "hearts-broken"
    play(state, "6D", "6H")  # P2 has no diamond: plays a heart; hearts are broken
    assert state.current_player == 1
    play(state, "7H")
    assert any(a.card.suit.value == "H" for a in state.legal_actions())


def test_a_hand_of_only_hearts_may_lead_hearts():
    keep = ["2H 3H 4H 5H 6H 7H AS", "AH 2S 3S 4S 5S 6S 7S"]
    aside = ["AD 2D 3D 4D 5D 6D", "7D AC 2C 3C 4C 5C"]
    state = table(2, keep, aside, hearts_anytime=False)
    play(state, "AS", "7S")  # P1 wins with the ace and now holds only hearts
    assert state.current_player == 0
    assert all(a.card.suit.value == "H" for a in state.legal_actions())
    play(state, "2H")


# --- Scoring -----------------------------------------------------------------


def test_score_is_the_difference_whichever_is_higher():
    assert round_score(2, 1) == 1  # the rulebook's example
    assert round_score(1, 2) == 1
    assert round_score(3, 3) == 0
    assert round_score(0, 4) == 4


def test_round_scores_add_up_and_the_lowest_total_wins():
    state = MeioRules(players=3).new_initial_state(5)
    starts = []
    while not state.is_terminal:
        if state.is_chance_node:
            state.resolve_chance()
            starts.append(state.starting_player)
            continue
        state.apply(state.legal_actions()[0])
    outcome = state.outcome()
    assert outcome is not None and len(outcome.round_scores) == 3
    totals = [sum(r[s] for r in outcome.round_scores) for s in range(3)]
    assert list(outcome.scores) == totals
    assert outcome.winners == tuple(s for s in range(3) if totals[s] == min(totals))
    assert outcome.lower_is_better
    assert starts == [0, 1, 2]  # next round: the player to the left starts
    assert state.current_player == TERMINAL


def test_starting_player_moves_left_each_round_and_wraps():
    state = MeioRules(players=2, rounds=3, first_player=1).new_initial_state(2)
    starts = []
    while not state.is_terminal:
        if state.is_chance_node:
            state.resolve_chance()
            starts.append(state.starting_player)
            assert state.current_player == starts[-1]
        else:
            state.apply(state.legal_actions()[-1])
    assert starts == [1, 0, 1]


def test_each_round_deals_the_whole_deck_again():
    back_in_play = 0
    for seed in range(10):
        rules = MeioRules(players=3)
        state = rules.new_initial_state(seed)
        previous_leftover = None
        while not state.is_terminal:
            if state.is_chance_node:
                state.resolve_chance()
                hands = [c for s in range(3) for c in state.hand(s)]
                assert sorted(hands + list(state.leftover())) == sorted(rules.deck)
                if previous_leftover and previous_leftover[0] in hands:
                    back_in_play += 1  # last round's face-down card is dealt again
                previous_leftover = state.leftover()
            else:
                state.apply(state.legal_actions()[0])
    assert back_in_play > 0


def test_a_tie_is_a_shared_victory():
    for seed in range(200):
        state = MeioRules(players=4).new_initial_state(seed)
        while not state.is_terminal:
            if state.is_chance_node:
                state.resolve_chance()
            else:
                state.apply(state.legal_actions()[0])
        outcome = state.outcome()
        if outcome.shared:
            break
    else:
        pytest.fail("no tie in 200 games")
    best = min(outcome.scores)
    assert outcome.winners == tuple(i for i, s in enumerate(outcome.scores) if s == best)
    assert "shared victory" in outcome.reason


def test_nothing_is_legal_once_the_game_is_over():
    state = MeioRules(players=2, rounds=1).new_initial_state(1)
    while not state.is_terminal:
        if state.is_chance_node:
            state.resolve_chance()
        else:
            state.apply(state.legal_actions()[0])
    assert state.legal_actions() == ()
    with pytest.raises(IllegalAction, match="game is over"):
        state.apply(Play("AS"))


def test_a_card_not_held_is_refused():
    state = table(2, KEEP_2P, ASIDE_2P)
    with pytest.raises(IllegalAction, match="you do not hold 4♠"):
        state.apply(Play("4S"))
    with pytest.raises(IllegalAction, match="not in the 2-player deck"):
        state.apply(Play("KS"))


def test_cards_of_and_mask_of_round_trip():
    hand = cards("AS 10H 2D KC")
    assert cards_of(mask_of(hand)) == tuple(sorted(hand, key=lambda c: CARDS.index(c)))
    assert PlayingCard.parse("10H") in cards_of(mask_of(hand))


def test_a_record_with_the_splits_in_another_order_converts_to_openspiel():
    """OpenSpiel's steps are the current player's: a split out of turn waits for its player's turn."""
    import pyspiel

    import cardbase.spiel
    from cardbase.sim.records import parse_records, replay

    rules, lines = _splits_in_seat_order_while_p3_starts()
    record = parse_records("\n".join(lines))[0]
    game = pyspiel.load_game("cardbase_meio", rules.to_options())
    state = cardbase.spiel.from_record(game, record)
    assert state.is_terminal() and state.engine.outcome() == replay(record).outcome
    splits = [line.split('"')[7] for line in lines[2:5]]  # P1's, P2's, P3's: P3 starts
    assert [str(a) for a in state.engine.history[1:4]] == [splits[2], splits[0], splits[1]]


def _split_round_lines(players: int = 3) -> list[str]:
    """A 3-player record (P1 starts) whose three splits are lines 2, 3 and 4, in seat order."""
    from cardbase.sim.records import record_lines

    rules = MeioRules(players=players, rounds=1)
    state = dealt(players, [k + " " + a for k, a in zip(KEEP_3P, ASIDE_3P, strict=True)], rounds=1)
    for seat in range(players):
        state.apply(Split.of(cards(KEEP_3P[seat]), cards(ASIDE_3P[seat])))
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    return record_lines(rules, None, state.history)


def _replay_error(lines: list[str]) -> str:
    from cardbase.errors import InvalidRecord
    from cardbase.sim.records import parse_records, replay

    with pytest.raises(InvalidRecord) as e:
        replay(parse_records("\n".join(lines))[0])
    return str(e.value)


def test_a_record_giving_a_players_split_to_another_says_whose_split_it_is():
    """P1 is to split and the line's split divides P1's hand, but the record names P2: the reason is
    whose hand the split divides, not "it is P1's turn" (P2 may split now too, out of turn)."""
    lines = _split_round_lines()
    lines[2] = lines[2].replace('"player": "P1"', '"player": "P2"')
    message = _replay_error(lines)
    assert "divides P1's hand: it is P1's to take, not P2's" in message, message
    assert "turn" not in message


def test_a_record_with_a_split_of_cards_not_held_by_the_named_player_says_what_is_wrong():
    """P2 may split out of turn: a split named P2's is checked against P2's hand."""
    lines = _split_round_lines()
    p2 = json.loads(lines[3])
    assert p2["player"] == "P2"
    one_p1_card = KEEP_3P[0].split()[0]
    one_p2_card = KEEP_3P[1].split()[0]
    lines[2] = json.dumps({"player": "P2", "action": p2["action"].replace(one_p2_card, one_p1_card, 1)})
    message = _replay_error(lines)
    assert "P2's split: you do not hold" in message, message
    assert "turn" not in message


def test_a_record_with_a_second_split_by_one_player_says_who_is_still_to_split():
    lines = _split_round_lines()
    lines[3] = lines[2]  # P1's split again where P2's was
    message = _replay_error(lines)
    assert "P1 has already split their hand" in message and "P2, P3" in message, message


def test_a_hand_says_why_its_other_cards_are_held_back_in_the_words_of_their_refusal():
    """The table greys the cards the rules hold back; the observation says why, as a refusal of one says it."""
    state = table(3, KEEP_3P, ASIDE_3P)
    assert state.observation(0).held_back() is None  # the leader may play any card
    play(state, "2C")
    said = state.observation(1).held_back()
    with pytest.raises(IllegalAction) as e:
        state.apply(Play("AH"))
    assert said == str(e.value) == "must follow ♣: you hold 3♣, 4♣"
    assert state.observation(0).held_back() is None  # not their play
    led = table(2, KEEP_2P, ASIDE_2P, hearts_anytime=False)
    with pytest.raises(IllegalAction) as e:
        play(led, "4H")
    assert led.observation(0).held_back() == str(e.value)
