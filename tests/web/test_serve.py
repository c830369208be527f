"""``cardbase serve``: a port in use or a bad option is one line (exit 2); off loopback a token is
made and printed once; Ctrl-C stops it with exit 130."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from cardbase.cli.app import app
from tests.web.live import served_at, wait_until_serving

# A new connection for each request (handed to any process), given a minute rather than httpx's 5 s:
# on a busy machine the first POST /api/games took longer than 5 s (seen at load 11-12).
get, post = partial(httpx.get, timeout=60), partial(httpx.post, timeout=60)


def test_serve_runs_on_httptools_and_uvloop() -> None:
    """uvicorn's C parser (httptools) and, off Windows, libuv's event loop (uvloop), both dependencies, not
    the pure-Python h11 and asyncio's own loop that uvicorn falls back to (benchmarks/README.md, bench_team)."""
    from fastapi import FastAPI
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    from cardbase.web.deadlines import DeadlineProtocol
    from cardbase.web.serverlog import uvicorn_config

    config = uvicorn_config(FastAPI())
    config.load()
    assert config.http_protocol_class is DeadlineProtocol and issubclass(DeadlineProtocol, HttpToolsProtocol)
    if sys.platform != "win32":
        factory = config.get_loop_factory()
        assert factory is not None and factory.__module__ == "uvloop", factory


def test_a_port_in_use_is_one_line(db_url: str) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = CliRunner().invoke(app, ["serve", "--port", str(port), "--db", db_url])
    assert result.exit_code == 2
    assert result.output.strip().splitlines()[-1] == (
        f"cardbase: error: --port {port}: the port is in use on 127.0.0.1 (another cardbase serve?); "
        "give another --port"
    )


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--host", "no such host.invalid"], "--host"),
        (["--host", "nonexistent.invalid"], "--host 'nonexistent.invalid'"),
        (["--token", "short"], "--token must be 16 to 200 characters"),
        (["--token", "x" * 20 + " y"], "--token must be printable ASCII"),
        (["--port", "-1"], "--port"),
        (["--port", "70000"], "--port"),
        (["--formats", "no-such-formats.toml"], "no-such-formats.toml"),
        (["--formats", "README.md"], "README.md"),
    ],
)
def test_bad_options_are_one_line(db_url: str, args: list[str], said: str) -> None:
    result = CliRunner().invoke(app, ["serve", *args, "--db", db_url])
    assert result.exit_code == 2 and said in result.output and "Traceback" not in result.output


def test_port_0_serves_on_a_port_the_system_picks_and_prints_it(tmp_path: Path) -> None:
    """``--port 0``: the server binds a free port before it prints, and its first line names the real
    address, which answers (the Host check expects that port, not 0)."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    argv = [sys.executable, "-m", "cardbase", "serve", "--port", "0", "--db", str(tmp_path / "c.db")]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
    try:
        base = served_at(proc)
        port = int(base.rsplit(":", 1)[1])
        assert base == f"http://127.0.0.1:{port}" and port > 0, base
        wait_until_serving(base, proc, 60)
        assert get(f"{base}/cards").status_code == 200
    finally:
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert "Traceback" not in err, err


def test_two_ctrl_cs_at_once_stop_the_server_as_one_does(tmp_path: Path) -> None:
    """``uv run cardbase serve`` stopped with Ctrl-C: uv passes the terminal's SIGINT on to the server,
    which so gets two for one press; uvicorn takes the second for a forced exit, skipped the app's
    shutdown and left its lifespan task to be cancelled as the loop closed: Starlette reported that as
    a traceback on the terminal (2 stops in 3 under the README's command). Now the two end as one."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    argv = [sys.executable, "-m", "cardbase", "serve", "--port", "0", "--db", str(tmp_path / "c.db")]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
    try:
        wait_until_serving(served_at(proc), proc, 60)
    finally:
        proc.send_signal(signal.SIGINT)
        proc.send_signal(signal.SIGINT)  # as uv forwards it: at once
        _out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert err.strip() == "cardbase: interrupted", err


def test_workers_stopped_leave_nothing_for_the_resource_tracker_to_warn_of(tmp_path: Path) -> None:
    """``cardbase serve --workers 2`` stopped with Ctrl-C printed "UserWarning: resource_tracker: There
    appear to be 5 leaked semaphore objects" after its last line: the forked process ended with
    ``os._exit``, skipping the handler that unlinks its lab pool's semaphores. Now its one line only."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    argv = [sys.executable, "-m", "cardbase", "serve", "--port", "0", "--workers", "2", "--db", str(tmp_path / "c.db")]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
    try:
        wait_until_serving(served_at(proc), proc, 60)
    finally:
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert err == "cardbase: interrupted\n", err


SILENT = "import sys, time; print('cardbase: stuck', file=sys.stderr, flush=True); open('said', 'w'); time.sleep(60)"


@pytest.mark.parametrize(
    ("script", "said"),
    [
        (
            "import sys; sys.exit('cardbase: error: no such database')",
            "ended (exit 1) before its address: 'cardbase: error: no such database\\n'",
        ),
        ("import time; print('hello', flush=True); time.sleep(60)", "names no address: b'hello\\n'"),
        (SILENT, "printed no address within 1 s; its stderr: 'cardbase: stuck\\n'"),
    ],
    ids=["ends", "another line", "silent"],
)
def test_a_server_that_prints_no_address_fails_the_test_with_its_stderr(script: str, said: str, tmp_path: Path) -> None:
    """The tests' one way to find a server's address waits a bounded time, and says why it found none,
    with what the server wrote to stderr (a process that never prints is killed, not waited for)."""
    argv = [sys.executable, "-c", script]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        seconds = 120.0
        if script == SILENT:  # once it has said it is stuck, waited for a little
            deadline = time.monotonic() + 120
            while not (tmp_path / "said").exists():
                assert proc.poll() is None and time.monotonic() < deadline
                time.sleep(0.05)
            seconds = 1
        with pytest.raises(AssertionError, match="cardbase serve") as failed:
            served_at(proc, seconds)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate(timeout=30)
    assert said in str(failed.value), failed.value


def test_off_loopback_a_token_is_made_printed_once_and_required(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    env.pop("CARDBASE_TOKEN", None)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "cardbase",
            "serve",
            "--host",
            "0.0.0.0",
            "--port",
            "0",
            "--db",
            str(tmp_path / "c.db"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    try:
        assert proc.stdout is not None
        base = served_at(proc)  # the first line: http://HOSTNAME:PORT/, read at 127.0.0.1
        port = base.rsplit(":", 1)[1]
        lines = [proc.stdout.readline()]
        found = re.search(r"open (http://\S+:(\d+)/\?token=(\S+)) once", lines[0])
        assert found and found.group(2) == port, lines
        token = found.group(3)
        first = get(f"{base}/healthz")
        assert first.status_code == 401 and token not in first.text
        with httpx.Client(base_url=base, timeout=60) as browser:
            assert browser.get(f"/?token={token}").status_code == 200
            assert browser.get("/healthz").status_code == 200
        assert httpx.get(f"{base}/healthz", headers={"Authorization": f"Bearer {token}"}, timeout=60).status_code == 200
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert err.strip().splitlines()[-1] == "cardbase: interrupted" and "Traceback" not in err
    assert (lines[0] + out + err).count(token) == 1  # printed once, never logged


def test_workers_share_the_builder_and_pass_play_to_the_first_process(tmp_path: Path) -> None:
    """``--workers 3``: every connection (a new one each time, handed to any of the processes) finds a game
    made through another; its moves and event stream work from any of them; a deck change shows at once
    on every process; SIGINT to the first stops them all."""
    from tests.web.play_helpers import sse_views

    env = dict(os.environ, PYTHONUNBUFFERED="1")
    argv = [sys.executable, "-m", "cardbase", "serve", "--port", "0", "--db", str(tmp_path / "c.db")]
    proc = subprocess.Popen(
        [*argv, "--workers", "3"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path
    )
    try:
        base = served_at(proc)
        wait_until_serving(base, proc, 60)
        body = {"game": "meio", "seats": [{"agent": "human"}, {"agent": "human"}]}
        made = post(f"{base}/api/games", json=body)
        assert made.status_code == 201, made.text
        game_id = made.json()["id"]
        keys = {s["seat"]: s["key"] for s in made.json()["seats"]}
        seen = [get(f"{base}/api/games/{game_id}").status_code for _ in range(12)]
        assert seen == [200] * 12  # a process without the table would answer 404
        assert get(f"{base}/play/{game_id}", params={"key": keys[0]}).status_code == 200
        for _ in range(3):
            with httpx.stream("GET", f"{base}/api/games/{game_id}/events", timeout=60) as events:
                assert events.status_code == 200 and events.headers["content-type"].startswith("text/event-stream")
                text = ""
                for line in events.iter_lines():
                    text += line + "\n"
                    if not line and "event: view" in text:
                        break
            assert len(sse_views(text)) == 1
        for _ in range(4):  # moves, each on a new connection
            now = get(f"{base}/api/games/{game_id}").json()
            mover = keys[now["current_player"]]
            move = {"id": 0, "version": now["version"]}
            moved = post(f"{base}/api/games/{game_id}/actions", json=move, headers={"Authorization": f"Seat {mover}"})
            assert moved.status_code == 200, moved.text
            assert get(f"{base}/api/games/{game_id}").json()["version"] > now["version"]
        deck = post(f"{base}/api/decks", json={"game": "mea", "name": "Team"}).json()["id"]
        for n in range(1, 7):
            added = post(f"{base}/api/decks/{deck}/cards", json={"name": "Selounticia"})
            assert added.status_code == 200, added.text
            page = get(f"{base}/decks/{deck}")
            assert f'data-version="{n + 1}"' in page.text  # no process shows an older version
    finally:
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert "Traceback" not in err, err
    with pytest.raises(httpx.TransportError):  # no process is left listening
        httpx.get(f"{base}/healthz", timeout=2)


def test_workers_take_the_builders_edits_in_turn(tmp_path: Path) -> None:
    """``--workers 2``: edits sent at once from one version of a deck, each on its own connection (handed to
    either process), make one version: one is taken, the others are refused as made from an old version
    (412), checked under the deck's row lock whichever process takes them. Edits made one after another,
    each from the version the last answer showed, are all taken, through either process, and every process
    then shows the same panels."""
    import threading

    argv = [sys.executable, "-m", "cardbase", "serve", "--port", "0", "--db", str(tmp_path / "c.db")]
    proc = subprocess.Popen(
        [*argv, "--workers", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path
    )
    try:
        base = served_at(proc)
        wait_until_serving(base, proc, 60)
        deck = post(f"{base}/api/decks", json={"game": "mea", "name": "Team"}).json()["id"]
        card = get(f"{base}/api/cards", params={"q": "game:mea t:monster", "limit": 1}).json()[0]["id"]
        taken = 0
        for _ in range(4):
            shown = get(f"{base}/api/decks/{deck}").json()["info"]["version"]
            form = {"card": card, "op": "add", "fragment": "1", "version": str(shown)}
            codes: list[int] = []

            def send(form: dict[str, str] = form, codes: list[int] = codes) -> None:
                codes.append(post(f"{base}/decks/{deck}/cards", data=form).status_code)

            threads = [threading.Thread(target=send) for _ in range(6)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert sorted(codes) == [200] + [412] * 5, codes
            taken += 1
        shown = get(f"{base}/api/decks/{deck}").json()["info"]["version"]
        for n in range(8):  # each from the version the answer before showed, alternately adding and removing
            form = {"card": card, "op": "dec" if n % 2 else "add", "fragment": "1", "version": str(shown)}
            answer = post(f"{base}/decks/{deck}/cards", data=form)
            assert answer.status_code == 200 and f'data-version="{shown + 1}"' in answer.text, answer.text[:300]
            shown += 1
        assert get(f"{base}/api/decks/{deck}").json()["cards"][0]["count"] == taken
        panels = {get(f"{base}/decks/{deck}", params={"fragment": "panels"}).text for _ in range(8)}
        assert len(panels) == 1 and f'data-version="{shown}"' in panels.pop()
    finally:
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=30)
    assert "Traceback" not in err, err


@pytest.mark.skipif(sys.platform != "linux", reason="workers end with the first process through Linux's prctl")
def test_workers_end_when_the_first_process_is_killed(tmp_path: Path) -> None:
    argv = [sys.executable, "-m", "cardbase", "serve", "--port", "0", "--db", str(tmp_path / "c.db")]
    proc = subprocess.Popen([*argv, "--workers", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path)
    base = served_at(proc)
    wait_until_serving(base, proc, 60)
    proc.kill()
    proc.wait(10)
    deadline = time.monotonic() + 20
    while True:  # the worker, which shares the socket, ends too: nothing answers on the port
        try:
            httpx.get(f"{base}/healthz", timeout=1)
        except httpx.TransportError:
            break
        assert time.monotonic() < deadline, "a worker still answers after the first process was killed"
        time.sleep(0.2)
    proc.communicate(timeout=30)  # every process holding its output has ended


def test_the_web_benchmarks_serve_on_a_port_the_system_picks(tmp_path: Path) -> None:
    """benchmarks/bench_web.py (and bench_team, bench_play through it) start ``cardbase serve --port 0``
    and read the address it prints: a port found free and then given to the server could be taken
    in between by another process (they had raced for it through ``free_port``)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "bench_web", Path(__file__).parents[2] / "benchmarks" / "bench_web.py"
    )
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert not hasattr(bench, "free_port")
    server = bench.serve(tmp_path / "bench.db", tmp_path)
    try:
        assert re.fullmatch(r"http://127\.0\.0\.1:[1-9]\d*", server.base), server.base
        assert get(f"{server.base}/healthz").status_code == 200
    finally:
        server.stop()
    assert server.proc.returncode is not None
