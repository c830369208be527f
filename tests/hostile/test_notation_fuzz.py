"""The three action notations fuzzed (issue 24): any text, short or huge, read in any state a game
passes through, is an action or the game's own ``InvalidAction`` — never another exception; and an
action read from any text writes (``str``) a notation that reads back, in that state, as the same
action. Long words, 5,000-digit numbers and texts past ``MAX_NOTATION`` included.

The tests assert outcomes, not times; a parser that went quadratic again would show as a hung run
(``pytest-timeout`` bounds each, see the ``timeout`` marks)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardbase.errors import quoted
from cardbase.games.base import CHANCE, MAX_NOTATION, GameError, InvalidAction, State, whole_number
from tests.golden.walks import rules_of

GAMES = ("meio", "mea", "meikyu")


def _states(game_id: str, seed: int, steps: int) -> list[State]:
    """Every state of one random walk (chance nodes included): the contexts a text is read in."""
    state = rules_of(game_id, {"players": 3} if game_id == "meikyu" else {}).new_initial_state(seed)
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


STATES = {g: _states(g, 11, 80) for g in GAMES}


def _vocabulary(game_id: str) -> list[str]:
    """Words a player of the game types: its verbs and the texts of some legal actions, split."""
    words = {"play", "split", "aside", "deal", "draw", "summon", "move", "attack", "flip", "obliterate"}
    words |= {"choose", "shuffle", "quest", "develop", "give", "defend", "with", "by", "roll", "reveal", "pass"}
    words |= {"none", "as", "character", "mixed", "area", "discard", "land", "keep", "return", "|", "/", "+", ","}
    for state in STATES[game_id][::8]:
        legal = state.legal_actions() if state.current_player >= 0 else ()
        for action in list(legal)[:20]:
            words.update(str(action).split())
    return sorted(words)


_ODD = [
    *("0", "00", "01", "1", "7", "10", "99", "-1", "+1", "1e400", "NaN", "²", "٣", "०", "Ⅻ", "½"),
    *("9" * 20, "9" * 4301, "9" * 5000, "0" * 5000 + "1", "#", "#0", "#" + "9" * 5000, "@", "@@", "a0", "z99"),
    *("P0", "P1", "P99", "P" + "9" * 5000, "-a1", "b-1", "zz999", "b" + "9" * 5000, "x" * 300, '"', "'", "\x00"),
    *("\u202e", "\ud800", "\udcff", "勇者", "é", "\t", "\n", "\u2028", " ", "  "),
]


def _text(game_id: str) -> st.SearchStrategy[str]:
    """Texts a hostile player or record might give: words of the game and odd tokens in any order,
    random characters, and a word repeated up to past ``MAX_NOTATION``."""
    words = st.sampled_from(_vocabulary(game_id)) | st.sampled_from(_ODD)
    phrases = st.lists(words, min_size=1, max_size=10).flatmap(
        lambda ws: st.sampled_from([" ", "  ", ", ", " + ", " | ", " / ", "@"]).map(lambda sep: sep.join(ws))
    )
    huge = st.builds(
        lambda head, word, count: head + word * count,
        st.sampled_from(["", "draw ", "play ", "summon ", "quest ", "attack P2 ", "split ", "deal ", "shuffle "]),
        st.sampled_from(["x", "9", "1 ", "Bee, ", "7H ", "a@b2 + ", "with ", " ", "é", "/"]),
        st.integers(min_value=1_000, max_value=MAX_NOTATION // 2 + 10),
    )
    return phrases | st.text(max_size=60) | huge


def _read(state: State, text: str) -> Any:
    """``state.parse_action(text)``: an action, or ``None`` for the game's own refusal."""
    try:
        return state.parse_action(text)
    except GameError as error:
        assert str(error), "a refusal says why"
        assert len(str(error)) < 2_000, f"the message quotes the whole text: {len(str(error)):,} characters"
        return None


def _check(game_id: str, text: str, index: int) -> None:
    states = STATES[game_id]
    state = states[index % len(states)]
    action = _read(state, text)
    if action is None:
        return
    written = str(action)
    again = _read(state, written)
    assert again == action, (
        f"{quoted(text)} reads as {quoted(action)}, whose notation {quoted(written)} reads as {quoted(again)}"
    )


@pytest.mark.timeout(600)
@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), index=st.integers(min_value=0, max_value=10_000))
def test_any_text_is_an_action_that_reads_back_or_an_invalid_action(game_id: str, data: Any, index: int) -> None:
    _check(game_id, data.draw(_text(game_id)), index)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize(
    "text",
    [
        "x" * 100_000,
        "x" * (MAX_NOTATION + 1),
        "x" * 1_000_000,
        "draw " + "9" * 5000,
        "play " + "9" * 5000 + "H",
        "summon " + "a" * 100_000 + " b2",
        "attack b2 with " + "a@b1 + " * 30_000 + "a@b1",
        "move a@b" + "9" * 5000 + " b2",
        "choose a@b2#" + "9" * 5000,
        "shuffle " + "9" * 5000 + " 1 / 2",
        "quest 1 with " + "9" * 5000 + " Bee",
        "quest " + "9" * 5000 + " with Bee",
        "attack P" + "9" * 5000 + " 1 with Bee by Gotcha!",
        "attack P2 " + "9" * 5000 + " with Bee by Gotcha!",
        "quest Den with " + "Bee, " * 40_000,
        "split " + "7H " * 60_000,
        "deal " + "/" * 100_000,
    ],
    ids=lambda t: f"{t[:12]!r}…{len(t)}",
)
def test_long_and_huge_texts_are_refused_or_read(game_id: str, text: str) -> None:
    for index in range(0, len(STATES[game_id]), 7):
        _check(game_id, text, index)


def test_too_long_a_text_is_refused_naming_the_bound() -> None:
    """The check can fail: past the bound, every game refuses before reading, and says the bound."""
    for game_id in GAMES:
        with pytest.raises(InvalidAction, match=f"at most {MAX_NOTATION:,} characters"):
            STATES[game_id][-1].parse_action("pass" + " " * MAX_NOTATION)


@pytest.mark.parametrize(
    ("text", "most", "number"),
    [("7", 10, 7), ("٣", 10, None), ("0010", 10, 10), ("11", 10, None), ("9" * 5000, 10**9, None), ("0" * 5000, 5, 0)],
)
def test_whole_number_reads_decimal_digits_within_the_bound(text: str, most: int, number: int | None) -> None:
    assert whole_number(text, most) == number
    assert whole_number("1e3", 10**6) is None and whole_number("-1", 10) is None and whole_number("²", 10) is None
