"""The ability language: every demo card's text is encoded exactly; each effect does what it says."""

from __future__ import annotations

import json

import jsonschema
import pytest

from cardbase.catalog.loader import shipped_path
from cardbase.games.base import CHANCE
from cardbase.games.mea.abilities import (
    EFFECTS,
    AbilityError,
    parse_abilities,
    parse_ability,
    render_card,
)
from cardbase.games.mea.codes import BOARD, DECK, HAND, OUT
from cardbase.games.mea.engine import MeaState
from tests.conftest import REPO
from tests.mea.conftest import (
    DEMO,
    GIANT,
    KNIGHT,
    PAWN,
    WALL,
    Table,
    assist,
    demo,
    legal_texts,
    names_on,
    rules_for,
    started,
    tile,
)

DEMO_CARDS = json.loads(shipped_path("mea_demo.json").read_text(encoding="utf-8"))["cards"]


@pytest.mark.parametrize("record", DEMO_CARDS, ids=[c["name"] for c in DEMO_CARDS])
def test_every_demo_card_text_is_its_abilities_in_words(record):
    abilities = parse_abilities(record["abilities"], record["type"])
    assert render_card(abilities) == (record["text"] or "")
    assert [a.to_dict() for a in abilities] == record["abilities"]  # stored in canonical form


def test_every_effect_is_used_by_the_demo_set():
    used = {a["effect"] for c in DEMO_CARDS for a in c["abilities"]}
    assert used == set(EFFECTS)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"trigger": "sometimes", "effect": "draw"}, "trigger: one of"),
        ({"trigger": "summoned", "effect": "explode"}, "effect: one of"),
        ({"trigger": "summoned", "effect": "kill", "target": "you"}, "kill takes"),
        ({"trigger": "summoned", "effect": "draw", "amount": 0}, "amount"),
        ({"trigger": "summoned", "effect": "draw", "colour": "red"}, "unknown field 'colour'"),
        ({"trigger": "summoned", "effect": "draw", "condition": {"count": "luck", "at_least": 1}}, "condition.count"),
        ({"trigger": "summoned", "effect": "draw", "condition": {"count": "cards_in_hand"}}, "at_least or at_most"),
        ({"trigger": "summoned", "effect": "draw", "until": "end_of_turn"}, "until"),
        ({"trigger": "summoned", "effect": "kill", "exhausted": True}, "exhausted"),
        ({"trigger": "summoned", "effect": "flip_tile", "filter": {"attack_at_most": 2}}, "monster targets"),
        ({"trigger": "summoned", "effect": "kill", "filter": {"empty": True}}, "tile targets"),
    ],
)
def test_an_ability_outside_the_language_is_refused_naming_the_field(data, message):
    with pytest.raises(AbilityError, match=message):
        parse_ability(data)


def test_abilities_must_suit_the_card_type():
    with pytest.raises(AbilityError, match="an assist's abilities happen when it is played"):
        parse_abilities([{"trigger": "summoned", "effect": "draw"}], "assist")
    with pytest.raises(AbilityError, match='no "this monster"'):
        parse_abilities([{"trigger": "play", "effect": "gain_attack", "target": "self"}], "assist")
    with pytest.raises(AbilityError, match="a monster's trigger"):
        parse_abilities([{"trigger": "play", "effect": "draw"}], "monster")


def test_the_catalog_schema_checks_abilities():
    schema = json.loads((REPO / "schema" / "catalog.mea.schema.json").read_text(encoding="utf-8"))
    good = {
        "game": "mea",
        "set": "mine",
        "source": "file:mine.json",
        "cards": [
            {
                "name": "Ogre",
                "type": "monster",
                "cost": 3,
                "attack": 3,
                "defence": 3,
                "abilities": [{"trigger": "summoned", "effect": "kill", "filter": {"defence_at_most": 2}}],
            }
        ],
    }
    jsonschema.validate(good, schema)
    bad = json.loads(json.dumps(good))
    bad["cards"][0]["abilities"][0]["effect"] = "explode"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)


def test_catalog_files_with_a_bad_ability_are_refused():
    from cardbase.catalog.loader import parse_catalog
    from cardbase.errors import UnreadableInput

    data = {
        "game": "mea",
        "set": "mine",
        "source": "file:x",
        "cards": [
            {"name": "Vial", "type": "assist", "cost": 1, "abilities": [{"trigger": "summoned", "effect": "draw"}]}
        ],
    }
    with pytest.raises(UnreadableInput, match="assist"):
        parse_catalog(json.dumps(data).encode(), "x.json")


# --- each effect, with demo cards -------------------------------------------------------


def test_draw_naive_squire():
    state = started(rules_for([demo("Naïve Squire")], []))
    t = Table(state)
    state = t.turn(0)
    hand = len(state.hand(0))
    state.apply_text("summon Naïve Squire b1")
    assert len(state.hand(0)) == hand  # played one, drew one


def test_add_tile_royal_cartographer_adds_then_draws():
    state = started(rules_for([demo("Royal Cartographer")], []))
    state = Table(state).turn(0)
    hand = len(state.hand(0))
    state.apply_text("summon Royal Cartographer b1")
    assert state.phase == "choice"
    options = legal_texts(state)
    assert "choose b0" in options and "choose d2" in options and "choose b2" not in options
    state.apply_text("choose b0")
    assert state.tiles()[tile("b0")] == 0 and len(state.hand(0)) == hand


def test_add_tile_respects_the_tile_supply():
    state = started(rules_for([demo("Goblin Real Estate")], [], tile_supply=9))
    state = Table(state).turn(0)
    state.apply_text("play Goblin Real Estate")
    assert len(state.tiles()) == 9 and state.phase == "main"


def test_flip_adjacent_pickpocket_ferret():
    state = started(rules_for([demo("Pickpocket Ferret")], []))
    state = Table(state).turn(0)
    state.apply_text("summon Pickpocket Ferret b1")
    assert legal_texts(state) == ["choose a1", "choose b2", "choose c1"]
    state.apply_text("choose b2")
    assert state.tiles()[tile("b2")] == 0


def test_flip_with_no_monster_goblin_surveyor_and_displacement_by_ability_flip():
    state = started(rules_for([demo("Fence-Hopping Sheep")], [PAWN], layout="sides"))
    t = Table(state)
    pawn = t.put(1, "Pawn", "b2")
    state = t.turn(0)
    state.apply_text("summon Fence-Hopping Sheep b1")  # adjacent enemy tiles: only b2
    assert state.tiles()[tile("b2")] == 0
    assert state.current_player == 1 and legal_texts(state) == ["choose b3", "choose c2"]
    state.apply_text("choose b3")
    assert state.tile_of(pawn) == tile("b3") and state.current_player == 0
    state = started(rules_for([demo("Goblin Surveyor")], [PAWN]))
    t = Table(state)
    t.put(1, "Pawn", "b2")
    state = t.turn(0)
    state.apply_text("summon Goblin Surveyor b1")
    assert legal_texts(state) == ["choose a1", "choose a3", "choose c1", "choose c3"]


def test_destroy_tiny_shovel_gnome_and_siege_snail_at_turn_start():
    state = started(rules_for([demo("Siege Snail")], [PAWN, PAWN, PAWN, PAWN]))
    t = Table(state)
    t.put(0, "Siege Snail", "b1")
    for name in ("a1", "c1", "b2"):
        t.put(1, "Pawn", name)
    state = t.turn(1, mana=0)
    state.apply_text("draw 1")  # P1's turn starts: the Snail destroys the only empty enemy tile it can
    assert state.phase == "choice" and legal_texts(state) == ["choose a3", "choose c3"]
    state.apply_text("choose a3")
    assert tile("a3") not in state.tiles()


def test_obliterate_earthquake_elephant_takes_monsters_without_when_killed():
    state = started(rules_for([demo("Earthquake Elephant")], [demo("Dizzy Bat")]))
    t = Table(state)
    bat = t.put(1, "Dizzy Bat", "b2")
    state = t.turn(0)
    hand = len(state.hand(1))
    state.apply_text("summon Earthquake Elephant b1")
    state.apply_text("choose b2")
    assert tile("b2") not in state.tiles() and state.zone(bat) == OUT and len(state.hand(1)) == hand


def test_kill_with_defence_filter_and_on_adjacent_tile():
    state = started(rules_for([demo("Goose of Reckoning"), demo("Hungry Hydra")], [PAWN, KNIGHT, WALL]))
    t = Table(state)
    pawn = t.put(1, "Pawn", "c3")
    knight = t.put(1, "Knight", "b2")
    wall = t.put(1, "Wall", "a1")
    t.give(0, "Hungry Hydra")
    state = t.turn(0)
    state.apply_text("summon Goose of Reckoning b3")  # defence 1 or less: only the Pawn, resolved at once
    assert state.zone(pawn) == OUT
    state.apply_text("summon Hungry Hydra b1")  # adjacent to b1: a1 (Wall) and b2 (Knight)
    assert legal_texts(state) == ["choose Wall@a1", "choose Knight@b2"]
    state.apply_text("choose Knight@b2")
    assert state.zone(knight) == OUT and state.zone(wall) == BOARD


def test_when_killed_draw_dizzy_bat_and_add_tile_tile_mole_for_its_controller():
    state = started(rules_for([demo("Pocket Sand"), GIANT], [demo("Dizzy Bat"), demo("Tile Mole")]))
    t = Table(state)
    t.put(1, "Dizzy Bat", "b2")
    t.put(1, "Tile Mole", "a1")
    t.give(0, "Pocket Sand")
    t.put(0, "Giant", "b1")
    state = t.turn(0)
    hand = len(state.hand(1))
    state.apply_text("attack b2 with Giant@b1")
    assert len(state.hand(1)) == hand + 1  # the Bat's owner draws
    tiles = len(state.tiles())
    state.apply_text("play Pocket Sand")  # defence 1 or less: the Mole (0/2)? no: defence 2 > 1
    assert len(state.tiles()) == tiles
    state = started(rules_for([GIANT], [demo("Tile Mole")]))
    t = Table(state)
    t.put(1, "Tile Mole", "b2")
    t.put(0, "Giant", "b1")
    state = t.turn(0)
    state.apply_text("attack b2 with Giant@b1")
    assert state.current_player == 1 and state.phase == "choice"  # P2 places its new tile
    state.apply_text(legal_texts(state)[0])
    assert sum(1 for o in state.tiles().values() if o == 1) == 5


def test_return_to_hand_tidal_nanny_and_bard_of_bad_tidings_when_killed():
    state = started(rules_for([demo("Tidal Nanny")], [KNIGHT]))
    t = Table(state)
    k = t.put(1, "Knight", "b2")
    state = t.turn(0)
    state.set_monster(k, attack=state.board_view().attacks[k] + 2)  # a buff is lost on the way back
    state.apply_text("summon Tidal Nanny b1")
    assert state.zone(k) == HAND and k in state.hand(1) and state.attack_of(k) == 3
    state = started(rules_for([GIANT, PAWN], [demo("Bard of Bad Tidings")]))
    t = Table(state)
    g = t.put(0, "Giant", "b1")
    t.put(0, "Pawn", "a2")
    t.put(1, "Bard of Bad Tidings", "b2")
    state = t.turn(0)
    state.apply_text("attack b2 with Giant@b1")  # Bard killed: its owner returns one of P1's monsters
    assert state.current_player == 1 and legal_texts(state) == ["choose Pawn@a2", "choose Giant@b2"]
    state.apply_text("choose Giant@b2")
    assert g in state.hand(0)


def test_take_control_with_attack_filter_tax_collector_toad():
    state = started(rules_for([demo("Tax Collector Toad")], [PAWN, KNIGHT]))
    t = Table(state)
    pawn = t.put(1, "Pawn", "b2")
    knight = t.put(1, "Knight", "a1")
    state = t.turn(0)
    state.apply_text("summon Tax Collector Toad b1")
    assert state.controller(pawn) == 0 and state.controller(knight) == 1
    assert not state.can_attack(pawn)


def test_gain_attack_permanent_at_turn_start_and_until_end_of_turn():
    state = started(rules_for([demo("Hopeful Newt"), demo("Pep Talk")], []))
    t = Table(state)
    newt = t.put(0, "Hopeful Newt", "b1")
    state = t.turn(1, mana=0)
    state.apply_text("draw 1")
    assert state.attack_of(newt) == 2  # +1 at the start of P1's turn, for good
    t.give(0, "Pep Talk")
    state.apply_text("play Pep Talk")  # one friendly monster: no choice
    assert state.attack_of(newt) == 4
    state.apply_text("draw 1")
    assert state.attack_of(newt) == 2  # the +2 lasted until the end of P1's turn


def test_gain_defence_doorstop_troll_may_pick_itself():
    state = started(rules_for([demo("Doorstop Troll"), PAWN], []))
    t = Table(state)
    pawn = t.put(0, "Pawn", "a2")
    state = t.turn(0)
    state.apply_text("summon Doorstop Troll b1")
    assert legal_texts(state) == ["choose Pawn@a2", "choose Doorstop Troll@b1"]
    state.apply_text("choose Pawn@a2")
    assert state.defence_of(pawn) == 2


def test_extra_attack_jalapeno_imp_attacks_twice_but_cannot_move_after():
    state = started(rules_for([demo("Jalapeño Imp")], [PAWN, PAWN]))
    t = Table(state)
    t.put(1, "Pawn", "a1")
    t.put(1, "Pawn", "a2")  # standing on P1's tile
    state = t.turn(0)
    state.apply_text("summon Jalapeño Imp b1")
    state.apply_text("attack a1 with Jalapeño Imp@b1")  # kills, moves in, flips a1
    imp = state.on_tile(tile("a1"))[0]
    assert state.can_attack(imp) and not state.can_move(imp)
    state.apply_text("attack a2 with Jalapeño Imp@a1")
    assert state.tile_of(imp) == tile("a2") and not state.can_attack(imp)
    assert state.tiles()[tile("a1")] == 0


def test_extra_action_strong_coffee_moves_then_attacks():
    state = started(rules_for([KNIGHT, demo("Strong Coffee")], [PAWN]))
    t = Table(state)
    k = t.put(0, "Knight", "b1")
    t.give(0, "Strong Coffee")
    t.put(1, "Pawn", "b3")
    state = t.turn(0)
    state.apply_text("move Knight@b1 b2")
    assert not state.can_move(k)
    state.apply_text("play Strong Coffee")
    state.apply_text("attack b3 with Knight@b2")
    assert state.tile_of(k) == tile("b3")


def test_conditions_knight_of_the_soggy_table_needs_five_tiles():
    state = started(rules_for([demo("Knight of the Soggy Table")] * 2, []))
    t = Table(state)
    t.give(0, "Knight of the Soggy Table")
    state = t.turn(0)
    hand = len(state.hand(0))
    state.apply_text("summon Knight of the Soggy Table b1")  # 4 tiles: no draw
    assert len(state.hand(0)) == hand - 1
    t.owner("b2", 0)
    state.apply_text("summon Knight of the Soggy Table a2")  # 5 tiles: draws
    assert len(state.hand(0)) == hand - 1


def test_tile_titan_kills_then_may_attack_twice_with_five_tiles():
    state = started(rules_for([demo("Tile Titan")], [PAWN, PAWN]))
    t = Table(state)
    t.owner("b2", 0)
    t.put(1, "Pawn", "a1")
    t.put(1, "Pawn", "c3")
    state = t.turn(0)
    state.apply_text("summon Tile Titan b1")  # adjacent: the Pawn on a1 only
    titan = state.on_tile(tile("b1"))[0]
    assert names_on(state, "a1") == [] and state.extra_attacks(titan) == 1


def test_every_demo_card_resolves_in_a_busy_position():
    """Summon or play each demo card with targets about; resolve any choices; the game goes on."""
    for name, card in DEMO.items():
        state = started(rules_for([card, KNIGHT, PAWN], [KNIGHT, PAWN, WALL]))
        t = Table(state)
        t.put(0, "Knight", "c2")
        t.put(0, "Pawn", "b2")
        t.put(1, "Knight", "b1")
        t.put(1, "Pawn", "c3")
        t.put(1, "Wall", "c1")
        t.give(0, name)
        state = t.turn(0)
        action = next(a for a in state.legal_actions() if a[0] in ("summon", "play") and a[1] == name)
        state.apply(action)
        while state.current_player != CHANCE and state.phase == "choice":
            state.apply(state.legal_actions()[0])
        assert state.is_terminal or state.phase == "main", name


# Each demo card with an ability, played in one position, and what its text says must follow.
# P1 (to play): Knight 3/3 on c2, Pawn 1/1 on P2's b2. P2: Knight 3/3 on P1's b1, Pawn 1/1 on c3, Wall 1/6 on c1.
# Empty enemy tiles: a1, a3. ``tile``: where a monster is summoned (None: an assist); ``choices``: typed in turn.
# ``check(state, ids, before)``: ids by "P1 Knight", …; before: (P1 hand, P1 tiles, P2 tiles, P2 hand).
_SAID = {
    "Naïve Squire": ("a2", [], lambda s, m, b: s.hand_size(0) == b[0] - 1 + 1),
    "Lantern Sprite": ("a2", [], lambda s, m, b: s.hand_size(0) == b[0] - 1 + 1),
    "Scroll-Hoarding Owl": ("a2", [], lambda s, m, b: s.hand_size(0) == b[0] - 1 + 2),
    "Pickpocket Ferret": (
        "b3",
        ["choose c3"],  # c3 flips; P2's Pawn has no blue tile next to c3: back to P2's hand
        lambda s, m, b: s.tiles()[tile("c3")] == 0 and m["P2 Pawn"] in s.hand(1),
    ),
    "Fence-Hopping Sheep": ("b3", ["choose a3"], lambda s, m, b: s.tiles()[tile("a3")] == 0),
    "Doorstop Troll": ("a2", ["choose Knight@c2"], lambda s, m, b: s.defence_of(m["P1 Knight"]) == 4),
    "Tiny Shovel Gnome": ("a2", ["choose a1"], lambda s, m, b: tile("a1") not in s.tiles() and len(s.tiles()) == 8),
    "Overly Generous Gnome": ("a2", ["choose d1"], lambda s, m, b: s.tiles()[tile("d1")] == 1),
    "Goose of Reckoning": ("a2", [], lambda s, m, b: s.zone(m["P2 Pawn"]) == OUT),  # the only defence ≤ 1
    "Jalapeño Imp": ("a2", [], lambda s, m, b: s.extra_attacks(s.on_tile(tile("a2"))[0]) == 1),
    "Drill Sergeant Badger": ("a2", ["choose Knight@c2"], lambda s, m, b: s.actions_left(m["P1 Knight"]) == 2),
    "Tax Collector Toad": (
        "a2",
        ["choose Wall@c1"],  # attack 1 or less: P2's Pawn and Wall
        lambda s, m, b: s.controller(m["P2 Wall"]) == 0 and not s.can_move(m["P2 Wall"]),
    ),
    "Knight of the Soggy Table": ("a2", [], lambda s, m, b: s.hand_size(0) == b[0] - 1),  # 4 tiles: no draw
    "Royal Cartographer": (
        "a2",
        ["choose -a2"],
        lambda s, m, b: s.tiles()[tile("-a2")] == 0 and s.hand_size(0) == b[0] - 1 + 1,
    ),
    "Hungry Hydra": (  # c3 is b3's only enemy neighbour; an ability's kill moves nothing in and flips nothing
        "b3",
        [],
        lambda s, m, b: (
            s.zone(m["P2 Pawn"]) == OUT and s.tiles()[tile("c3")] == 1 and names_on(s, "b3") == ["Hungry Hydra"]
        ),
    ),
    "Tidal Nanny": ("a2", ["choose Knight@b1"], lambda s, m, b: m["P2 Knight"] in s.hand(1)),
    "Goblin Surveyor": ("a2", ["choose a3"], lambda s, m, b: s.tiles()[tile("a3")] == 0),
    "Earthquake Elephant": (
        "b3",
        ["choose c3"],
        lambda s, m, b: tile("c3") not in s.tiles() and s.zone(m["P2 Pawn"]) == OUT and s.hand_size(1) == b[3],
    ),
    "Land-Eating Leviathan": ("b3", ["choose a3"], lambda s, m, b: tile("a3") not in s.tiles()),
    "Mesmerist Moth": (
        "a2",
        ["choose Knight@b1"],
        lambda s, m, b: s.controller(m["P2 Knight"]) == 0 and not s.can_attack(m["P2 Knight"]),
    ),
    "Dragon of Mild Inconvenience": ("a2", ["choose Knight@b1"], lambda s, m, b: s.zone(m["P2 Knight"]) == OUT),
    "Tile Titan": (
        "b3",
        [],  # kills the Pawn on c3; 4 tiles: no second attack
        lambda s, m, b: s.zone(m["P2 Pawn"]) == OUT and s.extra_attacks(s.on_tile(tile("b3"))[0]) == 0,
    ),
    "Pocket Sand": (None, [], lambda s, m, b: s.zone(m["P2 Pawn"]) == OUT),
    "Strong Coffee": (None, ["choose Knight@c2"], lambda s, m, b: s.actions_left(m["P1 Knight"]) == 2),
    "Pep Talk": (None, ["choose Knight@c2"], lambda s, m, b: s.attack_of(m["P1 Knight"]) == 5),
    "Extra Blanket": (None, ["choose Knight@c2"], lambda s, m, b: s.defence_of(m["P1 Knight"]) == 5),
    "Fortune Cookie": (None, [], lambda s, m, b: s.hand_size(0) == b[0] - 1 + 1),  # 4 tiles: one card
    "Shortcut Through the Hedge": (None, ["choose a1"], lambda s, m, b: s.tiles()[tile("a1")] == 0),
    "Sudden Sinkhole": (None, ["choose a3"], lambda s, m, b: tile("a3") not in s.tiles()),
    "Library Card": (None, [], lambda s, m, b: s.hand_size(0) == b[0] - 1 + 2),
    "Goblin Real Estate": (None, ["choose b0"], lambda s, m, b: s.tiles()[tile("b0")] == 0),
    "Charity Parade": (
        None,
        ["choose d1", "choose Knight@c2"],
        lambda s, m, b: s.tiles()[tile("d1")] == 1 and s.attack_of(m["P1 Knight"]) == 6,
    ),
    "Tripwire": (None, [], lambda s, m, b: s.zone(m["P2 Pawn"]) == OUT),  # defence ≤ 2: the Pawn alone
    "Sugar Rush": (
        None,
        ["choose Knight@c2", "choose Pawn@b2"],
        lambda s, m, b: s.attack_of(m["P1 Knight"]) == 5 and s.actions_left(m["P1 Pawn"]) == 2,
    ),
    "Bucket of Cold Water": (None, ["choose Wall@c1"], lambda s, m, b: m["P2 Wall"] in s.hand(1)),
    "Bribe of Biscuits": (None, ["choose Pawn@c3"], lambda s, m, b: s.controller(m["P2 Pawn"]) == 0),
    "Falling Piano": (None, ["choose Knight@b1"], lambda s, m, b: s.zone(m["P2 Knight"]) == OUT),
    "Battle Hymn": (None, ["choose Pawn@b2"], lambda s, m, b: s.attack_of(m["P1 Pawn"]) == 4),  # 4 tiles ≥ 3
    "Mortgage Papers": (
        None,
        ["choose b0", "choose a1"],
        lambda s, m, b: s.tiles()[tile("b0")] == 0 and s.tiles()[tile("a1")] == 0,
    ),
    "Reinforced Pants": (
        None,
        ["choose Pawn@b2"],
        lambda s, m, b: s.defence_of(m["P1 Pawn"]) == 4 and s.hand_size(0) == b[0] - 1 + 1,
    ),
    "Surprise Trapdoor": (
        None,
        ["choose a1"],
        lambda s, m, b: tile("a1") not in s.tiles() and s.hand_size(0) == b[0] - 1 + 1,
    ),
    # The flip makes 5 tiles, then "If you control 5 or more tiles" is counted: the card is drawn.
    "Scout's Honour": (
        None,
        ["choose a3"],
        lambda s, m, b: s.tiles()[tile("a3")] == 0 and s.hand_size(0) == b[0] - 1 + 1,
    ),
    "Anvil Drop": (None, ["choose Knight@b1"], lambda s, m, b: s.zone(m["P2 Knight"]) == OUT),
    "Very Long Nap": (
        None,
        ["choose Pawn@c3"],
        lambda s, m, b: m["P2 Pawn"] in s.hand(1) and s.hand_size(0) == b[0] - 1 + 1,
    ),
    "Grand Heist": (None, ["choose Knight@b1"], lambda s, m, b: s.controller(m["P2 Knight"]) == 0),
    "Dragon Sneeze": (None, ["choose Wall@c1"], lambda s, m, b: s.zone(m["P2 Wall"]) == OUT),  # defence 6 ≤ 9
}


@pytest.mark.parametrize("name", sorted(_SAID))
def test_a_demo_card_does_what_its_text_says(name):
    """A sample of the demo cards' texts (every kind of effect, target, filter and condition), each checked
    against what the engine does with it in one position: the choices offered are the text's targets."""
    where_to, choices, check = _SAID[name]
    state = started(rules_for([DEMO[name], KNIGHT, PAWN], [KNIGHT, PAWN, WALL]))
    t = Table(state)
    ids = {
        "P1 Knight": t.put(0, "Knight", "c2"),
        "P1 Pawn": t.put(0, "Pawn", "b2"),
        "P2 Knight": t.put(1, "Knight", "b1"),
        "P2 Pawn": t.put(1, "Pawn", "c3"),
        "P2 Wall": t.put(1, "Wall", "c1"),
    }
    t.give(0, name)
    state = t.turn(0)
    before = (state.hand_size(0), state.tile_count(0), state.tile_count(1), state.hand_size(1))
    state.apply_text(f"summon {name} {where_to}" if where_to else f"play {name}")
    for choice in choices:
        assert state.phase == "choice" and choice in legal_texts(state), (choice, legal_texts(state))
        state.apply_text(choice)
    assert state.phase == "main" and state.current_player == 0
    assert check(state, ids, before)


# The demo cards whose abilities fire at the start or the end of their controller's turn ("At the start of
# your turn - AFTER you have flipped any tiles …, but BEFORE any other actions"; "At the end of your turn -
# AFTER you have drawn the card(s)"), each in one position: P1's Pawn 1/1 on a2 beside the card on b1.


def _turn_table(name: str) -> tuple[MeaState, Table, dict[str, int]]:
    state = started(rules_for([demo(name), PAWN], [KNIGHT]))
    t = Table(state)
    ids = {"card": t.put(0, name, "b1"), "Pawn": t.put(0, "Pawn", "a2")}
    return state, t, ids


def test_at_the_start_of_your_turn_rowdy_minstrel_gives_two_attack_until_its_end():
    state, t, m = _turn_table("Rowdy Minstrel")
    state = t.turn(1, mana=0)
    state.apply_text("draw 1")  # P1's turn starts: the Minstrel's +2 to a friendly monster, P1 choosing
    assert state.current_player == 0 and legal_texts(state) == ["choose Pawn@a2", "choose Rowdy Minstrel@b1"]
    state.apply_text("choose Pawn@a2")
    assert state.phase == "main" and state.attack_of(m["Pawn"]) == 3 and state.attack_of(m["card"]) == 3
    state.apply_text("draw 1")  # "until the end of turn"
    assert state.attack_of(m["Pawn"]) == 1


def test_at_the_start_of_your_turn_berserk_beekeeper_may_attack_twice():
    state, t, m = _turn_table("Berserk Beekeeper")
    assert state.extra_attacks(m["card"]) == 0
    state = t.turn(1, mana=0)
    state.apply_text("draw 1")
    assert state.phase == "main" and state.active == 0
    assert state.extra_attacks(m["card"]) == 1 and state.extra_attacks(m["Pawn"]) == 0


def test_at_the_start_of_your_turn_warlord_wombat_gives_a_friendly_monster_an_extra_action():
    state, t, m = _turn_table("Warlord Wombat")
    state = t.turn(1, mana=0)
    state.apply_text("draw 1")
    assert state.current_player == 0 and legal_texts(state) == ["choose Pawn@a2", "choose Warlord Wombat@b1"]
    state.apply_text("choose Pawn@a2")
    assert state.actions_left(m["Pawn"]) == 2 and state.actions_left(m["card"]) == 1


def test_at_the_end_of_your_turn_grand_librarian_lich_draws_after_the_turns_draw():
    state, t, _ = _turn_table("Grand Librarian Lich")
    state = t.turn(0)
    hand = state.hand_size(0)
    state.apply_text("draw 2")
    assert state.active == 1 and state.hand_size(0) == hand + 3
    state.apply_text("draw 1")  # not at the end of P2's turn
    assert state.hand_size(0) == hand + 3
    # One card left: the turn's draw takes it, then the Lich has none to draw and is ignored
    # ("If an ability cannot activate when it should … ignore it"); the turn is not one without a card.
    state, t, _ = _turn_table("Grand Librarian Lich")
    t.empty_deck(0)
    last = next(i for i in state.out_of_play() if state.owner(i) == 0 and state.zone(i) == OUT)
    state.place_card(last, DECK)
    state = t.turn(0)
    hand = state.hand_size(0)
    state.apply_text("draw 1")
    assert not state.is_terminal and state.active == 1 and state.phase == "main"
    assert state.hand_size(0) == hand + 1 and last in state.hand(0) and state.deck_size(0) == 0
    assert len(state.tiles()) == 9  # nothing obliterated


def test_at_the_end_of_your_turn_grudge_holding_goat_gains_attack_for_good():
    state, t, m = _turn_table("Grudge-Holding Goat")
    state = t.turn(0)
    state.apply_text("draw 1")
    assert state.active == 1 and state.attack_of(m["card"]) == 3 and state.attack_of(m["Pawn"]) == 1
    state.apply_text("draw 1")  # P2's turn ends: no more; P1's next turn starts with the Goat at 3
    assert state.active == 0 and state.attack_of(m["card"]) == 3
    state.apply_text("draw 1")
    assert state.attack_of(m["card"]) == 4


def test_at_the_end_of_your_turn_pillow_fort_warden_gives_a_friendly_monster_defence_for_good():
    state, t, m = _turn_table("Pillow Fort Warden")
    state = t.turn(0)
    state.apply_text("draw 1")
    assert state.current_player == 0 and legal_texts(state) == ["choose Pawn@a2", "choose Pillow Fort Warden@b1"]
    state.apply_text("choose Pawn@a2")
    assert state.active == 1 and state.defence_of(m["Pawn"]) == 2
    state.apply_text("draw 1")
    assert state.active == 0 and state.defence_of(m["Pawn"]) == 2


# The language's words the demo set does not use (conditions on other counts, other targets), each on an
# assist "Spell" in the demo cards' position: P1 (to play): Knight 3/3 on c2, Pawn 1/1 on P2's b2; P2:
# Knight 3/3 on P1's b1, Pawn 1/1 on c3, Wall 1/6 on c1. P1's tiles: a2, b1, b3, c2; P2's: a1, a3, b2, c1, c3.
_DRAW = {"trigger": "play", "effect": "draw", "amount": 1}
_UNUSED = {
    "enemy tiles at least 5: drawn": ({**_DRAW, "condition": {"count": "enemy_tiles", "at_least": 5}}, None, 1),
    "enemy tiles at least 6: not drawn": ({**_DRAW, "condition": {"count": "enemy_tiles", "at_least": 6}}, None, 0),
    "friendly monsters at least 2": ({**_DRAW, "condition": {"count": "friendly_monsters", "at_least": 2}}, None, 1),
    "friendly monsters at least 3": ({**_DRAW, "condition": {"count": "friendly_monsters", "at_least": 3}}, None, 0),
    "enemy monsters at most 3": ({**_DRAW, "condition": {"count": "enemy_monsters", "at_most": 3}}, None, 1),
    "enemy monsters at most 2": ({**_DRAW, "condition": {"count": "enemy_monsters", "at_most": 2}}, None, 0),
    "kill any monster": (
        {"trigger": "play", "effect": "kill", "target": "any_monster", "filter": {"defence_at_most": 1}},
        {"choose Pawn@b2", "choose Pawn@c3"},
        None,
    ),
    "return a friendly monster": (
        {"trigger": "play", "effect": "return_to_hand", "target": "friendly_monster"},
        {"choose Knight@c2", "choose Pawn@b2"},
        None,
    ),
    "return any monster": (
        {"trigger": "play", "effect": "return_to_hand", "target": "any_monster", "filter": {"attack_at_most": 1}},
        {"choose Pawn@b2", "choose Pawn@c3", "choose Wall@c1"},
        None,
    ),
    "destroy an empty friendly tile": (
        {"trigger": "play", "effect": "destroy_tile", "target": "friendly_tile", "filter": {"empty": True}},
        {"choose a2", "choose b3"},
        None,
    ),
    "destroy any empty tile": (
        {"trigger": "play", "effect": "destroy_tile", "target": "any_tile", "filter": {"empty": True}},
        {"choose a1", "choose a2", "choose a3", "choose b3"},
        None,
    ),
    "obliterate any tile": (
        {"trigger": "play", "effect": "obliterate_tile", "target": "any_tile"},
        {f"choose {x}{y}" for x in "abc" for y in "123"},
        None,
    ),
    "obliterate a friendly tile": (
        {"trigger": "play", "effect": "obliterate_tile", "target": "friendly_tile"},
        {"choose a2", "choose b1", "choose b3", "choose c2"},
        None,
    ),
}


@pytest.mark.parametrize("case", sorted(_UNUSED))
def test_the_languages_words_the_demo_set_does_not_use_do_what_they_say(case):
    ability, choices, drawn = _UNUSED[case]
    spell = assist("Spell", 0, [ability])
    state = started(rules_for([spell, KNIGHT, PAWN], [KNIGHT, PAWN, WALL]))
    t = Table(state)
    for seat, name, where in ((0, "Knight", "c2"), (0, "Pawn", "b2"), (1, "Knight", "b1"), (1, "Pawn", "c3")):
        t.put(seat, name, where)
    t.put(1, "Wall", "c1")
    t.give(0, "Spell")
    state = t.turn(0)
    hand = state.hand_size(0)
    state.apply_text("play Spell")
    if drawn is not None:
        assert state.phase == "main" and state.hand_size(0) == hand - 1 + drawn
    else:
        assert state.phase == "choice" and state.current_player == 0 and set(legal_texts(state)) == choices
