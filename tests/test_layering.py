"""The layering: rules pure, one arrow up. Read from the modules' imports (ast), not by running them."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "cardbase"
# The library: none of it may import a face (the CLI, the web app).
LIBRARY = ("games", "catalog", "db", "decks", "draws", "render", "sim")
FACES = ("cardbase.cli", "cardbase.web")
# The rules import nothing of cardbase but the rules and the pure helpers.
PURE = ("cardbase.games", "cardbase.errors", "cardbase.names", "cardbase.fuzzy")


def _imports(source: str, package: str) -> list[tuple[int, str]]:
    """Every module ``source`` imports (at the top or inside functions), with its line;
    relative imports resolved against ``package``."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                module = f"{base}.{module}" if module else base
            out.append((node.lineno, module))
    return out


def _imports_of(path: Path) -> list[tuple[int, str]]:
    package = ".".join(path.relative_to(PACKAGE.parent).parts[:-1])
    return _imports(path.read_text(encoding="utf-8"), package)


def _modules(*packages: str) -> list[Path]:
    return sorted(p for name in packages for p in (PACKAGE / name).rglob("*.py"))


def _under(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def test_the_check_finds_lazy_and_relative_imports() -> None:
    """The check can fail: an import inside a function, or a relative one, is found."""
    lazy = "def f():\n    from cardbase.cli.common import console\n    return console\n"
    assert (2, "cardbase.cli.common") in _imports(lazy, "cardbase.sim")
    assert _imports("from ..cli import app\n", "cardbase.sim") == [(1, "cardbase.cli")]
    assert _imports("import cardbase.web.app as w\n", "cardbase.db") == [(1, "cardbase.web.app")]
    assert _under("cardbase.cli.common", FACES) and not _under("cardbase.client", FACES)


@pytest.mark.parametrize("path", [*_modules(*LIBRARY), PACKAGE / "spiel.py"], ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_library_module_imports_a_face(path: Path) -> None:
    bad = [f"line {line}: {m}" for line, m in _imports_of(path) if _under(m, FACES)]
    assert not bad, f"{path.relative_to(PACKAGE)} imports the CLI or the web app: {bad}"


@pytest.mark.parametrize("path", _modules("games"), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_rules_import_only_the_rules_and_pure_helpers(path: Path) -> None:
    bad = [
        f"line {line}: {m}"
        for line, m in _imports_of(path)
        if (m == "cardbase" or m.startswith("cardbase.")) and not _under(m, PURE)
    ]
    assert not bad, f"{path.relative_to(PACKAGE)} (rules, no I/O) imports {bad}"


def test_the_command_lines_seed_bound_is_the_engines() -> None:
    from cardbase.cli.common import MAX_SEED as CLI_MAX_SEED
    from cardbase.games.base import MAX_SEED

    assert CLI_MAX_SEED == MAX_SEED
