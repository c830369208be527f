"""A collection entered as a list: the text reader (one card a line), ``collection import`` of a
``.txt`` and ``--add``, the collection page's "Add cards" form and ``POST /api/collection/import``."""

from __future__ import annotations

import base64
import dataclasses
import html
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from httpx import Response

from cardbase.db.collection import (
    MAX_OWNED,
    PASTE_CHARS,
    import_collection_text,
    read_collection_text,
)
from cardbase.db.engine import Database
from cardbase.errors import InvalidData, UnreadableInput, UsageError
from tests.owners.helpers import owned, run

GOBLIN, KNIGHT, MOLE, SELOUNTICIA = (
    "mea/demo/crumb-goblin",
    "mea/demo/puddle-knight",
    "mea/demo/tile-mole",
    "mea/core/selounticia",
)


def problems_of(database: Database, text: str, game: str | None = "mea") -> list[str]:
    with pytest.raises(InvalidData) as caught:
        read_collection_text(database, text, game)
    return caught.value.problems


# --- the reader ------------------------------------------------------------------------------------


def test_every_line_form_reads_and_lines_of_one_card_add_up(database: Database) -> None:
    text = (
        "# my binder\n"
        "\n"
        "3 Crumb Goblin\n"
        "2x Puddle Knight   # the blue ones\n"
        "Tile Mole x4\n"
        "Selounticia (core)\n"
        "  crumb goblin  \n"  # any case, blank around it; no count: one
        "0 Naïve Squire\n"  # 0: own none (a set to 0)
        "1X Crumb Goblin (demo)\n"
    )
    assert read_collection_text(database, text, "mea") == {
        GOBLIN: 5,
        KNIGHT: 2,
        MOLE: 4,
        SELOUNTICIA: 1,
        "mea/demo/naive-squire": 0,
    }
    assert read_collection_text(database, "2 Cock\n", "meikyu") == {"meikyu/core/cook": 2}  # an alias finds Cook
    # a deck list pasted whole: its game line gives the game, its other headers and sections are skipped
    deck = "game: mea\nname: Rush\nauthor: Ann\n[sideboard]\n3 Crumb Goblin (demo)\nSideboard\n2 Tile Mole\n"
    assert read_collection_text(database, deck, None) == {GOBLIN: 3, MOLE: 2}


def test_every_bad_line_is_named_by_its_number(database: Database) -> None:
    problems = problems_of(
        database,
        "3 Crumb Goblin\n"
        "3 Crumb Gobln\n"  # 2
        "# fine\n"
        "100000 Tile Mole\n"  # 4
        "2.5 Puddle Knight\n"  # 5
        "7\n"  # 6
        "Selounticia (nosuchset)\n"  # 7
        f"{'x' * 301}\n"  # 8
        "Cock\n",  # 9: Meikyu's Cook, not a Méa card
    )
    assert problems == [
        "line 2: no card named 'Crumb Gobln'; did you mean 'Crumb Goblin' or 'Crème Golem'?",
        "line 4: count 100000 is more than 99,999 (write a count from 0 to 99,999)",
        "line 5: count '2.5' is not a whole number (write a count from 0 to 99,999 before the name)",
        "line 6: '7' gives a count but no card name (write the count, then the card name: 3 Selounticia)",
        "line 7: no card named 'Selounticia' in set 'nosuchset'; did you mean 'Selounticia'?",
        "line 8: line is 301 characters long (at most 300) (a card name is far shorter; is this a deck file?)",
        "line 9: 'Cock' is a meikyu card, not mea",
    ]


def test_bounds_of_counts_and_lists(database: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    assert read_collection_text(database, f"{MAX_OWNED} Crumb Goblin", "mea") == {GOBLIN: MAX_OWNED}
    assert problems_of(database, f"{MAX_OWNED} Crumb Goblin\nTile Mole\ncrumb goblin x1\n") == [
        f"line 3: 'crumb goblin' adds up to {MAX_OWNED + 1:,} copies with the lines before it, "
        f"over the bound of {MAX_OWNED:,}"
    ]
    assert problems_of(database, "# only a comment\n\n") == [
        "the list names no card; write one card a line: 3 Crumb Goblin"
    ]
    assert problems_of(database, "game: meio\n3 Crumb Goblin\n") == ["line 1: the list is for 'meio', not 'mea'"]
    with pytest.raises(UsageError, match="which game"):
        read_collection_text(database, "3 Crumb Goblin\n", None)
    import cardbase.db.io as io

    monkeypatch.setattr(io, "BOUNDS", dataclasses.replace(io.BOUNDS, rows=2))
    with pytest.raises(UnreadableInput, match="more than 2 card lines"):
        read_collection_text(database, "Crumb Goblin\nTile Mole\nPuddle Knight\n", "mea")
    assert read_collection_text(database, "Crumb Goblin\n# a comment is no card\nTile Mole\n", "mea")
    with pytest.raises(UsageError, match=f"at most {PASTE_CHARS:,}"):
        import_collection_text(database, "Crumb Goblin\n" + "#" * PASTE_CHARS, "mea")


def test_a_list_of_another_game_is_one_problem_not_one_a_line(database: Database) -> None:
    """``collection import examples/decks/meikyu-rulebook-cards.txt --game mea``: its game: line was
    refused, then each of its 39 cards again, looked up as Méa cards ("'Cook' is a meikyu card, not
    mea"): 40 lines saying one thing. The game: line is the one problem."""
    text = "game: meikyu\n3 Gotcha!\n1 Cook\nnot a card at all\n"
    assert problems_of(database, text) == ["line 1: the list is for 'meikyu', not 'mea'"]


def test_a_name_in_two_sets_needs_its_set(db_url: str, database: Database, tmp_path: Path) -> None:
    promo = tmp_path / "promo.csv"
    promo.write_text("name,type,set,cost,attack,defence\nCrumb Goblin,monster,promo,1,1,1\n", encoding="utf-8")
    assert run(db_url, "catalog", "import", str(promo), "--game", "mea")[0] == 0
    assert problems_of(database, "Tile Mole\n2 Crumb Goblin\n") == [
        "line 2: 'Crumb Goblin' is in several sets (demo, promo); give its set"
    ]
    assert read_collection_text(database, "2 Crumb Goblin (PROMO)\nCrumb Goblin (demo)\n", "mea") == {
        "mea/promo/crumb-goblin": 2,
        GOBLIN: 1,
    }


def test_modes_set_add_replace_and_what_changes(database: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    import cardbase.db.catalog as catalog

    monkeypatch.setattr(catalog, "WRITE_BATCH", 1)  # the cards that change are named in batches: one a batch
    result = import_collection_text(database, "3 Crumb Goblin\n2 Tile Mole\n", "mea")
    assert owned(database) == {GOBLIN: 3, MOLE: 2}
    assert [(c.id, c.before, c.after) for c in result.changes] == [(GOBLIN, 0, 3), (MOLE, 0, 2)]
    preview = import_collection_text(database, "1 Crumb Goblin\n2 Tile Mole\n", "mea", mode="add", dry_run=True)
    assert [(c.name, c.before, c.after) for c in preview.changes] == [("Crumb Goblin", 3, 4), ("Tile Mole", 2, 4)]
    assert owned(database) == {GOBLIN: 3, MOLE: 2}  # a dry run writes nothing
    import_collection_text(database, "1 Crumb Goblin\n2 Tile Mole\n", "mea", mode="add")
    assert owned(database) == {GOBLIN: 4, MOLE: 4}
    import_collection_text(database, "2 Grimoire\n", "meikyu")
    result = import_collection_text(database, "4 Crumb Goblin\nPuddle Knight\n", "mea", mode="replace")
    assert [(c.id, c.before, c.after) for c in result.changes] == [(KNIGHT, 0, 1), (MOLE, 4, 0)]
    assert owned(database) == {GOBLIN: 4, KNIGHT: 1, "meikyu/core/grimoire": 2}  # other games kept
    with pytest.raises(InvalidData) as caught:
        import_collection_text(database, f"{MAX_OWNED} Crumb Goblin\n3 Tile Mole\n", "mea", mode="add")
    assert caught.value.problems == [
        f"Crumb Goblin (demo): 4 owned and {MAX_OWNED:,} more is {MAX_OWNED + 4:,}, over the bound of {MAX_OWNED:,}"
    ]
    assert owned(database) == {GOBLIN: 4, KNIGHT: 1, "meikyu/core/grimoire": 2}  # all or nothing


# --- the CLI ---------------------------------------------------------------------------------------


def test_cli_imports_a_text_list(db_url: str, database: Database, tmp_path: Path) -> None:
    good = tmp_path / "binder.txt"
    good.write_text("3 Crumb Goblin\n2x Puddle Knight\nCrumb Goblin x2\n", encoding="utf-8")
    code, out, err = run(db_url, "collection", "import", str(good), "--game", "mea", "--dry-run")
    assert code == 0, err
    assert "Crumb Goblin (demo): 0 → 5" in out and "Puddle Knight (demo): 0 → 2" in out and "dry run" in out
    assert owned(database) == {}
    assert run(db_url, "collection", "import", str(good), "--game", "mea")[0] == 0
    assert owned(database) == {GOBLIN: 5, KNIGHT: 2}
    code, out, _ = run(db_url, "collection", "import", str(good), "--game", "mea", "--add")
    assert code == 0 and "added 2 cards, 7 copies" in out
    assert owned(database) == {GOBLIN: 10, KNIGHT: 4}
    named = tmp_path / "binder.list"  # not .txt: --format text says what it is
    named.write_text("1 Tile Mole\n", encoding="utf-8")
    assert run(db_url, "collection", "import", str(named), "-g", "mea")[0] == 2  # unknown format
    assert run(db_url, "collection", "import", str(named), "-g", "mea", "--format", "text")[0] == 0
    assert owned(database) == {GOBLIN: 10, KNIGHT: 4, MOLE: 1}


def test_cli_add_reads_every_format(db_url: str, database: Database, tmp_path: Path) -> None:
    sheet = tmp_path / "more.csv"
    sheet.write_text("name,set,count\nCrumb Goblin,demo,2\n", encoding="utf-8")
    run(db_url, "collection", "set", "Crumb Goblin", "1")
    code, out, err = run(db_url, "collection", "import", str(sheet), "--game", "mea", "--add", "--json")
    assert code == 0, err
    assert '"mode": "add"' in out and owned(database) == {GOBLIN: 3}
    code, _, err = run(db_url, "collection", "import", str(sheet), "--game", "mea", "--add", "--replace")
    assert code == 2 and "--add and --replace: choose one" in err and "Traceback" not in err


def test_cli_refuses_a_bad_list_whole(db_url: str, database: Database, tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("3 Crumb Goblin\n3 Crumb Gobln\n100000 Tile Mole\n", encoding="utf-8")
    code, out, err = run(db_url, "collection", "import", str(bad), "--game", "mea")
    assert code == 1 and "2 problems, nothing was written" in err
    assert "line 2: no card named 'Crumb Gobln'" in err and "line 3: count 100000 is more than 99,999" in err
    assert "Traceback" not in out + err and owned(database) == {}
    code, _, err = run(db_url, "collection", "import", str(bad))
    assert code == 2 and "which game is the list for?" in err
    (tmp_path / "binary.txt").write_bytes(b"\x00\x01\x02")
    code, _, err = run(db_url, "collection", "import", str(tmp_path / "binary.txt"), "-g", "mea")
    assert code == 2 and "binary" in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("name", "fmt", "said"),
    [
        ("ok.txt", "texty", "'--format' / '-f': 'texty' is not one of csv, xlsx, json, text"),
        ("folder.txt", None, "is a folder, not a collection list"),
        ("folder.csv", None, "is a folder, not a collection file"),
        ("binary.json", None, "a binary file, not a text collection file"),
    ],
)
def test_cli_calls_a_collection_file_so(db_url: str, tmp_path: Path, name: str, fmt: str | None, said: str) -> None:
    """The readers it shares with catalog import name what they read: a collection file or list,
    not a "catalog file", and a bad --format lists the text list too."""
    path = tmp_path / name
    if name.startswith("folder"):
        path.mkdir()
    elif name.startswith("binary"):
        path.write_bytes(b"\x00\x01\x02")
    else:
        path.write_text("3 Crumb Goblin\n", encoding="utf-8")
    code, _, err = run(db_url, "collection", "import", str(path), "-g", "mea", *(["--format", fmt] if fmt else []))
    assert code == 2 and said in err, err


# --- the web ---------------------------------------------------------------------------------------


def form(client: TestClient, **fields: str) -> Response:
    data = {"game": "mea", "mode": "set", "action": "preview", **fields}
    return client.post("/collection/import", data=data, files={"file": ("", b"")}, follow_redirects=False)


def test_page_previews_then_saves_a_paste(client: TestClient, database: Database) -> None:
    page = client.get("/collection")
    assert 'id="bulk-form"' in page.text and 'name="text"' in page.text and 'type="file"' in page.text
    client.post("/api/collection", json={"name": "Tile Mole", "count": 1})
    preview = form(client, text="3 Crumb Goblin\nTile Mole x2\n", mode="add")
    assert preview.status_code == 200
    body = preview.text
    rows = re.findall(r'<tr data-card-id="([^"]+)">.*?<td class="num">(\d+)</td><td class="num">→ (\d+)</td>', body)
    assert rows == [(GOBLIN, "0", "3"), (MOLE, "1", "3")]
    assert owned(database) == {MOLE: 1}  # the preview writes nothing
    payload = re.search(r'name="payload" value="([^"]+)"', body)
    assert payload is not None and base64.b64decode(payload.group(1)) == b"3 Crumb Goblin\nTile Mole x2\n"
    saved = client.post(
        "/collection/import",
        files={"file": ("", b"")},
        data={"game": "mea", "mode": "add", "filename": "", "payload": payload.group(1), "action": "save"},
        follow_redirects=False,
    )
    assert saved.status_code == 303 and saved.headers["location"] == "/collection?game=mea&saved=2"
    assert owned(database) == {GOBLIN: 3, MOLE: 3}
    after = client.get(saved.headers["location"]).text
    assert "Saved: 2 cards changed." in after and re.search(r"<td>3</td><td><a [^>]*>Crumb Goblin</a>", after)
    direct = form(client, text="1 Crumb Goblin\r\n", action="save")  # Save straight from the form
    assert direct.status_code == 303 and owned(database) == {GOBLIN: 1, MOLE: 3}
    crlf = form(client, text="Tile Mole\r\n" * (PASTE_CHARS // 10))  # a browser's line ends: the box counts one
    assert crlf.status_code == 200 and f"→ {PASTE_CHARS // 10}<" in crlf.text


def test_page_lists_bad_lines_and_escapes_what_was_pasted(client: TestClient, database: Database) -> None:
    pasted = "3 Crumb Goblin\n2 <script>alert(1)</script>\nTile Mole x100000\n"
    for action in ("preview", "save"):
        answer = form(client, text=pasted, action=action)
        assert answer.status_code == 400
        body = answer.text
        assert "<script>alert" not in body and "&lt;script&gt;alert(1)&lt;/script&gt;" in body
        lines = [html.unescape(li) for li in re.findall(r"<li[^>]*>(line \d+: [^<]*)</li>", body)]
        assert lines[0].startswith("line 2: no card named '<script>alert(1)</script>'")
        assert lines[1] == "line 3: count 100000 is more than 99,999 (write a count from 0 to 99,999)"
        assert "nothing was written" in body and 'id="bulk-confirm"' not in body
    assert owned(database) == {}
    assert form(client, text="").status_code == 400
    assert form(client, text="1 Tile Mole", mode="everything").status_code == 400
    too_long = form(client, text="x" * (PASTE_CHARS + 1))
    assert too_long.status_code == 400 and "at most 200,000" in too_long.text


def test_page_reads_an_uploaded_file_and_saves_it_after_the_preview(client: TestClient, database: Database) -> None:
    sheet = b"name,set,count\nCrumb Goblin,demo,2\nSelounticia,core,1\n"
    preview = client.post(
        "/collection/import",
        data={"game": "mea", "mode": "set", "action": "preview", "text": ""},
        files={"file": ("../my cards.csv", sheet, "text/csv")},
    )
    assert preview.status_code == 200 and "my_cards.csv: every line is good" in preview.text
    assert owned(database) == {}
    payload = re.search(r'name="payload" value="([^"]+)"', preview.text)
    filename = re.search(r'name="filename" value="([^"]+)"', preview.text)
    assert payload and filename and filename.group(1) == "my_cards.csv"
    saved = client.post(
        "/collection/import",
        files={"file": ("", b"")},
        data={"game": "mea", "mode": "set", "filename": "my_cards.csv", "payload": payload.group(1), "action": "save"},
        follow_redirects=False,
    )
    assert saved.status_code == 303 and owned(database) == {GOBLIN: 2, SELOUNTICIA: 1}
    both = client.post(
        "/collection/import",
        data={"game": "mea", "text": "1 Tile Mole"},
        files={"file": ("list.txt", b"1 Tile Mole\n", "text/plain")},
    )
    assert both.status_code == 400 and "not both" in both.text
    wrong = client.post("/collection/import", data={"game": "mea"}, files={"file": ("cards.pdf", b"%PDF", "x/y")})
    assert wrong.status_code == 400 and ".txt, .csv, .xlsx or .json" in wrong.text
    bad = client.post(
        "/collection/import", data={"game": "mea"}, files={"file": ("list.txt", b"2 Tile Mole\n2 Tile Moel\n", "t/p")}
    )
    assert bad.status_code == 400 and "line 2: no card named &#39;Tile Moel&#39;" in bad.text
    assert owned(database) == {GOBLIN: 2, SELOUNTICIA: 1}


def test_api_imports_a_list(client: TestClient, database: Database) -> None:
    body = {"text": "3 Crumb Goblin\nCrumb Goblin\n", "game": "mea", "mode": "set", "dry_run": True}
    answer = client.post("/api/collection/import", json=body)
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["dry_run"] is True and data["mode"] == "set" and data["copies"] == 4
    assert data["changes"] == [{"id": GOBLIN, "name": "Crumb Goblin", "set": "demo", "before": 0, "after": 4}]
    assert owned(database) == {}
    assert client.post("/api/collection/import", json={**body, "dry_run": False, "mode": "add"}).status_code == 200
    assert client.post("/api/collection/import", json={**body, "dry_run": False, "mode": "add"}).status_code == 200
    assert owned(database) == {GOBLIN: 8}
    bad = client.post("/api/collection/import", json={**body, "text": "1 Crumb Goblin\n2 Tile Moel\n"})
    assert bad.status_code == 400 and "line 2: no card named 'Tile Moel'" in bad.text
    for wrong in ({**body, "mode": "all"}, {**body, "text": "x" * (PASTE_CHARS + 1)}, {**body, "extra": 1}):
        assert client.post("/api/collection/import", json=wrong).status_code in (400, 422)
    assert client.post("/api/collection/import", json={**body, "game": "chess"}).status_code == 400
    assert owned(database) == {GOBLIN: 8}
