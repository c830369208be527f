"""One line model for every line-based text input (deck and collection lists, a Meio hand, CSV and
TSV catalogs and collections, game records, art credits, the web's needs): a line ends at LF, CRLF
or a lone CR, and nowhere else. The other characters Python's ``str.splitlines`` also breaks at —
VT, FF, FS, GS, RS, NEL (U+0085), LS (U+2028), PS (U+2029) — end no line anywhere: a file holding
one is refused naming the line and the character. Before, a deck file ended a line there while a
CSV kept it inside a row and blamed the row's column count, and a record kept it inside a line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cardbase.errors import UnreadableInput
from cardbase.textfiles import split_lines, stray_break
from tests.hostile.conftest import assert_refused, run_cli

STRAY = {"NEL": "\x85", "LS": "\u2028", "PS": "\u2029", "VT": "\v", "FF": "\f", "RS": "\x1e"}
CODES = {"NEL": "U+0085", "LS": "U+2028", "PS": "U+2029", "VT": "U+000B", "FF": "U+000C", "RS": "U+001E"}
ENDS = ["\n", "\r\n", "\r"]


@pytest.mark.parametrize("end", ENDS, ids=["LF", "CRLF", "CR"])
def test_lines_end_at_lf_crlf_or_cr_and_a_final_end_ends_the_last(end: str) -> None:
    assert split_lines(f"a{end}b{end}") == ["a", "b"]
    assert split_lines(f"a{end}{end}b") == ["a", "", "b"]
    assert split_lines("") == []


@pytest.mark.parametrize("name", list(STRAY))
def test_the_other_breaks_end_no_line_and_are_named(name: str) -> None:
    text = f"one\r\ntwo\rthree{STRAY[name]}four\n"
    assert split_lines(text) == ["one", "two", f"three{STRAY[name]}four"]
    found = stray_break(text)
    assert found is not None
    line, what = found
    assert line == 3
    assert CODES[name] in what
    assert stray_break("a\r\nb\rc\nd\t e") is None


@pytest.mark.parametrize("name", list(STRAY))
@pytest.mark.parametrize("delimiter", [",", "\t"], ids=["csv", "tsv"])
def test_a_catalog_csv_names_the_line_and_the_character(
    name: str, delimiter: str, tmp_path: Path, shared_db: str
) -> None:
    header = delimiter.join(["name", "type", "cost", "attack", "defence"])
    rows = [delimiter.join(["Zed", "monster", "1", "1", "1"]), delimiter.join(["Yan", "monster", "2", "1", "1"])]
    path = tmp_path / ("cards.csv" if delimiter == "," else "cards.tsv")
    path.write_text(f"{header}\n{rows[0]}{STRAY[name]}{rows[1]}\n", encoding="utf-8", newline="")
    fmt = ["--format", "csv"]
    result = run_cli(["catalog", "import", str(path), "--game", "mea", "--dry-run", *fmt], shared_db)
    line = assert_refused(result, 2, "line 2", CODES[name])
    assert "column" not in line and "cells" not in line


@pytest.mark.parametrize("name", ["NEL", "LS", "PS"])
def test_a_quoted_csv_cell_may_not_hold_one_either(name: str, tmp_path: Path, shared_db: str) -> None:
    path = tmp_path / "cards.csv"
    path.write_text(f'name,type,cost,attack,defence,text\nZed,monster,1,1,1,"a{STRAY[name]}b"\n', encoding="utf-8")
    result = run_cli(["catalog", "import", str(path), "--game", "mea", "--dry-run"], shared_db)
    assert_refused(result, 2, "line 2", CODES[name])


@pytest.mark.parametrize("name", ["NEL", "LS", "VT"])
def test_a_collection_csv_and_list_name_the_line_and_the_character(name: str, tmp_path: Path, shared_db: str) -> None:
    sheet = tmp_path / "owned.csv"
    sheet.write_text(f"name,count\nCrumb Goblin,2{STRAY[name]}Crumb Goblin,1\n", encoding="utf-8", newline="")
    run = run_cli(["collection", "import", str(sheet), "--game", "mea", "--dry-run"], shared_db)
    assert_refused(run, 2, "line 2", CODES[name])
    listed = tmp_path / "owned.txt"
    listed.write_text(f"game: mea\r\n2 Crumb Goblin{STRAY[name]}1 Crumb Goblin\r\n", encoding="utf-8", newline="")
    run = run_cli(["collection", "import", str(listed), "--game", "mea", "--dry-run"], shared_db)
    assert run.exit_code in (1, 2), run.stderr
    assert "line 2" in run.stderr and CODES[name] in run.stderr, run.stderr


@pytest.mark.parametrize("name", ["NEL", "LS", "PS", "FF"])
def test_a_deck_file_names_the_line_and_the_character(name: str, tmp_path: Path, shared_db: str) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text(f"game: mea\n1 Crumb Goblin{STRAY[name]}1 Crumb Goblin\n", encoding="utf-8", newline="")
    run = run_cli(["deck", "validate", str(deck)], shared_db)
    assert run.exit_code == 1, run.stderr
    assert "line 2" in run.stdout + run.stderr and CODES[name] in run.stdout + run.stderr, run.stdout + run.stderr


@pytest.mark.parametrize("name", ["NEL", "LS", "FF"])
def test_one_at_the_end_of_a_deck_line_is_refused_too(name: str) -> None:
    """``str.strip`` takes these characters for spaces: a line is checked as read, not as stripped."""
    from cardbase.decks.text import parse_text

    deck = parse_text(f"game: mea\n1 Crumb Goblin{STRAY[name]}\n2 Puddle Knight\n")
    assert [(p.line, CODES[name] in p.message) for p in deck.problems] == [(2, True)]


def test_a_meio_hand_names_the_line_and_the_character(tmp_path: Path) -> None:
    hand = tmp_path / "hand.txt"
    hand.write_text("game: meio\nAH\n2H\u20283H\n", encoding="utf-8")
    run = run_cli(["lab", "split", str(hand), "--players", "3", "--seconds", "1"])
    assert run.exit_code in (1, 2), run.stderr
    assert "line 3" in run.stderr and "U+2028" in run.stderr, run.stderr


@pytest.fixture(scope="module")
def record() -> list[str]:
    from cardbase.sim.records import record_lines
    from tests.golden.walks import rules_of

    return record_lines(rules_of("meio", {"players": 2}), 3, [])


@pytest.mark.parametrize("name", list(STRAY))
def test_a_record_names_the_line_and_the_character(name: str, record: list[str], tmp_path: Path) -> None:
    from cardbase.sim.records import parse_records

    lines = [*record]
    lines[0] = lines[0].replace('"record"', f'"record"{STRAY[name]}', 1) if name in ("VT", "FF", "RS") else lines[0]
    lines[0] = lines[0].replace('"meio"', f'"me{STRAY[name]}io"', 1) if name not in ("VT", "FF", "RS") else lines[0]
    text = "\n".join(["", *lines]) + "\n"
    with pytest.raises(UnreadableInput, match=f"line 2: .*{re.escape(CODES[name])}"):
        parse_records(text, "game.jsonl")
    path = tmp_path / "game.jsonl"
    path.write_text(text, encoding="utf-8", newline="")
    assert_refused(run_cli(["replay", str(path)]), 2, "line 2", CODES[name])


def test_a_record_written_with_these_characters_escapes_them(record: list[str]) -> None:
    """What cardbase writes it reads back: a label holding LS or NEL is written as a JSON escape."""
    from cardbase.sim.records import header, parse_records
    from tests.golden.walks import rules_of

    line = header(rules_of("meio", {"players": 2}), 3, ["a\u2028b", "c\x85d"])
    assert "\u2028" not in line and "\x85" not in line and "\\u2028" in line
    (read,) = parse_records("\n".join([line, *record[1:]]))
    assert json.loads(line)["agents"] == ["a\u2028b", "c\x85d"]
    assert read.agents == ["a\u2028b", "c\x85d"]


def test_art_credits_name_the_line_and_the_character(tmp_path: Path) -> None:
    from cardbase.render.art import art_credit

    (tmp_path / "credits.csv").write_text("file,credit\na.png,Ann\u2028b.png,Bob\n", encoding="utf-8")
    with pytest.raises(UnreadableInput, match=r"line 2: .*U\+2028"):
        art_credit(tmp_path / "a.png")


def test_the_web_needs_name_the_line_and_the_character() -> None:
    import cardbase.web.pages  # noqa: F401  # (the deck pages are imported through it)
    from cardbase.errors import UsageError
    from cardbase.web.pages_decks import parse_needs

    with pytest.raises(UsageError, match=r"line 2: .*U\+2029"):
        parse_needs("1 t:monster\n2 t:spell\u2029cost<=3")


@pytest.mark.parametrize("name", ["NEL", "LS", "PS"])
def test_a_card_value_may_not_hold_one_from_any_source(name: str, tmp_path: Path, shared_db: str) -> None:
    """A JSON or XLSX catalog, or ``catalog add``, has no lines, but what it gives a card is written
    to CSV by ``catalog export``: refused there too (NEL always was, as a control character; LS and PS
    were stored), so every export reads back."""
    cards = tmp_path / "cards.json"
    card = {"name": "Zed", "type": "monster", "cost": 1, "attack": 1, "defence": 1, "text": f"a{STRAY[name]}b"}
    cards.write_text(json.dumps({"cards": [card]}, ensure_ascii=False), encoding="utf-8")
    run = run_cli(["catalog", "import", str(cards), "--game", "mea", "--dry-run"], shared_db)
    assert run.exit_code == 1, run.stderr
    assert "text" in run.stderr and CODES[name] in run.stderr, run.stderr
    added = ["catalog", "add", "--game", "mea", "name=Yan", "type=monster", "cost=1", f"text=a{STRAY[name]}b"]
    run = run_cli(added, shared_db)
    assert run.exit_code in (1, 2) and CODES[name] in run.stderr, run.stderr
