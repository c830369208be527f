"""The runner's second backend: chunks of games on a Dask distributed cluster.

Optional (``uv run --extra dask``, ``pip install cardbase[dask]``). Each chunk is one task,
submitted with ``pure=False`` and retries; at most ``2 × workers`` are in flight. A worker lost
mid-run has its tasks re-run by the scheduler; on any exit (Ctrl-C included) the tasks still
pending are cancelled. Games are seeded by their index, so the results are those of a local run.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from cardbase.errors import UnreadableInput, UsageError, quoted
from cardbase.sim.runner import R

RETRIES = 3
"""Times a chunk whose task failed (e.g. its worker died) is submitted again."""


class DaskBackend:
    """Maps chunks onto a ``distributed.Client``."""

    def __init__(self, client: Any, workers: int) -> None:
        self.client = client
        self._workers = max(1, workers)

    @property
    def workers(self) -> int:
        return self._workers

    def map(self, work: Callable[[Any], R], chunks: Iterator[Any]) -> Iterator[R]:
        from distributed import as_completed

        pending: set[Any] = set()
        finished = as_completed(loop=self.client.loop)
        try:
            for chunk in chunks:
                future = self.client.submit(work, chunk, pure=False, retries=RETRIES)
                pending.add(future)
                finished.add(future)
                if len(pending) >= 2 * self._workers:
                    done = next(finished)
                    pending.discard(done)
                    yield done.result()
            for done in finished:
                pending.discard(done)
                yield done.result()
        finally:
            if pending:
                self.client.cancel(list(pending), force=True)


MAX_ADDRESS = 300
"""The longest ``--dask`` address read: a host name is at most 253 characters."""
CONNECT_SECONDS = 5
"""How long to wait for a remote scheduler: with start-up, a bad address fails within 10 s."""
CLOSE_SECONDS = 4
"""How long closing the client and the cluster may take, together, after a stop (Ctrl-C, an error)."""


def scheduler_address(text: str) -> str:
    """The ``--dask`` option checked before anything is imported or started: ``local``, or a
    scheduler's ``tcp://host:port`` (the scheme may be left out) or ``tls://host:port``; anything
    else is a usage error naming the option."""
    if text == "local":
        return text
    if len(text) > MAX_ADDRESS:
        raise UsageError(f"--dask: an address has at most {MAX_ADDRESS} characters, not {len(text):,}")
    shown = quoted(text)
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text
    if scheme not in ("tcp", "tls"):
        raise UsageError(
            f"--dask {shown}: give 'local' or a scheduler address tcp://HOST:PORT (tls://HOST:PORT with "
            f"Dask's TLS settings); cardbase does not connect by {quoted(scheme, 20)}"
        )
    from urllib.parse import urlsplit

    try:
        parts = urlsplit("//" + rest)
        host, port = parts.hostname, parts.port
    except ValueError as error:
        raise UsageError(f"--dask {shown}: not a scheduler address ({error}); e.g. tcp://10.0.0.5:8786") from None
    if not host or port is None or port == 0 or parts.path or parts.query or parts.fragment or parts.username:
        raise UsageError(f"--dask {shown}: not a scheduler address; give HOST:PORT, e.g. tcp://10.0.0.5:8786")
    return f"{scheme}://{'[' + host + ']' if ':' in host else host}:{port}"


@contextmanager
def dask_backend(address: str, local_workers: int) -> Iterator[DaskBackend]:
    """A backend on the cluster at ``address`` (``tcp://host:8786``), or, for ``local``, on a
    LocalCluster of ``local_workers`` single-threaded worker processes started here and stopped
    at the end. A Ctrl-C, even while the cluster starts, stops its workers at once."""
    address = scheduler_address(address)
    if address.startswith("tls://"):
        _check_tls_settings(address)
    if address != "local":
        _probe(address)
    try:
        from distributed import Client
    except ImportError:
        raise UsageError(
            "--dask needs the optional dask packages: uv run --extra dask cardbase … (or pip install 'cardbase[dask]')"
        ) from None
    quiet_known_dask_faults()
    cluster: Any = None
    client: Any = None
    finished = False
    try:
        if address == "local":
            cluster = _start_local_cluster(local_workers)
            client = Client(cluster, set_as_default=False)
        else:
            client = _connect(Client, address)
        yield DaskBackend(client, sum(client.nthreads().values()))
        finished = True
    finally:
        from cardbase import interrupts

        with interrupts.deferred():  # a second Ctrl-C must not leave the workers running
            if finished:
                if client is not None:
                    client.close()
                if cluster is not None:
                    cluster.close()
            else:  # stopped (Ctrl-C, an error): the workers are not asked to finish their chunks
                _stop_at_once(client, cluster)


class _SyncCancelFault(logging.Filter):
    """Drops the traceback that ``distributed.utils.sync`` logs when a Ctrl-C lands before its
    coroutine has started: its ``cancel`` callback then reads a variable not yet set (NameError,
    logged by Tornado's ``tornado.application`` logger; seen in distributed 2026.8.0). The stop
    itself works: the KeyboardInterrupt is raised as it should be."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if not isinstance(error, NameError):
            return True
        frame = error.__traceback__
        while frame is not None and frame.tb_next is not None:
            frame = frame.tb_next
        code = frame.tb_frame.f_code if frame is not None else None
        return not (code is not None and code.co_name == "cancel" and code.co_filename.endswith(_SYNC_FILE))


_SYNC_FILE = str(Path("distributed", "utils.py"))
_SYNC_CANCEL_FAULT = _SyncCancelFault()


def quiet_known_dask_faults() -> None:
    """Keep a Ctrl-C quiet: install :class:`_SyncCancelFault` (once) on Tornado's logger."""
    logger = logging.getLogger("tornado.application")
    if _SYNC_CANCEL_FAULT not in logger.filters:
        logger.addFilter(_SYNC_CANCEL_FAULT)


def _start_local_cluster(workers: int) -> Any:
    """A LocalCluster of ``workers`` processes, started in a thread while this one waits, so that
    a Ctrl-C meanwhile stops it at once (its workers killed) rather than after the start.

    Ctrl-C reaches the whole process group: the cluster's threads and workers are started with
    SIGINT blocked (kept across exec), so only this process sees it, and it stops them."""
    import threading

    from distributed import LocalCluster

    from cardbase import interrupts

    made: dict[str, Any] = {}

    def start() -> None:
        try:
            made["cluster"] = LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address="127.0.0.1:0",  # its HTTP server: loopback, a free port (8787 may be taken)
                silence_logs=logging.ERROR,
            )
        except BaseException as error:
            made["error"] = error

    starter = threading.Thread(target=start, name="cardbase: starting a Dask cluster", daemon=True)
    try:
        with interrupts.blocked_for_children():
            starter.start()
        while starter.is_alive():
            starter.join(0.1)
    except KeyboardInterrupt:
        _kill_local_workers()
        raise
    error = made.get("error")
    if isinstance(error, OSError | TimeoutError | ValueError | RuntimeError):
        raise UnreadableInput(f"--dask local: cannot start a Dask cluster here: {error}") from None
    if error is not None:
        raise error
    return made["cluster"]


def _stop_at_once(client: Any, cluster: Any) -> None:
    """Close ``client`` and ``cluster`` (either may be None) after a stop, within ``CLOSE_SECONDS``
    together: the local workers are killed first, and a close that takes longer is given up.

    Given up for good: distributed's exit hook would close a cluster not yet closed again, for up
    to 10 s more (seen at a load of 5: the command hung 10 s after its last line), and a nanny
    may have started a worker again after the kill, so the workers are killed once more."""
    if cluster is not None:
        _kill_local_workers()
    deadline = time.monotonic() + CLOSE_SECONDS
    for part in (client, cluster):
        if part is not None:
            # What is left of a local cluster ends with this process (its workers watch it).
            with suppress(TimeoutError, OSError, RuntimeError):
                part.close(timeout=max(0.5, deadline - time.monotonic()))
    if cluster is not None:
        cluster.shutdown_on_close = False  # distributed.deploy.spec.close_clusters, at exit
        _kill_local_workers()


def _kill_local_workers() -> None:
    """Kill the worker processes this process started (a LocalCluster's): at once, mid-chunk.
    Dask's own complaints as they go (a nanny's traceback for a worker it was starting) are silenced."""
    import multiprocessing

    for name in ["distributed", *logging.root.manager.loggerDict]:
        if name == "distributed" or name.startswith("distributed."):
            logging.getLogger(name).setLevel(logging.CRITICAL + 1)

    for child in multiprocessing.active_children():
        child.kill()


def _probe(address: str) -> None:
    """Refuse at once an address where nothing listens (a wrong port, an unknown host), and, for
    tcp://, one where what listens is not a Dask scheduler (which greets every connection with
    its handshake): Dask's client would retry until its timeout, or wait for ever on a server
    that says nothing."""
    import socket

    host, _, port = address.split("://", 1)[1].rpartition(":")
    try:
        where = _resolved(host.strip("[]"), int(port))
        with socket.create_connection(where, timeout=CONNECT_SECONDS) as conn:
            if address.startswith("tcp://"):
                greeting = _greeting(conn)
                if greeting is None:
                    raise UnreadableInput(
                        f"--dask {address}: nothing answered within {CONNECT_SECONDS} s; is a Dask scheduler there?"
                    )
                if not greeting:
                    raise UnreadableInput(f"--dask {address}: what answered there is not a Dask scheduler")
    except OSError as error:
        reason = (str(error) or "timed out") if isinstance(error, TimeoutError) else error.strerror or str(error)
        raise UnreadableInput(f"--dask {address}: cannot reach the Dask scheduler: {reason}") from None


def _resolved(host: str, port: int) -> tuple[str, int]:
    """``host``'s first address, looked up within ``CONNECT_SECONDS`` (the system's resolver has
    no timeout of its own: an unreachable DNS server would hold the command for its retries)."""
    import socket
    import threading

    found: list[Any] = []

    def look_up() -> None:
        try:
            found.append(socket.getaddrinfo(host, port, type=socket.SOCK_STREAM))
        except OSError as error:
            found.append(error)

    thread = threading.Thread(target=look_up, name="dask-address", daemon=True)
    thread.start()
    thread.join(CONNECT_SECONDS)
    if not found:
        raise TimeoutError(f"looking up {host} timed out")
    if isinstance(found[0], OSError):
        raise found[0]
    address = found[0][0][4]
    return str(address[0]), int(address[1])


def _greeting(conn: Any) -> bool | None:
    """Whether the first bytes a server sent are a Dask handshake (a little-endian byte count, then
    a message naming its pickle protocol); None if it sent nothing within ``CONNECT_SECONDS``."""
    deadline = time.monotonic() + CONNECT_SECONDS
    data = b""
    while time.monotonic() < deadline:
        conn.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            chunk = conn.recv(4096)
        except TimeoutError:
            break
        if not chunk:
            break
        data += chunk
        if len(data) >= 8:
            size = int.from_bytes(data[:8], "little")
            if not 0 < size <= 65536:
                return False
            if len(data) >= 8 + size:
                return b"pickle-protocol" in data[8 : 8 + size]
    return None if not data else False


def _check_tls_settings(address: str) -> None:
    """A tls:// address needs Dask's TLS settings (Dask's client fails with an internal error without them)."""
    try:
        from distributed.security import Security
    except ImportError:
        return  # said next, with how to install the dask extra
    if Security().get_connection_args("client").get("ssl_context") is None:
        raise UsageError(
            f"--dask {address}: tls:// needs Dask's TLS settings (distributed.comm.tls.ca-file, "
            "distributed.comm.tls.client.cert and .key in the Dask config); none are set"
        )


def _connect(client_class: Any, address: str) -> Any:
    """A client of the scheduler at ``address``; anything that stops it is one error naming the address."""
    try:
        return client_class(address, timeout=f"{CONNECT_SECONDS}s", set_as_default=False)
    except MemoryError:  # the frame length a server that does not speak Dask's protocol sent
        raise UnreadableInput(f"--dask {address}: what answered there is not a Dask scheduler") from None
    except Exception as error:  # a timeout, a refused connection, an unknown host, a TLS failure
        reason = str(error).splitlines()[0][:200] if str(error) else type(error).__name__
        raise UnreadableInput(f"--dask {address}: cannot reach the Dask scheduler: {reason}") from None
