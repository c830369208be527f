"""A real ``cardbase serve`` killed mid-game and started again over the same database carries on
with the game (its agents too); the seat keys are never in the server's output. With a server
token, a seat's link carries both and opening it leaves both as cookies."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
from fastapi.testclient import TestClient

from tests.web.conftest import MakeClient
from tests.web.live import served_at, wait_until_serving


@contextmanager
def serving(db_url: str, cwd: Path) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """``cardbase serve`` in a process of its own, on a port the system picks, until the block ends (or the
    test kills it)."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    env.pop("CARDBASE_TOKEN", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardbase", "serve", "--port", "0", "--db", db_url],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=cwd,
    )
    try:
        base = served_at(proc)
        wait_until_serving(base, proc, 120)
        yield proc, base
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            proc.communicate(timeout=60)


def _wait_for_a_person(http: httpx.Client, game_id: str) -> dict[str, object]:
    """The spectator's view once a person is to move (the agents have played; bounded against a hang)."""
    deadline = time.monotonic() + 120
    while True:
        data: dict[str, object] = http.get(f"/api/games/{game_id}").json()
        seat = data["current_player"]
        seats = data["seats"]
        assert isinstance(seats, list)
        if data["status"] != "playing" or (isinstance(seat, int) and seats[seat]["agent"] == "human"):
            return data
        assert time.monotonic() < deadline, "the agents did not move"
        time.sleep(0.1)


def test_a_killed_server_restarted_resumes_the_game(db_url: str, tmp_path: Path) -> None:
    with serving(db_url, tmp_path) as (first, base), httpx.Client(base_url=base, timeout=60) as http:
        made = http.post(
            "/api/games", json={"game": "meio", "seats": [{"agent": "human"}, {"agent": "heuristic"}], "seed": 4}
        )
        assert made.status_code == 201, made.text
        game_id = made.json()["id"]
        key = made.json()["seats"][0]["key"]
        me = {"Authorization": f"Seat {key}"}
        for _ in range(5):
            data = _wait_for_a_person(http, game_id)
            moved = http.post(f"/api/games/{game_id}/actions", json={"id": 0, "version": data["version"]}, headers=me)
            assert moved.status_code == 200, moved.text
        _wait_for_a_person(http, game_id)
        before = http.get(f"/api/games/{game_id}", headers=me).json()
        first.kill()  # no shutdown: as a crash or a power cut
        first.wait(30)
        # The output ends only when every process holding it has: the agents' worker processes
        # end with their server (a worker left behind would hold it open, and this times out).
        out, err = first.communicate(timeout=60)
        assert key not in out + err
    with serving(db_url, tmp_path) as (second, base), httpx.Client(base_url=base, timeout=60) as http:
        after = http.get(f"/api/games/{game_id}", headers=me).json()
        assert (after["version"], after["text"], after["log"]) == (before["version"], before["text"], before["log"])
        while (data := _wait_for_a_person(http, game_id))["status"] == "playing":
            moved = http.post(f"/api/games/{game_id}/actions", json={"id": 0, "version": data["version"]}, headers=me)
            assert moved.status_code == 200, moved.text
        assert data["status"] == "over"
        record = http.get(f"/api/games/{game_id}/record")
        assert record.status_code == 200 and '"outcome"' in record.text
        second.send_signal(signal.SIGINT)
        out, err = second.communicate(timeout=60)
    assert "1 game in play resumed" in out
    assert key not in out + err


def test_with_a_server_token_a_seat_link_carries_both(make_client: MakeClient) -> None:
    token = "t" * 24
    client: TestClient = make_client(token=token)
    made = client.post(
        "/api/games",
        json={"game": "meio", "seats": [{"agent": "human"}, {"agent": "human"}]},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert made.status_code == 201, made.text
    game_id = made.json()["id"]
    link = made.json()["seats"][1]["url"]
    key = made.json()["seats"][1]["key"]
    assert f"key={key}" in link and f"token={token}" in link
    path = link.split("8765", 1)[1]
    first = client.get(path)  # the token's cookie, and a reload to the seat's link without the token
    assert first.status_code == 200 and "cardbase_token" in first.headers["set-cookie"]
    second = client.get(f"/play/{game_id}?key={key}")  # the seat's cookie, and a reload without the key
    assert second.status_code == 200 and f"cardbase_seat_{game_id}" in second.headers["set-cookie"]
    page = client.get(f"/play/{game_id}")
    assert page.status_code == 200 and "You are P2" in page.text and key not in page.text
    with_both = client.get(
        f"/api/games/{game_id}",
        headers={"Authorization": f"Bearer {token}", "X-Seat-Key": made.json()["seats"][0]["key"]},
    )
    assert with_both.status_code == 200 and with_both.json()["you"] == 0
