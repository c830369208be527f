"""What one running server knows: its database, the address it serves, and its token."""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardbase.db.engine import Database
    from cardbase.decks.formats import HouseFormats

LOOPBACK = ("127.0.0.1", "localhost", "::1")
WILDCARD = ("0.0.0.0", "::", "")  # every interface: the served address is whatever the client used

DECK_TEXT_BYTES = 1_000_000
"""An uploaded or pasted deck: the deck file bound of the CLI's readers (``decks.text.MAX_BYTES``)."""
SPREADSHEET_BYTES = 5_000_000
"""An uploaded catalog spreadsheet (the page's and the API's, one bound). The CLI reads files up to
64 MiB from disk; over HTTP 5 MB is far above a real catalog (500 Méa cards with full text are
about 140 KB of CSV)."""
RECORD_BYTES = 1_000_000
"""A game record opened in ``/replay`` over HTTP (the CLI reads 64 MiB files from disk): past the
bound of a replay's actions (``sim.replay_views.MAX_REPLAY_ACTIONS``, 5,000 lines of about 60
bytes) with room for a Méa header's two decks (about 10 KB). The request body bound of every page
and API route (``DECK_TEXT_BYTES`` and the multipart overhead) holds it."""
MULTIPART_OVERHEAD = 64 * 1024
"""Room for a form's other fields and the multipart boundaries around the one file."""
UPLOAD_BODY_BYTES = -(-SPREADSHEET_BYTES // 3) * 4 + MULTIPART_OVERHEAD
"""A request to an import path: the spreadsheet, or the page's confirmation that sends it back in base64."""
WRITE_SLOTS = 4
"""Requests that change something run at most this many at once (each holds a worker thread and a
connection): reads always have threads and pooled connections left (40 threads; PostgreSQL's pool
holds 15 connections)."""
RETRY_AFTER_SECONDS = 2
"""The ``Retry-After`` of a 503 for a busy database: a lock is rarely held for long."""


def is_loopback(host: str) -> bool:
    if host in LOOPBACK:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


MAX_PUBLIC_URL = 2_000
"""``serve --public-url``: an address is far shorter; a link longer than this breaks in browsers."""


_URL_CHARACTERS = re.compile(r"[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]*")
"""The characters RFC 3986 lets a URL hold as they are (every other is written ``%XX``)."""
_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")
_HOST_LABEL = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)")


def check_public_url(url: str) -> str:
    """``url`` as the base of share links (no trailing ``/``), or ``ValueError`` saying why not:
    an ``http`` or ``https`` URL with a host (a name of letters, digits, ``-`` and dots, or an IP
    address), no user or password, no query or fragment, within ``MAX_PUBLIC_URL``; only the
    characters a URL holds, and no ``%XX`` that decodes to a control character (``%00``, ``%0a``)."""
    from urllib.parse import unquote, urlsplit

    url = url.strip()
    if len(url) > MAX_PUBLIC_URL:
        raise ValueError(f"has at most {MAX_PUBLIC_URL:,} characters, not {len(url):,}")
    if not url.isascii() or not url.isprintable() or " " in url:
        raise ValueError("must be printable ASCII without spaces (encode other characters as %XX)")
    if not _URL_CHARACTERS.fullmatch(url):
        bad = next(c for c in url if not _URL_CHARACTERS.fullmatch(c))
        raise ValueError(f"holds {bad!r}, which a URL writes as %{ord(bad):02X}")
    if _PERCENT.search(url):
        raise ValueError("holds a '%' that is not an escape %XX of two hex digits")
    try:
        decoded = unquote(url, errors="strict")
    except UnicodeDecodeError:
        raise ValueError("holds %XX escapes that are not UTF-8 text") from None
    if any(c < " " or "\x7f" <= c < "\xa0" for c in decoded):
        raise ValueError("holds an escape of a control character (%00 to %1F, %7F to %C2%9F): a link cannot carry it")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - a bad port raises here
    except ValueError as error:
        raise ValueError(f"is not a URL ({error})") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError("must be an http:// or https:// URL with a host, e.g. https://cards.example.org")
    if "@" in parts.netloc:
        raise ValueError("must not hold a user name or password (user@): share links would show them")
    if parts.query or parts.fragment or "?" in url or "#" in url:
        raise ValueError("must not hold a query (?…) or a fragment (#…): it is the base links start with")
    host = parts.hostname
    try:
        ipaddress.ip_address(host)
    except ValueError:
        labels = host.removesuffix(".").split(".")
        if len(host) > 253 or not all(_HOST_LABEL.fullmatch(label) for label in labels):
            raise ValueError(
                f"has the host {host!r}: a host name is letters, digits and '-' in dot-separated parts "
                "(of 1 to 63 characters), or an IP address"
            ) from None
    return url.rstrip("/")


@dataclass(frozen=True)
class ServerSettings:
    """The options of ``cardbase serve`` that the app itself needs."""

    database: Database
    host: str = "127.0.0.1"
    port: int = 8765
    token: str | None = None  # required on every request when set; set whenever host is not loopback
    images: Path = Path("card_images")  # card art, looked up by card id inside it; never a client path
    house: HouseFormats | None = None  # the house formats of ``serve --formats``
    lock_wait: float | None = None  # a write's whole wait for its turn and its locks (None: LOCK_WAIT_SECONDS)
    write_slots: int = WRITE_SLOTS
    max_games: int = 100  # games in play at once (``serve --max-games``)
    idle_hours: float = 24.0  # a game no one moves for this long is abandoned (``serve --idle-hours``)
    agent_workers: int = 2  # agent decisions of every table at once
    agent_processes: bool = False  # in worker processes of lower priority (``serve``), else in threads
    public_url: str | None = None  # the base of share links (``serve --public-url``), else the request's own
    play_relay: str | None = None  # another process has the play tables (``serve --workers``): its loopback URL

    @property
    def loopback(self) -> bool:
        return is_loopback(self.host)

    @property
    def base_url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"
