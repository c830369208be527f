"""Playing in the browser: ``/play`` (start a game), the seat pages, and the JSON API ``/api/games``.

Thin: the table service (:mod:`cardbase.sim.table`, kept by :mod:`cardbase.sim.hall`) checks every
move and builds every view from one seat's observation; these routes say who is asking and format.

Who is asking: a person's seat has a key (192 bits) in its link ``/play/{id}?key=KEY``; opening
the link sets an HttpOnly, SameSite=Strict cookie for that game and reloads without the key (as
the server token's link does; with a token, the link carries both). A script sends
``Authorization: Seat KEY`` (or ``X-Seat-Key: KEY`` beside a server token's ``Authorization:
Bearer``). A browser that holds the keys of several seats of one game plays them in turn ("hot
seat"), behind a hand-off screen. Without a key: the spectator, who sees what every player sees.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse, RedirectResponse, Response, StreamingResponse
from pydantic import Field
from starlette.concurrency import run_in_threadpool

from cardbase import jsonout
from cardbase.decks.store import MAX_DECK_ID
from cardbase.errors import CardbaseError, UsageError, counted, plural
from cardbase.games.base import MAX_SEED, GameError
from cardbase.render.screen import WIDTH_RANGE
from cardbase.sim.boards import board_offers
from cardbase.sim.hall import MAX_ITERATIONS, MAX_MS, MAX_SAMPLES, Hall, LiveTable
from cardbase.sim.registry import MAX_RULE_TEXT
from cardbase.sim.table import HUMAN, NotYourTurn
from cardbase.web.app import TEMPLATES
from cardbase.web.http import Form, JsonBody, WriteTurn, form_whole
from cardbase.web.jsonresponse import JSONResponse
from cardbase.web.settings import DECK_TEXT_BYTES

router = APIRouter()

COOKIE_PREFIX = "cardbase_seat_"
MAX_KEYS = 5
"""The most seat keys one request may present (a game has at most five seats)."""
MAX_ACTION_TEXT = 2_000
MAX_ID = 40
SEAT_COOKIE_DAYS = 30
LOG_SHOWN = 60
"""Entries of the log a page and an event show (the API's ``GET`` gives all unless ``log`` says)."""
EVENT_LOG = 60
SHOWN_PER_KIND = 300
"""A kind of legal action with more (Meio's 1,716 splits) shows this many buttons and the typed form."""
KEEPALIVE_SECONDS = 15.0


def hall_of(request: Request) -> Hall:
    """The server's tables, resumed from the database on first use."""
    hall: Hall = request.app.state.hall
    hall.ensure_resumed()
    return hall


# --- who is asking ---------------------------------------------------------------------------


def cookie_name(game_id: str) -> str:
    return COOKIE_PREFIX + game_id


def presented_keys(request: Request, game_id: str) -> list[str]:
    """The seat keys a request carries: ``Authorization: Seat KEY``, ``X-Seat-Key`` and the game's cookie."""
    keys = []
    auth = request.headers.get("authorization", "")
    if auth[:5].lower() == "seat ":
        keys.append(auth[5:].strip())
    header = request.headers.get("x-seat-key")
    if header:
        keys.append(header.strip())
    cookie = request.cookies.get(cookie_name(game_id))
    if cookie:
        keys.extend(k for k in cookie.split(".") if k)
    return keys[:MAX_KEYS]


def held_seats(live: LiveTable, keys: list[str], *, strict: bool) -> list[int]:
    """The seats ``keys`` open; with ``strict``, a key that opens none is refused (403)."""
    seats = []
    for key in keys:
        seat = live.seat_of(key)
        if seat is None:
            if strict:
                raise NotYourTurn(f"this key opens no seat of game {live.id}")
            continue
        if seat not in seats:
            seats.append(seat)
    return sorted(seats)


def chosen_seat(live: LiveTable, held: list[int], asked: int | None) -> int | None:
    """The seat a request acts or looks as: ``asked`` if it holds it, else the held seat to move,
    else the first held; ``None`` (the spectator) if it holds none."""
    if asked is not None:
        if asked not in held:
            raise NotYourTurn(f"this request holds no key for seat P{asked + 1} of game {live.id}")
        return asked
    if not held:
        return None
    to_move = live.table.state.current_player
    return to_move if to_move in held else held[0]


def api_seat(request: Request, live: LiveTable, seat: int | None) -> int | None:
    return chosen_seat(live, held_seats(live, presented_keys(request, live.id), strict=True), seat)


# --- the JSON API ----------------------------------------------------------------------------


Strict = JsonBody


class SeatIn(Strict):
    agent: str = Field(default=HUMAN, min_length=1, max_length=200, description="human, or an agent spec.")


class DeckText(Strict):
    text: str = Field(max_length=DECK_TEXT_BYTES)


class NewGame(Strict):
    """A new game: ``seats`` one per player (``players`` may say how many: then the first is a
    person and the rest the heuristic agent); Méa ``decks`` (a database deck id, or a deck list)."""

    game: str = Field(max_length=20)
    players: int | None = Field(default=None, ge=2, le=5)
    seats: list[SeatIn] | None = Field(default=None, min_length=2, max_length=5)
    decks: list[int | DeckText] | None = Field(default=None, max_length=2)
    rules: dict[str, str | int | bool] | None = Field(default=None, max_length=40)
    assume: str | None = Field(default=None, max_length=40)
    seed: int | None = Field(default=None, ge=0, le=MAX_SEED)


class ActionIn(Strict):
    """An action by its ``action`` text or its ``id`` (index in the view's ``legal``), made on ``version``."""

    action: str | None = Field(default=None, max_length=MAX_ACTION_TEXT)
    id: int | None = Field(default=None, ge=0, le=1_000_000)
    version: int = Field(ge=0)


class UndoIn(Strict):
    version: int = Field(ge=0)


def card_labels(text: str, game_id: str) -> str:
    """A log's or a replay's action with its cards as the board shows them (Meio's ``play 7H``
    reads ``play 7♥``); another game's text as it is."""
    from cardbase.sim.meio_view import labelled

    return labelled(text) if game_id == "meio" else text


TEMPLATES.env.filters["card_labels"] = card_labels

GameId = Annotated[str, Query(max_length=MAX_ID)]
SeatQuery = Annotated[int | None, Query(ge=0, le=4, description="Which of the seats the request holds (0-based).")]


def _choice(body: NewGame) -> Any:
    from cardbase.sim.table_setup import DeckChoice, TableChoice, seats_from

    seats = seats_from(body.game, body.players, [s.agent for s in body.seats or []])
    if body.players is not None and len(seats) != body.players:
        raise UsageError(
            f"players is {body.players} but {counted(len(seats), 'seat')} {plural(len(seats), 'is', 'are')} given"
        )
    decks = [DeckChoice(deck_id=d) if isinstance(d, int) else DeckChoice(text=d.text) for d in body.decks or []]
    return TableChoice(body.game, seats, decks, dict(body.rules or {}), body.assume, body.seed)


def _create(request: Request, choice: Any) -> tuple[str, dict[int, str]]:
    from cardbase.sim.table_setup import setup

    settings = request.app.state.settings
    made = setup(settings.database, choice, settings.house)
    return hall_of(request).create(made.rules, made.seats, made.seed, made.labels)


def seat_url(request: Request, game_id: str, key: str | None = None) -> str:
    """The address of a game's page: a seat's (with its key, and the server token if one is set)."""
    settings = request.app.state.settings
    url = f"{settings.base_url}/play/{quote(game_id)}"
    params = []
    if key is not None:
        params.append(f"key={quote(key)}")
        if settings.token:
            params.append(f"token={quote(settings.token)}")
    return url + ("?" + "&".join(params) if params else "")


@router.post("/api/games", tags=["play"], status_code=201)
def api_new_game(request: Request, body: NewGame, turn: WriteTurn) -> JSONResponse:
    """Start a game: 201 with its ``id`` and, per seat, its page's ``url`` (and ``key`` for a person's seat)."""
    try:
        game_id, keys = _create(request, _choice(body))
    except CardbaseError as error:
        from cardbase.web.errors import flat_fields, naming_field

        raise naming_field(error, flat_fields(body.model_dump(exclude_none=True))) from None
    live = hall_of(request).get(game_id)
    seats = []
    for s, seat in enumerate(live.table.seats):
        item: dict[str, Any] = {"seat": s, "agent": seat.spec}
        if s in keys:
            item["key"] = keys[s]
            item["url"] = seat_url(request, game_id, keys[s])
        seats.append(item)
    body_out = {"id": game_id, "url": seat_url(request, game_id), "seats": seats}
    return JSONResponse(body_out, status_code=201, headers={"Cache-Control": "no-store"})


@router.get("/api/games", tags=["play"])
def api_games(
    request: Request,
    status: Annotated[str | None, Query(max_length=20, description="playing, over or abandoned.")] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> list[dict[str, Any]]:
    """The latest games (newest first): id, game, status, seats' agents, times, outcome."""
    from cardbase.sim.table_store import list_games

    return list_games(request.app.state.settings.database, status, limit)


def _view(live: LiveTable, seat: int | None, log: int | None = None) -> dict[str, Any]:
    data = live.table.view(seat, log=log)
    data["id"] = live.id
    data["labels"] = public_labels(live, seat)
    if live.error:
        data["notes"] = [*data["notes"], live.error]
    return data


def public_labels(live: LiveTable, seat: int | None) -> dict[str, Any]:
    """What a seat reads beside the game: deck names, notes, the rules in words, the profile;
    the bare-stats cards of its own Méa deck only (all of them once the game is over)."""
    labels = live.table.labels
    out: dict[str, Any] = {k: labels[k] for k in ("decks", "notes", "demo", "rules", "profile") if k in labels}
    if "assumed" in labels:
        from cardbase.games.meikyu.pool import assumed_census

        out["assumed_values"] = str(assumed_census(labels["assumed"]))  # as every command counts them
    bare = labels.get("bare")
    if bare:
        seats = range(len(bare)) if live.table.over else [seat] if seat is not None else []
        names = sorted({name for s in seats for name in bare[s]})
        if names:
            out["bare"] = names
    return out


@router.get("/api/games/{game_id}", tags=["play"])
def api_game(
    request: Request,
    game_id: str,
    seat: SeatQuery = None,
    log: Annotated[int | None, Query(ge=0, le=100_000, description="The last this many log entries.")] = None,
) -> JSONResponse:
    """The view of the seat whose key the request carries (without one: the spectator's)."""
    live = hall_of(request).get(game_id)
    return JSONResponse(_view(live, api_seat(request, live, seat), log), headers={"Cache-Control": "no-store"})


@router.post("/api/games/{game_id}/actions", tags=["play"])
def api_act(request: Request, game_id: str, body: ActionIn, turn: WriteTurn, seat: SeatQuery = None) -> JSONResponse:
    """Take an action (its text or id) on ``version``: the new view; 409 the table's state refuses it
    (a stale view, the game over or abandoned), 422 illegal, 403 not yours (no key, not your turn)."""
    hall = hall_of(request)
    live = hall.get(game_id)
    acting = api_seat(request, live, seat)
    if acting is None:
        raise NotYourTurn("this request holds no seat key: send Authorization: Seat KEY")
    action = _action_of(body.action, body.id)
    hall.act(game_id, acting, action, body.version)
    return JSONResponse(_view(live, acting, LOG_SHOWN), headers={"Cache-Control": "no-store"})


def _action_of(text: str | None, action_id: int | None) -> str | int:
    if (text is None) == (action_id is None):
        raise UsageError('give the action as "action" (its text) or as "id" (its index in legal), one of them')
    return action_id if action_id is not None else str(text)


@router.post("/api/games/{game_id}/undo", tags=["play"])
def api_undo(request: Request, game_id: str, body: UndoIn, turn: WriteTurn, seat: SeatQuery = None) -> JSONResponse:
    """Take back the seat's last action (refused, 422, once anything hidden was shown or another seat moved;
    409, as an action, on a stale view or a finished game)."""
    hall = hall_of(request)
    live = hall.get(game_id)
    acting = api_seat(request, live, seat)
    if acting is None:
        raise NotYourTurn("this request holds no seat key: send Authorization: Seat KEY")
    hall.undo(game_id, acting, body.version)
    return JSONResponse(_view(live, acting, LOG_SHOWN), headers={"Cache-Control": "no-store"})


@router.get("/api/games/{game_id}/hint", tags=["play"])
def api_hint(request: Request, game_id: str, seat: SeatQuery = None) -> dict[str, str]:
    """The search agent's advice for the seat to move (as ``hint`` at the terminal)."""
    live = hall_of(request).get(game_id)
    acting = api_seat(request, live, seat)
    if acting is None:
        raise NotYourTurn("a hint is for a seat: send Authorization: Seat KEY")
    return {"hint": hall_of(request).hint(live, acting)}


def record_text(live: LiveTable, seat: int | None) -> tuple[str, str]:
    """The record to download (file name, JSON Lines): the whole game once it is over; before,
    only to a seat, what that seat has seen."""
    table = live.table
    if table.over or table.abandoned:
        return f"{table.game_id}-{live.id}.jsonl", "\n".join(table.record()) + "\n"
    if seat is None:
        raise NotYourTurn("the record is the players' until the game is over: open your seat's link")
    return f"{table.game_id}-{live.id}-P{seat + 1}-so-far.jsonl", "\n".join(table.transcript(seat)) + "\n"


@router.get("/api/games/{game_id}/record", tags=["play"])
def api_record(request: Request, game_id: str, seat: SeatQuery = None) -> Response:
    """The game's record (JSON Lines, as ``sim --records``; ``cardbase replay`` reads it) once it is
    over; before that, to a seat, the actions as that seat saw them."""
    from cardbase.web.http import content_disposition

    live = hall_of(request).get(game_id)
    name, text = record_text(live, api_seat(request, live, seat))
    headers = {"Content-Disposition": content_disposition(name), "Cache-Control": "no-store"}
    return Response(text, media_type="application/x-ndjson; charset=utf-8", headers=headers)


@router.get("/api/games/{game_id}/events", tags=["play"], response_class=StreamingResponse)
async def api_events(request: Request, game_id: str, seat: SeatQuery = None) -> StreamingResponse:
    """Server-sent events (``text/event-stream``): an ``event: view`` with the seat's view (as
    ``GET /api/games/{id}``, the last log entries) each time the table moves."""

    def open_stream() -> tuple[Hall, LiveTable, int | None]:
        hall = hall_of(request)
        live = hall.get(game_id)
        return hall, live, api_seat(request, live, seat)

    hall, live, viewer = await run_in_threadpool(open_stream)
    loop = asyncio.get_running_loop()
    moved = asyncio.Event()

    def told() -> None:
        loop.call_soon_threadsafe(moved.set)

    hall.subscribe(game_id, told)  # TooManyStreams (503) past the bound of the game's or the server's streams

    async def stream() -> AsyncIterator[str]:
        sent: tuple[int, str, int] | None = None
        try:
            while not hall.closed:
                data = await run_in_threadpool(_view, live, viewer, EVENT_LOG)
                mark = (data["version"], data["status"], len(data["notes"]))
                if mark != sent:
                    sent = mark
                    yield f"event: view\ndata: {jsonout.dumps(data, ensure_ascii=False)}\n\n"
                try:
                    await asyncio.wait_for(moved.wait(), KEEPALIVE_SECONDS)
                except TimeoutError:
                    yield ": keep-alive\n\n"
                moved.clear()
        finally:
            hall.unsubscribe(game_id, told)

    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    return StreamingResponse(stream(), media_type="text/event-stream", headers=headers)


# --- the pages -------------------------------------------------------------------------------


def render(request: Request, name: str, context: dict[str, Any], status_code: int = 200) -> HTMLResponse:
    response = TEMPLATES.TemplateResponse(request, name, context, status_code=status_code)
    response.headers["Cache-Control"] = "no-store"
    return response


CHECKED_OFFERS = 25
"""The decks a start form checks before offering them (the ones edited last): each check reads and
validates a deck, and a page stays quick with hundreds of decks."""


def _start_context(request: Request, game_id: str, form: dict[str, Any] | None = None) -> dict[str, Any]:
    from cardbase.decks.store import list_decks
    from cardbase.sim.registry import GAMES
    from cardbase.sim.table_setup import (
        DEFAULT_PLAYERS,
        PLAYER_COUNTS,
        DeckChoice,
        assume_profiles,
        deck_problems,
        example_decks,
        example_label,
        rule_fields,
        stored_deck_problems,
    )

    settings = request.app.state.settings
    entry = GAMES[game_id]
    examples = example_decks("mea") if game_id == "mea" else []
    decks = [d for d in list_decks(settings.database) if d["game"] == "mea"] if game_id == "mea" else []
    decks.sort(key=lambda d: (d["updated"], d["id"]), reverse=True)
    # The decks edited last (CHECKED_OFFERS) and the examples are checked as the start checks them: the
    # playable ones first (the player's own, then the examples), then the invalid ones, marked, so the
    # default starts a game; older decks follow, marked as not checked (Start checks what is chosen).
    problems = stored_deck_problems(settings.database, [d["id"] for d in decks[:CHECKED_OFFERS]], settings.house)
    offers: list[dict[str, Any]] = [
        {"value": f"db:{d['id']}", "label": f"{d['name']} (database)", "updated": (d["updated"], d["id"]),
         "problems": problems[d["id"]]}
        for d in decks[:CHECKED_OFFERS]
    ] + [
        {"value": f"example:{e}", "label": f"{example_label(e)} (example)", "updated": None,
         "problems": deck_problems(settings.database, DeckChoice(example=e), settings.house)}
        for e in examples
    ]  # fmt: skip
    playable = [o for o in offers if not o["problems"]]
    own = [o for o in playable if o["updated"] is not None]
    shipped = [o["value"] for o in playable if o["updated"] is None]
    sources = shipped[:2] or [o["value"] for o in offers if o["updated"] is None][:2]
    if own:  # the playable deck the player edited last is the one they mean to play (the examples stay choosable)
        sources[:1] = [max(own, key=lambda o: o["updated"])["value"]]
    return {
        "game": game_id,
        "games": {g: e.title for g, e in GAMES.items()},
        "counts": PLAYER_COUNTS[game_id],
        "players": DEFAULT_PLAYERS[game_id],
        "agents": list(entry.agents),
        "rules": rule_fields(game_id),
        "deck_offers": playable
        + [o for o in offers if o["problems"]]
        + [
            {"value": f"db:{d['id']}", "label": f"{d['name']} (database)", "updated": None, "problems": None}
            for d in decks[CHECKED_OFFERS:]
        ],
        "default_decks": sources,
        "profiles": assume_profiles() if game_id == "meikyu" else [],
        "form": form or {},
        "budget": {"iterations": MAX_ITERATIONS, "samples": MAX_SAMPLES, "ms": MAX_MS, "rule_text": MAX_RULE_TEXT},
    }


@router.get("/play", response_class=HTMLResponse)
def start_page(request: Request, game: Annotated[str, Query(max_length=20)] = "meio") -> HTMLResponse:
    """Choose a game, its players and seats, decks, rules options and seed."""
    from cardbase.sim.table_setup import check_game

    game_id = check_game(game)
    chosen = _chosen_in_query(request)
    return render(request, "play/start.html", _start_context(request, game_id, chosen or None))


PREFILLED = re.compile(r"players|seat\d(_options)?|deck\d|rule_\w{1,40}|assume")


def _chosen_in_query(request: Request) -> dict[str, str]:
    """The start form's choices given in the query (``players``, ``seat1``, ``seat1_options``,
    ``deck1``, ``rule_NAME``, ``assume``; a finished table's "new game" link gives them): the form opens with
    them chosen, and Start checks them as any other. A seed is never taken: a new game deals anew."""
    return {k: v[:MAX_RULE_TEXT] for k, v in request.query_params.items() if PREFILLED.fullmatch(k) and len(k) <= 50}


def again_url(live: LiveTable) -> str:
    """The start form of ``live``'s game with its players, agents, rules options (those not left as
    their default), Méa decks (a database deck or an example) and Meikyu profile chosen: the "new
    game" link of a finished table."""
    from urllib.parse import urlencode

    from cardbase.sim.registry import game

    table = live.table
    rules = table.rules
    query: dict[str, str] = {"game": rules.game_id, "players": str(len(table.seats))}
    for s, seat in enumerate(table.seats):
        kind, _, options = str(seat.spec).partition(":")
        query[f"seat{s}"] = kind
        if options:
            query[f"seat{s}_options"] = options
    chosen = rules.to_options()
    for name, (_kind, default) in game(rules.game_id).rule_defaults().items():
        value = chosen.get(name, default)
        if value != default:
            query[f"rule_{name}"] = ("yes" if value else "no") if isinstance(value, bool) else str(value)
    for s, source in enumerate(table.labels.get("deck_sources") or []):
        if source:  # (a pasted list is pasted again)
            query[f"deck{s}"] = str(source)
    if table.labels.get("profile"):
        query["assume"] = str(table.labels["profile"])
    return "/play?" + urlencode(query)


def _seat_texts(form: Any) -> dict[str, str]:
    """Each agent's seat as the tables read it, by its options' field (``seat1`` ``search`` and
    ``seat1_options`` ``samples=5`` make the agent ``search:samples=5``), for a refusal to name."""
    out = {}
    for field in form:
        if m := re.fullmatch(r"seat(\d)_options", str(field)):
            kind, options = _seat_parts(form, int(m.group(1)))
            if options:
                out[field] = f"{kind}:{options}"
    return out


def _seat_parts(form: Any, s: int) -> tuple[str, str]:
    """Seat ``s`` of the start form: who sits there (``human`` or an agent) and the agent's options."""
    kind = str(form.get(f"seat{s}", HUMAN))[:40].strip() or HUMAN
    return kind, str(form.get(f"seat{s}_options", ""))[:160].strip()


def _form_label(field: str) -> str:
    """The start form's ``field`` as the page labels it (``seat1`` is P2, ``rule_farm`` is farm)."""
    if m := re.fullmatch(r"seat(\d)(_options)?", field):
        return f"P{int(m.group(1)) + 1}" + ("'s agent options" if m.group(2) else "")
    if m := re.fullmatch(r"deck(\d)(_text)?", field):
        return f"P{int(m.group(1)) + 1}'s deck"
    from cardbase.games.base import option_words

    if field.startswith("rule_"):
        return option_words(field.removeprefix("rule_"))
    return {"assume": "assumption profile"}.get(field, field.replace("_", " "))


def _form_choice(form: Any) -> Any:
    """The table the start form asks for."""
    from cardbase.sim.table_setup import DeckChoice, TableChoice, check_game, rule_fields

    game = check_game(str(form.get("game", ""))[:20])
    players = form_whole(form.get("players"), "players", 2, 5)
    seats = []
    for s in range(players):
        kind, options = _seat_parts(form, s)
        if options and kind == HUMAN:
            raise UsageError(f"P{s + 1} is a person: agent options ({options!r}) are for an agent's seat")
        seats.append(f"{kind}:{options}" if options else kind)
    decks = []
    if game == "mea":
        for s in range(2):
            source = str(form.get(f"deck{s}", ""))[:300]
            text = str(form.get(f"deck{s}_text", ""))
            if len(text) > DECK_TEXT_BYTES:
                raise UsageError(f"P{s + 1}'s deck: at most {DECK_TEXT_BYTES:,} characters")
            if source.startswith("db:"):
                decks.append(DeckChoice(deck_id=form_whole(source[3:], f"P{s + 1}'s deck", 1, MAX_DECK_ID)))
            elif source.startswith("example:"):
                decks.append(DeckChoice(example=source[8:]))
            else:
                decks.append(DeckChoice(text=text))
    rules = {}
    for field in rule_fields(game):
        raw = form.get(f"rule_{field['name']}")
        if raw is not None and str(raw).strip() != "":
            rules[field["name"]] = str(raw).strip()
    assume = str(form.get("assume", "")).strip() or None if game == "meikyu" else None
    seed_text = str(form.get("seed", "")).strip()
    seed = form_whole(seed_text, "seed", 0, MAX_SEED) if seed_text else None
    return TableChoice(game, seats, decks, rules, assume, seed)


@router.post("/play", response_class=HTMLResponse)
def start(request: Request, form: Form, turn: WriteTurn) -> Response:
    """Start the game of the form: the seat's page (one person, or a hot seat), else the seats' links."""
    return _start(request, dict(form))


def _start(request: Request, form: dict[str, Any]) -> Response:
    game = str(form.get("game", "meio"))
    try:
        choice = _form_choice(form)
        game_id, keys = _create(request, choice)
    except CardbaseError as error:
        from cardbase.errors import InvalidData
        from cardbase.sim.table_setup import PLAYER_COUNTS
        from cardbase.web.errors import for_pages, naming, naming_field, status_of

        # a rules option's refusal names its own field, or the fields of the options that contradict
        rules = [f"rule_{o}" for o in (error.option, *error.options) if o is not None and f"rule_{o}" in form]
        if rules:
            naming(error, rules, _form_label)
        else:
            naming_field(error, {**form, **_seat_texts(form)}, _form_label)
        context = _start_context(request, game if game in PLAYER_COUNTS else "meio", form)
        context["error"] = for_pages(error, request.url.path, request, str(error).splitlines()[0]).rstrip(":")
        # every problem of a refusal that lists them (a deck's lines, the values a catalog lacks), not only its head
        from cardbase.web.pages_decks import problem_item, problem_items

        listed = [problem_item(p) for p in error.listed[1]] if error.listed is not None else []
        context["problems"] = problem_items(error) if isinstance(error, InvalidData) else listed
        return render(request, "play/start.html", context, status_code=status_of(error))
    hot = bool(form.get("hotseat"))
    if len(keys) <= 1 or hot:
        response = RedirectResponse(f"/play/{game_id}", status_code=303)
        if keys:
            _set_seat_cookie(response, game_id, list(keys.values()))
        return response
    live = hall_of(request).get(game_id)
    links = [{"seat": s, "url": seat_url(request, game_id, k)} for s, k in keys.items()]
    return render(request, "play/created.html", {"live": live, "links": links, "spectator": seat_url(request, game_id)})


def _set_seat_cookie(response: Response, game_id: str, keys: list[str]) -> None:
    response.set_cookie(
        cookie_name(game_id),
        ".".join(keys[:MAX_KEYS]),
        max_age=SEAT_COOKIE_DAYS * 86400,
        httponly=True,
        samesite="strict",
        path="/",
    )


def _page_context(
    request: Request, live: LiveTable, asked: int | None, *, hint: bool = False, error: str | None = None
) -> dict[str, Any]:
    """What the seat page shows: the seat's view, or the hand-off screen of a hot seat."""
    held = held_seats(live, presented_keys(request, live.id), strict=False)
    if asked is not None and asked not in held:
        asked = None
    table = live.table
    to_move = table.state.current_player
    handoff = None
    seat = asked
    if len(held) > 1 and to_move in held and asked != to_move:
        handoff = to_move  # a hot seat: the next person confirms before the hand shows
        seat = None
    elif seat is None and held:
        seat = to_move if to_move in held else (held[0] if len(held) == 1 else None)
    data = _view(live, seat, LOG_SHOWN)
    hint_text = None
    if hint and seat is not None and to_move == seat and not table.over:
        try:
            hint_text = hall_of(request).hint(live, seat)
        except CardbaseError as refused:
            from cardbase.web.errors import for_pages

            error = for_pages(refused, request.url.path, request)
    query = f"?seat={seat}" if seat is not None and len(held) > 1 else ""
    offers = board_offers(data["view"], data["legal"]) if seat is not None and data.get("legal") else {}
    return {
        "live": live,
        "data": data,
        "seat": seat,
        "held": held,
        "handoff": handoff,
        "hint": hint_text,
        "error": error,
        "board": f"/play/{live.id}/board{query}",
        "events": f"/api/games/{live.id}/events{query}",
        "self_url": f"/play/{live.id}{query}",
        "shown_per_kind": SHOWN_PER_KIND,
        "offers": offers,
        "again": again_url(live) if table.over or data["status"] != "playing" else None,
    }


@router.get("/play/{game_id}", response_class=HTMLResponse)
def seat_page(
    request: Request,
    game_id: str,
    seat: SeatQuery = None,
    key: Annotated[str | None, Query(max_length=100)] = None,
    hint: bool = False,
) -> Response:
    """A seat's page (by its cookie), a hot seat's hand-off, or the spectator's."""
    live = hall_of(request).get(game_id)
    if key is not None:
        return _open_link(request, live, key)
    return render(request, "play/seat.html", _page_context(request, live, seat, hint=hint))


def _open_link(request: Request, live: LiveTable, key: str) -> Response:
    """``?key=KEY``: keep the key in the game's cookie and reload without it."""
    from html import escape

    if live.seat_of(key) is None:
        raise NotYourTurn(f"the link's key opens no seat of game {live.id}: ask for your seat's link again")
    keys = [k for k in presented_keys(request, live.id) if k != key and live.seat_of(k) is not None]
    target = f"/play/{live.id}"
    page = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="refresh" content="0;url={escape(target)}"><title>cardbase</title></head>'
        f'<body><p><a href="{escape(target)}">Continue to your seat</a></p></body></html>'
    )
    # A same-site reload, not a redirect: a SameSite=Strict cookie set by a page opened from
    # another site's link is sent on this reload (as the server token's link, web/security.py).
    response = HTMLResponse(page, headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})
    _set_seat_cookie(response, live.id, [*keys, key])
    return response


@router.get("/play/{game_id}/board", response_class=HTMLResponse)
def board_fragment(request: Request, game_id: str, seat: SeatQuery = None) -> HTMLResponse:
    """The table part of a seat's page, for the page's script to swap in."""
    live = hall_of(request).get(game_id)
    return render(request, "play/_table.html", _page_context(request, live, seat))


def _page_seat(request: Request, live: LiveTable, form: dict[str, Any]) -> int:
    held = held_seats(live, presented_keys(request, live.id), strict=False)
    raw = form.get("seat")
    asked = form_whole(raw, "seat", 0, 4) if raw not in (None, "") else None
    seat = chosen_seat(live, held, asked)
    if seat is None:
        raise NotYourTurn("this browser holds no seat of this game: open your seat's link")
    return seat


@router.post("/play/{game_id}/act", response_class=HTMLResponse)
def act_form(request: Request, game_id: str, form: Form, turn: WriteTurn) -> Response:
    """A legal action's button (``action_id``) or a typed ``action``, made on ``version``."""
    return _form_change(request, game_id, dict(form), "act")


@router.post("/play/{game_id}/undo", response_class=HTMLResponse)
def undo_form(request: Request, game_id: str, form: Form, turn: WriteTurn) -> Response:
    """Take back the seat's last action, made on ``version``."""
    return _form_change(request, game_id, dict(form), "undo")


def _form_change(request: Request, game_id: str, form: dict[str, Any], change: str) -> Response:
    """A form's move or undo: back to the seat's page (303), or the page with why it was refused."""
    hall = hall_of(request)
    live = hall.get(game_id)
    seat = _page_seat(request, live, form)
    try:
        version = form_whole(form.get("version"), "version", 0, 2**31 - 1)
        if change == "undo":
            hall.undo(game_id, seat, version)
        else:
            raw_id = form.get("action_id")
            text = str(form.get("action", ""))[:MAX_ACTION_TEXT]
            action = form_whole(raw_id, "action_id", 0, 1_000_000) if raw_id not in (None, "") else text
            hall.act(game_id, seat, action, version)
    except (CardbaseError, GameError) as error:
        return _refused(request, live, seat, error)
    return RedirectResponse(_back(live, seat, request), status_code=303)


def _back(live: LiveTable, seat: int, request: Request) -> str:
    held = held_seats(live, presented_keys(request, live.id), strict=False)
    return f"/play/{live.id}" + (f"?seat={seat}" if len(held) > 1 else "")


def _refused(request: Request, live: LiveTable, seat: int, error: Exception) -> HTMLResponse:
    """The seat's page again, with the one line saying why (409 stale: the page is the new view)."""

    from cardbase.web.errors import for_pages, naming_inputs, status_of

    if isinstance(error, CardbaseError):
        naming_inputs(error, request)  # the field of the form given the text refused (action_id)
    status = status_of(error) if isinstance(error, CardbaseError) else 422
    context = _page_context(request, live, seat, error=for_pages(error, request.url.path, request))
    return render(request, "play/seat.html", context, status_code=status)


@router.get("/play/{game_id}/record")
def record_download(request: Request, game_id: str, seat: SeatQuery = None) -> Response:
    """Download the record (see ``GET /api/games/{id}/record``)."""
    return api_record(request, game_id, seat)


@router.get("/play/{game_id}/replay", include_in_schema=False)
def replay_game(request: Request, game_id: str) -> Response:
    """A finished game opened in ``/replay`` at its start (its whole record, as downloaded)."""
    from cardbase.web.replay import kept

    live = hall_of(request).get(game_id)
    if not (live.table.over or live.table.abandoned):
        raise UsageError("a game is replayed here once it is over: until then, download what your seat has seen")
    name, text = record_text(live, None)
    return RedirectResponse(f"/replay/{kept(request, text, name)}", status_code=303)


@router.get("/play/{game_id}/cards/{card_id:path}/image.png", response_class=Response)
def table_card_image(
    request: Request,
    game_id: str,
    card_id: Annotated[str, PathParam(max_length=300)],
    w: Annotated[int, Query(ge=WIDTH_RANGE[0], le=WIDTH_RANGE[1], description="Width in pixels.")] = 300,
) -> Response:
    """A card's face as the table ``game_id`` plays it: a Meikyu table's values (a character's Bravery
    and Wits, a land's points), those its assumption profile gave marked ASSUMED as the board marks
    them; any other card (or game) as the catalog has it."""
    from cardbase.games.meikyu.pool import played_values
    from cardbase.render.screen import screen_png
    from cardbase.web.errors import warner
    from cardbase.web.images import stored_card

    live = hall_of(request).get(game_id)
    settings = request.app.state.settings
    card, declared = stored_card(settings, card_id)
    pool = getattr(live.table.rules, "pool", None) if card.game == "meikyu" else None
    played = played_values(pool, card.name) if pool is not None else None
    assumed: dict[str, int] = {}
    if played is not None:
        known, assumed = played
        card = card.model_copy(update=known | dict.fromkeys(assumed))  # the table's values, not today's catalog's
    data = screen_png(
        card, w, settings.images, declared, warner(request), assumed=assumed, profile=pool.profile or "" if pool else ""
    )
    return Response(data, media_type="image/png", headers={"Cache-Control": "private, no-store"})
