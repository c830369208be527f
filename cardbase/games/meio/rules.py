"""Meio's rules options (the readings of ``docs/rules/meio.md``), the deck per player count, the
play tables, and the scoring of a round and of the game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any, ClassVar, Self

from cardbase.errors import counted, quoted
from cardbase.games.base import (
    InvalidRules,
    Outcome,
    Rules,
    check_option_names,
    check_seed,
    kind_words,
)
from cardbase.games.meio.actions import ASIDE_IDS, PLAYS, MeioAction, Play, parse_action
from cardbase.games.meio.cards import (
    FIRST_HALF,
    HAND_SIZE,
    PLAYER_COUNTS,
    SECOND_HALF,
    PlayingCard,
    deck_for,
    highest_rank_for,
)
from cardbase.games.meio.masks import _BIT, _SUIT, CARDS, HEARTS, INDEX, MAX_ROUNDS, indices_of

if TYPE_CHECKING:
    from cardbase.games.meio.engine import MeioState


# --- rules -------------------------------------------------------------------

SECOND_HALF_LEADERS: tuple[str, ...] = ("winner", "starter")
"""``second_half_leader``'s words: the winner of the seventh trick, or the round's starting player."""


@dataclass(frozen=True)
class MeioRules(Rules):
    """Meio for 2–4 players, with the readings that the rulebook leaves open as options.

    ``ace_high``: the ace ranks above the king (default) or below the two.
    ``hearts_anytime``: hearts may be led at any time (default, the rulebook sets
    no restriction); if false, not until a heart has been played in the round,
    unless the leader holds only hearts. ``rounds``: 3 in the rulebook.
    ``first_player``: the seat that starts round 1 ("a starting player of your choice").
    ``second_half_leader``: who leads the eighth trick, after the packs of 6 are picked up
    ("the game continues normally"): ``winner``, the winner of the seventh (default), or
    ``starter``, the round's starting player, as the first half began.
    """

    game_id: ClassVar[str] = "meio"
    option_notes: ClassVar[Mapping[str, str]] = {"first_player": "0 is P1, 1 is P2, …"}
    option_choices: ClassVar[Mapping[str, tuple[str, ...]]] = {"second_half_leader": SECOND_HALF_LEADERS}
    title: ClassVar[str] = "Meio"

    players: int = 4
    ace_high: bool = True
    hearts_anytime: bool = True
    rounds: int = 3
    first_player: int = 0
    second_half_leader: str = "winner"

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            want = bool if f.type in ("bool", bool) else str if f.type in ("str", str) else int
            if type(value) is not want:
                refused = InvalidRules(f"Meio option {f.name} must be {want.__name__}, not {quoted(value)}")
                raise refused.about(f.name, reason=kind_words(want))
        for name, choices in self.option_choices.items():
            if getattr(self, name) not in choices:
                refused = InvalidRules(f"{name} must be one of {', '.join(choices)}, not {quoted(getattr(self, name))}")
                raise refused.about(name, choices)
        if self.players not in PLAYER_COUNTS:
            raise InvalidRules(f"Meio is for 2, 3 or 4 players, not {self.players}")
        if not 1 <= self.rounds <= MAX_ROUNDS:
            refused = InvalidRules(f"Meio option rounds must be from 1 to {MAX_ROUNDS}, not {self.rounds}")
            raise refused.about("rounds", reason=f"is not from 1 to {MAX_ROUNDS}")
        if not 0 <= self.first_player < self.players:
            refused = InvalidRules(f"first_player must be a seat from 0 to {self.players - 1}, not {self.first_player}")
            raise refused.about(
                "first_player",
                reason=f"is not a seat of {counted(self.players, 'player')}: 0 (P1) to {self.players - 1}",
            )

    @property
    def deck(self) -> tuple[PlayingCard, ...]:
        """The deck for this player count, in index order."""
        return deck_for(self.players)

    @property
    def score_range(self) -> tuple[float | None, float | None]:
        """A round scores 0 (as many tricks in each half) to 7 (all seven of the first half, none after)."""
        return (0.0, float(FIRST_HALF * self.rounds))

    @property
    def deck_mask(self) -> int:
        """The deck as a mask of card bits (:mod:`cardbase.games.meio.masks`)."""
        return _deck(self.players)[1]

    def deck_label(self) -> str:
        """The deck in words: ``3-player deck (A–10)``."""
        top = highest_rank_for(self.players)
        return f"{self.players}-player deck (A–{ {7: '7', 10: '10', 13: 'K'}[top] })"

    def strength(self, card: PlayingCard) -> int:
        """How high ``card`` ranks within its suit: 2 … 13, ace 14 (ace high) or 1."""
        return 14 if card.rank == 1 and self.ace_high else card.rank

    def sort_key(self, index: int) -> tuple[int, int]:
        """Display order: by suit, then by strength."""
        return (_SUIT[index], self.strength(CARDS[index]))

    def new_initial_state(self, seed: int | None = None) -> MeioState:
        from cardbase.games.meio.engine import MeioState  # the state is built from the rules

        return MeioState(self, check_seed(seed))

    def parse_action(self, text: str) -> MeioAction:
        return parse_action(text)

    def to_options(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> Self:
        check_option_names(options, (f.name for f in fields(cls)), "Meio")
        return cls(**dict(options))

    # -- integer steps and tensors (see cardbase.games.base) --

    def num_distinct_actions(self) -> int:
        """52 plays (the card's index), then 52 cards to set aside (:data:`ASIDE_IDS`): a split is
        six steps, one per card set aside, in index order (as OpenSpiel's hearts passes cards)."""
        return ASIDE_IDS + 52

    def max_chance_outcomes(self) -> int:
        """A deal is one step per card of the deck, in index order: the seat it goes to,
        or ``players`` for the cards left aside."""
        return self.players + (1 if len(self.deck) > HAND_SIZE * self.players else 0)

    def max_game_length(self) -> int:
        """Per round: a chance step per card of the deck, a seat's split and its plays."""
        deal = len(_deck(self.players)[0])
        return self.rounds * (deal + SECOND_HALF * self.players + HAND_SIZE * self.players)

    def observation_tensor_layout(self) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """Seats counted from the viewer's (0: the viewer, 1: the next to play after it …); card
        sets are 52 flags by card index; counts are scaled to 0 … 1. ``hand``, ``aside`` (the pack
        set aside for the second half), ``dealt`` (the round's 13): the viewer's cards;
        ``setting_aside``: the cards the viewer's steps so far set aside, in the middle of its
        split; ``played`` (n × 52): the cards each seat has played this round; ``trick`` (n × 52):
        each seat's card in the trick under way; ``phase`` (deal, split, play, over); ``half``
        (first, second); ``current_player``, ``leader`` (of the trick, in play), ``starting_player``
        (of the round): one-hot by seat; ``split_done``: each seat's flag; ``hand_sizes`` (of 13),
        ``aside_sizes`` (of 6); ``tricks_won`` (n × 2): each seat's horizontal and vertical tricks
        (of 13); ``totals``: each seat's points (of 7 × ``rounds``); ``round``: rounds finished (of
        ``rounds``)."""
        n = self.players
        return (
            ("hand", (52,)),
            ("aside", (52,)),
            ("dealt", (52,)),
            ("setting_aside", (52,)),
            ("played", (n, 52)),
            ("trick", (n, 52)),
            ("phase", (4,)),
            ("half", (2,)),
            ("current_player", (n,)),
            ("leader", (n,)),
            ("starting_player", (n,)),
            ("split_done", (n,)),
            ("hand_sizes", (n,)),
            ("aside_sizes", (n,)),
            ("tricks_won", (n, 2)),
            ("totals", (n,)),
            ("round", (1,)),
        )


@lru_cache(maxsize=1024)
def _aside_ids(hand: int) -> tuple[int, ...]:
    """The split's step ids of a hand's cards (``ASIDE_IDS`` + the index), ascending, remembered:
    a split's steps ask for the same hand six times."""
    return tuple([ASIDE_IDS + c for c in indices_of(hand)])


PLAY_IDS: dict[int, tuple[int, ...]] = {s << 13: () for s in range(4)}
"""The play steps' ids of a suit's 13-bit pattern of cards, by ``suit << 13 | pattern`` (the card
indices, ascending: the ids of ``_tables``' ``suit_plays``, which do not depend on the rules);
filled as patterns come (:func:`play_ids`), the empty ones from the start."""


def play_ids(key: int) -> tuple[int, ...]:
    """:data:`PLAY_IDS` at ``key`` (``suit << 13 | pattern``), computed and kept when new."""
    hit = PLAY_IDS.get(key)
    if hit is None:
        suit, pattern = key >> 13, key & 0x1FFF
        hit = PLAY_IDS[key] = tuple([13 * suit + r for r in range(13) if pattern >> r & 1])
    return hit


@cache
def _deck(players: int) -> tuple[tuple[int, ...], int]:
    """The deck for ``players`` as card indices, and as a mask."""
    idx = tuple(INDEX[c] for c in deck_for(players))
    return idx, sum(_BIT[c] for c in idx)


@cache
def _tables(ace_high: bool) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[tuple[Play, ...], ...], ...]]:
    """Per rules: the trick keys ``keys[led][card]`` (higher wins; -1 cannot win) and
    the plays of each 13-bit suit pattern ``suit_plays[suit][pattern]``."""
    keys = []
    for led in range(4):
        row = []
        for c in range(52):
            rank = c % 13 + 1
            strength = 14 if rank == 1 and ace_high else rank
            suit = _SUIT[c]
            row.append(100 + strength if suit == HEARTS else strength if suit == led else -1)
        keys.append(tuple(row))
    suit_plays = []
    for s in range(4):
        base = 13 * s
        table = []
        for pattern in range(1 << 13):
            table.append(tuple(PLAYS[base + r] for r in range(13) if pattern >> r & 1))
        suit_plays.append(tuple(table))
    return tuple(keys), tuple(suit_plays)


def rounds_text(rounds: int) -> str:
    """``3 rounds``, ``1 round``."""
    return counted(rounds, "round")


def round_score(horizontal: int, vertical: int) -> int:
    """A player's score for a round: the difference between the tricks won in the
    first half (horizontal) and in the second (vertical), whichever is higher."""
    return abs(horizontal - vertical)


def final_outcome(rules: MeioRules, totals: tuple[int, ...], round_scores: Sequence[tuple[int, ...]]) -> Outcome:
    """How a finished game ended: the lowest total wins; a tie is a shared victory."""
    best = min(totals)
    winners = tuple(i for i, t in enumerate(totals) if t == best)
    reason = (
        f"lowest total after {rounds_text(rules.rounds)}"
        if len(winners) == 1
        else f"tie for the lowest total after {rounds_text(rules.rounds)}: shared victory"
    )
    return Outcome(
        winners=winners, scores=totals, reason=reason, lower_is_better=True, round_scores=tuple(round_scores)
    )
