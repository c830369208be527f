"""The checks of values given on the command line, made as each is parsed (``app.strict_parameters``).

A parameter is checked by its kind, which its completion names (``complete.agents`` completes and
checks agents): a value a check refuses is a usage error naming the parameter (exit 2), before
the command reads anything else. Each check is the one the command itself makes later (the rules,
the registry, the search parser), so both refuse the same values; what depends on the database
(a card, a stored deck) or on several parameters at once (an agent per seat) is left to the
command, whose messages name the option themselves. Checks import what they need when they run.
"""

from __future__ import annotations

from typing import Any

from cardbase.cli import complete


def game(ctx: Any, param: Any, value: str) -> None:
    """A game's name (any case, accents optional: ``Méa``)."""
    from cardbase.db.queries import check_game

    check_game(value)


def agents(ctx: Any, param: Any, value: str) -> None:
    """Agents of the command's game, comma-separated, each with its options (``search:samples=5``)."""
    from cardbase.sim.registry import game as entry

    for name in (n.strip() for n in value.split(",")):
        if name:  # how many (one per seat) is the command's to say
            entry(complete.game_of(ctx) or "mea").parse_agent(name)


def rules(ctx: Any, param: Any, value: list[str]) -> None:
    """``--rule NAME=VALUE`` texts: known names, values of their kind, each value taken on its own."""
    from cardbase.sim.registry import game as entry

    game_entry = entry(complete.game_of(ctx) or "mea")
    for name, option in game_entry.rule_options(value).items():
        game_entry.check_option(name, option)


def rule_option(name: str) -> Any:
    """The check of a rules option given by a flag of its own (``--farm`` is ``farm``)."""

    def check(ctx: Any, param: Any, value: str) -> None:
        from cardbase.sim.registry import game as entry

        entry(complete.game_of(ctx) or "mea").check_option(name, value)

    return check


def profile(ctx: Any, param: Any, value: str) -> None:
    """A Meikyu assumption profile: a shipped one's name or a file that is there (what the file
    holds is checked when it is read, every problem listed)."""
    from pathlib import Path

    from cardbase.catalog.meikyu_profiles import SHIPPED_PROFILES
    from cardbase.errors import UnreadableInput, quoted
    from cardbase.textfiles import path_problem

    if value in SHIPPED_PROFILES:
        return
    known = ", ".join(SHIPPED_PROFILES)
    if not value.strip():
        raise UnreadableInput(f"{quoted(value)} is blank: give {known} or a profile file")
    if path_problem(value) is not None or not Path(value).exists():
        raise UnreadableInput(
            f"no assumption profile {quoted(value)}: not a shipped profile ({known}) and no such file"
        )


def sort_key(ctx: Any, param: Any, value: str) -> None:
    """A key search results are sorted by (``order:`` in a query)."""
    from cardbase.db.search import check_order

    check_order(value, None, None)


def query(ctx: Any, param: Any, value: str) -> None:
    """A search query: its syntax, its fields and how it is read (``order:``)."""
    from cardbase.db.search import check_query

    check_query(value)


def need(ctx: Any, param: Any, value: list[str]) -> None:
    """``draws`` needs: ``COUNT QUERY`` (the count 1 when left out)."""
    from cardbase.db.search import check_query
    from cardbase.draws.exact import Kind
    from cardbase.draws.service import parse_need

    kind = {"need": Kind.AT_LEAST, "at_most": Kind.AT_MOST, "exactly": Kind.EXACTLY}[param.name]
    for text in value:
        check_query(parse_need(text, kind).label)


def mana(ctx: Any, param: Any, value: str) -> None:
    """Méa's first-turn mana of each player: whole numbers, comma-separated."""
    from cardbase.cli.draws import parse_mana

    parse_mana(value)


def tags(ctx: Any, param: Any, value: list[str]) -> None:
    """Tags: letters, digits, spaces and a few marks, each at most so long (``names.tag_list``)."""
    from cardbase.errors import UsageError
    from cardbase.names import tag_list

    try:
        tag_list(value)
    except ValueError as error:
        raise UsageError(str(error)) from None
