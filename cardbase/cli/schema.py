"""``cardbase schema``: write or check the JSON Schemas in ``schema/``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(help="JSON Schemas of the catalog and deck files.", no_args_is_help=True)


@app.command()
def generate(
    folder: Annotated[Path, typer.Option("--folder", help="Where to write them.")] = Path("schema"),
    check: Annotated[bool, typer.Option("--check", help="Only check the files are current; exit 1 if not.")] = False,
) -> None:
    """Generate the JSON Schemas from the models (or check that they are current).

    Example: cardbase schema generate --check
    """
    from cardbase.catalog.schemas import render_schemas

    stale = []
    for filename, text in render_schemas().items():
        path = folder / filename
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            continue
        stale.append(filename)
        if not check:
            folder.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    if check and stale:
        typer.echo(f"out of date: {', '.join(stale)}; run `cardbase schema generate`", err=True)
        raise typer.Exit(1)
    typer.echo("schemas are current" if not stale else f"wrote {', '.join(stale)}")
