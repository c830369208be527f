"""What the deck commands do, apart from the CLI: read, resolve, pick a format, validate."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardbase.decks.catalog import CatalogIndex, IndexEntry, index_of, load_cards, load_index
from cardbase.decks.files import deck_to_text, read_deck
from cardbase.decks.formats import (
    HouseFormats,
    check_format_name,
    default_format,
    find_format,
    formats_hint,
    load_house_formats,
    require_format,
)
from cardbase.decks.model import Deck, DeckText, Problem, worded
from cardbase.decks.validate import NO_GAME_ADVICE, ResolvedDeck, ValidationReport, check_format, resolve
from cardbase.errors import InvalidData, plural, quoted, shown
from cardbase.games.formats import Format

if TYPE_CHECKING:
    from cardbase.db.engine import Database


def catalog_index(database: Database) -> CatalogIndex:
    with database.read() as conn:
        return load_index(conn)


def decode_code(database: Database, code: str) -> Deck:
    """The deck a share code stands for, reading only the cards it names from ``database``."""
    from cardbase.decks.files import decode, read_code

    contents = read_code(code)
    with database.read() as conn:
        return decode(contents, load_index(conn, code=contents))


def resolve_text(
    database: Database, text: DeckText, game: str | None = None, index: CatalogIndex | None = None
) -> ResolvedDeck:
    """``text`` resolved against ``index``, or against the cards it names, read by name from the
    database (a deck's size, not the catalog's); a name the catalog lacks needs every name for its
    "did you mean", so such a deck is resolved again against the whole catalog. The deck's checks may
    ask what the catalog holds of its game (``ResolvedDeck.supply``)."""
    from cardbase.decks.catalog import catalog_supply

    resolved = _resolve_text(database, text, game, index)
    if resolved.game:
        resolved.supply = lambda: catalog_supply(database, resolved.game)
    return resolved


def _resolve_text(database: Database, text: DeckText, game: str | None, index: CatalogIndex | None) -> ResolvedDeck:
    if index is not None:
        return resolve(text, index, game)
    from cardbase.names import fold

    keys = {fold(line.name) for line in text.lines if line.card_id is None}
    ids = {line.card_id for line in text.lines if line.card_id is not None}
    with database.read() as conn:
        named = load_index(conn, keys=keys, also_ids=ids)
    resolved = resolve(text, named, game)
    if any(problem.code == "unknown-card" for problem in resolved.problems):
        return resolve(text, catalog_index(database), game)
    return resolved


DB_PREFIX = "db:"
"""``db:NAME`` names a deck in the database even when a file of that name exists."""


def read_deck_ref(database: Database, ref: str | Path) -> DeckText:
    """The one resolver of a deck argument: a file path, or the name of a deck in the database.

    ``NAME@3`` (or ``db:NAME@3``) is version 3 of the database deck NAME (``deck history``), unless a file
    or a database deck of that very name exists (a deck may be named ``Rush@2``). ``db:NAME`` is always
    the database deck. Otherwise a file that exists wins; if the database also has a deck of that name,
    a warning says how to pick it. A name that is neither is an
    ``UnreadableInput`` listing the database decks of a close name (and the reverse for ``db:``).
    """
    from cardbase.decks.refs import deck_names, split_ref
    from cardbase.errors import UnreadableInput
    from cardbase.fuzzy import closest
    from cardbase.names import fold
    from cardbase.textfiles import path_problem

    names = deck_names(database)
    text = _as_stored(str(ref), names)
    version = split_ref(text.removeprefix(DB_PREFIX))
    if version is not None and version[0] in names and text.removeprefix(DB_PREFIX) not in names and not _exists(text):
        from cardbase.decks.history import load_version

        name, number = version
        return deck_to_text(load_version(database, name, number), f"{DB_PREFIX}{name}@{number}")
    if not text.startswith(DB_PREFIX) and text not in names and (problem := path_problem(text)) is not None:
        raise UnreadableInput(f"{problem}; nor is it the name of a database deck").refusing(text)
    if text.startswith(DB_PREFIX):
        name = text[len(DB_PREFIX) :]
        if name not in names:
            near = closest(name, {fold(n): n for n in names}, n=3, cutoff=0.5)
            hint = f"; did you mean {', '.join(DB_PREFIX + n for n in near)}?" if near else ""
            if _is_file(name):
                hint += f"; a file {quoted(name)} exists: give its path without {DB_PREFIX}"
            raise UnreadableInput(
                f"{shown(text)}: no deck named {quoted(name)} in the database"
                f"{hint or '; `cardbase deck list` shows the decks'}"
            ).refusing(text)
        from cardbase.decks.store import load_deck

        return deck_to_text(load_deck(database, name), text)
    if _exists(text) or text not in names:
        try:
            deck = read_deck(Path(text))
        except UnreadableInput as error:
            if _exists(text):
                raise
            near = closest(text, {fold(n): n for n in names}, n=3, cutoff=0.5)
            file_near = str(error).endswith("?")  # a file of a close name is named (textfiles.missing_file_hint)
            if near:
                listed = f"; {'or ' if file_near else ''}database decks of a close name: "
                listed += ", ".join(DB_PREFIX + n for n in near)
            else:
                listed = "" if file_near else "; nor a deck of that name in the database (`cardbase deck list`)"
            raise UnreadableInput(f"{error}{listed}").refusing(text) from None
        if text in names:
            deck.problems.append(
                Problem(
                    "file-and-database-deck",
                    f"read the file {quoted(text)}; the database also has a deck named {quoted(text)}",
                    None,
                    f"pass {DB_PREFIX}{text} for the database deck",
                    "warning",
                )
            )
        return deck
    from cardbase.decks.store import load_deck

    return deck_to_text(load_deck(database, text), DB_PREFIX + text)


def _as_stored(text: str, names: list[str]) -> str:
    """The deck argument ``text`` with the database deck it names written as the deck is stored, when it
    was typed another way (``names.deck_name_key``: decomposed, full-width, other spaces) and no file
    has that name: ``db:Cafe\u0301@2`` → ``db:Café@2``."""
    from cardbase.decks.refs import split_ref
    from cardbase.names import deck_name_alike

    prefix = DB_PREFIX if text.startswith(DB_PREFIX) else ""
    body = text[len(prefix) :]
    if body in names or (not prefix and _exists(text)):
        return text
    version = split_ref(body)
    name = version[0] if version is not None and version[0] not in names else body
    if name in names or (stored := deck_name_alike(names, name)) is None:
        return text
    return prefix + stored + body[len(name) :]


def _exists(path: str) -> bool:
    try:
        return Path(path).exists() or Path(path).is_symlink()
    except (OSError, ValueError):
        return False


def _is_file(path: str) -> bool:
    try:
        return Path(path).is_file()
    except (OSError, ValueError):
        return False


def resolve_file(
    database: Database, path: str | Path, game: str | None = None, index: CatalogIndex | None = None
) -> ResolvedDeck:
    """Read and resolve a deck (a file or a database deck, see ``read_deck_ref``); errors reading
    it are raised, problems in it are collected."""
    return resolve_text(database, read_deck_ref(database, path), game, index)


def resolve_file_or_fail(
    database: Database,
    path: str | Path,
    game: str | None = None,
    *,
    writes: bool = False,
    index: CatalogIndex | None = None,
) -> ResolvedDeck:
    """Like ``resolve_file``, but a deck with any error (an unknown card, a bad line, no game) is
    refused with every problem listed: ``InvalidData``, exit 1. Warnings do not stop it."""
    resolved = resolve_file(database, path, game, index)
    refused = _refusal(resolved, " or pass --game", writes=writes)
    if refused is not None:
        raise refused
    return resolved


def _refusal(resolved: ResolvedDeck, or_else: str = "", *, writes: bool = True) -> InvalidData | None:
    """The refusal of a resolved deck with errors (each listed), or whose game is still not known (a
    problem of its own, as the command line words it plainly); None: neither."""
    errors = [p for p in resolved.problems if p.severity == "error"]
    if errors:
        return InvalidData(resolved.source, [str(p) for p in errors], writes=writes, found=errors)
    if resolved.game:
        return None
    say = "cannot tell which game this deck is for; add a line 'game: mea' (or meio, meikyu)"
    unknown = Problem(
        "no-game", f"{say}{or_else}", said="cannot tell which game this deck is for", advice=NO_GAME_ADVICE
    )
    return InvalidData(resolved.source, [unknown.message], writes=writes, found=[unknown])


def load_house(formats_file: Path | None, db: Any) -> HouseFormats | None:
    """The house formats of a ``--formats`` file (none without one), every card they name checked
    against the catalog of ``db`` (a ``Database``, or the ``--db`` it is opened from): a bad file is
    refused naming the file, the format and the key; a card not in the catalog with the closest names."""
    if not formats_file:
        return None
    from cardbase.db.engine import Database, open_database
    from cardbase.fuzzy import near_text
    from cardbase.names import fold

    database = db if isinstance(db, Database) else open_database(db)
    with database.read() as conn:
        index = load_index(conn)

    def check_card(game: str, card: str) -> str | None:
        found = index.lookup(card, game)
        if found and fold(found[0].name) != fold(card):
            return f"{card!r} is another name of {found[0].name!r}; write {found[0].name!r}"
        if found:
            return None
        near = index.closest(card, game)
        return f"no {game} card {card!r} in the catalog" + (f"; did you mean {near_text(near)}?" if near else "")

    return load_house_formats(formats_file, check_card)


def choose_format(
    resolved: ResolvedDeck, name: str | None, house: HouseFormats | None = None
) -> tuple[Format | None, list[Problem]]:
    """The format to check against: the option, else the file's header (or the stored deck's
    format), else the game's default; ``house``: the formats of a ``--formats`` file.

    A bad ``--format`` is a usage error; a bad ``format:`` line in the file is a problem.
    """
    if not resolved.game:
        return None, []
    if name:
        return require_format(resolved.game, check_format_name(name).lower(), house), []
    deck = resolved.deck
    if deck.format:
        found = find_format(resolved.game, deck.format, house)
        if found is None:
            named = deck.format
            return None, [
                worded(
                    "unknown-format",
                    lambda game: f"{game(resolved.game)} has no format {quoted(named)}",
                    resolved.game,
                    None,
                    formats_hint(resolved.game, house),
                    advice=formats_hint(resolved.game, house, for_players=True),
                )
            ]
        return found, []
    split = any(c.section for c in deck.main.cards)
    return find_format(resolved.game, default_format(resolved.game, deck.players, split), house), []


def validate_resolved(
    resolved: ResolvedDeck, format_name: str | None = None, house: HouseFormats | None = None
) -> tuple[ValidationReport, Format | None]:
    fmt, problems = choose_format(resolved, format_name, house)
    problems = resolved.problems + problems + (check_format(resolved, fmt) if fmt else [])
    problems.sort(key=lambda p: (p.severity == "warning", p.line is None, p.line or 0))
    report = ValidationReport(
        resolved.source, resolved.game, fmt.name if fmt else "", resolved.deck.main.size, problems
    )
    return report, fmt


# --- decks in the database, for both faces ---------------------------------------------------


def resolve_stored(database: Database, deck: int | str) -> ResolvedDeck:
    """A database deck (by id or name) resolved as ``db:NAME``, against an index of its own cards only
    (a stored deck names its cards by id, so resolving it costs its size, not the catalog's)."""
    from cardbase.decks.store import load_deck

    return resolve_loaded(database, load_deck(database, deck))


def resolve_loaded(database: Database, stored: Deck) -> ResolvedDeck:
    """``resolve_stored`` of a database deck already read (``decks.store.edit_entry`` answers one)."""
    return resolve_known(database, stored)[0]


def resolve_known(
    database: Database, stored: Deck, known: Mapping[str, IndexEntry] | None = None
) -> tuple[ResolvedDeck, CatalogIndex]:
    """``resolve_loaded``, and the index of its cards it was resolved against. ``known``: cards read before
    (``CatalogIndex.entries`` of an earlier version's index, while the catalog and card tags have not changed
    since), not read again: an edit's deck reads only a card the version before lacked."""
    ids = {c.card_id for c in stored.cards}
    entries = {i: known[i] for i in ids if i in known} if known else {}
    if len(entries) < len(ids):
        with database.read() as conn:
            entries |= load_cards(conn, ids - entries.keys())
    index = index_of(entries)
    return resolve_text(database, deck_to_text(stored, DB_PREFIX + (stored.name or "")), index=index), index


def resolve_version(database: Database, deck: int | str, number: int) -> ResolvedDeck:
    """Version ``number`` of a database deck resolved as ``db:NAME@N`` (against an index of its own cards)."""
    from cardbase.decks.history import version_in
    from cardbase.decks.store import _get

    with database.session() as session:  # one read: the name and the version of one deck
        row = _get(session, deck)
        name, old = row.name, version_in(session, row, number)
    with database.read() as conn:
        index = load_index(conn, ids={c.card_id for c in old.cards})
    return resolve_text(database, deck_to_text(old, f"{DB_PREFIX}{name}@{number}"), index=index)


def show_dict(resolved: ResolvedDeck, report: ValidationReport, name: str) -> dict[str, Any]:
    """The object of ``deck show --json``: the deck, every entry with its section, and its validation."""
    return {
        "deck": resolved.deck.name or name,
        "source": resolved.source,
        "game": resolved.game,
        "cards": [
            {
                "count": c.count,
                "name": c.name,
                "id": c.card_id,
                "section": c.section,
                "tags": list(c.tags),
                "card_tags": list(resolved.cards[c.card_id].tags) if c.card_id in resolved.cards else [],
            }
            for c in resolved.deck.cards
        ],
        "validation": report.as_dict(),
    }


def read_deck_data(text: str, source: str) -> DeckText:
    """A deck given as text, e.g. pasted or uploaded, in any form ``parse_deck_text`` reads; 1 MB at most."""
    from cardbase.decks.files import parse_deck_text
    from cardbase.decks.text import MAX_BYTES
    from cardbase.errors import UnreadableInput

    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_BYTES:
        raise UnreadableInput(f"{source}: {size:,} {plural(size, 'byte')}; a deck may have at most {MAX_BYTES:,}")
    read = parse_deck_text(text, source)
    read.given = text
    return read


def import_deck(
    database: Database,
    deck: DeckText | Deck,
    *,
    name: str | None = None,
    replace: bool = False,
    game: str | None = None,
) -> tuple[int, ResolvedDeck]:
    """Store a deck read from text, JSON or a share code: all of it, or nothing if any entry is bad
    (``InvalidData`` listing every problem). Without ``name``: the deck's own name, else
    ``Imported GAME deck``, made free with ``(copy N)`` if taken. Returns the new deck's id."""
    from cardbase.decks.store import save_deck

    text = deck_to_text(deck, "share code") if isinstance(deck, Deck) else deck
    resolved = resolve_text(database, text, game)
    refused = _refusal(resolved)
    if refused is not None:
        raise refused.refusing(text.given) if text.given is not None else refused
    chosen = name or resolved.deck.name or f"Imported {resolved.game} deck"
    deck_id = save_deck(
        database, resolved.deck, chosen, replace, free_name=name is None, history=resolved.history, change="imported"
    )
    return deck_id, resolved
