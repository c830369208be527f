"""Off loopback a refusal or a crash names none of the server's folders (its images', its database's,
the temporary folder of crash reports, its working and home folders): a folder this user may not
reach said ``/srv/…/card_images/mea: Permission denied`` to anyone on the network, and a crash the
path of its report. On loopback the user is the server's, and the path is said whole."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import MakeClient

TOKEN = "t" * 32


def _failing(error: BaseException) -> Any:
    def fail(*_args: Any, **_kwargs: Any) -> Any:
        raise error

    return fail


@pytest.mark.parametrize("kind", ["permission", "crash"])
def test_a_refusal_off_loopback_names_no_server_folder(
    kind: str, make_client: MakeClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "temporary"))  # the crash report's folder
    (tmp_path / "temporary").mkdir()
    folder = str(tmp_path / "card_images" / "mea")
    error = PermissionError(13, "Permission denied", folder) if kind == "permission" else RuntimeError("boom")
    monkeypatch.setattr("cardbase.decks.store.list_decks", _failing(error))
    said = {
        "on loopback": make_client().get("/api/decks").json()["error"]["message"],
        "off loopback": make_client(host="0.0.0.0", token=TOKEN)
        .get("/api/decks", headers={"Host": "192.168.1.20:8765", "Authorization": f"Bearer {TOKEN}"})
        .json()["error"]["message"],
    }
    whole = folder if kind == "permission" else str(tmp_path / "temporary")
    assert whole in said["on loopback"], said
    assert str(tmp_path) not in said["off loopback"], said
    assert "…/" in said["off loopback"], said  # where it was is said, not what it is


def test_a_server_file_it_may_not_read_is_the_servers_fault_worded_not_the_clients(
    make_client: MakeClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A PermissionError on the server (its images folder not readable by its user) is no request's
    doing: a worded 500, page and API, saying it is the server's, with no path off loopback."""
    folder = str(tmp_path / "card_images" / "mea")
    monkeypatch.setattr("cardbase.decks.store.list_decks", _failing(PermissionError(13, "Permission denied", folder)))
    api = make_client().get("/api/decks")
    page = make_client().get("/decks")
    off = make_client(host="0.0.0.0", token=TOKEN).get(
        "/api/decks", headers={"Host": "192.168.1.20:8765", "Authorization": f"Bearer {TOKEN}"}
    )
    for answer in (api, page, off):
        assert answer.status_code == 500, answer.text
        assert "the server cannot read" in answer.text and "this user may not reach" not in answer.text
        assert "Traceback" not in answer.text and "crash" not in answer.text.lower()
    assert folder in api.json()["error"]["message"]
    assert str(tmp_path) not in off.text


def test_the_cli_keeps_exit_2_and_its_words_for_a_path_it_may_not_reach() -> None:
    from cardbase.faults import user_error

    said = user_error(PermissionError(13, "Permission denied", "/srv/deck.txt"))
    assert said is not None and said.exit_code == 2
    assert str(said) == "/srv/deck.txt: Permission denied (this user may not reach it)"
