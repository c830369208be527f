"""Helpers for the play tests: games through the API, seat headers, moves, waiting for agents."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient


def mea_decks() -> list[dict[str, str]]:
    root = Path(__file__).resolve().parents[2] / "examples" / "decks"
    return [
        {"text": (root / name).read_text(encoding="utf-8")} for name in ("mea-goblin-rush.txt", "mea-tile-control.txt")
    ]


def new_game(client: TestClient, game: str, seats: list[str], **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"game": game, "seats": [{"agent": s} for s in seats], **extra}
    if game == "mea" and "decks" not in body:
        body["decks"] = mea_decks()
    if game == "meikyu" and "assume" not in body:
        body["assume"] = "default"
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made


def seat_header(key: str) -> dict[str, str]:
    return {"Authorization": f"Seat {key}"}


def keys_of(made: dict[str, Any]) -> dict[int, str]:
    return {s["seat"]: s["key"] for s in made["seats"] if "key" in s}


def hall(client: TestClient) -> Any:
    return client.app.state.hall  # type: ignore[attr-defined]


def settle(client: TestClient, game_id: str) -> None:
    """Wait until no agent of the game is to move (ordering, with a generous bound against a hang)."""
    assert hall(client).wait_quiet(game_id, 300), "the agents did not finish their turn"


def view(client: TestClient, game_id: str, key: str | None = None) -> dict[str, Any]:
    response = client.get(f"/api/games/{game_id}", headers=seat_header(key) if key else {})
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def sse_views(text: str) -> list[dict[str, Any]]:
    """The views in an event stream's text."""
    out = []
    for block in text.split("\n\n"):
        lines = block.splitlines()
        if "event: view" in lines:
            data = "\n".join(line[6:] for line in lines if line.startswith("data: "))
            out.append(json.loads(data))
    return out
