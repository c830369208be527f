"""The root command and every command group: --version, an example in every group's --help,
and Rich markup that renders instead of printing literally."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer.main
from rich.console import Console
from typer.testing import CliRunner

from cardbase import __version__
from cardbase.cli.app import app
from cardbase.db.models import SCHEMA_VERSION

runner = CliRunner()


def _groups(group: Any, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    out = [path]
    for name, command in sorted(group.commands.items()):
        if getattr(command, "commands", None) is not None:  # a group
            out.extend(_groups(command, (*path, name)))
    return out


def test_every_command_group_help_has_an_example():
    groups = _groups(typer.main.get_command(app))
    assert len(groups) >= 12  # the root and its groups (export and odds meikyu included): the walk finds them
    for path in groups:
        result = runner.invoke(app, [*path, "--help"])
        assert result.exit_code == 0, path
        assert "Example: cardbase " in result.stdout, f"{' '.join(path) or 'cardbase'} --help has no example"


def test_version_names_the_package_the_schema_and_the_database_with_the_password_masked():
    result = runner.invoke(app, ["--version"], env={"CARDBASE_DB": "postgresql://alice:s3cret@db.example/cards"})
    assert result.exit_code == 0, result.output
    assert f"cardbase {__version__}" in result.stdout
    assert f"schema version {SCHEMA_VERSION}" in result.stdout
    assert "postgresql+psycopg://alice:***@db.example/cards" in result.stdout and "s3cret" not in result.stdout
    plain = runner.invoke(app, ["--version"], env={"CARDBASE_DB": "some/where.db"})
    assert "database: sqlite:///some/where.db" in plain.stdout


def test_the_progress_bar_prints_its_description_not_markup(monkeypatch):
    import io

    from cardbase.cli.sim import _progress

    terminal = Console(file=io.StringIO(), force_terminal=True)  # a bar is drawn on a terminal only
    monkeypatch.setattr("cardbase.terminal.progress_console", lambda: terminal)
    progress, _advance, stop = _progress("Méa [demo] deck", 4)
    con = Console(record=True, width=100, force_terminal=False)
    con.print(progress.make_tasks_table(progress.tasks))
    text = con.export_text()
    assert "Méa [demo] deck ×4" in text and "[progress" not in text
    stop()


def test_replay_moves_print_bold_headings_not_tags(tmp_path):
    sim = runner.invoke(app, ["sim", "meio", "--players", "2", "--agents", "random,random", "--games", "1",
                              "--records", str(tmp_path)])  # fmt: skip
    assert sim.exit_code == 0, sim.output
    (path,) = tmp_path.glob("*.jsonl")
    result = runner.invoke(app, ["replay", str(path), "--moves"])
    assert result.exit_code == 0, result.output
    assert "game at line 1" in result.stdout and "[bold]" not in result.stdout and "[/bold]" not in result.stdout
    assert "[progress." not in sim.output


MARKUP = re.compile(r"\[/?(?:bold|dim|italic|underline|red|green|yellow|blue|cyan|magenta|progress\.[a-z_]+)[^\]]*\]")


def test_no_command_prints_rich_markup_literally(db_url, tmp_path):
    commands = [
        ["catalog", "status"],
        ["cards", "search", "t:monster cost<=2", "--game", "mea"],
        ["cards", "show", "grimor"],
        ["deck", "stats", "examples/decks/mea-goblin-rush.txt"],
        ["deck", "validate", "examples/decks/mea-broken.txt"],
        ["draws", "examples/decks/mea-goblin-rush.txt", "--need", "1 t:assist"],
        ["sim", "meio", "--players", "2", "--agents", "random,random", "--games", "2", "--records", str(tmp_path)],
        ["odds", "meikyu", "quest", "--swords", "3", "--level", "7"],
    ]
    for args in commands:
        result = runner.invoke(app, [*args, "--db", db_url] if args[0] not in ("odds", "sim") else args)
        assert result.exit_code in (0, 1), (args, result.output)
        assert not MARKUP.search(result.output), (args, MARKUP.search(result.output))


def test_the_listed_summaries_are_each_commands_own_help():
    """``cardbase --help`` lists each command by ``app.COMMANDS`` without importing it: each
    summary there is the first paragraph of the command's own help, so the two cannot drift."""
    from cardbase.cli.app import COMMANDS

    root = typer.main.get_command(app)
    assert list(root.commands) == list(COMMANDS)  # every command is listed, in the listed order
    for name, (_, summary) in COMMANDS.items():
        help_text = root.commands[name].help or ""
        first = " ".join(help_text.split("\n\n", 1)[0].split())
        assert first == summary, name


def _modules_after(*argv: str, cwd: Path) -> set[str]:
    """The modules loaded by ``cardbase ARGV`` run in a fresh interpreter (as the console script does)."""
    code = (
        "import sys\n"
        f"sys.argv = ['cardbase', *{list(argv)!r}]\n"
        "from cardbase.cli.app import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "sys.stderr.write('\\n'.join(sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, check=True)
    return set(done.stderr.splitlines())


def test_help_reads_no_command_module_and_a_command_only_its_own(tmp_path):
    """Start-up work is import work: ``--help`` loads no command group, and a command loads its
    own group only (``cards search`` reads no simulator, renderer or web module)."""
    commands = {f"cardbase.cli.{name}" for name in ("cards", "catalog", "deck", "draws", "lab", "odds", "play",
                                                    "print", "render", "replay", "schema", "serve", "sim")}  # fmt: skip
    assert not _modules_after("--help", cwd=tmp_path) & commands
    searched = _modules_after("cards", "search", "t:monster", "--json", "--db", str(tmp_path / "c.db"), cwd=tmp_path)
    assert searched & commands == {"cardbase.cli.cards"}
    heavy = {"reportlab", "PIL", "numpy", "matplotlib", "fastapi", "jinja2", "rich", "click", "cardbase.sim"}
    assert not heavy & {m.split(".")[0] for m in searched} | {m for m in searched if m.startswith("cardbase.sim")}


def test_reading_commands_import_no_orm(tmp_path):
    """``deck validate`` and ``cards search`` on a database that is up to date read through the Core
    tables (``cardbase.db.tables``): importing ``sqlmodel``, ``sqlalchemy.orm`` and building the
    SQLModel classes would cost more than the commands' own work. Making the database may import them."""
    example = Path(__file__).resolve().parents[1] / "examples" / "decks" / "mea-goblin-rush.txt"
    db = str(tmp_path / "c.db")
    made = _modules_after("deck", "validate", str(example), "--db", db, cwd=tmp_path)
    assert "cardbase.decks.validate" in made  # the command ran
    orm = ("sqlmodel", "sqlalchemy.orm", "cardbase.db.models")
    for argv in (
        ("deck", "validate", str(example), "--db", db),
        ("deck", "validate", str(example), "--db", db, "--json"),
        ("cards", "search", "t:monster cost<=3", "--json", "--db", db),
        ("cards", "search", "tag:removal o:draw", "--db", db),
    ):
        loaded = _modules_after(*argv, cwd=tmp_path)
        assert "cardbase.db.engine" in loaded, argv  # it opened the database
        imported = sorted(m for m in loaded if _under(m, orm))
        assert not imported, f"{argv} imported {imported}"


def _under(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def test_reading_commands_configure_no_orm_mapper(tmp_path):
    """``deck validate`` and ``cards search`` read through the tables' columns: configuring the ORM's
    mappers (all of them, on the first read through a mapped class) is start-up work they skip."""
    deck = tmp_path / "deck.txt"
    example = Path(__file__).resolve().parents[1] / "examples" / "decks" / "mea-goblin-rush.txt"
    deck.write_text(example.read_text(encoding="utf-8"), encoding="utf-8")
    db = str(tmp_path / "c.db")
    code = (
        "import sys\n"
        "from cardbase.cli.app import main\n"
        "for argv in (['deck', 'validate', 'deck.txt'], ['cards', 'search', 't:monster']):\n"
        "    argv += ['--db', 'c.db']\n"
        "    sys.argv = ['cardbase', *argv]\n"
        "    try:\n        main()\n    except SystemExit:\n        pass\n"
        "from sqlmodel import SQLModel\n"
        "sys.stderr.write(' '.join(m.class_.__name__ for m in SQLModel._sa_registry.mappers if m.configured))\n"
    )
    subprocess.run(
        [sys.executable, "-m", "cardbase", "cards", "search", "x", "--db", db], cwd=tmp_path, capture_output=True
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert "valid" in done.stdout and "Crumb Goblin" in done.stdout, done.stdout  # both commands ran
    assert done.stderr == "", f"configured mappers: {done.stderr}"


def test_root_completion_offers_what_the_built_commands_would(monkeypatch, capfd):
    """Completing ``cardbase <TAB>`` in a fresh process (no command built) offers the same names
    and summaries as a root whose every command is built."""
    complete = {"_CARDBASE_COMPLETE": "complete_zsh", "COMP_WORDS": "cardbase ", "COMP_CWORD": "1"}
    code = "from cardbase.cli.app import app; app(prog_name='cardbase')"
    fresh = subprocess.run([sys.executable, "-c", code], env={**os.environ, **complete}, capture_output=True, text=True)
    assert fresh.returncode == 0, fresh.stderr
    root = typer.main.get_command(app)
    assert all(command.name == name for name, command in root.commands.items())  # builds every command
    for key, value in complete.items():
        monkeypatch.setenv(key, value)
    capfd.readouterr()
    with pytest.raises(SystemExit):  # completion always exits
        root.main([], prog_name="cardbase")
    assert fresh.stdout == capfd.readouterr().out and '"catalog":"The card catalog' in fresh.stdout
