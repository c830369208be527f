"""``cardbase deck``: deck files (validate, stats, codes) and decks kept in the database."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cardbase.cli import complete
from cardbase.cli.common import (
    DbOption,
    FormatsOption,
    JsonOption,
    checked_path,
    console,
    deck_notes,
    echo,
    one_line,
    open_db,
    print_json,
    say_done,
)
from cardbase.errors import counted, plural

if TYPE_CHECKING:  # imported lazily at run time
    from cardbase.db.engine import Database
    from cardbase.decks.formats import HouseFormats
    from cardbase.decks.owned import OwnedReport
    from cardbase.decks.validate import ResolvedDeck, ValidationReport

app = typer.Typer(
    help="Build, check and share decks.\n\nExample: cardbase deck validate examples/decks/mea-goblin-rush.txt",
    no_args_is_help=True,
)

DeckFile = Annotated[
    str,
    typer.Argument(
        shell_complete=complete.decks,
        help="Deck: a file (text, 3 Selounticia per line, or JSON) or the name of a deck in the database "
        "(db:NAME when a file of that name exists).",
    ),
]
GameOpt = Annotated[
    str | None,
    typer.Option("--game", "-g", shell_complete=complete.games, help="Game, when the file has no 'game:' line."),
]
FormatOpt = Annotated[
    str | None,
    typer.Option(
        "--format",
        shell_complete=complete.deck_formats,
        help="Format to check against (default: the file's, else the game's standard).",
    ),
]


def _print_problems(report: ValidationReport) -> None:
    status = "valid" if report.valid else "INVALID"
    echo(
        f"{report.source}: {report.game or '?'} deck, {counted(report.cards, 'card')}, format {report.format or '?'}: "
        f"{status}"
    )
    for p in report.problems:
        where = f"line {p.line}: " if p.line else ""
        echo(f"  {p.severity} [{p.code}] {where}{p.named()}" + (f" — {p.hint}" if p.hint else ""))


def _resolved_without_errors(db: str | None, file: str, game: str | None, writes: bool = False) -> ResolvedDeck:
    from cardbase.db.queries import check_game
    from cardbase.decks.service import resolve_file_or_fail

    resolved = resolve_file_or_fail(open_db(db), file, check_game(game), writes=writes)
    deck_notes(resolved)
    return resolved


def _owned(database: Database, resolved: ResolvedDeck) -> OwnedReport | None:
    """The deck against the collection, or None when the collection is empty (or the deck has no game)."""
    from cardbase.decks.owned import owned_if_any

    return owned_if_any(database, resolved.game, resolved.deck)


def _finish(report: ValidationReport, json: bool, owned: OwnedReport | None = None) -> None:
    if json:
        print_json(report.as_dict() | {"collection": owned.as_dict() if owned else None})
    else:
        _print_problems(report)
        if owned:
            echo(owned.summary())
    if not report.valid:
        raise typer.Exit(1)


@app.command()
def validate(
    file: DeckFile,
    format: FormatOpt = None,
    formats: FormatsOption = None,
    game: GameOpt = None,
    db: DbOption = None,
    json: JsonOption = False,
) -> None:
    """Check a deck against its game's rules and report every problem at once, with line numbers and hints.

    Exit 0 valid, 1 invalid, 2 unreadable or bad usage.

    Example: cardbase deck validate examples/decks/mea-goblin-rush.txt
    """
    from cardbase.db.queries import check_game
    from cardbase.decks.service import resolve_file, validate_resolved

    database = open_db(db)
    resolved = resolve_file(database, file, check_game(game))
    report, _ = validate_resolved(resolved, format, _house(formats, db))
    _finish(report, json, _owned(database, resolved))


@app.command()
def stats(
    file: DeckFile,
    format: FormatOpt = None,
    formats: FormatsOption = None,
    game: GameOpt = None,
    db: DbOption = None,
    json: JsonOption = False,
) -> None:
    """Counts by type and the game's numbers: Méa mana curve and averages, Meikyu bravery and wits, Meio suits.

    Unknown values are counted as unknown, never guessed.

    Example: cardbase deck stats examples/decks/mea-goblin-rush.txt --json
    """
    from cardbase.decks.service import choose_format
    from cardbase.decks.stats import deck_stats, stats_lines

    resolved = _resolved_without_errors(db, file, game)
    fmt, _ = choose_format(resolved, format, _house(formats, db))
    data = deck_stats(resolved, fmt)
    if json:
        print_json(data)
        return
    out = console()
    title = data["name"] or one_line(resolved.source)
    out.print(f"{title}: {counted(data['cards'], 'card')} ({data['distinct']} distinct), {data['game']}")
    out.print("by type: " + ", ".join(f"{t} {n}" for t, n in data["by_type"].items()))
    if data["copy_limit"]:
        out.print(
            f"format {data['format']}: {data['copy_limit']}"
            + (" (the rulebook sets none)" if data["copy_limit"] == "no copy limit" else "")
        )
    if data["demo_cards"]:
        out.print(f"{counted(data['demo_cards'], 'demo card')} (made for cardbase, not published)")
    if data["side_sections"]:
        out.print(
            "not counted: "
            + ", ".join(f"[{k}] {n}" for k, n in data["side_sections"].items())
            + " (only the main deck is)"
        )
    if data["by_tag"]:
        out.print("by tag: " + ", ".join(f"{t} {n}" for t, n in data["by_tag"].items()))
    for line in stats_lines(data):
        out.print(line)


@app.command()
def encode(file: DeckFile, game: GameOpt = None, db: DbOption = None) -> None:
    """Print a deck file's share code (a short text that `deck decode` turns back into the deck).

    Example: cardbase deck encode examples/decks/mea-goblin-rush.txt
    """
    from cardbase.decks.files import encode as encode_deck

    resolved = _resolved_without_errors(db, file, game)
    echo(encode_deck(resolved.deck, {cid: c.short_id for cid, c in resolved.cards.items()}))


@app.command()
def decode(
    code: Annotated[str, typer.Argument(help="A deck code, or a share link holding one (…/decks/new?code=…).")],
    to: Annotated[
        str, typer.Option("--to", shell_complete=complete.choices("text", "json"), help="text or json.")
    ] = "text",
    db: DbOption = None,
) -> None:
    """Turn a share code or share link back into the deck (as a text deck list, or JSON).

    Example: cardbase deck decode "$(cardbase deck encode examples/decks/meio-hand.txt)" --to json
    """
    from cardbase.decks.files import write_deck
    from cardbase.decks.service import decode_code

    deck = decode_code(open_db(db), code)
    echo(write_deck(deck, to), nl=False)


@app.command()
def convert(
    file: DeckFile,
    to: Annotated[
        str,
        typer.Option(
            "--to",
            shell_complete=complete.choices("text", "json", "code", "arena", "plain", "mtgo", "cod", "ydk"),
            help="text, json, code, or another tool's form (as deck export --format).",
        ),
    ] = "json",
    game: GameOpt = None,
    db: DbOption = None,
) -> None:
    """Rewrite a deck file in another form (text, JSON, share code or another tool's list).

    Example: cardbase deck convert examples/decks/mea-goblin-rush.txt --to json > exports/goblin-rush.json
    """
    from cardbase.decks.files import write_deck

    resolved = _resolved_without_errors(db, file, game)
    echo(write_deck(resolved.deck, to), nl=False)


# --- decks in the database -------------------------------------------------------------------


@app.command()
def new(
    name: Annotated[str, typer.Argument(help="Deck name.", shell_complete=complete.stored_decks)],
    game: Annotated[str, typer.Option("--game", "-g", shell_complete=complete.games, help="mea, meio or meikyu.")],
    format: FormatOpt = None,
    players: Annotated[int | None, typer.Option("--players", min=2, max=4, help="Meio: 2, 3 or 4.")] = None,
    formats: FormatsOption = None,
    db: DbOption = None,
) -> None:
    """Make an empty deck in the database.

    Example: cardbase deck new "My Deck" --game mea
    """
    from cardbase.db.queries import check_game
    from cardbase.decks.store import new_deck

    game = check_game(game) or ""
    new_deck(open_db(db), name, game, format, players, _house(formats, db))
    echo(f"made deck {name!r}")


def _house(formats: Path | None, db: str | None) -> HouseFormats | None:
    from cardbase.decks.service import load_house

    return load_house(formats, db)


@contextmanager
def _database_deck(name: str, command: str) -> Iterator[None]:
    """``deck COMMAND NAME``, a command of a deck kept in the database, given the path of a deck file
    (a newcomer's first try, as `deck validate` takes one): the refusal says it is a file and names the
    command that stores a deck file, rather than only that no deck has that name."""
    from cardbase.decks.store import UnknownDeck
    from cardbase.errors import quoted

    try:
        yield
    except UnknownDeck:
        path = name.removeprefix("db:")
        try:
            is_file = Path(path).is_file()
        except (OSError, ValueError):
            is_file = False
        if not is_file:
            raise
        import shlex

        raise UnknownDeck(  # any file: the database itself too (which deck import refuses), so not called a deck
            f"no deck named {quoted(path)} in the database; {quoted(path)} is a file, and `deck {command}` works on "
            f"a deck kept in the database: a deck file is stored with `cardbase deck import {shlex.quote(path)}`, "
            "then named by the name it says it stored"
        ).refusing(name) from None


@app.command("set")
def set_(
    deck: Annotated[str, typer.Argument(help="Deck name.", shell_complete=complete.stored_decks)],
    name: Annotated[str | None, typer.Option("--name", help="Its new name.")] = None,
    format: Annotated[
        str | None,
        typer.Option(
            "--format",
            shell_complete=complete.deck_formats,
            help="The format it is checked against ('default': the game's default for the deck).",
        ),
    ] = None,
    formats: FormatsOption = None,
    db: DbOption = None,
) -> None:
    """Rename a deck in the database, or change the format it is checked against.

    Example: cardbase deck set "My Deck" --name "Goblin Blitz" --format standard
    """
    from cardbase.decks.store import KEEP, update_deck
    from cardbase.errors import UsageError

    if name is None and format is None:
        raise UsageError("deck set: give --name and/or --format")
    fmt = KEEP if format is None else (None if format.strip().lower() == "default" else format)
    with _database_deck(deck, "set"):
        info = update_deck(open_db(db), deck, name=KEEP if name is None else name, fmt=fmt, house=_house(formats, db))
    echo(f"deck {info.name!r}: {info.game}, format {info.format or 'default'}, {counted(info.cards, 'card')}")


@app.command()
def add(
    name: Annotated[str, typer.Argument(help="Deck name.", shell_complete=complete.stored_decks)],
    card: Annotated[str, typer.Argument(help="Card name or alias.", shell_complete=complete.cards)],
    n: Annotated[int, typer.Option("-n", "--count", min=1, max=999, help="Copies to add.")] = 1,
    section: Annotated[
        str | None,
        typer.Option(
            "--section",
            help="Meio: 'first half' or 'second half'; Méa: 'sideboard' or 'maybe' (default: the main deck).",
        ),
    ] = None,
    db: DbOption = None,
) -> None:
    """Add copies of a card to a deck in the database.

    Example: cardbase deck add "Goblin Rush" "Crumb Goblin" -n 3
    """
    from cardbase.db.queries import find_card
    from cardbase.decks.store import _get, add_card

    database = open_db(db)
    with _database_deck(name, "add"), database.session() as session:
        game = _get(session, name).game
        found = find_card(session, card, game)
    total = add_card(database, name, found, n, section)
    echo(f"{name}: {total} {found.name}")


@app.command()
def remove(
    name: Annotated[str, typer.Argument(help="Deck name.", shell_complete=complete.stored_decks)],
    card: Annotated[str, typer.Argument(help="Card name or alias.", shell_complete=complete.cards)],
    n: Annotated[
        int | None, typer.Option("-n", "--count", min=1, max=999, help="Copies to remove (default all).")
    ] = None,
    section: Annotated[str | None, typer.Option("--section", help="Meio section.")] = None,
    db: DbOption = None,
) -> None:
    """Remove copies of a card from a deck in the database.

    Example: cardbase deck remove "Goblin Rush" "Crumb Goblin" -n 1
    """
    from cardbase.db.queries import find_card
    from cardbase.decks.store import _get, remove_card

    database = open_db(db)
    with _database_deck(name, "remove"), database.session() as session:
        found = find_card(session, card, _get(session, name).game)
    left = remove_card(database, name, found, n, section)
    echo(f"{name}: {left} {found.name} left")


@app.command("list")
def list_(db: DbOption = None, json: JsonOption = False) -> None:
    """List the decks in the database.

    Example: cardbase deck list --json
    """
    from cardbase.decks.store import list_decks

    decks = list_decks(open_db(db))
    if json:
        print_json(decks)
        return
    from rich.table import Table

    table = Table()
    for heading in ("name", "game", "format", "cards", "updated"):
        table.add_column(heading)
    for d in decks:
        table.add_row(d["name"], d["game"], d["format"] or "standard", str(d["cards"]), d["updated"])
    console().print(table if decks else "no decks yet: `cardbase deck new NAME --game mea`")


@app.command()
def show(
    deck: DeckFile,
    format: FormatOpt = None,
    formats: FormatsOption = None,
    game: GameOpt = None,
    group: Annotated[
        str | None,
        typer.Option(
            "--group",
            shell_complete=complete.choices("type", "cost", "tag"),
            help="List the cards in groups by type (Meio: suit), cost or tag, with subtotals.",
        ),
    ] = None,
    sort: Annotated[
        str | None,
        typer.Option(
            "--sort",
            shell_complete=complete.choices("name", "cost", "count"),
            help="Within groups: name, cost or count.",
        ),
    ] = None,
    db: DbOption = None,
    json: JsonOption = False,
) -> None:
    """Show a deck (from the database or a file) with every section and its validation.

    Example: cardbase deck show "Goblin Rush" --group type --sort cost
    """
    from cardbase.db.queries import check_game
    from cardbase.decks.groups import GROUPINGS, SORTS, check_choice, grouped_deck, grouped_lines
    from cardbase.decks.service import resolve_file, show_dict, validate_resolved
    from cardbase.decks.text import write_text

    by = check_choice(group, GROUPINGS, "--group") if group or sort else None
    order = check_choice(sort, SORTS, "--sort")
    database = open_db(db)
    resolved = resolve_file(database, deck, check_game(game))
    report, _ = validate_resolved(resolved, format, _house(formats, db))
    owned = _owned(database, resolved)
    if json:
        shown = show_dict(resolved, report, deck) | {"collection": owned.as_dict() if owned else None}
        if by and resolved.game:
            shown["groups"] = [
                {"section": s, "groups": [g.as_dict() for g in groups]}
                for s, groups in grouped_deck(resolved, by, order)
            ]
        print_json(shown)
        return
    if resolved.game and by:
        echo("\n".join(grouped_lines(resolved, by, order)))
    elif resolved.game:
        echo(write_text(resolved.deck), nl=False)
    _print_problems(report)
    if owned:
        echo(owned.summary())


@app.command()
def export(
    deck: DeckFile,
    format: Annotated[
        str | None,
        typer.Option(
            "--format",
            shell_complete=complete.choices("text", "json", "code", "arena", "plain", "mtgo", "cod", "ydk"),
            help="text, json, code, or another tool's form: arena, plain (or mtgo), cod (Cockatrice), ydk "
            "(default: the --output name's ending, .json, .cod or .ydk, else text).",
            show_default=False,
        ),
    ] = None,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="File (default: print).", callback=checked_path)
    ] = None,
    history: Annotated[
        bool, typer.Option("--history", help="JSON of a database deck: with every kept version (deck history).")
    ] = False,
    game: GameOpt = None,
    db: DbOption = None,
) -> None:
    """Export a deck (from the database or a file) as a text list, JSON, a share code or another tool's list.

    Example: cardbase deck export "Goblin Rush" --format arena
    """
    from cardbase.decks.files import DECK_KINDS, write_deck, write_json
    from cardbase.textfiles import output_kind

    format = output_kind(output, format, DECK_KINDS, "text")
    resolved = _resolved_without_errors(db, deck, game)
    if history:
        from cardbase.decks.history import history_payload
        from cardbase.decks.refs import deck_names
        from cardbase.decks.store import deck_info
        from cardbase.errors import UsageError

        database = open_db(db)
        name = resolved.source.removeprefix("db:")  # a deck's name, or NAME@N of a version (a name may hold '@')
        if format != "json" or not resolved.source.startswith("db:") or name not in deck_names(database):
            raise UsageError("--history is for --format json of a database deck (its name, not NAME@N or a file)")
        versions = history_payload(database, deck_info(database, name).id)
        text = write_json(resolved.deck, versions)
    else:
        text = write_deck(resolved.deck, format)
    if output:
        from cardbase.textfiles import write_text_output

        write_text_output(output, text, "deck file")
        say_done(f"wrote {output}")
    else:
        echo(text, nl=False)


@app.command()
def diff(
    old: Annotated[
        str, typer.Argument(help="The first deck: a file or a database deck name.", shell_complete=complete.decks)
    ],
    new: Annotated[
        str, typer.Argument(help="The second deck: a file or a database deck name.", shell_complete=complete.decks)
    ],
    game: GameOpt = None,
    db: DbOption = None,
    json: JsonOption = False,
) -> None:
    """What changed from deck OLD to deck NEW: cards added, removed and changed in count, and the stats that moved.

    Example: cardbase deck diff examples/decks/mea-goblin-rush.txt examples/decks/mea-tile-control.txt
    """
    from cardbase.decks.diff import deck_diff, diff_lines

    result = deck_diff(_resolved_without_errors(db, old, game), _resolved_without_errors(db, new, game))
    if json:
        print_json(result)
        return
    out = console()
    for line in diff_lines(result):
        out.print(line, soft_wrap=True)


@app.command("import")
def import_(
    file: DeckFile,
    name: Annotated[str | None, typer.Option("--name", help="Deck name (default: the file's, else its stem).")] = None,
    replace: Annotated[bool, typer.Option("--replace", help="Overwrite a deck of the same name.")] = False,
    game: GameOpt = None,
    db: DbOption = None,
) -> None:
    """Store a deck file in the database (all of it, or nothing if a card is unknown).

    Example: cardbase deck import examples/decks/mea-goblin-rush.txt
    """
    from cardbase.decks.history import deck_history
    from cardbase.decks.store import save_deck
    from cardbase.errors import counted, quoted

    resolved = _resolved_without_errors(db, file, game, writes=True)
    deck_name = name or resolved.deck.name or Path(file).stem
    database = open_db(db)
    save_deck(database, resolved.deck, deck_name, replace, history=resolved.history, change=f"imported from {file}")
    kept = f", with {counted(len(resolved.history), 'version')} of history" if resolved.history else ""
    if resolved.history and (held := deck_history(database, deck_name, 1)[2]) <= len(resolved.history):
        n = len(resolved.history)
        kept = (  # the bound dropped the oldest: said, not hidden
            f", with the newest {counted(held - 1, 'version')} of its history (the file's {counted(n, 'version')} and "
            f"this "
            f"import are {n + 1}; a deck keeps its newest {database.deck_history}: CARDBASE_DECK_HISTORY)"
        )
    echo(f"stored deck {quoted(deck_name)}: {counted(resolved.deck.size, 'card')}{kept}")


@app.command()
def delete(
    name: Annotated[str, typer.Argument(help="Deck name.", shell_complete=complete.stored_decks)], db: DbOption = None
) -> None:
    """Delete a deck from the database.

    Example: cardbase deck delete "Goblin Blitz"
    """
    from cardbase.decks.store import delete_deck

    with _database_deck(name, "delete"):
        delete_deck(open_db(db), name)
    echo(f"deleted deck {name!r}")


@app.command()
def tag(
    name: Annotated[str, typer.Argument(help="Deck name.", shell_complete=complete.stored_decks)],
    card: Annotated[str, typer.Argument(help="Card name or alias.", shell_complete=complete.cards)],
    tags: Annotated[
        list[str] | None,
        typer.Argument(shell_complete=complete.tags, help="Tags to add (e.g. 'combo piece').", show_default=False),
    ] = None,
    remove: Annotated[
        list[str] | None,
        typer.Option("--remove", "-r", shell_complete=complete.tags, help="A tag to take off (repeatable)."),
    ] = None,
    db: DbOption = None,
) -> None:
    """Tag a card's entries in a database deck (tags of this deck only; `cards tag` tags the card everywhere).

    `tag:NAME` then finds them in this deck's draws and odds; deck files keep them as '# tags: …'.

    Example: cardbase deck tag "Goblin Rush" "Crumb Goblin" "combo piece"
    """
    from cardbase.db.queries import find_card
    from cardbase.decks.store import _get, tag_entries

    database = open_db(db)
    with _database_deck(name, "tag"), database.session() as session:
        found = find_card(session, card, _get(session, name).game)
    now = tag_entries(database, name, found, tags or [], remove or [])
    echo(f"{name}: {found.name}: " + (", ".join(now) if now else "no tags"))


@app.command()
def history(
    name: Annotated[str, typer.Argument(help="Deck name.", shell_complete=complete.stored_decks)],
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, max=1_000, help="Versions to list, newest first.")] = 50,
    offset: Annotated[int, typer.Option("--offset", min=0, max=10**9, help="Skip this many of the newest.")] = 0,
    db: DbOption = None,
    json: JsonOption = False,
) -> None:
    """Every version of a database deck, newest first: what changed, when, from where (cli or web).

    Quick changes to one card in a row (a couple of minutes apart at most, from one place) are one line,
    its newest version, as on the web's history page; --json gives every version and the lines. A line
    is listed whole where its newest version falls (--limit and --offset count versions).
    NAME@N then names version N wherever a deck is read (deck show, diff, validate, export, draws, print).

    Example: cardbase deck history "Goblin Rush"
    """
    from cardbase.decks.history import history_lines, history_page

    with _database_deck(name, "history"):
        page = history_page(open_db(db), name, limit, offset)
    deck_id, versions, total = page.deck_id, page.versions, page.kept
    lines = history_lines(versions)
    if json:
        versions_listed = [v.as_dict() for v in versions]  # as before the lines came: scripts read it
        lines_listed = [line.as_dict() for line in lines]
        print_json({"deck": name, "id": deck_id, "kept": total, "versions": versions_listed, "lines": lines_listed})
        return
    echo(f"{name}: {total:,} {plural(total, 'version')} kept")
    for line in lines:
        echo(f"  {line.text()}")
    if total > page.next_offset:
        echo(f"  … {total - page.next_offset:,} older (--offset {page.next_offset})")


@app.command()
def restore(
    version: Annotated[
        str, typer.Argument(help="NAME@N: the version to go back to.", shell_complete=complete.stored_decks)
    ],
    db: DbOption = None,
) -> None:
    """Make a database deck what version N was (cards, tags, format; the name stays), as a new version.

    Nothing is lost: the versions in between stay in `deck history`.

    Example: cardbase deck restore "Goblin Rush@1"
    """
    from cardbase.decks.history import split_ref
    from cardbase.decks.store import restore_version
    from cardbase.errors import UsageError, quoted

    parts = split_ref(version.removeprefix("db:"))
    if parts is None:
        raise UsageError(
            f"{quoted(version)}: name the version to restore as NAME@N (`cardbase deck history NAME` lists them)"
        ).refusing(version)
    name, number = parts
    with _database_deck(name, "restore"):
        _deck_id, made = restore_version(open_db(db), name, number)
    if made is None:
        echo(f"{name} already is what version {number} was; nothing changed")
    else:
        echo(f"{name}: restored version {number} as version {made}")
