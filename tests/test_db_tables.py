"""The Core tables (``cardbase.db.tables``) and the SQLModel classes (``cardbase.db.models``) describe
one schema: every table, column (type, length, nullability, key, defaults), index and foreign key,
and the DDL each makes on SQLite and PostgreSQL, are the same in both."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import Column, ColumnDefault, DefaultClause, ForeignKey, Integer, MetaData, String, Table, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.schema import CreateIndex, CreateTable
from sqlmodel import SQLModel

import cardbase.db.models  # noqa: F401  # the classes' tables are in SQLModel.metadata once imported
from cardbase.db import tables

DIALECTS = {"sqlite": sqlite.dialect(), "postgresql": postgresql.dialect()}


def _default(default: Any) -> Any:
    if default is None:
        return None
    arg = getattr(default, "arg", default)
    return str(arg.text) if hasattr(arg, "text") else arg


def _column(column: Column[Any]) -> dict[str, Any]:
    return {
        "types": {name: column.type.compile(dialect=d) for name, d in DIALECTS.items()},
        "kind": type(getattr(column.type, "impl_instance", column.type)).__name__,  # SQLModel's AutoString is a String
        "length": getattr(column.type, "length", None),
        "nullable": column.nullable,
        "primary key": column.primary_key,
        "autoincrement": column.autoincrement,
        "unique": bool(column.unique),
        "index": bool(column.index),
        "foreign keys": sorted(fk.target_fullname for fk in column.foreign_keys),
        "default": _default(column.default),
        "server default": _default(column.server_default),
    }


def described(table: Table) -> dict[str, Any]:
    """Everything of ``table`` its database is made from, as plain data to compare."""
    return {
        "columns": {c.name: _column(c) for c in table.columns},
        "column order": [c.name for c in table.columns],
        "primary key": [c.name for c in table.primary_key.columns],
        "indexes": sorted((i.name, tuple(c.name for c in i.columns), bool(i.unique)) for i in table.indexes),
        "foreign keys": sorted(
            (tuple(c.name for c in fk.columns), tuple(e.target_fullname for e in fk.elements))
            for fk in table.foreign_key_constraints
        ),
        "ddl": {
            name: [
                str(CreateTable(table).compile(dialect=d)).strip(),
                *sorted(str(CreateIndex(i).compile(dialect=d)) for i in table.indexes),
            ]
            for name, d in DIALECTS.items()
        },
    }


def test_the_two_descriptions_have_the_same_tables() -> None:
    assert sorted(tables.METADATA.tables) == sorted(SQLModel.metadata.tables)
    assert [t.name for t in tables.METADATA.sorted_tables] == [t.name for t in SQLModel.metadata.sorted_tables]


@pytest.mark.parametrize("name", sorted(SQLModel.metadata.tables))
def test_each_core_table_is_its_sqlmodel_table(name: str) -> None:
    core, orm = tables.METADATA.tables[name], SQLModel.metadata.tables[name]
    mine, theirs = described(core), described(orm)
    for key in theirs:
        assert mine[key] == theirs[key], f"{name}: {key} differ"


def _copy(name: str) -> Table:
    """A copy of the table ``name`` (with the tables it refers to, in a metadata of their own)."""
    metadata = MetaData()
    for table in tables.METADATA.sorted_tables:
        table.to_metadata(metadata)
    return metadata.tables[name]


def _set(column: str, **values: Any) -> Any:
    def change(table: Table) -> None:
        for key, value in values.items():
            setattr(table.c[column], key, value)

    return change


def _drop_index(name: str) -> Any:
    def change(table: Table) -> None:
        table.indexes.discard(next(i for i in table.indexes if i.name == name))

    return change


@pytest.mark.parametrize(
    "change",
    [
        lambda t: t.append_column(Column("extra", Integer(), nullable=True)),
        _set("set_code", type=String(61)),
        _set("name", nullable=True),
        _set("cost", type=String()),
        _set("unknown", default=ColumnDefault("x")),
        _set("copies", server_default=DefaultClause(text("0"))),
        _drop_index("ix_card_game_name"),
        _drop_index("ix_card_cost"),
    ],
    ids=["column added", "length", "nullability", "type", "default", "server default", "index", "column index"],
)
def test_the_comparison_sees_a_change(change: Any) -> None:
    """The check can fail: a copy of the card table compares equal, and unequal once one thing changed."""
    copy = _copy("card")
    assert described(copy) == described(tables.card)
    change(copy)
    assert described(copy) != described(tables.card)


def test_the_comparison_sees_a_foreign_key_and_a_key() -> None:
    game = tables.game.to_metadata(MetaData())
    plain = Table("card_type", game.metadata, *(Column(c.name, c.type, primary_key=c.primary_key,
                  nullable=c.nullable) for c in tables.card_type.columns))  # fmt: skip
    assert described(plain) != described(tables.card_type)  # no foreign key to game.id
    card = tables.card.to_metadata(tables.game.to_metadata(MetaData()).metadata)
    keyed = Table("card_alias", card.metadata, Column("card_id", String(300), ForeignKey("card.id"), primary_key=True),
                  Column("alias", String(), nullable=False))  # fmt: skip
    assert described(keyed) != described(tables.card_alias)  # the alias is not part of the key
