"""``cardbase play meio`` on a terminal: suits in colour (Rich; none when the output is
not a terminal or NO_COLOR is set), who won each trick, and a summary after each round."""

from __future__ import annotations

import re
from typing import Any

from cardbase.games.meio.cards import PlayingCard
from cardbase.games.meio.masks import CARDS
from cardbase.games.meio.observation import MeioObservation
from cardbase.sim.play import HELP, GameUI, Vocabulary

__all__ = ["HELP", "effects", "game_ui", "show", "styled", "write"]

RED_SUITS = "♥♦"
SUIT_STYLE = "bold red"


def card_label(card: PlayingCard) -> str:
    """``7♥``: the rank and the suit's symbol."""
    return f"{card.notation[:-1]}{card.suit.symbol}"


_NOTATION = re.compile(r"\b(10|[2-9AJQK])([SHDC])\b")
_SYMBOL = {card.notation[-1]: card.suit.symbol for card in CARDS}


def labelled(text: str) -> str:
    """``text`` (an action as typed, ``play 7H``, ``split 3S 5S … | …``) with each card written as
    the table shows it (``play 7♥``), which the parser reads as well."""
    return _NOTATION.sub(lambda m: m.group(1) + _SYMBOL[m.group(2)], text)


def styled(text: str) -> Any:
    """``text`` as Rich text with every card of a red suit in red (``7♥``, ``K♦``)."""
    from rich.text import Text

    out = Text(text)
    out.highlight_regex(rf"\b[0-9AJQK]{{1,2}}[{RED_SUITS}]", SUIT_STYLE)
    return out


def write(text: str) -> None:
    """Print a block of the game's text, suits in colour on a terminal."""
    from cardbase.sim.prompt import writer

    writer(styled)(text)


def show(observation: MeioObservation) -> None:
    write(observation.describe())


def _seat(i: int, me: int) -> str:
    return f"P{i + 1}" + (" (you)" if i == me else "")


def effects(before: MeioObservation, after: MeioObservation, done: str) -> list[str]:
    """Who won a trick that just ended, and the round's summary when the round ends."""
    me = before.player
    n = before.rules.players
    lines: list[str] = []
    if len(after.tricks) > len(before.tricks):
        leader, cards, winner = after.tricks[-1]
        played = ", ".join(f"{_seat((leader + i) % n, me)} {card_label(CARDS[c])}" for i, c in enumerate(cards))
        best = card_label(CARDS[cards[(winner - leader) % n]])
        half = "horizontal" if len(after.tricks) <= 7 else "vertical"
        lines.append(f"{_seat(winner, me)} wins trick {len(after.tricks)} with {best} ({played}); laid {half}")
    if len(after.round_scores) > len(before.round_scores):
        scores = after.round_scores[-1]
        lines.append(f"Round {len(after.round_scores)} over. Tricks won, first half / second half, and the score:")
        for i in range(n):
            h, v = after.horizontal[i], after.vertical[i]
            lines.append(f"  {_seat(i, me)}: {h} / {v} → {scores[i]} (|{h} − {v}|); total {after.totals[i]}")
        lines.append("  (lowest total wins)")
    return lines


def game_ui() -> GameUI:
    return GameUI(effects=effects, vocabulary=Vocabulary(("play", "split", "hint", "legal", "show", "help", "quit")))
