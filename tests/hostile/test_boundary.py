"""The error boundary itself: a bug prints one line naming the file its traceback went to (exit
70), a user error never shows a traceback, Ctrl-C is 130, and no message carries a password."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardbase.errors import mask_secrets
from tests.hostile.conftest import assert_refused, run_cli


def test_a_bug_prints_one_line_and_writes_the_traceback_to_a_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import cardbase.db.search as search

    def broken(*_: object, **__: object) -> None:
        raise ZeroDivisionError("the bug we planted")

    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr("tempfile.tempdir", None)
    monkeypatch.setattr(search, "search_cards", broken)
    run = run_cli(["cards", "search", "x", "--db", str(tmp_path / "c.db")])
    assert run.exit_code == 70
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("cardbase: internal error: ZeroDivisionError: the bug we planted")
    assert "Traceback" not in run.stdout + run.stderr
    written = re.search(r"the traceback is in (\S+),", lines[0])
    assert written is not None
    report = Path(written.group(1)).read_text(encoding="utf-8")
    assert "Traceback (most recent call last)" in report and "the bug we planted" in report


@pytest.mark.parametrize(
    "args",
    [
        ["cards", "search", "", "--limit", "10000", "--db", "c.db"],
        ["cards", "search", "", "--limit", "10000", "--json", "--db", "c.db"],
        ["--help"],  # Typer's own help: it would exit 1
        ["sim", "meio", "--help"],
        ["sim", "meio", "--games", "4", "--players", "2"],  # its progress display closing said a blank line
        ["sim", "meio", "--games", "4", "--players", "2", "--json"],
    ],
)
def test_a_reader_that_goes_away_ends_the_command_quietly_with_141(args: list[str], tmp_path: Path) -> None:
    """``cardbase … | head``: the reader closes the pipe; the command stops without a word and exits as
    a program SIGPIPE stopped (141), not 1 ("checked and invalid"), so a script's pipefail reads it right."""
    import subprocess
    import sys

    command = [sys.executable, "-m", "cardbase", *args]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path)
    assert child.stdout is not None and child.stderr is not None
    child.stdout.close()  # before the command writes a line: its first write meets a closed pipe
    err = child.stderr.read().decode()
    assert child.wait(timeout=600) == 141 and err == "", err


def test_a_progress_display_says_nothing_where_stderr_is_not_a_terminal(tmp_path: Path) -> None:
    """A long command's progress bar is drawn on a terminal only: on a pipe or in a log file it wrote
    a blank line (Rich's display closing), after every run and before the ``| head`` exit alike."""
    import subprocess
    import sys

    command = [sys.executable, "-m", "cardbase", "sim", "meio", "--games", "4", "--players", "2"]
    ran = subprocess.run(command, capture_output=True, cwd=tmp_path, check=False, timeout=600)
    assert ran.returncode == 0 and ran.stdout and ran.stderr == b"", ran.stderr


def test_ctrl_c_inside_a_command_is_130_with_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import cardbase.db.search as search

    def interrupted(*_: object, **__: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(search, "search_cards", interrupted)
    run = run_cli(["cards", "search", "x", "--db", str(tmp_path / "c.db")])
    assert run.exit_code == 130
    assert run.stderr.strip() == "cardbase: interrupted"


@pytest.mark.parametrize(
    ("text", "hidden"),
    [
        ("postgresql://alice:s3cret@db.example/cards", "s3cret"),
        ("postgresql+psycopg://alice:p%40ss@127.0.0.1:5432/x failed", "p%40ss"),
        ("cannot connect: password=hunter2 host=x", "hunter2"),
        ("dsn password='two words' port=1", "two words"),
        ("mysql://u:a:b:c@h/d", "a:b:c"),
    ],
)
def test_secrets_are_masked(text: str, hidden: str) -> None:
    masked = mask_secrets(text)
    assert hidden not in masked and "***" in masked


@pytest.mark.parametrize(
    "argv",
    [
        ["--bogus"],
        ["cards", "--bogus"],
        ["cards", "search"],
        ["nonsense"],
        ["deck", "validate"],
        ["deck", "validate", "a", "b", "c"],
        ["sim", "meio", "--games"],
        ["sim", "meio", "--ace-low=maybe"],
        ["draws", "x.txt", "--need"],
    ],
)
def test_usage_errors_are_one_line_naming_the_help(argv: list[str]) -> None:
    assert_refused(run_cli(argv), 2, "--help")
