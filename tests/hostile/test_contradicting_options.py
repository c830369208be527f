"""Class 9 (options that contradict each other): a command given ``--X VALUE`` and ``--no-X`` is
refused before any work, naming both, exit 2. ``play meio --no-record --record r.jsonl`` played the
game and wrote no record, exit 0: the record asked for was silently not made.

Generated: every command of the tree that has such a pair (found by walking the CLI, so a new pair
is tried too).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hostile.conftest import assert_refused, run_cli
from tests.hostile.test_option_sweep import BASE, COMMANDS


def _pairs() -> list[tuple[tuple[str, ...], str, str]]:
    """(command, --X, --no-X) for every option --X that takes a value beside a flag --no-X."""
    found = []
    for path, command in sorted(COMMANDS.items()):
        opts = {o: p for p in command.params if p.param_type_name == "option" for o in p.opts}
        for name, param in opts.items():
            if name.startswith("--no-") and getattr(param, "is_flag", False):
                positive = "--" + name.removeprefix("--no-")
                if positive in opts and not getattr(opts[positive], "is_flag", False):
                    found.append((path, positive, name))
    return found


def test_the_walk_finds_the_pairs() -> None:
    assert {path for path, _, _ in _pairs()} >= {("play", "meio"), ("play", "mea"), ("play", "meikyu")}


@pytest.mark.parametrize(
    ("path", "positive", "negative"), _pairs(), ids=lambda v: " ".join(v) if isinstance(v, tuple) else v
)
def test_an_option_and_its_no_flag_together_are_refused(
    path: tuple[str, ...], positive: str, negative: str, shared_db: str, in_tmp: Path
) -> None:
    base = [w for w in BASE[path] if w != negative]
    argv = [*path, *base, negative, positive, str(in_tmp / "r.jsonl")]
    takes_db = any(p.name == "db" for p in COMMANDS[path].params)
    assert_refused(run_cli(argv, shared_db if takes_db else None, input="quit\n"), 2, positive, negative)
    assert not (in_tmp / "r.jsonl").exists() and not (in_tmp / "exports").exists()
