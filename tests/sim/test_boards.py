"""Board views: JSON-able, built from one seat's observation only (another deal of the hidden cards
gives the same view), every legal action reachable on the board, totals the engine agrees with,
and the replay's steps equal to the engine's states along the record."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from cardbase.errors import UsageError
from cardbase.games.base import CHANCE, State
from cardbase.games.mea.engine import MeaState
from cardbase.games.meikyu.engine import MeikyuState
from cardbase.games.meio.engine import MeioState
from cardbase.games.meio.masks import INDEX, indices_of
from cardbase.sim import replay_views
from cardbase.sim.boards import all_seeing_view, board_view, hand_counts, legal_view
from cardbase.sim.records import parse_records, read_records, replay
from cardbase.sim.registry import game
from tests.mea.conftest import redealt

GAMES = ("mea", "meio", "meikyu")


def states_along(path: Path, every: int = 1) -> list[State]:
    """Copies of the game after each ``every`` actions of the record at ``path`` (and the last)."""
    (record,) = read_records(path)
    moves = replay(record, keep_moves=True).moves
    state = game(record.game).make_rules(record.rules).new_initial_state(record.seed)
    out = [state.clone()]
    for k, (_, _, text) in enumerate(moves, start=1):
        state.apply(state.parse_action(text))
        if k % every == 0 or k == len(moves):
            out.append(state.clone())
    return out


# --- hidden information --------------------------------------------------------------------------


def twin_meio(state: MeioState, me: int, rng: random.Random) -> MeioState:
    """The same round with the other hands, packs set aside and leftover cards dealt again."""
    n = state.players
    hands = [state.hand_mask(s) for s in range(n)]
    asides = [state.aside_mask(s) for s in range(n)]
    unseen = [c for s in range(n) if s != me for m in (hands[s], asides[s]) for c in indices_of(m)]
    unseen += indices_of(state.leftover_mask())
    rng.shuffle(unseen)
    k = 0
    for s in range(n):
        if s == me:
            continue
        for masks in (hands, asides):
            size = masks[s].bit_count()
            masks[s] = sum(1 << c for c in unseen[k : k + size])
            k += size
    leftover = sum(1 << c for c in unseen[k:])
    return MeioState.from_parts(state.observation(me), hands, asides, leftover)


def twin_meikyu(state: MeikyuState, me: int, rng: random.Random) -> MeikyuState:
    """The same game with the other hands and the Kingdom pile dealt again (sizes kept)."""
    obs = state.observation(me)
    n = state.rules.players
    held, pool, mpile, archives = state.parts()
    for s in range(n):
        if s != me:
            pool += [k for k, c in enumerate(held[s]) for _ in range(c)]
    rng.shuffle(pool)
    hands = []
    for s in range(n):
        if s == me:
            hands.append(held[s])
            continue
        hand = [0] * len(held[s])
        for k in pool[: state.hand_size(s)]:
            hand[k] += 1
        pool = pool[state.hand_size(s) :]
        hands.append(hand)
    return MeikyuState.from_parts(obs, hands, pool, mpile, archives)


TWINS = {"mea": redealt, "meio": twin_meio, "meikyu": twin_meikyu}


@pytest.mark.parametrize("game_id", GAMES)
def test_a_seat_view_is_the_same_whatever_the_cards_it_cannot_see(sim_records, game_id):
    rng = random.Random(5)
    checked = 0
    for state in states_along(sim_records[game_id], every=3):
        for me in range(state.rules.players):
            if game_id == "meikyu" and state.current_player == CHANCE:
                continue  # (a chance node's pending draw names its drawer's card: from_parts is for decisions)
            view = board_view(game_id, state.observation(me))
            json.dumps(view, allow_nan=False)  # JSON-able as it is
            twin = TWINS[game_id](state, me, rng)
            assert board_view(game_id, twin.observation(me)) == view
            checked += 1
    assert checked > 50


@pytest.mark.parametrize("game_id", GAMES)
def test_a_seat_sees_its_own_hand_and_only_the_sizes_of_the_others(sim_records, game_id):
    for state in states_along(sim_records[game_id], every=5):
        for me in range(state.rules.players):
            view = board_view(game_id, state.observation(me))
            assert view["you"] == me
            assert [p["hand"] is None for p in view["players"]] == [s != me for s in range(state.rules.players)]
            assert hand_counts(view) == own_hand(state, me)
            assert [p["hand_size"] for p in view["players"]] == hand_sizes(state)


def own_hand(state: Any, seat: int) -> Counter[str]:
    """What the engine says ``seat`` holds (names; Meio by notation)."""
    if isinstance(state, MeaState):
        return Counter(state.hand_names(seat))
    if isinstance(state, MeioState):
        return Counter(c.notation for c in state.hand(seat))
    return Counter(state.hand(seat))


def hand_sizes(state: Any) -> list[int]:
    n = state.rules.players
    if isinstance(state, MeikyuState):
        return [state.hand_size(s) for s in range(n)]
    return [len(state.hand(s)) for s in range(n)]


@pytest.mark.parametrize("game_id", GAMES)
def test_the_all_seeing_view_shows_every_hand_and_the_hidden_piles(sim_records, game_id):
    for state in states_along(sim_records[game_id], every=7):
        view = all_seeing_view(state)
        json.dumps(view, allow_nan=False)
        assert view["you"] is None
        for seat, entry in enumerate(view["players"]):
            assert not entry["you"]
            assert hand_counts({"hand": entry["hand"]}) == own_hand(state, seat)
        if game_id == "mea":
            assert [[c["name"] for c in deck] for deck in view["hidden"]["decks"]] == [
                [state.card(i).name for i in state.deck(s)] for s in (0, 1)
            ]
        elif game_id == "meio":
            assert [[c["code"] for c in p["aside"]] for p in view["players"]] == [
                [c.notation for c in sorted(state.aside(s), key=lambda c: state.rules.sort_key(INDEX[c]))]
                for s in range(state.players)
            ]
            assert {c["code"] for c in view["hidden"]["leftover"]} == {c.notation for c in state.leftover()}
        else:
            assert {c["name"]: c["count"] for c in view["hidden"]["kingdom_pile"]} == state.kingdom_pile()


def test_the_mea_board_is_the_engines_tiles_and_monsters(sim_records):
    from cardbase.games.mea import board as B

    for state in states_along(sim_records["mea"], every=4):
        view = board_view("mea", state.observation(0))
        tiles = {c["tile"]: c["owner"] for row in view["rows"] for c in row["cells"] if c["owner"] is not None}
        assert tiles == {B.name(q): o for q, o in state.tiles().items()}
        monsters = {
            (m["name"], m["tile"], m["attack"], m["defence"], m["controller"])
            for row in view["rows"]
            for c in row["cells"]
            for m in c["monsters"]
        }
        assert monsters == {
            (
                state.card(i).name,
                B.name(state.tile_of(i)),
                state.attack_of(i),
                state.defence_of(i),
                state.controller(i),
            )
            for i in state.monsters()
        }
        # mana: the active player's left this turn; the other's, what its turn would start with
        for p in view["players"]:
            if p["mana"] is not None:
                assert p["seat"] == state.active and p["mana"] == state.mana


def test_projected_mana_is_the_rulebooks_count():
    """Tiles the opponent controls + monsters you control, at least 3, then +1 on the second player's
    first three turns (rulebook, "Mana")."""
    from tests.mea.test_mea_properties import random_rules

    rng = random.Random(3)
    for seed in range(12):
        state = random_rules(seed, mana_count="turn-start").new_initial_state(seed)
        while not state.is_terminal:
            if state.current_player == CHANCE:
                state.apply(state.sample_chance())
                continue
            for seat in (0, 1):
                count = list(state.tiles().values()).count(1 - seat) + len(state.monsters(seat))
                count = max(count, state.rules.mana_minimum)
                if seat == 1 and state.turns_taken[1] + 1 <= state.rules.bonus_turns:
                    count += state.rules.second_player_bonus
                assert state.projected_mana(seat) == count
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])


# --- legal actions on the board --------------------------------------------------------------------


def board_keys(view: dict[str, Any]) -> set[str]:
    """Every clickable key a board draws (tiles, monsters, hand cards, rooms, lands)."""
    keys: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("key"), str):
                keys.add(node["key"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(view)
    if view["game"] == "mea":
        keys |= {f"card:{c['name']}" for c in view["hand"] or ()}
    return keys


@pytest.mark.parametrize("game_id", GAMES)
def test_every_legal_action_is_listed_in_order_and_can_be_clicked_on_the_board(sim_records, game_id):
    kinds: Counter[str] = Counter()
    for state in states_along(sim_records[game_id]):
        if state.current_player < 0:
            continue
        legal = state.legal_actions()
        obs = state.observation(state.current_player)
        entries = legal_view(obs, legal)
        assert [e["id"] for e in entries] == list(range(len(legal)))
        assert [e["text"] for e in entries] == [str(a) for a in legal]
        assert all(e["kind"] == e["text"].split()[0] for e in entries)
        assert legal_view(state, legal) == entries  # a state is read through its current player's observation
        json.dumps(entries, allow_nan=False)
        keys = board_keys(board_view(game_id, obs))
        for e in entries:
            kinds[e["kind"]] += 1
            for key in [*(e.get("src") or ()), *([e["dst"]] if e.get("dst") else [])]:
                assert key in keys, f"{e['text']}: {key} is not on the board"
    assert len(kinds) >= 2, kinds


def test_meikyu_totals_are_what_the_engine_counts_once_committed(sim_records):
    seen: Counter[str] = Counter()
    for state in states_along(sim_records["meikyu"]):
        if state.current_player < 0 or state.decision not in ("action", "defend"):
            continue
        legal = state.legal_actions()
        for entry in legal_view(state, legal):
            if entry["kind"] not in ("quest", "develop", "attack", "defend"):
                continue
            after = state.clone()
            after.apply(legal[entry["id"]])
            if entry["kind"] == "develop":  # resolved at once (the turn may have moved on): the land says
                developed = dict(after.kingdom(state.turn_player))[entry["land"]]
                assert developed == (entry["total"] >= entry["cost"])
                seen["develop"] += 1
                continue
            ctx = after.context()  # a quest waits for its die, an attack for the defence, a defence for the dice
            assert ctx is not None
            if entry["kind"] == "defend":
                assert entry["total"] == ctx["defence"]
            else:
                assert entry["total"] == ctx["swords"]
                if entry["kind"] == "quest":
                    assert entry["level"] == ctx["level"]
            seen[entry["kind"]] += 1
    assert seen["quest"] > 10 and seen["develop"] + seen["attack"] + seen["defend"] > 0, seen


@pytest.mark.parametrize(
    ("assumed", "room3", "room1"),
    [
        ((), False, False),  # every value published: no total says "assumed"
        (("Unnamed room 3 (card not in the rulebook)",), True, False),  # the room's level
        (("Executioner bravery",), True, True),  # a card's swords, in every room
        (("Executioner wits",), False, False),  # wits count for developments, not quests
    ],
)
def test_a_meikyu_total_says_whether_it_reads_a_value_the_profile_assumed(assumed, room3, room1):
    """The table's composer adds "counted with assumed values" to a quest's odds when the room's level or
    a card's swords came from the assumption profile, not the rulebook (issue: advice without certainty)."""
    from dataclasses import replace

    from cardbase.games.meikyu.engine import MeikyuRules
    from tests.meikyu.helpers import ROOMS4, default_pool

    pool = replace(default_pool(), assumed=assumed)
    state = MeikyuState.position(
        MeikyuRules(pool, players=2), rooms=ROOMS4, hands=[{"Executioner": 1, "Sword": 1}, {"Cook": 1}], seed=3
    )
    quests = {
        entry["room"]: entry["assumed"]
        for entry in legal_view(state, state.legal_actions())
        if entry["kind"] == "quest" and entry["cards"] == ["Executioner"]
    }
    assert quests["Unnamed room 3"] is room3 and quests["Unnamed room 1"] is room1, quests
    # with the shipped profile every character's bravery is assumed: every quest says so
    state = MeikyuState.position(
        MeikyuRules(default_pool(), players=2), rooms=ROOMS4, hands=[{"Executioner": 1}, {"Cook": 1}], seed=3
    )
    kinds = [e for e in legal_view(state, state.legal_actions()) if e["kind"] in ("quest", "develop")]
    assert kinds and all(e["assumed"] for e in kinds)


@pytest.mark.parametrize(
    ("assumed", "lands", "marked"),
    [
        ((), ["Unnamed room 1"], False),  # every value published
        (("Unnamed room 1 points",), ["Unnamed room 1"], True),
        (("Unnamed room 1 points",), [("Unnamed room 1", True)], False),  # developed: its developed points count
        (("Unnamed room 1 developed_points",), [("Unnamed room 1", True)], True),
        (("Unnamed room 3 (card not in the rulebook)",), ["Unnamed room 1", "Unnamed room 3"], True),
    ],
)
def test_a_meikyu_kingdoms_points_say_when_they_add_an_assumed_value(assumed, lands, marked):
    """The total in "3 of 10 pts" adds the lands' points: when one of them came from the assumption profile, the total
    is marked as the land is (honest data: assumed values are labelled wherever they show)."""
    from dataclasses import replace

    from cardbase.games.meikyu.engine import MeikyuRules
    from tests.meikyu.helpers import default_pool

    pool = replace(default_pool(), assumed=assumed)
    rooms = ["Unnamed room 5", "Unnamed room 6", "Unnamed room 7", "Unnamed room 8"]
    state = MeikyuState.position(
        MeikyuRules(pool, players=2), lands=[lands, []], rooms=rooms, hands=[{"Cook": 1}, {"Cook": 1}]
    )
    view = board_view("meikyu", state.observation(0))
    assert [p["points_assumed"] for p in view["players"]] == [marked, False]
    text = state.observation(0).describe()  # the board `play meikyu` prints marks it the same way
    star = r"\*" if marked else ""  # 1 pt, 2 pts: the noun words the count
    assert re.search(rf"P1 \(you\): (1{star} pt|(?!1\D)\d+{star} pts) ", text), text
    assert ("*" in text) is marked


def test_the_meikyu_board_counts_the_assumed_values_as_every_command_does(sim_records):
    (state,) = states_along(sim_records["meikyu"], every=10_000)[:1]
    view = board_view("meikyu", state.observation(0))
    # (the shipped catalog with the default profile: the count `sim meikyu --assume default` prints)
    assert view["assumed"] == "84 values and 17 whole cards" and view["profile"] == "default"


# --- replay ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAMES)
def test_each_replay_step_is_the_engines_state_after_that_many_actions(sim_records, game_id):
    (record,) = read_records(sim_records[game_id])
    log = replay_views.replay_log(record)
    assert log.illegal is None and log.outcome == replay(record).outcome.to_dict()
    states = states_along(sim_records[game_id])
    assert log.length == len(states) - 1
    seats = [None, *range(log.players)]
    for n in sorted({0, 1, 2, log.length // 3, log.length // 2, log.length - 1, log.length}):
        for seat in seats:
            step = log.step(n, seat)
            expected = all_seeing_view(states[n]) if seat is None else board_view(game_id, states[n].observation(seat))
            assert step["n"] == n and step["view"] == expected
    for seat in seats:  # stepping through all of it gives the same steps
        walked = list(log.steps(seat))
        assert len(walked) == log.length + 1
        assert walked[log.length // 2] == log.step(log.length // 2, seat)


def test_a_seat_replay_words_the_others_hidden_moves_as_it_saw_them(sim_records):
    (record,) = read_records(sim_records["meio"])
    log = replay_views.replay_log(record)
    for seat in range(log.players):
        texts = [s["action"] for s in log.steps(seat)][1:]
        splits = [
            t for t, (_, who) in zip(texts, log.actions, strict=True) if who != f"P{seat + 1}" and who != "chance"
        ]
        assert "splits their hand" in splits
        assert not any(
            t.startswith("split ") for t, (_, who) in zip(texts, log.actions, strict=True) if who != f"P{seat + 1}"
        )
        assert all(t.startswith("round ") for t, (_, who) in zip(texts, log.actions, strict=True) if who == "chance")
    everything = [s["action"] for s in log.steps(None)][1:]
    assert everything == [str(a) for a, _ in log.actions]


def test_a_replay_stops_before_the_first_illegal_action_and_says_why(sim_records):
    lines = sim_records["mea"].read_text(encoding="utf-8").splitlines()
    k = next(i for i, line in enumerate(lines) if '"action": "summon ' in line)
    entry = json.loads(lines[k])
    entry["action"] = entry["action"].rsplit(" ", 1)[0] + " z9"
    lines[k] = json.dumps(entry, ensure_ascii=False)
    (record,) = parse_records("\n".join(lines), "game.jsonl")
    log = replay_views.replay_log(record)
    assert log.illegal is not None and log.illegal["line"] == k + 1
    assert "there is no tile z9" in log.illegal["reason"]
    assert log.length == log.illegal["number"] - 1  # every action before it, none after
    assert log.outcome is None
    last = log.step(log.length, None)
    assert last["view"]["outcome"] is None


def test_a_replay_is_bounded_and_refuses_a_step_or_seat_it_does_not_have(sim_records, monkeypatch):
    (record,) = read_records(sim_records["meio"])
    log = replay_views.replay_log(record)
    with pytest.raises(UsageError, match="steps 0 to"):
        log.step(log.length + 1)
    with pytest.raises(UsageError, match="seats are 0 to 2"):
        log.step(0, 3)
    monkeypatch.setattr(replay_views, "MAX_REPLAY_ACTIONS", 10)
    with pytest.raises(UsageError, match="more than 10 actions, the bound of a replay"):
        replay_views.replay_log(record)


def test_a_mea_seat_view_names_the_bare_stats_cards_of_its_own_deck_only() -> None:
    """Which cards play as bare stats tells what is in a deck: a seat's view (and a spectator's) never
    names the other deck's; the all-seeing view (a finished game's replay) names both."""
    from dataclasses import replace

    from cardbase.games.mea.rules import MeaDeck, MeaRules
    from tests.mea.conftest import DEMO

    cards = sorted(DEMO.values(), key=lambda c: c.name)
    mine = replace(cards[0], name="Mine Unwritten", abilities=None)
    theirs = replace(cards[1], name="Theirs Unwritten", abilities=None)
    rules = MeaRules(
        decks=(
            MeaDeck("A", ((mine, 1), *((c, 1) for c in cards[2::2]))),
            MeaDeck("B", ((theirs, 1), *((c, 1) for c in cards[3::2]))),
        )
    )
    state = rules.new_initial_state(1)
    state.resolve_chance()
    notes = {seat: " ".join(board_view("mea", state.observation(seat))["notes"]) for seat in (0, 1)}
    assert "Mine Unwritten" in notes[0] and "Theirs Unwritten" not in notes[0]
    assert "Theirs Unwritten" in notes[1] and "Mine Unwritten" not in notes[1]
    from cardbase.games.base import SPECTATOR

    watcher = board_view("mea", state.observation(SPECTATOR))
    assert "Unwritten" not in " ".join(watcher["notes"]) and "demo cards" in watcher["demo_note"]
    everything = " ".join(all_seeing_view(state)["notes"])
    assert "Mine Unwritten" in everything and "Theirs Unwritten" in everything
