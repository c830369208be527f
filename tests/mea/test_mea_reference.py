"""The engine against an independent reading of the *Méa* rulebook's core rules
(``mea_reference.py``), over seeded random games of vanilla monsters (made-up cards, no
abilities) under the default readings and the options the reference knows: at every step the
same player acts in the same phase, the legal actions are the same set, and after every action
the board (tile owners; each monster's tile, controller, whether it has acted, whether it was
summoned this turn), both hands, both decks, the mana, whose turn it is, the end and the winners
are the same. The two share only the notation: the engine's actions are read as text, and the
reference's choice is given to the engine as text."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from cardbase.games.base import CHANCE, TERMINAL, IllegalAction
from cardbase.games.mea import board as B
from cardbase.games.mea.engine import MeaState
from cardbase.games.mea.rules import MeaDeck, MeaRules
from tests.mea.conftest import monster
from tests.mea.mea_reference import Card, Reference, read, write

OPTIONS: list[dict[str, Any]] = [
    {},
    {"list_losing_draws": True},
    {"attack_rule": "all"},
    {"move_in": "first"},
    {"mana_count": "after-flip"},
    {"adjacency": "diagonal"},
    {"layout": "sides"},
    {"max_turns": 12},
    {"move_onto_enemy": "allowed"},
    {"move_onto_enemy": "allowed", "displaced_onto": "no-enemy"},
    {"move_onto_enemy": "allowed", "adjacency": "diagonal", "move_in": "first"},
    {"elimination": "turn-start"},
    {"elimination": "turn-start", "move_onto_enemy": "allowed", "list_losing_draws": True},
    {"tiles_per_colour": 5},
    {"tiles_per_colour": 5, "move_onto_enemy": "allowed", "layout": "sides"},
    {"mana_minimum": 0, "second_player_bonus": 2, "bonus_turns": 1},
    {"copies": True},
    {"copies": True, "move_onto_enemy": "allowed", "move_in": "first"},
    {"copies": True, "move_onto_enemy": "allowed", "adjacency": "diagonal", "tiles_per_colour": 5},
    {"summoned_alone": "refused"},
    {"summoned_alone": "refused", "move_in": "first", "move_onto_enemy": "allowed"},
]
PLAY_ON_SHARE = 0.8
"""The share of main-phase decisions at which the random player, when it can, does something
other than end the turn (so that games last and boards fill up)."""
GAMES_PER_OPTION = 8
LAYOUTS = {"checkerboard": "BYB/YBY/BYB", "sides": "BBB/YBB/YYY"}


def _decks(rng: random.Random, options: dict[str, Any]) -> tuple[list[Card], list[Card]]:
    """Two decks of 8–22 made-up vanilla monsters; small decks reach the end of the deck
    (obliteration), 0 attack and 0 defence happen. Each card has its own name, or, with the
    pseudo-option ``copies``, both decks are copies of 5 cards (two of a name on a tile, of either
    seat: ``Name@tile#2``)."""

    def card(name: str) -> Card:
        return Card(name, rng.randint(1, 5), rng.randint(0, 6), rng.randint(0, 6))

    if options.get("copies"):
        pool = [card(f"Beast {i}") for i in range(5)]
        return (
            [rng.choice(pool) for _ in range(rng.randint(8, 22))],
            [rng.choice(pool) for _ in range(rng.randint(8, 22))],
        )
    return (
        [card(f"Y{i:02d} Beast") for i in range(rng.randint(8, 22))],
        [card(f"B{i:02d} Beast") for i in range(rng.randint(8, 22))],
    )


def _rules(options: dict[str, Any], decks: tuple[list[Card], list[Card]]) -> MeaRules:
    """The engine's rules: each deck's list in the order of first appearance, copies counted; the
    reference's deck list is in the same order (``MeaDeck.expanded``)."""
    engine_decks = []
    for s, cards in enumerate(decks):
        counts: dict[Card, int] = {}
        for c in cards:
            counts[c] = counts.get(c, 0) + 1
        entries = tuple((monster(c.name, c.cost, c.attack, c.defence), n) for c, n in counts.items())
        engine_decks.append(MeaDeck(f"seat{s}", entries))
    opts = {k: v for k, v in options.items() if k != "copies"}
    return MeaRules(decks=(engine_decks[0], engine_decks[1]), **opts)


def _reference(options: dict[str, Any], decks: tuple[list[Card], list[Card]]) -> Reference:
    grouped = tuple(sorted(cards, key=list(dict.fromkeys(cards)).index) for cards in decks)
    opts = {k: v for k, v in options.items() if k != "copies"}
    if "layout" in opts:
        opts["layout"] = LAYOUTS.get(opts["layout"], opts["layout"])
    return Reference((grouped[0], grouped[1]), **opts)


def _engine_view(state: MeaState) -> dict[str, Any]:
    names = state.tables.names
    return {
        "tiles": {B.name(p): o for p, o in state.tiles().items()},
        "monsters": sorted(
            (
                names[i],
                B.name(state.tile_of(i)),
                state.owner(i),
                state.controller(i),
                state.actions_left(i) == 0,
                state.summoned_this_turn(i),
            )
            for i in state.monsters()
        ),
        "hands": [sorted(state.hand_names(s)) for s in (0, 1)],
        "decks": [[names[i] for i in state.deck(s)] for s in (0, 1)],
        "phase": state.phase,
        "winners": state.winners,
        "end": state.end_code,
    }


def _reference_view(ref: Reference) -> dict[str, Any]:
    return {
        "tiles": dict(ref.tiles),
        "monsters": sorted((m.name, m.tile, m.owner, m.controller, m.acted, m.summoned) for m in ref.monsters),
        "hands": [sorted(h) for h in ref.hands],
        "decks": [list(d) for d in ref.decks],
        "phase": ref.phase,
        "winners": ref.winners,
        "end": ref.end,
    }


def play_both(options: dict[str, Any], seed: int) -> Reference:
    """One seeded random game on the engine and on the reference, compared at every step."""
    rng = random.Random(seed)
    decks = _decks(rng, options)
    state = _rules(options, decks).new_initial_state(seed)
    ref = _reference(options, decks)
    return play_on(state, ref, rng, options, f"game seed {seed}")


def play_on(state: MeaState, ref: Reference, rng: random.Random, options: dict[str, Any], what: str) -> Reference:
    """Random legal actions (the reference's list) to the end of the game, comparing the two at
    every step."""
    order_matters = options.get("move_in") == "first"
    history: list[str] = []
    while True:
        where = f"{what}, options {options}, after {history[-6:]}"
        assert _engine_view(state) == _reference_view(ref), where
        if state.current_player == CHANCE:
            assert ref.to_act == "chance", where
            text = str(state.sample_chance())
        elif state.current_player == TERMINAL:
            assert ref.to_act == "over", where
            break
        else:
            assert state.current_player == ref.to_act, where
            if ref.phase in ("flip", "main", "choice"):
                assert (state.active, state.mana) == (ref.active, ref.mana), where
            engine_legal = {read(str(a), order_matters) for a in state.legal_actions()}
            ref_legal = ref.legal()
            assert engine_legal == ref_legal, (
                where,
                sorted(map(write, engine_legal - ref_legal)),
                sorted(map(write, ref_legal - engine_legal)),
            )
            _check_refusals(state, ref, ref_legal, rng, order_matters, where)
            text = write(_choose(ref_legal, rng))
        history.append(text)
        ref.apply(read(text, order_matters))
        state.apply(state.parse_action(text))
    return ref


REFUSALS_PER_STEP = 3


def _check_refusals(
    state: MeaState,
    ref: Reference,
    listed: set[tuple[object, ...]],
    rng: random.Random,
    order_matters: bool,
    where: str,
) -> None:
    """A few well-formed actions: the engine accepts exactly those the reference says are legal
    (the listed ones and the draws that only lose), refuses the others with ``IllegalAction``,
    and a refusal changes nothing."""
    before = _engine_view(state)
    for action in rng.sample(ref.candidates(), REFUSALS_PER_STEP):
        if not order_matters and action[0] == "attack":
            action = (action[0], action[1], tuple(sorted(action[2])))  # type: ignore[call-overload]
        try:
            state.check(state.parse_action(write(action)))
        except IllegalAction:
            assert not ref.is_legal(action, listed), (where, write(action))
        else:
            assert ref.is_legal(action, listed), (where, write(action))
    assert _engine_view(state) == before, where


def _choose(legal: set[tuple[object, ...]], rng: random.Random) -> tuple[object, ...]:
    actions = sorted(legal, key=write)
    on = [a for a in actions if a[0] not in ("draw", "obliterate")]
    if on and rng.random() < PLAY_ON_SHARE:
        return rng.choice(on)
    return rng.choice(actions)


def random_position(options: dict[str, Any], seed: int) -> tuple[MeaState, Reference, random.Random]:
    """A random main-phase position (``MeaState.position``) and the same on the reference: tiles
    missing, owners at random, 0–2 monsters a tile of either player (tiles shared), hands of 0–9,
    decks short or empty, a turn of either seat early or late in the game."""
    rng = random.Random(seed)
    decks = _decks(rng, options)
    cap = options.get("tiles_per_colour") or 9
    active = rng.randrange(2)
    tiles: dict[str, int] = {}
    while not (tiles and max(map(list(tiles.values()).count, (0, 1))) <= cap and 1 - active in tiles.values()):
        tiles = {f"{x}{y}": rng.randrange(2) for x in "abc" for y in "123" if rng.random() < 0.85}
    if options.get("elimination") == "turn-start" and rng.random() < 0.3:  # the active seat has lost its tiles
        tiles = {t: 1 - active for t in list(tiles)[:cap]}
    free = [list(d) for d in decks]
    for f in free:
        rng.shuffle(f)
    board: list[tuple[str, int, str]] = []
    for t in tiles:
        for _ in range(rng.choice([0, 0, 1, 1, 2])):
            seat = rng.randrange(2)
            if free[seat]:
                board.append((free[seat].pop().name, seat, t))
    hands = [[free[s].pop().name for _ in range(min(rng.randint(0, 9), len(free[s])))] for s in (0, 1)]
    kept = [rng.choice([0, 1, 2, len(free[s])]) for s in (0, 1)]
    if active not in tiles.values():
        kept[active] = rng.choice([0, 1])  # without tiles, and soon without cards: obliterate none
    out = [[free[s].pop().name for _ in range(len(free[s]) - kept[s])] for s in (0, 1)]
    k = rng.randint(1, 6)
    taken = (k, k - 1 if active == 0 else k)
    state = MeaState.position(
        _rules(options, decks),
        hands=hands,
        board=[{t: [n for n, c, where in board if c == s and where == t] for t in tiles} for s in (0, 1)],
        out=out,
        tiles=tiles,
        active=active,
        turns_taken=taken,
        seed=seed,
    )
    ref = _reference(options, decks)
    ref.set_position(tiles, board, hands, out, active, taken)
    return state, ref, rng


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_engine_agrees_with_the_reference(options):
    for game in range(GAMES_PER_OPTION):
        play_both(options, 1000 * game + len(repr(options)))


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_engine_agrees_with_the_reference_from_random_positions(options):
    for game in range(GAMES_PER_OPTION):
        seed = 7 + 1000 * game + len(repr(options))
        state, ref, rng = random_position(options, seed)
        play_on(state, ref, rng, options, f"position seed {seed}")


def test_the_games_compared_reach_the_cases_that_matter():
    """The random games and positions reach what the rules single out: attacks alone and by two,
    attackers killed by the retaliation, defenders left standing, a move-in by one and by two, the
    flip it makes or (at the cap) does not, attacks on a shared tile, start-of-turn flips that
    displace a monster (to a tile, by its controller's choice, back to the hand), obliterations,
    ``#2``, and every way a game ends."""
    seen: Counter[str] = Counter()
    for options in (
        {},
        {"move_onto_enemy": "allowed", "copies": True, "tiles_per_colour": 5},
        {"elimination": "turn-start"},
    ):
        for game in range(8):
            seen += play_both(options, 31 * game).seen
            state, ref, rng = random_position(options, 37 * game)
            seen += play_on(state, ref, rng, options, "position").seen
    wanted = [
        "attack by 1", "attack by 2", "attacker killed", "defender survived", "1 moved in", "2 moved in",
        "move-in flip", "move-in without a flip (cap)", "attack on a shared tile", "flip", "displaced",
        "displacement choice", "displaced to hand", "obliterate", "obliterate none", "#2",
        "end no-tiles", "end hand-of-11", "end deck-out",
    ]  # fmt: skip
    assert not [w for w in wanted if not seen[w]], dict(seen)


CHOICES: dict[str, list[Any]] = {
    "list_losing_draws": [False, True],
    "attack_rule": ["one", "all"],
    "move_in": ["all", "first"],
    "mana_count": ["turn-start", "after-flip"],
    "adjacency": ["orthogonal", "diagonal"],
    "layout": ["checkerboard", "sides", "YBY/B.B/YBY", "BB./YBY/.YY"],
    "max_turns": [200, 9, 16],
    "move_onto_enemy": ["refused", "allowed"],
    "displaced_onto": ["any", "no-enemy"],
    "elimination": ["immediate", "turn-start"],
    "tiles_per_colour": [0, 5],
    "mana_minimum": [3, 0, 5],
    "bonus_turns": [3, 1],
    "copies": [False, True],
    "summoned_alone": ["allowed", "refused"],
}
MIXES = 30


@pytest.mark.parametrize("mix", range(MIXES))
def test_engine_agrees_with_the_reference_under_mixed_options(mix):
    """Options drawn at random together, a game from the start and one from a random position."""
    rng = random.Random(mix)
    options = {k: rng.choice(v) for k, v in CHOICES.items() if rng.random() < 0.5}
    play_both(options, 5000 + mix)
    state, ref, play_rng = random_position(options, 6000 + mix)
    play_on(state, ref, play_rng, options, f"position seed {6000 + mix}")
