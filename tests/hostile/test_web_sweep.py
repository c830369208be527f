"""Every route of the web app (walked from the app: a new one is swept too) under a hostile user's
requests: path parameters that are huge, negative, zero, non-ASCII, 10 kB long or percent-encoded
NUL, CR, LF and ``..%2f``; query parameters repeated, empty, 100 kB long, unknown or of the wrong
kind; JSON bodies that are no object, nested 10,000 deep, with a key given twice, NaN, 1e400, huge
integers or lone surrogates, of the wrong content type, empty, or over the body's bound; forms with
fields missing, given twice or oversized; junk ``If-Match`` and ``If-None-Match``; odd ``Accept``.

Each answer is checked as a person or a script reads it (``answered_well``): never 5xx, never a
traceback or a Python repr, a refusal worded in the API's JSON error shape or on the error page,
with the status the API's conventions give it (``cardbase.web.errors.status_of``: 400 a bad
request, 404 nothing there, 413 too large, …); and a refused request changes nothing (the whole
database dumped before and after). A body whose Content-Length lies is sent to a real server
(``test_a_body_shorter_or_longer_than_its_content_length_changes_nothing``)."""

from __future__ import annotations

import html
import json
import os
import re
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from fastapi.testclient import TestClient

from cardbase.db.engine import Database
from cardbase.web.app import create_app
from cardbase.web.errors import wants_json
from cardbase.web.http import LIST_FIELDS, _body_reading
from cardbase.web.security import RAW_BODY_PATHS, body_bound
from cardbase.web.settings import ServerSettings
from tests.hostile.conftest import Dump, db_dump
from tests.web.conftest import api_routes

CARD = "mea/demo/crumb-goblin"
HUGE = str(2**70)

ROUTES = api_routes(create_app(ServerSettings(database=None)))
ROUTE_IDS = [f"{sorted(r.methods)[0]} {r.path}" for r in ROUTES]

REFUSALS = frozenset({400, 404, 405, 409, 412, 413, 415, 422})
"""The statuses a refusal of a client's input takes (``cardbase.web.errors.status_of``)."""

REPRS = re.compile(
    r"Traceback|File \"|<[\w.]+ object at 0x|<class '|\{'type': '|'loc': \(|errors\.pydantic\.dev|"
    r"\b(?:ValueError|KeyError|TypeError|AttributeError|RecursionError|OverflowError|UnicodeEncodeError)\b"
)
"""What a Python traceback or repr, never a worded message, looks like."""


class Sweep:
    """A client over a database holding a deck, an edited card and a game, the values that name them,
    and the problems found so far (every case is tried; the test fails listing them all)."""

    def __init__(self, client: TestClient, url: str, fill: dict[str, str]) -> None:
        self.client = client
        self.url = url
        self.fill = fill
        self.problems: list[str] = []
        self.dump: Dump = db_dump(url)

    def send(self, what: str, method: str, url: str, expect: frozenset[int] | None = None, **kw: Any) -> Any:
        """Send one request; note each way its answer falls short (``expect``: the statuses it may have)."""
        kw.setdefault("follow_redirects", False)
        response = self.client.request(method, url, **kw) if len(url) < 60_000 else self.raw(method, url)
        path = url.partition("?")[0]
        problem = answered_well(response, path, expect)
        after = db_dump(self.url)
        if problem is None and response.status_code >= 400 and after != self.dump:
            problem = f"{response.status_code} but the database changed: {changed_tables(self.dump, after)}"
        self.dump = after
        if problem is not None:
            self.problems.append(f"{what}: {method} {url[:120]} -> {problem}")
        return response

    def raw(self, method: str, url: str) -> Any:
        """``url`` sent to the app as an ASGI call (httpx sends no address over 64 kB; a server would take one)."""
        import httpx

        path, _, query = url.partition("?")
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": unquote(path),
            "raw_path": path.encode(),
            "query_string": query.encode(),
            "root_path": "",
            "headers": [(b"host", self.client.base_url.netloc)],
            "client": ("127.0.0.1", 50000),
            "server": ("127.0.0.1", 8765),
        }
        sent: list[dict[str, Any]] = []

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        self.client.portal.call(self.client.app, scope, receive, send)
        start = next(m for m in sent if m["type"] == "http.response.start")
        body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
        headers = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in start["headers"]]
        return httpx.Response(start["status"], headers=headers, content=body)


def changed_tables(before: Dump, after: Dump) -> list[str]:
    return [name for name in sorted(set(before) | set(after)) if before.get(name) != after.get(name)]


def answered_well(response: Any, path: str, expect: frozenset[int] | None) -> str | None:
    """Why ``response`` is not a good answer to a hostile request to ``path`` (None when it is)."""
    status = response.status_code
    text = response.content.decode("utf-8", "replace")
    said = f"{status} {text[:200]!r}"
    if status >= 500:
        return said
    if expect is not None and status not in expect:
        return f"not {sorted(expect)}: {said}"
    if REPRS.search(text) and not response.headers.get("content-type", "").startswith(("image/", "application/pdf")):
        return f"a traceback or a Python repr: {REPRS.search(text)!r} in {said}"
    if status < 400:
        return None
    if status not in REFUSALS and status not in (401, 403):
        return f"not a refusal's status: {said}"
    kind = response.headers.get("content-type", "")
    if wants_json(path):
        if not kind.startswith("application/json"):
            return f"not the API's JSON error: {kind} {said}"
        body = response.json()
        message = body.get("error", {}).get("message") if isinstance(body, dict) else None
        if set(body) != {"error"} or not isinstance(message, str) or "\n" in message:
            return f"not the API's error shape: {said}"
        if not worded(message):
            return f"not a worded message: {said}"
        return None
    alert = re.search(r'role="alert"[^>]*>(.*?)</(?:p|div)>', text, re.S)  # the error page's, or a form's
    if not kind.startswith("text/html") or alert is None:
        return f"not the error page nor a form showing its refusal: {kind} {said}"
    if not worded(html.unescape(re.sub(r"<[^>]+>", " ", alert.group(1)))):
        return f"not a worded message on the page: {said}"
    return None


def worded(message: str) -> bool:
    """A message in words (``unknown card '0'``, ``count: is required``), not a code or a bare value."""
    return len(re.findall(r"[^\W\d_]{2,}", message)) >= 2


def populate(client: Any) -> dict[str, str]:
    """A deck with cards, an edited card and a game of two people, through ``client`` (a test client or
    an ``httpx.Client`` of a live server): the values of the path parameters that name them."""
    deck = client.post("/api/decks", json={"game": "mea", "name": "Swept"}).json()["id"]
    assert client.post(f"/api/decks/{deck}/cards", json={"card": CARD, "count": 2}).status_code == 200
    assert client.patch(f"/api/cards/{CARD}", json={"values": {"text": "Edited."}}).status_code == 200
    edit = client.get(f"/api/cards/{CARD}/history").json()["edits"][0]["id"]
    humans = {"game": "meio", "seats": [{"agent": "human"}, {"agent": "human"}]}  # no agent moves meanwhile
    made = client.post("/api/games", json=humans)
    assert made.status_code == 201, made.text
    game, set_code, slug = CARD.split("/")
    fill = {"deck_id": str(deck), "deck_text_id": str(deck), "card_id": CARD, "game": game}
    fill |= {"set_code": set_code, "slug": slug, "edit_id": str(edit), "number": "1", "a": "1", "b": "1"}
    return fill | {"game_id": str(made.json()["id"]), "fmt": "csv", "kind": "txt", "key": "x"}


@pytest.fixture
def sweep(database: Database, db_url: str, tmp_path: Path) -> Iterator[Sweep]:
    settings = ServerSettings(database=database, images=tmp_path / "card_images", lock_wait=2)
    with TestClient(create_app(settings), base_url=settings.base_url, raise_server_exceptions=False) as client:
        yield Sweep(client, db_url, populate(client))


def concrete(path: str, fill: dict[str, str]) -> str:
    return re.sub(r"\{(\w+)(?::path)?\}", lambda m: fill[m.group(1)], path)


# --- path and query parameters ----------------------------------------------------------------------

ODD_PATH = {
    "2**70": HUGE,
    "negative": "-1",
    "zero": "0",
    "non-ASCII": "%C3%A9p%C3%A9e-%E5%8B%87%E8%80%85",
    "10 kB": "7" * 10_000,
    "10 kB of letters": "x" * 10_000,
    "NUL": "1%00",
    "CR LF": "1%0D%0ASet-Cookie:%20a=b",
    "LF": "%0A",
    "dot dot slash": "..%2f..%2fetc%2fpasswd",
}
"""Values put in one path parameter (the others naming real things): each is no deck, card, game, edit
or version there is (404), or no value of its kind (400)."""


def route_of(route_id: str) -> Any:
    return ROUTES[ROUTE_IDS.index(route_id)]


def params_of(route: Any) -> tuple[list[str], dict[str, Any]]:
    """``route``'s path parameters, and its query parameters (its dependencies' too) by name."""
    from cardbase.web.http import _dependants

    query: dict[str, Any] = {}
    for dependant in _dependants(route):
        for field in dependant.query_params:
            query[field.alias] = field.field_info.annotation
    return [p.alias for p in route.dependant.path_params], query


ABSURD_WHOLE = {
    "-1": "-1",
    "1e308": "1e308",
    "NaN": "nan",
    "infinity": "inf",
    "1_000": "1_000",
    "padded": "%20%205%20",
    "Arabic-Indic 3": "%D9%A3",
    "full-width 1": "%EF%BC%91",
    "--5": "--5",
}
"""Values no whole-number query parameter takes (negative, or not ASCII digits; past any bound is 2**70)."""


@pytest.mark.parametrize("route_id", ROUTE_IDS)
def test_odd_path_and_query_parameters(route_id: str, sweep: Sweep) -> None:
    route = route_of(route_id)
    method = sorted(route.methods)[0]
    if route.path.endswith("/events"):
        pytest.skip("an event stream stays open: its parameters are in tests/hostile/test_web.py")
    path_params, query_params = params_of(route)
    for name in path_params:
        for what, odd in ODD_PATH.items():
            url = concrete(route.path, {**sweep.fill, name: odd})
            expect = frozenset({400, 404} | ({405} if "%2f" in odd else set()))  # another route's path: GET only
            sweep.send(f"path {name} {what}", method, url, expect)
    url = concrete(route.path, sweep.fill)
    for name, annotation in query_params.items():
        whole = "int" in repr(annotation) and "bool" not in repr(annotation)
        repeated = None if name in LIST_FIELDS else frozenset({400})
        sweep.send(f"query {name} repeated", method, f"{url}?{name}=1&{name}=2", repeated)
        sweep.send(f"query {name} empty", method, f"{url}?{name}=")
        sweep.send(f"query {name} 100 kB", method, f"{url}?{name}={'y' * 100_000}", frozenset({400, 413}))
        sweep.send(f"query {name} wrong type", method, f"{url}?{name}=%C3%A9x", frozenset({400}) if whole else None)
        if whole:
            sweep.send(f"query {name} 2**70", method, f"{url}?{name}={HUGE}", frozenset({400}))
            for what, absurd in ABSURD_WHOLE.items():
                sweep.send(f"query {name} {what}", method, f"{url}?{name}={absurd}", frozenset({400}))
    unknown = frozenset({400}) if route.path.startswith("/api/") else None  # a page's address may carry others
    sweep.send("query unknown", method, f"{url}?zz_unknown=1", unknown)
    assert not sweep.problems, "\n".join(sweep.problems)


# --- bodies -----------------------------------------------------------------------------------------

CHANGES = [r for r in ROUTES if r.methods & {"POST", "PUT", "PATCH", "DELETE"}]
JSON_ROUTE_IDS = [f"{sorted(r.methods)[0]} {r.path}" for r in CHANGES if _body_reading(r) == "json"]
FORM_ROUTE_IDS = [f"{sorted(r.methods)[0]} {r.path}" for r in CHANGES if _body_reading(r) == "form"]
JSON = {"content-type": "application/json"}


def base_json(method: str, path: str) -> dict[str, Any]:
    from tests.web.test_named_body_fields import JSON_BASES

    return dict(JSON_BASES.get((method, path), {"action": "pass"}))


def json_cases(base: dict[str, Any]) -> Iterator[tuple[str, bytes, frozenset[int]]]:
    """(what, body, the statuses it may have): a JSON body read as JSON reads it would be refused (400)."""
    bad = frozenset({400})
    for what, body in [
        ("a list", b"[]"),
        ("a text", b'"x"'),
        ("a number", b"1"),
        ("null", b"null"),
        ("true", b"true"),
        ("nested 10,000 deep in lists", b"[" * 10_000 + b"]" * 10_000),
        ("nested 10,000 deep in objects", b'{"a":' * 10_000 + b"1" + b"}" * 10_000),
        ("empty", b""),
        ("cut short", json.dumps(base).encode()[:-1]),
        ("not UTF-8", b'{"name": "Cr\xe8me"}'),
    ]:
        yield what, body, bad
    given = [(name, json.dumps(value)) for name, value in base.items()]
    for name in base or {"name": ""}:
        yield f"{name} twice", object_text([*given, (name, json.dumps(base.get(name)))]), bad
        for what, value in [
            ("NaN", "NaN"),
            ("Infinity", "Infinity"),
            ("-Infinity", "-Infinity"),
            ("1e400", "1e400"),
            ("2**70", HUGE),
            ("-(2**70)", "-" + HUGE),
            ("a lone surrogate", '"\\ud800"'),
            ("a lone surrogate in a list", '["\\udfff"]'),
        ]:
            yield f"{name} {what}", object_text([*((k, v) for k, v in given if k != name), (name, value)]), bad


def object_text(pairs: list[tuple[str, str]]) -> bytes:
    """A JSON object of ``pairs`` (a name, its value as JSON text: ``NaN`` too), a name given twice if so."""
    return ("{" + ", ".join(f"{json.dumps(name)}: {value}" for name, value in pairs) + "}").encode()


@pytest.mark.parametrize("route_id", JSON_ROUTE_IDS)
def test_odd_json_bodies(route_id: str, sweep: Sweep) -> None:
    method, path = route_id.split(" ", 1)
    url = concrete(path, sweep.fill)
    base = base_json(method, path)
    optional = not route_of(route_id).body_field.field_info.is_required()  # null or no body at all: no body, taken
    for what, body, expect in json_cases(base):
        if optional and body in (b"", b"null"):
            expect = frozenset({200, 201})
        sweep.send(what, method, url, expect, content=body, headers=JSON)
    sent = json.dumps(base).encode()
    for kind in ("text/plain", "application/xml", "application/x-www-form-urlencoded", "multipart/form-data"):
        sweep.send(f"as {kind}", method, url, frozenset({415}), content=sent, headers={"content-type": kind})
    over = b'{"name": "' + b"x" * body_bound(url) + b'"}'
    sweep.send("over the body's bound", method, url, frozenset({413}), content=over, headers=JSON)
    assert not sweep.problems, "\n".join(sweep.problems)


def form_case(sweep: Sweep, path: str) -> tuple[str, dict[str, str], dict[str, Any]]:
    """The address of form route ``path`` and a form it takes (its texts, its files), as
    tests/web/test_named_body_fields.py fills them; the database's dump taken again after."""
    from tests.web.test_named_body_fields import FILES, FORM_BASES, _form_setup

    base = FORM_BASES.get(path, {"game": "mea", "players": "2", "seat0": "human", "seat1": "human"})
    fill, contents = _form_setup(sweep.client, '{"cardbase_record": 1}\n', path)
    if path == "/play/{game_id}/act":  # its game's other seats are agents, which move while the sweep runs
        from tests.web.test_named_body_fields import _play_form

        humans = {"game": "meio", "players": "2", "seat0": "human", "seat1": "human", "hotseat": "1"}
        fill["game_id"], seat, fill["play_version"] = _play_form(sweep.client, humans)
        base = {**base, "seat": seat}
    texts = {k: v.format(**fill) for k, v in base.items() if v not in FILES}
    files = {k: (FILES[v][0], contents[v], FILES[v][1]) for k, v in base.items() if v in FILES}
    sweep.dump = db_dump(sweep.url)
    return concrete(path, fill), texts, files


def urlencoded(pairs: list[tuple[str, str]]) -> bytes:
    from urllib.parse import urlencode

    return urlencode(pairs).encode()


FORM = {"content-type": "application/x-www-form-urlencoded"}


@pytest.mark.parametrize("route_id", FORM_ROUTE_IDS)
def test_odd_forms(route_id: str, sweep: Sweep) -> None:
    """Fields missing, given twice, oversized; the whole form over its bound; the form sent as JSON."""
    method, path = route_id.split(" ", 1)
    url, texts, files = form_case(sweep, path)
    bound = body_bound(url)
    if not files:
        sweep.send("no field", method, url, None, content=b"", headers=FORM)
        for name in texts:
            rest = [(k, v) for k, v in texts.items() if k != name]
            required = frozenset({400}) if name == "card" else None  # no card asked for: not "unknown card ''"
            sweep.send(f"{name} missing", method, url, required, content=urlencoded(rest), headers=FORM)
            twice = None if name in LIST_FIELDS else frozenset({400})
            doubled = urlencoded([*texts.items(), (name, texts[name])])
            sweep.send(f"{name} twice", method, url, twice, content=doubled, headers=FORM)
            big = [*rest, (name, "z" * 200_000)]
            sweep.send(f"{name} of 200 kB", method, url, None, content=urlencoded(big), headers=FORM)
            over = urlencoded([*rest, (name, "z" * bound)])
            sweep.send(f"{name} over the body's bound", method, url, frozenset({413}), content=over, headers=FORM)
        sweep.send("as JSON", method, url, frozenset({415}), json=texts)
    else:
        for name in texts:
            rest = {k: v for k, v in texts.items() if k != name}
            sweep.send(f"{name} missing", method, url, None, data=rest, files=files)
            sweep.send(f"{name} of 200 kB", method, url, None, data={**rest, name: "z" * 200_000}, files=files)
        for name, (filename, content, kind) in files.items():
            others = {k: v for k, v in files.items() if k != name}
            sweep.send(f"file {name} missing", method, url, None, data=texts, files=others or None)
            twice = [*((k, v) for k, v in files.items()), (name, (filename, content, kind))]
            sweep.send(f"file {name} twice", method, url, frozenset({400}), data=texts, files=twice)
            empty = {**files, name: (filename, b"", kind)}
            sweep.send(f"file {name} empty", method, url, None, data=texts, files=empty)
        over = {**files, next(iter(files)): ("big.bin", b"z" * bound, "application/octet-stream")}
        sweep.send("a file over the body's bound", method, url, frozenset({413}), data=texts, files=over)
        sweep.send("as JSON", method, url, frozenset({415}), json=texts)
    assert not sweep.problems, "\n".join(sweep.problems)


# --- headers ----------------------------------------------------------------------------------------

JUNK_TAGS = ['"', "junk", 'W/"deck-1-v1"', f'"deck-1-v{HUGE}"', '"deck-1-v-1"', ", ".join(['"x"'] * 1000), "*, junk"]
ODD_ACCEPT = ["application/xml", "text/html;q=abc", "*/*;q=0", "image/png", "", "é/é".encode().decode("latin-1")]


@pytest.mark.parametrize("route_id", ROUTE_IDS)
def test_junk_versions_and_odd_accept_headers(route_id: str, sweep: Sweep) -> None:
    """A change whose If-Match names no version of the thing is 412 (or a refusal of its body); junk
    If-None-Match and odd Accept headers are read past (nothing is cached by tag, one format each)."""
    route = route_of(route_id)
    method = sorted(route.methods)[0]
    if route.path.endswith("/events"):
        pytest.skip("an event stream stays open")
    url = concrete(route.path, sweep.fill)
    body: dict[str, Any] = {}
    if _body_reading(route) == "json":
        body = {"json": base_json(method, route.path)}
    for n, tag in enumerate(JUNK_TAGS):  # each junk tag as If-Match and as If-None-Match, with an odd Accept
        headers = {"If-Match": tag, "If-None-Match": JUNK_TAGS[-1 - n], "Accept": ODD_ACCEPT[n % len(ODD_ACCEPT)]}
        sent = {name: value.encode("latin-1") for name, value in headers.items()}
        sweep.send(f"junk headers {headers}"[:80], method, url, None, headers=sent, **body)
    assert not sweep.problems, "\n".join(sweep.problems)


# --- a Content-Length that lies (a real server) -----------------------------------------------------


def crash_files() -> set[str]:
    return {p.name for p in Path(os.environ.get("TMPDIR", "/tmp")).glob("cardbase-crash-*")}


def exchange(base: str, head: bytes, body: bytes) -> bytes:
    """Send ``head`` and ``body`` on one connection, close its sending side, and read all the server says."""
    host, port = base.removeprefix("http://").rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=60) as sock:
        sock.sendall(head + body)
        sock.shutdown(socket.SHUT_WR)
        got = b""
        while chunk := sock.recv(65536):
            got += chunk
        return got


def test_a_body_shorter_or_longer_than_its_content_length_changes_nothing(database: Database, db_url: str) -> None:
    """Every change route, sent a body cut short of its Content-Length (the client then gone) or one
    longer than it (the rest is no request): no crash, no 5xx, nothing stored, and the server serves on."""
    import httpx

    from tests.web.live import live_server

    with live_server(ServerSettings(database=database)) as base, httpx.Client(base_url=base, timeout=60) as http:
        fill = populate(http)
        before, crashes = db_dump(db_url), crash_files()
        host = base.removeprefix("http://").encode()
        problems = []
        for route in CHANGES:
            method = sorted(route.methods)[0]
            url = concrete(route.path, fill).encode()
            reading = _body_reading(route) or ("raw" if route.path in RAW_BODY_PATHS else None)
            if reading is None:
                continue  # a change that takes no body (a deck's deletion): it is made whatever follows
            kind = b"application/x-www-form-urlencoded" if reading == "form" else b"application/json"
            body = json.dumps(base_json(method, route.path)).encode() if reading != "form" else b"name=Cut%E2%82%AC"
            cut = len(body) - 3 if reading == "form" else len(body) // 2  # a character or the JSON cut in half
            for what, length in (("shorter", len(body) + 100), ("longer", cut)):
                head = b"%s %s HTTP/1.1\r\nHost: %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n" % (
                    method.encode(),
                    url,
                    host,
                    kind,
                    length,
                )
                answer = exchange(base, head, body)
                now = db_dump(db_url)
                if now != before:
                    # (it, or the request before: a request whose client left may end after its connection)
                    changed = changed_tables(before, now)
                    problems.append(f"{method} {route.path} body {what} changed {changed}: {answer[:300]!r}")
                    before = now
                first = answer.split(b"\r\n", 1)[0]
                if re.match(rb"HTTP/1\.1 5", first) or b"Traceback" in answer:
                    problems.append(f"{method} {route.path} body {what}: {answer[:200]!r}")
                if what == "shorter" and answer:
                    problems.append(f"{method} {route.path} body cut short was answered: {first!r}")
        assert not problems, "\n".join(problems)
        assert db_dump(db_url) == before
        made = crash_files() - crashes
        assert not made, [(Path(os.environ.get("TMPDIR", "/tmp")) / name).read_text()[-3000:] for name in made]
        assert http.get("/healthz").status_code == 200


@pytest.mark.parametrize("tags", ["*, junk", '"x", *', "*, *"])
def test_a_star_beside_other_tags_matches_no_version(tags: str, sweep: Sweep) -> None:
    """``If-Match: *`` alone is any version; with other tags it is no If-Match RFC 9110 allows, and a
    change sent with it is refused (412), not made whatever the version (it was read as ``*``)."""
    deck = sweep.fill["deck_id"]
    sweep.send(
        "star beside tags",
        "PATCH",
        f"/api/decks/{deck}",
        frozenset({412}),
        json={"name": "Renamed"},
        headers={"If-Match": tags},
    )
    sweep.send(
        "star alone",
        "PATCH",
        f"/api/decks/{deck}",
        frozenset({200}),
        json={"name": "Renamed"},
        headers={"If-Match": "*"},
    )
    assert not sweep.problems, "\n".join(sweep.problems)
