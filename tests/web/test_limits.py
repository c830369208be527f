"""Lock and pool limits, on SQLite and PostgreSQL: a write that cannot get its lock answers 503 with
``Retry-After`` within its budget, queued writers do not wait in turn behind each other, a full pool
is 503 (not 500), and reads and ``/healthz`` answer while writes wait.

Every test asserts an order, never a duration: the lock is held by the test until the answers it
checks have come, so a write that waited without a bound would never answer (the client's
timeout is only there to fail such a test instead of hanging it).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from cardbase.db.engine import Database
from cardbase.web.app import create_app
from cardbase.web.settings import ServerSettings
from tests.web.conftest import MakeClient, api_routes, new_deck
from tests.web.live import live_app, lock_held

GUARD = 120  # seconds: only a failed test ever waits this long


@contextmanager
def holding_lock(database: Database, deck_id: int) -> Iterator[None]:
    """Another connection holds the lock a write to deck ``deck_id`` needs: SQLite's write lock, or
    the deck's row lock on PostgreSQL."""
    sql = "SELECT id FROM deck WHERE id = :id FOR UPDATE"
    with lock_held(database.engine.url.render_as_string(hide_password=False), sql, {"id": deck_id}):
        yield


def wait_until(condition: Callable[[], bool], what: str) -> None:
    """Poll ``condition`` (a failure if it never holds: the guard, not an assertion on time)."""
    deadline = time.monotonic() + GUARD
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"never happened: {what}")
        time.sleep(0.02)


def run_all(calls: list[Callable[[], httpx.Response]]) -> tuple[list[threading.Thread], list[httpx.Response]]:
    """Start each call in its own thread; the threads and the list their answers go to."""
    answers: list[httpx.Response] = []
    lock = threading.Lock()

    def run(call: Callable[[], httpx.Response]) -> None:
        response = call()
        with lock:
            answers.append(response)

    threads = [threading.Thread(target=run, args=(c,), daemon=True) for c in calls]
    for t in threads:
        t.start()
    return threads, answers


def settings(database: Database, tmp_path: Path, **options: Any) -> ServerSettings:
    return ServerSettings(database=database, images=tmp_path / "card_images", **options)


def test_reads_answer_while_many_writes_wait_for_a_lock(database: Database, tmp_path: Path) -> None:
    """45 writes (more than the 40 worker threads) wait for a lock another connection holds; the
    health check, a search, the deck list and a page answer meanwhile; once the lock goes, every
    write is stored."""
    writes = 45
    server = live_app(settings(database, tmp_path, lock_wait=GUARD))
    with server as (base, app), httpx.Client(base_url=base, timeout=GUARD) as http:
        deck = http.post("/api/decks", json={"game": "mea", "name": "Waiting"}).json()["id"]
        slots = app.state.write_slots
        with holding_lock(database, deck):
            threads, answers = run_all(
                [
                    lambda: httpx.post(f"{base}/api/decks/{deck}/cards", json={"name": "Dizzy Bat"}, timeout=GUARD)
                    for _ in range(writes)
                ]
            )
            wait_until(
                lambda: slots.value == 0 and slots.statistics().tasks_waiting == writes - 4,
                "every write admitted or queued",
            )
            for path in ("/healthz", "/api/cards?q=goblin", "/api/decks", "/decks", f"/api/decks/{deck}"):
                assert http.get(path).status_code == 200, path
            assert answers == []  # every write still waits: the reads came first
        for t in threads:
            t.join(GUARD)
        assert sorted(r.status_code for r in answers) == [200] * writes
        assert http.get(f"/api/decks/{deck}").json()["info"]["cards"] == writes


def test_a_write_that_cannot_get_its_lock_is_503_with_retry_after(database: Database, tmp_path: Path) -> None:
    """With the lock held elsewhere, writes through the API and a page answer 503 with Retry-After
    (while the lock is still held: their wait is bounded) and change nothing."""
    server = live_app(settings(database, tmp_path, lock_wait=0.3))
    with server as (base, _app), httpx.Client(base_url=base, timeout=GUARD) as http:
        deck = http.post("/api/decks", json={"game": "mea", "name": "Held"}).json()["id"]
        with holding_lock(database, deck):
            threads, answers = run_all(
                [lambda: httpx.patch(f"{base}/api/decks/{deck}", json={"name": "Renamed"}, timeout=GUARD)]
                + [
                    lambda: httpx.post(f"{base}/api/decks/{deck}/cards", json={"name": "Dizzy Bat"}, timeout=GUARD)
                    for _ in range(9)
                ]
                + [lambda: httpx.post(f"{base}/decks/{deck}/rename", data={"name": "Page"}, timeout=GUARD)]
            )
            for t in threads:
                t.join(GUARD)
            assert len(answers) == 11 and {r.status_code for r in answers} == {503}
            for response in answers:
                assert response.headers["retry-after"].isdecimal()
                assert "locked" in response.text and "Traceback" not in response.text
            api = [r for r in answers if r.headers["content-type"].startswith("application/json")]
            assert len(api) == 10 and all(
                r.json()["error"]["message"].endswith("try again when it is done") for r in api
            )
        info = http.get(f"/api/decks/{deck}").json()["info"]
        assert (info["name"], info["cards"], info["version"]) == ("Held", 0, 1)


@pytest.mark.parametrize("row_locked", [False, True], ids=["runs-alone", "row-locked"])
def test_writers_queued_in_the_server_give_up_within_their_budget(
    database: Database, tmp_path: Path, row_locked: bool
) -> None:
    """A change in progress holds the server's own turn for writes (SQLite's in-process lock, or on
    PostgreSQL cardbase's write lock, or the deck's row lock when the change holds that lock shared as
    an edit does): the writes queued behind it each answer 503 while it still holds it, instead of
    waiting for it and then for the database in turn."""
    server = live_app(settings(database, tmp_path, lock_wait=0.3))
    with server as (base, _app), httpx.Client(base_url=base, timeout=GUARD) as http:
        deck = http.post("/api/decks", json={"game": "mea", "name": "Queue"}).json()["id"]
        with database.transaction(row_locked=row_locked) as session:  # the change in progress, in this process
            session.execute(text("UPDATE deck SET updated_at = 'now' WHERE id = :id"), {"id": deck})
            threads, answers = run_all(
                [
                    lambda: httpx.post(f"{base}/api/decks/{deck}/cards", json={"name": "Dizzy Bat"}, timeout=GUARD)
                    for _ in range(8)
                ]
            )
            for t in threads:
                t.join(GUARD)
            assert [r.status_code for r in answers] == [503] * 8
        assert http.post(f"/api/decks/{deck}/cards", json={"name": "Dizzy Bat"}).status_code == 200


def test_a_full_pool_is_503_not_500(db_url: str, tmp_path: Path) -> None:
    """A read that cannot get a pooled connection within the pool's wait answers 503 with Retry-After."""
    engine = create_engine(db_url, pool_size=1, max_overflow=0, pool_timeout=0.2)
    database = Database(engine, db_url)
    client = TestClient(
        create_app(settings(database, tmp_path)), base_url="http://127.0.0.1:8765", raise_server_exceptions=False
    )
    try:
        assert client.get("/api/decks").status_code == 200
        with engine.connect():  # the pool's only connection
            response = client.get("/api/decks")
            page = client.get("/decks")
        assert response.status_code == 503 and response.headers["retry-after"].isdecimal()
        assert "connection" in response.json()["error"]["message"]
        assert page.status_code == 503 and "Traceback" not in page.text
        assert client.get("/api/decks").status_code == 200
    finally:
        client.close()
        engine.dispose()


def test_every_change_route_takes_a_turn_and_no_route_runs_on_the_event_loop(make_client: MakeClient) -> None:
    """Every route is a plain ``def`` (FastAPI runs it in a worker thread), and every POST, PUT, PATCH
    and DELETE route waits for a change's turn (``cardbase.web.http.write_turn``)."""
    import inspect

    from cardbase.web.http import write_turn

    def calls(dependant: Any) -> Iterator[Any]:
        for dep in dependant.dependencies:
            yield dep.call
            yield from calls(dep)

    routes = api_routes(make_client().app)
    assert len(routes) > 40
    # An event stream stays open for as long as its page: it waits on the loop, holding no thread,
    # and reads the database in the threadpool (run_in_threadpool), never on the loop.
    streams = {"/api/games/{game_id}/events"}
    for route in routes:
        if route.path in streams:
            continue
        assert not inspect.iscoroutinefunction(route.endpoint), f"{route.path} is async def"
        if route.methods & {"POST", "PUT", "PATCH", "DELETE"}:
            assert write_turn in set(calls(route.dependant)), f"{sorted(route.methods)} {route.path} takes no turn"


def test_a_change_waits_its_turn_without_a_thread(make_client: MakeClient) -> None:
    """With every change slot taken, a change is refused (503, Retry-After) after its wait, and a read
    still answers: the slots bound changes, not reads."""
    with make_client(write_slots=1, lock_wait=0.2) as client:
        slots = client.app.state.write_slots
        deck = new_deck(client)
        client.portal.call(slots.acquire)  # the one slot, held as by a change in progress
        try:
            refused = client.post(f"/api/decks/{deck}/cards", json={"name": "Dizzy Bat"})
            assert refused.status_code == 503 and refused.headers["retry-after"].isdecimal()
            assert client.get(f"/api/decks/{deck}").json()["info"]["cards"] == 0
        finally:
            client.portal.call(slots.release)
        assert client.post(f"/api/decks/{deck}/cards", json={"name": "Dizzy Bat"}).status_code == 200
