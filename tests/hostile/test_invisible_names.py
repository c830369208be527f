"""Class 4 (text in files): a card, alias or deck name holding an invisible format character (a
zero-width space U+200B, a word joiner U+2060, a byte order mark U+FEFF inside the text, a soft
hyphen U+00AD) is refused naming it: ``Z<U+200B>ed`` shows as ``Zed`` yet is another card, with
another id (``z-ed``), that no deck line ``Zed`` finds. The joiners U+200C and U+200D are kept:
Persian, the Indic scripts and emoji sequences spell with them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hostile.conftest import assert_refused, db_dump, run_cli

INVISIBLE = ["\u200b", "\u2060", "\ufeff", "\u00ad", "\u180e", "\u2063"]


@pytest.mark.parametrize("char", INVISIBLE, ids=[f"U+{ord(c):04X}" for c in INVISIBLE])
def test_a_card_name_with_an_invisible_character_is_refused(char: str, shared_db: str, tmp_path: Path) -> None:
    sheet = tmp_path / "cards.csv"
    sheet.write_text(f"name,type,cost,attack,defence\nZ{char}ed,monster,1,1,1\n", encoding="utf-8")
    before = db_dump(shared_db)
    run = run_cli(["catalog", "import", str(sheet), "--game", "mea"], shared_db)
    assert_refused(run, 1, f"U+{ord(char):04X}", "row 2")
    assert db_dump(shared_db) == before


@pytest.mark.parametrize("char", INVISIBLE[:2], ids=[f"U+{ord(c):04X}" for c in INVISIBLE[:2]])
def test_a_deck_name_with_an_invisible_character_is_refused(char: str, shared_db: str) -> None:
    before = db_dump(shared_db)
    assert_refused(run_cli(["deck", "new", f"Mi{char}ne", "--game", "mea"], shared_db), 2, f"U+{ord(char):04X}")
    assert db_dump(shared_db) == before


def test_the_joiners_that_spell_words_are_kept(hostile_db: str, tmp_path: Path) -> None:
    sheet = tmp_path / "cards.csv"
    persian = "می\u200cخواهم"
    sheet.write_text(f"name,type,cost,attack,defence\n{persian},monster,1,1,1\n", encoding="utf-8")
    run = run_cli(["catalog", "import", str(sheet), "--game", "mea"], hostile_db)
    assert run.exit_code == 0, run.stderr
    assert persian in run_cli(["cards", "show", persian, "--game", "mea"], hostile_db).stdout
