"""The play tables of a server of several processes (``serve --workers N``): they live in the first
process (``sim.hall.Hall``: each table, its agents and its event streams are objects of one process),
so the other processes pass every request for them (``/play…``, ``/api/games…``) on to it, over a
loopback socket only it listens on, and its answer back as it comes (event streams included). Every
other route reads and writes the database, whose versions and stamps key every cache: any process
answers them."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

PLAY_PATHS = ("/play", "/api/games")
"""The routes of the play tables."""


def is_play(path: str) -> bool:
    return any(path == p or path.startswith(p + "/") for p in PLAY_PATHS)


class Relay:
    """ASGI middleware: requests for the play tables go to the process that has them (``target``,
    ``http://127.0.0.1:PORT``), headers and body as sent (its own checks see what the client sent)."""

    def __init__(self, app: Any, target: str) -> None:
        self.app = app
        self.target = target
        self._client: Any = None

    def client(self) -> Any:
        import httpx

        if self._client is None:
            self._client = httpx.AsyncClient(base_url=self.target, timeout=httpx.Timeout(30, read=None))
        return self._client

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not is_play(scope["path"]):
            await self.app(scope, receive, send)
            return
        import anyio
        import httpx

        async def body() -> AsyncIterator[bytes]:
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return
                yield message.get("body", b"")
                if not message.get("more_body", False):
                    return

        path = (scope.get("raw_path") or scope["path"].encode()).decode("latin-1")
        query = scope["query_string"].decode("latin-1")
        url = f"{path}?{query}" if query else path
        headers = [(k, v) for k, v in scope["headers"] if k.lower() not in (b"connection", b"keep-alive")]
        request = self.client().build_request(scope["method"], url, headers=headers, content=body())
        try:
            answer = await self.client().send(request, stream=True)
        except httpx.HTTPError:
            await _unavailable(send)
            return
        try:
            hop = {"connection", "keep-alive", "transfer-encoding"}
            await send(
                {
                    "type": "http.response.start",
                    "status": answer.status_code,
                    "headers": [(k, v) for k, v in answer.headers.raw if k.decode("latin-1").lower() not in hop],
                }
            )
            async with anyio.create_task_group() as group:

                async def watch() -> None:  # the client left (a closed event stream): stop reading
                    while (await receive())["type"] != "http.disconnect":
                        pass
                    group.cancel_scope.cancel()

                group.start_soon(watch)  # the request's body is sent by now
                async for chunk in answer.aiter_raw():
                    await send({"type": "http.response.body", "body": chunk, "more_body": True})
                await send({"type": "http.response.body", "body": b"", "more_body": False})
                group.cancel_scope.cancel()
        finally:
            await answer.aclose()


async def _unavailable(send: Send) -> None:
    body = b"the play tables are not answering (their process is stopping?); try again shortly\n"
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"retry-after", b"2")]
    await send({"type": "http.response.start", "status": 503, "headers": headers})
    await send({"type": "http.response.body", "body": body})
