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
With ``loop="open"`` the tree holds only decisions with a choice: chance outcomes and
forced moves are played through without a node (open-loop search, which lets a few
iterations reach this seat's later decisions instead of spreading over dice and draws).
With ``per_deal=k`` each determinisation, with its chance seed, serves ``k`` iterations in a
row, the root's candidates taking turns on it (none twice while another has not had it), so
that they meet the same hidden cards and the same dice (common random numbers, the search
agents' paired samples) and replay no iteration.
With ``root="halving"`` (an iteration budget only) the root's actions are chosen by sequential
halving (Karnin, Koren & Somekh, ICML 2013) instead of UCB1, the tree below them by UCB1 as
before: the hybrid of Pepels, Cazenave, Winands & Lanctot, "Minimizing Simple and Cumulative
Regret in Monte-Carlo Tree Search" (CGW 2014), the root's task being to pick one action, not to
sample well. The budget is split evenly over ceil(log2 k) rounds for k actions; in a round every
action left is played on the same fresh deals (common random numbers), and then the better half
by mean reward stays, with the game's own choice (:meth:`preferred`). So the close contenders
get most of the iterations, and the last comparison is on paired samples: the game's choice
stands unless the best beats it by ``prior`` and by ``confidence`` standard errors of the paired
differences.
With ``screen=m`` (under ``root=halving``) halving's first look is cheaper: every root action is
played on ``screen_deals`` shared deals with the tree cut at the game's shallow horizon
(:meth:`IsmctsAgent.cut_off_screen`, in a tree of its own), and only the ``m`` best (with the
game's choice) go on to the halving rounds at the full horizon, which share the rest of the
budget; a multi-fidelity successive halving (the low-fidelity round prunes, the costly one
decides). With ``expand="ordered"`` a node's untried actions are expanded in the order the
game gives its candidates (its heuristic's best first) instead of at random, so that a node's
first visits follow the rollout policy rather than a random action. A node whose decision the
game calls the same on every deal (:meth:`IsmctsAgent.settled`: this seat's own actions from the
root, nothing hidden revealed) keeps its candidates, computed once, instead of ranking them
again on every deal: the same search, cheaper.

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

from cardbase.errors import quoted
from cardbase.games.base import Rules, State, agent_repr, check_act, decimal_number

DEFAULT_ITERATIONS = 400
DEFAULT_EXPLORATION = 0.7
"""UCB1's exploration constant for rewards in [0, 1] (the paper's 0.7)."""


class _Node:
    """An information-set node: the action that reached it from its parent, who took it,
    and its visits, availability and summed reward for that player."""

    __slots__ = ("avail", "cands", "children", "player", "squares", "total", "visits")

    def __init__(self, player: int) -> None:
        self.player = player  # the seat that acted into this node; < 0: a chance outcome
        self.children: dict[Any, _Node] = {}
        self.cands: Sequence[Any] | None = None  # its candidates, when the same on every deal
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
            raise ValueError(f"ms is a whole number of milliseconds of at least 1, not {quoted(ms)}")
        return None, ms / 1000.0
    n = DEFAULT_ITERATIONS if iters is None else iters
    if not isinstance(n, int) or n < 1:
        raise ValueError(f"iters is a whole number of at least 1, not {quoted(n)}")
    return n, None


def _number(name: str, value: float | str, low: float, high: float) -> float:
    """``value`` (a number, or its text as agent options give it) within [low, high]."""
    x = decimal_number(value) if isinstance(value, str) else float(value)
    if x is None:
        raise ValueError(f"{name} is a number written in digits, not {quoted(value, 40)}")
    if not low <= x <= high:
        raise ValueError(f"{name} is between {low:g} and {high:g}, not {quoted(value)}")
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
    taken without search), :meth:`cut_off` (where the tree stops growing) and
    :meth:`follows` (when the last decision's subtree is kept for the next),
    :meth:`settled` (nodes whose candidates are kept) and :meth:`cut_off_screen` (the
    ``screen`` horizon). ``loop``, ``per_deal``, ``root``, ``expand``, ``screen`` and
    ``screen_deals``: see the module's description."""

    name = "ismcts"

    def __repr__(self) -> str:
        return agent_repr(self)

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
        loop: str = "closed",
        per_deal: int = 1,
        root: str = "ucb",
        expand: str = "random",
        screen: int = 0,
        screen_deals: int = 2,
    ) -> None:
        if not isinstance(screen, int) or not 0 <= screen <= 100:
            raise ValueError(f"screen is a whole number from 0 to 100, not {quoted(screen)}")
        if not isinstance(screen_deals, int) or not 1 <= screen_deals <= 100:
            raise ValueError(f"screen_deals is a whole number from 1 to 100, not {quoted(screen_deals)}")
        if screen and root != "halving":
            raise ValueError("screen takes root=halving")
        self.screen = screen
        self.screen_deals = screen_deals
        self.screening = False
        """True while the root's actions are screened (:meth:`cut_off_screen` then applies)."""
        if expand not in ("random", "ordered"):
            raise ValueError(f"expand is random or ordered, not {quoted(expand)}")
        self.ordered = expand == "ordered"
        self.candidate_calls = 0
        """How many times :meth:`candidates` was called (for tests and benchmarks)."""
        if loop not in ("closed", "open"):
            raise ValueError(f"loop is closed or open, not {quoted(loop)}")
        if root not in ("ucb", "halving"):
            raise ValueError(f"root is ucb or halving, not {quoted(root)}")
        if root == "halving" and (ms is not None or per_deal != 1):
            raise ValueError("root=halving takes an iteration budget (iters), without ms or per_deal")
        self.halving = root == "halving"
        self._paired: dict[Any, list[float]] = {}
        """Under ``root=halving``: per root action, its reward on each deal it was played on."""
        if not isinstance(per_deal, int) or not 1 <= per_deal <= 1000:
            raise ValueError(f"per_deal is a whole number from 1 to 1000, not {quoted(per_deal)}")
        self.open_loop = loop == "open"
        self.per_deal = per_deal
        self._deal: tuple[State, int] | None = None
        self._tried: set[Any] = set()
        """The root's actions already played on the current deal (``per_deal`` > 1)."""
        self.rules = rules
        self.prior = _number("prior", prior, 0.0, 1.0)
        self.confidence = _number("confidence", confidence, 0.0, 10.0)
        self.seat = seat
        self.rng = random.Random(seed)
        self.iterations, self.seconds = _budget(iters, ms)
        self.exploration = _number("c", c, 0.0, 10.0)
        self.last_iterations = 0
        """Iterations run for the last decision searched (for benchmarks)."""
        self._kept: tuple[Any, Any, _Node] | None = None
        """The last searched decision's observation, the action taken and its child node."""

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

    def cut_off_screen(self, state: State) -> bool:
        """Where a screening iteration stops (``screen``): a cheaper, shallower cut-off
        than :meth:`cut_off`. Default: the same."""
        return self.cut_off(state)

    def stops(self, state: State) -> bool:
        """The cut-off in force: :meth:`cut_off_screen` while screening, else :meth:`cut_off`
        (for a game's :meth:`rollout`)."""
        return self.cut_off_screen(state) if self.screening else self.cut_off(state)

    def preferred(self, observation: Any) -> Any | None:
        """The game's own choice at the root (its heuristic's), or ``None``: when given, the
        most visited action replaces it only if its mean reward is higher by ``prior`` and by
        ``confidence`` standard errors of the difference (see :meth:`choose`)."""
        return None

    def settled(self, state: State) -> bool:
        """Whether the decision of ``state`` (this seat's, reached from this decision's root by
        this seat's own actions alone, or the root itself) is the same on every deal: its
        candidates are then computed once and kept on its node (not in an open loop, whose
        nodes may skip a forced move). Default: never."""
        return False

    def start(self, observation: Any) -> None:
        """Called once per decision before the first iteration (e.g. to mark the root)."""
        return None

    def copy_deal(self, state: State) -> State:
        """An independent copy of a determinised state, for the next iteration on that deal
        (``per_deal`` > 1); its RNG is reseeded before use."""
        return state.clone()

    def follows(self, previous: Any, action: Any, observation: Any) -> bool:
        """Whether ``observation`` is what ``action``, taken at ``previous``, led to with
        nothing hidden or left to chance between (this seat to act again, having seen
        nothing new). The tree below that action is then kept as the new root: its
        statistics were gathered on this very information set. Default: never."""
        return False

    # --- the search ---------------------------------------------------------------

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        check_act(self, observation, legal_actions)
        kept, self._kept = self._kept, None
        if len(legal_actions) == 1:
            return legal_actions[0]
        forced = self.shortcut(observation, legal_actions)
        if forced is not None:
            return forced
        reused = self._reusable(kept, observation)
        root = self.search(observation, reused)
        searched = root.children
        if reused is not None:  # a kept tree may hold children not legal now
            legal = set(legal_actions)
            searched = {a: n for a, n in root.children.items() if a in legal and n.visits}
        if not searched:
            return legal_actions[0]
        if self.halving:
            action = self.choose_paired(self.preferred(observation))
        else:
            action = self.choose(searched, self.preferred(observation))
        child = root.children.get(action)
        if child is not None and child.children:
            self._kept = (observation, action, child)
        return action

    def _reusable(self, kept: tuple[Any, Any, _Node] | None, observation: Any) -> _Node | None:
        """The kept child node as this decision's root, when the game says the decision
        follows from it and every move below it in the tree is this seat's (no chance, no
        other seat between; not in an open loop, whose nodes may skip a forced move)."""
        if kept is None or self.open_loop:
            return None
        previous, action, node = kept
        if any(ch.player != self.seat for ch in node.children.values()):
            return None
        return node if self.follows(previous, action, observation) else None

    def choose(self, children: dict[Any, _Node], preferred: Any | None) -> Any:
        """The most visited of the root's legal ``children``, unless ``preferred`` (searched
        too) is not clearly worse: by less than ``prior`` plus ``confidence`` standard errors.
        (A kept tree may hold children no longer legal: they are left out.)"""
        action, best = max(children.items(), key=lambda kv: kv[1].visits)
        mine = children.get(preferred) if preferred is not None else None
        if mine is None or mine is best:
            return action
        gap = best.total / best.visits - mine.total / mine.visits
        error = math.sqrt(_variance(best) / best.visits + _variance(mine) / mine.visits)
        return action if gap > self.prior + self.confidence * error else preferred

    def choose_paired(self, preferred: Any | None) -> Any:
        """Under ``root=halving``: the best mean of the actions left (those played on the
        most deals), unless ``preferred`` is not clearly worse on the deals both met."""
        paired = self._paired
        most = max(len(v) for v in paired.values())
        left = [a for a, v in paired.items() if len(v) == most]
        best = max(left, key=lambda a: sum(paired[a]) / most)
        mine = paired.get(preferred) if preferred is not None else None
        if mine is None or best == preferred:
            return best
        diffs = [x - y for x, y in zip(paired[best], mine, strict=True)]  # the deals both met, in order
        n = len(diffs)
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
        return best if mean > self.prior + self.confidence * math.sqrt(var / n) else preferred

    def _search_halving(self, root: _Node, observation: Any, rng: random.Random) -> None:
        """Sequential halving at the root over the iteration budget (see the module)."""
        assert self.iterations is not None
        budget = self.iterations
        preferred = self.preferred(observation)
        base = self.determinise(observation, rng)
        left = list(dict.fromkeys(self.candidates(base)))  # the root's: the observation's alone
        used = 0
        if 0 < self.screen < len(left):  # a cheap first look at the game's shallow horizon
            left, base, used = self._screen(observation, rng, left, base, preferred)
        paired: dict[Any, list[float]] = {a: [] for a in left}
        self._paired = paired
        rounds = max(1, math.ceil(math.log2(len(left)))) if len(left) > 1 else 1
        for r in range(rounds):
            deals = max(1, (budget - used) // (rounds - r) // len(left))
            for _ in range(deals):
                seed = rng.getrandbits(64)
                for a in left:
                    state = self.copy_deal(base)
                    state.rng.seed(seed)
                    paired[a].append(self._descend(root, state, rng, a)[self.seat])
                    used += 1
                base = self.determinise(observation, rng)
            if r < rounds - 1:
                n = len(paired[left[0]])
                ranked = sorted(left, key=lambda a: -sum(paired[a]) / n)  # stable: ties keep order
                keep = ranked[: math.ceil(len(left) / 2)]
                if preferred in paired and preferred not in keep:
                    keep.append(preferred)
                left = [a for a in left if a in keep]
        self.last_iterations = used

    def _screen(
        self, observation: Any, rng: random.Random, left: list[Any], base: State, preferred: Any
    ) -> tuple[list[Any], State, int]:
        """Under ``screen=m``: every root action played on ``screen_deals`` shared deals with
        the tree cut at :meth:`cut_off_screen` (a tree of its own); the ``m`` best by mean
        reward stay (with the game's choice), the next deal and the iterations used."""
        scout = _Node(self.seat)
        totals = dict.fromkeys(left, 0.0)
        used = 0
        self.screening = True
        try:
            for _ in range(self.screen_deals):
                seed = rng.getrandbits(64)
                for a in left:
                    state = self.copy_deal(base)
                    state.rng.seed(seed)
                    totals[a] += self._descend(scout, state, rng, a)[self.seat]
                    used += 1
                base = self.determinise(observation, rng)
        finally:
            self.screening = False
        keep = sorted(left, key=lambda a: -totals[a])[: self.screen]  # stable: ties keep order
        if preferred in totals and preferred not in keep:
            keep.append(preferred)
        return [a for a in left if a in keep], base, used

    def search(self, observation: Any, root: _Node | None = None) -> _Node:
        """Run the budget's iterations from ``observation`` (onto ``root``, a tree kept from
        the last decision, when given); the root node."""
        root = root if root is not None else _Node(self.seat)
        self.start(observation)
        rng = self.rng
        if self.halving:
            self._search_halving(root, observation, rng)
            return root
        if self.iterations is not None:
            for k in range(self.iterations):
                self._iterate(root, observation, rng, k)
            self.last_iterations = self.iterations
            return root
        assert self.seconds is not None
        deadline = time.perf_counter() + self.seconds
        count = 0
        while True:
            self._iterate(root, observation, rng, count)
            count += 1
            if time.perf_counter() >= deadline:
                break
        self.last_iterations = count
        return root

    def _iterate(self, root: _Node, observation: Any, rng: random.Random, k: int) -> None:
        per_deal = self.per_deal
        if per_deal == 1:
            state = self.determinise(observation, rng)
            state.rng.seed(rng.getrandbits(64))  # a fresh RNG each determiniser makes
        else:  # one deal and one chance seed for ``per_deal`` iterations: common random numbers
            if k % per_deal == 0 or self._deal is None:
                self._deal = (self.determinise(observation, rng), rng.getrandbits(64))
                self._tried.clear()
            base, seed = self._deal
            state = self.copy_deal(base)
            state.rng.seed(seed)
        self._descend(root, state, rng)

    def _descend(self, root: _Node, state: State, rng: random.Random, first: Any = None) -> Sequence[float]:
        """One iteration on a dealt ``state`` from ``root`` (its action ``first`` when given):
        select, expand, roll out, back up; the rewards."""
        per_deal = self.per_deal
        node = root
        path: list[_Node] = []
        c = self.exploration
        open_loop = self.open_loop
        settled = not open_loop  # the path so far: this seat's own actions on settled decisions
        stop = self.cut_off_screen if self.screening else self.cut_off
        while not state.is_terminal and not stop(state):
            if state.is_chance_node:
                settled = False
                outcome = state.sample_chance()
                if open_loop:  # chance is not a node: the tree is the decisions
                    state.apply_unchecked(outcome)
                    continue
                child = node.children.get(outcome)
                if child is None:
                    child = node.children[outcome] = _Node(-1)
                state.apply_unchecked(outcome)
                path.append(child)
                node = child
                continue
            player = state.current_player
            settled = settled and player == self.seat and self.settled(state)
            if settled and node.cands is not None:
                actions = node.cands
            else:
                actions = self.candidates(state)
                self.candidate_calls += 1
                if settled:
                    node.cands = actions
            if open_loop and len(actions) == 1 and node is not root:  # nor a forced move (below the root)
                state.apply_unchecked(actions[0])
                continue
            children = node.children
            for a in actions:
                known = children.get(a)
                if known is not None:
                    known.avail += 1
            if first is not None and node is root:  # the root's action is given
                actions = [first]
            elif per_deal > 1 and node is root:  # the root's actions each meet a deal once
                fresh = [a for a in actions if a not in self._tried]
                actions = fresh or actions
            untried = [a for a in actions if a not in children]
            if untried:
                action = untried[0] if self.ordered else untried[rng.randrange(len(untried))]
                if per_deal > 1 and node is root:
                    self._tried.add(action)
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
            if per_deal > 1 and node is root:
                self._tried.add(chosen)
            state.apply_unchecked(chosen)
            path.append(best)
            node = best
        if not state.is_terminal and not stop(state):
            self.rollout(state)
        rewards = self.rewards(state)
        for n in path:
            n.visits += 1
            if n.player >= 0:
                r = rewards[n.player]
                n.total += r
                n.squares += r * r
        return rewards


__all__ = ["DEFAULT_EXPLORATION", "DEFAULT_ITERATIONS", "IsmctsAgent"]
