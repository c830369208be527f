"""`serve --public-url` (share links start with the address others open, checked where it enters),
and the Import page reading other tools' lists, a `.cod` upload and a share link."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from cardbase.cli.app import app
from cardbase.db.engine import Database
from cardbase.web.app import create_app
from cardbase.web.settings import ServerSettings, check_public_url


def test_share_links_use_the_public_url(database: Database) -> None:
    from cardbase.decks.files import write_deck
    from cardbase.decks.model import Deck, DeckCard
    from cardbase.decks.store import save_deck

    deck = Deck("mea", (DeckCard("mea/demo/crumb-goblin", "Crumb Goblin", 3),))
    deck_id = save_deck(database, deck, "Shared", False)
    code = write_deck(deck, "code").strip()
    public = ServerSettings(database=database, public_url="https://cards.example.org/cb")
    plain = ServerSettings(database=database)
    for settings, base in ((public, "https://cards.example.org/cb"), (plain, plain.base_url)):
        with TestClient(create_app(settings), base_url=settings.base_url) as web:
            page = web.get(f"/decks/{deck_id}").text
        assert f'id="share-link" href="{base}/decks/new?code={code}"' in page


def test_a_token_protected_server_shares_links_under_the_address_it_was_reached_at(database: Database) -> None:
    """Served on every interface with a token and no --public-url: a share link starts with the
    address the player's browser used (the Host the server checked), so it opens on another machine."""
    from cardbase.decks.files import write_deck
    from cardbase.decks.model import Deck, DeckCard
    from cardbase.decks.store import save_deck

    deck = Deck("mea", (DeckCard("mea/demo/crumb-goblin", "Crumb Goblin", 2),))
    deck_id = save_deck(database, deck, "Reached", False)
    code = write_deck(deck, "code").strip()
    settings = ServerSettings(database=database, host="0.0.0.0", port=8765, token="s3cret-token")
    for reached in ("http://10.0.0.5:8765", "http://192.168.1.20:8765"):
        with TestClient(create_app(settings), base_url=reached) as web:
            refused = web.get(f"/decks/{deck_id}")
            page = web.get(f"/decks/{deck_id}", headers={"Authorization": "Bearer s3cret-token"})
        assert refused.status_code == 401
        assert page.status_code == 200 and f'id="share-link" href="{reached}/decks/new?code={code}"' in page.text
        assert "s3cret-token" not in page.text


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("ftp://cards.example.org", "http:// or https://"),
        ("https://", "http:// or https://"),
        ("cards.example.org", "http:// or https://"),
        ("https://cards.example.org/?a=1", "must not hold a query"),
        ("https://cards.example.org:99999", "is not a URL"),
        ("https://cards example.org", "without spaces"),
        ("https://x.org/" + "a" * 2_000, "at most 2,000 characters"),
        ("http://x/%00", "control character"),
        ("http://x/a%0Ab", "control character"),
        ("http://x/%C2%9B", "control character"),
        ("http://x/%zz", "not an escape %XX"),
        ("http://x/%", "not an escape %XX"),
        ("http://x/%FF", "not UTF-8"),
        ('http://x/a"b', "writes as %22"),
        ("http://x/<script>", "writes as %3C"),
        ("http://x\\y/", "writes as %5C"),
        ("https://user:secret@cards.example.org", "user name or password"),
        ("http://-x-/", "has the host '-x-'"),
        ("http://a..b/", "has the host 'a..b'"),
        ("http://" + "a" * 64 + ".org/", "1 to 63 characters"),
        ("http://x/?", "must not hold a query"),
        ("http://x/#", "must not hold a query"),
    ],
)
def test_a_bad_public_url_is_refused_saying_why(url: str, said: str, db_url: str) -> None:
    with pytest.raises(ValueError, match=said):
        check_public_url(url)
    result = CliRunner().invoke(app, ["serve", "--db", db_url, "--public-url", url])
    assert result.exit_code == 2 and "--public-url" in result.output and said in result.output


def test_a_good_public_url_loses_its_trailing_slash() -> None:
    assert check_public_url(" https://cards.example.org/ ") == "https://cards.example.org"
    assert check_public_url("http://10.0.0.5:8765") == "http://10.0.0.5:8765"
    assert check_public_url("http://[::1]:8080/") == "http://[::1]:8080"
    assert check_public_url("https://cards.example.org/caf%C3%A9/") == "https://cards.example.org/caf%C3%A9"
    assert check_public_url("http://my-host.local.:80/a_b~c") == "http://my-host.local.:80/a_b~c"


def test_the_import_page_takes_other_tools_lists_a_cod_file_and_a_share_link(database: Database) -> None:
    import re

    from cardbase.decks.files import write_deck
    from cardbase.decks.model import Deck
    from cardbase.decks.store import load_deck

    settings = ServerSettings(database=database)
    with TestClient(create_app(settings), base_url=settings.base_url) as web:

        def stored(response) -> Deck:
            assert response.status_code == 303, response.text[-2000:]
            return load_deck(database, int(response.headers["location"].rsplit("/", 1)[1]))

        arena = "Deck\n3 Crumb Goblin (demo) 1\n\nSideboard\n2 Pep Talk\n"
        deck = stored(web.post("/decks/import", data={"text": arena, "name": "Arena"}, follow_redirects=False))
        assert [(c.name, c.count, c.section) for c in deck.cards] == [
            ("Crumb Goblin", 3, None),
            ("Pep Talk", 2, "sideboard"),
        ]
        cod = write_deck(deck, "cod").encode()
        upload = web.post("/decks/import", data={"name": "Cod"}, files={"file": ("d.cod", cod)}, follow_redirects=False)
        assert stored(upload).cards == deck.cards
        link = f"{settings.base_url}/decks/new?code={write_deck(deck, 'code').strip()}"
        assert stored(web.post("/decks/import", data={"text": link, "name": "Linked"}, follow_redirects=False)).cards
        bad = web.post("/decks/import", data={"text": "Deck\n3 Crumb Goblin\nSB: 1 Pep Tlak\n"})
        assert bad.status_code == 400
        problems = re.findall(
            r"<li[^>]*>(.*?)</li>", bad.text.split('id="import-problems"', 1)[1].split("</div>", 1)[0]
        )
        assert len(problems) == 1 and "line 3" in problems[0] and "Pep Talk" in problems[0]


def test_the_import_page_refuses_a_pasted_deck_and_a_file_at_once(database: Database) -> None:
    """The file won and the pasted text was dropped unseen (the collection page refuses both already)."""
    settings = ServerSettings(database=database)
    with TestClient(create_app(settings), base_url=settings.base_url) as web:
        both = web.post(
            "/decks/import",
            data={"text": "game: mea\n2 Pep Talk\n", "name": "Both"},
            files={"file": ("d.txt", b"game: mea\n3 Crumb Goblin\n")},
            follow_redirects=False,
        )
        assert both.status_code == 400 and "paste a deck or choose a file, not both" in both.text
