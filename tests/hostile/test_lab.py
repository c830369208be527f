"""``cardbase lab`` under bad input and Ctrl-C: one clear error line, exit 130 on SIGINT with the
workers (local processes or a Dask LocalCluster) stopped and no traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.hostile.conftest import assert_refused, run_cli
from tests.hostile.test_interrupts import _interrupt, workers_busy

RUSH = str(REPO / "examples/decks/mea-goblin-rush.txt")
CONTROL = str(REPO / "examples/decks/mea-tile-control.txt")


@pytest.mark.parametrize(
    ("args", "code", "fragment"),
    [
        (["gauntlet", RUSH, "--field", CONTROL, "--jobs", "0"], 2, "--jobs"),
        (["gauntlet", RUSH, "--field", CONTROL, "--games", "1"], 2, "--games"),
        (["gauntlet", RUSH, "--field", CONTROL, "--min-games", "0"], 2, "--min-games"),
        (["gauntlet", RUSH], 2, "--field"),
        (["gauntlet", RUSH, "--field", CONTROL, "--agents", "a,b,c"], 2, "--agents"),
        (["gauntlet", RUSH, "--field", CONTROL, "--agents", "wizard"], 2, "wizard"),
        (["gauntlet", RUSH, "--field", CONTROL, "--plot", "out.txt"], 2, "--plot"),
        (["gauntlet", RUSH, "--field", CONTROL, "--dask", "tcp://127.0.0.1:9"], 2, "--dask"),
        (["gauntlet", RUSH, "--field", "nowhere.txt"], 2, "nowhere.txt"),
        (["opening", RUSH, "--vs", CONTROL, "--agents", "random"], 2, "opening"),
        (["opening", RUSH, "--vs", CONTROL, "--agents", "heuristic:opening=3"], 2, "opening"),
        (["opening", RUSH, "--vs", CONTROL, "--games", "100001"], 2, "--games"),
        (["cards", "--players", "2", "--assume", "default", "--plot", "out.txt"], 2, "--plot"),
    ],
)
def test_lab_refuses_bad_input(args: list[str], code: int, fragment: str, db_url: str) -> None:
    assert_refused(run_cli(["lab", *args], db_url), code, fragment)


@pytest.mark.xdist_group("pools")  # worker processes; how fast it stops: benchmarks/bench_interrupts.py
@pytest.mark.parametrize("dask", [[], ["--dask", "local"]], ids=["processes", "dask-local"])
def test_lab_gauntlet_stops_on_ctrl_c(dask: list[str], tmp_path: Path) -> None:
    argv = ["lab", "gauntlet", RUSH, "--field", CONTROL, "--games", "100000", "--jobs", "2", *dask]
    # Two worker processes past their start (a Dask worker imports for a second or two first).
    busy = workers_busy(2, cpu=3.0 if dask else 1.0)
    code, _, err, _ = _interrupt([*argv, "--db", str(tmp_path / "c.db")], tmp_path, "", busy=busy)
    assert code == 130, err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert lines[-1].startswith("cardbase: interrupted: ") and "games had finished" in lines[-1], lines


@pytest.mark.parametrize(
    ("args", "code", "fragment"),
    [
        (["--players", "5"], 2, "--players"),
        (["--players", "3", "--seconds", "0"], 2, "--seconds"),
        (["--players", "3", "--seconds", "601"], 2, "--seconds"),
        (["--players", "3", "--top", "0"], 2, "--top"),
        (["--players", "2", "--seat", "3"], 2, "--seat"),
        (["--players", "3", "--agents", "wizard"], 2, "wizard"),
        (["--players", "3", "--agents", "heuristic,random"], 2, "--agents"),
    ],
)
def test_lab_split_refuses_bad_options(args: list[str], code: int, fragment: str) -> None:
    hand = str(REPO / "examples/decks/meio-hand.txt")
    assert_refused(run_cli(["lab", "split", hand, *args]), code, fragment)


def test_lab_split_refuses_a_bad_hand(tmp_path: Path) -> None:
    bad = tmp_path / "hand.txt"
    bad.write_text("game: meio\nAH\n10H\nZZ\n", encoding="utf-8")
    assert_refused(run_cli(["lab", "split", str(bad), "--players", "3"]), 1, "line 4")
    short = tmp_path / "short.txt"
    short.write_text("game: meio\nAH\n10H\n", encoding="utf-8")
    assert_refused(run_cli(["lab", "split", str(short), "--players", "3"]), 1, "13")
    wrong = tmp_path / "wrong.txt"  # the 2-player deck has no 8, 9 or 10 (it is A–7)
    wrong.write_text((REPO / "examples/decks/meio-hand.txt").read_text(encoding="utf-8"), encoding="utf-8")
    message = assert_refused(run_cli(["lab", "split", str(wrong), "--players", "2"]), 1, "wrong.txt")
    assert message.endswith("1 problem(s):")  # read, not written: no "nothing was written"
    refused = run_cli(["lab", "split", str(wrong), "--players", "2"])
    assert "10H, 9S, 8S, 10C: not in the 2-player deck (the file says players: 3)" in refused.stderr
    twice = tmp_path / "twice.txt"
    twice.write_text("AH\n" + (REPO / "examples/decks/meio-hand.txt").read_text(encoding="utf-8"), encoding="utf-8")
    assert "AH is given again" in run_cli(["lab", "split", str(twice), "--players", "3"]).stderr
    mea = str(REPO / "examples/decks/mea-goblin-rush.txt")
    assert_refused(run_cli(["lab", "split", mea, "--players", "3"]), 1, contains="this is a mea deck")


@pytest.mark.parametrize(
    ("args", "code", "fragment"),
    [
        (["--players", "6"], 2, "--players"),
        (["--players", "3", "--games", "0"], 2, "--games"),
        (["--players", "3", "--agents", "heuristic"], 2, "--agents"),
        (["--players", "3", "--assume", "nowhere.json"], 2, "nowhere.json"),
    ],
)
def test_lab_cards_refuses_bad_options(args: list[str], code: int, fragment: str, db_url: str) -> None:
    assert_refused(run_cli(["lab", "cards", *args], db_url), code, fragment)


def test_lab_cards_without_assume_lists_what_is_missing(db_url: str) -> None:
    assert_refused(run_cli(["lab", "cards", "--players", "3"], db_url), 1, "--assume")
