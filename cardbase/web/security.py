"""Host (DNS rebinding), token and Origin (CSRF) checks, body size bounds and the last-resort error
catch, installed on the app as one ASGI middleware (``Guard``). No CORS: no route sends
``Access-Control-Allow-*``, so browsers keep other sites from reading any answer.

Readings:

- **Host.** A request whose ``Host`` is not the address served is refused (400): a DNS-rebinding
  page reaches this server under its own name, and that name is refused. Bound to loopback, the
  names are ``127.0.0.1``, ``localhost`` and ``[::1]``; bound to one address, that address and this
  machine's host names; bound to every interface (``0.0.0.0``, ``::``), any IP address and this
  machine's names. The port must be the served port.
- **Token.** With a token (always off loopback), every request needs it: ``Authorization: Bearer
  TOKEN``, or the cookie that opening ``/?token=TOKEN`` sets (HttpOnly, SameSite=Strict), after which
  the page reloads without the token in its address. Compared with ``secrets.compare_digest``; it is
  never written into an answer or a log line.
- **Addresses.** A path or query holding NUL (``%00``) is refused (400) on every backend alike; the
  reload after the token link goes to a path on this server (``local_path``), whatever the path
  sent (``//other.site/``, ``/\\other.site/``, their encoded forms).
- **Origin.** A state-changing request (POST, PUT, PATCH, DELETE) whose ``Origin`` is not this
  server's (another site, or ``null``) is refused (403); so is one that a browser marks as coming
  from another site (``Sec-Fetch-Site: cross-site`` or ``same-site``). Without ``Origin`` the request
  is taken as a non-browser client's (curl, a script: browsers send ``Origin`` on every cross-origin
  POST and DELETE), except that a request carrying the token only by cookie must also show
  ``Origin`` or ``Sec-Fetch-Site: same-origin``: a cookie is what a browser adds by itself.
"""

from __future__ import annotations

import contextlib
import ipaddress
import secrets
import socket
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import parse_qsl, unquote_plus, urlencode

from fastapi import FastAPI
from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from cardbase.errors import Said, plural
from cardbase.games.base import whole_number
from cardbase.web.settings import (
    DECK_TEXT_BYTES,
    LOOPBACK,
    MULTIPART_OVERHEAD,
    UPLOAD_BODY_BYTES,
    WILDCARD,
    ServerSettings,
)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

COOKIE = "cardbase_token"
SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),  # JSON and text are never read as HTML or script
    (b"x-frame-options", b"DENY"),  # no other site frames the pages (clickjacking)
    (b"referrer-policy", b"same-origin"),
    # Every asset is the app's own: no inline script, no other site's script, style, frame or form target.
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; script-src 'self'; style-src 'self'; object-src 'none'; "
        b"base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
    ),
]
STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
UPLOAD_PATHS = ("/catalog/import", "/collection/import")
"""Paths (ending so, under /api or a page) that take a spreadsheet upload (or a collection list, which
may be one): a larger body bound."""


def body_bound(path: str) -> int:
    """The most bytes a request body to ``path`` may have."""
    if path.rstrip("/").endswith(UPLOAD_PATHS):
        return UPLOAD_BODY_BYTES
    return DECK_TEXT_BYTES + MULTIPART_OVERHEAD


FORM_URLENCODED = "application/x-www-form-urlencoded"
RAW_BODY_PATHS = frozenset({"/api/replay"})
"""Routes that read the body as it came, whatever its Content-Type says (a record sent with ``curl
--data-binary``, which calls it a form): their body is neither checked nor rewritten as a form's."""


def _field_name(pair: bytes) -> str:
    from urllib.parse import unquote_to_bytes

    return unquote_to_bytes(pair.partition(b"=")[0].replace(b"+", b" ")).decode("utf-8", "replace")


def form_body_problem(body: bytes) -> str | None:
    """Why a URL-encoded form body is not UTF-8 text (None when it is), naming the field: raw bytes
    that are no UTF-8 (a Latin-1 ``è``), or a percent-escape of such bytes (``%FF``, half a character)."""
    from urllib.parse import unquote_to_bytes

    from cardbase.errors import quoted

    for pair in body.split(b"&"):
        for part in pair.split(b"=", 1):
            try:
                part.decode("utf-8")
                unquote_to_bytes(part.replace(b"+", b" ")).decode("utf-8")
            except UnicodeDecodeError:
                return (
                    f"the form field {quoted(_field_name(pair), 60)} is not UTF-8 text (bytes that are no "
                    "character): send the form as UTF-8"
                )
    return None


def ascii_form(body: bytes) -> bytes:
    """A UTF-8 form body with every non-ASCII byte percent-encoded: what a browser sends, and what
    the form parser reads as UTF-8 (raw bytes, as ``curl -d 'name=Crème'`` sends them, it reads as Latin-1)."""
    if body.isascii():
        return body
    return b"".join(b"%%%02X" % byte if byte >= 0x80 else bytes([byte]) for byte in body)


def local_path(path: str) -> str:
    """``path`` as an address on this server: one leading slash (``//host/x``, ``/\\host/x`` and their
    encoded forms would lead browsers to another site), every character that is not plainly part of
    a path percent-encoded (a backslash too)."""
    from urllib.parse import quote

    return "/" + quote(path.lstrip("/\\"), safe="/:@!$&'()*+,;=-._~")


def _split_host(value: str) -> tuple[str, int | None] | None:
    """``Host`` as (name, port); None when it does not parse."""
    value = value.strip().lower()
    if not value:
        return None
    if value.startswith("["):
        end = value.find("]")
        if end < 0:
            return None
        name, rest = value[1:end], value[end + 1 :]
    else:
        name, _, port_text = value.partition(":")
        rest = ":" + port_text if port_text else ""
    if rest and not rest.startswith(":"):
        return None
    port_text = rest[1:]
    if rest and not (port_text.isascii() and port_text.isdecimal() and len(port_text) <= 5):
        return None
    return name, int(port_text) if port_text else None


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def _machine_names() -> set[str]:
    names = set()
    for get in (socket.gethostname, socket.getfqdn):
        with contextlib.suppress(OSError):
            names.add(get().lower())
    return {n for n in names if n}


class Guard:
    """The checks, in order: Host, token, Origin, body size; then the app, with any crash caught."""

    def __init__(self, app: ASGIApp, settings: ServerSettings) -> None:
        self.app = app
        self.settings = settings
        host = settings.host.lower().strip("[]")
        if host in LOOPBACK or settings.loopback:
            self.names: set[str] | None = set(LOOPBACK) | {host}
        elif host in WILDCARD:
            self.names = None  # any IP literal, or this machine's names
        else:
            self.names = {host} | _machine_names()
        self.machine = _machine_names()
        self.token = settings.token.encode() if settings.token else None

    def host_ok(self, value: str) -> bool:
        parsed = _split_host(value)
        if parsed is None:
            return False
        name, port = parsed
        if (port or 80) != self.settings.port:
            return False
        if self.names is None:
            return _is_ip(name) or name in LOOPBACK or name in self.machine
        return name in self.names

    def _matches(self, supplied: str | None) -> bool:
        if self.token is None or supplied is None:
            return False
        return secrets.compare_digest(supplied.encode("utf-8", "surrogateescape"), self.token)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        path = scope.get("path", "/")
        headers = Headers(scope=scope)
        started = False
        overflow: list[Response] = []  # the 413 to send instead of the app's answer, once the body ran over

        async def watched_send(message: Message) -> None:
            nonlocal started
            if overflow:
                # FastAPI turns an error while reading a body into its own 400; the body ran over
                # its bound, so the answer is the 413.
                if message["type"] == "http.response.start" and not started:
                    started = True
                    await overflow[0](scope, receive, send_with_headers)
                return
            if message["type"] == "http.response.start":
                started = True
            await send_with_headers(message)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                have = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = [*message.get("headers", []), *[h for h in SECURITY_HEADERS if h[0] not in have]]
            await send(message)

        refusal = self.refusal(request, headers)
        bound = body_bound(path)
        length = headers.get("content-length")
        too_big = length is not None and (not (length.isascii() and whole_number(length, bound) is not None))
        if refusal is None and too_big:
            refusal = self.refuse(
                request, 413, f"the request body is over {bound:,} {plural(bound, 'byte')}, the bound for {path}"
            )
        if refusal is not None:
            await refusal(scope, receive, watched_send)
            return
        received = 0

        async def bounded_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > bound:
                    from cardbase.web.errors import TooLarge

                    said = f"the request body is over {bound:,} {plural(bound, 'byte')}, the bound for {path}"
                    overflow.append(self.refuse(request, 413, said))
                    raise TooLarge(said)
            return message

        app_receive: Receive = bounded_receive
        kind = headers.get("content-type", "").partition(";")[0].strip().lower()
        if request.method in STATE_CHANGING and kind == FORM_URLENCODED and path.rstrip("/") not in RAW_BODY_PATHS:
            # Read whole (it is small: the bound holds) to check it is UTF-8 before any route reads it.
            from cardbase.web.errors import TooLarge

            chunks: list[bytes] = []
            try:
                while True:
                    message = await bounded_receive()
                    if message["type"] != "http.request":
                        return  # the client left before its body was whole: no half form is taken, no one to answer
                    chunks.append(message.get("body", b""))
                    if not message.get("more_body", False):
                        break
            except TooLarge:
                await overflow[0](scope, receive, send_with_headers)
                return
            body = b"".join(chunks)
            problem = form_body_problem(body)
            if problem is not None:
                await self.refuse(request, 400, problem)(scope, receive, send_with_headers)
                return
            app_receive = _replay(ascii_form(body), receive)
        try:
            await self.app(scope, app_receive, watched_send)
        except Exception as error:  # the last resort: a bug becomes one line, the server keeps serving
            from starlette.requests import ClientDisconnect

            if isinstance(error, ClientDisconnect):
                return  # the client left while its body came (a Content-Length it never sent): no one to answer
            if started:
                raise
            from cardbase.errors import CardbaseError
            from cardbase.web.errors import cardbase_error_response, crash_response

            if isinstance(error, CardbaseError):
                response = cardbase_error_response(request, error)
            else:
                response = crash_response(request, error)
            await response(scope, receive, watched_send)

    def refusal(self, request: Request, headers: Headers) -> Response | None:
        """The answer refusing this request, or None to let it through."""
        host = headers.get("host", "")
        if not self.host_ok(host):
            return self.refuse(
                request,
                400,
                f"the Host header {host[:100]!r} is not the address this server serves "
                f"({self.settings.base_url.split('://', 1)[1]}); open {self.settings.base_url}/",
            )
        by_cookie = False
        if self.token is not None:
            query = request.query_params
            if "token" in query:
                return self.token_link(request, query.get("token"))
            auth = headers.get("authorization", "")
            bearer = auth[7:].strip() if auth[:7].lower() == "bearer " else None
            if not self._matches(bearer):
                if not self._matches(request.cookies.get(COOKIE)):
                    said = "a wrong token" if bearer or request.cookies.get(COOKIE) else "no token"
                    needs = f"this server needs its token and the request has {said}"
                    return self.refuse(
                        request,
                        401,
                        Said(
                            f"{needs}: open the link `cardbase serve` printed, or send Authorization: Bearer <token>",
                            f"{needs}: open the link the server printed when it was started (its token is in it)",
                        ),
                        {"WWW-Authenticate": "Bearer"},
                    )
                by_cookie = True
        if request.method in STATE_CHANGING:
            problem = self.origin_problem(headers, host, by_cookie)
            if problem:
                return self.refuse(request, 403, problem)
        if "\x00" in request.url.path or "\x00" in unquote_plus(request.url.query):
            # no id, name or query holds one, and PostgreSQL cannot even compare with one
            return self.refuse(request, 400, "the address holds a NUL character (%00), which no path or parameter may")
        return None

    def origin_problem(self, headers: Headers, host: str, by_cookie: bool) -> str | None:
        origin = headers.get("origin")
        site = (headers.get("sec-fetch-site") or "").lower()
        if origin is not None:
            if origin.lower() != f"http://{host.lower()}":
                return (
                    f"refused a {'cross-site' if origin != 'null' else 'sandboxed'} request: its Origin "
                    f"{origin[:100]!r} is not this server ({self.settings.base_url})"
                )
            return None
        if site and site not in ("same-origin", "none"):
            return (
                f"refused a request a browser marks as {site} (Sec-Fetch-Site): changes come from this server's pages"
            )
        if by_cookie and site != "same-origin":
            return "refused a browser request without Origin: changes must come from this server's pages"
        return None

    def token_link(self, request: Request, supplied: str | None) -> Response:
        """``?token=…``: set the cookie and reload the same address without the token."""
        if not self._matches(supplied):
            wrong = "the link's token is wrong: open the link"
            said = Said(f"{wrong} `cardbase serve` printed", f"{wrong} the server printed when it was started")
            return self.refuse(request, 401, said)
        params = [(k, v) for k, v in parse_qsl(request.url.query, keep_blank_values=True) if k != "token"]
        target = local_path(request.url.path) + (f"?{urlencode(params)}" if params else "")
        from html import escape

        page = (
            '<!doctype html><html lang="en"><head><meta charset="utf-8">'
            f'<meta http-equiv="refresh" content="0;url={escape(target)}"><title>cardbase</title></head>'
            f'<body><p><a href="{escape(target)}">Continue to cardbase</a></p></body></html>'
        )
        # A same-site reload rather than a 303: a SameSite=Strict cookie set by a page opened from
        # another site's link is not sent on the redirect that follows, but is on this reload.
        response = HTMLResponse(page, headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})
        response.set_cookie(COOKIE, supplied or "", httponly=True, samesite="strict", path="/")
        return response

    def refuse(self, request: Request, status: int, message: str, headers: dict[str, str] | None = None) -> Response:
        from cardbase.web.errors import error_response

        return error_response(request, request.url.path, status, message, headers=headers)


def strict_multipart() -> None:
    """Make every multipart form read by the app refuse a text field that is not in its charset
    (UTF-8, or the ``charset`` its Content-Type names) with a 400 naming the field: Starlette's
    parser would read it as Latin-1 (``Cr\\xe8me`` as ``Crème``, ``\\xff\\xfe`` as ``ÿþ``) and
    the route store that. Starlette makes its parser in ``starlette.requests``; a subclass put
    there checks each text part as it ends (files are bytes, unchecked)."""
    import starlette.requests
    from starlette.formparsers import MultiPartException, MultiPartParser

    from cardbase.errors import quoted

    made_by = vars(starlette.requests)  # where Request.form() finds the parser it makes
    if getattr(made_by["MultiPartParser"], "strict", False):
        return

    class StrictMultiPartParser(MultiPartParser):
        strict = True

        def on_part_end(self) -> None:
            part = self._current_part
            if part.file is None:
                try:
                    bytes(part.data).decode(self._charset or "utf-8")
                except (UnicodeDecodeError, LookupError):
                    said = "UTF-8" if self._charset in ("", "utf-8", "utf8") else quoted(self._charset)
                    raise MultiPartException(
                        f"the form field {quoted(part.field_name, 60)} is not {said} text (bytes that are no "
                        "character): send the form as UTF-8"
                    ) from None
            super().on_part_end()

    made_by["MultiPartParser"] = StrictMultiPartParser


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives ``body`` whole first, then what ``receive`` gives (a disconnect)."""
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


def install(app: FastAPI, settings: ServerSettings) -> None:
    """Add the checks to ``app`` (outermost of the app's own middleware)."""
    strict_multipart()
    app.add_middleware(Guard, settings=settings)
