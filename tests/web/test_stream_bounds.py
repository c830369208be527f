"""Class 8 (open event streams): the streams a server holds are bounded per game and in all, each
refusal a 503 with ``Retry-After`` naming the bound. The bound was per game only, checked apart
from the subscription (two requests at once could both pass it), and a finished game takes
streams as a playing one does — so a client opening streams on every game the database keeps held
as many as it liked."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from cardbase.sim import hall as hall_module
from cardbase.sim.hall import TooManyStreams
from tests.web.play_helpers import hall, new_game


@pytest.mark.parametrize(("per_game", "in_all"), [(2, 100), (100, 3)], ids=["per game", "in all"])
def test_streams_past_a_bound_are_503_naming_it(
    per_game: int, in_all: int, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The streams held open are the hall's subscriptions (a test client cannot hold several open at
    once: it ends each as soon as it is read), so the bound is filled through the hall."""
    monkeypatch.setattr(hall_module, "MAX_STREAMS_PER_GAME", per_game)
    monkeypatch.setattr(hall_module, "MAX_STREAMS", in_all)
    games = [new_game(client, "meio", ["human", "human"])["id"] for _ in range(2)]
    opened = min(per_game, in_all)
    held = [lambda: None for _ in range(opened)]
    for callback in held:
        hall(client).subscribe(games[0], callback)
    refused = client.get(f"/api/games/{games[0]}/events")
    assert refused.status_code == 503, refused.text
    assert refused.headers.get("Retry-After")
    message = refused.json()["error"]["message"]
    assert f"{opened} open event streams" in message, message
    if in_all < per_game:  # the bound in all holds on another game too
        assert client.get(f"/api/games/{games[1]}/events").status_code == 503
    for callback in held:
        hall(client).unsubscribe(games[0], callback)
    with client.stream("GET", f"/api/games/{games[1]}/events") as events:  # a place given back is taken
        assert events.status_code == 200
        for line in events.iter_lines():
            if line.startswith("event: view"):
                break


def test_the_hall_counts_and_refuses_streams_atomically(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hall_module, "MAX_STREAMS_PER_GAME", 3)
    monkeypatch.setattr(hall_module, "MAX_STREAMS", 4)
    tables = hall(client)
    callbacks = [lambda: None for _ in range(5)]
    for callback in callbacks[:3]:
        tables.subscribe("a", callback)
    with pytest.raises(TooManyStreams, match="game 'a' has 3 open event streams"):
        tables.subscribe("a", callbacks[3])
    tables.subscribe("b", callbacks[3])
    with pytest.raises(TooManyStreams, match="4 open event streams in all"):
        tables.subscribe("c", callbacks[4])
    for callback in callbacks[:3]:
        tables.unsubscribe("a", callback)
    tables.unsubscribe("b", callbacks[3])
    assert tables.streams() == 0
