"""Art that cannot be used is one warning, that it cannot: ``print`` drew the placeholder for a PNG
cut short and also warned that the art "prints soft" at its pixel size, as if it had been printed
(the header gives the size, the pixels never decoded). Said of art that was drawn only.

A batch (``print``, ``export images``) draws the placeholder for it, as the web does; ``export
images`` refused the whole deck for one file cut short. ``render card`` asks for one card's face
and refuses its art instead, naming the file (exit 2)."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

from tests.hostile.conftest import assert_refused, run_cli


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


def _not_an_image(path: Path) -> None:
    path.write_bytes(b"\x89PNG\r\n\x1a\n this is not really a picture")


UNUSABLE: list[tuple[str, Callable[[Path], None]]] = [("cut short", _cut_png), ("not an image", _not_an_image)]
# A whole deck or set: art that cannot be used is the placeholder and one warning, never the output lost.
BATCHES: list[tuple[str, list[str], str]] = [
    ("print deck", ["print", "deck", "deck.txt", "-o", "out.pdf"], "out.pdf"),
    ("export images", ["export", "images", "deck.txt", "-o", "out", "--dpi", "30"], "out/001-crumb-goblin.png"),
]


@pytest.mark.parametrize(("kind", "spoil"), UNUSABLE, ids=[u[0] for u in UNUSABLE])
@pytest.mark.parametrize(("name", "argv", "made"), BATCHES, ids=[b[0] for b in BATCHES])
def test_a_batch_draws_the_placeholder_for_art_that_cannot_be_used(
    name: str, argv: list[str], made: str, kind: str, spoil: Callable[[Path], None], hostile_db: str, in_tmp: Path
) -> None:
    art = in_tmp / "art" / "mea"
    art.mkdir(parents=True)
    spoil(art / "crumb-goblin.png")
    (in_tmp / "deck.txt").write_text("game: mea\n2 Crumb Goblin\n", encoding="utf-8")
    result = run_cli([*argv, "--images", "art", "--no-cache"], hostile_db)
    assert result.exit_code == 0, result.output
    said = [line for line in result.stderr.splitlines() if "crumb-goblin.png" in line]
    assert len(said) == 1 and "cannot be used" in said[0] and "placeholder" in said[0], said
    assert str(in_tmp) not in said[0]  # named inside the art folder
    assert (in_tmp / made).stat().st_size > 0


@pytest.mark.parametrize(("kind", "spoil"), UNUSABLE, ids=[u[0] for u in UNUSABLE])
def test_one_card_rendered_refuses_art_that_cannot_be_used(
    kind: str, spoil: Callable[[Path], None], hostile_db: str, in_tmp: Path
) -> None:
    art = in_tmp / "art" / "mea"
    art.mkdir(parents=True)
    spoil(art / "crumb-goblin.png")
    result = run_cli(["render", "card", "Crumb Goblin", "-o", "c.png", "--images", "art", "--no-cache"], hostile_db)
    assert_refused(result, 2, "crumb-goblin.png")
    assert not (in_tmp / "c.png").exists()
