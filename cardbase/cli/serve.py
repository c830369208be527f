"""``cardbase serve``: the web deck builder on this machine (thin: options, the socket, then uvicorn)."""

from __future__ import annotations

import contextlib
import os
from typing import TYPE_CHECKING, Annotated

import typer

from cardbase.cli.common import DbOption, FormatsOption, Number, echo
from cardbase.errors import counted, quoted

if TYPE_CHECKING:
    import socket


def serve(
    db: DbOption = None,
    host: Annotated[
        str, typer.Option("--host", help="Address to listen on (loopback by default; any other needs a token).")
    ] = "127.0.0.1",
    port: Annotated[
        int,
        typer.Option(
            "--port", min=0, max=65535, help="Port to listen on (0: a free one the system picks, printed at start)."
        ),
    ] = 8765,
    token: Annotated[
        str | None,
        typer.Option(
            "--token",
            envvar="CARDBASE_TOKEN",
            help="Token every request must carry (off loopback one is made and printed when not given).",
            show_default=False,
        ),
    ] = None,
    open_browser: Annotated[bool, typer.Option("--open", help="Open the app in the browser.")] = False,
    formats: FormatsOption = None,
    max_games: Annotated[
        int, typer.Option("--max-games", min=1, max=10_000, help="Games in play at once (/play); more are refused.")
    ] = 100,
    idle_hours: Annotated[
        float,
        typer.Option(
            "--idle-hours",
            parser=Number(0.01, 24 * 365),
            help="A game no one moves for this long is abandoned (record kept): 0.01 to 8760.",
        ),
    ] = 24.0,
    public_url: Annotated[
        str | None,
        typer.Option(
            "--public-url",
            help="The address others open this server at (e.g. https://cards.example.org): share links start with it.",
        ),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(
            "--workers",
            min=1,
            max=16,
            help="Server processes (one per core helps a team in the deck builder; the play tables stay in the first).",
        ),
    ] = 1,
) -> None:
    """Serve the card gallery, deck builder and game tables at http://127.0.0.1:8765 (Ctrl-C stops).

    Example: uv run cardbase serve --port 8765 --open
    """
    import secrets

    from cardbase.errors import UsageError
    from cardbase.web.settings import ServerSettings, is_loopback

    host = host.strip()
    if not host or len(host) > 253 or any(c.isspace() for c in host):
        raise UsageError(f"--host {quoted(host[:60])}: give an address such as 127.0.0.1, 0.0.0.0 or ::1")
    if token is not None and not 16 <= len(token) <= 200:
        raise UsageError("--token must be 16 to 200 characters (long enough not to be guessed)")
    if token is not None and not (token.isascii() and token.isprintable() and " " not in token):
        raise UsageError("--token must be printable ASCII (it goes in a link and a header)")
    if workers > 1 and not hasattr(os, "fork"):
        raise UsageError("--workers: more than one server process needs fork (Linux, macOS); leave it out here")
    if public_url is not None:
        from cardbase.web.settings import check_public_url

        try:
            public_url = check_public_url(public_url)
        except ValueError as error:
            raise UsageError(f"--public-url {quoted(public_url[:80])} {error}") from None
    from cardbase.decks.service import load_house

    house = load_house(formats, db)  # a bad file stops here, before the port is taken
    from cardbase.textfiles import keep_nothing

    keep_nothing()  # the server replaces card art it has read and shown (an upload): no command's guard
    made = token is None and not is_loopback(host)
    if made:
        token = secrets.token_urlsafe(24)
    sock = _bind(host, port)
    port = sock.getsockname()[1]  # the one taken: --port 0 lets the system pick it
    try:
        from cardbase.cli.common import open_db

        settings = ServerSettings(
            database=open_db(db),
            host=host,
            port=port,
            token=token,
            house=house,
            max_games=max_games,
            idle_hours=idle_hours,
            agent_processes=True,  # agents think in worker processes, below the pages' priority
            public_url=public_url,
        )
        _run(settings, sock, made, open_browser, workers)
    finally:
        sock.close()


def _bind(host: str, port: int) -> socket.socket:
    """The listening socket, or a usage error naming the option (a port in use, an address not here)."""
    import errno
    import socket

    from cardbase.errors import UsageError

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as error:
        raise UsageError(f"--host {quoted(host)}: not an address of this machine ({error})") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(2048)
    except OSError as error:
        sock.close()
        if error.errno == errno.EADDRINUSE:
            raise UsageError(
                f"--port {port}: the port is in use on {host} (another cardbase serve?); give another --port"
            ) from None
        if error.errno in (errno.EACCES, errno.EPERM):
            raise UsageError(f"--port {port}: not allowed to listen on it here; use a port above 1023") from None
        raise UsageError(f"--host {quoted(host)} --port {port}: cannot listen there ({error.strerror})") from None
    sock.set_inheritable(True)
    return sock


def _run(settings: object, sock: socket.socket, made: bool, open_browser: bool, workers: int = 1) -> None:
    from cardbase.web.app import create_app
    from cardbase.web.serverlog import StoppingServer, uvicorn_config
    from cardbase.web.settings import WILDCARD, ServerSettings

    assert isinstance(settings, ServerSettings)
    from cardbase.web.deadlines import raise_open_file_limit

    raise_open_file_limit()  # a connection is a file: room for many clients before the limit
    base = settings.base_url
    if settings.host in WILDCARD:
        import socket

        base = f"http://{socket.gethostname()}:{settings.port}"
    link = f"{base}/?token={settings.token}" if settings.token else f"{base}/"
    echo(f"cardbase: serving on {base}/ (Ctrl-C stops)")
    if settings.token:
        said = "a token made for this run" if made else "its token"
        echo(f"cardbase: every request needs {said}; open {link} once (it sets a cookie)")
    if open_browser:
        import webbrowser

        webbrowser.open(link)
    children = _fork_workers(settings, sock, workers) if workers > 1 else ([], None)
    app = create_app(settings)
    hall = app.state.hall
    hall.ensure_resumed()  # every unfinished game carries on, its agents too
    for problem in hall.problems:
        echo(f"cardbase: {problem}", err=True)
    if hall.active:
        echo(f"cardbase: {counted(hall.active, 'game')} in play resumed")
    config = uvicorn_config(app)
    # uvicorn re-raises the Ctrl-C it caught once it has shut down: the boundary says
    # "cardbase: interrupted" and exits 130.
    pids, private = children
    try:
        # a lab run still going is told at once, to end at its next chunk within the graceful wait
        server = StoppingServer(config, app.state.lab_stop.set)
        server.run(sockets=[sock] if private is None else [sock, private])
    finally:
        app.state.lab_stop.set()  # also when uvicorn ended otherwise
        if app.state.lab_workers is not None:
            app.state.lab_workers.close()
        hall.close()
        _stop_workers(pids)


def _fork_workers(settings: object, sock: socket.socket, workers: int) -> tuple[list[int], socket.socket]:
    """``workers - 1`` more server processes on ``sock`` (forked: they share the listening socket, and the
    kernel hands each connection to one of them), whose play requests go to this process through a
    loopback socket only it listens on (``cardbase.web.relay``); their ids, and that socket."""
    from dataclasses import replace

    from cardbase.web.app import create_app
    from cardbase.web.serverlog import StoppingServer, uvicorn_config
    from cardbase.web.settings import ServerSettings

    assert isinstance(settings, ServerSettings)
    private = _bind("127.0.0.1", 0)
    relay = f"http://127.0.0.1:{private.getsockname()[1]}"
    pids = []
    first = os.getpid()
    for _ in range(workers - 1):
        pid = os.fork()
        if pid:
            pids.append(pid)
            continue
        code = 0
        try:  # a worker: its own connections (not the first process's), no play tables
            _end_with(first)
            private.close()
            settings.database.engine.dispose(close=False)
            app = create_app(replace(settings, play_relay=relay))
            StoppingServer(uvicorn_config(app), app.state.lab_stop.set).run(sockets=[sock])
        except KeyboardInterrupt:
            pass
        except BaseException as error:  # said in one line; the process ends without the first one's clean-up
            from cardbase.crash import crash_report
            from cardbase.faults import user_error

            known = user_error(error)
            said = f"error: {known}" if known is not None else crash_report(error, "cardbase serve: a server process")
            echo(f"cardbase: server process {os.getpid()} stopped: {said}", err=True)
            code = 1
        finally:
            from cardbase.interrupts import unlink_semaphores

            unlink_semaphores()  # its lab pool's queues: os._exit skips the handler that would
            os._exit(code)
    return pids, private


def _end_with(first: int) -> None:
    """On Linux, this worker is stopped (SIGTERM: uvicorn shuts down) when the first process ends, however
    it ends (killed too); elsewhere ``_stop_workers`` stops it when the first process shuts down."""
    import signal
    import sys

    if sys.platform == "linux":
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    if os.getppid() != first:  # it ended before that was set
        os._exit(0)


def _stop_workers(pids: list[int]) -> None:
    """Stop the other server processes (Ctrl-C reaches them all; a SIGINT to the first alone, too) and wait."""
    import signal

    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGINT)
    for pid in pids:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
