"""A dry run on the web (the catalog's import preview, over the API here) writes nothing, so it gives
back its change slot at once: with one slot, another change goes through while the dry run is in
the middle of its checks (tests/test_dry_run_lock.py: nor does it hold the database's write lock).
No timing: the dry run waits at its checks until the other change has answered."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

import cardbase.db.io as catalog_io
from cardbase.db.engine import Database
from cardbase.web.settings import ServerSettings
from tests.web.live import live_app

GUARD = 120  # seconds: only a failed test ever waits this long


def test_a_dry_run_leaves_its_change_slot_to_writers(
    database: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    checking, answered = threading.Event(), threading.Event()
    checks = catalog_io._set_name_problems

    def held_at_the_check(*args: Any) -> list[str]:
        found = checks(*args)
        checking.set()
        answered.wait(GUARD)  # the other change's turn, mid-check
        return found

    monkeypatch.setattr(catalog_io, "_set_name_problems", held_at_the_check)
    settings = ServerSettings(database=database, images=tmp_path / "card_images", write_slots=1, lock_wait=5)
    sheet = b"name,type,cost\nSelounticia,monster,4\nNew,assist,1\n"
    previews: list[httpx.Response] = []
    with live_app(settings) as (base, _app), httpx.Client(base_url=base, timeout=GUARD) as http:

        def preview() -> None:
            files = {"file": ("cards.csv", sheet, "text/csv")}
            previews.append(http.post("/api/catalog/import", files=files, data={"game": "mea", "dry_run": "true"}))
            checking.set()  # (an answer that never reached the check ends the wait too)

        thread = threading.Thread(target=preview, daemon=True)
        thread.start()
        try:
            assert checking.wait(GUARD), "the dry run never reached its checks"
            made = http.post("/api/decks", json={"game": "mea", "name": "Made meanwhile"})
        finally:
            answered.set()
            thread.join(GUARD)
    assert made.status_code == 201, made.text
    assert len(previews) == 1 and previews[0].status_code == 200, previews and previews[0].text
    assert (previews[0].json()["inserted"], previews[0].json()["dry_run"]) == (1, True)
