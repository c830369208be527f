"""Shared fixtures: a real database per test, on SQLite or (with CARDBASE_TEST_POSTGRES) PostgreSQL.

CARDBASE_TEST_POSTGRES is the URL of a PostgreSQL server's maintenance database, e.g.
``postgresql://postgres@127.0.0.1:5432/postgres``; each test gets a new database on it.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardbase.db.engine import Database, open_database

REPO = Path(__file__).resolve().parents[1]
POSTGRES = os.environ.get("CARDBASE_TEST_POSTGRES")


def _pg_admin_url() -> str:
    assert POSTGRES
    return POSTGRES if "+psycopg" in POSTGRES else POSTGRES.replace("postgresql://", "postgresql+psycopg://", 1)


@pytest.fixture
def db_url(tmp_path: Path) -> Iterator[str]:
    """URL of a new, empty database: a SQLite file, or a fresh PostgreSQL database."""
    if not POSTGRES:
        yield f"sqlite:///{tmp_path / 'cards.db'}"
        return
    from sqlalchemy import create_engine, text

    name = f"cardbase_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(_pg_admin_url(), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    base = _pg_admin_url().rsplit("/", 1)[0]
    try:
        yield f"{base}/{name}"
    finally:
        with admin.connect() as conn:
            conn.execute(
                text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = :n AND pid <> pg_backend_pid()"
                ),
                {"n": name},
            )
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
        admin.dispose()


@pytest.fixture
def database(db_url: str) -> Iterator[Database]:
    """A new database with the shipped catalogs loaded."""
    database = open_database(db_url)
    yield database
    database.engine.dispose()


@pytest.fixture
def backend() -> str:
    return "postgresql" if POSTGRES else "sqlite"
