"""Deck files: text and JSON forms read into ``DeckText``, a ``Deck`` written back, and share codes."""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardbase.decks.catalog import CatalogIndex
from cardbase.decks.model import MAX_DECK_CARDS, Deck, DeckCard, DeckLine, DeckText, Problem, check_players
from cardbase.decks.text import MAX_BYTES, parse_text, write_text
from cardbase.errors import Refused, Said, UnreadableInput, UsageError, plural, quoted, schema_message
from cardbase.names import fold, set_code, tag_list
from cardbase.textfiles import decode_text, load_json, read_bytes, without_mark


def deck_schema() -> dict[str, Any]:
    from cardbase.decks.json_form import DeckFileModel

    schema = DeckFileModel.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "cardbase deck file"
    return schema


def parse_json(text: str, source: str) -> DeckText:
    """Read the JSON deck form; a file that does not match the schema is unreadable."""
    from pydantic import ValidationError

    from cardbase.decks.json_form import DeckFileModel

    data = load_json(text, source)
    try:
        model = DeckFileModel.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        raise UnreadableInput(schema_message(source, dict(first))) from None
    deck = DeckText(source, model.game, model.name, model.format.lower() if model.format else None, model.players)
    if model.history:
        numbers = [v.number for v in model.history]
        if numbers != sorted(set(numbers)):
            raise UnreadableInput(f"{source}: history: the version numbers must rise, each once")
        deck.history = [v.model_dump() for v in model.history]
    for i, entry in enumerate(model.cards):
        section = " ".join(entry.section.lower().split()) if entry.section else None
        try:
            set_ = None if entry.set is None else set_code(entry.set)
        except ValueError as error:
            raise UnreadableInput(f"{source}: cards[{i + 1}].set: {error}") from None
        try:
            tags = tuple(tag_list(entry.tags or []))
        except ValueError as error:
            raise UnreadableInput(f"{source}: cards[{i + 1}].tags: {error}") from None
        deck.lines.append(DeckLine(entry.count, entry.name, None, section, set_, entry.id, tags))
    return deck


HISTORY_BYTES = 64 * 1024 * 1024
"""A deck JSON that carries its history may be this large (1,000 versions of a 40-card deck are about 3 MB)."""


def read_deck(path: Path) -> DeckText:
    """Read a deck file: text, JSON (by extension ``.json`` or a leading ``{``) or Cockatrice XML; 1 MB, or
    64 MiB for a deck JSON that carries its history."""
    raw = read_bytes(path, "deck file", HISTORY_BYTES if path.suffix.lower() == ".json" else MAX_BYTES)
    text = decode_text(raw, str(path), "deck file", HISTORY_BYTES)
    if path.suffix.lower() == ".json" or text.lstrip().startswith("{"):
        deck = parse_json(text, str(path))
        if len(raw) > MAX_BYTES and not deck.history:
            raise UnreadableInput(
                f"{path}: {len(raw):,} {plural(len(raw), 'byte')} is too large for a deck file (at most {MAX_BYTES:,})"
            )
        return deck
    if len(raw) > MAX_BYTES:
        raise UnreadableInput(
            f"{path}: {len(raw):,} {plural(len(raw), 'byte')} is too large for a deck file (at most {MAX_BYTES:,})"
        )
    return parse_deck_text(text, str(path))


def parse_deck_text(text: str, source: str) -> DeckText:
    """A deck given as text in any form read: JSON (a leading ``{``), ``.cod`` XML (a leading ``<``),
    else a deck list in our form or another tool's (``parse_text``)."""
    from cardbase.decks.lists import looks_like_xml, parse_cod

    text = without_mark(text)  # pasted as read without utf-8-sig: a file's mark is dropped as it is decoded
    if text.lstrip().startswith("{"):
        return parse_json(text, source)
    if looks_like_xml(text):
        return parse_cod(text, source)
    return parse_text(text, source)


def write_json(deck: Deck, history: list[dict[str, Any]] | None = None) -> str:
    """The deck as JSON that ``parse_json`` reads back to the same deck (with ``history``: its versions)."""
    cards = []
    for c in deck.canonical().cards:
        entry: dict[str, Any] = {"count": c.count, "name": c.name, "id": c.card_id}
        if c.section:
            entry["section"] = c.section
        if c.tags:
            entry["tags"] = list(c.tags)
        cards.append(entry)
    data: dict[str, Any] = {"game": deck.game}
    for key in ("name", "format", "players"):
        if getattr(deck, key) is not None:
            data[key] = getattr(deck, key)
    data["cards"] = cards
    if history is not None:
        data["history"] = history
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


EXPORT_FORMATS = ("text", "json", "code", "arena", "plain", "mtgo", "cod", "ydk")
"""The forms a deck is written in (``deck export --format``); ``cardbase.decks.lists`` says what the
other tools' forms hold."""
DECK_KINDS: dict[str, tuple[str, ...]] = {
    "text": (".txt",),
    "json": (".json",),
    "code": (".txt",),
    "arena": (".txt",),
    "plain": (".txt",),
    "mtgo": (".txt",),
    "cod": (".cod", ".xml"),
    "ydk": (".ydk",),
}
"""The endings of a deck file by its form (``cardbase.textfiles.output_kind``): ``read_deck`` reads a
``.json`` file as JSON, so a text list is never written under that name."""


EXPORT_FILES = {
    "text": ("txt", "text/plain; charset=utf-8"),
    "json": ("json", "application/json"),
    "code": ("code.txt", "text/plain; charset=utf-8"),
    "arena": ("arena.txt", "text/plain; charset=utf-8"),
    "plain": ("plain.txt", "text/plain; charset=utf-8"),
    "mtgo": ("mtgo.txt", "text/plain; charset=utf-8"),
    "cod": ("cod", "application/xml"),
    "ydk": ("ydk", "text/plain; charset=utf-8"),
}
"""Per export form: the file name's ending and the media type of a download of it."""


def write_deck(deck: Deck, fmt: str) -> str:
    """The deck in the form ``fmt`` (one of ``EXPORT_FORMATS``)."""
    from cardbase.decks.lists import WRITERS

    if fmt == "text":
        return write_text(deck)
    if fmt == "json":
        return write_json(deck)
    if fmt == "code":
        return encode(deck, None) + "\n"
    if fmt in WRITERS:
        return WRITERS[fmt](deck)
    raise UsageError(f"unknown deck format {quoted(fmt[:40])}; use {', '.join(EXPORT_FORMATS)}")


# --- share codes ----------------------------------------------------------------------------
# Like Hearthstone deck strings: base64url of varints. Bytes: version, game, players (0 = none),
# format name (varint length + UTF-8); then for each section (one, unnamed, for games without
# sections): the cards with 1 copy, the cards with 2, then the rest with their counts; each group
# a count followed by short ids in ascending order, each written as the gap from the one before.

CODE_VERSION = 4
"""Version 4 ends in a check (``CHECKED_FROM``); version 3 names cards by their 53-bit short ids
(``cardbase.db.models.short_id``), which no two cards of a catalog share; versions 1 and 2 named them
by 31-bit ones (``legacy_short_id``), which two cards of a large catalog can share. Version 2 added
Méa's side sections ([sideboard], [maybe]). Every version decodes: an old code's card is the one card
whose short id starts with its number."""
CHECKED_FROM = 4
"""Codes of this version on end in two bytes, the CRC-16 (CCITT) of every byte before them: a code
with a character changed (6 bits in a row: any burst under 17 bits is told), cut or lengthened is
refused as damaged instead of read as another deck (a changed count, a format ``stendard``)."""
_GAMES = ("mea", "meio", "meikyu")
_SECTIONS_BY_VERSION: dict[int, dict[str, tuple[str | None, ...]]] = {
    1: {"meio": (None, "first half", "second half")},
    2: {"meio": (None, "first half", "second half"), "mea": (None, "sideboard", "maybe")},
    3: {"meio": (None, "first half", "second half"), "mea": (None, "sideboard", "maybe")},
    4: {"meio": (None, "first half", "second half"), "mea": (None, "sideboard", "maybe")},
}


def _check(data: bytes) -> bytes:
    """The two check bytes of a code's ``data`` (``CHECKED_FROM``)."""
    import binascii

    return binascii.crc_hqx(data, 0xFFFF).to_bytes(2, "big")


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


class _Reader:
    def __init__(self, data: bytes):
        self.data, self.pos = data, 0

    def varint(self) -> int:
        shift = value = 0
        while True:
            if self.pos >= len(self.data):
                raise UsageError("deck code is cut short; copy the whole code")
            byte = self.data[self.pos]
            self.pos += 1
            value |= (byte & 0x7F) << shift
            if not byte & 0x80:
                return value
            shift += 7
            if shift > 63:
                raise UsageError("deck code holds a number too large; it is not a cardbase code")

    def bytes(self, n: int) -> bytes:
        if self.pos + n > len(self.data):
            raise UsageError("deck code is cut short; copy the whole code")
        chunk = self.data[self.pos : self.pos + n]
        self.pos += n
        return chunk


def encode(deck: Deck, short_ids: dict[str, int] | None) -> str:
    """A compact, versioned code for ``deck`` (base64url of varints over stable card ids)."""
    from cardbase.db.models import short_id

    deck = deck.canonical()
    try:
        check_players(deck.players, deck.game)
    except ValueError as error:  # a deck from an older database; new ones are checked on entry
        raise UsageError(f"cannot encode the deck: {error}") from None
    fmt = (deck.format or "").encode()
    out = bytearray([CODE_VERSION, _GAMES.index(deck.game), deck.players or 0])
    out += _varint(len(fmt)) + fmt
    for section in _SECTIONS_BY_VERSION[CODE_VERSION].get(deck.game, (None,)):
        entries = sorted(
            (short_ids[c.card_id] if short_ids else short_id(c.card_id), c.count)
            for c in deck.cards
            if c.section == section
        )
        for group in (1, 2, 0):
            chosen = [(sid, n) for sid, n in entries if (n == group if group else n > 2)]
            out += _varint(len(chosen))
            previous = 0
            for sid, n in chosen:
                out += _varint(sid - previous) + (b"" if group else _varint(n))
                previous = sid
    out += _check(bytes(out))
    return base64.urlsafe_b64encode(bytes(out)).decode().rstrip("=")


@dataclass(frozen=True)
class CodeContents:
    """A share code read but not yet looked up: its cards as ``(section, number, count)``, where
    the number is a short id (version 3) or a 31-bit legacy short id (versions 1 and 2)."""

    version: int
    game: str
    players: int | None
    format: str | None
    entries: tuple[tuple[str | None, int, int], ...]

    @property
    def legacy(self) -> bool:
        """Whether the numbers are legacy short ids."""
        return self.version < 3


MAX_CODE = 100_000
"""The longest share code or share link read: a 10,000-card deck's code is far shorter."""


def code_of(text: str) -> str:
    """The share code in ``text``: the code itself, or the ``code=`` of a share link as the web app
    makes it (``http://host:8765/decks/new?code=…``, also without the scheme and host)."""
    from urllib.parse import parse_qs, urlsplit

    text = text.strip()
    if len(text) > MAX_CODE:
        raise UsageError(f"a deck code or link has at most {MAX_CODE:,} characters, not {len(text):,}")
    if "?" not in text and "/" not in text:
        return text
    query = parse_qs(urlsplit(text).query)
    codes = query.get("code", [])
    if len(codes) != 1 or not codes[0].strip():
        raise UsageError(
            "not a deck code: a share link must carry one code=… (as the deck page's 'Link that opens this deck' does)"
        ).refusing(text)
    return codes[0]


def read_code(code: str) -> CodeContents:
    """What a share code (or a share link, see ``code_of``) holds; a bad or foreign code is a usage
    error saying why, refusing the code as given (where it was given is named by the caller)."""
    try:
        return _read_code(code)
    except UsageError as error:
        if error.value is None:
            error.refusing(code)
        raise


def _read_code(code: str) -> CodeContents:
    # base64's padding says nothing: a padded code is the code
    text = "".join(code_of(without_mark(code)).split()).rstrip("=")
    try:
        data = base64.b64decode(text + "=" * (-len(text) % 4), altchars=b"-_", validate=True)
    except (ValueError, TypeError):
        refused = Said(
            "not a deck code: it must be base64url text as `deck export --format code` prints",
            "not a deck code: it must be a deck's Share code, as its page gives it",
        )
        raise UsageError(refused).refusing(code) from None
    if not data:
        raise UsageError("empty deck code")
    damaged = "deck code is damaged or cut short (its check does not match); copy the whole code again"
    if base64.urlsafe_b64encode(data).decode().rstrip("=") != text:  # a last character's unused bits changed
        raise UsageError(damaged)
    reader = _Reader(data)
    version = reader.varint()
    if version > CODE_VERSION and (len(data) < reader.pos + 2 or _check(data[:-2]) != data[-2:]):
        raise UsageError(damaged)  # its first character changed reads as a newer version: the check tells
    if version > CODE_VERSION:
        raise UsageError(
            f"deck code version {version} is newer than this cardbase reads (versions 1 to {CODE_VERSION}):"
            " it was made by a newer cardbase; update cardbase to read it"
        )
    if version not in _SECTIONS_BY_VERSION:
        raise UsageError(
            f"deck code version {version} is not supported (this cardbase reads versions 1 to {CODE_VERSION})"
        )
    if version >= CHECKED_FROM:
        if len(data) < reader.pos + 2 or _check(data[:-2]) != data[-2:]:
            raise UsageError(damaged)
        data = data[:-2]
        reader.data = data
    game_index = reader.varint()
    if game_index >= len(_GAMES):
        raise UsageError("deck code names an unknown game")
    game = _GAMES[game_index]
    try:
        players = check_players(reader.varint() or None, game)
    except ValueError as error:
        raise UsageError(f"deck code is damaged: {error}") from None
    try:
        fmt = reader.bytes(reader.varint()).decode() or None
    except UnicodeDecodeError:
        raise UsageError("deck code is damaged (format name)") from None
    entries: list[tuple[str | None, int, int]] = []
    seen: set[tuple[str | None, int]] = set()
    total = 0
    for section in _SECTIONS_BY_VERSION[version].get(game, (None,)):
        for group in (1, 2, 0):
            number = 0
            for _ in range(reader.varint()):
                number += reader.varint()
                count = group or reader.varint()
                if count < 1 or count > 999:
                    raise UsageError("deck code is damaged (a count out of range)")
                total += count
                if version >= 3 and (section, number) in seen:  # encode writes none; not added up unseen
                    raise UsageError("deck code names a card twice in one section; it is damaged")
                seen.add((section, number))
                if total > MAX_DECK_CARDS:
                    raise UsageError(f"deck code holds more than {MAX_DECK_CARDS:,} cards, the most a deck may have")
                entries.append((section, number, count))
    if reader.pos != len(data):
        raise UsageError("deck code has extra bytes at the end; it is damaged")
    return CodeContents(version, game, players, fmt, tuple(entries))


def decode(code: str | CodeContents, index: CatalogIndex) -> Deck:
    """The deck a share code stands for, its cards looked up in ``index`` (which need hold only
    them: ``cardbase.decks.service.decode_code`` loads just those); a bad or foreign code, or a
    card the catalog lacks is refused (exit 1: the code was read), each saying why."""
    contents = code if isinstance(code, CodeContents) else read_code(code)
    by_section: dict[str | None, list[DeckCard]] = {}
    for section, number, count in contents.entries:
        found = [c for c in index.by_code_number(number, contents.legacy) if c.game == contents.game]
        if not found:
            kind = "old short id" if contents.legacy else "short id"
            raise Refused(
                f"deck code names a card this catalog does not have ({kind} {number}); import the set it comes from"
            )
        if len(found) > 1:
            names = " and ".join(sorted(f"{c.name} ({c.id})" for c in found))
            raise UsageError(
                f"deck code of version {contents.version} names {names} at once (in this catalog they share its "
                "31-bit short id); make the code again with `deck encode`, whose codes name each card alone"
            )
        card = found[0]
        by_section.setdefault(section, []).append(DeckCard(card.id, card.name, count, section))
    cards: list[DeckCard] = []
    for section in _SECTIONS_BY_VERSION[contents.version].get(contents.game, (None,)):
        cards += sorted(by_section.get(section, []), key=lambda c: (fold(c.name), c.card_id))
    return Deck(contents.game, tuple(cards), None, contents.format, contents.players)


def deck_to_text(deck: Deck, source: str) -> DeckText:
    """A resolved deck as an unresolved one (by card id), to validate decks from codes and the database."""
    text = DeckText(source, deck.game, deck.name, deck.format, deck.players)
    text.lines = [DeckLine(c.count, c.name, None, c.section, None, c.card_id, c.tags) for c in deck.cards]
    return text


__all__ = ["Problem", "deck_schema", "decode", "encode", "fold", "read_deck", "write_deck"]
