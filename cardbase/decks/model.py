"""Deck values: a deck as written (names and counts, with line numbers) and as resolved to catalog cards."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from cardbase.errors import quoted

Severity = Literal["error", "warning"]

MAX_DECK_CARDS = 10_000
"""The most cards a deck may list: decks of the three games hold 18 to 100; past this a deck is a
typo or an attack, and would make printing and simulating run for hours."""

SIDE_SECTIONS: dict[str, tuple[str, ...]] = {"mea": ("sideboard", "maybe")}
"""Sections kept with a deck but outside it: only the main deck counts for validation, stats and draws."""
MAIN_SECTION: dict[str, str] = {"mea": "main"}
"""The section name that means the main deck (cards outside any section are in it too)."""

PLAYER_COUNTS = (2, 3, 4)
"""Meio is for 2, 3 or 4 players (rulebook, Game Preparation); only Meio decks give a count."""


def check_players(value: object, game: str | None = "meio") -> int | None:
    """The player count ``value`` stands for (None for none), or ``ValueError`` saying why not.

    The one rule for every place a count enters: deck text ``players:``, deck JSON, share codes,
    decks in the database. Only ASCII digits count (``"²"`` is a Unicode digit that ``int()`` refuses).
    """
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValueError(f"players must be 2, 3 or 4, not {quoted(value)}")
    number: int | None = value if isinstance(value, int) else None
    if isinstance(value, str):
        text = value.strip()
        number = int(text) if text.isascii() and text.isdecimal() and len(text) <= 3 else None
    if number not in PLAYER_COUNTS:
        raise ValueError(f"players must be 2, 3 or 4, not {quoted(value)}")
    if game is not None and game != "meio":
        raise ValueError(f"'players' is for Meio decks, not {game}")
    return number


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a deck: a stable ``code``, a sentence, the line at fault and a fix hint;
    ``cards``: the cards it is about when they are many (the sentence gives their count; a page folds
    the list away, the CLI names the first few, ``--json`` gives them all).

    ``message`` and ``hint`` are the command line's words: a game named by its id (``mea``), a fix
    as a ``cardbase`` command. A page speaks to players: :attr:`text` and :attr:`tip` are the same
    sentence and hint in their words (the game's display name, a page to go to, not a command), set
    by :func:`worded` where they differ; :attr:`see` names the page the tip points to
    (``cards``: the card search for :attr:`query` in :attr:`game`; ``catalog``: the catalog's import),
    which the web links (the rules know no URLs). Both faces read the one problem."""

    code: str
    message: str
    line: int | None = None
    hint: str | None = None
    severity: Severity = "error"
    cards: tuple[str, ...] = ()
    game: str | None = None
    """The game the problem is about (its id), when it names one."""
    said: str | None = None
    """The sentence in players' words, when it differs from :attr:`message` (read :attr:`text`)."""
    advice: str | None = None
    """The hint in players' words, when it differs from :attr:`hint` (read :attr:`tip`)."""
    see: Literal["cards", "catalog"] | None = None
    """The page :attr:`tip` points to: the card search (for :attr:`query`), the catalog's import."""
    query: str | None = None
    """What the card search the tip points to looks for (the name written)."""

    @property
    def text(self) -> str:
        """The sentence for players: the game by its display name (``no Méa card named 'X'``)."""
        return self.said if self.said is not None else self.message

    @property
    def tip(self) -> str | None:
        """The hint for players: no ``cardbase`` command (``check the spelling in the card search``)."""
        return self.advice if self.advice is not None else self.hint

    def for_players(self) -> dict[str, Any]:
        """:meth:`as_dict` (the machine's code and the command line's words) with the players' words
        beside them: ``text``, ``tip``, ``game`` and the page the tip points to (the web's JSON)."""
        return self.as_dict() | {
            "text": self.text,
            "tip": self.tip,
            "game": self.game,
            "see": self.see,
            "query": self.query,
        }

    def as_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "message": self.message,
            "line": self.line,
            "hint": self.hint,
            "severity": self.severity,
            "cards": list(self.cards),
        }

    def named(self, shown: int = 6) -> str:
        """The message with its first ``shown`` cards named (a terminal's line): ``…: Bee, Cook and 29 more``."""
        if not self.cards:
            return self.message
        more = len(self.cards) - shown
        return f"{self.message}: {', '.join(self.cards[:shown])}" + (f" and {more} more" if more > 0 else "")

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line else ""
        hint = f" ({self.hint})" if self.hint else ""
        return f"{where}{self.code}: {self.named()}{hint}"


def game_title(game: str) -> str:
    """A game's name as players read it (``Méa`` for ``mea``); an id not known, as it is."""
    from cardbase.catalog.fields import GAME_NAMES

    return GAME_NAMES.get(game, game)


Naming = Callable[[str], str]
"""How a face names a game given its id: the id itself (the command line), :func:`game_title` (a page)."""


def _as_id(game: str) -> str:
    return game


def worded(
    code: str,
    say: Callable[[Naming], str],
    game: str,
    line: int | None = None,
    hint: str | Callable[[Naming], str] | None = None,
    severity: Severity = "error",
    cards: tuple[str, ...] = (),
    *,
    advice: str | None = None,
    see: Literal["cards", "catalog"] | None = None,
    query: str | None = None,
) -> Problem:
    """A problem about ``game`` whose sentence (and maybe hint) names a game or a format: ``say``
    words it given how to name a game (:data:`Naming`), once by id (the command line's
    :attr:`Problem.message`) and once by display name (the players' :attr:`Problem.text`);
    ``advice``, the hint for players where the command line's names a command. The one way a deck
    problem names a game, so that neither face shows the other's words."""
    message = say(_as_id)
    said = say(game_title)
    hint_text = hint(_as_id) if callable(hint) else hint
    advised = hint(game_title) if callable(hint) and advice is None else advice
    return Problem(
        code,
        message,
        line,
        hint_text,
        severity,
        cards,
        game,
        said if said != message else None,
        advised if advised != hint_text else None,
        see,
        query,
    )


@dataclass(frozen=True, slots=True)
class DeckLine:
    """One entry as written: ``3 Selounticia`` on line 7, maybe in a section, maybe with a set."""

    count: int
    name: str
    line: int | None = None
    section: str | None = None
    set: str | None = None
    card_id: str | None = None
    tags: tuple[str, ...] = ()


@dataclass
class DeckText:
    """A deck file as read, before its names are looked up in the catalog."""

    source: str
    game: str | None = None
    name: str | None = None
    format: str | None = None
    players: int | None = None
    lines: list[DeckLine] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    header_lines: dict[str, int] = field(default_factory=dict)
    history: list[dict[str, Any]] | None = None
    """The versions a deck JSON carried (``deck export --history``), kept when it is imported."""
    given: str | None = field(default=None, compare=False, repr=False)
    """The text it was read from, when a user gave it as text (pasted): what a refusal of the deck
    refuses (``CardbaseError.value``), so that a form or an API names the field it was given in."""

    @property
    def sections(self) -> list[str]:
        return list(dict.fromkeys(e.section for e in self.lines if e.section))


@dataclass(frozen=True, slots=True)
class DeckCard:
    """A catalog card in a deck, with how many copies (and its section, for split decks)."""

    card_id: str
    name: str
    count: int
    section: str | None = None
    tags: tuple[str, ...] = ()
    """Tags on the card's entries in this deck (``combo piece``), the same on each of its sections."""


@dataclass(frozen=True, slots=True)
class Deck:
    """A deck resolved to catalog cards: what round trips, encodes and validates.

    Entries of the same card in the same section are merged, in order of first appearance.
    """

    game: str
    cards: tuple[DeckCard, ...]
    name: str | None = None
    format: str | None = None
    players: int | None = None

    @property
    def size(self) -> int:
        return sum(c.count for c in self.cards)

    @property
    def main(self) -> Deck:
        """The deck without its side sections (Méa ``[sideboard]``, ``[maybe]``): what is played."""
        side = SIDE_SECTIONS.get(self.game, ())
        if not any(c.section in side for c in self.cards):
            return self
        return Deck(
            self.game, tuple(c for c in self.cards if c.section not in side), self.name, self.format, self.players
        )

    @property
    def side(self) -> dict[str, int]:
        """Cards in each side section (only the sections that hold any)."""
        out: dict[str, int] = {}
        for c in self.cards:
            if c.section in SIDE_SECTIONS.get(self.game, ()):
                out[c.section or ""] = out.get(c.section or "", 0) + c.count
        return out

    def canonical(self) -> Deck:
        """The same deck with merged entries (same card and section), cards outside sections first."""
        merged: dict[tuple[str, str | None], DeckCard] = {}
        order = list(dict.fromkeys(c.section for c in self.cards if c.section))
        tags: dict[str, list[str]] = {}
        for c in self.cards:
            tags.setdefault(c.card_id, []).extend(c.tags)
        for c in sorted(self.cards, key=lambda c: -1 if c.section is None else order.index(c.section)):
            key = (c.card_id, c.section)
            prev = merged.get(key)
            together = tuple(sorted(set(tags[c.card_id])))
            merged[key] = DeckCard(c.card_id, c.name, c.count + (prev.count if prev else 0), c.section, together)
        return Deck(self.game, tuple(merged.values()), self.name, self.format, self.players)

    @property
    def entry_tags(self) -> dict[str, tuple[str, ...]]:
        """Each tagged card's entry tags (card id → tags)."""
        return {c.card_id: c.tags for c in self.cards if c.tags}
