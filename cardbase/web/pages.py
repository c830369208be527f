"""The HTML pages (server-rendered with Jinja2; small scripts in ``static/`` make them live)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from cardbase.web.app import TEMPLATES

router = APIRouter()


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> HTMLResponse:
    return TEMPLATES.TemplateResponse(request, "home.html", {})
