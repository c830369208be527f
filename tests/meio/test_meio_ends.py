"""How Meio rounds and games end and how they are scored, at 2, 3 and 4 players, each case from one
sentence of the Meio Rulebook. Written blind (from the rulebook and the public set-up helpers only);
whole games are played by a seeded random walk and every figure is recomputed here from the trick
log, never read back from the engine's own totals."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardbase.games.base import CHANCE, IllegalAction
from cardbase.games.meio.actions import Deal
from cardbase.games.meio.cards import PlayingCard
from cardbase.games.meio.engine import MeioState
from cardbase.games.meio.rules import MeioRules

from .conftest import cards, dealt

DECK_RANKS = {2: range(1, 8), 3: range(1, 11), 4: range(1, 14)}
SEEDS = (1, 2, 3)


def ace_high_key(card: PlayingCard) -> int:
    return 14 if card.rank == 1 else card.rank


def trick_winner(leader: int, played: tuple[PlayingCard, ...], players: int) -> int:
    """'If one or more hearts (trump cards) are played, the highest heart wins. Otherwise, the
    highest card of the lead suit wins.' (ace high, the game's default)."""
    hearts = [i for i, c in enumerate(played) if str(c.suit) == "H"]
    lead = played[0].suit
    pool = hearts or [i for i, c in enumerate(played) if c.suit == lead]
    best = max(pool, key=lambda i: ace_high_key(played[i]))
    return (leader + best) % players


def walk(players: int, seed: int, stop_round: int | None = None, **options: Any) -> MeioState:
    """A game played by random legal actions (stopped when ``stop_round`` begins)."""
    state = MeioRules(players=players, **options).new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal:
        if stop_round is not None and state.round >= stop_round:
            break
        if state.current_player == CHANCE:
            state.apply(state.sample_chance())
            continue
        state.apply(rng.choice(list(state.legal_actions())))
    return state


def finished_rounds(players: int, seed: int) -> tuple[MeioState, list[tuple[Any, ...]]]:
    """A whole game and, per round, its 13 tricks (leader, cards, winner) as the engine logged them,
    the last trick of each round taken from the state just before it closed."""
    state = MeioRules(players=players).new_initial_state(seed)
    rng = random.Random(seed)
    rounds: list[tuple[Any, ...]] = []
    while not state.is_terminal:
        if state.current_player == CHANCE:
            state.apply(state.sample_chance())
            continue
        shadow = state.clone()
        action = rng.choice(list(state.legal_actions()))
        state.apply(action)
        if state.round != shadow.round or state.is_terminal:
            # the round's last card: rebuild the last trick from the shadow
            last_cards = (*[c for _, c in shadow.trick()], *_played(shadow, action))
            leader = shadow.trick()[0][0] if shadow.trick() else shadow.current_player
            rounds.append((*shadow.tricks(), (leader, tuple(last_cards), None)))
    return state, rounds


def _played(shadow: MeioState, action: object) -> list[PlayingCard]:
    text = shadow.action_text(action)
    return [PlayingCard.parse(text.split()[1])]


# --- Game Preparation ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", SEEDS)
def test_deck_and_deal_sizes_per_player_count(players: int, seed: int) -> None:
    """'For 2 players, use cards A-7 of each suit (28 cards). For 3 players, use cards A-10 … (40
    cards). For 4 players, use all cards (52 cards).' 'deal 13 cards to each player. In 2 and 3
    player games, there will be cards left over (2 and 1, respectively)'."""
    state = MeioRules(players=players).new_initial_state(seed)
    state.apply(state.sample_chance())
    hands = [state.hand(p) for p in range(players)]
    assert [len(h) for h in hands] == [13] * players
    leftover = state.leftover()
    assert len(leftover) == {2: 2, 3: 1, 4: 0}[players]
    every = [c for h in hands for c in h] + list(leftover)
    assert len(set(every)) == len(every) == {2: 28, 3: 40, 4: 52}[players]
    assert {c.rank for c in every} == set(DECK_RANKS[players])
    assert {str(c.suit) for c in every} == {"S", "H", "D", "C"}


def test_two_player_deal_with_an_eight_is_refused() -> None:
    """'For 2 players, use cards A-7 of each suit': an 8 is not in the deck."""
    hands = ["AS 2S 3S 4S 5S 6S 7S AH 2H 3H 4H 5H 8H", "6H 7H AD 2D 3D 4D 5D 6D 7D AC 2C 3C 4C"]
    with pytest.raises(IllegalAction):
        dealt(2, hands)


@pytest.mark.parametrize(("keep", "aside"), [(8, 5), (6, 7), (13, 0)])
def test_split_is_seven_and_six(keep: int, aside: int) -> None:
    """'split their hand into two parts: one with 7 cards, and one with 6 cards'."""
    hands = ["AS 2S 3S 4S 5S 6S 7S AH 2H 3H 4H 5H 6H", "7H AD 2D 3D 4D 5D 6D 7D AC 2C 3C 4C 5C"]
    state = dealt(2, hands)
    mine = cards(hands[0])
    with pytest.raises(IllegalAction):
        state.apply(
            state.parse_action("split " + " ".join(map(str, mine[:keep])) + " | " + " ".join(map(str, mine[keep:])))
        )


# --- The Tricks and the halves ------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seventh_trick_empties_the_hand_and_the_six_are_picked_up(players: int) -> None:
    """'After the seventh card is played, players must have no cards in their hand. They pick up the
    pile of 6 cards that had been set aside'."""
    state = MeioRules(players=players).new_initial_state(11)
    rng = random.Random(11)
    while len(state.tricks()) < 7:
        if state.current_player == CHANCE:
            state.apply(state.sample_chance())
        else:
            state.apply(rng.choice(list(state.legal_actions())))
    assert [len(state.hand(p)) for p in range(players)] == [6] * players
    assert [len(state.aside(p)) for p in range(players)] == [0] * players
    assert state.half == 2


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", SEEDS)
def test_round_scores_are_the_difference_of_horizontal_and_vertical_tricks(players: int, seed: int) -> None:
    """'Each player evaluates the difference between the horizontal tricks (won in the first half)
    and vertical tricks (won in the second half). This value is your score, regardless of which
    number is higher.' — recomputed from every trick's cards; 13 tricks a round, each won by one."""
    state, rounds = finished_rounds(players, seed)
    assert len(rounds) == 3
    outcome = state.outcome()
    assert outcome is not None
    for r, log in enumerate(rounds):
        assert len(log) == 13
        assert all(len(t[1]) == players for t in log)
        horizontal = [0] * players
        vertical = [0] * players
        leader = log[0][0]
        for k, (logged_leader, played, _) in enumerate(log):
            assert logged_leader == leader, "the winner leads the next trick"
            winner = trick_winner(leader, played, players)
            (horizontal if k < 7 else vertical)[winner] += 1
            leader = winner
        expected = tuple(abs(h - v) for h, v in zip(horizontal, vertical, strict=True))
        assert tuple(outcome.round_scores[r]) == expected


@pytest.mark.parametrize("players", [2, 3, 4])
def test_winner_of_the_seventh_trick_leads_the_eighth(players: int) -> None:
    """'Then they lead the next trick.' / 'the game continues normally' after the pick-up."""
    for seed in SEEDS:
        _state, rounds = finished_rounds(players, seed)
        for log in rounds:
            seventh = log[6]
            assert log[7][0] == trick_winner(seventh[0], seventh[1], players)


# --- Next Round and End of the Game -------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_starting_player_moves_left_each_round(players: int) -> None:
    """'The starting player is the player to the left of the starting player from the previous
    round.' (seats in play order: the next seat)."""
    _state, rounds = finished_rounds(players, 5)
    assert [log[0][0] for log in rounds] == [0, 1 % players, 2 % players]


@pytest.mark.parametrize("players", [2, 3])
def test_cards_left_out_return_to_the_next_deal(players: int) -> None:
    """'Shuffle all the cards (don't forget the ones left out in 2 and 3 players)': the second deal
    may hand out a card that was left aside in the first."""
    state = MeioRules(players=players).new_initial_state(3)
    rng = random.Random(3)
    state.apply(state.sample_chance())
    left_out = set(state.leftover())
    while state.round == 0:
        if state.current_player == CHANCE:
            break
        state.apply(rng.choice(list(state.legal_actions())))
    assert state.current_player == CHANCE
    deck = sorted({c for c in _full_deck(players)}, key=lambda c: (str(c.suit), c.rank))
    rest = [c for c in deck if c not in left_out]
    hands = [list(left_out) + rest[: 13 - len(left_out)]]
    pool = rest[13 - len(left_out) :]
    for _ in range(players - 1):
        hands.append(pool[:13])
        pool = pool[13:]
    state.apply(Deal.of(hands))
    assert left_out <= set(state.hand(0))


def _full_deck(players: int) -> list[PlayingCard]:
    return [PlayingCard.parse(f"{r if r > 1 else 'A'}{s}") for s in "SHDC" for r in DECK_RANKS[players]]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", SEEDS)
def test_game_ends_after_three_rounds_least_points_wins(players: int, seed: int) -> None:
    """'After 3 rounds, the player with the least points is the winner!' — the game is not over
    after two rounds; after three, the totals are the rounds' sums and every seat at the least
    total shares the victory ('Or share the victory')."""
    two = walk(players, seed, stop_round=2)
    assert not two.is_terminal and two.outcome() is None
    state, _rounds = finished_rounds(players, seed)
    outcome = state.outcome()
    assert state.is_terminal and outcome is not None
    assert outcome.lower_is_better
    totals = [sum(r[p] for r in outcome.round_scores) for p in range(players)]
    assert list(outcome.scores) == totals
    least = min(totals)
    assert set(outcome.winners) == {p for p in range(players) if totals[p] == least}
    assert list(state.legal_actions()) == []


def test_a_tie_for_least_shares_the_victory() -> None:
    """'If there is a tie, … (Or share the victory, if you find it easier.)' — found by walking
    seeds until a game ends tied for least; every tied seat is a winner. (Three players: with two,
    7 + 6 tricks make the two seats' scores differ by an odd number each round, so three rounds
    never tie.)"""
    for seed in range(200):
        state = walk(3, seed)
        outcome = state.outcome()
        assert outcome is not None
        least = min(outcome.scores)
        tied = {p for p in range(3) if outcome.scores[p] == least}
        if len(tied) > 1:
            assert set(outcome.winners) == tied
            assert outcome.shared
            return
    pytest.fail("no three-player game tied for least in 200 seeds")


def test_two_player_scores_never_tie() -> None:
    """Scoring with 2 players: 7 horizontal and 6 vertical tricks in all, so the seats' round scores
    |d| and |1 - d| always differ — a game never ends in a shared victory."""
    for seed in range(30):
        outcome = walk(2, seed).outcome()
        assert outcome is not None
        assert all((a - b) % 2 == 1 for a, b in outcome.round_scores)
        assert len(outcome.winners) == 1
