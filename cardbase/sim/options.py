"""The rules options a study or a table runs under: the commands' flags and ``--rule NAME=VALUE``
entries, put together once for the command line and the web (``cli.sim``, ``cli.lab``, ``lab``)."""

from __future__ import annotations

from typing import Any


def rules_options(game_id: str, flags: dict[str, Any], rule: list[str] | None) -> dict[str, Any]:
    """The rules options of a command: its flags, then its ``--rule NAME=VALUE`` entries. A flag
    that set an option away from its default (``--ace-low``: ``ace_high`` no) and a ``--rule`` giving
    that option another value contradict each other: a usage error naming the option, not the
    ``--rule`` silently winning."""
    from cardbase.errors import UsageError
    from cardbase.sim.registry import game

    entry = game(game_id)
    given = entry.rule_options(rule or [])
    defaults = entry.rule_defaults()
    for name, value in given.items():
        if name in flags and name in defaults and flags[name] != defaults[name][1] and flags[name] != value:
            raise UsageError(
                f"--rule {name}={_option_text(value)} contradicts another option of this command, which sets "
                f"{name}={_option_text(flags[name])}: give one of them"
            )
    return {**flags, **given}


def _option_text(value: Any) -> str:
    """A rules option's value as ``--rule`` takes it (yes/no for a yes/no option)."""
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)


def mea_options(
    layout: str,
    diagonal: bool,
    attack_all: bool,
    move_in_first: bool,
    turn_start_elimination: bool,
    mana_after_flip: bool,
    max_turns: int,
) -> dict[str, Any]:
    """The Méa rules options the commands share (see ``docs/rules/mea.md``)."""
    return {
        "layout": layout,
        "adjacency": "diagonal" if diagonal else "orthogonal",
        "attack_rule": "all" if attack_all else "one",
        "move_in": "first" if move_in_first else "all",
        "elimination": "turn-start" if turn_start_elimination else "immediate",
        "mana_count": "after-flip" if mana_after_flip else "turn-start",
        "max_turns": max_turns,
    }
