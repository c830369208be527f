"""The CLI as users run it: help with examples, JSON for scripts, clear errors and exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardbase.cli.app import app

runner = CliRunner()


def run(*args: str, db: str | None = None):
    argv = list(args) + (["--db", db] if db else [])
    return runner.invoke(app, argv, catch_exceptions=False)


def _commands(group=None, prefix=()):
    import typer.main

    command = group or typer.main.get_command(app)
    for name, sub in getattr(command, "commands", {}).items():
        if getattr(sub, "commands", None):
            yield from _commands(sub, (*prefix, name))
        else:
            yield (*prefix, name)


COMMANDS = sorted(_commands())


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_every_command_has_help_with_an_example(command: tuple[str, ...]) -> None:
    result = run(*command, "--help")
    assert result.exit_code == 0
    assert "Example" in result.output, f"`cardbase {' '.join(command)} --help` shows no example"


def test_search_json_gives_card_objects(db_url: str) -> None:
    result = run("cards", "search", "t:monster cost<=3", "--game", "mea", "--json", db=db_url)
    assert result.exit_code == 0
    cards = json.loads(result.stdout)
    assert cards and all(
        {"game", "name", "type", "set", "source", "cost", "attack", "defence"} <= c.keys() for c in cards
    )
    assert all(c["cost"] <= 3 and c["type"] == "monster" for c in cards)
    assert all(c["demo"] and c["label"] for c in cards if c["source"] == "demo")


def test_search_table_marks_demo_and_unknown(db_url: str) -> None:
    result = run("cards", "search", "selounticia or crème", db=db_url)
    assert result.exit_code == 0
    assert "Crème Golem [demo]" in result.stdout
    assert "?" in result.stdout.split("Selounticia", 1)[1].splitlines()[0]
    assert "not a published" in result.stdout


def test_search_limit_reports_the_total(db_url: str) -> None:
    result = run("cards", "search", "game:meio", "--limit", "5", db=db_url)
    assert "5 of 52 cards (--limit 52 shows all)" in " ".join(result.stdout.split())  # how to see the rest
    whole = run("cards", "search", "game:meio", "--limit", "52", db=db_url)
    assert "52 of 52 cards;" in whole.stdout and "--limit" not in whole.stdout


def test_bad_query_exits_2_naming_the_term(db_url: str) -> None:
    result = run("cards", "search", "cost<=lots", db=db_url)
    assert result.exit_code == 2
    assert "'cost<=lots'" in result.stderr
    assert "Traceback" not in result.output


def test_no_match_exits_1(db_url: str) -> None:
    result = run("cards", "search", "zzzzzz", db=db_url)
    assert result.exit_code == 1 and "no cards match" in result.stderr


def test_show_finds_by_alias_and_suggests_on_a_miss(db_url: str) -> None:
    result = run("cards", "show", "Grimor", "--json", db=db_url)
    assert result.exit_code == 0
    card = json.loads(result.stdout)
    assert card["name"] == "Grimoire" and "Grimor" in card["aliases"]
    miss = run("cards", "show", "Gotcha", "--game", "mea", db=db_url)
    assert miss.exit_code == 1
    near = run("cards", "show", "Dugeon Storm", db=db_url)
    assert near.exit_code == 1 and "did you mean 'Dungeon Storm'" in near.stderr


def test_show_a_card_with_abilities(db_url: str) -> None:
    result = run("cards", "show", "Tile Titan", db=db_url)
    assert result.exit_code == 0 and "2 sentences expressed as data" in result.stdout
    card = json.loads(run("cards", "show", "Tile Titan", "--json", db=db_url).stdout)
    assert [a["trigger"] for a in card["abilities"]] == ["summoned", "summoned"]


def test_show_says_what_is_unknown(db_url: str) -> None:
    result = run("cards", "show", "cook", db=db_url)
    assert result.exit_code == 0
    assert "? (unknown)" in result.stdout and "bravery" in result.stdout


def test_unknown_game_is_bad_usage(db_url: str) -> None:
    result = run("cards", "search", "x", "--game", "chess", db=db_url)
    assert result.exit_code == 2 and "unknown game 'chess'" in result.stderr


def test_catalog_status_json(db_url: str) -> None:
    result = run("catalog", "status", "--game", "meikyu", "--json", db=db_url)
    rows = {r["type"]: r for r in json.loads(result.stdout)}
    assert rows["land"]["cards"] == 16 and rows["land"]["rulebook_count"] == 32
    assert rows["character"]["unknown"]["bravery"] == 15
    assert rows["aggression"]["copies"] == 4


def test_catalog_import_errors_and_exit_codes(db_url: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("name,type,cost\nA,monster,x\nB,monster,y\n", encoding="utf-8")
    result = run("catalog", "import", str(bad), "--game", "mea", db=db_url)
    assert result.exit_code == 1
    assert "row 2, column 'cost'" in result.stderr and "row 3, column 'cost'" in result.stderr
    assert "nothing was written" in result.stderr
    missing = run("catalog", "import", str(tmp_path / "none.csv"), "--game", "mea", db=db_url)
    assert missing.exit_code == 2 and "no such file" in missing.stderr
    good = tmp_path / "good.csv"
    good.write_text("name,type,cost\nA,monster,1\n", encoding="utf-8")
    dry = run("catalog", "import", str(good), "--game", "mea", "--dry-run", "--json", db=db_url)
    assert json.loads(dry.stdout)["inserted"] == 1
    assert run("cards", "search", "!A", "--game", "mea", db=db_url).exit_code == 1  # dry run wrote nothing
    imported = run("catalog", "import", str(good), "--game", "mea", db=db_url)
    assert imported.exit_code == 0 and "good.csv: 1 row checked; inserted 1," in imported.stdout
    assert run("cards", "show", "A", "--game", "mea", db=db_url).exit_code == 0


def test_cards_whose_old_short_ids_clash_both_import(db_url: str, tmp_path: Path) -> None:
    """Two names whose 31-bit short ids (schema 3) are equal, which once made a user rename one
    (a 50,000-card catalog had such a pair about half the time): both import, each with its own
    53-bit short id."""
    from cardbase.db.models import card_id, legacy_short_id, short_id

    first, second = "Test Card 22647", "Test Card 60550"
    ids = [card_id("mea", "core", name) for name in (first, second)]
    assert legacy_short_id(ids[0]) == legacy_short_id(ids[1]) and short_id(ids[0]) != short_id(ids[1])
    sheet = tmp_path / "clash.csv"
    sheet.write_text(f"name,type,cost\n{first},monster,1\n{second},monster,2\n", encoding="utf-8")
    assert run("catalog", "import", str(sheet), "--game", "mea", db=db_url).exit_code == 0
    for name in (first, second):
        shown = json.loads(run("cards", "show", name, "--game", "mea", "--json", db=db_url).stdout)
        assert shown["short_id"] == short_id(card_id("mea", "core", name))


def test_every_short_id_clash_is_named_at_once(db_url: str, tmp_path: Path, monkeypatch) -> None:
    """A clash of 53-bit short ids is about 2 in a million 200,000-card catalogs; if one comes,
    every pair is named in one run (not one per run), and nothing is written. Forced here by a
    short id of a few values."""
    import cardbase.db.catalog

    monkeypatch.setattr(cardbase.db.catalog, "short_id", lambda cid: 10**12 + len(cid))
    sheet = tmp_path / "clash.csv"
    sheet.write_text("name,type,cost\nAa,monster,1\nBb,monster,1\nCcc,monster,1\nDdd,monster,1\n", encoding="utf-8")
    result = run("catalog", "import", str(sheet), "--game", "mea", db=db_url)
    assert result.exit_code == 1 and "nothing was written" in result.stderr
    assert "row 3: 'Bb' (mea/core/bb) would have the short id 1000000000011 of mea/core/aa" in result.stderr
    assert "row 5: 'Ddd' (mea/core/ddd) would have the short id 1000000000012 of mea/core/ccc" in result.stderr
    assert run("cards", "show", "Aa", "--game", "mea", db=db_url).exit_code == 1


def test_catalog_export_default_path(db_url: str, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = run("catalog", "export", "--game", "meio", "--format", "json", db=db_url)
    assert result.exit_code == 0
    assert len(json.loads((tmp_path / "exports" / "meio.json").read_text(encoding="utf-8"))["cards"]) == 52


def test_schemas_are_current() -> None:
    from tests.conftest import REPO

    result = run("schema", "generate", "--check", "--folder", str(REPO / "schema"))
    assert result.exit_code == 0, result.output


def test_unreadable_database_is_a_clear_error(tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"x" * 4096)
    result = run("cards", "search", "x", db=str(junk))
    assert result.exit_code == 2 and "cannot open database" in result.stderr


def test_help_does_not_import_the_heavy_libraries() -> None:
    code = (
        "import sys, cardbase.cli.app; "
        "print(sorted(m for m in ('sqlmodel','sqlalchemy','pydantic','rich','PIL','reportlab','numpy','matplotlib')"
        " if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_reading_a_deck_does_not_import_urllib() -> None:
    # xml.sax.saxutils imports urllib.request, http.client and email: only a .cod deck written needs it
    deck = Path(__file__).resolve().parent.parent / "examples" / "decks" / "mea-goblin-rush.txt"
    code = (
        "import sys; from pathlib import Path; from cardbase.decks.files import read_deck; "
        f"read_deck(Path({str(deck)!r})); print('urllib.request' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_python_dash_m_runs_the_cli() -> None:
    out = subprocess.run([sys.executable, "-m", "cardbase", "--help"], capture_output=True, text=True)
    assert out.returncode == 0 and "catalog" in out.stdout
