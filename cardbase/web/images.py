"""``GET /cards/{card_id}/image.png?w=WIDTH``: a card face drawn by the project's renderer for a screen.

The art is looked up by the card's id inside the server's ``card_images/`` (the client never names
a path). Drawn faces are kept in an LRU in memory, keyed by the card id, the width and a hash of
the card's row and of its art files' change times (so an imported change, or art replaced in
``card_images/``, draws again); answers carry that hash as their ETag.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import Response

from cardbase.render.screen import WIDTH_RANGE
from cardbase.web.app import settings_of
from cardbase.web.http import header_list
from cardbase.web.lru import LRU
from cardbase.web.settings import ServerSettings

router = APIRouter()

CACHE_ENTRIES = 2_000
"""Faces kept in memory: a 300 px face is 30–90 KB of PNG, so at most about 180 MB at the default width."""
DEFAULT_WIDTH = 300


class FaceLRU(LRU[tuple[str, int, str], bytes]):
    """PNG bytes by (card id, width, row hash); thread-safe, least recently used dropped first."""

    def __init__(self, size: int = CACHE_ENTRIES) -> None:
        super().__init__(size)


def _row_hash(card: Any, declared: dict[str, str], images: Path) -> str:
    """A hash of everything the face shows: the card's row (its values, its declared art) and its art files."""
    from cardbase.db.queries import card_dict
    from cardbase.render.art import art_signature

    files = art_signature(images, card.game, card.name, declared.get(card.id))
    data = card_dict(card) | {"art": declared.get(card.id), "files": files}
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:32]


def faces_of(request: Request) -> FaceLRU:
    faces: FaceLRU | None = getattr(request.app.state, "faces", None)
    if faces is None:
        faces = request.app.state.faces = FaceLRU()
    return faces


def stored_card(settings: ServerSettings, card_id: str) -> tuple[Any, dict[str, str]]:
    """The catalog's card ``card_id`` (detached from its session) and the art it declares, or
    ``UnknownCard``: what a card's picture is drawn from."""
    from cardbase.db.models import Card
    from cardbase.errors import UnknownCard
    from cardbase.render.art import declared_paths

    with settings.database.session() as session:
        card = session.get(Card, card_id)
        if card is None:
            raise UnknownCard(card_id)
        declared = declared_paths(session, [card.id])
        session.expunge(card)
    return card, declared


@router.get("/cards/{card_id:path}/image.png", tags=["cards"], response_class=Response)
def image(
    request: Request,
    card_id: Annotated[str, PathParam(max_length=300)],
    settings: Annotated[ServerSettings, Depends(settings_of)],
    w: Annotated[int, Query(ge=WIDTH_RANGE[0], le=WIDTH_RANGE[1], description="Width in pixels.")] = DEFAULT_WIDTH,
) -> Response:
    """The card's face as PNG, ``w`` pixels wide; 304 when the client's ETag is current."""
    from cardbase.render.screen import screen_png

    card, declared = stored_card(settings, card_id)
    digest = _row_hash(card, declared, settings.images)
    etag = f'"{digest}-{w}"'
    headers = {"ETag": etag, "Cache-Control": "private, max-age=3600, must-revalidate"}
    if etag in header_list(request, "if-none-match"):
        return Response(status_code=304, headers=headers)
    faces = faces_of(request)
    key = (card.id, w, digest)
    data = faces.get(key)
    if data is None:
        from cardbase.web.errors import warner

        data = screen_png(card, w, settings.images, declared, warner(request))
        faces.put(key, data)
    return Response(data, media_type="image/png", headers=headers)
