"""The ``cardbase`` command: registers the command groups and maps user errors to exit codes."""

from __future__ import annotations

import copy
import functools
import importlib
import sys
from collections.abc import Callable, Iterator, Mapping, MutableMapping, Sequence
from typing import Annotated, Any

import typer
import typer.main
from typer.core import TyperCommand, TyperGroup

COMMANDS: dict[str, tuple[str, str]] = {
    "replay": ("cardbase.cli.replay:replay", "Replay a game record, re-checking every action against the rules."),
    "draws": (
        "cardbase.cli.draws:draws",
        "Exact chances that an opening hand has what you need; per-game opening reports; sample hands.",
    ),
    "serve": (
        "cardbase.cli.serve:serve",
        "Serve the card gallery, deck builder and game tables at http://127.0.0.1:8765 (Ctrl-C stops).",
    ),
    "catalog": ("cardbase.cli.catalog:app", "The card catalog: status, import and export."),
    "cards": ("cardbase.cli.cards:app", "Search cards and show them."),
    "deck": ("cardbase.cli.deck:app", "Build, check and share decks."),
    "collection": (
        "cardbase.cli.collection:app",
        "The cards you own: counts per card, files in and out, and what your decks miss.",
    ),
    "schema": ("cardbase.cli.schema:app", "JSON Schemas of the catalog and deck files."),
    "sim": ("cardbase.cli.sim:app", "Simulate many games between agents."),
    "lab": (
        "cardbase.cli.lab:app",
        "Judge decks by simulation: gauntlets, per-card figures, opening size, Meio splits, Meikyu cards.",
    ),
    "play": ("cardbase.cli.play:app", "Play a game in the terminal against agents."),
    "render": ("cardbase.cli.render:app", "Draw single cards to image files."),
    "print": ("cardbase.cli.print:app", "Print proxy sheets as PDF: true size, crop marks, duplex backs."),
    "export": ("cardbase.cli.render:export_app", "Export cards for print services: PNG images and a manifest."),
    "odds": ("cardbase.cli.odds:app", "Exact chances of the dice in a game's rules."),
}
"""The top-level commands in the order ``--help`` lists them: where each is defined (``module:name``,
a Typer app or a command function) and the first paragraph of its help, which ``--help`` and shell
completion show without importing the module (a test checks it against the module's own help)."""


def _build(name: str) -> Any:
    """The click command of top-level command ``name``, built by Typer as ``add_typer`` would: a
    group's own commands are built when one of them is used (``_lazy_group``)."""
    module, attribute = COMMANDS[name][0].split(":")
    target = getattr(importlib.import_module(module), attribute)
    holder = typer.Typer()
    if not isinstance(target, typer.Typer):
        holder.command(name)(target)
        return typer.main.get_group(holder).commands[name]
    shell = copy.copy(target)  # the group itself (help, callback, options), its commands added below
    shell.registered_commands, shell.registered_groups = [], []
    holder.add_typer(shell, name=name)
    group: TyperGroup = typer.main.get_group(holder).commands[name]  # type: ignore[assignment]
    short, markup = holder.pretty_exceptions_short, holder.rich_markup_mode
    builders: dict[str, Callable[[], Any]] = {}
    for command in target.registered_commands:
        assert command.callback is not None
        key = command.name or typer.main.get_command_name(command.callback.__name__)
        builders[key] = functools.partial(
            _with_rules_help,
            f"{name} {key}",
            functools.partial(
                typer.main.get_command_from_info, command, pretty_exceptions_short=short, rich_markup_mode=markup
            ),
        )
    for sub in target.registered_groups:
        assert sub.name, f"cardbase {name}: a sub-group without a name"  # Typer would merge its commands
        builders[sub.name] = functools.partial(
            typer.main.get_group_from_info,
            sub,
            pretty_exceptions_short=short,
            rich_markup_mode=markup,
            suggest_commands=holder.suggest_commands,
        )
    group.commands = _LazyCommands(builders)
    return group


def _with_rules_help(path: str, build: Callable[[], Any]) -> Any:
    """The command ``build`` makes, its ``--rule`` (completed by ``complete.rules``) listing in its
    help the options of the command's game (``sim meio``: Meio's; ``lab gauntlet``: Méa's), read from
    the rules class as ``--rule`` reads them: the help names each option the command takes."""
    from cardbase.cli import complete

    command = build()
    for param in getattr(command, "params", ()):
        if getattr(param, "_custom_shell_complete", None) is complete.rules:
            from cardbase.sim.registry import GAMES

            game_id = complete.COMMAND_GAMES.get(path, path.rpartition(" ")[2])
            if game_id in GAMES:
                param.help = f"{param.help} {GAMES[game_id].rules_help()}"
    return command


def strict_parameters(command: Any) -> Any:
    """``command`` (its sub-commands too) with two kinds of parameter checked as they are parsed, by
    one rule each, before Typer reads them (a value refused is a usage error naming the parameter,
    exit 2; a group whose commands are built lazily gets them checked as they are built):

    - one typed ``int`` reads a whole number as ASCII digits, with a ``-`` in front at most:
      Pydantic's lax integers, which Typer parses with, read ``1_0`` as 10 and ``1.0``, `` 1`` or
      ``+1`` as 1, which ``--rule`` and the web's forms refuse. Its range is then checked as before;
    - one completed from a fixed list of words (``complete.choices``) takes those words and no
      other, in any case and with spaces around, given to the command as the list spells them: each
      command had checked its own (``catalog export`` refused ``--format CSV``, ``catalog import``
      read it; ``--direction ASC`` was read, `` asc`` refused), naming the value but not the option.

    - one typed ``Path`` (or a list of them) refuses a blank value, ``''`` or spaces only (a
      script's ``-o "$OUT"`` with OUT unset): Typer makes ``''`` ``Path('.')``, the working folder,
      before any callback could tell it from ``.``; a name of spaces only is legal but never meant.

    - one completed as a kind of value (``complete.agents``, ``complete.games``, ``complete.rules``,
      …: the completers marked ``complete.checked``) is checked as that kind (``cli.checks``), a
      value given (not a default) that the command would refuse later being refused as it is
      parsed: the command's refusal named the value (``unknown Méa agent 'bogus'``) but not the
      option, which ``--agents`` and ``--vs`` alike could have given.

    What only the command can check (a card or a deck in the database) it refuses as it runs; an
    error about one text given (``CardbaseError.value``: ``unknown card 'x'``) then names the
    parameter given that text (:func:`_naming_parameters`), as a refusal while parsing does.

    And an option that takes one value (not a list, not a flag) may be given once: Click kept the
    last of ``--games 2 --games 3`` (or ``--games 2 -g 3``) and dropped the first without a word.
    """
    if getattr(command, "params", None) is not None and not getattr(command, "_strict", False):
        command.make_parser = functools.partial(_once_each, command.make_parser)
        command.get_params = functools.partial(_worded_params, command.get_params)
        if getattr(command, "commands", None) is None:
            command.invoke = functools.partial(_naming_parameters, command.invoke)
        command._strict = True
    for param in getattr(command, "params", ()):
        if getattr(param, "_strict", False):
            continue
        words = getattr(getattr(param, "_custom_shell_complete", None), "values", None)
        annotation = getattr(getattr(param, "type_descriptor", None), "annotation", None)
        if annotation is int:
            param.process_value = functools.partial(_whole_first, param.process_value, param)
        elif words:
            param.process_value = functools.partial(_word_first, param.process_value, param, tuple(words))
        elif _is_path(annotation):
            param.process_value = functools.partial(_path_first, param.process_value, param)
        if (check := getattr(getattr(param, "_custom_shell_complete", None), "check", None)) is not None:
            param.process_value = functools.partial(_checked_after, param.process_value, param, check)
        param._strict = True
    commands = getattr(command, "commands", None)
    if commands is not None and not isinstance(commands, _LazyCommands):
        for sub in commands.values():
            strict_parameters(sub)
    return command


_TYPE_WORDS = {"str": "text", "int": "integer", "int range": "integer", "float": "number", "float range": "number"}
"""What the help calls the kind of value a parameter takes, for the Python type Typer would name."""


def _worded_params(get_params: Callable[[Any], list[Any]], ctx: Any) -> list[Any]:
    """A command's parameters (its own, ``--help`` and the completion options that Click and Typer
    add), each shown in the help in a user's words (:func:`_in_user_words`)."""
    params = get_params(ctx)
    for param in params:
        _in_user_words(param)
    return params


def _in_user_words(param: Any) -> None:
    """``param``'s help showing the kind of value it takes in a user's words (``<text>``,
    ``<integer>``, ``<number>``; a repeated option's kind once; a flag none), not as the Python type
    Typer shows (``<str>``, ``<int range>``, ``<list[str]>``, ``<bool>``): the range of a number is
    shown beside it, ``[1<=x<=10000]``."""
    display_type = getattr(param, "display_type", None)
    if display_type is None or getattr(param, "_worded", False):
        return
    param._worded = True

    def shown(ctx: Any) -> str:
        label = display_type(ctx)
        if not (label.startswith("<") and label.endswith(">")):
            return str(label)
        kind = label[1:-1]
        if kind.startswith("list[") and kind.endswith("]"):
            kind = kind[5:-1]
        if kind == "bool":
            return ""
        return f"<{_TYPE_WORDS.get(kind, kind.lower())}>"

    param.display_type = shown


def _once_each(make_parser: Callable[[Any], Any], ctx: Any) -> Any:
    """The command's option parser, refusing an option of one value seen twice on the command line."""
    parser = make_parser(ctx)
    parse_args = parser.parse_args

    def parse_once(args: list[str]) -> Any:
        opts, rest, order = parse_args(args)
        seen: set[str] = set()
        for param in order:
            if param.param_type_name != "option" or param.is_flag or param.multiple or param.count:
                continue
            if param.name in seen and not ctx.resilient_parsing:
                raise typer.BadParameter("given more than once: give it once", ctx=ctx, param=param)
            seen.add(param.name)
        return opts, rest, order

    parser.parse_args = parse_once
    return parser


def _whole_first(process_value: Callable[[Any, Any], Any], param: Any, ctx: Any, value: Any) -> Any:
    """``param.process_value``, after refusing text that is not ``-`` and ASCII digits, or a number
    out of the parameter's range: named with the range, as a user reads it (``0 is out of range:
    give a whole number from 1 to 10,000``), not as the parser library words it ("Input should be
    greater than or equal to 1", one bound and not the value)."""
    from cardbase.games.base import is_whole_number

    if isinstance(value, str) and not is_whole_number(value):
        from cardbase.errors import quoted

        raise typer.BadParameter(
            f"{quoted(value)} is not a whole number (digits 0-9, '-' in front at most)", ctx=ctx, param=param
        )
    low, high = getattr(param, "min", None), getattr(param, "max", None)
    if isinstance(value, str) and (low, high) == (None, None) and len(value) > 40:
        from cardbase.errors import quoted

        raise typer.BadParameter(f"{quoted(value, 40)} is too large for a whole number here", ctx=ctx, param=param)
    if isinstance(value, str) and (low, high) != (None, None) and not getattr(param, "clamp", False):
        # (a number of hundreds of digits is out of any range here: it is not converted, which Python
        # refuses past 4,300 digits, and is shown cut short)
        number = int(value) if len(value) <= 40 else None
        if number is None or (low is not None and number < low) or (high is not None and number > high):
            from cardbase.errors import quoted

            if low is not None and high is not None:
                span = f"from {low:,} to {high:,}"
            else:
                span = f"of at least {low:,}" if low is not None else f"of at most {high:,}"
            shown = value if number is not None else quoted(value, 40)
            raise typer.BadParameter(f"{shown} is out of range: give a whole number {span}", ctx=ctx, param=param)
    return process_value(ctx, value)


def _naming_parameters(invoke: Callable[[Any], Any], ctx: Any) -> Any:
    """``invoke(ctx)`` (a command run), an error about a text the user gave (``error.value``)
    saying which parameter was given it: ``Invalid value for '--vs': …`` as Click says it of a value
    refused while parsing; its exit code, type and listing kept. Only a value given as it is in the
    error (not a default) is matched: a text that no parameter was given (a card named in a deck
    file), or that several were (``deck add Goblin Goblin``: the deck's name or the card's?),
    leaves the message as it is."""
    from cardbase.errors import CardbaseError

    try:
        return invoke(ctx)
    except CardbaseError as error:
        if error.value is None:
            raise
        wanted = str(error.value)
        given = [param for param in ctx.command.params if wanted in _given(ctx, param)]
        if len(given) == 1:  # said as Click says it of a value refused while parsing (two given it: which?)
            named = typer.BadParameter(str(error), ctx=ctx, param=given[0]).format_message()
            if error.listed is not None:
                head = typer.BadParameter(error.listed[0], ctx=ctx, param=given[0]).format_message()
                error.listed = (head, error.listed[1])
            error.args = (named, *error.args[1:])
        raise


def _was_given(ctx: Any, param: Any) -> bool:
    """Whether ``param`` was given (on the command line, or by its environment variable), not its
    default (read by name: Typer's parser is imported with Typer, Click not at all)."""
    source = ctx.get_parameter_source(param.name)
    return source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")


def _given(ctx: Any, param: Any) -> list[str]:
    """The texts given to ``param`` on the command line (none when it took its default)."""
    if not _was_given(ctx, param):
        return []
    value = ctx.params.get(param.name)
    return [str(v) for v in (value if isinstance(value, list | tuple) else [value]) if v is not None]


def _checked_after(
    process_value: Callable[[Any, Any], Any], param: Any, check: Callable[[Any, Any, Any], None], ctx: Any, value: Any
) -> Any:
    """``param.process_value``, then the value given checked by ``check``: a refusal is a usage error
    naming the parameter, its message without the parameter's name in front (``--mana 'x': …``)."""
    from cardbase.errors import CardbaseError

    value = process_value(ctx, value)
    if ctx.resilient_parsing or not _was_given(ctx, param) or value is None:
        return value
    try:
        check(ctx, param, list(value) if isinstance(value, tuple) else value)
    except CardbaseError as error:
        message = str(error)
        leads = [*(f"{opt}{sep}" for opt in param.opts for sep in (": ", " ")), f"{param.name}: "]
        lead = next((lead for lead in leads if message.startswith(lead)), "")
        raise typer.BadParameter(message.removeprefix(lead), ctx=ctx, param=param) from None
    return value


def _is_path(annotation: Any) -> bool:
    """Whether a parameter typed ``annotation`` takes paths (``Path``, or a list or tuple of them)."""
    from pathlib import PurePath
    from typing import get_args, get_origin

    kinds = get_args(annotation) if get_origin(annotation) in (list, tuple) else (annotation,)
    return any(isinstance(k, type) and issubclass(k, PurePath) for k in kinds)


def _path_first(process_value: Callable[[Any, Any], Any], param: Any, ctx: Any, value: Any) -> Any:
    """``param.process_value``, after refusing a blank path as given (``''`` or spaces only)."""
    for item in value if isinstance(value, list | tuple) else [value]:
        if isinstance(item, str) and not item.strip():
            raise typer.BadParameter(f"{item!r} is blank: give a path", ctx=ctx, param=param)
    return process_value(ctx, value)


def _word_first(
    process_value: Callable[[Any, Any], Any], param: Any, words: tuple[str, ...], ctx: Any, value: Any
) -> Any:
    """``param.process_value`` of the word in ``words`` that ``value`` is in any case, or a refusal."""
    if isinstance(value, str):
        word = next((w for w in words if w.casefold() == value.strip().casefold()), None)
        if word is None:
            from cardbase.errors import quoted

            raise typer.BadParameter(f"{quoted(value)} is not one of {', '.join(words)}", ctx=ctx, param=param)
        value = word
    return process_value(ctx, value)


class _LazyCommands(MutableMapping[str, Any]):
    """A group's commands, each built (its module imported, its signature read by Typer) only when
    it is run, completed, listed or walked; ``summaries`` list them without building (the root's)."""

    def __init__(self, builders: Mapping[str, Callable[[], Any]], summaries: dict[str, str] | None = None) -> None:
        self._builders = builders
        self._summaries = summaries or {}
        self._built: dict[str, Any] = {}

    def __getitem__(self, name: str) -> Any:
        if name not in self._built:
            if name not in self._builders:
                raise KeyError(name)
            self[name] = self._builders[name]()
        return self._built[name]

    def __setitem__(self, name: str, command: Any) -> None:
        self._built[name] = strict_parameters(command)  # every command as it is built: the one place

    def __delitem__(self, name: str) -> None:
        del self._built[name]

    def __iter__(self) -> Iterator[str]:
        yield from self._builders
        yield from (name for name in self._built if name not in self._builders)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def listed(self, name: str) -> Any:
        """The command if built or without a summary, else a stand-in carrying its summary."""
        if name in self._built or name not in self._summaries:
            return self[name]
        return TyperCommand(name, help=self._summaries[name])


class _Root(TyperGroup):
    """Root group: every error ends in ``cli.boundary`` as one message and its exit code; the
    command groups are loaded when used (``_LazyCommands``)."""

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        builders = {name: functools.partial(_build, name) for name in COMMANDS}
        lazy = _LazyCommands(builders, {name: summary for name, (_, summary) in COMMANDS.items()})
        lazy.update(self.commands)
        self.commands = lazy
        self.get_params = functools.partial(_worded_params, self.get_params)  # type: ignore[method-assign]

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        rows = [(name, self.commands.listed(name)) for name in self.commands]  # type: ignore[attr-defined]
        limit = formatter.width - 6 - max(len(name) for name, _ in rows)
        with formatter.section("Commands"):
            formatter.write_dl([(name, command.get_short_help_str(limit)) for name, command in rows])

    def shell_complete(self, ctx: Any, incomplete: str) -> list[Any]:
        from click.shell_completion import CompletionItem

        lazy: _LazyCommands = self.commands  # type: ignore[assignment]
        names = [
            CompletionItem(name, help=lazy.listed(name).get_short_help_str())
            for name in lazy
            if name.startswith(incomplete)
        ]
        return names + super(TyperGroup, self).shell_complete(ctx, incomplete)

    def invoke(self, ctx: Any) -> Any:
        from cardbase.cli.boundary import guarded_stdout
        from cardbase.textfiles import keeping_inputs

        try:
            # No output replaces a file the command read or its database; standard output that the
            # system refuses (a full disk) is one error line.
            with keeping_inputs(), guarded_stdout():
                return super().invoke(ctx)
        except BaseException as error:
            if isinstance(error, SystemExit | GeneratorExit):
                raise
            from cardbase.cli.boundary import handle_command_error

            handle_command_error(error)

    def make_context(self, *args: Any, **kwargs: Any) -> Any:
        from cardbase.cli.boundary import guarded_stdout
        from cardbase.errors import OutputFailed

        try:
            # What parsing prints (--help, --version) is guarded as a command's output is: refused by
            # the system (a full disk, a closed standard output), it is one error line, exit 2.
            with guarded_stdout():
                return super().make_context(*args, **kwargs)
        except KeyboardInterrupt:  # while parsing: Typer would exit 130 silently
            raise typer.Abort() from None
        except (BrokenPipeError, OutputFailed) as error:  # `cardbase --help | head`: Typer would exit 1
            from cardbase.cli.boundary import handle_command_error

            handle_command_error(error)

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

            typed = [str(a) for a in (sys.argv[1:] if args is None else args)]
            code = handle_usage_error(error, self.command_path_of(typed), typed)
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
    from cardbase.cli.common import echo

    echo(version_text(None))
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


def main() -> None:
    """Entry point of the ``cardbase`` console script."""
    app()
