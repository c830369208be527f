"""Art that cannot be used is one warning, that it cannot: ``print`` drew the placeholder for a PNG
cut short and also warned that the art "prints soft" at its pixel size, as if it had been printed
(the header gives the size, the pixels never decoded). Said of art that was drawn only."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from tests.hostile.conftest import run_cli


def _cut_png(path: Path) -> None:
    buffer = io.BytesIO()
    Image.new("RGB", (200, 300), "red").save(buffer, "PNG")
    data = buffer.getvalue()
    path.write_bytes(data[: len(data) // 2])


def test_art_cut_short_is_said_once_and_not_as_printed(hostile_db: str, in_tmp: Path) -> None:
    art = in_tmp / "art" / "mea"
    art.mkdir(parents=True)
    _cut_png(art / "crumb-goblin.png")
    (in_tmp / "deck.txt").write_text("game: mea\n1 Crumb Goblin\n", encoding="utf-8")
    result = run_cli(["print", "deck", "deck.txt", "-o", "out.pdf", "--images", "art", "--no-cache"], hostile_db)
    assert result.exit_code == 0, result.output
    said = [line for line in result.stderr.splitlines() if "crumb-goblin.png" in line]
    assert len(said) == 1 and "cannot be used" in said[0], said


def test_art_that_prints_soft_is_still_said_to(hostile_db: str, in_tmp: Path) -> None:
    art = in_tmp / "art" / "mea"
    art.mkdir(parents=True)
    Image.new("RGB", (200, 300), "red").save(art / "crumb-goblin.png")
    (in_tmp / "deck.txt").write_text("game: mea\n1 Crumb Goblin\n", encoding="utf-8")
    result = run_cli(["print", "deck", "deck.txt", "-o", "out.pdf", "--images", "art", "--no-cache"], hostile_db)
    assert result.exit_code == 0, result.output
    assert "prints soft" in result.stderr
