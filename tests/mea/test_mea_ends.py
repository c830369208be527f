"""How Méa games end: every way to win or lose, the empty deck, no tiles, board limits, the turn
limit — each case from one sentence of Méa's How to Play (Jacob Worgan's rules page). Written blind
from the rules and the public position builder (``MeaState.position`` through ``at``)."""

from __future__ import annotations

import pytest

from cardbase.games.base import InvalidPosition
from cardbase.games.mea.actions import Shuffle
from cardbase.games.mea.engine import MeaState
from cardbase.games.mea.rules import MeaRules

from .conftest import GIANT, KNIGHT, PAWN, WALL, at, demo, legal_texts, names_on, owner_of, refuses, rules_for

CHECKER = {"a1": 1, "a2": 0, "a3": 1, "b1": 0, "b2": 1, "b3": 0, "c1": 1, "c2": 0, "c3": 1}
"""The default layout: P2 (blue, second) on the corners and the centre, P1 (yellow) on the edges."""


def winners(state: MeaState) -> tuple[int, ...]:
    outcome = state.outcome()
    assert outcome is not None, "the game is over"
    return outcome.winners


def shuffled(rules: MeaRules) -> MeaState:
    state = rules.new_initial_state(0)
    state.apply(Shuffle([range(d.size) for d in rules.decks]))
    return state


# --- 11 cards in hand -----------------------------------------------------------------------------


@pytest.mark.parametrize(("seat", "winner"), [(0, 1), (1, 0)])
def test_an_opening_draw_of_eleven_loses_at_once(seat: int, winner: int) -> None:
    """'Before you start both players draw at least 1 card each (can draw as many as they want, but
    they'll instantaneously lose if they have 11 or more in their hand).'"""
    state = shuffled(rules_for())
    if seat == 1:
        state.apply_text("draw 1")
    state.apply_text("draw 11")
    assert state.is_terminal
    assert winners(state) == (winner,)


def test_an_opening_draw_of_ten_is_allowed_and_zero_is_refused() -> None:
    """'draw at least 1 card each': 0 is refused; 10 is under the 11 that loses."""
    state = shuffled(rules_for())
    refuses(state, "draw 0")
    state.apply_text("draw 10")
    assert not state.is_terminal
    assert state.hand_size(0) == 10


@pytest.mark.parametrize("seat", [0, 1])
def test_drawing_to_eleven_at_the_end_of_a_turn_loses(seat: int) -> None:
    """'If you EVER have 11 cards in your hand, you lose the game immediately' — nine in hand, draw 2."""
    hands = [["Filler"] * 9, []] if seat == 0 else [[], ["Filler"] * 9]
    state = at(hands=hands, active=seat)
    state.apply_text("draw 2")
    assert state.is_terminal
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (1 - seat,)


def test_drawing_to_ten_plays_on() -> None:
    """Ten cards is not eleven: the turn passes."""
    state = at(hands=[["Filler"] * 9, []])
    state.apply_text("draw 1")
    assert not state.is_terminal
    assert state.hand_size(0) == 10


def test_end_of_turn_draw_of_zero_is_refused() -> None:
    """'At the end of your turn you must draw at least 1 card'."""
    refuses(at(), "draw 0")


def test_a_monster_returned_to_a_full_hand_loses_at_once() -> None:
    """'If you happen to flip a tile with an enemy monster on it, the opponent must move it to an
    adjacent enemy tile … (if this is not possible, the monster is returned to the owner's hand)' and
    'If you EVER have 11 cards in your hand, you lose' — a corner with no neighbour left: P2's Pawn
    goes back to a hand of 10."""
    tiles = {k: v for k, v in CHECKER.items() if k not in ("b1", "c2")}
    state = at(
        [KNIGHT],
        [PAWN],
        board=[{"c1": ["Knight"]}, {"c1": ["Pawn"]}],
        hands=[[], ["Filler"] * 9],
        active=1,
        tiles=tiles,
    )
    state.apply_text("draw 1")
    assert state.hand_size(1) == 10 and not state.is_terminal
    state.apply_text("flip c1")
    assert state.is_terminal
    assert winners(state) == (0,)


# --- the empty deck -------------------------------------------------------------------------------


def test_empty_deck_obliterates_a_friendly_tile_instead_of_drawing() -> None:
    """'When you have no cards in your deck, instead of drawing a card at the end of your turn you must
    OBLITERATE a friendly tile.' 'Obliterating: Remove a tile from the board, and any monster(s) on
    top of it.'"""
    state = at([KNIGHT], [], board=[{"a2": ["Knight"]}, {}], decks=[[], None], out=[["Filler"] * 20, []])
    texts = legal_texts(state)
    assert not any(t.startswith("draw") for t in texts)
    assert sorted(t for t in texts if t.startswith("obliterate")) == [
        f"obliterate {t}" for t in ("a2", "b1", "b3", "c2")
    ]
    refuses(state, "draw 1")
    refuses(state, "obliterate b2")  # an enemy tile
    state.apply_text("obliterate a2")
    assert owner_of(state, "a2") is None
    assert state.monsters(0) == [] or not list(state.monsters(0))
    assert state.current_player == 1 and not state.is_terminal


def test_the_last_card_of_the_deck_is_drawn_then_the_next_turn_obliterates() -> None:
    """The deck's last card is drawn like any other; only with 'no cards in your deck' does the end
    of the turn obliterate. Drawing more than the deck holds is refused."""
    state = at(decks=[["Filler"], None], out=[["Filler"] * 19, []])
    refuses(state, "draw 2")
    state.apply_text("draw 1")
    assert not state.is_terminal and state.deck_size(0) == 0
    state.apply_text("draw 1")  # P2's turn
    while state.current_player == 1 or state.phase != "main":
        texts = legal_texts(state)
        state.apply_text("flip none" if "flip none" in texts else texts[-1])
    assert any(t.startswith("obliterate") for t in legal_texts(state))


def test_obliterating_the_last_friendly_tile_loses() -> None:
    """Méa is won by controlling the tiles: a player whose deck is empty and who holds one tile must
    obliterate it and is left with none — the game's default reading: that player loses at once."""
    tiles = {"a1": 1, "a2": 0, "b2": 1}
    state = at(decks=[[], None], out=[["Filler"] * 20, []], tiles=tiles)
    assert legal_texts(state) == ["obliterate a2"]
    state.apply_text("obliterate a2")
    assert state.is_terminal
    assert winners(state) == (1,)


# --- no tiles through a flip ------------------------------------------------------------------------


def test_taking_the_opponents_last_tile_wins() -> None:
    """'When you kill an enemy monster if the tile it was on is now empty and your monster survived:
    Move your monster onto the tile and if it was an enemy tile, flip it.' — P2's last tile."""
    tiles = {"a2": 0, "b2": 1, "c2": 0}
    state = at([GIANT], [PAWN], board=[{"a2": ["Giant"]}, {"b2": ["Pawn"]}], tiles=tiles)
    state.apply_text("attack b2 with Giant@a2")
    assert names_on(state, "b2") == ["Giant"]
    assert owner_of(state, "b2") == 0
    assert state.is_terminal
    assert winners(state) == (0,)


def test_an_attacker_that_dies_does_not_move_in_or_flip() -> None:
    """'If your monster's defence is equal to or lower than the attack of the monster you're
    attacking then your monster is also killed.' — both Knights die, the tile stays P2's."""
    state = at([KNIGHT], [KNIGHT], board=[{"a2": ["Knight"]}, {"b2": ["Knight"]}])
    state.apply_text("attack b2 with Knight@a2")
    assert names_on(state, "b2") == [] and names_on(state, "a2") == []
    assert owner_of(state, "b2") == 1
    assert not state.is_terminal


def test_an_attack_that_cannot_kill_is_refused() -> None:
    """'You may attack monsters that are in adjacent tiles, if you can kill them (if your monster's
    attack is equal to or higher than the other monster's defence)'."""
    state = at([KNIGHT], [WALL], board=[{"a2": ["Knight"]}, {"b2": ["Wall"]}])
    refuses(state, "attack b2 with Knight@a2")


# --- board limits -----------------------------------------------------------------------------------


def test_a_third_monster_on_a_tile_is_refused() -> None:
    """'You can have a maximum of 2 monsters on 1 tile.'"""
    state = at([KNIGHT, KNIGHT, PAWN], [], board=[{"a2": ["Knight", "Knight"]}, {}], hands=[["Pawn"], []])
    refuses(state, "summon Pawn a2")
    with pytest.raises(InvalidPosition):
        at([KNIGHT, KNIGHT, PAWN], [], board=[{"a2": ["Knight", "Knight", "Pawn"]}, {}])


def test_summoning_on_a_tile_with_an_enemy_monster_is_refused() -> None:
    """'You can summon monsters on any tile that you control without an enemy monster on'."""
    state = at([PAWN], [KNIGHT], board=[{}, {"a2": ["Knight"]}], hands=[["Pawn"], []])
    refuses(state, "summon Pawn a2")
    state.apply_text("summon Pawn b1")


# --- mana ---------------------------------------------------------------------------------------------


def test_first_turns_mana_counts_opponents_tiles_plus_monsters_and_the_second_players_extra() -> None:
    """'The amount of mana you have is equal to the number of tiles your opponent controls + the
    number of monsters you control.' 'For the first three turns the player that went second has 1
    EXTRA mana.' — P1: 5 blue tiles; P2: 4 yellow tiles + 1."""
    state = shuffled(rules_for())
    state.apply_text("draw 1")
    state.apply_text("draw 1")
    assert state.mana == 5
    state.apply_text("draw 1")
    while state.phase != "main":
        state.apply_text("flip none")
    assert state.current_player == 1
    assert state.mana == 5


@pytest.mark.parametrize(("turns", "mana"), [((3, 2), 4), ((4, 3), 3)])
def test_minimum_three_mana_and_the_extra_only_three_turns(turns: tuple[int, int], mana: int) -> None:
    """'If you should have less than 3 mana, you instead have 3 mana. (Added before the second
    player's extra mana, so they'd have 4).' — P1 holds one tile, P2 no monster: 1 → 3, +1 while
    it is one of P2's first three turns, not on its fourth."""
    tiles = {"a2": 0, "b2": 1, "a1": 1, "a3": 1}
    state = at(tiles=tiles, active=0, turns_taken=turns, mana=20)
    state.apply_text("draw 1")
    while state.phase != "main":
        state.apply_text("flip none")
    assert state.current_player == 1
    assert state.mana == mana


# --- the turn limit (a project option, not in the rules) ------------------------------------------


def test_turn_limit_more_tiles_wins() -> None:
    """Not a rule: the option max_turns ends a game that would run on; more tiles wins (5 to 4)."""
    state = at(options={"max_turns": 2}, active=1, turns_taken=(1, 1))
    state.apply_text("draw 1")
    assert state.is_terminal
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winners == (1,)
    assert list(outcome.scores) == [4, 5]


def test_turn_limit_with_equal_tiles_is_shared() -> None:
    tiles = {"a2": 0, "b1": 0, "b2": 1, "a1": 1}
    state = at(options={"max_turns": 2}, active=1, turns_taken=(1, 1), tiles=tiles)
    state.apply_text("draw 1")
    assert state.is_terminal
    assert set(winners(state)) == {0, 1}


# --- ends set off by the demo set's abilities (project-made cards, not published Méa cards) --------


def test_a_card_that_draws_to_eleven_in_the_main_phase_loses_at_once() -> None:
    """'If you EVER have 11 cards in your hand, you lose the game immediately' — not only at the end
    of the turn: the demo set's Library Card ('Draw 2 cards.') from a hand of 10."""
    state = at([demo("Library Card")], [], hands=[["Library Card"] + ["Filler"] * 9, []])
    state.apply_text("play Library Card")
    assert state.is_terminal
    assert winners(state) == (1,)


def test_a_monster_returned_to_the_opponents_full_hand_makes_them_lose_on_my_turn() -> None:
    """'If you EVER have 11 cards …': the demo set's Bucket of Cold Water ('Return 1 enemy monster to
    its owner's hand.') on P2, who holds 10."""
    state = at(
        [demo("Bucket of Cold Water")],
        [KNIGHT],
        board=[{}, {"b2": ["Knight"]}],
        hands=[["Bucket of Cold Water"], ["Filler"] * 10],
    )
    state.apply_text("play Bucket of Cold Water")
    assert state.is_terminal
    assert winners(state) == (0,)


@pytest.mark.parametrize(("drawn", "hand"), [(1, 11), (2, 11)])
def test_an_end_of_turn_draw_after_the_draw_can_lose_and_none_follows_a_loss(drawn: int, hand: int) -> None:
    """'At the end of your turn - AFTER you have drawn the card(s).' and '… you lose the game
    immediately and no other abilities activate.' — the demo Grand Librarian Lich ('At the end of
    your turn: Draw 1 card.'): drawing to 10, its card makes 11; drawing to 11, it never draws a 12th."""
    state = at(
        [demo("Grand Librarian Lich")], [], board=[{"a2": ["Grand Librarian Lich"]}, {}], hands=[["Filler"] * 9, []]
    )
    state.apply_text(f"draw {drawn}")
    assert state.is_terminal
    assert state.hand_size(0) == hand
    assert winners(state) == (1,)


def test_obliterating_the_opponents_last_tile_by_an_ability_wins() -> None:
    """'Obliterating: Remove a tile from the board, and any monster(s) on top of it.' — the demo
    Earthquake Elephant ('Obliterate 1 enemy tile adjacent to this monster.') on P2's only tile."""
    state = at([demo("Earthquake Elephant")], [], hands=[["Earthquake Elephant"], []], tiles={"a2": 0, "b2": 1})
    state.apply_text("summon Earthquake Elephant a2")
    assert state.is_terminal
    assert winners(state) == (0,)


@pytest.mark.parametrize(("order", "loser"), [("defender-first", 1), ("attacker-first", 0)])
def test_both_hands_pushed_to_eleven_by_one_attack_the_first_to_draw_loses(order: str, loser: int) -> None:
    """'When killed – AFTER this card has been killed.' and '… lose the game immediately and no other
    abilities activate.' — two demo Dizzy Bats ('When killed: Draw 1 card.') kill each other, both
    players at 10: the first When killed to resolve (the defender's by default; option killed_order)
    loses its player the game and the other never draws."""
    bat = demo("Dizzy Bat")
    state = at(
        [bat],
        [bat],
        board=[{"a2": ["Dizzy Bat"]}, {"b2": ["Dizzy Bat"]}],
        hands=[["Filler"] * 10, ["Filler"] * 10],
        options={"killed_order": order},
    )
    state.apply_text("attack b2 with Dizzy Bat@a2")
    assert state.is_terminal
    assert winners(state) == (1 - loser,)
    assert state.hand_size(loser) == 11 and state.hand_size(1 - loser) == 10


def test_an_ability_drawing_from_an_empty_deck_draws_nothing() -> None:
    """'When you have no cards in your deck, instead of drawing a card at the end of your turn you must
    OBLITERATE' is the end of turn only; an ability's draw from an empty deck cannot activate ('If an
    ability cannot activate when it should … ignore it'): no loss, the turn goes on."""
    state = at([demo("Library Card")], [], hands=[["Library Card"], []], decks=[[], None], out=[["Filler"] * 20, []])
    state.apply_text("play Library Card")
    assert not state.is_terminal
    assert state.hand_size(0) == 0
    assert all(t.startswith("obliterate") for t in legal_texts(state))
