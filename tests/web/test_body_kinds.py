"""A body is read as what its Content-Type says, or refused (415): a body sent without one to a page's
form route was read as a form of no fields and taken (a deck deleted whatever version the body
named, a deck copied); only an empty body without a Content-Type is an empty form."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.web.conftest import new_deck


def test_a_body_without_a_content_type_to_a_form_route_is_refused(client: TestClient) -> None:
    deck = new_deck(client)
    for sent in (b'{"version": "99"}', b"version=99"):  # JSON or a form's text: no Content-Type says which
        refused = client.post(f"/decks/{deck}/delete", content=sent)
        assert refused.status_code == 415, refused.text
        assert "request body has no Content-Type; this address takes a form" in refused.text, refused.text
    copied = client.post(f"/decks/{deck}/duplicate", content=b'{"name": "Copy"}')
    assert copied.status_code == 415, copied.text
    assert client.get(f"/api/decks/{deck}").status_code == 200  # not deleted
    assert len(client.get("/api/decks").json()) == 1  # nor copied


def test_an_empty_body_without_a_content_type_is_an_empty_form(client: TestClient) -> None:
    deck = new_deck(client)
    done = client.post(f"/decks/{deck}/duplicate", content=b"", follow_redirects=False)
    assert done.status_code == 303, done.text
