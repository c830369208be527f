"""The web app as a hostile user tries it: every route (walked from the app, so a new one is tried
too) with odd ids, paths, bodies, headers and methods; downloads of decks named in many scripts;
bad art files; the token link's reload; NUL in an address. Never a 500, never a traceback, never
an absolute path of the server in an answer. On SQLite and (with CARDBASE_TEST_POSTGRES) PostgreSQL.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from fastapi.testclient import TestClient

from cardbase.db.engine import Database
from cardbase.web.app import create_app
from cardbase.web.settings import ServerSettings
from tests.web.conftest import api_routes

REPO = Path(__file__).resolve().parents[2]
TOKEN = "hostile-token-0123456789abcdef"
CARD = "mea/demo/dizzy-bat"
BAD_ART = "mea/demo/creme-golem"  # its art file is SVG bytes named .png


@pytest.fixture
def served(database: Database, tmp_path: Path) -> Iterator[tuple[TestClient, dict[str, str]]]:
    """A client of a server open to the network (its token sent by the client) over a database with a
    deck holding a card whose art is not an image, and the values that name real things (a deck id,
    a card id). (On loopback the catalog page names the database file: the user is the server's.)"""
    images = tmp_path / "card_images"
    (images / "mea").mkdir(parents=True)
    (images / "mea" / "creme-golem.png").write_bytes(b'<svg xmlns="http://www.w3.org/2000/svg"><rect/></svg>')
    settings = ServerSettings(database=database, images=images, lock_wait=2, host="192.168.1.20", token=TOKEN)
    with TestClient(
        create_app(settings),
        base_url=settings.base_url,
        raise_server_exceptions=False,
        headers={"Authorization": f"Bearer {TOKEN}"},
    ) as client:
        made = client.post("/api/decks", json={"game": "mea", "name": "Target"})
        deck = made.json()["id"]
        for card in (CARD, BAD_ART):
            assert client.post(f"/api/decks/{deck}/cards", json={"card": card}).status_code == 200
        yield client, {"deck_id": str(deck), "deck_text_id": str(deck), "card_id": CARD, "game": "mea"}


def secrets_of(tmp_path: Path) -> list[str]:
    """Texts no answer may hold: the server's folders and a traceback."""
    return [str(tmp_path), str(REPO), "/tmp/", "site-packages", "Traceback", 'File "']


def check(response: Any, tmp_path: Path, what: str) -> None:
    """Never a 500, never a traceback or a server path; an API error is the one JSON shape."""
    assert response.status_code < 500 or response.status_code == 503, (
        f"{what}: {response.status_code} {response.text[:300]}"
    )
    assert response.status_code != 503, f"{what}: 503 with a healthy database: {response.text[:300]}"
    text = response.content.decode("utf-8", "replace")
    for secret in secrets_of(tmp_path):
        assert secret not in text, f"{what}: answer holds {secret!r}: {text[:300]}"
    is_json = response.headers.get("content-type", "").startswith("application/json")
    if response.status_code >= 400 and is_json and response.request.method != "HEAD":
        body = response.json()
        assert set(body) == {"error"} and isinstance(body["error"]["message"], str), f"{what}: {body}"
        assert "\n" not in body["error"]["message"], what


ODD = [
    "0",
    "-1",
    "1.5",
    "2147483648",
    "99999999999999999999999",
    "1e3",
    "abc",
    "勇者の山札",
    "🐉",
    "..%2F..%2Fetc%2Fpasswd",
    "%2e%2e",
    "%252e",
    "%ff%fe",
    "%",
    "%20",
    "1;DROP TABLE deck",
    "<script>alert(1)</script>",
    "x" * 3000,
    "mea/demo/../../x",
    "%00",
    "1%00",
]
"""Values put where a route takes an id, a name or a path."""


def concrete(path: str, fill: dict[str, str], odd: str | None = None) -> str:
    """``path`` with each ``{param}`` given ``odd`` (or the real value of ``fill``)."""
    return re.sub(r"\{(\w+)(?::path)?\}", lambda m: odd if odd is not None else fill.get(m.group(1), "1"), path)


def route_ids() -> list[str]:
    app = create_app(ServerSettings(database=None))
    return [f"{'|'.join(sorted(r.methods))} {r.path}" for r in api_routes(app)]


ROUTES = route_ids()


@pytest.mark.parametrize("route", ROUTES)
def test_every_route_with_odd_ids_and_methods(
    route: str, served: tuple[TestClient, dict[str, str]], tmp_path: Path
) -> None:
    client, fill = served
    methods, path = route.split(" ", 1)
    method = methods.split("|")[0]
    for odd in ODD if "{" in path else [None]:
        url = concrete(path, fill, odd)
        for verb in {method, "GET"}:
            check(client.request(verb, url), tmp_path, f"{verb} {url[:80]}")
    url = concrete(path, fill)
    for verb in ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"):
        check(client.request(verb, url), tmp_path, f"{verb} {url}")
    for query in ("?q=%00", "?q=" + "(" * 500, "?format=" + "x" * 5000, "?page=-1", "?limit=0&offset=-5", "?w=0"):
        check(client.request(method, url + query), tmp_path, f"{method} {url}{query[:40]}")


ALONE = [
    "",
    "-1",
    "0",
    "99999999999999999999999",
    "9223372036854775808",
    "NaN",
    "1e309",
    "%00",
    "%ff",
    "x" * 3000,
    "1" * 5000,
]
"""Values given to one parameter at a time (the others naming real things); 5,000 digits is past what
``int()`` converts."""

UNDECLARED = ("page", "q", "game", "done", "seat", "key", "w", "format")
"""Query parameters some pages read without declaring them (``request.query_params``)."""


def route_params(path: str) -> tuple[list[str], list[str]]:
    """The path and query parameter names of the route at ``path`` (from the app, so a new one is tried too)."""
    app = create_app(ServerSettings(database=None))
    for route in api_routes(app):
        if route.path == path:
            return [p.alias for p in route.dependant.path_params], [p.alias for p in route.dependant.query_params]
    raise AssertionError(path)


@pytest.mark.parametrize("route", ROUTES)
def test_every_parameter_alone_with_odd_values(
    route: str, served: tuple[TestClient, dict[str, str]], tmp_path: Path
) -> None:
    """Each path and query parameter given odd values while every other one names a real thing: a
    parameter read only once the others have found their card, deck or game (an edit id after a real
    card, a number after a real deck) is reached too — an odd value everywhere stops at the first."""
    client, fill = served
    game, set_code, slug = CARD.split("/")
    made = client.post("/api/games", json={"game": "meio", "players": 2})
    real = {**fill, "set_code": set_code, "slug": slug, "game_id": made.json().get("id", "1"), "edit_id": "1"}
    real["game"] = game
    methods, path = route.split(" ", 1)
    method = methods.split("|")[0]
    path_params, query_params = route_params(path)
    for name in path_params:
        for odd in ALONE:
            url = concrete(path, {**real, name: odd})
            check(client.request(method, url), tmp_path, f"{method} {url[:100]}")
    if path.endswith("/events"):
        return  # with a real game and a seat, an event stream that stays open (its odd ids are tried above)
    url = concrete(path, real)
    for name in dict.fromkeys([*query_params, *UNDECLARED]):
        for odd in ALONE:
            check(client.request(method, f"{url}?{name}={odd}"), tmp_path, f"{method} {url}?{name}={odd[:20]}")


BODIES: list[tuple[str, bytes | None, str]] = [
    ("none", None, "application/json"),
    ("empty", b"", "application/json"),
    ("not JSON", b"{", "application/json"),
    ("a list", b"[]", "application/json"),
    ("a string", b'"x"', "application/json"),
    (
        "wrong types",
        json.dumps({"name": 5, "game": [], "count": "many", "card": None, "format": {}}).encode(),
        "application/json",
    ),
    (
        "huge numbers",
        json.dumps({"name": "Dizzy Bat", "count": 10**30, "players": -(10**30)}).encode(),
        "application/json",
    ),
    (
        "NUL in text",
        json.dumps({"name": "a\u0000b", "card": "mea/demo/\u0000", "game": "mea", "text": "1 \u0000"}).encode(),
        "application/json",
    ),
    ("lone surrogate", b'{"name": "\\ud800", "game": "mea", "card": "\\udfff"}', "application/json"),
    (
        "lone surrogate in a free field",
        b'{"game": "mea", "values": {"name": "Zed", "type": "monster", "cost": 1, "text": "a\\ud800"}}',
        "application/json",
    ),
    ("deep", b"[" * 5000 + b"]" * 5000, "application/json"),
    (
        "long text",
        json.dumps({"name": "x" * 100_000, "game": "mea", "text": "1 " + "y" * 100_000}).encode(),
        "application/json",
    ),
    ("UTF-16", json.dumps({"name": "Rush", "game": "mea"}).encode("utf-16"), "application/json; charset=utf-16"),
    (
        "form",
        b"name=%00&game=mea&card=%00&op=set&count=99999999999999999999&version=x&deck=1",
        "application/x-www-form-urlencoded",
    ),
    (
        "form, odd op",
        b"card=mea/demo/dizzy-bat&op=%F0%9F%90%89&section=" + b"s" * 500,
        "application/x-www-form-urlencoded",
    ),
    ("multipart without a boundary", b"--x\r\n", "multipart/form-data"),
    ("text", b"hello", "text/plain"),
]


@pytest.mark.parametrize("route", [r for r in ROUTES if not r.startswith("GET")])
def test_every_change_route_with_odd_bodies_and_headers(
    route: str, served: tuple[TestClient, dict[str, str]], tmp_path: Path
) -> None:
    client, fill = served
    method, path = route.split(" ", 1)
    url = concrete(path, fill)
    for name, body, kind in BODIES:
        check(client.request(method, url, content=body, headers={"Content-Type": kind}), tmp_path, f"{route}: {name}")
    odd_headers = [
        {"If-Match": "*"},
        {"If-Match": '"deck-1-v999999999999999999999"'},
        {"If-Match": ", ".join(['"x"'] * 500)},
        {"If-Match": "\u00ff" * 10},
        {"Accept": "application/xml"},
        {"Content-Type": "application/json", "Content-Encoding": "gzip"},
    ]
    for headers in odd_headers:
        sent = {k: v.encode("latin-1") for k, v in headers.items()}
        check(client.request(method, url, json={"name": "Dizzy Bat"}, headers=sent), tmp_path, f"{route}: {headers}")


# --- downloads ---------------------------------------------------------------------------------------

NAMES = {
    "勇者の山札": "勇者の山札",
    "Δράκος Φωτιάς": "δράκοσ-φωτιάσ",
    "Драконья колода": "драконья-колода",
    "مجموعة التنين": "مجموعة-التنين",
    "🐉 Dragon 🔥": "dragon",
    "Say \"hi\" \\ 'there'": "say-hi-there",
}
"""Deck names in five scripts (Japanese, Greek, Cyrillic, Arabic, Latin with emoji) and with quotes,
with the file names their downloads get (``file_slug``: letters of any script, digits and ``-``)."""


def filename_of(disposition: str) -> tuple[str, str]:
    """The RFC 6266 ``filename*`` (decoded) and the ASCII ``filename`` of a Content-Disposition."""
    assert disposition.isascii(), disposition
    star = re.search(r"filename\*=UTF-8''([^;\s]+)", disposition)
    plain = re.search(r'filename="([^"\\]*)"', disposition)
    assert disposition.startswith("attachment;") and star and plain, disposition
    return unquote(star.group(1), encoding="utf-8", errors="strict"), plain.group(1)


@pytest.mark.parametrize("name", list(NAMES))
def test_downloads_of_decks_named_in_any_script(
    name: str, served: tuple[TestClient, dict[str, str]], tmp_path: Path
) -> None:
    client, _ = served
    made = client.post("/api/decks", json={"game": "mea", "name": name})
    assert made.status_code == 201, made.text
    deck = made.json()["id"]
    client.post(f"/api/decks/{deck}/cards", json={"card": CARD})
    stem = NAMES[name]
    downloads = {
        f"/api/decks/{deck}/export?format=text": f"{stem}.txt",
        f"/api/decks/{deck}/export?format=json": f"{stem}.json",
        f"/api/decks/{deck}/export?format=code": f"{stem}.code.txt",
        f"/api/decks/{deck}/pdf": f"{stem}.pdf",
        f"/decks/{deck}/export.txt": f"{stem}.txt",
        f"/decks/{deck}/export.json": f"{stem}.json",
        f"/decks/{deck}/export.code": f"{stem}.code.txt",
        f"/decks/{deck}/export.arena": f"{stem}.arena.txt",
        f"/decks/{deck}/export.cod": f"{stem}.cod",
        f"/decks/{deck}/export.ydk": f"{stem}.ydk",
        f"/decks/{deck}/print.pdf": f"{stem}.pdf",
    }
    for url, want in downloads.items():
        response = client.get(url)
        assert response.status_code == 200, (url, response.text[:200])
        utf8, ascii_name = filename_of(response.headers["content-disposition"])
        assert utf8 == want, url
        assert ascii_name.isascii() and ascii_name.endswith(want.rsplit(".", 1)[1]) and "/" not in ascii_name
    for url in ("/api/catalog/export?game=mea&format=csv", "/catalog/template/meio.csv"):
        response = client.get(url)
        assert response.status_code == 200 and filename_of(response.headers["content-disposition"])[0].endswith(".csv")


@pytest.mark.parametrize(
    ("given", "utf8", "fallback"),
    [
        ("勇者の山札.txt", "勇者の山札.txt", "download.txt"),
        ("Crème brûlée.pdf", "Crème brûlée.pdf", "Creme_brulee.pdf"),
        ('a"b\\c/d.json', "a_b_c_d.json", "a_b_c_d.json"),
        ("tab\there\nnew\x00line\x7f.txt", "tabherenewline.txt", "tabherenewline.txt"),
        ("\u202eevil.txt", "evil.txt", "evil.txt"),
        ("..", "download", "download"),
        ("creme-brulee.plain.txt", "creme-brulee.plain.txt", "creme-brulee.plain.txt"),
        ("勇者の山札.plain.txt", "勇者の山札.plain.txt", "download.plain.txt"),
        ("δράκοσ-φωτιάσ.txt", "δράκοσ-φωτιάσ.txt", "download.txt"),
        ("Straße Ærø.txt", "Straße Ærø.txt", "Strasse_AEro.txt"),
        ("a勇b.txt", "a勇b.txt", "a_b.txt"),
        ("x" * 300 + ".code.txt", "x" * 141 + ".code.txt", "x" * 141 + ".code.txt"),
        ("", "download", "download"),
    ],
)
def test_the_attachment_header_of_any_name(given: str, utf8: str, fallback: str) -> None:
    from cardbase.web.http import content_disposition

    header = content_disposition(given)
    header.encode("latin-1")  # a header Starlette can send
    assert filename_of(header) == (utf8, fallback)


# --- art, addresses ------------------------------------------------------------------------------------


def test_bad_art_draws_the_placeholder_and_is_named_inside_card_images(
    served: tuple[TestClient, dict[str, str]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    client, fill = served
    for _ in range(2):
        face = client.get(f"/cards/{BAD_ART}/image.png?w=120")
        assert face.status_code == 200 and face.content.startswith(b"\x89PNG")
        check(face, tmp_path, "face")
    pdf = client.get(f"/decks/{fill['deck_id']}/print.pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    logged = [line for line in capsys.readouterr().err.splitlines() if "creme-golem" in line]
    assert len(logged) == 1, logged  # once per file, however often it is drawn
    assert "card_images/mea/creme-golem.png" in logged[0] and str(tmp_path) not in logged[0]


@pytest.mark.parametrize(
    "target",
    [
        "//evil.example/x",
        "///evil.example/x",
        "/\\evil.example/x",
        "/%5Cevil.example/x",
        "/%2F%2Fevil.example/x",
        "/%2F/evil.example/x",
        "/%5C%5Cevil.example",
        "/\\/evil.example",
        "/%09/evil.example",
        "/http://evil.example/x",
        "/https:/evil.example",
    ],
)
def test_the_token_link_reloads_to_a_path_on_this_server(database: Database, tmp_path: Path, target: str) -> None:
    settings = ServerSettings(database=database, images=tmp_path, host="192.168.1.20", token=TOKEN)
    with TestClient(create_app(settings), base_url=settings.base_url, raise_server_exceptions=False) as client:
        opened = client.get(f"{settings.base_url}{target}?a=1&token={TOKEN}", follow_redirects=False)
    assert opened.status_code == 200
    reload_to = re.search(r'content="0;url=([^"]*)"', opened.text)
    assert reload_to, opened.text
    url = reload_to.group(1).replace("&amp;", "&")
    assert url.startswith("/") and not url.startswith(("//", "/\\")) and "\\" not in url and "\t" not in url
    assert url.endswith("?a=1") and TOKEN not in opened.text


@pytest.mark.parametrize(
    "url", ["/api/cards?q=a%00b", "/api/cards/mea%00x", "/cards/mea/demo/%00", "/cards?q=%00", "/api/decks/1%00"]
)
def test_nul_in_an_address_is_400_on_every_backend(served: tuple[TestClient, dict[str, str]], url: str) -> None:
    client, _ = served
    response = client.get(url)
    assert response.status_code == 400 and "NUL" in response.text
