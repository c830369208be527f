"""``/replay``: open a game record and step through it, the board as it was after each action,
seen as one seat or as everything; the check ``cardbase replay`` runs shows the first illegal
action with its reason. ``POST /api/replay`` gives the same steps as JSON. Also the Meio split
advisor for the boards (``POST /api/meio/split-advice``).

A record opened on the page is replayed once (:func:`cardbase.sim.replay_views.replay_log`) and
kept in a small in-memory cache under a hash of its text, so stepping is a link per step (the
page works without JavaScript) and costs at most :data:`CHECKPOINT_EVERY` actions per step.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Depends, File, Form, Query, Request, UploadFile
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import Field

from cardbase.errors import UsageError, counted, quoted
from cardbase.games.base import whole_number
from cardbase.textfiles import decode_text
from cardbase.web.http import JsonBody, OnlyDeclared, WriteTurn
from cardbase.web.jsonresponse import JSONResponse
from cardbase.web.lru import LRU
from cardbase.web.pages import render
from cardbase.web.settings import RECORD_BYTES

if TYPE_CHECKING:
    from cardbase.sim.replay_views import ReplayLog

router = APIRouter()

CACHED_REPLAYS = 16
"""Replays the page keeps in memory (least recently opened dropped first)."""
KEY_LENGTH = 24


class ReplayCache(LRU[str, "ReplayLog"]):
    """Replay logs by key (a hash of the record's text and the game's number in it); thread-safe."""

    def __init__(self, size: int = CACHED_REPLAYS) -> None:
        super().__init__(size)


def cache_of(request: Request) -> ReplayCache:
    cache: ReplayCache | None = getattr(request.app.state, "replays", None)
    if cache is None:
        cache = request.app.state.replays = ReplayCache()
    return cache


def record_text(data: bytes, source: str) -> str:
    """An uploaded record's text: UTF-8, at most :data:`RECORD_BYTES` bytes."""
    from cardbase.web.errors import TooLarge

    if len(data) > RECORD_BYTES:
        raise TooLarge(f"{source}: a record is at most {RECORD_BYTES:,} bytes over HTTP")
    return decode_text(data, source, "game record")


def open_replay(text: str, source: str, number: int = 1) -> ReplayLog:
    """Game ``number`` (from 1) of the record ``text``, replayed and checked."""
    from cardbase.sim.records import parse_records
    from cardbase.sim.replay_views import replay_log

    records = parse_records(text, source)
    if not 1 <= number <= len(records):
        raise UsageError(f"{source}: game {number}: the record holds {counted(len(records), 'game')}")
    return replay_log(records[number - 1])


def seat_of(text: str | None, players: int) -> int | None:
    """``all`` (or nothing): the all-seeing view; ``0`` … a seat."""
    if text in (None, "", "all"):
        return None
    seat = whole_number(text, players - 1) if text.isascii() else None
    if seat is None:
        raise UsageError(f"seat {quoted(text)}: 'all' or a seat from 0 to {players - 1}")
    return seat


# --- the API ------------------------------------------------------------------------------------


async def request_body(request: Request) -> bytes:
    """The request's body, read on the event loop before the route's worker thread runs (the Guard
    already refused one past the body bound)."""
    return await request.body()


@router.post("/api/replay", tags=["games"], dependencies=[OnlyDeclared])
def api_replay(
    body: Annotated[bytes, Depends(request_body)],
    turn: WriteTurn,
    seat: Annotated[int | None, Query(ge=0, le=9, description="The seat to see it as; omitted: everything.")] = None,
    game: Annotated[int, Query(ge=1, le=100_000, description="Which game of the record, from 1.")] = 1,
) -> JSONResponse:
    """Step through a record (the body: JSON Lines, as ``sim --records`` writes; at most 1 MB):
    ``{"game", "actions", "finished", "outcome", "illegal"?: {"line", "number", "player", "reason"},
    "steps": [{"n", "who", "action", "view"}]}``, step ``n`` being the board after ``n`` actions."""
    return JSONResponse(_steps_json(record_text(body, "the record"), seat, game))


def _steps_json(text: str, seat: int | None, number: int) -> dict[str, Any]:
    log = open_replay(text, "the record", number)
    log.check_seat(seat)
    out: dict[str, Any] = {
        "game": log.game,
        "rules": log.record.rules,
        "seed": log.record.seed,
        "seat": seat,
        "actions": log.length,
        "finished": log.outcome is not None,
        "outcome": log.outcome,
    }
    if log.illegal is not None:
        out["illegal"] = log.illegal
    out["steps"] = list(log.steps(seat))
    return out


class SplitAdviceRequest(JsonBody):
    """A Meio hand to split and the game it is dealt in (all public to the player who holds it)."""

    hand: list[str] = Field(min_length=13, max_length=13, description="The 13 cards, as 7H, AS, 10D.")
    rules: dict[str, Any] = Field(default_factory=dict, description="The game's rules options (players, ace_high …).")
    seat: int = Field(0, ge=0, le=3, description="Your seat.")
    starts: int = Field(0, ge=0, le=3, description="The seat that splits first this round.")
    seed: int = Field(0, ge=0, le=2**63 - 1)


@router.post("/api/meio/split-advice", tags=["games"])
def split_advice(body: SplitAdviceRequest, turn: WriteTurn) -> dict[str, Any]:
    """The hint at Meio's split for a hand (``play meio``'s, from ``lab split``'s advisor): the best
    split and the next, each with its expected round score and 95% interval (``shown``: both in words,
    to the digits the interval gives), and whether the best is clearly best. Everything it reads is
    the player's own (the hand, the rules, who splits first)."""
    from types import SimpleNamespace

    from cardbase.games.base import InvalidRules
    from cardbase.games.meio.cards import PlayingCard
    from cardbase.games.meio.masks import cards_of, mask_of
    from cardbase.games.meio.rules import MeioRules
    from cardbase.sim.hints import split_hint

    try:
        rules = MeioRules.from_options(body.rules)
        cards = [PlayingCard.parse(c) for c in body.hand]
    except (InvalidRules, ValueError) as error:
        raise UsageError(str(error)) from None
    if len(set(cards)) != len(cards):
        raise UsageError("hand: a card is named twice")
    if body.seat >= rules.players or body.starts >= rules.players:
        raise UsageError(f"seat and starts are seats of a {rules.players}-player game: 0 to {rules.players - 1}")
    hand = mask_of(cards)
    if hand & ~rules.deck_mask:
        raise UsageError(f"hand: the 13 cards must be of the {rules.deck_label()}")
    seen = SimpleNamespace(hand=hand, player=body.seat, start=body.starts)  # what the hint reads of a seat
    hint = split_hint(rules, seen, body.seed)
    splits = []
    for estimate in (hint.best, hint.runner_up):
        if estimate is not None:
            split = estimate.action
            keep, aside = [str(c) for c in cards_of(split.keep)], [str(c) for c in cards_of(split.aside)]
            value, interval = hint.measure.shown(estimate)  # the words the page shows, as the terminal's hint
            words = {"estimate": value, "ci": interval}
            splits.append({"keep": keep, "aside": aside, **estimate.to_dict(), "shown": words})
    return {"verdict": hint.verdict, "measure": hint.measure.words, "method": hint.method, "splits": splits}


# --- the pages ---------------------------------------------------------------------------------


@router.get("/replay", response_class=HTMLResponse, include_in_schema=False)
def replay_start(request: Request) -> Response:
    """The page to open a record: upload a file or paste its lines."""
    return render(request, "replay/open.html", {"bound": RECORD_BYTES})


@router.post("/replay", include_in_schema=False)
def replay_open(
    request: Request,
    turn: WriteTurn,
    file: Annotated[UploadFile | None, File()] = None,
    text: Annotated[str, Form(max_length=RECORD_BYTES)] = "",
    game: Annotated[int, Form(ge=1, le=100_000)] = 1,
) -> Response:
    """Replay the uploaded (or pasted) record once, keep it, and go to its first step."""
    if file is not None and file.filename:
        source = file.filename.replace("\\", "/").rsplit("/", 1)[-1][:100] or "the record"
        data = file.file.read(RECORD_BYTES + 1)
    elif text.strip():
        source, data = "the pasted record", text.encode()
    else:
        raise UsageError("choose a record file or paste its lines")
    return RedirectResponse(f"/replay/{kept(request, record_text(data, source), source, game)}", status_code=303)


def kept(request: Request, body: str, source: str, game: int = 1) -> str:
    """The key of game ``game`` of the record ``body`` in the server's replays, replayed once."""
    key = hashlib.sha256(f"{game}\n{body}".encode()).hexdigest()[:KEY_LENGTH]
    cache = cache_of(request)
    if cache.get(key) is None:
        cache.put(key, open_replay(body, source, game))
    return key


@router.get("/replay/{key}", response_class=HTMLResponse, include_in_schema=False)
def replay_page(
    request: Request,
    key: Annotated[str, PathParam(pattern=r"^[0-9a-f]{1,64}$")],
    step: Annotated[int | None, Query(ge=0, le=1_000_000)] = None,
    seat: Annotated[str | None, Query(max_length=3)] = None,
    turn: Annotated[int | None, Query(ge=0, le=1_000_000)] = None,
    fragment: Annotated[bool, Query()] = False,
) -> Response:
    """Step ``step`` of a replay (the first, step 0, by default: a replay is read from the start and
    stepped forward, as chess.com's game review and lichess's analysis of an imported game open),
    seen as ``seat`` (``all``: everything); ``turn``: the first step of that turn. ``fragment``: only
    the part a step changes. ``?step=`` and ``?turn=`` are the deep links (the page keeps the step in
    its address as it moves)."""
    log = cache_of(request).get(key)
    if log is None:
        raise UsageError("this replay is no longer kept by the server (it keeps the last 16): open the record again")
    seat_no = seat_of(seat, log.players)
    turns = log.turns
    if turn is not None:
        step = next((n for t, _, n in turns if t >= turn), log.length)
    n = 0 if step is None else min(step, log.length)
    entry = log.step(n, seat_no)
    context = {
        "key": key,
        "log": log,
        "n": n,
        "entry": entry,
        "seat": seat_no,
        "seat_param": "all" if seat_no is None else str(seat_no),
        "turns": turns,
        "title": log.rules.game_id,
    }
    return render(request, "replay/_step.html" if fragment else "replay/replay.html", context)
