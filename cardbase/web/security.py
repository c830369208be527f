"""Host (DNS rebinding), Origin (CSRF) and token checks, installed on the app as one middleware."""

from __future__ import annotations

from fastapi import FastAPI

from cardbase.web.settings import ServerSettings


def install(app: FastAPI, settings: ServerSettings) -> None:
    """Add the checks to ``app``. (Skeleton: the checks themselves are issue 14's web-core work.)"""
