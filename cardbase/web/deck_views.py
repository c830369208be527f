"""The deck pages as last rendered, kept in memory while nothing they show has changed.

A page (the builder, or its panels alone) is found again by what makes it: the deck and its version,
the stamps of the catalog, the collection and card tags (``db.stamps``), the URL's query and host,
the deck list's cookie; each app keeps its own (``app.state.deck_pages``). The version and the stamps are
read before the page is made, so a page is never kept under a key newer than its data.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, cast

from fastapi import Request
from fastapi.responses import HTMLResponse, Response

from cardbase.web.lru import LRU

if TYPE_CHECKING:
    from cardbase.db.engine import Database

Kept = Any
"""A rendered page (status, body, headers), or a part of one (``pages_decks.PanelsView``)."""
T = TypeVar("T")
SIZE = 128
"""Pages kept per app: 128 builder pages are about 15 MB."""
_made = threading.Lock()


def _kept_on_app(request: Request, name: str, size: int) -> LRU[tuple[Any, ...], Any]:
    """The app's LRU called ``name`` (made on first use, ``size`` entries at most)."""
    state = request.app.state
    with _made:
        if getattr(state, name, None) is None:
            setattr(state, name, LRU(size))
    kept: LRU[tuple[Any, ...], Any] = getattr(state, name)
    return kept


def pages_of(request: Request) -> LRU[tuple[Any, ...], Kept]:
    """The app's kept pages."""
    return _kept_on_app(request, "deck_pages", SIZE)


ENTRIES = 4096
"""Deck-list entries kept per app (``pages_decks.deck_entries``): about 1.2 KB each."""


def entries_of(request: Request) -> LRU[tuple[Any, ...], str]:
    """The app's kept deck-list entries."""
    return _kept_on_app(request, "deck_entries", ENTRIES)


READS = 256
"""Versions of decks whose panels' reads are kept per app (``pages_decks.DeckReads``: a deck's cards, its
history listing)."""


def reads_of(request: Request) -> LRU[tuple[Any, ...], Any]:
    """The app's kept ``pages_decks.DeckReads``, by deck id, version and stamps."""
    return _kept_on_app(request, "deck_reads", READS)


def page_key(
    request: Request,
    database: Database,
    deck_id: int,
    kind: str,
    cookie: str | None,
    keys: tuple[str, ...] | None = None,
    version: int | None = None,
) -> tuple[Any, ...]:
    """What a deck page is made from (``UnknownDeck`` if there is no such deck); ``keys``: the query
    parameters it reads (all when None); ``version``: the deck's version the page is made from (an edit's,
    whose deck is in hand), else the deck's version now."""
    from cardbase.decks.store import version_and_stamps

    read: dict[tuple[int, int], Any] = {}  # a page's parts read them once (a read changes nothing), a change anew
    if request.method in ("GET", "HEAD"):
        read = getattr(request.state, "deck_stamps", None) or read
        request.state.deck_stamps = read
    found = read.get((id(database), deck_id))
    if found is None:
        with database.session() as session:
            found = read[(id(database), deck_id)] = version_and_stamps(session, deck_id)
    now, stamps = found
    version = now if version is None else version
    query = tuple(sorted(kv for kv in request.query_params.multi_items() if keys is None or kv[0] in keys))
    host = request.headers.get("host")  # share links are made from it (without ``serve --public-url``)
    return (deck_id, version, stamps, kind, query, cookie, host)


def kept(request: Request, key: tuple[Any, ...], make: Callable[[], T]) -> T:
    """What is kept under ``key``, else ``make()``'s, kept."""
    pages = pages_of(request)
    found = pages.get(key)
    if found is None:
        found = make()
        pages.put(key, found)
    return cast(T, found)


def cached_page(request: Request, key: tuple[Any, ...], render: Callable[[], Response]) -> Response:
    """The page kept under ``key``, else ``render()``'s, kept when it is a 200."""
    pages = pages_of(request)
    found = pages.get(key)
    if found is not None:
        status, body, headers = found
        again = HTMLResponse(body, status)
        again.raw_headers = list(headers)
        return again
    response = render()
    if response.status_code == 200 and isinstance(response.body, bytes):
        pages.put(key, (response.status_code, bytes(response.body), list(response.raw_headers)))
    return response
