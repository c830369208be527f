"""The index that text and regex search read: SQLite FTS5 with the trigram tokenizer, PostgreSQL
``pg_trgm`` GIN indexes.

Both index substrings of three characters, so a term ``o:draw`` or a regex's literal ``gob``
finds its candidate cards without reading every card. They are only ever a prefilter: search keeps
its own condition (``LIKE``, the RE2 match) on the candidates, so its results are the same with the
index or without it (``tests/test_search_index.py`` compares them on random catalogs).

SQLite: the virtual table ``card_search`` holds a copy of the searched columns, its rowid the
card's short id (stable: a hash of the card id), kept in step by triggers on ``card``: every write
(imports, the shipped catalogs, migrations, anything run on the file) updates it. A card's text is
stored behind ``TEXT_START``, so a regex anchored at the text's start (``^gr``) has a literal of
three characters to look for; ``search_names`` starts with ``|`` already.

PostgreSQL: GIN ``gin_trgm_ops`` indexes on the same columns, which the planner uses for ``ILIKE``,
``LIKE`` and ``~`` by itself. ``pg_trgm`` is an extension: when the server lacks it or the user may
not create it, search scans the table as before and the database says so once (``ensure``).

``meta`` holds which index the database has: ``search_index`` is ``fts5``, ``pg_trgm`` or ``none``.
"""

from __future__ import annotations

from sqlalchemy import Connection, text
from sqlalchemy.exc import DBAPIError

META_KEY = "search_index"
SAID_KEY = "search_index:refused"
"""Why the index could not be made, kept so that the user is told once."""
REFUSED_WITH_EXTENSION_KEY = "search_index:refused_with_pg_trgm"
"""Set when PostgreSQL refused the index though ``pg_trgm`` was there (a role that does not own the
tables): the extension coming is then no reason to try again at every open (each under the write lock)."""
TEXT_START = "\x02"
"""Stored before a card's text in SQLite's index: ``^gr`` in a regex is the literal ``\\x02gr``."""
COLUMNS = ("search_names", "text", "description", "land_name", "notes")
"""The card columns the index covers (``name`` is searched through ``search_names``)."""

_VALUES = "new.short_id, new.search_names, char(2) || coalesce(new.text, ''), new.description, new.land_name, new.notes"
_SQLITE = [
    "CREATE VIRTUAL TABLE card_search USING fts5("
    + ", ".join(COLUMNS)
    + ", tokenize = 'trigram', detail = full, columnsize = 0)",
    f"CREATE TRIGGER card_search_insert AFTER INSERT ON card BEGIN "
    f"INSERT INTO card_search (rowid, {', '.join(COLUMNS)}) VALUES ({_VALUES}); END",
    "CREATE TRIGGER card_search_delete AFTER DELETE ON card BEGIN "
    "DELETE FROM card_search WHERE rowid = old.short_id; END",
    f"CREATE TRIGGER card_search_update AFTER UPDATE OF short_id, {', '.join(COLUMNS)} ON card BEGIN "
    "DELETE FROM card_search WHERE rowid = old.short_id; "
    f"INSERT INTO card_search (rowid, {', '.join(COLUMNS)}) VALUES ({_VALUES}); END",
    f"INSERT INTO card_search (rowid, {', '.join(COLUMNS)}) SELECT {_VALUES.replace('new.', '')} FROM card",
]
_POSTGRESQL = [
    "CREATE EXTENSION IF NOT EXISTS pg_trgm",
    *(f"CREATE INDEX ix_card_trgm_{c} ON card USING gin ({c} gin_trgm_ops)" for c in ("name", *COLUMNS)),
]


ORDER_INDEXES = {
    "ix_card_game_name_text": "game, name, set_code, text",
    "ix_card_name_text": "name, game, set_code, text",
}
"""SQLite: the name orders search walks (within one game, and across games) with each card's text
beside the name. A term the search index finds on many cards (``o:draw`` on a third of them) is read
by walking the cards in name order until the page is full; with the text in the index the walk tests
it without reading the card's row (about three times faster where the first matching name comes
after tens of thousands that do not), and ties are ordered without a sort. Not on PostgreSQL: a
b-tree entry there holds at most about 2,700 bytes, and a card's text may be longer."""
ORDER_INDEX_DDL = [f"CREATE INDEX IF NOT EXISTS {name} ON card ({columns})" for name, columns in ORDER_INDEXES.items()]


def ensure_order_indexes(conn: Connection) -> None:
    """Make ``ORDER_INDEXES`` on SQLite where they are missing (a new database, the upgrade to schema 9)."""
    if conn.dialect.name == "sqlite":
        for statement in ORDER_INDEX_DDL:
            conn.execute(text(statement))


FOLDED_TEXT = "text_folded"
"""PostgreSQL: the card's text in lower case (``lower(text)``), a stored generated column that the
server keeps in step with ``text`` on every write. ``ILIKE`` on a UTF-8 database lowers each text
it tests (``lower()`` through wide characters: about three times a ``LIKE``), and a term on many
cards (``o:draw`` on a third of them) is walked in name order, testing every card it passes (25,000
at 100,000 synthetic cards): search puts ``text_folded LIKE lower(pattern)`` in front of ``text
ILIKE pattern`` (``cardbase.db.search``), so a card that cannot match is turned away by ``LIKE``
alone. The same answer: PostgreSQL's ``ILIKE`` is ``lower(text) LIKE lower(pattern)`` (it lowers
both, with the same collation, before matching), and the ``ILIKE`` stays (the trigram index
serves it). Not on SQLite (its ``LIKE`` is case-blind already) and not in the models."""
FOLDED_TEXT_DDL = (
    f"ALTER TABLE card ADD COLUMN IF NOT EXISTS {FOLDED_TEXT} VARCHAR GENERATED ALWAYS AS (lower(text)) STORED"
)


def ensure_folded_text(conn: Connection) -> None:
    """Make ``FOLDED_TEXT`` on PostgreSQL where it is missing (a new database, the upgrade to schema 10)."""
    if conn.dialect.name == "postgresql":
        conn.execute(text(FOLDED_TEXT_DDL))


def ddl(dialect: str) -> list[str]:
    """The statements that make the index on ``dialect`` (``sqlite`` or ``postgresql``)."""
    return {"sqlite": _SQLITE, "postgresql": _POSTGRESQL}.get(dialect, [])


def kind(conn: Connection) -> str:
    """The index the database has: ``fts5``, ``pg_trgm`` or ``none``."""
    return _get(conn, META_KEY) or "none"


def describe(conn: Connection) -> str:
    """The index in words, for ``catalog status``: its kind, or ``none`` and why."""
    found = kind(conn)
    if found == "fts5":
        return "fts5 (SQLite FTS5, trigrams)"
    if found == "pg_trgm":
        return "pg_trgm (PostgreSQL GIN, trigrams)"
    reason = _get(conn, SAID_KEY)
    return "none: text and regex search read every card" + (f" ({reason})" if reason else "")


def ensure(conn: Connection) -> str | None:
    """Make the index if the database has none yet and its server can (in ``conn``'s transaction);
    a sentence for the user when it cannot, said once, else None. A PostgreSQL database whose
    server lacked ``pg_trgm`` gets the index when the extension has come since (``CREATE EXTENSION
    pg_trgm`` by an administrator), on its next open."""
    if kind(conn) != "none" or not due(conn):
        return None
    dialect = conn.dialect.name
    made = {"sqlite": "fts5", "postgresql": "pg_trgm"}[dialect]
    try:
        with conn.begin_nested():  # a refused statement leaves the transaction usable
            for statement in ddl(dialect):
                conn.execute(text(statement))
    except DBAPIError as error:
        reason = str(error.orig).strip().splitlines()[0] if error.orig else str(error)
        _put(conn, META_KEY, "none")
        _put(conn, SAID_KEY, reason)
        if dialect == "postgresql" and _extension_installed(conn):
            _put(conn, REFUSED_WITH_EXTENSION_KEY, "1")
            return (
                f"text and regex search have no index in this database (cannot make the pg_trgm index: {reason}); "
                "they still work, reading every card"
            )
        if dialect == "postgresql":
            return (
                f"text and regex search have no index in this database (cannot make the pg_trgm index: {reason}); "
                "they still work, reading every card; CREATE EXTENSION pg_trgm (by an administrator) makes "
                "cardbase build the index on its next start"
            )
        return (
            f"text and regex search have no index in this database (cannot make the FTS5 index: {reason}); "
            "they still work, reading every card"
        )
    _put(conn, META_KEY, made)
    return None


def due(conn: Connection) -> bool:
    """Whether ``ensure`` would try to make the index of a database that has none: never tried on this
    server, or refused for want of ``pg_trgm``, which is installed since (else search scans, quietly)."""
    dialect = conn.dialect.name
    if dialect not in ("sqlite", "postgresql"):
        return False
    if _get(conn, SAID_KEY) is None:
        return True
    return dialect == "postgresql" and _get(conn, REFUSED_WITH_EXTENSION_KEY) is None and _extension_installed(conn)


def _get(conn: Connection, key: str) -> str | None:
    value = conn.execute(text("SELECT value FROM meta WHERE key = :k"), {"k": key}).scalar()
    return None if value is None else str(value)


def _put(conn: Connection, key: str, value: str) -> None:
    conn.execute(text("DELETE FROM meta WHERE key = :k"), {"k": key})
    conn.execute(text("INSERT INTO meta (key, value) VALUES (:k, :v)"), {"k": key, "v": value})


def _extension_installed(conn: Connection) -> bool:
    return conn.execute(text("SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'")).first() is not None
