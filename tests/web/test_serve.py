"""``cardbase serve``: a port in use or a bad option is one line (exit 2); off loopback a token is
made and printed once; Ctrl-C stops it with exit 130."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from cardbase.cli.app import app


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_a_port_in_use_is_one_line(db_url: str) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = CliRunner().invoke(app, ["serve", "--port", str(port), "--db", db_url])
    assert result.exit_code == 2
    assert result.output.strip().splitlines()[-1] == (
        f"cardbase: error: --port {port}: the port is in use on 127.0.0.1 (another cardbase serve?); "
        "give another --port"
    )


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--host", "no such host.invalid"], "--host"),
        (["--host", "nonexistent.invalid"], "--host 'nonexistent.invalid'"),
        (["--token", "short"], "--token must be 16 to 200 characters"),
        (["--token", "x" * 20 + " y"], "--token must be printable ASCII"),
        (["--port", "0"], "--port"),
        (["--port", "70000"], "--port"),
        (["--formats", "no-such-formats.toml"], "no-such-formats.toml"),
        (["--formats", "README.md"], "README.md"),
    ],
)
def test_bad_options_are_one_line(db_url: str, args: list[str], said: str) -> None:
    result = CliRunner().invoke(app, ["serve", *args, "--db", db_url])
    assert result.exit_code == 2 and said in result.output and "Traceback" not in result.output


def test_off_loopback_a_token_is_made_printed_once_and_required(tmp_path: Path) -> None:
    port = _free_port()
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    env.pop("CARDBASE_TOKEN", None)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "cardbase",
            "serve",
            "--host",
            "0.0.0.0",
            "--port",
            str(port),
            "--db",
            str(tmp_path / "c.db"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    try:
        assert proc.stdout is not None
        lines = [proc.stdout.readline(), proc.stdout.readline()]
        found = re.search(r"open (http://\S+/\?token=(\S+)) once", lines[1])
        assert lines[0].startswith("cardbase: serving on http://") and found, lines
        token = found.group(2)
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                first = httpx.get(f"{base}/healthz")
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline and proc.poll() is None
                time.sleep(0.2)
        assert first.status_code == 401 and token not in first.text
        with httpx.Client(base_url=base) as browser:
            assert browser.get(f"/?token={token}").status_code == 200
            assert browser.get("/healthz").status_code == 200
        assert httpx.get(f"{base}/healthz", headers={"Authorization": f"Bearer {token}"}).status_code == 200
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert err.strip().splitlines()[-1] == "cardbase: interrupted" and "Traceback" not in err
    assert (lines[1] + out + err).count(token) == 1  # printed once, never logged
