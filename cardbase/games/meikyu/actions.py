"""Meikyu's actions: one frozen value per kind, its text the notation (``quest Den of the Geister
with Bee``); ``parse_action`` in :mod:`cardbase.games.meikyu.notation` reads them back."""

from __future__ import annotations

from dataclasses import dataclass

from cardbase.games.meikyu.codes import (
    A_GIVE,
    A_HANDLIMIT,
    A_HOSPITAL,
    A_KEEP,
    A_LANDCAP,
    A_ORDER,
    A_REFUGEE,
    A_TSUNAMI,
)

# --- actions -----------------------------------------------------------------------


def _cards_text(cards: tuple[str, ...], lab: str | None) -> str:
    return ", ".join([*cards, *([f"{lab} as character"] if lab else [])])


@dataclass(frozen=True, slots=True)
class Roll:
    """Chance: a die shows ``value``."""

    value: int

    def __str__(self) -> str:
        return f"roll {self.value}"


@dataclass(frozen=True, slots=True)
class DrawCard:
    """Chance: ``card`` comes off the Kingdom pile."""

    card: str

    def __str__(self) -> str:
        return f"draw {self.card}"


@dataclass(frozen=True, slots=True)
class Reveal:
    """Chance: ``room`` is turned face up from the Meikyu pile."""

    room: str

    def __str__(self) -> str:
        return f"reveal {self.room}"


@dataclass(frozen=True, slots=True)
class Quest:
    """Quest a face-up room with cards (names in alphabetical order); ``lab``: an item
    played as a 2-sword character through the Laboratory."""

    room: str
    cards: tuple[str, ...]
    lab: str | None = None

    def __str__(self) -> str:
        return f"quest {self.room} with {_cards_text(self.cards, self.lab)}"


@dataclass(frozen=True, slots=True)
class Develop:
    """Develop one of your lands (by room name) with character cards."""

    land: str
    cards: tuple[str, ...]

    def __str__(self) -> str:
        return f"develop {self.land} with {', '.join(self.cards)}"


@dataclass(frozen=True, slots=True)
class Attack:
    """Aggression on seat ``target``: for ``land`` (None when the defender chooses),
    with cards, made possible ``by`` an aggression card's name or ``Council Chamber``."""

    target: int
    land: str | None
    cards: tuple[str, ...]
    lab: str | None
    by: str

    def __str__(self) -> str:
        where = f" {self.land}" if self.land else ""
        return f"attack P{self.target + 1}{where} with {_cards_text(self.cards, self.lab)} by {self.by}"


@dataclass(frozen=True, slots=True)
class Defend:
    """The defender's cards (none: the die alone)."""

    cards: tuple[str, ...] = ()
    lab: str | None = None

    def __str__(self) -> str:
        return f"defend with {_cards_text(self.cards, self.lab)}" if self.cards or self.lab else "defend"


@dataclass(frozen=True, slots=True)
class MixedArea:
    """Discard the Mixed Area: seat ``target`` loses a turn."""

    target: int

    def __str__(self) -> str:
        return f"mixed area P{self.target + 1}"


@dataclass(frozen=True, slots=True)
class Word:
    """An action that is one word: resupply, map, amulet, pass, draw, tomb."""

    word: str

    def __str__(self) -> str:
        return self.word


@dataclass(frozen=True, slots=True)
class Choose:
    """Pick one card or land: ``keep``, ``return``, ``discard`` (a Kingdom card),
    ``discard land``, ``give`` (a land, by room name)."""

    verb: str
    name: str

    def __str__(self) -> str:
        return f"{self.verb} {self.name}"


RESUPPLY = Word("resupply")
MAP = Word("map")
AMULET = Word("amulet")
PASS = Word("pass")
DRAW = Word("draw")
TOMB = Word("tomb")
WORDS = {w.word: w for w in (RESUPPLY, MAP, AMULET, PASS, DRAW, TOMB)}
CARD_VERBS = ("keep", "return", "discard")
LAND_VERBS = ("discard land", "give")
COUNCIL = "Council Chamber"
_CHOICE_VERBS = {
    A_KEEP: "keep",
    A_HOSPITAL: "return",
    A_ORDER: "discard",
    A_HANDLIMIT: "discard",
    A_REFUGEE: "discard",
    A_TSUNAMI: "give",
    A_GIVE: "give",
    A_LANDCAP: "discard land",
}

MeikyuAction = Roll | DrawCard | Reveal | Quest | Develop | Attack | Defend | MixedArea | Word | Choose
_ACTION_CLASSES = (Roll, DrawCard, Reveal, Quest, Develop, Attack, Defend, MixedArea, Word, Choose)
