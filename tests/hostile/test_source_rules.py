"""Rules the source keeps so that whole classes of hostile input stay handled."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.conftest import REPO

# Options whose range is checked in code, with a message that names the rule: the game's player
# counts and seats, and the sheet options of render.options.SheetOptions (one model for print,
# render and export; tests/hostile/test_options.py refuses their out-of-range values).
CHECKED_IN_CODE = {"--players", "--seat", "--dpi", "--copies"}


def _int_options() -> list[tuple[str, Any]]:
    import typer.main

    from cardbase.cli.app import app

    found: list[tuple[str, Any]] = []

    def walk(command: Any, path: tuple[str, ...]) -> None:
        for name, sub in (getattr(command, "commands", None) or {}).items():
            walk(sub, (*path, name))
        for param in getattr(command, "params", []):
            descriptor = getattr(param, "type_descriptor", None)
            annotation = getattr(descriptor, "annotation", None)
            if param.param_type_name == "option" and annotation in (int, int | None):
                found.append((f"{' '.join(path)} {param.opts[0]}", param))

    walk(typer.main.get_command(app), ())
    return found


def test_no_isdigit_in_the_package() -> None:
    # str.isdigit() accepts '²', which int() refuses: use isdecimal().
    offenders = [
        f"{path.relative_to(REPO)}:{n}"
        for path in sorted((REPO / "cardbase").rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if re.search(r"\.isdigit\(\)", line)
    ]
    assert offenders == []


def test_a_decimal_text_is_bounded_before_int() -> None:
    # isdecimal() passes 5,000 digits, which int() refuses (over 4,300) with a ValueError no one caught:
    # a line that tests isdecimal() and converts with int() bounds the length (or uses whole_number).
    offenders = [
        f"{path.relative_to(REPO)}:{n}"
        for path in sorted((REPO / "cardbase").rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if ".isdecimal()" in line and re.search(r"\bint\(", line) and "len(" not in line
    ]
    assert offenders == [], "bound the digits before int() (cardbase.games.base.whole_number): " + ", ".join(offenders)


@pytest.mark.parametrize(("where", "param"), _int_options(), ids=[w for w, _ in _int_options()])
def test_every_whole_number_option_has_a_range(where: str, param: Any) -> None:
    if param.opts[0] in CHECKED_IN_CODE:
        return
    assert param.max is not None, f"{where} takes any whole number: give it a max (and a min)"
    assert param.min is not None, f"{where} takes any whole number: give it a min"


def test_user_files_are_read_through_textfiles() -> None:
    # One reader for users' files: regular files only, with a bound (cardbase/textfiles.py).
    readers = re.compile(r"\.read_text\(|\.read_bytes\(|json\.load\(")
    allowed = {
        "cardbase/textfiles.py",
        "cardbase/catalog/loader.py",
        "cardbase/db/catalog.py",
        "cardbase/render/cache.py",
    }
    offenders = [
        f"{path.relative_to(REPO)}:{n}"
        for path in sorted((REPO / "cardbase").rglob("*.py"))
        if str(path.relative_to(REPO)) not in allowed
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if readers.search(line)
    ]
    assert offenders == [], "read users' files with cardbase.textfiles: " + ", ".join(offenders)


def test_every_float_option_is_parsed_by_the_shared_number_type() -> None:
    # nan, inf, -0 and 1e309 get their own reasons only through cardbase.cli.common.Number (Click's
    # range check says 'less than or equal to 8760' for nan); the print scale agrees with SheetOptions'.
    from cardbase.cli.common import Number
    from cardbase.cli.print import SCALE
    from cardbase.render.options import SCALE_RANGE
    from tests.hostile.test_options import FLOAT_OPTIONS

    assert FLOAT_OPTIONS
    offenders = [
        " ".join((*path, option))
        for path, option, param in FLOAT_OPTIONS
        if not isinstance(param.type_descriptor.parameter_info.parser, Number)
    ]
    assert offenders == [], "give these typer.Option(parser=Number(low, high)): " + ", ".join(offenders)
    assert (SCALE.low, SCALE.high) == SCALE_RANGE


# The functions that write to the terminal for the whole package (cardbase.cli.common's echo and its
# one-line kin, the boundary's say, the entry point's fixed interrupted line, cardbase.terminal's
# log_line for the servers' log): every other line goes through them, so a path, name, file or
# request text it quotes is shown with its control characters escaped (a Rich console is
# cardbase.terminal.console, which escapes every cell and reads no markup: the play prompt's log and
# the Méa table print through it).
_WRITERS = {
    "cardbase/cli/common.py": {"echo", "say_done", "warn", "note", "print_json"},
    "cardbase/cli/boundary.py": {"say"},
    "cardbase/cli/entry.py": {"main"},
    "cardbase/terminal.py": {"log_line", "console"},
}


def _raw_writes(source: str, allowed: set[str]) -> list[int]:
    """The lines of ``source`` that write to the terminal outside the functions ``allowed``: a call
    of ``typer.echo``, ``click.echo``, ``print``, ``rich.print``, ``sys.stdout/stderr.write`` or
    ``Console(``."""
    import ast

    found: list[int] = []

    def visit(node: ast.AST, inside: str | None) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            inside = node.name if inside is None else inside
        if isinstance(node, ast.Call) and inside not in allowed:
            called = ast.unparse(node.func)
            if called in ("print", "Console", "rprint") or called.endswith(
                ("typer.echo", "click.echo", "secho", "rich.print", "stdout.write", "stderr.write")
            ):
                found.append(node.lineno)
        for child in ast.iter_child_nodes(node):
            visit(child, inside)

    visit(ast.parse(source), None)
    return found


def test_the_raw_write_rule_can_fail() -> None:
    bad = 'import typer, sys\ndef f(p):\n    typer.echo(f"wrote {p}")\n    print(p)\n    sys.stderr.write(p)\n'
    assert _raw_writes(bad, set()) == [3, 4, 5]
    assert _raw_writes(bad, {"f"}) == []
    assert _raw_writes("def g(c):\n    c.print('x')\n    echo('y')\n", set()) == []


def test_the_package_writes_to_the_terminal_only_through_the_escaping_helpers() -> None:
    offenders = [
        f"{path.relative_to(REPO)}:{line}"
        for path in sorted((REPO / "cardbase").rglob("*.py"))
        for line in _raw_writes(path.read_text(encoding="utf-8"), _WRITERS.get(str(path.relative_to(REPO)), set()))
    ]
    assert offenders == [], (
        "write with cardbase.cli.common.echo / say_done / warn / note, cardbase.terminal.log_line or "
        "cardbase.terminal.console: " + ", ".join(offenders)
    )
