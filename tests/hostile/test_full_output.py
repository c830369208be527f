"""Class 9 (standard output that cannot be written): every command, its standard output a full disk
(``/dev/full``: ENOSPC at the first write or at the flush), ends with one ``cardbase: error:`` line
naming standard output and the system's reason, exit 2 — never an internal error (exit 70, which
it was: ``cardbase deck list > /dev/full``), nor Python's "Exception ignored" at exit (exit 120, a
small output failing only at the interpreter's last flush).

Generated over every command of the tree, from the option sweep's working command lines (``BASE``).
A command that writes nothing on standard output is left out (it has nothing to lose there).
"""

from __future__ import annotations

import io
import sys
from contextlib import suppress
from pathlib import Path
from typing import Any

import pytest

from tests.hostile.conftest import _copy_of, run_cli
from tests.hostile.test_option_sweep import BASE, COMMANDS, MEA

FULL = Path("/dev/full")


def _run_onto_full(argv: list[str], monkeypatch: pytest.MonkeyPatch, unbuffered: bool) -> tuple[int, str]:
    """Run ``cardbase ARGV`` in this process with standard output on ``/dev/full``: (exit code, stderr).
    ``unbuffered``: as Python makes it with ``PYTHONUNBUFFERED`` (or ``-u``, as containers often set):
    every write reaches the system at once, even Click's probe of the stream by writing ``""``."""
    import typer.main

    from cardbase.cli.app import app

    err = io.StringIO()
    full: io.TextIOWrapper[Any]
    if unbuffered:
        full = io.TextIOWrapper(FULL.open("wb", buffering=0), encoding="utf-8", write_through=True)
    else:
        full = FULL.open("w", encoding="utf-8")
    try:
        with monkeypatch.context() as patch:
            patch.setattr(sys, "stdout", full)
            patch.setattr(sys, "stderr", err)
            patch.setattr(sys, "stdin", io.StringIO("quit\n"))
            code = typer.main.get_command(app).main(argv, prog_name="cardbase", standalone_mode=False)
            # What the interpreter does last: a flush that fails here is "Exception ignored", exit 120.
            try:
                full.flush()
            except OSError as error:
                return 120, err.getvalue() + f"\nat exit: {error}"
    finally:
        with suppress(OSError):
            full.close()
    return int(code or 0), err.getvalue()


def _deck_d(db: str) -> None:
    assert run_cli(["deck", "new", "D", "--game", "mea"], db).exit_code == 0
    assert run_cli(["deck", "add", "D", "Crumb Goblin"], db).exit_code == 0


@pytest.mark.skipif(not FULL.exists(), reason="no /dev/full on this system")
@pytest.mark.timeout(1800)
@pytest.mark.parametrize("path", sorted(BASE), ids=" ".join)
def test_every_command_with_its_output_on_a_full_disk_is_one_line_exit_2(
    path: tuple[str, ...],
    sweep_files: dict[str, str],
    hostile_db: str,
    catalog_template: str,
    tmp_path_factory: pytest.TempPathFactory,
    in_tmp: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    kinds = ("normal", "buffered", "unbuffered")
    copies = [_copy_of(catalog_template, tmp_path_factory.mktemp(kind)) for kind in kinds]
    normal_db, *full_dbs = (next(copy) for copy in copies)
    try:
        code = run_cli(["deck", "encode", MEA], hostile_db).stdout.strip()
        takes_db = any(p.name == "db" for p in COMMANDS[path].params)

        def argv(db: str, out: str) -> list[str]:
            fill = {**sweep_files, "out": out, "code": code}
            return [*path, *(w.format(**fill) for w in BASE[path])] + (["--db", db] if takes_db else [])

        _deck_d(normal_db)
        normal = run_cli(argv(normal_db, str(in_tmp / "normal")), input="quit\n")
        assert normal.exit_code == 0, normal.stderr
        if not normal.stdout:
            pytest.skip("writes nothing on standard output")
        outcomes = {}
        for unbuffered, db in zip((False, True), full_dbs, strict=True):
            _deck_d(db)
            outcomes[unbuffered] = _run_onto_full(argv(db, str(in_tmp / f"out{unbuffered}")), monkeypatch, unbuffered)
    finally:
        for copy in copies:
            next(copy, None)
    for unbuffered, (exit_code, stderr) in outcomes.items():
        said = f"{'unbuffered' if unbuffered else 'buffered'}: exit {exit_code}: {stderr!r}"
        lines = [line for line in stderr.splitlines() if line.startswith("cardbase: error:")]
        assert "Traceback" not in stderr and "internal error" not in stderr, said
        assert exit_code == 2, said
        assert len(lines) == 1, said
        assert "standard output" in lines[0] and "No space left on device" in lines[0], said
