"""The runner's second backend: chunks of games on a Dask distributed cluster.

Optional (``uv run --extra dask``, ``pip install cardbase[dask]``). Each chunk is one task,
submitted with ``pure=False`` and retries; at most ``2 × workers`` are in flight. A worker lost
mid-run has its tasks re-run by the scheduler; on any exit (Ctrl-C included) the tasks still
pending are cancelled. Games are seeded by their index, so the results are those of a local run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from cardbase.errors import UnreadableInput, UsageError
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
        finished = as_completed()
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


@contextmanager
def dask_backend(address: str, local_workers: int) -> Iterator[DaskBackend]:
    """A backend on the cluster at ``address`` (``tcp://host:8786``), or, for ``local``, on a
    LocalCluster of ``local_workers`` single-threaded worker processes started here and stopped
    at the end."""
    try:
        import logging
        import signal

        from distributed import Client, LocalCluster
    except ImportError:
        raise UsageError(
            "--dask needs the optional dask packages: uv run --extra dask cardbase … (or pip install 'cardbase[dask]')"
        ) from None
    cluster = None
    try:
        if address == "local":
            # Ctrl-C reaches the whole process group: the workers are started with SIGINT ignored
            # (kept across exec), so that only this process sees it and stops them. A Ctrl-C
            # pressed during these seconds of start-up is ignored too (press it again after).
            previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
            try:
                cluster = LocalCluster(
                    n_workers=local_workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address="127.0.0.1:0",  # its HTTP server: loopback, a free port (8787 may be taken)
                    silence_logs=logging.ERROR,
                )
            finally:
                signal.signal(signal.SIGINT, previous)
            client = Client(cluster)
        else:
            client = Client(address, timeout="10s")
    except (OSError, TimeoutError, ValueError) as error:
        if cluster is not None:
            cluster.close()
        raise UnreadableInput(f"--dask {address}: cannot reach the Dask scheduler: {error}") from None
    try:
        workers = sum(client.nthreads().values())
        yield DaskBackend(client, workers)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
