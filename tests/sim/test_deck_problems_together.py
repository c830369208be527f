"""The play form and the lab list up to 50 saved decks a page view, each marked with why a table would
refuse it: each deck was loaded alone (about 8 queries a deck: 435 for a lab form over 50 decks).
``stored_deck_problems`` reads them together, in a few queries whatever their number, and says of each
deck what ``deck_problems`` says of it alone."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import event

from cardbase.db.engine import Database
from cardbase.db.queries import find_card
from cardbase.decks.service import import_deck, read_deck_data
from cardbase.decks.store import add_card, new_deck, tag_entries
from cardbase.errors import DatabaseBusy
from cardbase.sim.table_setup import EXAMPLES, DeckChoice, deck_problems, stored_deck_problems

RUSH = (EXAMPLES / "mea-goblin-rush.txt").read_text(encoding="utf-8")


@contextmanager
def statements(database: Database) -> Iterator[list[str]]:
    seen: list[str] = []

    def count(conn: object, cursor: object, statement: str, *rest: object) -> None:
        seen.append(statement)

    event.listen(database.engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        event.remove(database.engine, "before_cursor_execute", count)


def _decks(database: Database, copies: int) -> list[int]:
    """Valid and refused decks of every kind a table refuses: too few cards, a tile, another game's, empty."""
    ids = [import_deck(database, read_deck_data(RUSH, "rush"), name=f"rush {i}")[0] for i in range(copies)]
    short = import_deck(database, read_deck_data("\n".join(RUSH.splitlines()[:8]), "short"), name="short")[0]
    with database.session() as session:
        tile, meio = find_card(session, "Blue Tile", "mea"), find_card(session, "Ace of Spades", "meio")
    tiled = import_deck(database, read_deck_data(RUSH, "tiled"), name="tiled")[0]
    add_card(database, tiled, tile, 1)
    other = new_deck(database, "a meio deck", "meio")
    add_card(database, other, meio, 1)
    empty = new_deck(database, "empty", "mea")
    return [*ids, short, tiled, other, empty, 999_999]  # and one no deck has


def test_decks_read_together_have_the_problems_each_has_alone(database: Database) -> None:
    ids = _decks(database, 2)
    with database.session() as session:
        goblin = find_card(session, "Crumb Goblin", "mea")
    tag_entries(database, ids[0], goblin, add=["combo piece"])  # a tagged entry reads as any other
    together = stored_deck_problems(database, ids)
    alone = {i: deck_problems(database, DeckChoice(deck_id=i)) for i in ids}
    assert together == alone
    assert [i for i in ids if together[i]] == ids[2:] and all(not together[i] for i in ids[:2])


def test_the_queries_do_not_grow_with_the_decks(database: Database) -> None:
    few = _decks(database, 3)
    with statements(database) as seen:
        stored_deck_problems(database, few[:-1])
    at_few = len(seen)
    many = few[:-1] + [import_deck(database, read_deck_data(RUSH, "more"), name=f"more {i}")[0] for i in range(20)]
    with statements(database) as seen:
        stored_deck_problems(database, many)
    assert len(seen) == at_few <= 12, seen


def test_a_database_that_fails_is_no_problem_of_the_decks(database: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """A database busy or unusable while the decks are checked is the database's answer (the page's 503),
    not a problem each deck is marked with (the forms offered every deck as refused: 'database is busy')."""
    import cardbase.sim.mea

    ids = _decks(database, 1)[:1]

    def busy(*args: object, **kwargs: object) -> None:
        raise DatabaseBusy("the database is busy (another program is writing); try again")

    monkeypatch.setattr(cardbase.sim.mea, "load_resolved", busy)
    with pytest.raises(DatabaseBusy):
        stored_deck_problems(database, ids)
    with pytest.raises(DatabaseBusy):
        deck_problems(database, DeckChoice(deck_id=ids[0]))
    with pytest.raises(DatabaseBusy):
        deck_problems(database, DeckChoice(example="mea-goblin-rush.txt"))
