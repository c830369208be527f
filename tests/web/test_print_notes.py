"""The card page says what printing the card would warn of (the CLI's `print` and `render` say it on
stderr; the page's image drew empty boxes without a word): characters no font has, text cut short."""

from __future__ import annotations

import re
from html import unescape

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from cardbase.cli.app import app as cli_app


def add_card(db_url: str, *values: str) -> None:
    result = CliRunner().invoke(cli_app, ["catalog", "add", "--game", "mea", *values, "set=mine", "--db", db_url])
    assert result.exit_code == 0, result.output


def notes_of(client: TestClient, name: str) -> str | None:
    found = client.get("/api/cards", params={"q": f'!"{name}"', "game": "mea"})
    assert found.status_code == 200, found.text
    (card,) = found.json()
    page = client.get(f"/cards/{card['id']}")
    assert page.status_code == 200, page.text
    match = re.search(r'<figcaption id="print-notes"[^>]*>(.*?)</figcaption>', page.text, re.S)
    return unescape(re.sub(r"<[^>]+>", "", match.group(1))) if match else None


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("Inu 犬 Dog", "the font DejaVuSerif-Bold has no glyph for 犬 (U+72AC); they print as empty boxes"),
        ("Dragon 🐉", "no glyph for 🐉 (U+1F409)"),
    ],
)
def test_the_card_page_says_what_would_not_print(client: TestClient, db_url: str, name: str, said: str) -> None:
    add_card(db_url, f"name={name}", "type=monster", "cost=2")
    notes = notes_of(client, name)
    assert notes is not None and said in notes, notes
    assert not notes.startswith(name)  # the page is the card's: its name is not repeated


def test_a_card_that_prints_as_written_has_no_notes(client: TestClient, db_url: str) -> None:
    add_card(db_url, "name=Château Goblin", "type=monster", "cost=2")
    assert notes_of(client, "Château Goblin") is None
    add_card(db_url, "name=שלום Goblin", "type=monster", "cost=2")  # Hebrew: set in DejaVu Sans
    assert notes_of(client, "שלום Goblin") is None


def test_text_cut_short_is_said(client: TestClient, db_url: str) -> None:
    add_card(db_url, "name=Wordy", "type=monster", "cost=2", "text=" + "a very long rules sentence " * 60)
    notes = notes_of(client, "Wordy")
    assert notes is not None and "cut short" in notes, notes
