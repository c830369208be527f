"""The hostile-input suite: every case asserts one clear message, the right exit code, no traceback,
and a database left exactly as it was.

Databases are copied from one template made per session (a file copy on SQLite, ``CREATE DATABASE …
TEMPLATE`` on PostgreSQL), so hundreds of cases cost seconds, not a catalog load each.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import POSTGRES, _pg_admin_url


@pytest.fixture(scope="session")
def _template(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from cardbase.db.engine import open_database

    if not POSTGRES:
        path = tmp_path_factory.mktemp("hostile-template") / "template.db"
        database = open_database(str(path))
        with database.engine.connect() as conn:  # fold the WAL into the file, so one file is the database
            conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        database.engine.dispose()
        yield str(path)
        return
    from sqlalchemy import create_engine, text

    name = f"cardbase_hostile_tmpl_{uuid.uuid4().hex[:8]}"
    admin = create_engine(_pg_admin_url(), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = f"{_pg_admin_url().rsplit('/', 1)[0]}/{name}"
    open_database(url).engine.dispose()
    try:
        yield url
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture
def hostile_db(_template: str, tmp_path: Path) -> Iterator[str]:
    """A database with the shipped catalogs, new for this test: a path (SQLite) or a URL (PostgreSQL)."""
    if not POSTGRES:
        path = tmp_path / "cards.db"
        shutil.copyfile(_template, path)
        yield str(path)
        return
    from sqlalchemy import create_engine, text

    name = f"cardbase_hostile_{uuid.uuid4().hex[:12]}"
    template = _template.rsplit("/", 1)[1]
    admin = create_engine(_pg_admin_url(), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}" TEMPLATE "{template}"'))
    try:
        yield f"{_pg_admin_url().rsplit('/', 1)[0]}/{name}"
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run the test in its own folder, so that default outputs (exports/) land there."""
    monkeypatch.chdir(tmp_path)
    os.environ.pop("CARDBASE_DB", None)
    return tmp_path
