"""Stamps: a token in ``meta`` for each kind of data a deck page shows without its deck's version
changing (the catalog, the collection, card tags), renewed by every transaction that writes it.

Whatever caches a view of that data keys it by the stamps (``read_stamps``), read before the data:
a write renews its stamp in its own transaction (at commit), so a view made from data older than
a stamp is never found under it. Every write made through cardbase's engines is seen, from any
process (the server, the CLI); a write made with another tool (the ``sqlite3`` shell) is not.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from sqlalchemy import Connection, event, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError

STAMPED = {
    "card": "cards",
    "card_alias": "cards",
    "card_set": "cards",
    "card_type": "cards",
    "card_image": "cards",
    "game": "cards",
    "collection": "collection",
    "card_tag": "tags",
    "deck_card_tag": "tags",
}
"""The tables whose writes renew a stamp, and the stamp each renews (``meta`` key ``stamp:NAME``)."""

WRITE = re.compile(r"\s*(?:INSERT\s+(?:OR\s+\w+\s+)?INTO|UPDATE(?:\s+OR\s+\w+)?|DELETE\s+FROM)\s+\"?(\w+)", re.I)
PENDING = "cardbase_stamps"
"""The connection's ``info`` key: the stamps its open transaction will renew at commit."""


def _seen(conn: Connection, _cursor: Any, statement: str, *_args: Any) -> None:
    found = WRITE.match(statement)
    stamp = STAMPED.get(found.group(1).lower()) if found else None
    if stamp is not None:
        conn.info.setdefault(PENDING, set()).add(stamp)


def _renew(conn: Connection) -> None:
    """Just before the commit, in the transaction: a new token for each stamp it wrote (last, so that
    the ``meta`` rows are locked only while the transaction commits)."""
    pending = conn.info.pop(PENDING, None)
    if not pending:
        return
    dialect = conn.dialect
    cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
    try:
        for stamp in sorted(pending):  # a name of STAMPED and hex digits: no quoting needed
            sql = (
                f"INSERT INTO meta (key, value) VALUES ('stamp:{stamp}', '{secrets.token_hex(8)}') "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value"
            )
            try:
                cursor.execute(sql)
            except dialect.loaded_dbapi.Error as error:
                # SQLAlchemy does not wrap what a commit listener raises: the driver's own error (a lock
                # not had within the write's budget) would reach the user raw, not as DatabaseBusy
                raise DBAPIError.instance(sql, None, error, dialect.loaded_dbapi.Error, dialect=dialect) from error
    finally:
        cursor.close()


def _forget(conn: Connection) -> None:
    if conn.invalidated:  # the server dropped it: its pool record starts anew (``info`` cleared), and
        return  # touching ``info`` would raise over the error that is being rolled back
    conn.info.pop(PENDING, None)


def watch(engine: Engine) -> None:
    """Renew the stamps of what each transaction of ``engine`` writes."""
    event.listen(engine, "after_cursor_execute", _seen)
    event.listen(engine, "commit", _renew)
    event.listen(engine, "rollback", _forget)


def read_stamps(conn: Any) -> tuple[tuple[str, str], ...]:
    """Every stamp's token (``conn``: a connection or session), in a fixed order."""
    rows = conn.execute(text("SELECT key, value FROM meta WHERE key LIKE 'stamp:%' ORDER BY key"))
    return tuple((str(k), str(v)) for k, v in rows)
