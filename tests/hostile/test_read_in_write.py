"""A write trusts only what it read in its own transaction: another writer's change made between a
read and the write that depends on it is seen, not overwritten or tripped over.

Each test forces the interleaving: ``between`` runs another writer's change (on its own database handle)
just before the write's transaction begins, where a read made before the transaction is already stale.
On SQLite and on PostgreSQL (``CARDBASE_TEST_POSTGRES``) alike.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from sqlalchemy import delete, select
from sqlmodel import SQLModel

from cardbase.db import edit
from cardbase.db.engine import Database, open_database
from cardbase.db.models import Card, DeckCardRow
from cardbase.decks import store
from cardbase.decks.model import Deck, DeckCard
from cardbase.errors import InvalidData, UnknownCard, UsageError


@pytest.fixture
def other(db_url: str) -> Iterator[Database]:
    """A second handle on the test's database: another process's writer."""
    handle = open_database(db_url)
    yield handle
    handle.engine.dispose()


def between(monkeypatch: pytest.MonkeyPatch, change: Callable[[], Any]) -> None:
    """Run ``change`` once, just before the next write transaction begins (after the reads before it)."""
    real = Database.transaction
    pending = [change]

    def transaction(self: Database, **options: Any) -> AbstractContextManager[Any]:
        if pending:
            pending.pop()()
        return real(self, **options)

    monkeypatch.setattr(Database, "transaction", transaction)


def _user_card(database: Database, name: str) -> Card:
    """A card made in cardbase (Méa, demo set): one a test may delete."""
    made = edit.add_card(database, "mea", {"name": name, "type": "monster", "cost": "1"}, "test")
    with database.session() as session:
        card = session.get(Card, made.id)
        assert card is not None
        session.expunge(card)
        return card


def _delete_card(database: Database, card_id: str) -> None:
    """Delete a card and every row that names it, in one transaction."""
    with database.transaction() as session:
        for table in reversed(SQLModel.metadata.sorted_tables):
            if table.name != "card" and "card_id" in table.c:
                session.execute(delete(table).where(table.c.card_id == card_id))
        session.execute(delete(Card).where(Card.id == card_id))  # type: ignore[arg-type]


def _mea_cards(database: Database, n: int) -> list[Card]:
    with database.session() as session:
        cards = list(session.scalars(select(Card).where(Card.game == "mea").order_by(Card.id).limit(n)))
        for card in cards:
            session.expunge(card)
        return cards


def _cards_of(database: Database, deck_id: int) -> dict[str, int]:
    with database.session() as session:
        rows = session.execute(
            select(DeckCardRow.card_id, DeckCardRow.count).where(DeckCardRow.deck_id == deck_id)
        ).all()
    return {cid: n for cid, n in rows}


def test_restore_by_name_puts_back_the_version_of_the_deck_that_has_the_name_now(
    database: Database, other: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``deck restore Rush 2`` while deck Rush is renamed and a new Rush made: the new Rush gets its own
    version 2, not the old deck's (read before the transaction, it was)."""
    x, y, z = _mea_cards(database, 3)
    first = store.new_deck(database, "Rush", "mea")
    store.add_card(database, first, x, 2)  # the first Rush, version 2: two of x

    def renamed_and_another_made() -> None:
        store.rename_deck(other, first, "Old Rush")
        second = store.new_deck(other, "Rush", "mea")
        store.add_card(other, second, y, 3)  # the new Rush, version 2: three of y
        store.add_card(other, second, z, 1)  # version 3

    between(monkeypatch, renamed_and_another_made)
    deck_id, made = store.restore_version(database, "Rush", 2)
    assert deck_id != first and made == 4
    assert _cards_of(database, deck_id) == {y.id: 3}
    assert _cards_of(database, first) == {x.id: 2}  # the renamed deck is as it was


def test_a_collection_import_of_a_card_deleted_after_the_read_is_refused_naming_its_line(
    database: Database, other: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardbase.db.collection import collection_cards, import_collection_text

    gone = _user_card(database, "Fleeting Newt")
    kept = _mea_cards(database, 1)[0]
    between(monkeypatch, lambda: _delete_card(other, gone.id))
    with pytest.raises(InvalidData) as refused:
        import_collection_text(database, f"2 {kept.name} ({kept.set_code})\n3 Fleeting Newt\n", "mea")
    assert refused.value.problems == [
        f"line 2: the card {gone.id} is no longer in the catalog (deleted after the list was read)"
    ]
    assert collection_cards(database) == []  # nothing written


def test_a_collection_file_names_the_row_of_a_card_deleted_after_the_read(
    database: Database, other: Database, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from cardbase.db.collection import import_collection

    gone = _user_card(database, "Fleeting Newt")
    path = tmp_path / "owned.csv"
    path.write_text("name,count\nFleeting Newt,2\n", encoding="utf-8")
    between(monkeypatch, lambda: _delete_card(other, gone.id))
    with pytest.raises(InvalidData) as refused:
        import_collection(database, path, "mea", add=True)
    assert len(refused.value.problems) == 1
    assert refused.value.problems[0].startswith(f"row 2: the card {gone.id} is no longer in the catalog")


def test_owning_a_card_deleted_after_it_was_read_is_an_unknown_card(
    database: Database, other: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardbase.db.collection import change_owned, collection_cards

    gone = _user_card(database, "Fleeting Newt")
    between(monkeypatch, lambda: _delete_card(other, gone.id))
    with pytest.raises(UnknownCard, match="Fleeting Newt"):
        change_owned(database, gone, 2)
    assert collection_cards(database) == []


def test_adding_a_card_deleted_after_it_was_read_to_a_deck_is_an_unknown_card(
    database: Database, other: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    deck = store.new_deck(database, "Rush", "mea")
    gone = _user_card(database, "Fleeting Newt")
    between(monkeypatch, lambda: _delete_card(other, gone.id))
    with pytest.raises(UnknownCard):
        store.add_card(database, deck, gone, 2)
    assert _cards_of(database, deck) == {}
    assert store.deck_info(database, deck).version == 1  # no version recorded


def _png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (40, 56), (200, 30, 30)).save(out, "PNG")
    return out.getvalue()


def test_art_for_a_card_deleted_after_it_was_read_is_an_unknown_card_and_no_file(
    database: Database, other: Database, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from cardbase.web.pages_owners import store_art

    gone = _user_card(database, "Fleeting Newt")
    between(monkeypatch, lambda: _delete_card(other, gone.id))
    with pytest.raises(UnknownCard):
        store_art(database, tmp_path / "images", gone.id, _png(), "test")
    assert [p for p in (tmp_path / "images").rglob("*") if p.is_file()] == []


def test_art_for_a_card_renamed_after_it_was_read_is_named_by_its_name_now(
    database: Database, other: Database, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from cardbase.web.pages_owners import store_art

    card = _user_card(database, "Fleeting Newt")
    between(monkeypatch, lambda: edit.edit_card(other, card.id, {"name": "Lasting Newt"}, "test"))
    stored = store_art(database, tmp_path / "images", card.id, _png(), "test")
    assert stored["path"] == "mea/lasting-newt.png"
    assert [p.name for p in (tmp_path / "images").rglob("*") if p.is_file()] == ["lasting-newt.png"]


def test_a_catalog_import_checks_the_cards_as_the_write_finds_them(
    database: Database, other: Database, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Two rows: a known card, and a new one. Given the new one's name as an alias between the check and
    the write, both rows would match the known card and the second overwrite the first unseen: the
    check is made in the write, and names both rows."""
    from cardbase.db.io import import_catalog

    card = _user_card(database, "Fleeting Newt")
    path = tmp_path / "cards.csv"
    path.write_text(
        f"name,type,set,cost\nFleeting Newt,monster,{card.set_code},3\nNewt Prime,monster,{card.set_code},4\n",
        encoding="utf-8",
    )
    between(monkeypatch, lambda: edit.edit_card(other, card.id, {"aliases": "Newt Prime"}, "test"))
    with pytest.raises(InvalidData) as refused:
        import_catalog(database, path, "mea")
    assert len(refused.value.problems) == 1
    assert refused.value.problems[0].startswith("row 3, column 'name': 'Newt Prime' and 'Fleeting Newt'")
    with database.session() as session:
        assert session.scalars(select(Card.cost).where(Card.id == card.id)).one() == 1  # nothing written


def _deck_of(*cards: Card) -> Deck:
    return Deck("mea", tuple(DeckCard(c.id, c.name, 2) for c in cards))


def test_saving_a_deck_of_a_card_deleted_after_the_list_was_read_names_the_card(
    database: Database, other: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """It was "a deck named 'Rush' already exists" (the foreign-key error read as a name taken)."""
    kept = _mea_cards(database, 1)[0]
    gone = _user_card(database, "Fleeting Newt")
    between(monkeypatch, lambda: _delete_card(other, gone.id))
    with pytest.raises(UsageError) as refused:
        store.save_deck(database, _deck_of(kept, gone), "Rush")
    assert str(refused.value) == (f"deck 'Rush' names cards the catalog no longer has: 'Fleeting Newt' ({gone.id})")
    assert store.list_decks(database) == []


def test_replacing_a_decks_cards_with_a_card_deleted_after_the_list_was_read_names_the_card(
    database: Database, other: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    kept = _mea_cards(database, 1)[0]
    deck = store.new_deck(database, "Rush", "mea")
    gone = _user_card(database, "Fleeting Newt")
    between(monkeypatch, lambda: _delete_card(other, gone.id))
    with pytest.raises(UsageError, match=r"the list names cards the catalog no longer has: 'Fleeting Newt'"):
        store.replace_cards(database, deck, _deck_of(kept, gone))
    assert _cards_of(database, deck) == {}
    assert store.deck_info(database, deck).version == 1


def test_a_tag_added_to_a_card_after_its_tags_were_read_is_kept(
    database: Database, other: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``cards tag``/the tag form adds a tag to the tags it read: another writer's tag added between that
    read and the write was overwritten (the card's tags written whole from the stale list)."""
    from cardbase.db.tags import card_tags

    cid = "mea/demo/crumb-goblin"
    between(monkeypatch, lambda: edit.retag_card(other, cid, ["removal"], [], "other"))
    assert edit.retag_card(database, cid, ["combo"], [], "test") == ["combo", "removal"]
    with database.read() as conn:
        assert sorted(card_tags(conn, [cid])[cid]) == ["combo", "removal"]
