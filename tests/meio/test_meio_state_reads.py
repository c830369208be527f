"""MeioState's public reads for agents and tests (issue 29): at every decision of seeded random
games they say what each seat's observation shows and what the named reads (``hand``, ``aside``,
``leftover``, ``tricks_won``, ``trick``) name; ``search_copy`` is a copy of its own."""

from __future__ import annotations

import random
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


def _short(hands: list[int], asides: list[int], leftover: int) -> tuple[list[int], list[int], int]:
    hands[1] ^= _lowest(hands[1])
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
        (_short, "P2 holds 7 cards and sets 6 aside as observed"),
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
