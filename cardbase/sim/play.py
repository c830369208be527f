"""A person plays in a terminal against agents; every move is checked by the rules.

Written once against the engine protocol: the screen is the human's
``observation(seat).describe()``, other players' moves are shown as
``state.action_text(action, viewer=seat)`` (which hides what the human may not
see), and a refused move prints the rule's reason.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from cardbase.games.base import CHANCE, Agent, GameError, IllegalAction, Rules, State

HELP = """Commands:
  <action>   your move, e.g. 7H or play 7H (in the split: split <6 cards to set aside>)
  hint       ask the search agent what it would do
  legal      list your legal moves
  show       show the table again
  help       this text
  quit       leave the game (the record keeps the moves so far)"""


@dataclass
class Session:
    """How an interactive game went."""

    state: State
    abandoned: bool
    interrupted: bool = False
    """Ctrl-C ended the game (at the prompt or while an agent thought)."""


def play_interactive(
    rules: Rules,
    seed: int | None,
    human: int,
    agents: Mapping[int, Agent],
    read: Callable[[str], str | None],
    write: Callable[[str], None],
    hint: Callable[[Any, Any], str] | None = None,
    show: Callable[[Any], None] | None = None,
    help_text: str = HELP,
) -> Session:
    """Play a game where seat ``human`` types its moves and ``agents`` play the rest.

    ``read(prompt)`` returns a line, or ``None`` when input ends (the game is then
    abandoned); ``write`` prints a block of text; ``hint(observation, legal)``
    returns advice for the human. ``show(observation)``, if given, draws the table
    instead of writing ``observation.describe()``; ``help_text`` is what ``help`` prints.
    """
    state = rules.new_initial_state(seed)
    try:
        return _play(state, human, agents, read, write, hint, show, help_text)
    except KeyboardInterrupt:
        return Session(state, abandoned=True, interrupted=True)


def _play(
    state: State,
    human: int,
    agents: Mapping[int, Agent],
    read: Callable[[str], str | None],
    write: Callable[[str], None],
    hint: Callable[[Any, Any], str] | None,
    show: Callable[[Any], None] | None,
    help_text: str,
) -> Session:
    def display() -> None:
        observation = state.observation(human)
        if show is None:
            write(observation.describe())
        else:
            show(observation)

    me = f"P{human + 1}"
    shown = False
    while not state.is_terminal:
        p = state.current_player
        if p == CHANCE:
            action = state.sample_chance()
            write(f"— {state.action_text(action, viewer=human)} —")
            state.apply(action)
            shown = False
            continue
        if p != human:
            action = agents[p].act(state.observation(p), state.legal_actions())
            write(f"P{p + 1}: {state.action_text(action, viewer=human)}")
            state.apply(action)
            continue
        if not shown:
            display()
            shown = True
        line = read(f"{me}> ")
        if line is None:
            return Session(state, abandoned=True)
        command = line.strip()
        word = command.lower()
        if not command:
            continue
        if word in ("quit", "exit", "q"):
            return Session(state, abandoned=True)
        if word in ("help", "?"):
            write(help_text)
            continue
        if word in ("show", "look"):
            display()
            continue
        if word in ("legal", "moves"):
            write(_legal_text(state))
            continue
        if word == "hint":
            if hint is None:
                write("no hint available")
            else:
                write("hint: " + hint(state.observation(human), state.legal_actions()))
            continue
        try:
            action = state.parse_action(command)
        except GameError as error:
            write(f"not understood: {error} (type help)")
            continue
        try:
            state.apply(action)
        except IllegalAction as error:
            write(f"refused: {error}")
            continue
        write(f"{me} (you): {action}")
        shown = False
    display()
    outcome = state.outcome()
    if outcome is not None:
        winners = ", ".join(f"P{w + 1}" + (" (you)" if w == human else "") for w in outcome.winners)
        write(f"Game over: {outcome.reason}. Winner{'s' if outcome.shared else ''}: {winners}.")
    return Session(state, abandoned=False)


def _legal_text(state: State) -> str:
    describe = getattr(state, "describe_legal", None)  # a game may summarise many actions its own way
    if callable(describe):
        return str(describe())
    legal = state.legal_actions()
    if len(legal) > 20:
        return f"{len(legal)} legal moves, e.g. {legal[0]}"
    return "legal: " + ", ".join(str(a) for a in legal)
