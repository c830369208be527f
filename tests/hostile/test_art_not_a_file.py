"""Card art that is a FIFO (``card_images/mea/crumb-goblin.png`` made with mkfifo) made Pillow's open
wait for a writer for ever: ``render card``, ``print`` and the web's face hung. And a file read
(``read_bytes``: decks, catalogs, records) was looked at by its path, then opened: replaced by a FIFO
in between, the open hung the same way. Files are now opened without waiting and looked at as
opened (``textfiles.open_regular``): a FIFO is "not a regular file", exit 2, or the placeholder
with a warning in a batch and on the web (tests/web/test_images.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cardbase.errors import UnreadableInput
from cardbase.render.art import expected_path
from cardbase.textfiles import read_bytes
from tests.hostile.conftest import assert_refused, run_cli

pytestmark = pytest.mark.timeout(120)  # a hang is a failure here, not a test that never ends


def _fifo_art(folder: Path) -> Path:
    art = expected_path(folder, "mea", "Crumb Goblin")
    art.parent.mkdir(parents=True)
    os.mkfifo(art)
    return art


def test_render_refuses_fifo_art(hostile_db: str, in_tmp: Path) -> None:
    _fifo_art(in_tmp / "art")
    result = run_cli(["render", "card", "Crumb Goblin", "-o", "face.png", "--images", "art", "--no-cache"], hostile_db)
    assert_refused(result, 2, "crumb-goblin.png", "not a regular file")


def test_print_draws_the_placeholder_for_fifo_art(hostile_db: str, in_tmp: Path) -> None:
    _fifo_art(in_tmp / "art")
    (in_tmp / "deck.txt").write_text("game: mea\n1 Crumb Goblin\n", encoding="utf-8")
    result = run_cli(["print", "deck", "deck.txt", "-o", "out.pdf", "--images", "art", "--no-cache"], hostile_db)
    assert result.exit_code == 0, result.output
    assert "crumb-goblin.png cannot be used (not a regular file" in result.stderr, result.stderr


def test_a_file_replaced_by_a_fifo_after_its_check_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    regular = tmp_path / "deck.txt"
    regular.write_text("game: mea\n", encoding="utf-8")
    fifo = tmp_path / "swapped.txt"
    os.mkfifo(fifo)
    real_stat = os.stat

    def stat_before_the_swap(path: object, *args: object, **kwargs: object) -> os.stat_result:
        return real_stat(regular) if str(path) == str(fifo) else real_stat(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "stat", stat_before_the_swap)
    with pytest.raises(UnreadableInput, match="not a regular file"):
        read_bytes(fifo, "deck file")
