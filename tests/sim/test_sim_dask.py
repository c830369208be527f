"""``cardbase sim … --dask``: the lab's backends through cardbase.sim.runner.backend; the same games, and the
same records, as a local run with the same seed (issue 28). Needs the optional dask extra (installed by
``uv run`` with the dev group, and by ``.ci/run``): without it the tests fail rather than skip."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cardbase.cli.app import app
from tests.conftest import ALL_CORES, REPO

pytestmark = pytest.mark.xdist_group("pools")  # these start worker processes: one at a time

EXAMPLES = REPO / "examples" / "decks"
runner = CliRunner()


def _sim(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, ["sim", *args, "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    data.pop("elapsed_seconds", None)
    return data


def _records(folder: Path) -> list[str]:
    (path,) = folder.glob("*.jsonl")
    return path.read_text(encoding="utf-8").splitlines()


def test_sim_meio_on_a_dask_local_cluster_plays_the_local_games(tmp_path: Path, all_cores: None) -> None:
    args = ["meio", "--players", "3", "--agents", "heuristic,random,random", "--games", "12", "--seed", "8"]
    local = _sim(*args, "--jobs", "1", "--records", str(tmp_path / "local"))
    dask = _sim(*args, "--jobs", "2", "--dask", "local", "--records", str(tmp_path / "dask"))
    # A LocalCluster has one worker per core at most (the machine's, not this test worker's share).
    assert dask["jobs"] == min(2, ALL_CORES()) and local["jobs"] == 1
    assert dask["seats"] == local["seats"] and dask["decisions"] == local["decisions"]
    assert _records(tmp_path / "dask") == _records(tmp_path / "local")  # game by game, in order


def test_sim_mea_and_meikyu_on_dask_are_the_same_as_local(db_url: str) -> None:
    mea = ["mea", "--deck", str(EXAMPLES / "mea-goblin-rush.txt"), "--vs", str(EXAMPLES / "mea-tile-control.txt")]
    mea += ["--games", "8", "--seed", "2", "--db", db_url]
    a, b = _sim(*mea), _sim(*mea, "--jobs", "2", "--dask", "local")
    for key in ("decks", "turns", "endings", "decisions"):
        assert a[key] == b[key], key
    meikyu = ["meikyu", "--players", "2", "--agents", "heuristic,random", "--games", "6", "--seed", "5"]
    meikyu += ["--assume", "default", "--db", db_url]
    c, d = _sim(*meikyu), _sim(*meikyu, "--jobs", "2", "--dask", "local")
    assert c["seats"] == d["seats"] and c["meikyu"] == d["meikyu"]


def test_sim_dask_refuses_an_unreachable_scheduler_in_one_line() -> None:
    result = runner.invoke(app, ["sim", "meio", "--games", "2", "--dask", "tcp://127.0.0.1:9"])
    assert result.exit_code == 2 and "cannot reach the Dask scheduler" in result.stderr
    assert "Traceback" not in result.output


def test_a_scheduler_whose_name_never_resolves_is_refused_within_the_connect_budget(monkeypatch) -> None:
    import socket
    import threading

    from cardbase.sim import dask_backend

    never = threading.Event()  # a resolver that does not answer (a DNS server gone quiet)
    monkeypatch.setattr(socket, "getaddrinfo", lambda *args, **kw: never.wait(60) and [])
    monkeypatch.setattr(dask_backend, "CONNECT_SECONDS", 0.2)
    try:
        result = runner.invoke(app, ["sim", "meio", "--games", "2", "--dask", "tcp://scheduler.example:8786"])
    finally:
        never.set()
    assert result.exit_code == 2, result.output
    assert "cannot reach the Dask scheduler: looking up scheduler.example timed out" in result.stderr
