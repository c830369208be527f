"""The table service: checked acts on a version, undo until hidden information is shown, the
spectator's observation, per-seat logs, rebuilding a table from its seed and actions."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardbase.games.base import SPECTATOR, IllegalAction, InvalidAction
from cardbase.games.mea.rules import MeaRules
from cardbase.games.meikyu.engine import MeikyuRules
from cardbase.games.meio.engine import MeioRules
from cardbase.sim.records import parse_records, replay
from cardbase.sim.table import HUMAN, GameFinished, NotYourTurn, Stale, Table, UndoRefused
from tests.mea.conftest import DEMO
from tests.meikyu.helpers import default_pool


def mea_rules() -> MeaRules:
    cards = sorted(DEMO.values(), key=lambda c: c.name)
    from cardbase.games.mea.rules import MeaDeck

    return MeaRules(
        decks=(MeaDeck("A", tuple((c, 1) for c in cards[0::2])), MeaDeck("B", tuple((c, 1) for c in cards[1::2])))
    )


def snapshot(table: Table) -> tuple[Any, ...]:
    """What a refused act must leave as it was."""
    return (
        table.version,
        [str(a) for a in table.actions],
        {v: len(log) for v, log in table.logs.items()},
        [table.state.observation(s).describe() for s in range(table.rules.players)],
    )


def play_out(table: Table, seed: int, undo_rate: float = 0.0) -> dict[str, int]:
    """Play the table to its end: agents by themselves, people at random (undoing now and then)."""
    rng = random.Random(seed)
    refused: dict[str, int] = {}
    while not table.over:
        decision = table.decision()
        if decision is not None:
            action, seconds = table.think(decision)
            assert table.apply_decision(decision, action, seconds)
            continue
        seat = table.state.current_player
        if table.can_undo(seat) and rng.random() < undo_rate:
            try:
                table.undo(seat, table.version)
                refused["undone"] = refused.get("undone", 0) + 1
                continue
            except UndoRefused as error:
                refused[error.rule] = refused.get(error.rule, 0) + 1
        view = table.view(seat)
        table.act(seat, rng.randrange(len(view["legal"])), view["version"])
    return refused


def test_the_same_seed_and_actions_give_the_same_game() -> None:
    rules = MeioRules(players=3)
    table = Table(rules, 11, [HUMAN, "heuristic", "random"])
    play_out(table, 1)
    texts = [text for _, text in table.texts()]
    again = Table.restore(rules, 11, [HUMAN, "heuristic", "random"], texts, version=table.version)
    assert [str(a) for a in again.actions] == texts
    assert again.state.outcome() == table.state.outcome()
    assert again.view(0)["log"] == table.view(0)["log"]
    other = Table(rules, 12, [HUMAN, "heuristic", "random"])
    assert str(other.actions[0]) != texts[0]  # another seed deals otherwise


def test_the_record_of_a_table_replays() -> None:
    table = Table(mea_rules(), 3, [HUMAN, "heuristic"])
    play_out(table, 3, undo_rate=0.3)
    (record,) = parse_records("\n".join(table.record()))
    result = replay(record)
    assert result.finished and result.outcome == table.state.outcome()
    assert result.actions == len(table.actions)


def test_a_restored_table_refuses_an_action_the_rules_refuse() -> None:
    from cardbase.sim.table import Unplayable

    rules = MeioRules(players=2)
    table = Table(rules, 5, [HUMAN, HUMAN])
    texts = [text for _, text in table.texts()]
    with pytest.raises(Unplayable, match="action 2"):
        Table.restore(rules, 5, [HUMAN, HUMAN], [*texts, "play 7H"])


def test_an_illegal_action_is_refused_with_its_rule_and_changes_nothing() -> None:
    table = Table(MeioRules(players=2), 7, [HUMAN, HUMAN])
    seat = table.state.current_player
    split = str(table.state.legal_actions()[0])
    table.act(seat, split, table.version)
    seat = table.state.current_player
    table.act(seat, str(table.state.legal_actions()[0]), table.version)
    # now the trick: a card not in the hand, and a card of the wrong suit when one can follow
    before = snapshot(table)
    leader = table.state.current_player
    hand = table.state.observation(leader).hand_cards
    missing = next(c for c in table.rules.deck if c not in hand)
    with pytest.raises(IllegalAction) as refused:
        table.act(leader, f"play {missing.notation}", table.version)
    assert refused.value.rule == "hold-card" and "do not hold" in str(refused.value)
    assert snapshot(table) == before
    with pytest.raises(InvalidAction):
        table.act(leader, "dance a jig", table.version)
    with pytest.raises(InvalidAction):
        table.act(leader, 10_000, table.version)
    assert snapshot(table) == before


def test_a_stale_or_out_of_turn_action_is_refused_and_changes_nothing() -> None:
    table = Table(MeioRules(players=3), 8, [HUMAN, HUMAN, "heuristic"])
    seat = table.state.current_player
    old = table.version
    table.act(seat, 0, old)
    before = snapshot(table)
    with pytest.raises(Stale):
        table.act(table.state.current_player, 0, old)
    not_to_move = next(s for s in (0, 1) if s != table.state.current_player)
    with pytest.raises(NotYourTurn, match="turn"):
        table.act(not_to_move, 0, table.version)
    with pytest.raises(NotYourTurn, match="agent"):
        table.act(2, 0, table.version)
    with pytest.raises(NotYourTurn):
        table.act(5, 0, table.version)
    assert snapshot(table) == before


def test_mea_undo_takes_back_a_move_and_refuses_after_a_draw() -> None:
    table = Table(mea_rules(), 2, [HUMAN, HUMAN])
    seen: set[str] = set()
    for _ in range(400):
        if table.over:
            break
        seat = table.state.current_player
        legal = [str(a) for a in table.state.legal_actions()]
        kinds = {text.split()[0] for text in legal}
        kind = next((k for k in ("summon", "move", "attack") if k in kinds and k not in seen), None)
        if kind is not None:
            before = (table.state.observation(seat).describe(), [str(a) for a in table.actions])
            table.act(seat, next(t for t in legal if t.startswith(kind)), table.version)
            if table.movers[-1] == seat:  # nothing drawn (a Naïve Squire draws when summoned)
                table.undo(seat, table.version)
                assert (table.state.observation(seat).describe(), [str(a) for a in table.actions]) == before
                seen.add(kind)
                table.act(seat, next(t for t in legal if t.startswith(kind)), table.version)
            continue
        draw = next((t for t in legal if t.startswith("draw")), None)
        table.act(seat, draw or legal[0], table.version)
        if draw is not None and table.movers[-1] == seat:
            version = table.version
            with pytest.raises(UndoRefused, match="hidden") as refused:
                table.undo(seat, version)
            assert refused.value.rule == "undo-revealed" and table.version == version
            seen.add("draw")
        if {"summon", "move", "draw"} <= seen:
            break
    assert {"summon", "move", "draw"} <= seen


def test_undo_is_refused_after_a_deal_a_die_roll_or_another_seat() -> None:
    meio = Table(MeioRules(players=2), 4, [HUMAN, HUMAN])
    with pytest.raises(UndoRefused) as refused:
        meio.undo(0, meio.version)
    assert refused.value.rule in ("undo-revealed", "undo-not-yours")
    first = meio.state.current_player
    meio.act(first, 0, meio.version)
    second = meio.state.current_player
    meio.act(second, 0, meio.version)
    with pytest.raises(UndoRefused, match="P") as refused:
        meio.undo(first, meio.version)
    assert refused.value.rule == "undo-not-yours"
    meio.undo(second, meio.version)  # the second's own last action: taken back
    assert meio.state.current_player == second

    meikyu = Table(MeikyuRules(default_pool(), players=2), 6, [HUMAN, HUMAN])
    for _ in range(200):  # until a main action is followed by its die roll
        seat = meikyu.state.current_player
        legal = [str(a) for a in meikyu.state.legal_actions()]
        quest = next((t for t in legal if t.startswith("quest")), None)
        meikyu.act(seat, quest or legal[0], meikyu.version)
        if quest is not None and meikyu.movers[-1] != seat:
            with pytest.raises(UndoRefused, match="revealed") as refused:
                meikyu.undo(seat, meikyu.version)
            assert "rolls" in str(refused.value) or "draws" in str(refused.value)
            break
    else:
        raise AssertionError("no quest in 200 actions")


@pytest.mark.parametrize("game", ["mea", "meio", "meikyu"])
def test_a_seat_is_offered_undo_exactly_when_the_table_would_take_it_back(game: str) -> None:
    """The view's ``undo`` (the page's button) is the table's own rule: offered after a seat's own
    move, never after a draw it made, a deal, a die roll or another seat's move, nor at the end."""
    rules: Any = {
        "mea": mea_rules(),
        "meio": MeioRules(players=2),
        "meikyu": MeikyuRules(default_pool(), players=2),
    }[game]
    table = Table(rules, 3, [HUMAN, HUMAN])
    rng = random.Random(5)
    offered = {True: 0, False: 0}
    for _ in range(80):
        texts = [text for _, text in table.texts()]
        for seat in (0, 1):
            shown = table.view(seat)["undo"]
            copy = Table.restore(rules, 3, [HUMAN, HUMAN], texts, version=table.version)
            try:
                copy.undo(seat, copy.version)
                taken = True
            except (UndoRefused, GameFinished):  # the end: the table's state refuses it (409)
                taken = False
            assert shown == taken, (seat, texts[-3:])
            offered[shown] += 1
        if table.over:
            break
        seat = table.state.current_player
        legal = table.view(seat)["legal"]
        table.act(seat, rng.randrange(len(legal)), table.version)
    assert offered[True] and offered[False], offered


def test_a_seat_log_is_built_from_its_own_observations() -> None:
    table = Table(MeioRules(players=3), 9, [HUMAN, HUMAN, HUMAN])
    play_out(table, 9)
    for seat in range(3):
        lines = [e.text for e in table.logs[seat]]
        assert lines[0] == "— round 1: the cards are dealt —"
        splits = [line for line in lines if "split" in line]
        assert all(line.startswith(f"P{seat + 1} (you): split") for line in splits if "(you)" in line)
        assert sum("splits their hand" in line for line in lines) == 2 * 3  # the others', each round
    spectator = [e.text for e in table.logs[SPECTATOR]]
    assert sum("splits their hand" in line for line in spectator) == 3 * 3
    assert not any("(you)" in line for line in spectator)


@pytest.mark.parametrize("game", ["mea", "meio", "meikyu"])
def test_the_spectator_sees_no_hand(game: str) -> None:
    """The engines' public observation: every hand hidden, at every step of a random game."""
    if game == "mea":
        rules: Any = mea_rules()
    elif game == "meio":
        rules = MeioRules(players=4)
    else:
        rules = MeikyuRules(default_pool(), players=3)
    state = rules.new_initial_state(21)
    rng = random.Random(21)
    steps = 0
    while not state.is_terminal and steps < 400:
        watched = state.observation(SPECTATOR)
        assert watched.player == SPECTATOR
        text = watched.describe()
        assert "(you)" not in text and "Your hand" not in text
        if game == "meio":
            assert watched.hand == 0 and watched.aside == 0 and watched.dealt == 0
            for seat in range(rules.players):
                for card in state.hand(seat):
                    assert f"{card.notation[:-1]}{card.suit.symbol}" not in text
        elif game == "mea":
            assert watched.hand_names() == () and watched.public()["hand"] == []
            visible = {state.card(i).name for i in state.monsters()} | {state.card(i).name for i in state.out_of_play()}
            for seat in (0, 1):
                for name in state.hand_names(seat):
                    if name not in visible:
                        assert name not in text
        else:
            assert not any(watched.hand) and watched.archives is None
        if state.is_chance_node:
            state.apply(state.sample_chance())
        else:
            state.apply(rng.choice(list(state.legal_actions())))
        steps += 1
    with pytest.raises(ValueError):
        state.observation(-7)


def test_terminal_play_is_a_face_of_the_table_undo_included() -> None:
    """``play_interactive`` plays at a Table: the same moves give the same log as the table's, and
    ``undo`` takes back a summon, and is refused, with the table's reason, once another seat moved."""
    from cardbase.sim.play import play_interactive
    from cardbase.sim.registry import GAMES, derive_seed

    rules = mea_rules()
    seed = 5
    shadow = Table(rules, seed, [HUMAN, "heuristic"])  # what the terminal's table will do
    script: list[str] = []
    while True:
        decision = shadow.decision()
        if decision is not None:
            action, seconds = shadow.think(decision)
            shadow.apply_decision(decision, action, seconds)
            continue
        legal = [str(a) for a in shadow.state.legal_actions()]
        summon = next((t for t in legal if t.startswith("summon")), None)
        if summon is not None:
            break
        pick = next((t for t in legal if t.startswith(("draw 3", "flip none"))), legal[0])
        script.append(pick)
        shadow.act(0, pick)
    script += [summon, "undo", "undo", "draw 1", "undo", "quit"]
    out: list[str] = []
    lines = iter(script)
    agents = {1: GAMES["mea"].make_agent("heuristic", rules, 1, derive_seed(seed, "play", 1))}
    session = play_interactive(rules, seed, 0, agents, lambda prompt: next(lines, None), out.append)
    assert session.abandoned and not session.interrupted
    assert f"undone: {summon}" in out
    after = out[out.index(f"undone: {summon}") :]
    # undo again: the last action before the summon was the agent's; after "draw 1" the agent played at once
    assert sum(line.startswith("cannot undo: P2 has acted since") for line in after) == 2
    logged = [e.text for e in shadow.logs[0]]
    assert [line for line in out if line in logged][: len(logged)] == logged  # the same narration, line for line


@pytest.mark.xdist_group("pools")  # starts worker processes: one such test at a time
def test_agents_in_worker_processes_play_the_game_they_would_in_threads(database: Any) -> None:
    """``serve``'s agents think in worker processes (below the pages' priority); each game keeps
    one worker, so its agents are the objects they would be in a thread: the same seed and the same
    person's moves give the same game."""
    from cardbase.sim.hall import Hall

    records = []
    for processes in (False, True):
        hall = Hall(database, processes=processes)
        try:
            game_id, _ = hall.create(MeioRules(players=3, rounds=1), [HUMAN, "search", "heuristic"], seed=12)
            live = hall.get(game_id)
            while True:
                assert hall.wait_quiet(game_id, 300) and live.error is None, live.error
                if live.table.over:
                    break
                hall.act(game_id, 0, 0, live.table.version)
            records.append(live.table.record())
        finally:
            hall.close()
    assert records[0] == records[1] and '"outcome"' in records[0][-1]


def test_a_worker_follows_a_game_taken_back() -> None:
    """A worker that applied actions an undo then took back replays the game from its seed."""
    from cardbase.sim import thinkers

    rules = MeioRules(players=2)
    table = Table(rules, 3, [HUMAN, HUMAN])
    table.act(table.state.current_player, 0)
    texts = [str(a) for a in table.actions]
    options = rules.to_options()
    first = thinkers.decide("g", options, "meio", 3, table.state.current_player, "heuristic", texts)
    other = Table(rules, 3, [HUMAN, HUMAN])
    other.act(other.state.current_player, 5)  # another split in its place
    retold = [str(a) for a in other.actions]
    again = thinkers.decide("g", options, "meio", 3, other.state.current_player, "heuristic", retold)
    fresh = thinkers.decide("h", options, "meio", 3, other.state.current_player, "heuristic", retold)
    assert texts != retold and first[0] and again[0] and fresh[0]
    kept = thinkers._GAMES["g"]
    assert kept.texts == retold
    for seat in (0, 1):  # the worker's game is the table's again, not the one it had
        assert kept.state.observation(seat).describe() == other.state.observation(seat).describe()


def test_a_hint_worked_out_in_a_worker_process_is_the_one_worked_out_here(database: Any) -> None:
    """``serve`` works out a hint where its agents think (a worker process, below the pages'
    priority): the same position gives the same hint as in the server's own thread."""
    from cardbase.sim.hall import Hall

    hints = []
    for processes in (False, True):
        hall = Hall(database, processes=processes)
        try:
            game_id, _ = hall.create(MeioRules(players=2, rounds=1), [HUMAN, HUMAN], seed=5)
            live = hall.get(game_id)
            for _ in range(2):  # both splits, then the first card to play
                hall.act(game_id, live.table.state.current_player, 0, live.table.version)
            hints.append(hall.hint(live, live.table.state.current_player))
        finally:
            hall.close()
    assert hints[0] == hints[1] and hints[0].startswith("play ")


def test_a_seat_splits_only_its_own_hand_and_a_guess_of_another_tells_nothing():
    """Meio's split may be made out of turn (a record in any order replays), but at a table each
    seat acts for itself: typing another player's exact 13 cards as a split is refused with the
    words any split of cards not held gets, and changes nothing."""
    table = Table(MeioRules(players=2), 4, [HUMAN, HUMAN])
    me = table.state.current_player
    other = 1 - me
    theirs = table.state.hand(other)
    guess = f"split {' '.join(c.notation for c in theirs[:7])} | {' '.join(c.notation for c in theirs[7:])}"
    assert table.state.actor(table.state.parse_action(guess)) == other  # the engine would take it as theirs
    before = snapshot(table)
    with pytest.raises(IllegalAction) as refused:
        table.act(me, guess, table.version)
    with pytest.raises(IllegalAction) as wrong:
        table.moves(guess)
    assert snapshot(table) == before
    assert str(refused.value) == str(wrong.value)
    # the same words as a wrong guess: 12 of their cards and one left out of the deal
    left_out = table.state.leftover()[0].notation
    near = guess.replace(theirs[0].notation + " ", left_out + " ", 1)
    assert table.state.actor(table.state.parse_action(near)) == me
    with pytest.raises(IllegalAction) as missed:
        table.act(me, near, table.version)
    for e in (refused.value, missed.value):
        assert str(e).startswith("you do not hold ") and e.rule == "hold-card" and str(e).count(",") == 12


def test_a_stored_game_with_a_split_out_of_turn_does_not_restore():
    """A table's own actions are never out of turn (each seat acts for itself), so a stored game that has one
    was not written by a table: it is refused, not restored with the split put down to the seat to act."""
    from cardbase.sim.table import Unplayable

    table = Table(MeioRules(players=2), 4, [HUMAN, HUMAN])
    me = table.state.current_player
    theirs = table.state.hand(1 - me)
    split = f"split {' '.join(c.notation for c in theirs[:7])} | {' '.join(c.notation for c in theirs[7:])}"
    texts = [str(a) for a in table.actions]
    assert table.state.actor(table.state.parse_action(split)) == 1 - me  # a record would take it, for them
    with pytest.raises(Unplayable, match="you do not hold"):
        Table.restore(MeioRules(players=2), 4, [HUMAN, HUMAN], [*texts, split])
    mine = table.state.hand(me)
    own = f"split {' '.join(c.notation for c in mine[:7])} | {' '.join(c.notation for c in mine[7:])}"
    restored = Table.restore(MeioRules(players=2), 4, [HUMAN, HUMAN], [*texts, own, split])
    assert restored.movers[-2:] == [me, 1 - me] and restored.state.phase == "play"
