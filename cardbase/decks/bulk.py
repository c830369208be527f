"""Edit a stored deck as text: the whole deck (every section) in the deck-list form, read back by the
reader of ``deck import``, compared with the deck as stored, and saved in one transaction, all or nothing."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardbase.decks.model import Deck, worded
from cardbase.decks.validate import ResolvedDeck

if TYPE_CHECKING:
    from cardbase.db.engine import Database

MAX_EDIT_CHARS = 1_000_000
"""The edit box holds at most this many characters (the bound of a deck file)."""


def edit_text(deck: Deck) -> str:
    """The deck as the edit box shows it: the deck-list text of ``deck export`` without its name
    (the deck keeps its name; Rename changes it)."""
    from cardbase.decks.text import write_text

    return "".join(line for line in write_text(deck).splitlines(keepends=True) if not line.startswith("name: "))


@dataclass
class BulkEdit:
    """An edit read and checked: the deck as stored, the deck the text makes, and what changes."""

    before: ResolvedDeck
    after: ResolvedDeck
    diff: dict[str, Any]
    notes: list[str]

    @property
    def changes(self) -> bool:
        d = self.diff
        same_header = (self.before.deck.format, self.before.deck.players) == (
            self.after.deck.format,
            self.after.deck.players,
        )
        return bool(d["added"] or d["removed"] or d["changed"] or self.retagged()) or not same_header

    def retagged(self) -> list[tuple[str, tuple[str, ...], tuple[str, ...]]]:
        """The entries whose tags the edit changes: (card name, tags before, tags after)."""
        before, after = self.before.deck.canonical(), self.after.deck.canonical()
        old, new = before.entry_tags, after.entry_tags
        names = {c.card_id: c.name for c in (*before.cards, *after.cards)}
        return [
            (names[cid], old.get(cid, ()), new.get(cid, ()))
            for cid in sorted(old.keys() | new.keys())
            if old.get(cid, ()) != new.get(cid, ())
        ]

    def lines(self) -> list[str]:
        """The change as a player reads it (``deck diff``'s lines), then any header change and notes."""
        from cardbase.decks.diff import diff_lines

        out = diff_lines(self.diff)
        for word, old, new in (
            ("format", self.before.deck.format, self.after.deck.format),
            ("players", self.before.deck.players, self.after.deck.players),
        ):
            if old != new:
                out.append(f"{word}: {old or 'the default'} → {new or 'the default'}")
        for name, old_tags, new_tags in self.retagged():
            out.append(f"tags of {name}: {', '.join(old_tags) or 'none'} → {', '.join(new_tags) or 'none'}")
        return out + [f"note: {n}" for n in self.notes]


def read_edit(database: Database, deck_id: int, text: str, source: str = "edit box") -> BulkEdit:
    """The edit ``text`` makes to stored deck ``deck_id``, without saving it. Every problem of the text (each
    with its line) is raised at once as ``InvalidData``; the deck's game is the stored deck's."""
    from cardbase.decks.diff import deck_diff
    from cardbase.decks.formats import find_format
    from cardbase.decks.service import read_deck_data, resolve_stored, resolve_text
    from cardbase.errors import InvalidData, UsageError, quoted

    if len(text) > MAX_EDIT_CHARS:
        raise UsageError(f"{source}: the deck text has at most {MAX_EDIT_CHARS:,} characters, not {len(text):,}")
    before = resolve_stored(database, deck_id)
    read = read_deck_data(text, source)
    notes = []
    if read.name is not None and read.name != before.deck.name:
        notes.append(f"line {read.header_lines.get('name')}: the deck keeps its name (Rename changes it)")
    after = resolve_text(database, read, before.game)
    problems = [p for p in after.problems if p.severity == "error"]
    if after.deck.format and find_format(after.game or before.game, after.deck.format) is None:
        named = after.deck.format
        problems.append(
            worded(
                "unknown-format",
                lambda game: f"{game(before.game)} has no format {quoted(named)}",
                before.game,
                read.header_lines.get("format"),
            )
        )
    if problems:
        problems.sort(key=lambda p: (p.line is None, p.line or 0))
        raise InvalidData(source, [str(p) for p in problems], found=problems).refusing(text)
    after.source = "edited"
    before.source = "stored"
    diff = deck_diff(before, after)
    return BulkEdit(before, after, diff, notes)


def save_edit(
    database: Database, deck_id: int, text: str, source: str = "edit box", expected: Collection[int] | None = None
) -> BulkEdit:
    """Replace stored deck ``deck_id`` by the deck ``text`` makes, in one transaction; nothing changes if any
    line has a problem (``InvalidData`` naming each line), or if the deck is at none of the ``expected``
    versions (``Stale``: the text was read from an older deck)."""
    from cardbase.decks.store import replace_cards

    edit = read_edit(database, deck_id, text, source)
    deck = edit.after.deck
    new = Deck(deck.game, deck.cards, edit.before.deck.name, deck.format, deck.players)
    replace_cards(database, deck_id, new, expected)
    return edit
