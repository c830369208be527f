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
from dataclasses import replace
from functools import cache
from typing import Any

import pytest

from cardbase.games.base import CHANCE, IllegalAction, InvalidAction
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
SMALL_DECKS: dict[str, tuple[str, int, int, int]] = {
    # name: (the deck cut down further, the most copies of each Kingdom card, the most lands, the
    # most kinds of Kingdom cards)
    "short": ("all", 1, 7, 99),
    "few rooms": ("plain", 3, 5, 99),
    "thin": ("open", 1, 32, 99),
    "tiny": ("plain", 1, 8, 9),  # for 2 players: 9 Kingdom cards, 4 × 2 + 1
}
"""Small decks reach what long games rarely do: the Kingdom pile run out with no discards, the
redeal of hands with OPEN cards, no rooms left, Maps and Storms with an empty Meikyu pile, and
ties on points decided by the lands or shared."""


@cache
def deck_pool(deck: str) -> CardPool:
    """The default profile's pool, cut down to the cards the reference plays."""
    base, copies, most_lands, kinds = SMALL_DECKS.get(deck, (deck, 99, 99, 99))
    kingdom_effects, land_effects = DECKS[base]
    pool = default_pool()
    lands = tuple(land for land in pool.lands if land.effect is None or land.effect in land_effects)
    lands = tuple(sorted(lands, key=lambda land: (land.effect is None, land.name))[:most_lands])
    kingdom = tuple(
        replace(k, copies=min(k.copies, copies))
        for k in pool.kingdom
        if k.type == "character" or k.effect in kingdom_effects
    )[-kinds:]
    return CardPool(lands, kingdom, pool.assumed, pool.profile)


def reference(pool: CardPool, players: int, goal: int, options: dict[str, str] | None = None) -> Reference:
    """The reference with the pool's values as plain data."""
    lands = {land.name: Land(land.level, land.points, land.developed_points, land.effect) for land in pool.lands}
    cards = {k.name: (Kard(k.type, k.bravery, k.wits, k.effect), k.copies) for k in pool.kingdom}
    return Reference(players, lands, cards, goal=goal, options=dict(options or {}))


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


def play_both(
    deck: str,
    players: int,
    seed: int,
    goal: int = 10,
    options: dict[str, str] | None = None,
    style: str | None = None,
) -> Reference:
    """One seeded random game on the engine and on the reference, compared at every step; with a
    ``style``, the players take an action that starts with it, when they can, half the time."""
    pool = deck_pool(deck)
    readings: dict[str, Any] = dict(options or {})
    state = MeikyuRules(pool, players=players, goal=goal, **readings).new_initial_state(seed)
    ref = reference(pool, players, goal, options)
    return compare(state, ref, seed, f"{deck} {players}p seed {seed} {options or ''}", style)


def compare(state: MeikyuState, ref: Reference, seed: int, label: str, style: str | None = None) -> Reference:
    """Play the engine's state and the reference on to the end at random (``seed``), compared at
    every step."""
    players = ref.players
    rng = random.Random(seed)
    checks = random.Random(-seed)  # the checks' own: the game played does not depend on them
    while not state.is_terminal:
        where = f"{label}, after {ref.log[-30:]}"
        assert not ref.over, where
        if state.current_player == CHANCE:
            assert ref.waiting[0] == "chance", (where, ref.waiting)
            odds = {str(a): p for a, p in state.chance_outcomes() or ()}
            weights = ref.chance_weights()
            assert odds.keys() == weights.keys(), where
            assert all(abs(odds[k] - weights[k]) < 1e-9 for k in odds), where
            text = str(state.sample_chance())
            state.apply(state.parse_action(text))
            ref.apply(text)
            continue
        assert ref.waiting[0] == "decide", (where, ref.waiting)
        assert state.current_player == ref.waiting[1], where
        mine, theirs = table(state, players), ref_table(ref, list(state.discard_pile()[-1:]))
        assert mine == theirs, (where, {k: (mine[k], theirs[k]) for k in mine if mine[k] != theirs[k]})
        legal = state.legal_actions()
        engine = {canonical(str(legal[i])) for i in range(len(legal))}
        expected = set(ref.waiting[2])
        assert engine == expected, (where, sorted(engine - expected)[:5], sorted(expected - engine)[:5])
        assert len(legal) == len(expected), where
        if checks.random() < REBUILT_SHARE:  # a state rebuilt from its parts is the same position
            rebuilt = MeikyuState.from_parts(state.observation(state.current_player), *state.parts())
            assert table(rebuilt, players) == table(state, players), where
            again = rebuilt.legal_actions()
            assert {canonical(str(again[i])) for i in range(len(again))} == expected, where
        if checks.random() < REFUSED_SHARE:
            _check_a_refusal(state, ref, checks, expected)
        preferred = sorted(a for a in expected if style and a.startswith(style))
        choice = rng.choice(preferred if preferred and rng.random() < 0.5 else sorted(expected))
        state.apply(state.parse_action(choice))
        ref.apply(choice)
    assert ref.over, (label, ref.waiting)
    assert table(state, players) == ref_table(ref, list(state.discard_pile()[-1:]))
    outcome = state.outcome()
    assert outcome is not None
    assert "turn limit" not in outcome.reason
    assert list(outcome.scores) == [ref.points(s) for s in range(players)]
    assert tuple(outcome.winners) == ref.winners()
    return ref


REBUILT_SHARE = 0.05
"""The share of decisions at which the state is rebuilt with ``from_parts`` and compared too."""
REFUSED_SHARE = 0.3
"""The share of decisions at which an action the reference does not allow is tried on the engine."""

WORDS = ("resupply", "map", "amulet", "pass", "draw", "tomb", "defend")


def _an_illegal_action(ref: Reference, rng: random.Random, legal: set[str]) -> str:
    """An action the reference does not allow now: often a legal one with a card added or a place
    changed (a second Grimoire, a Gotcha! in a quest, a Castle Tower attacked, a developed land…),
    else a word or a choice out of place."""
    cards = sorted(ref.kingdom_cards)
    places = sorted(ref.lands)
    seat = rng.randrange(ref.players) + 1
    with_cards = sorted(a for a in legal if " with " in a)
    roll = rng.random()
    if with_cards and roll < 0.4:
        head, _, rest = rng.choice(with_cards).partition(" with ")
        listed, by_sep, by = rest.partition(" by ")
        return f"{head} with {listed}, {rng.choice(cards)}{by_sep}{by}"
    if roll < 0.6:
        verb = rng.choice(["quest", "develop", f"attack P{seat}"])
        place = "" if verb.startswith("attack") and rng.random() < 0.2 else f" {rng.choice(places)}"
        chosen = ", ".join(rng.sample(cards, rng.randint(1, 3)))
        lab = f", {rng.choice(cards)} as character" if rng.random() < 0.2 else ""
        by = f" by {rng.choice(['Gotcha!', 'Council Chamber'])}" if verb.startswith("attack") else ""
        return f"{verb}{place} with {chosen}{lab}{by}"
    return rng.choice(
        [
            *WORDS,
            f"defend with {rng.choice(cards)}",
            f"keep {rng.choice(cards)}",
            f"discard {rng.choice(cards)}",
            f"return {rng.choice(cards)}",
            f"discard land {rng.choice(places)}",
            f"give {rng.choice(places)}",
            f"mixed area P{seat}",
        ]
    )


def _check_a_refusal(state: MeikyuState, ref: Reference, rng: random.Random, legal: set[str]) -> None:
    """An action outside the reference's legal set is refused by the engine (when it parses) and
    changes nothing."""
    for _ in range(20):
        text = _an_illegal_action(ref, rng, legal)
        if canonical(text) in legal:
            continue
        try:
            action = state.parse_action(text)
        except InvalidAction:
            continue
        before = table(state, ref.players)
        with pytest.raises(IllegalAction):
            state.apply(action)
        assert table(state, ref.players) == before, text
        return


@pytest.mark.parametrize("deck", sorted(DECKS))
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_engine_agrees_with_the_reference(deck: str, players: int) -> None:
    play_both(deck, players, 10 * players + len(deck), goal=(10, 6)[players % 2])


@pytest.mark.parametrize(
    ("deck", "players"),
    [(deck, players) for deck in sorted(SMALL_DECKS) for players in (2, 3) if (deck, players) != ("tiny", 3)],
)
def test_engine_agrees_with_the_reference_with_small_decks(deck: str, players: int) -> None:
    for game in range(2):
        play_both(deck, players, 100 * game + players, goal=(10, 6)[game % 2])


def test_the_games_compared_reach_the_cases_that_matter() -> None:
    """The random games compared cover what the rules single out."""
    seen: Counter[str] = Counter()
    words = (
        "amulet", "tomb", "keep ", "return ", "mixed area", "by Council Chamber", "as character", "map",
        "give ", "discard land", "draw Refugee", "draw Dungeon Storm", "draw Dungeon Tsunami", "defend with",
    )  # fmt: skip
    decks = ("short", "thin", "few rooms", "all", "council", "turns", "tomb", "archives")
    games = [(decks[g % len(decks)], 2 + g % 2, 7 * g + 1, (10, 6)[g % 2]) for g in range(16)]
    games += [("tiny", 2, 23, 10), ("few rooms", 3, 35, 10)]  # a draw from no cards; a shared victory
    for deck, players, seed, goal in games:
        ref = play_both(deck, players, seed, goal=goal)
        seen.update(ref.events)
        for text in ref.log:
            seen.update(w for w in words if w in text or text == w.strip())
        points = [ref.points(s) for s in range(ref.players)]
        tied = [s for s in range(ref.players) if points[s] == max(points)]
        seen["tie on points"] += len(tied) > 1
        seen["shared victory"] += len(ref.winners()) > 1
        seen["no rooms left"] += not ref.rooms and not ref.meikyu_pile
        seen["goal reached"] += max(points) >= ref.goal
    expected = {
        *words,
        "redeal",
        "reshuffle",
        "draw skipped",
        "tie on points",
        "shared victory",
        "no rooms left",
        "goal reached",
    }
    assert {k for k in expected if not seen[k]} == set(), seen


OPTIONS = {
    "farm": "lands",
    "aggression_target": "defender",
    "map_room": "discarded",
    "refugee": "land",
    "casino": "every",
    "grimoire": "stack",
    "sword": "one",
    "fortress": "aggressions",
    "open_draw": "replaced",
    "castle_tsunami": "stays",
    "tsunami_landless": "may-pass",
    "tsunami_pass": "any",
    "amulet_ask": "everyone",
    "bar": "everyone",
    "bar_zero": "after-items",
    "harem": "everyone",
    "refugee_order": "drawer",
    "goal_check": "reached",
    "amulet_first_roll": "yes",
    "mixed_area": "any",
    "sixth_land": "any",
    "redeal": "together",
}
"""The other readings the reference plays: every option of ``MeikyuRules``."""


@pytest.mark.parametrize("option", sorted(OPTIONS))
def test_engine_agrees_with_the_reference_under_other_readings(option: str) -> None:
    for game, deck in enumerate(("all", "short")):
        play_both(deck, 3 - game, 31 * game + len(option), goal=(10, 6)[game % 2], options={option: OPTIONS[option]})


STYLES = ("attack", "defend with", "amulet", "tomb", "map", "mixed area", "draw", "resupply", "develop", "keep")
"""Players who take one kind of action when they can reach positions uniform play rarely does:
long aggressions with many cards, rerolls upon rerolls, Tomb pick-ups, lost turns, big hands."""


@pytest.mark.parametrize("style", STYLES)
def test_engine_agrees_with_the_reference_for_players_of_one_style(style: str) -> None:
    deck = ("all", "archives", "council", "tomb", "turns")[len(style) % 5]
    play_both(deck, 2 + len(style) % 2, 97 * len(style), goal=10, style=style)


def random_position(deck: str, players: int, seed: int) -> dict[str, Any]:
    """A position of cards dealt at random: hands of up to 5, kingdoms of up to 5 lands (some
    developed), four rooms (fewer only when no land is left for the Meikyu pile), a discard pile and
    Refugees placed."""
    pool = deck_pool(deck)
    rng = random.Random(seed)
    cards = [k.name for k in pool.kingdom for _ in range(k.copies)]
    rng.shuffle(cards)
    refugee = [k.name for k in pool.kingdom if k.effect == "refugee"]
    refugees = [0] * players
    if refugee and refugee[0] in cards:
        cards.remove(refugee[0])
        refugees[rng.randrange(players)] = 1
    held = [c for c in cards if not any(k.name == c and k.type == "open" for k in pool.kingdom)]
    hands: list[Counter[str]] = []
    for _ in range(players):
        hand = Counter(held[: rng.randint(0, 5)])
        del held[: sum(hand.values())]
        hands.append(hand)
    dealt = sum(hands, Counter())
    rest = list((Counter(cards) - dealt).elements())
    rng.shuffle(rest)
    discards = rest[: rng.randint(0, min(12, len(rest) - 1))]
    lands = [land.name for land in pool.lands]
    rng.shuffle(lands)
    kingdoms = []
    for seat in range(players):  # within the land limit under either Refugee reading; a room left
        most = min(5 - refugees[seat], len(lands) - 1)
        kingdom = [(room, rng.random() < 0.4) for room in lands[: rng.randint(0, most)]]
        del lands[: len(kingdom)]
        while _points(pool, kingdom) + refugees[seat] >= 8:  # short of the goal, as a game's turn starts
            lands.append(kingdom.pop()[0])
        kingdoms.append(kingdom)
    rooms = lands[:4]  # (four while the Meikyu pile holds the rest: step 4 lays them out)
    return {
        "turn": rng.randrange(players),
        "hands": hands,
        "kingdoms": kingdoms,
        "rooms": rooms,
        "discards": discards,
        "refugees": refugees,
    }


def _points(pool: CardPool, kingdom: list[tuple[str, bool]]) -> int:
    """A kingdom's points at most (the Farm counted as a point)."""
    lands = {land.name: land for land in pool.lands}
    points = [lands[room].developed_points if dev else lands[room].points for room, dev in kingdom]
    return sum(points) + any(lands[room].effect == "farm" for room, _ in kingdom)


def play_both_from(deck: str, players: int, seed: int, options: dict[str, str] | None = None) -> Reference:
    """A game from a random position (``MeikyuState.position`` at the start of a turn), compared
    at every step as :func:`play_both` does."""
    at = random_position(deck, players, seed)
    pool = deck_pool(deck)
    readings: dict[str, Any] = dict(options or {})
    state = MeikyuState.position(
        MeikyuRules(pool, players=players, **readings),
        turn=at["turn"],
        step="draw",
        hands=[dict(h) for h in at["hands"]],
        lands=at["kingdoms"],
        rooms=at["rooms"],
        discards=at["discards"],
        refugees=at["refugees"],
        seed=seed,
    )
    ref = reference(pool, players, 10, options)
    ref.start_at(**at)
    return compare(state, ref, seed, f"{deck} {players}p position {seed} {options or ''}")


@pytest.mark.parametrize("deck", ["all", "archives"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_engine_agrees_with_the_reference_from_random_positions(deck: str, players: int) -> None:
    """Positions set up with ``MeikyuState.position`` (kingdoms full, lands developed, Refugees
    placed, a discard pile to pick from) reach what a game from the start rarely does."""
    play_both_from(deck, players, 7 * players + len(deck))
