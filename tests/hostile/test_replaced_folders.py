"""Class 1 (outputs that harm what they are pointed at): an output folder is replaced whole (the
new export takes the old one's place in one step), so it may hold only what an earlier export
wrote. A folder that also holds the deck being exported, the database in use, or any other file
of the user's is refused naming it, exit 2, and keeps every file; before, an earlier export's
``manifest.csv`` was enough for the whole folder, the user's files with it, to be deleted."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import POSTGRES, REPO
from tests.hostile.conftest import assert_refused, run_cli

GOBLINS = REPO / "examples/decks/mea-goblin-rush.txt"
EXPORT = ["export", "images", "--dpi", "30"]


def _earlier_export(folder: Path, pictures: int = 1) -> None:
    """An export's folder: its manifest and the PNGs it lists (``001-old.png`` first)."""
    folder.mkdir()
    names = ["001-old.png", *(f"00{i}-x.png" for i in range(2, pictures + 1))]
    rows = "".join(f"{name},front,Old,mea,1,\n" for name in names)
    (folder / "manifest.csv").write_text("file,side,name,game,count,back\n" + rows, encoding="utf-8")
    for name in names:
        (folder / name).write_bytes(b"\x89PNG\r\n\x1a\n")


def _deck_inside(tmp: Path, db: str) -> tuple[list[str], Path, str]:
    shutil.copy(GOBLINS, tmp / "out" / "mine.txt")
    return [*EXPORT, str(tmp / "out" / "mine.txt"), "-o", "out", "--db", db], tmp / "out" / "mine.txt", "mine.txt"


def _database_inside(tmp: Path, db: str) -> tuple[list[str], Path, str]:
    inside = tmp / "out" / "cards.db"
    shutil.copy(db, inside)
    return [*EXPORT, str(GOBLINS), "-o", "out", "--db", str(inside)], inside, "cards.db"


def _notes_inside(tmp: Path, db: str) -> tuple[list[str], Path, str]:
    (tmp / "out" / "notes.txt").write_text("my notes", encoding="utf-8")
    return [*EXPORT, str(GOBLINS), "-o", "out", "--db", db], tmp / "out" / "notes.txt", "notes.txt"


def _picture_inside(tmp: Path, db: str) -> tuple[list[str], Path, str]:
    (tmp / "out" / "my-scan.png").write_bytes(b"\x89PNG\r\n\x1a\nmine")
    return [*EXPORT, str(GOBLINS), "-o", "out", "--db", db], tmp / "out" / "my-scan.png", "my-scan.png"


def _subfolder_inside(tmp: Path, db: str) -> tuple[list[str], Path, str]:
    (tmp / "out" / "keep").mkdir()
    (tmp / "out" / "keep" / "a.png").write_bytes(b"\x89PNG")
    return [*EXPORT, str(GOBLINS), "-o", "out", "--db", db], tmp / "out" / "keep" / "a.png", "keep"


def _deck_in_a_subfolder(tmp: Path, db: str) -> tuple[list[str], Path, str]:
    (tmp / "out" / "decks").mkdir()
    shutil.copy(GOBLINS, tmp / "out" / "decks" / "mine.txt")
    deck = tmp / "out" / "decks" / "mine.txt"
    return [*EXPORT, str(deck), "-o", "out", "--db", db], deck, "decks"


INSIDE: list[tuple[str, Callable[[Path, str], tuple[list[str], Path, str]]]] = [
    ("the deck exported", _deck_inside),
    ("the database in use", _database_inside),
    ("a file of the user's", _notes_inside),
    ("a picture of the user's, which the manifest does not list", _picture_inside),
    ("a folder of the user's", _subfolder_inside),
    ("the deck, in a folder inside", _deck_in_a_subfolder),
]


@pytest.mark.parametrize(("what", "make"), INSIDE, ids=[i[0] for i in INSIDE])
def test_an_export_folder_holding_more_than_an_export_is_refused_and_kept(
    what: str, make: Callable[[Path, str], tuple[list[str], Path, str]], hostile_db: str, in_tmp: Path
) -> None:
    if POSTGRES and make is _database_inside:
        pytest.skip("the database is a PostgreSQL one, not a file")
    _earlier_export(in_tmp / "out")
    argv, kept, named = make(in_tmp, hostile_db)
    before = kept.read_bytes()
    assert_refused(run_cli(argv), 2, named)
    assert kept.read_bytes() == before, f"{what} changed"
    assert (in_tmp / "out" / "manifest.csv").is_file() and (in_tmp / "out" / "001-old.png").is_file()


def test_an_earlier_export_is_replaced(hostile_db: str, in_tmp: Path) -> None:
    _earlier_export(in_tmp / "out")
    result = run_cli([*EXPORT, str(GOBLINS), "-o", "out", "--db", hostile_db])
    assert result.exit_code == 0, result.output
    assert not (in_tmp / "out" / "001-old.png").exists() and (in_tmp / "out" / "manifest.csv").is_file()


@pytest.mark.parametrize("given", [".", "./", "here/.."])
def test_the_current_folder_as_the_export_folder_is_refused(given: str, hostile_db: str, in_tmp: Path) -> None:
    (in_tmp / "here").mkdir()
    (in_tmp / "manifest.csv").write_text("file,side,name,game,count,back\n", encoding="utf-8")
    assert_refused(run_cli([*EXPORT, str(GOBLINS), "-o", given, "--db", hostile_db]), 2, "current folder")
    assert (in_tmp / "manifest.csv").is_file() and (in_tmp / "here").is_dir()


def test_the_export_folder_is_walked_once(hostile_db: str, in_tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its check for kept inputs walks the folder once, before any work (the messages in the order
    they were); the files read while the export is drawn are checked by the names they were read at."""
    import os

    import cardbase.textfiles

    _earlier_export(in_tmp / "out", pictures=6)
    walked: list[str] = []
    real_walk = os.walk

    def counted(top: object, *args: object, **kwargs: object) -> object:
        walked.append(str(top))
        return real_walk(top, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(cardbase.textfiles.os, "walk", counted)
    result = run_cli([*EXPORT, str(GOBLINS), "-o", "out", "--db", hostile_db])
    assert result.exit_code == 0, result.output
    assert len(walked) == 1, walked


def test_art_read_from_inside_the_export_folder_is_refused_and_kept(hostile_db: str, in_tmp: Path) -> None:
    """``--images exports -o exports/mea``: the art of a card (``mea/<slug>.png``) lies in the folder
    the export replaces whole; it is read while the faces are drawn, so it is refused then, kept."""
    (in_tmp / "art").mkdir()
    _earlier_export(in_tmp / "art" / "mea")
    art = in_tmp / "art" / "mea" / "crumb-goblin.png"
    from PIL import Image

    Image.new("RGB", (40, 60), "red").save(art)
    with (in_tmp / "art" / "mea" / "manifest.csv").open("a", encoding="utf-8") as manifest:
        manifest.write("crumb-goblin.png,front,Crumb Goblin,mea,1,\n")  # listed: the folder passes the first check
    before = art.read_bytes()
    result = run_cli([*EXPORT, str(GOBLINS), "-o", "art/mea", "--images", "art", "--no-cache", "--db", hostile_db])
    assert_refused(result, 2, "crumb-goblin.png", "card image")
    assert art.read_bytes() == before
    assert sorted(p.name for p in (in_tmp / "art").iterdir()) == ["mea"], "a temporary folder was left"


def test_a_file_saved_into_the_folder_while_the_export_draws_is_refused_and_kept(
    hostile_db: str, in_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The folder is checked before the faces are drawn and replaced when they are done: a file the
    user saves into it in between (minutes, on a large deck) was deleted with the old export. It is
    checked again once the old folder is moved aside, and the old folder is put back whole."""
    from cardbase.render import export

    _earlier_export(in_tmp / "out")
    notes = in_tmp / "out" / "notes.txt"
    drawn = export._draw_all

    def saving_meanwhile(*args: object, **kwargs: object) -> None:
        drawn(*args, **kwargs)  # type: ignore[arg-type]
        notes.write_text("saved while the export ran", encoding="utf-8")

    monkeypatch.setattr(export, "_draw_all", saving_meanwhile)
    assert_refused(run_cli([*EXPORT, str(GOBLINS), "-o", "out", "--no-cache", "--db", hostile_db]), 2, "notes.txt")
    assert notes.read_text(encoding="utf-8") == "saved while the export ran"
    assert (in_tmp / "out" / "001-old.png").is_file() and (in_tmp / "out" / "manifest.csv").is_file()
    assert sorted(p.name for p in in_tmp.iterdir() if p.name.startswith(".out.")) == []  # no temporary left
