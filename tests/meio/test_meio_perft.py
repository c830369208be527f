"""Perft-like counts: legal play sequences from fixed deals, engine against a slow,
separate reference written here from the rulebook."""

from __future__ import annotations

import random

import pytest

from cardbase.games.base import CHANCE
from cardbase.games.meio.cards import PlayingCard, Suit
from cardbase.games.meio.engine import MeioRules, MeioState


class Reference:
    """Meio's trick play, the plain way: lists of cards, no masks, no tables."""

    def __init__(self, players, hands, asides, leader, tricks_done, ace_high, anytime, hearts_seen):
        self.players = players
        self.hands = [list(h) for h in hands]
        self.asides = [list(a) for a in asides]
        self.leader = leader
        self.tricks_done = tricks_done
        self.ace_high = ace_high
        self.anytime = anytime
        self.hearts_seen = hearts_seen
        self.trick: list[PlayingCard] = []

    def to_play(self):
        return (self.leader + len(self.trick)) % self.players

    def legal(self):
        hand = self.hands[self.to_play()]
        if self.trick:
            same = [c for c in hand if c.suit == self.trick[0].suit]
            return same if same else list(hand)
        if not self.anytime and not self.hearts_seen:
            plain = [c for c in hand if c.suit != Suit.HEARTS]
            if plain:
                return plain
        return list(hand)

    def strength(self, card):
        if card.rank == 1 and self.ace_high:
            return 14
        return card.rank

    def play(self, card):
        """Return what is needed to undo."""
        saved = (
            [list(h) for h in self.hands],
            [list(a) for a in self.asides],
            self.leader,
            self.tricks_done,
            self.hearts_seen,
            list(self.trick),
        )
        self.hands[self.to_play()].remove(card)
        self.trick.append(card)
        if card.suit == Suit.HEARTS:
            self.hearts_seen = True
        if len(self.trick) == self.players:
            hearts = [i for i, c in enumerate(self.trick) if c.suit == Suit.HEARTS]
            candidates = hearts or [i for i, c in enumerate(self.trick) if c.suit == self.trick[0].suit]
            best = max(candidates, key=lambda i: self.strength(self.trick[i]))
            self.leader = (self.leader + best) % self.players
            self.trick = []
            self.tricks_done += 1
            if self.tricks_done == 7:
                self.hands, self.asides = self.asides, [[] for _ in range(self.players)]
        return saved

    def undo(self, saved):
        hands, asides, leader, done, hearts, trick = saved
        self.hands, self.asides, self.leader = hands, asides, leader
        self.tricks_done, self.hearts_seen, self.trick = done, hearts, trick

    def perft(self, depth):
        if depth == 0 or self.tricks_done == 13:
            return 1
        total = 0
        for card in self.legal():
            saved = self.play(card)
            total += self.perft(depth - 1)
            self.undo(saved)
        return total


def engine_perft(state: MeioState, depth: int) -> int:
    if depth == 0 or state.current_player < 0:
        return 1
    total = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply_unchecked(action)
        total += engine_perft(child, depth - 1)
    return total


def position(players: int, seed: int, tricks: int, **options) -> MeioState:
    """A seeded deal, random splits, then ``tricks`` tricks of random play."""
    state = MeioRules(players=players, **options).new_initial_state(seed)
    rng = random.Random(seed)
    state.resolve_chance()
    while state.phase == "split":
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    while len(state.tricks()) < tricks:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


def reference_from(state: MeioState) -> Reference:
    n = state.players
    played_hearts = any(c.suit == Suit.HEARTS for _, cs, _ in state.tricks() for c in cs)
    return Reference(
        n,
        [state.hand(s) for s in range(n)],
        [state.aside(s) for s in range(n)],
        state.current_player,
        len(state.tricks()),
        state.rules.ace_high,
        state.rules.hearts_anytime,
        played_hearts,
    )


CASES = [
    # players, seed, tricks already played, depth in card plays, options
    (2, 1, 0, 8, {}),
    (2, 2, 5, 8, {}),  # crosses the pick-up of the six after the 7th trick
    (2, 3, 10, 6, {"ace_high": False}),
    (3, 4, 0, 6, {}),
    (3, 5, 6, 6, {"hearts_anytime": False}),
    (4, 6, 0, 6, {}),
    (4, 7, 6, 8, {}),  # crosses the pick-up
    (4, 8, 0, 5, {"hearts_anytime": False, "ace_high": False}),
]


@pytest.mark.parametrize(("players", "seed", "tricks", "depth", "options"), CASES)
def test_perft_matches_the_reference(players, seed, tricks, depth, options):
    state = position(players, seed, tricks, **options)
    assert state.current_player != CHANCE
    ref = reference_from(state)
    for d in range(1, depth + 1):
        assert engine_perft(state, d) == ref.perft(d), f"depth {d}"


def test_perft_known_small_values():
    # Opening lead of a fixed 2-player deal: P1 may lead any of 7 cards; P2 follows.
    state = position(2, 1, 0)
    assert [engine_perft(state, d) for d in range(1, 9)] == [7, 10, 60, 192, 960, 2462, 9848, 22480]
