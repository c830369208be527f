"""A game record's header is checked as its actions are: a refusal names the file, the header's line
and the field. Rules the game refuses (``"players": 7``, an option of another game, an unknown one)
were one bare line ("Meio is for 2, 3 or 4 players, not 7") naming neither the file nor the line;
``"agents"`` naming more or fewer agents than the rules' seats was read as if it fit (exit 0)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cardbase.errors import UnreadableInput
from cardbase.sim.records import parse_records, replay
from tests.hostile.conftest import assert_refused, run_cli

HEADER: dict[str, Any] = {
    "record": "cardbase.game",
    "version": 1,
    "game": "meio",
    "rules": {"players": 3},
    "seed": 1,
    "agents": ["random", "random", "random"],
}

BAD: list[tuple[dict[str, Any], tuple[str, ...]]] = [
    ({"rules": {"players": 7}}, ('"rules"', "2, 3 or 4 players")),
    ({"rules": {"players": 3, "bogus": 1}}, ('"rules"', "bogus")),
    ({"rules": {"players": 3, "rounds": 10**6}}, ('"rules"', "rounds")),
    ({"game": "mea"}, ('"rules"', "players")),
    ({"game": "meikyu", "rules": {"players": 9}}, ('"rules"',)),
    ({"agents": ["random", "random"]}, ('"agents"', "2 agents", "3 players")),
    ({"agents": ["random"] * 5}, ('"agents"', "5 agents", "3 players")),
    ({"agents": []}, ('"agents"', "0 agents")),
]


@pytest.mark.parametrize(("change", "fragments"), BAD, ids=[json.dumps(c)[:40] for c, _ in BAD])
def test_a_bad_header_is_refused_naming_file_line_and_field(
    change: dict[str, Any], fragments: tuple[str, ...], tmp_path: Path
) -> None:
    record = tmp_path / "game.jsonl"
    lines = ["", json.dumps({**HEADER, **change})]  # the header on line 2: the line named is its own
    record.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert_refused(run_cli(["replay", str(record)]), 2, f"{record} line 2", *fragments)
    with pytest.raises(UnreadableInput, match="line 2"):
        for game in parse_records(record.read_text(encoding="utf-8"), str(record)):
            replay(game)


@pytest.mark.parametrize("agents", [None, ["random", "heuristic", "search"]])
def test_a_header_that_fits_replays(agents: list[str] | None, tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    record.write_text(json.dumps({**HEADER, "agents": agents}) + "\n", encoding="utf-8")
    result = run_cli(["replay", str(record)])
    assert result.exit_code == 0, result.output
