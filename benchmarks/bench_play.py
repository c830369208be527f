"""Play in the browser (issue 25): how fast a move reaches the other seat's open page, a person's
page while 20 games are played by agents on the same server, and memory per game.

Run: uv run python benchmarks/bench_play.py [--moves 200] [--rounds 3] [--seconds 20]

- **Event latency.** ``cardbase serve`` in its own process over a new SQLite file; a Meio game of
  two people through the API, each seat's event stream open (``GET /api/games/{id}/events``). Each
  move is a ``POST …/actions`` by the seat to move; the time from sending it to the arrival, on
  the *other* seat's stream, of the view with the new version. Peers measured in the same run,
  interleaved with the moves: the move's own answer (the POST's round trip) and ``GET /healthz``.
  Target: p95 ≤ 200 ms on loopback.
- **A person among 20 agent games.** The same server; a person plays Meio against the heuristic
  agent, each move a page load (``GET /play/{id}``, the seat's page) and a POST. In ``rounds``
  rounds: ``seconds`` quiet (nothing else running), then ``seconds`` with 20 games of three
  ``search`` agents (one round of Meio each) in play at once (a game that ends is replaced). The
  person's page p50/p95 in each phase; the ratio loaded/quiet is the figure.
- **A page beside busy agents.** In this process: a seat's view built anew (a page's work), alone,
  beside two agents thinking in threads of this process, and beside two in worker processes at
  nice 10 (as ``serve`` runs them), interleaved; the ratio of medians to alone.
- **Memory per game.** In this process: tracemalloc's growth for 50 tables of each game, fresh and
  after 60 actions, per table.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_web import serve
from common import REPO, table


def p50_p95(seconds: list[float]) -> tuple[float, float]:
    ordered = sorted(seconds)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered) * 1000, p95 * 1000


class Stream:
    """A seat's event stream, read in a thread: the arrival time of each version."""

    def __init__(self, base: str, game_id: str, key: str) -> None:
        self.arrived: dict[int, float] = {}
        self.ready = threading.Event()
        self.stop = False
        self.thread = threading.Thread(target=self._read, args=(base, game_id, key), daemon=True)
        self.thread.start()
        self.ready.wait(30)

    def _read(self, base: str, game_id: str, key: str) -> None:
        import httpx

        with (
            httpx.Client(base_url=base, timeout=httpx.Timeout(None, connect=10)) as http,
            http.stream("GET", f"/api/games/{game_id}/events", headers={"Authorization": f"Seat {key}"}) as events,
        ):
            data = ""
            for line in events.iter_lines():
                now = time.perf_counter()
                if line.startswith("data: "):
                    data = line[6:]
                elif not line and data:
                    version = json.loads(data)["version"]
                    self.arrived.setdefault(version, now)
                    self.ready.set()
                    data = ""
                if self.stop:
                    return


def bench_events(base: str, moves: int) -> list[tuple[str, str, str, str]]:
    import httpx

    latencies: list[float] = []
    answers: list[float] = []
    health: list[float] = []
    with httpx.Client(base_url=base, timeout=30) as http:
        while len(latencies) < moves:
            made = http.post("/api/games", json={"game": "meio", "seats": [{"agent": "human"}] * 2}).json()
            game_id = made["id"]
            keys = {s["seat"]: s["key"] for s in made["seats"]}
            streams = {seat: Stream(base, game_id, key) for seat, key in keys.items()}
            data = http.get(f"/api/games/{game_id}").json()
            while data["status"] == "playing" and len(latencies) < moves:
                seat = data["current_player"]
                other = streams[1 - seat]
                start = time.perf_counter()
                moved = http.post(
                    f"/api/games/{game_id}/actions",
                    json={"id": 0, "version": data["version"]},
                    headers={"Authorization": f"Seat {keys[seat]}"},
                )
                answers.append(time.perf_counter() - start)
                data = moved.json()
                deadline = time.monotonic() + 10
                while data["version"] not in other.arrived and time.monotonic() < deadline:
                    time.sleep(0.0005)
                latencies.append(other.arrived.get(data["version"], float("inf")) - start)
                h0 = time.perf_counter()
                http.get("/healthz")
                health.append(time.perf_counter() - h0)
            for stream in streams.values():
                stream.stop = True
    ev50, ev95 = p50_p95(latencies)
    an50, an95 = p50_p95(answers)
    h50, h95 = p50_p95(health)
    return [
        (
            f"move → other seat's stream ({len(latencies)} moves)",
            f"p50 {ev50:.1f} / p95 {ev95:.1f} ms",
            "—",
            "p95 ≤ 200 ms",
        ),
        (
            "the move's own answer (POST)",
            f"p50 {an50:.1f} / p95 {an95:.1f} ms",
            f"stream/POST p50 {ev50 / an50:.2f}×",
            "",
        ),
        ("GET /healthz", f"p50 {h50:.1f} / p95 {h95:.1f} ms", f"stream/healthz p50 {ev50 / h50:.2f}×", ""),
    ]


def person_pages(base: str, seconds: float) -> list[float]:
    """A person playing Meio against the heuristic agent for ``seconds``: each page load's time."""
    import httpx

    times: list[float] = []
    end = time.monotonic() + seconds
    with httpx.Client(base_url=base, timeout=60) as browser:
        while time.monotonic() < end:
            made = browser.post(
                "/api/games", json={"game": "meio", "seats": [{"agent": "human"}, {"agent": "heuristic"}]}
            )
            game_id = made.json()["id"]
            key = made.json()["seats"][0]["key"]
            browser.get(f"/play/{game_id}", params={"key": key})
            while time.monotonic() < end:
                start = time.perf_counter()
                page = browser.get(f"/play/{game_id}")
                times.append(time.perf_counter() - start)
                data = browser.get(f"/api/games/{game_id}").json()
                if data["status"] != "playing":
                    break
                if data["current_player"] != 0:
                    time.sleep(0.01)  # the agent's move is under way
                    continue
                assert page.status_code == 200
                browser.post(
                    f"/api/games/{game_id}/actions",
                    json={"id": 0, "version": data["version"]},
                    headers={"Authorization": f"Seat {key}"},
                )
    return times


def agent_load(base: str, games: int, stop: threading.Event) -> int:
    """Keep ``games`` games of three search agents in play until ``stop`` (one round each, so that they
    end soon after it); how many were started."""
    import httpx

    started = 0
    body = {"game": "meio", "rules": {"rounds": 1}, "seats": [{"agent": "search"}] * 3}
    with httpx.Client(base_url=base, timeout=60) as http:
        while not stop.is_set():
            playing = len(http.get("/api/games", params={"status": "playing", "limit": 1000}).json())
            for _ in range(max(0, games + 1 - playing)):  # +1: the person's own game
                if http.post("/api/games", json=body).status_code == 201:
                    started += 1
            stop.wait(0.5)
        deadline = time.monotonic() + 300  # let the agents' games end before the next quiet phase
        while time.monotonic() < deadline:
            playing = http.get("/api/games", params={"status": "playing", "limit": 1000}).json()
            if all("search" not in g["seats"] for g in playing):
                break
            time.sleep(0.5)
    return started


def bench_load(base: str, rounds: int, seconds: float) -> list[tuple[str, str, str, str]]:
    quiet: list[float] = []
    loaded: list[float] = []
    medians: list[tuple[float, float]] = []
    started = 0
    for _ in range(rounds):
        q = person_pages(base, seconds)
        stop = threading.Event()
        counter: list[int] = []

        def run_load(done: threading.Event = stop, out: list[int] = counter) -> None:
            out.append(agent_load(base, 20, done))

        load = threading.Thread(target=run_load, daemon=True)
        load.start()
        time.sleep(2)  # the 20 games under way
        ld = person_pages(base, seconds)
        stop.set()
        load.join()
        started += counter[0] if counter else 0
        quiet += q
        loaded += ld
        medians.append((statistics.median(q), statistics.median(ld)))
    q50, q95 = p50_p95(quiet)
    l50, l95 = p50_p95(loaded)
    ratio = statistics.median(b / a for a, b in medians)
    return [
        (f"person's page, quiet ({len(quiet)} loads)", f"p50 {q50:.1f} / p95 {q95:.1f} ms", "—", ""),
        (
            f"person's page, 20 agent games in play ({len(loaded)} loads; {started} games started)",
            f"p50 {l50:.1f} / p95 {l95:.1f} ms",
            f"loaded/quiet p50 {ratio:.2f}× (median of {rounds} rounds)",
            "stated",
        ),
    ]


def _agent_loop(stop_at: float, nice: int) -> None:
    """Meio search decisions, over and over, until ``stop_at`` (a busy agent)."""
    import os

    from cardbase.games.base import CHANCE
    from cardbase.sim.registry import game

    if nice:
        os.nice(nice)
    entry = game("meio")
    rules = entry.make_rules({"players": 3})
    k = 0
    while time.time() < stop_at:
        state = rules.new_initial_state(k)
        agents = [entry.make_agent("search", rules, s, k) for s in range(3)]
        while not state.is_terminal and time.time() < stop_at:
            p = state.current_player
            if p == CHANCE:
                state.apply_unchecked(state.sample_chance())
                continue
            state.apply_unchecked(agents[p].act(state.observation(p), state.legal_actions()))
        k += 1


def bench_isolation(rounds: int, seconds: float = 8.0) -> list[tuple[str, str, str, str]]:
    """A page's work (a Meio seat's view built anew) in this process: alone, beside two agents
    thinking in threads of this process, and beside two in worker processes at nice 10 (as
    ``serve`` runs them); the phases interleaved, ``rounds`` times."""
    import multiprocessing

    from cardbase.sim.registry import game
    from cardbase.sim.table import HUMAN, Table
    from cardbase.sim.thinkers import NICE

    table = Table(game("meio").make_rules({"players": 3}), 1, [HUMAN, HUMAN, HUMAN])
    seat = table.state.current_player

    def page_work(until: float) -> list[float]:
        out = []
        while time.time() < until:
            start = time.perf_counter()
            table._build_view(seat, seat, 60)  # what a page of this version costs the first time
            out.append(time.perf_counter() - start)
        return out

    phases: dict[str, list[float]] = {"alone": [], "threads": [], "processes": []}
    medians: dict[str, list[float]] = {k: [] for k in phases}
    context = multiprocessing.get_context("spawn")
    for _ in range(rounds):
        for phase in phases:
            stop_at = time.time() + seconds
            helpers: list[Any] = []
            if phase == "threads":
                helpers = [threading.Thread(target=_agent_loop, args=(stop_at, 0)) for _ in range(2)]
            elif phase == "processes":
                helpers = [context.Process(target=_agent_loop, args=(stop_at + 3, NICE)) for _ in range(2)]
            for h in helpers:
                h.start()
            if phase == "processes":
                time.sleep(3)  # the workers' start (imports) is not what is measured
            times = page_work(stop_at)
            for h in helpers:
                h.join()
            phases[phase] += times
            medians[phase].append(statistics.median(times))
    rows = []
    alone = statistics.median(medians["alone"])
    for phase, times in phases.items():
        p50, p95 = p50_p95(times)
        ratio = "—" if phase == "alone" else f"{statistics.median(medians[phase]) / alone:.2f}× alone"
        rows.append((f"a page's view, {phase} ({len(times)} builds)", f"p50 {p50:.1f} / p95 {p95:.1f} ms", ratio, ""))
    return rows


def bench_memory(tables: int = 50, actions: int = 60) -> list[tuple[str, str, str, str]]:
    import random

    from cardbase.db.engine import open_database
    from cardbase.sim.table import HUMAN, Table
    from cardbase.sim.table_setup import DeckChoice, TableChoice, setup

    database = open_database(str(Path(tempfile.mkdtemp(prefix="cardbase-bench-play-")) / "c.db"))
    choices = {
        "meio": TableChoice("meio", [HUMAN] * 4),
        "mea": TableChoice(
            "mea",
            [HUMAN] * 2,
            [DeckChoice(example="mea-goblin-rush.txt"), DeckChoice(example="mea-tile-control.txt")],
        ),
        "meikyu": TableChoice("meikyu", [HUMAN] * 5, assume="default"),
    }
    rows = []
    for game, choice in choices.items():
        made = setup(database, choice)
        for moved in (0, actions):
            tracemalloc.start()
            before = tracemalloc.get_traced_memory()[0]
            kept = []
            for k in range(tables):
                t = Table(made.rules, k, made.seats, labels=made.labels)
                rng = random.Random(k)
                for _ in range(moved):
                    if t.over:
                        break
                    t.act(t.state.current_player, rng.randrange(len(t.state.legal_actions())))
                kept.append(t)
            grown = tracemalloc.get_traced_memory()[0] - before
            tracemalloc.stop()
            rows.append(
                (
                    f"{game}, {len(made.seats)} seats, after {moved} actions",
                    f"{grown / tables / 1024:,.0f} KiB per table",
                    "—",
                    "",
                )
            )
            del kept
    return rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    import os

    print(f"load average at the start: {os.getloadavg()}")
    folder = Path(tempfile.mkdtemp(prefix="cardbase-bench-play-"))
    server = serve(folder / "play.db", REPO, "--max-games", "200")
    base = server.base
    try:
        table("Event latency", bench_events(base, args.moves))
        table("A person among 20 agent games", bench_load(base, args.rounds, args.seconds))
    finally:
        server.stop()
    table("A page beside busy agents: threads or worker processes", bench_isolation(args.rounds))
    table("Memory per game (tracemalloc)", bench_memory())
    print(f"load average at the end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
