"""Class 9 (names that look alike): two decks whose names show the same — ``Café`` composed (NFC)
and decomposed (``Cafe`` + U+0301, NFD), ``Café`` and ``Café `` (a space after), ``My  Deck`` and
``My Deck``, ``Deck`` and full-width ``Ｄｅｃｋ``, ``AB`` and ``A<U+200D>B`` (a joiner between Latin
letters, which joins nothing) — were two decks that ``deck list`` showed alike and that a name typed
the other way could not reach. The rule (``cardbase.names.deck_name`` and ``deck_name_key``): a deck
name is kept composed (NFC), its spaces collapsed and trimmed; two names with one key (NFKC: width
and compatibility forms, composed or not, spaces, joiners between Latin letters) are one name — a
second deck of it is refused naming the first, and a name typed in either form finds the deck.

Generated over every way a deck name enters (``new_deck``, ``update_deck``, ``duplicate_deck``,
``save_deck``, and so the CLI, the pages and the API, which call them), and over every look-alike.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from cardbase.db.engine import open_database
from cardbase.errors import CardbaseError, Conflict
from tests.hostile.conftest import assert_refused, db_dump, run_cli

PAIRS = {
    "nfc-nfd": ("Café", "Cafe\u0301"),
    "trailing-space": ("Café", "Café "),
    "inner-spaces": ("My Deck", "My  Deck"),
    "full-width": ("Deck", "Ｄｅｃｋ"),
    "latin-joiner": ("AB", "A\u200dB"),
    "ligature": ("fire", "ﬁre"),
}


def _entries(database: Any) -> dict[str, Callable[[str], Any]]:
    """Each way a name is given to a deck, taking the name (a deck 'Other' exists to rename and copy)."""
    from cardbase.decks.model import Deck
    from cardbase.decks.store import duplicate_deck, new_deck, save_deck, update_deck

    return {
        "new": lambda name: new_deck(database, name, "mea"),
        "rename": lambda name: update_deck(database, "Other", name=name),
        "duplicate": lambda name: duplicate_deck(database, "Other", name),
        "import": lambda name: save_deck(database, Deck(game="mea", cards=()), name),
    }


@pytest.mark.parametrize("entry", ["new", "rename", "duplicate", "import"])
@pytest.mark.parametrize("pair", sorted(PAIRS))
def test_a_second_deck_named_like_the_first_is_refused(pair: str, entry: str, hostile_db: str) -> None:
    from cardbase.decks.store import list_decks, new_deck

    first, second = PAIRS[pair]
    database = open_database(hostile_db)
    try:
        new_deck(database, first, "mea")
        new_deck(database, "Other", "mea")
        before = db_dump(hostile_db)
        with pytest.raises(CardbaseError) as refused:
            _entries(database)[entry](second)
        said = str(refused.value)
        if pair == "latin-joiner":  # refused before any deck is looked at: the joiner joins nothing
            assert "U+200D" in said, said
        else:
            assert isinstance(refused.value, Conflict) and f"'{first}'" in said, said
        assert db_dump(hostile_db) == before
        assert sorted(d["name"] for d in list_decks(database)) == sorted([first, "Other"])
    finally:
        database.engine.dispose()


@pytest.mark.parametrize("pair", sorted(PAIRS))
def test_a_deck_is_found_by_its_name_typed_either_way(pair: str, hostile_db: str) -> None:
    first, second = PAIRS[pair]
    assert run_cli(["deck", "new", first, "--game", "mea"], hostile_db).exit_code == 0
    shown = run_cli(["deck", "show", second], hostile_db)
    assert shown.exit_code in (0, 1), shown.stderr  # 1: an empty deck is invalid
    assert f"name: {first}" in shown.stdout, shown.stdout
    assert run_cli(["deck", "add", second, "Crumb Goblin"], hostile_db).exit_code == 0
    if pair != "latin-joiner":
        renamed = run_cli(["deck", "set", second, "--name", second], hostile_db)
        assert renamed.exit_code == 0, renamed.stderr  # its own name: no clash


@pytest.mark.parametrize("name", ["Cafe\u0301", "  Café  ", "My \u00a0 Deck"])
def test_a_deck_name_is_kept_composed_with_its_spaces_collapsed(name: str, hostile_db: str) -> None:
    import unicodedata

    from cardbase.decks.store import deck_info, new_deck

    database = open_database(hostile_db)
    try:
        stored = deck_info(database, new_deck(database, name, "mea")).name
        assert stored == unicodedata.normalize("NFC", " ".join(name.split())), repr(stored)
    finally:
        database.engine.dispose()


@pytest.mark.parametrize("name", ["\u200d", "\u0301", " \u200c ", "\u0301\u0302"])
def test_a_deck_name_with_nothing_to_see_is_refused(name: str, shared_db: str) -> None:
    before = db_dump(shared_db)
    assert_refused(run_cli(["deck", "new", name, "--game", "mea"], shared_db), 2, "deck name")
    assert db_dump(shared_db) == before


def test_a_joiner_between_latin_letters_is_refused_in_a_card_name(shared_db: str, tmp_path: Any) -> None:
    sheet = tmp_path / "cards.csv"
    sheet.write_text("name,type,cost,attack,defence\nZ\u200ded,monster,1,1,1\n", encoding="utf-8")
    before = db_dump(shared_db)
    assert_refused(run_cli(["catalog", "import", str(sheet), "--game", "mea"], shared_db), 1, "U+200D", "row 2")
    assert db_dump(shared_db) == before


def test_joiners_in_emoji_and_persian_stay_names() -> None:
    from cardbase.names import name_problem

    assert name_problem("می\u200cخواهم") is None
    assert name_problem("Team \U0001f468\u200d\U0001f469\u200d\U0001f467") is None
    assert name_problem("\u200dZed") is not None and name_problem("Zed\u200c") is not None


def test_an_error_is_a_cardbase_error() -> None:
    assert issubclass(Conflict, CardbaseError)


TAG_FORMS = {
    "nfd": ("café", "cafe\u0301"),
    "full-width": ("removal", "ｒｅｍｏｖａｌ"),
    "kana-nfd": ("ガード", "カ\u3099ード"),
}


@pytest.mark.parametrize("form", sorted(TAG_FORMS))
def test_a_tag_typed_another_way_is_the_same_tag(form: str, hostile_db: str) -> None:
    """Tags follow the rule too (``names.tag_name``: NFKC first): a decomposed accent was refused as a
    character a tag may not hold (quoting a lone mark), a full-width tag was a second tag beside the
    first, and neither was found by ``tag:`` in the other form."""
    kept, typed = TAG_FORMS[form]
    assert run_cli(["cards", "tag", "Crumb Goblin", kept], hostile_db).exit_code == 0
    tagged = run_cli(["cards", "tag", "Crumb Goblin", typed], hostile_db)
    assert tagged.exit_code == 0, tagged.stderr
    assert tagged.stdout.strip() == f"Crumb Goblin [demo]: {kept}", tagged.stdout  # a demo card, marked
    found = run_cli(["cards", "search", f"tag:{typed}", "--game", "mea", "--json"], hostile_db)
    assert found.exit_code == 0 and "Crumb Goblin" in found.stdout, found.stdout + found.stderr
    assert run_cli(["deck", "new", "T", "--game", "mea"], hostile_db).exit_code == 0
    assert run_cli(["deck", "add", "T", "Crumb Goblin"], hostile_db).exit_code == 0
    for tag in (kept, typed):
        entry = run_cli(["deck", "tag", "T", "Crumb Goblin", tag], hostile_db)
        assert entry.exit_code == 0, entry.stderr
    assert entry.stdout.count(kept) == 1 and typed not in entry.stdout.replace(kept, ""), entry.stdout


def test_an_old_database_with_two_look_alike_decks_reaches_each_by_its_exact_name(hostile_db: str) -> None:
    """A database from before the rule may hold two decks whose names look alike (``Cafe`` + U+0301 and
    ``Café``): a name given exactly as one of them is stored must reach that deck, never the other one
    (``deck import --replace`` replaced the older of the two, whichever name was typed)."""
    from sqlalchemy import text

    from cardbase.decks.model import Deck
    from cardbase.decks.store import deck_info, list_decks, new_deck, save_deck

    database = open_database(hostile_db)
    try:
        old = new_deck(database, "Old", "mea")
        new = new_deck(database, "Café", "mea")
        with database.transaction() as session:  # as a database from before the rule holds it
            session.execute(text("UPDATE deck SET name = :name WHERE id = :id"), {"name": "Cafe\u0301", "id": old})
        replaced = save_deck(database, Deck(game="mea", cards=()), "Café", replace=True)
        names = sorted(d["name"] for d in list_decks(database))
        assert names == sorted(["Cafe\u0301", "Café"]), names
        assert deck_info(database, old).name == "Cafe\u0301"  # the other deck is untouched
        assert replaced != old and new != old
    finally:
        database.engine.dispose()
    for name in ("Cafe\u0301", "Café"):  # each shown by its own name, as the README says
        shown = run_cli(["deck", "show", name, "--json"], hostile_db)
        assert f'"source": "db:{name}"' in shown.stdout, (ascii(name), ascii(shown.stdout[:80]), shown.stderr)
    renamed = run_cli(["deck", "set", "Cafe\u0301", "--name", "Café (old)"], hostile_db)
    assert renamed.exit_code == 0, renamed.stderr


def test_a_tag_stored_before_the_rule_is_taken_off_and_rewritten(hostile_db: str) -> None:
    """A database from before the rule may hold a tag in another form (full-width ``ｒｅｍｏｖａｌ``): typed
    either way it is read as ``removal``, so ``--remove`` took nothing off (exit 0, the tag still
    there). Taken off, or any retag, writes the card's tags in the rule's form."""
    from sqlalchemy import text

    assert run_cli(["cards", "tag", "Crumb Goblin", "removal", "draw"], hostile_db).exit_code == 0
    assert run_cli(["deck", "new", "T", "--game", "mea"], hostile_db).exit_code == 0
    assert run_cli(["deck", "add", "T", "Crumb Goblin"], hostile_db).exit_code == 0
    assert run_cli(["deck", "tag", "T", "Crumb Goblin", "removal", "draw"], hostile_db).exit_code == 0
    database = open_database(hostile_db)
    try:
        with database.transaction() as session:  # as a database from before the rule holds them
            for table in ("card_tag", "deck_card_tag"):
                session.execute(text(f"UPDATE {table} SET tag = :old WHERE tag = 'removal'"), {"old": "ｒｅｍｏｖａｌ"})
    finally:
        database.engine.dispose()
    for typed in ("ｒｅｍｏｖａｌ", "removal"):
        old_tagged = run_cli(["cards", "tag", "Crumb Goblin", "--remove", typed], hostile_db)
        assert old_tagged.stdout.strip() == "Crumb Goblin [demo]: draw", (typed, old_tagged.stdout, old_tagged.stderr)
        assert run_cli(["cards", "tag", "Crumb Goblin", "ｒｅｍｏｖａｌ"], hostile_db).exit_code == 0
        entry = run_cli(["deck", "tag", "T", "Crumb Goblin", "--remove", typed], hostile_db)
        said = entry.stdout + entry.stderr
        assert "removal" not in entry.stdout and "ｒｅｍｏｖａｌ" not in entry.stdout, (typed, said)
        assert run_cli(["deck", "tag", "T", "Crumb Goblin", "removal"], hostile_db).exit_code == 0
