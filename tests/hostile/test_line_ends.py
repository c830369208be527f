"""Class 4 (text in files): a game record's lines may end in LF, CRLF or a lone CR (an old Mac
editor's), as deck lists and CSV files may; each reads as the same record, its line numbers
counted alike. Before, a CR-only record was refused as "line 1: not JSON: Extra data". (A CR can
be nothing but a line end in JSON Lines: JSON text holds no raw control character.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from cardbase.sim.records import parse_records
from tests.hostile.conftest import assert_refused, run_cli

ENDS = {"LF": "\n", "CRLF": "\r\n", "CR": "\r"}


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A game's record as ``sim --records`` writes it (LF line ends): a header, actions, an outcome."""
    folder = tmp_path_factory.mktemp("records")
    ran = run_cli(["sim", "meio", "--players", "2", "--games", "1", "--records", str(folder)])
    assert ran.exit_code == 0, ran.stderr
    (written,) = folder.glob("*.jsonl")
    text = written.read_text(encoding="utf-8")
    assert text.count("\n") > 20
    return text


@pytest.mark.parametrize("end", list(ENDS), ids=list(ENDS))
def test_a_record_reads_alike_whatever_its_line_ends(end: str, record: str, tmp_path: Path) -> None:
    text = record.replace("\n", ENDS[end])
    assert parse_records(text) == parse_records(record)
    path = tmp_path / "game.jsonl"
    path.write_text(record, encoding="utf-8", newline="\n")
    same = run_cli(["replay", str(path)])
    path.write_bytes(text.encode())
    run = run_cli(["replay", str(path)])
    assert run.exit_code == 0, run.stderr
    assert run.stdout == same.stdout


def test_a_bad_line_is_named_by_its_number_with_cr_line_ends(record: str, tmp_path: Path) -> None:
    lines = record.rstrip("\n").split("\n")
    lines.insert(2, "{not json")
    path = tmp_path / "game.jsonl"
    path.write_bytes("\r".join(lines).encode())
    assert_refused(run_cli(["replay", str(path)]), 2, "line 3")
