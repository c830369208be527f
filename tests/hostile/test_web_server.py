"""A real server under a hostile load, on SQLite and (with CARDBASE_TEST_POSTGRES) PostgreSQL: other
requests answer while a large upload arrives and while a catalog import runs, and a ``cardbase
serve`` killed with SIGKILL in the middle of writes leaves a consistent database.

Orders, not durations: the test holds what the slow request waits for (the rest of its body, the
database lock) until the other requests have answered; timeouts only fail a test that would hang.
"""

from __future__ import annotations

import base64
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from cardbase.db.engine import Database
from cardbase.web.settings import ServerSettings
from tests.web.live import live_app, lock_held, lock_waiters, served_at, wait_until_serving

GUARD = 120  # seconds: only a failed test waits this long
ROWS = 5_000


def sheet(rows: int = ROWS) -> bytes:
    """A catalog CSV of ``rows`` new Méa monsters (made for this test)."""
    lines = ["name,type,cost,attack,defence,set"]
    lines += [f"Upload Newt {i},monster,{i % 9},{i % 7},{i % 5},hostile" for i in range(rows)]
    return ("\n".join(lines) + "\n").encode()


@contextmanager
def holding_card_writes(database: Database) -> Iterator[None]:
    """Another connection keeps writes to the card table waiting (SQLite's write lock; on PostgreSQL a
    SHARE lock on ``card``, which reads pass)."""
    with lock_held(database.engine.url.render_as_string(hide_password=False), "LOCK TABLE card IN SHARE MODE"):
        yield


def import_is_waiting(database: Database) -> bool:
    """Whether a write (the import) is inside its transaction, waiting for the lock the test holds."""
    if database.engine.dialect.name == "sqlite":
        got = database._writers.acquire(blocking=False)  # held by the import's worker thread while it waits
        if got:
            database._writers.release()
        return not got
    return lock_waiters(database.engine) > 0


def wait_until(condition: Any, what: str) -> None:
    deadline = time.monotonic() + GUARD
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"never happened: {what}")
        time.sleep(0.02)


@pytest.mark.parametrize("face", ["page", "api"])
def test_requests_answer_while_a_catalog_import_runs(database: Database, tmp_path: Path, face: str) -> None:
    """The page's and the API's import run in a worker thread: while one waits for the database (the
    test holds the lock), the health check, a search and a page answer; then it imports every row."""
    data = sheet()
    with live_app(ServerSettings(database=database, images=tmp_path, lock_wait=GUARD)) as (base, _app):
        result: list[httpx.Response] = []
        if face == "page":
            form = {"game": "mea", "payload": base64.b64encode(data).decode(), "filename": "newts.csv", "confirm": "1"}
            call = lambda: httpx.post(f"{base}/catalog/import", data=form, timeout=GUARD)  # noqa: E731
        else:
            files = {"file": ("newts.csv", data)}
            call = lambda: httpx.post(f"{base}/api/catalog/import", data={"game": "mea"}, files=files, timeout=GUARD)  # noqa: E731
        with holding_card_writes(database):
            worker = threading.Thread(target=lambda: result.append(call()), daemon=True)
            worker.start()
            wait_until(lambda: import_is_waiting(database), "the import waits for the lock")
            with httpx.Client(base_url=base, timeout=GUARD) as http:
                for path in ("/healthz", "/api/cards?q=goblin", "/cards?q=goblin", "/api/decks"):
                    assert http.get(path).status_code == 200, path
            assert result == []  # the import is still running: the others answered first
        worker.join(GUARD)
        assert len(result) == 1 and result[0].status_code == 200, result[0].text[:300] if result else "no answer"
        with httpx.Client(base_url=base, timeout=GUARD) as http:
            assert http.get("/api/cards/count", params={"q": "set:hostile"}).json() == {"count": ROWS}


def test_requests_answer_while_a_large_upload_arrives(database: Database, tmp_path: Path) -> None:
    """A client sends half of a 4 MB upload and stops: the server answers others meanwhile, then takes
    the rest and imports it."""
    boundary = "cardbaseboundary"
    flavour = "A newt of the upload and long of tail. " * 19  # 720 characters a row: 5,000 rows are 3.8 MB
    data = (
        "name,type,cost,attack,defence,set,description\n"
        + "".join(f"Upload Newt {i},monster,1,1,1,hostile,{flavour}\n" for i in range(ROWS))
    ).encode()
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="game"\r\n\r\nmea\r\n'
            f'--{boundary}\r\nContent-Disposition: form-data; name="dry_run"\r\n\r\ntrue\r\n'
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\n'
            "Content-Type: text/csv\r\n\r\n"
        ).encode()
        + data
        + f"\r\n--{boundary}--\r\n".encode()
    )
    assert 3_000_000 < len(body) < 5_000_000
    with live_app(ServerSettings(database=database, images=tmp_path)) as (base, _app):
        host, port = base.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=GUARD) as upload:
            head = (
                f"POST /api/catalog/import HTTP/1.1\r\nHost: {host}:{port}\r\n"
                f"Content-Type: multipart/form-data; boundary={boundary}\r\nContent-Length: {len(body)}\r\n\r\n"
            )
            upload.sendall(head.encode() + body[: len(body) // 2])
            with httpx.Client(base_url=base, timeout=GUARD) as http:
                for path in ("/healthz", "/api/cards?q=goblin", "/decks"):
                    assert http.get(path).status_code == 200, path
            upload.sendall(body[len(body) // 2 :])
            answer = b""
            while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
                chunk = upload.recv(65536)
                if not chunk:
                    break
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 200"), answer[:300]
        assert b'"dry_run":true' in answer and f'"rows":{ROWS}'.encode() in answer


# --- kill -9 ----------------------------------------------------------------------------------------

DECK = "game: mea\n" + "".join(
    f"4 {name}\n"
    for name in (
        "Anvil Drop",
        "Bard of Bad Tidings",
        "Barrel Bandit",
        "Battle Hymn",
        "Berserk Beekeeper",
        "Bramble Bear",
        "Crumb Goblin",
        "Dizzy Bat",
    )
)
DECK_CARDS = 32


def test_kill_9_mid_write_leaves_the_database_consistent(db_url: str, tmp_path: Path) -> None:
    """``cardbase serve`` (a real process) takes whole-deck imports and single adds from four clients;
    after SIGKILL, every stored deck has all its cards or is not there, each add is there exactly
    with its version, and every answered write is stored."""
    server = subprocess.Popen(
        [sys.executable, "-m", "cardbase", "serve", "--db", db_url, "--port", "0"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        base = served_at(server, GUARD)
        wait_until_serving(base, server, GUARD)
        target = httpx.post(f"{base}/api/decks", json={"game": "mea", "name": "Adds"}, timeout=GUARD).json()["id"]
        answered_adds = 0
        imported: list[str] = []
        failures: list[str] = []
        lock = threading.Lock()
        stop = threading.Event()

        def client(i: int) -> None:
            nonlocal answered_adds
            n = 0
            with httpx.Client(base_url=base, timeout=GUARD) as http:
                while not stop.is_set():
                    n += 1
                    try:
                        if n % 2:
                            name = f"Kill {i}-{n}"
                            response = http.post("/api/decks/import", json={"text": DECK, "name": name})
                            if response.status_code not in (201, 503):
                                failures.append(response.text)
                            if response.status_code == 201:
                                with lock:
                                    imported.append(name)
                        else:
                            response = http.post(f"/api/decks/{target}/cards", json={"name": "Dizzy Bat"})
                            if response.status_code not in (200, 503):
                                failures.append(response.text)
                            if response.status_code == 200:
                                with lock:
                                    answered_adds += 1
                    except httpx.TransportError:
                        return  # the server is gone

        clients = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(4)]
        for t in clients:
            t.start()
        wait_until(lambda: len(imported) >= 10 and answered_adds >= 10, "writes answered")
        os.kill(server.pid, signal.SIGKILL)  # with writes in flight
        server.wait(GUARD)
        stop.set()
        for t in clients:
            t.join(GUARD)
    finally:
        if server.poll() is None:
            server.kill()
        server.communicate(timeout=GUARD)  # its output read to the end, the pipes closed
    assert failures == []
    check_consistent(db_url, target, imported, answered_adds)


def check_consistent(db_url: str, target: int, imported: list[str], answered_adds: int) -> None:
    from cardbase.db.engine import open_database

    database = open_database(db_url)  # opens (a SQLite file recovers its WAL)
    try:
        with database.engine.connect() as conn:
            if conn.dialect.name == "sqlite":
                assert conn.exec_driver_sql("PRAGMA integrity_check").scalar() == "ok"
                assert conn.exec_driver_sql("PRAGMA foreign_key_check").all() == []
            decks = conn.execute(
                text(
                    "SELECT d.id, d.name, d.version, COALESCE(SUM(c.count), 0) FROM deck d "
                    "LEFT JOIN deck_card c ON c.deck_id = d.id GROUP BY d.id, d.name, d.version"
                )
            ).all()
        by_name = {name: (deck_id, version, int(cards)) for deck_id, name, version, cards in decks}
        for name, (deck_id, version, cards) in by_name.items():
            if deck_id == target:
                assert version - 1 == cards >= answered_adds  # each add: one card and one version, together
            else:
                assert (version, cards) == (1, DECK_CARDS), name  # a deck whole, or not there
        assert set(imported) <= set(by_name)  # every answered import is stored
    finally:
        database.engine.dispose()
