"""Helpers for Méa scenarios: small decks of made-up cards, and positions set up directly.

A scenario starts from a real game (shuffle in list order, both opening draws) and
then places cards where the test wants them with :class:`Table`. The rule under test
is always exercised through ``state.apply`` (checked actions).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from cardbase.catalog.loader import game_cards
from cardbase.games.base import IllegalAction
from cardbase.games.mea import board as B
from cardbase.games.mea.abilities import parse_abilities
from cardbase.games.mea.actions import Shuffle
from cardbase.games.mea.cards import MeaCard, MeaCardType
from cardbase.games.mea.codes import BOARD, DECK, HAND, OUT
from cardbase.games.mea.engine import MeaState
from cardbase.games.mea.rules import MeaDeck, MeaRules


def monster(name: str, cost: int, attack: int, defence: int, abilities: Sequence[dict[str, Any]] = ()) -> MeaCard:
    return MeaCard(
        name=name,
        type=MeaCardType.MONSTER,
        set="test",
        source="test",
        cost=cost,
        attack=attack,
        defence=defence,
        abilities=parse_abilities(list(abilities), "monster"),
    )


def assist(name: str, cost: int, abilities: Sequence[dict[str, Any]]) -> MeaCard:
    return MeaCard(
        name=name,
        type=MeaCardType.ASSIST,
        set="test",
        source="test",
        cost=cost,
        abilities=parse_abilities(list(abilities), "assist"),
    )


# A few plain monsters (no abilities) for scenarios.
KNIGHT = monster("Knight", 2, 3, 3)
PAWN = monster("Pawn", 1, 1, 1)
WALL = monster("Wall", 3, 1, 6)
BRUTE = monster("Brute", 4, 5, 2)
GIANT = monster("Giant", 6, 7, 7)
FILLER = monster("Filler", 1, 1, 1)


def demo(name: str) -> MeaCard:
    """A card of the shipped demo set."""
    return DEMO[name]


DEMO: dict[str, MeaCard] = {c.name: c for c in game_cards("mea") if c.source == "demo"}


def deck(cards: Iterable[MeaCard], filler: int = 20, name: str = "") -> MeaDeck:
    """A deck of ``cards`` (one copy each, in order) then ``filler`` Fillers."""
    counts: dict[MeaCard, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    entries = [(c, n) for c, n in counts.items()]
    if filler:
        entries.append((FILLER, filler))
    return MeaDeck(name, tuple(entries))


def rules_for(
    cards0: Iterable[MeaCard] = (), cards1: Iterable[MeaCard] = (), filler: int = 20, **options: Any
) -> MeaRules:
    return MeaRules(decks=(deck(cards0, filler, "zero"), deck(cards1, filler, "one")), **options)


def started(rules: MeaRules, openings: tuple[int, int] = (1, 1), seed: int = 0) -> MeaState:
    """A game after the shuffle (deck list order: the first card is on top) and both opening draws."""
    state = rules.new_initial_state(seed)
    state.apply(Shuffle([range(d.size) for d in rules.decks]))
    state.apply_text(f"draw {openings[0]}")
    state.apply_text(f"draw {openings[1]}")
    return state


class Table:
    """Sets up a position on a started game, in place, through :class:`MeaState`'s set-up methods
    (:meth:`~MeaState.place_card`, :meth:`~MeaState.set_tile`, :meth:`~MeaState.set_main_phase`):
    cards moved from decks to hands and tiles."""

    def __init__(self, state: MeaState):
        self.state = state

    def _take(self, seat: int, name: str) -> int:
        """``seat``'s topmost ``name`` in its deck, else the first in its hand."""
        s = self.state
        names = s.tables.names
        for i in (*s.deck(seat), *s.hand(seat)):
            if names[i] == name:
                return i
        raise AssertionError(f"no {name} left in seat {seat}'s deck or hand")

    def put(self, seat: int, name: str, tile: str, controller: int | None = None) -> int:
        """Put ``seat``'s ``name`` on ``tile`` (controlled by ``controller``, default its owner)."""
        i = self._take(seat, name)
        self.state.place_card(i, BOARD, B.parse(tile), seat if controller is None else controller)
        return i

    def give(self, seat: int, *names: str) -> list[int]:
        out = []
        for name in names:
            i = self._take(seat, name)
            self.state.place_card(i, HAND, seat=seat)
            out.append(i)
        return out

    def empty_hand(self, seat: int) -> None:
        """Put ``seat``'s hand at the bottom of its deck."""
        for i in self.state.hand(seat):
            self.state.place_card(i, DECK)

    def empty_deck(self, seat: int) -> None:
        """Put ``seat``'s whole deck out of play (as if drawn and played long ago)."""
        for i in reversed(self.state.deck(seat)):  # bottom first
            self.state.place_card(i, OUT)

    def owner(self, tile: str, seat: int) -> None:
        self.state.set_tile(B.parse(tile), seat)

    def remove_tile(self, tile: str) -> None:
        self.state.set_tile(B.parse(tile), None)

    def turn(self, seat: int, mana: int = 20) -> MeaState:
        """Make it ``seat``'s main phase with ``mana`` to spend."""
        self.state.set_main_phase(seat, mana)
        return self.state


def tile(name: str) -> int:
    return B.parse(name)


def names_on(state: MeaState, tile_name: str) -> list[str]:
    names = state.tables.names
    return [names[i] for i in state.on_tile(B.parse(tile_name))]


def where(state: MeaState, i: int) -> str:
    return B.name(state.tile_of(i)) if state.zone(i) == BOARD else ["deck", "hand", "board", "out"][state.zone(i)]


def legal_texts(state: MeaState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def redealt(state: MeaState, me: int, rng: Any) -> MeaState:
    """A copy of ``state`` with the cards seat ``me`` cannot see dealt again (``rng``: a
    ``random.Random``): the other hand and deck shuffled together, ``me``'s own deck reordered.
    To ``me`` it must look the same."""
    twin = state.clone()
    opp = 1 - me
    unseen = [*twin.hand(opp), *reversed(twin.deck(opp))]  # the deck bottom first, as it is kept
    rng.shuffle(unseen)
    k = twin.hand_size(opp)
    twin.arrange(opp, unseen[:k], unseen[k:][::-1])
    mine = list(reversed(twin.deck(me)))
    rng.shuffle(mine)
    twin.arrange(me, twin.hand(me), mine[::-1])
    return twin


def at(
    cards0: Iterable[Any] = (),
    cards1: Iterable[Any] = (),
    *,
    filler: int = 20,
    options: dict[str, Any] | None = None,
    **position: Any,
) -> MeaState:
    """A position (``MeaState.position``) over decks holding these cards and filler, mana 20 unless given."""
    rules = rules_for(list(cards0), list(cards1), filler, **(options or {}))
    position.setdefault("mana", 20)
    return MeaState.position(rules, **position)


def refuses(state: MeaState, text: str) -> None:
    """The action written ``text`` is refused as illegal."""
    with pytest.raises(IllegalAction):
        state.apply_text(text)


def owner_of(state: MeaState, name: str) -> int | None:
    return state.tiles().get(tile(name))


def hand_names(state: MeaState, seat: int) -> list[str]:
    return [state.tables.names[i] for i in state.hand(seat)]
