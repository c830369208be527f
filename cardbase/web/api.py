"""The JSON API: the same shapes as the CLI's ``--json``, built by the same feature functions.

Thin: each route checks its parameters (every one bounded; a bad one is 400 naming it), calls the
feature packages and returns what they return. Errors are ``cardbase.web.errors``'s.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import APIRouter, Depends, File, Form, Query, Request, UploadFile
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, Field

from cardbase.decks.formats import MAX_FORMAT_NAME
from cardbase.decks.store import MAX_DECK_ID
from cardbase.errors import plural
from cardbase.games.base import MAX_SEED
from cardbase.web.app import settings_of
from cardbase.web.http import SHEET_MEDIA, JsonBody, OnlyDeclared, WriteTurn, download, etag, expected, tag
from cardbase.web.jsonresponse import JSONResponse
from cardbase.web.settings import DECK_TEXT_BYTES, ServerSettings

if TYPE_CHECKING:
    from sqlmodel import Session

router = APIRouter()

MAX_LIMIT = 10_000  # as `cards search --limit`
MAX_OFFSET = 1_000_000
MAX_NEEDS = 20
NOTES_HEADER = "Cardbase-Notes"  # the notes a command writes on stderr beside its --json

Settings = Annotated[ServerSettings, Depends(settings_of)]
GameQuery = Annotated[str | None, Query(max_length=20, description="mea, meio or meikyu.")]
FormatQuery = Annotated[
    str | None,
    Query(max_length=MAX_FORMAT_NAME, description="Format to check against (default: the deck's, else standard)."),
]


class NewDeck(JsonBody):
    game: str = Field(max_length=20)
    name: str = Field(min_length=1, max_length=200)
    format: str | None = Field(default=None, max_length=MAX_FORMAT_NAME)
    players: int | None = Field(default=None, ge=2, le=4)


class DeckChange(JsonBody):
    """A deck's new ``name`` and/or ``format`` (``null``: the game's default for the deck); absent fields stay."""

    name: str | None = Field(default=None, min_length=1, max_length=200)
    format: str | None = Field(default=None, max_length=MAX_FORMAT_NAME)


class CardChange(JsonBody):
    """A card by ``name`` (or alias, any case) or by ``card`` id, copies and a section."""

    name: str | None = Field(default=None, min_length=1, max_length=300)
    card: str | None = Field(default=None, min_length=1, max_length=300)
    count: int | None = Field(default=None, ge=0, le=999)
    section: str | None = Field(default=None, max_length=40)


class DeckImport(JsonBody):
    """A deck as ``text`` (a deck list or deck JSON) or as a share ``code``."""

    text: str | None = Field(default=None, max_length=DECK_TEXT_BYTES)
    code: str | None = Field(default=None, max_length=20_000)
    name: str | None = Field(default=None, min_length=1, max_length=200)
    replace: bool = False
    game: str | None = Field(default=None, max_length=20)


def _db(settings: ServerSettings) -> Any:
    return settings.database


def _game(game: str | None) -> str | None:
    from cardbase.db.queries import check_game

    return check_game(game or None)


# --- cards ------------------------------------------------------------------------------------


@router.get("/healthz", tags=["server"])
def healthz() -> dict[str, str]:
    return {"status": "ok"}


@router.get("/api/docs", tags=["server"], response_class=HTMLResponse, include_in_schema=False)
def docs(request: Request) -> HTMLResponse:
    """Every route of the API with its parameters, from the app's OpenAPI document (served here, offline)."""
    from html import escape

    spec = request.app.openapi()
    rows = []
    for path, methods in spec["paths"].items():
        for method, op in methods.items():
            params = ", ".join(
                f"{p['name']}{'' if p.get('required') else '?'}" for p in op.get("parameters", []) if p["in"] == "query"
            )
            body = "JSON body" if "requestBody" in op else ""
            rows.append(
                f"<tr><td><code>{escape(method.upper())} {escape(path)}</code></td>"
                f"<td>{escape(params)}</td><td>{escape(body)}</td><td>{escape(op.get('description', ''))}</td></tr>"
            )
    page = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>cardbase API</title></head><body>'
        "<h1>cardbase API</h1><p>The same JSON as the commands' <code>--json</code>; "
        '<a href="/api/openapi.json">the OpenAPI document</a>.</p>'
        "<table><thead><tr><th>route</th><th>query</th><th>body</th><th>what</th></tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table></body></html>"
    )
    return HTMLResponse(page)


@router.get("/api/cards", tags=["cards"])
def search(
    settings: Settings,
    q: Annotated[str, Query(description="A `cards search` query (empty: every card).")] = "",
    game: GameQuery = None,
    limit: Annotated[int, Query(ge=1, le=MAX_LIMIT)] = 60,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
    order: Annotated[str | None, Query(max_length=40)] = None,
    direction: Annotated[str | None, Query(max_length=10)] = None,
    ace: Annotated[str | None, Query(max_length=10, description="Meio: `high` (default) or `low`.")] = None,
) -> JSONResponse:
    """The cards matching ``q``: the array of ``cards search --json``."""
    from cardbase.db.queries import card_dict
    from cardbase.db.search import search_cards

    with _db(settings).session() as session:
        rows = search_cards(session, q, _game(game), limit, order, direction, ace, offset=offset)
        return JSONResponse([card_dict(c) for c in rows])  # as is: no second pass through the response model


@router.get("/api/cards/count", tags=["cards"])
def count(settings: Settings, q: str = "", game: GameQuery = None) -> dict[str, int]:
    """How many cards match ``q`` (for paging)."""
    from cardbase.db.search import count_cards

    with _db(settings).session() as session:
        return {"count": count_cards(session, q, _game(game))}


@router.get("/api/cards/{card_id:path}", tags=["cards"])
def card(settings: Settings, card_id: Annotated[str, PathParam(max_length=300)]) -> dict[str, Any]:
    """One card with its aliases: the object of ``cards show --json``."""
    from cardbase.db.queries import aliases_of, card_dict, tags_of

    with _db(settings).session() as session:
        found = _card_by_id(session, card_id)
        return card_dict(found, aliases_of(session, found), tags_of(session, found))


def _card_by_id(session: Session, card_id: str, game: str | None = None) -> Any:
    from cardbase.db.models import Card
    from cardbase.errors import UnknownCard

    found = session.get(Card, card_id)
    if found is None or (game is not None and found.game != game):
        raise UnknownCard(card_id, game)
    return found


# --- decks ------------------------------------------------------------------------------------


@router.get("/api/decks", tags=["decks"])
def decks(settings: Settings) -> list[dict[str, Any]]:
    """Every database deck: the array of ``deck list --json``."""
    from cardbase.decks.store import list_decks

    return list_decks(_db(settings))


def _tagged(response: Response, info: Any) -> dict[str, Any]:
    """A deck's fields (``DeckInfo``) as the answer, with the deck's ETag."""
    tag(response, "deck", info.id, info.version)
    data: dict[str, Any] = info.as_dict()
    return data


@router.post("/api/decks", tags=["decks"], status_code=201)
def new(settings: Settings, body: NewDeck, response: Response, turn: WriteTurn) -> dict[str, Any]:
    """Make an empty deck; 201 with the deck (its ``id``)."""
    from cardbase.decks.store import deck_by_id, new_deck

    game = _game(body.game) or ""
    deck_id = new_deck(_db(settings), body.name, game, body.format, body.players, settings.house)
    return _tagged(response, deck_by_id(_db(settings), deck_id))


@router.post("/api/decks/import", tags=["decks"], status_code=201, dependencies=[OnlyDeclared])
def import_(settings: Settings, body: DeckImport, response: Response, turn: WriteTurn) -> dict[str, Any]:
    """Store a deck given as text, JSON or share code: all of it or nothing (400 listing every problem)."""
    from cardbase.decks.service import decode_code, import_deck, read_deck_data
    from cardbase.decks.store import deck_by_id
    from cardbase.errors import UsageError

    database = _db(settings)
    if (body.text is None) == (body.code is None):
        raise UsageError("give the deck as text (a deck list or deck JSON) or as code (a share code), one of them")
    deck = read_deck_data(body.text, "pasted deck") if body.text is not None else None
    if deck is None:
        assert body.code is not None
        decoded = decode_code(database, body.code)
        deck_id, _ = import_deck(database, decoded, name=body.name, replace=body.replace, game=_game(body.game))
    else:
        deck_id, _ = import_deck(database, deck, name=body.name, replace=body.replace, game=_game(body.game))
    return _tagged(response, deck_by_id(database, deck_id))


@router.get("/api/decks/diff", tags=["decks"])
def diff(
    settings: Settings, a: Annotated[int, Query(ge=1, le=MAX_DECK_ID)], b: Annotated[int, Query(ge=1, le=MAX_DECK_ID)]
) -> dict[str, Any]:
    """What changed from deck ``a`` to deck ``b``: the object of ``deck diff --json``."""
    from cardbase.decks.diff import deck_diff

    return deck_diff(_resolved(settings, a), _resolved(settings, b))


def _resolved(settings: ServerSettings, deck_id: int) -> Any:
    from cardbase.decks.service import resolve_stored

    return resolve_stored(_db(settings), deck_id)


def _check_id(deck_id: int) -> int:
    from cardbase.decks.store import UnknownDeck

    if not 1 <= deck_id <= MAX_DECK_ID:
        raise UnknownDeck(f"no deck with id {deck_id}")
    return deck_id


@router.get("/api/decks/{deck_id}", tags=["decks"])
def deck(settings: Settings, deck_id: int, response: Response, format: FormatQuery = None) -> dict[str, Any]:
    """The deck with every entry and its validation (``deck show --json``), and its fields (id, name,
    version, …); its ETag names the version, for ``If-Match`` on a change."""
    from cardbase.decks.owned import collection_field
    from cardbase.decks.service import show_dict, validate_resolved
    from cardbase.decks.store import deck_by_id

    info = deck_by_id(_db(settings), _check_id(deck_id))  # before the entries: the ETag is never newer
    resolved = _resolved(settings, deck_id)
    report, _ = validate_resolved(resolved, format, settings.house)
    owned = collection_field(_db(settings), resolved.game, resolved.deck)
    return show_dict(resolved, report, info.name) | owned | {"info": _tagged(response, info)}


@router.patch("/api/decks/{deck_id}", tags=["decks"])
def change(
    settings: Settings, request: Request, deck_id: int, body: DeckChange, response: Response, turn: WriteTurn
) -> dict[str, Any]:
    """Rename a deck (409 if another deck has the name) and/or set the format it is checked against;
    with ``If-Match``, only if the deck is still at that version (else 412)."""
    from cardbase.decks.store import KEEP, update_deck

    name = KEEP if body.name is None else body.name
    fmt = body.format if "format" in body.model_fields_set else KEEP
    info = update_deck(
        _db(settings),
        _check_id(deck_id),
        name=name,
        fmt=fmt,
        house=settings.house,
        expected=expected(request, "deck", deck_id),
    )
    return _tagged(response, info)


@router.post("/api/decks/{deck_id}/duplicate", tags=["decks"], status_code=201)
def duplicate(
    settings: Settings, deck_id: int, response: Response, turn: WriteTurn, body: DeckChange | None = None
) -> dict[str, Any]:
    """A copy of the deck, named ``body.name`` or ``NAME (copy)``."""
    from cardbase.decks.store import duplicate_deck

    return _tagged(response, duplicate_deck(_db(settings), _check_id(deck_id), body.name if body else None))


@router.delete("/api/decks/{deck_id}", tags=["decks"])
def delete(settings: Settings, request: Request, deck_id: int, turn: WriteTurn) -> dict[str, Any]:
    """Delete a deck (with ``If-Match``, only at that version); the answer holds its JSON export, so a
    client can undo by importing it."""
    from cardbase.decks.files import write_json
    from cardbase.decks.store import delete_deck, load_deck

    database = _db(settings)
    versions = expected(request, "deck", _check_id(deck_id))
    kept = write_json(load_deck(database, deck_id))
    delete_deck(database, deck_id, versions)
    return {"deleted": deck_id, "export": kept}


def _card_of(settings: ServerSettings, deck_id: int, body: CardChange) -> tuple[Any, Any]:
    from cardbase.db.queries import find_card
    from cardbase.decks.store import WrongGame, deck_by_id
    from cardbase.errors import UnknownCard, UsageError

    info = deck_by_id(_db(settings), _check_id(deck_id))
    if (body.name is None) == (body.card is None):
        raise UsageError("give the card by name or by card (its id), one of them")
    with _db(settings).session() as session:
        if body.card is not None:
            return info, _card_by_id(session, body.card)
        assert body.name is not None
        try:
            return info, find_card(session, body.name, info.game)
        except UnknownCard as error:
            if error.elsewhere:  # another game's card: refused as the same card given by its id is
                raise WrongGame(body.name, error.elsewhere, info.name, info.game) from None
            raise


def _edit(
    settings: ServerSettings, request: Request, response: Response, deck_id: int, body: CardChange, edit: Any
) -> dict[str, Any]:
    """One change of a deck's cards (``decks.store.edit_card``), honouring ``If-Match``; the copies of the
    card afterwards and the deck as it then is (its ETag on the answer)."""
    from cardbase.decks.store import edit_card

    _, found = _card_of(settings, deck_id, body)
    count = body.count if edit != "add" else body.count or 1
    now, info = edit_card(_db(settings), deck_id, found, edit, count, body.section, expected(request, "deck", deck_id))
    return {
        "card": found.id,
        "name": found.name,
        "section": body.section,
        "count": now,
        "deck": _tagged(response, info),
    }


@router.post("/api/decks/{deck_id}/cards", tags=["decks"])
def add(
    settings: Settings, request: Request, deck_id: int, body: CardChange, response: Response, turn: WriteTurn
) -> dict[str, Any]:
    """Add ``count`` (default 1) copies; ``count`` in the answer is the copies now in the deck."""
    from cardbase.errors import UsageError

    if body.count == 0:
        raise UsageError("count: adding needs at least 1 copy")
    return _edit(settings, request, response, deck_id, body, "add")


@router.put("/api/decks/{deck_id}/cards", tags=["decks"])
def set_(
    settings: Settings, request: Request, deck_id: int, body: CardChange, response: Response, turn: WriteTurn
) -> dict[str, Any]:
    """Make the deck hold exactly ``count`` copies (0 removes the card)."""
    from cardbase.errors import UsageError

    if body.count is None:
        raise UsageError("count: is required (0 to 999)")
    return _edit(settings, request, response, deck_id, body, "set")


@router.delete("/api/decks/{deck_id}/cards", tags=["decks"])
def remove(
    settings: Settings, request: Request, deck_id: int, body: CardChange, response: Response, turn: WriteTurn
) -> dict[str, Any]:
    """Remove ``count`` copies (all when no count); ``count`` in the answer is the copies left."""
    from cardbase.errors import UsageError

    if body.count == 0:
        raise UsageError("count: removing needs at least 1 copy (or no count, for all)")
    return _edit(settings, request, response, deck_id, body, "remove")


def _deck_etag(settings: ServerSettings, deck_id: int) -> str:
    """The ETag of the deck an answer is computed from (read first: never newer than what it shows)."""
    from cardbase.decks.store import deck_by_id

    info = deck_by_id(_db(settings), _check_id(deck_id))
    return etag("deck", info.id, info.version)


@router.get("/api/decks/{deck_id}/validation", tags=["decks"])
def validation(settings: Settings, deck_id: int, response: Response, format: FormatQuery = None) -> dict[str, object]:
    """Every problem of the deck: the object of ``deck validate --json``."""
    from cardbase.decks.owned import collection_field
    from cardbase.decks.service import validate_resolved

    response.headers["ETag"] = _deck_etag(settings, deck_id)
    resolved = _resolved(settings, deck_id)
    report, _ = validate_resolved(resolved, format, settings.house)
    problems = {"problems": [p.for_players() for p in report.problems]}  # with the players' words beside
    return report.as_dict() | problems | collection_field(_db(settings), resolved.game, resolved.deck)


@router.get("/api/decks/{deck_id}/stats", tags=["decks"])
def stats(settings: Settings, deck_id: int, response: Response, format: FormatQuery = None) -> dict[str, Any]:
    """The deck's numbers: the object of ``deck stats --json``."""
    from cardbase.decks.service import choose_format
    from cardbase.decks.stats import deck_stats

    response.headers["ETag"] = _deck_etag(settings, deck_id)
    resolved = _resolved(settings, deck_id)
    fmt, _ = choose_format(resolved, format, settings.house)
    return deck_stats(resolved, fmt)


@router.get("/api/decks/{deck_id}/draws", tags=["decks"])
def draws(
    settings: Settings,
    deck_id: int,
    response: Response,
    need: Annotated[list[str], Query(max_length=MAX_NEEDS, description='At least: "COUNT QUERY".')] = [],  # noqa: B006
    at_most: Annotated[list[str], Query(max_length=MAX_NEEDS)] = [],  # noqa: B006
    exactly: Annotated[list[str], Query(max_length=MAX_NEEDS)] = [],  # noqa: B006
    cards: Annotated[int | None, Query(ge=0, le=1000)] = None,
    by_turn: Annotated[int | None, Query(ge=1, le=100)] = None,
    opening: Annotated[int, Query(ge=1, le=10)] = 5,
    players: Annotated[int | None, Query(ge=1, le=5)] = None,
    mana: Annotated[str, Query(max_length=40)] = "5,5",
    trials: Annotated[int | None, Query(ge=1, le=1_000_000)] = None,
    seed: Annotated[int, Query(ge=0, le=MAX_SEED)] = 0,
    sample: Annotated[int | None, Query(ge=1, le=100)] = None,
) -> Any:
    """Exact chances of the needs (or the opening report, or ``sample`` hands): as ``draws --json``. The
    notes that command writes beside them on stderr (unknown values not counted, demo cards, cards
    left out) come in the ``Cardbase-Notes`` header, a JSON list of strings."""
    from cardbase.draws.exact import Kind
    from cardbase.draws.reports import draw_model, draws_data
    from cardbase.draws.service import parse_need, setup
    from cardbase.errors import UsageError

    needs = [parse_need(t, Kind.AT_LEAST) for t in need]
    needs += [parse_need(t, Kind.AT_MOST) for t in at_most]
    needs += [parse_need(t, Kind.EXACTLY) for t in exactly]
    if cards is not None and by_turn is not None:
        raise UsageError("give cards or by_turn, not both")
    database = _db(settings)
    response.headers["ETag"] = _deck_etag(settings, deck_id)
    resolved = _resolved(settings, deck_id)
    if not resolved.deck.main.cards:
        raise UsageError("the deck is empty: add cards to see its draws")
    deck = setup(database, resolved, needs, resolved.source)
    deck.for_players(players, "players:")
    model = draw_model(deck, needs, opening, players)
    data, notes = draws_data(
        database, deck, model, cards=cards, by_turn=by_turn, mana=_mana(mana), trials=trials, seed=seed, sample=sample
    )
    if notes:
        response.headers[NOTES_HEADER] = _notes_header(notes)
    return data


def _notes_header(notes: list[str], bound: int = 4_000) -> str:
    """Notes a command writes on stderr, as a header: a JSON list of strings, non-ASCII escaped, kept
    under ``bound`` characters (what does not fit is counted in a last note)."""
    kept: list[str] = []
    for k, note in enumerate(notes):
        if len(json.dumps([*kept, note, "and 999 more notes"])) > bound:
            kept.append(f"and {len(notes) - k} more {plural(len(notes) - k, 'note')}")
            break
        kept.append(note)
    return json.dumps(kept)


def _mana(text: str) -> list[int]:
    from cardbase.errors import UsageError
    from cardbase.games.base import whole_number

    parts = [p.strip() for p in text.split(",") if p.strip()]
    if not parts or len(parts) > 2 or not all(p.isascii() and whole_number(p, 99) is not None for p in parts):
        raise UsageError(f"mana {text!r}: give one or two whole numbers from 0 to 99, e.g. 3,4")
    return [int(p) for p in parts]  # checked above: at most two digits each


@router.get("/api/decks/{deck_id}/export", tags=["decks"])
def export(
    settings: Settings,
    deck_id: int,
    format: Annotated[Literal["text", "json", "code", "arena", "plain", "mtgo", "cod", "ydk"], Query()] = "text",
) -> Response:
    """The deck as a text list, JSON, a share code or another tool's list (as ``deck export``), sections included."""
    from cardbase.decks.files import EXPORT_FILES, write_deck
    from cardbase.decks.store import deck_by_id
    from cardbase.names import file_slug

    info = deck_by_id(_db(settings), _check_id(deck_id))
    resolved = _resolved(settings, deck_id)
    text = write_deck(resolved.deck, format)
    suffix, media = EXPORT_FILES[format]
    response = download(text, f"{file_slug(info.name) or 'deck'}.{suffix}", media)
    tag(response, "deck", info.id, info.version)
    return response


class PdfOptions(BaseModel):
    """The sheet options of ``print deck`` (lengths as there: ``3mm``, ``0.125in``)."""

    paper: str = Field(default="a4", max_length=40)
    card_size: str | None = Field(default=None, max_length=40)
    bleed: str = Field(default="0mm", max_length=20)
    gap: str = Field(default="0mm", max_length=20)
    margin: str = Field(default="5mm", max_length=20)
    printer_margin: str = Field(default="4mm", max_length=20)
    crop_marks: bool = True
    cut_lines: bool = False
    backs: bool = False
    back_order: str = Field(default="after", max_length=20)
    flip: str = Field(default="long-edge", max_length=20)
    scale_x: float = Field(default=100.0, ge=90, le=110)
    scale_y: float = Field(default=100.0, ge=90, le=110)
    back_offset: str = Field(default="0,0", max_length=40)
    copies: int = Field(default=1, ge=1, le=100)
    dpi: int = Field(default=300, ge=30, le=2400)
    one_per_page: bool = False
    bleed_fill: str = Field(default="frame", max_length=20)
    full_art: bool = False


@router.get("/api/decks/{deck_id}/pdf", tags=["decks"])
def pdf(settings: Settings, request: Request, deck_id: int, options: Annotated[PdfOptions, Query()]) -> Response:
    """The deck printed to PDF as ``print deck`` prints it (every section), with its sheet options."""
    from cardbase.names import file_slug
    from cardbase.render.deck_print import deck_pdf
    from cardbase.render.options import SheetOptions

    sheet = SheetOptions(**options.model_dump())
    sheet.spec(None)  # bad options fail before any work
    current = {"ETag": _deck_etag(settings, deck_id)}
    resolved = _resolved(settings, deck_id)
    name = resolved.deck.name or "deck"
    from cardbase.web.errors import warner

    data = deck_pdf(_db(settings), resolved, sheet, settings.images, f"{name} — cardbase proxies", warner(request))
    return download(data, f"{file_slug(name) or 'deck'}.pdf", "application/pdf", current)


# --- catalog ----------------------------------------------------------------------------------


@router.get("/api/catalog/status", tags=["catalog"])
def catalog_status(settings: Settings, game: GameQuery = None) -> list[dict[str, Any]]:
    """Per game and card type, what is catalogued and unknown: the array of ``catalog status --json``."""
    from cardbase.db.queries import catalog_status as status

    with _db(settings).session() as session:
        return [r.as_dict() for r in status(session, _game(game))]


@router.get("/api/catalog/export", tags=["catalog"])
def catalog_export(
    settings: Settings,
    game: Annotated[str, Query(min_length=1, max_length=20)],
    format: Annotated[Literal["csv", "json", "xlsx"], Query()] = "csv",
) -> Response:
    """A game's whole catalog as a file ``catalog import`` reads back (as ``catalog export``)."""
    from cardbase.db.io import export_catalog
    from cardbase.textfiles import read_bytes, scratch_folder

    game_id = _game(game)
    assert game_id is not None
    with scratch_folder("cardbase-export-") as tmp:
        out = Path(tmp) / f"{game_id}.{format}"
        export_catalog(_db(settings), game_id, format, out)
        data = read_bytes(out, "catalog export", 1 << 31)
    return download(data, out.name, SHEET_MEDIA[format])


@router.post("/api/catalog/import", tags=["catalog"], dependencies=[OnlyDeclared])
def catalog_import(
    settings: Settings,
    file: Annotated[UploadFile, File(description="CSV, XLSX or JSON of cards; 5 MB at most.")],
    game: Annotated[str, Form(max_length=20)],
    turn: WriteTurn,
    dry_run: Annotated[bool, Form()] = False,
    format: Annotated[Literal["csv", "json", "xlsx"] | None, Form()] = None,
) -> dict[str, Any]:
    """Import a spreadsheet upload as ``catalog import`` does: every bad row listed (400) and nothing
    written unless all are good; ``dry_run`` checks and counts, writes nothing."""
    from cardbase.web.uploads import import_sheet, read_upload

    if dry_run:
        turn.release()  # a dry run writes nothing: the change slots are the writers'
    data = read_upload(file, "file")
    return import_sheet(_db(settings), data, file.filename or "upload.csv", game, dry_run=dry_run, fmt=format)
