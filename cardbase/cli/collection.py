"""``cardbase collection``: the cards you own, and which decks they build."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cardbase.cli import complete
from cardbase.cli.common import (
    SHEET_KINDS,
    CardArg,
    CardGameOpt,
    DbOption,
    JsonOption,
    SheetFormatOut,
    checked_path,
    console,
    echo,
    open_db,
    print_json,
    say_done,
)
from cardbase.errors import counted

app = typer.Typer(
    help="The cards you own: counts per card, files in and out, and what your decks miss.\n\n"
    'Example: cardbase collection add "Crumb Goblin" 3',
    no_args_is_help=True,
)

CountArg = Annotated[int, typer.Argument(help="Copies (1 to 99,999).", show_default=False)]
GameFilter = Annotated[str | None, typer.Option("--game", "-g", shell_complete=complete.games, help="Only this game.")]


def _change(card: str, count: int, how: str, game: str | None, db: str | None) -> None:
    from cardbase.db.collection import change_owned
    from cardbase.db.queries import check_game, find_card

    database = open_db(db)
    with database.session() as session:
        found = find_card(session, card, check_game(game))
    now = change_owned(database, found, count, how)  # type: ignore[arg-type]
    echo(f"you own {now} {found.name} ({found.game}, set {found.set_code})")


@app.command()
def add(card: CardArg, count: CountArg = 1, game: CardGameOpt = None, db: DbOption = None) -> None:
    """Own more copies of a card.

    Example: cardbase collection add "Crumb Goblin" 3
    """
    _change(card, count, "add", game, db)


@app.command()
def remove(card: CardArg, count: CountArg = 1, game: CardGameOpt = None, db: DbOption = None) -> None:
    """Own fewer copies of a card (never fewer than none).

    Example: cardbase collection remove "Crumb Goblin" 1
    """
    _change(card, count, "remove", game, db)


@app.command("set")
def set_(
    card: CardArg,
    count: Annotated[int, typer.Argument(help="Copies (0 to 99,999; 0: none).", show_default=False)],
    game: CardGameOpt = None,
    db: DbOption = None,
) -> None:
    """Own exactly this many copies of a card.

    Example: cardbase collection set "Crumb Goblin" 4
    """
    _change(card, count, "set", game, db)


@app.command()
def show(game: GameFilter = None, db: DbOption = None, json: JsonOption = False) -> None:
    """Every card you own, with totals per game and set.

    Example: cardbase collection show --game mea
    """
    from cardbase.catalog.fields import source_label
    from cardbase.db.collection import collection_cards, collection_totals
    from cardbase.db.queries import check_game

    cards = collection_cards(open_db(db), check_game(game))
    totals = collection_totals(cards)
    if json:
        print_json({"cards": [c.as_dict() for c in cards], "totals": totals})
        return
    out = console()
    if not cards:
        out.print('the collection is empty: `cardbase collection add "Crumb Goblin" 3` or `collection import FILE`')
        return
    from rich.table import Table

    table = Table()
    for heading in ("count", "name", "game", "set", "source"):
        table.add_column(heading, justify="right" if heading == "count" else "left")
    for c in cards:
        table.add_row(str(c.count), c.name, c.game, c.set, source_label(c.source))
    out.print(table)
    for t in totals:
        out.print(
            f"{t['game']}, set {t['set']}: {counted(t['cards'], 'card')}, {counted(t['copies'], 'copy', 'copies')}"
        )


ListFormatIn = Annotated[
    str | None,
    typer.Option(
        "--format",
        "-f",
        shell_complete=complete.choices("csv", "xlsx", "json", "text"),
        help="csv, xlsx, json or text (default: from the extension; .txt is text).",
    ),
]
SHOWN_CHANGES = 50
"""A dry run lists at most this many changed cards (``--json`` lists every one)."""


@app.command("import")
def import_(
    file: Annotated[
        Path,
        typer.Argument(
            help="CSV, XLSX or JSON (columns name, set, count, and game), or a text list: '3 Crumb Goblin' a line.",
            callback=checked_path,
        ),
    ],
    game: Annotated[
        str | None,
        typer.Option("--game", "-g", shell_complete=complete.games, help="The game, when the file has no game column."),
    ] = None,
    format: ListFormatIn = None,
    replace: Annotated[
        bool, typer.Option("--replace", help="Own nothing of the file's games but what it lists.")
    ] = False,
    add: Annotated[bool, typer.Option("--add", help="Add the counts to what you own instead of setting them.")] = False,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Check the file and list what would change, write nothing.")
    ] = False,
    db: DbOption = None,
    json: JsonOption = False,
) -> None:
    """Set (or --add) the counts a file gives; every bad row or line is reported, nothing written unless all are good.

    Example: cardbase collection import examples/decks/mea-goblin-rush.txt --add --dry-run
    """
    from cardbase.db.collection import import_collection
    from cardbase.db.queries import check_game

    result = import_collection(
        open_db(db), file, check_game(game), fmt=format, replace=replace, add=add, dry_run=dry_run
    )
    if json:
        print_json(result.as_dict(str(file)))
        return
    if dry_run:
        for c in result.changes[:SHOWN_CHANGES]:
            echo(f"  {c.name} ({c.set}): {c.before} → {c.after}")
        if len(result.changes) > SHOWN_CHANGES:
            echo(f"  … and {len(result.changes) - SHOWN_CHANGES} more (--json lists every one)")
    verb = ("would add" if add else "would set") if dry_run else ("added" if add else "set")
    echo(
        f"{file}: {counted(result.rows, 'row')} checked; {verb} {counted(result.cards, 'card')}, "
        f"{counted(result.copies, 'copy', 'copies')}; "
        f"{counted(len(result.changes), 'card')} {'changes' if len(result.changes) == 1 else 'change'}"
        + ("; replacing the rest" if replace else "")
        + ("; dry run, nothing written" if dry_run else "")
    )


@app.command()
def export(
    format: SheetFormatOut = None,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output", "-o", help="File to write (default: exports/collection.<format>).", callback=checked_path
        ),
    ] = None,
    game: GameFilter = None,
    db: DbOption = None,
) -> None:
    """Write the collection to a file that `collection import` reads back.

    Example: cardbase collection export -o exports/collection.csv
    """
    from cardbase.db.collection import export_collection
    from cardbase.db.queries import check_game
    from cardbase.textfiles import output_kind

    fmt = output_kind(output, format, SHEET_KINDS, "csv")
    out = output or Path("exports") / f"collection.{fmt}"
    count = export_collection(open_db(db), out, fmt, check_game(game))
    say_done(f"wrote {counted(count, 'card')} to {out}")
