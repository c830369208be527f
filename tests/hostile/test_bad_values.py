"""Class 2 of issue 24: values that made an internal error (exit 70) are each one ``cardbase: error:``
line naming the file, key or option, exit 1 or 2 — layout values, a nameless deck section, a file
name too long for the system, a NUL or a lone surrogate, JSON of the wrong type, a damaged face
cache, junk in a card's stored abilities. (Records and the prompt: test_records_fuzz.py,
test_long_words.py; every option with odd values: test_option_sweep.py.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from cardbase.db.engine import database_url
from tests.conftest import REPO
from tests.hostile.conftest import assert_refused, assert_refused_unchanged, db_dump, run_cli

pytestmark = pytest.mark.timeout(600)

DECK = str(REPO / "examples" / "decks" / "mea-goblin-rush.txt")
PLAIN = (REPO / "examples" / "layouts" / "mea-plain.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("old", "new", "fragment"),
    [
        ('size = "11pt"', 'size = "1.2.3"', "key 'size': bad length '1.2.3'"),
        ("min_size = 7", 'min_size = ".."', "key 'min_size': bad length '..'"),
        ('fill = "#f4f1ea"', 'fill = "{nope}"', "key 'fill': bad colour '{nope}'"),
        ('fill = "#f4f1ea"', 'fill = "{name}"', "key 'fill': bad colour '{name}'"),
        ('fill = "#f4f1ea"', 'fill = "#fff\\n"', "key 'fill': bad colour"),
        ('size = "11pt"', "size = nan", "key 'size'"),
        ("box = [5, 5, 53, 9]", "box = [5, 5, inf, 9]", "key 'box[3]'"),
    ],
)
def test_a_bad_layout_value_names_the_file_table_and_key(
    old: str, new: str, fragment: str, hostile_db: str, tmp_path: Path
) -> None:
    layout = tmp_path / "layout.toml"
    assert old in PLAIN
    layout.write_text(PLAIN.replace(old, new, 1), encoding="utf-8")
    run = run_cli(
        ["render", "card", "Crumb Goblin", "--layout", str(layout), "-o", str(tmp_path / "c.png")], hostile_db
    )
    assert_refused(run, 1, "layout.toml: table [layouts.mea-monster.elements[", fragment)


def test_a_nameless_section_is_one_problem_of_the_deck(hostile_db: str, tmp_path: Path) -> None:
    deck = tmp_path / "sections.txt"
    deck.write_text("game: mea\n[]\n3 Crumb Goblin\n[  ]\n2 Puddle Knight\n", encoding="utf-8")
    for command in ("validate", "show", "stats"):
        run = run_cli(["deck", command, str(deck)], hostile_db)
        assert "Traceback" not in run.stdout + run.stderr and run.exit_code in (0, 1), run.stderr
        said = run.stdout + run.stderr
        assert "line 2" in said and "a section needs a name" in said, said
    assert_refused_unchanged(["deck", "import", str(deck)], hostile_db, 1, contains="a section needs a name")


@pytest.mark.parametrize(
    "argv",
    [
        ["draws", DECK, "--need", "1 t:monster", "--plot", "p" * 300 + ".png"],
        ["render", "card", "Crumb Goblin", "-o", "p" * 300 + ".png"],
        ["deck", "export", DECK, "-o", "p" * 300 + ".txt"],
        ["print", "deck", DECK, "--images", "i" * 256],
        ["catalog", "export", "--game", "meio", "-o", "d/" * 2100 + "x.csv"],
    ],
    ids=["draws --plot", "render -o", "deck export -o", "print --images", "a path over 4,095 bytes"],
)
def test_a_path_the_system_cannot_hold_is_a_usage_error(argv: list[str], hostile_db: str, in_tmp: Path) -> None:
    assert_refused(run_cli(argv, hostile_db), 2, "the system takes at most")
    assert not [p for p in in_tmp.iterdir() if p.name != "cards.db"]  # nothing written


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["deck", "diff", "a\x00b.txt", DECK], "argument 3 ('a\\x00b.txt') holds a NUL character"),
        (["replay", "r\x00.jsonl"], "holds a NUL character"),
        (["cards", "search", "\udcff"], "argument 3 ('\\udcff') is not UTF-8 text"),
        (["deck", "new", "x\udcff", "--game", "mea"], "is not UTF-8 text"),
        (["--version\x00"], "holds a NUL character"),
    ],
)
def test_a_nul_or_a_lone_surrogate_in_argv_is_refused_where_argv_enters(
    argv: list[str], fragment: str, hostile_db: str
) -> None:
    assert_refused_unchanged(argv, hostile_db, 2, contains=fragment)


def test_a_nul_in_a_path_read_by_a_library_function_is_unreadable(tmp_path: Path) -> None:
    from cardbase.errors import UnreadableInput
    from cardbase.textfiles import path_problem, read_bytes

    with pytest.raises(UnreadableInput, match="cannot hold a NUL"):
        read_bytes(tmp_path / "a\x00b")
    assert path_problem("ok/name.txt") is None
    assert "NUL" in (path_problem("a\x00") or "")
    assert "255" in (path_problem("n" * 256) or "")


def _catalog(tmp_path: Path, payload: object) -> str:
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(payload), encoding="utf-8")
    return str(path)


CARD = {"name": "Zed", "type": "monster", "cost": 1, "attack": 1, "defence": 1}


@pytest.mark.parametrize(
    ("payload", "code", "fragment"),
    [
        (
            {"game": "mea", "cards": [CARD | {"set": 5}]},
            1,
            "cards[0], column 'set': text (a JSON string), not a number",
        ),
        ({"game": "mea", "cards": [CARD | {"set": {"a": 1}}]}, 1, "column 'set': text (a JSON string), not an object"),
        ({"game": "mea", "cards": [CARD | {"set": [1]}]}, 1, "column 'set': text (a JSON string), not a list"),
        ({"game": "mea", "cards": [CARD | {"name": 1984}]}, 1, "column 'name': text (a JSON string), not a number"),
        ({"game": "mea", "cards": [CARD | {"text": True}]}, 1, "column 'text': text (a JSON string), not true/false"),
        ({"game": "mea", "cards": [CARD | {"cost": [1]}]}, 1, "column 'cost': a whole number, not a list"),
        ({"game": "mea", "cards": [CARD | {"aliases": [1, 2]}]}, 1, "column 'aliases': text or a list of texts"),
        ({"game": "mea", "cards": [CARD | {"tags": [{"a": 1}]}]}, 1, "column 'tags': text or a list of texts"),
        ({"game": "mea", "cards": [CARD | {"abilities": {"a": 1}}]}, 1, "column 'abilities': a list of abilities"),
        ({"game": "mea", "set": 5, "cards": [CARD]}, 2, "the file's 'set' must be text (a JSON string), not a number"),
        (
            {"game": "mea", "set": {}, "cards": [CARD]},
            2,
            "the file's 'set' must be text (a JSON string), not an object",
        ),
        ({"game": 7, "cards": [CARD]}, 2, "the file's 'game' must be text (a JSON string), not a number"),
    ],
)
def test_json_import_of_a_field_of_the_wrong_type_is_refused_unchanged(
    payload: object, code: int, fragment: str, hostile_db: str, tmp_path: Path
) -> None:
    argv = ["catalog", "import", _catalog(tmp_path, payload), "--game", "mea"]
    assert_refused_unchanged(argv, hostile_db, code, contains=fragment)


def test_a_lone_surrogate_in_a_json_name_is_refused(hostile_db: str, tmp_path: Path) -> None:
    path = tmp_path / "cards.json"
    path.write_text('{"game": "mea", "cards": [{"name": "Zed\\udcff", "type": "monster"}]}', encoding="utf-8")
    assert_refused_unchanged(["catalog", "import", str(path), "--game", "mea"], hostile_db, 2, contains="\\udcff")
    deck = tmp_path / "deck.json"
    deck.write_text('{"game": "mea", "cards": [{"name": "\\ud800", "count": 1}]}', encoding="utf-8")
    assert_refused(run_cli(["deck", "validate", str(deck)], hostile_db), 2, "half of a UTF-16 pair")


def test_a_damaged_face_cache_entry_is_drawn_again(hostile_db: str, tmp_path: Path) -> None:
    images = tmp_path / "images"
    first = run_cli(
        ["render", "card", "Crumb Goblin", "--images", str(images), "-o", str(tmp_path / "a.png")], hostile_db
    )
    assert first.exit_code == 0, first.stderr
    entries = list((images / ".cache" / "png").glob("*.png"))
    assert entries
    for entry in entries:
        entry.write_bytes(entry.read_bytes()[:100] + b"damaged")
    again = run_cli(
        ["render", "card", "Crumb Goblin", "--images", str(images), "-o", str(tmp_path / "b.png")], hostile_db
    )
    assert again.exit_code == 0, again.stderr
    assert (tmp_path / "b.png").read_bytes() == (tmp_path / "a.png").read_bytes()
    for entry in entries:  # the entry was drawn again, whole
        from PIL import Image

        with Image.open(entry) as image:
            image.load()


def test_a_damaged_cache_entry_never_reaches_exported_images(hostile_db: str, tmp_path: Path) -> None:
    from PIL import Image

    images = tmp_path / "images"
    argv = ["export", "images", DECK, "--images", str(images), "--dpi", "30", "-o"]
    assert run_cli([*argv, str(tmp_path / "one")], hostile_db).exit_code == 0
    for entry in (images / ".cache" / "png").glob("*.png"):
        entry.write_bytes(b"\x89PNG\r\n\x1a\nbroken")
    run = run_cli([*argv, str(tmp_path / "two")], hostile_db)
    assert run.exit_code == 0, run.stderr
    pngs = sorted((tmp_path / "two").glob("*.png"))
    assert pngs
    for png in pngs:
        with Image.open(png) as image:
            image.load()


def _damage_abilities(url: str, value: str) -> None:
    engine = create_engine(database_url(url))
    with engine.begin() as conn:
        conn.execute(text("UPDATE card SET abilities = :v WHERE name = 'Crumb Goblin'"), {"v": value})
    engine.dispose()


@pytest.mark.parametrize("junk", ["{not json", '{"a": 1}', "[" * 5000, "9" * 5000])
def test_junk_in_a_cards_stored_abilities_is_an_error_naming_the_card(junk: str, hostile_db: str, in_tmp: Path) -> None:
    """Chosen: an error naming the card (exit 2, the database is damaged), never the card shown, played
    or exported as if it had no abilities (that would be a silent change of the card)."""
    _damage_abilities(hostile_db, junk)
    before = db_dump(hostile_db)
    for argv in (
        ["cards", "show", "Crumb Goblin", "--json"],
        ["cards", "search", "Crumb Goblin", "--json"],
        ["catalog", "export", "--game", "mea", "-o", "out.json"],
        ["sim", "mea", "--deck", DECK, "--vs", DECK, "--games", "2"],
    ):
        assert_refused(run_cli(argv, hostile_db), 2, "card 'Crumb Goblin' (mea/demo/crumb-goblin)", "damaged")
    assert db_dump(hostile_db) == before
    assert not (in_tmp / "out.json").exists()


def test_a_toml_number_of_5000_digits_is_unreadable(hostile_db: str, tmp_path: Path) -> None:
    """tomllib lets a too-long integer out as a bare ValueError: the one TOML reader names the file."""
    formats = tmp_path / "formats.toml"
    formats.write_text(f'[formats.x]\ngame = "mea"\ncopy_limit = {"9" * 5000}\n', encoding="utf-8")
    assert_refused(run_cli(["deck", "validate", DECK, "--formats", str(formats)], hostile_db), 2, "formats.toml")
    layout = tmp_path / "layout.toml"
    layout.write_text(PLAIN.replace("min_size = 7", f"min_size = {'9' * 5000}", 1), encoding="utf-8")
    argv = ["render", "card", "Crumb Goblin", "--layout", str(layout), "-o", str(tmp_path / "c.png")]
    assert_refused(run_cli(argv, hostile_db), 2, "layout.toml: not valid TOML: a number of over 4,300 digits")


FIVE_THOUSAND_DIGITS = "1" * 5000
"""Past ``int()``'s 4,300 digits: a text that passes ``isdecimal()`` and then makes ``int()`` raise."""


@pytest.mark.parametrize("value", [FIVE_THOUSAND_DIGITS, "0", "1000001", "٣", "1e3"])
def test_a_bad_deck_history_setting_names_the_variable(
    value: str, shared_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CARDBASE_DECK_HISTORY", value)
    assert_refused_unchanged(["deck", "list"], shared_db, 2, contains="CARDBASE_DECK_HISTORY")


def test_a_count_of_5000_digits_in_a_cockatrice_deck_is_a_problem_of_its_line(tmp_path: Path) -> None:
    deck = tmp_path / "big.cod"
    deck.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_deck version="1"><zone name="main">'
        f'<card number="{FIVE_THOUSAND_DIGITS}" name="Crumb Goblin"/></zone></cockatrice_deck>\n',
        encoding="utf-8",
    )
    result = run_cli(["deck", "validate", str(deck), "--game", "mea"], str(tmp_path / "x.db"))
    assert result.exit_code == 1, result.output
    assert "is not a whole number from 1 to" in result.output and "Traceback" not in result.output


def test_an_opening_range_of_5000_digits_is_refused_naming_the_agent() -> None:
    import random
    from typing import Any, cast

    from cardbase.games.mea.agents import opening_size

    for opening in (f"1-{FIVE_THOUSAND_DIGITS}", f"{FIVE_THOUSAND_DIGITS}-3"):
        with pytest.raises(ValueError, match="opening is a number or a range"):
            opening_size(cast(Any, None), 0, opening, random.Random(0))
    assert opening_size(cast(Any, None), 0, "3-3", random.Random(0)) == 3
