"""No terminal escape reaches the terminal: refused in names at import, made visible at output.

Two mechanisms, both general: ``cardbase.names.name_problem`` refuses control characters where
names enter, and ``cardbase.cli.common.console`` shows every control character a terminal would
act on as a visible escape, in every string and table cell it prints.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

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


# --- the play prompt and the Méa table: imported names shown as text, never as markup or escapes ---

HOSTILE_NAMES = (
    "[bold]Bold",
    "Closing [/] Tag",
    "[link=file:///etc/passwd]Link",
    ":smile: Grin",
    "\x1b[2JClear\x1b]0;owned\x07",
    "Evil\u202eGNP",
    "Fake\rReal",
)
"""Card and deck names that Rich would read as markup (or refuse with a MarkupError), as an emoji
code, or that a terminal would act on (clear the screen, retitle it, reorder or overwrite the line)."""


def _hostile_mea_rules() -> object:
    from dataclasses import replace

    from cardbase.games.mea.rules import MeaDeck, MeaRules
    from tests.mea.conftest import DEMO

    cards = [
        replace(card, name=f"{HOSTILE_NAMES[k % len(HOSTILE_NAMES)]} {card.name}")
        for k, card in enumerate(sorted(DEMO.values(), key=lambda c: c.name))
    ]
    a = MeaDeck(HOSTILE_NAMES[0] + HOSTILE_NAMES[4], tuple((c, 2) for c in cards[0::2]))
    b = MeaDeck(HOSTILE_NAMES[2] + HOSTILE_NAMES[5], tuple((c, 2) for c in cards[1::2]))
    return MeaRules(decks=(a, b))


def test_a_mea_game_with_hostile_names_is_played_and_shown_as_text(capsys: pytest.CaptureFixture[str]) -> None:
    """Played through the prompt's writer and the Méa table (``play mea``'s own pieces): every name is
    shown literally, its control characters as visible escapes; no markup, emoji or traceback."""
    from cardbase.sim import mea_view
    from cardbase.sim.play import play_interactive
    from cardbase.sim.prompt import writer
    from cardbase.sim.registry import GAMES

    rules: Any = _hostile_mea_rules()
    names = sorted({c.name for deck in rules.decks for c, _ in deck.cards})
    typed = iter(["show", "legal", *(f"card {name}" for name in names), "draw 3", "show", "legal summon", "quit"])
    prompts: list[str] = []

    def read(prompt: str) -> str | None:
        prompts.append(prompt)
        return next(typed, None)

    agents = {1: GAMES["mea"].make_agent("random", rules, 1, 0)}
    ui = mea_view.game_ui(rules)
    session = play_interactive(rules, 5, 0, agents, read, writer(), show=mea_view.show, ui=ui)
    assert session.abandoned and prompts
    out = capsys.readouterr().out
    assert _raw_escapes(out) == [], [c for c in _raw_escapes(out)]
    assert "\\x1b[2JClear\\x1b]0;owned\\x07" in out and "Evil\\u202eGNP" in out and "Fake\\x0dReal" in out
    own = sorted({c.name for c, _ in rules.decks[0].cards})  # P1's deck: what the seat may look up
    for name in own:  # ``card NAME`` prints each name whole, as text
        assert f"{safe_text(name)} — " in out, name
    assert "😄" not in out and "Traceback" not in out


def test_the_mea_table_shows_hostile_names_as_text(capsys: pytest.CaptureFixture[str]) -> None:
    """The table as ``show`` draws it, and on a wide console of Rich's defaults (markup and emoji on):
    the hand's names literally, the ESC, CR and bidi override as escapes."""
    from rich.console import Console

    from cardbase.games.base import CHANCE
    from cardbase.sim import mea_view

    rules: Any = _hostile_mea_rules()
    state = rules.new_initial_state(7)
    while state.current_player == CHANCE or state.observation(0).view.phase == "opening":  # draw 10 to open
        state.apply(state.sample_chance() if state.current_player == CHANCE else state.legal_actions()[-1])
    observation = state.observation(0)
    hand = [observation.view.card(i).name for i in observation.view.hand(0)]
    assert {h for h in HOSTILE_NAMES if any(name.startswith(h) for name in hand)} == set(HOSTILE_NAMES)
    mea_view.show(observation)
    drawn = capsys.readouterr().out
    assert _raw_escapes(drawn) == [] and "\\x1b" in drawn and "\\u202e" in drawn and "Traceback" not in drawn
    wide = io.StringIO()
    Console(file=wide, width=400, color_system=None).print(mea_view.table(observation))
    shown = wide.getvalue()
    assert _raw_escapes(shown) == [] and "😄" not in shown
    for name in hand:
        assert safe_text(name) in shown, (name, shown)
