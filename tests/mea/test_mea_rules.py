"""One scenario per rule sentence of the Méa rulebook (see docs/rules/mea.md)."""

from __future__ import annotations

import pytest

from cardbase.games.base import TERMINAL, IllegalAction, InvalidRules
from cardbase.games.mea import board as B
from cardbase.games.mea.actions import Draw, Shuffle
from cardbase.games.mea.codes import END_DECK_OUT, END_HAND, END_NO_TILES, END_TURN_LIMIT, OUT
from cardbase.games.mea.engine import MeaState
from cardbase.games.mea.rules import MeaRules
from tests.mea.conftest import (
    BRUTE,
    GIANT,
    KNIGHT,
    PAWN,
    WALL,
    Table,
    assist,
    hand_names,
    legal_texts,
    monster,
    names_on,
    rules_for,
    started,
    tile,
    where,
)


def refused(state, text: str, rule: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as error:
        state.apply_text(text)
    assert error.value.rule == rule, str(error.value)
    return error.value


# --- set-up -----------------------------------------------------------------------


def test_two_players_each_with_a_deck_and_nine_tiles():
    """find a friend who can play Méa, has a deck of cards and 9 tiles"""
    rules = rules_for([KNIGHT], [KNIGHT])
    assert rules.players == 2 and rules.tile_supply == 18
    with pytest.raises(InvalidRules, match="2 players"):
        MeaRules.from_options({**rules.to_options(), "players": 3})
    with pytest.raises(InvalidRules, match="two decks"):
        MeaRules(decks=(rules.decks[0],))  # type: ignore[arg-type]


def test_the_board_is_a_three_by_three_grid_of_four_yellow_and_five_blue():
    """a 3 by 3 grid of tiles 4 coloured yellow and five blue; The person who goes second is blue."""
    state = rules_for([KNIGHT], [KNIGHT]).new_initial_state(0)
    tiles = state.tiles()
    assert sorted(B.name(q) for q in tiles) == ["a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"]
    assert sum(1 for o in tiles.values() if o == 0) == 4  # seat 0 (first, yellow)
    assert sum(1 for o in tiles.values() if o == 1) == 5  # seat 1 (second, blue)
    # Default layout: blue on the corners and the centre.
    assert {B.name(q) for q, o in tiles.items() if o == 1} == {"a1", "c1", "b2", "a3", "c3"}


def test_the_layout_is_an_option():
    sides = rules_for([KNIGHT], [KNIGHT], layout="sides").new_initial_state(0).tiles()
    assert {B.name(q) for q, o in sides.items() if o == 0} == {"a1", "b1", "c1", "a2"}
    custom = rules_for([KNIGHT], [KNIGHT], layout="YB./.BY").new_initial_state(0).tiles()
    assert {B.name(q): o for q, o in custom.items()} == {"a2": 0, "b2": 1, "b1": 1, "c1": 0}
    with pytest.raises(InvalidRules):
        rules_for([KNIGHT], [KNIGHT], layout="YYY/YYY/YYY")


def test_decks_are_cards_of_the_game_with_known_stats():
    """Decks will consist of anywhere between 18-40 cards (checked by the deck format; the engine needs stats)."""
    unknown = monster("Mystery", 1, 1, 1)
    from dataclasses import replace

    with pytest.raises(InvalidRules, match="unknown attack"):
        rules_for([replace(unknown, attack=None)], [KNIGHT])


# --- the opening draw -------------------------------------------------------------------


def test_before_the_first_turn_both_players_draw_at_least_one_card():
    """Before you start both players draw at least 1 card each (can draw as many as they want ...)"""
    rules = rules_for([KNIGHT], [KNIGHT])
    state = rules.new_initial_state(0)
    state.apply(state.sample_chance())
    assert state.phase == "opening" and state.current_player == 0
    assert legal_texts(state) == [f"draw {k}" for k in range(1, 11)]
    refused(state, "draw 0", "draw-at-least-1")
    refused(state, "summon Knight b1", "opening-draw")
    state.apply_text("draw 7")
    assert state.current_player == 1 and len(state.hand(0)) == 7
    state.apply_text("draw 3")
    assert state.openings == (7, 3) and state.phase == "main" and state.active == 0


def test_drawing_eleven_or_more_in_the_opening_loses_at_once():
    """... but they'll instantaneously lose if they have 11 or more in their hand"""
    state = rules_for([KNIGHT], [KNIGHT]).new_initial_state(0)
    state.resolve_chance()
    assert Draw(11) not in state.legal_actions()  # legal, but not offered: it only loses
    state.apply(Draw(11))
    assert state.is_terminal and state.outcome().winners == (1,)
    assert state.end_code == END_HAND


def test_losing_draws_are_listed_with_the_option():
    state = rules_for([KNIGHT], [KNIGHT], list_losing_draws=True).new_initial_state(0)
    state.resolve_chance()
    assert len(state.legal_actions()) == 21  # the whole deck


# --- tiles and monsters -----------------------------------------------------------------


def test_at_most_two_monsters_on_a_tile():
    """You can have a maximum of 2 monsters on 1 tile."""
    state = started(rules_for([KNIGHT, PAWN, WALL], []))
    t = Table(state)
    t.put(0, "Knight", "b1")
    t.put(0, "Pawn", "b1")
    t.give(0, "Wall")
    t.put(0, "Filler", "a2")
    state = t.turn(0)
    refused(state, "summon Wall b1", "two-per-tile")
    refused(state, "move Filler@a2 b1", "adjacent")  # not adjacent either
    t.put(0, "Filler", "b3")
    state = t.turn(0)
    assert "summon Wall b3" in legal_texts(state)
    state.apply_text("move Knight@b1 a1")
    state.apply_text("summon Wall b1")
    assert len(state.on_tile(tile("b1"))) == 2


# --- ending a turn ------------------------------------------------------------------


def test_the_turn_ends_by_drawing_at_least_one_card_and_more_if_wanted():
    """At the end of your turn you must draw at least 1 card, but you can draw more!"""
    state = started(rules_for([KNIGHT], [KNIGHT]))
    state = Table(state).turn(0)
    before = len(state.hand(0))
    refused(state, "draw 0", "draw-at-least-1")
    state.apply_text("draw 3")
    assert len(state.hand(0)) == before + 3
    assert state.active == 1 and state.current_player == 1


def test_drawing_ends_the_turn_and_nothing_more_can_be_done():
    """drawing a spontaneous number of cards signifies that your turn is done"""
    state = started(rules_for([KNIGHT], [PAWN]))
    t = Table(state)
    state = t.turn(0)
    state.apply_text("draw 1")
    assert state.current_player == 1
    with pytest.raises(IllegalAction):
        state.apply_text("summon Knight b1")  # P1's turn is over: it is P2 to act


def test_eleven_cards_in_hand_loses_immediately_and_no_other_ability_activates():
    """If you EVER have 11 cards in your hand, you lose the game immediately and no other abilities activate."""
    drawer = monster(
        "Drawer",
        1,
        1,
        1,
        [
            {"trigger": "summoned", "effect": "draw", "amount": 1},
            {"trigger": "summoned", "effect": "add_tile", "target": "you", "amount": 1},
        ],
    )
    state = started(rules_for([drawer], [KNIGHT]))  # P1's opening draw is the Drawer
    t = Table(state)
    t.give(0, *["Filler"] * 9)
    state = t.turn(0)
    assert len(state.hand(0)) == 10
    tiles_before = len(state.tiles())
    state.apply_text("summon Drawer b1")  # hand 9, then draws to 10: still alive
    assert not state.is_terminal and state.phase == "choice"
    state.apply_text("choose d2")
    assert len(state.tiles()) == tiles_before + 1
    state.apply_text("draw 1")  # the end-of-turn draw makes 11: loses
    assert state.is_terminal and state.end_code == END_HAND and state.outcome().winners == (1,)


def test_an_ability_draw_to_eleven_loses_before_the_next_ability():
    drawer = monster(
        "Drawer",
        1,
        1,
        1,
        [
            {"trigger": "summoned", "effect": "draw", "amount": 2},
            {"trigger": "summoned", "effect": "add_tile", "target": "you", "amount": 1},
        ],
    )
    state = started(rules_for([drawer], [KNIGHT]))
    t = Table(state)
    t.give(0, *["Filler"] * 9)
    state = t.turn(0)
    tiles_before = len(state.tiles())
    state.apply_text("summon Drawer b1")  # 9 left in hand, draws 2: 11
    assert state.is_terminal and state.end_code == END_HAND
    assert len(state.tiles()) == tiles_before  # the tile was never added
    assert state.legal_actions() == ()


def test_a_hand_of_ten_must_still_draw_and_loses():
    state = started(rules_for([], []))
    t = Table(state)
    t.give(0, *["Filler"] * 9)
    state = t.turn(0, mana=0)
    assert len(state.hand(0)) == 10
    assert legal_texts(state) == ["draw 1"]
    state.apply_text("draw 1")
    assert state.end_code == END_HAND


def test_returning_a_monster_to_a_full_hand_loses_for_its_owner():
    bucket = monster(
        "Bucket", 1, 1, 1, [{"trigger": "summoned", "effect": "return_to_hand", "target": "enemy_monster"}]
    )
    state = started(rules_for([bucket], [KNIGHT]))
    t = Table(state)
    t.put(1, "Knight", "b2")
    t.give(1, *["Filler"] * 10)
    state = t.turn(0)
    assert len(state.hand(1)) == 10
    state.apply_text("summon Bucket b1")
    assert state.is_terminal and state.end_code == END_HAND and state.outcome().winners == (0,)


def test_with_an_empty_deck_you_obliterate_a_friendly_tile_instead_of_drawing():
    """When you have no cards in your deck, instead of drawing a card at the end of your turn you must
    OBLITERATE a friendly tile."""
    state = started(rules_for([KNIGHT, PAWN], [KNIGHT]))
    t = Table(state)
    t.put(0, "Pawn", "b1")
    t.empty_deck(0)
    state = t.turn(0, mana=0)
    ends = [a for a in legal_texts(state) if not a.startswith("move")]
    assert ends == ["obliterate a2", "obliterate b1", "obliterate b3", "obliterate c2"]
    refused(state, "draw 1", "deck-out")
    refused(state, "obliterate b2", "deck-out")
    pawn = state.on_tile(tile("b1"))[0]
    state.apply_text("obliterate b1")
    assert tile("b1") not in state.tiles() and state.zone(pawn) == OUT
    assert state.active == 1


def test_a_hand_of_ten_with_an_empty_deck_obliterates_instead_of_drawing_and_does_not_lose():
    """When you have no cards in your deck, instead of drawing a card at the end of your turn you must
    OBLITERATE a friendly tile: no card comes in, so a hand of ten stays at ten (the 11-card rule is not met)."""
    state = started(rules_for([], []))
    t = Table(state)
    t.give(0, *["Filler"] * 9)
    t.empty_deck(0)
    state = t.turn(0, mana=0)
    assert len(state.hand(0)) == 10
    assert not any(a.startswith("draw") for a in legal_texts(state))
    state.apply_text("obliterate a2")
    assert not state.is_terminal and state.active == 1 and len(state.hand(0)) == 10


def test_the_end_of_turn_draw_takes_at_most_the_cards_left_in_the_deck():
    """you must draw at least 1 card, but you can draw more: as many as the deck still holds."""
    state = started(rules_for([], [], filler=3))  # 3 cards, 1 drawn in the opening: 2 left
    state = Table(state).turn(0, mana=0)
    assert state.deck_size(0) == 2 and legal_texts(state) == ["draw 1", "draw 2"]
    refused(state, "draw 3", "draw-from-deck")
    state.apply_text("draw 2")
    assert state.deck_size(0) == 0 and state.active == 1


def test_deck_out_with_no_tile_left_loses():
    state = started(rules_for([], [], elimination="turn-start"))
    t = Table(state)
    for name in ("a2", "b1", "b3", "c2"):
        t.owner(name, 1)
    t.empty_deck(0)
    state = t.turn(0, mana=0)
    assert legal_texts(state) == ["obliterate none"]
    state.apply_text("obliterate none")
    assert state.end_code == END_DECK_OUT and state.outcome().winners == (1,)


def test_obliterating_your_last_tile_loses():
    state = started(rules_for([], []))
    t = Table(state)
    for name in ("a2", "b1", "b3"):
        t.owner(name, 1)
    t.empty_deck(0)
    state = t.turn(0, mana=0)
    state.apply_text("obliterate c2")
    assert state.end_code == END_NO_TILES and state.outcome().winners == (1,)


# --- moving and attacking ----------------------------------------------------------------


def test_a_monster_either_moves_once_or_attacks_once():
    """Unless stated otherwise, your monsters can EITHER move once OR attack once on your turn."""
    state = started(rules_for([KNIGHT, PAWN], [PAWN, PAWN]))
    t = Table(state)
    t.put(0, "Knight", "b1")
    t.put(0, "Pawn", "a2")
    t.put(1, "Pawn", "b2")
    state = t.turn(0)
    state.apply_text("move Knight@b1 c1")
    refused(state, "move Knight@c1 c2", "move-or-attack-once")
    refused(state, "attack b2 with Knight@c1", "adjacent")
    state.apply_text("attack b2 with Pawn@a2")  # 1 ≥ 1: kills; the Pawn dies too (1 ≤ 1)
    assert names_on(state, "b2") == []


def test_an_attacker_cannot_move_afterwards():
    state = started(rules_for([KNIGHT], [PAWN, WALL]))
    t = Table(state)
    t.put(0, "Knight", "b1")
    t.put(1, "Pawn", "b2")
    t.put(1, "Wall", "b2")  # 3 < 6: the Pawn dies, the Wall stays; the Knight stays on b1
    state = t.turn(0)
    state.apply_text("attack b2 with Knight@b1")
    refused(state, "move Knight@b1 a1", "move-or-attack-once")


def test_a_monster_moves_to_an_adjacent_tile_with_room_and_no_enemy():
    state = started(rules_for([KNIGHT], [PAWN]))
    t = Table(state)
    t.put(0, "Knight", "b1")
    t.put(1, "Pawn", "a1")
    state = t.turn(0)
    assert {a for a in legal_texts(state) if a.startswith("move")} == {"move Knight@b1 c1", "move Knight@b1 b2"}
    refused(state, "move Knight@b1 a1", "move-no-enemy")
    refused(state, "move Knight@b1 b3", "adjacent")
    refused(state, "move Knight@b1 e5", "no-tile")
    state.apply_text("move Knight@b1 b2")  # onto an enemy tile without monsters: allowed
    assert names_on(state, "b2") == ["Knight"]


def test_attack_only_adjacent_and_only_if_it_can_kill():
    """You may attack monsters that are in adjacent tiles, if you can kill them (if your monster's attack is
    equal to or higher than the other monster's defence)"""
    state = started(rules_for([KNIGHT, PAWN], [KNIGHT, WALL]))
    t = Table(state)
    t.put(0, "Knight", "b1")
    t.put(0, "Pawn", "a3")
    t.put(1, "Knight", "b2")  # defence 3 = attack 3: may attack
    t.put(1, "Wall", "c1")  # defence 6 > 3: may not
    state = t.turn(0)
    attacks = [a for a in legal_texts(state) if a.startswith("attack")]
    assert attacks == ["attack b2 with Knight@b1"]
    refused(state, "attack c1 with Knight@b1", "attack-must-kill")
    refused(state, "attack b2 with Pawn@a3", "adjacent")
    refused(state, "attack a1 with Knight@b1", "attack-enemy")


def test_the_attack_hits_every_monster_on_the_tile():
    """... and you must attack every monster on the tile."""
    state = started(rules_for([GIANT], [PAWN, KNIGHT]))
    t = Table(state)
    t.put(0, "Giant", "b1")
    t.put(1, "Pawn", "b2")
    t.put(1, "Knight", "b2")
    state = t.turn(0)
    state.apply_text("attack b2 with Giant@b1")
    assert names_on(state, "b2") == ["Giant"]  # both killed, the Giant moved in
    assert state.tiles()[tile("b2")] == 0


def test_an_attack_that_cannot_kill_everything_leaves_the_others_and_the_attacker_stays():
    """If there is still a monster on the tile, your monster must stay on the tile it attacked from."""
    state = started(rules_for([KNIGHT], [PAWN, WALL]))
    t = Table(state)
    t.put(0, "Knight", "b1")
    t.put(1, "Pawn", "b2")
    t.put(1, "Wall", "b2")
    state = t.turn(0)
    state.apply_text("attack b2 with Knight@b1")
    assert names_on(state, "b2") == ["Wall"] and names_on(state, "b1") == ["Knight"]
    assert state.tiles()[tile("b2")] == 1


def test_option_attack_rule_all_needs_to_kill_every_monster():
    state = started(rules_for([KNIGHT], [PAWN, WALL], attack_rule="all"))
    t = Table(state)
    t.put(0, "Knight", "b1")
    t.put(1, "Pawn", "b2")
    t.put(1, "Wall", "b2")
    state = t.turn(0)
    refused(state, "attack b2 with Knight@b1", "attack-must-kill")


def test_two_monsters_adjacent_to_a_tile_attack_together_with_their_combined_attack():
    """If you have two monsters adjacent to the same tile, you can attack with both of them simultaneously
    ... which attacks every monster on the tile with their combined attack."""
    state = started(rules_for([KNIGHT, PAWN], [WALL]))
    t = Table(state)
    t.put(0, "Knight", "b1")
    t.put(0, "Pawn", "a2")
    t.put(1, "Wall", "b2")  # 1/6: neither alone (3, 1) can kill; together 4 < 6 — no
    state = t.turn(0)
    assert not [a for a in legal_texts(state) if a.startswith("attack")]
    state = started(rules_for([KNIGHT, BRUTE], [WALL]))
    t = Table(state)
    t.put(0, "Knight", "b1")
    t.put(0, "Brute", "a2")
    t.put(1, "Wall", "b2")
    state = t.turn(0)
    attacks = [a for a in legal_texts(state) if a.startswith("attack")]
    assert attacks == ["attack b2 with Brute@a2 + Knight@b1"]  # 5 + 3 = 8 ≥ 6
    state.apply_text("attack b2 with Knight@b1 + Brute@a2")  # any order
    # The Wall hits back with 1: the Brute (defence 2) and Knight (3) survive; both move in, b2 flips.
    assert sorted(names_on(state, "b2")) == ["Brute", "Knight"] and state.tiles()[tile("b2")] == 0
    assert not state.can_attack(state.on_tile(tile("b2"))[0])


def test_a_summoned_monster_acts_alone_or_joins_one_not_summoned_this_turn():
    """... (if both can attack or if one can attack and one was summoned this turn); they move or attack alone
    on this turn. However, they can attack simultaneously with a monster that ... was not summoned this turn"""
    state = started(rules_for([KNIGHT, BRUTE, PAWN], [WALL]))
    t = Table(state)
    t.give(0, "Knight", "Brute", "Pawn")
    t.put(1, "Wall", "b2")
    state = t.turn(0)
    state.apply_text("summon Knight b1")
    state.apply_text("summon Brute a2")
    refused(state, "attack b2 with Knight@b1 + Brute@a2", "summoned-alone")
    assert "move Knight@b1 c1" in legal_texts(state)  # a summoned monster may move
    state = started(rules_for([KNIGHT, BRUTE], [WALL]))
    t = Table(state)
    t.put(0, "Knight", "b1")
    t.give(0, "Brute")
    t.put(1, "Wall", "b2")
    state = t.turn(0)
    state.apply_text("summon Brute a2")
    state.apply_text("attack b2 with Brute@a2 + Knight@b1")
    assert state.tiles()[tile("b2")] == 0


def test_under_summoned_alone_refused_a_summoned_monster_only_joins_a_pair():
    """The other reading of "they move or attack alone on this turn. However, they can attack simultaneously with
    a monster that ... was not summoned this turn" (option summoned_alone=refused, summoning sickness): a monster
    summoned this turn neither moves nor attacks by itself; it attacks together with one not summoned this turn;
    next turn it acts as any other."""
    state = started(rules_for([GIANT, KNIGHT], [PAWN, WALL], summoned_alone="refused"))
    t = Table(state)
    t.give(0, "Giant")
    t.put(0, "Knight", "a2")
    t.put(1, "Pawn", "b2")
    state = t.turn(0)
    state.apply_text("summon Giant b1")
    giant = state.on_tile(tile("b1"))[0]
    legal = legal_texts(state)
    assert not any(a.startswith("move Giant") for a in legal) and "attack b2 with Giant@b1" not in legal
    assert "attack b2 with Knight@a2" in legal and "attack b2 with Knight@a2 + Giant@b1" in legal
    assert not state.can_move(giant)
    move = refused(state, "move Giant@b1 c1", "summoned-alone")
    assert "summoned this turn" in str(move) and "summoned_alone=refused" in str(move)
    refused(state, "attack b2 with Giant@b1", "summoned-alone")
    state.apply_text("attack b2 with Giant@b1 + Knight@a2")  # any order
    assert state.tiles()[tile("b2")] == 0
    # Under the default the same summon may move or attack at once.
    state = started(rules_for([GIANT, KNIGHT], [PAWN, WALL]))
    t = Table(state)
    t.give(0, "Giant")
    t.put(1, "Pawn", "b2")
    state = t.turn(0)
    state.apply_text("summon Giant b1")
    assert {"move Giant@b1 c1", "attack b2 with Giant@b1"} <= set(legal_texts(state))


def test_under_summoned_alone_refused_the_monster_acts_alone_from_its_next_turn():
    state = started(rules_for([GIANT], [PAWN, WALL], summoned_alone="refused"))
    t = Table(state)
    t.give(0, "Giant")
    t.put(1, "Wall", "c3")
    state = t.turn(0)
    state.apply_text("summon Giant b1")
    assert not any(a.startswith(("move Giant", "attack")) for a in legal_texts(state))
    state.apply_text("draw 1")
    while state.current_player == 1:  # the opponent's turn: it only draws
        state.apply_text("flip none" if "flip none" in legal_texts(state) else "draw 1")
    assert state.current_player == 0 and "move Giant@b1 c1" in legal_texts(state)


def test_a_monster_summoned_this_turn_may_attack_alone():
    """they move or attack alone on this turn: a monster may attack on the turn it is summoned."""
    state = started(rules_for([GIANT], [PAWN]))
    t = Table(state)
    t.give(0, "Giant")
    t.put(1, "Pawn", "b2")
    state = t.turn(0)
    state.apply_text("summon Giant b1")
    giant = state.on_tile(tile("b1"))[0]
    state.apply_text("attack b2 with Giant@b1")
    assert where(state, giant) == "b2" and state.tiles()[tile("b2")] == 0


def test_two_monsters_on_one_tile_adjacent_to_another_may_attack_it_together():
    """If you have two monsters adjacent to the same tile, you can attack with both of them simultaneously:
    two monsters standing on one tile are both adjacent to its neighbours."""
    state = started(rules_for([KNIGHT, BRUTE], [WALL]))
    t = Table(state)
    t.put(0, "Knight", "b1")
    t.put(0, "Brute", "b1")
    t.put(1, "Wall", "b2")  # 3 + 5 = 8 ≥ 6; the Wall's 1 kills neither (3, 2 > 1)
    state = t.turn(0)
    state.apply_text("attack b2 with Knight@b1 + Brute@b1")
    assert sorted(names_on(state, "b2")) == ["Brute", "Knight"] and names_on(state, "b1") == []
    assert state.tiles()[tile("b2")] == 0


def test_summoned_this_turn_is_this_turn_for_both_seats_and_both_views():
    """they move or attack alone on this turn: "summoned this turn" ends with the turn, for every monster — the
    opponent's monster summoned on their turn is not "summoned this turn" on mine, in the state or in what
    either seat sees."""
    state = started(rules_for([KNIGHT], [PAWN]))
    t = Table(state)
    t.give(1, "Pawn")
    state = t.turn(1, mana=5)
    state.apply_text("summon Pawn a1")
    pawn = state.on_tile(tile("a1"))[0]
    assert state.summoned_this_turn(pawn)
    state.apply_text("draw 1")  # P1's turn
    assert state.active == 0 and not state.summoned_this_turn(pawn)
    for seat in (0, 1):
        seen = [m for m in state.observation(seat).public()["monsters"] if m["name"] == "Pawn"]
        assert [m["summoned_this_turn"] for m in seen] == [False], seat


def test_retaliation_kills_an_attacker_whose_defence_is_at_most_the_defenders_attack():
    """If your monster's defence is equal to or lower than the attack of the monster you're attacking then your
    monster is also killed."""
    state = started(rules_for([BRUTE], [KNIGHT]))
    t = Table(state)
    brute = t.put(0, "Brute", "b1")  # 5/2 against 3/3: kills, and 2 ≤ 3 dies
    t.put(1, "Knight", "b2")
    state = t.turn(0)
    state.apply_text("attack b2 with Brute@b1")
    assert state.zone(brute) == OUT and names_on(state, "b2") == []
    assert state.tiles()[tile("b2")] == 1  # no survivor: nobody moves in, no flip
    state = started(rules_for([GIANT], [KNIGHT]))
    t = Table(state)
    giant = t.put(0, "Giant", "b1")  # 7 > 3 survives
    t.put(1, "Knight", "b2")
    state = t.turn(0)
    state.apply_text("attack b2 with Giant@b1")
    assert where(state, giant) == "b2"


def test_retaliation_is_the_total_attack_of_the_monsters_on_the_tile():
    """REMEMBER on your opponent's turn your monsters have attack equal to the total attack of both monsters on
    the tile!"""
    tough = monster("Tough", 5, 6, 4)
    state = started(rules_for([tough], [KNIGHT, PAWN]))
    t = Table(state)
    attacker = t.put(0, "Tough", "b1")  # defence 4: Knight 3 alone would not kill it; 3 + 1 = 4 does
    t.put(1, "Knight", "b2")
    t.put(1, "Pawn", "b2")
    state = t.turn(0)
    state.apply_text("attack b2 with Tough@b1")
    assert state.zone(attacker) == OUT and names_on(state, "b2") == []


def test_a_kill_that_empties_an_enemy_tile_moves_the_survivor_in_and_flips_it():
    """When you kill an enemy monster if the tile it was on is now empty and your monster survived: Move your
    monster onto the tile and if it was an enemy tile, flip it."""
    state = started(rules_for([GIANT], [PAWN]))
    t = Table(state)
    giant = t.put(0, "Giant", "b1")
    t.put(1, "Pawn", "b2")
    state = t.turn(0)
    state.apply_text("attack b2 with Giant@b1")
    assert where(state, giant) == "b2" and state.tiles()[tile("b2")] == 0
    assert names_on(state, "b1") == []


def test_a_kill_on_your_own_tile_moves_in_without_a_flip():
    state = started(rules_for([GIANT], [PAWN]))
    t = Table(state)
    giant = t.put(0, "Giant", "c1")  # P1's Giant on P2's tile c1
    t.put(1, "Pawn", "c2")  # P2's Pawn on P1's tile c2
    state = t.turn(0)
    state.apply_text("attack c2 with Giant@c1")
    assert where(state, giant) == "c2"
    assert state.tiles()[tile("c2")] == 0 and state.tiles()[tile("c1")] == 1  # nothing flipped


def _two_against_a_wall(move_in: str):
    state = started(rules_for([KNIGHT, BRUTE], [WALL], move_in=move_in))
    t = Table(state)
    t.put(0, "Knight", "b1")
    t.put(0, "Brute", "a2")
    t.put(1, "Wall", "b2")
    return t.turn(0)


@pytest.mark.parametrize(
    ("typed", "mover", "stays", "tile_left"),
    [
        ("attack b2 with Brute@a2 + Knight@b1", "Brute", "Knight", "b1"),  # board order
        ("attack b2 with Knight@b1 + Brute@a2", "Knight", "Brute", "a2"),  # against board order
    ],
)
def test_option_move_in_first_moves_only_the_first_attacker_as_typed(typed, mover, stays, tile_left):
    """MeaRules: under move_in="first" the first attacker *in the action's order* moves in."""
    state = _two_against_a_wall("first")
    action = state.apply_text(typed)
    assert str(action) == typed  # the order is part of the action, and of the record
    assert names_on(state, "b2") == [mover] and names_on(state, tile_left) == [stays]


def test_move_in_first_lists_each_order_once_and_move_in_all_one_attack():
    pair = {"attack b2 with Brute@a2 + Knight@b1", "attack b2 with Knight@b1 + Brute@a2"}
    first = [a for a in legal_texts(_two_against_a_wall("first")) if " + " in a]
    assert sorted(first) == sorted(pair)  # two choices: who moves in
    state = _two_against_a_wall("all")
    assert [a for a in legal_texts(state) if " + " in a] == ["attack b2 with Brute@a2 + Knight@b1"]
    action = state.apply_text("attack b2 with Knight@b1 + Brute@a2")  # any order: the same attack
    assert str(action) == "attack b2 with Brute@a2 + Knight@b1" and state.history[-1] == action
    assert sorted(names_on(state, "b2")) == ["Brute", "Knight"]


# --- flipping -------------------------------------------------------------------------


def start_of_turn(state, seat: int):
    """End the other player's turn so that ``seat``'s begins."""
    t = Table(state)
    state = t.turn(1 - seat, mana=0)
    state.apply_text("draw 1")
    return state


def test_at_the_start_of_your_turn_you_may_flip_one_enemy_tile_your_monster_is_on():
    """Flipping: Change a tile's owner to you. At the start of your turn you may flip ONE enemy tile that has a
    monster belonging to you on it."""
    state = started(rules_for([KNIGHT, PAWN], []))
    t = Table(state)
    t.put(0, "Knight", "b2")
    t.put(0, "Pawn", "a1")
    state = start_of_turn(state, 0)
    assert state.phase == "flip" and state.current_player == 0
    assert legal_texts(state) == ["flip a1", "flip b2", "flip none"]
    refused(state, "flip c1", "flip-own-monster")
    refused(state, "draw 1", "start-flip-first")
    state.apply_text("flip b2")
    assert state.tiles()[tile("b2")] == 0 and state.tiles()[tile("a1")] == 1  # only one
    assert state.phase == "main"
    refused(state, "flip a1", "start-flip-only")


def test_the_start_flip_may_be_declined():
    state = started(rules_for([KNIGHT], []))
    Table(state).put(0, "Knight", "b2")
    state = start_of_turn(state, 0)
    state.apply_text("flip none")
    assert state.tiles()[tile("b2")] == 1 and state.phase == "main"


def test_no_flip_phase_without_a_monster_on_an_enemy_tile():
    state = started(rules_for([KNIGHT], []))
    Table(state).put(0, "Knight", "b1")
    state = start_of_turn(state, 0)
    assert state.phase == "main"


def test_a_flipped_enemy_monster_is_moved_by_its_owner_to_an_adjacent_tile_of_theirs():
    """If you happen to flip a tile with an enemy monster on it, the opponent must move it to an adjacent enemy
    tile with less than 2 monsters on"""
    state = started(rules_for([KNIGHT], [PAWN]))
    t = Table(state)
    t.put(0, "Knight", "b2")
    pawn = t.put(1, "Pawn", "b2")  # a mixed tile (e.g. after a take control)
    state = start_of_turn(state, 0)
    state.apply_text("flip b2")
    # P2's tiles next to b2: none in the checkerboard (a2, b1, b3, c2 are P1's) → back to hand
    assert state.zone(pawn) == 1 and pawn in state.hand(1)
    state = started(rules_for([KNIGHT], [PAWN], layout="sides"))
    t = Table(state)
    t.put(0, "Knight", "b2")
    pawn = t.put(1, "Pawn", "b2")
    state = start_of_turn(state, 0)
    state.apply_text("flip b2")
    # P2 (blue) owns b3 and c2 next to b2: P2 chooses.
    assert state.phase == "choice" and state.current_player == 1
    assert legal_texts(state) == ["choose b3", "choose c2"]
    refused(state, "choose a2", "choice-target")
    state.apply_text("choose c2")
    assert where(state, pawn) == "c2" and state.current_player == 0 and state.phase == "main"


def test_a_displaced_monster_without_room_returns_to_its_owners_hand():
    """(if this is not possible, the monster is returned to the owner's hand)"""
    state = started(rules_for([KNIGHT], [PAWN, WALL, WALL, BRUTE, BRUTE], layout="sides"))
    t = Table(state)
    t.put(0, "Knight", "b2")
    pawn = t.put(1, "Pawn", "b2")
    t.put(1, "Wall", "b3")
    t.put(1, "Brute", "b3")
    t.put(1, "Wall", "c2")
    t.put(1, "Brute", "c2")
    state = start_of_turn(state, 0)
    state.apply_text("flip b2")
    assert pawn in state.hand(1)


@pytest.mark.parametrize(("displaced_onto", "goes"), [("any", "a2"), ("no-enemy", "hand")])
def test_a_displaced_monster_beside_an_enemy_monster_as_the_option_says(displaced_onto, goes):
    """the opponent must move it to an adjacent enemy tile with less than 2 monsters on: P2's only tile next to
    the flipped b2 is a2, which holds one monster — P1's. "less than 2 monsters" (any, the default) lets the Pawn
    go there and share it; no-enemy treats the displacement as a move (move_onto_enemy="refused"): to hand."""
    state = started(rules_for([KNIGHT, PAWN], [PAWN], displaced_onto=displaced_onto))
    t = Table(state)
    t.owner("a2", 1)
    t.put(0, "Pawn", "a2")  # P1's Pawn on P2's a2
    t.put(0, "Knight", "b2")
    pawn = t.put(1, "Pawn", "b2")  # a mixed tile (e.g. after a take control)
    state = start_of_turn(state, 0)
    state.apply_text("flip b2")
    assert where(state, pawn) == goes


def test_two_displaced_monsters_with_room_for_one_their_controller_chooses_which_moves():
    """the opponent must move it to an adjacent enemy tile with less than 2 monsters on (if this is not possible,
    the monster is returned to the owner's hand): an ability flips a tile with two enemy monsters and their
    side has room for one next to it. Moving either is possible; the opponent, who must move them, chooses
    which; the other returns to its owner's hand."""
    ferret = monster(
        "Ferret",
        1,
        1,
        1,
        [{"trigger": "summoned", "effect": "flip_tile", "target": "enemy_tile", "filter": {"adjacent": True}}],
    )
    for kept in ("Knight", "Pawn"):
        state = started(rules_for([ferret], [KNIGHT, PAWN, WALL]))
        t = Table(state)
        t.give(0, "Ferret")
        t.owner("a2", 1)  # P2's a2, next to b2, has room for one more
        t.put(1, "Wall", "a2")
        knight = t.put(1, "Knight", "b2")
        pawn = t.put(1, "Pawn", "b2")
        state = t.turn(0)
        state.apply_text("summon Ferret b1")
        state.apply_text("choose b2")  # flips b2: both of P2's monsters must leave it
        assert state.phase == "choice" and state.current_player == 1
        assert legal_texts(state) == ["choose Knight@b2", "choose Pawn@b2"]
        assert "which" in state.choice()["for"]
        state.apply_text(f"choose {kept}@b2")
        moved, back = (knight, pawn) if kept == "Knight" else (pawn, knight)
        assert where(state, moved) == "a2" and back in state.hand(1)
        assert state.phase == "main" and state.current_player == 0


def test_two_displaced_monsters_with_room_for_both_or_none_need_no_choice_of_which():
    ferret = monster(
        "Ferret",
        1,
        1,
        1,
        [{"trigger": "summoned", "effect": "flip_tile", "target": "enemy_tile", "filter": {"adjacent": True}}],
    )
    state = started(rules_for([ferret], [KNIGHT, PAWN]))
    t = Table(state)
    t.give(0, "Ferret")
    t.owner("a2", 1)  # room for two
    knight = t.put(1, "Knight", "b2")
    pawn = t.put(1, "Pawn", "b2")
    state = t.turn(0)
    state.apply_text("summon Ferret b1")
    state.apply_text("choose b2")
    assert where(state, knight) == "a2" and where(state, pawn) == "a2" and state.phase == "main"


# --- tiles: adding, destroying, obliterating -----------------------------------------


def test_adding_a_tile_next_to_one_of_its_owner_and_the_player_told_chooses_where():
    """Adding: Add a tile belonging to a player, but must be placed adjacent to a tile belonging to the same
    player. The player that is told to add the tile, chooses where it is placed, regardless of the owner of the
    eventual tile."""
    gnome = monster("Gnome", 1, 1, 1, [{"trigger": "summoned", "effect": "add_tile", "target": "opponent"}])
    state = started(rules_for([gnome], []))
    t = Table(state)
    t.give(0, "Gnome")
    state = t.turn(0)
    state.apply_text("summon Gnome b1")
    assert state.phase == "choice" and state.current_player == 0  # P1 chooses where P2's tile goes
    options = legal_texts(state)
    # Next to P2's corners a1, c1, a3, c3 (and b2, whose neighbours are all tiles)
    assert options == [
        "choose -a1",
        "choose -a3",
        "choose a0",
        "choose a4",
        "choose c0",
        "choose c4",
        "choose d1",
        "choose d3",
    ]
    state.apply_text("choose d1")
    assert state.tiles()[tile("d1")] == 1


def test_destroying_needs_an_empty_tile_obliterating_takes_the_monsters_too():
    """Destroying: Remove a tile from the board, but the tile must not have a monster on it.
    Obliterating: Remove a tile from the board, and any monster(s) on top of it."""
    bat = monster("Bat", 1, 1, 1, [{"trigger": "killed", "effect": "draw", "amount": 1}])
    shovel = monster("Shovel", 1, 1, 1, [{"trigger": "summoned", "effect": "destroy_tile", "target": "enemy_tile"}])
    quake = monster(
        "Quake",
        1,
        1,
        1,
        [{"trigger": "summoned", "effect": "obliterate_tile", "target": "enemy_tile", "filter": {"adjacent": True}}],
    )
    state = started(rules_for([shovel, quake], [bat, PAWN]))
    t = Table(state)
    t.give(0, "Shovel", "Quake")
    bat_i = t.put(1, "Bat", "a1")
    t.put(1, "Pawn", "c1")
    t.put(1, "Filler", "a3")
    state = t.turn(0)
    state.apply_text("summon Shovel b1")
    assert legal_texts(state) == ["choose b2", "choose c3"]  # a1, c1, a3 have monsters
    state.apply_text("choose c3")
    assert tile("c3") not in state.tiles()
    hand = len(state.hand(1))
    state.apply_text("summon Quake a2")  # adjacent enemy tiles: a1 (Bat), a3 (Filler), b2
    state.apply_text("choose a1")
    assert tile("a1") not in state.tiles() and state.zone(bat_i) == OUT
    assert len(state.hand(1)) == hand  # obliterated, not killed: no When killed


# --- mana -----------------------------------------------------------------------------


def test_mana_is_the_opponents_tiles_plus_your_monsters():
    """The amount of mana you have is equal to the number of tiles your opponent controls + the number of
    monsters you control."""
    state = started(rules_for([KNIGHT, PAWN, WALL], []))
    t = Table(state)
    t.put(0, "Knight", "b1")
    t.put(0, "Pawn", "b2")  # on an enemy tile: still P1's monster
    t.put(0, "Wall", "a2")
    state = start_of_turn(state, 0)
    assert state.mana == 5 + 3  # counted before the flip
    state.apply_text("flip b2")
    assert state.mana == 8


def test_option_mana_counted_after_the_flip():
    state = started(rules_for([KNIGHT], [], mana_count="after-flip"))
    Table(state).put(0, "Knight", "b2")
    state = start_of_turn(state, 0)
    state.apply_text("flip b2")
    assert state.mana == 4 + 1


def test_mana_is_at_least_three_and_the_second_player_adds_one_on_their_first_three_turns():
    """If you should have less than 3 mana, you instead have 3 mana. (Added before the second player's extra
    mana, so they'd have 4). For the first three turns the player that went second has 1 EXTRA mana."""
    layout = "YYY/YYY/YYB"  # P1 has 8 tiles, P2 one
    state = started(rules_for([], [], layout=layout))
    assert state.mana == 3  # P1's first turn: 1 enemy tile + 0 monsters → minimum 3
    mana = []
    for _ in range(4):
        state.apply_text("draw 1")
        mana.append(state.mana)  # P2: 8 + 0 = 8, +1 on its first three turns
        state.apply_text("draw 1")
    assert mana == [9, 9, 9, 8]
    state = started(rules_for([], [], layout="BBB/BBB/BBY"))
    state.apply_text("draw 1")
    assert state.mana == 3 + 1  # P2: 1 tile → 3, then +1


@pytest.mark.parametrize(("bonus_turns", "expected"), [(3, [9, 9, 9, 8]), (1, [9, 8, 8, 8])])
def test_the_second_players_bonus_turns_are_an_option(bonus_turns, expected):
    """For the first three turns the player that went second has 1 EXTRA mana: P2's own first three turns (the
    default), or the game's first three turns (P1, P2, P1: P2's first turn only, bonus_turns=1)."""
    state = started(rules_for([], [], layout="YYY/YYY/YYB", bonus_turns=bonus_turns))
    mana = []
    for _ in range(4):
        state.apply_text("draw 1")
        mana.append(state.mana)
        state.apply_text("draw 1")
    assert mana == expected


def test_summon_only_on_your_tile_without_an_enemy_monster_and_pay_its_cost():
    """You can summon monsters on any tile that you control without an enemy monster on"""
    state = started(rules_for([KNIGHT, GIANT], [PAWN]))
    t = Table(state)
    t.give(0, "Knight", "Giant")
    t.put(1, "Pawn", "b1", controller=1)
    state = t.turn(0, mana=5)
    refused(state, "summon Knight b2", "summon-own")
    refused(state, "summon Knight b1", "summon-own")
    refused(state, "summon Giant a2", "mana")
    refused(state, "summon Pawn a2", "hold-card")
    state.apply_text("summon knight a2")  # names in any case
    assert state.mana == 3 and names_on(state, "a2") == ["Knight"]


# --- timing words ------------------------------------------------------------------------


def test_kill_removes_the_monster_from_the_game():
    """Kill/Destroy – The monster is removed from the game."""
    state = started(rules_for([GIANT], [PAWN]))
    t = Table(state)
    t.put(0, "Giant", "b1")
    pawn = t.put(1, "Pawn", "b2")
    state = t.turn(0)
    state.apply_text("attack b2 with Giant@b1")
    assert state.zone(pawn) == OUT and pawn in state.out_of_play()


def test_when_summoned_happens_after_playing_and_not_if_the_monster_died_coming_in():
    """When summoned – AFTER you play this card. Does not activate if the monster is destroyed as it comes
    onto the board."""
    squire = monster("Squire", 1, 1, 1, [{"trigger": "summoned", "effect": "draw", "amount": 1}])
    doomed = monster(
        "Doomed",
        1,
        1,
        1,
        [
            {"trigger": "summoned", "effect": "kill", "target": "friendly_monster"},
            {"trigger": "summoned", "effect": "draw", "amount": 1},
        ],
    )
    state = started(rules_for([squire, doomed], []))
    t = Table(state)
    t.give(0, "Squire", "Doomed")
    state = t.turn(0)
    hand = len(state.hand(0))
    state.apply_text("summon Squire b1")
    assert len(state.hand(0)) == hand - 1 + 1
    state.apply_text("summon Doomed a2")  # kills a friendly monster: chooses among Squire and itself
    state.apply_text("choose Doomed@a2")
    assert len(state.hand(0)) == hand - 1  # its draw did not activate: it is gone


def test_when_killed_happens_after_the_flip_its_death_caused():
    """When killed – AFTER this card has been killed. Also after the tile has been flipped if this monster's
    death caused one to flip."""
    mole = monster(
        "Mole",
        1,
        0,
        1,
        [{"trigger": "killed", "condition": {"count": "friendly_tiles", "at_most": 4}, "effect": "draw", "amount": 1}],
    )
    state = started(rules_for([GIANT], [mole]))
    t = Table(state)
    t.put(0, "Giant", "b1")
    t.put(1, "Mole", "b2")
    state = t.turn(0)
    hand = len(state.hand(1))
    state.apply_text("attack b2 with Giant@b1")  # P2 goes from 5 tiles to 4 by the flip, then draws
    assert len(state.hand(1)) == hand + 1


def test_at_the_end_of_your_turn_happens_after_the_draw():
    """At the end of your turn - AFTER you have drawn the card(s)."""
    goat = monster(
        "Goat",
        1,
        1,
        1,
        [
            {
                "trigger": "turn_end",
                "condition": {"count": "cards_in_hand", "at_least": 3},
                "effect": "gain_attack",
                "target": "self",
            }
        ],
    )
    state = started(rules_for([goat], []))
    t = Table(state)
    g = t.put(0, "Goat", "b1")
    t.empty_hand(0)
    t.give(0, "Filler", "Filler")
    state = t.turn(0)
    state.apply_text("draw 1")  # 3 cards: then the ability
    assert state.attack_of(g) == 2


def test_at_the_start_of_your_turn_happens_after_the_flip_and_before_anything_else():
    """At the start of your turn - AFTER you have flipped any tiles ..., but BEFORE any other actions."""
    newt = monster(
        "Newt",
        1,
        1,
        1,
        [
            {
                "trigger": "turn_start",
                "condition": {"count": "friendly_tiles", "at_least": 5},
                "effect": "gain_attack",
                "target": "self",
            }
        ],
    )
    state = started(rules_for([newt], []))
    n = Table(state).put(0, "Newt", "b2")
    state = start_of_turn(state, 0)
    assert state.attack_of(n) == 1 and state.phase == "flip"
    state.apply_text("flip b2")  # 5 tiles now, then the ability
    assert state.attack_of(n) == 2


def test_take_control_makes_it_yours_and_the_card_says_whether_it_acts():
    """Take control - The monster in question becomes your monster and whether it can move/attack this turn will
    be stated on the card."""
    toad = monster(
        "Toad",
        1,
        1,
        1,
        [
            {
                "trigger": "summoned",
                "effect": "take_control",
                "target": "enemy_monster",
                "filter": {"attack_at_most": 3},
                "exhausted": True,
            }
        ],
    )
    state = started(rules_for([toad], [KNIGHT]))
    t = Table(state)
    t.give(0, "Toad")
    k = t.put(1, "Knight", "b2")
    state = t.turn(0)
    state.apply_text("summon Toad b1")
    assert state.controller(k) == 0 and not state.can_move(k)
    assert not [a for a in legal_texts(state) if "Knight" in a]
    state.apply_text("draw 1")
    assert state.mana == 4 + 0 + 1  # P2: 4 P1 tiles + 0 monsters (the Knight is P1's now) + first-turns bonus
    state.apply_text("draw 1")
    assert state.phase == "flip" and "flip b2" in legal_texts(state)  # P1's Knight stands on P2's b2
    state.apply_text("flip none")
    assert state.can_move(k)


def test_take_control_without_a_word_on_acting_leaves_it_one_action_as_any_of_your_monsters():
    """Take control - … whether it can move/attack this turn will be stated on the card. A card that states
    nothing: "Unless stated otherwise, your monsters can EITHER move once OR attack once on your turn" — the
    same whether the monster acted on its former controller's last turn or not, and it was not summoned this
    turn."""
    taker = monster("Taker", 1, 1, 1, [{"trigger": "summoned", "effect": "take_control", "target": "enemy_monster"}])
    for acted in (False, True):
        state = started(rules_for([taker], [KNIGHT, PAWN]))
        t = Table(state)
        t.give(0, "Taker")
        k = t.put(1, "Knight", "c2")  # P2's Knight on P1's c2
        t.put(1, "Pawn", "c3")
        if acted:  # P2's Knight moved or attacked on P2's last turn, and was summoned then
            state.set_monster(k, actions=0, summoned=True)
        state = t.turn(0)
        state.apply_text("summon Taker b3")
        state.apply_text("choose Knight@c2")
        assert state.controller(k) == 0
        assert state.can_move(k) and state.can_attack(k) and not state.summoned_this_turn(k), acted
        # it may attack with the Taker, summoned this turn, as one not summoned this turn
        assert "attack c3 with Taker@b3 + Knight@c2" in legal_texts(state), acted
        assert "move Knight@c2 b2" in legal_texts(state), acted


# --- abilities that cannot activate ---------------------------------------------------------


def test_an_ability_without_a_valid_target_is_ignored():
    """If an ability cannot activate when it should (if there aren't enough valid targets) then ignore it, or
    just that part of the ability."""
    from tests.mea.conftest import assist

    sand = assist(
        "Sand",
        1,
        [
            {"trigger": "play", "effect": "kill", "target": "enemy_monster", "filter": {"defence_at_most": 1}},
            {"trigger": "play", "effect": "draw", "amount": 1},
        ],
    )
    state = started(rules_for([sand], [KNIGHT]))
    t = Table(state)
    t.give(0, "Sand")
    t.put(1, "Knight", "b2")
    state = t.turn(0)
    hand = len(state.hand(0))
    state.apply_text("play Sand")  # no enemy with defence ≤ 1: the kill is ignored, the draw happens
    assert len(state.hand(0)) == hand - 1 + 1 and names_on(state, "b2") == ["Knight"]
    assert state.phase == "main"


def test_multiple_targets_as_many_as_possible():
    """If multiple targets are required, activate it on as many as possible."""
    from tests.mea.conftest import assist

    storm = assist("Storm", 1, [{"trigger": "play", "effect": "kill", "target": "enemy_monster", "count": 3}])
    state = started(rules_for([storm], [KNIGHT, PAWN]))
    t = Table(state)
    t.give(0, "Storm")
    k = t.put(1, "Knight", "b2")
    p = t.put(1, "Pawn", "a1")
    state = t.turn(0)
    state.apply_text("play Storm")
    assert legal_texts(state) == ["choose Pawn@a1", "choose Knight@b2"]
    state.apply_text("choose Knight@b2")
    assert state.zone(k) == OUT and state.zone(p) == OUT  # the second is the only one left: no choice
    assert state.phase == "main"


def test_the_when_killed_of_several_targets_resolve_after_the_ability_in_the_order_they_died():
    """If multiple targets are required, activate it on as many as possible. / When killed – AFTER this card has
    been killed: "Kill 2 enemy monsters" kills both, then their When killed abilities resolve in the order they
    died (as an attack's do), not the last first."""
    from tests.mea.conftest import assist

    double = assist("Double", 1, [{"trigger": "play", "effect": "kill", "target": "enemy_monster", "count": 2}])
    adder = monster("Adder", 1, 1, 1, [{"trigger": "killed", "effect": "add_tile", "target": "you"}])
    drawer = monster("Drawer", 1, 1, 1, [{"trigger": "killed", "effect": "draw", "amount": 1}])
    state = started(rules_for([double], [adder, drawer]))
    t = Table(state)
    t.give(0, "Double")
    a = t.put(1, "Adder", "a1")
    d = t.put(1, "Drawer", "c3")
    state = t.turn(0)
    hand = len(state.hand(1))
    state.apply_text("play Double")
    state.apply_text("choose Adder@a1")  # the Drawer is the only target left: killed at once
    assert state.zone(a) == OUT and state.zone(d) == OUT
    # The Adder died first: its When killed (P2 chooses where the tile goes) comes before the Drawer's draw.
    assert state.phase == "choice" and state.current_player == 1
    assert len(state.hand(1)) == hand
    tiles = len(state.tiles())
    state.apply_text(str(state.legal_actions()[0]))
    assert len(state.tiles()) == tiles + 1 and len(state.hand(1)) == hand + 1
    assert [name for name, _, _ in state.abilities_fired()] == ["Drawer"]
    assert state.phase == "main" and state.current_player == 0


# --- winning (the rulebook does not say; our reading) -----------------------------------


def test_a_player_who_controls_no_tiles_loses():
    state = started(rules_for([GIANT], [PAWN], layout="YB"))
    t = Table(state)
    t.put(0, "Giant", "a1")
    t.put(1, "Pawn", "b1")
    state = t.turn(0)
    state.apply_text("attack b1 with Giant@a1")
    assert state.is_terminal and state.current_player == TERMINAL
    o = state.outcome()
    assert o.winners == (0,) and state.end_code == END_NO_TILES and "P2 controls no tiles" in o.reason
    assert o.scores == (2.0, 0.0)


def test_option_turn_start_elimination_allows_a_comeback_flip():
    state = started(rules_for([GIANT, KNIGHT], [PAWN], layout="YB.", elimination="turn-start"))
    t = Table(state)
    t.put(0, "Giant", "a1")
    t.put(1, "Pawn", "b1")
    state = t.turn(0)
    state.apply_text("attack b1 with Giant@a1")
    assert not state.is_terminal
    state.apply_text("draw 1")
    assert state.is_terminal and "at the start of their turn" in state.outcome().reason


@pytest.mark.parametrize("elimination", ["immediate", "turn-start"])
def test_a_player_without_tiles_but_a_monster_on_an_enemy_tile_flips_back_only_under_turn_start(elimination):
    """The comeback the turn-start option allows: P2 loses its last tile but has a monster on P1's c1; at the
    start of its turn it flips c1 (AFTER the flip the tile check) and plays on. Under immediate elimination the
    game ended with the last tile."""
    state = started(rules_for([GIANT], [PAWN, KNIGHT], layout="YBY", elimination=elimination))
    t = Table(state)
    t.put(0, "Giant", "a1")
    t.put(1, "Pawn", "b1")
    t.put(1, "Knight", "c1")  # P2's Knight on P1's c1
    state = t.turn(0)
    state.apply_text("attack b1 with Giant@a1")  # b1 flips: P2 controls no tile
    assert state.tile_count(1) == 0
    if elimination == "immediate":
        assert state.end_code == END_NO_TILES and state.outcome().winners == (0,)
        return
    assert not state.is_terminal
    state.apply_text("draw 1")
    assert state.phase == "flip" and state.current_player == 1 and legal_texts(state) == ["flip c1", "flip none"]
    declined = state.clone()
    declined.apply_text("flip none")
    assert declined.end_code == END_NO_TILES and declined.outcome().winners == (0,)
    state.apply_text("flip c1")
    assert not state.is_terminal and state.phase == "main" and state.tile_count(1) == 1


def test_the_turn_limit_gives_the_game_to_the_player_with_more_tiles():
    state = started(rules_for([], [], max_turns=3))
    for _ in range(3):
        state.apply_text("draw 1")
    assert state.is_terminal and state.end_code == END_TURN_LIMIT and state.outcome().winners == (1,)


# --- the shuffle -------------------------------------------------------------------------------


def test_the_shuffle_is_a_chance_action_checked_and_hidden_from_players():
    rules = rules_for([KNIGHT], [PAWN], filler=2)
    state = rules.new_initial_state(5)
    assert state.current_player == -1 and state.legal_actions() == ()
    with pytest.raises(IllegalAction, match="each of 0"):
        state.apply(Shuffle([(0, 0, 1), (0, 1, 2)]))
    shuffle = state.sample_chance()
    assert state.action_text(shuffle, viewer=0) == "the decks are shuffled"
    assert rules.parse_action(str(shuffle)) == shuffle
    state.apply(shuffle)
    assert state.phase == "opening"
    twin = rules.new_initial_state(5)
    twin.resolve_chance()
    assert twin.deck(0) == state.deck(0) and twin.deck(1) == state.deck(1)


def test_an_illegal_action_names_the_rule_and_the_state_is_unchanged():
    state = started(rules_for([KNIGHT], []))
    state = Table(state).turn(0, mana=1)
    before = state.clone()
    error = refused(state, "summon Knight b1", "mana")
    assert "costs 2 mana" in str(error)
    assert state.history == before.history and state.mana == 1


def test_unknown_rules_options_are_refused():
    rules = rules_for([KNIGHT], [KNIGHT])
    with pytest.raises(InvalidRules, match="unknown Méa option"):
        MeaRules.from_options({**rules.to_options(), "gravity": 1})
    with pytest.raises(InvalidRules, match="adjacency"):
        rules_for([KNIGHT], [KNIGHT], adjacency="hexagonal")
    with pytest.raises(InvalidRules, match="must be int"):
        rules_for([KNIGHT], [KNIGHT], max_turns="9")


def test_diagonal_adjacency_option():
    state = started(rules_for([KNIGHT], [PAWN], adjacency="diagonal"))
    t = Table(state)
    t.put(0, "Knight", "b1")
    t.put(1, "Pawn", "a2", controller=1)
    state = t.turn(0)
    assert "attack a2 with Knight@b1" in legal_texts(state)
    state2 = started(rules_for([KNIGHT], [PAWN]))
    t = Table(state2)
    t.put(0, "Knight", "a1")
    t.put(1, "Pawn", "b2")
    assert "attack b2 with Knight@a1" not in legal_texts(t.turn(0))


# --- readings switched by options (issue 18) ---------------------------------------------


@pytest.mark.parametrize("tile_attack", ["retaliation", "filters"])
def test_remember_the_tile_total_for_ability_filters_on_the_opponents_turn(tile_attack):
    """REMEMBER on your opponent's turn your monsters have attack equal to the total attack of both monsters on
    the tile!"""
    imp = monster("Imp", 1, 2, 1)
    sniper = monster("Sniper", 1, 1, 1, [{"trigger": "summoned", "effect": "kill", "filter": {"attack_at_most": 2}}])
    state = started(rules_for([sniper], [imp, PAWN], tile_attack=tile_attack))
    t = Table(state)
    t.give(0, "Sniper")
    t.put(1, "Imp", "b2")
    t.put(1, "Filler", "b2")  # b2: attack 2 + 1 = 3 on P1's turn under "filters"
    pawn = t.put(1, "Pawn", "a1")  # alone: attack 1 either way
    state = t.turn(0)
    state.apply_text("summon Sniper b1")
    if tile_attack == "retaliation":  # each monster's own attack: all three are 2 or less
        assert legal_texts(state) == ["choose Pawn@a1", "choose Imp@b2", "choose Filler@b2"]
        return
    assert state.zone(pawn) == OUT  # the only target left: taken at once
    assert names_on(state, "b2") == ["Imp", "Filler"]
    lift = {
        "trigger": "summoned",
        "effect": "gain_attack",
        "target": "friendly_monster",
        "filter": {"attack_at_most": 2},
    }
    coach = monster("Coach", 1, 1, 1, [lift])
    own = started(rules_for([coach, imp], [], tile_attack="filters"))  # on your own turn: each its own attack
    t = Table(own)
    t.give(0, "Coach")
    t.put(0, "Imp", "b1")
    t.put(0, "Filler", "b1")
    own = t.turn(0)
    own.apply_text("summon Coach a2")
    assert legal_texts(own) == ["choose Coach@a2", "choose Imp@b1", "choose Filler@b1"]


@pytest.mark.parametrize("move_onto_enemy", ["refused", "allowed"])
def test_moving_onto_a_tile_with_an_enemy_monster(move_onto_enemy):
    """If you happen to flip a tile with an enemy monster on it, the opponent must move it to an adjacent enemy
    tile with less than 2 monsters on (if this is not possible, the monster is returned to the owner's hand)."""
    state = started(rules_for([KNIGHT], [PAWN], move_onto_enemy=move_onto_enemy))
    t = Table(state)
    knight = t.put(0, "Knight", "b1")
    pawn = t.put(1, "Pawn", "a1")
    state = t.turn(0)
    if move_onto_enemy == "refused":
        assert "move Knight@b1 a1" not in legal_texts(state)
        refused(state, "move Knight@b1 a1", "move-no-enemy")
        return
    assert "move Knight@b1 a1" in legal_texts(state)
    state.apply_text("move Knight@b1 a1")  # they share a1; nothing else happens: a move is no attack
    assert names_on(state, "a1") == ["Pawn", "Knight"] and state.tiles()[tile("a1")] == 1
    state.apply_text("draw 1")
    assert state.active == 1 and state.phase == "main"  # P2's Pawn is on its own tile: no flip
    assert not [a for a in legal_texts(state) if a.startswith("attack")]  # a tile does not touch itself
    refused(state, "summon Pawn a1", "hold-card")
    state.apply_text("draw 1")
    assert state.phase == "flip" and "flip a1" in legal_texts(state)  # P1's Knight is on an enemy tile
    state.apply_text("flip a1")  # P2's tiles next to a1: none (a2, b1 are P1's) → the Pawn goes to P2's hand
    assert state.tiles()[tile("a1")] == 0 and pawn in state.hand(1) and where(state, knight) == "a1"


def test_an_attack_on_a_shared_tile_leaves_the_attacker_where_it_was():
    """When you kill an enemy monster if the tile it was on is now empty …: the tile still holds your own monster,
    so the attacker stays (and the tile is flipped at the start of your turn, as any enemy tile you stand on)."""
    state = started(rules_for([KNIGHT, BRUTE], [PAWN], move_onto_enemy="allowed"))
    t = Table(state)
    t.put(0, "Knight", "a1")
    t.put(1, "Pawn", "a1")
    brute = t.put(0, "Brute", "b1")
    state = t.turn(0)
    state.apply_text("attack a1 with Brute@b1")
    assert names_on(state, "a1") == ["Knight"] and where(state, brute) == "b1" and state.tiles()[tile("a1")] == 1


@pytest.mark.parametrize("cap", [0, 5])
def test_tiles_per_colour_caps_the_tiles_a_player_controls(cap):
    """First thing you need to do is find a friend who … has a deck of cards and 9 tiles … a deck and 9 tiles for
    yourself (make sure they're different coloured tiles!)."""
    mole = monster("Mole", 1, 1, 1, [{"trigger": "summoned", "effect": "add_tile", "target": "you"}])
    state = started(rules_for([KNIGHT, mole], [PAWN], tiles_per_colour=cap))
    t = Table(state)
    t.owner("a1", 0)  # P1: a1, a2, b1, b3, c2 = 5 tiles
    t.put(0, "Knight", "b1")
    t.put(1, "Pawn", "b2")
    t.give(0, "Mole")
    state = t.turn(0)
    state.apply_text("attack b2 with Knight@b1")  # the Knight moves in; at the cap the tile stays P2's
    assert names_on(state, "b2") == ["Knight"]
    assert state.tile_count(0) == (6 if not cap else 5) and state.tiles()[tile("b2")] == (0 if not cap else 1)
    state.apply_text("summon Mole a2")
    assert (state.phase == "choice") == (not cap)  # adding a tile of P1's: none left at the cap
    if cap:
        state.apply_text("draw 1")
        state.apply_text("draw 1")
        assert state.active == 0 and state.phase == "main"  # no start-of-turn flip of b2 at the cap


def test_tiles_per_colour_must_hold_the_starting_layout():
    with pytest.raises(InvalidRules, match="tiles_per_colour"):
        rules_for([KNIGHT], [KNIGHT], tiles_per_colour=4)  # the checkerboard gives P2 5 tiles
    assert rules_for([KNIGHT], [KNIGHT], tiles_per_colour=9).tiles_per_colour == 9


@pytest.mark.parametrize(("obliterated", "drawn"), [("removed", 0), ("killed", 1)])
def test_obliterated_monsters_killed_under_the_option(obliterated, drawn):
    """Obliterating: Remove a tile from the board, and any monster(s) on top of it. / Kill/Destroy – The monster is
    removed from the game."""
    bat = monster("Bat", 1, 1, 1, [{"trigger": "killed", "effect": "draw", "amount": 1}])
    quake = monster(
        "Quake", 1, 1, 1,
        [{"trigger": "summoned", "effect": "obliterate_tile", "target": "enemy_tile", "filter": {"adjacent": True}}],
    )  # fmt: skip
    state = started(rules_for([quake], [bat], obliterated=obliterated))
    t = Table(state)
    t.give(0, "Quake")
    bat_i = t.put(1, "Bat", "a1")
    state = t.turn(0)
    hand = len(state.hand(1))
    state.apply_text("summon Quake a2")  # adjacent enemy tiles: a1 (the Bat) and b2
    state.apply_text("choose a1")
    assert tile("a1") not in state.tiles() and state.zone(bat_i) == OUT
    assert len(state.hand(1)) == hand + drawn  # its When killed: P2 draws
    mole = monster("Mole", 1, 1, 1, [{"trigger": "killed", "effect": "add_tile", "target": "you"}])
    ends = started(rules_for([], [mole], obliterated=obliterated))  # the end-of-turn obliteration too
    t = Table(ends)
    mole_i = t.put(1, "Mole", "a1")
    t.empty_deck(1)
    ends = t.turn(1)
    ends.apply_text("obliterate a1")  # P2's 5 tiles → 4, and under "killed" its Mole adds one
    if ends.phase == "choice":
        ends.apply(ends.legal_actions()[0])
    assert ends.zone(mole_i) == OUT and ends.tile_count(1) == 4 + drawn


# --- readings the rulebook leaves open, as options (issue 28) -------------------------------


@pytest.mark.parametrize(("elimination_killed", "game_over"), [("skipped", True), ("resolved", False)])
def test_when_killed_of_the_monster_whose_death_leaves_its_player_without_tiles(elimination_killed, game_over):
    """When killed – AFTER this card has been killed. Also after the tile has been flipped if this monster's
    death caused one to flip. (Under elimination=immediate the flip leaves P2 without tiles: does the When
    killed still happen? skipped: the game is over at once; resolved: it happens, and here wins a tile back.)"""
    rebel = monster(
        "Rebel",
        1,
        1,
        1,
        [{"trigger": "killed", "effect": "flip_tile", "target": "enemy_tile", "filter": {"adjacent": True}}],
    )
    state = started(rules_for([KNIGHT], [rebel], elimination_killed=elimination_killed))
    t = Table(state)
    for name in ("a3", "b2", "c1", "c3"):  # P2 keeps a1 alone
        t.owner(name, 0)
    t.put(0, "Knight", "a2")
    rebel_i = t.put(1, "Rebel", "a1")
    state = t.turn(0)
    state.apply_text("attack a1 with Knight@a2")  # kills the Rebel, moves in, flips a1: P2 has no tile
    assert state.zone(rebel_i) == OUT and state.tiles()[tile("a1")] == 0
    if game_over:
        assert state.end_code == END_NO_TILES and state.outcome().winners == (0,)
        return
    # The Rebel's When killed flips a tile next to where it died (a2, empty since the Knight moved in, or b1):
    # P2, its controller at death, chooses, and plays on.
    assert state.end_code is None and state.phase == "choice" and state.current_player == 1
    assert legal_texts(state) == ["choose a2", "choose b1"]
    state.apply_text("choose a2")
    assert state.end_code is None and state.tiles()[tile("a2")] == 1 and state.tile_count(1) == 1
    assert state.current_player == 0 and state.phase == "main"


def test_resolved_when_killed_that_wins_no_tile_back_still_ends_the_game():
    """Under elimination_killed="resolved" the game waits for the When killed abilities, then ends if the player
    still has no tile."""
    drawer = monster("Drawer", 1, 1, 1, [{"trigger": "killed", "effect": "draw", "amount": 1}])
    state = started(rules_for([KNIGHT], [drawer], elimination_killed="resolved"))
    t = Table(state)
    for name in ("a3", "b2", "c1", "c3"):
        t.owner(name, 0)
    t.put(0, "Knight", "a2")
    t.put(1, "Drawer", "a1")
    state = t.turn(0)
    hand = len(state.hand(1))
    state.apply_text("attack a1 with Knight@a2")
    assert len(state.hand(1)) == hand + 1  # the When killed happened
    assert state.end_code == END_NO_TILES and state.outcome().winners == (0,)


@pytest.mark.parametrize(("displaced_to", "hand_of"), [("owner", 1), ("controller", 0)])
def test_a_taken_monster_displaced_without_room_goes_to_the_owners_or_the_controllers_hand(displaced_to, hand_of):
    """If you happen to flip a tile with an enemy monster on it, the opponent must move it to an adjacent enemy
    tile with less than 2 monsters on (if this is not possible, the monster is returned to the owner's hand). /
    Take control - The monster in question becomes your monster …: whose hand, the card's owner's or the
    controller's?"""
    state = started(rules_for([KNIGHT], [KNIGHT, PAWN], displaced_to=displaced_to))
    t = Table(state)
    t.put(1, "Knight", "a2")  # P2's Knight on P1's a2
    pawn = t.put(1, "Pawn", "a2", controller=0)  # P2's Pawn, taken by P1; a2's neighbours are all P2's
    state = start_of_turn(state, 1)
    state.apply_text("flip a2")
    assert state.tiles()[tile("a2")] == 1
    assert pawn in state.hand(hand_of) and pawn not in state.hand(1 - hand_of)
    # Under "controller" a card of P2's own went into P1's hand in plain sight: P2's search keeps it there
    # (it deals P1's hidden cards from P1's own alone).
    import random

    dealt = state.observation(1).view.determinise(1, random.Random(1))
    assert len(dealt.hand(0)) == len(state.hand(0)) and (pawn in dealt.hand(0)) == (displaced_to == "controller")


@pytest.mark.parametrize(("killed_order", "first"), [("defender-first", "Bat"), ("attacker-first", "Mole")])
def test_the_when_killed_of_both_sides_in_one_attack_in_the_order_the_option_says(killed_order, first):
    """When killed – AFTER this card has been killed: an attack kills the defender and, by retaliation, the
    attacker at once; the rulebook does not say whose When killed comes first. defender-first (the default):
    the attacked monster's; attacker-first: the attacker's."""
    mole = monster("Mole", 1, 3, 1, [{"trigger": "killed", "effect": "add_tile", "target": "you"}])
    bat = monster("Bat", 1, 3, 3, [{"trigger": "killed", "effect": "add_tile", "target": "you"}])
    state = started(rules_for([mole], [bat], killed_order=killed_order))
    t = Table(state)
    m = t.put(0, "Mole", "b1")
    b = t.put(1, "Bat", "b2")
    state = t.turn(0)
    state.apply_text("attack b2 with Mole@b1")  # 3 ≥ 3 kills the Bat; 1 ≤ 3: the Mole dies too
    assert state.zone(m) == OUT and state.zone(b) == OUT
    # Each adds a tile for its controller, who chooses where: the first to choose is the first to resolve.
    assert state.phase == "choice" and state.current_player == (1 if first == "Bat" else 0)
    assert state.choice()["for"].startswith(first)
    state.apply_text(str(state.legal_actions()[0]))
    assert state.phase == "choice" and state.current_player == (0 if first == "Bat" else 1)
    assert MeaRules.from_options(state.rules.to_options()).killed_order == killed_order


def test_the_new_options_round_trip_and_refuse_bad_values():
    rules = rules_for([KNIGHT], [KNIGHT], elimination_killed="resolved", displaced_to="controller")
    again = MeaRules.from_options(rules.to_options())
    assert again.elimination_killed == "resolved" and again.displaced_to == "controller"
    old = {k: v for k, v in rules.to_options().items() if k not in ("elimination_killed", "displaced_to")}
    assert MeaRules.from_options(old).elimination_killed == "skipped"  # a record from before keeps the default
    with pytest.raises(InvalidRules, match="elimination_killed must be one of skipped, resolved"):
        rules_for([KNIGHT], [KNIGHT], elimination_killed="later")
    with pytest.raises(InvalidRules, match="displaced_to must be one of owner, controller"):
        rules_for([KNIGHT], [KNIGHT], displaced_to="anyone")


# --- edges found reading the rulebook sentence by sentence beside this file's scenarios ------------


def test_ties_at_zero_an_attack_of_0_kills_a_defence_of_0_and_dies_to_an_attack_of_0():
    """if your monster's attack is equal to or higher than the other monster's defence / If your monster's defence
    is equal to or lower than the attack of the monster you're attacking then your monster is also killed: 0 ≥ 0
    and 0 ≤ 0 both hold."""
    zero = monster("Zero", 0, 0, 0)
    state = MeaState.position(rules_for([zero], [zero]), board=({"b1": ["Zero"]}, {"b2": ["Zero"]}))
    assert [a for a in legal_texts(state) if a.startswith("attack")] == ["attack b2 with Zero@b1"]
    state.apply_text("attack b2 with Zero@b1")
    assert names_on(state, "b1") == [] and names_on(state, "b2") == []
    assert state.tiles()[tile("b2")] == 1  # no survivor: no move-in, no flip


def test_of_two_attackers_the_one_that_survives_moves_in_alone_and_flips_the_tile():
    """If your monster's defence is equal to or lower than the attack ... your monster is also killed / When you
    kill an enemy monster if the tile it was on is now empty and your monster survived: Move your monster onto
    the tile and if it was an enemy tile, flip it — per attacker: the Pawn (defence 1) dies to the Guard's 2,
    the Knight (defence 3) survives and moves in."""
    guard = monster("Guard", 1, 2, 4)
    state = MeaState.position(
        rules_for([KNIGHT, PAWN], [guard]), board=({"b1": ["Knight"], "a2": ["Pawn"]}, {"b2": ["Guard"]})
    )
    state.apply_text("attack b2 with Knight@b1 + Pawn@a2")  # 3 + 1 = 4 ≥ 4
    assert names_on(state, "b2") == ["Knight"] and names_on(state, "a2") == [] and names_on(state, "b1") == []
    assert state.tiles()[tile("b2")] == 0


def test_flipping_the_last_enemy_tile_at_the_start_of_the_turn_ends_the_game_before_the_turns_abilities():
    """At the start of your turn you may flip ONE enemy tile that has a monster belonging to you on it / At the
    start of your turn - AFTER you have flipped …: the flip takes the other player's last tile, and the game is
    over before the start-of-turn abilities (a player who controls no tiles loses at once)."""
    newt = monster("Newt", 1, 1, 3, [{"trigger": "turn_start", "effect": "draw", "amount": 1}])
    state = MeaState.position(
        rules_for([newt], [PAWN]), tiles={"a1": 0, "b1": 1}, board=({"b1": ["Newt"]}, {}), active=1
    )
    hand = state.hand_size(0)
    state.apply_text("draw 1")
    assert state.phase == "flip" and legal_texts(state) == ["flip b1", "flip none"]
    state.apply_text("flip b1")
    assert state.is_terminal and state.winners == (0,) and state.end_code == END_NO_TILES
    assert state.hand_size(0) == hand  # the Newt's draw did not happen: the game was over


def test_a_card_costing_exactly_the_mana_left_is_playable_and_unspent_mana_is_not_kept():
    """count the amount of mana you have to spend this turn: a cost equal to the mana left is payable, one more
    is not; what is left at the end of the turn is not carried to the next (each turn counts afresh)."""
    state = MeaState.position(rules_for([KNIGHT, KNIGHT], []), hands=(("Knight", "Knight"), ()), mana=3)
    state.apply_text("summon Knight b1")  # 2 of 3
    assert state.mana == 1
    refused(state, "summon Knight a2", "mana")
    state.apply_text("draw 1")
    state.apply_text("draw 1")  # P1's next turn: 5 P2 tiles + 1 monster; the 1 left over is gone
    assert state.active == 0 and state.mana == 6


def test_a_monster_cannot_move_onto_or_be_summoned_onto_a_removed_tile():
    """Obliterating: Remove a tile from the board …: where it was is no tile — nothing moves or is summoned
    there, and the tiles around it are not joined through it."""
    state = MeaState.position(rules_for([KNIGHT, PAWN], []), hands=(("Pawn",), ()), board=({"b1": ["Knight"]}, {}))
    state.set_tile(tile("b2"), None)
    state.set_tile(tile("a2"), 0)
    state.set_main_phase(0, 5)
    assert "move Knight@b1 b2" not in legal_texts(state)
    error = refused(state, "move Knight@b1 b2", "no-tile")
    assert "there is no tile b2" in str(error)
    refused(state, "summon Pawn b2", "no-tile")


def test_an_ability_draw_from_an_empty_deck_draws_nothing_and_the_turn_still_ends_by_obliterating():
    """When you have no cards in your deck, instead of drawing a card at the end of your turn you must OBLITERATE
    a friendly tile — an ability's draw from an empty deck draws nothing (it cannot activate, rule 47); only the
    end-of-turn draw turns into an obliteration."""
    from tests.mea.conftest import assist

    nap = assist("Nap", 0, [{"trigger": "play", "effect": "draw", "amount": 2}])
    state = started(rules_for([nap], [], filler=3))
    t = Table(state)
    t.give(0, "Nap")
    t.empty_deck(0)
    state = t.turn(0)
    hand = state.hand_size(0)
    state.apply_text("play Nap")
    assert state.hand_size(0) == hand - 1 and not state.is_terminal
    assert not [a for a in legal_texts(state) if a.startswith("draw")]
    refused(state, "draw 1", "deck-out")
    state.apply_text("obliterate b1")
    assert tile("b1") not in state.tiles() and state.active == 1


def test_an_ability_that_makes_the_opponent_draw_to_eleven_makes_the_opponent_lose():
    """If you EVER have 11 cards in your hand, you lose the game immediately: whoever's turn it is, the player
    holding the 11 cards loses."""
    from tests.mea.conftest import assist

    gift = assist("Gift", 0, [{"trigger": "play", "effect": "draw", "target": "opponent", "amount": 3}])
    state = started(rules_for([gift], []), openings=(1, 8))
    t = Table(state)
    t.give(0, "Gift")
    state = t.turn(0)
    assert state.hand_size(1) == 8
    state.apply_text("play Gift")
    assert state.is_terminal and state.winners == (0,) and state.end_code == END_HAND
    assert state.hand_size(1) == 11


def test_no_summon_when_every_tile_you_could_use_is_full():
    """You can have a maximum of 2 monsters on 1 tile (a full board) / You can summon monsters on any tile that
    you control without an enemy monster on: with each of your tiles full or holding an enemy monster, no
    summon is legal, and one typed, onto whichever tile, is refused naming both rules (a refusal that
    named only the typed tile's sent the player to try another, to be refused again)."""
    state = MeaState.position(
        rules_for([PAWN] * 5, [PAWN]),
        tiles={"a1": 0, "b1": 0, "c1": 0, "c2": 1},
        hands=(("Pawn",), ()),
        board=({"a1": ["Pawn", "Pawn"], "b1": ["Pawn", "Pawn"]}, {"c1": ["Pawn"]}),
    )
    assert not [a for a in legal_texts(state) if a.startswith("summon")]
    for typed in ("a1", "c1"):
        said = str(refused(state, f"summon Pawn {typed}", "summon-room"))
        assert said == "Pawn has no tile to go on: each of your tiles has an enemy monster or 2 monsters on it"


def test_start_of_turn_abilities_resolve_in_board_order():
    """At the start of your turn - … BEFORE any other actions: several such abilities at once resolve in board
    order (by tile: a1, a2, a3, b1, …; on one tile, the first to arrive first), our reading (docs/rules/mea.md,
    "Order of simultaneous abilities")."""
    lamp = monster(
        "Lamp",
        1,
        0,
        3,
        [
            {
                "trigger": "turn_start",
                "effect": "gain_attack",
                "target": "friendly_monster",
                "filter": {"adjacent": True},
            }
        ],
    )
    # a2's neighbours are a1, a3, b2; b2's are a2, b1, b3, c2. a2's Lamp, first, has one friend next to it (b2's
    # Lamp); b2's Lamp, second, has two (a2's Lamp and the Pawn on c2) and its controller chooses.
    state = MeaState.position(
        rules_for([lamp, lamp, PAWN], []), board=({"a2": ["Lamp"], "b2": ["Lamp"], "c2": ["Pawn"]}, {})
    )
    first, second = state.on_tile(tile("a2"))[0], state.on_tile(tile("b2"))[0]
    state.apply_text("draw 1")
    state.apply_text("draw 1")
    assert state.phase == "flip"  # P1's Lamp stands on P2's b2
    state.apply_text("flip none")
    assert state.attack_of(second) == 1 and state.phase == "choice"
    assert sorted(legal_texts(state)) == ["choose Lamp@a2", "choose Pawn@c2"]
    state.apply_text("choose Pawn@c2")
    assert state.attack_of(first) == 0


def test_a_monster_displaced_on_its_controllers_turn_keeps_the_action_it_had_left():
    """If you happen to flip a tile with an enemy monster on it, the opponent must move it to an adjacent enemy
    tile …: when that happens on the monster's controller's own turn (here P2's When killed flips P1's tile
    under P1's Knight during P1's attack), being moved is not the Knight's move: it may still move or attack
    this turn (our reading, docs/rules/mea.md)."""
    flipper = monster(
        "Flipper",
        1,
        1,
        1,
        [{"trigger": "killed", "effect": "flip_tile", "target": "enemy_tile", "filter": {"adjacent": True}}],
    )
    state = MeaState.position(
        rules_for([GIANT, KNIGHT], [flipper, PAWN]),
        board=({"b1": ["Giant"], "a2": ["Knight"]}, {"b2": ["Flipper"], "a1": ["Pawn"]}),
    )
    knight = state.on_tile(tile("a2"))[0]
    state.apply_text("attack b2 with Giant@b1")  # the Giant moves onto b2 and flips it; the Flipper's flip follows
    assert state.phase == "choice" and state.current_player == 1
    state.apply_text("choose a2")  # P2 flips a2: P1 moves the Knight to its only tile next to a2 with room, b2
    assert state.tiles()[tile("a2")] == 1 and where(state, knight) == "b2"
    assert state.can_move(knight) and state.can_attack(knight)
    assert "attack a1 with Knight@b2" not in legal_texts(state)  # (b2 is not next to a1)
    assert "move Knight@b2 b1" in legal_texts(state)


@pytest.mark.parametrize(("left_play", "drawn"), [("ignored", 0), ("resolved", 1)])
def test_an_ability_whose_monster_left_play_before_it_resolved_as_the_option_says(left_play, drawn):
    """When summoned – AFTER you play this card. Does not activate if the monster is destroyed as it comes onto
    the board / At the start of your turn …: the rulebook does not say what happens to an ability that has
    activated (the card's When summoned has begun, the turn has started) when its monster leaves play before
    the ability resolves. Default (``ignored``): it does not resolve. ``left_play="resolved"``: it resolves for
    the player it activated for; only what it does to "this monster" is ignored (rule 47)."""
    doomed = monster(
        "Doomed",
        1,
        1,
        1,
        [
            {"trigger": "summoned", "effect": "kill", "target": "friendly_monster"},  # itself, the only one
            {"trigger": "summoned", "effect": "draw", "amount": 1},
            {"trigger": "summoned", "effect": "gain_attack", "target": "self"},
        ],
    )
    state = MeaState.position(rules_for([doomed], [], left_play=left_play), hands=(("Doomed",), ()))
    hand = state.hand_size(0)
    state.apply_text("summon Doomed b1")
    assert names_on(state, "b1") == [] and state.hand_size(0) == hand - 1 + drawn
    # At the start of the turn: the Assassin (a1, first in board order) kills the Squire (b1) before its draw.
    assassin = monster(
        "Assassin",
        1,
        1,
        5,
        [{"trigger": "turn_start", "effect": "kill", "target": "friendly_monster", "filter": {"defence_at_most": 1}}],
    )
    squire = monster("Squire", 1, 1, 1, [{"trigger": "turn_start", "effect": "draw", "amount": 1}])
    state = MeaState.position(
        rules_for([assassin, squire], [], left_play=left_play),
        tiles={"a1": 0, "b1": 0, "c1": 1},
        board=({"a1": ["Assassin"], "b1": ["Squire"]}, {}),
        active=1,
    )
    hand = state.hand_size(0)
    state.apply_text("draw 1")
    assert state.active == 0 and names_on(state, "b1") == [] and state.hand_size(0) == hand + drawn
    assert MeaRules.from_options(state.rules.to_options()).left_play == left_play


@pytest.mark.parametrize(("triggered_after", "drawn", "p1_tiles"), [("sentence", 0, 3), ("card", 1, 3)])
def test_what_a_sentence_triggers_resolves_after_it_or_after_the_cards_text_as_the_option_says(
    triggered_after, drawn, p1_tiles
):
    """When killed – AFTER this card has been killed / If an ability cannot activate … then ignore it, or just
    that part of the ability: a card's text for one trigger is one ability in parts (its sentences). What a part
    sets off (the Spite's When killed, flipping one of P1's tiles) resolves right after that part (default
    ``sentence``), before the Raid's next part counts P1's tiles — or after the Raid's whole text
    (``triggered_after="card"``), when P1 still has its 4 tiles."""
    from tests.mea.conftest import assist

    raid = assist(
        "Raid",
        0,
        [
            {"trigger": "play", "effect": "kill", "target": "enemy_monster"},
            {"trigger": "play", "condition": {"count": "friendly_tiles", "at_least": 4}, "effect": "draw"},
        ],
    )
    spite = monster("Spite", 1, 1, 1, [{"trigger": "killed", "effect": "flip_tile", "target": "enemy_tile"}])
    state = MeaState.position(
        rules_for([raid], [spite], triggered_after=triggered_after),
        hands=(("Raid",), ()),
        board=({}, {"b2": ["Spite"]}),
    )
    hand = state.hand_size(0)
    state.apply_text("play Raid")
    assert state.phase == "choice" and state.current_player == 1  # P2 chooses which of P1's 4 tiles flips
    assert state.hand_size(0) == hand - 1 + drawn
    state.apply_text("choose b1")
    assert state.tile_count(0) == p1_tiles and state.hand_size(0) == hand - 1 + drawn
    assert MeaRules.from_options(state.rules.to_options()).triggered_after == triggered_after


@pytest.mark.parametrize(
    ("triggered_after", "order"),
    [
        ("sentence", ["Purge", "Bat", "Purge", "Mole", "Purge"]),
        ("card", ["Purge", "Purge", "Purge", "Bat", "Mole"]),
    ],
)
def test_what_each_sentence_sets_off_keeps_its_order_under_either_reading(triggered_after, order):
    """Under ``triggered_after="card"`` what the card's parts set off waits for its last part, in the order the
    parts set it off (the Bat's When killed, then the Mole's), as an attack's deaths."""
    from tests.mea.conftest import assist

    purge = assist(
        "Purge",
        0,
        [
            {"trigger": "play", "effect": "kill", "target": "enemy_monster", "filter": {"attack_at_most": 1}},
            {"trigger": "play", "effect": "kill", "target": "enemy_monster", "filter": {"defence_at_most": 1}},
            {"trigger": "play", "effect": "draw"},
        ],
    )
    bat = monster("Bat", 1, 1, 1, [{"trigger": "killed", "effect": "draw"}])
    mole = monster("Mole", 1, 2, 1, [{"trigger": "killed", "effect": "draw"}])
    state = MeaState.position(
        rules_for([purge], [bat, mole], triggered_after=triggered_after),
        hands=(("Purge",), ()),
        board=({}, {"b2": ["Bat"], "c3": ["Mole"]}),
    )
    hands = (state.hand_size(0), state.hand_size(1))
    state.apply_text("play Purge")
    assert [state.tables.names[i] for i in state.fired_from()] == order
    assert (state.hand_size(0), state.hand_size(1)) == (hands[0], hands[1] + 2)


def test_at_the_end_of_a_turn_that_obliterates_a_tile_the_abilities_come_after_and_not_from_that_tile():
    """When you have no cards in your deck, instead of drawing a card at the end of your turn you must OBLITERATE
    a friendly tile / At the end of your turn - AFTER you have drawn the card(s): the obliteration stands in for
    the draw, so the end-of-turn abilities come after it — and a monster obliterated with the tile is no longer
    there to have one."""
    lich = monster("Lich", 1, 1, 1, [{"trigger": "turn_end", "effect": "gain_attack", "target": "self"}])
    state = MeaState.position(
        rules_for([lich, lich], [PAWN], filler=0), board=({"b1": ["Lich"], "a2": ["Lich"]}, {}), decks=([], None)
    )
    kept, gone = state.on_tile(tile("a2"))[0], state.on_tile(tile("b1"))[0]
    assert state.deck_size(0) == 0 and legal_texts(state)[-1].startswith("obliterate")
    state.apply_text("obliterate b1")
    assert state.zone(gone) == OUT and tile("b1") not in state.tiles()
    assert state.attack_of(kept) == 2 and state.active == 1


def test_a_bonus_until_the_end_of_your_turn_given_on_the_other_players_turn_ends_with_that_turn():
    """ "until the end of your turn" (our reading, docs/rules/mea.md): a bonus ends when the turn it was given in
    ends — also one a When killed gives on the other player's turn, which then counts for that turn's
    retaliation and is gone by its controller's own turn."""
    rally = monster(
        "Rally",
        1,
        0,
        1,
        [
            {
                "trigger": "killed",
                "effect": "gain_attack",
                "target": "friendly_monster",
                "amount": 3,
                "until": "end_of_turn",
            }
        ],
    )
    state = MeaState.position(
        rules_for([GIANT, KNIGHT], [rally, PAWN]),
        board=({"b1": ["Giant"], "c3": ["Knight"]}, {"b2": ["Rally"], "b3": ["Pawn"]}),
    )
    pawn = state.on_tile(tile("b3"))[0]
    state.apply_text("attack b2 with Giant@b1")  # the Rally dies: P2's Pawn gets +3 until the end of the turn
    assert state.attack_of(pawn) == 4
    state.apply_text("attack b3 with Knight@c3")  # the Pawn hits back with 4: the Knight (defence 3) dies too
    assert names_on(state, "b3") == [] and names_on(state, "c3") == []
    state = MeaState.position(
        rules_for([GIANT], [rally, PAWN]), board=({"b1": ["Giant"]}, {"b2": ["Rally"], "b3": ["Pawn"]})
    )
    pawn = state.on_tile(tile("b3"))[0]
    state.apply_text("attack b2 with Giant@b1")
    state.apply_text("draw 1")
    assert state.active == 1 and state.attack_of(pawn) == 1


REFUSALS = [
    # (action, rule, the one message's words): each rule of the main phase a typed action can break
    ("attack b2 with Knight@b1", "attack-must-kill", "you may attack only if you can kill: attack 3"),
    ("attack b2 with Knight@b1 + Knight@b1", "combined-two", "Knight@b1 is named twice"),
    ("attack b2 with Knight@b1 + Knight@a2 + Knight@a2", "combined-two", "one monster attacks, or two together"),
    ("attack c1 with Knight@a2", "adjacent", "Knight is not adjacent to c1"),
    ("attack a1 with Knight@a2", "attack-enemy", "there is no enemy monster on a1"),
    ("move Wall@b2 b3", "own-monster", "you have no monster Wall@b2"),
    ("move Knight@b1 c1", "move-no-enemy", "a monster cannot move onto a tile with an enemy monster on it (c1)"),
    ("move Knight@b1 b1", "adjacent", "b1 is not next to b1"),
    ("move Knight@b1 z9", "no-tile", "there is no tile z9"),
    ("summon Wall a2", "mana", "Wall costs 3 mana and you have 2 left this turn"),
    ("play Pawn", "summon-monster", "Pawn is a monster: summon it onto a tile"),
    ("summon Nap b1", "play-assist", "Nap is an assist: play it"),
    ("summon Pawn c1", "summon-own", "you can summon only onto a tile you control; c1 is not yours"),
    ("summon Zorro b1", "hold-card", "you hold no card by that name"),
    ("flip b2", "start-flip-only", "you may flip a tile only at the start of your turn"),
    ("choose b2", "nothing-to-choose", "there is nothing to choose now"),
    ("obliterate b1", "deck-out", "you obliterate a tile only when your deck is empty"),
    ("draw 0", "draw-at-least-1", "you must draw at least 1 card"),
    ("draw 99", "draw-from-deck", "your deck has only 20 cards"),
]


@pytest.mark.parametrize(("text", "rule", "words"), REFUSALS, ids=[r[1] + ":" + r[0] for r in REFUSALS])
def test_every_main_phase_refusal_names_its_rule_in_one_message_and_changes_nothing(text, rule, words):
    """What `play mea` shows after "refused:" and `replay` after the record's line: the rule an action breaks,
    one message, and the position as it was."""
    from tests.mea.conftest import assist

    nap = assist("Nap", 0, [{"trigger": "play", "effect": "draw"}])
    state = MeaState.position(
        rules_for([KNIGHT, KNIGHT, WALL, PAWN, nap], [WALL, PAWN]),
        hands=(("Wall", "Pawn", "Nap"), ()),
        board=({"b1": ["Knight"], "a2": ["Knight"]}, {"b2": ["Wall"], "c1": ["Pawn"]}),
        mana=2,
    )
    before = (legal_texts(state), state.hand(0), state.tiles(), state.mana)
    error = refused(state, text, rule)
    assert words in str(error) and "\n" not in str(error)
    assert (legal_texts(state), state.hand(0), state.tiles(), state.mana) == before


def test_refusals_outside_the_main_phase_name_their_rule():
    """The opening draw, the start-of-turn flip, a choice and the game's end each refuse what does not belong
    there with one message naming what is expected."""
    rules = rules_for([KNIGHT], [PAWN])
    state = rules.new_initial_state(0)
    state.apply(Shuffle([range(d.size) for d in rules.decks]))
    assert "first draws their opening hand" in str(refused(state, "summon Knight b1", "opening-draw"))
    refused(state, "draw 0", "draw-at-least-1")
    state = started(rules_for([KNIGHT], [PAWN]))
    Table(state).put(0, "Knight", "b2")
    state = start_of_turn(state, 0)
    assert "b2 or flip none" in str(refused(state, "draw 1", "start-flip-first"))
    refused(state, "flip a2", "flip-enemy-tile")
    refused(state, "flip z9", "no-tile")
    spite = monster("Spite", 1, 1, 1, [{"trigger": "killed", "effect": "flip_tile", "target": "enemy_tile"}])
    state = MeaState.position(rules_for([GIANT], [spite]), board=({"b1": ["Giant"]}, {"b2": ["Spite"]}))
    state.apply_text("attack b2 with Giant@b1")  # the Spite's When killed: P2 chooses which of P1's tiles flips
    assert state.phase == "choice" and state.current_player == 1
    assert "must first choose" in str(refused(state, "draw 1", "choose-first"))
    refused(state, "choose z9", "choice-target")
    state = MeaState.position(rules_for([GIANT], [PAWN], layout="YB"), board=({"a1": ["Giant"]}, {"b1": ["Pawn"]}))
    state.apply_text("attack b1 with Giant@a1")
    assert state.is_terminal
    refused(state, "draw 1", "game-over")


def test_a_removed_tile_frees_its_place_in_the_supply_and_may_be_added_again():
    """9 tiles each (tile_supply, docs/rules/mea.md): with the board at its supply an add cannot activate; a tile
    destroyed frees a place, and the add may put a tile back where it was."""
    from tests.mea.conftest import assist

    grow = assist("Grow", 0, [{"trigger": "play", "effect": "add_tile", "target": "you"}])
    swap = assist(
        "Swap",
        0,
        [
            {"trigger": "play", "effect": "destroy_tile", "target": "enemy_tile"},
            {"trigger": "play", "effect": "add_tile", "target": "you"},
        ],
    )
    state = MeaState.position(
        rules_for([grow, swap], [PAWN], layout="YBB", tile_supply=3),
        hands=(("Grow", "Swap"), ()),
        board=({}, {"c1": ["Pawn"]}),
    )
    state.apply_text("play Grow")  # 3 tiles of 3: no place for a fourth
    assert len(state.tiles()) == 3 and state.phase == "main"
    state.apply_text("play Swap")  # b1, the one empty enemy tile, is destroyed; then P1 adds one next to a1
    assert tile("b1") not in state.tiles() and state.phase == "choice"
    assert "choose b1" in legal_texts(state)
    state.apply_text("choose b1")
    assert state.tiles() == {tile("a1"): 0, tile("b1"): 0, tile("c1"): 1}


def test_may_attack_twice_given_after_a_move_gives_no_attack():
    """Unless stated otherwise, your monsters can EITHER move once OR attack once on your turn — and a card that
    says "may attack twice this turn" changes the attacking, not the either-or (docs/rules/mea.md: an attack-only
    action, lost if the monster moves). A monster that has moved and is then told it may attack twice has no
    attack; one that has attacked may attack once more; one that has done nothing may attack twice."""
    from tests.mea.conftest import assist

    frenzy = assist("Frenzy", 0, [{"trigger": "play", "effect": "extra_attack", "target": "friendly_monster"}])
    state = MeaState.position(
        rules_for([KNIGHT, frenzy], [PAWN, PAWN]), hands=(("Frenzy",), ()), board=({"b1": ["Knight"]}, {"c2": ["Pawn"]})
    )
    knight = state.on_tile(tile("b1"))[0]
    state.apply_text("move Knight@b1 c1")  # next to the Pawn on c2
    state.apply_text("play Frenzy")  # the Knight, the one friendly monster
    assert not state.can_attack(knight) and state.extra_attacks(knight) == 0
    assert "attack c2 with Knight@c1" not in legal_texts(state)
    refused(state, "attack c2 with Knight@c1", "move-or-attack-once")
    # Attacked first: one attack more.
    state = MeaState.position(
        rules_for([KNIGHT, frenzy], [PAWN, PAWN]),
        hands=(("Frenzy",), ()),
        board=({"b1": ["Knight"]}, {"b2": ["Pawn"], "c2": ["Pawn"]}),
    )
    knight = state.on_tile(tile("b1"))[0]
    state.apply_text("attack b2 with Knight@b1")  # kills the Pawn, moves in to b2
    state.apply_text("play Frenzy")
    assert state.can_attack(knight) and not state.can_move(knight)
    state.apply_text("attack c2 with Knight@b2")
    assert where(state, knight) == "c2" and not state.can_attack(knight)


# --- why a card in hand cannot be played now (the table greys it and says so) -------------------


def _said_and_refused(state, seat: int, name: str, text: str) -> tuple[str | None, str]:
    """What ``state.held_back(seat)`` says of ``name`` in the seat's hand, and the refusal of ``text``."""
    names = state.tables.names
    said = dict(zip([names[i] for i in state.hand(seat)], state.held_back(seat), strict=True))[name]
    with pytest.raises(IllegalAction) as error:
        state.apply_text(text)
    return said, str(error.value)


def test_a_card_that_costs_more_than_the_mana_left_is_held_back_as_its_refusal_says():
    state = started(rules_for([GIANT, KNIGHT], []))
    t = Table(state)
    t.give(0, "Giant", "Knight")
    state = t.turn(0, mana=5)
    said, refusal = _said_and_refused(state, 0, "Giant", "summon Giant a2")
    assert said == refusal == "Giant costs 6 mana and you have 5 left this turn"
    assert dict(zip(hand_names(state, 0), state.held_back(0), strict=True))["Knight"] is None


def test_a_monster_with_no_tile_to_go_on_is_held_back_as_its_refusal_says():
    """You can summon monsters on any tile that you control without an enemy monster on; at most 2 on a tile."""
    state = started(rules_for([KNIGHT, PAWN], [BRUTE, WALL]))
    t = Table(state)
    t.give(0, "Knight")
    for name in ("b1", "b3"):
        t.put(0, "Filler", name)
        t.put(0, "Filler", name)
    t.put(1, "Brute", "a2", controller=1)
    t.put(1, "Wall", "c2", controller=1)
    state = t.turn(0)
    said, refusal = _said_and_refused(state, 0, "Knight", "summon Knight b1")
    assert said == refusal and "no tile" in said, said
    assert state.observation(0).held_back() == state.held_back(0)


def test_an_assist_with_no_target_is_not_held_back_it_is_played_and_ignored():
    """If an ability cannot activate when it should (not enough valid targets) then ignore it: the
    assist may still be played (its cost paid), so the table does not grey it."""
    spell = assist("Spell", 1, [{"trigger": "play", "effect": "kill", "target": "enemy_monster"}])
    state = started(rules_for([spell], []))
    t = Table(state)
    t.give(0, "Spell")
    state = t.turn(0)
    assert state.held_back(0) == (None,) * len(state.hand(0))
    assert "play Spell" in legal_texts(state)


def test_cards_are_held_back_in_another_players_turn_and_before_a_pending_choice():
    state = started(rules_for([KNIGHT], [PAWN]))
    t = Table(state)
    t.give(0, "Knight")
    state = t.turn(1)
    assert set(state.held_back(0)) == {"it is P2's turn, not P1's"}
    assert state.observation(0).held_back() == state.held_back(0)
    ferret = monster(
        "Ferret",
        1,
        1,
        1,
        [{"trigger": "summoned", "effect": "flip_tile", "target": "enemy_tile", "filter": {"adjacent": True}}],
    )
    state = started(rules_for([ferret, KNIGHT], []))
    t = Table(state)
    t.give(0, "Ferret", "Knight")
    state = t.turn(0)
    state.apply_text("summon Ferret b1")
    assert state.phase == "choice" and state.current_player == 0
    said, refusal = _said_and_refused(state, 0, "Knight", "summon Knight a2")
    assert said == refusal and said.startswith("P1 must first choose"), said


def test_cards_are_held_back_at_the_opening_draw_and_the_start_flip():
    state = rules_for([KNIGHT, PAWN], []).new_initial_state(0)
    state.apply(Shuffle([range(d.size) for d in state.rules.decks]))
    state.apply_text("draw 1")
    state.apply_text("draw 1")
    t = Table(state)
    t.put(0, "Pawn", "b2")
    state = start_of_turn(state, 0)
    assert state.phase == "flip"
    said, refusal = _said_and_refused(state, 0, "Knight", "summon Knight a2")
    assert said == refusal and "first flip" in said, said
    opening = rules_for([KNIGHT], [KNIGHT]).new_initial_state(0)
    opening.resolve_chance()
    opening.apply_text("draw 2")
    said = opening.held_back(0)
    assert said == ("it is P2's turn, not P1's",) * 2  # P2 draws theirs
