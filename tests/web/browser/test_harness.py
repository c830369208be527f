"""The harness can fail: a missing Chromium, a failed test's screenshot, a JS error, a broken
Content-Security-Policy, a foreign request."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.web.browser.conftest import chromium_executable

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]


def test_missing_chromium_fails_naming_the_install_command(tmp_path: Path) -> None:
    with pytest.raises(pytest.fail.Exception, match=r"apt-get install -y --no-install-recommends chromium"):
        chromium_executable(tmp_path / "no-chromium")


INNER = """
from playwright.sync_api import Page


def test_assertion_fails(page: Page) -> None:
    page.set_content("<h1>the page at the failure</h1>")
    assert page.inner_text("h1") == "something else"


def test_script_error(page: Page) -> None:
    page.set_content("<script>throw new Error('boom from the page')</script>")


def test_policy_violation(page: Page) -> None:
    page.goto("/")
    with page.expect_console_message(lambda message: "Content Security Policy" in message.text):
        page.evaluate('() => document.body.append(Object.assign(document.createElement("script"), {textContent: "1"}))')


def test_foreign_request(page: Page) -> None:
    with page.expect_request(lambda request: "cdn.example.invalid" in request.url):
        page.set_content('<img src="http://cdn.example.invalid/x.png">')
"""


def test_failures_are_reported_with_screenshots(tmp_path: Path) -> None:
    """Run four bad browser tests in a pytest of their own (the conftest copied) and read its report."""
    (tmp_path / "conftest.py").write_text((HERE / "conftest.py").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "test_inner.py").write_text(INNER, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("CARDBASE_TEST_POSTGRES", None)  # the harness is the same on either database: SQLite, faster
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:xdist",
            "--rootdir",
            str(tmp_path),
            "--basetemp",
            str(tmp_path / "base"),
            str(tmp_path / "test_inner.py"),
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    out = run.stdout + run.stderr
    assert run.returncode == 1, out
    assert "1 failed" in out and "3 errors" in out, out
    shot = re.search(r"screenshots of the pages at the failure -+\n(\S+\.png) \(", out)
    assert shot, out
    png = Path(shot.group(1))
    assert png.is_file() and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "uncaught JavaScript errors" in out and "boom from the page" in out, out
    assert "requests to other hosts" in out and "cdn.example.invalid" in out, out
    assert "Content Security Policy" in out, out
