"""Write the golden files tests/golden/<game>.json: ``uv run python tests/golden/regenerate.py [GAME …]``.

Run it after a deliberate rules change and commit the diff with the change: the diff is the review.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.golden.walks import CASES, dump, path_of, records


def main(games: list[str]) -> None:
    for game in games or list(CASES):
        path = path_of(game)
        path.write_text(dump(records(game)), encoding="utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    main(sys.argv[1:])
