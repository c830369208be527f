"""Deck history: every change recorded (what, when, from where), NAME@N wherever a deck is read,
restore as a new version, the bound, export/import with history; CLI, web and API; the property
that restoring version k makes the deck what version k was."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import insert, update
from typer.testing import CliRunner

from cardbase.cli.app import app
from cardbase.db.engine import Database
from cardbase.db.models import DeckRow, DeckVersionRow
from cardbase.db.queries import find_card
from cardbase.decks.history import deck_history, load_version
from cardbase.decks.store import add_card, deck_info, load_deck, new_deck, remove_card, restore_version, tag_entries

runner = CliRunner()
CARDS = ["Crumb Goblin", "Puddle Knight", "Pocket Sand", "Tile Mole", "Dizzy Bat"]


def run(db_url: str, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, [*args, "--db", db_url])
    return result.exit_code, result.stdout, result.stderr


def test_every_change_is_a_version_and_any_can_be_read_diffed_and_restored(db_url: str, tmp_path: Path) -> None:
    run(db_url, "deck", "new", "H", "--game", "mea")
    run(db_url, "deck", "add", "H", "Crumb Goblin", "-n", "3")
    run(db_url, "deck", "add", "H", "Pocket Sand", "-n", "2")
    run(db_url, "deck", "tag", "H", "Pocket Sand", "removal")
    run(db_url, "deck", "remove", "H", "Crumb Goblin", "-n", "1")
    run(db_url, "deck", "set", "H", "--format", "standard")
    data = json.loads(run(db_url, "deck", "history", "H", "--json")[1])
    assert data["kept"] == 6 and [v["number"] for v in data["lines"]] == [6, 5, 4, 3, 2, 1]
    assert [v["change"] for v in data["lines"]] == [
        "format default → standard",
        "−1 Crumb Goblin",
        "tags of Pocket Sand: removal",
        "+2 Pocket Sand",
        "+3 Crumb Goblin",
        "made",
    ]
    assert {v["origin"] for v in data["lines"]} == {"cli"}
    code, out, _ = run(db_url, "deck", "show", "H@3", "--json")
    assert code == 0 and {c["name"]: c["count"] for c in json.loads(out)["cards"]} == {
        "Crumb Goblin": 3,
        "Pocket Sand": 2,
    }
    diff = json.loads(run(db_url, "deck", "diff", "H@3", "H@5", "--json")[1])
    assert [(c["name"], c["before"], c["after"]) for c in diff["changed"]] == [("Crumb Goblin", 3, 2)]
    file = tmp_path / "other.txt"
    file.write_text("game: mea\n4 Crumb Goblin\n", encoding="utf-8")
    assert run(db_url, "deck", "diff", "H@3", str(file))[0] == 0
    code, out, _ = run(db_url, "deck", "restore", "H@3")
    assert code == 0 and out == "H: restored version 3 as version 7\n"
    assert run(db_url, "deck", "export", "H")[1] == run(db_url, "deck", "export", "H@3")[1]
    code, _, err = run(db_url, "deck", "show", "H@99")
    assert code == 2 and "no version 99; versions 1 to 7 are kept" in err
    code, _, err = run(db_url, "deck", "restore", "H")
    assert code == 2 and "NAME@N" in err
    # a file named like a version wins over it, as files win over database decks
    clash = tmp_path / "H@2"
    clash.write_text("game: mea\n1 Tile Mole\n", encoding="utf-8")
    code, out, _ = run(db_url, "deck", "show", str(clash), "--json")
    assert [c["name"] for c in json.loads(out)["cards"]] == ["Tile Mole"]


def test_history_survives_export_and_import_as_json(db_url: str, database: Database, tmp_path: Path) -> None:
    run(db_url, "deck", "new", "H", "--game", "mea")
    run(db_url, "deck", "add", "H", "Crumb Goblin", "-n", "3")
    run(db_url, "deck", "tag", "H", "Crumb Goblin", "combo piece")
    out = tmp_path / "h.json"
    assert run(db_url, "deck", "export", "H", "--format", "json", "--history", "-o", str(out))[0] == 0
    assert len(json.loads(out.read_text(encoding="utf-8"))["history"]) == 3
    code, text, err = run(db_url, "deck", "import", str(out), "--name", "H2")
    assert code == 0 and "with 3 versions of history" in text, err
    before = {v.number: load_version(database, "H", v.number) for v in deck_history(database, "H")[1]}
    for number, deck in before.items():
        assert load_version(database, "H2", number).cards == deck.cards
    assert run(db_url, "deck", "export", "H", "--format", "text", "--history")[0] == 2  # JSON only
    bad = json.loads(out.read_text(encoding="utf-8"))
    bad["history"][1]["number"] = 1
    out.write_text(json.dumps(bad), encoding="utf-8")
    code, _, err = run(db_url, "deck", "import", str(out), "--name", "H3")
    assert code == 2 and "version numbers must rise" in err


@pytest.mark.parametrize("name", ["A@B", "Rush@2"])
def test_a_deck_whose_name_holds_an_at_sign_exports_its_history(db_url: str, name: str) -> None:
    """``--history`` is refused for a version (``H@2``), which it told by an ``@`` anywhere in the deck's
    source: a deck named ``A@B`` (or ``Rush@2``) was refused as if it were one."""
    run(db_url, "deck", "new", name, "--game", "mea")
    run(db_url, "deck", "add", name, "Crumb Goblin")
    code, out, err = run(db_url, "deck", "export", name, "--format", "json", "--history")
    assert code == 0, err
    assert json.loads(out)["name"] == name and len(json.loads(out)["history"]) == 2
    run(db_url, "deck", "new", "H", "--game", "mea")
    run(db_url, "deck", "add", "H", "Crumb Goblin")
    assert run(db_url, "deck", "export", "H@1", "--format", "json", "--history")[0] == 2  # a version: refused


def test_the_history_is_bounded_and_ten_thousand_versions_stay_fast(
    db_url: str, database: Database, monkeypatch
) -> None:
    deck_id = new_deck(database, "Long", "mea")
    content = json.dumps({"game": "mea", "name": "Long", "cards": []})
    with database.transaction() as session:
        session.execute(
            insert(DeckVersionRow),
            [
                {
                    "deck_id": deck_id,
                    "number": n,
                    "at": "2026-01-01T00:00:00+00:00",
                    "origin": "cli",
                    "change": f"<b>{n}</b>",
                    "content": content,
                }
                for n in range(2, 10_002)
            ],
        )
        # as if written one by one: the deck's one version counter is at its newest history row
        session.execute(update(DeckRow).where(DeckRow.id == deck_id).values(version=10_001))
    _id, newest, kept = deck_history(database, "Long", 5)
    assert kept == 10_001 and [v.number for v in newest] == [10_001, 10_000, 9_999, 9_998, 9_997]
    code, out, _ = run(db_url, "deck", "history", "Long", "--limit", "3")
    assert code == 0 and out.count("\n  @") == 3 and out.startswith("Long: 10,001 versions kept\n")
    assert "<b>10001</b>" in out and "10,998 older" not in out and "9,998 older (--offset 3)" in out
    database.deck_history = 1_000
    crumb = find_card(database.session(), "Crumb Goblin")
    add_card(database, "Long", crumb)
    _id, newest, kept = deck_history(database, "Long", 1)
    assert kept == 1_000 and newest[0].number == 10_002  # the newest 1,000 kept, numbers never reused
    monkeypatch.setenv("CARDBASE_DECK_HISTORY", "0")
    code, _, err = run(db_url, "deck", "history", "Long")
    assert code == 2 and "CARDBASE_DECK_HISTORY='0'" in err and "1 to 1,000,000" in err


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    ops=st.lists(
        st.tuples(st.sampled_from(["add", "remove", "tag"]), st.sampled_from(CARDS), st.integers(1, 3)),
        min_size=1,
        max_size=8,
    ),
    pick=st.integers(0, 100),
)
def test_restoring_version_k_makes_the_deck_what_version_k_was(database: Database, ops, pick: int) -> None:
    name = f"P {uuid.uuid4().hex[:8]}"
    new_deck(database, name, "mea")
    with database.session() as session:
        cards = {n: find_card(session, n, "mea") for n in CARDS}
    for op, card, n in ops:
        deck = load_deck(database, name)
        held = {c.card_id for c in deck.cards}
        if op == "add":
            add_card(database, name, cards[card], n)
        elif cards[card].id in held:
            if op == "remove":
                remove_card(database, name, cards[card], n)
            else:
                tag_entries(database, name, cards[card], [f"t{n}"])
    _id, versions, kept = deck_history(database, name, 1_000)
    k = versions[pick % len(versions)].number
    wanted = load_version(database, name, k)
    restore_version(database, name, k)
    now = load_deck(database, name)
    assert (now.cards, now.format, now.players, now.name) == (wanted.cards, wanted.format, wanted.players, wanted.name)
    assert deck_history(database, name, 1)[2] in (kept, kept + 1)  # a new version, unless it already was


def test_the_property_through_the_cli(db_url: str) -> None:
    run(db_url, "deck", "new", "C", "--game", "mea")
    for card, n in (("Crumb Goblin", "3"), ("Tile Mole", "2"), ("Dizzy Bat", "1")):
        run(db_url, "deck", "add", "C", card, "-n", n)
    run(db_url, "deck", "remove", "C", "Tile Mole")
    for k in (2, 3, 4):
        shown = run(db_url, "deck", "show", f"C@{k}", "--json")[1]
        assert run(db_url, "deck", "restore", f"C@{k}")[0] == 0
        now = json.loads(run(db_url, "deck", "show", "C", "--json")[1])
        then = json.loads(shown)
        assert now["cards"] == then["cards"] and now["validation"]["problems"] == then["validation"]["problems"]


def test_web_history_panel_pages_and_api(client: TestClient, database: Database) -> None:
    from tests.web.conftest import new_deck as make

    deck_id = make(client, "Web")
    client.post(f"/api/decks/{deck_id}/cards", json={"name": "Crumb Goblin", "count": 3})
    client.post(f"/api/decks/{deck_id}/cards", json={"name": "Dizzy Bat", "count": 2})
    history = client.get(f"/api/decks/{deck_id}/history").json()
    assert history["kept"] == 3 and {v["origin"] for v in history["lines"]} == {"web"}
    builder = client.get(f"/decks/{deck_id}").text
    assert 'id="history"' in builder and "+2 Dizzy Bat" in builder
    page = client.get(f"/decks/{deck_id}/history")
    assert page.status_code == 200 and 'data-version="3"' in page.text
    compare = client.get("/decks/compare", params={"a": f"{deck_id}@2", "b": f"{deck_id}@3"})
    assert compare.status_code == 200 and "+2" in compare.text and "Dizzy Bat" in compare.text
    assert client.get(f"/api/decks/{deck_id}/versions/2/diff/3").json()["added"][0]["name"] == "Dizzy Bat"
    version = client.get(f"/api/decks/{deck_id}/versions/2").json()
    assert [c["name"] for c in version["cards"]] == ["Crumb Goblin"]
    assert client.get(f"/decks/{deck_id}/versions/2").status_code == 200
    restored = client.post(f"/decks/{deck_id}/versions/2/restore", follow_redirects=False)
    assert restored.status_code == 303
    assert [c.name for c in load_deck(database, deck_id).cards] == ["Crumb Goblin"]
    assert client.post(f"/api/decks/{deck_id}/versions/3/restore").json()["version"] == 5
    assert client.get(f"/api/decks/{deck_id}/versions/99").status_code == 400
    assert deck_info(database, deck_id).cards == 5


def test_a_deck_replaced_by_an_import_keeps_its_versions(db_url: str, tmp_path: Path) -> None:
    run(db_url, "deck", "new", "R", "--game", "mea")
    run(db_url, "deck", "add", "R", "Crumb Goblin", "-n", "2")
    file = tmp_path / "r.txt"
    file.write_text("game: mea\nname: R\n4 Tile Mole\n", encoding="utf-8")
    assert run(db_url, "deck", "import", str(file), "--replace")[0] == 0
    versions = json.loads(run(db_url, "deck", "history", "R", "--json")[1])["lines"]
    assert [v["number"] for v in versions] == [3, 2, 1] and versions[0]["change"] == f"imported from {file}"
    assert run(db_url, "deck", "restore", "R@2")[0] == 0
    assert "2 Crumb Goblin" in run(db_url, "deck", "show", "R")[1]


def test_one_version_counter_and_a_restore_is_a_versioned_write(client: TestClient, database: Database) -> None:
    """The deck's version (its ETag) and its history are one counter: a history row per version number;
    a restore or an entry tag made from an older version is refused with 412 and writes nothing."""
    from tests.web.conftest import new_deck as make

    deck_id = make(client, "One counter")
    for name in ("Crumb Goblin", "Dizzy Bat", "Crumb Goblin"):
        answer = client.post(f"/api/decks/{deck_id}/cards", json={"name": name})
        assert answer.status_code == 200, answer.text
    etag = client.get(f"/api/decks/{deck_id}").headers["etag"]
    assert etag == f'"deck-{deck_id}-v4"' and deck_info(database, deck_id).version == 4
    numbers = [v["number"] for v in client.get(f"/api/decks/{deck_id}/history").json()["lines"]]
    assert numbers == [4, 3, 2, 1]
    stale = f'"deck-{deck_id}-v3"'
    before = load_deck(database, deck_id)
    refused = client.post(f"/api/decks/{deck_id}/versions/2/restore", headers={"If-Match": stale})
    assert refused.status_code == 412 and refused.headers["etag"] == etag
    assert "changed elsewhere" in refused.json()["error"]["message"]
    tagged = client.post(
        f"/api/decks/{deck_id}/tags", json={"name": "Dizzy Bat", "add": ["bait"]}, headers={"If-Match": stale}
    )
    assert tagged.status_code == 412
    page = client.post(f"/decks/{deck_id}/versions/2/restore", data={"version": "3"}, follow_redirects=False)
    assert page.status_code == 412 and "changed elsewhere" in page.text
    assert load_deck(database, deck_id) == before and deck_info(database, deck_id).version == 4
    made = client.post(f"/api/decks/{deck_id}/versions/2/restore", headers={"If-Match": etag})
    assert made.status_code == 200 and made.json()["version"] == 5
    assert client.get(f"/api/decks/{deck_id}").headers["etag"] == f'"deck-{deck_id}-v5"'
    assert [v["number"] for v in client.get(f"/api/decks/{deck_id}/history").json()["lines"]] == [5, 4, 3, 2, 1]
    again = client.post(f"/api/decks/{deck_id}/versions/2/restore", headers={"If-Match": f'"deck-{deck_id}-v5"'})
    assert again.json()["version"] is None and deck_info(database, deck_id).version == 5  # nothing to change


def test_the_app_says_web_and_leaves_the_callers_handle_saying_cli(client: TestClient, database: Database) -> None:
    from tests.web.conftest import new_deck as make

    deck_id = make(client, "Both")
    client.post(f"/api/decks/{deck_id}/cards", json={"name": "Crumb Goblin", "count": 3})
    assert database.origin == "cli"  # the app made its own handle; the test's is unchanged
    with database.session() as session:
        goblin = find_card(session, "Crumb Goblin", "mea")
    add_card(database, "Both", goblin, 1)
    origins = [v["origin"] for v in client.get(f"/api/decks/{deck_id}/history").json()["lines"]]
    assert sorted(origins) == ["cli", "web", "web"]


def test_a_burst_on_one_card_is_one_line_in_the_cli_the_api_and_the_page(
    db_url: str, client: TestClient, database: Database
) -> None:
    """Three quick adds of one card are one line (``+3 Crumb Goblin``, the newest version's number) on the
    history page, and the same lines in ``deck history`` (text and JSON) and the API, which also give
    the versions inside each line."""
    from tests.web.conftest import new_deck as make

    deck_id = make(client, "Bursty")
    for name in ("Crumb Goblin", "Crumb Goblin", "Crumb Goblin", "Dizzy Bat"):
        assert client.post(f"/api/decks/{deck_id}/cards", json={"name": name}).status_code == 200
    api = client.get(f"/api/decks/{deck_id}/history").json()
    cli = json.loads(run(db_url, "deck", "history", "Bursty", "--json")[1])
    assert api["kept"] == cli["kept"] == 5
    assert [(line["number"], line["first"], line["change"]) for line in api["lines"]] == [
        (5, 5, "+1 Dizzy Bat"),
        (4, 2, "+3 Crumb Goblin"),
        (1, 1, "made"),
    ]
    assert [v["number"] for v in api["lines"][1]["versions"]] == [4, 3, 2]
    assert [v["change"] for v in api["lines"][1]["versions"]] == ["+1 Crumb Goblin"] * 3
    assert cli["lines"] == api["lines"] and cli["versions"] == api["versions"]
    # the flat list stays (scripts read it): every version of every line, newest first
    assert api["versions"] == [v for line in api["lines"] for v in line["versions"]]
    code, out, _ = run(db_url, "deck", "history", "Bursty")
    assert code == 0
    rows = [line for line in out.splitlines() if line.startswith("  @")]
    assert len(rows) == 3 and "+3 Crumb Goblin (3 changes, @2–4)" in rows[1], out
    page = client.get(f"/decks/{deck_id}/history").text
    assert page.count("<tr data-version=") == 3 and "+3 Crumb Goblin" in page


def test_a_burst_across_a_page_boundary_is_one_line_on_one_page(
    db_url: str, client: TestClient, database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Paging keeps a burst whole: a page lists the lines whose newest version falls in its range of
    versions (``offset``, ``limit``), each with every version of it, so a burst that a page's end cuts
    is one line on that page and not again on the next (it had been two lines, one on each page)."""
    from cardbase.web import pages_owners
    from tests.web.conftest import new_deck as make

    deck_id = make(client, "Pages")  # 1 made, 2-4 +3 Crumb Goblin, 5 +1 Dizzy Bat
    for name in ("Crumb Goblin", "Crumb Goblin", "Crumb Goblin", "Dizzy Bat"):
        assert client.post(f"/api/decks/{deck_id}/cards", json={"name": name}).status_code == 200
    first = client.get(f"/api/decks/{deck_id}/history", params={"limit": 2}).json()
    assert [(line["number"], line["first"], line["change"]) for line in first["lines"]] == [
        (5, 5, "+1 Dizzy Bat"),
        (4, 2, "+3 Crumb Goblin"),
    ]
    assert [v["number"] for v in first["versions"]] == [5, 4, 3, 2]
    second = client.get(f"/api/decks/{deck_id}/history", params={"limit": 2, "offset": 2}).json()
    assert [(line["number"], line["change"]) for line in second["lines"]] == []  # @3 and @2 are @4's
    third = client.get(f"/api/decks/{deck_id}/history", params={"limit": 2, "offset": 4}).json()
    assert [(line["number"], line["change"]) for line in third["lines"]] == [(1, "made")]
    cli = json.loads(run(db_url, "deck", "history", "Pages", "--json", "--limit", "2")[1])
    assert cli["lines"] == first["lines"] and cli["versions"] == first["versions"]
    code, out, _ = run(db_url, "deck", "history", "Pages", "--limit", "2")
    assert code == 0 and "+3 Crumb Goblin (3 changes, @2–4)" in out
    assert "1 older (--offset 4)" in out, out  # the next page starts after the burst
    _, versions, _ = deck_history(database, deck_id, limit=3, offset=1)
    assert [v.number for v in versions] == [4, 3, 2]  # @4 starts at 1; @1 at 4
    monkeypatch.setattr(pages_owners, "HISTORY_PAGE", 2)
    page_one = client.get(f"/decks/{deck_id}/history").text
    assert page_one.count("<tr data-version=") == 2 and "+3 Crumb Goblin" in page_one
    page_two = client.get(f"/decks/{deck_id}/history", params={"page": 2}).text
    assert "Crumb Goblin" not in page_two and 'id="in-a-burst"' in page_two
    assert 'id="in-a-burst"' not in page_one
    page_three = client.get(f"/decks/{deck_id}/history", params={"page": 3}).text
    assert page_three.count("<tr data-version=") == 1 and 'data-version="1"' in page_three
    code, out, _ = run(db_url, "deck", "history", "Pages", "--limit", "2", "--offset", "2")
    assert code == 0 and "Crumb Goblin" not in out and "1 older (--offset 4)" in out, out


def test_a_replace_that_would_lose_the_decks_own_versions_is_refused(db_url: str, tmp_path: Path) -> None:
    """The versions a replaced deck had were dropped unseen when the file carried versions of its own
    (they took their place) or was a deck of another game; the file's history is kept beside them
    when it holds them (a backup of this deck imported back)."""
    run(db_url, "deck", "new", "A", "--game", "mea")
    run(db_url, "deck", "add", "A", "Crumb Goblin", "-n", "2")
    backup = tmp_path / "a.json"
    assert run(db_url, "deck", "export", "A", "--format", "json", "--history", "-o", str(backup))[0] == 0
    assert run(db_url, "deck", "import", str(backup), "--name", "A", "--replace")[0] == 0  # its own versions
    run(db_url, "deck", "new", "B", "--game", "mea")
    run(db_url, "deck", "add", "B", "Tile Mole", "-n", "1")
    code, _, err = run(db_url, "deck", "import", str(backup), "--name", "B", "--replace")
    said = " ".join(err.split())
    assert code == 1 and "deck 'B' has 2 versions the file's history does not hold" in said, said
    assert [v["number"] for v in json.loads(run(db_url, "deck", "history", "B", "--json")[1])["lines"]] == [2, 1]
    run(db_url, "deck", "new", "M", "--game", "meio")
    other = tmp_path / "m.txt"
    other.write_text("game: mea\n2 Crumb Goblin\n", encoding="utf-8")
    code, _, err = run(db_url, "deck", "import", str(other), "--name", "M", "--replace")
    said = " ".join(err.split())
    assert code == 1 and "'M' is a meio deck with 1 version" in said, said


def test_an_import_carrying_more_versions_than_a_deck_keeps_says_how_many_it_kept(
    db_url: str, tmp_path: Path, monkeypatch
) -> None:
    """The bound dropped the oldest of a file's versions while the import said it kept them all."""
    run(db_url, "deck", "new", "K", "--game", "mea")
    run(db_url, "deck", "add", "K", "Crumb Goblin", "-n", "3")
    out = tmp_path / "k.json"
    assert run(db_url, "deck", "export", "K", "--format", "json", "--history", "-o", str(out))[0] == 0
    monkeypatch.setenv("CARDBASE_DECK_HISTORY", "2")
    code, text, err = run(db_url, "deck", "import", str(out), "--name", "K2")
    said = " ".join(text.split())
    assert code == 0 and "the file's 2 versions and this import are 3; a deck keeps its newest 2" in said, (text, err)
