"""Class 4 (Ctrl-C): SIGINT to the command's process group — as a terminal sends it — stops every
worker, says what had finished, exits 130, and prints no traceback; `play` saves its record.
SIGTERM is the same stop (exit 143), and either, at any moment (while the command's modules are
still being imported too), leaves no traceback and no temporary.

These check that the command stops, cleanly; how fast (the targets: 2 s for ``sim`` and ``draws``,
5 s for ``lab``) is measured by ``benchmarks/bench_interrupts.py``, since a loaded machine makes any
time bound in a test flaky. A command still running a minute after SIGINT fails here as a hang."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy import text

from tests.conftest import REPO

# With worker processes: on the xdist worker that runs the other pool tests.
pytestmark = [pytest.mark.xdist_group("pools")]

CARDBASE = [sys.executable, "-m", "cardbase"]
GOBLINS = str(REPO / "examples/decks/mea-goblin-rush.txt")
HANG = 60
"""Seconds a command may take to stop after its signal before it is a hang: the targets (2 s, 5 s for
``lab``) are the benchmark's; a loaded CI machine takes many times longer, and that is no failure."""
TILES = str(REPO / "examples/decks/mea-tile-control.txt")


Busy = Callable[[float, list[float]], bool]
"""Given the CPU seconds of the command's process and of each of its other processes: is it at work?"""


def workers_busy(workers: int, cpu: float) -> Busy:
    """At least ``workers`` processes besides the command's own have used ``cpu`` s of CPU each:
    they are playing, not starting (CPU time, unlike the clock, does not grow with the load)."""
    return lambda _, others: sum(t >= cpu for t in others) >= workers


def main_busy(cpu: float) -> Busy:
    """The command's own process has used ``cpu`` s of CPU: past its imports, inside its loop."""
    return lambda main, _: main >= cpu


def _cpu_seconds(session: int) -> tuple[float, list[float]]:
    """CPU seconds (user + system) of the session's leader and of its other processes, from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    main, others = 0.0, []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdecimal():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended meanwhile
        if int(fields[3]) != session:
            continue
        seconds = (int(fields[11]) + int(fields[12])) / tick
        if int(entry.name) == session:
            main = seconds
        else:
            others.append(seconds)
    return main, others


def _handles(pid: int, signum: int) -> bool:
    """Whether the process has a handler for ``signum`` (``SigCgt`` in /proc): cardbase's is
    installed before its heavy imports, so SIGTERM's is the sign that they are starting."""
    try:
        status = (Path("/proc") / str(pid) / "status").read_text()
    except OSError:
        return False
    caught = int(status.split("SigCgt:")[1].split()[0], 16)
    return bool(caught >> (signum - 1) & 1)


def _interrupt(
    argv: list[str],
    cwd: Path,
    wait_for: str,
    stdin: str | None = None,
    settle: float = 0.5,
    busy: Busy | None = None,
) -> tuple[int, str, str, float]:
    """Start ``cardbase ARGV``, wait until its signal handler is in place, its stdout shows
    ``wait_for`` and, with ``busy``, its processes are at work (each at most 60 s), wait ``settle``
    s more, send SIGINT to its group; return (exit code, stdout, stderr, seconds from SIGINT to exit).

    A signal sent before the handler is in place would land in the interpreter's own start-up
    (``site``, ``runpy``), before any line of cardbase runs: no program can say anything then."""
    # PYTHONFAULTHANDLER: a process still running after the SIGINT is sent SIGABRT, and each of its
    # Python processes writes where its threads stand to stderr (the failure shows it).
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "120", "PYTHONFAULTHANDLER": "1"}
    process = subprocess.Popen(
        [*CARDBASE, *argv],
        cwd=cwd,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
    )
    assert process.stdout is not None and process.stdin is not None
    if stdin is not None:
        process.stdin.write(stdin)
        process.stdin.flush()
    deadline = time.monotonic() + 60  # never before cardbase can handle it (see _handles)
    while not _handles(process.pid, signal.SIGTERM) and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    seen = ""
    deadline = time.monotonic() + 60
    while wait_for not in seen and time.monotonic() < deadline and process.poll() is None:
        ready, _, _ = select.select([process.stdout], [], [], 0.1)
        if ready:
            seen += os.read(process.stdout.fileno(), 65536).decode("utf-8", "replace")
    if wait_for not in seen and process.poll() is None:  # interrupted before it got there: not the test meant
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        pytest.fail(f"{wait_for!r} not shown within 60 s; it showed: {seen[-2000:]!r}")
    deadline = time.monotonic() + 60
    while busy is not None and not busy(*_cpu_seconds(process.pid)) and time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()
        time.sleep(0.1)
    time.sleep(settle)
    sent = time.monotonic()
    os.killpg(process.pid, signal.SIGINT)
    try:
        rest, err = process.communicate(timeout=HANG)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGABRT)
        try:
            rest, err = process.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            rest, err = process.communicate()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)  # its workers, if it went first
        pytest.fail(f"still running {HANG} s after SIGINT; its threads when sent SIGABRT:\n{err[-6000:]}")
    return process.returncode, seen + (rest or ""), err, time.monotonic() - sent


def _no_worker_left(marker: str) -> bool:
    """Whether no process whose command line holds ``marker`` is left, once those that were are gone
    (a worker may still be exiting as its parent ends; a worker left running fails after a minute)."""
    deadline = time.monotonic() + HANG
    while True:
        out = subprocess.run(["ps", "-eo", "stat=,args="], capture_output=True, text=True).stdout
        alive = [line for line in out.splitlines() if marker in line and not line.lstrip().startswith("Z")]
        if not alive or time.monotonic() > deadline:
            return not alive
        time.sleep(0.1)


@pytest.mark.parametrize(
    "argv",
    [
        ["sim", "meio", "--players", "3", "--games", "100000", "--jobs", "2", "--agents", "heuristic,random,random"],
        ["sim", "mea", "--deck", GOBLINS, "--vs", TILES, "--games", "100000", "--jobs", "2"],
    ],
    ids=["meio", "mea"],
)
def test_sim_with_workers_stops_cleanly(argv: list[str], tmp_path: Path) -> None:
    records = tmp_path / "records"
    db = [] if argv[1] == "meio" else ["--db", str(tmp_path / "c.db")]
    code, _, err, _ = _interrupt([*argv, "--records", str(records), *db], tmp_path, "", busy=workers_busy(2, cpu=1.0))
    assert code == 130, err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert lines[-1].startswith("cardbase: interrupted: "), lines
    assert "games had finished" in lines[-1] and str(records) in lines[-1]
    assert _no_worker_left(str(records))


def test_play_saves_its_record_on_ctrl_c(tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    code, _, err, _ = _interrupt(
        ["play", "meio", "--players", "2", "--seed", "5", "--record", str(record)], tmp_path, "P1>"
    )
    assert code == 130, err
    assert "Traceback" not in err
    assert f"saved in {record}" in err
    assert record.read_text(encoding="utf-8").startswith('{"record": "cardbase.game"')
    replay = subprocess.run([*CARDBASE, "replay", str(record)], capture_output=True, text=True, cwd=tmp_path)
    assert replay.returncode == 0, replay.stderr


def test_draws_monte_carlo_stops(tmp_path: Path) -> None:
    argv = [
        "draws",
        GOBLINS,
        "--need",
        "2 t:monster",
        "--need",
        "1 t:assist",
        "--trials",
        "10000000",
        "--by-turn",
        "28",
    ]
    code, _, err, _ = _interrupt([*argv, "--db", str(tmp_path / "c.db")], tmp_path, "", busy=main_busy(2.5))
    assert code == 130, err
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1] == "cardbase: interrupted"


def test_import_interrupted_writes_nothing(tmp_path: Path) -> None:
    from cardbase.db.models import short_id
    from tests.hostile.conftest import db_dump

    db = tmp_path / "c.db"
    subprocess.run([*CARDBASE, "catalog", "status", "--db", str(db)], check=True, capture_output=True)
    rows = ["name,type,cost,attack,defence,text"]
    short_ids: set[int] = set()
    for i in range(150_000):  # names whose 31-bit short ids differ, so the whole file is valid
        if (number := short_id(f"mea/core/card-{i}")) not in short_ids:
            short_ids.add(number)
            rows.append(f"Card {i},monster,{i % 9},{i % 5},{i % 4},Some text number {i}")
    (tmp_path / "big.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    before = db_dump(str(db))
    argv = ["catalog", "import", str(tmp_path / "big.csv"), "--game", "mea", "--db", str(db)]
    # Past the imports (about 1 s of CPU) and into the rows (about 8 s in all since rows go in many
    # to a statement; 40,000 rows took 9 s before).
    code, out, err, _ = _interrupt(argv, tmp_path, "", busy=main_busy(3.0), settle=0)
    assert "Traceback" not in err
    if f"inserted {len(rows) - 1}" in out.replace(",", ""):
        # The import finished first (a quick machine): every row is in, and the signal landed in the
        # interpreter's last moments (exit 0, or ended by SIGINT once Python has put its default back).
        assert code in (0, -signal.SIGINT), (code, err)
        return
    assert code == 130, err
    assert err.strip().splitlines()[-1] == "cardbase: interrupted"
    assert db_dump(str(db)) == before


# --- Round three: a signal at any moment, SIGTERM alike, and no temporary left -------------------


def _session_processes(session: int) -> list[int]:
    """The processes still alive in the command's session (its workers, had it left any)."""
    alive = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdecimal():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[3]) == session and fields[0] != "Z":
                alive.append(int(entry.name))
    return alive


def _start(argv: list[str], cwd: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*CARDBASE, *argv],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        start_new_session=True,
    )


def _finish(process: subprocess.Popen[str], signum: int) -> tuple[int, str]:
    """Send ``signum`` to the command's group; its exit code and stderr (a hang fails after HANG s)."""
    os.killpg(process.pid, signum)
    try:
        _, err = process.communicate(timeout=HANG)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        _, err = process.communicate()
        pytest.fail(f"still running {HANG} s after {signal.Signals(signum).name}: {err[-500:]}")
    return process.returncode, err


def _none_left(session: int) -> list[int]:
    """The session's processes still alive once those ending have ended (at most HANG s): its
    workers may still be exiting when the command's own process has."""
    deadline = time.monotonic() + HANG
    while (alive := _session_processes(session)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return alive


STOPPED = {signal.SIGINT: (130, "cardbase: interrupted"), signal.SIGTERM: (143, "cardbase: terminated")}


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize(
    "argv",
    [
        ["serve", "--port", "0"],
        ["print", "deck", GOBLINS, "-o", "out.pdf"],
        ["lab", "opening", GOBLINS, "--vs", TILES, "--games", "2"],
        ["lab", "cards", "--players", "2", "--assume", "default", "--games", "2"],
        ["cards", "search", "t:monster"],
    ],
    ids=["serve", "print", "lab-opening", "lab-cards", "search"],
)
def test_a_signal_while_the_command_starts_ends_it_in_one_line(argv: list[str], signum: int, tmp_path: Path) -> None:
    """Sent as soon as cardbase's handler is in place, that is while Typer, the command groups and
    what the command needs are still being imported: no KeyboardInterrupt traceback, ever."""
    process = _start([*argv, "--db", str(tmp_path / "c.db")], tmp_path)
    deadline = time.monotonic() + 30
    while not _handles(process.pid, signal.SIGTERM) and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.001)
    code, err = _finish(process, signum)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert (code, err.strip().splitlines()[-1]) == STOPPED[signum], err


def _mea_cards(db: Path) -> list[str]:
    from cardbase.db.engine import open_database

    database = open_database(str(db))
    try:
        with database.session() as session:
            names = session.execute(text("SELECT name FROM card WHERE game = 'mea' ORDER BY name")).scalars()
            return list(names)
    finally:
        database.engine.dispose()


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_export_images_stopped_leaves_no_temporary_and_the_earlier_export(signum: int, tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    deck = tmp_path / "all.txt"
    deck.write_text("game: mea\n" + "".join(f"1 {name}\n" for name in _mea_cards(db)), encoding="utf-8")
    export = ["export", "images", str(deck), "-o", "imgs", "--db", str(db)]
    earlier = subprocess.run([*CARDBASE, *export, "--dpi", "30"], cwd=tmp_path, capture_output=True, text=True)
    assert earlier.returncode == 0, earlier.stderr
    manifest = (tmp_path / "imgs" / "manifest.csv").read_bytes()
    process = _start([*export, "--dpi", "600", "--no-cache"], tmp_path)
    deadline = time.monotonic() + 60
    while not list(tmp_path.glob(".imgs.*")) and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert list(tmp_path.glob(".imgs.*")), "the export never started its temporary folder"
    code, err = _finish(process, signum)
    assert "Traceback" not in err, err
    assert (code, err.strip().splitlines()[-1]) == STOPPED[signum], err
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []  # no .imgs.<random>
    assert (tmp_path / "imgs" / "manifest.csv").read_bytes() == manifest  # the earlier export, whole
    assert _none_left(process.pid) == []  # the drawing processes stopped too


def test_a_clean_up_that_fails_while_ctrl_c_unwinds_is_reported_as_the_interruption(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A ``finally`` that runs SQL on the transaction Ctrl-C cut raises (SQLAlchemy's
    PendingRollbackError): the user interrupted, so that is what is said, not an internal error."""
    import typer

    from cardbase.cli.boundary import handle_command_error

    def cut() -> None:
        try:
            raise KeyboardInterrupt
        finally:
            raise RuntimeError("Can't reconnect until invalid transaction is rolled back")

    with pytest.raises(RuntimeError) as caught:
        cut()
    with pytest.raises(typer.Exit) as ended:
        handle_command_error(caught.value)
    assert ended.value.exit_code == 130
    assert capsys.readouterr().err == "cardbase: interrupted\n"
    with pytest.raises(typer.Exit) as bug:  # the same error with no interruption behind it is a bug
        handle_command_error(RuntimeError("boom"))
    assert bug.value.exit_code == 70


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_inside_install_itself_ends_in_one_line(signum: int, tmp_path: Path) -> None:
    """The handler is in place before ``install`` returns: a signal landing in its last steps is
    caught by the entry point like any other (CI once saw a traceback from that window)."""
    script = (
        "import os, signal\n"
        "from cardbase import interrupts\n"
        "from cardbase.cli import entry\n"
        "real = interrupts.install\n"
        "def install():\n"
        "    real()\n"
        f"    os.kill(os.getpid(), {int(signum)})\n"
        "    for _ in range(1000): pass\n"
        "interrupts.install = install\n"
        "entry.main()\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL
    )
    assert "Traceback" not in result.stderr, result.stderr
    assert (result.returncode, result.stderr.strip().splitlines()[-1]) == STOPPED[signum], result.stderr


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_landing_in_a_callback_python_ignores_still_ends_the_command(signum: int) -> None:
    """A signal whose KeyboardInterrupt is raised inside a weakref callback (the import system's module
    locks use one; CI saw "Exception ignored in: <function _get_module_lock.<locals>.cb>") is not lost
    nor printed: the command still ends with its one line and exit code."""
    script = (
        "import os, weakref\n"
        "from cardbase import interrupts\n"
        "from cardbase.cli import entry\n"
        "real = interrupts.install\n"
        "class Held: pass\n"
        "def install():\n"
        "    real()\n"
        "    held = Held()\n"
        f"    ref = weakref.ref(held, lambda _: os.kill(os.getpid(), {int(signum)}))\n"
        "    del held\n"
        "    for _ in range(100_000): pass\n"
        "interrupts.install = install\n"
        "entry.main()\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script, "cards", "search", "t:monster", "--db", ":memory:"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert "Traceback" not in result.stderr and "Exception ignored" not in result.stderr, result.stderr
    assert (result.returncode, result.stderr.strip().splitlines()[-1]) == STOPPED[signum], result.stderr


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize(
    ("maker", "argv"),
    [
        ("mkdtemp", ["export", "images", GOBLINS, "-o", "imgs", "--dpi", "30", "--db", ":memory:"]),
        ("mkstemp", ["deck", "export", GOBLINS, "--format", "arena", "-o", "deck.txt", "--db", ":memory:"]),
    ],
    ids=["folder", "file"],
)
def test_a_signal_right_after_the_temporary_is_made_leaves_none(
    maker: str, argv: list[str], signum: int, tmp_path: Path
) -> None:
    """A signal that lands the moment ``tempfile`` has made the output's temporary (before the
    command holds its name: CI once left ``.imgs.<random>`` so) still removes it."""
    script = (
        "import os, tempfile\n"
        "from cardbase.cli import entry\n"
        f"real = tempfile.{maker}\n"
        "def made(*args, **kwargs):\n"
        "    result = real(*args, **kwargs)\n"
        f"    os.kill(os.getpid(), {int(signum)})\n"
        "    for _ in range(1000): pass\n"
        "    return result\n"
        f"tempfile.{maker} = made\n"
        "entry.main()\n"
    )
    result = _patched_cli(script, [*argv], tmp_path)
    assert (result.returncode, result.stderr.strip().splitlines()[-1]) == STOPPED[signum], result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no temporary, and no output


def _patched_cli(script: str, argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """The command ``argv`` run by ``script`` (which patches what it must, then calls ``entry.main()``)
    in ``cwd``: its result, checked to hold no traceback."""
    result = subprocess.run(
        [sys.executable, "-c", script, *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert "Traceback" not in result.stderr, result.stderr
    return result


@pytest.mark.parametrize("step", ["connect", "link", "unlink"])
def test_a_signal_while_a_new_database_file_is_made_leaves_no_temporary(step: str, tmp_path: Path) -> None:
    """A new SQLite file is made under a temporary name beside it, then linked to its own
    (``db.engine._make_whole``); a Ctrl-C the moment the temporary is made, is linked, or is about to
    be removed leaves no ``.cardbase-new-…`` file in the user's folder (the last left one: the removal
    it cut was the temporary's own, a second name of the new database)."""
    # the signal lands right after the step, or (the removal) right before it
    script = (
        "import os, sqlite3\n"
        "from cardbase.cli import entry\n"
        f"module, name, before = {'sqlite3' if step == 'connect' else 'os'}, {step!r}, {step == 'unlink'}\n"
        "real = getattr(module, name)\n"
        "def signalled(path, *args, **kwargs):\n"
        "    ours = '.cardbase-new-' in os.fspath(path)\n"
        "    if ours and before:\n"
        "        os.kill(os.getpid(), 2)\n"
        "    result = real(path, *args, **kwargs)\n"
        "    if ours and not before:\n"
        "        os.kill(os.getpid(), 2)\n"
        "    for _ in range(1000): pass\n"
        "    return result\n"
        "setattr(module, name, signalled)\n"
        "entry.main()\n"
    )
    result = _patched_cli(script, ["deck", "list", "--db", "new.db"], tmp_path)
    assert (result.returncode, result.stderr.strip().splitlines()[-1]) == STOPPED[signal.SIGINT], result.stderr
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".cardbase-new-")] == []


def test_an_interrupt_anywhere_in_the_process_map_stops_it() -> None:
    """A Ctrl-C landing at any point of ``cores.map_in_processes`` on the parent's side (every 7th
    traced line of its own code and of the standard library's it runs, each in a new map; see
    ``interrupt_anywhere.py``) comes out as ``KeyboardInterrupt``, leaves no worker running and
    never hangs. With ``multiprocessing.Pool`` some points hung for good (the event lock of
    ``AsyncResult.get`` left taken) and others raised ``RuntimeError: release unlocked lock``."""
    try:
        done = subprocess.run(
            [sys.executable, "-m", "tests.hostile.interrupt_anywhere", "cardbase.cores", "7"],
            capture_output=True,
            text=True,
            timeout=900,
            cwd=REPO,
        )
    except subprocess.TimeoutExpired as stuck:
        out = stuck.stdout.decode() if isinstance(stuck.stdout, bytes) else stuck.stdout or ""
        pytest.fail(f"a map still running after 900 s: {out[-2000:]}")
    lines = done.stdout.splitlines()
    assert done.returncode == 0, done.stderr[-3000:]
    assert lines[0].startswith("points ") and int(lines[0].split()[1]) > 500, lines[:1]
    assert lines[1:] == ["end"], lines


def test_a_signal_in_the_last_moments_leaves_no_semaphore_for_the_tracker_to_warn_of() -> None:
    """``uv run cardbase serve`` stopped with Ctrl-C after a lab run: uv passes the SIGINT on, and its
    second copy landed while the interpreter shut down, where a signal exits at once (``quiet_exit``),
    skipping multiprocessing's exit handler: the resource tracker then printed "UserWarning:
    resource_tracker: There appear to be 5 leaked semaphore objects" under the command's last line.
    The semaphores of a spawned pool's queues are unlinked before that exit."""
    script = (
        "import multiprocessing, os, signal, sys\n"
        "from cardbase import interrupts\n"
        "interrupts.install()\n"
        "held = [multiprocessing.get_context('spawn').Lock() for _ in range(5)]\n"
        "interrupts.quiet_exit()\n"
        "print('cardbase: interrupted', file=sys.stderr, flush=True)\n"
        "os.kill(os.getpid(), signal.SIGINT)\n"
        "signal.pause()\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=HANG, stdin=subprocess.DEVNULL
    )
    assert result.returncode == 130, result.stderr
    assert result.stderr == "cardbase: interrupted\n", result.stderr


def test_a_forked_process_leaves_the_semaphores_of_the_process_it_came_from() -> None:
    """A forked server process unlinks its own pool's semaphores as it ends (``unlink_semaphores``), not
    those it inherited (multiprocessing's exit handlers run only in the process that made them): they
    are still the first process's, and a worker it spawns later opens one by name (a lab pool's queue);
    unlinked, that worker would fail to start."""
    script = (
        "import multiprocessing, os\n"
        "from cardbase import interrupts\n"
        "spawn = multiprocessing.get_context('spawn')\n"
        "lock = spawn.Lock()\n"
        "child = os.fork()\n"
        "if child == 0:\n"
        "    interrupts.unlink_semaphores()\n"
        "    os._exit(0)\n"
        "os.waitpid(child, 0)\n"
        "worker = spawn.Process(target=repr, args=(lock,))\n"
        "worker.start(); worker.join()\n"
        "print('worker', worker.exitcode, flush=True)\n"
    )
    script = "if __name__ == '__main__':\n" + "".join(f"    {line}\n" for line in script.splitlines())
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=HANG, stdin=subprocess.DEVNULL
    )
    assert result.returncode == 0 and result.stdout == "worker 0\n", result.stderr[-3000:]
