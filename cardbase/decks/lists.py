"""Deck lists in other tools' forms: written for ``deck export --format``, and Cockatrice's ``.cod`` read.

The line forms (Arena's ``Deck``/``Sideboard`` blocks, ``SB:`` lines, YDK's ``#main``/``!side``)
are read by ``cardbase.decks.text.parse_text``; this module writes them, and reads ``.cod`` XML.

What each form means here:

- ``arena``: ``Deck`` then ``N Name (set)``; ``Sideboard`` and ``Maybeboard`` blocks for Méa's
  side sections. No game line: the game is told by the cards (or ``--game``).
- ``plain`` (alias ``mtgo``): ``N Name`` lines, the side sections under ``Sideboard`` / ``Maybeboard``.
- ``cod``: Cockatrice's XML, zone ``main`` and zone ``side`` (Méa's ``[sideboard]``), each card with its
  set as ``setShortName``.
- ``ydk``: ``#main``, ``#extra``, ``!side`` blocks, one line per copy. YDK names Yu-Gi-Oh! cards by
  passcode; our cards have none, so each line is the card's name and set.

A section a form has no place for (Meio's hands, Méa's ``[maybe]`` in ``cod`` and ``ydk``) is
refused with the section named: nothing is dropped on the way out either.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from xml.parsers import expat

from cardbase.decks.model import Deck, DeckCard, DeckLine, DeckText, Problem
from cardbase.decks.text import MAX_COUNT, MAX_LINE
from cardbase.errors import Said, UnreadableInput, UsageError, counted, quoted
from cardbase.games.base import whole_number
from cardbase.names import set_code

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
            refused = f"the {form} form has no place for the section [{section}]"
            raise UsageError(
                Said(f"{refused}; export with --format text or json", f"{refused}; download it as text or JSON")
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
    """Cockatrice's ``.cod`` XML: the deck's name, zone ``main`` and zone ``side``, a card's set as ``setShortName``."""
    from xml.sax.saxutils import escape, quoteattr  # here: it imports urllib.request, 0.1 s a deck read need not pay

    out = ['<?xml version="1.0" encoding="UTF-8"?>', '<cockatrice_deck version="1">']
    out.append(f"    <deckname>{escape(deck.name or '')}</deckname>")
    out.append("    <comments></comments>")
    for section, cards in _blocks(deck, "cod", (None, "sideboard")):
        out.append(f"    <zone name={quoteattr(_COD_ZONES[section])}>")
        out += [
            f"        <card number={quoteattr(str(c.count))} name={quoteattr(c.name)} "
            f"setShortName={quoteattr(_set(c))}/>"
            for c in cards
        ]
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
_COD_ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "cockatrice_deck": ("version",),
    "deckname": (),
    "zone": ("name",),
    "card": ("number", "name", "setShortName", "collectorNumber", "uuid"),
}
"""The elements of a ``.cod`` deck read here and the attributes each may have. A card's
``setShortName`` is its set; ``collectorNumber`` and ``uuid`` name a printing, which our cards do not
have (as Arena's collector number, not needed here). Anything else is a problem on its line."""
_COD_PARENTS = {"deckname": "cockatrice_deck", "zone": "cockatrice_deck", "card": "zone"}
_COD_NOTES = frozenset({"comments", "bannerCard", "tags", "lastLoadedTimestamp"})
"""Cockatrice's own notes on a deck (its comments, the card it shows as the deck's banner, its tags,
when it was last opened): read past with what they hold, as a text list's ``#`` comments are."""


@dataclass
class _Element:
    """An element of a ``.cod`` file being read: its tag, line, text and whether it holds elements."""

    tag: str
    line: int
    text: list[str] = field(default_factory=list)
    children: bool = False
    reported: bool = False
    note: bool = False  # one of Cockatrice's notes on the deck, or inside one: read past


def parse_cod(text: str, source: str = "<deck>") -> DeckText:
    """Read a Cockatrice ``.cod`` deck: zone ``main`` and zone ``side`` (our ``[sideboard]``).

    Read with expat hardened: a DTD (so any entity beyond XML's five) is refused, and so is nesting
    past ``MAX_XML_DEPTH`` or more than ``MAX_XML_ELEMENTS`` elements; malformed XML is
    ``UnreadableInput`` naming its line. A bad card (no name, a bad count) is a problem on its line.
    Nothing is dropped or overridden unseen: a second ``<deckname>``, a ``<zone>`` inside a zone, a
    ``<card>`` outside a zone, an element or attribute a deck here has no place for (an empty element
    aside) is a problem on its line. Cockatrice's notes on a deck (``_COD_NOTES``) are read past, as a
    text list's ``#`` comments.
    """
    deck = DeckText(source)
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    path: list[_Element] = []
    zone: list[str | None] = [None]
    elements = 0
    deckname_line: list[int] = []

    def refuse(why: str) -> None:
        raise UnreadableInput(f"{source}: line {parser.CurrentLineNumber}: {why}")

    def problem(why: str, line: int, hint: str = "remove it: a deck here has no place for it") -> None:
        deck.problems.append(Problem("bad-line", why, line, hint))

    def doctype(*_: object) -> None:
        refuse("a .cod deck has no DOCTYPE (a DTD and its entities are refused)")

    def misplaced(tag: str, line: int) -> bool:
        """Whether ``tag`` is out of its place (a problem reported on ``line``)."""
        parent = path[-2].tag if len(path) > 1 else None
        if tag not in _COD_PARENTS:
            return False
        want = _COD_PARENTS[tag]
        if parent == want:
            return False
        if tag == "card":
            problem("a <card> outside a <zone>: the part of the deck it is in is not said", line, "put it in a <zone>")
        elif tag == "zone" and parent == "zone":
            problem(f"a <zone> inside a <zone> (line {path[-2].line})", line, "close the first zone before")
        else:
            problem(f"a <{tag}> inside <{parent}>; it belongs in <{want}>", line, f"move it into <{want}>")
        return True

    def start(tag: str, attrs: dict[str, str]) -> None:
        nonlocal elements
        elements += 1
        line = parser.CurrentLineNumber
        if path:
            path[-1].children = True
        on_top = len(path) == 1 and path[0].tag == "cockatrice_deck"
        path.append(_Element(tag, line, note=(tag in _COD_NOTES and on_top) or bool(path and path[-1].note)))
        if len(path) > MAX_XML_DEPTH:
            refuse(f"elements nest deeper than {MAX_XML_DEPTH}; this is not a .cod deck")
        if elements > MAX_XML_ELEMENTS:
            refuse(f"more than {MAX_XML_ELEMENTS:,} elements; this is not a .cod deck")
        if len(path) == 1 and tag != "cockatrice_deck":
            refuse(f"the root element is <{tag[:40]}>, not <cockatrice_deck>")
        if path[-1].note:
            return
        if tag not in _COD_ATTRIBUTES:
            if any(e.tag not in _COD_ATTRIBUTES for e in path[:-1]):
                path[-1].reported = True  # inside an element reported already
            elif attrs:
                problem(f"<{tag[:40]}> is not part of a .cod deck read here", line)
                path[-1].reported = True
            return  # its text and elements are reported when it ends
        extra = [a for a in attrs if a not in _COD_ATTRIBUTES[tag]]
        if extra:
            problem(f"<{tag}> has the attribute {quoted(extra[0][:40])}, which a deck here has no place for", line)
        if misplaced(tag, line):
            if tag == "zone":
                zone[0] = "unknown"  # its cards are not read; the zone is reported
            return
        if tag == "deckname":
            if deckname_line:
                problem(f"a second <deckname> (the first is on line {deckname_line[0]})", line, "keep one")
            deckname_line.append(line)
        elif tag == "zone":
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

    def end(tag: str) -> None:
        element = path.pop()
        said = "".join(element.text).strip()
        if element.note:
            return
        if tag not in _COD_ATTRIBUTES:
            if (said or element.children) and not element.reported:
                problem(f"<{tag[:40]}> is not part of a .cod deck read here", element.line)
        elif tag == "deckname":
            if len(said) > MAX_LINE:
                problem(
                    f"the deck name is {counted(len(said), 'character')} long (at most {MAX_LINE})",
                    element.line,
                    "shorten",
                )
            elif len(deckname_line) == 1 and not (path and path[-1].tag != "cockatrice_deck"):
                deck.name = said or None
        elif said:
            problem(f"<{tag}> holds text ({quoted(said[:40])}), which a deck here has no place for", element.line)
        if tag == "zone":
            zone[0] = None

    def chars(data: str) -> None:
        if path:
            path[-1].text.append(data)

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
    given_set = attrs.get("setShortName", "").strip()
    card_set = None
    if given_set:
        try:
            card_set = set_code(given_set)
        except ValueError as error:
            deck.problems.append(Problem("bad-line", f"setShortName of {quoted(name)}: {error}", line))
            return
    deck.lines.append(DeckLine(int(number), name, line, section, card_set))
