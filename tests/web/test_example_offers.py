"""The shipped example decks a player may pick: ``mea-broken.txt`` is broken on purpose (what ``deck
validate`` reports of a refused deck), yet an unknown example's refusal listed it among the known ones
("known: mea-broken.txt, mea-goblin-rush.txt, …"), the play form offered it (marked invalid) and the
lab hid it: the two forms offered different sets. Both now offer the examples to play, and only those."""

from __future__ import annotations

import html
import re

import pytest
from fastapi.testclient import TestClient

from cardbase.sim.table_setup import EXAMPLES, example_decks
from tests.web.test_lab import import_rush

TO_PLAY = ["mea-goblin-rush.txt", "mea-tile-control.txt"]


def _refusal(client: TestClient, example: str) -> str:
    form = {"game": "mea", "players": "2", "seat0": "human", "seat1": "heuristic"}
    page = client.post("/play", data=form | {"deck0": "example:mea-goblin-rush.txt", "deck1": f"example:{example}"})
    assert 400 <= page.status_code < 500, page.status_code
    found = re.search(r'<div id="error"[^>]*><p>(.*?)</p>', page.text, re.S)
    assert found, page.text[:500]
    return html.unescape(found.group(1))


def test_the_examples_to_play_leave_out_the_broken_one() -> None:
    from cardbase.sim.table_setup import BROKEN_EXAMPLES

    assert (EXAMPLES / "mea-broken.txt").is_file() and "mea-broken.txt" in BROKEN_EXAMPLES
    assert example_decks("mea") == TO_PLAY


def test_an_unknown_example_names_the_examples_to_play(client: TestClient) -> None:
    message = _refusal(client, "nope.txt")
    assert message == f"P2's deck: no example deck 'nope.txt' (known: {', '.join(TO_PLAY)})"


def test_the_broken_example_asked_for_is_refused_as_the_broken_one(client: TestClient) -> None:
    message = _refusal(client, "mea-broken.txt")
    assert "mea-broken.txt is broken on purpose" in message and f"known: {', '.join(TO_PLAY)}" in message


def test_the_play_and_lab_forms_offer_the_same_examples(client: TestClient) -> None:
    deck_id = import_rush(client)
    play = client.get("/play?game=mea").text
    select = re.search(r'<select name="deck0" class="deck-source">(.*?)</select>', play, re.S)
    assert select is not None
    in_play = re.findall(r'<option value="example:([^"]+)"', select.group(1))
    lab = client.get(f"/decks/{deck_id}/lab").text
    in_lab = re.findall(r'name="against" value="example:([^"]+)"', lab)
    assert sorted(in_play) == sorted(in_lab) == TO_PLAY


def test_a_busy_database_is_the_forms_answer_not_the_decks(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The decks checked while the database is busy: the forms answer 503 (try again), not a page that
    offers every deck and example as refused with 'the database is busy' as each one's problem."""
    import cardbase.sim.mea
    from cardbase.errors import DatabaseBusy

    deck_id = import_rush(client)

    def busy(*args: object, **kwargs: object) -> None:
        raise DatabaseBusy("the database is busy (another program is writing); try again")

    monkeypatch.setattr(cardbase.sim.mea, "load_resolved", busy)
    for path in ("/play?game=mea", f"/decks/{deck_id}/lab"):
        page = client.get(path)
        assert page.status_code == 503, (path, page.status_code)
        assert "busy" in page.text
