"""Decks by database id: deck_by_id, rename, duplicate, set_count (one transaction each; on SQLite and PostgreSQL)."""

from __future__ import annotations

import threading

import pytest

from cardbase.db.engine import Database
from cardbase.db.queries import find_card
from cardbase.decks.store import (
    UnknownDeck,
    add_card,
    deck_by_id,
    duplicate_deck,
    load_deck,
    new_deck,
    remove_card,
    rename_deck,
    set_count,
    update_deck,
)
from cardbase.errors import Conflict, UsageError


def _card(database: Database, name: str, game: str = "mea"):  # type: ignore[no-untyped-def]
    with database.session() as session:
        return find_card(session, name, game)


def test_new_deck_returns_its_id_and_deck_by_id_reads_it(database: Database) -> None:
    deck_id = new_deck(database, "Rush", "mea")
    add_card(database, deck_id, _card(database, "Crumb Goblin"), 3)
    info = deck_by_id(database, deck_id)
    assert (info.id, info.name, info.game, info.format, info.players, info.cards) == (
        deck_id,
        "Rush",
        "mea",
        None,
        None,
        3,
    )
    assert info.as_dict()["updated"] == info.updated != ""
    with pytest.raises(UnknownDeck, match="no deck with id 999999"):
        deck_by_id(database, 999_999)


def test_rename_keeps_cards_and_refuses_a_taken_name(database: Database) -> None:
    a = new_deck(database, "A", "mea")
    new_deck(database, "B", "mea")
    add_card(database, a, _card(database, "Crumb Goblin"), 2)
    assert rename_deck(database, a, "A2").name == "A2"
    assert load_deck(database, "A2").size == 2
    with pytest.raises(Conflict, match="a deck named 'B' already exists"):
        rename_deck(database, a, "B")
    with pytest.raises(UsageError, match="1 to 200 characters"):
        rename_deck(database, a, " ")
    assert deck_by_id(database, a).name == "A2"


def test_update_deck_keeps_a_format_the_game_has(database: Database) -> None:
    from cardbase.decks.formats import load_house_formats
    from tests.conftest import REPO

    deck = new_deck(database, "Hand", "meio", "hand-3-players", players=3)
    assert deck_by_id(database, deck).format == "hand-3-players"
    assert update_deck(database, deck, fmt="3-Players").format == "3-players"  # stored as the format's name
    with pytest.raises(UsageError, match="meio has no format 'bogus'; formats are 2-players, hand-2-players"):
        update_deck(database, deck, fmt="bogus")
    with pytest.raises(UsageError, match="mea has no format 'bogus'"):
        new_deck(database, "Bad", "mea", "bogus")
    assert deck_by_id(database, deck).format == "3-players"
    assert update_deck(database, deck, fmt=None).format is None  # back to the game's default for the deck
    house = load_house_formats(REPO / "examples/formats/house.toml")
    mea = new_deck(database, "Single", "mea", "highlander", house=house)
    with pytest.raises(UsageError, match="no format 'highlander'"):
        update_deck(database, mea, fmt="highlander")  # without the house file it is no format
    assert deck_by_id(database, mea).format == "highlander"


def test_update_deck_is_one_transaction(database: Database) -> None:
    a = new_deck(database, "A", "meio")
    new_deck(database, "B", "meio")
    with pytest.raises(Conflict):
        update_deck(database, a, name="B", fmt="4-players")
    info = deck_by_id(database, a)
    assert (info.name, info.format) == ("A", None), "a refused rename leaves the format as it was"
    both = update_deck(database, a, name="A2", fmt="4-players")
    assert (both.name, both.format) == ("A2", "4-players")
    assert update_deck(database, a).updated == both.updated  # nothing to change: not even the time


def test_duplicate_copies_every_section_in_order(database: Database) -> None:
    src = new_deck(database, "Src", "mea")
    add_card(database, src, _card(database, "Crumb Goblin"), 3)
    add_card(database, src, _card(database, "Selounticia"), 1, "sideboard")
    first = duplicate_deck(database, src)
    second = duplicate_deck(database, src)
    named = duplicate_deck(database, src, "Mine")
    assert (first.name, second.name, named.name) == ("Src (copy)", "Src (copy 2)", "Mine")
    assert load_deck(database, first.id).cards == load_deck(database, src).cards
    assert first.cards == 4 and len({src, first.id, second.id, named.id}) == 4
    with pytest.raises(Conflict):
        duplicate_deck(database, src, "Src")


def test_set_count_sets_removes_and_checks_its_bounds(database: Database) -> None:
    deck = new_deck(database, "S", "mea")
    goblin = _card(database, "Crumb Goblin")
    assert set_count(database, deck, goblin, 4) == 4
    assert set_count(database, deck, goblin, 2) == 2
    assert set_count(database, deck, goblin, 1, "maybe") == 1
    assert [(c.count, c.section) for c in load_deck(database, deck).cards] == [(2, None), (1, "maybe")]
    assert set_count(database, deck, goblin, 0) == 0
    assert [(c.count, c.section) for c in load_deck(database, deck).cards] == [(1, "maybe")]
    for bad in (-1, 1000):
        with pytest.raises(UsageError, match="count must be 0 to 999"):
            set_count(database, deck, goblin, bad)
    with pytest.raises(UsageError, match="mea decks have the sections"):
        set_count(database, deck, goblin, 1, "first half")
    with pytest.raises(UsageError, match="is a meikyu card, not mea, the game of deck 'S'"):
        set_count(database, deck, _card(database, "Grimoire", "meikyu"), 1)
    with pytest.raises(UsageError, match="is a meikyu card"):
        add_card(database, deck, _card(database, "Grimoire", "meikyu"), 1)
    assert load_deck(database, deck).size == 1


def test_remove_by_id(database: Database) -> None:
    deck = new_deck(database, "R", "mea")
    goblin = _card(database, "Crumb Goblin")
    add_card(database, deck, goblin, 3)
    assert remove_card(database, deck, goblin, 1) == 2
    assert remove_card(database, deck, goblin) == 0
    with pytest.raises(UsageError, match="is not in deck 'R'"):
        remove_card(database, deck, goblin)


def test_threads_adding_and_setting_at_once_lose_nothing(database: Database) -> None:
    shared = new_deck(database, "Shared", "mea")
    goblin = _card(database, "Crumb Goblin")
    vial = _card(database, "Selounticia")
    errors: list[BaseException] = []

    def work(i: int) -> None:
        try:
            for _ in range(10):
                add_card(database, shared, goblin, 1)
                set_count(database, shared, vial, i + 1, "sideboard")
        except BaseException as error:  # reported by the assertion below
            errors.append(error)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    counts = {(c.name, c.section): c.count for c in load_deck(database, shared).cards}
    assert counts[("Crumb Goblin", None)] == 80
    assert 1 <= counts[("Selounticia", "sideboard")] <= 8
