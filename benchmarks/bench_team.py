"""The deck builder under a team (issue 30): 8 clients at once, each on its own deck, reading the
deck page and editing the deck as the builder's script does, on SQLite and PostgreSQL.

Run: uv run python benchmarks/bench_team.py [--rounds 30] [--runs 3] [--workers N]
     [--postgres postgresql://postgres@127.0.0.1:54329/postgres]

``cardbase serve`` runs as its own process (``--workers N``: N processes) over the 10,000-card
catalog of ``bench_web.py``. Each client has a keep-alive HTTP client and a deck of 40 Méa cards
(20 names × 2). A run has two phases, both with all clients at once:

- pages: each client GETs its deck page (``/decks/ID``, the page a browser asks for first: the
  gallery's 60 results and the deck's panels) ``rounds`` times: pages/s and p50/p99;
- mixed: each client, ``rounds`` times, GETs its deck page, then sends one change as the builder's
  script sends it (``POST /decks/ID/cards`` with ``fragment=1`` and the version the page showed),
  adding a card in even rounds and removing it in odd ones: p50/p99 of pages and of edits, answers/s,
  and the CPU time of the server's processes (``psutil``) and of the clients (this process) per round
  (a page and an edit): what the 2 cores spend, which the load of other jobs does not inflate as it
  does the times.

Every answer must be 200 (an error is counted, never retried). The machine's load (``os.getloadavg``)
is printed before and after each run. Medians over ``runs`` runs are printed at the end.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_web import make_database, percentiles, postgres_database, serve
from common import table

CLIENTS = 8
DECK_NAMES = 20
VERSION = re.compile(r'id="panels" data-deck-id="\d+" data-version="(\d+)"')


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.2f} / {five:.2f}"


def make_decks(base: str, stamp: str) -> tuple[list[int], list[str]]:
    """One deck of 40 Méa cards for each client, and the ids of the cards the edits add and remove."""
    import httpx

    with httpx.Client(base_url=base, timeout=60) as http:
        cards = http.get("/api/cards", params={"q": "game:mea set:demo", "limit": 60}).json()
        names = [c["name"] for c in cards][:DECK_NAMES]
        extra = [c["id"] for c in cards][DECK_NAMES : DECK_NAMES + CLIENTS]
        decks = []
        for i in range(CLIENTS):
            deck = http.post("/api/decks", json={"game": "mea", "name": f"Team {stamp} {i}"}).json()["id"]
            for name in names:
                for _ in range(2):
                    assert http.post(f"/api/decks/{deck}/cards", json={"name": name}).status_code == 200
            decks.append(deck)
    return decks, extra


def server_cpu(pid: int) -> float:
    """CPU seconds (user and system) of the server process ``pid`` and its worker processes so far."""
    import psutil

    server = psutil.Process(pid)
    return sum(sum(p.cpu_times()[:2]) for p in [server, *server.children(recursive=True)])


def run_phase(
    base: str, decks: list[int], extra: list[str], rounds: int, edits: bool, pid: int = 0
) -> dict[str, object]:
    """All clients at once; the pages' and edits' seconds, the errors, the elapsed time, the CPU seconds
    of the server (``pid``) and of the clients (this process), the largest edit answer."""
    import httpx

    pages: list[float] = []
    changes: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    sizes: list[int] = []
    answer_sizes: list[int] = [0]

    def client(i: int) -> None:
        mine_pages, mine_edits, bad = [], [], []
        deck, card = decks[i], extra[i % len(extra)]
        with httpx.Client(base_url=base, timeout=120) as http:
            for k in range(rounds):
                start = time.perf_counter()
                page = http.get(f"/decks/{deck}")
                mine_pages.append(time.perf_counter() - start)
                if page.status_code != 200:
                    bad.append(f"page {page.status_code}")
                    continue
                if k == 0:
                    sizes.append(len(page.content))
                if not edits:
                    continue
                found = VERSION.search(page.text)
                form = {"card": card, "op": "add" if k % 2 == 0 else "dec", "section": "", "fragment": "1"}
                form["version"] = found.group(1) if found else ""
                start = time.perf_counter()
                answer = http.post(f"/decks/{deck}/cards", data=form)
                mine_edits.append(time.perf_counter() - start)
                if answer.status_code != 200:
                    bad.append(f"edit {answer.status_code} {answer.text[:120]}")
                answer_sizes.append(len(answer.content))
        with lock:
            pages.extend(mine_pages)
            changes.extend(mine_edits)
            errors.extend(bad)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
    cpu, clients_cpu = server_cpu(pid) if pid else 0.0, time.process_time()
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - start
    cpu, clients_cpu = (server_cpu(pid) - cpu if pid else 0.0), time.process_time() - clients_cpu
    return {
        "pages": pages,
        "edits": changes,
        "errors": errors,
        "elapsed": elapsed,
        "size": max(sizes or [0]),
        "cpu": cpu,
        "clients_cpu": clients_cpu,
        "answer": max(answer_sizes),
    }


def bench(
    url: str, folder: Path, label: str, rounds: int, runs: int, workers: int = 1
) -> list[tuple[str, str, str, str]]:
    server = serve(url, folder, *(["--workers", str(workers)] if workers > 1 else []))
    base = server.base
    results = []
    try:
        decks, extra = make_decks(base, str(int(time.time())))
        run_phase(base, decks, extra, 3, True)  # warm: imports, templates, the page cache of the file
        for run in range(runs):
            before = load()
            only_pages = run_phase(base, decks, extra, rounds, False)
            mixed = run_phase(base, decks, extra, rounds, True, server.proc.pid)
            after = load()
            p50, p99 = percentiles(only_pages["pages"])  # type: ignore[arg-type]
            m50, m99 = percentiles(mixed["pages"])  # type: ignore[arg-type]
            e50, e99 = percentiles(mixed["edits"])  # type: ignore[arg-type]
            pages_per_s = len(only_pages["pages"]) / only_pages["elapsed"]  # type: ignore[arg-type]
            answers = len(mixed["pages"]) + len(mixed["edits"])  # type: ignore[arg-type]
            answers_per_s = answers / mixed["elapsed"]  # type: ignore[operator]
            errors = len(only_pages["errors"]) + len(mixed["errors"])  # type: ignore[arg-type]
            for text in sorted(set(only_pages["errors"] + mixed["errors"]))[:3]:  # type: ignore[operator]
                print(f"  an answer failed: {text}")
            size = int(only_pages["size"]) / 1000  # type: ignore[call-overload]
            answer_size = int(mixed["answer"]) / 1000  # type: ignore[call-overload]
            rounds_done = len(mixed["edits"]) or 1  # type: ignore[arg-type]
            per_round = float(mixed["cpu"]) / rounds_done * 1000  # type: ignore[arg-type]
            clients_per_round = float(mixed["clients_cpu"]) / rounds_done * 1000  # type: ignore[arg-type]
            print(
                f"{label} run {run + 1}: pages alone p50 {p50:.1f} p99 {p99:.1f} ms, {pages_per_s:.0f} pages/s; "
                f"mixed: page p50 {m50:.1f} p99 {m99:.1f} ms, edit p50 {e50:.1f} p99 {e99:.1f} ms, "
                f"{answers_per_s:.0f} answers/s, CPU per page and edit: server {per_round:.1f} ms, "
                f"clients {clients_per_round:.1f} ms; {errors} errors; page {size:.0f} KB, edit answer "
                f"{answer_size:.1f} KB; load {before} → {after}"
            )
            results.append(
                (p50, p99, pages_per_s, m50, m99, e50, e99, answers_per_s, errors, size, after, per_round, answer_size)
            )
    finally:
        server.stop()

    def med(i: int) -> float:
        return statistics.median(r[i] for r in results)  # type: ignore[misc]

    loads = ", ".join(str(r[10]) for r in results)
    return [
        (
            f"{label}: deck page alone p50 / p99",
            f"{med(0):.1f} / {med(1):.1f} ms",
            f"{med(2):.0f} pages/s",
            "≤ 50 ms, ≥ 100/s",
        ),
        (f"{label}: page while editing p50 / p99", f"{med(3):.1f} / {med(4):.1f} ms", f"{med(7):.0f} answers/s", "—"),
        (f"{label}: edit p50 / p99", f"{med(5):.1f} / {med(6):.1f} ms", f"answer {med(12):.1f} KB", "≤ 30 ms"),
        (f"{label}: server CPU per page and edit (mixed)", f"{med(11):.1f} ms", f"page {med(9):.0f} KB", "—"),
        (f"{label}: errors (all runs)", f"{sum(int(r[8]) for r in results)}", f"load after each run: {loads}", "0"),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30, help="Pages (and edits) per client and phase.")
    parser.add_argument("--runs", type=int, default=3, help="Runs per database (medians reported).")
    parser.add_argument("--postgres", help="A PostgreSQL maintenance URL: the same benchmark there too.")
    parser.add_argument("--no-sqlite", action="store_true", help="Only PostgreSQL.")
    parser.add_argument("--workers", type=int, default=1, help="Server processes (serve --workers).")
    args = parser.parse_args()
    if not 2 <= args.rounds <= 10_000 or not 1 <= args.runs <= 20:
        raise SystemExit("--rounds must be 2 to 10,000 and --runs 1 to 20")
    with tempfile.TemporaryDirectory(prefix="cardbase-bench-team-") as tmp:
        folder = Path(tmp)
        started = time.perf_counter()
        db = make_database(folder)
        print(f"made a 10,000-card SQLite catalog in {time.perf_counter() - started:.1f} s; load {load()}")
        sqlite = f"sqlite:///{db}"
        rows = [] if args.no_sqlite else bench(sqlite, folder, "SQLite", args.rounds, args.runs, args.workers)
        if args.postgres:
            with postgres_database(args.postgres, folder) as url:
                rows += bench(url, folder, "PostgreSQL", args.rounds, args.runs, args.workers)
    processes = f", {args.workers} server processes" if args.workers > 1 else ""
    table(f"{CLIENTS} clients of the deck builder, {os.cpu_count()} cores{processes}", rows)


if __name__ == "__main__":
    main()
