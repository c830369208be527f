"""Action values and their notation."""

from __future__ import annotations

import pickle

import pytest

from cardbase.games.base import Action, InvalidAction
from cardbase.games.meio.actions import Deal, Play, Split, SplitActions, parse_action
from cardbase.games.meio.cards import PlayingCard
from cardbase.games.meio.masks import mask_of
from cardbase.games.meio.rules import MeioRules
from tests.meio.conftest import ASIDE_2P, KEEP_2P, cards, dealt


def test_play_notation_round_trips_for_every_card():
    for card in MeioRules(players=4).deck:
        action = Play(card)
        assert str(action) == f"play {card.notation}"
        assert parse_action(str(action)) is action
        assert parse_action(card.notation) is action
        assert action.card == card
        assert isinstance(action, Action)


def test_plays_are_interned_hashable_and_pickle():
    assert Play("7H") is Play(PlayingCard.parse("7h"))
    assert {Play("7H"): 1}[Play("7H")] == 1
    assert pickle.loads(pickle.dumps(Play("QS"))) is Play("QS")
    assert repr(Play("10D")) == "Play('10D')"


def test_split_and_deal_notation_round_trip():
    split = Split.of(cards(KEEP_2P[0]), cards(ASIDE_2P[0]))
    assert str(split) == "split AS 2S 3S 4H 5H 6D 7C | 5S 6S 7S AD 2D 3D"
    assert parse_action(str(split)) == split
    deal = Deal.of([cards(KEEP_2P[i] + " " + ASIDE_2P[i]) for i in (0, 1)])
    assert parse_action(str(deal)) == deal
    assert str(deal).startswith("deal AS 2S 3S 5S 6S 7S 4H 5H")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("play", "write: play 7H"),
        ("play 7X", "unknown suit"),
        ("lead 7H", "not a Meio action"),
        ("split 7H 8H", "split <7 cards kept> | <6 cards set aside>"),
        ("split 7H 7H | 2C", "7H is written twice"),
        ("deal 7H ZZ / 2C", "deal: not a card"),
        ("", "not a Meio action"),
    ],
)
def test_bad_notation_is_invalid_action(text, message):
    with pytest.raises(InvalidAction, match=message) as e:
        parse_action(text)
    assert isinstance(e.value, ValueError)


def test_in_the_split_the_state_reads_just_the_six_set_aside():
    state = dealt(2, [k + " " + a for k, a in zip(KEEP_2P, ASIDE_2P, strict=True)])
    action = state.parse_action("split " + ASIDE_2P[0])
    assert action == Split.of(cards(KEEP_2P[0]), cards(ASIDE_2P[0]))
    assert state.parse_action("aside " + ASIDE_2P[0]) == action
    assert state.parse_action(str(action)) == action


def test_split_actions_is_a_lazy_sequence_of_every_split():
    hand = mask_of(cards(KEEP_2P[0] + " " + ASIDE_2P[0]))
    splits = SplitActions(hand)
    assert len(splits) == 1716
    listed = list(splits)
    assert len(set(listed)) == 1716
    assert [splits[i] for i in range(0, 1716, 97)] == listed[::97]
    assert splits[-1] == listed[-1]
    assert all(s in splits for s in listed[:50])
    assert Split(hand, 0) not in splits
    with pytest.raises(IndexError):
        splits[1716]


@pytest.mark.parametrize(
    "mask", [-1, -(1 << 60), 1 << 52, (1 << 52) | 1, 1 << 4000], ids=["-1", "-2**60", "2**52", "2**52+1", "2**4000"]
)
def test_a_split_or_deal_whose_masks_are_no_set_of_cards_is_refused_not_a_crash_or_a_hang(mask: int) -> None:
    """A mask with a bit past the 52 cards named a card past the deck (IndexError); a negative one has
    bits without end (its cards were listed forever). Both are no Meio action."""
    from cardbase.games.base import IllegalAction

    state = MeioRules(players=2).new_initial_state(0)
    with pytest.raises(IllegalAction, match="mask of the 52 cards"):
        state.apply(Deal((mask, 0)))
    state = MeioRules(players=2).new_initial_state(0)
    state.apply(state.sample_chance())
    for split in (Split(mask, 0), Split(0, mask)):
        with pytest.raises(IllegalAction, match="mask of the 52 cards") as refused:
            state.apply(split)
        assert refused.value.rule == "not-an-action"
