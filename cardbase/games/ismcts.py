"""Single-observer information-set Monte Carlo tree search (SO-ISMCTS), written once
against the engine protocol.

After Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree Search", IEEE
Transactions on Computational Intelligence and AI in Games 4(2), 2012 (Algorithm 3).
Each iteration deals the cards the observer cannot see at random, consistently with its
observation (a *determinisation*), and walks one tree whose nodes are the observer's
information sets: a child is reached by an action, whatever the hidden cards. Since a
determinisation allows only some of a node's actions, selection is UCB1 over the
children available in it, with each child's availability count in place of its parent's
visits (the paper's subset-armed bandit). Chance events draw from the determinised
state's own RNG (``state.sample_chance``), reseeded from the agent's RNG every
iteration, so that an iteration budget is reproducible by seed; a time budget is not.

A game supplies only its determiniser, which actions a decision searches (all legal
ones, or its heuristic's best), a rollout policy and a value cut-off: subclass
:class:`IsmctsAgent`. Pure: no I/O; the clock is read only for a time budget.
"""

from __future__ import annotations

import math
import random
import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

from cardbase.games.base import Rules, State

DEFAULT_ITERATIONS = 400
DEFAULT_EXPLORATION = 0.7
"""UCB1's exploration constant for rewards in [0, 1] (the paper's 0.7)."""


class _Node:
    """An information-set node: the action that reached it from its parent, who took it,
    and its visits, availability and summed reward for that player."""

    __slots__ = ("avail", "children", "player", "squares", "total", "visits")

    def __init__(self, player: int) -> None:
        self.player = player  # the seat that acted into this node; < 0: a chance outcome
        self.children: dict[Any, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.squares = 0.0


def _budget(iters: int | None, ms: int | None) -> tuple[int | None, float | None]:
    """The search budget: a number of iterations (reproducible) or milliseconds (not)."""
    if iters is not None and ms is not None:
        raise ValueError("give iters or ms, not both")
    if ms is not None:
        if not isinstance(ms, int) or ms < 1:
            raise ValueError(f"ms is a whole number of milliseconds of at least 1, not {ms!r}")
        return None, ms / 1000.0
    n = DEFAULT_ITERATIONS if iters is None else iters
    if not isinstance(n, int) or n < 1:
        raise ValueError(f"iters is a whole number of at least 1, not {n!r}")
    return n, None


def _number(name: str, value: float | str, low: float, high: float) -> float:
    """``value`` (a number, or its text as agent options give it) within [low, high]."""
    try:
        x = float(value)
    except ValueError:
        raise ValueError(f"{name} is a number, not {value!r}") from None
    if not low <= x <= high:
        raise ValueError(f"{name} is between {low:g} and {high:g}, not {value!r}")
    return x


def _variance(node: _Node) -> float:
    """The sample variance of a node's rewards (0 for one visit)."""
    n = node.visits
    if n < 2:
        return 0.0
    mean = node.total / n
    return max(0.0, (node.squares - n * mean * mean) / (n - 1))


class IsmctsAgent(ABC):
    """SO-ISMCTS for one seat. ``iters``: iterations per decision (default 400), or ``ms``:
    milliseconds per decision (not reproducible); ``c``: the exploration constant;
    ``prior`` and ``confidence``: how clearly the search must beat the game's own choice
    (:meth:`preferred`) to replace it.

    A game subclass implements :meth:`determinise`, :meth:`candidates`,
    :meth:`rollout` and :meth:`rewards`, and may override :meth:`shortcut` (decisions
    taken without search) and :meth:`cut_off` (where the tree stops growing)."""

    name = "ismcts"

    def __init__(
        self,
        rules: Rules,
        seat: int,
        seed: int | None = None,
        iters: int | None = None,
        ms: int | None = None,
        c: float | str = DEFAULT_EXPLORATION,
        prior: float | str = 0.0,
        confidence: float | str = 0.0,
    ) -> None:
        self.rules = rules
        self.prior = _number("prior", prior, 0.0, 1.0)
        self.confidence = _number("confidence", confidence, 0.0, 10.0)
        self.seat = seat
        self.rng = random.Random(seed)
        self.iterations, self.seconds = _budget(iters, ms)
        self.exploration = _number("c", c, 0.0, 10.0)
        self.last_iterations = 0
        """Iterations run for the last decision searched (for benchmarks)."""

    # --- what a game supplies -----------------------------------------------------

    @abstractmethod
    def determinise(self, observation: Any, rng: random.Random) -> State:
        """A full state consistent with ``observation``: every card it hides dealt at
        random from what this seat has not seen. Its RNG and history are reset here."""

    @abstractmethod
    def candidates(self, state: State) -> Sequence[Any]:
        """The actions searched at a decision of ``state`` (legal ones, in a fixed order)."""

    @abstractmethod
    def rollout(self, state: State) -> None:
        """Play on from a leaf (the game's rollout policy) up to the value cut-off."""

    @abstractmethod
    def rewards(self, state: State) -> Sequence[float]:
        """Per seat, a reward in [0, 1] for the state a rollout reached."""

    def shortcut(self, observation: Any, legal_actions: Sequence[Any]) -> Any | None:
        """An action chosen without search, or ``None`` to search."""
        return None

    def cut_off(self, state: State) -> bool:
        """Whether the tree stops growing at ``state`` (it is then scored as it stands)."""
        return False

    def preferred(self, observation: Any) -> Any | None:
        """The game's own choice at the root (its heuristic's), or ``None``: when given, the
        most visited action replaces it only if its mean reward is higher by ``prior`` and by
        ``confidence`` standard errors of the difference (see :meth:`choose`)."""
        return None

    def start(self, observation: Any) -> None:
        """Called once per decision before the first iteration (e.g. to mark the root)."""
        return None

    # --- the search ---------------------------------------------------------------

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        if len(legal_actions) == 1:
            return legal_actions[0]
        forced = self.shortcut(observation, legal_actions)
        if forced is not None:
            return forced
        root = self.search(observation)
        if not root.children:
            return legal_actions[0]
        return self.choose(root, self.preferred(observation))

    def choose(self, root: _Node, preferred: Any | None) -> Any:
        """The most visited action at the root, unless ``preferred`` (searched too) is not
        clearly worse: by less than ``prior`` plus ``confidence`` standard errors."""
        action, best = max(root.children.items(), key=lambda kv: kv[1].visits)
        mine = root.children.get(preferred) if preferred is not None else None
        if mine is None or mine is best:
            return action
        gap = best.total / best.visits - mine.total / mine.visits
        error = math.sqrt(_variance(best) / best.visits + _variance(mine) / mine.visits)
        return action if gap > self.prior + self.confidence * error else preferred

    def search(self, observation: Any) -> _Node:
        """Run the budget's iterations from ``observation``; the root node."""
        root = _Node(self.seat)
        self.start(observation)
        rng = self.rng
        if self.iterations is not None:
            for _ in range(self.iterations):
                self._iterate(root, observation, rng)
            self.last_iterations = self.iterations
            return root
        assert self.seconds is not None
        deadline = time.perf_counter() + self.seconds
        count = 0
        while True:
            self._iterate(root, observation, rng)
            count += 1
            if time.perf_counter() >= deadline:
                break
        self.last_iterations = count
        return root

    def _iterate(self, root: _Node, observation: Any, rng: random.Random) -> None:
        state = self.determinise(observation, rng)
        state.rng.seed(rng.getrandbits(64))  # a fresh RNG each determiniser makes
        node = root
        path: list[_Node] = []
        c = self.exploration
        while not state.is_terminal and not self.cut_off(state):
            if state.is_chance_node:
                outcome = state.sample_chance()
                child = node.children.get(outcome)
                if child is None:
                    child = node.children[outcome] = _Node(-1)
                state.apply_unchecked(outcome)
                path.append(child)
                node = child
                continue
            player = state.current_player
            actions = self.candidates(state)
            children = node.children
            untried = [a for a in actions if a not in children]
            for a in actions:
                known = children.get(a)
                if known is not None:
                    known.avail += 1
            if untried:
                action = untried[rng.randrange(len(untried))]
                child = children[action] = _Node(player)
                child.avail = 1
                state.apply_unchecked(action)
                path.append(child)
                break
            best: _Node | None = None
            chosen: Any = None
            best_score = -math.inf
            for a in actions:
                ch = children[a]
                score = ch.total / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                if score > best_score:
                    best, chosen, best_score = ch, a, score
            assert best is not None
            state.apply_unchecked(chosen)
            path.append(best)
            node = best
        if not state.is_terminal and not self.cut_off(state):
            self.rollout(state)
        rewards = self.rewards(state)
        for n in path:
            n.visits += 1
            if n.player >= 0:
                r = rewards[n.player]
                n.total += r
                n.squares += r * r


__all__ = ["DEFAULT_EXPLORATION", "DEFAULT_ITERATIONS", "IsmctsAgent"]
