"""Write ``v<N>.sql``: the tables of the current schema version N, as ``create_all`` makes them.

Run after a change to ``cardbase/db/models.py`` that bumps ``SCHEMA_VERSION`` (with its migration):
``uv run python tests/db_schemas/regenerate.py``. Keep the older files: each is the schema a
database of that version has, and ``tests/test_migrations.py`` upgrades one made from every file.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.dialects import postgresql
from sqlalchemy.schema import CreateIndex, CreateTable
from sqlmodel import SQLModel

from cardbase.db import models

HERE = Path(__file__).resolve().parent


def current_ddl() -> str:
    """The DDL of the current models; plain types, so that it runs on SQLite and PostgreSQL."""
    dialect = postgresql.dialect()
    out = [f"-- cardbase schema version {models.SCHEMA_VERSION} (written by tests/db_schemas/regenerate.py)\n"]
    for table in SQLModel.metadata.sorted_tables:
        out.append(str(CreateTable(table).compile(dialect=dialect)).strip() + ";\n")
        for index in sorted(table.indexes, key=lambda i: str(i.name)):
            out.append(str(CreateIndex(index).compile(dialect=dialect)).strip() + ";\n")
    from cardbase.db import search_index

    for dialect in ("sqlite", "postgresql"):  # made by cardbase.db.search_index, not the models
        out.append(f"-- the search index on {dialect}:")
        out.extend(f"-- {statement};" for statement in search_index.ddl(dialect))
    out.append("-- and on sqlite the name orders with the text (schema 9):")
    out.extend(f"-- {statement};" for statement in search_index.ORDER_INDEX_DDL)
    out.append("-- and on postgresql the text in lower case (schema 10):")
    out.append(f"-- {search_index.FOLDED_TEXT_DDL};")
    return "\n".join(line.rstrip() for line in "\n".join(out).splitlines()) + "\n"


def main() -> None:
    path = HERE / f"v{models.SCHEMA_VERSION}.sql"
    path.write_text(current_ddl(), encoding="utf-8")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
