"""Invariants over thousands of seeded random games (hypothesis and a seeded loop), with random
decks drawn from the demo set and random rules options."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardbase.games.base import CHANCE, IllegalAction
from cardbase.games.mea.actions import Attack, Draw, MeaAction, Move, Obliterate, Play, Summon
from cardbase.games.mea.codes import BOARD, DECK, HAND, OUT
from cardbase.games.mea.engine import MeaState
from cardbase.games.mea.rules import HAND_LIMIT, MAX_PER_TILE, MeaDeck, MeaRules
from cardbase.sim.records import parse_records, record_lines, replay
from tests.mea.conftest import DEMO, redealt

POOL = sorted(DEMO.values(), key=lambda c: c.name)
SEEDS = st.integers(min_value=0, max_value=2**63 - 1)
OPTIONS = st.fixed_dictionaries(
    {
        "layout": st.sampled_from(["checkerboard", "sides", "YBY/BYB", "YB"]),
        "adjacency": st.sampled_from(["orthogonal", "diagonal"]),
        "attack_rule": st.sampled_from(["one", "all"]),
        "move_in": st.sampled_from(["all", "first"]),
        "elimination": st.sampled_from(["immediate", "turn-start"]),
        "mana_count": st.sampled_from(["turn-start", "after-flip"]),
        "tile_supply": st.sampled_from([18, 12, 0]),
        "list_losing_draws": st.booleans(),
        "tile_attack": st.sampled_from(["retaliation", "filters"]),
        "move_onto_enemy": st.sampled_from(["refused", "allowed"]),
        "tiles_per_colour": st.sampled_from([0, 9]),
        "obliterated": st.sampled_from(["removed", "killed"]),
        "killed_order": st.sampled_from(["defender-first", "attacker-first"]),
        "displaced_onto": st.sampled_from(["any", "no-enemy"]),
        "left_play": st.sampled_from(["ignored", "resolved"]),
        "triggered_after": st.sampled_from(["sentence", "card"]),
        "elimination_killed": st.sampled_from(["skipped", "resolved"]),
    }
)


def random_deck(rng: random.Random, name: str) -> MeaDeck:
    size = rng.randint(18, 40)
    counts = Counter(rng.choice(POOL) for _ in range(size))
    return MeaDeck(name, tuple(sorted(counts.items(), key=lambda kv: kv[0].name)))


def random_rules(seed: int, **options) -> MeaRules:
    rng = random.Random(seed)
    return MeaRules(decks=(random_deck(rng, "a"), random_deck(rng, "b")), **options)


def check_invariants(state: MeaState) -> None:
    n = state.card_count
    places: Counter[int] = Counter()
    for seat in (0, 1):
        for i in state.deck(seat):
            assert state.zone(i) == DECK and state.owner(i) == seat
            places[i] += 1
        for i in state.hand(seat):
            assert state.zone(i) == HAND and state.owner(i) == seat
            places[i] += 1
    occupants = state.board_view().occupants
    assert set(occupants) == set(state.tiles())  # no monster on a missing tile
    assert list(occupants) == sorted(occupants)  # kept in board order (the engine iterates it)
    for q, here in occupants.items():
        assert len(here) <= MAX_PER_TILE  # at most 2 monsters on a tile
        for i in here:
            assert state.zone(i) == BOARD and state.tile_of(i) == q and state.tables.monster[i]
            places[i] += 1
    for i in state.out_of_play():
        assert state.zone(i) == OUT
        places[i] += 1
    assert all(places[i] == 1 for i in range(n)), "every card is in exactly one zone"
    assert len(places) == n
    for i in range(n):
        if state.zone(i) != BOARD:
            assert state.tile_of(i) == -1
    if not state.is_terminal:
        assert max(len(state.hand(seat)) for seat in (0, 1)) < HAND_LIMIT  # hands ≤ 10 in a live game
        assert state.mana >= 0
        assert state.current_player in (0, 1)
        if state.phase in ("flip", "main"):  # the agents rely on it
            assert state.current_player == state.active
        assert len(state.legal_actions()) > 0
        assert all(o in (0, 1) for o in state.tiles().values())
        if state.rules.tiles_per_colour:  # each player's tiles: at most the cap
            assert max(state.tile_count(0), state.tile_count(1)) <= state.rules.tiles_per_colour
        # (under elimination_killed="resolved" a player left without tiles by a death may choose the targets of
        # that death's When killed abilities before the game ends)
        assert (
            any(o == 0 for o in state.tiles().values())
            or state.rules.elimination == "turn-start"
            or (state.rules.elimination_killed == "resolved" and state.phase == "choice")
        )


def play_random(
    rules: MeaRules, seed: int, check_every: bool = True, probe: bool = False, check_lists: bool = False
) -> MeaState:
    """A seeded random game. ``check_every``: the invariants after each action; ``probe``:
    each action's notation round-trips; ``check_lists``: each legal list, built one action
    at a time (as a random player does), equals its full list and, in the main phase, a
    plain generator written from the rules."""
    state = rules.new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal:
        if state.current_player == CHANCE:
            state.apply(state.sample_chance())
            continue
        legal = state.legal_actions()
        if check_lists:
            picked = [legal[k] for k in range(len(legal))]
            assert picked == list(legal) and legal[-1] == picked[-1]
            assert len(set(picked)) == len(picked)
            if state.phase == "main":
                assert set(picked) == reference_main_actions(state)
        action = legal[rng.randrange(len(legal))]
        if probe:
            assert rules.parse_action(str(action)) == action
            assert state.parse_action(str(action)) == action
        state.apply(action)
        if check_every:
            check_invariants(state)
    return state


FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(seed=SEEDS, options=OPTIONS)
def test_random_games_keep_every_invariant_under_every_option(seed, options):
    rules = random_rules(seed, **options)
    state = play_random(rules, seed, probe=True)
    assert state.outcome() is not None and state.legal_actions() == ()


def test_two_thousand_seeded_games_of_random_demo_decks_keep_the_invariants():
    ends: Counter[str] = Counter()
    for seed in range(2000):
        rules = random_rules(seed)
        state = play_random(rules, seed)
        ends[state.end_code] += 1
        assert state.turn <= rules.max_turns
    assert ends["no-tiles"] > 0 and ends["hand-of-11"] > 0


def reference_main_actions(state: MeaState) -> set[MeaAction]:
    """The main phase's legal actions written plainly from the rules, as a check on the
    engine's fast, lazy listing (:class:`MainActions`)."""
    p = state.active
    tiles = state.tiles()
    tab = state.tables

    def enemy_on(q: int) -> bool:
        return any(state.controller(i) != p for i in state.on_tile(q))

    def room(q: int) -> bool:
        return len(state.on_tile(q)) < MAX_PER_TILE and not enemy_on(q)

    def move_room(q: int) -> bool:  # move_onto_enemy="allowed": a lone enemy monster does not block a move
        if state.rules.move_onto_enemy == "allowed":
            return len(state.on_tile(q)) < MAX_PER_TILE
        return room(q)

    def neighbours(q: int) -> list[int]:
        return [q + d for d in tab.dirs if q + d in tiles]

    out: set[MeaAction] = set()
    for i in state.hand(p):
        card = state.card(i)
        if (card.cost or 0) > state.mana:
            continue
        if tab.monster[i]:
            out.update(Summon(card.name, q) for q, o in tiles.items() if o == p and room(q))
        else:
            out.add(Play(card.name))
    mine = state.monsters(p)
    for i in mine:
        if state.can_move(i):
            out.update(Move(state.ref_of(i), d) for d in neighbours(state.tile_of(i)) if move_room(d))
    attackers = [i for i in mine if state.can_attack(i)]
    for t in tiles:
        foes = [state.defence_of(j) for j in state.on_tile(t) if state.controller(j) != p]
        if not foes:
            continue
        need = max(foes) if state.rules.attack_rule == "all" else min(foes)
        near = [i for i in attackers if t in neighbours(state.tile_of(i))]
        for k, i in enumerate(near):
            if state.attack_of(i) >= need:
                out.add(Attack(t, [state.ref_of(i)]))
            for j in near[k + 1 :]:
                both_fresh = state.summoned_this_turn(i) and state.summoned_this_turn(j)
                if not both_fresh and state.attack_of(i) + state.attack_of(j) >= need:
                    pair = Attack(t, [state.ref_of(i), state.ref_of(j)])
                    if state.rules.move_in == "first":  # the first named moves in: both orders
                        out.update((pair, Attack(t, pair.refs[::-1])))
                    else:
                        out.add(pair.in_board_order())
    left, held = len(state.deck(p)), len(state.hand(p))
    if left:
        top = left if state.rules.list_losing_draws else max(1, min(left, HAND_LIMIT - 1 - held))
        out.update(Draw(k) for k in range(1, top + 1))
    else:
        own = [q for q, o in tiles.items() if o == p]
        out.update(Obliterate(q) for q in own)
        if not own:
            out.add(Obliterate())
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, options=OPTIONS)
def test_lazy_legal_actions_match_their_list_and_a_plain_reference(seed, options):
    state = play_random(random_rules(seed, **options), seed, check_every=False, check_lists=True)
    assert state.outcome() is not None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS)
def test_replaying_the_record_reproduces_the_game(seed):
    rules = random_rules(seed)
    state = play_random(rules, seed, check_every=False)
    lines = record_lines(rules, seed, state.history, ["random", "random"])
    (record,) = parse_records("\n".join(lines))
    result = replay(record)
    assert result.finished and result.outcome == state.outcome()
    assert result.state.history == state.history
    assert result.state.observation(0).public() == state.observation(0).public()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS)
def test_clones_are_independent(seed):
    rules = random_rules(seed)
    state = rules.new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal:
        if state.current_player == CHANCE:
            state.apply(state.sample_chance())
            continue
        legal = list(state.legal_actions())
        snapshot = (state.observation(0).public(), state.observation(1).public(), list(state.history))
        twin = state.clone()
        other = legal[rng.randrange(len(legal))]
        twin.apply(other)
        while not twin.is_terminal and rng.random() < 0.7:
            twin.apply(twin.legal_actions()[0])
        assert (state.observation(0).public(), state.observation(1).public(), state.history) == snapshot
        assert list(state.legal_actions()) == legal
        state.apply(legal[rng.randrange(len(legal))])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS)
def test_observations_hide_the_other_hand_and_the_decks_order(seed):
    rules = random_rules(seed)
    state = rules.new_initial_state(seed)
    rng = random.Random(seed)
    steps = 0
    while not state.is_terminal:
        if state.current_player == CHANCE:
            state.apply(state.sample_chance())
            continue
        steps += 1
        if steps % 5 == 0:
            for me in (0, 1):
                opp = 1 - me
                obs = state.observation(me)
                view = obs.view
                assert view.seed is None and view.history == []
                assert all(i == -1 for i in view.hand(opp)) and all(i == -1 for d in (0, 1) for i in view.deck(d))
                assert not any(view.zone(i) in (DECK, HAND) and state.owner(i) == opp for i in range(view.card_count))
                # Another deal of the unseen cards looks the same to this player.
                assert redealt(state, me, rng).observation(me).public() == obs.public()
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])


def test_checked_and_unchecked_play_agree_and_illegal_actions_change_nothing():
    rng = random.Random(7)
    for seed in range(100):
        rules = random_rules(seed)
        a = rules.new_initial_state(seed)
        b = rules.new_initial_state(seed)
        while not a.is_terminal:
            if a.current_player == CHANCE:
                x = a.sample_chance()
                a.apply(x)
                b.apply_unchecked(b.sample_chance())
                continue
            legal = a.legal_actions()
            # A legal action of the other phase or player, or a mutated one, is refused without effect.
            bogus = rules.parse_action(rng.choice(["draw 0", "flip b2", "choose b2", "summon Crumb Goblin z9"]))
            if bogus not in legal:
                before = a.observation(0).public()
                try:
                    a.apply(bogus)
                except IllegalAction as error:
                    assert str(error) and error.rule
                assert a.observation(0).public() == before
            action = legal[rng.randrange(len(legal))]
            a.apply(action)
            b.apply_unchecked(action)
        assert a.outcome() == b.outcome() and a.history == b.history


def test_heuristic_games_with_small_decks_reach_deck_out_and_keep_the_invariants():
    from cardbase.games.mea.agents import HeuristicAgent

    obliterations = 0
    for seed in range(150):
        rng = random.Random(seed)
        decks = []
        for k in range(2):
            counts = Counter(rng.choice(POOL) for _ in range(rng.randint(6, 12)))
            decks.append(MeaDeck(str(k), tuple(sorted(counts.items(), key=lambda kv: kv[0].name))))
        rules = MeaRules(decks=(decks[0], decks[1]))
        state = rules.new_initial_state(seed)
        agents = [HeuristicAgent(rules, s, seed + s, opening=rng.randint(1, 4)) for s in (0, 1)]
        while not state.is_terminal:
            if state.current_player == CHANCE:
                state.apply(state.sample_chance())
                continue
            p = state.current_player
            state.apply(agents[p].act(state.observation(p), state.legal_actions()))
            check_invariants(state)
        obliterations += sum(1 for a in state.history if a[0] == "obliterate")
    assert obliterations > 0


def test_the_public_reads_name_each_card_and_how_the_game_ended():
    """``card_count``, ``owner`` and ``end_reason``: what the table view and the invariants read
    instead of the state's private fields."""
    for seed in range(5):
        rules = random_rules(seed)
        state = rules.new_initial_state(seed)
        state.resolve_chance()
        decks = [state.deck(seat) for seat in (0, 1)]
        assert state.card_count == sum(len(d) + len(state.hand(s)) for s, d in enumerate(decks))
        assert all(state.owner(i) == seat for seat in (0, 1) for i in (*decks[seat], *state.hand(seat)))
        assert state.end_reason is None
        state = play_random(rules, seed, check_every=False)
        assert state.is_terminal and state.end_reason == state.outcome().reason


def _made_up_ability(rng: random.Random, trigger: str) -> dict[str, object]:
    from cardbase.games.mea.abilities import EFFECT_TARGETS

    effect = rng.choice(sorted(EFFECT_TARGETS))
    targets = [t for t in EFFECT_TARGETS[effect] if not (trigger == "play" and t == "self")]
    target = rng.choice(targets)
    out: dict[str, object] = {"trigger": trigger, "effect": effect, "target": target}
    if rng.random() < 0.3 and target not in ("you", "opponent", "self"):
        out["count"] = 2
    if rng.random() < 0.3:
        out["condition"] = {"count": "friendly_tiles", "at_least": rng.randint(2, 6)}
    if rng.random() < 0.3 and target not in ("you", "opponent", "self") and trigger != "play":
        out["filter"] = {"adjacent": True}  # (an assist has no tile to be adjacent to)
    return out


@FAST
@given(seed=SEEDS, options=OPTIONS)
def test_random_games_of_made_up_cards_with_several_parts_keep_every_invariant(seed, options):
    """Cards made up at random in the ability language, 1 to 3 parts each on one trigger (the demo set has
    few with more than one, and none whose parts set each other off), under random options: the invariants
    after every action — the queue of parts and what they set off (triggered_after, left_play, killed_order,
    elimination_killed) never leaves the game broken."""
    from tests.mea.conftest import assist, monster

    rng = random.Random(seed)
    pool = []
    for k in range(12):
        trigger = rng.choice(["summoned", "killed", "turn_start", "turn_end"])
        parts = [_made_up_ability(rng, trigger) for _ in range(rng.randint(1, 3))]
        pool.append(monster(f"M{k}", rng.randint(0, 3), rng.randint(0, 4), rng.randint(1, 4), parts))
    for k in range(4):
        pool.append(
            assist(f"A{k}", rng.randint(0, 2), [_made_up_ability(rng, "play") for _ in range(rng.randint(2, 3))])
        )

    def made_up_deck(name: str) -> MeaDeck:
        counts = Counter(rng.choice(pool) for _ in range(rng.randint(10, 25)))
        return MeaDeck(name, tuple(sorted(counts.items(), key=lambda kv: kv[0].name)))

    rules = MeaRules(decks=(made_up_deck("a"), made_up_deck("b")), **options)
    state = play_random(rules, seed)
    assert state.outcome() is not None
