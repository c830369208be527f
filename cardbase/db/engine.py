"""Open a card database from a path or URL, create or upgrade its schema, load the catalogs.

The default is ``cardbase.db`` in the working directory (SQLite, WAL mode). Any
SQLAlchemy URL works; ``postgresql://`` is served by psycopg 3.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, create_engine, event, inspect, text
from sqlalchemy.engine import URL, Engine, make_url
from sqlalchemy.exc import ArgumentError, OperationalError
from sqlalchemy.exc import DatabaseError as SADatabaseError

from cardbase.db import search_index, stamps, tables
from cardbase.db.regex import regexp
from cardbase.errors import CardbaseError, DatabaseBusy, DatabaseError, UsageError, counted, mask_secrets, quoted

if TYPE_CHECKING:  # sqlmodel is imported when a session is made: the reads of start-up use none
    from sqlmodel import Session

DEFAULT_PATH = "cardbase.db"

# Migrations: MIGRATIONS[n] upgrades a database at schema version n to n + 1.
# Each runs inside the upgrade's transaction; tables new in n + 1 are made by create_all.


def _v1_add_card_abilities(conn: Connection) -> None:
    """Schema 2: ``card.abilities``, Méa abilities as JSON text (NULL: not expressed).

    Shipped catalogs are marked for reloading so that their cards get their abilities.
    """
    conn.execute(text("ALTER TABLE card ADD COLUMN abilities TEXT"))
    conn.execute(text("DELETE FROM meta WHERE key LIKE 'catalog:%'"))


def _v2_unicode_card_ids(conn: Connection) -> None:
    """Schema 3: card ids and search names keep the letters of every script (``cardbase.names``).

    Every card whose id the new rule changes (a name in another script, or a Latin letter such
    as ``ø`` that does not fold to ASCII) moves to its new id with the short id of that id, and
    its aliases, art and deck entries move with it; search names are recomputed for all cards.
    Ids of names whose letters fold to ASCII are unchanged. Set codes outside the set-code rule
    are made legal first (``_v2_legal_set_codes``). Two cards that would get one id are refused
    (nothing is changed: this runs in the upgrade's transaction).
    """
    from cardbase.db.catalog import _search_names

    _v2_legal_set_codes(conn)
    cards = conn.execute(text("SELECT id, game, set_code, name, land_name, short_id FROM card")).all()
    aliases: dict[str, list[str]] = {}
    for alias_card, alias in conn.execute(text("SELECT card_id, alias FROM card_alias")):
        aliases.setdefault(alias_card, []).append(alias)
    ids = {row.id for row in cards}
    short_ids = {row.short_id for row in cards}
    moves: dict[str, str] = {}
    for row in cards:
        new = tables.card_id(row.game, row.set_code, row.name)
        if new == row.id:
            continue
        if new in ids or new in moves.values():
            raise DatabaseError(
                f"cannot upgrade: card {quoted(row.name)} ({row.id}) would take the id {new}, already used"
            )
        moves[row.id] = new
    # every column the row has, but one the server computes (schema 10's text_folded on PostgreSQL,
    # there when a newer database is relabelled): it takes no value
    columns = [c["name"] for c in inspect(conn).get_columns("card") if not c.get("computed")]
    present = set(inspect(conn).get_table_names())
    referring = [t for t in ("card_alias", "card_image", "deck_card") if t in present]
    listed = ", ".join(columns)
    for old, new in moves.items():
        sid = tables.legacy_short_id(new)  # schema 3's short ids (schema 4 makes them longer)
        if sid in short_ids:
            raise DatabaseError(f"cannot upgrade: the new id {new} has a short id another card has")
        short_ids.add(sid)
        values = ", ".join(":new" if c == "id" else ":sid" if c == "short_id" else c for c in columns)
        # The old row keeps its short id until it is deleted: park it on an unused negative value.
        conn.execute(text("UPDATE card SET short_id = -1 - short_id WHERE id = :old"), {"old": old})
        conn.execute(
            text(f"INSERT INTO card ({listed}) SELECT {values} FROM card WHERE id = :old"),
            {"old": old, "new": new, "sid": sid},
        )
        for table in referring:
            conn.execute(text(f"UPDATE {table} SET card_id = :new WHERE card_id = :old"), {"old": old, "new": new})
        conn.execute(text("DELETE FROM card WHERE id = :old"), {"old": old})
    for row in cards:
        cid = moves.get(row.id, row.id)
        names = _search_names(row.name, sorted(aliases.get(row.id, [])), row.land_name)
        conn.execute(text("UPDATE card SET search_names = :s WHERE id = :id"), {"s": names, "id": cid})


def _v2_legal_set_codes(conn: Connection) -> None:
    """Part of schema 3: every set code follows ``cardbase.names.set_code`` (what deck lists read).

    A code from before the rule (``my_set``, ``../x``) becomes its letters, digits and ``-``
    (``my-set``, ``x``); its cards follow (their ids move with the rest of the migration). Two
    codes of one game that would become one are refused, nothing changed.
    """
    import re as re_

    from cardbase.names import SET_CODE_MAX, set_code

    rows: list[tuple[str, str]] = [(g, c) for g, c in conn.execute(text("SELECT game, code FROM card_set"))]
    rows += [(g, c) for g, c in conn.execute(text("SELECT DISTINCT game, set_code FROM card")) if (g, c) not in rows]
    taken = {(game, code) for game, code in rows}
    for game, code in sorted(set(rows)):
        try:
            if set_code(code) == code:
                continue
        except ValueError:
            pass
        new = re_.sub(r"[^a-z0-9]+", "-", code.lower()).strip("-")[:SET_CODE_MAX].strip("-") or "set"
        if (game, new) in taken:
            raise DatabaseError(
                f"cannot upgrade: {game} set code {quoted(code)} would become {quoted(new)}, which another set has; "
                "rename one of them with an older cardbase"
            )
        taken.add((game, new))
        for table, column in (("card_set", "code"), ("card", "set_code")):
            conn.execute(
                text(f"UPDATE {table} SET {column} = :new WHERE game = :game AND {column} = :old"),
                {"new": new, "game": game, "old": code},
            )


def _v3_long_short_ids(conn: Connection) -> None:
    """Schema 4: every card's short id is recomputed from its id as 53 bits (``tables.short_id``,
    whose high 31 bits are the old short id); on PostgreSQL the column becomes BIGINT. Cards that
    would share one are all named and the upgrade refused (about 2 in a million 200,000-card
    catalogs have a pair)."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("ALTER TABLE card ALTER COLUMN short_id TYPE BIGINT"))
    owner: dict[int, str] = {}
    clashes: list[str] = []
    rows = []
    for (cid,) in conn.execute(text("SELECT id FROM card ORDER BY id")):
        sid = tables.short_id(cid)
        if sid in owner:
            clashes.append(f"{owner[sid]} and {cid}")
        owner[sid] = cid
        rows.append({"sid": sid, "id": cid})
    if clashes:
        raise DatabaseError(
            f"cannot upgrade: these cards would share a short id: {'; '.join(clashes)}; rename one of each pair "
            "with an older cardbase"
        )
    conn.execute(text("UPDATE card SET short_id = -1 - short_id"))  # parked where no new short id is
    if rows:
        conn.execute(text("UPDATE card SET short_id = :sid WHERE id = :id"), rows)


def _v4_search_index(conn: Connection) -> str | None:
    """Schema 5: the search index (``cardbase.db.search_index``), FTS5 on SQLite, pg_trgm on
    PostgreSQL; a server that cannot make it leaves search scanning, and this says so."""
    return search_index.ensure(conn)


def _v5_deck_version(conn: Connection) -> None:
    """Schema 6: ``deck.version``, 1 for every deck kept so far; each write to a deck adds 1 (``decks.store``)."""
    conn.execute(text("ALTER TABLE deck ADD COLUMN version INTEGER DEFAULT 1 NOT NULL"))


def _v6_played_games(conn: Connection) -> None:
    """Schema 7: the games played at the web server's tables. The three tables are new, so
    ``create_all`` makes them in the same transaction; no existing row changes."""


def _v7_owners_tables(conn: Connection) -> None:
    """Schema 8: the collection, card and deck-entry tags, card edits and deck versions: new tables only,
    which ``create_all`` makes in the upgrade's transaction; no existing row changes."""


def _v8_text_order_index(conn: Connection) -> None:
    """Schema 9: on SQLite, the indexes of the name orders with the text beside the name
    (``search_index.ORDER_INDEXES``), which text search walks; PostgreSQL is unchanged."""
    search_index.ensure_order_indexes(conn)


def _v9_folded_text(conn: Connection) -> None:
    """Schema 10: on PostgreSQL, the card's text in lower case (``search_index.FOLDED_TEXT``, a
    generated column the server fills for every card now and keeps in step), which text search
    tests before its ``ILIKE``; SQLite is unchanged."""
    search_index.ensure_folded_text(conn)


MIGRATIONS: dict[int, Callable[[Connection], str | None]] = {
    1: _v1_add_card_abilities,
    2: _v2_unicode_card_ids,
    3: _v3_long_short_ids,
    4: _v4_search_index,
    5: _v5_deck_version,
    6: _v6_played_games,
    7: _v7_owners_tables,
    8: _v8_text_order_index,
    9: _v9_folded_text,
}
"""MIGRATIONS[n] upgrades schema n to n + 1; what it returns is said to the user once."""


def database_url(db: str | None) -> str:
    """The SQLAlchemy URL for ``db``: a URL as is, a path as SQLite, None as the default file."""
    db = db or os.environ.get("CARDBASE_DB") or DEFAULT_PATH
    if "://" not in db:
        return f"sqlite:///{Path(db).expanduser()}"
    if db.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + db.split("://", 1)[1]
    return db


LOCK_WAIT_SECONDS = 10
"""How long a write waits in all for locks (another program's, another thread's) before it says the
database is busy; a read waits as long for a pooled connection."""

WRITE_LOCK_KEY = 0x63617264_62617365
"""The PostgreSQL advisory lock (``cardbase`` in ASCII) every write transaction takes first: one writer at
a time, as SQLite's write lock makes it (a row-locked write takes it shared); reads never take it."""

_budget: ContextVar[tuple[float, float] | None] = ContextVar("cardbase_lock_budget", default=None)
"""The budget in force: (its deadline on the monotonic clock, its length in seconds)."""


@contextmanager
def lock_budget(seconds: float) -> Iterator[None]:
    """Within the block, the writes of this context (and of the worker threads it starts) wait at most
    ``seconds`` from now for locks, all of them together (a web request's budget)."""
    token = _budget.set((time.monotonic() + seconds, seconds))
    try:
        yield
    finally:
        _budget.reset(token)


def lock_wait_left() -> float:
    """Seconds a write may still wait for a lock: what is left of the budget, else ``LOCK_WAIT_SECONDS``."""
    budget = _budget.get()
    return float(LOCK_WAIT_SECONDS) if budget is None else max(0.0, budget[0] - time.monotonic())


def busy() -> DatabaseBusy:
    """The error of a write that waited its whole budget for a lock (or of a full connection pool)."""
    budget = _budget.get()
    seconds = LOCK_WAIT_SECONDS if budget is None else budget[1]
    return DatabaseBusy(
        f"the database is locked by another program or request (waited {seconds:g} s); try again when it is done"
    )


POOL_SIZE, POOL_OVERFLOW = 5, 10
"""A PostgreSQL engine's pool: 5 connections kept, 10 more while they are needed (SQLAlchemy's own)."""

WRITE_CONNECTIONS = 10
"""PostgreSQL write transactions of one program that hold a pooled connection at once: the others
wait their turn without one (``WriteTurns``), so reads always have 5 of the pool's 15 left."""


class WriteTurns:
    """The write transactions of one program that may run at once, each with its pooled connection:
    ``slots`` of them, the others waiting for a turn without a connection (within their budget), in
    the order they came: a turn given back goes to the longest waiting, so a thread that writes again
    and again (an agent's game saved move after move) cannot take every turn while another waits
    past its budget (a semaphore let it: a deck edit was 'database is locked'). A thread that holds
    a turn takes it again as it asks (a write within a write)."""

    def __init__(self, slots: int) -> None:
        self.slots = slots
        self._lock = threading.Lock()
        self._free = slots
        self._waiting: deque[threading.Event] = deque()  # each waiter's, set when the turn is handed to it
        self._depth = threading.local()

    def acquire(self, blocking: bool = True, timeout: float | None = None) -> bool:
        depth = getattr(self._depth, "n", 0)
        if not depth and not self._take(blocking, timeout):
            return False
        self._depth.n = depth + 1
        return True

    def _take(self, blocking: bool, timeout: float | None) -> bool:
        with self._lock:
            if self._free and not self._waiting:
                self._free -= 1
                return True
            if not blocking:
                return False
            handed = threading.Event()
            self._waiting.append(handed)
        try:
            handed.wait(timeout)
        except BaseException:  # Ctrl-C while waiting: a turn handed meanwhile goes on to the next
            with self._lock:
                if handed.is_set():
                    self._pass_on()
                else:
                    self._waiting.remove(handed)
            raise
        with self._lock:
            if handed.is_set():
                return True
            self._waiting.remove(handed)
            return False

    def release(self) -> None:
        self._depth.n -= 1
        if not self._depth.n:
            with self._lock:
                self._pass_on()

    def _pass_on(self) -> None:
        """A turn given back (the lock held): to the longest waiting, so no one else takes it first."""
        if self._waiting:
            self._waiting.popleft().set()
        else:
            self._free += 1

    @property
    def waiting(self) -> int:
        """How many writers wait for a turn."""
        return len(self._waiting)


@dataclass
class Database:
    """An open card database."""

    engine: Engine
    url: str
    # Writers take turns in this program before they take a connection (the wait counts in the write's
    # budget). SQLite lets one writer in at a time, and a writer waiting for the lock polls for it
    # (busy_timeout): many threads of one process (the web server) could starve one of them past the
    # timeout, so they take one turn. On PostgreSQL a writer waits for cardbase's write lock holding a
    # connection: twenty writer threads held all 15 of the pool and every read failed after 10 s, so
    # WRITE_CONNECTIONS take turns. Other programs still queue on the database's own lock.
    _writers: WriteTurns | None = field(default=None, repr=False, compare=False)
    notes: list[str] = field(default_factory=list, compare=False)
    """What opening it found that the user should be told (once): a search index it cannot make."""
    origin: str = "cli"
    """Where changes through this handle come from, as deck history records it (``cli``; the web app's is ``web``)."""
    deck_history: int = 1_000
    """Versions kept per deck (``CARDBASE_DECK_HISTORY``, 1 to 1,000,000)."""

    def __post_init__(self) -> None:
        if self._writers is None:
            self._writers = WriteTurns(1 if self.engine.dialect.name == "sqlite" else WRITE_CONNECTIONS)

    def session(self) -> Session:
        """An ORM session (``sqlmodel`` is imported then); ``read`` is enough for SQL on the tables."""
        from sqlmodel import Session

        return Session(self.engine)

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A connection for reads through ``cardbase.db.tables`` (SQLAlchemy Core): no ORM session, so a
        command that only reads never imports ``sqlmodel`` or ``sqlalchemy.orm``. Its transaction
        is rolled back at the end."""
        with self.engine.connect() as conn:
            yield conn

    @contextmanager
    def snapshot(self) -> Iterator[Session]:
        """An ORM session for reads only that sees one state of the database throughout, rolled back at
        the end: what a check that writes nothing (a dry run) reads in. It takes no write lock, so other
        writers go on meanwhile (``transaction`` holds SQLite's lock or PostgreSQL's ``WRITE_LOCK_KEY``).
        SQLite's deferred transaction reads one snapshot of its WAL; PostgreSQL's is begun REPEATABLE
        READ and READ ONLY (a write in it is refused)."""
        from sqlmodel import Session

        with Session(self.engine) as session:  # its transaction begins at the first statement; closing rolls it back
            if self.engine.dialect.name != "sqlite":
                session.execute(text("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY"))
            yield session

    @contextmanager
    def transaction(self, *, row_locked: bool = False) -> Iterator[Session]:
        """A session whose work is committed at the end, or rolled back entirely on error.

        It waits for locks at most ``lock_wait_left()`` seconds in all (the in-process turn, SQLite's
        write lock, PostgreSQL's row and table locks), then raises ``DatabaseBusy``.

        On PostgreSQL a write runs alone (``WRITE_LOCK_KEY``), unless it is ``row_locked``: it locks the
        one row that guards all it changes before it changes anything (a deck edit: its deck's row), so
        such writes run beside each other, never beside one that runs alone. SQLite has one writer.

        What a write depends on is read in it, not before it: another writer may change it in between
        (a deck renamed, a card deleted), which a read in the transaction sees (``tests/hostile/
        test_read_in_write.py`` forces each such interleaving)."""
        from sqlmodel import Session

        turns = self._writers
        assert turns is not None
        if not turns.acquire(timeout=lock_wait_left()):
            raise busy()
        try:
            budget = lock_wait_left()
            if self.engine.dialect.name != "sqlite":
                with Session(self.engine) as session, session.begin():
                    # One round trip, in order: the bounds, then cardbase's write lock (one writer at a time,
                    # as SQLite's lock makes it: two imports or adds of one new card do not both insert it).
                    # lock_timeout bounds each lock a statement waits for (0 would mean none: at least 1 ms);
                    # a row lock queued behind other waiters is two waits, so under a request's budget
                    # statement_timeout bounds the later statements whole, with a second of work on top, or
                    # the session's own when that is lower (the URL's options=-c statement_timeout=…; 0 is
                    # none); a command's long imports keep the session's own
                    wait_ms = int(budget * 1000)
                    statement_ms = str(wait_ms + 1000) if _budget.get() is not None else None
                    take = "pg_advisory_xact_lock_shared" if row_locked else "pg_advisory_xact_lock"
                    session.execute(
                        text(
                            "WITH own AS (SELECT CAST(setting AS bigint) AS ms FROM pg_settings "
                            "WHERE name = 'statement_timeout'), "
                            "bounds AS MATERIALIZED (SELECT set_config('lock_timeout', :lock_ms, true), "
                            "set_config('statement_timeout', coalesce(CASE WHEN own.ms BETWEEN 1 AND "
                            "CAST(:statement_ms AS bigint) THEN CAST(own.ms AS text) "
                            "ELSE CAST(:statement_ms AS text) END, current_setting('statement_timeout')), true) "
                            f"FROM own) SELECT {take}(:key) FROM bounds"
                        ),
                        {"lock_ms": str(max(1, wait_ms)), "statement_ms": statement_ms, "key": WRITE_LOCK_KEY},
                    )
                    yield session
                return
            options = {"cardbase_begin": "IMMEDIATE", "cardbase_wait": budget}
            with Session(self.engine.execution_options(**options)) as session, session.begin():
                yield session
        except (OperationalError, SADatabaseError) as error:
            if not is_busy(error):
                raise
            raise busy() from None  # said here, where the budget it waited is known
        finally:
            turns.release()

    @property
    def label(self) -> str:
        return self.engine.url.render_as_string(hide_password=True)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # SQLAlchemy, not the sqlite3 module, begins transactions, so DDL is transactional too.
    dbapi_connection.isolation_level = None
    dbapi_connection.create_function("regexp", 2, regexp, deterministic=True)
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA cache_size={-PAGE_CACHE_KIB}")
    # In WAL mode NORMAL syncs the log at checkpoints, not at every commit: a commit survives a
    # crash of the program, but the last commits may be lost if the machine loses power (README).
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()
    # text search's case folding beyond ASCII (cardbase.db.search.LOWER_FUNCTION), as PostgreSQL's lower()
    dbapi_connection.create_function("cardbase_lower", 1, _lower, deterministic=True)


def _lower(value: object) -> object:
    return value.lower() if isinstance(value, str) else value


PAGE_CACHE_KIB = 32 * 1024
"""A connection's SQLite page cache, at most (it grows as pages are read): with the default 2 MiB
a search of a 100,000-card catalog, which reads the search index and then the card table, reads
the same pages from the file again and again (twice the time on a loaded machine)."""


def _sqlite_begin(conn: Connection) -> None:
    # A write transaction (Database.transaction) takes the write lock up front with
    # IMMEDIATE, so two writing processes queue (busy_timeout) instead of one failing
    # when its read lock cannot be upgraded. Reads begin deferred. The lock wait is what
    # is left of the write's budget (a read's is the whole of it), set only when it changes.
    options = conn.get_execution_options()
    wait_ms = int(options.get("cardbase_wait", LOCK_WAIT_SECONDS) * 1000)
    if conn.info.get("busy_timeout") != wait_ms:
        conn.exec_driver_sql(f"PRAGMA busy_timeout={wait_ms}")
        conn.info["busy_timeout"] = wait_ms
    conn.exec_driver_sql(f"BEGIN {options.get('cardbase_begin', '')}")


_SQLITE_URI_OPTIONS = {
    "mode": ("ro", "rw", "rwc", "memory"),
    "cache": ("shared", "private"),
    "immutable": ("0", "1"),
    "nolock": ("0", "1"),
}
"""The options of a SQLite URI filename (``sqlite:///file:PATH?mode=ro&uri=true``) cardbase passes on,
with their values; the driver passes them to SQLite only with ``uri=true``."""
_SQLITE_SET_BY_CARDBASE = {
    "timeout": f"cardbase waits {LOCK_WAIT_SECONDS} s for a lock itself",
    "isolation_level": "cardbase begins and ends its own transactions",
    "check_same_thread": "cardbase shares connections between threads safely itself",
    "detect_types": "cardbase reads the columns' types itself",
}
"""Options the driver knows that cardbase sets itself (the URL's value would be overridden or break it)."""


def _check_sqlite_query(query: dict[str, str | tuple[str, ...]], url: str) -> None:
    """The query options of a SQLite URL, each one the driver uses with a value it takes, or
    ``DatabaseError`` naming the option: the driver ignores the options it does not know
    (``?poolclass=x``) and some of its own only fail later, so an option that would do nothing or
    break cardbase is refused as the URL is read."""
    where = f"cannot use database URL {quoted(mask_password(url))}"
    for key, value in query.items():
        if not isinstance(value, str):
            raise DatabaseError(f"{where}: option {quoted(key)} is given {counted(len(value), 'time')}")
        if key in _SQLITE_SET_BY_CARDBASE:
            raise DatabaseError(f"{where}: option {quoted(key)}: {_SQLITE_SET_BY_CARDBASE[key]}; leave it out")
        if key == "uri":
            if value.lower() not in ("true", "false", "1", "0"):
                raise DatabaseError(f"{where}: option 'uri' is true or false, not {quoted(value, 40)}")
        elif key == "cached_statements":
            if not (value.isascii() and value.isdecimal() and len(value) <= 6 and int(value) <= 100_000):
                raise DatabaseError(f"{where}: option 'cached_statements' is a whole number from 0 to 100,000")
        elif key in _SQLITE_URI_OPTIONS:
            if str(query.get("uri", "")).lower() not in ("true", "1"):
                raise DatabaseError(f"{where}: option {quoted(key)} works only with uri=true and a file: path")
            if value not in _SQLITE_URI_OPTIONS[key]:
                allowed = ", ".join(_SQLITE_URI_OPTIONS[key])
                raise DatabaseError(f"{where}: option {quoted(key)} is one of {allowed}, not {quoted(value, 40)}")
        else:
            known = ", ".join(["uri", "cached_statements", *_SQLITE_URI_OPTIONS])
            raise DatabaseError(
                f"{where}: option {quoted(key, 60)} is not a SQLite option cardbase uses (those are {known})"
            )


def create_db_engine(url: str) -> Engine:
    """A SQLAlchemy engine for ``url`` with cardbase's connection settings."""
    if url.startswith("sqlite"):
        try:
            parsed = make_url(url)
        except (ArgumentError, ValueError) as error:  # ValueError: a port that is not a number
            raise DatabaseError(f"cannot use database URL {quoted(mask_password(url))}: {error}") from None
        _check_sqlite_query(dict(parsed.query), url)
        path, in_memory = _sqlite_path(parsed)
        if "\x00" in path:
            raise DatabaseError(f"cannot use database URL {quoted(mask_password(url))}: the path holds a NUL byte")
        if not in_memory and (problem := _path_problem(path)) is not None:
            raise UsageError(f"cannot use database {quoted(mask_password(url))}: {problem}")
        if not in_memory:
            _check_database_place(path)
            _check_database_file(path)
        read_only = not in_memory and read_only_folder(path, parsed) is not None
        # An in-memory database has one connection per thread (SingletonThreadPool): nothing to wait for.
        pooling: dict[str, Any] = {} if in_memory else {"pool_timeout": LOCK_WAIT_SECONDS}
        if read_only:
            pooling["creator"] = _read_only_connect(path)
        try:
            engine = create_engine(url, connect_args={"timeout": LOCK_WAIT_SECONDS}, **pooling)
        except Exception as error:  # a driver not installed (sqlite+aiosqlite), a query value it refuses (?timeout=x)
            raise DatabaseError(f"cannot use database URL {quoted(mask_password(url))}: {error}") from None
        event.listen(engine, "connect", _sqlite_pragmas)
        event.listen(engine, "begin", _sqlite_begin)
        stamps.watch(engine)
        return engine
    # A lock is waited for LOCK_WAIT_SECONDS at most (a write's own budget is set per transaction),
    # and a pooled connection as long: a full pool is "busy", not a wait without end.
    args = {"options": _pg_options(url)} if url.startswith("postgresql") else {}
    # psycopg logs a warning of its own as it gives up a connection the server dropped ("error ignored
    # terminating <psycopg.Pipeline>"); the error itself reaches the user as one line: not twice
    psycopg_log = logging.getLogger("psycopg")
    if not any(isinstance(h, logging.NullHandler) for h in psycopg_log.handlers):
        psycopg_log.addHandler(logging.NullHandler())
    try:
        engine = create_engine(
            url,
            pool_pre_ping=True,
            pool_size=POOL_SIZE,
            max_overflow=POOL_OVERFLOW,
            pool_timeout=LOCK_WAIT_SECONDS,
            connect_args=args,
        )
    except Exception as error:  # unknown dialect or driver
        raise DatabaseError(f"cannot use database URL {quoted(mask_password(url))}: {error}") from None
    stamps.watch(engine)
    return engine


def _pg_options(url: str) -> str:
    """The server settings a PostgreSQL connection sends (libpq's ``options``): the URL's own
    (``?options=-c statement_timeout=5000``) and cardbase's lock wait after them. Given in
    ``connect_args`` alone, cardbase's replaced the URL's, which were dropped without a word."""
    try:
        given = make_url(url).query.get("options")
    except (ArgumentError, ValueError) as error:
        raise DatabaseError(f"cannot use database URL {quoted(mask_password(url))}: {error}") from None
    if isinstance(given, tuple):
        raise DatabaseError(
            f"cannot use database URL {quoted(mask_password(url))}: option 'options' is given "
            f"{counted(len(given), 'time')}"
            " (give the settings in one: options=-c a=1 -c b=2)"
        )
    wait = f"-c lock_timeout={LOCK_WAIT_SECONDS * 1000}"
    return f"{given} {wait}" if given and given.strip() else wait


def _sqlite_path(parsed: URL) -> tuple[str, bool]:
    """The file path of a SQLite URL (a ``file:`` URI's without its query) and whether it is in memory."""
    path = parsed.database or ""
    if path.startswith("file:"):  # a SQLite URI filename (…?mode=ro&uri=true)
        path = path[len("file:") :].split("?", 1)[0]
    return path, path in ("", ":memory:") or parsed.query.get("mode") == "memory"


def _path_problem(path: str) -> str | None:
    """Why no file system can hold the database's ``path`` (``textfiles.path_problem``, its NUL
    left to the caller's own words), or why it is no name at all: bytes that are not UTF-8."""
    from cardbase.textfiles import path_problem

    if not path.isascii() and not _utf8(path):
        return f"{quoted(path)} is not UTF-8 text (cardbase reads names as UTF-8)"
    return path_problem(path) if path.strip() and "\x00" not in path else None


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def location_problem(db: str) -> str | None:
    """Why ``db`` (what ``--db`` or ``CARDBASE_DB`` gives: a path or a URL) can name no database, as it
    is read (``None`` if it may): text that is not UTF-8, or a SQLite path no file system can hold
    (a name over 255 bytes, over 4,095 in all), which would reach the driver and be said as the
    whole path in a message of thousands of characters. Other faults are the opening's to say."""
    if not db.isascii() and not _utf8(db):
        return f"{quoted(db)} is not UTF-8 text (cardbase reads names as UTF-8)"
    if "://" not in db:
        return _path_problem(str(Path(db).expanduser()))
    if not db.startswith("sqlite"):
        return None
    try:
        parsed = make_url(db)
    except (ArgumentError, ValueError):
        return None  # said by create_db_engine, with the parser's reason
    path, in_memory = _sqlite_path(parsed)
    return None if in_memory else _path_problem(path)


def _folder_writable(folder: Path) -> bool:
    return os.access(folder, os.W_OK)


def read_only_folder(path: str, parsed: URL | None = None) -> Path | None:
    """The folder of the SQLite database file ``path`` when it is not writable (a read-only mount, a
    shared catalog) and no program has the database open for writing (no ``-wal`` file beside it);
    else None. SQLite cannot make the ``-shm`` file a WAL database is read through there, so it
    refused even a search ("unable to open database file"): such a database is opened read-only and
    immutable instead (every read works; a write is "the database is read-only"). A ``file:`` URI is
    opened as it says."""
    if parsed is not None and (parsed.database or "").startswith("file:"):
        return None
    file = Path(path)
    if not file.is_file() or Path(f"{path}-wal").exists() or _folder_writable(file.parent):
        return None
    return file.parent


def _read_only_connect(path: str) -> Callable[[], Any]:
    """A connection to the database file ``path`` read-only and immutable (``read_only_folder``)."""
    import sqlite3
    from urllib.parse import quote

    uri = f"file:{quote(str(Path(path).absolute()))}?mode=ro&immutable=1"

    def connect() -> Any:
        return sqlite3.connect(uri, uri=True, timeout=LOCK_WAIT_SECONDS, check_same_thread=False)

    return connect


def _check_database_place(path: str) -> None:
    """The folder of the SQLite file ``path`` is there, may be looked in, and may be written to when
    the file is new (a folder this user may not enter was an internal error)."""
    folder = Path(path).parent
    try:
        if not folder.exists():
            raise DatabaseError(f"{path}: folder {folder} does not exist")
        there = Path(path).exists() or Path(path).is_symlink()
    except OSError as error:
        raise DatabaseError(f"{path}: cannot open the database: {error.strerror or error}") from None
    if not there and not _folder_writable(folder):
        raise DatabaseError(f"{path}: no database there, and its folder {folder} is read-only")


DATABASE_ENDINGS = (".db", ".sqlite", ".sqlite3", ".db3")
"""The endings of a file named as a SQLite database: an empty file of such a name is made one."""


def _check_database_file(path: str) -> None:
    """What ``--db`` names must be a SQLite database or a new path, checked before SQLite opens it
    (SQLite would make a database of an empty file or through a link to nothing, write its header
    and journal beside whatever it was given, and open a device or a FIFO). Refused, naming the
    path, with nothing made or changed: a device, FIFO, socket or folder; a link to nothing; a
    name SQLite gives a database's side files (``cards.db-wal``); a file that does not begin as a
    SQLite database (a README, a PNG, a zip); an empty file not named as a database (``.db``)."""
    import stat

    from cardbase.errors import shown
    from cardbase.textfiles import SQLITE_HEADER, SQLITE_SIDE_FILES, starts_with, what_it_is

    where = shown(path)
    name = os.path.basename(os.path.realpath(path))  # a link's target is what SQLite would write
    names = (os.path.basename(path), name)
    if (suffix := next((s for s in SQLITE_SIDE_FILES for n in names if n.endswith(s)), None)) is not None:
        raise UsageError(
            f"{where}: ends in {suffix}, the name SQLite gives a database's side file; give the database file itself"
        )
    try:
        info = os.stat(path)
    except FileNotFoundError:
        if os.path.islink(path):
            raise UsageError(
                f"{where}: is a link to {shown(os.readlink(path))}, which does not exist; no database is made "
                "through it: give the path itself"
            ) from None
        return  # a new file
    except (OSError, ValueError):
        return  # one SQLite will say it cannot open
    if not stat.S_ISREG(info.st_mode):
        raise DatabaseError(
            f"{where}: is {what_it_is(info.st_mode)}, not a database file; give a database file or a new path"
        )
    if info.st_size == 0:
        if name.lower().endswith(DATABASE_ENDINGS) or os.path.exists(f"{path}-wal"):
            return
        raise UsageError(
            f"{where}: is an empty file not named as a database; it is left as it is: give a file ending in "
            f"{', '.join(DATABASE_ENDINGS)} or a new path"
        )
    if not os.access(path, os.R_OK):
        return  # said by SQLite as it opens it (permissions)
    if starts_with(Path(path), len(SQLITE_HEADER)) != SQLITE_HEADER:  # (a FIFO put there since: not waited on)
        raise DatabaseError(
            f"cannot open database {where}: it is not a SQLite database (damaged, or another kind of file); "
            "it is left as it is: give a cardbase database or a new path"
        )


def _make_whole(engine: Engine) -> None:
    """A new SQLite database file appears whole, its header written and in WAL mode: made under a
    temporary name beside it, then linked to its own (which fails if another program made it first:
    that one is opened). SQLite makes a new file empty and writes it only as the tables are made: a
    program opening it together (two commands, a server's workers) refused the file of a name that
    does not say database (``cards``) as 'an empty file not named as a database'. Where the folder
    takes no links, SQLite makes the file as before. A Ctrl-C meanwhile is held until the temporary
    is gone (one landing as it was removed left it: a second name of the new database)."""
    import secrets
    import sqlite3

    from cardbase.interrupts import deferred

    path = engine.url.database or ""
    if not path or path == ":memory:" or path.startswith("file:") or os.path.lexists(path):
        return
    # made by SQLite, so with the permissions it gives a new database (tempfile's would be the owner's alone)
    made = os.path.join(os.path.dirname(os.path.abspath(path)), f".cardbase-new-{secrets.token_hex(8)}.db")
    with deferred():
        try:
            conn = sqlite3.connect(made)
            try:
                conn.execute("PRAGMA journal_mode=WAL")  # writes the header; the side files go as it closes
            finally:
                conn.close()
            os.link(made, path)
        except FileExistsError:
            pass  # another program made it meanwhile: whole, as this one would have
        except (OSError, sqlite3.Error):
            pass  # no links there (or no room): SQLite makes the file as it connects
        finally:
            for leftover in (made, f"{made}-wal", f"{made}-shm"):
                with contextlib.suppress(OSError):
                    os.unlink(leftover)


def _use_wal(engine: Engine) -> None:
    """WAL journal mode (kept by the file), set only once the file is known to be cardbase's: a
    database of another program is refused before anything is written to it, its header included.

    The switch needs the file to itself for a moment, and SQLite refuses it at once, without waiting,
    while another program holds it (programs opening a new file together: one failed 'database is
    locked', as a traceback). It is tried again within the lock budget; a file another program has
    switched meanwhile is done; past the budget it is ``DatabaseBusy``."""
    deadline = time.monotonic() + LOCK_WAIT_SECONDS
    pause = 0.005
    while True:
        raw = engine.raw_connection()
        try:
            cursor = raw.cursor()
            try:
                cursor.execute("PRAGMA journal_mode=WAL")
                return
            finally:
                cursor.close()
        except SADatabaseError:
            return  # a read-only database keeps its mode; reads still work
        except Exception as error:
            reason = str(error)
            if "readonly" in reason or "read-only" in reason:
                return
            if not any(phrase in reason.lower() for phrase in BUSY):
                raise DatabaseError(f"cannot set the journal mode: {describe_database_error(reason)}") from None
        finally:
            raw.close()
        if _journal_mode(engine) == "wal":
            return
        if time.monotonic() >= deadline:
            raise busy()
        time.sleep(pause)
        pause = min(pause * 2, 0.2)


def _journal_mode(engine: Engine) -> str | None:
    """The file's journal mode as read now, or None when it cannot be read this moment (locked)."""
    raw = engine.raw_connection()
    try:
        cursor = raw.cursor()
        try:
            row = cursor.execute("PRAGMA journal_mode").fetchone()
        finally:
            cursor.close()
        return str(row[0]).lower() if row else None
    except Exception:  # locked again: the caller tries the switch again
        return None
    finally:
        raw.close()


def ensure_schema(engine: Engine, notes: list[str] | None = None) -> int:
    """Create the tables of a new database or upgrade an old one; return the schema version.
    What the user should be told once (a search index the server cannot make) is added to ``notes``.

    A database made by a newer cardbase, or a database that is not cardbase's, is refused.
    """
    said = notes if notes is not None else []
    with engine.begin() as conn:
        if (current := _up_to_date(conn, said)) is not None:  # the common case: two reads, no reflection
            return current
    # The tables must be made or upgraded: under the write lock taken up front (waited for as any write
    # is), and read again under it. On SQLite a transaction begun as a read cannot become a write once
    # another program has written since (SQLite refuses at once, without waiting): two commands opening
    # a new file together failed, one said locked. On PostgreSQL it is cardbase's write lock: programs
    # opening a new database together each made its tables, and all but one failed ("duplicate key
    # value violates unique constraint pg_type_typname_nsp_index").
    writing = engine.execution_options(cardbase_begin="IMMEDIATE") if engine.dialect.name == "sqlite" else engine
    with writing.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": WRITE_LOCK_KEY})
        if (current := _up_to_date(conn, said, locked=True)) is not None:  # another program made it meanwhile
            return current
        return _make_or_upgrade(conn, said)


def _up_to_date(conn: Connection, said: list[str], *, locked: bool = False) -> int | None:
    """The schema version when the database has the current schema with all its tables (the search
    index's PostgreSQL parts made good), else None: the tables must be made or upgraded, or a part
    made good. Only under the write lock (``locked``) is anything made: programs opening a database
    together each made the trigram index, and all but one failed ('duplicate key … "meta_pkey"')."""
    current, index = _current_version(conn)
    if current == tables.SCHEMA_VERSION:
        present = _columns(conn)
        if all(name in present for name in tables.METADATA.tables):
            _check_columns(conn, current, present)
            if conn.dialect.name != "postgresql":
                return current
            index_due = index == "none" and search_index.due(conn)  # pg_trgm may have come since
            folded_lost = search_index.FOLDED_TEXT not in present["card"]  # search reads it: made again
            if not locked and (index_due or folded_lost):
                return None
            if index_due:
                _say(said, search_index.ensure(conn))
            if folded_lost:
                search_index.ensure_folded_text(conn)
            return current
    return None


def _make_or_upgrade(conn: Connection, said: list[str]) -> int:
    """Make the tables of a new database, or upgrade an old one, in ``conn``'s transaction."""
    existing = set(inspect(conn).get_table_names())
    if "meta" not in existing:
        if existing:
            shown = ", ".join(sorted(existing)[:5]) + (", …" if len(existing) > 5 else "")
            raise DatabaseError(
                f"{_named(conn)}: not a cardbase database: it already holds other tables ({shown}); it is left as "
                "it is: give a new file or an empty database"
            )
        _create_all(conn)
        conn.execute(
            text("INSERT INTO meta (key, value) VALUES ('schema_version', :v)"), {"v": str(tables.SCHEMA_VERSION)}
        )
        search_index.ensure_order_indexes(conn)
        search_index.ensure_folded_text(conn)
        _say(said, search_index.ensure(conn))
        return tables.SCHEMA_VERSION
    row = conn.execute(text("SELECT value FROM meta WHERE key = 'schema_version'")).first()
    if row is None:
        raise DatabaseError(f"{_named(conn)}: not a cardbase database: its 'meta' table has no schema_version")
    try:
        version = int(row[0])
    except (TypeError, ValueError):
        raise DatabaseError(f"the schema version {quoted(row[0])} is not a number: the database is damaged") from None
    if version > tables.SCHEMA_VERSION:
        raise DatabaseError(
            f"the database has schema version {version}, newer than this cardbase "
            f"understands ({tables.SCHEMA_VERSION}); upgrade cardbase to use it"
        )
    label = version
    _check_tables(existing, label)
    while version < tables.SCHEMA_VERSION:
        if version not in MIGRATIONS:
            raise DatabaseError(f"no migration from schema version {version}")
        try:
            _say(said, MIGRATIONS[version](conn))
        except (OperationalError, SADatabaseError) as error:
            raise DatabaseError(
                f"cannot upgrade it from schema version {version}: {str(error.orig).splitlines()[0]}; "
                f"{_MISLABELLED.format(label=label)}"
            ) from None
        version += 1
        conn.execute(text("UPDATE meta SET value = :v WHERE key = 'schema_version'"), {"v": str(version)})
    _check_columns(conn, label)
    _create_all(conn)
    return version


def _named(conn: Connection) -> str:
    """The database of ``conn`` for a message: a SQLite file's path, else its URL without the password."""
    url = conn.engine.url
    if url.get_backend_name() == "sqlite" and url.database:
        from cardbase.errors import shown

        return shown(url.database)
    return quoted(url.render_as_string(hide_password=True))


def _create_all(conn: Connection) -> None:
    """Make the tables the database lacks, as the SQLModel classes describe them (``cardbase.db.tables``
    describes the same; the classes are imported only here, when a database is made or upgraded)."""
    from sqlmodel import SQLModel

    from cardbase.db import models  # noqa: F401  # the classes put their tables in SQLModel.metadata

    SQLModel.metadata.create_all(conn)


SCHEMA_1_TABLES = ("card", "card_alias", "card_image", "card_set", "card_type", "deck", "deck_card", "game", "meta")
"""The tables of schema 1, which every later schema keeps: a cardbase database has them all."""

_MISLABELLED = (
    "its tables are not those of schema version {label} it is labelled with (a wrong label, a dropped table "
    "or a damaged file); it is left unchanged (restore it from a backup, or give a new file)"
)


def _check_tables(tables: set[str], label: int) -> None:
    """Refuse, before any step runs, a database missing a table every schema has (dropped, or not
    made by cardbase): it would be made again, empty, and the data it held silently gone."""
    missing = [t for t in SCHEMA_1_TABLES if t not in tables]
    if missing:
        raise DatabaseError(f"the database has no table {', '.join(missing)}: {_MISLABELLED.format(label=label)}")


def _check_columns(conn: Connection, label: int, present: dict[str, set[str]] | None = None) -> None:
    """Refuse a database whose tables, once the upgrade's steps have run (in its transaction, so
    nothing is committed), lack a column of the current schema: its label said a version it is not.
    ``present`` is the tables' columns when the caller has just read them."""
    if present is None:
        present = _columns(conn)
    for name, table in tables.METADATA.tables.items():
        if name not in present:
            continue  # a table newer than every step: create_all makes it
        missing = [c.name for c in table.columns if c.name not in present[name]]
        if missing:
            raise DatabaseError(
                f"the table {name} has no column {', '.join(missing)}: {_MISLABELLED.format(label=label)}"
            )


_COLUMNS_SQL = {
    "sqlite": "SELECT m.name, p.name FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE m.type = 'table'",
    "postgresql": (
        "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()"
    ),
}


def _columns(conn: Connection) -> dict[str, set[str]]:
    """Every table's columns, as the tables are now (one query where the dialect allows: this runs
    at every open)."""
    out: dict[str, set[str]] = {}
    sql = _COLUMNS_SQL.get(conn.dialect.name)
    if sql is None:
        inspector = inspect(conn)
        return {t: {c["name"] for c in inspector.get_columns(t)} for t in inspector.get_table_names()}
    for table, column in conn.exec_driver_sql(sql):
        out.setdefault(table, set()).add(column)
    return out


def _say(notes: list[str], note: str | None) -> None:
    if note:
        notes.append(note)


def _current_version(conn: Connection) -> tuple[int | None, str | None]:
    """The stored schema version when it reads as a number (else None: no ``meta`` table yet, or
    anything odd, which ``ensure_schema`` looks at closer), and the search index's kind. Read
    inside a savepoint, so a failed read leaves PostgreSQL's transaction usable."""
    try:
        with conn.begin_nested():
            found = conn.execute(
                text("SELECT key, value FROM meta WHERE key IN ('schema_version', :index)"),
                {"index": search_index.META_KEY},
            )
            rows = {str(key): str(value) for key, value in found}
    except (OperationalError, SADatabaseError):
        return None, None
    try:
        version = int(rows["schema_version"]) if "schema_version" in rows else None
    except ValueError:
        version = None
    return version, rows.get(search_index.META_KEY)


def _first_connection(engine: Engine, url: str) -> None:
    """Connect once (the connection stays in the pool): a value of the URL the driver checks only as it
    connects (``?cached_statements=`` past a C int) is a clear error; the driver's own refusals
    (``OperationalError``) are left to the caller, which names the reason."""
    try:
        engine.connect().close()
    except (OperationalError, SADatabaseError):
        raise
    except Exception as error:  # OverflowError, ValueError, TypeError from the driver's connect()
        raise DatabaseError(f"cannot use database URL {quoted(mask_password(url))}: {error}") from None


def _keep_safe(engine: Engine) -> None:
    """No output of this process replaces the SQLite database file or its journals (``-o`` naming
    the database, or a link to it, is refused: the data would be gone)."""
    from cardbase import textfiles

    path = engine.url.database
    if not path or path == ":memory:" or path.startswith("file:"):
        return
    for suffix in ("", "-wal", "-shm", "-journal"):
        textfiles.keep_safe(path + suffix, "the database")


def open_database(db: str | None = None, *, load_catalogs: bool = True) -> Database:
    """Open (creating if needed) the database at ``db`` and load the shipped catalogs into it;
    ``Database.notes`` holds what the user should be told about it."""
    url = database_url(db)
    engine = create_db_engine(url)
    notes: list[str] = []
    try:
        if engine.dialect.name == "sqlite":
            _make_whole(engine)
        _first_connection(engine, url)
        ensure_schema(engine, notes)
        if engine.dialect.name == "sqlite":
            _use_wal(engine)
            _keep_safe(engine)
            path = engine.url.database or ""
            if not path.startswith("file:") and (folder := read_only_folder(path)) is not None:
                notes.append(f"{path}: its folder {folder} is read-only: the database is read, any change is refused")
        database = Database(engine, url, notes=notes, deck_history=deck_history_limit())
        if load_catalogs and (pending := shipped_pending(database)):
            from cardbase.db.catalog import load_shipped

            load_shipped(database, pending)
    except (OperationalError, SADatabaseError) as error:
        reason = str(error.orig) if error.orig else str(error)
        label = quoted(engine.url.render_as_string(hide_password=True))
        refused = DatabaseBusy if is_busy(error) else DatabaseError  # a lock not had in time: try again
        raise refused(f"cannot open database {label}: {describe_database_error(reason)}") from None
    return database


def shipped_pending(database: Database) -> list[str]:
    """The shipped catalog files whose contents changed since they were last loaded (``meta`` keeps
    each file's digest): whether an open has anything to load. Read through the Core tables, so that an
    open that finds nothing to load builds no ORM classes; ``load_shipped`` decides again in its write."""
    with database.read() as conn:
        return pending_files(conn)


def pending_files(reader: Connection | Session) -> list[str]:
    """The shipped catalog files whose digest ``meta`` does not hold, as ``reader`` (a connection, or a
    write's session: what the write itself sees) reads it."""
    from sqlalchemy import select

    from cardbase.catalog.loader import SHIPPED_FILES, shipped_digest

    meta = tables.meta.c
    found = reader.execute(select(meta.key, meta.value).where(meta.key.like("catalog:%")))
    known = {str(key): str(value) for key, value in found}
    return [f for f in SHIPPED_FILES if known.get(f"catalog:{f}") != shipped_digest(f)]


BUSY = (
    "database is locked",
    "database table is locked",
    "lock timeout",
    "statement timeout",
    "deadlock detected",
    "could not serialize",
)
"""A driver's words for a lock not had in time: the write may be tried again (``DatabaseBusy``)."""

LOST = (
    "server closed the connection",
    "terminating connection",
    "connection is lost",
    "connection already closed",
    "the connection is closed",
    "ssl connection has been closed",
)
"""A driver's words for a connection the server dropped mid-command (a restart, ``pg_terminate_backend``)."""


def _reason(error: BaseException) -> str:
    """A driver error's own words (SQLAlchemy's wrapper adds the statement and its parameters)."""
    orig = getattr(error, "orig", None)
    return str(orig) if orig is not None else (str(error).splitlines() or [""])[0]


def is_busy(error: BaseException) -> bool:
    """Whether a driver's error is a lock not had in time (or a full pool): the write may be tried again."""
    from sqlalchemy.exc import TimeoutError as PoolTimeout

    return isinstance(error, PoolTimeout) or any(phrase in _reason(error).lower() for phrase in BUSY)


def database_error(error: BaseException) -> CardbaseError:
    """A driver's refusal as a user error: ``DatabaseBusy`` for a lock not had in time or a full pool,
    a usage error for a text holding NUL (which PostgreSQL cannot store), else ``DatabaseError``."""
    from sqlalchemy.exc import TimeoutError as PoolTimeout

    if isinstance(error, PoolTimeout):
        return DatabaseBusy(
            f"every connection to the database is in use (waited {LOCK_WAIT_SECONDS} s); try again shortly"
        )
    if is_busy(error):
        return busy()
    reason = _reason(error)
    if "nul (0x00)" in reason.lower():
        return UsageError("a text holds a NUL character (\\x00), which no name, query or value may hold")
    return DatabaseError(describe_database_error(reason))


DECK_HISTORY_ENV = "CARDBASE_DECK_HISTORY"


def deck_history_limit() -> int:
    """Versions kept per deck: ``CARDBASE_DECK_HISTORY`` (1 to 1,000,000), else 1,000."""
    from cardbase.errors import UsageError
    from cardbase.games.base import whole_number

    text = os.environ.get(DECK_HISTORY_ENV, "").strip()
    if not text:
        return 1_000
    number = whole_number(text, 1_000_000) if text.isascii() else None
    if not number:
        raise UsageError(
            f"{DECK_HISTORY_ENV}={quoted(text)}: the versions kept per deck are a whole number from 1 to 1,000,000"
        )
    return number


def describe_database_error(reason: str) -> str:
    """A driver's error, said for a user: locked, read-only and damaged databases get their own words."""
    low = reason.lower()
    if any(phrase in low for phrase in BUSY):
        return str(busy())
    if "readonly database" in low or "read-only" in low:
        return "the database is read-only: cardbase cannot write to it (check the file's permissions)"
    if "not a database" in low or "malformed" in low or "disk image" in low:
        return "the database file is damaged or is not a SQLite database"
    if "unable to open database" in low:
        return "cannot open the database file (check the path and its folder's permissions)"
    first = reason.strip().splitlines()[0] if reason.strip() else "unknown"
    if any(phrase in low for phrase in LOST):
        return f"the connection to the database was lost ({first}): nothing the command was writing was written"
    if "connection" in low:
        return first
    return f"database error: {first}"


def mask_password(url: str) -> str:
    """``url`` with its password shown as ``***``."""
    return mask_secrets(url)
