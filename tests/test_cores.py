"""``cores.map_in_processes``: results in chunk order, errors carried back, workers never left behind."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardbase import cores
from cardbase.errors import WorkerStopped
from tests.conftest import REPO
from tests.processes import children, running


@pytest.fixture
def no_worker_left() -> Iterator[None]:
    """The test's maps leave no process of theirs running (children this process had before are not theirs)."""
    before = set(children())
    yield
    assert set(children()) - before == set()


def _uneven(x: int) -> int:
    time.sleep(0.02 if x % 3 == 0 else 0.0)  # later chunks finish first
    return x * x


def _fails_at_5(x: int) -> int:
    if x == 5:
        raise ValueError(f"chunk {x} is bad")
    return x


def _dies_at_4(x: int) -> int:
    if x == 4:
        os.kill(os.getpid(), signal.SIGKILL)
    return x


def test_results_come_in_chunk_order(no_worker_left: None) -> None:
    assert list(cores.map_in_processes(_uneven, range(40), 3)) == [x * x for x in range(40)]


def test_at_most_two_chunks_per_worker_are_taken_ahead(no_worker_left: None) -> None:
    taken = []

    def chunks() -> Iterator[int]:
        for x in range(100):
            taken.append(x)
            yield x

    results = cores.map_in_processes(_uneven, chunks(), 2)
    assert next(results) == 0
    assert len(taken) <= 2 * 2 + 1  # the 4 in flight, and the one refilled after the first answer
    results.close()


def test_a_chunks_error_is_raised_here_and_the_workers_stop(no_worker_left: None) -> None:
    with pytest.raises(ValueError, match="chunk 5 is bad"):
        list(cores.map_in_processes(_fails_at_5, range(30), 2))


def test_a_worker_killed_outright_is_an_error_not_a_hang(no_worker_left: None) -> None:
    with pytest.raises(WorkerStopped, match="exit code -9"):
        list(cores.map_in_processes(_dies_at_4, range(30), 2))


def test_a_map_left_early_kills_its_workers(no_worker_left: None) -> None:
    results = cores.map_in_processes(_uneven, range(1000), 2)
    assert [next(results) for _ in range(3)] == [0, 1, 4]
    results.close()


def test_workers_end_when_their_parent_is_killed_outright(tmp_path: Path) -> None:
    """A parent killed outright (``kill -9``: no cleanup runs) leaves no worker behind: each ends at
    its next answer or wait, its pipe closed (the parent's ends it inherited are closed in it)."""
    script = tmp_path / "parent.py"
    script.write_text(
        "import os, sys, time\n"
        "from cardbase import cores\n"
        "def slow(x):\n"
        "    time.sleep(0.2)\n"
        "    return x\n"
        "for i, _ in enumerate(cores.map_in_processes(slow, range(1000), 2)):\n"
        "    if i == 2:\n"
        "        print('running', flush=True)\n"
        "        time.sleep(60)\n",
        encoding="utf-8",
    )
    parent = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True, cwd=REPO)
    assert parent.stdout is not None
    assert parent.stdout.readline().strip() == "running"
    workers = children(parent.pid)
    assert len(workers) == 2
    parent.kill()
    parent.wait()
    deadline = time.monotonic() + 60  # a bound on a hang: each ends within its next 0.2 s chunk, unloaded
    while any(running(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(running(pid) for pid in workers)


def test_a_worker_that_ignores_the_stop_is_ended_not_waited_for(tmp_path: Path) -> None:
    """After the last result the workers are told to stop; one that does not end (here: it sleeps on
    after the stop, and ignores SIGTERM) held the command for good in ``process.join()``. It is
    terminated, then killed, after ``STOP_SECONDS``; the map's results are all given."""
    script = tmp_path / "stubborn.py"
    script.write_text(
        "import multiprocessing, signal, time\n"
        "from cardbase import cores\n"
        "serve = cores._serve_chunks\n"
        "def stubborn(work, inbox, parents):\n"
        "    signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        "    serve(work, inbox, parents)\n"
        "    time.sleep(300)\n"
        "cores._serve_chunks = stubborn\n"
        "cores.STOP_SECONDS = 0.2\n"
        "print(sum(cores.map_in_processes(abs, range(-10, 10), 2)), flush=True)\n"
        "print('left', len(multiprocessing.active_children()), flush=True)\n",
        encoding="utf-8",
    )
    # its own session: the workers of a hang are ended with it
    parent = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, text=True, cwd=REPO, start_new_session=True
    )
    try:
        out, _ = parent.communicate(timeout=120)  # a bound on a hang, far above the stop's 0.2 s + 1 s
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(parent.pid, signal.SIGKILL)
        parent.wait()
    assert out.split("\n") == ["100", "left 0", ""] and parent.returncode == 0
