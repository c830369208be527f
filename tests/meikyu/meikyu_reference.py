"""An independent reading of the *Meikyu Kingdom* rulebook, for the differential test
(``test_meikyu_reference.py``): the core game written from the rulebook and ``docs/rules/meikyu.md``'s
readings, sharing nothing with the engine but the notation of actions (``quest Unnamed room 4 with
Bee, Sword``, ``defend``, ``discard land …``, ``draw Bee``, ``reveal …``, ``roll 4``), which it reads
and writes itself. Nothing here imports ``cardbase``: a bug in the engine's tables, masks or parser
cannot hide here too.

The game is one plain generator (:meth:`Reference._game`), read top to bottom like the rulebook; it
yields what it waits for — a chance step (``("chance", "draw")``) or a player's decision
(``("decide", seat, {notation, …})``) — and is sent the action taken, as text. It is slow on
purpose (every card set is listed from the hand) and keeps every card in a plain multiset.

Cards supported: characters (Bravery, Wits), Sword, Grimoire, Map, Gotcha!, Refugee, Dungeon
Storm, Dungeon Tsunami, Amulet; lands without an effect and those with the effects below.

The readings (each the engine's documented default, the other readings as ``options``; where my
own reading, written down before looking at the documented ones, differed: ``[mine: …]``):

- Setup: 4 rooms face up, then 4 cards to each player in seat order; a player holding an OPEN card
  returns the hand to the pile and draws four anew, seat by seat, until no hand holds one. Each
  player rolls the die in seat order; the highest goes first; only the tied highest reroll.
- Turn: 1. draw (an OPEN card drawn is played at once and was the draw); 2. one action (quest,
  develop, aggression, resupply; Maps are free plays before it); 3. while 6 or more cards, discard
  one (down to 5); 4. 3 or fewer rooms face up: turn up rooms until 4 (or the pile is empty). Then
  the game ends if a kingdom has the goal's points or no room is left (none face up, pile empty).
- Quest: a face-up room, at least one character, any Swords and Grimoires; a die is added;
  total ≥ level succeeds. Sword +1 each, any number on one character. Grimoire: one per character,
  adding that character's seals (best: the ones with the most seals), so no more Grimoires than
  characters [mine too]. Fortress: +2 to the owner's quest with two or more characters (quests
  only).
- Sixth land: one of the lands held before the new one is discarded, never the Castle Tower;
  discarded lands leave the game [mine too: "one of the existing lands"].
- Development: one's own undeveloped land, one or more characters (only), Wits ≥ level, no die.
- Aggression: by a Gotcha! (it is spent); the attacker names the defender and the land (not a
  Castle Tower), at least one character and any Swords/Grimoires; the defender then answers with
  no card, or at least one character and items; attacker's die, then defender's; strictly higher
  takes the land, undeveloped (a sixth land as in a quest). Every card used is discarded.
- Resupply: draw one more card.
- Tomb: at every draw from the Kingdom pile its owner may take the top discard instead (not an
  OPEN card). Discards go one at a time, the order chosen by the turn's player, asked only while a
  Tomb is still in the game (not among the discarded lands) and the cards left are not all one card.
- Archives: every draw from the Kingdom pile (not a Tomb's pick-up) takes two cards; an OPEN card
  among them is played as it is drawn (before the second); of two others, one is kept (asked if
  they differ), the other discarded.
- Amulet: after every die of a quest or an aggression (not the first-player roll), the players
  holding one are asked in turn order from the player whose turn it is; one played (spent with the
  action's cards) rerolls that die and the asking starts again. The Casino reads the final die.
- Lands' effects, each for its owner: Farm +1 point [mine: "+1 Capacity" a sixth land, the
  ``farm=lands`` option]; Great Excavation none; Blacksmith +1 a Sword;
  Bar (developed) +1 to a character of printed 0 swords; Harem (developed) developments cost 1
  less; Marketplace: one draw when it becomes developed; Laboratory: one item of a quest, attack
  or defence as a 2/0 character (not in developments); Council Chamber: discarded to make an
  aggression; Mixed Area: discarded before the action, the player named loses the next turn whole
  (no draw, action, hand limit); Hospital: after a failed quest, one of its characters (or the
  Laboratory's item) may go back to the hand; Casino: a 6 rolled while owning it (quest, attack or
  defence) allows one draw once the action is resolved; Hot Springs: an empty hand at the end of
  one's turn (after steps 3 and 4) may draw one card.
- Map: reveals one more room, two levels easier to quest until the end of the turn; the room stays
  face up after (at its printed level); not when the Meikyu pile is empty; several Maps may be
  played in a turn [mine: one "extra (fifth) area", so one Map a turn, and none with five rooms
  face up]; the Map stays in play until the action's cards are discarded [mine: discarded at once;
  only the Tomb could tell].
- Refugee: 1 point, not a land [mine: a land, beside "your other claimed Lands": the
  ``refugee=land`` option]; its drawer discards two cards (as many as the hand holds).
- Dungeon Storm: the face-up rooms are discarded, four new ones are turned up. A Storm or a
  Tsunami goes to the discard pile as it is played [mine: after its effect; nothing tells apart].
- Dungeon Tsunami: from the drawer in turn order, each player holding lands when it is played passes
  one of those lands to the next player (undeveloped); then kingdoms over five lands discard down.
- Kingdom pile: when its last card is taken the discards become the pile; a draw from an empty pile
  with no discards draws nothing.
- End: most points; tie → most lands (Refugees are not lands); still tied → shared victory.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Generator, Iterator
from dataclasses import dataclass, field
from itertools import combinations, combinations_with_replacement, product
from typing import Any

HAND_LIMIT = 5
DEFAULTS = {
    "farm": "points",
    "aggression_target": "attacker",
    "map_room": "stays",
    "refugee": "apart",
    "casino": "final",
    "grimoire": "one",
    "sword": "stack",
    "fortress": "quests",
    "open_draw": "counts",
    "castle_tsunami": "passes",
    "tsunami_landless": "none",
    "tsunami_pass": "held",
    "amulet_ask": "holders",
    "bar": "owner",
    "bar_zero": "printed",
    "harem": "owner",
    "refugee_order": "turn",
    "goal_check": "end",
    "amulet_first_roll": "no",
    "mixed_area": "before",
    "sixth_land": "held",
    "redeal": "each",
}
MAX_LANDS = 5
ROOMS = 4
DEAL = 4

Wait = tuple[Any, ...]
"""What the game waits for: ``("chance", "draw" | "reveal" | "roll")`` or ``("decide", seat, legal)``."""
Game = Generator[Wait, str, None]


@dataclass(frozen=True)
class Land:
    level: int
    points: int
    developed_points: int
    effect: str | None = None


@dataclass(frozen=True)
class Kard:
    """A Kingdom card: ``type`` character/item/aggression/open; ``effect`` sword, grimoire, map,
    gotcha, refugee, storm, tsunami or None."""

    type: str
    bravery: int = 0
    wits: int = 0
    effect: str | None = None


Fight = tuple[Counter[str], str | None]
"""Cards used in a quest, an attack or a defence, and the item played as a character (Laboratory)."""


def cards_text(cards: Counter[str], lab: str | None = None) -> str:
    return ", ".join([*sorted(cards.elements()), *([f"{lab} as character"] if lab else [])])


def read_cards(text: str) -> Fight:
    cards: Counter[str] = Counter()
    lab = None
    for part in text.split(", "):
        if part.endswith(" as character"):
            lab = part.removesuffix(" as character")
        else:
            cards[part] += 1
    return cards, lab


def sub_multisets(cards: Counter[str]) -> Iterator[Counter[str]]:
    names = sorted(cards)
    for counts in product(*(range(cards[n] + 1) for n in names)):
        yield Counter({n: c for n, c in zip(names, counts, strict=True) if c})


@dataclass
class Reference:
    """A Meikyu game read from the rulebook. ``waiting`` is what it waits for (see :data:`Wait`);
    ``over`` once the game has ended."""

    players: int
    lands: dict[str, Land]
    kingdom_cards: dict[str, tuple[Kard, int]]
    goal: int = 10
    options: dict[str, str] = field(default_factory=dict)
    """Readings other than the defaults (``MeikyuRules``' options), as the engine names them."""
    hands: list[Counter[str]] = field(default_factory=list)
    kingdoms: list[list[tuple[str, bool]]] = field(default_factory=list)
    refugees: list[int] = field(default_factory=list)
    rooms: list[str] = field(default_factory=list)
    pile: Counter[str] = field(default_factory=Counter)
    discards: list[str] = field(default_factory=list)
    """The Kingdom discard pile, bottom first."""
    archives: Counter[str] = field(default_factory=Counter)
    in_play: Counter[str] = field(default_factory=Counter)
    meikyu_pile: Counter[str] = field(default_factory=Counter)
    meikyu_discards: Counter[str] = field(default_factory=Counter)
    mapped: set[str] = field(default_factory=set)
    skips: list[int] = field(default_factory=list)
    casino_draws: list[int] = field(default_factory=list)
    turn_player: int = 0
    turns: int = 0
    over: bool = False
    waiting: Wait = ()
    log: list[str] = field(default_factory=list)
    reached: bool = False
    events: Counter[str] = field(default_factory=Counter)
    """What happened that the log does not say: ``reshuffle``, ``draw skipped``, ``redeal``."""

    def __post_init__(self) -> None:
        self.hands = [Counter() for _ in range(self.players)]
        self.kingdoms = [[] for _ in range(self.players)]
        self.refugees = [0] * self.players
        self.skips = [0] * self.players
        self.pile = Counter({name: copies for name, (_, copies) in self.kingdom_cards.items() if copies})
        self.meikyu_pile = Counter(self.lands.keys())
        self._gen = self._game()
        self.waiting = next(self._gen)

    def start_at(
        self,
        turn: int,
        hands: list[Counter[str]],
        kingdoms: list[list[tuple[str, bool]]],
        rooms: list[str],
        discards: list[str],
        refugees: list[int],
    ) -> None:
        """Begin at a position instead, at the start of ``turn``'s turn: every other Kingdom card
        in the Kingdom pile, every other land in the Meikyu pile (as ``MeikyuState.position``)."""
        self.hands = [Counter(h) for h in hands]
        self.kingdoms = [list(k) for k in kingdoms]
        self.rooms = list(rooms)
        self.discards = list(discards)
        self.refugees = list(refugees)
        refugee_cards = Counter({c: 1 for c in self.kingdom_cards if self.kard(c).effect == "refugee"})
        placed = Counter({c: n * sum(refugees) for c, n in refugee_cards.items()})
        assert len(refugee_cards) <= 1
        self.pile -= sum(self.hands, Counter()) + Counter(discards) + placed
        self.meikyu_pile -= Counter(rooms) + Counter(r for k in kingdoms for r, _ in k)
        self._gen = self._turns(turn)
        self.waiting = next(self._gen)

    # -- the outside --

    def apply(self, text: str) -> None:
        """Take an action (notation); a decision must be one of the legal ones."""
        assert not self.over, text
        if self.waiting[0] == "decide":
            assert text in self.waiting[2], (text, sorted(self.waiting[2]))
        self.log.append(text)
        try:
            self.waiting = self._gen.send(text)
        except StopIteration:
            self.over = True
            self.waiting = ()

    def chance_weights(self) -> dict[str, float]:
        """The chance step's outcomes with their probabilities."""
        kind = self.waiting[1]
        bag: Counter[str]
        if kind == "roll":
            return {f"roll {v}": 1 / 6 for v in range(1, 7)}
        bag = self.pile if kind == "draw" else self.meikyu_pile
        total = sum(bag.values())
        return {f"{kind} {name}": n / total for name, n in bag.items()}

    def points(self, seat: int) -> int:
        return (
            self.refugees[seat]
            + (self.owns(seat, "farm") and self.opt("farm") == "points")
            + sum(
                self.lands[room].developed_points if dev else self.lands[room].points
                for room, dev in self.kingdoms[seat]
            )
        )

    def winners(self) -> tuple[int, ...]:
        best = max(self.points(s) for s in range(self.players))
        top = [s for s in range(self.players) if self.points(s) == best]
        most = max(self.land_count(s) for s in top)
        return tuple(s for s in top if self.land_count(s) == most)

    # -- small reads --

    def opt(self, name: str) -> str:
        return self.options.get(name, DEFAULTS[name])

    def capacity(self, seat: int) -> int:
        return MAX_LANDS + (1 if self.opt("farm") == "lands" and self.owns(seat, "farm") else 0)

    def land_count(self, seat: int) -> int:
        """Lands for the land limit and the tie-break (Refugees too under ``refugee=land``)."""
        return len(self.kingdoms[seat]) + (self.refugees[seat] if self.opt("refugee") == "land" else 0)

    def developed_anywhere(self, seat: int, effect: str) -> bool:
        """A developed Bar or Harem that helps ``seat``: its own, or anyone's under ``everyone``."""
        if self.opt(effect) == "everyone":
            return any(self.owns(s, effect, developed=True) for s in range(self.players))
        return self.owns(seat, effect, developed=True)

    def kard(self, name: str) -> Kard:
        return self.kingdom_cards[name][0]

    def owns(self, seat: int, effect: str, developed: bool = False) -> bool:
        return any(self.lands[room].effect == effect and (dev or not developed) for room, dev in self.kingdoms[seat])

    def swords(self, seat: int, fight: Fight, quest: bool) -> int:
        """The swords of a set of cards: Bravery (+1 for a printed 0 with one's developed Bar),
        +1 a Sword (+2 with one's Blacksmith), a Grimoire adds a character's seals (one each, on the
        most seals), an item played through the Laboratory is a 2/0 character, the Fortress +2 to a
        quest of two or more characters."""
        cards, lab = fight
        chars = [
            (self.kard(c).bravery, self.kard(c).wits) for c in cards.elements() if self.kard(c).type == "character"
        ]
        if lab:
            chars.append((2, 0))
        bar = self.developed_anywhere(seat, "bar")
        swords = sum(n for c, n in cards.items() if self.kard(c).effect == "sword")
        grimoires = sum(n for c, n in cards.items() if self.kard(c).effect == "grimoire")
        per_sword = 2 if self.owns(seat, "blacksmith") else 1
        if bar and self.opt("bar_zero") == "after-items":
            total = self.swords_placed(chars, swords, grimoires) + (per_sword - 1) * swords
        else:
            total = sum(b + (1 if bar and b == 0 else 0) for b, _ in chars)
            total += per_sword * swords
            if self.opt("grimoire") == "stack":
                total += grimoires * max((w for _, w in chars), default=0)
            else:
                total += sum(sorted((w for _, w in chars), reverse=True)[:grimoires])
        fortress = quest or self.opt("fortress") == "aggressions"
        if fortress and len(chars) >= 2 and self.owns(seat, "fortress"):
            total += 2
        return total

    def swords_placed(self, chars: list[tuple[int, int]], swords: int, grimoires: int) -> int:
        """Under ``bar_zero="after-items"`` with a developed Bar: every way of putting the Swords and
        the Grimoires on the characters (each on one of its own, or several on one, as the options
        say) tried, the best total, each character left at 0 swords after its items lifted to 1."""
        seats = range(len(chars))
        on_grim = (
            combinations_with_replacement(seats, grimoires)
            if self.opt("grimoire") == "stack"
            else combinations(seats, min(grimoires, len(chars)))
        )
        best = 0
        for grims in on_grim:
            on_sword = (
                combinations(seats, swords)
                if self.opt("sword") == "one"
                else combinations_with_replacement(seats, swords)
            )
            for placed in on_sword:
                each = [b + placed.count(i) + grims.count(i) * w for i, (b, w) in enumerate(chars)]
                best = max(best, sum(x if x else 1 for x in each))
        return best

    def fighting_sets(self, seat: int) -> list[Fight]:
        """Card sets for a quest, an attack or a defence from the seat's hand: one or more
        characters, any Swords and Grimoires, no more Grimoires than characters; with the
        Laboratory, one item of the hand may be played as a character."""
        hand = self.hands[seat]
        usable = Counter(
            {
                c: n
                for c, n in hand.items()
                if self.kard(c).type == "character" or self.kard(c).effect in ("sword", "grimoire")
            }
        )
        labs: list[str | None] = [None]
        if self.owns(seat, "laboratory"):
            labs += sorted(c for c in hand if self.kard(c).type == "item")
        out = []
        for lab in labs:
            rest = usable - Counter({lab: 1}) if lab else usable
            for cards in sub_multisets(rest):
                chars = sum(n for c, n in cards.items() if self.kard(c).type == "character") + (lab is not None)
                grimoires = sum(n for c, n in cards.items() if self.kard(c).effect == "grimoire")
                swords = sum(n for c, n in cards.items() if self.kard(c).effect == "sword")
                if self.opt("grimoire") == "stack":
                    grimoires = min(grimoires, chars)
                if self.opt("sword") == "stack":
                    swords = min(swords, chars)
                if chars >= 1 and grimoires <= chars and swords <= chars:
                    out.append((cards, lab))
        return out

    def holding(self, hand: Counter[str], effect: str) -> str | None:
        return next((c for c in sorted(hand) if self.kard(c).effect == effect), None)

    # -- the game --

    def _game(self) -> Game:
        for _ in range(ROOMS):
            yield from self._reveal()
        for seat in range(self.players):
            for _ in range(DEAL):
                self.hands[seat][(yield from self._take())] += 1
        while any(self._has_open(h) for h in self.hands):
            if self.opt("redeal") == "together":  # every such hand back to the pile, then four new each
                seats = [s for s in range(self.players) if self._has_open(self.hands[s])]
                for seat in seats:
                    self.pile += self.hands[seat]
                    self.events["redeal"] += 1
                    self.hands[seat] = Counter()
                for seat in seats:
                    for _ in range(DEAL):
                        self.hands[seat][(yield from self._take())] += 1
                continue
            for seat in range(self.players):
                while self._has_open(self.hands[seat]):
                    self.pile += self.hands[seat]
                    self.events["redeal"] += 1
                    self.hands[seat] = Counter()
                    for _ in range(DEAL):
                        self.hands[seat][(yield from self._take())] += 1
        rollers = list(range(self.players))
        while len(rollers) > 1:
            rolls = []
            for _ in rollers:
                die = yield from self._roll()
                if self.opt("amulet_first_roll") == "yes":
                    die = yield from self._amulets(die, first_roll=True)
                rolls.append(die)
            best = max(rolls)
            rollers = [s for s, r in zip(rollers, rolls, strict=True) if r == best]
        yield from self._turns(rollers[0])

    def _turns(self, first: int) -> Game:
        """Turns from ``first``'s on, until the game ends."""
        self.turn_player = first
        while True:
            self.reached = False
            yield from self._turn(self.turn_player)
            self.turns += 1
            self._note_goal()
            if (self.reached if self.opt("goal_check") == "reached" else self._goal_now()) or (
                not self.rooms and not self.meikyu_pile
            ):
                return
            self.turn_player = (self.turn_player + 1) % self.players

    def _has_open(self, hand: Counter[str]) -> bool:
        return any(self.kard(c).type == "open" for c in hand)

    def _take(self) -> Generator[Wait, str, str]:
        """One card off the Kingdom pile (a chance step); the discards become the pile at once when
        it runs out."""
        self._note_goal()
        text = yield ("chance", "draw")
        verb, _, name = text.partition(" ")
        assert verb == "draw" and self.pile[name] > 0, (text, self.pile)
        self.pile[name] -= 1
        self.pile += Counter()
        if not self.pile:
            self.pile, self.discards = Counter(self.discards), []
            self.events["reshuffle"] += 1
        return name

    def _reveal(self) -> Generator[Wait, str, str]:
        self._note_goal()
        text = yield ("chance", "reveal")
        verb, _, room = text.partition(" ")
        assert verb == "reveal" and self.meikyu_pile[room] > 0, text
        self.meikyu_pile[room] -= 1
        self.meikyu_pile += Counter()
        self.rooms.append(room)
        return room

    def _roll(self) -> Generator[Wait, str, int]:
        self._note_goal()
        text = yield ("chance", "roll")
        verb, _, value = text.partition(" ")
        assert verb == "roll" and value in {"1", "2", "3", "4", "5", "6"}, text
        return int(value)

    def _die(self, seat: int) -> Generator[Wait, str, int]:
        """A quest's or an aggression's die, rolled by ``seat``; a 6 rolled while owning the
        Casino gives that seat a card once the action is resolved."""
        casino = self.owns(seat, "casino")
        die = yield from self._roll()
        die = yield from self._amulets(die, casino=casino, seat=seat)
        if die == 6 and casino:
            self.casino_draws.append(seat)
        return die

    def _amulets(
        self, die: int, casino: bool = False, seat: int = 0, first_roll: bool = False
    ) -> Generator[Wait, str, int]:
        """The Amulet window after a die: the die as it finally stands. On the first-player roll
        (``amulet_first_roll=yes``) the Amulet goes straight to the discard pile."""
        asking = True
        while asking:  # after every die, the Amulets' holders in turn order; a reroll asks again
            asking = False
            for s in [(self.turn_player + i) % self.players for i in range(self.players)]:
                amulet = self.holding(self.hands[s], "amulet")
                if amulet is None and self.opt("amulet_ask") == "everyone":
                    yield from self._decide(s, {"pass"})
                if amulet and (yield from self._decide(s, {"amulet", "pass"})) == "amulet":
                    if first_roll:
                        self._discard_from_hand(s, amulet)
                    else:
                        self._use(s, Counter({amulet: 1}))
                    if die == 6 and casino and self.opt("casino") == "every":
                        self.casino_draws.append(seat)
                    die = yield from self._roll()
                    asking = True
                    break
        return die

    def _decide(self, seat: int, legal: set[str]) -> Generator[Wait, str, str]:
        assert legal
        self._note_goal()
        return (yield ("decide", seat, frozenset(legal)))

    def _goal_now(self) -> bool:
        """A kingdom, within its land limit, has the goal's points."""
        return any(self.points(s) >= self.goal and self.land_count(s) <= self.capacity(s) for s in range(self.players))

    def _note_goal(self) -> None:
        """``goal_check=reached``: the goal met at any moment of the turn (every step is a moment)."""
        self.reached = self.reached or self._goal_now()

    def _draw(self, seat: int) -> Game:
        """Draw from the Kingdom pile into the hand; an OPEN card is played at once. The Tomb may
        take the top discard instead (not an OPEN card); the Archives draw two and keep one."""
        top = self.discards[-1] if self.discards else None
        tomb = top is not None and self.kard(top).type != "open" and self.owns(seat, "tomb")
        if tomb and top and (yield from self._decide(seat, {"draw", "tomb"})) == "tomb":
            self.discards.pop()
            self.hands[seat][top] += 1
            return
        kept: list[str] = []
        wanted = 2 if self.owns(seat, "archives") else 1
        while len(kept) < wanted:
            if self.opt("open_draw") == "replaced" and all(
                self.kard(c).type == "open" for c in [*self.pile, *self.discards]
            ):
                break
            if not self.pile and self.discards:
                self.pile, self.discards = Counter(self.discards), []
                self.events["reshuffle"] += 1
            if not self.pile:
                self.events["draw skipped"] += 1
                break
            name = yield from self._take()
            if self.kard(name).type == "open":
                yield from self._open(seat, name)
                if self.opt("open_draw") == "counts":
                    wanted -= 1
            else:
                kept.append(name)
                self.archives[name] += 1
        if len(set(kept)) == 2:
            text = yield from self._decide(seat, {f"keep {name}" for name in kept})
            kept.remove(text.removeprefix("keep "))
            kept.insert(0, text.removeprefix("keep "))
        if len(kept) == 2:
            self.discards.append(kept.pop())
        if kept:
            self.hands[seat][kept[0]] += 1
        self.archives = Counter()

    def _open(self, seat: int, name: str) -> Game:
        effect = self.kard(name).effect
        if effect == "refugee":
            self.refugees[seat] += 1
            out_of_turn = seat != self.turn_player and self.opt("refugee_order") == "turn"
            in_play = self.in_play
            if out_of_turn:  # (a Casino's draw: after the action's cards are discarded)
                self.in_play = Counter()
            for _ in range(2):
                if not self.hands[seat]:
                    break
                text = yield from self._decide(seat, {f"discard {c}" for c in self.hands[seat]})
                if out_of_turn:  # set aside face up; the turn's player orders them onto the pile
                    self._use(seat, Counter([text.removeprefix("discard ")]))
                else:
                    self._discard_from_hand(seat, text.removeprefix("discard "))
            if out_of_turn:
                yield from self._spend()
                self.in_play = in_play
            while self.land_count(seat) > self.capacity(seat):
                yield from self._land_limit(seat, [room for room, _ in self.kingdoms[seat]])
            return
        self.discards.append(name)  # played: it goes at once to the discard pile
        if effect == "storm":
            self.meikyu_discards.update(self.rooms)
            self.rooms = []
            self.mapped = set()
            for _ in range(ROOMS):
                if self.meikyu_pile:
                    yield from self._reveal()
        elif effect == "tsunami":
            order = [(seat + i) % self.players for i in range(self.players)]
            held = {s: [room for room, _ in self.kingdoms[s]] for s in order}
            if self.opt("castle_tsunami") == "stays":
                held = {
                    s: [room for room in rooms if self.lands[room].effect != "castle tower"]
                    for s, rooms in held.items()
                }
            landless = {s for s in order if not self.kingdoms[s]}
            for s in order:
                choices = {f"give {room}" for room in held[s]}
                if s not in landless and self.opt("tsunami_pass") == "any":  # what it holds at its turn
                    choices = {
                        f"give {room}"
                        for room, _ in self.kingdoms[s]
                        if self.opt("castle_tsunami") == "passes" or self.lands[room].effect != "castle tower"
                    }
                if s in landless and self.opt("tsunami_landless") == "may-pass":
                    received = [room for room, _ in self.kingdoms[s]]
                    if self.opt("castle_tsunami") == "stays":
                        received = [room for room in received if self.lands[room].effect != "castle tower"]
                    choices = {f"give {room}" for room in received} | ({"pass"} if received else set())
                if choices:
                    text = yield from self._decide(s, choices)
                    if text == "pass":
                        continue
                    room = text.removeprefix("give ")
                    self._remove_land(s, room)
                    self.kingdoms[(s + 1) % self.players].append((room, False))
            for s in order:
                while self.land_count(s) > self.capacity(s):
                    yield from self._land_limit(s, [room for room, _ in self.kingdoms[s]])

    def _discard_from_hand(self, seat: int, name: str) -> None:
        assert self.hands[seat][name] > 0
        self.hands[seat][name] -= 1
        self.hands[seat] += Counter()
        self.discards.append(name)

    def _remove_land(self, seat: int, room: str) -> bool:
        for i, (r, dev) in enumerate(self.kingdoms[seat]):
            if r == room:
                del self.kingdoms[seat][i]
                return dev
        raise AssertionError(room)

    def _land_limit(self, seat: int, choices: list[str]) -> Game:
        legal = {f"discard land {r}" for r in choices if self.lands[r].effect != "castle tower"}
        text = yield from self._decide(seat, legal)
        self._discard_land(seat, text.removeprefix("discard land "))

    def _turn(self, p: int) -> Game:
        self.mapped = set()
        if self.skips[p]:  # Mixed Area: the turn is lost whole
            self.skips[p] -= 1
            return
        yield from self._draw(p)
        while True:
            text = yield from self._decide(p, self._main_actions(p))
            if text == "map":
                self._use(p, Counter({self.holding(self.hands[p], "map") or "": 1}))  # spent with the action's cards
                self.mapped.add((yield from self._reveal()))
            elif text.startswith("mixed area P"):
                self._discard_land(p, self._effect_land(p, "mixed area"))
                self.skips[int(text.removeprefix("mixed area P")) - 1] += 1
            else:
                break
        if text == "resupply":
            yield from self._draw(p)
            yield from self._spend()
        elif text.startswith("quest "):
            yield from self._quest(p, text)
        elif text.startswith("develop "):
            room, (cards, _) = self._read_with(text.removeprefix("develop "))
            self._use(p, cards)
            wits = sum(self.kard(c).wits for c in cards.elements())
            harem = 1 if self.developed_anywhere(p, "harem") else 0
            if wits >= self.lands[room].level - harem:
                at = self.kingdoms[p].index((room, False))
                self.kingdoms[p][at] = (room, True)
                if self.lands[room].effect == "marketplace":
                    yield from self._draw(p)
            yield from self._spend()
        else:
            yield from self._attack(p, text)
        if self.opt("mixed_area") == "any" and self.owns(p, "mixed area"):  # "On your turn": after the action too
            others = {f"mixed area P{q + 1}" for q in range(self.players) if q != p}
            text = yield from self._decide(p, others | {"pass"})
            if text != "pass":
                self._discard_land(p, self._effect_land(p, "mixed area"))
                self.skips[int(text.removeprefix("mixed area P")) - 1] += 1
        while sum(self.hands[p].values()) > HAND_LIMIT:
            text = yield from self._decide(p, {f"discard {c}" for c in self.hands[p]})
            self._discard_from_hand(p, text.removeprefix("discard "))
        if self.opt("map_room") == "discarded":
            for room in sorted(self.mapped & set(self.rooms)):
                self.rooms.remove(room)
                self.meikyu_discards[room] += 1
        if len(self.rooms) <= ROOMS - 1:
            while len(self.rooms) < ROOMS and self.meikyu_pile:
                yield from self._reveal()
        hot_springs = self.owns(p, "hot springs") and not self.hands[p]
        if hot_springs and (yield from self._decide(p, {"draw", "pass"})) == "draw":
            yield from self._draw(p)
        self.mapped = set()

    def _main_actions(self, p: int) -> set[str]:
        hand = self.hands[p]
        legal = {"resupply"}
        if self.holding(hand, "map") and self.meikyu_pile:
            legal.add("map")
        if self.owns(p, "mixed area"):
            legal |= {f"mixed area P{q + 1}" for q in range(self.players) if q != p}
        sets = [cards_text(*f) for f in self.fighting_sets(p)]
        for room in set(self.rooms):
            legal |= {f"quest {room} with {cards}" for cards in sets}
        chars = Counter({c: n for c, n in hand.items() if self.kard(c).type == "character"})
        for room, dev in self.kingdoms[p]:
            if not dev:
                legal |= {f"develop {room} with {cards_text(c)}" for c in sub_multisets(chars) if c}
        ways = [
            w
            for w in (self.holding(hand, "gotcha"), "Council Chamber" if self.owns(p, "council chamber") else None)
            if w
        ]
        for way in ways:
            for q in range(self.players):
                stealable = [r for r, _ in self.kingdoms[q] if q != p and self.lands[r].effect != "castle tower"]
                if self.opt("aggression_target") == "defender":
                    stealable = [""] if stealable else []
                for room in stealable:
                    at = f" {room}" if room else ""
                    legal |= {f"attack P{q + 1}{at} with {cards} by {way}" for cards in sets}
        return legal

    def _read_with(self, text: str) -> tuple[str, Fight]:
        place, _, cards = text.partition(" with ")
        return place, read_cards(cards)

    def _effect_land(self, seat: int, effect: str) -> str:
        return next(room for room, _ in self.kingdoms[seat] if self.lands[room].effect == effect)

    def _discard_land(self, seat: int, room: str) -> None:
        self._remove_land(seat, room)
        self.meikyu_discards[room] += 1

    def _use(self, seat: int, cards: Counter[str]) -> None:
        assert not cards - self.hands[seat], (cards, self.hands[seat])
        self.hands[seat] -= cards
        self.in_play += cards

    def tomb_may_come(self) -> bool:
        """Whether a Tomb is still in the game (in the Meikyu pile, face up or in a kingdom)."""
        tombs = [r for r, land in self.lands.items() if land.effect == "tomb"]
        return any(self.meikyu_discards[r] == 0 for r in tombs)

    def _spend(self) -> Game:
        """The cards in play go to the discard pile, in the order the turn's player chooses while
        a Tomb may still come into play (not asked once the cards left are all one card)."""
        while len(self.in_play) > 1 and self.tomb_may_come():
            text = yield from self._decide(self.turn_player, {f"discard {c}" for c in self.in_play})
            name = text.removeprefix("discard ")
            self.in_play[name] -= 1
            self.in_play += Counter()
            self.discards.append(name)
        self.discards += sorted(self.in_play.elements())
        self.in_play = Counter()

    def _gain_land(self, p: int, room: str) -> Game:
        before = {r for r, _ in self.kingdoms[p]}
        self.kingdoms[p].append((room, False))
        while self.land_count(p) > self.capacity(p):  # (discarding the Farm under farm=lands may ask twice)
            held = [r for r, _ in self.kingdoms[p] if r in before or self.opt("sixth_land") == "any"]
            yield from self._land_limit(p, held)

    def _quest(self, p: int, text: str) -> Game:
        room, fight = self._read_with(text.removeprefix("quest "))
        cards, lab = fight
        self._use(p, cards + Counter([lab] if lab else []))
        die = yield from self._die(p)
        level = self.lands[room].level - (2 if room in self.mapped else 0)
        if self.swords(p, fight, quest=True) + die >= level:
            self.rooms.remove(room)
            self.mapped.discard(room)
            yield from self._gain_land(p, room)
        elif self.owns(p, "hospital"):
            chars = {c for c in cards if self.kard(c).type == "character"} | ({lab} if lab else set())
            answer = yield from self._decide(p, {"pass"} | {f"return {c}" for c in chars})
            if answer != "pass":
                back = answer.removeprefix("return ")
                self.in_play[back] -= 1
                self.in_play += Counter()
                self.hands[p][back] += 1
        yield from self._spend()
        yield from self._casino()

    def _casino(self) -> Game:
        draws, self.casino_draws = self.casino_draws, []
        for seat in draws:
            if (yield from self._decide(seat, {"draw", "pass"})) == "draw":
                yield from self._draw(seat)

    def _attack(self, p: int, text: str) -> Game:
        head, _, by = text.removeprefix("attack P").partition(" by ")
        seat, _, rest = head.partition(" ")
        q = int(seat) - 1
        room: str | None
        if rest.startswith("with "):  # aggression_target=defender
            room, fight = None, read_cards(rest.removeprefix("with "))
        else:
            room, fight = self._read_with(rest)
        cards, lab = fight
        if by == "Council Chamber":
            self._discard_land(p, self._effect_land(p, "council chamber"))
            self._use(p, cards + Counter([lab] if lab else []))
        else:
            self._use(p, cards + Counter([lab] if lab else []) + Counter({by: 1}))
        legal = {"defend"} | {f"defend with {cards_text(*f)}" for f in self.fighting_sets(q)}
        answer = yield from self._decide(q, legal)
        used: Fight = read_cards(answer.removeprefix("defend with ")) if answer != "defend" else (Counter(), None)
        self._use(q, used[0] + Counter([used[1]] if used[1] else []))
        attack = self.swords(p, fight, quest=False) + (yield from self._die(p))
        defend = self.swords(q, used, quest=False) + (yield from self._die(q))
        if attack > defend:
            if room is None:
                stealable = {r for r, _ in self.kingdoms[q] if self.lands[r].effect != "castle tower"}
                room = (yield from self._decide(q, {f"give {r}" for r in stealable})).removeprefix("give ")
            self._remove_land(q, room)
            yield from self._gain_land(p, room)
        yield from self._spend()
        yield from self._casino()
