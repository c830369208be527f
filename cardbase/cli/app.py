"""The ``cardbase`` command: registers the command groups and maps user errors to exit codes."""

from __future__ import annotations

from typing import Any

import typer
from typer.core import TyperGroup

from cardbase.cli import cards, catalog, deck, draws, odds, play, render, replay, schema, sim
from cardbase.cli import print as print_cmd


class _Root(TyperGroup):
    """Root group: a user error becomes one message on stderr and its exit code."""

    def invoke(self, ctx: Any) -> Any:
        from cardbase.errors import CardbaseError

        try:
            return super().invoke(ctx)
        except CardbaseError as error:
            typer.echo(f"cardbase: error: {error}", err=True)
            raise typer.Exit(error.exit_code) from None


app = typer.Typer(
    cls=_Root,
    name="cardbase",
    help="Card database, decks, proxies and simulators for Méa, Meio and Meikyu Kingdom.\n\n"
    "Example: cardbase cards search 't:monster cost<=3' --game mea",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(catalog.app, name="catalog")
app.add_typer(cards.app, name="cards")
app.add_typer(deck.app, name="deck")
app.add_typer(schema.app, name="schema")
app.add_typer(sim.app, name="sim")
app.add_typer(play.app, name="play")
app.command("replay")(replay.replay)
app.add_typer(render.app, name="render")
app.add_typer(print_cmd.app, name="print")
app.add_typer(render.export_app, name="export")
app.command("draws")(draws.draws)
app.add_typer(odds.app, name="odds")


def main() -> None:
    """Entry point of the ``cardbase`` console script."""
    app()
