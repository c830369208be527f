"""Decks kept in the database. Every write is one transaction; concurrent edits add up, none is lost.

A deck is named by its name (the CLI) or its database id (the web app); every function that takes
one takes either. A write first locks the deck's row (``SELECT … FOR UPDATE`` on PostgreSQL; SQLite
writes take the database's write lock up front), so writes to one deck run one after another and
read-modify-write steps (the deck's total, a count) see every earlier write.

Every write to a deck or its cards adds 1 to the deck's ``version`` in its transaction. A write
given ``expected`` (the versions its maker saw, e.g. from HTTP ``If-Match``) is refused with
``Stale`` when the deck is at another version, checked under the row lock: a change made from an
old view of the deck never overwrites a newer one. Without ``expected`` writes apply as they come.
Each version is also a row of the deck's history (``cardbase.decks.history``), written in the same
transaction: version N of a deck is its history's version N.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal

from sqlalchemy import delete, func, text, update
from sqlalchemy import select as sa_select
from sqlalchemy.exc import IntegrityError
from sqlmodel import col, select

from cardbase.db.models import Card, DeckCardRow, DeckRow
from cardbase.db.tags import delete_deck_tags, entry_tags, replace_entry_tags
from cardbase.decks.history import delete_history, history_payload_in, record_version, restore_history
from cardbase.decks.model import MAX_DECK_CARDS, Deck, DeckCard, check_players
from cardbase.decks.refs import deck_names as deck_names
from cardbase.errors import Conflict, Refused, Said, Stale, UsageError, of_other_games, plural, quoted
from cardbase.fuzzy import closest
from cardbase.games.base import whole_number
from cardbase.names import fold

if TYPE_CHECKING:
    from sqlmodel import Session

    from cardbase.db.engine import Database
    from cardbase.decks.history import Recorded

MAX_COPIES = 999
"""The most copies of one card in one section (a deck line's bound, ``999 Name``)."""
MAX_DECK_ID = 2**31 - 1
"""Deck ids are the database's INTEGER keys (32 bits on PostgreSQL, which refuses a larger number in a
query as a database error): a larger one names no deck, said before any query; every face's bound."""

DeckRef = str | int
"""A deck in the database: its name, or its id."""


class UnknownDeck(UsageError):
    """No deck of that name (or id) in the database: a deck argument that names nothing, exit 2 as a
    deck file that is not there (``deck show``, ``deck validate`` …) and every other bad argument."""


def no_deck(missing: str) -> UnknownDeck:
    """The refusal of a deck ``missing`` names (``with id 7``, ``named 'Rush'``) that is not there: the
    command line is told the command that lists the decks, a page the page that does."""
    return UnknownDeck(
        Said(
            f"no deck {missing}; `cardbase deck list` shows the decks", f"no deck {missing}; the decks page lists them"
        )
    )


@dataclass(frozen=True, slots=True)
class DeckInfo:
    """A database deck's own fields and its size (all sections)."""

    id: int
    name: str
    game: str
    format: str | None
    players: int | None
    updated: str
    cards: int
    version: int = 1

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "game": self.game,
            "format": self.format,
            "players": self.players,
            "updated": self.updated,
            "cards": self.cards,
            "version": self.version,
        }


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _get(session: Session, deck: DeckRef, *, lock: bool = False) -> DeckRow:
    """The deck row named by ``deck`` (a name or an id); ``lock`` takes its row lock for a write."""
    if isinstance(deck, int):
        if not 1 <= deck <= MAX_DECK_ID:
            raise no_deck(f"with id {deck}").refusing(deck)
        query = select(DeckRow).where(DeckRow.id == deck)
        row: DeckRow | None = session.scalars(query.with_for_update() if lock else query).first()
        if row is None:
            raise no_deck(f"with id {deck}").refusing(deck)
        return row
    name = deck
    query = select(DeckRow).where(DeckRow.name == name)
    row = session.scalars(query.with_for_update() if lock else query).first()
    if row is None and (alike := _look_alike(session, name)) is not None:  # typed another way (NFD, spaces)
        query = select(DeckRow).where(DeckRow.id == alike[0])
        row = session.scalars(query.with_for_update() if lock else query).first()
    if row is None:
        names = {fold(n): n for n in session.scalars(select(DeckRow.name).order_by(DeckRow.name))}
        near = closest(name, names, n=3, cutoff=0.5)
        if near:
            raise UnknownDeck(f"no deck named {quoted(name)}; did you mean {', '.join(map(repr, near))}?").refusing(
                name
            )
        raise no_deck(f"named {quoted(name)}").refusing(name)
    return row


Expected = Collection[int] | None
"""The versions of a deck a write was made from (None: any)."""


def _check_version(row: Any, expected: Expected, before: int | None = None) -> None:
    """``Stale`` when the locked deck ``row`` is at none of the ``expected`` versions (``before``: the
    version it was at, when the write has bumped it already)."""
    version = row.version if before is None else before
    if expected is not None and version not in expected:
        seen = ", ".join(str(v) for v in sorted(expected))  # none: a tag of no version of this deck
        raise Stale(
            f"deck {quoted(row.name)} changed elsewhere: it is at version {version}, the change was made "
            f"from {f'version {seen}' if seen else 'another version'}; look at it again and redo the change",
            version,
            "deck",
            row.id or 0,
        )


def _touch(session: Session, row: DeckRow) -> None:
    """Mark the locked deck ``row`` changed: its next version and the time."""
    session.execute(
        update(DeckRow).where(col(DeckRow.id) == row.id).values(version=col(DeckRow.version) + 1, updated_at=_now())
    )
    session.refresh(row, ["version", "updated_at"])


def _players(value: int | None, game: str) -> int | None:
    """``value`` checked by the deck readers' rule (``check_players``), as a usage error."""
    try:
        return check_players(value, game)
    except ValueError as error:
        raise UsageError(str(error)) from None


def _deck_name(given: str) -> str:
    """A deck name as stored (``names.deck_name``: composed, spaces collapsed): 1 to 200 characters, none
    of them a control character or an invisible one, at least one of them a letter, digit, punctuation
    or symbol (a name of marks and joiners alone shows as nothing)."""
    from cardbase.names import deck_name, name_problem

    problem = name_problem(given)
    if problem and ("control character" in problem or "invisible character" in problem):
        raise UsageError(f"the deck name {quoted(given)} {problem}")
    name = deck_name(given)
    if not name or len(name) > 200:
        raise UsageError(f"a deck name must be 1 to 200 characters, not {len(name)}")
    if not any(unicodedata.category(c)[0] in "LNPS" for c in name):
        raise UsageError(f"the deck name {quoted(given)} has nothing to see: give it a letter, digit or symbol")
    return name


def _look_alike(session: Session, name: str, other_than: int | None = None) -> tuple[int, str] | None:
    """The deck (id, name) whose name looks like ``name`` (``names.deck_name_key``: one name typed
    composed or not, full-width, with other spaces), but the deck ``other_than``; None if none. A deck
    named exactly ``name`` comes first: a database from before the rule may hold two look-alikes, and
    each is reached by its own name."""
    from cardbase.names import deck_name_alike

    held = {
        str(deck_name): int(deck_id)
        for deck_id, deck_name in session.execute(select(DeckRow.id, DeckRow.name).order_by(col(DeckRow.id)))
        if deck_id != other_than
    }  # oldest first: of two look-alikes of a third name, the older is found
    alike = name if name in held else deck_name_alike(held, name)
    return None if alike is None else (held[alike], alike)


def _section(section: str | None, game: str) -> str | None:
    """``section`` as stored (a game's main section is none), or a usage error naming the game's sections."""
    from cardbase.decks.model import MAIN_SECTION
    from cardbase.decks.validate import SECTIONS

    if section is None:
        return None
    name = " ".join(section.lower().split())
    if name not in SECTIONS.get(game, ()):
        allowed = ", ".join(SECTIONS.get(game, ())) or "none"
        raise UsageError(f"--section {quoted(section)}: {game} decks have the sections {allowed}").refusing(section)
    return None if name == MAIN_SECTION.get(game) else name


def _format(fmt: str | None, game: str, house: dict[tuple[str, str], Any] | None = None) -> str | None:
    """A deck's format as stored: none (the game's default for the deck), or a name the game (or ``house``) has."""
    from cardbase.decks.formats import check_format_name, require_format

    if fmt is None or not fmt.strip():
        return None
    name = check_format_name(fmt.strip().lower())
    require_format(game, name, house)
    return name


def _taken(name: str, given: str | None = None) -> Conflict:
    """The refusal of ``given`` (default ``name``) as a deck name: the deck ``name`` has it, or one like it."""
    alike = ""
    if given is not None and given != name:
        alike = (
            f" ({quoted(given)} is the same name written another way: deck names are one name whatever"
            " their width, spacing, joiners, or accents composed or not)"
        )
    return Conflict(f"a deck named {quoted(name)} already exists{alike}").refusing(given or name)


def _name_free(session: Session, name: str, other_than: int | None = None) -> None:
    """A ``Conflict`` unless no deck but ``other_than`` has ``name`` or a name that looks like it."""
    if (held := _look_alike(session, name, other_than)) is not None:
        raise _taken(held[1], name)


LAST_DECK_ID = "deck:last_id"
"""The ``meta`` key of the highest id a deck has had (:func:`_insert`)."""


def _insert(session: Session, row: DeckRow) -> None:
    """Add the new deck ``row`` with an id no deck has had. SQLite gives a new row the largest id plus
    one, so the newest deck deleted gave its id to the next: its links, its page's forms and its
    history reached a deck the user never opened. There the id is given here, above every id kept in
    ``meta`` (``LAST_DECK_ID``) and in the table; PostgreSQL's sequence never gives one twice."""
    if session.get_bind().dialect.name == "sqlite":
        from cardbase.db.models import Meta

        held = session.get(Meta, LAST_DECK_ID)
        last = (whole_number(held.value, 2**62) or 0) if held is not None else 0
        row.id = max(last, int(session.scalar(sa_select(func.max(col(DeckRow.id)))) or 0)) + 1
        session.merge(Meta(key=LAST_DECK_ID, value=str(row.id)))
    session.add(row)
    session.flush()


def _cards_held(session: Session, deck: Deck, what: str) -> None:
    """A usage error naming the cards of ``deck`` the catalog no longer has, read in the write's
    transaction: a deck read (its cards looked up) before it may name a card deleted since, which the
    write's insert would meet as a foreign-key error."""
    from cardbase.db.catalog import cards_held

    ids = list(dict.fromkeys(c.card_id for c in deck.cards))
    held = cards_held(session, ids)
    if missing := [cid for cid in ids if cid not in held]:
        names = {c.card_id: c.name for c in deck.cards}
        gone = ", ".join(f"{quoted(names[cid])} ({cid})" if names[cid] else cid for cid in missing[:5])
        more = f" and {len(missing) - 5:,} more" if len(missing) > 5 else ""
        raise Refused(f"{what} names cards the catalog no longer has: {gone}{more}")


def version_and_stamps(session: Session, deck_id: int) -> tuple[int, tuple[tuple[str, str], ...]]:
    """The version of the deck with id ``deck_id`` and every stamp (``db.stamps``), in one query
    (``UnknownDeck`` if there is no such deck)."""
    rows = session.execute(
        text(
            "SELECT d.version, m.key, m.value FROM deck d LEFT JOIN meta m ON m.key LIKE 'stamp:%' "
            "WHERE d.id = :id ORDER BY m.key"
        ),
        {"id": deck_id},
    ).all()
    if not rows:
        raise no_deck(f"with id {deck_id}").refusing(deck_id)
    return int(rows[0][0]), tuple((str(k), str(v)) for _, k, v in rows if k is not None)


def _info(session: Session, row: DeckRow) -> DeckInfo:
    total = session.scalar(select(func.coalesce(func.sum(DeckCardRow.count), 0)).where(DeckCardRow.deck_id == row.id))
    assert row.id is not None
    return DeckInfo(row.id, row.name, row.game, row.format, row.players, row.updated_at, int(total or 0), row.version)


def new_deck(
    database: Database,
    name: str,
    game: str,
    fmt: str | None = None,
    players: int | None = None,
    house: dict[tuple[str, str], Any] | None = None,
) -> int:
    """Make an empty deck and return its id; a name already taken, a format the game (or ``house``) does not
    have, or a player count the readers refuse, is an error."""
    players = _players(players, game)
    name = _deck_name(name)
    fmt = _format(fmt, game, house)
    try:
        with database.transaction() as session:
            _name_free(session, name)
            row = DeckRow(name=name, game=game, format=fmt, players=players, updated_at=_now())
            _insert(session, row)
            assert row.id is not None
            record_version(session, row, database)
            return row.id
    except IntegrityError:  # another writer took the name between the check and the insert
        raise _taken(name) from None


def deck_by_id(database: Database, deck_id: int) -> DeckInfo:
    """The deck with database id ``deck_id`` (``UnknownDeck`` if there is none)."""
    with database.session() as session:
        return _info(session, _get(session, deck_id))


def deck_info(database: Database, deck: DeckRef) -> DeckInfo:
    """The deck named by ``deck`` (a name or an id)."""
    with database.session() as session:
        return _info(session, _get(session, deck))


KEEP: Any = object()
"""``update_deck``'s default: the field stays as it is."""


def update_deck(
    database: Database,
    deck: DeckRef,
    *,
    name: str = KEEP,
    fmt: str | None = KEEP,
    house: dict[tuple[str, str], Any] | None = None,
    expected: Expected = None,
) -> DeckInfo:
    """Change a deck's name and/or the format it is checked against (``fmt`` none: the game's default for it),
    in one transaction. A name another deck has is a ``Conflict``; a format the game (or ``house``) lacks is a
    usage error; a deck at none of the ``expected`` versions is ``Stale``."""
    if name is not KEEP:
        name = _deck_name(name)
    try:
        with database.transaction() as session:
            row = _get(session, deck, lock=True)
            _check_version(row, expected)
            changed = False
            if fmt is not KEEP and row.format != (stored := _format(fmt, row.game, house)):
                row.format, changed = stored, True
            if name is not KEEP and row.name != name:
                _name_free(session, name, row.id)
                row.name, changed = name, True
            if changed:
                session.flush()
                _touch(session, row)
                record_version(session, row, database)
            return _info(session, row)
    except IntegrityError:
        raise _taken(name) from None


def rename_deck(database: Database, deck: DeckRef, name: str, expected: Expected = None) -> DeckInfo:
    """Give a deck a new name (one transaction); a name another deck has is a ``Conflict``."""
    return update_deck(database, deck, name=name, expected=expected)


def _copy_name(session: Session, name: str) -> str:
    """The first of ``NAME (copy)``, ``NAME (copy 2)``, … that no deck has, within the name bound."""
    for n in range(1, 10_000):
        suffix = " (copy)" if n == 1 else f" (copy {n})"
        candidate = name[: 200 - len(suffix)] + suffix
        if _look_alike(session, candidate) is None:
            return candidate
    raise Conflict(f"deck {quoted(name)} has too many copies already; give the copy a name")


def duplicate_deck(database: Database, deck: DeckRef, name: str | None = None) -> DeckInfo:
    """A copy of a deck (every section, same order) under ``name`` (default ``NAME (copy)``), in one transaction."""
    if name is not None:
        name = _deck_name(name)
    try:
        with database.transaction() as session:
            source = _get(session, deck, lock=True)
            if name is None:
                name = _copy_name(session, source.name)
            else:
                _name_free(session, name)
            row = DeckRow(name=name, game=source.game, format=source.format, players=source.players, updated_at=_now())
            _insert(session, row)
            assert row.id is not None
            entries = session.scalars(select(DeckCardRow).where(DeckCardRow.deck_id == source.id)).all()
            for e in entries:
                session.add(
                    DeckCardRow(
                        deck_id=row.id, card_id=e.card_id, section=e.section, count=e.count, position=e.position
                    )
                )
            session.flush()
            assert source.id is not None
            for cid, tags in entry_tags(session, source.id).items():
                replace_entry_tags(session, row.id, cid, tags)
            session.flush()
            record_version(session, row, database, change=f"copied from {quoted(source.name)}")
            return _info(session, row)
    except IntegrityError:
        raise _taken(name or "") from None


Edit = Literal["add", "set", "remove"]


_COUNTS = {"add": (1, False), "set": (0, False), "remove": (1, True)}  # (lowest count, None allowed)


class WrongGame(Refused):
    """A card of another game (or of other games, ``card_games``: a name theirs alone) than the deck's:
    a mistake about a card that exists (400, as by name)."""

    def __init__(self, card: str, card_games: Sequence[str], deck: str, deck_game: str) -> None:
        self.card, self.card_games, self.deck, self.deck_game = card, tuple(card_games), deck, deck_game
        super().__init__(f"{of_other_games(card, card_games, deck_game)}, the game of deck {quoted(deck)}")


@dataclass(frozen=True, slots=True)
class Edited:
    """One edit of a deck's cards done: the copies of the card there now, the deck's fields and the deck."""

    copies: int
    info: DeckInfo
    deck: Deck
    """The whole deck after the edit (entry tags included), as its history records it."""
    recorded: Recorded | None = None
    """The history row the edit added (``decks.history.record_edit_version``)."""


def edit_card(
    database: Database,
    deck_ref: DeckRef,
    card: Card,
    edit: Edit,
    count: int | None = None,
    section: str | None = None,
    expected: Expected = None,
) -> tuple[int, DeckInfo]:
    """Add ``count`` copies of ``card`` to ``section`` (``add``), make it hold exactly ``count``
    (``set``; 0 removes the card) or remove ``count`` copies (``remove``; all when None), in one
    transaction under the deck's row lock; the copies there afterwards and the deck as it then is.

    Concurrent adds all count; two writers setting one count at once: the later wins, whole. A deck
    at none of the ``expected`` versions is ``Stale``."""
    done = edit_entry(database, deck_ref, card, edit, count, section, expected)
    return done.copies, done.info


_DECK = DeckRow.__table__  # type: ignore[attr-defined]  # SQL on the tables: the ORM's work is not needed here
_ENTRY = DeckCardRow.__table__  # type: ignore[attr-defined]
_CARD = Card.__table__  # type: ignore[attr-defined]


def edit_entry(
    database: Database,
    deck_ref: DeckRef,
    card: Card | str,
    edit: Edit,
    count: int | None = None,
    section: str | None = None,
    expected: Expected = None,
) -> Edited:
    """``edit_card`` of ``card`` (a card, or its id: an unknown id is ``UnknownCard``), answering the
    deck after the edit as well. One transaction of few statements: the deck's version bumped (which
    takes its row lock) and its fields read in one, the entry changed in one where the backend returns
    the count, the deck read back once for its history row, whose description comes from the edit
    (the previous version's JSON is not read back)."""
    from cardbase.decks.history import record_edit_version

    low, none_ok = _COUNTS[edit]
    if not (count is None and none_ok) and (
        not isinstance(count, int) or isinstance(count, bool) or not low <= count <= MAX_COPIES
    ):
        raise UsageError(f"count must be {low} to {MAX_COPIES}, not {quoted(count)}")
    with database.transaction(row_locked=True) as session:  # _bump locks the deck's row first
        conn = session.connection()
        row = _bump(session, conn, deck_ref)
        card_id, card_name, card_game, latest = _card_of(conn, card, row.id)
        if card_game != row.game:
            raise WrongGame(card_name, [card_game], row.name, row.game)
        _check_version(row, expected, before=row.version - 1)
        stored = _section(section, row.game) or ""
        before, now = _ENTRY_EDITS[edit](conn, row, card_id, card_name, count, stored)
        deck, tags = _deck_read(conn, row)
        total = sum(c.count for c in deck.cards)
        if total > MAX_DECK_CARDS:
            raise Refused(
                f"deck {quoted(row.name)} would hold {total:,} {plural(total, 'card')}; a deck may have at most "
                f"{MAX_DECK_CARDS:,}"
            )
        entry = DeckCard(card_id, card_name, before, stored or None, tags.get(card_id, ()))
        recorded = record_edit_version(conn, row, database, deck, entry, latest)
        info = DeckInfo(row.id, row.name, row.game, row.format, row.players, row.updated_at, total, row.version)
        return Edited(now, info, deck, recorded)


@dataclass(slots=True)
class _Row:
    """The fields of a locked deck row, after its version was bumped."""

    id: int
    name: str
    game: str
    format: str | None
    players: int | None
    updated_at: str
    version: int


def _bump(session: Session, conn: Any, deck_ref: DeckRef) -> _Row:
    """The deck's next version and time, which takes its row lock (SQLite: the write lock is held
    already), and its fields; ``UnknownDeck`` when there is none."""
    deck_id = deck_ref if isinstance(deck_ref, int) else _get(session, deck_ref).id or 0  # a name: its id
    columns = (_DECK.c.id, _DECK.c.name, _DECK.c.game, _DECK.c.format, _DECK.c.players, _DECK.c.updated_at)
    if conn.dialect.update_returning:
        found = conn.execute(_BUMP, {"id": deck_id, "at": _now()}).first()
    else:  # SQLite before 3.35
        bump = update(_DECK).where(_DECK.c.id == deck_id).values(version=_DECK.c.version + 1, updated_at=_now())
        found = conn.execute(sa_select(*columns, _DECK.c.version).where(_DECK.c.id == deck_id)).first()
        if found is not None:
            conn.execute(bump)
            found = (*found[:-1], found[-1] + 1)
    if found is None:
        raise no_deck(f"with id {deck_id}").refusing(deck_id)
    return _Row(*found)


def _card_of(conn: Any, card: Card | str, deck_id: int) -> tuple[str, str, str, int | None]:
    """The card's id, name and game, and the newest version of the deck kept in its history (None: none), read
    in one query under the deck's row lock (``decks.history.record_edit_version``)."""
    from cardbase.errors import UnknownCard

    card_id = card if isinstance(card, str) else card.id  # a card read before: read again (deleted since?)
    found = conn.execute(_CARD_AND_NEWEST, {"deck": deck_id, "card": card_id}).first()
    if found is None:
        raise UnknownCard(card_id.rsplit("/", 1)[-1], None, [])
    return card_id, found[1], found[2], found[0]


def _entry_params(row: _Row, card_id: str, section: str) -> dict[str, Any]:
    return {"deck": row.id, "card": card_id, "section": section}


# The edit's statements, made once (a statement built per call costs more than its execution on SQLite).
_BUMP = text(
    "UPDATE deck SET version = version + 1, updated_at = :at WHERE id = :id "
    "RETURNING id, name, game, format, players, updated_at, version"
)
_CARD_AND_NEWEST = text(
    "SELECT (SELECT max(number) FROM deck_version WHERE deck_id = :deck), name, game FROM card WHERE id = :card"
)
_ENTRY_IS = "deck_id = :deck AND card_id = :card AND section = :section"
_COUNT = text(f"SELECT count FROM deck_card WHERE {_ENTRY_IS}")
_DELETE = text(f"DELETE FROM deck_card WHERE {_ENTRY_IS}")
_SET = text(f"UPDATE deck_card SET count = :count WHERE {_ENTRY_IS}")
_INSERT = text(
    "INSERT INTO deck_card (deck_id, card_id, section, count, position) "
    "VALUES (:deck, :card, :section, :count, (SELECT count(*) FROM deck_card WHERE deck_id = :deck))"
)
"""A new entry, last (its position: the deck's entries before it)."""
_ADD = text(
    _INSERT.text + " ON CONFLICT (deck_id, card_id, section) DO UPDATE SET count = deck_card.count + excluded.count "
    "RETURNING count"
)
_ENTRIES = text(
    "SELECT e.card_id, c.name, e.count, e.section FROM deck_card e JOIN card c ON c.id = e.card_id "
    "WHERE e.deck_id = :deck ORDER BY e.position, c.name"
)
_ENTRY_TAGS = text("SELECT card_id, tag FROM deck_card_tag WHERE deck_id = :deck ORDER BY card_id, tag")


def _entry_add(conn: Any, row: _Row, card_id: str, name: str, count: int | None, section: str) -> tuple[int, int]:
    """``count`` more copies (a new entry goes last); the copies before and after."""
    from sqlalchemy.dialects import postgresql, sqlite

    assert count is not None
    if conn.dialect.insert_returning:
        values = {"deck": row.id, "card": card_id, "section": section, "count": count}
        return _copies(row, name, count, int(conn.execute(_ADD, values).scalar_one()))
    insert = postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert
    position = sa_select(func.count()).select_from(_ENTRY).where(_ENTRY.c.deck_id == row.id).scalar_subquery()
    stmt = insert(_ENTRY).values(deck_id=row.id, card_id=card_id, section=section, count=count, position=position)
    stmt = stmt.on_conflict_do_update(
        index_elements=["deck_id", "card_id", "section"], set_={"count": _ENTRY.c.count + count}
    )
    conn.execute(stmt)  # SQLite before 3.35
    return _copies(row, name, count, int(conn.execute(_COUNT, _entry_params(row, card_id, section)).scalar_one()))


def _copies(row: _Row, name: str, count: int, now: int) -> tuple[int, int]:
    """The copies before and after an add of ``count`` that left ``now``."""
    if now > MAX_COPIES:  # the bound every deck reader keeps (a line's count), so a stored deck reads back
        raise Refused(
            f"{name} would have {now:,} {plural(now, 'copy', 'copies')} in deck {quoted(row.name)}; an entry holds at "
            f"most {MAX_COPIES}"
        )
    return now - count, now


def _entry_remove(conn: Any, row: _Row, card_id: str, name: str, count: int | None, section: str) -> tuple[int, int]:
    """``count`` fewer copies (all when None); the copies before and after."""
    where = _entry_params(row, card_id, section)
    have = conn.execute(_COUNT, where).scalar()  # under the deck's row lock
    if have is None:
        raise Refused(f"{name} is not in deck {quoted(row.name)}")
    left = 0 if count is None else max(have - count, 0)
    if left == 0:
        conn.execute(_DELETE, where)
    else:
        conn.execute(_SET, {**where, "count": left})
    return int(have), left


def _entry_set(conn: Any, row: _Row, card_id: str, name: str, count: int | None, section: str) -> tuple[int, int]:
    """Exactly ``count`` copies (0 removes the entry); the copies before and after."""
    assert count is not None
    where = _entry_params(row, card_id, section)
    have = conn.execute(_COUNT, where).scalar()
    if count == 0:
        if have is not None:
            conn.execute(_DELETE, where)
    elif have is None:
        conn.execute(_INSERT, {**where, "count": count})
    elif have != count:
        conn.execute(_SET, {**where, "count": count})
    return int(have or 0), count


_ENTRY_EDITS = {"add": _entry_add, "set": _entry_set, "remove": _entry_remove}


def _deck_read(conn: Any, row: _Row) -> tuple[Deck, dict[str, tuple[str, ...]]]:
    """The deck ``row`` as a ``Deck`` value (entry tags included), read in the caller's transaction, and the
    entry tags of every card (those of a card no longer in the deck too: they stay for when it comes back)."""
    rows = conn.execute(_ENTRIES, {"deck": row.id}).all()
    tags: dict[str, list[str]] = {}
    for cid, tag in conn.execute(_ENTRY_TAGS, {"deck": row.id}):
        tags.setdefault(cid, []).append(tag)
    cards = tuple(DeckCard(cid, n, c, s or None, tuple(tags.get(cid, ()))) for cid, n, c, s in rows)
    return Deck(row.game, cards, row.name, row.format, row.players).canonical(), {
        cid: tuple(t) for cid, t in tags.items()
    }


def set_count(database: Database, deck: DeckRef, card: Card, count: int, section: str | None = None) -> int:
    """Make a deck hold exactly ``count`` copies (0 to 999; 0 removes the card) of ``card`` in ``section``;
    returns ``count`` (``edit_card``)."""
    return edit_card(database, deck, card, "set", count, section)[0]


def add_card(database: Database, deck_ref: DeckRef, card: Card, count: int = 1, section: str | None = None) -> int:
    """Add ``count`` copies of ``card``; returns the copies now in the deck. Atomic under concurrency."""
    return edit_card(database, deck_ref, card, "add", count, section)[0]


def remove_card(
    database: Database, deck_ref: DeckRef, card: Card, count: int | None = None, section: str | None = None
) -> int:
    """Remove ``count`` copies (all when None); returns the copies left."""
    return edit_card(database, deck_ref, card, "remove", count, section)[0]


def delete_deck(database: Database, deck_ref: DeckRef, expected: Expected = None) -> None:
    """Delete a deck and its cards (one transaction)."""
    with database.transaction() as session:
        deck = _get(session, deck_ref, lock=True)
        _check_version(deck, expected)
        assert deck.id is not None
        delete_deck_tags(session, deck.id)
        delete_history(session, deck.id)
        session.execute(delete(DeckCardRow).where(col(DeckCardRow.deck_id) == deck.id))
        session.execute(delete(DeckRow).where(col(DeckRow.id) == deck.id))


def list_decks(database: Database) -> list[dict[str, Any]]:
    """Every database deck (``DeckInfo.as_dict``), by name: the rows of ``deck list --json``."""
    with database.session() as session:
        rows = session.execute(
            sa_select(
                col(DeckRow.id),
                col(DeckRow.name),
                col(DeckRow.game),
                col(DeckRow.format),
                col(DeckRow.players),
                col(DeckRow.updated_at),
                func.coalesce(func.sum(DeckCardRow.count), 0),
                col(DeckRow.version),
            )
            .join(DeckCardRow, col(DeckCardRow.deck_id) == DeckRow.id, isouter=True)
            .group_by(col(DeckRow.id))
            .order_by(col(DeckRow.name))
        ).all()
    return [DeckInfo(i, n, g, f, p, u, int(c), v).as_dict() for i, n, g, f, p, u, c, v in rows]


def load_deck(database: Database, deck_ref: DeckRef) -> Deck:
    """A deck from the database as a ``Deck`` value."""
    with database.session() as session:
        deck = _get(session, deck_ref)
        rows = session.execute(
            select(DeckCardRow.card_id, Card.name, DeckCardRow.count, DeckCardRow.section)
            .join(Card, col(Card.id) == DeckCardRow.card_id)
            .where(col(DeckCardRow.deck_id) == deck.id)
            .order_by(col(DeckCardRow.position), col(Card.name))
        ).all()
        assert deck.id is not None
        tags = entry_tags(session, deck.id)
        return Deck(
            deck.game,
            tuple(DeckCard(cid, n, c, s or None, tags.get(cid, ())) for cid, n, c, s in rows),
            deck.name,
            deck.format,
            deck.players,
        ).canonical()


def load_decks(database: Database, deck_ids: Collection[int]) -> dict[int, Deck]:
    """``load_deck`` of many decks by id, read together (three queries in all, not three a deck: a
    listing's checks); an id no deck has is left out."""
    from cardbase.db.models import DeckCardTagRow

    ids = sorted(set(deck_ids))
    if not ids:
        return {}
    with database.session() as session:
        decks = session.scalars(select(DeckRow).where(col(DeckRow.id).in_(ids))).all()
        entries = session.execute(
            sa_select(
                col(DeckCardRow.deck_id),
                col(DeckCardRow.card_id),
                col(Card.name),
                col(DeckCardRow.count),
                col(DeckCardRow.section),
            )
            .join(Card, col(Card.id) == DeckCardRow.card_id)
            .where(col(DeckCardRow.deck_id).in_(ids))
            .order_by(col(DeckCardRow.deck_id), col(DeckCardRow.position), col(Card.name))
        ).all()
        tag_rows = session.execute(
            select(DeckCardTagRow.deck_id, DeckCardTagRow.card_id, DeckCardTagRow.tag)
            .where(col(DeckCardTagRow.deck_id).in_(ids))
            .order_by(col(DeckCardTagRow.card_id), col(DeckCardTagRow.tag))
        ).all()
    tags: dict[tuple[int, str], list[str]] = {}
    for deck_id, card_id, tag in tag_rows:
        tags.setdefault((deck_id, card_id), []).append(tag)
    cards: dict[int, list[DeckCard]] = {}
    for deck_id, cid, name, count, section in entries:
        cards.setdefault(deck_id, []).append(
            DeckCard(cid, name, count, section or None, tuple(tags.get((deck_id, cid), ())))
        )
    return {
        row.id: Deck(row.game, tuple(cards.get(row.id, ())), row.name, row.format, row.players).canonical()
        for row in decks
        if row.id is not None
    }


def replace_cards(database: Database, deck_ref: DeckRef, deck: Deck, expected: Expected = None) -> DeckInfo:
    """Make a stored deck hold exactly ``deck``'s cards (every section, in order, with their entry tags),
    format and player count, keeping its name and id: one transaction, all or nothing, recorded as the
    deck's next version. ``deck`` must be of the stored deck's game; a deck at none of the ``expected``
    versions is ``Stale``."""
    if deck.size > MAX_DECK_CARDS:
        raise UsageError(
            f"the deck would hold {deck.size:,} {plural(deck.size, 'card')}; a deck may have at most {MAX_DECK_CARDS:,}"
        )
    with database.transaction() as session:
        row = _get(session, deck_ref, lock=True)
        _check_version(row, expected)
        if deck.game != row.game:
            raise Refused(f"deck {quoted(row.name)} is a {row.game} deck; the list is for {deck.game}")
        _cards_held(session, deck, "the list")
        row.format = _format(deck.format, row.game)
        row.players = _players(deck.players, row.game)
        assert row.id is not None
        delete_deck_tags(session, row.id)
        session.execute(delete(DeckCardRow).where(col(DeckCardRow.deck_id) == row.id))
        canonical = deck.canonical()
        for position, c in enumerate(canonical.cards):
            if isinstance(c.count, bool) or not 1 <= c.count <= MAX_COPIES:
                raise UsageError(f"{c.name}: count must be 1 to {MAX_COPIES}, not {c.count}")
            section = _section(c.section, row.game) or ""
            session.add(
                DeckCardRow(deck_id=row.id, card_id=c.card_id, section=section, count=c.count, position=position)
            )
        session.flush()
        for cid, tags in canonical.entry_tags.items():
            replace_entry_tags(session, row.id, cid, tags)
        _touch(session, row)
        record_version(session, row, database)
        return _info(session, row)


def _keeps_versions(
    name: str, had: str, game: str, versions: list[dict[str, Any]], carried: list[dict[str, Any]] | None
) -> None:
    """Refuse a replace that would lose the replaced deck's versions: a deck of another game (its
    versions are not this deck's), or a file carrying versions of its own that do not hold them (they
    would take their place). A file carrying this deck's versions (a backup imported back) keeps them."""
    from cardbase.errors import counted

    if not versions:
        return
    from cardbase.catalog.fields import GAME_NAMES

    fix = f"import it under another --name, or `cardbase deck delete {quoted(name)}` first"
    advice = f"import it under another name, or delete deck {quoted(name)} first"
    if had != game:
        history = counted(len(versions), "version")

        def cannot_keep(old: str, new: str) -> str:
            return f"deck {quoted(name)} is a {old} deck with {history} of history, which a {new} deck cannot keep"

        raise Conflict(f"{cannot_keep(had, game)}: {fix}").saying(
            f"{cannot_keep(GAME_NAMES.get(had, had), GAME_NAMES.get(game, game))}: {advice}"
        )
    if carried is None:
        return  # the import is the next version

    def key(version: dict[str, Any]) -> str:
        return json.dumps([version[k] for k in ("number", "at", "change", "deck")], sort_keys=True)

    kept = {key(v) for v in carried}
    lost = [v for v in versions if key(v) not in kept]
    if lost:
        replaced = (
            f"deck {quoted(name)} has {counted(len(lost), 'version')} the file's history does not hold, which "
            "the file's versions would replace"
        )
        raise Conflict(f"{replaced}: {fix}").saying(f"{replaced}: {advice}")


def save_deck(
    database: Database,
    deck: Deck,
    name: str,
    replace: bool = False,
    *,
    free_name: bool = False,
    history: list[dict[str, Any]] | None = None,
    change: str | None = None,
) -> int:
    """Store ``deck`` under ``name`` in one transaction (replacing an existing one only if asked); its id.

    ``free_name``: when ``name`` is taken, store it as ``NAME (copy)`` (``(copy 2)``, …) instead.
    ``history``: the versions a deck JSON carried (``deck export --history``), kept as the deck's own.
    A replaced deck of the same game keeps its versions, and the import is the next one."""
    _players(deck.players, deck.game)
    name = _deck_name(name)
    if deck.size > MAX_DECK_CARDS:
        raise UsageError(
            f"deck {quoted(name)} holds {deck.size:,} {plural(deck.size, 'card')}; a deck may have at most "
            f"{MAX_DECK_CARDS:,}"
        )
    try:
        with database.transaction() as session:
            _cards_held(session, deck, f"deck {quoted(name)}")
            alike = _look_alike(session, name)
            existing = (
                None
                if alike is None
                else session.scalars(select(DeckRow).where(DeckRow.id == alike[0]).with_for_update()).first()
            )
            if existing is not None and free_name and not replace:
                name = _copy_name(session, name)
                existing = None
            if existing is not None and not replace:
                taken = _taken(existing.name, name)
                raise (
                    Conflict(f"{taken}; pass --replace to overwrite it")
                    .refusing(name)
                    .saying(f"{taken}; choose another name")
                )
            earlier: list[dict[str, Any]] = []
            after = 0  # the version the stored deck's versions follow
            if existing is not None:
                assert existing.id is not None
                delete_deck_tags(session, existing.id)
                earlier = history_payload_in(session, existing.id)
                _keeps_versions(name, existing.game, deck.game, earlier, history)
                if existing.game == deck.game:  # a replaced deck keeps its versions: nothing is lost
                    after = existing.version
                delete_history(session, existing.id)
                session.execute(delete(DeckCardRow).where(col(DeckCardRow.deck_id) == existing.id))
                session.delete(existing)
                session.flush()
            row = DeckRow(name=name, game=deck.game, format=deck.format, players=deck.players, updated_at=_now())
            if existing is None:
                _insert(session, row)
            else:  # a replaced deck keeps its id: its address, links and open pages still reach it
                row.id = existing.id
                session.add(row)
                session.flush()
            assert row.id is not None
            for position, c in enumerate(deck.canonical().cards):
                session.add(
                    DeckCardRow(
                        deck_id=row.id, card_id=c.card_id, section=c.section or "", count=c.count, position=position
                    )
                )
            session.flush()
            for cid, tags in deck.canonical().entry_tags.items():
                replace_entry_tags(session, row.id, cid, tags)
            kept = history or earlier
            if kept:
                restore_history(session, row.id, kept)
            after = max([after, *(int(v["number"]) for v in kept)])
            if after:
                row.version = after + 1
                session.add(row)
            record_version(session, row, database, change=change)
            return row.id
    except IntegrityError:
        raise _taken(name) from None


def tag_entries(
    database: Database,
    deck_ref: DeckRef,
    card: Card,
    add: list[str] | None = None,
    remove: list[str] | None = None,
    expected: Expected = None,
) -> tuple[str, ...]:
    """Add and remove tags on ``card``'s entries in a deck (the card must be in it), in one transaction; the
    tags it has now. Tags are checked by ``cardbase.names.tag_name``; at most ``TAGS_MAX`` per card. A deck
    at none of the ``expected`` versions is ``Stale``."""
    from cardbase.db.tags import refuse_absent
    from cardbase.names import TAGS_MAX, stored_tag, tag_list

    try:
        adding, removing = tag_list(add or []), tag_list(remove or [])
    except ValueError as error:
        raise UsageError(str(error)).refusing(getattr(error, "value", None)) from None  # the tag refused
    with database.transaction() as session:
        deck = _get(session, deck_ref, lock=True)
        _check_version(deck, expected)
        assert deck.id is not None
        present = session.scalar(
            select(func.count())
            .select_from(DeckCardRow)
            .where(DeckCardRow.deck_id == deck.id, DeckCardRow.card_id == card.id)
        )
        if not present:
            raise Refused(f"{card.name} is not in deck {quoted(deck.name)}; add it before tagging it")
        # a tag stored before the NFKC rule is the tag it now reads as
        held = [stored_tag(t) for t in entry_tags(session, deck.id).get(card.id, ())]
        refuse_absent(removing, held, f"{card.name} in deck {quoted(deck.name)}")
        now = [t for t in (*held, *adding) if t not in removing]
        now = list(dict.fromkeys(now))
        if now == list(dict.fromkeys(held)):  # listing them, or adding one it has: no write, no version
            return tuple(sorted(now))
        if len(now) > TAGS_MAX:
            raise Refused(
                f"{card.name} would have {len(now):,} {plural(len(now), 'tag')} in deck {quoted(deck.name)}; at most "
                f"{TAGS_MAX}"
            )
        replace_entry_tags(session, deck.id, card.id, now)
        _touch(session, deck)
        record_version(session, deck, database)
        return tuple(sorted(now))


def restore_version(
    database: Database, deck_ref: DeckRef, number: int, expected: Expected = None, *, undo: bool = False
) -> tuple[int, int | None]:
    """Make a deck hold what version ``number`` held (its cards, entry tags, format and players; the name
    stays), as its next version, in one transaction: a write like any other (``Stale`` when the deck is at
    none of the ``expected`` versions). ``(deck id, new version number)``; None: it already held that.
    ``undo``: the builder's Undo of the edits after version ``number``, recorded as such with what it
    changed (``undo to @3: −1 Dizzy Bat``), not as "restored version 3"."""
    from cardbase.decks.history import MAX_CHANGE, deck_in_session, describe, version_in

    with database.transaction() as session:
        row = _get(session, deck_ref, lock=True)
        _check_version(row, expected)
        assert row.id is not None
        old = version_in(session, row, number)  # under the lock: the version of the deck written to
        now = deck_in_session(session, row)
        if (now.cards, now.format, now.players) == (old.cards, old.format, old.players):
            return row.id, None
        delete_deck_tags(session, row.id)
        session.execute(delete(DeckCardRow).where(col(DeckCardRow.deck_id) == row.id))
        session.flush()
        _cards_held(session, old, f"version {number}")
        for position, c in enumerate(old.cards):
            session.add(
                DeckCardRow(
                    deck_id=row.id, card_id=c.card_id, section=c.section or "", count=c.count, position=position
                )
            )
        session.flush()
        for cid, tags in old.entry_tags.items():
            replace_entry_tags(session, row.id, cid, tags)
        row.format, row.players = old.format, old.players
        session.add(row)
        session.flush()
        _touch(session, row)
        change = f"restored version {number}"
        if undo:
            change = f"undo to @{number}: {describe(now, deck_in_session(session, row))}"
            change = change if len(change) <= MAX_CHANGE else change[: MAX_CHANGE - 1] + "…"
        return row.id, record_version(session, row, database, change=change)
