"""Class 1 of issue 24: quadratic work on a long word. Every entry point that reads a word is given
one of 100,000 to 1,000,000 characters and must refuse it (or read it) with one short message.

The tests assert outcomes, not times; each is bounded by ``pytest-timeout``, so a parser or a
regex that went quadratic again fails as a timeout instead of hanging the suite (before the fix,
``mask_secrets`` alone took 52 s on a 100,000-letter word, ``parse_length`` 14 s on 5,000 digits)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from cardbase.errors import QUOTE_LIMIT, mask_secrets, quoted, shown
from cardbase.fuzzy import closest
from cardbase.textfiles import json_depth, load_json
from tests.conftest import REPO
from tests.hostile.conftest import assert_refused, run_cli

pytestmark = pytest.mark.timeout(300)

LONG = 100_000
HUGE = 1_000_000
DECK = str(REPO / "examples" / "decks" / "mea-goblin-rush.txt")

# The masking as it was (a backtracking regex), to check the linear one masks exactly the same.
_OLD_URL = re.compile(r"(?P<head>[A-Za-z][A-Za-z0-9+.-]*://[^:/@\s'\"]*:)[^@\s'\"]+@")
_OLD_PASSWORD = re.compile(r"(?i)(password\s*=\s*)('[^']*'|\S+)")


def _old_mask(text: str) -> str:
    return _OLD_PASSWORD.sub(r"\1***", _OLD_URL.sub(r"\g<head>***@", text))


def test_mask_secrets_masks_what_the_regex_masked() -> None:
    rng = random.Random(24)
    alphabet = "ab1+.-:/@ '\"=\tpasswordPASSWORD"
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(30)))
        if rng.random() < 0.3:
            text = rng.choice(["", "x "]) + "postgresql://u:p@h" + text
        assert mask_secrets(text) == _old_mask(text), text


@pytest.mark.parametrize(
    "text",
    [
        "x" * HUGE,
        "a://" * (HUGE // 4),
        "a://b:" * (HUGE // 6),
        "a://b:" + "c" * HUGE,
        "a://b:x" * (HUGE // 7),
        "password='" * (HUGE // 10),
        ("password" + " " * 50) * (HUGE // 58),
    ],
    ids=lambda t: f"{t[:10]!r}…",
)
def test_mask_secrets_is_linear(text: str) -> None:
    assert len(mask_secrets(text)) <= len(text)
    assert mask_secrets("postgresql://alice:s3cret@db/x " + text).startswith("postgresql://alice:***@db/x ")


# The web's quoted-term finder as it was: re.finditer retried an open quote from each later quote.
_OLD_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")


def test_query_term_finds_what_the_regex_found() -> None:
    from cardbase.web.errors import _quoted_texts

    rng = random.Random(24)
    for _ in range(20_000):
        text = "".join(rng.choice("'\"\\ab") for _ in range(rng.randrange(16)))
        assert list(_quoted_texts(text)) == [m.group(0) for m in _OLD_QUOTED.finditer(text)], text


@pytest.mark.parametrize(
    "text", ["'" + "\\'" * HUGE, '"' + '\\"' * HUGE, "'\"" + "\\'\\\"" * HUGE], ids=["single", "double", "both"]
)
def test_query_term_is_linear(text: str) -> None:
    from cardbase.web.errors import query_term

    assert query_term(text, "x") is None  # quadratic before: 8,000 pairs took 5 s
    assert query_term("no field 'colr' " + text, "colr:red") == "colr"


def test_quoted_cuts_a_long_text_and_says_its_length() -> None:
    assert quoted("short") == "'short'"
    long = quoted("x" * LONG)
    assert long.endswith(f"… ({LONG:,} characters)") and len(long) < QUOTE_LIMIT + 40
    assert quoted(10**5000) == "a whole number of about 5,000 digits"
    assert shown("a/b.txt") == "a/b.txt" and shown("p" * LONG).endswith("characters)")


def test_json_depth_skips_strings_in_one_pass() -> None:
    assert json_depth('[{"a": "[[[", "b": ["\\"]"]}]') == 3
    assert json_depth('"' + '\\"' * HUGE) == 0  # an unterminated string of escapes: quadratic before
    assert json_depth("[" * 100 + '"' + "\\" * HUGE) == 100
    with pytest.raises(Exception, match="nested too deeply"):
        load_json("[" * 65 + '"' + '\\"' * HUGE, "x.json")


def test_closest_gives_no_suggestion_for_a_huge_name() -> None:
    choices = {"crumb goblin": "Crumb Goblin"}
    assert closest("crumb gobln", choices) == ["Crumb Goblin"]
    assert closest("crumb goblin" * (LONG // 12), choices) == []


# (argv, exit code, fragment of the one error line): every CLI entry point that reads a word.
CASES = [
    (
        ["sim", "meio", "--games", "1", "--players", "2", "--agents", f"heuristic:{'x' * LONG}=1,random"],
        2,
        "at most 300",
    ),
    (["sim", "meio", "--games", "1", "--players", "2", "--agents", "x" * HUGE], 2, "characters"),
    (["sim", "meio", "--games", "1", "--rule", "x" * LONG + "=1"], 2, "at most 1,000 characters"),
    (["sim", "meio", "--games", "1", "--rule", "rounds=" + "9" * 5000], 2, "at most 1,000 characters"),
    (["play", "meio", "--vs", "x" * LONG, "--no-record"], 2, "characters"),
    (["cards", "show", "x" * LONG], 1, "unknown card"),
    (["cards", "search", "x" * LONG], 2, "query"),
    (["render", "card", "Crumb Goblin", "--bleed", "1" * LONG + "x"], 2, "bad --bleed"),
    (["render", "card", "Crumb Goblin", "--card-size", "1" * LONG + "x2"], 2, "bad --card-size"),
    (["render", "card", "Crumb Goblin", "--card-size", "1x" + "1" * LONG + "q"], 2, "bad --card-size"),
    (["deck", "validate", DECK, "--format", "x" * LONG], 2, "at most 100 characters"),
    (["deck", "new", "x" * LONG, "--game", "mea"], 2, "1 to 200 characters"),
    (["deck", "show", "x" * LONG], 2, "characters"),
    (["deck", "decode", "x" * LONG], None, ""),
    (["draws", DECK, "--need", "1 " + "x" * LONG], None, ""),
    (["draws", DECK, "--need", "1" + " " * LONG], 2, "a count needs a query"),  # 98 s for 2,000 spaces before
    (["draws", DECK, "--need", "9" * 5000 + " t:monster"], 2, "a count is at most 1,000,000"),
    (["lab", "opening", DECK, "--vs", DECK, "--agents", "heuristic:" + "x" * LONG], 2, "at most 300"),
]


@pytest.mark.parametrize(
    ("argv", "code", "fragment"), CASES, ids=lambda v: quoted(v, 40) if isinstance(v, list) else None
)
def test_a_long_word_on_the_command_line_is_refused_with_one_short_line(
    argv: list[str], code: int | None, fragment: str, hostile_db: str, in_tmp: Path
) -> None:
    takes_db = argv[:2] not in (["sim", "meio"], ["play", "meio"])
    run = run_cli(argv, hostile_db if takes_db else None, input="quit\n")
    line = assert_refused(run, code if code is not None else run.exit_code, fragment)
    assert len(line) < 1_000, line[:300]


def test_a_formats_file_naming_a_long_format_is_refused(hostile_db: str, tmp_path: Path) -> None:
    """Issue 24: a 300 KB formats file naming a long format hung for over 120 s."""
    formats = tmp_path / "long.toml"
    formats.write_text(f'[formats.{"x" * 300_000}]\ngame = "mea"\n', encoding="utf-8")
    run = run_cli(["deck", "validate", DECK, "--formats", str(formats)], hostile_db)
    line = assert_refused(run, 2, "a format name has at most 100 characters, not 300,000")
    assert len(line) < 1_000


def test_a_layout_value_of_a_long_number_is_refused(hostile_db: str, tmp_path: Path) -> None:
    layout = tmp_path / "long.toml"
    plain = (REPO / "examples" / "layouts" / "mea-plain.toml").read_text(encoding="utf-8")
    layout.write_text(plain.replace('size = "11pt"', f'size = "{"1" * LONG}x"', 1), encoding="utf-8")
    run = run_cli(
        ["render", "card", "Crumb Goblin", "--layout", str(layout), "-o", str(tmp_path / "c.png")], hostile_db
    )
    assert len(assert_refused(run, 1, "key 'size'")) < 1_000


def test_a_deck_json_of_escaped_quotes_is_refused(hostile_db: str, tmp_path: Path) -> None:
    deck = tmp_path / "deck.json"
    deck.write_text("[" * 70 + '"' + '\\"' * 400_000, encoding="utf-8")
    assert_refused(run_cli(["deck", "validate", str(deck)], hostile_db), 2, "nested too deeply")


@pytest.mark.parametrize("game", ["meio", "mea", "meikyu"])
def test_a_huge_line_at_the_prompt_is_not_understood(game: str, hostile_db: str, in_tmp: Path) -> None:
    extra = {
        "meio": [],
        "mea": ["--deck", DECK, "--vs-deck", DECK, "--db", hostile_db],
        "meikyu": ["--assume", "default", "--db", hostile_db],
    }[game]
    lines = ["x" * HUGE, "draw " + "9" * 5000, "quest 1 with " + "9" * 5000 + " Bee", "Bee " * 60_000, "quit"]
    run = run_cli(["play", game, "--seed", "1", "--no-record", *extra], input="\n".join(lines) + "\n")
    assert run.exit_code == 0, run.stderr
    assert run.stdout.count("not understood") + run.stdout.count("refused") >= 3
    assert max(map(len, run.stdout.splitlines())) < 5_000
