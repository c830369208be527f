"""The JSON API for the people who own the cards: the collection, and a deck against it.

The same shapes as ``collection show --json`` and ``deck show --json``'s ``collection``; built by
``cardbase.db.collection`` and ``cardbase.decks.owned``. Every change is one transaction.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, File, Query, Request, Response, UploadFile
from fastapi import Path as PathParam
from pydantic import Field

from cardbase.db.edit import MAX_EDIT_ID
from cardbase.decks.store import MAX_DECK_ID
from cardbase.errors import plural
from cardbase.web.app import settings_of
from cardbase.web.http import JsonBody, OnlyDeclared, WriteTurn, expected
from cardbase.web.settings import ServerSettings

router = APIRouter()

Settings = Annotated[ServerSettings, Depends(settings_of)]


def card_path(
    game: Annotated[str, PathParam(max_length=20)],
    set_code: Annotated[str, PathParam(max_length=60)],
    slug: Annotated[str, PathParam(max_length=200)],
) -> str:
    """The card id a route's path names (``/api/cards/{game}/{set_code}/{slug}/…``)."""
    return f"{game}/{set_code}/{slug}"


CardPath = Annotated[str, Depends(card_path)]


class OwnedChange(JsonBody):
    """A card by ``name`` (or alias) or ``card`` id, and copies to ``add``, ``remove`` or ``set``."""

    name: str | None = Field(default=None, min_length=1, max_length=300)
    card: str | None = Field(default=None, min_length=1, max_length=300)
    game: str | None = Field(default=None, max_length=20)
    count: int = Field(ge=0, le=99_999)
    op: Literal["add", "remove", "set"] = "set"


def find(settings: ServerSettings, name: str | None, card: str | None, game: str | None) -> Any:
    """The card a body names, by id or by name (with the closest names on a miss)."""
    from cardbase.db.models import Card
    from cardbase.db.queries import check_game, find_card
    from cardbase.errors import UnknownCard, UsageError

    if (name is None) == (card is None):
        raise UsageError("give the card's name or its id (card), one of the two")
    with settings.database.session() as session:
        if card is not None:
            found = session.get(Card, card)
            if found is None:
                raise UnknownCard(card, None)
            return found
        assert name is not None
        return find_card(session, name, check_game(game))


@router.get("/api/collection", tags=["collection"])
def collection(
    settings: Settings, game: Annotated[str | None, Query(max_length=20, description="mea, meio or meikyu.")] = None
) -> dict[str, Any]:
    """Every card owned and the totals per game and set: ``collection show --json``."""
    from cardbase.db.collection import collection_cards, collection_totals
    from cardbase.db.queries import check_game

    cards = collection_cards(settings.database, check_game(game or None))
    return {"cards": [c.as_dict() for c in cards], "totals": collection_totals(cards)}


@router.get("/api/collection/export", tags=["collection"])
def collection_export(
    settings: Settings,
    game: Annotated[str | None, Query(max_length=20, description="mea, meio or meikyu; all when omitted.")] = None,
    format: Annotated[Literal["csv", "json", "xlsx"], Query()] = "csv",
) -> Response:
    """The collection (of a game) as a file ``collection import`` reads back (as ``collection export``)."""
    from pathlib import Path

    from cardbase.db.collection import export_collection
    from cardbase.db.queries import check_game
    from cardbase.textfiles import read_bytes, scratch_folder
    from cardbase.web.http import SHEET_MEDIA, download

    game_id = check_game(game or None)
    with scratch_folder("cardbase-export-") as tmp:
        out = Path(tmp) / f"collection{'-' + game_id if game_id else ''}.{format}"
        export_collection(settings.database, out, format, game_id)
        data = read_bytes(out, "collection export", 1 << 31)
    return download(data, out.name, SHEET_MEDIA[format])


@router.post("/api/collection", tags=["collection"])
def change(settings: Settings, body: OwnedChange, turn: WriteTurn) -> dict[str, Any]:
    """Own more, fewer or exactly ``count`` copies of a card (``collection add/remove/set``)."""
    from cardbase.db.collection import change_owned
    from cardbase.errors import UsageError

    found = find(settings, body.name, body.card, body.game)
    if body.op != "set" and body.count == 0:
        raise UsageError("count must be at least 1 to add or remove")
    now = change_owned(settings.database, found, body.count, body.op)
    return {"id": found.id, "name": found.name, "count": now}


class CollectionList(JsonBody):
    """A pasted list (``3 Crumb Goblin`` a line) for ``game``, owned as ``mode`` says."""

    text: str = Field(
        description="One card a line: 3 Crumb Goblin, 3x Name, Name x3, Name (set); 200,000 characters at most."
    )
    game: str = Field(min_length=1, max_length=20)
    mode: Literal["set", "add", "replace"] = "set"
    dry_run: bool = False


@router.post("/api/collection/import", tags=["collection"], dependencies=[OnlyDeclared])
def collection_import(settings: Settings, body: CollectionList, turn: WriteTurn) -> dict[str, Any]:
    """Own what a pasted list says (``collection import list.txt [--add|--replace] [--dry-run]``): every
    bad line named with its number (400) and nothing written unless all are good; ``dry_run`` says
    what would change (``changes``: every card's count before and after) and writes nothing."""
    from cardbase.db.collection import import_collection_text
    from cardbase.db.queries import check_game

    if body.dry_run:
        turn.release()  # a dry run writes nothing: the change slots are the writers'
    result = import_collection_text(
        settings.database, body.text, check_game(body.game), mode=body.mode, dry_run=body.dry_run
    )
    answer = result.as_dict("")
    del answer["file"]
    return answer


@router.get("/api/decks/{deck_id}/collection", tags=["decks"])
def deck_collection(settings: Settings, deck_id: Annotated[int, PathParam(ge=1, le=MAX_DECK_ID)]) -> dict[str, Any]:
    """The deck against the collection: per card needed, owned and missing, and the totals."""
    from cardbase.decks.owned import deck_owned
    from cardbase.decks.store import load_deck

    return deck_owned(settings.database, load_deck(settings.database, deck_id)).as_dict()


# --- cards added and edited -------------------------------------------------------------------------

MAX_VALUE = 10_000
"""Characters of one typed value (a catalog import's cell bound)."""


class CardValues(JsonBody):
    """A card's fields as typed (field name or synonym → text or number; empty or ``?``: unknown)."""

    values: dict[str, Any] = Field(max_length=40)
    game: str | None = Field(default=None, max_length=20)
    card: str | None = Field(default=None, max_length=300)


def _bounded(values: dict[str, Any]) -> dict[str, Any]:
    """Each value a string, a whole number or null, of at most ``MAX_VALUE`` characters."""
    from cardbase.errors import UsageError, shown

    out: dict[str, Any] = {}
    for key, value in values.items():
        if len(key) > 40:
            raise UsageError(f"a field name has at most 40 characters, not {len(key):,}")
        if value is None:
            value = ""
        if isinstance(value, bool) or not isinstance(value, str | int | list):
            raise UsageError(f"values.{shown(key)}: a text or a whole number")
        if isinstance(value, str) and len(value) > MAX_VALUE:
            raise UsageError(
                f"{len(value):,} {plural(len(value), 'character')}, over the bound of {MAX_VALUE:,}"
            ).refusing(value)
        out[key] = value
    return out


def _etag(version: str) -> str:
    return f'"card-{version}"'


def _expected(request: Request) -> frozenset[str] | None:
    """The card versions ``If-Match`` names (None: any), as every If-Match is read (``http.expected_tags``)."""
    from cardbase.web.http import expected_tags

    return expected_tags(request, "card-")


def _game_of(settings: ServerSettings, body: CardValues) -> str:
    from cardbase.db.queries import check_game
    from cardbase.errors import UsageError

    if body.card:
        from cardbase.db.edit import card_state

        return card_state(settings.database, body.card)[0].game
    game = check_game(body.game)
    if game is None:
        raise UsageError("game: is required for a new card (mea, meio or meikyu)")
    return game


@router.post("/api/cards/preview", tags=["cards"], response_class=Response)
def preview(settings: Settings, body: CardValues, turn: WriteTurn) -> Response:
    """The face a card would have with ``values`` (a new card of ``game``, or card ``card`` edited), as PNG;
    nothing is stored. Values the import's rules refuse: 400 listing them."""
    from cardbase.web.pages_owners import preview_png

    png = preview_png(settings.database, settings.images, _game_of(settings, body), _bounded(body.values), body.card)
    return Response(png, media_type="image/png", headers={"Cache-Control": "no-store"})


@router.post("/api/cards", tags=["cards"], status_code=201)
def add(settings: Settings, body: CardValues, response: Response, turn: WriteTurn) -> dict[str, Any]:
    """Add a card (``catalog add``): 201 with its id and version; 400 naming every bad field, 409 a name taken."""
    from cardbase.db.edit import add_card
    from cardbase.web.pages_owners import server_user

    result = add_card(settings.database, _game_of(settings, body), _bounded(body.values), server_user())
    response.headers["ETag"] = _etag(result.version)
    return {"id": result.id, "name": result.name, "version": result.version}


def _changed(changed: dict[str, tuple[Any, Any]]) -> dict[str, Any]:
    return {k: {"before": b, "after": a} for k, (b, a) in changed.items()}


@router.patch("/api/cards/{game}/{set_code}/{slug}", tags=["cards"])
def edit(
    settings: Settings,
    cid: CardPath,
    body: CardValues,
    response: Response,
    turn: WriteTurn,
    request: Request,
) -> dict[str, Any]:
    """Change a card's fields (``catalog edit``); with ``If-Match`` only if it is still at that version
    (412 with the current one otherwise). Answers the new version as ``ETag`` and what changed."""
    from cardbase.db.edit import edit_card
    from cardbase.web.pages_owners import server_user

    result = edit_card(settings.database, cid, _bounded(body.values), server_user(), expected=_expected(request))
    response.headers["ETag"] = _etag(result.version)
    return {"id": result.id, "name": result.name, "version": result.version, "changed": _changed(result.changed)}


@router.get("/api/cards/{game}/{set_code}/{slug}/history", tags=["cards"])
def history(
    settings: Settings,
    cid: CardPath,
    response: Response,
) -> dict[str, Any]:
    """A card's edits, newest first (``catalog history --json``), and its current version (also the ``ETag``)."""
    from cardbase.db.edit import card_history, card_state

    card, _aliases, version = card_state(settings.database, cid)
    response.headers["ETag"] = _etag(version)
    return {"id": cid, "name": card.name, "version": version, "edits": card_history(settings.database, cid)}


@router.post("/api/cards/{game}/{set_code}/{slug}/history/{edit_id}/revert", tags=["cards"])
def revert(
    settings: Settings,
    cid: CardPath,
    edit_id: Annotated[int, PathParam(ge=1, le=MAX_EDIT_ID)],
    response: Response,
    turn: WriteTurn,
    request: Request,
) -> dict[str, Any]:
    """Put back what edit ``edit_id`` changed, as a new edit (``catalog history --revert``)."""
    from cardbase.db.edit import revert_edit
    from cardbase.web.pages_owners import server_user

    result = revert_edit(settings.database, cid, edit_id, server_user(), expected=_expected(request))
    response.headers["ETag"] = _etag(result.version)
    return {"id": result.id, "name": result.name, "version": result.version, "changed": _changed(result.changed)}


@router.put("/api/cards/{game}/{set_code}/{slug}/art", tags=["cards"], dependencies=[OnlyDeclared])
def art(
    settings: Settings,
    cid: CardPath,
    file: Annotated[UploadFile, File(description="PNG, JPEG or WebP (judged by content), at most 10 MB.")],
    turn: WriteTurn,
) -> dict[str, Any]:
    """Store a card's art under ``card_images/<game>/<card-slug>.<ext>``, as the CLI finds it; a file that is
    not a PNG, JPEG or WebP image (by its content), too large or of too many pixels is refused."""
    from cardbase.web.pages_owners import ART_BYTES, server_user, store_art

    data = file.file.read(ART_BYTES + 1)  # the upload's spooled copy, read in this worker thread
    return store_art(settings.database, settings.images, cid, data, server_user())


# --- tags ----------------------------------------------------------------------------------------


class TagChange(JsonBody):
    """Tags to add and to take off (each 1–40 characters; at most 100 on a card)."""

    add: list[Annotated[str, Field(max_length=200)]] = Field(default_factory=list, max_length=1_000)
    remove: list[Annotated[str, Field(max_length=200)]] = Field(default_factory=list, max_length=1_000)
    name: str | None = Field(default=None, min_length=1, max_length=300)
    card: str | None = Field(default=None, min_length=1, max_length=300)


@router.post("/api/cards/{game}/{set_code}/{slug}/tags", tags=["cards"])
def tag_card(
    settings: Settings,
    cid: CardPath,
    body: TagChange,
    turn: WriteTurn,
    request: Request,
) -> dict[str, Any]:
    """Add and remove a card's own tags (``cards tag``; an edit in its history); its tags now. With
    ``If-Match``, only if the card is still at that version (412 otherwise)."""
    from cardbase.db.edit import retag_card
    from cardbase.web.pages_owners import server_user

    tags = retag_card(settings.database, cid, body.add, body.remove, server_user(), expected=_expected(request))
    return {"id": cid, "tags": tags}


@router.post("/api/decks/{deck_id}/tags", tags=["decks"])
def tag_entry(
    request: Request,
    settings: Settings,
    deck_id: Annotated[int, PathParam(ge=1, le=MAX_DECK_ID)],
    body: TagChange,
    turn: WriteTurn,
) -> dict[str, Any]:
    """Add and remove the tags of a card's entries in this deck (``deck tag``); their tags now. With
    ``If-Match``, only if the deck is still at that version (412 otherwise)."""
    from cardbase.decks.store import deck_by_id, tag_entries

    found = find(settings, body.name, body.card, deck_by_id(settings.database, deck_id).game)
    tags = tag_entries(settings.database, deck_id, found, body.add, body.remove, expected(request, "deck", deck_id))
    return {"deck": deck_id, "id": found.id, "name": found.name, "tags": list(tags)}


# --- deck history ----------------------------------------------------------------------------------

DeckId = Annotated[int, PathParam(ge=1, le=MAX_DECK_ID)]


@router.get("/api/decks/{deck_id}/history", tags=["decks"])
def deck_history(
    settings: Settings,
    deck_id: DeckId,
    limit: Annotated[int, Query(ge=1, le=1_000)] = 50,
    offset: Annotated[int, Query(ge=0, le=10**9)] = 0,
) -> dict[str, Any]:
    """The deck's history, newest first, as its page and ``deck history --json`` show it: lines (a burst of
    changes to one card is one line), each with the versions inside it; ``limit`` and ``offset`` count versions."""
    from cardbase.decks.history import deck_history as history
    from cardbase.decks.history import history_lines

    _id, versions, total = history(settings.database, deck_id, limit, offset)
    return {  # "versions" as before the lines came (scripts read it), "lines" as the pages show them
        "id": deck_id,
        "kept": total,
        "versions": [v.as_dict() for v in versions],
        "lines": [line.as_dict() for line in history_lines(versions)],
    }


@router.get("/api/decks/{deck_id}/versions/{number}", tags=["decks"])
def deck_version(
    settings: Settings, deck_id: DeckId, number: Annotated[int, PathParam(ge=1, le=10**9)]
) -> dict[str, Any]:
    """Version ``number`` of the deck with its validation (``deck show NAME@N --json``)."""
    from cardbase.decks.service import resolve_version, show_dict, validate_resolved

    resolved = resolve_version(settings.database, deck_id, number)
    report, _ = validate_resolved(resolved, None, settings.house)
    return show_dict(resolved, report, resolved.source)


@router.get("/api/decks/{deck_id}/versions/{a}/diff/{b}", tags=["decks"])
def deck_version_diff(
    settings: Settings,
    deck_id: DeckId,
    a: Annotated[int, PathParam(ge=1, le=10**9)],
    b: Annotated[int, PathParam(ge=1, le=10**9)],
) -> dict[str, Any]:
    """What changed from version ``a`` to version ``b`` (``deck diff NAME@A NAME@B --json``)."""
    from cardbase.decks.diff import deck_diff
    from cardbase.decks.service import resolve_version

    return deck_diff(resolve_version(settings.database, deck_id, a), resolve_version(settings.database, deck_id, b))


@router.post("/api/decks/{deck_id}/versions/{number}/restore", tags=["decks"])
def deck_restore(
    request: Request,
    settings: Settings,
    deck_id: DeckId,
    number: Annotated[int, PathParam(ge=1, le=10**9)],
    turn: WriteTurn,
) -> dict[str, Any]:
    """Make the deck what version ``number`` was, as a new version (``deck restore NAME@N``); with
    ``If-Match``, only if the deck is still at that version (412 otherwise)."""
    from cardbase.decks.store import restore_version

    _id, made = restore_version(settings.database, deck_id, number, expected(request, "deck", deck_id))
    return {"id": deck_id, "restored": number, "version": made}
