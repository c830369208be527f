"""Decks are one thing wherever they live: every deck command takes a file or a database deck (issue 13)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cardbase.decks.files import decode, encode
from cardbase.decks.service import catalog_index
from cardbase.decks.store import load_deck
from tests.conftest import REPO
from tests.hostile.conftest import assert_refused, run_cli

RUSH = REPO / "examples" / "decks" / "mea-goblin-rush.txt"
CONTROL = REPO / "examples" / "decks" / "mea-tile-control.txt"
SIDE = "[sideboard]\n2 Tile Mole\n[maybe]\n1 Tile Titan\n"


@pytest.fixture
def stored(db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A database holding the Goblin Rush deck as "Bird Tricks"; the working directory is empty."""
    monkeypatch.chdir(tmp_path)
    result = run_cli(["deck", "import", RUSH, "--name", "Bird Tricks"], db_url)
    assert result.exit_code == 0, result.output
    return db_url


@pytest.mark.parametrize(
    "args",
    [
        ["deck", "validate", "Bird Tricks"],
        ["deck", "stats", "Bird Tricks"],
        ["deck", "show", "Bird Tricks"],
        ["deck", "export", "Bird Tricks", "--format", "json"],
        ["deck", "encode", "Bird Tricks"],
        ["deck", "diff", "Bird Tricks", str(RUSH)],
        ["draws", "Bird Tricks", "--need", "1 t:assist", "--cards", "6"],
        ["print", "deck", "Bird Tricks", "-o", "exports/bird.pdf"],
        ["sim", "mea", "--deck", "Bird Tricks", "--vs", str(CONTROL), "--games", "2", "--seed", "1"],
    ],
    ids=lambda a: " ".join(a[:2]),
)
def test_every_deck_command_takes_a_database_deck(stored: str, args: list[str]) -> None:
    result = run_cli(args, stored)
    assert result.exit_code == 0, result.output
    assert "error" not in result.stderr


def test_database_deck_reads_the_same_as_its_file(stored: str) -> None:
    by_name = json.loads(run_cli(["deck", "stats", "db:Bird Tricks", "--json"], stored).stdout)
    by_file = json.loads(run_cli(["deck", "stats", RUSH, "--json"], stored).stdout)
    assert by_name.pop("name") == "Bird Tricks" and by_file.pop("name") == "Goblin Rush"
    assert by_name == by_file
    diff = json.loads(run_cli(["deck", "diff", "Bird Tricks", RUSH, "--json"], stored).stdout)
    assert diff["added"] == diff["removed"] == diff["changed"] == diff["stats"] == []


def test_the_file_wins_and_the_message_names_db_prefix(stored: str, tmp_path: Path) -> None:
    shutil.copy(CONTROL, tmp_path / "Bird Tricks")
    result = run_cli(["deck", "stats", "Bird Tricks", "--json"], stored)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["name"] == "Tile Control"
    assert "db:Bird Tricks" in result.stderr
    picked = json.loads(run_cli(["deck", "stats", "db:Bird Tricks", "--json"], stored).stdout)
    assert picked["name"] == "Bird Tricks"


@pytest.mark.parametrize("given", ["Bird Tricks@2", "db:Bird Tricks@2"])
def test_a_deck_named_as_a_version_is_that_deck(stored: str, given: str) -> None:
    """A deck may be named ``Bird Tricks@2``: that name names it, as a file of that name would win; it
    was read as version 2 of "Bird Tricks", another deck (the lab page's terminal command named it so)."""
    assert run_cli(["deck", "add", "Bird Tricks", "Tile Mole"], stored).exit_code == 0  # version 2 exists
    assert run_cli(["deck", "new", "Bird Tricks@2", "--game", "mea"], stored).exit_code == 0
    assert run_cli(["deck", "add", "Bird Tricks@2", "Crumb Goblin"], stored).exit_code == 0
    shown = json.loads(run_cli(["deck", "stats", given, "--json"], stored).stdout)
    assert shown["name"] == "Bird Tricks@2" and shown["cards"] == 1, shown
    version = json.loads(run_cli(["deck", "stats", "Bird Tricks@1", "--json"], stored).stdout)
    assert version["name"] == "Bird Tricks" and version["cards"] > 1  # a version of a deck still reads as one


def test_no_such_file_lists_database_decks_and_the_reverse(stored: str, tmp_path: Path) -> None:
    assert_refused(run_cli(["deck", "validate", "Bird Trick"], stored), 2, "no such file", "db:Bird Tricks")
    assert_refused(run_cli(["deck", "validate", "nothing-here.txt"], stored), 2, "no such file", "nor a deck")
    (tmp_path / "mine.txt").write_text(RUSH.read_text())
    assert_refused(run_cli(["deck", "stats", "db:mine.txt"], stored), 2, "no deck named 'mine.txt'", "a file")
    assert_refused(run_cli(["deck", "stats", "db:Bird Trick"], stored), 2, "did you mean db:Bird Tricks")


def test_side_sections_are_kept_but_not_counted(db_url: str, tmp_path: Path) -> None:
    deck = tmp_path / "side.txt"
    deck.write_text(RUSH.read_text() + SIDE)
    stats = json.loads(run_cli(["deck", "stats", deck, "--json"], db_url).stdout)
    plain = json.loads(run_cli(["deck", "stats", RUSH, "--json"], db_url).stdout)
    assert stats["cards"] == plain["cards"] == 32
    assert stats["mana_curve"] == plain["mana_curve"]
    assert stats["side_sections"] == {"sideboard": 2, "maybe": 1}
    report = json.loads(run_cli(["deck", "validate", deck, "--json"], db_url).stdout)
    assert report["valid"] and report["cards"] == 32
    draws = json.loads(run_cli(["draws", deck, "--need", "1 t:assist", "--cards", "6", "--json"], db_url).stdout)
    plain_draws = json.loads(run_cli(["draws", RUSH, "--need", "1 t:assist", "--cards", "6", "--json"], db_url).stdout)
    assert draws["probability"] == plain_draws["probability"]


def test_main_section_is_the_main_deck(db_url: str, tmp_path: Path) -> None:
    deck = tmp_path / "main.txt"
    deck.write_text(RUSH.read_text().replace("\n3 Crumb Goblin", "\n[main]\n3 Crumb Goblin", 1))
    assert "[main]" in deck.read_text()
    a = json.loads(run_cli(["deck", "stats", deck, "--json"], db_url).stdout)
    assert a["cards"] == 32 and a["side_sections"] == {}


@pytest.mark.parametrize("form", ["text", "json", "code"])
def test_side_sections_round_trip(db_url: str, tmp_path: Path, form: str) -> None:
    deck = tmp_path / "side.txt"
    deck.write_text(RUSH.read_text() + SIDE)
    exported = run_cli(["deck", "export", deck, "--format", form], db_url)
    assert exported.exit_code == 0, exported.output
    if form == "code":
        back = run_cli(["deck", "decode", exported.stdout.strip(), "--to", "text"], db_url)
        text = back.stdout
    else:
        text = exported.stdout
    again = tmp_path / f"again.{'json' if form == 'json' else 'txt'}"
    again.write_text(text)
    diff = json.loads(run_cli(["deck", "diff", deck, again, "--json"], db_url).stdout)
    assert diff["added"] == diff["removed"] == diff["changed"] == [], diff
    assert "[sideboard]" in run_cli(["deck", "show", again], db_url).stdout


def test_side_sections_round_trip_through_the_database(database, db_url: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    deck = tmp_path / "side.txt"
    deck.write_text(RUSH.read_text() + SIDE)
    assert run_cli(["deck", "import", deck, "--name", "Side"], db_url).exit_code == 0
    stored = load_deck(database, "Side")
    assert stored.side == {"sideboard": 2, "maybe": 1} and stored.main.size == 32
    diff = json.loads(run_cli(["deck", "diff", deck, "db:Side", "--json"], db_url).stdout)
    assert diff["added"] == diff["removed"] == diff["changed"] == []


OLD_MEIO_CODE = "AQEDAAAAAAfvtdZf-8qeR7OHltQBpvA2op2d5gGo8_FBxZiSlwEAAAbviaOKAZCKhkH-k-YO4-SZBLTR-PQB-IbonwEAAA"
"""The version-1 code the README gave for examples/decks/meio-hand.txt before codes of version 3."""


def _code(*parts: int) -> str:
    import base64

    from cardbase.decks.files import _varint

    return base64.urlsafe_b64encode(b"".join(_varint(p) for p in parts)).decode().rstrip("=")


def test_old_share_codes_still_decode(database, db_url: str) -> None:  # type: ignore[no-untyped-def]
    """Codes of versions 1 and 2 name cards by 31-bit short ids; they decode to the same deck as
    the version-3 code of today, reading only the cards they name."""
    from cardbase.decks.service import decode_code

    hand = REPO / "examples" / "decks" / "meio-hand.txt"
    code = run_cli(["deck", "encode", hand], db_url).stdout.strip()
    assert code.startswith("BAE")  # version 4, Meio
    assert decode_code(database, OLD_MEIO_CODE) == decode_code(database, code) == decode(code, catalog_index(database))
    old = run_cli(["deck", "decode", OLD_MEIO_CODE], db_url)
    assert old.exit_code == 0 and old.stdout == run_cli(["deck", "decode", code], db_url).stdout
    rush = decode_code(database, run_cli(["deck", "encode", RUSH], db_url).stdout.strip())
    assert encode(rush, None).startswith("BAA") and rush.side == {}


def test_an_old_code_that_now_names_two_cards_says_so(database, db_url: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Two cards of one catalog can share a 31-bit short id (they could not before schema 4): an
    old code naming it names both cards and asks for a new code; a code of today names each alone."""
    from cardbase.db.models import card_id, legacy_short_id, short_id
    from cardbase.decks.service import decode_code
    from cardbase.errors import UsageError

    first, second = "Test Card 22647", "Test Card 60550"
    sheet = tmp_path / "twins.csv"
    sheet.write_text(f"name,type,cost\n{first},monster,1\n{second},monster,2\n", encoding="utf-8")
    assert run_cli(["catalog", "import", sheet, "--game", "mea"], db_url).exit_code == 0
    ids = [card_id("mea", "core", name) for name in (first, second)]
    number = legacy_short_id(ids[0])
    assert number == legacy_short_id(ids[1])
    with pytest.raises(UsageError, match=f"names {first} .* and {second} .* at once"):
        decode_code(database, _code(1, 0, 0, 0, 1, number, 0, 0))  # version 1, Méa, one copy of it
    for cid, name in zip(ids, (first, second), strict=True):
        deck = decode_code(database, _code(3, 0, 0, 0, 1, short_id(cid), 0, 0, 0, 0, 0, 0, 0, 0))
        assert [(c.card_id, c.name, c.count) for c in deck.cards] == [(cid, name, 1)]
    with pytest.raises(UsageError, match="does not have \\(old short id 12345\\)"):
        decode_code(database, _code(1, 0, 0, 0, 1, 12345, 0, 0))


def test_diff_counts_and_moved_stats(db_url: str, tmp_path: Path) -> None:
    b = tmp_path / "b.txt"
    b.write_text(RUSH.read_text().replace("3 Crumb Goblin", "2 Crumb Goblin") + "2 Tile Mole\n")
    result = run_cli(["deck", "diff", RUSH, b, "--json"], db_url)
    data = json.loads(result.stdout)
    assert [e["name"] for e in data["added"]] == ["Tile Mole"]
    assert [(e["name"], e["before"], e["after"]) for e in data["changed"]] == [("Crumb Goblin", 3, 2)]
    assert data["removed"] == []
    moved = {s["stat"]: (s["before"], s["after"]) for s in data["stats"]}
    assert moved["cards"] == (32, 33)
    text = run_cli(["deck", "diff", RUSH, b], db_url).stdout
    assert "1 added, 0 removed, 1 changed" in text and "+2 Tile Mole" in text and "Crumb Goblin: 3 → 2" in text


def test_diff_text_names_stats_as_players_read_them_and_json_keeps_keys(db_url: str, tmp_path: Path) -> None:
    """``deck diff``'s text names each statistic by its label (``cards of cost 3``), never by its key
    (``mana_curve.3``, ``by_type.assist``); ``--json`` keeps the keys."""
    b = tmp_path / "b.txt"
    b.write_text(RUSH.read_text() + "2 Tile Mole\n4 Pep Talk\n")
    data = json.loads(run_cli(["deck", "diff", RUSH, b, "--json"], db_url).stdout)
    keys = [s["stat"] for s in data["stats"]]
    assert "cards" in keys and "by_type.assist" in keys and any(k.startswith("mana_curve.") for k in keys), keys
    text = run_cli(["deck", "diff", RUSH, b], db_url).stdout
    moved = text.split("stats that moved:\n", 1)[1]
    assert "cards in the main deck: 32 → 38" in moved, moved
    assert "assist cards: " in moved and "cards of cost " in moved, moved
    for line in moved.splitlines():
        label = line.strip().split(": ", 1)[0]
        assert "_" not in label and "." not in label, line


def test_diff_of_two_games_is_refused(db_url: str) -> None:
    meio = REPO / "examples" / "decks" / "meio-hand.txt"
    assert_refused(run_cli(["deck", "diff", RUSH, meio], db_url), 2, "one game")


def test_meikyu_totals_with_unknowns_are_not_exact(db_url: str, tmp_path: Path) -> None:
    deck = tmp_path / "k.txt"
    deck.write_text("game: meikyu\n3 Cook\n2 Bee\n1 Den of the Geister\n")
    text = run_cli(["deck", "stats", deck], db_url).stdout
    assert "bravery total: 0" not in text
    assert "bravery total: unknown (5 unknown)" in text
    data = json.loads(run_cli(["deck", "stats", deck, "--json"], db_url).stdout)
    assert data["bravery_total"] == {"total": None, "at_least": 0, "unknown": 5}


def test_database_decks_take_side_sections(db_url: str) -> None:
    assert run_cli(["deck", "new", "Side", "--game", "mea"], db_url).exit_code == 0
    assert run_cli(["deck", "add", "Side", "Tile Mole", "-n", "2", "--section", "sideboard"], db_url).exit_code == 0
    assert run_cli(["deck", "add", "Side", "Crumb Goblin", "-n", "3", "--section", "main"], db_url).exit_code == 0
    stats = json.loads(run_cli(["deck", "stats", "Side", "--json"], db_url).stdout)
    assert stats["cards"] == 3 and stats["side_sections"] == {"sideboard": 2}
    assert_refused(run_cli(["deck", "add", "Side", "Tile Mole", "--section", "bench"], db_url), 2, "--section")


@pytest.mark.parametrize(
    "args",
    [
        ["sim", "mea", "--deck", "Bird Tricks", "--vs", str(CONTROL), "--games", "2", "--seed", "1"],
        ["sim", "mea", "--deck", str(CONTROL), "--vs", "Bird Tricks", "--games", "2", "--seed", "1"],
        ["play", "mea", "--deck", "Bird Tricks", "--vs-deck", str(CONTROL), "--vs", "random", "--no-record"],
        ["play", "mea", "--deck", str(CONTROL), "--vs-deck", "Bird Tricks", "--vs", "random", "--no-record"],
        ["lab", "gauntlet", "Bird Tricks", "--field", str(CONTROL), "--games", "2", "--jobs", "1"],
    ],
    ids=["sim --deck", "sim --vs", "play --deck", "play --vs-deck", "lab gauntlet"],
)
def test_the_file_wins_in_sim_play_and_lab_and_says_how_to_pick_the_database_deck(
    stored: str, tmp_path: Path, args: list[str]
) -> None:
    shutil.copy(RUSH, tmp_path / "Bird Tricks")
    result = run_cli(args, stored, input="quit\n")
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.stderr.splitlines() if "db:Bird Tricks" in line]
    assert len(warnings) == 1, result.stderr
    assert warnings[0].startswith("warning: read the file 'Bird Tricks'") and "database also has" in warnings[0]
    (tmp_path / "Bird Tricks").unlink()
    plain = run_cli(args, stored, input="quit\n")  # no file of that name: the database deck, no warning
    assert plain.exit_code == 0, plain.output
    assert "db:Bird Tricks" not in plain.stderr and "warning" not in plain.stderr


def test_play_mea_with_database_decks_as_a_user_would(stored: str, tmp_path: Path) -> None:
    record = tmp_path / "exports" / "bird.jsonl"
    moves = "legal\ndraw 5\nquit\n"
    result = run_cli(
        ["play", "mea", "--deck", "Bird Tricks", "--vs-deck", "db:Bird Tricks", "--vs", "random", "--seed", "3",
         "--record", record],
        stored,
        input=moves,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output and "error" not in result.stderr
    assert "with Bird Tricks; P2 random plays Bird Tricks" in result.stdout
    assert "you draw " in result.stdout and f"Record: {record}" in result.stdout
    replayed = run_cli(["replay", record, "--json"])
    assert replayed.exit_code == 0, replayed.output
    (game,) = json.loads(replayed.stdout)
    assert not game["finished"]  # quit after the opening draws: the record reads back as it was left
    from_file = run_cli(
        ["play", "mea", "--deck", RUSH, "--vs-deck", RUSH, "--vs", "random", "--seed", "3", "--no-record"],
        stored,
        input=moves,
    )
    # the database deck is the Goblin Rush list: the same seed and moves give the same game
    shown = from_file.stdout.replace("Goblin Rush", "Bird Tricks")
    assert _game(result.stdout) == _game(shown) and "you draw " in shown


def _game(out: str) -> list[str]:
    """The game as shown, without the record's path."""
    return [line for line in out.splitlines() if not line.startswith("Record:")]


def test_export_images_of_a_database_deck_as_a_user_would(stored: str, tmp_path: Path) -> None:
    import csv

    by_name = run_cli(["export", "images", "Bird Tricks", "--dpi", "40", "--json"], stored)
    assert by_name.exit_code == 0, by_name.output
    report = json.loads(by_name.stdout)
    folder = tmp_path / "exports" / "bird-tricks-images"
    assert folder.is_dir(), list((tmp_path / "exports").iterdir())
    rows = list(csv.DictReader((folder / "manifest.csv").open(encoding="utf-8")))
    by_file = run_cli(["export", "images", RUSH, "-o", "rush", "--dpi", "40"], stored)
    assert by_file.exit_code == 0, by_file.output
    file_rows = list(csv.DictReader((tmp_path / "rush" / "manifest.csv").open(encoding="utf-8")))
    assert [(r["file"], r["count"]) for r in rows] == [(r["file"], r["count"]) for r in file_rows]
    assert sum(int(r["count"]) for r in rows if r["side"] == "front") == report["cards"] == 32


HOUSE = REPO / "examples" / "formats" / "house.toml"


@pytest.mark.parametrize(
    "args",
    [
        ["sim", "mea", "--deck", "Bird Tricks", "--vs", str(CONTROL), "--games", "2", "--seed", "1"],
        ["play", "mea", "--deck", "Bird Tricks", "--vs-deck", str(CONTROL), "--vs", "random", "--no-record"],
        ["lab", "gauntlet", "Bird Tricks", "--field", str(CONTROL), "--games", "2", "--jobs", "1"],
        ["lab", "opening", "Bird Tricks", "--vs", str(CONTROL), "--games", "2", "--jobs", "1"],
    ],
    ids=["sim mea", "play mea", "lab gauntlet", "lab opening"],
)
def test_a_deck_kept_in_a_house_format_plays_with_its_formats_file(stored: str, args: list[str]) -> None:
    kept = run_cli(["deck", "set", "Bird Tricks", "--format", "no-big-ducks", "--formats", HOUSE], stored)
    assert kept.exit_code == 0, kept.output
    without = run_cli(args, stored, input="quit\n")
    assert without.exit_code == 1 and "Traceback" not in without.output
    assert (
        "mea has no format 'no-big-ducks' (formats are standard; a house format is known only with its "
        "--formats file)" in without.stderr
    )
    played = run_cli([*args, "--formats", HOUSE], stored, input="quit\n")
    assert played.exit_code == 0, played.output
    assert "error" not in played.stderr
