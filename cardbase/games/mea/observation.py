"""What one Méa player sees (:meth:`MeaState.observation`): :class:`MeaObservation`, a redacted
copy of the state, with its plain-data and text forms (:func:`describe_state`)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from cardbase.errors import counted
from cardbase.games.base import SPECTATOR
from cardbase.games.mea import board as B
from cardbase.games.mea.codes import _CHOICE, _FLIP, _MAIN, seat_name
from cardbase.games.mea.rules import MeaRules

if TYPE_CHECKING:
    from cardbase.games.mea.engine import MeaState


class _ViewRandom(random.Random):
    """The RNG of a view (an observation's redacted state): one shared instance, in the state
    ``random.Random(0)`` has (which ``clone`` copies), that refuses to draw: a view deals nothing
    (``determinise`` deals with the agent's RNG), and a fresh ``Random(0)`` per observation was a
    third of an observation's cost."""

    def random(self) -> float:
        raise RuntimeError("a view's RNG deals nothing: determinise the view first")

    def getrandbits(self, k: int) -> int:
        raise RuntimeError("a view's RNG deals nothing: determinise the view first")


_VIEW_RNG = _ViewRandom(0)


class MeaObservation:
    """What one player sees: the board, their own hand, the sizes of the rest (the
    spectator, ``player`` :data:`~cardbase.games.base.SPECTATOR`: no hand at all).

    ``view`` is a copy of the state with the hidden parts removed (the other hand,
    the decks' order, the seed, the history); :meth:`public` is the whole of what
    the player knows, as plain data.

    An observation made by :meth:`MeaState.observation` makes its view when it is first read, or
    when the state is about to change (whichever comes first): the view is the state as it was
    observed either way, and one never read (an agent that reads :meth:`unchanged_state` or nothing)
    costs no copy.
    """

    __slots__ = ("__weakref__", "_state", "_view", "player")

    def __repr__(self) -> str:
        return f"<MeaObservation player={self.player}: {self.view!r}>"

    def __init__(self, player: int, view: MeaState):
        self.player = player
        self._view: MeaState | None = view
        self._state: MeaState | None = None

    @property
    def view(self) -> MeaState:
        """The state with what the player cannot see removed."""
        view = self._view
        if view is None:
            state = self._state
            assert state is not None
            view = self._view = state._redacted(self.player)
            self._state = None
        return view

    def _settle(self) -> None:
        """Make the view now: the state is about to change."""
        if self._view is None:
            self.view  # noqa: B018 (made and kept)

    def unchanged_state(self) -> MeaState | None:
        """The observed state itself while it has not changed since (and no view was made of it),
        else ``None``: for an agent whose reads of a state are all of what the player sees (the
        board, its own hand, how many cards the other hand and the decks hold, what is pending),
        which then reads the same as in :attr:`view` without a copy being made. Anything else
        reads :attr:`view`."""
        return self._state

    @property
    def rules(self) -> MeaRules:
        """The rules of the game observed."""
        return self.view.rules

    @property
    def current_player(self) -> int:
        """The seat to act, or ``CHANCE`` or ``TERMINAL``."""
        return self.view.current_player

    def hand_names(self) -> tuple[str, ...]:
        """The player's hand (the spectator's is empty)."""
        return self.view.hand_names(self.player) if self.player != SPECTATOR else ()

    def held_back(self) -> tuple[str | None, ...]:
        """Why each card of the player's hand (as :meth:`hand_names`) may not be played now, as a
        refusal of it says (``Giant costs 6 mana and you have 5 left this turn``), ``None`` for one
        that may be; read from the view (what the player knows). The spectator's: empty."""
        return self.view.held_back(self.player) if self.player != SPECTATOR else ()

    def public(self) -> dict[str, Any]:
        """Everything this player may know, as JSON-able data (for tests and tools)."""
        v = self.view
        tab = v._tab
        return {
            "player": self.player,
            "current_player": v.current_player,
            "phase": v.phase,
            "active": v._active,
            "turn": v._turn,
            "turns_taken": list(v._taken),
            "mana": v._mana,
            "projected_mana": [v.projected_mana(0), v.projected_mana(1)],
            "tiles": {B.name(q): o for q, o in sorted(v._tiles.items())},
            "monsters": [self.monster(i) for i in v.monsters()],
            "hand": list(self.hand_names()),
            "hand_sizes": [len(v._hand[0]), len(v._hand[1])],
            "deck_sizes": [len(v._deck[0]), len(v._deck[1])],
            "out_of_play": [tab.names[i] for i in v._out],
            "openings": list(v._openings),
            "choice": _choice_text(v.choice()),
            "queue": [_item_text(v, item) for item in v._queue],
            "end": v._end[1] if v._end else None,
        }

    def monster(self, i: int) -> dict[str, Any]:
        """Card instance ``i`` on the board as the observer sees it, as JSON-able data."""
        v = self.view
        tab = v._tab
        return {
            "ref": str(v.ref_of(i)),
            "name": tab.names[i],
            "tile": B.name(v._pos[i]),
            "owner": tab.owner[i],
            "controller": v._ctrl[i],
            "attack": v.attack_of(i),
            "defence": v.defence_of(i),
            "can_move": v.can_move(i),
            "can_attack": v.can_attack(i),
            "summoned_this_turn": v._fresh[i],
        }

    def describe(self) -> str:
        """A plain-text view for a terminal, several lines."""
        return describe_state(self.view, self.player)


def _choice_text(choice: dict[str, Any] | None) -> dict[str, Any] | None:
    if choice is None:
        return None
    return {
        "player": choice["player"],
        "for": choice["for"],
        "options": [B.name(t) if type(t) is int else t[0] for t in choice["options"]],
    }


def _item_text(state: MeaState, item: tuple[Any, ...]) -> str:
    if item[0] == "ab":
        return f"{state._tab.names[item[3]]}: {item[1].text()}"
    if item[0] == "disp":
        return f"displace {state._tab.names[item[1]]}"
    return str(item[0])


def describe_state(state: MeaState, me: int | None) -> str:
    """The board as text: a grid of tiles (owner Y/B) with their monsters, then hands and mana."""
    tab = state._tab
    lines = []
    if state._end is not None:
        lines.append(f"Méa · game over: {state._end[1]}")
    else:
        lines.append(
            f"Méa · {state.turn_label()} · phase {state.phase}"
            + (f" · mana {state._mana}" if state._phase in (_MAIN, _CHOICE, _FLIP) else "")
        )
    lines.append("Board (Y: P1 yellow, B: P2 blue; monster attack/defence, * = controlled by the other player):")
    if state._tiles:
        xs = [B.xy(q)[0] for q in state._tiles]
        ys = [B.xy(q)[1] for q in state._tiles]
        width = 26
        for y in range(max(ys), min(ys) - 1, -1):
            cells = []
            for x in range(min(xs), max(xs) + 1):
                q = B.pos(x, y)
                if q not in state._tiles:
                    cells.append(" " * width)
                    continue
                owner = "YB"[state._tiles[q]]
                mons = []
                for i in state._occ[q]:
                    star = "*" if state._ctrl[i] != state._tiles[q] else ""
                    mons.append(f"{tab.names[i][:8]}{star} {state.attack_of(i)}/{state.defence_of(i)}")
                cells.append(f"{B.name(q):>3} {owner} {'; '.join(mons)}"[:width].ljust(width))
            lines.append(f"{y + 1:>3} |" + "|".join(cells) + "|")
    for seat in (0, 1):
        hand = state._hand[seat]
        if me == seat:
            shown = ", ".join(f"{tab.names[i]} ({tab.cost[i]})" for i in hand) or "—"
        else:
            shown = f"{counted(len(hand), 'card')}"
        tag = " (you)" if seat == me else ""
        lines.append(
            f"{seat_name(seat)}{tag}: {counted(state.tile_count(seat), 'tile')}, deck {len(state._deck[seat])}, hand: "
            f"{shown}"
        )
    choice = state.choice()
    if choice is not None:
        lines.append(f"{seat_name(choice['player'])} chooses {choice['for']}")
    if state._end is None and me is not None:
        if state.current_player == me:
            lines.append("Your move (type legal for the options, help for the commands).")
        elif state.current_player >= 0:
            lines.append(f"Waiting for {seat_name(state.current_player)}")
    return "\n".join(lines)
