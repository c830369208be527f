"""Values past what PostgreSQL's columns and indexes take are refused on every database, naming the
field and the bound: a command that works on SQLite must not fail on PostgreSQL with the server's
words ("value too long for type character varying(300)", "index row requires 9032 bytes").

Each runs on SQLite, and on PostgreSQL when CARDBASE_TEST_POSTGRES is set (``hostile_db``).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tests.hostile.conftest import assert_refused_unchanged

LIGATURES = "\ufb03" * 200
"""200 characters (the name bound), 600 in the card's id: NFKC spells ``ﬃ`` as ``ffi``."""
SQUARES = "\u3300" * 200
"""200 characters, each a squared katakana word (``㌀`` is アパート): 800 in the id."""


def _long_alias(length: int = 3000) -> str:
    """CJK characters no compression shortens: 9,000 bytes, past a PostgreSQL b-tree entry (2,704)."""
    rng = random.Random(length)
    return "".join(chr(rng.randrange(0x4E00, 0x9FFF)) for _ in range(length))


def _card(name: str, **more: object) -> dict[str, object]:
    return {"name": name, "type": "monster", "cost": 1, "attack": 1, "defence": 1, **more}


ESZETTS = "Stra\u00dfe " * 10 + "\u00df" * 120
"""190 characters, 320 in the id: ``ß`` is ``ss``."""


@pytest.mark.parametrize("name", [LIGATURES, SQUARES, ESZETTS], ids=["ffi", "squares", "eszett"])
@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_a_name_whose_id_is_too_long_is_refused_on_import(hostile_db: str, tmp_path: Path, name: str, fmt: str) -> None:
    """A name of at most 200 characters whose id spells it in more (``ß`` → ``ss``) is refused,
    naming the row, the column and the id's length, before anything is written."""
    assert len(name) <= 200
    path = tmp_path / f"cards.{fmt}"
    if fmt == "json":
        path.write_text(json.dumps([_card(name)]), encoding="utf-8")
    else:
        path.write_text(f"name,type,cost,attack,defence\n{name},monster,1,1,1\n", encoding="utf-8")
    result = assert_refused_unchanged(["catalog", "import", path, "--game", "mea"], hostile_db, 1)
    assert "column 'name'" in result.stderr
    assert "characters in its id" in result.stderr


def test_a_name_whose_id_is_too_long_is_refused_by_catalog_add(hostile_db: str) -> None:
    result = assert_refused_unchanged(
        ["catalog", "add", "--game", "mea", f"name={LIGATURES}", "type=monster"], hostile_db, 1
    )
    assert "characters in its id" in result.stderr


def test_an_alias_over_the_name_bound_is_refused_on_import(hostile_db: str, tmp_path: Path) -> None:
    """An alias is a name (it finds the card): at most 200 characters, as a name."""
    path = tmp_path / "cards.json"
    path.write_text(json.dumps([_card("Alias Goblin", aliases=[_long_alias()])]), encoding="utf-8")
    result = assert_refused_unchanged(["catalog", "import", path, "--game", "mea"], hostile_db, 1)
    assert "column 'aliases'" in result.stderr
    assert "longer than 200 characters" in result.stderr


def test_an_alias_over_the_name_bound_is_refused_by_catalog_edit(hostile_db: str) -> None:
    result = assert_refused_unchanged(
        ["catalog", "edit", "Crumb Goblin", f"aliases=Crumbs; {_long_alias()}"], hostile_db, 1
    )
    assert "longer than 200 characters" in result.stderr


def test_an_alias_of_200_characters_is_kept(hostile_db: str) -> None:
    """The bound is the name's: 200 characters of any script are taken (800 bytes at most in an index)."""
    from tests.hostile.conftest import run_cli

    alias = _long_alias(200)
    result = run_cli(["catalog", "edit", "Crumb Goblin", f"aliases={alias}"], hostile_db)
    assert result.exit_code == 0, result.stderr
    found = run_cli(["cards", "show", alias], hostile_db)
    assert found.exit_code == 0, found.stderr
    assert "Crumb Goblin" in found.stdout


@pytest.mark.parametrize("edit_id", [2**31, 2**40, 2**63 - 1])
def test_an_edit_number_past_a_32_bit_integer_is_no_edit(database, tmp_path: Path, edit_id: int) -> None:  # type: ignore[no-untyped-def]
    """Edit ids are 32-bit on PostgreSQL (``integer``): a larger one is refused as no edit of the card
    (the API: 400 naming the bound), never the server's "integer out of range" as a 503."""
    from fastapi.testclient import TestClient

    from cardbase.db.edit import revert_edit
    from cardbase.errors import UsageError
    from cardbase.web.app import create_app
    from cardbase.web.settings import ServerSettings

    with pytest.raises(UsageError, match=f"no edit {edit_id}"):
        revert_edit(database, "mea/demo/crumb-goblin", edit_id, "cli")
    settings = ServerSettings(database=database, images=tmp_path)
    with TestClient(create_app(settings), base_url=settings.base_url, raise_server_exceptions=False) as client:
        answer = client.post(f"/api/cards/mea/demo/crumb-goblin/history/{edit_id}/revert")
        assert answer.status_code == 400, answer.text
        assert "2147483647" in answer.json()["error"]["message"]
        page = client.post(f"/cards/mea/demo/crumb-goblin/history/{edit_id}/revert")
        assert page.status_code < 500, page.text[:300]
