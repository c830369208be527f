"""Browser tests: Playwright for Python driving Debian's Chromium against a live cardbase server.

One live server per session (per xdist worker): uvicorn serving ``create_app(...)`` in a thread, on
a port the OS picks, over a new database with the shipped catalogs: a SQLite file, or with
``CARDBASE_TEST_POSTGRES`` a new PostgreSQL database (dropped at the end), like the rest of the
suite. One Chromium per session, a new context (cookies, storage, downloads) per test.
Playwright never downloads a browser: it launches ``/usr/bin/chromium`` (Debian's ``chromium``
package; ``.ci/run`` installs it), and a missing one fails every browser test with the command
that installs it.

On a failure the hook below saves a screenshot of each of the test's pages and names the files in
the failure report. A page that throws an uncaught JavaScript error, breaks the app's own
Content-Security-Policy, or asks for anything not served by the app (a CDN, a font), fails the
test at teardown.
"""

from __future__ import annotations

import socket
import threading
import time
import uuid
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import uvicorn
from fastapi import APIRouter
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, expect, sync_playwright

from cardbase.db.engine import Database, open_database
from cardbase.web.app import create_app
from cardbase.web.settings import ServerSettings
from tests.conftest import POSTGRES, _pg_admin_url

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",  # CI runs as root
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
LAPTOP = {"width": 1366, "height": 800}
PHONE = {"width": 390, "height": 844}
TIMEOUT_MS = 15_000  # how long a wait (a click's target, an expect) may take on a busy 2-core machine

expect.set_options(timeout=TIMEOUT_MS)


def wait_until(page: Page, condition: Callable[[], bool], what: str, timeout_ms: float = TIMEOUT_MS) -> None:
    """Wait for a condition of the test's own (a route held, a message seen) while Playwright delivers
    the page's events to the test's handlers; a failure naming ``what`` if it still does not hold after
    ``timeout_ms`` (a bound against a hang, as an ``expect`` has, never a measure of speed). For a
    test that asks "has the page done X yet?": a fixed pause before looking is a bet on the machine."""
    deadline = time.monotonic() + timeout_ms / 1000
    while not condition():
        assert time.monotonic() < deadline, f"{what}: not within {timeout_ms / 1000:g} s"
        page.wait_for_timeout(20)  # Playwright runs the handlers of what arrived meanwhile


def chromium_executable(path: Path = CHROMIUM) -> str:
    """The Chromium to launch, or a test failure saying how to install it (never a skip)."""
    if not path.is_file():
        pytest.fail(
            f"the browser tests need Debian's Chromium at {path}, which is missing; install it with "
            "`apt-get install -y --no-install-recommends chromium` (.ci/run does), "
            "or leave tests/web/browser out: `pytest --ignore=tests/web/browser`",
            pytrace=False,
        )
    return str(path)


@dataclass
class LiveServer:
    """A running cardbase server: its base URL and its database (open it to check what was written)."""

    url: str
    database: Database
    db_url: str
    thread: threading.Thread
    server: uvicorn.Server = field(repr=False)


def start_server(db_url: str, routers: Sequence[APIRouter] = (), images: Path | None = None) -> LiveServer:
    """Serve the database at ``db_url`` on a free loopback port; the socket is bound before the
    app is made, so the port the app's Host check expects is the one it serves (no race under xdist).
    ``routers`` are added to the app (a test's own pages)."""
    database = open_database(db_url)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    settings = ServerSettings(database=database, host="127.0.0.1", port=port, **({"images": images} if images else {}))
    app = create_app(settings)
    for router in routers:  # ahead of the app's own routes (the boards' test table answers /play/{id}/act)
        count = len(app.router.routes)
        app.include_router(router)
        app.router.routes[:] = app.router.routes[count:] + app.router.routes[:count]
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name="cardbase-live-server", daemon=True)
    thread.start()
    waited = threading.Event()
    while not server.started:
        if not thread.is_alive():
            sock.close()
            raise RuntimeError("the live cardbase server stopped while starting; see the log above")
        waited.wait(0.02)
    return LiveServer(settings.base_url, database, db_url, thread, server)


def stop_server(live: LiveServer) -> None:
    live.server.should_exit = True
    live.thread.join(timeout=30)
    live.database.engine.dispose()
    assert not live.thread.is_alive(), "the live cardbase server did not stop within 30 s"


@pytest.fixture(scope="session")
def live_db_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A new, empty database for the session's server: SQLite, or PostgreSQL when the suite runs on it."""
    yield from new_live_db(tmp_path_factory)


def new_live_db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A new, empty database's URL while the generator runs (a server's of its own: what one server's
    tests write, a catalog's new card, another's never sees)."""
    if not POSTGRES:
        yield f"sqlite:///{tmp_path_factory.mktemp('live-db') / 'cards.db'}"
        return
    from sqlalchemy import create_engine, text

    name = f"cardbase_browser_{uuid.uuid4().hex[:12]}"
    admin = create_engine(_pg_admin_url(), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield f"{_pg_admin_url().rsplit('/', 1)[0]}/{name}"
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(scope="session")
def live_server(live_db_url: str) -> Iterator[LiveServer]:
    """A cardbase server over a new database with the shipped catalogs, for this session."""
    live = start_server(live_db_url)
    yield live
    stop_server(live)


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    executable = chromium_executable()  # fail before starting Playwright's driver
    del executable
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    """One headless Chromium for the session."""
    browser = playwright.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS, headless=True)
    yield browser
    browser.close()


@dataclass
class PageWatch:
    """What a test's pages did that no page should: uncaught JS errors, requests to other hosts."""

    errors: list[str] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)


SHOTS = pytest.StashKey[tuple[list[BrowserContext], Path]]()
ContextMaker = Callable[..., BrowserContext]


@pytest.fixture
def new_context(
    browser: Browser, live_server: LiveServer, request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[ContextMaker]:
    """Make browser contexts (Playwright's ``new_context`` options; laptop size by default) whose
    base URL is the live server; each is watched, screenshotted on a failure and closed at the end."""
    made: list[BrowserContext] = []
    watch = PageWatch()
    served = urlsplit(live_server.url).netloc

    def on_page(page: Page) -> None:
        page.on("pageerror", lambda error: watch.errors.append(f"{page.url}: {error}"))
        page.on("console", lambda message: on_console(page, message))

    def on_console(page: Page, message: Any) -> None:
        # The app's Content-Security-Policy refusing a script, style or image of its own pages is a bug;
        # Chromium reports it only on the console. (Failed loads of 4xx answers are expected: not counted.)
        if message.type == "error" and "Content Security Policy" in message.text:
            watch.errors.append(f"{page.url}: {message.text}")

    def on_request(req: Any) -> None:
        parts = urlsplit(req.url)
        if parts.scheme in ("http", "https", "ws", "wss") and parts.netloc != served:
            watch.foreign.append(req.url)

    def make(**options: Any) -> BrowserContext:
        context = browser.new_context(
            **{"base_url": live_server.url, "viewport": LAPTOP, "accept_downloads": True, **options}
        )
        context.set_default_timeout(TIMEOUT_MS)
        context.on("page", on_page)
        context.on("request", on_request)
        made.append(context)
        return context

    request.node.stash[SHOTS] = (made, tmp_path / "screenshots")
    yield make
    for context in made:
        context.close()
    errors = list(dict.fromkeys(watch.errors))
    assert not errors, "uncaught JavaScript errors: " + "; ".join(errors)
    foreign = list(dict.fromkeys(watch.foreign))
    assert not foreign, "requests to other hosts (everything must be served by the app): " + ", ".join(foreign)


@pytest.fixture
def context(new_context: ContextMaker) -> BrowserContext:
    """A new browser context at laptop size, its base URL the live server."""
    return new_context()


@pytest.fixture
def page(context: BrowserContext) -> Page:
    return context.new_page()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, Any]:
    """On a failure, save a screenshot of each open page and name the files in the report."""
    report = yield
    if report.failed and call.when in ("call", "setup") and SHOTS in item.stash:
        contexts, folder = item.stash[SHOTS]
        saved: list[str] = []
        for number, open_page in enumerate(p for context in contexts for p in context.pages):
            target = folder / f"page-{number}.png"
            try:
                folder.mkdir(parents=True, exist_ok=True)
                open_page.screenshot(path=str(target), full_page=True, timeout=5_000)
                saved.append(f"{target} ({open_page.url})")
            except Exception as error:  # a closed or crashed page: say so, keep the real failure
                saved.append(f"{target}: not saved ({type(error).__name__}: {error})")
        text = "\n".join(saved) or "no page was open"
        title = "screenshots of the pages at the failure"
        if hasattr(report.longrepr, "addsection"):
            report.longrepr.addsection(title, text)
        else:
            report.sections.append((title, text))
    return report
