"""The web app through the ASGI test client, on the suite's database (SQLite, or PostgreSQL when
CARDBASE_TEST_POSTGRES is set: a new database per test)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from cardbase.cli.app import app as cli_app
from cardbase.db.engine import Database
from cardbase.web.app import create_app
from cardbase.web.settings import ServerSettings

MakeClient = Callable[..., TestClient]


@pytest.fixture
def make_client(database: Database, tmp_path: Path) -> Iterator[MakeClient]:
    """``make_client(host=…, token=…)``: a test client of an app over the test's database, sending
    the Host header of the address served."""
    clients: list[TestClient] = []

    def make(**options: Any) -> TestClient:
        settings = ServerSettings(database=database, images=tmp_path / "card_images", **options)
        client = TestClient(create_app(settings), base_url=settings.base_url, raise_server_exceptions=False)
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.close()


@pytest.fixture
def client(make_client: MakeClient) -> TestClient:
    return make_client()


@pytest.fixture
def cli(db_url: str, database: Database) -> Callable[..., Any]:
    """``cli("deck", "list", "--json")``: the CLI's JSON output over the same database."""
    runner = CliRunner()

    def run(*args: str) -> Any:
        result = runner.invoke(cli_app, [*args, "--db", db_url])
        assert result.exit_code in (0, 1), result.output
        return json.loads(result.stdout)

    return run


def new_deck(client: TestClient, name: str = "Rush", game: str = "mea") -> int:
    response = client.post("/api/decks", json={"game": game, "name": name})
    assert response.status_code == 201, response.text
    deck_id: int = response.json()["id"]
    return deck_id


def error_of(response: Any) -> str:
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) >= {"message", "term"}, body
    message: str = body["error"]["message"]
    assert "Traceback" not in response.text and "\n" not in message
    return message


def api_routes(app: Any) -> list[Any]:
    """Every route of ``app`` with an endpoint (FastAPI's ``APIRoute``), routers included at any depth."""
    from fastapi.routing import APIRoute, iter_route_contexts

    return [c.original_route for c in iter_route_contexts(app.routes) if isinstance(c.original_route, APIRoute)]
