"""Third blind examination of Meikyu Kingdom: each case comes from one sentence of the rulebook
(quoted in its docstring), written from the rulebook and the public API only, then checked
against docs/rules/meikyu.md. Values of characters and lands are the default profile's
(assumed where the rulebook gives none); each case picks them so that only the rule decides."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from cardbase.games.base import CHANCE, GameError, InvalidRules
from cardbase.games.meikyu.actions import Roll
from cardbase.games.meikyu.engine import MeikyuRules, MeikyuState
from tests.meikyu.helpers import act, default_pool, draw, position, reveal, roll, rules

R1, R2, R3, R4 = "Unnamed room 1", "Unnamed room 2", "Unnamed room 3", "Unnamed room 4"  # levels 4 5 6 8
R5, R6, R7, R8 = "Unnamed room 5", "Unnamed room 6", "Unnamed room 7", "Unnamed room 8"  # levels 4 5 6 7
R9, R12, R15, R16 = "Unnamed room 9", "Unnamed room 12", "Unnamed room 15", "Unnamed room 16"  # 4 8 9 10


def legal(state: MeikyuState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def refused(state: MeikyuState, text: str) -> bool:
    """Whether ``text`` is not a legal action now (refused when parsed or applied)."""
    try:
        action = state.parse_action(text)
        state.clone().apply(action)
    except GameError:
        return True
    return False


def answer(state: MeikyuState, *texts: str) -> None:
    """Apply each text at the next decision of a player (chance in between is an error)."""
    for text in texts:
        assert state.current_player != CHANCE, f"chance pending before {text!r}"
        act(state, text)


def order_discards(state: MeikyuState) -> None:
    """Answer discard-order questions the plain way (first listed)."""
    while state.current_player != CHANCE and state.decision == "discard order":
        state.apply(state.legal_actions()[0])


def end_turn(state: MeikyuState) -> None:
    """Finish the turn whose action is done the plain way (chance sampled, optional effects passed,
    first choice otherwise) until the next player's action or the game's end."""
    while not state.is_terminal and state.decision != "action":
        if state.current_player == CHANCE:
            state.apply(state.sample_chance())
        else:
            words = {str(a): a for a in state.legal_actions()}
            state.apply(words.get("pass") or words.get("draw") or state.legal_actions()[0])


def deal_through(state: MeikyuState, picks: Iterable[str] = ()) -> None:
    """Run chance (and plain answers) until the first turn's action; ``picks`` are chance
    outcomes to use first, in order ("roll 3", "draw Bee")."""
    queue = list(picks)
    while state.decision != "action":
        if state.current_player == CHANCE:
            if queue:
                act(state, queue.pop(0))
            else:
                state.apply(state.sample_chance())
        else:
            words = {str(a): a for a in state.legal_actions()}
            state.apply(words.get("pass") or state.legal_actions()[0])


# --- setting up --------------------------------------------------------------------


def test_full_set_counts() -> None:
    """ "32 Meikyu cards (lands)", "68 Kingdom cards" of 42 characters, 18 items, 4 Aggression, 4 Open."""
    pool = default_pool()
    assert pool.land_count == 32
    assert pool.kingdom_count == 68
    assert (pool.count("character"), pool.count("item"), pool.count("aggression"), pool.count("open")) == (
        42,
        18,
        4,
        4,
    )


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_four_rooms_and_four_cards_each(players: int) -> None:
    """ "draw the top 4 Meikyu Cards, turning them face up"; "deal 4 Kingdom Cards to each player";
    then the first turn starts by drawing one card."""
    state = rules(players).new_initial_state(seed=7)
    deal_through(state)
    first = state.turn_player
    assert len(state.rooms()) == 4
    assert state.meikyu_pile_size() == 28
    assert [state.hand_size(s) for s in range(players)] == [5 if s == first else 4 for s in range(players)]
    assert sum(state.kingdom_pile().values()) == 68 - 4 * players - 1


@pytest.mark.parametrize("seed", range(12))
def test_setup_no_open_card_stays_in_a_dealt_hand(seed: int) -> None:
    """ "If one of the players starts out with one of the special-action "OPEN" cards, that person will
    return all their cards to the pile and draw four new cards"."""
    state = rules(5).new_initial_state(seed=seed)
    deal_through(state)
    opens = {"Refugee", "Dungeon Storm", "Dungeon Tsunami", "Unknown OPEN card"}
    for seat in range(5):
        assert not opens & set(state.hand(seat))


def test_setup_open_card_dealt_is_returned_and_redrawn() -> None:
    """The deal's OPEN card goes back to the pile: the dealt player ends with four plain cards."""
    state = rules(2).new_initial_state(seed=3)
    picks = [f"reveal {r}" for r in (R1, R2, R3, R4)]
    picks += ["draw Refugee", "draw Bee", "draw Cook", "draw Jehu"]  # P1's deal
    deal_through(state, picks)
    assert "Refugee" not in state.hand(0)
    assert state.refugees(0) == 0
    assert state.hand_size(0) + state.hand_size(1) == 9
    assert sum(state.kingdom_pile().values()) + 9 == 68


def test_setup_highest_roll_goes_first() -> None:
    """ "Each player rolls the die. The player with the highest roll goes first."""
    for rolls, first in (((2, 5), 1), ((6, 1), 0)):
        state = rules(2).new_initial_state(seed=5)
        while not (state.current_player == CHANCE and isinstance(state.chance_outcomes()[0][0], Roll)):
            if state.current_player == CHANCE:
                state.apply(state.sample_chance())
            else:
                state.apply(state.legal_actions()[0])
        roll(state, *rolls)
        deal_through(state)
        assert state.turn_player == first


def test_setup_play_is_clockwise_from_first() -> None:
    """ "The play will proceed in a clockwise order": seat after seat from the first player."""
    state = position(3, turn=1, hands=[{"Bee": 1}, {"Cook": 1}, {"Jehu": 1}])
    seen = []
    for _ in range(4):
        seen.append(state.turn_player)
        answer(state, "resupply")
        end_turn(state)
    assert seen == [1, 2, 0, 1]


@pytest.mark.parametrize("players", [1, 6])
def test_player_count_bounds(players: int) -> None:
    """The game is for several players (2 to 5 in this project); one or six is refused by name."""
    with pytest.raises(InvalidRules, match="2 to 5"):
        MeikyuRules(default_pool(), players=players)


# --- turn structure ---------------------------------------------------------------


def test_turn_starts_by_drawing_one_card() -> None:
    """ "1. Draw a Kingdom Card — The player takes one card from the Kingdom Pile."""
    state = position(hands=[{"Bee": 1}, {"Cook": 1}], step="draw")
    pile = sum(state.kingdom_pile().values())
    assert state.current_player == CHANCE
    draw(state, "Jehu")
    assert state.hand(0) == {"Bee": 1, "Jehu": 1}
    assert sum(state.kingdom_pile().values()) == pile - 1
    assert state.decision == "action" and state.current_player == 0


def test_only_one_action_per_turn() -> None:
    """ "The player can only perform one of the following four actions": after a quest the turn goes on
    to the next player."""
    state = position(hands=[{"Bee": 2}, {"Cook": 1}])
    answer(state, f"quest {R1} with Bee")
    roll(state, 3)
    order_discards(state)
    end_turn(state)
    assert state.turn_player == 1
    assert state.hand(0) == {"Bee": 1}


def test_resupply_draws_one_card() -> None:
    """ "2-4 Resupply — The player draws one more card from the Kingdom pile."""
    state = position(hands=[{"Bee": 1, "Cook": 1}, {"Jehu": 1}])
    answer(state, "resupply")
    assert state.current_player == CHANCE
    draw(state, "Drone")
    assert state.hand(0) == {"Bee": 1, "Cook": 1, "Drone": 1}


def test_hand_of_six_discards_to_five() -> None:
    """ "If a player has six or more cards in her hand by the end of her turn, she must discard down to
    five cards."""
    state = position(hands=[{"Bee": 2, "Cook": 3}, {"Jehu": 1}])
    answer(state, "resupply")
    draw(state, "Drone")
    assert state.decision == "hand limit" and state.current_player == 0
    answer(state, "discard Drone")
    assert state.hand_size(0) == 5
    assert state.discard_pile()[-1] == "Drone"


def test_hand_of_seven_discards_two() -> None:
    """ "six or more ... discard down to five": a hand of 7 loses two."""
    state = position(hands=[{"Bee": 2, "Cook": 2, "Jehu": 2}, {"Drone": 1}])
    answer(state, "resupply")
    draw(state, "Master")
    answer(state, "discard Master", "discard Jehu")
    assert state.hand_size(0) == 5
    assert state.decision != "hand limit"


def test_hand_of_five_keeps_all() -> None:
    """ "(if player has more than 5 cards in her hand)": five is kept."""
    state = position(hands=[{"Bee": 2, "Cook": 2}, {"Jehu": 1}])
    answer(state, "resupply")
    draw(state, "Drone")
    assert state.decision != "hand limit"
    end_turn(state)
    assert state.hand_size(0) == 5 and state.turn_player == 1


def test_rooms_refilled_to_four_after_a_claim() -> None:
    """ "If there are three or less face-up Meikyu cards ... placed face-up until there are four"."""
    state = position(hands=[{"Executioner": 1}, {"Cook": 1}])
    answer(state, f"quest {R1} with Executioner")
    roll(state, 1)
    order_discards(state)
    assert state.current_player == CHANCE
    reveal(state, R5)
    assert sorted(state.rooms()) == sorted([R2, R3, R4, R5])


def test_rooms_not_refilled_after_a_failed_quest() -> None:
    """Step 4 draws only when three or fewer rooms are face up: a failed quest leaves four."""
    state = position(hands=[{"Bee": 1}, {"Cook": 1}])
    pile = state.meikyu_pile_size()
    answer(state, f"quest {R1} with Bee")
    roll(state, 1)
    order_discards(state)
    end_turn(state)
    assert state.rooms() == (R1, R2, R3, R4)
    assert state.meikyu_pile_size() == pile


# --- quest -------------------------------------------------------------------------


def test_quest_total_equal_to_level_succeeds() -> None:
    """ "If this new total is equal to or higher than the room's Quest Level, then the quest succeeds"."""
    state = position(hands=[{"Bee": 1}, {"Cook": 1}])
    answer(state, f"quest {R1} with Bee")
    roll(state, 3)  # 1 + 3 = 4 = level
    order_discards(state)
    assert state.kingdom(0) == ((R1, False),)
    assert state.points(0) == 1


def test_quest_total_below_level_fails_and_cards_are_discarded() -> None:
    """ "If the total is less than the room's Quest Level, then the quest failed. In either case, all
    characters and item cards are discarded."""
    state = position(hands=[{"Bee": 1, "Sword": 1}, {"Cook": 1}])
    answer(state, f"quest {R2} with Bee, Sword")
    roll(state, 2)  # 1 + 1 + 2 = 4 < 5
    order_discards(state)
    assert state.kingdom(0) == ()
    assert R2 in state.rooms()
    assert sorted(state.discard_pile()) == ["Bee", "Sword"]
    assert state.hand(0) == {}


def test_quest_sums_several_characters_and_a_sword() -> None:
    """ "uses as many characters and items as she wishes, adding up the total of swords"; the Sword
    "add +1 sword to a single character"."""
    state = position(hands=[{"Bee": 1, "Daedalist": 1, "Sword": 1}, {"Cook": 1}])
    answer(state, f"quest {R4} with Bee, Daedalist, Sword")
    roll(state, 4)  # 1 + 2 + 1 + 4 = 8
    order_discards(state)
    assert state.kingdom(0) == ((R4, False),)


def test_quest_sword_short_by_one_without_it() -> None:
    """The Sword's +1 is what makes the difference: the same quest without it fails."""
    state = position(hands=[{"Bee": 1, "Daedalist": 1, "Sword": 1}, {"Cook": 1}])
    answer(state, f"quest {R4} with Bee, Daedalist")
    roll(state, 4)  # 7 < 8
    order_discards(state)
    assert state.kingdom(0) == ()


def test_quest_needs_a_character() -> None:
    """ "At least one character card must be used to perform a quest."""
    state = position(hands=[{"Sword": 2, "Grimoire": 1, "Bee": 1}, {"Cook": 1}])
    assert refused(state, f"quest {R1} with Sword")
    assert refused(state, f"quest {R1} with Sword, Grimoire")
    assert not refused(state, f"quest {R1} with Bee, Sword")


def test_quest_only_a_face_up_room() -> None:
    """ "The player chooses one of the face-up Meikyu Card rooms"."""
    state = position(hands=[{"Bee": 1}, {"Cook": 1}])
    assert refused(state, f"quest {R5} with Bee")


def test_quest_cards_must_be_in_hand() -> None:
    """The cards used come from the player's hand."""
    state = position(hands=[{"Bee": 1}, {"Cook": 1}])
    assert refused(state, f"quest {R1} with Cook")


def test_sixth_land_forces_a_discard_of_an_existing_land() -> None:
    """ "The maximum number of owned lands a kingdom can have is five. If a player takes a sixth land
    into the kingdom, she must discard one of the existing lands."""
    lands = [R5, R6, R7, R8, R9]
    state = position(hands=[{"Executioner": 1}, {"Cook": 1}], lands=[lands, []])
    answer(state, f"quest {R1} with Executioner")
    roll(state, 1)
    order_discards(state)
    assert state.decision == "land limit" and state.current_player == 0
    choices = legal(state)
    assert f"discard land {R5}" in choices
    answer(state, f"discard land {R7}")
    assert sorted(n for n, _ in state.kingdom(0)) == sorted([R1, R5, R6, R8, R9])
    assert state.land_count(0) == 5


def test_castle_tower_never_discarded_at_the_land_limit() -> None:
    """Castle Tower: "You may not discard this land."""
    lands = ["Castle of the Tyrant", R5, R6, R7, R8]
    state = position(hands=[{"Executioner": 1}, {"Cook": 1}], lands=[lands, []])
    answer(state, f"quest {R1} with Executioner")
    roll(state, 1)
    order_discards(state)
    assert state.decision == "land limit"
    assert "discard land Castle of the Tyrant" not in legal(state)
    assert refused(state, "discard land Castle of the Tyrant")


# --- development ------------------------------------------------------------------


def test_develop_with_wits_equal_to_level() -> None:
    """ "the total of the character's Wits (seals) must equal or exceed the Quest Level ... If a room is
    developed, turn it sideways. The Developed Point Total becomes this room's new Point Total."""
    state = position(hands=[{"Highlord": 1, "Bee": 1}, {"Cook": 1}], lands=[[R5], []])
    assert state.points(0) == 1
    answer(state, f"develop {R5} with Bee, Highlord")  # 3 + 1 = 4
    order_discards(state)
    assert state.kingdom(0) == ((R5, True),)
    assert state.points(0) == 2


def test_develop_rolls_no_die() -> None:
    """ "No dice are rolled."""
    state = position(hands=[{"Highlord": 1, "Bee": 1}, {"Cook": 1}], lands=[[R5], []])
    answer(state, f"develop {R5} with Bee, Highlord")
    order_discards(state)
    outcomes = state.chance_outcomes() or []
    assert not any(str(a).startswith("roll") for a, _ in outcomes)


def test_develop_short_of_level_does_not_develop() -> None:
    """ "To succeed, the total ... must equal or exceed": 3 seals do not develop a level-4 land, and
    the cards used are discarded all the same ("whether the action was successful or not")."""
    state = position(hands=[{"Highlord": 1}, {"Cook": 1}], lands=[[R5], []])
    answer(state, f"develop {R5} with Highlord")
    order_discards(state)
    assert state.kingdom(0) == ((R5, False),)
    assert "Highlord" in state.discard_pile()


def test_develop_spends_character_cards_only() -> None:
    """ "The player spends any number of character cards": no item in a development."""
    state = position(hands=[{"Highlord": 1, "Sword": 1, "Grimoire": 1}, {"Cook": 1}], lands=[[R5], []])
    assert refused(state, f"develop {R5} with Highlord, Sword")
    assert refused(state, f"develop {R5} with Grimoire, Highlord")


def test_develop_only_own_land() -> None:
    """ "develop one's own land": a face-up room or an opponent's land is not developed."""
    state = position(hands=[{"Highlord": 2}, {"Cook": 1}], lands=[[], [R5]])
    assert refused(state, f"develop {R5} with Highlord, Highlord")
    assert refused(state, f"develop {R1} with Highlord, Highlord")


# --- aggression -------------------------------------------------------------------


def test_aggression_needs_gotcha_or_council_chamber() -> None:
    """ "The player who wants to perform an Aggression action must do one of the following: a. Play a
    "Gotcha!" card. b. Discard the "Council Chamber" card"."""
    state = position(hands=[{"Executioner": 1}, {"Cook": 1}], lands=[[], [R5]])
    assert not any(a.startswith("attack") for a in legal(state))
    assert refused(state, f"attack P2 {R5} with Executioner by Gotcha!")


def test_aggression_only_on_another_player() -> None:
    """ "The Aggressor selects another player to attack."""
    state = position(hands=[{"Executioner": 1, "Gotcha!": 1}, {"Cook": 1}], lands=[[R6], [R5]])
    assert refused(state, f"attack P1 {R6} with Executioner by Gotcha!")
    assert not refused(state, f"attack P2 {R5} with Executioner by Gotcha!")


def test_attack_needs_a_character() -> None:
    """ "The attacking player must play at least one character card in order to attack"."""
    state = position(hands=[{"Sword": 1, "Gotcha!": 1, "Bee": 1}, {"Cook": 1}], lands=[[], [R5]])
    assert refused(state, f"attack P2 {R5} with Sword by Gotcha!")


def test_attack_tie_goes_to_defender() -> None:
    """ "The attacking player's total must be higher than the defender's total in order to succeed.
    Ties go to the defender."""
    state = position(hands=[{"Bee": 1, "Gotcha!": 1}, {"Cook": 1}], lands=[[], [R5]])
    answer(state, f"attack P2 {R5} with Bee by Gotcha!", "defend")
    roll(state, 3, 4)  # 1 + 3 = 4 against 4
    order_discards(state)
    assert state.kingdom(1) == ((R5, False),)
    assert state.kingdom(0) == ()


def test_attack_higher_wins_and_developed_land_turns_back() -> None:
    """ "If the attacker wins, the land changes hands ... If the land was Developed, then the land
    returns to its non-developed state when the attacker claims it."""
    state = position(hands=[{"Bee": 1, "Gotcha!": 1}, {"Cook": 1}], lands=[[], [(R5, True)]])
    answer(state, f"attack P2 {R5} with Bee by Gotcha!", "defend")
    roll(state, 4, 4)  # 5 against 4
    order_discards(state)
    assert state.kingdom(0) == ((R5, False),)
    assert state.kingdom(1) == ()


def test_defender_without_cards_uses_the_die() -> None:
    """ "the defending player can defend without playing a character: she simply rolls the die and uses
    that as the sword total."""
    state = position(hands=[{"Bee": 1, "Gotcha!": 1}, {"Cook": 1}], lands=[[], [R5]])
    answer(state, f"attack P2 {R5} with Bee by Gotcha!")
    assert state.decision == "defend" and state.current_player == 1
    assert "defend" in legal(state)
    answer(state, "defend")
    roll(state, 1, 3)  # 2 against 3
    order_discards(state)
    assert state.kingdom(1) == ((R5, False),)


def test_defender_cards_and_items_count_and_are_discarded() -> None:
    """ "the defender can allocate as many characters and items she wants ... All characters and items
    used are discarded regardless of success or failure."""
    state = position(hands=[{"Executioner": 1, "Gotcha!": 1}, {"Cook": 1, "Sword": 1, "Jehu": 1}], lands=[[], [R5]])
    answer(state, f"attack P2 {R5} with Executioner by Gotcha!", "defend with Cook, Sword")
    roll(state, 3, 3)  # 6 against 1 + 1 + 3 = 5: attacker wins
    order_discards(state)
    assert state.kingdom(0) == ((R5, False),)
    assert state.hand(1) == {"Jehu": 1}
    assert sorted(state.discard_pile()) == sorted(["Cook", "Executioner", "Gotcha!", "Sword"])


def test_defender_sword_can_hold_the_land() -> None:
    """The defender's item adds to her total: Cook + Sword + 2 = 4 holds against Bee + 3 = 4."""
    state = position(hands=[{"Bee": 1, "Gotcha!": 1}, {"Cook": 1, "Sword": 1}], lands=[[], [R5]])
    answer(state, f"attack P2 {R5} with Bee by Gotcha!", "defend with Cook, Sword")
    roll(state, 3, 2)
    order_discards(state)
    assert state.kingdom(1) == ((R5, False),)


def test_attack_by_council_chamber_discards_it() -> None:
    """ "b. Discard the "Council Chamber" card (this land must already be in that player's kingdom)."""
    state = position(hands=[{"Executioner": 1}, {"Cook": 1}], lands=[["Nest of the Ogrekin", R6], [R5]])
    answer(state, f"attack P2 {R5} with Executioner by Council Chamber", "defend")
    roll(state, 3, 1)
    order_discards(state)
    names = sorted(n for n, _ in state.kingdom(0))
    assert names == sorted([R5, R6])
    assert "Nest of the Ogrekin" not in state.rooms()


def test_council_chamber_must_be_owned() -> None:
    """The Council Chamber must already be in the attacker's kingdom."""
    state = position(hands=[{"Executioner": 1}, {"Cook": 1}], lands=[[R6], ["Nest of the Ogrekin", R5]])
    assert refused(state, f"attack P2 {R5} with Executioner by Council Chamber")


def test_castle_tower_cannot_be_stolen() -> None:
    """Castle Tower: "other players may not steal this land by using "Aggression"."""
    state = position(hands=[{"Executioner": 1, "Gotcha!": 1}, {"Cook": 1}], lands=[[], ["Castle of the Tyrant", R5]])
    assert refused(state, "attack P2 Castle of the Tyrant with Executioner by Gotcha!")
    assert not refused(state, f"attack P2 {R5} with Executioner by Gotcha!")


def test_attack_sword_adds_to_attacker() -> None:
    """Sword: "During Land Quests or Aggression actions, add +1 sword to a single character."""
    state = position(hands=[{"Bee": 1, "Sword": 1, "Gotcha!": 1}, {"Cook": 1}], lands=[[], [R5]])
    answer(state, f"attack P2 {R5} with Bee, Sword by Gotcha!", "defend")
    roll(state, 3, 4)  # 5 against 4
    order_discards(state)
    assert state.kingdom(0) == ((R5, False),)


# --- discard pile order and the Tomb -------------------------------------------------


def test_discard_order_is_decided_by_the_turn_player() -> None:
    """ "the order that they are placed on the discard pile is decided by the player whose turn it
    currently is."""
    state = position(
        hands=[{"Executioner": 1, "Gotcha!": 1}, {"Cook": 1, "Sword": 1}],
        lands=[["Graveyard of the Vampire"], [R5]],
    )
    answer(state, f"attack P2 {R5} with Executioner by Gotcha!", "defend with Cook, Sword")
    roll(state, 3, 3)
    asked = 0
    while state.current_player != CHANCE and state.decision == "discard order":
        assert state.current_player == 0
        asked += 1
        choices = legal(state)
        pick = "discard Sword" if "discard Sword" in choices else choices[0]
        answer(state, pick)
    assert asked >= 1
    assert state.discard_pile()[0] == "Sword"


def test_tomb_takes_the_top_discard_instead_of_drawing() -> None:
    """Tomb: "When you draw from the Kingdom Pile, you may choose to pick up the topmost discarded
    Kingdom Card instead."""
    state = position(
        hands=[{"Bee": 1}, {"Cook": 1}],
        lands=[["Graveyard of the Vampire"], []],
        step="draw",
        discards=["Jehu", "Sword"],
    )
    assert state.decision == "tomb" and state.current_player == 0
    answer(state, "tomb")
    assert state.hand(0) == {"Bee": 1, "Sword": 1}
    assert state.discard_pile() == ("Jehu",)


def test_tomb_may_be_declined() -> None:
    """ "you may choose": drawing from the pile stays open."""
    state = position(
        hands=[{"Bee": 1}, {"Cook": 1}], lands=[["Graveyard of the Vampire"], []], step="draw", discards=["Sword"]
    )
    answer(state, "draw")
    draw(state, "Jehu")
    assert state.hand(0) == {"Bee": 1, "Jehu": 1}
    assert state.discard_pile() == ("Sword",)


@pytest.mark.parametrize("card", ["Dungeon Storm", "Dungeon Tsunami"])
def test_tomb_can_not_take_storm_or_tsunami(card: str) -> None:
    """ "You may not use this card through the use of the "Tomb" land's special ability."""
    state = position(
        hands=[{"Bee": 1}, {"Cook": 1}], lands=[["Graveyard of the Vampire"], []], step="draw", discards=["Sword", card]
    )
    assert state.current_player == CHANCE  # no Tomb question: straight to the pile
    assert refused(state, "tomb")


def test_resupply_with_tomb_is_offered_too() -> None:
    """The Tomb works "When you draw from the Kingdom Pile": the Resupply draw too."""
    state = position(hands=[{"Bee": 1}, {"Cook": 1}], lands=[["Graveyard of the Vampire"], []], discards=["Sword"])
    answer(state, "resupply")
    assert state.decision == "tomb"
    answer(state, "tomb")
    assert state.hand(0) == {"Bee": 1, "Sword": 1}


# --- the Kingdom pile runs out ------------------------------------------------------


def test_last_card_taken_reshuffles_the_discards() -> None:
    """ "When the last card in the Kingdom Pile is taken, shuffle the discarded Kingdom Cards and
    replenish the Kingdom Pile."""
    state = position(hands=[{"Bee": 1}, {"Cook": 1}], step="draw", pile=["Jehu"], discards=["Sword", "Drone"])
    before = state.discard_pile()
    assert before[-2:] == ("Sword", "Drone")  # every other card lies under the given discards
    draw(state, "Jehu")
    assert state.discard_pile() == ()
    assert sum(state.kingdom_pile().values()) == len(before) == 68 - 3
    assert state.hand(0) == {"Bee": 1, "Jehu": 1}


# --- end of the game --------------------------------------------------------------


def test_ten_points_ends_the_game_after_the_turn() -> None:
    """ "A. The sum of all of one kingdom's lands equals ten or more" — "the game ends after the current
    player's turn"; "The player with the most points wins."""
    state = position(hands=[{"Executioner": 1}, {"Cook": 1}], lands=[[R12, R15, R4], [R5]], rooms=[R1, R2, R3, R6])  # 9
    assert state.points(0) == 9
    answer(state, f"quest {R1} with Executioner")
    roll(state, 1)
    order_discards(state)
    assert state.points(0) == 10
    end_turn(state)
    assert state.is_terminal
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,)
    assert outcome.scores[0] == 10


def test_nine_points_does_not_end_the_game() -> None:
    """Condition A needs ten: nine goes on."""
    state = position(hands=[{"Executioner": 1}, {"Cook": 1}], lands=[[R12, R15, R5, R9], []])  # 8 points
    answer(state, f"quest {R1} with Executioner")
    roll(state, 1)
    order_discards(state)
    end_turn(state)
    assert state.points(0) == 9
    assert not state.is_terminal


def test_game_end_waits_for_the_rest_of_the_turn() -> None:
    """ "the game ends after the current player's turn": the goal reached by a development, its
    Marketplace draw brings a sixth card, and step 3 still discards before the game is over."""
    lands = [("Mansion of the Lamia", True), R4, R5, R9, "Den of the Geister"]  # 3 + 3 + 1 + 1 + 1 = 9
    hand = {"Highlord": 1, "Bee": 2, "Cook": 3}
    state = position(hands=[hand, {"Jehu": 1}], lands=[lands, []], rooms=[R1, R2, R3, R6])
    assert state.points(0) == 9
    answer(state, "develop Den of the Geister with Highlord")  # 4 - 1 (Harem) = 3 seals
    order_discards(state)
    draw(state, "Drone")  # the Marketplace
    assert not state.is_terminal
    assert state.decision == "hand limit"
    answer(state, "discard Drone")
    end_turn(state)
    assert state.is_terminal
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,) and outcome.scores[0] == 10


def test_no_room_left_ends_the_game() -> None:
    """ "B. There are no more Meikyu dungeon rooms left to conquer."""
    state = position(hands=[{"Executioner": 1}, {"Cook": 1}], rooms=[R1], meikyu_pile=[], lands=[[R4], [R5]])
    answer(state, f"quest {R1} with Executioner")
    roll(state, 1)
    order_discards(state)
    end_turn(state)
    assert state.is_terminal
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,)  # 4 points against 1


def test_failed_quest_on_the_last_room_goes_on() -> None:
    """Condition B needs no room left: the last room still face up keeps the game going."""
    state = position(hands=[{"Bee": 1}, {"Cook": 1}], rooms=[R1], meikyu_pile=[])
    answer(state, f"quest {R1} with Bee")
    roll(state, 1)
    order_discards(state)
    end_turn(state)
    assert not state.is_terminal
    assert state.rooms() == (R1,)


def test_points_tie_goes_to_most_lands() -> None:
    """ "In case of a tie, the player with the most lands in her kingdom wins."""
    state = position(
        hands=[{"Executioner": 1}, {"Cook": 1}], rooms=[R1], meikyu_pile=[], lands=[[R4], [R7, R5, R9]]
    )  # P1 3 + 1 = 4 points in 2 lands; P2 2 + 1 + 1 = 4 in 3
    answer(state, f"quest {R1} with Executioner")
    roll(state, 1)
    order_discards(state)
    end_turn(state)
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.scores[0] == outcome.scores[1] == 4
    assert outcome.winners == (1,)


def test_most_points_beats_more_lands() -> None:
    """ "The player with the most points wins": lands count only in a tie."""
    state = position(
        hands=[{"Executioner": 1}, {"Cook": 1}], rooms=[R1], meikyu_pile=[], lands=[[R12], [R7, R5]]
    )  # P1 3 + 1 = 4 in 2 lands; P2 3 in 2
    answer(state, f"quest {R1} with Executioner")
    roll(state, 1)
    order_discards(state)
    end_turn(state)
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,)


# --- land effects --------------------------------------------------------------------


def test_marketplace_draws_when_developed() -> None:
    """Marketplace: "When this land is developed, you immediately draw one Kingdom card into your hand."""
    state = position(hands=[{"Highlord": 1, "Bee": 1}, {"Cook": 1}], lands=[["Den of the Geister"], []])
    answer(state, "develop Den of the Geister with Bee, Highlord")
    order_discards(state)
    assert state.current_player == CHANCE
    draw(state, "Jehu")
    assert state.hand(0) == {"Jehu": 1}


def test_undeveloped_marketplace_draws_nothing() -> None:
    """The Marketplace draws "When this land is developed", not when claimed."""
    state = position(hands=[{"Executioner": 1}, {"Cook": 1}], rooms=["Den of the Geister", R2, R3, R4])
    answer(state, "quest Den of the Geister with Executioner")
    roll(state, 1)
    order_discards(state)
    assert state.hand(0) == {}
    outcomes = state.chance_outcomes() or []
    assert all(str(a).startswith("reveal") for a, _ in outcomes)


def test_casino_six_draws_an_extra_card() -> None:
    """Casino: "Any time that you roll a "6" on the die, you may take an additional Kingdom card"."""
    state = position(hands=[{"Bee": 1}, {"Cook": 1}], lands=[["Room of the Money Eater"], []])
    answer(state, f"quest {R2} with Bee")
    roll(state, 6)
    order_discards(state)
    assert state.decision == "casino" and state.current_player == 0
    answer(state, "draw")
    draw(state, "Jehu")
    assert state.hand(0) == {"Jehu": 1}


def test_casino_five_draws_nothing() -> None:
    """Only a "6" counts."""
    state = position(hands=[{"Bee": 1}, {"Cook": 1}], lands=[["Room of the Money Eater"], []])
    answer(state, f"quest {R2} with Bee")
    roll(state, 5)
    order_discards(state)
    assert state.decision != "casino"


def test_casino_works_for_the_defender_too() -> None:
    """ "Any time that you roll a "6"": the Casino's owner defending an aggression rolls a 6."""
    state = position(hands=[{"Bee": 1, "Gotcha!": 1}, {"Cook": 1}], lands=[[], ["Room of the Money Eater", R5]])
    answer(state, f"attack P2 {R5} with Bee by Gotcha!", "defend")
    roll(state, 1, 6)
    order_discards(state)
    assert state.decision == "casino" and state.current_player == 1


def test_blacksmith_sword_adds_one_more() -> None:
    """Blacksmith: "Whenever you use a "Sword" item card, you add +1 to the total swords."""
    state = position(hands=[{"Bee": 1, "Sword": 1}, {"Cook": 1}], lands=[["Workshop of the Dwarves"], []])
    answer(state, f"quest {R2} with Bee, Sword")
    roll(state, 2)  # 1 + 1 + 1 + 2 = 5
    order_discards(state)
    assert (R2, False) in state.kingdom(0)


def test_bar_developed_gives_zero_sword_characters_one() -> None:
    """Bar: "When this land is developed, all characters with 0 swords receive a +1 sword."""
    state = position(hands=[{"Drone": 1}, {"Cook": 1}], lands=[[("Stage of the Airt Piper", True)], []])
    answer(state, f"quest {R1} with Drone")
    roll(state, 3)  # 0 + 1 + 3 = 4
    order_discards(state)
    assert (R1, False) in state.kingdom(0)


def test_bar_undeveloped_gives_nothing() -> None:
    """The Bar's +1 needs it developed."""
    state = position(hands=[{"Drone": 1}, {"Cook": 1}], lands=[["Stage of the Airt Piper"], []])
    answer(state, f"quest {R1} with Drone")
    roll(state, 3)  # 3 < 4
    order_discards(state)
    assert state.kingdom(0) == (("Stage of the Airt Piper", False),)


def test_bar_leaves_one_sword_characters_alone() -> None:
    """Only "characters with 0 swords" get the +1."""
    state = position(hands=[{"Bee": 1}, {"Cook": 1}], lands=[[("Stage of the Airt Piper", True)], []])
    answer(state, f"quest {R1} with Bee")
    roll(state, 2)  # 1 + 2 = 3 < 4
    order_discards(state)
    assert len(state.kingdom(0)) == 1


def test_mixed_area_makes_a_player_lose_a_turn() -> None:
    """Mixed Area: "On your turn you may discard this land. Select another player, and that player loses
    a turn."""
    state = position(3, hands=[{"Bee": 1}, {"Cook": 1}, {"Jehu": 1}], lands=[["Tunnel of the Valaraukar", R5], [], []])
    answer(state, "mixed area P2")
    assert [n for n, _ in state.kingdom(0)] == [R5]
    assert state.decision == "action" and state.current_player == 0
    answer(state, "resupply")
    end_turn(state)
    assert state.turn_player == 2
    answer(state, "resupply")
    end_turn(state)
    assert state.turn_player == 0


def test_mixed_area_not_on_yourself() -> None:
    """ "Select another player"."""
    state = position(3, hands=[{"Bee": 1}, {"Cook": 1}, {"Jehu": 1}], lands=[["Tunnel of the Valaraukar"], [], []])
    assert refused(state, "mixed area P1")


def test_hospital_returns_a_defeated_character_after_a_failed_quest() -> None:
    """Hospital: "If you fail a Quest, you may select one of the defeated characters and return it to your
    hand."""
    state = position(hands=[{"Bee": 1, "Cook": 1, "Sword": 1}, {"Jehu": 1}], lands=[["Altar of the Nightingale"], []])
    answer(state, f"quest {R4} with Bee, Cook, Sword")
    roll(state, 1)
    while state.decision != "hospital":
        assert state.current_player != CHANCE
        order_discards(state)
    assert "return Sword" not in legal(state)
    answer(state, "return Cook")
    assert state.hand(0) == {"Cook": 1}
    assert "Cook" not in state.discard_pile()


def test_hospital_nothing_after_a_success() -> None:
    """The Hospital works "If you fail a Quest"."""
    state = position(hands=[{"Executioner": 1}, {"Jehu": 1}], lands=[["Altar of the Nightingale"], []])
    answer(state, f"quest {R1} with Executioner")
    roll(state, 1)
    order_discards(state)
    assert state.decision != "hospital"
    assert state.hand(0) == {}


def test_farm_adds_one_point_by_default_and_a_land_slot_as_option() -> None:
    """Farm: "+1 Capacity is added to the total Capacity of all your lands (sum all lands together, then
    add +1)." Read as +1 point (``farm=points``) or a sixth land slot (``farm=lands``)."""
    as_points = position(hands=[{"Bee": 1}, {"Cook": 1}], lands=[["Forest of the Manitou", R5], []])
    assert as_points.points(0) == 1 + 1 + 1
    as_lands = position(
        hands=[{"Bee": 1}, {"Cook": 1}], lands=[["Forest of the Manitou", R5], []], rules_options={"farm": "lands"}
    )
    assert as_lands.points(0) == 2
    assert as_lands.capacity(0) == 6


def test_laboratory_item_as_a_two_sword_character() -> None:
    """Laboratory: "You may play one item card as if it were a character with the abilities 2 swords / 0
    seals." (and, as a character, it may lead the quest)."""
    lab = "Storehouse of the Demonic Steel"
    state = position(hands=[{"Map": 1}, {"Cook": 1}], lands=[[lab], []])
    answer(state, f"quest {R1} with Map as character")
    roll(state, 2)  # 2 + 2 = 4
    order_discards(state)
    assert (R1, False) in state.kingdom(0)


def test_laboratory_needed_for_item_as_character() -> None:
    """Without the Laboratory no item is played as a character."""
    state = position(hands=[{"Map": 1, "Bee": 1}, {"Cook": 1}])
    assert refused(state, f"quest {R1} with Map as character")


def test_laboratory_only_one_item() -> None:
    """ "one item card": two items as characters are refused."""
    lab = "Storehouse of the Demonic Steel"
    state = position(hands=[{"Map": 1, "Amulet": 1}, {"Cook": 1}], lands=[[lab], []])
    assert refused(state, f"quest {R1} with Map as character, Amulet as character")


def test_harem_developed_lowers_development_cost() -> None:
    """Harem: "When this land has been Developed, the cost to Develop any land in the future is reduced
    by one."""
    state = position(hands=[{"Highlord": 1}, {"Cook": 1}], lands=[[("Mansion of the Lamia", True), R5], []])
    answer(state, f"develop {R5} with Highlord")  # 3 seals for level 4 - 1
    order_discards(state)
    assert (R5, True) in state.kingdom(0)


def test_harem_undeveloped_lowers_nothing() -> None:
    """Only a developed Harem lowers the cost."""
    state = position(hands=[{"Highlord": 1}, {"Cook": 1}], lands=[["Mansion of the Lamia", R5], []])
    answer(state, f"develop {R5} with Highlord")
    order_discards(state)
    assert (R5, False) in state.kingdom(0)


def test_fortress_two_characters_add_two() -> None:
    """Fortress: "When two or more characters embark on a quest together, you may add +2 to the sum of
    their swords."""
    state = position(hands=[{"Bee": 1, "Cook": 1}, {"Jehu": 1}], lands=[["Dojo of the Rust Samurai"], []])
    answer(state, f"quest {R2} with Bee, Cook")
    roll(state, 1)  # 1 + 1 + 2 + 1 = 5
    order_discards(state)
    assert (R2, False) in state.kingdom(0)


def test_fortress_one_character_adds_nothing() -> None:
    """ "two or more characters": one alone gets no +2."""
    state = position(hands=[{"Daedalist": 1}, {"Jehu": 1}], lands=[["Dojo of the Rust Samurai"], []])
    answer(state, f"quest {R2} with Daedalist")
    roll(state, 2)  # 2 + 2 = 4 < 5
    order_discards(state)
    assert len(state.kingdom(0)) == 1


def test_hot_springs_draw_with_an_empty_hand() -> None:
    """Hot Springs: "If you have no Kingdom Cards at the end of your turn, you may draw a Kingdom Card"."""
    state = position(hands=[{"Bee": 1}, {"Cook": 1}], lands=[["Spring of the Mayonnaise King"], []])
    answer(state, f"quest {R1} with Bee")
    roll(state, 1)
    order_discards(state)
    assert state.decision == "hot springs" and state.current_player == 0
    answer(state, "draw")
    draw(state, "Jehu")
    assert state.hand(0) == {"Jehu": 1}


def test_hot_springs_nothing_with_a_card_left() -> None:
    """Only with no Kingdom card at the end of the turn."""
    state = position(hands=[{"Bee": 1, "Cook": 1}, {"Jehu": 1}], lands=[["Spring of the Mayonnaise King"], []])
    answer(state, f"quest {R1} with Bee")
    roll(state, 1)
    order_discards(state)
    end_turn(state)
    assert state.turn_player == 1
    assert state.hand(0) == {"Cook": 1}


def test_archives_draw_two_keep_one() -> None:
    """Archives: "When you draw from the Kingdom Pile, draw one additional card. Choose one Kingdom Card
    to keep, and discard the unselected card."""
    state = position(hands=[{"Bee": 1}, {"Cook": 1}], lands=[["Archives of the Dungeon Geek"], []], step="draw")
    draw(state, "Jehu", "Sword")
    assert state.decision == "archives" and state.current_player == 0
    answer(state, "keep Sword")
    assert state.hand(0) == {"Bee": 1, "Sword": 1}
    assert state.discard_pile()[-1] == "Jehu"


def test_great_excavation_has_its_points_only() -> None:
    """Great Excavation: "Great Excavated Room." — no effect; its points only."""
    state = position(hands=[{"Bee": 1}, {"Cook": 1}], lands=[["Cave of the Dragon"], []])
    assert state.points(0) == 4
    assert not any("Cave of the Dragon" in a and not a.startswith("develop") for a in legal(state))


# --- Kingdom items ---------------------------------------------------------------------


def test_grimoire_adds_a_characters_seals_to_its_swords() -> None:
    """Grimoire: "Choose one Character card: its swords increase by the amount of its seals."""
    state = position(hands=[{"Highlord": 1, "Grimoire": 1}, {"Cook": 1}])
    answer(state, f"quest {R2} with Grimoire, Highlord")
    roll(state, 1)  # 1 + 3 + 1 = 5
    order_discards(state)
    assert (R2, False) in state.kingdom(0)


def test_grimoire_not_in_a_development() -> None:
    """Grimoire: "You may use this card during a Land Quest or Aggression Action" only."""
    state = position(hands=[{"Highlord": 1, "Grimoire": 1}, {"Cook": 1}], lands=[[R5], []])
    assert refused(state, f"develop {R5} with Grimoire, Highlord")


def test_grimoire_in_an_aggression() -> None:
    """The Grimoire works in an Aggression action."""
    state = position(hands=[{"Valeel": 1, "Grimoire": 1, "Gotcha!": 1}, {"Cook": 1}], lands=[[], [R5]])
    answer(state, f"attack P2 {R5} with Grimoire, Valeel by Gotcha!", "defend")
    roll(state, 2, 4)  # 0 + 3 + 2 = 5 against 4
    order_discards(state)
    assert state.kingdom(0) == ((R5, False),)


def test_amulet_rerolls_a_die_just_rolled() -> None:
    """Amulet: "You may play it when anyone has just rolled a die. That person rerolls their die."""
    state = position(hands=[{"Bee": 1}, {"Amulet": 1}])
    answer(state, f"quest {R1} with Bee")
    roll(state, 6)
    assert state.decision == "amulet" and state.current_player == 1
    answer(state, "amulet")
    assert state.current_player == CHANCE
    roll(state, 1)  # 1 + 1 = 2 < 4
    order_discards(state)
    assert state.kingdom(0) == ()
    assert "Amulet" in state.discard_pile()
    assert state.hand(1) == {}


def test_amulet_own_reroll() -> None:
    """The roller may play her own Amulet on her die."""
    state = position(hands=[{"Bee": 1, "Amulet": 1}, {"Cook": 1}])
    answer(state, f"quest {R1} with Bee")
    roll(state, 1)
    assert state.decision == "amulet" and state.current_player == 0
    answer(state, "amulet")
    roll(state, 3)
    order_discards(state)
    assert state.kingdom(0) == ((R1, False),)


def test_map_adds_a_fifth_room_two_levels_easier() -> None:
    """Map: "Draw one extra (fifth) area from the Meikyu card pile and place it with the others. Until the
    end of your turn, this single new Land's Quest Level is reduced by two points."""
    state = position(hands=[{"Bee": 1, "Map": 1}, {"Cook": 1}])
    answer(state, "map")
    reveal(state, R8)  # level 7
    assert len(state.rooms()) == 5
    assert state.decision == "action" and state.current_player == 0
    answer(state, f"quest {R8} with Bee")
    roll(state, 4)  # 1 + 4 = 5 = 7 - 2
    order_discards(state)
    assert (R8, False) in state.kingdom(0)


def test_map_reduction_ends_with_the_turn() -> None:
    """ "Until the end of your turn": the next player faces the full level."""
    state = position(hands=[{"Bee": 1, "Map": 1}, {"Daedalist": 1}])
    answer(state, "map")
    reveal(state, R8)
    answer(state, "resupply")
    end_turn(state)
    assert state.turn_player == 1
    assert R8 in state.rooms()  # map_room=stays
    answer(state, f"quest {R8} with Daedalist")
    roll(state, 4)  # 2 + 4 = 6 < 7
    order_discards(state)
    assert state.kingdom(1) == ()


# --- Open cards -------------------------------------------------------------------------


def test_refugee_placed_worth_a_point_and_two_cards_discarded() -> None:
    """Refugee: "Immediately place this card next to your other claimed Lands. You must immediately
    discard any two Kingdom cards from your hand. This card adds one star towards your goal."""
    state = position(hands=[{"Bee": 1, "Cook": 1, "Jehu": 1}, {"Drone": 1}], step="draw")
    draw(state, "Refugee")
    assert state.decision == "refugee" and state.current_player == 0
    answer(state, "discard Bee", "discard Cook")
    assert state.hand(0) == {"Jehu": 1}
    assert state.refugees(0) == 1
    assert state.points(0) == 1
    assert "Refugee" not in state.hand(0)


def test_dungeon_storm_replaces_the_face_up_rooms() -> None:
    """Dungeon Storm: "Immediately discard all of the face up unclaimed Lands. Draw four new Meikyu cards
    and lay them out in their place."""
    state = position(hands=[{"Bee": 1}, {"Cook": 1}], step="draw")
    draw(state, "Dungeon Storm")
    reveal(state, R5, R6, R7, R8)
    assert sorted(state.rooms()) == sorted([R5, R6, R7, R8])
    assert sorted(state.meikyu_discards()) == sorted([R1, R2, R3, R4])
    assert "Dungeon Storm" not in state.hand(0)


def test_dungeon_tsunami_passes_lands_left() -> None:
    """Dungeon Tsunami: "All players must choose one of their Claimed Lands, and pass it to the player on
    their left. ... If someone passes a Developed land, it returns to its Undeveloped state. If a player
    has no Claimed Lands ... they do not have to pass a land."""
    state = position(3, hands=[{"Bee": 1}, {"Cook": 1}, {"Jehu": 1}], lands=[[(R5, True)], [R6], []], step="draw")
    draw(state, "Dungeon Tsunami")
    while state.decision == "tsunami":
        seat = state.current_player
        choices = legal(state)
        answer(state, choices[0])
        assert seat in (0, 1)
    names = [sorted(n for n, _ in state.kingdom(s)) for s in range(3)]
    assert names == [[], [R5], [R6]]
    assert state.kingdom(1) == ((R5, False),)


def test_open_card_played_at_once_and_not_kept() -> None:
    """ "You must play these immediately upon drawing them.": no OPEN card reaches a hand."""
    state = position(hands=[{"Bee": 1}, {"Cook": 1}], step="draw")
    draw(state, "Dungeon Storm")
    reveal(state, R5, R6, R7, R8)
    assert state.hand(0) == {"Bee": 1}
    assert "Dungeon Storm" in state.discard_pile()


def test_only_one_action_even_with_items_played() -> None:
    """ "During any of the actions, the player can use as many Kingdom Cards ... All Kingdom cards that are
    used during an action are discarded": a Map before the quest goes to the discard pile too."""
    state = position(hands=[{"Bee": 1, "Map": 1}, {"Cook": 1}])
    answer(state, "map")
    reveal(state, R8)
    answer(state, f"quest {R1} with Bee")
    roll(state, 1)
    order_discards(state)
    assert sorted(state.discard_pile()) == ["Bee", "Map"]


def test_items_of_the_defender_only_when_attacked() -> None:
    """ "Unless the card says otherwise, players can only use these cards on their own turn": the
    defender's Sword counts, but a Map is not an option on another player's turn."""
    state = position(hands=[{"Bee": 1, "Gotcha!": 1}, {"Cook": 1, "Map": 1}], lands=[[], [R5]])
    answer(state, f"attack P2 {R5} with Bee by Gotcha!")
    assert not any("Map" in a for a in legal(state))


# --- second round: the corners of each sentence ------------------------------------------


def test_tsunami_drawer_goes_first_then_clockwise() -> None:
    """Dungeon Tsunami: "The person who draws this card goes first."""
    state = position(3, turn=1, hands=[{"Bee": 1}, {"Cook": 1}, {"Jehu": 1}], lands=[[R5], [R6], [R7]], step="draw")
    draw(state, "Dungeon Tsunami")
    order = []
    while state.decision == "tsunami":
        order.append(state.current_player)
        answer(state, legal(state)[0])
    assert order == [1, 2, 0]
    assert [[n for n, _ in state.kingdom(s)] for s in range(3)] == [[R7], [R5], [R6]]


def test_amulet_reroll_can_be_answered_by_another_amulet() -> None:
    """Amulet: "when anyone has just rolled a die": a reroll is a roll just made, so a second Amulet may
    answer it."""
    state = position(hands=[{"Bee": 1, "Amulet": 1}, {"Amulet": 1}])
    answer(state, f"quest {R1} with Bee")
    roll(state, 6)
    assert state.decision == "amulet" and state.current_player == 0
    answer(state, "pass")
    assert state.decision == "amulet" and state.current_player == 1
    answer(state, "amulet")
    roll(state, 1)
    assert state.decision == "amulet" and state.current_player == 0
    answer(state, "amulet")
    roll(state, 3)
    order_discards(state)
    assert state.kingdom(0) == ((R1, False),)


def test_amulet_on_the_defenders_die() -> None:
    """The Amulet rerolls "that person['s]" die: the attacker makes the defender reroll."""
    state = position(hands=[{"Bee": 1, "Gotcha!": 1, "Amulet": 1}, {"Cook": 1}], lands=[[], [R5]])
    answer(state, f"attack P2 {R5} with Bee by Gotcha!", "defend")
    roll(state, 4)  # attacker 5
    if state.decision == "amulet":
        answer(state, "pass")
    roll(state, 6)  # defender 6
    assert state.decision == "amulet" and state.current_player == 0
    answer(state, "amulet")
    roll(state, 1)  # defender 1
    order_discards(state)
    assert state.kingdom(0) == ((R5, False),)


def test_blacksmith_helps_its_owner_when_defending() -> None:
    """Blacksmith: "Whenever you use a "Sword" item card, you add +1": the defender's Sword too."""
    state = position(
        hands=[{"Daedalist": 1, "Gotcha!": 1}, {"Cook": 1, "Sword": 1}], lands=[[], ["Workshop of the Dwarves", R5]]
    )
    answer(state, f"attack P2 {R5} with Daedalist by Gotcha!", "defend with Cook, Sword")
    roll(state, 3, 2)  # 2 + 3 = 5 against 1 + 1 + 1 + 2 = 5: tie, the defender holds
    order_discards(state)
    assert (R5, False) in state.kingdom(1)


def test_two_swords_on_one_character_by_default() -> None:
    """Sword: "add +1 sword to a single character" — several Swords may go on one (``sword=stack``)."""
    state = position(hands=[{"Bee": 1, "Sword": 2}, {"Cook": 1}])
    answer(state, f"quest {R2} with Bee, 2 Sword")
    roll(state, 2)  # 1 + 2 + 2 = 5
    order_discards(state)
    assert (R2, False) in state.kingdom(0)


def test_two_swords_need_two_characters_in_the_one_reading() -> None:
    """``sword=one``: each Sword on a character of its own."""
    state = position(hands=[{"Bee": 1, "Sword": 2}, {"Cook": 1}], rules_options={"sword": "one"})
    assert refused(state, f"quest {R2} with Bee, 2 Sword")


def test_only_the_turn_player_discards_down_to_five() -> None:
    """ "If a player has six or more cards in her hand by the end of her turn": a defender who drew to six
    on another's turn keeps them until the end of her own."""
    state = position(
        hands=[{"Bee": 1, "Gotcha!": 1}, {"Cook": 2, "Doctor": 3}], lands=[[], ["Room of the Money Eater", R5]]
    )
    answer(state, f"attack P2 {R5} with Bee by Gotcha!", "defend")
    roll(state, 1, 6)
    order_discards(state)
    answer(state, "draw")  # the Casino
    draw(state, "Jehu")
    assert state.hand_size(1) == 6
    end_turn(state)
    assert state.turn_player == 1 and state.hand_size(1) == 7  # her own draw


def test_council_chamber_lost_even_when_the_attack_fails() -> None:
    """ "Discard the "Council Chamber" card" is the price of the attack, won or lost."""
    state = position(hands=[{"Bee": 1}, {"Cook": 1}], lands=[["Nest of the Ogrekin", R6], [R5]])
    answer(state, f"attack P2 {R5} with Bee by Council Chamber", "defend")
    roll(state, 1, 6)
    order_discards(state)
    assert [n for n, _ in state.kingdom(0)] == [R6]
    assert state.kingdom(1) == ((R5, False),)


def test_gotcha_discarded_even_when_the_attack_fails() -> None:
    """ "All Kingdom cards that are used during an action are discarded, whether the action was successful
    or not."""
    state = position(hands=[{"Bee": 1, "Gotcha!": 1}, {"Cook": 1}], lands=[[], [R5]])
    answer(state, f"attack P2 {R5} with Bee by Gotcha!", "defend")
    roll(state, 1, 6)
    order_discards(state)
    assert sorted(state.discard_pile()) == ["Bee", "Gotcha!"]
    assert state.hand(0) == {}


def test_stealing_a_sixth_land_forces_a_discard() -> None:
    """The five-land limit holds for a land taken by Aggression too."""
    state = position(hands=[{"Executioner": 1, "Gotcha!": 1}, {"Cook": 1}], lands=[[R5, R6, R7, R8, R9], [R12]])
    answer(state, f"attack P2 {R12} with Executioner by Gotcha!", "defend")
    roll(state, 6, 1)
    order_discards(state)
    assert state.decision == "land limit" and state.current_player == 0
    answer(state, f"discard land {R5}")
    assert sorted(n for n, _ in state.kingdom(0)) == sorted([R6, R7, R8, R9, R12])


def test_no_attack_on_a_player_without_a_land_to_take() -> None:
    """Aggression steals "lands already owned by other kingdoms": a landless kingdom (or one holding only
    the Castle Tower) offers none."""
    state = position(
        3, hands=[{"Executioner": 1, "Gotcha!": 1}, {"Cook": 1}, {"Jehu": 1}], lands=[[], [], ["Castle of the Tyrant"]]
    )
    assert not any(a.startswith("attack") for a in legal(state))


def test_develop_twice_is_refused() -> None:
    """A developed land is turned sideways once: it is not developed again."""
    state = position(hands=[{"Highlord": 2}, {"Cook": 1}], lands=[[(R5, True)], []])
    assert refused(state, f"develop {R5} with Highlord, Highlord")


def test_harem_lowers_its_own_later_developments_only_once_developed() -> None:
    """ "the cost to Develop any land in the future is reduced by one": developing the Harem itself is at
    full cost (the Harem is not yet developed)."""
    state = position(hands=[{"Highlord": 1, "Doctor": 1}, {"Cook": 1}], lands=[["Mansion of the Lamia"], []])
    answer(state, "develop Mansion of the Lamia with Doctor, Highlord")  # 3 + 2 = 5 < 6
    order_discards(state)
    assert state.kingdom(0) == (("Mansion of the Lamia", False),)


def test_stolen_developed_bar_loses_its_effect() -> None:
    """A stolen land "returns to its non-developed state": a stolen developed Bar gives nothing."""
    bar = "Stage of the Airt Piper"
    state = position(hands=[{"Executioner": 1, "Gotcha!": 1, "Drone": 1}, {"Cook": 1}], lands=[[], [(bar, True)]])
    answer(state, f"attack P2 {bar} with Executioner by Gotcha!", "defend")
    roll(state, 6, 1)
    order_discards(state)
    assert state.kingdom(0) == ((bar, False),)
    assert state.points(0) == 1


def test_archives_on_the_resupply_draw() -> None:
    """Archives: "When you draw from the Kingdom Pile, draw one additional card": the Resupply draw too."""
    state = position(hands=[{"Bee": 1}, {"Cook": 1}], lands=[["Archives of the Dungeon Geek"], []])
    answer(state, "resupply")
    draw(state, "Jehu", "Drone")
    assert state.decision == "archives"
    answer(state, "keep Drone")
    assert state.hand(0) == {"Bee": 1, "Drone": 1}


def test_refugee_reaching_ten_ends_the_game() -> None:
    """Refugee: "This card adds one star towards your goal": nine points and a Refugee end the game."""
    state = position(
        hands=[{"Bee": 1, "Cook": 1, "Jehu": 1}, {"Drone": 1}],
        lands=[[R12, R15, R4], []],
        rooms=[R1, R2, R3, R6],
        step="draw",
    )
    draw(state, "Refugee")
    answer(state, "discard Bee", "discard Cook")
    assert state.points(0) == 10
    answer(state, "resupply")
    end_turn(state)
    assert state.is_terminal
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,)


def test_refugee_with_one_card_discards_it() -> None:
    """ "discard any two Kingdom cards from your hand": with one card, that one goes."""
    state = position(hands=[{}, {"Drone": 1}], step="draw")
    draw(state, "Refugee")
    while state.decision == "refugee":
        answer(state, legal(state)[0])
    assert state.refugees(0) == 1
    assert state.hand_size(0) == 0


def test_mixed_area_twice_costs_two_turns() -> None:
    """ "that player loses a turn" — each Mixed Area discarded costs a turn."""
    state = position(hands=[{"Bee": 1}, {"Cook": 1}], lands=[["Tunnel of the Valaraukar"], []])
    answer(state, "mixed area P2", "resupply")
    end_turn(state)
    assert state.turn_player == 0  # P2 lost her turn


def test_hot_springs_after_the_hand_is_emptied_by_development() -> None:
    """Hot Springs: "If you have no Kingdom Cards at the end of your turn" — after a development too."""
    state = position(hands=[{"Highlord": 1, "Bee": 1}, {"Cook": 1}], lands=[["Spring of the Mayonnaise King", R5], []])
    answer(state, f"develop {R5} with Bee, Highlord")
    order_discards(state)
    assert state.decision == "hot springs"


def test_fortress_not_in_aggression_by_default() -> None:
    """Fortress: "When two or more characters embark on a quest together" — quests (``fortress=quests``)."""
    state = position(
        hands=[{"Bee": 1, "Cook": 1, "Gotcha!": 1}, {"Jehu": 1}], lands=[["Dojo of the Rust Samurai"], [R5]]
    )
    answer(state, f"attack P2 {R5} with Bee, Cook by Gotcha!", "defend")
    roll(state, 2, 4)  # 1 + 1 + 2 = 4 against 4 (with +2 it would be 6)
    order_discards(state)
    assert state.kingdom(1) == ((R5, False),)


def test_map_room_is_the_only_one_reduced() -> None:
    """Map: "this single new Land's Quest Level is reduced by two points": not the other rooms."""
    state = position(hands=[{"Bee": 1, "Map": 1}, {"Cook": 1}])
    answer(state, "map")
    reveal(state, R8)
    answer(state, f"quest {R2} with Bee")
    roll(state, 2)  # 3 < 5 (3 would do for a reduced level)
    order_discards(state)
    assert state.kingdom(0) == ()


def test_storm_discards_only_unclaimed_rooms() -> None:
    """Dungeon Storm: "discard all of the face up unclaimed Lands": kingdoms keep theirs."""
    state = position(hands=[{"Bee": 1}, {"Cook": 1}], lands=[[R5], [R6]], step="draw")
    draw(state, "Dungeon Storm")
    reveal(state, R7, R8, R9, R12)
    assert state.kingdom(0) == ((R5, False),) and state.kingdom(1) == ((R6, False),)


def test_storm_draw_is_the_turns_draw() -> None:
    """The OPEN card drawn in step 1 was the draw (``open_draw=counts``): the hand is as before."""
    state = position(hands=[{"Bee": 1}, {"Cook": 1}], step="draw")
    draw(state, "Dungeon Storm")
    reveal(state, R5, R6, R7, R8)
    assert state.decision == "action" and state.current_player == 0
    assert state.hand(0) == {"Bee": 1}


def test_points_and_lands_tied_share_the_win() -> None:
    """ "In case of a tie, the player with the most lands in her kingdom wins": equal in both, both win."""
    state = position(hands=[{"Executioner": 1}, {"Cook": 1}], rooms=[R1], meikyu_pile=[], lands=[[R12], [R7, R5]])
    answer(state, f"quest {R1} with Executioner")  # P1 3 + 1 = 4 in 2; P2 2 + 1 = 3 in 2
    roll(state, 1)
    order_discards(state)
    end_turn(state)
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,)
    state = position(hands=[{"Executioner": 1}, {"Cook": 1}], rooms=[R1], meikyu_pile=[], lands=[[R7], [R12, R5]])
    answer(state, f"quest {R1} with Executioner")  # P1 2 + 1 = 3 in 2; P2 3 + 1 = 4 in 2
    roll(state, 1)
    order_discards(state)
    end_turn(state)
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (1,)
    state = position(hands=[{"Executioner": 1}, {"Cook": 1}], rooms=[R1], meikyu_pile=[], lands=[[R12], [R4, R5]])
    answer(state, f"quest {R1} with Executioner")  # 4 in 2 each
    roll(state, 1)
    order_discards(state)
    end_turn(state)
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0, 1)


def test_ten_reached_by_another_player_in_my_turn_ends_after_my_turn() -> None:
    """ "When one or more players meets the following conditions, the game ends after the current player's
    turn": a Tsunami in P1's turn takes P2 past ten; P1 still plays her action, then P2 wins."""
    R13 = "Unnamed room 13"
    state = position(
        hands=[{"Bee": 1}, {"Cook": 1}], lands=[[R4], [R12, R15, R5, R9, R13]], rooms=[R1, R2, R3, R6], step="draw"
    )
    draw(state, "Dungeon Tsunami")
    while state.decision == "tsunami":
        answer(state, f"give {R4}" if state.current_player == 0 else f"give {R5}")
    assert state.points(1) == 11 and state.points(0) == 1
    assert not state.is_terminal
    assert state.decision == "action" and state.current_player == 0
    answer(state, "resupply")
    end_turn(state)
    assert state.is_terminal
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (1,)


def test_defender_without_a_character_plays_no_sword() -> None:
    """ "there must be a character to use the item"; the Sword goes "to a single character": a defender
    with no character defends with the die alone."""
    state = position(hands=[{"Bee": 1, "Gotcha!": 1}, {"Sword": 1, "Map": 1}], lands=[[], [R5]])
    answer(state, f"attack P2 {R5} with Bee by Gotcha!")
    assert legal(state) == ["defend"]


def test_map_fifth_room_claimed_leaves_four_and_no_refill() -> None:
    """Step 4 draws "If there are three or less face-up Meikyu cards": one claimed of five leaves four."""
    state = position(hands=[{"Executioner": 1, "Map": 1}, {"Cook": 1}])
    pile = state.meikyu_pile_size()
    answer(state, "map")
    reveal(state, R8)
    answer(state, f"quest {R1} with Executioner")
    roll(state, 1)
    order_discards(state)
    end_turn(state)
    assert sorted(state.rooms()) == sorted([R2, R3, R4, R8])
    assert state.meikyu_pile_size() == pile - 1


def test_lost_turn_is_lost_whole_without_its_draw() -> None:
    """ "that player loses a turn": she neither draws nor acts."""
    state = position(hands=[{"Bee": 1}, {"Cook": 1}], lands=[["Tunnel of the Valaraukar"], []])
    answer(state, "mixed area P2", "resupply")
    draw(state, "Jehu")
    end_turn(state)
    assert state.turn_player == 0
    assert state.hand(1) == {"Cook": 1}


def test_blacksmith_adds_one_per_sword() -> None:
    """ "Whenever you use a "Sword" item card, you add +1": two Swords, +2 more."""
    for die, claimed in ((2, False), (3, True)):
        state = position(hands=[{"Bee": 1, "Sword": 2}, {"Cook": 1}], lands=[["Workshop of the Dwarves"], []])
        answer(state, f"quest {R4} with Bee, 2 Sword")
        roll(state, die)  # 1 + 2 + 2 + die against 8
        order_discards(state)
        assert ((R4, False) in state.kingdom(0)) is claimed


def test_grimoire_and_sword_on_one_character() -> None:
    """Grimoire: "its swords increase by the amount of its seals"; Sword: "+1 sword to a single character"."""
    state = position(hands=[{"Highlord": 1, "Sword": 1, "Grimoire": 1}, {"Cook": 1}])
    answer(state, f"quest {R3} with Grimoire, Highlord, Sword")
    roll(state, 1)  # 1 + 3 + 1 + 1 = 6
    order_discards(state)
    assert (R3, False) in state.kingdom(0)


def test_bar_and_grimoire_on_a_zero_sword_character() -> None:
    """Bar: "all characters with 0 swords receive a +1 sword" (printed swords, ``bar_zero=printed``), and the
    Grimoire adds the seals."""
    state = position(hands=[{"Valeel": 1, "Grimoire": 1}, {"Cook": 1}], lands=[[("Stage of the Airt Piper", True)], []])
    answer(state, f"quest {R2} with Grimoire, Valeel")
    roll(state, 1)  # 0 + 1 + 3 + 1 = 5
    order_discards(state)
    assert (R2, False) in state.kingdom(0)


def test_casino_only_for_its_owners_die() -> None:
    """Casino: "Any time that you roll a "6"": another player's 6 draws nothing."""
    state = position(hands=[{"Bee": 1}, {"Cook": 1}], lands=[[], ["Room of the Money Eater"]])
    answer(state, f"quest {R1} with Bee")
    roll(state, 6)
    order_discards(state)
    assert state.decision != "casino"


def test_hospital_not_after_a_failed_aggression() -> None:
    """Hospital: "If you fail a Quest" — a failed aggression returns nothing."""
    state = position(hands=[{"Bee": 1, "Gotcha!": 1}, {"Cook": 1}], lands=[["Altar of the Nightingale"], [R5]])
    answer(state, f"attack P2 {R5} with Bee by Gotcha!", "defend")
    roll(state, 1, 6)
    order_discards(state)
    assert state.decision != "hospital"
    assert state.hand(0) == {}


def test_tsunami_landless_player_passes_nothing_in_four() -> None:
    """Dungeon Tsunami in a 4-player game: "If a player has no Claimed Lands at the time this card is
    initially activated, they do not have to pass a land"."""
    state = position(
        4, hands=[{"Bee": 1}, {"Cook": 1}, {"Jehu": 1}, {"Drone": 1}], lands=[[R5], [], [R6], [R7]], step="draw"
    )
    draw(state, "Dungeon Tsunami")
    asked = []
    while state.decision == "tsunami":
        asked.append(state.current_player)
        answer(state, legal(state)[0])
    assert 1 not in asked
    assert [n for n, _ in state.kingdom(1)] == [R5]
    assert state.land_count(0) == 1 and state.land_count(2) == 0


# --- disagreements: readings made options ---------------------------------------------------


@pytest.mark.parametrize(
    ("reading", "choices", "p1_after", "p3_after"),
    [
        ("held", [f"give {R7}"], [R7], [R6]),  # only the land held when the card was played
        ("any", [f"give {R6}", f"give {R7}"], [R6], [R7]),  # at its turn, any land held then
    ],
    ids=["held", "any"],
)
def test_tsunami_a_received_land_passed_on_under_either_reading(
    reading: str, choices: list[str], p1_after: list[str], p3_after: list[str]
) -> None:
    """Dungeon Tsunami: "All players must choose one of their Claimed Lands, and pass it to the player on
    their left. The person who draws this card goes first." Read as passing one of the lands held when the
    card was played (``tsunami_pass=held``), or, at one's place in the order, any land held then, one just
    received included (``any``). P1 draws it; P3 has received P2's R6 when her turn to pass comes."""
    state = position(
        3,
        rules_options={"tsunami_pass": reading},
        hands=[{"Bee": 1}, {"Cook": 1}, {"Jehu": 1}],
        lands=[[R5], [R6], [R7]],
        step="draw",
    )
    draw(state, "Dungeon Tsunami")
    answer(state, f"give {R5}", f"give {R6}")
    assert state.decision == "tsunami" and state.current_player == 2
    assert legal(state) == choices
    answer(state, choices[-1] if reading == "held" else f"give {R6}")
    assert [n for n, _ in state.kingdom(0)] == p1_after
    assert [n for n, _ in state.kingdom(2)] == p3_after
    assert [n for n, _ in state.kingdom(1)] == [R5]


def test_tsunami_any_two_players_may_pass_a_land_straight_back() -> None:
    """``tsunami_pass=any`` with two players: P2 may hand back the land P1 just passed (undeveloped now)."""
    state = position(
        rules_options={"tsunami_pass": "any"}, hands=[{"Bee": 1}, {"Cook": 1}], lands=[[(R5, True)], [R6]], step="draw"
    )
    draw(state, "Dungeon Tsunami")
    answer(state, f"give {R5}")
    assert sorted(legal(state)) == sorted([f"give {R5}", f"give {R6}"])
    answer(state, f"give {R5}")
    assert state.kingdom(0) == ((R5, False),)
    assert state.kingdom(1) == ((R6, False),)


def test_tsunami_any_keeps_the_landless_rule() -> None:
    """Under ``tsunami_pass=any`` a player without lands when the card was played still passes nothing
    (``tsunami_landless=none``): "they do not have to pass a land"."""
    state = position(
        3,
        rules_options={"tsunami_pass": "any"},
        hands=[{"Bee": 1}, {"Cook": 1}, {"Jehu": 1}],
        lands=[[R5], [], [R7]],
        step="draw",
    )
    draw(state, "Dungeon Tsunami")
    asked = []
    while state.decision == "tsunami":
        asked.append(state.current_player)
        answer(state, legal(state)[0])
    assert asked == [0, 2]
    assert [n for n, _ in state.kingdom(1)] == [R5]
