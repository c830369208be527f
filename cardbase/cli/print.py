"""``cardbase print``: print-ready proxy sheets as PDF (decks, whole sets, Méa's tiles, a printer test).

Only ``typer`` is imported here at module level; ReportLab, Pillow and the database load
inside the commands.
"""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cardbase.cli import complete
from cardbase.cli.common import (
    DbOption,
    JsonOption,
    Number,
    art_folder,
    checked_path,
    echo,
    open_db,
    pdf_output,
    print_json,
    say_done,
    warn,
)
from cardbase.errors import counted, quoted

if TYPE_CHECKING:
    from sqlmodel import Session

    from cardbase.db.engine import Database
    from cardbase.render.options import SheetOptions

app = typer.Typer(
    help="Print proxy sheets as PDF: true size, crop marks, duplex backs.\n\n"
    "Example: cardbase print deck examples/decks/mea-goblin-rush.txt -o exports/goblin-rush.pdf",
    no_args_is_help=True,
)

OutputOption = Annotated[
    Path | None,
    typer.Option(
        "--output", "-o", help="PDF to write (default: exports/<name>.pdf).", show_default=False, callback=pdf_output
    ),
]
ImagesOption = Annotated[
    Path, typer.Option("--images", help="Folder of card art: <game>/<card-slug>.png|jpg|webp.", callback=art_folder)
]
NoCacheOption = Annotated[bool, typer.Option("--no-cache", help="Do not read or write card_images/.cache.")]
AuthorOption = Annotated[str, typer.Option("--author", help="Author recorded in the PDF.")]
RegistrationOption = Annotated[
    bool, typer.Option("--registration-test", help="Begin with a one-sheet alignment test for your printer.")
]
AssumeOption = Annotated[
    str | None,
    typer.Option(
        "--assume",
        shell_complete=complete.profiles,
        help="Meikyu playtest proxies: fill the values the catalog lacks from an assumption profile ('default' or "
        "your JSON file); every face showing one is marked ASSUMED.",
        show_default=False,
    ),
]


def assumed_values(assume: str | None, game: str | None) -> tuple[dict[str, Any], str]:
    """The profile ``assume``'s values by folded card name, and its name (nothing without one)."""
    if assume is None:
        return {}, ""
    if game != "meikyu":
        from cardbase.errors import UsageError

        raise UsageError("--assume is for Meikyu Kingdom cards (the values its rulebook does not give)")
    from cardbase.catalog.meikyu_profiles import load_profile

    profile = load_profile(assume)
    return {name: dict(values) for name, values in profile.values.items()}, profile.name


# The sheet options, declared once: (field of SheetOptions, its type, its typer.Option). Every
# command decorated with ``sheet_options`` takes them and receives one ``SheetOptions``.
SCALE = Number(90.0, 110.0, "%")
"""--scale-x and --scale-y: render.options.SCALE_RANGE (not imported here: it loads ReportLab)."""

_SHEET_PARAMS: dict[str, tuple[Any, Any]] = {
    "paper": (str, typer.Option("--paper", help="a4, letter, a3, a5, legal, tabloid, or WxH such as 297x210mm.")),
    "card_size": (
        str | None,
        typer.Option("--card-size", help="poker (63×88 mm), bridge, mini, or WxH such as 63x63mm.", show_default=False),
    ),
    "bleed": (str, typer.Option("--bleed", help="Background printed past each card's edge: 3mm, 0.125in (≤ 10 mm).")),
    "gap": (str, typer.Option("--gap", help="Blank space between neighbouring cards' bleed, e.g. 2mm (≤ 20 mm).")),
    "margin": (str, typer.Option("--margin", help="Least space from the paper edge to the cards (≤ 50 mm).")),
    "printer_margin": (
        str,
        typer.Option("--printer-margin", help="Edge strip your printer cannot print; crop marks keep 3 mm inside it."),
    ),
    "crop_marks": (bool, typer.Option("--crop-marks/--no-crop-marks", help="Dark cut marks in all four margins.")),
    "cut_lines": (bool, typer.Option("--cut-lines", help="Also draw dashed lines along every cut.")),
    "backs": (bool, typer.Option("--backs/--no-backs", help="Print each card's back too, for duplex printing.")),
    "back_order": (
        str,
        typer.Option("--back-order", help="With --one-per-page: backs 'after' all fronts, or 'interleave'd."),
    ),
    "flip": (str, typer.Option("--flip", help="How the printer turns the sheet: long-edge or short-edge.")),
    "scale_x": (
        float,
        typer.Option("--scale-x", parser=SCALE, help="What the registration test's 100 mm across bar measured, in %."),
    ),
    "scale_y": (
        float,
        typer.Option("--scale-y", parser=SCALE, help="What the registration test's 100 mm down bar measured, in %."),
    ),
    "back_offset": (
        str,
        typer.Option("--back-offset", help="X,Y mm the back lands off (right, down on the back), from the test."),
    ),
    "copies": (int, typer.Option("--copies", help="Print the whole set of cards this many times (1 to 100).")),
    "dpi": (int, typer.Option("--dpi", help="Resolution art is stored at (30 to 2400).")),
    "one_per_page": (
        bool,
        typer.Option("--one-per-page", help="One card per page, each with its own TrimBox and BleedBox (print shops)."),
    ),
    "split_backs": (bool, typer.Option("--split-backs", help="Write the backs to a second file, <name>-backs.pdf.")),
    "bleed_fill": (
        str,
        typer.Option("--bleed-fill", help="Bleed of full-art scans: 'art' (the scan mirrored out) or 'frame'."),
    ),
    "full_art": (
        bool,
        typer.Option("--full-art", help="Art files are whole-face scans (as <slug>.full.png): printed as is."),
    ),
    "layout": (
        Path | None,
        typer.Option(
            "--layout",
            help="A TOML file of layouts replacing any card kind's (schema/layout.schema.json).",
            callback=checked_path,
        ),
    ),
}


def sheet_options(*only: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Give a command the sheet options (all, or ``only`` these) and pass them as ``sheet: SheetOptions``."""
    from cardbase.render.options import SheetOptions

    defaults = SheetOptions()
    names = list(only or _SHEET_PARAMS)

    def decorate(command: Callable[..., None]) -> Callable[..., None]:
        signature = inspect.signature(command)
        hints = typing.get_type_hints(command, localns={"SheetOptions": SheetOptions}, include_extras=True)
        hints.pop("sheet", None)
        own = [p.replace(annotation=hints[p.name]) for p in signature.parameters.values() if p.name != "sheet"]
        added = [
            inspect.Parameter(
                name,
                inspect.Parameter.KEYWORD_ONLY,
                annotation=Annotated[_SHEET_PARAMS[name][0], _SHEET_PARAMS[name][1]],
                default=getattr(defaults, name),
            )
            for name in names
        ]

        @functools.wraps(command)
        def wrapper(**kwargs: Any) -> None:
            picked = {name: kwargs.pop(name) for name in names}
            command(**kwargs, sheet=SheetOptions(**picked))

        wrapper.__annotations__ = hints | {p.name: p.annotation for p in added}
        wrapper.__signature__ = signature.replace(  # type: ignore[attr-defined]
            parameters=[*[p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in own], *added]
        )
        return wrapper

    return decorate


def _progress_printer(total_hint: int) -> tuple[Any, Any]:
    """A Rich progress bar on stderr for long prints (a no-op when stderr is not a terminal:
    :func:`cardbase.terminal.progress_console`)."""
    from cardbase.terminal import progress_console

    err = progress_console()
    if total_hint < 40 or err is None:
        return None, None
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
    )
    task = bar.add_task("printing", total=None)

    def update(stage: str, done: int, total: int) -> None:
        bar.update(task, description=stage, completed=done, total=total)

    return bar, update


def print_entries(
    entries: list[tuple[Any, int]],
    name: str,
    title: str,
    sheet: SheetOptions,
    *,
    game: str | None,
    output: Path | None,
    registration: bool,
    images: Path,
    no_cache: bool,
    author: str,
    declared_art: dict[str, str],
    json: bool,
    notes: list[str] | None = None,
    default_size: str | None = None,
    assumed: tuple[dict[str, Any], str] = ({}, ""),
) -> None:
    """Print (card, copies) ``entries`` to a PDF and report it: the step every print command ends with;
    ``assumed``: :func:`assumed_values`."""
    spec = sheet.spec(game, default_size=default_size)
    out = output or Path("exports") / f"{name}.pdf"
    entries = [(card, n * sheet.copies) for card, n in entries]
    bar, update = _progress_printer(sum(n for _, n in entries))
    with sheet.layouts():
        report = _run_print(
            entries, out, spec, sheet, bar, update, title, author, images, no_cache, declared_art, registration, assumed
        )
    _report(report, out, spec, sheet, registration, json, notes)


def _run_print(
    entries: list[tuple[Any, int]],
    out: Path,
    spec: Any,
    sheet: SheetOptions,
    bar: Any,
    update: Any,
    title: str,
    author: str,
    images: Path,
    no_cache: bool,
    declared_art: dict[str, str],
    registration: bool,
    assumed: tuple[dict[str, Any], str] = ({}, ""),
) -> Any:
    """Run ``print_cards`` with the progress bar shown."""
    from cardbase.render.printing import print_cards

    try:
        if bar:
            bar.start()
        return print_cards(
            entries,
            out,
            spec,
            title=title,
            author=author,
            images=images,
            dpi=sheet.dpi,
            use_cache=not no_cache,
            declared_art=declared_art,
            registration=registration,
            progress=update,
            one_per_page=sheet.one_per_page,
            back_order=sheet.back_order,
            split_backs=sheet.split_backs,
            options_line=sheet.command_line(),
            bleed_fill=sheet.bleed_fill,
            full_art=sheet.full_art,
            assumed=assumed[0],
            profile=assumed[1],
        )
    finally:
        if bar:
            bar.stop()


def _report(
    report: Any, out: Path, spec: Any, sheet: SheetOptions, registration: bool, json: bool, notes: list[str] | None
) -> None:
    """Say what a print wrote (or print it as JSON)."""
    from cardbase.render.units import format_mm

    for line in report.warnings:
        warn(line)
    notes = [*report.notes, *(notes or [])]
    for line in notes:
        echo(f"note: {line}", err=True)
    if json:
        print_json(report.as_dict() | {"notes": notes})
        return
    grid = report.grid
    assert grid is not None
    backs = f", backs for {spec.flip} duplex" if spec.backs and not sheet.one_per_page else ""
    if sheet.one_per_page:
        where = f"one card per page, {counted(report.pages, 'page')}"
    else:
        sheets = report.sheets + (1 if registration else 0)
        where = (
            f"on {counted(sheets, 'sheet')}{' (the first a registration test)' if registration else ''}, "
            f"{counted(report.pages, 'page')}; {grid.cols}×{grid.rows} per sheet on {spec.paper_name}"
        )
    extra = f"; backs in {report.backs_path}" if report.backs_path else ""
    say_done(
        f"wrote {out}: {counted(report.cards, 'card')} ({report.unique_faces} different) {where}, "
        f"{format_mm(spec.card[0])}×{format_mm(spec.card[1])} mm, {format_mm(spec.bleed)} mm bleed{backs}; "
        f"{report.size_bytes / 1024:.0f} KB{extra}. Print at 100 % (actual size)."
    )


def _card_order(card: Any) -> tuple[Any, ...]:
    from cardbase.catalog.fields import GAME_TYPES

    types = list(GAME_TYPES.get(card.game, {}))
    suits = "SHDC"
    return (
        types.index(card.type) if card.type in types else len(types),
        card.level if card.level is not None else 0,
        suits.index(card.suit) if card.suit and card.suit in suits else 9,
        card.rank or 0,
        card.name,
    )


def deck_entries(
    database: Database, path: Path, game: str | None, missing: bool = False
) -> tuple[list[tuple[Any, int]], str, list[str]]:
    """The catalog cards of the deck file at ``path`` with their counts, the deck's name, and warnings.

    A deck that names cards the catalog does not have (or cannot be read) is refused with every
    problem listed; whether the deck is legal for a format does not matter for printing proxies.
    """
    from cardbase.decks.service import resolve_file_or_fail
    from cardbase.render.deck_print import deck_entries_of

    resolved = resolve_file_or_fail(database, path, game)
    entries = deck_entries_of(database, resolved, missing_only=missing)
    warnings = [str(p) for p in resolved.problems if p.severity != "error"]
    return entries, resolved.deck.name or path.stem, warnings


@app.command("deck")
@sheet_options()
def print_deck(
    file: Annotated[
        Path,
        typer.Argument(
            shell_complete=complete.decks,
            help="Deck: a file (text or JSON) or a database deck's name (db:NAME picks the database deck).",
            callback=checked_path,
        ),
    ],
    sheet: SheetOptions,
    game: Annotated[
        str | None,
        typer.Option("--game", "-g", shell_complete=complete.games, help="Game, when the file has no 'game:' line."),
    ] = None,
    output: OutputOption = None,
    registration_test: RegistrationOption = False,
    images: ImagesOption = Path("card_images"),
    no_cache: NoCacheOption = False,
    author: AuthorOption = "cardbase",
    missing: Annotated[
        bool, typer.Option("--missing", help="Only the copies your collection lacks (`cardbase collection`).")
    ] = False,
    db: DbOption = None,
    json: JsonOption = False,
) -> None:
    """Print a deck file: every card as many times as the deck has it (--missing: only the copies you don't own).

    Names that are not in the catalog are listed (with their lines) and nothing is printed; use
    `cardbase deck validate` to check the deck against a format.

    Example: cardbase print deck examples/decks/mea-goblin-rush.txt --backs --paper letter
    """
    from cardbase.db.queries import check_game
    from cardbase.names import slug

    game_id = check_game(game)
    sheet.spec(game_id)  # bad options fail before the database is opened
    database = open_db(db)
    entries, name, deck_warnings = deck_entries(database, file, game_id, missing)
    for line in deck_warnings:
        warn(line)
    with database.session() as session:
        declared = _declared_art(session, [c.id for c, _ in entries])
    print_entries(
        entries,
        slug(file.stem) or "deck",
        f"{name} — cardbase proxies",
        sheet,
        game=entries[0][0].game if entries else game_id,
        output=output,
        registration=registration_test,
        images=images,
        no_cache=no_cache,
        author=author,
        declared_art=declared,
        json=json,
    )


@app.command("set")
@sheet_options()
def print_set(
    game: Annotated[str, typer.Argument(help="Game: mea, meio or meikyu.", shell_complete=complete.games)],
    sheet: SheetOptions,
    set_name: Annotated[
        str | None, typer.Option("--set", help="Only this set (e.g. demo, core); default: every set.")
    ] = None,
    output: OutputOption = None,
    registration_test: RegistrationOption = False,
    images: ImagesOption = Path("card_images"),
    no_cache: NoCacheOption = False,
    author: AuthorOption = "cardbase",
    assume: AssumeOption = None,
    db: DbOption = None,
    json: JsonOption = False,
) -> None:
    """Print every card of a game's set, each as many times as the catalog says it exists.

    A card whose count is unknown is printed once (with --assume, as many times as the profile
    says), and the summary says how many such cards there are. Méa's tiles are left out: print
    them with `cardbase print tiles`.

    Example: cardbase print set meikyu --backs --bleed 3mm --paper letter
    """
    from sqlmodel import select

    from cardbase.db.models import Card
    from cardbase.db.queries import check_game, set_rows
    from cardbase.errors import UsageError
    from cardbase.names import fold

    game_id = check_game(game)
    assert game_id is not None
    sheet.spec(game_id)  # bad options fail before the database is opened
    assumed = assumed_values(assume, game_id)
    database = open_db(db)
    with database.session() as session:
        sets = {row.code: row for row in set_rows(session, game_id)}
        if set_name is not None and fold(set_name) not in sets:
            raise UsageError(
                f"{game_id} has no set {quoted(set_name)}; its sets are {', '.join(sorted(sets))}"
            ).refusing(set_name)
        stmt = select(Card).where(Card.game == game_id, Card.type != "tile")
        if set_name is not None:
            stmt = stmt.where(Card.set_code == fold(set_name))
        cards = sorted(session.scalars(stmt), key=_card_order)
        declared = _declared_art(session, [c.id for c in cards])
    if not cards:
        raise UsageError(f"no cards to print in {game_id}" + (f" set {quoted(set_name)}" if set_name else ""))
    from cardbase.catalog.fields import APPLICABLE

    # The copies a profile assumes are those the table plays: what the catalogued counts leave of the
    # rulebook's totals, shared (an owner's Warzard 3 makes 42 characters, not 43), when the pool resolves.
    played: dict[str, int] = {}
    if assumed[1] and game_id == "meikyu":
        from cardbase.catalog.meikyu_profiles import load_profile
        from cardbase.games.meikyu.pool import resolve_pool
        from cardbase.sim.meikyu import catalog_cards

        pool = resolve_pool(catalog_cards(database), load_profile(str(assume))).pool
        played = {k.name: k.copies for k in pool.kingdom} if pool is not None else {}

    # A count that applies but is unknown is printed once and reported; where the count does
    # not apply (a playing card), one is the truth.
    def count(card: Any) -> int | None:
        if card.copies is not None:
            return int(card.copies)
        if card.set_code == "core" and card.name in played:
            return played[card.name]
        given = assumed[0].get(fold(card.name), {}).get("copies")
        return None if given is None else int(given)

    unknown = [c for c in cards if count(c) is None and "copies" in APPLICABLE.get((c.game, c.type), ())]
    entries = [(c, count(c) or 1) for c in cards]
    notes = []
    if unknown:
        notes.append(
            f"{counted(len(unknown), 'card')} "
            + (
                "has an unknown count in the catalog and was printed once "
                if len(unknown) == 1
                else "have an unknown count in the catalog and were printed once each "
            )
            + "(import the real counts with `cardbase catalog import`)"
        )
    assumed_counts = [c for c in cards if c.copies is None and count(c) is not None]
    if assumed_counts:
        notes.append(
            f"{counted(len(assumed_counts), 'card')} printed as many times as the profile {quoted(assumed[1])} assumes "
            "(not the rulebook)"
        )
    if game_id == "mea" and set_name is None:
        notes.append("Méa tiles are not included; print them with `cardbase print tiles`")
    from cardbase.render.values import GAME_SHORT

    code = fold(set_name) if set_name else "all"
    label = (sets[code].name if code in sets else None) or f"{GAME_SHORT[game_id]}, {code} sets"
    print_entries(
        entries,
        f"{game_id}-{code}",
        f"{label} — cardbase proxies",
        sheet,
        game=game_id,
        output=output,
        registration=registration_test,
        images=images,
        no_cache=no_cache,
        author=author,
        declared_art=declared,
        json=json,
        notes=notes,
        assumed=assumed,
    )


@app.command("query")
@sheet_options()
def print_query(
    query: Annotated[
        str,
        typer.Argument(
            shell_complete=complete.queries,
            help="A search, as for `cardbase cards search`: 'game:mea t:monster cost<=2'.",
        ),
    ],
    sheet: SheetOptions,
    game: Annotated[
        str | None, typer.Option("--game", "-g", shell_complete=complete.games, help="Only cards of this game.")
    ] = None,
    output: OutputOption = None,
    registration_test: RegistrationOption = False,
    images: ImagesOption = Path("card_images"),
    no_cache: NoCacheOption = False,
    author: AuthorOption = "cardbase",
    db: DbOption = None,
    json: JsonOption = False,
) -> None:
    """Print every card a search matches, once each (tiles too, if the search finds them).

    Example: cardbase print query 'game:mea t:monster cost<=2' --backs
    """
    from cardbase.db.models import Card
    from cardbase.db.queries import check_game
    from cardbase.db.search import search_cards
    from cardbase.errors import UsageError
    from cardbase.names import slug

    game_id = check_game(game)
    sheet.spec(game_id)
    database = open_db(db)
    with database.session() as session:
        rows = search_cards(session, query, game_id, None)
        cards = [session.get(Card, row.id) for row in rows]
        declared = _declared_art(session, [c.id for c in cards if c is not None])
    found = sorted((c for c in cards if c is not None), key=lambda c: (c.game, *_card_order(c)))
    if not found:
        raise UsageError(f"the query {quoted(query)} matches no card; nothing to print").refusing(query)
    games = {c.game for c in found}
    from cardbase.render.units import TILE_SIZE

    only_tiles = all(c.type == "tile" for c in found)
    print_entries(
        [(c, 1) for c in found],
        f"query-{slug(query)[:40] or 'cards'}",
        f"{query} — cardbase proxies",
        sheet,
        game=games.pop() if len(games) == 1 else None,
        output=output,
        registration=registration_test,
        images=images,
        no_cache=no_cache,
        author=author,
        declared_art=declared,
        json=json,
        default_size=TILE_SIZE if only_tiles else None,
    )


@app.command("tiles")
@sheet_options()
def print_tiles(
    sheet: SheetOptions,
    output: OutputOption = None,
    registration_test: RegistrationOption = False,
    images: ImagesOption = Path("card_images"),
    no_cache: NoCacheOption = False,
    author: AuthorOption = "cardbase",
    db: DbOption = None,
    json: JsonOption = False,
) -> None:
    """Print Méa's tiles: 9 yellow and 9 blue (one set for each player), each big enough for two cards.

    With --backs each tile gets the other colour on its back, so a printed tile can be flipped
    (the rulebook's "flip: change a tile's owner") by turning it over.

    Example: cardbase print tiles --backs --paper a3
    """
    from sqlmodel import select

    from cardbase.db.models import Card
    from cardbase.errors import UsageError
    from cardbase.render.units import TILE_SIZE

    sheet.spec("mea", default_size=TILE_SIZE)
    database = open_db(db)
    with database.session() as session:
        tiles = sorted(
            session.scalars(select(Card).where(Card.game == "mea", Card.type == "tile")),
            key=lambda c: ("blue" in c.name.lower(), c.set_code),
        )
        declared = _declared_art(session, [c.id for c in tiles])
    if not tiles:
        raise UsageError("the catalog has no Méa tiles; reload it with `cardbase catalog status`")
    entries = [(t, t.copies if t.copies is not None else 9) for t in tiles]
    print_entries(
        entries,
        "mea-tiles",
        "Méa tiles — cardbase proxies",
        sheet,
        game="mea",
        output=output,
        registration=registration_test,
        images=images,
        no_cache=no_cache,
        author=author,
        declared_art=declared,
        json=json,
        default_size=TILE_SIZE,
    )


@app.command("registration")
@sheet_options(
    "paper", "card_size", "bleed", "gap", "margin", "printer_margin", "flip", "scale_x", "scale_y", "back_offset"
)
def print_registration(
    sheet: SheetOptions,
    output: OutputOption = None,
    json: JsonOption = False,
) -> None:
    """Print only the alignment test: one sheet, front and back, for your printer and settings.

    Print it double-sided at 100 %, measure the two 100 mm bars, and hold the sheet to the light:
    each black cross should sit on its red cross. The page says which options to pass to correct
    what you measured (--scale-x, --scale-y, --back-offset).

    Example: cardbase print registration --paper letter --flip short-edge
    """
    from dataclasses import replace

    from cardbase.render.printing import print_registration as run

    spec = replace(sheet.spec(None), backs=True)
    out = output or Path("exports") / f"registration-{spec.paper_name}.pdf"
    report = run(out, spec, options_line=sheet.command_line())
    if json:
        print_json(report.as_dict())
        return
    say_done(f"wrote {out}: registration test, 1 sheet (2 pages) on {spec.paper_name}, flip {spec.flip}")


def _declared_art(session: Session, card_ids: list[str]) -> dict[str, str]:
    from cardbase.render.art import declared_paths

    return declared_paths(session, card_ids)
