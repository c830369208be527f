"""Deck lists in other tools' forms: written for ``deck export --format``, and Cockatrice's ``.cod`` read.

The line forms (Arena's ``Deck``/``Sideboard`` blocks, ``SB:`` lines, YDK's ``#main``/``!side``)
are read by ``cardbase.decks.text.parse_text``; this module writes them, and reads ``.cod`` XML.

What each form means here:

- ``arena``: ``Deck`` then ``N Name (set)``; ``Sideboard`` and ``Maybeboard`` blocks for Méa's
  side sections. No game line: the game is told by the cards (or ``--game``).
- ``plain`` (alias ``mtgo``): ``N Name`` lines, the side sections under ``Sideboard`` / ``Maybeboard``.
- ``cod``: Cockatrice's XML, zone ``main`` and zone ``side`` (Méa's ``[sideboard]``).
- ``ydk``: ``#main``, ``#extra``, ``!side`` blocks, one line per copy. YDK names Yu-Gi-Oh! cards by
  passcode; our cards have none, so each line is the card's name and set.

A section a form has no place for (Meio's hands, Méa's ``[maybe]`` in ``cod`` and ``ydk``) is
refused with the section named: nothing is dropped on the way out either.
"""

from __future__ import annotations

from collections.abc import Callable
from xml.parsers import expat

from cardbase.decks.model import Deck, DeckCard, DeckLine, DeckText, Problem
from cardbase.decks.text import MAX_COUNT, MAX_LINE
from cardbase.errors import UnreadableInput, UsageError, quoted
from cardbase.games.base import whole_number

MAX_XML_DEPTH = 8
"""A ``.cod`` file is three elements deep; deeper nesting is not a deck."""
MAX_XML_ELEMENTS = 20_000
"""Elements in a ``.cod`` file: one per distinct card, far fewer than this."""

_BLOCK_NAMES = {"sideboard": "Sideboard", "maybe": "Maybeboard"}


def _blocks(deck: Deck, form: str, places: tuple[str | None, ...]) -> list[tuple[str | None, list[DeckCard]]]:
    """The deck's cards by section, main deck first; a section ``form`` has no place for is a usage error."""
    blocks: dict[str | None, list[DeckCard]] = {}
    for card in deck.canonical().cards:
        section = None if card.section == "main" else card.section
        if section not in places:
            raise UsageError(
                f"the {form} form has no place for the section [{section}]; export with --format text or json"
            )
        blocks.setdefault(section, []).append(card)
    return sorted(blocks.items(), key=lambda item: places.index(item[0]))


def _set(card: DeckCard) -> str:
    return card.card_id.split("/")[1]


def write_arena(deck: Deck) -> str:
    """MTG Arena's form: ``Deck`` then ``N Name (set)``; side sections in their own blocks."""
    out: list[str] = []
    for section, cards in _blocks(deck, "arena", (None, "sideboard", "maybe")):
        out += [*([""] if out else []), _BLOCK_NAMES.get(section or "", "Deck")]
        out += [f"{c.count} {c.name} ({_set(c)})" for c in cards]
    return "\n".join(out) + "\n"


def write_plain(deck: Deck) -> str:
    """``N Name`` lines (MTGO's text and most tools'), side sections under their header line."""
    out: list[str] = []
    for section, cards in _blocks(deck, "plain", (None, "sideboard", "maybe")):
        if section is not None:
            out += ["", _BLOCK_NAMES[section]]
        out += [f"{c.count} {c.name}" for c in cards]
    return "\n".join(out) + "\n"


def write_ydk(deck: Deck) -> str:
    """YDK's blocks, one line per copy, each the card's name and set (our cards have no passcodes)."""
    blocks = dict(_blocks(deck, "ydk", (None, "sideboard")))
    out = ["#created by cardbase", "#main"]
    out += [f"{c.name} ({_set(c)})" for c in blocks.get(None, []) for _ in range(c.count)]
    out += ["#extra", "!side"]
    out += [f"{c.name} ({_set(c)})" for c in blocks.get("sideboard", []) for _ in range(c.count)]
    return "\n".join(out) + "\n"


_COD_ZONES = {None: "main", "sideboard": "side"}


def write_cod(deck: Deck) -> str:
    """Cockatrice's ``.cod`` XML: the deck's name, zone ``main`` and zone ``side``."""
    from xml.sax.saxutils import escape, quoteattr  # here: it imports urllib.request, 0.1 s a deck read need not pay

    out = ['<?xml version="1.0" encoding="UTF-8"?>', '<cockatrice_deck version="1">']
    out.append(f"    <deckname>{escape(deck.name or '')}</deckname>")
    out.append("    <comments></comments>")
    for section, cards in _blocks(deck, "cod", (None, "sideboard")):
        out.append(f"    <zone name={quoteattr(_COD_ZONES[section])}>")
        out += [f"        <card number={quoteattr(str(c.count))} name={quoteattr(c.name)}/>" for c in cards]
        out.append("    </zone>")
    out.append("</cockatrice_deck>")
    return "\n".join(out) + "\n"


WRITERS: dict[str, Callable[[Deck], str]] = {
    "arena": write_arena,
    "plain": write_plain,
    "mtgo": write_plain,
    "cod": write_cod,
    "ydk": write_ydk,
}
"""The other tools' forms ``deck export --format`` writes, by name."""


def looks_like_xml(text: str) -> bool:
    """Whether a deck text is XML (a Cockatrice ``.cod`` file) rather than a deck list."""
    return text.lstrip().startswith("<")


_ZONE_SECTIONS = {"main": None, "side": "sideboard"}


def parse_cod(text: str, source: str = "<deck>") -> DeckText:
    """Read a Cockatrice ``.cod`` deck: zone ``main`` and zone ``side`` (our ``[sideboard]``).

    Read with expat hardened: a DTD (so any entity beyond XML's five) is refused, and so is nesting
    past ``MAX_XML_DEPTH`` or more than ``MAX_XML_ELEMENTS`` elements; malformed XML is
    ``UnreadableInput`` naming its line. A bad card (no name, a bad count) is a problem on its line.
    """
    deck = DeckText(source)
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    path: list[str] = []
    zone: list[str | None] = [None]
    elements = 0
    text_parts: list[str] = []

    def refuse(why: str) -> None:
        raise UnreadableInput(f"{source}: line {parser.CurrentLineNumber}: {why}")

    def doctype(*_: object) -> None:
        refuse("a .cod deck has no DOCTYPE (a DTD and its entities are refused)")

    def start(tag: str, attrs: dict[str, str]) -> None:
        nonlocal elements
        elements += 1
        path.append(tag)
        if len(path) > MAX_XML_DEPTH:
            refuse(f"elements nest deeper than {MAX_XML_DEPTH}; this is not a .cod deck")
        if elements > MAX_XML_ELEMENTS:
            refuse(f"more than {MAX_XML_ELEMENTS:,} elements; this is not a .cod deck")
        line = parser.CurrentLineNumber
        if len(path) == 1 and tag != "cockatrice_deck":
            refuse(f"the root element is <{tag[:40]}>, not <cockatrice_deck>")
        if tag == "zone":
            name = attrs.get("name", "")
            if name not in _ZONE_SECTIONS:
                deck.problems.append(
                    Problem(
                        "bad-line",
                        f"zone {quoted(name[:40])} is not part of a deck here",
                        line,
                        "the zones are main and side (our [sideboard])",
                    )
                )
            zone[0] = _ZONE_SECTIONS.get(name, "unknown")
        elif tag == "card":
            _read_card(deck, attrs, line, zone[0])
        text_parts.clear()

    def end(tag: str) -> None:
        if tag == "deckname" and path[-2:] == ["cockatrice_deck", "deckname"]:
            deck.name = "".join(text_parts).strip()[:MAX_LINE] or None
        path.pop()

    def chars(data: str) -> None:
        text_parts.append(data)

    parser.StartDoctypeDeclHandler = doctype
    parser.EntityDeclHandler = doctype
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = chars
    try:
        parser.Parse(text, True)
    except expat.ExpatError as error:
        raise UnreadableInput(
            f"{source}: line {error.lineno}: not well-formed XML ({expat.ErrorString(error.code)})"
        ) from None
    return deck


def _read_card(deck: DeckText, attrs: dict[str, str], line: int, section: str | None) -> None:
    name = attrs.get("name", "").strip()
    number = attrs.get("number", "1").strip()
    if section == "unknown":
        return  # the zone's problem is reported once, on its line
    if not name or len(name) > MAX_LINE:
        deck.problems.append(
            Problem("bad-line", f"a card needs a name of 1 to {MAX_LINE} characters", line, 'name="Crumb Goblin"')
        )
        return
    if not (number.isascii() and whole_number(number, MAX_COUNT)):
        deck.problems.append(
            Problem(
                "bad-count",
                f"count {quoted(number[:20])} of {quoted(name)} is not a whole number from 1 to {MAX_COUNT}",
                line,
                'number="3"',
            )
        )
        return
    deck.lines.append(DeckLine(int(number), name, line, section))
