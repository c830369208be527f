"""Foundation benchmarks: import 10,000 cards, search p50 at 10k cards, CLI start-up.

Run: uv run python benchmarks/bench_catalog.py [--runs 15]
Peers are measured in the same run (machines here are shared and noisy).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import PYTHON, interleaved_medians, per_call, table

QUERIES = {
    "bare word": "dragon",
    "type and number": "t:monster cost<=3",
    "text": "o:draw",
    "or with negation": "(atk>=5 or def>=6) -t:assist",
    "regex": "/^gr.*[lk]$/",
}


def synthetic_csv(path: Path, n: int) -> None:
    words = ["Goblin", "Dragon", "Toad", "Knight", "Imp", "Golem", "Owl", "Bear", "Crab", "Moth", "Snail", "Yak"]
    lines = ["name,type,cost,attack,defence,text,description,set"]
    for i in range(n):
        kind = "assist" if i % 3 == 0 else "monster"
        text = ["When summoned: Draw 1 card.", "Kill 1 enemy monster with defence 2 or less.", ""][i % 3]
        stats = f"{i % 9},{i % 10},{1 + i % 8}" if kind == "monster" else f"{i % 6},,"
        lines.append(f"{words[i % 12]} {words[(i // 12) % 12]} {i},{kind},{stats},{text},Synthetic card {i},bench")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--cards", type=int, default=10_000)
    args = parser.parse_args()

    from cardbase.db.engine import open_database
    from cardbase.db.io import import_catalog
    from cardbase.db.search import search_cards

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        csv = folder / "synthetic.csv"
        synthetic_csv(csv, args.cards)
        db_path = folder / "bench.db"
        database = open_database(str(db_path))
        start = time.perf_counter()
        result = import_catalog(database, csv, "mea")
        seconds = time.perf_counter() - start
        rows.append(
            (
                f"import {result.inserted:,}-card Méa CSV",
                f"{seconds:.2f} s ({result.inserted / seconds:,.0f} cards/s)",
                "—",
                "in one go, one transaction",
            )
        )

        with database.session() as session:
            for shape, query in QUERIES.items():
                search_cards(session, query, "mea", 50)  # warm the statement cache
                times = per_call(lambda q=query: search_cards(session, q, "mea", 50), 200)
                p50 = statistics.median(times) * 1000
                rows.append((f"search p50, {shape}: {query}", f"{p50:.2f} ms", "—", "≤ 2 ms"))
        database.engine.dispose()

        cardbase = [PYTHON, "-m", "cardbase"]
        medians = interleaved_medians(
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
            },
            args.runs,
            cwd=folder,
        )
        rows.append(
            (
                "`cardbase --help`",
                f"{medians['help'] * 1000:.0f} ms",
                f"{medians['help'] / medians['typer']:.2f}× import typer ({medians['typer'] * 1000:.0f} ms)",
                "≤ 1.5×",
            )
        )
        rows.append(
            (
                "`cardbase cards search` on 10k cards",
                f"{medians['search'] * 1000:.0f} ms",
                f"{medians['search'] / medians['sqlmodel']:.2f}× import sqlmodel ({medians['sqlmodel'] * 1000:.0f} ms)",
                "≤ 1.3×",
            )
        )
    table(f"cardbase foundation benchmarks (median of {args.runs} interleaved runs for commands)", rows)


if __name__ == "__main__":
    main()
