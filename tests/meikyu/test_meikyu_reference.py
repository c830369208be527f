"""The engine against an independent reading of the *Meikyu Kingdom* rulebook
(``meikyu_reference.py``), over seeded random games of 2 to 5 players with decks restricted to the
cards the reference plays: at every chance step the same kind of step with the same odds (the
engine's outcome is given to both), at every decision the same player, the same set of legal
actions (as notation) and the same table — hands, kingdoms with developed flags, Refugees,
face-up rooms, the piles' contents, the cards in play, points, whose turn; at the end the same
scores and winners. The two share only the notation."""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

import pytest

from cardbase.games.base import CHANCE
from cardbase.games.meikyu.engine import MeikyuRules, MeikyuState
from cardbase.games.meikyu.pool import CardPool
from tests.meikyu.helpers import default_pool
from tests.meikyu.meikyu_reference import Kard, Land, Reference

DECKS: dict[str, tuple[set[str], set[str | None]]] = {
    # name: (the Kingdom cards' effects besides characters, the lands' effects besides none)
    "plain": ({"gotcha"}, set()),
    "items": ({"gotcha", "sword", "grimoire", "map", "amulet"}, set()),
    "open": ({"gotcha", "refugee", "storm", "tsunami"}, set()),
    "lands": ({"gotcha", "sword"}, {"fortress", "castle tower"}),
    "effects": (
        {"gotcha", "sword", "grimoire", "map"},
        {"fortress", "castle tower", "farm", "great excavation", "blacksmith", "bar", "harem", "marketplace"},
    ),
    "council": ({"gotcha", "sword", "grimoire", "amulet"}, {"council chamber", "laboratory", "hospital", "casino"}),
    "turns": ({"gotcha", "sword", "refugee"}, {"mixed area", "hot springs", "casino", "council chamber"}),
    "tomb": (
        {"gotcha", "sword", "grimoire", "amulet", "refugee", "storm"},
        {"tomb", "casino", "hospital", "laboratory"},
    ),
    "archives": (
        {"gotcha", "sword", "refugee", "storm", "tsunami"},
        {"archives", "tomb", "marketplace", "casino", "hot springs"},
    ),
    "all": (
        {"gotcha", "sword", "grimoire", "map", "amulet", "refugee", "storm", "tsunami"},
        {
            "fortress",
            "castle tower",
            "farm",
            "great excavation",
            "blacksmith",
            "bar",
            "harem",
            "marketplace",
            "council chamber",
            "laboratory",
            "hospital",
            "casino",
            "mixed area",
            "hot springs",
            "tomb",
            "archives",
        },
    ),
}


@cache
def deck_pool(deck: str) -> CardPool:
    """The default profile's pool, cut down to the cards the reference plays."""
    kingdom_effects, land_effects = DECKS[deck]
    pool = default_pool()
    lands = tuple(land for land in pool.lands if land.effect is None or land.effect in land_effects)
    kingdom = tuple(k for k in pool.kingdom if k.type == "character" or k.effect in kingdom_effects)
    return CardPool(lands, kingdom, pool.assumed, pool.profile)


def reference(pool: CardPool, players: int, goal: int) -> Reference:
    """The reference with the pool's values as plain data."""
    lands = {land.name: Land(land.level, land.points, land.developed_points, land.effect) for land in pool.lands}
    cards = {k.name: (Kard(k.type, k.bravery, k.wits, k.effect), k.copies) for k in pool.kingdom}
    return Reference(players, lands, cards, goal=goal)


def canonical(text: str) -> str:
    """An action's notation with its card list sorted (the order of cards does not matter)."""
    head, sep, rest = text.partition(" with ")
    if not sep:
        return text
    cards, by_sep, by = rest.partition(" by ")
    parts = sorted(cards.split(", "), key=lambda part: (part.endswith(" as character"), part))
    return f"{head} with {', '.join(parts)}{by_sep}{by}"


def table(state: MeikyuState, n: int) -> dict[str, object]:
    return {
        "hands": [dict(state.hand(s)) for s in range(n)],
        "kingdoms": [sorted(state.kingdom(s)) for s in range(n)],
        "refugees": [state.refugees(s) for s in range(n)],
        "points": [state.points(s) for s in range(n)],
        "rooms": sorted(state.rooms()),
        "pile": dict(state.kingdom_pile()),
        "discards": dict(Counter(state.discard_pile())),
        "top discard": list(state.discard_pile()[-1:]),
        "in play": dict(Counter(state.in_play())),
        "meikyu pile": state.meikyu_pile_size(),
        "meikyu discards": dict(Counter(state.meikyu_discards())),
        "turn": state.turn_player,
        "skips": [state.skips(s) for s in range(n)],
    }


def ref_table(ref: Reference, state_top: list[str]) -> dict[str, object]:
    """The reference's table; the order of the discard pile counts only while a Tomb may come into
    play (the top card is what the Tomb takes; otherwise the order is not asked)."""
    n = ref.players
    return {
        "hands": [dict(ref.hands[s]) for s in range(n)],
        "kingdoms": [sorted(ref.kingdoms[s]) for s in range(n)],
        "refugees": list(ref.refugees),
        "points": [ref.points(s) for s in range(n)],
        "rooms": sorted(ref.rooms),
        "pile": dict(ref.pile),
        "discards": dict(Counter(ref.discards)),
        "top discard": ref.discards[-1:] if ref.tomb_may_come() else state_top,
        "in play": dict(ref.in_play),
        "meikyu pile": sum(ref.meikyu_pile.values()),
        "meikyu discards": dict(ref.meikyu_discards),
        "turn": ref.turn_player,
        "skips": list(ref.skips),
    }


def play_both(deck: str, players: int, seed: int, goal: int = 10) -> Reference:
    """One seeded random game on the engine and on the reference, compared at every step."""
    pool = deck_pool(deck)
    state = MeikyuRules(pool, players=players, goal=goal).new_initial_state(seed)
    ref = reference(pool, players, goal)
    rng = random.Random(seed)
    started = False
    while not state.is_terminal:
        where = f"{deck} {players}p seed {seed}, after {ref.log[-20:]}"
        assert not ref.over, where
        if state.current_player == CHANCE:
            assert ref.waiting[0] == "chance", (where, ref.waiting)
            odds = {str(a): p for a, p in state.chance_outcomes() or ()}
            expected = ref.chance_weights()
            assert odds.keys() == expected.keys(), where
            assert all(abs(odds[k] - expected[k]) < 1e-9 for k in odds), where
            text = str(state.sample_chance())
            state.apply(state.parse_action(text))
            ref.apply(text)
            continue
        assert ref.waiting[0] == "decide", (where, ref.waiting)
        assert state.current_player == ref.waiting[1], where
        started = True
        if started:
            mine, theirs = table(state, players), ref_table(ref, list(state.discard_pile()[-1:]))
            assert mine == theirs, (where, {k: (mine[k], theirs[k]) for k in mine if mine[k] != theirs[k]})
        legal = state.legal_actions()
        engine = {canonical(str(legal[i])) for i in range(len(legal))}
        expected = set(ref.waiting[2])
        assert engine == expected, (where, sorted(engine - expected)[:5], sorted(expected - engine)[:5])
        assert len(legal) == len(expected), where
        choice = rng.choice(sorted(expected))
        state.apply(state.parse_action(choice))
        ref.apply(choice)
    assert ref.over, (deck, players, seed, ref.waiting)
    assert table(state, players) == ref_table(ref, list(state.discard_pile()[-1:]))
    outcome = state.outcome()
    assert outcome is not None
    assert "turn limit" not in outcome.reason
    assert list(outcome.scores) == [ref.points(s) for s in range(players)]
    assert tuple(outcome.winners) == ref.winners()
    return ref


@pytest.mark.parametrize("deck", sorted(DECKS))
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_engine_agrees_with_the_reference(deck: str, players: int) -> None:
    for game in range(2):
        play_both(deck, players, 1000 * game + 10 * players + len(deck), goal=(10, 6)[game % 2])
