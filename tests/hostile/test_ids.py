"""Distinct names are distinct cards in every script; ids of Latin names are what they always were.

The blocker of issue 12: the old slug kept only ``[a-z0-9]``, so every Japanese, Greek or
Cyrillic name of a set got one id and an import merged them.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine, select, text

from cardbase.db.engine import Database, database_url, open_database
from cardbase.db.models import SCHEMA_VERSION, Card, CardAlias, DeckCardRow, card_id, legacy_short_id, short_id
from cardbase.names import SLUG_FILE_BYTES, file_slug, fold, slug
from cardbase.render.art import expected_path
from tests.hostile.conftest import assert_refused, db_dump, run_cli

# Names of one game in seven scripts; under the old slug every non-Latin one was "".
SCRIPTS: dict[str, list[str]] = {
    "japanese": ["勇者", "魔王", "ガ", "カ", "ゴブリン", "コブリン"],
    "greek": ["Ἀθηνᾶ", "Αθηνα", "Ζεύς", "Ήρα"],
    "cyrillic": ["Бой", "Бои", "Ёж", "Дракон"],
    "arabic": ["كِتاب", "كتاب", "سيف", "تنين"],
    "devanagari": ["कि", "क", "नमस्ते", "काल", "कल"],
    "hangul": ["한국", "용사", "마왕", "한극"],
    "latin-accents": ["Crème Brûlée", "Øresund", "Ærø", "Łódź", "Straße Wächter"],
    "hebrew": ["דרקון", "מלך"],
    "thai": ["มังกร", "กษัตริย์"],
}


def _old_slug(text_: str) -> str:
    """The slug before issue 12 (a reference for the Latin names that must keep their ids)."""
    decomposed = unicodedata.normalize("NFKD", text_)
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return re.sub(r"[^a-z0-9]+", "-", " ".join(stripped.casefold().split())).strip("-")


def _csv(tmp_path: Path, rows: list[str], header: str = "name,type") -> Path:
    path = tmp_path / "cards.csv"
    path.write_text(header + "\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return path


def _names(url: str, game: str) -> dict[str, str]:
    engine = create_engine(database_url(url))
    try:
        with engine.connect() as conn:
            return {n: i for i, n in conn.execute(select(Card.id, Card.name).where(Card.game == game))}
    finally:
        engine.dispose()


def test_names_in_nine_scripts_are_all_there_after_one_import(loaded_db: str, tmp_path: Path) -> None:
    names = [n for group in SCRIPTS.values() for n in group]
    result = run_cli(
        ["catalog", "import", _csv(tmp_path, [f"{n},character" for n in names]), "--game", "meikyu"], loaded_db
    )
    assert result.exit_code == 0, result.stderr
    stored = _names(loaded_db, "meikyu")
    assert set(names) <= set(stored)
    assert len({stored[n] for n in names}) == len(names)
    assert f"inserted {len(names)}," in result.stdout


@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_each_script_keeps_every_card_and_a_readable_id(loaded_db: str, tmp_path: Path, script: str) -> None:
    names = SCRIPTS[script]
    result = run_cli(["catalog", "import", _csv(tmp_path, [f"{n},monster" for n in names]), "--game", "mea"], loaded_db)
    assert result.exit_code == 0, result.stderr
    stored = _names(loaded_db, "mea")
    for name in names:
        assert stored[name] == f"mea/core/{slug(name)}"
        assert slug(name)
    # and each is found by name again
    found = run_cli(["cards", "show", names[0], "--game", "mea", "--json"], loaded_db)
    assert found.exit_code == 0, found.stderr


# Two names of one file that still map to one id: an error naming both rows.
SAME_ID = [
    ("Crème-Golem X", "Creme Golem X!"),
    ("Goblin King", "goblin-king"),
    ("Goblin  King", "Goblin King?"),
    ("A.B.C", "a b c"),
    ("勇者!", "勇者"),
    ("勇者 ", "「勇者」"),
    ("Ζεύς", "ζεύς"),
    ("Бой.", "бой"),
    ("한국", "한국!!"),
    ("x/y", "x-y"),
    ("x\\y", "x y"),
    ("Über", "Uber"),
    ("ﬁre", "fire"),
    ("x²", "x2"),
]


@pytest.mark.parametrize(("first", "second"), SAME_ID)
def test_two_names_with_one_id_in_a_file_are_refused_naming_both_rows(
    loaded_db: str, tmp_path: Path, first: str, second: str
) -> None:
    path = _csv(tmp_path, [f'"{first}",monster', f'"{second}",monster'])
    before = db_dump(loaded_db)
    result = run_cli(["catalog", "import", path, "--game", "mea"], loaded_db)
    assert_refused(result, 1, contains="row 2")
    assert "row 3" in result.stderr
    assert db_dump(loaded_db) == before


@pytest.mark.parametrize(("first", "second"), [p for p in SAME_ID if fold(p[0]) != fold(p[1])])
def test_a_name_with_the_id_of_a_card_in_the_database_is_refused(
    loaded_db: str, tmp_path: Path, first: str, second: str
) -> None:
    assert (
        run_cli(["catalog", "import", _csv(tmp_path, [f'"{first}",monster']), "--game", "mea"], loaded_db).exit_code
        == 0
    )
    before = db_dump(loaded_db)
    result = run_cli(["catalog", "import", _csv(tmp_path, [f'"{second}",monster']), "--game", "mea"], loaded_db)
    assert_refused(result, 1, contains="already in the database")
    assert repr(first.strip()) in result.stderr and "row 2" in result.stderr
    assert db_dump(loaded_db) == before


def test_a_case_or_accent_variant_still_updates_the_same_card(loaded_db: str, tmp_path: Path) -> None:
    assert (
        run_cli(["catalog", "import", _csv(tmp_path, ["Crème Golem Z,monster"]), "--game", "mea"], loaded_db).exit_code
        == 0
    )
    path = _csv(tmp_path, ["creme golem z,monster,4"], header="name,type,cost")
    result = run_cli(["catalog", "import", path, "--game", "mea"], loaded_db)
    assert result.exit_code == 0 and "updated 1" in result.stdout, result.stderr


@pytest.mark.parametrize("name", ["!!!", "…", "---", "“”", "💀", "☃", "   ·   "])
def test_a_name_with_no_letter_or_digit_is_refused(loaded_db: str, tmp_path: Path, name: str) -> None:
    before = db_dump(loaded_db)
    result = run_cli(["catalog", "import", _csv(tmp_path, [f'"{name}",monster']), "--game", "mea"], loaded_db)
    assert_refused(result, 1, contains="needs at least one letter or digit")
    assert db_dump(loaded_db) == before


# Latin-script characters whose letters fold to ASCII (with their accents), and punctuation.
_FOLDS_TO_ASCII = [
    chr(c)
    for c in range(0x20, 0x250)
    if chr(c).isascii()
    or all(unicodedata.combining(d) or d.isascii() for d in unicodedata.normalize("NFKD", chr(c)).casefold())
]


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(_FOLDS_TO_ASCII), max_size=40))
def test_latin_names_that_fold_to_ascii_keep_their_old_id(name: str) -> None:
    assert slug(name) == _old_slug(name)


def test_every_shipped_card_keeps_its_id(database: Database) -> None:
    with database.session() as session:
        for card in session.scalars(select(Card)):
            assert card.id == f"{card.game}/{card.set_code}/{_old_slug(card.name)}"


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=250))
def test_art_file_names_are_safe_for_any_name(name: str) -> None:
    part = file_slug(name)
    assert "/" not in part and "\\" not in part and "." not in part and "\0" not in part
    assert len(part.encode()) <= SLUG_FILE_BYTES
    root = Path("/tmp/card_images")
    assert expected_path(root, "mea", name).parent == root / "mea"


def test_long_names_get_distinct_file_names() -> None:
    a, b = "勇" * 199 + "者", "勇" * 199 + "王"
    assert file_slug(a) != file_slug(b)
    assert file_slug("Crumb Goblin") == "crumb-goblin"


# --- the schema 3 migration ------------------------------------------------------------------


def _downgrade(url: str, moves: dict[str, str]) -> None:
    """Make a current database look as schema 2 made it: ``moves`` maps new ids to old ids, the short
    ids go back to 31 bits and the columns of later steps go (schema 6's ``deck.version``)."""
    from cardbase.db.catalog import _search_names

    engine = create_engine(database_url(url))
    with engine.begin() as conn:
        if conn.dialect.name == "sqlite":
            conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
        else:
            conn.exec_driver_sql("SET session_replication_role = replica")
        for new, old in moves.items():
            conn.execute(text("UPDATE card SET id = :old WHERE id = :new"), {"old": old, "new": new})
            for table in ("card_alias", "card_image", "deck_card"):
                conn.execute(text(f"UPDATE {table} SET card_id = :old WHERE card_id = :new"), {"old": old, "new": new})
        conn.execute(text("UPDATE card SET short_id = -1 - short_id"))  # schema 2's short ids: 31 bits
        for (cid,) in conn.execute(text("SELECT id FROM card")).all():
            conn.execute(
                text("UPDATE card SET short_id = :sid WHERE id = :id"), {"sid": legacy_short_id(cid), "id": cid}
            )
        conn.execute(text("UPDATE card SET search_names = 'stale'"))
        conn.execute(text("ALTER TABLE deck DROP COLUMN version"))
        conn.execute(text("UPDATE meta SET value = '2' WHERE key = 'schema_version'"))
    engine.dispose()
    del _search_names


def test_the_migration_moves_every_changed_id_with_its_aliases_art_and_deck_entries(
    loaded_db: str, tmp_path: Path
) -> None:
    path = _csv(tmp_path, ["Ørn,monster,Eagle", "Crumb Goblin X,monster,"], header="name,type,aliases")
    assert run_cli(["catalog", "import", path, "--game", "mea"], loaded_db).exit_code == 0
    assert (
        run_cli(["catalog", "import", _csv(tmp_path, ["勇者,character"]), "--game", "meikyu"], loaded_db).exit_code == 0
    )
    for args in (
        ["deck", "new", "D", "--game", "mea"],
        ["deck", "add", "D", "Ørn", "-n", "2"],
        ["deck", "add", "D", "Crumb Goblin X"],
    ):
        assert run_cli(args, loaded_db).exit_code == 0
    engine = create_engine(database_url(loaded_db))
    with engine.begin() as conn:
        conn.execute(
            text("INSERT INTO card_image (card_id, path, sha256) VALUES ('mea/core/ørn', 'mea/orn.png', :d)"),
            {"d": "0" * 64},
        )
    engine.dispose()
    _downgrade(loaded_db, {"mea/core/ørn": "mea/core/rn", "meikyu/core/勇者": "meikyu/core/"})

    database = open_database(loaded_db)
    with database.session() as session:
        ids = set(session.scalars(select(Card.id)))
        assert {"mea/core/ørn", "meikyu/core/勇者", "mea/core/crumb-goblin-x"} <= ids
        assert not {"mea/core/rn", "meikyu/core/"} & ids
        for card in session.scalars(select(Card)):
            assert card.id == card_id(card.game, card.set_code, card.name)
            assert card.search_names != "stale"
        assert session.get(Card, "mea/core/ørn").short_id == short_id("mea/core/ørn")
        assert set(session.scalars(select(CardAlias.card_id).where(CardAlias.alias == "Eagle"))) == {"mea/core/ørn"}
        deck = {r.card_id: r.count for r in session.scalars(select(DeckCardRow))}
        assert deck == {"mea/core/ørn": 2, "mea/core/crumb-goblin-x": 1}
        version = session.execute(text("SELECT value FROM meta WHERE key = 'schema_version'")).scalar_one()
    assert version == str(SCHEMA_VERSION)  # upgraded through every step since 2
    database.engine.dispose()
    code = run_cli(["deck", "export", "D", "--format", "code"], loaded_db)
    assert code.exit_code == 0, code.stderr
    decoded = run_cli(["deck", "decode", code.stdout.strip()], loaded_db)
    assert "2 Ørn (core)" in decoded.stdout
    assert run_cli(["cards", "search", "eagle", "--game", "mea", "--json"], loaded_db).stdout.count('"Ørn"') == 1


def test_a_migration_that_would_give_two_cards_one_id_changes_nothing(loaded_db: str, tmp_path: Path) -> None:
    assert run_cli(["catalog", "import", _csv(tmp_path, ["Ørn,monster"]), "--game", "mea"], loaded_db).exit_code == 0
    _downgrade(loaded_db, {"mea/core/ørn": "mea/core/rn"})
    engine = create_engine(database_url(loaded_db))
    with engine.begin() as conn:  # a second, unchanged card already holding the new id (a damaged database)
        conn.execute(
            text(
                "INSERT INTO card (id, short_id, game, set_code, name, search_names, type, source, unknown)"
                " VALUES ('mea/core/ørn', 7, 'mea', 'core', 'ørn', '|ørn|', 'monster', 'x', '')"
            )
        )
    engine.dispose()
    before = db_dump(loaded_db)
    result = run_cli(["catalog", "status"], loaded_db)
    assert_refused(result, 2, contains="cannot upgrade")
    assert db_dump(loaded_db) == before


@pytest.mark.parametrize(
    ("old", "new"),
    [("my_set", "my-set"), ("../../../escaped", "escaped"), ("a.b", "a-b"), ("__", "set"), ("Big Set", "big-set")],
)
def test_the_migration_makes_old_set_codes_legal_and_moves_their_cards(
    loaded_db: str, tmp_path: Path, old: str, new: str
) -> None:
    path = _csv(tmp_path, ["Set Mover,monster,legal"], header="name,type,set")
    assert run_cli(["catalog", "import", path, "--game", "mea"], loaded_db).exit_code == 0
    assert run_cli(["deck", "new", "S", "--game", "mea"], loaded_db).exit_code == 0
    assert run_cli(["deck", "add", "S", "Set Mover", "-n", "2"], loaded_db).exit_code == 0
    engine = create_engine(database_url(loaded_db))
    with engine.begin() as conn:  # as an import before the set-code rule left it
        if conn.dialect.name == "sqlite":
            conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
        else:
            conn.exec_driver_sql("SET session_replication_role = replica")
        old_id = f"mea/{old}/set-mover"
        conn.execute(text("UPDATE card_set SET code = :c WHERE code = 'legal'"), {"c": old})
        conn.execute(
            text("UPDATE card SET set_code = :c, id = :i, short_id = :s WHERE id = 'mea/legal/set-mover'"),
            {"c": old, "i": old_id, "s": short_id(old_id)},
        )
        conn.execute(text("UPDATE deck_card SET card_id = :i WHERE card_id = 'mea/legal/set-mover'"), {"i": old_id})
        conn.execute(text("ALTER TABLE deck DROP COLUMN version"))  # schema 6's
        conn.execute(text("UPDATE meta SET value = '2' WHERE key = 'schema_version'"))
    engine.dispose()
    shown = run_cli(["deck", "export", "S"], loaded_db)
    assert shown.exit_code == 0, shown.stderr
    assert f"2 Set Mover ({new})" in shown.stdout
    deck = tmp_path / "s.txt"
    deck.write_text(shown.stdout, encoding="utf-8")
    read_back = run_cli(["deck", "convert", deck, "--to", "json"], loaded_db)  # every line must resolve
    assert read_back.exit_code == 0, read_back.stderr
    assert f'"id": "mea/{new}/set-mover"' in read_back.stdout


def test_the_migration_refuses_two_set_codes_that_would_become_one(loaded_db: str, tmp_path: Path) -> None:
    path = _csv(tmp_path, ["Set Mover,monster,my-set"], header="name,type,set")
    assert run_cli(["catalog", "import", path, "--game", "mea"], loaded_db).exit_code == 0
    engine = create_engine(database_url(loaded_db))
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO card_set (game, code, source) VALUES ('mea', 'my_set', 'file:x')"))
        conn.execute(text("UPDATE meta SET value = '2' WHERE key = 'schema_version'"))
    engine.dispose()
    before = db_dump(loaded_db)
    assert_refused(run_cli(["catalog", "status"], loaded_db), 2, contains="would become 'my-set'")
    assert db_dump(loaded_db) == before


def test_art_is_found_for_a_name_in_any_script(tmp_path: Path) -> None:
    from cardbase.render.art import find_art

    for name in ("勇者", "Ørn", "नमस्ते", "勇" * 150):
        art = tmp_path / "card_images" / "meikyu" / f"{file_slug(name)}.png"
        art.parent.mkdir(parents=True, exist_ok=True)
        art.write_bytes(b"png")
        assert find_art(tmp_path / "card_images", "meikyu", name) == art.resolve()


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=40))
def test_the_ascii_short_cuts_give_what_the_rule_gives(text: str) -> None:
    """``fold``, ``slug`` and ``name_problem`` skip the per-character rule for ASCII text (a
    200,000-row import folds every name): the result must be the rule's, controls included."""
    from cardbase.names import _fold_any, _slug_of_folded, name_problem

    assert fold(text) == _fold_any(text)
    assert slug(text) == _slug_of_folded(_fold_any(text))
    control = next((c for c in text if ord(c) < 32 or ord(c) == 127), None)
    problem = name_problem(text)
    assert (problem is not None and "control character" in problem) == (control is not None)
