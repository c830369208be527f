"""Resolve a deck's names against the catalog and check it against a format, reporting every problem."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from cardbase.decks.catalog import CardInfo, CatalogIndex
from cardbase.decks.model import (
    MAIN_SECTION,
    MAX_DECK_CARDS,
    SIDE_SECTIONS,
    Deck,
    DeckCard,
    DeckLine,
    DeckText,
    Naming,
    Problem,
    game_title,
    worded,
)
from cardbase.errors import counted, of_other_games, plural, quoted
from cardbase.fuzzy import Near, near_text
from cardbase.games.formats import Format
from cardbase.names import fold

GAMES = ("mea", "meio", "meikyu")
NO_GAME_ADVICE = "add a line game: mea (or meio, meikyu), or choose the game"
"""The hint of a deck whose game is not known, for players (a page has a game to choose, no ``--game``)."""
SPELLING_HINT = "check the spelling with `cardbase cards search`"
SPELLING_ADVICE = "check the spelling in the card search"
"""The hint of a card name the catalog does not know, for the command line and for players (the web
links the card search for the name)."""
SECTIONS = {"meio": ("first half", "second half"), "mea": ("main", *SIDE_SECTIONS["mea"])}


@dataclass
class ResolvedDeck:
    """A deck file resolved against the catalog: the deck, its cards' data, where each entry was, problems."""

    source: str
    deck: Deck
    cards: dict[str, CardInfo] = field(default_factory=dict)
    lines: dict[tuple[str, str | None], int | None] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    history: list[dict[str, Any]] | None = None
    """The versions a deck JSON carried (``deck export --history``)."""
    supply: Callable[[], Mapping[str, tuple[int, int | None]]] | None = None
    """What the catalog holds of the deck's game by card type, asked only when the deck is short of a
    type: (distinct cards, their copies in all; None when a count is unknown) (``decks.catalog.catalog_supply``).
    None: not known (a deck resolved without the database)."""

    @property
    def game(self) -> str:
        return self.deck.game


def _infer_game(text: DeckText, index: CatalogIndex) -> str | None:
    votes: Counter[str] = Counter()
    for entry in text.lines:
        for game in {c.game for c in index.lookup(entry.name)}:
            votes[game] += 1
    if not votes:
        return None
    (best, n), *rest = votes.most_common()
    return best if not rest or rest[0][1] < n else None


def resolve(text: DeckText, index: CatalogIndex, game: str | None = None) -> ResolvedDeck:
    """Look every entry up in the catalog; unknown names get "did you mean"."""
    problems = list(text.problems)
    total = sum(line.count for line in text.lines)
    if total > MAX_DECK_CARDS:  # refused before any lookup: nothing downstream sees such a deck
        problems.append(
            Problem(
                "deck-too-large",
                f"the deck lists {total:,} {plural(total, 'card')}; a deck may have at most {MAX_DECK_CARDS:,}",
                None,
                "split it into decks of a playable size",
            )
        )
        return ResolvedDeck(text.source, Deck("", (), text.name, text.format, text.players), problems=problems)
    chosen = text.game
    if chosen is not None and chosen not in GAMES:
        problems.append(
            Problem(
                "unknown-game",
                f"game {quoted(chosen)} is not one of {', '.join(GAMES)}",
                text.header_lines.get("game"),
                "write game: mea, meio or meikyu",
                said=f"game {quoted(chosen)} is not one of {', '.join(f'{game_title(g)} ({g})' for g in GAMES)}",
            )
        )
        chosen = None
    if chosen and game and chosen != game:
        in_file, asked = chosen, game
        problems.append(
            worded(
                "wrong-game",
                lambda name: f"the file is a {name(in_file)} deck, not {name(asked)}",
                in_file,
                text.header_lines.get("game"),
            )
        )
    chosen = chosen or game or _infer_game(text, index)
    if chosen is None:
        problems.append(
            Problem(
                "no-game",
                "cannot tell which game this deck is for",
                None,
                "add a line game: mea (or meio, meikyu), or pass --game",
                advice=NO_GAME_ADVICE,
            )
        )
        return ResolvedDeck(text.source, Deck("", (), text.name, text.format, text.players), problems=problems)
    deck_game: str = chosen  # the game every problem below names
    if text.players is not None and chosen != "meio":
        problems.append(
            worded(
                "bad-header",
                lambda name: f"'players' is for Meio decks, not {name(deck_game)}",
                chosen,
                text.header_lines.get("players"),
                "remove the line",
            )
        )
    resolved = ResolvedDeck(text.source, Deck(chosen, (), text.name, text.format, text.players), history=text.history)
    allowed_sections = SECTIONS.get(chosen, ())
    cards: list[DeckCard] = []
    for position, entry in enumerate(text.lines):
        if entry.section and entry.section not in allowed_sections:
            problems.append(_unknown_section(deck_game, entry.section, allowed_sections, entry.line))
        if entry.card_id is not None:
            matches = [index.by_id[entry.card_id]] if entry.card_id in index.by_id else []
            if matches and (disagree := _not_the_ids(index, entry.name, entry.set, matches[0])):
                where = "" if entry.line is not None else f"cards[{position}]: "
                problems.append(
                    Problem(
                        "name-not-id",
                        f"{where}{disagree[0]} is not the {disagree[1]} of the id {quoted(entry.card_id)} "
                        f"({quoted(disagree[2])})",
                        entry.line,
                        f"give the card's {disagree[1]}, or leave the id out",
                    )
                )
                continue
        else:
            matches = index.lookup(entry.name, chosen, entry.set)
        if not matches:
            elsewhere = sorted({c.game for c in index.lookup(entry.name) if c.game != chosen})
            if elsewhere:
                problems.append(_card_of_another_game(entry, elsewhere, deck_game))
            else:
                problems.append(_unknown_card(entry, deck_game, index.closest(entry.name, deck_game)))
            continue
        if len(matches) > 1:
            sets = ", ".join(sorted({c.set for c in matches}))
            problems.append(
                Problem(
                    "ambiguous-card",
                    f"{quoted(entry.name)} is in several sets ({sets})",
                    entry.line,
                    f"add the set after the name, e.g. {entry.name} ({matches[0].set})",
                )
            )
            continue
        card = matches[0]
        section = None if entry.section == MAIN_SECTION.get(chosen) else entry.section
        resolved.cards[card.id] = card
        resolved.lines.setdefault((card.id, section), entry.line)
        cards.append(DeckCard(card.id, card.name, entry.count, section, entry.tags))
    resolved.deck = Deck(chosen, tuple(cards), text.name, text.format, text.players).canonical()
    resolved.problems = sorted(problems, key=lambda p: (p.line is None, p.line or 0))  # as the file reads
    return resolved


def _unknown_section(game: str, section: str, allowed: tuple[str, ...], line: int | None) -> Problem:
    """A section ``game``'s decks do not have (``allowed``: the ones they do)."""
    listed = ", ".join(f"[{s}]" for s in allowed)
    return worded(
        "section",
        lambda name: (
            f"unknown section [{section}]; "
            + (f"{name(game)} sections are {listed}" if listed else f"{name(game)} decks have no sections")
        ),
        game,
        line,
        "remove the section line" if not allowed else "rename the section",
    )


def _card_of_another_game(entry: DeckLine, others: list[str], game: str) -> Problem:
    """An entry naming a card of the games ``others`` (one or more) in a deck of ``game``."""
    return worded(
        "wrong-game",
        lambda name: of_other_games(entry.name, others, game, name),
        game,
        entry.line,
        "remove it from this deck",
    )


def _unknown_card(entry: DeckLine, game: str, near: list[Near]) -> Problem:
    """An entry naming no card of ``game``: the ``near`` names it may mean, else a look in the card
    search (for players, the page's link; for the command line, ``cards search``)."""
    hint: str | Callable[[Naming], str] = (
        (lambda name: f"did you mean {near_text(near, name, ' or ')}?") if near else SPELLING_HINT
    )
    advice = None if near else SPELLING_ADVICE
    if row := re.fullmatch(r"(\d*)\s*[,;\t]\s*(\S.*)", entry.name):  # a spreadsheet's row: 3,Crumb Goblin
        hint = f"a line is a count, a space and the name: write {row[1] or entry.count} {row[2]}"
        advice = None
    set_note = f" in set {quoted(entry.set)}" if entry.set else ""
    return worded(
        "unknown-card",
        lambda name: f"no {name(game)} card named {quoted(entry.name)}{set_note}",
        game,
        entry.line,
        hint,
        advice=advice,
        see="cards" if advice else None,
        query=entry.name if advice else None,
    )


def _not_the_ids(index: CatalogIndex, name: str, set_code: str | None, card: CardInfo) -> tuple[str, str, str] | None:
    """How an entry naming its card by id and by name (and set) says two things (the name or set given,
    which, the card's), or None: the id is not taken over them unseen. A card's alias (an old name) is its."""
    if card not in index.by_key.get(fold(name), ()):
        return f"the name {quoted(name)}", "card", card.name
    if set_code is not None and set_code != card.set:
        return f"the set {quoted(set_code)}", "set", card.set
    return None


def refusals(fmt: Format, name: str, kind: str, set_code: str) -> list[Problem]:
    """Why ``fmt`` refuses a card whatever its count (its type, set, pool, a ban): a problem each (no line).
    The deck check reports them; the deck builder's gallery offers no "Add" for such a card and says why."""
    out: list[Problem] = []
    key = fold(name)
    if fmt.allowed_types is not None and kind not in fmt.allowed_types:
        types = ", ".join(sorted(fmt.allowed_types))
        out.append(
            worded(
                "card-type",
                lambda game: f"{name} is a {kind}; {game(fmt.game)} {fmt.name} decks hold only {types}",
                fmt.game,
                None,
                "remove it from the deck",
            )
        )
    if fmt.allowed_sets is not None and set_code not in fmt.allowed_sets:
        out.append(
            Problem(
                "set-not-allowed",
                f"{name} is from set {quoted(set_code)}, not allowed in "
                f"{fmt.name} ({', '.join(sorted(fmt.allowed_sets))})",
                game=fmt.game,
            )
        )
    if fmt.allowed_cards is not None and key not in fmt.allowed_cards:
        out.append(
            Problem(
                "not-allowed",
                f"{name} is not in the {fmt.name} card pool",
                None,
                fmt.description or None,
                game=fmt.game,
            )
        )
    if key in fmt.banned:
        out.append(Problem("banned", f"{name} is banned in {fmt.name}", None, "remove it", game=fmt.game))
    return out


def not_offered(fmt: Format | None, deck_game: str, game: str, name: str, kind: str, set_code: str) -> str | None:
    """Why a deck of ``deck_game`` checked against ``fmt`` cannot take a card (None: it can), in players'
    words (the deck builder's gallery says it)."""
    if game != deck_game:
        return f"a {game_title(game)} card; this is a {game_title(deck_game)} deck"
    found = refusals(fmt, name, kind, set_code) if fmt is not None else []
    return found[0].text if found else None


def check_format(resolved: ResolvedDeck, fmt: Format) -> list[Problem]:
    """Every way the resolved deck breaks ``fmt`` (plus warnings that do not make it invalid)."""
    deck, problems = resolved.deck.main, []
    line_of = resolved.lines

    def first_line(card_id: str) -> int | None:
        lines = [n for (cid, _), n in line_of.items() if cid == card_id and n is not None]
        return min(lines) if lines else None

    size = deck.size
    low, high = fmt.min_cards, fmt.max_cards
    if (low is not None and size < low) or (high is not None and size > high):
        if low is not None and size < low:
            need = f"add {counted(low - size, 'card')}"
        else:
            assert high is not None
            need = f"remove {counted(size - high, 'card')}"
        problems.append(
            worded(
                "deck-size",
                lambda game: f"the deck has {counted(size, 'card')}; {game(fmt.game)} {fmt.name} needs {fmt.size_text}",
                fmt.game,
                None,
                need,
            )
        )
    totals: Counter[str] = Counter()
    for c in deck.cards:
        totals[c.card_id] += c.count
    for card_id, count in totals.items():
        card = resolved.cards[card_id]
        key, line = fold(card.name), first_line(card_id)
        problems += [replace(refused, line=line) for refused in refusals(fmt, card.name, card.type, card.set)]
        limits = []
        if fmt.copy_limit is not None:
            limits.append((fmt.copy_limit, f"{fmt.name} allows {fmt.copy_limit} of any card"))
        if key in fmt.restricted:
            limits.append((1, f"{card.name} is restricted to 1 in {fmt.name}"))
        if key in fmt.copy_limits:
            limits.append((fmt.copy_limits[key], f"{fmt.name} allows {fmt.copy_limits[key]} {card.name}"))
        if fmt.catalog_copies and card.copies is not None:
            limits.append((card.copies, f"the set has {card.copies} {card.name}"))
        for limit, why in limits:
            if count > limit:
                code = "restricted" if "restricted" in why else "copy-limit"
                problems.append(
                    Problem(
                        code,
                        f"{count} {card.name}: {why}",
                        line,
                        f"remove {counted(count - limit, 'copy', 'copies')}",
                    )
                )
                break
    if fmt.composition:
        by_type: Counter[str] = Counter()
        for card_id, count in totals.items():
            by_type[resolved.cards[card_id].type] += count
        for type_, want in fmt.composition.items():
            have = by_type.get(type_, 0)
            if have != want:
                problems.append(
                    Problem(
                        "composition",
                        f"{counted(have, type_ + ' card')}; {fmt.name} needs {want}",
                        None,
                        f"add {want - have}{_short_of(resolved, fmt, type_, want)}"
                        if have < want
                        else f"remove {have - want}",
                    )
                )
        short = [
            t for t, want in fmt.composition.items() if by_type.get(t, 0) < want and _short_of(resolved, fmt, t, want)
        ]
        if short:
            problems.append(
                Problem(
                    "catalog-short",
                    f"the catalog lacks {_and(short)} cards for a {fmt.name} deck",
                    None,
                    f"its sources do not name or count them; if you own them, add them with "
                    f"`cardbase catalog import FILE --game {fmt.game}`",
                    "warning",
                    game=fmt.game,
                    advice="its sources do not name or count them; if you own them, add them on the catalog page",
                    see="catalog",
                )
            )
        for type_, have in by_type.items():
            if type_ not in fmt.composition:
                problems.append(Problem("composition", f"{counted(have, type_ + ' card')}; {fmt.name} has none", None))
    if fmt.sections:
        by_section: Counter[str | None] = Counter()
        for c in deck.cards:
            by_section[c.section] += c.count
        for section, want in fmt.sections.items():
            have = by_section.get(section, 0)
            if have != want:
                problems.append(
                    Problem(
                        "split",
                        f"[{section}] has {counted(have, 'card')}; it needs {want}",
                        None,
                        f"{'add' if have < want else 'move out'} {abs(want - have)}",
                    )
                )
        if by_section.get(None):
            problems.append(
                Problem(
                    "split",
                    f"{counted(by_section[None], 'card')} outside the sections "
                    f"{', '.join(f'[{s}]' for s in fmt.sections)}",
                    None,
                    "put every card under a section",
                )
            )
    unknown = sorted(
        {
            resolved.cards[cid].name
            for cid in totals
            if resolved.cards[cid].unknown and set(resolved.cards[cid].unknown) - {"copies"}
        }
    )
    if unknown:
        problems.append(
            Problem(
                "unknown-stats",
                f"{counted(len(unknown), 'card')} with unknown values",
                None,
                "give them with `cardbase catalog edit NAME FIELD=VALUE` or import them with `cardbase catalog import`",
                "warning",
                tuple(unknown),
                fmt.game,
                advice="give them on each card's Edit page, or import them on the catalog page",
                see="catalog",
            )
        )
    return problems


def _and(words: list[str]) -> str:
    """``land, character and item``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _short_of(resolved: ResolvedDeck, fmt: Format, type_: str, want: int) -> str:
    """What to say after "add N" when the catalog cannot give ``want`` cards of ``type_`` (the rulebook
    names 16 of Meikyu's 32 lands and no character counts): what it has, and where the rest come from."""
    if resolved.supply is None:
        return ""
    distinct, copies = resolved.supply().get(type_, (0, 0))
    if distinct >= want or (copies is not None and copies >= want):
        return ""
    held = f"{copies} in all" if copies is not None else "copies unknown"
    return f", but the catalog has only {counted(distinct, type_ + ' card')} ({held})"


@dataclass
class ValidationReport:
    """The outcome of ``deck validate``: valid or not, and every problem (errors and warnings)."""

    source: str
    game: str
    format: str
    cards: int
    problems: list[Problem]

    @property
    def valid(self) -> bool:
        return not any(p.severity == "error" for p in self.problems)

    def as_dict(self) -> dict[str, object]:
        return {
            "valid": self.valid,
            "game": self.game or None,
            "format": self.format or None,  # none: the deck's format is unknown (or it has no game)
            "cards": self.cards,
            "file": self.source,
            "problems": [p.as_dict() for p in self.problems],
        }
