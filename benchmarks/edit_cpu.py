"""CPU time of one deck edit and of the page after it, in one process (issue 30): the web app driven in
this thread, its worker-thread calls run inline, so that ``time.thread_time`` and cProfile see the
whole request (the HTTP stack included, the client's side of it too).

Run: uv run python benchmarks/edit_cpu.py [--db URL] [--batches 5] [--rounds 20] [--profile N]
     [--postgres postgresql://postgres@127.0.0.1:54329/postgres]

Over the 10,000-card catalog of ``bench_web.py`` (a new SQLite file, or with ``--postgres`` a new
PostgreSQL database as well): a deck of 20 × 2 Méa cards; a round is the builder script's edit (``POST
/decks/ID/cards``, ``fragment=1``, the version the page showed, adding a card in even rounds and removing
it in odd ones) and then the deck page (``GET /decks/ID``). Prints the minimum and the median over
``batches`` batches of ``rounds`` rounds of the CPU time of an edit and of a page (the minimum is the
figure a loaded machine inflates least), and the load. ``--profile N``: the N costliest functions of
the edits under cProfile.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_web import make_database, postgres_database

VERSION = re.compile(r'data-version="(\d+)"')


def inline_threads() -> None:
    """The app's worker-thread calls run in this thread (``anyio.to_thread.run_sync``), and a change's
    turn is given back directly (``Turn.release`` calls into the event loop from a worker thread)."""
    import anyio.to_thread

    from cardbase.web import http

    async def run_sync(func: Callable[..., Any], *args: Any, **_: Any) -> Any:
        return func(*args)

    anyio.to_thread.run_sync = run_sync  # type: ignore[assignment]
    http.Turn.release = http.Turn._give_back  # type: ignore[method-assign]


def measure(url: str, batches: int, rounds: int, profile: int) -> None:
    import httpx

    from cardbase.db.engine import open_database
    from cardbase.web.app import create_app
    from cardbase.web.settings import ServerSettings

    database = open_database(url)
    settings = ServerSettings(database=database)
    app = create_app(settings)

    async def go() -> None:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url=settings.base_url) as http:
            cards = (await http.get("/api/cards", params={"q": "game:mea set:demo", "limit": 30})).json()
            deck = (await http.post("/api/decks", json={"game": "mea", "name": f"CPU {time.time()}"})).json()["id"]
            for c in cards[:20]:
                for _ in range(2):
                    assert (await http.post(f"/api/decks/{deck}/cards", json={"name": c["name"]})).status_code == 200
            extra = cards[25]["id"]
            page = await http.get(f"/decks/{deck}")
            state: dict[str, Any] = {"k": 0, "page": page.text}

            async def edit() -> None:
                found = VERSION.search(state["page"])
                assert found
                form = {"card": extra, "op": "add" if state["k"] % 2 == 0 else "dec", "fragment": "1"}
                form["version"] = found.group(1)
                state["k"] += 1
                answer = await http.post(f"/decks/{deck}/cards", data=form)
                assert answer.status_code == 200, answer.text[:300]

            async def show() -> None:
                page = await http.get(f"/decks/{deck}")
                assert page.status_code == 200
                state["page"] = page.text

            for _ in range(4):  # warm: imports, templates
                await edit()
                await show()
            from sqlalchemy import event

            statements = [0]

            def count(*_: Any) -> None:
                statements[0] += 1

            event.listen(database.engine, "before_cursor_execute", count)
            await edit()
            edit_statements = statements[0]
            await show()
            page_statements = statements[0] - edit_statements
            event.remove(database.engine, "before_cursor_execute", count)
            import gc

            collecting = {"since": 0.0, "spent": 0.0, "count": 0}

            def collected(phase: str, info: dict[str, int]) -> None:  # the collector's own CPU time
                if phase == "start":
                    collecting["since"] = time.thread_time()
                else:
                    collecting["spent"] += time.thread_time() - collecting["since"]
                    collecting["count"] += info["generation"] == 2

            gc.callbacks.append(collected)
            edits, pages = [], []
            for _ in range(batches):
                spent = [0.0, 0.0]
                for _ in range(rounds):
                    start = time.thread_time()
                    await edit()
                    middle = time.thread_time()
                    await show()
                    spent[0] += middle - start
                    spent[1] += time.thread_time() - middle
                edits.append(spent[0] / rounds * 1000)
                pages.append(spent[1] / rounds * 1000)
            gc.callbacks.remove(collected)
            done = batches * rounds
            garbage = f"garbage collection {collecting['spent'] / done * 1000:.2f} ms a round"
            garbage += f" ({collecting['count'] / done:.2f} full collections)"
            one, five, _ = os.getloadavg()
            name, middle = database.engine.dialect.name, statistics.median(edits)
            print(
                f"{name}: edit {min(edits):.2f} ms CPU (median {middle:.2f}), "
                f"page after it {min(pages):.2f} ms (median {statistics.median(pages):.2f}); "
                f"SQL statements: {edit_statements} an edit, {page_statements} a page; {garbage}; "
                f"{batches} batches of {rounds} rounds; load {one:.2f} / {five:.2f}"
            )
            if profile:
                import cProfile
                import pstats

                profiler = cProfile.Profile()
                for _ in range(rounds):
                    profiler.enable()
                    await edit()
                    profiler.disable()
                    await show()
                stats = pstats.Stats(profiler)
                stats.dump_stats(os.environ.get("EDIT_CPU_PROFILE", "/dev/null"))
                stats.sort_stats("cumulative").print_stats(profile)

    asyncio.run(go())
    database.engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", help="An existing database with the bench catalog (default: a new SQLite one).")
    parser.add_argument("--postgres", help="A PostgreSQL maintenance URL: the same on PostgreSQL too.")
    parser.add_argument("--batches", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--profile", type=int, default=0, help="Print the N costliest functions of the edits.")
    args = parser.parse_args()
    if not 1 <= args.batches <= 100 or not 1 <= args.rounds <= 1000:
        raise SystemExit("--batches must be 1 to 100 and --rounds 1 to 1,000")
    inline_threads()
    if args.db:
        measure(args.db, args.batches, args.rounds, args.profile)
        return
    with tempfile.TemporaryDirectory(prefix="cardbase-edit-cpu-") as tmp:
        folder = Path(tmp)
        db = make_database(folder)
        measure(f"sqlite:///{db}", args.batches, args.rounds, args.profile)
        if args.postgres:
            with postgres_database(args.postgres, folder) as url:
                measure(url, args.batches, args.rounds, args.profile)


if __name__ == "__main__":
    main()
