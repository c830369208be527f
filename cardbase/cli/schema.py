"""``cardbase schema``: write or check the JSON Schemas in ``schema/``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from cardbase.cli.common import checked_path, echo

app = typer.Typer(
    help="JSON Schemas of the catalog and deck files.\n\nExample: cardbase schema generate --check",
    no_args_is_help=True,
)


def render_schemas() -> dict[str, str]:
    """Every schema file's name and its exact text, generated from the file models."""
    from cardbase.catalog.models import CATALOG_MODELS
    from cardbase.decks.files import deck_schema

    schemas: dict[str, dict[str, Any]] = {}
    for game, model in CATALOG_MODELS.items():
        schema = model.model_json_schema()
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        schema["title"] = f"cardbase {game} catalog file"
        schemas[f"catalog.{game}.schema.json"] = schema
    schemas["deck.schema.json"] = deck_schema()
    return {
        name: json.dumps(s, ensure_ascii=False, indent=2, sort_keys=True) + "\n" for name, s in sorted(schemas.items())
    }


@app.command()
def generate(
    folder: Annotated[Path, typer.Option("--folder", help="Where to write them.", callback=checked_path)] = Path(
        "schema"
    ),
    check: Annotated[bool, typer.Option("--check", help="Only check the files are current; exit 1 if not.")] = False,
) -> None:
    """Generate the JSON Schemas from the models (or check that they are current).

    Example: cardbase schema generate --check
    """
    from cardbase.textfiles import output_folder_target, read_text, write_text_output

    real = output_folder_target(folder, "schemas")
    stale = []
    for filename, text in render_schemas().items():
        path = real / filename
        current = read_text(path, "schema") if path.is_file() else None
        if current == text:
            continue
        stale.append(filename)
        if not check:
            write_text_output(path, text, "schema")
    if check and stale:
        echo(f"out of date: {', '.join(stale)}; run `cardbase schema generate`", err=True)
        raise typer.Exit(1)
    echo("schemas are current" if not stale else f"wrote {', '.join(stale)}")
