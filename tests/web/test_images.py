"""``/cards/{id}/image.png``: the project's renderer at screen size, bounded, cached by card row, with ETags."""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from PIL import Image

from tests.web.conftest import error_of

GOBLIN = "mea/demo/crumb-goblin"


def test_a_face_at_the_width_asked(client: TestClient) -> None:
    for width, card in ((300, GOBLIN), (120, "meikyu/core/grimoire"), (500, "meio/standard/ace-of-clubs")):
        response = client.get(f"/cards/{card}/image.png", params={"w": width})
        assert response.status_code == 200, (card, response.text)
        assert response.headers["content-type"] == "image/png"
        image = Image.open(io.BytesIO(response.content))
        assert image.size == (width, round(width * 88 / 63)), card
    default = Image.open(io.BytesIO(client.get(f"/cards/{GOBLIN}/image.png").content))
    assert default.size[0] == 300


@pytest.mark.parametrize("width", [0, 39, 1201, "wide"])
def test_the_width_is_bounded(client: TestClient, width: object) -> None:
    response = client.get(f"/cards/{GOBLIN}/image.png", params={"w": width})
    assert response.status_code == 400 and error_of(response).startswith("w: ")


@pytest.mark.parametrize("card", ["mea/demo/nothing", "../../../etc/passwd", "%2e%2e/%2e%2e/etc/passwd"])
def test_only_catalog_cards_are_drawn(client: TestClient, card: str) -> None:
    assert client.get(f"/cards/{card}/image.png").status_code == 404


def test_cached_by_card_row_with_etags(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    import cardbase.render.screen as screen

    drawn: list[int] = []
    real = screen.screen_png

    def counting(*args: object, **kwargs: object) -> bytes:
        drawn.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(screen, "screen_png", counting)
    first = client.get(f"/cards/{GOBLIN}/image.png")
    second = client.get(f"/cards/{GOBLIN}/image.png")
    assert first.content == second.content and len(drawn) == 1  # the second from memory
    etag = first.headers["etag"]
    assert "max-age" in first.headers["cache-control"]
    assert client.get(f"/cards/{GOBLIN}/image.png", headers={"If-None-Match": etag}).status_code == 304
    assert client.get(f"/cards/{GOBLIN}/image.png", params={"w": 200}).headers["etag"] != etag
    changed = client.post(
        "/api/catalog/import",
        data={"game": "mea"},
        files={"file": ("c.csv", b"name,set,type,cost\nCrumb Goblin,demo,monster,7\n")},
    )
    assert changed.status_code == 200 and changed.json()["updated"] == 1, changed.text
    redrawn = client.get(f"/cards/{GOBLIN}/image.png", headers={"If-None-Match": etag})
    assert redrawn.status_code == 200 and redrawn.headers["etag"] != etag and redrawn.content != first.content


def test_art_replaced_in_card_images_draws_again(client: TestClient, tmp_path: Path) -> None:
    from cardbase.render.art import expected_path

    def pixel(response: Any) -> tuple[int, ...]:
        image = Image.open(io.BytesIO(response.content)).convert("RGB")
        return image.getpixel((image.width // 2, image.height // 3))  # inside the art box

    art = expected_path(tmp_path / "card_images", "mea", "Crumb Goblin")
    placeholder = client.get(f"/cards/{GOBLIN}/image.png")
    art.parent.mkdir(parents=True)
    Image.new("RGB", (400, 300), (200, 0, 0)).save(art)
    red = client.get(f"/cards/{GOBLIN}/image.png", headers={"If-None-Match": placeholder.headers["etag"]})
    assert red.status_code == 200 and red.headers["etag"] != placeholder.headers["etag"], "art added: drawn again"
    assert pixel(red)[0] > 150 and pixel(red)[1] < 60
    Image.new("RGB", (400, 300), (0, 0, 200)).save(art)
    os.utime(art, ns=(art.stat().st_atime_ns, art.stat().st_mtime_ns + 1_000_000_000))
    blue = client.get(f"/cards/{GOBLIN}/image.png")
    assert blue.headers["etag"] != red.headers["etag"] and pixel(blue)[2] > 150, "art replaced: drawn again"
    art.unlink()
    back = client.get(f"/cards/{GOBLIN}/image.png")
    assert back.headers["etag"] == placeholder.headers["etag"] and back.content == placeholder.content


def test_the_memory_cache_is_bounded() -> None:
    from cardbase.web.images import FaceLRU

    faces = FaceLRU(size=2)
    for i in range(3):
        faces.put((f"c{i}", 300, "h"), b"png")
    assert faces.get(("c0", 300, "h")) is None and faces.get(("c2", 300, "h")) == b"png"


@pytest.mark.timeout(120)  # a hang is a failure here, not a test that never ends
def test_art_that_is_a_fifo_draws_the_placeholder(client: TestClient, tmp_path: Path) -> None:
    """A FIFO as art made Pillow's open wait for a writer for ever: the request hung (its worker thread
    with it). See tests/hostile/test_art_not_a_file.py."""
    from cardbase.render.art import expected_path

    art = expected_path(tmp_path / "card_images", "mea", "Crumb Goblin")
    art.parent.mkdir(parents=True)
    os.mkfifo(art)
    response = client.get(f"/cards/{GOBLIN}/image.png")
    assert response.status_code == 200, response.text
    Image.open(io.BytesIO(response.content)).load()
