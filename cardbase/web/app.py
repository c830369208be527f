"""The ASGI app: ``create_app(settings)`` wires the routes, the templates, the assets and the checks."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from cardbase import __version__
from cardbase.web.settings import ServerSettings

HERE = Path(__file__).resolve().parent
TEMPLATES = Jinja2Templates(directory=HERE / "templates")  # autoescape on for .html


def for_players(text: object) -> str:
    """A note a page shows (``{{ note | for_players }}``) in players' words: its page words where it
    carries them (``errors.Said``: a page instead of a command), through the wording step every
    refusal a page shows takes (``web.errors.players_words``: a game by its display name)."""
    from cardbase.errors import said_of
    from cardbase.web.errors import players_words

    return players_words(said_of(text) if isinstance(text, str) else str(text))


def beside_winners(outcome: Mapping[str, Any]) -> str:
    """An outcome's reason as said after its winners (``games.base.reason_beside_winners``)."""
    from cardbase.games.base import reason_beside_winners

    return reason_beside_winners(str(outcome["reason"]), len(outcome["winners"]) > 1)


def winners_said(outcome: Mapping[str, Any], seat: int | None) -> str:
    """An outcome's winners as said to the player at ``seat``: "P1 (you), P3 and P4"."""
    from cardbase.errors import and_list

    return and_list([f"P{w + 1}" + (" (you)" if w == seat else "") for w in outcome["winners"]])


TEMPLATES.env.filters["for_players"] = for_players
TEMPLATES.env.filters["winners_said"] = winners_said
TEMPLATES.env.filters["beside_winners"] = beside_winners


def create_app(settings: ServerSettings) -> FastAPI:
    """The app for one server; the database and the options are on ``app.state.settings``."""
    import threading

    import anyio
    from fastapi import Depends

    from cardbase.sim.hall import Hall
    from cardbase.web import api, api_owners, errors, images, lab, pages, pages_owners, play, replay, security
    from cardbase.web.http import single_values
    from cardbase.web.jsonresponse import JSONResponse

    app = FastAPI(
        title="cardbase",
        default_response_class=JSONResponse,  # a figure of nothing (NaN) is null, never a 500
        version=__version__,
        docs_url=None,  # FastAPI's Swagger page loads its script from a CDN; ours is served here (api.docs)
        redoc_url=None,
        openapi_url="/api/openapi.json",
        dependencies=[Depends(single_values)],  # a one-value field sent twice is 400, never half taken
    )
    if settings.database is not None:  # None: only the routes are wanted (tests list them)
        # The app's own handle on the same engine and writer lock: deck history says "web" for its
        # changes, while the caller's handle keeps saying where its own come from.
        settings = replace(settings, database=replace(settings.database, origin="web"))
    app.state.settings = settings
    if settings.token:
        from cardbase.errors import register_secret

        register_secret(settings.token)  # a crash file or a log line never holds it
    app.state.faces = images.FaceLRU()
    app.state.write_slots = anyio.Semaphore(settings.write_slots)  # cardbase.web.http.write_turn
    app.state.lab_slots = anyio.Semaphore(lab.LAB_SLOTS)  # cardbase.web.lab.lab_turn
    app.state.lab_stop = threading.Event()  # set when the server stops: a lab run ends at its next chunk
    app.state.lab_workers = None  # a lab run's games: in this process (tests), or
    if settings.agent_processes:  # in a worker process of lower priority, as the agents think (``serve``)
        from cardbase.sim.thinkers import WorkerChunks

        app.state.lab_workers = WorkerChunks()
    app.state.hall = None  # the play tables are another process's (cardbase.web.relay)
    if settings.play_relay is None:
        app.state.hall = Hall(
            settings.database,
            max_active=settings.max_games,
            idle_hours=settings.idle_hours,
            workers=settings.agent_workers,
            processes=settings.agent_processes,
        )
    security.install(app, settings)
    if settings.play_relay is not None:
        from cardbase.web.relay import Relay

        app.add_middleware(Relay, target=settings.play_relay)  # outermost: that process checks them
    errors.install(app)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    app.include_router(api_owners.router)  # before api: /api/cards/{id}/history is not a card id
    app.include_router(api.router)
    app.include_router(lab.router)
    app.include_router(images.router)
    app.include_router(pages_owners.router)  # before pages: /cards/{id}/edit is not a card id
    app.include_router(pages.router)
    app.include_router(play.router)
    app.include_router(replay.router)
    return app


def settings_of(request: Request) -> ServerSettings:
    """The running server's settings (a FastAPI dependency)."""
    settings: ServerSettings = request.app.state.settings
    return settings
