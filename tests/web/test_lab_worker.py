"""The deck lab as ``cardbase serve`` runs it: its games in a worker process of lower priority
(``app.state.lab_workers``, :class:`cardbase.sim.thinkers.WorkerChunks`, the play tables' kind of
worker), so a run does not slow other pages; the same results as the CLI, the same budget and stop,
and a worker that dies is a worded 500 (the server's fault) after which the next run works."""

from __future__ import annotations

import os
import re
import signal
import threading
import time
from collections.abc import Callable, Iterator
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardbase.db.engine import Database
from cardbase.lab import service
from cardbase.sim import runner
from tests.web.conftest import MakeClient, error_of
from tests.web.test_lab import EXAMPLES, TILE, import_rush

WAIT = 120.0
"""The most a test waits for a worker to start or a run to answer (a bound against a hang, not a timing)."""


@pytest.fixture
def served(make_client: MakeClient) -> Iterator[TestClient]:
    client = make_client(agent_processes=True)  # as `cardbase serve` makes its app
    yield client
    client.app.state.lab_workers.close()  # type: ignore[attr-defined]
    client.app.state.hall.close()  # type: ignore[attr-defined]


def _workers(parent: int | None = None) -> set[int]:
    """The spawned worker processes (``multiprocessing`` spawn) of ``parent`` (default: this process), by id."""
    found = set()
    for task in Path(f"/proc/{parent or os.getpid()}/task").iterdir():
        try:
            children = (task / "children").read_text().split()
        except OSError:
            continue
        for pid in children:
            try:
                command = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            if b"spawn_main" in command:
                found.add(int(pid))
    return found


def _new_worker(before: set[int], answered: threading.Event) -> int:
    """The worker process started after ``before`` was listed (waited for, while no answer came)."""
    while not answered.wait(0.05):
        new = _workers() - before
        if new:
            return min(new)
    raise AssertionError("the run answered before a worker process played its games")


def test_a_served_lab_plays_its_games_in_a_worker_with_the_clis_results(
    served: TestClient, cli: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    deck_id = import_rush(served)
    tile = str(EXAMPLES / "mea-tile-control.txt")
    common = ["--games", "6", "--seed", "3", "-j", "1", "--json"]
    gauntlet = cli("lab", "gauntlet", "db:Rush", "--field", tile, *common)
    opening = cli("lab", "opening", "db:Rush", "--vs", tile, *common)

    def not_here(*args: Any) -> Any:
        raise AssertionError("a chunk of the lab's games was played in the server's own process")

    monkeypatch.setattr(runner, "_play_chunk", not_here)  # this process's; the worker has its own
    api = served.get(f"/api/decks/{deck_id}/lab", params={"against": TILE, "games": 6, "seed": 3})
    assert api.status_code == 200, api.text
    data = api.json()
    for key in ("overall", "cards"):
        assert data["gauntlet"][key] == gauntlet[key]
    assert [{**m, "file": None} for m in data["gauntlet"]["matchups"]] == [
        {**m, "file": None} for m in gauntlet["matchups"]
    ]
    assert data["opening"]["sizes"] == opening["sizes"] and data["opening"]["best"] == opening["best"]
    page = served.get(f"/decks/{deck_id}/lab", params={"run": "1", "against": TILE, "games": "6", "seed": "3"})
    assert page.status_code == 200 and 'id="lab-results"' in page.text


def test_a_served_run_keeps_its_budget_and_the_servers_stop(
    served: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    deck_id = import_rush(served)
    monkeypatch.setattr(service, "RUN_SECONDS", 0.0)  # read here, checked here as each chunk comes back
    over = served.get(f"/api/decks/{deck_id}/lab", params={"against": TILE, "games": 100})
    assert over.status_code == 503 and "stopped after 0 s" in error_of(over)
    monkeypatch.setattr(service, "RUN_SECONDS", 30.0)
    served.app.state.lab_stop.set()  # type: ignore[attr-defined]  # what `cardbase serve` does on Ctrl-C
    stopped = served.get(f"/api/decks/{deck_id}/lab", params={"against": TILE, "games": 100})
    assert stopped.status_code == 503
    assert error_of(stopped).startswith("the server is stopping: the lab run stopped with")


@pytest.mark.parametrize("face", ["api", "page"])
def test_a_lab_worker_killed_mid_run_is_the_servers_fault_in_words_and_the_next_run_works(
    served: TestClient, monkeypatch: pytest.MonkeyPatch, face: str
) -> None:
    deck_id = import_rush(served)
    monkeypatch.setattr(service, "RUN_SECONDS", 600.0)  # the kill, not the budget, ends this run
    if face == "api":
        url, params = f"/api/decks/{deck_id}/lab", {"against": TILE, "games": "1000"}
    else:
        url, params = f"/decks/{deck_id}/lab", {"run": "1", "against": TILE, "games": "1000"}
    answer: list[Any] = []
    answered = threading.Event()

    def run() -> None:
        answer.append(served.get(url, params=params))
        answered.set()

    before = _workers()
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    os.kill(_new_worker(before, answered), signal.SIGKILL)
    assert answered.wait(WAIT), "the run did not answer after its worker was killed"
    (response,) = answer
    assert response.status_code == 500, response.text
    if face == "api":
        said = error_of(response)
    else:
        said = unescape(re.search(r'<p id="lab-error" class="error" role="alert">(.*?)</p>', response.text, re.S)[1])
        assert 'value="1000"' in response.text  # the form kept
    assert "the worker process playing the games stopped" in said and "the server's fault" in said, said
    assert "Traceback" not in response.text
    again = served.get(f"/api/decks/{deck_id}/lab", params={"against": TILE, "games": 4})
    assert again.status_code == 200, again.text  # a new worker took over


def test_ctrl_c_of_serve_ends_a_lab_run_at_its_next_chunk_in_words(
    database: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C while a lab run plays in the worker (the server told to stop, through ``cardbase serve``'s
    own ``StoppingServer``): the run is told at once (not after uvicorn's graceful wait, when it was cut
    off with a bare 500 and a traceback) and answers its worded 503 with how far it got.

    Ordered by the run itself, not by time: the stop comes once a chunk the worker played has come
    back, and neither the run's budget nor the graceful wait can end it first. The test ran ``cardbase
    serve`` and sent Ctrl-C once the worker had used 2 s of CPU: on a busy machine the worker (of lower
    priority) had not, within the run's 30 s, and the run answered 'stopped after 30 s' (1 time in 2
    beside three busy processes)."""
    import httpx

    from cardbase.web.app import create_app
    from cardbase.web.serverlog import StoppingServer, uvicorn_config
    from cardbase.web.settings import ServerSettings
    from tests.web.live import free_socket

    budget_of = service._budget
    played = threading.Event()

    def progress_seen(seconds: float, total: int, stopping: Callable[[], bool]) -> Callable[[int], None]:
        on_progress = budget_of(WAIT, total, stopping)  # no budget that ends the run before the stop

        def seen(k: int) -> None:
            on_progress(k)
            played.set()

        return seen

    monkeypatch.setattr(service, "_budget", progress_seen)
    with free_socket() as sock:
        settings = ServerSettings(
            database=database,
            images=tmp_path / "card_images",
            agent_processes=True,  # as `cardbase serve` makes its app
            host="127.0.0.1",
            port=sock.getsockname()[1],
        )
        app = create_app(settings)
        server = StoppingServer(uvicorn_config(app, graceful_seconds=int(WAIT)), app.state.lab_stop.set)
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        answer: list[Any] = []
        try:
            deadline = time.monotonic() + WAIT
            while not server.started:
                assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
                time.sleep(0.02)
            base = settings.base_url
            text = (EXAMPLES / "mea-goblin-rush.txt").read_text(encoding="utf-8")
            made = httpx.post(f"{base}/api/decks/import", json={"text": text, "name": "Rush"}, timeout=WAIT)
            assert made.status_code == 201, made.text
            url = f"{base}/api/decks/{made.json()['id']}/lab"
            run = threading.Thread(
                target=lambda: answer.append(httpx.get(url, params={"against": TILE, "games": 1000}, timeout=WAIT)),
                daemon=True,
            )
            run.start()
            assert played.wait(WAIT), "no chunk of games came back from the worker"
            server.handle_exit(signal.SIGINT, None)  # what Ctrl-C calls
            run.join(WAIT)
        finally:
            server.should_exit = True
            thread.join(WAIT)
            app.state.lab_workers.close()
            app.state.hall.close()
    (response,) = answer
    assert response.status_code == 503, response.text
    said = error_of(response)
    assert said.startswith("the server is stopping: the lab run stopped with") and said.endswith("played"), said


def test_a_run_that_comes_after_the_servers_stop_is_a_worded_503_and_starts_no_worker(served: TestClient) -> None:
    """A run whose turn comes while the server stops (its lab worker closed): told so as a 503, as a run
    stopped mid-way is, not the 500 of a worker that died; and no worker process started after the stop."""
    deck_id = import_rush(served)
    served.app.state.lab_workers.close()  # type: ignore[attr-defined]  # what `cardbase serve` does as it ends
    before = _workers()
    for url, params in (
        (f"/api/decks/{deck_id}/lab", {"against": TILE, "games": "4"}),
        (f"/decks/{deck_id}/lab", {"run": "1", "against": TILE, "games": "4"}),
    ):
        response = served.get(url, params=params)
        assert response.status_code == 503, response.text
        assert "the server is stopping" in unescape(response.text) and "Traceback" not in response.text
    assert not _workers() - before  # none started (another test's worker may end meanwhile)
