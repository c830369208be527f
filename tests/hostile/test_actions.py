"""Class 5 (actions): any text typed at a game's prompt or read from a record parses to an action
or raises the game's own ``GameError`` — never another exception — for every state a game passes
through; and a record whose action is such text is refused naming its line."""

from __future__ import annotations

import contextlib
import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardbase.games.base import CHANCE, GameError
from tests.golden.walks import rules_of  # the golden walks' rules: one set per game
from tests.hostile.conftest import assert_refused, escaped, run_cli

WORDS = st.sampled_from(
    [
        *"0123456789²³¹٣०",
        *("draw", "summon", "play", "split", "quest", "attack", "develop", "give", "defend", "pass", "cast"),
        *("flip", "move", "choose", "with", "A", "K", "Q", "J", "10", "7H", "AS", "b2", "a1", "c3", "z9", "P1", "P9"),
        *("Selounticia", "Chemical Vial", "Bee", "Sword", "Amulet", "Den", '"', "'", ",", "/", "-", "x", "×", " "),
        *("99999999999999999999", "-1", "1e400", "NaN", "\x00", "\u202e", "勇者", "é"),
    ]
)
TEXT = st.lists(WORDS, max_size=8).map(" ".join)


def _states(game_id: str, seed: int, steps: int) -> list:
    rules = rules_of(game_id, {})
    state = rules.new_initial_state(seed)
    rng = random.Random(seed)
    seen = [state.clone()]
    for _ in range(steps):
        if state.is_terminal:
            break
        if state.current_player == CHANCE:
            state.apply_unchecked(state.sample_chance())
        else:
            legal = list(state.legal_actions())
            state.apply(legal[rng.randrange(len(legal))])
        seen.append(state.clone())
    return seen


STATES = {g: _states(g, 7, 60) for g in ("meio", "mea", "meikyu")}


@pytest.mark.parametrize("game_id", sorted(STATES))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=TEXT, index=st.integers(min_value=0, max_value=10_000))
def test_any_text_parses_or_is_a_game_error(game_id: str, text: str, index: int) -> None:
    states = STATES[game_id]
    state = states[index % len(states)]
    try:
        action = state.parse_action(text)
    except GameError:
        return
    with contextlib.suppress(GameError):
        state.clone().apply(action)


# Superscripts are digits to str.isdigit() but not to int(); Arabic-Indic ٣ is a decimal digit and reads as 3.
UNICODE_DIGITS = ["draw ²", "draw ³", "draw ¹²", "summon Selounticia ²", "play ²H", "split ² ³", "quest ² with Bee"]


@pytest.mark.parametrize("action", UNICODE_DIGITS)
@pytest.mark.parametrize("game_id", ["meio", "mea"])
def test_record_with_odd_digits_is_refused_naming_the_line(game_id: str, action: str, tmp_path: Path) -> None:
    from cardbase.sim.records import record_lines

    header = record_lines(rules_of(game_id, {}), 1, [], ["a", "b"])[0]
    record = tmp_path / "odd.jsonl"
    record.write_text(header + "\n" + json.dumps({"player": "P1", "action": action}) + "\n", encoding="utf-8")
    run = run_cli(["replay", str(record)])
    assert_refused(run, run.exit_code if run.exit_code in (1, 2) else 1, "line")


@pytest.mark.parametrize(
    "moves", [["draw ²"], ["draw ٣", "quit"], ["summon ²", "quit"], ["\x00", "quit"], ["9" * 5000]]
)
def test_play_prompt_takes_any_line(moves: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    run = run_cli(["play", "meio", "--players", "2", "--seed", "1", "--no-record"], input="\n".join(moves) + "\n")
    assert escaped(run) is None
    assert "Traceback" not in run.stdout + run.stderr
    assert run.exit_code in ((0, 130) if moves[-1] == "quit" else (2,))  # 2: the input ended first
