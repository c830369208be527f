"""A game record stepped through: the board after each action, as one seat saw it or all-seeing,
and the first illegal action with its reason — the check ``cardbase replay`` runs
(:func:`cardbase.sim.records.replay`), run once.

Step ``n`` is the game after ``n`` actions (chance actions included; step 0 is the start). A
seat's step shows the action as that seat saw it (``state.action_text(action, viewer=seat)``: a
draw by another player is "P2 draws a card") and the board built from that seat's observation
only; the all-seeing step shows the action as recorded and :func:`all_seeing_view`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from cardbase.errors import InvalidRecord, UsageError
from cardbase.games.base import Rules, State
from cardbase.sim.boards import BoardView, all_seeing_view, board_view, turn_of
from cardbase.sim.records import GameRecord, record_rules, replay

MAX_REPLAY_ACTIONS = 5_000
"""Actions a replay steps through at most; a record over it is refused, naming the bound. Games
played out are far below it (the three games' ``sim`` records: 100 to 300 actions); its steps as
JSON (``POST /api/replay``) are then at most about 50 MB for Méa."""
CHECKPOINT_EVERY = 50
"""A copy of the game is kept every this many actions, so a step is at most this many actions
away from one (a page shows any step without replaying the whole record)."""


@dataclass
class ReplayLog:
    """``record`` replayed and checked: every action applied (chance actions included, in order,
    with who took it), the first illegal action (``illegal``: its line, number and reason), the
    outcome if the record reaches the end, and copies of the game along the way."""

    record: GameRecord
    rules: Rules
    actions: list[tuple[Any, str]] = field(default_factory=list)
    illegal: dict[str, Any] | None = None
    outcome: dict[str, Any] | None = None
    checkpoints: dict[int, State] = field(default_factory=dict, repr=False)

    @property
    def game(self) -> str:
        return self.record.game

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def length(self) -> int:
        """The number of actions replayed (the last step's number)."""
        return len(self.actions)

    def state_after(self, n: int) -> State:
        """A copy of the game after ``n`` actions."""
        self.check_step(n)
        start = max(k for k in self.checkpoints if k <= n)
        state = self.checkpoints[start].clone()
        for action, _ in self.actions[start:n]:
            state.apply_unchecked(action)
        return state

    def step(self, n: int, seat: int | None = None) -> dict[str, Any]:
        """Step ``n`` as seat ``seat`` saw it (``None``: all-seeing): ``{"n", "who", "action", "view"}``
        (``who`` took the action, ``P1`` … or ``chance``; ``action`` is its text as the seat saw it)."""
        self.check_seat(seat)
        self.check_step(n)
        if n == 0:
            return self._entry(0, None, None, self.state_after(0), seat)
        state = self.state_after(n - 1)
        return self._apply(state, n, seat)

    def steps(self, seat: int | None = None) -> Iterator[dict[str, Any]]:
        """Every step from 0 to the last, as ``seat`` saw them (``None``: all-seeing)."""
        self.check_seat(seat)
        state = self.state_after(0)
        yield self._entry(0, None, None, state, seat)
        for n in range(1, self.length + 1):
            yield self._apply(state, n, seat)

    @cached_property
    def turns(self) -> list[tuple[int, str, int]]:
        """(turn, its label, the first step of that turn) for each turn the record reaches."""
        out: list[tuple[int, str, int]] = []
        seen: set[int] = set()
        state = self.state_after(0)
        for n in range(self.length + 1):
            if n:
                state.apply_unchecked(self.actions[n - 1][0])
            turn = turn_of(state)
            if turn["turn"] not in seen:
                seen.add(turn["turn"])
                out.append((turn["turn"], turn["turn_label"], n))
        return out

    def _apply(self, state: State, n: int, seat: int | None) -> dict[str, Any]:
        """Apply action ``n`` to ``state`` (the game after ``n - 1``); step ``n``."""
        action, who = self.actions[n - 1]
        text = state.action_text(action, viewer=seat)
        state.apply_unchecked(action)
        return self._entry(n, who, text, state, seat)

    def _entry(self, n: int, who: str | None, text: str | None, state: State, seat: int | None) -> dict[str, Any]:
        view: BoardView = all_seeing_view(state) if seat is None else board_view(self.game, state.observation(seat))
        return {"n": n, "who": who, "action": text, "view": view}

    def check_step(self, n: int) -> None:
        if not 0 <= n <= self.length:
            raise UsageError(f"step {n}: this record has steps 0 to {self.length}")

    def check_seat(self, seat: int | None) -> None:
        if seat is not None and not 0 <= seat < self.players:
            raise UsageError(f"seat {seat}: this game's seats are 0 to {self.players - 1}")


def replay_log(record: GameRecord) -> ReplayLog:
    """Replay ``record`` once, checking every action as ``cardbase replay`` does; an illegal action
    ends the log before it (``illegal`` says which, and why) instead of raising."""
    rules = record_rules(record)
    log = ReplayLog(record, rules)

    def watch(state: State, action: Any, who: str) -> None:
        n = len(log.actions)
        if n >= MAX_REPLAY_ACTIONS:
            raise UsageError(
                f"{record.source}: the record has more than {MAX_REPLAY_ACTIONS:,} actions, the bound of a replay"
            )
        if n % CHECKPOINT_EVERY == 0:
            log.checkpoints[n] = state.clone()
        log.actions.append((action, who))

    try:
        result = replay(record, watch=watch)
    except InvalidRecord as error:
        log.illegal = {"line": error.line, "number": error.number, "player": error.player, "reason": error.reason}
    else:
        log.outcome = result.outcome.to_dict() if result.outcome else None
    if 0 not in log.checkpoints:  # a record without an action
        log.checkpoints[0] = rules.new_initial_state(record.seed)
    return log
