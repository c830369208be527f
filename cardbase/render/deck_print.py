"""A resolved deck's cards for printing, and a deck printed to PDF bytes (for the web app's download)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardbase.decks.validate import ResolvedDeck
from cardbase.errors import quoted
from cardbase.render.options import SheetOptions
from cardbase.textfiles import scratch_folder

if TYPE_CHECKING:
    from cardbase.db.engine import Database


def deck_entries_of(database: Database, resolved: ResolvedDeck, *, missing_only: bool = False) -> list[tuple[Any, int]]:
    """The catalog cards of ``resolved`` with their counts (every section), in deck order; a card
    the catalog no longer has is ``InvalidData``. ``missing_only``: only the copies the collection lacks
    (a deck the collection covers whole is ``Refused``, exit 1: nothing to print)."""
    from cardbase.db.models import Card
    from cardbase.errors import InvalidData, Refused

    counts: dict[str, int] = {}
    for entry in resolved.deck.cards:
        counts[entry.card_id] = counts.get(entry.card_id, 0) + entry.count
    if missing_only:
        from cardbase.decks.owned import deck_owned

        counts = deck_owned(database, resolved.deck).missing_counts()
        if not counts:
            raise Refused(f"{resolved.source}: you own every card of this deck; no copy is missing to print")
    with database.session() as session:
        cards = {cid: session.get(Card, cid) for cid in counts}
    missing = [cid for cid, card in cards.items() if card is None]
    if missing:
        raise InvalidData(resolved.source, [f"card {quoted(cid)} is not in the catalog" for cid in missing])
    return [(cards[cid], n) for cid, n in counts.items()]


def deck_pdf(
    database: Database,
    resolved: ResolvedDeck,
    sheet: SheetOptions,
    images: Path,
    title: str,
    warn: Callable[[str], None] | None = None,
    *,
    missing: bool = False,
) -> bytes:
    """The deck printed as ``cardbase print deck`` prints it, with ``sheet``'s options, as PDF bytes;
    ``warn`` hears of art that could not be used (drawn as placeholders); ``missing``: only the copies
    the collection lacks."""
    from cardbase.errors import UsageError
    from cardbase.render.art import declared_paths
    from cardbase.render.printing import print_cards

    if sheet.split_backs:
        raise UsageError("split_backs writes a second file; download the backs with backs and back_order=after")
    spec = sheet.spec(resolved.game)
    entries = [(card, n * sheet.copies) for card, n in deck_entries_of(database, resolved, missing_only=missing)]
    with database.session() as session:
        declared = declared_paths(session, [c.id for c, _ in entries])
    with scratch_folder("cardbase-pdf-") as tmp, sheet.layouts():
        out = Path(tmp) / "deck.pdf"
        print_cards(
            entries,
            out,
            spec,
            title=title,
            images=images,
            dpi=sheet.dpi,
            declared_art=declared,
            one_per_page=sheet.one_per_page,
            back_order=sheet.back_order,
            options_line=sheet.command_line(),
            bleed_fill=sheet.bleed_fill,
            full_art=sheet.full_art,
            warn=warn,
        )
        from cardbase.textfiles import read_bytes

        return read_bytes(out, "deck PDF", 1 << 31)  # our own output; a 10,000-card job stays far under
