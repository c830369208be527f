"""Stale edits are refused: a deck's version as ETag on every deck answer, If-Match honoured on every
change of ``/api/decks/{id}`` and its cards (412 with the current version), and the pages' forms
carrying the version they showed; on SQLite and (with CARDBASE_TEST_POSTGRES) PostgreSQL."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from cardbase.cli.app import app as cli_app
from tests.web.conftest import error_of, new_deck

CARD = {"name": "Dizzy Bat"}


def etag(client: TestClient, deck: int) -> str:
    response = client.get(f"/api/decks/{deck}")
    assert response.status_code == 200
    tag: str = response.headers["etag"]
    assert tag == f'"deck-{deck}-v{response.json()["info"]["version"]}"'
    return tag


def state(client: TestClient, deck: int) -> dict[str, Any]:
    """The deck's fields and entries (what a stale change must leave alone)."""
    data = client.get(f"/api/decks/{deck}").json()
    return {"info": data["info"], "cards": [(c["name"], c["count"]) for c in data["cards"]]}


def test_every_change_gives_the_next_version_and_its_etag(client: TestClient, db_url: str) -> None:
    made = client.post("/api/decks", json={"game": "mea", "name": "Rush"})
    deck = made.json()["id"]
    assert made.headers["etag"] == f'"deck-{deck}-v1"' and made.json()["version"] == 1
    answers = [
        client.post(f"/api/decks/{deck}/cards", json=CARD),
        client.post(f"/api/decks/{deck}/cards", json={"name": "Crumb Goblin", "count": 3}),
        client.put(f"/api/decks/{deck}/cards", json={"name": "Crumb Goblin", "count": 2}),
        client.request("DELETE", f"/api/decks/{deck}/cards", json={"name": "Crumb Goblin", "count": 1}),
        client.patch(f"/api/decks/{deck}", json={"name": "Rush II"}),
        client.patch(f"/api/decks/{deck}", json={"format": "standard"}),
    ]
    for version, response in enumerate(answers, start=2):
        assert response.status_code == 200, response.text
        assert response.headers["etag"] == f'"deck-{deck}-v{version}"'
    assert etag(client, deck) == f'"deck-{deck}-v7"'
    same = client.patch(f"/api/decks/{deck}", json={"name": "Rush II"})  # nothing changes: no new version
    assert same.headers["etag"] == f'"deck-{deck}-v7"'
    # the CLI's writes count too (one version per write, whoever makes it)
    result = CliRunner().invoke(cli_app, ["deck", "add", "Rush II", "Dizzy Bat", "--db", db_url])
    assert result.exit_code == 0, result.output
    assert etag(client, deck) == f'"deck-{deck}-v8"'
    for path in (
        f"/api/decks/{deck}/export",
        f"/api/decks/{deck}/validation",
        f"/api/decks/{deck}/stats",
        f"/api/decks/{deck}/draws?need=1%20t:monster",
        f"/api/decks/{deck}/pdf",
        f"/decks/{deck}",
        f"/decks/{deck}?fragment=panels",
        f"/decks/{deck}/export.txt",
        f"/decks/{deck}/print.pdf",
    ):
        answer = client.get(path)
        assert answer.status_code == 200 and answer.headers["etag"] == f'"deck-{deck}-v8"', path
    copy = client.post(f"/api/decks/{deck}/duplicate")
    assert copy.status_code == 201 and copy.headers["etag"] == f'"deck-{copy.json()["id"]}-v1"'


def test_a_stale_rename_is_412_and_the_other_change_stays(client: TestClient) -> None:
    """A reads the deck, B renames it, A's rename made from what it read is refused."""
    deck = new_deck(client, "Before")
    seen = etag(client, deck)  # A reads
    assert client.patch(f"/api/decks/{deck}", json={"name": "B's name"}).status_code == 200  # B renames
    stale = client.patch(f"/api/decks/{deck}", json={"name": "A's name"}, headers={"If-Match": seen})
    assert stale.status_code == 412
    current = f'"deck-{deck}-v2"'
    assert stale.headers["etag"] == current
    body = stale.json()["error"]
    assert (body["version"], body["etag"]) == (2, current) and "changed elsewhere" in error_of(stale)
    assert state(client, deck)["info"]["name"] == "B's name"
    fresh = client.patch(f"/api/decks/{deck}", json={"name": "A's name"}, headers={"If-Match": current})
    assert fresh.status_code == 200 and fresh.json()["name"] == "A's name"


def at_version_3(client: TestClient, name: str) -> int:
    """A new deck with a Dizzy Bat and a Crumb Goblin, added one at a time: version 3."""
    deck = new_deck(client, name)
    for card in (CARD, {"name": "Crumb Goblin"}):
        assert client.post(f"/api/decks/{deck}/cards", json=card).status_code == 200
    return deck


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("PATCH", "", {"name": "Other"}),
        ("DELETE", "", None),
        ("POST", "/cards", CARD),
        ("PUT", "/cards", {"name": "Dizzy Bat", "count": 4}),
        ("DELETE", "/cards", {"name": "Dizzy Bat"}),
    ],
)
def test_if_match_guards_every_change_of_a_deck(client: TestClient, method: str, path: str, body: Any) -> None:
    deck = at_version_3(client, "Guarded")
    before = state(client, deck)
    seen = f'"deck-{deck}-v2"'  # what a client read before the last add
    for stale in (seen, f'W/"deck-{deck}-v3"', '"stale"', f'"deck-{deck + 1}-v3"', '"deck-x-v3"', f'"deck-{deck}-v"'):
        refused = client.request(method, f"/api/decks/{deck}{path}", json=body, headers={"If-Match": stale})
        assert refused.status_code == 412, (stale, refused.text)
        assert refused.headers["etag"] == f'"deck-{deck}-v3"'
    assert state(client, deck) == before  # nothing written
    for n, good in enumerate(('"deck-{}-v3"', '"deck-{}-v1", "deck-{}-v3"', "*")):
        fresh = at_version_3(client, f"Fresh {n}")
        sent = {**body, "name": f"{body['name']} {n}"} if method == "PATCH" else body
        done = client.request(
            method, f"/api/decks/{fresh}{path}", json=sent, headers={"If-Match": good.format(fresh, fresh)}
        )
        assert done.status_code == 200, (good, done.text)


def test_without_if_match_changes_apply_as_they_come(client: TestClient) -> None:
    deck = new_deck(client)
    for _ in range(3):
        assert client.post(f"/api/decks/{deck}/cards", json=CARD).status_code == 200
    assert state(client, deck)["cards"] == [("Dizzy Bat", 3)]
    assert client.request("DELETE", f"/api/decks/{deck}").status_code == 200


def test_a_stale_delete_keeps_the_deck(client: TestClient) -> None:
    deck = new_deck(client)
    seen = etag(client, deck)
    client.post(f"/api/decks/{deck}/cards", json=CARD)
    assert client.request("DELETE", f"/api/decks/{deck}", headers={"If-Match": seen}).status_code == 412
    assert client.get(f"/api/decks/{deck}").status_code == 200
    assert client.request("DELETE", f"/api/decks/{deck}", headers={"If-Match": etag(client, deck)}).status_code == 200
    assert client.get(f"/api/decks/{deck}").status_code == 404


# --- the pages -------------------------------------------------------------------------------------


def version_in(page: str) -> int:
    m = re.search(r'id="panels" data-deck-id="\d+" data-version="(\d+)"', page)
    assert m, page[:300]
    return int(m.group(1))


def action_error(page: str) -> str:
    m = re.search(r'<p id="action-error"[^>]*>(.*?)</p>', page, re.S)
    assert m, page[:500]
    return html.unescape(m.group(1)).strip()


def test_a_builder_form_from_an_older_page_is_refused_and_shows_the_deck_now(client: TestClient) -> None:
    deck = new_deck(client)
    page = client.get(f"/decks/{deck}")
    shown = version_in(page.text)
    assert page.headers["etag"] == f'"deck-{deck}-v{shown}"'
    assert f'name="version" value="{shown}"' in page.text  # the no-JS forms carry it
    client.post(f"/api/decks/{deck}/cards", json=CARD)  # elsewhere: another tab, another person
    card = "mea/demo/crumb-goblin"
    for fragment in ("", "1"):
        data = {"card": card, "op": "add", "version": str(shown), "fragment": fragment}
        refused = client.post(f"/decks/{deck}/cards", data=data, follow_redirects=False)
        assert refused.status_code == 412
        assert "changed elsewhere" in action_error(refused.text)
        if not fragment:  # without JavaScript: the builder again, showing the deck as it now is
            assert version_in(refused.text) == shown + 1 and "Dizzy Bat" in refused.text
    assert state(client, deck)["cards"] == [("Dizzy Bat", 1)]
    done = client.post(
        f"/decks/{deck}/cards", data={"card": card, "op": "add", "version": str(shown + 1)}, follow_redirects=False
    )
    assert done.status_code == 303
    assert sorted(state(client, deck)["cards"]) == [("Crumb Goblin", 1), ("Dizzy Bat", 1)]


def test_page_forms_without_a_version_still_work(client: TestClient) -> None:
    """The card page's "add to deck" does not show the deck: it adds whatever the deck holds."""
    deck = new_deck(client)
    client.post(f"/api/decks/{deck}/cards", json=CARD)
    added = client.post("/decks/add", data={"deck": str(deck), "card": "mea/demo/dizzy-bat"}, follow_redirects=False)
    assert added.status_code == 303 and state(client, deck)["cards"] == [("Dizzy Bat", 2)]


@pytest.mark.parametrize(
    ("path", "data"), [("rename", {"name": "Renamed"}), ("format", {"format": "standard"}), ("delete", {})]
)
def test_deck_forms_of_an_older_page_are_refused(client: TestClient, path: str, data: dict[str, str]) -> None:
    deck = new_deck(client, "Kept")
    client.post(f"/api/decks/{deck}/cards", json=CARD)  # version 2; the form was made at 1
    refused = client.post(f"/decks/{deck}/{path}", data={**data, "version": "1"}, follow_redirects=False)
    assert refused.status_code == 412 and "changed elsewhere" in refused.text and "Traceback" not in refused.text
    info = state(client, deck)["info"]
    assert (info["name"], info["format"], info["version"]) == ("Kept", None, 2)
    done = client.post(f"/decks/{deck}/{path}", data={**data, "version": "2"}, follow_redirects=False)
    assert done.status_code == 303


def edit_fields(page: str) -> dict[str, str]:
    """The edit-as-text form's text and hidden fields, as the browser would send them back."""
    box = re.search(r'<textarea id="edit-box"[^>]*>\n?(.*?)</textarea>', page, re.S)  # HTML drops that newline
    assert box, page[:500]
    fields = dict(re.findall(r'<input type="hidden" name="(checked|version)" value="([^"]*)">', page))
    return {"text": html.unescape(box.group(1)), **fields}


def test_edit_as_text_saves_only_on_the_version_it_was_read_at(client: TestClient) -> None:
    deck = new_deck(client)
    client.post(f"/api/decks/{deck}/cards", json=CARD)  # version 2
    read = client.get(f"/decks/{deck}/edit")
    assert read.headers["etag"] == f'"deck-{deck}-v2"' and edit_fields(read.text)["version"] == "2"
    text = edit_fields(read.text)["text"].replace("1 Dizzy Bat", "3 Dizzy Bat")
    checked = client.post(f"/decks/{deck}/edit", data={"text": text, "step": "check", "version": "2"})
    assert checked.status_code == 200 and edit_fields(checked.text)["version"] == "2"  # still the version read
    client.post(f"/api/decks/{deck}/cards", json={"name": "Crumb Goblin"})  # elsewhere, after the read: version 3
    before = state(client, deck)
    save = {**edit_fields(checked.text), "step": "save"}
    refused = client.post(f"/decks/{deck}/edit", data=save, follow_redirects=False)
    assert refused.status_code == 412 and refused.headers["etag"] == f'"deck-{deck}-v3"'
    assert "changed elsewhere" in html.unescape(refused.text) and "Traceback" not in refused.text
    assert state(client, deck) == before  # nothing written
    again = edit_fields(refused.text)
    assert again["text"] == text and again["version"] == "3"  # the text kept, the deck now read
    assert "Crumb Goblin" in html.unescape(refused.text.split('id="edit-diff"', 1)[1])  # saving would remove it
    done = client.post(f"/decks/{deck}/edit", data={**again, "step": "save"}, follow_redirects=False)
    assert done.status_code == 303
    after = state(client, deck)
    assert after["cards"] == [("Dizzy Bat", 3)] and after["info"]["version"] == 4


@pytest.mark.parametrize("tag", ['"0"', 'W/"deck-1-v1"', '"deck-99-v1"', "9" * 100])
def test_an_if_match_of_no_version_of_the_deck_says_so_in_words(client: TestClient, tag: str) -> None:
    """A tag that names no version of this deck (another deck's, a weak one, not a tag) is 412 saying
    the change was made from another version (it said 'from version another')."""
    deck = new_deck(client, "Tagged")
    refused = client.patch(f"/api/decks/{deck}", json={"name": "Renamed"}, headers={"If-Match": tag})
    assert refused.status_code == 412, refused.text
    message = error_of(refused)
    assert "the change was made from another version" in message and "version another" not in message
    assert client.get(f"/api/decks/{deck}").json()["info"]["name"] == "Tagged"


def test_if_match_given_on_two_lines_is_one_list(client: TestClient) -> None:
    """Field lines of one name are one comma list (RFC 9110 §5.3): ``If-Match: *`` with a stale tag on a
    second line is ``*`` beside a tag, which matches nothing (412); only the first line was read, and
    the change was made over the version the client said it had not seen. A current tag on the
    second line matches (it was 412)."""
    deck = new_deck(client, "Lines")
    client.patch(f"/api/decks/{deck}", json={"name": "Lines 2"})  # now version 2
    stale, now = f'"deck-{deck}-v1"', f'"deck-{deck}-v2"'
    refused = client.patch(
        f"/api/decks/{deck}", json={"name": "Over"}, headers=[("If-Match", "*"), ("If-Match", stale)]
    )
    assert refused.status_code == 412, refused.text
    assert client.get(f"/api/decks/{deck}").json()["info"]["name"] == "Lines 2"
    taken = client.patch(f"/api/decks/{deck}", json={"name": "Taken"}, headers=[("If-Match", stale), ("If-Match", now)])
    assert taken.status_code == 200, taken.text
    assert client.get(f"/api/decks/{deck}").json()["info"]["name"] == "Taken"


CARD_PATH = "/api/cards/mea/demo/crumb-goblin"


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        (lambda now, stale: [("If-Match", f"W/{now}")], 412),  # weak: never matches (it was taken as the tag)
        (lambda now, stale: [("If-Match", f"{stale}, {now}")], 200),  # a list holding the current: matches (412)
        (lambda now, stale: [("If-Match", "*"), ("If-Match", stale)], 412),  # two lines, one list (the first read)
        (lambda now, stale: [("If-Match", stale), ("If-Match", now)], 200),  # the current on a second line (412)
        (lambda now, stale: [("If-Match", "*")], 200),
    ],
    ids=["weak", "list", "star-then-stale", "stale-then-current", "star"],
)
def test_a_cards_if_match_is_read_as_a_decks_is(client: TestClient, headers: Any, status: int) -> None:
    """A card's edits read If-Match by the one rule (``http.expected_tags``): every line, every tag of
    the list, strong tags only; the card routes read the header's first line as one tag of their own."""
    stale = client.get(f"{CARD_PATH}/history").headers["etag"]
    assert client.patch(CARD_PATH, json={"values": {"attack": 2}}).status_code == 200
    now = client.get(f"{CARD_PATH}/history").headers["etag"]
    answer = client.patch(CARD_PATH, json={"values": {"attack": 3}}, headers=headers(now, stale))
    assert answer.status_code == status, answer.text
    history = client.get(f"{CARD_PATH}/history")
    assert history.json()["edits"][0]["after"] == {"attack": 3 if status == 200 else 2}
    first = history.json()["edits"][-1]["id"]  # the first edit, to put back: the revert route reads it alike
    revert = client.post(f"{CARD_PATH}/history/{first}/revert", headers=headers(history.headers["etag"], stale))
    assert revert.status_code == status, revert.text


def test_a_cards_tags_honour_if_match(client: TestClient) -> None:
    """A card's tags are part of its version: a tag change sent with a stale If-Match is refused (412,
    the tags as they were) as an edit of its fields is; it was made whatever the If-Match said."""
    stale = client.get(f"{CARD_PATH}/history").headers["etag"]
    assert client.patch(CARD_PATH, json={"values": {"attack": 2}}).status_code == 200
    refused = client.post(f"{CARD_PATH}/tags", json={"add": ["removal"]}, headers={"If-Match": stale})
    assert refused.status_code == 412, refused.text
    assert "changed since you read it" in error_of(refused)
    assert client.get(f"{CARD_PATH}/history").json()["edits"][0]["after"] == {"attack": 2}  # no tag edit
    now = client.get(f"{CARD_PATH}/history").headers["etag"]
    taken = client.post(f"{CARD_PATH}/tags", json={"add": ["removal"]}, headers={"If-Match": now})
    assert taken.status_code == 200 and taken.json()["tags"] == ["removal"], taken.text
