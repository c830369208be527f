"""Game records: JSON Lines in, every action re-checked, the first illegal one reported."""

from __future__ import annotations

import json
import re

import pytest

from cardbase.errors import InvalidRecord, UnreadableInput
from cardbase.games.meio.engine import MeioRules
from cardbase.sim.records import parse_records, read_records, record_lines, replay


def finished_game(players=2, seed=7, rounds=1):
    rules = MeioRules(players=players, rounds=rounds)
    state = rules.new_initial_state(seed)
    while not state.is_terminal:
        if state.is_chance_node:
            state.resolve_chance()
        else:
            state.apply(state.legal_actions()[0])
    return rules, state


def test_record_lines_are_header_actions_outcome():
    rules, state = finished_game()
    lines = record_lines(rules, 7, state.history, ["random", "random"])
    header = json.loads(lines[0])
    assert header["record"] == "cardbase.game" and header["game"] == "meio"
    assert header["rules"]["players"] == 2 and header["seed"] == 7
    assert json.loads(lines[1]) == {"player": "chance", "action": str(state.history[0])}
    assert json.loads(lines[2])["player"] == "P1"
    assert json.loads(lines[-1])["outcome"]["scores"] == list(state.outcome().scores)
    assert len(lines) == 1 + len(state.history) + 1


def test_a_hand_typed_game_without_seed_replays():
    _rules, state = finished_game()
    header = json.dumps({"record": "cardbase.game", "game": "meio", "rules": {"players": 2, "rounds": 1}, "seed": None})
    text = "\n".join([header, *(json.dumps(str(a)) for a in state.history)])
    (record,) = parse_records(text, "table.jsonl")
    result = replay(record)
    assert result.finished and result.outcome == state.outcome()


def test_hand_typed_short_forms_are_accepted():
    _rules, state = finished_game()
    header = json.dumps({"record": "cardbase.game", "game": "meio", "rules": {"players": 2, "rounds": 1}, "seed": None})
    lines = [header]
    for a in state.history:
        text = str(a)
        if text.startswith("play "):
            text = text[5:]  # just "7H"
        elif text.startswith("split "):
            text = "split " + text.split("|")[1]  # just the six set aside
        lines.append(json.dumps(text))
    (record,) = parse_records("\n".join(lines))
    assert replay(record).outcome == state.outcome()


def test_the_first_illegal_action_is_reported_with_number_player_and_reason():
    rules, state = finished_game(players=3, seed=5)
    lines = record_lines(rules, 5, state.history)
    # Find a trick where P2 followed suit while holding another card; make P2 revoke.
    replayed = rules.new_initial_state(5)
    target = None
    for i, action in enumerate(state.history):
        if replayed.phase == "play" and replayed.trick() and replayed.current_player == 1:
            led = replayed.trick()[0][1].suit
            off = [c for c in replayed.hand(1) if c.suit != led]
            if any(c.suit == led for c in replayed.hand(1)) and off:
                target = (i, off[0])
                break
        replayed.apply(action)
    assert target is not None
    i, card = target
    lines[1 + i] = json.dumps({"player": "P2", "action": f"play {card.notation}"})
    (record,) = parse_records("\n".join(lines), "game.jsonl")
    with pytest.raises(InvalidRecord) as e:
        replay(record)
    err = e.value
    assert err.exit_code == 1
    assert err.number == i + 1 and err.player == "P2" and err.line == 2 + i
    assert "must follow" in str(err) and f"game.jsonl line {2 + i}: action {i + 1} (P2)" in str(err)


def test_wrong_player_tampered_deal_and_outcome_are_refused():
    rules, state = finished_game()
    lines = record_lines(rules, 7, state.history)
    bad = list(lines)
    bad[2] = bad[2].replace('"P1"', '"P2"')  # P1's split given to P2, who may split out of turn
    with pytest.raises(InvalidRecord, match="divides P1's hand: it is P1's to take, not P2's"):
        replay(parse_records("\n".join(bad))[0])
    bad = list(lines)
    assert json.loads(bad[4])["player"] == "P1" and "play" in bad[4]  # the first trick's lead
    bad[4] = bad[4].replace('"P1"', '"P2"')
    with pytest.raises(InvalidRecord, match="it is P1's turn, not P2's"):
        replay(parse_records("\n".join(bad))[0])
    for seat in ("P9", "P3"):  # a seat the 2-player game lacks: said so (not InvalidSeat from the engine)
        bad = [*lines[:2], lines[2].replace('"P1"', f'"{seat}"'), *lines[3:]]
        said = f"action 2 ({seat}): this game has 2 players, no {seat}; it is P1's turn"
        with pytest.raises(InvalidRecord, match=re.escape(said)):
            replay(parse_records("\n".join(bad))[0])
    _other_rules, other = finished_game(seed=8)
    bad = list(lines)
    bad[1] = json.dumps({"player": "chance", "action": str(other.history[0])})
    with pytest.raises(InvalidRecord, match="not the one seed 7 gives"):
        replay(parse_records("\n".join(bad))[0])
    bad = list(lines)
    outcome = json.loads(bad[-1])
    outcome["outcome"]["scores"] = [9, 9]
    bad[-1] = json.dumps(outcome)
    with pytest.raises(InvalidRecord, match="recorded scores"):
        replay(parse_records("\n".join(bad))[0])
    bad = [*lines[:-1], json.dumps("play AS")]
    with pytest.raises(InvalidRecord, match="already over"):
        replay(parse_records("\n".join(bad))[0])


def test_no_seed_and_no_deal_is_refused():
    text = '{"record": "cardbase.game", "game": "meio", "rules": {"players": 2}, "seed": null}\n"play AS"'
    with pytest.raises(InvalidRecord, match="no seed"):
        replay(parse_records(text)[0])


def test_an_unfinished_record_is_not_an_error():
    rules, state = finished_game()
    lines = record_lines(rules, 7, state.history[:10])
    result = replay(parse_records("\n".join(lines))[0])
    assert not result.finished and result.outcome is None and result.actions == 10


def test_several_games_in_one_file(tmp_path):
    rules, a = finished_game(seed=1)
    _, b = finished_game(seed=2)
    path = tmp_path / "two.jsonl"
    path.write_text("\n".join([*record_lines(rules, 1, a.history), "", *record_lines(rules, 2, b.history)]))
    records = read_records(path)
    assert [r.seed for r in records] == [1, 2]
    assert records[1].line == len(record_lines(rules, 1, a.history)) + 2


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "line 1: not JSON"),
        ('"play AS"', "starts with a header"),
        ('{"record": "other"}', "not a cardbase game record"),
        ('{"record": "cardbase.game", "version": 2, "game": "meio"}', "version 2"),
        ('{"record": "cardbase.game", "game": "meio", "seed": "x"}', "seed"),
        ('{"record": "cardbase.game", "game": "meio", "seed": 1}\n[1, 2]', "line 2: expected an action"),
        ("", "no game"),
    ],
)
def test_unreadable_records(text, message):
    with pytest.raises(UnreadableInput, match=message) as e:
        parse_records(text)
    assert e.value.exit_code == 2


def test_bad_rules_or_game_in_a_record():
    with pytest.raises(UnreadableInput, match='line 1: "rules": Meio is for 2, 3 or 4 players'):  # naming the line
        replay(parse_records('{"record": "cardbase.game", "game": "meio", "rules": {"players": 5}, "seed": 1}')[0])
    with pytest.raises(UnreadableInput, match="line 1: \"game\" must name the game \\(meio, mea, meikyu\\), not 'go'"):
        parse_records('{"record": "cardbase.game", "game": "go", "seed": 1}')  # refused where the file is read


def test_missing_file_is_unreadable(tmp_path):
    with pytest.raises(UnreadableInput, match="cannot read record"):
        read_records(tmp_path / "nope.jsonl")


_HEAD = '{"record": "cardbase.game", "game": "meio", "rules": {"players": 2}, "seed": 1'


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (_HEAD + ', "seeed": 3}', 'line 1: "seeed" is not a field of a record\'s header'),
        (_HEAD + '}\n{"player": "P1", "action": "play AS", "note": "good"}', 'line 2: "note" is not a field of'),
        (_HEAD + '}\n{"outcome": {"winners": [0], "score": [1, 2]}}', 'line 2: "score" is not a field of'),
        (_HEAD + '}\n{"outcome": {"winners": [0]}, "reason": "x"}', 'line 2: "reason" is not a field of'),
        (_HEAD + '}\n{"outcome": {"winners": [0]}}\n{"outcome": {"winners": [1]}}', "line 3: a second outcome"),
        (_HEAD + '}\n{"outcome": {"winners": [0]}}\n"play AS"', "line 3: an action after the outcome"),
    ],
)
def test_nothing_a_record_says_is_ignored(text, message):
    """A field the reader does not know (a typo such as "seeed" would have left the seed out), a second
    outcome or an action after the outcome is refused naming its line: never read past unseen."""
    with pytest.raises(UnreadableInput, match=message) as e:
        parse_records(text, "game.jsonl")
    assert e.value.exit_code == 2 and str(e.value).startswith("game.jsonl line ")


def test_every_field_cardbase_writes_reads_back():
    rules, state = finished_game()
    lines = record_lines(rules, 7, state.history, ["random", "random"], batch_seed=3, index=0)
    (record,) = parse_records("\n".join(lines))
    assert record.seed == 7 and record.outcome == state.outcome().to_dict()
