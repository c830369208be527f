"""Catalog benchmarks: imports and searches from 1,000 to 200,000 cards, and command start-up.

    uv run --with datasette python benchmarks/bench_catalog.py [--scales 1000,10000,100000,200000]
        [--calls 200] [--runs 15] [--postgres postgresql://postgres@127.0.0.1:54329/postgres]

For each scale: a fresh SQLite file (the shipped catalogs, then a synthetic Méa CSV of that many
cards imported in one go: the import is timed), the p50 of ``search_cards`` (``--calls`` calls,
limit 50, Méa) for five query shapes, and, for the two text shapes, ``search_cards`` beside
Datasette's ``_search`` on the same file, interleaved in rounds (the SQL Datasette's ``_search``
runs, asked of Datasette and executed through ``sqlite3``; Datasette is told the search index:
``fts_table`` ``card_search``, ``fts_pk`` ``short_id``). With ``--postgres``, the same imports
and searches on a PostgreSQL database made per scale (pg_trgm indexes). Then the start-up of
commands with bytecode cached: ``cardbase --help`` against ``python -c "import typer"``, and
``cards search … --json`` and ``deck validate`` on the 10,000-card file against ``python -c
"import sqlmodel"``, interleaved (``--runs`` each).
The machine's load average is printed at the start and the end. Not a test; never gates CI.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import PYTHON, REPO, interleaved_times, per_call, table

QUERIES = {
    "bare word": "dragon",
    "type and number": "t:monster cost<=3",
    "text": "o:draw",
    "or with negation": "(atk>=5 or def>=6) -t:assist",
    "regex": "/^gr.*[lk]$/",
}
DATASETTE_SEARCH = {"bare word": "dragon", "text": "draw"}
"""Datasette's ``_search`` for the text shapes: the same word, matched in any indexed column."""


def synthetic_csv(path: Path, n: int) -> None:
    words = ["Goblin", "Dragon", "Toad", "Knight", "Imp", "Golem", "Owl", "Bear", "Crab", "Moth", "Snail", "Yak"]
    lines = ["name,type,cost,attack,defence,text,description,set"]
    for i in range(n):
        kind = "assist" if i % 3 == 0 else "monster"
        text = ["When summoned: Draw 1 card.", "Kill 1 enemy monster with defence 2 or less.", ""][i % 3]
        stats = f"{i % 9},{i % 10},{1 + i % 8}" if kind == "monster" else f"{i % 6},,"
        lines.append(f"{words[i % 12]} {words[(i // 12) % 12]} {i},{kind},{stats},{text},Synthetic card {i},bench")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.1f}, {five:.1f}, {fifteen:.1f} (2 cores)"


def imported(url: str, csv: Path) -> tuple[Any, float, int, float]:
    """A database at ``url`` holding the shipped catalogs and ``csv``, the import's wall time, its
    rows, and this process's CPU time in it (which a loaded machine inflates far less)."""
    from cardbase.db.engine import open_database
    from cardbase.db.io import import_catalog

    database = open_database(url)
    start, cpu = time.perf_counter(), time.process_time()
    result = import_catalog(database, csv, "mea")
    return database, time.perf_counter() - start, result.inserted, time.process_time() - cpu


def search_p50s(database: Any, calls: int) -> dict[str, float]:
    """The p50 of each shape's ``search_cards`` in milliseconds (one warm-up call each)."""
    from cardbase.db.search import search_cards

    out = {}
    with database.session() as session:
        for shape, query in QUERIES.items():
            search_cards(session, query, "mea", 50)
            times = per_call(lambda q=query: search_cards(session, q, "mea", 50), calls)
            out[shape] = statistics.median(times) * 1000
    return out


def against_datasette(database: Any, path: Path, calls: int, rounds: int = 5) -> dict[str, tuple[float, float]]:
    """Per text shape: (cardbase ``search_cards`` p50, Datasette ``_search`` p50) in milliseconds;
    empty without Datasette. Datasette's side is the SQL its ``_search`` runs (asked of Datasette
    itself, in this process), executed through ``sqlite3`` with Datasette's ``escape_fts``: the
    search, without either app's HTTP and JSON around it (``bench_web.py`` times those)."""
    try:
        from datasette.app import Datasette
        from datasette.utils import escape_fts
    except ImportError:
        return {}
    import sqlite3

    import httpx

    from cardbase.db.search import search_cards

    tables = {"card": {"fts_table": "card_search", "fts_pk": "short_id"}}
    metadata = {"databases": {path.stem: {"tables": tables}}}
    # Datasette is asked only for its SQL: no facets, and no 1 s limit that a loaded machine can hit
    settings = {"sql_time_limit_ms": 600_000, "suggest_facets": False}
    app = Datasette([str(path)], metadata=metadata, settings=settings).app()

    async def their_sql(word: str) -> tuple[str, dict[str, Any]]:
        url = f"/{path.stem}/card.json?_search={word}&game=mea&_sort=name&_size=50&_nocount=1"
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1") as client:
            response = await client.get(url)
        assert response.status_code == 200, response.text[:300]
        query = response.json()["query"]
        return query["sql"], query["params"]

    peer = sqlite3.connect(path)
    peer.create_function("escape_fts", 1, escape_fts)
    out = {}
    with database.session() as session:
        for shape, word in DATASETTE_SEARCH.items():
            sql, params = asyncio.run(their_sql(word))
            ours: list[float] = []
            theirs: list[float] = []
            for _ in range(rounds):
                ours += per_call(lambda q=QUERIES[shape]: search_cards(session, q, "mea", 50), max(1, calls // rounds))
                theirs += per_call(lambda s=sql, a=params: peer.execute(s, a).fetchall(), max(1, calls // rounds))
            out[shape] = (statistics.median(ours) * 1000, statistics.median(theirs) * 1000)
    peer.close()
    return out


def postgres_database(base: str) -> str:
    from sqlalchemy import create_engine, text

    name = f"cardbase_bench_{uuid.uuid4().hex[:8]}"
    admin = create_engine(base.replace("postgresql://", "postgresql+psycopg://", 1), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return base.rsplit("/", 1)[0] + "/" + name


def drop_postgres(url: str, base: str) -> None:
    from sqlalchemy import create_engine, text

    admin = create_engine(base.replace("postgresql://", "postgresql+psycopg://", 1), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}" WITH (FORCE)'))
    admin.dispose()


def startup(folder: Path, db_path: Path, runs: int) -> list[tuple[str, str, str, str]]:
    cardbase = [PYTHON, "-m", "cardbase"]
    deck = REPO / "examples" / "decks" / "mea-goblin-rush.txt"
    medians, cpu = interleaved_times(
        {
            "typer": [PYTHON, "-c", "import typer"],
            "sqlmodel": [PYTHON, "-c", "import sqlmodel"],
            "help": [*cardbase, "--help"],
            "search": [
                *cardbase,
                "cards",
                "search",
                "t:monster cost<=3",
                "--json",
                "--limit",
                "5",
                "--db",
                str(db_path),
            ],
            "validate": [*cardbase, "deck", "validate", str(deck), "--db", str(db_path)],
        },
        runs,
        cwd=folder,
    )

    def row(name: str, key: str, peer: str, target: str) -> tuple[str, str, str, str]:
        ratio = medians[key] / medians[peer]
        return (
            name,
            f"{medians[key] * 1000:.0f} ms; {cpu[key] * 1000:.0f} ms CPU",
            f"{ratio:.2f}× {peer} ({medians[peer] * 1000:.0f} ms); CPU {cpu[key] / cpu[peer]:.2f}× "
            f"({cpu[peer] * 1000:.0f} ms)",
            target,
        )

    return [
        row("`cardbase --help`", "help", "typer", "≤ 1.5×"),
        row("`cards search … --json` (10k cards)", "search", "sqlmodel", "≤ 1.3×"),
        row("`deck validate` (10k cards)", "validate", "sqlmodel", "≤ 1.3×"),
    ]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scales", default="1000,10000,100000,200000", help="catalog sizes, comma-separated")
    parser.add_argument("--calls", type=int, default=200, help="searches per shape and scale")
    parser.add_argument("--runs", type=int, default=15, help="interleaved runs of each command for start-up")
    parser.add_argument("--postgres", default=None, help="a PostgreSQL server URL: the same imports and searches there")
    parser.add_argument("--no-startup", action="store_true", help="skip the start-up measures")
    args = parser.parse_args()
    scales = [int(s) for s in args.scales.split(",")]
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; at the start: {load()}")

    imports: list[tuple[str, str, str, str]] = []
    searches: dict[str, dict[int, dict[str, float]]] = {"SQLite": {}, "PostgreSQL": {}}
    peers: dict[int, dict[str, tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory(prefix="cardbase-bench-") as tmp:
        folder = Path(tmp)
        startup_db = None
        for n in scales:
            csv = folder / f"synthetic-{n}.csv"
            synthetic_csv(csv, n)
            path = folder / f"bench{n}.db"
            database, seconds, rows, cpu = imported(str(path), csv)
            rate = f"{rows / seconds:,.0f} cards/s; {cpu:.1f} s CPU"
            imports.append((f"SQLite: import {rows:,} cards", f"{seconds:.1f} s", rate, "≤ 30 s at 200k"))
            searches["SQLite"][n] = search_p50s(database, args.calls)
            peers[n] = against_datasette(database, path, args.calls)
            database.engine.dispose()
            if n == 10_000:
                startup_db = path
            if args.postgres:
                url = postgres_database(args.postgres)
                try:
                    database, seconds, rows, _ = imported(url, csv)  # the server's CPU is not this process's
                    rate = f"{rows / seconds:,.0f} cards/s"
                    imports.append((f"PostgreSQL: import {rows:,} cards", f"{seconds:.1f} s", rate, "≤ 30 s at 200k"))
                    searches["PostgreSQL"][n] = search_p50s(database, args.calls)
                    database.engine.dispose()
                finally:
                    drop_postgres(url, args.postgres)
            print(f"  {n:,} cards done; {load()}")
        table("imports (one transaction, shipped catalogs already loaded)", imports)
        for backend, by_scale in searches.items():
            if not by_scale:
                continue
            rows_out = []
            for shape, query in QUERIES.items():
                cells = ", ".join(f"{n:,}: {by_scale[n][shape]:.2f}" for n in scales)
                rows_out.append((f"{shape}: {query}", cells, "", "p50 ≤ 5 ms at 100k"))
            table(f"{backend}: search p50 in ms (limit 50, Méa), by catalog size", rows_out)
        if any(peers.values()):
            rows_out = []
            for n in scales:
                for shape, (mine, theirs) in peers[n].items():
                    ratio = f"{mine / theirs:.2f}× Datasette _search={DATASETTE_SEARCH[shape]} ({theirs:.2f} ms)"
                    rows_out.append((f"{n:,} cards, {shape}: {QUERIES[shape]!r}", f"{mine:.2f} ms", ratio, "≤ 1.0×"))
            table("SQLite: search_cards against Datasette's _search on the same file (p50)", rows_out)
        elif scales:
            print("Datasette is not installed: run with `uv run --with datasette python benchmarks/bench_catalog.py`")
        if not args.no_startup:
            if startup_db is None:
                csv = folder / "synthetic-10000.csv"
                synthetic_csv(csv, 10_000)
                startup_db = folder / "bench10000.db"
                imported(str(startup_db), csv)[0].engine.dispose()
            table(
                f"start-up, bytecode cached (median of {args.runs} interleaved runs)",
                startup(folder, startup_db, args.runs),
            )
    print(f"at the end: {load()}")


if __name__ == "__main__":
    main()
