"""``cardbase print``: print-ready proxy sheets as PDF (decks, whole sets, Méa's tiles, a printer test).

Only ``typer`` is imported here at module level; ReportLab, Pillow and the database load
inside the commands.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from cardbase.cli.common import DbOption, JsonOption, console, open_db, print_json, warn

app = typer.Typer(
    help="Print proxy sheets as PDF: true size, crop marks, duplex backs.\n\n"
    "Example: cardbase print deck examples/decks/mea-goblin-rush.txt -o exports/goblin-rush.pdf",
    no_args_is_help=True,
)

OutputOption = Annotated[
    Path | None, typer.Option("--output", "-o", help="PDF to write (default: exports/<name>.pdf).", show_default=False)
]
PaperOption = Annotated[str, typer.Option("--paper", help="a4, letter, a3, legal, or WxH such as 8.5x11in.")]
CardSizeOption = Annotated[
    str | None,
    typer.Option(
        "--card-size",
        help="poker (63×88 mm, the default for every game), bridge, mini, or WxH such as 2.5x3.5in.",
        show_default=False,
    ),
]
BleedOption = Annotated[str, typer.Option("--bleed", help="Background printed past each card's edge: 3mm, 0.125in.")]
GapOption = Annotated[str, typer.Option("--gap", help="Blank space between neighbouring cards' bleed, e.g. 2mm.")]
MarginOption = Annotated[str, typer.Option("--margin", help="Least space from the paper edge to the cards.")]
CropOption = Annotated[
    bool, typer.Option("--crop-marks/--no-crop-marks", help="Dark cut marks in all four margins, to the paper edge.")
]
CutLinesOption = Annotated[bool, typer.Option("--cut-lines", help="Also draw dashed lines along every cut.")]
BacksOption = Annotated[
    bool, typer.Option("--backs/--no-backs", help="A page of backs after each page of fronts, for duplex printing.")
]
FlipOption = Annotated[str, typer.Option("--flip", help="How the printer turns the sheet: long-edge or short-edge.")]
RegistrationOption = Annotated[
    bool, typer.Option("--registration-test", help="Begin with a one-sheet alignment test for your printer.")
]
DpiOption = Annotated[int, typer.Option("--dpi", help="Resolution art images are stored at in the PDF.")]
ImagesOption = Annotated[Path, typer.Option("--images", help="Folder of card art: <game>/<card-slug>.png|jpg.")]
NoCacheOption = Annotated[bool, typer.Option("--no-cache", help="Do not read or write card_images/.cache.")]
AuthorOption = Annotated[str, typer.Option("--author", help="Author recorded in the PDF.")]


class _Sheet:
    """The sheet options every print command takes, parsed."""

    def __init__(self, **options: Any):
        self.options = options

    def spec(self, game: str | None) -> Any:
        from cardbase.render.sheet import FLIPS, SheetSpec
        from cardbase.render.units import CARD_SIZES, GAME_CARD_SIZES, PAPER_SIZES, parse_length, parse_size

        o = self.options
        if o["flip"] not in FLIPS:
            from cardbase.errors import UsageError

            raise UsageError(f"bad --flip {o['flip']!r}: use long-edge or short-edge")
        paper = parse_size(o["paper"], PAPER_SIZES, "--paper")
        default = GAME_CARD_SIZES.get(game or "", "poker")
        card = parse_size(o["card_size"] or default, CARD_SIZES, "--card-size")
        return SheetSpec(
            paper=paper,
            card=card,
            bleed=parse_length(o["bleed"], "--bleed"),
            gap=parse_length(o["gap"], "--gap"),
            margin=parse_length(o["margin"], "--margin"),
            crop_marks=o["crop_marks"],
            cut_lines=o["cut_lines"],
            backs=o["backs"],
            flip=o["flip"],
            paper_name=o["paper"].lower(),
        )


def _progress_printer(total_hint: int) -> tuple[Any, Any]:
    """A Rich progress bar on stderr for long prints (a no-op when stderr is not a terminal)."""
    err = console(stderr=True)
    if total_hint < 40 or not err.is_terminal:
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
    sheet: _Sheet,
    *,
    game: str | None,
    output: Path | None,
    registration: bool,
    dpi: int,
    images: Path,
    no_cache: bool,
    author: str,
    declared_art: dict[str, str],
    json: bool,
    notes: list[str] | None = None,
) -> None:
    """Print (card, copies) ``entries`` to a PDF and report it: the step every print command ends with."""
    from cardbase.render.printing import print_cards
    from cardbase.render.units import format_mm

    spec = sheet.spec(game)
    out = output or Path("exports") / f"{name}.pdf"
    bar, update = _progress_printer(sum(n for _, n in entries))
    try:
        if bar:
            bar.start()
        report = print_cards(
            entries,
            out,
            spec,
            title=title,
            author=author,
            images=images,
            dpi=dpi,
            use_cache=not no_cache,
            declared_art=declared_art,
            registration=registration,
            progress=update,
        )
    finally:
        if bar:
            bar.stop()
    for line in report.warnings:
        warn(line)
    for line in notes or []:
        typer.echo(f"note: {line}", err=True)
    if json:
        print_json(report.as_dict() | {"notes": notes or []})
        return
    grid = report.grid
    assert grid is not None
    sheets = report.sheets + (1 if registration else 0)
    backs = f", backs for {spec.flip} duplex" if spec.backs else ""
    typer.echo(
        f"wrote {out}: {report.cards} cards ({report.unique_faces} different) on {sheets} sheet(s)"
        f"{' (the first a registration test)' if registration else ''}, "
        f"{report.pages} page(s); {grid.cols}×{grid.rows} per sheet on {spec.paper_name}, "
        f"{format_mm(spec.card[0])}×{format_mm(spec.card[1])} mm, {format_mm(spec.bleed)} mm bleed{backs}; "
        f"{report.size_bytes / 1024:.0f} KB. Print at 100 % (actual size)."
    )


def _card_order(card: Any) -> tuple:
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


def deck_entries(database: Any, path: Path, game: str | None) -> tuple[list[tuple[Any, int]], str, list[str]]:
    """The catalog cards of the deck file at ``path`` with their counts, the deck's name, and warnings.

    A deck that names cards the catalog does not have (or cannot be read) is refused with every
    problem listed; whether the deck is legal for a format does not matter for printing proxies.
    """
    from cardbase.db.models import Card
    from cardbase.decks.service import resolve_file_or_fail
    from cardbase.errors import InvalidData

    resolved = resolve_file_or_fail(database, path, game)
    counts: dict[str, int] = {}
    for entry in resolved.deck.cards:
        counts[entry.card_id] = counts.get(entry.card_id, 0) + entry.count
    with database.session() as session:
        cards = {cid: session.get(Card, cid) for cid in counts}
    missing = [cid for cid, card in cards.items() if card is None]
    if missing:
        raise InvalidData(str(path), [f"card {cid!r} is not in the catalog" for cid in missing])
    warnings = [str(p) for p in resolved.problems if p.severity != "error"]
    return [(cards[cid], n) for cid, n in counts.items()], resolved.deck.name or path.stem, warnings


@app.command("deck")
def print_deck(
    file: Annotated[Path, typer.Argument(help="Deck file: text (3 Selounticia per line) or JSON.")],
    game: Annotated[str | None, typer.Option("--game", "-g", help="Game, when the file has no 'game:' line.")] = None,
    output: OutputOption = None,
    paper: PaperOption = "a4",
    card_size: CardSizeOption = None,
    bleed: BleedOption = "0mm",
    gap: GapOption = "0mm",
    margin: MarginOption = "5mm",
    crop_marks: CropOption = True,
    cut_lines: CutLinesOption = False,
    backs: BacksOption = False,
    flip: FlipOption = "long-edge",
    registration_test: RegistrationOption = False,
    dpi: DpiOption = 300,
    images: ImagesOption = Path("card_images"),
    no_cache: NoCacheOption = False,
    author: AuthorOption = "cardbase",
    db: DbOption = None,
    json: JsonOption = False,
) -> None:
    """Print a deck file: every card as many times as the deck has it.

    Names that are not in the catalog are listed (with their lines) and nothing is printed; use
    `cardbase deck validate` to check the deck against a format.

    Example: cardbase print deck examples/decks/mea-goblin-rush.txt --backs --paper letter
    """
    from cardbase.db.queries import check_game
    from cardbase.names import slug

    game_id = check_game(game)
    sheet = _Sheet(
        paper=paper,
        card_size=card_size,
        bleed=bleed,
        gap=gap,
        margin=margin,
        crop_marks=crop_marks,
        cut_lines=cut_lines,
        backs=backs,
        flip=flip,
    )
    sheet.spec(game_id)
    database = open_db(db)
    entries, name, deck_warnings = deck_entries(database, file, game_id)
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
        dpi=dpi,
        images=images,
        no_cache=no_cache,
        author=author,
        declared_art=declared,
        json=json,
    )


@app.command("set")
def print_set(
    game: Annotated[str, typer.Argument(help="Game: mea, meio or meikyu.")],
    set_name: Annotated[
        str | None, typer.Option("--set", help="Only this set (e.g. demo, core); default: every set.")
    ] = None,
    output: OutputOption = None,
    paper: PaperOption = "a4",
    card_size: CardSizeOption = None,
    bleed: BleedOption = "0mm",
    gap: GapOption = "0mm",
    margin: MarginOption = "5mm",
    crop_marks: CropOption = True,
    cut_lines: CutLinesOption = False,
    backs: BacksOption = False,
    flip: FlipOption = "long-edge",
    registration_test: RegistrationOption = False,
    dpi: DpiOption = 300,
    images: ImagesOption = Path("card_images"),
    no_cache: NoCacheOption = False,
    author: AuthorOption = "cardbase",
    db: DbOption = None,
    json: JsonOption = False,
) -> None:
    """Print every card of a game's set, each as many times as the catalog says it exists.

    A card whose count is unknown is printed once, and the summary says how many such cards there
    are. Méa's tiles are left out: print them with `cardbase print tiles`.

    Example: cardbase print set meikyu --backs --bleed 3mm --paper letter
    """
    from sqlalchemy import select

    from cardbase.db.models import Card
    from cardbase.db.queries import check_game, set_rows
    from cardbase.errors import UsageError
    from cardbase.names import fold

    game_id = check_game(game)
    assert game_id is not None
    sheet = _Sheet(
        paper=paper,
        card_size=card_size,
        bleed=bleed,
        gap=gap,
        margin=margin,
        crop_marks=crop_marks,
        cut_lines=cut_lines,
        backs=backs,
        flip=flip,
    )
    sheet.spec(game_id)  # bad options fail before the database is opened
    database = open_db(db)
    with database.session() as session:
        sets = {row.code: row for row in set_rows(session, game_id)}
        if set_name is not None and fold(set_name) not in sets:
            raise UsageError(f"{game_id} has no set {set_name!r}; its sets are {', '.join(sorted(sets))}")
        stmt = select(Card).where(Card.game == game_id, Card.type != "tile")
        if set_name is not None:
            stmt = stmt.where(Card.set_code == fold(set_name))
        cards = sorted(session.scalars(stmt), key=_card_order)
        declared = _declared_art(session, [c.id for c in cards])
    if not cards:
        raise UsageError(f"no cards to print in {game_id}" + (f" set {set_name!r}" if set_name else ""))
    from cardbase.catalog.fields import APPLICABLE

    # A count that applies but is unknown is printed once and reported; where the count does
    # not apply (a playing card), one is the truth.
    unknown = [c for c in cards if c.copies is None and "copies" in APPLICABLE.get((c.game, c.type), ())]
    entries = [(c, c.copies if c.copies is not None else 1) for c in cards]
    notes = []
    if unknown:
        notes.append(
            f"{len(unknown)} card(s) have an unknown count in the catalog and were printed once each "
            "(import the real counts with `cardbase catalog import`)"
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
        dpi=dpi,
        images=images,
        no_cache=no_cache,
        author=author,
        declared_art=declared,
        json=json,
        notes=notes,
    )


@app.command("tiles")
def print_tiles(
    output: OutputOption = None,
    paper: PaperOption = "a4",
    card_size: CardSizeOption = None,
    bleed: BleedOption = "0mm",
    gap: GapOption = "0mm",
    margin: MarginOption = "5mm",
    crop_marks: CropOption = True,
    cut_lines: CutLinesOption = False,
    backs: BacksOption = False,
    flip: FlipOption = "long-edge",
    registration_test: RegistrationOption = False,
    dpi: DpiOption = 300,
    images: ImagesOption = Path("card_images"),
    no_cache: NoCacheOption = False,
    author: AuthorOption = "cardbase",
    db: DbOption = None,
    json: JsonOption = False,
) -> None:
    """Print Méa's tiles: 9 yellow and 9 blue (one set for each player).

    With --backs each tile gets the other colour on its back, so a printed tile can be flipped
    (the rulebook's "flip: change a tile's owner") by turning it over.

    Example: cardbase print tiles --backs --card-size 63x63mm
    """
    from sqlalchemy import select

    from cardbase.db.models import Card
    from cardbase.errors import UsageError

    sheet = _Sheet(
        paper=paper,
        card_size=card_size,
        bleed=bleed,
        gap=gap,
        margin=margin,
        crop_marks=crop_marks,
        cut_lines=cut_lines,
        backs=backs,
        flip=flip,
    )
    sheet.spec("mea")
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
        dpi=dpi,
        images=images,
        no_cache=no_cache,
        author=author,
        declared_art=declared,
        json=json,
    )


@app.command("registration")
def print_registration(
    output: OutputOption = None,
    paper: PaperOption = "a4",
    card_size: CardSizeOption = None,
    bleed: BleedOption = "0mm",
    gap: GapOption = "0mm",
    margin: MarginOption = "5mm",
    flip: FlipOption = "long-edge",
    json: JsonOption = False,
) -> None:
    """Print only the alignment test: one sheet, front and back, for your printer and settings.

    Print it double-sided at 100 %, measure the scale bar, and hold the sheet to the light: each
    black cross should sit on its red cross. Use the same --paper, --card-size and --flip as for cards.

    Example: cardbase print registration --paper letter --flip short-edge
    """
    from cardbase.render.printing import print_registration as run

    spec = _Sheet(
        paper=paper,
        card_size=card_size,
        bleed=bleed,
        gap=gap,
        margin=margin,
        crop_marks=True,
        cut_lines=False,
        backs=True,
        flip=flip,
    ).spec(None)
    out = output or Path("exports") / f"registration-{spec.paper_name}.pdf"
    report = run(out, spec)
    if json:
        print_json(report.as_dict())
        return
    typer.echo(f"wrote {out}: registration test, 1 sheet (2 pages) on {spec.paper_name}, flip {spec.flip}")


def _declared_art(session: Any, card_ids: list[str]) -> dict[str, str]:
    from cardbase.render.art import declared_paths

    return declared_paths(session, card_ids)
