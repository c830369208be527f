"""The ``cardbase`` command: registers the command groups and maps user errors to exit codes."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from cardbase.cli import cards, catalog, deck, draws, lab, odds, play, render, replay, schema, serve, sim
from cardbase.cli import print as print_cmd


class _Root(TyperGroup):
    """Root group: every error ends in ``cli.boundary`` as one message and its exit code."""

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except BaseException as error:
            if isinstance(error, SystemExit | GeneratorExit):
                raise
            from cardbase.cli.boundary import handle_command_error

            handle_command_error(error)

    def make_context(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().make_context(*args, **kwargs)
        except KeyboardInterrupt:  # while parsing: Typer would exit 130 silently
            raise typer.Abort() from None

    def command_path_of(self, args: list[str]) -> str:
        """``cardbase`` and the command names that lead ``args`` (for where to find help)."""
        path, group = ["cardbase"], self
        for word in args:
            sub = getattr(group, "commands", {}).get(word)
            if sub is None:
                break
            path.append(word)
            group = sub
        return " ".join(path)

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        try:
            bad_argument = _argv_problem(sys.argv[1:] if args is None else args)
            if bad_argument is not None:
                from cardbase.cli.boundary import say

                say(f"cardbase: error: {bad_argument}")
                code = 2
            else:
                result = super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
                code = result if isinstance(result, int) and not isinstance(result, bool) else 0
        except typer.TyperException as error:
            from cardbase.cli.boundary import handle_usage_error

            code = handle_usage_error(error, self.command_path_of(list(sys.argv[1:] if args is None else args)))
        except typer.Abort:  # end of input where a prompt wanted an answer, or Ctrl-C while parsing
            from cardbase import interrupts
            from cardbase.cli.boundary import say

            say(f"cardbase: {interrupts.word()}")
            code = interrupts.exit_code()
        if standalone_mode:
            sys.exit(code)
        return code


def _argv_problem(args: Sequence[str]) -> str | None:
    """Why an argument is not text cardbase can use anywhere (``None`` if all are): one holding a
    NUL (no path or name can), or one that is not UTF-8 (Python hands such bytes on as lone
    surrogates, which can be neither printed nor stored)."""
    from cardbase.errors import quoted

    for number, word in enumerate(args, start=1):
        if "\0" in word:
            return f"argument {number} ({quoted(word)}) holds a NUL character"
        if not word.isascii() and _has_surrogate(word):
            return f"argument {number} ({quoted(word)}) is not UTF-8 text (cardbase reads its arguments as UTF-8)"
    return None


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


app = typer.Typer(
    cls=_Root,
    name="cardbase",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def version_text(db: str | None) -> str:
    """What ``--version`` prints: the package, the database schema it writes, and the database in use."""
    from cardbase import __version__
    from cardbase.db.engine import database_url
    from cardbase.db.models import SCHEMA_VERSION
    from cardbase.errors import mask_secrets

    return (
        f"cardbase {__version__}\ndatabase schema version {SCHEMA_VERSION}\ndatabase: {mask_secrets(database_url(db))}"
    )


def _show_version(ctx: typer.Context, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    typer.echo(version_text(None))
    raise typer.Exit()


@app.callback()
def root(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_show_version,
            is_eager=True,
            help="Show the version, the database schema version and the database (CARDBASE_DB), then exit.",
        ),
    ] = False,
) -> None:
    """Card database, decks, proxies and simulators for Méa, Meio and Meikyu Kingdom.

    Example: cardbase cards search 't:monster cost<=3' --game mea

    Example: cardbase lab gauntlet examples/decks/mea-goblin-rush.txt --field examples/decks/mea-tile-control.txt
    """


app.add_typer(catalog.app, name="catalog")
app.add_typer(cards.app, name="cards")
app.add_typer(deck.app, name="deck")
app.add_typer(schema.app, name="schema")
app.add_typer(sim.app, name="sim")
app.add_typer(lab.app, name="lab")
app.add_typer(play.app, name="play")
app.command("replay")(replay.replay)
app.add_typer(render.app, name="render")
app.add_typer(print_cmd.app, name="print")
app.add_typer(render.export_app, name="export")
app.command("draws")(draws.draws)
app.add_typer(odds.app, name="odds")
app.command("serve")(serve.serve)


def main() -> None:
    """Entry point of the ``cardbase`` console script."""
    app()
