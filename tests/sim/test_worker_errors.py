"""An error raised in a worker process (a chunk of games, ``cardbase serve``'s lab worker or the forked
workers of ``--jobs``) reaches the caller as it was raised: the same class, message and players' words.
It crosses as a pickle; an error whose ``__init__`` takes other arguments than its message (``InvalidData``,
``UnknownCard``) was rebuilt from its message alone: a ``TypeError`` in the pool's own thread (told as
"the worker process stopped (killed, or out of memory)", and the worker replaced) or a mangled message."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from cardbase import cores
from cardbase.errors import CardbaseError, InvalidData, InvalidRecord, Said, ServerStopping, UnknownCard, UsageError
from cardbase.sim.thinkers import WorkerChunks


def _errors() -> dict[str, CardbaseError]:
    return {
        "usage": UsageError("a usage error"),
        "invalid": InvalidData("deck.txt", ["line 1: bad", Said("line 2: run `x`", "line 2: open the page")]),
        "unknown": UnknownCard("Goblin", "mea", ["Goblins"]),
        "record": InvalidRecord("game.jsonl", "an illegal action", line=3, number=2, player="P1"),
    }


def raising(kind: str) -> str:
    """A chunk's work that raises the error ``kind`` names (module level: a spawned worker imports it)."""
    if kind == "fine":
        return kind
    raise _errors()[kind]


def _same(got: BaseException, kind: str) -> None:
    want = _errors()[kind]
    assert type(got) is type(want)
    assert str(got) == str(want) and got.args == want.args
    assert vars(got) == vars(want)


@pytest.mark.parametrize("kind", sorted(_errors()))
def test_a_cardbase_error_survives_a_pickle_whole(kind: str) -> None:
    error = _errors()[kind].taking("games", "x", reason="is not a whole number").refusing("x")
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is type(error) and str(again) == str(error)
    assert vars(again) == vars(error)


@pytest.mark.parametrize("kind", ["invalid", "unknown"])
def test_a_forked_workers_error_reaches_the_caller_as_raised(kind: str) -> None:
    with pytest.raises(CardbaseError) as raised:
        list(cores.map_in_processes(raising, iter(["fine", kind]), 1))
    _same(raised.value, kind)


def test_the_lab_workers_error_reaches_the_caller_as_raised_and_keeps_the_worker() -> None:
    chunks = WorkerChunks()
    try:
        pool: Any = chunks._pool
        for kind in ("invalid", "unknown"):
            with pytest.raises(CardbaseError) as raised:
                list(chunks.map(raising, ["fine", kind]))
            _same(raised.value, kind)
        assert chunks._pool is pool  # not taken for a dead worker and replaced
        assert list(chunks.map(raising, ["fine"])) == ["fine"]
    finally:
        chunks.close()


def test_a_worker_that_dies_after_close_is_not_renewed() -> None:
    """A run's worker that dies after :meth:`WorkerChunks.close` (the server stopping): no new worker
    pool is made, which nothing would close and which a later run would start a process in."""
    chunks = WorkerChunks()
    dead: Any = chunks._pool
    chunks.close()
    chunks._renew(dead)  # what a run whose worker died does
    with pytest.raises(ServerStopping):
        list(chunks.map(raising, ["fine"]))
