"""``cardbase render``: draw one card to a PNG (Pillow) or a one-card vector PDF (ReportLab).

Only ``typer`` is imported here at module level; Pillow, ReportLab and the database load
inside the command.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from cardbase.cli import complete
from cardbase.cli.common import (
    CardArg,
    CardGameOpt,
    DbOption,
    JsonOption,
    art_folder,
    checked_path,
    open_db,
    print_json,
    say_done,
    warn,
)
from cardbase.cli.print import AssumeOption, assumed_values
from cardbase.errors import counted

app = typer.Typer(
    help='Draw single cards to image files.\n\nExample: cardbase render card "Crème Golem" -o exports/golem.png',
    no_args_is_help=True,
)


@app.command()
def card(
    name: CardArg,
    game: CardGameOpt = None,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            help="File to write: .png, or .pdf for vector (default: exports/<card>.png).",
            callback=checked_path,
        ),
    ] = None,
    dpi: Annotated[int, typer.Option("--dpi", help="Resolution of a PNG, in dots per inch.")] = 300,
    card_size: Annotated[
        str, typer.Option("--card-size", help="poker (63×88 mm), bridge, mini, or WxH such as 2.5x3.5in.")
    ] = "poker",
    bleed: Annotated[str, typer.Option("--bleed", help="Extra background around the card, e.g. 3mm.")] = "0mm",
    back: Annotated[bool, typer.Option("--back", help="Draw the card's back instead of its face.")] = False,
    images: Annotated[
        Path,
        typer.Option("--images", help="Folder of card art, <game>/<card-slug>.png|jpg inside it.", callback=art_folder),
    ] = Path("card_images"),
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Do not read or write card_images/.cache.")] = False,
    layout: Annotated[
        Path | None,
        typer.Option("--layout", help="A TOML file of layouts replacing any card kind's.", callback=checked_path),
    ] = None,
    assume: AssumeOption = None,
    db: DbOption = None,
    json: JsonOption = False,
) -> None:
    """Draw one card's face from the catalog: to PNG at any DPI, or to a vector PDF.

    Unknown values print as "?" (with --assume, Meikyu's come from the profile, marked ASSUMED);
    demo cards carry a DEMO mark; missing art gets a placeholder.

    Example: cardbase render card "Crème Golem" -o exports/golem-600dpi.png --dpi 600
    """
    from cardbase.db.queries import check_game, find_card
    from cardbase.names import file_slug
    from cardbase.render.art import declared_paths
    from cardbase.render.options import SheetOptions
    from cardbase.render.printing import render_card

    game = check_game(game)
    options = SheetOptions(card_size=card_size, bleed=bleed, dpi=dpi, layout=layout)
    spec = options.spec(game)  # every option checked against its bound before the database opens
    size, bleed_mm = spec.card, spec.bleed
    database = open_db(db)
    with database.session() as session:
        found = find_card(session, name, game)
        declared = declared_paths(session, [found.id])
    assumed, profile = assumed_values(assume, found.game) if assume is not None else ({}, "")
    out = output or Path("exports") / f"{file_slug(found.name)}{'-back' if back else ''}.png"
    with options.layouts():
        report = render_card(
            found,
            out,
            dpi=dpi,
            size=size,
            bleed=bleed_mm,
            images=images,
            use_cache=not no_cache,
            declared_art=declared,
            back=back,
            assumed=assumed,
            profile=profile,
        )
    for line in report.warnings:
        warn(line)
    if json:
        print_json(report.as_dict())
        return
    what = f"{report.width_px}×{report.height_px} px at {dpi} DPI" if out.suffix.lower() == ".png" else "vector PDF"
    say_done(f"wrote {out}: {found.name} ({what})")


export_app = typer.Typer(
    help="Export cards for print services: PNG images and a manifest.\n\n"
    "Example: cardbase export images examples/decks/mea-goblin-rush.txt -o exports/goblin-rush-images",
    no_args_is_help=True,
)


@export_app.command("images")
def export_images(
    file: Annotated[
        Path,
        typer.Argument(
            shell_complete=complete.decks,
            help="Deck: a file (text or JSON) or a database deck's name (db:NAME picks the database deck).",
            callback=checked_path,
        ),
    ],
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="Folder to write (default: exports/<deck>-images).", callback=checked_path),
    ] = None,
    game: Annotated[
        str | None,
        typer.Option("--game", "-g", shell_complete=complete.games, help="Game, when the file has no 'game:' line."),
    ] = None,
    dpi: Annotated[int, typer.Option("--dpi", help="Resolution of the PNGs (30 to 2400).")] = 300,
    card_size: Annotated[
        str | None, typer.Option("--card-size", help="poker (63×88 mm), bridge, mini, or WxH.", show_default=False)
    ] = None,
    bleed: Annotated[
        str, typer.Option("--bleed", help="Background past each card's edge, e.g. 3mm (≤ 10 mm).")
    ] = "0mm",
    backs: Annotated[bool, typer.Option("--backs/--no-backs", help="Also write each distinct back.")] = True,
    copies: Annotated[int, typer.Option("--copies", help="Multiply every count in the manifest (1 to 100).")] = 1,
    bleed_fill: Annotated[
        str, typer.Option("--bleed-fill", help="Bleed of full-art scans: 'art' (mirrored out) or 'frame'.")
    ] = "frame",
    full_art: Annotated[
        bool, typer.Option("--full-art", help="Art files are whole-face scans, printed as is.")
    ] = False,
    layout: Annotated[
        Path | None,
        typer.Option("--layout", help="A TOML file of layouts replacing any card kind's.", callback=checked_path),
    ] = None,
    images: Annotated[Path, typer.Option("--images", help="Folder of card art.", callback=art_folder)] = Path(
        "card_images"
    ),
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Do not read or write card_images/.cache.")] = False,
    db: DbOption = None,
    json: JsonOption = False,
) -> None:
    """Write a deck as one PNG per card (and per back) in deck order, with manifest.csv of names and counts.

    Example: cardbase export images examples/decks/mea-goblin-rush.txt -o exports/rush --dpi 300 --bleed 3mm
    """
    from cardbase.cli.print import deck_entries
    from cardbase.db.queries import check_game
    from cardbase.names import slug
    from cardbase.render.art import declared_paths
    from cardbase.render.export import MANIFEST
    from cardbase.render.export import export_images as run
    from cardbase.render.options import SheetOptions

    game_id = check_game(game)
    options = SheetOptions(
        card_size=card_size, bleed=bleed, dpi=dpi, copies=copies, bleed_fill=bleed_fill, layout=layout
    )
    spec = options.spec(game_id)
    database = open_db(db)
    entries, _, deck_warnings = deck_entries(database, file, game_id)
    for line in deck_warnings:
        warn(line)
    with database.session() as session:
        declared = declared_paths(session, [c.id for c, _ in entries])
    out = output or Path("exports") / f"{slug(file.stem) or 'deck'}-images"
    with options.layouts():
        report = _export(run, entries, out, spec, dpi, backs, copies, images, no_cache, declared, bleed_fill, full_art)
    for line in report.warnings:
        warn(line)
    if json:
        print_json(report.as_dict())
        return
    say_done(
        f"wrote {out}/: {counted(report.fronts, 'front')} and {counted(report.backs, 'back')} "
        f"for {counted(report.cards, 'card')}, "
        f"{report.width_px}×{report.height_px} px at {dpi} DPI; counts in {out / MANIFEST}"
    )


def _export(
    run: Any,
    entries: list[tuple[Any, int]],
    out: Path,
    spec: Any,
    dpi: int,
    backs: bool,
    copies: int,
    images: Path,
    no_cache: bool,
    declared: dict[str, str],
    bleed_fill: str,
    full_art: bool,
) -> Any:
    """Run ``export_images`` with the command's options."""
    return run(
        [(card, n * copies) for card, n in entries],
        out,
        size=spec.card,
        bleed=spec.bleed,
        dpi=dpi,
        backs=backs,
        images=images,
        use_cache=not no_cache,
        declared_art=declared,
        bleed_fill=bleed_fill,
        full_art=full_art,
    )
