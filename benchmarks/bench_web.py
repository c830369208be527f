"""Web benchmarks (issue 14): /api/cards against Datasette, card images, 20 concurrent builders,
and the gallery page's DOMContentLoaded in headless Chromium; (issue 24) 16 clients × 100 mixed
requests, and reads while writes wait on a lock another connection holds, on SQLite and PostgreSQL.

Run: uv run --with datasette python benchmarks/bench_web.py [--requests 200]
     uv run python benchmarks/bench_web.py --only load [--postgres postgresql://postgres@127.0.0.1:54329/postgres]

Both servers run as their own processes over the same 10,000-card SQLite file (the shipped
catalogs plus synthetic Méa cards of set ``bench``, made for this benchmark), both at once, each
queried by this process with a keep-alive HTTP client, in 5 interleaved rounds per query shape
(cardbase, Datasette, cardbase, …), so that the machine's drift falls on both alike. Datasette
gets the same filters through its JSON API (table filters, ``_where=``, ``_sort=name`` as cardbase
sorts, ``_sort_desc``), ``_shape=array``, 60 rows and ``_nocount=1`` (cardbase's route does not
count).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_catalog import synthetic_csv
from common import PYTHON, REPO, table

sys.path.insert(0, str(REPO))
from tests.web.live import lock_held, served_at

CARDS = 10_000
PAGE = 60
# (name, cardbase query, Datasette query string over the card table)
SHAPES = [
    ("bare word", {"q": "goblin"}, "name__contains=goblin&_sort=name"),
    ("type and number", {"q": "t:monster cost<=3", "game": "mea"}, "type=monster&cost__lte=3&game=mea&_sort=name"),
    ("rules text", {"q": "o:draw"}, "text__contains=draw&_sort=name"),
    (
        "or in parentheses",
        {"q": "t:monster (atk>=5 or def>=6)"},
        "_where=" + "type%3D%27monster%27%20and%20(attack%3E%3D5%20or%20defence%3E%3D6)&_sort=name",
    ),
    ("sorted by cost", {"q": "game:mea order:cost direction:desc"}, "game=mea&_sort_desc=cost"),
]


def make_database(folder: Path) -> Path:
    """A SQLite catalog of exactly ``CARDS`` cards: the shipped ones and synthetic Méa cards."""
    from cardbase.db.engine import open_database
    from cardbase.db.io import import_catalog
    from cardbase.db.queries import card_count

    path = folder / "bench.db"
    database = open_database(str(path))
    with database.session() as session:
        shipped = card_count(session)
    csv = folder / "bench-cards.csv"
    synthetic_csv(csv, CARDS - shipped)
    import_catalog(database, csv, "mea")
    with database.session() as session:
        assert card_count(session) == CARDS
    database.engine.dispose()
    return path


UVICORN_LINE = re.compile(rb"Uvicorn running on (http://\S+)")
"""The line uvicorn writes to stderr once Datasette (``datasette serve --port 0``) listens."""


def drain(stream: IO[bytes] | None) -> None:
    """Read ``stream`` (a server's pipe) to its end in a thread, so that the server never blocks on it."""
    if stream is not None:
        threading.Thread(target=stream.read, daemon=True).start()


class Server:
    """A server process on a port the system picks (``--port 0``, so no other process can race for
    it), stopped with Ctrl-C. ``base`` is its address: for cardbase the first line it prints
    (``tests.web.live.served_at``), for Datasette uvicorn's line on stderr."""

    def __init__(self, argv: list[str], ready: str, cwd: Path, datasette: bool = False) -> None:
        assert "--port" in argv and argv[argv.index("--port") + 1] == "0", argv
        self.proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if datasette:
            drain(self.proc.stdout)
            self.base = self._uvicorn_address(argv)
        else:
            try:
                self.base = served_at(self.proc, 60)
            except AssertionError as e:
                raise SystemExit(str(e)) from None
            drain(self.proc.stdout)
        drain(self.proc.stderr)
        import httpx

        deadline = time.monotonic() + 60
        while True:
            if self.proc.poll() is not None:
                raise SystemExit(f"{argv[:4]} exited with {self.proc.returncode}")
            try:
                if httpx.get(f"{self.base}{ready}", timeout=2).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit(f"{argv[:4]} did not answer within 60 s")
            time.sleep(0.2)

    def _uvicorn_address(self, argv: list[str]) -> str:
        assert self.proc.stderr is not None
        said = b""
        for line in self.proc.stderr:  # uvicorn says where it listens before it answers
            said += line
            found = UVICORN_LINE.search(line)
            if found:
                return found.group(1).decode()
        raise SystemExit(f"{argv[:4]} exited before it listened: {said.decode(errors='replace')[-2000:]}")

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def serve(db: Path | str, folder: Path, *options: str) -> Server:
    """``cardbase serve`` over the database ``db`` (a SQLite file or a URL) with ``options``
    (``--workers 2``), on a port the system picks, run in ``folder``."""
    return Server([PYTHON, "-m", "cardbase", "serve", "--db", str(db), "--port", "0", *options], "/healthz", folder)


def percentiles(seconds: list[float]) -> tuple[float, float]:
    ordered = sorted(seconds)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return statistics.median(ordered) * 1000, p99 * 1000


def timed_gets(base: str, paths: list[str], requests: int) -> list[float]:
    """Seconds of ``requests`` GETs cycling through ``paths`` (after one warm-up round), each checked 200."""
    import httpx

    out = []
    with httpx.Client(base_url=base, timeout=30) as http:
        for path in paths * 5:
            assert http.get(path).status_code == 200, path
        for i in range(requests):
            path = paths[i % len(paths)]
            start = time.perf_counter()
            response = http.get(path)
            out.append(time.perf_counter() - start)
            assert response.status_code == 200, (path, response.text[:200])
    return out


def cardbase_paths(params: dict[str, str]) -> list[str]:
    from urllib.parse import urlencode

    return ["/api/cards?" + urlencode(params | {"limit": str(PAGE)})]


def datasette_paths(query: str) -> list[str]:
    return [f"/bench/card.json?{query}&_shape=array&_size={PAGE}&_nocount=1"]


def bench_search(db: Path, folder: Path, requests: int, rounds: int = 5) -> list[tuple[str, str, str, str]]:
    """Both servers run at once; each shape is timed in ``rounds`` interleaved rounds (cardbase, then
    Datasette, then cardbase …), so that a drift of the machine's speed falls on both alike."""
    rows = []
    ours: dict[str, list[float]] = {name: [] for name, _, _ in SHAPES}
    theirs: dict[str, list[float]] = {name: [] for name, _, _ in SHAPES}
    server = serve(db, folder)
    peer = None
    try:
        base = server.base
        datasette = shutil.which("datasette")
        if datasette is None:
            print("Datasette is not installed: run with `uv run --with datasette python benchmarks/bench_web.py`")
        else:
            peer = Server([datasette, "serve", str(db), "--port", "0"], "/-/versions.json", folder, datasette=True)
        share = max(1, requests // rounds)
        for _ in range(rounds):
            for name, params, query in SHAPES:
                ours[name] += timed_gets(base, cardbase_paths(params), share)
                if peer is not None:
                    theirs[name] += timed_gets(peer.base, datasette_paths(query), share)
    finally:
        server.stop()
        if peer is not None:
            peer.stop()
    for name, _, _ in SHAPES:
        p50, p99 = percentiles(ours[name])
        ratio = "—"
        if theirs[name]:
            q50, q99 = percentiles(theirs[name])
            ratio = f"{p50 / q50:.2f}× Datasette's p50 {q50:.1f} ms (p99 {q99:.1f})"
        rows.append((f"/api/cards {name}: p50 / p99", f"{p50:.1f} / {p99:.1f} ms", ratio, "p50 ≤ 15 ms, ≤ 1.0×"))
    return rows


def bench_images(db: Path, folder: Path) -> list[tuple[str, str, str, str]]:
    import httpx

    server = serve(db, folder)
    try:
        with httpx.Client(base_url=server.base, timeout=60) as http:
            ids = [c["id"] for c in http.get("/api/cards", params={"q": "game:mea", "limit": 51}).json()]
            http.get(f"/cards/{ids[0]}/image.png")  # warms the renderer's imports and fonts
            cold = []
            for card in ids[1:]:
                start = time.perf_counter()
                assert http.get(f"/cards/{card}/image.png").status_code == 200
                cold.append(time.perf_counter() - start)
            warm = []
            for _ in range(200):
                start = time.perf_counter()
                assert http.get(f"/cards/{ids[1]}/image.png").status_code == 200
                warm.append(time.perf_counter() - start)
    finally:
        server.stop()
    c50, c99 = percentiles(cold)
    w50, w99 = percentiles(warm)
    return [
        ("card image cold (300 px, 50 cards): p50 / p99", f"{c50:.1f} / {c99:.1f} ms", "—", "≤ 40 ms"),
        ("card image warm (memory): p50 / p99", f"{w50:.1f} / {w99:.1f} ms", "—", "≤ 5 ms"),
    ]


def bench_concurrency(db: Path, folder: Path) -> list[tuple[str, str, str, str]]:
    """20 clients at once, each adding 50 cards to its own deck and 50 to one shared deck."""
    import httpx

    server = serve(db, folder)
    latencies: list[float] = []
    failed: list[str] = []
    lock = threading.Lock()
    try:
        base = server.base
        names = [c["name"] for c in httpx.get(f"{base}/api/cards", params={"q": "set:demo t:monster"}).json()][:10]
        shared = httpx.post(f"{base}/api/decks", json={"game": "mea", "name": "Shared"}).json()["id"]
        own: dict[int, int] = {}

        def client(i: int) -> None:
            mine: list[float] = []
            with httpx.Client(base_url=base, timeout=60) as http:
                own[i] = http.post("/api/decks", json={"game": "mea", "name": f"Player {i}"}).json()["id"]
                for k in range(50):
                    for deck in (own[i], shared):
                        start = time.perf_counter()
                        response = http.post(f"/api/decks/{deck}/cards", json={"name": names[(i + k) % len(names)]})
                        mine.append(time.perf_counter() - start)
                        if response.status_code != 200:
                            with lock:
                                failed.append(response.text[:200])
            with lock:
                latencies.extend(mine)

        start = time.perf_counter()
        threads = [threading.Thread(target=client, args=(i,)) for i in range(20)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - start
        decks = {d["id"]: d["cards"] for d in httpx.get(f"{base}/api/decks").json()}
        present = decks[shared] + sum(decks[own[i]] for i in own)
    finally:
        server.stop()
    p50, p99 = percentiles(latencies)
    for text in sorted(set(failed))[:3]:
        print(f"an add was refused: {text}")
    return [
        ("20 clients × 100 adds: adds present", f"{present:,} of 2,000", f"{len(failed)} refused", "all 2,000"),
        (
            "add latency under load: p50 / p99",
            f"{p50:.1f} / {p99:.1f} ms",
            f"{len(latencies) / elapsed:.0f} adds/s",
            "—",
        ),
    ]


def bench_gallery(db: Path, folder: Path) -> list[tuple[str, str, str, str]]:
    import httpx

    server = serve(db, folder)
    try:
        url = f"{server.base}/cards?q=t%3Amonster"
        if httpx.get(url).status_code != 200 or 'id="results"' not in httpx.get(url).text:
            return [("gallery DOMContentLoaded", "no gallery page on this branch", "—", "≤ 300 ms")]
        from playwright.sync_api import sync_playwright

        chromium = os.environ.get("CARDBASE_CHROMIUM", "/usr/bin/chromium")
        times: list[float] = []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1366, "height": 800})
            page.goto(url)  # warm: the server's first render, the browser's cache of the assets
            for _ in range(20):
                page.goto(url, wait_until="domcontentloaded")
                times.append(
                    page.evaluate("performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd") / 1000
                )
            browser.close()
    finally:
        server.stop()
    p50, p99 = percentiles(times)
    return [("gallery /cards to DOMContentLoaded (20 loads)", f"p50 {p50:.0f} ms, p99 {p99:.0f} ms", "—", "≤ 300 ms")]


# --- issue 24: mixed load, and reads while writes wait on a lock --------------------------------------

CLIENTS = 16
PER_CLIENT = 100
LOAD_QUERIES = ["goblin", "t:monster cost<=3", "o:draw", "t:monster (atk>=5 or def>=6)", "game:mea order:cost"]


def mixed_requests(base: str, own: int, shared: int, card: str, n: int) -> list[tuple[str, str, dict[str, Any] | None]]:
    """``n`` requests of one client, in a cycle of 20: 8 searches, 2 card pages, 2 deck answers, 2 deck
    pages, 1 health check, 4 adds to its own deck and 1 to the deck all clients share."""
    from urllib.parse import quote

    cycle: list[tuple[str, str, dict[str, Any] | None]] = []
    cycle += [("GET", f"/api/cards?q={quote(q)}&limit=60", None) for q in LOAD_QUERIES + LOAD_QUERIES[:3]]
    cycle += [("GET", f"/api/cards/{card}", None), ("GET", f"/cards/{card}", None)]
    cycle += [("GET", f"/api/decks/{own}", None), ("GET", f"/api/decks/{shared}", None)]
    cycle += [("GET", f"/decks/{own}", None), ("GET", "/decks", None), ("GET", "/healthz", None)]
    cycle += [("POST", f"/api/decks/{own}/cards", {"name": "Dizzy Bat"})] * 4
    cycle += [("POST", f"/api/decks/{shared}/cards", {"name": "Crumb Goblin"})]
    return [cycle[i % len(cycle)] for i in range(n)]


def run_clients(base: str, plans: list[list[tuple[str, str, Any]]]) -> tuple[list[tuple[str, float, float]], list[str]]:
    """Each plan on its own keep-alive client, all at once: (kind, seconds, when it ended) per request,
    and the errors."""
    import httpx

    timings: list[tuple[str, float, float]] = []
    errors: list[str] = []
    lock = threading.Lock()

    def client(plan: list[tuple[str, str, Any]]) -> None:
        mine, bad = [], []
        with httpx.Client(base_url=base, timeout=120) as http:
            for method, path, body in plan:
                start = time.perf_counter()
                response = http.request(method, path, json=body)
                end = time.perf_counter()
                mine.append(("write" if method != "GET" else "read", end - start, end))
                if response.status_code >= 400:
                    bad.append(f"{method} {path}: {response.status_code} {response.text[:120]}")
        with lock:
            timings.extend(mine)
            errors.extend(bad)

    threads = [threading.Thread(target=client, args=(plan,)) for plan in plans]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return timings, errors


def bench_load(url: str, folder: Path, label: str, rounds: int = 3) -> list[tuple[str, str, str, str]]:
    """16 clients × 100 mixed requests (0 errors wanted); then reads of 16 clients while 8 writes wait
    on a lock held elsewhere (each answers 503 with Retry-After after its 10 s), against the same reads
    with no lock held: ``rounds`` interleaved rounds, medians."""
    import httpx

    server = serve(url, folder)
    base = server.base
    try:
        with httpx.Client(base_url=base, timeout=60) as http:
            stamp = int(time.time())
            decks = [
                http.post("/api/decks", json={"game": "mea", "name": f"Load {stamp} {i}"}).json()["id"]
                for i in range(CLIENTS + 1)
            ]
            card = http.get("/api/cards", params={"q": "Dizzy Bat", "game": "mea"}).json()[0]["id"]
        shared, own = decks[0], decks[1:]
        plans = [mixed_requests(base, own[i], shared, card, PER_CLIENT) for i in range(CLIENTS)]
        start = time.perf_counter()
        timings, errors = run_clients(base, plans)
        elapsed = time.perf_counter() - start
        with httpx.Client(base_url=base, timeout=60) as http:
            stored = http.get(f"/api/decks/{shared}").json()["info"]["cards"]
        reads = [t for kind, t, _ in timings if kind == "read"]
        writes = [t for kind, t, _ in timings if kind == "write"]
        read_plans = [[r for r in plan if r[0] == "GET"][:25] for plan in plans]
        free: list[float] = []
        held: list[float] = []
        late = 0  # reads that ended after the first waiting write had answered (not "while it waited")
        write_answers: list[tuple[int, str, float]] = []

        def waiting_write(answers: list[tuple[int, str, float, float]]) -> None:
            begin = time.perf_counter()
            response = httpx.post(f"{base}/api/decks/{shared}/cards", json={"name": "Dizzy Bat"}, timeout=120)
            end = time.perf_counter()
            answers.append((response.status_code, response.headers.get("retry-after", ""), end - begin, end))

        for _ in range(rounds):
            free += [t for _, t, _ in run_clients(base, read_plans)[0]]
            with lock_held(url, "SELECT id FROM deck WHERE id = :id FOR UPDATE", {"id": shared}):
                answers: list[tuple[int, str, float, float]] = []
                writers = [threading.Thread(target=waiting_write, args=(answers,)) for _ in range(8)]
                for t in writers:
                    t.start()
                time.sleep(0.5)  # the writes are in and waiting (they wait 10 s)
                done = run_clients(base, read_plans)[0]
                for t in writers:
                    t.join()
            first = min(end for *_, end in answers)
            held += [t for _, t, end in done if end < first]
            late += sum(1 for *_, end in done if end >= first)
            write_answers += [(status, retry, waited) for status, retry, waited, _ in answers]
    finally:
        server.stop()
    for text in sorted(set(errors))[:3]:
        print(f"a request failed: {text}")
    p50, p99 = percentiles([*reads, *writes])
    r50, r99 = percentiles(reads)
    w50, w99 = percentiles(writes)
    f50, f99 = percentiles(free)
    h50, h99 = percentiles(held)
    statuses = sorted({s for s, _, _ in write_answers})
    waited = sorted(w for _, _, w in write_answers)
    retry = sorted({r for _, r, _ in write_answers})
    want_adds = CLIENTS * (PER_CLIENT // 20)
    return [
        (
            f"{label}: {CLIENTS} clients × {PER_CLIENT} mixed requests",
            f"{len(errors)} errors of {len(timings):,}",
            f"{len(timings) / elapsed:.0f} requests/s",
            "0 errors",
        ),
        (f"{label}: shared-deck adds stored", f"{stored} of {want_adds}", "—", "all"),
        (f"{label}: all requests p50 / p99", f"{p50:.1f} / {p99:.1f} ms", "—", "—"),
        (
            f"{label}: reads p50 / p99 (writes p50 / p99)",
            f"{r50:.1f} / {r99:.1f} ms ({w50:.1f} / {w99:.1f} ms)",
            "—",
            "—",
        ),
        (
            f"{label}: reads p50 / p99 while 8 writes wait on a held lock",
            f"{h50:.1f} / {h99:.1f} ms ({len(held)} reads; {late} ended after a write answered, left out)",
            f"p99 {h99 / f99:.2f}× the same reads without the lock ({f50:.1f} / {f99:.1f} ms)",
            "reads keep answering",
        ),
        (
            f"{label}: the waiting writes",
            f"status {statuses}, Retry-After {retry}, answered after {waited[0]:.1f}–{waited[-1]:.1f} s",
            "—",
            "503 within about 10 s",
        ),
    ]


@contextmanager
def postgres_database(admin_url: str, folder: Path) -> Iterator[str]:
    """A new PostgreSQL database on the server of ``admin_url`` with the bench catalog, dropped at the end."""
    import uuid

    from sqlalchemy import create_engine, text

    from cardbase.db.engine import database_url, open_database
    from cardbase.db.io import import_catalog
    from cardbase.db.queries import card_count

    admin = create_engine(database_url(admin_url), isolation_level="AUTOCOMMIT")
    name = f"cardbase_bench_{uuid.uuid4().hex[:10]}"
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = admin_url.rsplit("/", 1)[0] + "/" + name
    try:
        database = open_database(url)
        with database.session() as session:
            shipped = card_count(session)
        csv = folder / "bench-cards-pg.csv"
        synthetic_csv(csv, CARDS - shipped)
        import_catalog(database, csv, "mea")
        database.engine.dispose()
        yield url
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


PARTS = ("search", "images", "concurrency", "gallery", "load")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200, help="Timed requests per query shape and server.")
    parser.add_argument("--only", choices=PARTS, action="append", help="Run only these parts (repeatable).")
    parser.add_argument("--postgres", help="A PostgreSQL maintenance URL: the load part runs there too.")
    args = parser.parse_args()
    if not 20 <= args.requests <= 100_000:
        raise SystemExit("--requests must be 20 to 100,000")
    parts = set(args.only or PARTS)
    with tempfile.TemporaryDirectory(prefix="cardbase-bench-web-") as tmp:
        folder = Path(tmp)
        started = time.perf_counter()
        db = make_database(folder)
        print(f"made a {CARDS:,}-card SQLite catalog in {time.perf_counter() - started:.1f} s")
        rows = bench_search(db, folder, args.requests) if "search" in parts else []
        rows += bench_images(db, folder) if "images" in parts else []
        rows += bench_concurrency(db, folder) if "concurrency" in parts else []
        rows += bench_gallery(db, folder) if "gallery" in parts else []
        if "load" in parts:
            rows += bench_load(f"sqlite:///{db}", folder, "SQLite")
            if args.postgres:
                with postgres_database(args.postgres, folder) as url:
                    rows += bench_load(url, folder, "PostgreSQL")
    table("cardbase serve (one machine; the peer measured in the same run)", rows)


if __name__ == "__main__":
    main()
