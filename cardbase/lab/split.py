"""``lab split``'s hand file; the advisor itself is :mod:`cardbase.sim.split` (``play meio``'s hint
at the split asks it too)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardbase.errors import InvalidData
from cardbase.sim.split import HAND, SplitAdvice, SplitScore, advise

__all__ = ["SplitAdvice", "SplitScore", "advise", "read_hand"]


def read_hand(path: Path, players: int | None = None) -> list[Any]:
    """The 13 cards of a hand file (a Meio deck file, one card a line: ``AH``, ``10C``); with
    ``players``, each must be in that table's deck."""
    from cardbase.decks.files import read_deck
    from cardbase.games.meio.cards import PlayingCard
    from cardbase.games.meio.masks import cards_of
    from cardbase.games.meio.rules import MeioRules

    text = read_deck(path)
    if text.game and text.game != "meio":
        raise InvalidData(
            str(path), writes=False, problems=[f"this is a {text.game} deck (its game: line), not a Meio hand"]
        )
    cards: list[Any] = []
    seen: set[Any] = set()
    problems = [f"line {p.line}: {p.message}" for p in text.problems if p.severity == "error" and p.line]
    if players is not None and text.players is not None and text.players != players:  # not read past
        problems.append(
            f"line {text.header_lines['players']}: the file is a hand of a {text.players}-player table, "
            f"not of {players} (--players)"
        )
    for line in text.lines:
        try:
            card = PlayingCard.parse(line.name)
        except ValueError as error:
            raise InvalidData(str(path), [f"line {line.line}: {error}"], writes=False) from None
        if card in seen or line.count > 1:
            problems.append(f"line {line.line}: {card} is given again (a hand holds each card once)")
        seen.add(card)
        cards += [card] * line.count
    if len(cards) != HAND:
        problems.append(f"a Meio hand is {HAND} cards; this file has {len(cards)}")
    if players is not None and not problems:
        deck = set(cards_of(MeioRules(players=players).deck_mask))
        if outside := [str(c) for c in cards if c not in deck]:
            problems.append(f"{', '.join(outside)}: not in the {players}-player deck")
    if problems:
        raise InvalidData(str(path), problems, writes=False)
    return cards
