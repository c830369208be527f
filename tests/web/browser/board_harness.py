"""A minimal table for the boards' browser tests: a page per seat drawing the board partial
(``play/_board_{game}.html``) with its legal actions, and ``POST /play/{id}/act`` applying the
action the board's form sends (``action_id`` or ``action``, checked against ``version``), then the
agents' moves. Only what the boards need; the product's table is ``/play``."""

from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import APIRouter, Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from cardbase.games.base import CHANCE, State
from cardbase.sim.boards import board_view, legal_view
from cardbase.web.app import TEMPLATES

router = APIRouter()
PAGE = """{% extends "base.html" %}{% block main %}
<p id="harness-version" data-version="{{ version }}">version {{ version }}</p>
{% if error %}<p id="error" class="error">{{ error }}</p>{% endif %}
{% include "play/_board_" ~ game ~ ".html" %}
{% endblock %}"""


@dataclass
class Table:
    state: State
    agents: dict[int, Any] = field(default_factory=dict)
    version: int = 0
    errors: list[str] = field(default_factory=list)
    posted: list[str] = field(default_factory=list)
    """How each action came: ``id`` (a legal action's index) or ``text``."""


TABLES: dict[str, Table] = {}
LOCK = threading.Lock()
_ids = itertools.count(1)


def new_table(state: State, agents: dict[int, Any] | None = None) -> str:
    """Seat a game (agents on some seats, by seat); its id."""
    table = Table(state, agents or {})
    run_agents(table)
    key = f"t{next(_ids)}"
    with LOCK:
        TABLES[key] = table
    return key


def run_agents(table: Table) -> None:
    state = table.state
    while not state.is_terminal:
        if state.current_player == CHANCE:
            state.apply(state.sample_chance())
        elif state.current_player in table.agents:
            agent = table.agents[state.current_player]
            state.apply(agent.act(state.observation(state.current_player), state.legal_actions()))
        else:
            return


@router.get("/harness/{key}", response_class=HTMLResponse)
def seat_page(request: Request, key: str, seat: Annotated[int, Query()], error: str = "") -> HTMLResponse:
    table = TABLES[key]
    with LOCK:
        state = table.state
        view = board_view(state.rules.game_id, state.observation(seat))
        legal = legal_view(state, state.legal_actions()) if state.current_player == seat else []
        context = {
            "game": state.rules.game_id,
            "view": view,
            "legal": legal,
            "seat": seat,
            "version": table.version,
            "game_id": key,
            "error": error,
        }
    html = TEMPLATES.env.from_string(PAGE).render(request=request, **context)
    return HTMLResponse(html)


@router.post("/play/{key}/act")
def act(
    key: str,
    seat: Annotated[int, Form()],
    version: Annotated[int, Form()],
    action_id: Annotated[int | None, Form()] = None,
    action: Annotated[str | None, Form()] = None,
) -> Response:
    table = TABLES[key]
    error = ""
    with LOCK:
        state = table.state
        table.posted.append("id" if action_id is not None else "text")
        if version != table.version:
            error = "stale"
        elif state.current_player != seat:
            error = "not your turn"
        else:
            try:
                chosen = state.legal_actions()[action_id] if action_id is not None else state.parse_action(action or "")
                state.apply(chosen)
            except Exception as problem:  # the test reads the page's error
                error = f"{type(problem).__name__}: {problem}"
            else:
                table.version += 1
                run_agents(table)
        if error:
            table.errors.append(error)
    return RedirectResponse(f"/harness/{key}?seat={seat}" + (f"&error={error}" if error else ""), status_code=303)
