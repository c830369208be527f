"""A game at a table: the rules, the seed, the seats (a person or an agent), the actions so far.

Written once against the engine protocol, for every face that plays a game (the terminal's
``cardbase play``, the web's ``/play``):

- Every view of a seat is built from ``state.observation(seat)`` only, the spectator's from
  ``observation(SPECTATOR)``; so is the narrated log each seat reads (the terminal's wording:
  ``action_text(action, viewer=seat)`` and the game's effects read from that seat's observations
  before and after each action).
- An action is checked before it is applied: one the rules forbid raises
  :class:`~cardbase.games.base.IllegalAction` (with its ``rule``) and changes nothing; one made
  on an old view (``version`` is not the table's) raises :class:`Stale`; a seat that is not to
  move, or is played by an agent, raises :class:`NotYourTurn`.
- Chance (deals, shuffles, dice) comes from the state's seeded RNG: the same seed and the same
  actions give the same game, which is how a table is rebuilt (:meth:`Table.restore`).
- A seat may take back its own last actions while no one has acted since and nothing hidden was
  shown by them (a draw, a deal, a die roll); :meth:`Table.undo` says why it refuses otherwise.
- An agent's decision is taken in two steps, :meth:`Table.decision` (under the table's lock) and
  :meth:`Table.apply_decision` (checks that nothing moved meanwhile), so that a caller can think
  off its own thread.

The table is pure of storage and of any face: persistence and the agents' threads are
:mod:`cardbase.sim.hall`'s.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from cardbase.errors import CardbaseError, Conflict, UsageError, counted, plural
from cardbase.fuzzy import AmbiguousName
from cardbase.games.base import (
    CHANCE,
    SPECTATOR,
    Agent,
    GameError,
    IllegalAction,
    InvalidAction,
    Rules,
    State,
    not_your_turn,
)
from cardbase.sim.boards import board_view, legal_view
from cardbase.sim.play import GameUI, expand_names
from cardbase.sim.records import json_line, record_lines, seat_label
from cardbase.sim.registry import derive_seed, game, new_seed

HUMAN = "human"
"""The seat spec of a person (any other spec names an agent: ``search``, ``ismcts:iters=400``)."""

MAX_LOG = 5_000
"""A seat's log keeps its last this many entries (a long Méa game has about 1,000 actions)."""


class Stale(Conflict):
    """An action or undo made on a view that is not the table's: an old one (another seat or an
    agent moved first), or a version the table has not reached (none it gave)."""

    def __init__(self, given: int, current: int):
        if given < current:
            said = f"the table has moved on (your view is version {given}, the table's is {current})"
        else:
            said = f"the table has no version {given}: it is at version {current}, and no view of it gave {given}"
        super().__init__(f"{said}: reload the view and send the version it gives with the action")
        self.given = given
        self.current = current


class NotYourTurn(UsageError):
    """A seat that may not act now: not its turn, an agent's seat, no seat of the request (403)."""


class GameFinished(Conflict):
    """A move, undo or hint asked of a table whose game is over or was abandoned: the table's state
    refuses it, not the seat's rights (409 Conflict, as a stale view); ``rule`` says which end."""

    def __init__(self, message: str, rule: str):
        super().__init__(message)
        self.rule = rule


class UndoRefused(UsageError):
    """An undo the table does not allow; ``rule`` says which limit (as ``IllegalAction.rule``)."""

    def __init__(self, message: str, rule: str):
        super().__init__(message)
        self.rule = rule


class Unplayable(CardbaseError):
    """A stored game that no longer replays (an action the rules now refuse)."""

    exit_code = 1


@dataclass(frozen=True)
class LogEntry:
    """One action as a seat reads it: ``number`` (1-based, chance included), the line
    (``P2: play 7H``, ``P1 (you): summon …``, ``— the decks are shuffled —``) and what it did."""

    number: int
    text: str
    effects: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"n": self.number, "text": self.text, "effects": list(self.effects)}

    def lines(self) -> list[str]:
        """The entry as the terminal prints it: the line, then each effect indented."""
        return [self.text, *(f"  {line}" for line in self.effects)]


@dataclass
class Decision:
    """An agent's turn, taken from the table to be thought about off its lock."""

    version: int
    seat: int
    agent: Agent
    observation: Any
    legal: Sequence[Any]


@dataclass
class Seat:
    """A seat: ``spec`` is :data:`HUMAN` or an agent spec; ``agent`` is made from the spec."""

    spec: str
    agent: Agent | None = None

    @property
    def human(self) -> bool:
        return self.spec == HUMAN


def seat_name(seat: int) -> str:
    return "spectator" if seat == SPECTATOR else f"P{seat + 1}"


def table_ui(rules: Rules) -> GameUI:
    """What a game adds to its table's log and prompt (effects, names, card text, commands)."""
    game_id = rules.game_id
    if game_id == "mea":
        from cardbase.sim import mea_view

        return mea_view.game_ui(rules)  # type: ignore[arg-type]
    if game_id == "meio":
        from cardbase.sim import meio_view

        return meio_view.game_ui()
    if game_id == "meikyu":
        from cardbase.sim.meikyu import play_ui

        ui: GameUI = play_ui(rules)
        return ui
    return GameUI()


def budget_text(agent: Any) -> str:
    """An agent's work per decision, in words (``24 samples per decision``)."""
    seconds = getattr(agent, "seconds", None)
    if seconds:
        return f"{seconds * 1000:,.0f} ms per decision"
    iterations = getattr(agent, "iterations", None)
    if iterations:
        return f"{iterations:,} {plural(iterations, 'iteration')} per decision"
    samples = getattr(agent, "samples", None)
    if samples:
        return f"{samples:,} {plural(samples, 'sample')} per decision"
    return "no search: an instant decision"


def _unseen(observation: Any) -> int:
    """How many cards ``observation``'s seat cannot name (other hands, the piles): an action of
    its own that lowers this showed it something (a Méa draw)."""
    data = observation.public() if hasattr(observation, "public") else None
    if data is not None:  # Méa
        me = data["player"]
        return int(sum(data["deck_sizes"]) + data["hand_sizes"][1 - me])
    if hasattr(observation, "kpile_size"):  # Meikyu
        return int(observation.kpile_size + observation.mpile_size + sum(observation.hand_sizes))
    if hasattr(observation, "aside_sizes"):  # Meio: the hidden cards come only by deals
        return int(sum(observation.hand_sizes) + sum(observation.aside_sizes))
    return 0


class Table:
    """A game in play. Thread-safe: every method takes the table's lock.

    ``version`` counts the changes (each action a seat or an agent takes, with the chance
    actions that follow it, and each undo): a view carries it, and an action made on an
    older one is :class:`Stale`.
    """

    def __init__(
        self,
        rules: Rules,
        seed: int,
        seats: Sequence[str],
        *,
        labels: Mapping[str, Any] | None = None,
        agents: Mapping[int, Agent] | None = None,
        ui: GameUI | None = None,
        origin: State | None = None,
    ) -> None:
        """``seats``: :data:`HUMAN` or an agent spec per seat; ``agents`` may give a seat's agent
        itself (the spec then names it); ``ui``: what the game adds (default: :func:`table_ui`).
        ``origin``: a position set up directly (scenario tests) to play on, in place of the
        seed's first state; the table is then rebuilt from a copy of it (its record is not one)."""
        if len(seats) != rules.players:
            raise UsageError(f"{counted(rules.players, 'seat')} are needed, not {len(seats)}")
        self.rules = rules
        self.game_id = rules.game_id
        self.entry = game(self.game_id)
        self.seed = seed
        self.labels: dict[str, Any] = dict(labels or {})
        """What a face shows beside the game: deck names, the assumption profile, …"""
        self.seats = [Seat(spec) for spec in seats]
        for s, seat in enumerate(self.seats):
            if agents is not None and s in agents:
                seat.agent = agents[s]
            elif not seat.human:
                seat.agent = self.entry.make_agent(seat.spec, rules, s, derive_seed(seed, "play", s))
        self.ui = ui if ui is not None else table_ui(rules)
        self.lock = threading.RLock()
        self.version = 0
        self.abandoned = False
        self.last_think: dict[int, float] = {}
        """Seconds the last decision of each agent seat took."""
        self.notes: list[str] = []
        """What happened to the table itself (an agent over its budget)."""
        self._views: dict[Any, Any] = {}
        self._origin = origin.clone() if origin is not None else None
        self._start(origin if origin is not None else self._first_state())

    # -- building ------------------------------------------------------------------------

    def _first_state(self) -> State:
        """The game before any action: the seed's, or a copy of the position the table began at."""
        if self._origin is not None:
            return self._origin.clone()
        return self.rules.new_initial_state(self.seed)

    def _start(self, state: State) -> None:
        self.state = state
        self.actions: list[Any] = []
        self.movers: list[int] = []
        """Who took each action: a seat, or ``CHANCE``."""
        self.logs: dict[int, list[LogEntry]] = {v: [] for v in self.viewers}
        self._seen: dict[int, Any] = {v: state.observation(v) for v in self.viewers}
        self._resolve_chance()

    @property
    def viewers(self) -> list[int]:
        """Every seat, then the spectator."""
        return [*range(self.rules.players), SPECTATOR]

    @classmethod
    def restore(
        cls,
        rules: Rules,
        seed: int,
        seats: Sequence[str],
        actions: Sequence[str],
        *,
        version: int = 0,
        labels: Mapping[str, Any] | None = None,
    ) -> Table:
        """The table after ``actions`` (as written, chance included), each checked again; an
        action the rules refuse is :class:`Unplayable` naming it and the rule."""
        table = cls(rules, seed, seats, labels=labels)
        with table.lock:
            table._replay(actions)
            table.version = version
        return table

    def _replay(self, texts: Sequence[str]) -> None:
        """Apply the written actions after the first ``len(self.actions)`` (chance checked against the seed)."""
        state = self.state
        for number, text in enumerate(texts, start=1):
            if number <= len(self.actions):  # chance before the first move, sampled already
                if str(self.actions[number - 1]) != text:
                    raise Unplayable(f"action {number} ({text!r}) is not the chance outcome seed {self.seed} gives")
                continue
            try:
                action = state.parse_action(text)
                if state.current_player == CHANCE:
                    sampled = state.sample_chance()
                    if sampled != action:
                        raise IllegalAction(f"this is not the chance outcome seed {self.seed} gives", "seed")
                    self._apply(action, resolve=False)
                else:
                    state.check(action)
                    if state.actor(action) != state.current_player:  # a table's seats act for themselves
                        raise state.out_of_turn_refusal(action)
                    self._apply(action, resolve=False)
            except GameError as error:
                raise Unplayable(f"action {number} ({text!r}) no longer plays: {error}") from None
        self._resolve_chance()

    # -- applying ------------------------------------------------------------------------

    def _apply(self, action: Any, resolve: bool = True) -> None:
        """Apply a checked action and narrate it to every viewer; then the chance actions it leads to."""
        state = self.state
        player = state.current_player
        texts = {v: state.action_text(action, viewer=v) for v in self.viewers}
        state.apply_unchecked(action)
        self.actions.append(action)
        self.movers.append(player)
        number = len(self.actions)
        effects = self.ui.effects
        for v in self.viewers:
            after = state.observation(v)
            text = texts[v]
            if player == CHANCE:
                done = f"— {text} —"
            elif player == v:
                done = f"{seat_name(player)} (you): {text}"
            else:
                done = f"{seat_name(player)}: {text}"
            lines = tuple(effects(self._seen[v], after, done)) if effects is not None else ()
            log = self.logs[v]
            log.append(LogEntry(number, done, lines))
            if len(log) > MAX_LOG:
                del log[: len(log) - MAX_LOG]
            self._seen[v] = after
        if resolve:
            self._resolve_chance()

    def _resolve_chance(self) -> None:
        while self.state.current_player == CHANCE:
            self._apply(self.state.sample_chance(), resolve=False)

    def _rebuild(self, count: int) -> None:
        """The table after its first ``count`` actions, replayed from the seed."""
        kept = self.actions[:count]
        self._start(self._first_state())
        for action in kept[len(self.actions) :]:
            chance = self.state.current_player == CHANCE
            self._apply(self.state.sample_chance() if chance else action, resolve=False)
        self._resolve_chance()

    def _state_before_last(self) -> State:
        """The state before the last action, replayed from the seed (the RNG where the game had it)."""
        state = self._first_state()
        for action in self.actions[:-1]:
            if state.current_player == CHANCE:
                state.sample_chance()
            state.apply_unchecked(action)
        return state

    def _check_version(self, version: int | None) -> None:
        if version is not None and version != self.version:
            raise Stale(version, self.version)

    def finished(self, doing: str) -> GameFinished | None:
        """Why no one can do ``doing`` (``move``) at this table any more: its game is over, or was
        abandoned; ``None`` while it is played."""
        if self.state.is_terminal:
            return GameFinished(f"the game is over: no one can {doing}", "game-over")
        if self.abandoned:
            return GameFinished(
                f"the game was abandoned (left idle past the server's expiry): no one can {doing}", "abandoned"
            )
        return None

    def _check_seat(self, seat: int, doing: str) -> None:
        if not 0 <= seat < self.rules.players:
            raise NotYourTurn(f"there is no seat {seat} at this table")
        finished = self.finished(doing)
        if finished is not None:
            raise finished
        if not self.seats[seat].human:
            raise NotYourTurn(f"{seat_name(seat)} is played by the {self.seats[seat].spec} agent")

    def parse(self, command: str) -> Any:
        """The action ``command`` means: as written if that is legal, else with its name
        fragments written out (``summon ferret b1`` → ``summon Pickpocket Ferret b1``)."""
        state = self.state
        first: GameError | None = None
        action = None
        try:
            action = state.parse_action(command)
            if state.is_legal(action):
                return action
        except GameError as error:
            first = error
        vocabulary = self.ui.vocabulary
        if self.ui.known_names is not None and state.current_player >= 0:  # the mover's names, no hidden one
            vocabulary = replace(vocabulary, names=tuple(self.ui.known_names(state, state.current_player)))
        try:
            expanded = expand_names(command, vocabulary)
        except AmbiguousName:
            if action is not None:  # an action as written (a name holding a number: Unnamed room 2), not legal now:
                return action  # its check says why, not the name's words split at the number
            raise
        if expanded == command:
            if first is not None:
                raise first
            return action
        try:
            return state.parse_action(expanded)
        except GameError:
            if first is not None:
                raise first from None
            return action

    def moves(self, command: str) -> list[Any]:
        """The actions a typed line stands for, each checked (nothing applied): one, or several in
        a row where the game takes them so (Meikyu: ``discard Bee, Sword, Cook``). Raises
        :class:`~cardbase.games.base.IllegalAction` with the rule's reason, or another
        :class:`~cardbase.games.base.GameError` for a line that is no action (a name that could be
        several cards among them: :class:`~cardbase.games.base.InvalidAction` naming them)."""
        with self.lock:
            command = " ".join(command.split())
            if not command:
                raise InvalidAction("an action is needed (type one, or pick one of the legal actions)")
            try:
                several = self.ui.several(self.state, command) if self.ui.several is not None else None
                if several is not None:
                    return several
                action = self.parse(command)
            except AmbiguousName as error:  # a refusal of what was typed, as every other: not a crash
                raise InvalidAction(str(error)) from None
            self.state.check(action)
            if self.state.actor(action) != self.state.current_player:  # each seat acts for itself
                raise self.state.out_of_turn_refusal(action)
            return [action]

    def act(self, seat: int, action: str | int | Sequence[Any], version: int | None = None) -> list[Any]:
        """Seat ``seat`` takes ``action``: its text (see :meth:`moves`), its index in the legal
        actions, or actions :meth:`moves` gave; made on the view of ``version`` (``None``: whatever
        the table's is). Returns the actions taken (one version for them all).

        Raises :class:`Stale`, :class:`NotYourTurn`, :class:`~cardbase.games.base.InvalidAction`
        (not an action of this game) or :class:`~cardbase.games.base.IllegalAction` (the rule's
        reason); each leaves the table as it was."""
        with self.lock:
            self._check_version(version)
            self._check_seat(seat, "move")
            state = self.state
            if state.current_player != seat:
                raise NotYourTurn(not_your_turn(state.current_player, seat))
            if isinstance(action, int):
                legal = state.legal_actions()
                if not 0 <= action < len(legal):
                    raise InvalidAction(f"there is no legal action number {action} (0 to {len(legal) - 1})")
                chosen = [legal[action]]
            elif isinstance(action, str):
                chosen = self.moves(action)
            else:
                chosen = list(action)
            taken = len(self.actions)
            try:
                for one in chosen:
                    if self.state.actor(one) != seat:  # each seat acts for itself
                        raise self.state.out_of_turn_refusal(one)
                    self.state.check(one)
                    self._apply(one)
            except GameError:
                self._rebuild(taken)  # all of them or none
                raise
            self.version += 1
            return chosen

    # -- undo ----------------------------------------------------------------------------

    def undo_blocker(self, seat: int) -> UndoRefused | None:
        """Why ``seat`` may not take back the last action now, or ``None`` if it may."""
        if not self.actions:
            return UndoRefused("nothing to undo: no action has been taken", "undo-nothing")
        who = self.movers[-1]
        if who == CHANCE:
            shown = self.logs[seat][-1].text.strip("— ") if self.logs[seat] else "a chance action"
            return UndoRefused(
                f"cannot undo: hidden information has been revealed since your last action ({shown})", "undo-revealed"
            )
        if who != seat:
            return UndoRefused(
                f"cannot undo: {seat_name(who)} has acted since (only your own last actions, while no one "
                "else has moved and nothing hidden has been shown, can be taken back)",
                "undo-not-yours",
            )
        before = self._state_before_last().observation(seat)
        if _unseen(self.state.observation(seat)) < _unseen(before):
            return UndoRefused(f"cannot undo {self.actions[-1]}: it showed you hidden cards (a draw)", "undo-revealed")
        return None

    def undo_refusal(self, seat: int) -> UsageError | None:
        """Why ``seat`` may not take back the last action now (the error :meth:`undo` raises), or
        ``None`` if it may: the one rule of undo, which the views' ``undo`` (the button) reads too."""
        with self.lock:
            if not 0 <= seat < self.rules.players or not self.seats[seat].human:
                return NotYourTurn(f"{seat_name(seat)} is not a person's seat: nothing to undo")
            return self.finished("undo") or self.undo_blocker(seat)

    def undo(self, seat: int, version: int | None = None) -> Any:
        """Take back ``seat``'s last action (see :meth:`undo_refusal`); returns it."""
        with self.lock:
            self._check_version(version)
            refusal = self.undo_refusal(seat)
            if refusal is not None:
                raise refusal
            taken = self.actions[-1]
            self._rebuild(len(self.actions) - 1)
            self.version += 1
            return taken

    def can_undo(self, seat: int) -> bool:
        """Whether :meth:`undo` would take back ``seat``'s last action now (the same rule, not a guess)."""
        with self.lock:
            return self.undo_refusal(seat) is None

    # -- agents --------------------------------------------------------------------------

    def decision(self) -> Decision | None:
        """The agent's turn to think about, or ``None`` if no agent is to move."""
        with self.lock:
            p = self.state.current_player
            if p < 0 or self.abandoned or self.seats[p].human:
                return None
            agent = self.seats[p].agent
            assert agent is not None
            # Observed on a copy: the agent thinks off the lock, and a lazy list or observation (Méa's
            # makes its view when first read) reads its state, which may move on meanwhile.
            state = self.state.clone()
            return Decision(self.version, p, agent, state.observation(p), state.legal_actions())

    def apply_decision(self, decision: Decision, action: Any, seconds: float = 0.0) -> bool:
        """Apply an agent's action if the table has not moved since ``decision`` (else ``False``)."""
        with self.lock:
            if decision.version != self.version or self.state.current_player != decision.seat:
                return False
            self.state.check(action)
            self._apply(action)
            self.version += 1
            self.last_think[decision.seat] = seconds
            return True

    def think(self, decision: Decision) -> tuple[Any, float]:
        """The agent's action for ``decision`` and the seconds it took (call off the lock)."""
        started = time.perf_counter()
        action = decision.agent.act(decision.observation, decision.legal)
        return action, time.perf_counter() - started

    def rollback(self, count: int, version: int) -> None:
        """Back to the first ``count`` actions and ``version`` (a change its store refused)."""
        with self.lock:
            self._rebuild(count)
            self.version = version

    # -- what a seat sees ----------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.state.is_terminal

    @property
    def status(self) -> str:
        """``playing``, ``over`` or ``abandoned``."""
        if self.state.is_terminal:
            return "over"
        return "abandoned" if self.abandoned else "playing"

    def seat_list(self) -> list[dict[str, Any]]:
        out = []
        for s, seat in enumerate(self.seats):
            item: dict[str, Any] = {"seat": s, "name": seat_name(s), "agent": seat.spec}
            if seat.agent is not None:
                item["budget"] = budget_text(seat.agent)
                if s in self.last_think:
                    item["last_decision_ms"] = round(self.last_think[s] * 1000)
            out.append(item)
        return out

    def view(self, seat: int | None, *, log: int | None = None) -> dict[str, Any]:
        """What ``seat`` (``None``: the spectator) sees, as JSON-able data: the board from its
        observation, its legal actions when it is to move, its log (the last ``log`` entries;
        ``None``: all), the outcome once the game is over."""
        viewer = SPECTATOR if seat is None else seat
        with self.lock:
            key = (self.version, self.abandoned, viewer, log)
            if self._views.get("at") != key[:2]:
                self._views = {"at": key[:2]}  # a view holds until the table changes
            kept = self._views.get(key)
            if kept is None:
                kept = self._views[key] = self._build_view(seat, viewer, log)
            return dict(kept)

    def _build_view(self, seat: int | None, viewer: int, log: int | None) -> dict[str, Any]:
        with self.lock:
            state = self.state
            observation = state.observation(viewer)
            p = state.current_player
            data: dict[str, Any] = {
                "game": self.game_id,
                "title": self.entry.title,
                "version": self.version,
                "status": self.status,
                "current_player": p if p >= 0 else None,
                "you": seat,
                "seats": self.seat_list(),
                "view": board_view(self.game_id, observation),
                "text": observation.describe(),
                "legal": [],
                "undo": False,
            }
            if seat is not None and p == seat and self.seats[seat].human and not self.abandoned:
                data["legal"] = legal_view(observation, state.legal_actions())
            if seat is not None and self.seats[seat].human:
                data["undo"] = self.can_undo(seat)
            entries = self.logs[viewer]
            data["log"] = [e.to_dict() for e in (entries if log is None else entries[-log:] if log else [])]
            data["notes"] = list(self.notes)
            outcome = state.outcome()
            if outcome is not None:
                data["outcome"] = outcome.to_dict()
                data["seed"] = self.seed
            return data

    def _check_hint(self, seat: int) -> None:
        """A hint is for a seat of this table, the one to move (the caller holds the lock)."""
        self._check_seat(seat, "ask for a hint")
        if self.state.current_player != seat:
            raise NotYourTurn(f"it is not {seat_name(seat)}'s turn: a hint is for the seat to move")

    def hint_position(self, seat: int) -> list[str]:
        """The actions so far (as written), once ``seat`` is found to be the seat to move."""
        with self.lock:
            self._check_hint(seat)
            return [str(a) for a in self.actions]

    def hint(self, seat: int) -> str:
        """The search agent's advice for ``seat``, who is to move (the terminal's ``hint``)."""
        with self.lock:
            self._check_hint(seat)
            state = self.state.clone()  # read off the lock (see decision)
            observation, legal = state.observation(seat), state.legal_actions()
        from cardbase.sim.play import hinter  # the terminal's hint, seeded by the seed and the position

        return hinter(self.rules.game_id, self.rules, self.seed)(observation, legal)

    # -- the record ----------------------------------------------------------------------

    def agent_names(self) -> list[str]:
        return [seat.spec if seat.human else (seat.agent.name if seat.agent else seat.spec) for seat in self.seats]

    def record(self) -> list[str]:
        """The game's record (JSON Lines, as ``sim --records``; ``cardbase replay`` reads it)."""
        with self.lock:
            return record_lines(self.rules, self.seed, self.actions, self.agent_names())

    def transcript(self, seat: int) -> list[str]:
        """What ``seat`` has seen of the game so far, as JSON Lines: a header (the rules without
        the decks and the card pool, no seed) and each action as that seat read it. Not a record
        ``replay`` takes: the whole record is given once the game is over."""
        with self.lock:
            options = {k: v for k, v in self.rules.to_options().items() if k not in ("decks", "pool")}
            head = {
                "record": "cardbase.game",
                "version": 1,
                "game": self.game_id,
                "rules": options,
                "seed": None,
                "seat": seat_name(seat),
                "unfinished": True,
                "note": f"the game so far as {seat_name(seat)} saw it; the whole record comes when the game is over",
            }
            state = self.rules.new_initial_state(self.seed)
            lines = [json_line(head)]
            for mover, action in zip(self.movers, self.actions, strict=True):
                text = state.action_text(action, viewer=seat)
                lines.append(json_line({"player": seat_label(mover), "action": text}))
                state.apply_unchecked(action)
            return lines

    def texts(self, start: int = 0) -> list[tuple[str, str]]:
        """The actions from number ``start + 1`` on as (player, text): what a store keeps."""
        with self.lock:
            return [(seat_label(p), str(a)) for p, a in zip(self.movers[start:], self.actions[start:], strict=True)]


@dataclass
class NewTable:
    """What a face asks for: the game's rules options, the seats, the seed (``None``: a new one)."""

    rules: Rules
    seats: list[str]
    seed: int | None = None
    labels: dict[str, Any] = field(default_factory=dict)

    def make(self) -> Table:
        seed = self.seed if self.seed is not None else new_seed()
        return Table(self.rules, seed, self.seats, labels=self.labels)
