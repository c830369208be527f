"""Invariants over thousands of seeded random games (hypothesis)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardbase.games.base import CHANCE, IllegalAction
from cardbase.games.meio.actions import Deal, Play, Split, SplitActions
from cardbase.games.meio.cards import PlayingCard, Suit
from cardbase.games.meio.masks import CARDS, mask_of
from cardbase.games.meio.rules import MeioRules
from cardbase.sim.records import parse_records, record_lines, replay

SEEDS = st.integers(min_value=0, max_value=2**63 - 1)
PLAYERS = st.sampled_from([2, 3, 4])
FAST = settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOWER = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FEW = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def reference_winner(leader: int, trick: list[PlayingCard], players: int, ace_high: bool) -> int:
    """Who wins a trick, read straight from the rulebook."""

    def rank(card: PlayingCard) -> int:
        return 14 if (card.rank == 1 and ace_high) else card.rank

    hearts = [(rank(c), i) for i, c in enumerate(trick) if c.suit is Suit.HEARTS]
    if hearts:
        best = max(hearts)[1]
    else:
        led = trick[0].suit
        best = max((rank(c), i) for i, c in enumerate(trick) if c.suit is led)[1]
    return (leader + best) % players


def random_game(players: int, seed: int, **options):
    """Play a random game with checked moves; yield each finished round's facts."""
    rules = MeioRules(players=players, **options)
    state = rules.new_initial_state(seed)
    rng = random.Random(seed)
    rounds = []
    current = None
    state_tricks: tuple = ()
    while True:
        if state.current_player == CHANCE or state.is_terminal:
            if current is not None:
                current["tricks"] = state_tricks
                rounds.append(current)
            if state.is_terminal:
                break
            deal = state.sample_chance()
            state.apply(deal)
            current = {"deal": deal, "start": state.starting_player, "splits": {}}
            continue
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        if isinstance(action, Split):
            current["splits"][state.current_player] = action
        state.apply(action)
        state_tricks = state.tricks()
    return rules, state, rounds


@FAST
@given(players=PLAYERS, seed=SEEDS)
def test_every_round_plays_each_dealt_card_once_in_13_full_tricks(players, seed):
    rules, state, rounds = random_game(players, seed)
    assert len(rounds) == 3
    outcome = state.outcome()
    for number, rnd in enumerate(rounds):
        deal: Deal = rnd["deal"]
        dealt = 0
        for hand in deal.hands:
            assert hand.bit_count() == 13
            assert not dealt & hand
            dealt |= hand
        assert dealt & ~rules.deck_mask == 0
        tricks = rnd["tricks"]
        assert len(tricks) == 13
        played = [c for _, cards, _ in tricks for c in cards]
        assert len(played) == 13 * players
        assert mask_of(played) == dealt  # each dealt card played exactly once
        horizontal = [0] * players
        vertical = [0] * players
        leader = rnd["start"]
        for i, (lead, cards, winner) in enumerate(tricks):
            assert len(cards) == players  # one card per player
            assert lead == leader
            assert winner == reference_winner(lead, list(cards), players, True)
            # the first seven tricks come from the kept 7, the rest from the 6 set aside
            for k, c in enumerate(cards):
                seat = (lead + k) % players
                pack = rnd["splits"][seat].keep if i < 7 else rnd["splits"][seat].aside
                assert mask_of([c]) & pack
            (horizontal if i < 7 else vertical)[winner] += 1
            leader = winner
        scores = tuple(abs(h - v) for h, v in zip(horizontal, vertical, strict=True))
        assert outcome.round_scores[number] == scores
        assert rnd["start"] == number % players
    totals = [sum(r[s] for r in outcome.round_scores) for s in range(players)]
    assert list(outcome.scores) == totals
    assert set(outcome.winners) == {s for s in range(players) if totals[s] == min(totals)}


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=PLAYERS, seed=SEEDS, ace_high=st.booleans(), anytime=st.booleans())
def test_variants_keep_the_invariants_and_the_follow_rule(players, seed, ace_high, anytime):
    rules = MeioRules(players=players, ace_high=ace_high, hearts_anytime=anytime)
    state = rules.new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal:
        if state.is_chance_node:
            state.resolve_chance()
            continue
        legal = state.legal_actions()
        if state.phase == "play":
            p = state.current_player
            hand = state.hand(p)
            trick = state.trick()
            if trick:
                led = trick[0][1].suit
                follow = [c for c in hand if c.suit is led]
                assert sorted(a.card for a in legal) == sorted(follow or hand)
            elif not anytime:
                broken = any(c.suit is Suit.HEARTS for _, cards, _ in state.tricks() for c in cards)
                plain = [c for c in hand if c.suit is not Suit.HEARTS]
                want = hand if (broken or not plain) else plain
                assert sorted(a.card for a in legal) == sorted(want)
            else:
                assert sorted(a.card for a in legal) == sorted(hand)
            # every card not listed is refused, with a reason
            for card in rules.deck:
                if Play(card) not in legal:
                    try:
                        state.check(Play(card))
                    except IllegalAction as error:
                        assert str(error)
                    else:
                        raise AssertionError(f"{card} accepted but not listed")
        before = len(state.tricks())
        action = legal[rng.randrange(len(legal))]
        state.apply(action)
        if state.phase == "play" and len(state.tricks()) == before + 1:
            lead, cards, winner = state.tricks()[-1]
            assert winner == reference_winner(lead, list(cards), players, ace_high)


@SLOWER
@given(players=PLAYERS, seed=SEEDS)
def test_a_record_replays_to_the_same_game(players, seed):
    rules, state, _ = random_game(players, seed)
    text = "\n".join(record_lines(rules, seed, state.history))
    (record,) = parse_records(text)
    result = replay(record)
    assert result.finished
    assert result.state.history == state.history
    assert result.outcome == state.outcome()
    # Without the deals, the seed gives them again.
    lines = [line for line in text.splitlines() if '"chance"' not in line]
    (record,) = parse_records("\n".join(lines))
    assert replay(record).outcome == state.outcome()


@SLOWER
@given(players=PLAYERS, seed=SEEDS, cut=st.floats(0, 1))
def test_clone_is_independent_and_continues_identically(players, seed, cut):
    rules = MeioRules(players=players)
    state = rules.new_initial_state(seed)
    rng = random.Random(seed)
    stop = int(cut * 130 * players)
    steps = 0
    while not state.is_terminal and steps < stop:
        if state.is_chance_node:
            state.resolve_chance()
        else:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        steps += 1
    twin = state.clone()
    assert twin.history == state.history and twin.history is not state.history
    # Play the twin on; the original must not move.
    snapshot = (state.current_player, state.totals(), [state.hand(s) for s in range(players)])
    rng_twin = random.Random(seed + 1)
    actions = []
    while not twin.is_terminal:
        if twin.is_chance_node:
            deal = twin.sample_chance()
            actions.append(deal)
            twin.apply(deal)
        else:
            legal = twin.legal_actions()
            a = legal[rng_twin.randrange(len(legal))]
            actions.append(a)
            twin.apply(a)
    assert snapshot == (state.current_player, state.totals(), [state.hand(s) for s in range(players)])
    # The same actions on the original (chance drawn from its own, cloned RNG) agree.
    for a in actions:
        if state.is_chance_node:
            assert state.sample_chance() == a
        state.apply(a)
    assert state.outcome() == twin.outcome()


@FEW
@given(players=PLAYERS, seed=SEEDS)
def test_observations_show_only_what_a_player_may_see(players, seed):
    rules = MeioRules(players=players)
    state = rules.new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal:
        if state.is_chance_node:
            state.resolve_chance()
            continue
        for seat in range(players):
            obs = state.observation(seat)
            mine = mask_of(state.hand(seat)) | mask_of(state.aside(seat))
            assert obs.hand == mask_of(state.hand(seat))
            assert obs.aside == mask_of(state.aside(seat))
            others = 0
            for other in range(players):
                if other != seat:
                    others |= mask_of(state.hand(other)) | mask_of(state.aside(other))
            others |= mask_of(state.leftover())
            visible = obs.hand | obs.aside | obs.dealt | obs.played
            assert not visible & others
            assert obs.dealt & ~(mine | obs.played) == 0
            assert obs.hand_sizes == tuple(len(state.hand(s)) for s in range(players))
            assert obs.aside_sizes == tuple(len(state.aside(s)) for s in range(players))
            text = obs.describe()
            for c in CARDS:
                if mask_of([c]) & others:
                    assert f"{c.notation[:-1]}{c.suit.symbol} " not in text + " "
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])


def _oracle_split_owner(split: Split, hands: list[int], done: set[int]) -> int | None:
    """The seat this split is legal for, read straight from the rulebook ("split their hand into
    two parts: one with 7 cards, and one with 6 cards"), with no order among the players: a seat
    that has not split yet, whose 13 cards are exactly the split's, 7 kept and 6 set aside."""
    if split.keep & split.aside or split.keep.bit_count() != 7 or split.aside.bit_count() != 6:
        return None
    for seat, hand in enumerate(hands):
        if seat not in done and split.keep | split.aside == hand:
            return seat
    return None


@st.composite
def split_positions(draw):
    """A state in the split phase (some seats already split, in any order) and a candidate split:
    a legal one or one a card, a count or an owner away from legal, or any two masks at all."""
    players = draw(PLAYERS)
    state = MeioRules(players=players).new_initial_state(draw(SEEDS))
    state.resolve_chance()
    rng = random.Random(draw(SEEDS))
    order = draw(st.permutations(range(players)))
    for seat in order[: draw(st.integers(0, players - 1))]:
        splits = SplitActions(state.hand_mask(seat))
        state.apply(splits[rng.randrange(len(splits))])
    hands = [state.hand_mask(s) if not state.observation(s).split_done[s] else 0 for s in range(players)]
    seat = draw(st.integers(0, players - 1))
    hand = mask_of(state.hand(seat)) | mask_of(state.aside(seat))
    held = [c for c in range(52) if hand >> c & 1]
    deck = [c for c in range(52) if state.rules.deck_mask >> c & 1]
    rng.shuffle(held)
    keep = sum(1 << c for c in held[:7])
    aside = sum(1 << c for c in held[7:])
    kind = draw(st.sampled_from(["legal", "swap-out", "move", "overlap", "drop", "outside", "random"]))
    if kind == "swap-out":  # one card of another hand, the pack left aside or the deck for another count
        other = draw(st.sampled_from([c for c in range(52) if not hand >> c & 1]))
        if draw(st.booleans()):
            keep = keep & ~(1 << held[0]) | 1 << other
        else:
            aside = aside & ~(1 << held[7]) | 1 << other
    elif kind == "move":  # 8 and 5, or 6 and 7, of the right 13
        if draw(st.booleans()):
            keep, aside = keep | 1 << held[7], aside & ~(1 << held[7])
        else:
            keep, aside = keep & ~(1 << held[0]), aside | 1 << held[0]
    elif kind == "overlap":
        aside |= 1 << held[0]
    elif kind == "drop":
        keep &= ~(1 << held[0])
    elif kind == "outside":  # a card outside this player count's deck
        outside = [c for c in range(52) if not state.rules.deck_mask >> c & 1]
        if outside:
            keep = keep & ~(1 << held[0]) | 1 << draw(st.sampled_from(outside))
    elif kind == "random":
        # sets, not lists: a card drawn twice summed to the next bit (2**51 twice is 2**52, no card)
        keep = sum(1 << c for c in draw(st.sets(st.sampled_from(deck), max_size=9)))
        aside = sum(1 << c for c in draw(st.sets(st.sampled_from(deck), max_size=8)))
    return state, hands, Split(keep, aside)


@SLOWER
@given(position=split_positions())
def test_the_split_phase_refuses_every_split_not_legal_for_some_player(position):
    """Meio's split phase accepts exactly the splits in ``legal_actions()`` of the current player
    and, since the rulebook sets no order, of a player who has not split yet (what ``legal_actions``
    would list on their turn): any other is refused with a reason and leaves the state as it was."""
    state, hands, split = position
    done = {s for s in range(state.players) if state.observation(s).split_done[s]}
    owner = _oracle_split_owner(split, hands, done)
    p = state.current_player
    in_legal = split in state.legal_actions()
    assert in_legal == (owner == p)
    before = (state.history[:], [state.hand_mask(s) for s in range(state.players)], p)
    if owner is None:
        try:
            state.apply(split)
        except IllegalAction as refusal:
            assert refusal.rule in ("split-7-6", "hold-card") and str(refusal)
        else:
            raise AssertionError(f"{split} accepted: no player may make it")
        assert (state.history, [state.hand_mask(s) for s in range(state.players)], state.current_player) == before
    else:
        # the split is in the legal actions of its owner: the list their turn would give
        assert split in SplitActions(hands[owner]) and owner not in done
        assert state.actor(split) == owner
        state.apply(split)
        assert state.hand_mask(owner) == split.keep and state.aside_mask(owner) == split.aside
        assert state.observation(owner).split_done[owner] or state.phase == "play"
        with pytest.raises(IllegalAction):  # and never twice
            state.apply(split)


@FEW
@given(players=PLAYERS, seed=SEEDS)
def test_no_split_is_accepted_once_the_tricks_have_begun(players, seed):
    state = MeioRules(players=players).new_initial_state(seed)
    state.resolve_chance()
    dealt = [state.hand_mask(s) for s in range(players)]
    rng = random.Random(seed)
    while state.phase == "split":
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    for hand in dealt:
        splits = SplitActions(hand)
        with pytest.raises(IllegalAction) as e:
            state.apply(splits[rng.randrange(len(splits))])
        assert e.value.rule == "split-over"
