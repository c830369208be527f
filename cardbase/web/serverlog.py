"""uvicorn's own log lines under ``cardbase serve``, made terminal-safe by ``cardbase.terminal``.

What uvicorn (httptools) says about a request can carry the client's text: the access line (client, method,
path with query, HTTP version, status), and an exception's traceback when a bug lets one through, whose
message may hold the request's percent-decoded path or a header as sent (an ESC, a carriage return, a
line break, a bidi override, a NUL). :func:`log_config` is uvicorn's own logging config with its two
formatters swapped for the ones below: every message, argument and exception message is shown through
``one_line`` (a line break in it is ``\\n``, so it cannot forge a second log line), the traceback's frames
through ``safe_text``; uvicorn's own prefix and colours stay, so a normal line reads as before.
"""

from __future__ import annotations

import copy
import logging
import re
import socket
import traceback
from collections.abc import Callable, Mapping
from types import FrameType, TracebackType
from typing import Any

import uvicorn
from uvicorn.logging import AccessFormatter, DefaultFormatter

from cardbase.terminal import one_line, safe_text

_EDGES = re.compile(r"(\n*)(.*?)(\n*)", re.DOTALL)

ExcInfo = tuple[type[BaseException], BaseException, TracebackType | None] | tuple[None, None, None]


def _safe_arg(arg: object) -> object:
    """A log call's argument as shown: a number as it is (``%d`` still works), anything else as safe text."""
    return arg if isinstance(arg, int | float) else one_line(str(arg))


def exception_text(exc_info: ExcInfo) -> str:
    """The traceback of ``exc_info`` as ``logging`` writes it, terminal-safe: a frame (file, line and
    source, from this machine's files) keeps its lines; every other part (an exception's message, a
    note, the chaining sentences) is made one line between the line breaks that frame it."""
    shown = []
    for chunk in traceback.format_exception(*exc_info):
        if chunk.lstrip(" |").startswith("File "):
            shown.append(safe_text(chunk))
        else:
            found = _EDGES.fullmatch(chunk)
            assert found is not None  # the pattern matches any text
            before, text, after = found.groups()
            shown.append(before + one_line(text) + after)
    return "".join(shown).removesuffix("\n")


class _SafeParts(logging.Formatter):
    """The exception and stack parts of a record, terminal-safe (shared by both formatters)."""

    def formatException(self, ei: Any) -> str:
        return exception_text(ei)

    def formatStack(self, stack_info: str) -> str:
        return safe_text(stack_info)


class SafeDefaultFormatter(_SafeParts, DefaultFormatter):
    """uvicorn's error-log formatter (``LEVEL:  message``), the message shown through ``one_line``."""

    def format(self, record: logging.LogRecord) -> str:
        safe = copy.copy(record)
        # A trailing line break ends the line (uvicorn's "Exception in ASGI application\n").
        safe.msg = one_line(record.getMessage().rstrip("\n"))
        safe.args = None
        safe.exc_text = None  # never a traceback another formatter cached on the record
        return super().format(safe)


class SafeAccessFormatter(_SafeParts, AccessFormatter):
    """uvicorn's access-log formatter (``client - "METHOD path HTTP/1.1" status``), each argument (the
    client, method, path with query, version) shown through ``one_line``; the status stays a number."""

    def format(self, record: logging.LogRecord) -> str:
        safe = copy.copy(record)
        safe.msg = one_line(str(record.msg))
        if isinstance(record.args, tuple):
            safe.args = tuple(_safe_arg(arg) for arg in record.args)
        elif isinstance(record.args, Mapping):
            safe.args = {key: _safe_arg(value) for key, value in record.args.items()}
        safe.exc_text = None
        return super().format(safe)


def log_config() -> dict[str, Any]:
    """uvicorn's default logging config (a copy: uvicorn writes ``use_colors`` into the one it is given)
    with the terminal-safe formatters: the error log on stderr, the access log on stdout."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config["formatters"]["default"]["()"] = f"{__name__}.SafeDefaultFormatter"
    config["formatters"]["access"]["()"] = f"{__name__}.SafeAccessFormatter"
    return config


def uvicorn_config(app: Any, graceful_seconds: int = 5) -> uvicorn.Config:
    """uvicorn's settings for cardbase's ``app`` (``cardbase serve``, and the tests' live servers): warnings
    and errors only, no access log (a ``?token=`` link would be written there), its log lines
    terminal-safe (:func:`log_config`); ``graceful_seconds`` for open requests when it stops; slow
    clients cut off (:mod:`cardbase.web.deadlines`)."""
    from cardbase.web.deadlines import DeadlineProtocol

    return uvicorn.Config(
        app,
        http=DeadlineProtocol,
        log_config=log_config(),
        log_level="warning",
        access_log=False,
        server_header=False,
        timeout_graceful_shutdown=graceful_seconds,
    )


class StoppingServer(uvicorn.Server):
    """uvicorn's server that calls ``on_exit`` as soon as it is told to stop (Ctrl-C, SIGTERM), before
    it waits for open requests: ``cardbase serve`` stops its lab runs there (``app.state.lab_stop``),
    so a run ends at its next chunk with its worded 503 within the graceful wait, not cut off after it
    (a bare 500 to the client and a traceback on the terminal)."""

    def __init__(self, config: uvicorn.Config, on_exit: Callable[[], None]) -> None:
        super().__init__(config)
        self.on_exit = on_exit

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        self.on_exit()
        super().handle_exit(sig, frame)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        """uvicorn's shutdown, and the application's even after a second Ctrl-C: uvicorn skips it then
        (a forced exit), leaving the lifespan task waiting, cancelled as the loop closes, which Starlette
        reports as a traceback. ``uv run`` passes the terminal's Ctrl-C on to the server, which so gets
        two for one press. The app's shutdown holds nothing to wait for: it is over at once."""
        await super().shutdown(sockets)
        if self.force_exit:
            await self.lifespan.shutdown()
