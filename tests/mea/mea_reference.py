"""An independent reading of the *Méa* rulebook's core rules, for the differential test
(``test_mea_reference.py``): vanilla monsters only (no abilities, no assists), written from the
rulebook (*Méa: The Tiled Kingdom — How to Play*) and, where the text is open, the default
readings ``docs/rules/mea.md`` lists; it shares nothing with the engine but the notation of
actions (``draw 3``, ``summon Imp b2``, ``move Imp@b1 b2``, ``attack b2 with Imp@a2 + Orc@b1``,
``flip b2``, ``flip none``, ``obliterate b2``, ``choose c2``, ``shuffle 3 0 2 1 / …``), which it
reads and writes itself. Nothing here imports ``cardbase``.

Tiles are named ``a1`` … ``c3`` (column letter, row number; ``a1`` bottom left). Monsters are
:class:`Monster` records; a card in a hand or deck is its name (a name is one card: copies, and
both players' copies, share it). Two monsters of one name on a tile are ``Name@tile#1`` and
``#2`` in the order they came onto it; the reference always writes the ``#k``.

The readings (rulebook sentence → what is done here):

- "Before you start both players draw at least 1 card each": ``draw k``, the first player then
  the second; 11 or more in hand loses at once (the draw stops at the 11th card). A draw that
  only loses is legal but listed only with ``list_losing_draws`` (a hand of 10 is offered
  ``draw 1``).
- Board: 3 × 3, 4 yellow (the first player's) and 5 blue; the picture is lost: the layout is a
  grid string (default checkerboard ``BYB/YBY/BYB``, rows top first). Adjacent: sharing an edge
  (or the 8 around, ``adjacency="diagonal"``).
- "count the amount of mana … Before you start your first turn (or do anything on that turn)":
  every turn, before the start-of-turn flip (``mana_count="after-flip"``: after it); opponent's
  tiles + monsters you control, at least 3, then +1 on the second player's own first three turns.
- "At the start of your turn you may flip ONE enemy tile that has a monster belonging to you on
  it": ``flip <tile>`` or ``flip none``; the enemy monster there is moved by its controller to an
  adjacent tile of theirs with fewer than 2 monsters (``choose <tile>`` when there are several),
  or, with none, goes back to its owner's hand.
- Main phase, in any order: ``summon`` (cost ≤ mana left, on your tile without an enemy monster,
  fewer than 2 monsters there); each monster moves once OR attacks once (a monster summoned this
  turn too, but a pair may not be two summoned this turn: the engine's reading of "they move or
  attack alone on this turn"; mine was that a monster summoned this turn cannot act alone and
  can only join a pair: option ``summoned_alone="refused"``, which this follows too); a move is
  one step to an adjacent tile with fewer than 2 monsters and no enemy monster
  (``move_onto_enemy="allowed"``: one enemy monster may be there), and flips nothing.
- Attack an adjacent tile with enemy monsters if the attack (one monster's, or two adjacent to
  it combined) is ≥ the lowest enemy defence there (``attack_rule="all"``, my own reading of "if
  you can kill them … you must attack every monster on the tile": the highest); it hits
  every enemy monster there: each with defence ≤ the attack dies; each attacker with defence ≤
  the defenders' total attack dies too. If the tile is then empty, the surviving attacker(s) move
  in (``move_in="first"``: only the first named), and an enemy tile flips.
- The turn ends with ``draw k`` (1 ≤ k ≤ the deck; 11 in hand loses) or, with an empty deck,
  ``obliterate <tile>`` (a tile of yours and every monster on it; none left: ``obliterate none``,
  and you lose).
- ``tiles_per_colour=n``: a player never controls more than n tiles: no start-of-turn flip is
  offered at n, and a move-in leaves the tile the enemy's.
- The game ends: 11 cards in hand; a player who controls no tile loses at once
  (``elimination="turn-start"``: only when their turn starts, after the flip phase); after
  ``max_turns`` turns (both players' counted) the player with more tiles wins (equal: shared).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

HAND_LIMIT = 11
PER_TILE = 2
COLUMNS = "abc"


def tile_name(x: int, y: int) -> str:
    return f"{COLUMNS[x]}{y + 1}"


def tile_xy(name: str) -> tuple[int, int]:
    return COLUMNS.index(name[0]), int(name[1:]) - 1


@dataclass(frozen=True)
class Card:
    name: str
    cost: int
    attack: int
    defence: int


@dataclass
class Monster:
    name: str
    owner: int
    controller: int
    tile: str
    attack: int
    defence: int
    acted: bool = False
    summoned: bool = False
    arrived: int = 0
    """When it came onto its tile (a count of arrivals): ``Name@tile#2`` is the later of two."""


Action = tuple[object, ...]


def _ref(text: str) -> str:
    """``Name@tile`` is ``Name@tile#1`` (the reference always writes ``#k``: the engine's
    ``parse_action`` reads a ``Name@tile`` without it as the one of two that can act)."""
    text = text.strip()
    return text if "#" in text else f"{text}#1"


def read(text: str, attack_order_matters: bool = False) -> Action:
    """An action's notation as a canonical tuple."""
    verb, _, rest = text.strip().partition(" ")
    if verb == "draw":
        return ("draw", int(rest))
    if verb == "summon":
        name, _, where = rest.rpartition(" ")
        return ("summon", name, where)
    if verb == "move":
        ref, _, where = rest.rpartition(" ")
        return ("move", _ref(ref), where)
    if verb == "attack":
        where, _, who = rest.partition(" with ")
        refs = tuple(_ref(r) for r in who.split("+"))
        return ("attack", where, refs if attack_order_matters else tuple(sorted(refs)))
    if verb in ("flip", "obliterate", "choose"):
        return (verb, rest.strip())
    if verb == "shuffle":
        return ("shuffle", tuple(tuple(int(i) for i in part.split()) for part in rest.split("/")))
    raise ValueError(f"not a Méa action: {text!r}")


def write(action: Action) -> str:
    kind = action[0]
    if kind == "draw":
        return f"draw {action[1]}"
    if kind == "summon":
        return f"summon {action[1]} {action[2]}"
    if kind == "move":
        return f"move {action[1]} {action[2]}"
    if kind == "attack":
        refs = action[2]
        assert isinstance(refs, tuple)
        return f"attack {action[1]} with {' + '.join(str(r) for r in refs)}"
    if kind == "shuffle":
        orders = action[1]
        assert isinstance(orders, tuple)
        return "shuffle " + " / ".join(" ".join(str(i) for i in o) for o in orders)
    return f"{kind} {action[1]}"


@dataclass
class Reference:
    """A Méa game of vanilla monsters. ``to_act`` is a seat, ``"chance"`` or ``"over"``;
    ``phase`` is ``shuffle``, ``opening``, ``flip``, ``main``, ``choice`` or ``over``."""

    deck_lists: tuple[list[Card], list[Card]]
    layout: str = "BYB/YBY/BYB"
    adjacency: str = "orthogonal"
    attack_rule: str = "one"
    move_in: str = "all"
    mana_count: str = "turn-start"
    max_turns: int = 200
    list_losing_draws: bool = False
    mana_minimum: int = 3
    second_player_bonus: int = 1
    bonus_turns: int = 3
    move_onto_enemy: str = "refused"
    displaced_onto: str = "any"
    elimination: str = "immediate"
    tiles_per_colour: int = 0
    summoned_alone: str = "allowed"

    phase: str = "shuffle"
    to_act: int | str = "chance"
    active: int = 0
    mana: int = 0
    turns: int = 0
    own_turns: list[int] = field(default_factory=lambda: [0, 0])
    tiles: dict[str, int] = field(default_factory=dict)
    monsters: list[Monster] = field(default_factory=list)
    hands: list[list[str]] = field(default_factory=lambda: [[], []])
    decks: list[list[str]] = field(default_factory=lambda: [[], []])
    out: list[str] = field(default_factory=list)
    cards: dict[str, Card] = field(default_factory=dict)
    arrivals: int = 0
    winners: tuple[int, ...] | None = None
    end: str | None = None
    displaced: list[Monster] = field(default_factory=list)
    seen: Counter[str] = field(default_factory=Counter)
    """What happened in the game (for the test that the games reach the cases that matter)."""

    def __post_init__(self) -> None:
        rows = self.layout.upper().split("/")
        for i, row in enumerate(rows):
            y = len(rows) - 1 - i
            for x, ch in enumerate(row):
                if ch != ".":
                    self.tiles[tile_name(x, y)] = 0 if ch == "Y" else 1
        for seat, cards in enumerate(self.deck_lists):
            self.decks[seat] = [c.name for c in cards]  # unshuffled: in list order
            for c in cards:
                assert self.cards.setdefault(c.name, c) == c, "a name is one card"

    def set_position(
        self,
        tiles: dict[str, int],
        board: list[tuple[str, int, str]],
        hands: list[list[str]],
        out: list[list[str]],
        active: int,
        turns_taken: tuple[int, int],
    ) -> None:
        """A game at seat ``active``'s main phase: ``board`` is (card, controller, tile), every
        monster ready to act; each deck holds the cards not placed, in list order, the first on top;
        ``turns_taken``: each seat's turns begun; the mana is what the turn counts."""
        self.tiles = dict(tiles)
        self.monsters = []
        for seat in (0, 1):  # seat 0's monsters, then seat 1's, tile by tile
            for t in tiles:
                for n in [n for n, c, where in board if c == seat and where == t]:
                    self.monsters.append(Monster(n, seat, seat, t, self.cards[n].attack, self.cards[n].defence))
                    self.monsters[-1].arrived = self._arrival()
        self.hands = [list(h) for h in hands]
        self.out = [n for o in out for n in o]
        for seat in (0, 1):
            left = [c.name for c in self.deck_lists[seat]]
            placed = [n for n, c, _ in board if c == seat] + list(hands[seat]) + list(out[seat])
            for n in placed:
                left.remove(n)
            self.decks[seat] = left
        self.active = self.to_act = active
        self.own_turns = list(turns_taken)
        self.turns = sum(turns_taken) - 1
        self.phase = "main"
        self.mana = self._mana()

    # -- the board --

    def neighbours(self, t: str) -> list[str]:
        x, y = tile_xy(t)
        steps = [(1, 0), (-1, 0), (0, 1), (0, -1)]
        if self.adjacency == "diagonal":
            steps += [(1, 1), (1, -1), (-1, 1), (-1, -1)]
        out = []
        for dx, dy in steps:
            if 0 <= x + dx < len(COLUMNS) and 0 <= y + dy < 9:
                n = tile_name(x + dx, y + dy)
                if n in self.tiles:
                    out.append(n)
        return out

    def on(self, t: str) -> list[Monster]:
        return [m for m in self.monsters if m.tile == t]

    def enemy_on(self, t: str, seat: int) -> list[Monster]:
        return [m for m in self.on(t) if m.controller != seat]

    def tile_count(self, seat: int) -> int:
        return sum(1 for o in self.tiles.values() if o == seat)

    def _arrival(self) -> int:
        self.arrivals += 1
        return self.arrivals

    def ref(self, m: Monster) -> str:
        """``Name@tile#k``: the k-th of that name on the tile, in the order they came."""
        same = sorted((o for o in self.on(m.tile) if o.name == m.name), key=lambda o: o.arrived)
        return f"{m.name}@{m.tile}#{same.index(m) + 1}"

    def by_ref(self, ref: str) -> Monster:
        (m,) = [m for m in self.monsters if self.ref(m) == ref]
        return m

    def arrive(self, m: Monster, t: str) -> None:
        m.tile, m.arrived = t, self._arrival()

    # -- what may be done --

    def draws(self, seat: int) -> set[Action]:
        """``draw k``, 1 ≤ k ≤ the deck: those that reach 11 in hand only with the option (a hand
        of 10 is offered ``draw 1``)."""
        room = HAND_LIMIT - 1 - len(self.hands[seat])
        ks = range(1, len(self.decks[seat]) + 1)
        listed = [k for k in ks if self.list_losing_draws or k <= room]
        return {("draw", k) for k in (listed or [1])}

    def at_cap(self, seat: int) -> bool:
        """``tiles_per_colour``: a player controls at most that many tiles; no flip gives more."""
        return bool(self.tiles_per_colour) and self.tile_count(seat) >= self.tiles_per_colour

    def flips(self) -> list[str]:
        if self.at_cap(self.active):
            return []
        return [
            t
            for t, o in self.tiles.items()
            if o != self.active and any(m.controller == self.active for m in self.on(t))
        ]

    def displacement_options(self, m: Monster) -> list[str]:
        return [
            t
            for t in self.neighbours(m.tile)
            if self.tiles[t] == m.controller
            and len(self.on(t)) < PER_TILE
            and (self.displaced_onto == "any" or not self.enemy_on(t, m.controller))
        ]

    def legal(self) -> set[Action]:
        if self.phase == "opening":
            return self.draws(self.to_act)  # type: ignore[arg-type]
        if self.phase == "flip":
            return {("flip", t) for t in self.flips()} | {("flip", "none")}
        if self.phase == "choice":
            return {("choose", t) for t in self.displacement_options(self.displaced[0])}
        if self.phase != "main":
            return set()
        me = self.active
        out: set[Action] = set()
        if self.decks[me]:
            out |= self.draws(me)
        else:
            mine = [t for t, o in self.tiles.items() if o == me]
            out |= {("obliterate", t) for t in mine} or {("obliterate", "none")}
        for name in set(self.hands[me]):
            if self.cards[name].cost <= self.mana:
                for t, o in self.tiles.items():
                    if o == me and not self.enemy_on(t, me) and len(self.on(t)) < PER_TILE:
                        out.add(("summon", name, t))
        ready = [m for m in self.monsters if m.controller == me and not m.acted]
        sick = self.summoned_alone == "refused"  # summoned this turn: only in a pair with one that was not
        for m in ready:
            if sick and m.summoned:
                continue
            for t in self.neighbours(m.tile):
                if len(self.on(t)) < PER_TILE and (self.move_onto_enemy == "allowed" or not self.enemy_on(t, me)):
                    out.add(("move", self.ref(m), t))
        for t in self.tiles:
            enemies = self.enemy_on(t, me)
            if not enemies:
                continue
            defences = [e.defence for e in enemies]
            need = max(defences) if self.attack_rule == "all" else min(defences)
            near = [m for m in ready if t in self.neighbours(m.tile)]
            for m in near:
                if m.attack >= need and not (sick and m.summoned):
                    out.add(("attack", t, (self.ref(m),)))
            for i, a in enumerate(near):
                for b in near[i + 1 :]:
                    if a.summoned and b.summoned:
                        continue
                    if a.attack + b.attack >= need:
                        if self.move_in == "first":
                            out.add(("attack", t, (self.ref(a), self.ref(b))))
                            out.add(("attack", t, (self.ref(b), self.ref(a))))
                        else:
                            out.add(("attack", t, tuple(sorted((self.ref(a), self.ref(b))))))
        return out

    def is_legal(self, action: Action, listed: set[Action] | None = None) -> bool:
        """Listed (``listed``: :meth:`legal`, if known), or a draw the list leaves out because it
        only loses (1 ≤ k ≤ the deck)."""
        if action in (self.legal() if listed is None else listed):
            return True
        if action[0] != "draw" or self.phase not in ("opening", "main"):
            return False
        seat = self.active if self.phase == "main" else self.to_act
        assert isinstance(seat, int)
        k = action[1]
        assert isinstance(k, int)
        return 1 <= k <= len(self.decks[seat])

    def candidates(self) -> list[Action]:
        """Well-formed actions of every kind on this board and these cards, legal or not: every
        card of the acting player's side summoned on every tile, every monster moved to every tile,
        every tile attacked by every monster and pair, draws 0 to deck + 1, every flip, choice and
        obliteration; for the refusal check."""
        seat = self.to_act
        assert isinstance(seat, int)
        everywhere = [tile_name(x, y) for x in range(3) for y in range(3)]
        out: list[Action] = [("draw", k) for k in range(0, len(self.decks[seat]) + 2)]
        out += [(verb, t) for verb in ("flip", "obliterate") for t in [*everywhere, "none"]]
        out += [("choose", t) for t in everywhere]
        out += [("summon", c.name, t) for c in self.deck_lists[seat] for t in everywhere]
        refs = [self.ref(m) for m in self.monsters]
        out += [("move", r, t) for r in refs for t in everywhere]
        for t in everywhere:
            out += [("attack", t, (r,)) for r in refs]
            out += [("attack", t, (a, b)) for a in refs for b in refs if a != b]
        return out

    # -- doing it --

    def apply(self, action: Action) -> None:
        if action[0] == "shuffle":
            assert self.phase == "shuffle"
            orders = action[1]
            assert isinstance(orders, tuple)
            for seat in (0, 1):
                names = [c.name for c in self.deck_lists[seat]]
                assert sorted(orders[seat]) == list(range(len(names)))
                self.decks[seat] = [names[i] for i in orders[seat]]
            self.phase, self.to_act = "opening", 0
            return
        assert action in self.legal(), (action, sorted(map(write, self.legal())))
        kind = str(action[0])
        self.seen[kind] += 1
        if "#2" in str(action[1:]):
            self.seen["#2"] += 1
        if self.phase == "opening":
            drawer = self.to_act
            assert isinstance(drawer, int)
            self._draw(drawer, int(action[1]))  # type: ignore[call-overload]
            if self.phase == "over":
                return
            if drawer == 0:
                self.to_act = 1
            else:
                self._begin_turn(0)
            return
        if kind == "flip":
            if action[1] == "none":
                self._to_main()
            else:
                self._flip(str(action[1]))
            return
        if kind == "choose":
            m = self.displaced.pop(0)
            self.arrive(m, str(action[1]))
            self._after_displacement()
            return
        me = self.active
        if kind == "draw":
            self._draw(me, int(action[1]))  # type: ignore[call-overload]
            if self.phase != "over":
                self._end_turn()
            return
        if kind == "obliterate":
            t = str(action[1])
            if t == "none":
                self.seen["obliterate none"] += 1
                self._lose(me, "deck-out")
                return
            for m in self.on(t):
                self.monsters.remove(m)
                self.out.append(m.name)
            del self.tiles[t]
            if not self._eliminated():
                self._end_turn()
            return
        if kind == "summon":
            name, t = str(action[1]), str(action[2])
            card = self.cards[name]
            self.hands[me].remove(name)
            self.mana -= card.cost
            self.monsters.append(Monster(name, me, me, t, card.attack, card.defence, summoned=True))
            self.monsters[-1].arrived = self._arrival()
            return
        if kind == "move":
            m = self.by_ref(str(action[1]))
            self.arrive(m, str(action[2]))
            m.acted = True
            return
        assert kind == "attack"
        self._attack(str(action[1]), [self.by_ref(r) for r in action[2]])  # type: ignore[attr-defined]

    def _attack(self, t: str, attackers: list[Monster]) -> None:
        me = self.active
        enemies = self.enemy_on(t, me)
        total = sum(a.attack for a in attackers)
        retaliation = sum(e.attack for e in enemies)
        for a in attackers:
            a.acted = True
        dead = [e for e in enemies if e.defence <= total] + [a for a in attackers if a.defence <= retaliation]
        for m in dead:
            self.monsters.remove(m)
            self.out.append(m.name)
        survivors = [a for a in attackers if a not in dead]
        self.seen[f"attack by {len(attackers)}"] += 1
        self.seen["attacker killed"] += len(attackers) - len(survivors)
        self.seen["defender survived"] += len(enemies) - sum(e in dead for e in enemies)
        if any(m.controller == me for m in self.on(t)):
            self.seen["attack on a shared tile"] += 1
        if survivors and not self.on(t):
            self.seen[f"{len(survivors[:1] if self.move_in == 'first' else survivors)} moved in"] += 1
            for a in survivors[:1] if self.move_in == "first" else survivors:
                self.arrive(a, t)
            if self.tiles[t] != me and self.at_cap(me):
                self.seen["move-in without a flip (cap)"] += 1
            if self.tiles[t] != me and not self.at_cap(me):
                self.seen["move-in flip"] += 1
                self.tiles[t] = me
                self._eliminated()

    def _draw(self, seat: int, k: int) -> None:
        assert 1 <= k <= len(self.decks[seat])
        for _ in range(k):  # one card at a time: the 11th ends the game, the rest stay in the deck
            self.hands[seat].append(self.decks[seat].pop(0))
            if len(self.hands[seat]) >= HAND_LIMIT:
                self._lose(seat, "hand-of-11")
                return

    def _lose(self, seat: int, why: str) -> None:
        self._over((1 - seat,), why)

    def _over(self, winners: tuple[int, ...], why: str) -> None:
        self.winners, self.end = winners, why
        self.seen[f"end {why}{' shared' if len(winners) == 2 else ''}"] += 1
        self.phase, self.to_act = "over", "over"

    def _eliminated(self) -> bool:
        """A player who controls no tile loses at once (both at once: shared); under
        ``elimination="turn-start"`` only at the start of their turn (:meth:`_to_main`)."""
        if self.elimination == "turn-start":
            return False
        gone = tuple(s for s in (0, 1) if self.tile_count(s) == 0)
        if gone:
            self._over((0, 1) if len(gone) == 2 else (1 - gone[0],), "no-tiles")
        return bool(gone)

    def _mana(self) -> int:
        me = self.active
        mana = self.tile_count(1 - me) + sum(1 for m in self.monsters if m.controller == me)
        mana = max(mana, self.mana_minimum)
        if me == 1 and self.own_turns[1] <= self.bonus_turns:
            mana += self.second_player_bonus
        return mana

    def _begin_turn(self, seat: int) -> None:
        self.active = seat
        self.to_act = seat
        self.own_turns[seat] += 1
        for m in self.monsters:
            m.summoned = False
            if m.controller == seat:
                m.acted = False
        if self.mana_count == "turn-start":
            self.mana = self._mana()
        if self.flips():
            self.phase = "flip"
        else:
            self._to_main()

    def _to_main(self) -> None:
        self.phase = "main"
        self.to_act = self.active
        if self.elimination == "turn-start" and not self.tile_count(self.active):
            self._lose(self.active, "no-tiles")
            return
        if self.mana_count == "after-flip":
            self.mana = self._mana()

    def _flip(self, t: str) -> None:
        self.tiles[t] = self.active
        if self._eliminated():
            return
        self.displaced = self.enemy_on(t, self.active)
        self._after_displacement()

    def _after_displacement(self) -> None:
        while self.displaced:
            m = self.displaced[0]
            options = self.displacement_options(m)
            self.seen["displaced"] += 1
            if len(options) > 1:
                self.seen["displacement choice"] += 1
                self.phase, self.to_act = "choice", m.controller
                return
            self.displaced.pop(0)
            if options:
                self.arrive(m, options[0])
            else:
                self.seen["displaced to hand"] += 1
                self.monsters.remove(m)
                self.hands[m.owner].append(m.name)
                if len(self.hands[m.owner]) >= HAND_LIMIT:
                    self._lose(m.owner, "hand-of-11")
                    return
        self._to_main()

    def _end_turn(self) -> None:
        self.turns += 1
        if self.turns >= self.max_turns:
            a, b = self.tile_count(0), self.tile_count(1)
            self._over((0, 1) if a == b else ((0,) if a > b else (1,)), "turn-limit")
            return
        self._begin_turn(1 - self.active)
