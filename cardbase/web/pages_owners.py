"""Pages for the people who own the cards: the collection, and what the card page adds for it.

Every number comes from the functions the CLI prints (``cardbase.db.collection``,
``cardbase.decks.owned``); changes are POST forms, each one transaction.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse, Response

from cardbase.decks.store import MAX_DECK_ID
from cardbase.errors import UsageError, plural, quoted, said_of
from cardbase.web.errors import for_pages, naming_inputs, page_text, players_words
from cardbase.web.http import Form as Body
from cardbase.web.http import WriteTurn, form_text, form_versions, form_whole
from cardbase.web.pages import database_of, render, see_other

if TYPE_CHECKING:
    from cardbase.db.engine import Database

router = APIRouter()

COUNT_DIGITS = 5
"""A count typed in a form: at most 5 digits (the collection's bound is 99,999)."""


def card_of(database: Database, card_id: str) -> Any:
    """The catalog card with id ``card_id`` (``UnknownCard`` if none)."""
    from cardbase.db.models import Card
    from cardbase.errors import UnknownCard

    with database.session() as session:
        card = session.get(Card, card_id[:300])
    if card is None:
        raise UnknownCard(card_id[:300].rsplit("/", 1)[-1], None, []).refusing(card_id)
    return card


def face_tag(database: Database, card_id: str) -> str:
    """A short tag of a card's stored values and art, put in its image's URL so a browser never shows
    a face cached from before an edit or an upload."""
    import hashlib

    from cardbase.db.edit import card_state
    from cardbase.db.models import CardImage

    version = card_state(database, card_id)[2]
    with database.session() as session:
        art = session.get(CardImage, card_id)
        sha = art.sha256 if art is not None else ""
    return hashlib.sha256(f"{version}:{sha}".encode()).hexdigest()[:12]


def card_extras(database: Database, card_id: str) -> dict[str, Any]:
    """What the card page shows for its owner: copies owned, and the tag of its face's image URL."""
    from cardbase.db.collection import owned_counts

    with database.session() as session:
        owned = owned_counts(session, [card_id]).get(card_id, 0)
    return {"owned": owned, "face_tag": face_tag(database, card_id)}


PREVIEW_ROWS = 500
"""The dry run's table shows at most this many changed cards (the count of the rest follows it)."""
LIST_SUFFIXES = (".txt", ".csv", ".xlsx", ".json")


def collection_context(request: Request, game: str | None, **extra: Any) -> dict[str, Any]:
    """What the collection page shows: the cards owned (of ``game``), their totals, and ``extra`` (the
    "Add cards" form's state)."""
    from cardbase.db.collection import PASTE_CHARS, collection_cards, collection_totals

    cards = collection_cards(database_of(request), game)
    saved = request.query_params.get("saved", "")
    return {
        "cards": cards,
        "totals": collection_totals(cards),
        "game": game,
        "saved": int(saved) if saved.isascii() and saved.isdecimal() and len(saved) <= 7 else None,
        "paste_chars": PASTE_CHARS,
        "preview_rows": PREVIEW_ROWS,
        "bulk": {"game": game or "mea", "mode": "set", "text": ""},
        **extra,
    }


@router.get("/collection", response_class=HTMLResponse)
def collection_page(request: Request) -> HTMLResponse:
    """Every card owned, with totals per game and set (``collection show``), and the "Add cards" form."""
    from cardbase.db.queries import check_game

    game = check_game(request.query_params.get("game") or None)
    return render(request, "collection.html", collection_context(request, game))


@router.post("/collection/import", response_class=HTMLResponse)
def collection_import(request: Request, form: Body, turn: WriteTurn) -> Response:
    """The "Add cards" form: a pasted list or a file (text, CSV, XLSX or JSON), read and resolved by
    ``collection import``'s service; "Show what changes" (a dry run: every change, or every bad line)
    or "Save" (one transaction, then back to the collection with a notice). The dry run's own Save
    sends the same bytes again (base64)."""
    import base64
    import binascii
    from pathlib import Path

    from cardbase.db.collection import MODES, PASTE_CHARS, import_collection, import_collection_text
    from cardbase.db.queries import check_game
    from cardbase.errors import InvalidData, UnreadableInput
    from cardbase.web.pages_decks import problem_item, problem_items
    from cardbase.web.settings import SPREADSHEET_BYTES
    from cardbase.web.uploads import read_upload, upload_name

    game = check_game(form_text(form, "game", 20).strip() or None)
    if not game:
        raise UsageError("game: choose the game the cards are of")
    mode = form_text(form, "mode", 20, "set")
    if mode not in MODES:
        raise UsageError(f"mode must be one of {', '.join(MODES)}, not {quoted(mode)}").refusing(mode)
    save = form_text(form, "action", 20, "preview") == "save"
    if not save:
        turn.release()  # a dry run writes nothing: the change slots are the writers'
    # a browser sends a textarea's line ends as CRLF: counted as one character, as the box counts them
    text = form_text(form, "text", 2 * PASTE_CHARS).replace("\r\n", "\n")
    payload = form_text(form, "payload", -(-SPREADSHEET_BYTES // 3) * 4)
    upload = form.get("file")
    raw: bytes | None = None
    filename = ""
    if payload:  # the dry run's Save: the same list or file again
        try:
            raw = base64.b64decode(payload, validate=True)
        except (binascii.Error, ValueError):
            raise UsageError("the confirmation lost its list; paste it or choose the file again") from None
        filename = form_text(form, "filename", 200)
        if filename:
            filename = upload_name(filename)
        else:  # a pasted list
            text, raw = raw.decode("utf-8", "replace"), None
    elif upload is not None and not isinstance(upload, str) and upload.filename:
        if text.strip():
            raise UsageError("paste a list or choose a file, not both")
        raw, filename = read_upload(upload, "file"), upload_name(upload.filename)
        if Path(filename).suffix.lower() not in LIST_SUFFIXES:
            raise UsageError(f"{filename}: choose a .txt, .csv, .xlsx or .json file")
    elif not text.strip():
        raise UsageError("paste a list (3 Crumb Goblin a line) or choose a file")
    database = database_of(request)
    problems: list[dict[str, Any]] = []
    named = None
    result = None
    try:
        if raw is not None:
            result = import_collection(
                database, Path(filename), game, add=mode == "add", replace=mode == "replace", dry_run=not save, raw=raw
            )
        else:
            result = import_collection_text(database, text, game, mode=mode, dry_run=not save)
    except (InvalidData, UnreadableInput) as error:
        naming_inputs(error, request)
        problems = (
            problem_items(error)
            if isinstance(error, InvalidData)
            else [problem_item(page_text(error).removeprefix(f"{error.named}: "))]
        )
        named = error.named
    if save and result is not None:
        return see_other(f"/collection?game={game}&saved={len(result.changes)}")
    bulk = {"game": game, "mode": mode, "text": text if raw is None else "", "filename": filename}
    context = collection_context(request, game, bulk=bulk, preview=result, problems=problems, named=named)
    if result is not None:
        context["payload"] = base64.b64encode(raw if raw is not None else text.encode()).decode()
    return render(request, "collection.html", context, 400 if problems else 200)


@router.post("/collection/card", response_class=HTMLResponse)
def change_owned_form(
    request: Request,
    form: Body,
    turn: WriteTurn,
) -> Response:
    """The card page's "I own N" form (``op`` add, remove or set), one transaction; back to where it came from."""
    card, op = form_text(form, "card", 300), form_text(form, "op", 20, "set")
    count, back = form_text(form, "count", 20), form_text(form, "back", 2000)
    from cardbase.db.collection import MAX_OWNED, change_owned

    if op not in ("add", "remove", "set"):
        raise UsageError(f"op must be add, remove or set, not {quoted(op)}").refusing(op)
    found = card_of(database_of(request), card)
    change_owned(database_of(request), found, form_whole(count, "count", 0 if op == "set" else 1, MAX_OWNED), op)  # type: ignore[arg-type]
    target = back if back.startswith("/") and not back.startswith("//") and "\\" not in back else "/collection"
    return see_other(target)


# --- the card editor ------------------------------------------------------------------------------

ART_BYTES = 10_000_000
"""An art upload: 10 MB, far above a 600 dpi scan of a card's art box (about 2 MB as PNG)."""
ART_PIXELS = 40_000_000
"""Pixels of an uploaded image (a 600 dpi whole card is 1500 × 2100 = 3.2 million)."""
ART_FORMATS = {"PNG": ".png", "JPEG": ".jpg", "WEBP": ".webp"}


def server_user() -> str:
    """Who the history names for a change made through this server: the user the server runs as."""
    import getpass

    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "web"


def editor_fields(game: str) -> list[dict[str, Any]]:
    """The editor's inputs: one per editable field of ``game``, with its kind and the note the template gives."""
    from cardbase.catalog.fields import APPLICABLE, GAME_FIELDS, GAME_TYPES, typed_fields
    from cardbase.db.edit import EDITABLE
    from cardbase.db.io import _NOTES

    typed = typed_fields(game)
    out = []
    for f in GAME_FIELDS[game]:
        if f.name not in EDITABLE[game] and f.name != "set":
            continue
        kind = (
            "select"
            if f.name == "type"
            else "number"
            if f.kind is int
            else "long"
            if f.name in ("text", "description", "abilities", "notes")
            else "text"
        )
        out.append(
            {
                "name": f.name,
                "label": f.name.replace("_", " "),
                "kind": kind,
                "note": "" if f.name == "name" else _NOTES.get(f.name, ""),
                "choices": list(GAME_TYPES[game]) if f.name == "type" else [],
                # the card types that have the field (shown for them only); empty: every type has it
                "types": [t for t in GAME_TYPES[game] if f.name in APPLICABLE.get((game, t), ())]
                if f.name in typed
                else [],
            }
        )
    return out


def form_values(database: Database, card: Any, aliases: list[str]) -> dict[str, str]:
    """A stored card's values as the editor shows them (unknown: empty)."""
    import json

    from cardbase.db.edit import card_values
    from cardbase.db.tags import card_tags

    with database.session() as session:
        tags = card_tags(session, [card.id]).get(card.id, [])
    out: dict[str, str] = {}
    for name, value in card_values(card, aliases, tags).items():
        if name in ("aliases", "tags"):
            out[name] = "; ".join(value)
        elif name == "abilities":
            out[name] = "" if value is None else json.dumps(value, ensure_ascii=False)
        else:
            out[name] = "" if value is None else str(value)
    out["set"] = card.set_code
    return out


def _editor(
    request: Request,
    game: str,
    values: dict[str, str],
    *,
    card: Any = None,
    version: str = "",
    problems: list[str] | None = None,
    message: str | None = None,
    status: int = 200,
) -> HTMLResponse:
    from cardbase.db.queries import GAMES
    from cardbase.render.layout import no_art_note

    if game not in GAMES:
        raise UsageError(f"game must be one of {', '.join(GAMES)}, not {quoted(game)}")
    return render(
        request,
        "card_edit.html",
        {
            "game": game,
            "card": card,
            "values": values,
            "fields": editor_fields(game),
            "version": version,
            "problems": problems or [],
            "message": message,
            "art_bytes": ART_BYTES,
            "face_tag": face_tag(request.app.state.settings.database, card.id) if card is not None else "",
            "art_note": no_art_note(game, card.type, card.name) if card is not None else None,
        },
        status,
    )


MAX_FORM_FIELDS = 40


def _typed(form: Any, game: str, *, new: bool) -> dict[str, str]:
    """The editor's fields as typed (only the game's fields; the set only for a new card)."""
    from cardbase.db.edit import EDITABLE

    names = [*EDITABLE[game], *(["set"] if new else [])]
    out = {}
    for name in names:
        value = form.get(name)
        if value is not None:
            out[name] = str(value)
    return out


@router.get("/cards/new", response_class=HTMLResponse)
def new_card_page(request: Request) -> HTMLResponse:
    """The editor for a new card of ``?game=``."""
    from cardbase.catalog.fields import DEFAULT_SET
    from cardbase.db.queries import check_game

    game = check_game(request.query_params.get("game") or "mea") or "mea"
    return _editor(request, game, {"set": DEFAULT_SET[game]})


@router.post("/cards/new", response_class=HTMLResponse)
def create_card(request: Request, form: Body, turn: WriteTurn) -> Response:
    """Add the card the editor describes (``catalog add``); back to the editor naming every problem."""
    return _create_card(request, form)


def _create_card(request: Request, form: Any) -> Response:
    from cardbase.db.edit import add_card
    from cardbase.db.queries import check_game
    from cardbase.errors import Conflict, InvalidData

    game = check_game(str(form.get("game") or "mea")[:20]) or "mea"
    typed = _typed(form, game, new=True)
    try:
        result = add_card(database_of(request), game, typed, server_user())
    except (InvalidData, Conflict) as error:
        problems = [players_words(said_of(p)) for p in error.problems] if isinstance(error, InvalidData) else []
        naming_inputs(error, request)
        return _editor(
            request,
            game,
            typed,
            problems=problems,
            message=for_pages(error, request.url.path, request, str(error).splitlines()[0]),
            status=400 if problems else 409,
        )
    from cardbase.web.pages import card_url

    return see_other(card_url(result.id) + "?done=added")


def _card_id(game: str, set_code: str, slug: str) -> str:
    return f"{game}/{set_code}/{slug}"[:300]


@router.get("/cards/{game}/{set_code}/{slug}/edit", response_class=HTMLResponse)
def edit_card_page(request: Request, game: str, set_code: str, slug: str) -> HTMLResponse:
    """The editor with a card's values and the version they are at."""
    from cardbase.db.edit import card_state

    card, aliases, version = card_state(database_of(request), _card_id(game, set_code, slug))
    return _editor(request, card.game, form_values(database_of(request), card, aliases), card=card, version=version)


@router.post("/cards/{game}/{set_code}/{slug}/edit", response_class=HTMLResponse)
def save_card(request: Request, game: str, set_code: str, slug: str, form: Body, turn: WriteTurn) -> Response:
    """Save the editor's values (``catalog edit``), if the card is still at the version the editor showed."""
    return _save_card(request, _card_id(game, set_code, slug), form)


def _save_card(request: Request, cid: str, form: Any) -> Response:
    from cardbase.db.edit import StaleEdit, card_state, edit_card
    from cardbase.errors import Conflict, InvalidData

    card, aliases, version = card_state(database_of(request), cid)
    typed = _typed(form, card.game, new=False)
    shown = form_values(database_of(request), card, aliases)
    changes = {k: v for k, v in typed.items() if v.strip() != shown.get(k, "").strip()}
    expected = str(form.get("version") or "")[:40] or None
    try:
        if changes:
            edit_card(
                database_of(request), cid, changes, server_user(), expected=frozenset([expected]) if expected else None
            )
        elif expected is not None and expected != version:
            raise StaleEdit(f"{quoted(card.name)} changed since you opened it; reload it", version)
    except StaleEdit as error:
        fresh, _fresh_aliases, now = card_state(database_of(request), cid)
        message = f"Changed elsewhere: {error} Your values are below; the card's current ones are on its page."
        return _editor(request, fresh.game, typed, card=fresh, version=now, message=message, status=412)
    except (InvalidData, Conflict) as error:
        problems = [players_words(said_of(p)) for p in error.problems] if isinstance(error, InvalidData) else []
        naming_inputs(error, request)
        return _editor(
            request,
            card.game,
            typed,
            card=card,
            version=version,
            problems=problems,
            message=for_pages(error, request.url.path, request, str(error).splitlines()[0]),
            status=400 if problems else 409,
        )
    from cardbase.web.pages import card_url

    return see_other(card_url(cid) + ("?done=saved" if changes else ""))


@router.get("/cards/{game}/{set_code}/{slug}/history", response_class=HTMLResponse)
def history_page(request: Request, game: str, set_code: str, slug: str) -> HTMLResponse:
    """A card's edits, newest first, each with what changed and a way to put it back."""
    from cardbase.db.edit import card_history, card_state, edit_kinds

    cid = _card_id(game, set_code, slug)
    card, _aliases, version = card_state(database_of(request), cid)
    edits = card_history(database_of(request), cid)
    return render(
        request,
        "card_history.html",
        {
            "card": card,
            "edits": edits,
            "kinds": edit_kinds(card.game, card.type, edits),
            "version": version,
            "notice": request.query_params.get("done"),
        },
    )


@router.post("/cards/{game}/{set_code}/{slug}/history/{edit_id}/revert", response_class=HTMLResponse)
def revert_page(
    request: Request,
    game: str,
    set_code: str,
    slug: str,
    edit_id: Annotated[int, PathParam(ge=1, le=2**31 - 1)],  # card_edit.id: 32 bits on PostgreSQL
    form: Body,
    turn: WriteTurn,
) -> Response:
    """Put back what one edit changed, as a new edit (if the card is still at the version the page showed)."""
    version = form_text(form, "version", 40)
    from cardbase.db.edit import revert_edit

    cid = _card_id(game, set_code, slug)
    revert_edit(database_of(request), cid, edit_id, server_user(), expected=frozenset([version]) if version else None)
    return see_other(f"/cards/{cid}/history?done=reverted")


def check_art(data: bytes, where: str) -> tuple[str, tuple[int, int]]:
    """The suffix (.png, .jpg, .webp) and size of uploaded art, judged by its content: PNG, JPEG or WebP
    that decodes whole, within the byte and pixel bounds; anything else is a usage error naming why."""
    import io
    import warnings

    from PIL import Image, UnidentifiedImageError

    if len(data) > ART_BYTES:
        from cardbase.web.errors import TooLarge

        raise TooLarge(f"{where}: {len(data):,} {plural(len(data), 'byte')}; art may have at most {ART_BYTES:,}")
    if not data:
        raise UsageError(f"{where}: the file is empty")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as img:
                fmt, size = img.format or "", img.size
                if fmt not in ART_FORMATS:
                    raise UsageError(f"{where}: a {fmt or 'file of unknown type'} image; art is PNG, JPEG or WebP")
                if size[0] * size[1] > ART_PIXELS:
                    raise UsageError(
                        f"{where}: {size[0]}×{size[1]} = {size[0] * size[1]:,} {plural(size[0] * size[1], 'pixel')}; "
                        f"art may have at most {ART_PIXELS:,}"
                    )
                img.load()
    except UsageError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise UsageError(f"{where}: over Pillow's decompression-bomb limit; refused") from None
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError):
        raise UsageError(
            f"{where}: not a PNG, JPEG or WebP image (its content is not one, whatever its name)"
        ) from None
    return ART_FORMATS[fmt], size


def store_art(database: Database, images: Any, cid: str, data: bytes, who: str) -> dict[str, Any]:
    """Store checked art for card ``cid`` as ``<game>/<card-slug>.<ext>`` under ``images`` (where the CLI
    looks), replacing the card's other art files, with its ``card_image`` row and an ``art`` history row,
    in one transaction (the file is renamed into place before the commit; a failed commit removes it)."""
    import hashlib
    from pathlib import Path

    from sqlmodel import select

    from cardbase.db.edit import record_edit
    from cardbase.db.models import Card, CardImage
    from cardbase.names import file_slug
    from cardbase.render.art import SUFFIXES
    from cardbase.textfiles import output_file, read_bytes

    def card_of(session: Any) -> Card:
        card: Card | None = session.get(Card, cid)
        if card is None:
            from cardbase.errors import UnknownCard

            raise UnknownCard(cid.rsplit("/", 1)[-1], None, [])
        return card

    with database.session() as session:
        suffix, size = check_art(data, f"art for {quoted(card_of(session).name)}")
    digest = hashlib.sha256(data).hexdigest()
    target: Path | None = None
    previous: bytes | None = None
    try:
        with database.transaction() as session:
            card = card_of(session)  # read again in the write: deleted or renamed since, it is as it is now
            name, game, card_type = card.name, card.game, card.type
            folder = Path(images) / game
            folder.mkdir(parents=True, exist_ok=True)
            stem = file_slug(name)
            art = folder / f"{stem}{suffix}"
            relative = f"{game}/{art.name}"
            previous = read_bytes(art, "card art", 8 * ART_BYTES) if art.is_file() else None  # put back on failure
            target = art  # from here a failure puts back what was there
            row = session.scalars(select(CardImage).where(CardImage.card_id == cid).with_for_update()).first()
            before = row.sha256 if row is not None else None
            with output_file(target, "card art") as temporary:
                temporary.write_bytes(data)
            if row is None:
                row = CardImage(card_id=cid, path=relative, sha256=digest)
            else:
                row.path, row.sha256 = relative, digest
            session.add(row)
            record_edit(session, cid, who, "art", {"art": (before, digest)})
    except BaseException:
        if target is not None:  # the file was (or was about to be) written: put back what was there
            if previous is None:
                target.unlink(missing_ok=True)
            else:
                target.write_bytes(previous)
        raise
    for other in SUFFIXES:
        stale = folder / f"{stem}{other}"
        if stale != target and stale.is_file():
            stale.unlink()
    from cardbase.render.layout import no_art_note

    note = no_art_note(game, card_type, name)
    return {"id": cid, "path": relative, "sha256": digest, "width": size[0], "height": size[1], "note": note}


@router.post("/cards/{game}/{set_code}/{slug}/art", response_class=HTMLResponse)
def upload_art(request: Request, game: str, set_code: str, slug: str, form: Body, turn: WriteTurn) -> Response:
    """The editor's art upload (PNG, JPEG or WebP, checked by content); back to the editor."""
    from cardbase.web.app import settings_of

    upload = form.get("art")
    if upload is None or isinstance(upload, str):
        refused = UsageError("choose an image file to upload (field 'art')")
        raise refused.refusing(upload) if upload else refused  # a text where the file goes: named
    data = upload.file.read(ART_BYTES + 1)  # read on the body's arrival; this is its spooled copy
    cid = _card_id(game, set_code, slug)
    store_art(database_of(request), settings_of(request).images, cid, data, server_user())
    return see_other(f"/cards/{cid}/edit?done=art")


PREVIEW_WIDTH = 420
"""Pixels across the editor's preview (the card page shows faces 420 px wide)."""


def preview_png(database: Database, images: Any, game: str, values: dict[str, Any], cid: str | None) -> bytes:
    """The face a card would have with ``values`` (checked as an edit is; a problem is ``InvalidData``),
    drawn by the renderer with the card's art, without storing anything."""
    from pathlib import Path

    from cardbase.catalog.fields import DEFAULT_SET, SOURCE_USER
    from cardbase.db.edit import PREVIEW, card_state, check_values
    from cardbase.db.models import Card, card_id
    from cardbase.render.art import declared_paths, find_art
    from cardbase.render.screen import screen_png

    stored = card_state(database, cid)[0] if cid else None
    fields = {k: v for k, v in values.items() if k != "set" or stored is None}
    record, cleared = check_values(game, fields, PREVIEW, new=stored is None, name=stored.name if stored else None)
    set_code = stored.set_code if stored else record.pop("set", DEFAULT_SET[game])
    source = stored.source if stored and stored.source.startswith("file:") else SOURCE_USER
    card = Card(
        id=stored.id if stored else card_id(game, set_code, record["name"]),
        short_id=0,
        game=game,
        set_code=set_code,
        name=record["name"],
        type=record.get("type") or (stored.type if stored else ""),
        source=source,
        search_names="",
    )
    for name, value in ((stored.model_dump() if stored else {}) | record).items():
        if name in Card.model_fields and name not in (
            "id",
            "short_id",
            "game",
            "set_code",
            "name",
            "type",
            "source",
            "abilities",
        ):
            setattr(card, name, None if name in cleared else value)
    declared: dict[str, str] = {}
    if stored is not None:
        with database.session() as session:
            found = find_art(Path(images), game, stored.name, declared_paths(session, [stored.id]).get(stored.id))
        if found is not None:
            declared = {card.id: str(found.relative_to(Path(images).resolve()))}
    return screen_png(card, PREVIEW_WIDTH, Path(images), declared, cache=False)


def _register() -> None:
    from cardbase.db.edit import shown_value
    from cardbase.web.app import TEMPLATES

    TEMPLATES.env.globals["shown"] = shown_value


_register()


# --- tags ------------------------------------------------------------------------------------------


def _tag_words(text: str) -> list[str]:
    """Tags typed in a form: separated by ``,`` or ``;`` (each checked by the tag rule)."""
    from cardbase.names import tag_list

    try:
        return tag_list(text)
    except ValueError as error:
        raise UsageError(str(error)).refusing(text) from None  # the field's text


@router.post("/cards/{game}/{set_code}/{slug}/tags", response_class=HTMLResponse)
def tag_card_form(
    request: Request,
    game: str,
    set_code: str,
    slug: str,
    form: Body,
    turn: WriteTurn,
) -> Response:
    """The card page's tag form: add the tags typed (``,`` between them), or take one off (``cards tag``)."""
    add, remove = form_text(form, "add", 5_000), form_text(form, "remove", 200)
    from cardbase.db.edit import retag_card

    cid = _card_id(game, set_code, slug)
    retag_card(database_of(request), cid, _tag_words(add), _tag_words(remove), server_user())
    return see_other(f"/cards/{cid}#tags")


@router.post("/decks/{deck_id}/tags", response_class=HTMLResponse)
def tag_entry_form(
    request: Request,
    deck_id: int,
    form: Body,
    turn: WriteTurn,
) -> Response:
    """The builder's tag form on one entry (``deck tag``): tags of this deck only, if the deck is still at
    the version the builder showed; back to the builder as it was (``back``, set by its script: the search,
    the list's view, a dealt hand), at the deck's list."""
    card, add, remove = form_text(form, "card", 300), form_text(form, "add", 5_000), form_text(form, "remove", 200)
    from cardbase.decks.store import tag_entries
    from cardbase.web.pages_decks import _back

    back = _back(deck_id, form_text(form, "back", 2_000)).partition("#")[0]

    if not 1 <= deck_id <= MAX_DECK_ID:
        raise UsageError(f"no deck with id {deck_id}")
    found = card_of(database_of(request), card)
    expected = form_versions(form)
    tag_entries(database_of(request), deck_id, found, _tag_words(add), _tag_words(remove), expected)
    return see_other(f"{back}#deck-panel")


# --- deck history ----------------------------------------------------------------------------------

HISTORY_PAGE = 100
"""Versions one history page lists."""


def deck_versions(database: Database, deck_id: int, limit: int = 10) -> dict[str, Any]:
    """The newest ``limit`` versions of a deck and how many are kept (the builder's history panel)."""
    from cardbase.decks.history import deck_history

    _id, versions, total = deck_history(database, deck_id, limit)
    return {"versions": versions, "kept": total}


@router.get("/decks/{deck_id}/history", response_class=HTMLResponse)
def deck_history_page(request: Request, deck_id: int) -> HTMLResponse:
    """Every kept version of a deck, newest first, a page at a time: view, compare two, restore one."""
    from cardbase.decks.history import deck_history
    from cardbase.decks.store import deck_by_id

    if not 1 <= deck_id <= MAX_DECK_ID:
        raise UsageError(f"no deck with id {deck_id}")
    page = form_whole(request.query_params.get("page") or "1", "page", 1, 10**7)
    info = deck_by_id(database_of(request), deck_id)
    _id, versions, total = deck_history(database_of(request), deck_id, HISTORY_PAGE, (page - 1) * HISTORY_PAGE)
    return render(
        request,
        "deck_history.html",
        {
            "info": info,
            "versions": versions,
            "kept": total,
            "page": page,
            "pages": max(1, -(-total // HISTORY_PAGE)),
            "notice": request.query_params.get("done"),
        },
    )


@router.get("/decks/{deck_id}/versions/{number}", response_class=HTMLResponse)
def deck_version_page(request: Request, deck_id: int, number: int) -> HTMLResponse:
    """One version of a deck: its list (``deck show NAME@N``), what changed since, and restore."""
    from cardbase.decks.diff import deck_diff
    from cardbase.decks.service import resolve_stored, resolve_version, validate_resolved
    from cardbase.decks.store import deck_by_id
    from cardbase.decks.text import write_text

    if not 1 <= deck_id <= MAX_DECK_ID or not 1 <= number <= 10**9:
        raise UsageError("no such deck version")
    database = database_of(request)
    info = deck_by_id(database, deck_id)
    old = resolve_version(database, deck_id, number)
    report, _ = validate_resolved(old)
    diff = deck_diff(old, resolve_stored(database, deck_id))
    return render(
        request,
        "deck_version.html",
        {"info": info, "number": number, "text": write_text(old.deck), "report": report, "diff": diff},
    )


@router.post("/decks/{deck_id}/versions/{number}/restore", response_class=HTMLResponse)
def restore_deck_version(request: Request, deck_id: int, number: int, form: Body, turn: WriteTurn) -> Response:
    """Make the deck what version ``number`` was, as a new version (``deck restore``), if it is still at the
    version the page showed; back to its history."""
    from cardbase.decks.store import restore_version

    if not 1 <= deck_id <= MAX_DECK_ID or not 1 <= number <= 10**9:
        raise UsageError("no such deck version")
    restore_version(database_of(request), deck_id, number, form_versions(form))
    return see_other(f"/decks/{deck_id}/history?done=restored+version+{number}")
