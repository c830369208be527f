"""Méa's actions: immutable tuples whose first item names the kind (:class:`Draw`, :class:`Summon`,
:class:`Play`, :class:`Move`, :class:`Attack`, :class:`Flip`, :class:`Obliterate`, :class:`Choose`
and the chance action :class:`Shuffle`), the monster reference :class:`Ref` they name monsters by,
the shared instances the engine hands out, and :func:`parse_action`, which reads their notation."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache, lru_cache
from operator import itemgetter
from typing import Any, ClassVar, Self, cast

from cardbase.errors import quoted
from cardbase.games.base import InvalidAction, check_card_name, check_notation, whole_number
from cardbase.games.mea import board as B
from cardbase.games.mea.cards import DECK_MAX


class Ref(tuple[str, int, int]):
    """A monster on the board, by name and tile: ``Crumb Goblin@b2``; ``#2`` picks the
    second monster of that name on the tile when two are there."""

    __slots__ = ()

    def __new__(cls, name: str, pos: int, nth: int = 0) -> Ref:
        return tuple.__new__(cls, (name, pos, nth))

    @property
    def name(self) -> str:
        """The monster's name."""
        return self[0]

    @property
    def pos(self) -> int:
        """The position of its tile (:func:`cardbase.games.mea.board.name` names it)."""
        return self[1]

    @property
    def nth(self) -> int:
        """``k`` when the notation says ``#k`` (the k-th monster of that name on the tile), else 0."""
        return self[2]

    def __str__(self) -> str:
        suffix = f"#{self[2]}" if self[2] else ""
        return f"{self[0]}@{B.name(self[1])}{suffix}"

    def __repr__(self) -> str:
        return f"Ref.parse({str(self)!r})"  # code that makes it again, as python-chess's Move.from_uci

    def __reduce__(self) -> tuple[type[Ref], tuple[str, int, int]]:
        return (Ref, (self[0], self[1], self[2]))  # pickled as made (tuple's own way calls __new__ with one tuple)

    @classmethod
    def parse(cls, text: str) -> Ref:
        """The monster written as ``Name@tile`` (``Name@tile#2``: the second of that name there);
        :class:`InvalidAction` otherwise."""
        t = text.strip()
        if "@" not in t:
            raise InvalidAction(f"not a monster: {quoted(text)} (write Name@tile, e.g. Crumb Goblin@b2)")
        name, _, where = t.rpartition("@")
        nth = 0
        if "#" in where:
            where, _, k = where.partition("#")
            number = whole_number(k, MOST)
            if not number:
                raise InvalidAction(f"not a monster: {quoted(text)} (#k counts from 1)")
            nth = number
        try:
            p = B.parse(where)
        except ValueError as error:
            raise InvalidAction(str(error)) from None
        if not name.strip():
            raise InvalidAction(f"not a monster: {quoted(text)} (a name goes before @)")
        return cls(check_card_name(" ".join(name.split())), p, nth)


_REF_ORDER = itemgetter(1, 0, 2)
"""Refs in board order: tile, then name, then ``#k``."""


class _Action(tuple[Any, ...]):
    """Base of Méa's actions: immutable tuples whose first item names the kind.

    The properties type their item through an annotated local (``k: int = self[1]``), which costs
    nothing at run time, unlike ``typing.cast``."""

    __slots__ = ()
    kind: ClassVar[str] = ""

    def __repr__(self) -> str:
        return f"{type(self).__name__}.parse({str(self)!r})"  # code that makes it again (Draw.parse('draw 2'))

    @classmethod
    def parse(cls, text: str) -> Self:
        """The action of this kind written as ``text`` (``Summon.parse('summon Crumb Goblin b2')``, as
        python-chess's ``Move.from_uci``; what its repr says); :class:`InvalidAction` for a text that
        is no action of this kind."""
        action = parse_action(text)
        if not isinstance(action, cls):
            raise InvalidAction(f"not a {cls.kind} action: {quoted(text)}")
        return action

    def __reduce__(self) -> tuple[type[_Action], tuple[Any, ...]]:
        return (type(self), tuple(self[1:]))  # pickled as made: the arguments after the kind


class Draw(_Action):
    """Draw ``k`` cards: the opening draw, or the end of a turn (``draw 2``)."""

    __slots__ = ()
    kind = "draw"

    def __new__(cls, k: int) -> Draw:
        return tuple.__new__(cls, ("draw", k))

    @property
    def k(self) -> int:
        """How many cards are drawn."""
        k: int = self[1]
        return k

    def __str__(self) -> str:
        return f"draw {self[1]}"


class Summon(_Action):
    """Summon a monster from your hand onto a tile: ``summon Crumb Goblin b2``."""

    __slots__ = ()
    kind = "summon"

    def __new__(cls, card: str, pos: int) -> Summon:
        return tuple.__new__(cls, ("summon", card, pos))

    @property
    def card(self) -> str:
        """The name of the monster summoned."""
        card: str = self[1]
        return card

    @property
    def pos(self) -> int:
        """The position of the tile it is summoned onto."""
        pos: int = self[2]
        return pos

    def __str__(self) -> str:
        return f"summon {self[1]} {B.name(self[2])}"


class Play(_Action):
    """Play an assist from your hand: ``play Pep Talk``."""

    __slots__ = ()
    kind = "play"

    def __new__(cls, card: str) -> Play:
        return tuple.__new__(cls, ("play", card))

    @property
    def card(self) -> str:
        """The name of the assist played."""
        card: str = self[1]
        return card

    def __str__(self) -> str:
        return f"play {self[1]}"


class Move(_Action):
    """Move a monster to an adjacent tile: ``move Crumb Goblin@b1 b2``."""

    __slots__ = ()
    kind = "move"

    def __new__(cls, ref: Ref, dst: int) -> Move:
        return tuple.__new__(cls, ("move", ref, dst))

    @property
    def ref(self) -> Ref:
        """The monster that moves."""
        ref: Ref = self[1]
        return ref

    @property
    def dst(self) -> int:
        """The position of the tile it moves to."""
        dst: int = self[2]
        return dst

    def __str__(self) -> str:
        return f"move {self[1]} {B.name(self[2])}"


class Attack(_Action):
    """Attack every enemy monster on a tile with one or two monsters:
    ``attack b2 with Crumb Goblin@a2 + Puddle Knight@b1``.

    The attackers keep the order given: under ``move_in="first"`` the first is the one that moves
    in. Under ``move_in="all"`` the order does not matter and the rules write them in board order
    (:meth:`in_board_order`), so that one attack is one action."""

    __slots__ = ()
    kind = "attack"

    def __new__(cls, target: int, refs: Iterable[Ref]) -> Attack:
        return tuple.__new__(cls, ("attack", target, tuple(refs)))

    def in_board_order(self) -> Attack:
        """This attack with its attackers in board order (tile, then name, then ``#k``)."""
        refs: tuple[Ref, ...] = self[2]
        if len(refs) < 2 or _REF_ORDER(refs[0]) <= _REF_ORDER(refs[1]):
            return self
        return Attack(self[1], sorted(refs, key=_REF_ORDER))

    @property
    def target(self) -> int:
        """The position of the tile attacked."""
        target: int = self[1]
        return target

    @property
    def refs(self) -> tuple[Ref, ...]:
        """The attacking monsters, in the order given."""
        refs: tuple[Ref, ...] = self[2]
        return refs

    def __str__(self) -> str:
        return f"attack {B.name(self[1])} with " + " + ".join(str(r) for r in self[2])


NONE_POS = -1


class Flip(_Action):
    """At the start of your turn: flip one enemy tile a monster of yours is on
    (``flip b2``), or not (``flip none``)."""

    __slots__ = ()
    kind = "flip"

    def __new__(cls, pos: int = NONE_POS) -> Flip:
        return tuple.__new__(cls, ("flip", pos))

    @property
    def pos(self) -> int:
        """The position of the tile flipped (``NONE_POS`` for none)."""
        pos: int = self[1]
        return pos

    def __str__(self) -> str:
        return "flip none" if self[1] == NONE_POS else f"flip {B.name(self[1])}"


class Obliterate(_Action):
    """End your turn with an empty deck: obliterate one of your tiles (``obliterate b2``);
    ``obliterate none`` when you have no tile left (you lose)."""

    __slots__ = ()
    kind = "obliterate"

    def __new__(cls, pos: int = NONE_POS) -> Obliterate:
        return tuple.__new__(cls, ("obliterate", pos))

    @property
    def pos(self) -> int:
        """The position of the tile obliterated (``NONE_POS`` for none)."""
        pos: int = self[1]
        return pos

    def __str__(self) -> str:
        return "obliterate none" if self[1] == NONE_POS else f"obliterate {B.name(self[1])}"


class Choose(_Action):
    """Choose a target, a tile (``choose c2``) or a monster (``choose Crumb Goblin@b2``), for
    the ability being resolved, or where a displaced monster goes."""

    __slots__ = ()
    kind = "choose"

    def __new__(cls, target: int | Ref) -> Choose:
        return tuple.__new__(cls, ("choose", target))

    @property
    def target(self) -> int | Ref:
        """The tile's position or the monster chosen."""
        target: int | Ref = self[1]
        return target

    def __str__(self) -> str:
        t = self[1]
        return f"choose {t}" if isinstance(t, Ref) else f"choose {B.name(t)}"


class Shuffle(_Action):
    """The chance action that starts a game: each deck's order, top card first, as
    positions in its deck list (``shuffle 3 0 2 1 / 1 0 …``)."""

    __slots__ = ()
    kind = "shuffle"

    def __new__(cls, orders: Iterable[Iterable[int]]) -> Shuffle:
        return tuple.__new__(cls, ("shuffle", tuple(tuple(o) for o in orders)))

    @property
    def orders(self) -> tuple[tuple[int, ...], ...]:
        """Each deck's order, top card first, as positions in its deck list."""
        orders: tuple[tuple[int, ...], ...] = self[1]
        return orders

    def __str__(self) -> str:
        return "shuffle " + " / ".join(" ".join(str(i) for i in o) for o in self[1])


MeaAction = Draw | Summon | Play | Move | Attack | Flip | Obliterate | Choose | Shuffle
# Actions are immutable values: the engine makes the common ones once and shares them.
_summon = lru_cache(maxsize=1 << 16)(Summon)
_flip = cache(Flip)
_choose_tile = cache(Choose)
_DRAWS: tuple[Draw, ...] = tuple(Draw(k) for k in range(2 * DECK_MAX + 1))
_DRAW_RANGES: tuple[tuple[Draw, ...], ...] = tuple(_DRAWS[1 : k + 1] for k in range(len(_DRAWS)))
"""``_DRAW_RANGES[k]``: draw 1 … draw k."""

MOST = 10**9
"""The largest number an action's notation is read with (a draw, a shuffle's positions, ``#k``);
any of them is far smaller in a game."""

_NOTATION_HELP = (
    "write: draw 2, summon <card> b2, play <card>, move <card>@b1 b2, attack b2 with <card>@a2 [+ <card>@b1], "
    "flip b2 / flip none, obliterate b2, choose b2 / choose <card>@b2"
)


def _tile(text: str) -> int:
    try:
        return B.parse(text)
    except ValueError as error:
        raise InvalidAction(str(error)) from None


def parse_action(text: str) -> MeaAction:
    """Parse an action's notation (see :data:`_NOTATION_HELP`); raises :class:`InvalidAction`."""
    t = " ".join(check_notation(text).split())
    verb, _, rest = t.partition(" ")
    verb = verb.lower()
    if verb == "draw":
        count = whole_number(rest, MOST)
        if count is None:
            raise InvalidAction(f"not an action: {quoted(text)} (write: draw 2)")
        return Draw(count)
    if verb == "summon":
        card, _, where = rest.rpartition(" ")
        if not card:
            raise InvalidAction(f"not an action: {quoted(text)} (write: summon <card> b2)")
        return Summon(check_card_name(card), _tile(where))
    if verb == "play":
        if not rest:
            raise InvalidAction(f"not an action: {quoted(text)} (write: play <card>)")
        return Play(check_card_name(rest))
    if verb == "move":
        ref, _, where = rest.rpartition(" ")
        if not ref:
            raise InvalidAction(f"not an action: {quoted(text)} (write: move <card>@b1 b2)")
        return Move(Ref.parse(ref), _tile(where))
    if verb == "attack":
        where, sep, attackers = rest.partition(" with ")
        if not sep or not attackers:
            raise InvalidAction(f"not an action: {quoted(text)} (write: attack b2 with <card>@a2 [+ <card>@b1])")
        return Attack(_tile(where), [Ref.parse(r) for r in attackers.split(" + ")])
    if verb in ("flip", "obliterate"):
        cls = Flip if verb == "flip" else Obliterate
        if rest.lower() == "none":
            return cls(NONE_POS)
        return cls(_tile(rest))
    if verb == "choose":
        if "@" in rest:
            return Choose(Ref.parse(rest))
        return Choose(_tile(rest))
    if verb == "shuffle":
        orders = []
        parts = rest.split("/", 2)
        if len(parts) > 2:  # one order per player's deck, two players
            raise InvalidAction(
                f"not an action: {quoted(text)} (a shuffle gives two orders: shuffle 3 0 1 … / 2 1 0 …)"
            )
        for part in parts:
            items = [whole_number(i, MOST) for i in part.split()]
            if None in items:
                raise InvalidAction(f"not an action: {quoted(text)} (write: shuffle 3 0 1 … / 2 1 0 …)")
            orders.append(tuple(cast(list[int], items)))
        return Shuffle(orders)
    raise InvalidAction(f"not a Méa action: {quoted(text)} ({_NOTATION_HELP})")
