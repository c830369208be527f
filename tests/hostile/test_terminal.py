"""No terminal escape reaches the terminal: refused in names at import, made visible at output.

Two mechanisms, both general: ``cardbase.names.name_problem`` refuses control characters where
names enter, and ``cardbase.cli.common.console`` shows every control character a terminal would
act on as a visible escape, in every string and table cell it prints.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.table import Table
from rich.text import Text
from sqlalchemy import create_engine, text

from cardbase.cli.common import console, safe_text
from cardbase.db.engine import database_url
from cardbase.db.models import short_id
from tests.hostile.conftest import assert_refused_unchanged, run_cli

UNSAFE = (
    [chr(c) for c in range(0x20) if chr(c) not in "\t\n"]
    + ["\x7f"]
    + [chr(c) for c in range(0x80, 0xA0)]
    + [
        "\u061c",
        "\u200e",
        "\u200f",
        "\u202a",
        "\u202b",
        "\u202c",
        "\u202d",
        "\u202e",
        "\u2066",
        "\u2067",
        "\u2068",
        "\u2069",
    ]
)


def _printed(renderable: object) -> str:
    out = console()
    out.file = io.StringIO()
    out.print(renderable)
    return out.file.getvalue()


@pytest.mark.parametrize("char", UNSAFE, ids=lambda c: f"U+{ord(c):04X}")
def test_no_control_character_is_printed_raw_in_a_table_or_a_line(char: str) -> None:
    table = Table(title=f"t{char}")
    table.add_column(f"h{char}")
    table.add_row(f"a{char}b")
    table.add_row(Text(f"c{char}d"))
    for shown in (_printed(table), _printed(f"line {char} end")):
        assert char not in shown
        assert "\\x" in shown or "\\u" in shown


def test_the_console_shows_markup_and_emoji_codes_in_a_name_as_text() -> None:
    # A card imported as ':smile: [bold]Grin[/]' is shown as those characters in every table and line.
    name = ":smile: [bold]Grin[/] [link=file:///etc/passwd]x"
    table = Table(title=name)
    table.add_column(name)
    table.add_row(name)
    for shown in (_printed(table), _printed(name)):
        assert name in shown and "😄" not in shown


def test_safe_text_keeps_ordinary_text() -> None:
    assert safe_text("勇者 Crème\tGolem\n") == "勇者 Crème\tGolem\n"


ESCAPES = {
    "csi-colour": "\x1b[31mRed\x1b[0m",
    "clear-screen": "Boom\x1b[2J",
    "osc-title": "\x1b]0;owned\x07Title",
    "osc-hyperlink": "\x1b]8;;http://evil.example\x1b\\Link\x1b]8;;\x1b\\",
    "dcs": "\x1bPq#0\x1b\\Sixel",
    "c1-csi": "\x9b31mC1",
    "bell": "Bell\x07",
    "backspace": "Back\x08\x08\x08Over",
    "carriage-return": "Fake\rReal",
    "bidi-override": "Evil\u202eGNP.exe",
    "null": "Nul\x00l",
    "vertical-tab": "V\x0bT",
}


@pytest.mark.parametrize("case", sorted(ESCAPES))
def test_a_name_with_an_escape_is_refused_at_import(loaded_db: str, tmp_path: Path, case: str) -> None:
    path = tmp_path / "e.json"
    path.write_text(json.dumps([{"name": ESCAPES[case], "type": "monster"}]), encoding="utf-8")
    assert_refused_unchanged(["catalog", "import", path, "--game", "mea"], loaded_db, 1, contains="control character")


@pytest.mark.parametrize("case", sorted(set(ESCAPES) - {"carriage-return"}))
def test_rules_text_with_an_escape_is_refused_at_import(loaded_db: str, tmp_path: Path, case: str) -> None:
    path = tmp_path / "e.json"
    path.write_text(json.dumps([{"name": "Escape Goblin", "type": "monster", "text": ESCAPES[case]}]), encoding="utf-8")
    assert_refused_unchanged(["catalog", "import", path, "--game", "mea"], loaded_db, 1, contains="column 'text'")


def test_rules_text_keeps_tabs_and_line_breaks(loaded_db: str, tmp_path: Path) -> None:
    path = tmp_path / "e.json"
    path.write_text(json.dumps([{"name": "Escape Goblin", "type": "monster", "text": "a\tb\r\nc\u200fd"}]))
    assert run_cli(["catalog", "import", path, "--game", "mea"], loaded_db).exit_code == 0


# PostgreSQL text cannot hold NUL at all, so that one is left out of the stored names.
@pytest.mark.parametrize("case", sorted(set(ESCAPES) - {"null"}))
def test_a_name_already_in_an_old_database_is_shown_escaped(loaded_db: str, case: str) -> None:
    """Defence in depth: a name that got in before the import rule still prints as visible escapes."""
    name = ESCAPES[case]
    cid = f"mea/core/escape-{case}"
    engine = create_engine(database_url(loaded_db))
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO card (id, short_id, game, set_code, name, search_names, type, source, unknown, text)"
                " VALUES (:id, :sid, 'mea', 'core', :name, '|escapegoblin|', 'monster', 'x', '', :name)"
            ),
            {"id": cid, "sid": short_id(cid), "name": name},
        )
    engine.dispose()
    for args in (
        ["cards", "search", "escapegoblin", "--game", "mea"],
        ["cards", "show", "escapegoblin", "--game", "mea"],
    ):
        result = run_cli(args, loaded_db)
        assert result.exit_code == 0, (args, result.stderr)
        assert "\\x" in result.stdout or "\\u" in result.stdout, result.stdout  # the escape, made visible
        for char in UNSAFE:
            assert char not in result.stdout, (args, repr(result.stdout))


@pytest.mark.parametrize("name", ["\x1b[2JDeck", "Deck\x07", "De\u202eck", "Deck\nTwo", ""])
def test_a_deck_name_with_a_control_character_is_refused(loaded_db: str, name: str) -> None:
    assert_refused_unchanged(["deck", "new", name, "--game", "mea"], loaded_db, 2, contains="deck name")


PATH_ESCAPES = "\x1b]0;pwned\x07\x1b[2J\r\u202e"
"""A path typed by a user that would retitle the terminal, clear the screen and reorder the line."""


def _raw_escapes(shown: str) -> list[str]:
    return [c for c in UNSAFE if c in shown]


def test_a_path_in_an_error_line_is_shown_escaped(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from cardbase.cli.app import app

    missing = str(tmp_path / f"deck{PATH_ESCAPES}.txt")
    result = CliRunner().invoke(app, ["deck", "validate", missing, "--db", str(tmp_path / "x.db")], color=True)
    assert result.exit_code == 2 and result.stderr.startswith("cardbase: error:"), result.stderr
    assert _raw_escapes(result.stderr) == [], repr(result.stderr)
    assert "\\x1b]0;pwned\\x07" in result.stderr


def test_a_path_in_a_done_line_is_shown_escaped(loaded_db: str, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from cardbase.cli.app import app

    out = tmp_path / f"meio{PATH_ESCAPES}.csv"
    args = ["catalog", "export", "--game", "meio", "-o", str(out), "--db", loaded_db]
    result = CliRunner().invoke(app, args, color=True)
    assert result.exit_code == 0 and out.is_file(), result.output
    assert _raw_escapes(result.stdout) == [], repr(result.stdout)
    assert "wrote 52 meio cards to" in result.stdout and "\\x1b[2J" in result.stdout


@pytest.mark.parametrize("args", [["deck", "validate"], ["catalog", "import", "--game", "meio", "--dry-run"]])
def test_a_path_with_a_line_break_stays_on_the_error_line(tmp_path: Path, args: list[str]) -> None:
    for name in ("missing\nhere.txt", "folder\nhere"):
        path = tmp_path / name
        if name.startswith("folder"):
            path.mkdir()
        result = run_cli([*args, str(path)], str(tmp_path / "x.db"))
        assert result.exit_code == 2, result.stderr
        assert len(result.stderr.splitlines()) == 1, repr(result.stderr)
        assert "\\n" in result.stderr


def _deck_at(tmp_path: Path, name: str) -> str:
    path = tmp_path / name
    path.write_text((Path(__file__).parents[2] / "examples/decks/mea-goblin-rush.txt").read_text(encoding="utf-8"))
    return str(path)


@pytest.mark.parametrize(
    "args",
    [
        ["deck", "validate", "{deck}"],
        ["deck", "stats", "{deck}"],
        ["deck", "show", "{deck}"],
        ["draws", "{deck}"],
        ["draws", "{deck}", "--sample", "2"],
        ["draws", "{deck}", "--by-turn", "2"],
    ],
    ids=" ".join,
)
def test_a_path_in_any_output_line_is_shown_escaped(loaded_db: str, tmp_path: Path, args: list[str]) -> None:
    # The lines these commands print name the deck file: every one goes through cli.common's echo.
    deck = _deck_at(tmp_path, f"deck{PATH_ESCAPES}.txt")
    result = run_cli([a.replace("{deck}", deck) for a in args], loaded_db)
    assert result.exit_code in (0, 1), result.stderr
    assert _raw_escapes(result.stdout + result.stderr) == [], repr(result.stdout)


@pytest.mark.parametrize("name", ["a\n  b", "a\n\tb", "a\r\n  b"])
def test_a_path_with_a_line_break_and_indent_stays_on_its_line(loaded_db: str, tmp_path: Path, name: str) -> None:
    # An indented line below an error is one of the items it lists: a path's own break must not make one.
    missing = run_cli(["deck", "validate", str(tmp_path / f"{name}.txt")], loaded_db)
    assert missing.exit_code == 2 and len(missing.stderr.splitlines()) == 1, repr(missing.stderr)
    folder = tmp_path / f"folder{name}"
    folder.mkdir()
    refused = run_cli(["catalog", "import", str(folder), "--game", "meio", "--format", "csv"], loaded_db)
    assert refused.exit_code == 2 and len(refused.stderr.splitlines()) == 1, repr(refused.stderr)
    out = tmp_path / f"export{name}.csv"
    done = run_cli(["catalog", "export", "--game", "meio", "-o", str(out)], loaded_db)
    assert done.exit_code == 0 and out.is_file() and len(done.stdout.splitlines()) == 1, repr(done.stdout)
    assert "\\n" in missing.stderr + refused.stderr + done.stdout


def test_an_error_that_lists_problems_still_lists_them_one_a_line(loaded_db: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad\n  name.csv"
    bad.write_text("name,type\nOne,wizard\nTwo,sorcerer\n", encoding="utf-8")
    result = run_cli(["catalog", "import", str(bad), "--game", "mea", "--dry-run"], loaded_db)
    lines = result.stderr.splitlines()
    assert result.exit_code == 1 and lines[0].startswith("cardbase: error:") and "\\n" in lines[0], lines
    assert len(lines) == 3 and all(line.startswith("  ") for line in lines[1:]), lines


@pytest.mark.parametrize("case", ["csi", "c1 csi", "bidi override", "del"])
def test_json_output_keeps_the_data_and_escapes_what_a_terminal_acts_on(loaded_db: str, case: str) -> None:
    name = {"csi": "Goblin\x1b[2J", "c1 csi": "Goblin\x9b2J", "bidi override": "Gob\u202elin", "del": "Gob\x7flin"}[
        case
    ]
    cid = "mea/core/escape-json"
    engine = create_engine(database_url(loaded_db))
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO card (id, short_id, game, set_code, name, search_names, type, source, unknown, text)"
                " VALUES (:id, :sid, 'mea', 'core', :name, '|escapegoblin|', 'monster', 'x', '', 'x')"
            ),
            {"id": cid, "sid": short_id(cid), "name": name},
        )
    engine.dispose()
    result = run_cli(["cards", "search", "escapegoblin", "--game", "mea", "--json"], loaded_db)
    assert result.exit_code == 0, result.stderr
    assert _raw_escapes(result.stdout) == [], repr(result.stdout)
    data = json.loads(result.stdout)  # still JSON, holding the name unchanged
    assert [card["name"] for card in data] == [name]

