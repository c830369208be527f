"""What one running server knows: its database, the address it serves, and its token."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

LOOPBACK = ("127.0.0.1", "localhost", "::1")


@dataclass(frozen=True)
class ServerSettings:
    """The options of ``cardbase serve`` that the app itself needs."""

    database: Any  # cardbase.db.engine.Database
    host: str = "127.0.0.1"
    port: int = 8765
    token: str | None = None  # required on every request when set; set whenever host is not loopback

    @property
    def loopback(self) -> bool:
        return self.host in LOOPBACK

    @property
    def base_url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"
