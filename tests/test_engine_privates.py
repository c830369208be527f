"""Code outside an engine module does not read its private state (issue 29): the engines' ``_``
attributes are theirs to change. Read from the sources (ast), not by running them.

True everywhere since 2026-12-02 (the Méa view, agents and tests moved onto ``MeaState``'s public
reads and set-up methods, Meio's and Meikyu's agents and tests onto theirs). A
private name is one an engine assigns on ``self`` (``self._hand = …``) or defines as a method
(``def _copy``) and no other module of the package does (``spiel.py``'s own ``_held`` is not
Meikyu's)."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GAMES = REPO / "cardbase" / "games"
ENGINE_PARTS = ("engine", "codes", "masks", "actions", "rules", "tables", "notation", "legal", "observation")
"""An engine's modules (each game's engine is split into some of these)."""
ENGINES = tuple(sorted(f for f in GAMES.glob("*/*.py") if f.stem in ENGINE_PARTS))


def _self_privates(tree: ast.AST) -> set[str]:
    """The ``_`` attributes a module assigns on ``self`` and the ``_`` methods its classes define."""
    assigned = {
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.ctx, ast.Store)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
        and node.attr.startswith("_")
        and not node.attr.startswith("__")
    }
    methods = {
        item.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
        for item in node.body
        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
        and item.name.startswith("_")
        and not item.name.startswith("__")
    }
    return assigned | methods


def _sources() -> dict[str, ast.AST]:
    files = sorted([*(REPO / "cardbase").rglob("*.py"), *(REPO / "tests").rglob("*.py")])
    return {str(f.relative_to(REPO)): ast.parse(f.read_text(encoding="utf-8")) for f in files}


def private_reads(sources: dict[str, ast.AST], engines: set[str]) -> Counter[str]:
    """Per module of ``sources`` outside ``engines``: its uses of an engine's private attribute
    on anything but ``self``/``cls``."""
    private = set().union(*(_self_privates(sources[e]) for e in engines))
    private -= set().union(*(_self_privates(tree) for name, tree in sources.items() if name not in engines))
    reads: Counter[str] = Counter()
    for name, tree in sources.items():
        if name in engines:
            continue
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and node.attr in private
                and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
            ):
                reads[name] += 1
    return reads


def test_the_scan_counts_reads_of_an_engines_private_state():
    sources = {
        "engine.py": ast.parse(
            "class S:\n    def __init__(self):\n        self._hand = self._held = 0\n"
            "    def _copy(self):\n        pass\n"
        ),
        "view.py": ast.parse(
            "def f(state):\n    return state._hand, state._hand.bit_count(), state._other, state._copy()\n"
        ),
        "own.py": ast.parse("class H:\n    def __init__(self):\n        self._held = self._hand2 = 1\n"),
        "user.py": ast.parse("def g(h):\n    return h._held\n"),
    }
    # view.py reads _hand twice and calls _copy; _held is also own.py's, so user.py's read is not counted.
    assert private_reads(sources, {"engine.py"}) == Counter({"view.py": 3})


def test_no_code_outside_an_engine_reads_its_private_state():
    reads = private_reads(_sources(), {str(f.relative_to(REPO)) for f in ENGINES})
    assert not reads, (
        f"reads of engine-private attributes (file: count); use the engine's public surface: {dict(reads)}"
    )
