"""The README works as written (issue 13): every ``uv run cardbase …`` command in it runs, in order,
from a copy of the files a fresh clone has, each within 60 s; and no path outside the repository
appears in the README, the docs or the code."""

from __future__ import annotations

import re
import shlex
import shutil
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardbase.cli.app import app
from tests.conftest import REPO

SECONDS_PER_COMMAND = 60
EXPECTED_EXIT = {"examples/decks/mea-broken.txt": 1}  # the README shows it failing, with every problem
PROMPT_INPUT = "quit\n"  # `play` reads moves; the README's play lines start a game, this ends it


def readme_commands(text: str) -> list[str]:
    """The ``uv run cardbase`` lines of the README's ``sh`` blocks, continuations joined, comments cut."""
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.replace("\\\n", " ").splitlines():
            line = re.split(r"\s{2,}#", line)[0].strip()
            if line.startswith("uv run cardbase "):
                commands.append(line)
    return commands


class _Late(BaseException):
    pass


def _late(*_: object) -> None:
    raise _Late


@pytest.fixture
def clone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, all_cores: None) -> Iterator[Path]:
    """A working directory holding what a fresh clone holds for the README (no database yet), and
    the machine's cores, as a user has them (under pytest-xdist a worker gets its share)."""
    for folder in ("examples", "card_images"):
        if (REPO / folder).exists():
            shutil.copytree(REPO / folder, tmp_path / folder)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CARDBASE_DB", raising=False)
    previous = signal.signal(signal.SIGALRM, _late)
    try:
        yield tmp_path
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_readme_has_no_placeholders() -> None:
    commands = readme_commands((REPO / "README.md").read_text(encoding="utf-8"))
    assert len(commands) >= 30
    for command in commands:
        for placeholder in ("CODE", "my-", "some-", "FILE", "NAME"):
            assert placeholder not in command, (placeholder, command)
        outputs = [a for a in shlex.split(command) if a.endswith((".pdf", ".png", ".csv", ".xlsx", ".jsonl", ".json"))]
        for out in outputs:
            assert out.startswith(("examples/", "exports/")), command  # nothing written into the repository root


@pytest.mark.alone  # each command within 60 s, its sim and lab on every core, as a user's are
def test_every_readme_command_runs_as_written(clone: Path) -> None:
    runner = CliRunner()
    commands = readme_commands((REPO / "README.md").read_text(encoding="utf-8"))
    for command in commands:
        args = shlex.split(command)[3:]
        signal.alarm(SECONDS_PER_COMMAND)
        try:
            result = runner.invoke(app, args, input=PROMPT_INPUT, catch_exceptions=True)
        except _Late:
            pytest.fail(f"took over {SECONDS_PER_COMMAND} s: {command}")
        finally:
            signal.alarm(0)
        want = next((code for key, code in EXPECTED_EXIT.items() if key in command), 0)
        assert result.exit_code == want, f"{command}\nexit {result.exit_code}\n{result.output[-2000:]}"
        assert "Traceback" not in result.output and "internal error" not in result.output, command
    assert not [p for p in clone.iterdir() if p.suffix in (".pdf", ".png", ".csv", ".jsonl")], "wrote into the root"


_SHARED = "shared"  # split so that this file does not match itself
_OUTSIDE = re.compile(rf"\.\./{_SHARED}|(?<![\w.]){_SHARED}/rulebooks|/work/{_SHARED}")


def test_no_path_outside_the_repository() -> None:
    files = [REPO / "README.md"]
    for folder, pattern in (
        ("docs", "*.md"),
        ("cardbase", "*.py"),
        ("tests", "*.py"),
        ("examples", "*"),
        ("benchmarks", "*"),
    ):
        files += [
            p for p in (REPO / folder).rglob(pattern) if p.is_file() and p.suffix in (".md", ".py", ".txt", ".toml")
        ]
    found = [
        f"{path.relative_to(REPO)}:{n}"
        for path in files
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
        if _OUTSIDE.search(line)
    ]
    assert found == []
