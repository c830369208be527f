"""What the deck commands do, apart from the CLI: read, resolve, pick a format, validate."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardbase.decks.catalog import CatalogIndex, load_index
from cardbase.decks.files import deck_to_text, read_deck
from cardbase.decks.formats import default_format, find_format, format_names, load_house_formats, require_format
from cardbase.decks.model import Deck, DeckText, Problem
from cardbase.decks.validate import ResolvedDeck, ValidationReport, check_format, resolve
from cardbase.games.formats import Format


def catalog_index(database: Any) -> CatalogIndex:
    with database.session() as session:
        return load_index(session)


def resolve_text(
    database: Any, text: DeckText, game: str | None = None, index: CatalogIndex | None = None
) -> ResolvedDeck:
    return resolve(text, index or catalog_index(database), game)


def resolve_file(database: Any, path: Path, game: str | None = None, index: CatalogIndex | None = None) -> ResolvedDeck:
    """Read and resolve a deck file (errors reading it are raised; problems in it are collected)."""
    return resolve_text(database, read_deck(path), game, index)


def resolve_file_or_fail(
    database: Any, path: Path, game: str | None = None, *, writes: bool = False, index: CatalogIndex | None = None
) -> ResolvedDeck:
    """Like ``resolve_file``, but a deck with any error (an unknown card, a bad line, no game) is
    refused with every problem listed: ``InvalidData``, exit 1. Warnings do not stop it."""
    from cardbase.errors import InvalidData

    resolved = resolve_file(database, path, game, index)
    errors = [str(p) for p in resolved.problems if p.severity == "error"]
    if errors or not resolved.game:
        raise InvalidData(
            str(path),
            errors
            or ["cannot tell which game this deck is for; add a line 'game: mea' (or meio, meikyu) or pass --game"],
            writes=writes,
        )
    return resolved


def choose_format(
    resolved: ResolvedDeck, name: str | None, formats_file: Path | None
) -> tuple[Format | None, list[Problem]]:
    """The format to check against: the option, else the file's header, else the game's default.

    A bad ``--format``/``--formats`` is a usage error; a bad ``format:`` line in the file is a problem.
    """
    if not resolved.game:
        return None, []
    house = load_house_formats(formats_file) if formats_file else None
    if name:
        return require_format(resolved.game, name.lower(), house), []
    deck = resolved.deck
    if deck.format:
        found = find_format(resolved.game, deck.format, house)
        if found is None:
            return None, [
                Problem(
                    "unknown-format",
                    f"{resolved.game} has no format {deck.format!r}",
                    None,
                    f"formats are {', '.join(format_names(resolved.game, house))}",
                )
            ]
        return found, []
    split = any(c.section for c in deck.cards)
    return find_format(resolved.game, default_format(resolved.game, deck.players, split), house), []


def validate_resolved(
    resolved: ResolvedDeck, format_name: str | None = None, formats_file: Path | None = None
) -> tuple[ValidationReport, Format | None]:
    fmt, problems = choose_format(resolved, format_name, formats_file)
    problems = resolved.problems + problems + (check_format(resolved, fmt) if fmt else [])
    problems.sort(key=lambda p: (p.severity == "warning", p.line is None, p.line or 0))
    report = ValidationReport(resolved.source, resolved.game, fmt.name if fmt else "", resolved.deck.size, problems)
    return report, fmt


def validate_deck(
    database: Any, deck: Deck, source: str, format_name: str | None = None, formats_file: Path | None = None
) -> tuple[ValidationReport, Format | None]:
    """Validate a deck already resolved (from a code or the database)."""
    return validate_resolved(resolve_text(database, deck_to_text(deck, source)), format_name, formats_file)
