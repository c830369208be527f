"""One regex language on both databases: a ``/regex/`` term finds the same cards on SQLite (RE2 itself)
and on PostgreSQL (whose own engine reads another syntax: it refused the README's ``\\pL`` as a
"database error", read ``\\w`` and ``[[:alpha:]]`` by its locale, and folded case its own way, without
the Kelvin sign K or the long s ſ). PostgreSQL is given the pattern translated to an ARE that spells
out RE2's classes and case folding (``cardbase.db.regex.postgresql_pattern``); what no translation
keeps is refused before any SQL runs, naming the term, on both databases alike."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardbase.errors import QueryError, quoted
from tests.conftest import POSTGRES
from tests.hostile.conftest import assert_refused, run_cli

CARDS = {  # name: rules text; all in the set "conf"
    "Bo\u212aer Ma\u017fk": "Sta\u017fh the \u212aing.",
    "Xyz Plain": "Draw a card.\nThen draw 3 more.",
    "Ελληνική Σοφία": "Κάθε ΣΑΣ σας.",
    "École Café": "CAFÉ au lait, é and É.",
    "Straße STRASSE": "Groß ist ẞ.",
    "snake_case name": "a_b c-d; x=y (z).",
    "日本語 テキスト": "数字 ٣ and ３.",
    "\U0001f600 Smile": "emoji \U0001f600\U0001f601 here",
    "İstanbul ılık": "i I ı İ",
    "ǅemal ﬁnd": "ǆ Ǆ ǅ and ﬁ fi",
    "Tab Name": "tab\there, line one\r\nline two\n\nend",
    "Okra 42": "Stash 3 kisses. Ask Sass.",
}

CONSTRUCTS = [  # the README's regex syntax (RE2's), a pattern or two each
    "\\pL+$",
    "^\\pL",
    "\\p{Greek}",
    "\\p{Lu}\\p{Ll}",
    "\\PL",
    "\\P{Greek}{3}",
    "\\p{^Latin}",
    "\\pN",
    "\\p{Nd}",
    "\\pZ",
    "\\p{Han}",
    "\\pS",
    "\\p{Any}",
    "\\w+",
    "^\\w+$",
    "\\W",
    "\\d",
    "\\D\\d",
    "\\s",
    "\\S\\s\\S",
    "[\\w\\s]{6}$",
    "[^\\w\\s]",
    "[[:alpha:]]{4}",
    "[[:^alpha:]]",
    "[[:upper:]]",
    "[[:lower:]]{3}",
    "[[:digit:]]",
    "[[:space:]]",
    "[[:punct:]]",
    "[[:word:]]+$",
    "[[:alnum:]xy]",
    "[^[:space:]ks]",
    "k",
    "K",
    "\u212a",
    "s",
    "\u017f",
    "ss",
    "ß",
    "ẞ",
    "σ",
    "ς",
    "Σ",
    "é",
    "É",
    "i",
    "I",
    "ı",
    "İ",
    "ǆ",
    "ﬁ",
    "(?i)k",
    "(?-i)k",
    "(?-i)K",
    "(?-i:s)t",
    "(?-i)[a-z]+",
    "(?-i)\\p{Lu}",
    "(?i:É)",
    "x(?-i)y",
    "^draw",
    "(?m)^then",
    "(?m)^line",
    "(?m)more\\.$",
    "two$",
    "end$",
    "\\Aline",
    "end\\z",
    "^",
    "$",
    "^$",
    "(?m)^$",
    ".\\.$",
    "card.then",
    "(?s)card.then",
    "(?s)\\..",
    "\\r\\n",
    "\\n\\n",
    "\\t",
    "\\bdraw\\b",
    "\\Bra",
    "\\bé",
    "é\\b",
    "\\b\\d\\b",
    "\\bsas\\b",
    "[a-c]",
    "[^a-z ]",
    "[]x]",
    "[^]a-z]",
    "[-x]",
    "[x-]",
    "\\.",
    "\\(z\\)",
    "\\Qa.b\\E",
    "\\Qa.\\E*",  # the repeat takes the last character, as after any literal
    "\\Qd)",
    "\\x41",
    "\\x{1F600}",
    "\\101",
    "\\x{212a}",
    "[\\x{1F600}-\\x{1F64F}]+",
    "a|b|",
    "(a|)+c",
    "(?:ca)+",
    "(?P<x>dr)aw",
    "(?<y>dr)aw",
    "a{2}",
    "s{2,}",
    "s{1,2}t",
    "\\d{1,3}",
    "x{300}",
    "a{0,300}b",
    "a*?",
    "(?U)a+",
    "b??o",
    "a{,3}",
    "x{",
    "",
    ".",
    "(?s).",
    "^.{4}$",
    "\\pL{12}",
    "(\\pL|\\d){3}\\s",
    "o" + "k?" * 249 + "r",  # 500 characters, the most a regex may have ((?i) put in front is not counted)
]


@pytest.fixture(scope="module")
def both(catalog_template: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """A SQLite database and a PostgreSQL one, each holding ``CARDS`` in the set ``conf``."""
    if not POSTGRES:
        pytest.skip("comparing SQLite with PostgreSQL (CARDBASE_TEST_POSTGRES is not set)")
    from tests.conftest import new_database

    folder = tmp_path_factory.mktemp("regex-databases")
    sheet = folder / "conf.csv"
    rows = "".join(f'"{name}",monster,"{text}",conf\n' for name, text in CARDS.items())
    sheet.write_text("name,type,text,set\n" + rows, encoding="utf-8")
    lite = f"sqlite:///{folder / 'cards.db'}"
    with new_database(folder, catalog_template) as pg:
        for url in (lite, pg):
            imported = run_cli(["catalog", "import", str(sheet), "--game", "mea", "--db", url])
            assert imported.exit_code == 0, imported.stderr
        yield lite, pg


def _found(db: str, query: str) -> set[str]:
    from cardbase.db.engine import open_database
    from cardbase.db.search import search_cards

    database = open_database(db)
    try:
        with database.session() as session:
            return {row.name for row in search_cards(session, query, "mea", 100)}
    finally:
        database.engine.dispose()


def _re2(pattern: str, column: str) -> set[str]:
    import re2

    compiled = re2.compile("(?i)" + pattern)
    return {name for name, text in CARDS.items() if compiled.search(name if column == "name" else text)}


def _check(both: tuple[str, str], pattern: str) -> None:
    lite, pg = both
    for key, wanted in (("name", _re2(pattern, "name")), ("o", _re2(pattern, "text"))):
        query = f"set:conf {key}:/{pattern}/"
        assert _found(lite, query) == wanted, f"SQLite {query}"
        assert _found(pg, query) == wanted, f"PostgreSQL {query}: RE2 matches {sorted(wanted)}"


@pytest.mark.parametrize("pattern", CONSTRUCTS)
def test_both_databases_find_what_re2_matches(pattern: str, both: tuple[str, str]) -> None:
    _check(both, pattern)


PIECES = [
    *"akosxSKI2é .|*+?",
    "\u212a",
    "\u017f",
    "σ",
    "^",
    "$",
    "\\b",
    "\\B",
    "\\w",
    "\\W",
    "\\d",
    "\\s",
    "\\pL",
    "\\PL",
    "\\p{Greek}",
    "[[:alpha:]]",
    "[^[:space:]ks]",
    "[a-zé]",
    "(k|s)",
    "(",
    ")",
    "{2}",
    "{1,3}",
    "(?i)",
    "(?-i)",
    "(?m)",
    "(?s)",
    "(?-i:k)",
    "\\Qa.\\E",
]


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(pattern=st.lists(st.sampled_from(PIECES), min_size=1, max_size=7).map("".join))
def test_any_regex_finds_the_same_cards_on_both(pattern: str, both: tuple[str, str]) -> None:
    from cardbase.db.regex import check_pattern

    try:
        check_pattern(pattern)
    except QueryError:  # RE2 refuses it (an unclosed group, a repeat of nothing): refused on both
        for db in both:
            with pytest.raises(QueryError):
                _found(db, f"/{pattern}/")
        return
    _check(both, pattern)


@pytest.mark.parametrize(
    ("term", "construct"),
    [
        ("/a\\Cb/", "\\C is not supported"),  # one byte of a character: PostgreSQL reads characters
        ("o:/" + "\\b" * 17 + "/", "17 word boundaries"),  # "too complex" for PostgreSQL's compiler
        ("/(?m)(^x$){9}/", "18 word boundaries and line anchors"),
        ("name:/(a)\\1/", "invalid escape sequence: \\1"),  # RE2's own refusals name the term too
        ("/x" + "y" * 500 + "/", "501 characters is too long"),
    ],
)
def test_a_construct_no_database_runs_alike_is_refused_naming_the_term(term: str, construct: str, db_url: str) -> None:
    """On the database the tests run on (SQLite, or PostgreSQL with CARDBASE_TEST_POSTGRES): the same
    refusal, before any SQL, with exit 2; never PostgreSQL's "database error"."""
    result = run_cli(["cards", "search", f"t:monster {term}", "--game", "mea", "--db", db_url])
    line = assert_refused(result, 2, quoted(term), construct)
    assert "database error" not in line and "(?i)" not in line


@pytest.mark.parametrize(("query", "index"), [("/goblin/", "name"), ("o:/dr[ae]w/", "text"), ("/^gr\\pL+e$/", "name")])
def test_postgresql_reads_its_trigram_indexes_for_the_translated_regex(query: str, index: str, database) -> None:  # type: ignore[no-untyped-def]
    """The ARE (``~``, its letters spelt ``[Gg]``…) is one pg_trgm reads, as it read ``~*``."""
    if not POSTGRES:
        pytest.skip("PostgreSQL's pg_trgm indexes (CARDBASE_TEST_POSTGRES is not set)")
    from sqlalchemy import func, select, text

    from cardbase.db.search import compile_node, parse
    from cardbase.db.tables import card

    with database.session() as session:
        session.execute(text("SET LOCAL enable_seqscan = off"))
        count = select(func.count()).select_from(card).where(compile_node(parse(query)))
        sql = str(count.compile(dialect=session.get_bind().dialect, compile_kwargs={"literal_binds": True}))
        assert "[Gg]" in sql or "[Dd]" in sql, sql  # the translation, not the user's pattern
        plan = " ".join(str(r[0]) for r in session.execute(text("EXPLAIN " + sql.replace("%%", "%"))))
        assert f"Bitmap Index Scan on ix_card_trgm_{index}" in plan, plan


@pytest.mark.parametrize(
    ("pattern", "are"),
    [
        ("k", "[Kk\\u212A]"),  # RE2 folds k with the Kelvin sign
        ("(?-i)k", "k"),
        ("\\d", "[0-9]"),  # ASCII, whatever PostgreSQL's locale calls a digit
        (".", "[^\\u000A]"),
        ("(?s).", "."),
        ("^a$", "\\A[Aa]\\Z"),
        ("(?m)^", "(?<![^\\u000A])"),
        ("x{300}", "(?:[Xx]{255}[Xx]{45})"),  # an ARE counts to 255
    ],
)
def test_the_translation_spells_out_what_re2_means(pattern: str, are: str) -> None:
    from cardbase.db.regex import postgresql_pattern

    assert postgresql_pattern(pattern) == are


@pytest.mark.parametrize("pattern", CONSTRUCTS)
def test_every_construct_translates_within_an_are_s_counts(pattern: str) -> None:
    """Without PostgreSQL: each documented construct translates, with no count PostgreSQL refuses."""
    import re

    from cardbase.db.regex import postgresql_pattern

    counts = [int(n) for n in re.findall(r"\{(\d+)", postgresql_pattern(pattern))]
    assert all(n <= 255 for n in counts), counts
