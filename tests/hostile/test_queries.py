"""Class 3 and 5 (queries): a query that cannot run is refused with the offending term, exit 2; a
query that runs finishes quickly whatever its regex, on SQLite and PostgreSQL; nothing is written."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardbase.db.search import MAX_DEPTH, MAX_QUERY_LENGTH, parse
from cardbase.errors import CardbaseError, QueryError
from tests.conftest import REPO
from tests.hostile.conftest import assert_no_crash, assert_refused, db_dump, run_cli

GOBLINS = str(REPO / "examples/decks/mea-goblin-rush.txt")

REFUSED: list[tuple[str, str]] = [
    ("cost<=99999999999999999999", "out of range"),
    ("atk>-99999999999999999999", "out of range"),
    ("cost<1e400", "whole number"),
    ("cost<Infinity", "whole number"),
    ("cost<NaN", "whole number"),
    ("cost<=²", "whole number"),
    ("cost<=0x10", "whole number"),
    ("cost<=" + "9" * 5000, "characters"),
    ("cost<=" + "9" * 1500, "out of range"),
    ("(" * 330 + "x" + ")" * 330, "terms"),
    ("-t:tile", "--"),
    ("(" * (MAX_DEPTH + 1) + "x" + ")" * (MAX_DEPTH + 1), "nests more than"),
    ("and " * 1000 + "x", "characters"),
    ("and " * 300 + "x", "terms"),
    ("x" * (MAX_QUERY_LENGTH + 1), "characters"),
    ("x " * 300, "terms"),
    ("(", "missing"),
    (")", "unmatched"),
    ("(x", "unclosed"),
    ("x)", "unmatched"),
    ("or", "or"),
    ("x or", "or"),
    ("or x", "or"),
    ('"open phrase', "quote"),
    ("/open regex", "regular expression"),
    ("/[/", "regular expression"),
    ("/(a)\\1/", "backreferences"),
    ("/(?=x)/", "lookaround"),
    ("/(?<!x)y/", "lookaround"),
    ("/" + "a" * 600 + "/", "too long"),
    ("cost:", "no value"),
    ("t:", "no value"),
    ("cots<3", "unknown field"),
    ("cots<3", "cost"),
    ("zzz:1", "unknown field"),
    ("t:nonsense", "unknown card type"),
    ("game:chess", "unknown game"),
    ("is:everything", "is: takes"),
    ("unknown:colour", "unknown: takes"),
    ("suit:stars", "suit is"),
    ("cost:/x/", "regex"),
    ("o<3", "text"),
]


@pytest.mark.parametrize(("query", "phrase"), REFUSED, ids=[f"{i}:{q[:30]}" for i, (q, _) in enumerate(REFUSED)])
def test_bad_search_is_refused_naming_the_term(query: str, phrase: str, shared_db: str) -> None:
    before = db_dump(shared_db)
    assert_refused(run_cli(["cards", "search", query], shared_db), 2, phrase)
    assert db_dump(shared_db) == before


NEEDS = [(q, p) for q, p in REFUSED if p != "--"]  # in --need a leading '-' is inside the option's value


@pytest.mark.parametrize(("query", "phrase"), NEEDS, ids=[f"{i}:{q[:30]}" for i, (q, _) in enumerate(NEEDS)])
def test_bad_need_in_draws_is_refused(query: str, phrase: str, shared_db: str) -> None:
    run = run_cli(["draws", GOBLINS, "--need", f"1 {query}", "--cards", "5"], shared_db)
    assert_refused(run, 2, phrase)


CATASTROPHIC = [
    "/^(\\w+\\s?)+#/",
    "/(a+)+$/",
    "/(a|aa)+b/",
    "/^(([a-z])+.)+[A-Z]([a-z])+$/",
    "/(x+x+)+y/",
    "/(.*a){12}/",
]


@pytest.mark.parametrize("query", CATASTROPHIC)
def test_backtracking_regexes_finish_over_long_names(query: str, hostile_db: str, in_tmp) -> None:
    # Cards whose names and texts make Python's backtracking `re` take minutes on these patterns.
    rows = "name,type,text\n" + "".join(
        f"{'a' * 28 + chr(97 + i)} {'word ' * 6},monster,{'a' * 40 + ' b' * 20}\n" for i in range(20)
    )
    (in_tmp / "long.csv").write_text(rows, encoding="utf-8")
    assert run_cli(["catalog", "import", "long.csv", "--game", "mea"], hostile_db).exit_code == 0
    run = run_cli(["cards", "search", query, "--game", "mea"], hostile_db)
    assert_no_crash(run)
    run = run_cli(["draws", GOBLINS, "--need", f"1 {query}", "--cards", "5"], hostile_db)
    assert_no_crash(run)


@pytest.mark.parametrize("limit", ["0", "-1", "10001", str(10**20), "1e3", "many"])
def test_search_limit_out_of_range(limit: str, shared_db: str) -> None:
    assert_refused(run_cli(["cards", "search", "x", "--limit", limit], shared_db), 2, "--limit")


_QUERY_ALPHABET = st.sampled_from(
    [*"abcxyz019 -()/\"'!:=<>\\^$*+?.[]{}|#²٣éß勇", "or ", "and ", "t:", "cost", "atk", "is:", "/", "\\1", "(?="]
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(query=st.lists(_QUERY_ALPHABET, max_size=40).map("".join))
def test_fuzz_the_search_parser_gives_a_tree_or_a_query_error(query: str) -> None:
    from cardbase.db.search import build_select

    try:
        parse(query)
        build_select(query, "mea").compile()
    except QueryError:
        pass


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(query=st.lists(_QUERY_ALPHABET, min_size=1, max_size=25).map("".join))
def test_fuzz_search_against_the_database(query: str, shared_db: str) -> None:
    from cardbase.db.engine import open_database
    from cardbase.db.search import search_cards

    database = open_database(shared_db)
    try:
        with database.session() as session, contextlib.suppress(CardbaseError):
            search_cards(session, query, None, 20)
    finally:
        database.engine.dispose()
