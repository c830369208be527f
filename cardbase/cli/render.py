"""``cardbase render``: draw one card to a PNG (Pillow) or a one-card vector PDF (ReportLab).

Only ``typer`` is imported here at module level; Pillow, ReportLab and the database load
inside the command.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cardbase.cli.common import DbOption, JsonOption, open_db, print_json, warn

app = typer.Typer(
    help='Draw single cards to image files.\n\nExample: cardbase render card "Crème Golem" -o exports/golem.png',
    no_args_is_help=True,
)


@app.command()
def card(
    name: Annotated[str, typer.Argument(help="Card name or alias (any case, accents optional).")],
    game: Annotated[str | None, typer.Option("--game", "-g", help="Game, when the name is in several.")] = None,
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="File to write: .png, or .pdf for vector (default: exports/<card>.png)."),
    ] = None,
    dpi: Annotated[int, typer.Option("--dpi", help="Resolution of a PNG, in dots per inch.")] = 300,
    card_size: Annotated[
        str, typer.Option("--card-size", help="poker (63×88 mm), bridge, mini, or WxH such as 2.5x3.5in.")
    ] = "poker",
    bleed: Annotated[str, typer.Option("--bleed", help="Extra background around the card, e.g. 3mm.")] = "0mm",
    back: Annotated[bool, typer.Option("--back", help="Draw the card's back instead of its face.")] = False,
    images: Annotated[
        Path, typer.Option("--images", help="Folder of card art, <game>/<card-slug>.png|jpg inside it.")
    ] = Path("card_images"),
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Do not read or write card_images/.cache.")] = False,
    db: DbOption = None,
    json: JsonOption = False,
) -> None:
    """Draw one card's face from the catalog: to PNG at any DPI, or to a vector PDF.

    Unknown values print as "?"; demo cards carry a DEMO mark; missing art gets a placeholder.

    Example: cardbase render card "Crème Golem" -o golem.png --dpi 600
    """
    from cardbase.db.queries import check_game, find_card
    from cardbase.names import slug
    from cardbase.render.art import declared_paths
    from cardbase.render.printing import render_card
    from cardbase.render.units import CARD_SIZES, parse_length, parse_size

    game = check_game(game)
    size = parse_size(card_size, CARD_SIZES, "--card-size")
    bleed_mm = parse_length(bleed, "--bleed")
    database = open_db(db)
    with database.session() as session:
        found = find_card(session, name, game)
        declared = declared_paths(session, [found.id])
    out = output or Path("exports") / f"{slug(found.name)}{'-back' if back else ''}.png"
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
    )
    for line in report.warnings:
        warn(line)
    if json:
        print_json(report.as_dict())
        return
    what = f"{report.width_px}×{report.height_px} px at {dpi} DPI" if out.suffix.lower() == ".png" else "vector PDF"
    typer.echo(f"wrote {out}: {found.name} ({what})")
