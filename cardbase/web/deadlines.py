"""The HTTP protocol ``cardbase serve`` runs: uvicorn's httptools protocol with deadlines for slow clients.

uvicorn closes a keep-alive connection that stays idle between requests, but not one that never
finishes its request: a client that opens connections and sends a header line now and then (a
"slowloris") holds each one for as long as it likes, and at the process's open-file limit (1,024 on
many systems) the server can accept no one else. So a connection must send its request's headers
within ``header_seconds`` of its first byte (or of connecting), and a request's body may not stall
for ``body_idle_seconds`` while the app waits for it, and a client that stops reading an answer (its
buffers full) has ``write_stall_seconds`` to read on. A connection that sent part of a request and
ran out of time is answered 408 and closed; one that sent nothing is closed without an answer (as a
browser's idle pre-connection is); a stalled body or a stalled reader ends the request as if the
client had left.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

HEADER_SECONDS = 20.0
BODY_IDLE_SECONDS = 30.0
WRITE_STALL_SECONDS = 60.0


class DeadlineProtocol(HttpToolsProtocol):
    """httptools' protocol, with the deadlines above (class attributes, so a test may shorten them)."""

    header_seconds = HEADER_SECONDS
    body_idle_seconds = BODY_IDLE_SECONDS
    write_stall_seconds = WRITE_STALL_SECONDS
    _deadline: asyncio.TimerHandle | None = None
    _write_deadline: asyncio.TimerHandle | None = None
    _reading_body = False
    _heard = False  # any byte of the request that is due
    _app_waited = False  # the body's idle window now running began before the app asked for the body

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm(self.header_seconds, self._headers_late)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._writable()
        super().connection_lost(exc)

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._write_deadline is None:
            self._write_deadline = self.loop.call_later(self.write_stall_seconds, self.transport.abort)

    def resume_writing(self) -> None:
        self._writable()
        super().resume_writing()

    def _writable(self) -> None:
        if self._write_deadline is not None:
            self._write_deadline.cancel()
            self._write_deadline = None

    def data_received(self, data: bytes) -> None:
        self._heard = True
        if self._reading_body:
            self._app_waited = False
            self._arm(self.body_idle_seconds, self._body_stalled)
        super().data_received(data)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._deadline is None:  # the next request on a kept-alive connection
            self._arm(self.header_seconds, self._headers_late)

    def on_headers_complete(self) -> None:
        self._disarm()
        self._reading_body = True
        self._app_waited = False
        self._arm(self.body_idle_seconds, self._body_stalled)
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._reading_body = False
        self._heard = False
        self._disarm()
        super().on_message_complete()

    def _arm(self, seconds: float, then: Callable[[], None]) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(seconds, then)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _headers_late(self) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        answering = self.cycle is not None and not self.cycle.response_complete
        if self._heard and not answering:
            said = f"the request's headers did not arrive within {self.header_seconds:g} s"
            self.transport.write(
                b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
                + f"content-length: {len(said)}\r\nconnection: close\r\n\r\n{said}".encode("ascii")
            )
        self.transport.close()

    def _body_stalled(self) -> None:
        self._deadline = None
        if not self._reading_body or self.transport.is_closing():
            return
        waiting_for_app = self.flow.read_paused or (self.cycle is not None and self.cycle.waiting_for_100_continue)
        if waiting_for_app or self._app_waited:
            # The app has not read what came, or not asked for the body yet (100 Continue); or it asked
            # during this window, whose end may come just after the ask: the client's time starts then,
            # so it gets a whole window from this check.
            self._app_waited = waiting_for_app
            self._arm(self.body_idle_seconds, self._body_stalled)
            return
        self.transport.close()  # the app's next receive says the client left


def raise_open_file_limit(ceiling: int = 65_536) -> int | None:
    """Raise this process's soft limit on open files to its hard limit (at most ``ceiling``), as Go's
    runtime does for every server: each connection is a file, and a soft limit of 1,024 is a few
    hundred slow clients. The new soft limit, or None where there is no such limit (Windows) or it
    cannot be raised."""
    try:
        import resource
    except ImportError:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = ceiling if hard == resource.RLIM_INFINITY else min(hard, ceiling)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        except (ValueError, OSError):
            return None
        return wanted
    return soft if soft != resource.RLIM_INFINITY else None
