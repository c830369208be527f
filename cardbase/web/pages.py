"""The HTML pages (server-rendered with Jinja2; small scripts in ``static/`` make them live).

Thin: every page calls the same feature functions as the CLI (``cards search``, ``cards show``,
``catalog status``/``import``, the ``deck`` commands) and formats their data. The deck pages are
in ``pages_decks``; this module has the gallery, the card page, the catalog and what they share.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from markupsafe import Markup, escape

from cardbase.catalog.fields import GAME_NAMES, source_label, unknown_reason
from cardbase.errors import InvalidData, UnknownCard, counted, plural, said_of, visible
from cardbase.games.base import is_demo
from cardbase.games.mea.board import column_heading as mea_column_heading
from cardbase.games.mea.board import row_heading as mea_row_heading
from cardbase.stats import percent
from cardbase.web.app import TEMPLATES, settings_of
from cardbase.web.errors import for_pages, players_words
from cardbase.web.http import Form, WriteTurn, download

if TYPE_CHECKING:
    from cardbase.db.engine import Database
    from cardbase.decks.formats import HouseFormats

router = APIRouter()

PAGE_SIZE = 60
MAX_PAGE = 10_000
GAME_TITLES = GAME_NAMES
"""Each game's display name by id (``catalog.fields.GAME_NAMES``), as the pages name the games."""


@dataclass(frozen=True)
class SearchHelp:
    """What the search box shows for a game: an example query (its placeholder), the game's own
    terms in the help line, and a sort key."""

    example: str
    terms: tuple[str, ...]
    order: str


MEA_HELP = SearchHelp("t:monster cost<=3 (o:draw or atk>=3)", ("cost<=3",), "atk")
SEARCH_HELP = {
    "": MEA_HELP,  # every game: Méa's, the game most of the catalog is
    "mea": MEA_HELP,
    "meio": SearchHelp("suit:hearts rank>=10", ("suit:h", "rank>=10"), "rank"),
    "meikyu": SearchHelp("t:land level<=5 or t:item", ("level<=5", "points>=3"), "level"),
}

# --- what the templates share ------------------------------------------------------------------


def card_url(card_id: str) -> str:
    """The card page of ``card_id`` (``game/set/slug``; the slug may hold any script)."""
    return "/cards/" + quote(card_id, safe="/")


def image_url(card_id: str, width: int = 300, table: str | None = None) -> str:
    """The card image drawn by the server (web core's route) at ``width`` px; ``table``: as that game
    table plays the card (a Meikyu table's values, the assumed ones marked)."""
    at = f"/play/{quote(table, safe='')}" if table else ""
    return f"{at}/cards/{quote(card_id, safe='/')}/image.png?w={width}"


PREVIEW_WIDTH = 600
"""The card preview's image (``static/preview.js``): twice a 300 px face, crisp at about 440 px wide."""


def preview_url(card_id: str, table: str | None = None) -> str:
    """The image a card's preview shows (an element's ``data-preview``); ``table``: at that game table."""
    return image_url(card_id, PREVIEW_WIDTH, table)


def value_text(card: dict[str, Any], field_name: str) -> str:
    """A value as the CLI shows it: the value, ``?`` unknown, ``—`` not applicable."""
    from cardbase.catalog.fields import value_text as text

    return text(card["game"], card["type"], field_name, card.get(field_name))


def meio_label(card: dict[str, Any]) -> str:
    """A Meio card as players write it: ``QH``, ``AS`` (ace high), ``10D``."""
    from cardbase.games.meio.cards import RANK_LETTERS

    rank = card.get("rank")
    return f"{RANK_LETTERS.get(rank, str(rank)) if rank is not None else '?'}{card.get('suit') or '?'}"


def link_query(base: str, **params: Any) -> str:
    """``base?params`` without the empty ones."""
    kept = {k: v for k, v in params.items() if v not in (None, "", False)}
    return base + ("?" + urlencode(kept) if kept else "")


def demo_badge() -> Markup:
    """The label of a demo card (made for cardbase), wherever a card's name shows."""
    from cardbase.db.queries import DEMO_LABEL

    return Markup(f' <span class="badge demo" title="{escape(DEMO_LABEL)}">demo</span>')


def score(x: float) -> str:
    """A game's score as players say it: whole tiles, tricks or points without ``.0``; a share of
    a point (an average) in at most two decimals."""
    return str(int(x)) if float(x).is_integer() else f"{x:.2f}".rstrip("0")


def commands(text: str) -> Markup:
    """A hint's text with its `quoted commands` as code (the CLI prints them as they are)."""
    import re

    parts = re.split(r"`([^`]+)`", str(text))
    return Markup("").join(
        escape(part) if k % 2 == 0 else Markup("<code>%s</code>") % part for k, part in enumerate(parts)
    )


def history_lines(versions: list[Any]) -> list[Any]:
    """A deck's versions as its history shows them (``decks.history.history_lines``: a burst on one card, one line)."""
    from cardbase.decks.history import history_lines as lines

    return lines(list(versions))


TEMPLATES.env.filters["commands"] = commands
TEMPLATES.env.filters["history_lines"] = history_lines
TEMPLATES.env.filters["percent"] = percent
TEMPLATES.env.filters["score"] = score
TEMPLATES.env.filters["counted"] = counted
TEMPLATES.env.filters["plural"] = plural
TEMPLATES.env.globals.update(
    card_url=card_url,
    image_url=image_url,
    preview_url=preview_url,
    meio_label=meio_label,
    mea_column_heading=mea_column_heading,
    mea_row_heading=mea_row_heading,
    value_text=value_text,
    link_query=link_query,
    GAME_TITLES=GAME_TITLES,
    SEARCH_HELP=SEARCH_HELP,
    demo_badge=demo_badge,
    is_demo=is_demo,
    source_label=source_label,
    unknown_reason=unknown_reason,
)


def render(request: Request, name: str, context: dict[str, Any], status_code: int = 200) -> HTMLResponse:
    return TEMPLATES.TemplateResponse(request, name, context, status_code=status_code)


def query_term(message: str, query: str) -> str | None:
    """The offending term a query error names (as the API's ``term``)."""
    from cardbase.web.errors import query_term as term

    return term(message, query)


def database_of(request: Request) -> Any:
    return settings_of(request).database


def house_of(request: Request) -> HouseFormats | None:
    """The house formats the server was started with (``serve --formats``), or None."""
    return settings_of(request).house


def see_other(url: str) -> RedirectResponse:
    """After a POST: back to a page (303, so a reload does not post again)."""
    return RedirectResponse(url, status_code=303)


# --- home ---------------------------------------------------------------------------------------


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> HTMLResponse:
    from cardbase.decks.store import list_decks
    from cardbase.names import fold

    decks = sorted(list_decks(database_of(request)), key=lambda d: (d["game"], fold(d["name"]), d["name"]))
    return render(request, "home.html", {"decks": decks[:12]})


# --- gallery ------------------------------------------------------------------------------------


@dataclass
class Gallery:
    """One page of search results, or the error of a bad query and the results of the last good one."""

    query: str  # the query as run (q with the set and type filters)
    cards: list[dict[str, Any]] = field(default_factory=list)
    total: int = 0
    page: int = 1
    error: str | None = None
    term: str | None = None
    bad_query: str = ""

    @property
    def error_parts(self) -> tuple[str, str]:
        """The error's message, and its long tail (a list of fields) to fold away."""
        message = self.error or ""
        head, sep, tail = message.partition("; ")
        return (head, tail) if sep and len(tail) > 80 else (message, "")

    @property
    def term_parts(self) -> tuple[str, str, str] | None:
        """The bad query cut around its offending term, to mark it."""
        if not self.term or self.term not in self.bad_query:
            return None
        before, _, after = self.bad_query.partition(self.term)
        return visible(before), visible(self.term), visible(after)

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // PAGE_SIZE))


def full_query(q: str, set_: str = "", type_: str = "") -> str:
    """The search query of the gallery's box and its set and type filters (as ``set:`` and ``t:`` terms)."""
    parts = [q.strip()] if q.strip() else []
    for key, value in (("set", set_), ("t", type_)):
        value = value.strip()
        if value:
            parts.append(f'{key}:"{value}"' if re.search(r"\s", value) else f"{key}:{value}")
    return " ".join(parts)


def search_page(
    database: Database, query: str, game: str | None, order: str | None, direction: str | None, page: int
) -> Gallery:
    """The ``page``-th 60 cards of ``cards search QUERY`` (the same parser, the same order)."""
    from cardbase.db.queries import card_dict
    from cardbase.db.search import count_cards, search_cards

    with database.session() as session:
        rows = search_cards(session, query, game, PAGE_SIZE, order, direction, offset=(page - 1) * PAGE_SIZE)
        cards = [card_dict(c) for c in rows]
        total = count_cards(session, query, game)
    return Gallery(query, cards, total, page)


def run_gallery(
    database: Database,
    query: str,
    game: str | None,
    order: str | None,
    direction: str | None,
    page: int,
    last: str = "",
) -> Gallery:
    """``search_page``; a bad query keeps the results of ``last`` (the previous good query) and says why."""
    from cardbase.errors import QueryError

    try:
        return search_page(database, query, game, order, direction, page)
    except QueryError as error:
        try:
            kept = search_page(database, last, game, None, None, 1)
        except QueryError:
            kept = Gallery(last)
        kept.error, kept.term = str(error), query_term(str(error), query)
        kept.query, kept.bad_query = last, query
        return kept


def _page_number(page: str | None) -> int:
    from cardbase.errors import UsageError, quoted
    from cardbase.games.base import whole_number

    text = (page or "1").strip()
    number = whole_number(text, MAX_PAGE) if text.isascii() else None
    if not number:
        raise UsageError(f"page must be a whole number from 1 to {MAX_PAGE:,}, not {quoted(page)}")
    return number


def gallery_context(
    request: Request, deck: dict[str, Any] | None = None, query_params: Any = None
) -> tuple[dict[str, Any], Gallery]:
    """The gallery's parameters read from the URL (or ``query_params``), the search run, and the template's context."""
    from cardbase.db.queries import check_game, set_rows
    from cardbase.db.search import DIRECTIONS

    p = request.query_params if query_params is None else query_params
    q, set_, type_ = p.get("q", ""), p.get("set", ""), p.get("type", "")
    raw_game = p.get("game") or None
    # in a deck: the deck's game unless another (or all, to see a card of another game refused) is chosen
    chosen = raw_game or (deck["game"] if deck else None)
    game = None if deck and raw_game == "all" else check_game(chosen)
    order, direction = p.get("order") or None, p.get("direction") or None
    view = "table" if p.get("view") == "table" else "grid"
    page = _page_number(p.get("page"))
    query = full_query(q, set_, type_)
    result = run_gallery(database_of(request), query, game, order, direction, page, p.get("last", ""))
    if deck:
        from cardbase.decks.validate import not_offered

        for c in result.cards:
            c["refused"] = not_offered(deck["format"], deck["game"], c["game"], c["name"], c["type"], c["set"])
    with database_of(request).session() as session:
        sets = sorted({s.code for s in set_rows(session, game)})
    params = {"q": q, "game": raw_game if deck else game, "set": set_, "type": type_}
    params |= {"order": order, "direction": direction, "view": view if view != "grid" else None}
    context = {
        "q": q,
        "game": game,
        "set": set_,
        "type": type_,
        "order": order or "",
        "direction": direction or "",
        "view": view,
        "result": result,
        "sets": sets,
        "order_keys": ORDER_KEYS,
        "directions": DIRECTIONS,
        "params": params,
        "deck": deck,
        "base": f"/decks/{deck['id']}" if deck else "/cards",
        "section": p.get("section", ""),
    }
    return context, result


ORDER_KEYS = ("name", "cost", "atk", "def", "level", "points", "bravery", "wits", "rank", "set", "type", "game")


@router.get("/cards", response_class=HTMLResponse)
def cards(request: Request) -> HTMLResponse:
    deck = None
    if request.query_params.get("deck"):  # the deck builder's gallery: results with add buttons
        from cardbase.decks.formats import default_format
        from cardbase.decks.store import deck_by_id
        from cardbase.web.pages_decks import _deck_id, deck_offer

        info = deck_by_id(database_of(request), _deck_id(request.query_params["deck"]))
        fmt = info.format or default_format(info.game, info.players)
        deck = deck_offer(info.id, info.game, fmt, house_of(request), info.version)
    context, result = gallery_context(request, deck)
    template = "_results.html" if request.query_params.get("fragment") else "cards.html"
    return render(request, template, context, 400 if result.error else 200)


# --- one card -----------------------------------------------------------------------------------


def card_page_data(database: Database, card_id: str) -> tuple[dict[str, Any], Any, dict[str, str]]:
    """``cards show --json``'s data of one card by id with its abilities in words, and what its picture
    is drawn from (the row, detached, and the art it declares), read in one session."""
    from cardbase.db.models import Card
    from cardbase.db.queries import aliases_of, card_dict, tags_of
    from cardbase.render.art import declared_paths

    with database.session() as session:
        card = session.get(Card, card_id)
        if card is None:
            raise UnknownCard(card_id.rsplit("/", 1)[-1], None, [])
        data = card_dict(card, aliases_of(session, card), tags_of(session, card))
        declared = declared_paths(session, [card.id])
        session.expunge(card)
    data["abilities_text"] = abilities_text(data)
    return data, card, declared


def abilities_text(card: dict[str, Any]) -> str | None:
    """A Méa card's abilities as the sentences they encode (None when it has none as data)."""
    if card["game"] != "mea" or not card.get("abilities"):
        return None
    from cardbase.games.mea.abilities import parse_abilities, render_card

    try:
        return render_card(parse_abilities(card["abilities"], card["type"]))
    except ValueError:
        return None


HIDDEN_FIELDS = frozenset(
    [
        "id",
        "short_id",
        "game",
        "name",
        "type",
        "set",
        "source",
        "demo",
        "unknown",
        "label",
        "abilities",
        "abilities_text",
        "aliases",
        "tags",
        "notes",
        "text",
        "description",
    ]
)


@router.get("/cards/{card_id:path}", response_class=HTMLResponse)
def card_page(request: Request, card_id: str) -> HTMLResponse:
    from cardbase.decks.store import list_decks

    card, row, declared = card_page_data(database_of(request), card_id)
    fields = [(k, value_text(card, k)) for k in card if k not in HIDDEN_FIELDS]  # every field of its game
    decks = [d for d in list_decks(database_of(request)) if d["game"] == card["game"]]
    from cardbase.decks.validate import SECTIONS
    from cardbase.render.screen import print_notes
    from cardbase.web.pages_owners import card_extras

    settings = request.app.state.settings
    return render(
        request,
        "card.html",
        {
            "card": card,
            "fields": fields,
            "decks": decks,
            "sections": SECTIONS.get(card["game"], ()),
            "print_notes": print_notes(row, settings.images, declared),
            **card_extras(database_of(request), card["id"]),
        },
    )


# --- catalog ------------------------------------------------------------------------------------


@router.get("/catalog", response_class=HTMLResponse)
def catalog(request: Request) -> HTMLResponse:
    return render(request, "catalog.html", catalog_context(request))


def catalog_context(request: Request, **extra: Any) -> dict[str, Any]:
    from cardbase.db.queries import GAMES, catalog_status
    from cardbase.games.meikyu.pool import missing_census
    from cardbase.sim.meikyu import catalog_cards

    database = database_of(request)
    with database.session() as session:
        rows = catalog_status(session, None)
    census = missing_census(catalog_cards(database))  # what `catalog status` says under its table
    label = database.label if settings_of(request).loopback else ""  # off loopback, no server paths
    return {"rows": rows, "games": GAMES, "label": label, "meikyu_census": str(census) if census.total else "", **extra}


@router.post("/catalog/import", response_class=HTMLResponse)
def catalog_import(request: Request, form: Form, turn: WriteTurn) -> HTMLResponse:
    """Upload a spreadsheet: a dry run lists every bad row and writes nothing; ``confirm`` imports it
    (the page sends the file back in base64, as the dry run showed it)."""
    import base64
    import binascii

    from cardbase.errors import UnreadableInput, UsageError
    from cardbase.web.uploads import import_sheet, read_upload, upload_name

    upload, payload = form.get("sheet"), form.get("payload")
    if isinstance(payload, str) and payload:  # the confirmation of a dry run: the same bytes again
        try:
            raw = base64.b64decode(payload, validate=True)
        except (binascii.Error, ValueError):
            raise UsageError("the confirmation lost its file; upload the spreadsheet again") from None
        filename = str(form.get("filename") or "upload")
    elif upload is not None and not isinstance(upload, str) and upload.filename:
        raw, filename = read_upload(upload, upload.filename), upload.filename
    else:
        refused = UsageError("choose a spreadsheet file (CSV, XLSX or JSON) to upload")
        raise refused.refusing(upload) if isinstance(upload, str) and upload else refused  # a text: named
    confirm = form.get("confirm") == "1"
    if not confirm:
        turn.release()  # a dry run writes nothing: the change slots are the writers'
    game = str(form.get("game") or "")
    try:
        result = import_sheet(database_of(request), raw, filename, game, dry_run=not confirm)
        problems: list[str] = []
    except InvalidData as error:
        result, problems = None, [players_words(said_of(p)) for p in error.problems]
    except UnreadableInput as error:
        result, problems = None, [for_pages(error)]
    context = catalog_context(
        request,
        preview=result,
        problems=problems,
        filename=upload_name(filename),
        game=game,
        confirmed=confirm and result is not None,
    )
    if not confirm and result is not None:
        context["payload"] = base64.b64encode(raw).decode()
    return render(request, "catalog.html", context, 400 if problems else 200)


XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@router.get("/catalog/template/{game}.{fmt}")
def catalog_template(request: Request, game: str, fmt: str) -> Response:
    """``catalog template --game GAME --format FMT`` as a download: the spreadsheet to fill in."""
    from pathlib import Path

    from cardbase.db.io import TEMPLATE_FORMATS, write_template
    from cardbase.db.queries import check_game
    from cardbase.errors import UsageError

    game_id = check_game(game) or ""
    if fmt not in TEMPLATE_FORMATS:
        raise UsageError(f"unknown template format {fmt!r}; use xlsx or csv")
    from cardbase.textfiles import read_bytes, scratch_folder

    with scratch_folder("cardbase-template-") as folder:
        out = Path(folder) / f"{game_id}-template.{fmt}"
        write_template(database_of(request), game_id, fmt, out)
        data = read_bytes(out, "template")
    return download(data, out.name, "text/csv; charset=utf-8" if fmt == "csv" else XLSX)


def _pages_decks() -> None:
    from cardbase.web import pages_decks

    router.include_router(pages_decks.router)


_pages_decks()
