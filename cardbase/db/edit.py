"""Cards added and edited one at a time (``catalog add``/``edit``, the web's editor), with their history.

A value typed for a field is checked by the import's rules, through the import's own reader
(``cardbase.db.io.parse_rows``: the same conversions, ranges, name and text rules), and written by
the import's own step (``cardbase.db.catalog.apply_values``). So whatever an edit stores, an
export writes and an import reads back.

- Every add, edit and revert is one transaction that records a ``card_edit`` row: who (``cli`` or
  the web server's user), when, and each changed field's value before and after.
- A card's id never changes: an edit of its values keeps it, and a rename keeps it too, with the
  old name kept as an alias, so deck files (by name) and share codes (by short id) still find it.
- An edited card's ``source`` becomes ``user``; a card imported from a file keeps ``file:…``, and a
  change of only its tags, notes or aliases (the owner's notes on it, not its values) keeps any source.
- ``version`` (a digest of the card's stored values) lets a writer say which state it edited: an
  edit of another state is a ``StaleEdit`` (the web's 412).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlmodel import col, select

from cardbase.catalog.fields import (
    APPLICABLE,
    DEFAULT_SET,
    GAME_FIELDS,
    NOT_APPLICABLE,
    SOURCE_USER,
    inapplicable_problem,
    inapplicable_values,
)
from cardbase.db.models import Card, CardAlias, CardEditRow, card_id, short_id
from cardbase.errors import Conflict, InvalidData, Refused, UnknownCard, UsageError, counted, quoted
from cardbase.games.base import SOURCE_FILE_PREFIX
from cardbase.names import fold

if TYPE_CHECKING:
    from sqlmodel import Session

    from cardbase.db.engine import Database

MAX_FIELDS = 40
"""Fields one edit may give (a game has at most 16)."""
MAX_WHO = 200
EDITABLE = {game: tuple(f.name for f in fields if f.name != "set") for game, fields in GAME_FIELDS.items()}
"""The fields an edit may change: every field of the game but its set (the set is part of the card's id)."""
CLEARABLE_MARKERS = frozenset({"", "?", "unknown", "null", "none"})
KEEP_SOURCE = frozenset({"tags", "notes", "aliases"})
"""Fields that are the owner's notes on a card, not its values: changing only them keeps its source."""
PREVIEW = "preview"
"""What ``check_values`` calls values checked only to draw them (its messages say nothing is written)."""


class StaleEdit(Conflict):
    """The card changed since the writer read it (the web answers 412 with the current version)."""

    exit_code = 1

    def __init__(self, message: str, current: str):
        super().__init__(message)
        self.current = current


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def card_values(card: Card, aliases: list[str], tags: list[str] | None = None) -> dict[str, Any]:
    """The card's editable values as stored (abilities as data), with its aliases and tags."""
    out: dict[str, Any] = {}
    for name in EDITABLE[card.game]:
        if name == "aliases":
            out[name] = sorted(aliases)
        elif name == "tags":
            out[name] = sorted(tags or [])
        elif name == "abilities":
            out[name] = json.loads(card.abilities) if card.abilities else None
        else:
            out[name] = getattr(card, name)
    return out


def card_version(card: Card, aliases: list[str], tags: list[str] | None = None) -> str:
    """A digest of a card's stored values: changes whenever any of them does (its ETag)."""
    data = json.dumps([card.source, card_values(card, aliases, tags)], sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(data.encode()).hexdigest()[:20]


def _aliases(session: Session, cid: str) -> list[str]:
    return sorted(session.scalars(select(CardAlias.alias).where(CardAlias.card_id == cid)))


def _tags(session: Session, cid: str) -> list[str]:
    from cardbase.db.tags import card_tags

    return card_tags(session, [cid]).get(cid, [])


def _version(session: Session, card: Card) -> str:
    return card_version(card, _aliases(session, card.id), _tags(session, card.id))


def parse_assignments(pairs: list[str]) -> dict[str, str]:
    """``["cost=3", "text=Draw 1 card."]`` as a mapping of field to typed value; a pair without ``=`` is an error."""
    if len(pairs) > MAX_FIELDS:
        raise UsageError(f"{counted(len(pairs), 'field')}; one edit gives at most {MAX_FIELDS}")
    out: dict[str, str] = {}
    for pair in pairs:
        field, sep, value = pair.partition("=")
        if not sep or not field.strip():
            raise UsageError(
                f"{quoted(pair)}: write FIELD=VALUE, e.g. cost=3 (an empty value makes it unknown)"
            ).refusing(pair)
        if field.strip() in out:
            raise UsageError(f"{quoted(field.strip())} is given twice")
        out[field.strip()] = value
    return out


def _refusing_fields(error: InvalidData, problems: list[str], cells: Mapping[str, Any]) -> InvalidData:
    """``error`` refusing the text given each field a problem names (``column 'cost': …``), so that a
    form or an API names those fields in its first line (``CardbaseError.values``)."""
    bad = [cells[name] for name in cells if any(p.startswith(f"column {quoted(name)}:") for p in problems)]
    return error.refusing(*bad) if bad else error


LIST_FIELDS = ("tags", "aliases")
"""The text fields that hold a list (given as a list, or as one text of '; '-separated items)."""


def check_values(
    game: str, values: Mapping[str, Any], where: str, *, new: bool, name: str | None = None
) -> tuple[dict[str, Any], set[str]]:
    """``values`` typed by a person (field name or synonym → text or value), checked by the import's
    rules: the record as the import would write it, and the fields set to unknown (an empty value or
    ``?``). Every bad field is named in one ``InvalidData``."""
    from cardbase.catalog.fields import field_for_header
    from cardbase.db.io import SourceRow, parse_rows
    from cardbase.textfiles import check_characters

    if len(values) > MAX_FIELDS:
        raise UsageError(f"{counted(len(values), 'field')}; one edit gives at most {MAX_FIELDS}")
    check_characters(dict(values), where)  # JSON can write a lone surrogate, which no text can hold or store
    problems: list[str] = []
    cells: dict[str, Any] = {}
    cleared: set[str] = set()
    refused: set[str] = set()  # said once: the reading below would add that the field is missing
    for heading, value in values.items():
        f = field_for_header(game, str(heading))
        if f is None:
            editable = ", ".join(EDITABLE[game])
            problems.append(f"{quoted(str(heading))} is not a {game} card field ({editable})")
            continue
        if f.name == "set" and not new:
            problems.append("column 'set': a card's set is part of its id; add the card to the other set instead")
            continue
        if f.name in cells:
            problems.append(f"column {quoted(f.name)}: given twice")
            continue
        if isinstance(value, list | tuple) and f.kind is not list and f.name not in LIST_FIELDS:
            # a cell's reading would join it with '; ' (["a", "b"] the name 'a; b'): a list is only a list's
            problems.append(f"column {quoted(f.name)}: one value, not a list")
            refused.add(f.name)
            continue
        if isinstance(value, str) and value.strip().lower() in CLEARABLE_MARKERS and f.name not in ("name", "set"):
            if f.name == "type":
                problems.append("column 'type': a card needs a type")
                continue
            cleared.add(f.name)
        cells[f.name] = value
    if "name" not in cells:
        cells["name"] = name or ""  # an edit that keeps the name
    parsed = parse_rows(game, where, list(cells), iter([SourceRow(where, cells)]))
    read = [p.replace(f"{where}, ", "", 1).replace(f"{where}: ", "", 1) for p in parsed.problems]
    problems += [p for p in read if not any(p.startswith(f"column {quoted(gone)}:") for gone in refused)]
    if problems:
        raise _refusing_fields(InvalidData(where, problems, writes=where != PREVIEW), problems, cells)
    record = next(iter(parsed.records.values()))[0]
    record.pop("_where", None)
    set_code = next(iter(parsed.records))
    if new or "set" in cells:
        record["set"] = set_code
    return record, cleared


@dataclass(frozen=True, slots=True)
class EditResult:
    """A card after a change: its id, name, version, and the fields that changed (before, after)."""

    id: str
    name: str
    version: str
    changed: dict[str, tuple[Any, Any]]


def record_edit(session: Session, cid: str, who: str, action: str, changed: dict[str, tuple[Any, Any]]) -> None:
    """Add the history row of a change to card ``cid`` (in the caller's transaction)."""
    session.add(
        CardEditRow(
            card_id=cid,
            at=_now(),
            who=who[:MAX_WHO],
            action=action,
            before=json.dumps({k: v[0] for k, v in changed.items()}, ensure_ascii=False, default=str),
            after=json.dumps({k: v[1] for k, v in changed.items()}, ensure_ascii=False, default=str),
        )
    )


def _name_taken(session: Session, card: Card, name: str) -> str | None:
    """The card of ``card``'s game and set that already has ``name`` as its name or an alias (not ``card``)."""
    key = fold(name)
    query = select(Card).where(
        Card.game == card.game,
        Card.set_code == card.set_code,
        col(Card.search_names).contains(f"|{key}|", autoescape=True),
        Card.id != card.id,
    )
    other: Card
    for other in session.scalars(query):
        if fold(other.name) == key or key in {fold(a) for a in _aliases(session, other.id)}:
            return other.name
    return None


def _apply(
    session: Session, card: Card, record: dict[str, Any], cleared: set[str], who: str, action: str, *, origin: str
) -> dict[str, tuple[Any, Any]]:
    """Write a checked record onto ``card`` in the caller's transaction, with its history row (``action``);
    returns what changed (nothing: no row)."""
    from cardbase.db.catalog import apply_values, derived_problems
    from cardbase.db.tags import replace_card_tags

    aliases = _aliases(session, card.id)
    tags = _tags(session, card.id)
    before = card_values(card, aliases, tags)
    record = dict(record)
    new_name = record.pop("name", card.name)
    alias_list = record.pop("aliases", None)
    tag_list = record.pop("tags", None)
    for name in cleared:
        if name == "aliases":
            alias_list = []
        elif name == "tags":
            tag_list = []
        else:
            record[name] = None
    if tag_list is not None:
        replace_card_tags(session, card.id, tag_list)
        tags = sorted(set(tag_list))
    if new_name != card.name:
        if (taken := _name_taken(session, card, new_name)) is not None:
            raise Conflict(
                f"{quoted(new_name)}: the card {quoted(taken)} of set {quoted(card.set_code)} already has this name"
            )
        old = card.name
        card.name = new_name
        if fold(old) != fold(new_name):
            alias_list = sorted({*(alias_list if alias_list is not None else aliases), old})
    if alias_list is not None:
        wanted = {a for a in alias_list if fold(a) != fold(card.name)}
        for alias in wanted:
            if (taken := _name_taken(session, card, alias)) is not None:
                raise Conflict(f"the alias {quoted(alias)} is already the name or an alias of {quoted(taken)}")
        for row in session.scalars(select(CardAlias).where(CardAlias.card_id == card.id)):
            if row.alias not in wanted:
                session.delete(row)
        for alias in sorted(wanted - set(aliases)):
            session.add(CardAlias(card_id=card.id, alias=alias))
        aliases = sorted(wanted)
    if "type" in record:
        card.type = record.pop("type")
    values = card.model_dump()
    apply_values(values, record, aliases, origin)
    if derived := derived_problems(values, record):
        raise InvalidData(origin, derived, writes=origin != PREVIEW).refusing(str(record["min_players"]))
    if wrong := inapplicable_values(card.game, card.type, values):
        problems = [
            inapplicable_problem(card.game, card.type, f, stored=None if f in record else values[f]) for f in wrong
        ]
        error = InvalidData(origin, problems, writes=origin != PREVIEW)
        given = [str(record[f]) for f in wrong if f in record]
        raise error.refusing(given[0], *given[1:]) if given else error
    for name, value in values.items():
        setattr(card, name, value)
    after = card_values(card, aliases, tags)
    changed = {k: (before[k], after[k]) for k in after if before[k] != after[k]}
    if action == "add":
        changed = {k: (None, v) for k, v in after.items() if v not in (None, [])}
    if changed:
        if set(changed) - KEEP_SOURCE and not card.source.startswith(SOURCE_FILE_PREFIX):
            card.source = SOURCE_USER
        session.add(card)
        session.flush()
        record_edit(session, card.id, who, action, changed)
    return changed


def _locked(session: Session, cid: str) -> Card:
    card: Card | None = session.scalars(select(Card).where(Card.id == cid).with_for_update()).first()
    if card is None:
        raise UnknownCard(cid.rsplit("/", 1)[-1], None, [])
    return card


def edit_card(
    database: Database, cid: str, values: Mapping[str, Any], who: str, *, expected: frozenset[str] | None = None
) -> EditResult:
    """Change a card's fields (``values``: field → typed text; empty or ``?`` makes a value unknown), in one
    transaction with its history row. ``expected``: the versions the writer may have seen (``StaleEdit``
    at any other)."""
    if not values:
        raise UsageError("give at least one FIELD=VALUE to change")
    with database.transaction() as session:
        card = _locked(session, cid)
        current = _version(session, card)
        if expected is not None and current not in expected:
            raise StaleEdit(
                f"{quoted(card.name)} changed since you read it (version {current}); reload it and edit again", current
            )
        return _edit_locked(session, card, values, who)


def _edit_locked(session: Session, card: Card, values: Mapping[str, Any], who: str) -> EditResult:
    """``edit_card``'s change of ``card``, locked in the write transaction of ``session``."""
    where = f"card {quoted(card.name)}"
    record, cleared = check_values(card.game, values, where, new=False, name=card.name)
    changed = _apply(session, card, record, cleared, who, "edit", origin=where)
    return EditResult(card.id, card.name, _version(session, card), changed)


def add_card(database: Database, game: str, values: Mapping[str, Any], who: str) -> EditResult:
    """A new card of ``game`` from ``values`` (a name and a type at least; the set defaults to the game's
    import default), with source ``user`` and its ``add`` history row, in one transaction. A name its set
    already has (as a name or an alias) is a ``Conflict``."""
    from cardbase.db.catalog import ensure_games, ensure_set

    where = f"new card {quoted(str(values.get('name', '')))}"
    record, cleared = check_values(game, values, where, new=True)
    if "type" not in record:
        raise InvalidData(where, [f"a new card needs a type ({', '.join(_types(game))})"])
    set_code = record.pop("set", DEFAULT_SET[game])
    cid = card_id(game, set_code, record["name"])
    with database.transaction() as session:
        ensure_games(session)
        ensure_set(session, game, set_code, None, SOURCE_USER, "cards entered in cardbase")
        existing = session.get(Card, cid)
        probe = Card(
            id=cid, short_id=0, game=game, set_code=set_code, name=record["name"], type="", source="", search_names=""
        )
        if existing is not None or (taken := _name_taken(session, probe, record["name"])) is not None:
            other = existing.name if existing is not None else taken
            had = f"{quoted(record['name'])}: set {quoted(set_code)} of {game} already has the card {quoted(other)}"
            raise Conflict(f"{had} ({cid}); edit it with `cardbase catalog edit`").saying(
                f"{had}; open it and edit it on its Edit page"
            )
        sid = short_id(cid)
        if session.scalars(select(Card.id).where(Card.short_id == sid)).first() is not None:
            raise Conflict(f"{quoted(record['name'])}: its short id {sid} is another card's; choose another name")
        card = Card(
            id=cid,
            short_id=sid,
            game=game,
            set_code=set_code,
            name=record["name"],
            type=record.pop("type"),
            source=SOURCE_USER,
            search_names="",
        )
        session.add(card)
        session.flush()
        changed = _apply(session, card, record, cleared, who, "add", origin=where)
        return EditResult(cid, card.name, _version(session, card), changed)


def _types(game: str) -> list[str]:
    from cardbase.catalog.fields import GAME_TYPES

    return list(GAME_TYPES[game])


MAX_HISTORY_SHOWN = 1_000
"""Edits ``card_history`` returns at most (newest first); the rest stay stored."""


def card_history(database: Database, cid: str, limit: int = MAX_HISTORY_SHOWN) -> list[dict[str, Any]]:
    """A card's edits, newest first: ``{"id", "at", "who", "action", "before", "after"}``."""
    with database.session() as session:
        if session.get(Card, cid) is None:
            raise UnknownCard(cid.rsplit("/", 1)[-1], None, [])
        rows = session.scalars(
            select(CardEditRow).where(CardEditRow.card_id == cid).order_by(col(CardEditRow.id).desc()).limit(limit)
        ).all()
        return [
            {
                "id": r.id,
                "at": r.at,
                "who": r.who,
                "action": r.action,
                "before": json.loads(r.before),
                "after": json.loads(r.after),
            }
            for r in rows
        ]


def edit_kinds(game: str, type_now: str, edits: list[dict[str, Any]]) -> list[tuple[tuple[str, str], tuple[str, str]]]:
    """For each edit of ``card_history`` (newest first), the card's (game, type) before and after it, read
    back from the card's type now through the edits that changed it: what ``shown_value`` needs."""
    kinds = []
    after = type_now
    for e in edits:
        before = str(e["before"].get("type") or after) if "type" in e["after"] else after
        kinds.append(((game, before), (game, after)))
        after = before
    return kinds


MAX_EDIT_ID = 2**31 - 1
"""The largest edit id: ``card_edit.id`` is an ``integer`` (32 bits on PostgreSQL)."""


def revert_edit(
    database: Database, cid: str, edit_id: int, who: str, *, expected: frozenset[str] | None = None
) -> EditResult:
    """Put back the values an edit changed (its ``before``), as a new ``revert`` edit; nothing is lost. A
    value the rules derive (``DERIVED_FIELDS``) is not put back: it follows the values that are."""
    from cardbase.db.catalog import DERIVED_FIELDS

    with database.transaction() as session:
        card = _locked(session, cid)
        current = _version(session, card)
        if expected is not None and current not in expected:
            raise StaleEdit(f"{quoted(card.name)} changed since you read it (version {current}); reload it", current)
        # an edit id is a 32-bit integer column (PostgreSQL refuses to compare a larger number with it)
        row = session.get(CardEditRow, edit_id) if 1 <= edit_id <= MAX_EDIT_ID else None
        if row is None or row.card_id != cid:
            raise Refused(f"{quoted(card.name)} has no edit {edit_id}; `cardbase catalog history` lists them").saying(
                f"{quoted(card.name)} has no edit {edit_id}; the card's history lists them"
            )
        before: dict[str, Any] = json.loads(row.before)
        if row.action == "add" or not before:
            raise Refused(f"edit {edit_id} made the card; there is nothing before it to put back")
        if row.action == "art":
            raise Refused(f"edit {edit_id} changed the art; upload the art you want instead (art is not kept twice)")
        typed: dict[str, Any] = {}
        for name, value in before.items():
            if name in DERIVED_FIELDS.get(card.game, ()):
                continue  # it follows the values put back (a database from before the rule may hold another)
            if name == "abilities":
                typed[name] = value if value is not None else ""
            elif name in ("aliases", "tags"):
                typed[name] = "; ".join(value or []) or ""
            else:
                typed[name] = "" if value is None else value
        record, cleared = check_values(card.game, typed, f"card {quoted(card.name)}", new=False, name=card.name)
        changed = _apply(session, card, record, cleared, who, "revert", origin=f"edit {edit_id}")
        return EditResult(card.id, card.name, _version(session, card), changed)


def card_state(database: Database, cid: str) -> tuple[Card, list[str], str]:
    """A card, its aliases and its version (to edit it)."""
    with database.session() as session:
        card = session.get(Card, cid)
        if card is None:
            raise UnknownCard(cid.rsplit("/", 1)[-1], None, [])
        aliases = _aliases(session, cid)
        version = _version(session, card)
        session.expunge(card)
        return card, aliases, version


def retag_card(
    database: Database, cid: str, add: list[str], remove: list[str], who: str, *, expected: frozenset[str] | None = None
) -> list[str]:
    """Add and remove a card's tags (an edit, kept in its history); its tags now, sorted. The tags are
    read in the write's transaction, the card locked: a tag another writer added meanwhile is kept.
    ``expected``: the card versions the writer may have seen, as :func:`edit_card` takes them."""
    from cardbase.db.tags import card_tags, refuse_absent
    from cardbase.names import stored_tag, tag_list

    try:
        adding, removing = tag_list(add), tag_list(remove)
    except ValueError as error:
        raise UsageError(str(error)).refusing(getattr(error, "value", None)) from None  # the tag refused
    with database.transaction() as session:
        card = _locked(session, cid)  # a change of nothing is still of a card that must exist
        if expected is not None and (current := _version(session, card)) not in expected:
            raise StaleEdit(f"{quoted(card.name)} changed since you read it (version {current}); reload it", current)
        now = card_tags(session, [cid]).get(cid, [])
        # a tag stored before the NFKC rule is the tag it now reads as: taken off by it, rewritten with the rest
        refuse_absent(removing, map(stored_tag, now), quoted(card.name))
        wanted = [t for t in dict.fromkeys([*map(stored_tag, now), *adding]) if t not in removing]
        if wanted != now:
            _edit_locked(session, card, {"tags": "; ".join(wanted)}, who)
    return sorted(wanted)


def shown_value(value: Any, limit: int = 300, field: str | None = None, kind: tuple[str, str] | None = None) -> str:
    """A stored value of ``field`` as a history shows it: ``?`` for unknown — but ``(none)`` for the owner's
    notes, tags and aliases, which are never unknown, only absent, and ``—`` for a value of the game that
    does not apply to the card's type (``kind``: game and type; a character's level), as the card's page
    shows it —, lists joined, abilities counted, long text cut."""
    if value is None:
        if field in KEEP_SOURCE:
            return "(none)"
        if kind is not None and field is not None:
            of_game = {f for (g, _), fs in APPLICABLE.items() if g == kind[0] for f in fs}
            if field in of_game and field not in APPLICABLE.get(kind, ()):
                return NOT_APPLICABLE
        return "?"
    if isinstance(value, list):
        if any(isinstance(v, dict | list) for v in value):
            return f"{counted(len(value), 'sentence')} as data"
        return "; ".join(map(str, value)) or "(none)"
    text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
