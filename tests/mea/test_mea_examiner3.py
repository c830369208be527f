"""A third blind examination of Méa: The Tiled Kingdom (Jacob Worgan et al., the rulebook "How to
Play"), and of the cardbase demo set's card texts (project-made cards, not published Méa cards).
Each case checks one rule sentence or one card's text, quoted in its docstring. 155 cases were
written from the rulebook, the cards and the public set-up API alone, run (all agreed with the
engine), then compared with docs/rules/mea.md and the tests already there; kept here are those
that check something no earlier test does: filter and condition boundaries of the demo cards, and
take control, pairs, bonuses and draws meeting across turns.

Seat 0 is P1 (yellow, goes first), seat 1 is P2 (blue); the default layout gives P2 the corners
and b2, P1 a2, b1, b3 and c2.
"""

from __future__ import annotations

import pytest

from cardbase.games.mea.codes import HAND, OUT
from cardbase.games.mea.engine import MeaState
from tests.mea.conftest import (
    BRUTE,
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
)

# P1's tiles in the default layout.
P1_TILES = ("a2", "b1", "b3", "c2")


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


# --- When-summoned abilities ---------------------------------------------------------------------


def test_pickpocket_ferret_flips_an_adjacent_enemy_tile_only():
    """Pickpocket Ferret: "When summoned: Flip 1 enemy tile adjacent to this monster." — from a2, a1
    or a3 or b2; never c1."""
    state = at([demo("Pickpocket Ferret")], [KNIGHT], hands=[["Pickpocket Ferret"], []])
    state.apply_text("summon Pickpocket Ferret a2")
    assert choice_texts(state) == ["a1", "a3", "b2"]
    choose(state, "a3")
    assert owner_of(state, "a3") == 0


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


# --- Take control, pairs, bonuses and draws across turns ------------------------------------------


def test_the_first_player_may_summon_and_attack_on_the_first_turn():
    """No rule holds the first turn back: "You may attack and play cards at any time on your turn"."""
    state = started(rules_for([BRUTE], [PAWN]))
    Table(state).put(1, "Pawn", "a1")
    state.apply_text("summon Brute a2")
    state.apply_text("attack a1 with Brute@a2")
    assert names_on(state, "a1") == ["Brute"]


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


def test_doorstop_troll_may_give_its_defence_to_itself():
    """Doorstop Troll: "When summoned: Give 1 friendly monster +1 defence." / "When summoned – AFTER you
    play this card": the Troll is on the board and friendly, the only one there."""
    state = at([demo("Doorstop Troll")], [KNIGHT], hands=[["Doorstop Troll"], []])
    state.apply_text("summon Doorstop Troll a2")
    assert state.defence_of(inst(state, "Doorstop Troll", "a2")) == 4


def test_a_killed_monsters_draw_goes_to_its_controller():
    """Dizzy Bat: "When killed: Draw 1 card." — "you" is who controls it: P1 took P2's Bat, P2 kills
    it, P1 draws."""
    state = at([KNIGHT], [demo("Dizzy Bat"), GIANT], board=[{}, {"a1": ["Giant"]}], active=1)
    Table(state).put(1, "Dizzy Bat", "a2", controller=0)
    before = state.hand_size(0), state.hand_size(1)
    state.apply_text("attack a2 with Giant@a1")
    assert (state.hand_size(0), state.hand_size(1)) == (before[0] + 1, before[1])


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


def test_an_end_of_turn_draw_ability_after_the_last_card_is_ignored():
    """ "At the end of your turn - AFTER you have drawn the card(s)": the draw takes the last card; the
    Lich's "Draw 1 card." finds none and is ignored (no obliteration: that replaces the turn's draw)."""
    state = at([demo("Grand Librarian Lich"), PAWN], [KNIGHT], board=[{"a2": ["Grand Librarian Lich"]}, {}], filler=0)
    state.apply_text("draw 1")
    assert not state.is_terminal and state.active == 1
    assert state.hand_size(0) == 1 and state.tile_count(0) == 4


def test_at_the_turn_limit_equal_tiles_is_a_draw():
    """The turn limit is cardbase's: equal tiles share the result."""
    tiles = {"a2": 0, "a1": 1}
    state = at([KNIGHT], [KNIGHT], options={"max_turns": 2}, tiles=tiles)
    state.apply_text("draw 1")
    state.apply_text("draw 1")
    assert state.is_terminal and state.winners == (0, 1)


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
