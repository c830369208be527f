"""Writing card records into the database: shipped catalogs and imported files alike."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy import bindparam, delete, insert, update
from sqlalchemy.exc import SQLAlchemyError
from sqlmodel import Session, col, select

from cardbase.catalog.fields import DEFAULT_SET, STAT_COLUMNS, inapplicable_problem, inapplicable_values, unknown_fields
from cardbase.db.models import Card, CardAlias, CardSet, CardTagRow, CardType, Game, Meta, card_id, short_id
from cardbase.db.tags import replace_card_tags
from cardbase.errors import InvalidData, prefixed, quoted
from cardbase.games.base import GAME_TITLES, SOURCE_DEMO, SOURCE_RULEBOOK
from cardbase.games.meio.cards import min_players_of, min_players_problem
from cardbase.names import fold

if TYPE_CHECKING:
    from cardbase.db.engine import Database

_RULEBOOKS = {"mea": "mea.txt", "meio": "meio.txt", "meikyu": "meikyu.txt"}
# Values that a record may give; everything else on a Card is derived.
_VALUE_COLUMNS = ("text", "notes", *STAT_COLUMNS)


def _rulebook_counts() -> dict[str, dict[str, int | None]]:
    from cardbase.games.mea.cards import RULEBOOK_COUNTS as MEA
    from cardbase.games.meikyu.cards import RULEBOOK_COUNTS as MEIKYU
    from cardbase.games.meio.cards import RULEBOOK_COUNTS as MEIO

    return {
        "mea": {str(k): v for k, v in MEA.items()},
        "meikyu": {str(k): v for k, v in MEIKYU.items()},
        "meio": dict(MEIO),
    }


def ensure_games(session: Session) -> None:
    """Make the rows for the three games and their card types, once."""
    if session.get(Game, "meio") is not None:
        return
    for game, title in GAME_TITLES.items():
        session.add(Game(id=str(game), title=title, rulebook=_RULEBOOKS[str(game)]))
    session.flush()
    for game_id, counts in _rulebook_counts().items():
        for type_, count in counts.items():
            session.add(CardType(game=game_id, name=type_, rulebook_count=count))


def _search_names(name: str, aliases: Iterable[str], land_name: str | None) -> str:
    names = [name, *aliases] + ([land_name] if land_name else [])
    return "|" + "|".join(dict.fromkeys(fold(n) for n in names)) + "|"


@dataclass
class WriteReport:
    """What a write did (or, for a dry run, would do)."""

    inserted: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    cleared: list[str] = field(default_factory=list)
    """Each card whose encoded abilities its new text cleared (``apply_values``), as ``row 7: 'Name'``:
    what the writer reports, the write going through."""
    kept_aliases: list[tuple[str, str, list[str]]] = field(default_factory=list)
    """Each card whose aliases cell leaves out aliases it has (kept: a write adds aliases, never
    removes one), as (``row 7: 'Name'``, its id, the aliases left out)."""


def write_cards(
    session: Session,
    game: str,
    set_code: str,
    source: str,
    records: Iterable[Mapping[str, Any]],
    *,
    replace_sources: frozenset[str] | None = None,
    origin: str = "",
    headings: Mapping[str, str] | None = None,
    write: bool = True,
) -> WriteReport:
    """Upsert card ``records`` by (game, set, name) inside the caller's transaction.

    A record's keys are field names; a missing key leaves an existing value as it is.
    ``replace_sources``, when given, limits updates to cards whose current source is one
    of them (so reloading a shipped catalog never overwrites values a user imported).
    A name may also match an existing card's alias (the rulebook's "Cock" finds Cook). A
    record whose id is an existing card's but whose name is not that card's (nor one of its
    aliases) is refused, naming both: different names are different cards; so is a new card
    whose short id another card has (every such pair is named at once). A record's optional
    ``_where`` (``row 7``) is used in messages, and its optional ``_id`` is its card id, already
    made (``card_id``); ``headings``: each field's column as the file names it, for messages.
    ``write=False``: the report and the refusals alone, nothing written (a dry run, read in a snapshot).

    Rows are written with bulk statements, not one ORM object per card: a 200,000-card import
    spends its time reading the file, not building objects.
    """
    table = Card.__table__  # type: ignore[attr-defined]  # SQLModel's stubs omit __table__
    report = WriteReport()
    in_set = (table.c.game == game) & (table.c.set_code == set_code)
    existing: dict[str, dict[str, Any]] = {
        row["id"]: dict(row) for row in session.execute(select(table).where(in_set)).mappings()
    }
    aliases_of: dict[str, set[str]] = {cid: set() for cid in existing}
    alias_rows = select(CardAlias.card_id, CardAlias.alias).join(table, table.c.id == CardAlias.card_id).where(in_set)
    for alias_card, alias in session.execute(alias_rows):
        aliases_of[alias_card].add(alias)
    by_alias = {fold(a): cid for cid, names in aliases_of.items() for a in names}
    by_name = {fold(c["name"]): cid for cid, c in existing.items() if cid != card_id(game, set_code, c["name"])}
    taken = {sid: other for sid, other in session.execute(select(table.c.short_id, table.c.id))}  # short id -> its card
    tags_of: dict[str, list[str]] | None = None  # the stored cards' tags, read when a record has tags
    tag_changes: dict[str, list[str]] = {}
    new_ids: list[str] = []
    changed: set[str] = set()
    new_aliases_rows: list[dict[str, str]] = []
    problems: list[str] = []
    blank = dict.fromkeys(table.c.keys())
    for record in records:
        cid = record.get("_id") or card_id(game, set_code, record["name"])
        folded = fold(record["name"])
        if cid not in existing and folded in by_name:  # a card renamed in cardbase keeps its id
            cid = by_name[folded]
        elif cid not in existing and folded in by_alias:
            cid = by_alias[folded]
        card = existing.get(cid)
        if card is not None and fold(card["name"]) != folded and by_alias.get(folded) != cid:
            # Different names, one id ("Crème-Golem X" and "Creme Golem X!"): two cards, never merged.
            where = record.get("_where") or f"card {quoted(record['name'])}"
            problems.append(
                f"{where}: {quoted(record['name'])} has the same card id ({cid}) as {quoted(card['name'])}, "
                "already in the database; rename one of them"
            )
            continue
        if card is None:
            sid = short_id(cid)
            if sid in taken:
                where = record.get("_where") or f"card {quoted(record['name'])}"
                problems.append(
                    f"{where}: {quoted(record['name'])} ({cid}) would have the short id {sid} of {taken[sid]}; "
                    "rename one of them"
                )
                continue
            taken[sid] = cid
            card = blank.copy()
            card |= {"id": cid, "short_id": sid, "game": game, "set_code": set_code, "name": record["name"]}
            card |= {"type": record["type"], "source": source, "search_names": "", "unknown": ""}
            existing[cid] = card
            aliases_of[cid] = set()
            new_ids.append(cid)
            before = None
        elif replace_sources is not None and card["source"] not in replace_sources:
            report.unchanged.append(card["name"])
            continue
        else:
            before = dict(card)
            card["type"] = record.get("type") or card["type"]
        new_aliases = set(record["aliases"]) - aliases_of[cid] if record.get("aliases") else set()
        if record.get("aliases") and (left_out := sorted(aliases_of[cid] - set(record["aliases"]))):
            report.kept_aliases.append((f"{record.get('_where') or 'card'}: {quoted(card['name'])}", cid, left_out))
        aliases_of[cid] |= new_aliases
        had_abilities = card["abilities"] is not None
        apply_values(card, record, aliases_of[cid], origin or set_code)
        if had_abilities and card["abilities"] is None and "abilities" not in record:
            report.cleared.append(f"{record.get('_where') or 'card'}: {quoted(card['name'])}")
        if wrong := inapplicable_values(game, card["type"], card):
            where = record.get("_where") or f"card {quoted(record['name'])}"
            problems += (
                prefixed(
                    f"{where}, ",
                    inapplicable_problem(game, card["type"], f, stored=None if f in record else card[f], card=cid),
                )
                for f in wrong
            )
            continue
        if derived := derived_problems(card, record, headings, before):
            where = record.get("_where") or f"card {quoted(record['name'])}"
            problems += (f"{where}, {problem}" for problem in derived)
            continue
        if "tags" in record:
            if tags_of is None:
                tags_of = _set_tags(session, in_set)
            retagged = sorted(record["tags"]) != tags_of.get(cid, [])
            tag_changes[cid] = list(record["tags"])
        else:
            retagged = False
        if before is None:
            report.inserted.append(card["name"])
        elif card != before or new_aliases or retagged:
            card["source"] = source
            report.updated.append(card["name"])
            changed.add(cid)
        else:
            report.unchanged.append(card["name"])
        if new_aliases:
            new_aliases_rows += ({"card_id": cid, "alias": alias} for alias in sorted(new_aliases))
    if problems:
        raise InvalidData(origin or set_code, problems)
    if not write:
        return report
    session.flush()  # the set row the cards refer to
    inserted = set(new_ids)
    updates = [
        {"key": cid} | {c: v for c, v in existing[cid].items() if c != "id"} for cid in sorted(changed - inserted)
    ]
    with _roomy_cache(session):
        # in id order (the primary key's pages are filled in turn), in batches: a Ctrl-C waits for one
        # batch, not for a C loop over every row of the file
        _insert_rows(session, table, [existing[cid] for cid in sorted(new_ids)])
        _update_rows(session, table, updates)
        for batch in _batches(new_aliases_rows):
            session.execute(insert(CardAlias.__table__), batch)  # type: ignore[attr-defined]
    for cid, tags in tag_changes.items():
        replace_card_tags(session, cid, tags)
    session.flush()
    return report


ANALYZE_AFTER = 1_000
"""Cards written by one import from which PostgreSQL's planner statistics are refreshed at once."""


def refresh_statistics(database: Database, written: int) -> None:
    """PostgreSQL: ``ANALYZE card`` after an import that wrote ``ANALYZE_AFTER`` cards or more. Until
    autovacuum gets to it the planner reads the table with the statistics it had before (of an empty
    table, for a new catalog): at 100,000 cards the bare word, number and regex searches of
    ``benchmarks/bench_catalog.py`` took 27 to 90 times as long. SQLite plans without statistics
    (``search`` chooses for it).

    Then the GIN indexes' pending lists are merged into them (``gin_clean_pending_list``): a GIN
    index takes new entries into an unsorted list that every search reads through until
    (auto)vacuum merges it, so right after an import of 10,000 cards the regex search took 19.5 ms
    instead of 0.72 (and 246 ms once at 100,000). A server that refuses it (a user who does not
    own the indexes) leaves it to autovacuum: only speed depends on it. So does an ``ANALYZE`` that
    waits past the lock wait for another program's hold on the table (its own ``ANALYZE``, an index
    being made): the import, already written, was said to have failed ('the database is locked')."""
    if written < ANALYZE_AFTER or database.engine.dialect.name != "postgresql":
        return
    from sqlalchemy import text
    from sqlalchemy.exc import DBAPIError

    for statement in ("ANALYZE card", _CLEAN_GIN):
        try:
            with database.engine.begin() as connection:
                connection.execute(text(statement))
        except DBAPIError:
            pass  # the import is written; the statistics wait for autovacuum


_CLEAN_GIN = (
    "SELECT gin_clean_pending_list(i.indexrelid) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
    "JOIN pg_am a ON a.oid = c.relam WHERE i.indrelid = 'card'::regclass AND a.amname = 'gin'"
)
"""Merge the pending list of each GIN index of the card table (the pg_trgm indexes)."""


WRITE_BATCH = 2_000
"""Rows per statement of a catalog write (each statement's rows run in one C loop, deaf to Ctrl-C)."""


def cards_held(session: Session, ids: Sequence[str]) -> set[str]:
    """The ids of ``ids`` the catalog has, read in ``session`` (a write's: what it is about to refer to,
    as it is now), ``WRITE_BATCH`` to a statement."""
    held: set[str] = set()
    for start in range(0, len(ids), WRITE_BATCH):
        held.update(session.scalars(select(Card.id).where(col(Card.id).in_(ids[start : start + WRITE_BATCH]))))
    return held


def _batches(rows: Sequence[Mapping[str, Any]]) -> Iterator[Sequence[Mapping[str, Any]]]:
    for start in range(0, len(rows), WRITE_BATCH):
        yield rows[start : start + WRITE_BATCH]


def _insert_rows(session: Session, table: Any, rows: Sequence[Mapping[str, Any]]) -> None:
    """Insert ``rows`` (every column of ``table`` by name) in batches. On SQLite each batch is one
    statement of many ``VALUES`` rows: a statement is where FTS5 writes out what it has gathered
    (``search_index``), so one statement per row (``executemany``) would write a segment per card and
    spend most of an import merging them (twice the CPU time of the whole SQLite side at 100,000 cards)."""
    connection = session.connection()
    if connection.dialect.name != "sqlite":
        for batch in _batches(rows):
            session.execute(insert(table), batch)
        return
    _insert_values(connection, table.name, list(table.c.keys()), rows)


def _insert_values(connection: Any, table: str, columns: list[str], rows: Sequence[Mapping[str, Any]]) -> None:
    """SQLite: insert ``rows`` into ``table``, as many rows per statement as its variables allow (at most
    ``WRITE_BATCH``): a Ctrl-C waits for one statement."""
    import sqlite3

    driver = connection.connection.driver_connection
    assert driver is not None  # a connection in use has its driver's
    limit = driver.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)
    per_statement = max(1, min(WRITE_BATCH, limit // len(columns)))
    one_row = "(" + ", ".join("?" * len(columns)) + ")"
    head = f"INSERT INTO {table} ({', '.join(columns)}) VALUES "
    for start in range(0, len(rows), per_statement):
        batch = rows[start : start + per_statement]
        values = tuple(row[c] for row in batch for c in columns)
        connection.exec_driver_sql(head + ", ".join([one_row] * len(batch)), values)


def _update_rows(session: Session, table: Any, rows: Sequence[Mapping[str, Any]]) -> None:
    """Update cards from ``rows`` (``key``: the card's id; SET takes every other column the rows give).
    On SQLite, one statement per batch for FTS5's sake (``_insert_rows``): the batch goes to a
    temporary table, and one ``UPDATE … FROM`` (SQLite 3.33) sets the cards from it."""
    import sqlite3

    connection = session.connection()
    if connection.dialect.name != "sqlite" or sqlite3.sqlite_version_info < (3, 33) or not rows:
        for batch in _batches(rows):
            session.execute(update(table).where(table.c.id == bindparam("key")), batch)
        return
    columns = [column.key for column in table.c if column.key != "id"]
    # made and dropped in the caller's transaction: a failed write's rollback takes it away too
    connection.exec_driver_sql(f"CREATE TEMP TABLE card_update (key PRIMARY KEY, {', '.join(columns)})")
    sets = ", ".join(f"{c} = u.{c}" for c in columns)
    for batch in _batches(rows):
        _insert_values(connection, "temp.card_update", ["key", *columns], batch)
        connection.exec_driver_sql(f"UPDATE card SET {sets} FROM temp.card_update AS u WHERE card.id = u.key")
        connection.exec_driver_sql("DELETE FROM temp.card_update")
    connection.exec_driver_sql("DROP TABLE temp.card_update")


def _set_tags(session: Session, in_set: Any) -> dict[str, list[str]]:
    """The tags of the stored cards of one set (``in_set``: the card table's condition), each sorted."""
    table = Card.__table__  # type: ignore[attr-defined]
    query = select(CardTagRow.card_id, CardTagRow.tag).join(table, table.c.id == CardTagRow.card_id).where(in_set)
    out: dict[str, list[str]] = {}
    for cid, tag in session.execute(query.order_by(col(CardTagRow.card_id), col(CardTagRow.tag))):
        out.setdefault(cid, []).append(tag)
    return out


def apply_values(card: dict[str, Any], record: Mapping[str, Any], aliases: Iterable[str], origin: str) -> None:
    """Set ``card``'s values (its columns by name) from a checked ``record`` (only the keys it has) and
    derive the rest: its abilities (dropped when the text changes without them), a Meio card's
    min_players (from its rank: ``derived_problems`` refuses one given against it), unknown fields and
    search names. The one step every card write takes: shipped catalogs, imports and edits."""
    old_text = card["text"]
    for column in _VALUE_COLUMNS:
        if column in record:
            card[column] = record[column]
    if "abilities" in record:
        card["abilities"] = _abilities_json(record["abilities"], card["type"], card["name"], origin)
    elif card["text"] != old_text:
        card["abilities"] = None  # the text changed: its encoded abilities no longer say the same
    if card["game"] == "meio":
        card["min_players"] = min_players_of(card["rank"])
    card["unknown"] = ",".join(unknown_fields(card["game"], card["type"], card))
    card["search_names"] = _search_names(card["name"], sorted(aliases), card["land_name"])


DERIVED_FIELDS: dict[str, frozenset[str]] = {"meio": frozenset({"min_players"})}
"""Per game, the fields ``apply_values`` derives from a card's others (a Meio card's min_players follows
its rank): never put back on their own (a revert puts back what they follow)."""


def derived_problems(
    card: Mapping[str, Any],
    record: Mapping[str, Any],
    headings: Mapping[str, str] | None = None,
    stored: Mapping[str, Any] | None = None,
) -> list[str]:
    """The values ``record`` gives that the rules derive from the card's others (``apply_values``
    derives them) and that disagree with them: a Meio card's ``min_players``, which follows its rank.
    Each as ``column 'min_players': why``, the column named as ``headings`` gives it. A value the card
    held (``stored``, before the write) is no value given: an export or template of a database from
    before the rule repeats it, and imported as it is the card takes the derived value."""
    given = record.get("min_players")
    if card["game"] != "meio" or given is None or (stored is not None and stored.get("min_players") == given):
        return []
    problem = min_players_problem(card["rank"], given)
    column = (headings or {}).get("min_players", "min_players")
    return [] if problem is None else [f"column {quoted(column)}: {problem}"]


BULK_CACHE_KIB = 256 * 1024
"""SQLite's page cache for a bulk write, in KiB: with the default 2 MiB a 100,000-card import
spills the card table's index pages to the WAL and reads them back, at twice the CPU time."""


@contextmanager
def _roomy_cache(session: Session) -> Iterator[None]:
    """A larger page cache for this connection while a bulk write runs (SQLite; PostgreSQL's
    buffers are the server's), then the connection's own again."""
    connection = session.connection()
    if connection.dialect.name != "sqlite":
        yield
        return
    before = int(connection.exec_driver_sql("PRAGMA cache_size").scalar() or 0)
    connection.exec_driver_sql(f"PRAGMA cache_size = {-BULK_CACHE_KIB}")
    try:
        yield
    except BaseException:
        # The write failed or was cut (Ctrl-C): its transaction may be unusable until rolled back,
        # which the session's owner does; the size goes back where the connection still allows it.
        with suppress(SQLAlchemyError):
            connection.exec_driver_sql(f"PRAGMA cache_size = {before}")
        raise
    connection.exec_driver_sql(f"PRAGMA cache_size = {before}")


def _abilities_json(value: Any, type_: str, name: str, origin: str) -> str | None:
    """A record's abilities (a list, or JSON text) checked and stored as canonical JSON text."""
    if value is None:
        return None
    import json

    from cardbase.games.mea.abilities import AbilityError, abilities_to_json, parse_abilities

    try:
        parsed = parse_abilities(value, type_, where="abilities")
    except AbilityError as error:
        raise InvalidData(origin, [f"card {quoted(name)}: {error}"]) from None
    return json.dumps(abilities_to_json(parsed), ensure_ascii=False, separators=(",", ":"))


def ensure_set(session: Session, game: str, code: str, name: str | None, source: str, note: str | None) -> None:
    """Make the set row if it is new."""
    if session.get(CardSet, (game, code)) is None:
        session.add(CardSet(game=game, code=code, name=name, source=source, note=note))
        session.flush()


def load_shipped(database: Database, pending: list[str] | None = None) -> list[str]:
    """Load the shipped catalog files whose contents changed since the last load; idempotent.

    ``pending``: what the caller has just read with ``shipped_pending`` (empty: nothing to load, no write
    begun). Which files to load is decided again inside the write, where another process's load of the
    same files (two commands opening a new database together) is seen: each file is loaded once.
    Returns the names of the files loaded. Cards whose values a user imported are kept.
    """
    from cardbase.catalog.loader import read_shipped
    from cardbase.db.engine import pending_files, shipped_pending

    if pending is None:
        pending = shipped_pending(database)
    if not pending:
        return []
    with database.transaction() as session:
        pending = pending_files(session)
        if pending:
            ensure_games(session)
        for filename in pending:
            data = read_shipped(filename)
            ensure_set(session, data.game, data.set, data.set_name, data.source, data.note)
            write_cards(
                session,
                data.game,
                data.set,
                data.source,
                data.cards,
                replace_sources=frozenset({SOURCE_RULEBOOK, SOURCE_DEMO}),
                origin=filename,
            )
            key = f"catalog:{filename}"
            meta = session.get(Meta, key) or Meta(key=key, value="")
            meta.value = data.digest
            session.add(meta)
    return pending


def delete_set(session: Session, game: str, set_code: str) -> int:
    """Delete every card of a set (used by tests and re-imports); returns how many."""
    ids = list(session.scalars(select(Card.id).where(Card.game == game, Card.set_code == set_code)))
    session.execute(delete(CardAlias).where(col(CardAlias.card_id).in_(ids)))
    session.execute(delete(Card).where(col(Card.id).in_(ids)))
    return len(ids)


__all__ = [
    "DEFAULT_SET",
    "WriteReport",
    "ensure_games",
    "ensure_set",
    "load_shipped",
    "refresh_statistics",
    "write_cards",
]
