"""An independent examiner's scenarios for Meikyu Kingdom, written from the rulebook's text before
reading the engine or its rules trace. Each test quotes the rulebook sentence it checks.

Values are the default profile's (the rulebook prints no card values): Unnamed rooms 1–4 are plain
lands of level 4, 5, 6 and 8 (1, 1, 2, 3 points); Executioner 3/0, Daedalist 2/1, Bee 1/1, Drone 0/1,
Highlord 1/3, Valeel 0/3.
"""

from __future__ import annotations

import pytest

from cardbase.games.base import CHANCE, IllegalAction, InvalidRules
from cardbase.games.meikyu.engine import MeikyuState
from tests.meikyu.helpers import act, draw, position, reveal, roll, rules, settle


def legal(state: MeikyuState) -> set[str]:
    return {str(a) for a in state.legal_actions()}


def refused(state: MeikyuState, text: str) -> None:
    with pytest.raises(IllegalAction):
        state.apply(state.parse_action(text))


def rebuilt(state: MeikyuState) -> MeikyuState:
    """The same position rebuilt from a seat's observation and the hidden cards (``from_parts``): the scenario
    goes on with the copy, so every later step checks that nothing the rules need was lost."""
    seat = state.current_player if state.current_player >= 0 else state.turn_player
    copy = MeikyuState.from_parts(state.observation(seat), *state.parts())
    copy.rng.setstate(state.rng.getstate())  # chance goes on as it would have: from_parts has no seed
    assert list(copy.legal_actions()) == list(state.legal_actions())
    assert (copy.decision, copy.current_player, copy.context()) == (
        state.decision,
        state.current_player,
        state.context(),
    )
    return copy


def finish_discards(state: MeikyuState) -> None:
    while state.decision == "discard order":
        act(state, str(state.legal_actions()[0]))


# --- setting up, players, turn order --------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_s01_setup_four_rooms_and_four_cards_each(players):
    """ "draw the top 4 Meikyu Cards, turning them face up" / "deal 4 Kingdom Cards to each player" """
    state = rules(players).new_initial_state(3)
    state.resolve_chance()
    assert len(state.rooms()) == 4
    first = state.turn_player
    assert [state.hand_size(s) for s in range(players)] == [5 if s == first else 4 for s in range(players)]


@pytest.mark.parametrize("players", [1, 6])
def test_s56_two_to_five_players_only(players):
    """Components and play: the game is for 2–5 players (the assumption profile; the rulebook prints no count)."""
    with pytest.raises(InvalidRules):
        rules(players)


def test_s56_five_players_go_clockwise():
    """ "The play will proceed in a clockwise order." """
    state = position(5, turn=3, hands=[{}, {}, {}, {}, {}])
    order = []
    for _ in range(6):
        order.append(state.turn_player)
        act(state, "resupply")
        settle(state)
    assert order == [3, 4, 0, 1, 2, 3]


# --- the turn -------------------------------------------------------------------------------------


def test_s03_draw_first_then_act():
    """ "1. Draw a Kingdom Card — The player takes one card from the Kingdom Pile." """
    state = position(2, step="draw", hands=[{}, {}])
    assert state.decision == "chance"
    draw(state, "Bee")
    assert state.hand(0) == {"Bee": 1} and state.decision == "action"


def test_s23_resupply_draws_one_more():
    """ "2-4 Resupply — The player draws one more card from the Kingdom pile." """
    state = position(2, hands=[{"Bee": 1}, {}])
    act(state, "resupply")
    draw(state, "Cook")
    assert state.hand(0) == {"Bee": 1, "Cook": 1}
    assert state.turn_player == 1  # one action only: the turn is over


def test_s24_six_cards_discard_down_to_five_five_is_kept():
    """ "If a player has six or more cards in her hand by the end of her turn, she must discard down to
    five cards." """
    six = position(2, hands=[{"Bee": 2, "Cook": 2, "Jehu": 1}, {}])
    act(six, "resupply")
    draw(six, "Drone")
    assert six.decision == "hand limit" and six.current_player == 0
    act(six, "discard Drone")
    assert six.hand_size(0) == 5 and six.turn_player == 1
    five = position(2, hands=[{"Bee": 2, "Cook": 2}, {}])
    act(five, "resupply")
    draw(five, "Drone")
    assert five.hand_size(0) == 5 and five.turn_player == 1


def test_s25_rooms_refill_to_four_as_far_as_the_pile_goes():
    """ "If there are three or less face-up Meikyu cards ... new Meikyu cards are drawn from the pile, and
    placed face-up until there are four" """
    state = position(2, hands=[{"Executioner": 1}, {}], meikyu_pile=["Unnamed room 9"])
    act(state, "quest Unnamed room 1 with Executioner")
    roll(state, 2)
    assert len(state.rooms()) == 3
    assert state.decision == "chance"
    reveal(state, "Unnamed room 9")
    assert len(state.rooms()) == 4 and state.turn_player == 1
    short = position(2, hands=[{"Executioner": 2}, {}], meikyu_pile=[])
    act(short, "quest Unnamed room 1 with Executioner")
    roll(short, 2)
    assert len(short.rooms()) == 3 and short.turn_player == 1 and not short.is_terminal


def test_s28_kingdom_pile_replenished_from_discards():
    """ "When the last card in the Kingdom Pile is taken, shuffle the discarded Kingdom Cards and replenish
    the Kingdom Pile." """
    state = position(2, step="draw", hands=[{}, {}], pile=["Bee"], discards=["Cook", "Jehu"])
    draw(state, "Bee")
    assert state.discard_pile() == () and sum(state.kingdom_pile().values()) > 0


# --- 2-1 quest ------------------------------------------------------------------------------------


def test_s06_quest_equal_to_the_level_succeeds():
    """ "If this new total is equal to or higher than the room's Quest Level, then the quest succeeds, and
    the player takes this room" """
    state = position(2, hands=[{"Daedalist": 1}, {}])
    act(state, "quest Unnamed room 2 with Daedalist")  # level 5: 2 + 3
    roll(state, 3)
    assert state.kingdom(0) == (("Unnamed room 2", False),) and "Unnamed room 2" not in state.rooms()


def test_s07_quest_below_the_level_fails_and_the_cards_go():
    """ "If the total is less than the room's Quest Level, then the quest failed. In either case, all
    characters and item cards are discarded." """
    state = position(2, hands=[{"Daedalist": 1, "Sword": 1, "Bee": 1}, {}])
    act(state, "quest Unnamed room 2 with Daedalist, Sword")  # 3 + 1 = 4 < 5
    roll(state, 1)
    finish_discards(state)
    assert state.kingdom(0) == () and "Unnamed room 2" in state.rooms()
    assert sorted(state.discard_pile()) == ["Daedalist", "Sword"] and state.hand(0) == {"Bee": 1}


def test_s05_quest_needs_a_character():
    """ "At least one character card must be used to perform a quest." """
    state = position(2, hands=[{"Sword": 2}, {}])
    refused(state, "quest Unnamed room 1 with Sword, Sword")
    assert not any(a.startswith("quest") for a in legal(state))


def test_s09_s11_a_sixth_land_discards_one_never_the_castle_tower():
    """ "If a player takes a sixth land into the kingdom, she must discard one of the existing lands." /
    Castle Tower: "You may not discard this land." """
    five = ["Castle of the Tyrant", "Unnamed room 5", "Unnamed room 6", "Unnamed room 7", "Unnamed room 8"]
    state = position(2, hands=[{"Executioner": 1}, {}], lands=[five, []])
    act(state, "quest Unnamed room 1 with Executioner")
    roll(state, 6)
    assert state.decision == "land limit"
    state = rebuilt(state)
    assert "discard land Castle of the Tyrant" not in legal(state)
    act(state, "discard land Unnamed room 6")
    assert state.land_count(0) == 5 and ("Castle of the Tyrant", False) in state.kingdom(0)


# --- 2-2 development ------------------------------------------------------------------------------


def test_s12_s15_development_wits_equal_level_no_die_developed_points():
    """ "To succeed, the total of the character's Wits (seals) must equal or exceed the Quest Level ... No
    dice are rolled." / "The Developed Point Total becomes this room's new Point Total." """
    state = position(2, hands=[{"Valeel": 1, "Drone": 1}, {}], lands=[["Unnamed room 7"], []])
    assert state.points(0) == 2
    act(state, "develop Unnamed room 7 with Valeel, Drone")  # 3 + 1 = 4 < 6
    assert state.kingdom(0) == (("Unnamed room 7", False),)
    other = position(2, hands=[{"Valeel": 2}, {}], lands=[["Unnamed room 7"], []])
    act(other, "develop Unnamed room 7 with Valeel, Valeel")  # 6 = 6
    assert other.kingdom(0) == (("Unnamed room 7", True),) and other.points(0) == 3


def test_s14_s57_s58_development_takes_characters_only():
    """ "The player spends any number of character cards" (Grimoire and Sword are for "Land Quests or
    Aggression actions")"""
    state = position(2, hands=[{"Valeel": 1, "Grimoire": 1, "Sword": 1}, {}], lands=[["Unnamed room 9"], []])
    refused(state, "develop Unnamed room 9 with Grimoire, Valeel")
    refused(state, "develop Unnamed room 9 with Sword, Valeel")


def test_s55_development_of_own_undeveloped_land_only():
    """ "The goal of this action is to develop one's own land." """
    state = position(2, hands=[{"Valeel": 2}, {}], lands=[[("Unnamed room 9", True)], ["Unnamed room 10"]])
    refused(state, "develop Unnamed room 9 with Valeel, Valeel")
    refused(state, "develop Unnamed room 10 with Valeel, Valeel")
    refused(state, "develop Unnamed room 3 with Valeel, Valeel")  # a face-up room is no land of hers


# --- 2-3 aggression -------------------------------------------------------------------------------


def test_s16_aggression_needs_gotcha_or_council_chamber():
    """ "a. Play a "Gotcha!" card. b. Discard the "Council Chamber" card (this land must already be in that
    player's kingdom)." """
    state = position(2, hands=[{"Executioner": 1}, {}], lands=[[], ["Unnamed room 9"]])
    assert not any(a.startswith("attack") for a in legal(state))


def test_s17_attacker_needs_a_character_defender_does_not():
    """ "The attacking player must play at least one character card in order to attack" / "the defending player
    can defend without playing a character: she simply rolls the die" """
    state = position(2, hands=[{"Gotcha!": 1, "Sword": 1, "Bee": 1}, {"Warzard": 1}], lands=[[], ["Unnamed room 9"]])
    refused(state, "attack P2 Unnamed room 9 with Sword by Gotcha!")
    act(state, "attack P2 Unnamed room 9 with Bee, Sword by Gotcha!")
    assert state.decision == "defend" and "defend" in legal(state)
    act(state, "defend")
    roll(state, 2, 4)  # 2 + 2 = 4 against 4: tie
    assert state.kingdom(1) == (("Unnamed room 9", False),) and state.hand(1) == {"Warzard": 1}


def test_s19_s20_higher_wins_tie_defends_and_developed_returns_undeveloped():
    """ "Ties go to the defender. If the attacker wins, the land changes hands ... If the land was Developed,
    then the land returns to its non-developed state" """
    state = position(2, hands=[{"Gotcha!": 1, "Executioner": 1}, {"Bee": 1}], lands=[[], [("Unnamed room 7", True)]])
    act(state, "attack P2 Unnamed room 7 with Executioner by Gotcha!", "defend with Bee")
    roll(state, 1, 4)  # 4 against 5
    finish_discards(state)
    assert state.kingdom(1) == (("Unnamed room 7", True),)
    win = position(2, hands=[{"Gotcha!": 1, "Executioner": 1}, {"Bee": 1}], lands=[[], [("Unnamed room 7", True)]])
    act(win, "attack P2 Unnamed room 7 with Executioner by Gotcha!", "defend with Bee")
    roll(win, 4, 5)  # 7 against 6
    assert win.kingdom(0) == (("Unnamed room 7", False),) and win.kingdom(1) == ()
    assert win.points(0) == 2


def test_s21_castle_tower_cannot_be_stolen():
    """ "other players may not steal this land by using "Aggression"." """
    state = position(2, hands=[{"Gotcha!": 1, "Executioner": 1}, {}], lands=[[], ["Castle of the Tyrant"]])
    refused(state, "attack P2 Castle of the Tyrant with Executioner by Gotcha!")


def test_s16b_no_aggression_against_a_landless_player():
    """ "The goal of this action is to attack another player's kingdom, and steal away their lands." """
    state = position(2, hands=[{"Gotcha!": 1, "Executioner": 1}, {}], lands=[[], []])
    assert not any(a.startswith("attack") for a in legal(state))


def test_s22_a_stolen_sixth_land_means_discarding_one():
    """ "The maximum number of owned lands a kingdom can have is five. If a player takes a sixth land into the
    kingdom, she must discard one of the existing lands." """
    five = ["Unnamed room 5", "Unnamed room 6", "Unnamed room 7", "Unnamed room 8", "Unnamed room 9"]
    state = position(2, hands=[{"Gotcha!": 1, "Executioner": 1}, {}], lands=[five, ["Unnamed room 10"]])
    act(state, "attack P2 Unnamed room 10 with Executioner by Gotcha!", "defend")
    roll(state, 6, 1)
    finish_discards(state)
    assert state.decision == "land limit" and state.current_player == 0
    act(state, "discard land Unnamed room 5")
    assert state.land_count(0) == 5 and ("Unnamed room 10", False) in state.kingdom(0)


def test_s54_the_defender_may_use_items_off_turn():
    """ "the defender can allocate as many characters and items she wants to use to defend the land" """
    state = position(
        2, hands=[{"Gotcha!": 1, "Executioner": 1}, {"Bee": 1, "Sword": 1}], lands=[[], ["Unnamed room 9"]]
    )
    act(state, "attack P2 Unnamed room 9 with Executioner by Gotcha!")
    act(state, "defend with Bee, Sword")
    roll(state, 3, 4)  # 6 against 6: the Sword made the tie
    finish_discards(state)
    assert state.kingdom(1) == (("Unnamed room 9", False),)


def test_s43_council_chamber_discarded_to_attack():
    """Council Chamber: "On your turn, you may perform an "Aggression" on another player by discarding this
    land." """
    state = position(2, hands=[{"Executioner": 1}, {}], lands=[["Nest of the Ogrekin"], ["Unnamed room 9"]])
    act(state, "attack P2 Unnamed room 9 with Executioner by Council Chamber", "defend")
    roll(state, 3, 1)
    settle(state)
    assert state.kingdom(0) == (("Unnamed room 9", False),)
    assert "Nest of the Ogrekin" not in [land for land, _ in state.kingdom(0)]


# --- the end --------------------------------------------------------------------------------------


def test_s29_ten_points_end_the_game_after_the_turn():
    """ "When one or more players meets the following conditions, the game ends after the current player's
    turn: A. The sum of all of one kingdom's lands equals ten or more." """
    state = position(
        2, hands=[{"Executioner": 1, "Bee": 3, "Cook": 3}, {}], lands=[["Unnamed room 15", "Unnamed room 16"], []]
    )
    act(state, "quest Unnamed room 4 with Executioner")
    roll(state, 5)  # 7 + 3 = 10
    assert not state.is_terminal
    assert state.decision == "hand limit"  # step 3 still happens
    act(state, "discard Bee")
    reveal(state, "Unnamed room 5")
    assert state.is_terminal and state.outcome().winners == (0,)


def test_s29b_refugee_star_counts_towards_ten():
    """Refugee: "This card adds one star towards your goal." """
    state = position(
        2, step="draw", hands=[{"Bee": 2}, {}], lands=[["Unnamed room 15", "Unnamed room 16", "Unnamed room 10"], []]
    )
    draw(state, "Refugee")
    act(state, "discard Bee", "discard Bee")
    assert state.points(0) == 3 + 4 + 1 + 1
    act(state, "resupply")
    draw(state, "Bee")
    assert not state.is_terminal


def test_s29c_ten_with_refugee_ends_the_game():
    """Refugee: "This card adds one star towards your goal." with "the sum ... equals ten or more" """
    lands = ["Unnamed room 15", "Unnamed room 16", "Unnamed room 10", "Unnamed room 9"]  # 3 + 4 + 1 + 1 = 9
    state = position(2, step="draw", hands=[{"Bee": 2}, {}], lands=[lands, []])
    draw(state, "Refugee")
    act(state, "discard Bee", "discard Bee", "resupply")
    draw(state, "Cook")
    assert state.is_terminal and state.outcome().winners == (0,)


def test_s30_the_game_ends_when_no_room_is_left_not_before():
    """ "B. There are no more Meikyu dungeon rooms left to conquer." """
    state = position(2, hands=[{"Executioner": 2}, {}], rooms=["Unnamed room 1", "Unnamed room 2"], meikyu_pile=[])
    act(state, "quest Unnamed room 1 with Executioner")
    roll(state, 6)
    assert not state.is_terminal and state.rooms() == ("Unnamed room 2",)


def test_s31_most_points_then_most_lands():
    """ "The player with the most points wins. In case of a tie, the player with the most lands in her kingdom
    wins." """
    state = position(2, hands=[{"Executioner": 1}, {}], rooms=["Unnamed room 1"], meikyu_pile=[],
                     lands=[["Unnamed room 3"], ["Unnamed room 5", "Unnamed room 6", "Unnamed room 9"]])  # fmt: skip
    act(state, "quest Unnamed room 1 with Executioner")  # P1 3 points on 2 lands; P2 3 points on 3 lands
    roll(state, 6)
    assert state.is_terminal and state.outcome().winners == (1,)


# --- OPEN cards -----------------------------------------------------------------------------------


def test_s32_refugee_costs_two_cards_any_two():
    """Refugee: "You must immediately discard any two Kingdom cards from your hand." """
    state = position(2, step="draw", hands=[{"Bee": 1, "Sword": 1, "Gotcha!": 1}, {}])
    draw(state, "Refugee")
    assert state.decision == "refugee"
    assert {"discard Bee", "discard Sword", "discard Gotcha!"} <= legal(state)
    act(state, "discard Sword", "discard Gotcha!")
    assert state.hand(0) == {"Bee": 1} and state.refugees(0) == 1


@pytest.mark.parametrize(("hand", "left"), [({"Bee": 1}, {}), ({}, {})])
def test_s32b_refugee_with_fewer_than_two_cards(hand, left):
    """Refugee: "You must immediately discard any two Kingdom cards from your hand." (as many as she has)"""
    state = position(2, step="draw", hands=[hand, {}])
    draw(state, "Refugee")
    if hand:
        assert legal(state) == {"discard Bee"}  # the only card she has
        act(state, "discard Bee")
    assert state.decision == "action" and state.hand(0) == left and state.points(0) == 1


def test_s38_s34_dungeon_storm_is_played_at_once_and_replaces_the_rooms():
    """ "You must play these immediately upon drawing them." / Dungeon Storm: "Immediately discard all of the face
    up unclaimed Lands. Draw four new Meikyu cards and lay them out in their place." """
    state = position(2, step="draw", hands=[{}, {}])
    draw(state, "Dungeon Storm")
    assert state.hand(0) == {}
    reveal(state, "Unnamed room 5", "Unnamed room 6", "Unnamed room 7", "Unnamed room 8")
    assert sorted(state.rooms()) == ["Unnamed room 5", "Unnamed room 6", "Unnamed room 7", "Unnamed room 8"]
    assert state.decision == "action"


def test_s34b_dungeon_storm_with_a_short_pile():
    """Dungeon Storm: "Draw four new Meikyu cards" — as far as the pile goes."""
    state = position(2, step="draw", hands=[{}, {}], meikyu_pile=["Unnamed room 5", "Unnamed room 6"])
    draw(state, "Dungeon Storm")
    reveal(state, "Unnamed room 5", "Unnamed room 6")
    assert len(state.rooms()) == 2 and state.decision == "action"


def test_s34c_dungeon_storm_with_an_empty_pile_leaves_no_room_and_ends_the_game():
    """Dungeon Storm + "B. There are no more Meikyu dungeon rooms left to conquer." (after the current turn)"""
    state = position(2, step="draw", hands=[{}, {}], meikyu_pile=[])
    draw(state, "Dungeon Storm")
    assert state.rooms() == ()
    settle(state, until_turns=5)
    assert state.is_terminal and state.facts()["end"] == "rooms"


def test_s34d_dungeon_storm_also_sweeps_a_map_room():
    """Dungeon Storm: "discard all of the face up unclaimed Lands. Draw four new" """
    state = position(2, hands=[{"Map": 1, "Bee": 1}, {}])
    act(state, "map")
    reveal(state, "Unnamed room 16")
    assert len(state.rooms()) == 5
    act(state, "resupply")
    draw(state, "Dungeon Storm")
    reveal(state, "Unnamed room 5", "Unnamed room 6", "Unnamed room 7", "Unnamed room 8")
    assert len(state.rooms()) == 4


def test_s35_dungeon_tsunami_three_players():
    """Dungeon Tsunami: "All players must choose one of their Claimed Lands, and pass it to the player on their
    left. The person who draws this card goes first. If someone passes a Developed land, it returns to its
    Undeveloped state. If a player has no Claimed Lands ... they do not have to pass a land." """
    state = position(3, turn=1, step="draw", hands=[{}, {}, {}],
                     lands=[[("Unnamed room 5", True)], [], ["Unnamed room 6", "Unnamed room 7"]])  # fmt: skip
    draw(state, "Dungeon Tsunami")
    assert state.current_player == 2  # P2 drew it and has no land: P3 is next
    state = rebuilt(state)
    act(state, "give Unnamed room 7")
    state = rebuilt(state)
    assert state.current_player == 0
    act(state, "give Unnamed room 5")
    assert state.kingdom(0) == (("Unnamed room 7", False),)
    assert state.kingdom(1) == (("Unnamed room 5", False),)
    assert state.kingdom(2) == (("Unnamed room 6", False),)
    assert state.turn_player == 1 and state.decision == "action"


def test_s36_s37_tomb_takes_the_top_discard_on_any_draw_but_not_storm_or_tsunami():
    """Tomb: "When you draw from the Kingdom Pile, you may choose to pick up the topmost discarded Kingdom Card
    instead." / "You may not use this card through the use of the "Tomb" land's special ability." """
    state = position(2, hands=[{}, {}], lands=[["Graveyard of the Vampire"], []], discards=["Bee", "Executioner"])
    act(state, "resupply")
    assert state.decision == "tomb"
    act(state, "tomb")
    assert state.hand(0) == {"Executioner": 1}
    blocked = position(2, hands=[{}, {}], lands=[["Graveyard of the Vampire"], []], discards=["Dungeon Tsunami"])
    act(blocked, "resupply")
    assert blocked.decision == "chance"


# --- items ----------------------------------------------------------------------------------------


def test_s39_grimoire_adds_seals_to_swords():
    """Grimoire: "Choose one Character card: its swords increase by the amount of its seals." """
    state = position(2, hands=[{"Highlord": 1, "Grimoire": 1}, {}])
    act(state, "quest Unnamed room 4 with Grimoire, Highlord")
    assert state.context()["swords"] == 1 + 3


def test_s39b_grimoire_in_defence():
    """Grimoire: "You may use this card during a Land Quest or Aggression Action." """
    state = position(2, hands=[{"Gotcha!": 1, "Bee": 1}, {"Valeel": 1, "Grimoire": 1}], lands=[[], ["Unnamed room 9"]])
    act(state, "attack P2 Unnamed room 9 with Bee by Gotcha!")
    act(state, "defend with Grimoire, Valeel")
    assert state.context()["defence"] == 3


def test_s40_amulet_the_defender_rerolls_the_attackers_die():
    """Amulet: "You may play it when anyone has just rolled a die. That person rerolls their die." """
    state = position(2, hands=[{"Gotcha!": 1, "Executioner": 1}, {"Amulet": 1}], lands=[[], ["Unnamed room 9"]])
    act(state, "attack P2 Unnamed room 9 with Executioner by Gotcha!", "defend")  # both sides commit, then dice
    roll(state, 6)  # the attacker's die: 9
    assert state.decision == "amulet" and state.current_player == 1
    state = rebuilt(state)
    act(state, "amulet")
    roll(state, 1)  # rerolled: 4
    while state.current_player != CHANCE:
        act(state, "pass" if "pass" in legal(state) else str(state.legal_actions()[0]))
    roll(state, 5)  # the defender's die: 5 > 4
    settle(state)
    assert state.kingdom(1) == (("Unnamed room 9", False),)


def test_s40b_amulet_on_ones_own_die():
    """Amulet: "when anyone has just rolled a die" — her own die too."""
    state = position(2, hands=[{"Bee": 1, "Amulet": 1}, {}])
    act(state, "quest Unnamed room 1 with Bee")
    roll(state, 1)
    assert state.decision == "amulet" and state.current_player == 0
    act(state, "amulet")
    roll(state, 3)
    settle(state)
    assert state.kingdom(0) == (("Unnamed room 1", False),)


def test_s41_sword_and_blacksmith():
    """Sword: "add +1 sword to a single character." / Blacksmith: "Whenever you use a "Sword" item card, you add
    +1 to the total swords." """
    state = position(2, hands=[{"Bee": 1, "Sword": 1}, {}])
    act(state, "quest Unnamed room 4 with Bee, Sword")
    assert state.context()["swords"] == 2
    smith = position(2, hands=[{"Bee": 1, "Sword": 1}, {}], lands=[["Workshop of the Dwarves"], []])
    act(smith, "quest Unnamed room 4 with Bee, Sword")
    assert smith.context()["swords"] == 3


def test_s26_s27_map_room_two_easier_this_turn_only():
    """Map: "Draw one extra (fifth) area ... Until the end of your turn, this single new Land's Quest Level is
    reduced by two points." """
    state = position(2, hands=[{"Map": 1, "Executioner": 1}, {}])
    act(state, "map")
    reveal(state, "Unnamed room 16")  # level 10 → 8
    act(state, "quest Unnamed room 16 with Executioner")
    roll(state, 5)
    assert state.kingdom(0) == (("Unnamed room 16", False),)
    later = position(2, hands=[{"Map": 1, "Bee": 1}, {"Executioner": 1}])
    act(later, "map")
    reveal(later, "Unnamed room 16")
    act(later, "resupply")
    settle(later)
    assert "Unnamed room 16" in later.rooms()  # five rooms: none refilled, none removed
    assert len(later.rooms()) == 5
    act(later, "quest Unnamed room 16 with Executioner")
    roll(later, 5)  # 8 < 10 now
    assert later.kingdom(1) == ()


# --- lands ----------------------------------------------------------------------------------------


def test_s42_marketplace_draws_on_development():
    """Marketplace: "When this land is developed, you immediately draw one Kingdom card into your hand." """
    state = position(2, hands=[{"Valeel": 1, "Bee": 1}, {}], lands=[["Den of the Geister"], []])
    act(state, "develop Den of the Geister with Bee, Valeel")
    assert state.decision == "chance"
    draw(state, "Sword")
    assert state.hand(0) == {"Sword": 1}


def test_s44_casino_six_draws_one():
    """Casino: "Any time that you roll a "6" on the die, you may take an additional Kingdom card" """
    state = position(2, hands=[{"Bee": 1}, {}], lands=[["Room of the Money Eater"], []])
    act(state, "quest Unnamed room 1 with Bee")
    roll(state, 6)
    assert state.decision == "casino"
    act(state, "draw")
    draw(state, "Cook")
    assert state.hand(0) == {"Cook": 1}


def test_s45_bar_developed_zero_sword_characters_get_one():
    """Bar: "When this land is developed, all characters with 0 swords receive a +1 sword." """
    state = position(2, hands=[{"Drone": 1, "Valeel": 1}, {}], lands=[[("Stage of the Airt Piper", True)], []])
    act(state, "quest Unnamed room 4 with Drone, Valeel")
    assert state.context()["swords"] == 2
    plain = position(2, hands=[{"Drone": 1, "Valeel": 1}, {}], lands=[["Stage of the Airt Piper"], []])
    act(plain, "quest Unnamed room 4 with Drone, Valeel")
    assert plain.context()["swords"] == 0


def test_s46_mixed_area_not_on_oneself():
    """Mixed Area: "On your turn you may discard this land. Select another player, and that player loses a
    turn." """
    state = position(3, hands=[{}, {}, {}], lands=[["Tunnel of the Valaraukar"], [], []])
    assert "mixed area P1" not in legal(state)
    assert {"mixed area P2", "mixed area P3"} <= legal(state)
    act(state, "mixed area P3")
    state = rebuilt(state)
    act(state, "resupply")
    settle(state)
    assert state.turn_player == 1
    settle(state)
    assert state.turn_player == 0


def test_s47_hospital_only_after_a_failed_quest():
    """Hospital: "If you fail a Quest, you may select one of the defeated characters and return it to your
    hand." """
    state = position(2, hands=[{"Bee": 1}, {}], lands=[["Altar of the Nightingale"], []])
    act(state, "quest Unnamed room 1 with Bee")
    roll(state, 6)
    assert state.decision != "hospital"
    fail = position(2, hands=[{"Bee": 1, "Sword": 1}, {}], lands=[["Altar of the Nightingale"], []])
    act(fail, "quest Unnamed room 4 with Bee, Sword")
    roll(fail, 1)
    assert fail.decision == "hospital" and legal(rebuilt(fail)) == {"return Bee", "pass"}  # a character, not the Sword


def test_s48_laboratory_item_as_character():
    """Laboratory: "You may play one item card as if it were a character with the abilities 2 swords / 0
    seals." """
    state = position(2, hands=[{"Map": 1}, {}], lands=[["Storehouse of the Demonic Steel"], []])
    act(state, "quest Unnamed room 1 with Map as character")
    assert state.context()["swords"] == 2


def test_s49_harem_developed_lowers_later_developments():
    """Harem: "When this land has been Developed, the cost to Develop any land in the future is reduced by
    one." """
    own = position(2, hands=[{"Valeel": 1, "Highlord": 1}, {}], lands=[["Mansion of the Lamia"], []])
    act(own, "develop Mansion of the Lamia with Highlord, Valeel")  # 6 = 6, no reduction for itself
    assert own.kingdom(0) == (("Mansion of the Lamia", True),)
    short = position(2, hands=[{"Valeel": 1, "Doctor": 1}, {}], lands=[["Mansion of the Lamia"], []])
    act(short, "develop Mansion of the Lamia with Doctor, Valeel")  # 5 < 6
    assert short.kingdom(0) == (("Mansion of the Lamia", False),)


def test_s50_fortress_two_characters_plus_two():
    """Fortress: "When two or more characters embark on a quest together, you may add +2 to the sum of their
    swords." """
    state = position(2, hands=[{"Bee": 1, "Drone": 1}, {}], lands=[["Dojo of the Rust Samurai"], []])
    act(state, "quest Unnamed room 4 with Bee, Drone")
    assert state.context()["swords"] == 1 + 0 + 2


def test_s51_hot_springs_only_with_an_empty_hand():
    """Hot Springs: "If you have no Kingdom Cards at the end of your turn, you may draw a Kingdom Card" """
    state = position(2, hands=[{"Executioner": 1, "Bee": 1}, {}], lands=[["Spring of the Mayonnaise King"], []])
    act(state, "quest Unnamed room 1 with Executioner")
    roll(state, 6)
    reveal(state, "Unnamed room 5")
    assert state.decision != "hot springs" and state.turn_player == 1


def test_s52_archives_on_resupply():
    """Archives: "When you draw from the Kingdom Pile, draw one additional card. Choose one Kingdom Card to keep,
    and discard the unselected card." """
    state = position(2, hands=[{}, {}], lands=[["Archives of the Dungeon Geek"], []])
    act(state, "resupply")
    draw(state, "Bee", "Executioner")
    assert state.decision == "archives"
    state = rebuilt(state)
    act(state, "keep Executioner")
    assert state.hand(0) == {"Executioner": 1} and "Bee" in state.discard_pile()


def test_s10_farm_reading_is_an_option():
    """Farm: "+1 Capacity is added to the total Capacity of all your lands (sum all lands together, then add
    +1)." """
    lands_reading = position(2, rules_options={"farm": "lands"}, hands=[{}, {}], lands=[["Forest of the Manitou"], []])
    assert lands_reading.capacity(0) == 6


# --- interactions ---------------------------------------------------------------------------------


def test_s29d_ten_points_received_by_another_player_in_a_tsunami_end_the_game():
    """ "When one or more players meets the following conditions, the game ends after the current player's turn"
    — any player's kingdom, not only the current player's."""
    state = position(2, step="draw", hands=[{}, {}],
                     lands=[["Unnamed room 16"], ["Unnamed room 15", "Unnamed room 12"]])  # fmt: skip
    assert state.points(1) == 6
    draw(state, "Dungeon Tsunami")
    act(state, "give Unnamed room 16", "give Unnamed room 12")  # P2: 3 + 4 = 7 ... P1: 3
    assert state.points(1) == 7 and state.points(0) == 3
    act(state, "resupply")
    draw(state, "Bee")
    assert not state.is_terminal
    big = position(2, step="draw", hands=[{}, {}],
                   lands=[["Unnamed room 16"], ["Unnamed room 15", "Unnamed room 12", "Unnamed room 5"]])  # fmt: skip
    draw(big, "Dungeon Tsunami")
    act(big, "give Unnamed room 16", "give Unnamed room 5")  # P2: 3 + 3 + 4 = 10
    assert big.points(1) == 10 and not big.is_terminal  # P1's turn goes on
    big = rebuilt(big)
    act(big, "resupply")
    draw(big, "Bee")
    assert big.is_terminal and big.outcome().winners == (1,)


def test_s46b_mixed_area_in_a_two_player_game_plays_twice_in_a_row():
    """Mixed Area: "Select another player, and that player loses a turn." """
    state = position(2, hands=[{}, {}], lands=[["Tunnel of the Valaraukar"], []])
    act(state, "mixed area P2", "resupply")
    settle(state)
    assert state.turn_player == 0 and state.turns == 2
    settle(state, until_turns=3)
    assert state.turn_player == 1


def test_s43b_council_chamber_attack_from_five_lands_needs_no_discard():
    """ "Discard the "Council Chamber" card" (first: the means of the attack) / "If a player takes a sixth land"
    — after the Council Chamber is discarded she has four, and the stolen land makes five."""
    five = ["Nest of the Ogrekin", "Unnamed room 5", "Unnamed room 6", "Unnamed room 7", "Unnamed room 8"]
    state = position(2, hands=[{"Executioner": 1}, {}], lands=[five, ["Unnamed room 9"]])
    act(state, "attack P2 Unnamed room 9 with Executioner by Council Chamber", "defend")
    roll(state, 6, 1)
    assert state.decision != "land limit" and state.land_count(0) == 5


def test_s10b_farm_as_capacity_a_stolen_farm_makes_room_for_itself():
    """Farm (reading farm=lands): "+1 Capacity is added to the total Capacity of all your lands" — a Farm
    stolen into a kingdom of five makes six, within the new capacity of six."""
    five = ["Unnamed room 5", "Unnamed room 6", "Unnamed room 7", "Unnamed room 8", "Unnamed room 9"]
    state = position(2, rules_options={"farm": "lands"}, hands=[{"Gotcha!": 1, "Executioner": 1}, {}],
                     lands=[five, ["Forest of the Manitou"]])  # fmt: skip
    act(state, "attack P2 Forest of the Manitou with Executioner by Gotcha!", "defend")
    roll(state, 6, 1)
    finish_discards(state)
    assert state.decision != "land limit" and state.land_count(0) == 6


def test_s10c_farm_as_capacity_discarding_the_farm_at_seven_lands():
    """Farm (reading farm=lands) + "she must discard one of the existing lands": with the Farm and five others,
    a seventh land forces a discard; discarding the Farm itself leaves six lands over a capacity of five, so
    one more must go (or the Farm is not offered)."""
    six = ["Forest of the Manitou", "Unnamed room 5", "Unnamed room 6", "Unnamed room 7", "Unnamed room 8",
           "Unnamed room 9"]  # fmt: skip
    state = position(2, rules_options={"farm": "lands"}, hands=[{"Executioner": 1}, {}], lands=[six, []])
    act(state, "quest Unnamed room 1 with Executioner")
    roll(state, 6)
    assert state.decision == "land limit"
    if "discard land Forest of the Manitou" in legal(state):
        act(state, "discard land Forest of the Manitou")
        assert state.decision == "land limit"
        act(state, "discard land Unnamed room 5")
    else:
        act(state, "discard land Unnamed room 5")
    assert state.land_count(0) <= state.capacity(0)


def test_s36b_tomb_on_a_casino_draw():
    """Tomb: "When you draw from the Kingdom Pile, you may choose to pick up the topmost discarded Kingdom Card
    instead." — the Casino's draw is a draw from the Kingdom Pile."""
    state = position(2, hands=[{"Bee": 1}, {}], lands=[["Room of the Money Eater", "Graveyard of the Vampire"], []],
                     discards=["Executioner"])  # fmt: skip
    act(state, "quest Unnamed room 4 with Bee")
    roll(state, 6)  # 7 < 8: failed; a 6
    state = rebuilt(state)
    act(state, "draw")
    assert state.decision == "tomb"
    state = rebuilt(state)
    act(state, "tomb")
    assert state.hand(0) == {"Bee": 1}  # the quest's Bee went on top of the Executioner


def test_s36c_the_tomb_does_not_take_the_unknown_open_card():
    """Only Dungeon Storm and Dungeon Tsunami print "You may not use this card through the use of the "Tomb""; the
    fourth OPEN card's text is unknown, so the engine does not let the Tomb take it either (its treatment, not the
    rulebook's: the examiner's reading that the Tomb may take it cannot be decided from the text)."""
    state = position(2, step="draw", hands=[{"Bee": 1, "Cook": 1}, {}], lands=[["Graveyard of the Vampire"], []],
                     discards=["Unknown OPEN card"])  # fmt: skip
    assert state.decision == "chance"


def test_s42b_a_stolen_marketplace_developed_again_draws_again():
    """Marketplace: "When this land is developed, you immediately draw one Kingdom card" / aggression: "the land
    returns to its non-developed state" """
    state = position(2, hands=[{"Gotcha!": 1, "Executioner": 1, "Valeel": 1}, {}],
                     lands=[[], [("Den of the Geister", True)]])  # fmt: skip
    act(state, "attack P2 Den of the Geister with Executioner by Gotcha!", "defend")
    roll(state, 6, 1)
    finish_discards(state)
    settle(state, until_turns=2)
    assert state.turn_player == 0
    assert state.hand(0)["Valeel"] == 1 and state.decision == "action"
    act(state, "develop Den of the Geister with Valeel")  # level 4: 3 seals... short
    assert state.kingdom(0) == (("Den of the Geister", False),)
    again = position(2, hands=[{"Valeel": 1, "Bee": 1}, {}], lands=[["Den of the Geister"], []])
    act(again, "develop Den of the Geister with Bee, Valeel")  # the stolen land, undeveloped: developed again
    assert again.decision == "chance" and again.kingdom(0) == (("Den of the Geister", True),)


def test_s49b_a_stolen_developed_harem_helps_nobody_until_developed_again():
    """Harem: "When this land has been Developed, the cost to Develop any land in the future is reduced by one."
    — a stolen Harem "returns to its non-developed state"."""
    state = position(2, hands=[{"Gotcha!": 1, "Executioner": 1, "Valeel": 1}, {}],
                     lands=[["Unnamed room 9"], [("Mansion of the Lamia", True)]])  # fmt: skip
    act(state, "attack P2 Mansion of the Lamia with Executioner by Gotcha!", "defend")
    roll(state, 6, 1)
    finish_discards(state)
    assert ("Mansion of the Lamia", False) in state.kingdom(0)
    settle(state, until_turns=2)
    state.apply(state.parse_action("develop Unnamed room 9 with Valeel"))  # 3 against 4: no Harem now
    assert ("Unnamed room 9", False) in state.kingdom(0)


def test_s26b_map_then_a_quest_leaves_four_rooms_and_no_refill():
    """Map: "Draw one extra (fifth) area" / step 4: "If there are three or less face-up Meikyu cards" """
    state = position(2, hands=[{"Map": 1, "Executioner": 1}, {}])
    act(state, "map")
    reveal(state, "Unnamed room 16")
    act(state, "quest Unnamed room 1 with Executioner")
    roll(state, 6)
    finish_discards(state)
    assert len(state.rooms()) == 4 and state.turn_player == 1 and state.decision == "chance"
    draw(state, "Bee")
    assert len(state.rooms()) == 4


def test_s26c_map_room_level_four_becomes_two():
    """Map: "this single new Land's Quest Level is reduced by two points." """
    state = position(2, hands=[{"Map": 1, "Drone": 1}, {}], meikyu_pile=["Unnamed room 9"])
    act(state, "map")
    reveal(state, "Unnamed room 9")
    act(state, "quest Unnamed room 9 with Drone")  # 0 swords + 2 = 2
    roll(state, 2)
    assert state.kingdom(0) == (("Unnamed room 9", False),)


def test_s21b_no_aggression_against_a_castle_tower_alone():
    """Castle Tower: "other players may not steal this land by using "Aggression"." """
    state = position(2, hands=[{"Gotcha!": 1, "Executioner": 1}, {}], lands=[[], ["Castle of the Tyrant"]])
    assert not any(a.startswith("attack") for a in legal(state))


def test_s24b_the_hand_limit_is_the_turn_players():
    """ "If a player has six or more cards in her hand by the end of her turn" — a defender who drew with her
    Casino keeps six until the end of her own turn."""
    state = position(2, hands=[{"Gotcha!": 1, "Executioner": 1}, {"Bee": 3, "Cook": 2}],
                     lands=[[], ["Room of the Money Eater"]])  # fmt: skip
    act(state, "attack P2 Room of the Money Eater with Executioner by Gotcha!", "defend")
    roll(state, 1, 6)
    finish_discards(state)
    assert state.decision == "casino" and state.current_player == 1
    state = rebuilt(state)
    act(state, "draw")
    draw(state, "Jehu")
    assert state.hand_size(1) == 6
    assert state.turn_player == 1 and state.decision == "chance"  # P2's own turn starts with its draw


def test_s51b_hot_springs_is_optional():
    """Hot Springs: "you may draw a Kingdom Card" """
    state = position(2, hands=[{"Executioner": 1}, {}], lands=[["Spring of the Mayonnaise King"], []])
    act(state, "quest Unnamed room 1 with Executioner")
    roll(state, 6)
    reveal(state, "Unnamed room 5")
    assert state.decision == "hot springs" and "pass" in legal(state)
    act(state, "pass")
    assert state.hand(0) == {} and state.turn_player == 1


def test_s52b_archives_on_the_turns_first_draw_and_marketplace():
    """Archives: "When you draw from the Kingdom Pile, draw one additional card." — every draw."""
    state = position(2, hands=[{"Valeel": 1, "Bee": 1}, {}],
                     lands=[["Archives of the Dungeon Geek", "Den of the Geister"], []])  # fmt: skip
    act(state, "develop Den of the Geister with Bee, Valeel")
    draw(state, "Sword", "Map")
    assert state.decision == "archives"
    act(state, "keep Map")
    assert state.hand(0) == {"Map": 1}


def test_s52c_archives_drawing_an_open_card_plays_it_and_keeps_the_other():
    """Archives: "Choose one Kingdom Card to keep" / OPEN cards: "You must play these immediately upon drawing
    them." """
    state = position(2, hands=[{"Bee": 1, "Cook": 1}, {}], lands=[["Archives of the Dungeon Geek"], []])
    act(state, "resupply")
    draw(state, "Dungeon Storm")  # played as it is drawn: four new rooms
    reveal(state, "Unnamed room 5", "Unnamed room 6", "Unnamed room 7", "Unnamed room 8")
    draw(state, "Sword")  # the Archives' other card: the only one left to keep
    assert state.turn_player == 1  # no choice was asked
    assert state.hand(0) == {"Bee": 1, "Cook": 1, "Sword": 1} and "Dungeon Storm" in state.discard_pile()


def test_s47b_hospital_returns_no_item():
    """Hospital: "select one of the defeated characters and return it to your hand." """
    state = position(2, hands=[{"Bee": 1, "Grimoire": 1, "Sword": 1}, {}], lands=[["Altar of the Nightingale"], []])
    act(state, "quest Unnamed room 4 with Bee, Grimoire, Sword")
    roll(state, 1)
    assert legal(state) == {"return Bee", "pass"}


def test_s35b_tsunami_never_passes_a_refugee():
    """Dungeon Tsunami: "choose one of their Claimed Lands" — a player with only a Refugee (not a land by
    default) passes nothing."""
    state = position(2, step="draw", hands=[{}, {}], lands=[[], ["Unnamed room 5"]], refugees=[1, 0])
    draw(state, "Dungeon Tsunami")
    assert state.current_player == 1 and legal(state) == {"give Unnamed room 5"}
    act(state, "give Unnamed room 5")
    assert state.kingdom(0) == (("Unnamed room 5", False),) and state.refugees(0) == 1


def test_s20b_a_beaten_defender_keeps_her_other_lands():
    """ "If the attacker wins, the land changes hands" — the one land at stake only."""
    state = position(2, hands=[{"Gotcha!": 1, "Executioner": 1}, {}],
                     lands=[[], ["Unnamed room 5", ("Unnamed room 6", True)]])  # fmt: skip
    act(state, "attack P2 Unnamed room 5 with Executioner by Gotcha!", "defend")
    roll(state, 6, 1)
    assert state.kingdom(1) == (("Unnamed room 6", True),) and state.kingdom(0) == (("Unnamed room 5", False),)


def test_s45b_bar_developed_in_the_owners_defence():
    """Bar: "all characters with 0 swords receive a +1 sword" — in a defence too ("the sword total of their cards
    and effects")."""
    state = position(2, hands=[{"Gotcha!": 1, "Bee": 1}, {"Valeel": 1}],
                     lands=[[], ["Unnamed room 5", ("Stage of the Airt Piper", True)]])  # fmt: skip
    act(state, "attack P2 Unnamed room 5 with Bee by Gotcha!", "defend with Valeel")
    assert state.context()["defence"] == 1


def test_s30b_the_game_ends_when_the_last_room_is_taken_even_below_ten():
    """ "B. There are no more Meikyu dungeon rooms left to conquer." / "The player with the most points wins." """
    state = position(3, hands=[{"Executioner": 1}, {}, {}], rooms=["Unnamed room 1"], meikyu_pile=[],
                     lands=[[], ["Unnamed room 3"], ["Unnamed room 7", "Unnamed room 5"]])  # fmt: skip
    act(state, "quest Unnamed room 1 with Executioner")
    roll(state, 1)  # 4 = 4
    assert state.is_terminal
    assert state.outcome().winners == (2,)  # P3: 3 points; P2 2; P1 1


def test_s35c_a_tsunami_drawn_by_the_defender_starts_with_the_defender():
    """Dungeon Tsunami: "The person who draws this card goes first." — a defender's Casino draw."""
    lands = [["Unnamed room 5"], ["Room of the Money Eater", "Unnamed room 6"], ["Unnamed room 7"]]
    state = position(3, hands=[{"Gotcha!": 1, "Bee": 1}, {}, {}], lands=lands)
    act(state, "attack P2 Unnamed room 6 with Bee by Gotcha!", "defend")
    roll(state, 1, 6)  # 2 against 6: the defender holds, with a 6 and the Casino
    finish_discards(state)
    assert state.decision == "casino" and state.current_player == 1
    act(state, "draw")
    draw(state, "Dungeon Tsunami")
    assert state.decision == "tsunami" and state.current_player == 1
    state = rebuilt(state)
    act(state, "give Unnamed room 6")
    state = rebuilt(state)
    assert state.current_player == 2
    act(state, "give Unnamed room 7")
    assert state.current_player == 0
    act(state, "give Unnamed room 5")
    assert [land for land, _ in state.kingdom(1)] == ["Room of the Money Eater", "Unnamed room 5"]
    assert state.kingdom(2) == (("Unnamed room 6", False),) and state.kingdom(0) == (("Unnamed room 7", False),)


@pytest.mark.parametrize("refugee", ["apart", "land"])
def test_s33_a_refugee_is_never_passed_by_a_tsunami_under_either_reading(refugee):
    """Refugee: "place this card next to your other claimed Lands" / Dungeon Tsunami: "choose one of their Claimed
    Lands, and pass it" — under refugee=land the Refugee counts as a land for the limit and the tie-break only
    (docs: "The Refugee: a land or not?"); a Tsunami passes Meikyu lands."""
    state = position(2, rules_options={"refugee": refugee}, step="draw", hands=[{}, {}],
                     lands=[["Unnamed room 5"], ["Unnamed room 6"]], refugees=[1, 0])  # fmt: skip
    assert state.land_count(0) == (2 if refugee == "land" else 1)
    draw(state, "Dungeon Tsunami")
    assert legal(state) == {"give Unnamed room 5"}
    act(state, "give Unnamed room 5", "give Unnamed room 6")
    assert state.refugees(0) == 1 and state.kingdom(0) == (("Unnamed room 6", False),)


@pytest.mark.parametrize("mixed_area", ["before", "any"])
def test_s46c_a_mixed_area_stolen_in_the_action_used_the_same_turn(mixed_area):
    """Mixed Area: "On your turn you may discard this land. Select another player, and that player loses a turn."
    (before: a free play before the action only, so a Mixed Area taken by the action waits for the next turn;
    any: also once after the action, before step 3.)"""
    state = position(3, rules_options={"mixed_area": mixed_area}, hands=[{"Gotcha!": 1, "Executioner": 1}, {}, {}],
                     lands=[[], ["Tunnel of the Valaraukar"], []])  # fmt: skip
    act(state, "attack P2 Tunnel of the Valaraukar with Executioner by Gotcha!", "defend")
    roll(state, 6, 1)
    finish_discards(state)
    assert state.kingdom(0) == (("Tunnel of the Valaraukar", False),)
    if mixed_area == "before":
        assert state.turn_player == 1 and state.decision == "chance"  # P2's turn: the window has passed
        return
    assert state.decision == "mixed area" and state.current_player == 0
    assert legal(state) == {"mixed area P2", "mixed area P3", "pass"}
    refused(state, "mixed area P1")
    state = rebuilt(state)
    act(state, "mixed area P2")
    assert state.kingdom(0) == () and "Tunnel of the Valaraukar" in state.meikyu_discards()
    assert state.turn_player == 2 and state.turns == 2  # P2's turn was lost at once: P3 draws


def test_s46d_under_mixed_area_any_the_window_after_the_action_is_asked_once_and_may_pass():
    """Mixed Area: "On your turn you may discard this land." — a choice ("may"), asked once after the action."""
    state = position(2, rules_options={"mixed_area": "any"}, hands=[{"Bee": 1}, {}],
                     lands=[["Tunnel of the Valaraukar"], []])  # fmt: skip
    assert "mixed area P2" in legal(state)  # before the action as ever
    act(state, "resupply")
    draw(state, "Cook")
    assert state.decision == "mixed area"
    act(state, "pass")
    assert state.turn_player == 1 and state.kingdom(0) == (("Tunnel of the Valaraukar", False),)
    used = position(2, rules_options={"mixed_area": "any"}, hands=[{"Bee": 1}, {}],
                    lands=[["Tunnel of the Valaraukar"], []])  # fmt: skip
    act(used, "mixed area P2", "resupply")
    draw(used, "Cook")
    assert used.decision != "mixed area" and used.turn_player == 0  # no Mixed Area left: P2's turn lost
