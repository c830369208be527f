"""``--images`` names the folder of card art, read (and its face cache written inside it): a folder
the user named that is missing or a file is refused, exit 2, and nothing is made (third sweep's
driver: ``--images`` with a typo drew every card as a placeholder, exit 0, and made the typo a
folder holding ``.cache``). The default ``card_images`` may be absent: it is made for the cache."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.hostile.conftest import assert_refused, run_cli

SMALL = "game: mea\n1 Crumb Goblin\n"

ART_READERS: list[tuple[str, list[str], bool]] = [
    ("print deck", ["print", "deck", "small.txt", "-o", "out.pdf"], True),
    ("print set", ["print", "set", "meio", "-o", "out.pdf"], True),
    ("print query", ["print", "query", "Crumb Goblin", "-o", "out.pdf"], True),
    ("print tiles", ["print", "tiles", "-o", "out.pdf"], True),
    ("render card", ["render", "card", "Crumb Goblin", "-o", "out.png", "--dpi", "30"], True),
    ("export images", ["export", "images", "small.txt", "-o", "out", "--dpi", "30"], True),
]


@pytest.mark.parametrize("kind", ["missing", "a file"])
@pytest.mark.parametrize(("name", "argv", "db"), ART_READERS, ids=[r[0] for r in ART_READERS])
def test_an_art_folder_that_is_not_one_is_refused(
    name: str, argv: list[str], db: bool, kind: str, hostile_db: str, in_tmp: Path
) -> None:
    (in_tmp / "small.txt").write_text(SMALL, encoding="utf-8")
    art = in_tmp / "no-such-art"
    if kind == "a file":
        art.write_text("x", encoding="utf-8")
    result = run_cli([*argv, "--images", str(art)], hostile_db if db else None)
    assert_refused(result, 2, "--images", str(art), "no such folder" if kind == "missing" else "not a folder")
    made = sorted(p.name for p in in_tmp.iterdir() if not p.name.startswith("cards.db"))  # the database's own
    assert made == sorted(["small.txt", *(["no-such-art"] if kind == "a file" else [])])


def test_the_default_art_folder_may_be_absent(hostile_db: str, in_tmp: Path) -> None:
    result = run_cli(["print", "tiles", "-o", "out.pdf"], hostile_db)
    assert result.exit_code == 0, result.output
    assert (in_tmp / "out.pdf").read_bytes()[:4] == b"%PDF"


def test_a_named_art_folder_is_read(hostile_db: str, in_tmp: Path) -> None:
    result = run_cli(
        ["render", "card", "Crumb Goblin", "-o", "c.png", "--dpi", "30", "--images", str(REPO / "card_images")],
        hostile_db,
    )
    assert result.exit_code == 0, result.output
    assert "no art" not in result.stderr
