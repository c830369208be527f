"""``cardbase catalog``: what the catalog holds, and importing and exporting it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cardbase.cli import complete
from cardbase.cli.common import (
    SHEET_KINDS,
    DbOption,
    JsonOption,
    SheetFormatIn,
    SheetFormatOut,
    checked_path,
    console,
    echo,
    open_db,
    print_json,
    say_done,
    warn,
)
from cardbase.errors import counted, quoted

if TYPE_CHECKING:
    from cardbase.db.engine import Database

app = typer.Typer(
    help="The card catalog: status, import and export.\n\nExample: cardbase catalog status --game meikyu",
    no_args_is_help=True,
)

GameOption = Annotated[
    str, typer.Option("--game", "-g", shell_complete=complete.games, help="Game: mea, meio or meikyu.")
]


@app.command()
def status(
    game: Annotated[
        str | None, typer.Option("--game", "-g", shell_complete=complete.games, help="Only this game.")
    ] = None,
    db: DbOption = None,
    json: JsonOption = False,
) -> None:
    """How many cards are catalogued per game and type, against the rulebook, and what is unknown.

    Example: cardbase catalog status --game meikyu
    """
    from cardbase.db.queries import catalog_status, check_game

    game = check_game(game)
    database = open_db(db)
    with database.session() as session:
        rows = catalog_status(session, game)
    if json:
        print_json([r.as_dict() for r in rows])
        return
    from rich.table import Table

    table = Table(title=f"Catalog status ({database.label})")
    for heading in ("game", "type", "cards", "copies", "rulebook says", "unknown values", "sources"):
        table.add_column(heading, justify="right" if heading in ("cards", "copies", "rulebook says") else "left")
    for r in rows:
        unknown = ", ".join(f"{f} {n}/{r.catalogued}" for f, n in r.unknown.items() if n) or "none"
        table.add_row(
            r.game,
            r.type,
            str(r.catalogued),
            "—"
            if "copies" not in r.unknown and r.copies_catalogued is None
            else "?"
            if r.copies_catalogued is None
            else str(r.copies_catalogued),
            "not given" if r.rulebook_count is None else str(r.rulebook_count),
            unknown,
            ", ".join(f"{s} {n}" for s, n in sorted(r.sources.items())),
        )
    console().print(table)
    console().print(
        "cards: distinct cards catalogued; copies: total copies when every card's count is "
        "known (? = unknown, — = one of each); demo cards are made for cardbase, not published."
    )
    if game in (None, "meikyu"):
        from cardbase.games.meikyu.pool import missing_census
        from cardbase.sim.meikyu import catalog_cards

        census = missing_census(catalog_cards(database))
        if census.total:
            console().print(
                f"Meikyu Kingdom: the catalog lacks {census} the rules need (the rulebook does not give them); "
                "cardbase sim meikyu lists them."
            )
    from cardbase.db.search_index import describe

    with database.engine.connect() as connection:
        console().print(f"search index: {describe(connection)}")


@app.command("import")
def import_(
    file: Annotated[Path, typer.Argument(help="CSV, XLSX or JSON file of cards.", callback=checked_path)],
    game: GameOption,
    format: SheetFormatIn = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Check the file and report, write nothing.")] = False,
    db: DbOption = None,
    json: JsonOption = False,
) -> None:
    """Import a designer's card spreadsheet: every bad row is reported and nothing is written unless all are good.

    Columns are card fields by name, any case (Méa: name, type, cost, attack, defence,
    text, description, set; Meikyu: name, land_name, type, level, points,
    developed_points, bravery, wits, text, count). Cards are matched by (game, set, name).

    Example: cardbase catalog import exports/meikyu-template.xlsx --game meikyu --dry-run
    """
    from cardbase.db.io import import_catalog
    from cardbase.db.queries import check_game

    game_id = check_game(game)
    assert game_id is not None
    result = import_catalog(open_db(db), file, game_id, fmt=format, dry_run=dry_run)
    if json:
        print_json(result.as_dict(str(file), game_id))
        return
    verb = "would insert" if dry_run else "inserted"
    echo(
        f"{file}: {counted(result.rows, 'row')} checked; {verb} {result.inserted}, "
        f"{'would update' if dry_run else 'updated'} {result.updated}, unchanged {result.unchanged} "
        f"(sets: {', '.join(result.sets)})" + ("; dry run, nothing written" if dry_run else "")
    )
    for warning in result.warnings:
        warn(f"{file}: {warning}")


@app.command()
def export(
    game: GameOption,
    format: SheetFormatOut = None,
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="File to write (default: exports/<game>.<format>).", callback=checked_path),
    ] = None,
    db: DbOption = None,
) -> None:
    """Write a game's whole catalog to a file that `catalog import` reads back.

    Example: cardbase catalog export --game meikyu --format xlsx -o exports/meikyu.xlsx
    """
    from cardbase.db.io import FORMATS, export_catalog
    from cardbase.db.queries import check_game
    from cardbase.errors import UsageError
    from cardbase.textfiles import output_kind

    game_id = check_game(game)
    assert game_id is not None
    fmt = output_kind(output, format, SHEET_KINDS, "csv")
    if fmt not in FORMATS:
        raise UsageError(f"unknown format {quoted(fmt)}; use csv, json or xlsx")
    out = output or Path("exports") / f"{game_id}.{fmt}"
    count = export_catalog(open_db(db), game_id, fmt, out)
    say_done(f"wrote {counted(count, f'{game_id} card')} to {out}")


@app.command()
def template(
    game: GameOption,
    format: Annotated[
        str | None,
        typer.Option(
            "--format",
            "-f",
            shell_complete=complete.choices("xlsx", "csv"),
            help="xlsx or csv (default: the --output name's ending, else xlsx).",
            show_default=False,
        ),
    ] = None,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output", "-o", help="File to write (default: exports/<game>-template.<format>).", callback=checked_path
        ),
    ] = None,
    db: DbOption = None,
) -> None:
    """Write a spreadsheet to fill in: the game's columns, a note row of units and allowed values
    (skipped on import), and every catalogued card with its unknown values left empty.

    Example: cardbase catalog template --game meikyu -o exports/meikyu-template.xlsx
    """
    from cardbase.db.io import write_template
    from cardbase.db.queries import check_game
    from cardbase.textfiles import output_kind

    game_id = check_game(game)
    assert game_id is not None
    fmt = output_kind(output, format, {"xlsx": SHEET_KINDS["xlsx"], "csv": SHEET_KINDS["csv"]}, "xlsx")
    out = output or Path("exports") / f"{game_id}-template.{fmt}"
    count = write_template(open_db(db), game_id, fmt, out)
    say_done(
        f"wrote {out}: {counted(count, f'{game_id} card')}; fill in the empty cells, "
        f"then `cardbase catalog import {out} --game {game_id}`"
    )


# --- one card at a time -----------------------------------------------------------------------

FieldsArg = Annotated[
    list[str],
    typer.Argument(
        help="FIELD=VALUE pairs, e.g. cost=3 'text=Draw 1 card.' (fields and synonyms as in imports; "
        "an empty value or ? makes it unknown).",
        show_default=False,
    ),
]
WHO_CLI = "cli"
"""Who the history names for a change made by a command."""


Kinds = tuple[tuple[str, str], tuple[str, str]]
"""A card's (game, type) before and after a change: how its values that do not apply show (``—``)."""


def _changes_line(changed: dict[str, tuple[object, object]], kinds: Kinds | None = None) -> str:
    from cardbase.db.edit import shown_value

    if not changed:
        return "nothing changed"
    before_kind, after_kind = kinds or (None, None)
    parts = []
    for name, (before, after) in changed.items():
        parts.append(
            f"{name}: {shown_value(before, 60, name, before_kind)} → {shown_value(after, 60, name, after_kind)}"
        )
    return "; ".join(parts)


def _kinds(database: Database, cid: str, changed: dict[str, tuple[object, object]]) -> Kinds:
    """The card's (game, type) before and after the change just made."""
    from cardbase.db.models import Card

    with database.session() as session:
        card = session.get(Card, cid)
        assert card is not None
        game, after = card.game, card.type
    before = str(changed["type"][0] or after) if "type" in changed else after
    return (game, before), (game, after)


@app.command()
def add(
    game: GameOption,
    fields: FieldsArg,
    db: DbOption = None,
    json: JsonOption = False,
) -> None:
    """Add one card to the catalog: a name and a type at least (set: the game's default), checked as imports are.

    Its source is 'user'; `catalog history` shows the change.

    Example: cardbase catalog add --game mea "name=Ember Fox" type=monster cost=2 atk=2 def=1 set=mine
    """
    from cardbase.db.edit import add_card, parse_assignments
    from cardbase.db.queries import check_game

    game_id = check_game(game)
    assert game_id is not None
    database = open_db(db)
    result = add_card(database, game_id, parse_assignments(fields), WHO_CLI)
    if json:
        print_json({"id": result.id, "name": result.name, "version": result.version})
        return
    kinds = _kinds(database, result.id, result.changed)
    echo(f"added {quoted(result.name)} ({result.id}): {_changes_line(result.changed, kinds)}")


@app.command()
def edit(
    card: Annotated[str, typer.Argument(help="Card name or alias.", shell_complete=complete.cards)],
    fields: FieldsArg,
    game: Annotated[
        str | None,
        typer.Option("--game", "-g", shell_complete=complete.games, help="Game, when the name is in several."),
    ] = None,
    db: DbOption = None,
    json: JsonOption = False,
) -> None:
    """Change a card's values (one transaction, kept in its history); name=… renames it and keeps the old
    name as an alias, so decks and share codes still find it. Its set cannot change (it is part of its id).

    Example: cardbase catalog edit "Ember Fox" cost=3 "text=When summoned: Draw 1 card."
    """
    from cardbase.db.edit import edit_card, parse_assignments
    from cardbase.db.queries import check_game, find_card

    values = parse_assignments(fields)
    database = open_db(db)
    with database.session() as session:
        found = find_card(session, card, check_game(game))
    result = edit_card(database, found.id, values, WHO_CLI)
    if json:
        changed = {k: {"before": b, "after": a} for k, (b, a) in result.changed.items()}
        print_json({"id": result.id, "name": result.name, "version": result.version, "changed": changed})
        return
    echo(f"{result.name} ({result.id}): {_changes_line(result.changed, _kinds(database, result.id, result.changed))}")


@app.command()
def history(
    card: Annotated[str, typer.Argument(help="Card name or alias.", shell_complete=complete.cards)],
    game: Annotated[
        str | None,
        typer.Option("--game", "-g", shell_complete=complete.games, help="Game, when the name is in several."),
    ] = None,
    revert: Annotated[
        int | None,
        typer.Option("--revert", min=1, max=2**31 - 1, help="Put back the values this edit changed, as a new edit."),
    ] = None,
    db: DbOption = None,
    json: JsonOption = False,
) -> None:
    """Every change to a card, newest first: who (cli, or the web server's user), when and what changed.

    Example: cardbase catalog history "Ember Fox"
    """
    from cardbase.db.edit import card_history, edit_kinds, revert_edit
    from cardbase.db.queries import check_game, find_card

    database = open_db(db)
    with database.session() as session:
        found = find_card(session, card, check_game(game))
    if revert is not None:
        result = revert_edit(database, found.id, revert, WHO_CLI)
        kinds = _kinds(database, result.id, result.changed)
        echo(f"{result.name} ({result.id}): reverted edit {revert}: {_changes_line(result.changed, kinds)}")
        return
    edits = card_history(database, found.id)
    if json:
        print_json({"id": found.id, "name": found.name, "edits": edits})
        return
    if not edits:
        echo(f"{found.name} ({found.id}): no edits; its values are as {quoted(found.source)} gave them")
        return
    echo(f"{found.name} ({found.id}):")
    for e, kinds in zip(edits, edit_kinds(found.game, found.type, edits), strict=True):
        changed = {k: (e["before"].get(k), e["after"].get(k)) for k in e["after"]}
        echo(f"  {e['id']}  {e['at']}  {e['who']}  {e['action']}: {_changes_line(changed, kinds)}")
