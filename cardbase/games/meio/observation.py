"""What one Meio player sees (``MeioState.observation(seat)``): their own hand, the table, the
scores; never another hand."""

from __future__ import annotations

from dataclasses import dataclass

from cardbase.games.base import (
    SPECTATOR,
    Outcome,
)
from cardbase.games.meio.cards import (
    FIRST_HALF,
    PlayingCard,
)
from cardbase.games.meio.masks import _BIT, _HEARTS_MASK, _SUIT, CARDS, cards_of, held_back, indices_of
from cardbase.games.meio.rules import MeioRules, final_outcome, rounds_text

# --- observation ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MeioObservation:
    """What one player sees: their own cards, the table, the tricks and the scores.

    Card sets are masks (see :func:`cards_of`); other players' hands, packs set
    aside and the leftover cards are not here, only their sizes. The spectator's
    (``player`` :data:`~cardbase.games.base.SPECTATOR`) has no hand at all.
    """

    rules: MeioRules
    player: int
    current_player: int
    phase: str
    round: int
    start: int
    hand: int
    aside: int
    dealt: int
    split_done: tuple[bool, ...]
    hand_sizes: tuple[int, ...]
    aside_sizes: tuple[int, ...]
    leader: int
    trick: tuple[int, ...]
    tricks: tuple[tuple[int, tuple[int, ...], int], ...]
    horizontal: tuple[int, ...]
    vertical: tuple[int, ...]
    round_scores: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]

    @property
    def hand_cards(self) -> tuple[PlayingCard, ...]:
        """The observer's hand as cards (empty for a spectator)."""
        return cards_of(self.hand)

    @property
    def aside_cards(self) -> tuple[PlayingCard, ...]:
        """The cards the observer set aside, as cards."""
        return cards_of(self.aside)

    @property
    def half(self) -> int:
        """The half of the round being played: 1 until seven tricks are done, then 2."""
        return 1 if len(self.tricks) < FIRST_HALF else 2

    @property
    def played(self) -> int:
        """Mask of the cards played so far this round, the trick on the table included."""
        m = 0
        for _, cards, _ in self.tricks:
            for c in cards:
                m |= _BIT[c]
        for c in self.trick:
            m |= _BIT[c]
        return m

    def held_back(self) -> str | None:
        """Why some cards of the observer's hand may not be played now, as their refusal says it
        (``must follow ♥: you hold 9♥, A♥``); ``None`` when it is not their play or every card may be."""
        if self.phase != "play" or self.current_player != self.player:
            return None
        led = _SUIT[self.trick[0]] if self.trick else None
        why = held_back(self.hand, led, bool(self.played & _HEARTS_MASK), self.rules.hearts_anytime)
        return why[0] if why else None

    def outcome(self) -> Outcome | None:
        """The outcome once the game is over (the scores are public), else ``None``."""
        if self.phase != "over":
            return None
        return final_outcome(self.rules, self.totals, self.round_scores)

    def describe(self) -> str:
        """A plain-text view for a terminal, several lines."""
        rules = self.rules
        n = rules.players
        me = self.player

        def show(mask: int) -> str:
            idx = sorted(indices_of(mask), key=rules.sort_key)
            return " ".join(f"{CARDS[c].notation[:-1]}{CARDS[c].suit.symbol}" for c in idx) or "—"

        def seat(i: int) -> str:
            return f"P{i + 1}" + (" (you)" if i == me else "")

        lines = []
        if self.phase == "over":
            lines.append(f"Meio · game over after {rounds_text(rules.rounds)}")
        else:
            half = (
                ""
                if self.phase != "play"
                else (" · first half (tricks horizontal)" if self.half == 1 else " · second half (tricks vertical)")
            )
            started = f"{seat(self.start)} started"
            lines.append(f"Meio · round {self.round + 1} of {rules.rounds} · {started}{half}")
        scores = "  ".join(
            f"{seat(i)}: {self.totals[i]}"
            + (f" ({' + '.join(str(r[i]) for r in self.round_scores)})" if self.round_scores else "")
            for i in range(n)
        )
        lines.append(f"Scores: {scores}")
        if self.phase in ("play", "split"):
            won = "  ".join(f"{seat(i)}: {self.horizontal[i]} / {self.vertical[i]}" for i in range(n))
            lines.append(f"Tricks won (horizontal / vertical): {won}")
        if self.tricks:
            ld, cards, w = self.tricks[-1]
            shown = ", ".join(
                f"{seat((ld + i) % n)} {CARDS[c].notation[:-1]}{CARDS[c].suit.symbol}" for i, c in enumerate(cards)
            )
            lines.append(f"Last trick ({len(self.tricks)} of 13): {shown} → won by {seat(w)}")
        if self.phase == "play":
            if self.trick:
                shown = ", ".join(
                    f"{seat((self.leader + i) % n)} {CARDS[c].notation[:-1]}{CARDS[c].suit.symbol}"
                    for i, c in enumerate(self.trick)
                )
                lines.append(f"On the table: {shown}")
            else:
                lines.append(f"On the table: nothing yet; {seat(self.leader)} leads")
        if me != SPECTATOR:
            lines.append(f"Your hand: {show(self.hand)}")
        if self.aside:
            lines.append(f"Set aside for the second half: {show(self.aside)}")
        if 0 <= self.current_player < n and self.phase != "over":
            if self.current_player == me:
                what = (
                    "split: keep 7, set 6 aside (type: split <6 cards to set aside>)"
                    if self.phase == "split"
                    else f"play a card (type e.g. {_example(self.hand, rules)})"
                )
                lines.append(f"Your turn: {what}")
            else:
                lines.append(f"Waiting for {seat(self.current_player)}")
        return "\n".join(lines)


def _example(hand: int, rules: MeioRules) -> str:
    """A card of ``hand`` as typed (``7H``), for the prompt's example: the player's own."""
    cards = sorted(indices_of(hand), key=rules.sort_key)
    return CARDS[cards[0]].notation if cards else "7H"
