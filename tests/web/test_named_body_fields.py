"""Every web refusal of a body's value names its field: the JSON API by the value's path (and
``field`` in its error), a page's form by the label the page gives it, by one mechanism
(``web.errors.naming_inputs``: the values the app-wide ``single_values`` read, matched against the
text an error refuses) — not route by route. ``POST /api/decks`` with a bad ``format`` said
"format" in words only; a deck's unknown ``card`` said which card but not which field.

Generated from the app's routes: every JSON body model's fields, each given a value of the wrong
kind and a text no route takes; every form route's fields, each given a text no route takes.
Each answer is 4xx (a text some field takes may be 2xx), one message, the field named, never 500."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardbase.web.app import create_app
from cardbase.web.settings import ServerSettings
from tests.web.conftest import api_routes, error_of, new_deck

BOGUS = "bogus-zq"
NOT_A_TAG = "bogus<zq"
"""A text no tag takes (``names.tag_name``): the tag fields are given it, as a list item or in a form's text."""
CARD = "mea/demo/crumb-goblin"
HAND = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS"]

# A body each JSON route takes (but for the field given a bad value). A new route without one fails
# test_every_body_route_has_a_case, so it cannot be left out unseen.
JSON_BASES: dict[tuple[str, str], dict[str, Any]] = {
    ("POST", "/api/decks"): {"game": "mea", "name": "Fresh"},
    ("POST", "/api/decks/import"): {"text": "2 Crumb Goblin", "game": "mea", "name": "Imported"},
    ("PATCH", "/api/decks/{deck_id}"): {"name": "Renamed", "format": "standard"},
    ("POST", "/api/decks/{deck_id}/duplicate"): {"name": "Copied"},
    ("POST", "/api/decks/{deck_id}/cards"): {"name": "Crumb Goblin", "count": 1, "section": "main"},
    ("PUT", "/api/decks/{deck_id}/cards"): {"name": "Crumb Goblin", "count": 2, "section": "main"},
    ("DELETE", "/api/decks/{deck_id}/cards"): {"name": "Crumb Goblin", "count": 1, "section": "main"},
    ("POST", "/api/collection"): {"name": "Crumb Goblin", "count": 2, "op": "add", "game": "mea"},
    ("POST", "/api/collection/import"): {"text": "2 Crumb Goblin", "game": "mea", "mode": "add", "dry_run": True},
    ("POST", "/api/cards/preview"): {"card": CARD, "values": {}},
    ("POST", "/api/cards"): {"game": "mea", "values": {"name": "Brand New", "type": "monster"}},
    ("PATCH", "/api/cards/{game}/{set_code}/{slug}"): {"values": {"cost": 3}},
    ("POST", "/api/cards/{game}/{set_code}/{slug}/tags"): {"add": ["fresh"]},
    ("POST", "/api/decks/{deck_id}/tags"): {"name": "Crumb Goblin", "add": ["fresh"]},
    ("POST", "/api/meio/split-advice"): {"hand": HAND},
    ("POST", "/api/games"): {"game": "meio"},
}
ONE_OF = {"card": "name", "code": "text"}
"""A field given instead of another (a card by id or by name): the case leaves the other out."""
ELSEWHERE = {
    ("POST", "/api/games/{game_id}/actions"): "a game's moves: tests/web/test_play_api.py",
    ("POST", "/api/games/{game_id}/undo"): "a game's moves: tests/web/test_play_api.py",
}


def _routes() -> list[Any]:
    return api_routes(create_app(ServerSettings(database=None)))


def _model(route: Any) -> Any:
    from pydantic import BaseModel

    body = route.body_field
    if body is None:
        return None
    annotation = body.field_info.annotation
    for kind in (annotation, *getattr(annotation, "__args__", ())):
        if isinstance(kind, type) and issubclass(kind, BaseModel) and not kind.__name__.startswith("Body_"):
            return kind
    return None


def _json_routes() -> list[tuple[str, str, Any]]:
    return [(m, r.path, _model(r)) for r in _routes() if _model(r) is not None for m in sorted(r.methods)]


def _wrong_kind(annotation: Any) -> Any:
    """A JSON value of a kind the field never takes: a text for a list, else a list."""
    text = repr(annotation)
    return "x" if text.startswith("list") or "list[" in text else [1]


def _json_cases() -> list[tuple[str, str, str, Any]]:
    cases = []
    for method, path, model in _json_routes():
        if (method, path) in ELSEWHERE:
            continue
        for name, info in model.model_fields.items():
            cases.append((method, path, name, _wrong_kind(info.annotation)))
            if name == "remove":  # a tag to take off that the card has not is refused, naming it (a typo)
                cases.append((method, path, "remove[0]", [BOGUS]))
            elif "str" in repr(info.annotation):
                cases.append((method, path, name, BOGUS if "list" not in repr(info.annotation) else [BOGUS]))
            if name == "values":  # a card's field's value over its bound, and one the catalog's rules refuse
                cases.append((method, path, "values.notes", {"notes": "x" * 20_000}))
                cases.append((method, path, "values.cost", {"cost": "zz"}))
            if name in ("add", "remove"):
                cases.append((method, path, f"{name}[1]", ["fine", NOT_A_TAG]))
    return cases


JSON_CASES = _json_cases()


def test_every_body_route_has_a_case() -> None:
    routes = {(m, p) for m, p, _ in _json_routes()}
    assert routes - set(ELSEWHERE) == set(JSON_BASES), routes ^ set(JSON_BASES)


def _address(client: TestClient, path: str) -> str:
    deck = new_deck(client, "Target")
    client.post(f"/api/decks/{deck}/cards", json={"name": "Crumb Goblin", "count": 2})
    game, set_code, slug = CARD.split("/")
    return path.format(deck_id=deck, game=game, set_code=set_code, slug=slug)


def _named(field: str, error: dict[str, Any]) -> bool:
    return error.get("field") == field and field in error["message"]


@pytest.mark.parametrize(
    ("method", "path", "field", "bad"), JSON_CASES, ids=[f"{m} {p} {f} {b!r}" for m, p, f, b in JSON_CASES]
)
def test_a_json_field_refused_is_named(client: TestClient, method: str, path: str, field: str, bad: Any) -> None:
    url = _address(client, path)
    base = JSON_BASES[(method, path)]
    given = {k: v for k, v in base.items() if k != ONE_OF.get(field)}
    key = field.partition("[")[0].partition(".")[0]  # a list's item, a value inside: the list given, the item named
    response = client.request(method, url, json={**given, key: bad})
    assert response.status_code < 500, response.text[:300]
    if response.status_code < 300:
        assert bad in (BOGUS, [BOGUS]), (field, bad, response.text[:300])  # a text the field may take
        return
    assert 400 <= response.status_code < 500
    error_of(response)  # one line
    error = response.json()["error"]
    assert _named(field, error), (field, response.status_code, error)
    fine = client.request(method, url, json=base)  # the body but for the field is taken
    assert fine.status_code < 300, (method, url, fine.text[:300])


# A form each page route takes (but for the field given a bad value), and the text of the page
# it is refused on. A form route without one is listed in FORMS_ELSEWHERE (test below). ``{…}`` are
# filled by _form_setup: the deck's version and share code, the card's version and its last edit.
FORM_BASES: dict[str, dict[str, str]] = {
    "/decks": {"name": "Fresh", "game": "mea", "players": ""},
    "/decks/{deck_text_id}/rename": {"name": "Renamed"},
    "/decks/{deck_text_id}/format": {"format": "standard"},
    "/decks/{deck_text_id}/duplicate": {"name": "Copied"},
    "/decks/{deck_text_id}/cards": {"card": CARD, "op": "add", "count": "1", "section": "main"},
    "/decks/add": {"deck": "{deck}", "card": CARD, "op": "add", "count": "1", "section": "main"},
    "/decks/import": {"text": "2 Crumb Goblin", "game": "mea", "name": "Imported"},
    "/decks/new": {"code": "{code}", "name": "Saved"},
    "/collection/card": {"card": CARD, "op": "add", "count": "1", "back": "/collection"},
    "/cards/{game}/{set_code}/{slug}/tags": {"add": "fresh", "remove": ""},
    "/decks/{deck_id}/tags": {"card": CARD, "add": "fresh", "remove": ""},
    "/collection/import": {"game": "mea", "mode": "add", "text": "2 Crumb Goblin", "action": "preview"},
    "/cards/new": {"game": "mea", "name": "Brand New", "type": "monster", "set": "mine", "cost": "2", "attack": "1"},
    "/cards/{game}/{set_code}/{slug}/edit": {
        "version": "{card_version}",
        "name": "Crumb Goblin",
        "type": "monster",
        "cost": "2",
        "attack": "1",
    },
    "/cards/{game}/{set_code}/{slug}/history/{edit_id}/revert": {"version": "{card_version}"},
    "/cards/{game}/{set_code}/{slug}/art": {"art": "(a PNG file)"},
    "/decks/{deck_id}/versions/{number}/restore": {"version": "{deck_version}"},
    "/decks/{deck_text_id}/undo": {"to": "1", "version": "{deck_version}"},
    "/catalog/import": {"sheet": "(a CSV file)", "game": "mea"},
    "/decks/{deck_text_id}/delete": {"version": "{deck_version}"},
    "/decks/{deck_text_id}/edit": {
        "version": "{deck_version}",
        "text": "3 Crumb Goblin",
        "step": "save",
        "checked": "{checked}",
    },
    "/replay": {"file": "(a record file)", "game": "1"},
    "/play/{game_id}/act": {"version": "{play_version}", "seat": "0", "action_id": "0"},
    "/play/{game_id}/undo": {"version": "{play_version}", "seat": "{play_seat}"},
}
FILES: dict[str, tuple[str, str]] = {
    "(a PNG file)": ("art.png", "image/png"),
    "(a CSV file)": ("cards.csv", "text/csv"),
    "(a record file)": ("mea.jsonl", "application/x-ndjson"),
}
"""The files a form's base uploads (its field given a text in the case instead)."""
HIDDEN = {"version"}
"""Fields the page fills, not a person: a version not the thing's current one is a page made before a
change elsewhere (409 or 412, with the current one: tests/web/test_versions.py), not a refused value."""
FORMS_ELSEWHERE = {
    "/play": "tests/web/test_named_fields.py",
}
FORM_CASES = [(path, field, BOGUS) for path, base in FORM_BASES.items() for field in base]
FORM_CASES += [(path, field, f"fine, {NOT_A_TAG}") for path, field, _ in FORM_CASES if field in ("add", "remove")]


def test_every_form_route_is_listed() -> None:
    from cardbase.web.http import _body_reading

    paths = {r.path for r in _routes() if _body_reading(r) == "form" and not r.path.startswith("/api/")}
    assert paths == set(FORM_BASES) | set(FORMS_ELSEWHERE), paths ^ (set(FORM_BASES) | set(FORMS_ELSEWHERE))


def _png() -> bytes:
    import io

    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (4, 4), "red").save(out, "PNG")
    return out.getvalue()


def _form_setup(client: TestClient, record: str, path: str) -> tuple[dict[str, str], dict[str, bytes]]:
    """A deck with cards and an edit of the card: what the forms' bases are filled with, and the files'
    contents."""
    deck = new_deck(client, "Target")
    client.post(f"/api/decks/{deck}/cards", json={"name": "Crumb Goblin", "count": 2})
    code = client.get(f"/api/decks/{deck}/export", params={"format": "code"}).text.strip()
    game, set_code, slug = CARD.split("/")
    assert client.patch(f"/api/cards/{CARD}", json={"values": {"text": "Edited."}}).status_code == 200
    history = client.get(f"/api/cards/{CARD}/history").json()
    from cardbase.web.pages_decks import _digest

    fill = {"deck": str(deck), "code": code, "card_version": history["version"], "checked": _digest("3 Crumb Goblin")}
    fill |= {"deck_version": str(client.get(f"/api/decks/{deck}").json()["info"]["version"])}
    url = {"deck_text_id": deck, "deck_id": deck, "game": game, "set_code": set_code, "slug": slug}
    url |= {"edit_id": history["edits"][0]["id"], "number": 1}
    if path == "/play/{game_id}/act":  # a Meio game whose first seat (to move first) this browser holds
        form = {"game": "meio", "players": "3", "seat0": "human", "seat1": "heuristic", "seat2": "heuristic"}
        url["game_id"], fill["play_seat"], fill["play_version"] = _play_form(client, form)
    if path == "/play/{game_id}/undo":  # a move to take back: two people at one device, the one to move split
        form = {"game": "meio", "players": "2", "seat0": "human", "seat1": "human", "hotseat": "1"}
        game_id, seat, version = _play_form(client, form)
        moved = client.post(f"/play/{game_id}/act", data={"version": version, "seat": seat, "action_id": "0"})
        assert moved.status_code == 200, moved.text[:300]  # (the redirect to the seat's page, followed)
        after = re.search(r'id="table"[^>]* data-version="(\d+)"', client.get(f"/play/{game_id}").text)  # (hand-off)
        assert after is not None and int(after.group(1)) == int(version) + 1
        url["game_id"], fill["play_seat"], fill["play_version"] = game_id, seat, after.group(1)
    files = {
        "(a PNG file)": _png(),
        "(a CSV file)": b"name,type\nBrand New,monster\n",
        "(a record file)": record.encode(),
    }
    return {**fill, **{k: str(v) for k, v in url.items()}}, files


def _play_form(client: TestClient, form: dict[str, str]) -> tuple[str, str, str]:
    """A game started by the /play form whose seats this browser holds: its id, the seat its page
    shows (the one to move) and the table's version."""
    started = client.post("/play", data=form, follow_redirects=False)
    assert started.status_code == 303, started.text[:300]
    game_id = started.headers["location"].rsplit("/", 1)[1].partition("?")[0]
    page = client.get(f"/play/{game_id}").text
    if handoff := re.search(r'id="handoff-confirm" class="button-link" href="([^"]+)"', page):  # a hot seat's
        page = client.get(html.unescape(handoff.group(1))).text
    version = re.search(r'name="version" value="(\d+)"', page)
    seat = re.search(r'name="seat" value="(\d+)"', page)
    assert version is not None and seat is not None and 'name="action_id"' in page, page[:2000]
    return game_id, seat.group(1), version.group(1)


@pytest.fixture
def a_record(sim_records: dict[str, Any]) -> str:
    """A Méa record cut after its first action (the header kept)."""
    lines = sim_records["mea"].read_text(encoding="utf-8").splitlines()
    return "\n".join(lines[:2]) + "\n"


@pytest.mark.parametrize(("path", "field", "bad"), FORM_CASES, ids=[f"{p} {f} {b!r}" for p, f, b in FORM_CASES])
def test_a_form_field_refused_is_named(client: TestClient, path: str, field: str, bad: str, a_record: str) -> None:
    from cardbase.web.errors import form_label

    fill, contents = _form_setup(client, a_record, path)
    url = path.format(**fill)
    base = {k: v.format(**fill) for k, v in FORM_BASES[path].items()}
    texts = {k: v for k, v in base.items() if v not in FILES}
    uploads = {k: (*FILES[v][:1], contents[v], FILES[v][1]) for k, v in base.items() if v in FILES}
    response = client.post(
        url,
        data={**texts, field: bad},
        files={k: v for k, v in uploads.items() if k != field} or None,
        follow_redirects=False,
    )
    assert response.status_code < 500, response.text[:300]
    if response.status_code < 400:
        assert bad == BOGUS, (field, bad)
        return  # a text the field takes (a name)
    if field in HIDDEN and response.status_code in (409, 412):
        pass  # not the current version: the page was made before a change elsewhere
    else:
        assert "Traceback" not in response.text
        page = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.text)).split())
        assert f"Invalid value for {form_label(field, url)!r}" in page, (field, form_label(field, url), page[:2000])
    fine = client.post(url, data=texts, files=uploads or None, follow_redirects=False)  # but for the field
    assert fine.status_code < 400, (url, fine.text[:500])


def test_the_catalogs_rules_refusing_a_cards_fields_name_them_first(client: TestClient) -> None:
    """A card's values the catalog's rules refuse (a cost of ``zz``) are named in the refusal's first
    line, by the form's fields or the JSON's paths, not only inside its problems."""
    form = {"game": "mea", "name": "Brand New", "type": "monster", "set": "mine", "cost": "zz", "attack": "x"}
    page = client.post("/cards/new", data=form)
    assert page.status_code == 400
    said = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page.text)).split())
    assert "Invalid values for 'cost' and 'attack': new card 'Brand New': 2 problem" in said, said[:1500]
    body = {"game": "mea", "values": {"name": "Brand New", "type": "monster", "cost": "zz", "attack": "x"}}
    error = client.post("/api/cards", json=body).json()["error"]
    assert error["message"].startswith("Invalid values for 'values.cost' and 'values.attack': "), error
    assert error["field"] == "values.cost" and error["fields"] == ["values.cost", "values.attack"]
    assert len(error["problems"]) == 2


def test_a_pasted_lists_problems_are_under_the_field_they_were_given_in(client: TestClient) -> None:
    """The collection page's, the deck import page's and Edit as text's problems say which field they are
    of, by the label the page gives it (``<label for>``: not the form's name ``text``, a programmer's word)."""
    deck = new_deck(client, "Labelled")
    for url, form, box, label in [
        (
            "/collection/import",
            {"game": "mea", "mode": "add", "text": "2 Crumb Goblin\r\n1 Nope Nope"},
            "bulk-problems",
            "List",
        ),
        (
            "/decks/import",
            {"game": "mea", "text": "2 Crumb Goblin\r\n1 Nope Nope"},
            "import-problems",
            "Deck text, JSON or share code",
        ),
        (
            f"/decks/{deck}/edit",
            {"text": "game: mea\r\n1 Nope Nope", "step": "check"},
            "edit-problems",
            "The deck as text",
        ),
    ]:
        page = client.post(url, data=form)
        assert page.status_code == 400
        found = re.search(rf'<div id="{box}"[^>]*>\s*<p class="field-line">(.*?)</p>', page.text, re.S)
        assert found and html.unescape(found.group(1)) == f"Invalid value for {label!r}:", (url, page.text[:3000])
    error = client.post("/api/decks/import", json={"game": "mea", "text": "1 Nope Nope"}).json()["error"]
    assert error["field"] == "text" and error["message"].startswith("Invalid value for 'text': ")
    assert error["problems"][0].startswith("line 1: ")


def _api_form_cases() -> list[tuple[str, str]]:
    """(route, field) for every text field of every API route read as a form (an upload's fields)."""
    from fastapi import params

    cases = []
    for route in _routes():
        if not route.path.startswith("/api/"):
            continue  # a page's (/replay): FORMS_NOT_YET
        for field in route.dependant.body_params:
            if isinstance(field.field_info, params.Form) and not isinstance(field.field_info, params.File):
                cases.extend((route.path, field.alias) for _ in sorted(route.methods))
    return cases


API_FORM_CASES = _api_form_cases()
API_FORM_BASES = {"/api/catalog/import": {"game": "mea", "dry_run": "true", "format": "csv"}}


def test_every_api_form_route_has_a_base() -> None:
    assert API_FORM_CASES and {path for path, _ in API_FORM_CASES} == set(API_FORM_BASES)


@pytest.mark.parametrize(("path", "field"), API_FORM_CASES, ids=[f"{p} {f}" for p, f in API_FORM_CASES])
def test_an_api_form_field_refused_is_named(client: TestClient, path: str, field: str) -> None:
    """An upload's fields are named by their names (an API's, not a page's labels)."""
    upload = {"file": ("cards.csv", b"name,type\nBrand New,monster\n", "text/csv")}
    base = API_FORM_BASES[path]
    response = client.post(path, data={**base, field: BOGUS}, files=upload)
    assert 400 <= response.status_code < 500, response.text[:300]
    error_of(response)
    assert _named(field, response.json()["error"]), response.json()
    assert client.post(path, data=base, files=upload).status_code < 300


@pytest.mark.parametrize(
    ("name", "path", "label"),
    [
        ("count", "/collection/card", "I own"),  # the card page's form
        ("count", "/decks/5/cards", "count"),  # the builder's: no label of its own, not the card page's
        ("name", "/decks/new", "Save as"),
        ("name", "/decks", "Name"),
        ("add", "/cards/mea/demo/crumb-goblin/tags", "Add tags"),
        ("add", "/decks/5/tags", "Tags"),  # the label's words behind its screen reader's span
        ("name", "/decks/5/rename", "New name"),  # "New name for {{ d.name }}": up to the deck's name
        ("text", "/decks/import", "Deck text, JSON or share code"),  # <label for>; not the replay page's
        ("text", "/decks/5/edit", "The deck as text"),
        ("text", "/collection/import", "List"),
    ],
)
def test_a_form_field_is_labelled_as_the_page_that_posts_it(name: str, path: str, label: str) -> None:
    from cardbase.web.errors import form_label

    assert form_label(name, path) == label


def test_a_builder_count_refused_is_named_as_its_form_names_it(client: TestClient) -> None:
    deck = new_deck(client, "Counted")
    response = client.post(f"/decks/{deck}/cards", data={"card": CARD, "op": "set", "count": "1000"})
    assert response.status_code == 400
    assert "Invalid value for 'count': count must be a whole number" in html.unescape(response.text)


def test_a_body_nested_as_deep_as_json_reads_is_walked_without_recursion() -> None:
    """The body's values are walked for their paths without recursion: a body JSON reads (nested
    900 deep) is no RecursionError in the app-wide dependency (a 500)."""
    import json

    from cardbase.web.errors import flat_fields

    depth = 900
    assert flat_fields(json.loads("[" * depth + "1" + "]" * depth)) == {"[0]" * depth: 1}
    assert flat_fields(json.loads('{"a":' * depth + "1" + "}" * depth)) == {".".join(["a"] * depth): 1}
