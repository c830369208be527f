"""Many users, one database: 20 clients at once, each adding 50 cards to its own deck and 50 to one
shared deck, through a real uvicorn server; every one of the 2,000 adds is there afterwards, once.
An add that waited its whole lock budget (a very loaded machine) is a 503 with ``Retry-After`` that
changed nothing; the client tries it again, as the answer says."""

from __future__ import annotations

import threading
import time
from collections import Counter
from pathlib import Path

import httpx

from cardbase.db.engine import Database
from cardbase.web.settings import ServerSettings
from tests.web.live import live_server

CLIENTS = 20
ADDS = 50
RETRIES = 5
"""Tries again of an add answered 503 (busy, nothing changed), as ``Retry-After`` invites."""
CARDS = [
    "Crumb Goblin",
    "Dizzy Bat",
    "Crème Golem",
    "Selounticia",
    "Tripwire",
    "Chemical Vial",
    "Pickpocket Ferret",
    "Tile Titan",
    "Lantern Moth",
    "Ember Imp",
]


def test_concurrent_adds_lose_nothing(database: Database, tmp_path: Path) -> None:
    with live_server(ServerSettings(database=database, images=tmp_path / "card_images")) as base:
        with httpx.Client(base_url=base, timeout=60) as setup:
            known = {c["name"] for c in setup.get("/api/cards", params={"q": "game:mea", "limit": 500}).json()}
            cards = [c for c in CARDS if c in known]
            assert len(cards) >= 5, known
            shared = setup.post("/api/decks", json={"game": "mea", "name": "Shared"}).json()["id"]
        own: dict[int, int] = {}
        failures: list[str] = []

        def client(i: int) -> None:
            with httpx.Client(base_url=base, timeout=60) as http:
                made = http.post("/api/decks", json={"game": "mea", "name": f"Player {i}"})
                if made.status_code != 201:
                    failures.append(made.text)
                    return
                own[i] = made.json()["id"]
                for k in range(ADDS):
                    name = cards[(i + k) % len(cards)]
                    for deck in (own[i], shared):
                        response = http.post(f"/api/decks/{deck}/cards", json={"name": name})
                        for _ in range(RETRIES):
                            if response.status_code != 503 or "Retry-After" not in response.headers:
                                break
                            time.sleep(float(response.headers["Retry-After"]))
                            response = http.post(f"/api/decks/{deck}/cards", json={"name": name})
                        if response.status_code != 200:
                            failures.append(f"{response.status_code} {response.text}")

        threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert failures == []
        with httpx.Client(base_url=base, timeout=60) as check:
            decks = {d["id"]: d["cards"] for d in check.get("/api/decks").json()}
            assert decks[shared] == CLIENTS * ADDS
            assert all(decks[own[i]] == ADDS for i in range(CLIENTS))
            assert sum(decks.values()) == 2 * CLIENTS * ADDS
            want = Counter(cards[(i + k) % len(cards)] for i in range(CLIENTS) for k in range(ADDS))
            entries = check.get(f"/api/decks/{shared}").json()["cards"]
            assert {e["name"]: e["count"] for e in entries} == dict(want)
