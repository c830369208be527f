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
