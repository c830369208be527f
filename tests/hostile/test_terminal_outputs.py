"""A file output sent to a terminal (``-o -`` with standard output on one, or ``-o /dev/pts/N``):
a PDF, PNG or XLSX, or text holding terminal controls, is refused, exit 2, and nothing reaches the
terminal (binary bytes garble it or drive it: ESC and U+009B start escape sequences); plain text
(a CSV, a deck list) is written. Third sweep's driver: ``catalog template -o -`` wrote an XLSX's
bytes to whatever standard output was."""

from __future__ import annotations

import os
import re
import select
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.hostile.conftest import assert_refused, run_cli
from tests.hostile.test_outputs import FILE_WRITERS, Writer


class _Terminal:
    """A pseudo-terminal read as it is written (a terminal's buffer is a few KB: a writer no one
    reads from would wait for ever): ``path`` is the terminal a command writes to."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        self.path = os.ttyname(self.slave)
        self.got = b""
        self.marks = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        while not self.stop.is_set():
            if select.select([self.master], [], [], 0.05)[0]:
                try:
                    self.got += os.read(self.master, 65536)
                except OSError:
                    return

    def arrived(self) -> bytes:
        """What reached the terminal, once the writer is done: all that came before a mark written
        after it (a terminal passes its bytes on in order), not what a pause happened to let through."""
        self.marks += 1
        mark = f"\x00mark {self.marks}\x00".encode()
        os.write(self.slave, mark)
        deadline = time.monotonic() + 60
        while mark not in self.got:
            assert time.monotonic() < deadline, "the terminal passed nothing on within 60 s"
            time.sleep(0.01)
        before = self.got.split(mark, 1)[0]
        return re.sub(rb"\x00mark \d+\x00", b"", before).replace(b"\r\n", b"\n")

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        os.close(self.slave)
        os.close(self.master)


@pytest.fixture
def terminal() -> Iterator[_Terminal]:
    tty = _Terminal()
    try:
        yield tty
    finally:
        tty.close()


BINARY = [w for w in FILE_WRITERS if not w.slow and not w.named and w.magic in (b"PK", b"%PDF", b"\x89PNG")]
BINARY += [w for w in FILE_WRITERS if w.name == "draws --plot"]
TEXT = [w for w in FILE_WRITERS if w.name in ("catalog export csv", "deck export")]


@pytest.mark.parametrize("writer", BINARY, ids=[w.name for w in BINARY])
def test_a_binary_output_onto_a_terminal_is_refused(
    writer: Writer, terminal: _Terminal, hostile_db: str, in_tmp: Path
) -> None:
    run_cli(["deck", "new", "Mine", "--game", "mea"], hostile_db)
    result = run_cli([*writer.argv, terminal.path], hostile_db if writer.db else None)
    assert_refused(result, 2, terminal.path, "is a terminal")
    assert terminal.arrived() == b""


@pytest.mark.parametrize("writer", TEXT, ids=[w.name for w in TEXT])
def test_a_text_output_onto_a_terminal_is_written(
    writer: Writer, terminal: _Terminal, hostile_db: str, in_tmp: Path
) -> None:
    run_cli(["deck", "new", "Mine", "--game", "mea"], hostile_db)
    result = run_cli([*writer.argv, terminal.path], hostile_db)
    assert result.exit_code == 0, result.output
    assert terminal.arrived().startswith(writer.magic or b"")


def test_text_holding_terminal_controls_is_refused_on_a_terminal(terminal: _Terminal) -> None:
    """Text is written to a terminal only if it holds no controls (here written by hand: cardbase
    refuses controls in names, but a file is a file)."""
    from cardbase.errors import UnreadableInput
    from cardbase.textfiles import output_file

    for text in ("a\x1b]0;title\x07b", "a\u009b31mb", "a\x00b"):
        with pytest.raises(UnreadableInput, match="is a terminal"), output_file(terminal.path) as temporary:
            temporary.write_text(text, encoding="utf-8")
    with output_file(terminal.path) as temporary:
        temporary.write_text("tab\there\nfine ♥\n", encoding="utf-8")
    assert terminal.arrived() == "tab\there\nfine ♥\n".encode()


def test_standard_output_on_a_terminal_gets_no_pdf(terminal: _Terminal, tmp_path: Path) -> None:
    with open(terminal.path, "wb") as out:
        run = subprocess.run(
            [sys.executable, "-m", "cardbase", "print", "registration", "-o", "-"],
            stdout=out,
            stderr=subprocess.PIPE,
            cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(REPO)},
            timeout=120,
        )
    stderr = run.stderr.decode()
    assert run.returncode == 2, stderr
    assert stderr.startswith("cardbase: error: - (standard output): is a terminal") and stderr.count("\n") == 1
    assert terminal.arrived() == b""
