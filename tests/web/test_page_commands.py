"""A page says what to do in the web app, not a command its reader may not have: every message that
names a ``cardbase`` command carries a page's words too (``errors.Said``, ``CardbaseError.saying``,
a deck problem's ``advice``), and a page shows those (``app.for_players``, ``errors.for_pages``); the
command line and the API's ``message`` keep the command."""

from __future__ import annotations

import ast
import html
import re
from pathlib import Path

from fastapi.testclient import TestClient

from cardbase.db.engine import Database
from tests.web.conftest import new_deck

PACKAGE = Path(__file__).resolve().parents[2] / "cardbase"
COMMAND = re.compile(
    r"\bcardbase (catalog|deck|cards|sim|play|print|draws|replay|serve|lab|collection|schema|hint|stats)\b"
)
NOT_ON_PAGES = {  # where a command is named and no page shows it, and why
    ("decks/files.py", "cardbase deck file"): "the deck file schema's title, not a message",
    ("decks/service.py", "`cardbase deck list`"): "a deck argument (a file path or db:NAME): the command line's",
    ("decks/validate.py", "`cardbase cards search`"): "a deck problem's tip: its advice is the page's words",
    ("decks/store.py", "`cardbase deck delete "): "a part of a Conflict said with .saying on the next lines",
    ("games/base.py", "``cardbase sim --seed``"): "an attribute's documentation",
    ("games/meikyu/rules.py", "cardbase sim meikyu"): "rules without a card pool: a table always resolves one",
    ("sim/hall.py", "cardbase serve: "): "the crash report's heading, in a file",
    ("web/errors.py", "cardbase serve: "): "the crash report's heading, in a file",
    ("sim/meikyu.py", "cardbase replay "): "the terminal's game (play meikyu) only",
    ("web/pages_decks.py", "cardbase draws "): "the deck page's command to draw the same hands at the terminal",
    ("web/lab.py", "cardbase lab "): "the lab page's commands to run the same studies at the terminal",
}


def _words(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def _carries_page_words(node: ast.AST, parents: dict[int, ast.AST]) -> bool:
    """Whether the string ``node`` is said with a page's words beside it: inside ``Said(…)``, an error
    given ``.saying(…)``, or a ``Problem`` with its ``advice``."""
    while id(node) in parents:
        node = parents[id(node)]
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", "")
            if name == "Said" or any(k.arg == "advice" for k in node.keywords):
                return True
            above = parents.get(id(node))
            if isinstance(above, ast.Attribute) and above.attr == "saying":
                return True
    return False


def test_every_message_naming_a_command_carries_a_pages_words() -> None:
    """The class: each string of the package (the command line's own modules and docstrings, of
    modules, classes, functions and attributes, aside)
    that names a ``cardbase`` command is said with a page's words too, or is listed where no page
    shows it (NOT_ON_PAGES, with why)."""
    bare = []
    for path in sorted(PACKAGE.rglob("*.py")):
        where = path.relative_to(PACKAGE).as_posix()
        if where.startswith("cli/"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        parents = {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        docs = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}  # docstrings, said nowhere
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Constant) and isinstance(node.value, str)) or id(node) in docs:
                continue
            listed = any(where == f and part in node.value for f, part in NOT_ON_PAGES)
            if COMMAND.search(node.value) and not listed and not _carries_page_words(node, parents):
                bare.append(f"{where}:{node.lineno}: {node.value[:100]!r}")
    assert not bare, "\n".join(bare)


def test_the_odds_of_cards_of_unknown_values_say_what_to_do_on_the_page(client: TestClient) -> None:
    """The deck page's odds note (cards of unknown cost) says where to give or import the values in
    the web app; the API's and the command line's note keep the command."""
    made = client.post(
        "/api/cards", json={"game": "mea", "values": {"name": "Fog Lurker", "type": "monster", "set": "homebrew"}}
    )
    assert made.status_code == 201, made.text
    deck_id = new_deck(client, "Fog")
    added = client.post(f"/api/decks/{deck_id}/cards", json={"card": made.json()["id"], "count": 3})
    assert added.status_code == 200, added.text
    client.post(f"/api/decks/{deck_id}/cards", json={"name": "Crumb Goblin", "count": 3})
    for need in ("1 cost<=9", "1 cost>=50"):  # a need a card is known to match (a note), and one none is (refused)
        page = client.get(f"/decks/{deck_id}", params={"needs": need, "open": "odds"}).text
        odds = _words(page.split('id="odds"', 1)[1].split("</section>", 1)[0])
        assert "cards of unknown " in odds and "import the real values on the catalog page" in odds, (need, odds)
        assert not COMMAND.search(odds) and "`" not in odds, odds
    refused = client.get(f"/api/decks/{deck_id}/draws", params={"need": "1 cost>=50", "cards": "5"})
    assert refused.status_code == 400 and "`cardbase catalog import` adds real values" in refused.text, refused.text


def test_a_meikyu_table_lacking_values_says_what_to_do_on_the_page(client: TestClient) -> None:
    form = {"game": "meikyu", "players": "2", "seat0": "human", "seat1": "heuristic", "assume": ""}
    page = client.post("/play", data=form)
    assert page.status_code == 400, page.text
    said = _words(page.text.split('id="error"', 1)[1].split("<label", 1)[0])  # the refusal and its list
    assert "on the catalog page" in said and "assumption profile 'default'" in said, said
    assert not COMMAND.search(said) and "--assume" not in said and "game Meikyu" not in said, said


def test_a_catalog_import_row_naming_another_cards_id_says_what_to_do_on_the_page(client: TestClient) -> None:
    csv = b"id,name,type,cost,attack,defense\nmea/demo/crumb-goblin,Crumb Gobbler,monster,1,1,1\n"
    page = client.post("/catalog/import", data={"game": "mea"}, files={"sheet": ("cards.csv", csv, "text/csv")})
    assert page.status_code == 400, page.text
    rows = _words(page.text.split('id="bad-rows"', 1)[1].split("</ul>", 1)[0])
    assert "rename it on its Edit page" in rows and not COMMAND.search(rows), rows


def test_a_meio_cards_art_note_says_no_command(client: TestClient, database: Database) -> None:
    found = client.get("/api/cards", params={"q": "", "game": "meio", "limit": 1}).json()
    card = (found["cards"] if isinstance(found, dict) else found)[0]["id"]
    page = client.get(f"/cards/{card}/edit").text
    note = _words(page.split('id="art-note"', 1)[1].split("</p>", 1)[0])
    assert "draws no art" in note and not COMMAND.search(note) and "--layout" not in note, note
