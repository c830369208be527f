"""The plain-text deck format, in the spirit of MTG Arena and Cockatrice text.

::

    # comments start with #
    game: mea
    name: Tidy Tiles
    format: standard
    3 Selounticia
    2x Crème Golem
    Chemical Vial            # no count means 1
    2 Pocket Sand            # tags: removal, cheap

An entry's trailing comment ``# tags: a, b`` gives the entry tags in this deck: a comment to the
readers of other tools (and to older cardbase), which skip it.

Meio hand splits use sections: ``[first half]`` (7 cards) and ``[second half]`` (6).
A ``(set)`` after a name picks the set: ``2 Crumb Goblin (demo)``.
Every malformed line is reported (not just the first) with its line number.

The forms other tools write read the same (see ``cardbase.decks.lists`` for the writers):
``1x Name`` and ``Name x1``; ``1 Name (SET) 123`` (the collector number is not needed here and is
skipped); ``SB: 2 Name`` (one sideboard line); a block header line ``Deck``, ``Sideboard``,
``Maybeboard`` (MTG Arena), ``// Sideboard`` (Moxfield) or YDK's ``#main`` / ``#extra`` / ``!side``,
each opening a section as ``[sideboard]`` does (``Deck`` and ``#main``: the main deck).
"""

from __future__ import annotations

import re
from dataclasses import replace

from cardbase.decks.model import Deck, DeckLine, DeckText, Problem, check_players
from cardbase.errors import counted, quoted
from cardbase.names import SET_CODE_PATTERN
from cardbase.textfiles import decode_text, split_lines, stray_break, stray_break_reason, without_mark

MAX_BYTES = 1_000_000
MAX_LINE = 300
MAX_COUNT = 999
HEADERS = ("game", "name", "format", "players", "author", "description")
NOT_KEPT = ("author", "description")
"""Headers other tools write that a deck here has no place for: refused on their line (they were read
and dropped), so that a ``# author: …`` comment keeps them in the file instead."""

_HEADER = re.compile(r"^(?P<key>[A-Za-z]+)\s*:\s*(?P<value>.*)$")
_SECTION = re.compile(r"^\[(?P<name>[^\]]*)\]$")
_PLAIN_COUNT = re.compile(r"^[0-9]+[xX×]?$")  # ASCII digits: \d takes every script's (٣ Name: a bad count)
_NUMBER_LIKE = re.compile(r"^[-+]?[\d.][\d.,eE+-]*[xX×]?$")
_SET = re.compile(  # the importer's rule, and Arena's collector number after it
    rf"^(?P<name>.*\S)\s+\((?P<set>{SET_CODE_PATTERN})\)(?:\s+[A-Za-z0-9★*-]{{1,12}})?$"
)
_NEGATIVE = re.compile(r"-0*[1-9]\d*")
"""A count below zero (``-2``; not ``-0`` or ``-.``, which are not counts at all)."""
_COUNT_AFTER = re.compile(r"^(?P<name>.*\S)\s+[xX×]\s?(?P<count>[0-9]{1,9})$")  # Name x1
_SIDEBOARD_LINE = re.compile(r"^SB:\s*(?P<rest>.*)$", re.IGNORECASE)  # SB: 2 Name
BLOCK_HEADERS: dict[str, str | None] = {
    "deck": None,
    "main": None,
    "main deck": None,
    "mainboard": None,
    "sideboard": "sideboard",
    "maybeboard": "maybe",
}
"""Other tools' block header lines (alone on a line, maybe after ``//``) and the section each opens."""
YDK_HEADERS: dict[str, str | None] = {"#main": None, "#extra": "extra", "!side": "sideboard"}
"""YDK's block headers; ``#extra`` has no place in our games' decks, and validation says so with its line."""


def decode_deck_bytes(raw: bytes, source: str) -> str:
    """The text of a deck file: UTF-8 with or without BOM, CRLF or LF; clear errors otherwise."""
    return decode_text(raw, source, "deck file", MAX_BYTES)


def parse_text(text: str, source: str = "<deck>", *, low: int = 1, high: int = MAX_COUNT) -> DeckText:
    """Read a text deck list; problems with lines are collected in ``DeckText.problems``. A count is
    ``low`` to ``high`` (a deck: 1 to ``MAX_COUNT``; a collection list reads with its own bounds)."""
    deck = DeckText(source)
    section: str | None = None
    for number, raw_line in enumerate(split_lines(without_mark(text)), start=1):
        line = raw_line.strip()
        if (stray := stray_break(raw_line)) is not None:  # a line ends at LF, CRLF or CR only (textfiles.LINE_END)
            deck.problems.append(Problem("bad-line", stray_break_reason(stray[1]), number))
            continue
        if len(line) > MAX_LINE:
            deck.problems.append(
                Problem(
                    "bad-line",
                    f"line is {counted(len(line), 'character')} long (at most {MAX_LINE})",
                    number,
                    "a card name is far shorter; is this a deck file?",
                )
            )
            continue
        block = _block_header(line)
        if block is not None:
            section = block[0]
            continue
        if not line or line.startswith(("#", "//")):
            continue
        header = _HEADER.match(line)
        if header and header.group("key").lower() in HEADERS:  # a value may hold " #": "name: Goblins #2"
            _read_header(deck, header.group("key").lower(), header.group("value").strip(), number)
            continue
        line, _, comment = line.partition(" #")  # an entry's trailing comment (``# tags: …`` gives its tags)
        line = line.rstrip()
        if m := _SECTION.match(line):
            section = " ".join(m.group("name").lower().split()) or None
            if section is None:  # reported; the cards below it count as the main deck's
                deck.problems.append(Problem("bad-line", "a section needs a name", number, "e.g. [first half]"))
            continue
        entry_section = section
        if sb := _SIDEBOARD_LINE.match(line):
            line, entry_section = sb.group("rest").strip(), "sideboard"
            if not line:
                deck.problems.append(Problem("bad-line", "'SB:' names no card", number, "SB: 2 Pep Talk"))
                continue
        entry = _read_entry(line, number, entry_section, deck, low, high)
        if entry is not None:
            tags = _read_tags(comment, number, deck)
            deck.lines.append(replace(entry, tags=tags) if tags else entry)
    return deck


def _block_header(line: str) -> tuple[str | None] | None:
    """The section a block header line opens (as a 1-tuple: the main deck is ``(None,)``), or None."""
    if line.lower() in YDK_HEADERS:
        return (YDK_HEADERS[line.lower()],)
    key = " ".join(line.removeprefix("//").strip().rstrip(":").lower().split())
    return (BLOCK_HEADERS[key],) if key in BLOCK_HEADERS else None


_TAGS = re.compile(r"^\s*tags\s*:(?P<tags>.*)$", re.IGNORECASE)


def _read_tags(comment: str, number: int, deck: DeckText) -> tuple[str, ...]:
    """The tags a ``# tags: removal, combo piece`` comment gives an entry (other comments give none)."""
    from cardbase.names import tag_list

    m = _TAGS.match(comment.lstrip("#"))
    if m is None:
        return ()
    try:
        return tuple(tag_list(m.group("tags")))
    except ValueError as error:
        deck.problems.append(Problem("bad-tag", str(error), number, "tags are separated by ','"))
        return ()


def _read_header(deck: DeckText, key: str, value: str, number: int) -> None:
    if key in deck.header_lines:
        deck.problems.append(
            Problem(
                "duplicate-header",
                f"{quoted(key)} is given again (first on line {deck.header_lines[key]})",
                number,
                "keep one",
            )
        )
        return
    deck.header_lines[key] = number
    if key in NOT_KEPT:
        deck.problems.append(
            Problem(
                "not-kept",
                f"{quoted(key)} is not kept: a deck here has no {key}, so the line would be lost",
                number,
                f"make it a comment (# {key}: …) to keep it in the file",
            )
        )
        return
    if not value:
        deck.problems.append(Problem("bad-header", f"{quoted(key)} has no value", number))
        return
    if key == "game":
        from cardbase.names import fold

        deck.game = fold(value)
    elif key == "name":
        deck.name = value
    elif key == "format":
        deck.format = value.lower()
    elif key == "players":
        try:
            deck.players = check_players(value, None)  # the game may come later; resolve checks it is Meio
        except ValueError as error:
            deck.problems.append(Problem("bad-header", str(error), number))


def _read_entry(
    line: str, number: int, section: str | None, deck: DeckText, low: int = 1, high: int = MAX_COUNT
) -> DeckLine | None:
    token, _, rest = line.partition(" ")
    rest = rest.strip()
    count, name = 1, line
    if _PLAIN_COUNT.match(token):
        if not rest:
            deck.problems.append(
                Problem(
                    "bad-line",
                    f"{quoted(line)} gives a count but no card name",
                    number,
                    "write the count, then the card name: 3 Selounticia",
                )
            )
            return None
        count, name = int(token.rstrip("xX×")), rest
        if count < low:
            deck.problems.append(
                Problem("bad-count", f"count must be at least {low}", number, "remove the line to leave the card out")
            )
            return None
        if count > high:
            deck.problems.append(
                Problem(
                    "bad-count",
                    f"count {token} is more than {high:,}",
                    number,
                    f"write a count from {low} to {high:,}",
                )
            )
            return None
    elif after := _COUNT_AFTER.match(line):
        return _read_entry(f"{after.group('count')} {after.group('name')}", number, section, deck, low, high)
    elif rest and _NUMBER_LIKE.match(token):
        deck.problems.append(
            Problem(
                "bad-count",
                f"count {quoted(token)} is {'below zero' if _NEGATIVE.fullmatch(token) else 'not a whole number'}",
                number,
                f"write a count from {low} to {high:,} before the name",
            )
        )
        return None
    set_code = None
    if s := _SET.match(name):
        name, set_code = s.group("name"), s.group("set").lower()
    return DeckLine(count, name, number, section, set_code)


def write_text(deck: Deck) -> str:
    """The deck as a text deck list that ``parse_text`` reads back to the same deck."""
    out = [f"game: {deck.game}"]
    if deck.name:
        out.append(f"name: {deck.name}")
    if deck.format:
        out.append(f"format: {deck.format}")
    if deck.players:
        out.append(f"players: {deck.players}")
    section: str | None = None
    for card in deck.canonical().cards:
        if card.section != section:
            out.append(f"[{card.section}]")
            section = card.section
        set_code = card.card_id.split("/")[1]
        tags = f"  # tags: {', '.join(card.tags)}" if card.tags else ""
        out.append(f"{card.count} {card.name} ({set_code}){tags}")
    return "\n".join(out) + "\n"
