"""A parse accounts for every line: an open quote, a short or long row, text after a quote are errors.

Before issue 12 a CSV with an unclosed quote swallowed every later row and exited 0.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cardbase.db.io import read_catalog_file
from tests.hostile.conftest import assert_refused_unchanged, run_cli

H = "name,type,cost\n"

# (file text, exit code, text the message must hold: the row and what is wrong)
MALFORMED: dict[str, tuple[str, int, str]] = {
    "open quote in the first row": (H + '"Open Goblin,monster,1\nB,monster,2\nC,monster,3\n', 2, "row 2 (line 2)"),
    "open quote in a later row": (H + 'A,monster,1\nB,"monster,2\nC,monster,3\n', 2, "row 3 (line 3)"),
    "open quote in the last row": (H + 'A,monster,1\nB,monster,"2\n', 2, "never closed"),
    "open quote after a multi-line cell": (H + '"A\nB",monster,1\n"C,monster,2\n', 2, "row 3 (line 4)"),
    "open quote in the header": ('name,"type,cost\nA,monster,1\n', 2, "row 1"),
    "lone quote": (H + '"\n', 2, "never closed"),
    "text after a closing quote": (H + '"A"x,monster,1\n', 2, "text after a closing quote"),
    "quote then space then text": (H + '"A" B,monster,1\n', 2, "row 2"),
    "fewer cells": (H + "A,monster\n", 1, "row 2: fewer cells"),
    "one cell": (H + "A\n", 1, "row 2: fewer cells"),
    "more cells": (H + "A,monster,1,extra\n", 1, "row 2: more cells"),
    "more empty cells": (H + "A,monster,1,,\n", 1, "more cells"),
    "fewer cells in the third row": (H + "A,monster,1\nB,monster,2\nC,monster\n", 1, "row 4: fewer cells"),
    "more cells after a multi-line cell": (H + '"A\nstill A",monster,1\nB,monster,2,3\n', 1, "row 3: more cells"),
    "semicolon file with a short row": ("name;type;cost\nA;monster;1\nB;monster\n", 1, "row 3"),
    "tab file with a long row": ("name\ttype\tcost\nA\tmonster\t1\t9\n", 1, "row 2"),
    "tab file with an open quote": ('name\ttype\tcost\n"A\tmonster\t1\n', 2, "never closed"),
    "CRLF with an open quote": (H.replace("\n", "\r\n") + 'A,monster,1\r\n"B,monster,2\r\n', 2, "row 3"),
    "CR only with a short row": ("name,type,cost\rA,monster\r", 1, "row 2"),
    "every row short": (H + "A,monster\nB,monster\n", 1, "row 3: fewer cells"),
    "a quoted delimiter miscounted": (H + 'A,"monster,1"\n', 1, "row 2: fewer cells"),
    "a spaces-only line among rows": (H + "A,monster,1\n   ,\nB,monster,2\n", 1, "row 3: fewer cells"),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_a_malformed_csv_is_refused_with_its_row(loaded_db: str, tmp_path: Path, case: str) -> None:
    content, code, message = MALFORMED[case]
    path = tmp_path / "cards.csv"
    path.write_bytes(content.encode())
    assert_refused_unchanged(["catalog", "import", path, "--game", "mea"], loaded_db, code, contains=message)


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_a_dry_run_refuses_it_the_same_way(loaded_db: str, tmp_path: Path, case: str) -> None:
    content, code, message = MALFORMED[case]
    path = tmp_path / "cards.csv"
    path.write_bytes(content.encode())
    assert_refused_unchanged(
        ["catalog", "import", path, "--game", "mea", "--dry-run"], loaded_db, code, contains=message
    )


# Files that are strict but fine: every line is accounted for.
GOOD: dict[str, tuple[str, list[str]]] = {
    "quoted delimiter": (H + '"A, the first",monster,1\n', ["A, the first"]),
    "quoted newline": (H + '"A\nB",monster,1\nC,monster,2\n', ["A\nB", "C"]),
    "doubled quote": (H + '"A ""B""",monster,1\n', ['A "B"']),
    "empty lines between rows": (H + "A,monster,1\n\n\nB,monster,2\n", ["A", "B"]),
    "no final newline": (H + "A,monster,1", ["A"]),
    "empty cells": (H + "A,monster,\n", ["A"]),
    "row of empty cells": (H + "A,monster,1\n,,\nB,monster,2\n", ["A", "B"]),
    "BOM and CRLF": ("\ufeff" + H.replace("\n", "\r\n") + "A,monster,1\r\n", ["A"]),
}


@pytest.mark.parametrize("case", sorted(GOOD))
def test_strict_files_that_are_fine_still_read_every_row(tmp_path: Path, case: str) -> None:
    content, names = GOOD[case]
    path = tmp_path / "cards.csv"
    path.write_bytes(content.encode())
    parsed = read_catalog_file(path, "mea")
    # a name with a line break is refused as a name (a control character), but its row is read
    assert sorted(r["name"] for rs in parsed.records.values() for r in rs) == sorted(n for n in names if "\n" not in n)
    assert parsed.rows == len(names)


def test_a_good_file_after_a_bad_one_imports(loaded_db: str, tmp_path: Path) -> None:
    path = tmp_path / "cards.csv"
    path.write_text(H + "Strict Goblin,monster,1\n", encoding="utf-8")
    result = run_cli(["catalog", "import", path, "--game", "mea"], loaded_db)
    assert result.exit_code == 0 and "inserted 1" in result.stdout
