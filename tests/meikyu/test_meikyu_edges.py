"""Edge scenarios of the Meikyu rulebook, sentence by sentence: the die at each bound, the last card
of a pile, an empty pile, a player with nothing to give, effects on oneself, 2, 3 and 4 players.

Each test names the sentence it checks. Values are the default profile's (see
``test_meikyu_rules.py``): Unnamed rooms 1–4 are plain lands of level 4, 5, 6 and 8.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from cardbase.games.base import IllegalAction, InvalidAction
from cardbase.games.meikyu.engine import MeikyuRules, MeikyuState
from tests.meikyu.helpers import ROOMS4, act, default_pool, draw, position, reveal, roll, settle


def refused(state: MeikyuState, text: str, rule: str) -> None:
    with pytest.raises(IllegalAction) as error:
        state.apply(state.parse_action(text))
    assert error.value.rule == rule, str(error.value)


def words(state: MeikyuState) -> set[str]:
    return {str(a) for a in state.legal_actions()}


# --- 2-1 Perform a Quest: "equal to or higher than the room's Quest Level" ---------------


@pytest.mark.parametrize(("die", "success"), [(1, True), (6, True)])
def test_a_quest_whose_swords_reach_the_level_less_one_succeeds_on_every_die(die, success):
    """Executioner (3 swords) on a level-4 room: 3 + 1 = 4, equal, succeeds; so does 6."""
    state = position(2, hands=[{"Executioner": 1}, {}])
    act(state, "quest Unnamed room 1 with Executioner")
    roll(state, die)
    assert state.context()["success"] is success and ("Unnamed room 1", False) in state.kingdom(0)


@pytest.mark.parametrize(("die", "success"), [(5, False), (6, True)])
def test_a_quest_needing_a_six_succeeds_on_the_six_only(die, success):
    """Bee and Cook (1 sword each) on Unnamed room 4 (level 8): only a 6 reaches it."""
    state = position(2, hands=[{"Bee": 1, "Cook": 1}, {}])
    act(state, "quest Unnamed room 4 with Bee, Cook")
    roll(state, die)
    assert state.context()["total"] == 2 + die and state.context()["success"] is success


def test_a_quest_out_of_reach_fails_even_on_a_six():
    state = position(2, hands=[{"Bee": 1}, {}], rooms=["Unnamed room 16", *ROOMS4[:3]])
    act(state, "quest Unnamed room 16 with Bee")  # level 10: 1 + 6 = 7
    roll(state, 6)  # (the turn ends: no room to lay out, so no context is left to read)
    assert state.kingdom(0) == () and "Unnamed room 16" in state.rooms() and state.turn_player == 1


def test_the_map_room_at_its_reduced_level_exactly():
    """Map: "this single new Land's Quest Level is reduced by two points": level 8 − 2 = 6 = 1 + 5."""
    state = position(2, hands=[{"Bee": 1, "Map": 1}, {}], meikyu_pile=["Unnamed room 12"])
    act(state, "map")
    reveal(state, "Unnamed room 12")  # level 8
    act(state, "quest Unnamed room 12 with Bee")
    assert state.context()["level"] == 6
    roll(state, 5)
    assert ("Unnamed room 12", False) in state.kingdom(0)


# --- 2-3 Aggression: the die at the bounds, the sixth land, oneself ------------------------


@pytest.mark.parametrize(("attacker_die", "defender_die", "stolen"), [(6, 6, False), (6, 5, True), (1, 1, False)])
def test_aggression_dice_at_the_bounds(attacker_die, defender_die, stolen):
    """ "Ties go to the defender": equal dice and equal cards keep the land, at 1 and at 6."""
    state = position(2, hands=[{"Bee": 1, "Gotcha!": 1}, {"Cook": 1}], lands=[[], ["Unnamed room 9"]])
    act(state, "attack P2 Unnamed room 9 with Bee by Gotcha!", "defend with Cook")
    roll(state, attacker_die, defender_die)
    settle(state)
    assert (("Unnamed room 9", False) in state.kingdom(0)) is stolen


def test_an_aggression_on_oneself_is_refused():
    state = position(2, hands=[{"Bee": 1, "Gotcha!": 1}, {}], lands=[["Unnamed room 9"], []])
    refused(state, "attack P1 Unnamed room 9 with Bee by Gotcha!", "attack-other")


def test_an_aggression_against_a_kingdom_without_lands_is_refused():
    state = position(3, hands=[{"Bee": 1, "Gotcha!": 1}, {}, {}], lands=[[], [], ["Unnamed room 9"]])
    refused(state, "attack P2 Unnamed room 9 with Bee by Gotcha!", "attack-land")
    assert not any(str(a).startswith("attack P2") for a in state.legal_actions())


def test_a_stolen_sixth_land_is_kept_and_one_of_the_five_held_before_is_discarded():
    """ "If a player takes a sixth land into the kingdom, she must discard one of the existing lands."""
    five = ["Unnamed room 5", "Unnamed room 6", "Unnamed room 7", "Unnamed room 8", "Unnamed room 10"]
    state = position(2, hands=[{"Executioner": 1, "Gotcha!": 1}, {}], lands=[five, [("Unnamed room 9", True)]])
    act(state, "attack P2 Unnamed room 9 with Executioner by Gotcha!", "defend")
    roll(state, 6, 1)
    assert state.decision == "land limit" and state.current_player == 0
    assert words(state) == {f"discard land {name}" for name in five}  # not the land just stolen
    act(state, "discard land Unnamed room 5")
    assert ("Unnamed room 9", False) in state.kingdom(0) and len(state.kingdom(0)) == 5


def test_an_aggression_by_the_council_chamber_from_five_lands_keeps_the_stolen_land_without_a_discard():
    """ "b. Discard the "Council Chamber" card" is how the aggression is made, so it leaves the kingdom
    before the land is taken: a kingdom of five with it holds five after a win, and nothing is discarded
    for "a sixth land"."""
    four = ["Unnamed room 5", "Unnamed room 6", "Unnamed room 7", "Unnamed room 8"]
    state = position(2, hands=[{"Executioner": 1}, {}], lands=[["Nest of the Ogrekin", *four], ["Unnamed room 13"]])
    act(state, "attack P2 Unnamed room 13 with Executioner by Council Chamber")
    assert [name for name, _ in state.kingdom(0)] == four  # discarded as the aggression is made
    act(state, "defend")
    roll(state, 5, 1)
    assert state.decision != "land limit"
    assert [name for name, _ in state.kingdom(0)] == [*four, "Unnamed room 13"] and state.kingdom(1) == ()


def test_the_mixed_area_on_oneself_is_refused_and_in_two_players_the_owner_plays_again():
    state = position(2, hands=[{"Bee": 1}, {"Cook": 1}], lands=[["Tunnel of the Valaraukar"], []])
    refused(state, "mixed area P1", "mixed-area")
    act(state, "mixed area P2", "resupply")
    draw(state, "Master")  # the end of P1's turn; P2's turn is lost: P1 draws again
    assert state.turn_player == 0 and state.turns == 2 and state.decision == "chance"
    assert state.hand(1) == {"Cook": 1}


# --- the Kingdom pile: its last card, an empty pile ---------------------------------------


def test_archives_drawing_the_last_card_then_one_from_the_reshuffled_discards():
    """ "When the last card in the Kingdom Pile is taken, shuffle the discarded Kingdom Cards and replenish":
    the Archives' second card comes from the new pile, and the card not kept starts the new discards."""
    state = position(2, step="draw", hands=[{}, {}], lands=[["Archives of the Dungeon Geek"], []], pile=["Bee"])
    discards_before = len(state.discard_pile())
    assert discards_before > 0
    draw(state, "Bee")
    assert state.discard_pile() == () and sum(state.kingdom_pile().values()) == discards_before
    draw(state, "Sword")
    act(state, "keep Sword")
    assert state.hand(0) == {"Sword": 1} and state.discard_pile() == ("Bee",)


def test_the_tomb_sees_no_discards_once_the_last_card_was_taken():
    """The pile is replenished when its last card is taken, so the Tomb has nothing to pick up after."""
    state = position(2, step="draw", hands=[{}, {}], lands=[["Graveyard of the Vampire"], []],
                     pile=["Bee"], discards=["Cook"])  # fmt: skip
    assert state.decision == "tomb"  # Cook on top of the discards
    act(state, "draw")
    draw(state, "Bee")  # the last card: the discards are the pile now
    assert state.discard_pile() == () and state.kingdom_pile()["Cook"] >= 1
    act(state, "resupply")  # nothing to pick up: an ordinary draw
    assert state.decision == "chance"


def test_refugee_with_one_card_in_hand_discards_that_card_only():
    """ "You must immediately discard any two Kingdom cards from your hand": with one card, that one."""
    state = position(2, step="draw", hands=[{"Bee": 1}, {}])
    draw(state, "Refugee")
    assert state.decision == "refugee" and words(state) == {"discard Bee"}
    act(state, "discard Bee")
    assert state.decision == "action" and state.hand(0) == {} and state.refugees(0) == 1 and state.points(0) == 1


def test_refugee_with_an_empty_hand_discards_nothing():
    state = position(2, step="draw", hands=[{}, {}])
    draw(state, "Refugee")
    assert state.decision == "action" and state.refugees(0) == 1


def _casino_refugee_for_p2(p2_hand, **options):
    """P1's failed aggression; P2 rolled a 6 with the Casino and draws a Refugee (the Tomb still in the pile)."""
    lands = [[], ["Room of the Money Eater", *options.pop("p2_lands", ())]]
    state = position(2, rules_options=options, hands=[{"Executioner": 1, "Gotcha!": 1}, p2_hand], lands=lands)
    act(state, "attack P2 Room of the Money Eater with Executioner by Gotcha!", "defend")
    roll(state, 1, 6)
    act(state, "discard Executioner", "draw")
    draw(state, "Refugee")
    return state


def test_a_refugee_drawn_out_of_turn_with_one_card_in_hand_goes_without_an_order():
    state = _casino_refugee_for_p2({"Bee": 1})
    assert words(state) == {"discard Bee"} and state.current_player == 1
    act(state, "discard Bee")
    assert state.decision != "discard order" and state.in_play() == () and state.discard_pile()[-1] == "Bee"


def test_a_refugee_drawn_out_of_turn_with_two_of_one_card_goes_without_an_order():
    state = _casino_refugee_for_p2({"Bee": 2, "Cook": 1})
    act(state, "discard Bee", "discard Bee")
    assert state.decision != "discard order" and state.in_play() == () and state.hand(1) == {"Cook": 1}


def test_a_refugee_as_a_land_drawn_out_of_turn_is_ordered_before_the_land_limit():
    """refugee=land: the two cards go first (ordered by the turn's player), then the land over the limit."""
    more = ["Unnamed room 5", "Unnamed room 6", "Unnamed room 7", "Unnamed room 8"]
    state = _casino_refugee_for_p2({"Bee": 1, "Cook": 1}, refugee="land", p2_lands=more)
    act(state, "discard Cook", "discard Bee")
    assert state.decision == "discard order" and state.current_player == 0
    act(state, "discard Cook")
    assert state.decision == "land limit" and state.current_player == 1 and state.land_count(1) == 6
    assert state.discard_pile()[-2:] == ("Cook", "Bee")


# --- 3. Discard excess cards: the bound -------------------------------------------------------


@pytest.mark.parametrize(("cards", "asked"), [(5, False), (6, True)])
def test_the_hand_limit_asks_at_six_not_at_five(cards, asked):
    state = position(2, hands=[{"Bee": 3, "Jehu": cards - 4}, {}])  # one card fewer than after the resupply
    act(state, "resupply")
    draw(state, "Cook")
    assert (state.decision == "hand limit") is asked
    if asked:
        act(state, "discard Cook")
        assert state.hand_size(0) == 5


# --- Open cards at the edges ---------------------------------------------------------------------


def test_dungeon_storm_with_fewer_than_four_meikyu_cards_left_lays_out_what_there_is():
    state = position(2, step="draw", hands=[{"Bee": 1}, {}], meikyu_pile=["Unnamed room 5", "Unnamed room 6"])
    draw(state, "Dungeon Storm")
    reveal(state, "Unnamed room 5", "Unnamed room 6")
    assert state.decision == "action" and len(state.rooms()) == 2


def test_dungeon_storm_discards_the_maps_fifth_room_too_and_lays_out_four():
    """Dungeon Storm: "Immediately discard all of the face up unclaimed Lands. Draw four new Meikyu cards and
    lay them out in their place": five rooms up after a Map (its room included) make four new ones."""
    state = position(2, hands=[{"Bee": 1, "Map": 1}, {}])
    act(state, "map")
    reveal(state, "Unnamed room 16")
    assert len(state.rooms()) == 5
    act(state, "resupply")
    draw(state, "Dungeon Storm")
    assert state.rooms() == ()
    reveal(state, "Unnamed room 5", "Unnamed room 6", "Unnamed room 7", "Unnamed room 8")
    assert state.rooms() == ("Unnamed room 5", "Unnamed room 6", "Unnamed room 7", "Unnamed room 8")
    assert state.meikyu_pile_size() == 32 - 9


def test_dungeon_storm_with_an_empty_meikyu_pile_ends_the_game_after_the_turn():
    """End of the Game B: "There are no more Meikyu dungeon rooms left to conquer"."""
    state = position(2, step="draw", hands=[{"Bee": 1}, {}], meikyu_pile=[])
    draw(state, "Dungeon Storm")
    assert state.rooms() == () and state.decision == "action"
    assert not any(str(a).startswith("quest") for a in state.legal_actions())
    act(state, "resupply")
    draw(state, "Cook")
    assert state.is_terminal and state.facts()["end"] == "rooms"


def test_dungeon_tsunami_with_two_players_swaps_one_land_each():
    state = position(2, step="draw", hands=[{}, {}], lands=[["Unnamed room 5"], [("Unnamed room 6", True)]])
    draw(state, "Dungeon Tsunami")
    act(state, "give Unnamed room 5")
    assert words(state) == {"give Unnamed room 6"}
    act(state, "give Unnamed room 6")
    assert state.kingdom(0) == (("Unnamed room 6", False),) and state.kingdom(1) == (("Unnamed room 5", False),)


def test_dungeon_tsunami_drawn_by_a_player_without_lands_starts_with_the_next():
    state = position(4, step="draw", turn=1, hands=[{}, {}, {}, {}],
                     lands=[["Unnamed room 5"], [], ["Unnamed room 6"], ["Unnamed room 7"]])  # fmt: skip
    draw(state, "Dungeon Tsunami")
    assert state.decision == "tsunami" and state.current_player == 2  # P2, the drawer, passes nothing
    act(state, "give Unnamed room 6", "give Unnamed room 7", "give Unnamed room 5")
    assert [state.kingdom(s) for s in range(4)] == [
        (("Unnamed room 7", False),),
        (("Unnamed room 5", False),),
        (),
        (("Unnamed room 6", False),),
    ]


@pytest.mark.parametrize("reading", ["none", "may-pass"])
def test_a_player_without_lands_at_a_tsunami_passes_what_it_received_as_the_option_reads(reading):
    """Dungeon Tsunami: "If a player has no Claimed Lands at the time this card is initially activated,
    they do not have to pass a land." P1 draws it; P2 has no land, receives P1's, and then passes nothing
    (``tsunami_landless="none"``), or may pass it on to P3 or keep it (``"may-pass"``: "do not have to" as a
    choice). P3 passes its own land to P1 either way."""
    lands = [["Unnamed room 5"], [], ["Unnamed room 6"]]
    state = position(3, rules_options={"tsunami_landless": reading}, step="draw", hands=[{}, {}, {}], lands=lands)
    draw(state, "Dungeon Tsunami")
    act(state, "give Unnamed room 5")
    if reading == "none":
        assert state.current_player == 2 and words(state) == {"give Unnamed room 6"}
    else:
        assert state.current_player == 1 and words(state) == {"give Unnamed room 5", "pass"}
        act(state, "give Unnamed room 5")
        assert state.current_player == 2 and words(state) == {"give Unnamed room 6"}
    act(state, "give Unnamed room 6")
    passed_on = reading == "may-pass"
    assert state.kingdom(1) == (() if passed_on else (("Unnamed room 5", False),))
    assert state.kingdom(2) == ((("Unnamed room 5", False),) if passed_on else ())
    assert state.kingdom(0) == (("Unnamed room 6", False),) and state.decision == "action"
    kept = position(3, rules_options={"tsunami_landless": "may-pass"}, step="draw", hands=[{}, {}, {}], lands=lands)
    draw(kept, "Dungeon Tsunami")
    act(kept, "give Unnamed room 5", "pass", "give Unnamed room 6")
    assert kept.kingdom(1) == (("Unnamed room 5", False),) and kept.kingdom(2) == ()
    drawer = position(3, rules_options={"tsunami_landless": "may-pass"}, step="draw", hands=[{}, {}, {}],
                      lands=[[], ["Unnamed room 5"], []])  # fmt: skip
    draw(drawer, "Dungeon Tsunami")  # P1, without lands, goes first and has received nothing yet
    assert drawer.current_player == 1 and words(drawer) == {"give Unnamed room 5"}


def test_a_land_received_by_tsunami_can_end_the_game_for_another_player():
    """The game ends after the current player's turn when *one or more players* meet condition A:
    P2, given a land on P1's turn, reaches 10 and wins."""
    p2 = ["Unnamed room 15", "Castle of the Tyrant", "Unnamed room 13"]
    state = position(2, step="draw", hands=[{}, {}], lands=[["Unnamed room 16"], p2])
    assert state.points(1) == 7
    draw(state, "Dungeon Tsunami")
    act(state, "give Unnamed room 16")  # +4 to P2
    act(state, "give Unnamed room 13")
    assert state.points(1) == 10
    act(state, "resupply")
    draw(state, "Bee")
    assert state.is_terminal and state.outcome().winners == (1,)


# --- lands' effects at their edges -------------------------------------------------------------


def test_the_harem_does_not_lower_the_cost_of_its_own_development():
    """ "When this land has been Developed, the cost to Develop any land in the future is reduced by one."""
    state = position(2, hands=[{"Valeel": 1, "Merchant": 1, "Highlord": 1}, {}], lands=[["Mansion of the Lamia"], []])
    act(state, "develop Mansion of the Lamia with Merchant, Valeel")  # 2 + 3 = 5 < 6
    assert state.context()["cost"] == 6 and state.context()["success"] is False


# --- items on one character ---------------------------------------------------------------------


def test_two_swords_on_one_character_add_two():
    """Sword: "add +1 sword to a single character": each Sword adds its +1, on the same character or not."""
    state = position(2, hands=[{"Bee": 1, "Sword": 2}, {}])
    act(state, "quest Unnamed room 1 with Bee, Sword, Sword")
    assert state.context()["swords"] == 1 + 2


def test_the_bar_reads_a_characters_printed_swords_under_a_sword():
    """Bar (developed): "all characters with 0 swords receive a +1 sword": Valeel (0 swords) with a Sword
    still counts as a 0-sword character: 0 + 1 + 1."""
    state = position(2, hands=[{"Valeel": 1, "Sword": 1}, {}], lands=[[("Stage of the Airt Piper", True)], []])
    act(state, "quest Unnamed room 1 with Sword, Valeel")
    assert state.context()["swords"] == 2


BAR_ITEMS = [  # (cards, swords under bar_zero="printed", under "after-items"); Bee 1/1, Merchant 0/2, Valeel 0/3
    (["Merchant", "Sword"], 0 + 1 + 1, 0 + 1),  # the Sword lifts Merchant to 1: no longer a 0-sword character
    (["Merchant", "Grimoire"], 0 + 2 + 1, 0 + 2),  # the Grimoire adds Merchant's 2 seals: not 0 either
    (["Bee", "Merchant", "Sword"], 1 + 0 + 1 + 1, 1 + 0 + 1 + 1),  # the Sword goes on the Bee: Merchant keeps the +1
    (["Merchant", "Valeel", "Grimoire"], 0 + 0 + 3 + 2, 3 + 1),  # the Grimoire on Valeel, Merchant lifted by the Bar
    (["Merchant", "Valeel", "Sword", "Sword"], 0 + 0 + 2 + 2, 2 + 1),  # both Swords on one: the other keeps its +1
]


@pytest.mark.parametrize("reading", ["printed", "after-items"])
@pytest.mark.parametrize(("cards", "printed", "after"), BAR_ITEMS, ids=[", ".join(c[0]) for c in BAR_ITEMS])
def test_the_bars_zero_sword_characters_under_items_as_the_option_reads_them(cards, printed, after, reading):
    """Bar (developed): "all characters with 0 swords receive a +1 sword". Does a 0-sword character with
    a Sword or a Grimoire on it still have "0 swords"? ``bar_zero="printed"`` (default): yes, its printed
    Bravery is 0; ``"after-items"``: no, it has the swords the items gave it (the items placed as the
    player best would)."""
    hand = {name: cards.count(name) for name in cards}
    state = position(2, rules_options={"bar_zero": reading}, hands=[hand, {}],
                     lands=[[("Stage of the Airt Piper", True)], []])  # fmt: skip
    act(state, f"quest Unnamed room 1 with {', '.join(cards)}")
    assert state.context()["swords"] == (printed if reading == "printed" else after)


def test_under_bar_zero_after_items_the_bar_counts_the_same_for_a_defender_and_without_items():
    """The same reading for a defender's cards; cards without items are counted as before."""
    after = {"bar_zero": "after-items"}
    state = position(2, rules_options=after, hands=[{"Bee": 1, "Gotcha!": 1}, {"Valeel": 1, "Sword": 1}],
                     lands=[[], [("Stage of the Airt Piper", True)]])  # fmt: skip
    act(state, "attack P2 Stage of the Airt Piper with Bee by Gotcha!", "defend with Sword, Valeel")
    assert state.context()["defence"] == 1
    plain = position(2, rules_options=after, hands=[{"Merchant": 1, "Valeel": 1}, {}],
                     lands=[[("Stage of the Airt Piper", True)], []])  # fmt: skip
    act(plain, "quest Unnamed room 1 with Merchant, Valeel")
    assert plain.context()["swords"] == 2


def test_the_hot_springs_do_not_draw_for_a_hand_of_one_card():
    """Hot Springs: "If you have no Kingdom Cards at the end of your turn": one card left is not none."""
    state = position(2, hands=[{"Executioner": 1, "Bee": 1}, {}], lands=[["Spring of the Mayonnaise King"], []])
    act(state, "quest Unnamed room 1 with Executioner")
    roll(state, 6)
    reveal(state, "Unnamed room 5")
    assert state.decision != "hot springs" and state.turn_player == 1 and state.hand(0) == {"Bee": 1}


def test_the_defenders_cards_are_discarded_too():
    """2-3: "All characters and items used are discarded regardless of success or failure": the defender's
    as well as the attacker's, in the order the player whose turn it is chooses."""
    state = position(2, hands=[{"Gotcha!": 1, "Bee": 1}, {"Cook": 1, "Sword": 1, "Jehu": 1}],
                     lands=[[], ["Unnamed room 11"]])  # fmt: skip
    act(state, "attack P2 Unnamed room 11 with Bee by Gotcha!", "defend with Cook, Sword")
    roll(state, 3, 3)  # 1 + 3 against 2 + 3: held
    assert state.hand(1) == {"Jehu": 1} and state.kingdom(1) == (("Unnamed room 11", False),)
    assert state.decision == "discard order" and state.current_player == 0  # the attacker's turn: P1 orders
    act(state, "discard Sword", "discard Cook", "discard Bee")
    assert state.discard_pile()[-4:] == ("Sword", "Cook", "Bee", "Gotcha!")


def test_the_map_rooms_lower_level_ends_with_the_turn():
    """Map: "Until the end of your turn, this single new Land's Quest Level is reduced by two points": on the
    next player's turn the room left face up is back at its printed level."""
    state = position(2, hands=[{"Bee": 1, "Map": 1}, {"Cook": 1}], meikyu_pile=["Unnamed room 12", "Unnamed room 5"])
    act(state, "map")
    reveal(state, "Unnamed room 12")  # level 8, 6 this turn
    act(state, "resupply")
    draw(state, "Jehu")
    draw(state, "Master")  # P2's step 1
    assert state.turn_player == 1 and state.decision == "action"
    act(state, "quest Unnamed room 12 with Cook")
    assert state.context()["level"] == 8


def test_amulet_holders_are_asked_in_turn_order_from_the_player_whose_turn_it_is():
    """Amulet: "You may play it when anyone has just rolled a die": P3 quests in a 4-player game and the
    holders P1, P2 and P4 are asked in turn order from P3: P4, P1, P2."""
    state = position(4, turn=2, hands=[{"Amulet": 1}, {"Amulet": 1}, {"Executioner": 1}, {"Amulet": 1}])
    act(state, "quest Unnamed room 4 with Executioner")
    roll(state, 1)
    asked = []
    while state.decision == "amulet":
        asked.append(state.current_player)
        act(state, "pass")
    assert asked == [3, 0, 1]  # P4, P1, P2: from P3, whose turn it is


def test_the_hot_springs_draw_once_even_if_it_brings_no_card():
    """Hot Springs: one draw at the end of the turn ("you may draw a Kingdom Card"), even when the card drawn
    is an OPEN card played at once and the hand is still empty."""
    state = position(2, hands=[{"Executioner": 1}, {}], lands=[["Spring of the Mayonnaise King"], []])
    act(state, "quest Unnamed room 1 with Executioner")
    roll(state, 6)
    reveal(state, "Unnamed room 5")
    act(state, "draw")
    draw(state, "Unknown OPEN card")
    assert state.hand(0) == {} and state.decision != "hot springs" and state.turn_player == 1


def test_a_grimoire_goes_on_the_used_character_with_the_most_seals():
    """Grimoire: "Choose one Character card: its swords increase by the amount of its seals": the player's
    best choice among the characters used, Highlord (1/3) rather than Bee (1/1)."""
    state = position(2, hands=[{"Bee": 1, "Highlord": 1, "Grimoire": 1}, {}])
    act(state, "quest Unnamed room 4 with Bee, Grimoire, Highlord")
    assert state.context()["swords"] == 1 + 1 + 3


# --- refusals at the edges ------------------------------------------------------------------------


@pytest.mark.parametrize("mixed", [False, True])
def test_a_map_with_an_empty_meikyu_pile_is_refused(mixed):
    """Map: "Draw one extra (fifth) area from the Meikyu card pile": nothing to draw, no Map (with or without
    the Mixed Area, whose owner's free plays are listed apart)."""
    lands = [["Tunnel of the Valaraukar"] if mixed else [], []]
    state = position(2, hands=[{"Bee": 1, "Map": 1}, {}], lands=lands, meikyu_pile=[])
    assert "map" not in words(state)
    refused(state, "map", "map-pile")


def test_a_development_without_a_character_is_refused():
    """2-2: "The player spends any number of character cards": at least one."""
    from cardbase.games.meikyu.actions import Develop

    state = position(2, hands=[{"Bee": 1}, {}], lands=[["Unnamed room 9"], []])
    with pytest.raises(IllegalAction) as error:
        state.apply(Develop("Unnamed room 9", ()))
    assert error.value.rule == "develop-characters"


def test_the_mixed_area_is_only_its_owners():
    state = position(3, hands=[{"Bee": 1}, {}, {}], lands=[[], ["Tunnel of the Valaraukar"], []])
    assert not any(w.startswith("mixed area") for w in words(state))
    refused(state, "mixed area P2", "mixed-area")


def test_a_beaten_defender_choosing_the_land_may_not_give_the_castle_tower():
    """Castle Tower: "other players may not steal this land by using Aggression", also when the beaten
    defender chooses the land (aggression_target="defender")."""
    state = position(2, rules_options={"aggression_target": "defender"},
                     hands=[{"Executioner": 1, "Gotcha!": 1}, {}],
                     lands=[[], ["Castle of the Tyrant", "Unnamed room 9"]])  # fmt: skip
    act(state, "attack P2 with Executioner by Gotcha!", "defend")
    roll(state, 6, 1)
    assert state.decision == "give land" and words(state) == {"give Unnamed room 9"}
    refused(state, "give Castle of the Tyrant", "choose-among")


def test_after_a_tsunami_a_kingdom_over_its_land_limit_discards_down():
    """Under farm="lands" a kingdom of six lands holds the Farm; passing the Farm to a Tsunami and receiving
    a land leaves six lands for a limit of five: "she must discard one of the existing lands"."""
    six = ["Forest of the Manitou", "Unnamed room 5", "Unnamed room 6", "Unnamed room 7", "Unnamed room 8",
           "Unnamed room 9"]  # fmt: skip
    state = position(2, rules_options={"farm": "lands"}, step="draw", hands=[{}, {}],
                     lands=[six, ["Unnamed room 10"]])  # fmt: skip
    draw(state, "Dungeon Tsunami")
    act(state, "give Forest of the Manitou", "give Unnamed room 10")
    assert state.decision == "land limit" and state.current_player == 0 and len(state.kingdom(0)) == 6
    act(state, "discard land Unnamed room 5")
    assert len(state.kingdom(0)) == 5 and state.decision == "action"


# --- rows of the readings without a test of their own (docs/rules/meikyu.md) ------------------


def test_the_blacksmith_and_the_laboratory_count_for_their_owner_defending():
    """ "Bar, Blacksmith, Laboratory in aggression: they apply to their owner, attacking or defending" (the
    Bar's defence is in test_another_players_developed_bar)."""
    smith = position(2, hands=[{"Bee": 1, "Gotcha!": 1}, {"Cook": 1, "Sword": 1}],
                     lands=[[], ["Workshop of the Dwarves"]])  # fmt: skip
    act(smith, "attack P2 Workshop of the Dwarves with Bee by Gotcha!", "defend with Cook, Sword")
    assert smith.context()["defence"] == 1 + 1 + 1  # Cook 1, the Sword 1, the Blacksmith 1
    lab = position(2, hands=[{"Bee": 1, "Gotcha!": 1}, {"Amulet": 1}],
                   lands=[[], ["Storehouse of the Demonic Steel"]])  # fmt: skip
    act(lab, "attack P2 Storehouse of the Demonic Steel with Bee by Gotcha!")
    assert "defend with Amulet as character" in words(lab)
    act(lab, "defend with Amulet as character")
    assert lab.context()["defence"] == 2
    plain = position(2, hands=[{"Bee": 1, "Gotcha!": 1}, {"Amulet": 1}], lands=[[], ["Unnamed room 9"]])
    act(plain, "attack P2 Unnamed room 9 with Bee by Gotcha!")
    assert "defend with Amulet as character" not in words(plain)


def test_the_hospital_returns_a_character_after_a_failed_quest_only():
    """ "Altar of the Nightingale — Hospital: If you fail a Quest": not a failed aggression, not a failed
    development."""
    attack = position(2, hands=[{"Bee": 1, "Gotcha!": 1}, {}],
                      lands=[["Altar of the Nightingale"], ["Unnamed room 9"]])  # fmt: skip
    act(attack, "attack P2 Unnamed room 9 with Bee by Gotcha!", "defend")
    roll(attack, 1, 6)  # 1 + 1 against 0 + 6: the aggression fails
    assert attack.decision != "hospital" and attack.hand(0) == {}
    develop = position(2, hands=[{"Bee": 1}, {}], lands=[["Altar of the Nightingale", "Unnamed room 9"], []])
    act(develop, "develop Unnamed room 9 with Bee")  # 1 seal against level 4: fails
    assert develop.decision != "hospital" and develop.hand(0) == {}


def test_the_tomb_offers_the_top_discard_on_a_resupply_too():
    """ "Graveyard of the Vampire — Tomb: When you draw from the Kingdom Pile, you may choose to pick up the
    topmost discarded Kingdom Card instead": every draw, a Resupply's as step 1's."""
    state = position(2, hands=[{}, {}], lands=[["Graveyard of the Vampire"], []], discards=["Bee", "Sword"])
    act(state, "resupply")
    assert state.decision == "tomb"
    act(state, "tomb")
    assert state.hand(0) == {"Sword": 1} and state.discard_pile() == ("Bee",)


def test_a_laboratory_item_is_no_character_for_a_development():
    """Laboratory: "You may play one item card as if it were a character" — in quests and aggressions; a
    development "spends character cards", and the item is not one (docs: "not in developments")."""
    state = position(2, hands=[{"Amulet": 1, "Valeel": 1}, {}],
                     lands=[["Storehouse of the Demonic Steel", "Unnamed room 9"], []])  # fmt: skip
    assert not any("as character" in w for w in words(state) if w.startswith("develop"))
    with pytest.raises((IllegalAction, InvalidAction)):
        state.apply(state.parse_action("develop Unnamed room 9 with Valeel, Amulet as character"))


def test_two_mixed_areas_on_one_player_lose_two_turns():
    """ "Mixed Area against a player who already is to lose a turn: both turns are lost (one lost turn per
    Mixed Area)", with a pool of two Mixed Areas (imported copies; an unnamed room makes room for it)."""
    pool = default_pool()
    lands = tuple(
        replace(land, copies=2) if land.name == "Tunnel of the Valaraukar" else land
        for land in pool.lands
        if land.name != "Unnamed room 16"
    )
    rules = MeikyuRules(replace(pool, lands=lands), players=3)
    tunnels = ["Tunnel of the Valaraukar"] * 2
    state = MeikyuState.position(rules, hands=[{"Bee": 1}, {}, {}], lands=[tunnels, [], []], rooms=ROOMS4)
    act(state, "mixed area P2", "mixed area P2")
    assert state.skips(1) == 2 and state.kingdom(0) == ()
    act(state, "resupply")
    settle(state)
    assert state.turn_player == 2 and state.skips(1) == 1  # P2's first lost turn
    settle(state)
    assert state.turn_player == 0
    settle(state)
    assert state.turn_player == 2 and state.skips(1) == 0  # and its second
