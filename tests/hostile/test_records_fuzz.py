"""The record reader fuzzed (issue 24): valid records of the three games, mutated — a field dropped,
a value of another type, an action replaced by junk or by a huge text, lines added, swapped or
replaced by random bytes — are read and replayed to a result or to the project's own error
(``UnreadableInput``, ``InvalidRecord``, ``UsageError``: each a ``CardbaseError``), never another
exception; and each refusal is one short message, however long the text it is about."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardbase.errors import CardbaseError, UnreadableInput, quoted
from cardbase.games.base import CHANCE
from cardbase.sim.records import parse_records, read_records, record_lines, replay
from tests.golden.walks import rules_of
from tests.hostile.conftest import assert_refused, run_cli

GAMES = ("meio", "mea", "meikyu")


def _lines(game_id: str, seed: int, steps: int) -> list[str]:
    """A record of a random game (cut after ``steps`` decisions), as its JSON lines."""
    rules = rules_of(game_id, {"players": 2} if game_id != "mea" else {})
    state = rules.new_initial_state(seed)
    rng = random.Random(seed)
    decisions = 0
    while not state.is_terminal and decisions < steps:
        if state.current_player == CHANCE:
            state.apply(state.sample_chance())
        else:
            legal = list(state.legal_actions())
            state.apply(legal[rng.randrange(len(legal))])
            decisions += 1
    return record_lines(rules, seed, state.history, ["random", "random"])


RECORDS = {g: _lines(g, 5, 25) for g in GAMES}
FINISHED = {"meio": _lines("meio", 6, 10_000)}  # a whole game: its last line is the outcome

_JUNK_TEXT = st.sampled_from(
    [
        *("", " ", "x", "draw " + "9" * 5000, "x" * 100_000, "play " + "7H " * 40_000, "P0", "P" + "9" * 5000),
        *("chance", "\x00", "\udcff", "勇者", "draw ²", "deal / / /", "quest 1 with " + "9" * 5000 + " Bee"),
    ]
)
_SCALAR = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | _JUNK_TEXT
    | st.text(max_size=20)
)
_JSON = st.recursive(
    _SCALAR,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=6,
)


def _paths(value: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place inside a JSON value: keys of objects and indexes of lists, depth first."""
    out = [at]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:6]):
            out += _paths(item, (*at, index))
    return out


def _mutated(data: Any, lines: list[str]) -> str:
    """``lines`` with one to three mutations drawn by hypothesis, joined as a record's text."""
    lines = list(lines)
    for _ in range(data.draw(st.integers(min_value=1, max_value=3))):
        i = data.draw(st.integers(min_value=0, max_value=len(lines) - 1))
        kind = data.draw(st.sampled_from(["drop", "retype", "action", "line", "insert", "swap", "bytes"]))
        if kind in ("drop", "retype", "action"):
            try:
                value = json.loads(lines[i])
            except ValueError:
                continue
            places = [p for p in _paths(value) if p]
            if not places:
                continue
            place = places[data.draw(st.integers(min_value=0, max_value=len(places) - 1))]
            parent = value
            for step in place[:-1]:
                parent = parent[step]
            if kind == "drop" and isinstance(parent, dict):
                del parent[place[-1]]
            elif kind == "action" and isinstance(value, dict) and "action" in value:
                value["action"] = data.draw(_JUNK_TEXT)
            else:
                parent[place[-1]] = data.draw(_JSON)
            lines[i] = json.dumps(value)
        elif kind == "line":
            lines[i] = json.dumps(data.draw(_JSON))
        elif kind == "insert":
            lines.insert(i, data.draw(st.sampled_from(["", "{", "[]", '"pass"', "null", '{"outcome": 0}', "x" * 1000])))
        elif kind == "swap":
            j = data.draw(st.integers(min_value=0, max_value=len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        else:
            lines[i] = data.draw(st.binary(max_size=40)).decode("utf-8", "replace")
    return "\n".join(lines) + "\n"


def _read_and_replay(text: str) -> None:
    """Read and replay every game of ``text``: each is a result or the project's own error."""
    try:
        for record in parse_records(text, "fuzz.jsonl"):
            replay(record, keep_moves=True)
    except CardbaseError as error:
        message = str(error)
        assert message and len(message) < 3_000, f"a refusal of {len(message):,} characters: {quoted(message)}"


@pytest.mark.timeout(900)
@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_a_mutated_record_replays_or_is_refused_with_one_short_message(game_id: str, data: Any) -> None:
    _read_and_replay(_mutated(data, RECORDS[game_id]))


@pytest.mark.timeout(300)
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_mutated_outcome_is_checked_or_refused(data: Any) -> None:
    lines = FINISHED["meio"]
    outcome = json.loads(lines[-1])
    key = data.draw(st.sampled_from(sorted(outcome["outcome"])))
    outcome["outcome"][key] = data.draw(_JSON)
    _read_and_replay("\n".join([*lines[:-1], json.dumps(outcome)]))


@pytest.mark.timeout(300)
@settings(max_examples=100, deadline=None)
@given(raw=st.binary(max_size=400))
def test_any_bytes_are_a_record_or_unreadable(raw: bytes, tmp_path_factory: pytest.TempPathFactory) -> None:
    path = tmp_path_factory.mktemp("bytes") / "r.jsonl"
    path.write_bytes(raw)
    try:
        for record in read_records(path):
            replay(record)
    except CardbaseError as error:
        assert str(error)


def test_the_mutation_can_break_a_record() -> None:
    """The check can fail: an unmutated record replays; a dropped "game" is refused naming the line."""
    for game_id in GAMES:
        _read_and_replay("\n".join(RECORDS[game_id]))
        [record] = parse_records("\n".join(RECORDS[game_id]))
        assert replay(record).actions > 0
    header = json.loads(RECORDS["meio"][0])
    del header["game"]
    with pytest.raises(UnreadableInput, match='line 1: "game" must name the game'):
        parse_records(json.dumps(header))


BAD_FIELDS = [
    ('{"outcome": {"winners": 0}}', 'the outcome\'s "winners" must be a list of seats'),
    ('{"outcome": {"winners": [true]}}', 'the outcome\'s "winners"'),
    ('{"outcome": {"scores": "1 2"}}', 'the outcome\'s "scores" must be a list of numbers'),
    ('{"outcome": {"reason": 5}}', 'the outcome\'s "reason" must be text'),
    ('{"outcome": {"lower_is_better": "no"}}', '"lower_is_better" must be true or false'),
    ('{"outcome": {"round_scores": [1]}}', '"round_scores" must be a list of lists'),
    ('{"outcome": []}', '"outcome" must be an object, not a list'),
    ('{"player": 1, "action": "play 7H"}', '"player" must be "P1", "P2", … or "chance", not 1'),
    ('{"player": "' + "P" * 100_000 + '", "action": "play 7H"}', "(100,000 characters)"),
    ('{"action": ["play 7H"]}', '"action" must be text'),
]


@pytest.mark.timeout(120)
@pytest.mark.parametrize(("line", "fragment"), BAD_FIELDS, ids=lambda v: quoted(v, 30))
def test_a_field_of_the_wrong_type_is_refused_naming_line_and_field(line: str, fragment: str, tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(RECORDS["meio"][0] + "\n" + line + "\n", encoding="utf-8")
    assert_refused(run_cli(["replay", str(path)]), 2, "bad.jsonl line 2", fragment)


HEADER_FIELDS = [
    ("version", True, "record version"),
    ("version", "1", "record version"),
    ("game", 5, '"game" must name the game'),
    ("game", "chess", '"game" must name the game'),
    ("game", "x" * 100_000, "(100,000 characters)"),
    ("rules", [], '"rules" must be an object'),
    ("seed", -1, '"seed" must be a whole number'),
    ("seed", 2**64, '"seed" must be a whole number'),
    ("seed", 1.5, '"seed" must be a whole number'),
    ("agents", "random", '"agents" must be a list'),
]


@pytest.mark.timeout(120)
@pytest.mark.parametrize(("key", "value", "fragment"), HEADER_FIELDS, ids=lambda v: quoted(v, 30))
def test_a_header_field_of_the_wrong_type_is_refused(key: str, value: Any, fragment: str, tmp_path: Path) -> None:
    header = json.loads(RECORDS["meio"][0])
    header[key] = value
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(header) + "\n", encoding="utf-8")
    assert_refused(run_cli(["replay", str(path)]), 2, "bad.jsonl line 1", fragment)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize(
    "action",
    ["x" * 100_000, "x" * 1_000_000, "draw " + "9" * 5000, "play " + "9" * 5000 + "H", "summon " + "a" * 300_000],
    ids=lambda a: f"{a[:8]!r}…{len(a)}",
)
def test_a_long_or_huge_action_is_refused_naming_its_line(game_id: str, action: str, tmp_path: Path) -> None:
    """Issue 24: replaying a record whose action is 100,000 ``x`` hung in all three games."""
    lines = RECORDS[game_id]
    player = next(json.loads(line)["player"] for line in lines[1:] if json.loads(line).get("player") != "chance")
    path = tmp_path / "long.jsonl"
    path.write_text(lines[0] + "\n" + json.dumps({"player": player, "action": action}) + "\n", encoding="utf-8")
    run = run_cli(["replay", str(path)])
    line = assert_refused(run, 1, "long.jsonl line 2")
    assert len(line) < 1_000
