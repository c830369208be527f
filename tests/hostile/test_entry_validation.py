"""Data is checked once where it enters, by the rule its readers use: player counts, set codes, names.

Before issue 12, ``players: 300`` was stored and then crashed ``deck export --format code``; a set
code ``my_set`` was imported but a deck list could not name it; ``../../../escaped`` was a set.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine, text

from cardbase.db.engine import database_url
from cardbase.db.models import short_id
from cardbase.decks.catalog import CardInfo, CatalogIndex
from cardbase.decks.files import decode, encode, parse_json, write_json
from cardbase.decks.model import Deck, DeckCard, check_players
from cardbase.decks.text import parse_text, write_text
from cardbase.decks.validate import resolve
from cardbase.errors import UsageError
from cardbase.names import fold, name_problem, set_code, slug
from tests.hostile.conftest import assert_refused, assert_refused_unchanged, db_dump, run_cli

BAD_PLAYERS = ["-1", "0", "1", "5", "99", "300", "²", "³", "٣", "2.0", "two", "+3", "3x", "1e1", "4 4", "10" * 20]


@pytest.mark.parametrize("value", BAD_PLAYERS)
def test_a_deck_list_with_bad_players_is_not_imported(loaded_db: str, tmp_path: Path, value: str) -> None:
    path = tmp_path / "d.txt"
    path.write_text(f"game: meio\nplayers: {value}\n1 Ace of Hearts\n", encoding="utf-8")
    assert_refused_unchanged(["deck", "import", path], loaded_db, 1, contains="players must be 2, 3 or 4")


@pytest.mark.parametrize("value", ["-1", "0", "1", "5", "99", "300", "true", "2.5", '"²"', '"two"', "[3]"])
def test_a_json_deck_with_bad_players_is_not_imported(loaded_db: str, tmp_path: Path, value: str) -> None:
    path = tmp_path / "d.json"
    path.write_text(f'{{"game": "meio", "players": {value}, "cards": [{{"count": 1, "name": "Ace of Hearts"}}]}}')
    assert_refused_unchanged(["deck", "import", path], loaded_db, 2, contains="players")


def _code(game: int, players: int) -> str:
    def varint(n: int) -> bytes:
        out = bytearray()
        while True:
            out.append((n & 0x7F) | (0x80 if n > 0x7F else 0))
            n >>= 7
            if not n:
                return bytes(out)

    sections = 3 if game == 1 else 1
    data = bytes([1]) + varint(game) + varint(players) + varint(0) + bytes(3 * sections)
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


@pytest.mark.parametrize("players", [1, 5, 99, 300, 2**31, 2**62])
def test_a_share_code_with_bad_players_is_refused(loaded_db: str, players: int) -> None:
    assert_refused_unchanged(["deck", "decode", _code(1, players)], loaded_db, 2, contains="players must be")


@pytest.mark.parametrize("game", [0, 2])
def test_a_share_code_giving_players_for_another_game_is_refused(loaded_db: str, game: int) -> None:
    assert_refused_unchanged(["deck", "decode", _code(game, 3)], loaded_db, 2, contains="is for Meio decks")


def test_a_good_share_code_still_decodes(loaded_db: str) -> None:
    result = run_cli(["deck", "decode", _code(1, 3)], loaded_db)
    assert result.exit_code == 0 and "players: 3" in result.stdout


@pytest.mark.parametrize(
    ("game", "players"),
    [("meio", -1), ("meio", 0), ("meio", 5), ("meio", 99), ("meio", 300), ("mea", 3), ("meikyu", 2)],
)
def test_a_database_deck_with_bad_players_is_not_made(loaded_db: str, game: str, players: int) -> None:
    assert_refused_unchanged(
        ["deck", "new", "Bad", "--game", game, "--players", str(players)], loaded_db, 2, contains="players"
    )


@pytest.mark.parametrize("players", [-1, 99, 300])
def test_a_stored_bad_count_from_an_older_database_is_a_clean_error(loaded_db: str, players: int) -> None:
    assert run_cli(["deck", "new", "Old", "--game", "meio", "--players", "3"], loaded_db).exit_code == 0
    engine = create_engine(database_url(loaded_db))
    with engine.begin() as conn:
        conn.execute(text("UPDATE deck SET players = :p WHERE name = 'Old'"), {"p": players})
    engine.dispose()
    before = db_dump(loaded_db)
    assert_refused(run_cli(["deck", "export", "Old", "--format", "code"], loaded_db), 2, contains="players must be")
    assert db_dump(loaded_db) == before


@pytest.mark.parametrize("value", [2, 3, 4, "2", " 3 ", None])
def test_the_player_rule_accepts_what_meio_allows(value: object) -> None:
    assert check_players(value) in (2, 3, 4, None)


BAD_SETS = [
    "my_set",
    "my.set",
    "../../../escaped",
    "..",
    ".",
    "/abs",
    "a/b",
    "a\\b",
    "-lead",
    "x" * 61,
    "set!",
    "sét",
    "セット",
    "C:",
    "a\x1bb",
    "(x)",
    "%2e%2e",
]


@pytest.mark.parametrize("code", BAD_SETS)
def test_a_set_code_no_reader_can_read_back_is_refused_at_import(loaded_db: str, tmp_path: Path, code: str) -> None:
    path = tmp_path / "s.json"
    path.write_text(json.dumps([{"name": "Set Goblin", "type": "monster", "set": code}]), encoding="utf-8")
    assert_refused_unchanged(["catalog", "import", path, "--game", "mea"], loaded_db, 1, contains="set code")


@pytest.mark.parametrize("code", ["my_set", "../x", "a.b"])
def test_a_json_deck_naming_a_bad_set_is_unreadable(loaded_db: str, tmp_path: Path, code: str) -> None:
    path = tmp_path / "d.json"
    path.write_text(json.dumps({"game": "mea", "cards": [{"count": 1, "name": "Crumb Goblin", "set": code}]}))
    assert_refused_unchanged(["deck", "import", path], loaded_db, 2, contains="cards[1].set")


@pytest.mark.parametrize(
    "name",
    [
        "a #b",
        "Goblin #2",
        "#1 Goblin",
        "#",
        "a\x1b[31mb",
        "a\nb",
        "a\rb",
        "a\x00b",
        "a\x7fb",
        "a\x9bb",
        "a\u202eb",
        "a\u2028b",
        "\x07",
    ],
)
def test_a_name_a_deck_list_cannot_read_back_is_refused_at_import(loaded_db: str, tmp_path: Path, name: str) -> None:
    path = tmp_path / "n.json"
    path.write_text(json.dumps([{"name": name, "type": "monster"}]), encoding="utf-8")
    assert_refused_unchanged(["catalog", "import", path, "--game", "mea"], loaded_db, 1, contains="column 'name'")


# --- every writer's output read back by its reader ---------------------------------------------

_CODES = st.from_regex(r"[a-z0-9][a-z0-9-]{0,59}", fullmatch=True)
_NAMES = (
    st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=60)
    .map(str.strip)
    .filter(lambda n: 0 < len(n) <= 200 and name_problem(n) is None)
)


@st.composite
def _decks(draw: st.DrawFn) -> tuple[Deck, CatalogIndex]:
    game = draw(st.sampled_from(["mea", "meio", "meikyu"]))
    code = draw(_CODES)
    names = draw(st.lists(_NAMES, min_size=1, max_size=5, unique_by=slug))
    index = CatalogIndex()
    cards = []
    sections = [None, "first half", "second half"] if game == "meio" else [None]
    for name in names:
        cid = f"{game}/{code}/{slug(name)}"
        index.add(CardInfo(cid, short_id(cid), game, code, name, "monster", "x", (), None), [fold(name)])
        cards.append(DeckCard(cid, name, draw(st.integers(1, 999)), draw(st.sampled_from(sections))))
    players = draw(st.none() | st.sampled_from([2, 3, 4])) if game == "meio" else None
    return Deck(game, tuple(cards), None, None, players).canonical(), index


@settings(max_examples=200, deadline=None)
@given(_CODES)
def test_every_set_code_the_importer_accepts_reads_back_from_a_deck_line(code: str) -> None:
    assert set_code(code) == code
    deck = parse_text(f"3 Crumb Goblin ({code})\n")
    assert deck.problems == [] and deck.lines[0].set == code and deck.lines[0].name == "Crumb Goblin"


@settings(max_examples=200, deadline=None)
@given(_decks())
def test_any_accepted_name_and_set_round_trips_through_text_json_and_code(case: tuple[Deck, CatalogIndex]) -> None:
    deck, index = case
    read = parse_text(write_text(deck))
    assert read.problems == []
    assert resolve(read, index).deck == deck
    assert resolve(parse_json(write_json(deck), "j"), index).deck == deck
    decoded = decode(encode(deck, None), index)
    assert (decoded.game, decoded.players) == (deck.game, deck.players)
    assert sorted(decoded.cards, key=repr) == sorted(deck.cards, key=repr)


def test_encode_refuses_a_bad_count_instead_of_crashing() -> None:
    with pytest.raises(UsageError, match="players must be"):
        encode(Deck("meio", (), None, None, 300), None)


BIG_DECK = ["Selounticia", "Crumb Goblin", "Puddle Knight", "Barrel Bandit", "Lantern Sprite", "Pickpocket Ferret"]
BIG_DECK += ["Bramble Bear", "Dizzy Bat", "Tripwire", "Pocket Sand"]


def test_decks_are_bounded_in_size_wherever_they_enter(hostile_db: str, tmp_path) -> None:
    """A deck file of millions of cards, a stored deck grown past the bound and a share code
    holding too many are refused before any work (printing one would take hours)."""
    from tests.hostile.conftest import assert_refused, db_dump

    huge = tmp_path / "huge.txt"
    huge.write_text("game: mea\n" + "999 Selounticia\n" * 20, encoding="utf-8")
    for argv in (["deck", "validate"], ["print", "deck"], ["draws"], ["deck", "encode"], ["export", "images"]):
        extra = ["-o", str(tmp_path / "out")] if argv[-1] in ("deck", "images") and argv[0] != "deck" else []
        run = run_cli([*argv, str(huge), *extra], hostile_db)
        assert run.exit_code == 1 and "at most 10,000" in run.stdout + run.stderr, run.stdout + run.stderr
    run_cli(["deck", "new", "Big", "--game", "mea"], hostile_db)
    assert run_cli(["deck", "add", "Big", "Selounticia", "-n", "999"], hostile_db).exit_code == 0
    # an entry holds at most 999 copies, as every deck reader's line does; over it is checked and
    # invalid (exit 1), as a deck file's line of 1,000 or a file of more than 10,000 cards is
    before = db_dump(hostile_db)
    assert_refused(run_cli(["deck", "add", "Big", "Selounticia", "-n", "1"], hostile_db), 1, "at most 999")
    assert db_dump(hostile_db) == before
    for name in BIG_DECK[1:]:
        assert run_cli(["deck", "add", "Big", name, "-n", "999"], hostile_db).exit_code == 0, name
    before = db_dump(hostile_db)
    assert_refused(run_cli(["deck", "add", "Big", "Pep Talk", "-n", "999"], hostile_db), 1, "at most 10,000")
    assert db_dump(hostile_db) == before
