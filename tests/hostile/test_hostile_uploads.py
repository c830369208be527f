"""Hostile files, generated, against every web route that takes a user's file or upload.

The routes: the catalog import (API and page), the collection's "Add cards" (page), the deck import
(page, and the API's pasted text), the replay (API body and page upload) and card art (API and page).
Each gets a valid file of its kind mutated as in :mod:`tests.hostile.test_hostile_files`, and the files
that are no file of its kind. The property: never a 500 (nor an exception out of the app); a refusal
is a 4xx with a worded message — naming the upload when it has a name — and leaves the database and
the art folder as they were.
"""

from __future__ import annotations

import html
import io
import json
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardbase.db.engine import open_database
from cardbase.web.app import create_app
from cardbase.web.settings import ServerSettings
from tests.conftest import new_database
from tests.hostile.conftest import db_dump
from tests.hostile.test_hostile_files import MUTATIONS, Seeds

EXAMPLES = settings(
    max_examples=int(os.environ.get("HOSTILE_FILES_EXAMPLES", "8")),
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)


class Site:
    """A server on a database of this module's own, its art folder, and how to tell both unchanged."""

    def __init__(self, client: TestClient, db: str, images: Path):
        self.client, self.db, self.images = client, db, images

    def __repr__(self) -> str:
        return "Site()"

    def state(self) -> tuple[Any, list[tuple[str, bytes]]]:
        files = sorted((str(p), p.read_bytes()) for p in self.images.rglob("*") if p.is_file())
        return db_dump(self.db), files


@pytest.fixture(scope="module")
def site(catalog_template: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    folder = tmp_path_factory.mktemp("hostile-uploads")
    with new_database(folder, catalog_template) as url:
        database = open_database(url)
        settings = ServerSettings(database=database, images=folder / "card_images", lock_wait=5)
        with TestClient(create_app(settings), base_url=settings.base_url, raise_server_exceptions=False) as client:
            yield Site(client, str(folder / "cards.db") if url.startswith("sqlite") else url, folder / "card_images")
        database.engine.dispose()


@pytest.fixture(scope="module")
def upload_seeds(site: Site) -> Seeds:
    """A valid file of each kind, as the server's own exports write them."""
    from PIL import Image

    from cardbase.sim.records import record_lines
    from tests.conftest import REPO
    from tests.golden.walks import rules_of

    client = site.client
    out = Seeds()
    for fmt in ("csv", "json", "xlsx"):
        answer = client.get(f"/api/catalog/export?game=mea&format={fmt}")
        assert answer.status_code == 200, answer.text
        out[f"catalog.{fmt}"] = answer.content
    out["collection.csv"] = b"game,name,set,count\nmea,Crumb Goblin,demo,2\n"
    out["collection.txt"] = b"3 Crumb Goblin\n2x Puddle Knight\n"
    out["deck.txt"] = (REPO / "examples/decks/mea-goblin-rush.txt").read_bytes()
    out["record.jsonl"] = ("\n".join(record_lines(rules_of("meio", {"players": 2}), 3, [])) + "\n").encode()
    png = io.BytesIO()
    Image.new("RGB", (63, 88), "teal").save(png, "PNG")
    out["art.png"] = png.getvalue()
    return out


ART = "/cards/mea/demo/crumb-goblin/art"
Send = Callable[[TestClient, str, bytes], httpx.Response]

# (id, seed, send(client, file name, bytes), the message names the upload)
ROUTES: list[tuple[str, str, Send, bool]] = [
    (
        "api catalog import csv",
        "catalog.csv",
        lambda c, n, d: c.post("/api/catalog/import", files={"file": (n, d)}, data={"game": "mea"}),
        True,
    ),
    (
        "api catalog import xlsx",
        "catalog.xlsx",
        lambda c, n, d: c.post("/api/catalog/import", files={"file": (n, d)}, data={"game": "mea"}),
        True,
    ),
    (
        "api catalog import json",
        "catalog.json",
        lambda c, n, d: c.post("/api/catalog/import", files={"file": (n, d)}, data={"game": "mea"}),
        True,
    ),
    (
        "catalog page import",
        "catalog.csv",
        lambda c, n, d: c.post("/catalog/import", files={"sheet": (n, d)}, data={"game": "mea", "confirm": "1"}),
        True,
    ),
    (
        "collection page csv",
        "collection.csv",
        lambda c, n, d: c.post("/collection/import", files={"file": (n, d)}, data={"game": "mea", "action": "save"}),
        True,
    ),
    (
        "collection page text",
        "collection.txt",
        lambda c, n, d: c.post("/collection/import", files={"file": (n, d)}, data={"game": "mea", "action": "save"}),
        True,
    ),
    (
        "deck page import",
        "deck.txt",
        lambda c, n, d: c.post("/decks/import", files={"file": (n, d)}, data={"name": "Hostile Upload"}),
        True,
    ),
    (
        "api deck import text",
        "deck.txt",
        lambda c, n, d: c.post(
            "/api/decks/import",
            content=json.dumps({"text": d.decode("utf-8", "replace"), "name": "Hostile Api", "replace": True}),
            headers={"Content-Type": "application/json"},
        ),
        False,
    ),
    ("api replay", "record.jsonl", lambda c, n, d: c.post("/api/replay", content=d), False),
    ("replay page", "record.jsonl", lambda c, n, d: c.post("/replay", files={"file": (n, d)}), True),
    ("api art", "art.png", lambda c, n, d: c.put(f"/api{ART}", files={"file": (n, d)}), False),
    ("art page", "art.png", lambda c, n, d: c.post(ART, files={"art": (n, d)}), False),
]


def _message(answer: httpx.Response) -> str:
    """The refusal's words: the JSON error's message, or the page's text."""
    if answer.headers.get("content-type", "").startswith("application/json"):
        return str(answer.json()["error"]["message"])
    return html.unescape(re.sub(r"<[^>]+>", " ", answer.text))


def assert_refused_cleanly(site: Site, route: tuple[str, str, Send, bool], name: str, data: bytes) -> None:
    before = site.state()
    answer = route[2](site.client, name, data)
    assert answer.status_code < 500, f"{answer.status_code}: {answer.text[:1000]}"
    if answer.status_code < 400:
        return
    message = _message(answer)
    assert message.strip(), answer.text[:1000]
    assert "Traceback" not in answer.text
    if answer.status_code == 413:  # the body over the route's bound, refused before its parts are read
        assert "bound" in message, message[:600]
    elif route[3]:
        assert name in message, f"the upload {name!r} is not named: {message[:600]}"
    assert site.state() == before, "a refused upload changed the database or the art folder"


@EXAMPLES
@given(data=st.data())
@pytest.mark.parametrize("route", ROUTES, ids=[r[0] for r in ROUTES])
def test_a_mutated_upload_is_taken_or_refused_with_a_4xx(
    route: tuple[str, str, Send, bool], site: Site, upload_seeds: Seeds, data: st.DataObject
) -> None:
    names = data.draw(st.lists(st.sampled_from(sorted(MUTATIONS)), min_size=1, max_size=2, unique=True), "mutations")
    raw = upload_seeds[route[1]]
    for name in names:
        raw = MUTATIONS[name](raw, data.draw)
    assert_refused_cleanly(site, route, f"hostile{Path(route[1]).suffix}", raw)


NO_KIND = {
    "empty": b"",
    "a database": b"SQLite format 3\x00" + bytes(4000),
    "a zip that is no workbook": b"PK\x03\x04" + b"garbage" * 50,
    "an SVG with a script": b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    "a GIF header": b"GIF89a" + bytes(40),
}


@pytest.mark.parametrize("kind", sorted(NO_KIND))
@pytest.mark.parametrize("route", ROUTES, ids=[r[0] for r in ROUTES])
def test_an_upload_of_no_kind_is_refused_with_a_4xx(route: tuple[str, str, Send, bool], kind: str, site: Site) -> None:
    before = site.state()
    name = f"hostile{Path(route[1]).suffix}"
    answer = route[2](site.client, name, NO_KIND[kind])
    assert 400 <= answer.status_code < 500, f"{answer.status_code}: {answer.text[:600]}"
    assert_refused_cleanly(site, route, name, NO_KIND[kind])
    assert site.state() == before
