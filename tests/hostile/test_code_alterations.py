"""Class 9 (a share code altered): a code with one character changed, cut anywhere or given one more
is refused saying it is damaged — never read as another deck. Codes carried no check: one changed
character of a Méa code made its format ``stendard`` and another changed a card's count, and both
decoded (exit 0) to a deck nobody shared. Codes of version 4 end in a CRC-16 of the bytes before it,
which tells every change of one character (at most 6 bits in a row, well inside its 16); codes of
versions 1 to 3, made before, still decode.

Generated over every example deck and every position of its code, through ``read_code`` (which the
CLI's ``deck decode``/``deck import``, share links and the web's import all read codes with).
"""

from __future__ import annotations

import pytest

from cardbase.errors import UsageError
from tests.conftest import REPO, new_database
from tests.hostile.conftest import assert_refused, run_cli

DECKS = sorted((REPO / "examples" / "decks").glob("*.txt"))
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


@pytest.fixture(scope="module")
def codes(catalog_template: str, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    found = {}
    # a copy: a command's connections to the template itself would make PostgreSQL refuse to copy it
    with new_database(tmp_path_factory.mktemp("codes"), catalog_template) as url:
        for deck in DECKS:
            run = run_cli(["deck", "encode", str(deck)], url)
            if run.exit_code == 0:
                found[deck.name] = run.stdout.strip()
    assert len(found) >= 4, found
    return found


def _refused(code: str) -> str | None:
    """Why ``code`` is refused, or None if it reads."""
    from cardbase.decks.files import read_code

    try:
        read_code(code)
    except UsageError as error:
        return str(error)
    return None


def test_every_code_of_today_reads(codes: dict[str, str]) -> None:
    for name, code in codes.items():
        assert _refused(code) is None, name


def test_a_code_with_any_one_character_changed_is_refused(codes: dict[str, str]) -> None:
    read = []
    for name, code in codes.items():
        for at, char in enumerate(code):
            for other in (ALPHABET[(ALPHABET.index(char) + step) % 64] for step in (1, 7, 32)):
                altered = code[:at] + other + code[at + 1 :]
                if _refused(altered) is None:
                    read.append(f"{name}: position {at}: {char!r} → {other!r}")
    assert not read, f"{len(read)} altered codes read as decks: {read[:10]}"


def test_a_code_cut_anywhere_or_lengthened_is_refused(codes: dict[str, str]) -> None:
    read = []
    for name, code in codes.items():
        for length in range(1, len(code)):
            if _refused(code[:length]) is None:
                read.append(f"{name}: cut to {length}")
        for extra in "AQw_":
            if _refused(code + extra) is None:
                read.append(f"{name}: + {extra!r}")
    assert not read, read[:10]


def test_a_damaged_code_is_one_line_naming_the_argument(codes: dict[str, str], shared_db: str) -> None:
    code = codes["mea-goblin-rush.txt"]
    altered = code[:-1] + ALPHABET[(ALPHABET.index(code[-1]) + 1) % 64]
    assert_refused(run_cli(["deck", "decode", altered], shared_db), 2, "'code'", "damaged")


def test_a_code_of_a_newer_cardbase_says_so() -> None:
    import base64

    from cardbase.decks.files import CODE_VERSION, _check

    body = bytes([CODE_VERSION + 1, 0, 0, 0, 0, 0, 0, 0])
    newer = base64.urlsafe_b64encode(body + _check(body)).decode().rstrip("=")
    said = _refused(newer)
    assert said is not None and "newer" in said, said


def test_a_code_imported_as_another_games_deck_is_refused(codes: dict[str, str], hostile_db: str) -> None:
    """``POST /api/decks/import`` with ``code`` and ``game``: a code of another game is refused, as a
    deck text of another game is (the CLI's ``wrong-game``); the ``game`` was ignored and the deck
    stored as the code's game, 201."""
    from fastapi.testclient import TestClient

    from cardbase.db.engine import open_database
    from cardbase.web.app import create_app
    from cardbase.web.settings import ServerSettings
    from tests.hostile.conftest import db_dump

    database = open_database(hostile_db)
    settings = ServerSettings(database=database, lock_wait=2)
    try:
        with TestClient(create_app(settings), base_url=settings.base_url, raise_server_exceptions=False) as client:
            before = db_dump(hostile_db)
            for given in ("meio", "meikyu"):
                body = {"code": codes["mea-goblin-rush.txt"], "game": given, "name": "X"}
                refused = client.post("/api/decks/import", json=body)
                assert refused.status_code == 400, refused.text
                assert f"not {given}" in " ".join(refused.json()["error"]["problems"]), refused.text
            assert db_dump(hostile_db) == before
            body = {"code": codes["mea-goblin-rush.txt"], "game": "mea", "name": "X"}
            assert client.post("/api/decks/import", json=body).status_code == 201
    finally:
        database.engine.dispose()


def test_a_code_whose_version_character_is_changed_is_said_damaged(codes: dict[str, str]) -> None:
    """The first character holds the version: changed, it read as a newer version (62 of 64 changes) and
    the message told the user only to update cardbase. A version past this cardbase's whose check does
    not match is said damaged too; one whose check matches is a newer cardbase's."""
    import base64

    from cardbase.decks.files import CODE_VERSION, _check

    code = codes["mea-goblin-rush.txt"]
    for other in "CDEKZaz-_":
        said = _refused(other + code[1:])
        assert said is not None and "damaged" in said, (other, said)
    body = bytes([CODE_VERSION + 1, 0, 0, 0])
    newer = base64.urlsafe_b64encode(body + _check(body)).decode().rstrip("=")
    said = _refused(newer)
    assert said is not None and "newer" in said and "damaged" not in said, said


def test_a_code_given_with_base64_padding_reads(codes: dict[str, str]) -> None:
    """Base64 tools pad with ``=``; the padding says nothing, so a padded code is the same code."""
    for name, code in codes.items():
        padded = code + "=" * (-len(code) % 4)
        assert _refused(padded) is None, name
