"""docs/rules/<game>.md traces each rule sentence to the code and the test: every name it gives in
those columns must exist, so that a renamed test or function cannot leave the trace pointing at
nothing. (A name ending in ``_`` stands for the tests that start with it.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
GAMES = ("mea", "meio", "meikyu")


def _source(folder: str) -> str:
    return "\n".join(path.read_text(encoding="utf-8") for path in sorted((REPO / folder).rglob("*.py")))


def _test_names() -> set[str]:
    return set(re.findall(r"^\s*(?:async )?def (test_\w+)", _source("tests"), re.M))


def _table_cells(game: str, column: str) -> list[tuple[int, str]]:
    """The cells of ``column`` in every table of the game's document that has it, with their line."""
    cells: list[tuple[int, str]] = []
    index: int | None = None
    lines = (REPO / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, 1):
        if not line.startswith("|"):
            index = None
            continue
        row = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if index is None:
            index = row.index(column) if column in row else -1
        elif index >= 0 and len(row) > index and not set(row[index]) <= set("-: "):
            cells.append((number, row[index]))
    return cells


@pytest.mark.parametrize("game", GAMES)
def test_every_test_the_rules_document_names_exists(game: str) -> None:
    names = _test_names()
    files = {path.stem for path in (REPO / "tests").rglob("test_*.py")}
    cited = 0
    missing: list[str] = []
    text = (REPO / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")
    for name in re.findall(r"\b(test_\w+)", text):
        cited += 1
        if name in names or name in files:
            continue
        if name.endswith("_") and any(known.startswith(name) for known in names):
            continue
        missing.append(name)
    assert cited > 50, f"docs/rules/{game}.md names only {cited} tests: is the pattern still right?"
    assert not missing, f"docs/rules/{game}.md names tests that do not exist: {sorted(set(missing))}"


@pytest.mark.parametrize("game", GAMES)
def test_every_name_in_the_rules_documents_code_column_exists(game: str) -> None:
    known = set(re.findall(r"\w+", _source("cardbase") + _source("tests")))
    cells = _table_cells(game, "code")
    assert len(cells) > 20, f"docs/rules/{game}.md: its 'code' column was not found"
    missing: list[str] = []
    for line, cell in cells:
        for quoted in re.findall(r"`([^`]+)`", cell):
            for word in re.findall(r"[A-Za-z_][A-Za-z_0-9]*", quoted.split("::")[-1]):
                if word in known or word in {"py", "md"}:
                    continue
                missing.append(f"line {line}: {word}")
    assert not missing, f"docs/rules/{game}.md's code column names what the code does not hold: {missing}"
