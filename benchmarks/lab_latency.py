"""How much a deck lab run in the browser slows other users: the median time of ``GET /decks`` with
the server idle, and while a default lab run goes (``/api/decks/ID/lab`` with the page's default
field, the two shipped Méa examples: 40 games per match-up and per opening size, 480 games).

Run: uv run python benchmarks/lab_latency.py [--rounds 3] [--decks 100] [--tree PATH]

``cardbase serve`` runs as its own process over a new SQLite database holding ``--decks`` copies of
the Goblin Rush example, so that ``/decks`` lists that many (``--tree``: the source tree
it runs from, e.g. an export of an older commit, to compare; default this one). Each round times
``/decks`` from one keep-alive client for ``--idle`` requests with nothing else running, then
for as long as one lab run takes (from a second client), and counts only the requests sent while
it ran. A warm-up lab run of 2 games goes first (a worker process, if the tree has one, starts).
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import PYTHON, REPO

sys.path.insert(0, str(REPO))
from tests.web.live import served_at

FIELD = ["example:mea-goblin-rush.txt", "example:mea-tile-control.txt"]


def main() -> None:
    import httpx

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--idle", type=int, default=60, help="/decks requests timed idle per round")
    parser.add_argument("--decks", type=int, default=100, help="decks the database holds (/decks lists them)")
    parser.add_argument("--tree", type=Path, default=REPO, help="the source tree cardbase serve runs from")
    args = parser.parse_args()
    tree = args.tree.resolve()
    env = {**os.environ, "PYTHONPATH": str(tree)}
    with tempfile.TemporaryDirectory() as folder:
        argv = [PYTHON, "-m", "cardbase", "serve", "--db", str(Path(folder) / "lab.db"), "--port", "0"]
        proc = subprocess.Popen(argv, cwd=tree, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            base = served_at(proc, 120)
            for stream in (proc.stdout, proc.stderr):
                threading.Thread(target=stream.read, daemon=True).start()  # type: ignore[union-attr]
            run(base, args.rounds, args.idle, args.decks, tree, httpx)
        finally:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()


def run(base: str, rounds: int, idle_count: int, decks: int, tree: Path, httpx: Any) -> None:
    text = (REPO / "examples" / "decks" / "mea-goblin-rush.txt").read_text(encoding="utf-8")
    with httpx.Client(base_url=base, timeout=300) as client, httpx.Client(base_url=base, timeout=300) as lab:
        made = client.post("/api/decks/import", json={"text": text, "name": "Rush"})
        assert made.status_code == 201, made.text
        url = f"/api/decks/{made.json()['id']}/lab"
        for k in range(2, decks + 1):
            more = client.post("/api/decks/import", json={"text": text, "name": f"Rush {k}"})
            assert more.status_code == 201, more.text
        for _ in range(10):
            client.get("/decks")
        warm = lab.get(url, params={"against": FIELD, "games": 2})
        assert warm.status_code == 200, warm.text
        idle_all: list[float] = []
        busy_all: list[float] = []
        print(f"tree: {tree}; {decks} decks")
        print("round | /decks idle p50 | during a lab run p50 (requests) | ratio | the lab run")
        for r in range(rounds):
            idle = [timed(client, "/decks") for _ in range(idle_count)]
            answer: list[Any] = []
            started = time.perf_counter()
            params = {"against": FIELD, "seed": r}
            thread = threading.Thread(target=fetch, args=(lab, url, params, answer), daemon=True)
            thread.start()
            busy = []
            while thread.is_alive():
                busy.append(timed(client, "/decks"))
            took = time.perf_counter() - started
            thread.join()
            (response,) = answer
            assert response.status_code == 200, response.text
            games = response.json()["gauntlet"]["overall"]["games"] + sum(
                s["games"] for s in response.json()["opening"]["sizes"]
            )
            busy = busy[:-1] or busy  # the last request may have begun after the run ended
            idle_all += idle
            busy_all += busy
            i, b = statistics.median(idle), statistics.median(busy)
            print(f"{r + 1} | {i:.1f} ms | {b:.1f} ms ({len(busy)}) | {b / i:.2f}x | {games} games, {took:.1f} s")
        i, b = statistics.median(idle_all), statistics.median(busy_all)
        print(f"all | {i:.1f} ms | {b:.1f} ms ({len(busy_all)}) | {b / i:.2f}x |")


def fetch(client: Any, url: str, params: dict[str, Any], into: list[Any]) -> None:
    into.append(client.get(url, params=params))


def timed(client: Any, path: str) -> float:
    start = time.perf_counter()
    response = client.get(path)
    ms = (time.perf_counter() - start) * 1000
    assert response.status_code == 200, response.text
    return ms


if __name__ == "__main__":
    main()
