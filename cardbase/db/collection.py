"""The cards you own: a count per card (``cardbase collection``), kept in the database.

A card the collection does not list is owned 0 times. Every change is one transaction. Files are
read as catalog files are (``cardbase.db.io``: CSV, XLSX or JSON, every bad row named with its row
and column, nothing written unless the whole file is good) with the columns ``name``, ``set`` and
``count`` (and ``game`` when ``--game`` is not given).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from sqlalchemy import delete
from sqlalchemy import select as sa_select
from sqlmodel import col, select

from cardbase.catalog.fields import GAME_FIELDS, Field
from cardbase.db.models import Card, CardAlias, OwnedRow
from cardbase.errors import InvalidData, UnreadableInput, UsageError, quoted
from cardbase.names import fold

if TYPE_CHECKING:
    from sqlmodel import Session

    from cardbase.db.engine import Database

MAX_OWNED = 99_999
"""The most copies of one card a collection holds: more than any printing run a player owns."""

Change = Literal["add", "remove", "set"]

COUNT = Field("count", int, ("qty", "quantity", "owned", "copies", "number", "have"))
GAME = Field("game", str, ())
COLUMNS = (GAME_FIELDS["mea"][0], GAME, next(f for f in GAME_FIELDS["mea"] if f.name == "set"), COUNT)
"""The columns of a collection file: name, game, set, count (with the catalog's synonyms)."""


def _check_count(count: object, low: int) -> int:
    if isinstance(count, bool) or not isinstance(count, int) or not low <= count <= MAX_OWNED:
        raise UsageError(f"a count must be a whole number from {low} to {MAX_OWNED:,}, not {quoted(count)}")
    return count


def owned_counts(session: Session, card_ids: Iterable[str] | None = None) -> dict[str, int]:
    """Copies owned per card id (only cards owned at least once), for ``card_ids`` or every card."""
    query = select(OwnedRow.card_id, OwnedRow.count)
    if card_ids is not None:
        query = query.where(col(OwnedRow.card_id).in_(list(card_ids)))
    return {cid: n for cid, n in session.execute(query).all()}


def _write(session: Session, card_id: str, count: int, *, add: bool = False) -> int:
    """Own ``count`` copies of ``card_id`` (``add``: ``count`` more), in the caller's transaction, as one
    statement (an upsert), so concurrent writers never collide on a new row; the copies owned now."""
    from sqlalchemy.dialects import postgresql, sqlite

    insert = postgresql.insert if session.get_bind().dialect.name == "postgresql" else sqlite.insert
    stmt = insert(OwnedRow).values(card_id=card_id, count=count)
    stmt = stmt.on_conflict_do_update(
        index_elements=["card_id"], set_={"count": col(OwnedRow.count) + count if add else count}
    )
    session.execute(stmt)
    now = int(session.scalar(select(OwnedRow.count).where(OwnedRow.card_id == card_id)) or 0)
    if now <= 0:
        session.execute(delete(OwnedRow).where(col(OwnedRow.card_id) == card_id))
        return 0
    return now


def change_owned(database: Database, card: Card, count: int, how: Change = "add") -> int:
    """Own ``count`` more (``add``), fewer (``remove``, not below 0) or exactly (``set``) copies of
    ``card``, in one transaction; returns the copies owned now. Concurrent adds all count."""
    _check_count(count, 0 if how == "set" else 1)
    with database.transaction() as session:
        if how == "remove":
            have = session.scalar(select(OwnedRow.count).where(OwnedRow.card_id == card.id).with_for_update())
            return _write(session, card.id, max((have or 0) - count, 0))
        now = _write(session, card.id, count, add=how == "add")
        if now > MAX_OWNED:
            raise UsageError(f"{card.name}: {now:,} copies is over the bound of {MAX_OWNED:,} for one card")
        return now


@dataclass(frozen=True, slots=True)
class OwnedCard:
    """A card of the collection with its count."""

    id: str
    game: str
    set: str
    name: str
    source: str
    count: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game,
            "set": self.set,
            "name": self.name,
            "source": self.source,
            "count": self.count,
        }


def collection_cards(database: Database, game: str | None = None) -> list[OwnedCard]:
    """Every owned card (of ``game``), by game, set and name."""
    with database.session() as session:
        query = (
            sa_select(
                col(Card.id), col(Card.game), col(Card.set_code), col(Card.name), col(Card.source), col(OwnedRow.count)
            )
            .join(OwnedRow, col(OwnedRow.card_id) == Card.id)
            .order_by(col(Card.game), col(Card.set_code), col(Card.name))
        )
        if game:
            query = query.where(col(Card.game) == game)
        return [OwnedCard(*row) for row in session.execute(query).all()]


def collection_totals(cards: Iterable[OwnedCard]) -> list[dict[str, Any]]:
    """Per game and set: the distinct cards owned and the copies, in game and set order."""
    totals: dict[tuple[str, str], dict[str, Any]] = {}
    for c in cards:
        row = totals.setdefault((c.game, c.set), {"game": c.game, "set": c.set, "cards": 0, "copies": 0})
        row["cards"] += 1
        row["copies"] += c.count
    return list(totals.values())


# --- files ------------------------------------------------------------------------------------


@dataclass
class CollectionImport:
    """What an import did (or, for a dry run, would do)."""

    rows: int = 0
    cards: int = 0
    copies: int = 0
    dry_run: bool = False
    replaced: bool = False
    problems: list[str] = field(default_factory=list)

    def as_dict(self, file: str) -> dict[str, Any]:
        return {
            "file": file,
            "rows": self.rows,
            "cards": self.cards,
            "copies": self.copies,
            "replace": self.replaced,
            "dry_run": self.dry_run,
        }


class _Names:
    """Cards of one game by folded name or alias: what a collection row's name may mean."""

    def __init__(self, session: Session, game: str):
        self.by_name: dict[str, list[tuple[str, str, str]]] = {}
        cards = session.execute(select(Card.id, Card.set_code, Card.name).where(Card.game == game)).all()
        for cid, code, name in cards:
            self.by_name.setdefault(fold(name), []).append((cid, code, name))
        names = {cid: (code, name) for cid, code, name in cards}
        for cid, alias in session.execute(
            select(CardAlias.card_id, CardAlias.alias)
            .join(Card, col(Card.id) == CardAlias.card_id)
            .where(Card.game == game)
        ).all():
            entry = (cid, *names[cid])
            if entry not in self.by_name.setdefault(fold(alias), []):
                self.by_name[fold(alias)].append(entry)

    def find(self, name: str, set_code: str | None) -> tuple[str | None, str | None]:
        """The card id a row names, or None and why not (with the closest names)."""
        from cardbase.fuzzy import closest

        found = self.by_name.get(fold(name), [])
        if set_code:
            found = [f for f in found if f[1] == set_code]
        if len(found) == 1:
            return found[0][0], None
        if found:
            sets = ", ".join(sorted({f[1] for f in found}))
            return None, f"{quoted(name)} is in several sets ({sets}); give its set"
        near = closest(name, {k: v[0][2] for k, v in self.by_name.items()}, n=3, cutoff=0.6)
        where = f" in set {quoted(set_code)}" if set_code else ""
        return None, f"no card named {quoted(name)}{where}" + (
            f"; did you mean {' or '.join(map(repr, near))}?" if near else ""
        )


def _rows(path: Path, fmt: str | None) -> tuple[list[str], Iterator[Any]]:
    from cardbase.db.io import detect_format, read_csv, read_json, read_xlsx

    kind = detect_format(path, fmt)
    if kind == "csv":
        return read_csv(path)
    if kind == "xlsx":
        return read_xlsx(path)
    header, rows, _top = read_json(path)
    return header, rows


def read_collection_file(database: Database, path: Path, game: str | None, fmt: str | None = None) -> dict[str, int]:
    """The counts a collection file gives per card id, or ``InvalidData`` naming every bad row."""
    from cardbase.db.io import _BAD_ROW, BOUNDS, NOT_OBJECT, NOTE_ROW, _convert, _is_note
    from cardbase.db.queries import GAMES

    header, rows = _rows(path, fmt)
    columns: dict[str, Field] = {}
    problems: list[str] = []
    for heading in header:
        key = fold(str(heading)).replace("_", " ").replace("-", " ")
        f = next((c for c in COLUMNS if key in {c.name, *(s.replace("_", " ") for s in c.synonyms)}), None)
        if f is None:
            if str(heading).strip():
                problems.append(f"row 1, column {quoted(heading)}: not a collection column (name, set, count, game)")
        elif f in columns.values():
            problems.append(f"row 1, column {quoted(heading)}: a second column for {quoted(f.name)}")
        else:
            columns[heading] = f
    given = {f.name for f in columns.values()}
    for needed in ("name", "count"):
        if needed not in given:
            problems.append(f"row 1: no {quoted(needed)} column")
    if game is None and "game" not in given:
        problems.append("row 1: no 'game' column; add one or pass --game")
    if problems:
        raise InvalidData(str(path), problems)
    counts: dict[str, int] = {}
    where_of: dict[str, str] = {}
    indexes: dict[str, _Names] = {}
    with database.session() as session:
        for number, row in enumerate(rows, start=1):
            if number > BOUNDS.rows:
                raise UnreadableInput(f"{path}: more than {BOUNDS.rows:,} rows, over the import bound (rows)")
            cells = row.cells
            if _BAD_ROW in cells or NOT_OBJECT in cells:
                why = cells.get(_BAD_ROW, "a row must be an object of column: value")
                problems.append(f"{row.where}: {why}")
                continue
            values: dict[str, Any] = {}
            bad = False
            for heading, value in cells.items():
                f = columns.get(heading)
                if f is None:
                    continue
                if isinstance(value, str) and len(value) > BOUNDS.cell_chars:
                    problems.append(
                        f"{row.where}, column {quoted(heading)}: over the bound of {BOUNDS.cell_chars:,} characters"
                    )
                    bad = True
                    continue
                try:
                    values[f.name] = (
                        _convert(f, value)
                        if f.kind is int
                        else (str(value).strip() if value is not None else None) or None
                    )
                except ValueError as error:
                    problems.append(f"{row.where}, column {quoted(heading)}: {error}")
                    bad = True
            name = values.get("name")
            if row.where == NOTE_ROW and _is_note(name):
                continue
            if bad:
                continue
            if not name:
                problems.append(f"{row.where}: the row has no name")
                continue
            row_game = fold(values.get("game") or game or "")
            if row_game not in GAMES:
                problems.append(
                    f"{row.where}, column 'game': {quoted(values.get('game'))} is not a game ({', '.join(GAMES)})"
                )
                continue
            count = values.get("count")
            if count is None:
                problems.append(f"{row.where}, column 'count': the row has no count")
                continue
            if count > MAX_OWNED:
                problems.append(f"{row.where}, column 'count': {count:,} is over the bound of {MAX_OWNED:,} copies")
                continue
            index = indexes.get(row_game) or indexes.setdefault(row_game, _Names(session, row_game))
            set_code = values.get("set")
            card_id, why = index.find(name, set_code.lower() if set_code else None)
            if card_id is None:
                problems.append(f"{row.where}, column 'name': {why}")
                continue
            if card_id in counts:
                problems.append(
                    f"{row.where}, column 'name': {quoted(name)} is the card of {where_of[card_id]}; keep one row"
                )
                continue
            counts[card_id], where_of[card_id] = count, row.where
    if problems:
        raise InvalidData(str(path), problems)
    return counts


def import_collection(
    database: Database,
    path: Path,
    game: str | None = None,
    *,
    fmt: str | None = None,
    replace: bool = False,
    dry_run: bool = False,
) -> CollectionImport:
    """Set the count of every card a file names (``replace``: and own nothing else of those games), in
    one transaction; a file with any bad row changes nothing (``InvalidData`` lists them all)."""
    counts = read_collection_file(database, path, game, fmt)
    result = CollectionImport(len(counts), sum(1 for n in counts.values() if n), sum(counts.values()), dry_run, replace)
    if dry_run:
        return result
    with database.transaction() as session:
        if replace:
            games = {cid.split("/", 1)[0] for cid in counts} | ({game} if game else set())
            owned = select(Card.id).where(col(Card.game).in_(sorted(games)))
            session.execute(delete(OwnedRow).where(col(OwnedRow.card_id).in_(owned)))
            session.flush()
        for card_id, count in counts.items():
            _write(session, card_id, count)
    return result


def export_collection(database: Database, out: Path, fmt: str, game: str | None = None) -> int:
    """Write the collection (of ``game``) as CSV, XLSX or JSON that ``import_collection`` reads back."""
    import csv
    import json

    from cardbase.db.io import neutralise
    from cardbase.textfiles import output_file, write_text_output

    cards = collection_cards(database, game)
    columns = ["game", "name", "set", "count"]
    rows = [[c.game, c.name, c.set, c.count] for c in cards]
    if fmt == "json":
        payload = [dict(zip(columns, row, strict=True)) for row in rows]
        write_text_output(out, json.dumps(payload, ensure_ascii=False, indent=2) + "\n", "collection file")
    elif fmt == "csv":
        with (
            output_file(out, "collection file") as temporary,
            temporary.open("w", encoding="utf-8", newline="") as handle,
        ):
            writer = csv.writer(handle)
            writer.writerow(columns)
            writer.writerows([[neutralise(v) for v in row] for row in rows])
    elif fmt == "xlsx":
        from openpyxl import Workbook

        with output_file(out, "collection file") as temporary:
            workbook = Workbook(write_only=True)
            sheet = workbook.create_sheet("collection")
            sheet.append(columns)
            for row in rows:
                sheet.append([neutralise(v) for v in row])
            workbook.save(temporary)
    else:
        raise UsageError(f"--format {quoted(fmt)}: a collection is written as csv, json or xlsx")
    return len(rows)
