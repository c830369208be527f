"""The standard streams as the caller left them (``cardbase.stdio``): closed (``>&-``, ``<&-``,
``2>&-``), or in an encoding that lacks characters (``PYTHONIOENCODING=latin-1``/``ascii``).

A closed standard output was ``None`` to Python: every command that prints ended in ``'NoneType'
object has no attribute 'flush'``, exit 70; a closed standard input made ``play`` end so
(``isatty``); and an output encoding without Japanese or ``é`` (or ``—``, which cardbase's own
tables print) made ``cards search``, ``cards show`` and ``deck show`` end in ``UnicodeEncodeError``,
exit 70. Now: a closed output is "cannot write", exit 2; a closed input reads as empty (the game is
left unfinished, exit 2, as with ``< /dev/null``); a closed standard error loses the words, not the exit
code; a character the encoding lacks is a visible escape, and JSON is all ASCII there."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.hostile.conftest import run_cli

CARDBASE = [sys.executable, "-m", "cardbase"]
EXAMPLES = REPO / "examples" / "decks"
DECK = "game: mea\n2 Crumb Goblin\n1 日本語の犬\n1 Crème Golem\n"
JAPANESE = "日本語の犬"

PRINTING = [
    ["cards", "search", "cost<=2", "--game", "mea"],
    ["cards", "search", "cost<=2", "--game", "mea", "--json"],
    ["cards", "show", JAPANESE],
    ["cards", "show", "Crème Golem", "--json"],
    ["deck", "show", "{deck}"],
    ["deck", "stats", "{deck}"],
    ["deck", "list"],
    ["catalog", "status", "--game", "mea"],
    ["catalog", "export", "--game", "mea", "--format", "csv", "-o", "-"],
    ["--version"],
    ["--help"],
    ["deck", "show", "--help"],
]
IDS = [" ".join(a)[:40] for a in PRINTING]


@pytest.fixture(scope="module")
def setting(tmp_path_factory: pytest.TempPathFactory, catalog_template: str) -> Iterator[tuple[str, Path]]:
    """A database holding a card with a Japanese name, and a deck file naming it."""
    from tests.conftest import new_database

    folder = tmp_path_factory.mktemp("streams")
    with new_database(folder, catalog_template) as url:
        db = str(folder / "cards.db") if url.startswith("sqlite") else url
        added = run_cli(
            ["catalog", "add", "--game", "mea", f"name={JAPANESE}", "type=monster", "cost=2", "set=mine"], db
        )
        assert added.exit_code == 0, added.output
        deck = folder / "deck.txt"
        deck.write_text(DECK, encoding="utf-8")
        yield db, deck


def _run(argv: list[str], setting: tuple[str, Path], shell: str = "", **env: str) -> subprocess.CompletedProcess[bytes]:
    db, deck = setting
    args = [a.replace("{deck}", str(deck)) for a in argv]
    command = [*CARDBASE, *args]  # the database from CARDBASE_DB (play meio has no --db)
    if shell:  # the redirections applied by a shell: `exec cardbase … >&-`
        command = ["sh", "-c", f'exec "$@" {shell}', "sh", *command]
    environment = {**os.environ, "PYTHONPATH": str(REPO), "CARDBASE_DB": db, **env}
    return subprocess.run(command, capture_output=True, env=environment, cwd=deck.parent, timeout=300)


def _no_crash(done: subprocess.CompletedProcess[bytes]) -> str:
    said = done.stderr.decode("utf-8", "replace")
    assert "Traceback" not in said and "internal error" not in said, said
    return said


@pytest.mark.parametrize("argv", PRINTING, ids=IDS)
def test_a_closed_standard_output_is_cannot_write_exit_2(argv: list[str], setting: tuple[str, Path]) -> None:
    done = _run(argv, setting, ">&-")
    said = _no_crash(done)
    assert done.returncode == 2, said
    lines = [line for line in said.splitlines() if line.startswith("cardbase: error:")]
    assert len(lines) == 1 and "cannot write" in lines[0] and "Bad file descriptor" in lines[0], said


@pytest.mark.parametrize("argv", PRINTING, ids=IDS)
@pytest.mark.parametrize("encoding", ["latin-1", "ascii"])
def test_an_output_encoding_without_the_characters_escapes_them(
    argv: list[str], encoding: str, setting: tuple[str, Path]
) -> None:
    done = _run(argv, setting, PYTHONIOENCODING=encoding)
    said = _no_crash(done)
    assert done.returncode in (0, 1), said
    if "--json" in argv:
        data = json.loads(done.stdout.decode("ascii"))  # all ASCII, and the same data
        assert JAPANESE in json.dumps(data, ensure_ascii=False) or "Crème Golem" in json.dumps(data, ensure_ascii=False)
    elif JAPANESE in argv or argv == ["deck", "show", "{deck}"]:
        out = done.stdout.decode("utf-8", "replace")  # a deck list is data: UTF-8, as its file would be
        assert "\\u65e5" in out or JAPANESE in out, out


@pytest.mark.parametrize("game", ["mea", "meio", "meikyu"])
@pytest.mark.parametrize("stdin", ["<&-", "</dev/null"])
def test_play_with_standard_input_closed_or_empty_leaves_the_game(
    game: str, stdin: str, setting: tuple[str, Path]
) -> None:
    decks = {
        "mea": [
            "-d",
            str(EXAMPLES / "mea-goblin-rush.txt"),
            "--vs-deck",
            str(EXAMPLES / "mea-tile-control.txt"),
        ],
        "meikyu": ["--assume", "default"],
    }
    done = _run(["play", game, *decks.get(game, []), "--seed", "1"], setting, stdin)
    said = _no_crash(done)
    # The input ended before the game did: not a finished game, nor a `quit` (exit 0), but the
    # moves could not be read to the end (exit 2), saved as Ctrl-C saves it (which exits 130).
    assert done.returncode == 2, said
    assert "Game left unfinished" in done.stdout.decode(), done.stdout
    (line,) = [line for line in said.splitlines() if line.startswith("cardbase: error:")]
    assert "standard input ended before the game was over" in line, said
    assert f"the game so far is saved in exports/{game}-seed1.jsonl" in line, said


@pytest.mark.parametrize("record", ["-", "/dev/stdout"])
def test_a_record_on_standard_output_is_said_to_be_there_when_the_input_ends(
    record: str, setting: tuple[str, Path]
) -> None:
    done = _run(["play", "meio", "--seed", "1", "--record", record], setting, "</dev/null")
    said = _no_crash(done)
    assert done.returncode == 2, said
    (line,) = [line for line in said.splitlines() if line.startswith("cardbase: error:")]
    assert "the game so far is written to standard output" in line, said
    assert b'"seed": 1' in done.stdout or b'"seed":1' in done.stdout, done.stdout[-300:]


def test_a_closed_standard_error_keeps_the_exit_code(setting: tuple[str, Path]) -> None:
    done = _run(["cards", "show", "No Such Card Anywhere"], setting, "2>&-")
    assert done.returncode == 1 and done.stderr == b""


def test_no_file_opened_takes_a_closed_streams_number(setting: tuple[str, Path], tmp_path: Path) -> None:
    """With all three closed, the database opened would have been descriptor 0, 1 or 2: what is
    written there by anyone would land in it. Each is held on /dev/null instead."""
    probe = tmp_path / "fds.txt"
    code = (
        "import os, sys\n"
        "from cardbase import stdio\n"
        "stdio.prepare()\n"
        f"f = open({str(probe)!r}, 'w')\n"
        "f.write(str([os.readlink(f'/proc/self/fd/{n}') for n in (0, 1, 2)]) + ' ' + str(f.fileno()))\n"
        "print('lost'); sys.stdout.flush()\n"
    )
    done = subprocess.run(
        ["sh", "-c", 'exec "$@" <&- >&- 2>&-', "sh", sys.executable, "-c", code],
        env={**os.environ, "PYTHONPATH": str(REPO)},
        timeout=60,
    )
    held, number = probe.read_text().rsplit(" ", 1)
    assert held == str(["/dev/null"] * 3) and int(number) > 2
    assert done.returncode != 0  # the print to the closed output was refused, not a silent success
