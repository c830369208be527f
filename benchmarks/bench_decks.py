"""Deck benchmarks: validate a 40-card deck in-process and through the CLI; parse and validate 10,000 decks.

Run: uv run python benchmarks/bench_decks.py [--runs 15]
The CLI is compared with `python -c "import sqlmodel"` measured in the same run.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import PYTHON, interleaved_times, per_call, table


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.1f}, {five:.1f}, {fifteen:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--decks", type=int, default=10_000)
    args = parser.parse_args()

    from cardbase.db.engine import open_database
    from cardbase.decks.service import catalog_index, resolve_text, validate_resolved
    from cardbase.decks.text import parse_text

    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; at the start: {load()}")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        db_path = folder / "bench.db"
        database = open_database(str(db_path))
        index = catalog_index(database)
        demo = sorted(c.name for c in index.by_id.values() if c.set == "demo")
        rng = random.Random(1)
        deck_text = "game: mea\n" + "\n".join(f"2 {name}" for name in rng.sample(demo, 20)) + "\n"
        deck_file = folder / "deck.txt"
        deck_file.write_text(deck_text, encoding="utf-8")

        def validate_once() -> None:
            report, _ = validate_resolved(resolve_text(database, parse_text(deck_text), index=index))
            assert report.valid

        validate_once()
        p50 = statistics.median(per_call(validate_once, 300)) * 1e6
        rows.append(("validate a 40-card Méa deck in-process (index loaded)", f"{p50:.0f} µs", "—", "—"))
        fresh = (
            statistics.median(per_call(lambda: validate_resolved(resolve_text(database, parse_text(deck_text))), 50))
            * 1000
        )
        rows.append(("… including loading the catalog index", f"{fresh:.2f} ms", "—", "—"))

        texts = [
            "game: mea\n" + "\n".join(f"{rng.randint(1, 3)} {name}" for name in rng.sample(demo, rng.randint(8, 20)))
            for _ in range(args.decks)
        ]
        start = time.perf_counter()
        valid = 0
        for text in texts:
            report, _ = validate_resolved(resolve_text(database, parse_text(text), index=index))
            valid += report.valid
        seconds = time.perf_counter() - start
        rows.append(
            (
                f"parse and validate {args.decks:,} decks",
                f"{seconds:.2f} s ({args.decks / seconds:,.0f} decks/s)",
                "—",
                f"{valid:,} valid",
            )
        )
        database.engine.dispose()

        medians, cpu = interleaved_times(
            {
                "sqlmodel": [PYTHON, "-c", "import sqlmodel"],
                "validate": [PYTHON, "-m", "cardbase", "deck", "validate", str(deck_file), "--db", str(db_path)],
            },
            args.runs,
            cwd=folder,
        )
        rows.append(
            (
                "`cardbase deck validate` (40 cards)",
                f"{medians['validate'] * 1000:.0f} ms; {cpu['validate'] * 1000:.0f} ms CPU",
                f"{medians['validate'] / medians['sqlmodel']:.2f}× import sqlmodel "
                f"({medians['sqlmodel'] * 1000:.0f} ms); CPU {cpu['validate'] / cpu['sqlmodel']:.2f}× "
                f"({cpu['sqlmodel'] * 1000:.0f} ms)",
                "≤ 1.3×",
            )
        )
    table(f"cardbase deck benchmarks (median of {args.runs} interleaved runs for commands)", rows)
    print(f"at the end: {load()}")


if __name__ == "__main__":
    main()
