"""The whole CLI over random argv built from its own commands and options: whatever the words,
the answer is success or a refusal (exit 1 or 2 with a message) — never a traceback, never a hang.

Deterministic (seeded) and bounded: a fixed number of runs, each under an alarm."""

from __future__ import annotations

import random
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO
from tests.hostile.conftest import assert_no_crash, run_cli

RUNS = 240
SECONDS_PER_RUN = 300  # a bound on a hang, whatever the load: a run takes seconds on an idle machine


def _commands() -> list[tuple[tuple[str, ...], Any]]:
    import typer.main

    from cardbase.cli.app import app

    out: list[tuple[tuple[str, ...], Any]] = []

    def walk(command: Any, path: tuple[str, ...]) -> None:
        subs = getattr(command, "commands", None)
        if subs:
            for name, sub in subs.items():
                walk(sub, (*path, name))
        else:
            out.append((path, command))

    walk(typer.main.get_command(app), ())
    return out


def _values(tmp: Path) -> list[str]:
    (tmp / "folder").mkdir(exist_ok=True)
    bad = tmp / "bad.txt"
    bad.write_bytes(b"\x00\xff" * 10)
    return [
        *("0", "1", "2", "3", "-1", "99999999999999999999", "1e400", "NaN", "²", "", " ", "x", "yes"),
        *("mea", "meio", "meikyu", "csv", "json", "xlsx", "code", "a4", "letter", "63x88mm", "3mm", "-3mm"),
        *("t:monster", "/(a+)+$/", "cost<=", "(((", "1 t:monster", "Selounticia", "Grimor", "random", "search"),
        *("heuristic,random", "default", "rounds=2", "nonsense=1", "x=y", "Goblin Rush"),
        str(REPO / "examples/decks/mea-goblin-rush.txt"),
        str(REPO / "examples/decks/meio-hand.txt"),
        str(REPO / "examples/decks/meikyu-rulebook-cards.txt"),
        str(REPO / "examples/formats/house.toml"),
        str(tmp / "missing.txt"),
        str(tmp / "folder"),
        str(bad),
        "/dev/zero",
        str(tmp / "out" / "file.pdf"),
    ]


def _argv(rng: random.Random, commands: list[tuple[tuple[str, ...], Any]], values: list[str]) -> list[str]:
    path, command = rng.choice(commands)
    argv = list(path)
    params = list(command.params)
    rng.shuffle(params)
    for param in params:
        if param.name == "db" or rng.random() < 0.5:
            continue
        if param.param_type_name == "argument":
            argv.append(rng.choice(values))
        elif getattr(param, "is_flag", False):
            argv.append(param.opts[0])
        else:
            argv += [param.opts[0], rng.choice(values)]
    if rng.random() < 0.1:
        argv.insert(rng.randrange(len(argv) + 1), rng.choice(["--nope", "-z", "--", "--help"]))
    return argv


class _Hang(BaseException):
    pass


def _alarm(*_: object) -> None:
    raise _Hang


@pytest.fixture
def alarm() -> Iterator[None]:
    previous = signal.signal(signal.SIGALRM, _alarm)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_random_argv_never_crashes(hostile_db: str, in_tmp: Path, alarm: None) -> None:
    rng = random.Random(20261201)
    commands = [c for c in _commands() if c[0][:1] != ("serve",)]
    values = _values(in_tmp)
    for _ in range(RUNS):
        argv = _argv(rng, commands, values)
        if argv[:1] == ["sim"] and "--games" not in argv:
            argv[2:2] = ["--games", "3"]  # a default batch (1,000 games) is minutes of work, not a hostile input
        signal.alarm(SECONDS_PER_RUN)
        try:
            db = ["--db", hostile_db] if _takes_db(argv, commands) else []
            run = run_cli([*argv, *db], input="quit\n")
        except _Hang:
            pytest.fail(f"no answer after {SECONDS_PER_RUN} s: cardbase {' '.join(argv)}")
        finally:
            signal.alarm(0)
        try:
            assert_no_crash(run)
        except AssertionError as error:
            raise AssertionError(f"cardbase {' '.join(argv)}: {error}") from None


def _takes_db(argv: list[str], commands: list[tuple[tuple[str, ...], Any]]) -> bool:
    for path, command in commands:
        if tuple(argv[: len(path)]) == path:
            return any(p.name == "db" for p in command.params)
    return False
