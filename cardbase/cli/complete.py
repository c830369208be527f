"""Shell completion of values (``cardbase --install-completion``): games, agents, formats, card
names and deck names. Each callback is bounded and quiet: any failure (no database, a database
that cannot be read) completes nothing rather than printing a traceback into the shell. Every
command module imports this one, so it imports nothing heavy until a value is completed."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # click is imported when a value is completed, not when a command starts
    import click
    from click.shell_completion import CompletionItem

    Completer = Callable[[click.Context, click.Parameter, str], list[CompletionItem]]

MAX_ITEMS = 50
"""More than a terminal shows at once; the shell lists them all."""


def _item(value: str, kind: str = "plain") -> CompletionItem:
    from click.shell_completion import CompletionItem

    return CompletionItem(value, type=kind)


def _items(values: Iterable[str], incomplete: str, kind: str = "plain") -> list[CompletionItem]:
    low = incomplete.lower()
    return [_item(v, kind) for v in values if v.lower().startswith(low)][:MAX_ITEMS]


def _safely(values: Callable[[], Iterable[str]]) -> list[str]:
    try:
        return list(values())
    except Exception:  # completion runs inside the user's shell: never a traceback there
        return []


def _root_param(ctx: click.Context, name: str) -> str | None:
    """A parameter given on this command or any parent command (``--db``, ``--game``)."""
    while ctx is not None:
        value = ctx.params.get(name)
        if isinstance(value, str):
            return value
        ctx = ctx.parent  # type: ignore[assignment]
    return None


COMMAND_GAMES = {"lab gauntlet": "mea", "lab opening": "mea", "lab split": "meio", "lab cards": "meikyu"}
"""The game of a command whose name is not a game's (``sim mea`` is Méa's)."""


def game_of(ctx: click.Context) -> str | None:
    """The game the command is about: its ``--game``, or the command's own name (``sim mea``), or
    the one its name stands for (:data:`COMMAND_GAMES`)."""
    from cardbase.catalog.fields import GAME_FIELDS

    game = _root_param(ctx, "game")
    if game in GAME_FIELDS:
        return game
    name = ctx.info_name or ""
    if name in GAME_FIELDS:
        return name
    parent = ctx.parent.info_name if ctx.parent is not None else ""
    return COMMAND_GAMES.get(f"{parent} {name}")


def checked(name: str) -> Callable[[Completer], Completer]:
    """Mark a completer's values as checked, as they are parsed, by ``checks.<name>``
    (``cardbase.cli.checks``; ``app.strict_parameters`` runs it)."""

    def mark(completer: Completer) -> Completer:
        def check(ctx: click.Context, param: click.Parameter, value: object) -> None:
            from cardbase.cli import checks

            getattr(checks, name)(ctx, param, value)

        completer.check = check  # type: ignore[attr-defined]
        return completer

    return mark


def choices(*values: str) -> Completer:
    """Complete one of ``values`` (output formats and the like): the words the option takes, and
    the only ones (``complete.values``; the CLI refuses any other as it is parsed, and reads these
    in any case: ``cardbase.cli.app.strict_parameters``)."""

    def complete(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
        return _items(values, incomplete)

    complete.values = values  # type: ignore[attr-defined]
    return complete


@checked("game")
def games(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    from cardbase.catalog.fields import GAME_FIELDS

    return _items(sorted(GAME_FIELDS), incomplete)


@checked("agents")
def agents(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Agent names of the command's game; in a comma list (``search,heu``) the last name."""
    from cardbase.sim.registry import game

    def names() -> list[str]:
        which = [game_of(ctx)] if game_of(ctx) else ["mea", "meio", "meikyu"]
        return list(dict.fromkeys(a for g in which if g for a in game(g).agents))

    head, _, last = incomplete.rpartition(",")
    prefix = f"{head}," if head else ""
    return _items([prefix + n for n in _safely(names)], prefix + last)


@checked("rules")
def rules(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """``--rule NAME=VALUE`` of the command's game (Méa's when it has none: the lab's): the names
    with ``=``, then after ``NAME=`` the words it takes (``amulet_ask=everyone``, ``yes``/``no``).
    Bash splits a word at ``=`` (its ``COMP_WORDBREAKS``), so there only the names complete."""
    from cardbase.sim.registry import game

    def known() -> list[str]:
        entry = game(game_of(ctx) or "mea")
        name, eq, _ = incomplete.partition("=")
        if not eq:
            return [f"{n}=" for n in entry.rule_defaults()]
        kind = entry.rule_defaults().get(name, (None, None))[0]
        words = ("yes", "no") if kind is bool else entry.rules_class().option_words(name)
        return [f"{name}={w}" for w in words]

    return _items(_safely(known), incomplete)


def deck_formats(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """The shipped formats of the command's game (of every game when it is not known yet)."""
    from cardbase.decks.formats import format_names

    which = [game_of(ctx)] if game_of(ctx) else ["mea", "meio", "meikyu"]
    return _items(dict.fromkeys(_safely(lambda: [n for g in which if g for n in format_names(g)])), incomplete)


def cards(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Names of cards in the database (``--db``, else the default) with a word starting as typed."""
    from cardbase.db.complete import card_names

    names = _safely(lambda: card_names(_root_param(ctx, "db"), incomplete, game_of(ctx), MAX_ITEMS))
    return [_item(n) for n in names]


def stored_decks(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Names of the database's decks starting as typed (``db:`` kept when it was typed)."""
    from cardbase.db.complete import deck_names
    from cardbase.decks.service import DB_PREFIX

    prefix = DB_PREFIX if incomplete.startswith(DB_PREFIX) else ""
    names = _safely(lambda: deck_names(_root_param(ctx, "db"), incomplete.removeprefix(prefix), MAX_ITEMS))
    return [_item(prefix + n) for n in names]


def decks(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """A deck argument: database decks starting as typed, and files (completed by the shell)."""
    found = stored_decks(ctx, param, incomplete)[: MAX_ITEMS - 1]
    return found if incomplete.startswith("db:") else [*found, _item(incomplete, "file")]


def rule_option(name: str) -> Completer:
    """A rules option given by a flag of its own (``--farm``, ``--layout``): the words it takes (a
    layout's names), and checked as the rules check it (``checks.rule_option``)."""

    def complete(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
        from cardbase.sim.registry import game

        def words() -> list[str]:
            return list(game(game_of(ctx) or "mea").rules_class().option_words(name))

        return _items(_safely(words), incomplete)

    def check(ctx: click.Context, param: click.Parameter, value: object) -> None:
        from cardbase.cli import checks

        checks.rule_option(name)(ctx, param, value)

    complete.check = check  # type: ignore[attr-defined]
    return complete


@checked("profile")
def profiles(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Meikyu assumption profiles: the shipped ones, and files (completed by the shell)."""
    from cardbase.catalog.meikyu_profiles import SHIPPED_PROFILES

    return [*_items(SHIPPED_PROFILES, incomplete), _item(incomplete, "file")]


@checked("sort_key")
def sort_keys(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """The keys search results sort by."""
    from cardbase.db.search import ORDER_KEYS

    return _items(ORDER_KEYS, incomplete)


def free_text(kind: str, name: str, doc: str) -> Completer:
    """A parameter of free text (a query, a need, tags): nothing to complete, and checked as
    ``checks.<kind>`` reads it. ``name`` is the completer's ``__name__`` (tables key by it)."""

    def complete(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
        return []

    complete.__name__ = complete.__qualname__ = name
    complete.__doc__ = doc
    complete.kind = kind  # type: ignore[attr-defined]
    return checked(kind)(complete)


queries = free_text("query", "queries", "A search query: free text; checked as a search reads it.")
needs = free_text("need", "needs", "A ``draws`` need (``COUNT QUERY``): free text; checked as ``draws`` reads it.")
mana = free_text("mana", "mana", "Méa's first-turn mana (``5,5``): checked as ``draws`` reads it.")
tags = free_text("tags", "tags", "Tags (``removal``, ``combo piece``): any words; checked as tags are kept.")
