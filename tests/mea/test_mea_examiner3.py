"""A third blind examination of Méa: The Tiled Kingdom (Jacob Worgan et al., the rulebook "How to
Play"), and of every card text of the cardbase demo set (project-made cards, not published Méa
cards). Each case checks one rule sentence or one card's text, quoted in its docstring; the cases
were written from the rulebook and the cards alone, then compared with docs/rules/mea.md.

Seat 0 is P1 (yellow, goes first), seat 1 is P2 (blue). Tiles are named row letter + column; the
default layout gives P2 the corners and b2, P1 a2, b1, b3 and c2.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardbase.cli.app import app
from cardbase.games.mea.actions import Shuffle
from cardbase.games.mea.codes import HAND, OUT
from cardbase.games.mea.engine import MeaState
from tests.mea.conftest import (
    BRUTE,
    FILLER,
    GIANT,
    KNIGHT,
    PAWN,
    WALL,
    Table,
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
    where,
)

runner = CliRunner()

# Tiles of the default layout, by owner.
P1_TILES = ("a2", "b1", "b3", "c2")
P2_TILES = ("a1", "a3", "b2", "c1", "c3")


def choose(state: MeaState, text: str) -> None:
    """Answer the pending choice with ``text`` (``b2`` or ``Pawn@a1``)."""
    assert state.phase == "choice", f"no choice is pending (phase {state.phase})"
    state.apply_text(f"choose {text}")


def choice_texts(state: MeaState) -> list[str]:
    return sorted(t.removeprefix("choose ") for t in legal_texts(state) if t.startswith("choose "))


def inst(state: MeaState, name: str, tile_name: str) -> int:
    """The instance of ``name`` on ``tile_name``."""
    for i in state.on_tile(tile(tile_name)):
        if state.tables.names[i] == name:
            return i
    raise AssertionError(f"no {name} on {tile_name}")


def end_turn(state: MeaState, n: int = 1) -> None:
    """The active player draws ``n`` (ends the turn); the next turn's flip, if offered, is declined."""
    state.apply_text(f"draw {n}")
    if state.phase == "flip":
        state.apply_text("flip none")


def two_tiles(p1: str = "a2", p2: str = "a1", **more: int) -> dict[str, int]:
    """A board of just these tiles (P1's ``p1``, P2's ``p2``, and ``more``)."""
    tiles = {p1: 0, p2: 1}
    tiles.update(more)
    return tiles


# --- Setting up ----------------------------------------------------------------------------------


def test_board_starts_with_four_yellow_tiles_for_the_first_player_and_five_blue_for_the_second():
    """ "a 3 by 3 grid of tiles 4 coloured yellow and five blue" / "The person who goes second is blue"."""
    state = started(rules_for([KNIGHT], [KNIGHT]))
    assert len(state.tiles()) == 9
    assert state.tile_count(0) == 4 and state.tile_count(1) == 5


def test_opening_draw_of_no_card_is_refused():
    """ "Before you start both players draw at least 1 card each"."""
    rules = rules_for()
    state = rules.new_initial_state(0)
    state.apply(Shuffle([range(d.size) for d in rules.decks]))
    refuses(state, "draw 0")


def test_opening_draw_of_eleven_loses_at_once():
    """ "(can draw as many as they want, but they'll instantaneously lose if they have 11 or more in
    their hand)"."""
    rules = rules_for()
    state = rules.new_initial_state(0)
    state.apply(Shuffle([range(d.size) for d in rules.decks]))
    state.apply_text("draw 11")
    assert state.is_terminal and state.winners == (1,)


def test_opening_draw_of_ten_is_allowed_and_the_game_goes_on():
    """ "can draw as many as they want" — 10 is under the 11 that loses."""
    state = started(rules_for(), openings=(10, 3))
    assert not state.is_terminal and state.phase == "main"
    assert state.hand_size(0) == 10 and state.hand_size(1) == 3


@pytest.mark.parametrize(("size", "valid"), [(17, False), (18, True), (40, True), (41, False)])
def test_a_deck_holds_18_to_40_cards(db_url, tmp_path: Path, size: int, valid: bool):
    """ "Decks will consist of anywhere between 18-40 cards"."""
    deck = tmp_path / "d.txt"
    deck.write_text(f"game: mea\nname: sized\n{size - 2} Puddle Knight\n2 Pep Talk\n", encoding="utf-8")
    result = runner.invoke(app, ["deck", "validate", str(deck), "--db", db_url])
    assert result.exit_code == (0 if valid else 1), result.output
    assert ("deck-size" in result.output) is not valid


def test_the_rulebook_sets_no_limit_on_copies_of_a_card(db_url, tmp_path: Path):
    """The rulebook names no copy limit ("Make a deck from over 500 cards to suit your play style"):
    20 copies of one card and 20 of another make a valid deck."""
    deck = tmp_path / "d.txt"
    deck.write_text("game: mea\nname: copies\n20 Puddle Knight\n20 Pep Talk\n", encoding="utf-8")
    result = runner.invoke(app, ["deck", "validate", str(deck), "--db", db_url])
    assert result.exit_code == 0, result.output


def test_tiles_are_not_cards_of_the_deck(db_url, tmp_path: Path):
    """ "find a friend who ... has a deck of cards and 9 tiles": tiles come beside the deck."""
    deck = tmp_path / "d.txt"
    deck.write_text("game: mea\nname: tiles\n18 Puddle Knight\n9 Blue Tile\n", encoding="utf-8")
    result = runner.invoke(app, ["deck", "validate", str(deck), "--db", db_url])
    assert result.exit_code == 1 and "Blue Tile" in result.output


# --- Drawing and the hand ------------------------------------------------------------------------


def test_the_end_of_turn_draw_is_at_least_one_card():
    """ "At the end of your turn you must draw at least 1 card"."""
    state = at([KNIGHT], [KNIGHT])
    refuses(state, "draw 0")


def test_the_end_of_turn_draw_may_be_several_cards():
    """ "..., but you can draw more!"."""
    state = at([KNIGHT], [KNIGHT])
    before = state.hand_size(0)
    state.apply_text("draw 4")
    assert state.hand_size(0) == before + 4 and state.active == 1


def test_drawing_ends_the_turn():
    """ "drawing a spontaneous number of cards signifies that your turn is done and you cannot do any
    other actions after that"."""
    state = at([KNIGHT, PAWN], [KNIGHT], hands=[["Pawn"], []])
    state.apply_text("draw 1")
    assert state.active == 1
    refuses(state, "summon Pawn a2")


def test_eleven_cards_in_hand_loses_and_no_end_of_turn_ability_activates():
    """ "If you EVER have 11 cards in your hand, you lose the game immediately and no other abilities
    activate": the Lich's end-of-turn draw does not happen."""
    cards = [demo("Grand Librarian Lich"), *[PAWN] * 8]
    state = at(cards, [KNIGHT], hands=[["Pawn"] * 8, []], board=[{"a2": ["Grand Librarian Lich"]}, {}])
    state.apply_text("draw 3")
    assert state.is_terminal and state.winners == (1,)
    assert state.hand_size(0) == 11


def test_an_end_of_turn_draw_ability_reaching_eleven_loses():
    """ "If you EVER have 11 cards in your hand, you lose": 10 after the draw, 11 after the Lich's."""
    cards = [demo("Grand Librarian Lich"), *[PAWN] * 8]
    state = at(cards, [KNIGHT], hands=[["Pawn"] * 8, []], board=[{"a2": ["Grand Librarian Lich"]}, {}])
    state.apply_text("draw 2")
    assert state.is_terminal and state.winners == (1,)


def test_a_played_draw_reaching_eleven_loses_at_once():
    """ "If you EVER have 11 cards in your hand, you lose the game immediately": Library Card from a
    hand of 10 leaves 11."""
    cards = [demo("Library Card"), *[PAWN] * 9]
    state = at(cards, [KNIGHT], hands=[["Library Card", *["Pawn"] * 9], []])
    state.apply_text("play Library Card")
    assert state.is_terminal and state.winners == (1,)


def test_a_killed_draw_ability_reaching_eleven_loses_its_controller_on_the_other_turn():
    """ "If you EVER have 11 cards": Dizzy Bat's "When killed: Draw 1 card." on P1's turn draws for
    P2, whose hand of 10 becomes 11."""
    state = at(
        [BRUTE],
        [demo("Dizzy Bat"), *[PAWN] * 10],
        hands=[[], ["Pawn"] * 10],
        board=[{"a2": ["Brute"]}, {"a1": ["Dizzy Bat"]}],
    )
    state.apply_text("attack a1 with Brute@a2")
    assert state.is_terminal and state.winners == (0,)


def test_with_an_empty_deck_the_end_of_turn_is_obliterating_a_friendly_tile():
    """ "When you have no cards in your deck, instead of drawing a card at the end of your turn you
    must OBLITERATE a friendly tile" / "Obliterating: Remove a tile from the board, and any monster(s)
    on top of it"."""
    state = at([KNIGHT], [KNIGHT], board=[{"a2": ["Knight"]}, {}])
    Table(state).empty_deck(0)
    texts = legal_texts(state)
    assert not any(t.startswith("draw") for t in texts)
    assert sorted(t.split()[1] for t in texts if t.startswith("obliterate")) == sorted(P1_TILES)
    refuses(state, "draw 1")
    refuses(state, "obliterate a1")
    knight = inst(state, "Knight", "a2")
    state.apply_text("obliterate a2")
    assert tile("a2") not in state.tiles() and state.zone(knight) == OUT
    assert state.active == 1


def test_end_of_turn_abilities_follow_the_obliteration_that_replaces_the_draw():
    """ "At the end of your turn - AFTER you have drawn the card(s)": with no deck, the obliteration
    takes the draw's place and Grudge-Holding Goat still gets +1 attack."""
    goat = demo("Grudge-Holding Goat")
    state = at([goat], [KNIGHT], board=[{"a2": ["Grudge-Holding Goat"]}, {}])
    Table(state).empty_deck(0)
    i = inst(state, goat.name, "a2")
    state.apply_text("obliterate c2")
    assert state.attack_of(i) == 3


def test_a_draw_ability_with_an_empty_deck_is_ignored():
    """ "If an ability cannot activate when it should ... then ignore it": Library Card with no deck."""
    state = at([demo("Library Card")], [KNIGHT], hands=[["Library Card"], []])
    Table(state).empty_deck(0)
    state.apply_text("play Library Card")
    assert not state.is_terminal and state.hand_size(0) == 0 and state.phase == "main"


# --- Mana ----------------------------------------------------------------------------------------


def test_mana_is_enemy_tiles_plus_own_monsters_and_one_extra_for_the_second_player_early():
    """ "The amount of mana you have is equal to the number of tiles your opponent controls + the
    number of monsters you control" / "For the first three turns the player that went second has 1
    EXTRA mana": P2's first turn, 4 + 2 + 1."""
    state = at([KNIGHT], [KNIGHT, PAWN], board=[{}, {"a1": ["Knight"], "a3": ["Pawn"]}])
    state.apply_text("draw 1")
    assert state.active == 1 and state.mana == 7


@pytest.mark.parametrize(("turns", "mana"), [((3, 2), 7), ((4, 3), 6)])
def test_the_second_players_extra_mana_lasts_three_turns(turns: tuple[int, int], mana: int):
    """ "For the first three turns the player that went second has 1 EXTRA mana": P2's third turn has
    it, its fourth does not."""
    state = at([KNIGHT], [KNIGHT, PAWN], board=[{}, {"a1": ["Knight"], "a3": ["Pawn"]}], turns_taken=turns)
    state.apply_text("draw 1")
    assert state.mana == mana


def test_the_first_player_has_no_extra_mana():
    """Only "the player that went second has 1 EXTRA mana": P1's second turn, 5 + 1."""
    state = at([KNIGHT], [KNIGHT], board=[{"a2": ["Knight"]}, {}], active=1)
    state.apply_text("draw 1")
    assert state.active == 0 and state.mana == 6


def test_mana_is_at_least_three_before_the_second_players_extra():
    """ "If you should have less than 3 mana, you instead have 3 mana. (Added before the second
    player's extra mana, so they'd have 4)"."""
    state = at([KNIGHT], [KNIGHT], tiles=two_tiles())
    state.apply_text("draw 1")
    assert state.mana == 4
    state.apply_text("draw 1")
    assert state.active == 0 and state.mana == 3


def test_summoning_spends_the_cards_cost_and_more_than_is_left_is_refused():
    """ "count the amount of mana you have to spend this turn": a card costs its mana."""
    state = at([KNIGHT, BRUTE], [KNIGHT], hands=[["Knight", "Brute"], []], mana=5)
    state.apply_text("summon Knight a2")
    assert state.mana == 3
    refuses(state, "summon Brute b1")


# --- Summoning -----------------------------------------------------------------------------------


def test_summon_only_on_a_tile_you_control():
    """ "You can summon monsters on any tile that you control"."""
    state = at([KNIGHT], [KNIGHT], hands=[["Knight"], []])
    refuses(state, "summon Knight b2")
    state.apply_text("summon Knight a2")


def test_summon_refused_on_your_tile_with_an_enemy_monster():
    """ "... on any tile that you control without an enemy monster on"."""
    state = at([KNIGHT], [PAWN], hands=[["Knight"], []], board=[{}, {"a2": ["Pawn"]}])
    refuses(state, "summon Knight a2")


def test_at_most_two_monsters_on_a_tile_when_summoning():
    """ "You can have a maximum of 2 monsters on 1 tile"."""
    state = at([KNIGHT, PAWN, WALL], [KNIGHT], hands=[["Wall"], []], board=[{"a2": ["Knight", "Pawn"]}, {}])
    refuses(state, "summon Wall a2")
    state.apply_text("summon Wall b1")


def test_at_most_two_monsters_on_a_tile_when_moving():
    """ "You can have a maximum of 2 monsters on 1 tile"."""
    state = at([KNIGHT, PAWN, WALL], [KNIGHT], board=[{"a2": ["Knight", "Pawn"], "b2": ["Wall"]}, {}])
    refuses(state, "move Wall@b2 a2")


def test_a_monster_summoned_this_turn_may_attack_alone():
    """ "they move or attack alone on this turn"."""
    state = at([BRUTE], [KNIGHT], hands=[["Brute"], []], board=[{}, {"a1": ["Knight"]}])
    state.apply_text("summon Brute a2")
    state.apply_text("attack a1 with Brute@a2")
    assert names_on(state, "a1") == []  # the Knight is dead (the Brute too: 2 <= 3)


def test_two_monsters_summoned_this_turn_may_not_attack_together():
    """ "they move or attack alone on this turn. However, they can attack simultaneously with a
    monster that ... was not summoned this turn and can attack"."""
    state = at([KNIGHT, KNIGHT], [WALL], hands=[["Knight", "Knight"], []], board=[{}, {"b2": ["Wall"]}])
    state.apply_text("summon Knight a2")
    state.apply_text("summon Knight b1")
    refuses(state, "attack b2 with Knight@a2 + Knight@b1")


def test_a_summoned_monster_may_join_a_ready_one():
    """ "However, they can attack simultaneously with a monster that ... was not summoned this turn
    and can attack": 3 + 3 kills the Wall's 6."""
    state = at([KNIGHT, KNIGHT], [WALL], hands=[["Knight"], []], board=[{"b1": ["Knight"]}, {"b2": ["Wall"]}])
    state.apply_text("summon Knight a2")
    state.apply_text("attack b2 with Knight@a2 + Knight@b1")
    assert "Wall" not in names_on(state, "b2")


# --- Moving and attacking ------------------------------------------------------------------------


def test_a_monster_that_moved_may_not_attack():
    """ "your monsters can EITHER move once OR attack once on your turn"."""
    state = at([KNIGHT], [PAWN], board=[{"a2": ["Knight"]}, {"b1": ["Pawn"]}])
    state.apply_text("move Knight@a2 a1")
    refuses(state, "attack b1 with Knight@a1")


def test_a_monster_that_attacked_may_not_move():
    """ "your monsters can EITHER move once OR attack once on your turn"."""
    state = at([GIANT], [PAWN], board=[{"a2": ["Giant"]}, {"a1": ["Pawn"]}])
    state.apply_text("attack a1 with Giant@a2")
    assert names_on(state, "a1") == ["Giant"]
    refuses(state, "move Giant@a1 b1")


def test_a_monster_moves_once():
    """ "... can EITHER move once": a second move is refused."""
    state = at([KNIGHT], [KNIGHT], board=[{"a2": ["Knight"]}, {}])
    state.apply_text("move Knight@a2 b2")
    refuses(state, "move Knight@b2 c2")


def test_a_move_is_to_an_adjacent_tile():
    """Moving once goes to a neighbouring tile (the rulebook's "adjacent" tiles): a2 to c2 is refused."""
    state = at([KNIGHT], [KNIGHT], board=[{"a2": ["Knight"]}, {}])
    refuses(state, "move Knight@a2 c2")


def test_attack_only_adjacent_tiles():
    """ "You may attack monsters that are in adjacent tiles"."""
    state = at([GIANT], [PAWN], board=[{"a2": ["Giant"]}, {"c1": ["Pawn"]}])
    refuses(state, "attack c1 with Giant@a2")


def test_attack_only_what_you_can_kill():
    """ "if you can kill them (if your monster's attack is equal to or higher than the other monster's
    defence)": attack 1 against defence 3 is refused."""
    state = at([PAWN], [KNIGHT], board=[{"a2": ["Pawn"]}, {"a1": ["Knight"]}])
    refuses(state, "attack a1 with Pawn@a2")


def test_attack_equal_to_defence_kills_and_the_survivor_moves_in_and_flips():
    """ "equal to or higher than the other monster's defence" / "When you kill an enemy monster if the
    tile it was on is now empty and your monster survived: Move your monster onto the tile and if it
    was an enemy tile, flip it"."""
    state = at([WALL], [PAWN], board=[{"a2": ["Wall"]}, {"a1": ["Pawn"]}])
    pawn = inst(state, "Pawn", "a1")
    state.apply_text("attack a1 with Wall@a2")
    assert state.zone(pawn) == OUT
    assert names_on(state, "a1") == ["Wall"] and owner_of(state, "a1") == 0


def test_the_attacker_dies_when_its_defence_is_at_most_the_defenders_attack():
    """ "If your monster's defence is equal to or lower than the attack of the monster you're attacking
    then your monster is also killed": Knight 3/3 against Knight 3/3, both die, the tile stays P2's."""
    state = at([KNIGHT], [KNIGHT], board=[{"a2": ["Knight"]}, {"a1": ["Knight"]}])
    mine, theirs = inst(state, "Knight", "a2"), inst(state, "Knight", "a1")
    state.apply_text("attack a1 with Knight@a2")
    assert state.zone(mine) == OUT and state.zone(theirs) == OUT
    assert owner_of(state, "a1") == 1 and names_on(state, "a1") == []


def test_a_kill_on_your_own_tile_moves_in_without_changing_the_owner():
    """ "Move your monster onto the tile and if it was an enemy tile, flip it": a2 is already P1's."""
    state = at([WALL], [PAWN], board=[{"b2": ["Wall"]}, {"a2": ["Pawn"]}])
    state.apply_text("attack a2 with Wall@b2")
    assert names_on(state, "a2") == ["Wall"] and owner_of(state, "a2") == 0


def test_an_attack_hits_every_monster_on_the_tile():
    """ "you must attack every monster on the tile": both Pawns die, the Giant moves in."""
    state = at([GIANT], [PAWN, PAWN], board=[{"a2": ["Giant"]}, {"a1": ["Pawn", "Pawn"]}])
    state.apply_text("attack a1 with Giant@a2")
    assert names_on(state, "a1") == ["Giant"] and owner_of(state, "a1") == 0


def test_the_attacker_stays_when_a_monster_is_left_on_the_tile():
    """ "If there is still a monster on the tile, your monster must stay on the tile it attacked from":
    attack 3 kills the Pawn, not the Wall."""
    state = at([KNIGHT], [PAWN, WALL], board=[{"a2": ["Knight"]}, {"a1": ["Pawn", "Wall"]}])
    state.apply_text("attack a1 with Knight@a2")
    assert names_on(state, "a1") == ["Wall"] and names_on(state, "a2") == ["Knight"]
    assert owner_of(state, "a1") == 1


def test_defenders_strike_back_with_the_total_attack_of_their_tile():
    """ "REMEMBER on your opponent's turn your monsters have attack equal to the total attack of both
    monsters on the tile!": two Pawns (1 + 1 = 2) kill an attacker of defence 2."""
    state = at([BRUTE], [PAWN, PAWN], board=[{"a2": ["Brute"]}, {"a1": ["Pawn", "Pawn"]}])
    brute = inst(state, "Brute", "a2")
    state.apply_text("attack a1 with Brute@a2")
    assert state.zone(brute) == OUT and owner_of(state, "a1") == 1


def test_one_defender_alone_strikes_back_with_its_own_attack():
    """The total is "of both monsters on the tile": a lone Pawn (1) does not kill defence 2."""
    state = at([BRUTE], [PAWN], board=[{"a2": ["Brute"]}, {"a1": ["Pawn"]}])
    state.apply_text("attack a1 with Brute@a2")
    assert names_on(state, "a1") == ["Brute"]


def test_two_adjacent_monsters_attack_with_their_combined_attack():
    """ "If you have two monsters adjacent to the same tile, you can attack with both of them
    simultaneously ... which attacks every monster on the tile with their combined attack": 3 + 3
    kills defence 6."""
    state = at([KNIGHT, KNIGHT], [WALL], board=[{"a2": ["Knight"], "b1": ["Knight"]}, {"a1": ["Wall"]}])
    state.apply_text("attack a1 with Knight@a2 + Knight@b1")
    assert "Wall" not in names_on(state, "a1") and owner_of(state, "a1") == 0


def test_in_a_combined_attack_each_attacker_meets_the_strike_back_by_its_own_defence():
    """ "If your monster's defence is equal to or lower than the attack of the monster you're attacking
    then your monster is also killed": the Wall (1/6) strikes 1; the Pawn (defence 1) dies, the Giant
    survives and moves in."""
    state = at([PAWN, GIANT], [WALL], board=[{"a2": ["Pawn"], "b1": ["Giant"]}, {"a1": ["Wall"]}])
    pawn = inst(state, "Pawn", "a2")
    state.apply_text("attack a1 with Giant@b1 + Pawn@a2")
    assert state.zone(pawn) == OUT
    assert names_on(state, "a1") == ["Giant"] and owner_of(state, "a1") == 0


# --- Flipping at the start of a turn -------------------------------------------------------------


def test_start_of_turn_flip_of_one_enemy_tile_under_your_monster():
    """ "At the start of your turn you may flip ONE enemy tile that has a monster belonging to you on
    it": two are offered, one is flipped, then the turn goes on."""
    state = at([KNIGHT, KNIGHT], [KNIGHT], board=[{"b2": ["Knight"], "a1": ["Knight"]}, {}], active=1)
    state.apply_text("draw 1")
    assert state.phase == "flip"
    assert sorted(legal_texts(state)) == ["flip a1", "flip b2", "flip none"]
    state.apply_text("flip b2")
    assert owner_of(state, "b2") == 0 and owner_of(state, "a1") == 1
    assert state.phase == "main"


def test_the_start_of_turn_flip_is_optional():
    """ "you may flip ONE enemy tile"."""
    state = at([KNIGHT], [KNIGHT], board=[{"b2": ["Knight"]}, {}], active=1)
    state.apply_text("draw 1")
    state.apply_text("flip none")
    assert owner_of(state, "b2") == 1 and state.phase == "main"


def test_no_flip_is_offered_without_your_monster_on_an_enemy_tile():
    """ "... enemy tile that has a monster belonging to you on it"."""
    state = at([KNIGHT], [KNIGHT], board=[{"a2": ["Knight"]}, {}], active=1)
    state.apply_text("draw 1")
    assert state.phase == "main"
    refuses(state, "flip b2")


def test_a_flipped_tiles_enemy_monster_moves_to_an_adjacent_tile_of_its_side_chosen_by_the_opponent():
    """ "If you happen to flip a tile with an enemy monster on it, the opponent must move it to an
    adjacent enemy tile with less than 2 monsters on": P2's Pawn on b2 goes to a P2 tile next to b2
    with room — here b2's neighbours are a2, b1, b3, c2 (P1's) but a2 and c2 are made P2's, c2 full."""
    tiles = {"a2": 1, "b1": 0, "b2": 1, "b3": 0, "c2": 1, "a1": 1}
    state = at(
        [KNIGHT],
        [PAWN, PAWN, PAWN],
        board=[{"b2": ["Knight"]}, {"b2": ["Pawn"], "c2": ["Pawn", "Pawn"]}],
        tiles=tiles,
        active=1,
    )
    pawn = inst(state, "Pawn", "b2")
    state.apply_text("draw 1")
    state.apply_text("flip b2")
    if state.phase == "choice":
        assert state.choice()["player"] == 1
        assert choice_texts(state) == ["a2"]
        choose(state, "a2")
    assert where(state, pawn) == "a2" and state.controller(pawn) == 1


def test_a_flipped_tiles_enemy_monster_with_nowhere_to_go_returns_to_its_owners_hand():
    """ "(if this is not possible, the monster is returned to the owner's hand)"."""
    tiles = {"a2": 0, "b1": 0, "b2": 1, "b3": 0, "c2": 0, "a1": 1}
    state = at([KNIGHT], [PAWN], board=[{"b2": ["Knight"]}, {"b2": ["Pawn"]}], tiles=tiles, active=1)
    pawn = inst(state, "Pawn", "b2")
    state.apply_text("draw 1")
    state.apply_text("flip b2")
    assert state.zone(pawn) == HAND and pawn in state.hand(1)


# --- Start- and end-of-turn abilities ------------------------------------------------------------


def test_start_of_turn_abilities_come_after_the_flip():
    """ "At the start of your turn - AFTER you have flipped any tiles you could've flipped ..., but
    BEFORE any other actions": the flip is offered first, Rowdy Minstrel's choice after it, then the
    turn's actions."""
    state = at(
        [demo("Rowdy Minstrel"), KNIGHT],
        [KNIGHT],
        board=[{"a2": ["Rowdy Minstrel"], "b2": ["Knight"]}, {}],
        active=1,
    )
    state.apply_text("draw 1")
    assert state.phase == "flip"
    state.apply_text("flip b2")
    assert state.phase == "choice"
    refuses(state, "move Knight@b2 c2")
    choose(state, "Knight@b2")
    assert state.phase == "main"


def test_siege_snail_destroys_an_empty_enemy_tile_at_the_start_of_its_turn():
    """Siege Snail: "At the start of your turn: Destroy 1 empty enemy tile." (c1 holds a monster)."""
    tiles = {"a2": 0, "a1": 1, "c1": 1}
    state = at([demo("Siege Snail")], [PAWN], board=[{"a2": ["Siege Snail"]}, {"c1": ["Pawn"]}], tiles=tiles, active=1)
    state.apply_text("draw 1")
    assert tile("a1") not in state.tiles() and owner_of(state, "c1") == 1


def test_hopeful_newt_gains_attack_each_start_of_turn_and_keeps_it():
    """Hopeful Newt: "At the start of your turn: This monster gets +1 attack.\""""
    state = at([demo("Hopeful Newt")], [KNIGHT], board=[{"a2": ["Hopeful Newt"]}, {}], active=1)
    newt = inst(state, "Hopeful Newt", "a2")
    state.apply_text("draw 1")
    assert state.attack_of(newt) == 2
    end_turn(state)
    assert state.attack_of(newt) == 2
    end_turn(state)
    assert state.attack_of(newt) == 3


def test_rowdy_minstrels_bonus_lasts_until_the_end_of_that_turn():
    """Rowdy Minstrel: "At the start of your turn: Give 1 friendly monster +2 attack until the end of
    your turn.\""""
    state = at(
        [demo("Rowdy Minstrel"), KNIGHT], [KNIGHT], board=[{"a2": ["Rowdy Minstrel"], "b1": ["Knight"]}, {}], active=1
    )
    knight = inst(state, "Knight", "b1")
    state.apply_text("draw 1")
    choose(state, "Knight@b1")
    assert state.attack_of(knight) == 5
    end_turn(state)
    assert state.attack_of(knight) == 3


def test_berserk_beekeeper_attacks_twice_in_its_turn():
    """Berserk Beekeeper: "At the start of your turn: This monster may attack twice this turn.\""""
    state = at(
        [demo("Berserk Beekeeper")],
        [PAWN, PAWN],
        board=[{"a2": ["Berserk Beekeeper"]}, {"a1": ["Pawn"], "b1": ["Pawn"]}],
        active=1,
    )
    state.apply_text("draw 1")
    state.apply_text("attack a1 with Berserk Beekeeper@a2")
    state.apply_text("attack b1 with Berserk Beekeeper@a1")
    assert names_on(state, "b1") == ["Berserk Beekeeper"]


def test_warlord_wombat_lets_a_friendly_monster_act_again():
    """Warlord Wombat: "At the start of your turn: 1 friendly monster may move or attack again this
    turn.\""""
    state = at(
        [demo("Warlord Wombat"), KNIGHT],
        [PAWN],
        board=[{"c2": ["Warlord Wombat"], "a2": ["Knight"]}, {"b1": ["Pawn"]}],
        active=1,
    )
    state.apply_text("draw 1")
    choose(state, "Knight@a2")
    state.apply_text("move Knight@a2 a1")
    state.apply_text("attack b1 with Knight@a1")
    assert names_on(state, "b1") == ["Knight"]


def test_grudge_goat_gains_lasting_attack_after_the_end_of_turn_draw():
    """Grudge-Holding Goat: "At the end of your turn: This monster gets +1 attack." — kept."""
    state = at([demo("Grudge-Holding Goat")], [KNIGHT], board=[{"a2": ["Grudge-Holding Goat"]}, {}])
    goat = inst(state, "Grudge-Holding Goat", "a2")
    state.apply_text("draw 1")
    assert state.attack_of(goat) == 3
    end_turn(state)
    assert state.attack_of(goat) == 3


def test_pillow_fort_warden_gives_defence_at_the_end_of_turn():
    """Pillow Fort Warden: "At the end of your turn: Give 1 friendly monster +1 defence.\""""
    state = at(
        [demo("Pillow Fort Warden"), KNIGHT], [KNIGHT], board=[{"a2": ["Pillow Fort Warden"], "b1": ["Knight"]}, {}]
    )
    knight = inst(state, "Knight", "b1")
    state.apply_text("draw 1")
    choose(state, "Knight@b1")
    assert state.defence_of(knight) == 4


def test_grand_librarian_lich_draws_after_the_end_of_turn_draw():
    """Grand Librarian Lich: "At the end of your turn: Draw 1 card." — one more than drawn."""
    state = at([demo("Grand Librarian Lich")], [KNIGHT], board=[{"a2": ["Grand Librarian Lich"]}, {}])
    before = state.hand_size(0)
    state.apply_text("draw 2")
    assert state.hand_size(0) == before + 3


# --- When-summoned abilities ---------------------------------------------------------------------


@pytest.mark.parametrize(("name", "drawn"), [("Naïve Squire", 1), ("Lantern Sprite", 1), ("Scroll-Hoarding Owl", 2)])
def test_when_summoned_draws(name: str, drawn: int):
    """Naïve Squire, Lantern Sprite: "When summoned: Draw 1 card."; Scroll-Hoarding Owl: "... Draw 2
    cards.\""""
    state = at([demo(name)], [KNIGHT], hands=[[name], []])
    state.apply_text(f"summon {name} a2")
    assert state.hand_size(0) == drawn


def test_goose_of_reckoning_kills_defence_one_or_less_anywhere():
    """Goose of Reckoning: "When summoned: Kill 1 enemy monster with defence 1 or less." — the Pawn
    far away (defence 1), not the Knight (defence 3)."""
    state = at(
        [demo("Goose of Reckoning")],
        [PAWN, KNIGHT],
        hands=[["Goose of Reckoning"], []],
        board=[{}, {"c3": ["Pawn"], "a1": ["Knight"]}],
    )
    pawn = inst(state, "Pawn", "c3")
    state.apply_text("summon Goose of Reckoning a2")
    assert state.zone(pawn) == OUT and names_on(state, "a1") == ["Knight"]


def test_jalapeno_imp_attacks_twice_the_turn_it_is_summoned():
    """Jalapeño Imp: "When summoned: This monster may attack twice this turn.\""""
    state = at(
        [demo("Jalapeño Imp")], [PAWN, PAWN], hands=[["Jalapeño Imp"], []], board=[{}, {"a1": ["Pawn"], "b1": ["Pawn"]}]
    )
    state.apply_text("summon Jalapeño Imp a2")
    state.apply_text("attack a1 with Jalapeño Imp@a2")
    state.apply_text("attack b1 with Jalapeño Imp@a1")
    assert names_on(state, "b1") == ["Jalapeño Imp"]


def test_drill_sergeant_badger_lets_a_moved_monster_attack():
    """Drill Sergeant Badger: "When summoned: 1 friendly monster may move or attack again this turn.\""""
    state = at(
        [demo("Drill Sergeant Badger"), KNIGHT],
        [PAWN],
        hands=[["Drill Sergeant Badger"], []],
        board=[{"a2": ["Knight"]}, {"b1": ["Pawn"]}],
    )
    state.apply_text("move Knight@a2 a1")
    state.apply_text("summon Drill Sergeant Badger c2")
    if state.phase == "choice":
        choose(state, "Knight@a1")
    state.apply_text("attack b1 with Knight@a1")
    assert names_on(state, "b1") == ["Knight"]


def test_pickpocket_ferret_flips_an_adjacent_enemy_tile_only():
    """Pickpocket Ferret: "When summoned: Flip 1 enemy tile adjacent to this monster." — from a2, a1
    or a3 or b2; never c1."""
    state = at([demo("Pickpocket Ferret")], [KNIGHT], hands=[["Pickpocket Ferret"], []])
    state.apply_text("summon Pickpocket Ferret a2")
    assert choice_texts(state) == ["a1", "a3", "b2"]
    choose(state, "a3")
    assert owner_of(state, "a3") == 0


def test_fence_hopping_sheep_flip_displaces_an_enemy_monster():
    """Fence-Hopping Sheep: "When summoned: Flip 1 enemy tile adjacent to this monster." with "If you
    happen to flip a tile with an enemy monster on it, the opponent must move it to an adjacent enemy
    tile": a1's Pawn has no P2 tile next to it (a2, b1 are P1's) and goes to P2's hand."""
    tiles = {"a1": 1, "a2": 0, "b1": 0, "c3": 1}
    state = at(
        [demo("Fence-Hopping Sheep")],
        [PAWN],
        hands=[["Fence-Hopping Sheep"], []],
        board=[{}, {"a1": ["Pawn"]}],
        tiles=tiles,
    )
    pawn = inst(state, "Pawn", "a1")
    state.apply_text("summon Fence-Hopping Sheep a2")
    if state.phase == "choice":
        choose(state, "a1")
    assert owner_of(state, "a1") == 0 and state.zone(pawn) == HAND


def test_tiny_shovel_gnome_destroys_only_an_empty_enemy_tile():
    """Tiny Shovel Gnome: "When summoned: Destroy 1 empty enemy tile." / "Destroying: ... the tile
    must not have a monster on it"."""
    tiles = {"a2": 0, "a1": 1, "c3": 1}
    state = at(
        [demo("Tiny Shovel Gnome")],
        [PAWN],
        hands=[["Tiny Shovel Gnome"], []],
        board=[{}, {"a1": ["Pawn"]}],
        tiles=tiles,
    )
    state.apply_text("summon Tiny Shovel Gnome a2")
    assert tile("c3") not in state.tiles() and owner_of(state, "a1") == 1


def test_overly_generous_gnome_adds_an_opponents_tile_placed_by_its_player():
    """Overly Generous Gnome: "When summoned: Add 1 tile for your opponent." / "The player that is told
    to add the tile, chooses where it is placed" / "must be placed adjacent to a tile belonging to the
    same player"."""
    tiles = {"b2": 0, "a2": 1}
    state = at([demo("Overly Generous Gnome")], [KNIGHT], hands=[["Overly Generous Gnome"], []], tiles=tiles)
    state.apply_text("summon Overly Generous Gnome b2")
    assert state.choice()["player"] == 0
    assert choice_texts(state) == ["-a2", "a1", "a3"]
    choose(state, "a3")
    assert owner_of(state, "a3") == 1


def test_doorstop_troll_gives_lasting_defence():
    """Doorstop Troll: "When summoned: Give 1 friendly monster +1 defence." — still on the next turn."""
    state = at(
        [demo("Doorstop Troll"), KNIGHT], [KNIGHT], hands=[["Doorstop Troll"], []], board=[{"b1": ["Knight"]}, {}]
    )
    knight = inst(state, "Knight", "b1")
    state.apply_text("summon Doorstop Troll a2")
    choose(state, "Knight@b1")
    end_turn(state)
    assert state.defence_of(knight) == 4


@pytest.mark.parametrize(("name", "limit"), [("Tax Collector Toad", 1), ("Mesmerist Moth", 3)])
def test_take_control_when_summoned(name: str, limit: int):
    """Tax Collector Toad / Mesmerist Moth: "When summoned: Take control of 1 enemy monster with attack
    N or less. It cannot move or attack this turn." / "Take control - The monster in question becomes
    your monster"."""
    low = monster("Low", 1, limit, 1)
    high = monster("High", 1, limit + 1, 9)
    state = at([demo(name)], [low, high], hands=[[name], []], board=[{}, {"a1": ["Low"], "c3": ["High"]}])
    low_i = inst(state, "Low", "a1")
    state.apply_text(f"summon {name} a2")
    assert state.controller(low_i) == 0 and state.owner(low_i) == 1
    assert state.controller(inst(state, "High", "c3")) == 1
    refuses(state, "move Low@a1 b1")


def test_a_taken_monster_may_act_on_its_new_controllers_next_turn():
    """ "It cannot move or attack this turn" — the next turn it can, for its new controller."""
    state = at(
        [demo("Mesmerist Moth")],
        [KNIGHT, PAWN],
        hands=[["Mesmerist Moth"], []],
        board=[{}, {"a1": ["Knight"], "c1": ["Pawn"]}],
    )
    state.apply_text("summon Mesmerist Moth a2")
    choose(state, "Knight@a1")
    end_turn(state)
    end_turn(state)
    state.apply_text("move Knight@a1 b1")


def test_knight_of_the_soggy_table_draws_with_five_tiles():
    """Knight of the Soggy Table: "When summoned: If you control 5 or more tiles, draw 1 card.\""""
    tiles = {n: 0 for n in P1_TILES} | {"a1": 0} | {"c3": 1}
    state = at([demo("Knight of the Soggy Table")], [KNIGHT], hands=[["Knight of the Soggy Table"], []], tiles=tiles)
    state.apply_text("summon Knight of the Soggy Table a2")
    assert state.hand_size(0) == 1


def test_knight_of_the_soggy_table_does_not_draw_with_four_tiles():
    """ "If you control 5 or more tiles" — 4 is fewer."""
    state = at([demo("Knight of the Soggy Table")], [KNIGHT], hands=[["Knight of the Soggy Table"], []])
    state.apply_text("summon Knight of the Soggy Table a2")
    assert state.hand_size(0) == 0


def test_royal_cartographer_adds_a_tile_and_draws():
    """Royal Cartographer: "When summoned: Add 1 tile for you. Draw 1 card.\""""
    state = at([demo("Royal Cartographer")], [KNIGHT], hands=[["Royal Cartographer"], []])
    state.apply_text("summon Royal Cartographer a2")
    choose(state, "-a2")
    assert owner_of(state, "-a2") == 0 and state.hand_size(0) == 1


def test_hungry_hydra_kills_only_on_an_adjacent_tile():
    """Hungry Hydra: "When summoned: Kill 1 enemy monster on an adjacent tile." — from a2, the Giant on
    a1 (any defence), not the Pawn on c3."""
    state = at(
        [demo("Hungry Hydra")],
        [GIANT, PAWN],
        hands=[["Hungry Hydra"], []],
        board=[{}, {"a1": ["Giant"], "c3": ["Pawn"]}],
    )
    giant = inst(state, "Giant", "a1")
    state.apply_text("summon Hungry Hydra a2")
    assert state.zone(giant) == OUT and names_on(state, "c3") == ["Pawn"]


def test_tidal_nanny_returns_a_taken_monster_to_its_owners_hand():
    """Tidal Nanny: "When summoned: Return 1 enemy monster to its owner's hand." — P1 controls P2's
    Pawn (taken earlier); it is P2's enemy and goes back to P2's hand, its owner's."""
    state = at([KNIGHT], [demo("Tidal Nanny"), PAWN], hands=[[], ["Tidal Nanny"]], active=1)
    pawn = Table(state).put(1, "Pawn", "a2", controller=0)
    state.apply_text("summon Tidal Nanny a1")
    assert state.zone(pawn) == HAND and pawn in state.hand(1)


def test_goblin_surveyor_flips_an_empty_enemy_tile_anywhere():
    """Goblin Surveyor: "When summoned: Flip 1 enemy tile with no monster on it.\""""
    state = at([demo("Goblin Surveyor")], [PAWN], hands=[["Goblin Surveyor"], []], board=[{}, {"a1": ["Pawn"]}])
    state.apply_text("summon Goblin Surveyor a2")
    assert choice_texts(state) == ["a3", "b2", "c1", "c3"]
    choose(state, "c3")
    assert owner_of(state, "c3") == 0


@pytest.mark.parametrize("name", ["Earthquake Elephant", "Land-Eating Leviathan"])
def test_obliterate_an_adjacent_enemy_tile_with_its_monsters(name: str):
    """Earthquake Elephant / Land-Eating Leviathan: "When summoned: Obliterate 1 enemy tile adjacent
    to this monster." / "Obliterating: Remove a tile from the board, and any monster(s) on top of it"."""
    state = at([demo(name)], [PAWN, PAWN], hands=[[name], []], board=[{}, {"a1": ["Pawn", "Pawn"]}])
    pawns = list(state.on_tile(tile("a1")))
    state.apply_text(f"summon {name} a2")
    choose(state, "a1")
    assert tile("a1") not in state.tiles()
    assert all(state.zone(p) == OUT for p in pawns)


def test_dragon_of_mild_inconvenience_kills_defence_four_or_less():
    """Dragon of Mild Inconvenience: "When summoned: Kill 1 enemy monster with defence 4 or less.\""""
    four = monster("Four", 1, 1, 4)
    state = at(
        [demo("Dragon of Mild Inconvenience")],
        [four, WALL],
        hands=[["Dragon of Mild Inconvenience"], []],
        board=[{}, {"c3": ["Four"], "a1": ["Wall"]}],
    )
    state.apply_text("summon Dragon of Mild Inconvenience a2")
    assert names_on(state, "c3") == [] and names_on(state, "a1") == ["Wall"]


@pytest.mark.parametrize("five_tiles", [True, False])
def test_tile_titan_attacks_twice_only_with_five_tiles(five_tiles: bool):
    """Tile Titan: "When summoned: Kill 1 enemy monster on an adjacent tile. If you control 5 or more
    tiles, this monster may attack twice this turn.\""""
    tiles = {n: 0 for n in P1_TILES} | {"a1": 1, "a3": 1, "b2": 1, "c1": 0 if five_tiles else 1, "c3": 1}
    state = at(
        [demo("Tile Titan")],
        [PAWN, PAWN, PAWN],
        hands=[["Tile Titan"], []],
        board=[{}, {"a1": ["Pawn"], "a3": ["Pawn"], "b3": ["Pawn"]}],
        tiles=tiles,
    )
    state.apply_text("summon Tile Titan a2")
    choose(state, "Pawn@a1")
    assert names_on(state, "a1") == []
    state.apply_text("attack a3 with Tile Titan@a2")
    assert names_on(state, "a3") == ["Tile Titan"]
    if five_tiles:
        state.apply_text("attack b3 with Tile Titan@a3")
        assert names_on(state, "b3") == ["Tile Titan"]
    else:
        refuses(state, "attack b3 with Tile Titan@a3")


# --- When-killed abilities -----------------------------------------------------------------------


def test_tile_mole_adds_its_tile_after_the_attackers_flip():
    """Tile Mole: "When killed: Add 1 tile for you." / "When killed – AFTER this card has been killed.
    Also after the tile has been flipped if this monster's death caused one to flip": a1 is P1's by
    then, so P2's new tile must touch another P2 tile (c3), not a1."""
    tiles = {"a2": 0, "a1": 1, "c3": 1}
    state = at([GIANT], [demo("Tile Mole")], board=[{"a2": ["Giant"]}, {"a1": ["Tile Mole"]}], tiles=tiles)
    state.apply_text("attack a1 with Giant@a2")
    assert owner_of(state, "a1") == 0
    assert state.choice()["player"] == 1
    assert choice_texts(state) == ["b3", "c2", "c4", "d3"]
    choose(state, "c2")
    assert owner_of(state, "c2") == 1


def test_dizzy_bat_killed_by_an_assist_draws_for_its_controller():
    """Dizzy Bat: "When killed: Draw 1 card." — killed by Tripwire, P2 draws."""
    state = at([demo("Tripwire")], [demo("Dizzy Bat")], hands=[["Tripwire"], []], board=[{}, {"a1": ["Dizzy Bat"]}])
    state.apply_text("play Tripwire")
    assert state.hand_size(1) == 1


def test_bard_of_bad_tidings_sends_its_killer_home():
    """Bard of Bad Tidings: "When killed: Return 1 enemy monster to its owner's hand." — after its
    killer moved in and flipped the tile."""
    state = at([GIANT], [demo("Bard of Bad Tidings")], board=[{"a2": ["Giant"]}, {"a1": ["Bard of Bad Tidings"]}])
    giant = inst(state, "Giant", "a2")
    state.apply_text("attack a1 with Giant@a2")
    assert state.zone(giant) == HAND and giant in state.hand(0)
    assert owner_of(state, "a1") == 0


# --- Assists -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "limit"),
    [("Pocket Sand", 1), ("Tripwire", 2), ("Falling Piano", 3), ("Anvil Drop", 5), ("Dragon Sneeze", 9)],
)
def test_kill_assists_reach_their_defence_and_no_more(name: str, limit: int):
    """ "Kill 1 enemy monster with defence N or less." / "Kill/Destroy – The monster is removed from
    the game"."""
    at_limit = monster("AtLimit", 1, 1, limit)
    above = monster("Above", 1, 1, limit + 1)
    state = at([demo(name)], [at_limit, above], hands=[[name], []], board=[{}, {"c3": ["AtLimit"], "a1": ["Above"]}])
    target = inst(state, "AtLimit", "c3")
    state.apply_text(f"play {name}")
    assert state.zone(target) == OUT and names_on(state, "a1") == ["Above"]


def test_strong_coffee_lets_a_moved_monster_attack():
    """Strong Coffee: "1 friendly monster may move or attack again this turn.\""""
    state = at(
        [demo("Strong Coffee"), KNIGHT],
        [PAWN],
        hands=[["Strong Coffee"], []],
        board=[{"a2": ["Knight"]}, {"b1": ["Pawn"]}],
    )
    state.apply_text("move Knight@a2 a1")
    state.apply_text("play Strong Coffee")
    state.apply_text("attack b1 with Knight@a1")
    assert names_on(state, "b1") == ["Knight"]


def test_pep_talk_lasts_until_the_end_of_the_turn():
    """Pep Talk: "Give 1 friendly monster +2 attack until the end of your turn." — it kills a
    defence-5 monster, and is gone on the opponent's turn."""
    state = at(
        [demo("Pep Talk"), KNIGHT, KNIGHT],
        [demo("Château Toad")],
        hands=[["Pep Talk"], []],
        board=[{"a2": ["Knight"], "b1": ["Knight"]}, {"a1": ["Château Toad"]}],
    )
    knight = inst(state, "Knight", "a2")
    state.apply_text("play Pep Talk")
    choose(state, "Knight@a2")
    assert state.attack_of(knight) == 5
    refuses(state, "attack a1 with Knight@b1")
    state.apply_text("attack a1 with Knight@a2")
    assert names_on(state, "a1") == ["Knight"]
    end_turn(state)
    assert state.attack_of(knight) == 3


def test_extra_blanket_defence_is_lasting():
    """Extra Blanket: "Give 1 friendly monster +2 defence." (no "until")."""
    state = at([demo("Extra Blanket"), KNIGHT], [KNIGHT], hands=[["Extra Blanket"], []], board=[{"a2": ["Knight"]}, {}])
    knight = inst(state, "Knight", "a2")
    state.apply_text("play Extra Blanket")
    end_turn(state)
    end_turn(state)
    assert state.defence_of(knight) == 5


@pytest.mark.parametrize(("p1_tiles", "drawn"), [(4, 1), (5, 2)])
def test_fortune_cookie(p1_tiles: int, drawn: int):
    """Fortune Cookie: "Draw 1 card. If you control 5 or more tiles, draw 1 card.\""""
    tiles = {n: 0 for n in P1_TILES} | {"a1": 0 if p1_tiles == 5 else 1, "c3": 1}
    state = at([demo("Fortune Cookie")], [KNIGHT], hands=[["Fortune Cookie"], []], tiles=tiles)
    state.apply_text("play Fortune Cookie")
    assert state.hand_size(0) == drawn


def test_shortcut_through_the_hedge_flips_only_an_empty_enemy_tile():
    """Shortcut Through the Hedge: "Flip 1 enemy tile with no monster on it.\""""
    tiles = {"a2": 0, "a1": 1, "c3": 1}
    state = at(
        [demo("Shortcut Through the Hedge")],
        [PAWN],
        hands=[["Shortcut Through the Hedge"], []],
        board=[{}, {"a1": ["Pawn"]}],
        tiles=tiles,
    )
    state.apply_text("play Shortcut Through the Hedge")
    assert owner_of(state, "c3") == 0 and owner_of(state, "a1") == 1


def test_sudden_sinkhole_destroys_only_an_empty_enemy_tile():
    """Sudden Sinkhole: "Destroy 1 empty enemy tile.\""""
    tiles = {"a2": 0, "b2": 0, "a1": 1, "c3": 1}
    state = at(
        [demo("Sudden Sinkhole")], [PAWN], hands=[["Sudden Sinkhole"], []], board=[{}, {"a1": ["Pawn"]}], tiles=tiles
    )
    state.apply_text("play Sudden Sinkhole")
    assert tile("c3") not in state.tiles() and owner_of(state, "a1") == 1 and owner_of(state, "b2") == 0


def test_library_card_draws_two():
    """Library Card: "Draw 2 cards.\""""
    state = at([demo("Library Card")], [KNIGHT], hands=[["Library Card"], []])
    state.apply_text("play Library Card")
    assert state.hand_size(0) == 2


def test_goblin_real_estate_adds_a_tile_next_to_your_own():
    """Goblin Real Estate: "Add 1 tile for you." / "Adding: ... must be placed adjacent to a tile
    belonging to the same player"."""
    tiles = {"b2": 0, "a2": 1, "b1": 1}
    state = at([demo("Goblin Real Estate")], [KNIGHT], hands=[["Goblin Real Estate"], []], tiles=tiles)
    state.apply_text("play Goblin Real Estate")
    assert choice_texts(state) == ["b3", "c2"]
    choose(state, "c2")
    assert owner_of(state, "c2") == 0


def test_charity_parade_adds_the_opponents_tile_and_a_turn_long_attack():
    """Charity Parade: "Add 1 tile for your opponent. Give 1 friendly monster +3 attack until the end
    of your turn.\""""
    tiles = {"b2": 0, "a2": 1}
    state = at(
        [demo("Charity Parade"), KNIGHT],
        [KNIGHT],
        hands=[["Charity Parade"], []],
        board=[{"b2": ["Knight"]}, {}],
        tiles=tiles,
    )
    knight = inst(state, "Knight", "b2")
    state.apply_text("play Charity Parade")
    assert state.choice()["player"] == 0 and choice_texts(state) == ["-a2", "a1", "a3"]
    choose(state, "a1")
    assert owner_of(state, "a1") == 1 and state.attack_of(knight) == 6
    end_turn(state)
    assert state.attack_of(knight) == 3


def test_sugar_rush_gives_attack_and_another_action():
    """Sugar Rush: "Give 1 friendly monster +2 attack until the end of your turn. 1 friendly monster
    may move or attack again this turn." — the Knight moves, then kills a defence-5 monster."""
    state = at(
        [demo("Sugar Rush"), KNIGHT],
        [demo("Château Toad")],
        hands=[["Sugar Rush"], []],
        board=[{"a2": ["Knight"]}, {"b1": ["Château Toad"]}],
    )
    state.apply_text("move Knight@a2 a1")
    state.apply_text("play Sugar Rush")
    state.apply_text("attack b1 with Knight@a1")
    assert names_on(state, "b1") == ["Knight"]


@pytest.mark.parametrize(("name", "drawn"), [("Bucket of Cold Water", 0), ("Very Long Nap", 1)])
def test_return_assists_send_an_enemy_monster_to_its_owners_hand(name: str, drawn: int):
    """Bucket of Cold Water: "Return 1 enemy monster to its owner's hand."; Very Long Nap: "... Draw 1
    card.\""""
    state = at([demo(name)], [GIANT], hands=[[name], []], board=[{}, {"a1": ["Giant"]}])
    giant = inst(state, "Giant", "a1")
    state.apply_text(f"play {name}")
    assert state.zone(giant) == HAND and giant in state.hand(1)
    assert state.hand_size(0) == drawn


@pytest.mark.parametrize(("name", "limit"), [("Bribe of Biscuits", 2), ("Grand Heist", 4)])
def test_take_control_assists(name: str, limit: int):
    """Bribe of Biscuits / Grand Heist: "Take control of 1 enemy monster with attack N or less. It
    cannot move or attack this turn.\""""
    low = monster("Low", 1, limit, 1)
    high = monster("High", 1, limit + 1, 9)
    state = at([demo(name)], [low, high], hands=[[name], []], board=[{}, {"b2": ["Low"], "c3": ["High"]}])
    low_i = inst(state, "Low", "b2")
    state.apply_text(f"play {name}")
    assert state.controller(low_i) == 0
    assert state.controller(inst(state, "High", "c3")) == 1
    refuses(state, "move Low@b2 a2")


@pytest.mark.parametrize(("p1_tiles", "bonus"), [(3, 3), (2, 0)])
def test_battle_hymn_needs_three_tiles(p1_tiles: int, bonus: int):
    """Battle Hymn: "If you control 3 or more tiles, give 1 friendly monster +3 attack until the end of
    your turn.\""""
    tiles = {"a2": 0, "b1": 0, "b3": 0 if p1_tiles == 3 else 1, "a1": 1}
    state = at(
        [demo("Battle Hymn"), KNIGHT],
        [KNIGHT],
        hands=[["Battle Hymn"], []],
        board=[{"a2": ["Knight"]}, {}],
        tiles=tiles,
    )
    knight = inst(state, "Knight", "a2")
    state.apply_text("play Battle Hymn")
    assert state.attack_of(knight) == 3 + bonus


def test_mortgage_papers_adds_then_flips():
    """Mortgage Papers: "Add 1 tile for you. Flip 1 enemy tile with no monster on it.\""""
    tiles = {"b2": 0, "a2": 1}
    state = at([demo("Mortgage Papers")], [KNIGHT], hands=[["Mortgage Papers"], []], tiles=tiles)
    state.apply_text("play Mortgage Papers")
    choose(state, "c2")
    assert owner_of(state, "c2") == 0 and owner_of(state, "a2") == 0


def test_reinforced_pants():
    """Reinforced Pants: "Give 1 friendly monster +3 defence. Draw 1 card.\""""
    state = at(
        [demo("Reinforced Pants"), KNIGHT], [KNIGHT], hands=[["Reinforced Pants"], []], board=[{"a2": ["Knight"]}, {}]
    )
    knight = inst(state, "Knight", "a2")
    state.apply_text("play Reinforced Pants")
    assert state.defence_of(knight) == 6 and state.hand_size(0) == 1


def test_surprise_trapdoor():
    """Surprise Trapdoor: "Destroy 1 empty enemy tile. Draw 1 card.\""""
    tiles = {"a2": 0, "a1": 1, "c3": 1}
    state = at(
        [demo("Surprise Trapdoor")],
        [PAWN],
        hands=[["Surprise Trapdoor"], []],
        board=[{}, {"a1": ["Pawn"]}],
        tiles=tiles,
    )
    state.apply_text("play Surprise Trapdoor")
    assert tile("c3") not in state.tiles() and state.hand_size(0) == 1


def test_scouts_honour_counts_tiles_after_its_flip():
    """Scout's Honour: "Flip 1 enemy tile with no monster on it. If you control 5 or more tiles, draw 1
    card." — read in order: the flip makes the fifth tile."""
    state = at(
        [demo("Scout's Honour")],
        [PAWN] * 4,
        hands=[["Scout's Honour"], []],
        board=[{}, {"a1": ["Pawn"], "a3": ["Pawn"], "b2": ["Pawn"], "c1": ["Pawn"]}],
    )
    state.apply_text("play Scout's Honour")
    assert owner_of(state, "c3") == 0 and state.hand_size(0) == 1


# --- Winning and losing --------------------------------------------------------------------------


def test_obliterating_your_last_tile_loses():
    """ "lead to victory and control the tiles": with no deck and one tile left, the obliteration that
    replaces the draw leaves P1 without a tile, and P1 loses."""
    state = at([KNIGHT], [KNIGHT], tiles=two_tiles())
    Table(state).empty_deck(0)
    state.apply_text("obliterate a2")
    assert state.is_terminal and state.winners == (1,)


def test_obliterating_the_opponents_last_tile_wins():
    """Earthquake Elephant: "Obliterate 1 enemy tile adjacent to this monster." on P2's only tile."""
    state = at([demo("Earthquake Elephant")], [KNIGHT], hands=[["Earthquake Elephant"], []], tiles=two_tiles())
    state.apply_text("summon Earthquake Elephant a2")
    assert state.is_terminal and state.winners == (0,)


# --- More timing, control and hand-limit cases ---------------------------------------------------


def test_mana_is_counted_once_at_the_start_of_the_turn():
    """ "Before you start your first turn (or do anything on that turn) count the amount of mana you
    have to spend this turn": a monster summoned later does not add mana."""
    state = at([PAWN], [KNIGHT], hands=[["Pawn"], []], mana=5)
    state.apply_text("summon Pawn a2")
    assert state.mana == 4


def test_the_first_player_may_summon_and_attack_on_the_first_turn():
    """No rule holds the first turn back: "You may attack and play cards at any time on your turn"."""
    state = started(rules_for([BRUTE], [PAWN]))
    Table(state).put(1, "Pawn", "a1")
    state.apply_text("summon Brute a2")
    state.apply_text("attack a1 with Brute@a2")
    assert names_on(state, "a1") == ["Brute"]


def test_a_monster_summoned_this_turn_may_move():
    """ "... but they move or attack alone on this turn"."""
    state = at([KNIGHT], [KNIGHT], hands=[["Knight"], []])
    state.apply_text("summon Knight a2")
    state.apply_text("move Knight@a2 a1")
    assert names_on(state, "a1") == ["Knight"]


def test_both_survivors_of_a_combined_kill_move_in():
    """ "Move your monster onto the tile" after a combined kill: both attackers survive (the Wall strikes
    back with 1) and both move in, the tile flips."""
    state = at([KNIGHT, KNIGHT], [WALL], board=[{"a2": ["Knight"], "b1": ["Knight"]}, {"a1": ["Wall"]}])
    state.apply_text("attack a1 with Knight@a2 + Knight@b1")
    assert names_on(state, "a1") == ["Knight", "Knight"] and owner_of(state, "a1") == 0


def test_a_combined_attack_needs_both_attackers_adjacent():
    """ "If you have two monsters adjacent to the same tile": c2 is not next to a1."""
    state = at([KNIGHT, KNIGHT], [WALL], board=[{"a2": ["Knight"], "c2": ["Knight"]}, {"a1": ["Wall"]}])
    refuses(state, "attack a1 with Knight@a2 + Knight@c2")


def test_a_turn_long_bonus_does_not_strike_back_on_the_opponents_turn():
    """Pep Talk: "+2 attack until the end of your turn": on P2's turn the Knight strikes back with 3,
    and P2's attacker of defence 4 survives."""
    four = monster("Four", 1, 3, 4)
    state = at(
        [demo("Pep Talk"), KNIGHT], [four], hands=[["Pep Talk"], []], board=[{"a2": ["Knight"]}, {"a1": ["Four"]}]
    )
    state.apply_text("play Pep Talk")
    end_turn(state)
    state.apply_text("attack a2 with Four@a1")
    assert names_on(state, "a2") == ["Four"]


def test_end_of_turn_abilities_fire_only_at_their_controllers_turn_end():
    """Grudge-Holding Goat: "At the end of your turn" — P2's goat is unchanged when P1's turn ends."""
    state = at([KNIGHT], [demo("Grudge-Holding Goat")], board=[{}, {"a1": ["Grudge-Holding Goat"]}])
    goat = inst(state, "Grudge-Holding Goat", "a1")
    state.apply_text("draw 1")
    assert state.attack_of(goat) == 2


def test_doorstop_troll_may_give_its_defence_to_itself():
    """Doorstop Troll: "When summoned: Give 1 friendly monster +1 defence." / "When summoned – AFTER you
    play this card": the Troll is on the board and friendly, the only one there."""
    state = at([demo("Doorstop Troll")], [KNIGHT], hands=[["Doorstop Troll"], []])
    state.apply_text("summon Doorstop Troll a2")
    assert state.defence_of(inst(state, "Doorstop Troll", "a2")) == 4


def test_returning_a_monster_to_a_full_hand_loses_its_owner_the_game():
    """ "If you EVER have 11 cards in your hand, you lose the game immediately": Bucket of Cold Water
    ("Return 1 enemy monster to its owner's hand.") on P2, who holds 10."""
    state = at(
        [demo("Bucket of Cold Water")],
        [GIANT, *[PAWN] * 10],
        hands=[["Bucket of Cold Water"], ["Pawn"] * 10],
        board=[{}, {"a1": ["Giant"]}],
    )
    state.apply_text("play Bucket of Cold Water")
    assert state.is_terminal and state.winners == (0,)


def test_a_flip_that_returns_a_monster_to_a_full_hand_loses_its_owner_the_game():
    """ "(if this is not possible, the monster is returned to the owner's hand)" with "If you EVER have
    11 cards in your hand, you lose": P2 holds 10."""
    tiles = {"a2": 0, "b1": 0, "b2": 1, "b3": 0, "c2": 0, "a1": 1}
    state = at(
        [KNIGHT],
        [PAWN, *[FILLER] * 10],
        hands=[[], ["Filler"] * 9],
        board=[{"b2": ["Knight"]}, {"b2": ["Pawn"]}],
        tiles=tiles,
        active=1,
        filler=12,
    )
    state.apply_text("draw 1")
    assert state.hand_size(1) == 10
    state.apply_text("flip b2")
    assert state.is_terminal and state.winners == (0,)


def test_the_displaced_monsters_controller_chooses_among_several_tiles():
    """ "the opponent must move it to an adjacent enemy tile with less than 2 monsters on": b2's
    neighbours a2 and c2 are P2's, both free; P2 picks."""
    tiles = {"a2": 1, "b1": 0, "b2": 1, "b3": 0, "c2": 1, "a1": 1}
    state = at([KNIGHT], [PAWN], board=[{"b2": ["Knight"]}, {"b2": ["Pawn"]}], tiles=tiles, active=1)
    pawn = inst(state, "Pawn", "b2")
    state.apply_text("draw 1")
    state.apply_text("flip b2")
    assert state.choice()["player"] == 1 and choice_texts(state) == ["a2", "c2"]
    choose(state, "c2")
    assert where(state, pawn) == "c2"


def test_a_killed_monsters_draw_goes_to_its_controller():
    """Dizzy Bat: "When killed: Draw 1 card." — "you" is who controls it: P1 took P2's Bat, P2 kills
    it, P1 draws."""
    state = at([KNIGHT], [demo("Dizzy Bat"), GIANT], board=[{}, {"a1": ["Giant"]}], active=1)
    Table(state).put(1, "Dizzy Bat", "a2", controller=0)
    before = state.hand_size(0), state.hand_size(1)
    state.apply_text("attack a2 with Giant@a1")
    assert (state.hand_size(0), state.hand_size(1)) == (before[0] + 1, before[1])


def test_bard_killed_by_an_assist_lets_its_controller_choose_which_enemy_returns():
    """Bard of Bad Tidings: "When killed: Return 1 enemy monster to its owner's hand." — Falling Piano
    kills it; P2, its controller, picks one of P1's two monsters."""
    state = at(
        [demo("Falling Piano"), KNIGHT, PAWN],
        [demo("Bard of Bad Tidings")],
        hands=[["Falling Piano"], []],
        board=[{"a2": ["Knight"], "c2": ["Pawn"]}, {"c3": ["Bard of Bad Tidings"]}],
    )
    state.apply_text("play Falling Piano")
    assert state.choice()["player"] == 1
    choose(state, "Pawn@c2")
    assert hand_names(state, 0) == ["Pawn"]


def test_a_taken_monster_counts_for_its_new_controllers_mana():
    """ "the number of monsters you control" / "Take control - The monster in question becomes your
    monster": after Bribe of Biscuits P1 controls 1 monster; P1's next turn, 5 + 1 tiles... = 5 + 1."""
    state = at([demo("Bribe of Biscuits")], [PAWN], hands=[["Bribe of Biscuits"], []], board=[{}, {"b2": ["Pawn"]}])
    state.apply_text("play Bribe of Biscuits")
    end_turn(state)
    assert state.mana == 4 + 0 + 1  # P2: P1's 4 tiles, no monster, its first turn's extra
    end_turn(state)
    assert state.active == 0 and state.mana == 5 + 1


def test_a_taken_monster_may_not_join_a_combined_attack_that_turn():
    """Bribe of Biscuits: "It cannot move or attack this turn" — not even beside another."""
    state = at(
        [demo("Bribe of Biscuits"), KNIGHT],
        [PAWN, WALL],
        hands=[["Bribe of Biscuits"], []],
        board=[{"b1": ["Knight"]}, {"a2": ["Pawn"], "a1": ["Wall"]}],
    )
    state.apply_text("play Bribe of Biscuits")
    choose(state, "Pawn@a2")
    refuses(state, "attack a1 with Knight@b1 + Pawn@a2")


def test_obliterating_removes_your_own_monsters_on_the_tile_too():
    """Earthquake Elephant: "Obliterate 1 enemy tile adjacent to this monster." / "Obliterating: Remove a
    tile from the board, and any monster(s) on top of it": P1's own Knight on a1 goes with it."""
    tiles = {"a2": 0, "a1": 1, "c3": 1}
    state = at(
        [demo("Earthquake Elephant"), KNIGHT],
        [KNIGHT],
        hands=[["Earthquake Elephant"], []],
        board=[{"a1": ["Knight"]}, {}],
        tiles=tiles,
    )
    knight = inst(state, "Knight", "a1")
    state.apply_text("summon Earthquake Elephant a2")
    assert tile("a1") not in state.tiles() and state.zone(knight) == OUT


def test_no_move_onto_a_removed_tile():
    """ "Destroying: Remove a tile from the board": nothing stands where there is no tile."""
    tiles = {"a2": 0, "b2": 0, "c3": 1}
    state = at([KNIGHT], [KNIGHT], board=[{"a2": ["Knight"]}, {}], tiles=tiles)
    refuses(state, "move Knight@a2 a1")
    state.apply_text("move Knight@a2 b2")


def test_the_second_players_opening_draw_of_eleven_loses():
    """ "they'll instantaneously lose if they have 11 or more in their hand" — P2 too."""
    rules = rules_for()
    state = rules.new_initial_state(0)
    state.apply(Shuffle([range(d.size) for d in rules.decks]))
    state.apply_text("draw 1")
    state.apply_text("draw 11")
    assert state.is_terminal and state.winners == (0,)


def test_the_end_of_turn_draw_is_at_most_the_deck():
    """ "When you have no cards in your deck, instead of drawing ..." — a deck of 3 gives at most 3."""
    state = at([KNIGHT], [KNIGHT], filler=2)
    assert state.deck_size(0) == 3
    refuses(state, "draw 4")
    state.apply_text("draw 3")
    assert state.hand_size(0) == 3


def test_a_draw_of_two_from_a_deck_of_one_draws_the_one():
    """ "If an ability cannot activate when it should (if there aren't enough valid targets) then ignore
    ... just that part of the ability": Library Card ("Draw 2 cards.") with one card left."""
    state = at([demo("Library Card"), PAWN], [KNIGHT], hands=[["Library Card"], []], filler=0)
    assert state.deck_size(0) == 1
    state.apply_text("play Library Card")
    assert state.hand_size(0) == 1 and state.deck_size(0) == 0 and not state.is_terminal


def test_an_end_of_turn_draw_ability_after_the_last_card_is_ignored():
    """ "At the end of your turn - AFTER you have drawn the card(s)": the draw takes the last card; the
    Lich's "Draw 1 card." finds none and is ignored (no obliteration: that replaces the turn's draw)."""
    state = at([demo("Grand Librarian Lich"), PAWN], [KNIGHT], board=[{"a2": ["Grand Librarian Lich"]}, {}], filler=0)
    state.apply_text("draw 1")
    assert not state.is_terminal and state.active == 1
    assert state.hand_size(0) == 1 and state.tile_count(0) == 4


def test_at_the_turn_limit_more_tiles_wins():
    """The turn limit is cardbase's (the rulebook sets none): "Turns (both players') after which more
    tiles wins"."""
    state = at([KNIGHT], [KNIGHT], options={"max_turns": 2})
    state.apply_text("draw 1")
    state.apply_text("draw 1")
    assert state.is_terminal and state.winners == (1,)  # P2: 5 tiles, P1: 4


def test_at_the_turn_limit_equal_tiles_is_a_draw():
    """The turn limit is cardbase's: equal tiles share the result."""
    tiles = {"a2": 0, "a1": 1}
    state = at([KNIGHT], [KNIGHT], options={"max_turns": 2}, tiles=tiles)
    state.apply_text("draw 1")
    state.apply_text("draw 1")
    assert state.is_terminal and state.winners == (0, 1)


def test_first_turns_mana_for_both_players():
    """ "the number of tiles your opponent controls + the number of monsters you control" and the
    second player's extra: P1's first turn 5 + 0; P2's first turn 4 + 0 + 1."""
    state = started(rules_for())
    assert state.active == 0 and state.mana == 5
    state.apply_text("draw 1")
    assert state.active == 1 and state.mana == 5


def test_an_ability_flip_of_a_tile_with_two_enemy_monsters_and_room_for_one():
    """Pickpocket Ferret: "Flip 1 enemy tile adjacent to this monster." with "the opponent must move it
    to an adjacent enemy tile with less than 2 monsters on (if this is not possible, the monster is
    returned to the owner's hand)": b2 holds two P2 monsters; next to it only c2 is P2's, with room for
    one; P2 chooses which moves, the other goes home."""
    tiles = {"a2": 0, "b1": 0, "b3": 0, "b2": 1, "c2": 1, "c3": 1}
    state = at(
        [demo("Pickpocket Ferret")],
        [PAWN, KNIGHT, WALL],
        hands=[["Pickpocket Ferret"], []],
        board=[{}, {"b2": ["Pawn", "Knight"], "c2": ["Wall"]}],
        tiles=tiles,
    )
    pawn, knight = inst(state, "Pawn", "b2"), inst(state, "Knight", "b2")
    state.apply_text("summon Pickpocket Ferret a2")
    assert owner_of(state, "b2") == 0
    assert state.choice()["player"] == 1
    choose(state, "Knight@b2")
    if state.phase == "choice":
        choose(state, "c2")
    assert where(state, knight) == "c2" and state.zone(pawn) == HAND


def test_bard_killed_by_a_combined_attack_sends_one_attacker_home():
    """Bard of Bad Tidings: "When killed: Return 1 enemy monster to its owner's hand." — after both
    attackers moved in; P2 picks one, the other stays on the flipped tile."""
    state = at(
        [KNIGHT, WALL],
        [demo("Bard of Bad Tidings")],
        board=[{"a2": ["Knight"], "b1": ["Wall"]}, {"a1": ["Bard of Bad Tidings"]}],
    )
    state.apply_text("attack a1 with Knight@a2 + Wall@b1")
    assert owner_of(state, "a1") == 0
    assert state.choice()["player"] == 1 and choice_texts(state) == ["Knight@a1", "Wall@a1"]
    choose(state, "Wall@a1")
    assert names_on(state, "a1") == ["Knight"] and hand_names(state, 0) == ["Wall"]


def test_a_kill_by_an_ability_moves_no_monster_in():
    """Hungry Hydra: "When summoned: Kill 1 enemy monster on an adjacent tile." — "When you kill an
    enemy monster ... your monster survived: Move your monster onto the tile" is combat's: the
    emptied tile stays P2's."""
    state = at([demo("Hungry Hydra")], [PAWN], hands=[["Hungry Hydra"], []], board=[{}, {"a1": ["Pawn"]}])
    state.apply_text("summon Hungry Hydra a2")
    assert names_on(state, "a1") == [] and owner_of(state, "a1") == 1
    assert names_on(state, "a2") == ["Hungry Hydra"]


def test_tile_mole_killed_by_an_assist_adds_for_its_controller():
    """Tile Mole: "When killed: Add 1 tile for you." — Falling Piano kills it; P2 (its controller) gets
    the tile and P2 chooses where ("The player that is told to add the tile, chooses")."""
    tiles = {"a2": 0, "c3": 1}
    state = at(
        [demo("Falling Piano")],
        [demo("Tile Mole")],
        hands=[["Falling Piano"], []],
        board=[{}, {"c3": ["Tile Mole"]}],
        tiles=tiles,
    )
    state.apply_text("play Falling Piano")
    assert state.choice()["player"] == 1
    choose(state, "c2")
    assert owner_of(state, "c2") == 1 and state.tile_count(1) == 2


def test_the_start_of_turn_flip_is_not_offered_later_in_the_turn():
    """ "At the start of your turn you may flip ONE enemy tile": declined, it is gone for the turn; a
    monster that moves onto an enemy tile does not flip it either."""
    state = at([KNIGHT, PAWN], [KNIGHT], board=[{"b2": ["Knight"], "a2": ["Pawn"]}, {}], active=1)
    state.apply_text("draw 1")
    state.apply_text("flip none")
    refuses(state, "flip b2")
    state.apply_text("move Pawn@a2 a1")
    refuses(state, "flip a1")
    assert owner_of(state, "b2") == 1 and owner_of(state, "a1") == 1


def test_sugar_rushs_two_sentences_may_pick_two_monsters():
    """Sugar Rush: "Give 1 friendly monster +2 attack until the end of your turn. 1 friendly monster
    may move or attack again this turn." — each "1 friendly monster" is chosen on its own."""
    state = at(
        [demo("Sugar Rush"), KNIGHT, PAWN],
        [WALL],
        hands=[["Sugar Rush"], []],
        board=[{"a2": ["Knight"], "c2": ["Pawn"]}, {"b1": ["Wall"]}],
    )
    knight, pawn = inst(state, "Knight", "a2"), inst(state, "Pawn", "c2")
    state.apply_text("move Pawn@c2 c1")
    state.apply_text("play Sugar Rush")
    choose(state, "Knight@a2")
    choose(state, "Pawn@c1")
    assert state.attack_of(knight) == 5 and state.attack_of(pawn) == 1
    state.apply_text("move Pawn@c1 c2")


def test_a_kill_filter_sees_the_defence_with_its_bonus():
    """Goose of Reckoning: "Kill 1 enemy monster with defence 1 or less." — a Pawn given +2 defence
    (Extra Blanket: "Give 1 friendly monster +2 defence.") has defence 3 and is no target."""
    state = at(
        [demo("Extra Blanket"), PAWN],
        [demo("Goose of Reckoning")],
        hands=[["Extra Blanket"], ["Goose of Reckoning"]],
        board=[{"a2": ["Pawn"]}, {}],
    )
    state.apply_text("play Extra Blanket")
    end_turn(state)
    state.apply_text("summon Goose of Reckoning a1")
    assert names_on(state, "a2") == ["Pawn"]


def test_a_full_hand_must_still_draw_and_loses():
    """ "At the end of your turn you must draw at least 1 card" and "If you EVER have 11 cards in your
    hand, you lose": a hand of 10 with cards in the deck has only losing draws."""
    state = at([*[PAWN] * 10], [KNIGHT], hands=[["Pawn"] * 10, []])
    assert "draw 1" in legal_texts(state)
    state.apply_text("draw 1")
    assert state.is_terminal and state.winners == (1,)


def test_a_full_hand_with_an_empty_deck_obliterates_and_plays_on():
    """ "When you have no cards in your deck, instead of drawing a card ... you must OBLITERATE a
    friendly tile": a hand of 10 draws nothing, so it does not reach 11."""
    state = at([*[PAWN] * 10], [KNIGHT], hands=[["Pawn"] * 10, []], filler=0)
    state.apply_text("obliterate a2")
    assert not state.is_terminal and state.active == 1 and state.hand_size(0) == 10


def test_a_returned_monster_comes_back_with_its_printed_values():
    """Bucket of Cold Water: "Return 1 enemy monster to its owner's hand." — a card in hand is the
    printed card: Hopeful Newt's gained attack ("This monster gets +1 attack") is gone when it is
    summoned again."""
    newt = demo("Hopeful Newt")
    state = at(
        [demo("Bucket of Cold Water")],
        [newt],
        hands=[["Bucket of Cold Water"], []],
        board=[{}, {"a1": ["Hopeful Newt"]}],
    )
    i = inst(state, newt.name, "a1")
    state.set_monster(i, attack=4)
    state.apply_text("play Bucket of Cold Water")
    end_turn(state)
    state.apply_text("summon Hopeful Newt a1")
    assert state.attack_of(i) == 1


def test_a_taken_monsters_end_of_turn_ability_works_for_its_new_controller():
    """Grudge-Holding Goat: "At the end of your turn: This monster gets +1 attack." after Bribe of
    Biscuits made it P1's ("becomes your monster"): it grows at P1's turn end, not at P2's."""
    goat = demo("Grudge-Holding Goat")
    state = at([demo("Bribe of Biscuits")], [goat], hands=[["Bribe of Biscuits"], []], board=[{}, {"b2": [goat.name]}])
    i = inst(state, goat.name, "b2")
    state.apply_text("play Bribe of Biscuits")
    state.apply_text("draw 1")
    assert state.attack_of(i) == 3
    if state.phase == "flip":
        state.apply_text("flip none")
    state.apply_text("draw 1")
    assert state.attack_of(i) == 3


def test_an_imp_that_attacked_in_a_pair_may_attack_again():
    """Jalapeño Imp: "When summoned: This monster may attack twice this turn." — its first attack is
    beside a Knight (a pair); the second is its own."""
    state = at(
        [demo("Jalapeño Imp"), KNIGHT],
        [WALL, PAWN],
        hands=[["Jalapeño Imp"], []],
        board=[{"b1": ["Knight"]}, {"a1": ["Wall"]}],
    )
    state.apply_text("summon Jalapeño Imp a2")
    state.apply_text("attack a1 with Jalapeño Imp@a2 + Knight@b1")
    assert sorted(names_on(state, "a1")) == ["Jalapeño Imp", "Knight"]
    Table(state).put(1, "Pawn", "a2")  # a new enemy next to a1
    state.apply_text("attack a2 with Jalapeño Imp@a1")
    assert names_on(state, "a2") == ["Jalapeño Imp"]


def test_an_attacker_killed_by_the_strike_back_has_its_when_killed():
    """Dizzy Bat: "When killed: Draw 1 card." with "If your monster's defence is equal to or lower than
    the attack of the monster you're attacking then your monster is also killed": the Bat (2/2) kills
    a 2/2 and dies of its strike back; P1 draws for the Bat."""
    glass = monster("Glass", 1, 2, 2)
    state = at([demo("Dizzy Bat")], [glass], board=[{"a2": ["Dizzy Bat"]}, {"a1": ["Glass"]}])
    state.apply_text("attack a1 with Dizzy Bat@a2")
    assert names_on(state, "a1") == [] and names_on(state, "a2") == []
    assert state.hand_size(0) == 1
