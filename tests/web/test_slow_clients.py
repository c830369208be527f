"""Slow clients cannot hold the server (``cardbase.web.deadlines``): a request's headers must arrive in
time, a body may not stall, a connection that says nothing is closed; the server keeps serving, and
none of it is a crash. The deadlines are shortened here; the real ones are tens of seconds.

A deadline that is not a test's point is long (PATIENCE), so that a stall of this process's threads (the
test's, or the server's: one interpreter) cannot cut a client off; where the header deadline is the point,
the server's own clock says whether the request's first byte came in time, and an attempt whose bytes came
after it (the test thread stalled between connecting and sending) tested nothing and is made again."""

from __future__ import annotations

import asyncio
import os
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import httpx
import pytest
from starlette.types import Receive, Scope, Send

from cardbase.db.engine import Database
from cardbase.web.deadlines import DeadlineProtocol, raise_open_file_limit
from cardbase.web.settings import ServerSettings
from tests.web.live import free_socket, live_server, serving

SHORT = 0.6
PATIENCE = 30.0  # how long a test waits for the server to act (a bound on a hang, not a timing)
ATTEMPTS = 5  # attempts whose request came after the server's header deadline, before the test gives up
T = TypeVar("T")


@pytest.fixture
def base(database: Database, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setattr(DeadlineProtocol, "header_seconds", SHORT)
    monkeypatch.setattr(DeadlineProtocol, "body_idle_seconds", SHORT)
    with live_server(ServerSettings(database=database)) as url:
        yield url


@pytest.fixture
def header_deadlines(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Each header deadline the server's clock reached, in turn: whether it had heard a byte on that
    connection by then (``False``: the test's bytes came after it, so that connection tested nothing)."""
    passed: list[bool] = []
    late = DeadlineProtocol._headers_late

    def recorded(self: DeadlineProtocol) -> None:
        passed.append(self._heard or self.cycle is not None)  # a request begun, or one read before
        late(self)

    monkeypatch.setattr(DeadlineProtocol, "_headers_late", recorded)
    return passed


def until_heard_in_time(attempt: Callable[[], T], header_deadlines: list[bool]) -> T:
    """What ``attempt`` (one connection's exchange) gave, made again while the server's header deadline
    passed before it heard the request: a stall of this process longer than SHORT between connecting and
    sending, which the test did not mean (a server that never hears a request fails here)."""
    for _ in range(ATTEMPTS):
        header_deadlines.clear()
        got = attempt()
        if False not in header_deadlines:
            return got
    pytest.fail(f"in {ATTEMPTS} attempts the server's header deadline passed before it heard the request")


def _patient(monkeypatch: pytest.MonkeyPatch) -> None:
    """New connections get long deadlines: a check after the test's point that the server keeps serving
    is not cut off by a stall of this process."""
    monkeypatch.setattr(DeadlineProtocol, "header_seconds", PATIENCE)
    monkeypatch.setattr(DeadlineProtocol, "body_idle_seconds", PATIENCE)


def _connect(base: str) -> socket.socket:
    host, port = base.removeprefix("http://").rstrip("/").rsplit(":", 1)
    sock = socket.create_connection((host, int(port)), timeout=PATIENCE)
    return sock


def _read_to_end(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (a hang fails at PATIENCE)."""
    got = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return got
        got += chunk


def _crash_files() -> set[str]:
    folder = Path(os.environ.get("TMPDIR", "/tmp"))
    return {p.name for p in folder.glob("cardbase-crash-*")}


def test_headers_that_never_finish_get_408_and_the_connection_closed(
    base: str, header_deadlines: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    def attempt() -> bytes:
        with _connect(base) as slow:
            try:
                slow.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1\r\n")
                return _read_to_end(slow)
            except ConnectionError:  # closed before the bytes came (an attempt made again)
                return b""

    answer = until_heard_in_time(attempt, header_deadlines)
    assert header_deadlines == [True]
    assert answer.startswith(b"HTTP/1.1 408 "), answer[:200]
    assert b"did not arrive within" in answer
    _patient(monkeypatch)
    assert httpx.get(f"{base}/healthz", timeout=PATIENCE).status_code == 200


def test_a_header_line_now_and_then_does_not_extend_the_deadline(base: str, header_deadlines: list[bool]) -> None:
    def attempt() -> int | None:
        """The beat at which the server closed the connection, or None if it never did."""
        with _connect(base) as slow:
            try:
                slow.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            except ConnectionError:
                return 0
            for beat in range(40):  # a line every 0.2 s: 8 s of a slowloris unless cut off
                time.sleep(SHORT / 3)
                try:
                    slow.sendall(f"X-Beat-{beat}: 1\r\n".encode())
                except OSError:
                    return beat
                slow.settimeout(0.01)
                try:
                    if slow.recv(65536) == b"":
                        return beat
                except TimeoutError:
                    pass
                except OSError:
                    return beat
                finally:
                    slow.settimeout(PATIENCE)
        return None

    closed_after = until_heard_in_time(attempt, header_deadlines)
    assert closed_after is not None and closed_after < 39, "a slowloris kept its connection"
    assert header_deadlines == [True]  # cut off by the header deadline, having heard the request begin


def test_a_silent_connection_is_closed_without_an_answer(base: str) -> None:
    with _connect(base) as silent:
        assert _read_to_end(silent) == b""


def test_a_stalled_body_ends_the_request_and_is_no_crash(base: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(DeadlineProtocol, "header_seconds", PATIENCE)  # the body's deadline is the point
    before = _crash_files()
    with _connect(base) as slow:
        slow.sendall(
            b"POST /decks HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nname=half"
        )
        answer = _read_to_end(slow)
    assert b" 500 " not in answer.split(b"\r\n", 1)[0], answer[:300]
    assert _crash_files() == before
    _patient(monkeypatch)
    assert httpx.get(f"{base}/healthz", timeout=PATIENCE).status_code == 200


def _answer(sock: socket.socket) -> bytes:
    """One answer on a kept-alive connection: its head and its body (by its Content-Length)."""
    got = b""
    while b"\r\n\r\n" not in got:
        chunk = sock.recv(65536)
        if not chunk:
            return got
        got += chunk
    head, body = got.split(b"\r\n\r\n", 1)
    fields = (line.partition(b":") for line in head.split(b"\r\n")[1:])
    length = next(int(value) for name, _, value in fields if name.strip().lower() == b"content-length")
    while len(body) < length and (chunk := sock.recv(65536)):
        body += chunk
    return head + b"\r\n\r\n" + body


def test_kept_alive_requests_each_get_their_own_deadline(base: str, header_deadlines: list[bool]) -> None:
    """Three requests on one connection, which lives longer than one header deadline: each is timed alone."""
    host = base.removeprefix("http://")

    def attempt() -> list[bytes]:
        answers = []
        with _connect(base) as kept:
            try:
                for _ in range(3):
                    kept.sendall(f"GET /healthz HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
                    answers.append(_answer(kept))
                    time.sleep(SHORT / 2)  # idle between requests: no header deadline runs
            except ConnectionError:
                pass
        return answers

    answers = until_heard_in_time(attempt, header_deadlines)
    assert [a.split(b"\r\n", 1)[0] for a in answers] == [b"HTTP/1.1 200 OK"] * 3, answers
    assert header_deadlines == []  # none passed on the connection while it was idle between requests


def test_serve_raises_its_open_file_limit() -> None:
    resource = pytest.importorskip("resource", reason="no open-file limit on this platform")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        lower = min(soft, 256) if soft != resource.RLIM_INFINITY else 256
        resource.setrlimit(resource.RLIMIT_NOFILE, (lower, hard))
        raised = raise_open_file_limit(ceiling=4096)
        now = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        expected = 4096 if hard == resource.RLIM_INFINITY else min(hard, 4096)
        assert raised == now == expected
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_client_that_stops_reading_is_cut_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """An answer larger than every buffer on the way, to a client that reads none of it: the server
    drops the connection once writing has stalled for the deadline (its task would wait forever)."""
    monkeypatch.setattr(DeadlineProtocol, "write_stall_seconds", SHORT)
    size = 64 << 20
    finished: list[bool] = []

    async def big(scope: Scope, receive: Receive, send: Send) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", str(size).encode())]})
        chunk = b"x" * (1 << 20)
        try:
            for _ in range(size >> 20):
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
            await send({"type": "http.response.body", "body": b""})
        finally:
            finished.append(True)

    with free_socket() as listening, serving(big, listening):
        reader = socket.socket()
        reader.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        reader.settimeout(PATIENCE)
        reader.connect(listening.getsockname())
        with reader:
            reader.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            deadline = time.monotonic() + PATIENCE
            while not finished and time.monotonic() < deadline:  # the app's task ends: the server gave up
                time.sleep(0.05)
            assert finished, "the server still waits on a client that reads nothing"
            got = 0
            try:
                while chunk := reader.recv(1 << 20):
                    got += len(chunk)
            except ConnectionResetError:
                pass
            assert got < size


def test_a_client_waiting_for_100_continue_is_not_cut_off_while_the_app_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    """``Expect: 100-continue`` (curl sends it for bodies over 1 MB): the client sends its body only once
    the app asks for it, so the time before that is the app's, not a stalled body."""
    monkeypatch.setattr(DeadlineProtocol, "body_idle_seconds", SHORT)
    checks: list[bool] = []  # each time the server's clock reached the body's idle deadline
    stalled = DeadlineProtocol._body_stalled

    def counted(self: DeadlineProtocol) -> None:
        checks.append(True)
        stalled(self)

    monkeypatch.setattr(DeadlineProtocol, "_body_stalled", counted)

    async def slow_reader(scope: Scope, receive: Receive, send: Send) -> None:
        # Busy (a write turn, say) before it reads the body, for two idle windows by the server's clock.
        for _ in range(int(PATIENCE / 0.01)):
            if len(checks) >= 2:
                break
            await asyncio.sleep(0.01)
        # From the ask, the client's window is long: this test's thread may stall before it sends.
        monkeypatch.setattr(DeadlineProtocol, "body_idle_seconds", PATIENCE)
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        said = str(len(body)).encode()
        await send(
            {"type": "http.response.start", "status": 200, "headers": [(b"content-length", str(len(said)).encode())]}
        )
        await send({"type": "http.response.body", "body": said})

    with free_socket() as listening, serving(slow_reader, listening):
        with socket.create_connection(listening.getsockname(), timeout=PATIENCE) as client:
            client.sendall(b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
            assert client.recv(65536).startswith(b"HTTP/1.1 100 ")
            client.sendall(b"hello")
            client.shutdown(socket.SHUT_WR)
            answer = _read_to_end(client)
        assert answer.startswith(b"HTTP/1.1 200 ") and answer.endswith(b"\r\n\r\n5"), answer
        assert len(checks) >= 2  # the app's time passed the body's deadline twice before it asked


def test_a_client_asked_to_continue_gets_a_whole_idle_window_from_the_ask() -> None:
    """The body's idle time starts when the app asks for the body (100 Continue sent): the check that
    finds the app asked since the last one gives the client a whole window more, not the rest of one
    that began while the app was busy (the client above was cut off as its 100 Continue went, about
    one run in eight: the window's end fell just after the app's ask). The protocol's timers by hand."""
    from types import SimpleNamespace

    class Loop:
        def call_later(self, seconds: float, then: object) -> SimpleNamespace:
            return SimpleNamespace(cancel=lambda: None)

    class Transport:
        closed = False

        def is_closing(self) -> bool:
            return self.closed

        def close(self) -> None:
            self.closed = True

    protocol = DeadlineProtocol.__new__(DeadlineProtocol)
    transport = Transport()
    cycle = SimpleNamespace(waiting_for_100_continue=True)
    vars(protocol).update(loop=Loop(), transport=transport, flow=SimpleNamespace(read_paused=False), cycle=cycle)
    protocol._reading_body = True
    protocol._body_stalled()  # the app has not asked for the body: the client waits for it
    assert not transport.closed
    cycle.waiting_for_100_continue = False  # the app asks (100 Continue sent) within this window
    protocol._body_stalled()
    assert not transport.closed, "cut off as it was asked for its body"
    protocol._body_stalled()  # a whole window since, and no byte of the body
    assert transport.closed
