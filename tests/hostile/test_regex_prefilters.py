"""A ``/regex/`` term finds exactly the cards RE2 matches. Its prefilters (a ``LIKE`` on the literal
every match holds, the literal a ``^`` anchors, the search index's phrases) were read from the pattern
by Python's ``re`` parser, whose syntax and case folding are not RE2's, and dropped cards the regex
matches: ``/[[:alpha:]xy]/`` (RE2: a letter, an x or a y; Python: a set and then the text ``xy]``)
found only cards holding ``xy``, printing Python's FutureWarning on stderr; ``/bok/`` and ``/mask/``
(RE2 folds ``k`` with the Kelvin sign K and ``s`` with the long s ſ) missed ``BoKer Maſk``. The
oracle here is the regex alone as the database runs it (RE2 in SQLite, which is checked against RE2 itself)."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardbase.db.search import anchored_prefix, required_literal
from cardbase.errors import QueryError
from tests.conftest import POSTGRES
from tests.hostile.conftest import run_cli

CARDS = {  # name: rules text; all in the set "conf"
    "Bo\u212aer Ma\u017fk": "Sta\u017fh the \u212aing.",
    "Xyz Plain": "Draw a card.",
    "Skulk Kiosk": "Kiss the sky.",
    "Ask Sass": "Bok bok.",
    "Okra 42": "Stash 3 kisses.",
}

PIECES = [
    *"aksoxyrSKB2 .",
    "\u212a",
    "\u017f",
    "bok",
    "mask",
    "stash",
    "kis",
    "^",
    "[[:alpha:]]",
    "[[:alpha:]xy]",
    "[[:digit:]ok]",
    "[^[:space:]ks]",
    "(k|s)",
    "a*",
    "s?",
    "\\pL",
    "(?i)",
    "(?-i:k)",
]


@pytest.fixture(scope="module")
def conf_db(catalog_template: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from tests.conftest import new_database

    folder = tmp_path_factory.mktemp("regex-prefilters")
    with new_database(folder, catalog_template) as url:
        db = str(folder / "cards.db") if not POSTGRES else url
        sheet = folder / "conf.csv"
        rows = "".join(f'"{name}",monster,"{text}",conf\n' for name, text in CARDS.items())
        sheet.write_text("name,type,text,set\n" + rows, encoding="utf-8")
        assert run_cli(["catalog", "import", str(sheet), "--game", "mea", "--db", db]).exit_code == 0
        yield db


def _found(db: str, query: str) -> set[str] | None:
    from sqlalchemy.exc import DBAPIError

    from cardbase.db.engine import open_database
    from cardbase.db.search import search_cards

    database = open_database(db)
    try:
        with database.session() as session:
            try:
                return {row.name for row in search_cards(session, query, "mea", 100)}
            except (QueryError, DBAPIError):  # refused
                return None
    finally:
        database.engine.dispose()


def _regex_alone(db: str, pattern: str, column: str) -> set[str] | None:
    """The cards of the set whose ``column`` the regex itself matches, as the database runs it (RE2
    in SQLite, ``~`` and its translation in PostgreSQL), with no prefilter in front: what the search must find."""
    from sqlalchemy import select

    from cardbase.db.engine import open_database
    from cardbase.db.models import Card
    from cardbase.db.search import _MatchesCI

    database = open_database(db)
    try:
        with database.session() as session:
            target = Card.name if column == "name" else Card.text
            stmt = select(Card.name).where(Card.set_code == "conf", _MatchesCI(target, pattern))
            return set(session.scalars(stmt))
    except Exception:  # a pattern the database's engine refuses: the search refuses it too
        return None
    finally:
        database.engine.dispose()


def _re2(pattern: str, column: str) -> set[str] | None:
    import re2

    try:
        compiled = re2.compile("(?i)" + pattern)
    except re2.error:
        return None
    return {name for name, text in CARDS.items() if compiled.search(name if column == "name" else text)}


def _check(db: str, pattern: str) -> None:
    for column, key in (("name", "name"), ("text", "o")):
        wanted = _regex_alone(db, pattern, column)
        assert wanted == _re2(pattern, column)  # SQLite's REGEXP is RE2; PostgreSQL's ~ is given RE2's translation
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            found = _found(db, f"set:conf {key}:/{pattern}/")
        parser = [str(w.message) for w in seen if issubclass(w.category, FutureWarning)]  # re's parser's
        assert not parser, f"{key}:/{pattern}/ warned: {parser}"  # not the user's to see
        if wanted is not None and found is not None:
            assert found == wanted, f"{key}:/{pattern}/ found {sorted(found)}, RE2 matches {sorted(wanted)}"


@pytest.mark.parametrize(
    "pattern",
    ["[[:alpha:]xy]", "[[:alpha:]]", "bok", "^bok", "mask", "stash", "^sta", "kis", "[^[:space:]ks]ky", "o.er"],
)
def test_a_regex_finds_what_re2_matches(pattern: str, conf_db: str) -> None:
    _check(conf_db, pattern)


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(pattern=st.lists(st.sampled_from(PIECES), min_size=1, max_size=6).map("".join))
def test_any_regex_finds_what_re2_matches(pattern: str, conf_db: str) -> None:
    _check(conf_db, pattern)


@pytest.mark.parametrize(
    ("pattern", "literal", "prefix"),
    [
        ("goblin", "goblin", ""),
        ("^gob.*n", "gob", "gob"),
        ("[[:alpha:]xy]", None, ""),  # Python reads ``xy]`` as text after a set; RE2 a class
        ("^[[:alpha:]]ab", None, ""),
        ("bok", "bo", ""),  # ``k`` folds with the Kelvin sign in RE2: a LIKE on it would miss that
        ("mask", "ma", ""),
        ("^stash", "ta", ""),
    ],
)
def test_the_prefilters_read_only_what_re2_requires(pattern: str, literal: str | None, prefix: str) -> None:
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        assert required_literal(pattern) == literal
        assert anchored_prefix(pattern) == prefix
    assert not seen


def test_the_command_finds_them_and_says_nothing_else(conf_db: str) -> None:
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        result = run_cli(["cards", "search", "set:conf /[[:alpha:]xy]/", "--game", "mea", "--db", conf_db])
    ours = [w for w in seen if issubclass(w.category, FutureWarning)]  # what re's parser warns
    assert not ours and "Warning" not in result.stderr, result.stderr
    assert all(name in result.stdout for name in ("Xyz Plain", "Skulk Kiosk", "Okra 42"))
    assert "Ma\u017fk" in result.stdout  # on PostgreSQL too: its ARE spells out RE2's folding (K, ſ)
