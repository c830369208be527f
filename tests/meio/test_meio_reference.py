"""The engine against an independent reading of the *Meio* rulebook (``meio_reference.py``), over
seeded random games for 2, 3 and 4 players and every rules option: at every step the same player
acts, the legal actions are the same set, an action outside it is refused, each trick goes to the
same player; at the end, the same round scores, totals and winners. The two share only the
notation: the engine's actions are read as text, the reference's moves are given to it as text."""

from __future__ import annotations

import itertools
import json
import random
import re

import pytest

from cardbase.games.base import CHANCE, SPECTATOR, TERMINAL, IllegalAction, Outcome
from cardbase.games.meio.engine import MeioState
from cardbase.games.meio.masks import cards_of
from cardbase.games.meio.rules import MeioRules
from cardbase.sim.boards import board_view
from tests.meio.meio_reference import Reference, deck, read, write

OPTIONS = [
    {"players": p, "ace_high": ace, "hearts_anytime": anytime, "first_player": first}
    for p in (2, 3, 4)
    for ace, anytime in itertools.product((True, False), repeat=2)
    for first in range(p)
] + [  # the other leader of the second half, with a starter other than P1 and rounds that move it on
    {"players": p, "second_half_leader": "starter", "first_player": p - 1, "hearts_anytime": anytime}
    for p in (2, 3, 4)
    for anytime in (True, False)
]
GAMES_PER_OPTION = 2
SPLITS_COMPARED = 1
"""Splits are 1,716 per hand: the whole set is compared at this many split decisions per game;
at the others, its size and every split the engine lists are checked against the reference's."""
OUT_OF_TURN_SHARE = 0.3
"""The share of split decisions at which another player, not split yet, splits first."""
SEEN_SHARE = 0.1
"""The share of decisions at which what every seat is shown is checked."""


def _seed(options: dict[str, object], game: int) -> int:
    return 1000 * game + sum(ord(ch) for ch in repr(sorted(options.items())))


def play_both(options: dict[str, object], seed: int) -> tuple[Reference, Outcome]:
    """One seeded random game on the engine and on the reference, compared at every step."""
    rules = MeioRules(**options)  # type: ignore[arg-type]
    state = rules.new_initial_state(seed)
    ref = Reference(**options)  # type: ignore[arg-type]
    rng = random.Random(seed)
    full_split_checks = 0
    while True:
        if state.current_player == CHANCE:
            assert ref.to_act == "chance"
            deal = state.sample_chance()
            for seat in (*range(ref.players), SPECTATOR):  # the log says a deal, never a card
                assert not _cards_named(state.action_text(deal, viewer=seat), deck(ref.players))
            text = str(deal)
            ref.apply(read(text))
            state.apply(rules.parse_action(text))
            continue
        if state.current_player == TERMINAL:
            assert ref.to_act == "over"
            break
        assert state.current_player == ref.to_act, (state.current_player, ref.to_act)
        legal = state.legal_actions()
        splitting = ref.splits < ref.players
        if not splitting or full_split_checks < SPLITS_COMPARED:
            expected = ref.legal()
            assert {read(str(a)) for a in legal} == expected
            assert len(legal) == len(expected)
            full_split_checks += splitting
            choice = rng.choice(sorted(expected, key=write))
        else:
            assert len(legal) == ref.split_count()
            for i in rng.sample(range(len(legal)), 40):
                assert ref.is_legal(read(str(legal[i])))
            choice = read(str(legal[rng.randrange(len(legal))]))
        waiting = [s for s in range(ref.players) if s != ref.to_act and s not in ref.split_seats]
        if splitting and waiting and rng.random() < OUT_OF_TURN_SHARE:  # another player splits first
            seat = rng.choice(waiting)
            hand = sorted(ref.hands[seat])
            aside = frozenset(rng.sample(hand, 6))
            choice = ("split", frozenset(hand) - aside, aside)
            assert state.actor(state.parse_action(write(choice))) == seat
        if rng.random() < SEEN_SHARE:
            _check_what_each_seat_sees(state, ref)
        if splitting:  # the others' log says that the player split, not how
            move = state.parse_action(write(choice))
            owner = ref.split_owner(choice)
            for seat in (*range(ref.players), SPECTATOR):
                if seat != owner:
                    assert not _cards_named(state.action_text(move, viewer=seat), deck(ref.players))
        refused = _an_illegal_move(ref, splitting, rng)
        assert not ref.is_legal(read(refused))
        with pytest.raises(IllegalAction):
            state.apply(state.parse_action(refused))
        tricks_before = ref.tricks_done
        state.apply(state.parse_action(write(choice)))
        ref.apply(choice)
        if not splitting and (ref.tricks_done != tricks_before or ref.to_act in ("chance", "over")):
            assert [w for _, _, w in state.tricks()] == ref.trick_winners
    outcome = state.outcome()
    assert outcome is not None
    assert [list(r) for r in outcome.round_scores] == [list(r) for r in ref.round_scores]
    assert list(outcome.scores) == ref.totals
    assert tuple(outcome.winners) == ref.winners()
    assert outcome.shared == (len(ref.winners()) > 1)
    return ref, outcome


def _cards_named(text: str, cards: list[str]) -> set[str]:
    """The cards of ``cards`` that ``text`` names, as a code (``7H``) or a label (``7♥``)."""
    symbols = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    words = set(re.findall(r"\b([0-9AJQK]{1,2}[SHDC♠♥♦♣])(?![A-Za-z0-9])", text))
    return {c for c in cards if c in words or c[:-1] + symbols[c[-1]] in words}


def _check_what_each_seat_sees(state: MeioState, ref: Reference) -> None:
    """What a seat (or a spectator) is shown — its observation's cards, the terminal's table and
    the browser's board — names no card face down to it: another player's hand or pack of 6, or
    the cards left aside; and it shows the seat's own hand and pack as the reference has them."""
    for seat in (*range(ref.players), SPECTATOR):
        hidden = set(ref.left_aside)
        for other in range(ref.players):
            if other != seat:
                hidden |= ref.hands[other] | ref.packs[other]
        obs = state.observation(seat)
        if seat != SPECTATOR:
            assert {c.notation for c in obs.hand_cards} == ref.hands[seat]
            assert {c.notation for c in obs.aside_cards} == ref.packs[seat]
        shown = " ".join(c.notation for c in (*obs.hand_cards, *obs.aside_cards, *cards_of(obs.dealt | obs.played)))
        board = json.dumps(board_view("meio", obs), ensure_ascii=False)
        assert not _cards_named(shown, sorted(hidden)), seat
        assert not _cards_named(obs.describe(), sorted(hidden)), seat
        assert not _cards_named(" ".join(re.findall(r'"(?:code|label)": "([^"]+)"', board)), sorted(hidden)), seat
        # the piles of tricks are face down, but who won how many, in which half, is on the table
        assert list(obs.horizontal) == ref.horizontal and list(obs.vertical) == ref.vertical


def _an_illegal_move(ref: Reference, splitting: bool, rng: random.Random) -> str:
    """A move the reference says is not legal now: a card not playable (held or not), or in the
    split a division other than 7 and 6."""
    seat = ref.to_act
    assert isinstance(seat, int)
    if splitting:
        hand = sorted(ref.hands[seat])
        rng.shuffle(hand)
        cut = rng.choice([5, 7, 8])
        return f"split {' '.join(hand[cut:])} | {' '.join(hand[:cut])}"
    playable = {a[1] for a in ref.legal()}
    others = [c for c in deck(ref.players) if c not in playable]
    held = [c for c in others if c in ref.hands[seat] or c in ref.packs[seat]]
    return "play " + rng.choice(held if held and rng.random() < 0.7 else others)


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_engine_agrees_with_the_reference(options):
    for game in range(GAMES_PER_OPTION):
        play_both(options, _seed(options, game))


@pytest.mark.parametrize("rounds", [1, 2, 5])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_engine_agrees_with_the_reference_for_other_round_counts(players, rounds):
    ref, outcome = play_both({"players": players, "rounds": rounds}, 77 * rounds + players)
    assert len(outcome.round_scores) == len(ref.round_scores) == rounds


def test_the_games_compared_reach_the_cases_that_matter():
    """The random games cover what the rules single out: shared victories, hearts led, a player
    without the led suit trumping or discarding, and a second half led by whoever won trick 7."""
    seen = {"shared": 0, "lead heart": 0, "trump": 0, "discard": 0, "7th winner not starter": 0}
    for game in range(6):
        options = {"players": 3 + game % 2}
        ref = Reference(**options)
        rules = MeioRules(**options)
        state = rules.new_initial_state(game)
        rng = random.Random(game)
        while state.current_player != TERMINAL:
            if state.current_player == CHANCE:
                text = str(state.sample_chance())
                ref.apply(read(text))
                state.apply(rules.parse_action(text))
                continue
            if ref.splits < ref.players:
                hand = sorted(ref.hands[ref.to_act])
                aside = frozenset(rng.sample(hand, 6))
                choice = ("split", frozenset(hand) - aside, aside)
            else:
                choice = rng.choice(sorted(ref.legal(), key=write))
            if choice[0] == "play":
                seat = ref.to_act
                if not ref.trick and choice[1].endswith("H"):
                    seen["lead heart"] += 1
                if ref.trick and not choice[1].endswith(ref.trick[0][1][-1]):
                    seen["trump" if choice[1].endswith("H") else "discard"] += 1
                if ref.tricks_done == 7 and not ref.trick and seat != ref.start:
                    seen["7th winner not starter"] += 1
            state.apply(state.parse_action(write(choice)))
            ref.apply(choice)
        seen["shared"] += len(ref.winners()) > 1
    assert all(seen.values()), seen
