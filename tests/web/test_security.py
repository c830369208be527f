"""Host (DNS rebinding), Origin (CSRF), token, no CORS, body bounds, escaping, and errors that
never show a traceback or the token; the server keeps serving after each."""

from __future__ import annotations

import os

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import MakeClient, error_of, new_deck

TOKEN = "s3cret-token-for-tests-0123456789"


# --- Host ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "host",
    ["evil.example:8765", "evil.example", "127.0.0.1:9999", "127.0.0.1", "127.0.0.1.evil.example:8765", "", "[::1"],
)
def test_a_host_that_is_not_the_served_address_is_refused(client: TestClient, host: str) -> None:
    api = client.get("/healthz", headers={"Host": host})
    assert api.status_code == 400 and "is not the address this server serves" in error_of(api)
    page = client.get("/", headers={"Host": host})
    assert page.status_code == 400 and "text/html" in page.headers["content-type"]
    assert "is not the address this server serves" in page.text
    assert client.get("/healthz").status_code == 200  # and the server keeps serving


@pytest.mark.parametrize("host", ["127.0.0.1:8765", "localhost:8765", "[::1]:8765", "LOCALHOST:8765"])
def test_loopback_names_are_the_served_address(client: TestClient, host: str) -> None:
    assert client.get("/healthz", headers={"Host": host}).status_code == 200


def test_every_interface_takes_ip_addresses_and_this_machines_names(make_client: MakeClient) -> None:
    import socket

    client = make_client(host="0.0.0.0", token=TOKEN)
    auth = {"Authorization": f"Bearer {TOKEN}"}
    for host in ("192.168.1.20:8765", "10.0.0.2:8765", f"{socket.gethostname()}:8765"):
        assert client.get("/healthz", headers={"Host": host} | auth).status_code == 200, host
    assert client.get("/healthz", headers={"Host": "rebound.example:8765"} | auth).status_code == 400


def test_one_address_takes_that_address_only(make_client: MakeClient) -> None:
    client = make_client(host="192.168.1.20", token=TOKEN)
    auth = {"Authorization": f"Bearer {TOKEN}"}
    assert client.get("/healthz", headers={"Host": "192.168.1.20:8765"} | auth).status_code == 200
    assert client.get("/healthz", headers={"Host": "192.168.1.21:8765"} | auth).status_code == 400


# --- Origin (CSRF) and CORS ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://evil.example"},
        {"Origin": "http://127.0.0.1:9999"},
        {"Origin": "https://127.0.0.1:8765"},
        {"Origin": "null"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
    ],
)
def test_a_change_from_another_site_is_refused(client: TestClient, headers: dict[str, str]) -> None:
    made = client.post("/api/decks", json={"game": "mea", "name": "CSRF"}, headers=headers)
    assert made.status_code == 403 and "refused" in error_of(made)
    deck_id = new_deck(client)
    for method in ("PATCH", "DELETE"):
        response = client.request(method, f"/api/decks/{deck_id}", json={"name": "X"}, headers=headers)
        assert response.status_code == 403, method
    assert [d["name"] for d in client.get("/api/decks", headers=headers).json()] == ["Rush"]  # reads are fine


def test_a_change_from_this_server_or_a_non_browser_client_is_allowed(client: TestClient) -> None:
    same = client.post(
        "/api/decks",
        json={"game": "mea", "name": "A"},
        headers={"Origin": "http://127.0.0.1:8765", "Sec-Fetch-Site": "same-origin"},
    )
    assert same.status_code == 201
    assert client.post("/api/decks", json={"game": "mea", "name": "B"}).status_code == 201  # curl: no Origin


def test_no_cors(client: TestClient) -> None:
    response = client.get("/api/cards", params={"limit": 1}, headers={"Origin": "http://evil.example"})
    assert not [h for h in response.headers if h.lower().startswith("access-control-")]
    preflight = client.options(
        "/api/decks", headers={"Origin": "http://evil.example", "Access-Control-Request-Method": "POST"}
    )
    assert preflight.status_code in (403, 405)
    assert not [h for h in preflight.headers if h.lower().startswith("access-control-")]
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["x-frame-options"] == "DENY"
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy and "unsafe" not in policy


# --- token ----------------------------------------------------------------------------------------


@pytest.fixture
def guarded(make_client: MakeClient) -> TestClient:
    """A server bound off loopback, with its token."""
    return make_client(host="192.168.1.20", token=TOKEN)


def _no_token_anywhere(response: object) -> None:
    text = getattr(response, "text", "")
    assert TOKEN not in text
    assert TOKEN not in str(getattr(response, "headers", {}).get("location", ""))


@pytest.mark.parametrize("path", ["/healthz", "/api/cards", "/", "/static/cardbase.css", "/api/docs"])
def test_every_request_needs_the_token(guarded: TestClient, path: str) -> None:
    missing = guarded.get(path)
    assert missing.status_code == 401 and missing.headers["www-authenticate"] == "Bearer"
    assert "needs its token" in missing.text
    wrong = guarded.get(path, headers={"Authorization": "Bearer wrong-token"})
    assert wrong.status_code == 401 and "a wrong token" in wrong.text
    _no_token_anywhere(wrong)
    assert guarded.get(path, headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200


def test_the_printed_link_sets_a_strict_cookie_and_drops_the_token(guarded: TestClient) -> None:
    opened = guarded.get(f"/cards?q=goblin&token={TOKEN}", follow_redirects=False)
    assert opened.status_code == 200
    cookie = opened.headers["set-cookie"].lower()
    assert "cardbase_token=" in cookie and "httponly" in cookie and "samesite=strict" in cookie and "path=/" in cookie
    assert 'content="0;url=/cards?q=goblin"' in opened.text and TOKEN not in opened.text
    assert opened.headers["cache-control"] == "no-store" and opened.headers["referrer-policy"] == "no-referrer"
    assert guarded.get("/healthz").status_code == 200  # the client keeps the cookie
    bad_link = guarded.get("/?token=guess", follow_redirects=False)
    assert bad_link.status_code == 401 and "token is wrong" in bad_link.text


def test_a_cookie_alone_needs_the_pages_origin_to_change_anything(guarded: TestClient) -> None:
    guarded.get(f"/?token={TOKEN}")
    body = {"game": "mea", "name": "By cookie"}
    refused = guarded.post("/api/decks", json=body)
    assert refused.status_code == 403 and "without Origin" in error_of(refused)
    same_origin = guarded.post("/api/decks", json=body, headers={"Origin": "http://192.168.1.20:8765"})
    assert same_origin.status_code == 201
    fetch_marked = guarded.post("/api/decks", json=body | {"name": "Two"}, headers={"Sec-Fetch-Site": "same-origin"})
    assert fetch_marked.status_code == 201


def test_a_bearer_client_may_change_without_origin(guarded: TestClient) -> None:
    auth = {"Authorization": f"Bearer {TOKEN}"}
    made = guarded.post("/api/decks", json={"game": "mea", "name": "Script"}, headers=auth)
    assert made.status_code == 201


def test_loopback_needs_no_token_unless_one_is_given(make_client: MakeClient) -> None:
    assert make_client().get("/healthz").status_code == 200
    with_token = make_client(token=TOKEN)
    assert with_token.get("/healthz").status_code == 401
    assert with_token.get("/healthz", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200


def test_errors_never_echo_the_token(guarded: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    auth = {"Authorization": f"Bearer {TOKEN}"}
    bad = guarded.get("/api/cards", params={"q": f"cost<{TOKEN}"}, headers=auth)
    assert bad.status_code == 400 and TOKEN not in bad.text and "***" in bad.text

    import cardbase.decks.store as store

    def crash(_database: object) -> None:
        raise RuntimeError(f"boom {TOKEN}")

    monkeypatch.setattr(store, "list_decks", crash)
    crashed = guarded.get("/api/decks", headers=auth)
    assert crashed.status_code == 500 and TOKEN not in crashed.text
    import re
    import tempfile

    crash_file = re.search(r"the traceback is in …/(\S+\.txt)", crashed.text)  # off loopback: not its folder
    assert crash_file is not None
    with open(os.path.join(tempfile.gettempdir(), crash_file.group(1)), encoding="utf-8") as written:
        kept = written.read()
    assert "RuntimeError: boom ***" in kept and TOKEN not in kept  # the file a user is asked to send


# --- errors, bounds, escaping ---------------------------------------------------------------------


def test_a_bug_is_one_line_naming_its_crash_file_and_the_server_keeps_serving(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import re

    import cardbase.decks.store as store

    def crash(_database: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(store, "list_decks", crash)
    response = client.get("/api/decks")
    assert response.status_code == 500
    message = error_of(response)
    found = re.search(r"the traceback is in (\S+cardbase-crash-\S+\.txt)", message)
    assert message.startswith("internal error: RuntimeError: a bug (a bug in cardbase;") and found
    with open(found.group(1), encoding="utf-8") as crash_file:
        assert "Traceback" in crash_file.read()
    assert "Traceback" not in capsys.readouterr().err
    monkeypatch.undo()
    assert client.get("/api/decks").status_code == 200


def test_bodies_are_bounded(client: TestClient) -> None:
    big = b'{"game": "mea", "name": "' + b"x" * 1_100_000 + b'"}'
    declared = client.post("/api/decks", content=big, headers={"content-type": "application/json"})
    assert declared.status_code == 413 and "1,065,536 bytes" in error_of(declared)

    def chunks() -> object:
        for _ in range(20):
            yield b"x" * 100_000

    streamed = client.post("/api/decks", content=chunks(), headers={"content-type": "application/json"})
    assert streamed.status_code == 413
    assert client.get("/healthz").status_code == 200


def test_an_imported_name_is_escaped_in_html(client: TestClient) -> None:
    from fastapi import Request

    from cardbase.web.errors import error_response

    evil = "<img src=x onerror=alert(1)>"
    imported = client.post(
        "/api/catalog/import",
        data={"game": "mea"},
        files={"file": ("evil.csv", f"name,type,cost\n{evil},monster,2\n".encode())},
    )
    assert imported.status_code == 200, imported.text
    card = client.get("/api/cards", params={"q": "onerror"}).json()[0]
    assert card["name"] == evil  # stored as typed
    deck_id = new_deck(client, "Meikyu", "meikyu")
    refused = client.post(f"/api/decks/{deck_id}/cards", json={"card": card["id"]})
    message = error_of(refused)
    assert evil in message  # JSON carries it as data (application/json, nosniff)
    assert refused.headers["content-type"] == "application/json"
    scope = {"type": "http", "method": "GET", "path": "/decks", "headers": [], "query_string": b"", "app": client.app}
    page = error_response(Request(scope), "/decks", 400, message)
    html = bytes(page.body).decode()
    assert evil not in html and "&lt;img src=x onerror=alert(1)&gt;" in html


def test_a_crash_quoting_request_text_is_logged_as_text(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The server's log line of a bug shows the request's text (here a query value the error quotes)
    with its ESC sequences and bidi override as visible escapes: nothing for the terminal to act on."""
    from urllib.parse import quote

    import cardbase.decks.service as service

    def crash(_resolved: object, format: str | None, _house: object) -> None:
        raise RuntimeError(f"no format {format}")

    deck_id = new_deck(client)
    monkeypatch.setattr(service, "validate_resolved", crash)
    hostile = "\x1b]0;owned\x07\x1b[2J[bold]x\u202eGNP\x9b31m"
    response = client.get(f"/api/decks/{deck_id}?format={quote(hostile)}")
    assert response.status_code == 500
    logged = [line for line in capsys.readouterr().err.splitlines() if "internal error" in line]
    assert len(logged) == 1, logged
    line = logged[0]
    assert line.startswith("cardbase: internal error: RuntimeError: no format ")
    assert "\\x1b]0;owned\\x07\\x1b[2J[bold]x\\u202eGNP\\x9b31m" in line, line
    assert not any(c in line for c in "\x1b\x07\u202e\x9b"), repr(line)
