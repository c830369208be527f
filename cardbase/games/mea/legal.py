"""The legal actions of a Méa position as lazy sequences: :class:`MainActions` (the main phase:
the move generation, one pass over the state's flat per-instance lists) and :class:`ChoiceActions`
(a target or a place to choose). :meth:`MeaState.legal_actions` makes them; a list reads its
state and is valid until the state changes."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, overload

from cardbase.errors import counted
from cardbase.games.base import sliced
from cardbase.games.mea.actions import (
    NONE_POS,
    Attack,
    Choose,
    MeaAction,
    Move,
    Obliterate,
    Play,
    _choose_tile,
    _summon,
)

if TYPE_CHECKING:
    from cardbase.games.mea.engine import MeaState


class _LazyActions(Sequence[MeaAction]):
    """Legal actions listed lazily: ``len`` and indexing build only the actions asked
    for (all a random player needs); iterating, ``in`` and ``==`` build them all, once.
    A lazy list reads its state: it is valid until the state changes."""

    __slots__ = ("_all", "_given", "_state")

    _state: MeaState
    _all: tuple[MeaAction, ...] | None
    _given: MeaAction | None
    """The action last taken from the list by index (it is in the list: actions are immutable)."""

    def _build_all(self) -> list[MeaAction]:
        raise NotImplementedError

    def materialise(self) -> tuple[MeaAction, ...]:
        """Every action, built once."""
        if self._all is None:
            self._all = tuple(self._build_all())
        return self._all

    def __iter__(self) -> Iterator[MeaAction]:
        return iter(self.materialise())

    def __contains__(self, action: object) -> bool:
        return action in self.materialise()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, _LazyActions):
            return self.materialise() == other.materialise()
        if isinstance(other, tuple | list):
            return list(self.materialise()) == list(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.materialise())

    def __repr__(self) -> str:
        return f"<{counted(len(self), 'legal action')}>"


class ChoiceActions(_LazyActions):
    """The choice phase's legal actions: ``choose`` each option in turn (tiles, or
    monsters in board order)."""

    __slots__ = ("_options",)

    def __init__(self, state: MeaState, options: tuple[Any, ...]):
        self._state = state
        self._all = None
        self._given: MeaAction | None = None
        self._options = options

    def __len__(self) -> int:
        return len(self._options)

    @overload
    def __getitem__(self, k: int) -> MeaAction: ...

    @overload
    def __getitem__(self, k: slice) -> tuple[MeaAction, ...]: ...

    def __getitem__(self, k: int | slice) -> MeaAction | tuple[MeaAction, ...]:
        if type(k) is slice:
            return sliced(self, k)
        t = self._options[k]
        action = self._given = _choose_tile(t) if type(t) is int else Choose(self._state.ref_of(t[0]))
        return action

    def __contains__(self, action: object) -> bool:
        """Whether ``action`` is one of these (the action last taken from this list by index is:
        actions are immutable; else they are built, once)."""
        return (action is self._given and action is not None) or action in self.materialise()

    def _build_all(self) -> list[MeaAction]:
        state = self._state
        return [_choose_tile(t) if type(t) is int else Choose(state.ref_of(t[0])) for t in self._options]

    @property
    def options(self) -> Sequence[Any]:
        """What each action chooses, in their order: a tile's position (``int``) or a monster as
        ``(instance,)`` (the state's card instance number)."""
        return self._options

    def ids(self) -> list[int]:
        """The actions' integer ids (see :class:`MeaActionIds`), in this order."""
        state = self._state
        t = state._tab_ids
        cell_of = state._tab.cell_of
        out = []
        for option in self._options:
            if type(option) is int:
                out.append(t.choose_tile + cell_of[option])
            else:
                i = option[0]
                q = state._pos[i]
                out.append(t.choose_monster + cell_of[q] * 2 + state._occ[q].index(i))
        return out


class MainActions(_LazyActions):
    """The main phase's legal actions. In order: summons (by card in hand order, then
    tile), assists, moves (by monster in board order, then tile), attacks (by target
    tile; single attackers, then pairs, each pair in both orders under ``move_in="first"``), then
    the turn-ending draws or obliterations."""

    __slots__ = (
        "_attacks",
        "_bounds",
        "_ends",
        "_movers",
        "_n",
        "_plays",
        "_summon_names",
        "_summon_tiles",
    )

    def __init__(self, state: MeaState):
        self._state = state
        self._all: tuple[MeaAction, ...] | None = None
        self._given: MeaAction | None = None
        p = state._active
        tab = state._tab
        ctrl = state._ctrl
        tiles = state._tiles
        # One pass over the tiles: where p may summon, where p's monsters may not go,
        # which tiles hold enemy monsters, and p's monsters in board order.
        summon_tiles = []
        blocked = set()
        enemy_tiles: dict[int, tuple[int, ...]] = {}
        share = tab.move_onto_enemy  # a lone enemy monster does not block a move
        mine: list[int] = []
        for q, here in state._occ.items():  # board order
            if not here:
                if tiles[q] == p:
                    summon_tiles.append(q)
            elif len(here) == 1:
                a = here[0]
                if ctrl[a] == p:
                    mine.append(a)
                    if tiles[q] == p:
                        summon_tiles.append(q)
                else:
                    if not share:
                        blocked.add(q)
                    enemy_tiles[q] = here
            else:
                a, b = here
                blocked.add(q)
                if ctrl[a] == p:
                    mine.append(a)
                    if ctrl[b] == p:
                        mine.append(b)
                    else:
                        enemy_tiles[q] = (b,)
                elif ctrl[b] == p:
                    enemy_tiles[q] = (a,)
                    mine.append(b)
                else:
                    enemy_tiles[q] = here
        summon_names: list[str] = []
        plays: list[str] = []
        mana = state._mana
        cost, names, monster = tab.cost, tab.names, tab.monster
        for i in state._hand[p]:
            if cost[i] <= mana:
                nm = names[i]
                if monster[i]:
                    if summon_tiles and nm not in summon_names:
                        summon_names.append(nm)
                elif nm not in plays:
                    plays.append(nm)
        adj, acts, pos, xatt, fresh = state._adj, state._acts, state._pos, state._xatt, state._fresh
        wait = tab.summoned_wait  # a monster summoned this turn only joins a pair: no move, no lone attack
        # Moves are counted here and built on demand; attackers are grouped by the enemy
        # tile they touch (enemy tiles are blocked tiles: a monster with no blocked
        # neighbour has nothing to attack).
        movers: list[Any] = []
        n_moves = 0
        near: dict[int, list[int]] = {}
        for i in mine:
            if acts[i] > 0 and not (wait and fresh[i]):
                nbrs = adj[pos[i]]
                if not blocked or blocked.isdisjoint(nbrs):
                    movers.append((i, nbrs))
                    n_moves += len(nbrs)
                    if not share:  # no blocked neighbour: no enemy next to it
                        continue
                elif not share:
                    # Its destinations and, in the same pass, the enemy tiles it touches (each
                    # blocked, as every enemy tile is when a lone enemy monster blocks a move).
                    dests = []  # (a loop, not a list comprehension: no function call)
                    for d in nbrs:
                        if d not in blocked:
                            dests.append(d)
                        elif d in enemy_tiles:
                            if d in near:
                                near[d].append(i)
                            else:
                                near[d] = [i]
                    if dests:
                        movers.append((i, dests))
                        n_moves += len(dests)
                    continue
                else:
                    dests = []
                    for d in nbrs:
                        if d not in blocked:
                            dests.append(d)
                    if dests:
                        movers.append((i, dests))
                        n_moves += len(dests)
            elif acts[i] > 0 or xatt[i] > 0:
                nbrs = adj[pos[i]]
            else:
                continue
            for t in nbrs:
                if t in enemy_tiles:
                    if t in near:
                        near[t].append(i)
                    else:
                        near[t] = [i]
        attacks: list[tuple[int, ...]] = []
        if near:
            atk, tmp = state._atk, state._tmp
            defence, tmpd = state._def, state._tmpd
            attack_all, first_moves_in = tab.attack_all, tab.first_moves_in
            for t, foes in enemy_tiles.items():  # board order
                cands = near.get(t)
                if cands is None:
                    continue
                if len(foes) == 1:
                    j = foes[0]
                    need = defence[j] + tmpd[j]
                else:
                    d0 = defence[foes[0]] + tmpd[foes[0]]
                    d1 = defence[foes[1]] + tmpd[foes[1]]
                    need = (d0 if d0 > d1 else d1) if attack_all else (d0 if d0 < d1 else d1)
                if len(cands) == 1:
                    i = cands[0]
                    if atk[i] + tmp[i] >= need and not (wait and fresh[i]):
                        attacks.append((t, i))
                    continue
                for k, i in enumerate(cands):
                    a = atk[i] + tmp[i]
                    if a >= need and not (wait and fresh[i]):
                        attacks.append((t, i))
                    for j in cands[k + 1 :]:
                        if fresh[i] and fresh[j]:
                            continue
                        if a + atk[j] + tmp[j] >= need:
                            attacks.append((t, i, j))
                            if first_moves_in:  # which of the two moves in is the player's choice
                                attacks.append((t, j, i))
        ends: Sequence[MeaAction] = state._draws(p)
        if not ends:
            own = [q for q in state._occ if tiles[q] == p]  # board order
            ends = tuple(Obliterate(q) for q in own) if own else (Obliterate(NONE_POS),)
        self._summon_names = summon_names
        self._summon_tiles = summon_tiles
        self._plays = plays
        self._movers = movers
        self._attacks = attacks
        self._ends = ends
        # Where each kind of action starts and ends in the sequence.
        b1 = len(summon_names) * len(summon_tiles)
        b2 = b1 + len(plays)
        b3 = b2 + n_moves
        b4 = b3 + len(attacks)
        self._bounds = (b1, b2, b3, b4)
        self._n = b4 + len(ends)

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, k: int) -> MeaAction: ...

    @overload
    def __getitem__(self, k: slice) -> tuple[MeaAction, ...]: ...

    def __getitem__(self, k: int | slice) -> MeaAction | tuple[MeaAction, ...]:
        # The action is kept as the one handed out (checked next, as a player's choice is: see
        # __contains__); built here, without a call per action.
        if type(k) is slice:
            return sliced(self, k)
        if k < 0:
            k += self._n
        if not 0 <= k < self._n:
            raise IndexError(k)
        b1, b2, b3, b4 = self._bounds
        action: MeaAction
        if k >= b4:
            action = self._ends[k - b4]
        elif k < b1:
            nt = len(self._summon_tiles)
            action = _summon(self._summon_names[k // nt], self._summon_tiles[k % nt])
        elif k < b2:
            action = Play(self._plays[k - b1])
        elif k < b3:
            k -= b2
            for i, dests in self._movers:
                if k < len(dests):
                    action = Move(self._state.ref_of(i), dests[k])
                    break
                k -= len(dests)
        else:
            action = self._attack(self._attacks[k - b3])
        self._given = action
        return action

    def __contains__(self, action: object) -> bool:
        """Whether ``action`` is one of these, found by its kind without building them all (the
        action last taken from this list by index is: actions are immutable)."""
        if action is self._given and action is not None:
            return True
        if self._all is not None:
            return action in self._all
        if not isinstance(action, tuple) or len(action) < 2:
            return False
        kind = action[0]
        if kind == "summon":
            return len(action) == 3 and action[1] in self._summon_names and action[2] in self._summon_tiles
        if kind == "play":
            return len(action) == 2 and action[1] in self._plays
        if kind == "move":
            if len(action) != 3:
                return False
            ref, dst = action[1], action[2]
            if not isinstance(ref, tuple) or len(ref) != 3:
                return False  # not a monster: no move's
            state = self._state
            pos = state._pos
            return any(pos[i] == ref[1] and state.ref_of(i) == ref and dst in dests for i, dests in self._movers)
        if kind == "attack":
            return len(action) == 3 and any(
                spec[0] == action[1] and self._attack(spec) == action for spec in self._attacks
            )
        return action in self._ends

    # What the actions are made of, in their order, without building them (for agents that
    # score every action): monsters are the state's (and any copy's) card instance numbers.

    @property
    def summon_cards(self) -> Sequence[str]:
        """The monsters that can be summoned, by name in hand order: the summons are each of
        these onto each of :attr:`summon_tiles`, first in the sequence."""
        return self._summon_names

    @property
    def summon_tiles(self) -> Sequence[int]:
        """The tiles a monster can be summoned onto, in board order."""
        return self._summon_tiles

    @property
    def assists(self) -> Sequence[str]:
        """The assists that can be played, by name in hand order: after the summons."""
        return self._plays

    def moves_by_monster(self) -> list[tuple[int, Sequence[int]]]:
        """Each monster that can move (an instance) with the tiles it can move to, in the
        sequence's order: after the assists."""
        return list(self._movers)

    def makings(
        self,
    ) -> tuple[
        Sequence[str], Sequence[int], Sequence[str], Sequence[tuple[int, Sequence[int]]], Sequence[tuple[int, ...]]
    ]:
        """:attr:`summon_cards`, :attr:`summon_tiles`, :attr:`assists`, :attr:`movers` and
        :attr:`attack_specs` in one call (for an agent that scores every action)."""
        return self._summon_names, self._summon_tiles, self._plays, self._movers, self._attacks

    @property
    def movers(self) -> Sequence[tuple[int, Sequence[int]]]:
        """:meth:`moves_by_monster`'s pairs, without a copy of their list."""
        return self._movers

    @property
    def ends(self) -> Sequence[MeaAction]:
        """The turn-ending actions (draws, or obliterations with an empty deck), last."""
        return self._ends

    @property
    def attack_specs(self) -> Sequence[tuple[int, ...]]:
        """The attacks as ``(tile, instance[, instance])`` in the sequence's order (after the
        moves; the attackers in the order the action lists them under ``move_in="first"``)."""
        return self._attacks

    def _moves(self) -> list[Move]:
        state = self._state
        out: list[Move] = []
        for i, dests in self._movers:
            ref = state.ref_of(i)
            out.extend(Move(ref, d) for d in dests)
        return out

    def _attack(self, spec: tuple[int, ...]) -> Attack:
        """The attack ``(tile, attacker[, attacker])``: attackers in the spec's order under
        ``move_in="first"`` (both orders are listed), else in board order."""
        ref_of = self._state.ref_of
        attack = Attack(spec[0], [ref_of(i) for i in spec[1:]])
        return attack if self._state._tab.first_moves_in else attack.in_board_order()

    def ids(self) -> list[int]:
        """The actions' integer ids (see :class:`MeaActionIds`), in this order, without building them."""
        state = self._state
        t = state._tab_ids
        cell_of = state._tab.cell_of
        out = [
            t.summon + t.name_index[n] * t.cells + cell_of[q] for n in self._summon_names for q in self._summon_tiles
        ]
        out.extend(t.play + t.name_index[n] - t.monsters for n in self._plays)
        pos, occ, dirs = state._pos, state._occ, len(t.dirs)
        for i, dests in self._movers:
            q = pos[i]
            base = t.move + (cell_of[q] * 2 + occ[q].index(i)) * dirs
            out.extend(base + t.dir_index[d - q] for d in dests)
        out.extend(state._attack_id(spec[0], spec[1:]) for spec in self._attacks)
        out.extend(state._action_ids(a)[0] for a in self._ends)
        return out

    def _build_all(self) -> list[MeaAction]:
        out: list[MeaAction] = [_summon(n, q) for n in self._summon_names for q in self._summon_tiles]
        out.extend(Play(n) for n in self._plays)
        out.extend(self._moves())
        out.extend(self._attack(a) for a in self._attacks)
        out.extend(self._ends)
        return out
