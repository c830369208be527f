"""No message says a count as ``1 problem(s)``: every text a player reads (the CLI's, a page's, the
API's) words its plural by the count (``errors.counted``): ``1 problem``, ``2 problems``."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from cardbase.errors import InvalidData

PACKAGE = Path(__file__).resolve().parent.parent / "cardbase"
HEDGED_PLURAL = re.compile(r"[A-Za-z]\((?:s|es)\)")


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of ``tree`` (not text a user reads)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def test_no_string_of_the_package_hedges_a_plural() -> None:
    """The class: every string literal of the package (an f-string's text parts too), docstrings
    aside, and every page template and script."""
    hedged = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _docstrings(tree)
        for node in ast.walk(tree):
            text = node.value if isinstance(node, ast.Constant) and id(node) not in skip else None
            if isinstance(text, str) and HEDGED_PLURAL.search(text):
                hedged.append(f"{path.relative_to(PACKAGE.parent)}:{getattr(node, 'lineno', 0)}: {text!r}")
    for path in sorted([*PACKAGE.rglob("*.html"), *PACKAGE.rglob("*.js")]):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if HEDGED_PLURAL.search(line.replace("(s)=>", "").replace("(s) =>", "")):
                hedged.append(f"{path.relative_to(PACKAGE.parent)}:{number}: {line.strip()}")
    assert not hedged, "\n".join(hedged)


def test_a_list_of_one_problem_says_one_problem() -> None:
    assert str(InvalidData("deck.txt", ["line 2: bad"])).splitlines()[0] == "deck.txt: 1 problem, nothing was written:"
    two = InvalidData("deck.txt", ["line 2: bad", "line 3: bad"], writes=False)
    assert str(two).splitlines()[0] == "deck.txt: 2 problems:"
