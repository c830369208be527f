"""The cards you own: a count per card (``cardbase collection``), kept in the database.

A card the collection does not list is owned 0 times. Every change is one transaction. Files are
read as catalog files are (``cardbase.db.io``: CSV, XLSX or JSON, every bad row named with its row
and column, nothing written unless the whole file is good) with the columns ``name``, ``set`` and
``count`` (and ``game`` when ``--game`` is not given), or as a plain-text list (``3 Crumb Goblin`` a
line, read by the deck-list reader ``cardbase.decks.text.parse_text`` with the collection's count
bounds; lines naming one card add up). An import sets the counts it gives (``set``), adds them to
what is owned (``add``) or also owns nothing else of its games (``replace``); ``plan`` says what
changes, card by card, before anything is written.
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
from cardbase.errors import InvalidData, Refused, UnreadableInput, UsageError, plural, quoted
from cardbase.names import fold

if TYPE_CHECKING:
    from sqlmodel import Session

    from cardbase.db.engine import Database

MAX_OWNED = 99_999
"""The most copies of one card a collection holds: more than any printing run a player owns."""

Change = Literal["add", "remove", "set"]
Mode = Literal["set", "add", "replace"]
MODES: tuple[Mode, ...] = ("set", "add", "replace")
"""How an import treats what is owned: set the counts it gives, add them, or set them and own nothing
else of its games."""
COLLECTION_FILE = "collection file"
"""What a refusal calls a collection's CSV, XLSX or JSON file."""
TEXT_FORMATS = ("txt", "text")
"""The names (``--format`` or a file's suffix) of the plain-text list."""
PASTE_CHARS = 200_000
"""A list pasted in the browser or sent to the API: at most this many characters (about 10,000 lines
of ``3 Crumb Goblin (demo)``; a larger collection goes as a file)."""

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
    from cardbase.errors import UnknownCard

    _check_count(count, 0 if how == "set" else 1)
    with database.transaction() as session:
        if session.get(Card, card.id) is None:  # read before the write, deleted since
            raise UnknownCard(card.name, card.game)
        if how == "remove":
            have = session.scalar(select(OwnedRow.count).where(OwnedRow.card_id == card.id).with_for_update())
            return _write(session, card.id, max((have or 0) - count, 0))
        now = _write(session, card.id, count, add=how == "add")
        if now > MAX_OWNED:
            raise Refused(
                f"{card.name}: {now:,} {plural(now, 'copy', 'copies')} is over the bound of {MAX_OWNED:,} for one card"
            )
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


class Counts(dict[str, int]):
    """Copies per card id, as a reader gives them, with where each card was named (``row 3``, ``line 3``):
    what a refusal of the card names when it is gone by the time the counts are written."""

    def __init__(self) -> None:
        super().__init__()
        self.where: dict[str, str] = {}

    def named(self, card_id: str, count: int, where: str) -> None:
        """``count`` copies of ``card_id``, named at ``where`` (the first place that named it is kept)."""
        self[card_id] = count
        self.where.setdefault(card_id, where)


@dataclass(frozen=True, slots=True)
class CountChange:
    """One card an import changes: copies owned before it and after it."""

    id: str
    name: str
    set: str
    before: int
    after: int

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "set": self.set, "before": self.before, "after": self.after}


@dataclass
class CollectionImport:
    """What an import did (or, for a dry run, would do): the rows (cards named), the cards and copies
    they give, and every card whose count changes."""

    rows: int = 0
    cards: int = 0
    copies: int = 0
    dry_run: bool = False
    replaced: bool = False
    problems: list[str] = field(default_factory=list)
    mode: Mode = "set"
    changes: list[CountChange] = field(default_factory=list)

    def as_dict(self, file: str) -> dict[str, Any]:
        return {
            "file": file,
            "rows": self.rows,
            "cards": self.cards,
            "copies": self.copies,
            "replace": self.replaced,
            "mode": self.mode,
            "dry_run": self.dry_run,
            "changes": [c.as_dict() for c in self.changes],
        }


class _Names:
    """Cards of one game by folded name or alias: what a collection row's name may mean."""

    def __init__(self, session: Session, game: str):
        self.session = session
        self.game = game
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
        """The card id a row names, or None and why not (with the closest names, or the game whose
        card it is)."""
        from cardbase.db.queries import games_naming
        from cardbase.errors import of_other_games
        from cardbase.fuzzy import closest, near_text

        found = self.by_name.get(fold(name), [])
        if set_code:
            found = [f for f in found if f[1] == set_code]
        if len(found) == 1:
            return found[0][0], None
        if found:
            sets = ", ".join(sorted({f[1] for f in found}))
            return None, f"{quoted(name)} is in several sets ({sets}); give its set"
        where = f" in set {quoted(set_code)}" if set_code else ""
        if not set_code and (elsewhere := games_naming(self.session, name, self.game)):
            return None, of_other_games(name, elsewhere, self.game)
        near = closest(name, {k: v[0][2] for k, v in self.by_name.items()}, n=3, cutoff=0.6)
        return None, f"no card named {quoted(name)}{where}" + (
            f"; did you mean {near_text(near, joiner=' or ')}?" if near else ""
        )


def _rows(path: Path, fmt: str | None, raw: bytes | None = None) -> tuple[list[str], Iterator[Any], bool]:
    """The file's headings and rows, and whether its values are JSON's (typed: a text column's value
    must be a JSON string; a sheet's cells are read as text)."""
    from cardbase.db.io import detect_format, read_csv, read_json, read_xlsx

    kind = detect_format(path, fmt, ("csv", "json", "xlsx", "text"))
    if kind == "csv":
        return (*read_csv(path, raw, COLLECTION_FILE), False)
    if kind == "xlsx":
        return (*read_xlsx(path, raw, COLLECTION_FILE), False)
    header, rows, _top = read_json(path, raw, COLLECTION_FILE, ("cards",))
    return header, rows, True


def is_text_list(path: Path, fmt: str | None) -> bool:
    """Whether ``path`` (or ``--format fmt``) is a plain-text list rather than CSV, XLSX or JSON."""
    return (fmt or path.suffix.lstrip(".")).lower() in TEXT_FORMATS


def read_collection_text(database: Database, text: str, game: str | None, source: str = "<list>") -> Counts:
    """The counts a plain-text list gives per card id (lines naming one card add up), or
    ``InvalidData`` naming every bad line by its number. A ``game:`` line (a deck list's header) gives
    the game when ``game`` is None; a deck list's other headers, sections and comments are skipped."""
    from cardbase.db.io import BOUNDS
    from cardbase.db.queries import GAMES
    from cardbase.decks.model import Problem, game_title
    from cardbase.decks.text import parse_text

    parsed = parse_text(text, source, low=0, high=MAX_OWNED)
    if len(parsed.lines) > BOUNDS.rows:
        raise UnreadableInput(f"{source}: more than {BOUNDS.rows:,} card lines, over the import bound (rows)")
    problems = [  # a deck's headers a deck does not keep are skipped here as its others are
        Problem(p.code, p.message + (f" ({p.hint})" if p.hint else ""), p.line)
        for p in parsed.problems
        if p.code != "not-kept"
    ]
    the_game = game or parsed.game
    if game and parsed.game and parsed.game != game:
        said = f"the list is for {game_title(parsed.game)} (its game: line), not {game_title(game)}"
        problems.append(
            Problem(
                "wrong-game",
                f"the list is for {quoted(parsed.game)}, not {quoted(game)}",
                parsed.header_lines["game"],
                game=game,
                said=said,
            )
        )
    counts = Counts()
    if not the_game:
        raise UsageError(f"{source}: which game is the list for? give --game (or a 'game: mea' line)").saying(
            f"{source}: which game is the list for? choose its game (or write a 'game: mea' line first)"
        )
    if the_game not in GAMES:
        games = ", ".join(GAMES)
        said = f"{quoted(the_game)} is not a game: write game: {games} ({', '.join(map(game_title, GAMES))})"
        problems.append(
            Problem(
                "unknown-game",
                f"{quoted(the_game)} is not a game ({games})",
                parsed.header_lines.get("game"),
                said=said,
            )
        )
    elif not parsed.lines and not problems:
        problems.append(Problem("no-cards", "the list names no card; write one card a line: 3 Crumb Goblin"))
    elif not any(p.code == "wrong-game" for p in problems):  # else each card, looked up in --game, would say it again
        with database.session() as session:
            names = _Names(session, the_game)
            for entry in parsed.lines:
                card_id, why = names.find(entry.name, entry.set)
                if card_id is None:
                    problems.append(Problem("unknown-card", str(why), entry.line, game=the_game))
                    continue
                total = counts.get(card_id, 0) + entry.count
                if total > MAX_OWNED:
                    problems.append(
                        Problem(
                            "too-many",
                            f"{quoted(entry.name)} adds up to {total:,} {plural(total, 'copy', 'copies')} with the "
                            f"lines before it, "
                            f"over the bound of {MAX_OWNED:,}",
                            entry.line,
                        )
                    )
                    continue
                counts.named(card_id, total, f"line {entry.line}")
    if problems:
        problems.sort(key=lambda p: p.line or 0)
        lines = [f"line {p.line}: {p.message}" if p.line else p.message for p in problems]
        raise InvalidData(source, lines, found=problems)  # a page words each for players (the game's name)
    return counts


def read_collection_file(
    database: Database, path: Path, game: str | None, fmt: str | None = None, raw: bytes | None = None
) -> Counts:
    """The counts a collection file gives per card id, or ``InvalidData`` naming every bad row (a text
    list: every bad line). ``raw``: the bytes of a file named ``path`` already in memory (an upload)."""
    from cardbase.db.io import (
        _BAD_ROW,
        BOUNDS,
        NOT_OBJECT,
        NOTE_ROW,
        _convert,
        _is_note,
        _json_type_problem,
        _read_bounded,
    )
    from cardbase.db.queries import GAMES

    if is_text_list(path, fmt):
        from cardbase.textfiles import decode_text

        text = decode_text(_read_bounded(path, raw, "collection list"), str(path), "collection list")
        return read_collection_text(database, text, game, str(path))
    header, rows, typed = _rows(path, fmt, raw)
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
    counts = Counts()
    indexes: dict[str, _Names] = {}
    with database.session() as session:
        for number, row in enumerate(rows, start=1):
            if number > BOUNDS.rows:
                raise UnreadableInput(
                    f"{path}: more than {BOUNDS.rows:,} {plural(BOUNDS.rows, 'row')}, over the import bound (rows)"
                )
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
                        f"{row.where}, column {quoted(heading)}: over the bound of {BOUNDS.cell_chars:,} "
                        f"{plural(BOUNDS.cell_chars, 'character')}"
                    )
                    bad = True
                    continue
                try:
                    if typed and (problem := _json_type_problem(f, value)):
                        raise ValueError(problem)  # (not Python's text of a list, an object or a number)
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
            if game is not None and row_game != game:  # --game is not overridden unseen
                problems.append(
                    f"{row.where}, column 'game': {quoted(values.get('game'))} is not the game asked for "
                    f"(--game {game}); leave --game out to import each row's game"
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
                    f"{row.where}, column 'name': {quoted(name)} is the card of {counts.where[card_id]}; keep one row"
                )
                continue
            counts.named(card_id, count, row.where)
    if problems:
        raise InvalidData(str(path), problems)
    return counts


def _gone(session: Session, counts: dict[str, int], source: str) -> None:
    """``InvalidData`` naming every card of ``counts`` no longer in the catalog, by the row or line that
    named it (``Counts.where``): read in the write's transaction, as the catalog is when it writes (a card
    deleted after the file was read was a foreign-key "database error")."""
    from cardbase.db.catalog import cards_held

    ids = list(counts)
    held = cards_held(session, ids)
    where = counts.where if isinstance(counts, Counts) else {}
    said = "is no longer in the catalog (deleted after the list was read)"
    gone = [
        f"{where[cid]}: the card {cid} {said}" if cid in where else f"the card {cid} {said}"
        for cid in ids
        if cid not in held
    ]
    if gone:
        raise InvalidData(source, gone)


def _changes(session: Session, counts: dict[str, int], games: set[str], mode: Mode) -> list[CountChange]:
    """Every card whose count the import changes, by game, set and name: before and after. The cards
    are read by game and in batches (an import names up to 200,000 cards: more than one statement
    may bind)."""
    from cardbase.db.catalog import WRITE_BATCH

    query = (
        select(OwnedRow.card_id, OwnedRow.count)
        .join(Card, col(Card.id) == OwnedRow.card_id)
        .where(col(Card.game).in_(sorted(games)))
    )
    owned = {cid: n for cid, n in session.execute(query).all()}  # games holds every game of counts
    after = {cid: owned.get(cid, 0) + n if mode == "add" else n for cid, n in counts.items()}
    if mode == "replace":
        after.update({cid: 0 for cid in owned if cid not in counts})
    changed = [cid for cid, n in after.items() if owned.get(cid, 0) != n]
    cards: dict[str, tuple[str, str]] = {}
    for start in range(0, len(changed), WRITE_BATCH):
        batch = changed[start : start + WRITE_BATCH]
        rows = session.execute(select(Card.id, Card.set_code, Card.name).where(col(Card.id).in_(batch))).all()
        cards.update({cid: (code, name) for cid, code, name in rows})
    out = [CountChange(cid, cards[cid][1], cards[cid][0], owned.get(cid, 0), after[cid]) for cid in changed]
    return sorted(out, key=lambda c: (c.id.split("/", 1)[0], c.set, fold(c.name)))


def _over_bound(changes: list[CountChange]) -> list[str]:
    return [
        f"{c.name} ({c.set}): {c.before:,} owned and {c.after - c.before:,} more is {c.after:,}, over the bound "
        f"of {MAX_OWNED:,}"
        for c in changes
        if c.after > MAX_OWNED
    ]


def apply_counts(
    database: Database,
    counts: dict[str, int],
    game: str | None = None,
    *,
    mode: Mode = "set",
    dry_run: bool = False,
    source: str = "<list>",
) -> CollectionImport:
    """Own what ``counts`` (copies per card id, as a reader gives them) says, as ``mode`` says, in one
    transaction; ``dry_run`` only says what would change. Adding past the bound changes nothing
    (``InvalidData`` names every card over it)."""
    if mode not in MODES:
        raise UsageError(f"mode must be one of {', '.join(MODES)}, not {quoted(mode)}")
    result = CollectionImport(
        len(counts),
        sum(1 for n in counts.values() if n),
        sum(counts.values()),
        dry_run,
        mode == "replace",
        mode=mode,
    )
    games = {cid.split("/", 1)[0] for cid in counts} | ({game} if game else set())
    if dry_run:  # read in a snapshot: no write lock, other writers go on
        with database.snapshot() as session:
            _gone(session, counts, source)
            result.changes = _changes(session, counts, games, mode)
        if over := _over_bound(result.changes):
            raise InvalidData(source, over)
        return result
    with database.transaction() as session:
        _gone(session, counts, source)  # the cards read before the transaction: still there?
        result.changes = _changes(session, counts, games, mode)
        if over := _over_bound(result.changes):
            raise InvalidData(source, over)
        if mode == "replace":
            owned = select(Card.id).where(col(Card.game).in_(sorted(games)))
            session.execute(delete(OwnedRow).where(col(OwnedRow.card_id).in_(owned)))
            session.flush()
        for card_id, count in counts.items():
            now = _write(session, card_id, count, add=mode == "add")
            if now > MAX_OWNED:  # another writer added in between
                raise Refused(
                    f"{card_id}: {now:,} {plural(now, 'copy', 'copies')} is over the bound of {MAX_OWNED:,} for one "
                    f"card"
                )
    return result


def import_collection(
    database: Database,
    path: Path,
    game: str | None = None,
    *,
    fmt: str | None = None,
    replace: bool = False,
    add: bool = False,
    dry_run: bool = False,
    raw: bytes | None = None,
) -> CollectionImport:
    """Set the count of every card a file names (``add``: add to what is owned; ``replace``: and own
    nothing else of those games), in one transaction; a file with any bad row changes nothing
    (``InvalidData`` lists them all). ``raw``: the file's bytes, already in memory (an upload)."""
    if add and replace:
        raise UsageError("--add and --replace: choose one (--replace sets the counts the file gives)")
    counts = read_collection_file(database, path, game, fmt, raw)
    mode: Mode = "add" if add else "replace" if replace else "set"
    return apply_counts(database, counts, game, mode=mode, dry_run=dry_run, source=str(path))


def import_collection_text(
    database: Database, text: str, game: str | None, *, mode: Mode = "set", dry_run: bool = False
) -> CollectionImport:
    """A pasted list (at most ``PASTE_CHARS`` characters) read and owned as ``mode`` says: the
    service behind the collection page's paste box and ``POST /api/collection/import``."""
    if len(text) > PASTE_CHARS:
        raise UsageError(
            f"the list is {len(text):,} {plural(len(text), 'character')} long; at most {PASTE_CHARS:,} (send a file "
            f"instead)"
        )
    source = "the pasted list"
    try:
        counts = read_collection_text(database, text, game, source)
        return apply_counts(database, counts, game, mode=mode, dry_run=dry_run, source=source)
    except (InvalidData, UnreadableInput) as error:  # the list's own problems: it is the text refused
        if error.value is None:
            error.refusing(text)
        raise


def export_collection(database: Database, out: Path, fmt: str, game: str | None = None) -> int:
    """Write the collection (of ``game``) as CSV, XLSX or JSON that ``import_collection`` reads back."""
    import csv
    import json

    from cardbase.sheets import neutralise
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
