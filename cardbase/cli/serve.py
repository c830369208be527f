"""``cardbase serve``: the web deck builder on this machine (thin: options, then uvicorn)."""

from __future__ import annotations

from typing import Annotated

import typer

from cardbase.cli.common import DbOption


def serve(
    db: DbOption = None,
    host: Annotated[str, typer.Option("--host", help="Address to listen on (loopback by default).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="Port to listen on.")] = 8765,
    token: Annotated[
        str | None,
        typer.Option(
            "--token",
            envvar="CARDBASE_TOKEN",
            help="Token every request must carry (required off loopback).",
            show_default=False,
        ),
    ] = None,
    open_browser: Annotated[bool, typer.Option("--open", help="Open the app in the browser.")] = False,
) -> None:
    """Serve the card gallery and deck builder at http://127.0.0.1:8765.

    Example: uv run cardbase serve --port 8765 --open
    """
    import uvicorn

    from cardbase.cli.common import open_db
    from cardbase.web.app import create_app
    from cardbase.web.settings import ServerSettings

    settings = ServerSettings(database=open_db(db), host=host, port=port, token=token)
    typer.echo(f"cardbase: serving on {settings.base_url}/ (Ctrl-C stops)")
    if open_browser:
        import webbrowser

        webbrowser.open(settings.base_url + "/")
    uvicorn.run(create_app(settings), host=host, port=port, log_level="warning")
