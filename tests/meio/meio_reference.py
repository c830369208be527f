"""An independent reading of the *Meio* rulebook, for the differential test
(``test_meio_reference.py``): the whole game, written from the rulebook and ``docs/rules/meio.md``'s
readings, and sharing nothing with the engine but the notation of actions (``play 7H``,
``split <7 kept> | <6 aside>``, ``deal <13> / <13> …``), which it reads and writes itself.

Cards are strings (``"7H"``, ``"10S"``, ``"AC"``); hands are sets of them. Nothing here imports
``cardbase``: a bug shared by the engine's tables, masks or parser cannot hide here too.

The readings (each the engine's documented default, or its option):

- Game Preparation: 2 players use A–7 of each suit (28 cards), 3 players A–10 (40), 4 players
  all 52; 13 cards to each player; the rest (2 and 1) are left aside, face down.
- The ace ranks above the king (``ace_high``, default) or below the two.
- "Set a starting player of your choice": ``first_player``.
- Phase 1: each player splits 13 cards into 7 kept and 6 set aside, in no set order: the turn
  goes round from the starting player, and a player may split before their turn comes.
- Phase 2: the starting player leads the first trick with any card (``hearts_anytime=False``:
  not a heart until a heart has been played this round, unless the leader holds only hearts);
  the others follow the led suit if they can, else play any card. The highest heart wins a trick
  with a heart in it; otherwise the highest card of the led suit. The winner leads the next.
  After the seventh trick the hands are empty; the packs of 6 are picked up and the winner of
  the seventh trick leads the eighth (``second_half_leader="starter"``: the round's starting
  player does). Tricks 1–7 are horizontal, 8–13 vertical.
- Scoring: |horizontal − vertical| per round; the next round's starting player is the next seat
  ("to the left", play going the same way); after ``rounds`` (3) rounds the lowest total wins,
  and every player tied for it shares the victory.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import comb

SUITS = ("S", "H", "D", "C")
HEARTS = "H"
LETTERS = {1: "A", 11: "J", 12: "Q", 13: "K"}
TOP_RANK = {2: 7, 3: 10, 4: 13}
HAND = 13
KEEP = 7
ASIDE = 6


def card_text(rank: int, suit: str) -> str:
    return f"{LETTERS.get(rank, str(rank))}{suit}"


def rank_of(card: str) -> int:
    head = card[:-1]
    back = {v: k for k, v in LETTERS.items()}
    return back[head] if head in back else int(head)


def suit_of(card: str) -> str:
    return card[-1]


def deck(players: int) -> list[str]:
    """Game Preparation: A–7, A–10 or all 52 cards."""
    return [card_text(r, s) for s in SUITS for r in range(1, TOP_RANK[players] + 1)]


Action = tuple[str, frozenset[str], frozenset[str]] | tuple[str, str] | tuple[str, tuple[frozenset[str], ...]]


def read(text: str) -> Action:
    """An action's notation as a canonical tuple: ``("play", card)``, ``("split", keep, aside)``
    or ``("deal", (hand, hand, …))``; the order of cards in the notation does not matter."""
    verb, _, rest = text.strip().partition(" ")
    if verb == "play":
        (card,) = rest.split()
        return ("play", card)
    if verb == "split":
        keep, aside = rest.split("|")
        return ("split", frozenset(keep.split()), frozenset(aside.split()))
    if verb == "deal":
        return ("deal", tuple(frozenset(part.split()) for part in rest.split("/")))
    raise ValueError(f"not a Meio action: {text!r}")


def write(action: Action) -> str:
    """The notation of a canonical action (cards in any order: the engine's parser takes any)."""
    if action[0] == "play":
        return f"play {action[1]}"
    if action[0] == "split":
        _, keep, aside = action
        return f"split {' '.join(sorted(keep))} | {' '.join(sorted(aside))}"
    return "deal " + " / ".join(" ".join(sorted(h)) for h in action[1])


@dataclass
class Reference:
    """A Meio game, read from the rulebook. ``to_act`` is a seat, ``"chance"`` or ``"over"``."""

    players: int
    ace_high: bool = True
    hearts_anytime: bool = True
    rounds: int = 3
    first_player: int = 0
    second_half_leader: str = "winner"
    round_no: int = 0
    start: int = 0
    totals: list[int] = field(default_factory=list)
    round_scores: list[tuple[int, ...]] = field(default_factory=list)
    to_act: int | str = "chance"
    hands: list[set[str]] = field(default_factory=list)
    packs: list[set[str]] = field(default_factory=list)
    left_aside: set[str] = field(default_factory=set)
    splits: int = 0
    split_seats: set[int] = field(default_factory=set)
    trick: list[tuple[int, str]] = field(default_factory=list)
    tricks_done: int = 0
    horizontal: list[int] = field(default_factory=list)
    vertical: list[int] = field(default_factory=list)
    hearts_played: bool = False
    trick_winners: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.start = self.first_player
        self.totals = [0] * self.players

    # -- what may be done --

    def legal(self) -> set[Action]:
        """Every legal action of the player to act (not chance; nothing once over)."""
        if not isinstance(self.to_act, int):
            return set()
        hand = self.hands[self.to_act]
        if self.splits < self.players:  # Phase 1: any 6 of the 13 set aside
            return {("split", frozenset(hand - set(a)), frozenset(a)) for a in _choose(sorted(hand), ASIDE)}
        if self.trick:
            led = suit_of(self.trick[0][1])
            same = {c for c in hand if suit_of(c) == led}
            return {("play", c) for c in (same or hand)}
        if not self.hearts_anytime and not self.hearts_played:
            plain = {c for c in hand if suit_of(c) != HEARTS}
            if plain:
                return {("play", c) for c in plain}
        return {("play", c) for c in hand}

    def is_legal(self, action: Action) -> bool:
        """``action in self.legal()``, without listing the 1,716 splits; a split of any hand not
        split yet (out of turn) too."""
        if action[0] == "split" and isinstance(self.to_act, int) and self.splits < self.players:
            return self.split_owner(action) is not None
        return action in self.legal()

    def split_owner(self, action: Action) -> int | None:
        """The player, not split yet, whose 13 cards the split divides into 7 and 6."""
        _, keep, aside = action
        for seat in range(self.players):
            if (
                seat not in self.split_seats
                and (len(keep), len(aside)) == (KEEP, ASIDE)
                and keep | aside == self.hands[seat]
            ):
                return seat
        return None

    def split_count(self) -> int:
        """How many splits the player to act has: 6 of 13 set aside, C(13, 6)."""
        return comb(len(self.hands[self.to_act]), ASIDE)

    def check_deal(self, hands: tuple[frozenset[str], ...]) -> None:
        """A deal gives 13 different cards of the deck to each player."""
        cards = [c for h in hands for c in h]
        assert len(hands) == self.players, hands
        assert all(len(h) == HAND for h in hands), hands
        assert len(set(cards)) == len(cards), hands
        assert set(cards) <= set(deck(self.players)), hands

    # -- doing it --

    def apply(self, action: Action) -> None:
        if action[0] == "deal":
            assert self.to_act == "chance"
            hands = action[1]
            self.check_deal(hands)
            self._deal(hands)
            return
        assert self.is_legal(action), action
        seat = self.to_act
        assert isinstance(seat, int)
        if action[0] == "split":
            _, keep, aside = action
            owner = self.split_owner(action)
            assert owner is not None
            self.hands[owner] = set(keep)
            self.packs[owner] = set(aside)
            self.splits += 1
            self.split_seats.add(owner)
            if self.splits == self.players:
                self.to_act = self.start
            elif owner == seat:
                while self.to_act in self.split_seats:
                    self.to_act = (self.to_act + 1) % self.players
            return
        card = action[1]
        assert isinstance(card, str)
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        if suit_of(card) == HEARTS:
            self.hearts_played = True
        if len(self.trick) < self.players:
            self.to_act = (seat + 1) % self.players
            return
        winner = self._trick_winner()
        self.trick_winners.append(winner)
        self.trick = []
        self.tricks_done += 1
        if self.tricks_done <= KEEP:
            self.horizontal[winner] += 1
        else:
            self.vertical[winner] += 1
        if self.tricks_done == KEEP:  # the hands are empty: pick up the packs of 6
            assert not any(self.hands)
            self.hands, self.packs = self.packs, [set() for _ in range(self.players)]
        if self.tricks_done == HAND:
            assert not any(self.hands)
            self._score_round()
            return
        # The winner leads the next; the eighth, under second_half_leader="starter", the round's starter.
        self.to_act = self.start if self.tricks_done == KEEP and self.second_half_leader == "starter" else winner

    def _deal(self, hands: tuple[frozenset[str], ...]) -> None:
        self.hands = [set(h) for h in hands]
        self.packs = [set() for _ in range(self.players)]
        self.left_aside = set(deck(self.players)) - {c for h in hands for c in h}
        assert len(self.left_aside) == {2: 2, 3: 1, 4: 0}[self.players]
        self.splits = 0
        self.split_seats = set()
        self.trick = []
        self.tricks_done = 0
        self.horizontal = [0] * self.players
        self.vertical = [0] * self.players
        self.hearts_played = False
        self.trick_winners = []
        self.to_act = self.start

    def strength(self, card: str) -> int:
        r = rank_of(card)
        return 14 if r == 1 and self.ace_high else r

    def _trick_winner(self) -> int:
        hearts = [(self.strength(c), s) for s, c in self.trick if suit_of(c) == HEARTS]
        if hearts:
            return max(hearts)[1]
        led = suit_of(self.trick[0][1])
        return max((self.strength(c), s) for s, c in self.trick if suit_of(c) == led)[1]

    def _score_round(self) -> None:
        scores = tuple(abs(h - v) for h, v in zip(self.horizontal, self.vertical, strict=True))
        self.round_scores.append(scores)
        self.totals = [t + s for t, s in zip(self.totals, scores, strict=True)]
        self.round_no += 1
        if self.round_no == self.rounds:
            self.to_act = "over"
        else:
            self.start = (self.start + 1) % self.players
            self.to_act = "chance"

    def winners(self) -> tuple[int, ...]:
        """Every seat with the lowest total (a tie is a shared victory)."""
        assert self.to_act == "over"
        best = min(self.totals)
        return tuple(s for s, t in enumerate(self.totals) if t == best)


def _choose(items: list[str], k: int) -> list[tuple[str, ...]]:
    if k == 0:
        return [()]
    if len(items) < k:
        return []
    first, rest = items[0], items[1:]
    return [(first, *tail) for tail in _choose(rest, k - 1)] + _choose(rest, k)
