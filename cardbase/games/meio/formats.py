"""Meio's formats: the deck for 2, 3 or 4 players, and a hand split 7 + 6 from its deal."""

from __future__ import annotations

from cardbase.errors import counted
from cardbase.games.formats import Format
from cardbase.games.meio.cards import FIRST_HALF, HAND_SIZE, PLAYER_COUNTS, SECOND_HALF, deck_for
from cardbase.names import fold

FIRST_SECTION = "first half"
SECOND_SECTION = "second half"


def _deck(players: int) -> Format:
    cards = deck_for(players)
    return Format(
        game="meio",
        name=f"{players}-players",
        description=f"The deck for {counted(players, 'player')}: {counted(len(cards), 'card')}, "
        f"{'A–7' if players == 2 else 'A–10' if players == 3 else 'A–K'} of each suit, one of each.",
        min_cards=len(cards),
        max_cards=len(cards),
        copy_limit=1,
        allowed_cards=frozenset(fold(c.name) for c in cards),
    )


def _hand(players: int) -> Format:
    return Format(
        game="meio",
        name=f"hand-{players}-players",
        description=f"A hand split for {counted(players, 'player')}: {HAND_SIZE} cards from the {players}-player deck, "
        f"{FIRST_HALF} in the first half and {SECOND_HALF} in the second, no card twice.",
        min_cards=HAND_SIZE,
        max_cards=HAND_SIZE,
        copy_limit=1,
        allowed_cards=frozenset(fold(c.name) for c in deck_for(players)),
        sections={FIRST_SECTION: FIRST_HALF, SECOND_SECTION: SECOND_HALF},
    )


FORMATS = {f.name: f for p in PLAYER_COUNTS for f in (_deck(p), _hand(p))}
FORMATS["standard"] = FORMATS["4-players"]
DEFAULT = "standard"
SECTIONS = (FIRST_SECTION, SECOND_SECTION)


def format_for(players: int | None, split: bool) -> str:
    """The format name for a deck file that gives ``players`` and has (or lacks) a split."""
    players = players or 4
    return f"hand-{players}-players" if split else f"{players}-players"
