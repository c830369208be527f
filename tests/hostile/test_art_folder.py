"""``--images`` names the folder of card art, read, with its face cache written inside it. A path
there that is not a folder (a file, a FIFO, a device, a link to nothing) is refused, exit 2, and
left as it was (third sweep's driver: ``render card --images FILE`` was an internal error, exit 70,
writing the cache under it; ``print``/``export images`` drew placeholders). A missing folder is no
art: every card a placeholder."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.hostile.conftest import assert_refused, run_cli

SMALL = "game: mea\n1 Crumb Goblin\n"

ART_READERS: list[tuple[str, list[str]]] = [
    ("print deck", ["print", "deck", "small.txt", "-o", "out.pdf"]),
    ("print set", ["print", "set", "meio", "-o", "out.pdf"]),
    ("print query", ["print", "query", "Crumb Goblin", "-o", "out.pdf"]),
    ("print tiles", ["print", "tiles", "-o", "out.pdf"]),
    ("render card", ["render", "card", "Crumb Goblin", "-o", "out.png", "--dpi", "30"]),
    ("export images", ["export", "images", "small.txt", "-o", "out", "--dpi", "30"]),
]


def _file(path: Path) -> str:
    path.write_text("x", encoding="utf-8")
    return "a file"


def _fifo(path: Path) -> str:
    os.mkfifo(path)
    return "named pipe"


def _dangling(path: Path) -> str:
    path.symlink_to(path.with_name("nowhere"))
    return "link to nothing"


NOT_FOLDERS: list[tuple[str, Callable[[Path], str]]] = [
    ("a file", _file),
    ("a FIFO", _fifo),
    ("a link to nothing", _dangling),
]


@pytest.mark.parametrize(("kind", "make"), NOT_FOLDERS, ids=[k[0] for k in NOT_FOLDERS])
@pytest.mark.parametrize(("name", "argv"), ART_READERS, ids=[r[0] for r in ART_READERS])
def test_an_art_folder_that_is_not_one_is_refused(
    name: str, argv: list[str], kind: str, make: Callable[[Path], str], hostile_db: str, in_tmp: Path
) -> None:
    (in_tmp / "small.txt").write_text(SMALL, encoding="utf-8")
    art = in_tmp / "art"
    said = make(art)
    before = sorted(p.name for p in in_tmp.iterdir())
    result = run_cli([*argv, "--images", str(art), "--db", hostile_db])
    assert_refused(result, 2, "--images", str(art), said)
    assert sorted(p.name for p in in_tmp.iterdir()) == before
    assert not (in_tmp / "nowhere").exists()


def test_a_missing_art_folder_is_no_art(hostile_db: str, in_tmp: Path) -> None:
    result = run_cli(
        ["render", "card", "Crumb Goblin", "-o", "c.png", "--dpi", "30", "--images", "missing"], hostile_db
    )
    assert result.exit_code == 0, result.output
    assert "no art" in result.stderr


def test_a_named_art_folder_is_read(hostile_db: str, in_tmp: Path) -> None:
    art = str(REPO / "card_images")
    result = run_cli(["render", "card", "Crumb Goblin", "-o", "c.png", "--dpi", "30", "--images", art], hostile_db)
    assert result.exit_code == 0, result.output
    assert "no art" not in result.stderr
