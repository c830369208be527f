"""A second independent examiner's scenarios for Meikyu Kingdom, written from the rulebook's text
before reading the engine, its rules trace or any test, then thinned to those the first examiner
(``test_meikyu_examiner.py``) does not check the same way. Each test quotes the sentence it checks.

Values are the default profile's (the rulebook prints no card values): Unnamed rooms 1–4 are plain
lands of level 4, 5, 6 and 8 (1, 1, 2, 3 points), 7 is level 6 (2), 12 level 8 (3), 15 level 9 (3);
Executioner 3/0, Highlord 1/3, Doctor 1/2, Bee/Cook/Jehu 1/1, Drone 0/1, Valeel 0/3.
"""

from __future__ import annotations

import pytest

from cardbase.games.base import IllegalAction, InvalidAction
from cardbase.games.meikyu.engine import MeikyuState
from tests.meikyu.helpers import ROOMS4, act, default_pool, draw, position, reveal, roll, rules, settle

OPEN_CARDS = ("Refugee", "Dungeon Storm", "Dungeon Tsunami", "Unknown OPEN card")


def legal(state: MeikyuState) -> set[str]:
    return {str(a) for a in state.legal_actions()}


def refused(state: MeikyuState, text: str) -> None:
    with pytest.raises((IllegalAction, InvalidAction)):
        state.apply(state.parse_action(text))


def finish_discards(state: MeikyuState) -> None:
    while state.decision == "discard order":
        act(state, str(state.legal_actions()[0]))


# --- components and setting up --------------------------------------------------------------------


def test_e01_components_count_every_card_kind():
    """ "32 Meikyu cards (lands)" / "68 Kingdom cards" / "A. Character Cards (42)" / "B. Item Cards (18)" /
    "C. Aggression Cards (4)" / "D. "Open" Cards (4)" """
    pool = default_pool()
    assert (pool.land_count, pool.kingdom_count) == (32, 68)
    assert [pool.count(kind) for kind in ("character", "item", "aggression", "open")] == [42, 18, 4, 4]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", [1, 7])
def test_e02_setup_leaves_28_meikyu_cards_and_the_rest_of_the_kingdom_cards_in_the_piles(players, seed):
    """ "Shuffle the 32 orange-backed Meikyu cards ... Then draw the top 4" / "deal 4 Kingdom Cards to each
    player" / "the rest of the Kingdom cards are put face-down into a Kingdom Draw Pile" / "If no player
    starts off with an "OPEN" card" """
    state = rules(players).new_initial_state(seed)
    while len(state.rooms()) < 4:
        state.apply(state.sample_chance())
    assert state.meikyu_pile_size() == 28
    state.resolve_chance()  # the deal, the first-player rolls and the first player's step 1 draw
    held = [state.hand(s) for s in range(players)]
    assert not any(card in hand for hand in held for card in OPEN_CARDS)
    assert sum(state.kingdom_pile().values()) == 68 - 4 * players - 1
    assert sum(state.hand_size(s) for s in range(players)) + len(state.discard_pile()) == 4 * players + 1


def test_e03_the_second_player_dealt_an_open_card_returns_the_hand_and_draws_four_new():
    """ "If one of the players starts out with one of the special-action "OPEN" cards, that person will return
    all their cards to the pile and draw four new cards" — the OPEN card is returned, not played."""
    state = rules(2).new_initial_state(0)
    reveal(state, *ROOMS4)
    draw(state, "Bee", "Cook", "Jehu", "Drone")
    draw(state, "Warzard", "Dungeon Tsunami", "Map", "Sword")
    assert state.hand(0) == {"Bee": 1, "Cook": 1, "Jehu": 1, "Drone": 1}  # the other player keeps hers
    assert state.hand_size(1) == 0 and state.kingdom_pile()["Dungeon Tsunami"] == 1
    assert state.discard_pile() == ()
    draw(state, "Warzard", "Map", "Sword", "Valeel")
    assert state.hand(1) == {"Warzard": 1, "Map": 1, "Sword": 1, "Valeel": 1}
    assert state.decision == "chance" and state.turns == 0  # now the first-player rolls


def test_e04_the_highest_roll_goes_first_among_four():
    """ "Each player rolls the die. The player with the highest roll goes first." """
    state = rules(4).new_initial_state(0)
    reveal(state, *ROOMS4)
    draw(state, "Bee", "Cook", "Jehu", "Drone", "Valeel", "Highlord", "Doctor", "Master")
    draw(state, "Sword", "Map", "Grimoire", "Amulet", "Executioner", "Warzard", "Producer", "Vulcanus")
    roll(state, 2, 6, 3, 1)
    assert state.turn_player == 1
    draw(state, "Daedalist")
    assert state.current_player == 1 and state.decision == "action" and state.hand_size(1) == 5


def test_e05_tied_highest_rolls_roll_again_until_one_is_highest():
    """ "The player with the highest roll goes first." — a tie for the highest names nobody yet."""
    state = rules(3).new_initial_state(0)
    reveal(state, *ROOMS4)
    draw(state, "Bee", "Cook", "Jehu", "Drone", "Valeel", "Highlord", "Doctor", "Master")
    draw(state, "Sword", "Map", "Grimoire", "Amulet")
    roll(state, 6, 2, 6)  # P1 and P3 tie
    roll(state, 4, 4)  # again
    roll(state, 1, 5)
    assert state.turn_player == 2


# --- 2-1 quest ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("die", "taken"), [(5, False), (6, True)])
def test_e06_a_zero_sword_character_and_a_six_reach_level_six(die, taken):
    """ "At least one character card must be used" / "rolls a die, and adds this result to the total of swords.
    If this new total is equal to or higher than the room's Quest Level, then the quest succeeds" """
    state = position(2, hands=[{"Drone": 1}, {}])
    act(state, "quest Unnamed room 3 with Drone")  # level 6, 0 swords
    roll(state, die)
    assert (state.kingdom(0) == (("Unnamed room 3", False),)) is taken


@pytest.mark.parametrize(("cards", "taken"), [("Executioner", False), ("Bee, Executioner", True)])
def test_e07_great_excavation_level_ten_at_the_top_of_the_die(cards, taken):
    """Quest Level 10: "Cave of the Dragon — Great Excavation" — 3 swords + 6 = 9 is short; 4 + 6 = 10 reaches."""
    rooms = ["Cave of the Dragon", "Unnamed room 1", "Unnamed room 2", "Unnamed room 3"]
    state = position(2, rooms=rooms, hands=[{"Executioner": 1, "Bee": 1}, {}])
    act(state, f"quest Cave of the Dragon with {cards}")
    roll(state, 6)
    assert (("Cave of the Dragon", False) in state.kingdom(0)) is taken
    assert state.points(0) == (4 if taken else 0)


def test_e08_castle_tower_is_level_nine():
    """Quest Level 9: "Castle of the Tyrant — Castle Tower" """
    rooms = ["Castle of the Tyrant", "Unnamed room 1", "Unnamed room 2", "Unnamed room 3"]
    short = position(2, rooms=rooms, hands=[{"Executioner": 1, "Bee": 1}, {}])
    act(short, "quest Castle of the Tyrant with Bee, Executioner")
    roll(short, 4)  # 8 < 9
    assert short.kingdom(0) == ()
    done = position(2, rooms=rooms, hands=[{"Executioner": 1, "Bee": 1}, {}])
    act(done, "quest Castle of the Tyrant with Bee, Executioner")
    roll(done, 5)  # 9 = 9
    assert done.kingdom(0) == (("Castle of the Tyrant", False),)


def test_e09_only_a_face_up_room_can_be_quested():
    """ "The player chooses one of the face-up Meikyu Card rooms" """
    state = position(2, hands=[{"Executioner": 1}, {}], lands=[["Unnamed room 5"], []])
    refused(state, "quest Unnamed room 9 with Executioner")  # in the Meikyu pile
    refused(state, "quest Unnamed room 5 with Executioner")  # already her land


def test_e10_the_sixth_land_is_kept_one_held_before_goes():
    """ "If a player takes a sixth land into the kingdom, she must discard one of the existing lands." """
    five = ["Unnamed room 5", "Unnamed room 6", "Unnamed room 7", "Unnamed room 8", "Unnamed room 9"]
    state = position(2, hands=[{"Executioner": 1}, {}], lands=[five, []])
    act(state, "quest Unnamed room 1 with Executioner")
    roll(state, 4)
    assert state.decision == "land limit" and state.current_player == 0
    assert legal(state) == {f"discard land {land}" for land in five}
    act(state, "discard land Unnamed room 8")
    assert ("Unnamed room 1", False) in state.kingdom(0) and state.land_count(0) == 5
    assert "Unnamed room 8" in state.meikyu_discards()


# --- 2-2 development ------------------------------------------------------------------------------


def test_e11_a_failed_development_still_spends_its_characters():
    """ "All Kingdom cards that are used during an action are discarded, whether the action was successful or
    not." (a development short of the level)"""
    state = position(2, hands=[{"Valeel": 1, "Bee": 1}, {}], lands=[["Unnamed room 7"], []])
    act(state, "develop Unnamed room 7 with Valeel")  # 3 < 6
    assert state.kingdom(0) == (("Unnamed room 7", False),)
    assert state.discard_pile() == ("Valeel",) and state.hand(0) == {"Bee": 1}
    assert state.turn_player == 1


def test_e12_a_developed_harem_lowers_the_level_of_another_land_by_one():
    """Harem: "When this land has been Developed, the cost to Develop any land in the future is reduced by
    one." """
    state = position(2, hands=[{"Highlord": 1, "Doctor": 1}, {}],
                     lands=[[("Mansion of the Lamia", True), "Unnamed room 7"], []])  # fmt: skip
    act(state, "develop Unnamed room 7 with Doctor, Highlord")  # 5 seals against level 6 - 1
    assert ("Unnamed room 7", True) in state.kingdom(0)
    assert state.points(0) == 3 + 3


def test_e13_a_development_reaching_ten_points_ends_the_game_after_the_turn():
    """ "The Developed Point Total becomes this room's new Point Total." / "A. The sum of all of one kingdom's
    lands equals ten or more." """
    lands = ["Unnamed room 15", "Unnamed room 12", "Unnamed room 4"]  # 3 + 3 + 3
    state = position(2, rooms=["Unnamed room 1", "Unnamed room 2", "Unnamed room 3", "Unnamed room 5"],
                     hands=[{"Highlord": 1, "Valeel": 1, "Doctor": 1}, {}], lands=[lands, []])  # fmt: skip
    assert state.points(0) == 9
    act(state, "develop Unnamed room 4 with Doctor, Highlord, Valeel")  # 8 seals = level 8
    assert state.points(0) == 10
    finish_discards(state)
    assert state.is_terminal and state.outcome().winners == (0,)


# --- 2-3 aggression -------------------------------------------------------------------------------


def test_e14_no_aggression_on_oneself_or_on_an_unclaimed_room():
    """ "The Aggressor selects another player to attack." / "Aggression Cards are used to attack and steal lands
    already owned by other kingdoms" """
    state = position(2, hands=[{"Gotcha!": 1, "Executioner": 1}, {}],
                     lands=[["Unnamed room 9"], ["Unnamed room 10"]])  # fmt: skip
    refused(state, "attack P1 Unnamed room 9 with Executioner by Gotcha!")
    refused(state, "attack P2 Unnamed room 1 with Executioner by Gotcha!")
    assert {a for a in legal(state) if a.startswith("attack")} == {
        "attack P2 Unnamed room 10 with Executioner by Gotcha!"
    }


def test_e15_the_council_chamber_must_be_in_the_attackers_own_kingdom():
    """ "b. Discard the "Council Chamber" card (this land must already be in that player's kingdom)." """
    state = position(2, hands=[{"Executioner": 1}, {}], lands=[["Unnamed room 9"], ["Nest of the Ogrekin"]])
    refused(state, "attack P2 Nest of the Ogrekin with Executioner by Council Chamber")
    assert not any(a.startswith("attack") for a in legal(state))


def test_e16_both_sides_cards_and_the_gotcha_are_discarded_in_the_turn_players_order():
    """ "All characters and items used are discarded regardless of success or failure." / "the order that they
    are placed on the discard pile is decided by the player whose turn it currently is" """
    state = position(2, hands=[{"Gotcha!": 1, "Executioner": 1}, {"Bee": 1, "Sword": 1, "Cook": 1}],
                     lands=[["Graveyard of the Vampire"], ["Unnamed room 9"]])  # fmt: skip
    act(state, "attack P2 Unnamed room 9 with Executioner by Gotcha!", "defend with Bee, Sword")
    roll(state, 1, 6)  # 4 against 9: the defender holds
    assert state.decision == "discard order" and state.current_player == 0
    assert {"discard Bee", "discard Sword"} <= legal(state)
    for card in ("Executioner", "Gotcha!", "Bee"):
        act(state, f"discard {card}")
    finish_discards(state)
    assert list(state.discard_pile()) == ["Executioner", "Gotcha!", "Bee", "Sword"]
    assert state.hand(0) == {} and state.hand(1) == {"Cook": 1}


def test_e17_no_hospital_after_a_failed_aggression():
    """Hospital: "If you fail a Quest, you may select one of the defeated characters and return it to your
    hand." — a Quest, not an Aggression."""
    state = position(2, hands=[{"Gotcha!": 1, "Bee": 1}, {}],
                     lands=[["Altar of the Nightingale"], ["Unnamed room 9"]])  # fmt: skip
    act(state, "attack P2 Unnamed room 9 with Bee by Gotcha!", "defend")
    roll(state, 1, 6)
    finish_discards(state)
    assert state.decision != "hospital" and "Bee" in state.discard_pile()


def test_e18_the_casino_counts_the_attackers_six():
    """Casino: "Any time that you roll a "6" on the die, you may take an additional Kingdom card" """
    state = position(2, hands=[{"Gotcha!": 1, "Bee": 1}, {}],
                     lands=[["Room of the Money Eater"], ["Unnamed room 9"]])  # fmt: skip
    act(state, "attack P2 Unnamed room 9 with Bee by Gotcha!", "defend")
    roll(state, 6, 1)
    finish_discards(state)
    assert state.decision == "casino" and state.current_player == 0
    act(state, "draw")
    draw(state, "Cook")
    assert state.hand(0) == {"Cook": 1}


def test_e19_the_casino_is_a_may():
    """Casino: "you may take an additional Kingdom card" """
    state = position(2, hands=[{"Bee": 1}, {}], lands=[["Room of the Money Eater"], []])
    act(state, "quest Unnamed room 1 with Bee")
    roll(state, 6)
    assert state.decision == "casino" and "pass" in legal(state)
    act(state, "pass")
    assert state.hand(0) == {} and state.kingdom(0)[-1] == ("Unnamed room 1", False)


def test_e20_the_blacksmith_counts_for_its_owner_defending():
    """Blacksmith: "Whenever you use a "Sword" item card, you add +1 to the total swords." (a defender "can
    allocate as many characters and items")"""
    state = position(2, hands=[{"Gotcha!": 1, "Executioner": 1}, {"Bee": 1, "Sword": 1}],
                     lands=[[], ["Workshop of the Dwarves", "Unnamed room 9"]])  # fmt: skip
    act(state, "attack P2 Unnamed room 9 with Executioner by Gotcha!", "defend with Bee, Sword")
    assert state.context()["defence"] == 1 + 1 + 1


def test_e21_the_defender_plays_no_map_and_no_mixed_area_on_the_attackers_turn():
    """ "Unless the card says otherwise, players can only use these cards on their own turn." / Mixed Area: "On
    your turn you may discard this land." """
    state = position(2, hands=[{"Gotcha!": 1, "Executioner": 1}, {"Map": 1, "Bee": 1}],
                     lands=[[], ["Tunnel of the Valaraukar", "Unnamed room 9"]])  # fmt: skip
    act(state, "attack P2 Unnamed room 9 with Executioner by Gotcha!")
    assert state.decision == "defend" and state.current_player == 1
    assert not any(a.startswith(("map", "mixed area")) for a in legal(state))


def test_e22_a_laboratory_item_is_the_attackers_character():
    """Laboratory: "You may play one item card as if it were a character with the abilities 2 swords / 0 seals."
    / "The attacking player must play at least one character card in order to attack" """
    state = position(2, hands=[{"Gotcha!": 1, "Sword": 1}, {}],
                     lands=[["Storehouse of the Demonic Steel"], ["Unnamed room 9"]])  # fmt: skip
    act(state, "attack P2 Unnamed room 9 with Sword as character by Gotcha!", "defend")
    roll(state, 3, 4)  # 5 against 4
    finish_discards(state)
    assert ("Unnamed room 9", False) in state.kingdom(0)


# --- items ----------------------------------------------------------------------------------------


def test_e23_the_laboratory_turns_one_item_only():
    """Laboratory: "You may play one item card as if it were a character" """
    state = position(2, hands=[{"Sword": 1, "Map": 1}, {}], lands=[["Storehouse of the Demonic Steel"], []])
    refused(state, "quest Unnamed room 4 with Sword as character, Map as character")


def test_e24_a_grimoire_raises_one_character_only():
    """Grimoire: "Choose one Character card: its swords increase by the amount of its seals." """
    state = position(2, hands=[{"Highlord": 1, "Valeel": 1, "Grimoire": 1}, {}])
    act(state, "quest Unnamed room 4 with Grimoire, Highlord, Valeel")
    assert state.context()["swords"] == 1 + 0 + 3


def test_e25_the_map_lowers_only_the_new_room():
    """Map: "this single new Land's Quest Level is reduced by two points." """
    state = position(2, hands=[{"Map": 1, "Bee": 1}, {}], meikyu_pile=["Unnamed room 9"])
    act(state, "map")
    reveal(state, "Unnamed room 9")
    act(state, "quest Unnamed room 1 with Bee")  # level 4, not 2
    roll(state, 2)
    assert state.kingdom(0) == () and "Unnamed room 1" in state.rooms()


def test_e26_no_map_with_an_empty_meikyu_pile():
    """Map: "Draw one extra (fifth) area from the Meikyu card pile" — nothing to draw."""
    state = position(2, hands=[{"Map": 1, "Bee": 1}, {}], meikyu_pile=[])
    assert "map" not in legal(state)


def test_e27_a_third_players_amulet_rerolls_the_quest_die():
    """Amulet: "You may play it when anyone has just rolled a die. That person rerolls their die." """
    state = position(3, hands=[{"Bee": 1}, {}, {"Amulet": 1}])
    act(state, "quest Unnamed room 1 with Bee")
    roll(state, 6)
    assert state.decision == "amulet" and state.current_player == 2
    act(state, "amulet")
    roll(state, 1)  # 2 < 4
    settle(state)
    assert state.kingdom(0) == () and "Amulet" in state.discard_pile() and state.hand(2) == {}


# --- lands ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("action", "extra"), [("quest Unnamed room 4 with Bee", 0),
                                               ("attack P2 Unnamed room 9 with Bee, Cook by Gotcha!", 0)])  # fmt: skip
def test_e28_the_fortress_wants_two_characters_on_a_quest(action, extra):
    """Fortress: "When two or more characters embark on a quest together, you may add +2 to the sum of their
    swords." — one character: no +2; an aggression is no quest."""
    state = position(2, hands=[{"Gotcha!": 1, "Bee": 1, "Cook": 1}, {}],
                     lands=[["Dojo of the Rust Samurai"], ["Unnamed room 9"]])  # fmt: skip
    act(state, action)
    used = action.split(" with ")[1].split(" by ")[0].count(",") + 1
    assert state.context()["swords"] == used + extra


def test_e29_hot_springs_draws_into_an_empty_hand():
    """Hot Springs: "If you have no Kingdom Cards at the end of your turn, you may draw a Kingdom Card from the
    Kingdom Pile." """
    state = position(2, hands=[{"Executioner": 1}, {}], lands=[["Spring of the Mayonnaise King"], []])
    act(state, "quest Unnamed room 1 with Executioner")
    roll(state, 6)
    reveal(state, "Unnamed room 5")
    assert state.decision == "hot springs"
    act(state, "draw")
    draw(state, "Cook")
    assert state.hand(0) == {"Cook": 1} and state.turn_player == 1


def test_e30_the_tomb_on_the_turns_first_draw():
    """Tomb: "When you draw from the Kingdom Pile, you may choose to pick up the topmost discarded Kingdom Card
    instead." / "1. Draw a Kingdom Card" """
    state = position(2, step="draw", hands=[{}, {}], lands=[["Graveyard of the Vampire"], []],
                     discards=["Bee", "Executioner"])  # fmt: skip
    assert state.decision == "tomb" and state.current_player == 0
    act(state, "tomb")
    assert state.hand(0) == {"Executioner": 1} and state.discard_pile() == ("Bee",)
    assert state.decision == "action"


def test_e31_the_archives_on_the_turns_first_draw():
    """Archives: "When you draw from the Kingdom Pile, draw one additional card. Choose one Kingdom Card to keep,
    and discard the unselected card." """
    state = position(2, step="draw", hands=[{}, {}], lands=[["Archives of the Dungeon Geek"], []])
    draw(state, "Bee", "Executioner")
    assert state.decision == "archives"
    act(state, "keep Bee")
    assert state.hand(0) == {"Bee": 1} and state.discard_pile() == ("Executioner",)
    assert state.decision == "action"


def test_e32_dungeon_tsunami_passes_the_castle_tower():
    """Castle Tower: "You may not discard this land. Furthermore, other players may not steal this land by using
    "Aggression"." / Dungeon Tsunami: "choose one of their Claimed Lands, and pass it" — passing is neither."""
    state = position(2, step="draw", hands=[{}, {}], lands=[["Castle of the Tyrant"], ["Unnamed room 5"]])
    draw(state, "Dungeon Tsunami")
    assert legal(state) == {"give Castle of the Tyrant"}
    act(state, "give Castle of the Tyrant", "give Unnamed room 5")
    assert state.kingdom(1) == (("Castle of the Tyrant", False),)


# --- the end of the turn and of the game ----------------------------------------------------------


def test_e33_a_hand_of_seven_discards_two():
    """ "If a player has six or more cards in her hand by the end of her turn, she must discard down to five
    cards." """
    state = position(2, hands=[{"Bee": 2, "Cook": 2, "Jehu": 2}, {}])
    act(state, "resupply")
    draw(state, "Drone")
    assert state.decision == "hand limit"
    act(state, "discard Drone")
    assert state.decision == "hand limit" and state.current_player == 0
    act(state, "discard Jehu")
    assert state.hand_size(0) == 5 and state.turn_player == 1


def test_e34_equal_points_and_equal_lands_share_the_win():
    """ "The player with the most points wins. In case of a tie, the player with the most lands in her kingdom
    wins." — still tied: the text names no single winner."""
    state = position(2, hands=[{"Executioner": 1}, {}], rooms=["Unnamed room 1"], meikyu_pile=[],
                     lands=[["Unnamed room 3"], ["Unnamed room 5", "Unnamed room 7"]])  # fmt: skip
    act(state, "quest Unnamed room 1 with Executioner")  # P1: 2 + 1 on two lands; P2: 1 + 2 on two lands
    roll(state, 3)
    assert state.is_terminal and state.outcome().winners == (0, 1)


@pytest.mark.parametrize("sixth_land", ["held", "any"])
def test_e35_the_sixth_land_discard_under_either_reading_of_existing(sixth_land):
    """ "If a player takes a sixth land into the kingdom, she must discard one of the existing lands." —
    "existing": the five held before the new one (``sixth_land=held``), or the six now in the kingdom
    (``sixth_land=any``: the land just stolen may be the one to go, so it is denied to its owner)."""
    five = ["Unnamed room 5", "Unnamed room 6", "Unnamed room 7", "Unnamed room 8", "Unnamed room 9"]
    state = position(2, rules_options={"sixth_land": sixth_land}, hands=[{"Gotcha!": 1, "Executioner": 1}, {}],
                     lands=[five, ["Unnamed room 10", "Unnamed room 11"]])  # fmt: skip
    act(state, "attack P2 Unnamed room 11 with Executioner by Gotcha!", "defend")
    roll(state, 6, 1)
    finish_discards(state)
    assert state.decision == "land limit" and state.current_player == 0
    offered = {f"discard land {land}" for land in five}
    if sixth_land == "held":
        assert legal(state) == offered
        return
    assert legal(state) == offered | {"discard land Unnamed room 11"}
    act(state, "discard land Unnamed room 11")
    assert [land for land, _ in state.kingdom(0)] == five and state.kingdom(1) == (("Unnamed room 10", False),)
    assert "Unnamed room 11" in state.meikyu_discards()


def test_e36_a_new_castle_tower_is_never_the_sixth_lands_discard():
    """Castle Tower: "You may not discard this land." — under ``sixth_land=any`` too."""
    five = ["Unnamed room 5", "Unnamed room 6", "Unnamed room 7", "Unnamed room 8", "Unnamed room 9"]
    rooms = ["Castle of the Tyrant", "Unnamed room 1", "Unnamed room 2", "Unnamed room 3"]
    state = position(2, rules_options={"sixth_land": "any"}, rooms=rooms,
                     hands=[{"Executioner": 1, "Bee": 1}, {}], lands=[five, []])  # fmt: skip
    act(state, "quest Castle of the Tyrant with Bee, Executioner")
    roll(state, 6)
    assert legal(state) == {f"discard land {land}" for land in five}


# --- more interplay -------------------------------------------------------------------------------


def test_e37_three_players_a_tie_on_points_goes_to_the_most_lands():
    """ "The player with the most points wins. In case of a tie, the player with the most lands in her kingdom
    wins." """
    state = position(3, hands=[{"Executioner": 1}, {}, {}], rooms=["Unnamed room 1"], meikyu_pile=[],
                     lands=[["Unnamed room 3"], ["Unnamed room 5", "Unnamed room 6", "Unnamed room 9"],
                            ["Unnamed room 4"]])  # fmt: skip
    act(state, "quest Unnamed room 1 with Executioner")  # P1 3 points on 2 lands, P2 3 on 3, P3 3 on 1
    roll(state, 2)
    assert state.is_terminal and state.outcome().winners == (1,)


@pytest.mark.parametrize("redeal", ["each", "together"])
def test_e38_two_players_dealt_open_cards_both_draw_anew(redeal):
    """ "If one of the players starts out with one of the special-action "OPEN" cards, that person will return
    all their cards to the pile and draw four new cards, shuffling the remaining cards." — the text speaks of
    one person; with two, one at a time (``redeal=each``: the second still holds her deal while the first draws)
    or both hands back to the pile before either draws (``redeal=together``)."""
    state = rules(2, redeal=redeal).new_initial_state(0)
    reveal(state, *ROOMS4)
    draw(state, "Bee", "Refugee", "Cook", "Jehu")
    draw(state, "Dungeon Storm", "Valeel", "Doctor", "Master")
    assert state.hand_size(0) == 0
    assert state.hand_size(1) == (4 if redeal == "each" else 0)
    assert state.kingdom_pile()["Refugee"] == 1
    assert state.kingdom_pile().get("Dungeon Storm", 0) == (0 if redeal == "each" else 1)
    draw(state, "Executioner", "Warzard", "Producer", "Vulcanus", "Sword", "Map", "Grimoire", "Amulet")
    assert state.hand(0) == {"Executioner": 1, "Warzard": 1, "Producer": 1, "Vulcanus": 1}
    assert state.hand(1) == {"Sword": 1, "Map": 1, "Grimoire": 1, "Amulet": 1}
    assert state.kingdom_pile()["Refugee"] == 1 and state.kingdom_pile()["Dungeon Storm"] == 1
    assert state.decision == "chance" and state.turns == 0  # the first-player rolls


def test_e39_dungeon_tsunami_in_four_with_a_landless_player_between():
    """Dungeon Tsunami: "All players must choose one of their Claimed Lands, and pass it to the player on their
    left. The person who draws this card goes first. ... If a player has no Claimed Lands at the time this card
    is initially activated, they do not have to pass a land." """
    state = position(4, step="draw", hands=[{}, {}, {}, {}],
                     lands=[["Unnamed room 5"], [], ["Unnamed room 6"], ["Unnamed room 7"]])  # fmt: skip
    draw(state, "Dungeon Tsunami")
    act(state, "give Unnamed room 5")
    assert state.current_player == 2  # P2 had no land when it was played: it passes nothing
    act(state, "give Unnamed room 6", "give Unnamed room 7")
    assert [state.kingdom(s) for s in range(4)] == [
        (("Unnamed room 7", False),),
        (("Unnamed room 5", False),),
        (),
        (("Unnamed room 6", False),),
    ]


def test_e40_dungeon_tsunami_passes_a_land_held_when_it_was_played():
    """Dungeon Tsunami: "All players must choose one of their Claimed Lands" — at once, so a land received in
    the same Tsunami is not passed on."""
    state = position(2, step="draw", hands=[{}, {}], lands=[["Unnamed room 5"], ["Unnamed room 6"]])
    draw(state, "Dungeon Tsunami")
    act(state, "give Unnamed room 5")
    assert legal(state) == {"give Unnamed room 6"}


def test_e41_the_laboratory_item_is_a_second_character_for_the_fortress():
    """Laboratory: "as if it were a character" / Fortress: "When two or more characters embark on a quest
    together, you may add +2" """
    state = position(2, hands=[{"Bee": 1, "Map": 1}, {}],
                     lands=[["Storehouse of the Demonic Steel", "Dojo of the Rust Samurai"], []])  # fmt: skip
    act(state, "quest Unnamed room 4 with Bee, Map as character")
    assert state.context()["swords"] == 1 + 2 + 2


def test_e42_a_developed_harem_lets_three_seals_develop_the_marketplace_which_draws():
    """Harem: "the cost to Develop any land in the future is reduced by one" / Marketplace: "When this land is
    developed, you immediately draw one Kingdom card into your hand." """
    state = position(2, hands=[{"Valeel": 1}, {}], lands=[[("Mansion of the Lamia", True), "Den of the Geister"], []])
    act(state, "develop Den of the Geister with Valeel")  # 3 seals against 4 - 1
    assert ("Den of the Geister", True) in state.kingdom(0)
    draw(state, "Cook")
    assert state.hand(0) == {"Cook": 1}


def test_e43_the_council_chamber_leaves_the_kingdom_for_the_meikyu_discards():
    """Council Chamber: "you may perform an "Aggression" on another player by discarding this land." """
    state = position(2, hands=[{"Executioner": 1}, {}], lands=[["Nest of the Ogrekin"], ["Unnamed room 9"]])
    act(state, "attack P2 Unnamed room 9 with Executioner by Council Chamber", "defend")
    roll(state, 1, 6)  # the aggression fails: the Council Chamber is spent all the same
    assert state.kingdom(0) == () and "Nest of the Ogrekin" in state.meikyu_discards()
    assert state.kingdom(1) == (("Unnamed room 9", False),)


def test_e44_a_rerolled_die_can_be_rerolled_again_by_another_amulet():
    """Amulet: "You may play it when anyone has just rolled a die. That person rerolls their die." — a reroll
    is a die just rolled."""
    state = position(3, hands=[{"Bee": 1}, {"Amulet": 1}, {"Amulet": 1}])
    act(state, "quest Unnamed room 1 with Bee")
    roll(state, 6)
    assert state.decision == "amulet" and state.current_player == 1
    act(state, "amulet")
    roll(state, 1)
    assert state.decision == "amulet" and state.current_player == 2
    act(state, "amulet")
    roll(state, 3)  # 4 = 4
    settle(state)
    assert state.kingdom(0) == (("Unnamed room 1", False),)
