"""How Meikyu Kingdom games end and are won, at 2 to 5 players, each case from one sentence of the
Meikyu Kingdom Card Game rulebook ("End of the Game", "When the Kingdom Pile Is Depleted", "Replace
Meikyu Card", the actions). Written blind from the rulebook and the public position builder; the
land values are the shipped assumption profile's ("Unnamed room 5": level 4, 1 point; …)."""

from __future__ import annotations

import pytest

from cardbase.games.base import CHANCE, IllegalAction
from cardbase.games.meikyu.engine import MeikyuState

from .helpers import ROOMS4, act, draw, position, reveal, roll, rules

# Plain lands (no effect) of the default profile, by points: level / points / developed points.
ONE = ("Unnamed room 5", "Unnamed room 9", "Unnamed room 13", "Unnamed room 6", "Unnamed room 10", "Unnamed room 14")
TWO = ("Unnamed room 7", "Unnamed room 11", "Unnamed room 8")  # level 6, 6, 7
THREE = ("Unnamed room 12", "Unnamed room 15")  # level 8, 9
FOUR = "Unnamed room 16"  # level 10
NINE = [THREE[0], THREE[1], TWO[0], ONE[0]]  # 3 + 3 + 2 + 1


def finish_turn(state: MeikyuState) -> None:
    """Answer what this turn still asks the plain way (pass, else the first listed; chance sampled)
    until the next turn's action or the end."""
    turn = state.turns
    while not state.is_terminal and not (state.turns > turn and state.decision == "action"):
        if state.current_player == CHANCE:
            state.apply(state.sample_chance())
            continue
        words = {str(a): a for a in state.legal_actions()}
        state.apply(words.get("pass") or next(iter(words.values())))


def winners(state: MeikyuState) -> tuple[int, ...]:
    outcome = state.outcome()
    assert outcome is not None, "the game is over"
    return outcome.winners


def points(state: MeikyuState) -> list[int]:
    return [state.points(p) for p in range(state.rules.players)]


# --- A. The sum of all of one kingdom's lands equals ten or more ---------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_quest_to_ten_ends_the_game_after_the_turn(players: int) -> None:
    """'When one or more players meets the following conditions, the game ends after the current
    player's turn: A. The sum of all of one kingdom's lands equals ten or more.' — the turn still
    replaces the claimed room ('Replace Meikyu Card') before the game is over."""
    state = position(players, hands=[{"Executioner": 1}], lands=[NINE])
    act(state, "quest Unnamed room 1 with Executioner")
    roll(state, 1)  # 3 + 1 = 4, the room's level
    assert state.points(0) == 10
    finish_turn(state)
    assert state.is_terminal
    assert len(state.rooms()) == 4
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winners == (0,)
    assert list(outcome.scores) == [10] + [0] * (players - 1)


def test_twelve_points_also_ends_the_game() -> None:
    """'equals ten or more': 9 + a 3-point land."""
    state = position(2, hands=[{"Executioner": 1, "Warzard": 2}], lands=[NINE])
    act(state, "quest Unnamed room 4 with Executioner, 2 Warzard")
    roll(state, 1)
    finish_turn(state)
    assert state.is_terminal
    assert points(state) == [12, 0]


@pytest.mark.parametrize("players", [2, 5])
def test_nine_points_plays_on_to_the_next_player(players: int) -> None:
    """Below ten the game goes on, clockwise: 'Players go around in a clockwise order.'"""
    state = position(
        players,
        turn=players - 1,
        hands=[{}] * (players - 1) + [{"Executioner": 1}],
        lands=[[]] * (players - 1) + [[THREE[0], TWO[0], ONE[0], ONE[1]]],
    )
    act(state, "quest Unnamed room 1 with Executioner")
    roll(state, 1)
    finish_turn(state)
    assert state.points(players - 1) == 8
    assert not state.is_terminal
    assert state.turn_player == 0


def test_the_final_turn_still_discards_down_to_five() -> None:
    """'If a player has six or more cards in her hand by the end of her turn, she must discard down to
    five cards.' — the winning turn is a whole turn: the game ends after it."""
    state = position(2, hands=[{"Executioner": 1, "Bee": 3, "Cook": 3}], lands=[NINE])
    act(state, "quest Unnamed room 1 with Executioner")
    roll(state, 1)
    asked_to_discard = False
    while not state.is_terminal:
        if state.current_player == CHANCE:
            state.apply(state.sample_chance())
            continue
        asked_to_discard = asked_to_discard or any(str(a).startswith("discard") for a in state.legal_actions())
        state.apply(state.legal_actions()[0])
    assert asked_to_discard
    assert state.hand_size(0) == 5


def test_develop_to_ten_ends_the_game() -> None:
    """'The Developed Point Total becomes this room's new Point Total.' — developing a 3-point land
    (level 8) to 4 takes 9 to 10: 'To succeed, the total of the character's Wits (seals) must equal
    or exceed the Quest Level'."""
    state = position(2, hands=[{"Highlord": 2, "Doctor": 1}], lands=[NINE])
    act(state, f"develop {THREE[0]} with 2 Highlord, Doctor")  # wits 3 + 3 + 2 = 8
    assert state.points(0) == 10
    finish_turn(state)
    assert state.is_terminal
    assert winners(state) == (0,)


def test_develop_one_wit_short_fails() -> None:
    """'must equal or exceed the Quest Level': 7 wits do not develop a level-8 land; the attempt is
    an action like a failed quest ('All Kingdom cards that are used during an action are discarded,
    whether the action was successful or not'), and 9 points play on."""
    state = position(2, hands=[{"Highlord": 2, "Drone": 1}], lands=[NINE])
    act(state, f"develop {THREE[0]} with 2 Highlord, Drone")  # 3 + 3 + 1 = 7
    assert state.points(0) == 9
    finish_turn(state)
    assert not state.is_terminal
    assert state.kingdom(0)[0] == (THREE[0], False)
    assert len(state.discard_pile()) == 3


@pytest.mark.parametrize(("die", "claimed"), [(1, True), (6, True)])
def test_quest_total_equal_to_level_succeeds(die: int, claimed: bool) -> None:
    """'If this new total is equal to or higher than the room's Quest Level, then the quest succeeds'."""
    state = position(2, hands=[{"Executioner": 1}])
    act(state, "quest Unnamed room 1 with Executioner")
    roll(state, die)
    assert (state.land_count(0) == 1) is claimed


def test_quest_total_one_below_level_fails() -> None:
    """'If the total is less than the room's Quest Level, then the quest failed.' (2 + 1 < 4)."""
    state = position(2, hands=[{"Daedalist": 1}])
    act(state, "quest Unnamed room 1 with Daedalist")
    roll(state, 1)
    assert state.land_count(0) == 0


def test_a_sixth_land_is_kept_to_five_and_the_goal_counts_the_five() -> None:
    """'The maximum number of owned lands a kingdom can have is five. If a player takes a sixth land
    into the kingdom, she must discard one of the existing lands.' — five 1-point lands, a 3-point
    sixth: keeping it makes 7, no end."""
    state = position(2, hands=[{"Executioner": 1, "Warzard": 2}], lands=[list(ONE[:5])])
    act(state, "quest Unnamed room 4 with Executioner, 2 Warzard")
    roll(state, 1)
    assert state.decision == "land limit"
    act(state, f"discard land {ONE[0]}")
    assert state.land_count(0) == 5
    assert state.points(0) == 7


def test_sixth_land_over_ten_then_discarded_below_ten_plays_on() -> None:
    """'If a player takes a sixth land … she must discard one' and the end is checked 'after the
    current player's turn': 9 + 3 = 12 for a moment, then a 3-point land discarded leaves 9."""
    five = [THREE[0], THREE[1], ONE[0], ONE[1], ONE[2]]
    state = position(2, hands=[{"Executioner": 1, "Warzard": 2}], lands=[five])
    act(state, "quest Unnamed room 4 with Executioner, 2 Warzard")
    roll(state, 1)
    act(state, f"discard land {THREE[0]}")
    assert state.points(0) == 9
    finish_turn(state)
    assert not state.is_terminal


# --- B. There are no more Meikyu dungeon rooms left to conquer ----------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_claiming_the_last_room_ends_the_game(players: int) -> None:
    """'B. There are no more Meikyu dungeon rooms left to conquer.' — the Meikyu pile is empty and the
    last face-up room is claimed; the most points wins."""
    lands: list[list[str]] = [[ONE[0]], [THREE[0]]] + [[]] * (players - 2)
    state = position(players, hands=[{"Executioner": 1}], lands=lands, rooms=["Unnamed room 1"], meikyu_pile=[])
    act(state, "quest Unnamed room 1 with Executioner")
    roll(state, 4)
    finish_turn(state)
    assert state.is_terminal
    assert state.rooms() == ()
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winners == (1,)
    assert list(outcome.scores) == [2, 3] + [0] * (players - 2)


def test_rooms_still_face_up_play_on_with_an_empty_pile() -> None:
    """While a face-up room is left there is a room 'left to conquer', pile or no pile; 'placed
    face-up until there are four' places what the pile holds."""
    state = position(3, hands=[{"Executioner": 1}], rooms=["Unnamed room 1", "Unnamed room 2"], meikyu_pile=[])
    act(state, "quest Unnamed room 1 with Executioner")
    roll(state, 4)
    finish_turn(state)
    assert not state.is_terminal
    assert state.rooms() == ("Unnamed room 2",)


def test_failing_the_last_room_plays_on() -> None:
    """A failed quest leaves the room to conquer: 'If the total is less … the quest failed.'"""
    state = position(2, hands=[{"Bee": 1}], rooms=["Unnamed room 1"], meikyu_pile=[])
    act(state, "quest Unnamed room 1 with Bee")
    roll(state, 1)
    finish_turn(state)
    assert not state.is_terminal


def test_last_room_from_the_pile_is_placed_and_the_game_goes_on() -> None:
    """'new Meikyu cards are drawn from the pile, and placed face-up until there are four' — the
    pile's last card comes out; three rooms and an empty pile is no end."""
    state = position(2, hands=[{"Executioner": 1}, {"Executioner": 1}], meikyu_pile=[ONE[0]])
    act(state, "quest Unnamed room 1 with Executioner")
    roll(state, 6)
    finish_turn(state)
    assert not state.is_terminal
    assert sorted(state.rooms()) == sorted(["Unnamed room 2", "Unnamed room 3", "Unnamed room 4", ONE[0]])
    assert state.meikyu_pile_size() == 0
    act(state, "quest Unnamed room 2 with Executioner")
    roll(state, 6)
    finish_turn(state)
    assert not state.is_terminal
    assert len(state.rooms()) == 3


# --- Winning: most points, then most lands --------------------------------------------------------


def test_a_points_tie_goes_to_the_most_lands() -> None:
    """'The player with the most points wins. In case of a tie, the player with the most lands in her
    kingdom wins.' — 4 points on 2 lands against 4 points on 4 lands."""
    state = position(
        2, hands=[{"Executioner": 1}], lands=[[THREE[0]], list(ONE[:4])], rooms=["Unnamed room 1"], meikyu_pile=[]
    )
    act(state, "quest Unnamed room 1 with Executioner")
    roll(state, 4)
    finish_turn(state)
    outcome = state.outcome()
    assert outcome is not None
    assert list(outcome.scores) == [4, 4]
    assert outcome.winners == (1,)


def test_points_and_lands_tied_share_the_victory() -> None:
    """The rulebook names no third tie-break: seats level on points and on lands share the win."""
    state = position(
        3,
        hands=[{"Executioner": 1}],
        lands=[[THREE[0]], [ONE[0], THREE[1]], [ONE[1]]],
        rooms=["Unnamed room 1"],
        meikyu_pile=[],
    )
    act(state, "quest Unnamed room 1 with Executioner")
    roll(state, 4)
    finish_turn(state)
    outcome = state.outcome()
    assert outcome is not None
    assert set(outcome.winners) == {0, 1}


def test_another_player_at_ten_after_a_dungeon_tsunami_wins_after_this_turn() -> None:
    """'When one or more players meets the following conditions, the game ends after the current
    player's turn' — any player: P1 draws Dungeon Tsunami ('pass it to the player on their left'),
    P2 ends on 10; P1's turn is played out and P2 wins."""
    state = position(
        3,
        step="draw",
        pile=["Dungeon Tsunami", "Bee", "Cook", "Jehu"],
        hands=[{"Executioner": 1}],
        lands=[[THREE[1]], [THREE[0], FOUR, ONE[0]], [ONE[1]]],
    )
    draw(state, "Dungeon Tsunami")
    for give in (f"give {THREE[1]}", f"give {ONE[0]}", f"give {ONE[1]}"):
        act(state, give)
    assert points(state) == [1, 10, 1]
    assert not state.is_terminal
    assert state.decision == "action" and state.current_player == 0
    finish_turn(state)
    assert state.is_terminal
    assert winners(state) == (1,)


def test_refugee_at_nine_reaches_the_goal_but_the_turn_goes_on() -> None:
    """'Refugee — … This card adds one star towards your goal.' and the game 'ends after the current
    player's turn': P1 still takes an action."""
    state = position(
        2, step="draw", pile=["Refugee", "Bee", "Cook"], hands=[{"Executioner": 1, "Bee": 2}], lands=[NINE]
    )
    draw(state, "Refugee")
    while state.decision != "action" and not state.is_terminal:
        state.apply(state.legal_actions()[0] if state.current_player != CHANCE else state.sample_chance())
    assert state.points(0) == 10
    assert not state.is_terminal
    assert state.current_player == 0
    finish_turn(state)
    assert state.is_terminal
    assert winners(state) == (0,)


# --- Aggression -----------------------------------------------------------------------------------


def test_aggression_tie_goes_to_the_defender() -> None:
    """'The attacking player's total must be higher than the defender's total in order to succeed.
    Ties go to the defender.' (3 + 3 against 1 + 5)."""
    state = position(2, hands=[{"Executioner": 1, "Gotcha!": 1}, {"Bee": 1}], lands=[[TWO[0]], [THREE[1]]])
    act(state, f"attack P2 {THREE[1]} with Executioner by Gotcha!", "defend with Bee")
    roll(state, 3, 5)
    assert state.land_count(1) == 1 and state.land_count(0) == 1


def test_aggression_win_to_ten_ends_the_game_and_the_land_is_undeveloped() -> None:
    """'If the attacker wins, the land changes hands … If the land was Developed, then the land returns
    to its non-developed state' — P1 at 7 takes a developed 3-point land (4 developed) and has 10."""
    state = position(
        2, hands=[{"Executioner": 1, "Gotcha!": 1}, {}], lands=[[THREE[0], TWO[0], TWO[1]], [(THREE[1], True)]]
    )
    assert points(state) == [7, 4]
    act(state, f"attack P2 {THREE[1]} with Executioner by Gotcha!", "defend")
    roll(state, 4, 1)
    assert points(state) == [10, 0]
    finish_turn(state)
    assert state.is_terminal
    assert winners(state) == (0,)


def test_defender_may_defend_without_a_character() -> None:
    """'the defending player can defend without playing a character: she simply rolls the die and
    uses that as the sword total.' — 3 + 1 against 0 + 6: the land stays."""
    state = position(2, hands=[{"Executioner": 1, "Gotcha!": 1}, {}], lands=[[], [THREE[1]]])
    act(state, f"attack P2 {THREE[1]} with Executioner by Gotcha!", "defend")
    roll(state, 1, 6)
    assert state.land_count(1) == 1


def test_attack_with_items_only_is_refused() -> None:
    """'The attacking player must play at least one character card in order to attack'."""
    state = position(2, hands=[{"Sword": 1, "Gotcha!": 1}, {}], lands=[[], [THREE[1]]])
    with pytest.raises(IllegalAction):
        act(state, f"attack P2 {THREE[1]} with Sword by Gotcha!")


def test_quest_with_items_only_is_refused() -> None:
    """'At least one character card must be used to perform a quest.'"""
    state = position(2, hands=[{"Sword": 1}])
    with pytest.raises(IllegalAction):
        act(state, "quest Unnamed room 1 with Sword")


# --- Set-up, the die, the Kingdom pile ------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_four_kingdom_cards_each_at_every_player_count(players: int) -> None:
    """'draw the top 4 Meikyu Cards, turning them face up' and 'deal 4 Kingdom Cards to each player'
    — then the first rolls: no fifth card is dealt, and every seat rolls."""
    state = rules(players).new_initial_state(players)
    reveal(state, *ROOMS4)
    characters = [
        name for name in ("Bee", "Cook", "Daedalist", "Doctor", "Drone", "Happymancer", "Highlord") for _ in range(3)
    ]
    draw(state, *characters[: 4 * players])
    assert [state.hand_size(p) for p in range(players)] == [4] * players
    assert len(state.rooms()) == 4
    assert sorted(str(a) for a, _ in list(state.chance_outcomes() or ())) == [f"roll {v}" for v in range(1, 7)]


def test_the_die_has_six_even_faces() -> None:
    """'The player then rolls a die' — one die, faces 1 to 6, even odds."""
    state = position(2, hands=[{"Executioner": 1}])
    act(state, "quest Unnamed room 1 with Executioner")
    outcomes = list(state.chance_outcomes() or ())
    assert sorted(str(a) for a, _ in outcomes) == [f"roll {v}" for v in range(1, 7)]
    assert all(abs(p - 1 / 6) < 1e-9 for _, p in outcomes)


def test_taking_the_last_kingdom_card_reshuffles_the_discards() -> None:
    """'When the last card in the Kingdom Pile is taken, shuffle the discarded Kingdom Cards and
    replenish the Kingdom Pile.' — the pile holds one Bee, every other card is discarded."""
    state = position(2, step="draw", pile=["Bee"], hands=[{}, {}])
    before = sum(state.kingdom_pile().values()) + len(state.discard_pile())
    assert sum(state.kingdom_pile().values()) == 1
    draw(state, "Bee")
    assert len(state.discard_pile()) == 0
    assert sum(state.kingdom_pile().values()) == before - 1 > 0


def test_resupply_draws_one_more_card() -> None:
    """'2-4 Resupply … The player draws one more card from the Kingdom pile.'"""
    state = position(2, hands=[{"Bee": 1}])
    act(state, "resupply")
    if state.current_player == CHANCE:
        state.apply(state.sample_chance())
    assert state.hand_size(0) == 2


def test_five_cards_at_the_end_of_a_turn_are_kept() -> None:
    """'six or more cards … discard down to five' — five is kept without a discard."""
    state = position(2, hands=[{"Bee": 3, "Cook": 1}])
    act(state, "resupply")
    finish_turn(state)
    assert state.hand_size(0) == 5
    assert state.turn_player == 1


def test_two_kingdoms_over_ten_at_once_most_points_wins() -> None:
    """'When one or more players meets the following conditions …' then 'The player with the most
    points wins.' — a Dungeon Tsunami leaves P2 on 10 and P3 on 11; P3 wins, not the first to ten."""
    state = position(
        3,
        step="draw",
        pile=["Dungeon Tsunami", "Bee", "Cook", "Jehu"],
        hands=[{"Executioner": 1}],
        lands=[
            [FOUR],
            [THREE[0], THREE[1], TWO[0], ONE[0]],
            ["Archives of the Dungeon Geek", "Spring of the Mayonnaise King", TWO[1], ONE[1]],
        ],
    )
    draw(state, "Dungeon Tsunami")
    for give in (f"give {FOUR}", f"give {THREE[0]}", f"give {ONE[1]}"):
        act(state, give)
    assert points(state) == [1, 10, 11]
    finish_turn(state)
    assert state.is_terminal
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winners == (2,)


def test_dungeon_storm_on_an_empty_meikyu_pile_leaves_no_room_and_ends_the_game() -> None:
    """'Dungeon Storm — Immediately discard all of the face up unclaimed Lands. Draw four new Meikyu
    cards' — with the Meikyu pile empty none can be drawn: 'B. There are no more Meikyu dungeon rooms
    left to conquer', so the game ends after this turn."""
    state = position(
        2, step="draw", pile=["Dungeon Storm", "Bee", "Cook"], hands=[{"Bee": 1}], lands=[[ONE[0]], []], meikyu_pile=[]
    )
    draw(state, "Dungeon Storm")
    while state.decision != "action" and not state.is_terminal:
        state.apply(state.sample_chance() if state.current_player == CHANCE else state.legal_actions()[0])
    assert state.rooms() == ()
    finish_turn(state)
    assert state.is_terminal
    assert winners(state) == (0,)


COUNCIL_NINE = [THREE[0], THREE[1], TWO[0], "Nest of the Ogrekin"]  # 3 + 3 + 2 + 1 (Council Chamber)


@pytest.mark.parametrize(("goal_check", "ends"), [(None, False), ("reached", True)])
def test_ten_reached_then_lost_in_the_same_turn(goal_check: str | None, ends: bool) -> None:
    """'When one or more players meets the following conditions, the game ends after the current
    player's turn' — read as met at the turn's end (default): a Refugee takes P1 to 10, then P1
    discards the Council Chamber to attack and fails, ending the turn on 9; the game goes on. The
    other reading (met at any moment of the turn) is the option goal_check=reached."""
    options = {} if goal_check is None else {"goal_check": goal_check}
    state = position(
        2,
        rules_options=options,
        step="draw",
        pile=["Refugee", "Bee", "Cook"],
        hands=[{"Executioner": 1, "Bee": 2}],
        lands=[COUNCIL_NINE, [TWO[1]]],
    )
    draw(state, "Refugee")
    act(state, "discard Bee", "discard Bee")
    assert state.points(0) == 10
    act(state, f"attack P2 {TWO[1]} with Executioner by Council Chamber", "defend")
    roll(state, 1, 6)
    assert state.points(0) == 9
    finish_turn(state)
    assert state.is_terminal is ends


def test_highest_first_roll_goes_first_and_only_the_tied_roll_again() -> None:
    """'Each player rolls the die. The player with the highest roll goes first. The play will proceed
    in a clockwise order.' — 6, 6, 1: P1 and P2 roll again (3, 5) and P2 starts; P3 does not roll."""
    state = rules(3).new_initial_state(0)
    reveal(state, *ROOMS4)
    draw(state, *(["Bee"] * 3 + ["Cook"] * 3 + ["Daedalist"] * 3 + ["Doctor"] * 3))
    roll(state, 6, 6, 1, 3, 5)
    assert state.current_player == CHANCE
    assert not any(str(a).startswith("roll") for a, _ in list(state.chance_outcomes() or ()))
    draw(state, "Jehu")
    assert state.decision == "action"
    assert state.turn_player == 1
    assert [state.hand_size(p) for p in range(3)] == [4, 5, 4]


@pytest.mark.parametrize(("farm", "ends"), [("points", True), ("lands", False)])
def test_the_farms_plus_one_counts_towards_the_goal(farm: str, ends: bool) -> None:
    """'Forest of the Manitou — Farm: +1 Capacity is added to the total Capacity of all your lands (sum
    all lands together, then add +1).' — read as a point (default): Farm 1 + 3 + 3 + 1 = 8, +1 = 9, a
    1-point room makes 10 and ends the game; read as a sixth land's room (farm=lands) it is 9."""
    state = position(
        2,
        rules_options={"farm": farm},
        hands=[{"Executioner": 1}],
        lands=[["Forest of the Manitou", THREE[0], THREE[1], ONE[0]], []],
    )
    act(state, "quest Unnamed room 1 with Executioner")
    roll(state, 1)
    finish_turn(state)
    assert state.is_terminal is ends


@pytest.mark.parametrize(("limit", "words"), [(1, "1 turn,"), (2, "2 turns,")])
def test_the_turn_limit_is_labelled_not_in_the_rulebook_and_counts_its_turns(limit: int, words: str) -> None:
    """The rulebook has no turn limit: the safeguard's end says so, names the most points the winner
    (as 'The player with the most points wins'), and words its count ('1 turn', not '1 turns')."""
    state = position(
        2,
        rules_options={"turn_limit": limit},
        turn=(limit - 1) % 2,
        hands=[{"Bee": 1}, {"Bee": 1}],
        lands=[[THREE[0]], [ONE[0]]],
    )
    for _ in range(limit):
        act(state, "resupply")
        finish_turn(state)
    assert state.is_terminal
    outcome = state.outcome()
    assert outcome is not None
    assert "not in the rulebook" in outcome.reason and words in outcome.reason
    assert outcome.winners == (0,)


def test_a_map_on_an_empty_meikyu_pile_is_refused() -> None:
    """'Map — Draw one extra (fifth) area from the Meikyu card pile': with the pile empty there is no
    area to draw; the Map is refused, saying why, and the game is not ended by it."""
    state = position(2, hands=[{"Map": 1, "Bee": 1}], meikyu_pile=[])
    assert "map" not in [str(a) for a in state.legal_actions()]
    with pytest.raises(IllegalAction, match="Meikyu pile is empty"):
        act(state, "map")
    assert not state.is_terminal


def test_a_map_drawing_the_last_room_leaves_five_to_conquer() -> None:
    """The Map's fifth area is the Meikyu pile's last card: five rooms, an empty pile, no end."""
    state = position(2, hands=[{"Map": 1, "Bee": 1}], meikyu_pile=[ONE[0]])
    act(state, "map")
    reveal(state, ONE[0])
    assert len(state.rooms()) == 5 and state.meikyu_pile_size() == 0
    assert not state.is_terminal
