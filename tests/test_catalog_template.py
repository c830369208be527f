"""The catalog keeps its word (issue 13): aliases on import as search matches them, every bad row
reported with a did-you-mean, and ``catalog template`` round-trips with no change and no error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.hostile.conftest import assert_refused, db_dump, run_cli


@pytest.mark.parametrize("fmt", ["xlsx", "csv"])
@pytest.mark.parametrize("game", ["mea", "meikyu", "meio"])
def test_template_round_trips_with_no_change(db_url: str, tmp_path: Path, game: str, fmt: str) -> None:
    out = tmp_path / f"exports/{game}-template.{fmt}"
    made = run_cli(["catalog", "template", "--game", game, "--format", fmt, "-o", out], db_url)
    assert made.exit_code == 0, made.output
    before = db_dump(db_url)
    result = run_cli(["catalog", "import", out, "--game", game], db_url)
    assert result.exit_code == 0, result.output
    assert "inserted 0, updated 0" in result.stdout, result.stdout
    assert db_dump(db_url) == before


def test_template_leaves_unknown_cells_empty_and_explains_columns(db_url: str, tmp_path: Path) -> None:
    import csv

    out = tmp_path / "t.csv"
    assert run_cli(["catalog", "template", "--game", "meikyu", "--format", "csv", "-o", out], db_url).exit_code == 0
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    note, cards = rows[0], {r["name"]: r for r in rows[1:]}
    assert note["name"].startswith("#") and "character" in note["type"] and "unknown" in note["bravery"]
    assert cards["Cook"]["type"] == "character" and cards["Cook"]["bravery"] == ""  # unknown: empty, not 0
    levels = [r["level"] for r in rows[1:] if r["type"] == "land"]
    assert levels and all(v.isdigit() for v in levels)


def test_filled_template_imports_the_values(db_url: str, tmp_path: Path) -> None:
    import csv

    out = tmp_path / "t.csv"
    run_cli(["catalog", "template", "--game", "meikyu", "--format", "csv", "-o", out], db_url)
    rows = list(csv.reader(out.open(encoding="utf-8")))
    header = rows[0]
    for row in rows[2:]:
        if row[0] == "Cook":
            row[header.index("bravery")] = "2"
    with out.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows(rows)
    result = run_cli(["catalog", "import", out, "--game", "meikyu"], db_url)
    assert result.exit_code == 0, result.output
    shown = run_cli(["cards", "search", "Cook", "--game", "meikyu", "--json"], db_url).stdout
    assert '"bravery": 2' in shown


def test_template_format_is_checked(db_url: str, tmp_path: Path) -> None:
    result = run_cli(["catalog", "template", "--game", "mea", "--format", "json", "-o", tmp_path / "x"], db_url)
    assert_refused(result, 2, "--format")


def test_import_matches_aliases_as_search_does(db_url: str, tmp_path: Path) -> None:
    f = tmp_path / "a.csv"
    f.write_text("name,bravery,wits\nCock,2,1\nGrimor,,\n", encoding="utf-8")
    result = run_cli(["catalog", "import", f, "--game", "meikyu"], db_url)
    assert result.exit_code == 0, result.output
    cook = run_cli(["cards", "search", "Cook", "--game", "meikyu", "--json"], db_url).stdout
    assert '"bravery": 2' in cook


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_a_card_named_by_its_alias_and_its_name_is_a_bad_row_naming_both(db_url: str, tmp_path: Path, fmt: str) -> None:
    f = tmp_path / f"twice.{fmt}"
    if fmt == "csv":
        f.write_text("name,bravery,wits\nCock,2,1\nGrimoire,,\nCook,3,1\n", encoding="utf-8")
        where = ("row 2", "row 4")
    else:
        rows = [{"name": "Cock", "bravery": 2}, {"name": "Grimoire"}, {"name": "Cook", "bravery": 3}]
        f.write_text(json.dumps({"game": "meikyu", "cards": rows}), encoding="utf-8")
        where = ("cards[0]", "cards[2]")
    assert run_cli(["catalog", "status", "--game", "meikyu"], db_url).exit_code == 0
    before = db_dump(db_url)
    result = run_cli(["catalog", "import", f, "--game", "meikyu"], db_url)
    line = f"{where[1]}, column 'name': 'Cook' and 'Cock' on {where[0]} are both the card 'Cook'"
    assert_refused(result, 1, line, "keep one of the two rows")
    assert db_dump(db_url) == before  # nothing written: not Cook twice
    one = tmp_path / f"once.{fmt}"
    one.write_text(f.read_text(encoding="utf-8").replace("Cock", "Bee"), encoding="utf-8")
    assert run_cli(["catalog", "import", one, "--game", "meikyu", "--dry-run"], db_url).exit_code == 0


def test_import_reports_every_bad_row_with_did_you_mean(db_url: str, tmp_path: Path) -> None:
    f = tmp_path / "b.csv"
    f.write_text("name,bravery,wits\nCoook,2,1\nCook,x,1\nGrimoir,,\nCook,1,1\n", encoding="utf-8")
    assert run_cli(["catalog", "status", "--game", "meikyu"], db_url).exit_code == 0  # loads the catalog
    before = db_dump(db_url)
    result = run_cli(["catalog", "import", f, "--game", "meikyu"], db_url)
    assert_refused(result, 1, "4 problems")
    lines = [line.strip() for line in result.stderr.splitlines()[1:]]
    assert lines[0].startswith("row 2, column 'type'") and "did you mean 'Cook'" in lines[0]
    assert lines[1].startswith("row 3, column 'bravery'")
    assert lines[2].startswith("row 4, column 'type'") and "Grimoire" in lines[2]
    assert lines[3].startswith("row 5, column 'name'") and "already on row 3" in lines[3]
    assert db_dump(db_url) == before


def test_only_the_row_under_the_header_may_be_a_note(db_url: str, tmp_path: Path) -> None:
    f = tmp_path / "n.csv"
    f.write_text("name,type,cost\n# a note,,\nA Real Card,monster,2\n#2 Goblin,monster,1\n", encoding="utf-8")
    result = run_cli(["catalog", "import", f, "--game", "mea", "--dry-run"], db_url)
    assert_refused(result, 1, "1 problem", "row 4, column 'name'")
