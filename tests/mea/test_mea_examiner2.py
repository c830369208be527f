"""A second examiner's scenarios for Méa, written from the rulebook's text before reading the engine,
its documentation or the first examiner's tests; only those the first examiner
(``test_mea_examiner.py``) does not already check the same way are kept here.

Each test quotes the sentence of the rulebook (*Méa: The Tiled Kingdom — How to Play*) it checks.
Positions are built with ``MeaState.position``; every rule is exercised through ``apply``.
Default layout: P1 (yellow, seat 0) b1 a2 c2 b3; P2 (blue, seat 1) a1 c1 b2 a3 c3.
"""

from __future__ import annotations

import pytest

from cardbase.games.mea.codes import BOARD, END_HAND, HAND, OUT
from tests.mea.conftest import (
    GIANT,
    KNIGHT,
    PAWN,
    WALL,
    assist,
    at,
    hand_names,
    legal_texts,
    monster,
    names_on,
    owner_of,
    refuses,
    tile,
)

BRICK = monster("Brick", 1, 2, 9)  # weak blow, hard to kill
SHIELD = monster("Shield", 1, 0, 9)
THREE = monster("Three", 1, 0, 3)  # defence 3, no attack
SPEAR = monster("Spear", 1, 4, 1)


# --- deck building ---------------------------------------------------------------------------


@pytest.mark.parametrize(("size", "valid"), [(17, False), (18, True), (40, True), (41, False)])
def test_ex2_01_deck_size_bounds_are_inclusive(database, size: int, valid: bool) -> None:
    """Decks will consist of anywhere between 18-40 cards."""
    from cardbase.decks.service import resolve_text, validate_resolved
    from cardbase.decks.text import parse_text

    resolved = resolve_text(database, parse_text(f"game: mea\n{size} Crumb Goblin\n", "t.txt"))
    report, _ = validate_resolved(resolved, None, None)
    errors = [p.code for p in report.problems if p.severity == "error"]
    assert report.valid is valid and errors == ([] if valid else ["deck-size"])


# --- ending the turn ---------------------------------------------------------------------------


def test_ex2_02_an_end_of_turn_draw_to_exactly_ten_goes_on():
    """If you EVER have 11 cards in your hand, you lose the game immediately (ten is not eleven)"""
    state = at([KNIGHT], [KNIGHT], hands=(["Filler"] * 8, []))
    state.apply_text("draw 2")
    assert not state.is_terminal and state.hand_size(0) == 10 and state.active == 1


def test_ex2_03_with_cards_in_the_deck_the_turn_cannot_end_by_obliterating():
    """When you have no cards in your deck, instead of drawing a card at the end of your turn you must OBLITERATE a
    friendly tile."""
    state = at([KNIGHT], [KNIGHT])
    assert state.deck_size(0) > 0
    assert not [a for a in legal_texts(state) if a.startswith("obliterate")]
    refuses(state, "obliterate b1")
    assert tile("b1") in state.tiles()


# --- moving ----------------------------------------------------------------------------------


def test_ex2_04_moving_onto_an_enemy_tile_does_not_flip_it_the_next_start_of_turn_may():
    """Flipping: ... At the start of your turn you may flip ONE enemy tile that has a monster belonging to you on
    it. (A move is not a kill: only an attack's move-in flips at once; the flip is no action of the monster.)"""
    state = at([KNIGHT], [KNIGHT], board=({"b1": ["Knight"]}, {}))
    state.apply_text("move Knight@b1 a1")
    assert names_on(state, "a1") == ["Knight"] and owner_of(state, "a1") == 1
    state.apply_text("draw 1")
    assert owner_of(state, "a1") == 1  # still P2's during P2's turn
    state.apply_text("draw 1")
    assert state.active == 0 and "flip a1" in legal_texts(state)
    state.apply_text("flip a1")
    assert owner_of(state, "a1") == 0
    state.apply_text("move Knight@a1 a2")  # the flip spent none of the Knight's action


def test_ex2_05_a_monster_that_moved_acts_again_on_its_next_turn():
    """your monsters can EITHER move once OR attack once on your turn. (once on each of your turns)"""
    state = at([KNIGHT], [KNIGHT], board=({"b1": ["Knight"]}, {}))
    state.apply_text("move Knight@b1 a1")
    refuses(state, "move Knight@a1 b1")
    state.apply_text("draw 1")
    state.apply_text("draw 1")
    state.apply_text("flip none")
    state.apply_text("move Knight@a1 b1")
    assert names_on(state, "b1") == ["Knight"]


def test_ex2_06_diagonal_tiles_are_not_adjacent_for_moves_or_attacks():
    """You may attack monsters that are in adjacent tiles (a 3 by 3 grid: adjacent tiles share an edge)"""
    state = at([KNIGHT], [PAWN], board=({"b2": ["Knight"]}, {"a1": ["Pawn"]}))
    refuses(state, "attack a1 with Knight@b2")  # a1 is diagonal to b2
    refuses(state, "move Knight@b2 c3")  # diagonal, empty
    assert not [a for a in legal_texts(state) if a.startswith("attack")]
    state.apply_text("move Knight@b2 c2")  # shares an edge


def test_ex2_07_no_move_off_the_board_or_into_a_removed_tiles_place():
    """Destroying: Remove a tile from the board (a removed tile's place holds no monster)"""
    tiles = {"b1": 0, "a2": 0, "c2": 0, "b3": 0, "a1": 1, "c1": 1, "a3": 1, "c3": 1}  # b2 removed
    state = at([KNIGHT], [PAWN], board=({"b1": ["Knight"]}, {"c3": ["Pawn"]}), tiles=tiles)
    refuses(state, "move Knight@b1 b2")
    refuses(state, "move Knight@b1 b0")
    assert sorted(a for a in legal_texts(state) if a.startswith("move")) == ["move Knight@b1 a1", "move Knight@b1 c1"]


def test_ex2_08_a_monster_summoned_this_turn_may_move():
    """You can summon monsters on any tile that you control without an enemy monster on, but they move or attack
    alone on this turn."""
    state = at([KNIGHT], [KNIGHT], hands=(["Knight"], []))
    state.apply_text("summon Knight b1")
    state.apply_text("move Knight@b1 a1")
    assert names_on(state, "a1") == ["Knight"]
    refuses(state, "move Knight@a1 b1")


# --- attacking -------------------------------------------------------------------------------


def test_ex2_09_an_attack_is_not_split_between_two_defenders():
    """which attacks every monster on the tile (each defender meets the whole attack)"""
    state = at([KNIGHT], [THREE, THREE], board=({"b1": ["Knight"]}, {"a1": ["Three", "Three"]}))
    state.apply_text("attack a1 with Knight@b1")  # 3 >= 3 for each; retaliation 0 + 0
    assert names_on(state, "a1") == ["Knight"] and owner_of(state, "a1") == 0


def test_ex2_10_a_monster_does_not_attack_monsters_on_its_own_tile():
    """You may attack monsters that are in adjacent tiles"""
    state = at([GIANT], [PAWN], board=({"b2": ["Giant"]}, {"b2": ["Pawn"]}))
    refuses(state, "attack b2 with Giant@b2")
    assert not [a for a in legal_texts(state) if a.startswith("attack b2")]


def test_ex2_11_a_combined_attack_needs_both_monsters_adjacent_to_the_tile():
    """If you have two monsters adjacent to the same tile, you can attack with both of them simultaneously"""
    state = at([BRICK, BRICK], [KNIGHT], board=({"b1": ["Brick"], "c2": ["Brick"]}, {"a1": ["Knight"]}))
    refuses(state, "attack a1 with Brick@b1 + Brick@c2")  # c2 does not touch a1
    assert not [a for a in legal_texts(state) if a.startswith("attack a1")]


def test_ex2_12_a_monster_that_has_moved_cannot_join_a_combined_attack():
    """(if both can attack or if one can attack and one was summoned this turn); your monsters can EITHER move once
    OR attack once on your turn."""
    state = at([BRICK, BRICK], [KNIGHT], board=({"b1": ["Brick"], "a3": ["Brick"]}, {"a1": ["Knight"]}))
    state.apply_text("move Brick@a3 a2")  # now next to a1, its action spent
    refuses(state, "attack a1 with Brick@a2 + Brick@b1")
    assert names_on(state, "a1") == ["Knight"]


def test_ex2_13_a_monster_that_has_attacked_cannot_join_a_combined_attack():
    """(if both can attack or if one can attack and one was summoned this turn)"""
    state = at(
        [BRICK, BRICK],
        [KNIGHT, PAWN, SHIELD],
        board=({"b1": ["Brick"], "a2": ["Brick"]}, {"a1": ["Knight"], "b2": ["Pawn", "Shield"]}),
    )
    state.apply_text("attack b2 with Brick@b1")  # kills the Pawn; the Shield stays, so does the Brick
    assert names_on(state, "b1") == ["Brick"] and names_on(state, "b2") == ["Shield"]
    refuses(state, "attack a1 with Brick@b1 + Brick@a2")


def test_ex2_14_at_most_two_monsters_attack_together():
    """If you have two monsters adjacent to the same tile, you can attack with both of them simultaneously"""
    state = at(
        [PAWN, PAWN, PAWN],
        [KNIGHT],
        board=({"b1": ["Pawn", "Pawn"], "a2": ["Pawn"]}, {"a1": ["Knight"]}),
    )
    refuses(state, "attack a1 with Pawn@b1#1 + Pawn@b1#2 + Pawn@a2")
    assert names_on(state, "a1") == ["Knight"]


def test_ex2_15_a_kill_on_a_tile_where_your_own_monster_still_stands_leaves_the_attacker_home():
    """When you kill an enemy monster if the tile it was on is now empty and your monster survived: Move your monster
    onto the tile ... If there is still a monster on the tile, your monster must stay on the tile it attacked from."""
    # P2's b2 holds P1's Pawn and P2's Wall; P1's Giant kills the Wall: the Pawn is still there.
    state = at([GIANT, PAWN], [WALL], board=({"b1": ["Giant"], "b2": ["Pawn"]}, {"b2": ["Wall"]}))
    state.apply_text("attack b2 with Giant@b1")
    assert names_on(state, "b2") == ["Pawn"] and names_on(state, "b1") == ["Giant"]
    assert owner_of(state, "b2") == 1  # not flipped by the attack (the start of P1's next turn may)


def test_ex2_16_the_one_start_flip_does_not_limit_flips_by_attacks():
    """At the start of your turn you may flip ONE enemy tile ...; When you kill an enemy monster ... Move your
    monster onto the tile and if it was an enemy tile, flip it."""
    state = at(
        [KNIGHT, KNIGHT],
        [PAWN, PAWN],
        board=({"a1": ["Knight"], "b1": ["Knight"]}, {"c1": ["Pawn"]}),
        active=1,
        turns_taken=(1, 1),
    )
    state.apply_text("draw 1")  # P2 ends; P1's turn starts
    state.apply_text("flip a1")
    state.apply_text("attack c1 with Knight@b1")
    assert owner_of(state, "a1") == 0 and owner_of(state, "c1") == 0 and names_on(state, "c1") == ["Knight"]


def test_ex2_17_of_two_when_killed_draws_at_once_the_one_to_eleven_loses():
    """If you EVER have 11 cards in your hand, you lose the game immediately and no other abilities activate."""
    imp = monster("Imp", 1, 0, 1, [{"trigger": "killed", "effect": "draw"}])
    state = at(
        [GIANT],
        [imp, imp],
        hands=([], ["Filler"] * 9),
        board=({"b1": ["Giant"]}, {"a1": ["Imp", "Imp"]}),
    )
    state.apply_text("attack a1 with Giant@b1")  # 9 → 10 → 11
    assert state.is_terminal and state.end_code == END_HAND and state.outcome().winners == (0,)


def test_ex2_18_a_pair_may_attack_when_one_alone_could_kill_and_retaliation_hits_each():
    """you can attack with both of them simultaneously ... which attacks every monster on the tile with their
    combined attack. If your monster's defence is equal to or lower than the attack of the monster you're attacking
    then your monster is also killed."""
    state = at([KNIGHT, PAWN], [PAWN], board=({"b1": ["Knight"], "a2": ["Pawn"]}, {"a1": ["Pawn"]}))
    assert "attack a1 with Pawn@a2 + Knight@b1" in legal_texts(state)
    state.apply_text("attack a1 with Knight@b1 + Pawn@a2")  # the Pawn's 1 kills our Pawn (1), not the Knight
    assert names_on(state, "a1") == ["Knight"] and names_on(state, "a2") == [] and owner_of(state, "a1") == 0


def test_ex2_19_a_pair_that_dies_with_the_defender_takes_no_tile():
    """When you kill an enemy monster if the tile it was on is now empty and your monster survived: Move your monster
    onto the tile and if it was an enemy tile, flip it."""
    state = at([SPEAR, SPEAR], [KNIGHT], board=({"b1": ["Spear"], "a2": ["Spear"]}, {"a1": ["Knight"]}))
    state.apply_text("attack a1 with Spear@b1 + Spear@a2")  # 8 kills 3; 3 kills both (defence 1)
    assert names_on(state, "a1") == names_on(state, "b1") == names_on(state, "a2") == []
    assert owner_of(state, "a1") == 1


def test_ex2_20_an_added_tile_beyond_the_grid_is_adjacent_like_any_other():
    """Adding: Add a tile belonging to a player, but must be placed adjacent to a tile belonging to the same player.
    (The board is no longer 3 by 3: a0 touches a1.)"""
    tiles = {"a0": 0, "b1": 0, "a2": 0, "c2": 0, "b3": 0, "a1": 1, "c1": 1, "b2": 1, "a3": 1, "c3": 1}
    state = at([KNIGHT], [PAWN], board=({"a0": ["Knight"]}, {"a1": ["Pawn"]}), tiles=tiles)
    refuses(state, "move Knight@a0 b0")  # no tile there
    state.apply_text("attack a1 with Knight@a0")
    assert names_on(state, "a1") == ["Knight"] and owner_of(state, "a1") == 0


# --- monsters and assists ----------------------------------------------------------------------


def test_ex2_21_monsters_are_summoned_onto_a_tile_assists_played_and_both_cost_mana():
    """You can summon monsters on any tile that you control; You may attack and play cards at any time on your turn
    (a sample monster, a sample assist); count the amount of mana you have to spend this turn."""
    bolt = assist("Bolt", 5, [{"trigger": "play", "effect": "kill", "target": "enemy_monster"}])
    state = at([bolt, KNIGHT], [PAWN], hands=(["Bolt", "Knight"], []), board=({}, {"a1": ["Pawn"]}), mana=4)
    refuses(state, "play Knight")
    refuses(state, "summon Bolt b1")
    refuses(state, "play Bolt")  # 5 > 4
    state.set_main_phase(0, 5)
    state.apply_text("play Bolt")
    assert state.mana == 0 and names_on(state, "a1") == [] and "Bolt" not in hand_names(state, 0)
    bolt_i = next(i for i in range(len(state.tables.names)) if state.tables.names[i] == "Bolt")
    assert state.zone(bolt_i) == OUT  # an assist is not kept on the board
    assert state.monsters(0) == []


# --- flipping and displacement ---------------------------------------------------------------


def test_ex2_22_a_displaced_taken_monster_goes_back_to_its_owners_hand_not_its_controllers():
    """If you happen to flip a tile with an enemy monster on it, the opponent must move it ... (if this is not
    possible, the monster is returned to the owner's hand)."""
    # P1 owns b2 (and c3), no tile next to b2; on b2 stand P2's Knight and P2's Pawn that P1 controls (taken).
    tiles = {"b2": 0, "c3": 0, "b1": 1, "a2": 1, "c2": 1, "b3": 1, "a1": 1}  # c3 does not touch b2
    state = at([KNIGHT], [KNIGHT, PAWN], board=({}, {"b2": ["Knight"]}), tiles=tiles, active=1, turns_taken=(1, 1))
    pawn = next(i for i in state.deck(1) if state.tables.names[i] == "Pawn")
    state.place_card(pawn, BOARD, tile("b2"), 0)
    assert state.controller(pawn) == 0 and state.owner(pawn) == 1
    state.set_main_phase(0, 20)
    p1_hand = state.hand_size(0)
    state.apply_text("draw 1")  # P1 ends; P2's turn starts with its Knight on P1's b2
    state.apply_text("flip b2")  # the Pawn (P1's now) has no P1 tile next to b2
    assert owner_of(state, "b2") == 1 and state.zone(pawn) == HAND
    assert pawn in state.hand(1) and state.hand_size(0) == p1_hand + 1  # P1's +1 is its draw only


# --- mana --------------------------------------------------------------------------------------


def test_ex2_23_a_tile_flipped_by_an_attack_counts_in_the_next_players_mana():
    """The amount of mana you have is equal to the number of tiles your opponent controls + the number of monsters
    you control. For the first three turns the player that went second has 1 EXTRA mana."""
    state = at([KNIGHT], [PAWN, PAWN], board=({"b1": ["Knight"]}, {"a1": ["Pawn"], "c3": ["Pawn"]}))
    state.apply_text("attack a1 with Knight@b1")
    state.apply_text("draw 1")
    assert state.active == 1 and state.mana == 5 + 1 + 1  # P1's 5 tiles, P2's one Pawn left, the bonus
