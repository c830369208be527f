"""The lab form's listing (``lab.service.field_choices``) over 50 saved Méa decks, every fifth one
too short to play (marked invalid, not choosable): the best of 5 times and the SQL statements a view
takes. Run it with another tree on ``PYTHONPATH`` to measure that tree's. Not a test.

    uv run python benchmarks/lab_form.py
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from sqlalchemy import event

from cardbase.db.engine import open_database
from cardbase.decks.service import import_deck, read_deck_data
from cardbase.lab.service import field_choices

DECKS = 50
RUSH = (Path(__file__).resolve().parents[1] / "examples/decks/mea-goblin-rush.txt").read_text(encoding="utf-8")


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        database = open_database(f"sqlite:///{folder}/cards.db")
        ids = []
        for i in range(DECKS):
            text = RUSH if i % 5 else "\n".join(RUSH.splitlines()[:8])
            ids.append(import_deck(database, read_deck_data(text, f"deck {i}"), name=f"deck {i:02}")[0])
        field_choices(database, ids[0])  # the imports and the caches warmed
        seen: list[str] = []
        event.listen(database.engine, "before_cursor_execute", lambda *args: seen.append(args[2]))
        times = []
        for _ in range(5):
            start = time.perf_counter()
            choices, _ = field_choices(database, ids[0])
            times.append(time.perf_counter() - start)
        invalid = sum(1 for c in choices if c.problems)
        print(
            f"{len(choices)} decks listed ({invalid} invalid): best {min(times) * 1000:.1f} ms, "
            f"{len(seen) // 5} SQL statements a view"
        )
        database.engine.dispose()


if __name__ == "__main__":
    main()
