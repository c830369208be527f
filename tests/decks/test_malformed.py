"""A corpus of malformed deck files: each gives a clear message and the right exit code, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardbase.cli.app import app

CORPUS = Path(__file__).parent / "malformed"
runner = CliRunner()

# file → (exit code, what the output must say)
EXPECTED: dict[str, tuple[int, str]] = {
    "empty.txt": (1, "[no-game]"),
    "only-comments.txt": (1, "[no-game]"),
    "binary.txt": (2, "a binary file"),
    "latin1.txt": (2, "line 2: not UTF-8"),
    "count-zero.txt": (1, "[bad-count] line 2: count must be at least 1"),
    "count-negative.txt": (1, "[bad-count] line 2: count '-2' is below zero"),
    "count-exponent.txt": (1, "[bad-count] line 2: count '1e3' is not a whole number"),
    "count-huge.txt": (1, "[bad-count] line 2: count 99999999999 is more than 999"),
    "count-fraction.txt": (1, "[bad-count] line 2: count '2.5' is not a whole number"),
    "count-no-name.txt": (1, "[bad-line] line 2: '3' gives a count but no card name"),
    "count-x-no-name.txt": (1, "[bad-line] line 2: '3x' gives a count but no card name"),
    "unknown-game.txt": (1, "[unknown-game] line 1: game 'chess' is not one of mea, meio, meikyu"),
    "duplicate-game-header.txt": (1, "[duplicate-header] line 2: 'game' is given again (first on line 1)"),
    "duplicate-name-header.txt": (1, "[duplicate-header] line 3: 'name' is given again"),
    "section-wrong-game.txt": (
        1,
        "[section] line 3: unknown section [first half]; mea sections are [main], [sideboard], [maybe]",
    ),
    "section-unknown.txt": (1, "[section] line 4: unknown section [third half]"),
    "unknown-card.txt": (1, "[unknown-card] line 2: no mea card named 'Crumb Gobbo' — did you mean 'Crumb Goblin'?"),
    "wrong-game-card.txt": (1, "[wrong-game] line 3: 'Gotcha!' is a meikyu card, not mea"),
    "no-game.txt": (1, "[no-game] cannot tell which game this deck is for"),
    "very-long-line.txt": (1, "[bad-line] line 2: line is 5002 characters long"),
    "too-small.txt": (1, "[deck-size] the deck has 5 cards; mea standard needs 18–40 — add 13 cards"),
    "too-large.txt": (1, "[deck-size] the deck has 41 cards; mea standard needs 18–40 — remove 1 card"),
    "tile-in-deck.txt": (1, "[card-type] line 3: Yellow Tile is a tile"),
    "meio-rank-not-in-deck.txt": (1, "[not-allowed] line 3: Eight of Hearts is not in the 2-players card pool"),
    "meio-bad-players.txt": (1, "[bad-header] line 2: players must be 2, 3 or 4, not '5'"),
    "meio-split-duplicate.txt": (1, "[copy-limit] line 4: 2 Ace of Hearts"),
    "meio-split-6-7.txt": (1, "[split] [first half] has 6 cards; it needs 7"),
    "meikyu-copy-limit.txt": (1, "[copy-limit] line 2: 5 Gotcha!: the set has 4 Gotcha!"),
    "unknown-format.txt": (1, "[unknown-format] mea has no format 'vintage'"),
    "json-truncated.json": (2, "line 1, column 27: invalid JSON"),
    "json-count-zero.json": (2, "cards[1].count: should be at least 1, not 0"),
    "json-wrong-shape.json": (2, "cards: missing: add it"),
    "players-outside-meio.txt": (1, "[bad-header] line 2: 'players' is for Meio decks, not mea"),
    "empty-header.txt": (1, "[bad-header] line 1: 'game' has no value"),
    "unknown-set.txt": (1, "[unknown-card] line 2: no mea card named 'Crumb Goblin' in set 'nosuchset'"),
}


def test_the_corpus_is_complete() -> None:
    files = sorted(p.name for p in CORPUS.iterdir())
    assert files == sorted(EXPECTED)
    assert len(files) >= 30


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_malformed_deck(name: str, db_url: str) -> None:
    code, message = EXPECTED[name]
    result = runner.invoke(app, ["deck", "validate", str(CORPUS / name), "--db", db_url], catch_exceptions=False)
    assert result.exit_code == code, result.output
    assert message in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("name", sorted(n for n, (code, _) in EXPECTED.items() if code == 1))
def test_malformed_deck_json_report(name: str, db_url: str) -> None:
    result = runner.invoke(app, ["deck", "validate", str(CORPUS / name), "--json", "--db", db_url])
    report = json.loads(result.stdout)
    assert report["valid"] is False and report["problems"]
    assert {"code", "message", "line"} <= report["problems"][0].keys()


def test_a_10_mb_file_is_refused(tmp_path: Path, db_url: str) -> None:
    big = tmp_path / "big.txt"
    big.write_bytes(b"game: mea\n" + b"1 Crumb Goblin\n" * 700_000)
    result = runner.invoke(app, ["deck", "validate", str(big), "--db", db_url])
    assert result.exit_code == 2 and "too large for a deck file" in result.output


def test_missing_file_and_folder(tmp_path: Path, db_url: str) -> None:
    assert runner.invoke(app, ["deck", "validate", str(tmp_path / "nope.txt"), "--db", db_url]).exit_code == 2
    result = runner.invoke(app, ["deck", "validate", str(tmp_path), "--db", db_url])
    assert result.exit_code == 2 and "is a folder" in result.output
