"""Every version of a database deck: what it held after each change, what changed, when and from where.

Each write to a stored deck (``cardbase.decks.store``: new, add, remove, set, rename, format, tags,
import, restore) records, in its own transaction, the whole deck after it as deck JSON (the
``deck export --format json`` form, entry tags included) with a one-line description of the
change, the time, and where it came from (``cli`` or ``web``: the ``origin`` of the database
handle). A deck has one version counter (``deck.version``, which HTTP ETag/If-Match check): version
N of a deck is its history's row N; ``NAME@N`` names one wherever a deck is read (a deck kept
before its history began has none of its earlier versions). A restore is a write like any other
(refused when made from a stale version), a new version with an old one's cards, tags, format and
players (the name stays): nothing is lost. The newest ``history_limit`` versions of each deck are
kept (the database handle's ``deck_history``, from ``CARDBASE_DECK_HISTORY``, default 1,000);
older ones are dropped as new ones come.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, func, text
from sqlalchemy import select as sa_select
from sqlmodel import col, select

from cardbase.db.models import Card, DeckCardRow, DeckRow, DeckVersionRow
from cardbase.decks.model import Deck, DeckCard
from cardbase.decks.refs import VERSION_REF as VERSION_REF
from cardbase.decks.refs import split_ref as split_ref
from cardbase.errors import UsageError, counted, plural, quoted

if TYPE_CHECKING:
    from sqlmodel import Session

    from cardbase.db.engine import Database

MAX_CHANGE = 2_000
"""Characters of a change's description (a change of thousands of cards is summed up)."""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def deck_in_session(session: Session, row: DeckRow) -> Deck:
    """The stored deck ``row`` as a ``Deck`` value, read in the caller's transaction (entry tags included)."""
    from cardbase.db.tags import entry_tags

    assert row.id is not None
    rows = session.execute(
        select(DeckCardRow.card_id, Card.name, DeckCardRow.count, DeckCardRow.section)
        .join(Card, col(Card.id) == DeckCardRow.card_id)
        .where(col(DeckCardRow.deck_id) == row.id)
        .order_by(col(DeckCardRow.position), col(Card.name))
    ).all()
    tags = entry_tags(session, row.id)
    cards = tuple(DeckCard(cid, n, c, s or None, tags.get(cid, ())) for cid, n, c, s in rows)
    return Deck(row.game, cards, row.name, row.format, row.players).canonical()


def describe(before: Deck | None, after: Deck) -> str:
    """What changed from ``before`` to ``after`` in one line: ``+2 Crumb Goblin, −1 Tile Mole [sideboard]``."""
    if before is None:
        return f"made ({counted(after.size, 'card')})" if after.size else "made"
    parts: list[str] = []
    if before.name != after.name:
        parts.append(f"renamed {quoted(before.name)} → {quoted(after.name)}")
    if before.format != after.format:
        parts.append(f"format {before.format or 'default'} → {after.format or 'default'}")
    if before.players != after.players:
        parts.append(f"players {before.players} → {after.players}")
    counts_before = {(c.card_id, c.section): c for c in before.cards}
    counts_after = {(c.card_id, c.section): c for c in after.cards}
    for key in dict.fromkeys([*counts_before, *counts_after]):
        old, new = counts_before.get(key), counts_after.get(key)
        n = (new.count if new else 0) - (old.count if old else 0)
        if n:
            card = new or old
            assert card is not None
            parts.append(f"{'+' if n > 0 else '−'}{abs(n)} {card.name}" + (f" [{key[1]}]" if key[1] else ""))
    tags_before, tags_after = before.entry_tags, after.entry_tags
    for cid in dict.fromkeys([*tags_before, *tags_after]):
        if set(tags_before.get(cid, ())) != set(tags_after.get(cid, ())):
            name = next((c.name for c in (*after.cards, *before.cards) if c.card_id == cid), cid)
            parts.append(f"tags of {name}: {', '.join(tags_after.get(cid, ())) or 'none'}")
    text = "; ".join(parts) or "no change"
    return text if len(text) <= MAX_CHANGE else text[: MAX_CHANGE - 1] + "…"


def _latest(session: Session, deck_id: int) -> DeckVersionRow | None:
    row: DeckVersionRow | None = session.scalars(
        select(DeckVersionRow)
        .where(DeckVersionRow.deck_id == deck_id)
        .order_by(col(DeckVersionRow.number).desc())
        .limit(1)
    ).first()
    return row


def record_version(session: Session, row: DeckRow, database: Database, *, change: str | None = None) -> int:
    """Record the deck ``row`` as it is now (in the caller's transaction, after the write that gave it its
    ``version``) as that version of its history, from ``database``'s origin; keep its newest
    ``deck_history`` versions. Returns the version's number."""
    origin, limit = getattr(database, "origin", "cli"), getattr(database, "deck_history", 1_000)
    from cardbase.decks.files import parse_json, write_json

    assert row.id is not None
    session.flush()
    deck = deck_in_session(session, row)
    latest = _latest(session, row.id)
    before = None
    if latest is not None:
        before = _deck_of(parse_json(latest.content, "history"), row.game)
    number = row.version
    if before is None and number > 1 and change is None:  # a deck kept before its history began
        change = f"the first version kept ({counted(deck.size, 'card')})"
    session.add(
        DeckVersionRow(
            deck_id=row.id,
            number=number,
            at=_now(),
            origin=origin[:40],
            change=change or describe(before, deck),
            content=write_json(deck),
        )
    )
    session.execute(
        delete(DeckVersionRow).where(
            col(DeckVersionRow.deck_id) == row.id, col(DeckVersionRow.number) <= number - limit
        )
    )
    return number


_RECORD = text(
    "INSERT INTO deck_version (deck_id, number, at, origin, change, content) "
    "VALUES (:deck, :number, :at, :origin, :change, :content)"
)
_PRUNE = text("DELETE FROM deck_version WHERE deck_id = :deck AND number <= :number")
_NEWEST = text("SELECT max(number) FROM deck_version WHERE deck_id = :deck")
"""``record_edit_version``'s statements, made once (``decks.store``'s edit statements)."""

UNREAD = -1
"""``record_edit_version``'s ``latest`` when the caller has not read it (a version number is 1 or more)."""


def record_edit_version(
    conn: Any, row: Any, database: Database, deck: Deck, before: DeckCard, latest: int | None = UNREAD
) -> Recorded:
    """``record_version`` of a deck ``deck`` whose one entry was ``before`` (its count then, 0: none)
    until this write (``decks.store.edit_entry``): the change is described from that, without reading
    the previous version's JSON back, when the previous version is the one before this; on the
    connection ``conn`` of the caller's transaction. ``latest``: the newest version kept before this one (None:
    none), read by the caller under the deck's row lock, else read here."""
    from cardbase.decks.files import parse_json, write_json

    table = DeckVersionRow.__table__  # type: ignore[attr-defined]
    origin, limit = getattr(database, "origin", "cli"), getattr(database, "deck_history", 1_000)
    number = int(row.version)
    if latest == UNREAD:
        latest = newest_kept(conn, row.id)
    if latest is None:
        change = describe(None, deck) if number <= 1 else f"the first version kept ({counted(deck.size, 'card')})"
    elif latest == number - 1:
        change = describe(_undone(deck, before), deck)
    else:  # versions not in a row: the previous one as kept
        content = conn.execute(
            sa_select(table.c.content).where(table.c.deck_id == row.id, table.c.number == latest)
        ).scalar_one()
        change = describe(_deck_of(parse_json(content, "history"), row.game), deck)
    values = {"at": _now(), "origin": origin[:40], "change": change, "content": write_json(deck)}
    conn.execute(_RECORD, {"deck": row.id, "number": number, **values})
    pruned = 0
    if number - limit >= 1:
        pruned = conn.execute(_PRUNE, {"deck": row.id, "number": number - limit}).rowcount
    entry: Entry | None = None
    if latest == number - 1:
        now = next((c for c in deck.cards if (c.card_id, c.section) == (before.card_id, before.section)), None)
        delta = (now.count if now else 0) - before.count
        if delta:
            entry = (before.card_id, before.section, now.name if now else before.name, delta)
    listed = Version(number, values["at"], values["origin"], change, _size(values["content"]), entry)
    return Recorded(listed, latest == number - 1, int(pruned), limit)


def newest_kept(conn: Any, deck_id: int) -> int | None:
    """The number of the newest version kept of the deck (None: none)."""
    found = conn.execute(_NEWEST, {"deck": deck_id}).scalar()
    return None if found is None else int(found)


@dataclass(frozen=True, slots=True)
class Recorded:
    """The version an edit recorded (``record_edit_version``): its row as a listing shows it, whether the
    newest version kept before it was the one before, how many old versions it dropped, and the bound
    it kept them to."""

    version: Version
    follows: bool
    pruned: int
    limit: int


def listed_after(
    versions: list[Version], kept: int, recorded: Recorded, limit: int
) -> tuple[list[Version], int] | None:
    """``deck_history``'s first page of ``limit`` versions and count after ``recorded``, from that of the
    version before it (``versions``, ``kept``): what the listing would read again (a burst that page's end
    falls in, whole: the page before had it, one version further on), or None when the listing given is
    not of the version before (the history was not in a row)."""
    number = recorded.version.number
    if not recorded.follows or not versions or versions[0].number != number - 1:
        return None
    oldest = number - recorded.limit  # this version and those before it are no longer kept
    # a version whose predecessor is no longer kept changed no entry a listing can name (as read afresh)
    left = [v if v.number - 1 > oldest else replace(v, entry=None) for v in versions if v.number > oldest]
    return _whole_lines([recorded.version, *left], 0, limit)[0], kept + 1 - recorded.pruned


def _undone(deck: Deck, before: DeckCard) -> Deck:
    """``deck`` with the entry of ``before``'s card and section as ``before`` has it (count 0: none)."""
    cards: list[DeckCard] = []
    found = False
    for c in deck.cards:
        if (c.card_id, c.section) == (before.card_id, before.section):
            found = True
            if before.count:
                cards.append(before)
        else:
            cards.append(c)
    if not found and before.count:
        cards.append(before)
    return Deck(deck.game, tuple(cards), deck.name, deck.format, deck.players).canonical()


def _deck_of(text: Any, game: str) -> Deck:
    """A version's deck JSON (read back) as a ``Deck`` (by card id: it never needs the catalog)."""
    cards = tuple(DeckCard(line.card_id or "", line.name, line.count, line.section, line.tags) for line in text.lines)
    return Deck(text.game or game, cards, text.name, text.format, text.players).canonical()


def delete_history(session: Session, deck_id: int) -> None:
    session.execute(delete(DeckVersionRow).where(col(DeckVersionRow.deck_id) == deck_id))


Entry = tuple[str, str | None, str, int]
"""The one entry a version changed and by how much: (card id, section, card name, copies added; negative:
taken out)."""


@dataclass(frozen=True, slots=True)
class Version:
    """One version of a deck, without its content. ``entry``: the one entry it changed from the version
    before (its count only), when that is all it changed and the version before is kept."""

    number: int
    at: str
    origin: str
    change: str
    cards: int
    entry: Entry | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"number": self.number, "at": self.at, "origin": self.origin, "change": self.change, "cards": self.cards}


BURST_SECONDS = 120
"""Changes to one card at most this far apart (each from the one before) are one editing burst."""


@dataclass(frozen=True, slots=True)
class HistoryLine:
    """A line of a deck's history as it is shown: one version, or the versions ``first`` to ``number`` in a
    row that each changed only the same card's count, from the same place, in one editing burst (five quick
    adds of a card: one line, ``+5 Crumb Goblin``). Its version is its newest: viewing or restoring the line
    is that version, and restoring the line below it takes the whole burst back (Moxfield's history).
    ``versions``: the versions it stands for, newest first. The one model of a deck's history: the page,
    ``deck history`` and the API show these lines."""

    number: int
    first: int
    at: str
    origin: str
    change: str
    cards: int
    versions: tuple[Version, ...] = field(default=(), compare=False)

    @property
    def merged(self) -> int:
        """How many versions the line stands for."""
        return self.number - self.first + 1

    def as_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "first": self.first,
            "at": self.at,
            "origin": self.origin,
            "change": self.change,
            "cards": self.cards,
            "merged": self.merged,
            "versions": [v.as_dict() for v in self.versions],
        }

    def text(self) -> str:
        """The line as ``deck history`` prints it: ``@4  2026-12-04T22:59:01+00:00  web     3 cards  +3
        Crumb Goblin (3 changes, @2–4)``."""
        burst = f" ({counted(self.merged, 'change')}, @{self.first}–{self.number})" if self.merged > 1 else ""
        return (
            f"@{self.number}  {self.at}  {self.origin:<4}  {self.cards:>4} {plural(self.cards, 'card')}  "
            f"{self.change}{burst}"
        )


def _seconds_apart(newer: str, older: str) -> float:
    try:
        return (datetime.fromisoformat(newer) - datetime.fromisoformat(older)).total_seconds()
    except ValueError:  # a time not written by this module (an imported history): never one burst
        return float("inf")


def _entry_change(entry: Entry, net: int) -> str:
    _card_id, section, name, _n = entry
    where = f" [{section}]" if section else ""
    if not net:
        return f"±0 {name}{where} (added and taken out again)"
    return f"{'+' if net > 0 else '−'}{abs(net)} {name}{where}"


def history_lines(versions: list[Version]) -> list[HistoryLine]:
    """``versions`` (newest first, as :func:`deck_history` lists them) as the lines a history shows: the
    versions of one editing burst on one card merged (see :class:`HistoryLine`)."""
    lines: list[HistoryLine] = []
    run: list[Version] = []  # the burst being gathered, newest first

    def close() -> None:
        if not run:
            return
        newest, oldest = run[0], run[-1]
        change = newest.change
        if len(run) > 1 and newest.entry is not None:
            change = _entry_change(newest.entry, sum(v.entry[3] for v in run if v.entry is not None))
        line = HistoryLine(newest.number, oldest.number, newest.at, newest.origin, change, newest.cards, tuple(run))
        lines.append(line)
        run.clear()

    for v in versions:
        if run and not joins(run[-1], v):
            close()
        run.append(v)
    close()
    return lines


def joins(newer: Version, older: Version) -> bool:
    """Whether ``older``, the version just before ``newer`` in a listing, is in ``newer``'s line: both
    changed only the same card's count, in a row, from one place, in one editing burst."""
    return (
        older.entry is not None
        and newer.entry is not None
        and older.entry[:2] == newer.entry[:2]
        and older.number == newer.number - 1
        and older.origin == newer.origin
        and 0 <= _seconds_apart(newer.at, older.at) <= BURST_SECONDS
    )


def _whole_lines(versions: list[Version], start: int, limit: int) -> tuple[list[Version], int]:
    """Of ``versions`` (a listing from some index, newest first), those of the lines whose newest version
    is at ``start`` to ``start + limit - 1`` (each line whole, however far it goes on), and the index of
    the next line's newest version (``len(versions)``: none read)."""
    tops = [i for i in range(len(versions)) if i == 0 or not joins(versions[i - 1], versions[i])]
    first = next((i for i in tops if i >= start), len(versions))
    end = next((i for i in tops if i >= start + limit), len(versions))
    return versions[first:end], end


MAX_LISTED = 1_000
"""Versions one history listing returns at most (newest first); ``offset`` pages on."""


def deck_history(
    database: Database, deck: str | int, limit: int = 50, offset: int = 0
) -> tuple[int, list[Version], int]:
    """The deck's id, its versions newest first, and how many are kept: the versions of the lines
    (:func:`history_lines`) whose newest version is the ``offset``-th to the ``offset + limit - 1``-th
    newest, each line whole (a burst that goes on past the page's end is listed whole on this page, and
    not on the next). :func:`history_page` also says where the next page starts."""
    page = history_page(database, deck, limit, offset)
    return page.deck_id, page.versions, page.kept


@dataclass(frozen=True, slots=True)
class HistoryPage:
    """A page of a deck's history (:func:`history_page`): its versions, how many are kept, and the offset
    of the next page (the newest version of the next line: the versions between are this page's lines')."""

    deck_id: int
    versions: list[Version]
    kept: int
    next_offset: int


def history_page(database: Database, deck: str | int, limit: int = 50, offset: int = 0) -> HistoryPage:
    """:func:`deck_history`, with where the next page starts."""
    from cardbase.decks.store import _get, no_deck

    if not 1 <= limit <= MAX_LISTED or not 0 <= offset <= 10**9:
        raise UsageError(f"a history lists 1 to {MAX_LISTED:,} versions from an offset of 0 or more")
    table = DeckVersionRow.__table__  # type: ignore[attr-defined]  # SQL on the table: no ORM objects to build
    with database.session() as session:
        conn = session.connection()
        if isinstance(deck, int):  # one query for the deck and its count
            decks = DeckRow.__table__  # type: ignore[attr-defined]
            found = conn.execute(
                sa_select(decks.c.id, func.count(table.c.number))
                .select_from(decks.outerjoin(table, table.c.deck_id == decks.c.id))
                .where(decks.c.id == deck)
                .group_by(decks.c.id)
            ).first()
            if found is None:
                raise no_deck(f"with id {deck}")
            deck_id, total = int(found[0]), int(found[1])
        else:
            deck_id = _get(session, deck).id or 0
            total = int(conn.execute(sa_select(func.count()).where(table.c.deck_id == deck_id)).scalar() or 0)
        listed, next_offset = _page(conn, deck_id, limit, offset)
        return HistoryPage(deck_id, listed, total, next_offset)


PAGE_READ = 100
"""Versions read at once when a line goes on past what was read."""


def _page(conn: Any, deck_id: int, limit: int, offset: int) -> tuple[list[Version], int]:
    """The versions of the lines whose newest version is the ``offset``-th to the ``offset + limit - 1``-th
    newest, and the index of the next line's newest version. Read from the version before the page (does
    the page's first version go on that one's line?) to past the page's last line (where does it end?)."""
    start = max(offset - 1, 0)
    wanted = offset - start + limit + 1
    read = _read(conn, deck_id, start, wanted)
    oldest_read = len(read) < wanted
    while True:
        listed, end = _whole_lines(read, offset - start, limit)
        if end < len(read) or oldest_read:  # the next line's start seen, or no older version
            return listed, start + end
        more = _read(conn, deck_id, start + len(read), PAGE_READ)
        oldest_read = len(more) < PAGE_READ
        read += more


def _read(conn: Any, deck_id: int, offset: int, limit: int) -> list[Version]:
    """``limit`` versions from the ``offset``-th newest, each with the one entry it changed (if so)."""
    table = DeckVersionRow.__table__  # type: ignore[attr-defined]
    rows = conn.execute(
        sa_select(table.c.number, table.c.at, table.c.origin, table.c.change, table.c.content)
        .where(table.c.deck_id == deck_id)
        .order_by(table.c.number.desc())
        .offset(offset)
        .limit(limit + 1)  # the version before the oldest listed: what that one changed
    ).all()
    shapes = [_shape(content) for *_, content in rows]
    out = []
    for k, (n, at, origin, change, _content) in enumerate(rows[:limit]):
        before = shapes[k + 1] if k + 1 < len(rows) and rows[k + 1][0] == n - 1 else None
        entry = _one_entry(before, shapes[k]) if before is not None else None
        out.append(Version(n, at, origin, change, shapes[k][2], entry))
    return out


_Shape = tuple[dict[tuple[str, str | None], tuple[int, str, tuple[str, ...]]], str, int]
"""A version's deck JSON read for its listing: its entries ((card id, section) → count, name, tags), all
else it holds (as text), its size."""


def _shape(content: str) -> _Shape:
    try:
        data = json.loads(content)
        entries = {
            (str(c["id"]), c.get("section")): (int(c["count"]), str(c["name"]), tuple(c.get("tags") or ()))
            for c in data.get("cards", [])
        }
        rest = json.dumps({k: v for k, v in data.items() if k != "cards"}, sort_keys=True)
        return entries, rest, sum(count for count, _, _ in entries.values())
    except (ValueError, TypeError, KeyError, AttributeError):
        return {}, content, _size(content)


def _one_entry(before: _Shape, after: _Shape) -> Entry | None:
    """The one entry whose count alone changed from ``before`` to ``after`` (None: not so)."""
    if before[1] != after[1]:
        return None
    changed = [key for key in before[0].keys() | after[0].keys() if before[0].get(key) != after[0].get(key)]
    if len(changed) != 1:
        return None
    key = changed[0]
    old, new = before[0].get(key), after[0].get(key)
    if old is not None and new is not None and old[2] != new[2]:  # its tags changed
        return None
    name = (new or old or (0, "", ()))[1]
    return (key[0], key[1], name, (new[0] if new else 0) - (old[0] if old else 0))


def _size(content: str) -> int:
    """The cards of a version's deck JSON (``write_json``'s, read as plain JSON: a listing of ten versions
    took 13 ms through the deck reader's checks)."""
    try:
        cards = json.loads(content).get("cards", [])
        return sum(int(c["count"]) for c in cards)
    except (ValueError, TypeError, KeyError, AttributeError):
        from cardbase.decks.files import parse_json

        return sum(line.count for line in parse_json(content, "history").lines)


def load_version(database: Database, deck: str | int, number: int) -> Deck:
    """Version ``number`` of a deck as a ``Deck`` (a number not kept is a usage error naming the kept range)."""
    from cardbase.decks.store import _get

    with database.session() as session:
        return version_in(session, _get(session, deck), number)


def version_in(session: Session, row: DeckRow, number: int) -> Deck:
    """``load_version`` of the deck ``row``, read in the caller's transaction (a write reads the version
    it puts back under the deck's row lock: read before, a deck renamed in between gave another's)."""
    from cardbase.decks.files import parse_json

    version = session.get(DeckVersionRow, (row.id, number))
    if version is None:
        kept = session.execute(
            select(func.min(DeckVersionRow.number), func.max(DeckVersionRow.number)).where(
                DeckVersionRow.deck_id == row.id
            )
        ).one()
        have = f"versions {kept[0]} to {kept[1]} are kept" if kept[0] is not None else "it has no versions yet"
        missing = f"deck {quoted(row.name)} has no version {number}; {have}"
        raise UsageError(f"{missing} (`cardbase deck history`)").saying(f"{missing} (the deck's History lists them)")
    return _deck_of(parse_json(version.content, f"{row.name}@{number}"), row.game)


def history_payload(database: Database, deck_id: int) -> list[dict[str, Any]]:
    """Every kept version of a deck with its content (for deck JSON that carries its history)."""
    with database.session() as session:
        return history_payload_in(session, deck_id)


def history_payload_in(session: Session, deck_id: int) -> list[dict[str, Any]]:
    """``history_payload`` read in the caller's transaction."""
    rows = session.scalars(
        select(DeckVersionRow).where(DeckVersionRow.deck_id == deck_id).order_by(col(DeckVersionRow.number))
    ).all()
    return [
        {"number": v.number, "at": v.at, "origin": v.origin, "change": v.change, "deck": json.loads(v.content)}
        for v in rows
    ]


def restore_history(session: Session, deck_id: int, versions: list[dict[str, Any]]) -> None:
    """Keep the versions a deck JSON carried as the deck's own (in the caller's transaction), replacing any."""
    from cardbase.decks.files import parse_json, write_json

    delete_history(session, deck_id)
    for v in versions:
        text = parse_json(json.dumps(v["deck"], ensure_ascii=False), f"history version {v['number']}")
        content = write_json(_deck_of(text, text.game or ""))
        session.add(
            DeckVersionRow(
                deck_id=deck_id, number=v["number"], at=v["at"], origin=v["origin"], change=v["change"], content=content
            )
        )
    session.flush()
