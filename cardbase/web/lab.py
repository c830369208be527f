"""The deck lab in the browser and the API: ``/decks/ID/lab`` (a page) and ``/api/decks/ID/lab`` (JSON),
both over :mod:`cardbase.lab.service` (the studies of ``cardbase lab gauntlet`` and ``lab opening``).

A run is slow work: its route is a plain ``def`` (a worker thread, never the event loop); under
``cardbase serve`` its games are played in the server's lab worker process (``app.state.lab_workers``:
off this process's interpreter lock, so other pages are not slowed; one that dies is a worded 500,
the server's fault). At most :data:`LAB_SLOTS` run at once (``lab_turn``, waited for on the loop as a
change's turn is; a run that finds none free within :data:`SLOT_WAIT_SECONDS` is a worded 503), and
the service stops it past its time budget (503 with how far it got). A refused value is named at its
field (the page) or by its parameter (the API); the values typed stay in the form.
"""

from __future__ import annotations

import shlex
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import HTMLResponse, Response

from cardbase.errors import CardbaseError, DatabaseError, ServerStopping, WorkerStopped
from cardbase.games.base import MAX_SEED
from cardbase.lab.service import DEFAULT_GAMES, MAX_FIELD, MAX_GAMES, OverBudget
from cardbase.web.pages import GAME_TITLES, database_of, house_of, render

if TYPE_CHECKING:
    from cardbase.lab.service import LabRun

router = APIRouter()

LAB_SLOTS = 1
"""Lab runs at once on one server (each holds a core while it runs)."""
SLOT_WAIT_SECONDS = 10.0
"""How long a run waits for a free slot before the answer says to try again."""
LABELS = {"against": "Play against", "vs": "Opening size against", "games": "Games per match-up", "seed": "Seed"}
"""The inputs a refusal may name, by the labels the page gives them (it shows the refusal under that field)."""


def lab_deck_game(request: Request) -> str | None:
    """The game of the deck in the address, read before a run waits for a slot: a deck that is not there
    is refused at once (its 404), not after the wait or as "busy". None for an id that is not a whole
    number (the route's own check words it)."""
    from cardbase.decks.store import deck_by_id

    text = str(request.path_params.get("deck_text_id", request.path_params.get("deck_id", "")))
    if not (text.isascii() and text.isdecimal() and len(text) <= 10):
        return None
    return deck_by_id(database_of(request), int(text)).game


async def lab_turn(request: Request, game: Annotated[str | None, Depends(lab_deck_game)]) -> AsyncIterator[bool]:
    """A lab slot (:data:`LAB_SLOTS`), waited for on the event loop (no worker thread held) for at most
    :data:`SLOT_WAIT_SECONDS` and held while the route runs: True, or False when none came free (the
    route says so). A page that runs nothing (the form alone) and a deck the lab has nothing for take
    none."""
    import anyio

    runs = request.url.path.startswith("/api/") or "run" in request.query_params
    if not runs or game not in (None, "mea"):
        yield True
        return
    slots = request.app.state.lab_slots
    try:
        slots.acquire_nowait()
    except anyio.WouldBlock:
        with anyio.move_on_after(SLOT_WAIT_SECONDS) as waiting:
            await slots.acquire()
        if waiting.cancelled_caught:
            yield False
            return
    try:
        yield True
    finally:
        slots.release()


LabTurn = Annotated[bool, Depends(lab_turn, scope="function")]
"""Declare it on a route that runs the lab: the run itself is the route's, on its worker thread."""


def busy() -> OverBudget:
    return OverBudget(
        f"another lab run is under way and none finished within {SLOT_WAIT_SECONDS:g} s; try again in a moment"
    )


def terminal_command(run: LabRun, deck_name: str) -> list[str]:
    """The same studies at the terminal (``lab gauntlet`` and ``lab opening``, one process), each deck
    named as the run loaded it (a saved deck by its name, whether the form listed it or not)."""
    deck = shlex.quote(f"db:{deck_name}")
    fields = " ".join(f"--field {shlex.quote(a)}" for a in run.field_args)
    tail = f"--games {run.games} --seed {run.seed} -j 1"
    vs = shlex.quote(run.vs_arg)
    return [f"cardbase lab gauntlet {deck} {fields} {tail}", f"cardbase lab opening {deck} --vs {vs} {tail}"]


@router.get("/decks/{deck_text_id}/lab", response_class=HTMLResponse)
def lab_page(request: Request, deck_text_id: str, turn: LabTurn) -> Response:
    """The lab of a saved deck: the form (the field, the opening's opponent, games, seed) and, when run,
    the gauntlet's and the opening study's tables; a game the lab has nothing for says why."""
    from cardbase.decks.store import deck_by_id
    from cardbase.lab import service
    from cardbase.lab.service import NOTHING_YET, default_field, field_choices, run_lab
    from cardbase.web.errors import for_pages, naming
    from cardbase.web.http import form_whole
    from cardbase.web.pages_decks import _deck_id

    deck_id = _deck_id(deck_text_id)
    database = database_of(request)
    info = deck_by_id(database, deck_id)
    context: dict[str, Any] = {"info": info, "game_title": GAME_TITLES.get(info.game, info.game)}
    if info.game != "mea":
        return render(request, "lab.html", {**context, "nothing_yet": NOTHING_YET[info.game]})
    choices, unlisted = field_choices(database, deck_id)
    params = request.query_params
    against = params.getlist("against") if "run" in params else default_field(choices)
    typed: dict[str, Any] = {"games": params.get("games", str(DEFAULT_GAMES)), "seed": params.get("seed", "0")}
    typed |= {"against": against, "vs": params.get("vs", "")}
    context |= {
        "choices": choices,
        "unlisted": unlisted,
        "typed": typed,
        "max_games": MAX_GAMES,
        "max_field": MAX_FIELD,
    }
    context |= {"default_games": DEFAULT_GAMES, "budget": f"{service.RUN_SECONDS:g}"}
    context |= {"errors": {}, "error": None, "run": None, "max_seed": MAX_SEED}
    if "run" not in params:
        return render(request, "lab.html", context)
    status = 200
    try:
        games = form_whole(typed["games"], "games", 2, MAX_GAMES, DEFAULT_GAMES, at_field=True)
        seed = form_whole(typed["seed"], "seed", 0, MAX_SEED, 0, at_field=True)
        if not turn:
            raise busy()
        state = request.app.state
        run = run_lab(
            database,
            deck_id,
            against,
            typed["vs"] or None,
            games,
            seed,
            house_of(request),
            stopping=state.lab_stop.is_set,
            backend=state.lab_workers,
        )
        context |= {"run": run, "commands": terminal_command(run, info.name)}
    except DatabaseError:
        raise  # busy or unusable: the database's own answer
    except CardbaseError as error:
        status = (
            503 if isinstance(error, OverBudget | ServerStopping) else 500 if isinstance(error, WorkerStopped) else 400
        )
        if error.option in LABELS:
            naming(error, [error.option], LABELS.__getitem__)
            context["errors"] = {error.option: for_pages(error, request.url.path, request)}
        else:
            context["error"] = for_pages(error, request.url.path, request)
    return render(request, "lab.html", context, status)


GamesQuery = Annotated[int, Query(ge=2, le=MAX_GAMES, description="Games per match-up and per opening size.")]


@router.get("/api/decks/{deck_id}/lab", tags=["decks"])
def lab_api(
    request: Request,
    turn: LabTurn,
    deck_id: int,
    against: Annotated[
        list[str], Query(max_length=MAX_FIELD, description="Field decks: deck:ID or example:FILE (repeatable).")
    ] = [],  # noqa: B006
    vs: Annotated[str | None, Query(max_length=300, description="The opening's opponent (default: the first).")] = None,
    games: GamesQuery = DEFAULT_GAMES,
    seed: Annotated[int, Query(ge=0, le=MAX_SEED)] = 0,
) -> dict[str, Any]:
    """The lab of a saved Méa deck: the gauntlet (``lab gauntlet --json``'s object) and the opening study
    (``lab opening --json``'s, with its verdict in words), the notes of both (demo cards, rules readings)."""
    from cardbase.lab.service import run_lab
    from cardbase.web.api import _check_id
    from cardbase.web.errors import naming

    _check_id(deck_id)
    if not turn:
        raise busy()
    try:
        state = request.app.state
        run = run_lab(
            database_of(request),
            deck_id,
            against,
            vs,
            games,
            seed,
            house_of(request),
            stopping=state.lab_stop.is_set,
            backend=state.lab_workers,
        )
    except CardbaseError as error:
        if error.option in LABELS and not isinstance(error, DatabaseError):
            naming(error, [error.option])
        raise
    return run.to_dict()
