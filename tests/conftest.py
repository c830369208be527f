"""Shared fixtures: a real database per test, on SQLite or (with CARDBASE_TEST_POSTGRES) PostgreSQL.

CARDBASE_TEST_POSTGRES is the URL of a PostgreSQL server's maintenance database, e.g.
``postgresql://postgres@127.0.0.1:5432/postgres``; each test gets a new database on it. Loading the
catalogs is done once per session (per pytest-xdist worker) into a template that tests copy.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from cardbase import cores
from cardbase.db.engine import Database, open_database

REPO = Path(__file__).resolve().parents[1]
POSTGRES = os.environ.get("CARDBASE_TEST_POSTGRES")
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "main")  # gw0, gw1, … under pytest-xdist
ALL_CORES = cores.available_cores

# Hypothesis times nothing here: its default deadline (200 ms an example) and its too-slow health check
# fail a test on a loaded machine for the machine's sake. Every test's own settings build on this
# profile (each property test already says deadline=None; a new one need not remember to).
settings.register_profile("cardbase", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("cardbase")


def pytest_configure(config: pytest.Config) -> None:
    """Under pytest-xdist, each worker gets its share of the cores, so that a command that runs on
    "the machine's cores" by default does not start a pool per worker (2 workers × 2 processes on 2
    cores); the tests that pass ``--jobs 2`` still start their pools."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if workers > 1:
        share = max(1, ALL_CORES() // workers)
        cores.available_cores = lambda: share


@pytest.fixture(scope="session", autouse=True)
def _own_temporary_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The temporary files of the tests and of the commands they start (crash reports among them) go
    to a folder of their own, removed at the end, not into the machine's temporary folder. Its name
    is short (a path in a command's output wraps at 80 columns); pytest's ``tmp_path`` folders stay
    where they were (their base is made first)."""
    tmp_path_factory.getbasetemp()
    own = tempfile.mkdtemp(prefix="cbt-")
    before = os.environ.get("TMPDIR")
    os.environ["TMPDIR"] = tempfile.tempdir = own
    yield
    tempfile.tempdir = None
    if before is None:
        os.environ.pop("TMPDIR", None)
    else:
        os.environ["TMPDIR"] = before
    shutil.rmtree(own, ignore_errors=True)


@pytest.fixture(scope="session", autouse=True)
def _cli_built_once() -> Iterator[None]:
    """Typer's CliRunner builds the Click command tree from the app on every ``invoke`` (0.1 s of
    reading signatures, four times the work of a small command); a process builds it once, so
    the tests' runs share one build per app, as Click's own CliRunner does with a command."""
    import typer.testing

    build = getattr(typer.testing, "_get_command", None)  # Typer's private helper: without it, build every time
    if build is None:
        yield
        return
    built: dict[int, tuple[object, Any]] = {}

    def once(app: Any) -> Any:
        kept = built.get(id(app))
        if kept is None or kept[0] is not app:
            kept = built[id(app)] = (app, build(app))
        return kept[1]

    typer.testing._get_command = once
    yield
    typer.testing._get_command = build


@pytest.fixture
def all_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """The machine's cores again, for a test about what a user sees (the README's timings)."""
    monkeypatch.setattr(cores, "available_cores", ALL_CORES)


@pytest.fixture(scope="session", autouse=True)
def _own_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The play prompt's history goes to this worker's own folder, not the user's cache."""
    previous = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("cache"))
    yield
    if previous is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = previous


def _pg_admin_url() -> str:
    assert POSTGRES
    return POSTGRES if "+psycopg" in POSTGRES else POSTGRES.replace("postgresql://", "postgresql+psycopg://", 1)


def _pg_base() -> str:
    return _pg_admin_url().rsplit("/", 1)[0]


@contextmanager
def new_database(folder: Path, template: str | None = None) -> Iterator[str]:
    """A new database, dropped at the end: empty, or a copy of ``template`` (from ``catalog_template``).

    SQLite: ``folder/cards.db`` (a file copy of the template). PostgreSQL: a database named for the
    xdist worker and a random suffix (``CREATE DATABASE … TEMPLATE``), so workers never share one.
    """
    if not POSTGRES:
        path = folder / "cards.db"
        if template is not None:
            shutil.copyfile(template, path)
        yield f"sqlite:///{path}"
        return
    from sqlalchemy import create_engine, text

    name = f"cardbase_test_{WORKER}_{uuid.uuid4().hex[:12]}"
    admin = create_engine(_pg_admin_url(), isolation_level="AUTOCOMMIT")
    source = f' TEMPLATE "{template.rsplit("/", 1)[1]}"' if template is not None else ""
    try:
        with admin.connect() as conn:
            if template is not None:  # a session left open on the template (a test's leak) would refuse the copy
                conn.execute(
                    text(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                        " WHERE datname = :name AND pid <> pg_backend_pid()"
                    ),
                    {"name": template.rsplit("/", 1)[1]},
                )
            conn.execute(text(f'CREATE DATABASE "{name}"{source}'))
        yield f"{_pg_base()}/{name}"
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(scope="session")
def catalog_template(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A database with the shipped catalogs loaded, made once per session (per xdist worker): a
    SQLite file path (its WAL folded in, so the file is the whole database) or a PostgreSQL URL.
    Tests get copies of it (``database``, ``tests/hostile``), never the template itself."""
    folder = tmp_path_factory.mktemp("catalog-template")
    with new_database(folder) as url:
        database = open_database(url)
        if not POSTGRES:
            with database.engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        database.engine.dispose()
        yield str(folder / "cards.db") if not POSTGRES else url


@pytest.fixture
def empty_db_url(tmp_path: Path) -> Iterator[str]:
    """URL of a new, empty database: a SQLite file, or a fresh PostgreSQL database."""
    with new_database(tmp_path) as url:
        yield url


@pytest.fixture
def db_url(catalog_template: str, tmp_path: Path) -> Iterator[str]:
    """URL of a new database holding the shipped catalogs: a copy of the session's template, which
    is what a command's first use of an empty database makes (``empty_db_url`` for an empty one)."""
    with new_database(tmp_path, catalog_template) as url:
        yield url


@pytest.fixture
def database(db_url: str) -> Iterator[Database]:
    """The database of ``db_url``, open: the shipped catalogs loaded (a copy of the session's template)."""
    database = open_database(db_url)
    yield database
    database.engine.dispose()


@pytest.fixture
def backend() -> str:
    return "postgresql" if POSTGRES else "sqlite"


SIM_RECORDS = {
    "mea": [
        "sim", "mea", "--deck", str(REPO / "examples/decks/mea-goblin-rush.txt"),
        "--vs", str(REPO / "examples/decks/mea-tile-control.txt"), "--agents", "heuristic,heuristic",
    ],
    "meio": ["sim", "meio", "--players", "3", "--agents", "heuristic,heuristic,random", "--rule", "rounds=2"],
    "meikyu": ["sim", "meikyu", "--players", "3", "--agents", "heuristic,heuristic,random", "--assume", "default"],
}  # fmt: skip


@pytest.fixture(scope="session")
def sim_records(catalog_template: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    """One whole game of each game as ``cardbase sim --records`` writes it: game id → record file.
    Heuristic agents and a fixed seed, so the games are the same on every run."""
    from typer.testing import CliRunner

    from cardbase.cli.app import app

    folder = tmp_path_factory.mktemp("sim-records")
    out: dict[str, Path] = {}
    with new_database(folder, catalog_template) as url:
        for game, args in SIM_RECORDS.items():
            target = folder / game
            result = CliRunner().invoke(
                app,
                [
                    *args,
                    "--games",
                    "1",
                    "--seed",
                    "11",
                    "--records",
                    str(target),
                    *(["--db", url] if game != "meio" else []),
                ],
            )
            assert result.exit_code == 0, result.output
            (out[game],) = target.glob("*.jsonl")
        yield out
