"""One scenario per rule of the Meikyu rulebook and per named card effect.

Positions come from :meth:`MeikyuState.position`; dice and draws are given explicitly
(``roll 4``, ``draw Bee``), so every scenario is exact. Values are the default profile's:
Unnamed rooms 1–4 are plain lands of level 4, 5, 6 and 8 (1, 1, 2, 3 points).
"""

from __future__ import annotations

import pytest

from cardbase.games.base import CHANCE, TERMINAL, IllegalAction
from cardbase.games.meikyu.engine import Attack, DrawCard, MeikyuState, Quest, Reveal, Roll
from tests.meikyu.helpers import ROOMS4, act, default_pool, draw, position, reveal, roll, rules, settle


def refused(state: MeikyuState, text: str, rule: str, words: str = "") -> IllegalAction:
    with pytest.raises(IllegalAction) as error:
        state.apply(state.parse_action(text))
    assert error.value.rule == rule, str(error.value)
    assert words in str(error.value)
    return error.value


# --- components and setting up -------------------------------------------------------


def test_components_32_meikyu_and_68_kingdom_cards():
    pool = default_pool()
    assert pool.land_count == 32 and pool.kingdom_count == 68
    assert {t: pool.count(t) for t in ("character", "item", "aggression", "open")} == {
        "character": 42,
        "item": 18,
        "aggression": 4,
        "open": 4,
    }


def test_setup_four_rooms_face_up_and_four_cards_each():
    state = rules(3).new_initial_state(11)
    while state.current_player == CHANCE and state.decision == "chance" and len(state.rooms()) < 4:
        state.apply(state.sample_chance())
    assert len(state.rooms()) == 4 and state.meikyu_pile_size() == 28
    state.resolve_chance()  # the deal, the first-player rolls, then the first player's draw
    first = state.turn_player
    assert [state.hand_size(s) for s in range(3)] == [5 if s == first else 4 for s in range(3)]
    assert sum(state.kingdom_pile().values()) == 68 - 13
    assert state.decision == "action"


def test_a_player_dealt_an_open_card_returns_the_hand_and_draws_four_anew():
    state = rules(2).new_initial_state(0)
    reveal(state, *ROOMS4)
    draw(state, "Bee", "Refugee", "Cook", "Jehu")  # P1
    draw(state, "Bee", "Cook", "Jehu", "Drone")  # P2
    # P1's four cards went back to the pile, and P1 draws four new ones
    assert state.hand_size(0) == 0 and state.hand_size(1) == 4
    assert state.kingdom_pile()["Refugee"] == 1
    draw(state, "Warzard", "Sword", "Map", "Dungeon Storm")  # an OPEN card again: once more
    assert state.hand_size(0) == 0
    draw(state, "Warzard", "Sword", "Map", "Valeel")
    assert state.hand(0) == {"Map": 1, "Sword": 1, "Valeel": 1, "Warzard": 1}
    assert state.decision == "chance"  # now the first-player roll


def test_the_highest_roll_goes_first_and_ties_reroll():
    state = rules(3).new_initial_state(0)
    reveal(state, *ROOMS4)
    for _ in range(3):
        draw(state, "Bee", "Cook", "Jehu", "Drone")
    roll(state, 5, 2, 5)  # P1 and P3 tie for the highest: only they reroll
    roll(state, 3, 4)
    assert state.turn_player == 2  # P3
    draw(state, "Warzard")
    assert state.current_player == 2 and state.decision == "action"


def test_play_goes_clockwise():
    state = position(3, turn=1, hands=[{}, {}, {}])
    order = []
    for _ in range(4):
        order.append(state.turn_player)
        act(state, "resupply")
        settle(state)
    assert order == [1, 2, 0, 1]


# --- the turn ------------------------------------------------------------------------


def test_step_1_draws_a_kingdom_card():
    state = position(2, step="draw", hands=[{"Bee": 1}, {}])
    assert state.decision == "chance"
    draw(state, "Cook")
    assert state.hand(0) == {"Bee": 1, "Cook": 1} and state.decision == "action"


def test_an_open_card_drawn_is_played_at_once():
    state = position(2, step="draw", hands=[{"Bee": 1}, {}])
    draw(state, "Dungeon Storm")
    assert state.hand(0) == {"Bee": 1}  # not kept in hand
    assert state.decision == "chance"  # four new rooms are turned up
    reveal(state, "Unnamed room 5", "Unnamed room 6", "Unnamed room 7", "Unnamed room 8")
    assert state.discard_pile() == ("Dungeon Storm",) and state.decision == "action"


def test_only_one_action_per_turn():
    state = position(2, hands=[{"Bee": 2}, {}])
    act(state, "resupply")
    draw(state, "Cook")
    # no second action: steps 3 and 4 have nothing to do, and P2's turn starts with its draw
    assert state.turn_player == 1 and state.decision == "chance" and state.turns == 1


def test_used_cards_are_discarded_whatever_the_result_and_the_player_orders_them():
    state = position(2, hands=[{"Bee": 1, "Sword": 1, "Cook": 1}, {}])
    act(state, "quest Unnamed room 4 with Bee, Cook, Sword")  # 3 swords against level 8
    roll(state, 1)
    assert state.kingdom(0) == ()  # failed
    assert state.decision == "discard order" and state.current_player == 0
    act(state, "discard Sword", "discard Bee")
    assert state.discard_pile() == ("Sword", "Bee", "Cook")  # Cook is on top
    assert state.hand(0) == {}


def test_step_3_discards_down_to_five():
    hand = {"Bee": 2, "Cook": 2, "Jehu": 2, "Drone": 1}
    state = position(2, hands=[hand, {}])
    act(state, "resupply")
    draw(state, "Master")  # 8 cards
    for _ in range(3):
        assert state.decision == "hand limit"
        act(state, "discard Drone" if state.hand(0).get("Drone") else "discard Bee")
    assert state.hand_size(0) == 5
    refused_state = position(2, hands=[hand, {}])
    act(refused_state, "resupply")
    draw(refused_state, "Master")
    refused(refused_state, "discard Warzard", "hold-cards", "you do not hold Warzard")


def test_step_4_refills_the_rooms_to_four():
    state = position(2, hands=[{"Executioner": 2}, {}])
    act(state, "quest Unnamed room 1 with Executioner")
    roll(state, 6)
    assert len(state.rooms()) == 3 and state.decision == "chance"
    reveal(state, "Cave of the Dragon")
    assert state.rooms() == ("Unnamed room 2", "Unnamed room 3", "Unnamed room 4", "Cave of the Dragon")


def test_the_kingdom_pile_is_replenished_from_the_discards_when_it_runs_out():
    state = position(2, step="draw", hands=[{}, {}], pile=["Bee"], discards=["Cook"])
    # everything not placed went to the discard pile; the last card drawn from the pile refills it
    draw(state, "Bee")
    assert sum(state.kingdom_pile().values()) == 67 and state.discard_pile() == ()


# --- 2-1 quest -----------------------------------------------------------------------


def test_a_quest_needs_a_character():
    state = position(2, hands=[{"Sword": 2, "Bee": 1}, {}])
    refused(state, "quest Unnamed room 1 with Sword", "needs-character", "at least one character")


def test_a_quest_succeeds_when_swords_plus_die_reach_the_level():
    state = position(2, hands=[{"Bee": 1, "Sword": 1}, {}])
    act(state, "quest Unnamed room 1 with Bee, Sword")  # 2 swords, level 4
    roll(state, 2)  # 2 + 2 = 4: equal is enough
    assert state.kingdom(0) == (("Unnamed room 1", False),)
    assert state.points(0) == 1


def test_a_quest_fails_below_the_level():
    state = position(2, hands=[{"Bee": 1, "Sword": 1}, {}])
    act(state, "quest Unnamed room 1 with Bee, Sword")
    roll(state, 1)
    assert state.kingdom(0) == () and "Unnamed room 1" in state.rooms()


def test_a_quest_targets_a_face_up_room():
    state = position(2, hands=[{"Bee": 1}, {}])
    refused(state, "quest Cave of the Dragon with Bee", "quest-face-up", "not a face-up room")
    refused(state, "quest Unnamed room 1 with Bee, Bee", "hold-cards", "you hold 1")


def test_a_sixth_land_means_discarding_one_of_the_existing_ones():
    lands = ["Unnamed room 5", "Unnamed room 6", "Unnamed room 7", "Unnamed room 8", "Castle of the Tyrant"]
    state = position(2, hands=[{"Executioner": 2}, {}], lands=[lands, []])
    act(state, "quest Unnamed room 1 with Executioner")
    roll(state, 6)
    assert state.decision == "land limit" and len(state.kingdom(0)) == 6
    options = {str(a) for a in state.legal_actions()}
    assert "discard land Unnamed room 1" not in options  # not the land just taken
    assert "discard land Castle of the Tyrant" not in options  # "You may not discard this land"
    refused(state, "discard land Castle of the Tyrant", "choose-among", "not among the choices")
    act(state, "discard land Unnamed room 5")
    assert len(state.kingdom(0)) == 5 and "Unnamed room 5" in state.meikyu_discards()


# --- 2-2 development ------------------------------------------------------------------


def test_development_needs_wits_reaching_the_level_and_no_die():
    state = position(2, hands=[{"Valeel": 1, "Bee": 1}, {}], lands=[["Unnamed room 9"], []])
    act(state, "develop Unnamed room 9 with Bee, Valeel")  # 4 seals, level 4
    # no die: developed at once, and the next decision is the order of the used cards, not a roll
    assert state.kingdom(0) == (("Unnamed room 9", True),) and state.context()["success"] is True
    assert state.decision == "discard order" and not any(isinstance(a, Roll) for a in state.history)
    assert state.points(0) == 2  # the developed points replace the points


def test_a_development_short_of_the_level_fails_and_spends_the_cards():
    state = position(2, hands=[{"Valeel": 1}, {}], lands=[["Unnamed room 9"], []])
    act(state, "develop Unnamed room 9 with Valeel")  # 3 < 4
    assert state.kingdom(0) == (("Unnamed room 9", False),)
    assert state.hand(0) == {} and "Valeel" in state.discard_pile()


def test_development_spends_characters_of_ones_own_undeveloped_land():
    state = position(2, hands=[{"Valeel": 2, "Sword": 1}, {}], lands=[[("Unnamed room 9", True)], ["Unnamed room 10"]])
    refused(state, "develop Unnamed room 9 with Valeel, Valeel", "develop-once", "already developed")
    refused(state, "develop Unnamed room 10 with Valeel, Valeel", "develop-own", "your own lands")


def test_development_spends_character_cards_only():
    state = position(2, hands=[{"Valeel": 2, "Sword": 1}, {}], lands=[["Unnamed room 9"], []])
    refused(state, "develop Unnamed room 9 with Sword, Valeel", "develop-characters", "character cards only")


# --- 2-3 aggression ------------------------------------------------------------------


def test_aggression_needs_gotcha_or_the_council_chamber():
    state = position(2, hands=[{"Warzard": 1}, {}], lands=[[], ["Unnamed room 9"]])
    refused(state, "attack P2 Unnamed room 9 with Warzard by Gotcha!", "hold-cards", "no Gotcha!")
    refused(state, "attack P2 Unnamed room 9 with Warzard by Council Chamber", "aggression-means")


def test_the_attacker_must_use_a_character():
    state = position(2, hands=[{"Gotcha!": 1, "Sword": 1}, {}], lands=[[], ["Unnamed room 9"]])
    refused(state, "attack P2 Unnamed room 9 with Sword by Gotcha!", "needs-character", "at least one character")


def test_aggression_strictly_higher_wins_and_the_land_changes_hands_undeveloped():
    state = position(2, hands=[{"Gotcha!": 1, "Warzard": 1}, {"Bee": 1}], lands=[[], [("Unnamed room 11", True)]])
    act(state, "attack P2 Unnamed room 11 with Warzard by Gotcha!")
    assert state.decision == "defend" and state.current_player == 1
    act(state, "defend with Bee")
    roll(state, 3, 3)  # 2 + 3 = 5 against 1 + 3 = 4
    assert state.kingdom(0) == (("Unnamed room 11", False),)  # developed land returns undeveloped
    assert state.kingdom(1) == ()
    assert state.points(0) == 2


def test_a_tie_goes_to_the_defender():
    state = position(2, hands=[{"Gotcha!": 1, "Warzard": 1}, {"Bee": 1}], lands=[[], ["Unnamed room 11"]])
    act(state, "attack P2 Unnamed room 11 with Warzard by Gotcha!", "defend with Bee")
    roll(state, 2, 3)  # 4 against 4
    assert state.kingdom(1) == (("Unnamed room 11", False),) and state.kingdom(0) == ()
    assert state.context()["success"] is False


def test_the_defender_may_defend_with_the_die_alone_and_all_cards_are_discarded():
    state = position(2, hands=[{"Gotcha!": 1, "Bee": 1}, {"Warzard": 1}], lands=[[], ["Unnamed room 11"]])
    act(state, "attack P2 Unnamed room 11 with Bee by Gotcha!", "defend")
    roll(state, 1, 6)
    assert state.hand(1) == {"Warzard": 1}  # kept: the die alone defended
    settle(state)
    assert sorted(state.discard_pile()) == ["Bee", "Gotcha!"]


def test_items_need_a_character_in_defence_too():
    state = position(2, hands=[{"Gotcha!": 1, "Bee": 1}, {"Sword": 1}], lands=[[], ["Unnamed room 11"]])
    act(state, "attack P2 Unnamed room 11 with Bee by Gotcha!")
    refused(state, "defend with Sword", "needs-character", "items need a character")


def test_the_castle_tower_cannot_be_stolen():
    state = position(2, hands=[{"Gotcha!": 1, "Bee": 1}, {}], lands=[[], ["Castle of the Tyrant"]])
    refused(state, "attack P2 Castle of the Tyrant with Bee by Gotcha!", "castle-tower", "may not be stolen")
    assert not any(isinstance(a, Attack) for a in state.legal_actions())


def test_defender_chooses_the_land_under_that_reading():
    state = position(
        2,
        rules_options={"aggression_target": "defender"},
        hands=[{"Gotcha!": 1, "Executioner": 1}, {}],
        lands=[[], ["Unnamed room 9", "Unnamed room 12"]],
    )
    refused(state, "attack P2 Unnamed room 9 with Executioner by Gotcha!", "attack-land", "defender chooses")
    act(state, "attack P2 with Executioner by Gotcha!", "defend")
    roll(state, 5, 1)
    assert state.decision == "give land" and state.current_player == 1
    act(state, "give Unnamed room 9")
    assert state.kingdom(0) == (("Unnamed room 9", False),)


# --- 2-4 resupply ---------------------------------------------------------------------


def test_resupply_draws_one_more_card():
    state = position(2, hands=[{"Bee": 1}, {}])
    act(state, "resupply")
    draw(state, "Cook")
    assert state.hand(0) == {"Bee": 1, "Cook": 1}


# --- the end ---------------------------------------------------------------------------


def test_the_game_ends_after_the_turn_in_which_a_kingdom_reaches_ten():
    lands = ["Unnamed room 15", "Unnamed room 16", "Cave of the Dragon"]  # 3 + 4 + 4 = 11 after... 3 + 4 = 7 now
    state = position(2, hands=[{"Executioner": 2, "Warzard": 1, "Bee": 3}, {}], lands=[lands[:2], []])
    assert state.points(0) == 7
    act(state, "quest Unnamed room 4 with Executioner")  # level 8: +3 points → 10
    roll(state, 5)
    assert state.points(0) == 10 and not state.is_terminal  # the rest of the turn still happens
    reveal(state, "Unnamed room 5")
    assert state.is_terminal and state.current_player == TERMINAL
    outcome = state.outcome()
    assert outcome.winners == (0,) and outcome.scores == (10.0, 0.0)
    assert "reached 10 points" in outcome.reason and state.legal_actions() == ()
    with pytest.raises(IllegalAction):
        state.apply(Roll(3))


def test_the_game_ends_when_no_rooms_are_left():
    state = position(2, hands=[{"Executioner": 2}, {}], rooms=["Unnamed room 1"], meikyu_pile=[])
    act(state, "quest Unnamed room 1 with Executioner")
    roll(state, 6)
    assert state.is_terminal
    assert state.outcome().reason.startswith("no Meikyu rooms")
    assert state.facts()["end"] == "rooms"


def test_most_points_wins_ties_go_to_most_lands_then_shared():
    state = position(
        2, hands=[{"Bee": 1}, {}], rooms=["Unnamed room 13"], meikyu_pile=[],
        lands=[["Unnamed room 3"], ["Unnamed room 1", "Unnamed room 2"]],
    )  # fmt: skip
    act(state, "quest Unnamed room 13 with Bee")  # P1: 2 + 1 = 3 points; P2: 2 points on two lands
    roll(state, 6)
    assert state.outcome().winners == (0,)
    tie = position(
        2, hands=[{"Bee": 1}, {}], rooms=["Unnamed room 13"], meikyu_pile=[],
        lands=[["Unnamed room 3"], ["Unnamed room 1", "Unnamed room 2", "Unnamed room 5"]],
    )  # fmt: skip
    act(tie, "quest Unnamed room 13 with Bee")
    roll(tie, 6)  # 3 points each: P1 2 lands, P2 3 lands
    out = tie.outcome()
    assert out.winners == (1,) and "most lands" in out.reason
    shared = position(
        2, hands=[{"Bee": 1}, {}], rooms=["Unnamed room 13"], meikyu_pile=[],
        lands=[["Unnamed room 5", "Unnamed room 1"], ["Unnamed room 2", "Unnamed room 6", "Unnamed room 9"]],
    )  # fmt: skip
    act(shared, "quest Unnamed room 13 with Bee")
    roll(shared, 6)
    assert shared.outcome().winners == (0, 1) and "shared" in shared.outcome().reason


# --- the lands --------------------------------------------------------------------------


def test_marketplace_draws_a_card_when_developed():
    state = position(2, hands=[{"Valeel": 1, "Doctor": 1}, {}], lands=[["Den of the Geister"], []])
    act(state, "develop Den of the Geister with Doctor, Valeel")
    assert state.decision == "chance"
    draw(state, "Sword")
    assert state.hand(0) == {"Sword": 1}


def test_council_chamber_is_discarded_to_attack():
    state = position(2, hands=[{"Warzard": 1}, {}], lands=[["Nest of the Ogrekin"], ["Unnamed room 9"]])
    act(state, "attack P2 Unnamed room 9 with Warzard by Council Chamber")
    assert state.kingdom(0) == () and "Nest of the Ogrekin" in state.meikyu_discards()
    act(state, "defend")
    roll(state, 6, 1)
    assert state.kingdom(0) == (("Unnamed room 9", False),)


def test_casino_draws_on_a_six():
    state = position(2, hands=[{"Bee": 1}, {}], lands=[["Room of the Money Eater"], []])
    act(state, "quest Unnamed room 4 with Bee")
    roll(state, 6)  # 1 + 6 = 7 < 8: failed, but a 6
    assert state.decision == "casino"
    act(state, "draw")
    draw(state, "Cook")
    assert state.hand(0) == {"Cook": 1}
    other = position(2, hands=[{"Bee": 1}, {}], lands=[["Room of the Money Eater"], []])
    act(other, "quest Unnamed room 4 with Bee")
    roll(other, 5)
    assert other.decision != "casino"


@pytest.mark.parametrize("casino", ["final", "every"])
def test_the_casino_counts_a_six_rolled_while_owning_it(casino):
    """Room of the Money Eater — Casino: Any time that you roll a "6" on the die, you may take an additional
    Kingdom card. A land's effect is its owner's ("the land's effect when owned"): the 6 of the quest that takes
    the Casino, or of the aggression that steals it, was rolled before it was owned; a defender who rolled a 6
    while owning it keeps the draw though the aggression takes the Casino away."""
    options = {"casino": casino}
    casino_room = ["Room of the Money Eater", "Unnamed room 2", "Unnamed room 3", "Unnamed room 4"]
    quest = position(2, rules_options=options, hands=[{"Executioner": 1}, {}], rooms=casino_room)
    act(quest, "quest Room of the Money Eater with Executioner")
    roll(quest, 6)  # 3 + 6 >= 4: the Casino is taken with this 6
    assert quest.kingdom(0) == (("Room of the Money Eater", False),)
    assert quest.decision == "chance" and quest.turn_player == 0  # step 4's room, no Casino draw
    reveal(quest, "Unnamed room 5")
    assert quest.turn_player == 1 and quest.hand(0) == {}

    steal = position(2, rules_options=options, hands=[{"Executioner": 1, "Gotcha!": 1}, {}],
                     lands=[[], ["Room of the Money Eater"]])  # fmt: skip
    act(steal, "attack P2 Room of the Money Eater with Executioner by Gotcha!", "defend")
    roll(steal, 6, 1)  # 9 against 1: the Casino changes hands with this 6
    act(steal, "discard Executioner")  # the order of the used cards
    assert steal.kingdom(0) == (("Room of the Money Eater", False),)
    assert steal.decision == "chance" and steal.turn_player == 1  # P2's step 1: no Casino draw for P1

    lose = position(2, rules_options=options, hands=[{"Executioner": 2, "Sword": 3, "Gotcha!": 1}, {}],
                    lands=[[], ["Room of the Money Eater"]])  # fmt: skip
    act(lose, "attack P2 Room of the Money Eater with Executioner, Executioner, Sword, Sword, Sword by Gotcha!")
    act(lose, "defend")
    roll(lose, 6, 6)  # 15 against 6: P1 takes the Casino; both rolled a 6, only P2 owned it then
    while lose.decision == "discard order":
        act(lose, str(lose.legal_actions()[0]))
    assert lose.kingdom(0) == (("Room of the Money Eater", False),) and lose.kingdom(1) == ()
    assert lose.decision == "casino" and lose.current_player == 1
    act(lose, "draw")
    draw(lose, "Cook")
    assert lose.hand(1) == {"Cook": 1} and lose.decision != "casino"


def test_a_copy_does_not_change_the_sixes_counted_by_the_state_it_was_copied_from():
    state = position(
        2, rules_options={"casino": "every"}, hands=[{"Bee": 1}, {"Amulet": 1}], lands=[["Room of the Money Eater"], []]
    )
    act(state, "quest Unnamed room 4 with Bee")
    roll(state, 6)
    copy = state.clone()
    act(copy, "amulet")
    roll(copy, 6)
    assert copy.context()["sixes"] == (0, 0) and state.context()["sixes"] == (0,)


def test_blacksmith_adds_one_per_sword():
    state = position(2, hands=[{"Bee": 1, "Sword": 2}, {}], lands=[["Workshop of the Dwarves"], []])
    act(state, "quest Unnamed room 4 with Bee, Sword, Sword")
    assert state.context()["swords"] == 1 + 2 * 2


def test_bar_developed_gives_zero_sword_characters_one():
    for developed, swords in ((False, 0), (True, 2)):
        state = position(
            2, hands=[{"Valeel": 1, "Merchant": 1}, {}], lands=[[("Stage of the Airt Piper", developed)], []]
        )
        act(state, "quest Unnamed room 4 with Merchant, Valeel")
        assert state.context()["swords"] == swords


@pytest.mark.parametrize(("bar", "swords"), [("owner", 0), ("everyone", 2)])
def test_another_players_developed_bar(bar, swords):
    """Stage of the Airt Piper — Bar: When this land is developed, all characters with 0 swords receive a +1
    sword. (Its owner's characters; or, under bar="everyone", every player's: P1 quests with two 0-sword
    characters while P2 holds the Bar, developed; P2 defends with one against P1's Bar.)"""
    stage = [("Stage of the Airt Piper", True)]
    quest = position(2, rules_options={"bar": bar}, hands=[{"Valeel": 1, "Merchant": 1}, {}], lands=[[], stage])
    act(quest, "quest Unnamed room 4 with Merchant, Valeel")
    assert quest.context()["swords"] == swords
    own = position(2, rules_options={"bar": bar}, hands=[{"Valeel": 1, "Merchant": 1}, {}], lands=[stage, []])
    act(own, "quest Unnamed room 4 with Merchant, Valeel")
    assert own.context()["swords"] == 2  # the owner's: always
    defence = position(2, rules_options={"bar": bar}, hands=[{"Bee": 1, "Gotcha!": 1}, {"Valeel": 1}],
                       lands=[stage, ["Unnamed room 9"]])  # fmt: skip
    act(defence, "attack P2 Unnamed room 9 with Bee by Gotcha!", "defend with Valeel")
    assert defence.context()["defence"] == swords // 2


@pytest.mark.parametrize(("harem", "developed"), [("owner", False), ("everyone", True)])
def test_another_players_developed_harem(harem, developed):
    """Mansion of the Lamia — Harem: When this land has been Developed, the cost to Develop any land in the
    future is reduced by one. (For its owner; or, under harem="everyone", for every player's developments.)"""
    state = position(2, rules_options={"harem": harem}, hands=[{"Valeel": 1}, {}],
                     lands=[["Unnamed room 9"], [("Mansion of the Lamia", True)]])  # fmt: skip
    act(state, "develop Unnamed room 9 with Valeel")  # 3 seals against level 4 (3 with the Harem)
    assert state.kingdom(0) == (("Unnamed room 9", developed),)
    own = position(2, rules_options={"harem": harem}, hands=[{"Valeel": 1}, {}],
                   lands=[["Unnamed room 9", ("Mansion of the Lamia", True)], []])  # fmt: skip
    act(own, "develop Unnamed room 9 with Valeel")
    assert ("Unnamed room 9", True) in own.kingdom(0)  # the owner's: always


def test_mixed_area_makes_a_player_lose_a_turn():
    state = position(3, hands=[{"Bee": 1}, {}, {}], lands=[["Tunnel of the Valaraukar"], [], []])
    act(state, "mixed area P2")
    assert "Tunnel of the Valaraukar" in state.meikyu_discards() and state.skips(1) == 1
    assert state.decision == "action"  # it was not the turn's action
    act(state, "resupply")
    settle(state)
    assert state.turn_player == 2  # P2 lost the turn
    assert state.skips(1) == 0


def test_a_lost_turn_is_lost_whole_its_hand_limit_and_hot_springs_too():
    """Tunnel of the Valaraukar — Mixed Area: … that player loses a turn. The turn is lost: no draw, no
    action, and at its end no discarding down to five (step 3) and no Hot Springs draw (step 4 still refills the
    rooms, as at the end of every turn)."""
    crowded = position(3, hands=[{"Bee": 1}, {"Cook": 3, "Jehu": 3, "Drone": 1}, {}],
                       lands=[["Tunnel of the Valaraukar"], [], []])  # fmt: skip
    act(crowded, "mixed area P2", "resupply")
    draw(crowded, "Master")
    assert crowded.turn_player == 2 and crowded.decision == "chance"  # P3's draw: P2 was not asked to discard
    assert crowded.hand_size(1) == 7 and crowded.turns == 2
    empty = position(3, hands=[{"Bee": 1}, {}, {}],
                     lands=[["Tunnel of the Valaraukar"], ["Spring of the Mayonnaise King"], []])  # fmt: skip
    act(empty, "mixed area P2", "resupply")
    draw(empty, "Master")
    assert empty.decision != "hot springs" and empty.turn_player == 2 and empty.hand_size(1) == 0


def test_hospital_returns_a_character_after_a_failed_quest():
    state = position(2, hands=[{"Bee": 1, "Cook": 1}, {}], lands=[["Altar of the Nightingale"], []])
    act(state, "quest Unnamed room 4 with Bee, Cook")
    roll(state, 1)
    assert state.decision == "hospital"
    assert {str(a) for a in state.legal_actions()} == {"return Bee", "return Cook", "pass"}
    act(state, "return Cook")
    assert state.hand(0) == {"Cook": 1} and state.discard_pile() == ("Bee",)


@pytest.mark.parametrize(("farm", "capacity", "points"), [("lands", 6, 1), ("points", 5, 2)])
def test_farm_capacity_reading(farm, capacity, points):
    state = position(2, rules_options={"farm": farm}, hands=[{}, {}], lands=[["Forest of the Manitou"], []])
    assert state.capacity(0) == capacity and state.points(0) == points
    lands = ["Forest of the Manitou", "Unnamed room 5", "Unnamed room 6", "Unnamed room 7", "Unnamed room 8"]
    full = position(2, rules_options={"farm": farm}, hands=[{"Executioner": 1}, {}], lands=[lands, []])
    act(full, "quest Unnamed room 1 with Executioner")
    roll(full, 6)
    assert (full.decision == "land limit") == (farm == "points")


def test_laboratory_plays_an_item_as_a_two_sword_character():
    state = position(2, hands=[{"Amulet": 1, "Sword": 1}, {}], lands=[["Storehouse of the Demonic Steel"], []])
    act(state, "quest Unnamed room 1 with Sword, Amulet as character")
    assert state.context()["swords"] == 3
    other = position(2, hands=[{"Amulet": 1, "Bee": 1}, {}])
    refused(other, "quest Unnamed room 1 with Bee, Amulet as character", "laboratory", "Laboratory")


def test_harem_developed_reduces_the_development_cost():
    state = position(2, hands=[{"Valeel": 1}, {}], lands=[[("Mansion of the Lamia", True), "Unnamed room 9"], []])
    act(state, "develop Unnamed room 9 with Valeel")  # 3 seals against 4 - 1
    assert ("Unnamed room 9", True) in state.kingdom(0)


def test_fortress_adds_two_to_a_quest_of_two_characters_not_to_an_aggression():
    state = position(2, hands=[{"Bee": 2}, {}], lands=[["Dojo of the Rust Samurai"], []])
    act(state, "quest Unnamed room 4 with Bee, Bee")
    assert state.context()["swords"] == 4
    one = position(2, hands=[{"Bee": 2}, {}], lands=[["Dojo of the Rust Samurai"], []])
    act(one, "quest Unnamed room 4 with Bee")
    assert one.context()["swords"] == 1
    attack = position(2, hands=[{"Bee": 2, "Gotcha!": 1}, {}], lands=[["Dojo of the Rust Samurai"], ["Unnamed room 9"]])
    act(attack, "attack P2 Unnamed room 9 with Bee, Bee by Gotcha!")
    assert attack.context()["swords"] == 2


def test_tomb_takes_the_top_discard_but_not_storm_or_tsunami():
    state = position(
        2, step="draw", hands=[{}, {}], lands=[["Graveyard of the Vampire"], []], discards=["Bee", "Sword"]
    )
    assert state.decision == "tomb"
    act(state, "tomb")
    assert state.hand(0) == {"Sword": 1} and state.discard_pile() == ("Bee",)
    for card in ("Dungeon Storm", "Dungeon Tsunami"):
        blocked = position(2, step="draw", hands=[{}, {}], lands=[["Graveyard of the Vampire"], []], discards=[card])
        assert blocked.decision == "chance"  # straight to the pile


def test_hot_springs_draws_with_an_empty_hand_at_the_end_of_the_turn():
    state = position(2, hands=[{"Executioner": 1}, {}], lands=[["Spring of the Mayonnaise King"], []])
    act(state, "quest Unnamed room 1 with Executioner")
    roll(state, 6)
    reveal(state, "Unnamed room 5")
    assert state.decision == "hot springs"
    act(state, "draw")
    draw(state, "Bee")
    assert state.hand(0) == {"Bee": 1} and state.turn_player == 1


def test_archives_draw_two_keep_one():
    state = position(2, step="draw", hands=[{}, {}], lands=[["Archives of the Dungeon Geek"], []])
    draw(state, "Bee", "Sword")
    assert state.decision == "archives" and state.observation(0).archives is not None
    assert state.observation(1).archives is None  # hidden from the others
    act(state, "keep Sword")
    assert state.hand(0) == {"Sword": 1} and state.discard_pile() == ("Bee",)


def test_great_excavation_is_points_only():
    pool = default_pool()
    cave = next(land for land in pool.lands if land.name == "Cave of the Dragon")
    assert cave.effect == "great excavation" and cave.level == 10
    state = position(2, hands=[{}, {}], lands=[["Cave of the Dragon"], []])
    assert state.points(0) == cave.points


# --- the items ------------------------------------------------------------------------


def test_grimoire_adds_a_characters_seals_one_grimoire_per_character():
    state = position(2, hands=[{"Highlord": 1, "Grimoire": 2}, {}])
    refused(state, "quest Unnamed room 4 with Grimoire, Grimoire, Highlord", "grimoire-character")
    act(state, "quest Unnamed room 4 with Grimoire, Highlord")
    assert state.context()["swords"] == 1 + 3


def test_amulet_rerolls_any_die_just_rolled_by_anyone():
    state = position(2, hands=[{"Executioner": 1}, {"Amulet": 1}])
    act(state, "quest Unnamed room 2 with Executioner")  # level 5
    roll(state, 6)
    assert state.decision == "amulet" and state.current_player == 1  # not P2's turn: allowed
    act(state, "amulet")
    roll(state, 1)  # the reroll stands: 3 + 1 < 5
    assert state.kingdom(0) == ()
    assert "Amulet" in state.in_play() or "Amulet" in state.discard_pile()


@pytest.mark.parametrize("amulet_ask", ["holders", "everyone"])
def test_who_is_asked_about_an_amulet_after_a_die(amulet_ask):
    """``holders``: only P2, who holds one, is asked (and so seen to hold one). ``everyone``: P1,
    then P2, are asked in turn order; P1, without an Amulet, may only pass."""
    state = position(2, rules_options={"amulet_ask": amulet_ask}, hands=[{"Executioner": 1}, {"Amulet": 1}])
    act(state, "quest Unnamed room 2 with Executioner")
    roll(state, 6)
    if amulet_ask == "everyone":
        assert state.decision == "amulet" and state.current_player == 0
        assert [str(a) for a in state.legal_actions()] == ["pass"]
        refused(state, "amulet", "hold-cards", "P1 holds no Amulet")
        act(state, "pass")
    assert state.decision == "amulet" and state.current_player == 1
    assert [str(a) for a in state.legal_actions()] == ["amulet", "pass"]
    act(state, "pass")
    assert state.decision != "amulet"


@pytest.mark.parametrize("amulet_ask", ["holders", "everyone"])
def test_a_die_that_finds_no_amulet_anywhere(amulet_ask):
    """No Amulet in any hand: ``holders`` asks nobody; ``everyone`` still asks each player (so
    that a question asked tells nothing), and each may only pass."""
    state = position(3, rules_options={"amulet_ask": amulet_ask}, hands=[{"Executioner": 1}, {}, {}])
    act(state, "quest Unnamed room 2 with Executioner")
    roll(state, 2)
    asked = []
    while state.decision == "amulet":
        asked.append(state.current_player)
        assert [str(a) for a in state.legal_actions()] == ["pass"]
        act(state, "pass")
    assert asked == ([0, 1, 2] if amulet_ask == "everyone" else [])


@pytest.mark.parametrize("amulet_first_roll", ["no", "yes"])
def test_an_amulet_on_a_first_player_roll(amulet_first_roll):
    """Amulet — You may play it when anyone has just rolled a die. That person rerolls their die. (The roll for
    the first player too? no: setting up is not a turn; yes: any die, the Amulet then discarded.)"""
    state = rules(2, amulet_first_roll=amulet_first_roll).new_initial_state(0)
    reveal(state, *ROOMS4)
    draw(state, "Bee", "Cook", "Jehu", "Drone")  # P1
    draw(state, "Amulet", "Cook", "Jehu", "Drone")  # P2
    roll(state, 6)  # P1's roll
    if amulet_first_roll == "no":
        assert state.decision == "chance"
        roll(state, 2)
        assert state.turn_player == 0 and state.hand(1)["Amulet"] == 1
        return
    assert state.decision == "amulet" and state.current_player == 1
    act(state, "amulet")
    roll(state, 1)  # P1 rerolls: 1
    assert state.decision == "chance" and state.discard_pile() == ("Amulet",) and "Amulet" not in state.hand(1)
    roll(state, 2)  # P2's roll: 2 beats 1
    assert state.turn_player == 1


def test_sword_adds_one():
    state = position(2, hands=[{"Bee": 1, "Sword": 1}, {}])
    act(state, "quest Unnamed room 4 with Bee, Sword")
    assert state.context()["swords"] == 2


@pytest.mark.parametrize("map_room", ["stays", "discarded"])
def test_map_reveals_a_fifth_room_two_levels_easier_this_turn(map_room):
    state = position(2, rules_options={"map_room": map_room}, hands=[{"Map": 1, "Bee": 1}, {}])
    act(state, "map")
    reveal(state, "Unnamed room 16")  # level 10
    assert len(state.rooms()) == 5 and state.decision == "action"
    obs = state.observation(0)
    assert "→ 8 this turn (Map)" in obs.describe()
    act(state, "resupply")
    draw(state, "Cook")
    settle(state)
    assert ("Unnamed room 16" in state.rooms()) == (map_room == "stays")
    quest = position(2, hands=[{"Map": 1, "Executioner": 1}, {}])
    act(quest, "map")
    reveal(quest, "Unnamed room 16")
    act(quest, "quest Unnamed room 16 with Executioner")
    assert quest.context()["level"] == 8
    roll(quest, 5)
    assert quest.kingdom(0) == (("Unnamed room 16", False),)


def test_gotcha_makes_an_aggression():
    state = position(2, hands=[{"Gotcha!": 1, "Bee": 1}, {}], lands=[[], ["Unnamed room 9"]])
    legal = state.legal_actions()
    assert Attack(1, "Unnamed room 9", ("Bee",), None, "Gotcha!") in legal


# --- the OPEN cards --------------------------------------------------------------------


def test_refugee_scores_a_star_and_costs_two_cards():
    state = position(2, step="draw", hands=[{"Bee": 1, "Cook": 1, "Jehu": 1}, {}])
    draw(state, "Refugee")
    assert state.refugees(0) == 1 and state.points(0) == 1
    assert state.decision == "refugee"
    act(state, "discard Bee", "discard Cook")
    assert state.hand(0) == {"Jehu": 1} and state.decision == "action"
    assert len(state.kingdom(0)) == 0  # a Refugee is not a land


def test_dungeon_storm_replaces_the_rooms():
    state = position(2, step="draw", hands=[{}, {}])
    draw(state, "Dungeon Storm")
    assert state.rooms() == () and set(ROOMS4) <= set(state.meikyu_discards())
    reveal(state, "Unnamed room 5", "Unnamed room 6", "Unnamed room 7", "Unnamed room 8")
    assert len(state.rooms()) == 4


def test_dungeon_tsunami_passes_a_land_left_drawer_first():
    state = position(3, step="draw", hands=[{}, {}, {}], lands=[[("Unnamed room 5", True)], ["Unnamed room 6"], []])
    draw(state, "Dungeon Tsunami")
    assert state.decision == "tsunami" and state.current_player == 0
    act(state, "give Unnamed room 5")
    assert state.current_player == 1
    assert {str(a) for a in state.legal_actions()} == {"give Unnamed room 6"}  # not the land just received
    act(state, "give Unnamed room 6")
    # P3 had no land when the card was played: passes nothing
    assert state.kingdom(0) == () and state.kingdom(1) == (("Unnamed room 5", False),)  # undeveloped
    assert state.kingdom(2) == (("Unnamed room 6", False),)
    assert state.decision == "action" and state.discard_pile() == ("Dungeon Tsunami",)


def test_the_unknown_open_card_is_discarded_without_effect():
    state = position(2, step="draw", hands=[{"Bee": 1}, {}])
    draw(state, "Unknown OPEN card")
    assert state.hand(0) == {"Bee": 1} and state.discard_pile() == ("Unknown OPEN card",)
    assert state.decision == "action"


# --- discarding and the Tomb ---------------------------------------------------------------


def test_discard_order_is_not_asked_once_no_tomb_can_come_out():
    state = position(2, hands=[{"Bee": 1, "Sword": 1}, {}], meikyu_pile=["Unnamed room 5"])  # Tomb set aside
    act(state, "quest Unnamed room 4 with Bee, Sword")
    roll(state, 1)
    assert state.decision != "discard order"


# --- notation and chance ---------------------------------------------------------------------


def test_chance_outcomes_are_the_pile_and_the_die():
    state = position(2, step="draw", hands=[{}, {}], pile=["Bee", "Bee", "Cook"])
    outcomes = dict(state.chance_outcomes())
    assert outcomes == {DrawCard("Bee"): 2 / 3, DrawCard("Cook"): 1 / 3}
    with pytest.raises(IllegalAction, match="not in the Kingdom pile"):
        state.apply(DrawCard("Warzard"))
    draw(state, "Cook")
    act(state, "quest Unnamed room 1 with Cook")
    assert dict(state.chance_outcomes()) == {Roll(v): 1 / 6 for v in range(1, 7)}
    with pytest.raises(IllegalAction, match="roll 1 … roll 6"):
        state.apply(Reveal("Unnamed room 5"))


def test_actions_parse_back_and_accept_shorthand():
    state = position(2, hands=[{"Bee": 1, "Sword": 1, "Gotcha!": 1}, {}], lands=[[], ["Unnamed room 9"]])
    for action in state.legal_actions():
        assert state.rules.parse_action(str(action)) == action
    assert state.parse_action("quest 1 with sword, bee") == Quest("Unnamed room 1", ("Bee", "Sword"))
    assert state.parse_action("attack p2 1 with bee by gotcha") == Attack(
        1, "Unnamed room 9", ("Bee",), None, "Gotcha!"
    )
    assert state.parse_action("quest marketplace with bee").room == "Den of the Geister"


# --- the Map room's refill, and the readings switched by options (issue 18) -----------


def test_the_discarded_map_room_is_replaced_by_step_4():
    # map_room="discarded": the unclaimed Map room leaves before step 4, which then refills
    # to four ("until there are four") while the Meikyu pile has cards.
    state = position(2, rules_options={"map_room": "discarded"}, hands=[{"Map": 1, "Executioner": 1}, {}])
    act(state, "map")
    reveal(state, "Unnamed room 16")
    act(state, "quest Unnamed room 1 with Executioner")
    roll(state, 6)  # 3 + 6 >= 4: room 1 claimed; rooms 2, 3, 4 and the Map's 16 are left
    act(state, "discard Map")  # the order of the used cards (the Tomb is still in the pile)
    assert state.kingdom(0) == (("Unnamed room 1", False),)
    assert state.current_player == CHANCE and state.rooms() == ("Unnamed room 2", "Unnamed room 3", "Unnamed room 4")
    assert "Unnamed room 16" in state.meikyu_discards()
    assert state.turn_player == 0  # still P1's turn: step 4 turns up a room
    reveal(state, "Unnamed room 5")
    assert len(state.rooms()) == 4 and state.turn_player == 1
    stays = position(2, hands=[{"Map": 1, "Executioner": 1}, {}])  # map_room="stays": four, the Map's among them
    act(stays, "map")
    reveal(stays, "Unnamed room 16")
    act(stays, "quest Unnamed room 1 with Executioner")
    roll(stays, 6)
    act(stays, "discard Map")
    assert stays.rooms() == ("Unnamed room 2", "Unnamed room 3", "Unnamed room 4", "Unnamed room 16")
    assert stays.turn_player == 1 and stays.decision == "chance"  # P2's step 1 draw, no refill


def test_the_farm_reads_plus_one_point_by_default():
    assert rules().farm == "points"
    state = position(2, hands=[{}, {}], lands=[["Forest of the Manitou"], []])
    assert state.points(0) == 1 + 1 and state.capacity(0) == 5


@pytest.mark.parametrize("refugee", ["apart", "land"])
def test_refugee_as_a_land_counts_for_the_land_limit(refugee):
    lands = ["Unnamed room 5", "Unnamed room 6", "Unnamed room 7", "Unnamed room 8", "Unnamed room 9"]
    state = position(
        2, rules_options={"refugee": refugee}, step="draw", hands=[{"Bee": 1, "Cook": 1}, {}], lands=[lands, []]
    )
    draw(state, "Refugee")
    act(state, "discard Bee", "discard Cook")
    if refugee == "apart":
        assert state.decision == "action" and state.land_count(0) == 5
        return
    assert state.decision == "land limit" and state.land_count(0) == 6
    assert {str(a) for a in state.legal_actions()} == {f"discard land {name}" for name in lands}
    act(state, "discard land Unnamed room 8")
    assert state.decision == "action" and state.land_count(0) == 5 and state.refugees(0) == 1


def _defender_draws_a_refugee(refugee_order: str) -> MeikyuState:
    """P1 attacks P2, who owns the Casino and rolls a 6; after the used cards, P2's Casino draw is a Refugee
    (the Tomb is still in the Meikyu pile: the order of discards matters)."""
    state = position(2, rules_options={"refugee_order": refugee_order},
                     hands=[{"Executioner": 1, "Gotcha!": 1}, {"Bee": 1, "Cook": 1, "Jehu": 1}],
                     lands=[[], ["Room of the Money Eater"]])  # fmt: skip
    act(state, "attack P2 Room of the Money Eater with Executioner by Gotcha!", "defend")
    roll(state, 1, 6)  # 3 + 1 against 6: the aggression fails; P2 rolled a 6 with the Casino
    act(state, "discard Executioner")  # P1 orders the used cards
    assert state.decision == "casino" and state.current_player == 1
    act(state, "draw")
    draw(state, "Refugee")
    assert state.decision == "refugee" and state.current_player == 1 and state.refugees(1) == 1
    act(state, "discard Jehu", "discard Bee")  # the drawer chooses which two cards
    return state


def test_a_refugee_drawn_out_of_turn_the_turn_player_orders_its_two_discards():
    """Refugee — "You must immediately discard any two Kingdom cards from your hand" (the drawer chooses
    them); Discarding Cards into the Discard Pile — "the order that they are placed on the discard pile is
    decided by the player whose turn it currently is" (P1's turn, P2's Casino draw)."""
    state = _defender_draws_a_refugee("turn")
    assert state.decision == "discard order" and state.current_player == 0 and state.turn_player == 0
    assert {str(a) for a in state.legal_actions()} == {"discard Bee", "discard Jehu"}
    assert sorted(state.observation(0).inplay) == sorted(state.observation(1).inplay)  # public once chosen
    assert sorted(state.in_play()) == ["Bee", "Jehu"] and state.hand(1) == {"Cook": 1}
    refused(state, "discard Cook", "choose-among")
    act(state, "discard Bee")  # Jehu goes last, on top (for a Tomb)
    assert state.discard_pile()[-4:] == ("Executioner", "Gotcha!", "Bee", "Jehu")
    assert state.in_play() == () and state.hand(1) == {"Cook": 1} and state.points(1) == 2


def test_a_refugee_drawn_out_of_turn_under_refugee_order_drawer_the_drawer_orders():
    """The other reading (rule ``refugee_order=drawer``): the drawer's choice is also the order."""
    state = _defender_draws_a_refugee("drawer")
    assert state.decision != "discard order" and state.in_play() == ()
    assert state.discard_pile()[-4:] == ("Executioner", "Gotcha!", "Jehu", "Bee")


def test_a_refugee_drawn_out_of_turn_with_no_tomb_left_goes_without_asking():
    state = position(2, hands=[{"Executioner": 1, "Gotcha!": 1}, {"Bee": 1, "Cook": 1}],
                     lands=[[], ["Room of the Money Eater"]], meikyu_pile=["Unnamed room 5"])  # fmt: skip
    act(state, "attack P2 Room of the Money Eater with Executioner by Gotcha!", "defend")
    roll(state, 1, 6)
    act(state, "draw")
    draw(state, "Refugee")
    act(state, "discard Cook", "discard Bee")
    assert state.decision != "discard order" and state.in_play() == ()
    assert state.discard_pile()[-2:] == ("Cook", "Bee") and state.hand(1) == {}


@pytest.mark.parametrize(("refugee", "winners"), [("apart", (1,)), ("land", (0, 1))])
def test_refugee_as_a_land_counts_for_the_most_lands_tie_break(refugee, winners):
    state = position(
        2, rules_options={"refugee": refugee}, hands=[{"Bee": 1}, {}], rooms=["Unnamed room 13"], meikyu_pile=[],
        lands=[["Unnamed room 3"], ["Unnamed room 7", "Unnamed room 1", "Unnamed room 2"]], refugees=[1, 0],
    )  # fmt: skip
    act(state, "quest Unnamed room 13 with Bee")
    roll(state, 6)  # the last room: P1 2 + 1 + 1 (Refugee) = 4 points on 2 lands, P2 4 points on 3 lands
    out = state.outcome()
    assert out.scores == (4.0, 4.0) and out.winners == winners


@pytest.mark.parametrize(("casino", "draws"), [("final", 0), ("every", 1)])
def test_casino_a_six_rerolled_by_an_amulet(casino, draws):
    state = position(
        2, rules_options={"casino": casino}, hands=[{"Bee": 1}, {"Amulet": 1}], lands=[["Room of the Money Eater"], []]
    )
    act(state, "quest Unnamed room 4 with Bee")
    roll(state, 6)  # 1 + 6 = 7 < 8
    assert state.decision == "amulet" and state.current_player == 1
    act(state, "amulet")
    roll(state, 3)  # the 6 is rolled away
    act(state, "discard Amulet")  # the order of the used cards
    offered = 0
    while state.decision == "casino":
        offered += 1
        act(state, "draw")
        draw(state, "Cook")
    assert offered == draws and state.hand(0) == ({"Cook": 1} if draws else {})
    twice = position(2, rules_options={"casino": casino}, hands=[{"Bee": 1}, {"Amulet": 1}],
                     lands=[["Room of the Money Eater"], []])  # fmt: skip
    act(twice, "quest Unnamed room 4 with Bee")
    roll(twice, 6)
    act(twice, "amulet")
    roll(twice, 6)  # a 6 again: "every" counts both
    act(twice, "discard Amulet")
    offered = 0
    while twice.decision == "casino":
        offered += 1
        act(twice, "draw")
        draw(twice, "Cook")
    assert offered == 1 + draws


# --- readings the rulebook leaves open, as options (issue 28) -------------------------------


@pytest.mark.parametrize(("grimoire", "swords"), [("one", None), ("stack", 1 + 3 + 3)])
def test_two_grimoires_on_one_character(grimoire, swords):
    """Grimor → Grimoire — You may use this card during a Land Quest or Aggression Action. Choose one Character
    card: its swords increase by the amount of its seals. (Two on one character: one: refused; stack: each adds
    the seals.)"""
    state = position(2, rules_options={"grimoire": grimoire}, hands=[{"Highlord": 1, "Grimoire": 2}, {}])
    two = "quest Unnamed room 4 with Grimoire, Grimoire, Highlord"
    listed = {str(a) for a in state.legal_actions()}
    if swords is None:
        assert two not in listed
        refused(state, two, "grimoire-character")
        return
    assert two in listed
    act(state, two)
    assert state.context()["swords"] == swords  # Highlord 1/3: 1 sword + 3 seals per Grimoire


@pytest.mark.parametrize(("sword", "swords"), [("stack", 1 + 1 + 1), ("one", None)])
def test_two_swords_on_one_character(sword, swords):
    """Sword — During Land Quests or Aggression actions, add +1 sword to a single character. (Two on one
    character: stack, the default: each adds +1; one: each Sword needs a character of its own, refused.)"""
    state = position(2, rules_options={"sword": sword}, hands=[{"Bee": 1, "Sword": 2, "Cook": 1}, {}])
    two = "quest Unnamed room 4 with Bee, Sword, Sword"
    listed = {str(a) for a in state.legal_actions()}
    assert "quest Unnamed room 4 with Bee, Cook, Sword, Sword" in listed  # two characters, a Sword each
    if swords is None:
        assert two not in listed
        refused(state, two, "sword-character")
        hands = [{"Bee": 1, "Gotcha!": 1}, {"Cook": 1, "Sword": 2}]
        defended = position(2, rules_options={"sword": sword}, hands=hands, lands=[[], ["Unnamed room 9"]])
        act(defended, "attack P2 Unnamed room 9 with Bee by Gotcha!")
        assert "defend with Cook, Sword, Sword" not in {str(a) for a in defended.legal_actions()}
        refused(defended, "defend with Cook, Sword, Sword", "sword-character")
        return
    assert two in listed
    act(state, two)
    assert state.context()["swords"] == swords


@pytest.mark.parametrize(("fortress", "bonus"), [("quests", 0), ("aggressions", 2)])
def test_fortress_in_an_aggression_as_in_a_quest(fortress, bonus):
    """Dojo of the Rust Samurai — Fortress: When two or more characters embark on a quest together, you may add
    +2 to the sum of their swords. (In an aggression too? quests: no; aggressions: attacking and defending.)"""
    options = {"fortress": fortress}
    quest = position(2, rules_options=options, hands=[{"Bee": 2}, {}], lands=[["Dojo of the Rust Samurai"], []])
    act(quest, "quest Unnamed room 4 with Bee, Bee")
    assert quest.context()["swords"] == 2 + 2  # a quest always
    fort = ["Dojo of the Rust Samurai"]
    attack = position(2, rules_options=options, hands=[{"Bee": 2, "Gotcha!": 1}, {}], lands=[fort, ["Unnamed room 9"]])
    act(attack, "attack P2 Unnamed room 9 with Bee, Bee by Gotcha!")
    assert attack.context()["swords"] == 2 + bonus
    defence = position(
        2, rules_options=options, hands=[{"Bee": 1, "Gotcha!": 1}, {"Cook": 2}], lands=[[], ["Unnamed room 9", *fort]]
    )
    act(defence, "attack P2 Unnamed room 9 with Bee by Gotcha!")
    while defence.decision != "defend":  # the attacker's die first
        defence.apply(defence.sample_chance() if defence.current_player == CHANCE else defence.legal_actions()[0])
    act(defence, "defend with Cook, Cook")
    assert defence.context()["defence"] == 2 + bonus


@pytest.mark.parametrize(("open_draw", "hand"), [("counts", {"Bee": 1}), ("replaced", {"Bee": 1, "Cook": 1})])
def test_a_replacement_draw_after_drawing_an_open_card(open_draw, hand):
    """Open Cards — You must play these immediately upon drawing them. (Does the drawer draw again in its place?
    counts: no, the OPEN card was the draw; replaced: yes, once it is played.)"""
    state = position(2, rules_options={"open_draw": open_draw}, step="draw", hands=[{"Bee": 1}, {}])
    draw(state, "Unknown OPEN card")
    assert state.discard_pile() == ("Unknown OPEN card",)
    if open_draw == "replaced":
        assert state.decision == "chance"
        draw(state, "Cook")
    assert state.hand(0) == hand and state.decision == "action"


@pytest.mark.parametrize(
    ("castle_tsunami", "passed"), [("passes", "Castle of the Tyrant"), ("stays", "Unnamed room 6")]
)
def test_dungeon_tsunami_and_the_castle_tower(castle_tsunami, passed):
    """Dungeon Tsunami — All players must choose one of their Claimed Lands, and pass it to the player on their
    left. / Castle of the Tyrant — Castle Tower: You may not discard this land. Furthermore, other players may not
    steal this land by using "Aggression". (May it be passed? passes: yes; stays: its holder passes another.)"""
    state = position(
        2,
        rules_options={"castle_tsunami": castle_tsunami},
        step="draw",
        hands=[{}, {}],
        lands=[["Castle of the Tyrant", "Unnamed room 6"], []],
    )
    draw(state, "Dungeon Tsunami")
    options = {str(a) for a in state.legal_actions()}
    want = (
        {"give Castle of the Tyrant", "give Unnamed room 6"} if castle_tsunami == "passes" else {"give Unnamed room 6"}
    )
    assert state.decision == "tsunami" and options == want
    act(state, f"give {passed}")
    assert [land for land, _ in state.kingdom(1)] == [passed]
    alone = position(
        2,
        rules_options={"castle_tsunami": castle_tsunami},
        step="draw",
        hands=[{}, {}],
        lands=[["Castle of the Tyrant"], []],
    )
    draw(alone, "Dungeon Tsunami")
    if castle_tsunami == "stays":  # the Castle Tower alone: nothing to pass
        assert alone.decision == "action" and [land for land, _ in alone.kingdom(0)] == ["Castle of the Tyrant"]
    else:
        assert alone.decision == "tsunami"


def test_the_new_readings_round_trip_and_refuse_bad_values():
    from cardbase.games.base import InvalidRules
    from cardbase.games.meikyu.engine import MeikyuRules

    chosen = {
        "grimoire": "stack",
        "fortress": "aggressions",
        "open_draw": "replaced",
        "castle_tsunami": "stays",
        "amulet_ask": "everyone",
        "amulet_first_roll": "yes",
        "bar": "everyone",
        "harem": "everyone",
    }
    r = rules(3, **chosen)
    again = MeikyuRules.from_options(r.to_options())
    assert {k: getattr(again, k) for k in chosen} == chosen
    old = {k: v for k, v in r.to_options().items() if k not in chosen}
    assert MeikyuRules.from_options(old).grimoire == "one"  # a record from before keeps the defaults
    with pytest.raises(InvalidRules, match="grimoire must be one of one, stack"):
        rules(2, grimoire="two")


@pytest.mark.parametrize(("goal_check", "ends"), [("end", False), ("reached", True)])
def test_ten_points_reached_then_lost_in_the_same_turn(goal_check, ends):
    """End of the Game: "When one or more players meets the following conditions, the game ends after the
    current player's turn: A. The sum of all of one kingdom's lands equals ten or more." P1 reaches 10 with a
    quest, draws a Dungeon Tsunami for the Casino's 6 and passes a land: 7 at the end of the turn. By default
    the condition is read as it stands at the end of the turn (the game goes on); under goal_check="reached",
    meeting it at any moment of the turn ends the game after it (most points still wins)."""
    lands = [["Room of the Money Eater", "Unnamed room 15", "Unnamed room 12"], ["Unnamed room 13"]]
    state = position(2, rules_options={"goal_check": goal_check}, hands=[{"Executioner": 1}, {}], lands=lands)
    assert state.points(0) == 7
    act(state, "quest Unnamed room 4 with Executioner")  # level 8: 3 + 6; +3 points
    roll(state, 6)
    assert state.points(0) == 10 and state.decision == "casino"
    act(state, "draw")
    draw(state, "Dungeon Tsunami")
    act(state, "give Unnamed room 4", "give Unnamed room 13")
    assert state.points(0) == 8 and state.points(1) == 3
    reveal(state, "Unnamed room 5")  # step 4
    assert state.is_terminal is ends
    if ends:
        outcome = state.outcome()
        assert outcome.winners == (0,) and "reached 10 points" in outcome.reason


@pytest.mark.parametrize("goal_check", ["end", "reached"])
def test_ten_points_only_while_over_the_land_limit_do_not_end_the_game(goal_check):
    """A sixth land is discarded at once ("she must discard one of the existing lands"): the moment over the
    limit is no kingdom of 10 points under either reading."""
    five = ["Unnamed room 15", "Unnamed room 12", "Unnamed room 5", "Unnamed room 6", "Unnamed room 9"]  # 9 points
    state = position(2, rules_options={"goal_check": goal_check}, hands=[{"Executioner": 1}, {}], lands=[five, []])
    act(state, "quest Unnamed room 1 with Executioner")
    roll(state, 1)  # 3 + 1 = 4: the level; 10 points on six lands
    assert state.decision == "land limit"
    act(state, "discard land Unnamed room 15")
    reveal(state, "Unnamed room 7")  # step 4
    assert state.points(0) == 7 and not state.is_terminal
