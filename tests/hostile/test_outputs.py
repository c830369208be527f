"""Class 5 (outputs): an output path that is a folder, lies under a file, or cannot be written is
refused naming the path, exit 2; an interrupted or failed write leaves what was there before."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardbase.errors import UnreadableInput
from cardbase.textfiles import output_file
from tests.conftest import REPO
from tests.hostile.conftest import assert_refused, run_cli

GOBLINS = str(REPO / "examples/decks/mea-goblin-rush.txt")

WRITERS: list[tuple[str, list[str]]] = [
    ("draws --plot", ["draws", GOBLINS, "--need", "1 t:monster", "--plot", "{out}"]),
    ("deck export -o", ["deck", "export", "Mine", "-o", "{out}"]),
    ("sim --records", ["sim", "meio", "--players", "2", "--games", "1", "--records", "{out}"]),
    ("play --record", ["play", "meio", "--players", "2", "--seed", "1", "--record", "{out}"]),
    ("schema generate --folder", ["schema", "generate", "--folder", "{out}"]),
    ("catalog export csv", ["catalog", "export", "--game", "mea", "--format", "csv", "-o", "{out}"]),
    ("catalog export xlsx", ["catalog", "export", "--game", "mea", "--format", "xlsx", "-o", "{out}"]),
    ("catalog export json", ["catalog", "export", "--game", "mea", "--format", "json", "-o", "{out}"]),
    ("render card", ["render", "card", "Tile Titan", "-o", "{out}"]),
    ("print deck", ["print", "deck", GOBLINS, "-o", "{out}"]),
    ("print tiles --split-backs", ["print", "tiles", "--backs", "--split-backs", "-o", "{out}"]),
]


def _under_a_file(tmp: Path) -> str:
    (tmp / "a-file").write_text("x", encoding="utf-8")
    return str(tmp / "a-file" / "out.pdf")


def _deep_under_a_file(tmp: Path) -> str:
    (tmp / "b-file").write_text("x", encoding="utf-8")
    return str(tmp / "b-file" / "more" / "out.pdf")


BAD = [("under-a-file", _under_a_file), ("deep-under-a-file", _deep_under_a_file)]


@pytest.mark.parametrize(("kind", "make"), BAD, ids=[b[0] for b in BAD])
@pytest.mark.parametrize(("writer", "argv"), WRITERS, ids=[w[0] for w in WRITERS])
def test_output_path_that_cannot_be_made_is_refused(writer, argv, kind, make, hostile_db: str, in_tmp: Path) -> None:
    run_cli(["deck", "new", "Mine", "--game", "mea"], hostile_db)
    out = make(in_tmp)
    argv = [a.replace("{out}", out) for a in argv]
    if argv[:2] not in (["sim", "meio"], ["play", "meio"], ["schema", "generate"]):
        argv += ["--db", hostile_db]
    run = run_cli(argv, input="quit\n")
    assert_refused(run, 2, "a-file" if "a-file" in out else "b-file")


FILE_WRITERS = [w for w in WRITERS if w[0] not in ("sim --records", "play --record", "schema generate --folder")]


@pytest.mark.parametrize(("writer", "argv"), FILE_WRITERS, ids=[w[0] for w in FILE_WRITERS])
def test_output_path_that_is_a_folder_is_refused(writer, argv, hostile_db: str, in_tmp: Path) -> None:
    run_cli(["deck", "new", "Mine", "--game", "mea"], hostile_db)
    (in_tmp / "a-folder").mkdir()
    run = run_cli([*(a.replace("{out}", str(in_tmp / "a-folder")) for a in argv), "--db", hostile_db])
    assert_refused(run, 2, "folder")


def test_a_failed_write_leaves_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "deck.txt"
    target.write_text("the old deck\n", encoding="utf-8")
    with pytest.raises(KeyboardInterrupt), output_file(target, "deck file") as temporary:
        temporary.write_text("half a new", encoding="utf-8")
        raise KeyboardInterrupt
    assert target.read_text(encoding="utf-8") == "the old deck\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.txt"]


def test_output_into_a_folder_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    with pytest.raises(UnreadableInput, match="is a folder"), output_file(tmp_path, "plot"):
        pass


@pytest.mark.parametrize("mask", [0o022, 0o077])
def test_outputs_get_the_mode_the_umask_gives_not_a_temporary_files(tmp_path: Path, mask: int) -> None:
    """Files are written to a private temporary file and renamed: the result must not stay 0600."""
    import os
    import stat

    from cardbase import textfiles

    previous = os.umask(mask)
    textfiles._umask.cache_clear()  # read once per process: this test changes it
    try:
        csv_out, pdf_out, images = tmp_path / "cards.csv", tmp_path / "deck.pdf", tmp_path / "images"
        assert run_cli(["catalog", "export", "--game", "meio", "-o", csv_out]).exit_code == 0
        deck = REPO / "examples" / "decks" / "meio-hand.txt"
        assert run_cli(["print", "deck", deck, "-o", pdf_out]).exit_code == 0
        assert run_cli(["export", "images", deck, "-o", images, "--dpi", "40"]).exit_code == 0
    finally:
        os.umask(previous)
        textfiles._umask.cache_clear()
    for path in (csv_out, pdf_out, images / "manifest.csv"):
        assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~mask, path
    assert stat.S_IMODE(images.stat().st_mode) == 0o777 & ~mask
