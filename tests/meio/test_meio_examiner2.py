"""A second, blind examination of Meio against the rulebook (Meio Rulebook).

Written from the rulebook alone (with the engine's public API), before reading
docs/rules/meio.md, the engine or the first examiner (test_meio_examiner.py): 78 cases,
every one of which agreed with the engine. The cases that repeated a first-examiner case
(same rule, same kind of position, same assertion) were then dropped; what is left adds
something: other ranks and decks, the hearts-broken option across the pick-up and across
rounds, the starter wrapping past the last seat, indistinguishable deals, and the parity
that keeps two players from tying.
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

# Two players: P1 leads six hearts (P2 has none) and loses the seventh trick (2S to AS),
# so P2 wins trick 7 while P1 started the round. Leftover: AH 7C.
KEEP_LATE = ["2H 3H 4H 5H 6H 7H 2S", "AS 5S 6S 7S AD 5D 6D"]
ASIDE_LATE = ["3S 4S 2D 3D 4D 2C", "7D AC 3C 4C 5C 6C"]

# Two players, hearts broken: P1 must lead the 2S, breaks hearts trumping a diamond, and
# keeps the 7H for the second half. Leftover: AC 7C.
KEEP_BROKEN = ["AH 2H 3H 4H 5H 6H 2S", "7S 7D 2C 3C 4C 5C 6C"]
ASIDE_BROKEN = ["7H 3S 4S 2D 3D 4D", "AS 5S 6S AD 5D 6D"]

# Two players: P1 wins all seven tricks of the first half with the seven hearts and
# loses all six of the second (every spade and diamond of P2 outranks P1's). Leftover: AC 7C.
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


@pytest.mark.parametrize(("players", "outside"), [(2, "KH"), (3, "JS"), (3, "QD")])
def test_a_card_outside_the_deck_cannot_be_dealt(players: int, outside: str) -> None:
    """Rulebook: "use cards A-7" / "A-10": no king with two players, no jack or queen with three."""
    if players == 2:
        hands = [KEEP_2P[0] + " " + ASIDE_2P[0], KEEP_2P[1] + " " + ASIDE_2P[1]]
        hands[1] = hands[1].replace("2H", outside)
    else:
        hands = [k + " " + a for k, a in zip(KEEP_3P, ASIDE_3P, strict=True)]
        hands[0] = hands[0].replace("10D", outside)
    with pytest.raises(GameError):
        dealt(players, hands)


def test_no_game_without_players() -> None:
    with pytest.raises(GameError):
        MeioRules(players=0)


def test_a_deal_of_one_card_to_two_players_is_refused() -> None:
    hands = [KEEP_2P[0] + " " + ASIDE_2P[0], KEEP_2P[1] + " " + ASIDE_2P[1]]
    hands[1] = hands[1].replace("2H", "AS")  # 13 cards each, but AS twice
    with pytest.raises(GameError):
        dealt(2, hands)


# --- Phase 2: leading, following and winning a trick -----------------------------------


def test_following_suit_any_card_of_the_suit_will_do_not_only_a_higher_one() -> None:
    state = table(3, KEEP_3P, ASIDE_3P)
    play(state, "9S", "4D")
    assert legal(state) == names("10S 5S")
    play(state, "5S")  # under the 9: legal
    assert winner(state) == 0


def test_the_ten_beats_the_nine() -> None:
    """Rulebook: "the highest card of the lead suit wins" (3 players: the deck's top plain rank)."""
    state = table(3, KEEP_3P, ASIDE_3P)
    play(state, "9S", "4D", "10S")
    assert winner(state) == 2


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


# --- Scoring --------------------------------------------------------------------------


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


# --- Rounds and the end of the game ------------------------------------------------------


def _deal_next(state: MeioState, hands: list[str]) -> None:
    assert state.current_player == CHANCE
    state.apply(Deal.of([cards(h) for h in hands]))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_round_deals_the_whole_deck(players: int) -> None:
    size = {2: 28, 3: 40, 4: 52}[players]
    for rnd in random_game(players, 7, rounds=3):
        every = {c for h in rnd["hands"] for c in h} | rnd["leftover"]
        assert len(every) == size


@pytest.mark.parametrize(
    ("players", "first", "starters"),
    [(2, 1, [1, 0, 1]), (4, 0, [0, 1, 2, 3, 0]), (3, 1, [1, 2, 0, 1])],
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


def test_two_players_never_tie_over_three_rounds() -> None:
    """Totals add the round scores; every player tied on the least total wins."""
    players = 2
    ties = 0
    for seed in range(12):
        outcome = random_game(players, seed, rounds=3)[-1]["outcome"]
        totals = tuple(sum(r[p] for r in outcome.round_scores) for p in range(players))
        assert tuple(outcome.scores) == totals
        best = min(totals)
        assert set(outcome.winners) == {p for p in range(players) if totals[p] == best}
        assert outcome.lower_is_better
        ties += len(outcome.winners) > 1
    # Each round's two scores add up to an odd number (|h - v| + |(7 - h) - (6 - v)|),
    # so over 3 rounds two players never tie.
    assert ties == 0


# --- The hearts-broken reading (an option; the rulebook sets no restriction) -------------


def test_hearts_broken_lets_a_leader_holding_only_hearts_lead_one() -> None:
    state = table(2, KEEP_SWEEP, ASIDE_SWEEP, hearts_anytime=False)
    assert legal(state) == names(KEEP_SWEEP[0])


def test_hearts_broken_in_the_first_half_stay_broken_after_the_pick_up() -> None:
    state = table(2, KEEP_BROKEN, ASIDE_BROKEN, hearts_anytime=False)
    assert legal(state) == names("2S")
    play(state, "2S", "7S", "7D", "AH")  # P1, void in diamonds in hand, trumps: hearts broken
    play(state, "2H", "2C", "3H", "3C", "4H", "4C", "5H", "5C", "6H", "6C")
    assert state.current_player == 0
    assert legal(state) == names(ASIDE_BROKEN[0])  # 7H may lead the eighth trick


def test_hearts_broken_starts_unbroken_again_each_round() -> None:
    state = table(2, KEEP_2P, ASIDE_2P, hearts_anytime=False, rounds=2)
    finish_round(state)  # every heart dealt was played
    _deal_next(state, [k + " " + a for k, a in zip(KEEP_2P, ASIDE_2P, strict=True)])
    for p in range(2):
        state.apply(Split.of(cards(KEEP_2P[p]), cards(ASIDE_2P[p])))
    assert state.current_player == 1  # round 2 starts one seat on
    assert legal(state) == names("4S AC 2C 3C 4C")


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


def test_every_round_begins_with_a_new_split() -> None:
    state = table(2, KEEP_2P, ASIDE_2P, rounds=2)
    finish_round(state)
    state.resolve_chance()
    assert state.observation(0).phase == "split"
    assert [len(state.hand(p)) for p in range(2)] == [13, 13]
    with pytest.raises(GameError):
        state.apply(Play(str(state.hand(state.current_player)[0])))  # a held card, before the split
