"""A person plays in a terminal against agents; every move is checked by the rules.

Written once against the engine protocol: the screen is the human's
``observation(seat).describe()``, other players' moves are shown as
``state.action_text(action, viewer=seat)`` (which hides what the human may not
see), and a refused move prints the rule's reason. A game adds what only it knows
through a :class:`GameUI`: what an action did (read from the human's observations
before and after it, so nothing hidden leaks and the engines stay as they are), its
words and card names (completion, and a unique prefix or close name stands for the
name), a card's text, questions before a drastic move, extra commands.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardbase.errors import and_list, counted, quoted
from cardbase.fuzzy import AmbiguousName, match
from cardbase.games.base import Agent, GameError, IllegalAction, Rules, State, reason_beside_winners
from cardbase.names import fold

HELP = """Commands:
  <action>   your move, e.g. 7H or play 7H (in the split: split <6 cards to set aside>)
  hint       the search agent's best move and the next, with 95% intervals (or: too close to call)
  undo       take back your last action (until a card is drawn, a deal or a die roll, or another moves)
  legal      list your legal moves by kind (legal KIND: every one of that kind)
  show       show the table again
  help       this text
  quit       leave the game (the record keeps the moves so far; so does Ctrl-C)"""

LEGAL_PER_KIND = 40
"""``legal`` lists up to this many actions of a kind (of a longer kind, the first
:data:`LEGAL_SHOWN`); ``legal KIND`` lists them all."""
LEGAL_SHOWN = 10


@dataclass(frozen=True)
class Vocabulary:
    """What a person types in a game: command and action words, and names (cards, rooms).

    ``fixed`` matches the words that are never part of a name (tiles, numbers, seats)."""

    words: tuple[str, ...] = ()
    names: tuple[str, ...] = ()
    fixed: re.Pattern[str] | None = None


_SPLIT = re.compile(r"(\s*[,+@]\s*|\s+)")


def expand_names(text: str, vocabulary: Vocabulary) -> str:
    """``text`` with every name fragment written out as the name it stands for (see
    :func:`cardbase.fuzzy.match`: folded, so ``jalapeno`` is Jalapeño Imp); fragments are
    the runs of words between the game's own words, numbers, tiles and the separators
    ``,`` ``+`` ``@``."""
    if not vocabulary.names:
        return text
    parts = _SPLIT.split(text.strip())
    words, seps = parts[0::2], parts[1::2]
    own = {fold(w) for w in vocabulary.words}

    def free(w: str) -> bool:
        fixed = vocabulary.fixed is not None and vocabulary.fixed.fullmatch(w) is not None
        return bool(w) and fold(w) not in own and not fixed and not w.isdecimal()

    out: list[str] = []
    k = 0
    while k < len(words):
        if not free(words[k]):
            out.append(words[k])
            if k < len(seps):
                out.append(seps[k])
            k += 1
            continue
        j = k
        while j + 1 < len(words) and free(words[j + 1]) and not seps[j].strip():
            j += 1
        fragment = " ".join(words[k : j + 1])
        out.append(match(fragment, vocabulary.names) or fragment)
        if j < len(seps):
            out.append(seps[j])
        k = j + 1
    return "".join(out)


@dataclass
class GameUI:
    """What a game adds to :func:`play_interactive` (everything optional).

    ``effects(before, after, done)``: lines saying what happened, from the human's
    observations before and after an action (``done`` is how the action was shown).
    ``vocabulary``: the game's words and names, for completion and short names.
    ``card(observation, name)``: a card's text (``card NAME``). ``confirm(observation,
    action)``: a question to ask before the human's action, or ``None``.
    ``commands``: extra commands, each giving a text from the human's observation.
    ``several(state, line)``: the actions a line stands for when it names several in a row
    (Meikyu: ``discard Bee, Sword, Cook`` at a decision that discards one card at a time), each
    checked in turn on a copy of ``state`` (raising :class:`GameError` with the rule's reason, and
    nothing applied); ``None`` when the line is one action.
    ``known_names(state, seat)``: the names of ``vocabulary`` that ``seat`` may know of now, the ones
    a short name it types is written out to (Méa: not the other deck's list); ``None``: all of them.
    """

    effects: Callable[[Any, Any, str], list[str]] | None = None
    vocabulary: Vocabulary = field(default_factory=Vocabulary)
    card: Callable[[Any, str], str] | None = None
    confirm: Callable[[Any, Any], str | None] | None = None
    commands: Mapping[str, Callable[[Any], str]] = field(default_factory=dict)
    several: Callable[[State, str], list[Any] | None] | None = None
    known_names: Callable[[Any, int], Sequence[str]] | None = None


@dataclass
class Session:
    """How an interactive game went."""

    state: State
    abandoned: bool
    interrupted: bool = False
    """Ctrl-C ended the game (at the prompt or while an agent thought)."""
    input_ended: bool = False
    """The input ended at the prompt (end of file: a script of moves ran out, ``< /dev/null``,
    Ctrl-D) before the game was over; ``quit`` is the way to leave a game on purpose."""


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
    ui: GameUI | None = None,
) -> Session:
    """Play a game where seat ``human`` types its moves and ``agents`` play the rest, at a
    :class:`~cardbase.sim.table.Table` (the same table the web's ``/play`` plays at: the turns,
    the checks, the log's wording and undo are the table's).

    ``read(prompt)`` returns a line, or ``None`` when input ends (the game is then
    abandoned); ``write`` prints a block of text; ``hint(observation, legal)``
    returns advice for the human. ``show(observation)``, if given, draws the table
    instead of writing ``observation.describe()``; ``help_text`` is what ``help`` prints;
    ``ui`` is what the game adds (see :class:`GameUI`).
    """
    from cardbase.sim.registry import new_seed
    from cardbase.sim.table import HUMAN, Table

    seats = [HUMAN if s == human else agents[s].name for s in range(rules.players)]
    table = Table(rules, seed if seed is not None else new_seed(), seats, agents=agents, ui=ui or GameUI())
    try:
        return _Loop(table, human, read, write, hint, show, help_text, table.ui).run()
    except KeyboardInterrupt:
        return Session(table.state, abandoned=True, interrupted=True)


@dataclass
class _Loop:
    table: Any  # cardbase.sim.table.Table
    human: int
    read: Callable[[str], str | None]
    write: Callable[[str], None]
    hint: Callable[[Any, Any], str] | None
    show: Callable[[Any], None] | None
    help_text: str
    ui: GameUI
    written: int = 0
    """The last action number of the human's log written."""

    def display(self) -> None:
        observation = self.table.state.observation(self.human)
        if self.show is None:
            self.write(observation.describe())
        else:
            self.show(observation)

    def write_log(self) -> None:
        """Write the human's log since the last call: each action as the table narrates it to them."""
        for entry in self.table.logs[self.human]:
            if entry.number > self.written:
                for line in entry.lines():
                    self.write(line)
                self.written = entry.number

    def run(self) -> Session:
        table, human = self.table, self.human
        me = f"P{human + 1}"
        shown = -1
        while True:
            self.write_log()
            if table.over:
                break
            decision = table.decision()
            if decision is not None:
                action, seconds = table.think(decision)
                table.apply_decision(decision, action, seconds)
                continue
            if shown != table.version:
                self.display()
                shown = table.version
            line = self.read(f"{me}> ")
            if line is None:
                return Session(table.state, abandoned=True, input_ended=True)
            command = " ".join(line.split())
            if not command:
                continue
            word, _, rest = command.partition(" ")
            word = word.lower()
            state = table.state
            if command.lower() in ("quit", "exit", "q"):
                return Session(state, abandoned=True)
            if word in ("help", "?") and not rest:
                self.write(self.help_text)
            elif word in ("show", "look") and not rest:
                self.display()
            elif word in ("legal", "moves"):
                self.write(legal_text(state, rest))
            elif word == "hint" and not rest:
                if self.hint is None:
                    self.write("no hint available")
                else:
                    self.write("hint: " + self.hint(state.observation(human), state.legal_actions()))
            elif word == "undo" and not rest:
                self._undo()
            elif word == "card" and rest and self.ui.card is not None:
                self.write(self._card(rest))
            elif command.lower() in self.ui.commands:
                self.write(self.ui.commands[command.lower()](state.observation(human)))
            else:
                self._move(command)
        self.display()
        outcome = table.state.outcome()
        if outcome is not None:
            winners = [f"P{w + 1}" + (" (you)" if w == human else "") for w in outcome.winners]
            who = f"{and_list(winners)} share the victory" if outcome.shared else f"Winner: {winners[0]}"
            self.write(f"Game over: {reason_beside_winners(outcome.reason, outcome.shared)}. {who}.")
        return Session(table.state, abandoned=False)

    def _card(self, fragment: str) -> str:
        assert self.ui.card is not None
        names = self.ui.vocabulary.names
        if self.ui.known_names is not None:  # the names the player may know of, no hidden one (the table's rule)
            names = tuple(self.ui.known_names(self.table.state, self.human))
        try:
            name = match(fragment, names)
        except AmbiguousName as error:
            return str(error)
        if name is None:
            return f"no card you know of is named {quoted(fragment)}"
        return self.ui.card(self.table.state.observation(self.human), name)

    def _move(self, command: str) -> bool:
        """The human's move, checked by the table; ``False`` (with the reason written) if refused."""
        table = self.table
        try:
            actions = table.moves(command)
        except IllegalAction as error:
            self.write(f"refused: {error}")
            return False
        except (GameError, AmbiguousName) as error:
            self.write(f"not understood: {error} (type help)")
            return False
        if self.ui.confirm is not None and len(actions) == 1:
            question = self.ui.confirm(table.state.observation(self.human), actions[0])
            if question is not None:
                answer = self.read(f"{question} [y/N] ")
                if answer is None or answer.strip().lower() not in ("y", "yes"):
                    self.write(f"not done: {actions[0]}")
                    return False
        table.act(self.human, actions)
        return True

    def _undo(self) -> None:
        """Take back the human's last action, if the table allows it (else say why)."""
        from cardbase.sim.table import GameFinished, UndoRefused

        try:
            taken = self.table.undo(self.human)
        except (UndoRefused, GameFinished) as error:
            self.write(str(error))
            return
        self.written = min(self.written, len(self.table.actions))
        self.write(f"undone: {taken}")


def legal_text(state: State, kind: str = "") -> str:
    """Every legal action, grouped by kind (the first word of its notation); a long kind
    shows its first few unless ``kind`` asks for that kind alone."""
    legal = state.legal_actions()
    groups: dict[str, list[str]] = {}
    for a in legal:
        text = str(a)
        groups.setdefault(text.split(" ", 1)[0].lower(), []).append(text)
    kind = kind.strip().lower()
    if kind:
        if kind not in groups:
            return f"no legal {kind} action now; kinds: {', '.join(groups) or 'none'}"
        groups = {kind: groups[kind]}
    lines = [f"{counted(len(legal), 'legal move')}:" if not kind else f"legal {kind}:"]
    for name, items in groups.items():
        shown = items if kind or len(items) <= LEGAL_PER_KIND else items[:LEGAL_SHOWN]
        lines.append(f"  {name} ({len(items)}): " + "; ".join(shown))
        if len(shown) < len(items):
            lines.append(f"    … and {len(items) - len(shown)} more (legal {name}: all of them)")
    return "\n".join(lines)


def seed_words(seed: int, chosen: bool) -> str:
    """How a game's first line names its seed. A seed the player did not choose is named only when
    the game is over (:func:`seed_after`): it decides every shuffle, deal and die, so naming it
    before tells where every card face down is."""
    return f"seed {seed}" if chosen else "a new seed (named when the game is over)"


def seed_after(seed: int, chosen: bool) -> str | None:
    """The line that names a seed the player did not choose, once the game is over (or left)."""
    return None if chosen else f"The game's seed was {seed}."


def hinter(game_id: str, rules: Rules, seed: int) -> Callable[[Any, Any], str]:
    """``hint`` at the prompt: :func:`cardbase.sim.hints.hint` in words, seeded by the game's
    ``seed`` and the position the player sees (the same position, the same hint)."""
    from cardbase.sim.hints import hint
    from cardbase.sim.registry import derive_seed

    def ask(observation: Any, legal: Any) -> str:
        position = derive_seed(seed, "hint", observation.describe())
        return hint_words(hint(game_id, rules, observation, legal, position))

    return ask


def hint_words(h: Any) -> str:
    """A :class:`cardbase.sim.hints.Hint` as the terminal says it."""
    from cardbase.sim.hints import CLEAR, NOT_SEARCHED, ONLY_MOVE

    if h.verdict in (ONLY_MOVE, NOT_SEARCHED):
        return f"{h.best.text} ({h.method})"
    m = h.measure

    def said(e: Any) -> str:
        value, interval = m.shown(e)
        return f"{value} (95% {interval})"

    best, runner = h.best, h.runner_up
    same = f" (or {', '.join(h.same_as_best)}: the same in every playout)" if h.same_as_best else ""
    if runner is None:
        return (
            f"{best.text}{same}: {said(best)} — any of them: they score alike. The number is {m.words}, by {h.method}."
        )
    verdict = (
        "clear: the two intervals are apart"
        if h.verdict == CLEAR
        else "too close to call: the two intervals overlap, so either is as good as these playouts can tell"
    )
    return (
        f"{best.text}{same}: {said(best)}; next best {runner.text}: {said(runner)} — {verdict}. "
        f"The number is {m.words}, by {h.method}."
    )
