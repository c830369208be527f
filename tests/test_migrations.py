"""Every earlier schema version upgrades to the current one (on SQLite, and PostgreSQL when set).

``tests/db_schemas/v<N>.sql`` is the schema of version N, kept when it was current. The test
walks the migration table, so a new migration is covered as soon as the version before it has
its file (which the golden check below makes sure of).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, create_engine, inspect, text
from sqlmodel import SQLModel

from cardbase.db import engine as db_engine
from cardbase.db import models, search_index
from cardbase.db.engine import ensure_schema, open_database

SCHEMAS = Path(__file__).resolve().parent / "db_schemas"
EARLIER = sorted(db_engine.MIGRATIONS)


def _engine(url: str) -> Engine:
    return create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))


def _statements(sql: str, dialect: str) -> list[str]:
    body = "\n".join(line for line in sql.splitlines() if not line.startswith("--"))
    if dialect == "sqlite":  # SQLite's auto-increment key is an INTEGER primary key
        body = re.sub(r"\bSERIAL\b", "INTEGER", body)
    return [s.strip() for s in body.split(";") if s.strip()]


def _value(type_: Any, n: int) -> Any:
    """A value of a column's type for a sample row."""
    py = type_.python_type
    if py is bool:
        return False
    if py is int:
        return n
    if py is float:
        return 0.5
    length = getattr(type_, "length", None)
    return f"v{n}"[: length or None]


def _shape(engine: Engine) -> dict[str, dict[str, tuple[bool, type]]]:
    """Per table: each column's nullability and Python type (TEXT and VARCHAR are both str)."""
    insp = inspect(engine)
    own = {search_index.FOLDED_TEXT}  # PostgreSQL's generated column: not the models' (checked apart)
    return {
        t: {
            c["name"]: (bool(c["nullable"]), c["type"].python_type) for c in insp.get_columns(t) if c["name"] not in own
        }
        for t in insp.get_table_names()
        if t in SQLModel.metadata.tables  # the search index's tables are SQLite's own (checked apart)
    }


def test_the_current_schema_has_its_file() -> None:
    """``v<current>.sql`` is what the models make now; a schema change shows in its diff."""
    from tests.db_schemas.regenerate import current_ddl

    path = SCHEMAS / f"v{models.SCHEMA_VERSION}.sql"
    assert path.is_file(), f"run `uv run python tests/db_schemas/regenerate.py` to write {path.name}"
    assert path.read_text(encoding="utf-8") == current_ddl(), (
        "the models changed: bump SCHEMA_VERSION with a migration, then run tests/db_schemas/regenerate.py"
    )


def test_every_version_below_the_current_one_has_a_migration() -> None:
    assert set(db_engine.MIGRATIONS) == set(range(1, models.SCHEMA_VERSION))


@pytest.mark.parametrize("version", EARLIER)
def test_a_database_of_every_earlier_version_upgrades(version: int, empty_db_url: str, tmp_path: Path) -> None:
    sql = (SCHEMAS / f"v{version}.sql").read_text(encoding="utf-8")
    assert re.match(rf"-- cardbase schema version {version}\b", sql)
    old = _engine(empty_db_url)
    # A database of that version: its tables, its version, and a card with a value in every column
    # (of a game of its own, so that loading the shipped catalogs later leaves it alone).
    with old.begin() as conn:
        for statement in _statements(sql, old.dialect.name):
            conn.execute(text(statement))
        conn.execute(text("INSERT INTO meta (key, value) VALUES ('schema_version', :v)"), {"v": str(version)})
        if version >= 5:  # schema 5's search index is not the models' (the dump has it as comments)
            search_index.ensure(conn)
        conn.execute(text("INSERT INTO game (id, title, rulebook) VALUES ('zz', 'test game', 'none')"))
    insp = inspect(old)
    card_cols = insp.get_columns("card")
    row = {c["name"]: _value(c["type"], i) for i, c in enumerate(card_cols)}
    row["game"] = "zz"
    # A well-formed card of every version: its id is game/set/slug(name), which no migration moves.
    from cardbase.names import slug

    row["id"] = f"zz/{row['set_code']}/{slug(row['name'])}"
    with old.begin() as conn:
        names = ", ".join(row)
        conn.execute(text(f"INSERT INTO card ({names}) VALUES ({', '.join(':' + k for k in row)})"), row)
    old.dispose()

    upgraded = _engine(empty_db_url)
    assert ensure_schema(upgraded) == models.SCHEMA_VERSION
    with upgraded.connect() as conn:
        assert conn.execute(text("SELECT value FROM meta WHERE key = 'schema_version'")).scalar() == str(
            models.SCHEMA_VERSION
        )
        kept = conn.execute(text(f"SELECT {', '.join(row)} FROM card WHERE id = :id"), {"id": row["id"]}).one()
    derived = {"search_names"} | ({"short_id"} if version < 4 else set())  # recomputed by migrations
    survived = {k: v for k, v in zip(row, kept, strict=True) if k not in derived}
    assert survived == {k: v for k, v in row.items() if k not in derived}  # the card's values survive the upgrade
    if version < 4:  # schema 4 made every short id the 53-bit hash of the card's id
        assert dict(zip(row, kept, strict=True))["short_id"] == models.short_id(row["id"])

    fresh_url = f"sqlite:///{tmp_path / 'fresh.db'}"
    fresh = create_engine(fresh_url)
    ensure_schema(fresh)
    assert _shape(upgraded) == _shape(fresh)  # the same tables and columns as a new database
    with upgraded.connect() as conn:  # and the search index a new database of its kind has
        assert search_index.kind(conn) == {"sqlite": "fts5", "postgresql": "pg_trgm"}[upgraded.dialect.name]
    upgraded.dispose()
    fresh.dispose()

    database = open_database(empty_db_url)  # and it opens, loading the shipped catalogs
    try:
        with database.session() as session:
            assert session.execute(text("SELECT count(*) FROM card WHERE game = 'meio'")).scalar() == 52
    finally:
        database.engine.dispose()


def test_schema_9_adds_the_name_orders_with_the_text_on_sqlite_only(empty_db_url: str) -> None:
    engine = _made_at(empty_db_url, 8, 8)
    with engine.begin() as conn:
        search_index.ensure(conn)
    before = {i["name"] for i in inspect(engine).get_indexes("card")}
    assert not before & set(search_index.ORDER_INDEXES)
    assert ensure_schema(engine) == models.SCHEMA_VERSION
    after = {i["name"] for i in inspect(create_engine(engine.url)).get_indexes("card")}
    if engine.dialect.name == "sqlite":
        assert after == before | set(search_index.ORDER_INDEXES)
    else:
        assert after == before
    engine.dispose()


def test_schema_10_adds_the_folded_text_on_postgresql_only(empty_db_url: str) -> None:
    """Schema 10: ``card.text_folded`` (``lower(text)``, generated) on PostgreSQL, filled for the
    cards already there and kept in step with later writes; SQLite's tables are unchanged."""
    engine = _made_at(empty_db_url, 9, 9)
    with engine.begin() as conn:
        search_index.ensure(conn)
        conn.execute(
            text(
                "INSERT INTO card (id, short_id, game, set_code, name, search_names, type, source, text, unknown) "
                "VALUES ('zz/s/a', 1, 'zz', 's', 'A', '|a|', 'monster', 'file:x', 'DRAW Élan King', '')"
            )
        )
    before = {c["name"] for c in inspect(engine).get_columns("card")}
    assert search_index.FOLDED_TEXT not in before
    assert ensure_schema(engine) == models.SCHEMA_VERSION
    engine.dispose()
    engine = create_engine(engine.url)
    after = {c["name"] for c in inspect(engine).get_columns("card")}
    if engine.dialect.name == "sqlite":
        assert after == before
    else:
        assert after == before | {search_index.FOLDED_TEXT}
        with engine.begin() as conn:
            folded = "SELECT text_folded, lower(text) FROM card WHERE id = 'zz/s/a'"
            old_card = conn.execute(text(folded)).one()
            assert old_card[0] == old_card[1] and old_card[0].startswith("draw élan")
            conn.execute(text("UPDATE card SET text = 'Kill ONE' WHERE id = 'zz/s/a'"))
            assert conn.execute(text(folded)).one()[0] == "kill one"
    engine.dispose()


def _made_at(url: str, version: int, label: int) -> Engine:
    """A database with the tables of schema ``version`` and a meta row saying ``label``."""
    engine = _engine(url)
    sql = (SCHEMAS / f"v{version}.sql").read_text(encoding="utf-8")
    with engine.begin() as conn:
        for statement in _statements(sql, engine.dialect.name):
            conn.execute(text(statement))
        conn.execute(text("INSERT INTO meta (key, value) VALUES ('schema_version', :v)"), {"v": str(label)})
        conn.execute(text("INSERT INTO game (id, title, rulebook) VALUES ('zz', 'test game', 'none')"))
    return engine


def _contents(engine: Engine) -> tuple[Any, ...]:
    with engine.connect() as conn:
        meta = sorted(tuple(r) for r in conn.execute(text("SELECT key, value FROM meta")))
        games = sorted(tuple(r) for r in conn.execute(text("SELECT id, title FROM game")))
    return _shape(engine), meta, games


# (the tables of schema N, labelled M): each refused as it is, with no step committed. A v2 file
# labelled 3 is not among them: schema 3 changed ids, not tables, so its tables are right.
MISLABELLED = [(1, 2), (1, 3), (2, 1), (3, 1)]


@pytest.mark.parametrize(("version", "label"), MISLABELLED, ids=[f"v{v}-labelled-{m}" for v, m in MISLABELLED])
def test_a_database_labelled_with_another_schema_is_refused_unchanged(
    version: int, label: int, empty_db_url: str
) -> None:
    engine = _made_at(empty_db_url, version, label)
    before = _contents(engine)
    with pytest.raises(db_engine.DatabaseError, match=rf"schema version {label} it is labelled with.*left unchanged"):
        ensure_schema(engine)
    assert _contents(engine) == before  # no step, no label changed
    engine.dispose()


def test_the_cli_says_a_mislabelled_database_is_left_unchanged(empty_db_url: str) -> None:
    from typer.testing import CliRunner

    from cardbase.cli.app import app

    _made_at(empty_db_url, 1, 2).dispose()
    result = CliRunner().invoke(app, ["cards", "search", "goblin", "--db", empty_db_url])
    assert result.exit_code == 2
    assert result.stderr.startswith("cardbase: error: the table card has no column abilities: ")


def test_decks_kept_before_schema_6_start_at_version_1(empty_db_url: str) -> None:
    """Schema 6 gives every deck a version: 1 for those already kept, and the next write moves it on."""
    old = _engine(empty_db_url)
    with old.begin() as conn:
        for statement in _statements((SCHEMAS / "v3.sql").read_text(encoding="utf-8"), old.dialect.name):
            conn.execute(text(statement))
        conn.execute(text("INSERT INTO meta (key, value) VALUES ('schema_version', '3')"))
        conn.execute(text("INSERT INTO game (id, title, rulebook) VALUES ('zz', 'test game', 'none')"))
        conn.execute(text("INSERT INTO deck (name, game, updated_at) VALUES ('Old', 'zz', 'then')"))
    old.dispose()
    database = open_database(empty_db_url)
    try:
        from cardbase.decks.store import deck_info, rename_deck

        assert deck_info(database, "Old").version == 1
        assert rename_deck(database, "Old", "Renamed").version == 2
    finally:
        database.engine.dispose()


def test_a_deck_of_schema_7_keeps_its_version_and_its_history_starts_at_the_next(empty_db_url: str) -> None:
    """Schema 8 adds the deck history; a deck at version 7 before it is at 7 after, and its next write is
    version 8 of both the deck and its history (one counter)."""
    old = _engine(empty_db_url)
    with old.begin() as conn:
        for statement in _statements((SCHEMAS / "v7.sql").read_text(encoding="utf-8"), old.dialect.name):
            conn.execute(text(statement))
        conn.execute(text("INSERT INTO meta (key, value) VALUES ('schema_version', '7')"))
        conn.execute(text("INSERT INTO game (id, title, rulebook) VALUES ('zz', 'test game', 'none')"))
        conn.execute(text("INSERT INTO deck (name, game, updated_at, version) VALUES ('Old', 'zz', 'then', 7)"))
    old.dispose()
    database = open_database(empty_db_url)
    try:
        from cardbase.decks.store import deck_info, rename_deck

        def history() -> list[tuple[int, str]]:
            with database.session() as session:
                return [(n, c) for n, c in session.execute(text("SELECT number, change FROM deck_version"))]

        assert deck_info(database, "Old").version == 7 and history() == []
        assert rename_deck(database, "Old", "Renamed").version == 8
        assert history() == [(8, "the first version kept (0 cards)")]  # what came before is not known
    finally:
        database.engine.dispose()
