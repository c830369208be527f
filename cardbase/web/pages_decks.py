"""The deck pages: the list of decks, the deck builder and its live panels, import, export and share.

Every number comes from the function the CLI prints it with: ``deck validate`` (``validate_resolved``),
``deck stats`` (``deck_stats``), ``draws`` (``setup``, ``needs_report``, ``sample_report``),
``deck diff`` (``deck_diff``), the deck readers and share codes (``decks.files``, ``decks.text``)
and the deck store (``decks.store``). Changes are POST forms; with JavaScript the same forms are
sent by ``fetch`` and answered with the deck's panels as an HTML fragment.
"""

from __future__ import annotations

import re
import secrets
import shlex
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from cardbase.decks.formats import check_format_name
from cardbase.decks.store import MAX_DECK_ID
from cardbase.errors import CardbaseError, DatabaseError, UsageError, counted, quoted, shown
from cardbase.games.base import MAX_SEED, is_demo
from cardbase.web.errors import for_pages
from cardbase.web.http import Form, WriteTurn, download, form_versions, form_whole, tag
from cardbase.web.pages import (
    GAME_TITLES,
    card_url,
    database_of,
    gallery_context,
    house_of,
    render,
    see_other,
)

if TYPE_CHECKING:  # imported where used, so that the app starts fast
    from cardbase.db.engine import Database
    from cardbase.db.models import Card
    from cardbase.decks.catalog import IndexEntry
    from cardbase.decks.groups import Group
    from cardbase.decks.model import Deck, DeckText, Problem
    from cardbase.decks.owned import OwnedReport
    from cardbase.decks.store import DeckInfo, Edit, Edited
    from cardbase.decks.validate import ResolvedDeck, ValidationReport
    from cardbase.draws.exact import Need
    from cardbase.draws.openings import Draws
    from cardbase.draws.reports import NeedsReport
    from cardbase.draws.service import Setup
    from cardbase.render.options import SheetOptions
    from cardbase.web.lru import LRU

router = APIRouter()
ResponseT = TypeVar("ResponseT", bound=Response)

MAX_NEEDS = 8
MAX_HAND = 100
MAX_DECK_TEXT = 1_000_000
"""A pasted or uploaded deck: 1 MB, the bound of deck files (``decks.files.MAX_BYTES``)."""
DEFAULT_NEEDS = {"mea": "2 t:monster cost<=3\n1 t:assist", "meikyu": "1 t:character", "meio": "3 suit:h"}
DEFAULT_HAND = {"mea": 5, "meikyu": 4, "meio": 13}
SECTION_LABELS = {None: "main deck", "sideboard": "sideboard", "maybe": "maybe"}


def _deck_id(text: str) -> int:
    """A deck id from the URL; anything but a whole number names no deck."""
    from cardbase.decks.store import UnknownDeck

    if not (text.isascii() and text.isdecimal()) or len(text) > 10 or not 1 <= int(text) <= MAX_DECK_ID:
        raise UnknownDeck(f"no deck with id {quoted(text)}; the decks page lists them").refusing(text)
    return int(text)


# --- one deck and its panels --------------------------------------------------------------------


def resolve_deck(database: Database, deck_id: int, name: str) -> ResolvedDeck:
    """A stored deck resolved as ``deck validate db:NAME`` resolves it (``decks.service.resolve_stored``)."""
    from cardbase.decks.service import resolve_stored

    return resolve_stored(database, deck_id)


@dataclass
class Panels:
    """What the deck builder shows beside the gallery, computed by the CLI's functions."""

    info: DeckInfo
    resolved: ResolvedDeck
    report: ValidationReport
    stats: dict[str, Any] | None
    sections: list[tuple[str | None, list[Group]]]
    listing: dict[str, str]
    odds: dict[str, Any] = field(default_factory=dict)
    sample: dict[str, Any] = field(default_factory=dict)
    share_code: str = ""
    owned: OwnedReport | None = None
    """The deck against the collection (None while the collection is empty)."""
    history: dict[str, Any] = field(default_factory=dict)
    """The newest versions (``pages_owners.deck_versions``): those of this version's deck, made with it."""


def deck_sections(
    info: DeckInfo, resolved: ResolvedDeck, by: str = "type", sort: str = "name"
) -> list[tuple[str | None, list[Group]]]:
    """The deck's sections in the game's order (main first), each in groups by ``by`` sorted by ``sort``
    (``decks.groups``, as ``deck show --group`` prints them)."""
    from cardbase.decks.groups import entry_of, group_cards
    from cardbase.decks.validate import SECTIONS

    order: list[str | None] = [None, *(s for s in SECTIONS.get(info.game, ()) if s != "main")]
    entries: dict[str | None, list[dict[str, Any]]] = {s: [] for s in order}
    for c in resolved.deck.cards:
        entries.setdefault(c.section, []).append(entry_of(resolved, c.card_id, c.name, c.count, c.section, c.tags))
    keep = [None] if info.game == "meikyu" else order  # Méa and Meio show every section, empty ones too
    return [(s, group_cards(resolved, entries.get(s, []), by, sort)) for s in keep]


LIST_COOKIE = "deck-list"
"""The cookie (one per deck: its path is the deck's) that keeps how the deck list is shown."""
LIST_VIEWS = ("list", "visual")


def list_choice(params: Any, kept: str | None) -> dict[str, str]:
    """How the deck list is shown: grouped by, sorted by, list or visual; from the URL, else from the
    deck's cookie ``kept`` (``type.name.list``), else the defaults. A bad value in the URL is a usage error."""
    from cardbase.decks.groups import GROUPINGS, SORTS, check_choice

    get = params.get if params is not None else (lambda _k, _d=None: None)
    saved = (kept or "").split(".")
    saved += [""] * (3 - len(saved))
    fallback = [v if v in allowed else "" for v, allowed in zip(saved, (GROUPINGS, SORTS, LIST_VIEWS), strict=False)]
    return {
        "group": check_choice(get("group") or fallback[0], GROUPINGS, "group"),
        "sort": check_choice(get("sort") or fallback[1], SORTS, "sort"),
        "view": check_choice(get("layout") or fallback[2], LIST_VIEWS, "layout"),
    }


def keep_list_choice(request: Request, response: Response, deck_id: int, choice: dict[str, str]) -> Response:
    """Remember the deck list's choice for this deck (a cookie on its path) when the URL made one."""
    if any(request.query_params.get(k) for k in ("group", "sort", "layout")):
        value = ".".join(choice[k] for k in ("group", "sort", "view"))
        response.set_cookie(LIST_COOKIE, value, max_age=365 * 86400, path=f"/decks/{deck_id}", samesite="lax")
    return response


@dataclass(frozen=True, slots=True)
class DeckReads:
    """What a deck's panels read of the database besides the deck, kept per version of the deck and stamps
    (``Reads``), so that the panels of the version after it (an edit's) read only what changed: its cards
    as the index has them, its history listing, and whether the collection is empty."""

    cards: dict[str, IndexEntry]
    """The deck's cards (and those of its versions before, ``KNOWN_CARDS`` at most), by id."""
    history: dict[str, Any]
    collection_empty: bool


@dataclass(frozen=True, slots=True)
class Reads:
    """The app's kept ``DeckReads`` (``deck_views.reads_of``) and the stamps read before the panels' data."""

    kept: LRU[tuple[Any, ...], DeckReads]
    stamps: tuple[tuple[str, str], ...]

    def get(self, deck_id: int, version: int) -> DeckReads | None:
        return self.kept.get((deck_id, version, self.stamps))

    def put(self, deck_id: int, version: int, reads: DeckReads) -> None:
        self.kept.put((deck_id, version, self.stamps), reads)


def deck_panels(
    database: Database,
    deck_id: int,
    params: Any,
    house: Any = None,
    kept: str | None = None,
    edited: Edited | None = None,
    reads: Reads | None = None,
) -> Panels:
    """The deck, its validation (``house``: the server's house formats), stats, odds and sample hand; bad odds
    or hand parameters are shown in their panel. ``edited``: the deck as an edit left it (not read again).
    ``reads``: what the panels of the version before read (its cards, history, the collection's emptiness),
    kept under the stamps read before them; with ``edited``, only what the edit changed is read again."""
    from cardbase.decks.files import write_deck
    from cardbase.decks.history import listed_after
    from cardbase.decks.service import resolve_known, validate_resolved
    from cardbase.decks.stats import deck_stats
    from cardbase.decks.store import deck_by_id, load_deck
    from cardbase.web.pages_owners import deck_versions

    prior = reads.get(deck_id, edited.info.version - 1) if reads is not None and edited is not None else None
    if edited is not None:
        info = edited.info
        resolved, index = resolve_known(database, edited.deck, prior.cards if prior else None)
    else:
        info = deck_by_id(database, deck_id)
        resolved, index = resolve_known(database, load_deck(database, deck_id))
    chosen = params.get("format") if params is not None else None  # ``deck validate --format``, a view choice
    if chosen:
        check_format_name(chosen, "format")
    report, fmt = validate_resolved(resolved, chosen or None, house)
    stats = deck_stats(resolved, fmt) if resolved.deck.cards else None
    listing = list_choice(params, kept)
    panels = Panels(
        info, resolved, report, stats, deck_sections(info, resolved, listing["group"], listing["sort"]), listing
    )
    panels.share_code = write_deck(resolved.deck, "code").strip() if resolved.deck.cards else ""
    shown = opened_panels(params)
    panels.odds = odds_panel(database, resolved, info, params) if "odds" in shown else closed_odds(info)
    panels.sample = sample_panel(database, resolved, info, params) if "sample" in shown else closed_sample(info)
    empty = prior.collection_empty if prior else collection_empty(database)
    if not empty:
        from cardbase.decks.owned import deck_owned

        panels.owned = deck_owned(database, resolved.deck)
    after = None
    if prior is not None and edited is not None and edited.recorded is not None:
        after = listed_after(prior.history["versions"], prior.history["kept"], edited.recorded, HISTORY_LISTED)
    panels.history = {"versions": after[0], "kept": after[1]} if after else deck_versions(database, info.id)
    if reads is not None:  # the cards read before stay known (an add after a removal reads none)
        known = {**prior.cards, **index.entries} if prior and len(prior.cards) < KNOWN_CARDS else index.entries
        reads.put(deck_id, info.version, DeckReads(known, panels.history, empty))
    return panels


KNOWN_CARDS = 500
"""Cards a deck's kept reads hold at most besides its own: those of its earlier versions, while the stamps hold."""


HISTORY_LISTED = 10
"""Versions the history panel lists (``pages_owners.deck_versions``' default)."""


def collection_empty(database: Database) -> bool:
    from cardbase.decks.owned import collection_is_empty

    return collection_is_empty(database)


LAZY_PANELS = {"odds": ("needs", "opening"), "sample": ("seed", "hand", "drawn")}
"""The panels computed only when opened (``?open=odds``, or a parameter of their own in the URL)."""


def opened_panels(params: Any) -> set[str]:
    """Which of the lazy panels to compute: those ``open`` names (``open=odds,sample``, or repeated), and
    those whose own parameters the URL has (their forms, a link to a hand)."""
    if params is None:
        return set()
    values = params.getlist("open") if hasattr(params, "getlist") else [params.get("open") or ""]
    named = {part.strip() for value in values for part in str(value).split(",")}
    named |= {panel for panel, keys in LAZY_PANELS.items() if any(params.get(k) is not None for k in keys)}
    return named & LAZY_PANELS.keys()


def closed_odds(info: DeckInfo) -> dict[str, Any]:
    """The odds panel before it is opened: its form with the game's needs, nothing computed."""
    return {"closed": True, "needs_text": DEFAULT_NEEDS[info.game], "opening": 5, "rows": [], "error": None}


def closed_sample(info: DeckInfo) -> dict[str, Any]:
    """The sample hand panel before it is opened: its form, no hand dealt."""
    return {"closed": True, "cards": [], "error": None, "seed": 0, "size": DEFAULT_HAND[info.game], "drawn": 0}


def owned_of(database: Database, resolved: ResolvedDeck) -> OwnedReport | None:
    """``resolved`` against the collection, as ``deck show`` reports it (None while the collection is empty)."""
    from cardbase.decks.owned import deck_owned

    return None if collection_empty(database) else deck_owned(database, resolved.deck)


def parse_needs(text: str) -> list[Need]:
    """One need a line, as ``draws --need`` reads it: ``2 t:monster cost<=3``; ``at most 1 …``, ``exactly 2 …``."""
    from cardbase.draws.exact import Kind
    from cardbase.draws.service import parse_need
    from cardbase.textfiles import split_lines, stray_break, stray_break_reason

    needs = []
    if (stray := stray_break(text)) is not None:
        raise UsageError(f"line {stray[0]}: {stray_break_reason(stray[1])}")
    lines = [line.strip() for line in split_lines(text) if line.strip()]
    if len(lines) > MAX_NEEDS:
        raise UsageError(f"give at most {MAX_NEEDS} needs, not {len(lines)}")
    for line in lines:
        if len(line) > 500:
            raise UsageError(f"a need has at most 500 characters, not {len(line):,}")
        kind = Kind.AT_LEAST
        for prefix, k in (("at most", Kind.AT_MOST), ("exactly", Kind.EXACTLY), ("at least", Kind.AT_LEAST)):
            if line.lower().startswith(prefix + " "):
                line, kind = line[len(prefix) :].strip(), k
        needs.append(parse_need(line, kind))
    return needs


def odds_panel(database: Database, resolved: ResolvedDeck, info: DeckInfo, params: Any) -> dict[str, Any]:
    """The exact chances of the needs for 1–10 cards seen and by turn (``draws --need``), or why there are none."""
    from cardbase.draws.reports import draw_model, needs_report, seen_rule
    from cardbase.draws.service import setup

    text = params.get("needs", DEFAULT_NEEDS[info.game]) if params is not None else DEFAULT_NEEDS[info.game]
    out: dict[str, Any] = {"needs_text": text, "rows": [], "turns": [], "error": None, "notes": []}
    try:
        opening = form_whole(params.get("opening") if params is not None else None, "opening", 1, 10, 5, at_field=True)
        out["opening"] = opening
        needs = parse_needs(text)
        if not needs:
            out["error"] = "write a need a line, e.g. 2 t:monster cost<=3"
            return out
        if not resolved.deck.main.cards:
            out["error"] = "add cards to the deck to see its odds"
            return out
        pile = setup(database, resolved, needs, info.name)
        model = draw_model(pile, needs, opening, None)
        table = needs_report(pile, model, None, None, None, 0)
        turns = by_turn(pile, model) if info.game != "meio" else None
    except CardbaseError as error:
        out["error"] = for_pages(error)
        return out
    out["labels"] = [str(n) for n in needs]
    out["matching"] = pile.matching
    out["rows"] = table.rows
    out["turns"] = turns.rows if turns else []
    out["rule"] = seen_rule(pile, model, None)
    out["turn_rule"] = seen_rule(pile, model, 1) if turns else ""
    out["notes"] = pile.notes + table.notes
    out["chart"] = odds_chart(table.rows)
    return out


TURNS = 8


def by_turn(pile: Setup, model: Draws) -> NeedsReport | None:
    """``draws --by-turn T`` for the most turns up to 8 that the deck has cards for (a small deck has fewer)."""
    from cardbase.draws.reports import needs_report

    for turns in range(TURNS, 0, -1):
        try:
            return needs_report(pile, model, None, turns, None, 0)
        except UsageError:
            continue
    return None


def odds_chart(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The points of the chance of all needs by cards seen, in an SVG box of 320 × 140."""
    width, height, left, bottom, top_y = 320, 140, 34, 20, 16
    if not rows:
        return {"points": "", "dots": [], "width": width, "height": height}
    top = max(r["cards_seen"] for r in rows)
    span = max(1, top - 1)

    def xy(seen: int, p: float) -> tuple[float, float]:
        x = left + (seen - 1) * (width - left - 18) / span
        y = (height - bottom) - p * (height - bottom - top_y)
        return round(x, 1), round(y, 1)

    dots = [(*xy(r["cards_seen"], r["probability"]), r["cards_seen"], r["probability"]) for r in rows]
    return {
        "points": " ".join(f"{x},{y}" for x, y, _, _ in dots),
        "dots": dots,
        "width": width,
        "height": height,
        "left": left,
        "base": height - bottom,
        "top_y": top_y,
    }


def sample_panel(database: Database, resolved: ResolvedDeck, info: DeckInfo, params: Any) -> dict[str, Any]:
    """A goldfish: one seeded opening hand (``hand`` cards, the game's opening by default) and ``drawn``
    cards drawn after it from the same shuffle, as ``draws --sample 1 --seed S --cards N`` draws them."""
    from cardbase.draws.reports import sample_hand

    get = params.get if params is not None else (lambda _k, _d=None: None)
    out: dict[str, Any] = {"cards": [], "error": None, "seed": 0, "size": DEFAULT_HAND[info.game], "drawn": 0}
    try:
        out["seed"] = seed = form_whole(get("seed"), "seed", 0, MAX_SEED, 0, at_field=True)
        out["size"] = size = form_whole(get("hand"), "hand", 1, MAX_HAND, DEFAULT_HAND[info.game], at_field=True)
        out["drawn"] = drawn = form_whole(get("drawn"), "drawn", 0, MAX_HAND - size, 0, at_field=True)
        if not resolved.deck.main.cards:
            out["error"] = "add cards to the deck to draw a sample hand"
            return out
        samples = sample_hand(database, resolved, seed, size + drawn)
    except CardbaseError as error:
        out["error"] = for_pages(error)
        return out
    hand = samples.hands[0]
    out["cards"] = [
        {"name": name, "id": card_id, "demo": is_demo(resolved.cards.get(card_id)), "drawn": k >= size}
        for k, (name, card_id) in enumerate(zip(hand.cards, hand.ids, strict=True))
    ]
    out["what"] = {
        "mea": f"Méa opening hand of {size}",
        "meio": f"Meio deal of {size}",
    }.get(info.game, samples.what.replace(f"{counted(size + drawn, 'card')} seen", f"{size} dealt"))
    out["redeals"] = hand.redeals
    if hand.split is not None:  # Meio's deal of 13: the heuristic agent's 7 + 6, marked on the faces
        aside = list(hand.split.aside)
        for card in out["cards"]:
            card["aside"] = card["name"] in aside
        out["split"] = hand.split
    out["can_draw"] = info.game != "meio" and size + drawn < MAX_HAND  # Meio: no draws after the deal
    out["command"] = f"cardbase draws {shlex.quote('db:' + info.name)} --sample 1 --seed {seed} --cards {size + drawn}"
    return out


def problem_parts(message: str, names: dict[str, str]) -> list[tuple[str, str | None]]:
    """A problem's message cut into text and card names (each with its card's page), longest names first."""
    if not names:
        return [(message, None)]
    pattern = re.compile("|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)))
    parts: list[tuple[str, str | None]] = []
    pos = 0
    for m in pattern.finditer(message):
        if m.start() > pos:
            parts.append((message[pos : m.start()], None))
        parts.append((m.group(0), card_url(names[m.group(0)])))
        pos = m.end()
    if pos < len(message):
        parts.append((message[pos:], None))
    return parts


def curve_chart(curve: dict[str, int]) -> dict[str, Any]:
    """Bars of the Méa mana curve (``deck stats``' ``mana_curve``), in an SVG box of 320 × 150."""
    width, height, bottom, top = 320, 150, 22, 18
    known = [int(k) for k in curve if k != "?"]
    # every cost from the lowest to the highest (a gap is a bar of 0), then the unknown costs
    items = [(str(c), curve.get(str(c), 0)) for c in range(min(known), max(known) + 1)] if known else []
    items += [("?", curve["?"])] if "?" in curve else []
    if not items:
        return {"bars": [], "width": width, "height": height}
    most = max(n for _, n in items) or 1
    slot = min(48.0, (width - 20) / len(items))
    bars = []
    for i, (cost, n) in enumerate(items):
        h = n / most * (height - bottom - top)
        x = (width - slot * len(items)) / 2 + i * slot + slot * 0.15  # the bars centred
        bars.append(
            {
                "cost": cost,
                "count": n,
                "x": round(x, 1),
                "y": round(height - bottom - h, 1),
                "w": round(slot * 0.7, 1),
                "h": round(h, 1),
                "cx": round(x + slot * 0.35, 1),
            }
        )
    return {"bars": bars, "width": width, "height": height, "base": height - bottom}


SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def stat_cell(key: str, value: Any) -> str:
    """A statistic as the stats panel shows it: counts read ``1: 12 · 2: 11`` (suits by their signs), totals
    with unknown parts say so (as ``deck stats`` prints them)."""
    from cardbase.decks.stats import is_summary, stat_text

    if isinstance(value, dict) and value and not is_summary(value):
        signs = SUIT_SIGNS if key == "suits" else {}
        return " · ".join(
            f"{signs.get(str(k), k)}:\u00a0{n}" for k, n in value.items()
        )  # a count never wraps off its key
    return stat_text(value)


PROBLEM_PAGES = {"catalog": "/catalog#imp-h"}
"""The page each kind of problem hint points to (``Problem.see``), but the card search (its query)."""


def problem_item(problem: Problem | str, names: dict[str, str] | None = None) -> dict[str, Any]:
    """How a page shows one problem (``_problems.html``): a deck's in players' words (``Problem.text``
    and ``tip``: the game by its display name, no command), each card it names (of ``names``: name →
    id) linked, its hint linked to the page it points to; a problem that is only text, as it is."""
    if isinstance(problem, str):  # a line of a refusal in the command line's words: said for players
        from cardbase.errors import said_of
        from cardbase.web.errors import players_words

        return {"p": None, "text": players_words(said_of(problem))}
    known = names or {}
    hint_url = None
    if problem.see == "cards":
        query = {"q": problem.query or ""} | ({"game": problem.game} if problem.game else {})
        hint_url = "/cards?" + urlencode(query)
    elif problem.see is not None:
        hint_url = PROBLEM_PAGES[problem.see]
    return {
        "p": problem,
        "parts": problem_parts(problem.text, known),
        "hint": problem.tip,
        "hint_url": hint_url,
        "cards": [(name, card_url(known[name]) if name in known else None) for name in problem.cards],
    }


def problem_items(error: CardbaseError) -> list[dict[str, Any]]:
    """Every problem of a refused deck as a page shows it (:func:`problem_item`): a deck's problems
    as data when the refusal carries them (``InvalidData.found``), else its lines; an unreadable
    deck is one problem."""
    from cardbase.errors import InvalidData
    from cardbase.web.errors import page_text

    if not isinstance(error, InvalidData):  # the field it names is said above the problems (``named``)
        return [problem_item(page_text(error).removeprefix(f"{error.named}: " if error.named else ""))]
    found: list[Problem | str] = [*error.found] if len(error.found) == len(error.problems) else [*error.problems]
    return [problem_item(p) for p in found]


def panels_context(request: Request, panels: Panels, **extra: Any) -> dict[str, Any]:
    names = {c.name: c.id for c in panels.resolved.cards.values()}
    problems = [problem_item(p, names) for p in panels.report.problems]
    stats_rows: list[tuple[str, str]] = []
    if panels.stats:
        from cardbase.decks.stats import HEADLINE, stat_label

        shown = ["by_type", *(key for key in panels.stats if key not in HEADLINE)]
        stats_rows = [(stat_label(key), stat_cell(key, panels.stats[key])) for key in shown]
    curve = curve_chart(panels.stats.get("mana_curve", {})) if panels.stats and panels.info.game == "mea" else None
    from cardbase.decks.formats import format_names
    from cardbase.web.app import settings_of

    base = settings_of(request).public_url or str(request.base_url).rstrip("/")
    from cardbase.decks.validate import SECTIONS

    sections = list(SECTIONS.get(panels.info.game, ()))
    owned_lines = {line.card_id: line for line in panels.owned.lines} if panels.owned else {}
    return {
        "info": panels.info,
        "panels": panels,
        "problems": problems,
        "stats_rows": stats_rows,
        "curve": curve,
        "share_link": f"{base}/decks/new?code={panels.share_code}" if panels.share_code else "",
        "section_choices": sections,
        "formats": format_names(panels.info.game, house_of(request)),
        "chosen_format": request.query_params.get("format", ""),
        "section_labels": SECTION_LABELS,
        "game_title": GAME_TITLES.get(panels.info.game, panels.info.game),
        "owned_lines": owned_lines,
        "deck_entry": deck_entries(request, panels.listing["view"], panels.info, owned_lines),
        "history": panels.history,
        **extra,
    }


ENTRY_VERSION = "deck-entry-version"
"""What a kept deck-list entry's forms hold where the deck's version goes (``deck_entries``)."""


def deck_entries(request: Request, view: str, info: DeckInfo, owned: dict[str, Any]) -> Any:
    """The deck list's entries of ``info``'s deck as ``view`` shows them (``_deck_entry.html``), each rendered
    once for every version of the deck that shows it alike (kept by what it shows: the entry, its collection
    counts), the version then put in its forms."""
    from markupsafe import Markup

    from cardbase.web.app import TEMPLATES
    from cardbase.web.deck_views import entries_of

    kept = entries_of(request)
    mark = f'name="version" value="{ENTRY_VERSION}"'
    here = f'name="version" value="{int(info.version)}"'

    def entry(e: dict[str, Any]) -> Markup:
        line = owned.get(e["id"])
        shown = tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in e.items())
        key = (view, info.id, shown, (line.owned, line.needed) if line else None)
        html = kept.get(key)
        if html is None:
            context = {"e": e, "ol": line, "view": view, "deck_id": info.id, "version": ENTRY_VERSION}
            html = TEMPLATES.get_template("_deck_entry.html").render(context)
            kept.put(key, html)
        return Markup(html.replace(mark, here))  # rendered by the template, escaped there

    return entry


def _card(database: Database, card_id: str) -> Card:
    from cardbase.db.models import Card
    from cardbase.errors import UnknownCard

    with database.session() as session:
        card = session.get(Card, card_id)
    if card is None:
        raise UnknownCard(card_id.rsplit("/", 1)[-1], None, [])
    return card


def _back(deck_id: int, value: object) -> str:
    """Where a deck form sends the browser back to: the deck's page, keeping its query (never another site)."""
    text = str(value or "")
    prefix = f"/decks/{deck_id}"
    return text if text == prefix or text.startswith(prefix + "?") or text.startswith(prefix + "#") else prefix


EDITS: dict[str, tuple[Edit, int]] = {
    "add": ("add", 1),
    "inc": ("add", 1),
    "dec": ("remove", 1),
    "set": ("set", 0),
}
"""A builder form's ``op``: the deck store's edit and the least ``count`` it takes."""


def apply_change(database: Database, deck_id: int, form: Any) -> Edited:
    """Add (``add``/``inc``) or remove (``dec``) the form's ``count`` of a card (one when none is given),
    or set its count (``set``: ``count`` needed), in a section; with the form's ``version`` (the deck
    as the page showed it), only if the deck is still at it. One transaction
    (``decks.store.edit_entry``), which answers the deck as the edit left it."""
    from cardbase.decks.store import MAX_COPIES, edit_entry

    action = str(form.get("op") or "add")
    if action not in EDITS:
        raise UsageError(f"unknown action {quoted(action)}; use add, inc, dec or set").refusing(action)
    section = str(form.get("section") or "") or None
    edit, least = EDITS[action]
    count = form_whole(str(form.get("count") or ""), "count", least, MAX_COPIES, least, at_field=True)
    return edit_entry(database, deck_id, str(form.get("card") or ""), edit, count, section, form_versions(form))


@router.post("/decks/add", response_class=HTMLResponse)
def add_to_chosen_deck(request: Request, form: Form, turn: WriteTurn) -> Response:
    """The card page's "add to deck": the deck is a field of the form."""
    deck_id = _deck_id(str(form.get("deck") or ""))
    apply_change(database_of(request), deck_id, form)
    return see_other(f"/decks/{deck_id}")


@router.post("/decks/{deck_text_id}/cards", response_class=HTMLResponse)
def change_cards(request: Request, deck_text_id: str, form: Form, turn: WriteTurn) -> Response:
    """A change of the deck builder; with ``fragment=1`` (JavaScript) the answer is the deck's panels
    at the version the change made. A change made from an older version of the deck than its current
    one is refused (412, "changed elsewhere") and the deck is shown as it now is. The change's turn is
    held for the write only, not while the answer is made."""
    deck_id = _deck_id(deck_text_id)
    database = database_of(request)
    fragment = form.get("fragment") == "1"
    try:
        edited = apply_change(database, deck_id, form)
    except CardbaseError as error:
        turn.release()  # the answer is made without the turn
        return refused_change(request, deck_id, form, error)
    turn.release()
    if fragment and form_versions(form) == frozenset([edited.info.version - 1]):  # from the version before
        return edit_fragment(request, deck_id, edited, str(form.get("card") or ""))
    if fragment:
        return panels_fragment(request, deck_id, edited)
    return see_other(_back(deck_id, form.get("back")))


def refused_change(request: Request, deck_id: int, form: Any, error: CardbaseError) -> Response:
    """A builder change (an edit, an undo) refused: with ``fragment=1`` (JavaScript) the message alone, else
    the builder again with the message where the script would put it; a stale change is a 412 ("changed
    elsewhere") with the deck's ETag, a busy database's answer carries its Retry-After."""
    from cardbase.web.errors import error_headers, for_pages, naming_inputs, status_of

    naming_inputs(error, request)
    message = for_pages(error, request.url.path, request)
    if form.get("fragment") == "1":
        refused = render(request, "_action_error.html", {"message": message}, status_of(error))
    else:
        from starlette.datastructures import QueryParams

        back = _back(deck_id, form.get("back"))
        params = QueryParams(back.partition("?")[2].partition("#")[0])
        refused = builder_page(request, deck_id, params, message, status_of(error))
    refused.headers.update(error_headers(error)[0])
    return refused


@router.post("/decks/{deck_text_id}/undo", response_class=HTMLResponse)
def undo_changes(request: Request, deck_text_id: str, form: Form, turn: WriteTurn) -> Response:
    """The builder's Undo: the deck made what version ``to`` (the version before the edits undone) held, as
    its next version (``decks.store.restore_version``: the restore of the deck's History, recorded as an
    undo), only if the deck is still at the form's ``version``; else 412 ("changed elsewhere"), nothing
    written. With ``fragment=1`` (JavaScript) the answer is the deck's panels, else back to the builder."""
    from cardbase.decks.store import restore_version

    deck_id = _deck_id(deck_text_id)
    try:
        to = form_whole(str(form.get("to") or ""), "to", 1, 10**9, 0, at_field=True)
        shown_version = form_versions(form)
        if not to or shown_version is None:
            raise UsageError("nothing to undo: an undo names the version to go back to (to) and the one shown")
        restore_version(database_of(request), deck_id, to, shown_version, undo=True)
    except CardbaseError as error:
        turn.release()
        return refused_change(request, deck_id, form, error)
    turn.release()
    if form.get("fragment") == "1":
        return panels_fragment(request, deck_id)
    return see_other(_back(deck_id, form.get("back")))


def tagged(response: ResponseT, info: DeckInfo) -> ResponseT:
    """``response`` (a page or panels of the deck ``info``) with the deck's ETag."""
    tag(response, "deck", info.id, info.version)
    return response


# --- the list of decks --------------------------------------------------------------------------


@router.get("/decks", response_class=HTMLResponse)
def decks(request: Request) -> HTMLResponse:
    return render(request, "decks.html", decks_context(request))


def decks_context(request: Request, **extra: Any) -> dict[str, Any]:
    from cardbase.decks.store import list_decks
    from cardbase.names import fold

    database = database_of(request)
    rows = sorted(list_decks(database), key=lambda d: (fold(d["name"]), d["name"]))
    checks = deck_checks(database, rows, house_of(request)) if len(rows) <= MAX_CHECKED_DECKS else {}
    for row in rows:
        row["check"] = checks.get(row["id"])
    buildable_only = request.query_params.get("buildable") in ("1", "on", "true")
    owned = deck_owned_rows(database, rows)
    for row in rows:
        row["owned"] = owned.get(row["id"])
    if buildable_only:
        rows = [row for row in rows if row["owned"] is not None and row["owned"].buildable and row["cards"]]
    by_game = {g: [d for d in rows if d["game"] == g] for g in GAME_TITLES}
    notice = request.query_params.get("done")
    return {
        "by_game": by_game,
        "all_decks": rows,
        "notice": notice,
        "buildable_only": buildable_only,
        "has_collection": bool(owned),
        **extra,
    }


def deck_owned_rows(database: Database, rows: list[dict[str, Any]]) -> dict[int, OwnedReport]:
    """Each deck against the collection (none while the collection is empty), from one read of each deck."""
    from cardbase.db.collection import owned_counts
    from cardbase.decks.owned import collection_is_empty, owned_report
    from cardbase.decks.store import load_deck

    if collection_is_empty(database):
        return {}
    decks = {row["id"]: load_deck(database, row["id"]) for row in rows}
    with database.session() as session:
        owned = owned_counts(session, {c.card_id for deck in decks.values() for c in deck.cards})
    return {deck_id: owned_report(deck, owned) for deck_id, deck in decks.items()}


MAX_CHECKED_DECKS = 300
"""The decks page validates every deck (to show the format checked and whether it holds) up to this many."""


def deck_checks(database: Database, rows: list[dict[str, Any]], house: Any = None) -> dict[int, tuple[str, bool]]:
    """Each deck's format as ``deck validate`` checks it, and whether it is valid."""
    from cardbase.decks.service import validate_resolved

    out = {}
    for row in rows:
        report, _ = validate_resolved(resolve_deck(database, row["id"], row["name"]), None, house)
        out[row["id"]] = (report.format, report.valid)
    return out


@router.post("/decks", response_class=HTMLResponse)
def create_deck(request: Request, form: Form, turn: WriteTurn) -> Response:
    from cardbase.db.queries import check_game
    from cardbase.decks.store import new_deck

    try:
        game = check_game(str(form.get("game") or "")) or ""
        if not game:
            raise UsageError("choose a game for the new deck")
        players_text = str(form.get("players") or "")
        players = (
            form_whole(players_text, "players", 2, 4, 0, at_field=True) if game == "meio" and players_text else None
        )
        deck_id = new_deck(database_of(request), str(form.get("name") or ""), game, None, players)
    except CardbaseError as error:
        turn.release()
        return refused_on_decks(request, error, form, "new")
    return see_other(f"/decks/{deck_id}")


def refused_on_decks(request: Request, error: CardbaseError, form: Any, kind: str, deck_id: int = 0) -> Response:
    """A form of the decks page refused (``kind``: the new deck's, or a deck's rename or duplicate): the page
    again with the refusal's status, the message at that form and what was typed in it kept — not an error
    page that sends the player back to type it again."""
    from cardbase.web.errors import error_headers, for_pages, naming_inputs, status_of

    naming_inputs(error, request)
    message = for_pages(error, request.url.path, request)
    typed = {name: str(form.get(name) or "") for name in ("name", "game", "players")}
    refused = {"kind": kind, "deck": deck_id, "message": message, **typed}
    response = render(request, "decks.html", decks_context(request, refused=refused), status_of(error))
    response.headers.update(error_headers(error)[0])
    return response


@router.post("/decks/{deck_text_id}/rename", response_class=HTMLResponse)
def rename(request: Request, deck_text_id: str, form: Form, turn: WriteTurn) -> Response:
    from urllib.parse import quote

    from cardbase.decks.store import rename_deck

    name, deck_id = str(form.get("name") or ""), _deck_id(deck_text_id)
    try:
        info = rename_deck(database_of(request), deck_id, name, form_versions(form))
    except CardbaseError as error:
        turn.release()
        return refused_on_decks(request, error, form, "rename", deck_id)
    return see_other(f"/decks?done={quote('renamed to ' + info.name)}")


@router.post("/decks/{deck_text_id}/format", response_class=HTMLResponse)
def set_format(request: Request, deck_text_id: str, form: Form, turn: WriteTurn) -> Response:
    """Keep the format chosen in "Check against" as the deck's own (empty: the game's default for the deck)."""
    from cardbase.decks.store import update_deck

    chosen = str(form.get("format") or "")
    check_format_name(chosen, "format")
    deck_id, house = _deck_id(deck_text_id), house_of(request)
    info = update_deck(database_of(request), deck_id, fmt=chosen or None, house=house, expected=form_versions(form))
    return see_other(f"/decks/{info.id}#validation")


@router.post("/decks/{deck_text_id}/duplicate", response_class=HTMLResponse)
def duplicate(request: Request, deck_text_id: str, form: Form, turn: WriteTurn) -> Response:
    from cardbase.decks.store import duplicate_deck

    deck_id = _deck_id(deck_text_id)
    try:
        info = duplicate_deck(database_of(request), deck_id, str(form.get("name") or "") or None)
    except CardbaseError as error:
        turn.release()
        return refused_on_decks(request, error, form, "duplicate", deck_id)
    return see_other(f"/decks/{info.id}")


@router.get("/decks/{deck_text_id}/delete", response_class=HTMLResponse)
def confirm_delete(request: Request, deck_text_id: str) -> HTMLResponse:
    from cardbase.decks.store import deck_by_id

    return render(request, "delete.html", {"info": deck_by_id(database_of(request), _deck_id(deck_text_id))})


@router.post("/decks/{deck_text_id}/delete", response_class=HTMLResponse)
def delete(request: Request, deck_text_id: str, form: Form, turn: WriteTurn) -> Response:
    from urllib.parse import quote

    from cardbase.decks.store import deck_by_id, delete_deck

    deck_id = _deck_id(deck_text_id)
    info = deck_by_id(database_of(request), deck_id)
    delete_deck(database_of(request), deck_id, form_versions(form))
    return see_other(f"/decks?done={quote('deleted ' + info.name)}")


@router.get("/decks/compare", response_class=HTMLResponse)
def compare(request: Request) -> HTMLResponse:
    """``deck diff A B`` of two database decks."""
    from cardbase.decks.diff import deck_diff
    from cardbase.decks.service import resolve_version
    from cardbase.decks.stats import stat_label
    from cardbase.decks.store import deck_by_id

    database = database_of(request)
    resolved = []
    for key in ("a", "b"):
        text = request.query_params.get(key, "")
        deck_part, at, number = text.partition("@")  # ID@N: version N of deck ID (deck history)
        deck_id = _deck_id(deck_part)
        if at:
            resolved.append(resolve_version(database, deck_id, form_whole(number, key, 1, 10**9, 1, at_field=True)))
        else:
            resolved.append(resolve_deck(database, deck_id, deck_by_id(database, deck_id).name))
    diff = deck_diff(resolved[0], resolved[1])
    moved = [
        (stat_label(s["stat"]), stat_cell(s["stat"], s["before"]), stat_cell(s["stat"], s["after"]))
        for s in diff["stats"]
    ]
    return render(request, "decks.html", decks_context(request, diff=diff, moved=moved))


# --- export, share, import ----------------------------------------------------------------------

EXPORTS = {"txt": "text", "json": "json", "code": "code", "arena": "arena", "plain": "plain", "mtgo": "mtgo"}
EXPORTS |= {"cod": "cod", "ydk": "ydk"}
"""The page's download endings (``/decks/7/export.arena``) and the ``deck export --format`` each writes."""


@router.get("/decks/{deck_text_id}/export.{kind}")
def export(request: Request, deck_text_id: str, kind: str) -> Response:
    """The deck as ``deck export --format FORMAT`` writes it, as a download (file names as the API's)."""
    from cardbase.decks.files import EXPORT_FILES, write_deck
    from cardbase.decks.store import deck_by_id, load_deck
    from cardbase.names import file_slug

    if kind not in EXPORTS:
        raise UsageError(f"export as {', '.join('.' + k for k in EXPORTS)}, not {quoted('.' + kind)}")
    fmt = EXPORTS[kind]
    database = database_of(request)
    deck_id = _deck_id(deck_text_id)
    info = deck_by_id(database, deck_id)
    text = write_deck(load_deck(database, deck_id), fmt)
    suffix, media = EXPORT_FILES[fmt]
    return tagged(download(text, f"{file_slug(info.name) or 'deck'}.{suffix}", media), info)


PRINT_OPTIONS = ("paper", "card_size", "bleed", "crop_marks", "backs")
BOOLS = {"true": True, "1": True, "on": True, "yes": True, "false": False, "0": False, "off": False, "no": False}


def sheet_of(params: Any) -> SheetOptions:
    """``SheetOptions`` from the print form (the options of ``print deck``; ``SheetOptions`` checks their ranges)."""
    from cardbase.render.options import SheetOptions

    values: dict[str, Any] = {}
    for key in PRINT_OPTIONS:
        raw = params.get(key)
        if raw is None or raw == "":
            continue
        if len(raw) > 40:
            raise UsageError(f"{key} has at most 40 characters")
        if key in ("crop_marks", "backs"):
            if raw.lower() not in BOOLS:
                raise UsageError(f"{key} must be true or false, not {quoted(raw)}")
            values[key] = BOOLS[raw.lower()]
        else:
            values[key] = raw
    return SheetOptions(**values)


@router.get("/decks/{deck_text_id}/print.pdf")
def print_pdf(request: Request, deck_text_id: str) -> Response:
    """``print deck`` of a database deck with the form's sheet options, as a PDF download."""
    from cardbase.decks.service import resolve_stored
    from cardbase.decks.store import deck_by_id
    from cardbase.names import file_slug
    from cardbase.render.deck_print import deck_pdf
    from cardbase.web.app import settings_of

    database = database_of(request)
    deck_id = _deck_id(deck_text_id)
    info = deck_by_id(database, deck_id)
    sheet = sheet_of(request.query_params)
    images = settings_of(request).images
    from cardbase.web.errors import warner

    missing = BOOLS.get(str(request.query_params.get("missing") or "false").lower())
    if missing is None:
        raise UsageError("missing must be true or false")
    title = f"{info.name} — cardbase proxies" + (" (missing copies)" if missing else "")
    resolved = resolve_stored(database, deck_id)
    data = deck_pdf(database, resolved, sheet, images, title, warner(request), missing=missing)
    filename = f"{file_slug(info.name) or 'deck'}{'-missing' if missing else ''}.pdf"
    return tagged(download(data, filename, "application/pdf"), info)


def read_pasted(text: str, source: str, database: Database) -> DeckText | Deck:
    """A deck pasted or uploaded, read by the CLI's readers: deck text, deck JSON, or a share code."""
    from cardbase.decks.service import read_deck_data

    stripped = text.strip()
    if not stripped:
        raise UsageError("the deck is empty: paste a deck list, JSON or a share code")
    link = stripped.startswith(("http://", "https://", "/decks/new?")) and len(stripped.split()) == 1
    if link or re.fullmatch(r"[A-Za-z0-9_-]{8,}", stripped):  # a share link, or one word of base64url: a code
        return decode_code(stripped, database)
    return read_deck_data(text, source)


def decode_code(code: str, database: Database) -> Deck:
    """The deck of a share code (``deck decode``); anything else is an ``UnreadableInput``."""
    from cardbase.decks.service import decode_code as decode_share_code

    return decode_share_code(database, code)


@router.get("/decks/import", response_class=HTMLResponse)
def import_form(request: Request) -> HTMLResponse:
    return render(request, "import.html", {"text": "", "problems": [], "name": ""})


@router.post("/decks/import", response_class=HTMLResponse)
def import_deck(request: Request, form: Form, turn: WriteTurn) -> Response:
    """Store a pasted or uploaded deck: all of it, or nothing with every problem listed."""
    from cardbase.db.queries import check_game
    from cardbase.decks.service import import_deck
    from cardbase.decks.text import decode_deck_bytes

    text = str(form.get("text") or "")
    source = "pasted deck"
    upload = form.get("file")
    if upload is not None and not isinstance(upload, str) and upload.filename:
        if text.strip():  # one of them would be dropped unseen
            raise UsageError("paste a deck or choose a file, not both")
        raw = upload.file.read(MAX_DECK_TEXT + 1)
        if len(raw) > MAX_DECK_TEXT:
            raise UsageError(f"{shown(upload.filename)}: a deck file has at most {MAX_DECK_TEXT:,} bytes")
        source = shown(upload.filename)
        text = decode_deck_bytes(raw, source)
    if len(text) > MAX_DECK_TEXT:
        raise UsageError(f"a pasted deck has at most {MAX_DECK_TEXT:,} characters")
    game = check_game(str(form.get("game") or "") or None)
    name = str(form.get("name") or "").strip()
    database = database_of(request)
    try:
        deck_id, _ = import_deck(database, read_pasted(text, source, database), name=name or None, game=game)
    except DatabaseError:
        raise  # busy or unusable: its own status, not a problem of the deck
    except CardbaseError as error:
        from cardbase.web.errors import naming_inputs

        naming_inputs(error, request)
        context = {"text": text, "problems": problem_items(error), "name": name, "source": source, "named": error.named}
        return render(request, "import.html", context, 400)
    return see_other(f"/decks/{deck_id}")


@router.get("/decks/new", response_class=HTMLResponse)
def shared_deck(request: Request) -> Response:
    """A shared deck's link: the deck of the code, previewed with its validation, to save under a name."""
    from cardbase.decks.files import deck_to_text
    from cardbase.decks.service import resolve_text, validate_resolved

    code = request.query_params.get("code", "").strip()
    if not code:
        return see_other("/decks/import")
    if len(code) > 100_000:
        raise UsageError("a share code has at most 100,000 characters")
    database = database_of(request)
    resolved, report, problems = None, None, []
    try:
        resolved = resolve_text(database, deck_to_text(decode_code(code, database), "share code"))
        report = validate_resolved(resolved, None, house_of(request))[0]
    except DatabaseError:
        raise
    except CardbaseError as error:
        problems = problem_items(error)
    title = GAME_TITLES.get(resolved.game, "") if resolved else ""
    report_items = [problem_item(p) for p in report.problems] if report else []
    context = {"code": code, "resolved": resolved, "problems": problems, "report": report, "title": title}
    context |= {"report_items": report_items}
    return render(request, "shared.html", context, 400 if problems else 200)


@router.post("/decks/new", response_class=HTMLResponse)
def save_shared(request: Request, form: Form, turn: WriteTurn) -> Response:
    from cardbase.decks.service import import_deck

    database = database_of(request)
    deck = decode_code(str(form.get("code") or "").strip(), database)
    deck_id, _ = import_deck(database, deck, name=str(form.get("name") or "").strip() or None)
    return see_other(f"/decks/{deck_id}")


# --- the deck as text (bulk edit) -------------------------------------------------------------------


def _digest(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def edit_page(
    request: Request, deck_id: int, text: str | None = None, form: Any = None, step: str = "check"
) -> Response:
    """The bulk edit: the deck's text, read at the deck's version (the page's ``version``); checked, the
    change it makes (``decks.bulk``); saved, all or nothing, and only while the deck is still at that
    version: else 412 ("changed elsewhere"), nothing written, the text kept and the change it would now
    make shown, at the version now read."""
    from cardbase.decks.bulk import edit_text, read_edit, save_edit
    from cardbase.decks.store import deck_by_id, load_deck
    from cardbase.errors import Stale
    from cardbase.web.errors import error_headers, mask

    database = database_of(request)
    info = deck_by_id(database, deck_id)  # before the cards: a change in between makes the save refused
    context: dict[str, Any] = {"info": info, "game_title": GAME_TITLES.get(info.game, info.game), "problems": []}
    context |= {"diff_lines": [], "changes": False, "checked": "", "stale": False, "version": info.version}
    if text is None:
        return tagged(render(request, "edit.html", {**context, "text": edit_text(load_deck(database, deck_id))}), info)
    context |= {"text": text, "version": str(form.get("version") or "")}
    checked = str(form.get("checked") or "")
    stale = step == "save" and checked != _digest(text)
    status, headers = 200, {}
    try:
        if step == "save" and not stale:
            try:
                save_edit(database, deck_id, text, expected=form_versions(form))
                return see_other(f"/decks/{deck_id}#deck-panel")
            except Stale as error:
                status, headers = 412, error_headers(error)[0]
                context |= {"problems": [problem_item(mask(str(error), request))], "version": error.current}
        edit = read_edit(database, deck_id, text)
    except DatabaseError:
        raise  # busy or unusable: its own status, not a problem of the text
    except CardbaseError as error:
        from cardbase.web.errors import naming_inputs

        naming_inputs(error, request)
        return render(request, "edit.html", {**context, "problems": problem_items(error), "named": error.named}, 400)
    context |= {"diff_lines": edit.lines(), "changes": edit.changes, "checked": _digest(text), "stale": stale}
    response = render(request, "edit.html", context, status)
    response.headers.update(headers)
    return response


@router.get("/decks/{deck_text_id}/edit", response_class=HTMLResponse)
def edit_form(request: Request, deck_text_id: str) -> Response:
    return edit_page(request, _deck_id(deck_text_id))


@router.post("/decks/{deck_text_id}/edit", response_class=HTMLResponse)
def edit_deck(request: Request, deck_text_id: str, form: Form, turn: WriteTurn) -> Response:
    """Check the edited text (the change shown), or save it: the deck replaced in one transaction, or nothing
    (a problem of the text, or a deck changed since the text was read)."""
    text = str(form.get("text") or "")
    if len(text) > MAX_DECK_TEXT:
        raise UsageError(f"the deck text has at most {MAX_DECK_TEXT:,} characters")
    return edit_page(request, _deck_id(deck_text_id), text, form, str(form.get("step") or "check"))


# registered last: /decks/compare, /decks/import and /decks/new are not deck ids
@router.get("/decks/{deck_text_id}", response_class=HTMLResponse)
def deck_page(request: Request, deck_text_id: str) -> Response:
    from cardbase.web.deck_views import cached_page, page_key

    deck_id = _deck_id(deck_text_id)
    if NEW_SEED in request.query_params.getlist("seed"):  # the button, beside the typed seed without the script
        return new_hand(request)
    if request.query_params.get("fragment") == "panels":
        return panels_fragment(request, deck_id)  # kept as the panels' view
    key = page_key(request, database_of(request), deck_id, "builder", request.cookies.get(LIST_COOKIE))
    return cached_page(request, key, lambda: builder_page(request, deck_id, request.query_params))


NEW_SEED = "new"
"""The sample hand's ``seed=new`` ("New hand"): a fresh seed, chosen when asked for, never one kept
in a page (a kept page would offer the same "new" hand every time)."""


def new_hand(request: Request) -> RedirectResponse:
    """The same URL with ``seed=new`` replaced by a random seed (303: a reload shows that hand again)."""
    params = [(k, v) for k, v in request.query_params.multi_items() if k != "seed"]
    params.append(("seed", str(secrets.randbelow(2**32))))
    return RedirectResponse(f"{request.url.path}?{urlencode(params)}", status_code=303)


@dataclass
class PanelsView:
    """The deck's panels rendered, and what the builder page around them shows of the deck."""

    html: str
    info: DeckInfo
    listing: dict[str, str]
    format: str | None
    valid: bool
    main_size: int
    in_deck: dict[str, int]


PANEL_KEYS = ("format", "group", "sort", "layout", "open", *(k for keys in LAZY_PANELS.values() for k in keys))
"""The query parameters the panels read (the gallery's are not among them)."""


def panels_view(request: Request, deck_id: int, edited: Edited | None = None) -> PanelsView:
    """The deck's panels as the URL asks for them, made once per version of what they show (``deck_views``;
    an edit's answer makes those of its version: ``edited``, the deck as the edit left it, not read again)."""
    from cardbase.web.deck_views import kept

    database = database_of(request)
    cookie = request.cookies.get(LIST_COOKIE)
    key = panels_key(request, deck_id, edited.info.version if edited else None)

    def make() -> PanelsView:
        params, house = request.query_params, house_of(request)
        return view_of(request, deck_panels(database, deck_id, params, house, cookie, edited, reads_at(request, key)))

    view: PanelsView = kept(request, key, make)
    return view


def panels_key(request: Request, deck_id: int, version: int | None = None) -> tuple[Any, ...]:
    """What the panels of ``deck_id`` as the URL asks for them are kept under (``version``: an edit's)."""
    from cardbase.web.deck_views import page_key

    cookie = request.cookies.get(LIST_COOKIE)
    return page_key(request, database_of(request), deck_id, "panels-view", cookie, PANEL_KEYS, version)


def reads_at(request: Request, key: tuple[Any, ...]) -> Reads:
    """The app's kept ``DeckReads`` under the stamps of ``key`` (``panels_key``'s, read before the panels)."""
    from cardbase.web.deck_views import reads_of

    return Reads(reads_of(request), key[2])


DECK_LIST = "<!-- the deck list -->"
"""Where ``_panels.html`` puts the deck list, rendered apart (``render_panels``)."""


def render_panels(request: Request, panels: Panels, edited_card: str | None = None) -> tuple[str, str]:
    """``panels`` rendered whole (``_panels.html``), and, for an edit of ``edited_card``, the edit's answer to
    the builder's script, which shows the version before it: the same panels with the deck list cut to what
    the edit changed (``_deck_list.html`` with ``delta``: the card's entries, every group's order and the
    headings) and the closed odds and sample hand marked kept (``data-kept``), which the edit leaves alone."""
    from markupsafe import Markup

    from cardbase.web.app import TEMPLATES

    context = {"request": request, **panels_context(request, panels), "listing": panels.listing}
    html = TEMPLATES.get_template("_panels.html").render({**context, "deck_list": Markup(DECK_LIST)})
    deck_list = TEMPLATES.get_template("_deck_list.html")
    whole = html.replace(DECK_LIST, deck_list.render({**context, "delta": None}), 1)
    if edited_card is None:
        return whole, ""
    answer = html.replace(DECK_LIST, deck_list.render({**context, "delta": frozenset([edited_card])}), 1)
    head = f'<div id="panels" data-deck-id="{panels.info.id}" data-version="{panels.info.version}"'
    answer = answer.replace(head, head + " data-delta", 1)
    for panel, closed in (("odds", panels.odds.get("closed")), ("sample-hand", panels.sample.get("closed"))):
        start = answer.find(f'<section id="{panel}" ')
        end = answer.find("</section>", start)
        if closed and start >= 0 and end >= 0:  # neither holds a section of its own
            answer = answer[:start] + f'<section id="{panel}" data-kept>' + answer[end:]
    return whole, answer


def edit_fragment(request: Request, deck_id: int, edited: Edited, card_id: str) -> HTMLResponse:
    """An edit's answer to the builder's script, which shows the version before it: what the edit changed
    (``render_panels``); the whole panels of the edit's version are kept for the next page load."""
    from cardbase.web.deck_views import pages_of

    cookie = request.cookies.get(LIST_COOKIE)
    key = panels_key(request, deck_id, edited.info.version)
    params, house, reads = request.query_params, house_of(request), reads_at(request, key)
    panels = deck_panels(database_of(request), deck_id, params, house, cookie, edited, reads)
    whole, answer = render_panels(request, panels, card_id)
    pages_of(request).put(key, view_from(panels, whole))
    response = tagged(HTMLResponse(answer), edited.info)
    keep_list_choice(request, response, deck_id, panels.listing)
    return response


def view_of(request: Request, panels: Panels) -> PanelsView:
    """``panels`` rendered (``render_panels``), with what the builder page shows of the deck."""
    return view_from(panels, render_panels(request, panels)[0])


def view_from(panels: Panels, html: str) -> PanelsView:
    """The panels ``html`` rendered from ``panels``, with what the builder page shows of the deck."""
    in_deck: dict[str, int] = {}
    for c in panels.resolved.deck.cards:
        in_deck[c.card_id] = in_deck.get(c.card_id, 0) + c.count
    main = panels.resolved.deck.main.size
    return PanelsView(html, panels.info, panels.listing, panels.report.format, panels.report.valid, main, in_deck)


def panels_fragment(request: Request, deck_id: int, edited: Edited | None = None) -> HTMLResponse:
    """The deck's panels alone (what the builder's script swaps in), its list shown as chosen."""
    view = panels_view(request, deck_id, edited)
    response = tagged(HTMLResponse(view.html), view.info)
    keep_list_choice(request, response, deck_id, view.listing)
    return response


def deck_offer(deck_id: int, game: str, format_name: str | None, house: Any = None, version: int = 0) -> dict[str, Any]:
    """What the gallery needs to offer "+ Add" only for the cards the deck's format takes (``not_offered``),
    its forms made from the deck's ``version``."""
    from cardbase.decks.formats import find_format

    fmt = find_format(game, format_name, house) if format_name else None
    return {"id": deck_id, "game": game, "format": fmt, "format_name": format_name, "version": version}


VERSION_HERE = "deck-version-here"
"""What the kept gallery's add forms hold where the deck's version goes (``kept_gallery``)."""
ADD_FORM_CARD = re.compile(
    r'(<input type="hidden" name="card" value="([^"]*)">(?:(?!</form>).)*?<span class="in-deck">)(</span>)', re.S
)
"""A card's add form in the gallery, up to its "in deck" badge (empty in the kept gallery)."""


def kept_gallery(request: Request, deck: dict[str, Any], in_deck: dict[str, int]) -> dict[str, Any]:
    """The builder's gallery: its search and its results rendered once for every version of the deck
    (``deck_views``: keyed by the URL's query and the stamps of the catalog, collection and tags, the
    deck's game and format, not its version), then the deck's version and "in deck" counts put in."""
    import html

    from markupsafe import Markup

    from cardbase.web.app import TEMPLATES
    from cardbase.web.deck_views import kept, page_key

    database = database_of(request)
    key = (*page_key(request, database, deck["id"], "gallery", None, None, 0), deck["game"], deck["format_name"])

    def make() -> tuple[dict[str, Any], str]:
        context, _ = gallery_context(request, {**deck, "version": VERSION_HERE}, request.query_params)
        template = TEMPLATES.get_template("_results.html")
        return context, template.render({**context, "request": request, "in_deck": {}})

    context, results = kept(request, key, make)
    results = results.replace(
        f'name="version" value="{VERSION_HERE}"', f'name="version" value="{int(deck["version"])}"'
    )

    def badge(found: re.Match[str]) -> str:
        count = in_deck.get(html.unescape(found.group(2)))
        return found.group(1) + (f"in deck: {count}" if count else "") + found.group(3)

    if in_deck:
        results = ADD_FORM_CARD.sub(badge, results)
    return {**context, "deck": deck, "results_html": Markup(results)}  # rendered by the template, escaped there


def builder_page(
    request: Request, deck_id: int, params: Any, action_error: str | None = None, status: int = 200
) -> HTMLResponse:
    """The deck builder: the gallery (``params`` hold its search) beside the deck's panels."""
    from markupsafe import Markup

    from cardbase.decks.validate import SECTIONS

    house = house_of(request)
    if params is request.query_params:
        view = panels_view(request, deck_id)
    else:  # a refused change without JavaScript: the panels of the page it came from
        cookie = request.cookies.get(LIST_COOKIE)
        view = view_of(request, deck_panels(database_of(request), deck_id, params, house, cookie))
    info = view.info
    deck = deck_offer(deck_id, info.game, view.format, house, info.version)
    if params is request.query_params:
        context = kept_gallery(request, deck, view.in_deck)
    else:
        context, _ = gallery_context(request, deck, params)
    context |= {
        "info": info,
        "deck_view": view,
        "panels_html": Markup(view.html),  # rendered by the same template, escaped there
        "section_choices": list(SECTIONS.get(info.game, ())),
        "game_title": GAME_TITLES.get(info.game, info.game),
        "action_error": action_error,
        "in_deck": view.in_deck,
    }
    response = render(request, "deck.html", context, status)
    tag(response, "deck", info.id, info.version)
    keep_list_choice(request, response, deck_id, view.listing)
    return response
