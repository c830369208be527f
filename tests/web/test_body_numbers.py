"""Class 8 (a JSON body with a whole number too long to read, on every route that changes anything):
a 400 naming the line and column and the bound, as the CLI's JSON readers say it. FastAPI reads the
body before any of cardbase's code and said only "There was an error parsing the body"."""

from __future__ import annotations

import re
from typing import Any

import pytest


def _change_routes() -> list[tuple[str, str]]:
    from cardbase.web.app import create_app
    from cardbase.web.settings import ServerSettings
    from tests.web.conftest import api_routes

    app = create_app(ServerSettings(database=None))
    return [(sorted(r.methods)[0], r.path) for r in api_routes(app) if r.methods & {"POST", "PUT", "PATCH", "DELETE"}]


@pytest.mark.parametrize(("method", "path"), _change_routes(), ids=lambda v: str(v))
def test_a_request_body_with_such_a_number_is_refused_naming_its_place(
    method: str, path: str, make_client: Any
) -> None:
    """FastAPI reads a JSON body first and said only "There was an error parsing the body"."""
    client = make_client()
    url = re.sub(r"\{[^}]+\}", "1", path)
    body = b'{"game": "mea",\n "name": ' + b"9" * 5_000 + b"}"
    answer = client.request(method, url, content=body, headers={"content-type": "application/json"})
    assert answer.status_code < 500, answer.text[:300]
    assert "error parsing the body" not in answer.text, (method, path, answer.text[:300])
    if "5,000 digits" in answer.text:
        assert answer.status_code == 400 and "line 2, column 10" in answer.text, answer.text[:300]
