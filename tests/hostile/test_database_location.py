"""Class 8 (the database's location): a ``--db`` or ``CARDBASE_DB`` no file system can hold (a file
name over 255 bytes, a path over 4,095, bytes that are not UTF-8), as a path or inside a SQLite URL,
is refused as it is read, by every command, naming where it came from (the option or the
environment variable), in one short line, exit 2, with nothing made. The environment variable was
taken as it was: a non-UTF-8 name made a database file of that name, and a long one was quoted whole
in a message of thousands of characters."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from cardbase.cli.app import app
from tests.hostile.conftest import assert_refused

COMMANDS = [
    ["cards", "search", "grimor"],
    ["deck", "new", "Hostile", "--game", "mea"],
    ["deck", "list"],
    ["catalog", "status"],
    ["collection", "show"],
]

LONG_NAME = "a" * 300 + ".db"
LONG_PATH = "/".join(["d" * 200] * 25) + "/cards.db"
LOCATIONS = [
    ("long name", LONG_NAME, "255"),
    ("long path", LONG_PATH, "4,095"),
    ("long name in a folder", "folder/" + LONG_NAME, "255"),
    ("sqlite URL, long name", "sqlite:///" + LONG_NAME, "255"),
    ("sqlite URL, long path", "sqlite:///" + LONG_PATH, "4,095"),
    ("sqlite file: URI, long name", f"sqlite:///file:{LONG_NAME}?mode=ro&uri=true", "255"),
    ("not UTF-8", "\udcff\udcfe.db", "UTF-8"),
    ("sqlite URL, not UTF-8", "sqlite:///\udcffcards.db", "UTF-8"),
]


def _run(argv: list[str], source: str, location: str) -> Result:
    runner = CliRunner()
    if source == "option":
        return runner.invoke(app, [*argv, "--db", location], catch_exceptions=True, env={"CARDBASE_DB": None})
    return runner.invoke(app, argv, catch_exceptions=True, env={"CARDBASE_DB": location})


@pytest.mark.parametrize("source", ["option", "environment"])
@pytest.mark.parametrize("argv", COMMANDS, ids=[" ".join(c[:2]) for c in COMMANDS])
@pytest.mark.parametrize(("kind", "location", "phrase"), LOCATIONS, ids=[loc[0] for loc in LOCATIONS])
def test_a_database_location_no_file_system_holds_is_refused_naming_its_source(
    kind: str, location: str, phrase: str, argv: list[str], source: str, in_tmp: Path
) -> None:
    run = _run(argv, source, location)
    line = assert_refused(run, 2, phrase)
    assert len(line) < 600, line
    if source == "environment":
        assert "CARDBASE_DB" in line, line
    elif "UTF-8" not in phrase:  # (an argument that is not UTF-8 is refused, by its number, before any option)
        assert "--db" in line, line
    assert list(in_tmp.iterdir()) == []


@pytest.mark.parametrize(("kind", "location", "phrase"), LOCATIONS, ids=[loc[0] for loc in LOCATIONS])
def test_opening_such_a_location_from_code_is_the_same_short_refusal(
    kind: str, location: str, phrase: str, in_tmp: Path
) -> None:
    """The web app's and scripts' ``open_database`` refuse it too, before the driver sees it."""
    from cardbase.db.engine import open_database
    from cardbase.errors import CardbaseError

    with pytest.raises(CardbaseError) as refused:
        open_database(location)
    assert phrase in str(refused.value) and len(str(refused.value)) < 600, str(refused.value)
    assert list(in_tmp.iterdir()) == []
