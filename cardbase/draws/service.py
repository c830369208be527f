"""What the draws command does apart from the CLI: read the deck, match the needs' queries, build the pile.

A need's query means exactly what ``cards search`` means: its compiled condition is run against the
card table, restricted to the deck's cards. An unknown value never satisfies a comparison, so a
card with an unknown cost is not "cost<=3"; the notes say when the pile has such cards.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardbase.decks.validate import ResolvedDeck
from cardbase.draws.exact import Kind, Need
from cardbase.draws.openings import PileCard
from cardbase.errors import Said, UsageError, counted, plural, prefixed, quoted
from cardbase.games.base import is_demo, whole_number

if TYPE_CHECKING:
    from cardbase.db.engine import Database

# A count, an optional x, space, then the query. Possessive, so each text is read one way in linear
# time (the backtracking ``\s*(\d+)\s*[x×]?\s+(.*\S)`` took 98 s on a count followed by 2,000 spaces).
_NEED = re.compile(r"\s*+([0-9]++)(?:\s*+[x×]\s++|\s++)(.*\S)\s*+", re.S)
MAX_NEED_COUNT = 10**6
"""The largest count a need is read with (a deck holds at most 10,000 cards)."""
# Cards that are not drawn: Méa tiles are the board, Meikyu lands are the Meikyu pile, not the Kingdom pile.
NOT_DRAWN = {"mea": ("tile",), "meikyu": ("land",)}
_EXAMPLE_FIELDS = ("cost", "bravery", "wits", "level", "points", "attack", "defence", "rank")
NOT_DRAWN_WHY = {"tile": "tiles are the board, not the deck", "land": "lands are the Meikyu pile, not the Kingdom pile"}


@dataclass
class Setup:
    """A deck ready for draws: its pile (the cards drawn), the needs and what to tell the user."""

    source: str
    name: str
    game: str
    players: int | None
    cards: list[PileCard]
    infos: list[Any]  # the CardInfo of each pile card, in the same order
    needs: list[Need] = field(default_factory=list)
    matching: list[int] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def size(self) -> int:
        return sum(c.count for c in self.cards)

    def for_players(self, players: int | None, option: str = "--players") -> None:
        """Draw as in a game of ``players`` (Meio: the deck it deals; Meikyu: players sharing the Kingdom
        pile); Méa has no such setting, a usage error naming ``option``."""
        if players is None:
            return
        if self.game == "mea":
            raise UsageError(f"{option} is for Meikyu (players sharing the Kingdom pile) and Meio")
        if self.game == "meio":
            self.players = players

    def need_dicts(self, each: tuple[Any, ...] | None = None) -> list[dict[str, Any]]:
        out = []
        for i, (need, n) in enumerate(zip(self.needs, self.matching, strict=True)):
            d: dict[str, Any] = {"kind": str(need.kind), "count": need.count, "query": need.label, "matching": n}
            if each is not None:
                d["probability"] = float(each[i])
            out.append(d)
        return out


def parse_need(text: str, kind: Kind) -> Need:
    """``"2 t:monster cost<=3"`` → a need of 2; a query without a count needs 1."""
    if not text.strip():
        raise UsageError(f'--{_option(kind)} needs a count and a query, e.g. "2 t:monster cost<=3"')
    m = _NEED.fullmatch(text)
    if m:
        count = whole_number(m.group(1), MAX_NEED_COUNT)
        if count is None:
            raise UsageError(f"--{_option(kind)} {quoted(m.group(1))}: a count is at most {MAX_NEED_COUNT:,}")
        return Need(count, kind, m.group(2).strip(), text)
    if (m := re.match(r"\s*(\S+)\s", text)) and m.group(1).isdecimal() and not m.group(1).isascii():  # ٣ (Arabic 3)
        raise UsageError(f"--{_option(kind)} {quoted(m.group(1))}: a count is written in digits 0-9")
    if re.fullmatch(r"\s*\d+\s*", text):
        raise UsageError(f'--{_option(kind)} {quoted(text.strip())}: a count needs a query after it, e.g. "2 t:assist"')
    return Need(1, kind, text.strip(), text)


def _option(kind: Kind) -> str:
    return {Kind.AT_LEAST: "need", Kind.AT_MOST: "at-most", Kind.EXACTLY: "exactly"}[kind]


def load(database: Database, path: Path, game: str | None = None) -> ResolvedDeck:
    """Read and resolve a deck file; a deck with errors is ``InvalidData`` (exit 1) listing them."""
    from cardbase.decks.service import resolve_file_or_fail

    return resolve_file_or_fail(database, path, game)


def matching_ids(
    database: Database, query: str, game: str, ids: list[str], entry_tags: dict[str, set[str]] | None = None
) -> set[str]:
    """The ids among ``ids`` that ``query`` matches (the search language, run by the database); ``tag:``
    also matches the deck's ``entry_tags`` (tag → card ids)."""
    from sqlalchemy import select

    from cardbase.db.search import compile_node, parse
    from cardbase.db.tables import card

    condition = compile_node(parse(query), game, entry_tags=entry_tags)  # on the Core card table
    stmt = select(card.c.id).where(condition).where(card.c.id.in_(ids))
    with database.read() as conn:
        return set(conn.scalars(stmt))


def setup(database: Database, resolved: ResolvedDeck, needs: list[Need], source: str) -> Setup:
    """The deck's pile with each card's needs mask; a bad need is a ``UsageError`` (exit 2)."""
    game = resolved.game
    counts: Counter[str] = Counter()
    for card in resolved.deck.main.cards:
        counts[card.card_id] += card.count
    skipped: Counter[str] = Counter()
    drawn: dict[str, int] = {}
    left_out: list[str] = []
    for card_id, n in counts.items():
        info = resolved.cards[card_id]
        if info.type in NOT_DRAWN.get(game, ()):
            skipped[info.type] += n
            left_out.append(card_id)
        else:
            drawn[card_id] = n
    notes = [f"{counted(n, f'{t} card')} left out: {NOT_DRAWN_WHY[t]}" for t, n in sorted(skipped.items())]
    if not drawn:
        raise UsageError(f"{source}: the deck has no cards that are drawn")
    ids = list(drawn)
    masks = dict.fromkeys(ids, 0)
    matching: list[int] = []
    unknown = _unknown(resolved, drawn)
    from cardbase.db.tags import by_tag
    from cardbase.errors import QueryError

    tagged = by_tag(resolved.deck.entry_tags)
    for i, need in enumerate(needs):
        try:
            hits = matching_ids(database, need.label, game, ids, tagged)
        except QueryError as error:  # a term the deck's game refuses (t:monster of Meio): named by its option
            raise error.refusing(need.given) from None
        for card_id in hits:
            masks[card_id] |= 1 << i
        n = sum(drawn[c] for c in hits)
        if not n:
            where = " of the Kingdom pile" if game == "meikyu" else " of the deck"
            refusal = f"{_option(need.kind)} {quoted(need.label)} matches no card{where}"
            if left_out and matching_ids(database, need.label, game, left_out, tagged):
                types = sorted({resolved.cards[c].type for c in left_out})
                refusal += f"; it matches only cards that are not drawn ({', '.join(NOT_DRAWN_WHY[t] for t in types)})"
            elif unknown and _compares(need.label):
                refusal = prefixed(f"{refusal}; ", unknown)  # with its page words (Said)
            raise UsageError(refusal).refusing(need.given)
        matching.append(n)
    size = sum(drawn.values())
    for need, n in zip(needs, matching, strict=True):
        if need.count > size:
            raise UsageError(
                f"{_option(need.kind)} {need.count} {quoted(need.label)}: the deck has only {counted(size, 'card')}"
            )
        if need.kind is not Kind.AT_MOST and need.count > n:
            notes.append(
                f"only {counted(n, 'card')} {plural(n, 'matches', 'match')} {quoted(need.label)}, "
                f"so {need.kind} {need.count} cannot happen"
            )
    if unknown and any(_compares(n.label) for n in needs):
        notes.append(unknown)
    demo = sum(n for card_id, n in drawn.items() if is_demo(resolved.cards[card_id]))
    if demo:
        notes.append(demo_note(demo, size))
    ids.sort(key=lambda c: (resolved.cards[c].name, c))
    infos = [resolved.cards[c] for c in ids]
    cards = [PileCard(info.name, drawn[info.id], masks[info.id], info.type == "open") for info in infos]
    name = resolved.deck.name or Path(source).stem
    return Setup(source, name, game, resolved.deck.players, cards, infos, needs, matching, notes)


def demo_note(demo: int, size: int) -> str:
    """What draws say of a pile holding demo cards: the chances are of cards cardbase made."""
    return (
        f"{demo} of the {counted(size, 'card')} drawn are demo cards (cardbase's demo set, not published Méa cards): "
        "the chances are of the values cardbase gave them"
    )


def _compares(query: str) -> bool:
    """Whether a query reads a card's value (``cost<=3``, ``wits:2``, ``suit:h``), where an unknown value
    matters: a comparison, or a field the search reads a value of."""
    from cardbase.db.search import value_field

    if re.search(r"[<>=]|[A-Za-z_]:\s*-?\d", query):
        return True
    return any(value_field(key) for key in re.findall(r"([A-Za-z_]+)\s*:", query))


def _unknown(resolved: ResolvedDeck, drawn: dict[str, int]) -> str:
    """A sentence about the drawn cards with unknown values ("" when there are none)."""
    by_field: Counter[str] = Counter()
    for card_id, n in drawn.items():
        for f in resolved.cards[card_id].unknown:
            if f != "copies":  # counts come from the deck file
                by_field[f] += n
    if not by_field:
        return ""
    fields = ", ".join(f"{f} ({counted(n, 'card')})" for f, n in sorted(by_field.items()))
    first = next((f for f in _EXAMPLE_FIELDS if f in by_field), min(by_field))
    said = (
        f"the deck has cards of unknown {fields}: an unknown value is not guessed and never satisfies a "
        f"comparison ({first}>=1 does not match a card of unknown {first})"
    )
    return Said(
        f"{said}; `cardbase catalog import` adds real values",
        f"{said}; import the real values on the catalog page, or give them on each card's Edit page",
    )


def castable_counts(database: Database, setup: Setup, mana: list[int]) -> dict[int, int]:
    """Méa: how many pile cards match ``t:monster cost<=m`` (the search language) for each mana ``m``."""
    count = {info.id: card.count for info, card in zip(setup.infos, setup.cards, strict=True)}
    ids = list(count)
    return {m: sum(count[c] for c in matching_ids(database, f"t:monster cost<={m}", "mea", ids)) for m in mana}
