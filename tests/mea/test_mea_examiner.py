"""An examiner's scenarios for Méa, written from the rulebook's text before reading the engine.

Each test quotes the sentence of the rulebook (*Méa: The Tiled Kingdom — How to Play*) it checks.
Positions are built with ``MeaState.position``; every rule is exercised through ``apply``.
Default layout: P1 (yellow, seat 0) b1 a2 c2 b3; P2 (blue, seat 1) a1 c1 b2 a3 c3.
"""

from __future__ import annotations

from typing import Any

import pytest

from cardbase.games.base import InvalidRules
from cardbase.games.mea.codes import END_DECK_OUT, END_HAND, END_NO_TILES, HAND, OUT
from cardbase.games.mea.engine import MeaState
from cardbase.games.mea.formats import STANDARD
from cardbase.games.mea.rules import MeaRules
from tests.mea.conftest import (
    BRUTE,
    GIANT,
    KNIGHT,
    PAWN,
    WALL,
    assist,
    at,
    demo,
    hand_names,
    legal_texts,
    monster,
    names_on,
    owner_of,
    refuses,
    rules_for,
    started,
    tile,
)

# A monster with a high defence and no attack to speak of, and one that hits hard but breaks.
SHIELD = monster("Shield", 1, 0, 9)
SPEAR = monster("Spear", 1, 4, 1)


def end_turn(state: MeaState, n: int = 1) -> MeaState:
    state.apply_text(f"draw {n}")
    return state


# --- set-up, deck building ---------------------------------------------------------------


def test_ex01_decks_hold_18_to_40_cards_with_no_copy_rule():
    """Decks will consist of anywhere between 18-40 cards."""
    assert (STANDARD.min_cards, STANDARD.max_cards) == (18, 40)
    assert STANDARD.copy_limit is None and not STANDARD.copy_limits  # the rulebook sets no copy limit


def test_ex02_nine_tiles_on_a_three_by_three_board_four_yellow_five_blue_second_player_blue():
    """a 3 by 3 grid of tiles 4 coloured yellow and five blue; The person who goes second is blue."""
    state = rules_for([KNIGHT], [KNIGHT]).new_initial_state(0)
    owners = list(state.tiles().values())
    assert len(owners) == 9 and owners.count(0) == 4 and owners.count(1) == 5


# --- the opening draw --------------------------------------------------------------------


def test_ex03_opening_draw_of_ten_is_fine_eleven_loses():
    """Before you start both players draw at least 1 card each (can draw as many as they want, but they'll
    instantaneously lose if they have 11 or more in their hand)."""
    state = rules_for([KNIGHT], [KNIGHT]).new_initial_state(0)
    state.resolve_chance()
    state.apply_text("draw 10")
    assert not state.is_terminal and state.hand_size(0) == 10
    state.apply_text("draw 12")
    assert state.is_terminal and state.end_code == END_HAND and state.outcome().winners == (0,)


def test_ex04_opening_draw_of_zero_is_refused():
    """Before you start both players draw at least 1 card each"""
    state = rules_for([KNIGHT], [KNIGHT]).new_initial_state(0)
    state.resolve_chance()
    refuses(state, "draw 0")


# --- tiles and monsters --------------------------------------------------------------------


def test_ex05_no_third_monster_by_summon_or_move():
    """You can have a maximum of 2 monsters on 1 tile."""
    state = at(
        [KNIGHT, PAWN, WALL, BRUTE], hands=(["Wall"], []), board=({"b1": ["Knight", "Pawn"], "a2": ["Brute"]}, {})
    )
    refuses(state, "summon Wall b1")
    state.apply_text("summon Wall a2")
    refuses(state, "move Knight@b1 a2")  # a2 now holds 2


def test_ex06_a_third_monster_counts_both_players():
    """You can have a maximum of 2 monsters on 1 tile."""
    state = at(
        [KNIGHT, PAWN],
        [WALL],
        board=({"b2": ["Knight"], "c2": ["Pawn"]}, {"b2": ["Wall"]}),
        tiles={"b1": 0, "a2": 0, "c2": 0, "b3": 0, "a1": 1, "c1": 1, "b2": 1, "a3": 1, "c3": 1},
    )
    assert not [a for a in legal_texts(state) if a.startswith("move Pawn@c2 b2")]


# --- ending the turn -------------------------------------------------------------------------


def test_ex07_the_end_of_turn_draw_is_at_least_one_and_may_be_more():
    """At the end of your turn you must draw at least 1 card, but you can draw more!"""
    state = at([KNIGHT], [KNIGHT], hands=(["Knight"], []))
    refuses(state, "draw 0")
    end_turn(state, 4)
    assert state.hand_size(0) == 5 and state.active == 1


def test_ex08_drawing_ends_the_turn():
    """drawing a spontaneous number of cards signifies that your turn is done and you cannot do any other
    actions after that."""
    state = at([KNIGHT], [KNIGHT], hands=(["Knight"], []))
    end_turn(state)
    assert state.active == 1
    refuses(state, "summon Knight b1")


def test_ex09_drawing_to_eleven_at_the_end_of_turn_loses_and_no_end_of_turn_ability_activates():
    """If you EVER have 11 cards in your hand, you lose the game immediately and no other abilities activate."""
    bell = monster("Bell", 1, 1, 1, [{"trigger": "turn_end", "effect": "add_tile", "target": "you"}])
    state = at([bell], [KNIGHT], hands=(["Filler"] * 10, []), board=({"b1": ["Bell"]}, {}))
    tiles_before = dict(state.tiles())
    end_turn(state)
    assert state.is_terminal and state.end_code == END_HAND and state.outcome().winners == (1,)
    assert state.tiles() == tiles_before


def test_ex10_a_hand_of_ten_must_still_draw_and_so_loses():
    """At the end of your turn you must draw at least 1 card ... If you EVER have 11 cards in your hand, you lose
    the game immediately"""
    state = at([KNIGHT], [KNIGHT], hands=(["Filler"] * 10, []))
    assert legal_texts(state).count("draw 1") == 1
    end_turn(state)
    assert state.is_terminal and state.end_code == END_HAND and state.outcome().winners == (1,)


def test_ex11_empty_deck_obliterates_a_friendly_tile_with_every_monster_on_it():
    """When you have no cards in your deck, instead of drawing a card at the end of your turn you must OBLITERATE
    a friendly tile. Obliterating: Remove a tile from the board, and any monster(s) on top of it."""
    state = at(
        [KNIGHT, PAWN],
        [WALL],
        filler=0,
        board=({"b1": ["Knight"]}, {"b1": ["Wall"]}),
        decks=([], None),
        out=(["Pawn"], []),
    )
    refuses(state, "draw 1")
    refuses(state, "obliterate b2")  # an enemy tile
    state.apply_text("obliterate b1")
    assert tile("b1") not in state.tiles()
    assert all(
        state.zone(i) == OUT for i in range(len(state.tables.names)) if state.tables.names[i] in ("Knight", "Wall")
    )
    assert state.active == 1


def test_ex12_an_empty_deck_and_a_hand_of_ten_does_not_lose():
    """When you have no cards in your deck, instead of drawing a card ... you must OBLITERATE a friendly tile."""
    cards = [monster(f"M{i}", 1, 1, 1) for i in range(10)]
    state = at(cards, [KNIGHT], filler=0, hands=([c.name for c in cards], []), decks=([], None))
    state.apply_text("obliterate b1")
    assert not state.is_terminal and state.hand_size(0) == 10


def test_ex13_obliterating_the_last_tile_loses():
    """you must OBLITERATE a friendly tile (a player with no tiles loses: the engine's reading)"""
    state = at(
        [KNIGHT],
        [WALL],
        filler=0,
        hands=(["Knight"], []),
        decks=([], None),
        tiles={"b1": 0, "b2": 1, "a1": 1},
    )
    state.apply_text("obliterate b1")
    assert state.is_terminal and state.outcome().winners == (1,)


def test_ex14_the_draw_is_at_most_the_cards_left():
    """At the end of your turn you must draw at least 1 card, but you can draw more!"""
    state = at([KNIGHT, PAWN], [WALL], filler=0, decks=(["Pawn"], None), hands=(["Knight"], []))
    refuses(state, "draw 2")
    end_turn(state, 1)
    assert state.hand_size(0) == 2


# --- moving and attacking ------------------------------------------------------------------


def test_ex15_a_monster_either_moves_or_attacks_not_both():
    """Unless stated otherwise, your monsters can EITHER move once OR attack once on your turn."""
    state = at([KNIGHT], [PAWN, PAWN], board=({"b1": ["Knight"]}, {"c1": ["Pawn"], "a3": ["Pawn"]}))
    state.apply_text("move Knight@b1 a1")  # a1 is P2's and empty
    refuses(state, "move Knight@a1 b1")
    refuses(state, "attack a2 with Knight@a1")
    assert not [a for a in legal_texts(state) if "Knight" in a]


def test_ex16_an_attacker_cannot_then_move_or_attack_again():
    """your monsters can EITHER move once OR attack once on your turn."""
    state = at([KNIGHT], [PAWN, PAWN], board=({"b1": ["Knight"]}, {"a1": ["Pawn"], "c1": ["Pawn"]}))
    state.apply_text("attack a1 with Knight@b1")
    assert names_on(state, "a1") == ["Knight"]
    refuses(state, "attack b1 with Knight@a1")
    refuses(state, "move Knight@a1 a2")


def test_ex17_attacks_reach_adjacent_tiles_only():
    """You may attack monsters that are in adjacent tiles"""
    state = at([KNIGHT], [PAWN, PAWN], board=({"b1": ["Knight"]}, {"c3": ["Pawn"], "a1": ["Pawn"]}))
    refuses(state, "attack c3 with Knight@b1")
    assert "attack a1 with Knight@b1" in legal_texts(state)


def test_ex18_attack_equal_to_defence_kills_lower_cannot_attack():
    """if you can kill them (if your monster's attack is equal to or higher than the other monster's defence)"""
    state = at([KNIGHT], [KNIGHT, WALL], board=({"b1": ["Knight"]}, {"a1": ["Knight"], "c1": ["Wall"]}))
    refuses(state, "attack c1 with Knight@b1")  # 3 < 6
    state.apply_text("attack a1 with Knight@b1")  # 3 >= 3: kills; 3 >= 3 retaliation kills ours too
    assert names_on(state, "a1") == [] and names_on(state, "b1") == []
    assert owner_of(state, "a1") == 1  # the attacker died: no move-in, no flip


def test_ex19_the_attack_hits_every_monster_on_the_tile():
    """and you must attack every monster on the tile."""
    state = at([GIANT], [PAWN, KNIGHT], board=({"b1": ["Giant"]}, {"a1": ["Pawn", "Knight"]}))
    state.apply_text("attack a1 with Giant@b1")
    assert names_on(state, "a1") == ["Giant"] and owner_of(state, "a1") == 0


def test_ex20_combined_attack_adds_the_attacks():
    """you can attack with both of them simultaneously ... which attacks every monster on the tile with their
    combined attack."""
    brick = monster("Brick", 1, 2, 9)
    state = at([brick, brick], [KNIGHT], board=({"b1": ["Brick"], "a2": ["Brick"]}, {"a1": ["Knight"]}))
    refuses(state, "attack a1 with Brick@b1")  # 2 < 3 alone
    state.apply_text("attack a1 with Brick@b1 + Brick@a2")
    assert owner_of(state, "a1") == 0 and len(state.on_tile(tile("a1"))) == 2  # both survive and move in


def test_ex21_a_summoned_monster_pairs_with_a_ready_one_but_not_with_another_summoned_one():
    """you can attack with both of them simultaneously (if both can attack or if one can attack and one was
    summoned this turn); However, they can attack simultaneously with a monster that ... was not summoned this
    turn and can attack."""
    brick = monster("Brick", 1, 2, 9)
    state = at(
        [brick, brick, brick], [KNIGHT], hands=(["Brick", "Brick"], []), board=({"b1": ["Brick"]}, {"a1": ["Knight"]})
    )
    state.apply_text("summon Brick a2")
    state.apply_text("summon Brick b1")
    # The two summoned Bricks (a2, b1#2) together: refused; a summoned one with the ready one: allowed.
    refuses(state, "attack a1 with Brick@a2 + Brick@b1#2")
    state.apply_text("attack a1 with Brick@b1#1 + Brick@a2")
    assert owner_of(state, "a1") == 0


def test_ex22_a_monster_summoned_this_turn_may_attack_on_its_own_by_default():
    """You can summon monsters ... but they move or attack alone on this turn."""
    state = at([KNIGHT], [PAWN], hands=(["Knight"], []), board=({}, {"a1": ["Pawn"]}))
    state.apply_text("summon Knight b1")
    state.apply_text("attack a1 with Knight@b1")
    assert owner_of(state, "a1") == 0


def test_ex23_retaliation_kills_an_attacker_whose_defence_is_at_most_the_defenders_attack():
    """If your monster's defence is equal to or lower than the attack of the monster you're attacking then your
    monster is also killed."""
    state = at([SPEAR], [monster("Bat", 1, 1, 2)], board=({"b1": ["Spear"]}, {"a1": ["Bat"]}))
    state.apply_text("attack a1 with Spear@b1")  # 4 kills 2; the Bat's 1 kills the Spear's defence 1
    assert names_on(state, "a1") == [] and names_on(state, "b1") == [] and owner_of(state, "a1") == 1


def test_ex24_retaliation_is_the_total_attack_of_both_monsters_on_the_tile():
    """REMEMBER on your opponent's turn your monsters have attack equal to the total attack of both monsters on
    the tile!"""
    # The Knight (3/3) attacks a1: Pawn (1/1) and Shield (0/9). 3 kills the Pawn only; retaliation 1+0 = 1 < 3.
    state = at([KNIGHT], [PAWN, SHIELD], board=({"b1": ["Knight"]}, {"a1": ["Pawn", "Shield"]}))
    state.apply_text("attack a1 with Knight@b1")
    assert names_on(state, "a1") == ["Shield"] and names_on(state, "b1") == ["Knight"]  # it stays
    assert owner_of(state, "a1") == 1
    # Two 2/1s on a tile: total 4 kills a 3/3 attacker though each alone would not.
    two = monster("Two", 1, 2, 1)
    state = at([KNIGHT], [two, two], board=({"b1": ["Knight"]}, {"a1": ["Two", "Two"]}))
    state.apply_text("attack a1 with Knight@b1")
    assert names_on(state, "a1") == [] and names_on(state, "b1") == [] and owner_of(state, "a1") == 1


def test_ex25_the_total_includes_a_defender_the_attack_kills():
    """your monsters have attack equal to the total attack of both monsters on the tile! (the attack is
    simultaneous: the Pawn that dies still counts)"""
    # Knight 3/3 attacks Pawn 1/1 + Wall(1/6)... use Spike 2/1 + Shield 0/9: 3 kills the Spike; total 2 < 3.
    spike = monster("Spike", 1, 3, 1)
    state = at([KNIGHT], [spike, SHIELD], board=({"b1": ["Knight"]}, {"a1": ["Spike", "Shield"]}))
    state.apply_text("attack a1 with Knight@b1")  # total 3 >= 3: the Knight dies too
    assert names_on(state, "a1") == ["Shield"] and names_on(state, "b1") == []


def test_ex26_combined_attack_each_attacker_checked_and_the_survivor_moves_in_and_flips():
    """When you kill an enemy monster if the tile it was on is now empty and your monster survived: Move your
    monster onto the tile and if it was an enemy tile, flip it."""
    state = at([SPEAR, WALL], [KNIGHT], board=({"b1": ["Spear"], "a2": ["Wall"]}, {"a1": ["Knight"]}))
    state.apply_text("attack a1 with Spear@b1 + Wall@a2")  # 5 kills 3/3; retaliation 3 kills Spear (1), not Wall (6)
    assert names_on(state, "a1") == ["Wall"] and names_on(state, "b1") == [] and owner_of(state, "a1") == 0


def test_ex27_a_kill_on_a_tile_of_your_own_moves_in_without_changing_the_owner():
    """Move your monster onto the tile and if it was an enemy tile, flip it."""
    # P2's Pawn stands on P1's a2 (it moved there); P1's Knight on b... a2's neighbours: a1, b2, a3. Use b2.
    state = at(
        [KNIGHT],
        [PAWN],
        board=({"b2": ["Knight"]}, {"a2": ["Pawn"]}),
        tiles={"b1": 0, "a2": 0, "c2": 0, "b3": 0, "b2": 0, "a1": 1, "c1": 1, "a3": 1, "c3": 1},
    )
    state.apply_text("attack a2 with Knight@b2")
    assert names_on(state, "a2") == ["Knight"] and owner_of(state, "a2") == 0


def test_ex28_if_a_monster_is_still_on_the_tile_the_attacker_stays():
    """If there is still a monster on the tile, your monster must stay on the tile it attacked from."""
    state = at([KNIGHT], [PAWN, WALL], board=({"b1": ["Knight"]}, {"a1": ["Pawn", "Wall"]}))
    state.apply_text("attack a1 with Knight@b1")
    assert names_on(state, "b1") == ["Knight"] and names_on(state, "a1") == ["Wall"] and owner_of(state, "a1") == 1


# --- flipping and displacement ----------------------------------------------------------------


def start_of_p1_turn(state: MeaState) -> MeaState:
    """From P2's main phase, end P2's turn."""
    state.apply_text("draw 1")
    return state


def p2_to_play(cards0, cards1, **position: Any) -> MeaState:
    position.setdefault("turns_taken", (1, 1))
    return at(cards0, cards1, active=1, **position)


def test_ex29_one_flip_only_of_an_enemy_tile_with_your_monster():
    """At the start of your turn you may flip ONE enemy tile that has a monster belonging to you on it."""
    state = p2_to_play([KNIGHT, PAWN], [], board=({"a1": ["Knight"], "c1": ["Pawn"]}, {}))
    start_of_p1_turn(state)
    assert state.phase == "flip"
    assert sorted(legal_texts(state)) == ["flip a1", "flip c1", "flip none"]
    refuses(state, "flip b2")
    state.apply_text("flip a1")
    assert owner_of(state, "a1") == 0 and owner_of(state, "c1") == 1 and state.phase == "main"
    refuses(state, "flip c1")


def test_ex30_a_flipped_enemy_monster_moves_to_an_adjacent_tile_of_its_side_with_room():
    """If you happen to flip a tile with an enemy monster on it, the opponent must move it to an adjacent enemy
    tile with less than 2 monsters on"""
    state = p2_to_play(
        [KNIGHT],
        [PAWN, PAWN, PAWN],
        board=({"b2": ["Knight"]}, {"b2": ["Pawn"], "a1": [], "c1": []}),
        tiles={"b1": 0, "a2": 0, "c2": 0, "b3": 0, "b2": 1, "a1": 1, "c1": 1, "a3": 1, "c3": 1},
    )
    start_of_p1_turn(state)
    state.apply_text("flip b2")
    # b2's neighbours b1 a2 c2 b3 are all P1's: no enemy (P2) tile next to it: back to its owner's hand.
    assert owner_of(state, "b2") == 0 and "Pawn" in hand_names(state, 1)


def test_ex31_a_displaced_monster_goes_where_its_controller_chooses():
    """the opponent must move it to an adjacent enemy tile with less than 2 monsters on"""
    state = p2_to_play(
        [KNIGHT],
        [PAWN, PAWN, PAWN],
        board=({"b2": ["Knight"]}, {"b2": ["Pawn"], "b1": ["Pawn", "Pawn"]}),
        tiles={"b1": 1, "a2": 1, "c2": 1, "b3": 0, "b2": 1, "a1": 0, "c1": 0, "a3": 0, "c3": 0},
    )
    start_of_p1_turn(state)
    state.apply_text("flip b2")
    assert state.current_player == 1 and state.phase == "choice"
    assert sorted(legal_texts(state)) == ["choose a2", "choose c2"]  # b1 is full, b3 is P1's
    state.apply_text("choose c2")
    assert names_on(state, "c2") == ["Pawn"] and state.current_player == 0 and state.phase == "main"


def test_ex32_displacement_to_a_full_hand_loses():
    """the monster is returned to the owner's hand; If you EVER have 11 cards in your hand, you lose"""
    state = p2_to_play(
        [KNIGHT],
        [PAWN],
        hands=([], ["Filler"] * 9),
        board=({"b2": ["Knight"]}, {"b2": ["Pawn"]}),
        tiles={"b1": 0, "a2": 0, "c2": 0, "b3": 0, "b2": 1, "a1": 1, "c1": 1, "a3": 1, "c3": 1},
    )
    start_of_p1_turn(state)  # P2 draws to 10
    state.apply_text("flip b2")  # the Pawn has nowhere to go: the 11th card
    assert state.is_terminal and state.end_code == END_HAND and state.outcome().winners == (0,)


# --- summoning and mana ------------------------------------------------------------------------


def test_ex33_summon_on_your_tile_without_an_enemy_monster():
    """You can summon monsters on any tile that you control without an enemy monster on"""
    state = at(
        [KNIGHT, PAWN],
        [WALL],
        hands=(["Knight"], []),
        board=({"a2": ["Pawn"]}, {"b1": ["Wall"]}),
    )
    refuses(state, "summon Knight b1")  # P1's, with P2's Wall
    refuses(state, "summon Knight b2")  # P2's
    state.apply_text("summon Knight a2")  # with its own Pawn
    assert names_on(state, "a2") == ["Pawn", "Knight"]


def test_ex34_mana_is_the_opponents_tiles_plus_your_monsters_at_least_three():
    """The amount of mana you have is equal to the number of tiles your opponent controls + the number of monsters
    you control. If you should have less than 3 mana, you instead have 3 mana."""
    rules = rules_for([KNIGHT, PAWN], [WALL])
    state = MeaState.position(rules, board=({"b1": ["Knight"], "a1": ["Pawn"]}, {}), turns_taken=(2, 1))
    assert state.mana == 5 + 2
    state = MeaState.position(rules, tiles={"b1": 0, "a2": 0, "a1": 1}, turns_taken=(2, 1))
    assert state.mana == 3


def test_ex35_the_second_player_has_one_extra_on_their_first_three_turns_after_the_minimum():
    """For the first three turns the player that went second has 1 EXTRA mana. (This is added after everything
    else). (Added before the second player's extra mana, so they'd have 4)."""
    rules = rules_for([KNIGHT], [WALL])
    tiles = {"b1": 0, "b2": 1}
    for taken, expected in (((1, 1), 4), ((3, 3), 4), ((4, 4), 3)):
        state = MeaState.position(rules, tiles=tiles, active=1, turns_taken=taken)
        assert state.mana == expected, taken
    state = MeaState.position(rules, active=1, turns_taken=(1, 1))
    assert state.mana == 4 + 1  # 4 P1 tiles, no monster, the bonus
    # The first player never has it.
    assert MeaState.position(rules, tiles=tiles, active=0, turns_taken=(1, 0)).mana == 3


def test_ex36_mana_counted_before_the_start_flip_and_not_again_during_the_turn():
    """Before you start your first turn (or do anything on that turn) count the amount of mana you have"""
    state = p2_to_play([KNIGHT, PAWN, PAWN], [], hands=(["Pawn"], []), board=({"a1": ["Knight"]}, {}))
    start_of_p1_turn(state)
    assert state.mana == 5 + 1  # 5 P2 tiles, 1 monster
    state.apply_text("flip a1")
    assert state.mana == 6  # not counted again after the flip
    state.apply_text("summon Pawn b1")
    assert state.mana == 5  # the new monster adds nothing this turn


def test_ex37_a_card_costing_more_than_the_mana_left_is_refused():
    """count the amount of mana you have to spend this turn"""
    state = at([GIANT, PAWN], [], hands=(["Giant", "Pawn"], []), mana=6)
    state.apply_text("summon Pawn b1")
    refuses(state, "summon Giant a2")


# --- abilities --------------------------------------------------------------------------------


def test_ex38_when_summoned_happens_after_the_card_is_played():
    """When summoned – AFTER you play this card."""
    counter = monster(
        "Counter",
        1,
        1,
        1,
        [{"trigger": "summoned", "condition": {"count": "friendly_monsters", "at_least": 1}, "effect": "draw"}],
    )
    state = at([counter], [], hands=(["Counter"], []))
    state.apply_text("summon Counter b1")  # it counts itself: it is on the board when it resolves
    assert state.hand_size(0) == 1


def test_ex39_when_killed_comes_after_the_flip_its_death_caused():
    """When killed – AFTER this card has been killed. Also after the tile has been flipped if this monster's death
    caused one to flip."""
    spite = monster(
        "Spite",
        1,
        1,
        1,
        [{"trigger": "killed", "condition": {"count": "friendly_tiles", "at_most": 4}, "effect": "draw"}],
    )
    state = at([KNIGHT], [spite], board=({"b1": ["Knight"]}, {"a1": ["Spite"]}))
    before = state.hand_size(1)
    state.apply_text("attack a1 with Knight@b1")  # a1 flips first: P2 then has 4 tiles, so it draws
    assert owner_of(state, "a1") == 0 and state.hand_size(1) == before + 1


def test_ex40_at_the_end_of_your_turn_comes_after_the_draw():
    """At the end of your turn - AFTER you have drawn the card(s)."""
    bell = monster(
        "Bell",
        1,
        1,
        1,
        [{"trigger": "turn_end", "condition": {"count": "cards_in_hand", "at_least": 3}, "effect": "add_tile"}],
    )
    state = at([bell], [KNIGHT], hands=(["Filler"], []), board=({"b1": ["Bell"]}, {}))
    n = len(state.tiles())
    end_turn(state, 2)  # 3 cards after the draw: the ability's condition holds
    assert state.phase == "choice" and state.current_player == 0  # P1 places its tile before P2's turn
    state.apply_text(legal_texts(state)[0])
    assert len(state.tiles()) == n + 1 and state.active == 1


def test_ex41_at_the_start_of_your_turn_comes_after_the_flip():
    """At the start of your turn - AFTER you have flipped any tiles you could've flipped ... but BEFORE any other
    actions."""
    dawn = monster(
        "Dawn",
        1,
        1,
        1,
        [{"trigger": "turn_start", "condition": {"count": "friendly_tiles", "at_least": 5}, "effect": "draw"}],
    )
    state = p2_to_play([dawn], [], board=({"a1": ["Dawn"]}, {}))
    start_of_p1_turn(state)
    before = state.hand_size(0)
    state.apply_text("flip a1")  # 5 tiles now
    assert state.phase == "main" and state.hand_size(0) == before + 1


def test_ex42_an_ability_with_too_few_targets_acts_on_as_many_as_possible():
    """If multiple targets are required, activate it on as many as possible."""
    reaper = monster(
        "Reaper", 1, 1, 1, [{"trigger": "summoned", "effect": "kill", "target": "enemy_monster", "count": 2}]
    )
    state = at([reaper], [PAWN], hands=(["Reaper"], []), board=({}, {"c3": ["Pawn"]}))
    state.apply_text("summon Reaper b1")
    assert names_on(state, "c3") == [] and not state.is_terminal


def test_ex43_an_ability_without_a_target_is_ignored_and_the_rest_still_happens():
    """If an ability cannot activate when it should (if there aren't enough valid targets) then ignore it, or just
    that part of the ability."""
    two_part = monster(
        "Twopart",
        1,
        1,
        1,
        [
            {"trigger": "summoned", "effect": "kill", "target": "enemy_monster"},
            {"trigger": "summoned", "effect": "draw"},
        ],
    )
    state = at([two_part], [], hands=(["Twopart"], []))
    state.apply_text("summon Twopart b1")
    assert state.hand_size(0) == 1


def test_ex44_destroy_only_an_empty_tile_obliterate_takes_the_monsters():
    """Destroying: Remove a tile from the board, but the tile must not have a monster on it."""
    mole = assist("Mole", 1, [{"trigger": "play", "effect": "destroy_tile", "target": "enemy_tile"}])
    state = at(
        [mole],
        [PAWN, PAWN, PAWN, PAWN],
        hands=(["Mole"], []),
        board=({}, {"a1": ["Pawn"], "c1": ["Pawn"], "a3": ["Pawn"], "c3": ["Pawn"]}),
    )
    state.apply_text("play Mole")
    assert tile("b2") not in state.tiles() and len(state.tiles()) == 8


def test_ex45_adding_a_tile_next_to_its_owners_tile_where_the_told_player_chooses():
    """Adding: Add a tile belonging to a player, but must be placed adjacent to a tile belonging to the same player.
    The player that is told to add the tile, chooses where it is placed, regardless of the owner of the eventual
    tile."""
    gift = assist("Gift", 1, [{"trigger": "play", "effect": "add_tile", "target": "opponent"}])
    state = at([gift], [], hands=(["Gift"], []))
    state.apply_text("play Gift")
    assert state.current_player == 0 and state.phase == "choice"
    options = legal_texts(state)
    # P2's tiles: a1 c1 b2 a3 c3; empty places next to one of them: a0, c0, -a1, d1, -a3, d3, a4, c4.
    assert "choose a0" in options and "choose b0" not in options  # b0 touches only P1's b1
    state.apply_text("choose a0")
    assert owner_of(state, "a0") == 1


def test_ex46_take_control_makes_the_monster_yours():
    """Take control - The monster in question becomes your monster"""
    thief = monster(
        "Thief",
        1,
        1,
        1,
        [{"trigger": "summoned", "effect": "take_control", "target": "enemy_monster", "exhausted": True}],
    )
    state = at([thief], [KNIGHT], hands=(["Thief"], []), board=({}, {"a1": ["Knight"]}))
    state.apply_text("summon Thief b1")
    k = state.on_tile(tile("a1"))[0]
    assert state.controller(k) == 0 and not state.can_attack(k)
    end_turn(state)
    end_turn(state)  # P2's turn over; P1's starts with a monster on P2's a1
    assert state.phase == "flip" and "flip a1" in legal_texts(state)


def test_ex47_until_end_of_turn_bonus_is_gone_next_turn():
    """(ability text) Gain +N attack until the end of your turn"""
    rage = assist(
        "Rage",
        1,
        [
            {
                "trigger": "play",
                "effect": "gain_attack",
                "target": "friendly_monster",
                "amount": 3,
                "until": "end_of_turn",
            }
        ],
    )
    state = at([rage, PAWN], [KNIGHT], hands=(["Rage"], []), board=({"b1": ["Pawn"]}, {}))
    pawn = state.on_tile(tile("b1"))[0]
    state.apply_text("play Rage")
    assert state.attack_of(pawn) == 4
    end_turn(state)
    assert state.attack_of(pawn) == 1


# --- the end of the game ---------------------------------------------------------------------


def test_ex48_flipping_the_last_enemy_tile_wins():
    """Make a deck ... to lead to victory and control the tiles (a player without tiles loses: our reading)"""
    state = at([KNIGHT], [PAWN], board=({"b1": ["Knight"]}, {"a1": ["Pawn"]}), tiles={"b1": 0, "a1": 1})
    state.apply_text("attack a1 with Knight@b1")
    assert state.is_terminal and state.end_code == END_NO_TILES and state.outcome().winners == (0,)


def test_ex49_deck_out_with_no_tile_loses():
    """When you have no cards in your deck ... you must OBLITERATE a friendly tile."""
    state = at(
        [KNIGHT],
        [PAWN],
        filler=0,
        hands=(["Knight"], []),
        decks=([], None),
        tiles={"b1": 0, "a1": 1},
        options={"elimination": "turn-start"},
    )
    state.set_tile(tile("b1"), None)
    assert legal_texts(state)[-1] == "obliterate none" or "obliterate none" in legal_texts(state)
    state.apply_text("obliterate none")
    assert state.is_terminal and state.end_code == END_DECK_OUT and state.outcome().winners == (1,)


def test_ex50_play_cards_and_attack_in_any_order():
    """You may attack and play cards at any time on your turn"""
    state = at(
        [KNIGHT, KNIGHT],
        [PAWN, PAWN],
        hands=(["Knight"], []),
        board=({"b1": ["Knight"]}, {"a1": ["Pawn"], "c3": ["Pawn"]}),
    )
    state.apply_text("attack a1 with Knight@b1")
    state.apply_text("summon Knight c2")
    state.apply_text("attack c3 with Knight@c2")
    assert owner_of(state, "a1") == 0 and owner_of(state, "c3") == 0
    assert HAND not in (state.zone(i) for i in state.on_tile(tile("c3")))


# --- abilities with combat ----------------------------------------------------------------------

RAGE = assist(
    "Rage",
    1,
    [{"trigger": "play", "effect": "gain_attack", "target": "friendly_monster", "amount": 2, "until": "end_of_turn"}],
)
BRICK = monster("Brick", 1, 2, 9)


def test_ex51_a_combined_attack_counts_a_bonus_given_this_turn():
    """which attacks every monster on the tile with their combined attack"""
    state = at(
        [RAGE, BRICK, PAWN], [GIANT], hands=(["Rage"], []), board=({"b1": ["Brick"], "a2": ["Pawn"]}, {"a1": ["Giant"]})
    )
    refuses(state, "attack a1 with Brick@b1 + Pawn@a2")  # 2 + 1 < 7
    state.apply_text("play Rage")
    state.apply_text("choose Brick@b1")
    refuses(state, "attack a1 with Brick@b1 + Pawn@a2")  # 4 + 1 < 7
    tall = monster("Tall", 1, 1, 5)
    state = at(
        [RAGE, BRICK, PAWN], [tall], hands=(["Rage"], []), board=({"b1": ["Brick"], "a2": ["Pawn"]}, {"a1": ["Tall"]})
    )
    state.apply_text("play Rage")
    state.apply_text("choose Brick@b1")
    state.apply_text("attack a1 with Brick@b1 + Pawn@a2")  # 4 + 1 = 5 kills the Tall; its 1 kills the Pawn
    assert names_on(state, "a1") == ["Brick"] and owner_of(state, "a1") == 0


def test_ex52_a_defenders_bonus_given_this_turn_counts_in_its_retaliation():
    """If your monster's defence is equal to or lower than the attack of the monster you're attacking"""
    # A bonus "until the end of your turn" is given on P1's turn to P1's Pawn; P1's Pawn is not a defender.
    # The defender's printed attack is what retaliates on the attacker's turn.
    state = at([KNIGHT], [monster("Tough", 1, 2, 3)], board=({"b1": ["Knight"]}, {"a1": ["Tough"]}))
    state.apply_text("attack a1 with Knight@b1")  # 3 kills 3; 2 < 3: the Knight survives and moves in
    assert names_on(state, "a1") == ["Knight"] and owner_of(state, "a1") == 0


def test_ex53_may_attack_twice_and_the_second_attack_is_from_the_tile_it_moved_into():
    """Unless stated otherwise, your monsters can EITHER move once OR attack once on your turn."""
    imp = monster("Imp", 1, 3, 3, [{"trigger": "summoned", "effect": "extra_attack", "target": "self", "amount": 1}])
    state = at([imp], [PAWN, PAWN], hands=(["Imp"], []), board=({}, {"a1": ["Pawn"], "c1": ["Pawn"]}))
    state.apply_text("summon Imp b1")
    state.apply_text("attack a1 with Imp@b1")
    refuses(state, "move Imp@a1 a2")
    refuses(state, "attack c1 with Imp@a1")  # not adjacent to a1
    assert names_on(state, "a1") == ["Imp"]


def test_ex54_an_attackers_when_killed_comes_after_its_partners_move_in_and_flip():
    """When killed – AFTER this card has been killed. Also after the tile has been flipped if this monster's death
    caused one to flip."""
    martyr = monster(
        "Martyr",
        1,
        4,
        1,
        [{"trigger": "killed", "condition": {"count": "friendly_tiles", "at_least": 5}, "effect": "draw"}],
    )
    state = at([martyr, WALL], [KNIGHT], board=({"b1": ["Martyr"], "a2": ["Wall"]}, {"a1": ["Knight"]}))
    before = state.hand_size(0)
    state.apply_text("attack a1 with Martyr@b1 + Wall@a2")
    assert names_on(state, "a1") == ["Wall"] and owner_of(state, "a1") == 0
    assert state.hand_size(0) == before + 1  # P1 had 5 tiles when the Martyr's ability resolved


def test_ex55_a_kill_by_an_ability_moves_nothing_in_and_flips_nothing():
    """When you kill an enemy monster if the tile it was on is now empty and your monster survived: Move your
    monster onto the tile (an assist has no monster to move)"""
    bolt = assist("Bolt", 1, [{"trigger": "play", "effect": "kill", "target": "enemy_monster"}])
    state = at([bolt, KNIGHT], [PAWN], hands=(["Bolt"], []), board=({"b1": ["Knight"]}, {"a1": ["Pawn"]}))
    state.apply_text("play Bolt")
    assert names_on(state, "a1") == [] and owner_of(state, "a1") == 1 and names_on(state, "b1") == ["Knight"]


def test_ex56_an_obliterated_monster_is_removed_not_killed_by_default():
    """Obliterating: Remove a tile from the board, and any monster(s) on top of it."""
    ghost = monster("Ghost", 1, 1, 1, [{"trigger": "killed", "effect": "draw"}])
    state = at(
        [ghost, KNIGHT], [PAWN], filler=0, hands=(["Knight"], []), board=({"b1": ["Ghost"]}, {}), decks=([], None)
    )
    state.apply_text("obliterate b1")
    assert state.hand_size(0) == 1 and tile("b1") not in state.tiles()


def test_ex57_an_ability_that_makes_the_opponent_draw_to_eleven_makes_the_opponent_lose():
    """If you EVER have 11 cards in your hand, you lose the game immediately"""
    gift = assist("Gift", 1, [{"trigger": "play", "effect": "draw", "target": "opponent", "amount": 2}])
    state = at([gift], [KNIGHT], hands=(["Gift"], ["Filler"] * 9))
    state.apply_text("play Gift")
    assert state.is_terminal and state.end_code == END_HAND and state.outcome().winners == (0,)


def test_ex58_a_taken_monster_counts_for_its_new_controllers_mana():
    """The amount of mana you have is equal to the number of tiles your opponent controls + the number of monsters
    you control."""
    thief = monster(
        "Thief",
        1,
        1,
        1,
        [{"trigger": "summoned", "effect": "take_control", "target": "enemy_monster", "exhausted": True}],
    )
    state = at([thief], [KNIGHT, PAWN], hands=(["Thief"], []), board=({}, {"c3": ["Knight"], "a3": ["Pawn"]}))
    state.apply_text("summon Thief b1")
    state.apply_text("choose Knight@c3")
    end_turn(state)
    assert state.mana == 4 + 1 + 1  # P2: P1's 4 tiles, its Pawn, the bonus
    end_turn(state)
    state.apply_text("flip none")
    assert state.mana == 5 + 2  # P1: P2's 5 tiles, the Thief and the Knight


def test_ex59_an_ability_draw_from_an_empty_deck_draws_nothing():
    """If an ability cannot activate when it should ... then ignore it"""
    scholar = monster("Scholar", 1, 1, 1, [{"trigger": "summoned", "effect": "draw", "amount": 2}])
    state = at([scholar, PAWN], [KNIGHT], filler=0, hands=(["Scholar"], []), decks=(["Pawn"], None))
    state.apply_text("summon Scholar b1")
    assert state.hand_size(0) == 1 and state.deck_size(0) == 0
    refuses(state, "draw 1")
    state.apply_text("obliterate a2")
    assert not state.is_terminal


@pytest.mark.parametrize(("first", "winners"), [("b1", (1,)), ("b2", (0,))])
def test_ex60_an_ability_removing_both_last_tiles_ends_the_game_at_the_first(first, winners):
    """If multiple targets are required, activate it on as many as possible. (No rule of the rulebook says how a
    game is won; our reading, "a player who controls no tiles loses at once", ends the game at the first
    removal: the chooser's order decides. No demo card removes more than one tile.)"""
    quake = assist("Quake", 1, [{"trigger": "play", "effect": "obliterate_tile", "target": "any_tile", "count": 2}])
    state = at([quake], [KNIGHT], hands=(["Quake"], []), tiles={"b1": 0, "b2": 1})
    state.apply_text("play Quake")
    assert sorted(legal_texts(state)) == ["choose b1", "choose b2"]
    state.apply_text(f"choose {first}")
    assert state.is_terminal and state.end_code == END_NO_TILES and state.outcome().winners == winners


# --- demo cards in the interactions most likely to be got wrong -----------------------------------


def test_ex61_bard_killed_defending_returns_the_attacker_that_moved_in_after_the_flip():
    """When killed – AFTER this card has been killed. Also after the tile has been flipped if this monster's death
    caused one to flip."""
    bard = demo("Bard of Bad Tidings")
    state = at([KNIGHT, PAWN], [bard], board=({"b1": ["Knight"], "c3": []}, {"a1": ["Bard of Bad Tidings"]}))
    state.apply_text("attack a1 with Knight@b1")  # 3 kills the Bard (3); the Bard's 1 does not kill the Knight
    assert names_on(state, "a1") == [] and "Knight" in hand_names(state, 0)
    assert owner_of(state, "a1") == 0  # the tile stays flipped


def test_ex62_dizzy_bat_killed_on_the_other_players_turn_draws_for_its_controller():
    """When killed – AFTER this card has been killed. If you EVER have 11 cards in your hand, you lose"""
    bat = demo("Dizzy Bat")
    state = at([KNIGHT], [bat], hands=([], ["Filler"] * 10), board=({"b1": ["Knight"]}, {"a1": ["Dizzy Bat"]}))
    state.apply_text("attack a1 with Knight@b1")
    assert state.is_terminal and state.end_code == END_HAND and state.outcome().winners == (0,)


def test_ex63_tile_mole_adds_a_tile_for_its_controller_who_chooses_where():
    """Adding: ... must be placed adjacent to a tile belonging to the same player. The player that is told to add
    the tile, chooses where it is placed"""
    mole = demo("Tile Mole")
    state = at([KNIGHT], [mole], board=({"b1": ["Knight"]}, {"a1": ["Tile Mole"]}))
    n = len(state.tiles())
    state.apply_text("attack a1 with Knight@b1")
    assert state.phase == "choice" and state.current_player == 1
    options = legal_texts(state)
    assert "choose d1" in options  # next to P2's c1
    assert "choose a0" not in options  # a0 touches only a1, now P1's
    state.apply_text("choose d1")
    assert owner_of(state, "d1") == 1 and len(state.tiles()) == n + 1 and state.current_player == 0


def test_ex64_hopeful_newt_grows_at_each_start_of_its_turn_and_keeps_it():
    """At the start of your turn - AFTER you have flipped any tiles ... but BEFORE any other actions."""
    newt = demo("Hopeful Newt")
    state = p2_to_play([newt], [KNIGHT], board=({"b1": ["Hopeful Newt"]}, {}))
    n = state.on_tile(tile("b1"))[0]
    start_of_p1_turn(state)
    assert state.attack_of(n) == 2
    end_turn(state)
    end_turn(state)
    assert state.attack_of(n) == 3


def test_ex65_rowdy_minstrels_bonus_lasts_the_turn_only():
    """At the start of your turn ... until the end of your turn"""
    minstrel = demo("Rowdy Minstrel")
    state = p2_to_play([minstrel, PAWN], [KNIGHT], board=({"b1": ["Rowdy Minstrel"], "c2": ["Pawn"]}, {}))
    pawn = state.on_tile(tile("c2"))[0]
    start_of_p1_turn(state)
    state.apply_text("choose Pawn@c2")
    assert state.attack_of(pawn) == 3
    end_turn(state)
    assert state.attack_of(pawn) == 1  # on P2's turn the bonus is gone


def test_ex66_berserk_beekeeper_summoned_this_turn_attacks_once():
    """At the start of your turn (its ability) — it was not on the board when this turn started"""
    bee = demo("Berserk Beekeeper")
    state = at([bee], [PAWN, PAWN], hands=(["Berserk Beekeeper"], []), board=({}, {"a1": ["Pawn"], "b2": ["Pawn"]}))
    state.apply_text("summon Berserk Beekeeper b1")
    state.apply_text("attack a1 with Berserk Beekeeper@b1")
    b = state.on_tile(tile("a1"))[0]
    assert not state.can_attack(b)


def test_ex67_grudge_goat_grows_after_the_draw_but_not_on_a_losing_draw():
    """At the end of your turn - AFTER you have drawn the card(s). If you EVER have 11 cards in your hand, you lose
    the game immediately and no other abilities activate."""
    goat = demo("Grudge-Holding Goat")
    state = at([goat], [KNIGHT], board=({"b1": ["Grudge-Holding Goat"]}, {}))
    g = state.on_tile(tile("b1"))[0]
    end_turn(state)
    assert state.attack_of(g) == 3
    lich = demo("Grand Librarian Lich")
    state = at([lich], [KNIGHT], hands=(["Filler"] * 9, []), board=({"b1": ["Grand Librarian Lich"]}, {}))
    end_turn(state)  # 10 cards, then the Lich's draw: 11
    assert state.is_terminal and state.end_code == END_HAND and state.outcome().winners == (1,)


def test_ex68_pickpocket_ferret_flips_an_adjacent_enemy_tile_and_displaces_its_monster():
    """If you happen to flip a tile with an enemy monster on it, the opponent must move it to an adjacent enemy
    tile with less than 2 monsters on (if this is not possible, the monster is returned to the owner's hand)."""
    ferret = demo("Pickpocket Ferret")
    state = at(
        [ferret],
        [PAWN],
        hands=(["Pickpocket Ferret"], []),
        board=({}, {"b2": ["Pawn"]}),
        tiles={"b1": 0, "a2": 0, "c2": 0, "b3": 0, "b2": 1, "a1": 1},
    )
    state.apply_text("summon Pickpocket Ferret b1")  # b1's enemy neighbours: a1 (empty), b2 (the Pawn)
    state.apply_text("choose b2")
    # b2's neighbours are all P1's now: the Pawn goes back to P2's hand
    assert owner_of(state, "b2") == 0 and "Pawn" in hand_names(state, 1)


def test_ex69_goblin_surveyor_flips_only_a_tile_with_no_monster_at_all():
    """(its text) Flip 1 enemy tile with no monster on it."""
    surveyor = demo("Goblin Surveyor")
    state = at(
        [surveyor, PAWN, PAWN, PAWN, PAWN],
        [KNIGHT],
        hands=(["Goblin Surveyor"], []),
        board=({"a1": ["Pawn"], "c1": ["Pawn"], "a3": ["Pawn"], "c3": ["Pawn"]}, {"b2": ["Knight"]}),
    )
    state.apply_text("summon Goblin Surveyor b1")
    assert all(owner_of(state, t) == 1 for t in ("a1", "c1", "b2", "a3", "c3"))  # no valid target: ignored


def test_ex70_earthquake_elephant_obliterating_the_last_enemy_tile_wins():
    """Obliterating: Remove a tile from the board, and any monster(s) on top of it."""
    elephant = demo("Earthquake Elephant")
    state = at(
        [elephant],
        [KNIGHT],
        hands=(["Earthquake Elephant"], []),
        board=({}, {"a1": ["Knight"]}),
        tiles={"b1": 0, "a1": 1},
    )
    state.apply_text("summon Earthquake Elephant b1")
    assert state.is_terminal and state.end_code == END_NO_TILES and state.outcome().winners == (0,)


@pytest.mark.parametrize(("cannot_act", "acts"), [("whole-turn", False), ("until-given", True)])
def test_ex71_a_taken_monster_that_cannot_act_this_turn_is_given_no_action_by_a_later_card(cannot_act, acts):
    """Take control - The monster in question becomes your monster and whether it can move/attack this turn will
    be stated on the card. (Bribe of Biscuits: "It cannot move or attack this turn."; Strong Coffee: "1 friendly
    monster may move or attack again this turn.")"""
    bribe, coffee, badger = demo("Bribe of Biscuits"), demo("Strong Coffee"), demo("Drill Sergeant Badger")
    frenzy = assist("Frenzy", 1, [{"trigger": "play", "effect": "extra_attack", "target": "friendly_monster"}])
    state = at(
        [bribe, coffee, badger, frenzy],
        [PAWN, PAWN],
        hands=(["Bribe of Biscuits", "Strong Coffee", "Drill Sergeant Badger", "Frenzy"], []),
        board=({}, {"a1": ["Pawn"], "b2": ["Pawn"]}),
        options={"cannot_act": cannot_act},
    )
    state.apply_text("play Bribe of Biscuits")
    state.apply_text("choose Pawn@a1")
    taken = state.on_tile(tile("a1"))[0]
    assert state.controller(taken) == 0 and not state.can_move(taken) and not state.can_attack(taken)
    state.apply_text("play Strong Coffee")  # the only friendly monster: chosen at once
    assert state.can_move(taken) is acts and state.can_attack(taken) is acts
    assert ("move Pawn@a1 a2" in legal_texts(state)) is acts
    state.apply_text("summon Drill Sergeant Badger b1")
    state.apply_text("choose Pawn@a1")
    assert state.can_move(taken) is acts
    state.apply_text("play Frenzy")  # "may attack twice" for a friendly monster
    state.apply_text("choose Pawn@a1")
    assert state.extra_attacks(taken) == (1 if acts else 0)
    end_turn(state)
    end_turn(state)  # P1's next turn: it acts as any of P1's monsters
    state.apply_text("flip none")
    assert state.can_move(taken) and state.can_attack(taken)


def test_ex71b_the_cannot_act_option_round_trips_and_refuses_a_bad_value():
    rules = rules_for([KNIGHT], [KNIGHT], cannot_act="until-given")
    assert MeaRules.from_options(rules.to_options()).cannot_act == "until-given"
    old = {k: v for k, v in rules.to_options().items() if k != "cannot_act"}
    assert MeaRules.from_options(old).cannot_act == "whole-turn"  # a record from before: the default
    with pytest.raises(InvalidRules, match="cannot_act must be one of whole-turn, until-given"):
        rules_for([KNIGHT], [KNIGHT], cannot_act="never")


def test_ex72_drill_sergeant_badger_may_give_itself_a_second_action():
    """Unless stated otherwise, your monsters can EITHER move once OR attack once on your turn. (Badger: 1 friendly
    monster may move or attack again this turn.)"""
    badger = demo("Drill Sergeant Badger")
    state = at([badger], [PAWN], hands=(["Drill Sergeant Badger"], []), board=({}, {"c2": ["Pawn"]}))
    state.apply_text("summon Drill Sergeant Badger b1")
    assert state.phase == "main"  # the only friendly monster: chosen at once
    state.apply_text("move Drill Sergeant Badger@b1 b2")
    state.apply_text("attack c2 with Drill Sergeant Badger@b2")
    assert names_on(state, "c2") == ["Drill Sergeant Badger"]


def shared_after_bribe() -> MeaState:
    """P1 takes one of P2's two monsters on P2's b2 (Bribe of Biscuits): the tile holds one of each."""
    bribe = demo("Bribe of Biscuits")
    state = at(
        [bribe, KNIGHT],
        [PAWN, WALL, KNIGHT],
        hands=(["Bribe of Biscuits"], ["Knight"]),
        board=({}, {"b2": ["Pawn", "Wall"]}),
    )
    state.apply_text("play Bribe of Biscuits")
    state.apply_text("choose Pawn@b2")
    return state


def test_ex73_nobody_summons_onto_a_tile_with_an_enemy_monster_after_take_control():
    """You can summon monsters on any tile that you control without an enemy monster on"""
    state = shared_after_bribe()
    pawn = state.on_tile(tile("b2"))[0]
    assert state.controller(pawn) == 0
    end_turn(state)
    refuses(state, "summon Knight b2")  # P2's own tile, with P1's (taken) Pawn on it
    assert "summon Knight a1" in legal_texts(state)


def test_ex74_an_attack_on_a_shared_tile_kills_only_the_enemy_and_the_attacker_stays():
    """you must attack every monster on the tile; If there is still a monster on the tile, your monster must stay on
    the tile it attacked from."""
    # P2's Knight on P1's b1, next to b2.
    state = at(
        [demo("Bribe of Biscuits"), KNIGHT],
        [PAWN, WALL, KNIGHT],
        hands=(["Bribe of Biscuits"], []),
        board=({}, {"b2": ["Pawn", "Wall"], "b1": ["Knight"]}),
    )
    state.apply_text("play Bribe of Biscuits")
    state.apply_text("choose Pawn@b2")
    pawn = state.on_tile(tile("b2"))[0]
    end_turn(state)
    state.apply_text("flip none")  # P2's Knight stands on P1's b1
    state.apply_text("attack b2 with Knight@b1")  # kills the taken Pawn only; the Wall is P2's own
    assert state.zone(pawn) == OUT and names_on(state, "b2") == ["Wall"] and names_on(state, "b1") == ["Knight"]


def test_ex75_flipping_a_shared_tile_displaces_the_enemy_monster():
    """At the start of your turn you may flip ONE enemy tile that has a monster belonging to you on it. If you
    happen to flip a tile with an enemy monster on it, the opponent must move it to an adjacent enemy tile with
    less than 2 monsters on"""
    state = shared_after_bribe()
    end_turn(state)
    end_turn(state)
    assert state.phase == "flip" and "flip b2" in legal_texts(state)
    state.apply_text("flip b2")
    # b2's neighbours b1 a2 c2 b3 are P1's: P2's Wall goes back to P2's hand
    assert owner_of(state, "b2") == 0 and "Wall" in hand_names(state, 1) and names_on(state, "b2") == ["Pawn"]


def test_ex76_earthquake_elephant_obliterates_a_tile_with_your_own_monster_on_it_too():
    """Obliterating: Remove a tile from the board, and any monster(s) on top of it."""
    elephant = demo("Earthquake Elephant")
    state = at(
        [elephant, KNIGHT],
        [PAWN],
        hands=(["Earthquake Elephant"], []),
        board=({"a1": ["Knight"]}, {"a1": ["Pawn"]}),
    )
    knight = state.on_tile(tile("a1"))[0]
    state.apply_text("summon Earthquake Elephant b1")  # b1's enemy neighbours: a1, c1, b2
    state.apply_text("choose a1")
    assert tile("a1") not in state.tiles() and state.zone(knight) == OUT


def test_ex77_when_summoned_draws_after_the_card_has_left_the_hand():
    """When summoned – AFTER you play this card."""
    squire = demo("Naïve Squire")
    state = at([squire], [KNIGHT], hands=(["Naïve Squire", *["Filler"] * 9], []))
    state.apply_text("summon Naïve Squire b1")  # 10 → 9 → 10
    assert not state.is_terminal and state.hand_size(0) == 10


def test_ex78_an_assists_draws_count_from_the_hand_without_it():
    """You may attack and play cards at any time on your turn; If you EVER have 11 cards in your hand, you lose"""
    cookie, library = demo("Fortune Cookie"), demo("Library Card")
    state = at([cookie], [KNIGHT], hands=(["Fortune Cookie", *["Filler"] * 9], []))
    state.apply_text("play Fortune Cookie")  # 10 → 9 → 10; P1 has 4 tiles: no second draw
    assert not state.is_terminal and state.hand_size(0) == 10
    state = at([library], [KNIGHT], hands=(["Library Card", *["Filler"] * 9], []))
    state.apply_text("play Library Card")  # 10 → 9 → 11
    assert state.is_terminal and state.end_code == END_HAND and state.outcome().winners == (1,)


def test_ex79_a_monster_returned_to_hand_loses_what_it_gained_on_the_board():
    """Kill/Destroy – The monster is removed from the game. (A return to the hand is not a kill: no When killed;
    the card comes back as printed.)"""
    nanny, troll = demo("Tidal Nanny"), demo("Doorstop Troll")
    bat = demo("Dizzy Bat")
    state = p2_to_play([nanny], [troll, bat], hands=([], ["Doorstop Troll"]), board=({}, {"a1": ["Dizzy Bat"]}))
    state.apply_text("summon Doorstop Troll c1")
    state.apply_text("choose Dizzy Bat@a1")
    b = state.on_tile(tile("a1"))[0]
    assert state.defence_of(b) == 3
    end_turn(state)  # P1's turn
    state.place_card(next(i for i in state.deck(0) if state.tables.names[i] == "Tidal Nanny"), HAND, seat=0)
    state.set_main_phase(0, 20)
    hand_before = state.hand_size(1)
    state.apply_text("summon Tidal Nanny b1")
    state.apply_text("choose Dizzy Bat@a1")
    assert state.zone(b) == HAND and state.hand_size(1) == hand_before + 1  # no When killed draw
    end_turn(state)
    state.apply_text("summon Dizzy Bat c1")
    assert state.defence_of(b) == 2  # the Troll's +1 stayed behind


def test_ex80_the_first_player_ending_their_first_turn_with_ten_cards_loses():
    """At the end of your turn you must draw at least 1 card ... If you EVER have 11 cards in your hand, you lose"""
    state = rules_for([KNIGHT], [KNIGHT]).new_initial_state(0)
    state.resolve_chance()
    state.apply_text("draw 10")
    state.apply_text("draw 1")
    assert state.phase == "main" and state.active == 0
    state.apply_text("draw 1")
    assert state.is_terminal and state.end_code == END_HAND and state.outcome().winners == (1,)


def test_ex81_the_second_players_opening_draw_of_eleven_loses():
    """they'll instantaneously lose if they have 11 or more in their hand"""
    state = rules_for([KNIGHT], [KNIGHT]).new_initial_state(0)
    state.resolve_chance()
    state.apply_text("draw 1")
    state.apply_text("draw 11")
    assert state.is_terminal and state.end_code == END_HAND and state.outcome().winners == (0,)


def test_ex82_warlord_wombat_at_the_start_of_the_turn_lets_a_monster_move_twice():
    """At the start of your turn - ... BEFORE any other actions. (Warlord Wombat: 1 friendly monster may move or
    attack again this turn.)"""
    wombat = demo("Warlord Wombat")
    state = p2_to_play([wombat, KNIGHT], [], board=({"b3": ["Warlord Wombat"], "b1": ["Knight"]}, {}))
    start_of_p1_turn(state)
    state.apply_text("choose Knight@b1")
    state.apply_text("move Knight@b1 b2")
    state.apply_text("move Knight@b2 c2")
    assert names_on(state, "c2") == ["Knight"]
    refuses(state, "move Knight@c2 c1")


def test_ex83_berserk_beekeeper_attacks_twice_from_the_tile_it_moved_into():
    """When you kill an enemy monster if the tile it was on is now empty and your monster survived: Move your
    monster onto the tile (Berserk Beekeeper: At the start of your turn: This monster may attack twice this turn.)"""
    bee = demo("Berserk Beekeeper")
    state = p2_to_play([bee], [PAWN, PAWN], board=({"b1": ["Berserk Beekeeper"]}, {"a1": ["Pawn"], "a2": ["Pawn"]}))
    start_of_p1_turn(state)
    state.apply_text("attack a1 with Berserk Beekeeper@b1")
    state.apply_text("attack a2 with Berserk Beekeeper@a1")
    assert names_on(state, "a2") == ["Berserk Beekeeper"] and owner_of(state, "a1") == 0


def test_ex84_siege_snail_destroys_after_the_start_flip():
    """At the start of your turn - AFTER you have flipped any tiles you could've flipped due to having a monster on
    an enemy tile"""
    snail = demo("Siege Snail")
    state = p2_to_play(
        [snail, KNIGHT],
        [PAWN, PAWN, PAWN],
        board=({"b1": ["Siege Snail"], "a1": ["Knight"]}, {"c1": ["Pawn"], "a3": ["Pawn"], "c3": ["Pawn"]}),
    )
    start_of_p1_turn(state)
    state.apply_text("flip a1")  # a1 is P1's now: P2's only empty tile left is b2
    assert tile("b2") not in state.tiles() and owner_of(state, "a1") == 0


def test_ex85_tile_titans_condition_is_counted_when_its_sentence_resolves():
    """When summoned – AFTER you play this card. (Tile Titan: Kill 1 enemy monster on an adjacent tile. If you
    control 5 or more tiles, this monster may attack twice this turn.)"""
    titan = demo("Tile Titan")
    state = at(
        [titan],
        [PAWN, PAWN],
        hands=(["Tile Titan"], []),
        board=({}, {"a1": ["Pawn"], "b2": ["Pawn"]}),
        tiles={"b1": 0, "a2": 0, "c2": 0, "b3": 0, "c3": 0, "a1": 1, "c1": 1, "b2": 1, "a3": 1},
    )
    state.apply_text("summon Tile Titan b1")
    state.apply_text("choose Pawn@a1")  # a kill by an ability: a1 stays P2's
    t = state.on_tile(tile("b1"))[0]
    assert owner_of(state, "a1") == 1 and state.extra_attacks(t) == 1  # P1 has 5 tiles


def test_ex86_royal_cartographer_still_draws_when_its_tile_has_no_place():
    """If an ability cannot activate when it should ... then ignore it, or just that part of the ability."""
    cartographer = demo("Royal Cartographer")
    state = at([cartographer], [KNIGHT], hands=(["Royal Cartographer"], []), options={"tile_supply": 9})
    state.apply_text("summon Royal Cartographer b1")
    assert len(state.tiles()) == 9 and state.hand_size(0) == 1


def test_ex87_the_first_turns_mana_in_a_real_game():
    """The amount of mana you have is equal to the number of tiles your opponent controls + the number of monsters
    you control. For the first three turns the player that went second has 1 EXTRA mana."""
    state = started(rules_for([KNIGHT], [KNIGHT]))  # decks in list order: each opening draw is the Knight
    assert state.active == 0 and state.mana == 5  # P2's 5 tiles
    state.apply_text("summon Knight b1")
    state.apply_text("draw 1")
    assert state.active == 1 and state.mana == 4 + 0 + 1  # P1's 4 tiles, no monster, the bonus
    state.apply_text("draw 1")
    assert state.active == 0 and state.mana == 5 + 1  # P1 now counts its Knight


def test_ex88_very_long_nap_returning_to_a_full_hand_ends_the_game_before_its_draw():
    """If you EVER have 11 cards in your hand, you lose the game immediately and no other abilities activate."""
    nap = demo("Very Long Nap")
    state = at([nap], [KNIGHT], hands=(["Very Long Nap"], ["Filler"] * 10), board=({}, {"a1": ["Knight"]}))
    state.apply_text("play Very Long Nap")
    assert state.is_terminal and state.end_code == END_HAND and state.outcome().winners == (0,)
    assert state.hand_size(0) == 0  # its "Draw 1 card" did not happen


def test_ex89_bard_killed_by_an_assist_returns_one_of_the_assist_players_monsters():
    """When killed – AFTER this card has been killed. (Bard of Bad Tidings: Return 1 enemy monster to its owner's
    hand.)"""
    sand, bard = demo("Pocket Sand"), demo("Bard of Bad Tidings")
    tough = monster("Tough", 1, 1, 5)
    state = at(
        [sand, tough], [bard], hands=(["Pocket Sand"], []), board=({"b1": ["Tough"]}, {"a1": ["Bard of Bad Tidings"]})
    )
    b = state.on_tile(tile("a1"))[0]
    state.set_monster(b, defence=1)  # within Pocket Sand's reach
    state.apply_text("play Pocket Sand")
    assert state.zone(b) == OUT and names_on(state, "b1") == [] and "Tough" in hand_names(state, 0)


def test_ex90_hungry_hydras_kill_sets_off_tile_mole_for_the_moles_controller():
    """When killed – AFTER this card has been killed. The player that is told to add the tile, chooses where"""
    hydra, mole = demo("Hungry Hydra"), demo("Tile Mole")
    state = at([hydra], [mole], hands=(["Hungry Hydra"], []), board=({}, {"a1": ["Tile Mole"]}))
    n = len(state.tiles())
    state.apply_text("summon Hungry Hydra b1")  # a1 is b1's only neighbour with an enemy monster
    assert state.phase == "choice" and state.current_player == 1  # the Mole's controller places the tile
    state.apply_text(legal_texts(state)[0])
    assert len(state.tiles()) == n + 1 and owner_of(state, "a1") == 1 and state.current_player == 0


def test_ex91_mesmerist_moths_filter_sees_a_lasting_gain():
    """Take control - The monster in question becomes your monster (Mesmerist Moth: ... with attack 3 or less.)"""
    moth, goat = demo("Mesmerist Moth"), demo("Grudge-Holding Goat")
    state = at([moth], [goat], hands=(["Mesmerist Moth"], []), board=({}, {"a1": ["Grudge-Holding Goat"]}))
    g = state.on_tile(tile("a1"))[0]
    state.set_monster(g, attack=4)  # grown at the ends of P2's turns
    state.apply_text("summon Mesmerist Moth b1")
    assert state.controller(g) == 1  # no valid target: ignored


def test_ex92_sudden_sinkhole_destroying_the_last_enemy_tile_wins():
    """Destroying: Remove a tile from the board, but the tile must not have a monster on it."""
    sinkhole = demo("Sudden Sinkhole")
    state = at([sinkhole], [KNIGHT], hands=(["Sudden Sinkhole"], []), tiles={"b1": 0, "a1": 1})
    state.apply_text("play Sudden Sinkhole")
    assert state.is_terminal and state.end_code == END_NO_TILES and state.outcome().winners == (0,)
    state = at(
        [sinkhole], [KNIGHT], hands=(["Sudden Sinkhole"], []), board=({}, {"a1": ["Knight"]}), tiles={"b1": 0, "a1": 1}
    )
    state.apply_text("play Sudden Sinkhole")  # the tile holds a monster: no valid target
    assert not state.is_terminal and owner_of(state, "a1") == 1


def test_ex93_overly_generous_gnome_places_the_opponents_tile_next_to_one_of_theirs():
    """Adding: ... must be placed adjacent to a tile belonging to the same player. The player that is told to add
    the tile, chooses where it is placed, regardless of the owner of the eventual tile."""
    gnome = demo("Overly Generous Gnome")
    state = at([gnome], [], hands=(["Overly Generous Gnome"], []), tiles={"b1": 0, "b2": 1})
    state.apply_text("summon Overly Generous Gnome b1")
    assert state.current_player == 0 and state.phase == "choice"
    assert sorted(legal_texts(state)) == ["choose a2", "choose b3", "choose c2"]  # next to b2, not b1's b0/a1/c1
    state.apply_text("choose b3")
    assert owner_of(state, "b3") == 1
