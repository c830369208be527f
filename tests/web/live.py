"""A real uvicorn server over the app, in this process, on a free port (as streamlit's e2e fixture)."""

from __future__ import annotations

import dataclasses
import re
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from cardbase.web.settings import ServerSettings


@contextmanager
def serving(app: Any, sock: socket.socket) -> Iterator[None]:
    """Serve the ASGI ``app`` on the listening ``sock`` with ``cardbase serve``'s uvicorn settings (its
    HTTP protocol and deadlines included) in a thread of this process, until the block ends."""
    import uvicorn

    from cardbase.web.serverlog import uvicorn_config

    config = uvicorn_config(app, graceful_seconds=2)
    if not hasattr(app, "router"):
        config.lifespan = "off"  # a bare ASGI function of a test: no lifespan events
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield
    finally:
        server.should_exit = True
        thread.join(30)


def free_socket() -> socket.socket:
    """A socket bound to a free loopback port (``getsockname()[1]``), for :func:`serving`."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    return sock


@contextmanager
def live_app(settings: ServerSettings) -> Iterator[tuple[str, Any]]:
    """Serve ``settings``'s app on a free loopback port until the block ends; yields its base URL and
    the app (whose ``state`` a test may look into)."""
    from cardbase.web.app import create_app

    with free_socket() as sock:
        settings = dataclasses.replace(settings, host="127.0.0.1", port=sock.getsockname()[1])
        app = create_app(settings)
        with serving(app, sock):  # as cardbase serve
            yield settings.base_url, app


@contextmanager
def live_server(settings: ServerSettings, apps: list[Any] | None = None) -> Iterator[str]:
    """Serve ``settings``'s app on a free loopback port until the block ends; yields its base URL
    (and appends the app to ``apps``, for a test that looks inside it)."""
    with live_app(settings) as (base, app):
        if apps is not None:
            apps.append(app)
        yield base


@contextmanager
def lock_held(url: str, postgres_lock: str, params: dict[str, Any] | None = None) -> Iterator[None]:
    """Another connection holds a lock that writes need until the block ends: SQLite's write lock
    (``BEGIN IMMEDIATE``; reads still go through, WAL), or on PostgreSQL the lock that the statement
    ``postgres_lock`` takes (a row's ``SELECT … FOR UPDATE``, a table's ``LOCK … IN SHARE MODE``)."""
    from sqlalchemy import create_engine, make_url, text

    if url.startswith("sqlite"):
        import sqlite3

        holder = sqlite3.connect(make_url(url).database or "", isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            holder.rollback()
            holder.close()
        return
    engine = create_engine(url)
    try:
        with engine.connect() as conn, conn.begin():
            conn.execute(text(postgres_lock), params or {})
            yield
    finally:
        engine.dispose()


def lock_waiters(engine: Any) -> int:
    """How many sessions of ``engine``'s PostgreSQL database wait for a lock (a connection of its own)."""
    from sqlalchemy import text

    with engine.connect() as conn:
        found = conn.execute(
            text(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()"
            )
        ).scalar()
    return int(found or 0)


def wait_until_serving(base: str, proc: Any, seconds: float) -> None:
    """Wait for ``cardbase serve`` (the process ``proc``) to answer ``/healthz`` at ``base``; a test
    failure if the process ends or ``seconds`` pass first, with what it wrote to stderr if it ended."""
    import httpx

    deadline = time.monotonic() + seconds
    while True:
        try:
            if httpx.get(f"{base}/healthz", timeout=60).status_code == 200:
                return
        except httpx.TransportError:
            pass
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, f"cardbase serve did not answer at {base} within {seconds} s"
        time.sleep(0.2)


SERVING_LINE = re.compile(r"cardbase: serving on (http://(\S+):(\d+))/ \(Ctrl-C stops\)")
"""The first line ``cardbase serve`` prints once its port is taken (``cardbase/cli/serve.py``)."""


def served_at(proc: Any, seconds: float = 120) -> str:
    """The address ``cardbase serve`` (the process ``proc``, its stdout a pipe, usually started with
    ``--port 0``) is serving at, read from its first line: ``http://HOST:PORT`` (``127.0.0.1`` in place of
    a host name: a server on every interface answers there too). A test failure with the server's stderr
    if it ends first or prints something else, or if ``seconds`` pass first. The line is read from the pipe
    byte by byte, so the rest of stdout is still there for ``readline`` or ``communicate``."""
    import ipaddress
    import os
    import select

    fd = proc.stdout.fileno()
    deadline = time.monotonic() + seconds
    line = b""
    while not line.endswith(b"\n"):
        left = deadline - time.monotonic()
        ready = select.select([fd], [], [], max(left, 0))[0] if left > 0 else []
        if not ready:
            proc.kill()
            _out, err = proc.communicate(timeout=60)
            raise AssertionError(f"cardbase serve printed no address within {seconds} s; its stderr: {err!r}")
        byte = os.read(fd, 1)
        if not byte:
            _out, err = proc.communicate(timeout=60)
            raise AssertionError(f"cardbase serve ended (exit {proc.returncode}) before its address: {err!r}")
        line += byte
    found = SERVING_LINE.fullmatch(line.decode().strip())
    if found is None:
        proc.kill()
        _out, err = proc.communicate(timeout=60)
        raise AssertionError(f"cardbase serve's first line names no address: {line!r}; its stderr: {err!r}")
    host = found.group(2)
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:  # a host name: served on every interface, so on loopback too
        host = "127.0.0.1"
    return f"http://{host}:{found.group(3)}"
