"""An edit's panels are made from what the version before read (issue 30): its cards, its history listing and
whether the collection is empty are not read again (``pages_decks.DeckReads``). After every edit of a seeded
run of random edits, among writes by another handle (the catalog, the collection, card tags, the deck's
name) and with a short history (its oldest versions dropped), the panels the edit made are those a fresh
computation makes, byte for byte, and so is its answer's."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

import pytest
from fastapi.testclient import TestClient

from cardbase.db.engine import Database, open_database
from cardbase.decks.history import Recorded, Version, listed_after
from cardbase.web.app import create_app
from cardbase.web.settings import ServerSettings
from tests.web.test_deck_views import panel, version_of
from tests.web.test_pages import make_deck, monsters, search_ids


@pytest.fixture
def other(db_url: str, database: Database) -> Iterator[Database]:
    """A second handle on the test's database: a writer the server's process does not see."""
    handle = open_database(db_url)
    yield handle
    handle.engine.dispose()


def forget(web: TestClient) -> None:
    """Drop everything the app keeps (pages, panels, entries, reads): what it shows next is made afresh."""
    for name in ("deck_pages", "deck_entries", "deck_reads"):
        kept = getattr(web.app.state, name, None)  # type: ignore[attr-defined]
        if kept is not None:
            kept.clear()


def another_write(rng: random.Random, other: Database, deck: int, cards: list[str], step: int) -> None:
    """A write by another handle: the catalog, the collection, card tags or the deck's name."""
    from cardbase.db.collection import change_owned
    from cardbase.db.edit import edit_card
    from cardbase.db.models import Card
    from cardbase.decks.store import rename_deck

    card_id = rng.choice(cards)
    kind = rng.choice(["cost", "owned", "tag", "rename"])
    if kind == "cost":
        edit_card(other, card_id, {"cost": str(rng.randint(0, 9))}, "tester")
    elif kind == "tag":
        edit_card(other, card_id, {"tags": rng.choice(["teamwork", "", "rush"])}, "tester")
    elif kind == "owned":
        with other.session() as session:
            card = session.get(Card, card_id)
        assert card is not None
        change_owned(other, card, rng.randint(1, 3))
    else:
        rename_deck(other, deck, f"Rush {step}")


@pytest.mark.parametrize("seed,history", [(1, 1_000), (2, 4), (3, 12)])
def test_an_edits_panels_are_what_a_fresh_computation_makes(
    database: Database, other: Database, seed: int, history: int
) -> None:
    rng = random.Random(seed)
    settings = ServerSettings(database=replace(database, deck_history=history))
    with TestClient(create_app(settings), base_url=settings.base_url) as web:
        deck = make_deck(web)
        cards = monsters(database, 6) + search_ids(database, "t:assist", "mea", 2)
        incremental, shown = 0, version_of(web.get(f"/decks/{deck}").text)
        for step in range(40):
            query = rng.choice(["", "?sort=count", "?layout=visual"])
            if rng.random() < 0.5:  # a page load; else the next edit is made from the last answer, as the script does
                shown = version_of(web.get(f"/decks/{deck}{query}").text)
            if rng.random() < 0.15:  # between the page (or the answer) and the edit
                another_write(rng, other, deck, cards, step)
            op = rng.choice(["add", "add", "inc", "dec", "set"])
            data = {"card": rng.choice(cards), "op": op, "section": rng.choice(["", "", "sideboard"])}
            data |= {"count": str(rng.randint(0, 3)), "fragment": "1", "version": str(shown)}
            before = len(web.app.state.deck_reads.items)  # type: ignore[attr-defined]
            answer = web.post(f"/decks/{deck}/cards{query}", data=data)
            if answer.status_code != 200:  # a removal of a card not there, or a deck renamed since: no change
                assert answer.status_code in (400, 412), answer.text
                shown = version_of(web.get(f"/decks/{deck}").text)
                continue
            incremental += len(web.app.state.deck_reads.items) > before  # type: ignore[attr-defined]
            shown = version_of(answer.text)
            panels_url = f"/decks/{deck}?fragment=panels" + (f"&{query[1:]}" if query else "")
            made = web.get(panels_url)  # the panels the edit made, kept for the next page load
            forget(web)
            fresh = web.get(panels_url)
            assert version_of(made.text) == version_of(fresh.text) == shown
            assert made.text == fresh.text, f"step {step}: {data}"
            for name in ("validation", "stats", "history", "share"):
                assert panel(answer.text, name) == panel(fresh.text, name), f"step {step}: {name}"
            if 'id="collection"' in fresh.text:
                assert panel(answer.text, "collection") == panel(fresh.text, "collection")
        assert incremental >= 20  # most edits made their panels from the version before's reads


def test_the_history_listing_after_an_edit() -> None:
    def listing(newest: int, oldest: int) -> list[Version]:
        return [Version(n, "at", "web", f"v{n}", n) for n in range(newest, oldest - 1, -1)][:10]

    new = Version(13, "at", "web", "v13", 13)
    assert listed_after(listing(12, 1), 12, Recorded(new, True, 0, 1_000), 10) == (listing(13, 1), 13)
    assert listed_after(listing(12, 8), 5, Recorded(new, True, 1, 5), 10) == (listing(13, 9), 5)
    assert listed_after(listing(12, 1), 12, Recorded(new, False, 0, 1_000), 10) is None  # not in a row
    assert listed_after(listing(11, 1), 11, Recorded(new, True, 0, 1_000), 10) is None  # not the version before
    assert listed_after([], 0, Recorded(new, True, 0, 1_000), 10) is None
