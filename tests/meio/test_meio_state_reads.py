"""MeioState's public reads for agents and tests (issue 29): at every decision of seeded random
games they say what each seat's observation shows and what the named reads (``hand``, ``aside``,
``leftover``, ``tricks_won``, ``trick``) name; ``search_copy`` is a copy of its own."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from cardbase.games.base import CHANCE, InvalidPosition
from cardbase.games.meio.engine import FIRST_HALF, MeioRules, MeioState, _deck
from cardbase.games.meio.masks import _SUIT, CARDS, cards_of


def check_reads(state: MeioState) -> None:
    n = state.players
    hands, asides, horizontal, vertical, trick, win_key, tricks_done, keys = state.play_view()
    assert len(hands) == len(asides) == n
    for seat in range(n):
        obs = state.observation(seat)
        assert state.hand_mask(seat) == hands[seat] == obs.hand
        assert state.aside_mask(seat) == asides[seat] == obs.aside
        assert cards_of(hands[seat]) == state.hand(seat) and cards_of(asides[seat]) == state.aside(seat)
    assert cards_of(state.leftover_mask()) == state.leftover()
    assert tuple(zip(horizontal, vertical, strict=True)) == state.tricks_won()
    assert tuple(CARDS[c] for c in trick) == tuple(card for _, card in state.trick())
    assert tricks_done == len(state.tricks()) and state.half == (1 if tricks_done < FIRST_HALF else 2)
    if state.phase == "play":  # every card dealt is held, set aside or played, once
        held = 0
        for seat in range(n):
            assert not held & (hands[seat] | asides[seat])
            held |= hands[seat] | asides[seat]
        played = state.observation(0).played
        assert not held & played and held | played | state.leftover_mask() == _deck(n)[1]
    if trick:  # the key of the card winning the trick on the table
        assert win_key == max(keys[_SUIT[trick[0]]][c] for c in trick)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_public_reads_say_what_the_observations_and_named_reads_show(players: int) -> None:
    rules = MeioRules(players=players)
    for seed in range(4):
        state = rules.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            if state.current_player == CHANCE:
                state.apply(state.sample_chance())
                continue
            check_reads(state)
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        check_reads(state)


def test_a_search_copy_is_its_own_position_with_no_history() -> None:
    state = MeioRules(players=3).new_initial_state(5)
    state.resolve_chance()
    before = state.observation(0)
    copy = state.search_copy()
    assert copy.history == [] and state.history and copy.rng is state.rng
    assert copy.observation(0) == before
    while not copy.round:  # play the copy's round out: the state is untouched
        copy.apply(copy.legal_actions()[0])
    assert state.observation(0) == before and copy.round_scores() and not state.round_scores()


def _parts(state: MeioState) -> tuple[list[int], list[int], int]:
    n = state.players
    return [state.hand_mask(s) for s in range(n)], [state.aside_mask(s) for s in range(n)], state.leftover_mask()


def _lowest(mask: int) -> int:
    return mask & -mask


def _swap_with_leftover(hands: list[int], asides: list[int], leftover: int) -> tuple[list[int], list[int], int]:
    a, b = _lowest(hands[1]), _lowest(leftover)  # P2's card and a leftover card change places: a world still
    hands[1] ^= a | b
    return hands, asides, leftover ^ (a | b)


def _twice(hands: list[int], asides: list[int], leftover: int) -> tuple[list[int], list[int], int]:
    b = _lowest(hands[0])  # P2 holds one of P1's cards (and one of its own less)
    hands[1] = hands[1] ^ _lowest(hands[1]) | b
    return hands, asides, leftover


def _own(hands: list[int], asides: list[int], leftover: int) -> tuple[list[int], list[int], int]:
    a, b = _lowest(hands[0]), _lowest(leftover)
    hands[0] ^= a | b
    return hands, asides, leftover ^ (a | b)


def _text(hands: list[int], asides: list[int], leftover: int) -> tuple[list[Any], list[int], int]:
    return [str(h) for h in hands], asides, leftover  # (an AttributeError inside the check)


def _no_leftover(hands: list[int], asides: list[int], leftover: int) -> tuple[list[int], list[int], Any]:
    return hands, asides, None


def _float(hands: list[int], asides: list[int], leftover: int) -> tuple[list[int], list[Any], int]:
    return hands, [float(a) for a in asides], leftover


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (_text, "masks of the 52 cards' bits"),
        (_no_leftover, "masks of the 52 cards' bits"),
        (_float, "masks of the 52 cards' bits"),
        (_twice, "a card is in two places"),
        (_own, "P1's own hand and pack are the ones observed"),
    ],
)
def test_from_parts_refuses_hidden_cards_that_are_not_a_world_of_the_observation(change, message) -> None:
    state = MeioRules(players=2).new_initial_state(3)
    while state.phase != "play" or state.current_player != 0:
        state.apply(state.sample_chance() if state.current_player == CHANCE else state.legal_actions()[0])
    obs = state.observation(0)
    MeioState.from_parts(obs, *_parts(state))
    MeioState.from_parts(obs, *_swap_with_leftover(*_parts(state)))
    with pytest.raises(InvalidPosition, match=message) as refused:
        MeioState.from_parts(obs, *change(*_parts(state)))
    assert refused.value.rule == "hidden-cards"


# -- the sizes the rulebook fixes for each phase (Game Preparation, Phase 1, Phase 2) ---------------


def _at(players: int, seed: int, stop: Any) -> MeioState:
    """A seeded random game of ``players``, played until ``stop(state)`` holds at a decision."""
    state = MeioRules(players=players).new_initial_state(seed)
    rng = random.Random(seed)
    while state.current_player == CHANCE or not stop(state):
        if state.current_player == CHANCE:
            state.apply(state.sample_chance())
        else:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    return state


def _in_split(state: MeioState) -> bool:
    return state.phase == "split" and sum(state.observation(0).split_done) == 1


def _first_half(state: MeioState) -> bool:
    return state.phase == "play" and len(state.tricks()) == 3 and len(state.trick()) == 1


def _second_half(state: MeioState) -> bool:
    return state.phase == "play" and len(state.tricks()) == 9 and len(state.trick()) == 1


def _move_to_leftover(seat: int, *, aside: bool = False, sizes: tuple[int, int] | None = None) -> Any:
    """One of ``seat``'s cards (from its pack set aside if ``aside``) goes to the cards left aside; the
    observation, if ``sizes``, says ``seat`` holds that many and sets that many aside (a forged one)."""

    def change(obs: Any, hands: list[int], asides: list[int], leftover: int) -> Any:
        zone = asides if aside else hands
        card = _lowest(zone[seat])
        zone[seat] ^= card
        if sizes is not None:
            obs = replace(
                obs,
                hand_sizes=tuple(sizes[0] if s == seat else k for s, k in enumerate(obs.hand_sizes)),
                aside_sizes=tuple(sizes[1] if s == seat else k for s, k in enumerate(obs.aside_sizes)),
            )
        return obs, hands, asides, leftover | card

    return change


def _aside_to_hand(seat: int) -> Any:
    """A card of ``seat``'s pack set aside is held instead (8 and 5), the observation forged to agree."""

    def change(obs: Any, hands: list[int], asides: list[int], leftover: int) -> Any:
        card = _lowest(asides[seat])
        asides[seat] ^= card
        hands[seat] |= card
        obs = replace(
            obs,
            hand_sizes=tuple(k + (s == seat) for s, k in enumerate(obs.hand_sizes)),
            aside_sizes=tuple(k - (s == seat) for s, k in enumerate(obs.aside_sizes)),
        )
        return obs, hands, asides, leftover

    return change


def _forge(**fields: Any) -> Any:
    """The observation says ``fields`` (each computed from it); with none, a card outside the deck
    (the king of spades, in the 2-player deck's A–7) is left aside too."""

    def change(obs: Any, hands: list[int], asides: list[int], leftover: int) -> Any:
        if not fields:
            return obs, hands, asides, leftover | 1 << 12
        return replace(obs, **{k: v(obs) for k, v in fields.items()}), hands, asides, leftover

    return change


def _leftover_to_hand(seat: int) -> Any:
    def change(obs: Any, hands: list[int], asides: list[int], leftover: int) -> Any:
        card = _lowest(leftover)
        hands[seat] |= card
        obs = replace(obs, hand_sizes=tuple(k + (s == seat) for s, k in enumerate(obs.hand_sizes)))
        return obs, hands, asides, leftover ^ card

    return change


WRONG_SIZES = [
    # (what, players, stop, change, rule, message)
    ("a hand of 12 before its split", 4, _in_split, _move_to_leftover(2, sizes=(12, 0)), "deal-13-each", "P3 holds 12"),
    ("a hand of 14 before its split", 3, _in_split, _leftover_to_hand(2), "deal-13-each", "P3 holds 14 cards"),
    ("a split of 8 and 5", 4, _in_split, _aside_to_hand(0), "split-7-6", "P1 holds 8 cards and sets 5 aside"),
    ("a first-half hand one short", 4, _first_half, _move_to_leftover(1), "split-7-6", r"\(given\), not 4 and 6"),
    (
        "a first-half hand one short, observed so",
        4,
        _first_half,
        _move_to_leftover(1, sizes=(3, 6)),
        "split-7-6",
        r"P2 holds 3 cards and sets 6 aside \(observed\), not 4 and 6",
    ),
    ("a pack of 5 set aside", 2, _first_half, _move_to_leftover(0, aside=True, sizes=(3, 5)), "split-7-6", "P1"),
    (
        "a pack still set aside after the pick-up",
        4,
        _second_half,
        _forge(aside_sizes=lambda o: (1, 0, 0, 0)),
        "pick-up",
        "sets 1 aside",
    ),
    ("a second-half hand one short", 3, _second_half, _move_to_leftover(2, sizes=(3, 0)), "pick-up", "P3 holds 3"),
    ("a third card left aside", 2, _first_half, _forge(), "leftover", "3 cards left aside, not 2"),
    ("a trick in the split", 4, _in_split, _forge(trick=lambda o: (0,)), "split-first", "before the first trick"),
    ("a full trick on the table", 2, _first_half, _forge(trick=lambda o: (*o.trick, 1)), "trick", "on the table"),
    ("a trick of one card", 3, _first_half, _forge(tricks=lambda o: (*o.tricks[:2], (0, (1,), 0))), "trick", "13"),
    (
        "a trick won twice",
        4,
        _first_half,
        _forge(horizontal=lambda o: tuple(h + (s == 0) for s, h in enumerate(o.horizontal))),
        "tricks-won",
        "4 horizontal and 0 upright tricks won after 3 tricks",
    ),
    (
        "an upright trick too many",
        4,
        _second_half,
        _forge(vertical=lambda o: tuple(v + (s == 0) for s, v in enumerate(o.vertical))),
        "tricks-won",
        "7 horizontal and 3 upright tricks won after 9 tricks",
    ),
    (
        "one upright trick too soon",
        4,
        _first_half,
        _forge(vertical=lambda o: tuple(v + (s == 0) for s, v in enumerate(o.vertical))),
        "tricks-won",
        "3 horizontal and 1 upright trick won after 3 tricks",  # "1 upright tricks" before
    ),
]


@pytest.mark.parametrize(
    ("players", "stop", "change", "rule", "message"), [c[1:] for c in WRONG_SIZES], ids=[c[0] for c in WRONG_SIZES]
)
def test_from_parts_refuses_sizes_the_rulebook_does_not_give_the_phase(players, stop, change, rule, message) -> None:
    state = _at(players, 7, stop)
    obs = state.observation(0)
    MeioState.from_parts(obs, *_parts(state))  # the position as played is accepted
    with pytest.raises(InvalidPosition, match=message) as refused:
        MeioState.from_parts(*change(obs, *_parts(state)))
    assert refused.value.rule == rule


@pytest.mark.parametrize("players", [2, 3, 4])
def test_from_parts_accepts_every_decision_a_random_game_reaches(players: int) -> None:
    """At every decision of seeded random games, each seat's observation with the cards as they lie, and
    with a deal of the hidden cards by the search agents' sampler, is accepted and shows the same."""
    from cardbase.games.meio.agents import card_weights, sample_hidden

    rules = MeioRules(players=players)
    checked = 0
    for seed in range(3):
        state = rules.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            if state.current_player == CHANCE:
                state.apply(state.sample_chance())
                continue
            for seat in range(players):
                obs = state.observation(seat)
                assert MeioState.from_parts(obs, *_parts(state)).observation(seat) == obs
                sampled = sample_hidden(obs, rng, card_weights(players, rules.ace_high))
                assert MeioState.from_parts(obs, *sampled).observation(seat) == obs
                checked += 1
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    assert checked > 100 * players
