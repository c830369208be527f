"""Class 8 (a JSON number too long to read): every JSON input (a deck file, a game record, a catalog
or collection file, an assumption profile) with a whole number of over 4,300 digits — past what
Python converts — is refused naming the file, the line and the column and saying the bound, exit 2.
It was refused with Python's own words ("use sys.set_int_max_str_digits() to increase the limit"),
which name no place in the file and tell the user to change the interpreter."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hostile.conftest import assert_refused, run_cli

DIGITS = [4_301, 5_000, 100_000]


def _long(n: int, negative: bool) -> str:
    return ("-" if negative else "") + "9" * n


INPUTS = {
    "deck": (
        "deck.json",
        '{{"game": "mea",\n "cards": [{{"name": "Crumb Goblin", "count": {n}}}]}}',
        ["deck", "validate"],
    ),
    "record": (
        "game.jsonl",
        '{{"record": "cardbase.game", "version": 1, "game": "meio", "rules": {{}}, "seed": 1}}\n'
        '{{"player": "chance", "action": "deal", "n": {n}}}',
        ["replay"],
    ),
    "catalog": (
        "cards.json",
        '[{{"name": "Zed", "type": "monster",\n "cost": {n}}}]',
        ["catalog", "import", "--game", "mea"],
    ),
    "collection": (
        "owned.json",
        '[{{"name": "Crumb Goblin",\n "count": {n}}}]',
        ["collection", "import", "--game", "mea"],
    ),
    "profile": ("profile.json", '{{"default_points":\n {n}}}', ["sim", "meikyu", "--games", "1", "--assume"]),
}
LINE = {"deck": 2, "record": 2, "catalog": 2, "collection": 2, "profile": 2}


@pytest.mark.parametrize("negative", [False, True], ids=["positive", "negative"])
@pytest.mark.parametrize("digits", DIGITS)
@pytest.mark.parametrize("kind", list(INPUTS))
def test_a_json_number_too_long_to_read_is_refused_naming_its_place(
    kind: str, digits: int, negative: bool, shared_db: str, tmp_path: Path
) -> None:
    name, template, argv = INPUTS[kind]
    path = tmp_path / name
    path.write_text(template.format(n=_long(digits, negative)), encoding="utf-8")
    run = run_cli([*argv, str(path)], None if kind == "record" else shared_db)  # (replay reads no database)
    line = assert_refused(run, 2, f"{digits:,} digits", "4,300")
    assert "sys.set_int_max_str_digits" not in run.stderr
    assert name in line and f"line {LINE[kind]}" in line, line
    assert len(line) < 400, line
