"""A second, blind examination of Meio against the rulebook (Meio Rulebook).

Each case is one concrete scenario a judge could try, written from the rulebook alone and
named by what it checks; the sentence it reads is quoted. Where a sentence reads two ways,
the case uses the engine's documented default and, where the engine offers the other
reading as a rules option, the option too (docs/rules/meio.md).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardbase.games.base import CHANCE, GameError
from cardbase.games.meio.actions import Deal, Play, Split
from cardbase.games.meio.engine import MeioState
from cardbase.games.meio.rules import MeioRules

from .conftest import ASIDE_2P, ASIDE_4P, KEEP_2P, KEEP_4P, cards, dealt, play, table

RANKS_2P = {"A", "2", "3", "4", "5", "6", "7"}
RANKS_3P = RANKS_2P | {"8", "9", "10"}
RANKS_4P = RANKS_3P | {"J", "Q", "K"}

# Three players (deck A–10): leftover AD.
KEEP_3P = ["9S 2D 3D 2C 3C 4C 5C", "2H 3H 4H 5H 6H 4D 7D", "7H 8H 9H 10H AH 10S 5S"]
ASIDE_3P = ["6C 7C 8C 9C 10C 10D", "AS 5D 6D 8D 9D 2S", "AC 3S 4S 6S 7S 8S"]

# Two players: P0 leads six hearts (P1 has none) and loses the seventh trick (2S to AS),
# so P1 wins trick 7 while P0 started the round. Leftover: AH 7C.
KEEP_LATE = ["2H 3H 4H 5H 6H 7H 2S", "AS 5S 6S 7S AD 5D 6D"]
ASIDE_LATE = ["3S 4S 2D 3D 4D 2C", "7D AC 3C 4C 5C 6C"]

# Two players: P0 wins all seven tricks of the first half with the seven hearts and
# loses all six of the second (every spade and diamond of P1 outranks P0's). Leftover: AC 7C.
KEEP_SWEEP = ["AH 2H 3H 4H 5H 6H 7H", "7S 7D 2C 3C 4C 5C 6C"]
ASIDE_SWEEP = ["2S 3S 4S 2D 3D 4D", "AS 5S 6S AD 5D 6D"]


def legal(state: MeioState) -> set[str]:
    return {str(a) for a in state.legal_actions()}


def names(text: str) -> set[str]:
    return {str(Play(n)) for n in text.split()}


def winner(state: MeioState) -> int:
    """The winner of the last finished trick."""
    return int(state.observation(0).tricks[-1][2])


def finish_round(state: MeioState) -> None:
    """Play the first legal card until the round ends (the next deal, or the game's end)."""
    while state.current_player != CHANCE and state.outcome() is None:
        state.apply(state.legal_actions()[0])


def random_game(players: int, seed: int, **options: Any) -> list[dict[str, Any]]:
    """Play a random game; return, per round, the tricks and the counts seen at its end."""
    rng = random.Random(seed)
    state = MeioRules(players=players, **options).new_initial_state(seed)
    rounds: list[dict[str, Any]] = []
    while state.outcome() is None:
        if state.current_player == CHANCE:
            state.resolve_chance()
            hands = [set(state.hand(p)) for p in range(players)]
            rounds.append({"hands": hands, "leftover": set(state.leftover())})
            continue
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
        after = state.observation(0)
        if after.round_scores and len(after.round_scores) == len(rounds):
            rounds[-1]["end"] = after
    rounds[-1]["outcome"] = state.outcome()
    return rounds


# --- Game preparation -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "ranks", "size", "left"),
    [(2, RANKS_2P, 28, 2), (3, RANKS_3P, 40, 1), (4, RANKS_4P, 52, 0)],
)
def test_deck_and_deal_per_player_count(players: int, ranks: set[str], size: int, left: int) -> None:
    """Rulebook: "For 2 players, use cards A-7 … 3 players A-10 … 4 players all cards … deal 13 cards to
    each player … there will be cards left over (2 and 1, respectively)"."""
    for seed in range(5):
        state = MeioRules(players=players).new_initial_state(seed)
        assert state.current_player == CHANCE
        state.resolve_chance()
        hands = [state.hand(p) for p in range(players)]
        assert [len(h) for h in hands] == [13] * players
        every = [c for h in hands for c in h] + list(state.leftover())
        assert len(every) == len(set(every)) == size
        assert len(state.leftover()) == left
        assert {str(c)[:-1] for c in every} == ranks
        assert {str(c)[-1] for c in every} == {"S", "H", "D", "C"}


@pytest.mark.parametrize(("players", "outside"), [(2, "8S"), (2, "KH"), (3, "JS"), (3, "QD")])
def test_a_card_outside_the_deck_cannot_be_dealt(players: int, outside: str) -> None:
    """A-7 has no 8 or king; A-10 has no jack or queen."""
    if players == 2:
        hands = [KEEP_2P[0] + " " + ASIDE_2P[0], KEEP_2P[1] + " " + ASIDE_2P[1]]
        hands[1] = hands[1].replace("2H", outside)
    else:
        hands = [k + " " + a for k, a in zip(KEEP_3P, ASIDE_3P, strict=True)]
        hands[0] = hands[0].replace("10D", outside)
    with pytest.raises(GameError):
        dealt(players, hands)


@pytest.mark.parametrize("players", [0, 1, 5, 6])
def test_meio_is_for_two_to_four_players(players: int) -> None:
    with pytest.raises(GameError):
        MeioRules(players=players)


@pytest.mark.parametrize("change", ["drop", "add", "twice"])
def test_a_deal_gives_exactly_thirteen_distinct_cards(change: str) -> None:
    hands = [KEEP_2P[0] + " " + ASIDE_2P[0], KEEP_2P[1] + " " + ASIDE_2P[1]]
    if change == "drop":
        hands[1] = hands[1].replace(" 2H", "")
    elif change == "add":
        hands[1] += " AH"
    else:
        hands[1] = hands[1].replace("2H", "AS")
    with pytest.raises(GameError):
        dealt(2, hands)


def test_the_leftover_cards_are_the_undealt_ones_and_are_never_played() -> None:
    """Rulebook: "leave them aside, face down": the 2 (or 1) cards nobody was dealt stay out of the round."""
    state = table(2, KEEP_2P, ASIDE_2P, rounds=1)
    assert set(state.leftover()) == set(cards("AH 3H"))
    finish_round(state)
    played = {str(p) for t in state.observation(0).tricks for p in t[1]}
    assert len(played) == 26
    assert not played & names("AH 3H")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_rounds_play_every_dealt_card_once_and_no_leftover(players: int) -> None:
    for seed in range(3):
        for rnd in random_game(players, seed, rounds=1):
            tricks = rnd["end"].tricks
            assert len(tricks) == 13
            played = [str(p) for t in tricks for p in t[1]]
            assert len(played) == len(set(played)) == 13 * players
            dealt_cards = {str(Play(str(c))) for h in rnd["hands"] for c in h}
            assert set(played) == dealt_cards
            assert not set(played) & {str(Play(str(c))) for c in rnd["leftover"]}


def test_starting_player_of_your_choice() -> None:
    """Rulebook: "Set a starting player of your choice": P1 by default, any seat by first_player."""
    assert table(3, KEEP_3P, ASIDE_3P).current_player == 0
    for first in range(3):
        state = table(3, KEEP_3P, ASIDE_3P, first_player=first)
        assert state.current_player == first
        assert state.observation(0).start == first


# --- Phase 1: the split ---------------------------------------------------------------


def test_every_seven_six_split_of_the_hand_is_offered() -> None:
    """Rulebook: "split their hand into two parts: one with 7 cards, and one with 6": C(13,7) = 1716 ways."""
    state = dealt(2, [KEEP_2P[0] + " " + ASIDE_2P[0], KEEP_2P[1] + " " + ASIDE_2P[1]])
    assert state.observation(0).phase == "split"
    actions = state.legal_actions()
    assert len(actions) == 1716
    for action in (actions[0], actions[len(actions) // 2], actions[-1]):
        assert isinstance(action, Split)


@pytest.mark.parametrize(
    ("keep", "aside"),
    [
        ("AS 2S 3S 4H 5H 6D 7C 5S", "6S 7S AD 2D 3D"),  # 8 and 5
        ("AS 2S 3S 4H 5H 6D", "7C 5S 6S 7S AD 2D 3D"),  # 6 and 7
        ("AS 2S 3S 4H 5H 6D AC", "5S 6S 7S AD 2D 3D"),  # AC is P2's
        ("AS 2S 3S 4H 5H 6D 7C", "AS 6S 7S AD 2D 3D"),  # AS in both, 5S nowhere
    ],
)
def test_a_split_that_is_not_seven_and_six_of_the_hand_is_refused(keep: str, aside: str) -> None:
    state = dealt(2, [KEEP_2P[0] + " " + ASIDE_2P[0], KEEP_2P[1] + " " + ASIDE_2P[1]])
    with pytest.raises(GameError):
        state.apply(Split.of(cards(keep), cards(aside)))


def test_no_card_is_played_until_every_player_has_split() -> None:
    state = dealt(2, [KEEP_2P[0] + " " + ASIDE_2P[0], KEEP_2P[1] + " " + ASIDE_2P[1]])
    with pytest.raises(GameError):
        state.apply(Play("AS"))
    state.apply(Split.of(cards(KEEP_2P[0]), cards(ASIDE_2P[0])))
    assert state.observation(0).phase == "split"
    assert state.current_player == 1
    with pytest.raises(GameError):
        state.apply(Play("AS"))
    state.apply(Split.of(cards(KEEP_2P[1]), cards(ASIDE_2P[1])))
    assert state.observation(0).phase == "play"


def test_after_the_split_the_hand_is_the_seven_and_the_six_wait_aside() -> None:
    """Rulebook: "Leave the pile of 6 cards in front of you, face down, and keep the remaining 7"."""
    state = table(2, KEEP_2P, ASIDE_2P)
    for p in range(2):
        assert set(state.hand(p)) == set(cards(KEEP_2P[p]))
        assert set(state.aside(p)) == set(cards(ASIDE_2P[p]))
    assert state.observation(0).hand_sizes == (7, 7)
    assert state.observation(0).aside_sizes == (6, 6)


def test_a_card_set_aside_cannot_be_played_in_the_first_half() -> None:
    state = table(2, KEEP_2P, ASIDE_2P)
    assert legal(state) == names(KEEP_2P[0])
    with pytest.raises(GameError):
        state.apply(Play("5S"))  # in P1's own pile of 6
    with pytest.raises(GameError):
        state.apply(Play("4S"))  # P2's card


# --- Phase 2: leading and following ---------------------------------------------------


def test_the_leader_may_play_any_card_including_a_heart() -> None:
    """Rulebook: "The first player may play any card from their hand"."""
    state = table(2, KEEP_2P, ASIDE_2P)
    assert legal(state) == names(KEEP_2P[0])
    assert names("4H 5H") <= legal(state)


def test_a_player_holding_the_lead_suit_must_follow_it() -> None:
    """Rulebook: "All other players must play a card of the same suit"."""
    state = table(2, KEEP_2P, ASIDE_2P)
    play(state, "AS")
    assert legal(state) == names("4S")
    for off in ("6H", "AC", "2C"):
        with pytest.raises(GameError):
            state.apply(Play(off))


def test_following_suit_any_card_of_the_suit_will_do_not_only_a_higher_one() -> None:
    state = table(3, KEEP_3P, ASIDE_3P)
    play(state, "9S", "4D")
    assert legal(state) == names("10S 5S")
    play(state, "5S")  # under the 9: legal
    assert winner(state) == 0


def test_a_player_void_in_the_lead_suit_may_play_any_card() -> None:
    """Rulebook: "If they don't have one, they can play any card": a heart, or a discard of another suit."""
    state = table(3, KEEP_3P, ASIDE_3P)
    play(state, "9S")
    assert legal(state) == names(KEEP_3P[1])


def test_a_void_player_need_not_trump() -> None:
    state = table(2, KEEP_2P, ASIDE_2P)
    play(state, "6D")
    assert legal(state) == names(KEEP_2P[1])
    play(state, "AC")
    assert winner(state) == 0


def test_a_heart_lead_must_be_followed_with_hearts() -> None:
    state = table(2, KEEP_2P, ASIDE_2P)
    play(state, "4H")
    assert legal(state) == names("6H 7H")


def test_the_leader_of_any_trick_may_play_any_card() -> None:
    """Reading of "The first player": the leader of every trick, not only of the round's first."""
    state = table(2, KEEP_2P, ASIDE_2P)
    play(state, "6D", "6H")  # P2 trumps and leads the second trick
    assert state.current_player == 1
    assert legal(state) == names("4S 7H AC 2C 3C 4C")


def test_play_goes_round_the_table_from_the_leader() -> None:
    state = table(3, KEEP_3P, ASIDE_3P)
    assert state.current_player == 0
    play(state, "9S")
    assert state.current_player == 1
    play(state, "2H")
    assert state.current_player == 2
    play(state, "5S")
    assert winner(state) == 1
    assert state.current_player == 1  # "Then they lead the next trick"
    play(state, "3H")
    assert state.current_player == 2
    play(state, "7H")
    assert state.current_player == 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_trick_holds_one_card_per_player(players: int) -> None:
    keep, aside = {2: (KEEP_2P, ASIDE_2P), 3: (KEEP_3P, ASIDE_3P), 4: (KEEP_4P, ASIDE_4P)}[players]
    state = table(players, keep, aside)
    for _ in range(players):
        assert state.observation(0).tricks == ()
        state.apply(state.legal_actions()[0])
    assert len(state.observation(0).tricks) == 1
    assert len(state.observation(0).tricks[0][1]) == players


# --- Who wins a trick -------------------------------------------------------------------


def test_without_hearts_the_highest_card_of_the_lead_suit_wins() -> None:
    state = table(3, KEEP_3P, ASIDE_3P)
    play(state, "9S", "4D", "10S")
    assert winner(state) == 2


def test_a_higher_card_of_another_suit_does_not_win() -> None:
    state = table(3, KEEP_3P, ASIDE_3P)
    play(state, "2D", "4D", "10S")
    assert winner(state) == 1


def test_a_single_heart_beats_the_lead_suit() -> None:
    """Rulebook: "If one or more hearts (trump cards) are played, the highest heart wins"."""
    state = table(3, KEEP_3P, ASIDE_3P)
    play(state, "2C", "2H", "10S")
    assert winner(state) == 1


def test_of_two_hearts_the_highest_wins() -> None:
    state = table(3, KEEP_3P, ASIDE_3P)
    play(state, "2C", "6H", "7H")
    assert winner(state) == 2


def test_a_heart_lead_is_won_by_the_highest_heart() -> None:
    state = table(3, KEEP_3P, ASIDE_3P)
    play(state, "9S", "2H", "5S")  # P2 leads next
    play(state, "3H", "AH", "2C")
    assert winner(state) == 2
    state = table(3, KEEP_3P, ASIDE_3P)
    play(state, "9S", "2H", "5S")
    play(state, "6H", "7H", "2C")
    assert winner(state) == 2


def test_the_ace_is_high_by_default() -> None:
    state = table(2, KEEP_2P, ASIDE_2P)
    play(state, "AS", "4S")
    assert winner(state) == 0


def test_the_ace_low_reading_as_an_option() -> None:
    """Rulebook: "the highest card": the rulebook does not rank the ace; ace_high=False ranks it below the 2."""
    state = table(2, KEEP_2P, ASIDE_2P, ace_high=False)
    play(state, "AS", "4S")
    assert winner(state) == 1
    state = table(4, KEEP_4P, ASIDE_4P, ace_high=False)
    play(state, "AS", "QS", "10S", "2S")
    assert winner(state) == 1


def test_court_cards_rank_king_queen_jack_ten() -> None:
    state = table(4, KEEP_4P, ASIDE_4P)
    play(state, "2D", "5D", "7D", "9D")
    assert winner(state) == 3
    play(state, "2S", "KS", "QS", "10S")
    assert winner(state) == 0
    play(state, "AS", "JS", "9S", "3S")
    assert winner(state) == 0
    play(state, "2H", "AH", "QH", "4S")  # heart lead: the ace of hearts
    assert winner(state) == 1


# --- The two halves -------------------------------------------------------------------


def test_after_seven_tricks_the_hand_is_empty_and_the_six_are_picked_up() -> None:
    """Rulebook: "After the seventh card is played, players must have no cards in their hand. They pick up
    the pile of 6 cards"."""
    state = table(2, KEEP_LATE, ASIDE_LATE)
    play(state, "2H", "5S", "3H", "6S", "4H", "7S", "5H", "AD", "6H", "5D", "7H", "6D")
    assert state.observation(0).hand_sizes == (1, 1)
    assert state.observation(0).aside_sizes == (6, 6)
    play(state, "2S", "AS")
    obs = state.observation(0)
    assert len(obs.tricks) == 7
    assert obs.hand_sizes == (6, 6)
    assert obs.aside_sizes == (0, 0)
    for p in range(2):
        assert set(state.hand(p)) == set(cards(ASIDE_LATE[p]))


def test_the_winner_of_the_seventh_trick_leads_the_eighth_by_default() -> None:
    """Rulebook: "Then they lead the next trick" … "the game continues normally"."""
    state = table(2, KEEP_LATE, ASIDE_LATE)
    play(state, "2H", "5S", "3H", "6S", "4H", "7S", "5H", "AD", "6H", "5D", "7H", "6D", "2S", "AS")
    assert winner(state) == 1
    assert state.current_player == 1
    assert legal(state) == names(ASIDE_LATE[1])


def test_the_starter_leads_the_eighth_trick_as_an_option() -> None:
    state = table(2, KEEP_LATE, ASIDE_LATE, second_half_leader="starter")
    play(state, "2H", "5S", "3H", "6S", "4H", "7S", "5H", "AD", "6H", "5D", "7H", "6D", "2S", "AS")
    assert winner(state) == 1
    assert state.current_player == 0
    assert legal(state) == names(ASIDE_LATE[0])


def test_the_second_half_follows_suit_with_the_six_picked_up() -> None:
    state = table(2, KEEP_LATE, ASIDE_LATE)
    play(state, "2H", "5S", "3H", "6S", "4H", "7S", "5H", "AD", "6H", "5D", "7H", "6D", "2S", "AS")
    play(state, "AC")
    assert legal(state) == names("2C")
    play(state, "2C")
    assert winner(state) == 1
    play(state, "7D")
    assert legal(state) == names("2D 3D 4D")


def test_tricks_of_the_first_half_are_horizontal_and_of_the_second_vertical() -> None:
    state = table(2, KEEP_LATE, ASIDE_LATE, rounds=1)
    play(state, "2H", "5S", "3H", "6S", "4H", "7S", "5H", "AD", "6H", "5D", "7H", "6D", "2S", "AS")
    obs = state.observation(0)
    assert obs.horizontal == (6, 1)
    assert obs.vertical == (0, 0)
    play(state, "AC", "2C")  # P2 wins the eighth: vertical
    obs = state.observation(0)
    assert obs.horizontal == (6, 1)
    assert obs.vertical == (0, 1)


# --- Scoring --------------------------------------------------------------------------


def test_a_sweep_of_the_first_half_scores_seven_and_of_the_second_six() -> None:
    """Rulebook: "the difference between the horizontal tricks … and vertical tricks"."""
    state = table(2, KEEP_SWEEP, ASIDE_SWEEP, rounds=1)
    play(state, "AH", "7S", "2H", "7D", "3H", "2C", "4H", "3C", "5H", "4C", "6H", "5C", "7H", "6C")
    assert state.observation(0).horizontal == (7, 0)
    assert state.current_player == 0
    finish_round(state)
    outcome = state.outcome()
    assert outcome is not None
    obs = state.observation(0)
    assert obs.horizontal == (7, 0)
    assert obs.vertical == (0, 6)
    assert outcome.scores == (7, 6)
    assert outcome.winners == (1,)


def test_the_score_is_the_difference_regardless_of_which_is_higher() -> None:
    """6 horizontal and 0 vertical score 6; 1 horizontal and 6 vertical score 5."""
    state = table(2, KEEP_LATE, ASIDE_LATE, rounds=1)
    play(state, "2H", "5S", "3H", "6S", "4H", "7S", "5H", "AD", "6H", "5D", "7H", "6D", "2S", "AS")
    finish_round(state)
    obs = state.observation(0)
    outcome = state.outcome()
    assert outcome is not None
    assert obs.horizontal == (6, 1)
    assert obs.vertical == (0, 6)  # P2's spades, diamonds and clubs all outrank P1's
    assert outcome.scores == (6, 5)
    assert outcome.winners == (1,)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_rounds_score_the_absolute_difference(players: int) -> None:
    """Rulebook: "if a player wins 2 horizontal tricks and 1 vertical trick, they score 1 point. The result
    would be exactly the same if they had won 1 horizontal and 2 vertical tricks"."""
    for seed in range(4):
        rounds = random_game(players, seed, rounds=2)
        for index, rnd in enumerate(rounds):
            end = rnd["end"]
            assert sum(end.horizontal) == 7  # "the first half": seven tricks
            assert sum(end.vertical) == 6
            scores = end.round_scores[index]
            for p in range(players):
                assert scores[p] == abs(end.horizontal[p] - end.vertical[p])
                assert isinstance(scores[p], int)


# --- Rounds and the end of the game ------------------------------------------------------


def _deal_next(state: MeioState, hands: list[str]) -> None:
    assert state.current_player == CHANCE
    state.apply(Deal.of([cards(h) for h in hands]))


def test_the_next_round_deals_every_card_again_including_the_leftovers() -> None:
    """Rulebook: "Shuffle all the cards (don't forget the ones left out in 2 and 3 players)"."""
    state = table(2, KEEP_2P, ASIDE_2P, rounds=2)  # leftover AH 3H
    finish_round(state)
    assert state.outcome() is None
    # Round 2 deals AH and 3H, left out in round 1; 2H and 5S are left out now.
    hands = [KEEP_2P[0] + " " + ASIDE_2P[0], KEEP_2P[1] + " " + ASIDE_2P[1]]
    hands[0] = hands[0].replace("5S", "AH")
    hands[1] = hands[1].replace("2H", "3H")
    _deal_next(state, hands)
    assert set(state.leftover()) == set(cards("2H 5S"))
    assert {str(c) for c in state.hand(0)} >= {"AH"}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_round_deals_the_whole_deck(players: int) -> None:
    size = {2: 28, 3: 40, 4: 52}[players]
    for rnd in random_game(players, 7, rounds=3):
        every = {c for h in rnd["hands"] for c in h} | rnd["leftover"]
        assert len(every) == size


@pytest.mark.parametrize(
    ("players", "first", "starters"),
    [(2, 0, [0, 1, 0]), (3, 0, [0, 1, 2]), (4, 0, [0, 1, 2, 3, 0]), (3, 2, [2, 0, 1]), (4, 3, [3, 0, 1])],
)
def test_the_next_round_is_started_by_the_player_to_the_left(players: int, first: int, starters: list[int]) -> None:
    """Rulebook: "The starting player is the player to the left of the starting player from the previous round"."""
    state = MeioRules(players=players, rounds=len(starters), first_player=first).new_initial_state(3)
    seen: list[int] = []
    while state.outcome() is None:
        if state.current_player == CHANCE:
            state.resolve_chance()
            for _ in range(players):
                state.apply(state.legal_actions()[0])
            seen.append(state.current_player)
            assert state.observation(0).start == state.current_player
        else:
            state.apply(state.legal_actions()[0])
    assert seen == starters


def test_a_game_is_three_rounds_by_default() -> None:
    """Rulebook: "After 3 rounds, the player with the least points is the winner"."""
    assert MeioRules(players=3).rounds == 3
    rounds = random_game(3, 11)
    assert len(rounds) == 3
    outcome = rounds[-1]["outcome"]
    assert len(outcome.round_scores) == 3


def test_one_round_when_the_rounds_option_says_so() -> None:
    state = table(2, KEEP_2P, ASIDE_2P, rounds=1)
    finish_round(state)
    assert state.outcome() is not None


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_least_total_over_the_rounds_wins_and_ties_share(players: int) -> None:
    """Totals add the round scores; every player tied on the least total wins (the fruit
    tie-break cannot be played: "Or share the victory")."""
    ties = 0
    for seed in range(12):
        outcome = random_game(players, seed, rounds=3)[-1]["outcome"]
        totals = tuple(sum(r[p] for r in outcome.round_scores) for p in range(players))
        assert tuple(outcome.scores) == totals
        best = min(totals)
        assert set(outcome.winners) == {p for p in range(players) if totals[p] == best}
        assert outcome.lower_is_better
        ties += len(outcome.winners) > 1
    if players == 2:
        # Each round's two scores add up to an odd number (|h - v| + |(7 - h) - (6 - v)|),
        # so over 3 rounds two players never tie.
        assert ties == 0


def test_a_three_player_tie_is_shared() -> None:
    found = False
    for seed in range(60):
        outcome = random_game(3, seed, rounds=1)[-1]["outcome"]
        if len(outcome.winners) > 1:
            found = True
            best = min(outcome.scores)
            assert all(outcome.scores[w] == best for w in outcome.winners)
            break
    assert found


def test_nothing_can_be_played_after_the_game() -> None:
    state = table(2, KEEP_2P, ASIDE_2P, rounds=1)
    finish_round(state)
    assert state.outcome() is not None
    assert state.is_terminal
    assert len(state.legal_actions()) == 0
    with pytest.raises(GameError):
        state.apply(Play("AS"))


# --- The hearts-broken reading (an option; the rulebook sets no restriction) -------------


def test_hearts_may_be_led_at_any_time_by_default() -> None:
    state = table(2, KEEP_2P, ASIDE_2P)
    play(state, "4H")
    assert winner_pending(state)


def winner_pending(state: MeioState) -> bool:
    return state.current_player == 1 and len(state.observation(0).trick) == 1


def test_hearts_broken_refuses_a_heart_lead_until_a_heart_is_played() -> None:
    state = table(2, KEEP_2P, ASIDE_2P, hearts_anytime=False)
    assert legal(state) == names("AS 2S 3S 6D 7C")
    with pytest.raises(GameError):
        state.apply(Play("4H"))
    play(state, "6D", "6H")  # P2, void in diamonds, trumps: hearts are broken
    assert state.current_player == 1
    assert names("7H") <= legal(state)


def test_hearts_broken_lets_a_leader_holding_only_hearts_lead_one() -> None:
    state = table(2, KEEP_SWEEP, ASIDE_SWEEP, hearts_anytime=False)
    assert legal(state) == names(KEEP_SWEEP[0])


# --- Face down: what a player sees ------------------------------------------------------


def test_a_player_sees_neither_the_others_cards_nor_the_leftover() -> None:
    """The piles of 6 and the leftover cards lie "face down": swapping cards between P2's hand
    and the leftover changes nothing P1 can see, before or after the split."""
    hands = [KEEP_2P[0] + " " + ASIDE_2P[0], KEEP_2P[1] + " " + ASIDE_2P[1]]
    other = [hands[0], hands[1].replace("2H", "AH")]  # 2H left out instead of AH
    a, b = dealt(2, hands), dealt(2, other)
    assert a.observation(0) == b.observation(0)
    assert a.information_state_key(0) == b.information_state_key(0)
    assert a.observation(1) != b.observation(1)
    a.apply(Split.of(cards(KEEP_2P[0]), cards(ASIDE_2P[0])))
    b.apply(Split.of(cards(KEEP_2P[0]), cards(ASIDE_2P[0])))
    a.apply(Split.of(cards(KEEP_2P[1]), cards(ASIDE_2P[1])))
    b.apply(Split.of(cards(KEEP_2P[1].replace("2H", "AH")), cards(ASIDE_2P[1].replace("2H", "AH"))))
    assert a.information_state_key(0) == b.information_state_key(0)


def test_a_player_knows_their_own_pile_of_six() -> None:
    state = table(2, KEEP_2P, ASIDE_2P)
    assert state.observation(0).aside == state.aside_mask(0)
    assert state.observation(0).hand == state.hand_mask(0)


def test_every_round_begins_with_a_new_split() -> None:
    state = table(2, KEEP_2P, ASIDE_2P, rounds=2)
    finish_round(state)
    state.resolve_chance()
    assert state.observation(0).phase == "split"
    assert [len(state.hand(p)) for p in range(2)] == [13, 13]
    with pytest.raises(GameError):
        state.apply(Play(str(state.hand(state.current_player)[0])))  # a held card, before the split
